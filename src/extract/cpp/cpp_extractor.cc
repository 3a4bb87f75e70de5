// The C/C++ front end's entry points (see cpp_extractor.h) and, until they move
// to the files cpp_walker.h names, the walker's definitions.
#include "extract/cpp/cpp_extractor.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "extract/common/message.h"
#include "extract/cpp/cpp_lexer.h"
#include "extract/cpp/cpp_sinks.h"
#include "extract/cpp/cpp_walker.h"
#include "model/utf8.h"

namespace errdex {

bool IsCppPath(std::string_view path) {
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return false;
  std::string_view ext = path.substr(dot);
  for (std::string_view e : {".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".cu", ".cuh",
                             ".inl", ".ipp", ".tcc"})
    if (ext == e) return true;
  return false;
}

std::shared_ptr<const cpp::MacroTable> BuildCppMacroTable(std::vector<std::pair<std::string, cpp::LexResult>> files) {
  auto table = std::make_shared<cpp::MacroTable>();
  for (auto& [path, scanned] : files) table->AddFile(std::move(path), std::move(scanned));
  table->Finish();
  return table;
}

}  // namespace errdex

namespace errdex::cpp {

bool IsKeyword(std::string_view s) {
  static constexpr std::string_view kWords[] = {
      "if", "else", "for", "while", "do", "switch", "case", "default", "return", "sizeof", "alignof", "decltype",
      "catch", "try", "throw", "new", "delete", "typeid", "static_cast", "dynamic_cast", "reinterpret_cast",
      "const_cast", "noexcept", "requires", "static_assert", "__attribute__", "__declspec", "alignas", "operator",
      "template", "typename", "using", "namespace", "goto", "co_return", "co_await", "co_yield", "__launch_bounds__"};
  for (std::string_view w : kWords)
    if (s == w) return true;
  return false;
}

namespace {

constexpr size_t kMaxGuards = 64;

bool InTestsPath(std::string_view path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string_view c = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (slash == std::string_view::npos) {
      return c.substr(0, 5) == "test_" || c.find("_test.") != std::string_view::npos ||
             c.find("_unittest.") != std::string_view::npos || c.find("_tests.") != std::string_view::npos;
    }
    if (c == "test" || c == "tests" || c == "testing" || c == "unittest" || c == "unittests") return true;
    start = slash + 1;
  }
  return false;
}

// A check macro's condition with its init-statement folded in: "auto ec = f(x); ec
// != ok" -> "f(x) != ok" (NCCLCHECK, CUDA_CHECK): what failed, in the call's words.
std::string FoldInitStatement(const std::string& cond) {
  int depth = 0;
  size_t semi = std::string::npos;
  for (size_t i = 0; i < cond.size() && semi == std::string::npos; ++i) {
    char c = cond[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ';' && depth == 0) semi = i;
  }
  if (semi == std::string::npos) return cond;
  std::string init = cond.substr(0, semi), test = cond.substr(semi + 1);
  size_t eq = init.find('=');
  auto trim = [](std::string x) {
    size_t b = x.find_first_not_of(" \t"), e = x.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : x.substr(b, e - b + 1);
  };
  test = trim(test);
  if (eq == std::string::npos || eq == 0 || init[eq + 1] == '=' || std::strchr("!<>", init[eq - 1])) return test;
  std::string lhs = trim(init.substr(0, eq)), expr = trim(init.substr(eq + 1));
  size_t name_at = lhs.find_last_of(" \t*&");
  std::string name = name_at == std::string::npos ? lhs : lhs.substr(name_at + 1);
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (name.empty() || expr.empty() || !std::all_of(name.begin(), name.end(), ident)) return test;
  std::string out;
  for (size_t i = 0; i < test.size();) {
    bool starts = test.compare(i, name.size(), name) == 0 && (i == 0 || !ident(test[i - 1])) &&
                  (i + name.size() == test.size() || !ident(test[i + name.size()]));
    if (starts) {
      out += expr;
      i += name.size();
    } else {
      out += test[i++];
    }
  }
  return out;
}

// A macro's guard that says nothing a reader can use: "!(false)", "true" (a check
// macro used as an unconditional failure, FLASHINFER_FUSED_CHECK(false) under
// `default:`), or one with template arguments (`is_valid_op<A, B>(op)`), whose
// commas no later stage can tell from a list.
bool UnusableMacroGuard(const std::string& cond) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 1; i < cond.size(); ++i) {
    if (cond[i] != '<' || !ident(cond[i - 1])) continue;
    size_t j = i + 1;
    bool comma = false;
    for (; j < cond.size() && cond[j] != '>' && !std::strchr(";()<", cond[j]); ++j)
      if (cond[j] == ',') comma = true;
    if (j >= cond.size() || cond[j] != '>') continue;
    size_t k = j + 1;
    while (k < cond.size() && cond[k] == ' ') ++k;
    // name<A, B> or name<T>(x) / name<T>::v: template arguments.
    if (comma || (k < cond.size() && (cond[k] == '(' || cond[k] == ':'))) return true;
  }
  std::string t;
  int depth = 0;
  for (char c : cond) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) return true;
    if (c != ' ' && c != '\t' && c != '(' && c != ')') t += c;
  }
  return t == "true" || t == "1" || t == "!false" || t == "!0" || t == "!nullptr" || t == "!NULL";
}

}  // namespace

Walker::Walker(std::string_view path, std::string_view text, const std::vector<Token>& toks, const cpp::Expander& exp,
               const ExtractLimits& limits)
    : path_(path), text_(text), t_(toks), exp_(exp), limits_(limits), in_tests_(InTestsPath(path)) {
  if (path.size() >= 2 && path.substr(path.size() - 2) == ".c") language_ = "c";
  else if (path.size() >= 3 && (path.substr(path.size() - 3) == ".cu" || path.substr(path.size() - 4) == ".cuh"))
    language_ = "cuda";
}

size_t Walker::Close(size_t i) const {
  char open = T(i).text[0];
  char close = open == '(' ? ')' : open == '[' ? ']' : '}';
  int d = 0;
  for (size_t k = i; k < N(); ++k) {
    const Token& t = T(k);
    if (t.type != TokType::kPunct || t.text.size() != 1) continue;
    if (t.text[0] == open) ++d;
    else if (t.text[0] == close && --d == 0) return k;
  }
  return N();
}

size_t Walker::OpenBack(size_t i) const {
  int d = 0;
  for (size_t k = i + 1; k-- > 0;) {
    if (T(k).IsPunct(')')) ++d;
    else if (T(k).IsPunct('(') && --d == 0) return k;
    if (i - k > 4096) break;
  }
  return std::string_view::npos;
}

size_t Walker::ExprEnd(size_t i) const {
  int d = 0;
  for (size_t k = i; k < N(); ++k) {
    const Token& t = T(k);
    if (t.type != TokType::kPunct || t.text.size() != 1) continue;
    char c = t.text[0];
    if (c == '(' || c == '[' || c == '{') ++d;
    else if (c == ')' || c == ']' || c == '}') {
      if (d == 0) return k;
      --d;
    } else if (c == ';' && d == 0) {
      return k;
    }
  }
  return N();
}

std::vector<std::pair<size_t, size_t>> Walker::SplitArgs(size_t open, size_t close) const {
  std::vector<std::pair<size_t, size_t>> args;
  if (close <= open + 1) return args;
  int d = 0;
  size_t start = open + 1;
  for (size_t k = open + 1; k < close; ++k) {
    const Token& t = T(k);
    if (t.type != TokType::kPunct || t.text.size() != 1) continue;
    char c = t.text[0];
    if (c == '(' || c == '[' || c == '{') ++d;
    else if (c == ')' || c == ']' || c == '}') --d;
    else if (c == ',' && d == 0) {
      args.emplace_back(start, k);
      start = k + 1;
    }
  }
  args.emplace_back(start, close);
  return args;
}

std::string Walker::Spell(size_t b, size_t e) const {
  if (b >= e) return {};
  // Tokens written in the file, in order: the source text, whitespace runs as one space.
  const Token& first = T(b);
  const Token& last = T(e - 1);
  const char* lo = text_.data();
  const char* hi = text_.data() + text_.size();
  bool in_file = !first.from_macro && !last.from_macro && first.text.data() >= lo && last.text.data() < hi &&
                 first.text.data() <= last.text.data();
  if (in_file) {
    for (size_t k = b; k < e && in_file; ++k)
      if (T(k).from_macro || T(k).text.data() < lo || T(k).text.data() >= hi) in_file = false;
  }
  if (!in_file) return cpp::SpellTokens(t_.data() + b, t_.data() + e);
  std::string_view raw(first.text.data(), static_cast<size_t>(last.text.data() + last.text.size() - first.text.data()));
  // Comments between the tokens are whitespace too: rebuild from tokens when any.
  if (raw.find("/*") != std::string_view::npos || raw.find("//") != std::string_view::npos)
    return cpp::SpellTokens(t_.data() + b, t_.data() + e);
  std::string out;
  out.reserve(raw.size());
  bool space = false;
  for (char c : raw) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Structure.

std::string Walker::FunctionNameAt(size_t brace) const {
  size_t k = brace;
  for (int guard = 0; guard < 64 && k > 0; ++guard) {
    size_t j = k - 1;
    const Token& t = T(j);
    if (t.type == TokType::kIdent &&
        (t.text == "const" || t.text == "override" || t.text == "final" || t.text == "mutable" ||
         t.text == "volatile" || t.text == "try" || t.text == "noexcept")) {
      k = j;
      continue;
    }
    if (t.Is("&") || t.Is("&&")) {
      k = j;
      continue;
    }
    if (t.IsPunct(']')) return "";  // a lambda
    if (t.IsPunct(')')) {
      size_t open = OpenBack(j);
      if (open == std::string_view::npos || open == 0) return "";
      const Token& name = T(open - 1);
      if (name.IsPunct(']')) return "";  // [captures](params) { : a lambda
      if (name.type == TokType::kIdent &&
          (name.text == "noexcept" || name.text == "throw" || name.text == "__attribute__" ||
           name.text == "__launch_bounds__" || name.text == "requires")) {
        k = open - 1;
        continue;
      }
      if (name.type != TokType::kIdent && !name.IsPunct('>')) {
        // operator() / operator== ...: the token before '(' is an operator
        size_t p = open - 1;
        while (p > 0 && T(p).type == TokType::kPunct && open - p < 4) --p;
        if (T(p).Is("operator")) return "operator" + Spell(p + 1, open);
        return "";
      }
      if (name.type == TokType::kIdent && IsKeyword(name.text)) return "";
      if (name.IsPunct('>')) return "";
      // A member initializer `: x_(a), y_(b) {`: keep walking back.
      if (open >= 2 && (T(open - 2).IsPunct(':') || T(open - 2).IsPunct(','))) {
        size_t p = open - 2;
        if (T(p).IsPunct(',') || (p > 0 && (T(p - 1).IsPunct(')') || T(p - 1).Is("noexcept") || T(p - 1).Is("const")))) {
          k = p;
          if (T(p).IsPunct(':')) continue;
          // ',': the previous initializer ends right before it
          continue;
        }
      }
      // The qualified name: A::B::name, A::~A.
      size_t s = open - 1;
      while (s >= 2 && T(s - 1).Is("::") && T(s - 2).type == TokType::kIdent) s -= 2;
      if (s >= 1 && T(s - 1).IsPunct('~')) {
        // Foo::~Foo
        size_t q = s - 1;
        while (q >= 2 && T(q - 1).Is("::") && T(q - 2).type == TokType::kIdent) q -= 2;
        s = q;
      }
      std::string out;
      for (size_t p = s; p < open; ++p) out += T(p).text;
      return out;
    }
    if (t.IsPunct('}')) {
      // y_{b} in an initializer list
      int d = 0;
      size_t p = j + 1;
      while (p-- > 0) {
        if (T(p).IsPunct('}')) ++d;
        else if (T(p).IsPunct('{') && --d == 0) break;
        if (j - p > 4096) return "";
      }
      if (p == 0 || p > j) return "";
      if (p >= 2 && T(p - 1).type == TokType::kIdent && (T(p - 2).IsPunct(',') || T(p - 2).IsPunct(':'))) {
        k = p - 2;
        continue;
      }
      return "";
    }
    if (t.IsPunct(',') || t.IsPunct(':')) {  // between initializers
      k = j;
      continue;
    }
    if (t.type == TokType::kIdent || t.Is("::") || t.IsPunct('>') || t.IsPunct('<') || t.IsPunct('*')) {
      // A trailing return type: `-> T {`
      size_t p = j;
      for (int g = 0; g < 32 && p > 0; ++g, --p) {
        if (T(p).Is("->")) {
          k = p;
          break;
        }
        if (!(T(p).type == TokType::kIdent || T(p).Is("::") || T(p).IsPunct('>') || T(p).IsPunct('<') ||
              T(p).IsPunct('*') || T(p).IsPunct('&') || T(p).IsPunct(','))) {
          p = 0;
          break;
        }
      }
      if (k == p && p > 0) continue;
      return "";
    }
    return "";
  }
  return "";
}

bool Walker::ClassNameAt(size_t brace, CtxKind* kind, std::string* name) const {
  // Walk back to the start of the declaration.
  size_t p = brace;
  int angle = 0;
  for (int g = 0; g < 96 && p > 0; ++g) {
    const Token& t = T(p - 1);
    if (t.IsPunct(';') || t.IsPunct('{') || t.IsPunct('}') || t.type >= TokType::kIf) break;
    if (t.IsPunct(')') && angle == 0) {
      // struct __align__(16) Foo { / class alignas(8) X {: allowed; anything else is not a class head
      size_t open = OpenBack(p - 1);
      if (open == std::string_view::npos || open == 0) return false;
      const Token& before = T(open - 1);
      if (!(before.type == TokType::kIdent && (before.text == "__align__" || before.text == "alignas" ||
                                                before.text == "__attribute__" || before.text == "__declspec" ||
                                                (before.text.size() > 1 && std::all_of(before.text.begin(), before.text.end(), [](char c) {
                                                   return (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
                                                })))))
        return false;
      p = open;
      continue;
    }
    if (t.IsPunct('>')) ++angle;
    if (t.IsPunct('<')) --angle;
    --p;
  }
  for (size_t k = p; k < brace; ++k) {
    const Token& t = T(k);
    if (t.type != TokType::kIdent) continue;
    if (t.text == "namespace") {
      *kind = CtxKind::kNamespace;
      name->clear();
      for (size_t q = k + 1; q < brace; ++q) *name += T(q).text;
      return true;
    }
    if (t.text == "class" || t.text == "struct" || t.text == "union") {
      if (k > p && T(k - 1).Is("enum")) return false;
      // The name: the last identifier before ':' / '{' (skipping final and attributes).
      std::string last;
      for (size_t q = k + 1; q < brace; ++q) {
        const Token& u = T(q);
        if (u.IsPunct(':')) break;
        if (u.IsPunct('(')) {
          q = Close(q);
          continue;
        }
        if (u.IsPunct('<')) {  // template specialization args
          int d = 0;
          for (; q < brace; ++q) {
            if (T(q).IsPunct('<')) ++d;
            else if (T(q).IsPunct('>') && --d == 0) break;
          }
          continue;
        }
        if (u.type == TokType::kIdent && u.text != "final" && u.text != "alignas") last = std::string(u.text);
      }
      *kind = CtxKind::kClass;
      *name = last;
      return true;
    }
    if (t.text == "enum") return false;
  }
  return false;
}

void Walker::OpenBrace(size_t i) {
  Ctx c;
  c.brace = true;
  c.depth = depth_;
  if (pending_ == Pending::kGuard) {
    for (std::string& extra : pending_extra_) {
      Ctx g;
      g.kind = CtxKind::kGuard;
      g.brace = true;
      g.depth = depth_;
      g.from_macro = pending_from_macro_;
      g.chain = pending_chain_;
      g.text = std::move(extra);
      g.is_if = false;
      ctx_.push_back(std::move(g));
      // Extra guards close with the same brace: mark them as part of it.
      ctx_.back().catch_param = "\x01";
    }
    c.kind = CtxKind::kGuard;
    c.text = pending_text_;
    c.from_macro = pending_from_macro_;
    c.chain = pending_chain_;
    c.is_if = pending_is_if_;
  } else if (pending_ == Pending::kCatch) {
    c.kind = CtxKind::kCatch;
    c.text = pending_text_;
    c.catch_param = catch_param_;
  } else if (pending_ == Pending::kPlain) {
    c.kind = CtxKind::kBlock;
  } else {
    CtxKind kind;
    std::string name;
    std::string fn = FunctionNameAt(i);
    if (!fn.empty()) {
      c.kind = CtxKind::kFunction;
      c.text = std::move(fn);
      bool nested = std::any_of(ctx_.begin(), ctx_.end(), [](const Ctx& x) { return x.kind == CtxKind::kFunction; });
      if (!nested) locals_.clear();
    } else if (ClassNameAt(i, &kind, &name)) {
      c.kind = kind;
      c.text = std::move(name);
    } else {
      c.kind = CtxKind::kBlock;
    }
  }
  pending_ = Pending::kNone;
  pending_extra_.clear();
  ctx_.push_back(std::move(c));
  ++depth_;
  stmt_start_ = true;
}

void Walker::CloseBrace() {
  if (depth_ == 0) return;
  --depth_;
  // Statement guards opened inside the closing block end with it.
  while (!ctx_.empty() && !ctx_.back().brace) ctx_.pop_back();
  if (!ctx_.empty()) {
    Ctx closed = std::move(ctx_.back());
    ctx_.pop_back();
    while (!ctx_.empty() && ctx_.back().brace && ctx_.back().catch_param == "\x01" && ctx_.back().depth == depth_)
      ctx_.pop_back();
    if (closed.kind == CtxKind::kGuard && closed.is_if) {
      last_if_ = closed.text;
      last_if_depth_ = depth_;
    } else {
      last_if_depth_ = UINT32_MAX;
    }
  }
  // A statement guard whose statement was this block (`if (c) for (...) { }`).
  while (!ctx_.empty() && !ctx_.back().brace && ctx_.back().depth == depth_) ctx_.pop_back();
  stmt_start_ = true;
}

void Walker::EndStatement() {
  bool was_if = false;
  std::string cond;
  while (!ctx_.empty() && !ctx_.back().brace && ctx_.back().depth == depth_) {
    if (ctx_.back().is_if && !was_if) {
      was_if = true;
      cond = ctx_.back().text;
    }
    ctx_.pop_back();
  }
  if (was_if) {
    last_if_ = cond;
    last_if_depth_ = depth_;
  } else {
    last_if_depth_ = UINT32_MAX;
  }
  pending_ = Pending::kNone;
  pending_extra_.clear();
  stmt_start_ = true;
}

void Walker::Run() {
  const size_t n = N();
  for (size_t i = 0; i < n; ++i) {
    const Token& t = T(i);
    switch (t.type) {
      case TokType::kIf: {
        Snapshot s;
        s.at_if = ctx_;
        s.depth_at_if = depth_;
        pp_.push_back(std::move(s));
        continue;
      }
      case TokType::kElse: {
        if (pp_.empty()) continue;
        Snapshot& s = pp_.back();
        if (!s.has_else) {
          s.has_else = true;
          s.after_first = ctx_;
          s.depth_after_first = depth_;
        }
        ctx_ = s.at_if;
        depth_ = s.depth_at_if;
        continue;
      }
      case TokType::kEndif: {
        if (pp_.empty()) continue;
        Snapshot& s = pp_.back();
        if (s.has_else) {
          ctx_ = std::move(s.after_first);
          depth_ = s.depth_after_first;
        }
        pp_.pop_back();
        continue;
      }
      case TokType::kPunct: {
        if (t.IsPunct('{')) {
          OpenBrace(i);
        } else if (t.IsPunct('}')) {
          CloseBrace();
        } else if (t.IsPunct(';')) {
          EndStatement();
        } else if (t.IsPunct(':') && (case_label_ || (i > 0 && T(i - 1).type == TokType::kIdent &&
                                                      T(i - 1).text == "default"))) {
          case_label_ = false;  // `case X:` / `default:` -- a statement starts after it
          stmt_start_ = true;
        } else {
          stmt_start_ = false;
        }
        continue;
      }
      case TokType::kIdent:
        break;
      default:
        stmt_start_ = false;
        continue;
    }
    // Identifiers.
    std::string_view w = t.text;
    bool member = i > 0 && (T(i - 1).IsPunct('.') || T(i - 1).Is("->"));
    if (!member && w == "case") {
      case_label_ = true;
      stmt_start_ = false;
      continue;
    }
    if (!member && (w == "if" || w == "while")) {
      size_t j = i + 1;
      if (w == "if" && (IsW(j, "constexpr") || IsW(j, "consteval"))) ++j;
      if (!IsP(j, '(')) continue;
      size_t close = Close(j);
      if (close >= n) continue;
      if (w == "while" && IsP(close + 1, ';')) {  // do { } while (c);
        i = close;
        continue;
      }
      std::string cond = Spell(j + 1, close);
      bool from_macro = t.from_macro;
      std::vector<std::string> extra;
      if (w == "if" && pending_ == Pending::kGuard && !pending_is_if_ && !pending_text_.empty() && i > 0 &&
          IsW(i - 1, "else")) {
        extra.push_back(pending_text_);  // else if: "not (c1)" then c2
      }
      if (IsP(close + 1, '{')) {
        pending_ = Pending::kGuard;
        pending_text_ = cond;
        pending_extra_ = std::move(extra);
        pending_from_macro_ = from_macro;
        pending_chain_ = t.chain;
        pending_is_if_ = w == "if";
      } else {
        for (std::string& x : extra) {
          Ctx g{CtxKind::kGuard, false, depth_, from_macro, false, std::move(x), "", t.chain};
          ctx_.push_back(std::move(g));
        }
        Ctx g{CtxKind::kGuard, false, depth_, from_macro, w == "if", cond, "", t.chain};
        ctx_.push_back(std::move(g));
        pending_ = Pending::kNone;
      }
      i = close;
      stmt_start_ = true;
      continue;
    }
    if (!member && w == "else") {
      std::string neg = last_if_depth_ == depth_ && !last_if_.empty() ? "not (" + last_if_ + ")" : "";
      last_if_depth_ = UINT32_MAX;
      if (IsP(i + 1, '{') || IsW(i + 1, "if")) {
        pending_ = Pending::kGuard;
        pending_text_ = neg;
        pending_is_if_ = false;
        pending_from_macro_ = t.from_macro;
        pending_chain_ = t.chain;
        pending_extra_.clear();
        if (neg.empty()) pending_ = IsP(i + 1, '{') ? Pending::kPlain : Pending::kNone;
      } else if (!neg.empty()) {
        Ctx g{CtxKind::kGuard, false, depth_, t.from_macro, false, neg, "", t.chain};
        ctx_.push_back(std::move(g));
      }
      stmt_start_ = true;
      continue;
    }
    if (!member && (w == "for" || w == "switch")) {
      if (IsP(i + 1, '(')) {
        size_t close = Close(i + 1);
        if (close < n) {
          i = close;
          if (IsP(close + 1, '{')) pending_ = Pending::kPlain;
        }
      }
      stmt_start_ = true;
      continue;
    }
    if (!member && w == "do") {
      if (IsP(i + 1, '{')) pending_ = Pending::kPlain;
      stmt_start_ = true;
      continue;
    }
    if (!member && w == "catch" && IsP(i + 1, '(')) {
      size_t close = Close(i + 1);
      if (close < n) {
        pending_ = Pending::kCatch;
        pending_text_ = "catch (" + Spell(i + 2, close) + ")";
        catch_param_.clear();
        if (close > i + 2 && T(close - 1).type == TokType::kIdent) catch_param_ = std::string(T(close - 1).text);
        i = close;
      }
      continue;
    }
    if (!member && w == "throw") {
      HandleThrow(i);
      stmt_start_ = false;
      continue;
    }
    if (stmt_start_ && !member) {
      // Records what a local holds; the statement's tokens are still walked
      // (a lambda initializer holds sites of its own).
      size_t next = i;
      stmt_start_ = false;
      TryLocal(i, &next);
    }
    stmt_start_ = false;
    if (member) continue;
    // A call: NAME ( or a::b::NAME (
    if (!IsP(i + 1, '(')) continue;
    size_t name_begin = i;
    while (name_begin >= 2 && T(name_begin - 1).Is("::") && T(name_begin - 2).type == TokType::kIdent) name_begin -= 2;
    if (name_begin >= 1 && T(name_begin - 1).Is("::")) --name_begin;  // ::c10::...
    std::string qualifier;
    for (size_t k = name_begin; k + 1 < i; ++k) qualifier += T(k).text;
    if (qualifier.size() >= 2 && qualifier.compare(qualifier.size() - 2, 2, "::") == 0) qualifier.resize(qualifier.size() - 2);
    if (!cpp::IsSinkName(w)) continue;
    const cpp::Sink* sink = cpp::FindSink(w, qualifier);
    if (!sink) continue;
    if (name_begin > 0 && (T(name_begin - 1).IsPunct('.') || T(name_begin - 1).Is("->"))) continue;
    if (name_begin > 0 && T(name_begin - 1).type == TokType::kIdent && !IsKeyword(T(name_begin - 1).text))
      continue;  // `void assert(...)`, `int printf(...)`: a declaration, not a call
    HandleSink(i, name_begin, *sink);
  }
}

Site Walker::NewSite(SiteKind kind, size_t at) const {
  Site s;
  s.kind = kind;
  s.language = language_;
  s.file_path = std::string(path_);
  s.line = static_cast<int>(T(at).line);
  s.column = static_cast<int>(T(at).column);
  s.end_line = s.line;
  s.in_tests = in_tests_;
  std::string fn;
  for (const Ctx& c : ctx_) {
    if ((c.kind == CtxKind::kClass || c.kind == CtxKind::kFunction) && !c.text.empty()) {
      if (!fn.empty()) fn += "::";
      fn += c.text;
    }
  }
  if (!fn.empty()) s.function = fn;
  for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it) {
    if (it->kind == CtxKind::kFunction || it->kind == CtxKind::kClass) break;
    // A guard the sink's own macro writes is the check itself (NCCLCHECK's
    // `if (auto ec = e; ec != ncclSuccess) throw ...`): without it the guards around
    // the macro's use read as the cause ("rank == 0" for a failed NCCL call). Another
    // macro's guards around code passed to it are one expansion's dispatch
    // (`if (group_size == 1) { body }` of DISPATCH_GQA_GROUP_SIZE): left out.
    if (it->kind == CtxKind::kGuard && !it->text.empty() && s.guards.size() < kMaxGuards) {
      if (!it->from_macro) s.guards.push_back(it->text);
      else if (T(at).from_macro && it->chain == T(at).chain && !UnusableMacroGuard(it->text))
        s.guards.push_back(FoldInitStatement(it->text));
    }
    if (it->kind == CtxKind::kCatch && !s.except_context) s.except_context = it->text;
  }
  std::reverse(s.guards.begin(), s.guards.end());
  const std::string& chain = exp_.ChainOf(T(at));
  if (!chain.empty()) s.message_resolution = "macro:" + chain;
  return s;
}

}  // namespace errdex::cpp

namespace errdex {

using cpp::Token;
using cpp::Walker;

CppExtractResult ExtractCpp(std::string_view path, std::string_view text, const cpp::MacroTable* repo,
                            const ExtractLimits& limits) {
  CppExtractResult result;
  if (text.size() > kCppMaxFileBytes) {
    result.failed = true;
    result.diagnostics.push_back({std::string(path), 0, 0,
                                  "file too large for the C/C++ front end (" + std::to_string(text.size()) +
                                      " bytes > " + std::to_string(kCppMaxFileBytes) + ")"});
    return result;
  }
  if (text.find('\0') != std::string_view::npos && text.find('\0') < 8192) {
    return result;  // binary
  }
  cpp::LexResult lexed = cpp::Lex(path, text);
  cpp::MacroTable local;
  local.Add(std::move(lexed.macros));
  local.Finish(repo);
  cpp::Expander expander(path, &local, repo, lexed.includes);
  std::vector<Token> tokens = expander.Expand(lexed.tokens);
  Walker walker(path, text, tokens, expander, limits);
  walker.Run();
  std::stable_sort(walker.sites.begin(), walker.sites.end(), [](const Site& a, const Site& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  // A block argument a dispatch macro pastes into each of its cases, or a
  // wrapper expanded inside another's copies, is one site written once: the
  // walker kept the first of identical sites at one place (Walker::Add).
  result.sites = std::move(walker.sites);
  result.sites_left_out = walker.sites_left_out;
  if (result.sites.size() > limits.max_sites) {  // the first ones in the file are kept
    result.sites_left_out += result.sites.size() - limits.max_sites;
    result.sites.resize(limits.max_sites);
  }
  return result;
}

}  // namespace errdex
