// The context stack of the C/C++ front end (see cpp_walker.h): what a '{'
// opens (a function, class, namespace, guarded block, catch clause or plain
// block: read back from the tokens before it), what a '}' or ';' closes (the
// statement guards of `if (c) stmt;` and the `else` that negates them), and
// the context a new Site takes from it: Site.function, guards (a macro body's
// own guard folded to the call's words, useless ones left out) and the
// enclosing catch clause.
#include "extract/cpp/cpp_walker.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

namespace errdex::cpp {

namespace {

constexpr size_t kMaxGuards = 64;

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
