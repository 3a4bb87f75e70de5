// model/utf8.h: one code point -> UTF-8 bytes, for the front ends' string-literal
// escapes and the matcher's repr decoding. AppendUtf8 encodes what it is given;
// AppendUtf8OrReplacement replaces surrogates and values above U+10FFFF; HexDigitValue
// reads the escapes' digits. And where
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

// cp as UTF-8, or U+FFFD for a surrogate or a value past U+10FFFF: what a string-literal
// escape that names no character decodes to.
inline void AppendUtf8OrReplacement(std::string& out, uint32_t cp) {
  AppendUtf8(out, cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0xFFFD : cp);
}

// The value of one hex digit (0-9, a-f, A-F); -1 for any other character.
inline int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
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
