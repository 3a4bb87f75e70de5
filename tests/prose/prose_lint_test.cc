// The prose checker (document/prose_lint.h): each check flags the defect it names,
// in the form it was seen on real repositories, and leaves good prose alone.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "document/prose_lint.h"
#include "model/record.h"
#include "model/site.h"

namespace errdex {
namespace {

Record Rec(const std::string& msg) {
  Record r;
  r.id = "0123456789abcdef";
  r.file_path = "pkg/mod.py";
  r.line_number = 10;
  r.error_message = msg;
  return r;
}

Site Facts(std::vector<std::string> guards) {
  Site s;
  s.file_path = "pkg/mod.py";
  s.line = 10;
  s.guards = std::move(guards);
  return s;
}

int Count(const Record& r, const Site* s, const std::string& check, std::set<std::string> dests = {}) {
  doc::ProseLinter l(std::move(dests));
  l.Check(r, s);
  l.Finish();
  return l.stats().by_check.at(check);
}

TEST(ProseLint, RestatedGuard) {
  Record r = Rec("bad experts");
  Site s = Facts({"local_num_experts != expected_local_num_experts"});
  r.solutions = std::vector<std::string>{"Make `local_num_experts != expected_local_num_experts` false before `f` runs."};
  EXPECT_EQ(Count(r, &s, "restated-guard"), 1);
  // A user-side change, the check quoted as an explanation, and the message's own words are fine.
  r.solutions = std::vector<std::string>{"Set `--ep-size 2`.",
                                         "Run it on an NVIDIA Hopper GPU (SM90) (the check is `local_num_experts != expected_local_num_experts`).",
                                         "Ensure local_num_experts matches. (the message's advice)"};
  EXPECT_EQ(Count(r, &s, "restated-guard"), 0);
}

TEST(ProseLint, ConstantGuard) {
  Record r = Rec("loop failed");
  Site s = Facts({"True"});
  r.documentation = "`RuntimeError` raised by `f` (pkg/mod.py:10) when `True`.";
  EXPECT_EQ(Count(r, &s, "constant-guard"), 1);
  r.documentation = "`RuntimeError` raised by `f` (pkg/mod.py:10), on every pass of its `while True` loop that gets to this line.";
  EXPECT_EQ(Count(r, &s, "constant-guard"), 0);
}

TEST(ProseLint, RepeatedField) {
  Record r = Rec("x");
  r.trigger_scenarios = "Launching with `--deepep-mode normal` and `--moe-runner-backend flashinfer_cutedsl`.";
  r.common_situations = "Launching with `--deepep-mode normal` and `--moe-runner-backend flashinfer_cutedsl`.";
  EXPECT_EQ(Count(r, nullptr, "repeated-field"), 1);
  r.common_situations = "Copying a normal-mode prefill config from an FP8 deployment.";
  r.solutions = std::vector<std::string>{"Set `--deepep-mode low_latency`.", "Set `--deepep-mode low_latency`."};
  EXPECT_EQ(Count(r, nullptr, "repeated-field"), 1);
}

TEST(ProseLint, UnfilledPlaceholderAndTruncatedHint) {
  Record r = Rec("Philox is only supported for {_PHILOX_STATE_DTYPES} state, got {dtype}");
  r.solutions = std::vector<std::string>{"Use a state of {_PHILOX_STATE_DTYPES}."};
  EXPECT_EQ(Count(r, nullptr, "unfilled-placeholder"), 1);
  r.solutions = std::vector<std::string>{"The message says \"ed for {_PHILOX_STATE_DTYPES} state, got\"."};
  EXPECT_EQ(Count(r, nullptr, "truncated-hint"), 1);
  r.solutions = std::vector<std::string>{"Use a state of `_PHILOX_STATE_DTYPES`, as \"only supported for\" says."};
  EXPECT_EQ(Count(r, nullptr, "unfilled-placeholder") + Count(r, nullptr, "truncated-hint"), 0);
  // Unquoted, after a colon (lmdeploy: "only support" matched inside "only supported").
  r = Rec("fp8_quant_scope is only supported for fp8 quantization.");
  r.solutions = std::vector<std::string>{"Use what the message says is supported: ed for fp8 quantization."};
  EXPECT_EQ(Count(r, nullptr, "truncated-hint"), 1);
  r.solutions = std::vector<std::string>{"Use what the message says is supported: fp8 quantization."};
  EXPECT_EQ(Count(r, nullptr, "truncated-hint"), 0);
  // Braces the message prints (accelerate: a plain string "python {{myscript.py}}") are
  // its text, which its messagePattern holds escaped; a hole is a group there.
  r = Rec("Please rerun with `python {{myscript.py}}`.");
  r.message_pattern = "Please rerun with `python \\{\\{myscript\\.py\\}\\}`\\.";
  r.solutions = std::vector<std::string>{"Please rerun with `python {{myscript.py}}`. (the message's advice)"};
  EXPECT_EQ(Count(r, nullptr, "unfilled-placeholder"), 0);
  r.message_pattern = "Please rerun with `python (.*?)`\\.";
  EXPECT_EQ(Count(r, nullptr, "unfilled-placeholder"), 1);
}

TEST(ProseLint, IdenticalFix) {
  Record r = Rec("x");
  r.example_fix = "# before\n--deepep-mode normal\n# after\n--deepep-mode normal";
  EXPECT_EQ(Count(r, nullptr, "identical-fix"), 1);
  r.example_fix = "# before\n--deepep-mode normal\n# after\n--deepep-mode low_latency";
  EXPECT_EQ(Count(r, nullptr, "identical-fix"), 0);
}

TEST(ProseLint, ImperativeCarriedOrDropped) {
  Record r = Rec("Redundant expert count mismatch. Ensure vLLM and Ascend use the same redundant expert count.");
  EXPECT_EQ(Count(r, nullptr, "imperative-dropped"), 1);
  r.solutions = std::vector<std::string>{"Ensure vLLM and Ascend use the same redundant expert count. (the message's advice)"};
  EXPECT_EQ(Count(r, nullptr, "imperative-dropped"), 0);
  // A report of what failed is no advice.
  EXPECT_TRUE(doc::ImperativeSentences("call aclnnHcPost failed, detail: {msg}").empty());
  EXPECT_TRUE(doc::ImperativeSentences("Check failed: x == y").empty());
  // Nor what the code was doing when a wrapped error came (Go's "check account: %w").
  EXPECT_TRUE(doc::ImperativeSentences("check Ollama account: {err}").empty());
  EXPECT_EQ(doc::ImperativeSentences("Check the account: it has expired").size(), 1u);
  EXPECT_EQ(doc::ImperativeSentences("Please define them in the class definition: {err}").size(), 1u);
  EXPECT_EQ(doc::ImperativeSentences("Out of memory. Try to lower your batch size.").size(), 1u);
}

TEST(ProseLint, FlagNamedAsAttribute) {
  Record r = Rec("x");
  r.trigger_scenarios = "Reaching `f` while `cfg.deepep_mode == \"normal\"`.";
  EXPECT_EQ(Count(r, nullptr, "flag-as-attribute", {"deepep_mode"}), 1);
  r.trigger_scenarios = "Launching with `--deepep-mode normal`.";
  r.example_fix = "# before\ndeepep_mode=\"normal\"\n# after\ndeepep_mode=\"auto\"";
  EXPECT_EQ(Count(r, nullptr, "flag-as-attribute", {"deepep_mode"}), 1);
  r.example_fix = "# before\n--deepep-mode normal\n# after\n--deepep-mode auto";
  r.trigger_scenarios = "Reaching `f` while `cfg.get(\"deepep_mode\")` is None.";  // a call, not the attribute
  EXPECT_EQ(Count(r, nullptr, "flag-as-attribute", {"deepep_mode"}), 0);

  // A flag only an example script defines is not one a library record should name.
  r.trigger_scenarios = "Reaching `f` while `cfg.deepep_mode == \"normal\"`.";
  auto count_with_files = [&](std::vector<std::string> files) {
    doc::ProseLinter l(std::map<std::string, std::vector<std::string>>{{"deepep_mode", std::move(files)}});
    l.Check(r, nullptr);
    l.Finish();
    return l.stats().by_check.at("flag-as-attribute");
  };
  EXPECT_EQ(count_with_files({"examples/serve.py"}), 0);
  EXPECT_EQ(count_with_files({"examples/serve.py", "pkg/server_args.py"}), 1);
  r.file_path = "examples/other.py";
  EXPECT_EQ(count_with_files({"examples/serve.py"}), 1);
}

TEST(ProseLint, ShareOfExampleFixCountsUserRecordsOnly) {
  doc::ProseLinter l;
  Record a = Rec("a");
  a.example_fix = "# before\n--x 1\n# after\n--x 2";
  Site sa = Facts({});
  Record b = Rec("b");
  Site sb = Facts({});
  sb.kind = SiteKind::kAssert;
  Record c = Rec("c");
  Site sc = Facts({});
  sc.in_tests = true;
  l.Check(a, &sa);
  l.Check(b, &sb);
  l.Check(c, &sc);
  l.Finish();
  EXPECT_EQ(l.stats().records, 3);
  EXPECT_EQ(l.stats().user_records, 1);
  EXPECT_EQ(l.stats().user_with_example_fix, 1);
}

// Without facts (a JSON Lines file), test code is told by its path, in every language's
// convention: ollama's `server/routes_test.go` had counted as user records.
TEST(ProseLint, TestFilesByPathWithoutFacts) {
  doc::ProseLinter l;
  for (const char* path : {"server/routes_test.go", "src/test/java/a/BTest.java", "pkg/testdata/x.go", "web/__tests__/a.js",
                           "tests/test_a.py", "pkg/conftest.py", "server/routes.go", "src/main/java/a/B.java"}) {
    Record r = Rec("m");
    r.file_path = path;
    l.Check(r, nullptr);
  }
  l.Finish();
  EXPECT_EQ(l.stats().records, 8);
  EXPECT_EQ(l.stats().user_records, 2);
}

}  // namespace
}  // namespace errdex
