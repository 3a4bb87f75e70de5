// Tests of the document stage on the three seeds (../shared/seeds): each seed's
// source window is placed at its real line numbers in an in-memory file, next to
// argparse/dataclass definitions like a real sglang's, and the Site facts are
// built as the scanner reports them. The generated fields must state the seed's
// key facts.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "document/documenter.h"
#include "document/guards.h"
#include "document/knowledge.h"
#include "document/prose_lint.h"
#include "document/py_tokens.h"
#include "document/taxonomy.h"
#include "model/record.h"
#include "document/documenter_test_util.h"

namespace errdex {
namespace {

using doctest::AnyHas;
using doctest::Doc;
using doctest::DocumentCode;
using doctest::Dump;
using doctest::Has;
using doctest::Knowledge;
using doctest::RaiseSite;

// What a real sglang defines for the flags involved (abridged).
constexpr const char* kCliPy = R"PY(
import dataclasses
from typing import Optional

MOE_RUNNER_BACKEND_CHOICES = [
    "auto",
    "deep_gemm",
    "triton",
    "triton_kernel",
    "flashinfer_trtllm",
    "flashinfer_trtllm_routed",
    "flashinfer_cutlass",
    "flashinfer_mxfp4",
    "flashinfer_cutedsl",
    "cutlass",
]
QUANTIZATION_CHOICES = ["awq", "fp8", "gptq", "modelopt_fp4", "nvfp4_online", "mxfp8", "w8a8_int8"]


@dataclasses.dataclass
class ServerArgs:
    moe_a2a_backend: str = "none"
    moe_runner_backend: str = "auto"
    deepep_mode: str = "auto"
    quantization: Optional[str] = None
    enable_waterfill: bool = False

    @staticmethod
    def add_cli_args(parser):
        parser.add_argument(
            "--moe-a2a-backend",
            type=str,
            choices=["none", "deepep", "mooncake"],
            default=ServerArgs.moe_a2a_backend,
            help="Choose the backend for MoE A2A.",
        )
        parser.add_argument(
            "--moe-runner-backend",
            type=str,
            choices=MOE_RUNNER_BACKEND_CHOICES,
            default=ServerArgs.moe_runner_backend,
            help="Choose the runner backend for MoE.",
        )
        parser.add_argument(
            "--deepep-mode",
            type=str,
            choices=["normal", "low_latency", "auto"],
            default="auto",
            help="Select the mode when enable DeepEP MoE, could be `normal`, `low_latency` or `auto`.",
        )
        parser.add_argument(
            "--quantization",
            type=str,
            default=ServerArgs.quantization,
            choices=QUANTIZATION_CHOICES,
            help="The quantization method.",
        )
        parser.add_argument("--enable-waterfill", action="store_true", help="Enable waterfill.")
)PY";

struct Seed {
  Record record;
};

Record LoadSeed(const std::string& name) {
  std::ifstream in(std::string(ERRDEX_SHARED_DIR) + "/seeds/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  auto line = ParseCatalogLine(ss.str());
  EXPECT_TRUE(line.ok()) << line.status().ToString();
  return line.ok() ? line.value().record : Record{};
}

// The file: `prefix` ends right above the window, padded with blank lines so the
// window sits at its real line numbers; `suffix` follows it.
std::string BuildFile(const Record& r, const std::vector<std::string>& prefix, const std::string& suffix = "") {
  std::string text;
  int pad = r.source_code_start - 1 - (int)prefix.size();
  for (int i = 0; i < pad; ++i) text += "\n";
  for (const auto& p : prefix) text += p + "\n";
  text += r.source_code + "\n" + suffix;
  return text;
}


Site MakeSite(const Record& r, std::string function, std::vector<std::string> guards) {
  Site s;
  s.kind = SiteKind::kRaise;
  s.file_path = r.file_path;
  s.line = r.line_number;
  s.error_class = r.error_class;
  s.error_class_expr = r.error_class;
  s.error_message = r.error_message;
  s.message_pattern = r.message_pattern;
  s.function = std::move(function);
  s.guards = std::move(guards);
  return s;
}



TEST(DocumenterSeed, Seed000DeepepNormalWithCutedsl) {
  Record seed = LoadSeed("000_6372fd8a0e5af399.txt");
  std::string file = BuildFile(seed, {"class ServerArgs:", "    def _handle_a2a_moe(self, cfg):",
                                      "        a2a_backend = cfg.moe_a2a_backend"});
  auto k = Knowledge({{"python/sglang/srt/server_args_cli.py", kCliPy}, {seed.file_path, file}});
  Site site = MakeSite(seed, "ServerArgs._handle_a2a_moe",
                       {"a2a_backend == \"deepep\"", "cfg.moe_runner_backend == \"flashinfer_cutedsl\"",
                        "not (cfg.deepep_mode == \"auto\")", "cfg.deepep_mode == \"normal\""});
  ASSERT_EQ(file.substr(0, 0), "");
  Record r = seed;
  Doc(site, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  // Triggers in the user's terms, with the sibling that rewrites auto.
  EXPECT_TRUE(Has(r.trigger_scenarios, "`--moe-runner-backend flashinfer_cutedsl`"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "`--deepep-mode normal`"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "`--moe-a2a-backend deepep`"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "sets deepep_mode to `low_latency`"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "`--deepep-mode auto` never reaches this raise; only an explicit `--deepep-mode normal` does"));
  // Documentation: condition, function, file:line.
  EXPECT_TRUE(Has(r.documentation, "`ServerArgs._handle_a2a_moe` (python/sglang/srt/server_args.py:7677)"));
  EXPECT_TRUE(Has(r.documentation, "`cfg.deepep_mode == \"normal\"`"));
  EXPECT_TRUE(Has(r.documentation, "`a2a_backend` = `cfg.moe_a2a_backend`"));
  // The message's own hint, then the flips.
  ASSERT_TRUE(r.solutions);
  EXPECT_EQ((*r.solutions)[0], "Pass `--deepep-mode low_latency` or `--deepep-mode auto` (the message's own hint).");
  EXPECT_TRUE(AnyHas(r.solutions, "Change `--moe-runner-backend` from `flashinfer_cutedsl`"));
  EXPECT_EQ(*r.example_fix,
            "# before\n--moe-a2a-backend deepep --moe-runner-backend flashinfer_cutedsl --deepep-mode normal\n"
            "# after\n--moe-a2a-backend deepep --moe-runner-backend flashinfer_cutedsl --deepep-mode low_latency");
  EXPECT_TRUE(Has(r.validation_code, "args.moe_runner_backend == \"flashinfer_cutedsl\""));
  EXPECT_TRUE(Has(r.validation_code, "args.deepep_mode == \"normal\""));
  EXPECT_TRUE(Has(r.common_situations, "`--deepep-mode normal`"));
  EXPECT_FALSE(r.type_guard);
  EXPECT_TRUE(Has(r.try_catch_pattern, "except ValueError as e:"));
  EXPECT_TRUE(Has(r.try_catch_pattern, "\"flashinfer_cutedsl FP4 MoE only supports DeepEP"));
  EXPECT_EQ(r.background_tag, "unsupported-configuration-combo");
  EXPECT_EQ(r.severity, "error");
  EXPECT_EQ(r.error_type, "validation");
  EXPECT_EQ(r.handling_strategy, "validation");
  ASSERT_TRUE(r.tags);
  std::set<std::string> tags(r.tags->begin(), r.tags->end());
  EXPECT_TRUE(tags.count("deepep-mode"));
  EXPECT_TRUE(tags.count("moe-runner-backend"));
  EXPECT_TRUE(tags.count("server-args"));
  EXPECT_TRUE(AnyHas(r.prevention_tips, "Leave `--deepep-mode` at its default `auto`"));
}

constexpr const char* kSeed001Def = "def resolve_quantization_moe_backend(view):";

TEST(DocumenterSeed, Seed001Nvfp4OnlineAllowedRunners) {
  Record seed = LoadSeed("001_aeab84cad267806c.txt");
  std::string file = BuildFile(seed, {kSeed001Def});
  auto k = Knowledge({{"python/sglang/srt/server_args_cli.py", kCliPy}, {seed.file_path, file}});
  Site site = MakeSite(seed, "resolve_quantization_moe_backend",
                       {"view.quantization == \"nvfp4_online\"", "not (moe_runner_backend == \"auto\")",
                        "moe_runner_backend not in [\n            \"flashinfer_trtllm\",\n            \"flashinfer_trtllm_routed\",\n"
                        "            \"flashinfer_cutedsl\",\n        ]"});
  Record r = seed;
  Doc(site, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.trigger_scenarios, "`--quantization nvfp4_online`"));
  EXPECT_TRUE(Has(r.trigger_scenarios,
                  "`--moe-runner-backend` set to a value other than `flashinfer_trtllm`, `flashinfer_trtllm_routed` or `flashinfer_cutedsl`"));
  // auto is resolved by the sibling branch.
  EXPECT_TRUE(Has(r.trigger_scenarios, "sets moe_runner_backend to `flashinfer_trtllm`"));
  EXPECT_TRUE(AnyHas(r.solutions, "one of the supported values: `flashinfer_trtllm`, `flashinfer_trtllm_routed` or `flashinfer_cutedsl`"));
  EXPECT_TRUE(AnyHas(r.solutions, "Set `--moe-runner-backend` to one of the supported values: `flashinfer_trtllm`, `flashinfer_trtllm_routed` or `flashinfer_cutedsl`, or leave it at `auto`"));
  // The message's list and the tested list are one solution, not two.
  EXPECT_EQ(r.solutions->size(), 2u);
  EXPECT_TRUE(AnyHas(r.solutions, "Change `--quantization` from `nvfp4_online`"));
  EXPECT_EQ(*r.example_fix,
            "# before\n--quantization nvfp4_online --moe-runner-backend deep_gemm\n"
            "# after\n--quantization nvfp4_online --moe-runner-backend flashinfer_trtllm");
  EXPECT_EQ(r.background_tag, "unsupported-configuration-combo");
  EXPECT_EQ(r.severity, "error");
  EXPECT_EQ(r.error_type, "validation");
  EXPECT_FALSE(r.type_guard);
  EXPECT_TRUE(Has(r.documentation, "python/sglang/srt/arg_groups/overrides.py:2750"));
  EXPECT_TRUE(Has(r.documentation, "`moe_runner_backend` = `view.moe_runner_backend`"));
}

TEST(DocumenterSeed, TwoSitesInOneFileGetDistinctDocumentation) {
  Record seed = LoadSeed("001_aeab84cad267806c.txt");
  std::string file = BuildFile(seed, {kSeed001Def});
  auto k = Knowledge({{"python/sglang/srt/server_args_cli.py", kCliPy}, {seed.file_path, file}});
  Site a = MakeSite(seed, "resolve_quantization_moe_backend",
                    {"view.quantization == \"nvfp4_online\"", "not (moe_runner_backend == \"auto\")",
                     "moe_runner_backend not in [\n            \"flashinfer_trtllm\",\n            \"flashinfer_trtllm_routed\",\n"
                     "            \"flashinfer_cutedsl\",\n        ]"});
  Site b = MakeSite(seed, "resolve_quantization_moe_backend", {"view.quantization == \"nvfp4_online\"", "not is_sm100_supported()"});
  b.line = 2739;
  b.error_message = "--quantization nvfp4_online is supported only on NVIDIA Blackwell SM100/SM103 GPUs.";
  Record ra = seed, rb = seed;
  Doc(a, file, *k, &ra);
  Doc(b, file, *k, &rb);
  SCOPED_TRACE(Dump(rb));
  EXPECT_NE(*ra.documentation, *rb.documentation);
  EXPECT_NE(*ra.solutions, *rb.solutions);
  EXPECT_EQ(rb.background_tag, "unsupported-hardware");
  EXPECT_EQ(rb.severity, "critical");
  EXPECT_TRUE(Has(rb.trigger_scenarios, "`--quantization nvfp4_online`"));
  EXPECT_TRUE(Has(rb.trigger_scenarios, "`is_sm100_supported()` is False"));
  EXPECT_TRUE(AnyHas(rb.solutions, "Run it on an NVIDIA Blackwell data-center GPU (SM100/SM103) (the check is `is_sm100_supported()`)"));
  // No arbitrary one of the 7 other quantizations: the optional flag is left out.
  EXPECT_EQ(rb.example_fix.value_or(""), "# before\n--quantization nvfp4_online\n# after\n# (without `--quantization`)");
  EXPECT_TRUE(Has(rb.type_guard, "is_sm100_supported()"));
}

TEST(DocumenterSeed, Seed003MissingFp4Dtype) {
  Record seed = LoadSeed("003_244498f5241e1ac1.txt");
  std::string file = BuildFile(seed, {"import torch", "from sglang.srt.utils import get_bool_env_var"},
                               "\n\ndef process_weights_after_loading_block_quant(layer):\n    fp4_dtype = _require_fp4_dtype()\n"
                               "    return fp4_dtype\n");
  auto k = Knowledge({{seed.file_path, file}});
  Site site = MakeSite(seed, "_require_fp4_dtype", {"fp4_dtype is None"});
  Record r = seed;
  Doc(site, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "`_require_fp4_dtype` (python/sglang/srt/layers/quantization/fp8.py:137)"));
  EXPECT_TRUE(Has(r.documentation, "`fp4_dtype` = `getattr(torch, \"float4_e2m1fn_x2\", None)`"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "the installed `torch` has no attribute `float4_e2m1fn_x2`"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "`process_weights_after_loading_block_quant`"));
  EXPECT_TRUE(AnyHas(r.solutions, "Upgrade `torch` to a version that defines `torch.float4_e2m1fn_x2`: `pip install -U \"torch\"`"));
  EXPECT_EQ(*r.type_guard, "def has_float4_e2m1fn_x2() -> bool:\n    return getattr(torch, \"float4_e2m1fn_x2\", None) is not None");
  EXPECT_TRUE(Has(r.validation_code, "import torch\n"));
  EXPECT_TRUE(Has(r.validation_code, "if getattr(torch, \"float4_e2m1fn_x2\", None) is None:"));
  EXPECT_TRUE(Has(r.example_fix, "pip install -U \"torch\""));
  EXPECT_TRUE(Has(r.common_situations, "An older `torch`"));
  EXPECT_EQ(r.background_tag, "missing-dtype-support");
  EXPECT_EQ(r.severity, "critical");
  EXPECT_EQ(r.error_type, "exception");
  ASSERT_TRUE(r.tags);
  std::set<std::string> tags(r.tags->begin(), r.tags->end());
  EXPECT_TRUE(tags.count("quantization"));
  EXPECT_TRUE(tags.count("fp8"));
  EXPECT_TRUE(tags.count("torch"));
}

TEST(DocumenterSeed, Seed003FromTheStoredWindowAlone) {
  // What `errdex document` sees without a knowledge blob: the window at its lines.
  Record seed = LoadSeed("003_244498f5241e1ac1.txt");
  std::string file = BuildFile(seed, {});
  auto k = RepoKnowledge::Build({});
  Site site = MakeSite(seed, "_require_fp4_dtype", {"fp4_dtype is None"});
  Record r = seed;
  Doc(site, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.trigger_scenarios, "the installed `torch` has no attribute `float4_e2m1fn_x2`"));
  EXPECT_EQ(*r.type_guard, "def has_float4_e2m1fn_x2() -> bool:\n    return getattr(torch, \"float4_e2m1fn_x2\", None) is not None");
  EXPECT_EQ(r.background_tag, "missing-dtype-support");
}

TEST(Documenter, AttributeTestsOnObjectsAreNotMissingModules) {
  std::string file = "def Value(typecode, lock=True):\n    if not hasattr(lock, 'acquire'):\n        raise AttributeError(\"%r has no method 'acquire'\" % lock)\n";
  auto k = Knowledge({{"m/s.py", file}});
  Site s = RaiseSite("m/s.py", 3, "AttributeError", "{lock} has no method 'acquire'", "Value");
  s.interpolations = {"lock"};
  s.guards = {"not hasattr(lock, 'acquire')"};
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.background_tag, "key-not-found");
  EXPECT_FALSE(Has(r.documentation, "installed"));
  EXPECT_FALSE(r.example_fix);
}

TEST(Documenter, FieldsThatDoNotApplyStayNull) {
  std::string file = "def close(self):\n    raise RuntimeError(\"the pool is shutting down\")\n";
  auto k = Knowledge({{"pkg/pool.py", file}});
  Site s = RaiseSite("pkg/pool.py", 2, "RuntimeError", "the pool is shutting down", "close");
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "`close` (pkg/pool.py:2)"));
  EXPECT_TRUE(r.trigger_scenarios);
  EXPECT_FALSE(r.example_fix);
  EXPECT_FALSE(r.type_guard);
  EXPECT_FALSE(r.validation_code);
  EXPECT_FALSE(r.common_situations);
  EXPECT_FALSE(r.solutions);
  EXPECT_TRUE(r.try_catch_pattern);  // a stable literal exists
  EXPECT_EQ(r.background_tag, "runtime-error");
  EXPECT_EQ(r.handling_strategy, "fix-code");
}

// A repo's own exception classes are classified by the built-in they derive from,
// through any depth of repo classes, dotted bases, and the knowledge blob's round trip.
TEST(Documenter, RepoExceptionClassIsClassifiedByItsBuiltinBase) {
  std::string errors =
      "import builtins\n"
      "class AppError(Exception):\n    pass\n"
      "class BadLookup(builtins.KeyError, AppError):\n    pass\n"
      "class MissingAdapter(BadLookup):\n    pass\n"
      "class Loop(Loop2):\n    pass\n"
      "class Loop2(Loop):\n    pass\n"
      "class Generic1(Generic[T]):\n    pass\n";
  std::string file = "def find(name):\n    raise MissingAdapter(\"the adapter is gone\")\n";
  auto built = Knowledge({{"pkg/errors.py", errors}, {"pkg/find.py", file}});
  auto k = RepoKnowledge::Deserialize(built->Serialize());
  const doc::KnowledgeIndex* idx = doc::AsIndex(*k);
  ASSERT_NE(idx, nullptr);
  EXPECT_EQ(idx->ExternalBase("MissingAdapter"), "KeyError");
  EXPECT_EQ(idx->ExternalBase("AppError"), "Exception");
  EXPECT_EQ(idx->ExternalBase("KeyError"), "");  // not a repo class
  EXPECT_EQ(idx->ExternalBase("Loop"), "");      // a cycle resolves to nothing
  EXPECT_EQ(idx->ExternalBase("Generic1"), "");  // no plain first base
  Site s = RaiseSite("pkg/find.py", 2, "MissingAdapter", "the adapter is gone", "find");
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.background_tag, "key-not-found");
  EXPECT_EQ(r.handling_strategy, "catch-and-handle");
  // A name defined differently in two files resolves by the file that uses it.
  auto two = Knowledge({{"a/tar.py", "class ReadError(TarError):\n    pass\nclass TarError(Exception):\n    pass\n"},
                        {"b/shutil.py", "class ReadError(OSError):\n    pass\n"}});
  const doc::KnowledgeIndex* ti = doc::AsIndex(*two);
  EXPECT_EQ(ti->ExternalBase("ReadError", "a/tar.py"), "Exception");
  EXPECT_EQ(ti->ExternalBase("ReadError", "b/shutil.py"), "OSError");
  EXPECT_EQ(ti->ExternalBase("ReadError", "c/other.py"), "");  // ambiguous elsewhere: unknown
  EXPECT_EQ(doc::AsIndex(*RepoKnowledge::Deserialize(two->Serialize()))->ExternalBase("ReadError", "b/shutil.py"),
            "OSError");
  // Without the class definitions it is an unknown class: a runtime error.
  Record bare;
  Doc(s, file, *Knowledge({{"pkg/find.py", file}}), &bare);
  EXPECT_EQ(bare.background_tag, "runtime-error");
}

TEST(Documenter, LogSiteIsAWarningWithoutTryCatch) {
  std::string file = "import os\n\ndef f():\n    if os.environ.get(\"APP_FAST\") == \"1\":\n        logger.warning(\"fast mode skips checks\")\n";
  auto k = Knowledge({{"app/f.py", file}});
  Site s;
  s.kind = SiteKind::kLog;
  s.log_level = "warning";
  s.file_path = "app/f.py";
  s.line = 5;
  s.error_message = "fast mode skips checks";
  s.function = "f";
  s.guards = {"os.environ.get(\"APP_FAST\") == \"1\""};
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.severity, "warning");
  EXPECT_EQ(r.error_type, "warning");
  EXPECT_FALSE(r.try_catch_pattern);
  EXPECT_FALSE(r.validation_code);
  EXPECT_TRUE(Has(r.trigger_scenarios, "`APP_FAST=1`"));
  EXPECT_TRUE(Has(r.example_fix, "APP_FAST=1"));
}

// No solution restates a guard ("Make `x` false"): each is a change the caller makes.
void ExpectNoRestatedGuard(const Record& r, const std::vector<std::string>& guards) {
  if (!r.solutions) return;
  for (const auto& sol : *r.solutions) {
    EXPECT_EQ(sol.find("false before"), std::string::npos) << sol;
    EXPECT_EQ(sol.find("no longer holds"), std::string::npos) << sol;
    for (const auto& g : guards) EXPECT_EQ(sol.find("`" + g + "`"), std::string::npos) << sol;
  }
}

TEST(DocumenterCode, TypeGuardOnAParameter) {
  std::string file = "def loads(s, cls=None):\n    if not isinstance(s, str):\n        raise TypeError(\"the JSON object must be str\")\n";
  Record r = DocumentCode("json/__init__.py", file, 3, "TypeError", "the JSON object must be str", "loads", {"not isinstance(s, str)"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(AnyHas(r.solutions, "Pass `s` to `loads` as an instance of `str`."));
  EXPECT_TRUE(Has(r.trigger_scenarios, "Calling `loads` with `s` that is not an instance of `str`"));
  EXPECT_FALSE(AnyHas(r.prevention_tips, "launch scripts"));  // a library type check is no launch setting
  EXPECT_EQ(r.example_fix.value_or(""), "# before\nloads(s=value)  # not an instance of str\n# after\nloads(s=\"text\")  # an instance of str");
  ExpectNoRestatedGuard(r, {"not isinstance(s, str)"});

  // A tensor argument's property reads as a relative clause after "with" ("with `x`
  // has 3 dimensions" and "with the dtype of `x` that is" read badly).
  std::string tensors =
      "import torch\n"
      "def matmul(x, w):\n"
      "    if x.dtype != torch.float16:\n"
      "        raise TypeError(\"x must be fp16\")\n"
      "    if w.dim() != 2:\n"
      "        raise ValueError(\"w must be a matrix\")\n";
  Record d = DocumentCode("ops/mm.py", tensors, 4, "TypeError", "x must be fp16", "matmul", {"x.dtype != torch.float16"});
  SCOPED_TRACE(Dump(d));
  EXPECT_TRUE(Has(d.trigger_scenarios, "with `x` whose dtype is not `torch.float16`")) << *d.trigger_scenarios;
  Record m = DocumentCode("ops/mm.py", tensors, 6, "ValueError", "w must be a matrix", "matmul", {"w.dim() != 2"});
  SCOPED_TRACE(Dump(m));
  EXPECT_TRUE(Has(m.trigger_scenarios, "with `w` that does not have 2 dimensions")) << *m.trigger_scenarios;
}

// A tensor argument's shape and a multiple-of-N argument: the caller passes a
// different argument (flashinfer's kernels check these most).
TEST(DocumenterCode, ShapesAndMultiplesOfArguments) {
  std::string file =
      "def cp_delta_rule(q, k, cp_chunk_len=64):\n"
      "    if cp_chunk_len % 64 != 0:\n"
      "        raise ValueError(f\"cp_chunk_len must be a multiple of 64, got {cp_chunk_len}\")\n"
      "    head_dim = q.shape[-1]\n"
      "    if head_dim != 512:\n"
      "        raise ValueError(f\"Expected query head dim 512, got {head_dim}\")\n"
      "    if k.shape != q.shape:\n"
      "        raise ValueError(\"k must match q\")\n";
  Record r = DocumentCode("kernels/cp.py", file, 3, "ValueError", "cp_chunk_len must be a multiple of 64, got {cp_chunk_len}",
                          "cp_delta_rule", {"cp_chunk_len % 64 != 0"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(AnyHas(r.solutions, "Call `cp_delta_rule` with `cp_chunk_len` set to a multiple of 64."));
  EXPECT_TRUE(Has(r.trigger_scenarios, "`cp_chunk_len` not a multiple of 64"));
  EXPECT_EQ(r.example_fix.value_or(""),
            "# before\ncp_delta_rule(cp_chunk_len=96)  # not a multiple of 64\n# after\ncp_delta_rule(cp_chunk_len=64)  # the default");
  ExpectNoRestatedGuard(r, {"cp_chunk_len % 64 != 0"});
  r = DocumentCode("kernels/cp.py", file, 6, "ValueError", "Expected query head dim 512, got {head_dim}", "cp_delta_rule",
                   {"head_dim != 512"});
  EXPECT_TRUE(AnyHas(r.solutions, "Pass `q` to `cp_delta_rule` with `q.shape[-1]` equal to 512.")) << Dump(r);
  r = DocumentCode("kernels/cp.py", file, 8, "ValueError", "k must match q", "cp_delta_rule", {"k.shape != q.shape"});
  EXPECT_TRUE(AnyHas(r.solutions, "Pass `k` to `cp_delta_rule` with the same shape as `q`.")) << Dump(r);
  ExpectNoRestatedGuard(r, {"k.shape != q.shape"});
}

TEST(DocumenterCode, LiteralChoicesOfAParameter) {
  std::string file =
      "def _encode_text(string, charset, cte):\n    if cte not in (\"base64\", \"7bit\"):\n"
      "        raise ValueError('Unknown content transfer encoding {}'.format(cte))\n";
  Record r = DocumentCode("email/contentmanager.py", file, 3, "ValueError", "Unknown content transfer encoding {cte}",
                          "_encode_text", {"cte not in (\"base64\", \"7bit\")"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(AnyHas(r.solutions, "Call `_encode_text` with `cte` set to one of `base64` or `7bit`."));
  EXPECT_TRUE(Has(r.trigger_scenarios, "Calling `_encode_text` with argument `cte` set to a value other than `base64` or `7bit`"));
  EXPECT_EQ(r.example_fix.value_or(""),
            "# before\n_encode_text(cte=\"other\")  # not \"base64\" or \"7bit\"\n# after\n_encode_text(cte=\"base64\")");
  ExpectNoRestatedGuard(r, {"cte not in (\"base64\", \"7bit\")"});
}

TEST(DocumenterCode, IntegerBoundInAConstructorAndAKeyLookup) {
  std::string file =
      "class Semaphore:\n    def __init__(self, value=1):\n        if value < 0:\n"
      "            raise ValueError(\"Semaphore initial value must be >= 0\")\n";
  Record r = DocumentCode("asyncio/locks.py", file, 4, "ValueError", "Semaphore initial value must be >= 0", "Semaphore.__init__",
                          {"value < 0"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(AnyHas(r.solutions, "Call `Semaphore` with `value` of at least 0."));
  EXPECT_EQ(r.example_fix.value_or(""), "# before\nSemaphore(value=-1)\n# after\nSemaphore(value=0)");

  std::string file2 = "class Table:\n    def get(self, key):\n        if key not in self._rows:\n            raise KeyError(key)\n";
  Record k = DocumentCode("pkg/table.py", file2, 4, "KeyError", "{key}", "Table.get", {"key not in self._rows"});
  SCOPED_TRACE(Dump(k));
  EXPECT_FALSE(k.example_fix);  // no good or bad value can be read from the guard
  EXPECT_FALSE(k.solutions);    // nothing but the guard itself is known: no solution restating it
  EXPECT_TRUE(Has(k.documentation, "A lookup (key, index or attribute) found nothing."));

  std::string file3 = "def floatstr(o, allow_nan=True):\n    if not allow_nan:\n        raise ValueError(\"Out of range float values\")\n";
  Record b = DocumentCode("json/encoder.py", file3, 3, "ValueError", "Out of range float values", "floatstr", {"not allow_nan"});
  SCOPED_TRACE(Dump(b));
  EXPECT_EQ(b.example_fix.value_or(""), "# before\nfloatstr(allow_nan=False)\n# after\nfloatstr(allow_nan=True)  # the default is True");
}

// A parameter tested for being passed: the call with it and without it (mutually
// exclusive arguments keep the one the message says to use; arguments required
// together are all given after).
TEST(DocumenterCode, PresenceOfParameters) {
  std::string file =
      "class ParsingError(Exception):\n    def __init__(self, source=None, filename=None):\n"
      "        if filename and source:\n"
      "            raise ValueError(\"Cannot specify both `filename' and `source'. Use `source'.\")\n";
  Record r = DocumentCode("configparser.py", file, 4, "ValueError", "Cannot specify both `filename' and `source'. Use `source'.",
                          "ParsingError.__init__", {"filename and source"});
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""),
            "# before\nParsingError(source=source, filename=filename)\n# after\nParsingError(source=source)");

  std::string file2 =
      "class CookieJar:\n    def clear(self, domain=None, path=None, name=None):\n        if name is not None:\n"
      "            if (domain is None) or (path is None):\n"
      "                raise ValueError(\"domain and path must be given to remove a cookie by name\")\n";
  Record c = DocumentCode("http/cookiejar.py", file2, 5, "ValueError", "domain and path must be given to remove a cookie by name",
                          "CookieJar.clear", {"name is not None", "(domain is None) or (path is None)"});
  SCOPED_TRACE(Dump(c));
  EXPECT_EQ(c.example_fix.value_or(""),
            "# before\nobj.clear(path=path, name=name)\n# after\nobj.clear(domain=domain, path=path, name=name)");

  // Inside `except` the failed call is the cause, not the argument: no presence fix.
  std::string file3 =
      "def run(initializer=None):\n    if initializer is not None:\n        try:\n            initializer()\n"
      "        except Exception:\n            raise RuntimeError(\"initializer failed\")\n";
  auto k = Knowledge({{"pool.py", file3}});
  Site s = RaiseSite("pool.py", 6, "RuntimeError", "initializer failed", "run");
  s.guards = {"initializer is not None"};
  s.except_context = "except Exception";
  Record e;
  Doc(s, file3, *k, &e);
  SCOPED_TRACE(Dump(e));
  EXPECT_FALSE(Has(e.example_fix, "initializer=None"));
}

// TVM FFI checks (flashinfer's CHECK_INPUT, CHECK_DIM): TVM_FFI_ICHECK_EQ's condition is the
// comparison of its two arguments (as the C++ front end gives it); IsContiguous() and kDLCUDA are
// the tensor's state. An input is converted at the call; an output buffer is allocated right
// (a converted copy would lose what the kernel writes).
TEST(DocumenterCode, TvmFfiTensorChecks) {
  std::string file =
      "void gemm(TensorView a, TensorView b, TensorView out) {\n  CHECK_INPUT(b);\n  CHECK_INPUT(out);\n  CHECK_DIM(2, a);\n}\n";
  auto k = Knowledge({{"csrc/gemm.cu", file}});
  auto check = [&](int line, const std::string& cond, const std::string& msg) {
    Site s = RaiseSite("csrc/gemm.cu", line, "InternalError", msg, "gemm");
    s.language = "cuda";
    s.assert_condition = cond;
    Record r;
    Doc(s, file, *k, &r);
    return r;
  };
  Record dev = check(2, "b.device().device_type == kDLCUDA", "Check failed: b.device().device_type == kDLCUDA{value}: b must be a CUDA tensor");
  SCOPED_TRACE(Dump(dev));
  EXPECT_EQ(dev.example_fix.value_or(""), "# before\ngemm(..., b, ...)  # b is not on cuda\n# after\ngemm(..., b.cuda(), ...)");
  Record contig = check(2, "b.IsContiguous()", "Check failed: (b.IsContiguous()) is false: b must be contiguous");
  EXPECT_EQ(contig.example_fix.value_or(""), "# before\ngemm(..., b, ...)  # b is not contiguous\n# after\ngemm(..., b.contiguous(), ...)");
  Record out = check(3, "out.IsContiguous()", "Check failed: (out.IsContiguous()) is false: out must be contiguous");
  EXPECT_EQ(out.example_fix.value_or(""),
            "# before\ngemm(..., out, ...)  # out is not contiguous\n# after\nout = torch.empty(...)  # a fresh buffer is contiguous\n"
            "gemm(..., out, ...)");
  // ... and the solution says the same (not "Pass a contiguous out: out.contiguous()").
  EXPECT_TRUE(AnyHas(out.solutions, "Allocate `out` fresh (`torch.empty(...)` is contiguous): a converted copy would not receive"))
      << Dump(out);
  Record out_dev = check(3, "out.device().device_type == kDLCUDA", "Check failed: out must be a CUDA tensor");
  EXPECT_TRUE(AnyHas(out_dev.solutions, "Allocate `out` on CUDA (`torch.empty(..., device=\"cuda\")`)")) << Dump(out_dev);
  // TVM_FFI_ICHECK(false) in a dispatch's default: the path the code does not support,
  // not "every pass of its `while true` loop".
  Record never = check(2, "false", "Check failed: (false) is false: failed to dispatch data type");
  EXPECT_TRUE(Has(never.documentation, "its condition is the constant `false`")) << Dump(never);
  EXPECT_FALSE(Has(never.documentation, "while"));
  Record dim = check(4, "a.ndim() == 2", "Check failed: a.ndim() == 2{value}: a must be a 2D tensor");
  SCOPED_TRACE(Dump(dim));
  EXPECT_TRUE(Has(dim.example_fix, "a.reshape(-1, a.shape[-1])"));
  Record dtype = check(2, "b.dtype() == dl_int32", "Check failed: b.dtype() == dl_int32{value}: ");
  SCOPED_TRACE(Dump(dtype));
  EXPECT_TRUE(Has(dtype.example_fix, "gemm(..., b.to(torch.int32), ...)"));
  Record pair = check(3, "b.device().device_type == out.device().device_type", "Check failed: b.device().device_type == out.device().device_type{value}: ");
  SCOPED_TRACE(Dump(pair));
  EXPECT_EQ(pair.example_fix.value_or(""),
            "# before\ngemm(..., b, out, ...)  # b and out on different devices\n# after\ngemm(..., b.to(out.device), out, ...)");
  // ... and a solution that says so (the output buffer stays where it is).
  EXPECT_TRUE(AnyHas(pair.solutions, "Put `b` and `out` on the same GPU before the call: `b.to(out.device)`."));
  Record ids = check(2, "a.device().device_id == b.device().device_id", "Check failed: a.device().device_id == b.device().device_id{value}: ");
  EXPECT_TRUE(AnyHas(ids.solutions, "Put `a` and `b` on the same GPU before the call: `b.to(a.device)`.")) << Dump(ids);
  // A last dimension with a stride other than 1: not contiguous.
  Record stride = check(2, "b.stride(-1) == 1", "Check failed: b.stride(-1) == 1{value}: ");
  EXPECT_TRUE(AnyHas(stride.solutions, "Pass a contiguous `b` to `gemm`: `b.contiguous()`.")) << Dump(stride);
  EXPECT_EQ(stride.example_fix.value_or(""), "# before\ngemm(..., b, ...)  # b is not contiguous\n# after\ngemm(..., b.contiguous(), ...)");
  // Two tensors of one dtype (C++'s `.dtype()` on both sides): the first converted to the
  // other's, in the signature's order, in Python's spelling (the caller's side).
  Record dpair = check(2, "b.dtype() == a.dtype()", "Check failed: b.dtype() == a.dtype(){value}: ");
  SCOPED_TRACE(Dump(dpair));
  EXPECT_EQ(dpair.example_fix.value_or(""),
            "# before\ngemm(..., a, b, ...)  # b.dtype is not a.dtype\n# after\ngemm(..., a, b.to(a.dtype), ...)");
  EXPECT_TRUE(AnyHas(dpair.solutions, "Pass `b` to `gemm` in the same dtype as `a`: `b.to(a.dtype)`.")) << Dump(dpair);
  // A constant named for its dtype (TensorRT-LLM's `fp32_dtype`, flashinfer's `float32_code`):
  // that dtype, `torch.float32` as the caller writes it (no `torch::` in a Python line).
  Record named = check(2, "encode_dlpack_dtype(b.dtype()) == float32_code", "Check failed: b must be float32");
  SCOPED_TRACE(Dump(named));
  EXPECT_EQ(named.example_fix.value_or(""),
            "# before\ngemm(..., b, ...)  # b.dtype is not torch.float32\n# after\ngemm(..., b.to(torch.float32), ...)");
  EXPECT_TRUE(AnyHas(named.solutions, "as `torch.float32`: `b.to(torch.float32)`")) << Dump(named);
  // An output buffer in the wrong dtype is allocated in the right one.
  Record odt = check(3, "out.dtype() == fp16_dtype", "Check failed: out.dtype() == fp16_dtype{value}: ");
  EXPECT_EQ(odt.example_fix.value_or(""),
            "# before\ngemm(..., out, ...)  # out.dtype is not torch.float16\n# after\nout = torch.empty(..., dtype=torch.float16)\n"
            "gemm(..., out, ...)") << Dump(odt);
  // Both inputs checked in one condition: both converted.
  Record both = check(2, "a.dtype() == dl_uint8 && b.dtype() == dl_uint8", "Check failed: a and b must be uint8");
  EXPECT_EQ(both.example_fix.value_or(""),
            "# before\ngemm(..., a, b, ...)  # a.dtype is not torch.uint8\n# after\ngemm(..., a.to(torch.uint8), b.to(torch.uint8), ...)")
      << Dump(both);
}

// `if __name__ == "__main__": raise SystemExit(main())` runs when the file is a script: said
// so, not "on every pass of its `while True` loop" (the constant guards' wording).
TEST(DocumenterCode, RunAsAScript) {
  std::string file = "def main():\n    return 0\n\n\nif __name__ == \"__main__\":\n    raise SystemExit(main())\n";
  Record r = DocumentCode("tools/check.py", file, 6, "SystemExit", "", "<module>", {"__name__ == \"__main__\""});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "when the file is run as a script (`python tools/check.py`)")) << *r.documentation;
  EXPECT_FALSE(Has(r.documentation, "while True"));
  EXPECT_EQ(r.trigger_scenarios.value_or(""), "Running `tools/check.py` as a script (`python tools/check.py`).");
}

// `not 1 <= day <= dim`: the literal end of the range gives the failing and the passing value;
// the end the code computes (a month's days) is left to it.
TEST(DocumenterCode, RangeWithOneLiteralEnd) {
  std::string file =
      "def _check_date_fields(year, month, day):\n    dim = _days_in_month(year, month)\n"
      "    if not 1 <= day <= dim:\n        raise ValueError('day must be in 1..%d' % dim, day)\n";
  Record r = DocumentCode("datetime.py", file, 4, "ValueError", "day must be in 1..{dim}", "_check_date_fields",
                          {"not 1 <= day <= dim"});
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""), "# before\n_check_date_fields(day=0)\n# after\n_check_date_fields(day=1)");
  // Both ends computed: no value is known to pass.
  std::string file2 = "def check(year, lo, hi):\n    if not lo <= year <= hi:\n        raise ValueError('year out of range')\n";
  Record b = DocumentCode("m.py", file2, 3, "ValueError", "year out of range", "check", {"not lo <= year <= hi"});
  EXPECT_FALSE(b.example_fix);
}

// `a.dtype != torch.bfloat16 or b.dtype != torch.bfloat16` over two tensor arguments: both
// converted at the call; an output among them (a copy would lose the result) or a local
// tensor (no argument) gives none.
TEST(DocumenterCode, DtypeOfSeveralTensorArguments) {
  std::string file =
      "def bmm_bf16(A, B, out=None):\n    if A.dtype != torch.bfloat16 or B.dtype != torch.bfloat16:\n"
      "        raise ValueError(\"bmm_bf16 requires bf16 A and B\")\n"
      "    if not (A.is_contiguous() and out.is_contiguous()):\n        raise ValueError(\"A and out must be contiguous\")\n"
      "    for tensor in (A, B):\n        if tensor.dtype is not torch.bfloat16:\n            raise ValueError(\"bf16 only\")\n";
  Record r = DocumentCode("gemm.py", file, 3, "ValueError", "bmm_bf16 requires bf16 A and B", "bmm_bf16",
                          {"A.dtype != torch.bfloat16 or B.dtype != torch.bfloat16"});
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""),
            "# before\nbmm_bf16(A=A, B=B)  # A.dtype is not torch.bfloat16\n# after\nbmm_bf16(A=A.to(torch.bfloat16), B=B.to(torch.bfloat16))");
  Record o = DocumentCode("gemm.py", file, 5, "ValueError", "A and out must be contiguous", "bmm_bf16",
                          {"not (A.is_contiguous() and out.is_contiguous())"});
  SCOPED_TRACE(Dump(o));
  EXPECT_FALSE(Has(o.example_fix, "out.contiguous()"));
  Record l = DocumentCode("gemm.py", file, 8, "ValueError", "bf16 only", "bmm_bf16", {"tensor.dtype is not torch.bfloat16"});
  SCOPED_TRACE(Dump(l));
  EXPECT_FALSE(Has(l.example_fix, "(=tensor"));
}

TEST(DocumenterCode, DisjunctionAndCaughtErrorTips) {
  std::string file =
      "def get_angle_addr(value):\n    try:\n        if not value or value[0] != '<':\n"
      "            raise HeaderParseError(\"expected angle-addr but found '{}'\".format(value))\n"
      "    except KeyError:\n        raise\n";
  auto k = Knowledge({{"email/_hvp.py", file}});
  Site s = RaiseSite("email/_hvp.py", 4, "HeaderParseError", "expected angle-addr but found '{value}'", "get_angle_addr");
  s.guards = {"not value or value[0] != '<'"};
  s.except_context = "except KeyError";
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(AnyHas(r.prevention_tips, "`get_angle_addr` turns `KeyError` into `HeaderParseError`"));
  EXPECT_TRUE(Has(r.trigger_scenarios, "Reaching `get_angle_addr` while `not value or value[0] != '<'`"));
  EXPECT_TRUE(Has(r.common_situations, "An underlying error caught by `except KeyError`"));
  ExpectNoRestatedGuard(r, {"not value or value[0] != '<'"});
}

TEST(Knowledge, CollectsFlagsFieldsEnvsAndRoundTrips) {
  auto k = Knowledge({{"cli.py", kCliPy},
                      {"envs.py", "class Envs:\n    SGLANG_USE_AITER = EnvBool(False)\n\nx = os.getenv(\"HF_HOME\", \"~/.cache\")\n"
                                  "y = get_bool_env_var(\n    \"SGLANG_FORCE_X\"\n)\nz = os.environ[\"CUDA_VISIBLE_DEVICES\"]\n"}});
  const auto* idx = doc::AsIndex(*k);
  ASSERT_TRUE(idx);
  const doc::Flag* f = idx->FindFlag("deepep_mode");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->Primary(), "--deepep-mode");
  EXPECT_EQ(f->choices, (std::vector<std::string>{"normal", "low_latency", "auto"}));
  EXPECT_EQ(*f->default_value, "auto");
  const doc::Flag* m = idx->FindFlag("--moe-runner-backend");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->choices.size(), 10u);  // resolved through MOE_RUNNER_BACKEND_CHOICES
  EXPECT_EQ(*m->default_value, "auto");  // resolved through ServerArgs.moe_runner_backend
  EXPECT_EQ(idx->FindFlag("enable_waterfill")->action, "store_true");
  ASSERT_TRUE(idx->FindField("deepep_mode"));
  EXPECT_EQ(idx->FindField("deepep_mode")->class_name, "ServerArgs");
  ASSERT_TRUE(idx->FindEnv("SGLANG_USE_AITER"));
  EXPECT_EQ(*idx->FindEnv("SGLANG_USE_AITER")->default_value, "False");
  EXPECT_EQ(*idx->FindEnv("HF_HOME")->default_value, "\"~/.cache\"");
  EXPECT_TRUE(idx->FindEnv("SGLANG_FORCE_X"));
  EXPECT_TRUE(idx->FindEnv("CUDA_VISIBLE_DEVICES"));
  auto back = RepoKnowledge::Deserialize(k->Serialize());
  EXPECT_EQ(back->Serialize(), k->Serialize());
  EXPECT_TRUE(doc::AsIndex(*back)->FindFlag("--deepep-mode"));
  // Garbage is an empty knowledge, not a crash.
  EXPECT_EQ(doc::AsIndex(*RepoKnowledge::Deserialize("{nope"))->data().flags.size(), 0u);
}

TEST(Guards, NotIsPushedDownToAtoms) {
  std::vector<doc::Clause> cs;
  doc::ParseGuard("not (a == \"x\" or b)", 0, &cs);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0].any_of[0].Code(), "a != \"x\"");
  EXPECT_EQ(cs[1].any_of[0].Code(), "not b");
  EXPECT_TRUE(cs[0].from_else);
  cs.clear();
  doc::ParseGuard("x not in [\"a\", \"b\"] and (y is None or z < 3)", 1, &cs);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0].any_of[0].op, "not in");
  EXPECT_EQ(cs[0].any_of[0].values, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(cs[1].any_of.size(), 2u);
  EXPECT_EQ(cs[1].any_of[1].Code(), "z < 3");
  cs.clear();
  doc::ParseGuard("not isinstance(v, (int, float))", 2, &cs);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_TRUE(cs[0].any_of[0].falsy);
  EXPECT_EQ(cs[0].any_of[0].lhs, "isinstance(v, (int, float))");
}

TEST(Taxonomy, RulesInOrder) {
  doc::Evidence e;
  e.error_class = "ValueError";
  EXPECT_EQ(doc::BackgroundTagFor(e), "invalid-argument-value");
  e.setting_guards = 2;
  EXPECT_EQ(doc::BackgroundTagFor(e), "unsupported-configuration-combo");
  e.hardware_guard = true;
  EXPECT_EQ(doc::BackgroundTagFor(e), "unsupported-hardware");
  EXPECT_EQ(doc::SeverityFor(e, "unsupported-hardware"), "critical");
  doc::Evidence h;
  h.kind = SiteKind::kHttp;
  h.http_status = 503;
  EXPECT_EQ(doc::BackgroundTagFor(h), "http-server-error");
  EXPECT_EQ(doc::HandlingStrategyFor(h, "http-server-error"), "retry-with-backoff");
  doc::Evidence w;
  w.kind = SiteKind::kLog;
  w.log_level = "critical";
  EXPECT_EQ(doc::SeverityFor(w, doc::BackgroundTagFor(w)), "critical");
}

TEST(PyTokens, StringsAndBracketsFromTheFrontEndsTokenizer) {
  doc::Toks t = doc::Toks::File("x = f'a{b}' \"c\\n\" # hi\ny = (1,\n 2)\n");
  ASSERT_GE(t.size(), 8u);
  EXPECT_TRUE(t.FStringAt(2));
  std::string v;
  EXPECT_TRUE(t.StringAt(3, &v));
  EXPECT_EQ(v, "c\n");
  int newlines = 0;
  for (size_t i = 0; i < t.size(); ++i) newlines += t.IsKind(i, py::TokenKind::kNewline);
  EXPECT_EQ(newlines, 2);  // no NEWLINE inside the brackets
  size_t open = 0;
  while (!t.IsOp(open, "(")) ++open;
  EXPECT_TRUE(t.IsOp(t.MatchBracket(open), ")"));
  EXPECT_EQ(t.line(t.MatchBracket(open)), 3);
}

// The blob's enums survive the round trip (reading them once iterated a destroyed
// temporary and crashed `errdex lint-docs` and `errdex document` on any repo with an Enum).
TEST(Knowledge, EnumsRoundTripThroughTheBlob) {
  auto k = Knowledge({{"pkg/modes.py", "import enum\nclass Mode(enum.Enum):\n    FAST = \"fast\"\n    SLOW = \"slow\"\n"}});
  auto back = RepoKnowledge::Deserialize(k->Serialize());
  const doc::KnowledgeIndex* idx = doc::AsIndex(*back);
  ASSERT_TRUE(idx);
  ASSERT_EQ(idx->data().enums.count("Mode"), 1u);
  EXPECT_EQ(idx->data().enums.at("Mode").size(), 2u);
  EXPECT_EQ(back->Serialize(), k->Serialize());
}

// The scan hands the front end's tokens to the document stage (one tokenization):
// the facts are the same as from tokenizing again.
TEST(Knowledge, FrontEndTokensGiveTheSameFacts) {
  std::string file =
      "import os\n"
      "MODES = [\"a\", \"b\"]\n"
      "def pick(mode, n=1):\n"
      "    if mode == \"a\":\n"
      "        return 1\n"
      "    if os.environ.get(\"X_FAST\") == \"1\" and n < 0:\n"
      "        raise ValueError(\"bad\")\n"
      "    raise ValueError(f\"unknown mode {mode}\")\n";
  Site a = RaiseSite("m.py", 7, "ValueError", "bad", "pick");
  a.guards = {"os.environ.get(\"X_FAST\") == \"1\" and n < 0"};
  Site b = RaiseSite("m.py", 8, "ValueError", "unknown mode {mode}", "pick");
  std::vector<const Site*> sites = {&a, &b};
  FileFacts again = CollectFileFacts("m.py", file, sites);
  py::Tokens tokens;
  py::Tokenize(file, py::TokenizeOptions{}, &tokens);
  FileFacts shared = CollectFileFacts("m.py", file, sites, &tokens);
  ASSERT_EQ(again.contexts.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(SiteContextToJson(again.contexts[i]), SiteContextToJson(shared.contexts[i]));
  std::vector<FileKnowledgePtr> k1, k2;
  k1.push_back(std::move(again.knowledge));
  k2.push_back(std::move(shared.knowledge));
  EXPECT_EQ(RepoKnowledge::Build(std::move(k1))->Serialize(), RepoKnowledge::Build(std::move(k2))->Serialize());
  // The fall-through raise is reached only when neither earlier `if` left (return, raise).
  ASSERT_EQ(shared.contexts[1].exits.size(), 2u);
  EXPECT_EQ(shared.contexts[1].exits[0].second, "mode == \"a\"");
}

// `assert 1` cannot fail; `assert False` fails whenever reached. Neither is "when `1` is false"
// (stdlib test_grammar.py, lm-evaluation-harness tests, C asserts under #else).
TEST(Documenter, AssertOnAConstantSaysWhatItMeans) {
  std::string file = "def f(x):\n    assert 1\n    if x:\n        assert False, \"unsupported\"\n    assert not 0\n";
  auto k = Knowledge({{"m.py", file}});
  doc::ProseLinter lint;
  auto assert_site = [&](int line, const std::string& cond) {
    Site s = RaiseSite("m.py", line, "AssertionError", "", "f");
    s.kind = SiteKind::kAssert;
    s.assert_condition = cond;
    Record r;
    r.id = "r" + std::to_string(line);
    r.file_path = "m.py";
    r.line_number = line;
    Doc(s, file, *k, &r);
    lint.Check(r, &s);
    return r;
  };
  Record holds = assert_site(2, "1");
  SCOPED_TRACE(Dump(holds));
  EXPECT_TRUE(Has(holds.documentation, "constant `1`, which always holds"));
  EXPECT_FALSE(Has(holds.documentation, "is false"));
  EXPECT_TRUE(Has(holds.trigger_scenarios, "None as written"));
  Record fails = assert_site(4, "False");
  SCOPED_TRACE(Dump(fails));
  EXPECT_TRUE(Has(fails.documentation, "whenever that line is reached"));
  EXPECT_TRUE(Has(fails.trigger_scenarios, "Any call of `f` that reaches line 4"));
  Record negated = assert_site(5, "not 0");
  EXPECT_TRUE(Has(negated.documentation, "always holds"));
  lint.Finish();
  EXPECT_EQ(lint.stats().by_check.at("constant-guard"), 0);
}


// English after a flag is no value of it: "Please specify --base-tag manually." (vllm-ascend's
// release script) is no `--base-tag manually`.
TEST(DocumenterCode, AnAdverbAfterAFlagIsNoValue) {
  std::string file =
      "import argparse\np = argparse.ArgumentParser()\np.add_argument(\"--base-tag\")\n"
      "def main(args):\n    if not args.base_tag:\n        raise Exception(\"Could not find a previous tag. Please specify --base-tag manually.\")\n";
  Record r = DocumentCode("rel.py", file, 6, "Exception", "Could not find a previous tag. Please specify --base-tag manually.", "main",
                          {"not args.base_tag"});
  SCOPED_TRACE(Dump(r));
  EXPECT_FALSE(AnyHas(r.solutions, "--base-tag manually`"));
  EXPECT_FALSE(Has(r.example_fix, "manually"));
  EXPECT_TRUE(AnyHas(r.solutions, "--base-tag"));
}

// `args != ["git", "diff"]` compares with one list: its items are no values to pick from.
TEST(DocumenterCode, EqualityWithAListLiteralIsOneValue) {
  std::string file = "def run(args):\n    if args != [\"git\", \"diff\"]:\n        raise ValueError(\"unexpected command\")\n";
  Record r = DocumentCode("r.py", file, 3, "ValueError", "unexpected command", "run", {"args != [\"git\", \"diff\"]"});
  SCOPED_TRACE(Dump(r));
  EXPECT_FALSE(AnyHas(r.solutions, "one of `git`"));
  EXPECT_FALSE(Has(r.example_fix, "args=\"git\""));
}

// The message's own commands become the exampleFix: a quoted pip requirement, a variable to set.
TEST(DocumenterCode, MessageCommandsAsExampleFix) {
  std::string file =
      "def load():\n    try:\n        import anthropic\n    except ImportError:\n"
      "        raise ImportError(\"Please install anthropic via `pip install 'lm-eval[anthropic]'`\")\n"
      "def key(k):\n    if not k:\n        raise ValueError(\"Please set the ANTHROPIC_API_KEY environment variable.\")\n";
  Record pip = DocumentCode("a.py", file, 5, "ImportError", "Please install anthropic via `pip install 'lm-eval[anthropic]'`", "load", {});
  SCOPED_TRACE(Dump(pip));
  EXPECT_TRUE(Has(pip.example_fix, "pip install 'lm-eval[anthropic]'"));
  Record env = DocumentCode("a.py", file, 8, "ValueError", "Please set the ANTHROPIC_API_KEY environment variable.", "key", {"not k"});
  SCOPED_TRACE(Dump(env));
  EXPECT_TRUE(Has(env.example_fix, "export ANTHROPIC_API_KEY=<value>"));
}

// A dataclass walked into flags: `Literal["auto", "normal"]` lists the choices, it is no
// Annotated help, so plain fields beside it stay flags (the check stage's seed tree).
TEST(Knowledge, LiteralFieldsAreChoicesNotAnnotatedMetadata) {
  std::string py =
      "import dataclasses\nfrom typing import Literal, Optional\n\n@dataclasses.dataclass\nclass ServerArgs:\n"
      "    tp_size: int = 1\n    deepep_mode: Literal[\"auto\", \"normal\", \"low_latency\"] = \"auto\"\n"
      "    quantization: Optional[Literal[\"fp8\", \"awq\"]] = None\n\n"
      "    @staticmethod\n    def add_cli_args(parser):\n        for field in dataclasses.fields(ServerArgs):\n"
      "            parser.add_argument(f\"--{field.name.replace('_', '-')}\", default=field.default)\n";
  auto k = Knowledge({{"server_args.py", py}});
  const auto* idx = doc::AsIndex(*k);
  ASSERT_TRUE(idx);
  const doc::Flag* mode = idx->FindFlag("--deepep-mode");
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->choices, (std::vector<std::string>{"auto", "normal", "low_latency"}));
  EXPECT_EQ(*mode->default_value, "auto");
  EXPECT_TRUE(idx->FindFlag("--tp-size"));
  ASSERT_TRUE(idx->FindFlag("--quantization"));
  EXPECT_EQ(idx->FindFlag("--quantization")->choices, (std::vector<std::string>{"fp8", "awq"}));
}

// A variable the guard tests and the message gives values for: the message's value, every
// listed line kept (they differ in one value), no guessed `X=1` (vllm-ascend's setup.py).
TEST(DocumenterCode, MessageValuesOfAnEnvironmentVariable) {
  std::string msg =
      "Could not determine chip type. Please set the 'SOC_VERSION' environment variable, for example:\n"
      "  - Atlas A2: export SOC_VERSION=\"ascend910b1\"\n  - Atlas A3: export SOC_VERSION=\"ascend910_9391\"\n";
  std::string file = "import os\ndef f():\n    if not os.environ.get(\"SOC_VERSION\"):\n        raise RuntimeError(\"x\")\n";
  Record r = DocumentCode("setup.py", file, 4, "RuntimeError", msg, "f", {"not os.environ.get(\"SOC_VERSION\")"});
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""), "# before\n# (SOC_VERSION not set)\n# after\nexport SOC_VERSION=\"ascend910b1\"");
  EXPECT_TRUE(AnyHas(r.solutions, "ascend910_9391"));
  EXPECT_FALSE(AnyHas(r.solutions, "SOC_VERSION=1"));
}

// Advice in parentheses ends at its own ')' (calls inside it kept whole): no "): {err}" tail.
TEST(DocumenterCode, ParenthesisedAdviceEndsAtItsParenthesis) {
  std::string msg = "UlyssesCommunicator.close failed (retry close() on all ranks): {err}";
  std::string file = "def close(self):\n    if self.bad:\n        raise RuntimeError(f\"x\")\n";
  Record r = DocumentCode("u.py", file, 3, "RuntimeError", msg, "close", {"self.bad"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(AnyHas(r.solutions, "Retry close() on all ranks. (the message's advice)"));
  EXPECT_FALSE(AnyHas(r.solutions, "{err}"));
  for (const auto& sent : doc::ImperativeSentences(msg)) EXPECT_EQ(sent.find("{err}"), std::string::npos) << sent;
}


// A parameter compared with constants a caller types (`torch.bfloat16`, `cutlass.Float16`, a
// mix of None and strings, a tuple): the solution names the accepted values and exampleFix
// passes one; an if/elif chain's branches are accepted values too (their union), so the
// failing line shows a value none of them takes. A rhs that is a local's attribute
// (`cfg.max_splits_kv`) is no value a caller types: neither field.
TEST(DocumenterCode, ParameterComparedWithTypableConstants) {
  std::string file =
      "import torch\nimport cutlass\n\n"
      "def bmm(a, out_dtype=torch.bfloat16):\n    if out_dtype != torch.bfloat16:\n"
      "        raise ValueError(\"only bfloat16 output\")\n"
      "def run(x, mode=None):\n    if mode not in (None, \"engine\", \"decomp\"):\n        raise ValueError(\"bad mode\")\n"
      "def gemm(io_dtype):\n    if io_dtype not in [cutlass.Float16, cutlass.BFloat16]:\n        raise TypeError(\"io dtype\")\n"
      "def state(dt):\n    if dt == torch.float32:\n        return 1\n    elif dt == torch.float16:\n        return 2\n"
      "    else:\n        raise ValueError(\"unsupported state dtype\")\n"
      "def decode(cfg, n):\n    if n != cfg.max_splits_kv:\n        raise ValueError(\"conflict\")\n";
  Record r = DocumentCode("ops.py", file, 6, "ValueError", "only bfloat16 output", "bmm", {"out_dtype != torch.bfloat16"});
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(AnyHas(r.solutions, "Call `bmm` with `out_dtype` set to `torch.bfloat16`."));
  EXPECT_EQ(r.example_fix.value_or(""),
            "# before\nbmm(out_dtype=torch.float32)  # not torch.bfloat16\n# after\nbmm(out_dtype=torch.bfloat16)");
  Record m = DocumentCode("ops.py", file, 9, "ValueError", "bad mode", "run", {"mode not in (None, \"engine\", \"decomp\")"});
  SCOPED_TRACE(Dump(m));
  EXPECT_TRUE(AnyHas(m.solutions, "set to one of `None`, `\"engine\"` or `\"decomp\"`"));
  EXPECT_EQ(m.example_fix.value_or(""), "# before\nrun(mode=\"other\")  # not None, \"engine\" or \"decomp\"\n# after\nrun(mode=\"engine\")");
  Record g = DocumentCode("ops.py", file, 12, "TypeError", "io dtype", "gemm", {"io_dtype not in [cutlass.Float16, cutlass.BFloat16]"});
  SCOPED_TRACE(Dump(g));
  EXPECT_TRUE(Has(g.example_fix, "gemm(io_dtype=cutlass.Float16)"));
  Record s = DocumentCode("ops.py", file, 19, "ValueError", "unsupported state dtype", "state",
                          {"not (dt == torch.float32)", "not (dt == torch.float16)"});
  SCOPED_TRACE(Dump(s));
  EXPECT_TRUE(AnyHas(s.solutions, "set to one of `torch.float32` or `torch.float16`"));
  EXPECT_TRUE(Has(s.example_fix, "# not torch.float32 or torch.float16"));
  EXPECT_FALSE(Has(s.example_fix, "state(dt=torch.float16)  #"));  // an accepted value is no failing one
  Record d = DocumentCode("ops.py", file, 22, "ValueError", "conflict", "decode", {"n != cfg.max_splits_kv"});
  SCOPED_TRACE(Dump(d));
  EXPECT_FALSE(Has(d.example_fix, "cfg.max_splits_kv"));
  EXPECT_FALSE(AnyHas(d.solutions, "cfg.max_splits_kv"));
}

}  // namespace
}  // namespace errdex
