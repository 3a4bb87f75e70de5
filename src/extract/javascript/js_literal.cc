// Escapes of JavaScript string and template literals (see js_literal.h).
#include "extract/javascript/js_literal.h"

#include <algorithm>
#include <cstdint>

#include "model/utf8.h"

namespace errdex::js {

namespace {


// Reads exactly `count` hex digits at s[i]; -1 when they are not all hex.
int64_t ReadHex(std::string_view s, size_t i, size_t count) {
  if (i + count > s.size()) return -1;
  int64_t v = 0;
  for (size_t k = 0; k < count; ++k) {
    int h = HexDigitValue(s[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

}  // namespace

std::string DecodeJsLiteral(std::string_view raw, bool tmpl) {
  std::string out;
  out.reserve(raw.size());
  const size_t n = raw.size();
  for (size_t i = 0; i < n; ++i) {
    char c = raw[i];
    if (tmpl && c == '\r') {
      out.push_back('\n');
      if (i + 1 < n && raw[i + 1] == '\n') ++i;
      continue;
    }
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (i + 1 >= n) {
      out.push_back('\\');
      break;
    }
    char e = raw[++i];
    switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'v': out.push_back('\v'); break;
      case '\r':  // line continuation
        if (i + 1 < n && raw[i + 1] == '\n') ++i;
        break;
      case '\n':
        break;
      case 'x': {
        int64_t v = ReadHex(raw, i + 1, 2);
        if (v < 0) {
          out.push_back('x');
        } else {
          AppendUtf8OrReplacement(out, static_cast<uint32_t>(v));
          i += 2;
        }
        break;
      }
      case 'u': {
        if (i + 1 < n && raw[i + 1] == '{') {
          size_t close = raw.find('}', i + 2);
          int64_t v = -1;
          if (close != std::string_view::npos && close > i + 2 && close - (i + 2) <= 8)
            v = ReadHex(raw, i + 2, close - (i + 2));
          if (v < 0) {
            out.push_back('u');
          } else {
            AppendUtf8OrReplacement(out, static_cast<uint32_t>(std::min<int64_t>(v, 0x110000)));
            i = close;
          }
          break;
        }
        int64_t v = ReadHex(raw, i + 1, 4);
        if (v < 0) {
          out.push_back('u');
          break;
        }
        i += 4;
        if (v >= 0xD800 && v <= 0xDBFF && i + 2 < n && raw[i + 1] == '\\' && raw[i + 2] == 'u') {
          int64_t lo = ReadHex(raw, i + 3, 4);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
        }
        AppendUtf8OrReplacement(out, static_cast<uint32_t>(v));
        break;
      }
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        if (tmpl || (e == '0' && (i + 1 >= n || raw[i + 1] < '0' || raw[i + 1] > '9'))) {
          if (e == '0') {
            out.push_back('\0');
          } else {
            out.push_back(e);
          }
          break;
        }
        // Legacy octal escape (sloppy-mode strings): up to 3 digits, value <= 0377.
        uint32_t v = static_cast<uint32_t>(e - '0');
        size_t max_digits = e <= '3' ? 2 : 1;
        for (size_t k = 0; k < max_digits && i + 1 < n && raw[i + 1] >= '0' && raw[i + 1] <= '7'; ++k)
          v = v * 8 + static_cast<uint32_t>(raw[++i] - '0');
        AppendUtf8OrReplacement(out, v);
        break;
      }
      default:
        // \' \" \\ \` \$ and any other character stand for themselves; a multi-byte
        // UTF-8 character's continuation bytes are copied by the next iterations.
        out.push_back(e);
        break;
    }
  }
  return out;
}

}  // namespace errdex::js
