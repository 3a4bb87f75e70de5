// The Java front end (see java_extractor.h).
#include "extract/java/java_extractor.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "extract/common/message.h"

#ifdef ERRDEX_HAVE_TREE_SITTER
extern "C" const TSLanguage* tree_sitter_java(void);
#endif

namespace errdex {

#ifndef ERRDEX_HAVE_TREE_SITTER

TsExtractResult ExtractJava(std::string_view path, std::string_view, const TsExtractOptions&) {
  TsExtractResult r;
  r.failed = true;
  r.diagnostics.push_back({std::string(path), 0, 0, "the Java grammar was not built (scripts/fetch-third-party.sh)"});
  return r;
}

#else

namespace {

using msg::Segs;

bool Is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\f'; });
}

// The value of a text block's body (between `"""`+newline and `"""`), as
// String.stripIndent then translateEscapes do (JLS 3.10.6).
std::string TextBlockValue(std::string_view body) {
  std::string norm;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\r') {
      norm.push_back('\n');
      if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
    } else {
      norm.push_back(body[i]);
    }
  }
  std::vector<std::string_view> lines;
  std::string_view rest(norm);
  for (;;) {
    size_t nl = rest.find('\n');
    lines.push_back(rest.substr(0, nl));
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  size_t indent = std::string_view::npos;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    bool last = i + 1 == lines.size();
    if (IsBlank(l) && !last) continue;
    size_t k = 0;
    while (k < l.size() && (l[k] == ' ' || l[k] == '\t' || l[k] == '\f')) ++k;
    indent = std::min(indent, k);
  }
  if (indent == std::string_view::npos) indent = 0;
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (i) out.push_back('\n');
    if (IsBlank(l)) continue;
    l.remove_prefix(std::min(indent, l.size()));
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\f')) l.remove_suffix(1);
    out += l;
  }
  return DecodeEscapes(out, EscapeDialect::kJava);
}

std::string JavaStringValue(std::string_view raw) {
  if (raw.size() >= 6 && raw.substr(0, 3) == "\"\"\"") {
    std::string_view body = raw.substr(3, raw.size() - 6);
    size_t nl = body.find_first_of("\r\n");  // the opening delimiter's line ends the prefix
    body = nl == std::string_view::npos ? std::string_view() : body.substr(nl + (body.compare(nl, 2, "\r\n") == 0 ? 2 : 1));
    return TextBlockValue(body);
  }
  if (raw.size() >= 2) raw = raw.substr(1, raw.size() - 2);
  return DecodeEscapes(raw, EscapeDialect::kJava);
}

// The simple name of a type as written: java.io.IOException -> IOException, Foo<Bar> -> Foo.
std::string SimpleTypeName(std::string_view t) {
  size_t lt = t.find('<');
  if (lt != std::string_view::npos) t = t.substr(0, lt);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\n')) t.remove_suffix(1);
  size_t dot = t.rfind('.');
  if (dot != std::string_view::npos) t = t.substr(dot + 1);
  size_t start = 0;
  while (start < t.size() && (t[start] == ' ' || t[start] == '@')) ++start;
  return std::string(t.substr(start));
}

struct Assignment {
  uint32_t start, end;  // the whole declaration / assignment
  enum Kind { kDecl, kAssign, kAppend } kind;
  TSNode value;  // null for a declaration without initializer
};

class JavaWalker : public TsWalker {
 public:
  JavaWalker(std::string_view path, std::string_view text, const TsExtractOptions& options)
      : TsWalker(path, text, "java", options) {
    std::string p(path);
    if (p.find("/src/test/") != std::string::npos || p.rfind("src/test/", 0) == 0) file_in_tests_ = true;
  }

  void CollectFields(TSNode root);

 protected:
  bool Enter(TSNode node, std::string_view field) override;

 private:
  std::vector<TSNode> Args(TSNode args_node) const { return NamedChildrenNoComments(args_node); }
  std::vector<TSNode> NamedChildrenNoComments(TSNode n) const;
  Segs Eval(TSNode e, int depth);
  std::optional<Segs> Local(std::string_view name, uint32_t pos, int depth);
  const std::unordered_map<std::string, std::vector<Assignment>>& ScopeTable(TSNode scope);
  void HandleThrow(TSNode stmt);
  void HandleInvocation(TSNode call);
  void SetMessage(Site& site, const Segs& segs, TSNode expr);
  TSNode EnclosingScope() const;

  std::unordered_map<std::string, TSNode> fields_;  // final fields with an initializer
  std::unordered_map<uintptr_t, std::unordered_map<std::string, std::vector<Assignment>>> scopes_;
  TSNode scope_{};  // the method/constructor/initializer of the site being evaluated
};

std::vector<TSNode> JavaWalker::NamedChildrenNoComments(TSNode n) const {
  std::vector<TSNode> out;
  for (TSNode c : NamedChildren(n))
    if (!Is(c, "line_comment") && !Is(c, "block_comment")) out.push_back(c);
  return out;
}

void JavaWalker::CollectFields(TSNode root) {
  // Every field_declaration of the file (any class), iteratively.
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    for (TSNode c : NamedChildren(n)) {
      if (Is(c, "field_declaration")) {
        bool final_field = false;
        for (TSNode m : NamedChildren(c)) {
          if (!Is(m, "modifiers")) continue;
          uint32_t k = ts_node_child_count(m);  // a handful of modifiers
          for (uint32_t j = 0; j < k; ++j)
            if (Is(ts_node_child(m, j), "final")) final_field = true;
        }
        if (!final_field) continue;
        for (TSNode d : NamedChildren(c)) {
          if (!Is(d, "variable_declarator")) continue;
          TSNode value = ts_node_child_by_field_name(d, "value", 5);
          if (!ts_node_is_null(value)) fields_[std::string(Text(ts_node_child_by_field_name(d, "name", 4)))] = value;
        }
      } else if (Is(c, "class_declaration") || Is(c, "interface_declaration") || Is(c, "enum_declaration") ||
                 Is(c, "record_declaration") || Is(c, "class_body") || Is(c, "interface_body") ||
                 Is(c, "enum_body") || Is(c, "enum_body_declarations")) {
        stack.push_back(c);
      }
    }
  }
}

TSNode JavaWalker::EnclosingScope() const {
  const std::vector<TSNode>& up = ancestors();
  for (size_t i = 0; i < up.size(); ++i) {  // the outermost method-like node
    if (Is(up[i], "method_declaration") || Is(up[i], "constructor_declaration") ||
        Is(up[i], "compact_constructor_declaration") || Is(up[i], "static_initializer"))
      return up[i];
    if (Is(up[i], "block") && i > 0 && Is(up[i - 1], "class_body")) return up[i];  // an instance initializer
  }
  return TSNode{};
}

const std::unordered_map<std::string, std::vector<Assignment>>& JavaWalker::ScopeTable(TSNode scope) {
  auto key = reinterpret_cast<uintptr_t>(scope.id);
  auto found = scopes_.find(key);
  if (found != scopes_.end()) return found->second;
  auto& table = scopes_[key];
  std::vector<TSNode> stack{scope};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (Is(n, "local_variable_declaration")) {
      for (TSNode d : NamedChildren(n)) {
        if (!Is(d, "variable_declarator")) continue;
        table[std::string(Text(ts_node_child_by_field_name(d, "name", 4)))].push_back(
            {ts_node_start_byte(d), ts_node_end_byte(d), Assignment::kDecl, ts_node_child_by_field_name(d, "value", 5)});
      }
    } else if (Is(n, "assignment_expression")) {
      TSNode left = ts_node_child_by_field_name(n, "left", 4);
      std::string_view op = Text(ts_node_child_by_field_name(n, "operator", 8));
      if (Is(left, "identifier") && (op == "=" || op == "+="))
        table[std::string(Text(left))].push_back({ts_node_start_byte(n), ts_node_end_byte(n),
                                                  op == "=" ? Assignment::kAssign : Assignment::kAppend,
                                                  ts_node_child_by_field_name(n, "right", 5)});
    }
    std::vector<TSNode> kids = NamedChildren(n);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
  for (auto& [name, list] : table)
    std::sort(list.begin(), list.end(), [](const Assignment& a, const Assignment& b) { return a.start < b.start; });
  return table;
}

std::optional<Segs> JavaWalker::Local(std::string_view name, uint32_t pos, int depth) {
  if (ts_node_is_null(scope_)) return std::nullopt;
  const auto& table = ScopeTable(scope_);
  auto it = table.find(std::string(name));
  if (it == table.end()) return std::nullopt;
  const std::vector<Assignment>& list = it->second;
  // the last declaration wholly before pos, then the assignments after it
  size_t decl = list.size();
  for (size_t i = 0; i < list.size() && list[i].end <= pos; ++i)
    if (list[i].kind == Assignment::kDecl) decl = i;
  if (decl == list.size()) return std::nullopt;
  Segs v = ts_node_is_null(list[decl].value) ? Segs{msg::Hole(std::string(name))} : Eval(list[decl].value, depth + 1);
  for (size_t i = decl + 1; i < list.size() && list[i].end <= pos; ++i) {
    if (list[i].kind == Assignment::kAssign) {
      v = Eval(list[i].value, depth + 1);
    } else if (list[i].kind == Assignment::kAppend) {
      msg::AppendAll(v, Eval(list[i].value, depth + 1));
    } else {
      break;  // declared again (another block): that one is not before pos's scope
    }
  }
  return v;
}

Segs JavaWalker::Eval(TSNode e, int depth) {
  if (ts_node_is_null(e)) return {};
  if (depth > kMaxEvalDepth) return {msg::Hole(std::string(Text(e)))};
  if (Is(e, "string_literal")) return {msg::Lit(JavaStringValue(Text(e)))};
  if (Is(e, "parenthesized_expression")) {
    std::vector<TSNode> k = NamedChildrenNoComments(e);
    if (k.size() == 1) return Eval(k[0], depth + 1);
  }
  if (Is(e, "binary_expression") && Text(ts_node_child_by_field_name(e, "operator", 8)) == "+") {
    Segs out = Eval(ts_node_child_by_field_name(e, "left", 4), depth + 1);
    msg::AppendAll(out, Eval(ts_node_child_by_field_name(e, "right", 5), depth + 1));
    return out;
  }
  if (Is(e, "identifier")) {
    std::string_view name = Text(e);
    if (auto v = Local(name, ts_node_start_byte(e), depth)) return *v;
    auto f = fields_.find(std::string(name));
    if (f != fields_.end() && (Is(f->second, "string_literal") || Is(f->second, "binary_expression"))) {
      TSNode saved = scope_;
      scope_ = TSNode{};  // a field's value sees no locals
      Segs v = Eval(f->second, depth + 1);
      scope_ = saved;
      if (std::none_of(v.begin(), v.end(), [](const msg::Seg& s) { return s.hole; })) return v;
    }
  }
  if (Is(e, "method_invocation")) {
    TSNode object = ts_node_child_by_field_name(e, "object", 6);
    std::string_view m = Text(ts_node_child_by_field_name(e, "name", 4));
    std::string_view obj = Text(object);
    std::vector<TSNode> args = Args(ts_node_child_by_field_name(e, "arguments", 9));
    auto rest = [&](size_t from) {
      std::vector<Segs> r;
      for (size_t i = from; i < args.size(); ++i) r.push_back(Eval(args[i], depth + 1));
      return r;
    };
    if ((obj == "String" || obj == "java.lang.String") && m == "format" && !args.empty())
      return msg::ApplyPrintf(Eval(args[0], depth + 1), rest(1), msg::Printf::kJava);
    if (m == "formatted" && Is(object, "string_literal"))
      return msg::ApplyPrintf(Eval(object, depth + 1), rest(0), msg::Printf::kJava);
    if ((obj == "MessageFormat" || obj == "java.text.MessageFormat") && m == "format" && !args.empty())
      return msg::ApplyBraces(Eval(args[0], depth + 1), rest(1), msg::Braces::kMessageFormat);
    if ((obj == "String" || obj == "java.lang.String") && m == "valueOf" && args.size() == 1)
      return Eval(args[0], depth + 1);
  }
  return {msg::Hole(std::string(Text(e)))};
}

void JavaWalker::SetMessage(Site& site, const Segs& segs, TSNode expr) {
  if (!ts_node_is_null(expr)) site.message_expr = std::string(Text(expr));
  if (segs.empty()) return;
  msg::RenderInto(site, msg::Alts{segs});
  if (site.error_message) site.message_resolution = "literal";
}

void JavaWalker::HandleThrow(TSNode stmt) {
  std::vector<TSNode> kids = NamedChildrenNoComments(stmt);
  if (kids.empty() || !Is(kids[0], "object_creation_expression")) return;
  TSNode create = kids[0];
  Site site = NewSite(SiteKind::kRaise, stmt, stmt);
  std::string_view type = Text(ts_node_child_by_field_name(create, "type", 4));
  site.error_class = SimpleTypeName(type);
  site.error_class_expr = std::string(type);
  std::vector<TSNode> args = Args(ts_node_child_by_field_name(create, "arguments", 9));
  scope_ = EnclosingScope();
  bool found = false;
  for (size_t i = 0; i < args.size() && i < 2 && !found; ++i) {
    Segs v = Eval(args[i], 0);
    if (msg::HasLiteral(v)) {
      SetMessage(site, v, args[i]);
      found = true;
    }
  }
  if (!found && !args.empty()) site.message_expr = std::string(Text(args[0]));
  Finish(std::move(site));
}

namespace {

// The assertion helpers of two libraries nearly every Java code base has one of:
// Apache Commons Lang's Validate and Spring's Assert. Each throws `error_class` with
// the message at argument `message` (Validate's formatted by String.format when
// values follow); `condition` says what argument 0 is.
struct AssertionHelper {
  const char* object;
  const char* method;
  const char* error_class;
  size_t message;
  bool printf;
  // kBetween / kStrictlyBetween: (start, end, value) -- start <= value <= end.
  enum Condition : uint8_t { kNone, kHolds, kNotNull, kBetween, kStrictlyBetween } condition;
};
constexpr AssertionHelper kAssertionHelpers[] = {
    {"Validate", "isTrue", "IllegalArgumentException", 1, true, AssertionHelper::kHolds},
    {"Validate", "validState", "IllegalStateException", 1, true, AssertionHelper::kHolds},
    {"Validate", "notNull", "NullPointerException", 1, true, AssertionHelper::kNotNull},
    {"Validate", "notEmpty", "IllegalArgumentException", 1, true, AssertionHelper::kNone},
    {"Validate", "notBlank", "IllegalArgumentException", 1, true, AssertionHelper::kNone},
    {"Validate", "noNullElements", "IllegalArgumentException", 1, true, AssertionHelper::kNone},
    {"Validate", "validIndex", "IndexOutOfBoundsException", 2, true, AssertionHelper::kNone},
    {"Validate", "matchesPattern", "IllegalArgumentException", 2, true, AssertionHelper::kNone},
    {"Validate", "inclusiveBetween", "IllegalArgumentException", 3, true, AssertionHelper::kBetween},
    {"Validate", "exclusiveBetween", "IllegalArgumentException", 3, true, AssertionHelper::kStrictlyBetween},
    {"Assert", "isTrue", "IllegalArgumentException", 1, false, AssertionHelper::kHolds},
    {"Assert", "state", "IllegalStateException", 1, false, AssertionHelper::kHolds},
    {"Assert", "notNull", "IllegalArgumentException", 1, false, AssertionHelper::kNotNull},
    {"Assert", "hasText", "IllegalArgumentException", 1, false, AssertionHelper::kNone},
    {"Assert", "hasLength", "IllegalArgumentException", 1, false, AssertionHelper::kNone},
    {"Assert", "notEmpty", "IllegalArgumentException", 1, false, AssertionHelper::kNone},
    {"Assert", "noNullElements", "IllegalArgumentException", 1, false, AssertionHelper::kNone},
};

const AssertionHelper* FindAssertionHelper(std::string_view obj, std::string_view method) {
  // `Validate.x(...)` or its qualified `org.apache.commons.lang3.Validate.x(...)`; a
  // static import (a bare `isTrue(...)`) is not told apart from a method of the class.
  size_t dot = obj.rfind('.');
  std::string_view simple = dot == std::string_view::npos ? obj : obj.substr(dot + 1);
  if (dot != std::string_view::npos && obj.substr(0, dot) != "org.apache.commons.lang3" &&
      obj.substr(0, dot) != "org.apache.commons.lang" && obj.substr(0, dot) != "org.springframework.util")
    return nullptr;
  for (const AssertionHelper& h : kAssertionHelpers)
    if (simple == h.object && method == h.method) return &h;
  return nullptr;
}

}  // namespace

void JavaWalker::HandleInvocation(TSNode call) {
  TSNode object = ts_node_child_by_field_name(call, "object", 6);
  std::string_view m = Text(ts_node_child_by_field_name(call, "name", 4));
  std::string_view obj = Text(object);
  std::vector<TSNode> args = Args(ts_node_child_by_field_name(call, "arguments", 9));
  if (args.empty()) return;
  bool preconditions = ts_node_is_null(object) || obj == "Preconditions" || obj == "com.google.common.base.Preconditions";
  const char* cls = m == "checkArgument" ? "IllegalArgumentException"
                    : m == "checkState"  ? "IllegalStateException"
                    : m == "checkNotNull" ? "NullPointerException"
                                          : nullptr;
  if (preconditions && cls) {
    Site site = NewSite(SiteKind::kRaise, call, call);
    site.error_class = cls;
    site.error_class_expr = std::string(Text(ts_node_child_by_field_name(call, "name", 4)));
    site.assert_condition = std::string(Text(args[0]));
    if (m == "checkNotNull") *site.assert_condition += " != null";  // its argument is the reference
    if (args.size() >= 2) {
      scope_ = EnclosingScope();
      std::vector<Segs> rest;
      for (size_t i = 2; i < args.size(); ++i) rest.push_back(Eval(args[i], 0));
      SetMessage(site, msg::ApplyPrintf(Eval(args[1], 0), rest, msg::Printf::kGuava), args[1]);
    }
    Finish(std::move(site));
    return;
  }
  if (const AssertionHelper* h = FindAssertionHelper(obj, m); h && args.size() > h->message) {
    // Apache Commons Validate.isTrue(c, "x %d", x) / Spring Assert.state(c, "msg"): the
    // message is made at the call (the helper's own throw has only its default text).
    scope_ = EnclosingScope();
    Segs text = Eval(args[h->message], 0);
    if (!msg::HasLiteral(text)) return;
    Site site = NewSite(SiteKind::kRaise, call, call);
    site.error_class = h->error_class;
    site.error_class_expr = std::string(obj) + "." + std::string(m);
    if (h->condition == AssertionHelper::kHolds) site.assert_condition = std::string(Text(args[0]));
    if (h->condition == AssertionHelper::kNotNull) site.assert_condition = std::string(Text(args[0])) + " != null";
    if (h->condition == AssertionHelper::kBetween || h->condition == AssertionHelper::kStrictlyBetween) {
      const char* op = h->condition == AssertionHelper::kBetween ? " <= " : " < ";
      std::string value(Text(args[2]));
      site.assert_condition = std::string(Text(args[0])) + op + value + " && " + value + op + std::string(Text(args[1]));
    }
    // Validate formats with String.format only when it is given values; Spring never.
    if (h->printf && args.size() > h->message + 1) {
      std::vector<Segs> rest;
      for (size_t i = h->message + 1; i < args.size(); ++i) rest.push_back(Eval(args[i], 0));
      text = msg::ApplyPrintf(text, rest, msg::Printf::kJava);
    }
    SetMessage(site, text, args[h->message]);
    Finish(std::move(site));
    return;
  }
  if ((obj == "Objects" || obj == "java.util.Objects") && m == "requireNonNull" && args.size() == 2) {
    Site site = NewSite(SiteKind::kRaise, call, call);
    site.error_class = "NullPointerException";
    site.error_class_expr = "Objects.requireNonNull";
    // The check it makes, as a condition that must hold (as checkArgument's): what the
    // document stage reads to say which argument the caller must pass.
    site.assert_condition = std::string(Text(args[0])) + " != null";
    scope_ = EnclosingScope();
    SetMessage(site, Eval(args[1], 0), args[1]);
    Finish(std::move(site));
    return;
  }
  if (ts_node_is_null(object)) return;
  const char* level = nullptr;
  size_t first = 0;
  msg::Braces dialect = msg::Braces::kSlf4j;
  if (m == "error" || m == "fatal" || m == "severe") level = "error";
  else if (m == "warn" || m == "warning") level = "warning";
  else if (m == "log" && args.size() >= 2) {
    std::string_view lv = Text(args[0]);
    if (lv == "Level.SEVERE" || lv == "java.util.logging.Level.SEVERE") level = "error";
    else if (lv == "Level.WARNING" || lv == "java.util.logging.Level.WARNING") level = "warning";
    first = 1;
    dialect = msg::Braces::kMessageFormat;
  }
  if (!level) return;
  if (m == "severe" || m == "warning") dialect = msg::Braces::kMessageFormat;
  scope_ = EnclosingScope();
  Segs fmt = Eval(args[first], 0);
  if (!msg::HasLiteral(fmt)) return;
  std::vector<Segs> rest;
  for (size_t i = first + 1; i < args.size(); ++i) rest.push_back(Eval(args[i], 0));
  // JUL formats only with parameters; SLF4J always
  Segs v = dialect == msg::Braces::kMessageFormat && rest.empty() ? fmt : msg::ApplyBraces(fmt, rest, dialect);
  Site site = NewSite(SiteKind::kLog, call, call);
  site.log_level = level;
  site.error_class_expr = std::string(Text(ts_node_child_by_field_name(call, "name", 4)));
  SetMessage(site, v, args[first]);
  Finish(std::move(site));
}

bool JavaWalker::Enter(TSNode node, std::string_view field) {
  TSNode parent = Parent();
  auto condition = [&](TSNode stmt) {
    std::string_view c = Text(ts_node_child_by_field_name(stmt, "condition", 9));
    if (c.size() >= 2 && c.front() == '(' && c.back() == ')') c = c.substr(1, c.size() - 2);
    return std::string(c);
  };
  if (Is(parent, "if_statement")) {
    if (field == "consequence") PushGuard(condition(parent));
    else if (field == "alternative") PushGuard("not (" + condition(parent) + ")");
  } else if (Is(parent, "while_statement") && field == "body") {
    PushGuard(condition(parent));
  }
  const char* type = ts_node_type(node);
  switch (type[0]) {
    case 'c':
      if (std::strcmp(type, "class_declaration") == 0)
        PushType(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
      else if (std::strcmp(type, "constructor_declaration") == 0 || std::strcmp(type, "compact_constructor_declaration") == 0)
        PushFunction("<init>");
      else if (std::strcmp(type, "catch_clause") == 0) {
        for (TSNode k : NamedChildren(node))
          if (Is(k, "catch_formal_parameter")) PushCatch("catch (" + std::string(Text(k)) + ")");
      }
      break;
    case 'e':
      if (std::strcmp(type, "enum_declaration") == 0)
        PushType(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
      break;
    case 'i':
      if (std::strcmp(type, "interface_declaration") == 0)
        PushType(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
      break;
    case 'm':
      if (std::strcmp(type, "method_declaration") == 0)
        PushFunction(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
      else if (std::strcmp(type, "method_invocation") == 0)
        HandleInvocation(node);
      break;
    case 'r':
      if (std::strcmp(type, "record_declaration") == 0)
        PushType(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
      break;
    case 's':
      if (std::strcmp(type, "static_initializer") == 0) {
        PushFunction("<clinit>");
      } else if (std::strcmp(type, "switch_block_statement_group") == 0 || std::strcmp(type, "switch_rule") == 0) {
        TSNode sw = Parent(1);
        std::string value = Is(sw, "switch_expression") || Is(sw, "switch_statement") ? condition(sw) : std::string();
        std::string labels;
        bool is_default = false;
        for (TSNode k : NamedChildren(node)) {
          if (!Is(k, "switch_label")) continue;
          std::vector<TSNode> vals = NamedChildrenNoComments(k);
          if (vals.empty()) is_default = true;
          for (TSNode v : vals) labels += (labels.empty() ? "" : ", ") + std::string(Text(v));
        }
        PushGuard(is_default && labels.empty() ? std::string("default") : value + " == " + labels);
      }
      break;
    case 't':
      if (std::strcmp(type, "throw_statement") == 0) HandleThrow(node);
      break;
    default:
      break;
  }
  return true;
}

}  // namespace

TsExtractResult ExtractJava(std::string_view path, std::string_view text, const TsExtractOptions& options) {
  TsExtractResult result;
  // Every form java_extractor.h lists is spelled with one of these words (check covers
  // Guava's checkArgument/checkState/checkNotNull, warn covers warning); a file with
  // none (an interface, a record, a DTO) is not parsed: no sites, no syntax diagnostic.
  if (!ContainsAnyOf(text, {"throw", "check", "requireNonNull", "Validate.", "Assert.", "error", "warn", "fatal", "severe", "SEVERE", "WARNING"}))
    return result;
  TsTree tree = TsParse(tree_sitter_java(), "Java", path, text, options, result);
  if (!tree) return result;
  JavaWalker walker(path, text, options);
  TSNode root = ts_tree_root_node(tree.get());
  walker.CollectFields(root);
  walker.Run(root);
  walker.TakeInto(result);
  return result;
}

#endif  // ERRDEX_HAVE_TREE_SITTER

}  // namespace errdex
