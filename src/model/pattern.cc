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

}  // namespace errdex
