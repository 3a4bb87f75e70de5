// CatalogStore: the SQLite catalog. Holds many repositories and many commits of
// each ("scans"); every scan is a set of CatalogLines (record + dataset version +
// facts). A scan's key is (repo, sha, location): location is "" when the commit is
// known, else what was scanned (an absolute path), so two directories outside git
// never share a key. PutScan of a key replaces that scan in one transaction, so a
// reader never sees half a scan; AddLines (import) adds and updates by record id
// and never deletes. Also keeps opaque blobs for later stages
// (the compiled matcher database), a key/value cache (language-model answers)
// and an FTS5 index over messages for fuzzy look-ups.
//
// Thread-safety: one CatalogStore per thread (it owns one sqlite3 connection).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/record.h"
#include "model/status.h"

namespace errdex {

struct ScanInfo {
  int64_t scan_id = 0;            // assigned by the store
  std::string repo;               // owner/name, "" when unknown
  std::string sha;                // commit, "" when unknown
  std::string location;           // "" when sha is known; else what was scanned (absolute path): part of the key
  std::string dataset_version;    // ISO time
  std::string source;             // what was scanned (path, path@rev), for people
  int64_t files = 0;              // files read
  int64_t sites = 0;              // lines stored
};

// The key of a scan's repository-knowledge blob (the document stage's input):
// "knowledge:<repo>@<sha>", plus "@<location>" for a scan without a commit, so
// two plain directories in one catalog keep their own.
inline std::string KnowledgeBlobKey(const ScanInfo& s) {
  return "knowledge:" + s.repo + "@" + s.sha + (s.location.empty() ? std::string() : "@" + s.location);
}

// Which lines to load. Empty fields match everything.
struct ScanFilter {
  std::string repo;
  std::string sha;
  bool latest_only = false;  // per repo, only the most recently stored scan
};

// One stored line plus the scan it belongs to.
struct StoredLine {
  int64_t scan_id = 0;
  CatalogLine line;
};

class CatalogStore {
 public:
  // Opens (create=true: creates and migrates) the catalog at `path`.
  // kNotFound when create=false and the file does not exist; kInvalidArgument
  // when the file is not an errdex catalog.
  static Result<std::unique_ptr<CatalogStore>> Open(const std::string& path, bool create);
  virtual ~CatalogStore() = default;

  // Replaces the scan (info.repo, info.sha, info.location) with `lines` atomically;
  // returns the new scan_id.
  virtual Result<int64_t> PutScan(const ScanInfo& info, const std::vector<CatalogLine>& lines) = 0;
  // Adds `lines` to the scan (info.repo, info.sha, info.location), creating it when
  // missing: a line whose record id the scan already holds replaces that line (in
  // its place), the others are appended; no line of the scan is ever removed. The
  // scan's dataset version becomes the newer of the two. Returns the scan_id.
  virtual Result<int64_t> AddLines(const ScanInfo& info, const std::vector<CatalogLine>& lines) = 0;
  virtual Result<std::vector<ScanInfo>> ListScans() = 0;
  virtual Result<std::vector<StoredLine>> LoadLines(const ScanFilter& filter) = 0;
  // By record id (16 hex) or slug; every stored version of it, newest scan first.
  virtual Result<std::vector<StoredLine>> FindRecord(const std::string& id_or_slug) = 0;
  // Writes the prose fields of these records (matched by scan_id + record id).
  virtual Status UpdateRecords(const std::vector<StoredLine>& lines) = 0;
  // Changes every time the set of stored lines changes (PutScan, UpdateRecords, import):
  // blobs built from the lines are keyed by it so they are never served stale.
  virtual Result<std::string> ContentVersion() = 0;

  // Runs `body` (calls on this store) as one write transaction: all of it lands or
  // none (the scan and the blobs built with it; never a half-written catalog).
  // Writes inside nest as savepoints.
  virtual Status InTransaction(const std::function<Status()>& body) = 0;

  virtual Status PutBlob(const std::string& key, std::string_view bytes) = 0;
  virtual Result<std::optional<std::string>> GetBlob(const std::string& key) = 0;

  virtual Status PutCache(const std::string& key, std::string_view value) = 0;
  virtual Result<std::optional<std::string>> GetCache(const std::string& key) = 0;

  // FTS5 (bm25) over errorMessage/errorClass/slug of all stored lines; best first.
  struct TextHit {
    int64_t scan_id;
    std::string record_id;
    double score;  // higher is better (negated bm25)
  };
  virtual Result<std::vector<TextHit>> FullTextSearch(const std::string& text, int limit) = 0;

  // Search for people (GET /v1/search, the search page): the records whose
  // errorMessage, errorClass or slug hold every word of `text` (the last word may
  // be the start of one), that pass the filters, best first (bm25), each record
  // once (its best-ranked line, then the newest), one page at a time: a page starts
  // after the cursor (the previous page's last hit). An empty text lists every
  // record that passes the filters, by id. Query syntax in `text` is just text.
  struct RecordQuery {
    std::string text;
    std::string repo;         // owner/name of the scan; "" = any (likewise below)
    std::string error_class;  // errorClass, exact
    std::string severity;     // severity, exact
    std::string tag;          // one of tags, exact
    int limit = 20;
    bool has_cursor = false;  // continue after (cursor_rank, cursor_record_id)
    double cursor_rank = 0;
    std::string cursor_record_id;
  };
  struct RecordHit {
    int64_t scan_id;
    std::string record_id;
    double rank;  // lower is better (bm25); 0 for an empty text
  };
  virtual Result<std::vector<RecordHit>> SearchRecords(const RecordQuery& query) = 0;
};

}  // namespace errdex
