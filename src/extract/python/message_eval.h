// Symbolic message evaluation for the Python front end: a message is a list of
// segments (literal text, holes standing for interpolated expressions, and
// alternatives from `a if c else b`), rendered into errorMessage /
// messagePattern exactly as ../shared/tools/oracle_py.py does (render, expand,
// %-formatting, str.format parsing, dedent/cleandoc/strip).
// Pure functions; thread-compatible. Tested by python_extractor_test.cc.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::py {

struct Seg {
  enum Type : uint8_t { kLit, kHole, kAlt } type = kLit;
  std::string text;                       // literal text or hole expression text
  std::vector<std::vector<Seg>> options;  // kAlt
  static Seg Lit(std::string s) { Seg g; g.text = std::move(s); return g; }
  static Seg Hole(std::string s) { Seg g; g.type = kHole; g.text = std::move(s); return g; }
};
using Segs = std::vector<Seg>;
using MaybeSegs = std::optional<Segs>;

inline constexpr size_t kMaxAlternatives = 16;
// One alternation of whole texts read from elsewhere -- the literal messages a
// helper's callers pass (decimal's 102 `context._raise_error(X, "...")` calls),
// the returns of a message function -- may hold more: each is a message the site
// prints, and no product multiplies them.
inline constexpr size_t kMaxReadAlternatives = 128;

bool HasAlt(const Segs& segs);
// Alt-free segment lists (cartesian product); past kMaxAlternatives an Alt
// becomes the hole "..." (past kMaxReadAlternatives when it is the only one).
std::vector<Segs> Expand(const Segs& segs);
// Applies `fn` to every alternative; nullopt if any alternative fails.
MaybeSegs PerAlt(const Segs& segs, const std::function<MaybeSegs(const Segs&)>& fn);

// Applies a text transform to the literal text, keeping holes in place.
Segs MapText(const Segs& segs, const std::function<std::string(const std::string&)>& fn);

std::string PyStrip(const std::string& s, bool left, bool right);
std::string TextwrapDedent(const std::string& s);
std::string InspectCleandoc(const std::string& s);
std::string ReplaceAll(const std::string& s, const std::string& from, const std::string& to);

struct Rendered {
  std::optional<std::string> message;   // null when no literal text at all
  std::optional<std::string> pattern;
  bool is_template = false;
  std::vector<std::string> alternatives;  // >1 only
  std::vector<std::string> holes;         // hole texts of the first rendered alternative
};
Rendered Render(const MaybeSegs& segs);

// One %-conversion found at text[pos] ('%' there): regex of oracle_py's _PCT_RE.
struct PercentSpec {
  size_t end = 0;       // 0: no match
  bool has_name = false;
  std::string name;
  char conv = 0;        // '%' for "%%"
};
PercentSpec MatchPercent(std::string_view text, size_t pos);

// string.Formatter().parse(): (literal, field?, spec, conv?) tuples; nullopt on
// the ValueErrors CPython raises (single '}', unmatched '{', bad conversion).
struct FormatPiece {
  std::string literal;
  bool has_field = false;
  std::string field, spec;
  char conv = 0;
};
std::optional<std::vector<FormatPiece>> ParseFormatString(std::string_view s);

}  // namespace errdex::py
