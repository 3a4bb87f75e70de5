// Tests of check/program (BuildFileProgram, ConsoleScripts) and check/cx.
#include "check/program.h"

#include <gtest/gtest.h>

#include "check/cx.h"

namespace errdex::check {
namespace {

const FunctionFacts* Fn(const FileProgram& p, const std::string& qual) {
  for (const auto& f : p.functions)
    if (f.qual == qual) return &f;
  return nullptr;
}

constexpr const char* kServerArgs = R"PY(import argparse
from dataclasses import dataclass, field
from .utils import is_sm100_supported as sm100
import a.b.c

@dataclass
class ServerArgs:
    """Docstring."""
    deepep_mode: str = "auto"
    tp_size: int = 1
    moe_runner_backend: str = field(default="auto")

    def __post_init__(self):
        self._handle_a2a_moe(self)

    def _handle_a2a_moe(self, cfg):
        a2a_backend = cfg.moe_a2a_backend
        logger.info("hello %s", a2a_backend)
        if a2a_backend == "deepep":
            if cfg.moe_runner_backend == "flashinfer_cutedsl":
                if cfg.deepep_mode == "auto":
                    self.deepep_mode = "low_latency"
                elif cfg.deepep_mode == "normal":
                    raise ValueError(
                        "only low_latency"
                    )
                else:
                    pass
        assert self.tp_size > 0, "tp"
        for x in [1, 2]:
            if x: break
        else:
            raise RuntimeError("loop")
        try:
            y = int("3")
        except (ValueError, KeyError) as e:
            raise
        else:
            y += 1
        finally:
            y = 0
        with open("f") as fh, lock:
            n: int = 3
        return a2a_backend if a2a_backend else None

def main(argv=None, *args, flag: bool = False, **kw):
    parser = argparse.ArgumentParser()
    parser.add_argument("--deepep-mode", choices=["auto", "normal"], default="auto")
    args = parser.parse_args(argv); x = 1
    if args.deepep_mode != "auto" and not (args.x in ("a", "b")) or -1 < args.n <= 3: raise SystemExit("bad")
    return ServerArgs(**vars(args))

if __name__ == "__main__":
    main()
)PY";

TEST(CheckProgram, BuildsFunctionsClassesImportsAndSites) {
  std::vector<SiteRef> sites = {{"id1", 24, "raise", "ValueError"}, {"id2", 29, "assert", "AssertionError"},
                                {"id3", 33, "raise", "RuntimeError"}, {"id4", 50, "raise", "SystemExit"},
                                {"log", 18, "log", ""}};
  FileProgram p = BuildFileProgram("pkg/server_args.py", kServerArgs, sites);
  ASSERT_EQ(p.classes.size(), 1u);
  const ClassFacts& c = p.classes[0];
  EXPECT_EQ(c.qual, "ServerArgs");
  EXPECT_EQ(c.decorators, std::vector<std::string>{"dataclass"});
  ASSERT_EQ(c.attrs.size(), 3u);
  EXPECT_EQ(c.attrs[0], (std::pair<std::string, std::string>{"deepep_mode", "'auto'"}));
  EXPECT_EQ(c.attrs[2].second, "(call field (kw default 'auto'))");
  EXPECT_EQ(c.annotated.size(), 3u);

  const FunctionFacts* h = Fn(p, "ServerArgs._handle_a2a_moe");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->cls, "ServerArgs");
  EXPECT_EQ(h->params, (std::vector<std::string>{"self", "cfg"}));
  EXPECT_EQ(h->line, 16);
  auto body = ParseBody(h->body);
  ASSERT_TRUE(body.ok()) << body.status().ToString() << "\n" << h->body;
  const std::string folded = CxText(*body);
  // The logging call is dropped; the elif chain nests in the else branch.
  EXPECT_NE(folded.find("(= 17 a2a_backend (. cfg moe_a2a_backend))"), std::string::npos) << folded;
  EXPECT_EQ(folded.find("logger"), std::string::npos);
  EXPECT_NE(folded.find("(if 21 (cmp (. cfg deepep_mode) == 'auto') ((= 22 (. self deepep_mode) 'low_latency')) "
                         "((if 23 (cmp (. cfg deepep_mode) == 'normal') ((raise 24 0 ValueError)) ())))"),
            std::string::npos)
      << folded;
  EXPECT_NE(folded.find("(assert 29 1 (cmp (. self tp_size) > 0))"), std::string::npos) << folded;
  EXPECT_NE(folded.find("(for 30 x (list 1 2) ((if 31 x ((brk 31)) ())) ((raise 33 2 RuntimeError)))"), std::string::npos)
      << folded;
  EXPECT_NE(folded.find("(try 34 ((= 35 y (call int '3'))) ((except 36 (tuple ValueError KeyError) e ((raise 37 -1)))) "
                         "((aug + 39 y 1)) ((= 41 y 0)))"),
            std::string::npos)
      << folded;
  EXPECT_NE(folded.find("(with 42 ((e 42 (call open 'f')) (= 42 fh (? 'with-target')) (= 43 n 3)))"), std::string::npos)
      << folded;
  EXPECT_NE(folded.find("(ret 44 (ifx a2a_backend a2a_backend #none))"), std::string::npos) << folded;

  const FunctionFacts* m = Fn(p, "main");
  ASSERT_NE(m, nullptr);
  auto mbody = ParseBody(m->body);
  ASSERT_TRUE(mbody.ok()) << mbody.status().ToString();
  const std::string mfolded = CxText(*mbody);
  auto modbody = ParseBody(p.module_body);
  ASSERT_TRUE(modbody.ok()) << modbody.status().ToString();
  const std::string module_folded = CxText(*modbody);
  EXPECT_EQ(m->params, (std::vector<std::string>{"argv", "*args", "flag", "**kw"}));
  EXPECT_EQ(m->defaults[0], "#none");
  EXPECT_EQ(m->defaults[2], "#false");
  EXPECT_NE(mfolded.find("(= 49 args (call (. parser parse_args) argv)) (= 49 x 1)"), std::string::npos) << mfolded;
  EXPECT_NE(mfolded.find("(if 50 (or (and (cmp (. args deepep_mode) != 'auto') (not (cmp (. args x) in (tuple 'a' 'b')))) "
                         "(cmp -1 < (. args n) <= 3)) ((raise 50 3 SystemExit)) ())"),
            std::string::npos)
      << mfolded;
  ASSERT_EQ(p.add_arguments.size(), 1u);
  EXPECT_EQ(p.add_arguments[0].first, 48);
  EXPECT_NE(module_folded.find("(if 53 (cmp __name__ == '__main__') ((e 54 (call main))) ())"), std::string::npos)
      << module_folded;

  ASSERT_EQ(p.imports.size(), 6u);
  EXPECT_EQ(p.imports[0].local, "argparse");
  EXPECT_EQ(p.imports[3].local, "sm100");
  EXPECT_EQ(p.imports[3].name, "is_sm100_supported");
  EXPECT_EQ(p.imports[3].level, 1);
  EXPECT_EQ(p.imports[3].module, "utils");
  EXPECT_EQ(p.imports[4].local, "a");
  EXPECT_EQ(p.imports[4].module, "a");
  EXPECT_EQ(p.imports[5].module, "a.b.c");
}

TEST(CheckProgram, SurvivesHostileInput) {
  std::string deep = "def f(x):\n";
  std::string indent = "    ";
  for (int i = 0; i < 200; ++i) {
    deep += indent + "if x > " + std::to_string(i) + ":\n";
    indent += " ";
  }
  deep += indent + "raise ValueError('deep')\n";
  deep += "def g(:\n  )))\n  elif x:\n    pass\n  except:\n  raise\n" + std::string(3000, '(') + "\n";
  FileProgram p = BuildFileProgram("x.py", deep, {{"id", 202, "raise", "ValueError"}});
  ASSERT_FALSE(p.functions.empty());
  auto body = ParseBody(p.functions[0].body);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_NE(p.functions[0].body.find("(blk "), std::string::npos);
  for (const auto& f : p.functions) EXPECT_TRUE(ParseBody(f.body).ok()) << f.body;
  EXPECT_TRUE(ParseBody(p.module_body).ok());
}

TEST(CheckCx, RoundTripsAndRefusesMalformedText) {
  for (const char* t : {"(cmp (. cfg deepep_mode) == 'normal')", "(call f 1 -2 3.5 (kw a #none) (* x) (** y))",
                        "(? 'a b')", "((if 1 #true () ()) (ret 2))", "(bin + 1 (neg x))", "'Ã©\\n\\'q'"}) {
    auto x = ParseCx(t);
    ASSERT_TRUE(x.ok()) << t << ": " << x.status().ToString();
    EXPECT_EQ(CxText(*x), t);
  }
  for (const char* t : {"(", ")", "(cmp a == )", "(nohead 1)", "'unterminated", "(call f) extra", "#bogus", ""})
    EXPECT_FALSE(ParseCx(t).ok()) << t;
  std::string deep(500, '(');
  EXPECT_FALSE(ParseCx(deep).ok());
  auto x = ParseCx("(or (and (cmp (. a b) notin (list 'x' 'y')) (not c)) (cmp x isnot #none))");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(Unparse(*x), "a.b not in ['x', 'y'] and not c or x is not None");
}

TEST(CheckProgram, ConsoleScripts) {
  auto toml = ConsoleScripts("pyproject.toml",
                             "[project]\nname='x'\n[project.scripts]\nsglang = \"sglang.cli.main:main\"\nbad = 'no colon'\n"
                             "[tool.x]\ny = 'a:b'\n");
  ASSERT_EQ(toml.size(), 1u);
  EXPECT_EQ(toml[0], (std::pair<std::string, std::string>{"sglang", "sglang.cli.main:main"}));
  auto cfg = ConsoleScripts("setup.cfg", "[options.entry_points]\nconsole_scripts =\n    tool = pkg.mod:run\n    t2=pkg.b:c\n[other]\nz = a:b\n");
  ASSERT_EQ(cfg.size(), 2u);
  EXPECT_EQ(cfg[1].first, "t2");
  auto py = ConsoleScripts("setup.py", "setup(entry_points={'console_scripts': ['srv = pkg.server:main', \"cli=pkg.cli:app\"]})\n");
  ASSERT_EQ(py.size(), 2u);
  EXPECT_EQ(py[0].second, "pkg.server:main");
}

}  // namespace
}  // namespace errdex::check
