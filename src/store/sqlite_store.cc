// sqlite_store.cc: the SQLite backend of CatalogStore -- the connection (WAL,
// pragmas, read-only and immutable opens, damage checks), the schema and its
// migrations, and FTS5. The catalog's logic is sql_catalog.cc's.
//
// Schema version kStoreSchemaVersion (meta.schema_version); the tables are
// listed in sql_catalog.h. entries_fts is an FTS5 index over entries
// (error_message, error_class, slug), external content, written in bulk before
// each commit (IndexEntriesAfter): FTS5 flushes its pending terms at every
// statement savepoint, so per-row writes made a 50k-record scan several times
// slower. Every write runs in a transaction (BEGIN IMMEDIATE, or a SAVEPOINT
// when nested) and is rolled back on any failure; the schema is created inside
// one too, after looking again under the write lock, so processes that open a
// new catalog at the same time create it once. Opening to write runs PRAGMA
// quick_check on a catalog small enough for it to be cheap, so a damaged file
// is reported before anything is added to it.
//
// Migrations: 1 -> 2 gives scans a location; 2 -> 3 turns each scan's lines
// into verbatim units (byte-identical export) and drops `lines`.
// Tested by sqlite_store_test.cc.
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <future>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "store/catalog_store.h"
#include "store/sql_catalog.h"

namespace errdex {
namespace store {
namespace {

constexpr int kStoreSchemaVersion = 3;
constexpr const char* kApplication = "errdex";
constexpr int kBusyTimeoutMs = 10000;
constexpr size_t kMaxSearchTerms = 64;
// quick_check reads every page: about 1 s per 500 MB here, so it runs on catalogs
// up to this size when they are opened to write -- beside the work, on a
// connection of its own, before the first write (SqliteDb::BeginWrite).
constexpr int64_t kQuickCheckMaxBytes = 256ll << 20;
// synchronous=NORMAL is safe with WAL (a crash may lose the last commit, never
// corrupt); 64 MiB of page cache keeps a big scan's indexes in memory;
// Debian builds SQLite with SECURE_DELETE, whose zeroing of freed pages costs
// writes when a scan is replaced and protects nothing here; the -wal file of a
// long-lived connection is cut back to 64 MiB after a big import.
constexpr const char* kPragmas =
    "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-65536; "
    "PRAGMA temp_store=MEMORY; PRAGMA secure_delete=OFF; PRAGMA journal_size_limit=67108864;";

constexpr const char* kCreateMeta = "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);";
constexpr const char* kCreateScans = R"sql(
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
  commit_time TEXT NOT NULL DEFAULT '',
  knowledge_id INTEGER,
  UNIQUE(repo, sha, location));
)sql";
// units/entries never reuse an id (AUTOINCREMENT): readers cache units by id,
// and the full-text index is fed entries by id.
constexpr const char* kCreateContent = R"sql(
CREATE TABLE units(
  unit_id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind INTEGER NOT NULL,
  key BLOB NOT NULL,
  variant INTEGER NOT NULL,
  repo TEXT NOT NULL,
  path TEXT NOT NULL,
  records INTEGER NOT NULL,
  deps BLOB NOT NULL,
  knowledge BLOB NOT NULL,
  info BLOB NOT NULL,
  base_id INTEGER,
  depth INTEGER NOT NULL,
  raw_size INTEGER NOT NULL,
  payload BLOB NOT NULL,
  created INTEGER NOT NULL,
  UNIQUE(key, variant, kind));
CREATE INDEX units_by_path ON units(repo, path, kind);
CREATE TABLE tree(
  scan_id INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  unit_id INTEGER NOT NULL,
  PRIMARY KEY(scan_id, ord)) WITHOUT ROWID;
CREATE INDEX tree_by_unit ON tree(unit_id);
CREATE TABLE entries(
  entry_id INTEGER PRIMARY KEY AUTOINCREMENT,
  hash BLOB NOT NULL UNIQUE,
  record_id TEXT NOT NULL,
  slug TEXT,
  error_message TEXT,
  error_class TEXT,
  severity TEXT,
  tags TEXT NOT NULL);
CREATE INDEX entries_by_record_id ON entries(record_id);
CREATE INDEX entries_by_slug ON entries(slug);
CREATE TABLE unit_entries(
  unit_id INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  entry_id INTEGER NOT NULL,
  PRIMARY KEY(unit_id, idx)) WITHOUT ROWID;
CREATE INDEX unit_entries_by_entry ON unit_entries(entry_id);
CREATE TABLE leases(lease_id INTEGER PRIMARY KEY AUTOINCREMENT, started INTEGER NOT NULL);
)sql";
constexpr const char* kCreateBlobs = R"sql(
CREATE TABLE blobs(key TEXT PRIMARY KEY, bytes BLOB NOT NULL, updated TEXT NOT NULL);
CREATE TABLE cache(key TEXT PRIMARY KEY, value BLOB NOT NULL, updated TEXT NOT NULL);
)sql";
constexpr const char* kCreateFts = R"sql(
CREATE VIRTUAL TABLE entries_fts USING fts5(
  error_message, error_class, slug, content='entries', content_rowid='entry_id');
)sql";

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

// ---------------------------------------------------------------- SqlDb over sqlite3

class SqliteDb;

class SqliteStmt final : public SqlStmt {
 public:
  SqliteStmt(SqliteDb* db, sqlite3_stmt* s);
  ~SqliteStmt() override { sqlite3_finalize(s_); }
  void BindInt(int i, int64_t v) override { sqlite3_bind_int64(s_, Param(i), v); }
  void BindDouble(int i, double v) override { sqlite3_bind_double(s_, Param(i), v); }
  void BindText(int i, std::string_view v) override {
    sqlite3_bind_text64(s_, Param(i), v.data() ? v.data() : "", v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  }
  void BindBlob(int i, std::string_view v) override {
    // A null pointer would bind SQL NULL; an empty blob must stay a blob.
    sqlite3_bind_blob64(s_, Param(i), v.data() ? v.data() : "", v.size(), SQLITE_TRANSIENT);
  }
  void BindNull(int i) override { sqlite3_bind_null(s_, Param(i)); }
  Result<bool> Step() override;
  bool IsNull(int col) override { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  int64_t Int(int col) override { return sqlite3_column_int64(s_, col); }
  double Double(int col) override { return sqlite3_column_double(s_, col); }
  std::string_view View(int col) override {
    const void* p = sqlite3_column_blob(s_, col);
    int n = sqlite3_column_bytes(s_, col);
    if (!p || n <= 0) return {};
    return std::string_view(static_cast<const char*>(p), static_cast<size_t>(n));
  }
  void Reset() override {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }

 private:
  // $N -> SQLite's index of the parameter named "$N".
  int Param(int i) const { return i > 0 && static_cast<size_t>(i) < params_.size() ? params_[i] : 0; }
  SqliteDb* db_;
  sqlite3_stmt* s_;
  std::vector<int> params_;
};

class SqliteDb final : public SqlDb {
 public:
  SqliteDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteDb() override {
    if (check_.valid()) check_.wait();
    stmts_.clear();  // finalize before closing
    sqlite3_close_v2(db_);
  }
  Result<SqlStmt*> Prepare(const char* sql) override {
    auto it = stmts_.find(sql);
    if (it != stmts_.end()) return static_cast<SqlStmt*>(it->second.get());
    sqlite3_stmt* s = nullptr;
    int rc = sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(s);
      return Error(rc, "prepare a statement");
    }
    auto stmt = std::make_unique<SqliteStmt>(this, s);
    SqlStmt* raw = stmt.get();
    stmts_.emplace(sql, std::move(stmt));
    return raw;
  }
  Status Exec(const char* sql, std::string_view what) override {
    char* err = nullptr;
    int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
    sqlite3_free(err);
    if (rc != SQLITE_OK) return Error(rc, what);
    return Status::Ok();
  }
  // PRAGMA journal_mode=WAL needs the file to itself for a moment. When another
  // connection wants the same (processes opening a new catalog at once), SQLite
  // returns BUSY at once instead of calling the busy handler (it could deadlock),
  // so the switch is retried, backing off, for as long as the busy timeout.
  Status EnableWal() {
    auto start = std::chrono::steady_clock::now();
    for (int wait_ms = 1;; wait_ms = std::min(wait_ms * 2, 50)) {
      int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL;", nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) return Status::Ok();
      bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
      if (!busy || std::chrono::steady_clock::now() - start > std::chrono::milliseconds(kBusyTimeoutMs))
        return Error(rc, "enable WAL");
      std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
    }
  }
  bool InTransaction() override { return !sqlite3_get_autocommit(db_); }
  Status BeginWrite() override {
    if (Status st = CheckResult(); !st.ok()) return st;
    return Exec("BEGIN IMMEDIATE;", "begin a transaction");
  }
  // An integrity check running meanwhile (on its own connection): every write
  // waits for it, and none happens if it found damage.
  void SetCheck(std::future<Status> check) { check_ = std::move(check); }
  Status CheckResult() {
    if (check_.valid()) check_status_ = check_.get();
    return check_status_;
  }
  const std::string& name() const override { return path_; }

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
  sqlite3* raw() const { return db_; }

 private:
  sqlite3* db_;
  std::string path_;
  std::map<const char*, std::unique_ptr<SqliteStmt>> stmts_;
  std::future<Status> check_;
  Status check_status_;
};

SqliteStmt::SqliteStmt(SqliteDb* db, sqlite3_stmt* s) : db_(db), s_(s) {
  int n = sqlite3_bind_parameter_count(s);
  for (int i = 1; i <= n; ++i) {
    const char* name = sqlite3_bind_parameter_name(s, i);
    if (!name || name[0] != '$') continue;
    int k = std::atoi(name + 1);
    if (k <= 0) continue;
    if (params_.size() <= static_cast<size_t>(k)) params_.resize(k + 1, 0);
    params_[k] = i;
  }
}

Result<bool> SqliteStmt::Step() {
  int rc = sqlite3_step(s_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return db_->Error(rc, "run a statement");
}

// ---------------------------------------------------------------- the store

class SqliteCatalogStore final : public SqlCatalog {
 public:
  explicit SqliteCatalogStore(std::unique_ptr<SqliteDb> db) : SqlCatalog(db.get()), db_(std::move(db)) {}

  Status Init(bool create);
  bool wants_immutable() const { return wants_immutable_; }

  Result<std::vector<TextHit>> FullTextSearch(const std::string& text, int limit) override;
  Result<std::vector<RecordHit>> SearchRecords(const RecordQuery& query) override;

 protected:
  Status IndexEntriesAfter(int64_t after) override;
  Status UnindexEntry(int64_t entry_id) override;
  bool IndexesInBulk() const override { return has_fts_; }
  Result<int64_t> StorageBytes() override;
  Status Compact() override;
  Result<std::optional<std::string>> ReadBlobRow(const std::string& key) override;

 private:
  Status Exec(const char* sql, std::string_view what) { return db_->Exec(sql, what); }
  Status Error(int rc, std::string_view what) const { return db_->Error(rc, what); }
  Result<std::vector<TextHit>> LikeSearch(const std::vector<std::string>& terms, int limit);
  Status Migrate(int from_version);
  Status MigrateLinesToUnits();
  Status CreateSchema();
  Result<int64_t> CountTables();
  Status CorruptError(std::string_view detail) const {
    return Status::IoError(db_->name() + ": the catalog file is corrupt (" + std::string(detail) +
                           "); nothing was written. Restore it from a copy, or rebuild it into a new file "
                           "with errdex scan/import");
  }
  sqlite3* raw() const { return db_->raw(); }

  std::unique_ptr<SqliteDb> db_;
  bool read_only_ = false;
  bool has_fts_ = false;
  bool wants_immutable_ = false;
};

Status SqliteCatalogStore::CreateSchema() {
  for (const char* sql : {kCreateMeta, kCreateScans, kCreateContent, kCreateBlobs}) {
    Status st = Exec(sql, "create the schema");
    if (!st.ok()) return st;
  }
  has_fts_ = sqlite3_compileoption_used("ENABLE_FTS5") == 1;
  if (has_fts_) {
    if (Status st = Exec(kCreateFts, "create the full-text index"); !st.ok()) return st;
  }
  if (Status st = SetMeta("application", kApplication); !st.ok()) return st;
  if (Status st = SetMeta("schema_version", std::to_string(kStoreSchemaVersion)); !st.ok()) return st;
  if (Status st = SetMeta("content_version", "0"); !st.ok()) return st;
  return SetMeta("fts", has_fts_ ? "fts5" : "like");
}

Status SqliteCatalogStore::Migrate(int from_version) {
  if (from_version < 1 || from_version > kStoreSchemaVersion)
    return Status::InvalidArgument(db_->name() + ": unknown catalog schema version " + std::to_string(from_version));
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
  if (from_version < 3) {
    Status st = Exec(
        "ALTER TABLE scans ADD COLUMN commit_time TEXT NOT NULL DEFAULT ''; "
        "ALTER TABLE scans ADD COLUMN knowledge_id INTEGER;",
        "upgrade the catalog to schema version 3");
    if (!st.ok()) return st;
    if (st = Exec(kCreateContent, "upgrade the catalog to schema version 3"); !st.ok()) return st;
    if (has_fts_) {
      if (st = Exec(kCreateFts, "upgrade the catalog to schema version 3"); !st.ok()) return st;
    }
    if (st = MigrateLinesToUnits(); !st.ok()) return st;
  }
  return Status::Ok();
}

// 2 -> 3: each scan's lines, in their order, become verbatim units (one per run
// of lines of one file) and the scan's tree; `lines` and its index go.
Status SqliteCatalogStore::MigrateLinesToUnits() {
  auto scans = ListScans();
  if (!scans.ok()) return scans.status();
  for (const ScanInfo& scan : *scans) {
    std::vector<CatalogLine> lines;
    {
      Query q(db(), "SELECT record_json, facts_json, dataset_version FROM lines WHERE scan_id = $1 ORDER BY line_id");
      if (!q.ok()) return q.status();
      q->BindInt(1, scan.scan_id);
      std::string json;
      for (;;) {
        auto row = q->Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        json.assign("{\"record\":");
        json.append(q->View(0));
        json.append(",\"datasetVersion\":");
        AppendJsonString(json, q->View(2));
        if (!q->IsNull(1)) {
          json.append(",\"facts\":");
          json.append(q->View(1));
        }
        json.push_back('}');
        auto line = ParseCatalogLine(json);
        if (!line.ok())
          return Status::IoError(db_->name() + ": a stored line cannot be read back while upgrading: " +
                                 line.status().message());
        lines.push_back(std::move(line).value());
      }
    }
    auto ids = PutVerbatim(scan.repo, lines);
    if (!ids.ok()) return ids.status();
    for (size_t i = 0; i < ids->size(); ++i)
      if (Status st = SetTreeRow(scan.scan_id, static_cast<int64_t>(i), (*ids)[i]); !st.ok()) return st;
  }
  return Exec("DROP TABLE IF EXISTS lines_fts; DROP TABLE lines;", "upgrade the catalog to schema version 3");
}

Result<int64_t> SqliteCatalogStore::CountTables() {
  sqlite3_stmt* s = nullptr;
  int rc = sqlite3_prepare_v2(raw(), "SELECT count(*) FROM sqlite_master", -1, &s, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_step(s);
  int64_t n = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
  sqlite3_finalize(s);
  if (rc != SQLITE_ROW) return Error(rc, "open the catalog");
  return n;
}

// PRAGMA quick_check on a connection of its own (it runs beside the scan that
// opened the catalog): "" when the file is sound, else what is wrong.
Result<std::string> QuickCheckFile(const std::string& path) {
  sqlite3* db = nullptr;
  std::string name = path.rfind("file:", 0) == 0 ? "./" + path : path;
  int rc = sqlite3_open_v2(name.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  std::string problems;
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    sqlite3_stmt* s = nullptr;
    rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(3)", -1, &s, nullptr);
    if (rc == SQLITE_OK) {
      while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char* t = sqlite3_column_text(s, 0);
        std::string row = t ? reinterpret_cast<const char*>(t) : "";
        if (row == "ok") continue;
        if (!problems.empty()) problems += "; ";
        problems += row;
      }
    }
    sqlite3_finalize(s);
  }
  std::string err = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  sqlite3_close_v2(db);
  if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB) return "quick_check: " + err;
  if (rc != SQLITE_DONE) return Status::IoError(path + ": check the catalog: " + err);
  return problems.empty() ? std::string() : "quick_check: " + problems;
}

Status SqliteCatalogStore::Init(bool create) {
  sqlite3_busy_timeout(raw(), kBusyTimeoutMs);
  sqlite3_extended_result_codes(raw(), 1);
  read_only_ = sqlite3_db_readonly(raw(), "main") == 1;

  // Reading sqlite_master is the first access to the file: a non-SQLite file fails here.
  int64_t tables = 0;
  {
    sqlite3_stmt* s = nullptr;
    int rc = sqlite3_prepare_v2(raw(), "SELECT count(*) FROM sqlite_master", -1, &s, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) tables = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    if ((rc & 0xff) == SQLITE_NOTADB) return Status::InvalidArgument(db_->name() + ": not an errdex catalog");
    if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN) {
      // A WAL catalog in a directory where we cannot create its -shm file (the
      // file itself may be writable: nobody can write it through this directory,
      // which WAL needs): Open retries it as immutable, read-only.
      wants_immutable_ = true;
    }
    if (rc != SQLITE_ROW) return Error(rc, "open the catalog");
  }

  if (tables == 0) {
    if (!create) return Status::InvalidArgument(db_->name() + ": not an errdex catalog (empty file)");
    if (read_only_) return Status::IoError(db_->name() + ": the catalog is read-only; cannot create it");
    // Another process may be creating it right now: switching to WAL waits for it
    // (busy timeout), and the schema is created under the write lock only if it
    // is still missing there.
    Status st = db_->EnableWal();
    if (!st.ok()) return st;
    st = Exec(kPragmas, "set pragmas");
    if (!st.ok()) return st;
    WriteTxn txn(db());
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
    sqlite3_stmt* s = nullptr;
    int rc = sqlite3_prepare_v2(raw(), "SELECT value FROM meta WHERE key = 'application'", -1, &s, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(s);
      if ((rc & 0xff) == SQLITE_CORRUPT) return CorruptError(sqlite3_errmsg(raw()));
      return Status::InvalidArgument(db_->name() + ": not an errdex catalog");
    }
    rc = sqlite3_step(s);
    bool ours = rc == SQLITE_ROW && sqlite3_column_text(s, 0) &&
                std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, 0))) == kApplication;
    std::string err = sqlite3_errmsg(raw());
    sqlite3_finalize(s);
    if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB) return CorruptError(err);
    if (!ours) return Status::InvalidArgument(db_->name() + ": not an errdex catalog");
  }
  auto version_text = GetMeta("schema_version");
  if (!version_text.ok()) return version_text.status();
  int version = 0;
  try {
    version = version_text->has_value() ? std::stoi(**version_text) : 0;
  } catch (...) {
    version = 0;
  }
  if (version <= 0) return Status::InvalidArgument(db_->name() + ": not an errdex catalog (no schema version)");
  if (version > kStoreSchemaVersion) {
    return Status::InvalidArgument(db_->name() + ": the catalog has schema version " + std::to_string(version) +
                                   ", newer than this errdex understands (" +
                                   std::to_string(kStoreSchemaVersion) + "); use a newer errdex");
  }
  if (!read_only_) {
    Status st = db_->EnableWal();
    if (!st.ok()) return st;
  }
  Status st = Exec(kPragmas, "set pragmas");
  if (!st.ok()) return st;
  if (create && !read_only_) {
    // Opened to write (scan --db, import): a damaged file is reported now, not
    // after a write that happened to miss the damaged pages.
    struct stat sb;
    if (::stat(db_->name().c_str(), &sb) == 0 && sb.st_size <= kQuickCheckMaxBytes) {
      std::string path = db_->name();
      db_->SetCheck(std::async(std::launch::async, [path]() -> Status {
        auto found = QuickCheckFile(path);
        if (!found.ok()) return found.status();
        if (found->empty()) return Status::Ok();
        return Status::IoError(path + ": the catalog file is corrupt (" + *found +
                               "); nothing was written. Restore it from a copy, or rebuild it into a new file "
                               "with errdex scan/import");
      }));
    }
  }
  auto fts = GetMeta("fts");
  if (!fts.ok()) return fts.status();
  has_fts_ = fts->has_value() && **fts == "fts5";
  if (version < kStoreSchemaVersion) {
    if (read_only_)
      return Status::IoError(db_->name() + ": the catalog needs an upgrade (schema version " + std::to_string(version) +
                             ") but it is read-only");
    // Foreign keys off while tables are rebuilt (a pragma that has no effect inside a transaction).
    if (st = Exec("PRAGMA foreign_keys=OFF;", "upgrade the catalog"); !st.ok()) return st;
    {
      WriteTxn txn(db());
      if (st = BeginTxn(txn); !st.ok()) return st;
      auto now = GetMeta("schema_version");  // another process may have upgraded it meanwhile
      if (!now.ok()) return now.status();
      int current = now->has_value() ? std::atoi((*now)->c_str()) : 0;
      if (current < kStoreSchemaVersion) {
        if (st = Migrate(current); !st.ok()) return st;
        if (st = SetMeta("schema_version", std::to_string(kStoreSchemaVersion)); !st.ok()) return st;
      }
      if (st = CommitTxn(txn); !st.ok()) return st;
    }
    if (st = Exec("PRAGMA foreign_keys=ON;", "upgrade the catalog"); !st.ok()) return st;
  }
  return Status::Ok();
}

// ---------------------------------------------------------------- FTS5

Status SqliteCatalogStore::IndexEntriesAfter(int64_t after) {
  Query q(db(), "INSERT INTO entries_fts(rowid, error_message, error_class, slug) "
                "SELECT entry_id, error_message, error_class, slug FROM entries WHERE entry_id > $1 ORDER BY entry_id");
  if (!q.ok()) return q.status();
  q->BindInt(1, after);
  return q->Run();
}

Status SqliteCatalogStore::UnindexEntry(int64_t entry_id) {
  if (!has_fts_) return Status::Ok();
  Query q(db(), "INSERT INTO entries_fts(entries_fts, rowid, error_message, error_class, slug) "
                "SELECT 'delete', entry_id, error_message, error_class, slug FROM entries WHERE entry_id = $1");
  if (!q.ok()) return q.status();
  q->BindInt(1, entry_id);
  return q->Run();
}

Result<int64_t> SqliteCatalogStore::StorageBytes() {
  int64_t pages = 0, size = 0;
  {
    Query q(db(), "PRAGMA page_count");
    if (!q.ok()) return q.status();
    auto row = q->Step();
    if (!row.ok()) return row.status();
    pages = *row ? q->Int(0) : 0;
  }
  Query q(db(), "PRAGMA page_size");
  if (!q.ok()) return q.status();
  auto row = q->Step();
  if (!row.ok()) return row.status();
  size = *row ? q->Int(0) : 0;
  return pages * size;
}

Status SqliteCatalogStore::Compact() {
  if (Status st = Exec("VACUUM;", "compact the catalog"); !st.ok()) return st;
  return Exec("PRAGMA wal_checkpoint(TRUNCATE);", "compact the catalog");
}

// Incremental blob I/O reads the value straight into the result: a step that
// returns the column makes SQLite assemble the whole value first (a matcher blob
// is tens of MB over thousands of overflow pages), then we would copy it again.
Result<std::optional<std::string>> SqliteCatalogStore::ReadBlobRow(const std::string& key) {
  sqlite3_int64 rowid = 0, size = 0;
  {
    Query q(db(), "SELECT rowid, length(bytes) FROM blobs WHERE key = $1");
    if (!q.ok()) return q.status();
    q->BindText(1, key);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::optional<std::string>();
    rowid = q->Int(0);
    size = q->Int(1);
  }
  sqlite3_blob* blob = nullptr;
  int rc = sqlite3_blob_open(raw(), "main", "blobs", "bytes", rowid, /*flags=*/0, &blob);
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

// The newest scan holding an entry (its tree rows through the entry's units).
#define ERRDEX_NEWEST_SCAN_OF(entry)                                                                   \
  "(SELECT t.scan_id FROM unit_entries ue JOIN tree t ON t.unit_id = ue.unit_id JOIN scans s ON "     \
  "s.scan_id = t.scan_id WHERE ue.entry_id = " entry " ORDER BY s.dataset_version DESC, s.scan_id DESC LIMIT 1)"

Result<std::vector<CatalogStore::TextHit>> SqliteCatalogStore::FullTextSearch(const std::string& text, int limit) {
  std::vector<std::string> terms = SearchTerms(text);
  if (terms.empty() || limit <= 0) return std::vector<TextHit>();
  if (!has_fts_) return LikeSearch(terms, limit);
  // Each word quoted (so no word is read as FTS5 syntax), any of them may match;
  // bm25 ranks entries that share more and rarer words first. Ranked and cut
  // inside FTS5 first, then joined; an entry no scan holds any more (waiting
  // for gc) is skipped.
  std::string query;
  for (const std::string& t : terms) {
    if (!query.empty()) query += " OR ";
    query += '"' + t + '"';
  }
  Query q(db(), "SELECT scan_id, record_id, score FROM (SELECT " ERRDEX_NEWEST_SCAN_OF("f.id") " AS scan_id, "
                "e.record_id AS record_id, -f.score AS score, f.score AS s, f.id AS id FROM "
                "(SELECT rowid AS id, bm25(entries_fts) AS score FROM entries_fts WHERE entries_fts MATCH $1 "
                "ORDER BY score, rowid LIMIT $2) f JOIN entries e ON e.entry_id = f.id) "
                "WHERE scan_id IS NOT NULL ORDER BY s, id");
  if (!q.ok()) return q.status();
  q->BindText(1, query);
  q->BindInt(2, limit);
  std::vector<TextHit> hits;
  for (;;) {
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    hits.push_back(TextHit{q->Int(0), q->Text(1), q->Double(2)});
  }
  return hits;
}

// Without FTS5 (a SQLite built without it): the number of words found as substrings.
Result<std::vector<CatalogStore::TextHit>> SqliteCatalogStore::LikeSearch(const std::vector<std::string>& terms,
                                                                          int limit) {
  Query q(db(), "SELECT " ERRDEX_NEWEST_SCAN_OF("e.entry_id") ", e.record_id, lower(coalesce(e.error_message, '') || ' ' || "
                "coalesce(e.error_class, '') || ' ' || coalesce(e.slug, '')) FROM entries e ORDER BY e.entry_id");
  if (!q.ok()) return q.status();
  std::vector<TextHit> hits;
  for (;;) {
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    if (q->IsNull(0)) continue;
    std::string_view hay = q->View(2);
    double score = 0;
    for (const std::string& t : terms)
      if (hay.find(t) != std::string_view::npos) score += 1;
    if (score > 0) hits.push_back(TextHit{q->Int(0), q->Text(1), score});
  }
  std::stable_sort(hits.begin(), hits.end(), [](const TextHit& a, const TextHit& b) { return a.score > b.score; });
  if (hits.size() > static_cast<size_t>(limit)) hits.resize(limit);
  return hits;
}
#undef ERRDEX_NEWEST_SCAN_OF

// SearchRecords' filters, shared by its statements: $2 repo, $3 class, $4 severity, $5 tag.
#define ERRDEX_RECORD_FILTERS                                                   \
  "($2 = '' OR s.repo = $2) AND ($3 = '' OR e.error_class = $3) "               \
  "AND ($4 = '' OR e.severity = $4) AND ($5 = '' OR instr(e.tags, char(10) || $5 || char(10)) > 0)"
#define ERRDEX_RECORD_LINES                                                                             \
  " JOIN unit_entries ue ON ue.entry_id = e.entry_id JOIN tree t ON t.unit_id = ue.unit_id JOIN scans s " \
  "ON s.scan_id = t.scan_id"

Result<std::vector<CatalogStore::RecordHit>> SqliteCatalogStore::SearchRecords(const RecordQuery& q) {
  std::vector<RecordHit> hits;
  if (q.limit <= 0) return hits;
  std::vector<std::string> terms = SearchTerms(q.text);
  if (!q.text.empty() && terms.empty()) return hits;  // only punctuation: nothing can match
  const bool fts = !terms.empty() && has_fts_;
  // Every (record, scan) passing the filters, its record's best-ranked then
  // newest first (n = 1). With FTS5, only the entries holding every word,
  // ranked; without it (or without a text) by record id, and the words are
  // looked for below.
  Query s(db(), fts ? "SELECT record_id, scan_id, rank, '' FROM ("
                      " SELECT e.record_id, t.scan_id, m.rank, row_number() OVER ("
                      "  PARTITION BY e.record_id ORDER BY m.rank, s.dataset_version DESC, t.scan_id DESC) AS n"
                      " FROM (SELECT rowid AS id, bm25(entries_fts) AS rank FROM entries_fts WHERE entries_fts MATCH $1) m"
                      " JOIN entries e ON e.entry_id = m.id" ERRDEX_RECORD_LINES
                      " WHERE " ERRDEX_RECORD_FILTERS ") "
                      "WHERE n = 1 AND ($6 = 0 OR rank > $7 OR (rank = $7 AND record_id > $8)) "
                      "ORDER BY rank, record_id LIMIT $9"
                    : "SELECT record_id, scan_id, 0.0, hay FROM ("
                      " SELECT e.record_id, t.scan_id, lower(coalesce(e.error_message, '') || ' ' || "
                      "  coalesce(e.error_class, '') || ' ' || coalesce(e.slug, '')) AS hay, row_number() OVER ("
                      "  PARTITION BY e.record_id ORDER BY s.dataset_version DESC, t.scan_id DESC) AS n"
                      " FROM entries e" ERRDEX_RECORD_LINES " WHERE " ERRDEX_RECORD_FILTERS ") "
                      "WHERE n = 1 AND ($6 = 0 OR record_id > $8) ORDER BY record_id LIMIT $9");
  if (!s.ok()) return s.status();
  if (fts) {
    // Each word quoted (never FTS5 syntax), all of them required; the last one
    // may be a prefix (a word still being typed).
    std::string match;
    for (size_t i = 0; i < terms.size(); ++i) {
      if (i) match += ' ';
      match += '"' + terms[i] + '"';
    }
    match += '*';
    s->BindText(1, match);
  }
  s->BindText(2, q.repo);
  s->BindText(3, q.error_class);
  s->BindText(4, q.severity);
  s->BindText(5, q.tag);
  s->BindInt(6, q.has_cursor ? 1 : 0);
  if (fts) s->BindDouble(7, q.cursor_rank);
  s->BindText(8, q.cursor_record_id);
  // Without FTS5 the words are matched here, so the page is cut here too.
  s->BindInt(9, terms.empty() ? q.limit : -1);
  for (;;) {
    auto row = s->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    if (!fts && !terms.empty()) {
      std::string_view hay = s->View(3);
      bool all = true;
      for (const std::string& t : terms) all = all && hay.find(t) != std::string_view::npos;
      if (!all) continue;
    }
    hits.push_back(RecordHit{s->Int(1), s->Text(0), s->Double(2)});
    if (hits.size() >= static_cast<size_t>(q.limit)) break;
  }
  return hits;
}
#undef ERRDEX_RECORD_FILTERS
#undef ERRDEX_RECORD_LINES

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
  auto store = std::make_unique<SqliteCatalogStore>(std::make_unique<SqliteDb>(db, path));
  Status st = store->Init(create);
  if (!st.ok() && !store->wants_immutable()) return st;
  return store;
}

}  // namespace

Result<std::unique_ptr<CatalogStore>> OpenSqliteStore(const std::string& path, bool create) {
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

}  // namespace store

bool CatalogStore::IsPostgresUrl(std::string_view path) {
  return path.rfind("postgresql://", 0) == 0 || path.rfind("postgres://", 0) == 0;
}

Result<std::unique_ptr<CatalogStore>> CatalogStore::Open(const std::string& path, bool create) {
  if (IsPostgresUrl(path)) return store::OpenPostgresStore(path, create);
  return store::OpenSqliteStore(path, create);
}

}  // namespace errdex
