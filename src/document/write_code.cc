// document/write_code.cc: validationCode (a pre-flight check over what the user
// controls), typeGuard, tryCatchPattern and tags.
#include <algorithm>
#include <cctype>
#include <set>

#include "document/text.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

std::string Ident(const std::string& expr) {
  std::string o;
  for (char c : LastComponent(Trim(expr)))
    o += (std::isalnum((unsigned char)c) || c == '_') ? (char)std::tolower((unsigned char)c) : '_';
  while (!o.empty() && o.back() == '_') o.pop_back();
  while (!o.empty() && (o[0] == '_' || std::isdigit((unsigned char)o[0]))) o.erase(o.begin());
  return o.empty() ? "value" : o.substr(0, 40);
}

// The longest literal run of the message (holes removed), cut at a word boundary.
std::string StableFragment(const Site& site) {
  if (!site.error_message || !site.message_alternatives.empty()) return "";
  const std::string msg = site.error_message->substr(0, 4096);
  std::string best;
  size_t b = 0;
  int depth = 0;
  auto consider = [&](size_t e) {
    std::string run = msg.substr(b, e - b);
    run = run.substr(0, run.find('\n'));
    // A run must start and end at word boundaries of the message itself.
    std::string t = Trim(run);
    if (t.size() > best.size()) best = t;
  };
  for (size_t i = 0; i < msg.size(); ++i) {
    if (msg[i] == '{') {
      if (depth == 0) consider(i);
      ++depth;
    } else if (msg[i] == '}' && depth > 0) {
      if (--depth == 0) b = i + 1;
    }
  }
  if (depth == 0) consider(msg.size());
  // Drop a partial word at either end (next to a hole: "{x}ed for" -> "for").
  size_t at = msg.find(best);
  if (at != std::string::npos && !best.empty()) {
    if (at > 0 && IsWordChar(msg[at - 1]) && IsWordChar(best[0])) {
      size_t sp = best.find(' ');
      best = sp == std::string::npos ? "" : Trim(best.substr(sp + 1));
      at = msg.find(best);
    }
    size_t end = at + best.size();
    if (!best.empty() && end < msg.size() && IsWordChar(msg[end]) && IsWordChar(best.back())) {
      size_t sp = best.rfind(' ');
      best = sp == std::string::npos ? "" : Trim(best.substr(0, sp));
    }
  }
  if (best.size() > 60) {
    size_t cut = best.rfind(' ', 60);
    best = (cut == std::string::npos || cut < 20) ? "" : Trim(best.substr(0, cut));
  }
  int alpha = 0;
  for (char c : best)
    if (std::isalpha((unsigned char)c)) ++alpha;
  return alpha >= 8 ? best : "";
}

std::string PreflightExpr(const Fact& f, std::set<std::string>* imports) {
  const Subject& s = f.subj;
  const Atom& a = f.atom;
  auto with_lhs = [&](const std::string& lhs) {
    if (a.op.empty()) return a.falsy ? "not " + lhs : lhs;
    return lhs + " " + a.op + " " + Clip(OneLine(a.rhs), 200);
  };
  switch (s.kind) {
    case SubjectKind::kFlag: return with_lhs("args." + s.flag->dest);
    case SubjectKind::kField: return with_lhs("config." + s.field->name);
    case SubjectKind::kParam: return with_lhs(s.param);
    case SubjectKind::kMissingAttr:
      imports->insert(FirstComponent(s.module));
      return s.missing ? "getattr(" + s.module + ", \"" + s.attr + "\", None) is None"
                       : "getattr(" + s.module + ", \"" + s.attr + "\", None) is not None";
    case SubjectKind::kMissingModule:
      imports->insert("importlib.util");
      return s.missing ? "importlib.util.find_spec(\"" + s.module + "\") is None"
                       : "importlib.util.find_spec(\"" + s.module + "\") is not None";
    case SubjectKind::kEnv: {
      imports->insert("os");
      std::string read = "os.environ.get(" + PyQuote(s.env) + ")";
      if (a.op.empty()) return a.falsy ? "not " + read : read;
      if ((a.op == "in" || a.op == "not in") && Trim(a.rhs) == "os.environ") return PyQuote(s.env) + " " + a.op + " os.environ";
      return read + " " + a.op + " " + Clip(OneLine(a.rhs), 200);
    }
    default:
      return f.code;
  }
}

// validationCode and typeGuard are Python code: right for Python and for the C/C++/CUDA
// kernels Python calls (their errors reach it as RuntimeError), wrong for a Rust, Go,
// Java or JavaScript program (`def err_is_set(value)` in a Go record).
bool PythonCodeFits(const Site& site) {
  const std::string& l = site.language;
  return l == "python" || l == "cpp" || l == "cuda" || l == "c";
}

bool IsJavaScript(const Site& site) { return site.language == "javascript" || site.language == "typescript"; }

}  // namespace

std::optional<std::string> WriteValidation(const SiteFacts& sf) {
  const Site& site = *sf.site;
  if (site.kind == SiteKind::kLog || sf.facts.empty() || !PythonCodeFits(site)) return std::nullopt;
  // Only a check the user can run before the call: every fact must be something
  // outside the code (a setting, the environment, a package, an argument).
  bool any_setting = false;
  for (const auto& f : sf.facts) {
    if (f.disjunction) return std::nullopt;
    SubjectKind k = f.subj.kind;
    if (k == SubjectKind::kCode || k == SubjectKind::kShape || k == SubjectKind::kHardware || k == SubjectKind::kVersion) return std::nullopt;
    if (k == SubjectKind::kType && f.subj.param.empty()) return std::nullopt;
    if (f.subj.IsSetting() || f.subj.IsCapability()) any_setting = true;
  }
  std::vector<std::string> conds;
  std::set<std::string> imports;
  for (const auto& f : sf.facts) {
    std::string c = f.subj.kind == SubjectKind::kType ? (f.subj.missing ? "not " : "") + std::string("isinstance(") + f.subj.param + ", " + f.subj.pred + ")"
                                                      : PreflightExpr(f, &imports);
    if (c.find(" or ") != std::string::npos || c.find(" if ") != std::string::npos) c = "(" + c + ")";
    conds.push_back(c);
  }
  std::string code = "# pre-flight check mirroring " + Clip(site.function, 120) + " (" + site.file_path + ":" + std::to_string(site.line) + ")\n";
  for (auto& i : imports) code += "import " + i + "\n";
  bool uses_args = false, uses_config = false;
  for (const auto& f : sf.facts) {
    if (f.subj.kind == SubjectKind::kFlag) uses_args = true;
    if (f.subj.kind == SubjectKind::kField) uses_config = true;
  }
  if (uses_args) code += "# args: the parsed launch arguments\n";
  if (uses_config) code += "# config: the configuration object\n";
  if (!any_setting) code += "# before calling " + CallName(sf) + "\n";
  std::string cond;
  for (auto& c : conds) cond += (cond.empty() ? "" : " and ") + c;
  if (cond.size() > 90 && conds.size() > 1) {
    cond.clear();
    for (size_t i = 0; i < conds.size(); ++i) cond += (i ? "\n    and " : "(\n    ") + conds[i];
    cond += "\n)";
  }
  std::string what = site.error_message ? Clip(*site.error_message, 300) : site.error_class.value_or("error");
  std::string plain;
  int depth = 0;
  for (char c : what) {
    if (c == '{') {
      if (depth++ == 0) plain += "...";
      continue;
    }
    if (c == '}' && depth > 0) {
      --depth;
      continue;
    }
    if (!depth) plain += c;
  }
  code += "if " + cond + ":\n    raise SystemExit(" + PyQuote(plain) + ")";
  return code;
}

std::optional<std::string> WriteTypeGuard(const SiteFacts& sf) {
  if (!PythonCodeFits(*sf.site)) return std::nullopt;
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    const Subject& s = f.subj;
    switch (s.kind) {
      case SubjectKind::kMissingAttr:
        return "def has_" + Ident(s.attr) + "() -> bool:\n    return getattr(" + s.module + ", \"" + s.attr + "\", None) is not None";
      case SubjectKind::kMissingModule:
        return "def has_" + Ident(s.module) + "() -> bool:\n    import importlib.util\n    return importlib.util.find_spec(\"" +
               s.module + "\") is not None";
      case SubjectKind::kHardware:
        return "def supports_this_path() -> bool:\n    return bool(" + s.pred + ")" + (s.missing ? "" : " is False");
      case SubjectKind::kType:
        return "def is_valid_" + Ident(s.expr) + "(value) -> bool:\n    return isinstance(value, " + s.pred + ")";
      case SubjectKind::kParam:
        if ((f.atom.op == "is" || f.atom.op == "is not") && Trim(f.atom.rhs) == "None")
          return "def " + Ident(s.param) + "_is_set(value) -> bool:\n    return value is not None";
        break;
      default:
        break;
    }
  }
  return std::nullopt;
}

std::optional<std::string> WriteTryCatch(const SiteFacts& sf) {
  const Site& site = *sf.site;
  // Python's try/except, or JavaScript's try/catch (written below).
  if (site.kind == SiteKind::kLog || site.dynamic || !(PythonCodeFits(site) || IsJavaScript(site))) return std::nullopt;
  std::string frag = StableFragment(site);
  if (frag.empty()) return std::nullopt;
  std::string cls = site.kind == SiteKind::kAssert ? "AssertionError" : site.error_class.value_or("");
  if (cls.empty() || !IsDotted(cls)) return std::nullopt;
  bool js = IsJavaScript(site);
  if (site.kind == SiteKind::kHttp || site.kind == SiteKind::kHttpResponse) {
    std::string st = site.http_status ? std::to_string(*site.http_status) : "";
    if (js)
      return "// client side: the server answers with HTTP " + (st.empty() ? std::string("an error status") : st) +
             "\nconst resp = await fetch(url, { method: \"POST\", body: JSON.stringify(payload) });\nif (" +
             (st.empty() ? std::string("!resp.ok") : "resp.status === " + st) + " && (await resp.text()).includes(" + PyQuote(frag) +
             ")) {\n  // handle this error\n}";
    return "# client side: the server answers with HTTP " + (st.empty() ? std::string("an error status") : st) +
           "\nresp = requests.post(url, json=payload)\nif " + (st.empty() ? std::string("resp.status_code >= 400") : "resp.status_code == " + st) +
           " and " + PyQuote(frag) + " in resp.text:\n    ...  # handle this error";
  }
  if (js)
    return "try {\n  // the call that reaches " + Clip(site.function, 120) + "\n} catch (e) {\n  if (!(e instanceof " + cls +
           ") || !String(e.message).includes(" + PyQuote(frag) + ")) throw e;\n  // handle this error\n}";
  return "try:\n    ...  # the call that reaches " + Clip(site.function, 120) + "\nexcept " + cls + " as e:\n    if " + PyQuote(frag) +
         " not in str(e):\n        raise\n    ...  # handle this error";
}

std::vector<std::string> WriteTags(const SiteFacts& sf) {
  const Site& site = *sf.site;
  std::vector<std::string> tags;
  auto add = [&](std::string t) {
    t = Kebab(t);
    if (t.size() < 2 || t.size() > 40) return;
    if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
  };
  static const std::set<std::string> skip = {"python", "src", "lib", "libs", "srt", "init", "main", "py", "pkg", "js", "ts",
                                             "source", "sources", "code", "core", "common", "utils", "util", "index"};
  const std::string& path = site.file_path;
  // The tags of the path are a function of the path alone, and the sites of one file
  // are documented one after another: the last path's are kept per thread.
  thread_local std::string last_path;
  thread_local std::vector<std::string> last_path_tags;
  if (!last_path_tags.empty() && path == last_path) {
    tags = last_path_tags;
  } else {
    size_t b = 0;
    for (int n = 0; b < path.size() && n < 32; ++n) {
      size_t e = path.find('/', b);
      if (e == std::string::npos) e = path.size();
      std::string comp = path.substr(b, e - b);
      if (e == path.size()) {
        size_t dot = comp.rfind('.');
        if (dot != std::string::npos) comp = comp.substr(0, dot);
      }
      std::string k = Kebab(comp);
      if (!skip.count(k) && !k.empty() && k[0] != '-') add(k);
      b = e + 1;
    }
    last_path = path;
    last_path_tags = tags;
  }
  for (const auto& f : sf.facts) {
    const Subject& s = f.subj;
    if (s.kind == SubjectKind::kFlag) add(s.flag->dest);
    else if (s.kind == SubjectKind::kField) add(s.field->name);
    else if (s.kind == SubjectKind::kEnv) add(s.env);
    else if (s.kind == SubjectKind::kMissingAttr) add(FirstComponent(s.module)), add(s.attr);
    else if (s.kind == SubjectKind::kMissingModule) add(s.module);
    else if (s.kind == SubjectKind::kHardware) add("hardware");
  }
  if (site.error_class) add(*site.error_class);
  if (tags.size() > 12) tags.resize(12);
  return tags;
}

}  // namespace errdex::doc
