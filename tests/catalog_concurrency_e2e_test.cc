// Issue 15, M8: the first explains after a catalog changed each compiled their own
// copy of the matcher (seconds to minutes each, all at once). One compiles now;
// the others wait for it and load what it cached. The real binary, three at once.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "e2e_util.h"

namespace {

using errdex::e2e::Quote;
using errdex::e2e::ReadFile;
using errdex::e2e::TempDir;
using errdex::e2e::WriteFile;

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(CatalogConcurrency, ConcurrentFirstExplainsCompileOnce) {
  TempDir t;
  // 2,500 raises: enough patterns for the compile notice (cli/progress.h).
  std::string src;
  for (int i = 0; i < 2500; ++i)
    src += "def f" + std::to_string(i) + "(x):\n    raise ValueError(\"synthetic failure number " + std::to_string(i) +
           " of the concurrency test\")\n";
  WriteFile(t / "src/mod.py", src);
  std::string bin = Quote(ERRDEX_BINARY);
  std::string cmd = "cd " + Quote(t.path()) + " && " + bin + " scan src --repo o/n --sha " + std::string(40, 'a') +
                    " --db c.db --no-docs -q && printf 'ValueError: synthetic failure number 7 of the concurrency test\\n' "
                    ">in.txt && for i in 1 2 3; do " + bin + " explain --db c.db --json in.txt >out$i 2>err$i & done; wait";
  int st = std::system(("bash -c " + Quote(cmd)).c_str());
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  std::string errs = ReadFile(t / "err1") + ReadFile(t / "err2") + ReadFile(t / "err3");
  EXPECT_EQ(Count(errs, "compiling 2500 patterns"), 1u) << errs;
  EXPECT_FALSE(ReadFile(t / "out1").empty());
  EXPECT_EQ(ReadFile(t / "out1"), ReadFile(t / "out2"));
  EXPECT_EQ(ReadFile(t / "out1"), ReadFile(t / "out3"));
}

}  // namespace
