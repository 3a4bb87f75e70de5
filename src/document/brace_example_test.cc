// exampleFix at Go, Rust and C++ sites: the call with a failing and a passing argument
// (write_example_brace.cc), and the message's own `--flag` hints read as the repository
// defines its flags (message_hints.cc, write_example_hint.cc).
#include <gtest/gtest.h>

#include <string>

#include "document/documenter_test_util.h"

namespace errdex {
namespace {

using doctest::Doc;
using doctest::Dump;
using doctest::AnyHas;
using doctest::Has;
using doctest::Knowledge;
using doctest::RaiseSite;

Record DocSite(const std::string& path, const std::string& file, int line, const std::string& msg, const std::string& function,
             std::vector<std::string> guards, const std::string& language = "go",
             std::vector<std::pair<std::string, std::string>> more_files = {}) {
  more_files.emplace_back(path, file);
  auto k = Knowledge(more_files);
  Site s = RaiseSite(path, line, "error", msg, function);
  s.language = language;
  s.guards = std::move(guards);
  Record r;
  Doc(s, file, *k, &r);
  return r;
}

// A Go function whose innermost guard tests one of its parameters: the call by position,
// in Go's literals -- nil and the caller's value, false and true, "" and the caller's
// non-empty string, an empty slice and one with an item; a method through its receiver.
TEST(BraceExampleFix, GoCallWithTheArgumentTheGuardRejectsAndOneItAccepts) {
  std::string file =
      "package cmd\n\n"
      "func agentModelOptions(ctx context.Context, client *api.Client) error {\n"  // 3
      "\tif client == nil {\n\t\treturn errors.New(\"model picker requires an API client\")\n\t}\n\treturn nil\n}\n\n"
      "func (c *ClaudeDesktop) SetInstalled(restart bool) error {\n"  // 10
      "\tif !restart {\n\t\treturn errors.New(\"restart confirmation is required\")\n\t}\n\treturn nil\n}\n\n"
      "func ImgBytes(path string) ([]byte, error) {\n"  // 17
      "\tif path == \"\" {\n\t\treturn nil, errors.New(\"empty image path\")\n\t}\n\treturn nil, nil\n}\n\n"
      "func saveModels(models []string) error {\n"  // 24
      "\tif len(models) == 0 {\n\t\treturn errors.New(\"no models to save\")\n\t}\n\treturn nil\n}\n\n"
      "func (c *CodexApp) Run(_ string, _ []string, models []string) error {\n"  // 31
      "\tif len(models) > 0 {\n\t\treturn errors.New(\"models are not supported\")\n\t}\n\treturn nil\n}\n\n"
      "func split(parts []string) error {\n"  // 38
      "\tif len(parts) != 2 {\n\t\treturn errors.New(\"want name:tag\")\n\t}\n\treturn nil\n}\n\n"
      "func load(path string) error {\n"  // 45
      "\tif err := open(path); err != nil {\n\t\treturn fmt.Errorf(\"load: %w\", err)\n\t}\n\treturn nil\n}\n";
  Record nil_client = DocSite("cmd/tui.go", file, 5, "model picker requires an API client", "agentModelOptions", {"client == nil"});
  SCOPED_TRACE(Dump(nil_client));
  EXPECT_EQ(nil_client.example_fix.value_or(""),
            "# before\nagentModelOptions(ctx, nil)\n# after\nagentModelOptions(ctx, client)");

  Record restart = DocSite("cmd/tui.go", file, 12, "restart confirmation is required", "ClaudeDesktop.SetInstalled", {"!restart"});
  SCOPED_TRACE(Dump(restart));
  EXPECT_EQ(restart.example_fix.value_or(""),
            "# before\nclaudeDesktop.SetInstalled(false)\n# after\nclaudeDesktop.SetInstalled(true)");

  Record path = DocSite("cmd/tui.go", file, 19, "empty image path", "ImgBytes", {"path == \"\""});
  SCOPED_TRACE(Dump(path));
  EXPECT_EQ(path.example_fix.value_or(""), "# before\nImgBytes(\"\")\n# after\nImgBytes(path)  // a non-empty path");

  Record models = DocSite("cmd/tui.go", file, 26, "no models to save", "saveModels", {"len(models) == 0"});
  SCOPED_TRACE(Dump(models));
  EXPECT_EQ(models.example_fix.value_or(""),
            "# before\nsaveModels([]string{})  // no items\n# after\nsaveModels([]string{x1})  // 1 item");

  // Blank `_` parameters are left out of the call; a count other than 0 and 1.
  Record blank = DocSite("cmd/tui.go", file, 33, "models are not supported", "CodexApp.Run", {"len(models) > 0"});
  SCOPED_TRACE(Dump(blank));
  EXPECT_EQ(blank.example_fix.value_or(""),
            "# before\ncodexApp.Run(..., []string{x1}, ...)  // 1 item\n# after\ncodexApp.Run(..., []string{}, ...)  // no items");
  Record parts = DocSite("cmd/tui.go", file, 40, "want name:tag", "split", {"len(parts) != 2"});
  SCOPED_TRACE(Dump(parts));
  EXPECT_EQ(parts.example_fix.value_or(""),
            "# before\nsplit([]string{x1, x2, x3})  // 3 items\n# after\nsplit([]string{x1, x2})  // 2 items");

  // A returned error is no argument: nothing to write.
  Record err = DocSite("cmd/tui.go", file, 47, "load: {err}", "load", {"err != nil"});
  SCOPED_TRACE(Dump(err));
  EXPECT_FALSE(err.example_fix) << *err.example_fix;
}

// Rust: an Option parameter tested with `.is_none()` is passed as `Some(x)`, an empty
// slice or string (`.is_empty()`) with an item or the caller's value, on a value of the
// impl's type for a method that takes `&self` and on the type for an associated fn; a C++
// pointer as itself instead of nullptr.
TEST(BraceExampleFix, RustOptionAndCppPointer) {
  std::string rs =
      "fn open_index(root: Option<&Path>, depth: u32) -> Result<()> {\n"
      "    if root.is_none() {\n        return Err(anyhow!(\"no root directory given\"));\n    }\n    Ok(())\n}\n";
  Record r = DocSite("src/index.rs", rs, 3, "no root directory given", "open_index", {"root.is_none()"}, "rust");
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""), "# before\nopen_index(None, depth)\n# after\nopen_index(Some(root), depth)");

  // A method that takes `&self` is called on a value of its type; an associated fn on the type.
  std::string imp =
      "impl QwenVLProcessor {\n"
      "    pub fn preprocess(&self, images: &[DynamicImage], config: &Config) -> Result<Batch> {\n"
      "        if images.is_empty() {\n            return Err(Error::EmptyBatch);\n        }\n        todo!()\n    }\n\n"
      "    pub fn from_name(name: &str) -> Result<Self> {\n"
      "        if name.is_empty() {\n            return Err(anyhow!(\"empty processor name\"));\n        }\n        todo!()\n    }\n}\n";
  Record m = DocSite("src/llava.rs", imp, 4, "no images", "QwenVLProcessor.preprocess", {"images.is_empty()"}, "rust");
  SCOPED_TRACE(Dump(m));
  EXPECT_EQ(m.example_fix.value_or(""),
            "# before\nqwen_vl_processor.preprocess(&[], config)  // no items\n# after\n"
            "qwen_vl_processor.preprocess(&[x1], config)  // 1 item");
  Record a = DocSite("src/llava.rs", imp, 11, "empty processor name", "QwenVLProcessor.from_name", {"name.is_empty()"}, "rust");
  SCOPED_TRACE(Dump(a));
  EXPECT_EQ(a.example_fix.value_or(""),
            "# before\nQwenVLProcessor::from_name(\"\")\n# after\nQwenVLProcessor::from_name(name)  // a non-empty name");

  // A checked condition is the innermost test: `status == cudaSuccess` fails, not `use_pdl`.
  std::string launch =
      "void launch(bool use_pdl, int n) {\n  if (use_pdl) {\n    auto status = cudaLaunch(n);\n"
      "    TVM_FFI_ICHECK(status == cudaSuccess) << \"launch failed\";\n  }\n}\n";
  auto lk = Knowledge({{"csrc/launch.cu", launch}});
  Site ls = RaiseSite("csrc/launch.cu", 4, "InternalError", "launch failed", "launch");
  ls.language = "cuda";
  ls.guards = {"use_pdl"};
  ls.assert_condition = "status == cudaSuccess";
  Record lr;
  Doc(ls, launch, *lk, &lr);
  SCOPED_TRACE(Dump(lr));
  EXPECT_FALSE(Has(lr.example_fix, "launch(false")) << *lr.example_fix;

  std::string cc =
      "int decode(const char* buf, int n) {\n  if (buf == nullptr) {\n"
      "    throw std::invalid_argument(\"decode: buf is null\");\n  }\n  return n;\n}\n";
  Record c = DocSite("src/decode.cc", cc, 3, "decode: buf is null", "decode", {"buf == nullptr"}, "cpp");
  SCOPED_TRACE(Dump(c));
  EXPECT_EQ(c.example_fix.value_or(""), "# before\ndecode(nullptr, n)\n# after\ndecode(buf, n)");
}

// A Go string compared with "": "empty" / "non-empty" in every field, not "set to ``"; a
// value rejected for being given is fixed by passing "".
TEST(BraceExampleFix, GoEmptyStringsInWords) {
  std::string go =
      "package main\n\nfunc validate(modelPath string, name string) error {\n\tif modelPath != \"\" {\n"
      "\t\treturn fmt.Errorf(\"model path is not supported here\")\n\t}\n\treturn nil\n}\n";
  Record r = DocSite("v.go", go, 5, "model path is not supported here", "validate", {"modelPath != \"\""}, "go");
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.trigger_scenarios, "with argument `modelPath` non-empty")) << *r.trigger_scenarios;
  EXPECT_TRUE(AnyHas(r.solutions, "Call `validate` with `modelPath` empty (`\"\"`).")) << Dump(r);
  EXPECT_EQ(r.example_fix.value_or(""),
            "# before\nvalidate(modelPath, name)  // a non-empty modelPath\n# after\nvalidate(\"\", name)");
}

// Java: Objects.requireNonNull(x, ...) is the check `x != null` (the extractor's assert
// condition); the call as the caller writes it -- `new Range(...)` for a constructor,
// `Pairs.of(...)` for a static method, `pairs.and(...)` for any other -- with the failing
// and a passing value (null, a negative count, an empty array, false). `final` is no type.
TEST(BraceExampleFix, JavaCallsByConstructorStaticAndInstanceMethod) {
  std::string java =
      "public final class Range<T> {\n"
      "    Range(final T element1, final T element2) {\n"
      "        Objects.requireNonNull(element1, \"element1\");\n"
      "    }\n"
      "    public static String join(final String[] parts, final boolean strict) {\n"
      "        if (parts.length == 0) {\n            throw new IllegalArgumentException(\"no parts\");\n        }\n"
      "        if (!strict) {\n            throw new IllegalStateException(\"must be strict\");\n        }\n"
      "        return parts[0];\n    }\n"
      "    public Range<T> repeat(final int count) {\n"
      "        if (count < 0) {\n            throw new IllegalArgumentException(\"negative\");\n        }\n"
      "        return this;\n    }\n}\n";
  auto k = Knowledge({{"src/Range.java", java}});
  auto doc = [&](int line, const std::string& function, std::vector<std::string> guards, const char* cond) {
    Site s = RaiseSite("src/Range.java", line, "IllegalArgumentException", "m", function);
    s.language = "java";
    s.guards = std::move(guards);
    if (cond) s.assert_condition = cond;
    Record r;
    Doc(s, java, *k, &r);
    return r;
  };
  Record ctor = doc(3, "Range.<init>", {}, "element1 != null");
  SCOPED_TRACE(Dump(ctor));
  EXPECT_EQ(ctor.example_fix.value_or(""), "# before\nnew Range(null, element2)\n# after\nnew Range(element1, element2)");
  EXPECT_TRUE(AnyHas(ctor.solutions, "Pass `element1` to `Range` (it must not be null).")) << Dump(ctor);
  Record empty = doc(7, "Range.join", {"parts.length == 0"}, nullptr);
  EXPECT_EQ(empty.example_fix.value_or(""),
            "# before\nRange.join(new String[]{}, strict)  // no items\n# after\nRange.join(new String[]{x1}, strict)  // 1 item")
      << Dump(empty);
  Record flag = doc(10, "Range.join", {"!strict"}, nullptr);
  EXPECT_EQ(flag.example_fix.value_or(""), "# before\nRange.join(parts, false)\n# after\nRange.join(parts, true)") << Dump(flag);
  EXPECT_TRUE(AnyHas(flag.solutions, "with `strict` set to `true`")) << Dump(flag);
  EXPECT_TRUE(Has(flag.trigger_scenarios, "`strict` false")) << Dump(flag);
  Record count = doc(16, "Range.repeat", {"count < 0"}, nullptr);
  EXPECT_EQ(count.example_fix.value_or(""), "# before\nrange.repeat(-1)\n# after\nrange.repeat(0)") << Dump(count);
  // Either of two arguments null: the first of them null, then both passed.
  std::string lev =
      "public final class Lev {\n    public static int distance(CharSequence s, CharSequence t) {\n"
      "        if (s == null || t == null) {\n            throw new IllegalArgumentException(\"Strings must not be null\");\n"
      "        }\n        return 0;\n    }\n}\n";
  Record both = DocSite("src/Lev.java", lev, 4, "Strings must not be null", "Lev.distance", {"s == null || t == null"}, "java");
  EXPECT_EQ(both.example_fix.value_or(""), "# before\nLev.distance(null, t)\n# after\nLev.distance(s, t)") << Dump(both);
  EXPECT_TRUE(AnyHas(both.solutions, "Pass `s` and `t` to `Lev.distance` (none of them may be null).")) << Dump(both);
}

// A Java class's own state (commons-lang's StopWatch): a field the check tests is the
// object's state, set by the class's other methods -- call the one that sets it first,
// the one the message names when it names one ("must be reset"); a field the constructor
// stores from its argument is that argument.
TEST(BraceExampleFix, JavaFieldStateAndTheMethodsThatSetIt) {
  std::string java =
      "public class StopWatch {\n"
      "    private State runningState = State.UNSTARTED;\n"
      "    private final String name;\n"
      "    public StopWatch(final String name) {\n        this.name = name;\n    }\n"
      "    public void start() {\n"
      "        if (runningState == State.STOPPED) {\n"
      "            throw new IllegalStateException(\"Stopwatch must be reset before being restarted.\");\n        }\n"
      "        runningState = State.RUNNING;\n    }\n"
      "    public void resume() {\n        runningState = State.RUNNING;\n    }\n"
      "    public void reset() {\n        runningState = State.UNSTARTED;\n    }\n"
      "    public void split() {\n"
      "        if (runningState != State.RUNNING) {\n            throw new IllegalStateException(\"Stopwatch is not running.\");\n        }\n"
      "    }\n"
      "    public String describe() {\n"
      "        if (name == null) {\n            throw new IllegalStateException(\"no name\");\n        }\n        return name;\n    }\n}\n";
  Record named = DocSite("src/StopWatch.java", java, 9, "Stopwatch must be reset before being restarted.", "StopWatch.start",
                         {"runningState == State.STOPPED"}, "java");
  SCOPED_TRACE(Dump(named));
  EXPECT_TRUE(AnyHas(named.solutions, "Call `stopWatch.reset(...)` before `stopWatch.start(...)`: it sets `this.runningState` for it."))
      << Dump(named);
  Record any = DocSite("src/StopWatch.java", java, 21, "Stopwatch is not running.", "StopWatch.split",
                       {"runningState != State.RUNNING"}, "java");
  EXPECT_TRUE(AnyHas(any.solutions, "Call `stopWatch.start(...)` or `stopWatch.resume(...)` before `stopWatch.split(...)`"))
      << Dump(any);
  EXPECT_EQ(any.example_fix.value_or(""),
            "# before\nStopWatch stopWatch = new StopWatch(...);\nstopWatch.split(...);  // this.runningState not set yet\n# after\n"
            "StopWatch stopWatch = new StopWatch(...);\nstopWatch.start(...);  // sets this.runningState\nstopWatch.split(...);")
      << Dump(any);
  Record ctor = DocSite("src/StopWatch.java", java, 26, "no name", "StopWatch.describe", {"name == null"}, "java");
  EXPECT_TRUE(Has(ctor.documentation, "the `name` the object was built with is left as null")) << Dump(ctor);
}

// The message's `--flag` read as this repository defines it: "use --model to run in
// headless mode" gives --model no value "run"; a switch the repository defines ("add
// --hidden to search hidden files") is given alone; a flag inside another program's
// quoted command ('cmake --build --preset cpu') is not this program's.
TEST(BraceExampleFix, MessageFlagHintsAsTheRepositoryDefinesThem) {
  std::string cli =
      "package cmd\n\nfunc NewCLI() *cobra.Command {\n\tcmd := &cobra.Command{Use: \"launch\"}\n"
      "\tcmd.Flags().StringVar(&modelFlag, \"model\", \"\", \"Model to use\")\n"
      "\tcmd.Flags().BoolVarP(&yesFlag, \"yes\", \"y\", false, \"Assume yes\")\n\treturn cmd\n}\n";
  std::string file =
      "package cmd\n\nfunc selectModel(interactive bool) error {\n\tif !term.IsTerminal(0) {\n"
      "\t\treturn errors.New(\"model selection requires an interactive terminal; use --model to run in headless mode\")\n"
      "\t}\n\treturn nil\n}\n\nfunc pull(model string) error {\n\tif !known(model) {\n"
      "\t\treturn fmt.Errorf(\"model %s not found; run 'ollama pull %s' first, or use --yes to auto-pull\", model, model)\n"
      "\t}\n\treturn nil\n}\n\nfunc findServer() error {\n\tif err := find(); err != nil {\n"
      "\t\treturn fmt.Errorf(\"server binary not found. Run 'cmake -S server --preset cpu && cmake --build --preset cpu' first\")\n"
      "\t}\n\treturn nil\n}\n";
  std::vector<std::pair<std::string, std::string>> repo = {{"cmd/cli.go", cli}};
  Record m = DocSite("cmd/select.go", file, 5, "model selection requires an interactive terminal; use --model to run in headless mode",
                   "selectModel", {"!term.IsTerminal(0)"}, "go", repo);
  SCOPED_TRACE(Dump(m));
  EXPECT_FALSE(Has(m.example_fix, "--model run")) << *m.example_fix;
  EXPECT_FALSE(doctest::AnyHas(m.solutions, "`--model run`"));
  Record y = DocSite("cmd/select.go", file, 12, "model {model} not found; run 'ollama pull {model}' first, or use --yes to auto-pull",
                   "pull", {"!known(model)"}, "go", repo);
  SCOPED_TRACE(Dump(y));
  EXPECT_EQ(y.example_fix.value_or(""), "# before\n# (launched without --yes)\n# after\n--yes");
  Record c = DocSite("cmd/select.go", file, 19,
                   "server binary not found. Run 'cmake -S server --preset cpu && cmake --build --preset cpu' first", "findServer",
                   {"err != nil"}, "go", repo);
  SCOPED_TRACE(Dump(c));
  EXPECT_FALSE(Has(c.example_fix, "--preset")) << *c.example_fix;
  EXPECT_FALSE(Has(c.example_fix, "--build")) << *c.example_fix;
}

}  // namespace
}  // namespace errdex
