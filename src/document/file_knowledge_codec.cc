// document/file_knowledge_codec.cc: one file's knowledge (FileKnowledge: the
// settings data of documenter.h, before the repository-wide merge) as bytes and
// back, every field, so that a catalog can keep it with the file's unit and a
// later scan builds the repository's knowledge without reading the file again.
// Tested by documenter_test.cc (round trip of real files) and, end to end, by
// the store's history test (an incremental scan writes what a fresh one does).
#include <nlohmann/json.hpp>

#include "document/documenter.h"
#include "document/knowledge.h"

namespace errdex {

namespace {

using nlohmann::json;

json Opt(const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); }
std::optional<std::string> GetOpt(const json& o, const char* k) {
  auto it = o.find(k);
  if (it == o.end() || it->is_null()) return std::nullopt;
  return it->get<std::string>();
}

json FlagOut(const doc::Flag& f) {
  return json{{"o", f.options},      {"n", f.negative},         {"d", f.dest},      {"t", f.type},
              {"c", f.choices},      {"cf", f.choices_from},    {"ce", f.choices_expr},
              {"dv", Opt(f.default_value)}, {"dl", f.default_is_literal}, {"a", f.action},
              {"na", f.nargs},       {"h", f.help},             {"or", f.origin},   {"e", f.env},
              {"cl", f.class_name},  {"f", f.file},             {"l", f.line},      {"kw", f.kwargs}};
}
doc::Flag FlagIn(const json& o) {
  doc::Flag f;
  f.options = o.at("o").get<std::vector<std::string>>();
  f.negative = o.at("n").get<std::string>();
  f.dest = o.at("d").get<std::string>();
  f.type = o.at("t").get<std::string>();
  f.choices = o.at("c").get<std::vector<std::string>>();
  f.choices_from = o.at("cf").get<std::string>();
  f.choices_expr = o.at("ce").get<std::string>();
  f.default_value = GetOpt(o, "dv");
  f.default_is_literal = o.at("dl").get<bool>();
  f.action = o.at("a").get<std::string>();
  f.nargs = o.at("na").get<std::string>();
  f.help = o.at("h").get<std::string>();
  f.origin = o.at("or").get<std::string>();
  f.env = o.at("e").get<std::string>();
  f.class_name = o.at("cl").get<std::string>();
  f.file = o.at("f").get<std::string>();
  f.line = o.at("l").get<int>();
  f.kwargs = o.at("kw").get<bool>();
  return f;
}

json FieldOut(const doc::ConfigField& f) {
  return json{{"cl", f.class_name}, {"n", f.name}, {"t", f.type}, {"dv", Opt(f.default_value)}, {"c", f.choices},
              {"cf", f.choices_from}, {"h", f.help}, {"f", f.file}, {"l", f.line}};
}
doc::ConfigField FieldIn(const json& o) {
  doc::ConfigField f;
  f.class_name = o.at("cl").get<std::string>();
  f.name = o.at("n").get<std::string>();
  f.type = o.at("t").get<std::string>();
  f.default_value = GetOpt(o, "dv");
  f.choices = o.at("c").get<std::vector<std::string>>();
  f.choices_from = o.at("cf").get<std::string>();
  f.help = o.at("h").get<std::string>();
  f.file = o.at("f").get<std::string>();
  f.line = o.at("l").get<int>();
  return f;
}

json EnvOut(const doc::EnvVar& e) {
  return json{{"n", e.name}, {"t", e.type}, {"dv", Opt(e.default_value)}, {"c", e.choices},
              {"r", e.reader}, {"f", e.file}, {"l", e.line}};
}
doc::EnvVar EnvIn(const json& o) {
  doc::EnvVar e;
  e.name = o.at("n").get<std::string>();
  e.type = o.at("t").get<std::string>();
  e.default_value = GetOpt(o, "dv");
  e.choices = o.at("c").get<std::vector<std::string>>();
  e.reader = o.at("r").get<std::string>();
  e.file = o.at("f").get<std::string>();
  e.line = o.at("l").get<int>();
  return e;
}

json WalkerOut(const doc::FieldWalker& w) {
  return json{{"f", w.file}, {"c", w.classes}, {"k", w.kebab}, {"u", w.underscore_alias}, {"b", w.boolean_optional},
              {"o", w.origin}};
}
doc::FieldWalker WalkerIn(const json& o) {
  doc::FieldWalker w;
  w.file = o.at("f").get<std::string>();
  w.classes = o.at("c").get<std::vector<std::string>>();
  w.kebab = o.at("k").get<bool>();
  w.underscore_alias = o.at("u").get<bool>();
  w.boolean_optional = o.at("b").get<bool>();
  w.origin = o.at("o").get<std::string>();
  return w;
}

bool Empty(const doc::SettingsData& d) {
  return d.flags.empty() && d.fields.empty() && d.envs.empty() && d.walkers.empty() && d.list_constants.empty() &&
         d.literal_aliases.empty() && d.enums.empty() && d.env_prefixes.empty() && d.class_bases.empty() &&
         d.settings_classes.empty() && d.mentioned_flags.empty();
}

}  // namespace

std::string SerializeFileKnowledge(const FileKnowledge& k) {
  const doc::SettingsData& d = k.data;
  if (Empty(d)) return std::string();
  json flags = json::array(), fields = json::array(), envs = json::array(), walkers = json::array();
  for (const auto& f : d.flags) flags.push_back(FlagOut(f));
  for (const auto& f : d.fields) fields.push_back(FieldOut(f));
  for (const auto& e : d.envs) envs.push_back(EnvOut(e));
  for (const auto& w : d.walkers) walkers.push_back(WalkerOut(w));
  json enums = json::object();
  for (const auto& [name, members] : d.enums) {
    json m = json::array();
    for (const auto& [k2, v] : members) m.push_back(json::array({k2, v}));
    enums[name] = std::move(m);
  }
  json mentioned = json::array();
  for (const auto& [flag, line] : d.mentioned_flags) mentioned.push_back(json::array({flag, line}));
  json o = {{"flags", std::move(flags)},   {"fields", std::move(fields)},    {"envs", std::move(envs)},
            {"walkers", std::move(walkers)}, {"lists", d.list_constants},     {"literals", d.literal_aliases},
            {"enums", std::move(enums)},   {"envPrefixes", d.env_prefixes},  {"classBases", d.class_bases},
            {"settingsClasses", d.settings_classes}, {"mentioned", std::move(mentioned)}};
  return o.dump(-1, ' ', false, json::error_handler_t::replace);
}

FileKnowledgePtr DeserializeFileKnowledge(std::string_view path, std::string_view bytes) {
  FileKnowledgePtr k(new FileKnowledge());
  k->path = std::string(path);
  if (bytes.empty()) return k;
  json o = json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (o.is_discarded() || !o.is_object()) return k;
  try {
    doc::SettingsData d;
    for (const auto& f : o.at("flags")) d.flags.push_back(FlagIn(f));
    for (const auto& f : o.at("fields")) d.fields.push_back(FieldIn(f));
    for (const auto& e : o.at("envs")) d.envs.push_back(EnvIn(e));
    for (const auto& w : o.at("walkers")) d.walkers.push_back(WalkerIn(w));
    d.list_constants = o.at("lists").get<std::map<std::string, std::vector<std::string>>>();
    d.literal_aliases = o.at("literals").get<std::map<std::string, std::vector<std::string>>>();
    for (const auto& [name, members] : o.at("enums").items())
      for (const auto& m : members) d.enums[name].emplace_back(m.at(0).get<std::string>(), m.at(1).get<std::string>());
    d.env_prefixes = o.at("envPrefixes").get<std::map<std::string, std::string>>();
    d.class_bases = o.at("classBases").get<std::map<std::string, std::string>>();
    d.settings_classes = o.at("settingsClasses").get<std::vector<std::string>>();
    for (const auto& m : o.at("mentioned")) d.mentioned_flags.emplace_back(m.at(0).get<std::string>(), m.at(1).get<int>());
    k->data = std::move(d);
  } catch (const std::exception&) {
    k->data = doc::SettingsData();  // unreadable: the file teaches nothing
  }
  return k;
}

}  // namespace errdex
