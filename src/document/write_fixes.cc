// document/write_fixes.cc: solutions (the message's own advice first, then one
// user-side change per subject, innermost first: a setting, an installed package,
// the hardware, a tensor the caller passes, the arguments of the call, a field of
// the request, the object's state) and preventionTips. Never a guard restated as an
// action: a fact with no user-side change gives no solution.
// Tested by documenter_test.cc and tests/prose/.
#include <algorithm>
#include <cctype>
#include <climits>
#include <set>

#include "document/text.h"
#include "document/values.h"
#include "document/write_example.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

// `a`, `b`, `c` (and N more) for a long choice list: a few examples, not the whole list.
std::string SomeChoices(const std::vector<std::string>& xs) {
  if (xs.size() <= 6) return JoinSome(Ticked(xs), "or", 6);
  std::vector<std::string> head(xs.begin(), xs.begin() + 3);
  return "another of its " + std::to_string(xs.size()) + " choices (e.g. " + JoinWords(Ticked(head), "or") + ")";
}

// One change of a setting that makes fact `f` false.
std::string FlipSetting(const SiteFacts& sf, const Fact& f) {
  const Subject& s = f.subj;
  const Atom& a = f.atom;
  std::string ref = SettingRef(s);
  const auto& choices = ChoicesOf(s);
  auto rw = sf.rewrites.find(s.Key());
  std::string rw_note;
  if (rw != sf.rewrites.end())
    rw_note = " (" + BT(rw->second.from) + " is rewritten to " + BT(rw->second.to) + " by the branch at line " +
              std::to_string(rw->second.line) + ")";
  auto def = DefaultOf(s);
  if (a.op.empty()) {
    if (s.kind == SubjectKind::kEnv && a.falsy)
      for (const auto& e : sf.hints.env_sets)
        if (StartsWith(e, s.env + "=")) return "";  // the message's own values say it (export X="v")
    if (s.kind == SubjectKind::kEnv && s.pred == "present")
      return a.falsy ? "Set " + BT(s.env) + " in the environment." : "Unset " + BT(s.env) + " (any value, even 0 or empty, counts as set).";
    if (s.kind == SubjectKind::kEnv)
      return a.falsy ? "Set " + BT(s.env + "=1") + " in the environment."
                     : "Unset " + BT(s.env) + " (or set it to a false value such as " + BT(s.env + "=0") + ").";
    if (IsBoolFlag(s)) {
      bool on = a.falsy == (s.flag->action == "store_false");
      if (!on) return "Pass " + ref + ".";
      return s.flag->negative.empty() ? "Drop " + ref + " from the command line." : "Drop " + ref + " (or pass " + BT(s.flag->negative) + ").";
    }
    // A true/false property is never bare (`-Dx` alone reads as false): give the other value.
    if (s.kind == SubjectKind::kFlag && s.flag->IsTrueFalseProperty()) return "Set " + BT(s.flag->With(a.falsy ? "true" : "false")) + ".";
    if (s.kind == SubjectKind::kFlag) return a.falsy ? "Pass " + BT(s.flag->With(Upper(s.flag->dest))) + "." : "Drop " + ref + ".";
    if (IsBoolField(s)) return "Set " + ref + " to " + BT(a.falsy ? "True" : "False") + ".";
    return a.falsy ? "Set " + ref + " to a non-empty value." : "Leave " + ref + " unset.";
  }
  if (!a.rhs_strings) {
    long n;
    if (IntLiteral(a.rhs, &n)) {
      std::string sx = "Set " + ref + " to a value " + IntBoundPhrase(a.op, Trim(a.rhs));
      std::string v = FixValue(sf, f);
      if (!v.empty()) sx += ", e.g. " + BT(SettingForm(s, v, a));
      return sx + ".";
    }
    if (Trim(a.rhs) == "None") return a.op == "is" ? "Give " + ref + " a value." : "Leave " + ref + " unset.";
    return "";
  }
  if (s.kind == SubjectKind::kEnv && a.op == "==" && a.values.size() == 1 && a.values[0].empty())
    return "Set " + BT(s.env) + " in the environment (an empty value counts as unset).";
  if (a.op == "==" || a.op == "in") {
    std::vector<std::string> alts;
    if (s.kind == SubjectKind::kFlag) {
      auto hv = sf.hints.flag_values.find(s.flag->Primary());
      if (hv != sf.hints.flag_values.end()) alts = hv->second;
    }
    if (auto it = sf.own_sets.find(s.Key()); it != sf.own_sets.end() && alts.empty())
      return "Set " + BT(SettingValue(s, it->second)) + " explicitly: the branch at this " + KindWord(*sf.site) + " resolves " +
             JoinWords(Ticked(a.values), "or") + " to " + BT(it->second) + " anyway.";
    if (alts.empty())
      for (auto& c : choices)
        if (!Triggers(f, c)) alts.push_back(c);
    std::string from = JoinSome(Ticked(a.values), "or", 8);
    bool optional = !def || *def == "None" || def->empty();
    if (alts.empty()) return optional ? "Drop " + BT(SettingValue(s, a.values[0])) + " (or change " + ref + " away from " + from + ")."
                                      : "Change " + ref + " away from " + from + ".";
    std::string sx = "Change " + ref + " from " + from + " to " + SomeChoices(alts);
    if (def && !Triggers(f, *def) && *def != "None") sx += "; its default is " + BT(*def);
    else if (optional && s.kind == SubjectKind::kFlag) sx += ", or leave it out";
    return sx + rw_note + ".";
  }
  if (a.op == "not in") {
    std::string sx = "Set " + ref + " to one of the supported values: " + JoinSome(Ticked(a.values), "or", 8);
    if (rw != sf.rewrites.end()) sx += ", or leave it at " + BT(rw->second.from) + rw_note;
    return sx + ".";
  }
  if (a.op == "!=") return "Set " + BT(SettingValue(s, a.values[0])) + rw_note + ".";
  return "";
}

// The fact that stands for a setting: the test that pins it (== / in) or names
// its allowed values (not in), else the first one.
const Fact* PrimaryFact(const SiteFacts& sf, const std::string& key) {
  const Fact* best = nullptr;
  for (const auto& f : sf.facts) {
    if (f.disjunction || f.subj.Key() != key) continue;
    if (!best) best = &f;
    if (!f.from_else && (f.atom.op == "==" || f.atom.op == "in" || f.atom.op == "not in")) return &f;
    if (!f.from_else && best->from_else) best = &f;
  }
  return best;
}

std::string CallRef(const SiteFacts& sf) { return BT(CallName(sf)); }

// One change of the call's arguments that makes fact `f` false (a parameter test).
std::string FlipParam(const SiteFacts& sf, const Fact& f) {
  const Subject& s = f.subj;
  const Atom& a = f.atom;
  std::string call = s.ctor ? BT(sf.ctx->class_name) : CallRef(sf);
  std::string p = BT(s.param);
  if (s.kind == SubjectKind::kType)
    return s.missing ? "Pass " + p + " to " + call + " as " + TypePhrase(sf, s.pred) + "."
                     : "Pass " + p + " to " + call + " as something other than " + TypePhrase(sf, s.pred) + ".";
  if (s.kind == SubjectKind::kShape) {
    long n;
    std::string x = s.expr.empty() ? Trim(a.lhs) : s.expr;
    bool length = StartsWith(x, "len(") || EndsWith(x, ".length") || EndsWith(x, ".len()") || EndsWith(x, ".size()");
    if (!a.op.empty() && IntLiteral(a.rhs, &n)) {
      std::string phrase = IntBoundPhrase(a.op, Trim(a.rhs));
      if (length) {
        if (StartsWith(phrase, "of ")) phrase = phrase.substr(3);
        return "Pass a " + p + " to " + call + " whose length is " + phrase + ".";
      }
      // `q.shape[-1] != 512`: the dimension it must have
      return "Pass " + p + " to " + call + " with " + BT(x) + " " + phrase + ".";
    }
    // `k.shape != q.shape`, `bias.numel() != num_experts`: the size another argument sets
    if (a.op == "!=" && !length && !Trim(a.rhs).empty() && Trim(a.rhs).size() <= kMaxExpr) {
      std::string rhs = Trim(a.rhs);
      if (EndsWith(x, ".shape") && EndsWith(rhs, ".shape") && IsIdent(rhs.substr(0, rhs.size() - 6)))
        return "Pass " + p + " to " + call + " with the same shape as " + BT(rhs.substr(0, rhs.size() - 6)) + ".";
      return "Pass " + p + " to " + call + " with " + BT(x) + " equal to " + BT(rhs) + ".";
    }
    return "";
  }
  if (StartsWith(s.pred, "multiple:")) {
    std::string n = s.pred.substr(9);
    return a.op == "!=" ? "Call " + call + " with " + p + " set to a multiple of " + n + "." : "";
  }
  if (a.op.empty()) {
    auto def = DefaultOf(s);
    if (def && (*def == "True" || *def == "False"))
      return "Call " + call + " with " + BT(s.param + "=" + (a.falsy ? "True" : "False")) + ((*def) == (a.falsy ? "True" : "False") ? " (its default)" : "") + ".";
    // A boolean of a typed language (Java's `boolean`, Go's and Rust's `bool`): the other value.
    std::string type = s.param_info ? Trim(s.param_info->annotation) : "";
    if (sf.site->language != "python" && (type == "boolean" || type == "bool"))
      return "Call " + call + " with " + p + " set to " + BT(a.falsy ? "true" : "false") + ".";
    return a.falsy ? "Pass a non-empty " + p + " to " + call + "." : "";
  }
  if (a.op == "is" && Trim(a.rhs) == "None") return "Pass " + p + " to " + call + " (it must not be " + NullWord(sf.site->language) + ").";
  if (a.op == "is not" && Trim(a.rhs) == "None") return "";  // leaving an argument out is no fix
  if (a.rhs_strings && a.values.size() == 1 && a.values[0].empty() && (a.op == "==" || a.op == "!="))
    return a.op == "==" ? "Pass a non-empty " + p + " to " + call + "." : "Call " + call + " with " + p + " empty (`\"\"`).";
  if (a.rhs_strings && !a.values.empty()) {
    std::string from_const = f.atom_constant.empty() ? "" : " (the values of " + BT(f.atom_constant) + ")";
    if (a.op == "not in" || a.op == "!=")
      return "Call " + call + " with " + p + " set to " + (a.values.size() > 1 ? "one of " : "") + JoinSome(Ticked(a.values), "or", 8) + from_const + ".";
    if (a.op == "==" || a.op == "in") return "Call " + call + " with " + p + " set to something other than " + JoinSome(Ticked(a.values), "or", 8) + ".";
  }
  long n;
  std::string unused_bad, unused_good;  // FloatBound's values: the phrase names the bound itself
  if (IntLiteral(a.rhs, &n) || FloatBound(a, &unused_bad, &unused_good))
    return "Call " + call + " with " + p + " " + IntBoundPhrase(a.op, Trim(a.rhs)) + ".";
  // `num_k_heads != num_q_heads`, both arguments: one value for both (not in a helper
  // whose job is to report the difference).
  if (std::string other = Trim(a.rhs); a.op == "!=" && sf.ctx->known && IsIdent(other) && other != s.param &&
                                       IsParam(sf, other) && !ReportsMismatch(sf))
    return "Call " + call + " with " + p + " equal to " + BT(other) + ".";
  // `out_dtype != torch.bfloat16`, `mode not in (None, "engine")`: the values it accepts, as typed.
  if (!a.constants.empty() && (a.op == "not in" || a.op == "!=" || a.op == "is not")) {
    std::vector<std::string> ok = AcceptedConstants(sf, f);
    if (ok.empty()) return "";
    return "Call " + call + " with " + p + " set to " + (ok.size() > 1 ? "one of " : "") + JoinSome(Ticked(ok), "or", 8) + ".";
  }
  return "";
}

// A tensor argument in the dtype/device/layout the check wants.
std::string FlipTensor(const SiteFacts& sf, const Fact& f) {
  const Subject& s = f.subj;
  const Atom& a = f.atom;
  std::string x = BT(s.tensor);
  std::string call = s.param.empty() ? "" : " to " + CallRef(sf);
  // An output buffer (`out`, `*_out`): the kernel writes into it, so a converted copy
  // would not receive the result -- allocate it right (as the exampleFix does).
  if (IsOutputBuffer(s.tensor) && !s.param.empty()) {
    const char* lost = ": a converted copy would not receive the result.";
    if (s.pred == "contiguous" && s.missing) return "Allocate " + x + " fresh (" + BT("torch.empty(...)") + " is contiguous)" + lost;
    if (s.pred == "cuda" && s.missing) return "Allocate " + x + " on the GPU (" + BT("torch.empty(..., device=\"cuda\")") + ")" + lost;
    if (s.pred == "device" && a.rhs_strings && !a.values.empty() && (a.op == "!=" || a.op == "not in"))
      return "Allocate " + x + " on " + Upper(a.values[0]) + " (" + BT("torch.empty(..., device=\"" + a.values[0] + "\")") + ")" + lost;
    if (s.pred == "dtype" && (a.op == "!=" || a.op == "is not"))
      if (std::string d = TorchDtype(Trim(a.rhs)); !d.empty())
        return "Allocate " + x + " as " + BT(d) + " (" + BT("torch.empty(..., dtype=" + d + ")") + ")" + lost;
  }
  if (s.pred == "contiguous" && s.missing) return "Pass a contiguous " + x + call + ": " + BT(s.tensor + ".contiguous()") + ".";
  if (s.pred == "cuda" && s.missing) return "Move " + x + " to the GPU before the call: " + BT(s.tensor + ".cuda()") + ".";
  if (s.pred == "cpu" && s.missing) return "Move " + x + " to the CPU before the call: " + BT(s.tensor + ".cpu()") + ".";
  if (s.pred == "dim" && a.op == "!=") {
    long n;
    if (IntLiteral(a.rhs, &n) && (n == 1 || n == 2))
      return "Pass " + x + call + " with " + std::to_string(n) + " dimension" + (n == 1 ? "" : "s") + ": " +
             BT(s.tensor + (n == 1 ? ".reshape(-1)" : ".reshape(-1, " + s.tensor + ".shape[-1])")) + ".";
    if (IntLiteral(a.rhs, &n)) return "Pass " + x + call + " with exactly " + std::to_string(n) + " dimensions.";
    return "";
  }
  if (s.pred == "device" && a.rhs_strings && !a.values.empty() && (a.op == "!=" || a.op == "not in"))
    return "Move " + x + " to the " + Upper(a.values[0]) + " device before the call: " +
           BT(s.tensor + (a.values[0] == "cpu" ? ".cpu()" : a.values[0] == "cuda" ? ".cuda()" : ".to(\"" + a.values[0] + "\")")) + ".";
  if (std::string other; TensorPairOther(a, s.pred, &other)) {
    std::string suffix = "." + s.pred, fix = BT(s.tensor + ".to(" + other + ")") + ".";
    // `x.device != device` / `x.dtype != dtype`: a variable holding the wanted one.
    if (!EndsWith(other, suffix)) return "Pass " + x + call + (s.pred == "dtype" ? " as " : " on ") + BT(other) + ": " + fix;
    std::string base = BT(other.substr(0, other.size() - suffix.size()));
    return "Pass " + x + call + (s.pred == "dtype" ? " in the same dtype as " : " on the same device as ") + base + ": " + fix;
  }
  if (s.pred == "dtype" && (a.op == "!=" || a.op == "is not" || a.op == "not in")) {
    std::vector<std::string> ok;
    std::string r = Trim(a.rhs);
    if (a.op == "!=" || a.op == "is not") {
      if (std::string d = TorchDtype(r); !d.empty()) ok.push_back(d);
    } else if (!a.constants.empty()) {  // `not in _SUPPORTED`, the file's tuple of dtypes
      for (const auto& c : a.constants)
        if (std::string d = TorchDtype(c); !d.empty()) ok.push_back(d);
    } else if (r.size() >= 2 && (r[0] == '(' || r[0] == '[' || r[0] == '{')) {
      std::string inner = r.substr(1, r.size() - 2), cur;
      for (char c : inner + ",") {
        if (c == ',') {
          if (std::string d = TorchDtype(cur); !d.empty()) ok.push_back(d);
          cur.clear();
        } else {
          cur += c;
        }
      }
    }
    if (ok.empty()) return "";
    return "Pass " + x + call + " as " + JoinWords(Ticked(ok), "or") + ": " + BT(s.tensor + ".to(" + ok[0] + ")") + ".";
  }
  return "";
}

// A field of the request that makes fact `f` false.
std::string FlipRequest(const Fact& f) {
  const Subject& s = f.subj;
  const Atom& a = f.atom;
  std::string where = s.module == "body" ? "in the request body" : s.module == "query" ? "as a query parameter"
                      : s.module == "header" ? "as a request header" : s.module == "form" ? "in the submitted form"
                      : s.module == "cookie" ? "as a cookie" : "in the URL path";
  bool missing = (a.op.empty() && a.falsy) || (a.op == "is" && Trim(a.rhs) == "None");
  if (missing) return "Send " + BT(s.attr) + " " + where + ".";
  if (a.rhs_strings && !a.values.empty() && (a.op == "not in" || a.op == "!="))
    return "Send " + BT(s.attr) + " " + where + " as " + (a.values.size() > 1 ? "one of " : "") + JoinSome(Ticked(a.values), "or", 8) + ".";
  long n;
  if (IntLiteral(a.rhs, &n)) return "Send " + BT(s.attr) + " " + where + " with a value " + IntBoundPhrase(a.op, Trim(a.rhs)) + ".";
  return "";
}

// self.<attr> is in the failing state: the methods of the class that change it.
std::string FlipSelfState(const SiteFacts& sf, const Fact& f) {
  if (sf.ctx->def_name.empty()) return "";
  std::vector<std::string> set, reset;
  StateMethods(sf, f, &set, &reset);
  const std::string obj = InstanceName(sf), self = sf.site->language == "java" ? "this." : "self.";
  std::string me = BT(obj + "." + sf.ctx->def_name + "(...)");
  std::vector<std::string> a, b;
  for (const auto& m : set) a.push_back(BT(obj + "." + m + "(...)"));
  for (const auto& m : reset) b.push_back(BT(obj + "." + m + "()"));
  if (!a.empty())
    return "Call " + JoinWords(a, "or") + " before " + me + ": it sets " + BT(self + f.subj.attr) + " for it.";
  if (!b.empty())
    return "Call " + me + " before " + JoinWords(b, "or") + " (which puts " + BT(self + f.subj.attr) +
           " into the state this check rejects), or on a new object.";
  return "";
}

// The hardware a platform predicate names, in words: is_sm100_supported() -> an
// NVIDIA Blackwell GPU (SM100). "" when the predicate says nothing known.
std::string HardwareName(const std::string& pred) {
  std::string p = Lower(pred);
  static const std::pair<const char*, const char*> kNames[] = {
      {"sm120", "an NVIDIA Blackwell workstation/consumer GPU (SM120)"},
      {"sm100", "an NVIDIA Blackwell data-center GPU (SM100/SM103)"},
      {"blackwell", "an NVIDIA Blackwell GPU (SM100 or newer)"},
      {"sm90", "an NVIDIA Hopper GPU (SM90)"},
      {"hopper", "an NVIDIA Hopper GPU (SM90)"},
      {"sm89", "an NVIDIA Ada GPU (SM89)"},
      {"sm80", "an NVIDIA Ampere GPU (SM80) or newer"},
      {"ampere", "an NVIDIA Ampere GPU (SM80) or newer"},
      {"gfx95", "an AMD Instinct MI350-series GPU (gfx950)"},
      {"gfx942", "an AMD Instinct MI300-series GPU (gfx942)"},
      {"torch.cuda.is_available", "a machine with an NVIDIA GPU and a CUDA build of PyTorch"},
      {"is_cuda", "an NVIDIA GPU with a CUDA build of PyTorch"},
      {"is_hip", "an AMD GPU with a ROCm build of PyTorch"},
      {"is_rocm", "an AMD GPU with a ROCm build of PyTorch"},
      {"is_npu", "an Ascend NPU with torch_npu installed"},
      {"is_xpu", "an Intel GPU (XPU) with an XPU build of PyTorch"},
      {"is_mps", "Apple silicon (MPS)"},
      {"is_musa", "a Moore Threads GPU (MUSA)"},
      {"is_hpu", "an Intel Gaudi accelerator (HPU)"},
      {"is_tpu", "a Google TPU"},
      {"is_cpu", "the CPU backend"}};
  for (const auto& [key, name] : kNames)
    if (Has(p, key)) return name;
  return "";
}

std::string FlipCapability(const SiteFacts& sf, const Fact& f) {
  const Subject& s = f.subj;
  const Hints& h = sf.hints;
  switch (s.kind) {
    case SubjectKind::kMissingAttr: {
      if (!s.missing) return "";
      std::string pkg = FirstComponent(s.module);
      if (IsStdlibModule(pkg))
        return "Run on a platform or Python build whose " + BT(pkg) + " provides " + BT(s.module + "." + s.attr) +
               " (it is not a pip package; the attribute depends on the OS and how Python was built).";
      std::string ver = (!h.package.empty() && FirstComponent(h.package) == pkg) ? h.version_op + h.version : "";
      return "Upgrade " + BT(pkg) + " to a version that defines " + BT(s.module + "." + s.attr) + ": " +
             BT("pip install -U \"" + PipName(pkg) + ver + "\"") + "; verify with " +
             BT("python -c \"import " + pkg + "; print(hasattr(" + s.module + ", '" + s.attr + "'))\"") + ".";
    }
    case SubjectKind::kMissingModule:
      if (!s.missing) return "Uninstall " + BT(s.module) + " if this code path must not be taken.";
      return "Install the package that provides " + BT(s.module) + " (" + BT("pip install " + PipName(s.module)) +
             " when the distribution has the same name).";
    case SubjectKind::kHardware: {
      std::string hw = HardwareName(s.pred);
      if (s.missing)
        return hw.empty() ? "Run it on a machine whose hardware and drivers pass the check " + BT(s.pred) +
                                ", or choose a configuration that does not take this path."
                          : "Run it on " + hw + " (the check is " + BT(s.pred) + "), or choose a configuration that does not take this path.";
      return hw.empty() ? "This path does not support the platform " + BT(s.pred) + " detects: choose a configuration that does not take it there."
                        : "This path does not support " + hw + ": choose a configuration that does not take it on this platform.";
    }
    case SubjectKind::kVersion:
      if (!s.attr.empty()) return "Install a " + BT(s.module) + " with " + BT(s.attr) + ": " + BT("pip install \"" + ReqName(s.attr) + "\"") + ".";
      if (!s.module.empty() && !IsStdlibModule(s.module))
        return "Install another version of " + BT(s.module) + " (the check " + BT(s.pred) + " rejects the installed one).";
      return "";
    default:
      return "";
  }
}

// Does a solution already say what the sentence says (the flag hint solution)?
// The words of a solution without the note of where it comes from: two pieces of the
// message's advice differing in one value are not alike for sharing that note.
std::vector<std::string> SolutionWords(std::string s) {
  for (const char* note : {" (the message's advice)", " (the message's own hint)."})
    if (EndsWith(s, note)) s.resize(s.size() - std::char_traits<char>::length(note));
  return Words(s);
}

bool Covered(const std::vector<std::string>& sols, const std::string& sentence) {
  std::vector<std::string> w = SolutionWords(sentence);
  if (!w.empty() && w[0] == "please") w.erase(w.begin());
  for (const auto& s : sols) {
    std::vector<std::string> sw = SolutionWords(s);
    size_t j = 0, matched = 0;
    for (const auto& x : w)
      for (size_t k = j; k < sw.size(); ++k)
        if (sw[k] == x) {
          ++matched;
          j = k + 1;
          break;
        }
    if (!w.empty() && matched * 10 >= w.size() * 8) return true;
  }
  return false;
}

}  // namespace


std::string IntBoundPhrase(const std::string& op, const std::string& n) {
  // The values that make `x <op> n` false.
  if (op == "<") return "of at least " + n;
  if (op == "<=") return "greater than " + n;
  if (op == ">") return "of at most " + n;
  if (op == ">=") return "less than " + n;
  if (op == "==") return "other than " + n;
  if (op == "!=") return "equal to " + n;
  return "for which `" + op + " " + n + "` is false";
}

bool IsStdlibModule(const std::string& m) {
  static const std::set<std::string> stdlib = {
      "os", "sys", "socket", "signal", "select", "selectors", "ssl", "time", "errno", "fcntl", "resource", "posix",
      "nt", "math", "io", "stat", "termios", "mmap", "threading", "multiprocessing", "subprocess", "asyncio",
      "ctypes", "locale", "platform", "shutil", "tempfile", "hashlib", "zlib", "sqlite3", "readline", "curses",
      "pwd", "grp", "array", "struct", "types", "inspect", "builtins", "codecs", "unicodedata", "_thread", "gc",
      "typing", "functools", "itertools", "collections", "re", "json", "pathlib", "enum", "dataclasses", "abc"};
  return stdlib.count(m) > 0;
}

std::string PipName(const std::string& module) {
  std::string m = FirstComponent(module);
  std::replace(m.begin(), m.end(), '_', '-');
  return m;
}

std::optional<std::vector<std::string>> WriteSolutions(const SiteFacts& sf) {
  const Hints& h = sf.hints;
  std::vector<std::string> sol;
  auto add = [&](std::string s) {
    if (!s.empty() && std::find(sol.begin(), sol.end(), s) == sol.end() && !Covered(sol, s)) sol.push_back(std::move(s));
  };
  // 1. The message's own advice, whole.
  for (const auto& [flag, vals] : h.flag_values) {
    if (vals.empty()) continue;
    std::vector<std::string> forms;
    for (auto& v : vals) forms.push_back(BT(flag + " " + v));
    // The message's own verb ("Use --device cuda", "Pass --deepep-mode auto").
    std::string verb = "Pass";
    // The sentence's verb when it acts on the flag ("Use --device cuda"), not one about
    // the outcome ("Ensure at least two ... or use --gpu_ids='all'").
    static const std::set<std::string> kActs = {"pass", "use", "set", "add", "specify", "try", "change", "switch",
                                                "choose", "select", "enable", "provide", "give", "launch", "run", "start",
                                                "lower", "raise", "increase", "reduce", "decrease", "configure", "update"};
    if (auto it = h.flag_verbs.find(flag); it != h.flag_verbs.end() && kActs.count(it->second)) {
      verb = it->second;
      verb[0] = (char)std::toupper((unsigned char)verb[0]);
    }
    add(verb + " " + JoinWords(forms, "or") + " (the message's own hint).");
  }
  for (const auto& e : h.env_sets) add("Set " + BT(e) + " in the environment (the message's own hint).");
  for (const auto& s : h.sentences) {
    std::string t = s;
    if (!t.empty() && std::islower((unsigned char)t[0])) t[0] = (char)std::toupper((unsigned char)t[0]);
    if (!t.empty() && !std::ispunct((unsigned char)t.back())) t += ".";
    add(t + " (the message's advice)");
  }
  bool ident_list = h.allowed.size() > 1 || !h.allowed_flag.empty();
  if (!h.allowed.empty() && (ident_list || h.flag_values.empty())) {
    bool stated = false;  // a test of the same flag names the same values: its solution says it
    for (const auto& f : sf.facts)
      if (f.subj.kind == SubjectKind::kFlag && f.subj.flag->Primary() == h.allowed_flag && f.atom.op == "not in" &&
          std::set<std::string>(f.atom.values.begin(), f.atom.values.end()) == std::set<std::string>(h.allowed.begin(), h.allowed.end()))
        stated = true;
    if (!h.allowed_flag.empty() && !stated)
      add("Set " + BT(h.allowed_flag) + " to one of the supported values: " + JoinSome(Ticked(h.allowed), "or", 8) + ".");
    else if (stated) {
    }
    else if (ident_list)
      add("Use one of the values the message lists: " + JoinSome(Ticked(h.allowed), "or", 8) + ".");
    else if (Words(h.allowed[0]).size() <= 6 && h.allowed[0].find(',') == std::string::npos)
      add("Use what the message says is supported: " + h.allowed[0] + ".");
  }
  // A requirement the user can install (a version, a missing package) is the cause; the
  // hardware tests beside it only pick which requirement applies ("on MUSA, deepspeed must
  // be >= 0.14.3"): changing the machine is no fix for them.
  // An earlier branch's package test, when the site's own guard names the requirement,
  // only says which platform's branch this is (`elif is_sdaa_available(): return ...`
  // above `if not is_torch_version(">=", "2.8.0"): raise`).
  bool installable = false, own_installable = false;
  std::vector<const Fact*> missing_modules;
  for (const auto& f : sf.facts) {
    const Subject& s = f.subj;
    if ((s.kind == SubjectKind::kVersion && (!s.attr.empty() || !s.module.empty())) ||
        ((s.kind == SubjectKind::kMissingModule || s.kind == SubjectKind::kMissingAttr) && s.missing)) {
      installable = true;
      own_installable |= !f.from_else;
    }
  }
  for (const auto& f : sf.facts) {
    const Subject& s = f.subj;
    if (s.kind == SubjectKind::kMissingModule && s.missing && !f.disjunction && !(f.from_else && own_installable) &&
        std::none_of(missing_modules.begin(), missing_modules.end(), [&](const Fact* m) { return m->subj.module == s.module; }))
      missing_modules.push_back(&f);
  }
  auto version_fact_of = [&](const std::string& pkg) {
    return std::any_of(sf.facts.begin(), sf.facts.end(), [&](const Fact& f) {
      return f.subj.kind == SubjectKind::kVersion && !f.subj.attr.empty() && Lower(PipName(f.subj.module)) == Lower(PipName(pkg));
    });
  };
  if (!h.package.empty())
    add("Install a new enough " + BT(h.package) + ": " + BT("pip install -U \"" + h.package + h.version_op + h.version + "\"") + ".");
  else if (!h.upgrade.empty() && !version_fact_of(h.upgrade))  // else the version fact says it, with the version
    add("Upgrade " + BT(h.upgrade) + " as the message asks: " + BT("pip install -U " + PipName(h.upgrade)) + ".");
  if (!h.pip.empty()) add("Run " + BT("pip install " + h.pip) + " as the message says.");
  if (!h.replacement.empty())
    add("Use " + BT(h.replacement) + (h.replaced.empty() ? "" : " instead of " + BT(h.replaced)) + ", as the message says.");
  if (!h.call_first.empty() && !sf.ctx->def_name.empty())
    add("Call " + BT(h.call_first + "(...)") + " before " + BT(CallName(sf) + "(...)") + ", as the message says.");

  // 2. One user-side change per subject, innermost first. A code condition inside an
  // argument test makes the argument test context, not the cause: no change of it.
  std::set<std::string> done;
  bool inner_code = false;
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    if (f.disjunction && !inner_code) {
      // `not a or not b` / `a is None or b is None` over arguments: pass them all.
      std::vector<std::string> params;
      bool all = !sf.ctx->params.empty(), nulls_only = true;
      for (const Atom& at : f.any_of) {
        std::string x = Trim(at.lhs);
        bool is_param = std::any_of(sf.ctx->params.begin(), sf.ctx->params.end(), [&](const ParamInfo& p) { return p.name == x; });
        bool null = at.op == "is" && Trim(at.rhs) == "None";
        bool missing = (at.op.empty() && at.falsy) || null;
        nulls_only &= null;
        if (!is_param || !missing) all = false;
        else params.push_back(BT(x));
      }
      // `s == null || t == null` asks for values, not non-empty ones.
      if (all && params.size() >= 2)
        add("Pass " + JoinWords(params, "and") + " to " + CallRef(sf) +
            (nulls_only ? " (none of them may be " + NullWord(sf.site->language) + ")." : " (each must be given and not empty)."));
    }
    if (f.disjunction) {
      std::string p;
      long bad, good, lo, hi;
      if (!inner_code && IntRange(sf, f, &p, &bad, &good, &lo, &hi)) {
        std::string range = lo != LONG_MIN && hi != LONG_MAX ? "from " + std::to_string(lo) + " to " + std::to_string(hi)
                            : lo != LONG_MIN ? "of at least " + std::to_string(lo) : hi != LONG_MAX ? "of at most " + std::to_string(hi) : "";
        if (!range.empty()) add("Call " + CallRef(sf) + " with " + BT(p) + " " + range + ".");
      }
      inner_code = true;
      continue;
    }
    const Subject& s = f.subj;
    if (!done.insert(s.Key()).second) continue;
    switch (s.kind) {
      case SubjectKind::kField:
        // `if self.x is None: ... elif not isinstance(self.x, int): raise`: the type is the
        // fix, not leaving the field out.
        if (TypeTestedArgument(sf, s.field->name)) break;
        if (const Fact* p = PrimaryFact(sf, s.Key())) add(FlipSetting(sf, *p));
        break;
      case SubjectKind::kFlag:
        // The message's own hint already says what to pass for this flag.
        if (auto hv = h.flag_values.find(s.flag->Primary()); hv != h.flag_values.end() && !hv->second.empty()) break;
        [[fallthrough]];
      case SubjectKind::kEnv:
        if (const Fact* p = PrimaryFact(sf, s.Key())) add(FlipSetting(sf, *p));
        break;
      case SubjectKind::kMissingModule:
        if (f.from_else && own_installable && s.missing) break;
        // Several packages all missing ("no FP8 backend: torchao, transformer-engine and
        // msamp are all absent"): any one of them avoids the raise.
        if (missing_modules.size() > 1 && s.missing && !f.disjunction) {
          std::vector<std::string> mods, pips;
          for (auto m = missing_modules.rbegin(); m != missing_modules.rend(); ++m) {
            mods.push_back(BT((*m)->subj.module));
            pips.push_back(BT("pip install " + PipName((*m)->subj.module)));
          }
          add("Install one of the packages that provide " + JoinSome(mods, "or", 6) + " (" + JoinSome(pips, "or", 6) +
              " when the distribution has the same name).");
          break;
        }
        add(FlipCapability(sf, f));
        break;
      case SubjectKind::kHardware:
        if (!installable) add(FlipCapability(sf, f));
        break;
      case SubjectKind::kMissingAttr:
      case SubjectKind::kVersion: add(FlipCapability(sf, f)); break;
      case SubjectKind::kTensor: add(FlipTensor(sf, f)); break;
      case SubjectKind::kRequest: add(FlipRequest(f)); break;
      case SubjectKind::kSelfState:
        add(FlipSelfState(sf, f));
        inner_code = true;
        break;
      case SubjectKind::kParam:
      case SubjectKind::kType:
      case SubjectKind::kShape:
        if (!s.param.empty() && !inner_code) add(FlipParam(sf, f));
        else if (s.param.empty()) inner_code = true;
        break;
      default: inner_code = true;
    }
  }
  {
    std::string t1, t2;
    if (DevicePair(sf, &t1, &t2)) {
      bool output = IsOutputBuffer(t2);  // the kernel writes into it: move the input instead
      add("Put " + BT(t1) + " and " + BT(t2) + " on the same GPU before the call: " +
          BT(output ? t1 + ".to(" + t2 + ".device)" : t2 + ".to(" + t1 + ".device)") + ".");
    }
  }
  if (AbstractMethod(sf))
    add("Override " + BT(sf.ctx->def_name) + " in the subclass of " + BT(sf.ctx->class_name) + " you use (or use a subclass that implements it).");
  if (sol.empty()) return std::nullopt;
  if (sol.size() > 8) sol.resize(8);
  return sol;
}

std::optional<std::vector<std::string>> WritePreventionTips(const SiteFacts& sf, const std::vector<std::string>& solutions,
                                                            bool has_validation) {
  std::vector<std::string> tips;
  const Site& site = *sf.site;
  for (const auto& f : sf.facts) {
    const Subject& s = f.subj;
    auto def = DefaultOf(s);
    if ((s.kind == SubjectKind::kFlag || s.kind == SubjectKind::kField) && def && f.atom.rhs_strings && !Triggers(f, *def) &&
        *def != "None") {
      std::string t = "Leave " + SettingRef(s) + " at its default " + BT(*def) + " unless the setup requires otherwise";
      auto rw = sf.rewrites.find(s.Key());
      if (rw != sf.rewrites.end() && rw->second.from == *def)
        t += " (" + BT(rw->second.from) + " is resolved to " + BT(rw->second.to) + " for this combination)";
      tips.push_back(t + ".");
    }
    if (s.kind == SubjectKind::kMissingAttr && s.missing && !IsStdlibModule(FirstComponent(s.module)))
      tips.push_back("Pin " + BT(FirstComponent(s.module)) + " in the requirements to a version that provides " +
                     BT(s.module + "." + s.attr) + ", and check " + BT("hasattr(" + s.module + ", \"" + s.attr + "\")") + " at startup.");
    if (s.kind == SubjectKind::kMissingModule && s.missing)
      tips.push_back("Declare " + BT(s.module) + " as a dependency (or an extra) of the deployment so it is installed with it.");
    if (s.kind == SubjectKind::kHardware) tips.push_back("Check " + BT(s.pred) + " on the target machine before choosing this configuration.");
    if (s.kind == SubjectKind::kEnv)
      tips.push_back("Set " + BT(s.env) + " explicitly in the launcher or container definition instead of inheriting it from the shell.");
    if (s.kind == SubjectKind::kVersion) tips.push_back("Pin the versions this code path is tested with in the requirements.");
  }
  {
    std::vector<std::string> ctx;
    for (const auto& f : sf.facts)
      if (f.subj.IsSetting() && f.atom.op == "==" && f.atom.rhs_strings && f.atom.values.size() == 1 &&
          !sf.hints.flag_values.count(f.subj.kind == SubjectKind::kFlag ? f.subj.flag->Primary() : ""))
        ctx.push_back(UserTerm(sf, f));
    for (const auto& [flag, vals] : sf.hints.flag_values)
      if (!vals.empty() && !ctx.empty())
        tips.push_back("With " + JoinWords(ctx, "and") + ", keep " + BT(flag) + " at " + JoinWords(Ticked(vals), "or") + ".");
  }
  bool external = false;
  for (const auto& f : sf.facts)
    if (f.subj.IsSetting() || f.subj.IsCapability()) external = true;
  if (has_validation && external && site.kind != SiteKind::kLog)
    tips.push_back("Run the pre-flight check (validationCode) in launch scripts and CI so the problem shows before the expensive start-up work.");
  if (site.except_context && site.error_class) {
    std::string caught = Trim(*site.except_context);
    if (StartsWith(caught, "except")) caught = Trim(caught.substr(6));
    if (!caught.empty() && caught.back() == ':') caught.pop_back();
    size_t as = caught.find(" as ");
    if (as != std::string::npos) caught = Trim(caught.substr(0, as));
    const std::string& cls = *site.error_class;
    std::string last = LastComponent(cls);
    bool warning = EndsWith(cls, "Warning");
    if (!caught.empty() && !warning && !HasWord(caught, last) && IsDotted(last) && caught.size() < 120)
      tips.push_back(BT(Clip(site.function, 120)) + " turns " + BT(caught) + " into " + BT(cls) + ": catch " + BT(cls) + " around calls of " +
                     BT(CallName(sf)) + ".");
  }
  // Never a tip that is already a solution.
  std::vector<std::string> uniq;
  std::set<std::string> sol_words;
  for (const auto& s : solutions) {
    std::string w = SpacedWords(s);
    sol_words.insert(w);
  }
  for (auto& t : tips) {
    std::string w = SpacedWords(t);
    if (sol_words.count(w) || std::find(uniq.begin(), uniq.end(), t) != uniq.end()) continue;
    uniq.push_back(t);
  }
  if (uniq.empty()) return std::nullopt;
  return uniq;
}

}  // namespace errdex::doc
