// End-to-end tests of the multi-commit commands on a generated repository:
// scan --rev/--revs/--tags/--first-parent, diff, history, scans --delete, gc,
// and the scans that must fail (a bare mirror without its config still lists
// its files; a revision with no file to read is exit 2, not a success).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"
#include "store/pg_test_catalog.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;
using e2e::Quote;
using e2e::ReadFile;
using e2e::TempDir;
using e2e::WriteFile;
using Json = nlohmann::json;

struct Outcome {
  int rc = -1;
  std::string out, err;
};

Outcome Sh(const std::string& cmd) {
  static int counter = 0;
  std::string base =
      (fs::temp_directory_path() / ("errdex-revs-" + std::to_string(getpid()) + "-" + std::to_string(counter++)))
          .string();
  int st = std::system((cmd + " >" + base + ".out 2>" + base + ".err").c_str());
  Outcome r;
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = ReadFile(base + ".out");
  r.err = ReadFile(base + ".err");
  fs::remove(base + ".out");
  fs::remove(base + ".err");
  return r;
}

Outcome Errdex(const std::string& args) {
  return Sh("NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000 " + Quote(ERRDEX_BINARY) + " " + args);
}

std::vector<Json> JsonLines(const std::string& text) {
  std::vector<Json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(Json::parse(line, nullptr, false));
  return out;
}

// v1 -> v2: a record added, one removed, one reworded, one file renamed, one
// guard changed; v3 brings the removed record back. Tags v0.1..v0.3, main.
class Revisions : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = dir_ / "repo";
    fs::create_directories(repo_);
    ASSERT_EQ(Git("init -q -b main").rc, 0);
    Put("pkg/a.py",
        "def load(name, cache):\n"
        "    if name not in cache:\n"
        "        raise KeyError(f'unknown model {name}')\n"
        "    return cache[name]\n\n"
        "def check(x):\n"
        "    if x < 0:\n"
        "        raise ValueError('x must be positive')\n\n"
        "def gone():\n"
        "    raise RuntimeError('this one goes away in v2')\n");
    Put("pkg/old_name.py", "def f(path):\n    raise FileNotFoundError(f'no such file: {path}')\n");
    Put("pkg/stable.py", "def g(v):\n    assert v, 'v is required'\n");
    Commit("v1", "v0.1");
    Put("pkg/a.py",
        "def load(name, cache):\n"
        "    if name not in cache:\n"
        "        raise KeyError(f'no model named {name}')\n"
        "    return cache[name]\n\n"
        "def check(x):\n"
        "    if x < 0 or x > 100:\n"
        "        raise ValueError('x must be positive')\n\n"
        "def fresh():\n"
        "    raise TypeError('new in v2')\n");
    ASSERT_EQ(Git("mv pkg/old_name.py pkg/new_name.py").rc, 0);
    Commit("v2", "v0.2");
    Put("pkg/a.py",
        "def load(name, cache):\n"
        "    if name not in cache:\n"
        "        raise KeyError(f'no model named {name}')\n"
        "    return cache[name]\n\n"
        "def check(x):\n"
        "    if x < 0 or x > 100:\n"
        "        raise ValueError('x must be positive')\n\n"
        "def fresh():\n"
        "    raise TypeError('new in v2')\n\n"
        "def gone():\n"
        "    raise RuntimeError('this one goes away in v2')\n");
    Commit("v3", "v0.3");
  }
  Outcome Git(const std::string& args) {
    return Sh("git -C " + Quote(repo_) + " -c user.name=t -c user.email=t@example.com " + args);
  }
  void Put(const std::string& rel, const std::string& text) { WriteFile(repo_ + "/" + rel, text); }
  void Commit(const std::string& msg, const std::string& tag) {
    ASSERT_EQ(Git("add -A").rc, 0);
    // Commits a second apart, so "oldest first" is well defined.
    std::string date = "2024-01-0" + std::to_string(shas_.size() + 1) + "T00:00:00Z";
    ASSERT_EQ(Sh("GIT_COMMITTER_DATE=" + date + " GIT_AUTHOR_DATE=" + date + " git -C " + Quote(repo_) +
                 " -c user.name=t -c user.email=t@example.com commit -q -m " + msg)
                  .rc,
              0);
    ASSERT_EQ(Git("tag " + tag).rc, 0);
    shas_.push_back(Git("rev-parse HEAD").out.substr(0, 40));
  }
  std::vector<Json> ScanJson(const std::string& args) {
    Outcome r = Errdex("scan " + Quote(repo_) + " --repo o/revs -j2 -q --json " + args);
    EXPECT_EQ(r.rc, 0) << r.err;
    return JsonLines(r.out);
  }
  std::string Fresh(const std::string& sha) {
    Outcome r = Errdex("scan " + Quote(repo_) + " --rev " + sha + " --repo o/revs -j2 -q -o -");
    EXPECT_EQ(r.rc, 0) << r.err;
    return r.out;
  }

  TempDir dir_;
  std::string repo_;
  std::vector<std::string> shas_;
};

TEST_F(Revisions, TagsGlobsRangesAndRepeatedRevs) {
  std::string db = dir_ / "c.db";
  auto tags = ScanJson("--tags --db " + Quote(db));
  ASSERT_EQ(tags.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(tags[i]["data"]["sha"], shas_[i]) << "oldest first";
  // The second and third commits read only what changed.
  EXPECT_EQ(tags[1]["data"]["filesReused"].get<int>(), 1);  // stable.py (a.py changed, old_name.py moved)
  EXPECT_EQ(tags[2]["data"]["filesReused"].get<int>(), 2);  // stable.py, new_name.py
  Outcome scans = Errdex("scans --json --db " + Quote(db));
  auto listed = JsonLines(scans.out);
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0]["data"]["commitTime"], "2024-01-01T00:00:00.000Z");

  auto glob = ScanJson("--revs 'v0.[12]' --db " + Quote(dir_ / "g.db"));
  ASSERT_EQ(glob.size(), 2u);
  EXPECT_EQ(glob[1]["data"]["sha"], shas_[1]);
  auto range = ScanJson("--first-parent main~2..main --db " + Quote(dir_ / "r.db"));
  ASSERT_EQ(range.size(), 2u);
  EXPECT_EQ(range[0]["data"]["sha"], shas_[1]);
  EXPECT_EQ(range[1]["data"]["sha"], shas_[2]);

  // Several revisions to one JSON Lines file, without a catalog: each commit's
  // lines in turn, as its own scan writes them; shared files parsed once.
  std::string out = dir_ / "all.jsonl";
  auto runs = ScanJson("--rev v0.1 --rev " + shas_[2] + " -o " + Quote(out));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_GT(runs[1]["data"]["filesReused"].get<int>(), 0);
  EXPECT_EQ(ReadFile(out), Fresh(shas_[0]) + Fresh(shas_[2]));

  Outcome bad = Errdex("scan " + Quote(repo_) + " --revs 'nothing*' -o -");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("no commit"), std::string::npos) << bad.err;
  Outcome two_shas = Errdex("scan " + Quote(repo_) + " --tags --sha abc -o -");
  EXPECT_EQ(two_shas.rc, 2);
}

// diff, history, scans --delete and gc on both backends: a SQLite file and
// PostgreSQL (the ctest fixture's server).
class RevisionsOn : public Revisions, public ::testing::WithParamInterface<std::string> {
 protected:
  std::string NewDb() {
    if (GetParam() != "postgres") return dir_ / "c.db";
    testing_util::PgTestCatalog pg = testing_util::NewPgCatalog();
    skip_ = pg.skip_reason;
    EXPECT_TRUE(pg.error.empty()) << pg.error;
    return pg.url;
  }
  std::string skip_;
};

TEST_P(RevisionsOn, DiffReportsAddedRemovedRewordedMovedAndGuards) {
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  ScanJson("--tags --db " + Quote(db));
  Outcome d = Errdex("diff --db " + Quote(db) + " o/revs " + shas_[0].substr(0, 8) + " " + shas_[1] + " --json");
  ASSERT_EQ(d.rc, 0) << d.err;
  auto lines = JsonLines(d.out);
  ASSERT_FALSE(lines.empty());
  const Json& summary = lines.back()["data"];
  EXPECT_EQ(summary["added"], 1);
  EXPECT_EQ(summary["removed"], 1);
  EXPECT_EQ(summary["changed"], 2);  // the reworded KeyError, the ValueError's guards
  EXPECT_EQ(summary["moved"], 1);    // the renamed file
  bool reworded = false, guards = false, moved = false, added = false, removed = false;
  for (const Json& l : lines) {
    const std::string type = l["type"];
    const Json& data = l["data"];
    if (type == "changed" && data["after"]["errorMessage"] == "no model named {name}") {
      reworded = data["before"]["errorMessage"] == "unknown model {name}";
      EXPECT_LT(data["similarity"].get<double>(), 1.0);  // paired by message, in the same function
    }
    if (type == "changed" && data["changed"] == Json::array({"guards", "prose"}) ) guards = true;
    if (type == "changed" && data["after"]["errorClass"] == "ValueError")
      guards = guards || std::find(data["changed"].begin(), data["changed"].end(), "guards") != data["changed"].end();
    if (type == "moved") moved = data["before"]["file"] == "pkg/old_name.py" && data["after"]["file"] == "pkg/new_name.py";
    if (type == "added") added = data["after"]["errorMessage"] == "new in v2";
    if (type == "removed") removed = data["before"]["errorMessage"] == "this one goes away in v2";
  }
  EXPECT_TRUE(reworded && guards && moved && added && removed) << d.out;
  // For people: one line per change.
  Outcome text = Errdex("diff --db " + Quote(db) + " o/revs " + shas_[0] + " " + shas_[1]);
  EXPECT_EQ(text.rc, 0);
  EXPECT_NE(text.out.find("1 added, 1 removed, 2 changed, 1 moved"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\"unknown model {name}\" -> \"no model named {name}\""), std::string::npos) << text.out;
  // The same commit twice: nothing changed, exit 1; an unknown commit: exit 2.
  EXPECT_EQ(Errdex("diff --db " + Quote(db) + " o/revs " + shas_[1] + " " + shas_[1]).rc, 1);
  EXPECT_EQ(Errdex("diff --db " + Quote(db) + " o/revs " + shas_[1] + " 0000000").rc, 2);
}

TEST_P(RevisionsOn, HistoryDeleteAndGc) {
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  ScanJson("--tags --db " + Quote(db));
  // The record of gone() is in v0.1 and v0.3, not in v0.2.
  std::string fresh = Fresh(shas_[2]);
  std::string id;
  for (const Json& l : JsonLines(fresh))
    if (l["record"]["errorMessage"] == "this one goes away in v2") id = l["record"]["id"];
  ASSERT_FALSE(id.empty());
  Outcome h = Errdex("history --db " + Quote(db) + " " + id + " --json");
  ASSERT_EQ(h.rc, 0) << h.err;
  auto hist = JsonLines(h.out);
  ASSERT_EQ(hist.size(), 1u);
  const Json& data = hist[0]["data"];
  EXPECT_EQ(data["firstSeen"]["sha"], shas_[0]);
  EXPECT_EQ(data["lastSeen"]["sha"], shas_[2]);
  EXPECT_EQ(data["commits"].size(), 2u);
  ASSERT_EQ(data["absentFrom"].size(), 1u);
  EXPECT_EQ(data["absentFrom"][0]["sha"], shas_[1]);
  EXPECT_EQ(data["lastSeen"]["line"], 14);
  Outcome text = Errdex("history --db " + Quote(db) + " this-one-goes-away-in-v2");  // by slug
  EXPECT_EQ(text.rc, 0);
  EXPECT_NE(text.out.find("absent from 1 scanned commit"), std::string::npos) << text.out;
  EXPECT_EQ(Errdex("history --db " + Quote(db) + " 0000000000000000").rc, 1);

  // Deleting a commit's scan leaves the others as they were; gc gives the space back.
  std::string before = Errdex("export --db " + Quote(db) + " --sha " + shas_[2]).out;
  Outcome del = Errdex("scans --db " + Quote(db) + " --delete o/revs@" + shas_[1].substr(0, 10));
  ASSERT_EQ(del.rc, 0) << del.err;
  EXPECT_NE(del.out.find("deleted 1 scan"), std::string::npos) << del.out;
  EXPECT_EQ(Errdex("scans --db " + Quote(db) + " --delete o/revs@" + shas_[1]).rc, 1);
  EXPECT_EQ(Errdex("scans --db " + Quote(db) + " --delete nonsense").rc, 2);
  Outcome gc = Errdex("gc --db " + Quote(db) + " --grace 0 --json");
  ASSERT_EQ(gc.rc, 0) << gc.err;
  auto g = JsonLines(gc.out);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_GT(g[0]["data"]["units"].get<int>(), 0);  // v0.2's own version of a.py
  EXPECT_EQ(Errdex("export --db " + Quote(db) + " --sha " + shas_[2]).out, before);
  EXPECT_EQ(Errdex("export --db " + Quote(db) + " --sha " + shas_[0]).out, Fresh(shas_[0]));
  EXPECT_EQ(Errdex("export --db " + Quote(db) + " --sha " + shas_[1]).out, "");
}

TEST_F(Revisions, ABareMirrorWithoutConfigListsItsFilesAndAnEmptyRevisionIsAnError) {
  std::string bare = dir_ / "mirror.git";
  ASSERT_EQ(Sh("git clone -q --mirror " + Quote(repo_) + " " + Quote(bare)).rc, 0);
  fs::remove(bare + "/config");  // as some mirrors leave them
  Outcome r = Errdex("scan " + Quote(bare) + " --repo o/revs -q --json -o /dev/null");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = JsonLines(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["data"]["files"], 3);
  EXPECT_EQ(j[0]["data"]["sha"], shas_[2]);
  Outcome tagged = Errdex("scan " + Quote(bare) + " --rev v0.1 --repo o/revs -q -o -");
  EXPECT_EQ(tagged.rc, 0) << tagged.err;
  EXPECT_EQ(tagged.out, Fresh(shas_[0]));
  // A commit with files but none errdex reads, and an empty one: exit 2, nothing stored.
  ASSERT_EQ(Git("rm -q -r pkg").rc, 0);
  Put("README.md", "docs only\n");
  ASSERT_EQ(Git("add -A").rc, 0);
  ASSERT_EQ(Git("commit -q -m docs").rc, 0);
  std::string db = dir_ / "c.db";
  Outcome docs = Errdex("scan " + Quote(repo_) + " --rev HEAD --db " + Quote(db));
  EXPECT_EQ(docs.rc, 2);
  EXPECT_NE(docs.err.find("none that errdex reads"), std::string::npos) << docs.err;
  ASSERT_EQ(Git("commit -q --allow-empty -m empty").rc, 0);
  ASSERT_EQ(Git("rm -q README.md").rc, 0);
  ASSERT_EQ(Git("commit -q -m nothing").rc, 0);
  Outcome empty = Errdex("scan " + Quote(repo_) + " --rev HEAD --db " + Quote(db));
  EXPECT_EQ(empty.rc, 2);
  EXPECT_NE(empty.err.find("no files"), std::string::npos) << empty.err;
  Outcome listed = Errdex("scans --db " + Quote(db) + " --json");
  EXPECT_EQ(listed.out, "");
}

INSTANTIATE_TEST_SUITE_P(Backends, RevisionsOn, ::testing::Values("sqlite", "postgres"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace errdex
