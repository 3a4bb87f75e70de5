// Expression parser and unparser (see expr.h).
#include "extract/python/expr.h"

#include <algorithm>
#include <cstring>

namespace errdex::py {

namespace {

const Token kEndToken{};

bool IsKeyword(std::string_view s) {
  switch (s.size()) {
    case 2: return s == "if" || s == "in" || s == "is" || s == "or" || s == "as";
    case 3: return s == "for" || s == "not" || s == "and" || s == "def" || s == "del" || s == "try";
    case 4: return s == "else" || s == "from" || s == "elif" || s == "with" || s == "pass";
    case 5: return s == "await" || s == "yield" || s == "raise" || s == "while" || s == "class" || s == "break";
    case 6: return s == "lambda" || s == "return" || s == "assert" || s == "import" || s == "global";
    default: return s == "continue" || s == "nonlocal" || s == "finally" || s == "except";
  }
}

struct DepthGuard {
  int* d;
  explicit DepthGuard(int* depth) : d(depth) { ++*d; }
  ~DepthGuard() { --*d; }
};


}  // namespace

int Parser::NewNode(NodeKind k, uint32_t b, uint32_t e) {
  Node n;
  n.kind = k;
  n.b = n.ob = b;
  n.e = n.oe = e;
  nodes_.push_back(std::move(n));
  return static_cast<int>(nodes_.size() - 1);
}

const Token& Parser::Peek(Cursor& c) const {
  if (c.pos >= c.end || c.pos >= c.toks->size()) return kEndToken;
  return (*c.toks)[c.pos];
}
bool Parser::AtOp(Cursor& c, char op) const { return IsOp(text_, Peek(c), op); }
bool Parser::AtOp(Cursor& c, std::string_view op) const { return IsOp(text_, Peek(c), op); }
bool Parser::AtName(Cursor& c, std::string_view name) const { return IsName(text_, Peek(c), name); }

int Parser::ParseExpr(const std::vector<Token>& tokens, size_t* pos, size_t end, bool allow_tuple) {
  const bool outermost = depth_ == 0;  // not an f-string field inside another parse
  if (outermost) too_deep_ = false;
  Cursor c{&tokens, *pos, end};
  int r = Expr(c, allow_tuple);
  *pos = c.pos;
  if (outermost && r >= 0 && TooTall(r)) return -1;
  return r;
}

bool Parser::ParseCallArgs(const std::vector<Token>& tokens, size_t* pos, size_t end, int call) {
  too_deep_ = false;
  Cursor c{&tokens, *pos, end};
  size_t first_arg = nodes_[call].kids.size();
  bool ok = Args(c, call);
  *pos = c.pos;
  if (!ok) return false;
  for (size_t k = first_arg; k < nodes_[call].kids.size(); ++k)
    if (TooTall(nodes_[call].kids[k])) return false;
  return true;
}

int Parser::Height(int root, int limit) const {
  std::vector<std::pair<int, int>> stack{{root, 1}};
  int height = 0;
  while (!stack.empty()) {
    auto [i, h] = stack.back();
    stack.pop_back();
    height = std::max(height, h);
    if (height > limit) break;
    const Node& n = nodes_[static_cast<size_t>(i)];
    for (int k : n.kids)
      if (k >= 0) stack.emplace_back(k, h + 1);
    if (n.spec >= 0) stack.emplace_back(n.spec, h + 1);
  }
  return height;
}

bool Parser::TooTall(int root) {
  if (Height(root, kMaxExprHeight) <= kMaxExprHeight) return false;
  too_deep_ = true;
  return true;
}

static bool StartsExpr(std::string_view text, const Token& t) {
  switch (t.kind) {
    case TokenKind::kName: {
      std::string_view s = TokenText(text, t);
      if (s == "not" || s == "lambda" || s == "await" || s == "None" || s == "True" || s == "False") return true;
      return !IsKeyword(s);
    }
    case TokenKind::kNumber: case TokenKind::kString: return true;
    case TokenKind::kOp: {
      std::string_view s = TokenText(text, t);
      return s == "(" || s == "[" || s == "{" || s == "-" || s == "+" || s == "~" || s == "*" || s == "..." ||
             s == "**";
    }
    default: return false;
  }
}

int Parser::Expr(Cursor& c, bool allow_tuple) {
  DepthGuard g(&depth_);
  if (TooDeep()) return -1;
  auto item = [&]() -> int {
    if (AtOp(c, '*')) {
      uint32_t b = Peek(c).begin;
      ++c.pos;
      int v = BinLevel(c, 0);
      if (v < 0) return -1;
      int s = NewNode(NodeKind::kStarred, b, nodes_[v].oe);
      nodes_[s].kids.push_back(v);
      return s;
    }
    return Test(c);
  };
  int first = item();
  if (first < 0 || !allow_tuple || !AtOp(c, ',')) return first;
  int t = NewNode(NodeKind::kTuple, nodes_[first].ob, nodes_[first].oe);
  nodes_[t].kids.push_back(first);
  while (AtOp(c, ',')) {
    ++c.pos;
    if (!StartsExpr(text_, Peek(c))) break;
    int x = item();
    if (x < 0) return -1;
    nodes_[t].kids.push_back(x);
    nodes_[t].e = nodes_[t].oe = nodes_[x].oe;
  }
  return t;
}

int Parser::Test(Cursor& c) {
  DepthGuard g(&depth_);
  if (TooDeep()) return -1;
  if (AtName(c, "lambda")) {
    uint32_t b = Peek(c).begin;
    ++c.pos;
    int bd = 0;
    while (c.pos < c.end) {
      const Token& t = Peek(c);
      if (t.kind == TokenKind::kEnd) return -1;
      if (t.kind == TokenKind::kOp) {
        char ch = text_[t.begin];
        if (t.end - t.begin == 1 && (ch == '(' || ch == '[' || ch == '{')) ++bd;
        else if (t.end - t.begin == 1 && (ch == ')' || ch == ']' || ch == '}')) --bd;
        else if (bd == 0 && IsOp(text_, t, ':')) break;
      }
      ++c.pos;
    }
    if (!AtOp(c, ':')) return -1;
    ++c.pos;
    int body = Test(c);
    if (body < 0) return -1;
    return NewNode(NodeKind::kLambda, b, nodes_[body].oe);
  }
  if (AtName(c, "yield")) {
    uint32_t b = Peek(c).begin;
    ++c.pos;
    if (AtName(c, "from")) ++c.pos;
    int y = NewNode(NodeKind::kYield, b, text_.size() > b ? b + 5 : b);
    if (StartsExpr(text_, Peek(c))) {
      int v = Expr(c, true);
      if (v < 0) return -1;
      nodes_[y].kids.push_back(v);
      nodes_[y].e = nodes_[y].oe = nodes_[v].oe;
    }
    return y;
  }
  int x = OrTest(c);
  if (x < 0) return -1;
  if (AtOp(c, ":=") && nodes_[x].kind == NodeKind::kName) {
    ++c.pos;
    int v = Test(c);
    if (v < 0) return -1;
    int n = NewNode(NodeKind::kNamedExpr, nodes_[x].ob, nodes_[v].oe);
    nodes_[n].kids = {x, v};
    return n;
  }
  if (AtName(c, "if")) {
    size_t save = c.pos;
    ++c.pos;
    int cond = OrTest(c);
    if (cond < 0 || !AtName(c, "else")) {
      c.pos = save;  // comprehension `if` (caller decides)
      return x;
    }
    ++c.pos;
    int orelse = Test(c);
    if (orelse < 0) return -1;
    int n = NewNode(NodeKind::kIfExp, nodes_[x].ob, nodes_[orelse].oe);
    nodes_[n].kids = {x, cond, orelse};
    return n;
  }
  return x;
}

int Parser::OrTest(Cursor& c) {
  int x = AndTest(c);
  if (x < 0 || !AtName(c, "or")) return x;
  int n = NewNode(NodeKind::kBoolOp, nodes_[x].ob, nodes_[x].oe);
  nodes_[n].str = "or";
  nodes_[n].kids.push_back(x);
  while (AtName(c, "or")) {
    ++c.pos;
    int y = AndTest(c);
    if (y < 0) return -1;
    nodes_[n].kids.push_back(y);
    nodes_[n].e = nodes_[n].oe = nodes_[y].oe;
  }
  return n;
}

int Parser::AndTest(Cursor& c) {
  int x = NotTest(c);
  if (x < 0 || !AtName(c, "and")) return x;
  int n = NewNode(NodeKind::kBoolOp, nodes_[x].ob, nodes_[x].oe);
  nodes_[n].str = "and";
  nodes_[n].kids.push_back(x);
  while (AtName(c, "and")) {
    ++c.pos;
    int y = NotTest(c);
    if (y < 0) return -1;
    nodes_[n].kids.push_back(y);
    nodes_[n].e = nodes_[n].oe = nodes_[y].oe;
  }
  return n;
}

int Parser::NotTest(Cursor& c) {
  if (AtName(c, "not")) {
    DepthGuard g(&depth_);
    if (TooDeep()) return -1;
    uint32_t b = Peek(c).begin;
    ++c.pos;
    int x = NotTest(c);
    if (x < 0) return -1;
    int n = NewNode(NodeKind::kUnaryOp, b, nodes_[x].oe);
    nodes_[n].str = "not";
    nodes_[n].kids.push_back(x);
    return n;
  }
  return Comparison(c);
}

int Parser::Comparison(Cursor& c) {
  int x = BinLevel(c, 0);
  if (x < 0) return -1;
  int n = -1;
  while (true) {
    const Token& t = Peek(c);
    std::string op;
    if (t.kind == TokenKind::kOp) {
      std::string_view s = TokenText(text_, t);
      if (s == "<" || s == ">" || s == "==" || s == ">=" || s == "<=" || s == "!=" || s == "<>") op = std::string(s);
    } else if (t.kind == TokenKind::kName) {
      std::string_view s = TokenText(text_, t);
      if (s == "in") {
        op = "in";
      } else if (s == "is") {
        op = "is";
        if (c.pos + 1 < c.end && IsName(text_, (*c.toks)[c.pos + 1], "not")) {
          op = "is not";
          ++c.pos;
        }
      } else if (s == "not" && c.pos + 1 < c.end && IsName(text_, (*c.toks)[c.pos + 1], "in")) {
        op = "not in";
        ++c.pos;
      }
    }
    if (op.empty()) break;
    ++c.pos;
    int y = BinLevel(c, 0);
    if (y < 0) return -1;
    if (n < 0) {
      n = NewNode(NodeKind::kCompare, nodes_[x].ob, nodes_[x].oe);
      nodes_[n].kids.push_back(x);
    } else {
      nodes_[n].str.push_back('\x1f');
    }
    nodes_[n].str += op;
    nodes_[n].kids.push_back(y);
    nodes_[n].e = nodes_[n].oe = nodes_[y].oe;
  }
  return n >= 0 ? n : x;
}

int Parser::BinLevel(Cursor& c, int level) {
  if (level > 5) return Factor(c);
  int x = BinLevel(c, level + 1);
  while (x >= 0) {
    const Token& t = Peek(c);
    if (t.kind != TokenKind::kOp) break;
    std::string_view s = TokenText(text_, t);
    bool match = false;
    switch (level) {
      case 0: match = s == "|"; break;
      case 1: match = s == "^"; break;
      case 2: match = s == "&"; break;
      case 3: match = s == "<<" || s == ">>"; break;
      case 4: match = s == "+" || s == "-"; break;
      default: match = s == "*" || s == "/" || s == "//" || s == "%" || s == "@"; break;
    }
    if (!match) break;
    ++c.pos;
    int y = BinLevel(c, level + 1);
    if (y < 0) return -1;
    int n = NewNode(NodeKind::kBinOp, nodes_[x].ob, nodes_[y].oe);
    nodes_[n].str = std::string(s);
    nodes_[n].kids = {x, y};
    x = n;
  }
  return x;
}

int Parser::Factor(Cursor& c) {
  const Token& t = Peek(c);
  if (t.kind == TokenKind::kOp && t.end - t.begin == 1 &&
      (text_[t.begin] == '-' || text_[t.begin] == '+' || text_[t.begin] == '~')) {
    DepthGuard g(&depth_);
    if (TooDeep()) return -1;
    uint32_t b = t.begin;
    std::string op(1, text_[t.begin]);
    ++c.pos;
    int x = Factor(c);
    if (x < 0) return -1;
    int n = NewNode(NodeKind::kUnaryOp, b, nodes_[x].oe);
    nodes_[n].str = op;
    nodes_[n].kids.push_back(x);
    return n;
  }
  return Power(c);
}

int Parser::Power(Cursor& c) {
  int x;
  if (AtName(c, "await")) {
    uint32_t b = Peek(c).begin;
    ++c.pos;
    int v = Primary(c);
    if (v < 0) return -1;
    x = NewNode(NodeKind::kAwait, b, nodes_[v].oe);
    nodes_[x].kids.push_back(v);
  } else {
    x = Primary(c);
  }
  if (x < 0) return -1;
  if (AtOp(c, "**")) {
    DepthGuard g(&depth_);
    if (TooDeep()) return -1;
    ++c.pos;
    int y = Factor(c);
    if (y < 0) return -1;
    int n = NewNode(NodeKind::kBinOp, nodes_[x].ob, nodes_[y].oe);
    nodes_[n].str = "**";
    nodes_[n].kids = {x, y};
    return n;
  }
  return x;
}

int Parser::Primary(Cursor& c) {
  int x = Atom(c);
  while (x >= 0) {
    const Token& t = Peek(c);
    if (t.kind != TokenKind::kOp || t.end - t.begin != 1) break;
    char ch = text_[t.begin];
    if (ch == '.') {
      ++c.pos;
      const Token& nt = Peek(c);
      if (nt.kind != TokenKind::kName) return -1;
      int n = NewNode(NodeKind::kAttribute, nodes_[x].ob, nt.end);
      nodes_[n].str = std::string(TokenText(text_, nt));
      nodes_[n].kids.push_back(x);
      ++c.pos;
      x = n;
    } else if (ch == '(') {
      ++c.pos;
      int n = NewNode(NodeKind::kCall, nodes_[x].ob, nodes_[x].oe);
      nodes_[n].kids.push_back(x);
      if (!Args(c, n)) return -1;
      nodes_[n].e = nodes_[n].oe = (*c.toks)[c.pos - 1].end;
      x = n;
    } else if (ch == '[') {
      ++c.pos;
      int idx = SubscriptIndex(c);
      if (idx < 0 || !AtOp(c, ']')) return -1;
      int n = NewNode(NodeKind::kSubscript, nodes_[x].ob, Peek(c).end);
      ++c.pos;
      nodes_[n].kids = {x, idx};
      x = n;
    } else {
      break;
    }
  }
  return x;
}

bool Parser::Args(Cursor& c, int call) {
  DepthGuard g(&depth_);
  if (TooDeep()) return false;
  while (true) {
    if (AtOp(c, ')')) {
      ++c.pos;
      return true;
    }
    const Token& t = Peek(c);
    if (t.kind == TokenKind::kEnd) return false;
    int a;
    if (IsOp(text_, t, '*') || IsOp(text_, t, "**")) {
      bool dbl = IsOp(text_, t, "**");
      uint32_t b = t.begin;
      ++c.pos;
      int v = Test(c);
      if (v < 0) return false;
      a = NewNode(dbl ? NodeKind::kKeyword : NodeKind::kStarred, b, nodes_[v].oe);
      nodes_[a].kids.push_back(v);
    } else if (t.kind == TokenKind::kName && c.pos + 1 < c.end && IsOp(text_, (*c.toks)[c.pos + 1], '=')) {
      uint32_t b = t.begin;
      std::string name(TokenText(text_, t));
      c.pos += 2;
      int v = Test(c);
      if (v < 0) return false;
      a = NewNode(NodeKind::kKeyword, b, nodes_[v].oe);
      nodes_[a].str = std::move(name);
      nodes_[a].kids.push_back(v);
    } else {
      a = Test(c);
      if (a < 0) return false;
      if (AtName(c, "for") || AtName(c, "async")) {
        int comp = Comprehension(c, nodes_[a].ob, 'g', a, -1);  // generator argument
        if (comp < 0) return false;
        nodes_[comp].e = nodes_[comp].oe = (*c.toks)[c.pos - 1].begin;  // exclude ')'
        nodes_[call].kids.push_back(comp);
        return true;
      }
    }
    nodes_[call].kids.push_back(a);
    if (AtOp(c, ',')) {
      ++c.pos;
      continue;
    }
    if (AtOp(c, ')')) {
      ++c.pos;
      return true;
    }
    return false;
  }
}

// Skips to just after the bracket closing the current one; the node spans
// [begin_off, closing bracket end).
int Parser::SkipToClose(Cursor& c, uint32_t begin_off, NodeKind kind) {
  int bd = 0;
  while (c.pos < c.end) {
    const Token& t = Peek(c);
    if (t.kind == TokenKind::kEnd) return -1;
    if (t.kind == TokenKind::kOp && t.end - t.begin == 1) {
      char ch = text_[t.begin];
      if (ch == '(' || ch == '[' || ch == '{') {
        ++bd;
      } else if (ch == ')' || ch == ']' || ch == '}') {
        if (bd == 0) {
          ++c.pos;
          return NewNode(kind, begin_off, t.end);
        }
        --bd;
      }
    }
    ++c.pos;
  }
  return -1;
}

// Comprehension clauses after the element (`for` at c.pos) up to and including
// the closing bracket. kids: [elt] or [key, value], then kCompFor nodes
// [target, iter, ifs...] (str "async" for async for). Unparsable clauses give
// an opaque node (no kids) spanning the source.
int Parser::Comprehension(Cursor& c, uint32_t begin_off, char open, int elt, int value) {
  size_t save = c.pos;
  int n = NewNode(NodeKind::kComp, begin_off, begin_off);
  nodes_[n].conv = open;
  nodes_[n].kids.push_back(elt);
  if (value >= 0) nodes_[n].kids.push_back(value);
  bool ok = true;
  while (ok && (AtName(c, "for") || AtName(c, "async"))) {
    bool async = AtName(c, "async");
    if (async) {
      ++c.pos;
      if (!AtName(c, "for")) { ok = false; break; }
    }
    uint32_t fb = Peek(c).begin;
    ++c.pos;
    // target list: primaries (or starred) separated by commas
    int first = -1, tup = -1;
    while (true) {
      int t;
      if (AtOp(c, '*')) {
        uint32_t sb = Peek(c).begin;
        ++c.pos;
        int v = Primary(c);
        if (v < 0) { ok = false; break; }
        t = NewNode(NodeKind::kStarred, sb, nodes_[v].oe);
        nodes_[t].kids.push_back(v);
      } else {
        t = Primary(c);
        if (t < 0) { ok = false; break; }
      }
      if (first < 0) {
        first = t;
      } else {
        if (tup < 0) {
          tup = NewNode(NodeKind::kTuple, nodes_[first].ob, nodes_[first].oe);
          nodes_[tup].kids.push_back(first);
        }
        nodes_[tup].kids.push_back(t);
        nodes_[tup].e = nodes_[tup].oe = nodes_[t].oe;
      }
      if (!AtOp(c, ',')) break;
      ++c.pos;
      if (AtName(c, "in")) break;
    }
    if (!ok || !AtName(c, "in")) { ok = false; break; }
    ++c.pos;
    int iter = OrTest(c);
    if (iter < 0) { ok = false; break; }
    int f = NewNode(NodeKind::kCompFor, fb, nodes_[iter].oe);
    nodes_[f].kids = {tup >= 0 ? tup : first, iter};
    if (async) nodes_[f].str = "async";
    while (AtName(c, "if")) {
      ++c.pos;
      int cond = OrTest(c);
      if (cond < 0) { ok = false; break; }
      nodes_[f].kids.push_back(cond);
    }
    nodes_[n].kids.push_back(f);
  }
  const Token& t = Peek(c);
  if (ok && t.kind == TokenKind::kOp && t.end - t.begin == 1 &&
      (text_[t.begin] == ')' || text_[t.begin] == ']' || text_[t.begin] == '}')) {
    ++c.pos;
    nodes_[n].e = nodes_[n].oe = t.end;
    return n;
  }
  c.pos = save;
  int opaque = SkipToClose(c, begin_off, NodeKind::kComp);
  if (opaque >= 0) nodes_[opaque].conv = open;
  return opaque;
}

int Parser::SubscriptIndex(Cursor& c) {
  auto slice_or_expr = [&]() -> int {
    uint32_t b = Peek(c).begin;
    int lo = -1, hi = -1, step = -1;
    if (!AtOp(c, ':')) {
      if (AtOp(c, '*')) return Expr(c, false);
      lo = Test(c);
      if (lo < 0) return -1;
      if (!AtOp(c, ':')) return lo;
    }
    ++c.pos;  // ':'
    uint32_t e = (*c.toks)[c.pos - 1].end;
    if (!AtOp(c, ':') && !AtOp(c, ']') && !AtOp(c, ',')) {
      hi = Test(c);
      if (hi < 0) return -1;
      e = nodes_[hi].oe;
    }
    if (AtOp(c, ':')) {
      ++c.pos;
      e = (*c.toks)[c.pos - 1].end;
      if (!AtOp(c, ']') && !AtOp(c, ',')) {
        step = Test(c);
        if (step < 0) return -1;
        e = nodes_[step].oe;
      }
    }
    int s = NewNode(NodeKind::kSlice, b, e);
    nodes_[s].kids = {lo, hi, step};
    return s;
  };
  int first = slice_or_expr();
  if (first < 0 || !AtOp(c, ',')) return first;
  int t = NewNode(NodeKind::kTuple, nodes_[first].ob, nodes_[first].oe);
  nodes_[t].kids.push_back(first);
  while (AtOp(c, ',')) {
    ++c.pos;
    if (AtOp(c, ']')) break;
    int x = slice_or_expr();
    if (x < 0) return -1;
    nodes_[t].kids.push_back(x);
    nodes_[t].e = nodes_[t].oe = nodes_[x].oe;
  }
  return t;
}

int Parser::Atom(Cursor& c) {
  const Token& t = Peek(c);
  switch (t.kind) {
    case TokenKind::kName: {
      std::string_view s = TokenText(text_, t);
      if (s == "None" || s == "True" || s == "False") {
        ++c.pos;
        int n = NewNode(NodeKind::kConst, t.begin, t.end);
        nodes_[n].str = std::string(s);
        return n;
      }
      if (IsKeyword(s)) return -1;
      ++c.pos;
      int n = NewNode(NodeKind::kName, t.begin, t.end);
      nodes_[n].str = std::string(s);
      return n;
    }
    case TokenKind::kNumber: {
      ++c.pos;
      int n = NewNode(NodeKind::kNumber, t.begin, t.end);
      nodes_[n].str = std::string(TokenText(text_, t));
      return n;
    }
    case TokenKind::kString:
      return Strings(c);
    case TokenKind::kOp: {
      if (t.end - t.begin == 3 && text_[t.begin] == '.') {
        ++c.pos;
        int n = NewNode(NodeKind::kConst, t.begin, t.end);
        nodes_[n].str = "...";
        return n;
      }
      if (t.end - t.begin != 1) return -1;
      char ch = text_[t.begin];
      if (ch == '(' || ch == '[' || ch == '{') return Bracketed(c, ch);
      return -1;
    }
    default:
      return -1;
  }
}

int Parser::Bracketed(Cursor& c, char open) {
  DepthGuard g(&depth_);
  if (TooDeep()) return -1;
  uint32_t b = Peek(c).begin;
  ++c.pos;
  char close = open == '(' ? ')' : open == '[' ? ']' : '}';
  NodeKind seq = open == '(' ? NodeKind::kTuple : open == '[' ? NodeKind::kList : NodeKind::kSet;
  if (AtOp(c, close)) {
    uint32_t e = Peek(c).end;
    ++c.pos;
    return NewNode(open == '{' ? NodeKind::kDict : seq, b, e);
  }
  if (open == '(' && AtName(c, "yield")) {
    int y = Test(c);
    if (y < 0 || !AtOp(c, ')')) return -1;
    ++c.pos;
    return y;
  }
  bool is_dict = false;
  int n = -1;
  auto dict_entry = [&](int node) -> bool {
    if (AtOp(c, "**")) {
      ++c.pos;
      int v = BinLevel(c, 0);
      if (v < 0) return false;
      nodes_[node].kids.push_back(-1);
      nodes_[node].kids.push_back(v);
      return true;
    }
    int k = Test(c);
    if (k < 0 || !AtOp(c, ':')) return false;
    ++c.pos;
    int v = Test(c);
    if (v < 0) return false;
    nodes_[node].kids.push_back(k);
    nodes_[node].kids.push_back(v);
    return true;
  };
  // first element
  int first = -1;
  if (open == '{') {
    size_t save = c.pos;
    if (AtOp(c, "**")) {
      is_dict = true;
    } else {
      int k = Test(c);
      if (k < 0) {
        if (!AtOp(c, '*')) return -1;
      }
      if (k >= 0 && AtOp(c, ':')) is_dict = true;
    }
    c.pos = save;
    if (is_dict) {
      n = NewNode(NodeKind::kDict, b, b);
      if (!dict_entry(n)) return -1;
      if (AtName(c, "for") || AtName(c, "async")) {
        const std::vector<int>& kv = nodes_[n].kids;
        return Comprehension(c, b, 'd', kv[0], kv[1]);
      }
    }
  }
  if (!is_dict) {
    first = Expr(c, false);
    if (first < 0) return -1;
    if (AtName(c, "for") || AtName(c, "async")) return Comprehension(c, b, open, first, -1);
    if (open == '(' && AtOp(c, ')')) {
      // parenthesized expression: the node keeps its own extent; parents
      // span the parentheses (ob/oe), as CPython's positions do
      nodes_[first].ob = b;
      nodes_[first].oe = Peek(c).end;
      ++c.pos;
      return first;
    }
    n = NewNode(seq, b, b);
    nodes_[n].kids.push_back(first);
  }
  while (true) {
    if (AtOp(c, close)) {
      nodes_[n].e = nodes_[n].oe = Peek(c).end;
      ++c.pos;
      return n;
    }
    if (!AtOp(c, ',')) return -1;
    ++c.pos;
    if (AtOp(c, close)) continue;
    if (is_dict) {
      if (!dict_entry(n)) return -1;
    } else {
      int x = Expr(c, false);
      if (x < 0) return -1;
      nodes_[n].kids.push_back(x);
    }
  }
}

int Parser::Strings(Cursor& c) {
  uint32_t b = Peek(c).begin, e = b;
  bool any_f = false, any_bytes = false, all_bytes = true;
  size_t start = c.pos;
  while (Peek(c).kind == TokenKind::kString) {
    StringInfo si = AnalyzeString(text_, Peek(c));
    any_f |= si.fstring;
    any_bytes |= si.bytes;
    all_bytes &= si.bytes;
    e = Peek(c).end;
    ++c.pos;
  }
  if (any_bytes) return NewNode(all_bytes ? NodeKind::kBytes : NodeKind::kConst, b, e);
  if (!any_f) {
    int n = NewNode(NodeKind::kStr, b, e);
    std::string v;
    for (size_t i = start; i < c.pos; ++i) {
      StringInfo si = AnalyzeString(text_, (*c.toks)[i]);
      v += DecodeStringBody(text_.substr(si.body_begin, si.body_end - si.body_begin), si.raw);
    }
    nodes_[n].str = std::move(v);
    return n;
  }
  int j = NewNode(NodeKind::kJoinedStr, b, e);
  for (size_t i = start; i < c.pos; ++i) {
    StringInfo si = AnalyzeString(text_, (*c.toks)[i]);
    if (!si.fstring) {
      int s = NewNode(NodeKind::kStr, (*c.toks)[i].begin, (*c.toks)[i].end);
      nodes_[s].str = DecodeStringBody(text_.substr(si.body_begin, si.body_end - si.body_begin), si.raw);
      nodes_[j].kids.push_back(s);
    } else if (FString(si.body_begin, si.body_end, si.raw, j, 0) < 0) {
      return -1;
    }
  }
  // merge adjacent literal parts (as the parser does)
  std::vector<int> merged;
  for (int k : nodes_[j].kids) {
    if (nodes_[k].kind == NodeKind::kStr && !merged.empty() && nodes_[merged.back()].kind == NodeKind::kStr) {
      nodes_[merged.back()].str += nodes_[k].str;
      nodes_[merged.back()].e = nodes_[k].oe;
    } else if (nodes_[k].kind != NodeKind::kStr || !nodes_[k].str.empty()) {
      merged.push_back(k);
    }
  }
  nodes_[j].kids = std::move(merged);
  return j;
}

// Parses an f-string body text_[bb, be) into parts appended to node `jnode`.
int Parser::FString(uint32_t bb, uint32_t be, bool raw, int jnode, int depth) {
  if (depth > 16) {
    int s = NewNode(NodeKind::kStr, bb, be);
    nodes_[s].str = std::string(text_.substr(bb, be - bb));
    nodes_[jnode].kids.push_back(s);
    return jnode;
  }
  std::string_view sub = text_.substr(0, be);
  uint32_t chunk = bb;
  auto flush = [&](uint32_t upto, std::string_view extra) {
    std::string v = DecodeStringBody(text_.substr(chunk, upto - chunk), raw);
    v += extra;
    if (!v.empty()) {
      int s = NewNode(NodeKind::kStr, chunk, upto);
      nodes_[s].str = std::move(v);
      nodes_[jnode].kids.push_back(s);
    }
  };
  uint32_t i = bb;
  while (i < be) {
    char ch = text_[i];
    if (ch == '\\' && !raw) {
      if (i + 2 < be && text_[i + 1] == 'N' && text_[i + 2] == '{') {
        while (i < be && text_[i] != '}') ++i;
        ++i;
        continue;
      }
      i += 2;
      continue;
    }
    if (ch == '}') {
      flush(i, "}");
      i += (i + 1 < be && text_[i + 1] == '}') ? 2 : 1;
      chunk = i;
      continue;
    }
    if (ch != '{') {
      ++i;
      continue;
    }
    if (i + 1 < be && text_[i + 1] == '{') {
      flush(i, "{");
      i += 2;
      chunk = i;
      continue;
    }
    flush(i, "");
    // replacement field
    uint32_t fb = i;
    uint32_t j = i + 1, expr_end = 0, spec_b = 0, spec_e = 0, field_end = be;
    char conv = 0;
    bool selfdoc = false;
    int bd = 0;
    while (j < be) {
      char d = text_[j];
      if (d == '\'' || d == '"' || ((d | 0x20) >= 'a' && (d | 0x20) <= 'z')) {
        size_t se = StringLiteralEnd(sub, j);
        if (se != j) {
          j = static_cast<uint32_t>(se);
          continue;
        }
        ++j;
        continue;
      }
      if (d == '(' || d == '[' || d == '{') { ++bd; ++j; continue; }
      if ((d == ')' || d == ']') && bd > 0) { --bd; ++j; continue; }
      if (d == '}' && bd > 0) { --bd; ++j; continue; }
      if (bd == 0) {
        if (d == '}') {
          if (expr_end == 0) expr_end = j;
          field_end = j + 1;
          break;
        }
        if (d == '=' && j + 1 < be && text_[j + 1] != '=' && j > i + 1 &&
            std::strchr("=!<>:", text_[j - 1]) == nullptr && expr_end == 0) {
          expr_end = j;
          selfdoc = true;
          ++j;
          continue;
        }
        if (d == '!' && j + 1 < be && text_[j + 1] != '=') {
          if (expr_end == 0) expr_end = j;
          conv = text_[j + 1];
          j += 2;
          continue;
        }
        if (d == ':') {
          if (expr_end == 0) expr_end = j;
          spec_b = j + 1;
          int nest = 0;
          uint32_t k = spec_b;
          while (k < be) {
            if (text_[k] == '{') ++nest;
            else if (text_[k] == '}') {
              if (nest == 0) break;
              --nest;
            }
            ++k;
          }
          spec_e = k;
          field_end = k < be ? k + 1 : be;
          break;
        }
      }
      ++j;
    }
    if (expr_end == 0) expr_end = j;
    if (selfdoc) {
      // the literal "expr=" (with its whitespace) precedes the value
      uint32_t lit_e = expr_end + 1;
      while (lit_e < be && (text_[lit_e] == ' ' || text_[lit_e] == '\t')) ++lit_e;
      int s = NewNode(NodeKind::kStr, fb + 1, lit_e);
      nodes_[s].str = std::string(text_.substr(fb + 1, lit_e - fb - 1));
      nodes_[jnode].kids.push_back(s);
      if (conv == 0 && spec_b == 0) conv = 'r';
    }
    std::vector<Token> toks;
    TokenizeExpression(text_, fb + 1, expr_end, &toks);
    size_t p = 0;
    int v = ParseExpr(toks, &p, toks.size(), true);
    if (v < 0 || toks[p].kind != TokenKind::kEnd) {
      // unparsable field: keep its trimmed source as a name
      uint32_t xb = fb + 1, xe = expr_end;
      while (xb < xe && std::strchr(" \t\r\n", text_[xb])) ++xb;
      while (xe > xb && std::strchr(" \t\r\n", text_[xe - 1])) --xe;
      v = NewNode(NodeKind::kName, xb, xe);
      nodes_[v].str = std::string(text_.substr(xb, xe - xb));
    }
    int f = NewNode(NodeKind::kFormatted, fb, field_end);
    nodes_[f].kids.push_back(v);
    nodes_[f].conv = conv;
    if (spec_b != 0) {
      int sj = NewNode(NodeKind::kJoinedStr, spec_b, spec_e);
      nodes_[f].spec = sj;
      FString(spec_b, spec_e, raw, sj, depth + 1);
    }
    nodes_[jnode].kids.push_back(f);
    i = field_end;
    chunk = i;
  }
  flush(be, "");
  return jnode;
}

// ---------------------------------------------------------------------------
// Unparse (ast.unparse precedence levels).
namespace {
enum Prec {
  kPNamed = 1, kPTuple, kPYield, kPTest, kPOr, kPAnd, kPNot, kPCmp, kPExpr, kPBxor, kPBand, kPShift,
  kPArith, kPTerm, kPFactor, kPPower, kPAwait, kPAtom
};
int BinPrec(std::string_view op) {
  if (op == "|") return kPExpr;
  if (op == "^") return kPBxor;
  if (op == "&") return kPBand;
  if (op == "<<" || op == ">>") return kPShift;
  if (op == "+" || op == "-") return kPArith;
  if (op == "**") return kPPower;
  return kPTerm;
}
}  // namespace

std::string PyRepr(std::string_view s) {
  bool has_sq = s.find('\'') != std::string_view::npos;
  bool has_dq = s.find('"') != std::string_view::npos;
  char q = (has_sq && !has_dq) ? '"' : '\'';
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back(q);
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char ch = s[i];
    if (ch == static_cast<unsigned char>(q) || ch == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(ch));
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch < 0x20 || ch == 0x7f) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
    } else if (ch == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0xA0) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(s[i + 1]) & 0xFF);
      out += buf;
      ++i;
    } else {
      out.push_back(static_cast<char>(ch));
    }
  }
  out.push_back(q);
  return out;
}

void Parser::UnparseFStringBody(int i, std::string* out) const {
  for (int k : nodes_[static_cast<size_t>(i)].kids) {
    const Node& p = nodes_[static_cast<size_t>(k)];
    if (p.kind == NodeKind::kStr) {
      for (char ch : p.str) {
        switch (ch) {
          case '{': *out += "{{"; break;
          case '}': *out += "}}"; break;
          case '\\': *out += "\\\\"; break;
          case '\n': *out += "\\n"; break;
          case '\t': *out += "\\t"; break;
          case '\r': *out += "\\r"; break;
          default: out->push_back(ch);
        }
      }
    } else if (p.kind == NodeKind::kFormatted) {
      std::string expr;
      Unparse(p.kids[0], kPTest + 1, &expr);
      out->push_back('{');
      if (!expr.empty() && expr[0] == '{') out->push_back(' ');
      *out += expr;
      if (p.conv) {
        out->push_back('!');
        out->push_back(p.conv);
      }
      if (p.spec >= 0) {
        out->push_back(':');
        UnparseFStringBody(p.spec, out);
      }
      out->push_back('}');
    }
  }
}

std::string Parser::Unparse(int i) const {
  std::string out;
  if (i >= 0) Unparse(i, kPTest, &out);
  return out;
}

void Parser::Unparse(int i, int prec, std::string* out) const {
  const Node& n = nodes_[static_cast<size_t>(i)];
  auto open = [&](int mine) {
    if (mine < prec) out->push_back('(');
  };
  auto close = [&](int mine) {
    if (mine < prec) out->push_back(')');
  };
  auto raw = [&]() {
    // source with whitespace runs collapsed (fallback)
    bool sp = false;
    for (uint32_t k = n.b; k < n.e; ++k) {
      char ch = text_[k];
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f') {
        sp = true;
        continue;
      }
      if (sp && !out->empty() && out->back() != '(' && out->back() != '[') out->push_back(' ');
      sp = false;
      out->push_back(ch);
    }
  };
  switch (n.kind) {
    case NodeKind::kName:
    case NodeKind::kConst:
      *out += n.str;
      return;
    case NodeKind::kNumber:
      *out += n.str;
      return;
    case NodeKind::kStr:
      *out += PyRepr(n.str);
      return;
    case NodeKind::kAttribute:
      Unparse(n.kids[0], kPAtom, out);
      if (nodes_[n.kids[0]].kind == NodeKind::kNumber) {
        // ast.unparse writes "1 .real" for ints; rare, keep the source form
      }
      out->push_back('.');
      *out += n.str;
      return;
    case NodeKind::kCall: {
      Unparse(n.kids[0], kPAtom, out);
      out->push_back('(');
      for (size_t k = 1; k < n.kids.size(); ++k) {
        if (k > 1) *out += ", ";
        const Node& a = nodes_[n.kids[k]];
        if (a.kind == NodeKind::kKeyword) {
          if (a.str.empty()) *out += "**";
          else *out += a.str + "=";
          Unparse(a.kids[0], a.str.empty() ? kPExpr : kPTest, out);
        } else {
          Unparse(n.kids[k], kPTest, out);
        }
      }
      out->push_back(')');
      return;
    }
    case NodeKind::kStarred:
      out->push_back('*');
      Unparse(n.kids[0], kPExpr, out);
      return;
    case NodeKind::kKeyword:
      raw();
      return;
    case NodeKind::kSubscript: {
      Unparse(n.kids[0], kPAtom, out);
      out->push_back('[');
      const Node& ix = nodes_[n.kids[1]];
      if (ix.kind == NodeKind::kTuple && !ix.kids.empty()) {
        for (size_t k = 0; k < ix.kids.size(); ++k) {
          if (k) *out += ", ";
          Unparse(ix.kids[k], kPTest, out);
        }
        if (ix.kids.size() == 1) out->push_back(',');
      } else {
        Unparse(n.kids[1], kPTest, out);
      }
      out->push_back(']');
      return;
    }
    case NodeKind::kSlice:
      if (n.kids[0] >= 0) Unparse(n.kids[0], kPTest, out);
      out->push_back(':');
      if (n.kids[1] >= 0) Unparse(n.kids[1], kPTest, out);
      if (n.kids[2] >= 0) {
        out->push_back(':');
        Unparse(n.kids[2], kPTest, out);
      }
      return;
    case NodeKind::kBinOp: {
      int p = BinPrec(n.str);
      open(p);
      bool right_assoc = n.str == "**";
      Unparse(n.kids[0], right_assoc ? p + 1 : p, out);
      *out += " " + n.str + " ";
      Unparse(n.kids[1], right_assoc ? p : p + 1, out);
      close(p);
      return;
    }
    case NodeKind::kUnaryOp: {
      int p = n.str == "not" ? kPNot : kPFactor;
      open(p);
      *out += n.str;
      if (n.str == "not") out->push_back(' ');
      Unparse(n.kids[0], p, out);
      close(p);
      return;
    }
    case NodeKind::kBoolOp: {
      int p = n.str == "and" ? kPAnd : kPOr;
      open(p);
      for (size_t k = 0; k < n.kids.size(); ++k) {
        if (k) *out += " " + n.str + " ";
        Unparse(n.kids[k], p + 1 + static_cast<int>(std::min<size_t>(k, 20)), out);  // ast.unparse raises the level per operand
      }
      close(p);
      return;
    }
    case NodeKind::kCompare: {
      open(kPCmp);
      Unparse(n.kids[0], kPCmp + 1, out);
      size_t opb = 0;
      for (size_t k = 1; k < n.kids.size(); ++k) {
        size_t ope = n.str.find('\x1f', opb);
        if (ope == std::string::npos) ope = n.str.size();
        *out += " " + n.str.substr(opb, ope - opb) + " ";
        opb = ope + 1;
        Unparse(n.kids[k], kPCmp + 1, out);
      }
      close(kPCmp);
      return;
    }
    case NodeKind::kIfExp:
      open(kPTest);
      Unparse(n.kids[0], kPTest + 1, out);
      *out += " if ";
      Unparse(n.kids[1], kPTest + 1, out);
      *out += " else ";
      Unparse(n.kids[2], kPTest, out);
      close(kPTest);
      return;
    case NodeKind::kTuple:
      if (n.kids.empty()) {
        *out += "()";
        return;
      }
      open(kPTuple);
      for (size_t k = 0; k < n.kids.size(); ++k) {
        if (k) *out += ", ";
        Unparse(n.kids[k], kPTest, out);
      }
      if (n.kids.size() == 1) out->push_back(',');
      close(kPTuple);
      return;
    case NodeKind::kList:
    case NodeKind::kSet:
      if (n.kind == NodeKind::kSet && n.kids.empty()) {
        *out += "{*()}";
        return;
      }
      out->push_back(n.kind == NodeKind::kList ? '[' : '{');
      for (size_t k = 0; k < n.kids.size(); ++k) {
        if (k) *out += ", ";
        Unparse(n.kids[k], kPTest, out);
      }
      out->push_back(n.kind == NodeKind::kList ? ']' : '}');
      return;
    case NodeKind::kDict:
      out->push_back('{');
      for (size_t k = 0; k + 1 < n.kids.size(); k += 2) {
        if (k) *out += ", ";
        if (n.kids[k] < 0) {
          *out += "**";
          Unparse(n.kids[k + 1], kPExpr, out);
        } else {
          Unparse(n.kids[k], kPTest, out);
          *out += ": ";
          Unparse(n.kids[k + 1], kPTest, out);
        }
      }
      out->push_back('}');
      return;
    case NodeKind::kNamedExpr:
      open(kPNamed);
      Unparse(n.kids[0], kPAtom, out);
      *out += " := ";
      Unparse(n.kids[1], kPAtom, out);
      close(kPNamed);
      return;
    case NodeKind::kJoinedStr: {
      // ast.unparse: f + a quote not used inside + literal parts escaped
      std::string body;
      UnparseFStringBody(i, &body);
      std::string q = body.find('\'') == std::string::npos ? "'"
                      : body.find('"') == std::string::npos ? "\""
                      : body.find("'''") == std::string::npos ? "'''" : "\"\"\"";
      *out += "f" + q + body + q;
      return;
    }
    case NodeKind::kComp: {
      bool paren = n.conv == 'g' || n.conv == '(';
      if (n.kids.empty()) {  // opaque
        if (n.conv == 'g') out->push_back('(');
        raw();
        if (n.conv == 'g') out->push_back(')');
        return;
      }
      out->push_back(paren ? '(' : n.conv == '[' ? '[' : '{');
      size_t k = 0;
      Unparse(n.kids[k++], kPTest, out);
      if (n.conv == 'd') {
        *out += ": ";
        Unparse(n.kids[k++], kPTest, out);
      }
      for (; k < n.kids.size(); ++k) {
        const Node& f = nodes_[n.kids[k]];
        *out += f.str == "async" ? " async for " : " for ";
        Unparse(f.kids[0], kPTuple, out);
        *out += " in ";
        Unparse(f.kids[1], kPTest + 1, out);
        for (size_t j = 2; j < f.kids.size(); ++j) {
          *out += " if ";
          Unparse(f.kids[j], kPTest + 1, out);
        }
      }
      out->push_back(paren ? ')' : n.conv == '[' ? ']' : '}');
      return;
    }
    case NodeKind::kAwait:
      open(kPAwait);
      *out += "await ";
      Unparse(n.kids[0], kPAtom, out);
      close(kPAwait);
      return;
    default:
      raw();
      return;
  }
}

}  // namespace errdex::py
