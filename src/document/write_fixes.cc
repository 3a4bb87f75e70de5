// document/write_fixes.cc: solutions (the message's own advice first, then one
// user-side change per fact: a setting, an installed package, the hardware,
// the arguments of the call), exampleFix (before/after in the form the user
// types) and preventionTips.
#include <algorithm>
#include <cctype>
#include <set>

#include "document/text.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

using Rewrites = std::map<std::string, Rewrite>;

// "flash_attn>=2.8" -> "flash-attn>=2.8" (the distribution name, the requirement kept).
std::string ReqName(const std::string& req) {
  size_t op = req.find_first_of("<>=!~");
  return PipName(req.substr(0, op)) + (op == std::string::npos ? "" : req.substr(op));
}

const std::vector<std::string>& ChoicesOf(const Subject& s) {
  static const std::vector<std::string> none;
  if (s.kind == SubjectKind::kFlag) return s.flag->choices;
  if (s.kind == SubjectKind::kField) return s.field->choices;
  if (s.kind == SubjectKind::kEnv && s.env_info) return s.env_info->choices;
  return none;
}
std::optional<std::string> DefaultOf(const Subject& s) {
  if (s.kind == SubjectKind::kFlag && s.flag->default_value) return s.flag->default_value;
  if (s.kind == SubjectKind::kField && s.field->default_value) {
    std::string d = Trim(*s.field->default_value);
    if (d.size() >= 2 && (d[0] == '"' || d[0] == '\'') && d.back() == d[0]) d = d.substr(1, d.size() - 2);
    return d;
  }
  if (s.kind == SubjectKind::kEnv && s.env_info && s.env_info->default_value) {
    std::string d = Trim(*s.env_info->default_value);
    if (d.size() >= 2 && (d[0] == '"' || d[0] == '\'') && d.back() == d[0]) d = d.substr(1, d.size() - 2);
    return d;
  }
  if (s.kind == SubjectKind::kParam && s.param_info && !s.param_info->default_value.empty()) {
    std::string d = s.param_info->default_value;
    if (d.size() >= 2 && (d[0] == '"' || d[0] == '\'') && d.back() == d[0]) d = d.substr(1, d.size() - 2);
    return d;
  }
  return std::nullopt;
}

std::string QuoteIfText(const std::string& v) {
  long n;
  if (v == "None" || v == "True" || v == "False" || IntLiteral(v, &n)) return v;
  return PyQuote(v);
}

// A value the user can give that makes fact `f` false, preferring the message's hint.
std::string FixValue(const SiteFacts& sf, const Fact& f) {
  const Atom& a = f.atom;
  if (a.op.empty() || !a.rhs_strings || a.values.empty()) return "";
  if (auto it = sf.own_sets.find(f.subj.Key()); it != sf.own_sets.end()) return it->second;
  if (f.subj.kind == SubjectKind::kFlag) {
    auto hv = sf.hints.flag_values.find(f.subj.flag->Primary());
    if (hv != sf.hints.flag_values.end() && !hv->second.empty() && !Triggers(f, hv->second[0])) return hv->second[0];
    if (sf.hints.allowed_flag == f.subj.flag->Primary() && !sf.hints.allowed.empty() && !Triggers(f, sf.hints.allowed[0]))
      return sf.hints.allowed[0];
  }
  if (a.op == "not in" || a.op == "!=") return a.values[0];
  if (f.subj.kind == SubjectKind::kEnv && a.op == "==") return "\x01unset";
  const auto& choices = ChoicesOf(f.subj);
  auto def = DefaultOf(f.subj);
  if (def && *def != "None" && !Triggers(f, *def) && (!choices.empty() || f.subj.kind == SubjectKind::kParam)) return *def;
  for (auto& c : choices)
    if (!Triggers(f, c)) return c;
  return "";
}

// A value that makes the fact true (for "# before").
std::string TriggerValue(const SiteFacts& sf, const Fact& f) {
  const Atom& a = f.atom;
  if (a.op.empty() || !a.rhs_strings || a.values.empty()) return "";
  if (a.op == "==" || a.op == "in") return a.values[0];
  auto rw = sf.rewrites.find(f.subj.Key());
  for (auto& c : ChoicesOf(f.subj)) {
    if (rw != sf.rewrites.end() && c == rw->second.from) continue;
    if (!Triggers(f, c)) continue;
    bool ok = true;
    for (const auto& g : sf.facts)
      if (&g != &f && g.subj.Key() == f.subj.Key() && g.atom.rhs_strings && !g.atom.op.empty() && !Triggers(g, c)) ok = false;
    if (ok) return c;
  }
  return "";
}

std::string SettingForm(const Subject& s, const std::string& v, const Atom& a) {
  if (a.op.empty()) {
    if (s.kind == SubjectKind::kEnv) return a.falsy ? s.env + "=0" : s.env + "=1";
    if (IsBoolFlag(s)) return a.falsy ? "" : (s.flag->action == "store_false" ? "" : s.flag->Primary());
    return "";
  }
  if (v.empty()) return "";
  if (v == "\x01unset") return "unset " + s.env;
  if (s.kind == SubjectKind::kEnv) return s.env + "=" + v;
  return SettingValue(s, v);
}
std::string NegatedForm(const Subject& s, const Atom& a) {
  if (s.kind == SubjectKind::kEnv) return a.falsy ? s.env + "=1" : "unset " + s.env;
  if (IsBoolFlag(s)) {
    if (a.falsy) return s.flag->Primary();
    return s.flag->negative;  // "" = drop the flag
  }
  return "";
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
    if (s.kind == SubjectKind::kEnv)
      return a.falsy ? "Set " + BT(s.env + "=1") + " in the environment."
                     : "Unset " + BT(s.env) + " (or set it to a false value such as " + BT(s.env + "=0") + ").";
    if (IsBoolFlag(s)) {
      bool on = a.falsy == (s.flag->action == "store_false");
      if (!on) return "Pass " + ref + ".";
      return s.flag->negative.empty() ? "Drop " + ref + " from the command line." : "Drop " + ref + " (or pass " + BT(s.flag->negative) + ").";
    }
    return a.falsy ? "Set " + ref + " to a non-empty value." : "Leave " + ref + " unset.";
  }
  if (!a.rhs_strings) {
    long n;
    if (IntLiteral(a.rhs, &n)) return "Set " + ref + " to a value " + IntBoundPhrase(a.op, Trim(a.rhs)) + ".";
    if (Trim(a.rhs) == "None")
      return a.op == "is" ? "Give " + ref + " a value." : "Leave " + ref + " unset.";
    return "";
  }
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
    if (alts.empty()) return "Change " + ref + " away from " + from + ".";
    std::string sx = "Change " + ref + " from " + from + " to " + JoinSome(Ticked(alts), "or", 8);
    if (def && !Triggers(f, *def) && *def != "None") sx += "; its default is " + BT(*def);
    return sx + rw_note + ".";
  }
  if (a.op == "not in") {
    std::string sx = "Set " + ref + " to one of " + JoinSome(Ticked(a.values), "or", 8);
    if (rw != sf.rewrites.end()) sx += ", or leave it at " + BT(rw->second.from) + rw_note;
    return sx + ".";
  }
  if (a.op == "!=") return "Set " + BT(SettingValue(s, a.values[0])) + rw_note + ".";
  return "";
}

// One change of the call's arguments that makes fact `f` false (a parameter test).
std::string FlipParam(const SiteFacts& sf, const Fact& f) {
  const Subject& s = f.subj;
  const Atom& a = f.atom;
  std::string call = BT(CallName(sf));
  std::string p = BT(s.param);
  if (s.kind == SubjectKind::kType)
    return s.missing ? "Pass " + p + " to " + call + " as an instance of " + BT(s.pred) + "."
                     : "Pass " + p + " to " + call + " as something other than " + BT(s.pred) + ".";
  if (s.kind == SubjectKind::kShape) {
    long n;
    if (!a.op.empty() && IntLiteral(a.rhs, &n)) return "Pass a " + p + " to " + call + " whose length is " + IntBoundPhrase(a.op, Trim(a.rhs)) + ".";
    return "";
  }
  if (a.op.empty()) {
    auto def = DefaultOf(s);
    if (def && (*def == "True" || *def == "False"))
      return "Call " + call + " with " + BT(s.param + "=" + (a.falsy ? "True" : "False")) + (("" + *def) == (a.falsy ? "True" : "False") ? " (its default)" : "") + ".";
    return a.falsy ? "Pass a non-empty " + p + " to " + call + "." : "";
  }
  if (a.op == "is" && Trim(a.rhs) == "None") return "Pass " + p + " to " + call + " (it must not be None).";
  if (a.op == "is not" && Trim(a.rhs) == "None") return "Call " + call + " without " + p + " (or with " + BT(s.param + "=None") + ").";
  if (a.rhs_strings && !a.values.empty()) {
    if (a.op == "not in" || a.op == "!=")
      return "Call " + call + " with " + p + " set to " + (a.values.size() > 1 ? "one of " : "") + JoinSome(Ticked(a.values), "or", 8) + ".";
    if (a.op == "==" || a.op == "in") return "Call " + call + " with " + p + " set to something other than " + JoinSome(Ticked(a.values), "or", 8) + ".";
  }
  long n;
  if (IntLiteral(a.rhs, &n)) return "Call " + call + " with " + p + " " + IntBoundPhrase(a.op, Trim(a.rhs)) + ".";
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
    case SubjectKind::kHardware:
      return s.missing ? "Run on a machine where " + BT(s.pred) + " is True, or choose a configuration that does not need it."
                       : "Choose a configuration that supports the platform where " + BT(s.pred) + " is True.";
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
bool Covered(const std::vector<std::string>& sols, const std::string& sentence) {
  std::vector<std::string> w = Words(sentence);
  if (!w.empty() && w[0] == "please") w.erase(w.begin());
  for (const auto& s : sols) {
    std::vector<std::string> sw = Words(s);
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

const std::map<std::string, std::string>& Samples() {
  static const std::map<std::string, std::string> m = {
      {"str", "\"text\""}, {"int", "1"}, {"float", "1.0"}, {"bytes", "b\"data\""}, {"list", "[...]"},
      {"dict", "{...}"}, {"tuple", "(...)"}, {"bool", "True"}, {"bytearray", "bytearray(b\"data\")"},
      {"Path", "Path(\"...\")"}, {"PathLike", "Path(\"...\")"}};
  return m;
}

// A sample value of an annotation (`x: int`, `Optional[str]`), "" unknown.
std::string SampleOf(const std::string& annotation) {
  std::string t = Trim(annotation);
  if (StartsWith(t, "Optional[") && EndsWith(t, "]")) t = t.substr(9, t.size() - 10);
  size_t bar = t.find('|');
  if (bar != std::string::npos) t = Trim(t.substr(0, bar));
  if (t == "None") return "";
  std::string base = t.substr(0, t.find('['));
  auto it = Samples().find(LastComponent(base));
  if (it != Samples().end()) return it->second;
  if (base == "List" || base == "Sequence") return "[...]";
  if (base == "Dict" || base == "Mapping") return "{...}";
  return "";
}

// `# before` / `# after` calls for a parameter test of the innermost fact.
std::optional<std::string> CallFix(const SiteFacts& sf) {
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    if (f.disjunction || !f.subj.via.empty() || f.subj.param.empty()) continue;
    const Atom& a = f.atom;
    const Subject& s = f.subj;
    std::string call = CallName(sf);
    std::string x = s.param;
    auto form = [&](const std::string& v, const std::string& note) {
      return call + "(" + x + "=" + v + ")" + (note.empty() ? "" : "  # " + note);
    };
    std::string bad, good;
    long n;
    if (s.kind == SubjectKind::kType && s.missing) {
      std::string type = s.pred;
      if (!type.empty() && type[0] == '(') type = Trim(type.substr(1, type.find_first_of(",)") - 1));
      if (!IsDotted(type)) continue;
      auto smp = Samples().find(LastComponent(type));
      bad = form("value", "not an instance of " + s.pred);
      good = smp != Samples().end() ? form(smp->second, "a " + type) : form(type + "(...)", "");
    } else if (s.kind == SubjectKind::kShape) {
      if (a.op.empty() || !IntLiteral(a.rhs, &n) || !StartsWith(Trim(a.lhs), "len(")) continue;
      long b, g;
      if (a.op == "<") b = n - 1, g = n;
      else if (a.op == "<=") b = n, g = n + 1;
      else if (a.op == ">") b = n + 1, g = n;
      else if (a.op == ">=") b = n, g = n - 1;
      else if (a.op == "==") b = n, g = n + 1;
      else if (a.op == "!=") b = n + 1, g = n;
      else continue;
      if (b < 0 || g < 0 || b > 8 || g > 8) continue;
      auto items = [](long k) {
        std::string o = "[";
        for (long i = 0; i < k; ++i) o += (i ? ", " : "") + std::string("x") + std::to_string(i + 1);
        return o + "]";
      };
      bad = form(items(b), std::to_string(b) + " items");
      good = form(items(g), std::to_string(g) + " items");
    } else if (s.kind != SubjectKind::kParam) {
      continue;
    } else if (a.op == "is" && Trim(a.rhs) == "None") {
      std::string smp = s.param_info ? SampleOf(s.param_info->annotation) : "";
      if (smp.empty()) continue;
      bad = form("None", "");
      good = form(smp, "");
    } else if (a.rhs_strings && !a.values.empty() && (a.op == "not in" || a.op == "!=")) {
      std::vector<std::string> q;
      for (auto& v : a.values) q.push_back(PyQuote(v));
      std::string bad_v = "\"other\"";
      for (const char* cand : {"\"other\"", "\"unknown\"", "\"x\""})
        if (std::find(q.begin(), q.end(), cand) == q.end()) {
          bad_v = cand;
          break;
        }
      bad = form(bad_v, "not " + JoinSome(q, "or", 6));
      good = form(PyQuote(a.values[0]), "");
    } else if (a.op.empty()) {
      auto def = DefaultOf(s);
      if (!def || (*def != "True" && *def != "False")) continue;
      bad = form(a.falsy ? "False" : "True", "");
      good = form(a.falsy ? "True" : "False", "the default is " + *def);
    } else if (a.rhs_strings && a.values.size() == 1 && a.op == "==") {
      auto def = DefaultOf(s);
      std::string g = def && *def != a.values[0] && *def != "None" ? QuoteIfText(*def) : "";
      if (g.empty()) continue;
      bad = form(PyQuote(a.values[0]), "");
      good = form(g, "the default");
    } else if (IntLiteral(a.rhs, &n)) {
      long b, g;
      if (a.op == "<") b = n - 1, g = n;
      else if (a.op == "<=") b = n, g = n + 1;
      else if (a.op == ">") b = n + 1, g = n;
      else if (a.op == ">=") b = n, g = n - 1;
      else if (a.op == "==") b = n, g = n + 1;
      else if (a.op == "!=") b = n + 1, g = n;
      else continue;
      bad = form(std::to_string(b), "");
      good = form(std::to_string(g), "");
    } else {
      continue;
    }
    if (bad == good) continue;
    return "# before\n" + bad + "\n# after\n" + good;
  }
  return std::nullopt;
}

std::optional<std::string> SettingsFix(const SiteFacts& sf) {
  std::vector<const Fact*> settings;
  for (const auto& f : sf.facts)
    if (f.subj.IsSetting() && !f.disjunction) settings.push_back(&f);
  // An inner capability test (hardware, dependency) is what the fix is about.
  if (!sf.facts.empty() && sf.facts.back().subj.IsCapability()) return std::nullopt;
  const Fact* flip = nullptr;
  std::string flip_to;
  for (auto it = settings.rbegin(); it != settings.rend() && !flip; ++it) {
    const Fact* f = *it;
    std::string v = FixValue(sf, *f);
    if (!v.empty() || (f->atom.op.empty() && (IsBoolFlag(f->subj) || f->subj.kind == SubjectKind::kEnv))) {
      flip = f;
      flip_to = v;
    }
  }
  if (!flip) return std::nullopt;
  std::vector<std::string> before, after;
  std::set<std::string> seen;
  for (const auto* f : settings) {
    std::string key = f->subj.Key();
    if (seen.count(key)) continue;
    const Fact* use = f;
    for (const auto* g : settings)
      if (g->subj.Key() == key && !g->from_else) use = g;
    seen.insert(key);
    std::string b = TriggerValue(sf, *use);
    if (b.empty() && !use->atom.op.empty()) continue;
    std::string bform = SettingForm(use->subj, b, use->atom);
    if (bform.empty()) continue;
    before.push_back(bform);
    if (flip->subj.Key() == key) {
      std::string aform = flip->atom.op.empty() ? NegatedForm(flip->subj, flip->atom) : SettingForm(use->subj, flip_to, use->atom);
      if (!aform.empty()) after.push_back(aform);
    } else {
      after.push_back(bform);
    }
  }
  if (before.empty()) return std::nullopt;
  // Env vars go first on a command line (X=1 cmd ...); fields are Python.
  bool fields = settings[0]->subj.kind == SubjectKind::kField;
  std::string sep = fields ? ", " : " ";
  auto join = [&](const std::vector<std::string>& xs) {
    std::string o;
    for (auto& x : xs) o += (o.empty() ? "" : sep) + x;
    return o;
  };
  std::string b = join(before), a = join(after);
  if (fields) {
    const std::string& cls = settings[0]->subj.field->class_name;
    b = cls + "(" + b + ")";
    a = cls + "(" + a + ")";
  }
  if (a.empty()) a = "# (without the flag)";
  if (a == b) return std::nullopt;
  return "# before\n" + b + "\n# after\n" + a;
}

}  // namespace

bool IntLiteral(const std::string& s, long* v) {
  std::string t = Trim(s);
  if (t.empty() || t.size() > 12) return false;
  size_t i = t[0] == '-' ? 1 : 0;
  if (i >= t.size()) return false;
  for (size_t k = i; k < t.size(); ++k)
    if (!std::isdigit((unsigned char)t[k])) return false;
  *v = std::stol(t);
  return true;
}

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
    if (!s.empty() && std::find(sol.begin(), sol.end(), s) == sol.end()) sol.push_back(std::move(s));
  };
  for (const auto& [flag, vals] : h.flag_values) {
    if (vals.empty()) continue;
    std::vector<std::string> forms;
    for (auto& v : vals) forms.push_back(BT(flag + " " + v));
    add("Pass " + JoinWords(forms, "or") + " (the message's own hint).");
  }
  for (const auto& e : h.env_sets) add("Set " + BT(e) + " in the environment (the message's own hint).");
  // Every imperative sentence of the message, whole.
  for (const auto& s : h.sentences)
    if (!Covered(sol, s)) {
      std::string t = s;
      if (!t.empty() && std::islower((unsigned char)t[0])) t[0] = (char)std::toupper((unsigned char)t[0]);
      if (!t.empty() && !std::ispunct((unsigned char)t.back())) t += ".";
      add(t + " (the message's advice)");
    }
  bool ident_list = h.allowed.size() > 1 || !h.allowed_flag.empty();
  if (!h.allowed.empty() && (ident_list || h.flag_values.empty())) {
    std::string what = h.allowed_flag.empty() ? "" : BT(h.allowed_flag) + " ";
    std::string list = ident_list ? JoinSome(Ticked(h.allowed), "or", 8) : h.allowed[0];
    std::string s = "Use " + what + (h.allowed.size() > 1 ? "one of the supported values: " : "what the message says is supported: ") + list + ".";
    if (!Covered(sol, s)) add(s);
  }
  if (!h.package.empty())
    add("Install a new enough " + BT(h.package) + ": " + BT("pip install -U \"" + h.package + h.version_op + h.version + "\"") + ".");
  else if (!h.upgrade.empty())
    add("Upgrade " + BT(h.upgrade) + " as the message asks: " + BT("pip install -U " + PipName(h.upgrade)) + ".");
  if (!h.pip.empty()) add("Run " + BT("pip install " + h.pip) + " as the message says.");
  if (!h.replacement.empty()) {
    std::string s = "Use " + BT(h.replacement) + (h.replaced.empty() ? "" : " instead of " + BT(h.replaced)) + ", as the message says.";
    if (!Covered(sol, "use " + h.replacement)) add(s);
  }
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    if (f.disjunction) continue;
    if (f.subj.IsSetting()) add(FlipSetting(sf, f));
    else if (f.subj.IsCapability()) add(FlipCapability(sf, f));
    else if (!f.subj.param.empty()) add(FlipParam(sf, f));
  }
  const Site& site = *sf.site;
  if (AbstractMethod(sf))
    add("Override " + BT(sf.ctx->def_name) + " in the subclass of " + BT(sf.ctx->class_name) + " you use (or use a subclass that implements it).");
  if (sol.empty()) return std::nullopt;
  if (sol.size() > 10) sol.resize(10);
  return sol;
}

std::optional<std::string> WriteExampleFix(const SiteFacts& sf) {
  const Hints& h = sf.hints;
  if (auto s = SettingsFix(sf)) return s;
  for (const auto& f : sf.facts) {
    const Subject& s = f.subj;
    if (s.kind == SubjectKind::kMissingAttr && s.missing && !IsStdlibModule(FirstComponent(s.module))) {
      std::string pkg = FirstComponent(s.module);
      std::string ver = (!h.package.empty() && FirstComponent(h.package) == pkg) ? h.version_op + h.version : "";
      return "# before\npython -c \"import " + pkg + "; print(hasattr(" + s.module + ", '" + s.attr + "'))\"  # False\n# after\npip install -U \"" +
             PipName(pkg) + ver + "\"\npython -c \"import " + pkg + "; assert hasattr(" + s.module + ", '" + s.attr + "')\"";
    }
    if (s.kind == SubjectKind::kMissingModule && s.missing)
      return "# before\npython -c \"import " + s.module + "\"  # fails\n# after\npip install " + PipName(s.module) +
             "\npython -c \"import " + s.module + "\"";
    if (s.kind == SubjectKind::kVersion && !s.attr.empty() && !IsStdlibModule(s.module))
      return "# before\npip show " + PipName(s.module) + "  # a version outside " + s.attr + "\n# after\npip install \"" + ReqName(s.attr) + "\"";
  }
  if (auto c = CallFix(sf)) return c;
  if (!h.package.empty())
    return "# before\npip show " + h.package + "  # older than " + h.version + "\n# after\npip install -U \"" + h.package + h.version_op +
           h.version + "\"";
  if (!h.upgrade.empty()) return "# before\npip show " + PipName(h.upgrade) + "  # too old\n# after\npip install -U " + PipName(h.upgrade);
  if (!h.pip.empty()) return "# before\n# " + h.pip + " not installed\n# after\npip install " + h.pip;
  for (const auto& [flag, vals] : h.flag_values)
    if (!vals.empty()) {
      bool tested = false;
      for (const auto& f : sf.facts)
        if (f.subj.kind == SubjectKind::kFlag && f.subj.flag->Primary() == flag) tested = true;
      if (!tested) return "# before\n# launched without " + flag + "\n# after\n" + flag + " " + vals[0];
    }
  for (const auto& e : h.env_sets) return "# before\n# " + e.substr(0, e.find('=')) + " not set\n# after\nexport " + e;
  if (!h.replacement.empty() && !h.replaced.empty() && h.replaced != h.replacement)
    return "# before\n" + h.replaced + "\n# after\n" + h.replacement;
  const Site& site = *sf.site;
  if (AbstractMethod(sf)) {
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
  return std::nullopt;
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
    std::string w;
    for (auto& x : Words(s)) w += x + " ";
    sol_words.insert(w);
  }
  for (auto& t : tips) {
    std::string w;
    for (auto& x : Words(t)) w += x + " ";
    if (sol_words.count(w) || std::find(uniq.begin(), uniq.end(), t) != uniq.end()) continue;
    uniq.push_back(t);
  }
  if (uniq.empty()) return std::nullopt;
  return uniq;
}

}  // namespace errdex::doc
