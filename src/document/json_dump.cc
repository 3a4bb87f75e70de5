// document/json_dump.cc: see json_dump.h.
#include "document/json_dump.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace errdex::doc::jsondump {

void String(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  for (unsigned char c : s)
    if (c >= 0x80) {
      // Non-ASCII: nlohmann's own UTF-8 check and replacement, not a second one
      // that could differ from it on some malformed sequence.
      out += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      return;
    }
  out.push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    size_t run = i;
    while (run < s.size() && static_cast<unsigned char>(s[run]) >= 0x20 && s[run] != '"' && s[run] != '\\') ++run;
    out.append(s.data() + i, run - i);
    if (run == s.size()) break;
    unsigned char c = s[run];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:  // nlohmann: "\\u%04x"
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
    }
    i = run + 1;
  }
  out.push_back('"');
}

void Int(std::string& out, long long v) { out += std::to_string(v); }

void OptString(std::string& out, const std::optional<std::string>& s) {
  if (s) String(out, *s);
  else out += "null";
}

void StringArray(std::string& out, const std::vector<std::string>& v) {
  out.push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out.push_back(',');
    String(out, v[i]);
  }
  out.push_back(']');
}

namespace {
// A std::map as nlohmann writes it: members in key order, each value by `value`.
template <typename Map, typename WriteValue>
void MapObject(std::string& out, const Map& m, WriteValue value) {
  out.push_back('{');
  bool first = true;
  for (const auto& [k, v] : m) {
    if (!first) out.push_back(',');
    first = false;
    String(out, k);
    out.push_back(':');
    value(out, v);
  }
  out.push_back('}');
}
}  // namespace

void StringMap(std::string& out, const std::map<std::string, std::string>& m) {
  MapObject(out, m, [](std::string& o, const std::string& v) { String(o, v); });
}

void StringListMap(std::string& out, const std::map<std::string, std::vector<std::string>>& m) {
  MapObject(out, m, [](std::string& o, const std::vector<std::string>& v) { StringArray(o, v); });
}

void Object::AppendTo(std::string& out) {
  // nlohmann's object is a std::map<std::string, ...>: byte-wise key order
  // (the writers add each key once).
  std::sort(members_.begin(), members_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out.push_back('{');
  for (size_t i = 0; i < members_.size(); ++i) {
    if (i) out.push_back(',');
    String(out, members_[i].first);
    out.push_back(':');
    out += members_[i].second;
  }
  out.push_back('}');
}

}  // namespace errdex::doc::jsondump
