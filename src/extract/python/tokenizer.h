// Python tokenizer: one linear pass over a file's bytes producing tokens with
// byte offsets, 1-based lines and 0-based UTF-8 byte columns, plus the file's
// logical lines (statements up to NEWLINE) with their indentation. Owned by the
// Python front end; reused by document/ (argparse add_argument calls, env reads).
//
// What it handles: NAME (bytes >= 0x80 count as identifier bytes, so invalid
// UTF-8 never stops it), NUMBER, STRING with every prefix (r b u f rb br fr rf,
// any case), triple quotes, f-strings with PEP 701 nesting (quotes, nested
// f-strings and format specs inside replacement fields), OP (longest match),
// comments, NEWLINE/INDENT/DEDENT driven by bracket depth and backslash
// continuation, line endings \n, \r\n and \r (as CPython and oracle_py's
// split_lines), form feeds (reset the indentation column) and tabs (to the next
// multiple of 8), a UTF-8 byte order mark at the start (skipped, as CPython's
// utf-8-sig: line 1's columns count from after it). Problems (unterminated string, stray byte, unmatched bracket,
// inconsistent dedent) become Diagnostics; tokenizing always runs to the end.
//
// Limits: f-string nesting deeper than kMaxFStringDepth is scanned as plain
// text (diagnostic); at most kMaxDiagnostics diagnostics are kept per file.
// Linear time in the input size; no recursion beyond kMaxFStringDepth.
//
// Thread-safety: Tokenize is a pure function.
// Tested by tokenizer_test.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "extract/common/diagnostic.h"

namespace errdex::py {

enum class TokenKind : uint8_t {
  kName,
  kNumber,
  kString,   // one literal, prefix and quotes included (f-strings whole)
  kOp,       // operator or delimiter, longest match ("**=", "->", ":=", "...")
  kComment,  // only with TokenizeOptions::keep_comments
  kNewline,  // end of a logical line (zero-width, at the line break)
  kIndent,   // zero-width, before the first token of a more indented line
  kDedent,   // zero-width, one per closed indentation level
  kError,    // a byte that starts no token (e.g. '$', '?', NUL)
  kEnd,      // end of input (always the last token)
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  uint32_t begin = 0;  // byte offset of the first byte
  uint32_t end = 0;    // byte offset one past the last byte
  int32_t line = 0;    // 1-based line of `begin`
  int32_t col = 0;     // 0-based byte column of `begin`
};

// A logical line: tokens [first, last) of Tokens::tokens (its NEWLINE excluded,
// INDENT/DEDENT excluded) and the visual indentation of its first token.
struct LogicalLine {
  uint32_t first = 0;
  uint32_t last = 0;
  int32_t indent = 0;
};

struct TokenizeOptions {
  bool keep_comments = false;
  std::string_view path;  // only used in diagnostics
};

struct Tokens {
  std::vector<Token> tokens;
  std::vector<LogicalLine> lines;
  std::vector<uint32_t> line_starts;  // byte offset of each physical line (line n at [n-1])
  std::vector<Diagnostic> diagnostics;

  // 1-based line of a byte offset (binary search over line_starts).
  int LineOf(uint32_t offset) const;
};

inline constexpr int kMaxFStringDepth = 64;
inline constexpr size_t kMaxDiagnostics = 32;

// Tokenizes a whole file. `text` must outlive nothing: tokens hold offsets only.
// REQUIRES: text.size() < 4 GiB.
Tokens Tokenize(std::string_view text, const TokenizeOptions& options = {});
// Same, into `out`, reusing its capacity (for callers tokenizing many files).
void Tokenize(std::string_view text, const TokenizeOptions& options, Tokens* out);

// Tokenizes text[begin, end) as the inside of brackets (newlines are whitespace,
// no NEWLINE/INDENT tokens), e.g. an f-string replacement field. Offsets stay
// relative to `text`; lines/cols are left 0. Appends to `out`, ends with kEnd.
void TokenizeExpression(std::string_view text, uint32_t begin, uint32_t end, std::vector<Token>* out);

// If text[pos] starts a string literal (optional prefix, then a quote), the
// offset one past its end (end of line/input when unterminated); else pos.
size_t StringLiteralEnd(std::string_view text, size_t pos);

// Helpers over a token and the text it came from.
inline std::string_view TokenText(std::string_view text, const Token& t) {
  return text.substr(t.begin, t.end - t.begin);
}
inline bool IsOp(std::string_view text, const Token& t, char c) {
  return t.kind == TokenKind::kOp && t.end - t.begin == 1 && text[t.begin] == c;
}
inline bool IsOp(std::string_view text, const Token& t, std::string_view op) {
  return t.kind == TokenKind::kOp && TokenText(text, t) == op;
}
inline bool IsName(std::string_view text, const Token& t, std::string_view name) {
  return t.kind == TokenKind::kName && TokenText(text, t) == name;
}

// The prefix of a string token: which of r/b/f/u it has, and the quote.
struct StringInfo {
  bool raw = false, bytes = false, fstring = false;
  uint32_t body_begin = 0, body_end = 0;  // offsets of the text between the quotes
  bool terminated = true;
};
StringInfo AnalyzeString(std::string_view text, const Token& t);

// Decodes the escapes of a (non-raw) string body as CPython does for str
// literals: \n \t \\ \' \" \a \b \f \v \r \ooo \xhh \uXXXX \UXXXXXXXX, backslash-
// newline removed; \N{...} and unknown escapes are kept as written. Raw bodies
// are returned unchanged. Line endings \r\n / \r inside become \n.
std::string DecodeStringBody(std::string_view body, bool raw);

}  // namespace errdex::py
