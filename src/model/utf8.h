// model/utf8.h: one code point -> UTF-8 bytes, for the front ends' string-literal
// escapes and the matcher's repr decoding. Encodes what it is given: a caller that
// must not emit surrogates or values above U+10FFFF replaces them first. And where
// a text may be cut without splitting a character (the excerpt limits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace errdex {

inline void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The largest p <= max (and <= s.size()) at which s can be cut without splitting
// a UTF-8 sequence: s[p] is not a continuation byte (invalid bytes are cut anywhere,
// at most 3 bytes back).
inline size_t Utf8CutPoint(std::string_view s, size_t max) {
  if (max >= s.size()) return s.size();
  size_t p = max;
  for (int back = 0; back < 3 && p > 0 && (static_cast<unsigned char>(s[p]) & 0xC0) == 0x80; ++back) --p;
  return (static_cast<unsigned char>(s[p]) & 0xC0) == 0x80 ? max : p;
}

}  // namespace errdex
