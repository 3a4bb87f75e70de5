// Tests of how the document stage words its terms on real code's shapes: a
// setting's term after "when" and after "with", version-check helpers, a state
// condition quoted once, methods named by their class, callers of dunder methods.
// Each case is one that read badly in a real repository's records (vllm-ascend,
// lmdeploy, accelerate, flask, configparser).
#include <gtest/gtest.h>

#include "document/documenter_test_util.h"
#include "model/record.h"

namespace errdex {
namespace {

using doctest::AnyHas;
using doctest::Doc;
using doctest::Knowledge;
using doctest::RaiseSite;
using doctest::DocumentCode;
using doctest::Dump;
using doctest::Has;

// A parameter's term follows "with" in the triggers ("Calling `f` with argument `desc`
// left as None") and needs its verb after "when" in the documentation (vllm-ascend's
// records read "when argument `package_check` true or non-empty").
TEST(DocumenterCode, SettingTermsAreClausesAfterWhen) {
  std::string file =
      "def check_value(value, package_check=False, desc=None):\n"
      "    if package_check:\n"
      "        if desc is None:\n"
      "            raise ValueError(\"a description is required\")\n";
  Record r = DocumentCode("pkg/parser.py", file, 4, "ValueError", "a description is required", "check_value",
                          {"package_check", "desc is None"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "when argument `package_check` is true or non-empty and argument `desc` is left as None"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "with argument `package_check` true or non-empty"));

  // An identity test against a sentinel (configparser's `fallback is _UNSET`) reads as
  // the value passed after "with", as the test after "when".
  std::string cp =
      "_UNSET = object()\n"
      "def get(section, option, fallback=_UNSET):\n"
      "    if fallback is _UNSET:\n"
      "        raise KeyError(option)\n";
  Record g = DocumentCode("pkg/cp.py", cp, 4, "KeyError", "", "get", {"fallback is _UNSET"});
  SCOPED_TRACE(Dump(g));
  EXPECT_TRUE(Has(g.trigger_scenarios, "with argument `fallback` set to `_UNSET`"));
  EXPECT_TRUE(Has(g.documentation, "when argument `fallback` is `_UNSET`"));

  // "in" reads as a clause too, also where an earlier check leaves first (flask's
  // debughelpers: "leave first when argument `key` not in `request.form`").
  std::string fm =
      "def getitem(key, form):\n"
      "    if key not in form:\n"
      "        return None\n"
      "    if key in form:\n"
      "        raise KeyError(key)\n";
  Record m = DocumentCode("pkg/fm.py", fm, 5, "KeyError", "", "getitem", {"key in form"});
  SCOPED_TRACE(Dump(m));
  EXPECT_TRUE(Has(m.documentation, "when argument `key` is in `form`")) << *m.documentation;

  // An environment variable's state takes its verb after "when" as a setting's does
  // ("when `MY_FEATURE` unset or false" read as a fragment).
  std::string env =
      "import os\n"
      "def start():\n"
      "    if not os.environ.get(\"MY_FEATURE\"):\n"
      "        raise RuntimeError(\"feature disabled\")\n";
  Record e = DocumentCode("pkg/env.py", env, 4, "RuntimeError", "feature disabled", "start",
                          {"not os.environ.get(\"MY_FEATURE\")"});
  SCOPED_TRACE(Dump(e));
  EXPECT_TRUE(Has(e.documentation, "when `MY_FEATURE` is unset or false")) << *e.documentation;
  EXPECT_FALSE(Has(e.documentation, "when `MY_FEATURE` unset"));
}

// A dataclass field's term begins with "the": no "A the" before it (lmdeploy's
// QuantizationConfig), and the message's "only supported for" gives no cut word.
TEST(DocumenterCode, FieldValueSituationReadsAsEnglish) {
  std::string file =
      "import dataclasses\n"
      "@dataclasses.dataclass\n"
      "class QuantizationConfig:\n"
      "    quant_method: str = 'none'\n"
      "    fp8_quant_scope: str = None\n"
      "    def __post_init__(self):\n"
      "        if self.fp8_quant_scope is not None and self.quant_method != 'fp8':\n"
      "            raise ValueError('fp8_quant_scope is only supported for fp8 quantization.')\n";
  Record r = DocumentCode("pkg/config.py", file, 8, "ValueError", "fp8_quant_scope is only supported for fp8 quantization.",
                          "QuantizationConfig.__post_init__",
                          {"self.fp8_quant_scope is not None and self.quant_method != 'fp8'"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.common_situations, "A value of the `quant_method` setting of `QuantizationConfig` chosen"));
  EXPECT_TRUE(AnyHas(r.solutions, "Use what the message says is supported: fp8 quantization."));
}

// Hugging Face's version-check helpers are version requirements, in pip's words:
// `if not is_torch_version(">=", FSDP_PYTORCH_VERSION)` with the constant in the
// file, `if compare_versions("deepspeed", "<", "0.9.3")`.
TEST(DocumenterCode, VersionCheckHelpersAreRequirements) {
  std::string file =
      "FSDP_PYTORCH_VERSION = \"2.1.0\"\n"
      "def prepare(model):\n"
      "    if not is_torch_version(\">=\", FSDP_PYTORCH_VERSION):\n"
      "        raise ValueError(\"FSDP requires a newer PyTorch\")\n"
      "def offload(x):\n"
      "    if compare_versions(\"deepspeed\", \"<\", \"0.9.3\"):\n"
      "        raise ImportError(\"DeepSpeed 0.9.3 or newer is required\")\n";
  Record r = DocumentCode("pkg/fsdp.py", file, 4, "ValueError", "FSDP requires a newer PyTorch", "prepare",
                          {"not is_torch_version(\">=\", FSDP_PYTORCH_VERSION)"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "when the installed `torch` does not satisfy `torch>=2.1.0`"));
  EXPECT_TRUE(Has(r.example_fix, "pip install \"torch>=2.1.0\""));
  Record d = DocumentCode("pkg/fsdp.py", file, 7, "ImportError", "DeepSpeed 0.9.3 or newer is required", "offload",
                          {"compare_versions(\"deepspeed\", \"<\", \"0.9.3\")"});
  SCOPED_TRACE(Dump(d));
  EXPECT_TRUE(Has(d.example_fix, "pip install \"deepspeed>=0.9.3\""));
}

// A condition on the object's own state is its code: said once, not again "(in the
// code: ...)"; a method is called from somewhere as `Class.method`, not `obj.method`.
TEST(DocumenterCode, StateConditionQuotedOnceAndMethodsByTheirClass) {
  std::string file =
      "BACKEND_MEMFABRIC = 'memfabric'\n"
      "class Worker:\n"
      "    def update(self, info):\n"
      "        if self._backend != BACKEND_MEMFABRIC:\n"
      "            raise RuntimeError(\"P side supports memfabric pull only.\")\n"
      "    def send(self):\n"
      "        self.update(None)\n";
  Record r = DocumentCode("pkg/worker.py", file, 5, "RuntimeError", "P side supports memfabric pull only.", "Worker.update",
                          {"self._backend != BACKEND_MEMFABRIC"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "when `self._backend != BACKEND_MEMFABRIC`"));
  EXPECT_FALSE(Has(r.documentation, "in the code"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "`Worker.update` is called from `Worker.send` (line 7)"));

  // Python calls a dunder method itself: another class's `super().__post_init__()` is
  // no caller of this one.
  std::string dc =
      "class TPConfig:\n"
      "    def __post_init__(self):\n"
      "        if self.tp_size < 1:\n"
      "            raise ValueError(\"tp_size must be at least 1\")\n"
      "class FP8Kwargs(Base):\n"
      "    def __post_init__(self):\n"
      "        super().__post_init__()\n";
  Record d = DocumentCode("pkg/dc.py", dc, 4, "ValueError", "tp_size must be at least 1", "TPConfig.__post_init__",
                          {"self.tp_size < 1"});
  SCOPED_TRACE(Dump(d));
  EXPECT_FALSE(Has(d.trigger_scenarios, "is called from"));
}

// `warnings.warn(msg, DeprecationWarning)` issues a warning of that category (the filters
// decide whether it shows or fails); a logger's warning is a log line.
TEST(DocumenterCode, APythonWarningIsNotALogLine) {
  std::string file =
      "import warnings\ndef ssl_context(cert=None):\n    if cert:\n"
      "        warnings.warn(\"`cert=...` is deprecated. Use `verify=<ssl_context>` instead.\", DeprecationWarning)\n";
  auto k = Knowledge({{"c.py", file}});
  Site s = RaiseSite("c.py", 4, "DeprecationWarning", "`cert=...` is deprecated. Use `verify=<ssl_context>` instead.", "ssl_context");
  s.kind = SiteKind::kLog;
  s.log_level = "warn";
  s.guards = {"cert"};
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "A `DeprecationWarning` issued with `warnings.warn` by `ssl_context`")) << Dump(r);
  EXPECT_FALSE(Has(r.documentation, "log message"));
  Site log = s;
  log.error_class.reset();
  log.log_level = "warning";
  Record l;
  Doc(log, file, *k, &l);
  EXPECT_TRUE(Has(l.documentation, "A log message logged at warning level")) << Dump(l);
}

// Python calls a dunder method for an operation; the trigger says the operation the user
// wrote (`obj.<name>`, `obj - other`, `obj(...)`), not "Calling `obj.__getattr__`".
TEST(DocumenterCode, DunderMethodsAsTheOperationsTheyImplement) {
  std::string file =
      "class Shard:\n    def __getattr__(self, name):\n        if name == \"base\":\n            raise AttributeError()\n"
      "class Offset:\n    def __sub__(self, other):\n        if isinstance(other, int):\n"
      "            raise TypeError(\"cannot subtract an int\")\n"
      "class Attention:\n    def __call__(self, sink):\n        if sink is None:\n            raise ValueError(\"sink is required\")\n";
  Record get = DocumentCode("m.py", file, 4, "AttributeError", "", "Shard.__getattr__", {"name == \"base\""});
  SCOPED_TRACE(Dump(get));
  EXPECT_TRUE(Has(get.trigger_scenarios, "Reading `obj.<name>` on a `Shard` with")) << *get.trigger_scenarios;
  EXPECT_FALSE(Has(get.trigger_scenarios, "Calling `obj.__getattr__`"));
  Record sub = DocumentCode("m.py", file, 8, "TypeError", "cannot subtract an int", "Offset.__sub__", {"isinstance(other, int)"});
  SCOPED_TRACE(Dump(sub));
  EXPECT_TRUE(Has(sub.trigger_scenarios, "Using `obj - other` on an `Offset` with")) << *sub.trigger_scenarios;
  Record call = DocumentCode("m.py", file, 12, "ValueError", "sink is required", "Attention.__call__", {"sink is None"});
  SCOPED_TRACE(Dump(call));
  EXPECT_TRUE(Has(call.trigger_scenarios, "Calling an `Attention` object (`obj(...)`) with")) << *call.trigger_scenarios;
}

}  // namespace
}  // namespace errdex
