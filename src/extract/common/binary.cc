// extract/common/binary.cc: BinaryReason (see binary.h).
#include "extract/common/binary.h"

#include <cstring>

namespace errdex {

namespace {

constexpr size_t kNulWindow = 8192;

// Length of the valid UTF-8 sequence (no overlongs, surrogates or > U+10FFFF) at
// s[i], which is >= 0x80; 0 when invalid.
size_t SequenceLength(std::string_view s, size_t i) {
  unsigned char c = s[i];
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) { n = 3; lo = 0xA0; }
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) { n = 3; hi = 0x9F; }
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) { n = 4; lo = 0x90; }
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) { n = 4; hi = 0x8F; }
  else return 0;
  if (i + n > s.size()) return 0;
  unsigned char d = s[i + 1];
  if (d < lo || d > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

}  // namespace

std::optional<std::string> BinaryReason(std::string_view text) {
  const void* nul = std::memchr(text.data(), 0, std::min(text.size(), kNulWindow));
  if (nul != nullptr)
    return "a NUL byte at offset " + std::to_string(static_cast<const char*>(nul) - text.data());
  size_t bad = 0;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = text[i];
    if (c >= 0x20 && c < 0x7F) {
      ++i;
      continue;
    }
    if (c < 0x80) {
      if (!(c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == 0x1B)) ++bad;
      ++i;
      continue;
    }
    size_t n = SequenceLength(text, i);
    if (n == 0) {
      ++bad;
      ++i;
    } else {
      i += n;
    }
  }
  if (bad * 10 > text.size()) {
    return std::to_string(bad * 100 / text.size()) + "% of its bytes are not UTF-8 text";
  }
  return std::nullopt;
}

}  // namespace errdex
