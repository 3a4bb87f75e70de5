// The JavaScript front end's walk (see js_walker.h): one iterative pass over the
// tree that keeps a context stack of enclosing functions/classes, guards, catch
// clauses and scopes with their variable bindings, hands throw statements, calls
// and `new` expressions to js_sites.cc, and gives each new Site its context.
#include "extract/javascript/js_walker.h"

#ifdef ERRDEX_HAVE_TREE_SITTER

#include <algorithm>

#include "model/utf8.h"

namespace errdex::js {

namespace {

Binding NamedBinding(std::string_view name, Binding::Kind kind) {
  Binding b;
  b.name = name;
  b.kind = kind;
  return b;
}

}  // namespace

bool Walker::InTests(std::string_view path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string_view comp = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (slash == std::string_view::npos) {
      // File name: foo.test.js, foo.spec.ts, foo_test.js.
      return comp.find(".test.") != std::string_view::npos || comp.find(".spec.") != std::string_view::npos ||
             comp.find("_test.") != std::string_view::npos;
    }
    if (comp == "test" || comp == "tests" || comp == "__tests__" || comp == "spec" || comp == "__mocks__")
      return true;
    start = slash + 1;
  }
  return false;
}

void Walker::Run(TSNode root) {
  ctx_.push_back(Ctx{root.id, CtxKind::kFunction, "", true, {}});
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  struct Ancestor {
    TSNode node;
    Kind kind;
  };
  std::vector<Ancestor> path;  // ancestors of the cursor's node, root first
  path.push_back(Ancestor{root, Kind::kOther});
  bool done = !ts_tree_cursor_goto_first_child(&cursor);  // the root's context is pushed above
  while (!done) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    TSFieldId field = ts_tree_cursor_current_field_id(&cursor);
    Kind kind = kinds_.Of(node);
    const Ancestor& parent = path.back();
    Ancestor grandparent = path.size() >= 2 ? path[path.size() - 2] : Ancestor{TSNode{}, Kind::kOther};
    bool descend = Enter(node, kind, parent.node, parent.kind, grandparent.node, grandparent.kind, field);
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
      path.push_back(Ancestor{node, kind});
      continue;
    }
    Leave(node);
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (path.size() <= 1 || !ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
      Leave(path.back().node);
      path.pop_back();
    }
  }
  ts_tree_cursor_delete(&cursor);
  auto by_position = [](const Site& a, const Site& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  };
  if (!std::is_sorted(sites.begin(), sites.end(), by_position))
    std::stable_sort(sites.begin(), sites.end(), by_position);
}

bool Walker::Enter(TSNode node, Kind kind, TSNode parent, Kind parent_kind, TSNode grandparent,
                   Kind grandparent_kind, TSFieldId field) {
  if (ts_node_is_missing(node) || ts_node_is_error(node)) {  // a missing token is anonymous too
    if (syntax_errors++ == 0) first_error = ts_node_start_point(node);
  }
  if (kind == Kind::kAnonymous) return false;  // a token: no children of interest

  // Guards: the branch being entered.
  if (parent_kind == Kind::kIf) {
    if (field == fields_.consequence) {
      Push(node, CtxKind::kGuard, ConditionText(parent));
    } else if (kind == Kind::kElse) {
      Push(node, CtxKind::kGuard, "not (" + ConditionText(parent) + ")");
    }
  } else if (parent_kind == Kind::kWhile && field == fields_.body) {
    Push(node, CtxKind::kGuard, ConditionText(parent));
  }

  switch (kind) {
    case Kind::kLeaf:
      return false;
    case Kind::kAssignment:
      Assign(node, false);
      return true;
    case Kind::kAugmentedAssignment:
      Assign(node, true);
      return true;
    case Kind::kCall:
      HandleCall(node);
      return true;
    case Kind::kNew:
      HandleNew(node);
      return true;
    case Kind::kThrow:
      HandleThrow(node);
      return true;
    case Kind::kDeclarator:
      Declare(node, parent_kind == Kind::kVarDeclaration);
      return true;
    case Kind::kBlock:
      Push(node, CtxKind::kScope, "");
      return true;
    case Kind::kCatch: {
      TSNode body = Field(node, fields_.body);
      uint32_t header_end = ts_node_is_null(body) ? ts_node_end_byte(node) : ts_node_start_byte(body);
      std::string_view header = text_.substr(ts_node_start_byte(node), header_end - ts_node_start_byte(node));
      while (!header.empty() &&
             (header.back() == ' ' || header.back() == '\t' || header.back() == '\n' || header.back() == '\r'))
        header.remove_suffix(1);
      Push(node, CtxKind::kCatch, std::string(header));
      TSNode param = Field(node, fields_.parameter);
      if (!ts_node_is_null(param)) BindPattern(param, ctx_.back(), Binding::kCatchParam, 0);
      return true;
    }
    case Kind::kClass: {
      TSNode name = Field(node, fields_.name);
      std::string n = ts_node_is_null(name) ? FunctionName(node, parent) : std::string(Text(name));
      Push(node, CtxKind::kClass, std::move(n));
      return true;
    }
    case Kind::kSwitchCase:
    case Kind::kSwitchDefault: {
      // parent: switch_body; grandparent: switch_statement.
      std::string subject;
      if (grandparent_kind == Kind::kSwitch) {
        TSNode v = Field(grandparent, fields_.value);
        if (Is(v, "parenthesized_expression") && !ts_node_is_null(FirstNamed(v))) v = FirstNamed(v);
        subject = std::string(Text(v));
      }
      std::string g = "switch (" + subject + "): ";
      if (kind == Kind::kSwitchCase) {
        g += "case " + std::string(Text(Field(node, fields_.value)));
      } else {
        g += "default";
      }
      Push(node, CtxKind::kGuard, std::move(g));
      return true;
    }
    case Kind::kFunction: {
      Push(node, CtxKind::kFunction, FunctionName(node, parent));
      // A callback given to promise.catch(...) receives the rejection: throwing its
      // parameter is a rethrow, as for a catch clause.
      Binding::Kind binding = Binding::kOpaque;
      if (parent_kind == Kind::kArguments && grandparent_kind == Kind::kCall) {
        TSNode callee = Field(grandparent, fields_.function);
        if (Is(callee, "member_expression") && Text(Field(callee, fields_.property)) == "catch")
          binding = Binding::kCatchParam;
      }
      BindParams(node, ctx_.back(), binding);
      return true;
    }
    default:
      return true;
  }
}

std::string Walker::ConditionText(TSNode stmt) {
  TSNode cond = Field(stmt, fields_.condition);
  if (Is(cond, "parenthesized_expression")) {
    TSNode inner = FirstNamed(cond);
    if (!ts_node_is_null(inner)) cond = inner;
  }
  return std::string(Text(cond));
}

std::string Walker::FunctionName(TSNode fn, TSNode parent) {
  TSNode name = Field(fn, fields_.name);
  if (!ts_node_is_null(name)) {
    std::string_view t = Text(name);
    if (Is(name, "string") && t.size() >= 2) t = t.substr(1, t.size() - 2);
    return std::string(t);
  }
  // Anonymous: named by what it is assigned to.
  if (Is(parent, "variable_declarator")) {
    TSNode n = Field(parent, fields_.name);
    if (Is(n, "identifier")) return std::string(Text(n));
  } else if (Is(parent, "pair")) {
    TSNode k = Field(parent, fields_.key);
    std::string_view t = Text(k);
    if (Is(k, "string") && t.size() >= 2) t = t.substr(1, t.size() - 2);
    return std::string(t);
  } else if (Is(parent, "assignment_expression")) {
    return std::string(LastName(Field(parent, fields_.left)));
  } else if (Is(parent, "field_definition")) {
    return std::string(Text(Field(parent, fields_.property)));
  } else if (Is(parent, "public_field_definition")) {
    return std::string(Text(Field(parent, fields_.name)));
  }
  return "";
}

void Walker::BindPattern(TSNode pattern, Ctx& ctx, Binding::Kind kind, int depth) {
  if (ts_node_is_null(pattern) || depth > 16) return;
  if (Is(pattern, "identifier")) {
    ctx.bindings.push_back(NamedBinding(Text(pattern), kind));
    return;
  }
  if (Is(pattern, "assignment_pattern")) {
    BindPattern(Field(pattern, fields_.left), ctx, kind, depth + 1);
    return;
  }
  if (Is(pattern, "required_parameter") || Is(pattern, "optional_parameter")) {
    BindPattern(Field(pattern, fields_.pattern), ctx, kind, depth + 1);
    return;
  }
  // Destructuring / rest: every identifier inside shadows outer names.
  uint32_t count = ts_node_named_child_count(pattern);
  for (uint32_t i = 0; i < count && i < 256; ++i) {
    TSNode c = ts_node_named_child(pattern, i);
    if (Is(c, "pair_pattern")) c = Field(c, fields_.value);
    if (Is(c, "shorthand_property_identifier_pattern")) {
      ctx.bindings.push_back(NamedBinding(Text(c), kind));
      continue;
    }
    BindPattern(c, ctx, kind, depth + 1);
  }
}

void Walker::BindParams(TSNode fn, Ctx& ctx, Binding::Kind kind) {
  TSNode single = Field(fn, fields_.parameter);  // x => ...
  if (!ts_node_is_null(single)) BindPattern(single, ctx, kind, 0);
  TSNode params = Field(fn, fields_.parameters);
  if (ts_node_is_null(params)) return;
  uint32_t count = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count && i < 256; ++i) BindPattern(ts_node_named_child(params, i), ctx, kind, 0);
}

void Walker::Declare(TSNode declarator, bool is_var) {
  TSNode name = Field(declarator, fields_.name);
  // `var` belongs to the function; const/let to the innermost block.
  Ctx* target = &ctx_.back();
  for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it) {
    if (it->kind == CtxKind::kFunction || (!is_var && (it->kind == CtxKind::kScope || it->kind == CtxKind::kCatch))) {
      target = &*it;
      break;
    }
  }
  if (!Is(name, "identifier")) {
    BindPattern(name, *target, Binding::kOpaque, 0);
    return;
  }
  Binding b;
  b.name = Text(name);
  TSNode value = Field(declarator, fields_.value);
  if (!ts_node_is_null(value)) {
    b.kind = Binding::kValue;
    b.value = value;
  }
  target->bindings.push_back(std::move(b));
}

void Walker::Assign(TSNode assignment, bool augmented) {
  TSNode left = Field(assignment, fields_.left);
  if (!Is(left, "identifier")) return;
  bool in_module = false, crossed = false;
  Binding* b = Lookup(Text(left), &in_module, &crossed);
  if (!b || b->kind == Binding::kCatchParam) return;
  TSNode right = Field(assignment, fields_.right);
  if (!augmented) {
    b->kind = ts_node_is_null(right) ? Binding::kOpaque : Binding::kValue;
    b->value = right;
    b->aug.clear();
    ++b->assigns;
    return;
  }
  TSNode op = Field(assignment, fields_.op);
  if (Text(op) == "+=" && b->kind == Binding::kValue && !ts_node_is_null(right)) {
    b->aug.push_back(right);
  } else {
    b->kind = Binding::kOpaque;  // x -= ..., or += onto something unknown
  }
}

Binding* Walker::Lookup(std::string_view name, bool* in_module, bool* crossed_function) {
  *crossed_function = false;
  for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it) {
    for (auto b = it->bindings.rbegin(); b != it->bindings.rend(); ++b) {
      if (b->name == name) {
        *in_module = it->module;
        return &*b;
      }
    }
    if (it->kind == CtxKind::kFunction) *crossed_function = true;
  }
  return nullptr;
}

Site Walker::NewSite(SiteKind kind, TSNode at, TSNode end) const {
  Site s = TsSiteAt(kind, typescript_ ? "typescript" : "javascript", path_, at, end);
  s.in_tests = in_tests_;
  // Context: names of enclosing functions/classes; guards and catch up to the
  // innermost function or class.
  // The innermost max_name_parts_ names, walking out from the site.
  std::vector<const std::string*> parts;
  for (auto it = ctx_.rbegin(); it != ctx_.rend() && parts.size() < max_name_parts_; ++it) {
    if ((it->kind == CtxKind::kFunction || it->kind == CtxKind::kClass) && !it->module && !it->text.empty())
      parts.push_back(&it->text);
  }
  s.function = TsFunctionName(parts);
  for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it) {
    if (it->kind == CtxKind::kFunction || it->kind == CtxKind::kClass) break;
    if (it->kind == CtxKind::kGuard) {
      if (s.guards.size() == limits_.max_guards) {  // the innermost are kept: count the rest
        size_t total = s.guards.size();
        for (auto rest = it; rest != ctx_.rend() && rest->kind != CtxKind::kFunction && rest->kind != CtxKind::kClass; ++rest)
          total += rest->kind == CtxKind::kGuard;
        NoteTruncated(s, "guards", total);
        for (; it != ctx_.rend() && it->kind != CtxKind::kFunction && it->kind != CtxKind::kClass; ++it)
          if (it->kind == CtxKind::kCatch && !s.except_context) s.except_context = it->text;
        break;
      }
      // a prefix only: a huge condition is copied once per site
      s.guards.emplace_back(it->text, 0, Utf8CutPoint(it->text, limits_.max_guard_bytes));
      if (it->text.size() > limits_.max_guard_bytes) NoteTruncated(s, "guardBytes", it->text.size());
    }
    if (it->kind == CtxKind::kCatch && !s.except_context) s.except_context = it->text;
  }
  std::reverse(s.guards.begin(), s.guards.end());
  return s;
}

}  // namespace errdex::js

#endif  // ERRDEX_HAVE_TREE_SITTER
