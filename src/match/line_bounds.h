// match/line_bounds.h: the line of a window around a byte, found with memchr and
// memrchr (lines are never indexed up front; see ExplainSession::Flush).
#pragma once

#include <cstring>
#include <string_view>

namespace errdex {

// Line of `text` around byte `pos`: [LineBegin, LineEnd) without its '\n'.
inline size_t LineBegin(std::string_view text, size_t pos) {
  const void* p = pos > 0 ? memrchr(text.data(), '\n', pos) : nullptr;
  return p ? static_cast<size_t>(static_cast<const char*>(p) - text.data()) + 1 : 0;
}
inline size_t LineEnd(std::string_view text, size_t begin) {
  const void* p = begin < text.size() ? std::memchr(text.data() + begin, '\n', text.size() - begin) : nullptr;
  return p ? static_cast<size_t>(static_cast<const char*>(p) - text.data()) : text.size();
}

// Bytes of `text` without the blanks (spaces, tabs, line ends) it ends with.
inline size_t TrimmedLength(std::string_view t) {
  size_t n = t.size();
  while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\r' || t[n - 1] == '\n')) --n;
  return n;
}

}  // namespace errdex
