// document/text.cc: see text.h.
#include "document/text.h"

#include <cctype>
#include <cstring>

namespace errdex::doc {

std::string BT(std::string_view s) {
  std::string o;
  o.reserve(s.size() + 2);
  o += '`';
  o += s;
  o += '`';
  return o;
}

std::string_view TrimView(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n\f\v");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n\f\v");
  return s.substr(b, e - b + 1);
}
std::string Trim(std::string_view s) { return std::string(TrimView(s)); }

std::string OneLine(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
  std::string o;
  o.reserve(s.size());
  // Runs of non-space bytes are copied at once; a run of spaces becomes one,
  // except after an opening bracket or before a closing one (and never first).
  bool sp = false;
  for (size_t i = 0; i < s.size();) {
    if (space(s[i])) {
      sp = true;
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < s.size() && !space(s[j])) ++j;
    char c = s[i];
    if (sp && !o.empty() && o.back() != '(' && o.back() != '[' && o.back() != '{' && c != ')' && c != ']' && c != '}') o += ' ';
    sp = false;
    o.append(s.data() + i, j - i);
    i = j;
  }
  return o;
}

std::string JoinWords(const std::vector<std::string>& xs, std::string_view last) {
  std::string o;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i) {
      if (i + 1 == xs.size()) {
        o += ' ';
        o += last;
        o += ' ';
      } else {
        o += ", ";
      }
    }
    o += xs[i];
  }
  return o;
}

std::string JoinSome(const std::vector<std::string>& xs, std::string_view last, size_t max) {
  if (xs.size() <= max) return JoinWords(xs, last);
  std::vector<std::string> head(xs.begin(), xs.begin() + (long)max);
  head.push_back(std::to_string(xs.size() - max) + " more");
  return JoinWords(head, "and");
}

std::vector<std::string> Ticked(const std::vector<std::string>& xs) {
  std::vector<std::string> o;
  o.reserve(xs.size());
  for (const auto& x : xs) o.push_back(BT(x));
  return o;
}

std::string Lower(std::string_view s) {
  std::string o(s);
  for (char& c : o) c = AsciiLower(c);
  return o;
}

std::string Upper(std::string_view s) {
  std::string o(s);
  for (char& c : o) c = (char)std::toupper((unsigned char)c);
  return o;
}

std::string Kebab(std::string_view s) {
  std::string o;
  auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (upper(c)) {
      if (i && lower(s[i - 1]) && !o.empty() && o.back() != '-') o += '-';
      o += AsciiLower(c);
    } else if (IsAsciiAlnum(c)) {
      o += c;
    } else if (!o.empty() && o.back() != '-') {
      o += '-';
    }
  }
  while (!o.empty() && o.back() == '-') o.pop_back();
  size_t f = o.find_first_not_of('-');
  return f == std::string::npos ? std::string() : o.substr(f);
}


bool IsIdent(std::string_view s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_' || (unsigned char)s[0] >= 0x80)) return false;
  for (char c : s)
    if (!IsWordChar(c)) return false;
  return true;
}

bool IsDotted(std::string_view s) {
  if (s.empty()) return false;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    if (!IsIdent(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool IsUpperName(std::string_view s) {
  if (s.size() < 3 || !(std::isupper((unsigned char)s[0]) || s[0] == '_')) return false;
  bool alpha = false;
  for (char c : s) {
    if (std::islower((unsigned char)c)) return false;
    if (!IsWordChar(c)) return false;
    if (std::isupper((unsigned char)c)) alpha = true;
  }
  return alpha;
}

std::string LastComponent(std::string_view s) {
  size_t dot = s.rfind('.');
  return std::string(dot == std::string_view::npos ? s : s.substr(dot + 1));
}
std::string FirstComponent(std::string_view s) { return std::string(s.substr(0, s.find('.'))); }

bool Has(std::string_view s, std::string_view lit) {
  if (lit.empty()) return true;
  if (s.size() < lit.size()) return false;
  // glibc's memmem (two-way, vectorized first-byte scan) is far faster than
  // string_view::find on whole files; Has runs over every file's text.
  return memmem(s.data(), s.size(), lit.data(), lit.size()) != nullptr;
}
bool StartsWith(std::string_view s, std::string_view lit) { return s.substr(0, lit.size()) == lit; }
bool EndsWith(std::string_view s, std::string_view lit) {
  return s.size() >= lit.size() && s.substr(s.size() - lit.size()) == lit;
}

bool HasWord(std::string_view s, std::string_view word) {
  if (word.empty()) return false;
  for (size_t p = s.find(word); p != std::string_view::npos; p = s.find(word, p + 1)) {
    bool left = p == 0 || !IsWordChar(s[p - 1]);
    size_t e = p + word.size();
    bool right = e >= s.size() || !IsWordChar(s[e]);
    if (left && right) return true;
  }
  return false;
}

std::string PyQuote(std::string_view s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') {
      o += '\\';
      o += c;
    } else if (c == '\n') {
      o += "\\n";
    } else if (c == '\t') {
      o += "\\t";
    } else {
      o += c;
    }
  }
  return o + "\"";
}

std::string Clip(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  size_t cut = max;
  while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  size_t sp = s.rfind(' ', cut);
  if (sp != std::string_view::npos && sp > max / 2) cut = sp;
  return Trim(s.substr(0, cut)) + "…";
}

std::vector<std::string> Sentences(std::string_view msg) {
  std::vector<std::string> out;
  size_t b = 0;
  auto flush = [&](size_t e) {
    std::string_view t = TrimView(msg.substr(b, e - b));
    if (!t.empty()) out.emplace_back(t);
    b = e;
  };
  int hole = 0;  // never split inside a {hole}
  for (size_t i = 0; i < msg.size(); ++i) {
    char c = msg[i];
    if (c == '{') ++hole;
    else if (c == '}' && hole > 0) --hole;
    if (hole > 0 && c != '\n') continue;
    if (c == '\n') {
      flush(i);
      b = i + 1;
      continue;
    }
    if ((c == '.' || c == '!' || c == '?' || c == ';') && (i + 1 == msg.size() || msg[i + 1] == ' ' || msg[i + 1] == '\n')) {
      // "e.g. " and "i.e. " do not end a sentence.
      if (c == '.' && i >= 3 && (msg.substr(i - 3, 4) == "e.g." || msg.substr(i - 3, 4) == "i.e.")) continue;
      flush(i + 1);
    }
  }
  flush(msg.size());
  return out;
}

size_t TopLevelChar(std::string_view s, char ch, bool last) {
  int depth = 0;
  char q = 0;
  size_t found = std::string_view::npos;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (q) {
      if (c == '\\') ++i;
      else if (c == q) q = 0;
      continue;
    }
    if (c == '"' || c == '\'' || c == '`') q = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ch && depth == 0) {
      found = i;
      if (!last) break;
    }
  }
  return found;
}

std::string UpToClosingParen(std::string_view after_open) {
  int depth = 0;
  for (size_t i = 0; i < after_open.size(); ++i) {
    if (after_open[i] == '(') ++depth;
    else if (after_open[i] == ')' && depth-- == 0) return std::string(after_open.substr(0, i));
  }
  return std::string(after_open);
}

std::vector<std::string> Words(std::string_view s) { return Words(s, SIZE_MAX); }

namespace {

// Calls take(b, e) with each word's range in s: a contiguous run of word
// characters outside {holes} (a hole ends a word), its '-' ends trimmed, none
// empty. Stops once more than `max` words were found (counted before the trim,
// as a trailing '-' may empty one).
template <class Take>
void ForEachWord(std::string_view s, size_t max, Take take) {
  size_t found = 0;
  auto word = [&](size_t b, size_t e) {
    ++found;
    while (b < e && s[e - 1] == '-') --e;
    while (b < e && s[b] == '-') ++b;
    if (b < e) take(b, e);
  };
  size_t cur = std::string_view::npos, cur_end = 0;  // the word being read: [cur, cur_end)
  int hole = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (found > max) break;  // one more than asked: a trailing '-' may empty one
    char c = s[i];
    if (c == '{') {
      ++hole;
      continue;
    }
    if (c == '}' && hole > 0) {
      --hole;
      if (cur != std::string_view::npos) word(cur, cur_end), cur = std::string_view::npos;
      continue;
    }
    if (hole) continue;
    if (IsAsciiAlnum(c) || c == '_' || c == '-' || (unsigned char)c >= 0x80) {
      if (cur == std::string_view::npos) cur = i;
      cur_end = i + 1;
    } else if (cur != std::string_view::npos) {
      word(cur, cur_end);
      cur = std::string_view::npos;
    }
  }
  if (cur != std::string_view::npos) word(cur, cur_end);
}

}  // namespace

std::vector<std::string> Words(std::string_view s, size_t max) {
  std::vector<std::string> kept;
  ForEachWord(s, max, [&](size_t b, size_t e) {
    std::string w(e - b, '\0');
    for (size_t i = b; i < e; ++i) w[i - b] = AsciiLower(s[i]);
    kept.push_back(std::move(w));
  });
  return kept;
}

std::vector<std::string_view> WordViews(std::string_view s, size_t max, std::string* arena) {
  // The lowered words are disjoint pieces of `s`: at most s.size() bytes in all, so the
  // arena never reallocates and the views stay valid.
  arena->clear();
  arena->reserve(s.size());
  std::vector<std::string_view> out;
  out.reserve(max < 16 ? max + 1 : 16);
  ForEachWord(s, max, [&](size_t b, size_t e) {
    size_t at = arena->size();
    for (size_t i = b; i < e; ++i) arena->push_back(AsciiLower(s[i]));
    out.emplace_back(arena->data() + at, e - b);
  });
  return out;
}

std::string SpacedWords(std::string_view s) {
  // Words are separated by at least one byte, so "w1 w2 ... " is at most s.size() + 1
  // bytes: written in place, then cut.
  std::string o(s.size() + 1, '\0');
  char* out = o.data();
  ForEachWord(s, SIZE_MAX, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) *out++ = AsciiLower(s[i]);
    *out++ = ' ';
  });
  o.resize((size_t)(out - o.data()));
  return o;
}

bool IsBuiltinType(std::string_view s) {
  static constexpr std::string_view kTypes[] = {"str",  "bytes", "int", "float",     "bool",      "list",
                                                "tuple", "dict", "set", "frozenset", "bytearray", "complex"};
  for (std::string_view t : kTypes)
    if (s == t) return true;
  return false;
}

bool IsConstantExpr(std::string_view s) {
  std::string_view t = TrimView(s);
  while (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = TrimView(t.substr(1, t.size() - 2));
  if (t.rfind("not ", 0) == 0) t = TrimView(t.substr(4));
  if (t == "True" || t == "False" || t == "None" || t == "..." || t == "__debug__") return true;
  if (t.empty()) return false;
  size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  bool digits = i < t.size();
  for (size_t k = i; k < t.size(); ++k)
    if (!(std::isdigit((unsigned char)t[k]) || t[k] == '.' || t[k] == '_' || t[k] == 'x' || t[k] == 'e')) digits = false;
  if (digits && std::isdigit((unsigned char)t[i])) return true;
  if ((t[0] == '"' || t[0] == '\'') && t.back() == t[0] && t.size() >= 2) return true;
  return false;
}

bool IntLiteral(const std::string& s, long* v) {
  std::string t = Trim(s);
  if (t.empty() || t.size() > 12) return false;
  size_t i = t[0] == '-' ? 1 : 0;
  if (i >= t.size()) return false;
  for (size_t k = i; k < t.size(); ++k)
    if (!std::isdigit((unsigned char)t[k])) return false;
  *v = std::stol(t);
  return true;
}

}  // namespace errdex::doc
