// match/python_repr.cc: see python_repr.h.
#include "match/python_repr.h"

#include "model/utf8.h"

namespace errdex {

namespace {


// The bytes of code point cp, each mapped to the escape at `at`.
void AppendCodePoint(uint32_t cp, uint32_t at, ReprReading& out) {
  AppendUtf8(out.text, cp);
  out.source.resize(out.text.size(), at);
}

// Decodes the str repr starting at printed[i] (a quote); on success sets *end to
// the offset just past its closing quote.
bool DecodeString(std::string_view p, size_t i, ReprReading& out, size_t* end) {
  if (i >= p.size() || (p[i] != '\'' && p[i] != '"')) return false;
  const char q = p[i];
  for (size_t k = i + 1; k < p.size(); ++k) {
    const char c = p[k];
    if (c == q) {
      *end = k + 1;
      return true;
    }
    if (c != '\\') {
      out.text.push_back(c);
      out.source.push_back(static_cast<uint32_t>(k));
      continue;
    }
    if (k + 1 >= p.size()) return false;
    const char e = p[k + 1];
    const uint32_t at = static_cast<uint32_t>(k);
    int digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
    if (digits > 0) {
      if (k + 1 + digits >= p.size()) return false;
      uint32_t cp = 0;
      for (int d = 0; d < digits; ++d) {
        int h = HexDigitValue(p[k + 2 + d]);
        if (h < 0) return false;
        cp = cp * 16 + static_cast<uint32_t>(h);
      }
      if (cp > 0x10FFFF) return false;
      AppendCodePoint(cp, at, out);
      k += 1 + digits;
      continue;
    }
    char d;
    switch (e) {
      case '\\': d = '\\'; break;
      case '\'': d = '\''; break;
      case '"': d = '"'; break;
      case 'n': d = '\n'; break;
      case 't': d = '\t'; break;
      case 'r': d = '\r'; break;
      default: return false;  // repr() writes no other escape
    }
    out.text.push_back(d);
    out.source.push_back(at);
    ++k;
  }
  return false;  // no closing quote
}

}  // namespace

bool ReadPythonRepr(std::string_view p, ReprReading& out) {
  out.text.clear();
  out.source.clear();
  out.from_tuple = false;
  while (!p.empty() && (p.back() == ' ' || p.back() == '\t' || p.back() == '\r')) p.remove_suffix(1);
  if (p.size() < 2) return false;
  size_t end = 0;
  if (p[0] == '\'' || p[0] == '"') {
    if (!DecodeString(p, 0, out, &end) || end != p.size()) return false;
    return true;
  }
  // ('first', <anything>) -- the rest is not read: it may hold any repr.
  if (p[0] != '(' || p.back() != ')') return false;
  if (!DecodeString(p, 1, out, &end)) return false;
  if (end + 1 >= p.size() || p[end] != ',') return false;
  out.from_tuple = true;
  return true;
}

}  // namespace errdex
