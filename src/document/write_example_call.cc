// document/write_example_call.cc: exampleFix as a call of the function with other
// arguments -- a bad and a good value of the tested parameter, a converted tensor,
// a tensor moved to the other's device. See write_example.h.
#include <algorithm>

#include "document/text.h"
#include "document/values.h"
#include "document/write_example.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

// "an instance of `str`" -> "an instance of str" (a code comment has no backticks).
std::string Unticked(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return s;
}

// `w1.dtype != torch.bfloat16 or w2.dtype != torch.bfloat16`, `not (k.is_contiguous() and
// v.is_contiguous())`: every atom a dtype or contiguity test of a tensor parameter; C++'s
// `k.dtype() == dl_uint8 && v.dtype() == dl_uint8` too (a binding reached from Python).
// The call with the tensors as they are, and with each converted.
std::optional<std::string> TensorsFix(const SiteFacts& sf, const Fact& f) {
  if (!f.disjunction || f.any_of.size() > 4 || !sf.ctx->known) return std::nullopt;
  bool python = sf.site->language == "python";
  std::vector<std::pair<std::string, std::string>> conv;  // param -> converted form
  std::string why;
  for (const Atom& a : f.any_of) {
    std::string x = Trim(a.lhs), t, fixed, note;
    if (!python && EndsWith(x, ".dtype()")) x.resize(x.size() - 2);
    if ((a.op == "!=" || a.op == "is not") && EndsWith(x, ".dtype")) {
      t = x.substr(0, x.size() - 6);
      std::string d = TorchDtype(Trim(a.rhs));
      if (d.empty()) return std::nullopt;
      fixed = t + ".to(" + d + ")", note = t + ".dtype is not " + d;
    } else if (a.op.empty() && a.falsy && EndsWith(x, ".is_contiguous()")) {
      t = x.substr(0, x.size() - 16);
      fixed = t + ".contiguous()", note = t + " is not contiguous";
    } else {
      return std::nullopt;
    }
    if (!IsParam(sf, t) || IsOutputBuffer(t)) return std::nullopt;  // a converted copy of an output loses the result
    for (const auto& [name, fx] : conv)
      if (name == t) return std::nullopt;  // one tensor tested twice: no single conversion shown
    conv.emplace_back(t, fixed);
    if (why.empty()) why = note;
  }
  if (conv.size() < 2) return std::nullopt;
  if (!python) {
    // By position, in the signature's order, as the other fixes of a binding.
    std::sort(conv.begin(), conv.end(), [&](const auto& p, const auto& q) { return ParamIndex(sf, p.first) < ParamIndex(sf, q.first); });
    std::string before, after;
    for (const auto& [name, fixed] : conv) before += name + ", ", after += fixed + ", ";
    std::string fx = BeforeAfter(CallName(sf) + "(..., " + before + "...)  # " + why, CallName(sf) + "(..., " + after + "...)");
    if (fx.empty()) return std::nullopt;
    return fx;
  }
  std::string call = PublicCallName(sf, conv[0].first), before, after;
  for (const auto& [name, fixed] : conv) {
    before += (before.empty() ? "" : ", ") + name + "=" + name;
    after += (after.empty() ? "" : ", ") + name + "=" + fixed;
  }
  std::string fx = BeforeAfter(call + "(" + before + ")  # " + why, call + "(" + after + ")");
  if (fx.empty()) return std::nullopt;
  return fx;
}

}  // namespace

int ParamIndex(const SiteFacts& sf, const std::string& name) {
  for (size_t i = 0; i < sf.ctx->params.size(); ++i)
    if (sf.ctx->params[i].name == name) return static_cast<int>(i);
  return -1;
}

bool IsParam(const SiteFacts& sf, const std::string& name) {
  for (const auto& p : sf.ctx->params)
    if (p.name == name && !p.star) return true;
  return false;
}

bool ReportsMismatch(const SiteFacts& sf) {
  std::string fn = Lower(sf.ctx->def_name);
  return fn.find("assert") != std::string::npos || fn.find("compare") != std::string::npos ||
         fn.find("equal") != std::string::npos;
}

std::string PublicCallName(const SiteFacts& sf, const std::string& param) {
  const std::string& f = sf.func;
  if (!StartsWith(f, "_") || StartsWith(f, "__") || param.empty()) return CallName(sf);
  for (const auto& c : sf.ctx->callers) {
    if (c.scope == "<module>" || StartsWith(c.scope, "class ")) continue;
    std::string last = LastComponent(c.scope);
    size_t dot = c.scope.rfind('.');
    std::string cls = dot == std::string::npos ? "" : c.scope.substr(0, dot);
    bool ctor = last == "__init__" || last == "__new__";
    if (StartsWith(last, "_") && !ctor) continue;
    if (!HasWord(c.call, param)) continue;
    if (ctor) return cls.empty() ? CallName(sf) : cls;
    return cls.empty() ? last : "obj." + last;
  }
  return CallName(sf);
}

std::string ParamTypeOf(const SiteFacts& sf, const Subject& s) {
  if (!s.param_info) return "";
  if (!Trim(s.param_info->annotation).empty()) return s.param_info->annotation;
  for (const Fact& f : sf.facts)
    if (f.subj.kind == SubjectKind::kType && f.subj.param == s.param && !f.subj.missing && !f.disjunction && f.subj.via.empty() &&
        !f.from_else)
      return f.subj.pred;
  const std::string d = Trim(s.param_info->default_value);
  long n;
  if (d.size() >= 2 && (d.front() == '"' || d.front() == '\'') && d.back() == d.front()) return "str";
  if (StartsWith(d, "[")) return "list";
  if (StartsWith(d, "{")) return "dict";
  if (IntLiteral(d, &n)) return "int";
  return "";
}

std::string CallWith(const SiteFacts& sf, const std::string& param, const std::string& value, const std::string& note,
                     bool ctor) {
  std::string call = ctor ? sf.ctx->class_name : PublicCallName(sf, param);
  int others = 0;
  bool known = sf.ctx->known;
  for (const auto& p : sf.ctx->params)
    if (p.name != "self" && p.name != "cls" && p.name != param && !p.star) ++others;
  // Python: by keyword; another language (a kernel reached through its binding): by position.
  std::string args = !known                            ? "..., " + value + ", ..."
                     : sf.site->language == "python" ? param + "=" + value
                     : others == 0                     ? value
                                                       : "..., " + value + ", ...";
  return call + "(" + args + ")" + (note.empty() ? "" : "  # " + note);
}

std::optional<std::string> CallFix(const SiteFacts& sf) {
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    const Subject& s = f.subj;
    const Atom& a = f.atom;
    if (f.disjunction) {
      // `x < 1 or x > 12` of one argument: a value out of range and one inside.
      std::string p;
      long bad, good, lo, hi;
      if (!IntRange(sf, f, &p, &bad, &good, &lo, &hi) && !LiteralSideOfRange(sf, f, &p, &bad, &good)) {
        if (auto fx = IntArgsDisjunctionFix(sf, f)) return fx;
        return TensorsFix(sf, f);  // else a condition of the code: outer arguments are context
      }
      std::string fx = BeforeAfter(CallWith(sf, p, std::to_string(bad), ""), CallWith(sf, p, std::to_string(good), ""));
      if (!fx.empty()) return fx;
      return std::nullopt;
    }
    if (s.IsSetting() || s.IsCapability()) continue;
    if (s.kind == SubjectKind::kCode || s.kind == SubjectKind::kSelfState || (s.param.empty() && s.kind != SubjectKind::kTensor))
      return std::nullopt;
    if (!s.via.empty()) continue;
    const std::string& x = s.param;
    std::string bad, good;
    long b, g;
    auto CallWith = [&](const SiteFacts& sfx, const std::string& p, const std::string& v, const std::string& note) {
      return doc::CallWith(sfx, p, v, note, s.ctor);
    };
    if (s.kind == SubjectKind::kTensor) {
      if (x.empty() && sf.ctx->known && sf.site->language == "python") continue;  // a local tensor, no argument
      std::string t = s.tensor;
      // An output buffer (`out`, `output`, `*_out`): the kernel writes into it, so a
      // converted copy (`out.contiguous()`, `out.cuda()`) would lose the result; the
      // fix is to allocate the buffer right.
      bool output = IsOutputBuffer(t);
      // The new buffer's variable: the parameter's name, unless the repository has a flag of
      // that name (`--out` of a benchmark script), which `out = ...` would read as.
      std::string buf = sf.k && sf.k->FindFlag(t) ? t + "_buf" : t;
      if (output && s.pred == "contiguous" && s.missing)
        bad = CallWith(sf, x, t, t + " is not contiguous"), good = buf + " = torch.empty(...)  # a fresh buffer is contiguous\n" + CallWith(sf, x, buf, "");
      else if (output && s.pred == "cuda" && s.missing)
        bad = CallWith(sf, x, t, t + " is on the CPU"), good = buf + " = torch.empty(..., device=\"cuda\")\n" + CallWith(sf, x, buf, "");
      else if (output && s.pred == "device" && a.rhs_strings && !a.values.empty() && (a.op == "!=" || a.op == "not in"))
        bad = CallWith(sf, x, t, t + " is not on " + a.values[0]),
        good = buf + " = torch.empty(..., device=\"" + a.values[0] + "\")\n" + CallWith(sf, x, buf, "");
      else if (s.pred == "contiguous" && s.missing) bad = CallWith(sf, x, t, t + " is not contiguous"), good = CallWith(sf, x, t + ".contiguous()", "");
      else if (s.pred == "cuda" && s.missing) bad = CallWith(sf, x, t, t + " is on the CPU"), good = CallWith(sf, x, t + ".cuda()", "");
      else if (s.pred == "cpu" && s.missing) bad = CallWith(sf, x, t, t + " is on the GPU"), good = CallWith(sf, x, t + ".cpu()", "");
      else if (s.pred == "device" && a.rhs_strings && !a.values.empty() && (a.op == "!=" || a.op == "not in"))
        bad = CallWith(sf, x, t, t + " is not on " + a.values[0]), good = CallWith(sf, x, t + (a.values[0] == "cpu" ? ".cpu()" : a.values[0] == "cuda" ? ".cuda()" : ".to(\"" + a.values[0] + "\")"), "");
      else if (s.pred == "dim" && a.op == "!=" && (Trim(a.rhs) == "1" || Trim(a.rhs) == "2")) {
        bool one = Trim(a.rhs) == "1";
        bad = CallWith(sf, x, t, t + " has " + (one ? "more than 1 dimension" : "a batch of extra dimensions"));
        good = CallWith(sf, x, t + (one ? ".reshape(-1)" : ".reshape(-1, " + t + ".shape[-1])"), "");
      }
      else if (std::string other; TensorPairOther(a, s.pred, &other)) {
        // `q.dtype != k.dtype`: the call with `q` converted to the other argument's dtype (or
        // device); the other is moved instead when `q` is an output buffer.
        std::string base = EndsWith(other, "." + s.pred) ? other.substr(0, other.size() - s.pred.size() - 1) : other;
        if (!sf.ctx->known || !IsIdent(base) || !IsParam(sf, base) || base == t) continue;
        if (ReportsMismatch(sf)) continue;  // converting would hide what it reports
        bool move_other = output && base != other;
        if (move_other && IsOutputBuffer(base)) continue;
        if (sf.site->language != "python") {
          // A kernel's binding (`TVM_FFI_ICHECK_EQ(q.dtype(), k.dtype())`), reached from Python:
          // the two tensors by position, in the signature's order, one of them converted.
          if (base == other || !IsParam(sf, t)) continue;
          std::string tv = t, bv = base;
          (move_other ? bv : tv) = (move_other ? base : t) + ".to(" + (move_other ? t + "." + s.pred : other) + ")";
          bool t_first = ParamIndex(sf, t) < ParamIndex(sf, base);
          auto pair = [&](const std::string& x1, const std::string& x2) {
            return CallName(sf) + "(..., " + (t_first ? x1 + ", " + x2 : x2 + ", " + x1) + ", ...)";
          };
          bad = pair(t, base) + "  # " + t + (s.pred == "dtype" ? "." + s.pred + " is not " + other : " is not on " + other);
          good = pair(tv, bv);
          std::string fx = BeforeAfter(bad, good);
          if (!fx.empty()) return fx;
          continue;
        }
        std::string call = PublicCallName(sf, x), moved = move_other ? base : t;
        std::string to = move_other ? t + "." + s.pred : other;
        auto args = [&](bool fixed) {
          std::string tv = t, bv = base;
          if (fixed) (move_other ? bv : tv) = moved + ".to(" + to + ")";
          return call + "(" + t + "=" + tv + ", " + base + "=" + bv + ")";
        };
        bad = args(false) + "  # " + (s.pred == "dtype" ? t + ".dtype is not " + other : t + " is not on " + other);
        good = args(true);
      }
      else if (s.pred == "dtype" && (a.op == "!=" || a.op == "is not" || a.op == "not in")) {
        std::string r = Trim(a.rhs), d;
        if (a.op == "!=" || a.op == "is not") d = TorchDtype(r);
        else if (!a.constants.empty()) d = TorchDtype(a.constants[0]);  // `not in _SUPPORTED` read from the file
        else if (r.size() > 2) d = TorchDtype(r.substr(1, r.find_first_of(",)]}") - 1));
        if (d.empty()) continue;
        bad = CallWith(sf, x, t, t + ".dtype is not " + d);
        good = output ? buf + " = torch.empty(..., dtype=" + d + ")\n" + CallWith(sf, x, buf, "")
                      : CallWith(sf, x, t + ".to(" + d + ")", "");
      } else {
        continue;
      }
    } else if (s.kind == SubjectKind::kType && s.missing) {
      std::string type = s.pred;
      if (!type.empty() && type[0] == '(') type = Trim(type.substr(1, type.find_first_of(",)") - 1));
      if (!IsDotted(type)) continue;
      std::string smp = SampleOfType(type);
      bad = CallWith(sf, x, "value", "not " + Unticked(TypePhrase(sf, s.pred)));
      good = CallWith(sf, x, smp.empty() ? type + "(...)" : smp, smp.empty() ? "" : Unticked(TypePhrase(sf, type)));
    } else if (s.kind == SubjectKind::kShape) {
      long n;
      if (a.op.empty() || !IntLiteral(a.rhs, &n) || !StartsWith(Trim(a.lhs), "len(") || !IntBound(a, &b, &g)) continue;
      if (sf.site->language != "python" && sf.site->language != "javascript" && sf.site->language != "typescript") continue;
      if (b < 0 || g < 0 || b > 8 || g > 8) continue;
      auto items = [](long k) {
        std::string o = "[";
        for (long i = 0; i < k; ++i) o += (i ? ", " : "") + std::string("x") + std::to_string(i + 1);
        return o + "]";
      };
      bad = CallWith(sf, x, items(b), std::to_string(b) + (b == 1 ? " item" : " items"));
      good = CallWith(sf, x, items(g), std::to_string(g) + (g == 1 ? " item" : " items"));
    } else if (s.kind != SubjectKind::kParam) {
      continue;
    } else if (StartsWith(s.pred, "multiple:")) {
      long n;
      if (a.op != "!=" || !IntLiteral(s.pred.substr(9), &n) || n > (1L << 30)) continue;
      auto def = DefaultOf(s);
      long d;
      bool def_ok = def && IntLiteral(*def, &d) && d > 0 && d % n == 0;
      bad = CallWith(sf, x, std::to_string(n + (n > 2 ? n / 2 : 1)), "not a multiple of " + std::to_string(n));
      good = CallWith(sf, x, def_ok ? *def : std::to_string(n), def_ok ? "the default" : "");
    } else if (a.op == "is" && Trim(a.rhs) == "None") {
      std::string smp = s.param_info ? SampleOf(s.param_info->annotation) : "";
      if (smp.empty()) continue;
      bad = CallWith(sf, x, "None", "");
      good = CallWith(sf, x, smp, "");
    } else if (a.rhs_strings && !a.values.empty() && (a.op == "not in" || a.op == "!=")) {
      std::vector<std::string> q;
      for (auto& v : a.values) q.push_back(a.rhs_numbers ? v : PyQuote(v));
      std::string bad_v = a.rhs_numbers ? "" : "\"other\"";
      if (a.rhs_numbers) {
        long m = 0, k;
        for (auto& v : a.values)
          if (IntLiteral(v, &k)) m = std::max(m, k);
        bad_v = std::to_string(m + 1);
      } else {
        for (const char* cand : {"\"other\"", "\"unknown\"", "\"x\""})
          if (std::find(q.begin(), q.end(), cand) == q.end()) {
            bad_v = cand;
            break;
          }
      }
      bad = CallWith(sf, x, bad_v, "not " + JoinSome(q, "or", 6));
      good = CallWith(sf, x, q[0], "");
    } else if (a.op.empty()) {
      auto def = DefaultOf(s);
      if (def && (*def == "True" || *def == "False")) {
        bad = CallWith(sf, x, a.falsy ? "False" : "True", "");
        good = CallWith(sf, x, a.falsy ? "True" : "False", *def == (a.falsy ? "True" : "False") ? "the default is " + *def : "");
      } else if (a.falsy && s.param_info) {
        std::string smp = SampleOf(ParamTypeOf(sf, s));
        if (smp.empty() || smp == "True") continue;
        std::string empty = smp[0] == '"' ? "\"\"" : smp == "[...]" ? "[]" : smp == "{...}" ? "{}" : smp == "1" ? "0" : "None";
        bad = CallWith(sf, x, empty, "");
        good = CallWith(sf, x, smp, "");
      } else {
        continue;
      }
    } else if (a.rhs_strings && a.values.size() == 1 && a.op == "==") {
      auto def = DefaultOf(s);
      std::string gv = def && *def != a.values[0] && *def != "None" ? QuoteIfText(*def) : "";
      if (gv.empty()) continue;
      bad = CallWith(sf, x, PyQuote(a.values[0]), "");
      good = CallWith(sf, x, gv, "the default");
    } else if (IntBound(a, &b, &g)) {
      bad = CallWith(sf, x, std::to_string(b), "");
      good = CallWith(sf, x, std::to_string(g), "");
    } else if (std::string fb, fg; FloatBound(a, &fb, &fg)) {
      bad = CallWith(sf, x, fb, "");
      good = CallWith(sf, x, fg, "");
    } else if (std::string other = Trim(a.rhs); a.op == "!=" && sf.site->language == "python" && sf.ctx->known &&
                                                IsIdent(other) && other != x && IsParam(sf, other) && !s.ctor) {
      // `num_k_heads != num_q_heads`, both arguments: the call that passes one value for both.
      if (ReportsMismatch(sf)) continue;
      std::string call = PublicCallName(sf, x);
      bad = call + "(" + x + "=" + x + ", " + other + "=" + other + ")  # " + x + " != " + other;
      good = call + "(" + x + "=" + other + ", " + other + "=" + other + ")";
    } else if (!a.constants.empty() && (a.op == "not in" || a.op == "!=" || a.op == "is not")) {
      // `out_dtype != torch.bfloat16`: the call with an accepted value; the failing line is the
      // caller's own value (another dtype when the accepted one is a dtype).
      std::vector<std::string> ok = AcceptedConstants(sf, f);
      if (ok.empty()) continue;
      std::string good_v, bad_v = x;
      for (const auto& c : ok)
        if (c != "None") {
          good_v = c;
          break;
        }
      bool texts = true;  // every accepted value but None a string: another string fails
      for (const auto& c : ok) texts &= c == "None" || c.front() == '"' || c.front() == '\'';
      std::vector<const char*> others;
      if (!TorchDtype(good_v).empty()) others = {"torch.float32", "torch.float16"};
      else if (IsBuiltinType(good_v)) others = {"int", "float", "str", "list", "dict"};
      else if (texts) others = {"\"other\"", "\"unknown\""};
      for (const char* d : others)
        if (std::find(ok.begin(), ok.end(), d) == ok.end()) {
          bad_v = d;
          break;
        }
      bad = CallWith(sf, x, bad_v, "not " + JoinSome(ok, "or", 6));
      good = CallWith(sf, x, good_v, "");
    } else {
      continue;
    }
    std::string fx = BeforeAfter(bad, good);
    if (!fx.empty()) return fx;
  }
  return std::nullopt;
}

std::optional<std::string> DevicePairFix(const SiteFacts& sf) {
  std::string t1, t2;
  if (!DevicePair(sf, &t1, &t2)) return std::nullopt;
  bool output = IsOutputBuffer(t2);
  std::string call = CallName(sf);
  std::string moved = output ? t1 + ".to(" + t2 + ".device), " + t2 : t1 + ", " + t2 + ".to(" + t1 + ".device)";
  std::string fx = BeforeAfter(call + "(..., " + t1 + ", " + t2 + ", ...)  # " + t1 + " and " + t2 + " on different devices",
                       call + "(..., " + moved + ", ...)");
  if (fx.empty()) return std::nullopt;
  return fx;
}

bool IsOutputBuffer(const std::string& tensor) {
  std::string low = Lower(tensor);
  return low == "out" || low == "output" || EndsWith(low, "_out") || EndsWith(low, "_output") || StartsWith(low, "out_") ||
         StartsWith(low, "output_");
}

}  // namespace errdex::doc
