// extract/rust/rust_messages.cc: the message text of Rust sites (see
// rust_walker.h): token trees, format!-like macros, literals and thiserror
// templates composed with a construction's arguments.
#ifdef ERRDEX_HAVE_TREE_SITTER

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "extract/rust/rust_walker.h"

namespace errdex::rust {

std::string DecodeRustLiteral(std::string_view raw) {
  size_t i = 0;
  while (i < raw.size() && (raw[i] == 'b' || raw[i] == 'c')) ++i;
  if (i < raw.size() && raw[i] == 'r') {
    ++i;
    size_t hashes = 0;
    while (i < raw.size() && raw[i] == '#') ++hashes, ++i;
    if (i >= raw.size() || raw[i] != '"') return std::string(raw);
    size_t start = i + 1;
    size_t end = raw.size() >= hashes + 1 ? raw.size() - hashes - 1 : start;
    if (end < start) return {};
    return std::string(raw.substr(start, end - start));
  }
  if (i >= raw.size() || raw[i] != '"') return std::string(raw);
  std::string_view body = raw.substr(i + 1);
  if (!body.empty() && body.back() == '"') body.remove_suffix(1);
  return DecodeEscapes(body, EscapeDialect::kRust);
}

std::string RustWalker::TokensText(const Tokens& toks) const {
  if (toks.empty()) return {};
  uint32_t a = ts_node_start_byte(toks.front()), b = ts_node_end_byte(toks.back());
  if (b < a || b > text_.size()) return {};
  return std::string(text_.substr(a, b - a));
}

std::string RustWalker::TokensText(const std::vector<Tokens>& args, size_t from) const {
  if (from >= args.size() || args[from].empty() || args.back().empty()) return {};
  uint32_t a = ts_node_start_byte(args[from].front()), b = ts_node_end_byte(args.back().back());
  if (b < a || b > text_.size()) return {};
  return std::string(text_.substr(a, b - a));
}

std::vector<Tokens> RustWalker::SplitTokenTree(TSNode tt) const {
  std::vector<Tokens> out;
  uint32_t n = ts_node_child_count(tt);
  if (n < 2) return out;
  Tokens cur;
  TSTreeCursor c = ts_tree_cursor_new(tt);
  if (ts_tree_cursor_goto_first_child(&c)) {
    uint32_t i = 0;
    do {
      TSNode ch = ts_tree_cursor_current_node(&c);
      bool delim = (i == 0 || i + 1 == n) && !ts_node_is_named(ch);
      ++i;
      if (delim) continue;
      if (!ts_node_is_named(ch) && Text(ch) == ",") {
        out.push_back(std::move(cur));
        cur.clear();
        continue;
      }
      if (Is(ch, "line_comment") || Is(ch, "block_comment")) continue;
      cur.push_back(ch);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

Segs RustWalker::EvalFormat(const std::vector<Tokens>& args, size_t first, int depth) {
  if (first >= args.size()) return {};
  Segs fmt = EvalTokens(args[first], depth + 1);
  // Only a literal format has placeholders (Rust 2021 requires one).
  bool literal = std::none_of(fmt.begin(), fmt.end(), [](const msg::Seg& s) { return s.hole; });
  if (!literal) return fmt;
  std::vector<Segs> positional;
  std::vector<msg::NamedArg> named;
  for (size_t i = first + 1; i < args.size(); ++i) {
    const Tokens& a = args[i];
    if (a.size() >= 3 && Is(a[0], "identifier") && !ts_node_is_named(a[1]) && Text(a[1]) == "=") {
      Tokens rest(a.begin() + 2, a.end());
      named.push_back({std::string(Text(a[0])), EvalTokens(rest, depth + 1)});
    } else {
      positional.push_back(EvalTokens(a, depth + 1));
    }
  }
  return msg::ApplyBraces(fmt, positional, msg::Braces::kRust, named);
}

// The macro name of `path ! (tt)` spelled as tokens ending at index `bang - 1`.
Segs RustWalker::EvalTokens(const Tokens& toks, int depth) {
  if (toks.empty()) return {};
  if (depth > kMaxEvalDepth) return {msg::Hole(TokensText(toks))};
  if (toks.size() == 1) {
    TSNode t = toks[0];
    if (IsStringLiteral(t)) return {msg::Lit(DecodeRustLiteral(Text(t)))};
    if (Is(t, "macro_invocation") || Is(t, "call_expression") || Is(t, "reference_expression"))
      return EvalExpr(t, depth + 1);
    return {msg::Hole(std::string(Text(t)))};
  }
  // &expr
  if (!ts_node_is_named(toks[0]) && Text(toks[0]) == "&") return EvalTokens(Tokens(toks.begin() + 1, toks.end()), depth + 1);
  size_t n = toks.size();
  // X.to_string() / .to_owned() / .into() / .as_str()
  if (n >= 4 && Is(toks[n - 1], "token_tree") && ts_node_child_count(toks[n - 1]) == 2 && Is(toks[n - 2], "identifier") &&
      !ts_node_is_named(toks[n - 3]) && Text(toks[n - 3]) == ".") {
    std::string_view m = Text(toks[n - 2]);
    if (m == "to_string" || m == "to_owned" || m == "into" || m == "as_str" || m == "as_ref")
      return EvalTokens(Tokens(toks.begin(), toks.end() - 3), depth + 1);
  }
  // name ! (tt)  /  a::b::name ! (tt)
  if (n >= 3 && Is(toks[n - 1], "token_tree") && !ts_node_is_named(toks[n - 2]) && Text(toks[n - 2]) == "!" &&
      Is(toks[n - 3], "identifier")) {
    std::string_view name = Text(toks[n - 3]);
    std::vector<Tokens> args = SplitTokenTree(toks[n - 1]);
    if (name == "format" || name == "format_args") return EvalFormat(args, 0, depth + 1);
    if (name == "concat") {
      Segs out;
      for (const Tokens& a : args) msg::AppendAll(out, EvalTokens(a, depth + 1));
      return out;
    }
  }
  // String::from(x)
  if (n == 4 && Is(toks[0], "identifier") && Text(toks[0]) == "String" && Text(toks[1]) == "::" &&
      Text(toks[2]) == "from" && Is(toks[3], "token_tree")) {
    std::vector<Tokens> args = SplitTokenTree(toks[3]);
    if (args.size() == 1) return EvalTokens(args[0], depth + 1);
  }
  return {msg::Hole(TokensText(toks))};
}

Segs RustWalker::EvalExpr(TSNode e, int depth) {
  if (ts_node_is_null(e)) return {};
  if (depth > kMaxEvalDepth) return {msg::Hole(std::string(Text(e)))};
  if (IsStringLiteral(e)) return {msg::Lit(DecodeRustLiteral(Text(e)))};
  if (Is(e, "reference_expression") || Is(e, "parenthesized_expression")) {
    TSNode inner = ts_node_named_child(e, ts_node_named_child_count(e) - 1);
    return EvalExpr(inner, depth + 1);
  }
  if (Is(e, "macro_invocation")) {
    TSNode mac = ts_node_child_by_field_name(e, "macro", 5);
    TSNode name = Is(mac, "scoped_identifier") ? ts_node_child_by_field_name(mac, "name", 4) : mac;
    std::string_view nm = Text(name);
    TSNode tt = ts_node_named_child(e, ts_node_named_child_count(e) - 1);
    if (Is(tt, "token_tree")) {
      std::vector<Tokens> args = SplitTokenTree(tt);
      if (nm == "format" || nm == "format_args") return EvalFormat(args, 0, depth + 1);
      if (nm == "concat") {
        Segs out;
        for (const Tokens& a : args) msg::AppendAll(out, EvalTokens(a, depth + 1));
        return out;
      }
    }
    return {msg::Hole(std::string(Text(e)))};
  }
  if (Is(e, "call_expression")) {
    TSNode fn = ts_node_child_by_field_name(e, "function", 8);
    TSNode args = ts_node_child_by_field_name(e, "arguments", 9);
    uint32_t argc = ts_node_named_child_count(args);
    if (Is(fn, "field_expression") && argc == 0) {
      std::string_view m = Text(ts_node_child_by_field_name(fn, "field", 5));
      if (m == "to_string" || m == "to_owned" || m == "into" || m == "as_str" || m == "as_ref")
        return EvalExpr(ts_node_child_by_field_name(fn, "value", 5), depth + 1);
    }
    if (Is(fn, "scoped_identifier") && argc == 1 && Text(fn) == "String::from")
      return EvalExpr(ts_node_named_child(args, 0), depth + 1);
  }
  return {msg::Hole(std::string(Text(e)))};
}

void RustWalker::SetMessage(Site& site, const Segs& segs, std::string expr) {
  if (!expr.empty()) site.message_expr = std::move(expr);
  if (segs.empty()) return;
  msg::RenderInto(site, msg::Alts{segs});
  if (site.error_message) site.message_resolution = "literal";
}

std::optional<Segs> RustWalker::Compose(std::string_view type, std::string_view variant, TSNode args_or_body,
                                        int depth) {
  const ErrorVariant* v = FindVariant(type, variant);
  if (!v || v->transparent) return std::nullopt;
  std::vector<Segs> positional;
  std::vector<msg::NamedArg> named;
  for (TSNode a : NamedChildren(args_or_body)) {
    if (Is(a, "field_initializer")) {
      named.push_back({std::string(Text(ts_node_child_by_field_name(a, "field", 5))),
                       EvalExpr(ts_node_child_by_field_name(a, "value", 5), depth + 1)});
    } else if (Is(a, "shorthand_field_initializer")) {
      named.push_back({std::string(Text(a)), {msg::Hole(std::string(Text(a)))}});
    } else if (Is(a, "line_comment") || Is(a, "block_comment") || Is(a, "base_field_initializer")) {
      continue;
    } else {
      positional.push_back(EvalExpr(a, depth + 1));
    }
  }
  // thiserror: {0} is field 0; extra format arguments follow as {} placeholders.
  std::vector<Segs> args = positional;
  if (!v->extra_args.empty() && args.empty())
    for (const std::string& e : v->extra_args) args.push_back({msg::Hole(e)});
  return msg::ApplyBraces({msg::Lit(v->template_text)}, args, msg::Braces::kRust, named);
}

}  // namespace errdex::rust

#endif  // ERRDEX_HAVE_TREE_SITTER
