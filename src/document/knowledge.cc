// document/knowledge.cc: collects and merges repository knowledge (knowledge.h).
// Tested by knowledge_test.cc.
#include "document/knowledge.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <regex>

#include "document/py_lex.h"

namespace errdex {

void FileKnowledgeDeleter::operator()(FileKnowledge* k) const { delete k; }

namespace doc {
namespace {

using Toks = std::vector<PyTok>;

bool IsOp(const Toks& t, size_t i, std::string_view op) {
  return i < t.size() && t[i].kind == PyTok::kOp && t[i].text == op;
}
bool IsName(const Toks& t, size_t i, std::string_view name) {
  return i < t.size() && t[i].kind == PyTok::kName && t[i].text == name;
}
bool AtLineStart(const Toks& t, size_t i) { return i == 0 || t[i - 1].kind == PyTok::kNewline; }

size_t Column(std::string_view src, const PyTok& tok) {
  size_t nl = tok.begin == 0 ? std::string_view::npos : src.rfind('\n', tok.begin - 1);
  return nl == std::string_view::npos ? tok.begin : tok.begin - nl - 1;
}

bool IsUpperName(std::string_view s) {
  if (s.empty() || !(std::isupper((unsigned char)s[0]) || s[0] == '_')) return false;
  bool has_alpha = false;
  for (char c : s) {
    if (std::islower((unsigned char)c)) return false;
    if (std::isupper((unsigned char)c)) has_alpha = true;
  }
  return has_alpha && s.size() >= 3;
}

// The text of the call argument list starting at `open` ("(").
struct CallArgs {
  std::vector<std::pair<size_t, size_t>> positional;
  std::map<std::string, std::pair<size_t, size_t>> keywords;
  size_t close = 0;
};

CallArgs ParseCall(const Toks& t, size_t open) {
  CallArgs a;
  a.close = MatchBracket(t, open);
  for (auto [b, e] : SplitTopLevel(t, open + 1, a.close)) {
    if (b >= e) continue;
    if (e - b >= 2 && t[b].kind == PyTok::kName && IsOp(t, b + 1, "="))
      a.keywords[std::string(t[b].text)] = {b + 2, e};
    else
      a.positional.emplace_back(b, e);
  }
  return a;
}

void CollectArgparse(std::string_view path, std::string_view src, const Toks& t, size_t i, KnowledgeData* d) {
  CallArgs a = ParseCall(t, i + 1);
  FlagInfo f;
  for (auto [b, e] : a.positional) {
    std::string v;
    if (StringValue(t, b, e, &v) && !v.empty() && v[0] == '-') f.options.push_back(v);
  }
  if (f.options.empty()) return;  // positional argument: not a flag
  std::string v;
  if (auto it = a.keywords.find("dest"); it != a.keywords.end() && StringValue(t, it->second.first, it->second.second, &v)) {
    f.dest = v;
  } else {
    std::string opt = f.Primary();
    size_t k = opt.find_first_not_of('-');
    f.dest = k == std::string::npos ? opt : opt.substr(k);
    std::replace(f.dest.begin(), f.dest.end(), '-', '_');
  }
  if (auto it = a.keywords.find("choices"); it != a.keywords.end()) {
    auto [b, e] = it->second;
    if (!StringList(t, b, e, &f.choices)) f.choices_expr = std::string(SpanText(src, t, b, e));
  }
  if (auto it = a.keywords.find("default"); it != a.keywords.end()) {
    auto [b, e] = it->second;
    if (StringValue(t, b, e, &v)) {
      f.default_value = v;
      f.default_is_literal = true;
    } else {
      f.default_value = std::string(SpanText(src, t, b, e));
      const std::string& dv = *f.default_value;
      f.default_is_literal = dv == "None" || dv == "True" || dv == "False" ||
                             (!dv.empty() && (std::isdigit((unsigned char)dv[0]) || dv[0] == '-'));
    }
  }
  if (auto it = a.keywords.find("help"); it != a.keywords.end()) StringValue(t, it->second.first, it->second.second, &f.help);
  if (auto it = a.keywords.find("action"); it != a.keywords.end()) StringValue(t, it->second.first, it->second.second, &f.action);
  f.file = std::string(path);
  f.line = t[i].line;
  d->flags.push_back(std::move(f));
}

void AddEnv(std::string_view path, std::string_view src, const Toks& t, size_t name_tok, std::string reader,
            std::pair<size_t, size_t> def, KnowledgeData* d) {
  EnvInfo e;
  if (t[name_tok].kind == PyTok::kString) e.name = t[name_tok].value;
  else e.name = std::string(t[name_tok].text);
  if (e.name.empty() || e.name.size() > 100) return;
  e.reader = std::move(reader);
  if (def.first < def.second) e.default_value = std::string(SpanText(src, t, def.first, def.second));
  e.file = std::string(path);
  e.line = t[name_tok].line;
  d->envs.push_back(std::move(e));
}

void CollectEnv(std::string_view path, std::string_view src, const Toks& t, size_t i, KnowledgeData* d) {
  // os.environ["X"] / os.environ.get("X", d) / os.getenv("X", d)
  if (IsName(t, i, "os") && IsOp(t, i + 1, ".")) {
    if (IsName(t, i + 2, "environ") && IsOp(t, i + 3, "[") && i + 4 < t.size() && t[i + 4].kind == PyTok::kString &&
        IsOp(t, i + 5, "]")) {
      AddEnv(path, src, t, i + 4, "os.environ", {0, 0}, d);
      return;
    }
    size_t call = 0;
    std::string reader;
    if (IsName(t, i + 2, "environ") && IsOp(t, i + 3, ".") && (IsName(t, i + 4, "get") || IsName(t, i + 4, "setdefault")) &&
        IsOp(t, i + 5, "(")) {
      call = i + 5;
      reader = "os.environ";
    } else if (IsName(t, i + 2, "getenv") && IsOp(t, i + 3, "(")) {
      call = i + 3;
      reader = "os.getenv";
    }
    if (call) {
      CallArgs a = ParseCall(t, call);
      if (!a.positional.empty() && t[a.positional[0].first].kind == PyTok::kString &&
          a.positional[0].second == a.positional[0].first + 1)
        AddEnv(path, src, t, a.positional[0].first, reader, a.positional.size() > 1 ? a.positional[1] : std::pair<size_t, size_t>{0, 0}, d);
    }
    return;
  }
  // get_bool_env_var("X", default) and friends.
  if (t[i].kind == PyTok::kName && IsOp(t, i + 1, "(") && t[i].text.find("env") != std::string_view::npos &&
      t[i].text.rfind("get", 0) == 0 && (i == 0 || !IsOp(t, i - 1, "."))) {
    CallArgs a = ParseCall(t, i + 1);
    if (!a.positional.empty() && t[a.positional[0].first].kind == PyTok::kString &&
        a.positional[0].second == a.positional[0].first + 1) {
      std::pair<size_t, size_t> def{0, 0};
      if (a.positional.size() > 1) def = a.positional[1];
      else if (auto it = a.keywords.find("default"); it != a.keywords.end()) def = it->second;
      AddEnv(path, src, t, a.positional[0].first, std::string(t[i].text), def, d);
    }
    return;
  }
  // envs.X
  if (IsName(t, i, "envs") && IsOp(t, i + 1, ".") && i + 2 < t.size() && t[i + 2].kind == PyTok::kName &&
      IsUpperName(t[i + 2].text)) {
    AddEnv(path, src, t, i + 2, "envs", {0, 0}, d);
    return;
  }
  // X = EnvBool(default) at the start of a line inside a class body.
  if (t[i].kind == PyTok::kName && IsUpperName(t[i].text) && AtLineStart(t, i) && Column(src, t[i]) > 0 &&
      IsOp(t, i + 1, "=") && i + 2 < t.size() && t[i + 2].kind == PyTok::kName && t[i + 2].text.rfind("Env", 0) == 0 &&
      IsOp(t, i + 3, "(")) {
    CallArgs a = ParseCall(t, i + 3);
    AddEnv(path, src, t, i, "envs", a.positional.empty() ? std::pair<size_t, size_t>{0, 0} : a.positional[0], d);
  }
}

void CollectDataclass(std::string_view path, std::string_view src, const Toks& t, size_t cls, KnowledgeData* d) {
  // t[cls] is "class"; t[cls+1] its name.
  if (cls + 1 >= t.size() || t[cls + 1].kind != PyTok::kName) return;
  std::string class_name(t[cls + 1].text);
  size_t class_col = Column(src, t[cls]);
  size_t i = cls;
  while (i < t.size() && t[i].kind != PyTok::kNewline && t[i].kind != PyTok::kEnd) ++i;
  size_t body_col = std::string::npos;
  for (++i; i < t.size() && t[i].kind != PyTok::kEnd; ++i) {
    if (!AtLineStart(t, i)) continue;
    size_t col = Column(src, t[i]);
    if (col <= class_col) break;
    if (body_col == std::string::npos) body_col = col;
    if (col != body_col || t[i].kind != PyTok::kName || !IsOp(t, i + 1, ":")) continue;
    FieldInfo f;
    f.class_name = class_name;
    f.name = std::string(t[i].text);
    size_t j = i + 2, type_b = j;
    while (j < t.size() && t[j].kind != PyTok::kNewline && t[j].kind != PyTok::kEnd && !(IsOp(t, j, "=") && t[j].depth == t[i].depth)) ++j;
    f.type = std::string(SpanText(src, t, type_b, j));
    if (IsOp(t, j, "=")) {
      size_t k = j + 1;
      while (k < t.size() && t[k].kind != PyTok::kNewline && t[k].kind != PyTok::kEnd) ++k;
      f.default_value = std::string(SpanText(src, t, j + 1, k));
    }
    f.file = std::string(path);
    f.line = t[i].line;
    d->fields.push_back(std::move(f));
  }
}

bool IsAliasRhs(std::string_view rhs) {
  static const std::regex re(
      "[A-Za-z_]\\w*(\\.[A-Za-z_]\\w*)+|"
      "(getattr|hasattr)\\(.*\\)|"
      "os\\.(environ|getenv).*|"
      "get_\\w*env\\w*\\(.*\\)|"
      "envs\\.[A-Z][A-Z0-9_]+(\\.get\\(\\)|\\.value)?|"
      "[\\w.]*(is|has|supports?)_\\w+\\(\\)|"
      "[\\w.]*find_spec\\(.*\\)");
  // Every alternative needs a '.' or a '(': most right-hand sides (literals,
  // plain names) are rejected without running the regex.
  if (rhs.find_first_of(".(") == std::string_view::npos) return false;
  return rhs.size() <= 160 && rhs.find('\n') == std::string_view::npos && std::regex_match(rhs.begin(), rhs.end(), re);
}

// Function-scope and module-level aliases (knowledge.h, AliasInfo).
void CollectAliases(std::string_view path, std::string_view src, const Toks& t, KnowledgeData* d) {
  struct Scope { size_t col; int line; bool is_def; size_t first_alias; };
  std::vector<Scope> stack;
  auto close_to = [&](size_t col, int line) {
    while (!stack.empty() && stack.back().col >= col) {
      for (size_t k = stack.back().first_alias; k < d->aliases.size(); ++k)
        if (d->aliases[k].def_line == stack.back().line && d->aliases[k].end_line == 0) d->aliases[k].end_line = line - 1;
      stack.pop_back();
    }
  };
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == PyTok::kEnd) break;
    if (!AtLineStart(t, i) || t[i].kind == PyTok::kNewline) continue;
    size_t col = Column(src, t[i]);
    close_to(col, t[i].line);
    size_t k = i;
    if (IsName(t, k, "async")) ++k;
    if (IsName(t, k, "def") || IsName(t, k, "class")) {
      stack.push_back({col, t[i].line, IsName(t, k, "def"), d->aliases.size()});
      continue;
    }
    if (t[i].kind != PyTok::kName || !IsOp(t, i + 1, "=")) continue;
    bool module_level = stack.empty() && col == 0;
    if (!module_level && (stack.empty() || !stack.back().is_def)) continue;
    size_t e = i + 2;
    while (e < t.size() && t[e].kind != PyTok::kNewline && t[e].kind != PyTok::kEnd) ++e;
    std::string_view rhs = SpanText(src, t, i + 2, e);
    if (rhs.empty() || !IsAliasRhs(rhs)) continue;
    AliasInfo a;
    a.file = std::string(path);
    a.def_line = module_level ? 0 : stack.back().line;
    a.end_line = module_level ? std::numeric_limits<int>::max() : 0;
    a.line = t[i].line;
    a.name = std::string(t[i].text);
    a.rhs = std::string(rhs);
    d->aliases.push_back(std::move(a));
  }
  close_to(0, t.empty() ? 1 : t.back().line + 1);
}

bool IsArgumentClass(std::string_view name) {
  for (std::string_view suf : {"Args", "Arguments", "Config", "Options", "Settings", "Params"})
    if (name.size() >= suf.size() && name.substr(name.size() - suf.size()) == suf) return true;
  return false;
}

// "auto" / 'auto' -> auto; anything else unchanged.
std::string Unquote(const std::string& s) {
  if (s.size() >= 2 && (s[0] == '"' || s[0] == '\'') && s.back() == s[0] && s.find(s[0], 1) == s.size() - 1)
    return s.substr(1, s.size() - 2);
  return s;
}

}  // namespace

std::string FlagInfo::Primary() const {
  for (const auto& o : options)
    if (o.rfind("--", 0) == 0) return o;
  return options.empty() ? std::string() : options[0];
}

KnowledgeIndex::KnowledgeIndex(KnowledgeData data) : data_(std::move(data)) {
  for (size_t i = 0; i < data_.fields.size(); ++i)
    if (IsArgumentClass(data_.fields[i].class_name)) field_by_name_.emplace(data_.fields[i].name, i);
  for (size_t i = 0; i < data_.flags.size(); ++i) {
    FlagInfo& f = data_.flags[i];
    // choices=NAME -> a list constant; default=Class.field -> that field's literal default.
    if (f.choices.empty() && !f.choices_expr.empty()) {
      std::string key = f.choices_expr.substr(f.choices_expr.rfind('.') == std::string::npos ? 0 : f.choices_expr.rfind('.') + 1);
      if (auto it = data_.list_constants.find(key); it != data_.list_constants.end()) f.choices = it->second;
    }
    if (f.default_value && !f.default_is_literal) {
      const std::string& dv = *f.default_value;
      size_t dot = dv.rfind('.');
      std::string fname = dot == std::string::npos ? dv : dv.substr(dot + 1);
      if (auto it = field_by_name_.find(fname); it != field_by_name_.end() && data_.fields[it->second].default_value) {
        std::string fd = *data_.fields[it->second].default_value;
        f.default_value = Unquote(fd);
        f.default_is_literal = true;
      }
    }
    flag_by_name_.emplace(f.dest, i);
    for (const auto& o : f.options) flag_by_name_.emplace(o, i);
  }
  for (size_t i = 0; i < data_.aliases.size(); ++i) aliases_by_file_[data_.aliases[i].file].push_back(i);
  for (size_t i = 0; i < data_.envs.size(); ++i) {
    auto [it, inserted] = env_by_name_.emplace(data_.envs[i].name, i);
    if (!inserted && !data_.envs[it->second].default_value && data_.envs[i].default_value) it->second = i;
  }
}

const FlagInfo* KnowledgeIndex::FindFlag(std::string_view name) const {
  auto it = flag_by_name_.find(name);
  return it == flag_by_name_.end() ? nullptr : &data_.flags[it->second];
}
const FieldInfo* KnowledgeIndex::FindField(std::string_view name) const {
  auto it = field_by_name_.find(name);
  return it == field_by_name_.end() ? nullptr : &data_.fields[it->second];
}
const EnvInfo* KnowledgeIndex::FindEnv(std::string_view name) const {
  auto it = env_by_name_.find(name);
  return it == env_by_name_.end() ? nullptr : &data_.envs[it->second];
}

const AliasInfo* KnowledgeIndex::FindAlias(std::string_view file, std::string_view name, int line) const {
  auto it = aliases_by_file_.find(file);
  if (it == aliases_by_file_.end()) return nullptr;
  const AliasInfo* best = nullptr;
  for (size_t i : it->second) {
    const AliasInfo& a = data_.aliases[i];
    if (a.name != name || a.line >= line || a.def_line > line || a.end_line < line) continue;
    // Function scope beats module level; then the latest assignment.
    if (!best || a.def_line > best->def_line || (a.def_line == best->def_line && a.line > best->line)) best = &a;
  }
  return best;
}

namespace {
// `class Name(pkg.Base, Mixin, metaclass=M):` -> class_bases[Name] = "Base".
void CollectClassBase(const Toks& t, size_t i, KnowledgeData* d) {
  if (i + 2 >= t.size() || t[i + 1].kind != PyTok::kName || !IsOp(t, i + 2, "(")) return;
  size_t close = MatchBracket(t, i + 2);
  std::string base;
  for (size_t j = i + 3; j < close; ++j) {
    if (t[j].kind == PyTok::kName && (IsOp(t, j + 1, ".") || IsOp(t, j + 1, ",") || j + 1 == close)) {
      base = std::string(t[j].text);
      if (!IsOp(t, j + 1, ".")) break;  // the first base, its last dotted component
      ++j;
      continue;
    }
    break;  // a call, a subscript (Generic[T]) or a keyword: no plain first base
  }
  if (!base.empty() && base != t[i + 1].text) d->class_bases.emplace(std::string(t[i + 1].text), std::move(base));
}
}  // namespace

std::string KnowledgeIndex::ExternalBase(std::string_view name, std::string_view file) const {
  auto local = data_.file_class_bases.find(std::string(file));
  std::string cur(name);
  for (int depth = 0; depth < 16; ++depth) {  // bounded: `class A(B)` / `class B(A)` loops
    const std::string* base = nullptr;
    if (local != data_.file_class_bases.end()) {
      auto it = local->second.find(cur);
      if (it != local->second.end()) base = &it->second;
    }
    if (!base) {
      auto it = data_.class_bases.find(cur);
      if (it != data_.class_bases.end()) base = &it->second;
    }
    if (!base) return depth == 0 ? "" : cur;
    cur = *base;
  }
  return "";
}

std::string KnowledgeIndex::Serialize() const {
  using nlohmann::json;
  json j;
  j["version"] = 1;
  json flags = json::array();
  for (const auto& f : data_.flags) {
    json o{{"options", f.options}, {"dest", f.dest}, {"choices", f.choices}, {"choicesExpr", f.choices_expr},
           {"help", f.help}, {"action", f.action}, {"file", f.file}, {"line", f.line},
           {"defaultIsLiteral", f.default_is_literal}};
    o["default"] = f.default_value ? json(*f.default_value) : json(nullptr);
    flags.push_back(std::move(o));
  }
  json fields = json::array();
  for (const auto& f : data_.fields) {
    json o{{"class", f.class_name}, {"name", f.name}, {"type", f.type}, {"file", f.file}, {"line", f.line}};
    o["default"] = f.default_value ? json(*f.default_value) : json(nullptr);
    fields.push_back(std::move(o));
  }
  json envs = json::array();
  for (const auto& e : data_.envs) {
    json o{{"name", e.name}, {"reader", e.reader}, {"file", e.file}, {"line", e.line}};
    o["default"] = e.default_value ? json(*e.default_value) : json(nullptr);
    envs.push_back(std::move(o));
  }
  j["flags"] = std::move(flags);
  j["fields"] = std::move(fields);
  j["envs"] = std::move(envs);
  j["listConstants"] = data_.list_constants;
  j["classBases"] = data_.class_bases;
  j["fileClassBases"] = data_.file_class_bases;
  json aliases = json::array();
  for (const auto& a : data_.aliases)
    aliases.push_back({{"file", a.file}, {"def", a.def_line}, {"end", a.end_line}, {"line", a.line}, {"name", a.name}, {"rhs", a.rhs}});
  j["aliases"] = std::move(aliases);
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

const KnowledgeIndex* AsIndex(const RepoKnowledge& k) { return dynamic_cast<const KnowledgeIndex*>(&k); }

}  // namespace doc

FileKnowledgePtr CollectFileKnowledge(std::string_view path, std::string_view text) {
  using namespace doc;
  FileKnowledgePtr fk(new FileKnowledge());
  fk->path = std::string(path);
  KnowledgeData* d = &fk->data;
  // One token buffer per thread, reused from file to file (a fresh vector per
  // file cost page faults and reallocations).
  static thread_local Toks buf;
  LexPythonInto(text, &buf);
  const Toks& t = buf;
  CollectAliases(path, text, t, d);
  bool pending_dataclass = false;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind != PyTok::kName) {
      if (IsOp(t, i, "@") && AtLineStart(t, i)) {
        for (size_t j = i + 1; j < t.size() && t[j].kind != PyTok::kNewline && t[j].kind != PyTok::kEnd; ++j)
          if (IsName(t, j, "dataclass")) pending_dataclass = true;
      }
      continue;
    }
    if (t[i].text == "class" && AtLineStart(t, i)) {
      CollectClassBase(t, i, d);
      if (pending_dataclass) CollectDataclass(path, text, t, i, d);
      pending_dataclass = false;
    } else if (t[i].text == "def" && AtLineStart(t, i)) {
      pending_dataclass = false;
    }
    if (t[i].text == "add_argument" && IsOp(t, i + 1, "(")) CollectArgparse(path, text, t, i, d);
    // NAME = [ "a", "b" ] at column 0.
    bool col0 = t[i].begin == 0 || text[t[i].begin - 1] == '\n';
    if (AtLineStart(t, i) && col0 && IsOp(t, i + 1, "=") && (IsOp(t, i + 2, "[") || IsOp(t, i + 2, "("))) {
      size_t close = MatchBracket(t, i + 2);
      std::vector<std::string> vals;
      if (close + 1 < t.size() && t[close + 1].kind == PyTok::kNewline && StringList(t, i + 2, close + 1, &vals))
        d->list_constants.emplace(std::string(t[i].text), std::move(vals));
    }
    CollectEnv(path, text, t, i, d);
  }
  if (buf.capacity() > (size_t{1} << 20)) Toks().swap(buf);  // do not keep a huge file's tokens
  else buf.clear();
  return fk;
}

std::unique_ptr<RepoKnowledge> RepoKnowledge::Build(std::vector<FileKnowledgePtr> files) {
  std::sort(files.begin(), files.end(), [](const FileKnowledgePtr& a, const FileKnowledgePtr& b) {
    if (!a || !b) return !!a;
    return a->path < b->path;
  });
  doc::KnowledgeData all;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> definitions;  // class -> (file, base)
  for (const auto& f : files) {
    if (!f) continue;
    auto& d = f->data;
    all.flags.insert(all.flags.end(), d.flags.begin(), d.flags.end());
    all.fields.insert(all.fields.end(), d.fields.begin(), d.fields.end());
    all.envs.insert(all.envs.end(), d.envs.begin(), d.envs.end());
    all.aliases.insert(all.aliases.end(), d.aliases.begin(), d.aliases.end());
    for (const auto& [k, v] : d.list_constants) all.list_constants.emplace(k, v);
    for (const auto& [k, v] : d.class_bases) definitions[k].emplace_back(f->path, v);
  }
  for (auto& [name, defs] : definitions) {
    bool agree = std::all_of(defs.begin(), defs.end(), [&](const auto& d) { return d.second == defs[0].second; });
    if (agree) all.class_bases.emplace(name, defs[0].second);
    else
      for (auto& [file, base] : defs) all.file_class_bases[file].emplace(name, base);
  }
  return std::make_unique<doc::KnowledgeIndex>(std::move(all));
}

std::unique_ptr<RepoKnowledge> RepoKnowledge::Deserialize(std::string_view text) {
  using nlohmann::json;
  doc::KnowledgeData d;
  try {
    json j = json::parse(text);
    auto opt_str = [](const json& o, const char* k) -> std::optional<std::string> {
      if (!o.contains(k) || o[k].is_null()) return std::nullopt;
      return o[k].get<std::string>();
    };
    for (const auto& o : j.value("flags", json::array())) {
      doc::FlagInfo f;
      f.options = o.value("options", std::vector<std::string>{});
      f.dest = o.value("dest", "");
      f.choices = o.value("choices", std::vector<std::string>{});
      f.choices_expr = o.value("choicesExpr", "");
      f.help = o.value("help", "");
      f.action = o.value("action", "");
      f.file = o.value("file", "");
      f.line = o.value("line", 0);
      f.default_is_literal = o.value("defaultIsLiteral", false);
      f.default_value = opt_str(o, "default");
      d.flags.push_back(std::move(f));
    }
    for (const auto& o : j.value("fields", json::array())) {
      doc::FieldInfo f;
      f.class_name = o.value("class", "");
      f.name = o.value("name", "");
      f.type = o.value("type", "");
      f.file = o.value("file", "");
      f.line = o.value("line", 0);
      f.default_value = opt_str(o, "default");
      d.fields.push_back(std::move(f));
    }
    for (const auto& o : j.value("envs", json::array())) {
      doc::EnvInfo e;
      e.name = o.value("name", "");
      e.reader = o.value("reader", "");
      e.file = o.value("file", "");
      e.line = o.value("line", 0);
      e.default_value = opt_str(o, "default");
      d.envs.push_back(std::move(e));
    }
    for (const auto& o : j.value("aliases", json::array())) {
      doc::AliasInfo a;
      a.file = o.value("file", "");
      a.def_line = o.value("def", 0);
      a.end_line = o.value("end", 0);
      a.line = o.value("line", 0);
      a.name = o.value("name", "");
      a.rhs = o.value("rhs", "");
      d.aliases.push_back(std::move(a));
    }
    d.list_constants = j.value("listConstants", std::map<std::string, std::vector<std::string>>{});
    d.class_bases = j.value("classBases", std::map<std::string, std::string>{});
    d.file_class_bases =
        j.value("fileClassBases", std::map<std::string, std::map<std::string, std::string>>{});
  } catch (const std::exception&) {
    d = doc::KnowledgeData();  // unreadable blob: document from the window alone
  }
  return std::make_unique<doc::KnowledgeIndex>(std::move(d));
}

}  // namespace errdex
