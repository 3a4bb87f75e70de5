// document/py_lex: a small, self-contained Python lexer used only by the document
// stage (repo-knowledge collection and guard analysis). It is deliberately much
// simpler than extract/python's tokenizer: no INDENT/DEDENT, f-strings are one
// opaque STRING token, invalid input never fails (unknown bytes become OP tokens).
// Kept separate so the document stage does not depend on the front end's
// internals while those are being written.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "document/text.h"

namespace errdex::doc {

struct PyTok {
  enum Kind { kName, kString, kNumber, kOp, kNewline, kEnd };
  Kind kind = kEnd;
  std::string_view text;  // exact source text (for strings: with prefix and quotes)
  std::string value;      // kString: the decoded contents (escapes of non-raw strings applied)
  bool fstring = false;   // kString: an f-string (value holds the raw template)
  int line = 1;           // 1-based line of the first byte
  size_t begin = 0, end = 0;  // byte offsets into the lexed text
  int depth = 0;          // bracket depth before this token
};

// Tokenizes `text`. NEWLINE tokens are emitted only at logical line ends (outside
// brackets, not after a backslash continuation). Always ends with one kEnd token.
std::vector<PyTok> LexPython(std::string_view text);
// The same into `*toks` (cleared first; its capacity is reused). With
// `first_line_only`, stops after the first NEWLINE token (then kEnd): the
// tokens of the first logical line, exactly as LexPython would give them.
void LexPythonInto(std::string_view text, std::vector<PyTok>* toks, bool first_line_only = false);

// Index of the token closing the bracket opened at `open` (one of ( [ {), or the
// index of kEnd when unbalanced. REQUIRES: toks[open] is an opening bracket.
size_t MatchBracket(const std::vector<PyTok>& toks, size_t open);

// If toks[b, e) is only string literals (implicit concatenation), their joined
// value; otherwise false.
bool StringValue(const std::vector<PyTok>& toks, size_t b, size_t e, std::string* out);

// If toks[b, e) is a list/tuple/set literal of string literals (or one string),
// the strings; otherwise false.
bool StringList(const std::vector<PyTok>& toks, size_t b, size_t e, std::vector<std::string>* out);

// Splits toks[b, e) at top-level commas (relative depth 0) into [begin, end) spans.
std::vector<std::pair<size_t, size_t>> SplitTopLevel(const std::vector<PyTok>& toks, size_t b, size_t e,
                                                     std::string_view sep = ",");

// Source text of toks[b, e) as it appears in `src` (b < e), or "".
std::string_view SpanText(std::string_view src, const std::vector<PyTok>& toks, size_t b, size_t e);


}  // namespace errdex::doc
