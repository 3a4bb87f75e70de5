// check/argparse against Python's own argparse: random command lines over a
// few parsers, each parsed by python3 (the ground truth: the namespace or the
// message parser.error() gets) and by ParseArgv.
#include "check/argparse.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

namespace errdex::check {
namespace {

using nlohmann::json;

// Spec JSON: {"opts": [...], "dest", "action", "nargs", "type", "choices": [...], "default", "const", "required"}
ArgSpec SpecFrom(const json& j) {
  ArgSpec s;
  s.options = j.value("opts", std::vector<std::string>{});
  s.dest = j.at("dest").get<std::string>();
  s.action = j.value("action", "store");
  s.nargs = j.value("nargs", "");
  s.type = j.value("type", "");
  auto py = [](const json& v) -> PyVal {
    if (v.is_null()) return PyVal::None();
    if (v.is_boolean()) return PyVal::Bool(v.get<bool>());
    if (v.is_number_integer()) return PyVal::Int(v.get<int64_t>());
    if (v.is_number_float()) return PyVal::Float(v.get<double>());
    return PyVal::Str(v.get<std::string>());
  };
  if (j.contains("choices")) {
    std::vector<PyVal> c;
    for (const auto& v : j["choices"]) c.push_back(py(v));
    s.choices = c;
  }
  if (j.contains("default")) s.default_value = py(j["default"]);
  if (j.contains("const")) s.const_value = py(j["const"]);
  s.required = j.value("required", false);
  return s;
}

std::vector<json> Parsers() {
  std::vector<json> ps;
  json common = json::array({
      {{"opts", {"--mode"}}, {"dest", "mode"}, {"choices", {"auto", "normal", "low_latency"}}, {"default", "auto"}},
      {{"opts", {"-t", "--tp-size"}}, {"dest", "tp_size"}, {"type", "int"}, {"default", 1}},
      {{"opts", {"--ratio"}}, {"dest", "ratio"}, {"type", "float"}, {"default", "0.5"}},
      {{"opts", {"--name"}}, {"dest", "name"}},
      {{"opts", {"--flag"}}, {"dest", "flag"}, {"action", "store_true"}},
      {{"opts", {"--no-cache"}}, {"dest", "cache"}, {"action", "store_false"}},
      {{"opts", {"--enable-x"}}, {"dest", "enable_x"}, {"action", "BooleanOptionalAction"}},
      {{"opts", {"--items"}}, {"dest", "items"}, {"nargs", "+"}, {"type", "int"}},
      {{"opts", {"--opt"}}, {"dest", "opt"}, {"nargs", "?"}, {"const", "c"}, {"default", "d"}},
      {{"opts", {"--multi"}}, {"dest", "multi"}, {"action", "append"}},
      {{"opts", {"-v"}}, {"dest", "v"}, {"action", "count"}},
      {{"opts", {"--level"}}, {"dest", "level"}, {"type", "int"}, {"choices", {1, 2, 3}}, {"default", 2}},
      {{"opts", {"--pair"}}, {"dest", "pair"}, {"nargs", "2"}},
      {{"opts", {"--mode-extra"}}, {"dest", "mode_extra"}, {"action", "store_const"}, {"const", 7}},
  });
  ps.push_back(common);
  json with_pos = common;
  with_pos.push_back({{"dest", "model"}});
  with_pos.push_back({{"dest", "rest"}, {"nargs", "*"}});
  with_pos.push_back({{"opts", {"--port"}}, {"dest", "port"}, {"type", "int"}, {"required", true}});
  ps.push_back(with_pos);
  json small = json::array({
      {{"opts", {"--model-path"}}, {"dest", "model_path"}},
      {{"opts", {"--model-name"}}, {"dest", "model_name"}},
      {{"opts", {"-1"}}, {"dest", "one"}, {"action", "store_true"}},
      {{"dest", "src"}, {"nargs", "?"}, {"default", "x"}},
  });
  ps.push_back(small);
  return ps;
}

std::vector<std::string> Vocabulary() {
  return {"--mode", "--mode=normal", "normal", "auto", "bogus", "--mo", "--mode=", "-t", "-t4", "--tp-size", "3", "-2", "x1",
          "--tp", "--ratio", "1e3", "0.25", "abc", "--name", "a b", "--flag", "--flag=1", "--no-cache", "--enable-x",
          "--no-enable-x", "--items", "1", "2", "--opt", "--multi", "m1", "-v", "-vv", "-vt2", "--level", "4", "--pair",
          "--mode-extra", "--", "--unknown", "-z", "--port", "8000", "--model-path", "--model", "--model-n", "-1", "-1.5",
          "--he", "--en", " 7 ", "1_0", "--ratio=inf", "--items=5", "--enable-x=1", "-x"};
}

struct Case {
  int parser;
  std::vector<std::string> argv;
};

TEST(CheckArgparse, MatchesPythonArgparse) {
  std::vector<json> parsers = Parsers();
  std::vector<std::string> vocab = Vocabulary();
  std::mt19937 rng(20260828);
  std::vector<Case> cases;
  for (int i = 0; i < 1500; ++i) {
    Case c;
    c.parser = (int)(rng() % parsers.size());
    int n = (int)(rng() % 7);
    for (int k = 0; k < n; ++k) c.argv.push_back(vocab[rng() % vocab.size()]);
    if (c.parser == 1 && rng() % 3) c.argv.insert(c.argv.begin(), {"--port", "1", "m"});
    cases.push_back(c);
  }
  json in = json::object({{"parsers", parsers}, {"cases", json::array()}});
  for (const Case& c : cases) in["cases"].push_back({{"parser", c.parser}, {"argv", c.argv}});
  char dir[] = "/tmp/errdex_argparse_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string d = dir;
  std::ofstream(d + "/in.json") << in.dump();
  std::ofstream(d + "/run.py") << R"PY(
import argparse, json, sys
class Stop(Exception):
    pass
class P(argparse.ArgumentParser):
    def error(self, message):
        raise Stop(message)
    def exit(self, status=0, message=None):
        raise Stop("<exit %d>" % status)
data = json.load(open(sys.argv[1]))
out = []
for case in data["cases"]:
    p = P(prog="prog")
    for s in data["parsers"][case["parser"]]:
        kw = {}
        if s.get("opts"):
            kw["dest"] = s["dest"]
        for k in ("nargs", "choices", "default", "const", "required"):
            if k in s:
                kw[k] = s[k]
        if "nargs" in kw and kw["nargs"].isdigit():
            kw["nargs"] = int(kw["nargs"])
        act = s.get("action", "store")
        kw["action"] = argparse.BooleanOptionalAction if act == "BooleanOptionalAction" else act
        if "type" in s:
            kw["type"] = {"int": int, "float": float, "str": str}[s["type"]]
        names = s.get("opts") or [s["dest"]]
        p.add_argument(*names, **kw)
    try:
        ns = p.parse_args(case["argv"])
        out.append({"ns": {k: repr(v) for k, v in vars(ns).items()}})
    except Stop as e:
        out.append({"error": str(e)})
json.dump(out, open(sys.argv[2], "w"))
)PY";
  std::string cmd = "python3 " + d + "/run.py " + d + "/in.json " + d + "/out.json >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream outf(d + "/out.json");
  json out = json::parse(outf);
  std::system(("rm -rf " + d).c_str());
  ASSERT_EQ(out.size(), cases.size());
  int mismatches = 0, errors = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    std::vector<ArgSpec> specs;
    ArgSpec help;
    help.options = {"-h", "--help"};
    help.dest = "help";
    help.action = "help";
    specs.push_back(help);
    for (const auto& s : parsers[(size_t)cases[i].parser]) specs.push_back(SpecFrom(s));
    ParsedArgs got = ParseArgv(specs, cases[i].argv);
    std::string argv;
    for (const auto& a : cases[i].argv) argv += " [" + a + "]";
    const json& want = out[i];
    if (want.contains("error")) {
      ++errors;
      std::string w = want["error"].get<std::string>();
      if (w == "<exit 0>") {
        EXPECT_TRUE(got.help) << argv;
        continue;
      }
      bool ok = !got.errors.empty() && got.errors[0] == w;
      if (!ok && ++mismatches < 15)
        ADD_FAILURE() << "parser " << cases[i].parser << argv << "\n python: " << w
                      << "\n check:  " << (got.errors.empty() ? "(no error)" : got.errors[0]);
      continue;
    }
    if (!got.errors.empty() || got.help) {
      if (++mismatches < 15)
        ADD_FAILURE() << "parser " << cases[i].parser << argv << "\n python: ok\n check:  "
                      << (got.errors.empty() ? "help" : got.errors[0]);
      continue;
    }
    for (const auto& [dest, repr] : want["ns"].items()) {
      auto it = got.values.find(dest);
      std::string g = it == got.values.end() ? "(missing)" : it->second.Single() ? it->second.Single()->Repr() : "(unknown)";
      if (g != repr.get<std::string>() && ++mismatches < 15)
        ADD_FAILURE() << "parser " << cases[i].parser << argv << "\n " << dest << ": python " << repr.get<std::string>()
                      << ", check " << g;
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(errors, 200);  // the random lines exercise the error paths
  EXPECT_LT(errors, 1400);
}

TEST(CheckArgparse, PythonNumberRules) {
  EXPECT_EQ(PyIntFromString(" 8 "), 8);
  EXPECT_EQ(PyIntFromString("1_000"), 1000);
  EXPECT_EQ(PyIntFromString("-07"), -7);
  EXPECT_FALSE(PyIntFromString("0x10"));
  EXPECT_FALSE(PyIntFromString("1__0"));
  EXPECT_FALSE(PyIntFromString("1.0"));
  EXPECT_FALSE(PyIntFromString("99999999999999999999999"));
  EXPECT_EQ(PyFloatFromString("1e3"), 1000.0);
  EXPECT_EQ(PyFloatFromString(".5"), 0.5);
  EXPECT_EQ(PyFloatFromString("5."), 5.0);
  EXPECT_FALSE(PyFloatFromString("e5"));
  EXPECT_FALSE(PyFloatFromString("1e"));
  EXPECT_TRUE(std::isinf(*PyFloatFromString("-Infinity")));
}

}  // namespace
}  // namespace errdex::check
