// check/cx: the compact trees `errdex check` keeps in the catalog -- Python
// expressions and the statements of functions, as S-expressions in one line of
// text. Written at scan time (check/program.h builds them from the front end's
// tokens and expression parser), read back by `errdex check` with no source
// tree. A function body is kept as one string and parsed only when the
// interpreter (check/interp.h) enters that function.
//
// Grammar (whitespace separates; strings are single-quoted, with backslash escapes for
// \\ \' \n \t \r and \uXXXX for other control characters -- so the text needs no
// escaping inside JSON but for its backslashes):
//   atom  := NAME | 'str' | INT | FLOAT | #none | #true | #false | #ellipsis
//   list  := ( HEAD item... )           HEAD is one of the Head names below
//   (? 'source')                        an expression check does not model (clipped text)
// Expressions: (. X attr) (call F arg... (kw name V) (* V) (** V)) ([] X I)
//   (slice A B C) (cmp X op Y [op Z...]) with op == != < <= > >= in notin is isnot
//   (and ...) (or ...) (not X) (neg X) (pos X) (inv X) (bin op L R) (ifx T A B)
//   (tuple ...) (list ...) (set ...) (dict K V ...) (walrus NAME V)
// Statements (each with its 1-based line first), as ParseBody gives them:
//   (if L T (body...) (else...))  (while L T (body...) (else...))
//   (for L TARGET ITER (body...) (else...))  (try L (body...) (handlers...) (else...) (finally...))
//   handler: (except L TYPE-or-#none NAME-or-#none (body...))
//   (with L (body...))  (= L TARGET... VALUE)  (aug op L TARGET VALUE)  (e L X)
//   (ret L [X])  (raise L SITE [X])  (assert L SITE T)  (brk L)  (cont L)  (blk L (body...))
//   SITE is the index of the site in its file's site table, -1 for none.
//   (blk ...) is a block check does not model (match/case bodies, deep nesting):
//   its statements may or may not run.
//
// Limits: trees deeper than kMaxCxDepth are cut to (? "...") by the writer and
// refused by the reader (a malformed or hostile catalog gives an error value).
// Thread-compatible plain data.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/status.h"

namespace errdex::check {

inline constexpr int kMaxCxDepth = 96;

enum class Head : uint8_t {
  kNone,  // an atom
  // expressions
  kOpaque, kAttr, kCall, kKw, kStar, kStarStar, kSub, kSlice, kCmp, kAnd, kOr, kNot, kNeg, kPos, kInv, kBin,
  kIfx, kTuple, kList, kSet, kDict, kWalrus,
  // statements
  kIf, kWhile, kFor, kTry, kExcept, kWith, kAssign, kAug, kExpr, kRet, kRaise, kAssert, kBreak, kContinue, kBlock,
  kSeq,  // a bare parenthesized list (a body, a handler list)
  kRaw,     // writer only: `text` is already cx text (check/program.cc writes expressions directly)
  kMarker,  // elif / else / finally as written, before ParseBody folds them (`text` names it)
};

enum class AtomKind : uint8_t { kName, kStr, kInt, kFloat, kNoneConst, kTrue, kFalse, kEllipsis };

struct Cx {
  Head head = Head::kNone;
  AtomKind atom = AtomKind::kName;  // head == kNone
  std::string text;                 // kName / kStr / op symbols (kCmp ops, kBin op, kAug op) / kOpaque source
  int64_t i = 0;                    // kInt
  double f = 0;                     // kFloat
  std::vector<Cx> kids;

  bool IsAtom() const { return head == Head::kNone; }
  bool IsName() const { return head == Head::kNone && atom == AtomKind::kName; }
  bool IsName(std::string_view n) const { return IsName() && text == n; }
  bool IsStr() const { return head == Head::kNone && atom == AtomKind::kStr; }
  bool IsNoneConst() const { return head == Head::kNone && atom == AtomKind::kNoneConst; }
  // Statement line (statements keep it as their first kid).
  int Line() const { return !kids.empty() && kids[0].IsAtom() && kids[0].atom == AtomKind::kInt ? (int)kids[0].i : 0; }

  static Cx Name(std::string_view n);
  static Cx Str(std::string_view s);
  static Cx Int(int64_t v);
  static Cx Float(double v);
  static Cx Const(AtomKind k);
  static Cx Opaque(std::string_view source);  // clipped to kMaxOpaqueText bytes
  static Cx List(Head h, std::vector<Cx> kids = {});
};

inline constexpr size_t kMaxOpaqueText = 120;

const char* HeadName(Head h);

// Appends a string atom ('...' with escapes) to `out`.
void WriteCxString(std::string_view s, std::string* out);
// Appends the text form of `x` to `out`.
void WriteCx(const Cx& x, std::string* out);
std::string CxText(const Cx& x);
// Parses one tree (expression, statement, or a (seq ...) body written as "(...)").
// kParseError on malformed text or a tree deeper than kMaxCxDepth.
Result<Cx> ParseCx(std::string_view text);

// A statement list as program.cc writes it, with the continuation statements folded
// into the statement they continue: (if L T B) (elif L T2 B2) (else L B3) becomes
// (if L T B ((if L T2 B2 B3))); (for ...)/(while ...) (else L B) fills their else;
// (try L B) (except ...)... (else L B) (finally L B) becomes (try L B (handlers) (else) (finally)).
// Missing parts are added empty, so every if has 4 kids, for 5, while 4, try 5.
Result<Cx> ParseBody(std::string_view text);

// Python-like text of an expression, for people ("cfg.deepep_mode == 'normal'").
// Clipped to about `max_bytes`.
std::string Unparse(const Cx& x, size_t max_bytes = 200);

}  // namespace errdex::check
