// Local data flow of the C/C++ front end (see cpp_walker.h): the message a
// local holds when a sink or throw reads it later -- std::string msg = ...;
// msg += ...; `if (msg.empty()) msg = ...;`; std::ostringstream oss; oss << ...;
// oss.str(""); write_to_stream(oss, a, b). A local whose value cannot be
// followed is kept as unknown (a hole), not guessed.
#include "extract/cpp/cpp_walker.h"

#include <algorithm>
#include <optional>
#include <string>

namespace errdex::cpp {

namespace {

// A stream helper known to join its arguments with a separator:
// flashinfer's write_to_stream(oss, a, b, c) writes "a b c".
std::optional<std::string_view> StreamWriterSeparator(std::string_view name) {
  if (name == "write_to_stream") return std::string_view(" ");
  return std::nullopt;
}

}  // namespace

bool Walker::TryLocal(size_t i, size_t* next) {
  const size_t n = N();
  size_t k = i;
  while (k < n && T(k).type == TokType::kIdent &&
         (T(k).text == "const" || T(k).text == "static" || T(k).text == "constexpr" || T(k).text == "thread_local"))
    ++k;
  size_t type_b = k;
  if (IsW(k, "std") && k + 1 < n && T(k + 1).Is("::")) k += 2;
  if (k >= n || T(k).type != TokType::kIdent) return false;
  std::string_view type = T(k).text;
  bool is_stream = type == "ostringstream" || type == "stringstream";
  bool is_string = type == "string" || type == "auto" || type == "string_view";
  bool is_cstr = false;
  if (type == "char" || (type == "const" && IsW(k + 1, "char"))) {
    size_t q = type == "char" ? k + 1 : k + 2;
    if (IsW(q, "const")) ++q;
    if (q < n && T(q).IsPunct('*')) {
      is_cstr = true;
      k = q;
    }
  }
  if (is_stream || is_string || is_cstr) {
    size_t name = k + 1;
    if (name < n && (T(name).Is("&") || T(name).Is("&&"))) ++name;
    if (IsW(name, "const")) ++name;
    if (name >= n || T(name).type != TokType::kIdent || IsKeyword(T(name).text)) return false;
    (void)type_b;
    size_t after = name + 1;
    Local local;
    local.stream = is_stream;
    if (IsP(after, ';')) {
      // std::ostringstream oss; / std::string s; start empty; anything else is unknown.
      if (is_stream || type == "string") local.value = Alts{Segs{}};
    } else if (IsP(after, '=') ) {
      size_t end = ExprEnd(after + 1);
      if (end >= n || !IsP(end, ';')) return false;
      local.value = Eval(after + 1, end, 0);
      after = end;
    } else if (IsP(after, '(') || IsP(after, '{')) {
      size_t close = Close(after);
      if (close >= n || !IsP(close + 1, ';')) return false;
      if (type == "auto") return false;
      local.value = close == after + 1 ? Alts{Segs{}} : Eval(after + 1, close, 0);
      after = close + 1;
    } else {
      return false;
    }
    if (!is_stream && !IsP(after, ';')) return false;
    locals_[T(name).text] = std::move(local);
    *next = after;
    return true;
  }
  // name = expr;  name += expr;  name << a << b;  name.str("");  write_to_stream(name, ...);
  std::string_view name = T(i).text;
  if (auto sep = StreamWriterSeparator(name); sep && IsP(i + 1, '(')) {
    size_t close = Close(i + 1);
    if (close >= n) return false;
    auto args = SplitArgs(i + 1, close);
    if (args.empty()) return false;
    Local* l = FindLocal(Spell(args[0].first, args[0].second) == "" ? "" : T(args[0].first).text);
    if (!l || !l->stream || args[0].second != args[0].first + 1) return false;
    if (l->value) {
      Segs add;
      for (size_t a = 1; a < args.size(); ++a) {
        if (a > 1) msg::Append(add, msg::Lit(std::string(*sep)));
        msg::AppendAll(add, PartSegs(args[a].first, args[a].second, 0));
      }
      l->value = msg::Concat(*l->value, Alts{add});
    }
    *next = close + 1;
    return IsP(close + 1, ';');
  }
  Local* l = FindLocal(name);
  if (!l) return false;
  size_t op = i + 1;
  if (op >= n) return false;
  if (T(op).Is("<<") && l->stream) {
    size_t end = ExprEnd(op);
    if (end >= n || !IsP(end, ';')) return false;
    Alts add{Segs{}};
    size_t b = op + 1;
    int d = 0;
    for (size_t k2 = op + 1; k2 <= end; ++k2) {
      const Token& u = T(k2);
      if (u.type == TokType::kPunct && u.text.size() == 1 && (u.text[0] == '(' || u.text[0] == '[' || u.text[0] == '{')) ++d;
      else if (u.type == TokType::kPunct && u.text.size() == 1 && (u.text[0] == ')' || u.text[0] == ']' || u.text[0] == '}')) --d;
      if (k2 == end || (d == 0 && u.Is("<<"))) {
        add = msg::Concat(add, Part(b, k2, 0));
        b = k2 + 1;
      }
    }
    if (l->value) {
      l->value = msg::Concat(*l->value, add);
      if (msg::Bytes(*l->value) > msg::kMaxMessageBytes) l->value = std::nullopt;
    }
    *next = end;
    return true;
  }
  if (T(op).IsPunct('.') && IsW(op + 1, "str") && IsP(op + 2, '(') && l->stream) {
    size_t close = Close(op + 2);
    if (close < n && IsP(close + 1, ';')) {
      l->value = close == op + 3 ? l->value : Eval(op + 3, close, 0);  // oss.str("") resets
      *next = close + 1;
      return true;
    }
    return false;
  }
  if (T(op).IsPunct('=') || T(op).Is("+=")) {
    size_t end = ExprEnd(op + 1);
    if (end >= n || !IsP(end, ';')) return false;
    if (T(op).IsPunct('=')) {
      std::optional<Alts> v = Eval(op + 1, end, 0);
      // `if (msg.empty()) { msg = ...; }`: only when msg may be empty.
      const Ctx* g = nullptr;
      for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it) {
        if (it->kind == CtxKind::kGuard) {
          g = &*it;
          break;
        }
        if (it->kind != CtxKind::kBlock) break;
      }
      if (g && g->text == std::string(name) + ".empty()") {
        bool maybe_empty = !l->value || std::any_of(l->value->begin(), l->value->end(), [](const Segs& s) { return msg::IsEmpty(s); });
        if (!maybe_empty) {
          *next = end;
          return true;
        }
        if (l->value && v) {
          Alts merged;
          for (const Segs& s : *l->value)
            if (!msg::IsEmpty(s)) merged.push_back(s);
          for (const Segs& s : *v) merged.push_back(s);
          l->value = merged.empty() ? v : std::optional<Alts>(merged);
        } else {
          l->value = v;
        }
      } else {
        l->value = v;
      }
    } else if (l->value) {
      l->value = msg::Concat(*l->value, Part(op + 1, end, 0));
      if (msg::Bytes(*l->value) > msg::kMaxMessageBytes) l->value = std::nullopt;
    }
    *next = end;
    return true;
  }
  return false;
}

}  // namespace errdex::cpp
