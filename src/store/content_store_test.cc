// Tests of the content-addressed catalog through the CatalogStore interface:
// units stored once and shared by scans, delta chains, trees, the knowledge
// blob, deletion and gc, edits that must not leak into other scans.
#include <gtest/gtest.h>

#include <set>

#include "store/catalog_store.h"
#include "store/codec.h"
#include "store/pg_test_catalog.h"
#include "store/store_test_util.h"

namespace errdex {
namespace {

using testing_util::MakeLine;
using testing_util::TempDir;

std::string Key(int n) { return std::string(15, 'k') + static_cast<char>(n); }

// The unit of file `path` at version `version`: `n` records whose lines move down
// by `version` (an edit at the top), with facts and contexts.
Unit FileUnit(const std::string& path, int version, int n = 20, const std::string& word = "failure") {
  Unit u;
  u.kind = UnitKind::kDerived;
  u.key = store::ContentHash(path + "#" + std::to_string(version));
  u.variant = 1000 + version;
  u.repo = "o/r";
  u.path = path;
  for (int i = 0; i < n; ++i) {
    UnitRecord r;
    r.line = MakeLine("o/r", "", i, word + " number " + std::to_string(i) + " in " + path);
    r.line.record.file_path = path;
    r.line.record.line_number += version;
    r.line.record.source_code_start += version;
    r.line.record.source_code_end += version;
    ClearCommitFields(&r.line);
    Site s;
    s.file_path = path;
    s.line = r.line.record.line_number;
    s.error_message = r.line.record.error_message;
    r.line.facts = s;
    r.context = "{\"known\":true,\"defLine\":" + std::to_string(i + version) + "}";
    u.records.push_back(std::move(r));
  }
  u.knowledge = "{\"flags\":[]}";
  u.deps = "deps";
  u.stats.bytes = 1000;
  return u;
}

ScanInfo Info(const std::string& sha, const std::string& dv = "2026-01-01T00:00:00.000Z") {
  ScanInfo info;
  info.repo = "o/r";
  info.sha = sha;
  info.dataset_version = dv;
  info.source = "test";
  info.files = 1;
  return info;
}

// Every test runs on both backends: SQLite and PostgreSQL (a server the ctest
// fixture starts, src/store/pg_test_catalog.h).
class ContentStore : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    where_ = dir_.File("c.db");
    if (GetParam() == "postgres") {
      testing_util::PgTestCatalog pg = testing_util::NewPgCatalog();
      if (!pg.skip_reason.empty()) GTEST_SKIP() << pg.skip_reason;
      ASSERT_TRUE(pg.error.empty()) << pg.error;
      where_ = pg.url;
    }
    auto s = CatalogStore::Open(where_, true);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
  }
  int64_t Put(const Unit& u) {
    auto id = store_->PutUnit(u);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : 0;
  }
  std::vector<std::string> Export(const std::string& sha) {
    std::vector<std::string> out;
    ScanFilter f;
    f.sha = sha;
    auto lines = store_->LoadLines(f);
    EXPECT_TRUE(lines.ok()) << lines.status().ToString();
    for (const StoredLine& l : *lines) out.push_back(CatalogLineToJson(l.line));
    return out;
  }
  TempDir dir_;
  std::string where_;  // the catalog: a file or a postgresql:// URL
  std::unique_ptr<CatalogStore> store_;
};

TEST_P(ContentStore, AUnitIsStoredOnceAndSharedByScans) {
  Unit a = FileUnit("pkg/a.py", 0), b = FileUnit("pkg/b.py", 0);
  int64_t ida = Put(a), idb = Put(b);
  EXPECT_EQ(Put(a), ida);  // same key and variant: the same unit
  Unit a2 = a;
  a2.variant = 7;  // other prose: another unit of the same file version
  int64_t ida2 = Put(a2);
  EXPECT_NE(ida2, ida);
  auto found = store_->FindUnits({a.key, Key(99)});
  ASSERT_TRUE(found.ok());
  ASSERT_EQ((*found)[0].size(), 2u);
  EXPECT_EQ((*found)[0][0].unit_id, ida);
  EXPECT_EQ((*found)[0][0].knowledge, a.knowledge);
  EXPECT_EQ((*found)[0][0].deps, a.deps);
  EXPECT_EQ((*found)[0][0].records, 20);
  EXPECT_TRUE((*found)[1].empty());

  const std::string sha1(40, '1'), sha2(40, '2');
  ASSERT_TRUE(store_->PutScanUnits(Info(sha1), {ida, idb}, "").ok());
  ASSERT_TRUE(store_->PutScanUnits(Info(sha2, "2026-02-01T00:00:00.000Z"), {ida, idb}, "").ok());
  auto e1 = Export(sha1), e2 = Export(sha2);
  ASSERT_EQ(e1.size(), 40u);
  ASSERT_EQ(e2.size(), 40u);
  EXPECT_NE(e1[0], e2[0]);  // the commit is filled in per scan
  EXPECT_NE(e1[0].find(sha1), std::string::npos);
  EXPECT_NE(e2[0].find(sha2), std::string::npos);
  auto scans = store_->ListScans();
  ASSERT_EQ(scans->size(), 2u);
  EXPECT_EQ((*scans)[0].sites, 40);
  // Every version of a record, newest first; each record once when asked so.
  auto versions = store_->FindRecord(a.records[3].line.record.id);
  ASSERT_EQ(versions->size(), 2u);
  EXPECT_EQ(*(*versions)[0].line.record.analyzed_sha, sha2);
  ScanFilter newest;
  newest.newest_per_record = true;
  auto once = store_->LoadLines(newest);
  ASSERT_EQ(once->size(), 40u);
  for (const StoredLine& l : *once) EXPECT_EQ(*l.line.record.analyzed_sha, sha2);
}

TEST_P(ContentStore, VersionsOfAFileAreDeltasThatReadBackExactly) {
  std::vector<int64_t> ids;
  for (int v = 0; v < 40; ++v) ids.push_back(Put(FileUnit("pkg/big.py", v, 200)));
  for (int v = 0; v < 40; ++v) {
    auto u = store_->LoadUnit(ids[v]);
    ASSERT_TRUE(u.ok()) << u.status().ToString();
    Unit want = FileUnit("pkg/big.py", v, 200);
    ASSERT_EQ(u->records.size(), want.records.size());
    EXPECT_EQ(CatalogLineToJson(u->records[150].line), CatalogLineToJson(want.records[150].line));
    EXPECT_EQ(u->records[150].context, want.records[150].context);
  }
  // A fresh store reads them too (no cache): every chain resolves from the file.
  auto other = CatalogStore::Open(where_, false);
  ASSERT_TRUE(other.ok());
  auto last = (*other)->LoadUnit(ids.back());
  ASSERT_TRUE(last.ok()) << last.status().ToString();
  EXPECT_EQ(CatalogLineToJson(last->records[5].line), CatalogLineToJson(FileUnit("pkg/big.py", 39, 200).records[5].line));
}

TEST_P(ContentStore, OrphanUnitsAreInvisibleAndGcRemovesThem) {
  int64_t kept = Put(FileUnit("pkg/a.py", 0, 5, "kept"));
  ASSERT_TRUE(store_->PutScanUnits(Info(std::string(40, '1')), {kept}, "").ok());
  Put(FileUnit("pkg/b.py", 0, 5, "orphaned"));  // a scan that never committed
  EXPECT_EQ(store_->LoadLines({})->size(), 5u);
  auto orphans = store_->FullTextSearch("orphaned", 10);  // kept: a range-for over .value() of a temporary dangles
  ASSERT_TRUE(orphans.ok()) << orphans.status().ToString();
  for (const auto& h : *orphans) ADD_FAILURE() << "orphan found: " << h.record_id;
  CatalogStore::RecordQuery q;
  q.text = "orphaned";
  EXPECT_TRUE(store_->SearchRecords(q)->empty());
  // Too young to judge: a scan may be about to refer to it.
  auto young = store_->CollectGarbage(3600);
  ASSERT_TRUE(young.ok()) << young.status().ToString();
  EXPECT_EQ(young->units, 0);
  auto gc = store_->CollectGarbage(-1);
  ASSERT_TRUE(gc.ok());
  EXPECT_EQ(gc->units, 1);
  EXPECT_EQ(gc->entries, 5);
  EXPECT_EQ(store_->LoadLines({})->size(), 5u);
  EXPECT_EQ(store_->FullTextSearch("kept", 10)->size(), 5u);
}

TEST_P(ContentStore, DeletingAScanKeepsWhatOthersShareAndGcKeepsDeltaBases) {
  const std::string sha1(40, '1'), sha2(40, '2'), sha3(40, '3');
  std::vector<int64_t> v;
  for (int i = 0; i < 3; ++i) v.push_back(Put(FileUnit("pkg/a.py", i, 50)));
  int64_t shared = Put(FileUnit("pkg/s.py", 0, 5, "shared"));
  ASSERT_TRUE(store_->PutScanUnits(Info(sha1), {v[0], shared}, "").ok());
  ASSERT_TRUE(store_->PutScanUnits(Info(sha2), {v[1], shared}, "").ok());
  ASSERT_TRUE(store_->PutScanUnits(Info(sha3), {v[2], shared}, "").ok());
  auto before = Export(sha3);
  // Ambiguous prefixes are refused; a full sha deletes exactly one scan.
  auto amb = store_->DeleteScans("o/r", "");
  EXPECT_FALSE(amb.ok());
  auto del = store_->DeleteScans("o/r", sha1);
  ASSERT_TRUE(del.ok());
  EXPECT_EQ(*del, 1);
  EXPECT_EQ(store_->DeleteScans("o/r", sha1).value(), 0);
  ASSERT_TRUE(store_->DeleteScans("o/r", sha2.substr(0, 8)).ok());
  auto gc = store_->CollectGarbage(-1);
  ASSERT_TRUE(gc.ok()) << gc.status().ToString();
  // v[0] and v[1] are no scan's, and v[2] was a delta over v[1] over v[0]: gc
  // compresses v[2] again before they go, and sha3 reads back the same, from a
  // fresh connection too.
  EXPECT_EQ(gc->units, 2);
  EXPECT_EQ(Export(sha3), before);
  auto other = CatalogStore::Open(where_, false);
  ASSERT_TRUE(other.ok());
  ScanFilter f;
  f.sha = sha3;
  EXPECT_EQ((*other)->LoadLines(f)->size(), before.size());
  EXPECT_EQ(store_->ListScans()->size(), 1u);
  EXPECT_EQ(store_->FullTextSearch("shared", 10)->size(), 5u);
}

TEST_P(ContentStore, TheKnowledgeBlobIsAssembledFromTheScanAndItsRecords) {
  Unit a = FileUnit("pkg/a.py", 0, 3);
  a.records[1].context.clear();  // a site without a known context is left out
  int64_t id = Put(a);
  const std::string sha(40, 'a');
  ASSERT_TRUE(store_->PutScanUnits(Info(sha), {id}, "{\"version\":2,\"settings\":{}}").ok());
  auto blob = store_->GetBlob("knowledge:o/r@" + sha);
  ASSERT_TRUE(blob.ok());
  ASSERT_TRUE(blob->has_value());
  std::string want = "{\"version\":2,\"settings\":{},\"sites\":{\"" + a.records[0].line.record.id + "\":" +
                     a.records[0].context + ",\"" + a.records[2].line.record.id + "\":" + a.records[2].context + "}}";
  EXPECT_EQ(**blob, want);
  // A blob put under that name wins (catalogs from before units kept it so).
  ASSERT_TRUE(store_->PutBlob("knowledge:o/r@" + sha, "stored").ok());
  EXPECT_EQ(*store_->GetBlob("knowledge:o/r@" + sha).value(), "stored");
  EXPECT_FALSE(store_->GetBlob("knowledge:o/r@" + std::string(40, 'b'))->has_value());
}

TEST_P(ContentStore, EditsOfOneScanDoNotLeakIntoAnotherSharingTheUnit) {
  const std::string sha1(40, '1'), sha2(40, '2');
  int64_t id = Put(FileUnit("pkg/a.py", 0, 4));
  ASSERT_TRUE(store_->PutScanUnits(Info(sha1), {id}, "").ok());
  ASSERT_TRUE(store_->PutScanUnits(Info(sha2), {id}, "").ok());
  auto untouched = Export(sha2);
  // errdex document: new prose for one record of sha1.
  ScanFilter f;
  f.sha = sha1;
  auto lines = store_->LoadLines(f);
  std::vector<StoredLine> edits = {(*lines)[2]};
  edits[0].line.record.documentation = "rewritten";
  ASSERT_TRUE(store_->UpdateRecords(edits).ok());
  auto now = Export(sha1);
  EXPECT_NE(now[2].find("rewritten"), std::string::npos);
  EXPECT_EQ(now[1], Export(sha1)[1]);
  EXPECT_EQ(Export(sha2), untouched);
  // The edited unit is never offered to a scan as its own.
  auto found = store_->FindUnits({FileUnit("pkg/a.py", 0, 4).key});
  ASSERT_EQ((*found)[0].size(), 1u);
  EXPECT_EQ((*found)[0][0].unit_id, id);
  // import into a scanned commit: one record replaced in its place, one added.
  CatalogLine replaced = (*lines)[0].line;
  replaced.record.documentation = "imported";
  CatalogLine added = MakeLine("o/r", sha1, 77, "added by import");
  ASSERT_TRUE(store_->AddLines(Info(sha1), {replaced, added}).ok());
  auto after = Export(sha1);
  ASSERT_EQ(after.size(), 5u);
  EXPECT_NE(after[0].find("imported"), std::string::npos);
  EXPECT_NE(after[2].find("rewritten"), std::string::npos);
  EXPECT_NE(after[4].find("added by import"), std::string::npos);
  EXPECT_EQ(Export(sha2), untouched);
}

INSTANTIATE_TEST_SUITE_P(Backends, ContentStore, ::testing::Values("sqlite", "postgres"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace errdex
