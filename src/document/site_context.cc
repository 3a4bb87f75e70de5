// document/site_context.cc: see site_context.h.
#include "document/site_context.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "model/record.h"
#include "model/json_bounded.h"

namespace errdex {
namespace {

void Key(std::string& o, const char* k) {
  if (o.back() != '{') o += ',';
  o += '"';
  o += k;
  o += "\":";
}
void Str(std::string& o, const char* k, const std::string& v) {
  if (v.empty()) return;
  Key(o, k);
  AppendJsonString(o, v);
}
void Int(std::string& o, const char* k, int v) {
  if (!v) return;
  Key(o, k);
  o += std::to_string(v);
}
void StrList(std::string& o, const char* k, const std::vector<std::string>& v) {
  if (v.empty()) return;
  Key(o, k);
  o += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) o += ',';
    AppendJsonString(o, v[i]);
  }
  o += ']';
}
void Pairs(std::string& o, const char* k, const std::vector<std::pair<std::string, std::string>>& v) {
  if (v.empty()) return;
  Key(o, k);
  o += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) o += ',';
    o += '[';
    AppendJsonString(o, v[i].first);
    o += ',';
    AppendJsonString(o, v[i].second);
    o += ']';
  }
  o += ']';
}

}  // namespace

std::string SiteContextToJson(const SiteContext& c) {
  std::string o = "{";
  Key(o, "known");
  o += c.known ? "true" : "false";
  Int(o, "defLine", c.def_line);
  Str(o, "def", c.def_name);
  Str(o, "class", c.class_name);
  StrList(o, "decorators", c.decorators);
  if (!c.params.empty()) {
    Key(o, "params");
    o += '[';
    for (size_t i = 0; i < c.params.size(); ++i) {
      const ParamInfo& p = c.params[i];
      if (i) o += ',';
      o += '[';
      AppendJsonString(o, p.name);
      o += ',';
      AppendJsonString(o, p.annotation);
      o += ',';
      AppendJsonString(o, p.default_value);
      o += p.star ? ",1]" : ",0]";
    }
    o += ']';
  }
  Pairs(o, "assigned", c.assigned);
  if (!c.branches.empty()) {
    Key(o, "branches");
    o += '[';
    for (size_t i = 0; i < c.branches.size(); ++i) {
      const BranchInfo& b = c.branches[i];
      if (i) o += ',';
      o += '{';
      Key(o, "guard");
      o += std::to_string(b.guard);
      if (b.own) Key(o, "own"), o += "true";
      Int(o, "line", b.line);
      Str(o, "test", b.test);
      Pairs(o, "sets", b.sets);
      if (b.warns) Key(o, "warns"), o += "true";
      if (b.returns) Key(o, "returns"), o += "true";
      Str(o, "raises", b.raises);
      o += '}';
    }
    o += ']';
  }
  if (!c.callers.empty()) {
    Key(o, "callers");
    o += '[';
    for (size_t i = 0; i < c.callers.size(); ++i) {
      if (i) o += ',';
      o += '[';
      AppendJsonString(o, c.callers[i].scope);
      o += ',' + std::to_string(c.callers[i].line) + ',';
      AppendJsonString(o, c.callers[i].call);
      o += ']';
    }
    o += ']';
  }
  Int(o, "callersTotal", c.callers_total);
  StrList(o, "modules", c.modules);
  StrList(o, "bases", c.class_bases);
  if (!c.exits.empty()) {
    Key(o, "exits");
    o += '[';
    for (size_t i = 0; i < c.exits.size(); ++i) {
      if (i) o += ',';
      o += '[' + std::to_string(c.exits[i].first) + ',';
      AppendJsonString(o, c.exits[i].second);
      o += ']';
    }
    o += ']';
  }
  if (!c.writes.empty()) {
    Key(o, "writes");
    o += '[';
    for (size_t i = 0; i < c.writes.size(); ++i) {
      if (i) o += ',';
      o += '[';
      AppendJsonString(o, c.writes[i].attr);
      o += ',';
      AppendJsonString(o, c.writes[i].method);
      o += ',';
      AppendJsonString(o, c.writes[i].value);
      o += ']';
    }
    o += ']';
  }
  Str(o, "routeMethod", c.route_method);
  Str(o, "route", c.route);
  o += '}';
  return o;
}

namespace {
// An int member read back: a number that is not an integer within int's range
// (a damaged or hostile blob: 5.1e11) is malformed (IntIn, model/json_bounded.h).
// Found by record_json.
int IntOf(const nlohmann::json& v) {
  if (std::optional<int> x = IntIn(v)) return *x;
  throw std::out_of_range("not an int");
}
int IntAt(const nlohmann::json& o, const char* key, int fallback) {
  auto it = o.find(key);
  return it == o.end() ? fallback : IntOf(*it);
}
}  // namespace

size_t SiteContextTextBytes(const SiteContext& c) {
  size_t n = 64 + c.def_name.size() + c.class_name.size() + c.route_method.size() + c.route.size();
  for (const auto& d : c.decorators) n += d.size() + 3;
  for (const auto& p : c.params) n += p.name.size() + p.annotation.size() + p.default_value.size() + 12;
  for (const auto& [k, v] : c.assigned) n += k.size() + v.size() + 8;
  for (const auto& b : c.branches) {
    n += b.test.size() + b.raises.size() + 48;
    for (const auto& [k, v] : b.sets) n += k.size() + v.size() + 8;
  }
  for (const auto& cl : c.callers) n += cl.scope.size() + cl.call.size() + 16;
  for (const auto& m : c.modules) n += m.size() + 3;
  for (const auto& b : c.class_bases) n += b.size() + 3;
  for (const auto& [line, t] : c.exits) n += t.size() + 16;
  for (const auto& w : c.writes) n += w.attr.size() + w.method.size() + w.value.size() + 12;
  return n;
}

SiteContext SiteContextFromJson(std::string_view text) {
  using nlohmann::json;
  SiteContext c;
  json j = ParseJsonBounded(text);  // nesting bounded: copies below recurse
  if (j.is_discarded() || !j.is_object()) return c;
  try {
    auto pairs = [](const json& a) {
      std::vector<std::pair<std::string, std::string>> v;
      for (const auto& p : a) v.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
      return v;
    };
    c.known = j.value("known", false);
    c.def_line = IntAt(j, "defLine", 0);
    c.def_name = j.value("def", "");
    c.class_name = j.value("class", "");
    c.decorators = j.value("decorators", std::vector<std::string>{});
    for (const auto& p : j.value("params", json::array()))
      c.params.push_back({p.at(0).get<std::string>(), p.at(1).get<std::string>(), p.at(2).get<std::string>(), IntOf(p.at(3)) != 0});
    if (j.contains("assigned")) c.assigned = pairs(j["assigned"]);
    for (const auto& b : j.value("branches", json::array())) {
      BranchInfo bi;
      bi.guard = IntAt(b, "guard", -1);
      bi.own = b.value("own", false);
      bi.line = IntAt(b, "line", 0);
      bi.test = b.value("test", "");
      if (b.contains("sets")) bi.sets = pairs(b["sets"]);
      bi.warns = b.value("warns", false);
      bi.returns = b.value("returns", false);
      bi.raises = b.value("raises", "");
      c.branches.push_back(std::move(bi));
    }
    for (const auto& k : j.value("callers", json::array()))
      c.callers.push_back({k.at(0).get<std::string>(), IntOf(k.at(1)), k.at(2).get<std::string>()});
    c.callers_total = IntAt(j, "callersTotal", 0);
    c.modules = j.value("modules", std::vector<std::string>{});
    c.class_bases = j.value("bases", std::vector<std::string>{});
    for (const auto& x : j.value("exits", json::array())) c.exits.emplace_back(IntOf(x.at(0)), x.at(1).get<std::string>());
    for (const auto& w : j.value("writes", json::array()))
      c.writes.push_back({w.at(0).get<std::string>(), w.at(1).get<std::string>(), w.at(2).get<std::string>()});
    c.route_method = j.value("routeMethod", "");
    c.route = j.value("route", "");
  } catch (const std::exception&) {
    return SiteContext{};
  }
  return c;
}

}  // namespace errdex
