// End-to-end tests of the catalog subcommands (import, export, show, scans): they
// run the real errdex binary on the seeds (../shared/seeds) in a temporary directory.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> Seeds() {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(ERRDEX_SHARED_DIR "/seeds")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Replaces the first occurrence of `from` in `s`.
std::string ReplaceOnce(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// Replaces every occurrence of `from` in `s`.
std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

class StoreE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("errdex_store_e2e_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "catalog.db").string();
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Runs errdex with `args` (already shell-quoted where needed), env prefix optional.
  Outcome Errdex(const std::string& args, const std::string& env = "NO_COLOR=1") {
    fs::path out = dir_ / "stdout.txt";
    fs::path err = dir_ / "stderr.txt";
    std::string cmd = "env " + env + " " + std::string(ERRDEX_BINARY) + " " + args + " >" + out.string() + " 2>" +
                      err.string() + " </dev/null";
    int status = std::system(cmd.c_str());
    Outcome r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = errdex::e2e::ReadFile(out);
    r.err = errdex::e2e::ReadFile(err);
    fs::remove(out);
    fs::remove(err);
    return r;
  }

  std::string AllSeedArgs() {
    std::string args;
    for (const auto& s : Seeds()) args += " " + s.string();
    return args;
  }

  fs::path dir_;
  std::string db_;
};

TEST_F(StoreE2E, ImportThenExportReproducesTheSeedsByteForByte) {
  auto seeds = Seeds();
  ASSERT_EQ(seeds.size(), 3u);
  Outcome imp = Errdex("import" + AllSeedArgs() + " --db " + db_);
  ASSERT_EQ(imp.code, 0) << imp.err;
  EXPECT_NE(imp.out.find("imported 3 lines from 3 files into 1 scan"), std::string::npos) << imp.out;

  std::string expected;
  for (const auto& s : seeds) expected += errdex::e2e::ReadFile(s) + "\n";  // a seed has no trailing newline; export ends each line
  fs::path out = dir_ / "export.jsonl";
  Outcome exp = Errdex("export --db " + db_ + " -o " + out.string());
  ASSERT_EQ(exp.code, 0) << exp.err;
  EXPECT_EQ(exp.out, "");
  EXPECT_EQ(errdex::e2e::ReadFile(out), expected);
  for (auto& e : fs::directory_iterator(dir_))  // the temporary file was renamed, not left behind
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();

  // Each seed alone, through stdout, filtered by repo and a short sha.
  for (const auto& s : seeds) {
    std::string one_db = (dir_ / ("one_" + s.filename().string() + ".db")).string();
    ASSERT_EQ(Errdex("import " + s.string() + " --db " + one_db).code, 0);
    Outcome e = Errdex("export --db " + one_db + " --repo sgl-project/sglang --sha 0132848");
    ASSERT_EQ(e.code, 0) << e.err;
    EXPECT_EQ(e.out, errdex::e2e::ReadFile(s) + "\n") << s;
  }
  // Importing the same files again replaces the scan: still exactly the seeds.
  ASSERT_EQ(Errdex("import" + AllSeedArgs() + " --db " + db_).code, 0);
  EXPECT_EQ(Errdex("export --db " + db_).out, expected);
}

TEST_F(StoreE2E, BadLineExits2AndLeavesTheCatalogUnchanged) {
  ASSERT_EQ(Errdex("import" + AllSeedArgs() + " --db " + db_).code, 0);
  std::string before = Errdex("export --db " + db_).out;
  std::string scans_before = Errdex("scans --db " + db_ + " --json").out;

  // A good file for another commit, then a file whose 3rd line is broken.
  std::string seed = errdex::e2e::ReadFile(Seeds()[0]);
  std::string other = ReplaceOnce(seed, "\"analyzedSha\":\"0132848349585cfe6aae51c4941cbae872505f8a\"",
                                  "\"analyzedSha\":\"1111111111111111111111111111111111111111\"");
  ASSERT_NE(other, seed);
  fs::path good = dir_ / "good.jsonl";
  errdex::e2e::WriteFile(good, other + "\n");
  fs::path bad = dir_ / "bad.jsonl";
  errdex::e2e::WriteFile(bad, errdex::e2e::ReadFile(Seeds()[1]) + "\n\n{\"record\": {\"id\": \"0123456789abcdef\"}, \"datasetVersion\": 12,\n");
  Outcome r = Errdex("import " + good.string() + " " + bad.string() + " --db " + db_);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("errdex: error: " + bad.string() + ":3: ", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(Errdex("export --db " + db_).out, before);
  EXPECT_EQ(Errdex("scans --db " + db_ + " --json").out, scans_before);

  // Not JSON at all, on line 1.
  fs::path junk = dir_ / "junk.jsonl";
  errdex::e2e::WriteFile(junk, "hello\n");
  r = Errdex("import " + junk.string() + " --db " + db_);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("errdex: error: " + junk.string() + ":1: ", 0), 0u) << r.err;

  // A failed import into a new catalog creates no file.
  std::string fresh = (dir_ / "fresh.db").string();
  EXPECT_EQ(Errdex("import " + bad.string() + " --db " + fresh).code, 2);
  EXPECT_FALSE(fs::exists(fresh));

  // The good file alone imports as a second scan.
  r = Errdex("import " + good.string() + " --db " + db_ + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"type\":\"summary\",\"data\":{", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\"lines\":1"), std::string::npos);
}

TEST_F(StoreE2E, ShowPrintsOneRecordForPeople) {
  ASSERT_EQ(Errdex("import" + AllSeedArgs() + " --db " + db_).code, 0);
  Outcome r = Errdex("show 70e072f5fc32f001 --db " + db_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("ValueError: flashinfer_cutedsl FP4 MoE only supports DeepEP", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("python/sglang/srt/server_args.py:7677"), std::string::npos);
  EXPECT_NE(r.out.find("https://github.com/sgl-project/sglang/blob/0132848349585cfe6aae51c4941cbae872505f8a/"),
            std::string::npos);
  EXPECT_NE(r.out.find("> 7677 |                     raise ValueError("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  7676 |"), std::string::npos);
  EXPECT_NE(r.out.find("Solutions\n  - Change --deepep-mode to low_latency"), std::string::npos);
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos);  // not a terminal, NO_COLOR

  // By slug, the same record.
  Outcome by_slug = Errdex("show flashinfer-cutedsl-fp4-moe-only-supports-deepep-lo --db " + db_);
  ASSERT_EQ(by_slug.code, 0);
  EXPECT_EQ(by_slug.out, r.out);

  // Colour on request (even when NO_COLOR is unset and stdout is a file).
  Outcome colour = Errdex("show 70e072f5fc32f001 --color=always --db " + db_, "TERM=xterm");
  EXPECT_NE(colour.out.find("\x1b["), std::string::npos);
  Outcome plain = Errdex("show 70e072f5fc32f001 --color=never --db " + db_, "TERM=xterm");
  EXPECT_EQ(plain.out, r.out);

  // --json: the record line exactly.
  Outcome json = Errdex("show 70e072f5fc32f001 --json --db " + db_);
  ASSERT_EQ(json.code, 0);
  EXPECT_EQ(json.out, errdex::e2e::ReadFile(Seeds()[0]) + "\n");

  Outcome missing = Errdex("show ffffffffffffffff --db " + db_);
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.out, "");
  EXPECT_NE(missing.err.find("no record with id or slug \"ffffffffffffffff\""), std::string::npos) << missing.err;
}

TEST_F(StoreE2E, ShowListsEveryStoredVersion) {
  std::string seed = errdex::e2e::ReadFile(Seeds()[0]);
  std::string newer = ReplaceOnce(ReplaceAll(seed, "0132848349585cfe6aae51c4941cbae872505f8a",
                                              "2222222222222222222222222222222222222222"),
                                  "\"datasetVersion\":\"2026-08-28T06:17:29.519Z\"",
                                  "\"datasetVersion\":\"2026-09-01T00:00:00.000Z\"");
  fs::path newer_file = dir_ / "newer.jsonl";
  errdex::e2e::WriteFile(newer_file, newer);
  Outcome imp = Errdex("import " + Seeds()[0].string() + " " + newer_file.string() + " --db " + db_);
  ASSERT_EQ(imp.code, 0) << imp.err;
  Outcome scans = Errdex("scans --db " + db_);
  EXPECT_NE(scans.out.find("013284834958"), std::string::npos) << scans.out;
  EXPECT_NE(scans.out.find("222222222222"), std::string::npos);

  Outcome r = Errdex("show 70e072f5fc32f001 --db " + db_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("2 stored versions of \"70e072f5fc32f001\", newest first:\n", 0), 0u) << r.out;
  size_t first = r.out.find("sgl-project/sglang@222222222222");
  size_t second = r.out.find("sgl-project/sglang@013284834958");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(first, second);
  Outcome json = Errdex("show 70e072f5fc32f001 --json --db " + db_);
  EXPECT_EQ(json.out, newer + "\n" + seed + "\n");
}

TEST_F(StoreE2E, ScansListsWhatWasStored) {
  Outcome empty_db = Errdex("scans --db " + db_);
  EXPECT_EQ(empty_db.code, 2);  // no catalog there
  EXPECT_EQ(empty_db.err.rfind("errdex: error: ", 0), 0u) << empty_db.err;

  ASSERT_EQ(Errdex("import" + AllSeedArgs() + " --db " + db_).code, 0);
  Outcome r = Errdex("scans --db " + db_ + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);
  EXPECT_EQ(r.out.rfind("{\"type\":\"scan\",\"data\":{\"scanId\":1,\"repo\":\"sgl-project/sglang\","
                        "\"sha\":\"0132848349585cfe6aae51c4941cbae872505f8a\"",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("\"sites\":3"), std::string::npos);
  Outcome table = Errdex("scans --db " + db_);
  EXPECT_NE(table.out.find("sgl-project/sglang"), std::string::npos);
}

TEST_F(StoreE2E, ErrorsAreExit2WithThePrefix) {
  Outcome r = Errdex("export --db " + (dir_ / "missing.db").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("errdex: error: ", 0), 0u) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "missing.db"));

  fs::path text = dir_ / "notes.txt";
  errdex::e2e::WriteFile(text, "just some notes, not a catalog\n");
  r = Errdex("show abc --db " + text.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("not an errdex catalog"), std::string::npos) << r.err;

  r = Errdex("import " + (dir_ / "nope.jsonl").string() + " --db " + db_);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("errdex: error: ", 0), 0u);

  r = Errdex("export");  // --db is required: a usage error
  EXPECT_EQ(r.code, 2);
}

TEST_F(StoreE2E, FactsAreExportedOnlyOnRequestAndRoundTrip) {
  std::string seed = errdex::e2e::ReadFile(Seeds()[0]);
  ASSERT_EQ(seed.back(), '}');
  std::string with_facts = seed.substr(0, seed.size() - 1) +
                           ",\"facts\":{\"kind\":\"raise\",\"filePath\":\"python/sglang/srt/server_args.py\","
                           "\"lineNumber\":7677,\"errorClass\":\"ValueError\"}}";
  fs::path in = dir_ / "facts.jsonl";
  errdex::e2e::WriteFile(in, with_facts + "\n");
  ASSERT_EQ(Errdex("import " + in.string() + " --db " + db_).code, 0);
  EXPECT_EQ(Errdex("export --db " + db_).out, seed + "\n");
  Outcome full = Errdex("export --facts --db " + db_);
  ASSERT_EQ(full.code, 0) << full.err;
  EXPECT_EQ(full.out.rfind(seed.substr(0, seed.size() - 1) +
                               ",\"facts\":{\"kind\":\"raise\",\"language\":\"python\","
                               "\"filePath\":\"python/sglang/srt/server_args.py\",\"lineNumber\":7677,",
                           0),
            0u)
      << full.out;
  // The extended export imports back to the same bytes.
  fs::path again = dir_ / "again.jsonl";
  errdex::e2e::WriteFile(again, full.out);
  std::string db2 = (dir_ / "second.db").string();
  ASSERT_EQ(Errdex("import " + again.string() + " --db " + db2).code, 0);
  EXPECT_EQ(Errdex("export --facts --db " + db2).out, full.out);
}

TEST_F(StoreE2E, ImportReadsStandardInput) {
  std::string seed = errdex::e2e::ReadFile(Seeds()[2]);
  fs::path in = dir_ / "in.jsonl";
  errdex::e2e::WriteFile(in, seed);
  std::string cmd = "env NO_COLOR=1 " + std::string(ERRDEX_BINARY) + " import - --db " + db_ + " <" + in.string() +
                    " >/dev/null 2>&1";
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(Errdex("export --db " + db_).out, seed + "\n");
}

TEST_F(StoreE2E, ShowNeverPassesTerminalControlsThrough) {
  std::string seed = errdex::e2e::ReadFile(Seeds()[1]);
  size_t at = seed.find("\"errorMessage\":\"");
  ASSERT_NE(at, std::string::npos);
  seed.insert(at + 16, "\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m");  // clear screen, set title, C1 CSI
  fs::path in = dir_ / "hostile.jsonl";
  errdex::e2e::WriteFile(in, seed);
  ASSERT_EQ(Errdex("import " + in.string() + " --db " + db_).code, 0);
  std::string id = seed.substr(seed.find("\"id\":\"") + 6, 16);
  Outcome r = Errdex("show " + id + " --db " + db_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(r.out.find('\x07'), std::string::npos);
  EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos);
  EXPECT_NE(r.out.find("^[[2J^[]0;pwned^G\\u009b31m"), std::string::npos) << r.out;
  // The data itself is kept (JSON.stringify writes U+009B as is, so the canonical line has it raw).
  std::string canonical = seed;
  canonical.replace(canonical.find("\\u009b"), 6, "\xc2\x9b");
  EXPECT_EQ(Errdex("show " + id + " --json --db " + db_).out, canonical + "\n");
}

TEST_F(StoreE2E, ExportToAFifoAndThroughASymlink) {
  ASSERT_EQ(Errdex("import" + AllSeedArgs() + " --db " + db_).code, 0);
  std::string expected = Errdex("export --db " + db_).out;
  // A FIFO (like /dev/null, not a regular file) is written to, not renamed over.
  fs::path fifo = dir_ / "pipe";
  fs::path got = dir_ / "from_pipe.jsonl";
  ASSERT_EQ(std::system(("mkfifo " + fifo.string()).c_str()), 0);
  std::string cmd = "(timeout 60 cat " + fifo.string() + " >" + got.string() + " & " + std::string(ERRDEX_BINARY) +
                    " export --db " + db_ + " -o " + fifo.string() + "; rc=$?; wait; exit $rc)";
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(fs::status(fifo).type(), fs::file_type::fifo);
  EXPECT_EQ(errdex::e2e::ReadFile(got), expected);
  Outcome r;

  fs::path real = dir_ / "real.jsonl";
  errdex::e2e::WriteFile(real, "old\n");
  fs::path link = dir_ / "link.jsonl";
  fs::create_symlink(real, link);
  r = Errdex("export --db " + db_ + " -o " + link.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(errdex::e2e::ReadFile(real), expected);

  r = Errdex("export --db " + db_ + " -o " + dir_.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
}

// L8: a catalog the user may write, in a directory the user may not (WAL needs
// its -shm and -wal files beside it): reads failed with "the catalog is
// read-only". They read it as immutable now; writes fail with a clear error.
TEST_F(StoreE2E, ACatalogInAReadOnlyDirectoryCanBeRead) {
  ASSERT_EQ(Errdex("import" + AllSeedArgs() + " --db " + db_).code, 0);
  std::string expected = Errdex("export --db " + db_).out;
  fs::path ro = dir_ / "ro";
  fs::create_directories(ro);
  std::string db = (ro / "catalog.db").string();
  fs::copy_file(db_, db);
  std::string as = "NO_COLOR=1";
  if (::geteuid() == 0) {
    // root writes any directory: the catalog becomes nobody's, read as nobody.
    if (::access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "running as root without setpriv";
    ASSERT_EQ(::chown(db.c_str(), 65534, 65534), 0);
    as += " setpriv --reuid=65534 --regid=65534 --clear-groups";
  }
  ::chmod(dir_.c_str(), 0755);
  ::chmod(ro.c_str(), 0555);
  Outcome exported = Errdex("export --db " + db, as);
  EXPECT_EQ(exported.code, 0) << exported.err;
  EXPECT_EQ(exported.out, expected);
  Outcome scans = Errdex("scans --db " + db, as);
  EXPECT_EQ(scans.code, 0) << scans.err;
  // The seeds as that user can read them: ../shared may lie under a directory
  // only its owner may enter (a checkout in a `mktemp -d`).
  std::string readable_seeds;
  for (const auto& s : Seeds()) {
    fs::path copy = dir_ / s.filename();
    fs::copy_file(s, copy, fs::copy_options::overwrite_existing);
    fs::permissions(copy, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    readable_seeds += " " + copy.string();
  }
  Outcome imp = Errdex("import" + readable_seeds + " --db " + db, as);
  EXPECT_EQ(imp.code, 2);
  EXPECT_NE(imp.err.find("read-only"), std::string::npos) << imp.err;
  ::chmod(ro.c_str(), 0755);
}

}  // namespace
