// document/text: the small string helpers every part of the document stage
// uses (backticks, lists in prose, case, identifiers, sentence splitting). No
// regular expressions anywhere in the stage: each helper is a linear scan, so
// input-sized text (a 60 KB guard, a 16k-hole message) costs linear time and
// no recursion. Pure functions; tested by text_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex::doc {

// `s` in backticks.
std::string BT(std::string_view s);
std::string Trim(std::string_view s);
std::string_view TrimView(std::string_view s);
// Collapses runs of whitespace (multi-line guards) into one space; no space
// after an opening or before a closing bracket.
std::string OneLine(std::string_view s);
// "a", "a or b", "a, b or c".
std::string JoinWords(const std::vector<std::string>& xs, std::string_view last = "or");
std::vector<std::string> Ticked(const std::vector<std::string>& xs);
// Shows at most `max` items, then "and N more".
std::string JoinSome(const std::vector<std::string>& xs, std::string_view last, size_t max);
std::string Lower(std::string_view s);
std::string Upper(std::string_view s);
std::string Kebab(std::string_view s);  // DeepEP_Mode -> deep-ep-mode; a_b -> a-b
bool IsIdent(std::string_view s);
bool IsDotted(std::string_view s);  // a.b.c
bool IsUpperName(std::string_view s);  // SGLANG_X (>= 3 chars, a letter, no lower case)
std::string LastComponent(std::string_view s);
std::string FirstComponent(std::string_view s);
bool Has(std::string_view s, std::string_view lit);
bool StartsWith(std::string_view s, std::string_view lit);
bool EndsWith(std::string_view s, std::string_view lit);
// The stage runs in the "C" locale (nothing calls setlocale): std::isalnum and
// std::tolower are these ASCII tests, inline here because the scans below call them
// for every byte of every record's prose.
inline bool IsAsciiAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
inline char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c; }
inline bool IsWordChar(char c) { return IsAsciiAlnum(c) || c == '_' || (unsigned char)c >= 0x80; }  // [A-Za-z0-9_] or a byte >= 0x80
// `word` occurs in `s` as a whole identifier (not inside a longer one).
bool HasWord(std::string_view s, std::string_view word);
// Python string literal for `s` (double quotes, escapes \\ \" \n \t).
std::string PyQuote(std::string_view s);
// Cuts `s` to at most `max` bytes at a word boundary (never inside a UTF-8
// sequence), appending "…" when cut.
std::string Clip(std::string_view s, size_t max);

// Sentences of a message: split after . ! ? ; (followed by a space or the end)
// and at newlines; each trimmed, empty ones dropped.
std::vector<std::string> Sentences(std::string_view msg);
// Lower-cased words ([a-z0-9_-]+ runs; other bytes separate) of `s`; `{...}`
// holes are skipped.
std::vector<std::string> Words(std::string_view s);
// The text after an opening parenthesis up to its matching ')' (all of it when unclosed):
// "retry close() on all ranks): {err}" -> "retry close() on all ranks".
std::string UpToClosingParen(std::string_view after_open);
// Offsets of `c` in `s` outside string literals ("", '', ``) and brackets: the first
// (`last` false) or the last; npos when none.
size_t TopLevelChar(std::string_view s, char c, bool last = false);
// The first words only (at most `max`, maybe one more): cheap on long texts.
std::vector<std::string> Words(std::string_view s, size_t max);
// Words(s, max) as views into `arena` (overwritten; keep it alive while the views are
// used): no string per word.
std::vector<std::string_view> WordViews(std::string_view s, size_t max, std::string* arena);
// Words(s), each followed by one space ("a b c "), built without the vector.
std::string SpacedWords(std::string_view s);

// An integer literal (optionally negative, at most 12 characters).
bool IntLiteral(const std::string& s, long* v);

// Is `s` a Python literal constant (True, False, None, a number, "..." , ...)?
bool IsConstantExpr(std::string_view s);

// Is `s` the name of one of Python's built-in value types (str, bytes, int, float, bool,
// list, tuple, dict, set, frozenset, bytearray, complex)?
bool IsBuiltinType(std::string_view s);

}  // namespace errdex::doc
