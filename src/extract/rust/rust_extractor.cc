// The Rust front end (see rust_extractor.h). Macro arguments are token trees in
// tree-sitter-rust (as in rustc before expansion), so format strings and their
// arguments are read from tokens: a token tree's children are leaf tokens and
// nested token trees, split into arguments at its top-level commas.
#include "extract/rust/rust_extractor.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "extract/common/message.h"
#include "extract/rust/rust_status_codes.h"

#ifdef ERRDEX_HAVE_TREE_SITTER
extern "C" const TSLanguage* tree_sitter_rust(void);
#endif

namespace errdex {

#ifndef ERRDEX_HAVE_TREE_SITTER

std::vector<rust::ErrorType> CollectRustErrorTypes(std::string_view, std::string_view, const TsExtractOptions&) {
  return {};
}

TsExtractResult ExtractRust(std::string_view path, std::string_view, const TsExtractOptions&,
                            const rust::ErrorTypeTable*) {
  TsExtractResult r;
  r.failed = true;
  r.diagnostics.push_back({std::string(path), 0, 0, "the Rust grammar was not built (scripts/fetch-third-party.sh)"});
  return r;
}

#else

namespace {

using msg::Segs;
using Tokens = std::vector<TSNode>;

bool Is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }

// The value of a Rust string literal as written: "…", r#"…"#, b"…", c"…".
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

bool IsStringLiteral(TSNode n) { return Is(n, "string_literal") || Is(n, "raw_string_literal"); }

using rust::ErrorVariant;

class RustWalker : public TsWalker {
 public:
  RustWalker(std::string_view path, std::string_view text, const TsExtractOptions& options,
             const rust::ErrorTypeTable* workspace = nullptr)
      : TsWalker(path, text, "rust", options), workspace_(workspace) {}

  // This file's thiserror types and `use` declarations.
  void CollectErrorTypes(TSNode root);
  std::vector<rust::ErrorType> TakeErrorTypes() { return std::move(types_); }

 protected:
  bool Enter(TSNode node, std::string_view field) override;

 private:
  // Evaluation.
  Segs EvalTokens(const Tokens& toks, int depth);
  Segs EvalExpr(TSNode e, int depth);
  // format!-like: the format is args[first], the rest its arguments.
  Segs EvalFormat(const std::vector<Tokens>& args, size_t first, int depth);
  std::vector<Tokens> SplitTokenTree(TSNode tt) const;
  std::string TokensText(const Tokens& toks) const;
  std::string TokensText(const std::vector<Tokens>& args, size_t from) const;

  // Sites.
  void HandleMacro(std::string_view name, TSNode tt, TSNode at, TSNode end);
  void HandleCall(TSNode call);
  void HandleErrArg(TSNode err_call, TSNode arg);
  void HandleConstruction(TSNode node, TSNode path, TSNode at);
  void HandleTuple(TSNode tuple);
  // A #[error("...")] attribute of `item` (an enum variant or a struct).
  void HandleErrorAttribute(TSNode attr_item, TSNode item);
  void SetMessage(Site& site, const Segs& segs, std::string expr);
  // The composed message of a construction E::V(args) / E::V{fields} (`type`: E's
  // path as written); nullopt when V is not a variant with a template in this file
  // or, with a workspace table, in the type the path resolves to.
  std::optional<Segs> Compose(std::string_view type, std::string_view variant, TSNode args_or_body, int depth);
  // The variant, transparent ones included (they are constructions too, without a message).
  const ErrorVariant* FindVariant(std::string_view type, std::string_view variant) const;
  bool HasAttribute(const std::vector<TSNode>& attrs, std::string_view needle) const;

  // The attribute items seen, per depth, since the last item at that depth: the
  // attributes of the next item (siblings: no O(n) prev_sibling walks).
  std::vector<std::vector<TSNode>> attrs_at_depth_;

  std::vector<rust::ErrorType> types_;                   // this file's, in order
  std::unordered_map<std::string, size_t> local_types_;  // name -> index in types_
  rust::UseMap uses_;
  std::unordered_set<std::string> declared_;             // every enum, struct and type alias of this file
  const rust::ErrorTypeTable* workspace_;
  // The type of the innermost enclosing impl (what Self names), or "".
  std::string_view SelfType() const;

  std::unordered_set<uintptr_t> consumed_;  // construction nodes already made a site by Err(...)
};

std::string_view RustWalker::SelfType() const {
  const std::vector<TSNode>& up = ancestors();
  for (auto it = up.rbegin(); it != up.rend(); ++it) {
    if (!Is(*it, "impl_item")) continue;
    TSNode t = ts_node_child_by_field_name(*it, "type", 4);
    if (Is(t, "generic_type")) t = ts_node_child_by_field_name(t, "type", 4);
    std::string_view name = Text(t);
    size_t colons = name.rfind("::");
    return colons == std::string_view::npos ? name : name.substr(colons + 2);
  }
  return {};
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

bool RustWalker::HasAttribute(const std::vector<TSNode>& attrs, std::string_view needle) const {
  for (TSNode a : attrs)
    if (Text(a).find(needle) != std::string_view::npos) return true;
  return false;
}

// ---------------------------------------------------------------------------
// thiserror types of this file.

void RustWalker::CollectErrorTypes(TSNode root) {
  // Items at the top level and in inline modules (nested to any depth, iteratively),
  // each list with the inline module path it is in.
  std::vector<std::pair<TSNode, std::string>> lists{{root, std::string()}};
  while (!lists.empty()) {
    auto [list, module] = lists.back();
    lists.pop_back();
    std::vector<TSNode> attrs;  // the attribute items before the next item
    for (TSNode item : NamedChildren(list)) {
      if (Is(item, "mod_item")) {
        TSNode body = ts_node_child_by_field_name(item, "body", 4);
        std::string name(Text(ts_node_child_by_field_name(item, "name", 4)));
        if (!ts_node_is_null(body)) lists.push_back({body, module.empty() ? name : module + "::" + name});
      }
      if (Is(item, "attribute_item")) {
        attrs.push_back(item);
        continue;
      }
      if (Is(item, "line_comment") || Is(item, "block_comment")) continue;
      // Uses of inline modules count as the file's: a name they bring in is
      // rarely another type of the same name in the same file.
      if (Is(item, "use_declaration")) rust::AddUseTree(Text(ts_node_child_by_field_name(item, "argument", 8)), &uses_);
      std::vector<TSNode> item_attrs = std::move(attrs);
      attrs.clear();
      bool is_enum = Is(item, "enum_item");
      bool is_struct = Is(item, "struct_item");
      if (is_enum || is_struct || Is(item, "type_item"))
        declared_.insert(std::string(Text(ts_node_child_by_field_name(item, "name", 4))));
      if (!is_enum && !is_struct) continue;
      rust::ErrorType type;
      type.file = std::string(path_);
      type.module = module;
      type.name = std::string(Text(ts_node_child_by_field_name(item, "name", 4)));
      auto read_attr = [&](TSNode attr_item, ErrorVariant& v) -> bool {
        TSNode attr = ts_node_named_child(attr_item, 0);
        if (!Is(attr, "attribute")) return false;
        TSNode id = ts_node_named_child(attr, 0);
        if (Text(id) != "error") return false;
        TSNode tt = ts_node_child_by_field_name(attr, "arguments", 9);
        if (!Is(tt, "token_tree")) return false;
        std::vector<Tokens> args = SplitTokenTree(tt);
        if (args.empty()) return false;
        if (args[0].size() == 1 && Text(args[0][0]) == "transparent") {
          v.transparent = true;
          return true;
        }
        if (args[0].size() != 1 || !IsStringLiteral(args[0][0])) return false;
        v.template_text = DecodeRustLiteral(Text(args[0][0]));
        for (size_t k = 1; k < args.size(); ++k) v.extra_args.push_back(TokensText(args[k]));
        return true;
      };
      if (is_struct) {
        for (TSNode p : item_attrs) {
          ErrorVariant v;
          if (read_attr(p, v)) type.variants[type.name] = std::move(v);
        }
      } else {
        TSNode body = ts_node_child_by_field_name(item, "body", 4);
        std::optional<ErrorVariant> attr;
        for (TSNode ch : NamedChildren(body)) {
          if (Is(ch, "attribute_item")) {
            ErrorVariant v;
            if (read_attr(ch, v)) attr = std::move(v);
          } else if (Is(ch, "enum_variant")) {
            if (attr) type.variants[std::string(Text(ts_node_child_by_field_name(ch, "name", 4)))] = std::move(*attr);
            attr.reset();
          }
        }
      }
      if (type.variants.empty()) continue;
      local_types_.emplace(type.name, types_.size());
      types_.push_back(std::move(type));
    }
  }
}

const ErrorVariant* RustWalker::FindVariant(std::string_view type, std::string_view variant) const {
  std::string path(type);
  if (type == "Self") path = std::string(SelfType());
  const bool qualified = path.find("::") != std::string::npos;
  size_t colons = path.rfind("::");
  std::string last = colons == std::string::npos ? path : path.substr(colons + 2);
  auto in = [&](const rust::ErrorType* t) -> const ErrorVariant* {
    if (!t) return nullptr;
    auto v = t->variants.find(std::string(variant));
    return v == t->variants.end() ? nullptr : &v->second;
  };
  auto local = [&]() -> const rust::ErrorType* {
    auto it = local_types_.find(last);
    return it == local_types_.end() ? nullptr : &types_[it->second];
  };
  // A bare name is this file's type when the file has one (it shadows any
  // import); a path is resolved first, then taken as this file's.
  if (!qualified) {
    if (const ErrorVariant* v = in(local())) return v;
    if (declared_.count(last)) return nullptr;  // a type of this file without templates
  }
  if (workspace_)
    if (const ErrorVariant* v = in(workspace_->Resolve(path_, path, uses_))) return v;
  return qualified ? in(local()) : nullptr;
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

// ---------------------------------------------------------------------------
// Sites.

void RustWalker::HandleMacro(std::string_view name, TSNode tt, TSNode at, TSNode end) {
  enum class Kind { kNone, kPanic, kAssert, kAssertCmp, kAnyhow, kEnsure, kLog };
  Kind kind = Kind::kNone;
  if (name == "panic" || name == "unreachable" || name == "todo" || name == "unimplemented") kind = Kind::kPanic;
  else if (name == "assert" || name == "debug_assert") kind = Kind::kAssert;
  else if (name == "assert_eq" || name == "assert_ne" || name == "debug_assert_eq" || name == "debug_assert_ne")
    kind = Kind::kAssertCmp;
  else if (name == "anyhow" || name == "bail" || name == "eyre" || name == "format_err") kind = Kind::kAnyhow;
  else if (name == "ensure") kind = Kind::kEnsure;
  else if (name == "error" || name == "warn") kind = Kind::kLog;
  if (kind == Kind::kNone || !Is(tt, "token_tree")) return;
  std::vector<Tokens> args = SplitTokenTree(tt);
  switch (kind) {
    case Kind::kPanic: {
      Site site = NewSite(SiteKind::kPanic, at, end);
      site.error_class = "panic";
      site.error_class_expr = std::string(name) + "!";
      Segs m = EvalFormat(args, 0, 0);
      const char* prefix = name == "unreachable" ? "internal error: entered unreachable code"
                           : name == "todo"      ? "not yet implemented"
                           : name == "unimplemented" ? "not implemented"
                                                     : nullptr;
      if (args.empty()) {
        m = {msg::Lit(prefix ? prefix : "explicit panic")};
      } else if (prefix) {
        Segs p{msg::Lit(std::string(prefix) + ": ")};
        msg::AppendAll(p, m);
        m = std::move(p);
      }
      SetMessage(site, m, TokensText(args, 0));
      Finish(std::move(site));
      return;
    }
    case Kind::kAssert:
    case Kind::kAssertCmp: {
      size_t first = kind == Kind::kAssert ? 1 : 2;
      if (args.size() <= first) return;  // no message: not a site (the issue's rule)
      Site site = NewSite(SiteKind::kAssert, at, end);
      site.error_class = "panic";
      site.error_class_expr = std::string(name) + "!";
      site.assert_condition = kind == Kind::kAssert ? TokensText(args[0])
                                                    : TokensText(args[0]) + (name.find("_ne") != std::string_view::npos ? " != " : " == ") +
                                                          TokensText(args[1]);
      Segs m = EvalFormat(args, first, 0);
      if (kind == Kind::kAssertCmp) {
        Segs p{msg::Lit(name.find("_ne") != std::string_view::npos ? "assertion `left != right` failed: "
                                                                   : "assertion `left == right` failed: ")};
        msg::AppendAll(p, m);
        m = std::move(p);
      }
      SetMessage(site, m, TokensText(args, first));
      Finish(std::move(site));
      return;
    }
    case Kind::kAnyhow:
    case Kind::kEnsure: {
      Site site = NewSite(SiteKind::kRaise, at, end);
      site.error_class = "Error";
      site.error_class_expr = std::string(name) + "!";
      size_t first = kind == Kind::kEnsure ? 1 : 0;
      Segs m;
      if (kind == Kind::kEnsure) {
        if (args.empty()) return;
        site.assert_condition = TokensText(args[0]);
        if (args.size() <= 1) m = {msg::Lit("Condition failed: `"), msg::Hole(TokensText(args[0])), msg::Lit("`")};
      }
      if (args.size() > first) m = EvalFormat(args, first, 0);
      SetMessage(site, m, TokensText(args, first));
      Finish(std::move(site));
      return;
    }
    case Kind::kLog: {
      // tracing/log: key/value fields (`k = v`, `?e`, `%x`, `target: "t"`) come before
      // the message, the first argument that is a lone string literal.
      size_t first = args.size();
      for (size_t i = 0; i < args.size(); ++i)
        if (args[i].size() == 1 && IsStringLiteral(args[i][0])) {
          first = i;
          break;
        }
      if (first == args.size()) return;
      Site site = NewSite(SiteKind::kLog, at, end);
      site.log_level = name == "error" ? "error" : "warning";
      site.error_class_expr = std::string(name) + "!";
      SetMessage(site, EvalFormat(args, first, 0), TokensText(args, first));
      Finish(std::move(site));
      return;
    }
    case Kind::kNone: return;
  }
}

void RustWalker::HandleErrArg(TSNode err_call, TSNode arg) {
  TSNode path{};
  TSNode payload{};
  if (Is(arg, "call_expression")) {
    path = ts_node_child_by_field_name(arg, "function", 8);
    payload = ts_node_child_by_field_name(arg, "arguments", 9);
  } else if (Is(arg, "struct_expression")) {
    path = ts_node_child_by_field_name(arg, "name", 4);
    payload = ts_node_child_by_field_name(arg, "body", 4);
  } else if (Is(arg, "scoped_identifier")) {
    path = arg;
  }
  if (Is(path, "scoped_identifier") || Is(path, "scoped_type_identifier")) {
    std::string_view type = Text(ts_node_child_by_field_name(path, "path", 4));
    std::string_view variant = Text(ts_node_child_by_field_name(path, "name", 4));
    size_t colons = type.rfind("::");
    std::string_view type_last = colons == std::string_view::npos ? type : type.substr(colons + 2);
    if (!variant.empty() && IsUpper(variant[0]) && !type_last.empty() && IsUpper(type_last[0])) {
    consumed_.insert(reinterpret_cast<uintptr_t>(arg.id));
    Site site = NewSite(SiteKind::kRaise, err_call, err_call);
    site.error_class = std::string(variant);
    site.error_class_expr = std::string(Text(path));
    std::optional<Segs> m = Compose(type, variant, payload, 0);
    if (m) {
      SetMessage(site, *m, ts_node_is_null(payload) ? std::string() : std::string(Text(payload)));
    } else if (!ts_node_is_null(payload) && Is(arg, "call_expression") && ts_node_named_child_count(payload) >= 1) {
      TSNode first = ts_node_named_child(payload, 0);
      Segs v = EvalExpr(first, 0);
      if (msg::HasLiteral(v)) SetMessage(site, v, std::string(Text(first)));
      else site.message_expr = std::string(Text(first));
    }
    Finish(std::move(site));
    return;
    }
  }
  // Err(format!(..)) / Err("..".to_string()) / Err(String::from("..")): a String error.
  bool stringish = false;
  if (Is(arg, "macro_invocation")) {
    TSNode mac = ts_node_child_by_field_name(arg, "macro", 5);
    TSNode nm = Is(mac, "scoped_identifier") ? ts_node_child_by_field_name(mac, "name", 4) : mac;
    stringish = Text(nm) == "format";
  } else if (Is(arg, "call_expression")) {
    Segs v = EvalExpr(arg, 0);
    stringish = msg::HasLiteral(v);
  }
  if (!stringish) return;
  Segs v = EvalExpr(arg, 0);
  if (!msg::HasLiteral(v)) return;
  Site site = NewSite(SiteKind::kRaise, err_call, err_call);
  site.error_class = "String";
  site.error_class_expr = "Err";
  SetMessage(site, v, std::string(Text(arg)));
  Finish(std::move(site));
}

void RustWalker::HandleConstruction(TSNode node, TSNode path, TSNode payload) {
  if (consumed_.count(reinterpret_cast<uintptr_t>(node.id))) return;
  if (!Is(path, "scoped_identifier") && !Is(path, "scoped_type_identifier")) return;
  std::string_view type = Text(ts_node_child_by_field_name(path, "path", 4));
  std::string_view variant = Text(ts_node_child_by_field_name(path, "name", 4));
  size_t colons = type.rfind("::");
  std::string_view type_last = colons == std::string_view::npos ? type : type.substr(colons + 2);
  if (type_last.empty() || !IsUpper(type_last[0])) return;
  const ErrorVariant* found = FindVariant(type, variant);
  if (!found || found->transparent) return;  // a wrapped error: its message is not known here
  std::optional<Segs> m = Compose(type, variant, payload, 0);
  Site site = NewSite(SiteKind::kRaise, node, node);
  site.error_class = std::string(variant);
  site.error_class_expr = std::string(Text(path));
  if (m) SetMessage(site, *m, ts_node_is_null(payload) ? std::string() : std::string(Text(payload)));
  Finish(std::move(site));
}

void RustWalker::HandleCall(TSNode call) {
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  uint32_t argc = ts_node_named_child_count(args);
  if (Is(fn, "identifier") && Text(fn) == "Err" && argc == 1) {
    HandleErrArg(call, ts_node_named_child(args, 0));
    return;
  }
  if (Is(fn, "field_expression")) {
    TSNode method = ts_node_child_by_field_name(fn, "field", 5);
    std::string_view m = Text(method);
    if (argc != 1) return;
    TSNode arg = ts_node_named_child(args, 0);
    if (m == "expect") {
      Segs v = EvalExpr(arg, 0);
      if (!msg::HasLiteral(v)) return;
      Site site = NewSite(SiteKind::kPanic, method, call);
      site.error_class = "panic";
      site.error_class_expr = ".expect";
      SetMessage(site, v, std::string(Text(arg)));
      Finish(std::move(site));
    } else if (m == "context" || m == "with_context" || m == "wrap_err" || m == "wrap_err_with") {
      TSNode value = arg;
      if (Is(arg, "closure_expression")) value = ts_node_child_by_field_name(arg, "body", 4);
      Segs v = EvalExpr(value, 0);
      if (!msg::HasLiteral(v)) return;
      Site site = NewSite(SiteKind::kRaise, method, call);
      site.error_class = "Error";
      site.error_class_expr = "." + std::string(m);
      SetMessage(site, v, std::string(Text(value)));
      Finish(std::move(site));
    }
    return;
  }
  if (Is(fn, "scoped_identifier")) {
    std::string_view type = Text(ts_node_child_by_field_name(fn, "path", 4));
    std::string_view name = Text(ts_node_child_by_field_name(fn, "name", 4));
    size_t colons = type.rfind("::");
    std::string_view type_last = colons == std::string_view::npos ? type : type.substr(colons + 2);
    if (type_last == "Status" && argc >= 1) {  // tonic
      const char* code = GrpcCodeOf(name);
      TSNode msg_arg = ts_node_named_child(args, 0);
      std::string cls;
      if (code) {
        cls = code;
      } else if (name == "new" && argc >= 2) {
        std::string_view c = Text(ts_node_named_child(args, 0));
        size_t k = c.rfind("::");
        cls = std::string(k == std::string_view::npos ? c : c.substr(k + 2));
        msg_arg = ts_node_named_child(args, 1);
      } else {
        return;
      }
      Site site = NewSite(SiteKind::kHttpResponse, call, call);
      site.error_class = cls;
      site.error_code = std::string(Text(fn));
      site.error_class_expr = std::string(Text(fn));
      Segs v = EvalExpr(msg_arg, 0);
      SetMessage(site, v, std::string(Text(msg_arg)));
      Finish(std::move(site));
      return;
    }
    HandleConstruction(call, fn, args);
  }
}

void RustWalker::HandleTuple(TSNode tuple) {
  if (ts_node_named_child_count(tuple) < 2) return;
  TSNode first = ts_node_named_child(tuple, 0);
  if (!Is(first, "scoped_identifier")) return;
  std::string_view type = Text(ts_node_child_by_field_name(first, "path", 4));
  if (type != "StatusCode" && (type.size() < 12 || type.substr(type.size() - 12) != "::StatusCode")) return;
  std::string_view name = Text(ts_node_child_by_field_name(first, "name", 4));
  std::optional<int> status = HttpStatusOf(name);
  if (!status) return;
  Site site = NewSite(SiteKind::kHttpResponse, tuple, tuple);
  site.http_status = status;
  site.error_code = std::string(name);
  site.error_class_expr = std::string(Text(first));
  TSNode m = ts_node_named_child(tuple, 1);
  Segs v = EvalExpr(m, 0);
  if (msg::HasLiteral(v)) SetMessage(site, v, std::string(Text(m)));
  else site.message_expr = std::string(Text(m));
  Finish(std::move(site));
}

void RustWalker::HandleErrorAttribute(TSNode attr_item, TSNode item) {
  TSNode attribute = ts_node_named_child(attr_item, 0);
  if (!Is(attribute, "attribute")) return;
  TSNode id = ts_node_named_child(attribute, 0);
  if (Text(id) != "error") return;
  TSNode tt = ts_node_child_by_field_name(attribute, "arguments", 9);
  if (!Is(tt, "token_tree")) return;
  std::vector<Tokens> args = SplitTokenTree(tt);
  if (args.empty() || args[0].size() != 1 || !IsStringLiteral(args[0][0])) return;
  Site site = NewSite(SiteKind::kRaise, attr_item, attr_item);
  site.error_class = std::string(Text(ts_node_child_by_field_name(item, "name", 4)));
  site.error_class_expr = "#[error]";
  std::vector<Segs> extra;
  for (size_t k = 1; k < args.size(); ++k) extra.push_back({msg::Hole(TokensText(args[k]))});
  Segs m = msg::ApplyBraces({msg::Lit(DecodeRustLiteral(Text(args[0][0])))}, extra, msg::Braces::kRust);
  SetMessage(site, m, std::string(Text(args[0][0])));
  Finish(std::move(site));
}

bool RustWalker::Enter(TSNode node, std::string_view field) {
  const char* type = ts_node_type(node);
  TSNode parent = Parent();
  // Guards first: they hold for this node and everything under it.
  if (!ts_node_is_null(parent) && !field.empty()) {
    if ((field == "consequence" || field == "body") &&
        (Is(parent, "if_expression") || Is(parent, "while_expression"))) {
      PushGuard(std::string(Text(ts_node_child_by_field_name(parent, "condition", 9))));
    } else if (field == "alternative" && Is(parent, "if_expression")) {
      PushGuard("not (" + std::string(Text(ts_node_child_by_field_name(parent, "condition", 9))) + ")");
    } else if (field == "alternative" && Is(parent, "let_declaration")) {
      PushGuard("not (let " + std::string(Text(ts_node_child_by_field_name(parent, "pattern", 7))) + " = " +
                std::string(Text(ts_node_child_by_field_name(parent, "value", 5))) + ")");
    } else if (field == "value" && Is(parent, "match_arm")) {
      TSNode block = Parent(1);
      TSNode match = Parent(2);
      std::string_view scrutinee = Is(match, "match_expression") && Is(block, "match_block")
                                       ? Text(ts_node_child_by_field_name(match, "value", 5))
                                       : std::string_view();
      PushGuard(std::string(scrutinee) + " matches " +
                std::string(Text(ts_node_child_by_field_name(parent, "pattern", 7))));
    }
  }
  // Attributes belong to the next named item at the same depth.
  size_t depth = ancestors().size();
  attrs_at_depth_.resize(depth + 1);  // deeper levels belonged to a finished subtree
  std::vector<TSNode> attrs;
  if (ts_node_is_named(node)) {
    if (std::strcmp(type, "attribute_item") == 0) {
      attrs_at_depth_[depth].push_back(node);
      return false;
    }
    if (std::strcmp(type, "line_comment") != 0 && std::strcmp(type, "block_comment") != 0)
      attrs.swap(attrs_at_depth_[depth]);
  }
  if (!attrs.empty() && (std::strcmp(type, "enum_variant") == 0 || std::strcmp(type, "struct_item") == 0))
    for (TSNode a : attrs) HandleErrorAttribute(a, node);
  switch (type[0]) {
    case 'c':
      if (std::strcmp(type, "call_expression") == 0) HandleCall(node);
      break;
    case 'f':
      if (std::strcmp(type, "function_item") == 0) {
        PushFunction(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
        if (HasAttribute(attrs, "test")) PushTests();
      }
      break;
    case 'i':
      if (std::strcmp(type, "impl_item") == 0) {
        TSNode t = ts_node_child_by_field_name(node, "type", 4);
        if (Is(t, "generic_type")) t = ts_node_child_by_field_name(t, "type", 4);
        PushType(std::string(Text(t)));
      }
      break;
    case 'm':
      if (std::strcmp(type, "macro_invocation") == 0) {
        TSNode mac = ts_node_child_by_field_name(node, "macro", 5);
        TSNode name = Is(mac, "scoped_identifier") ? ts_node_child_by_field_name(mac, "name", 4) : mac;
        TSNode tt = ts_node_named_child(node, ts_node_named_child_count(node) - 1);
        HandleMacro(Text(name), tt, node, node);
      } else if (std::strcmp(type, "mod_item") == 0) {
        if (HasAttribute(attrs, "test")) PushTests();
      } else if (std::strcmp(type, "macro_definition") == 0) {
        return false;  // macro_rules! bodies are patterns, not code
      }
      break;
    case 's':
      if (std::strcmp(type, "struct_expression") == 0)
        HandleConstruction(node, ts_node_child_by_field_name(node, "name", 4),
                           ts_node_child_by_field_name(node, "body", 4));
      break;
    case 't':
      if (std::strcmp(type, "tuple_expression") == 0) {
        HandleTuple(node);
      } else if (std::strcmp(type, "trait_item") == 0) {
        PushType(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
      } else if (std::strcmp(type, "token_tree") == 0) {
        // Macros inside another macro's tokens: `name ! (tt)` among the children.
        TSNode prev2{}, prev1{};
        TSTreeCursor c = ts_tree_cursor_new(node);
        if (ts_tree_cursor_goto_first_child(&c)) {
          do {
            TSNode ch = ts_tree_cursor_current_node(&c);
            if (Is(ch, "token_tree") && !ts_node_is_null(prev1) && !ts_node_is_named(prev1) && Text(prev1) == "!" &&
                Is(prev2, "identifier")) {
              HandleMacro(Text(prev2), ch, prev2, ch);
            }
            prev2 = prev1;
            prev1 = ch;
          } while (ts_tree_cursor_goto_next_sibling(&c));
        }
        ts_tree_cursor_delete(&c);
      }
      break;
    default:
      break;
  }
  return true;
}

// Can the file hold a site at all? Every form above is spelled with one of these words
// (a `Err (` with a space included); a third of a crate registry's bytes hold none, and
// the parse is most of the front end's time. Such a file is not parsed: it has no sites
// (and so no syntax-error diagnostic either).
bool MayHoldSites(std::string_view text) {
  if (ContainsAnyOf(text, {"panic!", "unreachable!", "todo!", "unimplemented!", "assert", "expect", "anyhow!", "bail!",
                           "ensure!", "eyre!", "format_err!", "context", "wrap_err", "#[error", "error!", "warn!", "Status",
                           "Code::"}))
    return true;
  for (size_t at = text.find("Err"); at != std::string_view::npos; at = text.find("Err", at + 3)) {
    size_t k = at + 3;
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
    if (k < text.size() && text[k] == '(') return true;
  }
  return false;
}

}  // namespace

TsExtractResult ExtractRust(std::string_view path, std::string_view text, const TsExtractOptions& options,
                            const rust::ErrorTypeTable* workspace) {
  TsExtractResult result;
  // Constructions of a workspace type need no word of MayHoldSites (`E::V(x)`).
  if (!MayHoldSites(text) && !(workspace && workspace->MentionedIn(text))) return result;
  TsTree tree = TsParse(tree_sitter_rust(), "Rust", path, text, options, result);
  if (!tree) return result;
  RustWalker walker(path, text, options, workspace);
  TSNode root = ts_tree_root_node(tree.get());
  walker.CollectErrorTypes(root);
  walker.Run(root);
  walker.TakeInto(result);
  return result;
}

std::vector<rust::ErrorType> CollectRustErrorTypes(std::string_view path, std::string_view text,
                                                   const TsExtractOptions& options) {
  if (text.find("#[error") == std::string_view::npos) return {};
  TsExtractResult ignored;
  TsTree tree = TsParse(tree_sitter_rust(), "Rust", path, text, options, ignored);
  if (!tree) return {};
  RustWalker walker(path, text, options);
  walker.CollectErrorTypes(ts_tree_root_node(tree.get()));
  return walker.TakeErrorTypes();
}

#endif  // ERRDEX_HAVE_TREE_SITTER

}  // namespace errdex
