// Tests of the SQLite CatalogStore on real files in a temporary directory.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <set>

#include "store/catalog_store.h"
#include "store/import.h"
#include "store/store_test_util.h"

namespace errdex {
namespace {

using testing_util::MakeLine;
using testing_util::ReadFile;
using testing_util::TempDir;
using testing_util::WriteFile;

std::unique_ptr<CatalogStore> OpenOrDie(const std::string& path, bool create = true) {
  auto s = CatalogStore::Open(path, create);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  if (!s.ok()) return nullptr;
  return std::move(s.value());
}

std::vector<CatalogLine> Lines(const std::string& repo, const std::string& sha, int n, const std::string& word,
                               const std::string& dataset_version = "2026-01-01T00:00:00.000Z") {
  std::vector<CatalogLine> out;
  for (int i = 0; i < n; ++i)
    out.push_back(MakeLine(repo, sha, i, word + " failure number " + std::to_string(i), "ValueError", dataset_version));
  return out;
}

ScanInfo Info(const std::string& repo, const std::string& sha, const std::string& dv = "2026-01-01T00:00:00.000Z") {
  ScanInfo info;
  info.repo = repo;
  info.sha = sha;
  info.dataset_version = dv;
  info.source = "test";
  info.files = 1;
  return info;
}

std::vector<std::string> Json(const std::vector<StoredLine>& lines) {
  std::vector<std::string> out;
  for (const StoredLine& l : lines) out.push_back(CatalogLineToJson(l.line));
  return out;
}
std::vector<std::string> Json(const std::vector<CatalogLine>& lines) {
  std::vector<std::string> out;
  for (const CatalogLine& l : lines) out.push_back(CatalogLineToJson(l));
  return out;
}

// Runs SQL on the catalog file directly (to fake other versions, other files).
void RawExec(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

TEST(CatalogStore, CreatesStoresAndReopens) {
  TempDir dir;
  std::string path = dir.File("c.db");
  auto lines = Lines("o/r", "aaaa1111", 5, "alpha");
  lines[2].facts = Site{};
  lines[2].facts->file_path = "pkg/mod.py";
  lines[2].facts->line = 22;
  lines[2].facts->error_class = "ValueError";
  {
    auto store = OpenOrDie(path);
    ASSERT_TRUE(store);
    auto id = store->PutScan(Info("o/r", "aaaa1111"), lines);
    ASSERT_TRUE(id.ok()) << id.status().ToString();
    EXPECT_GT(*id, 0);
  }
  auto store = OpenOrDie(path, /*create=*/false);
  ASSERT_TRUE(store);
  auto scans = store->ListScans();
  ASSERT_TRUE(scans.ok());
  ASSERT_EQ(scans->size(), 1u);
  EXPECT_EQ((*scans)[0].repo, "o/r");
  EXPECT_EQ((*scans)[0].sha, "aaaa1111");
  EXPECT_EQ((*scans)[0].sites, 5);
  EXPECT_EQ((*scans)[0].source, "test");
  auto loaded = store->LoadLines({});
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(Json(*loaded), Json(lines));  // order, facts and every field kept
  ASSERT_TRUE((*loaded)[2].line.facts.has_value());
  EXPECT_FALSE((*loaded)[1].line.facts.has_value());
}

TEST(CatalogStore, MissingFileWithoutCreateIsNotFound) {
  TempDir dir;
  auto s = CatalogStore::Open(dir.File("nope.db"), false);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(dir.File("nope.db")));
}

TEST(CatalogStore, TextFileIsNotACatalog) {
  TempDir dir;
  std::string path = dir.File("notes.db");
  WriteFile(path, std::string("this is a text file, not a database at all; ") + std::string(5000, 'x'));
  for (bool create : {false, true}) {
    auto s = CatalogStore::Open(path, create);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(s.status().message().find("not an errdex catalog"), std::string::npos) << s.status().message();
  }
  EXPECT_EQ(ReadFile(path).substr(0, 9), "this is a");  // untouched
}

TEST(CatalogStore, OtherSqliteDatabaseIsNotACatalog) {
  TempDir dir;
  std::string path = dir.File("other.db");
  RawExec(path, "CREATE TABLE people(name TEXT); INSERT INTO people VALUES ('x');");
  auto s = CatalogStore::Open(path, true);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.status().message().find("not an errdex catalog"), std::string::npos);
}

TEST(CatalogStore, EmptyFileIsCreatedOnlyWithCreate) {
  TempDir dir;
  std::string path = dir.File("empty.db");
  WriteFile(path, "");
  auto no = CatalogStore::Open(path, false);
  ASSERT_FALSE(no.ok());
  EXPECT_EQ(no.status().code(), Status::Code::kInvalidArgument);
  auto yes = CatalogStore::Open(path, true);
  ASSERT_TRUE(yes.ok()) << yes.status().ToString();
  EXPECT_TRUE((*yes)->ListScans().ok());
}

TEST(CatalogStore, NewerSchemaVersionIsRefusedClearly) {
  TempDir dir;
  std::string path = dir.File("c.db");
  { ASSERT_TRUE(OpenOrDie(path)); }
  RawExec(path, "UPDATE meta SET value = '99' WHERE key = 'schema_version';");
  auto s = CatalogStore::Open(path, false);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.status().message().find("schema version 99"), std::string::npos) << s.status().message();
  EXPECT_NE(s.status().message().find("newer"), std::string::npos);
}

TEST(CatalogStore, CorruptCatalogFailsWithoutCrashing) {
  TempDir dir;
  std::string path = dir.File("c.db");
  {
    auto store = OpenOrDie(path);
    ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 400, "gamma")).ok());
  }
  std::string bytes = ReadFile(path);
  ASSERT_GT(bytes.size(), 3 * 4096u);
  for (size_t i = 4096; i + 4096 < bytes.size(); ++i) bytes[i] = static_cast<char>(0xA5 ^ (i * 7));
  WriteFile(path, bytes);
  auto s = CatalogStore::Open(path, false);
  if (!s.ok()) {
    SUCCEED() << s.status().ToString();
    return;
  }
  auto lines = (*s)->LoadLines({});
  ASSERT_FALSE(lines.ok());
  EXPECT_NE(lines.status().message().find("corrupt"), std::string::npos) << lines.status().message();
}

TEST(CatalogStore, ReplaceSwapsTheWholeScan) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  auto first = store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 10, "oldword"));
  ASSERT_TRUE(first.ok());
  auto second = store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 3, "newword"));
  ASSERT_TRUE(second.ok());
  EXPECT_GT(*second, *first);
  auto scans = store->ListScans();
  ASSERT_EQ(scans->size(), 1u);
  EXPECT_EQ((*scans)[0].scan_id, *second);
  EXPECT_EQ((*scans)[0].sites, 3);
  auto lines = store->LoadLines({});
  ASSERT_EQ(lines->size(), 3u);
  for (const StoredLine& l : *lines) EXPECT_EQ(l.scan_id, *second);
  EXPECT_TRUE(store->FullTextSearch("oldword", 10)->empty());  // the index followed
  EXPECT_EQ(store->FullTextSearch("newword", 10)->size(), 3u);
}

TEST(CatalogStore, FailedReplaceLeavesTheOldScanIntact) {
  TempDir dir;
  std::string path = dir.File("c.db");
  auto store = OpenOrDie(path);
  auto old_lines = Lines("o/r", "s1", 100, "original");
  ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), old_lines).ok());
  auto version = store->ContentVersion();
  auto scans_before = store->ListScans();

  // Line 40 repeats line 10's id: the insert fails after the old lines were deleted
  // and 40 new ones inserted inside the transaction.
  auto bad = Lines("o/r", "s1", 50, "replacement");
  bad[40].record.id = bad[10].record.id;
  auto put = store->PutScan(Info("o/r", "s1"), bad);
  ASSERT_FALSE(put.ok());
  EXPECT_EQ(put.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(put.status().message().find(bad[10].record.id), std::string::npos) << put.status().message();

  EXPECT_EQ(store->ContentVersion().value(), *version);
  auto scans_after = store->ListScans();
  ASSERT_EQ(scans_after->size(), 1u);
  EXPECT_EQ((*scans_after)[0].scan_id, (*scans_before)[0].scan_id);
  EXPECT_EQ(Json(store->LoadLines({}).value()), Json(old_lines));
  EXPECT_EQ(store->FullTextSearch("original", 200)->size(), 100u);
  EXPECT_TRUE(store->FullTextSearch("replacement", 10)->empty());

  // A second connection (another process would be the same) sees the old scan too,
  // and the store is still usable afterwards.
  auto other = OpenOrDie(path, false);
  EXPECT_EQ(Json(other->LoadLines({}).value()), Json(old_lines));
  ASSERT_TRUE(store->PutScan(Info("o/r", "s2"), Lines("o/r", "s2", 2, "later")).ok());
  EXPECT_EQ(other->ListScans()->size(), 2u);
}

// A scan and the blob written with it (the scanner's knowledge blob) land together
// or not at all: a failure after PutScan rolls the scan back too.
TEST(CatalogStore, InTransactionIsAllOrNothing) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  auto version = store->ContentVersion();
  Status failed = store->InTransaction([&]() -> Status {
    EXPECT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 5, "inside")).ok());
    EXPECT_TRUE(store->PutBlob("knowledge:o/r@s1", "bytes").ok());
    return Status::IoError("disk full (simulated)");
  });
  EXPECT_EQ(failed.code(), Status::Code::kIoError);
  EXPECT_TRUE(store->ListScans()->empty());
  EXPECT_FALSE(store->GetBlob("knowledge:o/r@s1")->has_value());
  EXPECT_EQ(store->ContentVersion().value(), *version);
  EXPECT_TRUE(store->FullTextSearch("inside", 10)->empty());
  // The same body succeeding leaves both.
  ASSERT_TRUE(store
                  ->InTransaction([&]() -> Status {
                    auto id = store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 5, "inside"));
                    if (!id.ok()) return id.status();
                    return store->PutBlob("knowledge:o/r@s1", "bytes");
                  })
                  .ok());
  EXPECT_EQ(store->ListScans()->size(), 1u);
  EXPECT_EQ(store->GetBlob("knowledge:o/r@s1")->value(), "bytes");
}

// Found by fuzz_jsonl_import: a write rolled back after its lines were read
// (which cached its units by id), then a different write in the same process.
// SQLite hands the freed unit ids out again; the cache must not answer for them
// with the rolled-back units.
TEST(CatalogStore, ARolledBackWriteLeavesNothingCachedUnderItsIds) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  Status failed = store->InTransaction([&]() -> Status {
    EXPECT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 3, "rolledback")).ok());
    auto lines = store->LoadLines({});  // caches the units just written
    EXPECT_EQ(lines->size(), 3u);
    return Status::Internal("roll back");
  });
  ASSERT_EQ(failed.code(), Status::Code::kInternal);
  ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 3, "committed")).ok());
  auto lines = store->LoadLines({});
  ASSERT_TRUE(lines.ok());
  ASSERT_EQ(lines->size(), 3u);
  for (const StoredLine& l : *lines)
    EXPECT_NE(l.line.record.error_message->find("committed"), std::string::npos) << *l.line.record.error_message;
  // Savepoints too: an inner write that fails inside an outer one that commits.
  ASSERT_TRUE(store
                  ->InTransaction([&]() -> Status {
                    Status inner = store->InTransaction([&]() -> Status {
                      EXPECT_TRUE(store->PutScan(Info("o/q", "s2"), Lines("o/q", "s2", 2, "inner")).ok());
                      EXPECT_EQ(store->LoadLines({})->size(), 5u);
                      return Status::Internal("roll back the savepoint");
                    });
                    EXPECT_FALSE(inner.ok());
                    auto id = store->PutScan(Info("o/q", "s2"), Lines("o/q", "s2", 2, "outer"));
                    return id.ok() ? Status::Ok() : id.status();
                  })
                  .ok());
  lines = store->LoadLines({});
  ASSERT_EQ(lines->size(), 5u);
  for (const StoredLine& l : *lines)
    EXPECT_EQ(l.line.record.error_message->find("inner"), std::string::npos) << *l.line.record.error_message;
}

TEST(CatalogStore, PutScansIsAllOrNothing) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  ASSERT_TRUE(store->PutScan(Info("o/a", "s1"), Lines("o/a", "s1", 4, "kept")).ok());
  std::vector<ScanBatch> batches(2);
  batches[0].info = Info("o/a", "s1");
  batches[0].lines = Lines("o/a", "s1", 2, "first");
  batches[1].info = Info("o/b", "s9");
  batches[1].lines = Lines("o/b", "s9", 3, "second");
  batches[1].lines[2].record.id = batches[1].lines[0].record.id;
  auto put = PutScans(*store, batches);
  ASSERT_FALSE(put.ok());
  auto lines = store->LoadLines({});
  ASSERT_EQ(lines->size(), 4u);  // the first batch's additions were rolled back too
  EXPECT_NE(lines->front().line.record.error_message->find("kept"), std::string::npos);

  batches[1].lines.pop_back();
  put = PutScans(*store, batches);
  ASSERT_TRUE(put.ok()) << put.status().ToString();
  ASSERT_EQ(put->size(), 2u);
  EXPECT_EQ(store->LoadLines({})->size(), 8u);  // 4 kept + 2 added, and 2 in a new scan
  EXPECT_EQ(store->ListScans()->size(), 2u);
}

// An import adds and updates by record id and never removes a line (H6).
TEST(CatalogStore, AddLinesUpdatesByIdAndNeverDeletes) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  auto scanned = Lines("o/r", "s1", 10, "scanned");
  auto first = store->PutScan(Info("o/r", "s1"), scanned);
  ASSERT_TRUE(first.ok());
  std::vector<CatalogLine> add;
  add.push_back(scanned[3]);
  add.back().record.error_message = "reworded by hand";
  add.back().record.slug = MakeSlug("reworded by hand");
  add.push_back(MakeLine("o/r", "s1", 99, "brand new"));
  auto id = store->AddLines(Info("o/r", "s1", "2026-03-01T00:00:00.000Z"), add);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(*id, *first);
  auto lines = store->LoadLines({});
  ASSERT_EQ(lines->size(), 11u);
  std::vector<CatalogLine> expected = scanned;
  expected[3] = add[0];
  expected.push_back(add[1]);
  std::vector<std::string> got = Json(*lines);
  EXPECT_EQ(got, Json(expected));  // updated in place, the new one appended
  auto scans = store->ListScans();
  ASSERT_EQ(scans->size(), 1u);
  EXPECT_EQ((*scans)[0].sites, 11);
  EXPECT_EQ((*scans)[0].dataset_version, "2026-03-01T00:00:00.000Z");
  // The index followed the update.
  EXPECT_EQ(store->FullTextSearch("reworded", 5)->size(), 1u);
  EXPECT_EQ(store->FullTextSearch("brand", 5)->size(), 1u);
  EXPECT_EQ(store->FullTextSearch("scanned", 50)->size(), 9u);
  // Into a scan that does not exist yet: it is created.
  auto other = store->AddLines(Info("o/q", "s2"), Lines("o/q", "s2", 2, "elsewhere"));
  ASSERT_TRUE(other.ok());
  EXPECT_NE(*other, *first);
  EXPECT_EQ(store->LoadLines({"o/q", "", false})->size(), 2u);
}

// Scans without a commit are keyed by what was scanned (H5): two directories
// keep two scans; the same directory replaces its own.
TEST(CatalogStore, LocationIsPartOfTheKey) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  ScanInfo a = Info("", ""), b = Info("", "");
  a.location = "/src/a";
  b.location = "/src/b";
  ASSERT_TRUE(store->PutScan(a, Lines("", "", 2, "alpha")).ok());
  ASSERT_TRUE(store->PutScan(b, Lines("", "", 3, "beta")).ok());
  EXPECT_EQ(store->LoadLines({})->size(), 5u);
  ASSERT_TRUE(store->PutScan(a, Lines("", "", 1, "again")).ok());
  EXPECT_EQ(store->LoadLines({})->size(), 4u);
  auto scans = store->ListScans();
  ASSERT_EQ(scans->size(), 2u);
  EXPECT_EQ((*scans)[0].location, "/src/b");
  EXPECT_EQ((*scans)[1].location, "/src/a");
}

// A catalog of schema version 1 (scans keyed by repo and sha) is upgraded in place
// when opened, its lines kept.
TEST(CatalogStore, UpgradesSchemaVersion1) {
  TempDir dir;
  std::string path = dir.File("v1.db");
  RawExec(path,
          "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
          "CREATE TABLE scans(scan_id INTEGER PRIMARY KEY AUTOINCREMENT, repo TEXT NOT NULL, sha TEXT NOT NULL, "
          "dataset_version TEXT NOT NULL, source TEXT NOT NULL, files INTEGER NOT NULL, sites INTEGER NOT NULL, "
          "created TEXT NOT NULL, UNIQUE(repo, sha));"
          "CREATE TABLE lines(line_id INTEGER PRIMARY KEY, scan_id INTEGER NOT NULL REFERENCES scans(scan_id) ON "
          "DELETE CASCADE, record_id TEXT NOT NULL, slug TEXT, file_path TEXT NOT NULL, line_number INTEGER NOT NULL, "
          "error_message TEXT, message_pattern TEXT, error_class TEXT, record_json TEXT NOT NULL, facts_json TEXT, "
          "dataset_version TEXT NOT NULL, UNIQUE(scan_id, record_id));"
          "CREATE INDEX lines_by_record_id ON lines(record_id); CREATE INDEX lines_by_slug ON lines(slug);"
          "CREATE TABLE blobs(key TEXT PRIMARY KEY, bytes BLOB NOT NULL, updated TEXT NOT NULL);"
          "CREATE TABLE cache(key TEXT PRIMARY KEY, value BLOB NOT NULL, updated TEXT NOT NULL);"
          "CREATE VIRTUAL TABLE lines_fts USING fts5(error_message, error_class, slug, content='lines', "
          "content_rowid='line_id');"
          "INSERT INTO meta VALUES ('application','errdex'),('schema_version','1'),('content_version','4'),"
          "('fts','fts5');"
          "INSERT INTO scans VALUES (7,'o/r','s1','2026-01-01T00:00:00.000Z','old',1,1,'2026-01-01T00:00:00.000Z');");
  CatalogLine line = MakeLine("o/r", "s1", 0, "kept across the upgrade");
  std::string json = RecordToJson(line.record);
  std::string quoted;
  for (char c : json) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  RawExec(path, "INSERT INTO lines VALUES (1, 7, '" + line.record.id + "', 'slug', 'pkg/mod.py', 20, "
                "'kept across the upgrade', 'p', 'ValueError', '" + quoted + "', NULL, '2026-01-01T00:00:00.000Z');"
                "INSERT INTO lines_fts(rowid, error_message, error_class, slug) VALUES (1, 'kept across the upgrade', "
                "'ValueError', 'slug');");
  auto store = OpenOrDie(path, /*create=*/false);
  ASSERT_TRUE(store);
  auto scans = store->ListScans();
  ASSERT_TRUE(scans.ok()) << scans.status().ToString();
  ASSERT_EQ(scans->size(), 1u);
  EXPECT_EQ((*scans)[0].scan_id, 7);
  EXPECT_EQ((*scans)[0].location, "");
  EXPECT_EQ(Json(store->LoadLines({}).value()), Json(std::vector<CatalogLine>{line}));
  EXPECT_EQ(store->FullTextSearch("upgrade", 5)->size(), 1u);
  // Still one key per (repo, sha): a scan of the same commit replaces it.
  ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 2, "fresh")).ok());
  EXPECT_EQ(store->LoadLines({})->size(), 2u);
}

// A catalog of schema version 2 (a JSON line per record per scan, FTS5 over the
// lines, the knowledge kept as a blob) is upgraded to units when opened: every
// line, its order, its facts and the blobs are kept, and search finds them.
TEST(CatalogStore, UpgradesSchemaVersion2ToUnits) {
  TempDir dir;
  std::string path = dir.File("v2.db");
  RawExec(path,
          "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
          "CREATE TABLE scans(scan_id INTEGER PRIMARY KEY AUTOINCREMENT, repo TEXT NOT NULL, sha TEXT NOT NULL, "
          "location TEXT NOT NULL DEFAULT '', dataset_version TEXT NOT NULL, source TEXT NOT NULL, "
          "files INTEGER NOT NULL, sites INTEGER NOT NULL, created TEXT NOT NULL, UNIQUE(repo, sha, location));"
          "CREATE TABLE lines(line_id INTEGER PRIMARY KEY, scan_id INTEGER NOT NULL REFERENCES scans(scan_id) ON "
          "DELETE CASCADE, record_id TEXT NOT NULL, slug TEXT, file_path TEXT NOT NULL, line_number INTEGER NOT NULL, "
          "error_message TEXT, message_pattern TEXT, error_class TEXT, record_json TEXT NOT NULL, facts_json TEXT, "
          "dataset_version TEXT NOT NULL, UNIQUE(scan_id, record_id));"
          "CREATE TABLE blobs(key TEXT PRIMARY KEY, bytes BLOB NOT NULL, updated TEXT NOT NULL);"
          "CREATE TABLE cache(key TEXT PRIMARY KEY, value BLOB NOT NULL, updated TEXT NOT NULL);"
          "CREATE VIRTUAL TABLE lines_fts USING fts5(error_message, error_class, slug, content='lines', "
          "content_rowid='line_id');"
          "INSERT INTO meta VALUES ('application','errdex'),('schema_version','2'),('content_version','9'),"
          "('fts','fts5');"
          "INSERT INTO scans VALUES (3,'o/r','s1','','2026-01-01T00:00:00.000Z','old',2,3,'2026-01-01T00:00:00.000Z'),"
          "(5,'o/r','s2','','2026-02-01T00:00:00.000Z','old',2,2,'2026-02-01T00:00:00.000Z');"
          "INSERT INTO blobs VALUES ('knowledge:o/r@s1', 'the knowledge', 'x');");
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
  };
  std::vector<CatalogLine> s1 = {MakeLine("o/r", "s1", 0, "upgraded first"), MakeLine("o/r", "s1", 1, "upgraded second"),
                                 MakeLine("o/r", "s1", 2, "upgraded third")};
  s1[2].record.file_path = "pkg/other.py";
  Site facts;
  facts.file_path = "pkg/mod.py";
  facts.guards = {"if a:"};
  s1[1].facts = facts;
  std::vector<CatalogLine> s2 = {MakeLine("o/r", "s2", 1, "upgraded second"), MakeLine("o/r", "s2", 5, "only in s2")};
  int line_id = 10;
  for (auto* scan : {&s1, &s2}) {
    int scan_id = scan == &s1 ? 3 : 5;
    // Inserted last to first: the upgrade keeps the lines' order (line_id).
    for (size_t i = scan->size(); i-- > 0;) {
      const CatalogLine& l = (*scan)[i];
      RawExec(path, "INSERT INTO lines VALUES (" + std::to_string(line_id + static_cast<int>(i)) + ", " +
                        std::to_string(scan_id) + ", '" + l.record.id + "', " + quote(*l.record.slug) + ", " +
                        quote(l.record.file_path) + ", 1, " + quote(*l.record.error_message) + ", 'p', 'ValueError', " +
                        quote(RecordToJson(l.record)) + ", " + (l.facts ? quote(SiteToJson(*l.facts)) : "NULL") +
                        ", " + quote(l.dataset_version) + ")");
    }
    line_id += 10;
  }
  auto store = OpenOrDie(path, /*create=*/false);
  ASSERT_TRUE(store);
  auto scans = store->ListScans();
  ASSERT_TRUE(scans.ok()) << scans.status().ToString();
  ASSERT_EQ(scans->size(), 2u);
  EXPECT_EQ((*scans)[0].scan_id, 3);
  EXPECT_EQ((*scans)[0].sites, 3);
  std::vector<CatalogLine> all = s1;
  all.insert(all.end(), s2.begin(), s2.end());
  EXPECT_EQ(Json(store->LoadLines({}).value()), Json(all));
  EXPECT_EQ(store->FindRecord(s1[1].record.id)->size(), 2u);
  // One hit per distinct record (s1's and s2's "upgraded second" are the same one).
  EXPECT_EQ(store->FullTextSearch("upgraded", 10)->size(), 3u);
  EXPECT_EQ(*store->GetBlob("knowledge:o/r@s1").value(), "the knowledge");
  EXPECT_EQ(store->ContentVersion().value(), "9");
  // The catalog goes on: a new scan of s1 replaces the upgraded one.
  ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 2, "fresh")).ok());
  EXPECT_EQ(store->LoadLines({"o/r", "s1", false})->size(), 2u);
}

// Opening to write checks the file (L12): damaged pages are reported, not
// written past. The check runs beside the work (a scan reads while it runs);
// the first write waits for it.
TEST(CatalogStore, OpeningToWriteReportsDamagedPages) {
  TempDir dir;
  std::string path = dir.File("c.db");
  {
    auto store = OpenOrDie(path);
    ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 400, "delta")).ok());
  }
  std::string bytes = ReadFile(path);
  ASSERT_GT(bytes.size(), 16 * 4096u);
  size_t page = bytes.size() / 4096 / 2 * 4096;
  for (size_t i = page; i < page + 4096; ++i) bytes[i] = static_cast<char>(0x3C ^ (i * 11));
  WriteFile(path, bytes);
  auto s = CatalogStore::Open(path, /*create=*/true);
  Status st = s.status();
  if (s.ok()) {
    st = (*s)->PutScan(Info("o/r", "s2"), Lines("o/r", "s2", 3, "after")).status();
    EXPECT_FALSE((*s)->PutBlob("b", "x").ok());  // and every later write too
  }
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::Code::kIoError);
  EXPECT_NE(st.message().find("corrupt"), std::string::npos) << st.message();
  s = Status::Internal("closed");
  EXPECT_EQ(ReadFile(path), bytes);
}

TEST(CatalogStore, ManyReposAndCommits) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  const std::string sha_a1 = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
  const std::string sha_a2 = "a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2";
  const std::string sha_b1 = "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1";
  // The same record (same id) in two commits of o/a, the newer one stored first.
  ASSERT_TRUE(store->PutScan(Info("o/a", sha_a2, "2026-02-01T00:00:00.000Z"),
                             Lines("o/a", sha_a2, 3, "shared", "2026-02-01T00:00:00.000Z")).ok());
  ASSERT_TRUE(store->PutScan(Info("o/a", sha_a1, "2026-01-01T00:00:00.000Z"),
                             Lines("o/a", sha_a1, 2, "shared", "2026-01-01T00:00:00.000Z")).ok());
  ASSERT_TRUE(store->PutScan(Info("o/b", sha_b1), Lines("o/b", sha_b1, 4, "bee")).ok());

  EXPECT_EQ(store->ListScans()->size(), 3u);
  EXPECT_EQ(store->LoadLines({})->size(), 9u);
  EXPECT_EQ(store->LoadLines({"o/a", "", false})->size(), 5u);
  EXPECT_EQ(store->LoadLines({"o/a", sha_a1, false})->size(), 2u);
  EXPECT_EQ(store->LoadLines({"", sha_b1.substr(0, 7), false})->size(), 4u);  // short sha
  EXPECT_EQ(store->LoadLines({"", "b1b", false})->size(), 0u);              // too short to be a prefix
  EXPECT_EQ(store->LoadLines({"o/c", "", false})->size(), 0u);
  // latest_only: per repo the most recently stored scan (o/a: sha_a1, stored last).
  auto latest = store->LoadLines({"", "", true});
  ASSERT_EQ(latest->size(), 6u);
  std::set<std::string> shas;
  for (const StoredLine& l : *latest) shas.insert(*l.line.record.analyzed_sha);
  EXPECT_EQ(shas, (std::set<std::string>{sha_a1, sha_b1}));

  // By id: both versions, newest (by dataset version) first.
  std::string id = MakeLine("o/a", sha_a1, 1, "shared failure number 1").record.id;
  auto found = store->FindRecord(id);
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found->size(), 2u);
  EXPECT_EQ(*(*found)[0].line.record.analyzed_sha, sha_a2);
  EXPECT_EQ(*(*found)[1].line.record.analyzed_sha, sha_a1);
  // By slug.
  auto by_slug = store->FindRecord(MakeSlug("bee failure number 3"));
  ASSERT_EQ(by_slug->size(), 1u);
  EXPECT_EQ(*by_slug->front().line.record.repo, "o/b");
  EXPECT_TRUE(store->FindRecord("0000000000000000")->empty());
  EXPECT_TRUE(store->FindRecord("")->empty());
}

TEST(CatalogStore, ContentVersionChangesOnEveryWriteOfLines) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  std::set<std::string> seen;
  auto note = [&] {
    auto v = store->ContentVersion();
    ASSERT_TRUE(v.ok());
    EXPECT_TRUE(seen.insert(*v).second) << "version repeated: " << *v;
  };
  note();
  ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 2, "x")).ok());
  note();
  ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 2, "x")).ok());  // same content, still a write
  note();
  auto lines = store->LoadLines({});
  (*lines)[0].line.record.documentation = "doc";
  ASSERT_TRUE(store->UpdateRecords(*lines).ok());
  note();
  std::string before = store->ContentVersion().value();
  ASSERT_TRUE(store->PutBlob("k", "v").ok());
  ASSERT_TRUE(store->PutCache("k", "v").ok());
  EXPECT_EQ(store->ContentVersion().value(), before);  // blobs and cache are not lines
}

TEST(CatalogStore, UpdateRecordsWritesOnlyProse) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), Lines("o/r", "s1", 3, "prose")).ok());
  auto lines = store->LoadLines({}).value();
  StoredLine changed = lines[1];
  changed.line.record.documentation = "Raised when it fails.";
  changed.line.record.solutions = std::vector<std::string>{"a", "b"};
  changed.line.record.tags = std::vector<std::string>{"t"};
  changed.line.record.error_message = "not a prose field";  // ignored
  ASSERT_TRUE(store->UpdateRecords({changed}).ok());
  auto after = store->LoadLines({}).value();
  EXPECT_EQ(*after[1].line.record.documentation, "Raised when it fails.");
  EXPECT_EQ(after[1].line.record.solutions->size(), 2u);
  EXPECT_EQ(*after[1].line.record.error_message, *lines[1].line.record.error_message);
  EXPECT_FALSE(after[0].line.record.documentation.has_value());

  // An unknown record fails the whole update.
  StoredLine other = lines[2];
  other.line.record.documentation = "should not stay";
  StoredLine unknown = lines[0];
  unknown.line.record.id = "ffffffffffffffff";
  auto st = store->UpdateRecords({other, unknown});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::Code::kNotFound);
  EXPECT_FALSE((store->LoadLines({}).value())[2].line.record.documentation.has_value());
}

TEST(CatalogStore, Blobs) {
  TempDir dir;
  std::string path = dir.File("c.db");
  std::string big(3 * 1024 * 1024, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 131 + (i >> 9));
  {
    auto store = OpenOrDie(path);
    EXPECT_FALSE(store->GetBlob("matcher/1")->has_value());
    ASSERT_TRUE(store->PutBlob("matcher/1", std::string("a\0b", 3)).ok());
    EXPECT_EQ(store->GetBlob("matcher/1").value().value(), std::string("a\0b", 3));
    ASSERT_TRUE(store->PutBlob("matcher/1", big).ok());  // overwrite
    ASSERT_TRUE(store->PutBlob("empty", "").ok());
  }
  auto store = OpenOrDie(path, false);
  EXPECT_EQ(store->GetBlob("matcher/1").value().value(), big);
  auto empty = store->GetBlob("empty");
  ASSERT_TRUE(empty->has_value());  // present, zero bytes -- not "missing"
  EXPECT_EQ(**empty, "");
}

TEST(CatalogStore, Cache) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  EXPECT_FALSE(store->GetCache("q")->has_value());
  ASSERT_TRUE(store->PutCache("q", "answer \xE2\x80\x94 one").ok());
  EXPECT_EQ(store->GetCache("q").value().value(), "answer \xE2\x80\x94 one");
  ASSERT_TRUE(store->PutCache("q", "two").ok());
  EXPECT_EQ(store->GetCache("q").value().value(), "two");
  EXPECT_FALSE(store->GetBlob("q")->has_value());  // separate namespaces
}

TEST(CatalogStore, FullTextSearchRanksTheClosestFirst) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  std::vector<CatalogLine> lines = {
      MakeLine("o/r", "s", 0, "connection refused by upstream server", "ConnectionError"),
      MakeLine("o/r", "s", 1, "invalid tensor shape for attention kernel", "ValueError"),
      MakeLine("o/r", "s", 2, "tensor is empty", "ValueError"),
      MakeLine("o/r", "s", 3, "unknown model name {name}", "KeyError"),
  };
  ASSERT_TRUE(store->PutScan(Info("o/r", "s"), lines).ok());
  auto hits = store->FullTextSearch("invalid tensor shape (3, 4) for attention kernel", 10);
  ASSERT_TRUE(hits.ok()) << hits.status().ToString();
  ASSERT_GE(hits->size(), 2u);
  EXPECT_EQ((*hits)[0].record_id, lines[1].record.id);
  EXPECT_EQ((*hits)[1].record_id, lines[2].record.id);
  for (size_t i = 1; i < hits->size(); ++i) EXPECT_GE((*hits)[i - 1].score, (*hits)[i].score);
  EXPECT_GT((*hits)[0].score, 0);

  auto by_class = store->FullTextSearch("KeyError: 'llama'", 10);
  ASSERT_FALSE(by_class->empty());
  EXPECT_EQ(by_class->front().record_id, lines[3].record.id);

  EXPECT_EQ(store->FullTextSearch("tensor", 1)->size(), 1u);  // limit
  // Query syntax in the pasted text is just text.
  for (const char* q : {"\"unbalanced", "a AND OR NOT (", "NEAR(x y)", "*", "col:val", "", "-- ; DROP TABLE lines"}) {
    auto r = store->FullTextSearch(q, 5);
    EXPECT_TRUE(r.ok()) << q << ": " << r.status().ToString();
  }
  EXPECT_EQ(store->LoadLines({})->size(), 4u);
}

// A catalog made where SQLite lacks FTS5 (meta.fts = "like", no lines_fts) still
// answers FullTextSearch, by counting the words found in each line.
TEST(CatalogStore, FullTextSearchWithoutFts5FallsBackToSubstrings) {
  TempDir dir;
  std::string path = dir.File("c.db");
  { ASSERT_TRUE(OpenOrDie(path)); }
  RawExec(path, "DROP TABLE entries_fts; UPDATE meta SET value = 'like' WHERE key = 'fts';");
  auto store = OpenOrDie(path, false);
  std::vector<CatalogLine> lines = {
      MakeLine("o/r", "s", 0, "tensor is empty"),
      MakeLine("o/r", "s", 1, "invalid tensor shape for attention"),
      MakeLine("o/r", "s", 2, "unrelated message"),
  };
  ASSERT_TRUE(store->PutScan(Info("o/r", "s"), lines).ok());
  auto hits = store->FullTextSearch("Invalid tensor SHAPE (2, 3)", 10);
  ASSERT_TRUE(hits.ok()) << hits.status().ToString();
  ASSERT_EQ(hits->size(), 2u);
  EXPECT_EQ((*hits)[0].record_id, lines[1].record.id);
  EXPECT_EQ((*hits)[1].record_id, lines[0].record.id);
  EXPECT_GT((*hits)[0].score, (*hits)[1].score);
  ASSERT_TRUE(store->PutScan(Info("o/r", "s"), {lines[2]}).ok());  // replace works without the index too
  EXPECT_TRUE(store->FullTextSearch("tensor", 10)->empty());
}

TEST(CatalogStore, ReadOnlyFileCanBeReadButNotWritten) {
  TempDir dir;
  std::string path = dir.File("c.db");
  auto lines = Lines("o/r", "s1", 3, "readonly");
  {
    auto store = OpenOrDie(path);
    ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), lines).ok());
    ASSERT_TRUE(store->PutBlob("b", "bytes").ok());
  }
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  ASSERT_EQ(::chmod(dir.path().c_str(), 0555), 0);  // no -wal/-shm can be created either
  // root ignores file modes: check as an unprivileged user in a child process.
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(10);
    auto store = CatalogStore::Open(path, false);
    if (!store.ok()) {
      std::fprintf(stderr, "open: %s\n", store.status().ToString().c_str());
      ::_exit(11);
    }
    auto loaded = (*store)->LoadLines({});
    if (!loaded.ok() || loaded->size() != 3) ::_exit(12);
    auto blob = (*store)->GetBlob("b");
    if (!blob.ok() || !blob->has_value() || **blob != "bytes") ::_exit(13);
    auto put = (*store)->PutScan(Info("o/r", "s2"), lines);
    if (put.ok() || put.status().code() != Status::Code::kIoError) ::_exit(14);
    if (put.status().message().find("read-only") == std::string::npos) {
      std::fprintf(stderr, "put: %s\n", put.status().ToString().c_str());
      ::_exit(15);
    }
    if ((*store)->PutBlob("c", "x").ok()) ::_exit(16);
    if ((*store)->LoadLines({})->size() != 3) ::_exit(17);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ::chmod(dir.path().c_str(), 0755);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child failed at step " << WEXITSTATUS(status);
}

TEST(CatalogStore, UsesWalAndReadersAreNotBlockedByAWriter) {
  TempDir dir;
  std::string path = dir.File("c.db");
  auto store = OpenOrDie(path);
  auto lines = Lines("o/r", "s1", 20, "wal");
  ASSERT_TRUE(store->PutScan(Info("o/r", "s1"), lines).ok());
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* mode = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &mode, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(mode), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(mode, 0)), "wal");
  sqlite3_finalize(mode);
  // Another writer in the middle of a big change: our reads see the committed state.
  ASSERT_EQ(sqlite3_exec(raw, "BEGIN IMMEDIATE; DELETE FROM tree; DELETE FROM scans;", nullptr, nullptr, nullptr),
            SQLITE_OK);
  auto seen = store->LoadLines({});
  ASSERT_TRUE(seen.ok()) << seen.status().ToString();
  EXPECT_EQ(seen->size(), 20u);
  EXPECT_EQ(store->FindRecord(lines[3].record.id)->size(), 1u);
  sqlite3_exec(raw, "ROLLBACK;", nullptr, nullptr, nullptr);
  sqlite3_close(raw);
}

// Issue 15, M1: processes that open one new catalog at the same moment all
// succeed. Switching it to WAL is retried while another process holds the file
// (SQLite returns BUSY at once there, without its busy handler). Processes, not
// threads: SQLite's POSIX locks behave differently inside one process.
TEST(CatalogStore, ManyProcessesOpenANewCatalogAtTheSameMoment) {
  TempDir dir;
  constexpr int kRounds = 30, kOpeners = 8;
  int failed = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::string path = dir.File("new" + std::to_string(round) + ".db");
    int go[2];
    ASSERT_EQ(pipe(go), 0);
    std::vector<pid_t> kids;
    for (int i = 0; i < kOpeners; ++i) {
      pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        close(go[1]);
        char c;
        while (read(go[0], &c, 1) > 0) {}  // until the parent lets all go at once
        auto store = CatalogStore::Open(path, true);
        if (!store.ok()) std::fprintf(stderr, "round %d: %s\n", round, store.status().ToString().c_str());
        _exit(store.ok() ? 0 : 1);
      }
      kids.push_back(pid);
    }
    close(go[0]);
    close(go[1]);
    for (pid_t pid : kids) {
      int status = 0;
      waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
    }
  }
  EXPECT_EQ(failed, 0);
}

TEST(CatalogStore, BulkInsertOfManyLines) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  auto lines = Lines("o/big", "s1", 5000, "bulk");
  auto id = store->PutScan(Info("o/big", "s1"), lines);
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(store->LoadLines({})->size(), 5000u);
  EXPECT_EQ(store->FullTextSearch("bulk failure number 4321", 3)->front().record_id, lines[4321].record.id);
}

// Measures, asserts nothing about time: run with --gtest_also_run_disabled_tests.
// ERRDEX_MEASURE_SOURCE_BYTES sets the size of each record's source window (1500 =
// a seed's 37 lines). Prints wall and CPU time (the machine may be shared).
TEST(CatalogStore, DISABLED_Measure50kLines) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("c.db"));
  auto lines = Lines("o/big", "s1", 50000, "bulk");
  const char* env = std::getenv("ERRDEX_MEASURE_SOURCE_BYTES");
  size_t source_bytes = env ? std::strtoul(env, nullptr, 10) : 1500;
  for (auto& l : lines) l.record.source_code = std::string(source_bytes, 'x');
  struct Mark {
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    std::clock_t cpu = std::clock();
  };
  auto report = [](const char* what, const Mark& a, const Mark& b) {
    std::printf("%-12s wall %6lld ms  cpu %6lld ms\n", what,
                (long long)std::chrono::duration_cast<std::chrono::milliseconds>(b.wall - a.wall).count(),
                (long long)((b.cpu - a.cpu) * 1000 / CLOCKS_PER_SEC));
  };
  Mark m0;
  ASSERT_TRUE(store->PutScan(Info("o/big", "s1"), lines).ok());
  Mark m1;
  ASSERT_TRUE(store->PutScan(Info("o/big", "s1"), lines).ok());  // replace
  Mark m2;
  auto loaded = store->LoadLines({});
  Mark m3;
  ASSERT_EQ(loaded->size(), 50000u);
  auto hits = store->FullTextSearch("bulk failure number 31337", 10);
  Mark m4;
  ASSERT_EQ(hits->front().record_id, lines[31337].record.id);
  report("put 50k", m0, m1);
  report("replace 50k", m1, m2);
  report("load 50k", m2, m3);
  report("fts query", m3, m4);
}

}  // namespace
}  // namespace errdex
