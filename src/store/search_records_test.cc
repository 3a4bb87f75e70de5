// Tests of CatalogStore::SearchRecords (the search people use: all words, filters,
// each record once, cursor pages), with and without FTS5.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "store/catalog_store.h"
#include "store/pg_test_catalog.h"
#include "store/store_test_util.h"

namespace errdex {
namespace {

using testing_util::MakeLine;
using testing_util::TempDir;

ScanInfo Info(const std::string& repo, const std::string& sha, const std::string& dv) {
  ScanInfo info;
  info.repo = repo;
  info.sha = sha;
  info.dataset_version = dv;
  info.source = "test";
  return info;
}

std::vector<std::string> Ids(const std::vector<CatalogStore::RecordHit>& hits) {
  std::vector<std::string> out;
  for (const auto& h : hits) out.push_back(h.record_id);
  return out;
}

// Two repos; "o/r" scanned twice (s1 older, s2 newer) with the same records.
// Backends: "Fts5", "NoFts5" (SQLite without FTS5: LIKE), "Postgres" (tsvector).
class SearchRecordsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    path_ = dir_.File("c.db");
    if (GetParam() == "Postgres") {
      testing_util::PgTestCatalog pg = testing_util::NewPgCatalog();
      if (!pg.skip_reason.empty()) GTEST_SKIP() << pg.skip_reason;
      ASSERT_TRUE(pg.error.empty()) << pg.error;
      path_ = pg.url;
    }
    {
      auto s = CatalogStore::Open(path_, true);
      ASSERT_TRUE(s.ok()) << s.status().ToString();
    }
    if (GetParam() == "NoFts5") {  // a catalog made where SQLite lacks FTS5
      sqlite3* db = nullptr;
      ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
      ASSERT_EQ(sqlite3_exec(db, "DROP TABLE entries_fts; UPDATE meta SET value = 'like' WHERE key = 'fts';", nullptr,
                             nullptr, nullptr),
                SQLITE_OK);
      sqlite3_close(db);
    }
    auto s = CatalogStore::Open(path_, false);
    ASSERT_TRUE(s.ok());
    store_ = std::move(s.value());
    for (const char* sha : {"s1", "s2"}) {
      std::string dv = std::string(sha) == "s1" ? "2026-01-01T00:00:00.000Z" : "2026-02-01T00:00:00.000Z";
      std::vector<CatalogLine> lines = {
          MakeLine("o/r", sha, 0, "invalid tensor shape for attention kernel", "ValueError", dv),
          MakeLine("o/r", sha, 1, "tensor is empty", "ValueError", dv),
          MakeLine("o/r", sha, 2, "unknown model name {name}", "KeyError", dv),
          MakeLine("o/r", sha, 3, "connection refused by upstream", "ConnectionError", dv),
      };
      lines[1].record.severity = "warning";
      lines[0].record.tags = std::vector<std::string>{"shape", "attention"};
      ASSERT_TRUE(store_->PutScan(Info("o/r", sha, dv), lines).ok());
      if (ids_.empty())  // ids do not depend on the commit
        for (const auto& l : lines) ids_.push_back(l.record.id);
    }
    other_ = MakeLine("x/y", "t1", 0, "tensor on the wrong device", "RuntimeError");
    ASSERT_TRUE(store_->PutScan(Info("x/y", "t1", "2026-01-01T00:00:00.000Z"), {other_}).ok());
  }

  std::vector<std::string> Search(CatalogStore::RecordQuery q) {
    auto r = store_->SearchRecords(q);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? Ids(*r) : std::vector<std::string>{};
  }

  TempDir dir_;
  std::string path_;
  std::unique_ptr<CatalogStore> store_;
  std::vector<std::string> ids_;  // o/r's records, in MakeLine order
  CatalogLine other_;
};

TEST_P(SearchRecordsTest, EveryWordIsRequiredAndEachRecordComesOnce) {
  CatalogStore::RecordQuery q;
  q.text = "tensor";
  auto ids = Search(q);
  std::set<std::string> got(ids.begin(), ids.end());
  EXPECT_EQ(ids.size(), got.size()) << "a record scanned twice is listed once";
  EXPECT_EQ(got, (std::set<std::string>{ids_[0], ids_[1], other_.record.id}));

  q.text = "Tensor SHAPE";
  EXPECT_EQ(Search(q), std::vector<std::string>{ids_[0]});
  q.text = "tensor refused";  // no line holds both
  EXPECT_TRUE(Search(q).empty());
  q.text = "KeyError";  // the class is searched too
  EXPECT_EQ(Search(q), std::vector<std::string>{ids_[2]});
}

TEST_P(SearchRecordsTest, TheLastWordMayBeUnfinished) {
  if (GetParam() == "NoFts5") GTEST_SKIP() << "substring search matches word starts anyway";
  CatalogStore::RecordQuery q;
  q.text = "upstr";
  EXPECT_EQ(Search(q), std::vector<std::string>{ids_[3]});
}

TEST_P(SearchRecordsTest, TheNewestScanRepresentsARecord) {
  CatalogStore::RecordQuery q;
  q.text = "connection refused";
  auto r = store_->SearchRecords(q);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);
  auto scans = store_->ListScans();
  int64_t newest = 0;
  for (const ScanInfo& s : *scans)
    if (s.sha == "s2") newest = s.scan_id;
  EXPECT_EQ((*r)[0].scan_id, newest);
}

TEST_P(SearchRecordsTest, Filters) {
  CatalogStore::RecordQuery q;
  q.text = "tensor";
  q.repo = "x/y";
  EXPECT_EQ(Search(q), std::vector<std::string>{other_.record.id});
  q.repo.clear();
  q.severity = "warning";
  EXPECT_EQ(Search(q), std::vector<std::string>{ids_[1]});
  q.severity.clear();
  q.tag = "attention";
  EXPECT_EQ(Search(q), std::vector<std::string>{ids_[0]});
  q.tag = "atten";  // tags are exact
  EXPECT_TRUE(Search(q).empty());
  q.tag.clear();
  q.error_class = "RuntimeError";
  EXPECT_EQ(Search(q), std::vector<std::string>{other_.record.id});
  // No text: every record passing the filters, by id.
  CatalogStore::RecordQuery all;
  all.repo = "o/r";
  auto ids = Search(all);
  auto want = std::vector<std::string>(ids_.begin(), ids_.begin() + 4);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(ids, want);
}

TEST_P(SearchRecordsTest, CursorPagesCoverEveryHitOnce) {
  for (const std::string text : {"", "tensor"}) {
    CatalogStore::RecordQuery q;
    q.text = text;
    q.limit = 100;
    auto whole = store_->SearchRecords(q);
    ASSERT_TRUE(whole.ok());
    q.limit = 1;
    std::vector<std::string> paged;
    for (int page = 0; page < 20; ++page) {
      auto r = store_->SearchRecords(q);
      ASSERT_TRUE(r.ok());
      if (r->empty()) break;
      ASSERT_EQ(r->size(), 1u);
      paged.push_back(r->back().record_id);
      q.has_cursor = true;
      q.cursor_rank = r->back().rank;
      q.cursor_record_id = r->back().record_id;
    }
    EXPECT_EQ(paged, Ids(*whole)) << "text '" << text << "'";
    EXPECT_EQ(paged.size(), text.empty() ? 5u : 3u);
  }
}

TEST_P(SearchRecordsTest, QuerySyntaxIsJustText) {
  for (const char* t : {"\"unbalanced", "a AND OR NOT (", "NEAR(x y)", "*", "col:val", "-- ; DROP TABLE lines", "'",
                        "\xff\xfe", "%", "_"}) {
    CatalogStore::RecordQuery q;
    q.text = t;
    auto r = store_->SearchRecords(q);
    EXPECT_TRUE(r.ok()) << t << ": " << r.status().ToString();
  }
  CatalogStore::RecordQuery q;
  q.text = "tensor";
  q.limit = 0;
  EXPECT_TRUE(Search(q).empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, SearchRecordsTest, ::testing::Values("Fts5", "NoFts5", "Postgres"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace errdex
