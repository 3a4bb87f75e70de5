// End-to-end tests of the resource limits (README "Limits", extract/common/limits.h):
// each is an option whose default --help states, and hitting one is said in the
// command's summary. The real binary on input generated here.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "e2e_util.h"

namespace {

using errdex::e2e::Quote;
using errdex::e2e::ReadFile;
using errdex::e2e::TempDir;
using errdex::e2e::WriteFile;

struct Outcome {
  int code = -1;
  std::string out, err;
};

Outcome Errdex(const TempDir& t, const std::string& args) {
  std::string cmd = "cd " + Quote(t.path()) + " && NO_COLOR=1 " + Quote(ERRDEX_BINARY) + " " + args +
                    " >out.txt 2>err.txt </dev/null";
  int st = std::system(("bash -c " + Quote(cmd)).c_str());
  return Outcome{WIFEXITED(st) ? WEXITSTATUS(st) : -1, ReadFile(t / "out.txt"), ReadFile(t / "err.txt")};
}

TEST(Limits, HelpStatesEachLimitAndItsDefault) {
  TempDir t;
  Outcome scan = Errdex(t, "scan --help");
  ASSERT_EQ(scan.code, 0);
  for (const char* s : {"--max-file-size", "16777216 = 16 MiB", "--max-sites-per-file", "(default 5000)",
                        "--max-excerpt-bytes", "(default 8192)", "--max-guards", "(default 64)", "--max-guard-bytes",
                        "(default 4096)"})
    EXPECT_NE(scan.out.find(s), std::string::npos) << s << "\n" << scan.out;
  Outcome explain = Errdex(t, "explain --help");
  ASSERT_EQ(explain.code, 0);
  EXPECT_NE(explain.out.find("--max-input"), std::string::npos);
  EXPECT_NE(explain.out.find("1073741824 = 1 GiB"), std::string::npos) << explain.out;
  Outcome run = Errdex(t, "run --help");
  EXPECT_NE(run.out.find("--tail"), std::string::npos);
}

// Every scan limit hit at once: the summary has one "limits hit:" line naming
// each, and --json counts each.
TEST(Limits, ScanSummaryNamesEveryLimitHit) {
  TempDir t;
  std::string many = "def f(x):\n";
  for (int i = 0; i < 40; ++i) many += "    if x == " + std::to_string(i) + ":\n        raise ValueError(\"many " +
                                       std::to_string(i) + "\")\n";
  WriteFile(t / "repo/many.py", many);
  WriteFile(t / "repo/long.py", "raise ValueError(\"" + std::string(5000, 'x') + "\")\n");
  std::string nested, indent;
  for (int i = 0; i < 12; ++i, indent += " ") nested += indent + "if cond_" + std::to_string(i) + "_" + std::string(80, 'c') + ":\n";
  WriteFile(t / "repo/nested.py", nested + indent + "raise ValueError(\"nested guard\")\n");
  std::string big;
  for (int i = 0; i < 3000; ++i) big += "# " + std::string(98, '-') + "\n";
  WriteFile(t / "repo/big.py", big + "raise ValueError(\"too big\")\n");
  Outcome r = Errdex(t, "scan repo -o - --no-docs --max-file-size 200000 --max-sites-per-file 10 "
                        "--max-excerpt-bytes 1000 --max-guards 4 --max-guard-bytes 32 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string want =
      "errdex: limits hit: --max-file-size 200000 skipped 1 file(s); --max-sites-per-file 10 in 1 file(s), 30 site(s) "
      "left out; --max-excerpt-bytes 1000 cut texts of ";
  EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-guards 4 / --max-guard-bytes 32 cut the guards of"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"filesTooLarge\":1,\"filesSitesCut\":1,\"sitesLeftOut\":30"), std::string::npos) << r.err;
  // Within the defaults nothing is said.
  Outcome plain = Errdex(t, "scan repo -o /dev/null --no-docs --max-file-size 1000000");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.err.find("limits hit"), std::string::npos) << plain.err;
}

// explain --max-input: what was read is explained, the warning says the rest was not.
TEST(Limits, ExplainSaysWhenItStoppedReading) {
  TempDir t;
  WriteFile(t / "src/mod.py", "def f():\n    raise ValueError(\"the widget pool is exhausted\")\n");
  ASSERT_EQ(Errdex(t, "scan src --repo o/n --sha " + std::string(40, 'a') + " --db c.db -q").code, 0);
  std::string paste = "ValueError: the widget pool is exhausted\n" + std::string(5000, 'z') + "\n";
  WriteFile(t / "paste.txt", paste);
  Outcome r = Errdex(t, "explain --db c.db -q --max-input 100 paste.txt");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("the widget pool is exhausted"), std::string::npos);
  EXPECT_NE(r.err.find("limits hit: --max-input 100: only the first 100 bytes were read"), std::string::npos) << r.err;
  Outcome all = Errdex(t, "explain --db c.db -q paste.txt");
  EXPECT_EQ(all.code, 0);
  EXPECT_EQ(all.err.find("limits hit"), std::string::npos) << all.err;
}

}  // namespace
