// End-to-end tests of `errdex explain` and `errdex run`: the real binary, real
// catalogs (`errdex import` of seed-format JSON Lines, `errdex scan` of the
// Python standard library) and real tracebacks produced by running python3.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace {

namespace fs = std::filesystem;
const std::string kBin = ERRDEX_BINARY;

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

using errdex::e2e::Quote;

class ExplainE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "errdex_explain_e2e_XXXXXX").string();
    dir_ = mkdtemp(t.data());
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(File(name), std::ios::binary) << text;
  }
  // Runs a bash command line; stdout/stderr captured.
  RunResult Sh(const std::string& cmd) const {
    std::string full = "cd " + Quote(dir_) + " && { " + cmd + " ; } >" + Quote(File(".out")) + " 2>" + Quote(File(".err"));
    int st = std::system(("bash -c " + Quote(full)).c_str());
    RunResult r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = errdex::e2e::ReadFile(File(".out"));
    r.err = errdex::e2e::ReadFile(File(".err"));
    return r;
  }
  std::string SeedsJsonl() const {
    std::string all;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(std::string(ERRDEX_SHARED_DIR) + "/seeds")) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& p : files) {
      std::string s = errdex::e2e::ReadFile(p.string());
      while (!s.empty() && s.back() == '\n') s.pop_back();
      all += s + "\n";
    }
    return all;
  }
  std::vector<nlohmann::json> Hits(const std::string& out) const {
    std::vector<nlohmann::json> v;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line))
      if (!line.empty()) v.push_back(nlohmann::json::parse(line));
    return v;
  }
  // One seed-format line, written as a user would (prose fields null).
  static std::string Rec(const std::string& id, const std::string& cls, const std::string& msg,
                         const std::string& pat, const std::string& file, int line) {
    nlohmann::json r = {{"id", id}, {"repo", "python/cpython"}, {"slug", id}, {"errorCode", nullptr},
                        {"errorMessage", msg}, {"messagePattern", pat}, {"errorType", "exception"},
                        {"errorClass", cls}, {"httpStatus", nullptr}, {"severity", "error"}, {"filePath", file},
                        {"lineNumber", line}, {"sourceCode", ""}, {"sourceCodeStart", line},
                        {"sourceCodeEnd", line}, {"githubUrl", nullptr}, {"documentation", nullptr},
                        {"triggerScenarios", nullptr}, {"commonSituations", nullptr}, {"solutions", nullptr},
                        {"exampleFix", nullptr}, {"handlingStrategy", nullptr}, {"validationCode", nullptr},
                        {"typeGuard", nullptr}, {"tryCatchPattern", nullptr}, {"preventionTips", nullptr},
                        {"tags", nullptr}, {"backgroundTag", nullptr}, {"analyzedSha", std::string(40, 'd')},
                        {"analyzedAt", nullptr}, {"schemaVersion", 2}};
    return nlohmann::json{{"record", r}, {"datasetVersion", "2026-01-01T00:00:00.000Z"}}.dump() + "\n";
  }
  std::string dir_;
};

TEST_F(ExplainE2E, SeedsInLogsAndChainedTracebacks) {
  Write("seeds.jsonl", SeedsJsonl());
  ASSERT_EQ(Sh(kBin + " import seeds.jsonl --db c.db").code, 0);
  std::istringstream seeds(SeedsJsonl());
  std::string line;
  int n = 0;
  while (std::getline(seeds, line)) {
    auto rec = nlohmann::json::parse(line)["record"];
    std::string cls = rec["errorClass"], msg = rec["errorMessage"], file = rec["filePath"];
    std::string rel = file.substr(file.find("sglang/"));
    std::string p = "(EngineCore_DP0 pid=4242) ERROR 03-10 14:17:52 [core.py:601] ";
    std::string tb = "vllm-1  | INFO 03-10 14:17:50 [api_server.py:1] starting\r\n";
    tb += p + "EngineCore failed to start.\r\n";
    tb += p + "Traceback (most recent call last):\r\n";
    tb += p + "  File \"/opt/venv/lib/python3.12/site-packages/sglang/srt/entry.py\", line 5, in main\r\n";
    tb += p + "    cfg = load()\r\n";
    tb += p + "ImportError: cannot import name 'fp4' from 'torch'\r\n";
    tb += p + "\r\n";
    tb += p + "The above exception was the direct cause of the following exception:\r\n";
    tb += p + "\r\n";
    tb += p + "Traceback (most recent call last):\r\n";
    tb += p + "  File \"/opt/venv/lib/python3.12/site-packages/" + rel + "\", line 99999, in somewhere\r\n";
    tb += p + "    raise " + cls + "(\r\n";
    tb += p + "\x1b[31m" + cls + "\x1b[0m: " + msg + "\r\n";
    tb += "[rank0]: done\r\n";
    Write("tb.txt", tb);
    RunResult r = Sh(kBin + " explain --db c.db --json tb.txt");
    ASSERT_EQ(r.code, 0) << r.err;
    auto hits = Hits(r.out);
    ASSERT_FALSE(hits.empty());
    EXPECT_EQ(hits[0]["type"], "hit");
    EXPECT_EQ(hits[0]["data"]["recordId"], rec["id"]);
    EXPECT_EQ(hits[0]["data"]["exact"], true);
    EXPECT_EQ(hits[0]["data"]["fullMessage"], true);
    EXPECT_EQ(hits[0]["data"]["frameFile"], true);
    uint64_t b = hits[0]["data"]["span"]["begin"], e = hits[0]["data"]["span"]["end"];
    EXPECT_EQ(tb.substr(b, e - b), msg);
    // People's output: the class, file:line, permalink and explanation.
    RunResult people = Sh(kBin + " explain --db c.db --color=never < tb.txt");
    ASSERT_EQ(people.code, 0);
    EXPECT_NE(people.out.find(file + ":" + std::to_string(int(rec["lineNumber"]))), std::string::npos);
    EXPECT_NE(people.out.find(std::string(rec["githubUrl"])), std::string::npos);
    EXPECT_NE(people.out.find("Why: "), std::string::npos);
    ++n;
  }
  EXPECT_EQ(n, 3);
}

TEST_F(ExplainE2E, RealStdlibTracebacksAgainstAScannedStdlib) {
  // The json package of the python3 that produces the tracebacks below, wherever it is.
  RunResult where = Sh("python3 -c 'import json, os; print(os.path.dirname(json.__file__), end=\"\")'");
  if (where.code != 0) GTEST_SKIP() << "python3 is not installed";
  const std::string stdlib_json = where.out;
  ASSERT_TRUE(fs::is_directory(stdlib_json)) << stdlib_json;
  RunResult scan = Sh(kBin + " scan " + Quote(stdlib_json) + " --repo python/cpython --sha " + std::string(40, 'c') +
                      " --db std.db");
  ASSERT_EQ(scan.code, 0) << scan.err;
  struct Case {
    std::string program, file, cls;
  };
  std::vector<Case> cases = {
      {"import json; json.loads('')", "json/decoder.py", "JSONDecodeError"},           // Expecting value
      {"import json; json.loads('{')", "json/decoder.py", "JSONDecodeError"},          // property name
      {"import json; json.dumps(object())", "json/encoder.py", "TypeError"},           // not JSON serializable
      {"import json; json.loads(b'\\xef\\xbb\\xbf{}'.decode('utf-8'))", "json/__init__.py", "JSONDecodeError"},  // BOM
  };
  for (const Case& c : cases) {
    RunResult py = Sh("python3 -c " + Quote(c.program));
    ASSERT_NE(py.code, 0);
    ASSERT_NE(py.err.find("Traceback"), std::string::npos) << py.err;
    Write("real.txt", py.err);
    RunResult r = Sh(kBin + " explain --db std.db --json real.txt");
    ASSERT_EQ(r.code, 0) << c.program << "\n" << py.err << r.err;
    auto hits = Hits(r.out);
    ASSERT_FALSE(hits.empty());
    auto top = hits[0]["data"];
    EXPECT_EQ(top["exact"], true) << c.program;
    EXPECT_EQ(top["errorClass"], c.cls) << c.program;
    std::string fp = top["filePath"];
    // The scanned path is relative to the scan root (json/ or a repository above it).
    std::string base = c.file.substr(c.file.find('/') + 1);
    EXPECT_TRUE(fp.size() >= base.size() && fp.compare(fp.size() - base.size(), base.size(), base) == 0)
        << c.program << " -> " << fp;
    EXPECT_EQ(top["frameFile"], true) << c.program;
  }
  // The captured value of a real message.
  RunResult py = Sh("python3 -c " + Quote("import json; json.dumps({1, 2})"));
  Write("real.txt", py.err);
  RunResult r = Sh(kBin + " explain --db std.db --json real.txt");
  ASSERT_EQ(r.code, 0);
  auto top = Hits(r.out)[0]["data"];
  ASSERT_FALSE(top["captures"].empty()) << r.out;
  EXPECT_EQ(top["captures"][0]["text"], "set");
}

TEST_F(ExplainE2E, RealTracebacksAgainstAHandWrittenCatalog) {
  // Records for messages raised in C (no Python source to scan), written as a user would.
  auto rec = [this](const std::string& id, const std::string& cls, const std::string& msg, const std::string& pat,
                    const std::string& file, int line) { return Rec(id, cls, msg, pat, file, line); };
  std::string jsonl = rec("1000000000000001", "ValueError", "invalid literal for int() with base {base}: {value}",
                          "invalid literal for int\\(\\) with base (.*?): (.*?)", "Objects/longobject.c", 2500) +
                      rec("1000000000000002", "ZeroDivisionError", "division by zero", "division by zero",
                          "Objects/longobject.c", 3000) +
                      rec("1000000000000003", "ModuleNotFoundError", "No module named {name}", "No module named (.*?)",
                          "Python/import.c", 100) +
                      rec("1000000000000004", "KeyError", "{key}", "(.*?)", "Objects/dictobject.c", 1);
  Write("c.jsonl", jsonl);
  struct Case {
    std::string program, id;
    std::vector<std::string> captures;
  };
  std::vector<Case> cases = {
      {"int('12x')", "1000000000000001", {"10", "'12x'"}},
      {"def f(a):\n    return 1 / a\ntry:\n    f(0)\nexcept ZeroDivisionError as e:\n    raise RuntimeError('wrapped') from e",
       "1000000000000002", {}},
      {"import definitely_not_a_module_xyz", "1000000000000003", {"'definitely_not_a_module_xyz'"}},
  };
  for (const Case& c : cases) {
    RunResult py = Sh("python3 -c " + Quote(c.program));
    Write("real.txt", py.err);
    RunResult r = Sh(kBin + " explain --catalog c.jsonl --json --no-fuzzy real.txt");
    ASSERT_EQ(r.code, 0) << py.err << r.err;
    auto top = Hits(r.out)[0]["data"];
    EXPECT_EQ(top["recordId"], c.id) << py.err;
    std::vector<std::string> caps;
    for (const auto& cap : top["captures"]) caps.push_back(cap["text"]);
    EXPECT_EQ(caps, c.captures) << py.err;
  }
  // The all-hole pattern of 1000000000000004 is never a hit: a KeyError with no
  // other record matches nothing (exit 1), and the warning is not shown for it.
  RunResult py = Sh("python3 -c " + Quote("{}['k']"));
  Write("real.txt", py.err);
  RunResult r = Sh(kBin + " explain --catalog c.jsonl --json --no-fuzzy real.txt");
  EXPECT_EQ(r.code, 1) << r.out;
}

// Python prints a KeyError's message as a repr and an exception with several
// arguments as a tuple; the scanned record holds the first argument as written.
// Real tracebacks from a scanned module must still be full (exact) matches.
TEST_F(ExplainE2E, RealReprAndTuplePrintedMessages) {
  fs::create_directories(File("repo/pkg"));
  Write("repo/pkg/tables.py",
        "def lookup(table, k):\n"
        "    if k not in table:\n"
        "        raise KeyError(f\"missing key {k!r} in table\")\n"
        "    return table[k]\n"
        "\n"
        "def check(v):\n"
        "    raise RuntimeError(\"check failed for the value \", v)\n");
  RunResult scan = Sh(kBin + " scan repo --repo me/tables --sha " + std::string(40, 'e') + " --no-docs --db c.db");
  ASSERT_EQ(scan.code, 0) << scan.err;
  struct Case {
    std::string program, cls, capture;
  };
  for (const Case& c : std::vector<Case>{{"pkg.tables.lookup({}, 'fp4')", "KeyError", "'fp4'"},
                                         {"pkg.tables.check(42)", "RuntimeError", ""}}) {
    RunResult py = Sh("cd repo && python3 -c " + Quote("import pkg.tables\n" + c.program));
    ASSERT_NE(py.code, 0);
    Write("real.txt", py.err);
    RunResult r = Sh(kBin + " explain --db c.db --json --no-fuzzy real.txt");
    ASSERT_EQ(r.code, 0) << py.err << r.err;
    auto top = Hits(r.out)[0]["data"];
    EXPECT_EQ(top["errorClass"], c.cls) << py.err;
    EXPECT_EQ(top["fullMessage"], true) << py.err << r.out;
    EXPECT_EQ(top["frameFunction"], true) << py.err;
    if (!c.capture.empty()) {
      ASSERT_EQ(top["captures"].size(), 1u) << r.out;
      EXPECT_EQ(top["captures"][0]["text"], c.capture);
    }
  }
}

// A big catalog's first open compiles for seconds: stderr says so (one line when
// not a terminal), -q keeps it silent, and stdout stays clean for --json.
TEST_F(ExplainE2E, FirstCompileOfABigCatalogSaysSo) {
  std::string jsonl;
  for (int i = 0; i < 2100; ++i) {
    char id[17];
    std::snprintf(id, sizeof id, "%016x", 0x20000000 + i);
    std::string msg = "synthetic failure number " + std::to_string(i) + " of the compile notice test";
    jsonl += Rec(id, "RuntimeError", msg, msg, "pkg/m.py", 1 + i);
  }
  Write("big.jsonl", jsonl);
  Write("in.txt", "RuntimeError: synthetic failure number 7 of the compile notice test\n");
  RunResult r = Sh(kBin + " explain --catalog big.jsonl --json in.txt");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("compiling 2100 patterns"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("compiled in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("in memory only"), std::string::npos) << r.err;  // --catalog keeps nothing: no false promise
  EXPECT_EQ(Hits(r.out).size(), 1u);
  RunResult q = Sh(kBin + " explain --catalog big.jsonl --json -q in.txt");
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(q.err, "");
}

// --catalog takes one file each time (repeat it); the input FILE right after it is
// the input, not a third catalog.
TEST_F(ExplainE2E, RepeatedCatalogFlagsThenTheInputFile) {
  Write("a.jsonl", Rec("3000000000000001", "ValueError", "first catalog message here", "first catalog message here",
                       "pkg/a.py", 3));
  Write("b.jsonl", Rec("3000000000000002", "ValueError", "second catalog message here", "second catalog message here",
                       "pkg/b.py", 4));
  Write("in.txt", "ValueError: second catalog message here\n");
  RunResult r = Sh(kBin + " explain --catalog a.jsonl --catalog b.jsonl in.txt --json");
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(Hits(r.out).size(), 1u) << r.out;
  EXPECT_EQ(Hits(r.out)[0]["data"]["recordId"], "3000000000000002");
}

TEST_F(ExplainE2E, ExitCodes) {
  Write("seeds.jsonl", SeedsJsonl());
  ASSERT_EQ(Sh(kBin + " import seeds.jsonl --db c.db").code, 0);
  EXPECT_EQ(Sh("echo 'all good here' | " + kBin + " explain --db c.db --no-fuzzy").code, 1);
  EXPECT_EQ(Sh("echo 'x' | " + kBin + " explain --db missing.db").code, 2);
  EXPECT_EQ(Sh("echo 'x' | " + kBin + " explain").code, 2);
  EXPECT_EQ(Sh(kBin + " explain --db c.db no_such_file.txt").code, 2);
  EXPECT_EQ(Sh("echo x | " + kBin + " explain --db c.db --color=sometimes").code, 2);
  // Broken pipe: lots of output into `head -c 1` still exits 0.
  std::string msg = "RuntimeError: DeepSeek-V4 FP4 experts require torch.float4_e2m1fn_x2 support.\n";
  std::string big;
  while (big.size() < 8 * 1024 * 1024) big += msg + std::string(70000, 'y') + "\n";
  Write("big.txt", big);
  RunResult r = Sh("set -o pipefail; " + kBin + " explain --db c.db --json big.txt | head -c 1 >/dev/null");
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(ExplainE2E, FuzzyFallbackIsLabelledApproximate) {
  Write("seeds.jsonl", SeedsJsonl());
  ASSERT_EQ(Sh(kBin + " import seeds.jsonl --db c.db").code, 0);
  // A user's paraphrase in an issue title: reworded, capitalised, no class.
  Write("q.txt", "Deepseek V4 fp4 experts requires torch float4_e2m1fn_x2 support?\n");
  RunResult r = Sh(kBin + " explain --db c.db --json q.txt");
  ASSERT_EQ(r.code, 0) << r.err;
  auto top = Hits(r.out)[0]["data"];
  EXPECT_EQ(top["recordId"], "b28ec72109dfe879");
  EXPECT_EQ(top["approximate"], true);
  EXPECT_EQ(top["exact"], false);
  EXPECT_EQ(top["matchedBy"], "fuzzy");
  RunResult people = Sh(kBin + " explain --db c.db --color=never q.txt");
  EXPECT_NE(people.out.find("APPROXIMATE"), std::string::npos);
  EXPECT_EQ(Sh(kBin + " explain --db c.db --no-fuzzy q.txt").code, 1);
}

TEST_F(ExplainE2E, HostileInputs) {
  Write("seeds.jsonl", SeedsJsonl());
  ASSERT_EQ(Sh(kBin + " import seeds.jsonl --db c.db").code, 0);
  // 64 MiB of random bytes through a pipe: linear, nothing matches.
  {
    std::mt19937_64 rng(7);
    std::string rnd(64 * 1024 * 1024, '\0');
    for (size_t i = 0; i + 8 <= rnd.size(); i += 8) {
      uint64_t v = rng();
      std::memcpy(&rnd[i], &v, 8);
    }
    Write("random.bin", rnd);
  }
  RunResult r = Sh("cat random.bin | " + kBin + " explain --db c.db --no-fuzzy -");
  EXPECT_EQ(r.code, 1) << r.err;
  // --max-input stops early with a warning.
  r = Sh("cat random.bin | " + kBin + " explain --db c.db --no-fuzzy --max-input 1000000 -");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("limits hit: --max-input 1000000"), std::string::npos) << r.err;
  // A 10 MB single line with the message at its end.
  std::string line(10 * 1000 * 1000, 'z');
  line += " ValueError: --quantization nvfp4_online supports only --moe-runner-backend flashinfer_trtllm or "
          "flashinfer_trtllm_routed, or flashinfer_cutedsl.";
  Write("long.txt", line);
  r = Sh(kBin + " explain --db c.db --json long.txt");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Hits(r.out)[0]["data"]["recordId"], "51240749c376f000");
}

// Issue 15, L2/L3: a pattern that is not a regex is a broken record: `import` and
// `explain --catalog` reject it alike (they read with one class). Patterns that
// are regexes but unusable (too long, too generic) are kept, noted once by
// import, and warned about once, when the matcher is compiled -- not on every
// explain, and never with -q.
TEST_F(ExplainE2E, HostilePatternsImportedFromJsonLines) {
  std::string seeds = SeedsJsonl();
  auto first = nlohmann::json::parse(seeds.substr(0, seeds.find('\n')));
  std::string alternations;
  for (int i = 0; i < 100000; ++i) alternations += (i ? "|" : "") + std::string("w") + std::to_string(i);
  auto line = [&](int k, const std::string& pat) {
    auto l = first;
    l["record"]["id"] = "00000000000000f" + std::to_string(k);
    l["record"]["slug"] = "hostile-" + std::to_string(k);
    l["record"]["messagePattern"] = pat;
    return l.dump() + "\n";
  };
  const std::string usable = line(0, "(a+)+$") + line(2, alternations) + line(3, "evil prefix: (q+q+)+r") +
                             line(4, "a(.*?)b");
  Write("broken.jsonl", seeds + line(1, "bad regex ((( here") + usable);
  RunResult bad = Sh(kBin + " import broken.jsonl --db c.db");
  EXPECT_EQ(bad.code, 2);
  const std::string why = "broken.jsonl:4: record.messagePattern is not a regular expression: invalid regex";
  EXPECT_NE(bad.err.find(why), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(File("c.db")));
  RunResult bad_catalog = Sh(kBin + " explain --catalog broken.jsonl -q in.txt");
  EXPECT_EQ(bad_catalog.code, 2);
  EXPECT_NE(bad_catalog.err.find(why), std::string::npos) << bad_catalog.err;

  Write("all.jsonl", seeds + usable);
  RunResult imported = Sh(kBin + " import all.jsonl --db c.db");
  ASSERT_EQ(imported.code, 0) << imported.err;
  EXPECT_NE(imported.err.find("note: 3 record(s) have a messagePattern explain does not match by"), std::string::npos)
      << imported.err;
  Write("in.txt", "RuntimeError: DeepSeek-V4 FP4 experts require torch.float4_e2m1fn_x2 support.\nevil prefix: " +
                      std::string(40, 'q') + "s evil prefix: qqr\n");
  RunResult r = Sh(kBin + " explain --db c.db --json in.txt");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("max_pattern_bytes"), std::string::npos) << r.err;
  auto hits = Hits(r.out);
  ASSERT_GE(hits.size(), 2u);
  EXPECT_EQ(hits[0]["data"]["recordId"], "b28ec72109dfe879");
  EXPECT_EQ(hits[1]["data"]["recordId"], "00000000000000f3");
  // Second run loads the cached matcher: same answer, and the warning is not repeated.
  RunResult again = Sh(kBin + " explain --db c.db --json in.txt");
  EXPECT_EQ(again.out, r.out);
  EXPECT_EQ(again.err.find("warning"), std::string::npos) << again.err;
  // -q: no warnings even when the matcher is compiled.
  RunResult quiet = Sh(kBin + " explain --db c.db --json --rebuild -q in.txt");
  EXPECT_EQ(quiet.out, r.out);
  EXPECT_EQ(quiet.err, "");
  RunResult from_file = Sh(kBin + " explain --catalog all.jsonl --json -q in.txt");
  EXPECT_EQ(from_file.code, 0);
  EXPECT_EQ(from_file.err, "");
}

TEST_F(ExplainE2E, RunPassesOutputThroughAndExplainsFailures) {
  Write("seeds.jsonl", SeedsJsonl());
  ASSERT_EQ(Sh(kBin + " import seeds.jsonl --db c.db").code, 0);
  RunResult ok = Sh(kBin + " run --db c.db -- sh -c 'echo out; echo err >&2'");
  EXPECT_EQ(ok.code, 0);
  EXPECT_EQ(ok.out, "out\n");
  EXPECT_EQ(ok.err, "err\n");
  std::string prog =
      "import sys\nprint('loading model')\ndef _require_fp4_dtype():\n    raise RuntimeError("
      "'DeepSeek-V4 FP4 experts require torch.float4_e2m1fn_x2 support.')\n_require_fp4_dtype()";
  RunResult fail = Sh(kBin + " run --db c.db --color=never -- python3 -c " + Quote(prog));
  EXPECT_EQ(fail.code, 1);
  EXPECT_EQ(fail.out, "loading model\n");
  EXPECT_NE(fail.err.find("Traceback (most recent call last):"), std::string::npos);
  EXPECT_NE(fail.err.find("python/sglang/srt/layers/quantization/fp8.py:137"), std::string::npos) << fail.err;
  RunResult sig = Sh(kBin + " run --db c.db -- sh -c 'kill -9 $$'");
  EXPECT_EQ(sig.code, 137);
  RunResult code = Sh(kBin + " run --db c.db -- sh -c 'exit 3'");
  EXPECT_EQ(code.code, 3);
  EXPECT_NE(code.err.find("no catalog entry matched"), std::string::npos);
  EXPECT_EQ(Sh(kBin + " run --db c.db -- /nonexistent/program").code, 127);
}

}  // namespace
