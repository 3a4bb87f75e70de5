// Python tokenizer (see tokenizer.h). One pass over the bytes; strings and
// f-strings are scanned by ScanString / ScanField, mutually recursive only
// through f-string nesting (capped at kMaxFStringDepth).
#include "extract/python/tokenizer.h"

#include "model/utf8.h"

#include <algorithm>
#include <cstring>

namespace errdex::py {

namespace {

// Byte classes: 1 identifier start, 2 identifier continuation (digits too).
struct ByteClasses {
  uint8_t c[256] = {};
  constexpr ByteClasses() {
    for (int i = 0; i < 256; ++i) {
      bool start = (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z') || i == '_' || i >= 0x80;
      bool digit = i >= '0' && i <= '9';
      c[i] = static_cast<uint8_t>((start ? 1 : 0) | ((start || digit) ? 2 : 0));
    }
  }
};
constexpr ByteClasses kClasses;
inline bool IsIdentByte(unsigned char c) { return kClasses.c[c] & 2; }
inline bool IsIdentStart(unsigned char c) { return kClasses.c[c] & 1; }
inline bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }

// Length of the string prefix at text[pos] ending right before a quote, or -1.
int StringPrefixLen(std::string_view text, size_t pos) {
  size_t n = text.size();
  for (int len = 0; len <= 2 && pos + len < n; ++len) {
    char c = text[pos + len];
    if (c == '\'' || c == '"') {
      if (len == 2) {
        char a = text[pos] | 0x20, b = text[pos + 1] | 0x20;
        bool ok = (a == 'r' && (b == 'b' || b == 'f')) || (b == 'r' && (a == 'b' || a == 'f'));
        return ok ? 2 : -1;
      }
      return len;
    }
    char l = c | 0x20;
    if (l != 'r' && l != 'b' && l != 'u' && l != 'f') return -1;
    if (len == 1 && (l == 'u' || (text[pos] | 0x20) == 'u')) return -1;
  }
  return -1;
}

class Scanner {
 public:
  Scanner(std::string_view text, std::vector<Diagnostic>* diags, std::string_view path,
          const std::vector<uint32_t>* line_starts, uint32_t bom = 0)
      : text_(text), n_(text.size()), diags_(diags), bom_(bom), path_(path), line_starts_(line_starts) {}

  void Diag(uint32_t offset, std::string message) {
    if (diags_ == nullptr || diags_->size() >= kMaxDiagnostics) return;
    Diagnostic d;
    d.path = std::string(path_);
    if (line_starts_ != nullptr && !line_starts_->empty()) {
      auto it = std::upper_bound(line_starts_->begin(), line_starts_->end(), offset);
      size_t li = static_cast<size_t>(it - line_starts_->begin());
      d.line = static_cast<int>(li);
      d.column = static_cast<int>(offset - (*line_starts_)[li - 1] - (li == 1 ? bom_ : 0));
    }
    d.message = std::move(message);
    diags_->push_back(std::move(d));
  }

  // text_[pos] starts a string (prefix included, prefix_len given). Returns the
  // offset one past its end (the end of input or line when unterminated).
  size_t ScanString(size_t pos, int prefix_len, int depth) {
    bool fstr = false;
    for (int i = 0; i < prefix_len; ++i)
      if ((text_[pos + i] | 0x20) == 'f') fstr = true;
    if (fstr && depth >= kMaxFStringDepth) {
      Diag(static_cast<uint32_t>(pos), "f-string nesting too deep; scanned as plain text");
      fstr = false;
    }
    size_t i = pos + prefix_len;
    char q = text_[i];
    bool triple = i + 2 < n_ && text_[i + 1] == q && text_[i + 2] == q;
    i += triple ? 3 : 1;
    while (i < n_) {
      char c = text_[i];
      if (c == '\\') {
        i += (i + 2 < n_ && text_[i + 1] == '\r' && text_[i + 2] == '\n') ? 3 : 2;
        continue;
      }
      if (c == q) {
        if (!triple) return i + 1;
        if (i + 2 < n_ && text_[i + 1] == q && text_[i + 2] == q) return i + 3;
        ++i;
        continue;
      }
      if ((c == '\n' || c == '\r') && !triple) {
        Diag(static_cast<uint32_t>(pos), "unterminated string literal");
        unterminated_ = true;
        return i;
      }
      if (fstr && c == '{') {
        if (i + 1 < n_ && text_[i + 1] == '{') {
          i += 2;
          continue;
        }
        i = ScanField(i + 1, q, triple, depth + 1);
        continue;
      }
      ++i;
    }
    Diag(static_cast<uint32_t>(pos), triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
    return n_;
  }

  // Scans an f-string replacement field from just after its '{'; returns the
  // offset after its closing '}' (or where the enclosing string ends).
  size_t ScanField(size_t i, char q, bool triple, int depth) {
    int bd = 0;
    while (i < n_) {
      unsigned char c = text_[i];
      if (c == '\'' || c == '"') {
        if (c == static_cast<unsigned char>(q) && depth >= kMaxFStringDepth) return i;
        i = ScanString(i, 0, depth);
        continue;
      }
      if (IsIdentStart(c)) {
        int pl = StringPrefixLen(text_, i);
        if (pl > 0) {
          i = ScanString(i, pl, depth);
          continue;
        }
        while (i < n_ && IsIdentByte(text_[i])) ++i;
        continue;
      }
      switch (c) {
        case '(': case '[': case '{':
          ++bd;
          ++i;
          continue;
        case ')': case ']':
          if (bd > 0) --bd;
          ++i;
          continue;
        case '}':
          if (bd == 0) return i + 1;
          --bd;
          ++i;
          continue;
        case '!':
          ++i;
          continue;
        case ':':
          if (bd == 0) return ScanSpec(i + 1, q, triple, depth);
          ++i;
          continue;
        case '#':
          while (i < n_ && text_[i] != '\n' && text_[i] != '\r') ++i;
          continue;
        case '\n': case '\r':
          if (!triple && bd == 0) return i;  // let the string report it
          ++i;
          continue;
        default:
          ++i;
      }
    }
    return n_;
  }

  size_t ScanSpec(size_t i, char q, bool triple, int depth) {
    while (i < n_) {
      char c = text_[i];
      if (c == q) {
        if (!triple || (i + 2 < n_ && text_[i + 1] == q && text_[i + 2] == q)) return i;
      }
      if (c == '\\') {
        i += 2;
        continue;
      }
      if ((c == '\n' || c == '\r') && !triple) return i;
      if (c == '{') {
        i = ScanField(i + 1, q, triple, depth + 1);
        continue;
      }
      if (c == '}') return i + 1;
      ++i;
    }
    return n_;
  }

  // Length of the operator at pos (0 when the byte starts no operator).
  int OpLen(size_t pos) const {
    char c = text_[pos];
    char c1 = pos + 1 < n_ ? text_[pos + 1] : '\0';
    char c2 = pos + 2 < n_ ? text_[pos + 2] : '\0';
    switch (c) {
      case '(': case ')': case '[': case ']': case '{': case '}': case ',': case ';': case '~':
        return 1;
      case '.':
        return (c1 == '.' && c2 == '.') ? 3 : 1;
      case '*': case '/': case '<': case '>':
        if (c1 == c && c != '<' && c != '>') return c2 == '=' ? 3 : 2;
        if (c1 == c) return c2 == '=' ? 3 : 2;  // << >> <<= >>=
        if (c1 == '=') return 2;
        if (c == '<' && c1 == '>') return 2;  // <> (barry_as_FLUFL), harmless
        return 1;
      case '-':
        return (c1 == '=' || c1 == '>') ? 2 : 1;
      case ':':
        return c1 == '=' ? 2 : 1;
      case '+': case '%': case '&': case '|': case '^': case '@': case '=':
        return c1 == '=' ? 2 : 1;
      case '!':
        return c1 == '=' ? 2 : 0;
      default:
        return 0;
    }
  }

  // Scans a run of tokens. In line mode (expr_mode false) emits NEWLINE /
  // INDENT / DEDENT and logical lines; in expression mode newlines are blanks.
  void Run(size_t begin, size_t end, bool expr_mode, std::vector<Token>* out, std::vector<LogicalLine>* lines,
           bool keep_comments) {
    size_t n = end;
    size_t pos = begin;
    int depth = 0;
    bool at_line_start = !expr_mode;
    bool in_line = false;
    int cur_indent = 0;
    uint32_t line_first = 0;
    std::vector<int> indents{0};
    // line/col are assigned here: tokens come in offset order, one cursor suffices
    size_t li = 0;
    const uint32_t* ls = line_starts_ != nullptr && !expr_mode ? line_starts_->data() : nullptr;
    const size_t nls = ls != nullptr ? line_starts_->size() : 0;
    auto emit = [&](TokenKind k, size_t b, size_t e) __attribute__((always_inline)) {
      Token t;
      t.kind = k;
      t.begin = static_cast<uint32_t>(b);
      t.end = static_cast<uint32_t>(e);
      if (ls != nullptr) {
        while (li + 1 < nls && ls[li + 1] <= t.begin) ++li;
        t.line = static_cast<int32_t>(li + 1);
        t.col = static_cast<int32_t>(t.begin - ls[li] - (li == 0 ? bom_ : 0));
      }
      out->push_back(t);
    };
    auto end_line = [&](size_t at) {
      emit(TokenKind::kNewline, at, at);
      if (lines != nullptr) {
        LogicalLine l;
        l.first = line_first;
        l.last = static_cast<uint32_t>(out->size() - 1);
        l.indent = cur_indent;
        lines->push_back(l);
      }
      in_line = false;
    };
    while (pos < n) {
      if (at_line_start) {
        int col = 0;
        size_t p = pos;
        while (p < n) {
          char c = text_[p];
          if (c == ' ') ++col;
          else if (c == '\t') col = (col / 8 + 1) * 8;
          else if (c == '\f') col = 0;
          else break;
          ++p;
        }
        if (p >= n) {
          pos = p;
          break;
        }
        char c = text_[p];
        if (c == '#' || c == '\n' || c == '\r' || (c == '\\' && p + 1 < n && (text_[p + 1] == '\n' || text_[p + 1] == '\r'))) {
          // blank or comment-only line (a lone backslash continuation counts as blank here)
          if (c == '#') {
            size_t q = p;
            while (q < n && text_[q] != '\n' && text_[q] != '\r') ++q;
            if (keep_comments) emit(TokenKind::kComment, p, q);
            p = q;
          } else if (c == '\\') {
            ++p;
          }
          if (p < n && text_[p] == '\r' && p + 1 < n && text_[p + 1] == '\n') p += 2;
          else if (p < n) ++p;
          pos = p;
          continue;
        }
        if (col > indents.back()) {
          indents.push_back(col);
          emit(TokenKind::kIndent, p, p);
        } else if (col < indents.back()) {
          while (indents.size() > 1 && col < indents.back()) {
            indents.pop_back();
            emit(TokenKind::kDedent, p, p);
          }
          if (col != indents.back()) {
            Diag(static_cast<uint32_t>(p), "unindent does not match any outer indentation level");
            indents.push_back(col);
          }
        }
        cur_indent = col;
        pos = p;
        at_line_start = false;
        in_line = true;
        line_first = static_cast<uint32_t>(out->size());
      }
      unsigned char c = text_[pos];
      switch (c) {
        case ' ': case '\t': case '\f':
          ++pos;
          continue;
        case '\n': case '\r': {
          size_t nl = (c == '\r' && pos + 1 < n && text_[pos + 1] == '\n') ? 2 : 1;
          if (!expr_mode && depth == 0) {
            if (in_line) end_line(pos);
            at_line_start = true;
          }
          pos += nl;
          continue;
        }
        case '#': {
          size_t q = pos;
          while (q < n && text_[q] != '\n' && text_[q] != '\r') ++q;
          if (keep_comments) emit(TokenKind::kComment, pos, q);
          pos = q;
          continue;
        }
        case '\\':
          if (pos + 1 < n && (text_[pos + 1] == '\n' || text_[pos + 1] == '\r')) {
            pos += (text_[pos + 1] == '\r' && pos + 2 < n && text_[pos + 2] == '\n') ? 3 : 2;
            continue;
          }
          if (pos + 1 >= n) {
            ++pos;
            continue;
          }
          Diag(static_cast<uint32_t>(pos), "unexpected character after line continuation character");
          emit(TokenKind::kError, pos, pos + 1);
          ++pos;
          continue;
        case '\'': case '"': {
          unterminated_ = false;
          size_t e = ScanString(pos, 0, 0);
          emit(TokenKind::kString, pos, e);
          pos = e;
          if (unterminated_) depth = 0;  // recover: the broken line ends here
          continue;
        }
        default:
          break;
      }
      if (IsIdentStart(c)) {
        int pl = (c == 'r' || c == 'R' || c == 'b' || c == 'B' || c == 'u' || c == 'U' || c == 'f' || c == 'F')
                     ? StringPrefixLen(text_, pos) : -1;
        if (pl > 0) {
          unterminated_ = false;
          size_t e = ScanString(pos, pl, 0);
          emit(TokenKind::kString, pos, e);
          pos = e;
          if (unterminated_) depth = 0;
          continue;
        }
        size_t e = pos + 1;
        while (e < n && IsIdentByte(text_[e])) ++e;
        emit(TokenKind::kName, pos, e);
        pos = e;
        continue;
      }
      if (IsDigit(c) || (c == '.' && pos + 1 < n && IsDigit(text_[pos + 1]))) {
        size_t e = pos + 1;
        bool hex = c == '0' && e < n && (text_[e] | 0x20) == 'x';
        while (e < n) {
          unsigned char d = text_[e];
          if (IsIdentByte(d) && d < 0x80) {
            ++e;
          } else if (d == '.') {
            ++e;
          } else if ((d == '+' || d == '-') && !hex && (text_[e - 1] | 0x20) == 'e') {
            ++e;
          } else {
            break;
          }
        }
        emit(TokenKind::kNumber, pos, e);
        pos = e;
        continue;
      }
      int ol = OpLen(pos);
      if (ol > 0) {
        if (c == '(' || c == '[' || c == '{') {
          ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
          if (depth > 0) --depth;
          else if (!expr_mode) Diag(static_cast<uint32_t>(pos), std::string("unmatched '") + static_cast<char>(c) + "'");
        }
        emit(TokenKind::kOp, pos, pos + ol);
        pos += ol;
        continue;
      }
      if (!expr_mode) {
        char buf[64];
        snprintf(buf, sizeof buf, "invalid character (byte 0x%02x)", c);
        Diag(static_cast<uint32_t>(pos), buf);
      }
      emit(TokenKind::kError, pos, pos + 1);
      ++pos;
    }
    if (!expr_mode) {
      if (depth > 0) Diag(static_cast<uint32_t>(n), "unexpected end of file: unclosed bracket");
      if (in_line) end_line(n);
      while (indents.size() > 1) {
        indents.pop_back();
        emit(TokenKind::kDedent, n, n);
      }
    }
    emit(TokenKind::kEnd, n, n);
  }

 private:
  std::string_view text_;
  size_t n_;
  std::vector<Diagnostic>* diags_;
  uint32_t bom_;  // 3 when the file starts with a UTF-8 BOM: line 1's columns start after it
  bool unterminated_ = false;  // the last single-quoted string ran into a line end
  std::string_view path_;
  const std::vector<uint32_t>* line_starts_;
};

void ComputeLineStarts(std::string_view text, std::vector<uint32_t>* starts) {
  starts->clear();
  starts->push_back(0);
  const char* base = text.data();
  size_t n = text.size();
  if (n == 0) return;
  if (std::memchr(base, '\r', n) == nullptr) {
    const char* p = base;
    const char* e = base + n;
    while (p < e) {
      const char* q = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(e - p)));
      if (q == nullptr) break;
      p = q + 1;
      if (p < e) starts->push_back(static_cast<uint32_t>(p - base));
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    char c = base[i];
    if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < n && base[i + 1] == '\n') ++i;
      if (i + 1 < n) starts->push_back(static_cast<uint32_t>(i + 1));
    }
  }
}

}  // namespace

int Tokens::LineOf(uint32_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  return static_cast<int>(it - line_starts.begin());
}

Tokens Tokenize(std::string_view text, const TokenizeOptions& options) {
  Tokens r;
  Tokenize(text, options, &r);
  return r;
}

void Tokenize(std::string_view text, const TokenizeOptions& options, Tokens* out) {
  Tokens& r = *out;
  r.tokens.clear();
  r.lines.clear();
  r.diagnostics.clear();
  ComputeLineStarts(text, &r.line_starts);
  r.tokens.reserve(text.size() / 6 + 16);
  r.lines.reserve(text.size() / 40 + 4);
  // A UTF-8 BOM is not part of the source (CPython reads the file as utf-8-sig):
  // the first statement starts after it, at column 0.
  const uint32_t bom = text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  Scanner s(text, &r.diagnostics, options.path, &r.line_starts, bom);
  s.Run(bom, text.size(), false, &r.tokens, &r.lines, options.keep_comments);
}

void TokenizeExpression(std::string_view text, uint32_t begin, uint32_t end, std::vector<Token>* out) {
  Scanner s(text.substr(0, end), nullptr, {}, nullptr);
  s.Run(begin, end, true, out, nullptr, false);
}

size_t StringLiteralEnd(std::string_view text, size_t pos) {
  if (pos >= text.size()) return pos;
  int pl = StringPrefixLen(text, pos);
  if (pl < 0) return pos;
  Scanner s(text, nullptr, {}, nullptr);
  return s.ScanString(pos, pl, 0);
}

StringInfo AnalyzeString(std::string_view text, const Token& t) {
  StringInfo si;
  uint32_t i = t.begin;
  while (i < t.end && text[i] != '\'' && text[i] != '"') {
    char l = text[i] | 0x20;
    if (l == 'r') si.raw = true;
    else if (l == 'b') si.bytes = true;
    else if (l == 'f') si.fstring = true;
    ++i;
  }
  if (i >= t.end) {
    si.body_begin = si.body_end = t.end;
    si.terminated = false;
    return si;
  }
  char q = text[i];
  bool triple = i + 2 < t.end && text[i + 1] == q && text[i + 2] == q && t.end - i >= 6;
  if (!triple && i + 2 < t.end && text[i + 1] == q && text[i + 2] == q) triple = true;  // unterminated triple
  uint32_t ql = triple ? 3 : 1;
  si.body_begin = i + ql;
  uint32_t e = t.end;
  bool term = e >= si.body_begin + ql;
  for (uint32_t k = 0; term && k < ql; ++k)
    if (text[e - 1 - k] != q) term = false;
  // an escaped final quote does not terminate
  if (term && !triple && e - 2 >= si.body_begin) {
    uint32_t bs = 0;
    for (uint32_t k = e - 2; k >= si.body_begin && text[k] == '\\'; --k) {
      ++bs;
      if (k == 0) break;
    }
    if (bs % 2 == 1) term = false;
  }
  si.terminated = term;
  si.body_end = term ? e - ql : e;
  if (si.body_end < si.body_begin) si.body_end = si.body_begin;
  return si;
}

std::string DecodeStringBody(std::string_view body, bool raw) {
  std::string out;
  out.reserve(body.size());
  size_t n = body.size();
  for (size_t i = 0; i < n; ++i) {
    char c = body[i];
    if (c == '\r') {
      out.push_back('\n');
      if (i + 1 < n && body[i + 1] == '\n') ++i;
      continue;
    }
    if (c != '\\' || raw || i + 1 >= n) {
      out.push_back(c);
      continue;
    }
    char d = body[i + 1];
    switch (d) {
      case '\n': ++i; continue;
      case '\r': ++i; if (i + 1 < n && body[i + 1] == '\n') ++i; continue;
      case '\\': out.push_back('\\'); ++i; continue;
      case '\'': out.push_back('\''); ++i; continue;
      case '"': out.push_back('"'); ++i; continue;
      case 'a': out.push_back('\a'); ++i; continue;
      case 'b': out.push_back('\b'); ++i; continue;
      case 'f': out.push_back('\f'); ++i; continue;
      case 'n': out.push_back('\n'); ++i; continue;
      case 'r': out.push_back('\r'); ++i; continue;
      case 't': out.push_back('\t'); ++i; continue;
      case 'v': out.push_back('\v'); ++i; continue;
      case 'x': case 'u': case 'U': {
        size_t len = d == 'x' ? 2 : d == 'u' ? 4 : 8;
        if (i + 1 + len >= n) {
          out.push_back(c);
          continue;
        }
        uint32_t v = 0;
        bool ok = true;
        for (size_t k = 0; k < len; ++k) {
          int h = HexDigitValue(body[i + 2 + k]);
          if (h < 0) { ok = false; break; }
          v = v * 16 + static_cast<uint32_t>(h);
        }
        if (!ok || v > 0x10FFFF) {
          out.push_back(c);
          continue;
        }
        AppendUtf8(out, v);
        i += 1 + len;
        continue;
      }
      default:
        if (d >= '0' && d <= '7') {
          uint32_t v = 0;
          size_t k = 0;
          while (k < 3 && i + 1 + k < n && body[i + 1 + k] >= '0' && body[i + 1 + k] <= '7') {
            v = v * 8 + static_cast<uint32_t>(body[i + 1 + k] - '0');
            ++k;
          }
          AppendUtf8(out, v);
          i += k;
          continue;
        }
        out.push_back(c);  // unknown escape (and \N{...}): kept as written
        continue;
    }
  }
  return out;
}

}  // namespace errdex::py
