#include "cli/terminal.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace errdex::cli {

bool UseColor(const std::string& mode, int fd) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (!term || !*term || std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(fd) == 1;
}

std::string Palette::Wrap(const char* code, std::string_view s) const {
  if (!on) return std::string(s);
  return std::string("\x1b[") + code + "m" + std::string(s) + "\x1b[0m";
}

namespace {

// The code point of the 3-byte UTF-8 sequence at s[i] (0 when there is none).
uint32_t ThreeByteCodePoint(std::string_view s, size_t i) {
  if (i + 2 >= s.size()) return 0;
  unsigned char a = s[i], b = s[i + 1], c = s[i + 2];
  if ((a & 0xF0) != 0xE0 || (b & 0xC0) != 0x80 || (c & 0xC0) != 0x80) return 0;
  return (uint32_t{a} & 0x0F) << 12 | (uint32_t{b} & 0x3F) << 6 | (uint32_t{c} & 0x3F);
}

// Characters that reorder or break what a terminal shows (Trojan Source,
// CVE-2021-42574): the bidirectional embeddings, overrides and isolates, the
// implicit direction marks, and the line and paragraph separators.
bool IsBidiOrSeparator(uint32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
         cp == 0x061C || cp == 0x2028 || cp == 0x2029;
}

void AppendEscaped(std::string& out, uint32_t cp) {
  char buf[12];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  out += buf;
}

}  // namespace

std::string Printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\r' && (i + 1 == s.size() || s[i + 1] == '\n')) continue;  // CRLF source files
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
      out += '^';
      out += static_cast<char>(c == 0x7f ? '?' : c + 64);
    } else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
      AppendEscaped(out, static_cast<unsigned char>(s[i + 1]));  // C1 controls (CSI = U+009B)
      ++i;
    } else if (c == 0xd8 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x9c) {
      AppendEscaped(out, 0x061C);  // ARABIC LETTER MARK
      ++i;
    } else if (uint32_t cp = c == 0xe2 ? ThreeByteCodePoint(s, i) : 0; IsBidiOrSeparator(cp)) {
      AppendEscaped(out, cp);
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace errdex::cli
