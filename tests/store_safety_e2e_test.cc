// End-to-end regression tests for the catalog's data-loss defects (reliability
// issue H5, H6, H7, M1, L12): each runs the real binary on input generated here
// and checks that nothing stored is lost and that failures are exit 2.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace {

namespace fs = std::filesystem;
using errdex::e2e::Quote;
using errdex::e2e::ReadFile;
using errdex::e2e::TempDir;
using errdex::e2e::WriteFile;

struct Outcome {
  int code = -1;
  std::string out, err;
};

Outcome Errdex(const TempDir& t, const std::string& args, const std::string& env = "NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000") {
  static int n = 0;
  std::string out = t / ("out" + std::to_string(n)), err = t / ("err" + std::to_string(n));
  ++n;
  std::string cmd = "env " + env + " " + Quote(ERRDEX_BINARY) + " " + args + " >" + Quote(out) + " 2>" + Quote(err) +
                    " </dev/null";
  int st = std::system(cmd.c_str());
  Outcome o;
  o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  o.out = ReadFile(out);
  o.err = ReadFile(err);
  fs::remove(out);
  fs::remove(err);
  return o;
}

int Sh(const std::string& cmd) {
  int st = std::system(("set -e; " + cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

size_t CountLines(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// A small Python package with `n` distinct raises spread over a few files.
void WriteTree(const std::string& dir, int n, const std::string& word) {
  for (int f = 0; f < 3; ++f) {
    std::string text = "import os\n\n";
    for (int i = f; i < n; i += 3)
      text += "def f" + std::to_string(i) + "(x):\n    if x < " + std::to_string(i) + ":\n        raise ValueError(\"" +
              word + " error number " + std::to_string(i) + "\")\n    return x\n\n";
    WriteFile(dir + "/pkg/mod" + std::to_string(f) + ".py", text);
  }
}

std::vector<nlohmann::json> JsonLines(const std::string& text) {
  std::vector<nlohmann::json> out;
  size_t b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    if (e > b) out.push_back(nlohmann::json::parse(text.substr(b, e - b)));
    b = e + 1;
  }
  return out;
}

// H5: two directories outside git, no --repo/--sha, into one catalog: both stay,
// each keyed by its absolute path, which the summary names.
TEST(StoreSafety, PlainDirectoriesWithoutACommitDoNotReplaceEachOther) {
  TempDir t;
  WriteFile(t / "a/a.py", "raise ValueError(\"only in tree a\")\n");
  WriteFile(t / "b/b.py", "raise ValueError(\"only in tree b\")\n");
  std::string db = Quote(t / "c.db");
  Outcome a = Errdex(t, "scan " + Quote(t / "a") + " --db " + db);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.err.find("stored in " + (t / "c.db") + " as (no repo) at " + fs::canonical(t / "a").string()),
            std::string::npos)
      << a.err;
  Outcome b = Errdex(t, "scan " + Quote(t / "b") + " --db " + db + " --json -q");
  ASSERT_EQ(b.code, 0) << b.err;
  nlohmann::json summary = nlohmann::json::parse(b.out);
  EXPECT_EQ(summary["data"]["scanKey"]["location"], fs::canonical(t / "b").string());
  EXPECT_EQ(summary["data"]["scanKey"]["sha"], "");

  Outcome exp = Errdex(t, "export --db " + db);
  ASSERT_EQ(exp.code, 0) << exp.err;
  EXPECT_EQ(CountLines(exp.out), 2u) << exp.out;
  EXPECT_NE(exp.out.find("only in tree a"), std::string::npos);
  EXPECT_NE(exp.out.find("only in tree b"), std::string::npos);

  // The same directory again replaces its own scan, and only that one.
  WriteFile(t / "a/a.py", "raise ValueError(\"tree a, edited\")\n");
  ASSERT_EQ(Errdex(t, "scan " + Quote(t / "a") + " --db " + db + " -q").code, 0);
  exp = Errdex(t, "export --db " + db);
  EXPECT_EQ(CountLines(exp.out), 2u) << exp.out;
  EXPECT_EQ(exp.out.find("only in tree a"), std::string::npos);
  EXPECT_NE(exp.out.find("tree a, edited"), std::string::npos);
  EXPECT_NE(exp.out.find("only in tree b"), std::string::npos);
  Outcome scans = Errdex(t, "scans --db " + db + " --json");
  EXPECT_EQ(CountLines(scans.out), 2u) << scans.out;
}

// H6: importing one record of an existing repo@sha adds or updates that record and
// keeps every other record of the scan.
TEST(StoreSafety, ImportOfOneRecordKeepsTheRestOfTheScan) {
  TempDir t;
  WriteTree(t / "tree", 30, "original");
  std::string db = Quote(t / "c.db");
  ASSERT_EQ(Errdex(t, "scan " + Quote(t / "tree") + " --repo o/n --sha " + std::string(40, '1') + " --db " + db + " -q").code, 0);
  std::string before = Errdex(t, "export --db " + db).out;
  ASSERT_EQ(CountLines(before), 30u);
  std::vector<nlohmann::json> lines = JsonLines(before);

  // The same record back: nothing changes, byte for byte.
  WriteFile(t / "one.jsonl", lines[7].dump() + "\n");
  Outcome imp = Errdex(t, "import " + Quote(t / "one.jsonl") + " --db " + db);
  ASSERT_EQ(imp.code, 0) << imp.err;
  EXPECT_EQ(Errdex(t, "export --db " + db).out, before);

  // That record with another message: it is updated in its place; a new id is added at the end.
  nlohmann::json changed = lines[7];
  changed["record"]["errorMessage"] = "reworded by an import";
  nlohmann::json added = lines[0];
  added["record"]["id"] = "00000000000000aa";
  added["record"]["errorMessage"] = "only from the import";
  WriteFile(t / "two.jsonl", changed.dump() + "\n" + added.dump() + "\n");
  imp = Errdex(t, "import " + Quote(t / "two.jsonl") + " --db " + db);
  ASSERT_EQ(imp.code, 0) << imp.err;
  std::vector<nlohmann::json> after = JsonLines(Errdex(t, "export --db " + db).out);
  ASSERT_EQ(after.size(), 31u);
  for (size_t i = 0; i < 30; ++i) {
    if (i == 7) EXPECT_EQ(after[i], changed);
    else EXPECT_EQ(after[i], lines[i]) << i;
  }
  EXPECT_EQ(after[30], added);
  Outcome scans = Errdex(t, "scans --db " + db + " --json");
  EXPECT_EQ(CountLines(scans.out), 1u) << scans.out;
  EXPECT_EQ(nlohmann::json::parse(scans.out)["data"]["sites"], 31);
  // --help says what import does.
  Outcome help = Errdex(t, "import --help");
  EXPECT_NE(help.out.find("never deletes"), std::string::npos) << help.out;
}

// H7: a scan that finds no file to read (an empty directory, a commit without
// source files) is exit 2 and leaves the full scan of the same key in place; a bare
// repository without `config` scans like one with it.
TEST(StoreSafety, AnEmptyScanIsAnErrorAndReplacesNothing) {
  TempDir t;
  WriteTree(t / "src", 12, "kept");
  const std::string git = "git -C " + Quote(t / "src") + " -c user.name=t -c user.email=t@example.com ";
  ASSERT_EQ(Sh(git + "init -q -b main && " + git + "add -A && " + git + "commit -q -m one"), 0);
  ASSERT_EQ(Sh("git clone -q --bare " + Quote(t / "src") + " " + Quote(t / "bare.git") + " && cp -r " +
               Quote(t / "bare.git") + " " + Quote(t / "noconfig.git") + " && rm " + Quote(t / "noconfig.git/config")),
            0);
  std::string db = Quote(t / "c.db");
  Outcome full = Errdex(t, "scan " + Quote(t / "bare.git") + " --rev HEAD --repo o/n --db " + db + " -o " +
                            Quote(t / "bare.jsonl") + " -q");
  ASSERT_EQ(full.code, 0) << full.err;
  std::string before = Errdex(t, "export --db " + db).out;
  ASSERT_EQ(CountLines(before), 12u);

  for (const char* rev : {" --rev HEAD", ""}) {
    Outcome noconfig = Errdex(t, "scan " + Quote(t / "noconfig.git") + rev + " --repo o/n -o " +
                                  Quote(t / "noconfig.jsonl") + " -q");
    ASSERT_EQ(noconfig.code, 0) << noconfig.err;
    EXPECT_EQ(ReadFile(t / "noconfig.jsonl"), ReadFile(t / "bare.jsonl")) << rev;
  }

  fs::create_directories(t / "empty");
  std::string sha = ReadFile(t / "bare.git/refs/heads/main");
  if (sha.empty()) sha = std::string(40, '0');
  while (!sha.empty() && sha.back() == '\n') sha.pop_back();
  Outcome empty = Errdex(t, "scan " + Quote(t / "empty") + " --repo o/n --sha " + sha + " --db " + db);
  EXPECT_EQ(empty.code, 2) << empty.err;
  EXPECT_NE(empty.err.find("errdex: error: no files in"), std::string::npos) << empty.err;
  EXPECT_EQ(Errdex(t, "export --db " + db).out, before);

  // A commit with files, none of them source: exit 2 as well.
  ASSERT_EQ(Sh(git + "rm -q -r pkg && echo notes > " + Quote(t / "src/README.txt") + " && " + git + "add -A && " + git +
               "commit -q -m docs-only"),
            0);
  Outcome docs = Errdex(t, "scan " + Quote(t / "src") + " --rev HEAD --repo o/n --db " + db);
  EXPECT_EQ(docs.code, 2) << docs.err;
  EXPECT_NE(docs.err.find("none that errdex reads"), std::string::npos) << docs.err;
  EXPECT_EQ(Errdex(t, "export --db " + db).out, before);
}

// A scan of part of a tree (a subdirectory) under the tree's --repo/--sha would
// replace the whole tree's scan with its few records: refused (exit 2, the
// catalog unchanged) unless --replace; a scan of the same tree replaces as before.
TEST(StoreSafety, AScanOfFewerFilesFromElsewhereDoesNotReplaceTheWholeTree) {
  TempDir t;
  WriteTree(t / "src", 12, "kept");
  const std::string key = " --repo o/n --sha " + std::string(40, '1') + " --db " + Quote(t / "c.db") + " -q";
  ASSERT_EQ(Errdex(t, "scan " + Quote(t / "src") + key).code, 0);
  std::string before = Errdex(t, "export --db " + Quote(t / "c.db")).out;
  ASSERT_EQ(CountLines(before), 12u);
  fs::create_directories(t / "part");
  fs::copy_file(t / "src/pkg/mod0.py", t / "part/mod0.py");
  Outcome refused = Errdex(t, "scan " + Quote(t / "part") + key);
  EXPECT_EQ(refused.code, 2) << refused.err;
  EXPECT_NE(refused.err.find("would delete the records of the others"), std::string::npos) << refused.err;
  EXPECT_EQ(Errdex(t, "export --db " + Quote(t / "c.db")).out, before);
  // The same tree again: replaced (a re-scan is on purpose).
  EXPECT_EQ(Errdex(t, "scan " + Quote(t / "src") + key).code, 0);
  EXPECT_EQ(CountLines(Errdex(t, "export --db " + Quote(t / "c.db")).out), 12u);
  // --replace says so.
  EXPECT_EQ(Errdex(t, "scan " + Quote(t / "part") + key + " --replace").code, 0);
  EXPECT_EQ(CountLines(Errdex(t, "export --db " + Quote(t / "c.db")).out), 4u);
}

// M1: processes that create the same new catalog at the same moment all succeed.
TEST(StoreSafety, ConcurrentFirstUseOfANewCatalog) {
  TempDir t;
  constexpr int kWriters = 6;
  for (int i = 0; i < kWriters; ++i) WriteTree(t / ("t" + std::to_string(i)), 4, "writer" + std::to_string(i));
  std::string cmd;
  for (int i = 0; i < kWriters; ++i)
    cmd += "( env SOURCE_DATE_EPOCH=1700000000 " + Quote(ERRDEX_BINARY) + " scan " + Quote(t / ("t" + std::to_string(i))) +
           " --repo o/r" + std::to_string(i) + " --db " + Quote(t / "new.db") + " -q || echo FAILED ) & ";
  cmd += "wait";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[512];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  EXPECT_EQ(out.find("FAILED"), std::string::npos) << out;
  Outcome scans = Errdex(t, "scans --db " + Quote(t / "new.db") + " --json");
  EXPECT_EQ(CountLines(scans.out), static_cast<size_t>(kWriters)) << scans.out << scans.err;
}

// L12: a catalog with damaged pages is refused by scan and import (exit 2, a clear
// message), and the damaged file is not written to.
TEST(StoreSafety, WritesIntoACorruptCatalogAreExit2) {
  TempDir t;
  WriteTree(t / "tree", 300, "a long enough message to fill a few pages of the catalog");
  std::string db = t / "c.db";
  ASSERT_EQ(Errdex(t, "scan " + Quote(t / "tree") + " --repo o/n --sha " + std::string(40, 'a') + " --db " + Quote(db) + " -q").code, 0);
  std::string exported = Errdex(t, "export --db " + Quote(db)).out;
  // Fold the WAL in, then damage pages in the middle of the file (not the header).
  ASSERT_EQ(Sh("python3 -c \"import sqlite3; sqlite3.connect('" + db + "').execute('PRAGMA wal_checkpoint(TRUNCATE)')\""),
            0);
  std::string bytes = ReadFile(db);
  ASSERT_GT(bytes.size(), 8u * 4096);
  for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 4096; ++i) bytes[i] = static_cast<char>(0x5A ^ (i * 13));
  WriteFile(db, bytes);

  WriteFile(t / "line.jsonl", JsonLines(exported)[0].dump() + "\n");
  Outcome imp = Errdex(t, "import " + Quote(t / "line.jsonl") + " --db " + Quote(db));
  EXPECT_EQ(imp.code, 2) << imp.out << imp.err;
  EXPECT_NE(imp.err.find("corrupt"), std::string::npos) << imp.err;
  Outcome scan = Errdex(t, "scan " + Quote(t / "tree") + " --repo o/n --sha " + std::string(40, 'b') + " --db " + Quote(db));
  EXPECT_EQ(scan.code, 2) << scan.err;
  EXPECT_NE(scan.err.find("corrupt"), std::string::npos) << scan.err;
  EXPECT_EQ(ReadFile(db), bytes) << "nothing was written to the damaged catalog";
}

}  // namespace
