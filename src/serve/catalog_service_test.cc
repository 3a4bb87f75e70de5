#include "serve/catalog_service.h"

#include <gtest/gtest.h>

#include "serve/queries.h"
#include "serve/serve_test_util.h"

namespace errdex::serve {
namespace {

using testing_util::TempDir;

TEST(CatalogService, SwapsInANewVersionAndOldSnapshotsKeepWorking) {
  TempDir dir;
  std::string db = dir.File("c.db");
  testing_util::WriteCatalog(db);
  ServiceOptions o;
  o.db = db;
  CatalogService service(o);
  EXPECT_EQ(service.Current(), nullptr);
  ASSERT_TRUE(service.LoadNow().ok());
  auto first = service.Current();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->entry_count(), 4u);
  ASSERT_TRUE(service.LoadNow().ok());  // same version: the same snapshot
  EXPECT_EQ(service.Current(), first);
  EXPECT_EQ(service.reloads(), 0u);

  {
    auto store = CatalogStore::Open(db, false);
    ASSERT_TRUE(store.ok());
    std::vector<CatalogLine> lines = {testing_util::MakeLine("o/r", "s2", 7, "a brand new failure")};
    ASSERT_TRUE((*store)->PutScan(testing_util::Info("o/r", "s2", "2026-02-01T00:00:00.000Z"), lines).ok());
  }
  ASSERT_TRUE(service.LoadNow().ok());
  auto second = service.Current();
  EXPECT_NE(second, first);
  EXPECT_NE(second->version(), first->version());
  EXPECT_EQ(second->entry_count(), 5u);
  EXPECT_EQ(second->scans().size(), 2u);
  EXPECT_EQ(service.reloads(), 1u);

  // A request that still holds the first snapshot finishes on it.
  ExplainRequest req;
  req.text = "ValueError: tensor is empty";
  auto a = Explain(service, *first, req);
  ASSERT_TRUE(a.ok());
  ASSERT_FALSE(a->hits.empty());
  EXPECT_NE(a->details[0], nullptr);
  req.text = "ValueError: a brand new failure";
  auto b = Explain(service, *second, req);
  ASSERT_TRUE(b.ok());
  ASSERT_FALSE(b->hits.empty());
  EXPECT_EQ(b->details[0]->record.error_message, "a brand new failure");
}

TEST(CatalogService, AMissingCatalogIsAnErrorAndNoSnapshot) {
  TempDir dir;
  ServiceOptions o;
  o.db = dir.File("absent.db");
  CatalogService service(o);
  Status s = service.LoadNow();
  EXPECT_EQ(s.code(), Status::Code::kNotFound);
  EXPECT_EQ(service.Current(), nullptr);
  EXPECT_EQ(service.last_error().code(), Status::Code::kNotFound);
  EXPECT_EQ(service.load_failures(), 1u);
}

TEST(CatalogService, WatchingPicksUpACommit) {
  TempDir dir;
  std::string db = dir.File("c.db");
  testing_util::WriteCatalog(db);
  ServiceOptions o;
  o.db = db;
  o.reload_interval = std::chrono::milliseconds(20);
  std::atomic<int> loads{0};
  o.on_load = [&](const CatalogSnapshot&, bool) { loads.fetch_add(1); };
  CatalogService service(o);
  service.StartWatching();
  for (int i = 0; i < 500 && !service.Current(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_NE(service.Current(), nullptr);
  std::string v1 = service.Current()->version();
  {
    auto store = CatalogStore::Open(db, false);
    ASSERT_TRUE((*store)->PutScan(testing_util::Info("o/r", "s2", "2026-02-01T00:00:00.000Z"),
                                  {testing_util::MakeLine("o/r", "s2", 1, "later")})
                    .ok());
  }
  for (int i = 0; i < 500 && service.Current()->version() == v1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_NE(service.Current()->version(), v1);
  EXPECT_EQ(loads.load(), 2);
}

TEST(CatalogService, StoreLeasesAreReused) {
  TempDir dir;
  testing_util::WriteCatalog(dir.File("c.db"));
  ServiceOptions o;
  o.db = dir.File("c.db");
  CatalogService service(o);
  CatalogStore* first = nullptr;
  {
    auto lease = service.Store();
    ASSERT_TRUE(lease.ok());
    first = &**lease;
  }
  auto again = service.Store();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(&**again, first);
  auto second = service.Store();  // the first is out: a new connection
  EXPECT_NE(&**second, first);
}

}  // namespace
}  // namespace errdex::serve
