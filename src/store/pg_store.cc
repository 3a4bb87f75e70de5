// pg_store.cc: the PostgreSQL backend of CatalogStore (a postgresql:// URL) --
// a libpq connection behind the SqlDb interface, the schema, and full-text
// search over a tsvector column. The catalog's logic is sql_catalog.cc's, the
// same statements as SQLite's.
//
// Differences from SQLite, and why:
//   - Text columns hold valid UTF-8 without NUL (PostgreSQL refuses anything
//     else): text bound to a statement is repaired as the JSON mapping repairs
//     it. The records themselves are in the payloads (bytea), exact.
//   - Writers are many: a unit or an entry two scans insert at once is written
//     by one of them (ON CONFLICT DO NOTHING, then read back); two scans of the
//     same commit replace it one after the other (an advisory lock on the key).
//     A scan's units land in their own transactions as it goes, invisible until
//     its tree commits; a client killed mid-transaction leaves nothing behind.
//   - Search: entries.words holds each record's words as SQLite's index splits
//     them (lower-cased runs of letters, digits and non-ASCII), indexed as a
//     tsvector ('simple': no stemming, no stop words). Ranking keeps FTS5's
//     contract: any-word search ranks entries sharing more and rarer words
//     first (the sum of each shared word's BM25 idf); all-word search ranks
//     shorter texts first.
// Tested by content_store_test.cc, search_records_test.cc and the store e2e
// tests, against a server the tests start (tests/pg/pg_server.sh).
#include <arpa/inet.h>
#include <endian.h>
#include <libpq-fe.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "store/sql_catalog.h"

namespace errdex::store {

namespace {

constexpr int kSchemaVersion = 3;
constexpr const char* kApplication = "errdex";
constexpr size_t kMaxSearchTerms = 64;

// Type oids (server/catalog/pg_type_d.h, not installed with libpq-dev).
constexpr Oid kBoolOid = 16, kByteaOid = 17, kInt8Oid = 20, kInt2Oid = 21, kInt4Oid = 23, kFloat4Oid = 700,
              kFloat8Oid = 701;

constexpr const char* kCreateSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE scans(
  scan_id BIGSERIAL PRIMARY KEY,
  repo TEXT NOT NULL,
  sha TEXT NOT NULL,
  location TEXT NOT NULL DEFAULT '',
  dataset_version TEXT NOT NULL,
  source TEXT NOT NULL,
  files BIGINT NOT NULL,
  sites BIGINT NOT NULL,
  created TEXT NOT NULL,
  commit_time TEXT NOT NULL DEFAULT '',
  knowledge_id BIGINT,
  UNIQUE(repo, sha, location));
CREATE TABLE units(
  unit_id BIGSERIAL PRIMARY KEY,
  kind INTEGER NOT NULL,
  key BYTEA NOT NULL,
  variant BIGINT NOT NULL,
  repo TEXT NOT NULL,
  path TEXT NOT NULL,
  records BIGINT NOT NULL,
  deps BYTEA NOT NULL,
  knowledge BYTEA NOT NULL,
  info BYTEA NOT NULL,
  base_id BIGINT,
  depth INTEGER NOT NULL,
  raw_size BIGINT NOT NULL,
  payload BYTEA NOT NULL,
  created BIGINT NOT NULL,
  UNIQUE(key, variant, kind));
CREATE INDEX units_by_path ON units(repo, path, kind);
CREATE TABLE tree(
  scan_id BIGINT NOT NULL,
  ord BIGINT NOT NULL,
  unit_id BIGINT NOT NULL,
  PRIMARY KEY(scan_id, ord));
CREATE INDEX tree_by_unit ON tree(unit_id);
CREATE TABLE entries(
  entry_id BIGSERIAL PRIMARY KEY,
  hash BYTEA NOT NULL UNIQUE,
  record_id TEXT NOT NULL,
  slug TEXT,
  error_message TEXT,
  error_class TEXT,
  severity TEXT,
  tags TEXT NOT NULL,
  words TEXT NOT NULL DEFAULT '',
  tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', words)) STORED,
  nwords INTEGER GENERATED ALWAYS AS (length(to_tsvector('simple', words))) STORED);
CREATE INDEX entries_by_record_id ON entries(record_id);
CREATE INDEX entries_by_slug ON entries(slug);
CREATE INDEX entries_tsv ON entries USING GIN(tsv);
CREATE TABLE unit_entries(
  unit_id BIGINT NOT NULL,
  idx BIGINT NOT NULL,
  entry_id BIGINT NOT NULL,
  PRIMARY KEY(unit_id, idx));
CREATE INDEX unit_entries_by_entry ON unit_entries(entry_id);
CREATE TABLE leases(lease_id BIGSERIAL PRIMARY KEY, started BIGINT NOT NULL);
CREATE TABLE blobs(key TEXT PRIMARY KEY, bytes BYTEA NOT NULL, updated TEXT NOT NULL);
CREATE TABLE cache(key TEXT PRIMARY KEY, value BYTEA NOT NULL, updated TEXT NOT NULL);
)sql";

// `s` as valid UTF-8 without NUL (invalid bytes and NUL become U+FFFD), as
// the JSON mapping writes text.
std::string ValidText(std::string_view s) {
  bool clean = true;
  for (unsigned char c : s)
    if (c == 0 || c >= 0x80) clean = false;
  if (clean) return std::string(s);
  std::string out;
  out.reserve(s.size());
  // Keep s's own bytes where valid: walk it, taking each valid sequence.
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = s[i];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size() && c != 0;
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (ok && n > 1) {
      uint32_t cp = c & (0x7F >> n);
      for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      ok = !((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
             (cp >= 0xD800 && cp <= 0xDFFF));
    }
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out.append("\xEF\xBF\xBD");
      ++i;
    }
  }
  return out;
}

// The words of `text` as the index holds them: runs of ASCII letters and
// digits and of non-ASCII bytes, lower-cased (SQLite's SearchTerms).
std::vector<std::string> Words(std::string_view text, size_t min_size) {
  std::vector<std::string> words;
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= min_size) words.push_back(cur);
    cur.clear();
  };
  for (unsigned char c : text) {
    if (std::isalnum(c) || c >= 0x80) cur.push_back(static_cast<char>(std::tolower(c)));
    else flush();
  }
  flush();
  return words;
}

std::vector<std::string> SearchTerms(const std::string& text) {
  std::vector<std::string> terms;
  for (std::string& w : Words(text, 2)) {
    if (terms.size() >= kMaxSearchTerms) break;
    if (std::find(terms.begin(), terms.end(), w) == terms.end()) terms.push_back(std::move(w));
  }
  return terms;
}

// A tsquery lexeme: quoted, for any bytes.
std::string Lexeme(const std::string& w) {
  std::string out = "'";
  for (char c : w) out += c == '\'' ? std::string("''") : c == '\\' ? std::string("\\\\") : std::string(1, c);
  return out + "'";
}

class PgDb;

class PgStmt final : public SqlStmt {
 public:
  PgStmt(PgDb* db, std::string name, int nparams) : db_(db), name_(std::move(name)), params_(nparams) {}
  ~PgStmt() override { Clear(); }
  void BindInt(int i, int64_t v) override { Set(i, std::to_string(v), false); }
  void BindDouble(int i, double v) override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    Set(i, buf, false);
  }
  void BindText(int i, std::string_view v) override { Set(i, ValidText(v), false); }
  void BindBlob(int i, std::string_view v) override { Set(i, std::string(v), true); }
  void BindNull(int i) override {
    if (i >= 1 && static_cast<size_t>(i) <= params_.size()) params_[i - 1] = Param{};
  }
  Result<bool> Step() override;
  bool IsNull(int col) override { return PQgetisnull(res_, row_, col); }
  int64_t Int(int col) override;
  double Double(int col) override;
  std::string_view View(int col) override {
    if (PQgetisnull(res_, row_, col)) return {};
    return std::string_view(PQgetvalue(res_, row_, col), static_cast<size_t>(PQgetlength(res_, row_, col)));
  }
  void Reset() override {
    Clear();
    for (Param& p : params_) p = Param{};
  }

 private:
  struct Param {
    bool set = false, binary = false;
    std::string value;
  };
  void Set(int i, std::string v, bool binary) {
    if (i >= 1 && static_cast<size_t>(i) <= params_.size()) params_[i - 1] = Param{true, binary, std::move(v)};
  }
  void Clear() {
    if (res_) PQclear(res_);
    res_ = nullptr;
    row_ = -1;
    started_ = false;
  }
  PgDb* db_;
  std::string name_;
  std::vector<Param> params_;
  PGresult* res_ = nullptr;
  int row_ = -1;
  bool started_ = false;
};

class PgDb final : public SqlDb {
 public:
  PgDb(PGconn* conn, std::string name) : conn_(conn), name_(std::move(name)) {}
  ~PgDb() override {
    stmts_.clear();
    PQfinish(conn_);
  }
  Result<SqlStmt*> Prepare(const char* sql) override {
    auto it = stmts_.find(sql);
    if (it != stmts_.end()) return static_cast<SqlStmt*>(it->second.get());
    auto stmt = PrepareText(sql);
    if (!stmt.ok()) return stmt.status();
    SqlStmt* raw = stmt->get();
    stmts_.emplace(sql, std::move(stmt).value());
    return raw;
  }
  // A statement for SQL built at run time (not cached).
  Result<std::unique_ptr<PgStmt>> PrepareText(const std::string& sql) {
    std::string name = "s" + std::to_string(++counter_);
    PGresult* r = PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr);
    Status st = Check(r, PGRES_COMMAND_OK, "prepare a statement");
    PQclear(r);
    if (!st.ok()) return st;
    PGresult* d = PQdescribePrepared(conn_, name.c_str());
    int nparams = d ? PQnparams(d) : 0;
    PQclear(d);
    return std::make_unique<PgStmt>(this, name, nparams);
  }
  Status Exec(const char* sql, std::string_view what) override {
    PGresult* r = PQexec(conn_, sql);
    ExecStatusType t = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    Status st = t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK ? Status::Ok() : Error(r, what);
    PQclear(r);
    return st;
  }
  bool InTransaction() override { return PQtransactionStatus(conn_) != PQTRANS_IDLE; }
  Status BeginWrite() override { return Exec("BEGIN;", "begin a transaction"); }
  const std::string& name() const override { return name_; }

  Status Check(PGresult* r, ExecStatusType want, std::string_view what) {
    if (r && PQresultStatus(r) == want) return Status::Ok();
    return Error(r, what);
  }
  Status Error(PGresult* r, std::string_view what) {
    std::string msg = r ? PQresultErrorMessage(r) : PQerrorMessage(conn_);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    std::string code = state ? state : "";
    std::string text = name_ + ": " + std::string(what) + ": " + msg;
    if (PQstatus(conn_) != CONNECTION_OK) return Status::IoError(name_ + ": the connection to the server was lost (" + msg + ")");
    if (code.rfind("23", 0) == 0) return Status::InvalidArgument(text);                      // integrity
    if (code == "40P01" || code == "40001" || code.rfind("53", 0) == 0 || code.rfind("08", 0) == 0 ||
        code == "42501" || code == "25006")
      return Status::IoError(text);  // deadlock, serialization, resources, connection, permission, read-only
    return Status::Internal(text);
  }
  PGconn* conn() const { return conn_; }

 private:
  PGconn* conn_;
  std::string name_;
  std::map<const char*, std::unique_ptr<PgStmt>> stmts_;
  int counter_ = 0;
};

Result<bool> PgStmt::Step() {
  if (!started_) {
    started_ = true;
    std::vector<const char*> values(params_.size());
    std::vector<int> lengths(params_.size()), formats(params_.size());
    for (size_t i = 0; i < params_.size(); ++i) {
      values[i] = params_[i].set ? params_[i].value.data() : nullptr;
      lengths[i] = static_cast<int>(params_[i].value.size());
      formats[i] = params_[i].binary ? 1 : 0;
    }
    res_ = PQexecPrepared(db_->conn(), name_.c_str(), static_cast<int>(params_.size()), values.data(), lengths.data(),
                          formats.data(), /*resultFormat=*/1);
    ExecStatusType t = res_ ? PQresultStatus(res_) : PGRES_FATAL_ERROR;
    if (t != PGRES_TUPLES_OK && t != PGRES_COMMAND_OK) return db_->Error(res_, "run a statement");
    row_ = -1;
  }
  if (!res_) return false;
  ++row_;
  return row_ < PQntuples(res_);
}

int64_t PgStmt::Int(int col) {
  if (PQgetisnull(res_, row_, col)) return 0;
  const char* v = PQgetvalue(res_, row_, col);
  switch (PQftype(res_, col)) {
    case kInt8Oid: {
      uint64_t x;
      std::memcpy(&x, v, 8);
      return static_cast<int64_t>(be64toh(x));
    }
    case kInt4Oid: {
      uint32_t x;
      std::memcpy(&x, v, 4);
      return static_cast<int32_t>(ntohl(x));
    }
    case kInt2Oid: {
      uint16_t x;
      std::memcpy(&x, v, 2);
      return static_cast<int16_t>(ntohs(x));
    }
    case kBoolOid: return v[0] ? 1 : 0;
    default: return static_cast<int64_t>(Double(col));
  }
}

double PgStmt::Double(int col) {
  if (PQgetisnull(res_, row_, col)) return 0;
  const char* v = PQgetvalue(res_, row_, col);
  switch (PQftype(res_, col)) {
    case kFloat8Oid: {
      uint64_t x;
      std::memcpy(&x, v, 8);
      x = be64toh(x);
      double d;
      std::memcpy(&d, &x, 8);
      return d;
    }
    case kFloat4Oid: {
      uint32_t x;
      std::memcpy(&x, v, 4);
      x = ntohl(x);
      float f;
      std::memcpy(&f, &x, 4);
      return f;
    }
    case kInt8Oid:
    case kInt4Oid:
    case kInt2Oid:
    case kBoolOid: return static_cast<double>(Int(col));
    default: return 0;
  }
}

// "postgresql://user:secret@host/db" -> "postgresql://user@host/db", for messages.
std::string WithoutPassword(const std::string& url) {
  size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  size_t at = url.find('@', scheme + 3);
  size_t slash = url.find('/', scheme + 3);
  if (at == std::string::npos || (slash != std::string::npos && at > slash)) return url;
  size_t colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon) + url.substr(at);
}

void IgnoreNotice(void*, const char*) {}

class PgCatalogStore final : public SqlCatalog {
 public:
  explicit PgCatalogStore(std::unique_ptr<PgDb> db) : SqlCatalog(db.get()), db_(std::move(db)) {}
  Status Init(bool create);
  Result<std::vector<TextHit>> FullTextSearch(const std::string& text, int limit) override;
  Result<std::vector<RecordHit>> SearchRecords(const RecordQuery& query) override;

 protected:
  Status IndexEntriesAfter(int64_t) override { return Status::Ok(); }
  Status UnindexEntry(int64_t) override { return Status::Ok(); }  // the index is a column of the row
  bool IndexesInBulk() const override { return false; }
  Result<int64_t> StorageBytes() override;
  Status Compact() override { return Status::Ok(); }  // autovacuum gives the space back
  Status AfterEntryInsert(int64_t entry_id, const EntryFields& e) override;
  Status LockScanKey(const ScanInfo& info) override;

 private:
  Result<double> Idf(const std::string& term, double total);
  std::unique_ptr<PgDb> db_;
};

Status PgCatalogStore::Init(bool create) {
  PQsetNoticeProcessor(db_->conn(), IgnoreNotice, nullptr);
  // Unprepared each time: a prepared statement's cached plan would keep
  // answering what the catalog looked like when it was planned.
  auto exists = [&]() -> Result<bool> {
    PGresult* r = PQexecParams(db_->conn(), "SELECT to_regclass('meta') IS NOT NULL", 0, nullptr, nullptr, nullptr,
                               nullptr, 0);
    Status st = db_->Check(r, PGRES_TUPLES_OK, "open the catalog");
    bool yes = st.ok() && PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (!st.ok()) return st;
    return yes;
  };
  auto have = exists();
  if (!have.ok()) return have.status();
  if (!*have) {
    if (!create) return Status::NotFound(db_->name() + ": no errdex catalog in this database");
    // Another client may be creating it now: one at a time, then look again --
    // in a transaction begun after the lock was granted (a transaction's start
    // is when a server process learns of tables others created; inside one
    // begun earlier it would still not see the catalog it waited for).
    if (Status st = db().Exec("SELECT pg_advisory_lock(7265726465780001);", "create the catalog"); !st.ok()) return st;
    struct Unlock {
      PgDb* db;
      ~Unlock() { (void)db->Exec("SELECT pg_advisory_unlock(7265726465780001);", "create the catalog"); }
    } unlock{db_.get()};
    WriteTxn txn(db());
    if (Status st = txn.Begin(); !st.ok()) return st;
    auto again = exists();
    if (!again.ok()) return again.status();
    if (!*again) {
      if (Status st = db().Exec(kCreateSchema, "create the catalog"); !st.ok()) return st;
      if (Status st = SetMeta("application", kApplication); !st.ok()) return st;
      if (Status st = SetMeta("schema_version", std::to_string(kSchemaVersion)); !st.ok()) return st;
      if (Status st = SetMeta("content_version", "0"); !st.ok()) return st;
      if (Status st = SetMeta("fts", "tsvector"); !st.ok()) return st;
    }
    if (Status st = txn.Commit(); !st.ok()) return st;
  }
  auto app = GetMeta("application");
  if (!app.ok()) return app.status();
  if (!app->has_value() || **app != kApplication) return Status::InvalidArgument(db_->name() + ": not an errdex catalog");
  auto version = GetMeta("schema_version");
  if (!version.ok()) return version.status();
  int v = version->has_value() ? std::atoi((*version)->c_str()) : 0;
  if (v > kSchemaVersion)
    return Status::InvalidArgument(db_->name() + ": the catalog has schema version " + std::to_string(v) +
                                   ", newer than this errdex understands (" + std::to_string(kSchemaVersion) +
                                   "); use a newer errdex");
  if (v != kSchemaVersion)
    return Status::InvalidArgument(db_->name() + ": unknown catalog schema version " + std::to_string(v));
  return Status::Ok();
}

Status PgCatalogStore::AfterEntryInsert(int64_t entry_id, const EntryFields& e) {
  std::string text = e.error_message.value_or("") + " " + e.error_class.value_or("") + " " + e.slug.value_or("");
  std::string words;
  for (const std::string& w : Words(ValidText(text), 1)) words += (words.empty() ? "" : " ") + w;
  Query q(db(), "UPDATE entries SET words = $2 WHERE entry_id = $1");
  if (!q.ok()) return q.status();
  q->BindInt(1, entry_id);
  q->BindText(2, words);
  return q->Run();
}

Status PgCatalogStore::LockScanKey(const ScanInfo& info) {
  Query q(db(), "SELECT pg_advisory_xact_lock(hashtextextended($1, 7265))");
  if (!q.ok()) return q.status();
  q->BindText(1, info.repo + "\n" + info.sha + "\n" + info.location);
  return q->Run();
}

Result<int64_t> PgCatalogStore::StorageBytes() {
  Query q(db(), "SELECT pg_database_size(current_database())");
  if (!q.ok()) return q.status();
  auto row = q->Step();
  if (!row.ok()) return row.status();
  return *row ? q->Int(0) : int64_t{0};
}

// BM25's idf of a word over the entries: rarer words weigh more.
Result<double> PgCatalogStore::Idf(const std::string& term, double total) {
  Query q(db(), "SELECT count(*) FROM entries WHERE tsv @@ to_tsquery('simple', $1)");
  if (!q.ok()) return q.status();
  q->BindText(1, Lexeme(term));
  auto row = q->Step();
  if (!row.ok()) return row.status();
  double df = *row ? static_cast<double>(q->Int(0)) : 0;
  return std::log((total - df + 0.5) / (df + 0.5) + 1.0);
}

// The newest scan holding an entry (its tree rows through the entry's units).
#define ERRDEX_NEWEST_SCAN_OF(entry)                                                                   \
  "(SELECT t.scan_id FROM unit_entries ue JOIN tree t ON t.unit_id = ue.unit_id JOIN scans s ON "     \
  "s.scan_id = t.scan_id WHERE ue.entry_id = " entry " ORDER BY s.dataset_version DESC, s.scan_id DESC LIMIT 1)"

Result<std::vector<CatalogStore::TextHit>> PgCatalogStore::FullTextSearch(const std::string& text, int limit) {
  std::vector<std::string> terms = SearchTerms(text);
  if (terms.empty() || limit <= 0) return std::vector<TextHit>();
  double total = 0;
  {
    Query q(db(), "SELECT count(*) FROM entries");
    if (!q.ok()) return q.status();
    auto row = q->Step();
    if (!row.ok()) return row.status();
    total = *row ? static_cast<double>(q->Int(0)) : 0;
  }
  // score = the idf of each query word the entry holds; ties: shorter texts, then older entries.
  std::string any, score;
  std::vector<double> idf;
  for (size_t i = 0; i < terms.size(); ++i) {
    auto w = Idf(terms[i], total);
    if (!w.ok()) return w.status();
    idf.push_back(*w);
    any += (i ? " | " : "") + Lexeme(terms[i]);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", *w);
    score += std::string(i ? " + " : "") + "(CASE WHEN e.tsv @@ to_tsquery('simple', $" + std::to_string(i + 3) +
             ") THEN " + buf + " ELSE 0 END)";
  }
  std::string sql =
      "SELECT scan_id, record_id, score FROM (SELECT " ERRDEX_NEWEST_SCAN_OF("f.entry_id") " AS scan_id, "
      "f.record_id, f.score, f.nwords, f.entry_id FROM (SELECT e.entry_id, e.record_id, e.nwords, " +
      score +
      " AS score FROM entries e WHERE e.tsv @@ to_tsquery('simple', $1) ORDER BY score DESC, e.nwords, e.entry_id "
      "LIMIT $2) f) g WHERE scan_id IS NOT NULL ORDER BY score DESC, nwords, entry_id";
  auto stmt = db_->PrepareText(sql);
  if (!stmt.ok()) return stmt.status();
  PgStmt& s = **stmt;
  s.BindText(1, any);
  s.BindInt(2, limit);
  for (size_t i = 0; i < terms.size(); ++i) s.BindText(static_cast<int>(i + 3), Lexeme(terms[i]));
  std::vector<TextHit> hits;
  for (;;) {
    auto row = s.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    hits.push_back(TextHit{s.Int(0), s.Text(1), s.Double(2)});
  }
  return hits;
}

Result<std::vector<CatalogStore::RecordHit>> PgCatalogStore::SearchRecords(const RecordQuery& q) {
  std::vector<RecordHit> hits;
  if (q.limit <= 0) return hits;
  std::vector<std::string> terms = SearchTerms(q.text);
  if (!q.text.empty() && terms.empty()) return hits;  // only punctuation: nothing can match
  // All words, the last one may be a prefix (a word still being typed). Every
  // hit holds every word: shorter texts first (FTS5's bm25 does the same).
  std::string all;
  for (size_t i = 0; i < terms.size(); ++i) all += (i ? " & " : "") + Lexeme(terms[i]) + (i + 1 == terms.size() ? ":*" : "");
  const bool text = !terms.empty();
  Query s(db(), text ? "SELECT record_id, scan_id, rank FROM ("
                       " SELECT e.record_id, t.scan_id, CAST(e.nwords AS DOUBLE PRECISION) / 1000.0 - 1.0 AS rank,"
                       "  row_number() OVER (PARTITION BY e.record_id ORDER BY e.nwords, s.dataset_version DESC, "
                       "t.scan_id DESC) AS n"
                       " FROM entries e JOIN unit_entries ue ON ue.entry_id = e.entry_id JOIN tree t ON t.unit_id = "
                       "ue.unit_id JOIN scans s ON s.scan_id = t.scan_id"
                       " WHERE e.tsv @@ to_tsquery('simple', $1) AND ($2 = '' OR s.repo = $2) AND ($3 = '' OR "
                       "e.error_class = $3) AND ($4 = '' OR e.severity = $4) AND ($5 = '' OR strpos(e.tags, chr(10) || "
                       "$5 || chr(10)) > 0)) x "
                       "WHERE n = 1 AND ($6 = 0 OR rank > $7 OR (rank = $7 AND record_id > $8)) "
                       "ORDER BY rank, record_id LIMIT $9"
                     : "SELECT record_id, scan_id, CAST(0 AS DOUBLE PRECISION) FROM ("
                       " SELECT e.record_id, t.scan_id, row_number() OVER (PARTITION BY e.record_id ORDER BY "
                       "s.dataset_version DESC, t.scan_id DESC) AS n"
                       " FROM entries e JOIN unit_entries ue ON ue.entry_id = e.entry_id JOIN tree t ON t.unit_id = "
                       "ue.unit_id JOIN scans s ON s.scan_id = t.scan_id"
                       " WHERE CAST($1 AS TEXT) IS NOT NULL AND ($2 = '' OR s.repo = $2) AND ($3 = '' OR e.error_class = $3) AND "
                       "($4 = '' OR e.severity = $4) AND ($5 = '' OR strpos(e.tags, chr(10) || $5 || chr(10)) > 0)) x "
                       "WHERE n = 1 AND ($6 = 0 OR record_id > $8) AND CAST($7 AS DOUBLE PRECISION) IS NOT NULL "
                       "ORDER BY record_id LIMIT $9");
  if (!s.ok()) return s.status();
  s->BindText(1, all);
  s->BindText(2, q.repo);
  s->BindText(3, q.error_class);
  s->BindText(4, q.severity);
  s->BindText(5, q.tag);
  s->BindInt(6, q.has_cursor ? 1 : 0);
  s->BindDouble(7, q.cursor_rank);
  s->BindText(8, q.cursor_record_id);
  s->BindInt(9, q.limit);
  for (;;) {
    auto row = s->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    hits.push_back(RecordHit{s->Int(1), s->Text(0), s->Double(2)});
  }
  return hits;
}

}  // namespace

Result<std::unique_ptr<CatalogStore>> OpenPostgresStore(const std::string& url, bool create) {
  PGconn* conn = PQconnectdb(url.c_str());
  std::string name = WithoutPassword(url);
  if (!conn || PQstatus(conn) != CONNECTION_OK) {
    std::string msg = conn ? PQerrorMessage(conn) : "out of memory";
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    if (conn) PQfinish(conn);
    return Status::IoError(name + ": cannot connect: " + msg);
  }
  auto store = std::make_unique<PgCatalogStore>(std::make_unique<PgDb>(conn, name));
  if (Status st = store->Init(create); !st.ok()) return st;
  return std::unique_ptr<CatalogStore>(std::move(store));
}

}  // namespace errdex::store
