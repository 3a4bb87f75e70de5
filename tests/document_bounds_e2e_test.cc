// End-to-end regression tests for the document stage's blow-ups (issue 15): H2
// (std::regex recursion crashed on 30 KB guards, env var names, parameter names --
// and `errdex document` on any catalog holding such a record) and H3 (prose
// quadratic in an elif chain: 500 branches wrote 40 MB). Sizes, never times: the
// output of a chain four times as long is about four times as large.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e_util.h"

namespace {

namespace fs = std::filesystem;
using errdex::e2e::Quote;
using errdex::e2e::ReadFile;
using errdex::e2e::TempDir;
using errdex::e2e::WriteFile;

int Errdex(const TempDir& t, const std::string& args) {
  std::string cmd = "cd " + Quote(t.path()) + " && " + Quote(ERRDEX_BINARY) + " " + args + " 2>>err.txt";
  int st = std::system(("bash -c " + Quote(cmd)).c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(DocumentBounds, LongGuardsEnvNamesAndParametersAreDocumented) {
  TempDir t;
  WriteFile(t / "a/a.py", "def f(v):\n    if not isinstance(v, (" + Repeat("int, ", 6000) +
                              "int)):\n        raise TypeError(\"bad type for v here\")\n");
  WriteFile(t / "b/b.py", "import os\ndef f():\n    if os.environ.get(\"" + std::string(30000, 'A') +
                              "\"):\n        raise ValueError(\"env guard message\")\n");
  WriteFile(t / "c/c.py", "def f(" + std::string(40000, 'p') + "):\n    if " + std::string(40000, 'p') +
                              ":\n        raise ValueError(\"long parameter message\")\n");
  for (const char* d : {"a", "b", "c"})
    EXPECT_EQ(Errdex(t, std::string("scan ") + d + " -q -o " + d + ".jsonl"), 0) << d << ReadFile(t / "err.txt");
  // The same record imported with its 30 KB guard whole (an import is not cut by
  // the scan's limits), then documented from the catalog.
  ASSERT_EQ(Errdex(t, "scan a -q --no-docs --facts --max-guard-bytes 1000000 --max-excerpt-bytes 1000000 "
                      "--repo o/n --sha " + std::string(40, 'a') + " -o facts.jsonl"), 0);
  auto line = nlohmann::json::parse(ReadFile(t / "facts.jsonl"));
  ASSERT_GT(line["facts"]["guards"][0].get<std::string>().size(), 30000u);
  ASSERT_EQ(Errdex(t, "import facts.jsonl --db c.db >/dev/null"), 0);
  EXPECT_EQ(Errdex(t, "document --db c.db >/dev/null"), 0) << ReadFile(t / "err.txt");
}

TEST(DocumentBounds, ProseGrowsLinearlyWithAnElifChain) {
  TempDir t;
  auto chain = [](int n) {
    std::string s = "def f(x):\n    if x == 0:\n        pass\n";
    for (int i = 1; i < n; ++i)
      s += "    elif x == " + std::to_string(i) + ":\n        raise ValueError(\"elif number " + std::to_string(i) +
           " fired\")\n";
    return s;
  };
  WriteFile(t / "small/a.py", chain(250));
  WriteFile(t / "large/a.py", chain(1000));
  ASSERT_EQ(Errdex(t, "scan small -q -j1 -o small.jsonl"), 0);
  ASSERT_EQ(Errdex(t, "scan large -q -j1 -o large.jsonl"), 0);
  double small = static_cast<double>(fs::file_size(t / "small.jsonl"));
  double large = static_cast<double>(fs::file_size(t / "large.jsonl"));
  EXPECT_LT(large / small, 4.0 * 1.25) << small << " -> " << large;  // 4x the branches: ~4x the bytes, not 16x
}

}  // namespace
