// Issue 15, L11: the prose of a raise in an elif chain cited the wrong earlier
// branch. Each branch's triggerScenarios may name only branches above it, each
// with the line it is on and its own condition. The real binary on a generated chain.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "e2e_util.h"

namespace {

using errdex::e2e::Quote;
using errdex::e2e::ReadFile;
using errdex::e2e::TempDir;
using errdex::e2e::WriteFile;

TEST(ElifProse, EarlierBranchesAreTheRightOnes) {
  TempDir t;
  // Line 1 "def f(x):", 2 "if x == 0:", 3 "pass"; branch i on line 2 + 2*i.
  std::string src = "def f(x):\n    if x == 0:\n        pass\n";
  const int n = 12;
  for (int i = 1; i < n; ++i)
    src += "    elif x == " + std::to_string(i) + ":\n        raise ValueError(\"elif number " + std::to_string(i) +
           " fired\")\n";
  WriteFile(t / "src/a.py", src);
  std::string cmd = Quote(ERRDEX_BINARY) + " scan " + Quote(t / "src") + " -q -o " + Quote(t / "out.jsonl");
  int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  std::istringstream in(ReadFile(t / "out.jsonl"));
  std::string line;
  int seen = 0;
  while (std::getline(in, line)) {
    auto r = nlohmann::json::parse(line)["record"];
    int k = std::stoi(r["errorMessage"].get<std::string>().substr(12));
    ASSERT_EQ(r["lineNumber"], 3 + 2 * k);
    const std::string trig = r["triggerScenarios"].is_string() ? r["triggerScenarios"].get<std::string>() : "";
    EXPECT_NE(trig.find("`x` == `" + std::to_string(k) + "`"), std::string::npos) << trig;
    // Every earlier branch cited is above this one, on its own line with its own test.
    for (size_t p = trig.find("earlier branch `"); p != std::string::npos; p = trig.find("earlier branch `", p + 1)) {
      size_t test_begin = trig.find("x == ", p), test_end = trig.find(':', test_begin);
      ASSERT_NE(test_begin, std::string::npos) << trig;
      int j = std::stoi(trig.substr(test_begin + 5, test_end - test_begin - 5));
      EXPECT_LT(j, k) << trig;
      const std::string where = "` (line " + std::to_string(2 + 2 * j) + ")";
      EXPECT_EQ(trig.compare(test_end + 1, where.size(), where), 0) << trig;
    }
    ++seen;
  }
  EXPECT_EQ(seen, n - 1);
}

}  // namespace
