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

// Where statements go: a body (a kSeq) reached from a root by kid indices.
struct Frame {
  int indent = -1;      // the header's indent (-1: the module)
  int fn = -1;          // the function whose body this is in (-1: module body)
  int cls = -1;         // a class body (its statements are class attributes)
  std::vector<uint32_t> path;  // from the root body to this body
  int depth = 0;        // nesting of blocks inside the function
  bool dropped = false; // statements here are not kept (too deep, or a class body's nested blocks)
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
    module_root_ = Cx::List(Head::kSeq);
    frames_.push_back(Frame{});
    for (const py::LogicalLine& l : toks_.lines) Line(l);
    CloseTo(-2, (int)toks_.line_starts.size() + 1);
    out_.module_body = CxText(module_root_);
    for (size_t i = 0; i < fn_roots_.size(); ++i) out_.functions[i].body = CxText(fn_roots_[i]);
    return std::move(out_);
  }

 private:
  const std::vector<Token>& T() const { return toks_.tokens; }
  std::string_view Text(uint32_t i) const { return py::TokenText(text_, T()[i]); }
  bool Op(uint32_t i, std::string_view op) const { return i < T().size() && py::IsOp(text_, T()[i], op); }
  bool Kw(uint32_t i, std::string_view n) const { return i < T().size() && py::IsName(text_, T()[i], n); }
  int LineOf(uint32_t i) const { return T()[i].line; }

  Cx& Root(const Frame& f) { return f.fn < 0 ? module_root_ : fn_roots_[(size_t)f.fn]; }
  Cx* Body(const Frame& f) {
    Cx* p = &Root(f);
    for (uint32_t k : f.path) p = &p->kids[k];
    return p;
  }
  // Appends a statement to the innermost frame; returns its path.
  std::vector<uint32_t> Append(Cx stmt) {
    Frame& f = frames_.back();
    Cx* b = Body(f);
    b->kids.push_back(std::move(stmt));
    std::vector<uint32_t> p = f.path;
    p.push_back((uint32_t)b->kids.size() - 1);
    return p;
  }
  Cx* At(const Frame& f, const std::vector<uint32_t>& path) {
    Cx* p = &Root(f);
    for (uint32_t k : path) p = &p->kids[k];
    return p;
  }

  void CloseTo(int indent, int line) {
    while (frames_.size() > 1 && frames_.back().indent >= indent) {
      Frame f = frames_.back();
      frames_.pop_back();
      if (f.fn >= 0 && (frames_.empty() || frames_.back().fn != f.fn)) out_.functions[(size_t)f.fn].end_line = line - 1;
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

  Cx Expr(uint32_t b, uint32_t e, bool allow_tuple = true) {
    if (b >= e) return Cx::Opaque("");
    parser_.Clear();
    size_t pos = b;
    int n = parser_.ParseExpr(T(), &pos, e, allow_tuple);
    if (n < 0 || pos != e) return Cx::Opaque(text_.substr(T()[b].begin, T()[e - 1].end - T()[b].begin));
    return Conv(n, 0);
  }

  Cx Number(std::string_view s) {
    std::string t;
    for (char c : s)
      if (c != '_') t.push_back(c);
    if (t.empty() || t.back() == 'j' || t.back() == 'J') return Cx::Opaque(s);
    errno = 0;
    char* end = nullptr;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X' || t[1] == 'o' || t[1] == 'O' || t[1] == 'b' || t[1] == 'B')) {
      int base = (t[1] == 'x' || t[1] == 'X') ? 16 : (t[1] == 'o' || t[1] == 'O') ? 8 : 2;
      long long v = std::strtoll(t.c_str() + 2, &end, base);
      if (*end || errno) return Cx::Opaque(s);
      return Cx::Int(v);
    }
    if (t.find_first_of(".eE") != std::string::npos) {
      double v = std::strtod(t.c_str(), &end);
      if (*end) return Cx::Opaque(s);
      return Cx::Float(v);
    }
    long long v = std::strtoll(t.c_str(), &end, 10);
    if (*end || errno) return Cx::Opaque(s);
    return Cx::Int(v);
  }

  Cx Conv(int n, int depth) {
    const py::Node& nd = parser_.node(n);
    if (depth > kMaxConvDepth) return Cx::Opaque(parser_.Seg(n));
    auto kids = [&](Head h, size_t from = 0) {
      Cx x = Cx::List(h);
      for (size_t k = from; k < nd.kids.size(); ++k) x.kids.push_back(Conv(nd.kids[k], depth + 1));
      return x;
    };
    switch (nd.kind) {
      case NodeKind::kName: return Cx::Name(nd.str);
      case NodeKind::kNumber: return Number(nd.str);
      case NodeKind::kConst:
        if (nd.str == "None") return Cx::Const(AtomKind::kNoneConst);
        if (nd.str == "True") return Cx::Const(AtomKind::kTrue);
        if (nd.str == "False") return Cx::Const(AtomKind::kFalse);
        if (nd.str == "...") return Cx::Const(AtomKind::kEllipsis);
        return Cx::Opaque(parser_.Seg(n));
      case NodeKind::kStr:
        if (nd.str.size() > kMaxStrLiteral) return Cx::Opaque(parser_.Seg(n));
        return Cx::Str(nd.str);
      case NodeKind::kAttribute: {
        Cx x = Cx::List(Head::kAttr);
        x.kids.push_back(Conv(nd.kids[0], depth + 1));
        x.kids.push_back(Cx::Name(nd.str));
        return x;
      }
      case NodeKind::kCall: {
        Cx x = Cx::List(Head::kCall);
        x.kids.push_back(Conv(nd.kids[0], depth + 1));
        for (size_t k = 1; k < nd.kids.size(); ++k) {
          const py::Node& a = parser_.node(nd.kids[k]);
          if (a.kind == NodeKind::kKeyword) {
            if (a.str.empty()) {
              x.kids.push_back(Cx::List(Head::kStarStar, {Conv(a.kids[0], depth + 1)}));
            } else {
              x.kids.push_back(Cx::List(Head::kKw, {Cx::Name(a.str), Conv(a.kids[0], depth + 1)}));
            }
          } else if (a.kind == NodeKind::kStarred) {
            x.kids.push_back(Cx::List(Head::kStar, {Conv(a.kids[0], depth + 1)}));
          } else {
            x.kids.push_back(Conv(nd.kids[k], depth + 1));
          }
        }
        return x;
      }
      case NodeKind::kStarred: return kids(Head::kStar);
      case NodeKind::kSubscript: return kids(Head::kSub);
      case NodeKind::kSlice: {
        Cx x = Cx::List(Head::kSlice);
        for (int k : nd.kids) x.kids.push_back(k < 0 ? Cx::Const(AtomKind::kNoneConst) : Conv(k, depth + 1));
        return x;
      }
      case NodeKind::kBinOp: {
        Cx x = kids(Head::kBin);
        x.text = nd.str;
        return x;
      }
      case NodeKind::kUnaryOp: {
        Head h = nd.str == "not" ? Head::kNot : nd.str == "-" ? Head::kNeg : nd.str == "+" ? Head::kPos : Head::kInv;
        if (h == Head::kNeg && parser_.node(nd.kids[0]).kind == NodeKind::kNumber) {  // -1 is a constant
          Cx v = Number(parser_.node(nd.kids[0]).str);
          if (v.IsAtom() && v.atom == AtomKind::kInt && v.i != INT64_MIN) return Cx::Int(-v.i);
          if (v.IsAtom() && v.atom == AtomKind::kFloat) return Cx::Float(-v.f);
        }
        return kids(h);
      }
      case NodeKind::kBoolOp: return kids(nd.str == "and" ? Head::kAnd : Head::kOr);
      case NodeKind::kCompare: {
        Cx x = kids(Head::kCmp);
        std::string ops;
        size_t b = 0;
        while (b <= nd.str.size()) {
          size_t e = nd.str.find('\x1f', b);
          std::string op = nd.str.substr(b, e == std::string::npos ? std::string::npos : e - b);
          if (op == "not in") op = "notin";
          else if (op == "is not") op = "isnot";
          else if (op == "<>") op = "!=";
          if (!ops.empty()) ops.push_back(' ');
          ops += op;
          if (e == std::string::npos) break;
          b = e + 1;
        }
        x.text = ops;
        return x;
      }
      case NodeKind::kIfExp:
        return Cx::List(Head::kIfx, {Conv(nd.kids[1], depth + 1), Conv(nd.kids[0], depth + 1), Conv(nd.kids[2], depth + 1)});
      case NodeKind::kTuple: return kids(Head::kTuple);
      case NodeKind::kList: return kids(Head::kList);
      case NodeKind::kSet: return kids(Head::kSet);
      case NodeKind::kDict: {
        for (int k : nd.kids)
          if (k < 0) return Cx::Opaque(parser_.Seg(n));
        return kids(Head::kDict);
      }
      case NodeKind::kNamedExpr: return kids(Head::kWalrus);
      case NodeKind::kAwait: return nd.kids.empty() ? Cx::Opaque(parser_.Seg(n)) : Conv(nd.kids[0], depth + 1);
      default: return Cx::Opaque(parser_.Seg(n));
    }
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

  // Statement-level calls that change nothing check models (logging, printing).
  bool Inert(const Cx& call) const {
    if (call.head != Head::kCall || call.kids.empty()) return false;
    const Cx* f = &call.kids[0];
    while (f->head == Head::kAttr && !f->kids.empty()) f = &f->kids[0];
    if (!f->IsName()) return false;
    static const char* kInert[] = {"logger", "logging", "log", "LOG", "LOGGER", "print", "warnings", "_logger"};
    for (const char* n : kInert)
      if (f->text == n) return true;
    return false;
  }

  bool HasCall(const Cx& x) const {
    if (x.head == Head::kCall) return true;
    for (const Cx& k : x.kids)
      if (HasCall(k)) return true;
    return false;
  }

  void NoteImportCall(const Cx& x) {
    if (out_.dynamic_import) return;
    if (x.head == Head::kCall && !x.kids.empty()) {
      std::string callee = Unparse(x.kids[0], 60);
      if ((callee == "importlib.import_module" || callee == "import_module" || callee == "__import__") &&
          (x.kids.size() < 2 || !x.kids[1].IsStr()))
        out_.dynamic_import = true;
    }
    for (const Cx& k : x.kids) NoteImportCall(k);
  }

  // add_argument calls anywhere in a statement.
  void NoteAddArgument(const Cx& x, int line) {
    if (x.head == Head::kCall && !x.kids.empty() && x.kids[0].head == Head::kAttr && x.kids[0].kids.size() == 2 &&
        x.kids[0].kids[1].text == "add_argument")
      out_.add_arguments.emplace_back(line, CxText(x));
    for (const Cx& k : x.kids) NoteAddArgument(k, line);
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
        if (b + 1 < e) s.kids.push_back(Expr(b + 1, e));
        if (keep && fr.cls < 0) Append(std::move(s));
        return;
      }
      if (w == "raise") {
        int site = SiteFor(line, false);
        Cx s = Cx::List(Head::kRaise, {Cx::Int(line), Cx::Int(site)});
        if (b + 1 < e) {
          uint32_t from = FindTop(b + 1, e, "from");
          Cx x = Expr(b + 1, from);
          // Only the class matters to check (for except clauses): keep the callee.
          if (x.head == Head::kCall && !x.kids.empty()) x = x.kids[0];
          s.kids.push_back(std::move(x));
        }
        if (keep && fr.cls < 0) Append(std::move(s));
        return;
      }
      if (w == "assert") {
        int site = SiteFor(line, true);
        uint32_t comma = FindTop(b + 1, e, ",");
        Cx s = Cx::List(Head::kAssert, {Cx::Int(line), Cx::Int(site), Expr(b + 1, comma, false)});
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
        s.kids.push_back(Expr(pb, colon, true));
      }
      Cx value = Expr(parts.back().first, parts.back().second, true);
      NoteAddArgument(value, line);
      NoteImportCall(value);
      if (fr.cls >= 0 && frames_.back().depth == 0) {
        ClassFacts& c = out_.classes[(size_t)fr.cls];
        auto [pb, pe] = parts[0];
        uint32_t colon = FindTop(pb, pe, ":");
        if (pb + 1 == colon || pb + 1 == pe) {
          std::string name(Text(pb));
          c.attrs.emplace_back(name, CxText(value));
          if (colon < pe) c.annotated.push_back(name);
        }
        return;
      }
      s.kids.push_back(std::move(value));
      if (keep && fr.cls < 0) Append(std::move(s));
      return;
    }
    for (uint32_t i = b; i < e; ++i) {
      const Token& t = T()[i];
      if (t.kind != TokenKind::kOp) continue;
      std::string_view op = Text(i);
      if (op.size() >= 2 && op.back() == '=' && op != "==" && op != "!=" && op != "<=" && op != ">=" && op != ":=" &&
          FindTop(b, e, op) == i) {
        Cx s = Cx::List(Head::kAug, {Cx::Int(line), Expr(b, i, true), Expr(i + 1, e, true)});
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
    Cx x = Expr(b, e, true);
    NoteAddArgument(x, line);
    NoteImportCall(x);
    if (!HasCall(x) || Inert(x)) return;
    if (keep && fr.cls < 0) Append(Cx::List(Head::kExpr, {Cx::Int(line), std::move(x)}));
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
        f.defaults.push_back(eq < t ? CxText(Expr(eq + 1, t, false)) : "");
        uint32_t colon = FindTop(i, eq, ":");
        std::string ann;
        for (uint32_t j = colon + 1; j < eq && ann.size() < 80; ++j) ann += Text(j);
        f.annotations.push_back(colon < eq ? ann : "");
      }
    }
    out_.functions.push_back(std::move(f));
    fn_roots_.push_back(Cx::List(Head::kSeq));
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
    fr.path = frames_.back().path;
    fr.dropped = true;  // class-body statements are attributes, not code check runs
    frames_.push_back(fr);
  }

  // Opens a block whose statements go into the seq at `body_path` (relative to the frame's root).
  void Push(int indent, std::vector<uint32_t> body_path) {
    Frame parent = frames_.back();
    Frame fr;
    fr.indent = indent;
    fr.fn = parent.fn;
    fr.cls = parent.cls >= 0 ? parent.cls : -1;
    fr.depth = parent.depth + 1;
    fr.path = std::move(body_path);
    fr.dropped = parent.dropped || fr.depth > kMaxBlockDepth;
    if (parent.cls >= 0) fr.dropped = true;
    frames_.push_back(std::move(fr));
  }
  // A block whose statements are not kept (under a dropped frame).
  void PushDropped(int indent) {
    Frame fr = frames_.back();
    fr.indent = indent;
    fr.depth += 1;
    fr.dropped = true;
    frames_.push_back(std::move(fr));
  }

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
    Frame& cur = frames_.back();
    if (cur.dropped) {
      PushDropped(l.indent);
      Simples(colon + 1, e);
      return;
    }
    auto chain = chains_.find(l.indent);
    std::vector<uint32_t> body;
    if (w == "if" || w == "while") {
      Cx s = Cx::List(w == "if" ? Head::kIf : Head::kWhile,
                      {Cx::Int(line), Expr(k + 1, colon, false), Cx::List(Head::kSeq), Cx::List(Head::kSeq)});
      NoteImportCall(s.kids[1]);
      std::vector<uint32_t> p = Append(std::move(s));
      chains_[l.indent] = p;
      body = p;
      body.push_back(2);
    } else if (w == "elif" && chain != chains_.end() && At(cur, chain->second)->head == Head::kIf) {
      std::vector<uint32_t> tail = chain->second;
      Cx* t = At(cur, tail);
      t->kids[3].kids.push_back(Cx::List(Head::kIf, {Cx::Int(line), Expr(k + 1, colon, false), Cx::List(Head::kSeq), Cx::List(Head::kSeq)}));
      tail.push_back(3);
      tail.push_back((uint32_t)t->kids[3].kids.size() - 1);
      chains_[l.indent] = tail;
      body = tail;
      body.push_back(2);
    } else if (w == "else" && chain != chains_.end()) {
      Cx* t = At(cur, chain->second);
      body = chain->second;
      if (t->head == Head::kIf || t->head == Head::kWhile) body.push_back(3);
      else if (t->head == Head::kFor) body.push_back(4);
      else if (t->head == Head::kTry) body.push_back(3);
      else body.clear();
      if (t->head != Head::kTry) chains_.erase(l.indent);  // try: a finally may follow
      if (body.empty()) {
        PushDropped(l.indent);
        Simples(colon + 1, e);
        return;
      }
    } else if (w == "for") {
      uint32_t in = k + 1;
      for (; in < colon; ++in)
        if (Kw(in, "in") && FindTop(k + 1, in + 1, "in") == in) break;
      Cx s = Cx::List(Head::kFor, {Cx::Int(line), Expr(k + 1, in, true), Expr(in + 1, colon, true), Cx::List(Head::kSeq),
                                   Cx::List(Head::kSeq)});
      std::vector<uint32_t> p = Append(std::move(s));
      chains_[l.indent] = p;
      body = p;
      body.push_back(3);
    } else if (w == "try") {
      std::vector<uint32_t> p = Append(Cx::List(Head::kTry, {Cx::Int(line), Cx::List(Head::kSeq), Cx::List(Head::kSeq),
                                                            Cx::List(Head::kSeq), Cx::List(Head::kSeq)}));
      chains_[l.indent] = p;
      body = p;
      body.push_back(1);
    } else if ((w == "except" || w == "finally") && chain != chains_.end() && At(cur, chain->second)->head == Head::kTry) {
      Cx* t = At(cur, chain->second);
      body = chain->second;
      if (w == "finally") {
        body.push_back(4);
      } else {
        uint32_t tb = k + 1;
        if (Op(tb, "*")) ++tb;
        uint32_t as = colon;
        for (uint32_t i = tb; i < colon; ++i)
          if (Kw(i, "as")) as = i;
        Cx type = tb < as ? Expr(tb, as, true) : Cx::Const(AtomKind::kNoneConst);
        Cx name = as + 1 < colon ? Cx::Name(Text(as + 1)) : Cx::Const(AtomKind::kNoneConst);
        t->kids[2].kids.push_back(Cx::List(Head::kExcept, {Cx::Int(line), std::move(type), std::move(name), Cx::List(Head::kSeq)}));
        body.push_back(2);
        body.push_back((uint32_t)t->kids[2].kids.size() - 1);
        body.push_back(3);
      }
    } else if (w == "with") {
      Cx s = Cx::List(Head::kWith, {Cx::Int(line), Cx::List(Head::kSeq)});
      // `with f() as x`: the call runs; x is unknown.
      for (auto [ib, ie] : SplitTop(k + 1, colon, ",")) {
        uint32_t as = ie;
        for (uint32_t i = ib; i < ie; ++i)
          if (Kw(i, "as") && FindTop(ib, i + 1, "as") == i) as = i;
        Cx item = Expr(ib, as, false);
        if (HasCall(item)) s.kids[1].kids.push_back(Cx::List(Head::kExpr, {Cx::Int(line), std::move(item)}));
        if (as < ie)
          s.kids[1].kids.push_back(Cx::List(Head::kAssign, {Cx::Int(line), Expr(as + 1, ie, true), Cx::Opaque("with-target")}));
      }
      chains_.erase(l.indent);
      body = Append(std::move(s));
      body.push_back(1);
    } else if (w == "match" || w == "case") {
      // match/case: each case body may or may not run.
      if (w == "match") {
        Cx x = Expr(k + 1, colon, true);
        Cx s = Cx::List(Head::kBlock, {Cx::Int(line), Cx::List(Head::kSeq)});
        if (HasCall(x)) s.kids[1].kids.push_back(Cx::List(Head::kExpr, {Cx::Int(line), std::move(x)}));
        body = Append(std::move(s));
        body.push_back(1);
      } else {
        body = Append(Cx::List(Head::kBlock, {Cx::Int(line), Cx::List(Head::kSeq)}));
        body.push_back(1);
      }
      chains_.erase(l.indent);
    } else {
      // elif/except/finally without their head (malformed code): not modelled.
      PushDropped(l.indent);
      Simples(colon + 1, e);
      return;
    }
    Push(l.indent, std::move(body));
    if (frames_.back().dropped && frames_.size() >= 2 && !frames_[frames_.size() - 2].dropped) {
      // Too deep: the block's statements may or may not run, and are not kept.
      Frame fr = frames_.back();
      frames_.pop_back();
      Cx* seq = At(frames_.back(), fr.path);
      seq->kids.push_back(Cx::List(Head::kBlock, {Cx::Int(line), Cx::List(Head::kSeq), Cx::Opaque("too deep")}));
      frames_.push_back(fr);
    }
    Simples(colon + 1, e);
  }

  std::string_view text_;
  py::Tokens toks_;
  py::Parser parser_;
  FileProgram out_;
  Cx module_root_;
  std::vector<Cx> fn_roots_;
  std::vector<Frame> frames_;
  std::map<int, std::vector<uint32_t>> chains_;  // indent -> the open if/for/while/try statement's path
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
  auto body = ParseCx(p.module_body);
  if (!body.ok() || body->kids.empty() || body->kids[0].head != Head::kAssign || body->kids[0].kids.size() != 3)
    return Status::ParseError("not a Python expression: " + src);
  return body->kids[0].kids[2];
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
