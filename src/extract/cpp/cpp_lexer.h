// The C/C++/CUDA lexer: one pass over a file's bytes giving preprocessing
// tokens (identifiers, pp-numbers, string and character literals with their
// prefixes and raw strings, punctuators), comments dropped, `\`-newlines
// spliced, and the directives read on the way: every `#define` becomes a
// MacroDef, `#if`/`#else`/`#endif` become marker tokens so the walker can keep
// its brace depth across conditional branches, and `#if 0` regions are dropped
// (no compiler ever sees them). Everything else (#include, #pragma, ...) is
// skipped. Never fails: malformed input gives best-effort tokens.
//
// Thread-compatible. Tested by cpp_extractor_test.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::cpp {

enum class TokType : uint8_t {
  kIdent,
  kNumber,
  kString,   // "..." with optional prefix (L u U u8 R); text is the whole spelling
  kChar,     // '...'
  kPunct,
  kIf,       // #if / #ifdef / #ifndef  (markers, text empty)
  kElse,     // #else / #elif
  kEndif,
};

struct Token {
  std::string_view text;  // into the file text, a macro body, or the file's arena
  uint32_t line = 0;      // 1-based line of the token (of the macro invocation for tokens a macro made)
  uint32_t column = 0;    // 0-based byte column, same rule
  TokType type = TokType::kPunct;
  bool space_before = false;  // whitespace (or a comment) precedes it
  bool from_macro = false;    // made by a macro expansion (body text, not written at this place)
  uint32_t chain = 0;         // Expander: which expansion made it (0: none)
  bool Is(std::string_view s) const { return text == s; }
  bool IsPunct(char c) const { return type == TokType::kPunct && text.size() == 1 && text[0] == c; }
};

// One `#define`. Body tokens point into `storage`.
struct MacroDef {
  std::string name;
  bool function_like = false;
  std::vector<std::string> params;  // variadic: the last one is "__VA_ARGS__" (or the GNU name)
  bool variadic = false;
  std::vector<Token> body;
  std::string file;  // repo-relative path of the definition
  uint32_t line = 0;
  std::shared_ptr<const std::string> storage;  // the logical line the body tokens point into
};

struct LexResult {
  std::vector<Token> tokens;
  std::vector<MacroDef> macros;       // in file order
  std::vector<std::string> includes;  // the #include'd names ("a/b.h" of <a/b.h> and "a/b.h"), in order
};

// Lexes `text` (the file at repo-relative `path`). Tokens point into `text`,
// which must outlive them.
LexResult Lex(std::string_view path, std::string_view text);

// Only the #define and #include lines of `text` (the repository-wide macro
// table's pass; much faster than Lex since everything else is skipped by
// memchr). `tokens` stays empty.
LexResult LexDefines(std::string_view path, std::string_view text);

// Tokens of one piece of text (a macro body, a pasted token), all on `line`.
void LexFragment(std::string_view text, uint32_t line, std::vector<Token>& out);

}  // namespace errdex::cpp
