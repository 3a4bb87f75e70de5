// End-to-end tests of a catalog of many commits: a git history generated here
// (edits, renames, deletions, moved lines, a flag whose definition changes in
// one file and whose mention is documented in another, a C++ header whose macro
// changes the records of a .cu file that does not change, non-ASCII and invalid
// UTF-8 text) is scanned commit by commit into one catalog, incrementally, and
// `errdex export` of every stored commit must be byte-identical to a fresh
// `errdex scan -o` of that commit -- in commit order, in reverse order, after
// `errdex document`, and after deleting scans and collecting garbage.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <chrono>
#include <iostream>
#include <map>
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

constexpr const char* kEnv = "NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000";

struct Outcome {
  int rc = -1;
  std::string out, err;
};

Outcome Sh(const std::string& cmd) {
  static int counter = 0;
  std::string base =
      (fs::temp_directory_path() / ("errdex-hist-" + std::to_string(getpid()) + "-" + std::to_string(counter++)))
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

Outcome Errdex(const std::string& args) { return Sh(std::string(kEnv) + " " + Quote(ERRDEX_BINARY) + " " + args); }

// A generated repository and the shas of its commits, oldest first. Each test
// runs on both backends: a SQLite file and PostgreSQL (the ctest fixture's server).
class History : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    repo_ = dir_ / "repo";
    fs::create_directories(repo_);
    ASSERT_EQ(Git("init -q -b main").rc, 0);
    // 1: the first version.
    Put("pkg/cli.py",
        "import argparse\n\n"
        "def parser():\n"
        "    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--mode', choices=['fast', 'safe'], default='safe', help='how to run')\n"
        "    p.add_argument('--workers', type=int, default=4, help='worker processes')\n"
        "    return p\n\n"
        "def check(args):\n"
        "    if args.workers < 1:\n"
        "        raise ValueError(f'--workers must be positive, got {args.workers}')\n");
    Put("pkg/core.py",
        "class AppError(Exception):\n    pass\n\n"
        "class NotReady(AppError):\n    pass\n\n"
        "def load(name, cache):\n"
        "    if name not in cache:\n"
        "        raise KeyError(f'unknown model {name}')\n"
        "    return cache[name]\n\n"
        "def run(args):\n"
        "    if args.mode == 'turbo':\n"
        "        raise ValueError('turbo is not supported by this backend')\n"
        "    raise NotReady('the engine is not ready')\n");
    Put("pkg/util.py",
        "import logging\nlogger = logging.getLogger(__name__)\n\n"
        "def ratio(a, b):\n"
        "    assert b != 0, 'b must not be zero'\n"
        "    if a < 0:\n"
        "        logger.warning('negative input %s', a)\n"
        "    return a / b\n");
    Put("csrc/check.h", "#pragma once\n#define CHECK_INPUT(x) TORCH_CHECK(x.is_cuda(), #x \" must be a CUDA tensor\")\n");
    Put("csrc/kernel.cu",
        "#include \"check.h\"\n\n"
        "void attention(const at::Tensor& q, const at::Tensor& k) {\n"
        "  CHECK_INPUT(q);\n"
        "  CHECK_INPUT(k);\n"
        "  TORCH_CHECK(q.dim() == 3, \"q must be 3D\");\n"
        "}\n");
    Put("web/app.js", "export function f(x) {\n  if (!x) throw new Error('x is required');\n}\n");
    Commit("v1");
    // 2: lines moved down by an edit at the top; a message reworded.
    Put("pkg/core.py",
        "\"\"\"Core.\"\"\"\nimport os\n\n"
        "class AppError(Exception):\n    pass\n\n"
        "class NotReady(AppError):\n    pass\n\n"
        "def load(name, cache):\n"
        "    if name not in cache:\n"
        "        raise KeyError(f'no model named {name}')\n"
        "    return cache[name]\n\n"
        "def run(args):\n"
        "    if args.mode == 'turbo':\n"
        "        raise ValueError('turbo is not supported by this backend')\n"
        "    raise NotReady('the engine is not ready')\n");
    Commit("v2");
    // 3: a rename (same bytes) and a deletion.
    ASSERT_EQ(Git("mv pkg/util.py pkg/helpers.py").rc, 0);
    ASSERT_EQ(Git("rm -q web/app.js").rc, 0);
    Commit("v3");
    // 4: the --mode flag changes in cli.py only; core.py's prose mentions it.
    Put("pkg/cli.py",
        "import argparse\n\n"
        "def parser():\n"
        "    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--mode', choices=['fast', 'safe', 'turbo'], default='fast', help='execution strategy')\n"
        "    p.add_argument('--workers', type=int, default=4, help='worker processes')\n"
        "    return p\n\n"
        "def check(args):\n"
        "    if args.workers < 1:\n"
        "        raise ValueError(f'--workers must be positive, got {args.workers}')\n");
    Commit("v4");
    // 5: the header's macro changes; kernel.cu does not.
    Put("csrc/check.h", "#pragma once\n#define CHECK_INPUT(x) TORCH_CHECK(x.is_cuda(), #x \" must live on the GPU\")\n");
    Commit("v5");
    // 6: functions swapped within a file; a class changes its base.
    Put("pkg/core.py",
        "\"\"\"Core.\"\"\"\nimport os\n\n"
        "class AppError(Exception):\n    pass\n\n"
        "class NotReady(RuntimeError):\n    pass\n\n"
        "def run(args):\n"
        "    if args.mode == 'turbo':\n"
        "        raise ValueError('turbo is not supported by this backend')\n"
        "    raise NotReady('the engine is not ready')\n\n"
        "def load(name, cache):\n"
        "    if name not in cache:\n"
        "        raise KeyError(f'no model named {name}')\n"
        "    return cache[name]\n");
    Commit("v6");
    // 7: non-ASCII messages and an invalid UTF-8 byte in a string literal.
    Put("pkg/text.py",
        "def greet(name):\n"
        "    if not name:\n"
        "        raise ValueError('le nom est requis \xc3\xa9t\xc3\xa9')\n"
        "    if name == 'x':\n"
        "        raise ValueError('bad byte \xff here')\n");
    Commit("v7");
  }

  Outcome Git(const std::string& args) {
    return Sh("git -C " + Quote(repo_) + " -c user.name=t -c user.email=t@example.com " + args);
  }
  void Put(const std::string& rel, const std::string& text) { WriteFile(repo_ + "/" + rel, text); }
  void Commit(const std::string& msg) {
    ASSERT_EQ(Git("add -A").rc, 0);
    ASSERT_EQ(Git("commit -q -m " + msg).rc, 0);
    shas_.push_back(Git("rev-parse HEAD").out.substr(0, 40));
  }

  // A fresh scan of commit `sha` as JSON Lines (the reference).
  std::string Fresh(const std::string& sha) {
    auto it = fresh_.find(sha);
    if (it != fresh_.end()) return it->second;
    Outcome r = Errdex("scan " + Quote(repo_) + " --rev " + sha + " --repo o/hist -j2 -q -o -");
    EXPECT_EQ(r.rc, 0) << r.err;
    return fresh_[sha] = r.out;
  }
  std::string Export(const std::string& db, const std::string& sha) {
    Outcome r = Errdex("export --db " + Quote(db) + " --sha " + sha);
    EXPECT_EQ(r.rc, 0) << r.err;
    return r.out;
  }
  nlohmann::json ScanInto(const std::string& db, const std::string& sha) {
    Outcome r = Errdex("scan " + Quote(repo_) + " --rev " + sha + " --repo o/hist -j2 -q --json --db " + Quote(db));
    EXPECT_EQ(r.rc, 0) << r.err;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_discarded() ? nlohmann::json() : j["data"];
  }

  // A fresh catalog of this test's backend (skips when the machine has no PostgreSQL).
  std::string NewDb() {
    if (GetParam() != "postgres") return dir_ / "c.db";
    testing_util::PgTestCatalog pg = testing_util::NewPgCatalog();
    if (!pg.skip_reason.empty()) skip_ = pg.skip_reason;
    EXPECT_TRUE(pg.error.empty()) << pg.error;
    return pg.url;
  }

  TempDir dir_;
  std::string skip_;
  std::string repo_;
  std::vector<std::string> shas_;
  std::map<std::string, std::string> fresh_;
};

// The record of `id`'s field `key` in JSON Lines `text` ("" when absent).
std::string Field(const std::string& text, const std::string& message_part, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    const auto& r = j["record"];
    if (r["errorMessage"].is_string() && r["errorMessage"].get<std::string>().find(message_part) != std::string::npos)
      return r[key].is_null() ? std::string("null") : r[key].dump();
  }
  return "";
}

TEST_P(History, EveryStoredCommitExportsWhatAFreshScanWrites) {
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  std::vector<nlohmann::json> summaries;
  for (const std::string& sha : shas_) {
    summaries.push_back(ScanInto(db, sha));
    ASSERT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
  }
  // Every commit again, after all were stored (nothing of a later commit leaks into an earlier one).
  for (const std::string& sha : shas_) EXPECT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;

  // The scenarios are real: the reworded message, the flag's prose, the macro.
  EXPECT_NE(Fresh(shas_[0]).find("unknown model"), std::string::npos);
  EXPECT_NE(Fresh(shas_[1]).find("no model named"), std::string::npos);
  EXPECT_EQ(Fresh(shas_[3]).find("pkg/util.py"), std::string::npos);
  EXPECT_NE(Fresh(shas_[3]).find("pkg/helpers.py"), std::string::npos);
  EXPECT_EQ(Fresh(shas_[3]).find("app.js"), std::string::npos);
  EXPECT_NE(Fresh(shas_[4]).find("must live on the GPU"), std::string::npos);
  EXPECT_NE(Fresh(shas_[3]).find("must be a CUDA tensor"), std::string::npos);
  // v4 changed only cli.py, yet the prose of core.py's record that names --mode changed with it...
  std::string before = Field(Fresh(shas_[2]), "turbo is not supported", "documentation") +
                       Field(Fresh(shas_[2]), "turbo is not supported", "solutions");
  std::string after = Field(Fresh(shas_[3]), "turbo is not supported", "documentation") +
                      Field(Fresh(shas_[3]), "turbo is not supported", "solutions");
  ASSERT_FALSE(before.empty());
  EXPECT_NE(before, after) << "the flag's new definition should show in the prose of a site that names it";
  // ...so the scan of v4 documented core.py again although it reused its parse.
  EXPECT_GE(summaries[3]["filesDocumentedAgain"].get<int>(), 1);
  // Files that did not change were not read again.
  for (size_t i = 1; i < summaries.size(); ++i) EXPECT_GT(summaries[i]["filesReused"].get<int>(), 0) << i;
}

TEST_P(History, ReverseOrderAndRescansGiveTheSameExports) {
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  for (size_t i = shas_.size(); i-- > 0;) {
    ScanInto(db, shas_[i]);
    ASSERT_EQ(Export(db, shas_[i]), Fresh(shas_[i])) << "commit " << shas_[i];
  }
  // A second scan of a stored commit reads no file and changes nothing.
  nlohmann::json again = ScanInto(db, shas_[2]);
  EXPECT_EQ(again["filesReused"], again["files"]);
  for (const std::string& sha : shas_) EXPECT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
}

// The same commit scanned again under other limits: no unit can be reused (the
// limits name them), but every C file's dependency digest comes from the
// cache of the tree's digests, so the #define table is read only when the
// first C file is extracted -- and its macros still expand (cpp_table.h).
TEST_P(History, CFilesExtractedAfterCachedDigestsStillExpandTheHeadersMacros) {
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  const std::string sha = shas_[4];
  ScanInto(db, sha);
  Outcome r = Errdex("scan " + Quote(repo_) + " --rev " + sha +
                     " --repo o/hist -j2 -q --json --max-sites-per-file 4000 --db " + Quote(db));
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["data"]["filesReused"].get<int>(), 0) << r.out;
  Outcome fresh = Errdex("scan " + Quote(repo_) + " --rev " + sha + " --repo o/hist -j2 -q --max-sites-per-file 4000 -o -");
  ASSERT_EQ(fresh.rc, 0) << fresh.err;
  EXPECT_NE(fresh.out.find("must live on the GPU"), std::string::npos);
  EXPECT_EQ(Export(db, sha), fresh.out);
}

TEST_P(History, DocumentRewritesWhatTheScanWrote) {
  // `errdex document` re-runs the prose from the stored facts, contexts and the
  // knowledge blob the catalog assembles: the result is the scan's own.
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  for (const std::string& sha : shas_) ScanInto(db, sha);
  Outcome doc = Errdex("document --db " + Quote(db));
  ASSERT_EQ(doc.rc, 0) << doc.err;
  for (const std::string& sha : shas_) EXPECT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
  // And a later scan does not take the rewritten prose for its own.
  ScanInto(db, shas_.back());
  EXPECT_EQ(Export(db, shas_.back()), Fresh(shas_.back()));
}

TEST_P(History, ConcurrentScansOfDifferentCommitsCommitIndependently) {
  // Writers are safe together: every commit scanned at once by its own process
  // into one catalog (the units they share are written by one of them).
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  std::string all = "(";
  for (const std::string& sha : shas_)
    all += std::string(kEnv) + " " + Quote(ERRDEX_BINARY) + " scan " + Quote(repo_) + " --rev " + sha +
           " --repo o/hist -j1 -q --db " + Quote(db) + " & pids=\"$pids $!\"; ";
  all += "fails=0; for p in $pids; do wait $p || fails=1; done; exit $fails)";
  Outcome r = Sh(all);
  ASSERT_EQ(r.rc, 0) << r.err;
  Outcome scans = Errdex("scans --db " + Quote(db));
  for (const std::string& sha : shas_) {
    EXPECT_NE(scans.out.find(sha.substr(0, 12)), std::string::npos) << sha;
    EXPECT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
  }
}

TEST_P(History, AScanKilledAtAnyPointLeavesTheCatalogAsItWas) {
  // SIGKILL at growing delays: each scan of a new commit is then all there
  // (it committed first) or not at all, and the commits stored before read
  // back as they were.
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  const size_t keep = shas_.size() - 1;
  for (size_t i = 0; i < keep; ++i) ScanInto(db, shas_[i]);
  // The delays: fractions of how long the whole scan takes here, now.
  std::string sha = shas_.back();
  auto t0 = std::chrono::steady_clock::now();
  ScanInto(db, sha);
  double full = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(Errdex("scans --db " + Quote(db) + " --delete o/hist@" + sha).rc, 0);
  int whole = 0, none = 0;
  for (double fraction : {0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0, 1.2}) {
    std::string delay = std::to_string(full * fraction);
    (void)Sh("timeout -s KILL " + delay + " env " + kEnv + " " + Quote(ERRDEX_BINARY) + " scan " +
             Quote(repo_) + " --rev " + sha + " --repo o/hist -j2 -q --db " + Quote(db));
    std::string got = Export(db, sha);
    if (got.empty()) ++none;
    else {
      EXPECT_EQ(got, Fresh(sha)) << "killed after " << delay << " s: a partial commit";
      ++whole;
      ASSERT_EQ(Errdex("scans --db " + Quote(db) + " --delete o/hist@" + sha).rc, 0);
    }
    for (size_t i = 0; i < keep; ++i) ASSERT_EQ(Export(db, shas_[i]), Fresh(shas_[i])) << "after a kill at " << delay;
  }
  std::cerr << "killed scans: " << none << " left nothing, " << whole << " had committed\n";
}

TEST_P(History, ShardsMergeIntoTheCatalogIdempotently) {
  // One shard per commit (what an array job's tasks write), folded into one
  // catalog: every commit exports what a fresh scan writes; merging the shards
  // again, or into a catalog that scanned a commit itself, changes nothing.
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  std::string shards;
  for (size_t i = 0; i < shas_.size(); ++i) {
    std::string shard = dir_ / ("s" + std::to_string(i) + ".errdex");
    Outcome r = Errdex("scan " + Quote(repo_) + " --rev " + shas_[i] + " --repo o/hist -j2 -q -o " + Quote(shard));
    ASSERT_EQ(r.rc, 0) << r.err;
    shards += " " + Quote(shard);
  }
  ScanInto(db, shas_[1]);  // one commit already there, scanned directly
  Outcome m = Errdex("merge" + shards + " --db " + Quote(db) + " --json");
  ASSERT_EQ(m.rc, 0) << m.err;
  auto j = nlohmann::json::parse(m.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << m.out;
  EXPECT_EQ(j["data"]["written"].get<size_t>(), shas_.size() - 1) << m.out;
  EXPECT_EQ(j["data"]["unchanged"], 1) << m.out;
  for (const std::string& sha : shas_) EXPECT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
  std::string scans = Errdex("scans --db " + Quote(db) + " --json").out;
  Outcome again = Errdex("merge" + shards + " --db " + Quote(db) + " --json");
  ASSERT_EQ(again.rc, 0) << again.err;
  auto k = nlohmann::json::parse(again.out, nullptr, false);
  EXPECT_EQ(k["data"]["written"], 0) << again.out;
  EXPECT_EQ(Errdex("scans --db " + Quote(db) + " --json").out, scans);
  for (const std::string& sha : shas_) EXPECT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
  // A shard is not written next to a catalog, and a missing shard is exit 2.
  EXPECT_EQ(Errdex("scan " + Quote(repo_) + " -q -o " + Quote(dir_ / "x.errdex") + " --db " + Quote(db)).rc, 2);
  EXPECT_EQ(Errdex("merge " + Quote(dir_ / "missing.errdex") + " --db " + Quote(db)).rc, 2);
}

TEST_P(History, AClassTemplateChangedElsewhereReachesTheFilesThatRaiseIt) {
  // A Python raise gets the message its exception class builds (a template in
  // another file: extract/python/class_messages.h). net.py does not change while
  // errors.py rewords the templates, so net.py's unit key must name the templates
  // it depends on (scan/py_classes.h): the incremental scan's export equals a
  // fresh scan's, and an edit elsewhere still reuses net.py.
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  auto errors = [](const std::string& endpoint, const std::string& section) {
    return "class BaseError(Exception):\n"
           "    fmt = 'An unspecified error occurred'\n\n"
           "    def __init__(self, **kwargs):\n"
           "        msg = self.fmt.format(**kwargs)\n"
           "        Exception.__init__(self, msg)\n\n\n"
           "class EndpointError(BaseError):\n"
           "    fmt = '" + endpoint + " \"{endpoint_url}\"'\n\n\n"
           "class SectionError(ValueError):\n"
           "    def __init__(self, section):\n"
           "        ValueError.__init__(self, '" + section + ": %r' % (section,))\n";
  };
  Put("pkg/errors.py", errors("Could not connect to the endpoint URL:", "No section"));
  Put("pkg/net.py",
      "from .errors import EndpointError, SectionError\n\n"
      "def connect(url):\n"
      "    raise EndpointError(endpoint_url=url)\n\n"
      "def section():\n"
      "    raise SectionError('server')\n");
  Put("pkg/unrelated.py", "def f(x):\n    if x is None:\n        raise TypeError('x is required')\n");
  Commit("classes-1");
  // Only the templates change.
  Put("pkg/errors.py", errors("Cannot reach the endpoint", "Missing section"));
  Commit("classes-2");
  // Only a file that defines no class changes.
  Put("pkg/unrelated.py", "def f(x):\n    if x is None:\n        raise TypeError('x must be given')\n");
  Commit("classes-3");
  const std::vector<std::string> shas(shas_.end() - 3, shas_.end());

  ScanInto(db, shas_[shas_.size() - 4]);  // the history's last commit: net.py's neighbours are stored
  std::vector<nlohmann::json> summaries;
  for (const std::string& sha : shas) {
    summaries.push_back(ScanInto(db, sha));
    ASSERT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
  }
  for (const std::string& sha : shas) EXPECT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
  // The scenario is real: the raise's message is the class's template, bound.
  EXPECT_NE(Fresh(shas[0]).find("Could not connect to the endpoint URL:"), std::string::npos) << Fresh(shas[0]);
  EXPECT_NE(Fresh(shas[0]).find("No section: 'server'"), std::string::npos) << Fresh(shas[0]);
  EXPECT_NE(Fresh(shas[1]).find("Cannot reach the endpoint"), std::string::npos) << Fresh(shas[1]);
  EXPECT_NE(Fresh(shas[1]).find("Missing section: 'server'"), std::string::npos) << Fresh(shas[1]);
  EXPECT_EQ(Fresh(shas[1]).find("Could not connect"), std::string::npos);
  // classes-2 changed errors.py only: net.py was parsed again (its templates
  // changed), every other file reused.
  EXPECT_EQ(summaries[1]["filesReused"].get<int>(), summaries[1]["files"].get<int>() - 2) << summaries[1];
  // classes-3 changed unrelated.py only: net.py reused.
  EXPECT_EQ(summaries[2]["filesReused"].get<int>(), summaries[2]["files"].get<int>() - 1) << summaries[2];
}

TEST_P(History, ARustEnumTemplateChangedInOneCrateReachesConstructionsInAnother) {
  // A thiserror construction gets its variant's #[error] template from an enum
  // of another crate (extract/rust/rust_error_types.h). routes.rs does not change
  // while errors.rs rewords a template, so routes.rs's unit key must name the
  // types it depends on (scan/rust_error_table.h).
  std::string db = NewDb();
  if (!skip_.empty()) GTEST_SKIP() << skip_;
  auto errors = [](const std::string& not_found) {
    return "#[derive(Debug, thiserror::Error)]\n"
           "pub enum CoreError {\n"
           "    #[error(\"" + not_found + " {0}\")]\n"
           "    NotFound(String),\n"
           "    #[error(\"worker {id} failed\")]\n"
           "    Worker { id: u32 },\n"
           "}\n";
  };
  Put("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n");
  Put("crates/core/Cargo.toml", "[package]\nname = \"app-core\"\n");
  Put("crates/core/src/errors.rs", errors("no model named"));
  Put("crates/server/Cargo.toml", "[package]\nname = \"server\"\n");
  Put("crates/server/src/routes.rs",
      "use app_core::errors::CoreError;\n"
      "fn route(name: &str) -> Result<(), CoreError> {\n"
      "    Err(CoreError::NotFound(name.to_string()))\n"
      "}\n");
  Put("crates/server/src/unrelated.rs", "fn f() {\n    panic!(\"one\");\n}\n");
  Commit("rust-1");
  Put("crates/core/src/errors.rs", errors("unknown model"));
  Commit("rust-2");
  Put("crates/server/src/unrelated.rs", "fn f() {\n    panic!(\"two\");\n}\n");
  Commit("rust-3");
  const std::vector<std::string> shas(shas_.end() - 3, shas_.end());

  ScanInto(db, shas_[shas_.size() - 4]);
  std::vector<nlohmann::json> summaries;
  for (const std::string& sha : shas) {
    summaries.push_back(ScanInto(db, sha));
    ASSERT_EQ(Export(db, sha), Fresh(sha)) << "commit " << sha;
  }
  EXPECT_NE(Fresh(shas[0]).find("no model named (.*?)"), std::string::npos) << Fresh(shas[0]);
  EXPECT_NE(Fresh(shas[1]).find("unknown model (.*?)"), std::string::npos) << Fresh(shas[1]);
  // rust-2 changed errors.rs only: routes.rs was parsed again, every other file reused.
  EXPECT_EQ(summaries[1]["filesReused"].get<int>(), summaries[1]["files"].get<int>() - 2) << summaries[1];
  // rust-3 changed unrelated.rs only: routes.rs reused.
  EXPECT_EQ(summaries[2]["filesReused"].get<int>(), summaries[2]["files"].get<int>() - 1) << summaries[2];
}

INSTANTIATE_TEST_SUITE_P(Backends, History, ::testing::Values("sqlite", "postgres"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace errdex
