// Tests of scan/previous_check.h: an incremental scan copies the check-section
// entries of the files it reuses, and the knowledge it stores is byte for byte
// what a scan of the same commit into an empty catalog stores.
#include "scan/previous_check.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "scan/scanner.h"
#include "scan/sinks.h"
#include "store/store_test_util.h"

namespace errdex {
namespace {

using testing_util::ReadFile;
using testing_util::TempDir;
using testing_util::WriteFile;

int Git(const std::string& repo, const std::string& args) {
  return std::system(("git -C '" + repo + "' -c user.name=t -c user.email=t@example.com " + args + " >/dev/null 2>&1").c_str());
}

std::string PyFile(int i, const std::string& extra = "") {
  return "import os\n\ndef f" + std::to_string(i) + "(x, flag=False):\n    if x < " + std::to_string(i) +
         ":\n        raise ValueError(f\"x below " + std::to_string(i) + ": {x}\")\n    if flag and os.environ.get('MODE" +
         std::to_string(i) + "'):\n        raise KeyError('mode " + std::to_string(i) + "')\n    return x\n" + extra;
}

// Scans `rev` of `repo` into `store` (as the CLI does) and returns the scan's id.
int64_t ScanInto(CatalogStore* store, const std::string& repo, const std::string& rev) {
  std::mutex mu;
  ScanOptions o;
  o.path = repo;
  o.rev = rev;
  o.repo = "o/r";
  o.jobs = 2;
  CatalogSink sink(store, &mu);
  auto r = ScanToSinks(o, {&sink}, store, &mu);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? r->scan_id : -1;
}

std::string KnowledgeOf(CatalogStore* store, int64_t scan_id) {
  auto k = store->ScanKnowledge(scan_id);
  EXPECT_TRUE(k.ok() && k->has_value());
  return k.ok() && k->has_value() ? (*k)->text : std::string();
}

TEST(PreviousCheck, AnIncrementalScanStoresTheKnowledgeAColdScanStores) {
  TempDir dir;
  const std::string repo = dir.File("repo");
  std::filesystem::create_directories(repo + "/pkg");
  for (int i = 0; i < 6; ++i) WriteFile(repo + "/pkg/m" + std::to_string(i) + ".py", PyFile(i));
  WriteFile(repo + "/pkg/__init__.py", "");
  WriteFile(repo + "/setup.py", "from setuptools import setup\nsetup(entry_points={'console_scripts': ['tool=pkg.m0:f0']})\n");
  ASSERT_EQ(Git(repo, "init -q"), 0);
  ASSERT_EQ(Git(repo, "add -A"), 0);
  ASSERT_EQ(Git(repo, "commit -qm one"), 0);
  // The second commit changes one file; the other five are reused. The third
  // changes another and takes the first back: its unit is stored (from the
  // first scan), but the previous scan's entry is of the other version.
  WriteFile(repo + "/pkg/m3.py", PyFile(3, "\ndef g(y):\n    raise TypeError('later ' + y)\n"));
  ASSERT_EQ(Git(repo, "commit -qam two"), 0);
  WriteFile(repo + "/pkg/m3.py", PyFile(3));
  WriteFile(repo + "/pkg/m4.py", PyFile(4, "\nX = 1\n"));
  ASSERT_EQ(Git(repo, "commit -qam three"), 0);

  auto inc = CatalogStore::Open(dir.File("inc.db"), true);
  auto cold = CatalogStore::Open(dir.File("cold.db"), true);
  ASSERT_TRUE(inc.ok() && cold.ok());
  ASSERT_GT(ScanInto(inc->get(), repo, "HEAD~2"), 0);
  ASSERT_GT(ScanInto(inc->get(), repo, "HEAD~1"), 0);
  int64_t inc_id = ScanInto(inc->get(), repo, "HEAD");
  int64_t cold_id = ScanInto(cold->get(), repo, "HEAD");
  std::string a = KnowledgeOf(inc->get(), inc_id), b = KnowledgeOf(cold->get(), cold_id);
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "the incremental scan's knowledge differs (" << a.size() << " vs " << b.size() << " bytes)";
  auto section = check::ReadSection(a);
  ASSERT_TRUE(section.ok()) << section.status().message();
  EXPECT_GE(section->Find("pkg/m3.py"), 0);
  EXPECT_GE(section->Find("pkg/m5.py"), 0);

  // What the copy is made from: the previous scan's entry, only for its own units.
  auto previous = PreviousCheck::Load(**inc, "o/r");
  ASSERT_TRUE(previous.has_value());
  auto tree = (*inc)->ScanUnits(inc_id);
  ASSERT_TRUE(tree.ok());
  std::vector<StoredUnit> m5;
  for (const StoredUnit& u : *tree)
    if (u.path == "pkg/m5.py") m5.push_back(u);
  ASSERT_EQ(m5.size(), 1u);
  std::string_view entry = previous->EntryFor("pkg/m5.py", m5);
  EXPECT_EQ(entry, section->Entry(section->Find("pkg/m5.py")));
  m5[0].unit_id = -7;  // another version of the file
  EXPECT_TRUE(previous->EntryFor("pkg/m5.py", m5).empty());
  EXPECT_TRUE(previous->EntryFor("pkg/absent.py", m5).empty());
  EXPECT_FALSE(PreviousCheck::Load(**inc, "someone/else").has_value());
}

}  // namespace
}  // namespace errdex
