// document/write_example.cc: exampleFix -- `# before` / `# after` in the form the
// user types: the command line (flags, env vars), pip, a call with other arguments
// (a value, a converted tensor), a request with the missing field, the method to
// call first, the override a subclass needs. The first form that the facts support
// wins (settings, installed packages, the message's own hint, the call, the
// request, the object's state, an abstract method); null when none does. Before
// and after always differ. The message's and pip's forms are write_example_hint.cc's,
// the calls of Go, Rust and C/C++ functions write_example_brace.cc's.
// Tested by documenter_test.cc and tests/prose/.
#include <algorithm>
#include <climits>
#include <numeric>
#include <set>

#include "document/text.h"
#include "document/values.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

// "an instance of `str`" -> "an instance of str" (a code comment has no backticks).
std::string Unticked(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return s;
}

// `name` is a (non-star) parameter of the enclosing function: a value its caller chooses.
bool IsParam(const SiteFacts& sf, const std::string& name) {
  for (const auto& p : sf.ctx->params)
    if (p.name == name && !p.star) return true;
  return false;
}

// Command line (or config constructor) before/after for the setting facts.
std::optional<std::string> SettingsFix(const SiteFacts& sf) {
  std::vector<const Fact*> settings;
  for (const auto& f : sf.facts)
    if (f.subj.IsSetting() && !f.disjunction) settings.push_back(&f);
  if (settings.empty()) return std::nullopt;
  // A missing package inside is what the fix is about (pip), not the settings around it.
  const Subject& inner = sf.facts.back().subj;
  if (inner.kind == SubjectKind::kMissingAttr || inner.kind == SubjectKind::kMissingModule || inner.kind == SubjectKind::kVersion)
    return std::nullopt;
  // The setting to change: the innermost one with a known good value.
  const Fact* flip = nullptr;
  std::string flip_to;
  bool drop = false;
  for (auto it = settings.rbegin(); it != settings.rend() && !flip; ++it) {
    const Fact* f = *it;
    std::string v = FixValue(sf, *f);
    bool given_test = f->subj.kind == SubjectKind::kFlag && (f->atom.op.empty() || Trim(f->atom.rhs) == "None");
    if (!v.empty() || (f->atom.op.empty() && (IsBoolFlag(f->subj) || f->subj.kind == SubjectKind::kEnv)) || given_test) {
      flip = f;
      flip_to = v;
    }
  }
  if (!flip) {
    // `--quantization nvfp4_online` on the wrong GPU: an optional flag can be left out.
    for (auto it = settings.rbegin(); it != settings.rend() && !flip; ++it) {
      const Fact* f = *it;
      auto def = DefaultOf(f->subj);
      if (f->subj.kind == SubjectKind::kFlag && (f->atom.op == "==" || f->atom.op == "in") && f->atom.rhs_strings &&
          (!def || *def == "None" || def->empty()))
        flip = f, drop = true;
    }
  }
  if (!flip) return std::nullopt;
  std::vector<std::string> before, after;
  std::string tail;  // a comment after the "before" line
  std::set<std::string> seen;
  for (const auto* f : settings) {
    std::string key = f->subj.Key();
    if (seen.count(key)) continue;
    const Fact* use = f;
    for (const auto* g : settings)
      if (g->subj.Key() == key && !g->from_else) use = g;
    seen.insert(key);
    const Subject& us = use->subj;
    const Atom& ua = use->atom;
    bool is_flip = flip->subj.Key() == key;
    std::string bform, aform;
    if (us.kind == SubjectKind::kFlag && !IsBoolFlag(us) && (ua.op.empty() || Trim(ua.rhs) == "None") &&
        !us.flag->IsTrueFalseProperty()) {
      // A flag that takes a value, tested for being given (`if args.x:` / `x is not None`).
      bool given_fails = ua.op.empty() ? !ua.falsy : ua.op == "is not";
      std::string with = us.flag->With(Upper(us.flag->dest));
      bform = given_fails ? with : "";
      aform = given_fails ? "" : with;
    } else {
      std::string b = TriggerValue(sf, *use);
      if (b.empty() && is_flip && ua.rhs_strings && (ua.op == "not in" || ua.op == "!=")) {
        // No known choice that fails: the flag with argparse's metavar (a value elsewhere),
        // and what it must not be.
        b = us.kind != SubjectKind::kFlag ? "..." : us.flag->IsJvmProperty() ? "other" : Upper(us.flag->dest);
        tail = "  # not " + JoinSome(ua.values, "or", 6);
      }
      if (b.empty() && !ua.op.empty()) continue;
      bform = SettingForm(us, b, ua);
      if (bform.empty() && !(is_flip && ua.op.empty())) continue;
      aform = ua.op.empty() ? NegatedForm(us, ua) : SettingForm(us, flip_to, ua);
    }
    if (!bform.empty()) before.push_back(bform);
    if (is_flip) {
      if (!drop && !aform.empty()) after.push_back(aform);
    } else if (!bform.empty()) {
      after.push_back(bform);
    }
  }
  // Env vars go first on a command line (X=1 cmd ...); fields are Python; `unset X`
  // is a command of its own, on the line before.
  bool fields = settings[0]->subj.kind == SubjectKind::kField;
  std::string sep = fields ? ", " : " ";
  auto join = [&](const std::vector<std::string>& xs) {
    std::string o, unsets;
    for (auto& x : xs) {
      if (StartsWith(x, "unset ")) unsets += x + "\n";
      else o += (o.empty() ? "" : sep) + x;
    }
    if (!unsets.empty() && o.empty()) unsets.pop_back();
    return unsets + o;
  };
  std::string b = join(before), a = join(after);
  if (fields) {
    const std::string& cls = settings[0]->subj.field->class_name;
    b = cls + "(" + b + ")";
    a = cls + "(" + a + ")";
  }
  std::string left_out = SettingRef(flip->subj);
  if (b.empty()) b = "# (without " + left_out + ")";
  else b += tail;
  if (Trim(a).empty() || a == "()" || EndsWith(a, "()")) a = fields ? a : "# (without " + left_out + ")";
  std::string fx = BeforeAfter(b, a);
  if (fx.empty()) return std::nullopt;
  return fx;
}

// How a user reaches a private helper that checks `param`: the public function or
// constructor of this file that calls it passing `param` through (date(...) for
// _check_date_fields(year, month, day)); the helper itself otherwise.
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

// The call form `f(x=v)` / `obj.f(x=v)` / `C(x=v)`; `f(..., v, ...)` when the
// parameter's place is unknown (another language).
std::string CallWith(const SiteFacts& sf, const std::string& param, const std::string& value, const std::string& note,
                     bool ctor = false) {
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

}  // namespace

bool IntRange(const SiteFacts& sf, const Fact& f, std::string* param, long* bad, long* good, long* lo, long* hi) {
  if (!f.disjunction || f.any_of.size() < 2 || f.any_of.size() > 4) return false;
  std::string x = Trim(f.any_of[0].lhs);
  if (!IsParam(sf, x)) return false;
  std::vector<std::pair<std::string, long>> tests;
  for (const Atom& a : f.any_of) {
    long n;
    if (Trim(a.lhs) != x || a.op.empty() || a.rhs_strings || !IntLiteral(a.rhs, &n)) return false;
    tests.emplace_back(a.op, n);
  }
  auto fails = [&](long v) {
    for (const auto& [op, n] : tests)
      if ((op == "<" && v < n) || (op == "<=" && v <= n) || (op == ">" && v > n) || (op == ">=" && v >= n) || (op == "==" && v == n) ||
          (op == "!=" && v != n))
        return true;
    return false;
  };
  bool have_good = false, have_bad = false;
  *lo = LONG_MIN, *hi = LONG_MAX;
  for (const auto& [op, n] : tests) {
    if (op == "<") *lo = std::max(*lo, n);
    if (op == "<=") *lo = std::max(*lo, n + 1);
    if (op == ">") *hi = std::min(*hi, n);
    if (op == ">=") *hi = std::min(*hi, n - 1);
  }
  for (const auto& [op, n] : tests)
    for (long v : {n, n - 1, n + 1}) {
      if (!have_good && !fails(v)) *good = v, have_good = true;
      if (!have_bad && fails(v)) *bad = v, have_bad = true;
    }
  *param = x;
  return have_good && have_bad;
}

namespace {

// `day < 1 or day > dim` (`not 1 <= day <= dim`) over one argument: one side of the range is a
// literal, the other an expression of the code. The value just past the literal side fails;
// the literal bound itself passes, provided every literal bound is on one side (lower or
// upper) and every other bound on the other -- a range whose far end the code computes
// (a month's days, a string's length) still holds its literal end.
bool LiteralSideOfRange(const SiteFacts& sf, const Fact& f, std::string* param, long* bad, long* good) {
  if (!f.disjunction || f.any_of.size() != 2) return false;
  const std::string& def = sf.ctx->def_name;  // obj[i], not obj.__getitem__(i=...)
  if (StartsWith(def, "__") && def != "__init__" && def != "__new__") return false;
  std::string x = Trim(f.any_of[0].lhs);
  if (!IsParam(sf, x)) return false;
  int literal_side = 0, other_side = 0;  // -1 lower bound (fails below), +1 upper bound (fails above)
  for (const Atom& a : f.any_of) {
    if (Trim(a.lhs) != x || a.rhs_strings) return false;
    int side = a.op == "<" || a.op == "<=" ? -1 : a.op == ">" || a.op == ">=" ? 1 : 0;
    if (side == 0) return false;
    long n;
    if (IntLiteral(a.rhs, &n)) {
      if (literal_side != 0) return false;
      literal_side = side;
      // x < n fails below n: n passes, n - 1 fails; x <= n: n + 1 passes, n fails.
      if (a.op == "<") *good = n, *bad = n - 1;
      if (a.op == "<=") *good = n + 1, *bad = n;
      if (a.op == ">") *good = n, *bad = n + 1;
      if (a.op == ">=") *good = n - 1, *bad = n;
    } else {
      other_side = side;
    }
  }
  if (literal_side == 0 || other_side == 0 || literal_side == other_side) return false;
  *param = x;
  return true;
}

// `w1.dtype != torch.bfloat16 or w2.dtype != torch.bfloat16`, `not (k.is_contiguous() and
// v.is_contiguous())`: every atom a dtype or contiguity test of a tensor parameter (Python).
// The call with the tensors as they are, and with each converted.
std::optional<std::string> TensorsFix(const SiteFacts& sf, const Fact& f) {
  if (!f.disjunction || f.any_of.size() > 4 || sf.site->language != "python" || !sf.ctx->known) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> conv;  // param -> converted form
  std::string why;
  for (const Atom& a : f.any_of) {
    std::string x = Trim(a.lhs), t, fixed, note;
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
  std::string call = PublicCallName(sf, conv[0].first), before, after;
  for (const auto& [name, fixed] : conv) {
    before += (before.empty() ? "" : ", ") + name + "=" + name;
    after += (after.empty() ? "" : ", ") + name + "=" + fixed;
  }
  std::string fx = BeforeAfter(call + "(" + before + ")  # " + why, call + "(" + after + ")");
  if (fx.empty()) return std::nullopt;
  return fx;
}

// `x <= 0 or x % 16 != 0`, `m % 16 != 0 or n % 16 != 0`, `total <= 0 or count <= 0`: a
// disjunction whose every atom is an integer test of an argument of this (Python) function --
// a comparison with an integer literal, or `x % N != 0` (`x % N` as a truth test) with N an
// integer literal or a name assigned one. Each argument gets the first value no atom of it
// rejects (its integer default first, then the smallest positive multiple of every N, then
// values beside the literal bounds), checked against every atom; the failing call gives the
// first argument a value one of its atoms rejects, the others their good values. Nothing when
// an atom has another form or some argument has no value that passes.
std::optional<std::string> IntArgsDisjunctionFix(const SiteFacts& sf, const Fact& f) {
  if (!f.disjunction || f.any_of.size() < 2 || f.any_of.size() > 6 || sf.site->language != "python" || !sf.ctx->known)
    return std::nullopt;
  const std::string& def = sf.ctx->def_name;
  if (def.empty() || (StartsWith(def, "__") && def != "__init__" && def != "__new__")) return std::nullopt;
  // The negated test of an earlier `if T: return` (T false here) is where the site is reached
  // from: a value that makes another such T true returns before the raise.
  const int exits_from = (int)sf.site->guards.size(), exits_to = exits_from + (int)sf.exit_branches.size();
  if (f.guard >= exits_from && f.guard < exits_to) return std::nullopt;
  struct Test {
    std::string op;  // "<", "<=", ">", ">=", "==", "!=", or "%" (fails unless a multiple of n)
    long n = 0;
  };
  struct Arg {
    std::string name;
    std::vector<Test> tests;
  };
  std::vector<Arg> args;
  auto int_value = [&](std::string t, long* v) {
    t = Trim(t);
    if (IntLiteral(t, v)) return true;
    if (!IsIdent(t) || IsParam(sf, t)) return false;
    for (const auto& [name, rhs] : sf.ctx->assigned)
      if (name == t) return IntLiteral(Trim(rhs), v);
    return false;
  };
  auto unwrap_int = [](std::string t) {
    t = Trim(t);
    if (StartsWith(t, "int(") && EndsWith(t, ")") && IsIdent(Trim(t.substr(4, t.size() - 5)))) t = Trim(t.substr(4, t.size() - 5));
    return t;
  };
  for (const Atom& a : f.any_of) {
    std::string lhs = Trim(a.lhs), x;
    Test t;
    size_t pct = lhs.find(" % ");
    if (pct != std::string::npos) {
      // `x % N != 0`, `x % N` (true when not a multiple).
      bool nonzero = (a.op == "!=" && Trim(a.rhs) == "0") || (a.op.empty() && !a.falsy);
      if (!nonzero || !int_value(lhs.substr(pct + 3), &t.n) || t.n < 2 || t.n > (1L << 20)) return std::nullopt;
      x = unwrap_int(lhs.substr(0, pct));
      t.op = "%";
    } else {
      static const std::set<std::string> kOps = {"<", "<=", ">", ">=", "==", "!="};
      if (!kOps.count(a.op) || a.rhs_strings || !IntLiteral(Trim(a.rhs), &t.n) || t.n < -(1L << 30) || t.n > (1L << 30))
        return std::nullopt;
      x = unwrap_int(lhs);
      t.op = a.op;
    }
    if (!IsIdent(x) || !IsParam(sf, x)) return std::nullopt;
    auto it = std::find_if(args.begin(), args.end(), [&](const Arg& g) { return g.name == x; });
    if (it == args.end()) args.push_back({x, {}}), it = args.end() - 1;
    it->tests.push_back(t);
  }
  auto fails = [](const Test& t, long v) {
    if (t.op == "%") return v % t.n != 0;
    return (t.op == "<" && v < t.n) || (t.op == "<=" && v <= t.n) || (t.op == ">" && v > t.n) || (t.op == ">=" && v >= t.n) ||
           (t.op == "==" && v == t.n) || (t.op == "!=" && v != t.n);
  };
  auto passes = [&](const Arg& g, long v) {
    for (const auto& t : g.tests)
      if (fails(t, v)) return false;
    return true;
  };
  std::vector<std::string> good(args.size());
  std::vector<bool> is_default(args.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg& g = args[i];
    long d;
    for (const auto& p : sf.ctx->params)
      if (p.name == g.name && IntLiteral(Trim(p.default_value), &d) && passes(g, d)) good[i] = std::to_string(d), is_default[i] = true;
    if (!good[i].empty()) continue;
    long step = 1;  // every modulus divides the value: step over their product's multiples
    for (const auto& t : g.tests)
      if (t.op == "%") step = std::lcm(step, t.n);
    if (step > (1L << 20)) return std::nullopt;
    std::vector<long> cands;
    if (step > 1)
      for (long k = 1; k <= 64; ++k) cands.push_back(k * step);
    for (const auto& t : g.tests)
      if (t.op != "%")
        for (long v : {t.n, t.n + 1, t.n - 1}) cands.push_back(v);
    for (long v : {1L, 0L}) cands.push_back(v);
    for (long v : cands)
      if (passes(g, v)) {
        good[i] = std::to_string(v);
        break;
      }
    if (good[i].empty()) return std::nullopt;
  }
  // The failing value: the first argument's, beside its first test's bound (a non-multiple
  // for a modulus).
  const Arg& first = args[0];
  std::string bad;
  for (const auto& t : first.tests) {
    std::vector<long> cands = t.op == "%" ? std::vector<long>{t.n + (t.n > 2 ? t.n / 2 : 1), t.n + 1}
                                          : std::vector<long>{t.n, t.n - 1, t.n + 1};
    for (long v : cands)
      if (!passes(first, v)) {
        bad = std::to_string(v);
        break;
      }
    if (!bad.empty()) break;
  }
  if (bad.empty()) return std::nullopt;
  std::string call = PublicCallName(sf, first.name);
  if (call.empty()) return std::nullopt;
  std::string before, after, note;
  for (size_t i = 0; i < args.size(); ++i) {
    before += (i ? ", " : "") + args[i].name + "=" + (i == 0 ? bad : good[i]);
    after += (i ? ", " : "") + args[i].name + "=" + good[i];
  }
  if (args.size() == 1 && is_default[0]) note = "  # the default";
  std::string fx = BeforeAfter(call + "(" + before + ")", call + "(" + after + ")" + note);
  if (fx.empty()) return std::nullopt;
  return fx;
}

// A call of the function with a bad and a good value of the tested parameter.
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
        if (sf.site->language != "python" || !sf.ctx->known || !IsIdent(base) || !IsParam(sf, base) || base == t) continue;
        std::string fn = Lower(sf.ctx->def_name);  // a comparison helper reports the mismatch: converting hides it
        if (fn.find("assert") != std::string::npos || fn.find("compare") != std::string::npos || fn.find("equal") != std::string::npos)
          continue;
        bool move_other = output && base != other;
        if (move_other && IsOutputBuffer(base)) continue;
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
        else if (r.size() > 2) d = TorchDtype(r.substr(1, r.find_first_of(",)]}") - 1));
        if (d.empty()) continue;
        bad = CallWith(sf, x, t, t + ".dtype is not " + d);
        good = CallWith(sf, x, t + ".to(" + d + ")", "");
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
        std::string smp = SampleOf(s.param_info->annotation);
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
    } else if (!a.constants.empty() && (a.op == "not in" || a.op == "!=")) {
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

// A parameter tested for being passed at all: +1 when the atom fires on a given value
// (`x is not None`, `if x:` with a None default), -1 on a missing one (`x is None`,
// `not x` with a None default), 0 otherwise (a bool parameter is CallFix's: its values
// are known). Only parameters of this very function (a Python call by keyword).
int Presence(const SiteFacts& sf, const std::string& lhs, const Atom& a, const ParamInfo** info) {
  std::string x = Trim(lhs);
  const ParamInfo* p = nullptr;
  for (const auto& q : sf.ctx->params)
    if (q.name == x && !q.star && q.name != "self" && q.name != "cls") p = &q;
  if (!p) return 0;
  // Reassigned on the way (`char = source.get()`): the test is of the local, not the argument.
  for (const auto& [name, rhs] : sf.ctx->assigned)
    if (name == x) return 0;
  *info = p;
  bool none_default = Trim(p->default_value) == "None";
  if (a.op == "is not" && Trim(a.rhs) == "None") return 1;
  if (a.op == "is" && Trim(a.rhs) == "None") return -1;
  if (a.op.empty() && none_default) return a.falsy ? -1 : 1;
  return 0;
}

// The call with a parameter passed that must be left out, or left out that must be
// passed: `urlopen(..., cafile=cafile, context=context)` -> without context=;
// `post_mortem()` -> `post_mortem(t=t)`. The guards' other presence tests of
// parameters are kept the same on both lines (their conjunction is what fires); one
// flips. For `a is None or b is None` (both required together) the failing call
// leaves out the first and the passing one gives both; for `a is not None or b is not
// None` (neither supported) the failing call gives the first, the passing one none.
// A given value is the parameter's name (the caller's own variable) or a sample of
// its annotation.
std::optional<std::string> PresenceFix(const SiteFacts& sf) {
  const SiteContext& c = *sf.ctx;
  if (!c.known || sf.site->language != "python" || c.def_name.empty()) return std::nullopt;
  // Inside `except`: what failed is the call the try made, not the argument's presence.
  if (sf.site->except_context) return std::nullopt;
  // __exit__, __get__, ...: the language calls them, not the user.
  if (StartsWith(c.def_name, "__") && c.def_name != "__init__" && c.def_name != "__new__" && c.def_name != "__call__")
    return std::nullopt;
  // The tests of earlier `if T: return` statements (T false here) are where the site is
  // reached from, not a condition to flip.
  const int exits_from = (int)sf.site->guards.size(), exits_to = exits_from + (int)sf.exit_branches.size();
  struct Arg {
    const ParamInfo* p;
    int before, after;  // +1 passed, -1 left out
  };
  std::vector<Arg> args;
  bool flipped = false;
  auto add = [&](const ParamInfo* p, int before, int after) {
    for (const auto& a : args)
      if (a.p == p) return a.before == before;  // the same parameter twice: only when consistent
    args.push_back({p, before, after});
    return true;
  };
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    if (f.subj.IsSetting() || f.subj.IsCapability() || (f.guard >= exits_from && f.guard < exits_to)) continue;
    if (f.disjunction) {
      if (flipped) return std::nullopt;  // an outer condition of several parts: no single call shows it
      int sign = 0;
      std::vector<const ParamInfo*> ps;
      for (const Atom& a : f.any_of) {
        const ParamInfo* p = nullptr;
        int s = Presence(sf, a.lhs, a, &p);
        if (s == 0 || (sign != 0 && s != sign)) return std::nullopt;
        sign = s;
        ps.push_back(p);
      }
      for (size_t i = 0; i < ps.size(); ++i) {
        // -1: one left out fails, all given pass; +1: one given fails, none given passes.
        int before = sign < 0 ? (i == 0 ? -1 : 1) : (i == 0 ? 1 : -1);
        int after = sign < 0 ? 1 : -1;
        if (!add(ps[i], before, after)) return std::nullopt;
      }
      flipped = true;
      continue;
    }
    const ParamInfo* p = nullptr;
    int s = Presence(sf, f.atom.lhs, f.atom, &p);
    if (s == 0) {
      if (!flipped) return std::nullopt;  // the innermost condition is no presence test: CallFix's or none
      continue;                           // an outer condition of the code: context
    }
    if (!add(p, s, flipped ? s : -s)) return std::nullopt;
    flipped = true;
  }
  if (!flipped || args.empty()) return std::nullopt;
  // "Cannot specify both `filename' and `source'. Use `source'.": of two passed parameters
  // the one the message says to use stays, the other is left out.
  const std::string msg = sf.site->error_message.value_or("");
  auto told_to_use = [&](const std::string& name) {
    for (const char* verb : {"Use ", "use "})
      for (size_t at = msg.find(verb); at != std::string::npos; at = msg.find(verb, at + 1)) {
        size_t b = at + 4;
        while (b < msg.size() && (msg[b] == '`' || msg[b] == '\'' || msg[b] == '"')) ++b;
        if (msg.compare(b, name.size(), name) == 0 && (b + name.size() == msg.size() || !IsWordChar(msg[b + name.size()])))
          return true;
      }
    return false;
  };
  if (args[0].before > 0 && args[0].after < 0 && told_to_use(args[0].p->name))
    for (size_t i = 1; i < args.size(); ++i)
      if (args[i].before > 0 && args[i].after > 0 && !told_to_use(args[i].p->name)) {
        std::swap(args[0].after, args[i].after);
        break;
      }
  const std::string flip_name = args[0].p->name;  // the innermost test's parameter: the one a public caller passes
  // The call lists its arguments in the function's order.
  auto pos = [&](const ParamInfo* p) { return p - c.params.data(); };
  std::sort(args.begin(), args.end(), [&](const Arg& x, const Arg& y) { return pos(x.p) < pos(y.p); });
  std::string call = sf.func == "__init__" ? c.class_name : PublicCallName(sf, flip_name);
  if (call.empty()) return std::nullopt;
  // The function's other required parameters are "...": the presence tests are the point.
  bool others = false;
  for (const auto& q : c.params) {
    if (q.star || q.name == "self" || q.name == "cls" || !q.default_value.empty()) continue;
    bool shown = false;
    for (const auto& a : args) shown = shown || a.p == &q;
    others = others || !shown;
  }
  auto line = [&](bool after) {
    std::vector<std::string> parts;
    if (others) parts.push_back("...");
    for (const auto& a : args) {
      int state = after ? a.after : a.before;
      if (state > 0) {
        std::string v = SampleOf(a.p->annotation);
        if (v.empty() || v == "True") v = a.p->name;
        parts.push_back(a.p->name + "=" + v);
      } else if (a.p->default_value.empty()) {
        parts.push_back(a.p->name + "=None");  // a required parameter can only be passed as None
      }
    }
    std::string o;
    for (const auto& x : parts) o += (o.empty() ? "" : ", ") + x;
    return call + "(" + o + ")";
  };
  std::string fx = BeforeAfter(line(false), line(true));
  if (fx.empty()) return std::nullopt;
  return fx;
}

// Two tensors on different devices (flashinfer's CHECK_DEVICE(a, b): `a.device().device_type
// == b.device().device_type`): the call with the second moved
// to the first one's device -- or, when the second is an output buffer the kernel writes,
// the first moved to the buffer's.
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

// The request with the missing (or bad) field, and with the field a good value.
std::optional<std::string> RequestFix(const SiteFacts& sf) {
  const SiteContext& c = *sf.ctx;
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    const Subject& s = f.subj;
    const Atom& a = f.atom;
    std::string where, field;
    if (s.kind == SubjectKind::kRequest) {
      where = s.module, field = s.attr;
    } else if (s.kind == SubjectKind::kParam && !c.route.empty()) {
      // A parameter of a route function: a path parameter when the route names it, else a query parameter.
      field = s.param;
      where = Has(c.route, "{" + field + "}") || Has(c.route, "{" + field + ":") ? "path" : "query";
    } else {
      if (s.kind == SubjectKind::kCode || s.kind == SubjectKind::kSelfState) return std::nullopt;
      continue;
    }
    bool missing = (a.op.empty() && a.falsy) || (a.op == "is" && Trim(a.rhs) == "None");
    std::string bad_v, good_v;
    long b, g;
    if (missing) good_v = "...";
    else if (a.rhs_strings && !a.values.empty() && (a.op == "not in" || a.op == "!=")) bad_v = "other", good_v = a.values[0];
    else if (IntBound(a, &b, &g)) bad_v = std::to_string(b), good_v = std::to_string(g);
    else continue;
    std::string method = c.route_method.empty() ? (where == "body" || where == "form" ? "POST" : "GET") : c.route_method;
    std::string path = c.route.empty() ? "/..." : c.route;
    auto line = [&](const std::string& v, bool present) {
      if (where == "body" || where == "form") {
        std::string body = present ? "{\"" + field + "\": " + (v == "..." || !IntLiteral(v, &b) ? "\"" + v + "\"" : v) + "}" : "{}";
        return method + " " + path + "  " + body;
      }
      if (where == "query") return method + " " + path + (present ? "?" + field + "=" + v : "");
      if (where == "header") return method + " " + path + (present ? "  " + field + ": " + v : "  (no " + field + " header)");
      if (where == "cookie") return method + " " + path + (present ? "  Cookie: " + field + "=" + v : "  (no " + field + " cookie)");
      // path parameter
      std::string p = path;
      size_t at = p.find("{" + field);
      if (at != std::string::npos) p = p.substr(0, at) + v + p.substr(p.find('}', at) + 1);
      else p += "/" + v;
      return method + " " + p;
    };
    std::string fx = missing ? BeforeAfter(line("", false), line(good_v, true)) : BeforeAfter(line(bad_v, true), line(good_v, true));
    if (!fx.empty()) return fx;
  }
  return std::nullopt;
}

// self.<attr> is in the failing state: call the method that sets it first, or call
// before the method that resets it.
std::optional<std::string> StateFix(const SiteFacts& sf) {
  const SiteContext& c = *sf.ctx;
  if (sf.facts.empty() || c.def_name.empty() || c.class_name.empty() || c.def_name == "__init__") return std::nullopt;
  const Fact& f = sf.facts.back();
  std::vector<std::string> set, reset;
  StateMethods(sf, f, &set, &reset);
  std::string obj = "obj = " + c.class_name + "(...)\n";
  std::string me = "obj." + c.def_name + "(...)";
  if (!set.empty())
    return "# before\n" + obj + me + "  # self." + f.subj.attr + " not set yet\n# after\n" + obj + "obj." + set[0] +
           "(...)  # sets self." + f.subj.attr + "\n" + me;
  if (!reset.empty())
    return "# before\n" + obj + "obj." + reset[0] + "()\n" + me + "  # after " + reset[0] + "()\n# after\n" + obj + me + "\nobj." +
           reset[0] + "()";
  return std::nullopt;
}

std::optional<std::string> OverrideFix(const SiteFacts& sf) {
  if (!AbstractMethod(sf)) return std::nullopt;
  std::string params;
  for (const auto& p : sf.ctx->params) {
    if (p.name == "self" || p.name == "cls") continue;
    params += ", " + std::string(p.star ? "*" : "") + p.name;
    if (params.size() > 60) break;
  }
  std::string self = !sf.ctx->params.empty() && sf.ctx->params[0].name == "cls" ? "cls" : "self";
  return "# before\nclass My" + sf.ctx->class_name + "(" + sf.ctx->class_name + "):\n    ...  # no " + sf.ctx->def_name +
         "\n# after\nclass My" + sf.ctx->class_name + "(" + sf.ctx->class_name + "):\n    def " + sf.ctx->def_name + "(" + self +
         params + "):\n        ...";
}

}  // namespace

std::string BeforeAfter(const std::string& before, const std::string& after) {
  if (Trim(before) == Trim(after) || Trim(after).empty()) return "";
  return "# before\n" + before + "\n# after\n" + after;
}

std::optional<std::string> WriteExampleFix(const SiteFacts& sf) {
  // A variable the guards test and the message gives values for: the message's value
  // (export SOC_VERSION="ascend910b1"), not a guessed one.
  for (const auto& f : sf.facts)
    if (f.subj.kind == SubjectKind::kEnv)
      for (const auto& e : sf.hints.env_sets)
        if (StartsWith(e, f.subj.env + "=")) return "# before\n# (" + f.subj.env + " not set)\n# after\nexport " + e;
  if (auto s = SettingsFix(sf)) return s;
  if (auto p = PackageFix(sf)) return p;
  if (auto h = HintFix(sf)) return h;
  if (auto c = CallFix(sf)) return c;  // first: its tensor conversions hold for C++ kernels too
  if (auto b = BraceCallFix(sf)) return b;
  if (auto p = PresenceFix(sf)) return p;
  if (auto d = DevicePairFix(sf)) return d;
  if (auto r = RequestFix(sf)) return r;
  if (auto s = StateFix(sf)) return s;
  return OverrideFix(sf);
}

bool IsOutputBuffer(const std::string& tensor) {
  std::string low = Lower(tensor);
  return low == "out" || low == "output" || EndsWith(low, "_out") || EndsWith(low, "_output") || StartsWith(low, "out_") ||
         StartsWith(low, "output_");
}

}  // namespace errdex::doc
