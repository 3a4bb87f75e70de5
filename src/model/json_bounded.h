// model/json_bounded.h: parsing JSON that comes from outside (a catalog, a
// knowledge blob, an HTTP or MCP request, a language model's answer) with a
// bound on its nesting. nlohmann::json parses iteratively, but copying, comparing
// and dumping a value recurse once per level: a request of 200,000 '[' crashed
// `errdex mcp` when its id was echoed. A text nested deeper than the bound is
// refused before it is parsed. Tested by json_bounded_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace errdex {

// Deeper than this is never legitimate in errdex's formats (a record is 3 levels,
// an MCP request with its arguments under 10).
inline constexpr size_t kMaxJsonDepth = 64;

// The deepest nesting of arrays/objects in `text`, counting brackets outside
// strings (escapes honoured), in one pass; stops counting past `limit` (returns
// limit + 1). Malformed text is counted all the same (the parser rejects it).
size_t JsonNestingDepth(std::string_view text, size_t limit = kMaxJsonDepth);

// nlohmann::json::parse(text) without exceptions: a discarded value
// (is_discarded()) when the text is not JSON or is nested deeper than max_depth.
nlohmann::json ParseJsonBounded(std::string_view text, size_t max_depth = kMaxJsonDepth);

// `v` as an int when it is an integer that fits int, else nullopt. nlohmann's own
// get<int>() / value(key, 0) convert a float or an out-of-range integer with a
// plain cast: undefined behaviour on a stored blob whose "line" is 2.4e107.
inline std::optional<int> IntIn(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() <= 2147483647u) return static_cast<int>(v.get<uint64_t>());
  } else if (v.is_number_integer()) {
    int64_t x = v.get<int64_t>();
    if (x >= -2147483647 - 1 && x <= 2147483647) return static_cast<int>(x);
  }
  return std::nullopt;
}
// IntIn(v), or `dflt` for anything else.
inline int IntOr(const nlohmann::json& v, int dflt) { return IntIn(v).value_or(dflt); }
// IntOr of object `o`'s key `k` (`dflt` when absent).
inline int IntFieldOr(const nlohmann::json& o, const char* k, int dflt) {
  if (!o.is_object()) return dflt;
  auto it = o.find(k);
  return it == o.end() ? dflt : IntOr(*it, dflt);
}

}  // namespace errdex
