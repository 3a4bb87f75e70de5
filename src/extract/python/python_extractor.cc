// The Python front end (see python_extractor.h). Two phases over one file:
//  1. structure: walk the logical lines from the tokenizer, keep a block stack
//     (def/class/if/elif/else/while/for/try/except/finally/with/match/case,
//     one-line compound statements included), record per scope the string-ish
//     assignments (token ranges, parsed lazily), parameters, returns and
//     imports, and queue every statement or call that can produce an error;
//  2. evaluation: parse only the queued statements and rebuild their messages
//     with the same rules as ../shared/tools/oracle_py.py.
// This file holds phase 1 and Run; file_extractor.h lists the files of the others.
// Tested by python_extractor_test.cc; compared with the oracle by
// tests/diff/diff_oracle.py.
#include "extract/python/python_extractor.h"
#include "extract/python/file_extractor.h"

#include <cctype>
#include <algorithm>
#include <tuple>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "extract/python/class_messages.h"
#include "extract/python/expr.h"
#include "extract/python/message_eval.h"
#include "extract/python/tokenizer.h"
#include "model/utf8.h"


namespace errdex {
namespace pyx {

// Two alternative-free messages alike.
bool SameSegs(const Segs& a, const Segs& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].type != b[i].type || a[i].text != b[i].text || !a[i].options.empty() || !b[i].options.empty())
      return false;
  return true;
}

// Adds each alternative of one text read from elsewhere to `alt`'s options, once, when
// it has enough literal text and there is room; else sets *open (a message left out).
void AddReadText(const Segs& text, Seg* alt, bool* open, size_t min_literal) {
  for (Segs& one : py::Expand(text)) {
    size_t literal = 0;
    bool seen = false;
    for (const Seg& g : one) literal += g.type == Seg::kLit ? g.text.size() : 0;
    for (const Segs& o : alt->options) seen = seen || SameSegs(o, one);
    if (literal < min_literal || alt->options.size() >= py::kMaxReadAlternatives) *open = true;
    else if (!seen) alt->options.push_back(std::move(one));
  }
}

// The texts gathered in `alt` as one message: none, the one, or the alternatives.
MaybeSegs ReadTexts(Seg alt) {
  if (alt.options.empty()) return std::nullopt;
  if (alt.options.size() == 1) return std::move(alt.options[0]);
  return Segs{std::move(alt)};
}

struct HttpName {
  const char* name;
  int code;
};
constexpr HttpName kHttpStatus[] = {
    {"CONTINUE", 100}, {"SWITCHING_PROTOCOLS", 101}, {"PROCESSING", 102}, {"EARLY_HINTS", 103}, {"OK", 200},
    {"CREATED", 201}, {"ACCEPTED", 202}, {"NON_AUTHORITATIVE_INFORMATION", 203}, {"NO_CONTENT", 204},
    {"RESET_CONTENT", 205}, {"PARTIAL_CONTENT", 206}, {"MULTI_STATUS", 207}, {"ALREADY_REPORTED", 208},
    {"IM_USED", 226}, {"MULTIPLE_CHOICES", 300}, {"MOVED_PERMANENTLY", 301}, {"FOUND", 302}, {"SEE_OTHER", 303},
    {"NOT_MODIFIED", 304}, {"USE_PROXY", 305}, {"TEMPORARY_REDIRECT", 307}, {"PERMANENT_REDIRECT", 308},
    {"BAD_REQUEST", 400}, {"UNAUTHORIZED", 401}, {"PAYMENT_REQUIRED", 402}, {"FORBIDDEN", 403},
    {"NOT_FOUND", 404}, {"METHOD_NOT_ALLOWED", 405}, {"NOT_ACCEPTABLE", 406},
    {"PROXY_AUTHENTICATION_REQUIRED", 407}, {"REQUEST_TIMEOUT", 408}, {"CONFLICT", 409}, {"GONE", 410},
    {"LENGTH_REQUIRED", 411}, {"PRECONDITION_FAILED", 412}, {"REQUEST_ENTITY_TOO_LARGE", 413},
    {"REQUEST_URI_TOO_LONG", 414}, {"UNSUPPORTED_MEDIA_TYPE", 415}, {"REQUESTED_RANGE_NOT_SATISFIABLE", 416},
    {"EXPECTATION_FAILED", 417}, {"IM_A_TEAPOT", 418}, {"MISDIRECTED_REQUEST", 421},
    {"UNPROCESSABLE_ENTITY", 422}, {"LOCKED", 423}, {"FAILED_DEPENDENCY", 424}, {"TOO_EARLY", 425},
    {"UPGRADE_REQUIRED", 426}, {"PRECONDITION_REQUIRED", 428}, {"TOO_MANY_REQUESTS", 429},
    {"REQUEST_HEADER_FIELDS_TOO_LARGE", 431}, {"UNAVAILABLE_FOR_LEGAL_REASONS", 451},
    {"INTERNAL_SERVER_ERROR", 500}, {"NOT_IMPLEMENTED", 501}, {"BAD_GATEWAY", 502},
    {"SERVICE_UNAVAILABLE", 503}, {"GATEWAY_TIMEOUT", 504}, {"HTTP_VERSION_NOT_SUPPORTED", 505},
    {"VARIANT_ALSO_NEGOTIATES", 506}, {"INSUFFICIENT_STORAGE", 507}, {"LOOP_DETECTED", 508},
    {"NOT_EXTENDED", 510}, {"NETWORK_AUTHENTICATION_REQUIRED", 511},
};

std::optional<int> HttpStatusByName(std::string_view name) {
  for (const HttpName& h : kHttpStatus)
    if (name == h.name) return h.code;
  return std::nullopt;
}
const char* HttpStatusName(int code) {
  for (const HttpName& h : kHttpStatus)
    if (h.code == code) return h.name;
  return nullptr;
}

// 'NotFound' -> 404, 'HTTPBadRequest' -> 400 (oracle http_status_from_name).
std::optional<int> HttpStatusFromClassName(std::string_view camel) {
  if (camel.substr(0, 4) == "HTTP") camel.remove_prefix(4);
  std::string snake;
  auto lower = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  for (size_t i = 0; i < camel.size(); ++i) {
    char c = camel[i];
    if (i > 0 && upper(c)) {
      char p = camel[i - 1];
      bool split = lower(p) || (upper(p) && i + 1 < camel.size() && camel[i + 1] >= 'a' && camel[i + 1] <= 'z');
      if (split) snake.push_back('_');
    }
    snake.push_back((c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c);
  }
  if (auto v = HttpStatusByName(snake)) return v;
  std::string alt;
  for (size_t i = 0; i < snake.size(); ++i) {
    if (snake.compare(i, 5, "U_R_I") == 0) {
      alt += "URI";
      i += 4;
    } else {
      alt.push_back(snake[i]);
    }
  }
  return HttpStatusByName(alt);
}

bool IsClasslike(std::string_view name) {
  size_t i = 0;
  while (i < name.size() && name[i] == '_') ++i;
  return i < name.size() && name[i] >= 'A' && name[i] <= 'Z';
}

bool InTests(std::string_view rel) {
  size_t slash = rel.rfind('/');
  std::string_view base = slash == std::string_view::npos ? rel : rel.substr(slash + 1);
  if (base.substr(0, 5) == "test_" || base == "conftest.py" ||
      (base.size() >= 8 && base.substr(base.size() - 8) == "_test.py"))
    return true;
  size_t p = 0;
  while (slash != std::string_view::npos && p < slash) {
    size_t q = rel.find('/', p);
    std::string_view part = rel.substr(p, q - p);
    if (part == "tests" || part == "test") return true;
    p = q + 1;
  }
  return false;
}

bool IsErrorResponseName(std::string_view s) {
  if (!s.empty() && s[0] == '_') s.remove_prefix(1);
  for (std::string_view pre : {"create", "make", "build"})
    if (s.size() == pre.size() + 15 && s.substr(0, pre.size()) == pre && s.substr(pre.size()) == "_error_response")
      return true;
  return false;
}

bool IsLoggerName(std::string_view s) {
  std::string l;
  for (char c : s) l.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c);
  while (!l.empty() && l[0] == '_') l.erase(0, 1);
  if (l == "log" || l == "logging" || l == "logger" || l == "log_" || l == "lgr") return true;
  return l.size() >= 6 && l.compare(l.size() - 6, 6, "logger") == 0;
}

bool FileExtractor::NoteTooDeep(const Pending& p, const char* what) {
  if (!parser_.too_deep()) return false;
  const Token& t = toks_.tokens[p.tb];
  result_.diagnostics.push_back(
      {std::string(path_), t.line, t.col,
       std::string(what) + " nested deeper than the expression limits (" + std::to_string(py::kMaxExprDepth) +
           " levels of brackets, a tree " + std::to_string(py::kMaxExprHeight) +
           " operators tall): its class and message are not read"});
  return true;
}

// Source text of the expression in tokens [b, e) as ast.get_source_segment
// gives it: without the parentheses that wrap the whole expression.
std::pair<uint32_t, uint32_t> FileExtractor::ExprRange(uint32_t b, uint32_t e) {
  if (b >= e) return {0, 0};
  if (e > b + 1 && IsOp(text_, toks_.tokens[b], '(') && IsOp(text_, toks_.tokens[e - 1], ')')) {
    size_t pos = b;
    int n = parser_.ParseExpr(toks_.tokens, &pos, e, true);
    if (n >= 0 && pos == e) return {parser_.node(n).b, parser_.node(n).e};
  }
  return {toks_.tokens[b].begin, toks_.tokens[e - 1].end};
}

std::string FileExtractor::SegTokens(uint32_t b, uint32_t e) const {
  if (b >= e) return std::string();
  uint32_t sb = toks_.tokens[b].begin, se = toks_.tokens[e - 1].end;
  return std::string(text_.substr(sb, se - sb));
}

int FileExtractor::CurrentScope() const {
  for (size_t i = stack_.size(); i-- > 0;)
    if (stack_[i].scope >= 0) return stack_[i].scope;
  return 0;
}

Pending FileExtractor::MakePending(PendKind k, uint32_t tb, uint32_t te) const {
  Pending p;
  p.kind = k;
  p.tb = tb;
  p.te = te;
  size_t boundary = 0;
  for (size_t i = 0; i < stack_.size(); ++i) {
    const Block& bl = stack_[i];
    if (bl.kind == BlockKind::kDef || bl.kind == BlockKind::kClass) {
      if (!p.qual.empty()) p.qual.push_back('.');
      p.qual += bl.name;
      boundary = i + 1;
    }
  }
  // Guards: only the innermost max_guards are built (an elif chain of 20,000
  // branches would give its last site 20,000 strings), each cut to max_guard_bytes.
  auto guard_count = [&](const Block& bl) -> size_t {
    switch (bl.guard) {
      case GuardMode::kNone: return 0;
      case GuardMode::kElif: return bl.chain_len;
      case GuardMode::kNotChain: return bl.chain_len;
      default: return 1;
    }
  };
  for (size_t i = boundary; i < stack_.size(); ++i) p.guards_total += guard_count(stack_[i]);
  size_t skip = p.guards_total > limits_.max_guards ? p.guards_total - limits_.max_guards : 0;
  auto add = [&](std::string_view prefix, std::string_view body, std::string_view suffix) {
    if (skip > 0) {
      --skip;
      return;
    }
    size_t size = prefix.size() + body.size() + suffix.size();
    p.longest_guard = std::max(p.longest_guard, size);
    std::string g;
    if (size <= limits_.max_guard_bytes) {
      g.reserve(size);
      g.append(prefix).append(body).append(suffix);
    } else {
      g.append(prefix).append(body.substr(0, std::min(body.size(), limits_.max_guard_bytes)));
      g.resize(Utf8CutPoint(g, limits_.max_guard_bytes));
    }
    p.guards.push_back(std::move(g));
  };
  auto txt = [&](uint32_t b, uint32_t e) { return text_.substr(b, e - b); };
  for (size_t i = boundary; i < stack_.size(); ++i) {
    const Block& bl = stack_[i];
    switch (bl.guard) {
      case GuardMode::kNone: break;
      case GuardMode::kCond: add("", txt(bl.cond_b, bl.cond_e), ""); break;
      case GuardMode::kNotCond: add("not (", txt(bl.cond_b, bl.cond_e), ")"); break;
      case GuardMode::kElif:
      case GuardMode::kNotChain: {
        uint32_t n = bl.guard == GuardMode::kElif ? bl.chain_len - 1 : bl.chain_len;
        uint32_t k = 0;
        for (; k < n && skip > 0; ++k) --skip;  // skipped without a look at the arena
        for (; k < n; ++k) {
          const auto& c = chain_arena_[bl.chain_start + k];
          add("not (", txt(c.first, c.second), ")");
        }
        if (bl.guard == GuardMode::kElif) add("", txt(bl.cond_b, bl.cond_e), "");
        break;
      }
      case GuardMode::kCustom: add("", bl.custom, ""); break;
    }
    if (bl.has_handler) {
      std::string hdr = "except";
      if (bl.type_e > bl.type_b) hdr.append(" ").append(txt(bl.type_b, bl.type_e));
      if (!bl.handler_name.empty()) hdr += " as " + std::string(bl.handler_name);
      p.handlers.emplace_back(std::string(bl.handler_name), std::move(hdr));
    }
  }
  if (p.qual.empty()) p.qual = "<module>";
  p.scope = CurrentScope();
  return p;
}

// Index of the ':' ending a compound statement header in [b, e), or -1.
int FileExtractor::FindHeaderColon(uint32_t b, uint32_t e) const {
  int depth = 0, lambdas = 0;
  for (uint32_t i = b; i < e; ++i) {
    const Token& t = toks_.tokens[i];
    if (t.kind == TokenKind::kOp && t.end - t.begin == 1) {
      char c = text_[t.begin];
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') depth = depth > 0 ? depth - 1 : 0;
      else if (c == ':' && depth == 0) {
        if (lambdas > 0) --lambdas;
        else return static_cast<int>(i);
      }
    } else if (depth == 0 && IsName(text_, t, "lambda")) {
      ++lambdas;
    }
  }
  return -1;
}

void FileExtractor::AddAssign(std::string_view name, const Token& at, bool aug, bool has_value, uint32_t vb,
                              uint32_t ve) {
  Assign a;
  a.line = at.line;
  a.col = at.col;
  a.aug = aug;
  a.has_value = has_value;
  a.vb = vb;
  a.ve = ve;
  scopes_[static_cast<size_t>(CurrentScope())].assigns.emplace_back(name, a);
}

void FileExtractor::BindNames(uint32_t b, uint32_t e, const Token& at) {
  for (uint32_t i = b; i < e; ++i) {
    const Token& t = toks_.tokens[i];
    if (t.kind != TokenKind::kName) continue;
    if (i > b && IsOp(text_, toks_.tokens[i - 1], '.')) continue;
    std::string_view s = py::TokenText(text_, t);
    if (s == "in" || s == "as" || s == "not" || s == "and" || s == "or" || s == "if" || s == "else" ||
        s == "None" || s == "True" || s == "False" || s == "is" || s == "for" || s == "lambda")
      continue;
    AddAssign(s, at, false, false, 0, 0);
  }
}

void FileExtractor::ProcessLine(const py::LogicalLine& l) {
  int indent = l.indent;
  while (!stack_.empty() && stack_.back().indent > indent) stack_.pop_back();
  std::optional<Block> prev;
  if (!stack_.empty() && stack_.back().indent == indent) {
    prev = std::move(stack_.back());
    stack_.pop_back();
  }
  if (l.first >= l.last) return;
  bool handled = false;
  ProcessCompound(l.first, l.last, indent, prev, &handled);
  if (!handled) ProcessSimple(l.first, l.last);
}

void FileExtractor::ProcessCompound(uint32_t b, uint32_t e, int indent, std::optional<Block>& prev, bool* handled) {
  const Token& t0 = toks_.tokens[b];
  if (t0.kind != TokenKind::kName) return;
  switch (text_[t0.begin]) {  // quick reject: compound keywords start with one of these
    case 'i': case 'e': case 'w': case 'f': case 't': case 'd': case 'c': case 'a': case 'm':
      break;
    default:
      return;
  }
  std::string_view kw = py::TokenText(text_, t0);
  uint32_t hb = b;
  if (kw == "async" && b + 1 < e) {
    std::string_view k2 = py::TokenText(text_, toks_.tokens[b + 1]);
    if (k2 == "def" || k2 == "for" || k2 == "with") {
      kw = k2;
      hb = b + 1;
    }
  }
  BlockKind kind;
  if (kw == "if") kind = BlockKind::kIf;
  else if (kw == "elif") kind = BlockKind::kElif;
  else if (kw == "else") kind = BlockKind::kElse;
  else if (kw == "while") kind = BlockKind::kWhile;
  else if (kw == "for") kind = BlockKind::kFor;
  else if (kw == "try") kind = BlockKind::kTry;
  else if (kw == "except") kind = BlockKind::kExcept;
  else if (kw == "finally") kind = BlockKind::kFinally;
  else if (kw == "with") kind = BlockKind::kWith;
  else if (kw == "def") kind = BlockKind::kDef;
  else if (kw == "class") kind = BlockKind::kClass;
  else if (kw == "match" || kw == "case") {
    // soft keywords: a header ending in ':' whose next token starts an expression
    if (hb + 1 >= e || !IsOp(text_, toks_.tokens[e - 1], ':')) return;
    const Token& n1 = toks_.tokens[hb + 1];
    if (n1.kind == TokenKind::kOp) {
      std::string_view o = py::TokenText(text_, n1);
      if (!(o == "(" || o == "[" || o == "{" || o == "-" || o == "*" || o == "~")) return;
    }
    if (kw == "case" && (stack_.empty() || stack_.back().kind != BlockKind::kMatch)) return;
    kind = kw == "match" ? BlockKind::kMatch : BlockKind::kCase;
  } else {
    return;
  }
  int colon = FindHeaderColon(hb + 1, e);
  if (colon < 0) return;
  *handled = true;
  uint32_t hc = static_cast<uint32_t>(colon);
  Block bl;
  bl.kind = kind;
  bl.indent = indent;
  const Token& kt = toks_.tokens[hb];
  switch (kind) {
    case BlockKind::kIf:
    case BlockKind::kElif: {
      std::tie(bl.cond_b, bl.cond_e) = ExprRange(hb + 1, hc);
      bl.chain_start = static_cast<uint32_t>(chain_arena_.size());
      if (kind == BlockKind::kElif && prev && (prev->kind == BlockKind::kIf || prev->kind == BlockKind::kElif)) {
        for (uint32_t k = 0; k < prev->chain_len; ++k) {
          std::pair<uint32_t, uint32_t> c = chain_arena_[prev->chain_start + k];
          chain_arena_.push_back(c);
        }
      }
      chain_arena_.emplace_back(bl.cond_b, bl.cond_e);
      bl.chain_len = static_cast<uint32_t>(chain_arena_.size()) - bl.chain_start;
      bl.guard = bl.chain_len > 1 ? GuardMode::kElif : GuardMode::kCond;
      break;
    }
    case BlockKind::kElse:
      if (prev && (prev->kind == BlockKind::kIf || prev->kind == BlockKind::kElif)) {
        bl.guard = GuardMode::kNotChain;
        bl.chain_start = prev->chain_start;
        bl.chain_len = prev->chain_len;
      } else if (prev && prev->kind == BlockKind::kWhile) {
        bl.guard = GuardMode::kNotCond;
        bl.cond_b = prev->cond_b;
        bl.cond_e = prev->cond_e;
      }
      break;
    case BlockKind::kWhile:
      std::tie(bl.cond_b, bl.cond_e) = ExprRange(hb + 1, hc);
      bl.guard = GuardMode::kCond;
      break;
    case BlockKind::kFor: {
      uint32_t in = hb + 1;
      int depth = 0;
      for (; in < hc; ++in) {
        const Token& t = toks_.tokens[in];
        if (t.kind == TokenKind::kOp && t.end - t.begin == 1) {
          char c = text_[t.begin];
          if (c == '(' || c == '[') ++depth;
          else if (c == ')' || c == ']') --depth;
        }
        if (depth == 0 && IsName(text_, t, "in")) break;
      }
      BindNames(hb + 1, in, toks_.tokens[b]);
      break;
    }
    case BlockKind::kWith: {
      ScanCallsAndAssigns(hb + 1, hc, false);
      int depth = 0;
      for (uint32_t i = hb + 1; i < hc; ++i) {
        const Token& t = toks_.tokens[i];
        if (t.kind == TokenKind::kOp && t.end - t.begin == 1) {
          char c = text_[t.begin];
          if (c == '(' || c == '[' || c == '{') ++depth;
          else if (c == ')' || c == ']' || c == '}') --depth;
        }
        if (depth <= 1 && IsName(text_, t, "as")) {
          uint32_t j = i + 1, d2 = 0;
          uint32_t end = j;
          for (; end < hc; ++end) {
            const Token& u = toks_.tokens[end];
            if (u.kind == TokenKind::kOp && u.end - u.begin == 1) {
              char c = text_[u.begin];
              if (c == '(' || c == '[') ++d2;
              else if (c == ')' || c == ']') {
                if (d2 == 0) break;
                --d2;
              } else if (c == ',' && d2 == 0) {
                break;
              }
            }
          }
          BindNames(j, end, toks_.tokens[b]);
        }
      }
      break;
    }
    case BlockKind::kExcept: {
      uint32_t tb = hb + 1;
      if (tb < hc && IsOp(text_, toks_.tokens[tb], '*')) ++tb;
      uint32_t as = hc;
      for (uint32_t i = tb; i < hc; ++i)
        if (IsName(text_, toks_.tokens[i], "as")) as = i;
      if (as > tb) std::tie(bl.type_b, bl.type_e) = ExprRange(tb, as);
      bl.has_handler = true;
      if (as + 1 < hc && toks_.tokens[as + 1].kind == TokenKind::kName) {
        bl.handler_name = py::TokenText(text_, toks_.tokens[as + 1]);
        AddAssign(bl.handler_name, kt, false, false, 0, 0);
      }
      break;
    }
    case BlockKind::kDef:
    case BlockKind::kClass: {
      if (hb + 1 < hc && toks_.tokens[hb + 1].kind == TokenKind::kName)
        bl.name = py::TokenText(text_, toks_.tokens[hb + 1]);
      Scope s;
      s.kind = kind == BlockKind::kDef ? Scope::kFunction : Scope::kClass;
      s.parent = CurrentScope();
      if (kind == BlockKind::kDef) {
        // parameters: names at depth 1 after '(' ',' '*' '**' '/'
        int depth = 0;
        uint32_t i = hb + 2;
        uint32_t default_b = 0;  // tokens of the current parameter's default value
        auto end_default = [&](uint32_t at) {
          if (default_b && at > default_b && !s.params.empty()) s.param_defaults.emplace_back(s.params.back(), std::make_pair(default_b, at));
          default_b = 0;
        };
        for (; i < hc; ++i) {
          const Token& t = toks_.tokens[i];
          if (t.kind == TokenKind::kOp && t.end - t.begin == 1) {
            char c = text_[t.begin];
            if (c == '(' || c == '[' || c == '{') ++depth;
            else if (c == ')' || c == ']' || c == '}') {
              --depth;
              if (depth == 0) {
                end_default(i);
                break;
              }
            } else if (depth == 1 && c == ',') {
              end_default(i);
            } else if (depth == 1 && c == '=' && !s.params.empty()) {
              default_b = i + 1;
            }
          }
          if (depth == 1 && t.kind == TokenKind::kName && i > 0) {
            const Token& pv = toks_.tokens[i - 1];
            if (IsOp(text_, pv, '(') || IsOp(text_, pv, ',') || IsOp(text_, pv, '*') || IsOp(text_, pv, "**")) {
              s.params.push_back(py::TokenText(text_, t));
              // `error=ImportError`: a class the body may raise through the parameter
              if (i + 3 < hc && IsOp(text_, toks_.tokens[i + 1], '=') && toks_.tokens[i + 2].kind == TokenKind::kName &&
                  (IsOp(text_, toks_.tokens[i + 3], ',') || IsOp(text_, toks_.tokens[i + 3], ')'))) {
                std::string_view d = py::TokenText(text_, toks_.tokens[i + 2]);
                if (IsClasslike(d)) s.class_defaults.emplace_back(s.params.back(), d);
              }
            }
            if (IsOp(text_, pv, '*') || IsOp(text_, pv, "**")) s.star_params.push_back(py::TokenText(text_, t));
          }
        }
        for (; i < hc; ++i)
          if (IsOp(text_, toks_.tokens[i], "->")) {
            s.ann_b = i + 1;
            s.ann_e = hc;
          }
      }
      s.name = bl.name;
      if (kind == BlockKind::kClass && hb + 2 < hc && IsOp(text_, toks_.tokens[hb + 2], '(')) {
        s.bases_b = hb + 3;
        s.bases_e = hc > hb + 3 && IsOp(text_, toks_.tokens[hc - 1], ')') ? hc - 1 : hc;
      }
      scopes_.push_back(std::move(s));
      bl.scope = static_cast<int>(scopes_.size() - 1);
      if (kind == BlockKind::kDef) functions_.emplace_back(bl.name, bl.scope);
      break;
    }
    case BlockKind::kMatch:
      std::tie(bl.cond_b, bl.cond_e) = ExprRange(hb + 1, hc);
      break;
    case BlockKind::kCase: {
      std::string subj(text_.substr(stack_.back().cond_b, stack_.back().cond_e - stack_.back().cond_b));
      uint32_t gi = hc;
      int depth = 0;
      for (uint32_t i = hb + 1; i < hc; ++i) {
        const Token& t = toks_.tokens[i];
        if (t.kind == TokenKind::kOp && t.end - t.begin == 1) {
          char c = text_[t.begin];
          if (c == '(' || c == '[' || c == '{') ++depth;
          else if (c == ')' || c == ']' || c == '}') --depth;
        }
        if (depth == 0 && IsName(text_, t, "if")) {
          gi = i;
          break;
        }
      }
      std::string g = "match " + subj + ": case " + SegTokens(hb + 1, gi);
      if (gi < hc) g += " if " + SegTokens(gi + 1, hc);
      bl.custom = std::move(g);
      bl.guard = GuardMode::kCustom;
      break;
    }
    default:
      break;
  }
  stack_.push_back(std::move(bl));
  if (hc + 1 < e) ProcessSimple(hc + 1, e);
}

void FileExtractor::ProcessSimple(uint32_t b, uint32_t e) {
  // most lines hold one statement: skip the split when there is no ';' byte at all
  uint32_t sb = toks_.tokens[b].begin, se = toks_.tokens[e - 1].end;
  if (std::memchr(text_.data() + sb, ';', se - sb) == nullptr) {
    ProcessStatement(b, e);
    return;
  }
  int depth = 0;
  uint32_t s = b;
  for (uint32_t i = b; i < e; ++i) {
    const Token& t = toks_.tokens[i];
    if (t.kind != TokenKind::kOp || t.end - t.begin != 1) continue;
    char c = text_[t.begin];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') depth = depth > 0 ? depth - 1 : 0;
    else if (c == ';' && depth == 0) {
      if (i > s) ProcessStatement(s, i);
      s = i + 1;
    }
  }
  if (e > s) ProcessStatement(s, e);
}

void FileExtractor::ProcessStatement(uint32_t b, uint32_t e) {
  const Token& t = toks_.tokens[b];
  if (collect_classes_) NoteInitStatement(b, e);
  if (t.kind == TokenKind::kName) {
    std::string_view s = py::TokenText(text_, t);
    switch (s.size()) {
      case 5:
        if (s == "raise") {
          if (!AtSiteLimit()) pending_.push_back(MakePending(PendKind::kRaise, b, e));
          return;
        }
        break;
      case 6:
        if (s == "assert") {
          if (!AtSiteLimit()) pending_.push_back(MakePending(PendKind::kAssert, b, e));
          return;
        }
        if (s == "return") {
          Scope& sc = scopes_[static_cast<size_t>(CurrentScope())];
          if (b + 1 < e) sc.returns.emplace_back(b + 1, e);
          ScanCallsAndAssigns(b + 1, e, false);
          return;
        }
        if (s == "import") {
          RecordImport(b, e);
          return;
        }
        if (s == "global") return;
        break;
      case 4:
        if (s == "from" && b + 1 < e) {
          RecordImport(b, e);
          return;
        }
        if (s == "pass") return;
        break;
      default:
        break;
    }
  }
  ScanCallsAndAssigns(b, e, true);
}

void FileExtractor::RecordImport(uint32_t b, uint32_t e) {
  const auto& T = toks_.tokens;
  auto dotted = [&](uint32_t* i) {
    std::string s;
    while (*i < e) {
      const Token& t = T[*i];
      if (t.kind == TokenKind::kName) {
        if (IsName(text_, t, "import") || IsName(text_, t, "as")) break;
        s += py::TokenText(text_, t);
      } else if (IsOp(text_, t, '.')) {
        s.push_back('.');
      } else {
        break;
      }
      ++*i;
    }
    return s;
  };
  if (IsName(text_, T[b], "import")) {
    uint32_t i = b + 1;
    while (i < e) {
      std::string name = dotted(&i);
      if (name.empty()) break;
      if (i + 1 < e && IsName(text_, T[i], "as")) {
        imports_[std::string(py::TokenText(text_, T[i + 1]))] = name;
        i += 2;
      } else {
        imports_[name.substr(0, name.find('.'))] = name.substr(0, name.find('.'));
      }
      if (i < e && IsOp(text_, T[i], ',')) ++i;
      else break;
    }
    return;
  }
  // from M import a [as b], ...
  uint32_t i = b + 1;
  while (i < e && (IsOp(text_, T[i], '.') || IsOp(text_, T[i], "..."))) ++i;
  std::string mod = dotted(&i);
  if (i >= e || !IsName(text_, T[i], "import")) return;
  ++i;
  while (i < e) {
    const Token& t = T[i];
    if (IsOp(text_, t, '(') || IsOp(text_, t, ')') || IsOp(text_, t, ',')) {
      ++i;
      continue;
    }
    if (t.kind != TokenKind::kName && !IsOp(text_, t, '*')) break;
    std::string name(py::TokenText(text_, t));
    ++i;
    std::string local = name;
    if (i + 1 < e && IsName(text_, T[i], "as")) {
      local = std::string(py::TokenText(text_, T[i + 1]));
      i += 2;
    }
    imports_[local] = mod + "." + name;
  }
}

// One pass over a simple statement: calls that can produce an error, and
// (when `assigns`) the names it binds.
void FileExtractor::ScanCallsAndAssigns(uint32_t b, uint32_t e, bool assigns) {
  const auto& T = toks_.tokens;
  int depth = 0;
  bool lambda_seen = false;
  uint32_t eqs[8];
  int n_eq = 0;
  for (uint32_t i = b; i < e; ++i) {
    const Token& t = T[i];
    if (t.kind == TokenKind::kOp) {
      if (t.end - t.begin == 1) {
        char c = text_[t.begin];
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') depth = depth > 0 ? depth - 1 : 0;
        else if (c == '=' && depth == 0 && !lambda_seen && n_eq < 8) eqs[n_eq++] = i;
      }
      continue;
    }
    if (t.kind != TokenKind::kName) continue;
    std::string_view s = py::TokenText(text_, t);
    if (depth == 0 && s == "lambda") lambda_seen = true;
    if (i + 1 >= e || !IsOp(text_, T[i + 1], '(')) continue;
    // a call: is it one we want?
    std::optional<PendKind> kind;
    std::string method;
    bool dotted = i > b && IsOp(text_, T[i - 1], '.');
    NoteHelperCall(b, i, e, dotted);
    switch (s.size()) {
      case 4:
        if (s == "warn") {
          if (dotted && i >= b + 2 && T[i - 2].kind == TokenKind::kName) {
            std::string_view recv = py::TokenText(text_, T[i - 2]);
            if (recv == "warnings") kind = PendKind::kWarn, method = "warnings";
            else if (IsLoggerName(recv) || logger_names_.count(std::string(recv))) kind = PendKind::kLog, method = "warn";
          } else if (!dotted) {
            kind = PendKind::kWarn, method = "";
          }
        }
        break;
      case 5:
        if (s == "abort") kind = PendKind::kAbort;
        else if (s == "error") kind = PendKind::kLog, method = "error";
        break;
      case 7:
        if (s == "warning") kind = PendKind::kLog, method = "warning";
        break;
      case 8:
        if (s == "critical") kind = PendKind::kLog, method = "critical";
        break;
      case 9:
        if (s == "exception") kind = PendKind::kLog, method = "exception";
        break;
      case 12:
        if (s == "JSONResponse") kind = PendKind::kJsonResponse;
        break;
      default:
        if (s.size() >= 19 && IsErrorResponseName(s)) kind = PendKind::kErrorResponse;
        break;
    }
    if (!kind && !dotted) {
      auto it = imports_.find(std::string(s));
      if (it != imports_.end() && it->second == "warnings.warn") kind = PendKind::kWarn, method = "alias";
    }
    if (!kind) continue;
    uint32_t start = i;
    if (*kind == PendKind::kLog) {
      if (!dotted || i < b + 2) continue;
      if (T[i - 2].kind == TokenKind::kName) {
        std::string_view recv = py::TokenText(text_, T[i - 2]);
        if (!IsLoggerName(recv) && !logger_names_.count(std::string(recv))) continue;
      } else if (IsOp(text_, T[i - 2], ')')) {
        // logging.getLogger(...).warning(...): find the '(' of getLogger(...)
        uint32_t k = i - 2;
        int d = 0;
        while (k > b) {
          const Token& u = T[k];
          if (IsOp(text_, u, ')')) ++d;
          else if (IsOp(text_, u, '(') && --d == 0) break;
          --k;
        }
        if (d != 0 || k == b || !IsName(text_, T[k - 1], "getLogger")) continue;
        start = k - 1;
      } else {
        continue;
      }
    }
    // callee start: walk back over NAME '.' NAME ...
    while (start >= b + 2 && IsOp(text_, T[start - 1], '.') && T[start - 2].kind == TokenKind::kName) start -= 2;
    bool complex_receiver = start > b && IsOp(text_, T[start - 1], '.');
    if (*kind == PendKind::kAbort) {
      // flask/werkzeug abort: `abort(...)` or `<name>.abort(...)` (checked against imports later)
      if (complex_receiver || (i - start) > 2) continue;
      method = (i == start) ? "" : std::string(py::TokenText(text_, T[start]));
    }
    if (AtSiteLimit()) continue;
    Pending p = MakePending(*kind, start, e);
    p.lparen = i + 1;
    p.method = std::move(method);
    pending_.push_back(std::move(p));
  }
  if (!assigns) return;
  const Token& first = T[b];
  // annotated assignment: NAME ':' ann ['=' value]
  if (b + 1 < e && first.kind == TokenKind::kName && IsOp(text_, T[b + 1], ':')) {
    if (n_eq > 0) AddAssign(py::TokenText(text_, first), first, false, true, eqs[0] + 1, e);
    return;
  }
  // augmented assignment
  if (b + 1 < e && T[b + 1].kind == TokenKind::kOp) {
    std::string_view op = py::TokenText(text_, T[b + 1]);
    if (op.size() >= 2 && op.back() == '=' && op != "==" && op != "<=" && op != ">=" && op != "!=" && op != ":=") {
      if (first.kind == TokenKind::kName) {
        bool plus = op == "+=";
        AddAssign(py::TokenText(text_, first), first, plus, plus, b + 2, e);
      }
      return;
    }
  }
  if (n_eq == 0) return;
  uint32_t vb = eqs[n_eq - 1] + 1;
  // `x = logging.getLogger(__name__)`, `log = init_logger(__name__)`: x is a logger,
  // whatever its name (IsLoggerName knows the usual ones).
  if (n_eq == 1 && eqs[0] == b + 1 && T[b].kind == TokenKind::kName) {
    for (uint32_t i = vb; i + 1 < e; ++i) {
      if (T[i].kind != TokenKind::kName || !IsOp(text_, T[i + 1], '(')) continue;
      std::string_view fn = py::TokenText(text_, T[i]);
      if (fn == "getLogger" || fn == "get_logger" || fn == "init_logger" || fn == "getChild")
        logger_names_.insert(std::string(py::TokenText(text_, T[b])));
      break;
    }
  }
  uint32_t tb = b;
  for (int k = 0; k < n_eq; ++k) {
    uint32_t te = eqs[k];
    if (te == tb + 1 && T[tb].kind == TokenKind::kName) {
      AddAssign(py::TokenText(text_, T[tb]), first, false, true, vb, e);
    } else if (te > tb) {
      bool tuple_like = IsOp(text_, T[tb], '(') || IsOp(text_, T[tb], '[') || IsOp(text_, T[tb], '*');
      int d = 0;
      for (uint32_t i = tb; i < te && !tuple_like; ++i) {
        const Token& u = T[i];
        if (u.kind == TokenKind::kOp && u.end - u.begin == 1) {
          char c = text_[u.begin];
          if (c == '(' || c == '[' || c == '{') ++d;
          else if (c == ')' || c == ']' || c == '}') --d;
          else if (c == ',' && d == 0) tuple_like = true;
        }
      }
      if (tuple_like) BindNames(tb, te, first);
    }
    tb = te + 1;
  }
}

void FileExtractor::ReadStructure() {
  py::TokenizeOptions opts;
  opts.path = path_;
  py::Tokenize(text_, opts, &toks_);
  scopes_.emplace_back();  // module
  for (const py::LogicalLine& l : toks_.lines) ProcessLine(l);
  stack_.clear();
}

PythonExtractResult FileExtractor::Run() {
  if (text_.size() >= 0xFFFFFFF0u) {
    result_.failed = true;
    result_.diagnostics.push_back({std::string(path_), 0, 0, "file too large for the Python front end (>= 4 GiB)"});
    return std::move(result_);
  }
  in_tests_ = InTests(path_);
  ReadStructure();
  for (const Pending& p : pending_) Finish(p);
  if (!factories_pending_.empty()) {
    std::unordered_map<std::string, std::optional<std::string>> table;
    for (auto& [site_index, name] : factories_pending_) {
      Site& s = result_.sites[site_index];
      if (s.error_class) continue;
      auto it = table.find(name);
      if (it == table.end()) {
        // The class the function of that name returns; none when two functions of
        // the name (methods of two classes) return different ones.
        std::optional<std::string> info;
        bool conflict = false;
        if (!IsClasslike(name))
          for (const auto& [fname, sc] : functions_) {
            if (fname != name) continue;
            std::optional<std::string> one = FactoryInfo(scopes_[static_cast<size_t>(sc)]);
            if (one && info && *one != *info) conflict = true;
            if (one && !info) info = one;
          }
        if (conflict) info.reset();
        it = table.emplace(name, info).first;
      }
      if (it->second) s.error_class = it->second;
      else s.dynamic = true;
    }
  }
  auto by_pos = [](const Site& a, const Site& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  };
  if (!std::is_sorted(result_.sites.begin(), result_.sites.end(), by_pos))
    std::stable_sort(result_.sites.begin(), result_.sites.end(), by_pos);
  // tokenizer diagnostics first (they explain later parse failures)
  result_.diagnostics.insert(result_.diagnostics.begin(), std::make_move_iterator(toks_.diagnostics.begin()),
                             std::make_move_iterator(toks_.diagnostics.end()));
  toks_.diagnostics.clear();
  result_.tokens = std::make_shared<py::Tokens>(std::move(toks_));
  return std::move(result_);
}

}  // namespace pyx

using pyx::FileExtractor;

std::vector<py::ClassMessage> CollectPythonClassMessages(std::string_view path, std::string_view text) {
  if (!py::MayDefineClassMessages(text) || text.size() >= 0xFFFFFFF0u) return {};
  thread_local py::Tokens tokens;
  FileExtractor fx(path, text, &tokens, ExtractLimits{});
  fx.CollectOnly();
  std::vector<py::ClassMessage> out = fx.RunCollect();
  if (tokens.tokens.capacity() > (size_t{1} << 22)) tokens = py::Tokens();
  return out;
}

PythonExtractResult ExtractPython(std::string_view path, std::string_view text, const ExtractLimits& limits,
                                  const py::ClassMessageTable* classes) {
  thread_local py::Tokens tokens;
  FileExtractor fx(path, text, &tokens, limits);
  fx.SetClassTable(classes);
  PythonExtractResult r = fx.Run();
  if (tokens.tokens.capacity() > (size_t{1} << 22)) tokens = py::Tokens();  // do not pin huge buffers
  return r;
}

}  // namespace errdex
