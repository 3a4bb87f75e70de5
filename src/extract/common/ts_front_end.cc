// Shared parts of the tree-sitter front ends (see ts_front_end.h).
#include "extract/common/ts_front_end.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <utility>

#include "model/utf8.h"

namespace errdex {

bool PathLooksLikeTests(std::string_view path) {
  std::string p = "/" + std::string(path);
  for (std::string_view dir : {"/tests/", "/test/", "/testing/", "/testdata/", "/benches/", "/__tests__/"})
    if (p.find(dir) != std::string::npos) return true;
  return false;
}

bool ContainsAnyOf(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words)
    if (text.find(w) != std::string_view::npos) return true;
  return false;
}

#ifdef ERRDEX_HAVE_TREE_SITTER

namespace {

int64_t ThreadCpuMicros() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

struct Deadline {
  int64_t cpu_micros_at;
  int64_t started;
  int64_t grace_micros;
  double min_error_rate;  // bytes per CPU microsecond
  uint32_t calls = 0;
  bool slow_errors = false;
};

bool ParseProgress(TSParseState* state) {
  Deadline* d = static_cast<Deadline*>(state->payload);
  if ((d->calls++ & 15u) != 0) return false;  // the clock every 16th call
  int64_t now = ThreadCpuMicros();
  if (now > d->cpu_micros_at) return true;
  int64_t spent = now - d->started;
  if (state->has_error && spent > d->grace_micros &&
      static_cast<double>(state->current_byte_offset) < d->min_error_rate * static_cast<double>(spent)) {
    d->slow_errors = true;
    return true;
  }
  return false;
}

// One parser per thread, reused across files and languages.
class ThreadParser {
 public:
  ThreadParser() : parser_(ts_parser_new()) {}
  ~ThreadParser() { ts_parser_delete(parser_); }
  ThreadParser(const ThreadParser&) = delete;
  ThreadParser& operator=(const ThreadParser&) = delete;
  TSParser* get() { return parser_; }

 private:
  TSParser* parser_;
};


}  // namespace

TsTree TsParse(const TSLanguage* language, std::string_view what, std::string_view path, std::string_view text,
               const TsExtractOptions& options, TsExtractResult& result) {
  auto fail = [&](std::string message) {
    result.failed = true;
    result.diagnostics.push_back(Diagnostic{std::string(path), 0, 0, std::move(message)});
    return TsTree();
  };
  if (text.size() > options.max_file_bytes || text.size() > UINT32_MAX / 2) {
    return fail("file too large for the " + std::string(what) + " front end (" + std::to_string(text.size()) +
                " bytes > max_file_bytes " + std::to_string(options.max_file_bytes) + ")");
  }
  thread_local ThreadParser thread_parser;
  TSParser* parser = thread_parser.get();
  if (!ts_parser_set_language(parser, language)) {
    return fail("tree-sitter grammar ABI " + std::to_string(ts_language_abi_version(language)) +
                " not supported by the tree-sitter core");
  }
  const double mib = static_cast<double>(text.size()) / (1024.0 * 1024.0);
  using std::chrono::duration_cast;
  using std::chrono::microseconds;
  const int64_t budget = duration_cast<microseconds>(options.parse_timeout).count() +
                         static_cast<int64_t>(mib * static_cast<double>(
                                                        duration_cast<microseconds>(options.parse_timeout_per_mib).count()));
  const int64_t started = ThreadCpuMicros();
  Deadline deadline{started + budget, started, duration_cast<microseconds>(options.error_grace).count(),
                    options.min_error_mib_per_second * 1048576.0 / 1e6};
  TSParseOptions parse_options{&deadline, &ParseProgress};
  TSTree* tree = ts_parser_parse_with_options(
      parser, nullptr,
      TSInput{&text,
              [](void* payload, uint32_t byte, TSPoint, uint32_t* bytes_read) -> const char* {
                const std::string_view* t = static_cast<const std::string_view*>(payload);
                if (byte >= t->size()) {
                  *bytes_read = 0;
                  return "";
                }
                *bytes_read = static_cast<uint32_t>(t->size() - byte);
                return t->data() + byte;
              },
              TSInputEncodingUTF8, nullptr},
      parse_options);
  if (!tree) {
    ts_parser_reset(parser);
    if (deadline.slow_errors) {
      char rate[32];
      std::snprintf(rate, sizeof rate, "%g", options.min_error_mib_per_second);
      return fail(std::string("parse cancelled: syntax errors and under ") + rate + " MiB per CPU second after " +
                  std::to_string(options.error_grace.count()) + " ms (min_error_mib_per_second): not " +
                  std::string(what) + ", file not extracted");
    }
    return fail("parse cancelled after " + std::to_string(budget / 1000) +
                " ms of CPU time (parse_timeout + parse_timeout_per_mib * size): file not extracted");
  }
  return TsTree(tree);
}

// ---------------------------------------------------------------------------
// TsWalker.

TsWalker::TsWalker(std::string_view path, std::string_view text, std::string language, const TsExtractOptions& options)
    : path_(path), text_(text), language_(std::move(language)), options_(options) {
  file_in_tests_ = PathLooksLikeTests(path);
}

std::string_view TsWalker::Text(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  if (a > text_.size() || b > text_.size() || b < a) return {};
  return text_.substr(a, b - a);
}

TSNode TsWalker::Parent(size_t up) const {
  if (up >= ancestors_.size()) return TSNode{};
  return ancestors_[ancestors_.size() - 1 - up];
}

void TsWalker::PushFunction(std::string name) { ctx_.push_back({CtxKind::kFunction, std::move(name)}); }
void TsWalker::PushType(std::string name) { ctx_.push_back({CtxKind::kType, std::move(name)}); }
void TsWalker::PushGuard(std::string text) { ctx_.push_back({CtxKind::kGuard, std::move(text)}); }
void TsWalker::PushCatch(std::string text) { ctx_.push_back({CtxKind::kCatch, std::move(text)}); }
void TsWalker::PushTests() { ctx_.push_back({CtxKind::kTests, {}}); }

void TsWalker::Run(TSNode root) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  std::vector<size_t> marks;  // ctx_ size at each open node
  auto visit = [&]() -> bool {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (ts_node_is_error(node) || ts_node_is_missing(node)) {
      if (syntax_errors_++ == 0) first_error_ = ts_node_start_point(node);
    }
    marks.push_back(ctx_.size());
    const char* field = ts_tree_cursor_current_field_name(&cursor);
    return Enter(node, field ? std::string_view(field) : std::string_view());
  };
  auto leave = [&]() {
    ctx_.resize(marks.back());
    marks.pop_back();
  };
  bool descend = visit();
  for (;;) {
    if (descend) {
      TSNode here = ts_tree_cursor_current_node(&cursor);
      if (ts_tree_cursor_goto_first_child(&cursor)) {
        ancestors_.push_back(here);
        descend = visit();
        continue;
      }
    }
    leave();
    for (;;) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        descend = visit();
        break;
      }
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
      ancestors_.pop_back();
      leave();
    }
  }
}

Site TsSiteAt(SiteKind kind, std::string language, std::string_view path, TSNode at, TSNode end) {
  Site s;
  s.kind = kind;
  s.language = std::move(language);
  s.file_path = std::string(path);
  TSPoint start = ts_node_start_point(at);
  s.line = static_cast<int>(start.row) + 1;
  s.column = static_cast<int>(start.column);
  TSPoint stop = ts_node_end_point(end);
  s.end_line = static_cast<int>(stop.row) + 1;
  if (stop.column == 0 && stop.row > start.row) s.end_line = static_cast<int>(stop.row);
  return s;
}

std::string TsFunctionName(const std::vector<const std::string*>& innermost_first) {
  std::string qual;
  for (auto it = innermost_first.rbegin(); it != innermost_first.rend(); ++it) {
    if (!qual.empty()) qual += ".";
    qual += **it;
  }
  return qual.empty() ? "<module>" : qual;
}

Site TsWalker::NewSite(SiteKind kind, TSNode at, TSNode end) const {
  Site s = TsSiteAt(kind, language_, path_, at, end);
  s.in_tests = file_in_tests_;
  std::vector<const std::string*> parts;
  for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it) {
    if (it->kind == CtxKind::kTests) s.in_tests = true;
    if ((it->kind == CtxKind::kFunction || it->kind == CtxKind::kType) && !it->text.empty() &&
        parts.size() < options_.max_name_parts)
      parts.push_back(&it->text);
  }
  s.function = TsFunctionName(parts);
  const ExtractLimits& limits = options_.limits;
  for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it) {
    if (it->kind == CtxKind::kFunction || it->kind == CtxKind::kType) break;
    if (it->kind == CtxKind::kCatch && !s.except_context) s.except_context = it->text;
    if (it->kind != CtxKind::kGuard) continue;
    if (s.guards.size() == limits.max_guards) {  // the innermost are kept: count the rest
      size_t total = s.guards.size();
      for (auto rest = it; rest != ctx_.rend() && rest->kind != CtxKind::kFunction && rest->kind != CtxKind::kType;
           ++rest)
        total += rest->kind == CtxKind::kGuard;
      NoteTruncated(s, "guards", total);
      break;
    }
    s.guards.emplace_back(it->text, 0, Utf8CutPoint(it->text, limits.max_guard_bytes));
    if (it->text.size() > limits.max_guard_bytes) NoteTruncated(s, "guardBytes", it->text.size());
  }
  std::reverse(s.guards.begin(), s.guards.end());
  return s;
}

void TsWalker::Finish(Site site) {
  if (sites_.size() >= options_.limits.max_sites) {
    ++sites_left_out_;
    return;
  }
  CapSite(site, options_.limits);
  sites_.push_back(std::move(site));
}

void TsWalker::TakeInto(TsExtractResult& result) {
  if (syntax_errors_ > 0) {
    result.diagnostics.push_back(Diagnostic{std::string(path_), static_cast<int>(first_error_.row) + 1,
                                            static_cast<int>(first_error_.column),
                                            "syntax error (" + std::to_string(syntax_errors_) +
                                                " unparsed or missing region(s)); sites in them may be missing"});
  }
  std::stable_sort(sites_.begin(), sites_.end(), [](const Site& a, const Site& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  result.sites = std::move(sites_);
  result.sites_left_out = sites_left_out_;
}

std::vector<TSNode> NamedChildren(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode ch = ts_tree_cursor_current_node(&c);
      if (ts_node_is_named(ch)) out.push_back(ch);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

// ---------------------------------------------------------------------------
// String escapes.

std::string DecodeEscapes(std::string_view s, EscapeDialect dialect) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (c != '\\' || i + 1 >= n) {
      out.push_back(c);
      ++i;
      continue;
    }
    char e = s[i + 1];
    i += 2;
    switch (e) {
      case 'n': out.push_back('\n'); continue;
      case 't': out.push_back('\t'); continue;
      case 'r': out.push_back('\r'); continue;
      case '\\': out.push_back('\\'); continue;
      case '"': out.push_back('"'); continue;
      case '\'': out.push_back('\''); continue;
      default: break;
    }
    if (dialect == EscapeDialect::kRust) {
      if (e == '0') {
        out.push_back('\0');
      } else if (e == 'x' && i + 1 < n && HexDigitValue(s[i]) >= 0 && HexDigitValue(s[i + 1]) >= 0) {
        out.push_back(static_cast<char>(HexDigitValue(s[i]) * 16 + HexDigitValue(s[i + 1])));
        i += 2;
      } else if (e == 'u' && i < n && s[i] == '{') {
        size_t close = s.find('}', i);
        uint32_t cp = 0;
        bool ok = close != std::string_view::npos && close > i + 1;
        for (size_t k = i + 1; ok && k < close; ++k) {
          if (s[k] == '_') continue;
          int h = HexDigitValue(s[k]);
          if (h < 0 || cp > 0x10FFFF) ok = false;
          else cp = cp * 16 + static_cast<uint32_t>(h);
        }
        if (ok) {
          AppendUtf8OrReplacement(out, cp);
          i = close + 1;
        } else {
          out += "\\u";
        }
      } else if (e == '\n' || e == '\r') {  // continuation: skip the next line's leading whitespace
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
      } else {
        out.push_back('\\');
        out.push_back(e);
      }
      continue;
    }
    // Go and Java.
    if (e == 'b') { out.push_back('\b'); continue; }
    if (e == 'f') { out.push_back('\f'); continue; }
    if (dialect == EscapeDialect::kGo) {
      if (e == 'a') { out.push_back('\a'); continue; }
      if (e == 'v') { out.push_back('\v'); continue; }
      if (e == 'x' && i + 1 < n && HexDigitValue(s[i]) >= 0 && HexDigitValue(s[i + 1]) >= 0) {
        out.push_back(static_cast<char>(HexDigitValue(s[i]) * 16 + HexDigitValue(s[i + 1])));
        i += 2;
        continue;
      }
      if ((e == 'u' || e == 'U')) {
        size_t len = e == 'u' ? 4 : 8;
        uint32_t cp = 0;
        bool ok = i + len <= n;
        for (size_t k = 0; ok && k < len; ++k) {
          int h = HexDigitValue(s[i + k]);
          if (h < 0) ok = false;
          else cp = cp * 16 + static_cast<uint32_t>(h);
        }
        if (ok) {
          AppendUtf8OrReplacement(out, cp);
          i += len;
          continue;
        }
      }
      if (e >= '0' && e <= '7' && i + 1 < n && s[i] >= '0' && s[i] <= '7' && s[i + 1] >= '0' && s[i + 1] <= '7') {
        out.push_back(static_cast<char>(((e - '0') * 64 + (s[i] - '0') * 8 + (s[i + 1] - '0')) & 0xFF));
        i += 2;
        continue;
      }
    } else {  // Java
      if (e == 's') { out.push_back(' '); continue; }
      if (e == '\n' || e == '\r') {  // text block line continuation
        if (e == '\r' && i < n && s[i] == '\n') ++i;
        continue;
      }
      if (e == 'u') {
        while (i < n && s[i] == 'u') ++i;
        uint32_t cp = 0;
        bool ok = i + 4 <= n;
        for (size_t k = 0; ok && k < 4; ++k) {
          int h = HexDigitValue(s[i + k]);
          if (h < 0) ok = false;
          else cp = cp * 16 + static_cast<uint32_t>(h);
        }
        if (ok) {
          i += 4;
          // a surrogate pair written as two escapes
          if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u') {
            uint32_t lo = 0;
            bool ok2 = true;
            for (size_t k = 0; k < 4; ++k) {
              int h = HexDigitValue(s[i + 2 + k]);
              if (h < 0) ok2 = false;
              else lo = lo * 16 + static_cast<uint32_t>(h);
            }
            if (ok2 && lo >= 0xDC00 && lo <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              i += 6;
            }
          }
          AppendUtf8OrReplacement(out, cp);
          continue;
        }
      }
      if (e >= '0' && e <= '7') {
        int v = e - '0';
        size_t max = e <= '3' ? 2 : 1;
        for (size_t k = 0; k < max && i < n && s[i] >= '0' && s[i] <= '7'; ++k) v = v * 8 + (s[i++] - '0');
        AppendUtf8OrReplacement(out, static_cast<uint32_t>(v));
        continue;
      }
    }
    out.push_back('\\');
    out.push_back(e);
  }
  return out;
}

#endif  // ERRDEX_HAVE_TREE_SITTER

}  // namespace errdex
