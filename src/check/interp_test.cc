// The interpreter's semantics on small programs, built in memory as a scan
// builds them (front end -> sites; document stage -> settings map; program facts
// -> section), then checked through the library API (check.h).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "check/check.h"
#include "check/program.h"
#include "check/section.h"
#include "document/documenter.h"
#include "document/knowledge.h"
#include "extract/python/python_extractor.h"

namespace errdex::check {
namespace {

Section Build(const std::map<std::string, std::string>& files) {
  CheckFacts facts;
  std::vector<FileKnowledgePtr> knowledge;
  for (const auto& [path, text] : files) {
    PythonExtractResult ex = ExtractPython(path, text);
    std::vector<SiteRef> sites;
    for (const Site& s : ex.sites)
      sites.push_back({path + ":" + std::to_string(s.line), s.line, SiteKindName(s.kind), s.error_class.value_or("")});
    facts.files.push_back(StoreFile(path, text, sites));
    knowledge.push_back(CollectFileKnowledge(path, text));
  }
  auto repo = RepoKnowledge::Build(std::move(knowledge));
  auto section = ReadSection(WithCheckSection("", BuildSection(facts, &doc::AsIndex(*repo)->data())));
  EXPECT_TRUE(section.ok()) << section.status().ToString();
  return std::move(section.value());
}

struct Outcome {
  std::map<int, bool> sites;  // line -> will (true) / may (false)
  std::vector<std::string> usage;
  std::map<int, Finding> by_line;
};

Outcome Predict(const Section& s, std::vector<std::string> argv, CheckOptions opts = {}) {
  std::vector<std::string> cmd = {"python", "-m", "app"};
  cmd.insert(cmd.end(), argv.begin(), argv.end());
  auto c = ParseCommand(cmd);
  EXPECT_TRUE(c.ok());
  auto r = Check(s, *c, opts);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  Outcome o;
  if (!r.ok()) return o;
  o.usage = r->usage_errors;
  for (const Finding& f : r->findings) {
    o.sites[f.line] = f.will;
    o.by_line[f.line] = f;
  }
  return o;
}

// The program: app.py with an argparse parser, `body` as the checks in main()
// and `extra` (helpers) after main. L(text) is the line holding `text`.
struct App {
  Section s;
  std::string text;
  int L(const std::string& needle) const {
    size_t at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return 1 + (int)std::count(text.begin(), text.begin() + (long)at, '\n');
  }
};

App MakeApp(const std::string& body, const std::string& extra = "") {
  std::string text =
      "import argparse\nimport os\nimport sys\nimport torch\n"
      "\ndef parse(argv):\n"
      "    p = argparse.ArgumentParser()\n"
      "    p.add_argument('--mode', choices=['auto', 'fast', 'safe'], default='auto')\n"
      "    p.add_argument('--n', type=int, default=2)\n"
      "    p.add_argument('--flag', action='store_true')\n"
      "    p.add_argument('--name', default=None)\n"
      "    return p.parse_args(argv)\n"
      "\ndef main():\n"
      "    args = parse(sys.argv[1:])\n" +
      body +
      "    return 0\n" + extra +
      "\nif __name__ == '__main__':\n"
      "    main()\n";
  return {Build({{"app.py", text}}), text};
}

TEST(CheckInterp, ResolverRewritesAreSeenByLaterChecks) {
  App a = MakeApp(
      "    if args.mode == 'auto':\n"             // 16
      "        args.mode = 'fast'\n"              // 17
      "    if args.mode == 'auto':\n"             // 18
      "        raise ValueError('auto left')\n"   // 19
      "    if args.mode == 'fast' and args.n > 1:\n"  // 20
      "        raise ValueError('fast')\n");      // 21
  Outcome def = Predict(a.s, {});
  EXPECT_FALSE(def.sites.count(a.L("auto left")));  // the user's auto was rewritten
  ASSERT_TRUE(def.sites.count(a.L("'fast')")));
  EXPECT_TRUE(def.sites[a.L("'fast')")]);
  Outcome safe = Predict(a.s, {"--mode", "safe"});
  EXPECT_TRUE(safe.sites.empty());
}

TEST(CheckInterp, EarlierSiblingBranchesAreExclusive) {
  App a = MakeApp(
      "    if args.mode == 'auto':\n"
      "        args.mode = 'safe'\n"
      "    elif args.mode == 'safe':\n"
      "        raise ValueError('explicit safe')\n");
  EXPECT_TRUE(Predict(a.s, {}).sites.empty());  // auto becomes safe, but the elif was not taken
  Outcome explicit_safe = Predict(a.s, {"--mode=safe"});
  EXPECT_TRUE(explicit_safe.sites[a.L("explicit safe")]);
}

TEST(CheckInterp, AnEarlierReturnThatMayBeTakenMakesLaterSitesMay) {
  App a = MakeApp(
      "    if os.path.exists('/etc/app.conf'):\n"
      "        return 1\n"
      "    if args.flag:\n"
      "        raise ValueError('flag')\n");
  Outcome o = Predict(a.s, {"--flag"});
  ASSERT_TRUE(o.sites.count(a.L("'flag')")));
  EXPECT_FALSE(o.sites[a.L("'flag')")]);
  bool control = false;
  for (const Unknown& u : o.by_line[a.L("'flag')")].depends) control = control || u.category == "control flow";
  EXPECT_TRUE(control);
  EXPECT_TRUE(Predict(a.s, {}).sites.empty());
}

TEST(CheckInterp, ExitEndsTheRun) {
  App a = MakeApp(
      "    if args.flag:\n"
      "        sys.exit(0)\n"
      "    if args.n == 2:\n"
      "        raise ValueError('n')\n");
  EXPECT_TRUE(Predict(a.s, {}).sites[a.L("'n')")]);
  EXPECT_TRUE(Predict(a.s, {"--flag"}).sites.empty());
}

TEST(CheckInterp, HandlersThatCatchTheClassHideTheSite) {
  App a = MakeApp(
      "    try:\n"
      "        if args.flag:\n"
      "            raise ValueError('caught')\n"
      "    except ValueError:\n"
      "        pass\n"
      "    try:\n"
      "        if args.flag:\n"
      "            raise KeyError('not caught')\n"
      "    except ValueError:\n"
      "        pass\n");
  Outcome o = Predict(a.s, {"--flag"});
  EXPECT_FALSE(o.sites.count(a.L("'caught'")));
  ASSERT_TRUE(o.sites.count(a.L("not caught")));
  EXPECT_TRUE(o.sites[a.L("not caught")]);
}

TEST(CheckInterp, LoopsOverLiteralListsAndHelpersWithParameters) {
  App a = MakeApp(
      "    for key in ('n', 'mode'):\n"
      "        if getattr(args, key) == 5:\n"
      "            raise ValueError('five')\n"
      "    require_small('--n', args.n)\n",
      "\ndef require_small(name, value):\n    if value > 3:\n        raise ValueError(name + ' too big')\n    return value\n");
    Outcome five = Predict(a.s, {"--n", "5"});
  EXPECT_TRUE(five.sites[a.L("'five'")]);
  EXPECT_TRUE(five.sites[a.L("too big")]);  // the helper's raise, through its parameter
  Outcome two = Predict(a.s, {});
  EXPECT_TRUE(two.sites.empty());
}

TEST(CheckInterp, EnvironmentVariables) {
  App a = MakeApp(
      "    if os.environ.get('APP_STRICT', '0') == '1' and args.mode == 'fast':\n"
      "        raise RuntimeError('strict')\n"
      "    if 'APP_LEGACY' in os.environ:\n"
      "        raise RuntimeError('legacy')\n");
  CheckOptions strict;
  strict.env = {{"APP_STRICT", "1"}};
  Outcome o = Predict(a.s, {"--mode", "fast"}, strict);
  EXPECT_TRUE(o.sites[a.L("'strict'")]);
  std::string decided;
  for (const auto& d : o.by_line[a.L("'strict'")].decided_by) decided += d + ";";
  EXPECT_NE(decided.find("APP_STRICT=1"), std::string::npos) << decided;
  EXPECT_TRUE(Predict(a.s, {"--mode", "fast"}).sites.empty());
  CheckOptions legacy;
  legacy.env = {{"APP_LEGACY", ""}};
  EXPECT_TRUE(Predict(a.s, {}, legacy).sites[a.L("'legacy'")]);
  CheckOptions set;
  set.set = {{"APP_STRICT", "1"}, {"mode", "fast"}};
  EXPECT_TRUE(Predict(a.s, {}, set).sites[a.L("'strict'")]);
}

TEST(CheckInterp, RunTimeValuesAreMayWithTheirReason) {
  App a = MakeApp(
      "    if args.mode == 'fast' and not torch.cuda.is_available():\n"
      "        raise RuntimeError('fast needs a GPU')\n"
      "    if args.mode == 'safe' and not torch.cuda.is_available():\n"
      "        raise RuntimeError('never: mode is fast')\n");
  Outcome o = Predict(a.s, {"--mode", "fast"});
  ASSERT_EQ(o.sites.count(a.L("needs a GPU")), 1u);
  EXPECT_FALSE(o.sites[a.L("needs a GPU")]);
  ASSERT_FALSE(o.by_line[a.L("needs a GPU")].depends.empty());
  EXPECT_EQ(o.by_line[a.L("needs a GPU")].depends[0].category, "hardware");
  EXPECT_FALSE(o.sites.count(a.L("never: mode")));
  CheckOptions gpu;
  gpu.assume = {{"torch.cuda.is_available()", "False"}};
  EXPECT_TRUE(Predict(a.s, {"--mode", "fast"}, gpu).sites[a.L("needs a GPU")]);
}

TEST(CheckInterp, FunctionsTheLaunchDoesNotCallAreMayWhenASettingDecides) {
  App a = MakeApp("",
                  "\ndef on_request(args):\n    if args.mode == 'fast':\n        raise ValueError('fast on request')\n"
                  "    return None\n");
  Outcome fast = Predict(a.s, {"--mode", "fast"});
  ASSERT_TRUE(fast.sites.count(a.L("fast on request")));
  EXPECT_FALSE(fast.sites[a.L("fast on request")]);
  EXPECT_TRUE(fast.by_line[a.L("fast on request")].detached);
  EXPECT_TRUE(Predict(a.s, {}).sites.empty());  // decided false even there
}

TEST(CheckInterp, AssertsAndPythonO) {
  App a = MakeApp("    assert args.n != 7, 'seven'\n");
  EXPECT_TRUE(Predict(a.s, {"--n", "7"}).sites[a.L("assert")]);
  EXPECT_TRUE(Predict(a.s, {}).sites.empty());
  auto c = ParseCommand({"python", "-O", "-m", "app", "--n", "7"});
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->assertions);
  auto r = Check(a.s, *c, {});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->findings.empty());
}

TEST(CheckInterp, UsageErrorsAndUnknownFlags) {
  App a = MakeApp("    if args.mode == 'fast':\n        raise ValueError('fast')\n");
  Outcome o = Predict(a.s, {"--mode", "quick", "--extra"});
  ASSERT_EQ(o.usage.size(), 2u);
  EXPECT_EQ(o.usage[0], "argument --mode: invalid choice: 'quick' (choose from 'auto', 'fast', 'safe')");
  EXPECT_EQ(o.usage[1], "unrecognized arguments: --extra");
  Outcome rest = Predict(a.s, {"--bogus", "--mode", "fast"});
  EXPECT_TRUE(rest.sites[a.L("'fast')")]);  // the rest is still checked
}

TEST(CheckInterp, HostileProgramsEndWithinTheLimits) {
  // Unbounded recursion, a loop that never ends, huge literals: bounded, no crash.
  std::string body =
      "    rec(args.n)\n"
      "    while True:\n"
      "        args.n += 1\n"
      "        if args.n > 10 ** 30:\n"
      "            break\n"
      "    if args.flag:\n"
      "        raise ValueError('after')\n";
  App a = MakeApp(body, "\ndef rec(n):\n    return rec(n + 1)\n");
  Outcome o = Predict(a.s, {"--flag"});
  EXPECT_TRUE(o.sites.count(a.L("'after'")));
}

TEST(CheckInterp, APackageImportingANameFromItselfResolves) {
  // sglang's models/__init__.py imports its own submodules by absolute name: resolving the
  // import looked the name up in the package, which resolved the same import again (a stack
  // overflow on the real repository).
  std::string app =
      "import argparse\nfrom pkg import sub\n"
      "\ndef main():\n"
      "    p = argparse.ArgumentParser()\n"
      "    p.add_argument('--flag', action='store_true')\n"
      "    args = p.parse_args()\n"
      "    sub.f(args.flag)\n"
      "\nif __name__ == '__main__':\n"
      "    main()\n";
  std::string sub = "def f(flag):\n    if flag:\n        raise ValueError('from sub')\n";
  Section s = Build({{"app.py", app}, {"pkg/__init__.py", "from pkg import sub\nfrom . import sub as again\n"},
                     {"pkg/sub.py", sub}});
  Outcome o = Predict(s, {"--flag"});
  ASSERT_TRUE(o.sites.count(3));
  EXPECT_TRUE(o.sites[3]);
  EXPECT_TRUE(Predict(s, {}).sites.empty());
}

// ReadSectionFiles (an incremental scan's copy of the previous section) finds
// the same files and entries as ReadSection, a path with escapes included, and
// refuses what ReadSection refuses.
TEST(CheckSection, FilesAloneReadAsTheWholeSection) {
  std::string blob = std::string("{\"check\":{\"version\":2,\"flags\":7,\"envs\":[],\"scripts\":[],\"files\":[") +
                     "{\"path\":\"b.py\",\"src\":\"\",\"sites\":[]}," +
                     "{\"path\":\"d\\u00e9j\\u00e0/a \\\"q\\\".py\",\"src\":\"\",\"sites\":[]}," +
                     "{\"path\":\"a.py\",\"src\":\"\",\"sites\":[]}]},\"settings\":{}}";
  auto files = ReadSectionFiles(blob);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(files->paths, (std::vector<std::string>{"a.py", "b.py", "d\u00e9j\u00e0/a \"q\".py"}));
  EXPECT_TRUE(files->flags.empty());  // not read (ReadSection refuses this flag table)
  EXPECT_FALSE(ReadSection(blob).ok());
  std::string good = blob;
  good.replace(good.find("7"), 1, "[]");
  auto whole = ReadSection(good);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_EQ(whole->paths, files->paths);
  for (int i = 0; i < static_cast<int>(whole->paths.size()); ++i) EXPECT_EQ(whole->Entry(i), files->Entry(i)) << i;
  EXPECT_EQ(files->Entry(files->Find("b.py")), "{\"path\":\"b.py\",\"src\":\"\",\"sites\":[]}");
  EXPECT_FALSE(ReadSectionFiles("{\"check\":{\"version\":2,\"files\":[{\"path\":3}]}}").ok());
  EXPECT_FALSE(ReadSectionFiles("{\"check\":{\"version\":2,\"files\":[").ok());
  EXPECT_EQ(ReadSectionFiles("{\"check\":{\"version\":99}}").status().code(), Status::Code::kNotFound);
}

TEST(CheckSection, MalformedSectionsAreErrorsNotCrashes) {
  EXPECT_FALSE(ReadSection("").ok());
  EXPECT_FALSE(ReadSection("{\"check\":{\"version\":2,\"files\":[{\"path\":3}]}}").ok());
  EXPECT_FALSE(ReadSection("{\"check\":{\"version\":2,\"files\":[").ok());
  EXPECT_EQ(ReadSection("{\"check\":{\"version\":99}}").status().code(), Status::Code::kNotFound);
  EXPECT_EQ(ReadSection("{\"version\":2,\"settings\":{}}").status().code(), Status::Code::kNotFound);
  // Stored sources that do not unpack (bad base64, not zstd, a frame claiming 1 TB): the file is
  // empty, check still answers.
  for (const char* src : {"!!!!", "AAAA", "KLUv/QRY////////AAAA"}) {
    auto sec = ReadSection(std::string("{\"check\":{\"version\":2,\"flags\":[],\"envs\":[],\"scripts\":[],\"files\":[") +
                           "{\"path\":\"app.py\",\"src\":\"" + src + "\",\"sites\":[]}]}}");
    ASSERT_TRUE(sec.ok()) << sec.status().ToString();
    EXPECT_TRUE(sec->Get(0).functions.empty());
    auto c = ParseCommand({"python", "-m", "app"});
    auto r = Check(*sec, *c, {});
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->findings.empty());
  }
  // Files are decoded on first use only.
  Section big = Build({{"a.py", "def f():\n    raise ValueError('a')\n"}, {"b.py", "x = 1\n"}, {"app.py", "import a\n"}});
  EXPECT_EQ(big.decoded(), 0u);
  EXPECT_EQ(big.paths.size(), 3u);
  EXPECT_EQ(big.Get(big.Find("a.py")).functions.size(), 1u);
  EXPECT_EQ(big.decoded(), 1u);
  // The knowledge blob keeps its other members after the section.
  std::string blob = WithCheckSection("{\"version\":2,\"settings\":{\"flags\":[]}}", "{\"version\":1}");
  EXPECT_EQ(blob, "{\"check\":{\"version\":1},\"version\":2,\"settings\":{\"flags\":[]}}");
  EXPECT_EQ(WithCheckSection("not json", "{}"), "{\"check\":{}}");
}

TEST(CheckCommand, Launchers) {
  auto m = ParseCommand({"CUDA_VISIBLE_DEVICES=0", "env", "-u", "X", "python3.11", "-X", "dev", "-m", "pkg.mod", "--a", "1"});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->kind, Command::Kind::kModule);
  EXPECT_EQ(m->target, "pkg.mod");
  EXPECT_EQ(m->env.at("CUDA_VISIBLE_DEVICES"), "0");
  EXPECT_EQ(m->unset_env, std::vector<std::string>{"X"});
  EXPECT_EQ(m->args, (std::vector<std::string>{"--a", "1"}));
  auto s = ParseCommand({"torchrun", "--nproc-per-node", "8", "train.py", "--lr", "1"});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->kind, Command::Kind::kScript);
  EXPECT_EQ(s->target, "train.py");
  auto t = ParseCommand({"torchrun", "--standalone", "-m", "pkg.train", "--x"});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->target, "pkg.train");
  auto u = ParseCommand({"uv", "run", "sglang", "serve"});
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->kind, Command::Kind::kConsole);
  EXPECT_EQ(u->target, "sglang");
  EXPECT_FALSE(ParseCommand({}).ok());
  EXPECT_FALSE(ParseCommand({"python", "-c", "1"}).ok());
  EXPECT_FALSE(ParseCommand({"python"}).ok());
  EXPECT_FALSE(ParseCommand({"A=1"}).ok());
}

}  // namespace
}  // namespace errdex::check
