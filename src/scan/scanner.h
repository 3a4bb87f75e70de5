// scan/: turns a repository (directory, git work tree, or a commit read from
// git) into catalog lines -- one seed-format Record per error site, with the
// site's facts kept beside it. Lists the files, reads and extracts them on N
// threads (output identical for any N), builds each Record, then runs the
// document stage. The library never prints or exits; the CLI (cli/scan_cmd.cc)
// does.
//
// Tested by scanner_test.cc (in memory) and tests/scan_e2e_test.cc (the binary).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/common/diagnostic.h"
#include "extract/common/file_source.h"
#include "extract/common/limits.h"
#include "extract/python/tokenizer.h"
#include "model/record.h"
#include "model/site.h"
#include "model/status.h"

namespace errdex {

class CatalogStore;

// A front end: sites and diagnostics of one file. Must be thread-safe.
struct ExtractOutput {
  std::vector<Site> sites;
  std::vector<Diagnostic> diagnostics;
  bool failed = false;  // nothing could be extracted: the file counts as skipped
  size_t sites_left_out = 0;  // sites past ExtractLimits::max_sites
  std::shared_ptr<py::Tokens> python_tokens;  // the Python front end's tokens, for the document stage
};
using Extractor = std::function<ExtractOutput(std::string_view path, std::string_view text)>;

// The front end for a repo-relative path, chosen by extension (".py" ->
// ExtractPython); nullptr when no front end handles it.
Extractor ExtractorForPath(std::string_view path, const ExtractLimits& limits = ExtractLimits{});

// Progress, reported from the thread that called Scan() about every 100 ms.
struct ScanProgress {
  bool documenting = false;  // false: reading + extracting files; true: the document stage
  int64_t files_total = 0;   // files a front end handles
  int64_t files_done = 0;
  int64_t sites = 0;
  int64_t sites_documented = 0;
  uint64_t bytes = 0;
  double seconds = 0;
};

struct ScanOptions {
  std::string path;                 // directory, work tree, or git repository (bare or not)
  std::optional<std::string> rev;   // read this commit's tree from git instead of the directory
  std::optional<std::string> repo;  // owner/name; default: origin's GitHub owner/name
  std::optional<std::string> sha;   // default: the commit scanned (HEAD of a work tree in git)
  // A PATH below the root of a work tree gets repo-relative file paths (so
  // githubUrl is right), unless `repo` is given and is not origin's repository.
  int jobs = 0;                     // worker threads; 0 = hardware concurrency
  uint64_t max_file_size = kDefaultMaxFileSize;
  ExtractLimits limits;             // sites per file, excerpt and guard sizes (limits.h)
  bool document = true;             // run the document stage (prose fields)
  // Also serialize every line as JSON Lines on the worker threads (the output
  // file is then one write): none, schema-2 lines, or lines with "facts".
  enum class JsonLines { kNone, kRecords, kRecordsWithFacts };
  JsonLines json_lines = JsonLines::kNone;

  // Tests: scan this source instead of opening `path` (rev/git facts unused).
  FileSource* source = nullptr;
  // Tests: use this front end for every file instead of ExtractorForPath.
  Extractor extractor;
  std::function<void(const ScanProgress&)> on_progress;
};

// How often a resource limit was hit (the CLI's summary line names each one).
struct LimitStats {
  int64_t files_too_large = 0;     // files skipped: larger than ScanOptions::max_file_size
  int64_t files_sites_cut = 0;     // files with more than max_sites sites
  int64_t sites_left_out = 0;      // the sites those files did not contribute
  int64_t sites_excerpts_cut = 0;  // sites with a text cut by max_excerpt_bytes
  int64_t sites_guards_cut = 0;    // sites with guards cut by max_guards or max_guard_bytes
  bool any() const { return files_too_large || files_sites_cut || sites_excerpts_cut || sites_guards_cut; }
};

struct ScanStats {
  int64_t files_listed = 0;   // regular files found
  int64_t files_scanned = 0;  // files a front end handled (read and extracted)
  int64_t files_skipped = 0;  // of those, unreadable / too large / failed to parse
  uint64_t bytes = 0;         // bytes of the scanned files
  std::array<int64_t, kSiteKindCount> sites_by_kind{};  // indexed by SiteKind
  int64_t sites = 0;
  LimitStats limits;
  double list_seconds = 0, extract_seconds = 0, document_seconds = 0, total_seconds = 0;
};

struct ScanResult {
  std::vector<CatalogLine> lines;  // sorted by (file, line, column); facts always set
  // With options.json_lines: `lines` serialized, each line ending in '\n',
  // split in chunks (one per file with sites) whose concatenation is the file.
  std::vector<std::string> jsonl_chunks;
  std::vector<Diagnostic> diagnostics;  // soft errors, sorted by path, line
  std::optional<std::string> repo;
  std::optional<std::string> sha;
  // With no sha: what was scanned (the directory's absolute path), the rest of the
  // scan's key in a catalog (ScanInfo::location); "" when the commit is known.
  std::string location;
  std::string dataset_version;  // also every record's analyzedAt
  std::string source;           // what was scanned, for people ("DIR", "DIR@REV")
  std::string knowledge;        // RepoKnowledge::Serialize(); "" when document=false
  ScanStats stats;
};

// Errors (the CLI's exit 2): kNotFound for a missing path or an unknown
// revision, kInvalidArgument for a path that is neither a directory nor a git
// repository, and for a tree in which no file is one a front end reads (an
// empty directory or commit, a tree listed wrongly): such a scan would replace a
// full one in a catalog with nothing. Unreadable or unparsable files are soft:
// they end up in `diagnostics` and the stats.
Result<ScanResult> Scan(const ScanOptions& options);

// Builds the Record of `site` found in `text` (no prose fields). `lines` are the
// file's lines without their endings (SplitSourceLines). Exposed for tests.
std::vector<std::string_view> SplitSourceLines(std::string_view text);

// A site's sourceCode: lines line-18 .. line+18 (clamped to the file) joined by
// '\n', at most `max_bytes` (ExtractLimits::max_excerpt_bytes): past it the lines
// farthest from the site are left out first (start/end say which lines remain),
// then the site's own line is cut to `max_bytes` around `column`.
struct SourceWindow {
  std::string code;
  int start = 0, end = 0;  // 1-based lines of the first and last line of `code`
  size_t uncut_bytes = 0;  // the size of the full window
  bool cut = false;
};
SourceWindow CutSourceWindow(const std::vector<std::string_view>& lines, int line, int column, size_t max_bytes);

Record BuildRecord(const Site& site, const SourceWindow& window, const std::optional<std::string>& repo,
                   const std::optional<std::string>& sha, const std::string& analyzed_at, int occurrence);
// The same with the window of the default limit.
Record BuildRecord(const Site& site, const std::vector<std::string_view>& lines,
                   const std::optional<std::string>& repo, const std::optional<std::string>& sha,
                   const std::string& analyzed_at, int occurrence);
// The id key's message part: errorMessage, else messageExpr, else "".
std::string_view IdMessageKey(const Site& site);

// One catalog line as JSON: CatalogLineToJson, without the facts object unless
// with_facts (the default export stays exactly schema 2). No newline.
std::string CatalogLineJson(const CatalogLine& line, bool with_facts);

// Adds the scan to a catalog: PutScan (replacing the same repo+sha+location), then
// the repository knowledge as blob KnowledgeBlobKey(scan) when there is some.
Result<int64_t> StoreScan(CatalogStore& store, const ScanResult& result);

}  // namespace errdex
