// The JavaScript / TypeScript front end (see js_extractor.h): one tree-sitter
// parse per file, then one iterative walk of the tree (a TSTreeCursor, so a
// 100,000-deep file cannot overflow the stack) that keeps a context stack of
// enclosing functions/classes, if/else/while/switch guards, catch clauses and
// variable bindings, and turns throw statements and a few well-known calls into
// Sites. Tested by js_extractor_test.cc.
#include "extract/javascript/js_extractor.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>

#include "extract/common/message.h"
#include "model/utf8.h"

#ifdef ERRDEX_HAVE_TREE_SITTER
#include <tree_sitter/api.h>

extern "C" {
const TSLanguage* tree_sitter_javascript(void);
const TSLanguage* tree_sitter_typescript(void);
const TSLanguage* tree_sitter_tsx(void);
}
#endif

namespace errdex {

JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript) {
  return ExtractJavaScript(path, text, typescript, JsExtractOptions{});
}

#ifndef ERRDEX_HAVE_TREE_SITTER

JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript,
                                  const JsExtractOptions& options) {
  JsExtractResult result;
  result.failed = true;
  result.diagnostics.push_back(Diagnostic{
      std::string(path), 0, 0,
      std::string(typescript ? "TypeScript" : "JavaScript") +
          " grammar not built: run scripts/fetch-third-party.sh and reconfigure"});
  return result;
}

#else  // ERRDEX_HAVE_TREE_SITTER

namespace {

constexpr int kMaxMessageDepth = 48;   // nesting of + / ?: / variables followed in a message
constexpr int kMaxVariableHops = 8;    // msg = a; a = b; ... followed at most this far
// Work and size bounds of one message's evaluation: variables referring to other
// variables several times each (`b = a + a + a; c = b + b + b; ...`) would
// otherwise grow exponentially. Past either bound (this one, or
// msg::kMaxMessageBytes) the message is unknown.
constexpr int kMaxEvalSteps = 4096;

// ---------------------------------------------------------------------------
// Small helpers on nodes and text.

bool Is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

bool IsClasslike(std::string_view name) {
  size_t i = 0;
  while (i < name.size() && (name[i] == '_' || name[i] == '$')) ++i;
  return i < name.size() && name[i] >= 'A' && name[i] <= 'Z';
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// Lone surrogates and out-of-range values become U+FFFD (JavaScript strings allow them).
void AppendCodePoint(std::string& out, uint32_t cp) {
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0xFFFD;
  AppendUtf8(out, cp);
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads exactly `count` hex digits at s[i]; -1 when they are not all hex.
int64_t ReadHex(std::string_view s, size_t i, size_t count) {
  if (i + count > s.size()) return -1;
  int64_t v = 0;
  for (size_t k = 0; k < count; ++k) {
    int h = HexValue(s[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

// The cooked value of the body of a string or template literal (quotes/backticks
// and ${} excluded): escape sequences decoded, line continuations removed and,
// in templates, CR/CRLF turned into LF. Malformed escapes keep their character.
std::string DecodeJsLiteral(std::string_view raw, bool tmpl) {
  std::string out;
  out.reserve(raw.size());
  const size_t n = raw.size();
  for (size_t i = 0; i < n; ++i) {
    char c = raw[i];
    if (tmpl && c == '\r') {
      out.push_back('\n');
      if (i + 1 < n && raw[i + 1] == '\n') ++i;
      continue;
    }
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (i + 1 >= n) {
      out.push_back('\\');
      break;
    }
    char e = raw[++i];
    switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'v': out.push_back('\v'); break;
      case '\r':  // line continuation
        if (i + 1 < n && raw[i + 1] == '\n') ++i;
        break;
      case '\n':
        break;
      case 'x': {
        int64_t v = ReadHex(raw, i + 1, 2);
        if (v < 0) {
          out.push_back('x');
        } else {
          AppendCodePoint(out, static_cast<uint32_t>(v));
          i += 2;
        }
        break;
      }
      case 'u': {
        if (i + 1 < n && raw[i + 1] == '{') {
          size_t close = raw.find('}', i + 2);
          int64_t v = -1;
          if (close != std::string_view::npos && close > i + 2 && close - (i + 2) <= 8)
            v = ReadHex(raw, i + 2, close - (i + 2));
          if (v < 0) {
            out.push_back('u');
          } else {
            AppendCodePoint(out, static_cast<uint32_t>(std::min<int64_t>(v, 0x110000)));
            i = close;
          }
          break;
        }
        int64_t v = ReadHex(raw, i + 1, 4);
        if (v < 0) {
          out.push_back('u');
          break;
        }
        i += 4;
        if (v >= 0xD800 && v <= 0xDBFF && i + 2 < n && raw[i + 1] == '\\' && raw[i + 2] == 'u') {
          int64_t lo = ReadHex(raw, i + 3, 4);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
        }
        AppendCodePoint(out, static_cast<uint32_t>(v));
        break;
      }
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        if (tmpl || (e == '0' && (i + 1 >= n || raw[i + 1] < '0' || raw[i + 1] > '9'))) {
          if (e == '0') {
            out.push_back('\0');
          } else {
            out.push_back(e);
          }
          break;
        }
        // Legacy octal escape (sloppy-mode strings): up to 3 digits, value <= 0377.
        uint32_t v = static_cast<uint32_t>(e - '0');
        size_t max_digits = e <= '3' ? 2 : 1;
        for (size_t k = 0; k < max_digits && i + 1 < n && raw[i + 1] >= '0' && raw[i + 1] <= '7'; ++k)
          v = v * 8 + static_cast<uint32_t>(raw[++i] - '0');
        AppendCodePoint(out, v);
        break;
      }
      default:
        // \' \" \\ \` \$ and any other character stand for themselves; a multi-byte
        // UTF-8 character's continuation bytes are copied by the next iterations.
        out.push_back(e);
        break;
    }
  }
  return out;
}

// Messages as segments (literal text and holes), their alternatives and their
// rendering into a Site: the shared forms of extract/common/message.h.
using msg::Alts;
using msg::Seg;
using msg::Segs;

bool TooBig(const Alts& alts) { return msg::Bytes(alts) > msg::kMaxMessageBytes; }

// ---------------------------------------------------------------------------
// HTTP status names (IANA reason phrases as UPPER_SNAKE, the spelling of Python's
// HTTPStatus, NestJS's HttpStatus and http-status-codes' StatusCodes).

struct StatusName {
  int code;
  const char* name;
};
constexpr StatusName kStatusNames[] = {
    {400, "BAD_REQUEST"}, {401, "UNAUTHORIZED"}, {402, "PAYMENT_REQUIRED"}, {403, "FORBIDDEN"},
    {404, "NOT_FOUND"}, {405, "METHOD_NOT_ALLOWED"}, {406, "NOT_ACCEPTABLE"},
    {407, "PROXY_AUTHENTICATION_REQUIRED"}, {408, "REQUEST_TIMEOUT"}, {409, "CONFLICT"},
    {410, "GONE"}, {411, "LENGTH_REQUIRED"}, {412, "PRECONDITION_FAILED"},
    {413, "PAYLOAD_TOO_LARGE"}, {413, "REQUEST_ENTITY_TOO_LARGE"}, {413, "CONTENT_TOO_LARGE"},
    {414, "URI_TOO_LONG"}, {414, "REQUEST_URI_TOO_LONG"}, {415, "UNSUPPORTED_MEDIA_TYPE"},
    {416, "REQUESTED_RANGE_NOT_SATISFIABLE"}, {416, "RANGE_NOT_SATISFIABLE"},
    {417, "EXPECTATION_FAILED"}, {418, "I_AM_A_TEAPOT"}, {418, "IM_A_TEAPOT"},
    {421, "MISDIRECTED_REQUEST"}, {422, "UNPROCESSABLE_ENTITY"}, {422, "UNPROCESSABLE_CONTENT"},
    {423, "LOCKED"}, {424, "FAILED_DEPENDENCY"}, {425, "TOO_EARLY"}, {426, "UPGRADE_REQUIRED"},
    {428, "PRECONDITION_REQUIRED"}, {429, "TOO_MANY_REQUESTS"},
    {431, "REQUEST_HEADER_FIELDS_TOO_LARGE"}, {451, "UNAVAILABLE_FOR_LEGAL_REASONS"},
    {500, "INTERNAL_SERVER_ERROR"}, {501, "NOT_IMPLEMENTED"}, {502, "BAD_GATEWAY"},
    {503, "SERVICE_UNAVAILABLE"}, {504, "GATEWAY_TIMEOUT"}, {505, "HTTP_VERSION_NOT_SUPPORTED"},
    {506, "VARIANT_ALSO_NEGOTIATES"}, {507, "INSUFFICIENT_STORAGE"}, {508, "LOOP_DETECTED"},
    {510, "NOT_EXTENDED"}, {511, "NETWORK_AUTHENTICATION_REQUIRED"},
};

// NOT_FOUND -> NotFound.
std::string CamelStatus(const char* upper) {
  std::string out;
  bool up = true;
  for (const char* p = upper; *p; ++p) {
    if (*p == '_') {
      up = true;
      continue;
    }
    out.push_back(up ? *p : static_cast<char>(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
    up = false;
  }
  return out;
}

std::optional<int> StatusFromUpperName(std::string_view name) {
  for (const StatusName& s : kStatusNames)
    if (name == s.name) return s.code;
  return std::nullopt;
}

std::optional<int> StatusFromCamelName(std::string_view name) {
  for (const StatusName& s : kStatusNames)
    if (name == CamelStatus(s.name)) return s.code;
  return std::nullopt;
}

// The http-errors class name of a status: 404 -> NotFoundError, 500 -> InternalServerError.
std::string HttpErrorsClass(std::optional<int> status) {
  if (status) {
    for (const StatusName& s : kStatusNames) {
      if (s.code == *status) {
        std::string c = CamelStatus(s.name);
        if (c.size() < 5 || c.compare(c.size() - 5, 5, "Error") != 0) c += "Error";
        return c;
      }
    }
  }
  return "HttpError";
}

// ---------------------------------------------------------------------------
// The walk.

enum class CtxKind { kFunction, kClass, kGuard, kCatch, kScope };

struct Binding {
  enum Kind { kValue, kOpaque, kCatchParam };
  std::string_view name;
  Kind kind = kOpaque;
  TSNode value{};            // kValue: the assigned expression
  std::vector<TSNode> aug;   // later `name += expr` pieces
  int assigns = 1;           // `=` seen so far (declaration included)
};

struct Ctx {
  const void* owner;  // the node whose subtree this context covers
  CtxKind kind;
  std::string text;   // guard text, function/class name, catch header
  bool module = false;
  std::vector<Binding> bindings;
};

// Field ids of one grammar, looked up once per file (ts_node_child_by_field_name
// would look the name up on every call).
struct FieldIds {
  TSFieldId alternative = 0;
  TSFieldId arguments = 0;
  TSFieldId body = 0;
  TSFieldId condition = 0;
  TSFieldId consequence = 0;
  TSFieldId constructor = 0;
  TSFieldId function = 0;
  TSFieldId key = 0;
  TSFieldId left = 0;
  TSFieldId name = 0;
  TSFieldId object = 0;
  TSFieldId op = 0;
  TSFieldId parameter = 0;
  TSFieldId parameters = 0;
  TSFieldId pattern = 0;
  TSFieldId property = 0;
  TSFieldId right = 0;
  TSFieldId value = 0;
  explicit FieldIds(const TSLanguage* lang) {
    auto id = [lang](const char* n) { return ts_language_field_id_for_name(lang, n, static_cast<uint32_t>(std::strlen(n))); };
    alternative = id("alternative");
    arguments = id("arguments");
    body = id("body");
    condition = id("condition");
    consequence = id("consequence");
    constructor = id("constructor");
    function = id("function");
    key = id("key");
    left = id("left");
    name = id("name");
    object = id("object");
    op = id("operator");
    parameter = id("parameter");
    parameters = id("parameters");
    pattern = id("pattern");
    property = id("property");
    right = id("right");
    value = id("value");
  }
};

// What the walk needs to know of a node type, looked up by symbol (one array
// index per node instead of string compares).
enum class Kind : uint8_t {
  kOther,      // named, nothing special: descend
  kAnonymous,  // a token ("(", "if", ...): skip
  kLeaf,       // named but nothing inside can matter (strings, comments, numbers): skip
  kIf, kElse, kWhile, kSwitch, kSwitchCase, kSwitchDefault,
  kFunction, kClass, kCatch, kBlock,
  kThrow, kCall, kNew, kArguments,
  kDeclarator, kVarDeclaration, kAssignment, kAugmentedAssignment,
};

class KindTable {
 public:
  // The table of one of the three grammars, built once (thread-safe static init).
  static const KindTable& For(const TSLanguage* lang) {
    static const KindTable js(tree_sitter_javascript());
    static const KindTable ts(tree_sitter_typescript());
    static const KindTable tsx(tree_sitter_tsx());
    return lang == tsx.lang_ ? tsx : lang == ts.lang_ ? ts : js;
  }
  Kind Of(TSNode n) const {
    TSSymbol sym = ts_node_symbol(n);
    if (sym < kinds_.size()) return kinds_[sym];
    return ts_node_is_named(n) ? Kind::kOther : Kind::kAnonymous;
  }

 private:
  explicit KindTable(const TSLanguage* lang) : lang_(lang) {
    static constexpr std::pair<const char*, Kind> kNames[] = {
        {"if_statement", Kind::kIf}, {"else_clause", Kind::kElse}, {"while_statement", Kind::kWhile},
        {"switch_statement", Kind::kSwitch}, {"switch_case", Kind::kSwitchCase},
        {"switch_default", Kind::kSwitchDefault},
        {"function_declaration", Kind::kFunction}, {"function_expression", Kind::kFunction},
        {"function", Kind::kFunction}, {"generator_function_declaration", Kind::kFunction},
        {"generator_function", Kind::kFunction}, {"arrow_function", Kind::kFunction},
        {"method_definition", Kind::kFunction},
        {"class_declaration", Kind::kClass}, {"class", Kind::kClass}, {"abstract_class_declaration", Kind::kClass},
        {"catch_clause", Kind::kCatch}, {"statement_block", Kind::kBlock},
        {"throw_statement", Kind::kThrow}, {"call_expression", Kind::kCall}, {"new_expression", Kind::kNew},
        {"arguments", Kind::kArguments},
        {"variable_declarator", Kind::kDeclarator}, {"variable_declaration", Kind::kVarDeclaration},
        {"assignment_expression", Kind::kAssignment},
        {"augmented_assignment_expression", Kind::kAugmentedAssignment},
        {"string", Kind::kLeaf}, {"comment", Kind::kLeaf}, {"number", Kind::kLeaf}, {"regex", Kind::kLeaf},
        {"html_comment", Kind::kLeaf},
    };
    uint32_t count = ts_language_symbol_count(lang);
    kinds_.assign(count, Kind::kAnonymous);
    for (uint32_t i = 0; i < count; ++i) {
      TSSymbol sym = static_cast<TSSymbol>(i);
      TSSymbolType type = ts_language_symbol_type(lang, sym);
      if (type != TSSymbolTypeRegular) continue;  // anonymous tokens, auxiliary and supertype symbols
      kinds_[i] = Kind::kOther;
      const char* name = ts_language_symbol_name(lang, sym);
      for (const auto& [n, k] : kNames)
        if (name && std::strcmp(name, n) == 0) kinds_[i] = k;
    }
  }
  const TSLanguage* lang_;
  std::vector<Kind> kinds_;
};

class Walker {
 public:
  Walker(std::string_view path, std::string_view text, bool typescript, const TSLanguage* lang,
         const JsExtractOptions& options)
      : path_(path), text_(text), typescript_(typescript), limits_(options.limits),
        max_name_parts_(options.max_name_parts), fields_(lang),
        kinds_(KindTable::For(lang)) {
    in_tests_ = InTests(path);
  }

  void Run(TSNode root);

  std::vector<Site> sites;
  size_t sites_left_out = 0;
  int syntax_errors = 0;
  TSPoint first_error{0, 0};

 private:
  std::string_view Text(TSNode n) const {
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (b > text_.size() || e > text_.size() || e < b) return {};
    return text_.substr(b, e - b);
  }
  static TSNode Field(TSNode n, TSFieldId id) {
    return id == 0 ? TSNode{} : ts_node_child_by_field_id(n, id);
  }
  static TSNode FirstNamed(TSNode n) {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (!Is(c, "comment")) return c;
    }
    return TSNode{};
  }
  // Positional arguments of an `arguments` node (comments skipped).
  static std::vector<TSNode> Args(TSNode args) {
    std::vector<TSNode> out;
    if (ts_node_is_null(args) || !Is(args, "arguments")) return out;
    uint32_t count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(args, i);
      if (!Is(c, "comment")) out.push_back(c);
    }
    return out;
  }
  // Strips parentheses and TypeScript-only wrappers (x as T, x!, <T>x, x satisfies T).
  static TSNode Unwrap(TSNode n) {
    for (int guard = 0; guard < 64 && !ts_node_is_null(n); ++guard) {
      if (Is(n, "parenthesized_expression") || Is(n, "as_expression") || Is(n, "non_null_expression") ||
          Is(n, "satisfies_expression")) {
        TSNode inner = FirstNamed(n);
        if (ts_node_is_null(inner)) return n;
        n = inner;
      } else if (Is(n, "type_assertion")) {
        uint32_t count = ts_node_named_child_count(n);
        if (count == 0) return n;
        n = ts_node_named_child(n, count - 1);
      } else {
        return n;
      }
    }
    return n;
  }
  // The last name of `a.b.C` / `C`; empty for anything else.
  std::string_view LastName(TSNode n) const {
    n = Unwrap(n);
    if (Is(n, "identifier") || Is(n, "property_identifier") || Is(n, "type_identifier") ||
        Is(n, "private_property_identifier") || Is(n, "this"))
      return Text(n);
    if (Is(n, "member_expression")) return Text(Field(n, fields_.property));
    return {};
  }

  static bool InTests(std::string_view path);

  bool Enter(TSNode node, Kind kind, TSNode parent, Kind parent_kind, TSNode grandparent, Kind grandparent_kind,
             TSFieldId field);
  void Leave(TSNode node) {
    while (!ctx_.empty() && ctx_.back().owner == node.id) ctx_.pop_back();
  }
  void Push(TSNode owner, CtxKind kind, std::string text) {
    ctx_.push_back(Ctx{owner.id, kind, std::move(text), false, {}});
  }

  std::string ConditionText(TSNode stmt) {
    TSNode cond = Field(stmt, fields_.condition);
    if (Is(cond, "parenthesized_expression")) {
      TSNode inner = FirstNamed(cond);
      if (!ts_node_is_null(inner)) cond = inner;
    }
    return std::string(Text(cond));
  }
  std::string FunctionName(TSNode fn, TSNode parent);
  void BindParams(TSNode fn, Ctx& ctx, Binding::Kind kind);
  void BindPattern(TSNode pattern, Ctx& ctx, Binding::Kind kind, int depth);
  void Declare(TSNode declarator, bool is_var);
  void Assign(TSNode assignment, bool augmented);
  Binding* Lookup(std::string_view name, bool* in_module, bool* crossed_function);

  // Site building.
  Site NewSite(SiteKind kind, TSNode at, TSNode end) const;
  // Keeps the site within the limits; past max_sites only counts it.
  void Finish(Site site) {
    if (sites.size() >= limits_.max_sites) {
      ++sites_left_out;
      return;
    }
    CapSite(site, limits_);
    sites.push_back(std::move(site));
  }
  void HandleThrow(TSNode stmt);
  void HandleCall(TSNode call);
  void HandleNew(TSNode expr);
  // Class + message of `new C(args)` / `C(args)`; returns false when not classlike.
  void FillConstructed(Site& site, TSNode callee, TSNode args_node);
  bool FillHttpConstructed(Site& site, std::string_view cls, const std::vector<TSNode>& args);
  void FillCreateError(Site& site, TSNode callee, const std::vector<TSNode>& args);
  std::optional<int> StatusValue(TSNode n) const;
  std::optional<int> StatusInInit(TSNode init) const;  // {status: 404}
  TSNode PickKey(TSNode object, int depth);            // {error: msg} / {message: msg}
  TSNode PickMessageArg(const std::vector<TSNode>& args, size_t skip_status_index);
  // `format_args`: the arguments after `msg` when it is a util.format-style format.
  void SetMessage(Site& site, TSNode msg, const std::vector<TSNode>* format_args = nullptr,
                  bool append_rest = false);
  Alts ApplyFormat(const Alts& fmt, const std::vector<TSNode>& args, bool append_rest, int depth);
  bool Consumed(TSNode n) const {
    return consumed_.count(n.id) != 0;
  }

  // Message evaluation.
  std::optional<Alts> Evaluate(TSNode n, int depth);
  Alts EvaluatePart(TSNode n, int depth);
  std::optional<Alts> EvaluateTemplate(TSNode n, int depth);

  std::string_view path_;
  std::string_view text_;
  bool typescript_;
  ExtractLimits limits_;
  size_t max_name_parts_;
  bool in_tests_ = false;
  FieldIds fields_;
  const KindTable& kinds_;
  std::vector<Ctx> ctx_;
  std::unordered_set<const void*> consumed_;  // call/new nodes already turned into a site by a throw
  // Per-message evaluation state.
  std::string resolution_;
  int variable_hops_ = 0;
  int eval_steps_left_ = 0;  // Evaluate() calls left for this message (see kMaxEvalSteps)
  bool exhausted_ = false;   // a bound was hit: the message is unknown
  // Evaluates one message expression from a fresh state; nullopt when it is not
  // a string expression or a work/size bound was hit.
  std::optional<Alts> EvaluateMessage(TSNode n) {
    resolution_ = "literal";
    variable_hops_ = 0;
    eval_steps_left_ = kMaxEvalSteps;
    exhausted_ = false;
    std::optional<Alts> v = Evaluate(n, 0);
    if (exhausted_) return std::nullopt;
    return v;
  }
};

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
    Binding b;
    b.name = Text(pattern);
    b.kind = kind;
    ctx.bindings.push_back(std::move(b));
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
      Binding b;
      b.name = Text(c);
      b.kind = kind;
      ctx.bindings.push_back(std::move(b));
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
  Site s;
  s.kind = kind;
  s.language = typescript_ ? "typescript" : "javascript";
  s.file_path = std::string(path_);
  TSPoint start = ts_node_start_point(at);
  s.line = static_cast<int>(start.row) + 1;
  s.column = static_cast<int>(start.column);
  TSPoint stop = ts_node_end_point(end);
  s.end_line = static_cast<int>(stop.row) + 1;
  if (stop.column == 0 && stop.row > start.row) s.end_line = static_cast<int>(stop.row);
  s.in_tests = in_tests_;
  // Context: names of enclosing functions/classes; guards and catch up to the
  // innermost function or class.
  // The innermost max_name_parts_ names, walking out from the site.
  std::vector<const std::string*> parts;
  for (auto it = ctx_.rbegin(); it != ctx_.rend() && parts.size() < max_name_parts_; ++it) {
    if ((it->kind == CtxKind::kFunction || it->kind == CtxKind::kClass) && !it->module && !it->text.empty())
      parts.push_back(&it->text);
  }
  std::string qual;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!qual.empty()) qual += ".";
    qual += **it;
  }
  s.function = qual.empty() ? "<module>" : qual;
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

// ---------------------------------------------------------------------------
// Message evaluation.

std::optional<Alts> Walker::Evaluate(TSNode n, int depth) {
  if (depth > kMaxMessageDepth || ts_node_is_null(n)) return std::nullopt;
  if (eval_steps_left_-- <= 0) {
    exhausted_ = true;
    return std::nullopt;
  }
  n = Unwrap(n);
  if (Is(n, "string")) {
    std::string_view t = Text(n);
    if (t.size() < 2) return std::nullopt;
    std::string lit = DecodeJsLiteral(t.substr(1, t.size() - 2), false);
    return Alts{Segs{Seg{false, std::move(lit)}}};
  }
  if (Is(n, "template_string")) return EvaluateTemplate(n, depth);
  if (Is(n, "binary_expression")) {
    if (Text(Field(n, fields_.op)) != "+") return std::nullopt;
    TSNode l = Field(n, fields_.left), r = Field(n, fields_.right);
    std::optional<Alts> le = Evaluate(l, depth + 1);
    std::optional<Alts> re = Evaluate(r, depth + 1);
    if (!le && !re) return std::nullopt;  // no string involved: not a message
    Alts la = le ? std::move(*le) : EvaluatePart(l, depth + 1);
    Alts ra = re ? std::move(*re) : EvaluatePart(r, depth + 1);
    Alts out = msg::Concat(la, ra);
    if (TooBig(out)) {
      exhausted_ = true;  // the whole message is unknown
      return std::nullopt;
    }
    return out;
  }
  if (Is(n, "ternary_expression")) {
    std::optional<Alts> c = Evaluate(Field(n, fields_.consequence), depth + 1);
    std::optional<Alts> a = Evaluate(Field(n, fields_.alternative), depth + 1);
    if (!c && !a) return std::nullopt;
    Alts out = c ? std::move(*c) : EvaluatePart(Field(n, fields_.consequence), depth + 1);
    Alts more = a ? std::move(*a) : EvaluatePart(Field(n, fields_.alternative), depth + 1);
    for (Segs& s : more)
      if (out.size() < msg::kMaxAlternatives) out.push_back(std::move(s));
    return out;
  }
  if (Is(n, "call_expression")) {
    // util.format("... %s", x) / format(...)
    std::string_view callee = Text(Field(n, fields_.function));
    if (callee != "util.format" && callee != "format" && callee != "node_util.format") return std::nullopt;
    std::vector<TSNode> args = Args(Field(n, fields_.arguments));
    if (args.empty()) return std::nullopt;
    std::optional<Alts> fmt = Evaluate(args[0], depth + 1);
    if (!fmt) return std::nullopt;
    std::vector<TSNode> rest(args.begin() + 1, args.end());
    if (rest.empty()) return fmt;
    return ApplyFormat(*fmt, rest, true, depth + 1);
  }
  if (Is(n, "identifier") || Is(n, "shorthand_property_identifier")) {  // {message} means {message: message}
    if (variable_hops_ >= kMaxVariableHops) return std::nullopt;
    bool in_module = false, crossed = false;
    Binding* b = Lookup(Text(n), &in_module, &crossed);
    if (!b || b->kind != Binding::kValue) return std::nullopt;
    TSNode value = b->value;
    std::vector<TSNode> aug = b->aug;  // copy: evaluation may not touch bindings, but be safe
    int assigns = b->assigns;
    ++variable_hops_;
    std::optional<Alts> v = Evaluate(value, depth + 1);
    if (v) {
      for (TSNode piece : aug) v = msg::Concat(*v, EvaluatePart(piece, depth + 1));
    }
    --variable_hops_;
    if (!v) return std::nullopt;
    if (resolution_ == "literal") {
      resolution_ = in_module ? "module-constant" : "variable";
      if (assigns > 1) resolution_ += "-multi";
      if (!aug.empty()) resolution_ += "+aug";
    }
    return v;
  }
  return std::nullopt;
}

Alts Walker::EvaluatePart(TSNode n, int depth) {
  std::optional<Alts> v = Evaluate(n, depth);
  if (v) return std::move(*v);
  TSNode u = Unwrap(n);
  if (Is(u, "number")) return Alts{Segs{Seg{false, std::string(Text(u))}}};
  // The hole is the expression as written, less any parentheses around it.
  for (int guard = 0; guard < 64 && Is(n, "parenthesized_expression") && !ts_node_is_null(FirstNamed(n)); ++guard)
    n = FirstNamed(n);
  return Alts{Segs{Seg{true, std::string(Text(n))}}};
}

std::optional<Alts> Walker::EvaluateTemplate(TSNode n, int depth) {
  uint32_t pos = ts_node_start_byte(n) + 1;  // after the backtick
  uint32_t end = ts_node_end_byte(n);
  if (end > pos && text_[end - 1] == '`') --end;
  Alts out{Segs{}};
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (!Is(c, "template_substitution")) continue;
    uint32_t b = ts_node_start_byte(c);
    if (b > pos) msg::Append(out[0], Seg{false, DecodeJsLiteral(text_.substr(pos, b - pos), true)});
    TSNode expr = FirstNamed(c);
    msg::Append(out[0], Seg{true, std::string(Text(expr))});
    pos = ts_node_end_byte(c);
  }
  if (end > pos) msg::Append(out[0], Seg{false, DecodeJsLiteral(text_.substr(pos, end - pos), true)});
  return out;
}

void Walker::SetMessage(Site& site, TSNode msg, const std::vector<TSNode>* format_args, bool append_rest) {
  if (ts_node_is_null(msg)) return;
  site.message_expr = std::string(Text(msg));
  std::optional<Alts> v = EvaluateMessage(msg);
  if (!v) return;
  if (format_args && !format_args->empty()) {
    v = ApplyFormat(*v, *format_args, append_rest, 0);
    if (exhausted_ || TooBig(*v)) return;
  }
  msg::RenderInto(site, *v);
  if (site.error_message) site.message_resolution = resolution_;
}

// util.format semantics (console.*, util.format, most loggers): with at least one
// argument after the format, each %s %d %i %f %j %o %O takes the next argument (a
// hole), %c takes one and shows nothing, %% is '%'; a specifier without an argument
// stays as written. With `append_rest` (console.*, util.format), arguments left over
// are appended, each after a space.
Alts Walker::ApplyFormat(const Alts& fmt, const std::vector<TSNode>& args, bool append_rest, int depth) {
  Alts out;
  for (const Segs& alt : fmt) {
    Alts cur{Segs{}};
    size_t next = 0;
    for (const Seg& seg : alt) {
      if (seg.hole) {
        for (Segs& c : cur) msg::Append(c, seg);
        continue;
      }
      std::string lit;
      const std::string& t = seg.text;
      for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '%' || i + 1 >= t.size()) {
          lit.push_back(t[i]);
          continue;
        }
        char c = t[i + 1];
        if (c == '%') {
          lit.push_back('%');
          ++i;
        } else if (std::strchr("sdifjoOc", c) != nullptr && next < args.size()) {
          for (Segs& x : cur) msg::Append(x, Seg{false, lit});
          lit.clear();
          if (c != 'c') {
            Alts piece = (c == 's') ? EvaluatePart(args[next], depth + 1)
                                    : Alts{Segs{Seg{true, std::string(Text(args[next]))}}};
            cur = msg::Concat(cur, piece);
          }
          ++next;
          ++i;
        } else {
          lit.push_back('%');
        }
      }
      for (Segs& x : cur) msg::Append(x, Seg{false, lit});
    }
    if (append_rest) {
      for (; next < args.size(); ++next) {
        for (Segs& x : cur) msg::Append(x, Seg{false, " "});
        cur = msg::Concat(cur, EvaluatePart(args[next], depth + 1));
      }
    }
    for (Segs& c : cur)
      if (out.size() < msg::kMaxAlternatives) out.push_back(std::move(c));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Sites.

std::optional<int> Walker::StatusValue(TSNode n) const {
  n = Unwrap(n);
  if (Is(n, "number")) {
    std::string_view t = Text(n);
    if (t.size() != 3) return std::nullopt;
    int v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    if (v >= 100 && v <= 599) return v;
    return std::nullopt;
  }
  std::string_view name = LastName(n);
  if (name.empty()) return std::nullopt;
  if (Is(n, "member_expression")) {
    if (auto s = StatusFromUpperName(name)) return s;  // HttpStatus.NOT_FOUND, StatusCodes.NOT_FOUND
  }
  // HTTP_404_NOT_FOUND, HTTP_STATUS_404 style constants.
  for (size_t i = 0; i + 3 <= name.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(name[i])) && std::isdigit(static_cast<unsigned char>(name[i + 1])) &&
        std::isdigit(static_cast<unsigned char>(name[i + 2])) && (i == 0 || name[i - 1] == '_') &&
        (i + 3 == name.size() || name[i + 3] == '_') && name.substr(0, 4) == "HTTP") {
      int v = (name[i] - '0') * 100 + (name[i + 1] - '0') * 10 + (name[i + 2] - '0');
      if (v >= 100 && v <= 599) return v;
    }
  }
  return std::nullopt;
}

std::optional<int> Walker::StatusInInit(TSNode init) const {
  init = Unwrap(init);
  if (!Is(init, "object")) return std::nullopt;
  uint32_t count = ts_node_named_child_count(init);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(init, i);
    if (!Is(p, "pair")) continue;
    std::string_view k = Text(Field(p, fields_.key));
    if (k == "status" || k == "statusCode" || k == "\"status\"" || k == "'status'") return StatusValue(Field(p, fields_.value));
  }
  return std::nullopt;
}

// In an object literal, the value of the key that holds the message; recurses
// one level into {error: {message: ...}}. Prefers a value with literal text.
TSNode Walker::PickKey(TSNode object, int depth) {
  static constexpr const char* kKeys[] = {"message", "error", "msg", "errorMessage", "error_message",
                                          "detail", "details", "description", "reason", "title"};
  object = Unwrap(object);
  if (!Is(object, "object") || depth > 2) return TSNode{};
  TSNode first_present{};
  for (const char* key : kKeys) {
    uint32_t count = ts_node_named_child_count(object);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode p = ts_node_named_child(object, i);
      std::string_view k;
      TSNode value{};
      if (Is(p, "pair")) {
        TSNode kn = Field(p, fields_.key);
        k = Text(kn);
        if (Is(kn, "string") && k.size() >= 2) k = k.substr(1, k.size() - 2);
        value = Field(p, fields_.value);
      } else if (Is(p, "shorthand_property_identifier")) {
        k = Text(p);
        value = p;  // {message} is {message: message}
      } else {
        continue;
      }
      if (k != key || ts_node_is_null(value)) continue;
      TSNode uv = Unwrap(value);
      if (Is(uv, "object")) {
        TSNode inner = PickKey(uv, depth + 1);
        if (!ts_node_is_null(inner)) value = inner;
      }
      std::optional<Alts> v = EvaluateMessage(value);
      if (v) {
        for (const Segs& s : *v)
          for (const Seg& seg : s)
            if (!seg.hole && !seg.text.empty()) return value;
      }
      if (ts_node_is_null(first_present)) first_present = value;
    }
  }
  return first_present;
}

// The message argument: the first one that evaluates to a string, else the first
// later one with literal text (`new AppError(Codes.X, "msg")`), else argument 0.
// An object argument contributes its message key. `skip` is an index to ignore
// (the status of an HTTP error), or SIZE_MAX.
TSNode Walker::PickMessageArg(const std::vector<TSNode>& args, size_t skip) {
  TSNode first{};
  for (size_t i = 0; i < args.size(); ++i) {
    if (i == skip) continue;
    if (Is(args[i], "spread_element")) break;
    TSNode a = args[i];
    if (Is(Unwrap(a), "object")) {
      a = PickKey(a, 0);
      if (ts_node_is_null(a)) continue;  // an options object without a message key
    }
    bool is_first = ts_node_is_null(first);
    if (is_first) first = a;
    std::optional<Alts> v = EvaluateMessage(a);
    if (!v) continue;
    if (is_first) return a;
    for (const Segs& s : *v)
      for (const Seg& seg : s)
        if (!seg.hole && !seg.text.empty()) return a;
  }
  return first;
}

bool Walker::FillHttpConstructed(Site& site, std::string_view cls, const std::vector<TSNode>& args) {
  std::optional<int> implied;
  bool http = false;
  if (cls == "HttpException" || cls == "HTTPException" || cls == "HttpError" || cls == "HTTPError" ||
      (cls.size() > 13 && cls.substr(cls.size() - 13) == "HttpException")) {
    http = true;
  } else if (cls.size() > 9 && cls.substr(cls.size() - 9) == "Exception") {
    implied = StatusFromCamelName(cls.substr(0, cls.size() - 9));  // NestJS NotFoundException
    http = implied.has_value();
  } else if (cls == "Response" || cls == "NextResponse") {
    // Remix-style `throw new Response("Not found", {status: 404})`.
    if (args.size() >= 2) implied = StatusInInit(args[1]);
    http = implied.has_value() && *implied >= 400;
    if (http) {
      site.kind = SiteKind::kHttp;
      site.http_status = implied;
      SetMessage(site, Is(Unwrap(args[0]), "object") ? PickKey(args[0], 0) : args[0]);
    }
    return http;
  }
  if (!http) return false;
  site.kind = SiteKind::kHttp;
  size_t status_index = SIZE_MAX;
  for (size_t i = 0; i < args.size() && i < 3; ++i) {
    if (auto s = StatusValue(args[i])) {
      site.http_status = s;
      status_index = i;
      break;
    }
    if (auto s = StatusInInit(args[i])) {
      if (!site.http_status) site.http_status = s;
    }
  }
  if (!site.http_status) site.http_status = implied;
  SetMessage(site, PickMessageArg(args, status_index));
  return true;
}

void Walker::FillConstructed(Site& site, TSNode callee, TSNode args_node) {
  callee = Unwrap(callee);
  site.error_class_expr = std::string(Text(callee));
  std::string_view last = LastName(callee);
  std::vector<TSNode> args = Args(args_node);
  if (!last.empty() && IsClasslike(last)) {
    site.error_class = std::string(last);
    if (FillHttpConstructed(site, last, args)) return;
  } else if (Is(callee, "member_expression") && IsClasslike(LastName(Field(callee, fields_.object)))) {
    // AppError.notFound("...") / Errors.badInput("...")
    site.error_class = std::string(LastName(Field(callee, fields_.object)));
  } else {
    site.dynamic = true;  // throw makeError(...), throw new errorClass(...)
  }
  TSNode msg = PickMessageArg(args, SIZE_MAX);
  // An error code given before the message: new AppError(ErrorCode.X, "msg").
  if (!args.empty() && !ts_node_is_null(msg) && msg.id != args[0].id && Is(Unwrap(args[0]), "member_expression"))
    site.error_code = std::string(Text(Unwrap(args[0])));
  SetMessage(site, msg);
}

void Walker::FillCreateError(Site& site, TSNode callee, const std::vector<TSNode>& args) {
  site.kind = SiteKind::kHttp;
  site.error_class_expr = std::string(Text(callee));
  size_t status_index = SIZE_MAX;
  if (Is(callee, "member_expression")) {
    // createError.NotFound("msg")
    std::string_view prop = LastName(callee);
    site.http_status = StatusFromCamelName(prop);
    if (!site.http_status && prop.size() > 5 && prop.substr(prop.size() - 5) == "Error")
      site.http_status = StatusFromCamelName(prop.substr(0, prop.size() - 5));
  } else if (!args.empty()) {
    if (auto s = StatusValue(args[0])) {
      site.http_status = s;
      status_index = 0;
    }
  }
  site.error_class = HttpErrorsClass(site.http_status);
  SetMessage(site, PickMessageArg(args, status_index));
}

bool IsCreateErrorName(std::string_view n) {
  return n == "createError" || n == "createHttpError" || n == "httpErrors" || n == "HttpErrors" ||
         n == "createHttpErrors";
}

void Walker::HandleThrow(TSNode stmt) {
  TSNode expr = Unwrap(FirstNamed(stmt));
  if (ts_node_is_null(expr)) return;
  Site site = NewSite(SiteKind::kRaise, stmt, stmt);
  if (Is(expr, "new_expression")) {
    consumed_.insert(expr.id);
    TSNode ctor = Field(expr, fields_.constructor);
    if (Is(ctor, "member_expression") && IsCreateErrorName(LastName(Field(ctor, fields_.object)))) {
      FillCreateError(site, Unwrap(ctor), Args(Field(expr, fields_.arguments)));
    } else {
      FillConstructed(site, ctor, Field(expr, fields_.arguments));
    }
  } else if (Is(expr, "call_expression") && Text(Unwrap(Field(expr, fields_.function))) == "Object.assign" &&
             !Args(Field(expr, fields_.arguments)).empty() &&
             Is(Unwrap(Args(Field(expr, fields_.arguments))[0]), "new_expression")) {
    // throw Object.assign(new Error("msg"), {code: "ECODE"}): the new error, with its code.
    std::vector<TSNode> args = Args(Field(expr, fields_.arguments));
    TSNode made = Unwrap(args[0]);
    consumed_.insert(expr.id);
    consumed_.insert(made.id);
    FillConstructed(site, Field(made, fields_.constructor), Field(made, fields_.arguments));
    for (size_t i = 1; i < args.size() && !site.error_code; ++i) {
      TSNode obj = Unwrap(args[i]);
      uint32_t count = Is(obj, "object") ? ts_node_named_child_count(obj) : 0;
      for (uint32_t k = 0; k < count; ++k) {
        TSNode p = ts_node_named_child(obj, k);
        if (Is(p, "pair") && Text(Field(p, fields_.key)) == "code" && Is(Unwrap(Field(p, fields_.value)), "string")) {
          std::string_view v = Text(Unwrap(Field(p, fields_.value)));
          site.error_code = DecodeJsLiteral(v.substr(1, v.size() - 2), false);
          break;
        }
      }
    }
  } else if (Is(expr, "call_expression")) {
    consumed_.insert(expr.id);
    TSNode callee = Unwrap(Field(expr, fields_.function));
    std::string_view last = LastName(callee);
    if (IsCreateErrorName(last) ||
        (Is(callee, "member_expression") && IsCreateErrorName(LastName(Field(callee, fields_.object))))) {
      FillCreateError(site, callee, Args(Field(expr, fields_.arguments)));
    } else {
      FillConstructed(site, callee, Field(expr, fields_.arguments));
    }
  } else if (Is(expr, "identifier")) {
    std::string_view name = Text(expr);
    bool in_module = false, crossed = false;
    Binding* b = Lookup(name, &in_module, &crossed);
    if (b && b->kind == Binding::kCatchParam) return;  // rethrow: not a new error
    TSNode value = b && b->kind == Binding::kValue ? Unwrap(b->value) : TSNode{};
    if (Is(value, "new_expression") || Is(value, "call_expression")) {
      // const err = new NotFound("..."); ...; throw err
      TSNode callee = Is(value, "new_expression") ? Field(value, fields_.constructor) : Field(value, fields_.function);
      if (IsClasslike(LastName(callee))) {
        FillConstructed(site, callee, Field(value, fields_.arguments));
        site.error_class_expr = std::string(name) + " <- " + site.error_class_expr.value_or("");
        if (!site.message_resolution.empty()) site.message_resolution = "variable:" + site.message_resolution;
        Finish(std::move(site));
        return;
      }
    }
    site.error_class_expr = std::string(name);
    if (IsClasslike(name)) {
      site.error_class = std::string(name);
    } else {
      site.dynamic = true;
    }
  } else if (Is(expr, "string") || Is(expr, "template_string") || Is(expr, "binary_expression")) {
    SetMessage(site, expr);  // throw "message": a string is thrown, no class
  } else if (Is(expr, "member_expression")) {
    site.error_class_expr = std::string(Text(expr));
    std::string_view last = LastName(expr);
    if (IsClasslike(last)) site.error_class = std::string(last);
    else site.dynamic = true;
  } else {
    site.error_class_expr = std::string(Text(expr));
    site.dynamic = true;
  }
  Finish(std::move(site));
}

void Walker::HandleNew(TSNode expr) {
  if (Consumed(expr)) return;
  TSNode ctor = Unwrap(Field(expr, fields_.constructor));
  std::string_view last = LastName(ctor);
  if (last.empty()) return;
  std::vector<TSNode> args = Args(Field(expr, fields_.arguments));
  if (last == "Response" || last == "NextResponse") {
    if (args.empty()) return;
    std::optional<int> status = args.size() >= 2 ? StatusInInit(args[1]) : std::nullopt;
    if (!status || *status < 400) return;
    Site site = NewSite(SiteKind::kHttpResponse, expr, expr);
    site.error_class_expr = std::string(Text(ctor));
    site.http_status = status;
    TSNode body = Unwrap(args[0]);
    // new Response(JSON.stringify({error: "..."}), {status: 400})
    if (Is(body, "call_expression") && Text(Field(body, fields_.function)) == "JSON.stringify") {
      std::vector<TSNode> inner = Args(Field(body, fields_.arguments));
      if (!inner.empty()) body = Unwrap(inner[0]);
    }
    SetMessage(site, Is(body, "object") ? PickKey(body, 0) : body);
    Finish(std::move(site));
    return;
  }
  if (Is(ctor, "member_expression") && IsCreateErrorName(LastName(Field(ctor, fields_.object)))) {
    Site site = NewSite(SiteKind::kHttp, expr, expr);
    FillCreateError(site, ctor, args);
    Finish(std::move(site));
    return;
  }
  if (!IsClasslike(last)) return;
  Site site = NewSite(SiteKind::kHttp, expr, expr);
  site.error_class = std::string(last);
  site.error_class_expr = std::string(Text(ctor));
  if (!FillHttpConstructed(site, last, args)) return;  // only HTTP errors count outside a throw
  Finish(std::move(site));
}

void Walker::HandleCall(TSNode call) {
  if (Consumed(call)) return;
  TSNode callee = Unwrap(Field(call, fields_.function));
  TSNode args_node = Field(call, fields_.arguments);
  if (Is(callee, "identifier")) {
    if (IsCreateErrorName(Text(callee))) {
      Site site = NewSite(SiteKind::kHttp, call, call);
      FillCreateError(site, callee, Args(args_node));
      Finish(std::move(site));
    }
    return;
  }
  if (!Is(callee, "member_expression")) return;
  std::string_view prop = Text(Field(callee, fields_.property));
  TSNode object = Unwrap(Field(callee, fields_.object));
  std::vector<TSNode> args = Args(args_node);

  // console.error / logger.warn / this.logger.error / log.error
  if (prop == "error" || prop == "warn" || prop == "warning" || prop == "fatal") {
    std::string receiver = Lower(LastName(object));
    while (!receiver.empty() && (receiver[0] == '_' || receiver[0] == '$')) receiver.erase(0, 1);
    bool is_console = receiver == "console";
    bool is_logger = receiver == "log" ||
                     (receiver.size() >= 6 && receiver.compare(receiver.size() - 6, 6, "logger") == 0);
    if ((is_console && (prop == "error" || prop == "warn")) || is_logger) {
      Site site = NewSite(SiteKind::kLog, call, call);
      site.error_class_expr = std::string(Text(callee));
      site.log_level = std::string(prop);
      TSNode msg = PickMessageArg(args, SIZE_MAX);
      std::vector<TSNode> rest;
      for (size_t i = 0; i < args.size(); ++i) {
        if (!ts_node_is_null(msg) && args[i].id == msg.id) {
          rest.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
          break;
        }
      }
      // console.* prints leftover arguments after the message; loggers (winston,
      // pino, bunyan) keep them as metadata.
      if (!ts_node_is_null(msg) && Is(Unwrap(msg), "string")) SetMessage(site, msg, &rest, is_console);
      else SetMessage(site, msg);
      Finish(std::move(site));
      return;
    }
  }

  // res.status(404).json({error: msg}) / .send(msg); reply.code(400).send(...)
  if ((prop == "json" || prop == "send") && Is(object, "call_expression")) {
    TSNode inner_callee = Unwrap(Field(object, fields_.function));
    if (Is(inner_callee, "member_expression")) {
      std::string_view inner_prop = Text(Field(inner_callee, fields_.property));
      std::vector<TSNode> inner_args = Args(Field(object, fields_.arguments));
      if ((inner_prop == "status" || inner_prop == "code") && inner_args.size() == 1) {
        std::optional<int> status = StatusValue(inner_args[0]);
        if (status && *status >= 400) {
          Site site = NewSite(SiteKind::kHttpResponse, call, call);
          site.error_class_expr = std::string(Text(callee));
          site.http_status = status;
          if (!args.empty()) {
            TSNode body = Unwrap(args[0]);
            SetMessage(site, Is(body, "object") ? PickKey(body, 0) : args[0]);
          }
          Finish(std::move(site));
          return;
        }
      }
    }
  }

  // NextResponse.json({error: msg}, {status: 400}) / Response.json(...)
  if (prop == "json" && args.size() >= 2) {
    std::string_view recv = LastName(object);
    if (recv == "NextResponse" || recv == "Response") {
      std::optional<int> status = StatusInInit(args[1]);
      if (status && *status >= 400) {
        Site site = NewSite(SiteKind::kHttpResponse, call, call);
        site.error_class_expr = std::string(Text(callee));
        site.http_status = status;
        TSNode body = Unwrap(args[0]);
        SetMessage(site, Is(body, "object") ? PickKey(body, 0) : args[0]);
        Finish(std::move(site));
        return;
      }
    }
  }

  // createError.NotFound("msg")
  if (IsCreateErrorName(LastName(object))) {
    Site site = NewSite(SiteKind::kHttp, call, call);
    FillCreateError(site, callee, args);
    Finish(std::move(site));
    return;
  }

  // Koa: ctx.throw(404, "msg")
  if (prop == "throw" && !args.empty()) {
    if (auto status = StatusValue(args[0])) {
      Site site = NewSite(SiteKind::kHttp, call, call);
      site.error_class_expr = std::string(Text(callee));
      site.http_status = status;
      site.error_class = HttpErrorsClass(status);
      SetMessage(site, PickMessageArg(args, 0));
      Finish(std::move(site));
    }
  }
}

}  // namespace

JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript,
                                  const JsExtractOptions& options) {
  JsExtractResult result;
  bool tsx = typescript && path.size() >= 4 && path.substr(path.size() - 4) == ".tsx";
  const TSLanguage* lang = typescript ? (tsx ? tree_sitter_tsx() : tree_sitter_typescript()) : tree_sitter_javascript();
  // "JavaScript" names the front end in the diagnostics, TypeScript included.
  TsTree tree = TsParse(lang, "JavaScript", path, text, options, result);
  if (!tree) return result;
  Walker walker(path, text, typescript, lang, options);
  walker.Run(ts_tree_root_node(tree.get()));
  if (walker.syntax_errors > 0) {
    result.diagnostics.push_back(Diagnostic{
        std::string(path), static_cast<int>(walker.first_error.row) + 1, static_cast<int>(walker.first_error.column),
        "syntax error (" + std::to_string(walker.syntax_errors) +
            " unparsed or missing region(s)); sites in them may be missing"});
  }
  result.sites = std::move(walker.sites);
  result.sites_left_out = walker.sites_left_out;
  return result;
}

#endif  // ERRDEX_HAVE_TREE_SITTER

}  // namespace errdex
