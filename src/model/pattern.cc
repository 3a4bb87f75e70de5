#include "model/pattern.h"

namespace errdex {

std::string EscapePatternLiteral(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : text) {
    switch (c) {
      case '.': case '*': case '+': case '?': case '^': case '$': case '{': case '}':
      case '(': case ')': case '|': case '[': case ']': case '\\':
        out.push_back('\\');
        break;
      default:
        break;
    }
    out.push_back(c);
  }
  return out;
}

std::string_view PatternPrefix(std::string_view pattern, size_t max_bytes) {
  if (pattern.size() <= max_bytes) return pattern;
  size_t safe = 0;  // the last cut point seen at depth 0
  int depth = 0;
  bool in_class = false;
  for (size_t i = 0; i < pattern.size() && i <= max_bytes;) {
    if (depth == 0 && !in_class && (static_cast<unsigned char>(pattern[i]) & 0xC0) != 0x80) {
      // A quantifier binds to the atom before it: not a cut point.
      char c = pattern[i];
      if (c != '*' && c != '+' && c != '?' && c != '{') safe = i;
    }
    char c = pattern[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
    } else if (c == '[') {
      in_class = true;
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') ++i;  // "[]...]": a literal ']'
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && depth > 0) {
      --depth;
    }
    ++i;
  }
  return pattern.substr(0, safe);
}

}  // namespace errdex
