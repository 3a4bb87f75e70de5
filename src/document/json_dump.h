// document/json_dump: JSON written directly into a string, byte for byte as
// nlohmann's dump(-1, ' ', false, error_handler_t::replace) writes the DOM the
// same values would make: objects' members sorted by key (nlohmann's std::map),
// no whitespace, strings escaped alike.
//
// Why: the knowledge blob (knowledge.cc) and check's flag table (check/section.cc)
// were built as an nlohmann DOM and dumped, a fifth of the CPU of an incremental
// scan of flashinfer (perf: 1,383 flags and ~4,000 fields, a map node per
// member, every string copied twice) -- and their bytes must not change: the
// knowledge is content-addressed and compared with stored blobs. Tested by
// json_dump_test.cc (every writer against nlohmann's dump of what it wrote).
//
// Thread-safety: plain functions and a value type.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace errdex::doc::jsondump {

// A JSON string as nlohmann escapes it (invalid UTF-8 replaced by U+FFFD, as
// its `replace` handler does: such strings are rare and go through nlohmann).
void String(std::string& out, std::string_view s);
void Int(std::string& out, long long v);
inline void Bool(std::string& out, bool b) { out += b ? "true" : "false"; }
void OptString(std::string& out, const std::optional<std::string>& s);  // null when unset
void StringArray(std::string& out, const std::vector<std::string>& v);
// std::map<string, string> / <string, vector<string>> / nested: objects in key order.
void StringMap(std::string& out, const std::map<std::string, std::string>& m);
void StringListMap(std::string& out, const std::map<std::string, std::vector<std::string>>& m);

// An object whose members are added in any order and written sorted by key.
class Object {
 public:
  // The member's value is written into the returned buffer.
  std::string& Member(std::string_view key) {
    members_.emplace_back(std::string(key), std::string());
    return members_.back().second;
  }
  void AppendTo(std::string& out);

 private:
  std::vector<std::pair<std::string, std::string>> members_;
};

}  // namespace errdex::doc::jsondump
