// check/program.cc: one pass over a file's logical lines (see program.h).
// Blocks are found by indentation; each block's statements land in the body of
// its function (or the module body) as cx trees. Tested by program_test.cc.
#include "check/program.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>

#include "check/cx.h"
#include "extract/python/expr.h"
#include "extract/python/tokenizer.h"

namespace errdex::check {

namespace {

using py::NodeKind;
using py::Token;
using py::TokenKind;

constexpr size_t kMaxStrLiteral = 256;  // longer string constants are kept as (? ...)
constexpr int kMaxBlockDepth = 40;      // statement nesting kept; deeper bodies become (blk ...)
constexpr int kMaxConvDepth = 48;       // expression depth kept; deeper becomes (? ...)

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// An open block: statements are appended to the text of its function (or of the
// module body) as they are read; closing it appends what closes its brackets.
struct Frame {
  int indent = -1;      // the header's indent (-1: the module)
  int fn = -1;          // the function whose text this is in (-1: module body)
  int cls = -1;         // a class body (its statements are class attributes)
  int depth = 0;        // nesting of blocks inside the function
  bool dropped = false; // statements here are not kept (too deep, a class body's blocks, malformed)
  bool close = false;   // written "(head ... (": closing writes "))"
};

class Builder {
 public:
  Builder(std::string_view path, std::string_view text, const std::vector<SiteRef>& sites)
      : text_(text), parser_(text) {
    out_.path = std::string(path);
    out_.sites = sites;
    for (size_t i = 0; i < sites.size(); ++i) site_at_[sites[i].line].push_back((int)i);
    used_.assign(sites.size(), 0);
  }

  FileProgram Run() {
    if (text_.size() >= 0xFFFFFFF0u) return std::move(out_);
    py::Tokenize(text_, {}, &toks_);
    module_text_ = "(";
    frames_.push_back(Frame{});
    for (const py::LogicalLine& l : toks_.lines) Line(l);
    CloseTo(-2, (int)toks_.line_starts.size() + 1);
    module_text_.push_back(')');
    out_.module_body = std::move(module_text_);
    for (size_t i = 0; i < fn_text_.size(); ++i) out_.functions[i].body = std::move(fn_text_[i]);
    return std::move(out_);
  }

 private:
  const std::vector<Token>& T() const { return toks_.tokens; }
  std::string_view Text(uint32_t i) const { return py::TokenText(text_, T()[i]); }
  bool Op(uint32_t i, std::string_view op) const { return i < T().size() && py::IsOp(text_, T()[i], op); }
  bool Kw(uint32_t i, std::string_view n) const { return i < T().size() && py::IsName(text_, T()[i], n); }
  int LineOf(uint32_t i) const { return T()[i].line; }

  std::string& Buf(const Frame& f) { return f.fn < 0 ? module_text_ : fn_text_[(size_t)f.fn]; }
  // Appends a statement to the innermost block.
  void Append(const Cx& stmt) {
    std::string& b = Buf(frames_.back());
    b.push_back(' ');
    WriteCx(stmt, &b);
  }
  // Opens a compound statement whose body follows: writes `head` ("(if 3 TEST (") and pushes its block.
  void Open(int indent, const std::string& head) {
    std::string& b = Buf(frames_.back());
    b.push_back(' ');
    b += head;
    Frame parent = frames_.back();
    Frame f;
    f.indent = indent;
    f.fn = parent.fn;
    f.depth = parent.depth + 1;
    f.close = true;
    frames_.push_back(f);
  }

  void CloseTo(int indent, int line) {
    while (frames_.size() > 1 && frames_.back().indent >= indent) {
      Frame f = frames_.back();
      frames_.pop_back();
      if (f.close) Buf(f) += "))";
      if (f.fn >= 0 && (frames_.empty() || frames_.back().fn != f.fn)) {
        out_.functions[(size_t)f.fn].end_line = line - 1;
        fn_text_[(size_t)f.fn].push_back(')');
      }
    }
    // A compound chain (if/elif/else, try/except) continues only at the same indent.
    for (auto it = chains_.begin(); it != chains_.end();) it = it->first > indent ? chains_.erase(it) : std::next(it);
  }

  // Index of the first token at depth 0 in [b, e) that is `op`, or e.
  uint32_t FindTop(uint32_t b, uint32_t e, std::string_view op) const {
    int depth = 0;
    for (uint32_t i = b; i < e; ++i) {
      const Token& t = T()[i];
      if (t.kind == TokenKind::kOp && t.end - t.begin == 1) {
        char c = text_[t.begin];
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') depth = depth > 0 ? depth - 1 : 0;
      }
      if (depth == 0 && t.kind != TokenKind::kString && py::TokenText(text_, t) == op) return i;
      if (depth == 0 && op == ":" && py::IsName(text_, t, "lambda")) {  // a lambda's ':' is not ours
        uint32_t j = FindTop(i + 1, e, ":");
        if (j >= e) return e;
        i = j;
      }
    }
    return e;
  }
  std::vector<std::pair<uint32_t, uint32_t>> SplitTop(uint32_t b, uint32_t e, std::string_view op) const {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    uint32_t s = b;
    while (true) {
      uint32_t k = FindTop(s, e, op);
      out.emplace_back(s, k);
      if (k >= e) break;
      s = k + 1;
    }
    return out;
  }

  // An expression, written as cx text straight from the parser's nodes, and what
  // the builder asks about it.
  struct ExprText {
    std::string text;
    bool has_call = false;
    bool inert = false;  // a call of logging or printing
    std::vector<std::string> add_arguments;  // the text of each X.add_argument(...) call inside
  };

  // Tokens [b, e) as one expression; `callee_only`: a call's callee (what a raise raises).
  ExprText Expr(uint32_t b, uint32_t e, bool allow_tuple = true, bool callee_only = false) {
    ExprText x;
    if (b >= e) {
      OpaqueText("", &x.text);
      return x;
    }
    parser_.Clear();
    size_t pos = b;
    int n = parser_.ParseExpr(T(), &pos, e, allow_tuple);
    if (n < 0 || pos != e) {
      OpaqueText(text_.substr(T()[b].begin, T()[e - 1].end - T()[b].begin), &x.text);
      return x;
    }
    const py::Node& root = parser_.node(n);
    if (root.kind == NodeKind::kCall) {
      int f = root.kids[0];
      while (parser_.node(f).kind == NodeKind::kAttribute) f = parser_.node(f).kids[0];
      if (parser_.node(f).kind == NodeKind::kName) {
        static const char* kInert[] = {"logger", "logging", "log", "LOG", "LOGGER", "print", "warnings", "_logger"};
        for (const char* w : kInert) x.inert = x.inert || parser_.node(f).str == w;
      }
      if (callee_only) n = root.kids[0];
    }
    Emit(n, 0, &x);
    return x;
  }

  static void OpaqueText(std::string_view source, std::string* out) {
    out->append("(? ");
    WriteCxString(Cx::Opaque(source).text, out);
    out->push_back(')');
  }

  void Number(std::string_view s, bool negate, std::string* out) {
    std::string t;
    for (char c : s)
      if (c != '_') t.push_back(c);
    auto opaque = [&] { OpaqueText(negate ? "-" + std::string(s) : std::string(s), out); };
    if (t.empty() || t.back() == 'j' || t.back() == 'J') return opaque();
    errno = 0;
    char* end = nullptr;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X' || t[1] == 'o' || t[1] == 'O' || t[1] == 'b' || t[1] == 'B')) {
      int base = (t[1] == 'x' || t[1] == 'X') ? 16 : (t[1] == 'o' || t[1] == 'O') ? 8 : 2;
      long long v = std::strtoll(t.c_str() + 2, &end, base);
      if (*end || errno) return opaque();
      WriteCx(Cx::Int(negate ? -v : v), out);
      return;
    }
    if (t.find_first_of(".eE") != std::string::npos) {
      double v = std::strtod(t.c_str(), &end);
      if (*end) return opaque();
      WriteCx(Cx::Float(negate ? -v : v), out);
      return;
    }
    long long v = std::strtoll(t.c_str(), &end, 10);
    if (*end || errno || (negate && v == INT64_MIN)) return opaque();
    WriteCx(Cx::Int(negate ? -v : v), out);
  }

  // The cx text of node `n` (cx.h's grammar), appended to x->text.
  void Emit(int n, int depth, ExprText* x) {
    const py::Node& nd = parser_.node(n);
    std::string& out = x->text;
    if (depth > kMaxConvDepth) return OpaqueText(parser_.Seg(n), &out);
    auto list = [&](const char* head, size_t from = 0) {
      out.push_back('(');
      out.append(head);
      for (size_t k = from; k < nd.kids.size(); ++k) {
        out.push_back(' ');
        Emit(nd.kids[k], depth + 1, x);
      }
      out.push_back(')');
    };
    switch (nd.kind) {
      case NodeKind::kName: out.append(nd.str); return;
      case NodeKind::kNumber: return Number(nd.str, false, &out);
      case NodeKind::kConst:
        if (nd.str == "None") out.append("#none");
        else if (nd.str == "True") out.append("#true");
        else if (nd.str == "False") out.append("#false");
        else if (nd.str == "...") out.append("#ellipsis");
        else OpaqueText(parser_.Seg(n), &out);
        return;
      case NodeKind::kStr:
        if (nd.str.size() > kMaxStrLiteral) return OpaqueText(parser_.Seg(n), &out);
        WriteCxString(nd.str, &out);
        return;
      case NodeKind::kAttribute:
        out.append("(. ");
        Emit(nd.kids[0], depth + 1, x);
        out.push_back(' ');
        out.append(nd.str);
        out.push_back(')');
        return;
      case NodeKind::kCall: {
        x->has_call = true;
        size_t start = out.size();
        const py::Node& f = parser_.node(nd.kids[0]);
        out.append("(call ");
        Emit(nd.kids[0], depth + 1, x);
        for (size_t k = 1; k < nd.kids.size(); ++k) {
          const py::Node& a = parser_.node(nd.kids[k]);
          out.push_back(' ');
          if (a.kind == NodeKind::kKeyword) {
            if (a.str.empty()) {
              out.append("(** ");
            } else {
              out.append("(kw ");
              out.append(a.str);
              out.push_back(' ');
            }
            Emit(a.kids[0], depth + 1, x);
            out.push_back(')');
          } else if (a.kind == NodeKind::kStarred) {
            out.append("(* ");
            Emit(a.kids[0], depth + 1, x);
            out.push_back(')');
          } else {
            Emit(nd.kids[k], depth + 1, x);
          }
        }
        out.push_back(')');
        if (f.kind == NodeKind::kAttribute && f.str == "add_argument") x->add_arguments.push_back(out.substr(start));
        if (f.kind == NodeKind::kAttribute && (f.str == "add_subparsers" || f.str == "add_parser")) out_.subcommands = true;
        bool import_call = (f.kind == NodeKind::kName && (f.str == "__import__" || f.str == "import_module")) ||
                           (f.kind == NodeKind::kAttribute && f.str == "import_module");
        if (import_call && (nd.kids.size() < 2 || parser_.node(nd.kids[1]).kind != NodeKind::kStr)) out_.dynamic_import = true;
        return;
      }
      case NodeKind::kStarred: return list("*");
      case NodeKind::kSubscript: return list("[]");
      case NodeKind::kSlice:
        out.append("(slice");
        for (int k : nd.kids) {
          out.push_back(' ');
          if (k < 0) out.append("#none");
          else Emit(k, depth + 1, x);
        }
        out.push_back(')');
        return;
      case NodeKind::kBinOp:
        out.append("(bin ");
        out.append(nd.str);
        for (int k : nd.kids) {
          out.push_back(' ');
          Emit(k, depth + 1, x);
        }
        out.push_back(')');
        return;
      case NodeKind::kUnaryOp:
        if (nd.str == "-" && parser_.node(nd.kids[0]).kind == NodeKind::kNumber)  // -1 is a constant
          return Number(parser_.node(nd.kids[0]).str, true, &out);
        return list(nd.str == "not" ? "not" : nd.str == "-" ? "neg" : nd.str == "+" ? "pos" : "inv");
      case NodeKind::kBoolOp: return list(nd.str == "and" ? "and" : "or");
      case NodeKind::kCompare: {
        out.append("(cmp ");
        Emit(nd.kids[0], depth + 1, x);
        size_t b = 0;
        for (size_t k = 1; k < nd.kids.size(); ++k) {
          size_t e = nd.str.find('\x1f', b);
          std::string_view op = std::string_view(nd.str).substr(b, e == std::string::npos ? std::string::npos : e - b);
          b = e == std::string::npos ? nd.str.size() : e + 1;
          out.push_back(' ');
          out.append(op == "not in" ? "notin" : op == "is not" ? "isnot" : op == "<>" ? "!=" : op);
          out.push_back(' ');
          Emit(nd.kids[k], depth + 1, x);
        }
        out.push_back(')');
        return;
      }
      case NodeKind::kIfExp:
        out.append("(ifx ");
        Emit(nd.kids[1], depth + 1, x);
        out.push_back(' ');
        Emit(nd.kids[0], depth + 1, x);
        out.push_back(' ');
        Emit(nd.kids[2], depth + 1, x);
        out.push_back(')');
        return;
      case NodeKind::kTuple: return list("tuple");
      case NodeKind::kList: return list("list");
      case NodeKind::kSet: return list("set");
      case NodeKind::kDict:
        for (int k : nd.kids)
          if (k < 0) return OpaqueText(parser_.Seg(n), &out);
        return list("dict");
      case NodeKind::kNamedExpr: return list("walrus");
      case NodeKind::kAwait:
        if (nd.kids.empty()) return OpaqueText(parser_.Seg(n), &out);
        return Emit(nd.kids[0], depth + 1, x);
      default: return OpaqueText(parser_.Seg(n), &out);
    }
  }

  static Cx Raw(std::string text) {
    Cx c = Cx::List(Head::kRaw);
    c.text = std::move(text);
    return c;
  }

  int SiteFor(int line, bool assert_stmt) {
    auto it = site_at_.find(line);
    if (it == site_at_.end()) return -1;
    for (int i : it->second) {
      const std::string& k = out_.sites[(size_t)i].kind;
      bool want = assert_stmt ? k == "assert" : (k == "raise" || k == "http");
      if (want && !used_[(size_t)i]) {
        used_[(size_t)i] = 1;
        return i;
      }
    }
    return -1;
  }

  void Imports(uint32_t b, uint32_t e) {
    if (Kw(b, "import")) {
      for (auto [s, t] : SplitTop(b + 1, e, ",")) {
        std::string mod;
        uint32_t i = s;
        for (; i < t && !Kw(i, "as"); ++i) mod += Text(i);
        ImportFacts f;
        f.module = mod;
        if (i < t && i + 1 < t) f.local = std::string(Text(i + 1));
        else f.local = f.module = mod.substr(0, mod.find('.'));
        if (!f.local.empty() && !mod.empty()) out_.imports.push_back(f);
        if (i >= t && mod.find('.') != std::string::npos) {  // `import a.b` also makes a.b reachable
          ImportFacts g;
          g.local = mod;
          g.module = mod;
          out_.imports.push_back(g);
        }
      }
      return;
    }
    // from [.]*mod import a [as b], ...
    uint32_t i = b + 1;
    int level = 0;
    std::string mod;
    for (; i < e && !Kw(i, "import"); ++i) {
      std::string_view s = Text(i);
      if (mod.empty() && (s == "." || s == "...")) level += (int)s.size();
      else mod += s;
    }
    if (i >= e) return;
    uint32_t lb = i + 1, le = e;
    if (Op(lb, "(")) ++lb, le = le > lb && Op(le - 1, ")") ? le - 1 : le;
    for (auto [s, t] : SplitTop(lb, le, ",")) {
      if (s >= t) continue;
      ImportFacts f;
      f.module = mod;
      f.level = level;
      f.name = std::string(Text(s));
      f.local = (s + 2 < t + 1 && Kw(s + 1, "as") && s + 2 < t) ? std::string(Text(s + 2)) : f.name;
      if (f.name != "*") out_.imports.push_back(f);
    }
  }

  // A simple statement [b, e) in the innermost frame.
  void Simple(uint32_t b, uint32_t e) {
    if (b >= e) return;
    Frame& fr = frames_.back();
    int line = LineOf(b);
    std::string_view w = Text(b);
    bool keep = !fr.dropped;
    if (T()[b].kind == TokenKind::kName) {
      if (w == "import" || w == "from") {
        if (w == "import" || FindTop(b, e, "import") < e) {
          Imports(b, e);
          return;
        }
      }
      if (w == "pass" || w == "global" || w == "nonlocal" || w == "del") return;
      if (w == "return") {
        Cx s = Cx::List(Head::kRet, {Cx::Int(line)});
        if (b + 1 < e) s.kids.push_back(Raw(Expr(b + 1, e).text));
        if (keep && fr.cls < 0) Append(std::move(s));
        return;
      }
      if (w == "raise") {
        int site = SiteFor(line, false);
        Cx s = Cx::List(Head::kRaise, {Cx::Int(line), Cx::Int(site)});
        if (b + 1 < e) {
          uint32_t from = FindTop(b + 1, e, "from");
          // Only the class matters to check (for except clauses): keep the callee.
          s.kids.push_back(Raw(Expr(b + 1, from, true, /*callee_only=*/true).text));
        }
        if (keep && fr.cls < 0) Append(std::move(s));
        return;
      }
      if (w == "assert") {
        int site = SiteFor(line, true);
        uint32_t comma = FindTop(b + 1, e, ",");
        Cx s = Cx::List(Head::kAssert, {Cx::Int(line), Cx::Int(site), Raw(Expr(b + 1, comma, false).text)});
        if (keep && fr.cls < 0) Append(std::move(s));
        return;
      }
      if (w == "break" || w == "continue") {
        if (keep && fr.cls < 0) Append(Cx::List(w == "break" ? Head::kBreak : Head::kContinue, {Cx::Int(line)}));
        return;
      }
    }
    // Assignments.
    std::vector<std::pair<uint32_t, uint32_t>> parts = SplitTop(b, e, "=");
    if (parts.size() > 1) {
      Cx s = Cx::List(Head::kAssign, {Cx::Int(line)});
      for (size_t k = 0; k + 1 < parts.size(); ++k) {
        auto [pb, pe] = parts[k];
        uint32_t colon = FindTop(pb, pe, ":");  // x: int = 1
        s.kids.push_back(Raw(Expr(pb, colon, true).text));
      }
      ExprText value = Expr(parts.back().first, parts.back().second, true);
      for (std::string& a : value.add_arguments) out_.add_arguments.emplace_back(line, std::move(a));
      if (fr.cls >= 0 && frames_.back().depth == 0) {
        ClassFacts& c = out_.classes[(size_t)fr.cls];
        auto [pb, pe] = parts[0];
        uint32_t colon = FindTop(pb, pe, ":");
        if (pb + 1 == colon || pb + 1 == pe) {
          std::string name(Text(pb));
          c.attrs.emplace_back(name, value.text);
          if (colon < pe) c.annotated.push_back(name);
        }
        return;
      }
      s.kids.push_back(Raw(std::move(value.text)));
      if (keep && fr.cls < 0) Append(std::move(s));
      return;
    }
    // Expression statements: only calls can matter; docstrings and logging are dropped unparsed.
    bool paren = false, aug = false;
    for (uint32_t i = b; i < e; ++i)
      if (T()[i].kind == TokenKind::kOp) {
        std::string_view op = Text(i);
        paren = paren || op == "(";
        aug = aug || (op.size() >= 2 && op.back() == '=' && op != "==" && op != "!=" && op != "<=" && op != ">=");
      }
    bool assign = FindTop(b, e, "=") < e;
    if (!aug && !assign && !paren && FindTop(b, e, ":") >= e) return;  // no call, no assignment, no annotation
    if (!aug && !assign && T()[b].kind == TokenKind::kName && b + 1 < e && (Op(b + 1, ".") || Op(b + 1, "("))) {
      static const char* kInert[] = {"logger", "logging", "log", "LOG", "LOGGER", "print", "warnings", "_logger"};
      for (const char* w : kInert)
        if (Text(b) == w) return;
    }
    for (uint32_t i = b; i < e; ++i) {
      const Token& t = T()[i];
      if (t.kind != TokenKind::kOp) continue;
      std::string_view op = Text(i);
      if (op.size() >= 2 && op.back() == '=' && op != "==" && op != "!=" && op != "<=" && op != ">=" && op != ":=" &&
          FindTop(b, e, op) == i) {
        Cx s = Cx::List(Head::kAug, {Cx::Int(line), Raw(Expr(b, i, true).text), Raw(Expr(i + 1, e, true).text)});
        s.text = std::string(op.substr(0, op.size() - 1));
        if (keep && fr.cls < 0) Append(std::move(s));
        return;
      }
    }
    uint32_t colon = FindTop(b, e, ":");
    if (colon < e) {  // an annotation without a value: `x: int`
      if (fr.cls >= 0 && frames_.back().depth == 0 && b + 1 == colon) {
        ClassFacts& c = out_.classes[(size_t)fr.cls];
        c.attrs.emplace_back(std::string(Text(b)), "");
        c.annotated.push_back(std::string(Text(b)));
      }
      return;
    }
    ExprText x = Expr(b, e, true);
    for (std::string& a : x.add_arguments) out_.add_arguments.emplace_back(line, std::move(a));
    if (!x.has_call || x.inert) return;
    if (keep && fr.cls < 0) Append(Cx::List(Head::kExpr, {Cx::Int(line), Raw(std::move(x.text))}));
  }

  void Simples(uint32_t b, uint32_t e) {
    for (auto [s, t] : SplitTop(b, e, ";")) Simple(s, t);
  }

  std::vector<std::string> Names(const std::string& pending) {
    std::vector<std::string> out;
    size_t s = 0;
    while (s < pending.size()) {
      size_t n = pending.find('\n', s);
      out.push_back(pending.substr(s, n - s));
      s = n == std::string::npos ? pending.size() : n + 1;
    }
    return out;
  }

  void Def(uint32_t k, uint32_t colon, int indent, int line) {
    FunctionFacts f;
    if (k + 1 < colon && T()[k + 1].kind == TokenKind::kName) f.name = std::string(Text(k + 1));
    std::string outer;
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
      if (it->cls >= 0 && it->depth == 0) {
        f.cls = out_.classes[(size_t)it->cls].qual;
        outer = f.cls;
        break;
      }
      if (it->fn >= 0) {
        outer = out_.functions[(size_t)it->fn].qual;
        break;
      }
    }
    f.qual = outer.empty() ? f.name : outer + "." + f.name;
    f.line = line;
    f.decorators = std::move(decorators_);
    decorators_.clear();
    // Parameters: between the parentheses after the name.
    uint32_t lp = k + 2;
    if (Op(lp, "(")) {
      int depth = 0;
      uint32_t rp = lp;
      for (uint32_t i = lp; i < colon; ++i) {
        if (Op(i, "(") || Op(i, "[") || Op(i, "{")) ++depth;
        if (Op(i, ")") || Op(i, "]") || Op(i, "}")) {
          if (--depth == 0) {
            rp = i;
            break;
          }
        }
      }
      for (auto [s, t] : SplitTop(lp + 1, rp, ",")) {
        if (s >= t) continue;
        std::string prefix;
        uint32_t i = s;
        if (Op(i, "*")) prefix = "*", ++i;
        else if (Op(i, "**")) prefix = "**", ++i;
        if (i >= t || T()[i].kind != TokenKind::kName) continue;  // bare * or /
        f.params.push_back(prefix + std::string(Text(i)));
        uint32_t eq = FindTop(i, t, "=");
        f.defaults.push_back(eq < t ? Expr(eq + 1, t, false).text : "");
        uint32_t colon = FindTop(i, eq, ":");
        std::string ann;
        for (uint32_t j = colon + 1; j < eq && ann.size() < 80; ++j) ann += Text(j);
        f.annotations.push_back(colon < eq ? ann : "");
      }
    }
    out_.functions.push_back(std::move(f));
    fn_text_.push_back("(");
    Frame fr;
    fr.indent = indent;
    fr.fn = (int)out_.functions.size() - 1;
    frames_.push_back(fr);
  }

  void Class(uint32_t k, uint32_t colon, int indent, int line) {
    ClassFacts c;
    if (k + 1 < colon && T()[k + 1].kind == TokenKind::kName) c.name = std::string(Text(k + 1));
    std::string outer;
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
      if ((it->cls >= 0 && it->depth == 0) || it->fn >= 0) {
        outer = it->fn >= 0 ? out_.functions[(size_t)it->fn].qual : out_.classes[(size_t)it->cls].qual;
        break;
      }
    c.qual = outer.empty() ? c.name : outer + "." + c.name;
    c.line = line;
    c.decorators = std::move(decorators_);
    decorators_.clear();
    if (Op(k + 2, "(")) {
      uint32_t rp = colon > 0 && Op(colon - 1, ")") ? colon - 1 : colon;
      for (auto [s, t] : SplitTop(k + 3, rp, ",")) {
        if (s >= t || FindTop(s, t, "=") < t) continue;  // metaclass=...
        std::string base;
        for (uint32_t i = s; i < t && (T()[i].kind == TokenKind::kName || Op(i, ".")); ++i) base += Text(i);
        if (!base.empty()) c.bases.push_back(base);
      }
    }
    out_.classes.push_back(std::move(c));
    Frame fr;
    fr.indent = indent;
    fr.fn = frames_.back().fn;
    fr.cls = (int)out_.classes.size() - 1;
    fr.dropped = true;  // class-body statements are attributes, not code check runs
    frames_.push_back(fr);
  }

  // A block whose statements are not kept (under a dropped frame, a class body's blocks).
  void PushDropped(int indent) {
    Frame fr = frames_.back();
    fr.indent = indent;
    fr.depth += 1;
    fr.dropped = true;
    fr.close = false;
    frames_.push_back(std::move(fr));
  }

  // What may follow a compound statement at the same indent (chains_).
  enum Chain : char { kIfChain = 'i', kLoopChain = 'l', kTryChain = 't', kTryElse = 'e' };

  void Line(const py::LogicalLine& l) {
    uint32_t b = l.first, e = l.last;
    if (b >= e) return;
    int line = LineOf(b);
    CloseTo(l.indent, line);
    uint32_t k = b;
    if (Kw(k, "async") && k + 1 < e) ++k;
    std::string_view w = T()[k].kind == TokenKind::kName ? Text(k) : std::string_view();
    if (Op(b, "@")) {
      std::string d;
      for (uint32_t i = b + 1; i < e && (T()[i].kind == TokenKind::kName || Op(i, ".")); ++i) d += Text(i);
      decorators_.push_back(d);
      return;
    }
    static const char* kCompound[] = {"if", "elif", "else", "while", "for", "try", "except", "finally", "with", "def", "class", "match", "case"};
    bool compound = false;
    for (const char* c : kCompound)
      if (w == c) compound = true;
    uint32_t colon = compound ? FindTop(k + 1, e, ":") : e;
    if (compound && (w == "match" || w == "case") && (colon >= e || Op(k + 1, "=") || Op(k + 1, "."))) compound = false;
    if (!compound || colon >= e) {
      chains_.erase(l.indent);
      Simples(b, e);
      return;
    }
    if (w == "def") {
      chains_.erase(l.indent);
      Def(k, colon, l.indent, line);
      Simples(colon + 1, e);
      return;
    }
    if (w == "class") {
      chains_.erase(l.indent);
      Class(k, colon, l.indent, line);
      Simples(colon + 1, e);
      return;
    }
    decorators_.clear();
    auto chain_it = chains_.find(l.indent);
    char chain = chain_it == chains_.end() ? 0 : chain_it->second;
    bool continues = w == "elif" || w == "else" || w == "except" || w == "finally";
    bool valid = !continues || (w == "elif" && chain == kIfChain) ||
                 (w == "else" && (chain == kIfChain || chain == kLoopChain || chain == kTryChain)) ||
                 (w == "except" && chain == kTryChain) || (w == "finally" && (chain == kTryChain || chain == kTryElse));
    if (frames_.back().dropped || !valid) {
      // Under a dropped block, or elif/except/... without their head (malformed code).
      if (!continues) chains_.erase(l.indent);
      PushDropped(l.indent);
      Simples(colon + 1, e);
      return;
    }
    if (frames_.back().depth + 1 > kMaxBlockDepth) {
      // Too deep: the block's statements may or may not run, and are not kept.
      Append(Cx::List(Head::kBlock, {Cx::Int(line), Cx::List(Head::kSeq), Cx::Opaque("too deep")}));
      chains_.erase(l.indent);
      PushDropped(l.indent);
      Simples(colon + 1, e);
      return;
    }
    std::string ln = std::to_string(line);
    if (w == "if" || w == "elif" || w == "while") {
      Open(l.indent, "(" + std::string(w) + " " + ln + " " + Expr(k + 1, colon, false).text + " (");
      chains_[l.indent] = w == "while" ? kLoopChain : kIfChain;
    } else if (w == "else") {
      Open(l.indent, "(else " + ln + " (");
      if (chain == kTryChain) chains_[l.indent] = kTryElse;
      else chains_.erase(l.indent);
    } else if (w == "for") {
      uint32_t in = k + 1;
      for (; in < colon; ++in)
        if (Kw(in, "in") && FindTop(k + 1, in + 1, "in") == in) break;
      Open(l.indent, "(for " + ln + " " + Expr(k + 1, in, true).text + " " + Expr(in + 1, colon, true).text + " (");
      chains_[l.indent] = kLoopChain;
    } else if (w == "try") {
      Open(l.indent, "(try " + ln + " (");
      chains_[l.indent] = kTryChain;
    } else if (w == "except") {
      uint32_t tb = k + 1;
      if (Op(tb, "*")) ++tb;
      uint32_t as = colon;
      for (uint32_t i = tb; i < colon; ++i)
        if (Kw(i, "as")) as = i;
      std::string type = tb < as ? Expr(tb, as, true).text : "#none";
      std::string name = as + 1 < colon ? std::string(Text(as + 1)) : "#none";
      Open(l.indent, "(except " + ln + " " + type + " " + name + " (");
    } else if (w == "finally") {
      Open(l.indent, "(finally " + ln + " (");
      chains_.erase(l.indent);
    } else if (w == "with") {
      Open(l.indent, "(with " + ln + " (");
      chains_.erase(l.indent);
      // `with f() as x`: the call runs; x is unknown.
      for (auto [ib, ie] : SplitTop(k + 1, colon, ",")) {
        uint32_t as = ie;
        for (uint32_t i = ib; i < ie; ++i)
          if (Kw(i, "as") && FindTop(ib, i + 1, "as") == i) as = i;
        ExprText item = Expr(ib, as, false);
        if (item.has_call) Append(Cx::List(Head::kExpr, {Cx::Int(line), Raw(std::move(item.text))}));
        if (as < ie)
          Append(Cx::List(Head::kAssign, {Cx::Int(line), Raw(Expr(as + 1, ie, true).text), Cx::Opaque("with-target")}));
      }
    } else {  // match / case: each case body may or may not run
      Open(l.indent, "(blk " + ln + " (");
      chains_.erase(l.indent);
      if (w == "match") {
        ExprText x = Expr(k + 1, colon, true);
        if (x.has_call) Append(Cx::List(Head::kExpr, {Cx::Int(line), Raw(std::move(x.text))}));
      }
    }
    Simples(colon + 1, e);
  }

  std::string_view text_;
  py::Tokens toks_;
  py::Parser parser_;
  FileProgram out_;
  std::string module_text_;
  std::vector<std::string> fn_text_;
  std::vector<Frame> frames_;
  std::map<int, char> chains_;  // indent -> what the compound statement last opened there allows to follow
  std::vector<std::string> decorators_;
  std::map<int, std::vector<int>> site_at_;
  std::vector<char> used_;
};

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

std::string Unquote(std::string s) {
  s = Trim(s);
  if (s.size() >= 2 && (s[0] == '"' || s[0] == '\'') && s.back() == s[0]) s = s.substr(1, s.size() - 2);
  return s;
}

bool IsEntryTarget(std::string_view v) {
  size_t colon = v.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 >= v.size()) return false;
  for (char c : v)
    if (!(std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':')) return false;
  return true;
}

bool IsScriptName(std::string_view v) {
  if (v.empty()) return false;
  for (char c : v)
    if (!(std::isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

}  // namespace

FileProgram BuildFileProgram(std::string_view path, std::string_view text, const std::vector<SiteRef>& sites) {
  return Builder(path, text, sites).Run();
}

Result<Cx> ParsePythonExpression(std::string_view text) {
  std::string src(text);
  if (src.size() > 4096) return Status::InvalidArgument("expression too long");
  std::vector<Token> toks;
  py::TokenizeExpression(src, 0, (uint32_t)src.size(), &toks);
  py::Parser parser(src);
  size_t pos = 0;
  size_t end = toks.empty() ? 0 : toks.size() - 1;  // the kEnd token
  int n = parser.ParseExpr(toks, &pos, end, true);
  if (n < 0 || pos != end) return Status::ParseError("not a Python expression: " + src);
  // Reuse the builder's conversion through a one-line file.
  FileProgram p = BuildFileProgram("<assume>", "__check_assume__ = (" + src + ")\n", {});
  auto body = ParseBody(p.module_body);
  if (!body.ok() || body->kids.empty() || body->kids[0].head != Head::kAssign || body->kids[0].kids.size() != 3)
    return Status::ParseError("not a Python expression: " + src);
  return body->kids[0].kids[2];
}

bool IsTestPath(std::string_view rel) {
  size_t slash = rel.rfind('/');
  std::string_view base = slash == std::string_view::npos ? rel : rel.substr(slash + 1);
  if (base.substr(0, 5) == "test_" || base == "conftest.py" || (base.size() >= 8 && base.substr(base.size() - 8) == "_test.py"))
    return true;
  size_t p = 0;
  while (slash != std::string_view::npos && p < slash) {
    size_t q = rel.find('/', p);
    std::string_view part = rel.substr(p, q - p);
    if (part == "tests" || part == "test") return true;
    p = q + 1;
  }
  return false;
}

bool IsPackagingFile(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base == "pyproject.toml" || base == "setup.cfg" || base == "setup.py";
}

std::vector<std::pair<std::string, std::string>> ConsoleScripts(std::string_view path, std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  auto add = [&](std::string name, std::string target) {
    name = Unquote(name);
    target = Unquote(target);
    if (size_t sp = target.find(' '); sp != std::string::npos) target = target.substr(0, sp);  // "[extra]" markers
    if (IsScriptName(name) && IsEntryTarget(target)) out.emplace_back(name, target);
  };
  if (base == "pyproject.toml" || base == "setup.cfg") {
    // TOML [project.scripts] / [tool.poetry.scripts]: name = "mod:func";
    // setup.cfg [options.entry_points] console_scripts = \n name = mod:func
    bool in_scripts = false;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      std::string line = Trim(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
      pos = nl == std::string_view::npos ? text.size() : nl + 1;
      if (line.empty() || line[0] == '#' || line[0] == ';') continue;
      if (line[0] == '[') {
        in_scripts = line == "[project.scripts]" || line == "[tool.poetry.scripts]" || line == "[project.gui-scripts]";
        continue;
      }
      if (base == "setup.cfg" && StartsWith(line, "console_scripts")) {
        in_scripts = true;
        size_t eq = line.find('=');
        if (eq != std::string::npos) line = Trim(line.substr(eq + 1));
        if (line.empty()) continue;
      }
      if (!in_scripts) continue;
      size_t eq = line.find('=');
      if (eq == std::string::npos) {
        if (base == "setup.cfg" && line.find(':') == std::string::npos) in_scripts = false;
        continue;
      }
      add(line.substr(0, eq), line.substr(eq + 1));
    }
    return out;
  }
  if (base == "setup.py") {
    // entry_points={"console_scripts": ["name = mod:func", ...]}: string literals after the key.
    size_t at = text.find("console_scripts");
    if (at == std::string_view::npos) return out;
    py::Tokens toks = py::Tokenize(text);
    for (const Token& t : toks.tokens) {
      if (t.begin <= at || t.kind != TokenKind::kString) continue;
      py::StringInfo si = py::AnalyzeString(text, t);
      if (si.fstring || si.bytes) continue;
      std::string v = py::DecodeStringBody(text.substr(si.body_begin, si.body_end - si.body_begin), si.raw);
      size_t eq = v.find('=');
      if (eq == std::string::npos) {
        if (v != "console_scripts" && !out.empty()) break;
        continue;
      }
      add(v.substr(0, eq), v.substr(eq + 1));
    }
  }
  return out;
}

}  // namespace errdex::check
