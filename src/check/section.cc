// check/section.cc: the section's JSON (see section.h). Tested by section_test.cc.
#include "check/section.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace errdex::check {

namespace {

using nlohmann::json;

json FlagJson(const doc::Flag& f) {
  json o = {{"o", f.options}, {"d", f.dest}, {"t", f.type}, {"a", f.action}, {"n", f.nargs}, {"g", f.origin},
            {"f", f.file}, {"l", f.line}};
  if (!f.choices.empty()) o["c"] = f.choices;
  if (f.default_value) o["v"] = *f.default_value, o["vl"] = f.default_is_literal;
  if (!f.negative.empty()) o["neg"] = f.negative;
  if (!f.env.empty()) o["env"] = f.env;
  if (!f.class_name.empty()) o["cls"] = f.class_name;
  if (f.kwargs) o["kw"] = true;
  return o;
}

doc::Flag FlagFrom(const json& o) {
  doc::Flag f;
  f.options = o.value("o", std::vector<std::string>{});
  f.dest = o.value("d", "");
  f.type = o.value("t", "");
  f.action = o.value("a", "");
  f.nargs = o.value("n", "");
  f.origin = o.value("g", "");
  f.file = o.value("f", "");
  f.line = o.value("l", 0);
  f.choices = o.value("c", std::vector<std::string>{});
  if (o.contains("v")) f.default_value = o["v"].get<std::string>(), f.default_is_literal = o.value("vl", false);
  f.negative = o.value("neg", "");
  f.env = o.value("env", "");
  f.class_name = o.value("cls", "");
  f.kwargs = o.value("kw", false);
  return f;
}

json EnvJson(const doc::EnvVar& e) {
  json o = {{"n", e.name}, {"t", e.type}, {"r", e.reader}, {"f", e.file}, {"l", e.line}};
  if (e.default_value) o["v"] = *e.default_value;
  if (!e.choices.empty()) o["c"] = e.choices;
  return o;
}

doc::EnvVar EnvFrom(const json& o) {
  doc::EnvVar e;
  e.name = o.value("n", "");
  e.type = o.value("t", "");
  e.reader = o.value("r", "");
  e.file = o.value("f", "");
  e.line = o.value("l", 0);
  if (o.contains("v")) e.default_value = o["v"].get<std::string>();
  e.choices = o.value("c", std::vector<std::string>{});
  return e;
}

json FileJson(const FileProgram& p) {
  json fns = json::array(), classes = json::array(), imports = json::array(), sites = json::array(), args = json::array();
  for (const FunctionFacts& f : p.functions)
    fns.push_back(json::array({f.qual, f.name, f.cls, f.line, f.end_line, f.params, f.defaults, f.decorators, f.body, f.annotations}));
  for (const ClassFacts& c : p.classes) {
    json attrs = json::array();
    for (const auto& [n, v] : c.attrs) attrs.push_back(json::array({n, v}));
    classes.push_back(json::array({c.qual, c.name, c.line, c.bases, c.decorators, attrs, c.annotated}));
  }
  for (const ImportFacts& i : p.imports) imports.push_back(json::array({i.local, i.module, i.name, i.level}));
  for (const SiteRef& s : p.sites) sites.push_back(json::array({s.id, s.line, s.kind, s.error_class}));
  for (const auto& [line, call] : p.add_arguments) args.push_back(json::array({line, call}));
  json o = {{"path", p.path}, {"body", p.module_body}, {"fns", fns}, {"classes", classes}, {"imports", imports},
            {"sites", sites}, {"args", args}};
  if (p.dynamic_import) o["dyn"] = true;
  return o;
}

Section::File FileFrom(const json& o) {
  Section::File f;
  f.path = o.at("path").get<std::string>();
  f.module_body = o.value("body", "");
  for (const json& a : o.value("fns", json::array())) {
    FunctionFacts fn;
    fn.qual = a.at(0).get<std::string>();
    fn.name = a.at(1).get<std::string>();
    fn.cls = a.at(2).get<std::string>();
    fn.line = a.at(3).get<int>();
    fn.end_line = a.at(4).get<int>();
    fn.params = a.at(5).get<std::vector<std::string>>();
    fn.defaults = a.at(6).get<std::vector<std::string>>();
    fn.decorators = a.at(7).get<std::vector<std::string>>();
    fn.body = a.at(8).get<std::string>();
    if (a.size() > 9) fn.annotations = a.at(9).get<std::vector<std::string>>();
    fn.defaults.resize(fn.params.size());
    fn.annotations.resize(fn.params.size());
    f.functions.push_back(std::move(fn));
  }
  for (const json& a : o.value("classes", json::array())) {
    ClassFacts c;
    c.qual = a.at(0).get<std::string>();
    c.name = a.at(1).get<std::string>();
    c.line = a.at(2).get<int>();
    c.bases = a.at(3).get<std::vector<std::string>>();
    c.decorators = a.at(4).get<std::vector<std::string>>();
    for (const json& kv : a.at(5)) c.attrs.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
    c.annotated = a.at(6).get<std::vector<std::string>>();
    f.classes.push_back(std::move(c));
  }
  for (const json& a : o.value("imports", json::array()))
    f.imports.push_back({a.at(0).get<std::string>(), a.at(1).get<std::string>(), a.at(2).get<std::string>(), a.at(3).get<int>()});
  for (const json& a : o.value("sites", json::array()))
    f.sites.push_back({a.at(0).get<std::string>(), a.at(1).get<int>(), a.at(2).get<std::string>(), a.at(3).get<std::string>()});
  for (const json& a : o.value("args", json::array())) f.add_arguments.emplace_back(a.at(0).get<int>(), a.at(1).get<std::string>());
  f.dynamic_import = o.value("dyn", false);
  return f;
}

// End of the JSON value starting at s[pos] (an object or array), skipping strings; npos when unbalanced.
size_t ValueEnd(std::string_view s, size_t pos) {
  int depth = 0;
  bool in_str = false;
  for (size_t i = pos; i < s.size(); ++i) {
    char c = s[i];
    if (in_str) {
      if (c == '\\') ++i;
      else if (c == '"') in_str = false;
      continue;
    }
    if (c == '"') in_str = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::string BuildSection(const CheckFacts& facts, const doc::SettingsData* settings) {
  std::vector<const FileProgram*> files;
  for (const FileProgram& p : facts.files) files.push_back(&p);
  std::sort(files.begin(), files.end(), [](const FileProgram* a, const FileProgram* b) { return a->path < b->path; });
  json flags = json::array(), envs = json::array(), scripts = json::array();
  if (settings) {
    for (const doc::Flag& f : settings->flags)
      if (f.origin != "mentioned") flags.push_back(FlagJson(f));
    for (const doc::EnvVar& e : settings->envs) envs.push_back(EnvJson(e));
  }
  auto sorted_scripts = facts.scripts;
  std::sort(sorted_scripts.begin(), sorted_scripts.end());
  sorted_scripts.erase(std::unique(sorted_scripts.begin(), sorted_scripts.end()), sorted_scripts.end());
  for (const auto& [n, t] : sorted_scripts) scripts.push_back(json::array({n, t}));
  std::string out = "{\"version\":" + std::to_string(kSectionVersion) + ",\"flags\":";
  out += flags.dump(-1, ' ', false, json::error_handler_t::replace);
  out += ",\"envs\":" + envs.dump(-1, ' ', false, json::error_handler_t::replace);
  out += ",\"scripts\":" + scripts.dump(-1, ' ', false, json::error_handler_t::replace);
  out += ",\"files\":[";
  for (size_t i = 0; i < files.size(); ++i) {
    if (i) out.push_back(',');
    out += FileJson(*files[i]).dump(-1, ' ', false, json::error_handler_t::replace);
  }
  out += "]}";
  return out;
}

std::string WithCheckSection(std::string_view knowledge, std::string_view section) {
  size_t b = 0;
  while (b < knowledge.size() && (knowledge[b] == ' ' || knowledge[b] == '\n')) ++b;
  std::string out = "{\"check\":";
  out += section;
  if (b >= knowledge.size() || knowledge[b] != '{' || ValueEnd(knowledge, b) == std::string_view::npos) {
    out += "}";
    return out;
  }
  std::string_view rest = knowledge.substr(b + 1);
  size_t k = 0;
  while (k < rest.size() && (rest[k] == ' ' || rest[k] == '\n')) ++k;
  if (k < rest.size() && rest[k] != '}') out += ",";
  out += rest;
  return out;
}

Result<Section> ReadSection(std::string_view blob) {
  static constexpr std::string_view kPrefix = "{\"check\":";
  std::string_view text;
  json parsed;
  if (blob.substr(0, kPrefix.size()) == kPrefix) {
    size_t end = ValueEnd(blob, kPrefix.size());
    if (end == std::string_view::npos) return Status::ParseError("the catalog's check section is cut short");
    text = blob.substr(kPrefix.size(), end - kPrefix.size());
    parsed = json::parse(text.begin(), text.end(), nullptr, false);
  } else {
    json whole = json::parse(blob.begin(), blob.end(), nullptr, false);
    if (whole.is_discarded() || !whole.is_object()) return Status::ParseError("the catalog's knowledge blob is not JSON");
    if (!whole.contains("check")) return Status::NotFound("no check section");
    parsed = std::move(whole["check"]);
  }
  if (parsed.is_discarded() || !parsed.is_object()) return Status::ParseError("the catalog's check section is not JSON");
  if (parsed.value("version", 0) != kSectionVersion)
    return Status::NotFound("the catalog's check section has version " + std::to_string(parsed.value("version", 0)) +
                            "; this errdex reads version " + std::to_string(kSectionVersion) + " (scan again)");
  Section s;
  try {
    for (const json& f : parsed.value("flags", json::array())) s.flags.push_back(FlagFrom(f));
    for (const json& e : parsed.value("envs", json::array())) s.envs.push_back(EnvFrom(e));
    for (const json& a : parsed.value("scripts", json::array()))
      s.scripts.emplace_back(a.at(0).get<std::string>(), a.at(1).get<std::string>());
    for (const json& f : parsed.value("files", json::array())) s.files.push_back(FileFrom(f));
  } catch (const std::exception& e) {
    return Status::ParseError(std::string("the catalog's check section is malformed: ") + e.what());
  }
  std::sort(s.files.begin(), s.files.end(), [](const Section::File& a, const Section::File& b) { return a.path < b.path; });
  return s;
}

}  // namespace errdex::check
