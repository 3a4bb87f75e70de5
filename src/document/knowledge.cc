// document/knowledge.cc: per-file collection (CollectFileFacts), the merge
// (RepoKnowledge::Build), the lookups, and the blob's JSON. Tested by
// knowledge_test.cc and tests/document_e2e_test.cc (scan vs document).
#include "document/knowledge.h"

#include <xxhash.h>

#include <algorithm>
#include <set>
#include <nlohmann/json.hpp>

#include "document/brace_context.h"
#include "document/file_index.h"
#include "document/json_dump.h"
#include "document/py_tokens.h"
#include "document/text.h"
#include "model/json_bounded.h"

namespace errdex {

void FileKnowledgeDeleter::operator()(FileKnowledge* k) const { delete k; }

void DocDeps::Add(std::string_view kind, std::string_view name) { used.emplace_back(std::string(kind), std::string(name)); }

namespace {

bool IsPythonPath(std::string_view path) { return doc::EndsWith(path, ".py") || doc::EndsWith(path, ".pyi"); }

}  // namespace

FileFacts CollectFileFacts(std::string_view path, std::string_view text, const std::vector<const Site*>& sites,
                           py::Tokens* tokens) {
  FileFacts out;
  out.knowledge.reset(new FileKnowledge());
  out.knowledge->path = std::string(path);
  out.contexts.resize(sites.size());
  if (text.size() >= 0xFFFFFFF0u) return out;
  if (!IsPythonPath(path)) {
    doc::CollectBraceSettings(path, text, &out.knowledge->data);
    // Other languages: the context of each site from the text around it (brace_context.h).
    if (sites.empty()) return out;
    std::unique_ptr<doc::BraceFile> file;
    for (size_t i = 0; i < sites.size(); ++i) {
      if (!sites[i] || sites[i]->language == "python") continue;
      if (!file) file = std::make_unique<doc::BraceFile>(text, sites[i]->language);
      out.contexts[i] = file->Gather(*sites[i]);
    }
    return out;
  }
  doc::Toks toks = tokens ? doc::Toks::FromTokens(text, std::move(*tokens)) : doc::Toks::File(text);
  doc::CollectSettings(path, toks, &out.knowledge->data);
  if (!sites.empty()) {
    doc::FileIndex::Wanted wanted = doc::FileIndex::WantedBy(sites);
    doc::FileIndex index(toks, &wanted);
    for (size_t i = 0; i < sites.size(); ++i)
      if (sites[i] && sites[i]->language == "python") out.contexts[i] = index.Gather(*sites[i]);
  }
  return out;
}

FileKnowledgePtr CollectFileKnowledge(std::string_view path, std::string_view text) {
  return std::move(CollectFileFacts(path, text, {}).knowledge);
}

namespace doc {
namespace {

// The top directory of `path` when it holds scripts rather than the library
// (examples/, scripts/, benchmarks/, tests/, docs/ ...), else "".
std::string_view ScriptTree(std::string_view path) {
  std::string_view top = path.substr(0, path.find('/'));
  if (top.size() == path.size()) return {};
  static constexpr std::string_view kTrees[] = {"examples", "example", "scripts", "script", "benchmarks", "benchmark",
                                                "bench", "benches", "tests", "test", "testing", "docs", "doc", "demo",
                                                "demos", "tutorials", "tutorial", "notebooks", "recipes", "cookbook"};
  for (std::string_view t : kTrees)
    if (top == t) return top;
  return {};
}


bool IsSettingsClass(std::string_view name) {
  for (std::string_view suf : {"Args", "Arguments", "Config", "Options", "Settings", "Params", "Configuration"})
    if (EndsWith(name, suf)) return true;
  return false;
}

}  // namespace

KnowledgeIndex::KnowledgeIndex(SettingsData data, std::map<std::string, std::map<std::string, std::string>> fcb)
    : data_(std::move(data)), file_class_bases_(std::move(fcb)) {
  std::set<std::string> settings_classes(data_.settings_classes.begin(), data_.settings_classes.end());
  for (size_t i = 0; i < data_.fields.size(); ++i) {
    const ConfigField& f = data_.fields[i];
    if (IsSettingsClass(f.class_name) || settings_classes.count(f.class_name)) fields_by_name_[f.name].push_back(i);
  }
  for (size_t i = 0; i < data_.flags.size(); ++i) {
    const Flag& f = data_.flags[i];
    // Another language's flags under "<language>:<name>" (FindFlagFor): a Rust router's
    // --workers is not the Python server's.
    std::string lang = f.Language().empty() ? "" : std::string(f.Language()) + ":";
    // One name defined both by a script (examples/...) and by the library: the library's.
    auto put = [&](std::string key) {
      auto [it, inserted] = flag_by_name_.emplace(std::move(key), i);
      if (!inserted && !ScriptTree(data_.flags[it->second].file).empty() && ScriptTree(f.file).empty()) it->second = i;
    };
    put(lang + f.dest);
    flags_by_dest_[lang + f.dest].push_back(i);
    for (const auto& o : f.options) put(lang + o);
    if (!f.negative.empty()) put(lang + f.negative);
  }
  for (size_t i = 0; i < data_.envs.size(); ++i) {
    auto [it, inserted] = env_by_name_.emplace(data_.envs[i].name, i);
    if (inserted) continue;
    EnvVar& kept = data_.envs[it->second];
    // One variable read in several places: keep the first reader, fill what it lacks.
    if (!kept.default_value && data_.envs[i].default_value) kept.default_value = data_.envs[i].default_value;
    if (kept.type.empty()) kept.type = data_.envs[i].type;
  }
}

const Flag* KnowledgeIndex::FindFlag(std::string_view name, DocDeps* deps) const {
  if (deps) deps->Add("flag", name);
  auto it = flag_by_name_.find(name);
  return it == flag_by_name_.end() ? nullptr : &data_.flags[it->second];
}
const Flag* KnowledgeIndex::FindFlagFor(std::string_view language, std::string_view name, DocDeps* deps) const {
  if (language.empty() || language == "python") return FindFlag(name, deps);
  return FindFlag(std::string(language) + ":" + std::string(name), deps);
}
const Flag* KnowledgeIndex::FindFlagFrom(std::string_view language, std::string_view name, std::string_view file,
                                         DocDeps* deps) const {
  const Flag* any = FindFlagFor(language, name, deps);  // also records the dependency
  if (!any || any->file == file) return any;
  std::string key = (language.empty() || language == "python" ? "" : std::string(language) + ":") + std::string(name);
  if (const Flag* own = FlagInFile(key, file)) return own;
  if (FlagFileReaches(any->file, file)) return any;
  if (auto d = flags_by_dest_.find(key); d != flags_by_dest_.end())
    for (size_t i : d->second)
      if (FlagFileReaches(data_.flags[i].file, file)) return &data_.flags[i];
  // Only scripts define it. When the library has a settings field of that name (a
  // config class the user builds: `LoraConfig(target_modules=...)`), that is what
  // the code means; else the scripts' flag is the best word for it (a plugin's
  // examples repeat the host program's `--enforce-eager`).
  if (deps) deps->Add("field", name);
  return LibraryField(name) ? nullptr : any;
}

bool KnowledgeIndex::LibraryField(std::string_view name) const {
  if (auto f = fields_by_name_.find(name); f != fields_by_name_.end())
    for (size_t i : f->second)
      if (ScriptTree(data_.fields[i].file).empty()) return true;
  return false;
}

bool InScriptTree(std::string_view path) { return !ScriptTree(path).empty(); }

bool FlagFileReaches(std::string_view flag_file, std::string_view file) {
  std::string_view tree = ScriptTree(flag_file);
  return tree.empty() || ScriptTree(file) == tree;
}
const Flag* KnowledgeIndex::FindFieldFlag(std::string_view language, std::string_view field, std::string_view file,
                                          DocDeps* deps) const {
  const Flag* any = FindFlagFor(language, field, deps);  // also records the dependency
  if (!any || any->file == file) return any;
  const Flag* own = FlagInFile(std::string(language) + ":" + std::string(field), file);
  return own ? own : any;
}
const Flag* KnowledgeIndex::FlagInFile(const std::string& lang_dest, std::string_view file) const {
  if (auto d = flags_by_dest_.find(lang_dest); d != flags_by_dest_.end())
    for (size_t i : d->second)
      if (data_.flags[i].file == file) return &data_.flags[i];
  return nullptr;
}
const ConfigField* KnowledgeIndex::FindField(std::string_view name, DocDeps* deps) const {
  if (deps) deps->Add("field", name);
  auto it = fields_by_name_.find(name);
  return it == fields_by_name_.end() ? nullptr : &data_.fields[it->second.front()];
}
const ConfigField* KnowledgeIndex::FindFieldFrom(std::string_view name, std::string_view file,
                                                 std::string_view class_name, DocDeps* deps) const {
  if (deps) deps->Add("field", name);
  auto it = fields_by_name_.find(name);
  if (it == fields_by_name_.end()) return nullptr;
  // Else the reaching one nearest `file` in the tree: ia3/model.py's `peft_config.target_modules`
  // is ia3/config.py's IA3Config, not the first of forty configs with that field.
  auto shared_dirs = [&](std::string_view a) {
    size_t n = 0;
    for (size_t i = 0; i < a.size() && i < file.size() && a[i] == file[i]; ++i)
      if (a[i] == '/') ++n;
    return n;
  };
  const ConfigField* reaching = nullptr;
  size_t nearest = 0;
  for (size_t i : it->second) {
    const ConfigField& f = data_.fields[i];
    if (!class_name.empty() && f.class_name == class_name && f.file == file) return &f;
    if (!FlagFileReaches(f.file, file)) continue;
    size_t d = shared_dirs(f.file);
    if (!reaching || d > nearest) reaching = &f, nearest = d;
  }
  // `self.r` in a subclass: the field its nearest base class declares
  // (AdaLoraConfig(LoraConfig) reads LoraConfig's `r`, not another config's).
  if (!class_name.empty()) {
    if (deps) deps->Add("class", class_name);  // its hash covers the chain of bases
    std::vector<std::string> chain = Bases(class_name);
    chain.insert(chain.begin(), std::string(class_name));
    for (const std::string& c : chain)
      for (size_t i : it->second)
        if (data_.fields[i].class_name == c) return &data_.fields[i];
  }
  return reaching;
}
const EnvVar* KnowledgeIndex::FindEnv(std::string_view name, DocDeps* deps) const {
  if (deps) deps->Add("env", name);
  auto it = env_by_name_.find(name);
  return it == env_by_name_.end() ? nullptr : &data_.envs[it->second];
}

std::string KnowledgeIndex::ExternalBase(std::string_view name, std::string_view file, DocDeps* deps) const {
  if (deps) deps->Add("class", name);
  auto local = file_class_bases_.find(std::string(file));
  std::string cur(name);
  for (int depth = 0; depth < 16; ++depth) {  // bounded: `class A(B)` / `class B(A)` loops
    const std::string* base = nullptr;
    if (local != file_class_bases_.end()) {
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

std::vector<std::string> KnowledgeIndex::Bases(std::string_view name) const {
  std::vector<std::string> out;
  std::string cur(name);
  for (int depth = 0; depth < 16; ++depth) {  // bounded: `class A(B)` / `class B(A)` loops
    auto b = data_.class_bases.find(cur);
    if (b == data_.class_bases.end()) break;
    cur = b->second;
    out.push_back(cur);
  }
  return out;
}

const SiteContext* KnowledgeIndex::StoredContext(std::string_view id) const {
  auto it = sites_.find(id);
  return it == sites_.end() ? nullptr : &it->second;
}

namespace {

using nlohmann::json;

json OptStr(const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); }
std::optional<std::string> GetOpt(const json& o, const char* k) {
  if (!o.contains(k) || o[k].is_null()) return std::nullopt;
  return o[k].get<std::string>();
}

json FlagJson(const Flag& f) {
  json o = {{"options", f.options}, {"dest", f.dest}, {"type", f.type}, {"choices", f.choices},
            {"choicesFrom", f.choices_from}, {"default", OptStr(f.default_value)}, {"defaultIsLiteral", f.default_is_literal},
            {"action", f.action}, {"nargs", f.nargs}, {"help", f.help}, {"origin", f.origin}, {"file", f.file}, {"line", f.line}};
  if (!f.negative.empty()) o["negative"] = f.negative;
  if (!f.env.empty()) o["env"] = f.env;
  if (!f.class_name.empty()) o["className"] = f.class_name;
  return o;
}
Flag FlagFrom(const json& o) {
  Flag f;
  f.options = o.value("options", std::vector<std::string>{});
  f.negative = o.value("negative", "");
  f.dest = o.value("dest", "");
  f.type = o.value("type", "");
  f.choices = o.value("choices", std::vector<std::string>{});
  f.choices_from = o.value("choicesFrom", "");
  f.default_value = GetOpt(o, "default");
  f.default_is_literal = o.value("defaultIsLiteral", false);
  f.action = o.value("action", "");
  f.nargs = o.value("nargs", "");
  f.help = o.value("help", "");
  f.origin = o.value("origin", "");
  f.env = o.value("env", "");
  f.class_name = o.value("className", "");
  f.file = o.value("file", "");
  f.line = IntFieldOr(o, "line", 0);
  return f;
}
json EnvJson(const EnvVar& e) {
  json o = {{"name", e.name}, {"type", e.type}, {"default", OptStr(e.default_value)}, {"reader", e.reader},
            {"file", e.file}, {"line", e.line}};
  if (!e.choices.empty()) o["choices"] = e.choices;
  return o;
}
EnvVar EnvFrom(const json& o) {
  EnvVar e;
  e.name = o.value("name", "");
  e.type = o.value("type", "");
  e.default_value = GetOpt(o, "default");
  e.choices = o.value("choices", std::vector<std::string>{});
  e.reader = o.value("reader", "");
  e.file = o.value("file", "");
  e.line = IntFieldOr(o, "line", 0);
  return e;
}
json FieldJson(const ConfigField& f) {
  json o = {{"class", f.class_name}, {"name", f.name}, {"type", f.type}, {"default", OptStr(f.default_value)},
            {"file", f.file}, {"line", f.line}};
  if (!f.choices.empty()) o["choices"] = f.choices, o["choicesFrom"] = f.choices_from;
  if (!f.help.empty()) o["help"] = f.help;
  return o;
}
ConfigField FieldFrom(const json& o) {
  ConfigField f;
  f.class_name = o.value("class", "");
  f.name = o.value("name", "");
  f.type = o.value("type", "");
  f.default_value = GetOpt(o, "default");
  f.choices = o.value("choices", std::vector<std::string>{});
  f.choices_from = o.value("choicesFrom", "");
  f.help = o.value("help", "");
  f.file = o.value("file", "");
  f.line = IntFieldOr(o, "line", 0);
  return f;
}

json SettingsObject(const SettingsData& d) {
  json flags = json::array(), envs = json::array();
  for (const auto& f : d.flags) flags.push_back(FlagJson(f));
  for (const auto& e : d.envs) envs.push_back(EnvJson(e));
  return json{{"flags", std::move(flags)}, {"envs", std::move(envs)}};
}

// The blob's writers: the same members as FlagJson, EnvJson and FieldJson above,
// written directly (json_dump.h: the same bytes as their dump, without the DOM).
void AppendFlag(std::string& out, const Flag& f) {
  namespace jd = jsondump;
  jd::Object o;
  jd::StringArray(o.Member("options"), f.options);
  jd::String(o.Member("dest"), f.dest);
  jd::String(o.Member("type"), f.type);
  jd::StringArray(o.Member("choices"), f.choices);
  jd::String(o.Member("choicesFrom"), f.choices_from);
  jd::OptString(o.Member("default"), f.default_value);
  jd::Bool(o.Member("defaultIsLiteral"), f.default_is_literal);
  jd::String(o.Member("action"), f.action);
  jd::String(o.Member("nargs"), f.nargs);
  jd::String(o.Member("help"), f.help);
  jd::String(o.Member("origin"), f.origin);
  jd::String(o.Member("file"), f.file);
  jd::Int(o.Member("line"), f.line);
  if (!f.negative.empty()) jd::String(o.Member("negative"), f.negative);
  if (!f.env.empty()) jd::String(o.Member("env"), f.env);
  if (!f.class_name.empty()) jd::String(o.Member("className"), f.class_name);
  o.AppendTo(out);
}
void AppendEnv(std::string& out, const EnvVar& e) {
  namespace jd = jsondump;
  jd::Object o;
  jd::String(o.Member("name"), e.name);
  jd::String(o.Member("type"), e.type);
  jd::OptString(o.Member("default"), e.default_value);
  jd::String(o.Member("reader"), e.reader);
  jd::String(o.Member("file"), e.file);
  jd::Int(o.Member("line"), e.line);
  if (!e.choices.empty()) jd::StringArray(o.Member("choices"), e.choices);
  o.AppendTo(out);
}
void AppendField(std::string& out, const ConfigField& f) {
  namespace jd = jsondump;
  jd::Object o;
  jd::String(o.Member("class"), f.class_name);
  jd::String(o.Member("name"), f.name);
  jd::String(o.Member("type"), f.type);
  jd::OptString(o.Member("default"), f.default_value);
  jd::String(o.Member("file"), f.file);
  jd::Int(o.Member("line"), f.line);
  if (!f.choices.empty()) {
    jd::StringArray(o.Member("choices"), f.choices);
    jd::String(o.Member("choicesFrom"), f.choices_from);
  }
  if (!f.help.empty()) jd::String(o.Member("help"), f.help);
  o.AppendTo(out);
}
template <typename T, typename F>
void AppendArray(std::string& out, const std::vector<T>& v, F append) {
  out.push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out.push_back(',');
    append(out, v[i]);
  }
  out.push_back(']');
}

}  // namespace

std::string KnowledgeIndex::SettingsJson() const {
  return SettingsObject(data_).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string KnowledgeIndex::Serialize(const std::vector<std::pair<std::string, const SiteContext*>>& sites) const {
  std::string chunk;
  RepoKnowledge::AppendSiteContexts(&chunk, sites);
  return SerializeChunks({chunk});
}

std::string KnowledgeIndex::SerializeChunks(const std::vector<std::string>& site_chunks) const {
  // {"knowledge":{...},"settings":{"envs":[...],"flags":[...]},"version":2}: the
  // members in nlohmann's key order, as the DOM this replaced dumped them.
  namespace jd = jsondump;
  std::string out = "{\"knowledge\":";
  {
    jd::Object k;
    AppendArray(k.Member("fields"), data_.fields, AppendField);
    jd::StringListMap(k.Member("listConstants"), data_.list_constants);
    jd::StringListMap(k.Member("literalAliases"), data_.literal_aliases);
    std::string& enums = k.Member("enums");
    enums.push_back('{');
    bool first = true;
    for (const auto& [name, members] : data_.enums) {
      if (!first) enums.push_back(',');
      first = false;
      jd::String(enums, name);
      enums.push_back(':');
      AppendArray(enums, members, [](std::string& o, const std::pair<std::string, std::string>& m) {
        o.push_back('[');
        jd::String(o, m.first);
        o.push_back(',');
        jd::String(o, m.second);
        o.push_back(']');
      });
    }
    enums.push_back('}');
    jd::StringMap(k.Member("envPrefixes"), data_.env_prefixes);
    jd::StringArray(k.Member("settingsClasses"), data_.settings_classes);
    jd::StringMap(k.Member("classBases"), data_.class_bases);
    // Only when there are some: the blobs of repositories without any stay as they were.
    if (!data_.requirement_constants.empty()) jd::StringMap(k.Member("requirementConstants"), data_.requirement_constants);
    std::string& fcb = k.Member("fileClassBases");
    fcb.push_back('{');
    first = true;
    for (const auto& [file, bases] : file_class_bases_) {
      if (!first) fcb.push_back(',');
      first = false;
      jd::String(fcb, file);
      fcb.push_back(':');
      jd::StringMap(fcb, bases);
    }
    fcb.push_back('}');
    k.AppendTo(out);
  }
  out += ",\"settings\":{\"envs\":";
  AppendArray(out, data_.envs, AppendEnv);
  out += ",\"flags\":";
  AppendArray(out, data_.flags, AppendFlag);
  out += "},\"version\":2}";
  // The sites' contexts: written directly (there can be 10^5 of them).
  size_t total = out.size() + 16;
  for (const auto& c : site_chunks) total += c.size() + 1;
  out.reserve(total);
  out.pop_back();  // the closing '}'
  out += ",\"sites\":{";
  bool first = true;
  for (const auto& c : site_chunks) {
    if (c.empty()) continue;
    if (!first) out += ',';
    first = false;
    out += c;
  }
  out += "}}";
  return out;
}

uint64_t KnowledgeIndex::HashDeps(const DocDeps& deps) const {
  XXH64_state_t* st = XXH64_createState();
  XXH64_reset(st, 0);
  auto feed = [&](const std::string& s) {
    XXH64_update(st, s.data(), s.size());
    XXH64_update(st, "\0", 1);
  };
  for (const auto& [kind, name] : deps.used) {
    feed(kind);
    feed(name);
    // An entry as the blob writes it (the same bytes as its FlagJson/... dump,
    // which variants stored by earlier scans were hashed from).
    std::string v = "miss";
    // Every definition of a name defined more than once: FindFlagFrom and
    // FindFieldFrom pick among them by the site's file, so a change to any of them
    // may change the prose (one definition hashes as it always did).
    if (kind == "flag") {
      if (const Flag* f = FindFlag(name)) v.clear(), AppendFlag(v, *f);
      if (auto d = flags_by_dest_.find(name); d != flags_by_dest_.end() && d->second.size() > 1)
        for (size_t i : d->second) v += '\n', v += data_.flags[i].file, AppendFlag(v, data_.flags[i]);
    } else if (kind == "field") {
      if (const ConfigField* f = FindField(name)) v.clear(), AppendField(v, *f);
      if (auto d = fields_by_name_.find(name); d != fields_by_name_.end() && d->second.size() > 1)
        for (size_t i : d->second) v += '\n', v += data_.fields[i].file, AppendField(v, data_.fields[i]);
    } else if (kind == "env") {
      if (const EnvVar* e = FindEnv(name)) v.clear(), AppendEnv(v, *e);
    } else if (kind == "requirement") {
      if (auto r = data_.requirement_constants.find(name); r != data_.requirement_constants.end()) v = r->second;
    } else if (kind == "class") {
      v = ExternalBase(name);
      for (const std::string& base : Bases(name)) v += '<', v += base;  // FindFieldFrom walks them
    }
    feed(v);
  }
  uint64_t h = XXH64_digest(st);
  XXH64_freeState(st);
  return h;
}

std::string KnowledgeIndex::ConsultedJson(const DocDeps& deps) const {
  json out = json::array();
  for (const auto& [kind, name] : deps.used) {
    json e;
    if (kind == "flag") {
      if (const Flag* f = FindFlag(name)) e = FlagJson(*f);
    } else if (kind == "field") {
      if (const ConfigField* f = FindField(name)) e = FieldJson(*f);
    } else if (kind == "env") {
      if (const EnvVar* v = FindEnv(name)) e = EnvJson(*v);
    }
    if (e.is_null()) continue;
    e["kind"] = kind;
    out.push_back(std::move(e));
  }
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

const KnowledgeIndex* AsIndex(const RepoKnowledge& k) { return dynamic_cast<const KnowledgeIndex*>(&k); }

}  // namespace doc

void RepoKnowledge::AppendSiteContexts(std::string* out, const std::vector<std::pair<std::string, const SiteContext*>>& sites) {
  for (const auto& [id, ctx] : sites) {
    if (!ctx || !ctx->known) continue;
    if (!out->empty()) *out += ',';
    AppendJsonString(*out, id);
    *out += ':';
    *out += SiteContextToJson(*ctx);
  }
}

std::unique_ptr<RepoKnowledge> RepoKnowledge::Build(std::vector<FileKnowledgePtr> files) {
  std::sort(files.begin(), files.end(), [](const FileKnowledgePtr& a, const FileKnowledgePtr& b) {
    if (!a || !b) return !!a;
    return a->path < b->path;
  });
  std::vector<doc::SettingsData*> parts;  // moved into the merge: `files` is discarded after it
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> definitions;  // class -> (file, base)
  for (auto& f : files) {
    if (!f) continue;
    parts.push_back(&f->data);
    for (const auto& [k, v] : f->data.class_bases) definitions[k].emplace_back(f->path, v);
  }
  doc::SettingsData all = doc::MergeSettings(parts);
  all.class_bases.clear();
  std::map<std::string, std::map<std::string, std::string>> file_class_bases;
  for (auto& [name, defs] : definitions) {
    const std::string& first_base = defs[0].second;  // (clang 14 cannot capture a structured binding)
    bool agree = std::all_of(defs.begin(), defs.end(), [&](const auto& d) { return d.second == first_base; });
    if (agree) all.class_bases.emplace(name, defs[0].second);
    else
      for (auto& [file, base] : defs) file_class_bases[file].emplace(name, base);
  }
  return std::make_unique<doc::KnowledgeIndex>(std::move(all), std::move(file_class_bases));
}

std::unique_ptr<RepoKnowledge> RepoKnowledge::Deserialize(std::string_view text) {
  using nlohmann::json;
  doc::SettingsData d;
  std::map<std::string, std::map<std::string, std::string>> fcb;
  std::map<std::string, SiteContext, std::less<>> sites;
  json j = ParseJsonBounded(text);  // nesting bounded: copies and dumps below recurse
  if (!j.is_discarded() && j.is_object() && IntFieldOr(j, "version", 0) == 2) {
    try {
      const json& s = j.at("settings");
      for (const auto& o : s.value("flags", json::array())) d.flags.push_back(doc::FlagFrom(o));
      for (const auto& o : s.value("envs", json::array())) d.envs.push_back(doc::EnvFrom(o));
      const json& k = j.at("knowledge");
      for (const auto& o : k.value("fields", json::array())) d.fields.push_back(doc::FieldFrom(o));
      d.list_constants = k.value("listConstants", std::map<std::string, std::vector<std::string>>{});
      d.literal_aliases = k.value("literalAliases", std::map<std::string, std::vector<std::string>>{});
      const json enums = k.value("enums", json::object());  // items() must not outlive it
      for (const auto& [name, members] : enums.items())
        for (const auto& m : members) d.enums[name].emplace_back(m.at(0).get<std::string>(), m.at(1).get<std::string>());
      d.env_prefixes = k.value("envPrefixes", std::map<std::string, std::string>{});
      d.settings_classes = k.value("settingsClasses", std::vector<std::string>{});
      d.class_bases = k.value("classBases", std::map<std::string, std::string>{});
      d.requirement_constants = k.value("requirementConstants", std::map<std::string, std::string>{});
      fcb = k.value("fileClassBases", std::map<std::string, std::map<std::string, std::string>>{});
      if (j.contains("sites"))
        for (const auto& [id, ctx] : j["sites"].items()) sites.emplace(id, SiteContextFromJson(ctx.dump()));
    } catch (const std::exception&) {
      d = doc::SettingsData();  // unreadable blob: document from the window alone
      fcb.clear();
      sites.clear();
    }
  }
  auto idx = std::make_unique<doc::KnowledgeIndex>(std::move(d), std::move(fcb));
  idx->SetStoredContexts(std::move(sites));
  return idx;
}

}  // namespace errdex
