// document/guards.cc: see guards.h.
#include "document/guards.h"

#include "document/py_lex.h"

namespace errdex::doc {
namespace {

using Toks = std::vector<PyTok>;

struct Node {
  enum Kind { kAtom, kAnd, kOr } kind = kAtom;
  Atom atom;
  std::vector<Node> kids;
};

class Parser {
 public:
  Parser(std::string_view src) : src_(src) {
    for (auto& t : LexPython(src))
      if (t.kind != PyTok::kNewline && t.kind != PyTok::kEnd) t_.push_back(std::move(t));
  }
  Node Parse(bool neg) { return Or(0, t_.size(), neg); }

 private:
  bool IsName(size_t i, std::string_view n) const { return i < t_.size() && t_[i].kind == PyTok::kName && t_[i].text == n; }
  bool IsOp(size_t i, std::string_view n) const { return i < t_.size() && t_[i].kind == PyTok::kOp && t_[i].text == n; }

  Node Junction(size_t b, size_t e, bool neg, std::string_view word, Node::Kind kind, Node::Kind neg_kind,
                Node (Parser::*next)(size_t, size_t, bool)) {
    auto parts = SplitTopLevel(t_, b, e, word);
    // A conditional expression (x if c else y) or lambda is opaque.
    if (parts.size() <= 1) return (this->*next)(b, e, neg);
    Node n;
    n.kind = neg ? neg_kind : kind;
    for (auto [pb, pe] : parts) n.kids.push_back((this->*next)(pb, pe, neg));
    return n;
  }
  Node Or(size_t b, size_t e, bool neg) {
    if (HasTopLevel(b, e, "if") || HasTopLevel(b, e, "lambda")) return Opaque(b, e, neg);
    return Junction(b, e, neg, "or", Node::kOr, Node::kAnd, &Parser::And);
  }
  Node And(size_t b, size_t e, bool neg) { return Junction(b, e, neg, "and", Node::kAnd, Node::kOr, &Parser::Not); }
  Node Not(size_t b, size_t e, bool neg) {
    if (b < e && IsName(b, "not")) return Not(b + 1, e, !neg);
    if (b < e && IsOp(b, "(") && MatchBracket(t_, b) == e - 1) {
      // A parenthesized group holding a tuple is an operand, not a group.
      if (SplitTopLevel(t_, b + 1, e - 1).size() == 1) return Or(b + 1, e - 1, neg);
    }
    return Compare(b, e, neg);
  }
  bool HasTopLevel(size_t b, size_t e, std::string_view word) const {
    return SplitTopLevel(t_, b, e, word).size() > 1;
  }
  Node Opaque(size_t b, size_t e, bool neg) {
    Node n;
    n.atom.lhs = std::string(SpanText(src_, t_, b, e));
    n.atom.falsy = neg;
    return n;
  }
  Node Compare(size_t b, size_t e, bool neg) {
    Node n;
    int base = b < e ? t_[b].depth : 0;
    for (size_t i = b + 1; i < e; ++i) {
      if (t_[i].depth != base) continue;
      std::string op;
      size_t len = 1;
      if (t_[i].kind == PyTok::kOp && (t_[i].text == "==" || t_[i].text == "!=" || t_[i].text == "<" ||
                                       t_[i].text == "<=" || t_[i].text == ">" || t_[i].text == ">=")) {
        op = std::string(t_[i].text);
      } else if (IsName(i, "in")) {
        op = "in";
      } else if (IsName(i, "not") && IsName(i + 1, "in")) {
        op = "not in";
        len = 2;
      } else if (IsName(i, "is")) {
        if (IsName(i + 1, "not")) { op = "is not"; len = 2; } else { op = "is"; }
      }
      if (op.empty()) continue;
      n.atom.lhs = std::string(SpanText(src_, t_, b, i));
      n.atom.rhs = std::string(SpanText(src_, t_, i + len, e));
      n.atom.op = neg ? FlipOp(op) : op;
      n.atom.rhs_strings = StringList(t_, i + len, e, &n.atom.values);
      return n;
    }
    return Opaque(b, e, neg);
  }

  std::string_view src_;
  Toks t_;
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
  auto toks = LexPython(g);
  for (size_t i = 0; i < toks.size(); ++i) {
    if (toks[i].kind == PyTok::kOp && toks[i].text == "(") {
      size_t c = MatchBracket(toks, i);
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

}  // namespace errdex::doc
