// document/documenter.cc: fills a Record's prose fields from the facts of its
// Site, the file's text and the repository's knowledge (documenter.h). Every
// sentence is built from something found in the code: a guard, an assignment, an
// argparse definition, a sibling branch, the message itself. Nothing is invented;
// a field with no supporting fact stays null. Tested by documenter_test.cc.
#include "document/documenter.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "document/guards.h"
#include "document/knowledge.h"
#include "document/py_lex.h"
#include "document/taxonomy.h"

namespace errdex {
namespace doc {
namespace {

// ---------------------------------------------------------------- text helpers

std::string BT(std::string_view s) { return "`" + std::string(s) + "`"; }

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// Collapses runs of whitespace (multi-line guards) into one space.
std::string OneLine(std::string_view s) {
  std::string o;
  bool sp = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') { sp = true; continue; }
    if (sp && !o.empty() && o.back() != '(' && o.back() != '[' && c != ')' && c != ']') o += ' ';
    sp = false;
    o += c;
  }
  return o;
}

// "a", "a or b", "a, b or c" (each item as given).
std::string JoinWords(const std::vector<std::string>& xs, std::string_view last = "or") {
  std::string o;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i) o += (i + 1 == xs.size()) ? " " + std::string(last) + " " : ", ";
    o += xs[i];
  }
  return o;
}
std::vector<std::string> Ticked(const std::vector<std::string>& xs) {
  std::vector<std::string> o;
  for (auto& x : xs) o.push_back(BT(x));
  return o;
}

std::string Kebab(std::string_view s) {
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (std::isupper((unsigned char)c)) {
      if (i && std::islower((unsigned char)s[i - 1]) && !o.empty() && o.back() != '-') o += '-';
      o += (char)std::tolower((unsigned char)c);
    } else if (std::isalnum((unsigned char)c)) {
      o += c;
    } else if (!o.empty() && o.back() != '-') {
      o += '-';
    }
  }
  while (!o.empty() && o.back() == '-') o.pop_back();
  while (!o.empty() && o.front() == '-') o.erase(o.begin());
  return o;
}

bool IsIdent(std::string_view s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_')) return false;
  return true;
}
bool IsDotted(std::string_view s) {
  if (s.empty()) return false;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    if (!IsIdent(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}
// Prefilters for regexes: each names a literal every match must contain, so a
// regex runs only when it can match (the regex stays the source of truth).
bool Has(std::string_view s, std::string_view lit) { return s.find(lit) != std::string_view::npos; }
bool Starts(std::string_view s, std::string_view lit) { return s.substr(0, lit.size()) == lit; }
bool Ends(std::string_view s, std::string_view lit) {
  return s.size() >= lit.size() && s.substr(s.size() - lit.size()) == lit;
}
std::string Lower(std::string_view s) {
  std::string o(s);
  for (char& c : o) c = (char)std::tolower((unsigned char)c);
  return o;
}

std::string LastComponent(std::string_view s) {
  size_t dot = s.rfind('.');
  return std::string(dot == std::string_view::npos ? s : s.substr(dot + 1));
}

// ---------------------------------------------------------------- the file

struct Lines {
  std::vector<std::string_view> v;  // v[0] is line 1
  std::vector<size_t> offset;
  std::vector<int> indent;          // Indent(v[i])
  std::vector<char> blank;          // Blank(v[i])
  explicit Lines(std::string_view text) {
    size_t b = 0;
    while (b <= text.size()) {
      size_t e = text.find('\n', b);
      if (e == std::string_view::npos) e = text.size();
      offset.push_back(b);
      v.push_back(text.substr(b, e - b));
      if (e == text.size()) break;
      b = e + 1;
    }
    indent.reserve(v.size());
    blank.reserve(v.size());
    for (std::string_view l : v) {
      indent.push_back(Indent(l));
      size_t f = l.find_first_not_of(" \t\r\n");
      blank.push_back(f == std::string_view::npos || l[f] == '#');
    }
  }
  std::string_view At(int line) const { return line >= 1 && line <= (int)v.size() ? v[line - 1] : std::string_view(); }
  // Indent(At(line)) and Blank(At(line)), precomputed.
  int IndentAt(int line) const { return line >= 1 && line <= (int)v.size() ? indent[line - 1] : 0; }
  bool BlankAt(int line) const { return line >= 1 && line <= (int)v.size() ? blank[line - 1] != 0 : true; }
  static int Indent(std::string_view l) {
    int n = 0;
    for (char c : l) {
      if (c == ' ') ++n;
      else if (c == '\t') n += 8;
      else break;
    }
    return n;
  }
  static bool Blank(std::string_view l) {
    std::string t = Trim(l);
    return t.empty() || t[0] == '#';
  }
};

// The line of `def <name>` enclosing `line`, or 0 (module level / not found).
int EnclosingDef(const Lines& L, int line, std::string_view name = {}) {
  int ind = L.IndentAt(line);
  for (int l = line - 1; l >= 1; --l) {
    if (L.BlankAt(l)) continue;
    std::string_view s = L.At(l);
    int i = L.IndentAt(l);
    if (i >= ind) continue;
    ind = i;
    std::string t = Trim(s);
    if (t.rfind("async def ", 0) == 0) t = t.substr(6);
    if (t.rfind("def ", 0) == 0) {
      if (name.empty() || t.compare(4, name.size(), name) == 0) return l;
    }
    if (t.rfind("class ", 0) == 0 || i == 0) return 0;
  }
  return 0;
}

// The right-hand side of the last `name = ...` in [from, to) lines that is on the
// path to line `to` (no line in between closes its block: an assignment inside a
// sibling branch does not count), or at column 0 (module scope) when `col0`.
std::optional<std::string> FindAssignment(std::string_view text, const Lines& L, std::string_view name, int from, int to,
                                          bool col0) {
  int min_ind = 1 << 30;
  if (!col0 && to >= 1 && to <= (int)L.v.size()) min_ind = L.IndentAt(to);
  for (int l = std::min(to - 1, (int)L.v.size()); l >= std::max(from, 1); --l) {
    if (L.BlankAt(l)) continue;
    std::string_view s = L.At(l);
    int ind = L.IndentAt(l);
    bool visible = col0 ? ind == 0 : ind <= min_ind;
    min_ind = std::min(min_ind, ind);
    if (!visible) continue;
    std::string_view t = s.substr(std::min<size_t>(s.size(), (size_t)ind));
    if (t.substr(0, name.size()) != name) continue;
    size_t p = name.size();
    if (p < t.size() && (std::isalnum((unsigned char)t[p]) || t[p] == '_' || t[p] == '.')) continue;
    while (p < t.size() && t[p] == ' ') ++p;
    if (p < t.size() && t[p] == ':') {  // annotation
      size_t eq = t.find('=', p);
      if (eq == std::string_view::npos) continue;
      p = eq;
    }
    if (p >= t.size() || t[p] != '=' || (p + 1 < t.size() && t[p + 1] == '=')) continue;
    size_t start = L.offset[l - 1] + ind + p + 1;
    // Only the first logical line of the right-hand side matters.
    static thread_local std::vector<PyTok> toks;
    LexPythonInto(text.substr(start, std::min<size_t>(text.size() - start, 4000)), &toks, /*first_line_only=*/true);
    size_t e = 0;
    while (e < toks.size() && toks[e].kind != PyTok::kNewline && toks[e].kind != PyTok::kEnd) ++e;
    std::string rhs(SpanText(text.substr(start), toks, 0, e));
    if (!rhs.empty()) return Trim(rhs);
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- subjects

enum class SubjectKind { kCode, kFlag, kField, kEnv, kMissingAttr, kMissingModule, kHardware, kVersion, kType, kShape };

struct Subject {
  SubjectKind kind = SubjectKind::kCode;
  const FlagInfo* flag = nullptr;
  const FieldInfo* field = nullptr;
  std::string env;            // kEnv: the variable
  std::string module, attr;   // kMissingAttr / kMissingModule
  std::string pred;           // kHardware: predicate call; kType: the type; kVersion: the text
  std::string expr;           // the tested expression after substitution
  std::string via;            // the local variable that was substituted
  bool missing = false;       // capability kinds: the atom says the capability is absent
  std::string Key() const {
    switch (kind) {
      case SubjectKind::kFlag: return "flag:" + flag->dest;
      case SubjectKind::kField: return "field:" + field->name;
      case SubjectKind::kEnv: return "env:" + env;
      default: return "expr:" + expr;
    }
  }
  bool IsSetting() const { return kind == SubjectKind::kFlag || kind == SubjectKind::kField || kind == SubjectKind::kEnv; }
  std::string SettingName() const {
    if (kind == SubjectKind::kFlag) return flag->dest;
    if (kind == SubjectKind::kField) return field->name;
    return LastComponent(expr);
  }
};

struct Fact {
  Atom atom;
  Subject subj;
  int guard = 0;
  bool from_else = false;
  std::string negated_test;
  bool implied = false;      // an else-clause made redundant by a positive test of the same subject
  bool disjunction = false;  // the clause had several atoms: described by its code only
  std::string code;          // code form (disjunctions: "a or b")
  std::vector<Atom> any_of;  // disjunction: its atoms
};

const std::regex& Re(const char* pattern) {
  // One compiled regex per call site pattern (the patterns are string literals).
  static thread_local std::map<const char*, std::regex> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) it = cache.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
  return it->second;
}

bool IsHardwareWord(std::string_view s) {
  static const std::regex re(
      "(sm_?\\d+|cuda|hip|rocm|npu|xpu|gfx\\w*|gpu|mps|tpu|hpu|musa|hopper|blackwell|ampere|ada|cpu|arch|device|"
      "capability|nvidia|amd|intel|ascend|fp8_supported|cc\\d+)",
      std::regex::icase);
  return std::regex_search(s.begin(), s.end(), re);
}

// What the sites of one file share: the line index and answers that depend only
// on the file's text. DocumentRecord is called once per site; the scan calls it
// for all sites of a file in a row on one thread, so one entry per thread is
// enough. The entry keeps a copy of the text and is reused only when the next
// text is byte-for-byte the same (a memcmp: far cheaper than the index).
struct FileCache {
  std::string text;
  std::optional<Lines> lines;
  std::map<std::string, std::vector<std::string>> callers;  // function name -> Callers()
  std::map<std::string, bool> module_imported;              // IsModuleName's import test, by name
  std::map<std::string, bool> package_imported;             // IsPackage's import test, by name

  static FileCache& For(std::string_view text) {
    static thread_local FileCache c;
    if (!c.lines || c.text.size() != text.size() || std::memcmp(c.text.data(), text.data(), text.size()) != 0) {
      c.lines.reset();
      c.callers.clear();
      c.module_imported.clear();
      c.package_imported.clear();
      c.text.assign(text.data(), text.size());
      c.lines.emplace(c.text);
    }
    return c;
  }
};

class Analyzer {
 public:
  Analyzer(const Site& site, std::string_view text, const KnowledgeIndex* k)
      : site_(site), text_(text), cache_(FileCache::For(text)), L_(*cache_.lines), k_(k) {
    func_name_ = LastComponent(site.function);
    def_line_ = site.function == "<module>" ? 0 : EnclosingDef(L_, site.line, func_name_);
    window_mode_ = !text.empty() && text[0] == '\n';  // a stored window padded to its real lines
  }

  std::optional<std::string> Assigned(std::string_view name) const {
    if (def_line_ > 0) {
      if (auto r = FindAssignment(text_, L_, name, def_line_ + 1, site_.line, false)) return r;
      // A parameter shadows module-level names: stop here when `name` is one.
      std::string_view def = L_.At(def_line_);
      static const std::regex word_re("[A-Za-z_]\\w*");
      std::string sig(def);
      for (int l = def_line_ + 1; l < site_.line && sig.find(':') == std::string::npos; ++l) sig += L_.At(l);
      size_t paren = sig.find('(');
      if (paren != std::string::npos) {
        std::string params = sig.substr(paren);
        for (auto it = std::sregex_iterator(params.begin(), params.end(), word_re); it != std::sregex_iterator(); ++it)
          if (it->str() == name) return std::nullopt;
      }
    }
    if (auto r = FindAssignment(text_, L_, name, 1, (int)L_.v.size() + 1, true)) return r;
    // Outside the text we have (a stored window): the aliases the scan recorded.
    if (k_)
      if (const AliasInfo* a = k_->FindAlias(site_.file_path, name, site_.line)) return a->rhs;
    return std::nullopt;
  }

  Subject Resolve(const Atom& a) const {
    Subject s;
    std::string expr = Trim(a.lhs);
    // "X" in os.environ
    if ((a.op == "in" || a.op == "not in") && Trim(a.rhs) == "os.environ" &&
        a.lhs.size() > 2 && (a.lhs[0] == '"' || a.lhs[0] == '\'')) {
      s.kind = SubjectKind::kEnv;
      s.env = Trim(a.lhs).substr(1, Trim(a.lhs).size() - 2);
      s.expr = expr;
      return s;
    }
    for (int depth = 0; depth < 2 && IsIdent(expr); ++depth) {
      if (k_ && k_->FindFlag(expr) && depth == 0 && false) break;
      auto r = Assigned(expr);
      if (!r || r->empty() || r->size() > 200) break;
      // A literal (None, True, 0, "x") assigned earlier says nothing about the value at the test.
      static const std::regex literal_re("None|True|False|-?[0-9][0-9.]*|[rbuf]*(\"[^\"]*\"|'[^']*')|\\[\\]|\\{\\}|\\(\\)");
      if (std::regex_match(*r, literal_re)) break;
      if (s.via.empty()) s.via = expr;
      expr = *r;
    }
    s.expr = expr;
    std::smatch m;
    const std::string& x = expr;
    auto none_test = [&](bool* missing) {
      if (a.op == "is" && Trim(a.rhs) == "None") { *missing = true; return true; }
      if (a.op == "is not" && Trim(a.rhs) == "None") { *missing = false; return true; }
      if (a.op.empty()) { *missing = a.falsy; return true; }
      return false;
    };
    // Environment variables.
    if ((Has(x, "os.environ[") && std::regex_search(x, m, Re("os\\.environ\\[\\s*[\"'](\\w+)[\"']\\s*\\]"))) ||
        ((Has(x, "os.environ.get(") || Has(x, "os.getenv(")) &&
         std::regex_search(x, m, Re("os\\.(?:environ\\.get|getenv)\\(\\s*[\"'](\\w+)[\"']"))) ||
        (Starts(x, "get_") && std::regex_search(x, m, Re("^get_\\w*env\\w*\\(\\s*[\"'](\\w+)[\"']"))) ||
        (Starts(x, "envs.") && std::regex_search(x, m, Re("^envs\\.([A-Z][A-Z0-9_]+)\\b")))) {
      s.kind = SubjectKind::kEnv;
      s.env = m[1];
      return s;
    }
    if (Starts(x, "getattr(") && std::regex_match(x, m, Re("getattr\\(\\s*([\\w.]+)\\s*,\\s*[\"'](\\w+)[\"']\\s*,\\s*None\\s*\\)")) &&
        none_test(&s.missing)) {
      if (IsModuleName(m[1].str())) {
        s.kind = SubjectKind::kMissingAttr;
        s.module = m[1];
        s.attr = m[2];
        return s;
      }
    }
    if (Starts(x, "hasattr(") && std::regex_match(x, m, Re("hasattr\\(\\s*([\\w.]+)\\s*,\\s*[\"'](\\w+)[\"']\\s*\\)")) && a.op.empty() &&
        IsModuleName(m[1].str())) {
      s.kind = SubjectKind::kMissingAttr;
      s.module = m[1];
      s.attr = m[2];
      s.missing = a.falsy;
      return s;
    }
    if (Has(x, "find_spec(") && std::regex_search(x, m, Re("find_spec\\(\\s*[\"']([\\w.]+)[\"']")) && none_test(&s.missing)) {
      s.kind = SubjectKind::kMissingModule;
      s.module = m[1];
      return s;
    }
    if ((Has(x, "torch.cuda.is_available()") && std::regex_search(x, m, Re("torch\\.cuda\\.is_available\\(\\)"))) ||
        (Has(x, "get_device_") && std::regex_search(x, m, Re("torch\\.cuda\\.get_device_capability|get_device_capability|get_device_sm")))) {
      s.kind = SubjectKind::kHardware;
      s.pred = OneLine(x);
      s.missing = a.op.empty() ? a.falsy : true;
      return s;
    }
    if (Ends(x, "_available()") && std::regex_match(x, m, Re("(?:[\\w.]*\\.)?is_(\\w+?)_available\\(\\)")) && a.op.empty()) {
      std::string what = m[1];
      if (IsHardwareWord(what)) {
        s.kind = SubjectKind::kHardware;
        s.pred = x;
      } else {
        s.kind = SubjectKind::kMissingModule;
        s.module = what;
        s.pred = x;
      }
      s.missing = a.falsy;
      return s;
    }
    if (Ends(x, "()") && std::regex_match(x, m, Re("(?:[\\w.]*\\.)?(_?(?:is|has|supports?)_\\w+)\\(\\)")) && a.op.empty() &&
        IsHardwareWord(m[1].str())) {
      s.kind = SubjectKind::kHardware;
      s.pred = x;
      s.missing = a.falsy;
      return s;
    }
    static const std::regex version_re("__version__|version_info|\\bversion\\(|Version\\(|parse_version|version\\.parse");
    if ((Has(x, "ersion") && std::regex_search(x, version_re)) || (Has(a.rhs, "ersion") && std::regex_search(a.rhs, version_re))) {
      s.kind = SubjectKind::kVersion;
      s.pred = OneLine(a.Code());
      s.missing = true;
      std::string code = a.Code();
      if (std::regex_search(code, m, Re("(\\w+)\\.__version__"))) s.module = m[1];
      return s;
    }
    if (Starts(x, "isinstance(") && std::regex_match(x, m, Re("isinstance\\(\\s*([^,]+?)\\s*,\\s*([\\s\\S]+)\\)")) && a.op.empty()) {
      s.kind = SubjectKind::kType;
      s.expr = m[1];
      s.pred = OneLine(m[2].str());
      s.missing = a.falsy;
      return s;
    }
    auto shapey = [](std::string_view t) {
      return Has(t, ".shape") || Has(t, ".ndim") || Has(t, ".dim()") || Has(t, ".size(");
    };
    if (((Has(x, "len(") || shapey(x)) && std::regex_search(x, Re("\\blen\\(|\\.shape\\b|\\.ndim\\b|\\.dim\\(\\)|\\.size\\("))) ||
        (shapey(a.rhs) && std::regex_search(a.rhs, Re("\\.shape\\b|\\.ndim\\b|\\.dim\\(\\)|\\.size\\(")))) {
      s.kind = SubjectKind::kShape;
      return s;
    }
    if (k_ && IsDotted(x) && x.find('.') != std::string::npos && ConfigHolder(x)) {
      std::string last = LastComponent(x);
      bool dotted = true;
      if (const FlagInfo* f = k_->FindFlag(last); f) {
        s.kind = SubjectKind::kFlag;
        s.flag = f;
        return s;
      }
      if (const FieldInfo* f = k_->FindField(last); f && dotted) {
        s.kind = SubjectKind::kField;
        s.field = f;
        return s;
      }
    }
    return s;
  }

  // `base.attr` reads a configuration object: the base names one (args, cfg,
  // config, options, settings, view, params, flags, ...), or is `self` inside an
  // argument/config class.
  bool ConfigHolder(const std::string& x) const {
    std::string base = x.substr(0, x.rfind('.'));
    static const std::regex holder_re("(^|[._])(args?|cfg|configs?|conf|opts?|options|settings|view|params|flags|ns|namespace)\\b",
                                      std::regex::icase);
    if (std::regex_search(base, holder_re)) return true;
    if (base == "self") {
      std::string cls = site_.function.substr(0, site_.function.find('.'));
      static const std::regex cls_re("(Args|Arguments|Config|Options|Settings|Params)$");
      return std::regex_search(cls, cls_re);
    }
    return false;
  }

  // `name` is an imported module (not a parameter or local of the function).
  bool IsModuleName(const std::string& dotted) const {
    std::string first = dotted.substr(0, dotted.find('.'));
    if (first == "self" || first == "cls") return false;
    auto known = cache_.module_imported.find(first);
    if (known == cache_.module_imported.end()) {
      std::regex imp("(^|\\n)\\s*(import\\s+[\\w., ]*\\b" + first + "\\b|from\\s+\\S+\\s+import\\s+[\\w., (]*\\b" + first + "\\b)");
      known = cache_.module_imported.emplace(first, std::regex_search(text_.begin(), text_.end(), imp)).first;
    }
    if (known->second) return true;
    if (def_line_ > 0) {
      // A parameter or a local is an object, not a module.
      std::string sig;
      for (int l = def_line_; l < site_.line && sig.find(':') == std::string::npos; ++l) sig += L_.At(l);
      if (std::regex_search(sig, std::regex("\\b" + first + "\\b"))) return false;
      if (FindAssignment(text_, L_, first, def_line_ + 1, site_.line, false)) return false;
      return window_mode_;  // full file without the import: an object from elsewhere; a window: unknown

    }
    return !FindAssignment(text_, L_, first, 1, site_.line, false);  // window only: no local seen
  }

  void Gather() {
    std::vector<Clause> clauses;
    for (size_t i = 0; i < site_.guards.size(); ++i) ParseGuard(site_.guards[i], (int)i, &clauses);
    for (auto& c : clauses) {
      Fact f;
      f.guard = c.guard;
      f.from_else = c.from_else;
      f.negated_test = c.negated_test;
      if (c.any_of.size() == 1) {
        f.atom = c.any_of[0];
        f.subj = Resolve(f.atom);
        f.code = OneLine(f.atom.Code());
      } else {
        f.disjunction = true;
        f.any_of = c.any_of;
        std::vector<std::string> parts;
        for (auto& a : c.any_of) parts.push_back(OneLine(a.Code()));
        f.code = JoinWords(parts, "or");
        for (size_t i = 1; i < parts.size(); ++i) {}
        f.code.clear();
        for (size_t i = 0; i < parts.size(); ++i) f.code += (i ? " or " : "") + parts[i];
        f.atom.lhs = "(" + f.code + ")";
      }
      facts_.push_back(std::move(f));
    }
    // The same test twice (nested ifs) is one fact.
    {
      std::vector<Fact> uniq;
      std::set<std::string> seen;
      for (auto& f : facts_)
        if (seen.insert(f.code + "|" + f.subj.via + "|" + (f.from_else ? "e" : "")).second) uniq.push_back(std::move(f));
      facts_ = std::move(uniq);
    }
    // An else-clause is implied when a later positive test pins the same subject.
    for (auto& f : facts_) {
      if (!f.from_else || f.disjunction) continue;
      for (auto& g : facts_)
        if (&g != &f && !g.from_else && !g.disjunction && g.subj.Key() == f.subj.Key() &&
            (g.atom.op == "==" || g.atom.op == "is") && (f.atom.op == "!=" || f.atom.op == "not in" || f.atom.op == "is not"))
          f.implied = true;
    }
  }

  // ---------------------------------------------------------------- phrases

  std::string FlagValue(const Subject& s, const std::string& v) const {
    if (s.kind == SubjectKind::kFlag) return s.flag->Primary() + " " + v;
    if (s.kind == SubjectKind::kField) return s.field->name + "=" + PyQuote(v);
    if (s.kind == SubjectKind::kEnv) return s.env + "=" + v;
    return s.expr + " == " + PyQuote(v);
  }
  std::string SettingRef(const Subject& s) const {
    if (s.kind == SubjectKind::kFlag) return BT(s.flag->Primary());
    if (s.kind == SubjectKind::kField) return BT(s.field->class_name + "." + s.field->name);
    if (s.kind == SubjectKind::kEnv) return "environment variable " + BT(s.env);
    return BT(OneLine(s.expr));
  }
  bool IsBoolFlag(const Subject& s) const {
    return s.kind == SubjectKind::kFlag && (s.flag->action == "store_true" || s.flag->action == "store_false");
  }

  // The fact in the user's terms ("`--deepep-mode normal`").
  std::string UserTerm(const Fact& f) const {
    const Subject& s = f.subj;
    const Atom& a = f.atom;
    if (f.disjunction) return BT(f.code);
    std::vector<std::string> vals = a.values;
    switch (s.kind) {
      case SubjectKind::kFlag:
      case SubjectKind::kField:
      case SubjectKind::kEnv: {
        if (a.op.empty()) {
          if (s.kind == SubjectKind::kEnv)
            return a.falsy ? BT(s.env) + " unset or false" : BT(s.env + "=1") + " (any true value)";
          if (IsBoolFlag(s)) return (a.falsy != (s.flag->action == "store_false")) ? "without " + SettingRef(s) : SettingRef(s);
          return a.falsy ? SettingRef(s) + " unset or empty" : SettingRef(s) + " set";
        }
        if ((a.op == "==" || a.op == "is") && a.rhs_strings && vals.size() == 1) return BT(FlagValue(s, vals[0]));
        if (a.op == "!=" && a.rhs_strings && vals.size() == 1) return SettingRef(s) + " set to something other than " + BT(vals[0]);
        if (a.op == "in" && a.rhs_strings) return SettingRef(s) + " set to " + JoinWords(Ticked(vals), "or");
        if (a.op == "not in" && a.rhs_strings)
          return SettingRef(s) + " set to a value other than " + JoinWords(Ticked(vals), "or");
        if (a.op == "is" && Trim(a.rhs) == "None") return SettingRef(s) + " not given";
        if (a.op == "is not" && Trim(a.rhs) == "None") return SettingRef(s) + " given";
        return SettingRef(s) + " " + a.op + " " + BT(OneLine(a.rhs));
      }
      case SubjectKind::kMissingAttr:
        return s.missing ? "the installed " + BT(s.module) + " has no attribute " + BT(s.attr)
                         : "the installed " + BT(s.module) + " has the attribute " + BT(s.attr);
      case SubjectKind::kMissingModule:
        return s.missing ? "the package " + BT(s.module) + " is not installed (" + BT(f.code) + ")"
                         : "the package " + BT(s.module) + " is installed";
      case SubjectKind::kHardware:
        return s.missing ? BT(s.pred) + " is False on this hardware/platform"
                         : BT(s.pred) + " is True on this hardware/platform";
      case SubjectKind::kVersion:
        return "an installed version for which " + BT(s.pred) + " holds";
      case SubjectKind::kType:
        return s.missing ? BT(OneLine(s.expr)) + " not an instance of " + BT(s.pred)
                         : BT(OneLine(s.expr)) + " an instance of " + BT(s.pred);
      default:
        return BT(f.code);
    }
  }

  // The fact in code terms, with the substituted local shown.
  std::string CodeTerm(const Fact& f) const {
    std::string c = BT(f.code);
    if (!f.subj.via.empty()) c += " (" + BT(f.subj.via) + " = " + BT(OneLine(f.subj.expr)) + ")";
    return c;
  }

  std::vector<const Fact*> Active() const {
    std::vector<const Fact*> v;
    for (auto& f : facts_)
      if (!f.implied) v.push_back(&f);
    return v;
  }

  // ---------------------------------------------------------------- siblings

  struct Sibling {
    int line = 0;
    std::string test;                                        // its condition (one line)
    std::vector<std::pair<std::string, std::string>> sets;   // (name, literal) assignments in its body
    bool warns = false, returns = false;
    std::string raises;
  };

  std::optional<Sibling> FindSibling(const std::string& test) const {
    // The nearest `if T:` / `elif T:` above the site whose test text is exactly T.
    size_t site_off = site_.line >= 1 && site_.line <= (int)L_.v.size() ? L_.offset[site_.line - 1] : text_.size();
    size_t lo = def_line_ > 0 ? L_.offset[def_line_ - 1] : 0;
    size_t pos = text_.rfind(test, site_off);
    while (pos != std::string_view::npos && pos >= lo) {
      size_t ls = text_.rfind('\n', pos == 0 ? 0 : pos - 1);
      ls = (ls == std::string_view::npos || pos == 0) ? 0 : ls + 1;
      std::string prefix = Trim(text_.substr(ls, pos - ls));
      if (prefix == "if" || prefix == "elif" || prefix == "while") {
        Sibling sib;
        sib.line = (int)(std::upper_bound(L_.offset.begin(), L_.offset.end(), pos) - L_.offset.begin());
        sib.test = OneLine(test);
        int ind = L_.IndentAt(sib.line);
        size_t end_test = pos + test.size();
        int header_end = (int)(std::upper_bound(L_.offset.begin(), L_.offset.end(), end_test) - L_.offset.begin());
        int body_end = header_end + 1;
        while (body_end <= (int)L_.v.size() && body_end < site_.line &&
               (L_.BlankAt(body_end) || L_.IndentAt(body_end) > ind))
          ++body_end;
        if (body_end <= header_end + 1) return std::nullopt;
        size_t bb = L_.offset[header_end], be = body_end - 1 < (int)L_.offset.size() ? L_.offset[body_end - 1] : text_.size();
        std::string_view body = text_.substr(bb, be - bb);
        auto t = LexPython(body);
        for (size_t i = 0; i + 2 < t.size(); ++i) {
          if (t[i].kind == PyTok::kName && t[i + 1].kind == PyTok::kOp && t[i + 1].text == "=" &&
              t[i + 2].kind == PyTok::kString && !t[i + 2].fstring)
            sib.sets.emplace_back(std::string(t[i].text), t[i + 2].value);
          if (t[i].kind == PyTok::kName && (t[i].text == "warning" || t[i].text == "warn") && i > 0 &&
              t[i - 1].text == "." && t[i + 1].text == "(")
            sib.warns = true;
          if (t[i].kind == PyTok::kName && t[i].text == "return" && t[i].line == t[i].line) sib.returns = true;
          if (t[i].kind == PyTok::kName && t[i].text == "raise" && t[i + 1].kind == PyTok::kName && sib.raises.empty()) {
            size_t j = i + 1;
            sib.raises = std::string(t[j].text);
            while (j + 2 < t.size() && t[j + 1].text == "." && t[j + 2].kind == PyTok::kName) {
              sib.raises += "." + std::string(t[j + 2].text);
              j += 2;
            }
          }
        }
        return sib;
      }
      if (pos == 0) break;
      pos = text_.rfind(test, pos - 1);
    }
    return std::nullopt;
  }

  // "takes `--deepep-mode auto` instead: it sets deepep_mode to `low_latency` and logs a warning"
  std::string SiblingSentence(const Fact& f, const Sibling& sib, std::string* rewritten_from, std::string* rewritten_to) const {
    std::vector<std::string> does;
    std::string name = f.subj.kind == SubjectKind::kCode ? LastComponent(f.subj.via.empty() ? f.atom.lhs : f.subj.via)
                                                         : f.subj.SettingName();
    for (auto& [n, v] : sib.sets) {
      if (n == name || n == f.subj.via || n == LastComponent(f.subj.expr)) {
        does.push_back("sets " + n + " to " + BT(v));
        if (rewritten_to->empty()) *rewritten_to = v;
      }
    }
    if (does.empty())
      for (size_t i = 0; i < sib.sets.size() && i < 2; ++i) does.push_back("sets " + sib.sets[i].first + " to " + BT(sib.sets[i].second));
    if (sib.warns) does.push_back("logs a warning");
    if (!sib.raises.empty()) does.push_back("raises " + sib.raises + " instead");
    if (sib.returns && sib.raises.empty()) does.push_back("returns early");
    std::string who;
    Fact pos = Positive(f);
    if (pos.atom.op == "==" && f.atom.rhs_strings && f.atom.values.size() == 1) *rewritten_from = f.atom.values[0];
    who = f.subj.IsSetting() && !f.disjunction ? UserTerm(pos) : BT(sib.test);
    std::string s = "The earlier branch " + BT((sib.line ? "if " : "") + sib.test + ":") + " (line " + std::to_string(sib.line) +
                    ") handles " + who + " first";
    if (!does.empty()) s += ": it " + JoinWords(does, "and");
    return s;
  }

  // ---------------------------------------------------------------- callers

  std::vector<std::string> Callers() const {
    // Depends only on the file and the function's name.
    auto it = cache_.callers.find(func_name_);
    if (it == cache_.callers.end()) it = cache_.callers.emplace(func_name_, CallersUncached()).first;
    return it->second;
  }
  std::vector<std::string> CallersUncached() const {
    std::vector<std::string> out;
    if (site_.function == "<module>" || func_name_.empty() || func_name_[0] == '<') return out;
    std::string needle = func_name_ + "(";
    for (size_t pos = text_.find(needle); pos != std::string_view::npos && out.size() < 4; pos = text_.find(needle, pos + 1)) {
      if (pos > 0 && (std::isalnum((unsigned char)text_[pos - 1]) || text_[pos - 1] == '_')) continue;
      if (pos >= 4 && text_.substr(pos - 4, 4) == "def ") continue;
      int line = (int)(std::upper_bound(L_.offset.begin(), L_.offset.end(), pos) - L_.offset.begin());
      int d = EnclosingDef(L_, line);
      std::string name = "<module>";
      if (d > 0) {
        std::string t = Trim(L_.At(d));
        if (t.rfind("async ", 0) == 0) t = t.substr(6);
        size_t b = 4, e = t.find('(');
        name = t.substr(b, e == std::string::npos ? std::string::npos : e - b);
      }
      if (name == func_name_) continue;
      std::string item = BT(name) + " (line " + std::to_string(line) + ")";
      if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    }
    return out;
  }

  // ---------------------------------------------------------------- message hints

  struct Hints {
    std::vector<std::string> sentences;                        // imperative sentences of the message
    std::map<std::string, std::vector<std::string>> flag_values;  // --flag -> values the message suggests
    std::vector<std::string> allowed;                          // "supports only A, B or C"
    std::string allowed_flag;                                  // the flag the allowed list belongs to
    std::string package, version_op, version;                  // "requires torch>=2.8"
    std::string upgrade;                                       // "Please upgrade X"
    std::string pip;                                           // "pip install X"
  };

  static std::vector<std::string> SplitValues(std::string s) {
    std::vector<std::string> out;
    static const std::regex sep_re("\\s*(,\\s*or|,\\s*and|,|\\bor\\b|\\band\\b|/)\\s*");
    s = std::regex_replace(s, sep_re, "|");
    size_t b = 0;
    while (b <= s.size()) {
      size_t e = s.find('|', b);
      if (e == std::string::npos) e = s.size();
      std::string v = Trim(s.substr(b, e - b));
      while (!v.empty() && (v.back() == '.' || v.back() == '\'' || v.back() == '"' || v.back() == '`')) v.pop_back();
      while (!v.empty() && (v.front() == '\'' || v.front() == '"' || v.front() == '`')) v.erase(v.begin());
      if (!v.empty() && v.find(' ') == std::string::npos && v.size() < 60) out.push_back(v);
      b = e + 1;
    }
    return out;
  }

  Hints ReadHints() const {
    Hints h;
    if (!site_.error_message) return h;
    const std::string& msg = *site_.error_message;
    std::smatch m;
    // Sentences: split at ". " / "! " / "; " / newline.
    std::vector<std::string> sents;
    {
      std::string cur;
      for (size_t i = 0; i < msg.size(); ++i) {
        cur += msg[i];
        bool end = msg[i] == '\n' || ((msg[i] == '.' || msg[i] == '!' || msg[i] == ';' || msg[i] == '?') &&
                                      (i + 1 == msg.size() || msg[i + 1] == ' ' || msg[i + 1] == '\n'));
        if (end) {
          if (!Trim(cur).empty()) sents.push_back(Trim(cur));
          cur.clear();
        }
      }
      if (!Trim(cur).empty()) sents.push_back(Trim(cur));
    }
    static const std::regex imperative(
        "^(?:please\\s+|you (?:can|may|should|must)\\s+|try\\s+|consider\\s+)?(pass|use|set|specify|add|enable|disable|remove|"
        "install|upgrade|update|downgrade|run|switch|reduce|increase|lower|raise|choose|select|provide|make sure|"
        "check|unset|export)\\b",
        std::regex::icase);
    // Every match starts with one of these whole words (the pattern is anchored
    // and each alternative ends at \\b or \\s): a cheap test before the regex.
    static const std::set<std::string> first_words = {
        "please", "you", "try", "consider", "pass", "use", "set", "specify", "add", "enable", "disable", "remove",
        "install", "upgrade", "update", "downgrade", "run", "switch", "reduce", "increase", "lower", "raise",
        "choose", "select", "provide", "make", "check", "unset", "export"};
    for (const auto& s : sents) {
      size_t w = 0;
      while (w < s.size() && (std::isalnum((unsigned char)s[w]) || s[w] == '_')) ++w;
      if (!first_words.count(Lower(std::string_view(s).substr(0, w)))) continue;
      if (std::regex_search(s, imperative)) h.sentences.push_back(s);
    }
    // --flag value[ or value2 ...] inside the imperative sentences.
    static const std::regex flag_re("(--[a-z0-9][a-z0-9_-]*)(?:[ =]+((?:[A-Za-z0-9_.:/+-]+)(?:(?:\\s*,\\s*|\\s+or\\s+|\\s*/\\s*|,\\s*or\\s+)[A-Za-z0-9_.:/+-]+)*))?");
    for (const auto& s : h.sentences) {
      if (!Has(s, "--")) continue;
      for (auto it = std::sregex_iterator(s.begin(), s.end(), flag_re); it != std::sregex_iterator(); ++it) {
        std::string flag = (*it)[1];
        std::vector<std::string> vals = (*it)[2].matched ? SplitValues((*it)[2]) : std::vector<std::string>{};
        const FlagInfo* fi = k_ ? k_->FindFlag(flag) : nullptr;
        if (fi && !fi->choices.empty()) {
          std::vector<std::string> ok;
          for (auto& v : vals)
            if (std::find(fi->choices.begin(), fi->choices.end(), v) != fi->choices.end()) ok.push_back(v);
          vals = ok;
        }
        auto& dst = h.flag_values[flag];
        for (auto& v : vals)
          if (std::find(dst.begin(), dst.end(), v) == dst.end()) dst.push_back(v);
      }
    }
    static const std::regex allowed_re(
        "(?:supports? only|only supports?|only supported (?:on|for|with)|supported only (?:on|for|with)|must be one of|"
        "expected one of|should be one of|choose from|valid (?:values|options|choices) are|allowed values are|"
        "only accepts?|accepts only)\\s*:?\\s*([^.;\\n]+(?:\\.\\d[^.;\\n]*)*)",
        std::regex::icase);
    const std::string lower = Lower(msg);
    bool may_allow = Has(lower, "support") || Has(lower, "one of") || Has(lower, "choose from") || Has(lower, "valid") ||
                     Has(lower, "allowed") || Has(lower, "accept");
    if (may_allow && std::regex_search(msg, m, allowed_re)) {
      std::string list = m[1];
      std::smatch fm;
      static const std::regex lead_flag_re("^(--[a-z0-9][a-z0-9_-]*)\\s+");
      if (std::regex_search(list, fm, lead_flag_re)) {
        h.allowed_flag = fm[1];
        list = fm.suffix();
      }
      std::vector<std::string> vals = SplitValues(list);
      bool idents = !vals.empty();
      static const std::regex ident_re("[A-Za-z0-9_.+-]+");
      for (auto& v : vals)
        if (!std::regex_match(v, ident_re)) idents = false;
      if (idents) h.allowed = vals;
      else h.allowed = {Trim(m[1].str())};
      if (!idents) h.allowed_flag.clear();
    }
    if ((Has(msg, ">") || Has(msg, "==") || Has(msg, "~=")) &&
        std::regex_search(msg, m, Re("\\b([A-Za-z][\\w.-]*)\\s*(>=|>|==|~=)\\s*v?(\\d+(?:\\.\\d+)*)")) &&
        IsPackage(m[1].str())) {
      h.package = m[1];
      h.version_op = m[2];
      h.version = m[3];
    }
    if ((Has(msg, "pgrade") || Has(msg, "pdate")) && std::regex_search(msg, m, Re("\\b(?:[Uu]pgrade|[Uu]pdate)\\s+(?:your\\s+|the\\s+)?`?([A-Za-z][\\w.-]*)")))
      if (m[1] != "to" && m[1] != "the") h.upgrade = m[1];
    if (Has(msg, "pip") && std::regex_search(msg, m, Re("pip3? install\\s+(?:-U\\s+|--upgrade\\s+)?([^\\s'\"`]+)"))) h.pip = m[1];
    return h;
  }

  // ---------------------------------------------------------------- the record

  void Fill(Record* r) {
    Gather();
    Hints hints = ReadHints();
    auto active = Active();
    std::string where = BT(site_.function) + " (" + site_.file_path + ":" + std::to_string(site_.line) + ")";
    std::string cls = site_.error_class.value_or("");
    const std::string msg = site_.error_message.value_or("");

    // Siblings of the else-clauses.
    std::vector<std::string> sibling_notes;
    std::map<std::string, std::pair<std::string, std::string>> rewrites;  // subject key -> (from, to)
    std::map<std::string, int> rewrite_line;
    std::set<int> seen_guards;
    for (const auto& f : facts_) {
      if (!f.from_else || seen_guards.count(f.guard)) continue;
      seen_guards.insert(f.guard);
      auto sib = FindSibling(f.negated_test);
      if (!sib) continue;
      std::string from, to;
      std::string s = SiblingSentence(f, *sib, &from, &to);
      // "so only an explicit `--deepep-mode normal` reaches this raise"
      const Fact* pinned = nullptr;
      for (const auto* g : active)
        if (!g->from_else && g->subj.Key() == f.subj.Key() && g->atom.op == "==" && g->atom.rhs_strings) pinned = g;
      if (pinned && !from.empty() && f.subj.IsSetting())
        s += ", so " + UserTerm(Positive(f)) + " never reaches this " + KindWord() + "; only an explicit " +
             UserTerm(*pinned) + " does.";
      else if (!from.empty())
        s += ", so " + BT(FlagValueOrCode(f.subj, from)) + " never reaches this " + KindWord() + ".";
      else
        s += ", so this " + KindWord() + " is reached only when " + BT(sib->test) + " is false.";
      if (s.back() != '.') s += ".";
      sibling_notes.push_back(s);
      if (!from.empty() && !to.empty()) {
        rewrites[f.subj.Key()] = {from, to};
        rewrite_line[f.subj.Key()] = sib->line;
      }
    }

    // What the site's own branch sets a tested setting to (a log's branch often
    // resolves the value itself): the first choice for a fix.
    for (const auto& f : facts_) {
      if (f.from_else || f.disjunction || !f.subj.IsSetting()) continue;
      if (f.guard < 0 || f.guard >= (int)site_.guards.size()) continue;
      auto own = FindSibling(site_.guards[f.guard]);
      if (!own) continue;
      for (auto& [n, v] : own->sets)
        if ((n == f.subj.SettingName() || n == f.subj.via) && !Triggers(f, v)) own_sets_[f.subj.Key()] = v;
    }

    Evidence ev = MakeEvidence(active);
    std::string tag = BackgroundTagFor(ev);
    r->background_tag = tag;
    r->severity = SeverityFor(ev, tag);
    r->error_type = ErrorTypeFor(ev);
    r->handling_strategy = HandlingStrategyFor(ev, tag);

    // ---------------- documentation
    std::string doc;
    doc += Subjectless(cls) + " " + Verb() + " by " + where;
    std::vector<std::string> conds, user_terms;
    for (const auto* f : active) {
      conds.push_back(CodeTerm(*f));
      user_terms.push_back(UserTerm(*f));
    }
    if (!conds.empty()) doc += " when " + JoinWords(conds, "and");
    else if (site_.kind == SiteKind::kAssert && site_.assert_condition) doc += " when " + BT(OneLine(*site_.assert_condition)) + " is false";
    else doc += ", unconditionally once that line is reached";
    if (site_.except_context) doc += ", while handling " + BT(*site_.except_context);
    doc += ".";
    bool any_user = false;
    for (const auto* f : active)
      if (f->subj.kind != SubjectKind::kCode) any_user = true;
    if (any_user) doc += " In user terms: " + JoinWords(user_terms, "and") + ".";
    if (!msg.empty()) {
      doc += " Message: \"" + msg + "\"";
      if (!std::ispunct((unsigned char)msg.back())) doc += ".";
    }
    if (!site_.interpolations.empty()) doc += " The message interpolates " + JoinWords(Ticked(site_.interpolations), "and") + ".";
    doc += " " + CategorySentence(tag, active);
    for (auto& n : sibling_notes) doc += " " + n;
    r->documentation = Trim(doc);

    // ---------------- triggerScenarios
    std::vector<std::string> launch, env, caps, other;
    for (const auto* f : active) {
      switch (f->subj.kind) {
        case SubjectKind::kFlag: case SubjectKind::kField: launch.push_back(UserTerm(*f)); break;
        case SubjectKind::kEnv: env.push_back(UserTerm(*f)); break;
        case SubjectKind::kMissingAttr: case SubjectKind::kMissingModule:
        case SubjectKind::kHardware: case SubjectKind::kVersion: caps.push_back(UserTerm(*f)); break;
        default: other.push_back(UserTerm(*f) + (f->subj.via.empty() ? "" : " (" + BT(f->subj.via) + " = " + BT(OneLine(f->subj.expr)) + ")"));
      }
    }
    std::vector<std::string> trig;
    if (!launch.empty()) trig.push_back("Launching with " + JoinWords(launch, "and") + ".");
    if (!env.empty()) trig.push_back("Running with " + JoinWords(env, "and") + " in the environment.");
    if (!caps.empty()) trig.push_back("Running where " + JoinWords(caps, "and") + ".");
    if (!other.empty()) trig.push_back("Reaching " + BT(site_.function) + " while " + JoinWords(other, "and") + ".");
    if (active.empty() && site_.kind == SiteKind::kAssert && site_.assert_condition)
      trig.push_back("Reaching " + BT(site_.function) + " with " + BT(OneLine(*site_.assert_condition)) + " false.");
    else if (active.empty())
      trig.push_back("Every call of " + BT(site_.function) + " that reaches line " + std::to_string(site_.line) +
                     (site_.except_context ? " after " + BT(*site_.except_context) + " caught an error" : "") + ".");
    auto callers = Callers();
    if (!callers.empty()) trig.push_back(BT(site_.function) + " is called from " + JoinWords(callers, "and") + ".");
    for (auto& n : sibling_notes) trig.push_back(n);
    r->trigger_scenarios = JoinLines(trig);

    // ---------------- solutions (message hints first, then one flip per guard, innermost first)
    std::vector<std::string> sol;
    for (const auto& [flag, vals] : hints.flag_values) {
      if (vals.empty()) continue;
      std::vector<std::string> forms;
      for (auto& v : vals) forms.push_back(BT(flag + " " + v));
      sol.push_back("Pass " + JoinWords(forms, "or") + " (the message's own hint).");
    }
    if (hints.flag_values.empty())
      for (auto& s : hints.sentences) sol.push_back("Follow the message's hint: \"" + s + "\"");
    bool ident_list = hints.allowed.size() > 1 || !hints.allowed_flag.empty();
    if (!hints.allowed.empty() && (ident_list || hints.flag_values.empty())) {
      std::string what = hints.allowed_flag.empty() ? "" : BT(hints.allowed_flag) + " ";
      std::string list = hints.allowed.size() > 1 || hints.allowed_flag.size() ? JoinWords(Ticked(hints.allowed), "or")
                                                                                : hints.allowed[0];
      sol.push_back("Use " + what + (hints.allowed.size() > 1 ? "one of the supported values: " : "what the message says is supported: ") + list + ".");
    }
    if (!hints.package.empty())
      sol.push_back("Install a new enough " + BT(hints.package) + ": " + BT("pip install -U \"" + hints.package + hints.version_op + hints.version + "\"") + ".");
    else if (!hints.upgrade.empty())
      sol.push_back("Upgrade " + BT(hints.upgrade) + " as the message asks: " + BT("pip install -U " + hints.upgrade) + ".");
    if (!hints.pip.empty()) sol.push_back("Run " + BT("pip install " + hints.pip) + " as the message says.");
    for (auto it = active.rbegin(); it != active.rend(); ++it) {
      std::string s = Flip(**it, hints, rewrites, rewrite_line);
      if (!s.empty() && std::find(sol.begin(), sol.end(), s) == sol.end()) sol.push_back(s);
    }
    if (!sol.empty()) r->solutions = sol;

    // ---------------- exampleFix
    r->example_fix = ExampleFix(active, hints, rewrites);

    // ---------------- commonSituations
    r->common_situations = Situations(active, hints);

    // ---------------- validationCode / typeGuard / tryCatchPattern
    r->validation_code = Validation(active);
    r->type_guard = TypeGuard(active);
    r->try_catch_pattern = TryCatch(hints);

    // ---------------- preventionTips
    std::vector<std::string> tips;
    for (const auto* f : active) {
      const Subject& s = f->subj;
      if (s.kind == SubjectKind::kFlag && s.flag->default_value && f->atom.rhs_strings &&
          !Triggers(*f, *s.flag->default_value)) {
        std::string t = "Leave " + BT(s.flag->Primary()) + " at its default " + BT(*s.flag->default_value) +
                        " unless the setup requires otherwise";
        auto rw = rewrites.find(s.Key());
        if (rw != rewrites.end() && rw->second.first == *s.flag->default_value)
          t += " (" + BT(rw->second.first) + " is resolved to " + BT(rw->second.second) + " for this combination)";
        tips.push_back(t + ".");
      }
      if (s.kind == SubjectKind::kMissingAttr && s.missing && !IsStdlibModule(FirstComponent(s.module)))
        tips.push_back("Pin " + BT(FirstComponent(s.module)) + " in the requirements to a version that provides " +
                       BT(s.module + "." + s.attr) + ", and check " + BT("hasattr(" + s.module + ", \"" + s.attr + "\")") + " at startup.");
      if (s.kind == SubjectKind::kMissingModule && s.missing)
        tips.push_back("Declare " + BT(s.module) + " as a dependency (or an extra) of the deployment so it is installed with it.");
      if (s.kind == SubjectKind::kHardware)
        tips.push_back("Check " + BT(s.pred) + " on the target machine before choosing this configuration.");
      if (s.kind == SubjectKind::kEnv)
        tips.push_back("Set " + BT(s.env) + " explicitly in the launcher or container definition instead of inheriting it from the shell.");
    }
    {
      // The message's allowed combination as a rule of thumb.
      std::vector<std::string> ctx;
      for (const auto* f : active)
        if (f->subj.IsSetting() && f->atom.op == "==" && f->atom.rhs_strings && f->atom.values.size() == 1 &&
            !hints.flag_values.count(f->subj.kind == SubjectKind::kFlag ? f->subj.flag->Primary() : ""))
          ctx.push_back(UserTerm(*f));
      for (const auto& [flag, vals] : hints.flag_values)
        if (!vals.empty() && !ctx.empty())
          tips.push_back("With " + JoinWords(ctx, "and") + ", keep " + BT(flag) + " at " + JoinWords(Ticked(vals), "or") + ".");
    }
    bool external = false;
    for (const auto* f : active)
      if (f->subj.kind != SubjectKind::kCode && f->subj.kind != SubjectKind::kShape && f->subj.kind != SubjectKind::kType)
        external = true;  // a setting or a capability: something a launch script can check
    if (r->validation_code && site_.kind != SiteKind::kLog && external)
      tips.push_back("Run the pre-flight check (validationCode) in launch scripts and CI so the problem shows before the expensive start-up work.");
    for (auto& t : CodeTips(active, cls)) tips.push_back(t);
    if (!tips.empty()) r->prevention_tips = tips;

    // ---------------- tags
    r->tags = Tags(active, cls);
  }

  static Fact Positive(const Fact& f) {
    Fact p = f;
    p.atom.op = FlipOp(f.atom.op);
    if (p.atom.op.empty()) p.atom.falsy = !f.atom.falsy;
    if (!p.disjunction) p.code = OneLine(p.atom.Code());
    return p;
  }

  std::string JoinLines(const std::vector<std::string>& xs) const {
    std::string o;
    for (auto& x : xs) o += (o.empty() ? "" : " ") + x;
    return o;
  }
  static std::string FirstComponent(const std::string& s) { return s.substr(0, s.find('.')); }

  std::string KindWord() const {
    switch (site_.kind) {
      case SiteKind::kAssert: return "assert";
      case SiteKind::kLog: return "log call";
      case SiteKind::kHttpResponse: return "error response";
      default: return "raise";
    }
  }
  std::string Verb() const {
    switch (site_.kind) {
      case SiteKind::kAssert: return "fails in an assert";
      case SiteKind::kLog: return "logged at " + site_.log_level.value_or("warning") + " level";
      case SiteKind::kHttpResponse: return "returned to the HTTP client";
      default: return "raised";
    }
  }
  std::string Subjectless(const std::string& cls) const {
    std::string s;
    if (site_.kind == SiteKind::kLog) s = "A log message";
    else if (!cls.empty()) s = BT(cls);
    else if (site_.error_class_expr) s = "The error " + BT(*site_.error_class_expr);
    else s = "An error";
    if (site_.http_status) s += " (HTTP " + std::to_string(*site_.http_status) + ")";
    if (site_.error_code) s += " with code " + BT(*site_.error_code);
    return s;
  }
  std::string FlagValueOrCode(const Subject& s, const std::string& v) const { return FlagValue(s, v); }

  bool Triggers(const Fact& f, const std::string& v) const {
    const auto& vals = f.atom.values;
    bool in = std::find(vals.begin(), vals.end(), v) != vals.end();
    if (f.atom.op == "==" ) return in;
    if (f.atom.op == "!=") return !in;
    if (f.atom.op == "in") return in;
    if (f.atom.op == "not in") return !in;
    return true;
  }

  std::string CategorySentence(const std::string& tag, const std::vector<const Fact*>& active) const {
    std::vector<std::string> settings;
    for (const auto* f : active)
      if (f->subj.IsSetting() && std::find(settings.begin(), settings.end(), SettingRef(f->subj)) == settings.end())
        settings.push_back(SettingRef(f->subj));
    const Fact* cap = nullptr;
    for (const auto* f : active)
      if (f->subj.kind == SubjectKind::kMissingAttr || f->subj.kind == SubjectKind::kMissingModule ||
          f->subj.kind == SubjectKind::kHardware || f->subj.kind == SubjectKind::kVersion)
        cap = f;
    if (tag == "unsupported-configuration-combo")
      return settings.size() >= 2 ? "The combination of " + JoinWords(settings, "and") + " is rejected as unsupported."
                                  : "This setting is rejected in combination with the configuration the message names.";
    if (tag == "missing-dtype-support" && cap)
      return "The installed " + BT(FirstComponent(cap->subj.module)) + " does not define " + BT(cap->subj.module + "." + cap->subj.attr) +
             ", which this code path needs; it fails here, before any work that would use it.";
    if ((tag == "missing-dependency" || tag == "unsupported-hardware") && cap)
      return "The environment lacks what this code path needs: " + UserTerm(*cap) + ".";
    if (tag == "missing-dependency") return "A package or module this code needs could not be imported or found.";
    if (tag == "invalid-argument-value" && !settings.empty()) return "The value of " + JoinWords(settings, "or") + " is rejected here.";
    if (tag == "not-implemented") return "This case is not implemented in this code path.";
    if (tag == "type-error") return "A value of an unexpected type was passed.";
    if (tag == "key-not-found") return "A lookup (key, index or attribute) found nothing.";
    if (tag == "assertion-failure") return "An internal invariant checked by the assert does not hold.";
    if (tag == "shape-mismatch") return "Sizes or shapes of the inputs do not agree.";
    if (tag == "resource-exhausted") return "A size or resource limit was exceeded.";
    if (tag == "io-error") return "A file-system or I/O operation failed.";
    if (tag == "network-error") return "A network operation failed or timed out.";
    if (tag == "http-client-error") return "The request is rejected as a client error.";
    if (tag == "http-server-error") return "The server reports a failure on its side.";
    if (tag == "deprecated-usage") return "A deprecated usage was detected.";
    if (tag == "invalid-state") return "The object or process is not in the state this operation requires.";
    if (tag == "runtime-warning") return "The program goes on after logging it.";
    return "";
  }

  Evidence MakeEvidence(const std::vector<const Fact*>& active) const {
    Evidence ev;
    ev.kind = site_.kind;
    ev.error_class = site_.error_class.value_or("");
    if (k_ && !ev.error_class.empty()) ev.base_class = k_->ExternalBase(LastComponent(ev.error_class), site_.file_path);
    ev.log_level = site_.log_level.value_or("");
    ev.http_status = site_.http_status;
    ev.message = site_.error_message.value_or("");
    ev.except_context = site_.except_context.value_or("");
    for (const auto* f : active) {
      const Subject& s = f->subj;
      if (s.kind == SubjectKind::kHardware) ev.hardware_guard = true;
      if (s.kind == SubjectKind::kMissingAttr && s.missing) {
        static const std::regex dtype_re("float|int\\d|dtype|bfloat|fp\\d|e\\dm\\d|uint|complex|bool_", std::regex::icase);
        if (std::regex_search(s.attr, dtype_re)) ev.dtype_missing = true;
        else ev.module_missing = true;
      }
      if (s.kind == SubjectKind::kMissingModule && s.missing) ev.module_missing = true;
      if (s.kind == SubjectKind::kVersion) ev.module_missing = true;
      if (s.kind == SubjectKind::kType) ev.isinstance_guard = true;
      if (s.kind == SubjectKind::kShape) ev.shape_guard = true;
      if (s.IsSetting()) ++ev.setting_guards;
    }
    return ev;
  }

  // One solution that makes fact `f` false.
  std::string Flip(const Fact& f, const Hints& h, const std::map<std::string, std::pair<std::string, std::string>>& rewrites,
                   const std::map<std::string, int>& rewrite_line) const {
    const Subject& s = f.subj;
    const Atom& a = f.atom;
    if (f.disjunction) return "Make " + BT(f.code) + " false before " + BT(site_.function) + " runs.";
    auto from_text = [](const Atom& x) { return JoinWords(Ticked(x.values), "or"); };
    if (s.IsSetting()) {
      std::string ref = SettingRef(s);
      std::vector<std::string> choices = s.kind == SubjectKind::kFlag ? s.flag->choices : std::vector<std::string>{};
      auto rw = rewrites.find(s.Key());
      std::string rw_note;
      if (rw != rewrites.end())
        rw_note = " (" + BT(rw->second.first) + " is rewritten to " + BT(rw->second.second) + " by the branch at line " +
                  std::to_string(rewrite_line.at(s.Key())) + ")";
      if (a.op.empty()) {
        if (s.kind == SubjectKind::kEnv)
          return a.falsy ? "Set " + BT(s.env + "=1") + "." : "Unset " + BT(s.env) + " (or set it to a false value such as " + BT(s.env + "=0") + ").";
        if (IsBoolFlag(s)) return a.falsy ? "Pass " + ref + "." : "Drop " + ref + ".";
        return a.falsy ? "Set " + ref + "." : "Leave " + ref + " unset.";
      }
      if (!a.rhs_strings) return "Change " + ref + " so that " + BT(f.code) + " no longer holds.";
      if (a.op == "==" || a.op == "in") {
        std::vector<std::string> alts;
        if (s.kind == SubjectKind::kFlag) {
          auto hv = h.flag_values.find(s.flag->Primary());
          if (hv != h.flag_values.end()) alts = hv->second;
        }
        if (auto it = own_sets_.find(s.Key()); it != own_sets_.end() && alts.empty()) {
          return "Set " + BT(FlagValue(s, it->second)) + " explicitly: the branch at this " + KindWord() +
                 " resolves " + from_text(a) + " to " + BT(it->second) + " anyway.";
        }
        if (alts.empty())
          for (auto& c : choices)
            if (!Triggers(f, c)) alts.push_back(c);
        std::string from = JoinWords(Ticked(a.values), "or");
        if (alts.empty()) return "Change " + ref + " away from " + from + " (this check applies only to " + from + ").";
        std::string sx = "Change " + ref + " from " + from + " to " + JoinWords(Ticked(alts), "or");
        if (s.kind == SubjectKind::kFlag && s.flag->default_value && !Triggers(f, *s.flag->default_value))
          sx += "; its default is " + BT(*s.flag->default_value);
        return sx + rw_note + ".";
      }
      if (a.op == "not in") {
        std::string sx = "Set " + ref + " to one of " + JoinWords(Ticked(a.values), "or");
        if (rw != rewrites.end()) sx += ", or leave it at " + BT(rw->second.first) + rw_note;
        return sx + ".";
      }
      if (a.op == "!=") {
        std::string sx = "Set " + BT(FlagValue(s, a.values[0]));
        return sx + rw_note + ".";
      }
      return "";
    }
    switch (s.kind) {
      case SubjectKind::kMissingAttr: {
        if (!s.missing) return "";
        std::string pkg = FirstComponent(s.module);
        if (IsStdlibModule(pkg))
          return "Run on a platform or Python build whose " + BT(pkg) + " provides " + BT(s.module + "." + s.attr) +
                 " (it is not a pip package; the attribute depends on the OS and how Python was built).";
        std::string ver = (!h.package.empty() && FirstComponent(h.package) == pkg) ? h.version_op + h.version : "";
        return "Upgrade " + BT(pkg) + " to a version that defines " + BT(s.module + "." + s.attr) + ": " +
               BT("pip install -U \"" + pkg + ver + "\"") + (ver.empty() ? "" : " (the message asks for " + BT(pkg + ver) + ")") +
               "; verify with " + BT("python -c \"import " + pkg + "; print(hasattr(" + s.module + ", '" + s.attr + "'))\"") + ".";
      }
      case SubjectKind::kMissingModule:
        if (!s.missing) return "Uninstall " + BT(s.module) + " or avoid this code path.";
        return "Install the package that provides " + BT(s.module) + " (" + BT("pip install " + PipName(s.module)) +
               " when the distribution has the same name).";
      case SubjectKind::kHardware:
        return s.missing ? "Run on hardware/platform where " + BT(s.pred) + " is True, or choose a configuration that does not need it."
                         : "Use a configuration that supports the platform where " + BT(s.pred) + " is True, or run on another platform.";
      case SubjectKind::kVersion:
        return "Install versions for which " + BT(s.pred) + " does not hold" +
               (s.module.empty() ? "" : " (" + BT("pip install -U " + s.module) + ")") + ".";
      case SubjectKind::kType:
        return s.missing ? "Pass " + BT(OneLine(s.expr)) + " as an instance of " + BT(s.pred) + "."
                         : "Pass " + BT(OneLine(s.expr)) + " as something other than " + BT(s.pred) + ".";
      default: {
        if (a.op == "is" && Trim(a.rhs) == "None")
          return "Make sure " + BT(OneLine(a.lhs)) + " is set (not None) before " + BT(site_.function) + " runs.";
        return "Make " + BT(f.code) + " false before " + BT(site_.function) + " runs" +
               (f.subj.via.empty() ? "" : " (" + BT(f.subj.via) + " = " + BT(OneLine(f.subj.expr)) + ")") + ".";
      }
    }
  }

  // A word of the message names an installable package: one the file imports,
  // or a well-known one.
  bool IsPackage(const std::string& name) const {
    static const std::set<std::string> known = {"torch", "numpy", "transformers", "triton", "flashinfer", "vllm",
                                                "sglang", "pydantic", "fastapi", "jax", "tensorflow", "cuda-python",
                                                "accelerate", "safetensors", "xformers", "deepspeed", "setuptools", "pip"};
    std::string lower;
    for (char c : name) lower += (char)std::tolower((unsigned char)c);
    if (known.count(lower)) return true;
    if (!IsIdent(name)) return false;
    auto imported = cache_.package_imported.find(name);
    if (imported == cache_.package_imported.end()) {
      std::regex imp("(^|\\n)\\s*(import|from)\\s+" + name + "\\b");
      imported = cache_.package_imported.emplace(name, std::regex_search(text_.begin(), text_.end(), imp)).first;
    }
    return imported->second;
  }

  static bool IsStdlibModule(const std::string& m) {
    static const std::set<std::string> stdlib = {
        "os", "sys", "socket", "signal", "select", "selectors", "ssl", "time", "errno", "fcntl", "resource", "posix",
        "nt", "math", "io", "stat", "termios", "mmap", "threading", "multiprocessing", "subprocess", "asyncio",
        "ctypes", "locale", "platform", "shutil", "tempfile", "hashlib", "zlib", "sqlite3", "readline", "curses",
        "pwd", "grp", "array", "struct", "types", "inspect", "builtins", "codecs", "unicodedata", "_thread", "gc"};
    return stdlib.count(m) > 0;
  }

  static std::string PipName(const std::string& module) {
    std::string m = FirstComponent(module);
    std::replace(m.begin(), m.end(), '_', '-');
    return m;
  }

  std::optional<std::string> ExampleFix(const std::vector<const Fact*>& active, const Hints& h,
                                        const std::map<std::string, std::pair<std::string, std::string>>& rewrites) const {
    // Command-line flags / fields / env vars.
    std::vector<std::string> before, after;
    std::set<std::string> seen;
    const Fact* flip = nullptr;
    std::string flip_to;
    std::vector<const Fact*> settings;
    for (const auto* f : active)
      if (f->subj.IsSetting() && !f->disjunction) settings.push_back(f);
    // Pick the innermost setting fact that has a replacement value, unless an inner
    // capability test (hardware, dependency) is what the fix is about.
    bool inner_capability = !active.empty() && !active.back()->subj.IsSetting() && active.back()->subj.kind != SubjectKind::kCode;
    if (inner_capability) settings.clear();
    for (auto it = settings.rbegin(); it != settings.rend() && !flip; ++it) {
      const Fact* f = *it;
      std::string v = FixValue(*f, h);
      if (!v.empty() || (f->atom.op.empty() && (IsBoolFlag(f->subj) || f->subj.kind == SubjectKind::kEnv))) {
        flip = f;
        flip_to = v;
      }
    }
    for (const auto* f : settings) {
      std::string key = f->subj.Key();
      if (seen.count(key)) continue;
      // Prefer the non-else fact for the same subject.
      const Fact* use = f;
      for (const auto* g : settings)
        if (g->subj.Key() == key && !g->from_else) use = g;
      seen.insert(key);
      std::string b = TriggerValue(*use, rewrites);
      if (b.empty() && !(use->atom.op.empty())) continue;
      std::string bform = SettingForm(use->subj, b, use->atom);
      if (bform.empty()) continue;
      before.push_back(bform);
      if (flip && flip->subj.Key() == key) {
        std::string a = flip->atom.op.empty() ? std::string() : flip_to;
        std::string aform = flip->atom.op.empty() ? NegatedForm(flip->subj, flip->atom) : SettingForm(use->subj, a, use->atom);
        if (!aform.empty()) after.push_back(aform);
      } else {
        after.push_back(bform);
      }
    }
    if (flip && !before.empty()) {
      std::string sep = settings[0]->subj.kind == SubjectKind::kField ? ", " : " ";
      auto join = [&](const std::vector<std::string>& xs) {
        std::string o;
        for (auto& x : xs) o += (o.empty() ? "" : sep) + x;
        return o;
      };
      std::string a = join(after);
      if (a.empty()) a = "# (no flags)";
      return "# before\n" + join(before) + "\n# after\n" + a;
    }
    for (const auto* f : active) {
      const Subject& s = f->subj;
      if (s.kind == SubjectKind::kMissingAttr && s.missing && !IsStdlibModule(FirstComponent(s.module))) {
        std::string pkg = FirstComponent(s.module);
        std::string ver = (!h.package.empty() && FirstComponent(h.package) == pkg) ? h.version_op + h.version : "";
        return "# before\npython -c \"import " + pkg + "; print(hasattr(" + s.module + ", '" + s.attr + "'))\"  # False\n# after\npip install -U \"" +
               pkg + ver + "\"\npython -c \"import " + pkg + "; assert hasattr(" + s.module + ", '" + s.attr + "')\"";
      }
      if (s.kind == SubjectKind::kMissingModule && s.missing)
        return "# before\npython -c \"import " + s.module + "\"  # fails\n# after\npip install " + PipName(s.module) +
               "\npython -c \"import " + s.module + "\"";
    }
    if (auto c = CallFix(active)) return c;
    if (!h.package.empty())
      return "# before\npip show " + h.package + "  # older than " + h.version + "\n# after\npip install -U \"" + h.package +
             h.version_op + h.version + "\"";
    return std::nullopt;
  }

  // A value of the subject that makes the fact true (for "# before").
  std::string TriggerValue(const Fact& f, const std::map<std::string, std::pair<std::string, std::string>>& rewrites) const {
    const Atom& a = f.atom;
    if (a.op.empty() || !a.rhs_strings || a.values.empty()) return "";
    if (a.op == "==" || a.op == "in") return a.values[0];
    std::vector<std::string> choices = f.subj.kind == SubjectKind::kFlag ? f.subj.flag->choices : std::vector<std::string>{};
    auto rw = rewrites.find(f.subj.Key());
    for (auto& c : choices) {
      if (rw != rewrites.end() && c == rw->second.first) continue;
      if (Triggers(f, c)) {
        // Must also satisfy every other fact on the same subject.
        bool ok = true;
        for (const auto& g : facts_)
          if (&g != &f && g.subj.Key() == f.subj.Key() && g.atom.rhs_strings && !g.atom.op.empty() && !Triggers(g, c)) ok = false;
        if (ok) return c;
      }
    }
    return "";
  }
  // A value that makes the fact false (for "# after"), preferring the message's hint.
  std::string FixValue(const Fact& f, const Hints& h) const {
    const Atom& a = f.atom;
    if (a.op.empty() || !a.rhs_strings || a.values.empty()) return "";
    if (auto it = own_sets_.find(f.subj.Key()); it != own_sets_.end()) return it->second;
    if (f.subj.kind == SubjectKind::kFlag) {
      auto hv = h.flag_values.find(f.subj.flag->Primary());
      if (hv != h.flag_values.end() && !hv->second.empty()) return hv->second[0];
      if (h.allowed_flag == f.subj.flag->Primary() && !h.allowed.empty()) return h.allowed[0];
    }
    if (a.op == "not in") return a.values[0];
    if (a.op == "!=") return a.values[0];
    if (f.subj.kind == SubjectKind::kEnv && a.op == "==") return "\x01unset";
    if (f.subj.kind == SubjectKind::kFlag) {
      if (f.subj.flag->default_value && *f.subj.flag->default_value != "None" &&
          !Triggers(f, *f.subj.flag->default_value) && !f.subj.flag->choices.empty())
        return *f.subj.flag->default_value;
      for (auto& c : f.subj.flag->choices)
        if (!Triggers(f, c)) return c;
    }
    return "";
  }
  std::string SettingForm(const Subject& s, const std::string& v, const Atom& a) const {
    if (a.op.empty()) {
      if (s.kind == SubjectKind::kEnv) return a.falsy ? s.env + "=0" : s.env + "=1";
      if (IsBoolFlag(s)) return a.falsy ? "" : s.flag->Primary();
      return "";
    }
    if (v.empty()) return "";
    if (v == "\x01unset") return "unset " + s.env;
    return FlagValue(s, v);
  }
  std::string NegatedForm(const Subject& s, const Atom& a) const {
    if (s.kind == SubjectKind::kEnv) return a.falsy ? s.env + "=1" : s.env + "=0";
    if (IsBoolFlag(s)) return a.falsy ? s.flag->Primary() : "";
    return "";
  }

  std::optional<std::string> Situations(const std::vector<const Fact*>& active, const Hints& h) const {
    std::vector<std::string> out;
    std::vector<const Fact*> settings;
    for (const auto* f : active)
      if (f->subj.IsSetting() && !f->disjunction && !f->from_else) settings.push_back(f);
    if (!settings.empty()) {
      const Fact* inner = settings.back();
      std::vector<std::string> ctx;
      for (size_t i = 0; i + 1 < settings.size(); ++i) ctx.push_back(UserTerm(*settings[i]));
      if (inner->atom.op == "not in") {
        out.push_back("A " + SettingRef(inner->subj) + " value chosen for another setup kept in a launch script or config" +
                      (ctx.empty() ? "" : " when switching to " + JoinWords(ctx, "and")));
      } else if (!ctx.empty()) {
        out.push_back("Reusing a launch command or config that pins " + UserTerm(*inner) + " from a setup without " + JoinWords(ctx, "or"));
        out.push_back("Explicitly pinning " + UserTerm(*inner) + " while " + JoinWords(ctx, "and") + " is in use");
      } else {
        std::string d = inner->subj.kind == SubjectKind::kFlag && inner->subj.flag->default_value
                            ? " (the default is " + BT(*inner->subj.flag->default_value) + ")" : "";
        out.push_back("Setting " + UserTerm(*inner) + " explicitly" + d + " in a launch script, config or environment");
      }
    }
    for (const auto* f : active) {
      const Subject& s = f->subj;
      if (s.kind == SubjectKind::kMissingAttr && s.missing && IsStdlibModule(FirstComponent(s.module)))
        out.push_back("Running on an OS or Python build whose " + BT(FirstComponent(s.module)) + " lacks " + BT(s.module + "." + s.attr));
      else if (s.kind == SubjectKind::kMissingAttr && s.missing)
        out.push_back("An older " + BT(FirstComponent(s.module)) + " that predates " + BT(s.module + "." + s.attr) +
                      ": pinned by another package, or a stale container/CI image");
      if (s.kind == SubjectKind::kMissingModule && s.missing)
        out.push_back("A lean environment where the optional package " + BT(s.module) + " was never installed");
      if (s.kind == SubjectKind::kHardware)
        out.push_back(std::string(s.missing ? "Running on a machine where " : "Running on a platform where ") + BT(s.pred) +
                      (s.missing ? " is False (older or different hardware than this path expects)" : " is True"));
      if (s.kind == SubjectKind::kEnv)
        out.push_back(BT(s.env) + " inherited from the shell, a container image or a launcher");
      if (s.kind == SubjectKind::kVersion) out.push_back("An older dependency where " + BT(s.pred) + " holds");
      if (s.kind == SubjectKind::kType) out.push_back("Passing " + BT(OneLine(s.expr)) + " of another type than " + BT(s.pred));
    }
    if (out.empty())
      for (auto& x : CodeSituations(active)) out.push_back(x);
    if (out.empty() && site_.except_context)
      out.push_back("An underlying error caught by " + BT(*site_.except_context) + " in " + BT(site_.function) +
                    (site_.cause ? " and chained with " + BT("from " + *site_.cause) : ""));
    if (out.empty() && !site_.interpolations.empty())
      out.push_back("A value of " + JoinWords(Ticked(site_.interpolations), "or") + " that " + BT(site_.function) + " rejects");
    if (out.empty()) return std::nullopt;
    std::string s;
    for (auto& x : out) s += (s.empty() ? "" : "; ") + x;
    return s + ".";
  }

  std::string PreflightExpr(const Fact& f, std::set<std::string>* imports) const {
    const Subject& s = f.subj;
    const Atom& a = f.atom;
    auto with_lhs = [&](const std::string& lhs) {
      if (a.op.empty()) return a.falsy ? "not " + lhs : lhs;
      return lhs + " " + a.op + " " + OneLine(a.rhs);
    };
    switch (s.kind) {
      case SubjectKind::kFlag: return with_lhs("args." + s.flag->dest);
      case SubjectKind::kField: return with_lhs("args." + s.field->name);
      case SubjectKind::kMissingAttr:
        imports->insert(FirstComponent(s.module));
        return s.missing ? "getattr(" + s.module + ", \"" + s.attr + "\", None) is None"
                         : "getattr(" + s.module + ", \"" + s.attr + "\", None) is not None";
      case SubjectKind::kMissingModule:
        imports->insert("importlib.util");
        return s.missing ? "importlib.util.find_spec(\"" + s.module + "\") is None"
                         : "importlib.util.find_spec(\"" + s.module + "\") is not None";
      case SubjectKind::kEnv:
        if (s.expr.find("os.") != std::string::npos) imports->insert("os");
        return with_lhs(OneLine(s.expr));
      default:
        if (!s.via.empty()) return with_lhs(OneLine(s.expr));
        return f.code;
    }
  }

  std::optional<std::string> Validation(const std::vector<const Fact*>& active) const {
    if (site_.kind == SiteKind::kLog) return std::nullopt;
    // A check on the object's own state is no pre-flight check a caller can run.
    static const std::regex internal_re("\\b(self|cls)\\b");
    for (const auto* f : active)
      if (std::regex_search(f->code, internal_re) || std::regex_search(f->subj.expr, internal_re)) return std::nullopt;
    if (active.empty() && site_.assert_condition && std::regex_search(*site_.assert_condition, internal_re)) return std::nullopt;
    std::vector<std::string> conds;
    std::set<std::string> imports;
    for (const auto* f : active) {
      std::string c = PreflightExpr(*f, &imports);
      if (c.find(" or ") != std::string::npos || c.find(" if ") != std::string::npos) c = "(" + c + ")";
      conds.push_back(c);
    }
    if (conds.empty() && site_.kind == SiteKind::kAssert && site_.assert_condition)
      conds.push_back("not (" + OneLine(*site_.assert_condition) + ")");
    if (conds.empty()) return std::nullopt;
    bool uses_args = false;
    for (const auto* f : active)
      if (f->subj.kind == SubjectKind::kFlag || f->subj.kind == SubjectKind::kField) uses_args = true;
    std::string code = "# pre-flight check mirroring " + site_.function + " (" + site_.file_path + ":" + std::to_string(site_.line) + ")\n";
    for (auto& i : imports) code += "import " + i + "\n";
    if (uses_args) code += "# args: the parsed launch arguments\n";
    std::string cond;
    for (auto& c : conds) cond += (cond.empty() ? "" : " and ") + c;
    if (cond.size() > 90 && conds.size() > 1) {
      cond.clear();
      for (size_t i = 0; i < conds.size(); ++i) cond += (i ? "\n    and " : "(\n    ") + conds[i];
      cond += "\n)";
    }
    std::string what = site_.error_message ? *site_.error_message : site_.error_class.value_or("error");
    for (const auto& ip : site_.interpolations) {
      std::string hole = "{" + ip + "}";
      for (size_t p = what.find(hole); p != std::string::npos; p = what.find(hole, p + 3)) what.replace(p, hole.size(), "...");
    }
    code += "if " + cond + ":\n    raise SystemExit(" + PyQuote(what) + ")";
    return code;
  }

  std::optional<std::string> TypeGuard(const std::vector<const Fact*>& active) const {
    for (auto it = active.rbegin(); it != active.rend(); ++it) {
      const Fact& f = **it;
      const Subject& s = f.subj;
      switch (s.kind) {
        case SubjectKind::kMissingAttr:
          return "def has_" + s.attr + "() -> bool:\n    return getattr(" + s.module + ", \"" + s.attr + "\", None) is not None";
        case SubjectKind::kMissingModule:
          return "def has_" + Kebab(s.module).replace(0, 0, "") + "() -> bool:\n    import importlib.util\n    return importlib.util.find_spec(\"" +
                 s.module + "\") is not None";
        case SubjectKind::kHardware:
          return "def supports_this_path() -> bool:\n    return bool(" + s.pred + ")" + (s.missing ? "" : " is False");
        case SubjectKind::kType:
          return "def is_valid_" + Ident(s.expr) + "(value) -> bool:\n    return isinstance(value, " + s.pred + ")";
        default:
          if ((f.atom.op == "is" || f.atom.op == "is not") && Trim(f.atom.rhs) == "None")
            return "def " + Ident(f.atom.lhs) + "_is_set(value) -> bool:\n    return value is not None";
      }
    }
    return std::nullopt;
  }
  // ---------------------------------------------------------------- code-level facts (no setting involved)

  // The parameter names of the enclosing function (empty at module level / unknown).
  std::vector<std::string> Params() const {
    std::vector<std::string> out;
    if (def_line_ <= 0) return out;
    std::string sig;
    for (int l = def_line_; l <= (int)L_.v.size() && l < site_.line; ++l) {
      sig += std::string(L_.At(l)) + " ";
      if (std::regex_search(sig, Re("\\)\\s*(->[^:]*)?:\\s*$"))) break;
    }
    size_t b = sig.find('(');
    if (b == std::string::npos) return out;
    int depth = 0;
    std::string cur;
    bool in_default = false;
    auto flush = [&]() {
      std::string t = Trim(cur);
      while (!t.empty() && t[0] == '*') t.erase(t.begin());
      size_t c = t.find_first_of(":=");
      if (c != std::string::npos) t = Trim(t.substr(0, c));
      if (IsIdent(t)) out.push_back(t);
      cur.clear();
      in_default = false;
    };
    for (size_t i = b + 1; i < sig.size(); ++i) {
      char c = sig[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) { flush(); break; }
        --depth;
      } else if (c == ',' && depth == 0) { flush(); continue; }
      if (c == '=' && depth == 0) in_default = true;
      if (!in_default) cur += c;
    }
    return out;
  }
  // The literal default `True`/`False` of parameter `x` in the signature, or "".
  std::string BoolDefault(const std::string& x) const {
    if (def_line_ <= 0 || !IsIdent(x)) return "";
    std::string sig;
    for (int l = def_line_; l <= (int)L_.v.size() && l < site_.line; ++l) {
      sig += std::string(L_.At(l)) + " ";
      if (std::regex_search(sig, Re("\\)\\s*(->[^:]*)?:\\s*$"))) break;
    }
    std::smatch m;
    if (std::regex_search(sig, m, std::regex("[(,]\\s*" + x + "\\s*(?::[^=,()]*)?=\\s*(True|False)\\s*[,)]"))) return m[1];
    return "";
  }
  bool IsParam(const std::string& x) const {
    if (!IsIdent(x) || x == "self" || x == "cls") return false;
    auto ps = Params();
    return std::find(ps.begin(), ps.end(), x) != ps.end();
  }
  // How a caller spells the call of the enclosing function: `name` or `obj.name`.
  std::string CallName() const {
    auto ps = Params();
    bool method = !ps.empty() && (ps[0] == "self" || ps[0] == "cls") && site_.function.find('.') != std::string::npos;
    if (!method) return func_name_;
    std::string cls = site_.function.substr(0, site_.function.rfind('.'));
    if (func_name_ == "__init__") return LastComponent(cls);
    return (ps[0] == "cls" ? cls : std::string("obj")) + "." + func_name_;
  }
  // String literals of a guard, each in backticks (the empty string as `""`).
  static std::string Lits(const std::vector<std::string>& vs, std::string_view last) {
    std::vector<std::string> t;
    for (auto& v : vs) t.push_back(v.empty() ? BT("\"\"") : BT(v));
    return JoinWords(t, last);
  }
  static bool IsNone(const Atom& a) { return (a.op == "is" || a.op == "is not") && Trim(a.rhs) == "None"; }
  static bool IntLiteral(const std::string& s, long* v) {
    std::string t = Trim(s);
    if (!std::regex_match(t, Re("-?[0-9]{1,12}"))) return false;
    *v = std::stol(t);
    return true;
  }
  std::string CodeLhs(const Fact& f) const { return OneLine(Trim(f.subj.via.empty() ? f.atom.lhs : f.subj.via)); }

  // Tips from code facts: each names the tested expression, its values and the function.
  std::vector<std::string> CodeTips(const std::vector<const Fact*>& active, const std::string& cls) const {
    std::vector<std::string> tips;
    std::string fn = BT(site_.function);
    for (const auto* f : active) {
      const Subject& s = f->subj;
      const Atom& a = f->atom;
      if (f->disjunction) {
        // Every atom false: the negations, in code form.
        std::vector<std::string> neg;
        for (const Atom& at : f->any_of) {
          Atom n = at;
          n.op = FlipOp(at.op);
          if (n.op.empty()) n.falsy = !at.falsy;
          neg.push_back(BT(OneLine(n.Code())));
        }
        if (!neg.empty() && neg.size() <= 4)
          tips.push_back("Make sure " + JoinWords(neg, "and") + " hold before " + fn + " reaches line " + std::to_string(site_.line) + ".");
        continue;
      }
      std::string x = CodeLhs(*f);
      if (x == "__debug__") continue;
      bool param = IsParam(x);
      std::string before = param ? " before calling " + fn : " before " + fn + " reaches line " + std::to_string(site_.line);
      if (s.kind == SubjectKind::kType) {
        std::string v = OneLine(Trim(s.expr));
        if (IsParam(v)) before = " before calling " + fn;
        if (s.missing) tips.push_back("Check the type of " + BT(v) + before + ": it must be an instance of " + BT(s.pred) + ".");
        else tips.push_back("Do not pass " + BT(v) + " as an instance of " + BT(s.pred) + " to " + fn + ".");
        continue;
      }
      if (s.kind == SubjectKind::kShape) {
        tips.push_back("Check the sizes" + before + ": " + BT(f->code) + " must not hold.");
        continue;
      }
      if (s.kind != SubjectKind::kCode) continue;
      if (IsNone(a)) {
        if (a.op == "is")
          tips.push_back(param ? "Always pass " + BT(x) + " (not None) when calling " + fn + "."
                               : "Make sure " + BT(x) + " is assigned (not None)" + before + ".");
        else
          tips.push_back("Leave " + BT(x) + " as None when calling " + fn + " in this case.");
        continue;
      }
      if (a.rhs_strings && !a.values.empty() && (a.op == "not in" || a.op == "!=")) {
        tips.push_back("Use " + std::string(a.values.size() > 1 ? "one of " : "") + Lits(a.values, "or") + " for " + BT(x) + " in " + fn + ".");
        continue;
      }
      if (a.rhs_strings && !a.values.empty() && (a.op == "in" || a.op == "==")) {
        tips.push_back("Avoid " + Lits(a.values, "and") + " as the value of " + BT(x) + " in " + fn + ".");
        continue;
      }
      if ((a.op == "not in" || a.op == "in") && !a.rhs_strings) {
        std::string key = OneLine(Trim(a.lhs)), coll = OneLine(Trim(a.rhs));
        if (a.op == "not in") tips.push_back("Check " + BT(key + " in " + coll) + before + ".");
        else tips.push_back("Check " + BT(key + " not in " + coll) + before + ".");
        continue;
      }
      long n;
      if (!a.op.empty() && a.op != "is" && a.op != "is not" && IntLiteral(a.rhs, &n)) {
        tips.push_back("Keep " + BT(x + " " + FlipOp(a.op) + " " + Trim(a.rhs)) + before + ".");
        continue;
      }
      if (a.op.empty() && IsDotted(x)) {
        tips.push_back(a.falsy ? "Make sure " + BT(x) + " is true or non-empty" + before + "."
                               : "Make sure " + BT(x) + " is false or empty" + before + ".");
        continue;
      }
      if (a.op.empty()) {
        tips.push_back("Make sure " + BT(x) + (a.falsy ? " is true" : " is false") + before + ".");
        continue;
      }
      if (!a.op.empty() || IsDotted(x))
        tips.push_back("Make sure " + BT(f->code) + " does not hold" + before + ".");
    }
    if (active.empty() && site_.kind == SiteKind::kAssert && site_.assert_condition)
      tips.push_back("Keep " + BT(OneLine(*site_.assert_condition)) + " true before calling " + fn + "; the assert at " +
                     site_.file_path + ":" + std::to_string(site_.line) + " checks it.");
    if (site_.except_context && !cls.empty()) {
      std::string caught = Trim(*site_.except_context);
      if (caught.rfind("except", 0) == 0) caught = Trim(caught.substr(6));
      if (!caught.empty() && caught.back() == ':') caught.pop_back();
      size_t as = caught.find(" as ");
      if (as != std::string::npos) caught = Trim(caught.substr(0, as));
      bool warning = cls.size() > 7 && cls.compare(cls.size() - 7, 7, "Warning") == 0;
      // The class name is a literal in the regex when it is an identifier: absent from `caught`, no match.
      std::string last = LastComponent(cls);
      bool same = (IsIdent(last) && !Has(caught, last))
                      ? false
                      : std::regex_search(caught, std::regex("(^|[(.,\\s])" + last + "($|[),\\s])"));
      if (!caught.empty() && !warning && !same && IsDotted(LastComponent(cls)))
        tips.push_back(fn + " turns " + BT(caught) + " into " + BT(cls) + ": catch " + BT(cls) + " around calls of " + fn + ".");
    }
    if (active.empty() && cls == "NotImplementedError" && site_.function.find('.') != std::string::npos)
      tips.push_back("Override " + BT(func_name_) + " in every subclass of " +
                     BT(site_.function.substr(0, site_.function.rfind('.'))) + " that is used.");
    std::vector<std::string> uniq;
    for (auto& t : tips)
      if (std::find(uniq.begin(), uniq.end(), t) == uniq.end()) uniq.push_back(t);
    return uniq;
  }

  // How a caller typically reaches a code-level check: one sentence per fact.
  std::vector<std::string> CodeSituations(const std::vector<const Fact*>& active) const {
    std::vector<std::string> out;
    std::string fn = BT(site_.function);
    for (const auto* f : active) {
      const Subject& s = f->subj;
      const Atom& a = f->atom;
      if (f->disjunction) {
        out.push_back("Reaching " + fn + " while " + BT(f->code));
        continue;
      }
      if (s.kind == SubjectKind::kShape) {
        out.push_back("Calling " + fn + " with inputs whose sizes make " + BT(f->code) + " true");
        continue;
      }
      if (s.kind != SubjectKind::kCode) continue;
      std::string x = CodeLhs(*f);
      if (x == "__debug__") continue;
      bool param = IsParam(x);
      if (IsNone(a)) {
        if (a.op == "is")
          out.push_back(param ? "Calling " + fn + " without " + BT(x) + " (or with " + BT(x + "=None") + ")"
                              : "Reaching " + fn + " before " + BT(x) + " was set (it is still None)");
        else
          out.push_back((param ? "Calling " + fn + " with " : "Reaching " + fn + " while ") + BT(x) + " is not None");
        continue;
      }
      if (a.rhs_strings && !a.values.empty()) {
        if (a.op == "not in" || a.op == "!=")
          out.push_back((param ? "Calling " + fn + " with " : "Reaching " + fn + " with ") + BT(x) + " set to a value other than " +
                        Lits(a.values, "or"));
        else
          out.push_back((param ? "Calling " + fn + " with " : "Reaching " + fn + " with ") + BT(x) + " set to " +
                        Lits(a.values, "or"));
        continue;
      }
      if (a.op == "not in" && !a.rhs_strings) {
        out.push_back("Looking up " + BT(OneLine(Trim(a.lhs))) + " in " + fn + " when " + BT(OneLine(Trim(a.rhs))) + " has no such entry");
        continue;
      }
      if (a.op.empty())
        out.push_back((param ? "Calling " + fn + " with " : "Reaching " + fn + " while ") + BT(x) +
                      (a.falsy ? " false, None or empty" : " true or non-empty"));
      else
        out.push_back((param ? "Calling " + fn + " with a " + BT(x) + " for which " : "Reaching " + fn + " while ") + BT(f->code) +
                      (param ? " holds" : ""));
    }
    if (active.empty() && site_.kind == SiteKind::kAssert && site_.assert_condition)
      out.push_back("Calling " + fn + " in a state where " + BT(OneLine(*site_.assert_condition)) + " is false");
    if (active.empty() && site_.error_class.value_or("") == "NotImplementedError" && site_.function.find('.') != std::string::npos)
      out.push_back("Calling " + BT(func_name_) + " on a subclass of " + BT(site_.function.substr(0, site_.function.rfind('.'))) +
                    " that does not override it");
    std::vector<std::string> uniq;
    for (auto& x : out)
      if (std::find(uniq.begin(), uniq.end(), x) == uniq.end()) uniq.push_back(x);
    return uniq;
  }

  // `# before` / `# after` calls when the innermost code fact tests a parameter
  // against values readable from the guard (literal choices, an int bound, a type, None).
  std::optional<std::string> CallFix(const std::vector<const Fact*>& active) const {
    static const std::map<std::string, std::string> kSample = {
        {"str", "\"text\""}, {"int", "1"}, {"float", "1.0"}, {"bytes", "b\"data\""}, {"list", "[...]"},
        {"dict", "{...}"}, {"tuple", "(...)"}, {"bool", "True"}, {"bytearray", "bytearray(b\"data\")"}};
    // Only the innermost test (the one right above the site) is shown.
    for (auto it = active.rbegin(); it != active.rend() && it == active.rbegin(); ++it) {
      const Fact& f = **it;
      if (f.disjunction || !f.subj.via.empty()) continue;
      const Atom& a = f.atom;
      const Subject& s = f.subj;
      std::string x = s.kind == SubjectKind::kType ? OneLine(Trim(s.expr)) : OneLine(Trim(a.lhs));
      if (!IsParam(x)) continue;
      std::string call = CallName();
      auto form = [&](const std::string& v, const std::string& note) {
        return call + "(" + x + "=" + v + ")" + (note.empty() ? "" : "  # " + note);
      };
      std::string bad, good;
      if (s.kind == SubjectKind::kType && s.missing) {
        std::string type = s.pred;
        if (!type.empty() && type[0] == '(') type = Trim(type.substr(1, type.find_first_of(",)") - 1));
        if (!IsDotted(type)) continue;
        auto t = kSample.find(type);
        bad = form("value", "not an instance of " + s.pred);
        good = t != kSample.end() ? form(t->second, "a " + type) : form(type + "(...)", "");
      } else if (s.kind == SubjectKind::kCode && a.op == "is" && Trim(a.rhs) == "None") {
        bad = form("None", "");
        good = form("value", "any value that is not None");
      } else if (s.kind == SubjectKind::kCode && a.rhs_strings && !a.values.empty() && (a.op == "not in" || a.op == "!=")) {
        std::vector<std::string> q;
        for (auto& v : a.values) q.push_back(PyQuote(v));
        bad = form("value", "not one of " + JoinWords(q, "or"));
        good = form(PyQuote(a.values[0]), "");
      } else if (s.kind == SubjectKind::kCode && a.op.empty() && !BoolDefault(x).empty()) {
        // A flag parameter (its default is a bool literal): the guard's truth value is the bad one.
        bad = form(a.falsy ? "False" : "True", "");
        good = form(a.falsy ? "True" : "False", "the default is " + BoolDefault(x));
      } else if (s.kind == SubjectKind::kCode && a.rhs_strings && a.values.size() == 1 && a.op == "==") {
        bad = form(PyQuote(a.values[0]), "");
        good = form("value", "anything but " + PyQuote(a.values[0]));
      } else {
        long n;
        if (s.kind != SubjectKind::kCode || !IntLiteral(a.rhs, &n)) continue;
        long b, g;
        if (a.op == "<") { b = n - 1; g = n; }
        else if (a.op == "<=") { b = n; g = n + 1; }
        else if (a.op == ">") { b = n + 1; g = n; }
        else if (a.op == ">=") { b = n; g = n - 1; }
        else if (a.op == "==") { b = n; g = n + 1; }
        else if (a.op == "!=") { b = n + 1; g = n; }
        else continue;
        bad = form(std::to_string(b), "");
        good = form(std::to_string(g), "");
      }
      return "# before\n" + bad + "\n# after\n" + good;
    }
    return std::nullopt;
  }

  static std::string Ident(const std::string& expr) {
    std::string o;
    for (char c : LastComponent(Trim(expr)))
      o += (std::isalnum((unsigned char)c) || c == '_') ? (char)std::tolower((unsigned char)c) : '_';
    while (!o.empty() && o.back() == '_') o.pop_back();
    return o.empty() ? "value" : o;
  }

  // The longest literal run of the message (holes removed), trimmed to a word boundary.
  std::string StableFragment() const {
    if (!site_.error_message || !site_.message_alternatives.empty()) return "";
    std::string msg = *site_.error_message;
    std::vector<std::string> runs{msg};
    for (const auto& ip : site_.interpolations) {
      std::vector<std::string> next;
      std::string hole = "{" + ip + "}";
      for (auto& r : runs) {
        size_t b = 0;
        for (size_t p = r.find(hole); p != std::string::npos; p = r.find(hole, b)) {
          next.push_back(r.substr(b, p - b));
          b = p + hole.size();
        }
        next.push_back(r.substr(b));
      }
      runs = next;
    }
    // "{}" holes of unknown expressions.
    std::vector<std::string> next;
    for (auto& r : runs) {
      size_t b = 0;
      for (size_t p = r.find("{}"); p != std::string::npos; p = r.find("{}", b)) {
        next.push_back(r.substr(b, p - b));
        b = p + 2;
      }
      next.push_back(r.substr(b));
    }
    std::string best;
    for (auto& r : next) {
      std::string t = Trim(r.substr(0, r.find('\n')));
      if (t.size() > best.size()) best = t;
    }
    if (best.size() > 60) {
      size_t cut = best.rfind(' ', 60);
      best = best.substr(0, cut == std::string::npos || cut < 20 ? 60 : cut);
    }
    best = Trim(best);
    int alnum = 0;
    for (char c : best)
      if (std::isalpha((unsigned char)c)) ++alnum;
    return alnum >= 8 ? best : "";
  }

  std::optional<std::string> TryCatch(const Hints& h) const {
    if (site_.kind == SiteKind::kLog || site_.dynamic) return std::nullopt;
    std::string frag = StableFragment();
    if (frag.empty()) return std::nullopt;
    std::string cls = site_.kind == SiteKind::kAssert ? "AssertionError" : site_.error_class.value_or("");
    if (cls.empty()) return std::nullopt;
    if (site_.kind == SiteKind::kHttp || site_.kind == SiteKind::kHttpResponse) {
      std::string st = site_.http_status ? std::to_string(*site_.http_status) : "";
      return "# client side: the server answers with HTTP " + (st.empty() ? std::string("an error status") : st) +
             "\nresp = requests.post(url, json=payload)\nif " + (st.empty() ? std::string("resp.status_code >= 400") : "resp.status_code == " + st) +
             " and " + PyQuote(frag) + " in resp.text:\n    ...  # handle this error";
    }
    std::string handle = !h.sentences.empty() ? "  # " + h.sentences[0] : "";
    return "try:\n    ...  # the call that reaches " + site_.function + "\nexcept " + cls + " as e:\n    if " + PyQuote(frag) +
           " not in str(e):\n        raise\n    ...  # handle this error" + handle;
  }

  std::vector<std::string> Tags(const std::vector<const Fact*>& active, const std::string& cls) const {
    std::vector<std::string> tags;
    auto add = [&](std::string t) {
      t = Kebab(t);
      if (t.size() < 2 || t.size() > 40) return;
      if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
    };
    static const std::set<std::string> skip = {"python", "src", "lib", "libs", "srt", "init", "main", "py", "pkg",
                                               "source", "sources", "code", "core", "common", "utils", "util"};
    std::string path = site_.file_path;
    size_t b = 0;
    while (b < path.size()) {
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
    for (const auto* f : active) {
      const Subject& s = f->subj;
      if (s.kind == SubjectKind::kFlag) add(s.flag->dest);
      else if (s.kind == SubjectKind::kField) add(s.field->name);
      else if (s.kind == SubjectKind::kEnv) add(s.env);
      else if (s.kind == SubjectKind::kMissingAttr) { add(FirstComponent(s.module)); add(s.attr); }
      else if (s.kind == SubjectKind::kMissingModule) add(s.module);
      else if (s.kind == SubjectKind::kHardware) add("hardware");
    }
    if (!cls.empty()) add(cls);
    if (tags.size() > 12) tags.resize(12);
    return tags;
  }

 private:
  const Site& site_;
  std::string_view text_;
  FileCache& cache_;
  const Lines& L_;
  const KnowledgeIndex* k_;
  std::string func_name_;
  int def_line_ = 0;
  bool window_mode_ = false;
  std::vector<Fact> facts_;
  std::map<std::string, std::string> own_sets_;  // subject key -> value the site's own branch assigns
};

}  // namespace
}  // namespace doc

void DocumentRecord(const Site& site, std::string_view file_text, const RepoKnowledge& repo, Record* record) {
  doc::Analyzer a(site, file_text, doc::AsIndex(repo));
  a.Fill(record);
}

}  // namespace errdex
