// `errdex lint-docs` end to end: exit codes (0 nothing flagged, 1 findings, 2 error),
// the counts per check, --json, and a catalog (SQLite) scanned by the real binary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "e2e_util.h"

namespace errdex {
namespace {

using e2e::TempDir;

struct CmdResult {
  int code = -1;
  std::string out;
};

CmdResult Errdex(const std::string& args, const TempDir& dir) {
  std::string out = dir / "stdout.txt";
  std::string cmd = std::string(ERRDEX_BINARY) + " " + args + " >" + e2e::Quote(out) + " 2>/dev/null";
  int rc = std::system(cmd.c_str());
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, e2e::ReadFile(out)};
}

constexpr const char* kBadLine =
    R"J({"record":{"id":"0123456789abcdef","repo":"a/b","slug":"x","errorCode":null,"errorMessage":"Cache dir missing. Ensure the cache dir exists.","messagePattern":"x","errorType":"validation","errorClass":"ValueError","httpStatus":null,"severity":"error","filePath":"pkg/m.py","lineNumber":3,"sourceCode":"","sourceCodeStart":1,"sourceCodeEnd":3,"githubUrl":null,"documentation":"d","triggerScenarios":"t","commonSituations":null,"solutions":["Make `x != y` false before `f` runs."],"exampleFix":"# before\nf(1)\n# after\nf(1)","handlingStrategy":null,"validationCode":null,"typeGuard":null,"tryCatchPattern":null,"preventionTips":null,"tags":null,"backgroundTag":null,"analyzedSha":null,"analyzedAt":null,"schemaVersion":2},"datasetVersion":"2026-01-01T00:00:00.000Z","facts":{"kind":"raise","language":"python","filePath":"pkg/m.py","lineNumber":3,"column":4,"endLineNumber":3,"function":"f","guards":["x != y"],"exceptContext":null,"errorClass":"ValueError","errorClassExpr":"ValueError","errorCode":null,"httpStatus":null,"logLevel":null,"errorMessage":"Cache dir missing. Ensure the cache dir exists.","messagePattern":"x","messageExpr":null,"messageAlternatives":[],"interpolations":[],"messageResolution":"literal","cause":null,"assertCondition":null,"dynamic":false,"inTests":false}})J";

TEST(LintDocsE2E, FindingsAreCountedAndExitOne) {
  TempDir dir;
  e2e::WriteFile(dir / "bad.jsonl", std::string(kBadLine) + "\n");
  CmdResult r = Errdex("lint-docs --jsonl " + e2e::Quote(dir / "bad.jsonl"), dir);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("restated-guard         1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("identical-fix          1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("imperative-dropped     1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("imperatives carried    0 of 1"), std::string::npos) << r.out;
  CmdResult j = Errdex("lint-docs --json --jsonl " + e2e::Quote(dir / "bad.jsonl"), dir);
  EXPECT_EQ(j.code, 1);
  EXPECT_NE(j.out.find("{\"type\":\"finding\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("{\"type\":\"summary\""), std::string::npos) << j.out;
}

TEST(LintDocsE2E, ScannedFixturesAreCleanAndBadInputIsAnError) {
  TempDir dir;
  std::filesystem::copy(std::string(ERRDEX_SOURCE_DIR) + "/tests/prose/fixtures/dataclass_helper", dir / "repo",
                        std::filesystem::copy_options::recursive);
  CmdResult scan = Errdex("scan " + e2e::Quote(dir / "repo") + " --repo fixture/dataclass --quiet --db " + e2e::Quote(dir / "c.db"), dir);
  ASSERT_EQ(scan.code, 0);
  CmdResult lint = Errdex("lint-docs --db " + e2e::Quote(dir / "c.db"), dir);
  EXPECT_EQ(lint.code, 0) << lint.out;
  EXPECT_NE(lint.out.find("flag-as-attribute      0"), std::string::npos) << lint.out;
  e2e::WriteFile(dir / "junk.jsonl", "{not json\n");
  EXPECT_EQ(Errdex("lint-docs --jsonl " + e2e::Quote(dir / "junk.jsonl"), dir).code, 2);
  EXPECT_EQ(Errdex("lint-docs --db " + e2e::Quote(dir / "missing.db"), dir).code, 2);
  EXPECT_EQ(Errdex("lint-docs", dir).code, 2);  // neither --db nor --jsonl
}

}  // namespace
}  // namespace errdex
