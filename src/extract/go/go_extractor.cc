// The Go front end (see go_extractor.h).
#include "extract/go/go_extractor.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "extract/common/message.h"

#ifdef ERRDEX_HAVE_TREE_SITTER
extern "C" const TSLanguage* tree_sitter_go(void);
#endif

namespace errdex {

#ifndef ERRDEX_HAVE_TREE_SITTER

TsExtractResult ExtractGo(std::string_view path, std::string_view, const TsExtractOptions&) {
  TsExtractResult r;
  r.failed = true;
  r.diagnostics.push_back({std::string(path), 0, 0, "the Go grammar was not built (scripts/fetch-third-party.sh)"});
  return r;
}

#else

namespace {

using msg::Segs;

bool Is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

// net/http's Status constants (4xx/5xx) -> code.
std::optional<int> HttpStatusConstant(std::string_view name) {
  static const std::unordered_map<std::string_view, int> kCodes = {
      {"StatusBadRequest", 400}, {"StatusUnauthorized", 401}, {"StatusPaymentRequired", 402},
      {"StatusForbidden", 403}, {"StatusNotFound", 404}, {"StatusMethodNotAllowed", 405},
      {"StatusNotAcceptable", 406}, {"StatusProxyAuthRequired", 407}, {"StatusRequestTimeout", 408},
      {"StatusConflict", 409}, {"StatusGone", 410}, {"StatusLengthRequired", 411},
      {"StatusPreconditionFailed", 412}, {"StatusRequestEntityTooLarge", 413}, {"StatusRequestURITooLong", 414},
      {"StatusUnsupportedMediaType", 415}, {"StatusRequestedRangeNotSatisfiable", 416},
      {"StatusExpectationFailed", 417}, {"StatusTeapot", 418}, {"StatusMisdirectedRequest", 421},
      {"StatusUnprocessableEntity", 422}, {"StatusLocked", 423}, {"StatusFailedDependency", 424},
      {"StatusTooEarly", 425}, {"StatusUpgradeRequired", 426}, {"StatusPreconditionRequired", 428},
      {"StatusTooManyRequests", 429}, {"StatusRequestHeaderFieldsTooLarge", 431},
      {"StatusUnavailableForLegalReasons", 451}, {"StatusInternalServerError", 500}, {"StatusNotImplemented", 501},
      {"StatusBadGateway", 502}, {"StatusServiceUnavailable", 503}, {"StatusGatewayTimeout", 504},
      {"StatusHTTPVersionNotSupported", 505}, {"StatusVariantAlsoNegotiates", 506},
      {"StatusInsufficientStorage", 507}, {"StatusLoopDetected", 508}, {"StatusNotExtended", 510},
      {"StatusNetworkAuthenticationRequired", 511}};
  auto it = kCodes.find(name);
  if (it == kCodes.end()) return std::nullopt;
  return it->second;
}

std::string_view AfterLastDot(std::string_view s) {
  size_t k = s.rfind('.');
  return k == std::string_view::npos ? s : s.substr(k + 1);
}

class GoWalker : public TsWalker {
 public:
  GoWalker(std::string_view path, std::string_view text, const TsExtractOptions& options)
      : TsWalker(path, text, "go", options) {
    if (path.size() >= 8 && path.substr(path.size() - 8) == "_test.go") file_in_tests_ = true;
  }

  // Package-level string constants and sentinel vars of this file.
  void CollectDeclarations(TSNode root);

 protected:
  bool Enter(TSNode node, std::string_view field) override;

 private:
  std::vector<TSNode> Args(TSNode call) const;
  // `consts`: resolve package-level constants (a constant's own value is read
  // without: a constant built from literals and `+` only).
  Segs Eval(TSNode e, int depth, bool consts = true);
  Segs Printf(const std::vector<TSNode>& args, size_t first, int depth);
  void HandleCall(TSNode call);
  void SetMessage(Site& site, const Segs& segs, TSNode expr);
  std::string Guard(TSNode node, std::string_view field) const;

  std::unordered_map<std::string, TSNode> consts_;      // name -> value expression
  std::unordered_map<uintptr_t, std::string> sentinels_;  // call node id -> var name
};

std::vector<TSNode> GoWalker::Args(TSNode call) const {
  std::vector<TSNode> out;
  TSNode list = ts_node_child_by_field_name(call, "arguments", 9);
  if (ts_node_is_null(list)) return out;
  TSTreeCursor c = ts_tree_cursor_new(list);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode ch = ts_tree_cursor_current_node(&c);
      if (ts_node_is_named(ch) && !Is(ch, "comment")) out.push_back(ch);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

void GoWalker::CollectDeclarations(TSNode root) {
  for (TSNode decl : NamedChildren(root)) {
    bool is_const = Is(decl, "const_declaration");
    if (!is_const && !Is(decl, "var_declaration")) continue;
    std::vector<TSNode> specs;
    for (TSNode ch : NamedChildren(decl)) {
      if (Is(ch, "const_spec") || Is(ch, "var_spec")) specs.push_back(ch);
      if (Is(ch, "var_spec_list"))
        for (TSNode v : NamedChildren(ch))
          if (Is(v, "var_spec")) specs.push_back(v);
    }
    for (TSNode spec : specs) {
      // exactly one name and one value
      TSNode name{};
      int names = 0;
      TSTreeCursor c = ts_tree_cursor_new(spec);
      if (ts_tree_cursor_goto_first_child(&c)) {
        do {
          const char* f = ts_tree_cursor_current_field_name(&c);
          if (f && std::strcmp(f, "name") == 0) {
            name = ts_tree_cursor_current_node(&c);
            ++names;
          }
        } while (ts_tree_cursor_goto_next_sibling(&c));
      }
      ts_tree_cursor_delete(&c);
      TSNode value = ts_node_child_by_field_name(spec, "value", 5);
      if (names != 1 || !Is(value, "expression_list") || ts_node_named_child_count(value) != 1) continue;
      TSNode v = ts_node_named_child(value, 0);
      if (is_const) {
        consts_[std::string(Text(name))] = v;
      } else if (Is(v, "call_expression")) {
        sentinels_[reinterpret_cast<uintptr_t>(v.id)] = std::string(Text(name));
      }
    }
  }
}

Segs GoWalker::Printf(const std::vector<TSNode>& args, size_t first, int depth) {
  if (first >= args.size()) return {};
  Segs fmt = Eval(args[first], depth + 1);
  std::vector<Segs> rest;
  for (size_t i = first + 1; i < args.size(); ++i) {
    if (Is(args[i], "variadic_argument")) break;  // args... : unknown count
    rest.push_back(Eval(args[i], depth + 1));
  }
  return msg::ApplyPrintf(fmt, rest, msg::Printf::kGo);
}

Segs GoWalker::Eval(TSNode e, int depth, bool consts) {
  if (ts_node_is_null(e)) return {};
  if (depth > kMaxEvalDepth) return {msg::Hole(std::string(Text(e)))};
  if (Is(e, "interpreted_string_literal")) {
    std::string_view t = Text(e);
    if (t.size() >= 2) t = t.substr(1, t.size() - 2);
    return {msg::Lit(DecodeEscapes(t, EscapeDialect::kGo))};
  }
  if (Is(e, "raw_string_literal")) {
    std::string_view t = Text(e);
    if (t.size() >= 2) t = t.substr(1, t.size() - 2);
    std::string s;
    for (char c : t)
      if (c != '\r') s.push_back(c);
    return {msg::Lit(std::move(s))};
  }
  if (Is(e, "parenthesized_expression")) return Eval(ts_node_named_child(e, 0), depth + 1, consts);
  if (Is(e, "binary_expression")) {
    TSNode op = ts_node_child_by_field_name(e, "operator", 8);
    if (Text(op) == "+") {
      Segs out = Eval(ts_node_child_by_field_name(e, "left", 4), depth + 1, consts);
      msg::AppendAll(out, Eval(ts_node_child_by_field_name(e, "right", 5), depth + 1, consts));
      return out;
    }
  }
  if (Is(e, "identifier") && consts) {
    auto it = consts_.find(std::string(Text(e)));
    if (it != consts_.end()) {
      Segs v = Eval(it->second, depth + 1, false);
      if (std::none_of(v.begin(), v.end(), [](const msg::Seg& s) { return s.hole; })) return v;
    }
  }
  if (!consts) return {msg::Hole(std::string(Text(e)))};
  if (Is(e, "call_expression")) {
    TSNode fn = ts_node_child_by_field_name(e, "function", 8);
    if (Is(fn, "selector_expression")) {
      std::string_view recv = Text(ts_node_child_by_field_name(fn, "operand", 7));
      std::string_view m = Text(ts_node_child_by_field_name(fn, "field", 5));
      std::vector<TSNode> args = Args(e);
      if (recv == "fmt" && (m == "Sprintf" || m == "Errorf")) return Printf(args, 0, depth + 1);
      if ((recv == "errors" || recv == "xerrors") && m == "New" && args.size() == 1) return Eval(args[0], depth + 1);
    }
  }
  return {msg::Hole(std::string(Text(e)))};
}

void GoWalker::SetMessage(Site& site, const Segs& segs, TSNode expr) {
  if (!ts_node_is_null(expr)) site.message_expr = std::string(Text(expr));
  if (segs.empty()) return;
  msg::RenderInto(site, msg::Alts{segs});
  if (site.error_message) site.message_resolution = "literal";
}

void GoWalker::HandleCall(TSNode call) {
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  std::vector<TSNode> args;
  if (Is(fn, "identifier")) {
    if (Text(fn) != "panic") return;
    args = Args(call);
    if (args.size() != 1) return;
    Site site = NewSite(SiteKind::kPanic, call, call);
    site.error_class = "panic";
    site.error_class_expr = "panic";
    SetMessage(site, Eval(args[0], 0), args[0]);
    Finish(std::move(site));
    return;
  }
  if (!Is(fn, "selector_expression")) return;
  TSNode operand = ts_node_child_by_field_name(fn, "operand", 7);
  std::string_view recv = Is(operand, "identifier") ? Text(operand) : std::string_view();
  std::string_view m = Text(ts_node_child_by_field_name(fn, "field", 5));
  args = Args(call);
  if (args.empty()) return;
  auto sentinel = [&]() -> std::string {
    auto it = sentinels_.find(reinterpret_cast<uintptr_t>(call.id));
    return it == sentinels_.end() ? "error" : it->second;
  };
  bool errors_pkg = recv == "errors" || recv == "xerrors" || recv == "pkgerrors";
  if ((errors_pkg && m == "New" && args.size() == 1) || ((errors_pkg || recv == "fmt") && m == "Errorf")) {
    Site site = NewSite(SiteKind::kRaise, call, call);
    site.error_class = sentinel();
    site.error_class_expr = std::string(Text(fn));
    SetMessage(site, m == "New" ? Eval(args[0], 0) : Printf(args, 0, 0), args[0]);
    Finish(std::move(site));
    return;
  }
  if (errors_pkg && (m == "Wrap" || m == "Wrapf") && args.size() >= 2) {
    Site site = NewSite(SiteKind::kRaise, call, call);
    site.error_class = sentinel();
    site.error_class_expr = std::string(Text(fn));
    Segs v = m == "Wrap" ? Eval(args[1], 0) : Printf(args, 1, 0);
    msg::Append(v, msg::Lit(": "));
    msg::Append(v, msg::Hole(std::string(Text(args[0]))));
    SetMessage(site, v, args[1]);
    Finish(std::move(site));
    return;
  }
  if (recv == "status" && (m == "Errorf" || m == "Error" || m == "New" || m == "Newf") && args.size() >= 2) {
    Site site = NewSite(SiteKind::kHttpResponse, call, call);
    site.error_class = std::string(AfterLastDot(Text(args[0])));
    site.error_code = std::string(Text(args[0]));
    site.error_class_expr = std::string(Text(fn));
    SetMessage(site, (m == "Errorf" || m == "Newf") ? Printf(args, 1, 0) : Eval(args[1], 0), args[1]);
    Finish(std::move(site));
    return;
  }
  if (recv == "http" && m == "Error" && args.size() == 3) {
    Site site = NewSite(SiteKind::kHttpResponse, call, call);
    site.error_class_expr = "http.Error";
    std::string_view code = Text(args[2]);
    if (Is(args[2], "int_literal")) {
      int v = 0;
      for (char c : code) v = c >= '0' && c <= '9' && v < 1000 ? v * 10 + (c - '0') : v;
      site.http_status = v;
    } else if (auto s = HttpStatusConstant(AfterLastDot(code))) {
      site.http_status = s;
    }
    SetMessage(site, Eval(args[1], 0), args[1]);
    Finish(std::move(site));
    return;
  }
  if (recv == "fmt" || errors_pkg || recv == "status" || recv == "http") return;
  bool std_log = recv == "log" || recv == "klog" || recv == "glog";
  auto starts = [&](std::string_view p) { return m.substr(0, p.size()) == p; };
  bool is_printf = !m.empty() && m.back() == 'f';
  // The program stops: Fatal*/Exit* (fatal), Panic* (panic) on the standard loggers.
  if (starts("Fatal") || (std_log && (starts("Exit") || starts("Panic")))) {
    if (m != "Fatal" && m != "Fatalf" && m != "Fatalln" && m != "Fatalw" && m != "Exit" && m != "Exitf" &&
        m != "Exitln" && m != "Panic" && m != "Panicf" && m != "Panicln")
      return;
    Site site = NewSite(SiteKind::kPanic, call, call);
    site.error_class = starts("Panic") ? "panic" : "fatal";
    site.error_class_expr = std::string(Text(fn));
    Segs v = is_printf ? Printf(args, 0, 0) : Eval(args[0], 0);
    SetMessage(site, v, args[0]);
    Finish(std::move(site));
    return;
  }
  static const char* const kError[] = {"Error", "Errorf", "Errorw", "Errorln", "ErrorS", "ErrorContext"};
  static const char* const kWarn[] = {"Warn", "Warnf", "Warnw", "Warnln", "Warning", "Warningf", "Warningln",
                                      "WarningS", "WarnContext"};
  const char* level = nullptr;
  for (const char* e : kError)
    if (m == e) level = "error";
  for (const char* w : kWarn)
    if (m == w) level = "warning";
  if (!level) return;
  Segs v;
  TSNode expr{};
  size_t first = m == "ErrorContext" || m == "WarnContext" ? 1 : 0;  // slog: ctx first
  if (is_printf) {
    v = Printf(args, first, 0);
    expr = first < args.size() ? args[first] : TSNode{};
  } else {
    for (size_t k = first; k < args.size() && k < first + 2; ++k) {
      Segs x = Eval(args[k], 0);
      if (msg::HasLiteral(x)) {
        v = std::move(x);
        expr = args[k];
        break;
      }
    }
  }
  if (!msg::HasLiteral(v)) return;
  Site site = NewSite(SiteKind::kLog, call, call);
  site.log_level = level;
  site.error_class_expr = std::string(Text(fn));
  SetMessage(site, v, expr);
  Finish(std::move(site));
}

std::string GoWalker::Guard(TSNode node, std::string_view field) const {
  (void)field;
  TSNode sw = Parent();
  if (Is(node, "expression_case")) {
    std::string cases(Text(ts_node_child_by_field_name(node, "value", 5)));
    TSNode value = ts_node_child_by_field_name(sw, "value", 5);
    return ts_node_is_null(value) ? cases : std::string(Text(value)) + " == " + cases;
  }
  if (Is(node, "type_case")) {
    std::string types;
    TSTreeCursor c = ts_tree_cursor_new(node);
    if (ts_tree_cursor_goto_first_child(&c)) {
      do {
        const char* f = ts_tree_cursor_current_field_name(&c);
        if (f && std::strcmp(f, "type") == 0) {
          if (!types.empty()) types += ", ";
          types += Text(ts_tree_cursor_current_node(&c));
        }
      } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    return std::string(Text(ts_node_child_by_field_name(sw, "value", 5))) + ".(type) is " + types;
  }
  if (Is(node, "default_case")) return "default";
  if (Is(node, "communication_case"))
    return "select " + std::string(Text(ts_node_child_by_field_name(node, "communication", 13)));
  return {};
}

bool GoWalker::Enter(TSNode node, std::string_view field) {
  TSNode parent = Parent();
  if (Is(parent, "if_statement")) {
    if (field == "consequence") PushGuard(std::string(Text(ts_node_child_by_field_name(parent, "condition", 9))));
    else if (field == "alternative")
      PushGuard("not (" + std::string(Text(ts_node_child_by_field_name(parent, "condition", 9))) + ")");
  }
  const char* type = ts_node_type(node);
  switch (type[0]) {
    case 'c':
      if (std::strcmp(type, "call_expression") == 0) HandleCall(node);
      else if (std::strcmp(type, "communication_case") == 0) PushGuard(Guard(node, field));
      break;
    case 'd':
      if (std::strcmp(type, "default_case") == 0) PushGuard("default");
      break;
    case 'e':
      if (std::strcmp(type, "expression_case") == 0) PushGuard(Guard(node, field));
      break;
    case 'f':
      if (std::strcmp(type, "function_declaration") == 0)
        PushFunction(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
      break;
    case 'm':
      if (std::strcmp(type, "method_declaration") == 0) {
        // (s *Server) -> Server; (Server[T]) -> Server
        TSNode recv = ts_node_child_by_field_name(node, "receiver", 8);
        TSNode param = ts_node_named_child(recv, 0);
        TSNode t = ts_node_child_by_field_name(param, "type", 4);
        while (Is(t, "pointer_type") || Is(t, "generic_type") || Is(t, "parenthesized_type"))
          t = Is(t, "generic_type") ? ts_node_child_by_field_name(t, "type", 4) : ts_node_named_child(t, 0);
        if (!ts_node_is_null(t)) PushType(std::string(Text(t)));
        PushFunction(std::string(Text(ts_node_child_by_field_name(node, "name", 4))));
      }
      break;
    case 't':
      if (std::strcmp(type, "type_case") == 0) PushGuard(Guard(node, field));
      break;
    default:
      break;
  }
  return true;
}

}  // namespace

TsExtractResult ExtractGo(std::string_view path, std::string_view text, const TsExtractOptions& options) {
  TsExtractResult result;
  // Every form go_extractor.h lists is spelled with one of these words (Error covers
  // Errorf/ErrorS/http.Error/status.Error, Warn covers Warning*); a quarter of Go's own
  // library holds none, and such a file is not parsed (no sites, no syntax diagnostic).
  if (!ContainsAnyOf(text, {"errors.", "Error", "panic", "Panic", "Fatal", "Exit", "Warn", "status."})) return result;
  TsTree tree = TsParse(tree_sitter_go(), "Go", path, text, options, result);
  if (!tree) return result;
  GoWalker walker(path, text, options);
  TSNode root = ts_tree_root_node(tree.get());
  walker.CollectDeclarations(root);
  walker.Run(root);
  walker.TakeInto(result);
  return result;
}

#endif  // ERRDEX_HAVE_TREE_SITTER

}  // namespace errdex
