// A small Python expression AST and its recursive-descent parser, used only on
// the statements that can produce an error (raise, assert, calls of interest,
// string assignments). Also Unparse(), an approximation of ast.unparse used to
// render interpolated expressions ({expr}) the way oracle_py does.
//
// Depth: an expression nested deeper than kMaxExprDepth (recursion of the
// parser, f-string fields inside f-strings included) or whose tree is taller
// than kMaxExprHeight (`a + a + ...`, `a.b.c...`, `f()()...` build tall trees
// with no nesting) fails the parse and sets too_deep(). Every tree a parse
// returns is at most kMaxExprHeight tall, so the recursive walks over it
// (Unparse, the extractor's message evaluation) have a bounded depth.
// Thread-compatible: one Parser per thread.
// Tested by python_extractor_test.cc (through ExtractPython).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "extract/python/tokenizer.h"

namespace errdex::py {

enum class NodeKind : uint8_t {
  kName, kNumber, kConst /* None True False ... */, kStr, kBytes, kJoinedStr, kFormatted,
  kAttribute, kCall, kKeyword, kStarred, kSubscript, kSlice, kBinOp, kUnaryOp, kBoolOp,
  kCompare, kIfExp, kLambda, kTuple, kList, kSet, kDict, kComp, kCompFor, kNamedExpr, kAwait, kYield,
};

// One node. `b`/`e` are byte offsets of its source segment (as
// ast.get_source_segment: a parenthesized tuple includes its parentheses).
struct Node {
  NodeKind kind = NodeKind::kName;
  char conv = 0;           // kFormatted: 'r' 's' 'a' or 0
  uint32_t b = 0, e = 0;
  uint32_t ob = 0, oe = 0; // extent including enclosing parentheses (what a parent spans)
  std::string str;         // kName id, kAttribute attr, kStr value, kKeyword arg ("" for **),
                           // kBinOp/kUnaryOp/kBoolOp op, kCompare ops joined by '\x1f'
  std::vector<int> kids;   // see Parser for the layout of each kind
  int spec = -1;           // kFormatted: a kJoinedStr node for the format spec
};

// Layouts: kAttribute [value]; kCall [func, args/keywords...] (kKeyword [value],
// kStarred [value]); kSubscript [value, index]; kSlice [lo|-1, hi|-1, step|-1];
// kBinOp [l, r]; kUnaryOp [x]; kBoolOp/kCompare [operands...]; kIfExp [body, test,
// orelse]; kTuple/kList/kSet [elts...]; kDict [k0|-1, v0, k1|-1, v1...] (-1 for
// **v); kJoinedStr [kStr | kFormatted...]; kFormatted [value]; kNamedExpr [t, v];
// kAwait/kYield [x] (kYield may be empty); kComp [elt | key, value, kCompFor...]
// with conv '[' '{' 'd' (dict) '(' or 'g' (generator argument), no kids when
// opaque; kCompFor [target, iter, ifs...]; kLambda opaque.
inline constexpr int kMaxExprDepth = 200;
// CPython 3.11 gives up near 3,000 (`RecursionError during ast construction`)
// and ast.unparse near 500; real messages stay below 50.
inline constexpr int kMaxExprHeight = 1000;

class Parser {
 public:
  // `text` is the whole file; nodes keep offsets into it.
  explicit Parser(std::string_view text) : text_(text) {}

  // Parses one expression (a bare tuple allowed when `allow_tuple`) from
  // tokens[*pos] onward; advances *pos. Returns a node index or -1.
  int ParseExpr(const std::vector<Token>& tokens, size_t* pos, size_t end, bool allow_tuple);
  // Parses an argument list; tokens[*pos] is just after '('. Appends args and
  // keywords to call node `call`; advances *pos past ')'. False on error.
  bool ParseCallArgs(const std::vector<Token>& tokens, size_t* pos, size_t end, int call);
  // True when the last ParseExpr/ParseCallArgs failed because of kMaxExprDepth
  // or kMaxExprHeight (not because of a syntax error).
  bool too_deep() const { return too_deep_; }

  int NewNode(NodeKind k, uint32_t b, uint32_t e);
  const Node& node(int i) const { return nodes_[static_cast<size_t>(i)]; }
  Node& node(int i) { return nodes_[static_cast<size_t>(i)]; }
  std::string_view Seg(int i) const { return text_.substr(nodes_[i].b, nodes_[i].e - nodes_[i].b); }
  std::string_view text() const { return text_; }
  void Clear() { nodes_.clear(); }

  // ast.unparse-like text of a node (strings via repr, operators spaced,
  // redundant parentheses dropped); lambdas, comprehensions and f-strings fall
  // back to their source text with whitespace runs collapsed.
  std::string Unparse(int i) const;

 private:
  struct Cursor {
    const std::vector<Token>* toks;
    size_t pos, end;
  };
  // Height of the tree under `root` (a leaf is 1), iteratively; stops counting
  // past `limit`.
  int Height(int root, int limit) const;
  // A tree taller than kMaxExprHeight: sets too_deep_ and says so.
  bool TooTall(int root);
  // Past kMaxExprDepth (call after entering a level): sets too_deep_ and says so.
  bool TooDeep() {
    if (depth_ <= kMaxExprDepth) return false;
    too_deep_ = true;
    return true;
  }
  const Token& Peek(Cursor& c) const;
  bool AtOp(Cursor& c, char op) const;
  bool AtOp(Cursor& c, std::string_view op) const;
  bool AtName(Cursor& c, std::string_view name) const;

  int Expr(Cursor& c, bool allow_tuple);
  int Test(Cursor& c);      // if-else, lambda, walrus
  int OrTest(Cursor& c);
  int AndTest(Cursor& c);
  int NotTest(Cursor& c);
  int Comparison(Cursor& c);
  int BinLevel(Cursor& c, int level);
  int Factor(Cursor& c);
  int Power(Cursor& c);
  int Primary(Cursor& c);
  int Atom(Cursor& c);
  int Strings(Cursor& c);
  int Bracketed(Cursor& c, char open);
  int SubscriptIndex(Cursor& c);
  bool Args(Cursor& c, int call);
  int SkipToClose(Cursor& c, uint32_t begin_off, NodeKind kind);
  int Comprehension(Cursor& c, uint32_t begin_off, char open, int elt, int value);
  int FString(uint32_t body_b, uint32_t body_e, bool raw, int jnode, int depth);

  void Unparse(int i, int prec, std::string* out) const;
  void UnparseFStringBody(int i, std::string* out) const;

  std::string_view text_;
  std::vector<Node> nodes_;
  int depth_ = 0;  // recursion depth, shared by the nested parses of f-string fields
  bool too_deep_ = false;
};

// Python repr() of a str (UTF-8), as ast.unparse writes string constants.
std::string PyRepr(std::string_view s);

}  // namespace errdex::py
