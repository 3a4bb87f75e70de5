// serve_test_util.h: a small catalog database for the serve tests, with hostile
// records among ordinary ones. Test-only.
#pragma once

#include <string>
#include <vector>

#include "model/pattern.h"
#include "store/catalog_store.h"
#include "store/store_test_util.h"

namespace errdex::serve::testing_util {

using errdex::testing_util::MakeLine;
using errdex::testing_util::TempDir;

inline ScanInfo Info(const std::string& repo, const std::string& sha, const std::string& dv) {
  ScanInfo info;
  info.repo = repo;
  info.sha = sha;
  info.dataset_version = dv;
  info.source = "test";
  return info;
}

// A line whose message has one interpolation: "<prefix> {value} <suffix>".
inline CatalogLine TemplatedLine(const std::string& repo, const std::string& sha, int index, const std::string& prefix,
                                 const std::string& suffix, const std::string& cls = "ValueError") {
  CatalogLine l = MakeLine(repo, sha, index, prefix + " {value} " + suffix, cls);
  l.record.message_pattern = EscapePatternLiteral(prefix + " ") + std::string(kHoleGroup) +
                             EscapePatternLiteral(" " + suffix);
  return l;
}

// The hostile record of every test: HTML, a terminal escape and a bidi override
// in its message, a javascript: permalink.
inline CatalogLine HostileLine(const std::string& repo, const std::string& sha) {
  CatalogLine l = MakeLine(repo, sha, 90, "<img src=x onerror=alert(1)> \x1b[31mred\x1b[0m \xe2\x80\xae" "evil", "XssError");
  l.record.github_url = "javascript:alert(2)";
  l.record.documentation = "<script>alert(3)</script>";
  l.record.tags = std::vector<std::string>{"\"><b>tag</b>"};
  l.record.source_code = "def f():\n    raise XssError('<img src=x onerror=alert(1)>')\n";
  return l;
}

// Writes a catalog at `path`: repo o/r at commit s1 with `lines` (default: three
// ordinary records and the hostile one).
inline void WriteCatalog(const std::string& path, std::vector<CatalogLine> lines = {}) {
  if (lines.empty()) {
    lines = {TemplatedLine("o/r", "s1", 0, "expected shape", "for the attention kernel"),
             MakeLine("o/r", "s1", 1, "tensor is empty"),
             MakeLine("o/r", "s1", 2, "unknown model name", "KeyError"),
             HostileLine("o/r", "s1")};
  }
  auto store = CatalogStore::Open(path, true);
  if (!store.ok()) return;
  (*store)->PutScan(Info("o/r", "s1", "2026-01-01T00:00:00.000Z"), lines);
}

}  // namespace errdex::serve::testing_util
