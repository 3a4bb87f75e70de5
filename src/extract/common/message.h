// Messages as the C/C++, Rust, Go, Java and JavaScript front ends rebuild them: a list of
// segments (literal text and holes standing for values known only at run time),
// possibly several alternatives, rendered into a Site's errorMessage /
// messagePattern / interpolations in the one form of model/pattern.h; and the
// format-string languages those front ends meet (printf in its C, Go and Java
// dialects, Guava's %s, `{}` placeholders of fmt/std::format, Rust, SLF4J and
// MessageFormat), applied to already evaluated arguments.
//
// Pure functions; thread-compatible. Tested by message_test.cc.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/site.h"

namespace errdex::msg {

struct Seg {
  bool hole = false;
  std::string text;  // literal bytes, or the hole's source expression
};
using Segs = std::vector<Seg>;
using Alts = std::vector<Segs>;  // one message or several ("a" or "b"); never empty when returned

inline constexpr size_t kMaxAlternatives = 16;
inline constexpr size_t kMaxMessageBytes = 64 * 1024;

inline Seg Lit(std::string s) { return Seg{false, std::move(s)}; }
inline Seg Hole(std::string s) { return Seg{true, std::move(s)}; }

// Appends, merging adjacent literal text; empty literals vanish.
void Append(Segs& segs, Seg seg);
void AppendAll(Segs& segs, const Segs& more);
// Every a + b (cartesian, at most kMaxAlternatives).
Alts Concat(const Alts& a, const Alts& b);
// Total literal bytes of the largest alternative.
size_t Bytes(const Alts& alts);
// True when the message has no literal text and no hole (the empty string).
bool IsEmpty(const Segs& segs);
bool HasLiteral(const Segs& segs);
// One alternative as a single Segs: itself when there is one, else a hole
// named `expr` (a value used inside another message).
Segs Single(const Alts& alts, std::string_view expr);

// Fills site.error_message (each hole shown as {expr}), message_pattern,
// interpolations and message_alternatives. A message without literal text
// leaves error_message / message_pattern unset (the message is unknown); an
// alternative without literal text among others becomes the group (.*?).
void RenderInto(Site& site, const Alts& alts);

// ---------------------------------------------------------------------------
// Format strings. `args` are the evaluated arguments after the format; each is
// one Segs. The result keeps the format's holes and replaces each placeholder
// by its argument (a hole, or literal text when the argument is a literal a
// conversion prints as is).

enum class Printf {
  kC,       // C printf / Python's PyUnicode_FromFormat: %[flags][width][.prec][hh|h|l|ll|z|j|t|L]conv, %%
  kGo,      // fmt.Printf: %[flags][width][.prec]verb, %[n]verb, %%; missing args stay holes
  kJava,    // java.util.Formatter: %[n$][flags][width][.prec]conv, %n newline, %%
  kGuava,   // Guava Preconditions/Strings.lenientFormat: only %s; extra args appended " [a, b]"
};
Segs ApplyPrintf(const Segs& format, const std::vector<Segs>& args, Printf dialect);

enum class Braces {
  kFmt,            // fmt::format / std::format: {} {0} {:spec} {0:spec}, {{ }}
  kRust,           // format!: {} {:?} {0} {name} {name:>8}, {{ }}; named args resolved by caller
  kSlf4j,          // SLF4J: {} only, \{} escapes; a Throwable left over is not text
  kMessageFormat,  // java.text.MessageFormat: {0} {1,number}, '' quoting
};
// `named` resolves {name} (Rust named arguments / captured identifiers): return
// nullopt for an unknown name (it becomes a hole named as written).
struct NamedArg {
  std::string name;
  Segs value;
};
Segs ApplyBraces(const Segs& format, const std::vector<Segs>& args, Braces dialect,
                 const std::vector<NamedArg>& named = {});

}  // namespace errdex::msg
