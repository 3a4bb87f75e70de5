// document/py_tokens: the document stage's view of Python tokens. The tokens
// come from the front end's tokenizer (extract/python/tokenizer.h) -- one
// Python lexer for both stages; this file only adds what the stage asks of
// them: bracket depth, matching brackets, top-level splits, decoded string
// literals and source spans. Linear in what it looks at; no recursion.
//
// Thread-safety: a Toks is immutable after construction; the helpers are pure.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "extract/python/tokenizer.h"

namespace errdex::doc {

// Tokens of `text` with the bracket depth before each token. NEWLINE, INDENT,
// DEDENT and comment tokens are kept as the tokenizer gives them (expressions
// never contain them). Always ends with a kEnd token.
class Toks {
 public:
  // A whole file (logical lines, INDENT/DEDENT).
  static Toks File(std::string_view text);
  // The same from tokens the front end already made of `text` (consumed).
  static Toks FromTokens(std::string_view text, py::Tokens&& tokens);
  // An expression (a guard): newlines are whitespace.
  static Toks Expression(std::string_view text);

  std::string_view text() const { return text_; }
  [[gnu::always_inline]] size_t size() const { return t_.size(); }
  [[gnu::always_inline]] const py::Token& operator[](size_t i) const { return t_[i]; }
  const std::vector<py::Token>& tokens() const { return t_; }
  const std::vector<py::LogicalLine>& lines() const { return lines_; }
  // Indices of the name tokens directly followed by a one-byte '(' (calls, defs,
  // classes), ascending: FileIndex reads these instead of every token.
  const std::vector<uint32_t>& call_names() const { return call_names_; }
  [[gnu::always_inline]] int depth(size_t i) const { return i < t_.size() ? depth_[i] : 0; }
  // 1-based physical line of token i (File only; Expression: 0).
  int line(size_t i) const { return i < t_.size() ? t_[i].line : 0; }
  // 1-based physical line of the last byte of token i (File only).
  int EndLine(size_t i) const;
  // Number of physical lines (File only).
  int LineCount() const { return (int)line_starts_.size(); }

  // The accessors below run millions of times per scan: no substr (which may throw
  // and so is not inlined), just the bytes.
  [[gnu::always_inline]] std::string_view Text(size_t i) const {
    return i < t_.size() ? std::string_view(text_.data() + t_[i].begin, t_[i].end - t_[i].begin) : std::string_view();
  }
  // string_view's operator== is not inlined at -O2; with the length tested here and a
  // literal's constant length, memcmp becomes a few inline compares.
  [[gnu::always_inline]] static bool Same(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), b.size()) == 0;
  }
  [[gnu::always_inline]] bool IsOp(size_t i, std::string_view op) const { return i < t_.size() && t_[i].kind == py::TokenKind::kOp && Same(Text(i), op); }
  // A one-character operator (inline: the hot loops test `(`, `.`, `=`, `:` ...).
  [[gnu::always_inline]] bool IsOp1(size_t i, char op) const {
    return i < t_.size() && t_[i].kind == py::TokenKind::kOp && t_[i].end == t_[i].begin + 1 && text_[t_[i].begin] == op;
  }
  [[gnu::always_inline]] bool IsName(size_t i, std::string_view n) const { return i < t_.size() && t_[i].kind == py::TokenKind::kName && Same(Text(i), n); }
  [[gnu::always_inline]] bool IsKind(size_t i, py::TokenKind k) const { return i < t_.size() && t_[i].kind == k; }
  bool IsString(size_t i) const { return IsKind(i, py::TokenKind::kString); }
  // Decoded value of a (non-f, non-bytes) string token; false otherwise.
  bool StringAt(size_t i, std::string* out) const;
  bool FStringAt(size_t i) const;

  // Index of the token closing the bracket opened at `open`, or size()-1 (kEnd)
  // when unbalanced. REQUIRES: token `open` is ( [ or {.
  size_t MatchBracket(size_t open) const;
  // [b, e) is only string literals (implicit concatenation): their joined value.
  bool StringValue(size_t b, size_t e, std::string* out) const;
  // [b, e) is a list/tuple/set literal of strings (or one string): the strings.
  bool StringList(size_t b, size_t e, std::vector<std::string>* out) const;
  // Splits [b, e) at `sep` (an operator or a keyword) at the depth of token b.
  std::vector<std::pair<size_t, size_t>> SplitTopLevel(size_t b, size_t e, std::string_view sep = ",") const;
  // Source text of [b, e) (b < e), or "".
  std::string_view Span(size_t b, size_t e) const;

 private:
  void ComputeDepth();
  std::string_view text_;
  std::vector<py::Token> t_;
  std::vector<py::LogicalLine> lines_;
  std::unique_ptr<int[]> depth_;  // one per token; not zero-filled first (ComputeDepth writes each)
  std::vector<uint32_t> line_starts_;
  std::vector<uint32_t> call_names_;
};

}  // namespace errdex::doc
