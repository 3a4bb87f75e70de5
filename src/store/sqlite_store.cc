// sqlite_store.cc: the SQLite implementation of CatalogStore (catalog_store.h):
// schema, migrations, transactions, FTS5.
//
// Schema (version kStoreSchemaVersion, kept in meta.schema_version):
//   meta(key, value)            application=errdex, schema_version, content_version, fts
//   scans(scan_id, repo, sha, location, dataset_version, source, files, sites, created)
//         UNIQUE(repo, sha, location); location is "" unless sha is (catalog_store.h)
//   lines(line_id, scan_id, record_id, slug, file_path, line_number, error_message,
//         message_pattern, error_class, record_json, facts_json, dataset_version)
//         UNIQUE(scan_id, record_id); line_id keeps the order lines were put in
//   blobs(key, bytes, updated), cache(key, value, updated)
//   lines_fts: FTS5 over lines(error_message, error_class, slug), external content,
//              written by PutScanLocked (the only writer of those three columns)
// Every write runs in a transaction (BEGIN IMMEDIATE, or a SAVEPOINT when nested)
// and is rolled back on any failure; the schema is created inside one too, after
// looking again under the write lock, so processes that open a new catalog at
// the same time create it once. Opening to write runs PRAGMA quick_check on a
// catalog small enough for it to be cheap, so a damaged file is reported before
// anything is added to it. Tested by sqlite_store_test.cc.
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cctype>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/catalog_store.h"

namespace errdex {
namespace {

constexpr int kStoreSchemaVersion = 2;
constexpr const char* kApplication = "errdex";
constexpr int kBusyTimeoutMs = 10000;
constexpr size_t kMaxSearchTerms = 64;
// quick_check reads every page: about 1 s per 500 MB here, so it runs on catalogs
// up to this size when they are opened to write.
constexpr int64_t kQuickCheckMaxBytes = 256ll << 20;
// synchronous=NORMAL is safe with WAL (a crash may lose the last commit, never
// corrupt); 64 MiB of page cache keeps a 50k-line scan's indexes in memory;
// Debian builds SQLite with SECURE_DELETE, whose zeroing of freed pages costs
// writes when a scan is replaced and protects nothing here; the -wal file of a
// long-lived connection is cut back to 64 MiB after a big import.
constexpr const char* kPragmas =
    "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-65536; "
    "PRAGMA temp_store=MEMORY; PRAGMA secure_delete=OFF; PRAGMA journal_size_limit=67108864;";

// Finalizes a statement it owns.
struct StmtDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using StmtPtr = std::unique_ptr<sqlite3_stmt, StmtDeleter>;

// Resets (and clears the bindings of) a cached statement when it goes out of scope.
class ScopedReset {
 public:
  explicit ScopedReset(sqlite3_stmt* s) : s_(s) {}
  ~ScopedReset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  ScopedReset(const ScopedReset&) = delete;
  ScopedReset& operator=(const ScopedReset&) = delete;

 private:
  sqlite3_stmt* s_;
};

void BindText(sqlite3_stmt* s, int i, std::string_view v) {
  sqlite3_bind_text64(s, i, v.data() ? v.data() : "", v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}
void BindOptText(sqlite3_stmt* s, int i, const std::optional<std::string>& v) {
  if (v) BindText(s, i, *v);
  else sqlite3_bind_null(s, i);
}
void BindBlob(sqlite3_stmt* s, int i, std::string_view v) {
  // A null pointer would bind SQL NULL; an empty blob must stay a blob.
  sqlite3_bind_blob64(s, i, v.data() ? v.data() : "", v.size(), SQLITE_TRANSIENT);
}
std::string ColumnText(sqlite3_stmt* s, int i) {
  const unsigned char* t = sqlite3_column_text(s, i);
  if (!t) return std::string();
  return std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(s, i)));
}
std::string ColumnBlob(sqlite3_stmt* s, int i) {
  const void* b = sqlite3_column_blob(s, i);
  int n = sqlite3_column_bytes(s, i);
  if (!b || n <= 0) return std::string();
  return std::string(static_cast<const char*>(b), static_cast<size_t>(n));
}

bool FileExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}
bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The words of `text` (runs of ASCII alphanumerics, '_' and non-ASCII bytes), lower-cased.
// Single characters are left out: they say nothing about which message it is, and
// their posting lists are among the longest.
std::vector<std::string> SearchTerms(const std::string& text) {
  std::vector<std::string> terms;
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= 2 && std::find(terms.begin(), terms.end(), cur) == terms.end() &&
        terms.size() < kMaxSearchTerms)
      terms.push_back(cur);
    cur.clear();
  };
  for (unsigned char c : text) {
    if (std::isalnum(c) || c >= 0x80) cur.push_back(static_cast<char>(std::tolower(c)));
    else flush();
  }
  flush();
  return terms;
}

// The prose fields of a record (model/record.h: "document/ fills them").
void CopyProse(const Record& from, Record* to) {
  to->documentation = from.documentation;
  to->trigger_scenarios = from.trigger_scenarios;
  to->common_situations = from.common_situations;
  to->solutions = from.solutions;
  to->example_fix = from.example_fix;
  to->handling_strategy = from.handling_strategy;
  to->validation_code = from.validation_code;
  to->type_guard = from.type_guard;
  to->try_catch_pattern = from.try_catch_pattern;
  to->prevention_tips = from.prevention_tips;
  to->tags = from.tags;
  to->background_tag = from.background_tag;
  // The classification is written by the document stage too (scan --no-docs leaves it null).
  to->error_type = from.error_type;
  to->severity = from.severity;
}

constexpr const char* kCreateSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE scans(
  scan_id INTEGER PRIMARY KEY AUTOINCREMENT,
  repo TEXT NOT NULL,
  sha TEXT NOT NULL,
  location TEXT NOT NULL DEFAULT '',
  dataset_version TEXT NOT NULL,
  source TEXT NOT NULL,
  files INTEGER NOT NULL,
  sites INTEGER NOT NULL,
  created TEXT NOT NULL,
  UNIQUE(repo, sha, location));
CREATE TABLE lines(
  line_id INTEGER PRIMARY KEY,
  scan_id INTEGER NOT NULL REFERENCES scans(scan_id) ON DELETE CASCADE,
  record_id TEXT NOT NULL,
  slug TEXT,
  file_path TEXT NOT NULL,
  line_number INTEGER NOT NULL,
  error_message TEXT,
  message_pattern TEXT,
  error_class TEXT,
  record_json TEXT NOT NULL,
  facts_json TEXT,
  dataset_version TEXT NOT NULL,
  UNIQUE(scan_id, record_id));
CREATE INDEX lines_by_record_id ON lines(record_id);
CREATE INDEX lines_by_slug ON lines(slug);
CREATE TABLE blobs(key TEXT PRIMARY KEY, bytes BLOB NOT NULL, updated TEXT NOT NULL);
CREATE TABLE cache(key TEXT PRIMARY KEY, value BLOB NOT NULL, updated TEXT NOT NULL);
)sql";

// The index is written by PutScanLocked in two bulk statements per scan, not by
// triggers: FTS5 flushes its pending terms at every statement savepoint, so a
// per-row trigger made a 50k-line replace several times slower.
constexpr const char* kCreateFts = R"sql(
CREATE VIRTUAL TABLE lines_fts USING fts5(
  error_message, error_class, slug, content='lines', content_rowid='line_id');
)sql";

// Thread-compatible: one instance per thread (it owns one connection).
class SqliteCatalogStore final : public CatalogStore {
 public:
  SqliteCatalogStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteCatalogStore() override {
    stmts_.clear();  // finalize before closing
    sqlite3_close_v2(db_);
  }
  SqliteCatalogStore(const SqliteCatalogStore&) = delete;
  SqliteCatalogStore& operator=(const SqliteCatalogStore&) = delete;

  Status Init(bool create);
  bool wants_immutable() const { return wants_immutable_; }

  Result<int64_t> PutScan(const ScanInfo& info, const std::vector<CatalogLine>& lines) override;
  Result<int64_t> AddLines(const ScanInfo& info, const std::vector<CatalogLine>& lines) override;
  Result<std::vector<ScanInfo>> ListScans() override;
  Result<std::vector<StoredLine>> LoadLines(const ScanFilter& filter) override;
  Result<std::vector<StoredLine>> FindRecord(const std::string& id_or_slug) override;
  Status UpdateRecords(const std::vector<StoredLine>& lines) override;
  Result<std::string> ContentVersion() override;
  Status InTransaction(const std::function<Status()>& body) override;
  Status PutBlob(const std::string& key, std::string_view bytes) override;
  Result<std::optional<std::string>> GetBlob(const std::string& key) override;
  Status PutCache(const std::string& key, std::string_view value) override;
  Result<std::optional<std::string>> GetCache(const std::string& key) override;
  Result<std::vector<TextHit>> FullTextSearch(const std::string& text, int limit) override;
  Result<std::vector<RecordHit>> SearchRecords(const RecordQuery& query) override;

 private:
  Status PutKeyValue(const char* sql, const std::string& key, std::string_view bytes, const char* what);
  Result<std::optional<std::string>> GetKeyValue(const char* sql, const std::string& key, const char* what);
  // A write transaction: BEGIN IMMEDIATE when none is open, else a SAVEPOINT.
  // Rolled back by the destructor unless Commit() succeeded.
  class WriteTxn {
   public:
    explicit WriteTxn(SqliteCatalogStore* s) : s_(s) {}
    ~WriteTxn() {
      if (!begun_ || done_) return;
      if (nested_) {
        s_->ExecIgnoringErrors("ROLLBACK TO errdex_sp; RELEASE errdex_sp;");
      } else {
        s_->ExecIgnoringErrors("ROLLBACK;");
      }
    }
    Status Begin() {
      nested_ = !sqlite3_get_autocommit(s_->db_);
      Status st = s_->Exec(nested_ ? "SAVEPOINT errdex_sp;" : "BEGIN IMMEDIATE;", "begin a transaction");
      begun_ = st.ok();
      return st;
    }
    Status Commit() {
      Status st = s_->Exec(nested_ ? "RELEASE errdex_sp;" : "COMMIT;", "commit");
      if (st.ok()) done_ = true;
      return st;
    }

   private:
    SqliteCatalogStore* s_;
    bool nested_ = false;
    bool begun_ = false;
    bool done_ = false;
  };

  // A Status for SQLite result `rc` while doing `what`.
  Status Error(int rc, std::string_view what) const {
    std::string msg = path_ + ": " + std::string(what) + ": " + sqlite3_errmsg(db_);
    switch (rc & 0xff) {
      case SQLITE_READONLY:
        return Status::IoError(path_ + ": the catalog is read-only (" + std::string(what) + ")");
      case SQLITE_BUSY:
      case SQLITE_LOCKED:
        return Status::IoError(path_ + ": the catalog is locked by another process (" + std::string(what) + ")");
      case SQLITE_CONSTRAINT: return Status::InvalidArgument(msg);
      case SQLITE_NOTADB:
      case SQLITE_CORRUPT:
        return Status::IoError(path_ + ": the catalog file is corrupt (" + std::string(what) + ": " +
                               sqlite3_errmsg(db_) + "); restore it from a copy, or rebuild it into a new file");
      case SQLITE_FULL:
      case SQLITE_IOERR:
      case SQLITE_CANTOPEN:
      case SQLITE_PERM: return Status::IoError(msg);
      default: return Status::Internal(msg);
    }
  }

  Status Exec(const char* sql, std::string_view what) {
    char* err = nullptr;
    int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
    sqlite3_free(err);
    if (rc != SQLITE_OK) return Error(rc, what);
    return Status::Ok();
  }
  void ExecIgnoringErrors(const char* sql) { sqlite3_exec(db_, sql, nullptr, nullptr, nullptr); }

  // A cached prepared statement for `sql` (the pointer is the cache key: pass literals).
  Result<sqlite3_stmt*> Prepare(const char* sql) {
    auto it = stmts_.find(sql);
    if (it != stmts_.end()) return it->second.get();
    sqlite3_stmt* s = nullptr;
    int rc = sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(s);
      return Error(rc, "prepare a statement");
    }
    stmts_.emplace(sql, StmtPtr(s));
    return s;
  }

  // Runs a statement that returns no rows (already bound).
  Status StepDone(sqlite3_stmt* s, std::string_view what) {
    int rc = sqlite3_step(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) return Error(rc, what);
    return Status::Ok();
  }

  Result<std::optional<std::string>> GetMeta(const char* key);
  Status SetMeta(const char* key, const std::string& value);
  Status BumpContentVersion();
  Result<int64_t> PutScanLocked(const ScanInfo& info, const std::vector<CatalogLine>& lines);
  Result<std::vector<StoredLine>> ReadLines(sqlite3_stmt* s);
  Result<std::vector<TextHit>> LikeSearch(const std::vector<std::string>& terms, int limit);
  Status Migrate(int from_version);
  Status CreateSchema();
  Result<int64_t> CountTables();
  Status QuickCheck();
  Status CorruptError(std::string_view detail) const {
    return Status::IoError(path_ + ": the catalog file is corrupt (" + std::string(detail) +
                           "); nothing was written. Restore it from a copy, or rebuild it into a new file "
                           "with errdex scan/import");
  }
  Result<int64_t> FindScanId(const ScanInfo& info);
  Status WriteLine(int64_t scan_id, int64_t line_id, const CatalogLine& line, const ScanInfo& info);
  Status IndexLine(int64_t line_id, bool remove);

  sqlite3* db_;
  std::string path_;
  bool read_only_ = false;
  bool has_fts_ = false;
  bool wants_immutable_ = false;
  std::map<const char*, StmtPtr> stmts_;
};

Result<std::optional<std::string>> SqliteCatalogStore::GetMeta(const char* key) {
  auto s = Prepare("SELECT value FROM meta WHERE key = ?1");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, key);
  int rc = sqlite3_step(*s);
  if (rc == SQLITE_ROW) return std::optional<std::string>(ColumnText(*s, 0));
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  return Error(rc, "read meta");
}

Status SqliteCatalogStore::SetMeta(const char* key, const std::string& value) {
  auto s = Prepare("INSERT INTO meta(key, value) VALUES (?1, ?2) "
                   "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, key);
  BindText(*s, 2, value);
  return StepDone(*s, "write meta");
}

Status SqliteCatalogStore::BumpContentVersion() {
  auto s = Prepare("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) "
                   "WHERE key = 'content_version'");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  return StepDone(*s, "bump the content version");
}

Status SqliteCatalogStore::Migrate(int from_version) {
  if (from_version < 1 || from_version > kStoreSchemaVersion)
    return Status::InvalidArgument(path_ + ": unknown catalog schema version " + std::to_string(from_version));
  if (from_version < 2) {
    // 2: scans gain `location`, and the key becomes (repo, sha, location). SQLite
    // cannot change a UNIQUE constraint in place: copy into a new table. The
    // caller turned foreign keys off, so dropping `scans` keeps the lines.
    Status st = Exec(
        "CREATE TABLE scans_v2(scan_id INTEGER PRIMARY KEY AUTOINCREMENT, repo TEXT NOT NULL, sha TEXT NOT NULL, "
        "location TEXT NOT NULL DEFAULT '', dataset_version TEXT NOT NULL, source TEXT NOT NULL, "
        "files INTEGER NOT NULL, sites INTEGER NOT NULL, created TEXT NOT NULL, UNIQUE(repo, sha, location)); "
        "INSERT INTO scans_v2(scan_id, repo, sha, location, dataset_version, source, files, sites, created) "
        "SELECT scan_id, repo, sha, '', dataset_version, source, files, sites, created FROM scans; "
        "DROP TABLE scans; ALTER TABLE scans_v2 RENAME TO scans;",
        "upgrade the catalog to schema version 2");
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

Status SqliteCatalogStore::CreateSchema() {
  Status st = Exec(kCreateSchema, "create the schema");
  if (!st.ok()) return st;
  has_fts_ = sqlite3_compileoption_used("ENABLE_FTS5") == 1;
  if (has_fts_) {
    if (st = Exec(kCreateFts, "create the full-text index"); !st.ok()) return st;
  }
  if (st = SetMeta("application", kApplication); !st.ok()) return st;
  if (st = SetMeta("schema_version", std::to_string(kStoreSchemaVersion)); !st.ok()) return st;
  if (st = SetMeta("content_version", "0"); !st.ok()) return st;
  return SetMeta("fts", has_fts_ ? "fts5" : "like");
}

Result<int64_t> SqliteCatalogStore::CountTables() {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, "SELECT count(*) FROM sqlite_master", -1, &raw, nullptr);
  StmtPtr s(raw);
  if (rc == SQLITE_OK) rc = sqlite3_step(raw);
  if (rc != SQLITE_ROW) return Error(rc, "open the catalog");
  return sqlite3_column_int64(raw, 0);
}

Status SqliteCatalogStore::QuickCheck() {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, "PRAGMA quick_check(3)", -1, &raw, nullptr);
  StmtPtr s(raw);
  std::string problems;
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
      std::string row = ColumnText(raw, 0);
      if (row == "ok") continue;
      if (!problems.empty()) problems += "; ";
      problems += row;
    }
  }
  if (rc != SQLITE_DONE) return Error(rc, "check the catalog");
  if (!problems.empty()) return CorruptError("quick_check: " + problems);
  return Status::Ok();
}

Status SqliteCatalogStore::Init(bool create) {
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  sqlite3_extended_result_codes(db_, 1);
  read_only_ = sqlite3_db_readonly(db_, "main") == 1;

  // Reading sqlite_master is the first access to the file: a non-SQLite file fails here.
  int64_t tables = 0;
  {
    sqlite3_stmt* raw = nullptr;
    int rc = sqlite3_prepare_v2(db_, "SELECT count(*) FROM sqlite_master", -1, &raw, nullptr);
    StmtPtr s(raw);
    if (rc == SQLITE_OK) rc = sqlite3_step(raw);
    if ((rc & 0xff) == SQLITE_NOTADB) return Status::InvalidArgument(path_ + ": not an errdex catalog");
    if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN) {
      // A WAL catalog in a directory where we cannot create its -shm file (the
      // file itself may be writable: nobody can write it through this directory,
      // which WAL needs): Open retries it as immutable, read-only.
      wants_immutable_ = true;
    }
    if (rc != SQLITE_ROW) return Error(rc, "open the catalog");
    tables = sqlite3_column_int64(raw, 0);
  }

  if (tables == 0) {
    if (!create) return Status::InvalidArgument(path_ + ": not an errdex catalog (empty file)");
    if (read_only_) return Status::IoError(path_ + ": the catalog is read-only; cannot create it");
    // Another process may be creating it right now: switching to WAL waits for it
    // (busy timeout), and the schema is created under the write lock only if it
    // is still missing there.
    Status st = Exec("PRAGMA journal_mode=WAL;", "enable WAL");
    if (!st.ok()) return st;
    st = Exec(kPragmas, "set pragmas");
    if (!st.ok()) return st;
    WriteTxn txn(this);
    if (st = txn.Begin(); !st.ok()) return st;
    auto again = CountTables();
    if (!again.ok()) return again.status();
    if (*again == 0) {
      if (st = CreateSchema(); !st.ok()) return st;
      return txn.Commit();
    }
    if (st = txn.Commit(); !st.ok()) return st;  // created meanwhile: open it as an existing catalog
  }

  // An existing database: must be ours.
  {
    sqlite3_stmt* raw = nullptr;
    int rc = sqlite3_prepare_v2(db_, "SELECT value FROM meta WHERE key = 'application'", -1, &raw, nullptr);
    StmtPtr s(raw);
    if (rc != SQLITE_OK) {
      if ((rc & 0xff) == SQLITE_CORRUPT) return CorruptError(sqlite3_errmsg(db_));
      return Status::InvalidArgument(path_ + ": not an errdex catalog");
    }
    rc = sqlite3_step(raw);
    if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB) return CorruptError(sqlite3_errmsg(db_));
    if (rc != SQLITE_ROW || ColumnText(raw, 0) != kApplication)
      return Status::InvalidArgument(path_ + ": not an errdex catalog");
  }
  auto version_text = GetMeta("schema_version");
  if (!version_text.ok()) return version_text.status();
  int version = 0;
  try {
    version = version_text->has_value() ? std::stoi(**version_text) : 0;
  } catch (...) {
    version = 0;
  }
  if (version <= 0) return Status::InvalidArgument(path_ + ": not an errdex catalog (no schema version)");
  if (version > kStoreSchemaVersion) {
    return Status::InvalidArgument(path_ + ": the catalog has schema version " + std::to_string(version) +
                                   ", newer than this errdex understands (" +
                                   std::to_string(kStoreSchemaVersion) + "); use a newer errdex");
  }
  if (!read_only_) {
    Status st = Exec("PRAGMA journal_mode=WAL;", "enable WAL");
    if (!st.ok()) return st;
  }
  Status st = Exec(kPragmas, "set pragmas");
  if (!st.ok()) return st;
  if (create && !read_only_) {
    // Opened to write (scan --db, import): a damaged file is reported now, not
    // after a write that happened to miss the damaged pages.
    struct stat sb;
    if (::stat(path_.c_str(), &sb) == 0 && sb.st_size <= kQuickCheckMaxBytes) {
      if (st = QuickCheck(); !st.ok()) return st;
    }
  }
  if (version < kStoreSchemaVersion) {
    if (read_only_)
      return Status::IoError(path_ + ": the catalog needs an upgrade (schema version " + std::to_string(version) +
                             ") but it is read-only");
    // Foreign keys off while tables are rebuilt (a pragma that has no effect inside a transaction).
    if (st = Exec("PRAGMA foreign_keys=OFF;", "upgrade the catalog"); !st.ok()) return st;
    {
      WriteTxn txn(this);
      if (st = txn.Begin(); !st.ok()) return st;
      auto now = GetMeta("schema_version");  // another process may have upgraded it meanwhile
      if (!now.ok()) return now.status();
      int current = now->has_value() ? std::atoi((*now)->c_str()) : 0;
      if (current < kStoreSchemaVersion) {
        if (st = Migrate(current); !st.ok()) return st;
        if (st = SetMeta("schema_version", std::to_string(kStoreSchemaVersion)); !st.ok()) return st;
      }
      if (st = txn.Commit(); !st.ok()) return st;
    }
    if (st = Exec("PRAGMA foreign_keys=ON;", "upgrade the catalog"); !st.ok()) return st;
  }
  auto fts = GetMeta("fts");
  if (!fts.ok()) return fts.status();
  has_fts_ = fts->has_value() && **fts == "fts5";
  return Status::Ok();
}

Result<int64_t> SqliteCatalogStore::PutScanLocked(const ScanInfo& info, const std::vector<CatalogLine>& lines) {
  // Replace: the old lines leave the full-text index, then the table, then the scan
  // row goes. Both in line_id order: FTS5 flushes its pending data whenever the
  // rowid it is given goes backwards.
  if (has_fts_) {
    auto s = Prepare(
        "INSERT INTO lines_fts(lines_fts, rowid, error_message, error_class, slug) "
        "SELECT 'delete', l.line_id, l.error_message, l.error_class, l.slug FROM lines l "
        "JOIN scans s ON s.scan_id = l.scan_id WHERE s.repo = ?1 AND s.sha = ?2 AND s.location = ?3 "
        "ORDER BY l.line_id");
    if (!s.ok()) return s.status();
    ScopedReset reset(*s);
    BindText(*s, 1, info.repo);
    BindText(*s, 2, info.sha);
    BindText(*s, 3, info.location);
    if (Status st = StepDone(*s, "unindex the old scan's lines"); !st.ok()) return st;
  }
  {
    auto s = Prepare(
        "DELETE FROM lines WHERE line_id IN (SELECT l.line_id FROM lines l JOIN scans s ON s.scan_id = l.scan_id "
        "WHERE s.repo = ?1 AND s.sha = ?2 AND s.location = ?3)");
    if (!s.ok()) return s.status();
    ScopedReset reset(*s);
    BindText(*s, 1, info.repo);
    BindText(*s, 2, info.sha);
    BindText(*s, 3, info.location);
    if (Status st = StepDone(*s, "delete the old scan's lines"); !st.ok()) return st;
  }
  {
    auto s = Prepare("DELETE FROM scans WHERE repo = ?1 AND sha = ?2 AND location = ?3");
    if (!s.ok()) return s.status();
    ScopedReset reset(*s);
    BindText(*s, 1, info.repo);
    BindText(*s, 2, info.sha);
    BindText(*s, 3, info.location);
    if (Status st = StepDone(*s, "delete the old scan"); !st.ok()) return st;
  }
  int64_t scan_id = 0;
  {
    auto s = Prepare("INSERT INTO scans(repo, sha, dataset_version, source, files, sites, created, location) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    if (!s.ok()) return s.status();
    ScopedReset reset(*s);
    BindText(*s, 1, info.repo);
    BindText(*s, 2, info.sha);
    BindText(*s, 3, info.dataset_version);
    BindText(*s, 4, info.source);
    sqlite3_bind_int64(*s, 5, info.files);
    sqlite3_bind_int64(*s, 6, static_cast<int64_t>(lines.size()));
    BindText(*s, 7, FormatIsoTime(NowMillisHonouringSourceDateEpoch()));
    BindText(*s, 8, info.location);
    if (Status st = StepDone(*s, "insert the scan"); !st.ok()) return st;
    scan_id = sqlite3_last_insert_rowid(db_);
  }
  for (const CatalogLine& line : lines)
    if (Status st = WriteLine(scan_id, 0, line, info); !st.ok()) return st;
  if (has_fts_) {
    auto fts = Prepare(
        "INSERT INTO lines_fts(rowid, error_message, error_class, slug) "
        "SELECT line_id, error_message, error_class, slug FROM lines WHERE scan_id = ?1 ORDER BY line_id");
    if (!fts.ok()) return fts.status();
    ScopedReset reset(*fts);
    sqlite3_bind_int64(*fts, 1, scan_id);
    if (Status st = StepDone(*fts, "index the new lines"); !st.ok()) return st;
  }
  if (Status st = BumpContentVersion(); !st.ok()) return st;
  return scan_id;
}

Result<int64_t> SqliteCatalogStore::PutScan(const ScanInfo& info, const std::vector<CatalogLine>& lines) {
  WriteTxn txn(this);
  if (Status st = txn.Begin(); !st.ok()) return st;
  auto id = PutScanLocked(info, lines);
  if (!id.ok()) return id.status();
  if (Status st = txn.Commit(); !st.ok()) return st;
  return id;
}

// Inserts `line` into scan `scan_id`, or (line_id > 0) rewrites that row in place.
Status SqliteCatalogStore::WriteLine(int64_t scan_id, int64_t line_id, const CatalogLine& line, const ScanInfo& info) {
  auto s = line_id > 0
               ? Prepare("UPDATE lines SET scan_id = ?1, record_id = ?2, slug = ?3, file_path = ?4, line_number = ?5, "
                         "error_message = ?6, message_pattern = ?7, error_class = ?8, record_json = ?9, "
                         "facts_json = ?10, dataset_version = ?11 WHERE line_id = ?12")
               : Prepare("INSERT INTO lines(scan_id, record_id, slug, file_path, line_number, error_message, "
                         "message_pattern, error_class, record_json, facts_json, dataset_version) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  if (!s.ok()) return s.status();
  const Record& r = line.record;
  ScopedReset reset(*s);
  sqlite3_bind_int64(*s, 1, scan_id);
  BindText(*s, 2, r.id);
  BindOptText(*s, 3, r.slug);
  BindText(*s, 4, r.file_path);
  sqlite3_bind_int64(*s, 5, r.line_number);
  BindOptText(*s, 6, r.error_message);
  BindOptText(*s, 7, r.message_pattern);
  BindOptText(*s, 8, r.error_class);
  BindText(*s, 9, RecordToJson(r));
  if (line.facts) BindText(*s, 10, SiteToJson(*line.facts));
  else sqlite3_bind_null(*s, 10);
  BindText(*s, 11, line.dataset_version);
  if (line_id > 0) sqlite3_bind_int64(*s, 12, line_id);
  int rc = sqlite3_step(*s);
  if (rc == SQLITE_DONE) return Status::Ok();
  if ((rc & 0xff) == SQLITE_CONSTRAINT)
    return Status::InvalidArgument(path_ + ": record " + r.id + " appears twice in scan " + info.repo + "@" + info.sha +
                                   " (" + sqlite3_errmsg(db_) + ")");
  return Error(rc, "write a line");
}

// The full-text entry of line `line_id` out of (remove) or into the index, from its row.
Status SqliteCatalogStore::IndexLine(int64_t line_id, bool remove) {
  if (!has_fts_) return Status::Ok();
  auto s = remove ? Prepare("INSERT INTO lines_fts(lines_fts, rowid, error_message, error_class, slug) "
                            "SELECT 'delete', line_id, error_message, error_class, slug FROM lines WHERE line_id = ?1")
                  : Prepare("INSERT INTO lines_fts(rowid, error_message, error_class, slug) "
                            "SELECT line_id, error_message, error_class, slug FROM lines WHERE line_id = ?1");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  sqlite3_bind_int64(*s, 1, line_id);
  return StepDone(*s, "index a line");
}

Result<int64_t> SqliteCatalogStore::FindScanId(const ScanInfo& info) {
  auto s = Prepare("SELECT scan_id FROM scans WHERE repo = ?1 AND sha = ?2 AND location = ?3");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, info.repo);
  BindText(*s, 2, info.sha);
  BindText(*s, 3, info.location);
  int rc = sqlite3_step(*s);
  if (rc == SQLITE_ROW) return sqlite3_column_int64(*s, 0);
  if (rc == SQLITE_DONE) return int64_t{-1};
  return Error(rc, "find a scan");
}

Result<int64_t> SqliteCatalogStore::AddLines(const ScanInfo& info, const std::vector<CatalogLine>& lines) {
  WriteTxn txn(this);
  if (Status st = txn.Begin(); !st.ok()) return st;
  auto found = FindScanId(info);
  if (!found.ok()) return found.status();
  int64_t scan_id = *found;
  if (scan_id < 0) {
    auto s = Prepare("INSERT INTO scans(repo, sha, dataset_version, source, files, sites, created, location) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?7)");
    if (!s.ok()) return s.status();
    ScopedReset reset(*s);
    BindText(*s, 1, info.repo);
    BindText(*s, 2, info.sha);
    BindText(*s, 3, info.dataset_version);
    BindText(*s, 4, info.source);
    sqlite3_bind_int64(*s, 5, info.files);
    BindText(*s, 6, FormatIsoTime(NowMillisHonouringSourceDateEpoch()));
    BindText(*s, 7, info.location);
    if (Status st = StepDone(*s, "insert the scan"); !st.ok()) return st;
    scan_id = sqlite3_last_insert_rowid(db_);
  }
  int64_t last_before = 0;
  {
    auto s = Prepare("SELECT coalesce(max(line_id), 0) FROM lines");
    if (!s.ok()) return s.status();
    ScopedReset reset(*s);
    int rc = sqlite3_step(*s);
    if (rc != SQLITE_ROW) return Error(rc, "read lines");
    last_before = sqlite3_column_int64(*s, 0);
  }
  auto find = Prepare("SELECT line_id FROM lines WHERE scan_id = ?1 AND record_id = ?2");
  if (!find.ok()) return find.status();
  std::set<std::string_view> ids;
  for (const CatalogLine& line : lines) {
    if (!ids.insert(line.record.id).second)
      return Status::InvalidArgument(path_ + ": record " + line.record.id + " appears twice in the lines added to " +
                                     info.repo + "@" + info.sha);
    int64_t line_id = 0;
    {
      ScopedReset reset(*find);
      sqlite3_bind_int64(*find, 1, scan_id);
      BindText(*find, 2, line.record.id);
      int rc = sqlite3_step(*find);
      if (rc == SQLITE_ROW) line_id = sqlite3_column_int64(*find, 0);
      else if (rc != SQLITE_DONE) return Error(rc, "find a line");
    }
    // A line added earlier in this call is new: it enters the index in bulk below.
    bool indexed = line_id > 0 && line_id <= last_before;
    if (indexed)
      if (Status st = IndexLine(line_id, /*remove=*/true); !st.ok()) return st;
    if (Status st = WriteLine(scan_id, line_id, line, info); !st.ok()) return st;
    if (indexed)
      if (Status st = IndexLine(line_id, /*remove=*/false); !st.ok()) return st;
  }
  if (has_fts_) {
    auto fts = Prepare(
        "INSERT INTO lines_fts(rowid, error_message, error_class, slug) "
        "SELECT line_id, error_message, error_class, slug FROM lines WHERE line_id > ?1 ORDER BY line_id");
    if (!fts.ok()) return fts.status();
    ScopedReset reset(*fts);
    sqlite3_bind_int64(*fts, 1, last_before);
    if (Status st = StepDone(*fts, "index the new lines"); !st.ok()) return st;
  }
  {
    auto s = Prepare(
        "UPDATE scans SET sites = (SELECT count(*) FROM lines WHERE scan_id = ?1), "
        "files = max(files, (SELECT count(DISTINCT file_path) FROM lines WHERE scan_id = ?1)), "
        "dataset_version = max(dataset_version, ?2) WHERE scan_id = ?1");
    if (!s.ok()) return s.status();
    ScopedReset reset(*s);
    sqlite3_bind_int64(*s, 1, scan_id);
    BindText(*s, 2, info.dataset_version);
    if (Status st = StepDone(*s, "count the scan's lines"); !st.ok()) return st;
  }
  if (Status st = BumpContentVersion(); !st.ok()) return st;
  if (Status st = txn.Commit(); !st.ok()) return st;
  return scan_id;
}

Result<std::vector<ScanInfo>> SqliteCatalogStore::ListScans() {
  auto s = Prepare(
      "SELECT scan_id, repo, sha, dataset_version, source, files, sites, location FROM scans ORDER BY scan_id");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  std::vector<ScanInfo> out;
  int rc;
  while ((rc = sqlite3_step(*s)) == SQLITE_ROW) {
    ScanInfo info;
    info.scan_id = sqlite3_column_int64(*s, 0);
    info.repo = ColumnText(*s, 1);
    info.sha = ColumnText(*s, 2);
    info.dataset_version = ColumnText(*s, 3);
    info.source = ColumnText(*s, 4);
    info.files = sqlite3_column_int64(*s, 5);
    info.sites = sqlite3_column_int64(*s, 6);
    info.location = ColumnText(*s, 7);
    out.push_back(std::move(info));
  }
  if (rc != SQLITE_DONE) return Error(rc, "list scans");
  return out;
}

// Rows of (scan_id, record_json, facts_json, dataset_version) -> StoredLines.
Result<std::vector<StoredLine>> SqliteCatalogStore::ReadLines(sqlite3_stmt* s) {
  std::vector<StoredLine> out;
  std::string json;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    // Reassemble the catalog line and parse it with the one JSON mapping (model/record.h).
    json.assign("{\"record\":");
    json.append(reinterpret_cast<const char*>(sqlite3_column_text(s, 1)), sqlite3_column_bytes(s, 1));
    json.append(",\"datasetVersion\":");
    AppendJsonString(json, ColumnText(s, 3));
    if (sqlite3_column_type(s, 2) != SQLITE_NULL) {
      json.append(",\"facts\":");
      json.append(reinterpret_cast<const char*>(sqlite3_column_text(s, 2)), sqlite3_column_bytes(s, 2));
    }
    json.push_back('}');
    auto line = ParseCatalogLine(json);
    if (!line.ok())
      return Status::Internal(path_ + ": a stored line cannot be read back: " + line.status().message());
    StoredLine sl;
    sl.scan_id = sqlite3_column_int64(s, 0);
    sl.line = std::move(line.value());
    out.push_back(std::move(sl));
  }
  if (rc != SQLITE_DONE) return Error(rc, "read lines");
  return out;
}

Result<std::vector<StoredLine>> SqliteCatalogStore::LoadLines(const ScanFilter& filter) {
  // sha: exact, or a prefix of at least 4 characters (people type short shas).
  auto s = Prepare(
      "SELECT l.scan_id, l.record_json, l.facts_json, l.dataset_version FROM lines l "
      "JOIN scans s ON s.scan_id = l.scan_id "
      "WHERE (?1 = '' OR s.repo = ?1) "
      "AND (?2 = '' OR s.sha = ?2 OR (length(?2) >= 4 AND substr(s.sha, 1, length(?2)) = ?2)) "
      "AND (?3 = 0 OR s.scan_id = (SELECT max(s2.scan_id) FROM scans s2 WHERE s2.repo = s.repo)) "
      "ORDER BY l.scan_id, l.line_id");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, filter.repo);
  BindText(*s, 2, filter.sha);
  sqlite3_bind_int(*s, 3, filter.latest_only ? 1 : 0);
  return ReadLines(*s);
}

Result<std::vector<StoredLine>> SqliteCatalogStore::FindRecord(const std::string& id_or_slug) {
  auto s = Prepare(
      "SELECT l.scan_id, l.record_json, l.facts_json, l.dataset_version FROM lines l "
      "JOIN scans s ON s.scan_id = l.scan_id "
      "WHERE l.record_id = ?1 OR l.slug = ?1 "
      "ORDER BY s.dataset_version DESC, s.scan_id DESC, l.line_id");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, id_or_slug);
  return ReadLines(*s);
}

Status SqliteCatalogStore::UpdateRecords(const std::vector<StoredLine>& lines) {
  WriteTxn txn(this);
  if (Status st = txn.Begin(); !st.ok()) return st;
  auto get = Prepare("SELECT record_json FROM lines WHERE scan_id = ?1 AND record_id = ?2");
  if (!get.ok()) return get.status();
  auto put = Prepare("UPDATE lines SET record_json = ?3 WHERE scan_id = ?1 AND record_id = ?2");
  if (!put.ok()) return put.status();
  for (const StoredLine& sl : lines) {
    std::string stored;
    {
      ScopedReset reset(*get);
      sqlite3_bind_int64(*get, 1, sl.scan_id);
      BindText(*get, 2, sl.line.record.id);
      int rc = sqlite3_step(*get);
      if (rc == SQLITE_DONE)
        return Status::NotFound(path_ + ": no record " + sl.line.record.id + " in scan " + std::to_string(sl.scan_id));
      if (rc != SQLITE_ROW) return Error(rc, "read a record");
      stored = ColumnText(*get, 0);
    }
    auto record = RecordFromJson(stored);
    if (!record.ok()) return Status::Internal(path_ + ": a stored record cannot be read back: " + record.status().message());
    CopyProse(sl.line.record, &record.value());
    ScopedReset reset(*put);
    sqlite3_bind_int64(*put, 1, sl.scan_id);
    BindText(*put, 2, sl.line.record.id);
    BindText(*put, 3, RecordToJson(*record));
    if (Status st = StepDone(*put, "update a record"); !st.ok()) return st;
  }
  if (Status st = BumpContentVersion(); !st.ok()) return st;
  return txn.Commit();
}

Result<std::string> SqliteCatalogStore::ContentVersion() {
  auto v = GetMeta("content_version");
  if (!v.ok()) return v.status();
  if (!v->has_value()) return Status::Internal(path_ + ": meta.content_version is missing");
  return **v;
}

// blobs and cache are two key/value tables of the same shape (key, bytes, updated):
// one upsert and one look-up serve both; `sql` names the table.
Status SqliteCatalogStore::PutKeyValue(const char* sql, const std::string& key, std::string_view bytes,
                                       const char* what) {
  auto s = Prepare(sql);
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, key);
  BindBlob(*s, 2, bytes);
  BindText(*s, 3, FormatIsoTime(NowMillisHonouringSourceDateEpoch()));
  return StepDone(*s, what);
}

Result<std::optional<std::string>> SqliteCatalogStore::GetKeyValue(const char* sql, const std::string& key,
                                                                    const char* what) {
  auto s = Prepare(sql);
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, key);
  int rc = sqlite3_step(*s);
  if (rc == SQLITE_ROW) return std::optional<std::string>(ColumnBlob(*s, 0));
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  return Error(rc, what);
}

Status SqliteCatalogStore::InTransaction(const std::function<Status()>& body) {
  WriteTxn txn(this);
  if (Status st = txn.Begin(); !st.ok()) return st;
  if (Status st = body(); !st.ok()) return st;  // txn's destructor rolls back
  return txn.Commit();
}

Status SqliteCatalogStore::PutBlob(const std::string& key, std::string_view bytes) {
  return PutKeyValue("INSERT INTO blobs(key, bytes, updated) VALUES (?1, ?2, ?3) "
                     "ON CONFLICT(key) DO UPDATE SET bytes = excluded.bytes, updated = excluded.updated",
                     key, bytes, "store a blob");
}

// Incremental blob I/O reads the value straight into the result: a step that
// returns the column makes SQLite assemble the whole value first (a matcher blob
// is tens of MB over thousands of overflow pages), then we would copy it again.
Result<std::optional<std::string>> SqliteCatalogStore::GetBlob(const std::string& key) {
  auto s = Prepare("SELECT rowid, length(bytes) FROM blobs WHERE key = ?1");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, key);
  int rc = sqlite3_step(*s);
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  if (rc != SQLITE_ROW) return Error(rc, "read a blob");
  sqlite3_int64 rowid = sqlite3_column_int64(*s, 0);
  sqlite3_int64 size = sqlite3_column_int64(*s, 1);
  sqlite3_blob* blob = nullptr;
  rc = sqlite3_blob_open(db_, "main", "blobs", "bytes", rowid, /*flags=*/0, &blob);
  if (rc != SQLITE_OK) {
    sqlite3_blob_close(blob);
    return Error(rc, "open a blob");
  }
  std::string out;
  if (size < 0 || size > INT32_MAX) rc = SQLITE_TOOBIG;
  else {
    out.resize(static_cast<size_t>(size));
    if (size > 0) rc = sqlite3_blob_read(blob, out.data(), static_cast<int>(size), 0);
  }
  int close_rc = sqlite3_blob_close(blob);
  if (rc == SQLITE_OK) rc = close_rc;
  if (rc != SQLITE_OK) return Error(rc, "read a blob");
  return std::optional<std::string>(std::move(out));
}

Status SqliteCatalogStore::PutCache(const std::string& key, std::string_view value) {
  return PutKeyValue("INSERT INTO cache(key, value, updated) VALUES (?1, ?2, ?3) "
                     "ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated = excluded.updated",
                     key, value, "store a cache entry");
}

Result<std::optional<std::string>> SqliteCatalogStore::GetCache(const std::string& key) {
  return GetKeyValue("SELECT value FROM cache WHERE key = ?1", key, "read a cache entry");
}

Result<std::vector<CatalogStore::TextHit>> SqliteCatalogStore::FullTextSearch(const std::string& text, int limit) {
  std::vector<std::string> terms = SearchTerms(text);
  if (terms.empty() || limit <= 0) return std::vector<TextHit>();
  if (!has_fts_) return LikeSearch(terms, limit);
  // Each word quoted (so no word is read as FTS5 syntax), any of them may match;
  // bm25 ranks lines that share more and rarer words first.
  std::string query;
  for (const std::string& t : terms) {
    if (!query.empty()) query += " OR ";
    query += '"' + t + '"';
  }
  // Rank and cut inside FTS5 first, then join: joining before the sort looked up
  // `lines` for every row that shares a word (thousands for "the"), 2x the time.
  auto s = Prepare(
      "SELECT l.scan_id, l.record_id, -f.score FROM "
      "(SELECT rowid AS id, bm25(lines_fts) AS score FROM lines_fts WHERE lines_fts MATCH ?1 "
      "ORDER BY score, rowid LIMIT ?2) f "
      "JOIN lines l ON l.line_id = f.id ORDER BY f.score, f.id");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  BindText(*s, 1, query);
  sqlite3_bind_int(*s, 2, limit);
  std::vector<TextHit> hits;
  int rc;
  while ((rc = sqlite3_step(*s)) == SQLITE_ROW)
    hits.push_back(TextHit{sqlite3_column_int64(*s, 0), ColumnText(*s, 1), sqlite3_column_double(*s, 2)});
  if (rc != SQLITE_DONE) return Error(rc, "full-text search");
  return hits;
}

// SearchRecords' filters, shared by its statements: ?2 repo, ?3 class, ?4 severity, ?5 tag.
#define ERRDEX_RECORD_FILTERS                                                        \
  "(?2 = '' OR s.repo = ?2) AND (?3 = '' OR l.error_class = ?3) "                    \
  "AND (?4 = '' OR json_extract(l.record_json, '$.severity') = ?4) "                 \
  "AND (?5 = '' OR EXISTS (SELECT 1 FROM json_each(l.record_json, '$.tags') WHERE value = ?5))"

Result<std::vector<CatalogStore::RecordHit>> SqliteCatalogStore::SearchRecords(const RecordQuery& q) {
  std::vector<RecordHit> hits;
  if (q.limit <= 0) return hits;
  std::vector<std::string> terms = SearchTerms(q.text);
  if (!q.text.empty() && terms.empty()) return hits;  // only punctuation: nothing can match
  const bool fts = !terms.empty() && has_fts_;
  // Every line passing the filters, its record's newest line first (n = 1). With
  // FTS5, only the lines holding every word, ranked; without it (or without a
  // text) by record id, and the words are looked for below.
  auto s = fts ? Prepare(
                     "SELECT record_id, scan_id, rank, '' FROM ("
                     " SELECT l.record_id, l.scan_id, m.rank, row_number() OVER ("
                     "  PARTITION BY l.record_id ORDER BY m.rank, s.dataset_version DESC, l.scan_id DESC) AS n"
                     " FROM (SELECT rowid AS id, bm25(lines_fts) AS rank FROM lines_fts WHERE lines_fts MATCH ?1) m"
                     " JOIN lines l ON l.line_id = m.id JOIN scans s ON s.scan_id = l.scan_id"
                     " WHERE " ERRDEX_RECORD_FILTERS ") "
                     "WHERE n = 1 AND (?6 = 0 OR rank > ?7 OR (rank = ?7 AND record_id > ?8)) "
                     "ORDER BY rank, record_id LIMIT ?9")
               : Prepare(
                     "SELECT record_id, scan_id, 0.0, hay FROM ("
                     " SELECT l.record_id, l.scan_id, lower(coalesce(l.error_message, '') || ' ' || "
                     "  coalesce(l.error_class, '') || ' ' || coalesce(l.slug, '')) AS hay, row_number() OVER ("
                     "  PARTITION BY l.record_id ORDER BY s.dataset_version DESC, l.scan_id DESC) AS n"
                     " FROM lines l JOIN scans s ON s.scan_id = l.scan_id"
                     " WHERE " ERRDEX_RECORD_FILTERS ") "
                     "WHERE n = 1 AND (?6 = 0 OR record_id > ?8) ORDER BY record_id LIMIT ?9");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  if (fts) {
    // Each word quoted (never FTS5 syntax), all of them required; the last one
    // may be a prefix (a word still being typed).
    std::string match;
    for (size_t i = 0; i < terms.size(); ++i) {
      if (i) match += ' ';
      match += '"' + terms[i] + '"';
    }
    match += '*';
    BindText(*s, 1, match);
  }
  BindText(*s, 2, q.repo);
  BindText(*s, 3, q.error_class);
  BindText(*s, 4, q.severity);
  BindText(*s, 5, q.tag);
  sqlite3_bind_int(*s, 6, q.has_cursor ? 1 : 0);
  if (fts) sqlite3_bind_double(*s, 7, q.cursor_rank);
  BindText(*s, 8, q.cursor_record_id);
  // Without FTS5 the words are matched here, so the page is cut here too.
  sqlite3_bind_int(*s, 9, terms.empty() ? q.limit : -1);
  int rc;
  while ((rc = sqlite3_step(*s)) == SQLITE_ROW) {
    if (!fts && !terms.empty()) {
      std::string hay = ColumnText(*s, 3);
      bool all = true;
      for (const std::string& t : terms) all = all && hay.find(t) != std::string::npos;
      if (!all) continue;
    }
    hits.push_back(RecordHit{sqlite3_column_int64(*s, 1), ColumnText(*s, 0), sqlite3_column_double(*s, 2)});
    if (hits.size() >= static_cast<size_t>(q.limit)) break;
  }
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return Error(rc, "search records");
  return hits;
}
#undef ERRDEX_RECORD_FILTERS

// Without FTS5 (a SQLite built without it): the number of words found as substrings.
Result<std::vector<CatalogStore::TextHit>> SqliteCatalogStore::LikeSearch(const std::vector<std::string>& terms,
                                                                          int limit) {
  auto s = Prepare("SELECT scan_id, record_id, lower(coalesce(error_message, '') || ' ' || "
                   "coalesce(error_class, '') || ' ' || coalesce(slug, '')) FROM lines ORDER BY line_id");
  if (!s.ok()) return s.status();
  ScopedReset reset(*s);
  std::vector<TextHit> hits;
  int rc;
  while ((rc = sqlite3_step(*s)) == SQLITE_ROW) {
    std::string hay = ColumnText(*s, 2);
    double score = 0;
    for (const std::string& t : terms)
      if (hay.find(t) != std::string::npos) score += 1;
    if (score > 0) hits.push_back(TextHit{sqlite3_column_int64(*s, 0), ColumnText(*s, 1), score});
  }
  if (rc != SQLITE_DONE) return Error(rc, "search");
  std::stable_sort(hits.begin(), hits.end(), [](const TextHit& a, const TextHit& b) { return a.score > b.score; });
  if (hits.size() > static_cast<size_t>(limit)) hits.resize(limit);
  return hits;
}

// "file:<path>?immutable=1" with the URI's reserved characters escaped.
std::string ImmutableUri(const std::string& path) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (c == '?' || c == '#' || c == '%' || c < 0x20 || c >= 0x7f) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      uri += buf;
    } else {
      uri += static_cast<char>(c);
    }
  }
  return uri + "?immutable=1";
}

Result<std::unique_ptr<SqliteCatalogStore>> OpenConnection(const std::string& path, const std::string& name,
                                                           int flags, bool create) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return Status::IoError(path + ": cannot open the catalog: " + msg);
  }
  auto store = std::make_unique<SqliteCatalogStore>(db, path);
  Status st = store->Init(create);
  if (!st.ok() && !store->wants_immutable()) return st;
  return store;
}

}  // namespace

Result<std::unique_ptr<CatalogStore>> CatalogStore::Open(const std::string& path, bool create) {
  if (path.empty()) return Status::InvalidArgument("no catalog path given");
  if (IsDirectory(path)) return Status::InvalidArgument(path + ": is a directory, not an errdex catalog");
  if (!create && !FileExists(path)) return Status::NotFound(path + ": no such catalog");
  // SQLite here is built with URI filenames on: keep a path that starts with "file:" a path.
  std::string name = path.rfind("file:", 0) == 0 ? "./" + path : path;
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
  auto store = OpenConnection(path, name, flags, create);
  if (!store.ok()) return store.status();
  if ((*store)->wants_immutable()) {
    // Read-only file in a read-only place (a shipped catalog): nobody can write it
    // through this path, so reading it as immutable (no -shm, no locks) is safe.
    store = OpenConnection(path, ImmutableUri(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                           false);
    if (!store.ok()) return store.status();
    if ((*store)->wants_immutable()) return Status::IoError(path + ": the catalog is read-only and cannot be read");
  }
  return std::unique_ptr<CatalogStore>(std::move(store.value()));
}

}  // namespace errdex
