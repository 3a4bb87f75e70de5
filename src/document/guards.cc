// document/guards.cc: see guards.h.
#include "document/guards.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "document/py_tokens.h"
#include "document/text.h"
#include "document/values.h"

namespace errdex::doc {
namespace {

// JavaScript's `typeof` names and the Python types the parser reads them as; both
// directions (NormalizeGuard, ForeignCode) use this one table.
constexpr std::pair<std::string_view, std::string_view> kJsTypeofTypes[] = {
    {"string", "str"}, {"number", "(int, float)"}, {"boolean", "bool"}, {"object", "dict"}, {"function", "Callable"}};

struct Node {
  enum Kind { kAtom, kAnd, kOr } kind = kAtom;
  Atom atom;
  std::vector<Node> kids;
};

// Recursive descent over and/or/not/parentheses, bounded: deeper than
// kMaxDepth levels (a hostile `not not not ...` or `((((...))))`) the rest is
// one opaque atom. Linear in the guard's tokens otherwise.
constexpr int kMaxDepth = 24;

class Parser {
 public:
  explicit Parser(std::string_view src) : src_(src), t_(Toks::Expression(src)) { n_ = t_.size() ? t_.size() - 1 : 0; }
  Node Parse(bool neg) { return Or(0, n_, neg); }

 private:
  bool IsName(size_t i, std::string_view n) const { return i < n_ && t_.IsName(i, n); }
  bool IsOp(size_t i, std::string_view n) const { return i < n_ && t_.IsOp(i, n); }
  struct Deeper {
    int* d;
    explicit Deeper(int* x) : d(x) { ++*d; }
    ~Deeper() { --*d; }
  };

  Node Junction(size_t b, size_t e, bool neg, std::string_view word, Node::Kind kind, Node::Kind neg_kind,
                Node (Parser::*next)(size_t, size_t, bool)) {
    auto parts = t_.SplitTopLevel(b, e, word);
    // A conditional expression (x if c else y) or lambda is opaque.
    if (parts.size() <= 1) return (this->*next)(b, e, neg);
    Node n;
    n.kind = neg ? neg_kind : kind;
    for (auto [pb, pe] : parts) n.kids.push_back((this->*next)(pb, pe, neg));
    return n;
  }
  Node Or(size_t b, size_t e, bool neg) {
    Deeper guard(&depth_);
    if (depth_ > kMaxDepth) return Opaque(b, e, neg);
    if (HasTopLevel(b, e, "if") || HasTopLevel(b, e, "lambda")) return Opaque(b, e, neg);
    return Junction(b, e, neg, "or", Node::kOr, Node::kAnd, &Parser::And);
  }
  Node And(size_t b, size_t e, bool neg) { return Junction(b, e, neg, "and", Node::kAnd, Node::kOr, &Parser::Not); }
  Node Not(size_t b, size_t e, bool neg) {
    while (b < e && IsName(b, "not")) {  // iterative: `not not ... x`
      neg = !neg;
      ++b;
    }
    if (b < e && IsOp(b, "(") && t_.MatchBracket(b) == e - 1) {
      // A parenthesized group holding a tuple is an operand, not a group.
      if (t_.SplitTopLevel(b + 1, e - 1).size() == 1) return Or(b + 1, e - 1, neg);
    }
    return Compare(b, e, neg);
  }
  bool HasTopLevel(size_t b, size_t e, std::string_view word) const {
    if (b >= e) return false;
    int base = t_.depth(b);
    for (size_t i = b; i < e; ++i)
      if (t_.depth(i) == base && t_.IsName(i, word)) return true;
    return false;
  }
  Node Opaque(size_t b, size_t e, bool neg) {
    Node n;
    n.atom.lhs = std::string(t_.Span(b, e));
    n.atom.falsy = neg;
    return n;
  }
  Node Compare(size_t b, size_t e, bool neg) {
    Node n;
    int base = b < e ? t_.depth(b) : 0;
    for (size_t i = b + 1; i < e; ++i) {
      if (t_.depth(i) != base) continue;
      std::string op;
      size_t len = 1;
      std::string_view tx = t_.Text(i);
      if (t_.IsKind(i, py::TokenKind::kOp) && (tx == "==" || tx == "!=" || tx == "<" || tx == "<=" || tx == ">" || tx == ">=")) {
        op = std::string(tx);
      } else if (IsName(i, "in")) {
        op = "in";
      } else if (IsName(i, "not") && IsName(i + 1, "in")) {
        op = "not in";
        len = 2;
      } else if (IsName(i, "is")) {
        if (IsName(i + 1, "not")) { op = "is not"; len = 2; } else { op = "is"; }
      }
      if (op.empty()) continue;
      // A chained comparison `a <= x <= b`: (a <= x) and (x <= b).
      if (op != "in" && op != "not in" && op != "is" && op != "is not")
        for (size_t j = i + len; j < e; ++j) {
          if (t_.depth(j) != base || !t_.IsKind(j, py::TokenKind::kOp)) continue;
          std::string_view tj = t_.Text(j);
          if (tj != "<" && tj != "<=" && tj != ">" && tj != ">=" && tj != "==" && tj != "!=") continue;
          Node both;
          both.kind = neg ? Node::kOr : Node::kAnd;
          both.kids.push_back(MakeAtom(std::string(t_.Span(b, i)), op, i + len, j, neg));
          both.kids.push_back(MakeAtom(std::string(t_.Span(i + len, j)), std::string(tj), j + 1, e, neg));
          return both;
        }
      return MakeAtom(std::string(t_.Span(b, i)), op, i + len, e, neg);
    }
    return Opaque(b, e, neg);
  }
  // `lhs op rhs` (rhs tokens [rb, re)), a constant on the left mirrored to the right:
  // `0 < x` -> `x > 0`.
  Node MakeAtom(std::string lhs, std::string op, size_t rb, size_t re, bool neg) {
    Node n;
    std::string rhs(t_.Span(rb, re));
    if (IsConstantExpr(lhs) && !IsConstantExpr(rhs) && op != "in" && op != "not in" && op != "is" && op != "is not") {
      std::string m = op == "<" ? ">" : op == ">" ? "<" : op == "<=" ? ">=" : op == ">=" ? "<=" : op;
      n.atom.lhs = Trim(rhs);
      n.atom.rhs = Trim(lhs);
      n.atom.op = neg ? FlipOp(m) : m;
      n.atom.rhs_strings = false;
      std::string v;
      Toks lt = Toks::Expression(lhs);
      if (lt.size() >= 2 && lt.StringValue(0, lt.size() - 1, &v)) n.atom.values = {v}, n.atom.rhs_strings = true;
      return n;
    }
    n.atom.lhs = std::move(lhs);
    n.atom.rhs = std::move(rhs);
    n.atom.op = neg ? FlipOp(op) : op;
    n.atom.rhs_strings = t_.StringList(rb, re, &n.atom.values);
    if (n.atom.rhs_strings && op != "in" && op != "not in" && re > rb &&
        (t_.IsOp(rb, "[") || t_.IsOp(rb, "(") || t_.IsOp(rb, "{"))) {
      // `args == ["git", "diff"]`: one list value, not alternatives to pick from.
      n.atom.values.clear();
      n.atom.rhs_strings = false;
    }
    auto is_int = [](const std::string& v) {
      long k;
      return IntLiteral(v, &k);
    };
    if (!n.atom.rhs_strings && (op == "in" || op == "not in") && Items(rb, re, is_int, &n.atom.values))
      n.atom.rhs_strings = n.atom.rhs_numbers = true;  // `x in (32, 64)`: a list of integers
    if (!n.atom.rhs_strings && re > rb) {
      std::vector<std::string> tuple;
      if (op == "in" || op == "not in") Items(rb, re, IsCallerConstant, &n.atom.constants);
      else if ((op == "==" || op == "!=" || op == "is" || op == "is not") && (IsCallerConstant(Trim(n.atom.rhs)) || Items(rb, re, is_int, &tuple)))
        n.atom.constants.push_back(Trim(n.atom.rhs));  // `!= torch.bfloat16`, `!= (64, 64, 128)` compared whole
      bool any = false;
      for (const auto& c : n.atom.constants) any |= c != "None";
      if (!any) n.atom.constants.clear();
    }
    return n;
  }

  // A value a caller can type: a literal (None, True, False, a number, one string) or a
  // module-qualified name (`torch.bfloat16`, `cutlass.Float16`, `Mode.FAST`); not the
  // object's own state (`self.X`) and not a bare name, which may be a private constant.
  static bool IsCallerConstant(const std::string& v) {
    if (v.empty() || v.size() > 80) return false;
    if (IsConstantExpr(v)) return v.rfind("not ", 0) != 0 && v != "..." && v != "__debug__" && v.front() != '(';
    if (IsBuiltinType(v)) return true;  // `element_type not in (str, bytes)`: types a caller types
    if (!IsDotted(v) || v.find('.') == std::string::npos) return false;
    return v.rfind("self.", 0) != 0 && v.rfind("cls.", 0) != 0 && v.front() != '_';
  }
  // The items of a bracketed rhs `(a, b)` / `[a, b]` / `{a, b}` (tokens [rb, re)) when every
  // one passes `accept` (at most 64); false, and `out` untouched, otherwise.
  template <typename Accept>
  bool Items(size_t rb, size_t re, Accept accept, std::vector<std::string>* out) const {
    if (re < rb + 3 || !(t_.IsOp(rb, "[") || t_.IsOp(rb, "(") || t_.IsOp(rb, "{")) || t_.MatchBracket(rb) != re - 1) return false;
    std::vector<std::string> items;
    for (auto [pb, pe] : t_.SplitTopLevel(rb + 1, re - 1)) {
      if (pb >= pe) continue;
      std::string v = Trim(std::string(t_.Span(pb, pe)));
      if (!accept(v) || items.size() >= 64) return false;
      items.push_back(std::move(v));
    }
    if (items.empty()) return false;
    *out = std::move(items);
    return true;
  }

  std::string_view src_;
  Toks t_;
  size_t n_ = 0;  // tokens before kEnd
  int depth_ = 0;
};

void Flatten(const Node& n, int guard, const std::string& negated_test, std::vector<Clause>* out) {
  auto make = [&](std::vector<Atom> atoms) {
    Clause c;
    c.any_of = std::move(atoms);
    c.guard = guard;
    c.from_else = !negated_test.empty();
    c.negated_test = negated_test;
    out->push_back(std::move(c));
  };
  if (n.kind == Node::kAtom) return make({n.atom});
  if (n.kind == Node::kAnd) {
    for (const auto& k : n.kids) Flatten(k, guard, negated_test, out);
    return;
  }
  // kOr: one clause; nested conjunctions inside are kept as their atoms' code.
  std::vector<Atom> atoms;
  for (const auto& k : n.kids) {
    if (k.kind == Node::kAtom) { atoms.push_back(k.atom); continue; }
    Atom a;
    std::string sep = k.kind == Node::kAnd ? " and " : " or ";
    for (size_t i = 0; i < k.kids.size(); ++i) {
      std::vector<Clause> sub;
      Flatten(k.kids[i], guard, "", &sub);
      for (auto& c : sub)
        for (auto& x : c.any_of) a.lhs += (a.lhs.empty() ? "" : sep) + x.Code();
    }
    a.lhs = "(" + a.lhs + ")";
    atoms.push_back(std::move(a));
  }
  make(std::move(atoms));
}

}  // namespace

std::string FlipOp(std::string_view op) {
  if (op == "==") return "!=";
  if (op == "!=") return "==";
  if (op == "in") return "not in";
  if (op == "not in") return "in";
  if (op == "is") return "is not";
  if (op == "is not") return "is";
  if (op == "<") return ">=";
  if (op == ">=") return "<";
  if (op == ">") return "<=";
  if (op == "<=") return ">";
  return std::string(op);
}

std::string Atom::Code() const {
  if (op.empty()) return falsy ? "not " + lhs : lhs;
  return lhs + " " + op + " " + rhs;
}

bool StripNot(std::string_view g, std::string* inner) {
  if (g.rfind("not (", 0) != 0 || g.empty() || g.back() != ')') return false;
  // The parenthesis opened after "not " must close at the very end.
  Toks toks = Toks::Expression(g);
  for (size_t i = 0; i < toks.size(); ++i) {
    if (toks.IsOp(i, "(")) {
      size_t c = toks.MatchBracket(i);
      if (c >= toks.size() || toks[c].end != g.size()) return false;
      *inner = std::string(g.substr(toks[i].end, toks[c].begin - toks[i].end));
      return true;
    }
  }
  return false;
}

void ParseGuard(std::string_view text, int guard_index, std::vector<Clause>* out) {
  std::string inner;
  if (StripNot(text, &inner)) {
    Parser p(inner);
    Flatten(p.Parse(true), guard_index, inner, out);
    return;
  }
  Parser p(text);
  Flatten(p.Parse(false), guard_index, "", out);
}

void ParseCondition(std::string_view cond, bool negate, int guard_index, std::vector<Clause>* out) {
  Parser p(cond);
  Flatten(p.Parse(negate), guard_index, "", out);
}

}  // namespace errdex::doc

namespace errdex::doc {

std::string NormalizeGuard(std::string_view s, std::string_view language) {
  const bool js = language == "javascript" || language == "typescript";
  const bool java = language == "java" || language == "kotlin";
  const bool rust = language == "rust";
  const bool cpp = language == "cpp" || language == "cuda" || language == "c";
  std::string o;
  o.reserve(s.size() + 16);
  // go: `v := f(); cond` -> cond (the last top-level `;` part).
  if (size_t cut = TopLevelChar(s, ';', true); cut != std::string_view::npos && cut + 1 < s.size()) s = s.substr(cut + 1);
  // switch (x): case V -> x == V (a default keeps its text: the writers say it in words);
  // a label of several values (`case a, b:`) is one of them, `x in (a, b)` -- not `x == "a, b"`.
  if (StartsWith(s, "switch (")) {
    size_t close = s.find("): case ");
    if (close == std::string_view::npos) return std::string(s);
    std::string lhs(s.substr(8, close - 8)), rhs(s.substr(close + 8));
    return lhs + (TopLevelChar(rhs, ',', false) != std::string::npos ? " in (" + rhs + ")" : " == " + rhs);
  }
  // The Go and Java front ends write `case a, b:` of `switch v` as `v == a, b`.
  std::string label;
  if (size_t eq = s.find(" == "); eq != std::string_view::npos && s.find("&&") == std::string_view::npos &&
                                  s.find("||") == std::string_view::npos && s.find(" == ", eq + 4) == std::string_view::npos &&
                                  TopLevelChar(s.substr(eq + 4), ',', false) != std::string_view::npos &&
                                  TopLevelChar(s.substr(0, eq), ',', false) == std::string_view::npos) {
    label = std::string(s.substr(0, eq)) + " in (" + std::string(s.substr(eq + 4)) + ")";
    s = label;
  }
  size_t n = s.size();
  auto ident_at = [&](size_t i) {
    size_t e = i;
    while (e < n && (IsWordChar(s[e]) || s[e] == '$' || s[e] == '.' ||
                     (s[e] == ':' && e + 1 < n && s[e + 1] == ':' && e + 2 < n && IsWordChar(s[e + 2])) ||
                     (e > i && s[e - 1] == ':' && s[e] == ':')))
      ++e;
    return e;
  };
  auto dotted = [](std::string w) {
    std::string r;
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] == ':' && i + 1 < w.size() && w[i + 1] == ':') {
        r += '.';
        ++i;
      } else {
        r += w[i];
      }
    }
    return r;
  };
  auto close_paren = [&](size_t open) {
    int d = 0;
    for (size_t k = open; k < n; ++k) {
      if (s[k] == '(') ++d;
      else if (s[k] == ')' && --d == 0) return k;
    }
    return std::string_view::npos;
  };
  for (size_t i = 0; i < n;) {
    char c = s[i];
    if (c == '"' || c == '\'' || c == '`') {
      size_t e = i + 1;
      while (e < n && s[e] != c) e += s[e] == '\\' ? 2 : 1;
      e = std::min(e + 1, n);
      std::string lit(s.substr(i, e - i));
      if (c == '`') lit = "\"" + lit.substr(1, lit.size() >= 2 ? lit.size() - 2 : 0) + "\"";
      o += lit;
      i = e;
      continue;
    }
    // Each operator is tried only at its first byte (this loop sees every byte of every
    // foreign guard).
    if ((c == '=' || c == '!') && (s.compare(i, 3, "===") == 0 || s.compare(i, 3, "!==") == 0)) {
      o += s[i] == '=' ? "==" : "!=";
      i += 3;
      continue;
    }
    if (c == '-' && s.compare(i, 2, "->") == 0) { o += '.'; i += 2; continue; }
    if (c == '&' && s.compare(i, 2, "&&") == 0) { o += " and "; i += 2; continue; }
    if (c == '|' && s.compare(i, 2, "||") == 0) { o += " or "; i += 2; continue; }
    if (c == '?' && s.compare(i, 2, "??") == 0) { o += " or "; i += 2; continue; }
    if (c == '!' && (i + 1 >= n || s[i + 1] != '=')) { o += " not "; ++i; continue; }
    if (IsWordChar(c) || c == '$') {
      size_t e = ident_at(i);
      std::string w = dotted(std::string(s.substr(i, e - i)));
      if (w == "null" || w == "undefined" || w == "nullptr" || w == "NULL" || w == "nil") o += "None";
      else if (w == "true") o += "True";
      else if (w == "false") o += "False";
      else if (js && w == "typeof") {
        // typeof x === "string" -> isinstance(x, str)
        size_t a = i + 6;
        while (a < n && s[a] == ' ') ++a;
        size_t ae = ident_at(a);
        std::string x(s.substr(a, ae - a));
        size_t p = ae;
        while (p < n && s[p] == ' ') ++p;
        bool neg = s.compare(p, 3, "!==") == 0 || s.compare(p, 2, "!=") == 0;
        bool eq = neg || s.compare(p, 2, "==") == 0;
        if (eq && !x.empty()) {
          p += s.compare(p, 3, "===") == 0 || s.compare(p, 3, "!==") == 0 ? 3 : 2;
          while (p < n && s[p] == ' ') ++p;
          if (p < n && (s[p] == '"' || s[p] == '\'')) {
            size_t q = s.find(s[p], p + 1);
            if (q != std::string_view::npos) {
              std::string t(s.substr(p + 1, q - p - 1));
              std::string py = t;
              for (const auto& [js_type, python] : kJsTypeofTypes)
                if (t == js_type) py = python;
              o += std::string(neg ? "not " : "") + "isinstance(" + x + ", " + py + ")";
              i = q + 1;
              continue;
            }
          }
        }
        o += w;
      } else if ((js || java) && w == "instanceof") {
        // x instanceof T -> isinstance(x, T): rewrite the operand already copied.
        size_t a = i + 10;
        while (a < n && s[a] == ' ') ++a;
        size_t ae = ident_at(a);
        std::string t = dotted(std::string(s.substr(a, ae - a)));
        while (!o.empty() && o.back() == ' ') o.pop_back();
        size_t lb = o.size();
        while (lb > 0 && (IsWordChar(o[lb - 1]) || o[lb - 1] == '.' || o[lb - 1] == '$')) --lb;
        std::string x = o.substr(lb);
        o.erase(lb);
        o += "isinstance(" + x + ", " + t + ")";
        i = ae;
        continue;
      } else if (js && (w == "Array.isArray" || w == "Number.isInteger") && e < n && s[e] == '(') {
        size_t close = close_paren(e);
        if (close != std::string_view::npos) {
          o += "isinstance(" + std::string(s.substr(e + 1, close - e - 1)) + (w == "Array.isArray" ? ", list)" : ", int)");
          i = close + 1;
          continue;
        }
        o += w;
      } else if (js && (w == "includes" || EndsWith(w, ".includes")) && e < n && s[e] == '(') {
        // xs.includes(v) / ["a", "b"].includes(v) -> v in xs.
        size_t close = close_paren(e);
        std::string receiver;
        if (w != "includes") {
          receiver = w.substr(0, w.size() - 9);
        } else if (!o.empty() && o.back() == '.') {
          o.pop_back();
          size_t rb = o.size();
          if (rb > 0 && o[rb - 1] == ']') {
            int depth = 0;
            while (rb > 0) {
              char ch = o[--rb];
              if (ch == ']') ++depth;
              else if (ch == '[' && --depth == 0) break;
            }
          } else {
            while (rb > 0 && (IsWordChar(o[rb - 1]) || o[rb - 1] == '.')) --rb;
          }
          receiver = o.substr(rb);
          o.erase(rb);
        }
        if (close != std::string_view::npos && !receiver.empty()) {
          o += "(" + std::string(s.substr(e + 1, close - e - 1)) + " in " + receiver + ")";
          i = close + 1;
          continue;
        }
        o += w;
      } else if (js && StartsWith(w, "process.env.") && w.size() > 12) {
        o += "os.environ.get(\"" + w.substr(12) + "\")";
      } else if (java && EndsWith(w, ".equals") && w.size() > 7 && e < n && s[e] == '(') {
        size_t close = close_paren(e);
        if (close != std::string_view::npos) {
          o += "(" + w.substr(0, w.size() - 7) + " == " + std::string(s.substr(e + 1, close - e - 1)) + ")";
          i = close + 1;
          continue;
        }
        o += w;
      } else if (cpp && e < n && s[e] == '<' &&
                 (w == "static_cast" || w == "reinterpret_cast" || w == "const_cast" || w == "dynamic_cast")) {
        // static_cast<int32_t>(x) -> (x): the angle brackets are no comparisons
        int depth = 0;
        size_t k = e;
        for (; k < n; ++k) {
          if (s[k] == '<') ++depth;
          else if (s[k] == '>' && --depth == 0) break;
        }
        if (k < n) {
          i = k + 1;
          continue;
        }
        o += w;
      } else if (rust && (EndsWith(w, ".is_none") || EndsWith(w, ".is_some")) && s.compare(e, 2, "()") == 0) {
        o += w.substr(0, w.size() - 8) + (EndsWith(w, ".is_none") ? " is None" : " is not None");
        i = e + 2;
        continue;
      } else if (rust && EndsWith(w, ".is_empty") && w.size() > 9 && s.compare(e, 2, "()") == 0) {
        o += "(not " + w.substr(0, w.size() - 9) + ")";  // as Python tests a collection or a string
        i = e + 2;
        continue;
      } else {
        o += w;
      }
      i = e;
      continue;
    }
    o += c;
    ++i;
  }
  // `x == None` / `x != None` -> is / is not.
  for (auto [from, to] : {std::pair<const char*, const char*>{" == None", " is None"}, {" != None", " is not None"}}) {
    for (size_t p = o.find(from); p != std::string::npos; p = o.find(from, p + 1)) o.replace(p, std::char_traits<char>::length(from), to);
  }
  return o;
}

namespace {

// The parser's `isinstance(x, T)` as JavaScript writes the test: `typeof x === 'string'`,
// `Array.isArray(x)`, `x instanceof T`; negated when `negated`. `at` is at "isinstance(";
// *end is set past its ")". Empty when the call is not one to rewrite.
std::string JsTypeTest(std::string_view code, size_t at, bool negated, size_t* end) {
  size_t open = at + 10;
  int depth = 0;
  size_t close = std::string_view::npos;
  for (size_t k = open; k < code.size(); ++k) {
    if (code[k] == '(') ++depth;
    else if (code[k] == ')' && --depth == 0) {
      close = k;
      break;
    }
  }
  if (close == std::string_view::npos) return "";
  std::string_view inner = code.substr(open + 1, close - open - 1);
  size_t comma = TopLevelChar(inner, ',', true);
  if (comma == std::string_view::npos) return "";
  std::string x = Trim(inner.substr(0, comma)), t = Trim(inner.substr(comma + 1));
  if (x.empty() || t.empty()) return "";
  *end = close + 1;
  for (const auto& [js_type, py] : kJsTypeofTypes)
    if (t == py) return "typeof " + x + (negated ? " !== '" : " === '") + std::string(js_type) + "'";
  if (t == "list") return (negated ? "!" : "") + std::string("Array.isArray(") + x + ")";
  if (t == "int") return (negated ? "!" : "") + std::string("Number.isInteger(") + x + ")";
  return negated ? "!(" + x + " instanceof " + t + ")" : x + " instanceof " + t;
}

}  // namespace

std::string ForeignCode(std::string_view code, std::string_view language) {
  std::string_view null = language == "go"                                           ? "nil"
                          : language == "c"                                          ? "NULL"
                          : language == "cpp" || language == "cuda"                  ? "nullptr"
                          : language == "java" || language == "javascript" || language == "typescript" ||
                                    language == "kotlin" || language == "csharp"
                              ? "null"
                          : language == "rust" ? "None"  // Option's None: x.is_none(), x.is_some()
                                               : "";
  if (null.empty()) return std::string(code);
  // `v in (a, b)` (a switch label of several values) has no `in` in these languages:
  // `v == a || v == b`.
  std::string membership;
  if (size_t in = code.find(" in ("); in != std::string_view::npos && code.back() == ')' && IsDotted(code.substr(0, in))) {
    std::string_view lhs = code.substr(0, in), items = code.substr(in + 5, code.size() - in - 6);
    for (size_t b = 0; b <= items.size();) {
      size_t comma = TopLevelChar(items.substr(b), ',', false);
      size_t e = comma == std::string_view::npos ? items.size() : b + comma;
      membership += (membership.empty() ? "" : " or ") + std::string(lhs) + " == " + Trim(items.substr(b, e - b));
      b = e + 1;
    }
    code = membership;
  }
  std::string o;
  o.reserve(code.size());
  size_t i = 0, n = code.size();
  auto word_at = [&](size_t at, std::string_view w) {
    return code.compare(at, w.size(), w) == 0 && (at == 0 || !IsWordChar(code[at - 1])) &&
           (at + w.size() >= n || !IsWordChar(code[at + w.size()]));
  };
  // Every byte of every foreign record's prose passes here: the language is read once,
  // and each rewrite below is tried only at the byte it starts with.
  const bool rust = language == "rust", java = language == "java", cpp = language == "cpp" || language == "cuda";
  const bool js = language == "javascript" || language == "typescript";
  while (i < n) {
    char c = code[i];
    if (c == '"' || c == '\'') {  // a literal, copied as it is
      size_t e = i + 1;
      while (e < n && code[e] != c) e += code[e] == '\\' ? 2 : 1;
      e = std::min(e + 1, n);
      o.append(code.substr(i, e - i));
      i = e;
      continue;
    }
    if (c == ' ') {
      if (rust && (code.compare(i, 12, " is not None") == 0 || code.compare(i, 8, " is None") == 0)) {
        // Rust reads an Option by method: `path.is_none()`, `cfg.is_some()` (what the
        // parser's Python form `cfg is not None` came from).
        bool some = code.compare(i, 12, " is not None") == 0;
        o += some ? ".is_some()" : ".is_none()";
        i += some ? 12 : 8;
        continue;
      }
      if (!rust && code.compare(i, 12, " is not None") == 0) { o += " != "; o += null; i += 12; continue; }
      if (!rust && code.compare(i, 8, " is None") == 0) { o += " == "; o += null; i += 8; continue; }
      if (code.compare(i, 5, " and ") == 0) { o += " && "; i += 5; continue; }
      if (code.compare(i, 4, " or ") == 0) { o += " || "; i += 4; continue; }
    }
    if (js && (c == 'n' || c == 'i')) {
      // `isinstance(x, str)` / `not isinstance(...)`: the typeof / instanceof test it came from.
      bool negated = c == 'n' && word_at(i, "not") && code.compare(i, 15, "not isinstance(") == 0;
      size_t at = negated ? i + 4 : i;
      if ((negated || (word_at(i, "isinstance") && code.compare(i, 11, "isinstance(") == 0))) {
        size_t end = 0;
        std::string t = JsTypeTest(code, at, negated, &end);
        if (!t.empty()) {
          o += t;
          i = end;
          continue;
        }
      }
    }
    if (c == 'n' && word_at(i, "not") && i + 3 < n && code[i + 3] == ' ') { o += '!'; i += 4; continue; }
    if (c == 's' && java && word_at(i, "self") && i + 4 < n && code[i + 4] == '.') { o += "this"; i += 4; continue; }
    if (c == 'T' && word_at(i, "True")) { o += "true"; i += 4; continue; }
    if (c == 'F' && word_at(i, "False")) { o += "false"; i += 5; continue; }
    if (c == 'N' && !rust && word_at(i, "None")) { o += null; i += 4; continue; }
    if (cpp && (i == 0 || (!IsWordChar(code[i - 1]) && code[i - 1] != '.'))) {
      // The parser's form wrote C++'s `::` as `.`: a name qualified by a well-known
      // namespace is one again (`std::isfinite(x)`, `cutlass::WeightOnlyQuantOp::X`).
      static const char* const kNamespaces[] = {"std", "cutlass", "cute", "c10", "at", "torch", "tvm", "ffi",
                                                 "thrust", "cub", "absl", "fmt", "flashinfer", "tensorrt_llm"};
      size_t e = i;
      while (e < n && IsWordChar(code[e])) ++e;
      std::string_view w = code.substr(i, e - i);
      // `torch.bfloat16`, `torch.empty(...)` stay: the Python caller's code (`x.to(torch.bfloat16)`),
      // where C++'s own names are `torch::kBFloat16`, `torch::Tensor`.
      bool python_dtype = w == "torch" && e + 1 < n && code[e] == '.' && std::islower(static_cast<unsigned char>(code[e + 1])) &&
                          code[e + 1] != 'k';
      if (!python_dtype && e < n && code[e] == '.' && e + 1 < n && IsWordChar(code[e + 1]) &&
          std::find(std::begin(kNamespaces), std::end(kNamespaces), w) != std::end(kNamespaces)) {
        o.append(w);
        while (e < n && code[e] == '.' && e + 1 < n && IsWordChar(code[e + 1])) {
          o += "::";
          size_t b = ++e;
          while (e < n && IsWordChar(code[e])) ++e;
          o.append(code.substr(b, e - b));
        }
        i = e;
        continue;
      }
    }
    o += c;
    ++i;
  }
  return o;
}

}  // namespace errdex::doc
