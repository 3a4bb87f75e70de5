// document/py_lex.cc: see py_lex.h. Tested by py_lex_test.cc.
#include "document/py_lex.h"

#include <cctype>
#include <cstring>

namespace errdex::doc {
namespace {

// ASCII tests, as std::isalpha/isalnum give them in the "C" locale errdex runs in
// (it never calls setlocale), without a libc call per byte.
bool IsAsciiAlpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool IsAsciiDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsIdStart(unsigned char c) { return IsAsciiAlpha(c) || c == '_' || c >= 0x80; }
bool IsIdChar(unsigned char c) { return IsAsciiAlpha(c) || IsAsciiDigit(c) || c == '_' || c >= 0x80; }

// Decodes the common escapes of a non-raw string body.
std::string Unescape(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) { out += c; continue; }
    char n = body[++i];
    switch (n) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case '\n': break;  // line continuation inside a string
      default: out += '\\'; out += n; break;
    }
  }
  return out;
}

bool IsStringPrefix(char c) {
  switch (c) {
    case 'r': case 'R': case 'b': case 'B': case 'u': case 'U': case 'f': case 'F': return true;
    default: return false;
  }
}

// Length of the operator at s[i]: 3 for ** = // = >> = << = ... !==, 2 for
// == != <= >= -> ** // << >> += -= *= /= %= &= |= ^= := @=, else 1.
size_t OpLength(std::string_view s, size_t i) {
  size_t n = s.size();
  char c = s[i];
  char c1 = i + 1 < n ? s[i + 1] : '\0';
  if (c1 == '\0' && i + 1 >= n) return 1;
  char c2 = i + 2 < n ? s[i + 2] : '\0';
  bool has3 = i + 2 < n;
  if (has3) {
    if (c1 == c && c2 == '=' && (c == '*' || c == '/' || c == '>' || c == '<')) return 3;
    if (c == '.' && c1 == '.' && c2 == '.') return 3;
    if (c == '!' && c1 == '=' && c2 == '=') return 3;
  }
  if (c1 == '=') {
    switch (c) {
      case '=': case '!': case '<': case '>': case '+': case '-': case '*': case '/': case '%':
      case '&': case '|': case '^': case ':': case '@': return 2;
      default: break;
    }
  }
  if (c == '-' && c1 == '>') return 2;
  if (c1 == c && (c == '*' || c == '/' || c == '<' || c == '>')) return 2;
  return 1;
}

}  // namespace

std::vector<PyTok> LexPython(std::string_view s) {
  std::vector<PyTok> toks;
  // About one token per 6 bytes of Python: fewer reallocations (each moves every token).
  toks.reserve(s.size() / 6 + 8);
  LexPythonInto(s, &toks);
  return toks;
}

void LexPythonInto(std::string_view s, std::vector<PyTok>* out, bool first_line_only) {
  std::vector<PyTok>& toks = *out;
  toks.clear();
  int line = 1, depth = 0;
  size_t i = 0, n = s.size();
  if (!first_line_only && toks.capacity() < n / 6 + 8) toks.reserve(n / 6 + 8);
  auto push = [&](PyTok::Kind k, size_t b, size_t e, int ln) {
    PyTok& t = toks.emplace_back();
    t.kind = k;
    t.text = s.substr(b, e - b);
    t.line = ln;
    t.begin = b;
    t.end = e;
    t.depth = depth;
  };
  while (i < n) {
    unsigned char c = s[i];
    if (c == '\n') {
      if (depth == 0 && !toks.empty() && toks.back().kind != PyTok::kNewline) {
        push(PyTok::kNewline, i, i + 1, line);
        if (first_line_only) break;
      }
      ++line;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') { ++i; continue; }
    if (c == '#') { while (i < n && s[i] != '\n') ++i; continue; }
    if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
      i += 1;
      if (s[i] == '\r') ++i;
      if (i < n && s[i] == '\n') { ++i; }
      ++line;
      continue;
    }
    // String (with an optional prefix of up to two letters).
    size_t p = i;
    bool raw = false, fstr = false;
    while (p < n && p - i < 2 && IsStringPrefix(s[p])) {
      if (s[p] == 'r' || s[p] == 'R') raw = true;
      if (s[p] == 'f' || s[p] == 'F') fstr = true;
      ++p;
    }
    if (p < n && (s[p] == '\'' || s[p] == '"') && (p == i || IsIdStart(c))) {
      char q = s[p];
      bool triple = p + 2 < n && s[p + 1] == q && s[p + 2] == q;
      size_t body_b = p + (triple ? 3 : 1);
      size_t j = body_b;
      int start_line = line;
      size_t body_e = n;
      while (j < n) {
        if (s[j] == '\\' && j + 1 < n) {
          if (s[j + 1] == '\n') ++line;
          j += 2;
          continue;
        }
        if (s[j] == '\n') {
          ++line;
          if (!triple) { body_e = j; break; }  // unterminated: stop at the line end
        }
        if (s[j] == q && (!triple || (j + 2 < n && s[j + 1] == q && s[j + 2] == q))) {
          body_e = j;
          j += triple ? 3 : 1;
          break;
        }
        ++j;
      }
      if (body_e == n) j = n;
      std::string_view body = s.substr(body_b, body_e - body_b);
      PyTok& t = toks.emplace_back();
      t.kind = PyTok::kString;
      t.text = s.substr(i, j - i);
      t.value = raw ? std::string(body) : Unescape(body);
      t.fstring = fstr;
      t.line = start_line;
      t.begin = i;
      t.end = j;
      t.depth = depth;
      i = j;
      continue;
    }
    if (IsIdStart(c)) {
      size_t j = i;
      while (j < n && IsIdChar(s[j])) ++j;
      push(PyTok::kName, i, j, line);
      i = j;
      continue;
    }
    if (std::isdigit(c) || (c == '.' && i + 1 < n && std::isdigit((unsigned char)s[i + 1]))) {
      size_t j = i;
      while (j < n && (std::isalnum((unsigned char)s[j]) || s[j] == '.' || s[j] == '_')) ++j;
      push(PyTok::kNumber, i, j, line);
      i = j;
      continue;
    }
    // Operators: longest of the 3/2-char ones, else one byte.
    size_t len = OpLength(s, i);
    if (len == 1 && (c == '(' || c == '[' || c == '{')) {
      push(PyTok::kOp, i, i + 1, line);
      ++depth;
      ++i;
      continue;
    }
    if (len == 1 && (c == ')' || c == ']' || c == '}')) {
      if (depth > 0) --depth;
      push(PyTok::kOp, i, i + 1, line);
      ++i;
      continue;
    }
    push(PyTok::kOp, i, i + len, line);
    i += len;
  }
  if (!toks.empty() && toks.back().kind != PyTok::kNewline) push(PyTok::kNewline, n, n, line);
  push(PyTok::kEnd, n, n, line);
}

size_t MatchBracket(const std::vector<PyTok>& toks, size_t open) {
  int d = 0;
  for (size_t i = open; i < toks.size(); ++i) {
    const PyTok& t = toks[i];
    if (t.kind == PyTok::kEnd) return i;
    if (t.kind != PyTok::kOp || t.text.size() != 1) continue;
    char c = t.text[0];
    if (c == '(' || c == '[' || c == '{') ++d;
    if (c == ')' || c == ']' || c == '}') {
      if (--d == 0) return i;
    }
  }
  return toks.size() - 1;
}

bool StringValue(const std::vector<PyTok>& toks, size_t b, size_t e, std::string* out) {
  if (b >= e) return false;
  std::string v;
  for (size_t i = b; i < e; ++i) {
    if (toks[i].kind != PyTok::kString) return false;
    v += toks[i].value;
  }
  *out = std::move(v);
  return true;
}

std::vector<std::pair<size_t, size_t>> SplitTopLevel(const std::vector<PyTok>& toks, size_t b, size_t e,
                                                     std::string_view sep) {
  std::vector<std::pair<size_t, size_t>> parts;
  if (b >= e) return parts;
  int d = 0;
  size_t start = b;
  for (size_t i = b; i < e; ++i) {
    const PyTok& t = toks[i];
    if (t.kind == PyTok::kOp && t.text.size() == 1) {
      char c = t.text[0];
      if (c == '(' || c == '[' || c == '{') ++d;
      if (c == ')' || c == ']' || c == '}') --d;
    }
    if (d == 0 && t.text == sep && (t.kind == PyTok::kOp || t.kind == PyTok::kName)) {
      parts.emplace_back(start, i);
      start = i + 1;
    }
  }
  parts.emplace_back(start, e);
  // Drop a trailing empty part ("a, b,").
  if (!parts.empty() && parts.back().first >= parts.back().second && parts.size() > 1) parts.pop_back();
  return parts;
}

bool StringList(const std::vector<PyTok>& toks, size_t b, size_t e, std::vector<std::string>* out) {
  if (b >= e) return false;
  std::string one;
  if (StringValue(toks, b, e, &one)) {
    out->assign(1, one);
    return true;
  }
  const PyTok& f = toks[b];
  if (f.kind != PyTok::kOp || (f.text != "[" && f.text != "(" && f.text != "{")) return false;
  size_t close = MatchBracket(toks, b);
  if (close + 1 != e) return false;
  std::vector<std::string> vals;
  for (auto [pb, pe] : SplitTopLevel(toks, b + 1, close)) {
    std::string v;
    if (pb >= pe) continue;
    if (!StringValue(toks, pb, pe, &v)) return false;
    vals.push_back(std::move(v));
  }
  if (vals.empty()) return false;
  *out = std::move(vals);
  return true;
}

std::string_view SpanText(std::string_view src, const std::vector<PyTok>& toks, size_t b, size_t e) {
  if (b >= e || e > toks.size()) return {};
  size_t from = toks[b].begin, to = toks[e - 1].end;
  if (to < from || to > src.size()) return {};
  return src.substr(from, to - from);
}


}  // namespace errdex::doc
