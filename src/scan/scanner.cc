// scan/scanner.cc: the front-end table, the record of a site (window, id,
// link), and Scan() -- ScanToSinks (pipeline.cc) into memory.
#include "scan/scanner.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "document/documenter.h"
#include "extract/common/binary.h"
#include "extract/cpp/cpp_extractor.h"
#include "extract/javascript/js_extractor.h"
#include "extract/go/go_extractor.h"
#include "extract/java/java_extractor.h"
#include "extract/python/python_extractor.h"
#include "extract/rust/rust_extractor.h"
#include "model/utf8.h"
#include "scan/sinks.h"
#include "store/catalog_store.h"

namespace errdex {

namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

template <typename R>
ExtractOutput FromFrontEnd(R r) {
  ExtractOutput out;
  out.sites = std::move(r.sites);
  out.diagnostics = std::move(r.diagnostics);
  out.failed = r.failed;
  if constexpr (requires { r.sites_left_out; }) out.sites_left_out = r.sites_left_out;
  if constexpr (requires { r.tokens; }) out.python_tokens = std::move(r.tokens);
  return out;
}

}  // namespace

Extractor ExtractorForPath(std::string_view path, const ExtractLimits& limits) {
  if (EndsWith(path, ".py")) {
    return [limits](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractPython(p, text, limits)); };
  }
  if (IsCppPath(path))
    return [limits](std::string_view p, std::string_view text) {
      return FromFrontEnd(ExtractCpp(p, text, nullptr, limits));
    };
#ifdef ERRDEX_HAVE_TREE_SITTER
  // tree-sitter front end. Minified bundles and type declarations raise nothing a
  // user can map back to a line worth reading, and would dominate the scan time.
  if (EndsWith(path, ".min.js") || EndsWith(path, ".d.ts")) return nullptr;
  JsExtractOptions js;
  js.limits = limits;
  for (std::string_view ext : {".js", ".mjs", ".cjs", ".jsx"})
    if (EndsWith(path, ext))
      return [js](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractJavaScript(p, text, false, js)); };
  for (std::string_view ext : {".ts", ".mts", ".cts", ".tsx"})
    if (EndsWith(path, ext))
      return [js](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractJavaScript(p, text, true, js)); };
  TsExtractOptions ts;
  ts.limits = limits;
  if (EndsWith(path, ".rs"))
    return [ts](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractRust(p, text, ts)); };
  if (EndsWith(path, ".go"))
    return [ts](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractGo(p, text, ts)); };
  if (EndsWith(path, ".java"))
    return [ts](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractJava(p, text, ts)); };
#endif
  return nullptr;
}

std::vector<std::string_view> SplitSourceLines(std::string_view text) {
  std::vector<std::string_view> lines;
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.remove_prefix(3);  // BOM, as utf-8-sig
  size_t start = 0, i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '\n' || c == '\r') {
      lines.push_back(text.substr(start, i - start));
      i += (c == '\r' && i + 1 < n && text[i + 1] == '\n') ? 2 : 1;
      start = i;
    } else {
      ++i;
    }
  }
  if (start < n) lines.push_back(text.substr(start));
  return lines;
}

std::string_view IdMessageKey(const Site& site) {
  if (site.error_message) return *site.error_message;
  if (site.message_expr) return *site.message_expr;
  return {};
}

SourceWindow CutSourceWindow(const std::vector<std::string_view>& lines, int line, int column, size_t max_bytes) {
  SourceWindow w;
  int n = static_cast<int>(lines.size());
  int start = std::max(1, line - kSourceContextLines);
  int end = std::min(n, line + kSourceContextLines);
  if (end < start) {  // a site past the last line (cannot happen with a correct front end)
    start = end = std::max(1, std::min(line, n));
  }
  auto bytes = [&](int a, int b) {
    size_t total = 0;
    for (int k = a; k <= b && k <= n; ++k) total += lines[k - 1].size() + (k > a ? 1 : 0);
    return total;
  };
  w.uncut_bytes = bytes(start, end);
  const int anchor = std::max(start, std::min(line, end));
  size_t total = w.uncut_bytes;
  while (total > max_bytes && (start < anchor || end > anchor)) {  // drop the farthest line
    if (end - anchor >= anchor - start) {
      total -= lines[end - 1].size() + 1;
      --end;
    } else {
      total -= lines[start - 1].size() + 1;
      ++start;
    }
  }
  w.start = start;
  w.end = end;
  w.cut = total < w.uncut_bytes;
  if (total > max_bytes && anchor <= n) {  // the site's own line alone is too long
    std::string_view l = lines[anchor - 1];
    size_t col = column > 0 ? static_cast<size_t>(column) : 0;
    size_t b = col > max_bytes / 4 ? col - max_bytes / 4 : 0;
    if (b + max_bytes > l.size()) b = l.size() > max_bytes ? l.size() - max_bytes : 0;
    while (b > 0 && (static_cast<unsigned char>(l[b]) & 0xC0) == 0x80) --b;  // a whole first character
    std::string_view tail = l.substr(b);
    w.code = std::string(tail.substr(0, Utf8CutPoint(tail, max_bytes)));
    w.cut = true;
    return w;
  }
  w.code.reserve(total);
  for (int k = start; k <= end && k <= n; ++k) {
    if (k > start) w.code.push_back('\n');
    w.code.append(lines[k - 1]);
  }
  return w;
}

Record BuildRecord(const Site& site, const std::vector<std::string_view>& lines,
                   const std::optional<std::string>& repo, const std::optional<std::string>& sha,
                   const std::string& analyzed_at, int occurrence) {
  return BuildRecord(site, CutSourceWindow(lines, site.line, site.column, ExtractLimits{}.max_excerpt_bytes), repo,
                     sha, analyzed_at, occurrence);
}

Record BuildRecord(const Site& site, const SourceWindow& window, const std::optional<std::string>& repo,
                   const std::optional<std::string>& sha, const std::string& analyzed_at, int occurrence) {
  Record r;
  r.id = MakeRecordId(repo.value_or(""), site.file_path, SiteKindName(site.kind), site.error_class.value_or(""),
                      IdMessageKey(site), occurrence);
  r.repo = repo;
  if (site.error_message) {
    std::string slug = MakeSlug(*site.error_message);
    if (!slug.empty()) r.slug = std::move(slug);
  }
  r.error_code = site.error_code;
  r.error_message = site.error_message;
  r.message_pattern = site.message_pattern;
  r.error_class = site.error_class;
  r.http_status = site.http_status;
  r.file_path = site.file_path;
  r.line_number = site.line;
  r.source_code = window.code;
  r.source_code_start = window.start;
  r.source_code_end = window.end;
  if (repo && sha) r.github_url = MakeGithubUrl(*repo, *sha, site.file_path, window.start, window.end);
  r.analyzed_sha = sha;
  r.analyzed_at = analyzed_at;
  r.schema_version = kSchemaVersion;
  return r;
}

Result<ScanResult> Scan(const ScanOptions& options) {
  CollectSink sink(options.json_lines);
  return ScanToSinks(options, {&sink});
}

std::string CatalogLineJson(const CatalogLine& line, bool with_facts) {
  if (with_facts || !line.facts) return CatalogLineToJson(line);
  std::string out;  // CatalogLineToJson without the facts object
  out.append("{\"record\":");
  out.append(RecordToJson(line.record));
  out.append(",\"datasetVersion\":");
  AppendJsonString(out, line.dataset_version);
  out.push_back('}');
  return out;
}

}  // namespace errdex
