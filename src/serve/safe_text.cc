// serve/safe_text.cc: see safe_text.h.
#include "serve/safe_text.h"

#include <cctype>
#include <cstdio>

namespace errdex::serve {

namespace {

// Length of the valid UTF-8 sequence at s[i] (1-4), or 0 when it is not one.
size_t Utf8Length(std::string_view s, size_t i, uint32_t* cp) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n;
  uint32_t v;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if ((c & 0xe0) == 0xc0) {
    n = 2;
    v = c & 0x1f;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3;
    v = c & 0x0f;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4;
    v = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xc0) != 0x80) return 0;
    v = (v << 6) | (d & 0x3f);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  if ((n == 2 && v < 0x80) || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000) || v > 0x10ffff ||
      (v >= 0xd800 && v <= 0xdfff))
    return 0;
  *cp = v;
  return n;
}

bool IsInvisibleFormat(uint32_t cp) {
  return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
         cp == 0x061c || cp == 0xfeff || cp == 0x2028 || cp == 0x2029 || cp == 0x00ad;
}

void AppendEscape(std::string& out, uint32_t cp) {
  char buf[12];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  out += buf;
}

// Length of the ANSI escape sequence starting at s[i] (ESC), 0 when it is none.
size_t AnsiLength(std::string_view s, size_t i) {
  if (i + 1 >= s.size()) return 0;
  char k = s[i + 1];
  if (k == '[') {  // CSI: parameters and intermediates, then one final byte @..~
    size_t j = i + 2;
    while (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x20 && static_cast<unsigned char>(s[j]) <= 0x3f) ++j;
    while (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x20 && static_cast<unsigned char>(s[j]) <= 0x2f) ++j;
    if (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x40 && static_cast<unsigned char>(s[j]) <= 0x7e)
      return j + 1 - i;
    return 0;
  }
  if (k == ']') {  // OSC: up to BEL or ESC '\' (a hyperlink, a window title)
    for (size_t j = i + 2; j < s.size() && j < i + 4096; ++j) {
      if (s[j] == '\a') return j + 1 - i;
      if (s[j] == '\x1b' && j + 1 < s.size() && s[j + 1] == '\\') return j + 2 - i;
    }
    return 0;
  }
  return 0;
}

bool IsWordByte(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

std::vector<std::string> QueryWords(std::string_view q) {
  std::vector<std::string> words;
  std::string cur;
  for (unsigned char c : q) {
    if (IsWordByte(c)) {
      cur.push_back(static_cast<char>(std::tolower(c)));
    } else if (!cur.empty()) {
      words.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(cur);
  return words;
}

void Push(std::vector<TextPart>& parts, std::string_view text, bool mark) {
  if (text.empty()) return;
  if (!parts.empty() && parts.back().mark == mark) parts.back().text += text;
  else parts.push_back(TextPart{std::string(text), mark});
}

// The end (one past the '}') of the balanced {...} starting at s[i], or npos.
size_t BraceEnd(std::string_view s, size_t i) {
  int depth = 0;
  for (size_t j = i; j < s.size(); ++j) {
    if (s[j] == '{') ++depth;
    else if (s[j] == '}' && --depth == 0) return j + 1;
  }
  return std::string_view::npos;
}

std::vector<TextPart> BraceParts(std::string_view m) {
  std::vector<TextPart> parts;
  size_t pos = 0;
  while (pos < m.size()) {
    size_t b = m.find('{', pos);
    size_t e = b == std::string_view::npos ? b : BraceEnd(m, b);
    if (e == std::string_view::npos) break;
    Push(parts, m.substr(pos, b - pos), false);
    Push(parts, m.substr(b, e - b), true);
    pos = e;
  }
  Push(parts, m.substr(pos), false);
  return parts;
}

}  // namespace

std::string VisibleText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0x1b) {
      if (size_t n = AnsiLength(s, i)) {
        i += n;
        continue;
      }
    }
    if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') {
      ++i;
      continue;
    }
    if (c < 0x20 && c != '\t' && c != '\n') {
      out += '^';
      out += static_cast<char>(c + 64);
      ++i;
      continue;
    }
    if (c == 0x7f) {
      out += "^?";
      ++i;
      continue;
    }
    uint32_t cp = 0;
    size_t n = Utf8Length(s, i, &cp);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
      continue;
    }
    if ((cp >= 0x80 && cp <= 0x9f) || IsInvisibleFormat(cp)) AppendEscape(out, cp);
    else out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string PathSegment(std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  // "." and ".." are not names: a browser would resolve them.
  if (out == "." || out == "..") out = out == "." ? "%2E" : "%2E%2E";
  return out;
}

bool IsSafeHttpUrl(std::string_view url) {
  if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) return false;
  if (url.size() > 4096) return false;
  for (unsigned char c : url)
    if (c <= 0x20 || c >= 0x7f || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\' || c == '`') return false;
  return true;
}

std::vector<TextPart> MessageParts(const Record& r) {
  if (!r.error_message) return {};
  std::string_view m = *r.error_message;
  if (!r.message_pattern || r.message_pattern->empty()) return BraceParts(m);
  std::string_view p = *r.message_pattern;
  std::vector<TextPart> parts;
  size_t pos = 0;  // in m
  size_t lit = 0;  // start of the pending literal run in m
  for (size_t i = 0; i < p.size();) {
    if (p.compare(i, 5, "(.*?)") == 0) {
      // A run of adjacent interpolations is one group: "{a}{b}".
      Push(parts, m.substr(lit, pos - lit), false);
      size_t start = pos;
      while (pos < m.size() && m[pos] == '{') {
        size_t e = BraceEnd(m, pos);
        if (e == std::string_view::npos) return BraceParts(m);
        pos = e;
      }
      if (pos == start) return BraceParts(m);
      Push(parts, m.substr(start, pos - start), true);
      lit = pos;
      i += 5;
      continue;
    }
    if (p[i] == '(') return BraceParts(m);  // a conditional message: no one text to align
    char want = p[i];
    if (want == '\\' && i + 1 < p.size()) want = p[++i];
    if (pos >= m.size() || m[pos] != want) return BraceParts(m);
    ++pos;
    ++i;
  }
  if (pos != m.size()) return BraceParts(m);
  Push(parts, m.substr(lit), false);
  return parts;
}

std::vector<TextPart> HighlightWords(std::string_view text, std::string_view query) {
  std::vector<std::string> words = QueryWords(query);
  std::vector<TextPart> parts;
  size_t pos = 0, plain = 0;
  while (pos < text.size()) {
    if (!IsWordByte(static_cast<unsigned char>(text[pos]))) {
      ++pos;
      continue;
    }
    size_t e = pos;
    while (e < text.size() && IsWordByte(static_cast<unsigned char>(text[e]))) ++e;
    std::string w(text.substr(pos, e - pos));
    for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool hit = false;
    for (size_t k = 0; k < words.size() && !hit; ++k)
      hit = w == words[k] || (k + 1 == words.size() && w.rfind(words[k], 0) == 0);
    if (hit) {
      Push(parts, text.substr(plain, pos - plain), false);
      Push(parts, text.substr(pos, e - pos), true);
      plain = e;
    }
    pos = e;
  }
  Push(parts, text.substr(plain), false);
  return parts;
}

}  // namespace errdex::serve
