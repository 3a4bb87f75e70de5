// document/guards: turns the guard chain of a Site (exact source text of each
// enclosing if/elif/while test, outermost first, "not (...)" for else branches)
// into clauses: a conjunction of disjunctions of comparison atoms, with every
// `not` pushed down to the atoms (De Morgan; == <-> !=, in <-> not in, ...).
// Pure functions; tested by guards_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex::doc {

// One comparison `lhs op rhs`, or a truth test of `lhs` (op empty).
struct Atom {
  std::string lhs;   // source text
  std::string op;    // "==", "!=", "in", "not in", "is", "is not", "<", "<=", ">", ">=", or "" (truth)
  std::string rhs;   // source text ("" for a truth test)
  bool falsy = false;                // truth test: true means "lhs is false"
  std::vector<std::string> values;   // rhs as string literal(s) / list of string literals
  bool rhs_strings = false;          // values holds the literal(s) of rhs (strings, or numbers: rhs_numbers)
  bool rhs_numbers = false;          // `x in (32, 64)`: values are the numbers' text
  // rhs as code constants a caller can type, when it is no string or number list:
  // `!= torch.bfloat16`, `not in (None, "engine")`, `!= (64, 64, 128)`, `not in [cutlass.Float16, ...]`
  // (each item a literal or a module-qualified name; never self./cls. state or a bare name).
  std::vector<std::string> constants;
  std::string Code() const;          // code form: `a == "x"`, `not f()`, `x`
};

// A disjunction of atoms (usually one) from guard number `guard`.
struct Clause {
  std::vector<Atom> any_of;
  int guard = 0;
  bool from_else = false;  // the guard was "not (T)": an earlier if/elif/else sibling
  std::string negated_test;  // from_else: T, the sibling's own test text
};

// Parses one guard text into clauses appended to `out` ("not (T)": T negated, from_else).
void ParseGuard(std::string_view text, int guard_index, std::vector<Clause>* out);
// Parses a condition that must hold (an assert's, a TORCH_CHECK's), negated when
// `negate`; never from_else.
void ParseCondition(std::string_view cond, bool negate, int guard_index, std::vector<Clause>* out);

// "not (T)" -> T (with the outer parentheses removed); otherwise false.
bool StripNot(std::string_view guard, std::string* inner);

// Flips a comparison operator ("==" -> "!=", "<" -> ">=", ...).
std::string FlipOp(std::string_view op);

}  // namespace errdex::doc

namespace errdex::doc {

// A condition of another language in the Python form ParseGuard reads, so the
// rest of the stage is one code path for every language's Site facts:
//   all:   === / == -> ==, !== / != -> !=, && -> and, || -> or, a leading ! -> not,
//          null / undefined / nullptr / NULL / nil -> None, true / false -> True / False,
//          `== None` / `!= None` -> is / is not, `::` and `->` -> `.`
//   javascript/typescript: `x instanceof T` -> isinstance(x, T), `typeof x === "string"` ->
//          isinstance(x, str), Array.isArray(x) -> isinstance(x, list), process.env.X ->
//          os.environ.get("X"); `switch (x): case V` -> x == V
//   java:  `x instanceof T` -> isinstance(x, T), a.equals(b) -> a == b
//   rust:  x.is_none() / x.is_some() -> x is None / x is not None
//   go:    `if v := f(); cond` -> cond
// Strings are copied as they are. Linear; bounded output (at most 2x input + 64).
std::string NormalizeGuard(std::string_view guard, std::string_view language);

// The way back, for display: a condition in its Python form (`err is not None and not ok`)
// spelled in `language` again (`err != nil && !ok`): None as the language's null, and/or/not
// as &&/||/!, True/False lower-cased. Approximate (Rust's `x.is_none()` stays `x is None`);
// Python and unknown languages come back unchanged.
std::string ForeignCode(std::string_view code, std::string_view language);
// The old name, for JavaScript.
inline std::string NormalizeJsGuard(std::string_view js) { return NormalizeGuard(js, "javascript"); }

}  // namespace errdex::doc
