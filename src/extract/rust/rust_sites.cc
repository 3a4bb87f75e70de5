// extract/rust/rust_sites.cc: the Rust sites and the walk's context (see
// rust_walker.h and the list of forms in rust_extractor.h).
#ifdef ERRDEX_HAVE_TREE_SITTER

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "extract/rust/rust_status_codes.h"
#include "extract/rust/rust_walker.h"

namespace errdex::rust {

// ---------------------------------------------------------------------------
// Sites.

bool RustWalker::HasAttribute(const std::vector<TSNode>& attrs, std::string_view needle) const {
  for (TSNode a : attrs)
    if (Text(a).find(needle) != std::string_view::npos) return true;
  return false;
}

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
      if (args.size() <= first) return;  // no message: not a site (the rule)
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
  } else if (Is(arg, "scoped_identifier") || Is(arg, "identifier")) {
    path = arg;
  }
  std::string_view type, variant;
  Constructed what = ConstructedName(path, &type, &variant);
  if (what == Constructed::kStruct || (what == Constructed::kVariant && !variant.empty() && IsUpper(variant[0]))) {
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

RustWalker::Constructed RustWalker::ConstructedName(TSNode path, std::string_view* type, std::string_view* variant) const {
  if (Is(path, "scoped_identifier") || Is(path, "scoped_type_identifier")) {
    *type = Text(ts_node_child_by_field_name(path, "path", 4));
    *variant = Text(ts_node_child_by_field_name(path, "name", 4));
    size_t colons = type->rfind("::");
    std::string_view type_last = colons == std::string_view::npos ? *type : type->substr(colons + 2);
    if (!type_last.empty() && IsUpper(type_last[0])) return Constructed::kVariant;
    *type = Text(path);  // `errors::ParseError { .. }`: a struct behind a module path
  } else if (Is(path, "identifier") || Is(path, "type_identifier")) {
    *type = *variant = Text(path);
    if (*type == "Self") *variant = SelfType();
  } else {
    return Constructed::kNone;
  }
  if (variant->empty() || !IsUpper((*variant)[0])) return Constructed::kNone;
  // A struct's one "variant" has the struct's name (CollectErrorTypes).
  const ErrorVariant* v = FindVariant(*type, *variant);
  return v && !v->transparent ? Constructed::kStruct : Constructed::kNone;
}

void RustWalker::HandleConstruction(TSNode node, TSNode path, TSNode payload) {
  if (consumed_.count(reinterpret_cast<uintptr_t>(node.id))) return;
  std::string_view type, variant;
  if (ConstructedName(path, &type, &variant) == Constructed::kNone) return;
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
  if (Is(fn, "identifier")) {  // a tuple struct's constructor: `ParseError(line)`
    HandleConstruction(call, fn, args);
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

}  // namespace errdex::rust

#endif  // ERRDEX_HAVE_TREE_SITTER
