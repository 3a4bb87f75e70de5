// `errdex check` end to end on the seeds: a program built around the three
// seed records (tests/check/seed_tree.py), with its flags defined both ways
// (plain argparse, generated from dataclass fields), scanned into a catalog;
// then the real binary is asked about command lines, and the real program is
// run under python3 on the same command lines for the ground truth.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../e2e_util.h"

namespace {

using errdex::e2e::Quote;
using errdex::e2e::ReadFile;
using errdex::e2e::TempDir;
using errdex::e2e::WriteFile;
using Json = nlohmann::json;

const std::string kBin = ERRDEX_BINARY;
const std::string kSha = "0132848349585cfe6aae51c4941cbae872505f8a";

struct Result {
  int rc = -1;
  std::string out, err;
};

Result Sh(const std::string& dir, const std::string& cmd) {
  static int n = 0;
  std::string base = dir + "/sh" + std::to_string(n++);
  int st = std::system((cmd + " >" + base + ".out 2>" + base + ".err").c_str());
  Result r;
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = ReadFile(base + ".out");
  r.err = ReadFile(base + ".err");
  return r;
}

// A seed's record: its file, line and message (the seeds' ids come from another
// generator; errdex's own ids are checked by the scan tests).
struct Seed {
  std::string file, message;
  int line = 0;
};

Seed SeedId(const std::string& prefix) {
  for (const char* name : {"000_6372fd8a0e5af399.txt", "001_aeab84cad267806c.txt", "003_244498f5241e1ac1.txt"})
    if (std::string(name).rfind(prefix, 0) == 0) {
      Json r = Json::parse(ReadFile(std::string(ERRDEX_SHARED_DIR) + "/seeds/" + name))["record"];
      return {r["filePath"].get<std::string>(), r["errorMessage"].get<std::string>(), r["lineNumber"].get<int>()};
    }
  return {};
}

bool IsSeed(const Json& finding, const Seed& s) {
  return finding["filePath"] == s.file && finding["lineNumber"] == s.line && finding["errorMessage"] == s.message;
}

struct Checked {
  int rc = -1;
  std::vector<Json> will, may, usage;
  Json begin, end;
  std::string err;
  bool Will(const Seed& s) const {
    for (const Json& w : will)
      if (IsSeed(w, s)) return true;
    return false;
  }
  bool May(const Seed& s) const {
    for (const Json& w : may)
      if (IsSeed(w, s)) return true;
    return false;
  }
  const Json* Find(const Seed& s) const {
    for (const auto* list : {&will, &may})
      for (const Json& w : *list)
        if (IsSeed(w, s)) return &w;
    return nullptr;
  }
};

// One catalog per flag style, built once.
class Trees {
 public:
  static Trees& Get() {
    static Trees t;
    return t;
  }
  std::string Db(const std::string& style) const { return dir_ / (style + ".db"); }
  std::string Root(const std::string& style) const { return dir_ / style; }
  const std::string& dir() const { return dir_.path(); }

 private:
  Trees() {
    for (std::string style : {"argparse", "dataclass"}) {
      std::string make = "python3 " + Quote(std::string(ERRDEX_SOURCE_DIR) + "/tests/check/seed_tree.py") + " " +
                         Quote(std::string(ERRDEX_SHARED_DIR) + "/seeds") + " " + Quote(Root(style)) + " --style " + style;
      Result m = Sh(dir_.path(), make);
      EXPECT_EQ(m.rc, 0) << m.err;
      Result s = Sh(dir_.path(), Quote(kBin) + " scan " + Quote(Root(style)) + " --repo sgl-project/sglang --sha " + kSha +
                                  " --db " + Quote(Db(style)) + " -q");
      EXPECT_EQ(s.rc, 0) << s.err;
    }
  }
  TempDir dir_;
};

Checked Check(const std::string& style, const std::string& options, const std::string& command) {
  Result r = Sh(Trees::Get().dir(), Quote(kBin) + " check --json --no-environ --db " + Quote(Trees::Get().Db(style)) + " " +
                                     options + " -- " + command);
  Checked c;
  c.rc = r.rc;
  c.err = r.err;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    Json j = Json::parse(line, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << line;
    if (j.is_discarded()) continue;
    std::string type = j["type"];
    if (type == "will") c.will.push_back(j["data"]);
    else if (type == "may") c.may.push_back(j["data"]);
    else if (type == "usage") c.usage.push_back(j["data"]);
    else if (type == "begin") c.begin = j["data"];
    else if (type == "end") c.end = j["data"];
  }
  return c;
}

// The real program, run by python3 from the tree (FAKE_GPU_CAP_FILE unset: no SM100 GPU).
Result RunProgram(const std::string& style, const std::string& args) {
  return Sh(Trees::Get().dir(), "cd " + Quote(Trees::Get().Root(style) + "/python") +
                                    " && env -u FAKE_GPU_CAP_FILE python3 -m sglang.launch_server " + args);
}

const std::string kServer = "python -m sglang.launch_server";
// Seed 000's exampleFix, in the context the error needs (an a2a backend of deepep).
const std::string kA2a = "--moe-a2a-backend deepep ";
const std::string k000Before = kA2a + "--moe-runner-backend flashinfer_cutedsl --deepep-mode normal";
const std::string k000After = kA2a + "--moe-runner-backend flashinfer_cutedsl --deepep-mode low_latency";
const std::string k000Auto = kA2a + "--moe-runner-backend flashinfer_cutedsl --deepep-mode auto";
const std::string k001Before = "--quantization nvfp4_online --moe-runner-backend triton";
const std::string k001After = "--quantization nvfp4_online --moe-runner-backend flashinfer_trtllm";
const std::string k003 = "--quantization fp8 --model-path /models/DeepSeek-V4-FP4";

class SeedCheck : public ::testing::TestWithParam<std::string> {};

TEST_P(SeedCheck, Seed000TriggerWillRaiseTheSeedsRecord) {
  Checked c = Check(GetParam(), "", kServer + " " + k000Before);
  EXPECT_EQ(c.rc, 1) << c.err;
  ASSERT_TRUE(c.Will(SeedId("000"))) << c.err;
  const Json* w = c.Find(SeedId("000"));
  EXPECT_EQ((*w)["filePath"], "python/sglang/srt/server_args.py");
  EXPECT_EQ((*w)["lineNumber"], 7677);
  EXPECT_EQ((*w)["errorClass"], "ValueError");
  std::string decided = (*w)["decidedBy"].dump();
  EXPECT_NE(decided.find("--deepep-mode normal"), std::string::npos) << decided;
  EXPECT_NE(decided.find("--moe-runner-backend flashinfer_cutedsl"), std::string::npos) << decided;
  EXPECT_FALSE((*w)["solutions"].empty());
  EXPECT_EQ(c.will.size(), 1u);
  // Ground truth: the program raises exactly this error at that line.
  Result real = RunProgram(GetParam(), k000Before);
  EXPECT_NE(real.rc, 0);
  EXPECT_NE(real.err.find("server_args.py\", line 7677"), std::string::npos) << real.err;
  EXPECT_NE(real.err.find("flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency"), std::string::npos);
}

TEST_P(SeedCheck, Seed000FixAndAutoAreNotRaised) {
  for (const std::string& args : {k000After, k000Auto}) {
    Checked c = Check(GetParam(), "", kServer + " " + args);
    EXPECT_EQ(c.rc, 0) << args << "\n" << c.err;
    EXPECT_TRUE(c.will.empty()) << args;
    EXPECT_FALSE(c.May(SeedId("000"))) << args;
    Result real = RunProgram(GetParam(), args);
    EXPECT_EQ(real.rc, 0) << real.err;
    EXPECT_NE(real.out.find("server ready"), std::string::npos);
  }
}

TEST_P(SeedCheck, Seed001TriggerWillAndFixIsNot) {
  Checked before = Check(GetParam(), "", kServer + " " + k001Before);
  EXPECT_EQ(before.rc, 1);
  ASSERT_TRUE(before.Will(SeedId("001"))) << before.err;
  const Json* w = before.Find(SeedId("001"));
  EXPECT_EQ((*w)["lineNumber"], 2750);
  // The SM100 check before it depends on the GPU: MAY, and says why.
  bool hardware = false;
  for (const Json& m : before.may)
    for (const Json& d : m["dependsOn"]) hardware = hardware || d["category"] == "hardware";
  EXPECT_TRUE(hardware) << before.may.size();
  Checked after = Check(GetParam(), "", kServer + " " + k001After);
  EXPECT_EQ(after.rc, 0);
  EXPECT_TRUE(after.will.empty());
  EXPECT_FALSE(after.May(SeedId("001")));
  // Ground truth, on a machine with an SM100 GPU (the capability file says 100).
  WriteFile(Trees::Get().dir() + "/cap100", "100\n");
  Result real = Sh(Trees::Get().dir(), "cd " + Quote(Trees::Get().Root(GetParam()) + "/python") + " && FAKE_GPU_CAP_FILE=" +
                                        Quote(Trees::Get().dir() + "/cap100") + " python3 -m sglang.launch_server " + k001Before);
  EXPECT_NE(real.err.find("overrides.py\", line 2750"), std::string::npos) << real.err;
  Result fixed = Sh(Trees::Get().dir(), "cd " + Quote(Trees::Get().Root(GetParam()) + "/python") + " && FAKE_GPU_CAP_FILE=" +
                                         Quote(Trees::Get().dir() + "/cap100") + " python3 -m sglang.launch_server " + k001After);
  EXPECT_EQ(fixed.rc, 0) << fixed.err;
  // With the GPU stated, the SM100 check is decided too.
  Checked sm100 = Check(GetParam(), "--assume 'is_sm100_supported()=True'", kServer + " " + k001After);
  EXPECT_TRUE(sm100.may.empty());
  EXPECT_EQ(sm100.rc, 0);
}

TEST_P(SeedCheck, Seed003DependsOnTheInstalledTorchUnlessStated) {
  Checked c = Check(GetParam(), "", kServer + " " + k003);
  EXPECT_EQ(c.rc, 0);
  ASSERT_TRUE(c.May(SeedId("003"))) << c.err;
  std::string deps = c.Find(SeedId("003"))->at("dependsOn").dump();
  EXPECT_NE(deps.find("installed package"), std::string::npos) << deps;
  EXPECT_NE(deps.find("getattr(torch, 'float4_e2m1fn_x2', None)"), std::string::npos) << deps;
  EXPECT_NE(deps.find("model config"), std::string::npos) << deps;
  // The model and the torch build stated: WILL. A torch with the dtype: nothing.
  std::string model = "--assume \"self.model_config.get('model_type')=deepseek_v4\" --assume \"self.model_config.get('expert_dtype')=fp4\" ";
  Checked old_torch = Check(GetParam(), model + "--assume \"getattr(torch, 'float4_e2m1fn_x2', None)=None\"", kServer + " " + k003);
  EXPECT_EQ(old_torch.rc, 1);
  EXPECT_TRUE(old_torch.Will(SeedId("003")));
  Checked new_torch = Check(GetParam(), model + "--assume \"getattr(torch, 'float4_e2m1fn_x2', None)=torch.float4_e2m1fn_x2\"",
                            kServer + " " + k003);
  EXPECT_EQ(new_torch.rc, 0);
  EXPECT_FALSE(new_torch.Find(SeedId("003")));
  // Not on the fp8 path: not reached at all.
  Checked other = Check(GetParam(), "", kServer + " --quantization awq");
  EXPECT_FALSE(other.Find(SeedId("003")));
}

TEST_P(SeedCheck, DefaultsOnlyWillRaiseNothing) {
  Checked c = Check(GetParam(), "", kServer);
  EXPECT_EQ(c.rc, 0) << c.err;
  EXPECT_TRUE(c.will.empty());
  EXPECT_TRUE(c.usage.empty());
  Result real = RunProgram(GetParam(), "");
  EXPECT_EQ(real.rc, 0) << real.err;
}

TEST_P(SeedCheck, BothFlagFormsAndPrefixesParseAlike) {
  for (const std::string& args : {std::string("--moe-a2a-backend=deepep --moe-runner-backend=flashinfer_cutedsl --deepep-mode=normal"),
                                  std::string("--moe-a2a deepep --moe-runner flashinfer_cutedsl --deepep normal")}) {
    Checked c = Check(GetParam(), "", kServer + " " + args);
    EXPECT_TRUE(c.Will(SeedId("000"))) << args;
    EXPECT_TRUE(c.usage.empty()) << args << ": " << (c.usage.empty() ? "" : c.usage[0].dump());
    Result real = RunProgram(GetParam(), args);
    EXPECT_NE(real.err.find("line 7677"), std::string::npos) << args << real.err;
  }
}

TEST_P(SeedCheck, UsageErrorsAreArgparsesOwnAndTheRestIsStillChecked) {
  // Each line: check's first usage message must be the program's own "error:" line.
  for (std::string args : {"--deepep-mode bogus", "--tp-size x1", "--no-such-flag 3", "--moe", "--deepep-mode",
                                  "--model-path 'a b' extra"}) {
    Checked c = Check(GetParam(), "", kServer + " " + args);
    Result real = RunProgram(GetParam(), args);
    EXPECT_EQ(real.rc, 2) << args << real.err;
    std::string want;
    std::istringstream in(real.err);
    for (std::string line; std::getline(in, line);)
      if (line.find(": error: ") != std::string::npos) want = line.substr(line.find(": error: ") + 9);
    ASSERT_FALSE(c.usage.empty()) << args;
    EXPECT_EQ(c.usage[0]["message"], want) << args;
    EXPECT_EQ(c.rc, 1) << args;
  }
  // An unknown flag does not stop the rest from being checked.
  Checked c = Check(GetParam(), "", kServer + " --no-such-flag 3 " + k000Before);
  ASSERT_FALSE(c.usage.empty());
  EXPECT_EQ(c.usage[0]["message"], "unrecognized arguments: --no-such-flag 3");
  EXPECT_TRUE(c.Will(SeedId("000")));
}

TEST_P(SeedCheck, EntryPointsByModuleScriptAndConsoleScript) {
  for (std::string cmd : {"python3 python/sglang/launch_server.py", "/usr/bin/python3.11 -u -m sglang.launch_server",
                                 "sglang-serve", "FOO=1 env -u BAR python -m sglang.launch_server"}) {
    Checked c = Check(GetParam(), "", cmd + " " + k000Before);
    EXPECT_EQ(c.rc, 1) << cmd << "\n" << c.err;
    EXPECT_TRUE(c.Will(SeedId("000"))) << cmd;
  }
}

TEST_P(SeedCheck, SetOverridesAFlagOrAnEnvironmentVariable) {
  Checked c = Check(GetParam(), "--set deepep_mode=normal --set moe-runner-backend=flashinfer_cutedsl", kServer + " " + kA2a);
  EXPECT_TRUE(c.Will(SeedId("000"))) << c.err;
  std::string decided = c.Find(SeedId("000"))->at("decidedBy").dump();
  EXPECT_NE(decided.find("(--set)"), std::string::npos) << decided;
  Checked bad = Check(GetParam(), "--set no_such_setting=1", kServer);
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("no_such_setting"), std::string::npos);
  Checked bad_value = Check(GetParam(), "--set deepep_mode=bogus", kServer);
  EXPECT_EQ(bad_value.rc, 2);
  EXPECT_NE(bad_value.err.find("invalid choice: 'bogus'"), std::string::npos) << bad_value.err;
}

INSTANTIATE_TEST_SUITE_P(Styles, SeedCheck, ::testing::Values("argparse", "dataclass"));

TEST(CheckBadInput, UnknownProgramNoCatalogAndNoFacts) {
  const std::string db = Trees::Get().Db("argparse");
  Checked c = Check("argparse", "", "python -m nosuch.module --x 1");
  EXPECT_EQ(c.rc, 2);
  EXPECT_NE(c.err.find("no scan in the catalog holds the module `nosuch.module`"), std::string::npos) << c.err;
  Checked script = Check("argparse", "", "some-tool --x 1");
  EXPECT_EQ(script.rc, 2);
  EXPECT_NE(script.err.find("console script `some-tool`"), std::string::npos) << script.err;
  Checked inline_code = Check("argparse", "", "python -c 'print(1)'");
  EXPECT_EQ(inline_code.rc, 2);
  Checked other_repo = Check("argparse", "--repo someone/else", kServer);
  EXPECT_EQ(other_repo.rc, 2);
  TempDir d;
  Result missing = Sh(d.path(), Quote(kBin) + " check --db " + Quote(d / "none.db") + " -- " + kServer);
  EXPECT_EQ(missing.rc, 2);
  Result no_cmd = Sh(d.path(), Quote(kBin) + " check --db " + Quote(db));
  EXPECT_EQ(no_cmd.rc, 2);
  // A catalog scanned without the document stage has no check facts: say so.
  Result scan = Sh(d.path(), Quote(kBin) + " scan " + Quote(Trees::Get().Root("argparse")) + " --repo sgl-project/sglang --sha " +
                              kSha + " --no-docs --db " + Quote(d / "nodocs.db") + " -q");
  ASSERT_EQ(scan.rc, 0) << scan.err;
  Result nofacts = Sh(d.path(), Quote(kBin) + " check --db " + Quote(d / "nodocs.db") + " -- " + kServer);
  EXPECT_EQ(nofacts.rc, 2);
  EXPECT_NE(nofacts.err.find("--no-docs"), std::string::npos) << nofacts.err;
}

// A commit scanned after its parent is in the catalog reuses the stored files'
// sites for check's section (store/unit.h DecodeSiteRefs): what check answers
// must be what a catalog scanned from nothing answers.
TEST(CheckIncremental, AScanAfterItsParentAnswersAsAColdScan) {
  TempDir d;
  const std::string repo = d / "repo";
  std::string git = "git -C " + Quote(repo) + " -c user.name=t -c user.email=t@example.com ";
  Result made = Sh(d.path(), "cp -r " + Quote(Trees::Get().Root("argparse")) + " " + Quote(repo) + " && git init -q " +
                                 Quote(repo) + " && " + git + "add -A && " + git + "commit -qm one");
  ASSERT_EQ(made.rc, 0) << made.err;
  // The second commit changes one file the check section reads, not the site's.
  const std::string changed = repo + "/python/sglang/launch_server.py";
  WriteFile(changed, ReadFile(changed) + "\n\ndef later(x):\n    raise KeyError(\"later %s\" % x)\n");
  Result edit = Sh(d.path(), git + "commit -qam two");
  ASSERT_EQ(edit.rc, 0) << edit.err;
  const std::string scan = Quote(kBin) + " scan " + Quote(repo) + " --repo sgl-project/sglang -q --rev ";
  ASSERT_EQ(Sh(d.path(), scan + "HEAD~1 --db " + Quote(d / "inc.db")).rc, 0);
  Result inc = Sh(d.path(), scan + "HEAD --db " + Quote(d / "inc.db"));
  ASSERT_EQ(inc.rc, 0) << inc.err;
  Result cold = Sh(d.path(), scan + "HEAD --db " + Quote(d / "cold.db"));
  ASSERT_EQ(cold.rc, 0) << cold.err;
  std::string head = Sh(d.path(), "git -C " + Quote(repo) + " rev-parse HEAD").out.substr(0, 40);
  for (const std::string& args : {k000Before, k001Before, k003, std::string()}) {
    std::string check = Quote(kBin) + " check --json --no-environ --sha " + head + " --db ";
    Result a = Sh(d.path(), check + Quote(d / "inc.db") + " -- " + kServer + " " + args);
    Result b = Sh(d.path(), check + Quote(d / "cold.db") + " -- " + kServer + " " + args);
    EXPECT_EQ(a.rc, b.rc) << args;
    EXPECT_EQ(a.out, b.out) << args;
    EXPECT_NE(a.out.find("\"type\":\"end\""), std::string::npos) << a.err;
  }
  // And the first command line does raise the seed's error: the section is not empty.
  Result will = Sh(d.path(), Quote(kBin) + " check --json --no-environ --sha " + head + " --db " + Quote(d / "inc.db") +
                                 " -- " + kServer + " " + k000Before);
  EXPECT_NE(will.out.find("\"type\":\"will\""), std::string::npos) << will.out << will.err;
}

TEST(CheckBadInput, EnvFileSetAndAssumeSyntax) {
  TempDir d;
  WriteFile(d / "bad.env", "THIS IS NOT AN ASSIGNMENT\n");
  Checked c = Check("argparse", "--env-file " + Quote(d / "bad.env"), kServer);
  EXPECT_EQ(c.rc, 2);
  EXPECT_NE(c.err.find("bad.env:1"), std::string::npos) << c.err;
  WriteFile(d / "good.env", "# comment\nexport SGLANG_USE_AITER=0\nOTHER='x y'\n\n");
  EXPECT_EQ(Check("argparse", "--env-file " + Quote(d / "good.env"), kServer).rc, 0);
  EXPECT_EQ(Check("argparse", "--env-file " + Quote(d / "missing.env"), kServer).rc, 2);
  EXPECT_EQ(Check("argparse", "--set novalue", kServer).rc, 2);
  EXPECT_EQ(Check("argparse", "--assume 'is_sm100_supported()'", kServer).rc, 2);
  EXPECT_EQ(Check("argparse", "--assume 'is_sm100_supported((=1'", kServer).rc, 2);
}

TEST(CheckOutput, TextColourAndJson) {
  const std::string db = Trees::Get().Db("argparse");
  TempDir d;
  Result plain = Sh(d.path(), Quote(kBin) + " check --db " + Quote(db) + " -- " + kServer + " " + k000Before);
  EXPECT_EQ(plain.rc, 1);
  EXPECT_EQ(plain.out.find("\x1b["), std::string::npos);
  EXPECT_NE(plain.out.find("WILL  ValueError: flashinfer_cutedsl FP4 MoE"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("python/sglang/srt/server_args.py:7677"), std::string::npos);
  EXPECT_NE(plain.out.find("decided by: --moe-a2a-backend deepep, --moe-runner-backend flashinfer_cutedsl, --deepep-mode normal"),
            std::string::npos)
      << plain.out;
  Result color = Sh(d.path(), Quote(kBin) + " check --color=always --db " + Quote(db) + " -- " + kServer + " " + k000Before);
  EXPECT_NE(color.out.find("\x1b["), std::string::npos);
  Result no_color = Sh(d.path(), "NO_COLOR=1 " + Quote(kBin) + " check --db " + Quote(db) + " -- " + kServer + " " + k000Before);
  EXPECT_EQ(no_color.out.find("\x1b["), std::string::npos);
  Checked j = Check("argparse", "", kServer + " " + k000Before);
  EXPECT_EQ(j.begin["entry"], "python/sglang/launch_server.py");
  EXPECT_EQ(j.begin["repo"], "sgl-project/sglang");
  EXPECT_EQ(j.end["will"], 1);
  EXPECT_EQ(j.end["exit"], 1);
  Result full = Sh(d.path(), "(" + Quote(kBin) + " check --db " + Quote(db) + " -- " + kServer + " " + k000Before + " > /dev/full)");
  EXPECT_EQ(full.rc, 2) << full.err;
}

}  // namespace
