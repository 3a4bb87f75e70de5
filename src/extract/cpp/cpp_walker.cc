// The walk of the C/C++ front end (see cpp_walker.h): one pass over the
// expanded tokens that keeps the context stack (cpp_context.cc) in step with
// braces, statements, #if/#else branches and if/else/while/for/switch/catch
// headers, records what locals hold (cpp_locals.cc), and hands each `throw` and
// each call of a sink to cpp_sites.cc; and the token helpers all of them use.
#include "extract/cpp/cpp_walker.h"

#include <string>

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

}  // namespace

Walker::Walker(std::string_view path, std::string_view text, const std::vector<Token>& toks, const cpp::Expander& exp,
               const ExtractLimits& limits)
    : path_(path), text_(text), t_(toks), exp_(exp), limits_(limits), in_tests_(InTestsPath(path)) {
  if (path.ends_with(".c")) language_ = "c";
  else if (path.ends_with(".cu") || path.ends_with(".cuh")) language_ = "cuda";
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

}  // namespace errdex::cpp
