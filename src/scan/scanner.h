// scan/: turns a repository (directory, git work tree, or a commit read from
// git) into catalog lines -- one seed-format Record per error site, with the
// site's facts kept beside it. Lists the files; reads and extracts them on N
// threads (output identical for any N); builds the repository's knowledge;
// documents each file's records; hands each file, in path order, to sinks
// (sinks.h: JSON Lines, a catalog, memory) as soon as it is done, so memory
// stays bounded whatever the tree. With a catalog, a file whose unit
// (store/unit.h, named by scan/unit_key.h) is stored already is not read
// again, and its prose is reused while the knowledge it consulted holds. The
// library never prints or exits; the CLI (cli/scan_cmd.cc) does.
//
// Tested by scanner_test.cc (in memory), tests/scan_e2e_test.cc (the binary)
// and tests/store_history_e2e_test.cc (incremental scans of a git history).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
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
#include "store/unit.h"

namespace errdex {

class CatalogStore;
struct ScanResult;

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
  // Scan(): also serialize every line as JSON Lines (ScanResult::jsonl_chunks):
  // none, schema-2 lines, or lines with "facts".
  enum class JsonLines { kNone, kRecords, kRecordsWithFacts };
  JsonLines json_lines = JsonLines::kNone;
  // Bytes of files kept in memory between the stages: a quarter for Python
  // texts read for the class table and kept for their extraction (past it they
  // are read again), the rest for parsed files between the two passes (extract,
  // then document with the whole repository's knowledge; past it they wait in a
  // temporary file, compressed). Bounds the scan's memory whatever the tree: at
  // 64 MB a scan of 1.4 GB of Python peaks near 250 MB (issue 11; 128 MB gave
  // 440 MB and no measurable speed).
  size_t resident_bytes = size_t{64} << 20;

  // Called with the whole scan's result before the sinks finish (ScanToSinks);
  // an error stops the scan there with that error: nothing is committed (the
  // CLI's --strict).
  std::function<Status(const ScanResult&)> before_finish;

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
  int64_t files_reused = 0;   // of those, stored in the catalog already (not read again)
  int64_t files_documented = 0;  // of those, documented again (their knowledge changed)
  uint64_t bytes = 0;         // bytes of the scanned files
  std::array<int64_t, kSiteKindCount> sites_by_kind{};  // indexed by SiteKind
  int64_t sites = 0;
  LimitStats limits;
  double list_seconds = 0, extract_seconds = 0, document_seconds = 0, total_seconds = 0;
  double write_seconds = 0;  // in the sinks (writing JSON Lines, the catalog)
  double cpp_table_seconds = 0;  // of extract: reading every C-family file's #defines
  double knowledge_seconds = 0;  // of document: the repository's knowledge
};

struct ScanResult {
  // Scan() only (a CollectSink): the lines, sorted by (file, line, column), facts
  // always set; with options.json_lines the lines serialized, each ending in
  // '\n', in chunks (one per file with sites) whose concatenation is the file;
  // and the repository knowledge as `errdex document` reads it
  // (RepoKnowledge::Serialize with every site's context; "" when document=false).
  std::vector<CatalogLine> lines;
  std::vector<std::string> jsonl_chunks;
  std::string knowledge;
  std::vector<Diagnostic> diagnostics;  // soft errors, sorted by path, line
  std::optional<std::string> repo;
  std::optional<std::string> sha;
  // With no sha: what was scanned (the directory's absolute path), the rest of the
  // scan's key in a catalog (ScanInfo::location); "" when the commit is known.
  std::string location;
  std::string dataset_version;  // also every record's analyzedAt
  std::string source;           // what was scanned, for people ("DIR", "DIR@REV")
  std::string commit_time;      // ISO time of the commit read from git ("" otherwise)
  int64_t scan_id = -1;         // the catalog's id of the scan (a CatalogSink), else -1
  ScanStats stats;
};

// One file's output, handed to the sinks in path order.
struct FileOutput {
  size_t index = 0;
  std::string path;
  CommitFields commit;              // the scan's commit fields (Materialize)
  int64_t unit_id = 0;              // > 0: a stored unit reused as it is
  std::shared_ptr<const Unit> unit;  // the records: a new unit, or the stored one when a sink wants records
  UnitStats stats;
  int64_t records = 0;
  // Prepared on the worker threads for the sinks (JsonlSink, CatalogSink).
  std::string jsonl;
  std::string payload, compressed;
};

// Where a scan's files go. Prepare runs on worker threads (any number at once);
// Emit runs for the files in path order, one at a time; Finish once at the end.
class ScanSink {
 public:
  virtual ~ScanSink() = default;
  // False when a reused stored unit need not be read (its id is enough).
  virtual bool WantsRecords() const { return true; }
  // False when Finish ignores the knowledge text (it need not be written).
  virtual bool WantsKnowledge() const { return true; }
  virtual void Prepare(FileOutput& out) {}
  virtual Status Emit(FileOutput& out) = 0;
  // `knowledge`: the repository knowledge without its sites (the store's form,
  // PutScanUnits), "" when document=false; `knowledge_key` names what it was
  // built from (CatalogStore::FindKnowledge).
  virtual Status Finish(ScanResult& result, const std::string& knowledge, const std::string& knowledge_key) = 0;
};

// Errors (the CLI's exit 2): kNotFound for a missing path or an unknown
// revision, kInvalidArgument for a path that is neither a directory nor a git
// repository, and for a tree in which no file is one a front end reads (an
// empty directory or commit, a tree listed wrongly): such a scan would replace a
// full one in a catalog with nothing. Unreadable or unparsable files are soft:
// they end up in `diagnostics` and the stats.
//
// ScanToSinks streams: each file goes to the sinks as soon as it and those
// before it are documented, so memory is bounded by options.resident_bytes and
// a window of files, not by the tree. With `store`, a file whose unit is
// stored already (same key, and prose whose knowledge is unchanged) is not read
// again; `store_mu` guards the store when given (the sinks may use it too).
Result<ScanResult> ScanToSinks(const ScanOptions& options, const std::vector<ScanSink*>& sinks,
                               CatalogStore* store = nullptr, std::mutex* store_mu = nullptr);
// Everything in memory (ScanResult::lines, jsonl_chunks, knowledge): tests and small trees.
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


}  // namespace errdex
