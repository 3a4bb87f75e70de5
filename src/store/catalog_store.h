// CatalogStore: the catalog. Holds many repositories and many commits of each
// ("scans"). Two backends behind this one interface: SQLite (a file) and
// PostgreSQL (a postgresql:// URL: many writers, many readers).
//
// What is stored is content-addressed (unit.h): a scan is an ordered list of
// units (a "tree": one unit per file of the commit), a unit is stored once
// however many scans hold it, and the records of a file version are derived
// from its unit plus the scan's commit. So a commit that changes 10 files
// costs 10 units and a tree, and a unit's payload is kept as a zstd delta
// against the previous version of the same file.
//
// A scan's key is (repo, sha, location): location is "" when the commit is
// known, else what was scanned (an absolute path), so two directories outside
// git never share a key. PutScan/PutScanUnits of a key replace that scan in
// one transaction, so a reader never sees half a scan; AddLines (import) adds
// and updates by record id and never deletes. Units written by PutUnit are
// invisible until a scan refers to them (a scan killed before its commit
// leaves only such orphans, which `errdex gc` removes). Also keeps opaque
// blobs for later stages (the compiled matcher database), a key/value cache
// (language-model answers) and a full-text index over messages.
//
// Thread-safety: one CatalogStore per thread (it owns one connection).
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
#include "store/unit.h"

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
  std::string commit_time;        // ISO time of the commit ("" when unknown): history's order
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
  std::string sha;           // exact, or a prefix of 4+ characters
  bool latest_only = false;  // per repo, only the most recently stored scan
  // Each record id once: its line in the newest scan that holds it (greatest
  // dataset version, then scan id) -- what a matcher is built from.
  bool newest_per_record = false;
  int64_t scan_id = 0;       // 0 = any
};

// One stored line plus the scan it belongs to.
struct StoredLine {
  int64_t scan_id = 0;
  CatalogLine line;
};

// A unit as stored, without its records: what a scan needs to decide whether it
// can reuse it (deps, knowledge) and to count it (stats, records).
struct StoredUnit {
  int64_t unit_id = 0;
  UnitKind kind = UnitKind::kDerived;
  uint64_t variant = 0;
  std::string path;
  int64_t records = 0;
  std::string deps;
  std::string knowledge;
  UnitStats stats;
};

// What `errdex gc` removed.
struct GcStats {
  int64_t units = 0, entries = 0;
  int64_t bytes_before = 0, bytes_after = 0;  // the catalog's size (SQLite: the file; PostgreSQL: the database)
};

class CatalogStore {
 public:
  // Opens (create=true: creates and migrates) the catalog at `path`: a file
  // (SQLite), or a postgresql:// / postgres:// URL. kNotFound when create=false
  // and the file does not exist; kInvalidArgument when it is not an errdex catalog.
  static Result<std::unique_ptr<CatalogStore>> Open(const std::string& path, bool create);
  // True for a PostgreSQL URL.
  static bool IsPostgresUrl(std::string_view path);
  virtual ~CatalogStore() = default;

  // --- Lines (the record view every reader uses).

  // Replaces the scan (info.repo, info.sha, info.location) with `lines` (kept
  // verbatim) atomically; returns the new scan_id.
  virtual Result<int64_t> PutScan(const ScanInfo& info, const std::vector<CatalogLine>& lines) = 0;
  // Adds `lines` to the scan (info.repo, info.sha, info.location), creating it when
  // missing: a line whose record id the scan already holds replaces that line (in
  // its place), the others are appended; no line of the scan is ever removed. The
  // scan's dataset version becomes the newer of the two. Returns the scan_id.
  virtual Result<int64_t> AddLines(const ScanInfo& info, const std::vector<CatalogLine>& lines) = 0;
  virtual Result<std::vector<ScanInfo>> ListScans() = 0;
  // Every matching line, scan by scan (scan id order), each scan's lines in order.
  // `fn` returning an error stops the walk with that error.
  virtual Status ForEachLine(const ScanFilter& filter, const std::function<Status(StoredLine&&)>& fn) = 0;
  Result<std::vector<StoredLine>> LoadLines(const ScanFilter& filter);
  // By record id (16 hex) or slug; every stored version of it, newest scan first.
  virtual Result<std::vector<StoredLine>> FindRecord(const std::string& id_or_slug) = 0;
  // Writes the prose fields of these records (matched by scan_id + record id).
  virtual Status UpdateRecords(const std::vector<StoredLine>& lines) = 0;
  // Changes every time the set of stored lines changes (a scan, UpdateRecords, import,
  // a deletion): blobs built from the lines are keyed by it so they are never served stale.
  virtual Result<std::string> ContentVersion() = 0;

  // --- Units and trees (what scans write; scan/ and merge use these).

  // For each key, the stored kDerived units made from it (one per prose variant).
  virtual Result<std::vector<std::vector<StoredUnit>>> FindUnits(const std::vector<std::string>& keys) = 0;
  // Stores `unit` (or finds it: same kind, key and variant) and returns its id.
  // Invisible until a scan's tree refers to it. Stored as a zstd delta against
  // the previous unit of the same file when that is smaller.
  virtual Result<int64_t> PutUnit(const Unit& unit) = 0;
  // The same, with the payload encoded (EncodePayload) and compressed whole
  // (store/codec.h Compress) already: a scan does both on its worker threads.
  // The payload is taken, not copied: the store keeps it as the next version's
  // delta base (a copy of every new unit's payload was 425 MB of memcpy and
  // fresh pages in a scan of the stdlib and dist-packages).
  virtual Result<int64_t> PutUnitEncoded(const Unit& unit, std::string payload, std::string_view compressed) = 0;
  // The unit with its records.
  virtual Result<Unit> LoadUnit(int64_t unit_id) = 0;
  // Its records' ids and sites alone (DecodeSiteRefs), for errdex check.
  virtual Result<std::vector<UnitSiteRef>> LoadUnitSiteRefs(int64_t unit_id) = 0;
  // Replaces the scan `info` with the tree `unit_ids` (in order) and the
  // repository knowledge `knowledge` (the document stage's blob without its
  // sites: "" none), named `knowledge_key` (what it was built from; "": its
  // own hash), in one transaction. Returns the scan id.
  virtual Result<int64_t> PutScanUnits(const ScanInfo& info, const std::vector<int64_t>& unit_ids,
                                       std::string_view knowledge, const std::string& knowledge_key = "") = 0;
  // The knowledge text a scan stored under `key`, if any.
  virtual Result<std::optional<std::string>> FindKnowledge(const std::string& key) = 0;
  // The tree of a scan: its units in order (without records).
  virtual Result<std::vector<StoredUnit>> ScanUnits(int64_t scan_id) = 0;
  // The knowledge text a scan stored and its key (what PutScanUnits was given);
  // nullopt when it stored none. merge copies it.
  struct ScanKnowledgeText {
    std::string key, text;
  };
  virtual Result<std::optional<ScanKnowledgeText>> ScanKnowledge(int64_t scan_id) = 0;
  // Deletes the scans matching repo@sha (sha: full or a 4+ prefix); returns how many.
  virtual Result<int64_t> DeleteScans(const std::string& repo, const std::string& sha) = 0;
  // Removes units, entries and texts no scan refers to (and, SQLite, gives the
  // space back). Units younger than `grace_seconds`, or than the oldest lease
  // of a scan still running, are kept: that scan may be about to refer to them.
  virtual Result<GcStats> CollectGarbage(int64_t grace_seconds) = 0;
  // A running scan's claim on the units it writes (CollectGarbage leaves them
  // alone). A lease older than a day is taken for a scan that died.
  virtual Result<int64_t> BeginLease() = 0;
  virtual Status EndLease(int64_t lease) = 0;

  // Runs `body` (calls on this store) as one write transaction: all of it lands or
  // none (the scan and the blobs built with it; never a half-written catalog).
  // Writes inside nest as savepoints.
  virtual Status InTransaction(const std::function<Status()>& body) = 0;
  // One write transaction held open across calls (a scan's batches of new
  // units): writes made meanwhile join it, CommitWrites lands them all,
  // RollbackWrites drops them. A SQLite commit rewrites every index page the
  // transaction touched, and the entries' indexes are keyed by hashes: 51
  // commits of a stdlib + dist-packages scan wrote 730 MB for a 129 MB catalog.
  // Other writers of a SQLite catalog wait while one is open: keep it short
  // (CatalogSink commits after a second). REQUIRES: none open (BeginWrites);
  // ended before the store is destroyed.
  virtual Status BeginWrites() = 0;
  virtual Status CommitWrites() = 0;
  virtual void RollbackWrites() = 0;

  // Opaque blobs. KnowledgeBlobKey(scan) ("knowledge:<repo>@<sha>[@<location>]")
  // is the document stage's blob of that scan: stored as given when put, else
  // assembled from the scan's stored knowledge and its records' contexts (none
  // after --no-docs). Storing or deleting a scan drops a blob put under its key,
  // which described the code of the scan it replaced.
  virtual Status PutBlob(const std::string& key, std::string_view bytes) = 0;
  virtual Result<std::optional<std::string>> GetBlob(const std::string& key) = 0;

  virtual Status PutCache(const std::string& key, std::string_view value) = 0;
  virtual Result<std::optional<std::string>> GetCache(const std::string& key) = 0;

  // Full-text search (SQLite: FTS5 bm25; PostgreSQL: tsvector ranking) over
  // errorMessage/errorClass/slug of all stored records, any word matching,
  // records sharing more and rarer words first; best first, each hit the newest scan holding it.
  struct TextHit {
    int64_t scan_id;
    std::string record_id;
    double score;  // higher is better
  };
  virtual Result<std::vector<TextHit>> FullTextSearch(const std::string& text, int limit) = 0;

  // Search for people (GET /v1/search, the search page): the records whose
  // errorMessage, errorClass or slug hold every word of `text` (the last word may
  // be the start of one), that pass the filters, best first, each record
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
    double rank;  // lower is better; 0 for an empty text
  };
  virtual Result<std::vector<RecordHit>> SearchRecords(const RecordQuery& query) = 0;
};

}  // namespace errdex
