#include "extract/cpp/cpp_lexer.h"

#include <cstring>

namespace errdex::cpp {

namespace {

inline bool IsIdentStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
inline bool IsIdentChar(unsigned char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
inline bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
inline bool IsSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r'; }

// Length of the punctuator at s[0..n).
size_t PunctLength(const char* s, size_t n) {
  char a = s[0], b = n > 1 ? s[1] : 0, c = n > 2 ? s[2] : 0;
  if (n > 2) {
    if ((a == '<' && b == '<' && c == '=') || (a == '>' && b == '>' && c == '=') || (a == '.' && b == '.' && c == '.') ||
        (a == '-' && b == '>' && c == '*') || (a == '<' && b == '=' && c == '>'))
      return 3;
  }
  if (n > 1) {
    switch (a) {
      case ':': if (b == ':') return 2; break;
      case '-': if (b == '>' || b == '-' || b == '=') return 2; break;
      case '<': if (b == '<' || b == '=') return 2; break;
      case '>': if (b == '>' || b == '=') return 2; break;
      case '=': if (b == '=') return 2; break;
      case '!': if (b == '=') return 2; break;
      case '&': if (b == '&' || b == '=') return 2; break;
      case '|': if (b == '|' || b == '=') return 2; break;
      case '+': if (b == '+' || b == '=') return 2; break;
      case '*': case '/': case '%': case '^': if (b == '=') return 2; break;
      case '#': if (b == '#') return 2; break;
      case '.': if (b == '*') return 2; break;
      default: break;
    }
  }
  return 1;
}

bool IsStringPrefix(std::string_view id) {
  return id == "L" || id == "u" || id == "U" || id == "u8" || id == "R" || id == "LR" || id == "uR" || id == "UR" ||
         id == "u8R";
}
bool IsCharPrefix(std::string_view id) { return id == "L" || id == "u" || id == "U" || id == "u8"; }

// Scans one token at text[i] (not whitespace, not a comment). Returns its end.
// `type` is set. Used both for file text and fragments.
size_t ScanToken(std::string_view text, size_t i, TokType* type) {
  const size_t n = text.size();
  const char* s = text.data();
  unsigned char c = static_cast<unsigned char>(s[i]);
  auto scan_quoted = [&](size_t j, char quote) {  // j: after the opening quote
    while (j < n) {
      char d = s[j];
      if (d == '\\' && j + 1 < n) {
        j += 2;
        continue;
      }
      if (d == quote) return j + 1;
      if (d == '\n') return j;  // unterminated: stop at the line end
      ++j;
    }
    return n;
  };
  auto scan_raw = [&](size_t j) {  // j: at the opening quote of R"delim(
    size_t open = j + 1;
    size_t paren = open;
    while (paren < n && paren - open <= 16 && s[paren] != '(' && s[paren] != '"' && s[paren] != '\n') ++paren;
    if (paren >= n || s[paren] != '(') return scan_quoted(j + 1, '"');
    std::string close = ")" + std::string(s + open, paren - open) + "\"";
    size_t end = text.find(close, paren + 1);
    return end == std::string_view::npos ? n : end + close.size();
  };
  if (IsIdentStart(c)) {
    size_t j = i + 1;
    while (j < n && IsIdentChar(static_cast<unsigned char>(s[j]))) ++j;
    if (j < n && (s[j] == '"' || s[j] == '\'')) {
      std::string_view id(s + i, j - i);
      if (s[j] == '"' && IsStringPrefix(id)) {
        *type = TokType::kString;
        return id.back() == 'R' ? scan_raw(j) : scan_quoted(j + 1, '"');
      }
      if (s[j] == '\'' && IsCharPrefix(id)) {
        *type = TokType::kChar;
        return scan_quoted(j + 1, '\'');
      }
    }
    *type = TokType::kIdent;
    return j;
  }
  if (IsDigit(c) || (c == '.' && i + 1 < n && IsDigit(static_cast<unsigned char>(s[i + 1])))) {
    size_t j = i + 1;
    while (j < n) {
      unsigned char d = static_cast<unsigned char>(s[j]);
      if ((d == '+' || d == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' || s[j - 1] == 'P')) {
        ++j;
      } else if (IsIdentChar(d) || d == '.') {
        ++j;
      } else if (d == '\'' && j + 1 < n && IsIdentChar(static_cast<unsigned char>(s[j + 1]))) {
        j += 2;  // digit separator 1'000
      } else {
        break;
      }
    }
    *type = TokType::kNumber;
    return j;
  }
  if (c == '"') {
    *type = TokType::kString;
    return scan_quoted(i + 1, '"');
  }
  if (c == '\'') {
    *type = TokType::kChar;
    return scan_quoted(i + 1, '\'');
  }
  *type = TokType::kPunct;
  return i + PunctLength(s + i, n - i);
}

// A logical directive line starting at text[i] ('#'): returns its end (at the
// newline or EOF) and the line's text with `\`-newlines and comments removed.
size_t ReadDirective(std::string_view text, size_t i, std::string* logical, uint32_t* newlines) {
  const size_t n = text.size();
  logical->clear();
  size_t j = i;
  while (j < n) {
    char c = text[j];
    if (c == '\\' && j + 1 < n && (text[j + 1] == '\n' || (text[j + 1] == '\r' && j + 2 < n && text[j + 2] == '\n'))) {
      j += text[j + 1] == '\n' ? 2 : 3;
      ++*newlines;
      continue;
    }
    if (c == '\n') break;
    if (c == '/' && j + 1 < n && text[j + 1] == '/') {  // line comment: to the end (it may continue with '\')
      while (j < n && text[j] != '\n') {
        if (text[j] == '\\' && j + 1 < n && text[j + 1] == '\n') {
          ++*newlines;
          ++j;
        }
        ++j;
      }
      break;
    }
    if (c == '/' && j + 1 < n && text[j + 1] == '*') {
      size_t end = text.find("*/", j + 2);
      size_t stop = end == std::string_view::npos ? n : end + 2;
      for (size_t k = j; k < stop; ++k)
        if (text[k] == '\n') ++*newlines;
      logical->push_back(' ');
      j = stop;
      continue;
    }
    if (c == '"' || c == '\'') {  // a literal: copy it whole (it may hold "//")
      TokType t;
      size_t end = ScanToken(text, j, &t);
      if (end <= j) end = j + 1;
      logical->append(text.substr(j, end - j));
      j = end;
      continue;
    }
    logical->push_back(c);
    ++j;
  }
  return j;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (IsSpace(static_cast<unsigned char>(s.front())) || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (IsSpace(static_cast<unsigned char>(s.back())) || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

// Parses the text after "define" into a MacroDef; false when malformed.
bool ParseDefine(std::string_view rest, std::string_view path, uint32_t line, MacroDef* def) {
  size_t i = 0;
  while (i < rest.size() && IsSpace(static_cast<unsigned char>(rest[i]))) ++i;
  size_t start = i;
  while (i < rest.size() && IsIdentChar(static_cast<unsigned char>(rest[i]))) ++i;
  if (i == start || IsDigit(static_cast<unsigned char>(rest[start]))) return false;
  def->name = std::string(rest.substr(start, i - start));
  def->file = std::string(path);
  def->line = line;
  if (i < rest.size() && rest[i] == '(') {
    def->function_like = true;
    size_t close = rest.find(')', i);
    if (close == std::string_view::npos) return false;
    std::string_view params = rest.substr(i + 1, close - i - 1);
    size_t p = 0;
    while (p <= params.size()) {
      size_t comma = params.find(',', p);
      std::string_view one = Trim(params.substr(p, comma == std::string_view::npos ? std::string_view::npos : comma - p));
      if (!one.empty()) {
        if (one == "...") {
          def->variadic = true;
          def->params.push_back("__VA_ARGS__");
        } else if (one.size() > 3 && one.substr(one.size() - 3) == "...") {
          def->variadic = true;
          def->params.push_back(std::string(Trim(one.substr(0, one.size() - 3))));
        } else {
          def->params.push_back(std::string(one));
        }
      }
      if (comma == std::string_view::npos) break;
      p = comma + 1;
    }
    i = close + 1;
  }
  auto storage = std::make_shared<std::string>(Trim(rest.substr(i)));
  LexFragment(*storage, line, def->body);
  def->storage = std::move(storage);
  return true;
}

// "if 0" / "if (0)" / "if false": a region no compiler sees. 1 / true: its else is.
int ConstantCondition(std::string_view cond) {
  cond = Trim(cond);
  while (cond.size() >= 2 && cond.front() == '(' && cond.back() == ')') cond = Trim(cond.substr(1, cond.size() - 2));
  if (cond == "0" || cond == "false") return 0;
  if (cond == "1" || cond == "true") return 1;
  return -1;
}

class Lexer {
 public:
  Lexer(std::string_view path, std::string_view text, bool defines_only)
      : path_(path), text_(text), defines_only_(defines_only) {}

  LexResult Run();

 private:
  // Handles the directive at i ('#', first on its line); returns the position after it.
  size_t Directive(size_t i);
  // Skips a dead region (#if 0 ... ) from i; returns at the directive that ends it.
  size_t SkipDead(size_t i, bool else_live);
  // The end (its '\n', or EOF) of a line of code from i: a raw string or block
  // comment opened on it may end lines later, and a line starting with '#'
  // inside one is no directive (#defines in an NVRTC kernel's R"(...)" source).
  size_t SkipCodeLine(size_t i);
  // From the "//" at i to the newline that ends the comment (a backslash-newline
  // continues it), or EOF; from the "/*" at i past its "*/", or to EOF. Both count
  // the lines they cross.
  size_t SkipLineComment(size_t i);
  size_t SkipBlockComment(size_t i);
  void Emit(TokType type, size_t b, size_t e, bool space) {
    Token t;
    t.text = text_.substr(b, e - b);
    t.line = line_;
    t.column = static_cast<uint32_t>(b - line_start_);
    t.type = type;
    t.space_before = space;
    result_.tokens.push_back(t);
  }
  void Marker(TokType type) {
    Token t;
    t.type = type;
    t.line = line_;
    result_.tokens.push_back(t);
  }
  void NewLine(size_t after) {
    ++line_;
    line_start_ = after;
  }

  std::string_view path_;
  std::string_view text_;
  bool defines_only_;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
  LexResult result_;
  std::vector<bool> if_marked_;  // per open #if: whether a kIf marker was emitted
  std::string logical_;
};

size_t Lexer::Directive(size_t i) {
  uint32_t start_line = line_;
  uint32_t extra = 0;
  size_t end = ReadDirective(text_, i + 1, &logical_, &extra);
  std::string_view d = Trim(logical_);
  size_t k = 0;
  while (k < d.size() && IsIdentChar(static_cast<unsigned char>(d[k]))) ++k;
  std::string_view name = d.substr(0, k);
  std::string_view rest = d.substr(k);
  // Line bookkeeping: the directive's own continuation lines.
  line_ += extra;
  if (extra) {
    size_t last_nl = text_.rfind('\n', end == 0 ? 0 : end - 1);
    if (last_nl != std::string_view::npos && last_nl >= i) line_start_ = last_nl + 1;
  }
  if (name == "define") {
    MacroDef def;
    if (ParseDefine(rest, path_, start_line, &def)) result_.macros.push_back(std::move(def));
    return end;
  }
  if (name == "include" || name == "include_next" || name == "import") {
    std::string_view r = Trim(rest);
    if (r.size() > 2 && (r[0] == '"' || r[0] == '<')) {
      size_t close = r.find(r[0] == '"' ? '"' : '>', 1);
      if (close != std::string_view::npos && close > 1) result_.includes.emplace_back(r.substr(1, close - 1));
    }
    return end;
  }
  if (defines_only_) return end;
  if (name == "if" || name == "ifdef" || name == "ifndef") {
    int constant = name == "if" ? ConstantCondition(rest) : -1;
    if (constant == 0) {
      if_marked_.push_back(false);
      return SkipDead(end, /*else_live=*/true);
    }
    if (constant == 1) {
      if_marked_.push_back(false);
      return end;  // its #else is dead (SkipDead at the #else below)
    }
    if_marked_.push_back(true);
    Marker(TokType::kIf);
    return end;
  }
  if (name == "elif" || name == "else" || name == "elifdef" || name == "elifndef") {
    if (!if_marked_.empty() && !if_marked_.back()) {
      // The branch before was live code of an `#if 1`: what follows is dead.
      return SkipDead(end, /*else_live=*/false);
    }
    if (!if_marked_.empty()) Marker(TokType::kElse);
    return end;
  }
  if (name == "endif") {
    if (!if_marked_.empty()) {
      if (if_marked_.back()) Marker(TokType::kEndif);
      if_marked_.pop_back();
    }
    return end;
  }
  return end;  // include, pragma, undef, error, line, ...
}

size_t Lexer::SkipLineComment(size_t i) {
  const size_t n = text_.size();
  const char* s = text_.data();
  while (i < n && s[i] != '\n') {
    if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {  // continued comment
      i += 2;
      NewLine(i);
      continue;
    }
    ++i;
  }
  return i;
}

size_t Lexer::SkipBlockComment(size_t i) {
  const size_t n = text_.size();
  size_t end = text_.find("*/", i + 2);
  size_t stop = end == std::string_view::npos ? n : end + 2;
  for (size_t k = i; k < stop; ++k)
    if (text_[k] == '\n') NewLine(k + 1);
  return stop;
}

size_t Lexer::SkipCodeLine(size_t i) {
  const size_t n = text_.size();
  const char* s = text_.data();
  const void* nl = std::memchr(s + i, '\n', n - i);
  const size_t eol = nl ? static_cast<size_t>(static_cast<const char*>(nl) - s) : n;
  std::string_view line = text_.substr(i, eol - i);
  if (line.find("R\"") == std::string_view::npos && line.find("/*") == std::string_view::npos) return eol;
  // Token by token, as Run() reads code, until a newline outside any literal or
  // comment. `first`: nothing but comments before, so a '#' is a directive's
  // (`/* ... */ #define X`, as in Run()).
  bool first = true;
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') return i;
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    if (c == '#' && first) return Directive(i);
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      return SkipLineComment(i);
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i = SkipBlockComment(i);
      continue;
    }
    first = false;
    TokType type;
    size_t end = ScanToken(text_, i, &type);
    if (end <= i) end = i + 1;
    if (type == TokType::kString || type == TokType::kChar) {
      for (size_t k = i; k < end; ++k)
        if (s[k] == '\n') NewLine(k + 1);
    }
    i = end;
  }
  return n;
}

size_t Lexer::SkipDead(size_t i, bool else_live) {
  // i is at the end of a directive line. Walk line by line; only directives matter.
  const size_t n = text_.size();
  int depth = 0;
  while (i < n) {
    if (text_[i] == '\n') {
      NewLine(i + 1);
      ++i;
    }
    size_t j = i;
    while (j < n && IsSpace(static_cast<unsigned char>(text_[j]))) ++j;
    if (j < n && text_[j] == '#') {
      uint32_t extra = 0;
      size_t end = ReadDirective(text_, j + 1, &logical_, &extra);
      std::string_view d = Trim(logical_);
      size_t k = 0;
      while (k < d.size() && IsIdentChar(static_cast<unsigned char>(d[k]))) ++k;
      std::string_view name = d.substr(0, k);
      line_ += extra;
      if (extra) {
        size_t last_nl = text_.rfind('\n', end == 0 ? 0 : end - 1);
        if (last_nl != std::string_view::npos && last_nl >= j) line_start_ = last_nl + 1;
      }
      if (name == "if" || name == "ifdef" || name == "ifndef") {
        ++depth;
      } else if (name == "endif") {
        if (depth == 0) {
          if (!if_marked_.empty()) if_marked_.pop_back();
          return end;
        }
        --depth;
      } else if (depth == 0 && else_live && (name == "else" || name == "elif")) {
        if (name == "elif" && ConstantCondition(d.substr(k)) == 0) {
          i = end;
          continue;  // #elif 0: still dead
        }
        if (name == "elif") {  // a live conditional branch from here on
          if (!if_marked_.empty()) if_marked_.back() = true;
          Marker(TokType::kIf);
        }
        return end;
      }
      i = end;
      continue;
    }
    // Not a directive: skip to the end of the line (a block comment may span lines,
    // but a directive inside one is rare enough to ignore).
    const void* nl = std::memchr(text_.data() + i, '\n', n - i);
    i = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text_.data()) : n;
  }
  return n;
}

LexResult Lexer::Run() {
  const size_t n = text_.size();
  const char* s = text_.data();
  size_t i = 0;
  if (n >= 3 && std::memcmp(s, "\xEF\xBB\xBF", 3) == 0) i = 3;
  bool at_line_start = true;
  bool space = false;
  if (defines_only_) {
    // Only lines whose first non-blank character is '#' matter.
    while (i < n) {
      size_t j = i;
      while (j < n && IsSpace(static_cast<unsigned char>(s[j]))) ++j;
      i = j < n && s[j] == '#' ? Directive(j) : SkipCodeLine(j);
      if (i < n && s[i] == '\n') {
        NewLine(i + 1);
        ++i;
      }
    }
    return std::move(result_);
  }
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      NewLine(i + 1);
      ++i;
      at_line_start = true;
      space = true;
      continue;
    }
    if (IsSpace(c)) {
      ++i;
      space = true;
      continue;
    }
    if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {  // stray splice
      ++i;
      space = true;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      i = SkipLineComment(i);
      space = true;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i = SkipBlockComment(i);
      space = true;
      continue;
    }
    if (c == '#' && at_line_start) {
      i = Directive(i);
      space = true;
      continue;
    }
    at_line_start = false;
    TokType type;
    size_t end = ScanToken(text_, i, &type);
    if (end <= i) end = i + 1;
    Emit(type, i, end, space);
    // A literal may span lines (raw strings, `\`-newline inside quotes).
    if (type == TokType::kString || type == TokType::kChar) {
      for (size_t k = i; k < end; ++k)
        if (s[k] == '\n') NewLine(k + 1);
    }
    space = false;
    i = end;
  }
  return std::move(result_);
}

}  // namespace

LexResult Lex(std::string_view path, std::string_view text) { return Lexer(path, text, false).Run(); }

LexResult LexDefines(std::string_view path, std::string_view text) { return Lexer(path, text, true).Run(); }

void LexFragment(std::string_view text, uint32_t line, std::vector<Token>& out) {
  size_t i = 0, n = text.size();
  bool space = false;
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (IsSpace(c) || c == '\n') {
      ++i;
      space = true;
      continue;
    }
    TokType type;
    size_t end = ScanToken(text, i, &type);
    if (end <= i) end = i + 1;
    Token t;
    t.text = text.substr(i, end - i);
    t.line = line;
    t.type = type;
    t.space_before = space;
    out.push_back(t);
    space = false;
    i = end;
  }
}

}  // namespace errdex::cpp
