// Tests of exampleFix forms (write_example.cc) and their solutions (write_fixes.cc) for
// checks a caller meets through a constructor or a second argument: a dataclass field
// validated in __post_init__, two tensors that must share a dtype or a device, a C++
// Optional<Tensor> checked through `.value()`.
#include <gtest/gtest.h>

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

// A dataclass's fields are its constructor's parameters: __post_init__'s check of
// `self.n` is fixed in the call that builds the object. A plain class's attribute of
// the same shape is the object's state, not a constructor argument.
TEST(ExampleFix, DataclassFieldCheckedInPostInit) {
  std::string file =
      "from dataclasses import dataclass\n\n@dataclass\nclass Desc:\n    num_tokens: int\n    mode: str = \"fast\"\n\n"
      "    def __post_init__(self):\n        if self.num_tokens <= 0:\n            raise ValueError(\"num_tokens must be positive\")\n";
  Record r = DocumentCode("m.py", file, 10, "ValueError", "num_tokens must be positive", "Desc.__post_init__",
                          {"self.num_tokens <= 0"});
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""), "# before\nDesc(num_tokens=0)\n# after\nDesc(num_tokens=1)");
  EXPECT_TRUE(AnyHas(r.solutions, "Call `Desc` with `num_tokens` greater than 0.")) << Dump(r);

  std::string plain = file.substr(0, file.find("@dataclass")) + file.substr(file.find("class Desc"));
  Record p = DocumentCode("m.py", plain, 9, "ValueError", "num_tokens must be positive", "Desc.__post_init__",
                          {"self.num_tokens <= 0"});
  SCOPED_TRACE(Dump(p));
  EXPECT_FALSE(Has(p.example_fix, "Desc(num_tokens="));
}

// `n % BLOCK_SIZE != 0` with a module-level int constant, and `int(n) % 8`, are
// multiples as `n % 16` is; a constant the file does not give a value stays unsaid.
TEST(ExampleFix, MultipleOfAModuleConstant) {
  std::string file =
      "BLOCK_SIZE = 16\n\n\ndef launch(n, m):\n"
      "    if n % BLOCK_SIZE != 0:\n        raise ValueError(\"n must be a multiple of the block size\")\n"
      "    if int(m) % 8 != 0:\n        raise ValueError(\"m must be a multiple of 8\")\n"
      "    if m % OTHER != 0:\n        raise ValueError(\"m must be a multiple of OTHER\")\n";
  Record r = DocumentCode("k.py", file, 6, "ValueError", "n must be a multiple of the block size", "launch",
                          {"n % BLOCK_SIZE != 0"});
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""), "# before\nlaunch(n=24)  # not a multiple of 16\n# after\nlaunch(n=16)");
  Record i = DocumentCode("k.py", file, 8, "ValueError", "m must be a multiple of 8", "launch", {"int(m) % 8 != 0"});
  SCOPED_TRACE(Dump(i));
  EXPECT_TRUE(Has(i.example_fix, "launch(m=8)"));
  Record o = DocumentCode("k.py", file, 10, "ValueError", "m must be a multiple of OTHER", "launch", {"m % OTHER != 0"});
  SCOPED_TRACE(Dump(o));
  EXPECT_FALSE(Has(o.example_fix, "launch(m="));
}

// `q.dtype != k.dtype` / `q.device != k.device` over two arguments: the call with `q`
// converted to the other's; `x.device != device` to the device argument. A comparison
// helper (the mismatch is what it reports) and a local tensor get no such fix.
TEST(ExampleFix, TensorPairMustMatch) {
  std::string file =
      "def attend(q, k, device):\n"
      "    if q.dtype != k.dtype:\n        raise ValueError(\"q and k must share a dtype\")\n"
      "    if q.device != k.device:\n        raise ValueError(\"q and k must share a device\")\n"
      "    if k.device != device:\n        raise ValueError(\"k must be on device\")\n"
      "    v = k * 2\n    if v.dtype != q.dtype:\n        raise ValueError(\"local\")\n"
      "def cast_check(x, out_dtype):\n    if x.dtype != out_dtype:\n        raise ValueError(\"dtype\")\n"
      "def assert_equal(actual, expected):\n    if actual.dtype != expected.dtype:\n        raise AssertionError(\"dtype\")\n";
  Record dt = DocumentCode("a.py", file, 3, "ValueError", "q and k must share a dtype", "attend", {"q.dtype != k.dtype"});
  SCOPED_TRACE(Dump(dt));
  EXPECT_EQ(dt.example_fix.value_or(""),
            "# before\nattend(q=q, k=k)  # q.dtype is not k.dtype\n# after\nattend(q=q.to(k.dtype), k=k)");
  EXPECT_TRUE(AnyHas(dt.solutions, "Pass `q` to `attend` in the same dtype as `k`: `q.to(k.dtype)`."));
  Record dv = DocumentCode("a.py", file, 5, "ValueError", "q and k must share a device", "attend", {"q.device != k.device"});
  SCOPED_TRACE(Dump(dv));
  EXPECT_TRUE(Has(dv.example_fix, "attend(q=q.to(k.device), k=k)"));
  EXPECT_TRUE(AnyHas(dv.solutions, "on the same device as `k`"));
  Record arg = DocumentCode("a.py", file, 7, "ValueError", "k must be on device", "attend", {"k.device != device"});
  SCOPED_TRACE(Dump(arg));
  EXPECT_TRUE(Has(arg.example_fix, "attend(k=k.to(device), device=device)"));
  Record local = DocumentCode("a.py", file, 10, "ValueError", "local", "attend", {"v.dtype != q.dtype"});
  SCOPED_TRACE(Dump(local));
  EXPECT_FALSE(Has(local.example_fix, ".to("));
  Record named = DocumentCode("a.py", file, 13, "ValueError", "dtype", "cast_check", {"x.dtype != out_dtype"});
  SCOPED_TRACE(Dump(named));
  EXPECT_TRUE(Has(named.example_fix, "cast_check(x=x.to(out_dtype), out_dtype=out_dtype)"));
  Record cmp = DocumentCode("a.py", file, 16, "AssertionError", "dtype", "assert_equal", {"actual.dtype != expected.dtype"});
  SCOPED_TRACE(Dump(cmp));
  EXPECT_FALSE(Has(cmp.example_fix, ".to("));
}

// TVM FFI's Optional<Tensor>: `scale.value().dtype() == dl_float32` checks the tensor `scale`.
TEST(ExampleFix, OptionalTensorOfCpp) {
  std::string file = "void moe(TensorView x, Optional<TensorView> scale) {\n  if (scale.has_value()) {\n    CHECK(scale);\n  }\n}\n";
  auto k = Knowledge({{"csrc/moe.cu", file}});
  Site s = RaiseSite("csrc/moe.cu", 3, "InternalError", "Check failed: scale.value().dtype() == dl_float32{value}: ", "moe");
  s.language = "cuda";
  s.assert_condition = "scale.value().dtype() == dl_float32";
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.example_fix, "moe(..., scale.to(torch.float32), ...)"));
}

// Forms read from flashinfer's validators: a module-level tuple of dtypes a parameter
// (or a tensor's dtype) must be in, an identity test against a dtype, a decimal bound,
// and two arguments that must be equal. Each gets the call a user writes.
TEST(ExampleFix, DtypeTuplesIdentityDecimalBoundsAndEqualArguments) {
  std::string file =
      "import torch\n\n_SUPPORTED = (torch.float16, torch.bfloat16)\n\n"
      "def check_dtype(q_dtype):\n    if q_dtype not in _SUPPORTED:\n        raise ValueError(\"unsupported dtype\")\n"
      "def validate_q(q):\n    if q.dtype not in _SUPPORTED:\n        raise ValueError(\"q must be fp16 or bf16\")\n"
      "class Runner:\n    def __init__(self, output_dtype=torch.bfloat16):\n"
      "        if output_dtype is not torch.bfloat16:\n            raise ValueError(\"bf16 output only\")\n"
      "def positive(value):\n    if value <= 0.0:\n        raise ValueError(\"must be positive\")\n"
      "def bench(num_k_heads, num_q_heads):\n    if num_k_heads != num_q_heads:\n        raise ValueError(\"heads differ\")\n"
      "def compare(actual, expected):\n    if actual != expected:\n        raise ValueError(\"mismatch\")\n";
  Record d = DocumentCode("v.py", file, 7, "ValueError", "unsupported dtype", "check_dtype", {"q_dtype not in _SUPPORTED"});
  SCOPED_TRACE(Dump(d));
  EXPECT_EQ(d.example_fix.value_or(""),
            "# before\ncheck_dtype(q_dtype=torch.float32)  # not torch.float16 or torch.bfloat16\n# after\n"
            "check_dtype(q_dtype=torch.float16)");
  EXPECT_TRUE(AnyHas(d.solutions, "set to one of `torch.float16` or `torch.bfloat16`"));
  Record t = DocumentCode("v.py", file, 10, "ValueError", "q must be fp16 or bf16", "validate_q", {"q.dtype not in _SUPPORTED"});
  SCOPED_TRACE(Dump(t));
  EXPECT_EQ(t.example_fix.value_or(""),
            "# before\nvalidate_q(q=q)  # q.dtype is not torch.float16\n# after\nvalidate_q(q=q.to(torch.float16))");
  EXPECT_TRUE(AnyHas(t.solutions, "as `torch.float16` or `torch.bfloat16`: `q.to(torch.float16)`"));
  Record r = DocumentCode("v.py", file, 14, "ValueError", "bf16 output only", "Runner.__init__",
                          {"output_dtype is not torch.bfloat16"});
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""),
            "# before\nRunner(output_dtype=torch.float32)  # not torch.bfloat16\n# after\nRunner(output_dtype=torch.bfloat16)");
  Record p = DocumentCode("v.py", file, 17, "ValueError", "must be positive", "positive", {"value <= 0.0"});
  SCOPED_TRACE(Dump(p));
  EXPECT_EQ(p.example_fix.value_or(""), "# before\npositive(value=0.0)\n# after\npositive(value=1.0)");
  EXPECT_TRUE(AnyHas(p.solutions, "Call `positive` with `value` greater than 0.0."));
  Record b = DocumentCode("v.py", file, 20, "ValueError", "heads differ", "bench", {"num_k_heads != num_q_heads"});
  SCOPED_TRACE(Dump(b));
  EXPECT_EQ(b.example_fix.value_or(""),
            "# before\nbench(num_k_heads=num_k_heads, num_q_heads=num_q_heads)  # num_k_heads != num_q_heads\n"
            "# after\nbench(num_k_heads=num_q_heads, num_q_heads=num_q_heads)");
  EXPECT_TRUE(AnyHas(b.solutions, "Call `bench` with `num_k_heads` equal to `num_q_heads`."));
  Record c = DocumentCode("v.py", file, 23, "ValueError", "mismatch", "compare", {"actual != expected"});
  SCOPED_TRACE(Dump(c));
  EXPECT_FALSE(Has(c.example_fix, "compare(actual=expected")) << "a comparison helper reports the difference";
}

// What the message says to use instead, to pass, to install or to call first becomes the
// example, in the form the user types it: the retired method's call and the new one's (an
// attribute for a property, an assignment for its setter), the keyword argument in a call
// of the function that takes it (not of a private helper), pip with an extra, the call first.
TEST(ExampleFix, TheMessagesOwnReplacementKeywordPackageAndFirstCall) {
  std::string file =
      "class Dataset:\n    def reset_encoding(self):\n"
      "        raise DeprecationWarning(\"reset_encoding is deprecated since 2023.11, use `drop_encoding` instead\")\n"
      "    @property\n    def filename(self):\n        return self.source\n"
      "    @filename.setter\n    def filename(self, value):\n"
      "        raise DeprecationWarning(\"The 'filename' attribute will be removed in Python 3.12. Use 'source' instead.\")\n";
  Record m = DocumentCode("d.py", file, 3, "DeprecationWarning",
                          "reset_encoding is deprecated since 2023.11, use `drop_encoding` instead", "Dataset.reset_encoding", {});
  SCOPED_TRACE(Dump(m));
  EXPECT_EQ(m.example_fix.value_or(""), "# before\nobj.reset_encoding(...)\n# after\nobj.drop_encoding(...)");
  Record set = DocumentCode("d.py", file, 9, "DeprecationWarning",
                            "The 'filename' attribute will be removed in Python 3.12. Use 'source' instead.", "Dataset.filename", {});
  SCOPED_TRACE(Dump(set));
  EXPECT_EQ(set.example_fix.value_or(""), "# before\nobj.filename = value\n# after\nobj.source = value");

  // A retired keyword of the function that warns: the call with the old keyword, then the new.
  std::string params =
      "import warnings\ndef Body(default=None, *, regex=None, pattern=None):\n    if regex is not None:\n"
      "        warnings.warn(\"`regex` has been deprecated, please use `pattern` instead\", DeprecationWarning)\n";
  Record kwd = DocumentCode("params.py", params, 4, "DeprecationWarning", "`regex` has been deprecated, please use `pattern` instead",
                            "Body", {"regex is not None"});
  SCOPED_TRACE(Dump(kwd));
  EXPECT_EQ(kwd.example_fix.value_or(""), "# before\nBody(..., regex=...)\n# after\nBody(..., pattern=...)");

  // A retired value, the replacement given as the keyword with its new value (trl's
  // "The `'keep_end'` truncation mode is deprecated ... Use `truncation_mode='keep_start'`").
  std::string mode =
      "import warnings\ndef check(mode):\n"
      "    warnings.warn(\"The `'keep_end'` truncation mode is deprecated. Use `truncation_mode='keep_start'` instead.\")\n";
  Record val = DocumentCode("mode.py", mode, 3, "UserWarning",
                            "The `'keep_end'` truncation mode is deprecated. Use `truncation_mode='keep_start'` instead.", "check", {});
  SCOPED_TRACE(Dump(val));
  EXPECT_EQ(val.example_fix.value_or(""), "# before\ntruncation_mode='keep_end'\n# after\ntruncation_mode='keep_start'");

  std::string times =
      "def date_range(start, calendar=\"standard\", use_cftime=None):\n    if use_cftime is False:\n"
      "        raise ValueError(f\"Invalid calendar {calendar} for pandas DatetimeIndex, try using `use_cftime=True`.\")\n"
      "def _should_use(use_cftime):\n    if use_cftime is False:\n"
      "        raise ValueError(\"Source time range is not valid. Try using `use_cftime=True`.\")\n";
  Record kw = DocumentCode("t.py", times, 3, "ValueError",
                           "Invalid calendar {calendar} for pandas DatetimeIndex, try using `use_cftime=True`.", "date_range",
                           {"use_cftime is False"});
  SCOPED_TRACE(Dump(kw));
  EXPECT_EQ(kw.example_fix.value_or(""), "# before\ndate_range(...)\n# after\ndate_range(use_cftime=True)");
  Record priv = DocumentCode("t.py", times, 6, "ValueError", "Source time range is not valid. Try using `use_cftime=True`.",
                             "_should_use", {"use_cftime is False"});
  SCOPED_TRACE(Dump(priv));
  EXPECT_FALSE(Has(priv.example_fix, "_should_use(use_cftime=True)"));

  std::string pkgs =
      "def views():\n    raise RuntimeError(\"Install Flask with the 'async' extra in order to use async views.\")\n"
      "def hadamard():\n    raise ImportError(\"This attention requires SciPy for Hadamard transform. Please install scipy.\")\n"
      "def get_config():\n    raise RuntimeError(\"Ascend config is not initialized. Please call init_ascend_config first.\")\n";
  Record extra = DocumentCode("p.py", pkgs, 2, "RuntimeError", "Install Flask with the 'async' extra in order to use async views.",
                              "views", {});
  SCOPED_TRACE(Dump(extra));
  EXPECT_TRUE(Has(extra.example_fix, "pip install \"flask[async]\""));
  Record scipy = DocumentCode("p.py", pkgs, 4, "ImportError",
                              "This attention requires SciPy for Hadamard transform. Please install scipy.", "hadamard", {});
  SCOPED_TRACE(Dump(scipy));
  EXPECT_TRUE(Has(scipy.example_fix, "pip install scipy"));
  Record first = DocumentCode("p.py", pkgs, 6, "RuntimeError",
                              "Ascend config is not initialized. Please call init_ascend_config first.", "get_config", {});
  SCOPED_TRACE(Dump(first));
  EXPECT_EQ(first.example_fix.value_or(""), "# before\nget_config(...)\n# after\ninit_ascend_config(...)\nget_config(...)");
}

// A parameter's type when it has no annotation: an isinstance test around the check, or
// its default; built-in types a caller types (`element_type not in (str, bytes)`); and
// `callable(f)` as the type test it is.
TEST(ExampleFix, UnannotatedParametersAndTypesAsValues) {
  std::string file =
      "def check_name(name):\n    if isinstance(name, str):\n        if not name:\n"
      "            raise ValueError(\"Invalid name: string must be length 1 or greater\")\n"
      "def create_vlen_dtype(element_type):\n    if element_type not in (str, bytes):\n"
      "        raise TypeError(f\"unsupported type for vlen_dtype: {element_type!r}\")\n"
      "def coroutine(func):\n    if not callable(func):\n        raise TypeError(\"types.coroutine() expects a callable\")\n"
      "def open_all(pattern=\"*.nc\"):\n    if not pattern:\n        raise ValueError(\"no pattern\")\n";
  Record name = DocumentCode("c.py", file, 4, "ValueError", "Invalid name: string must be length 1 or greater", "check_name",
                             {"isinstance(name, str)", "not name"});
  SCOPED_TRACE(Dump(name));
  EXPECT_EQ(name.example_fix.value_or(""), "# before\ncheck_name(name=\"\")\n# after\ncheck_name(name=\"text\")");
  Record types = DocumentCode("c.py", file, 7, "TypeError", "unsupported type for vlen_dtype: {element_type!r}", "create_vlen_dtype",
                              {"element_type not in (str, bytes)"});
  SCOPED_TRACE(Dump(types));
  EXPECT_EQ(types.example_fix.value_or(""),
            "# before\ncreate_vlen_dtype(element_type=int)  # not str or bytes\n# after\ncreate_vlen_dtype(element_type=str)");
  EXPECT_TRUE(AnyHas(types.solutions, "one of `str` or `bytes`"));
  Record call = DocumentCode("c.py", file, 10, "TypeError", "types.coroutine() expects a callable", "coroutine",
                             {"not callable(func)"});
  SCOPED_TRACE(Dump(call));
  EXPECT_TRUE(Has(call.trigger_scenarios, "`func` that is not a callable"));
  EXPECT_TRUE(Has(call.example_fix, "coroutine(func=my_function)"));
  Record def = DocumentCode("c.py", file, 13, "ValueError", "no pattern", "open_all", {"not pattern"});
  SCOPED_TRACE(Dump(def));
  EXPECT_EQ(def.example_fix.value_or(""), "# before\nopen_all(pattern=\"\")\n# after\nopen_all(pattern=\"text\")");
}

// The requirements a user installs are the fix, not the platform tests that pick them:
// several missing packages are one choice ("install one of"), a version test on a
// platform's branch names no change of machine, and the message's "upgrade X" is not
// said again beside the version fact of X. The flag whose value the message gives is
// the example's change.
TEST(ExampleFix, InstallableRequirementsAndTheFlagTheMessageNames) {
  std::string file =
      "from accel.utils import is_musa_available, is_torchao_available, is_msamp_available, compare_versions\n"
      "def init(fp8):\n    if fp8:\n        if is_torchao_available():\n            return 1\n"
      "        elif is_msamp_available():\n            return 2\n        else:\n"
      "            raise ImportError(\"no FP8 backend was installed. Valid backends are: `torchao` and `msamp`\")\n"
      "def ds():\n    if is_musa_available():\n        if compare_versions(\"deepspeed\", \"<\", \"0.14.3\"):\n"
      "            raise ImportError(\"DeepSpeed MUSA version must be >= 0.14.3. Please update DeepSpeed.\")\n";
  Record fp8 = DocumentCode("a.py", file, 9, "ImportError", "no FP8 backend was installed. Valid backends are: `torchao` and `msamp`",
                            "init", {"fp8", "not is_torchao_available()", "not is_msamp_available()"});
  SCOPED_TRACE(Dump(fp8));
  EXPECT_TRUE(AnyHas(fp8.solutions, "Install one of the packages that provide `msamp` or `torchao`")) << Dump(fp8);
  Record musa = DocumentCode("a.py", file, 13, "ImportError", "DeepSpeed MUSA version must be >= 0.14.3. Please update DeepSpeed.", "ds",
                             {"is_musa_available()", "compare_versions(\"deepspeed\", \"<\", \"0.14.3\")"});
  SCOPED_TRACE(Dump(musa));
  EXPECT_TRUE(AnyHas(musa.solutions, "pip install \"deepspeed>=0.14.3\"")) << Dump(musa);
  EXPECT_FALSE(AnyHas(musa.solutions, "Moore Threads"));
  EXPECT_FALSE(AnyHas(musa.solutions, "pip install -U DeepSpeed"));

  std::string launch =
      "import argparse\n"
      "def main():\n    parser = argparse.ArgumentParser()\n"
      "    parser.add_argument(\"--gpu_ids\", default=None, help=\"GPUs\")\n"
      "    parser.add_argument(\"--multi_gpu\", action=\"store_true\", help=\"many\")\n"
      "    parser.add_argument(\"--num_machines\", type=int, default=1, help=\"machines\")\n"
      "    args = parser.parse_args()\n"
      "    if args.gpu_ids != \"all\" and args.multi_gpu and args.num_machines <= 1:\n"
      "        raise ValueError(\"Less than two GPU ids were configured. Please ensure at least two are specified for `--gpu_ids`, "
      "or use `--gpu_ids='all'`.\")\n";
  Record gpu = DocumentCode("launch.py", launch, 9, "ValueError",
                            "Less than two GPU ids were configured. Please ensure at least two are specified for `--gpu_ids`, "
                            "or use `--gpu_ids='all'`.",
                            "main", {"args.gpu_ids != \"all\" and args.multi_gpu and args.num_machines <= 1"});
  SCOPED_TRACE(Dump(gpu));
  EXPECT_TRUE(AnyHas(gpu.solutions, "Pass `--gpu_ids all` (the message's own hint).")) << Dump(gpu);
  EXPECT_TRUE(Has(gpu.example_fix, "# after\n--gpu_ids all")) << Dump(gpu);
}

// A config dataclass that checks its own fields in __post_init__: the user builds it, so
// the triggers say "Building `C` with ...", a bool field is set to True or False (not
// "a non-empty value"), and a type test of a field is fixed in the constructor call --
// not by leaving the field out.
TEST(ExampleFix, ConfigFieldsCheckedAsTheObjectIsBuilt) {
  std::string file =
      "from dataclasses import dataclass, field\n\n\n@dataclass\nclass BnbConfig:\n"
      "    load_in_8bit: bool = field(default=False, metadata={\"help\": \"8 bit\"})\n"
      "    load_in_4bit: bool = field(default=False, metadata={\"help\": \"4 bit\"})\n"
      "    min_num_params: int = None\n\n"
      "    def __post_init__(self):\n"
      "        if not isinstance(self.load_in_8bit, bool):\n            raise ValueError(\"load_in_8bit must be a boolean\")\n"
      "        if not self.load_in_4bit and not self.load_in_8bit:\n"
      "            raise ValueError(\"load_in_4bit and load_in_8bit can't be both False\")\n"
      "        if self.min_num_params is None:\n            self.min_num_params = 0\n"
      "        elif not isinstance(self.min_num_params, int):\n"
      "            raise ValueError(f\"`min_num_params` must be an integer. Got {self.min_num_params}\")\n";
  Record both = DocumentCode("cfg.py", file, 14, "ValueError", "load_in_4bit and load_in_8bit can't be both False", "BnbConfig.__post_init__",
                             {"not self.load_in_4bit and not self.load_in_8bit"});
  SCOPED_TRACE(Dump(both));
  EXPECT_TRUE(Has(both.trigger_scenarios, "Building `BnbConfig` with `load_in_4bit` set to `False` and `load_in_8bit` set to `False`."));
  EXPECT_TRUE(AnyHas(both.solutions, "Set the `load_in_8bit` setting of `BnbConfig` to `True`."));
  EXPECT_EQ(both.example_fix.value_or(""), "# before\nBnbConfig()\n# after\nBnbConfig(load_in_8bit=True)");

  Record type = DocumentCode("cfg.py", file, 12, "ValueError", "load_in_8bit must be a boolean", "BnbConfig.__post_init__",
                             {"not isinstance(self.load_in_8bit, bool)"});
  SCOPED_TRACE(Dump(type));
  EXPECT_TRUE(Has(type.trigger_scenarios, "Building `BnbConfig` with `load_in_8bit` that is not an instance of `bool`."));
  EXPECT_TRUE(Has(type.example_fix, "# after\nBnbConfig(load_in_8bit=True)"));

  Record given = DocumentCode("cfg.py", file, 18, "ValueError", "`min_num_params` must be an integer. Got {self.min_num_params}",
                              "BnbConfig.__post_init__", {"self.min_num_params is not None", "not isinstance(self.min_num_params, int)"});
  SCOPED_TRACE(Dump(given));
  EXPECT_FALSE(AnyHas(given.solutions, "unset"));
  EXPECT_FALSE(Has(given.trigger_scenarios, "given"));
  EXPECT_TRUE(Has(given.example_fix, "# after\nBnbConfig(min_num_params=1)"));
}

// A flag of a script under examples/ is that script's, not the library's; a
// subclass checking its base's field is built as itself, and a same-named field
// of an unrelated config elsewhere is not it.
TEST(ExampleFix, ScriptsFlagsAndOtherClassesFieldsAreNotTheLibrarys) {
  std::string script =
      "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
      "    parser.add_argument(\"--target_modules\", type=str, default=None)\n"
      "    parser.add_argument(\"--r\", type=int, default=16)\n    args = parser.parse_args()\n";
  std::string other =
      "from dataclasses import dataclass\n\n\n@dataclass\nclass OtherConfig:\n    r: int = 4\n";
  std::string base =
      "from dataclasses import dataclass\n\n\n@dataclass\nclass LoraConfig:\n    r: int = 8\n    target_modules: str = None\n";
  std::string lib =
      "from dataclasses import dataclass\n\nfrom .lora import LoraConfig\n\n\n@dataclass\nclass AdaConfig(LoraConfig):\n"
      "    init_r: int = 12\n\n"
      "    def __post_init__(self):\n"
      "        if self.r != 8:\n"
      "            raise ValueError(\"`r` is not used by AdaConfig; set `init_r` instead.\")\n\n\n"
      "def inject(model, peft_config):\n"
      "    if not peft_config.target_modules:\n"
      "        raise ValueError(\"No layers were found. Please check `peft_config.target_modules`.\")\n";
  auto k = Knowledge({{"examples/train.py", script}, {"src/pkg/other.py", other}, {"src/pkg/lora.py", base}, {"src/pkg/ada.py", lib}});

  Site check = RaiseSite("src/pkg/ada.py", 17, "ValueError", "No layers were found. Please check `peft_config.target_modules`.", "inject");
  check.guards = {"not peft_config.target_modules"};
  Record c;
  Doc(check, lib, *k, &c);
  SCOPED_TRACE(Dump(c));
  EXPECT_TRUE(AnyHas(c.solutions, "Please check `peft_config.target_modules`. (the message's advice)"));
  for (const Record* r : {&c})
    for (const auto& field : {r->trigger_scenarios, r->example_fix}) EXPECT_FALSE(Has(field, "--target_modules"));
  EXPECT_FALSE(AnyHas(c.solutions, "--target_modules"));

  Site sub = RaiseSite("src/pkg/ada.py", 12, "ValueError", "`r` is not used by AdaConfig; set `init_r` instead.", "AdaConfig.__post_init__");
  sub.guards = {"self.r != 8"};
  Record r;
  Doc(sub, lib, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""), "# before\nAdaConfig(r=9)\n# after\nAdaConfig(r=8)");
  EXPECT_TRUE(Has(r.trigger_scenarios, "Building `AdaConfig` with `r` != `8`."));
  EXPECT_FALSE(AnyHas(r.solutions, "OtherConfig"));
  EXPECT_FALSE(AnyHas(r.solutions, "--r"));
}

// A field tested for being given takes a value of its type (the plainest member of a
// Union); a field many configs share is the one nearest the site in the tree.
TEST(ExampleFix, FieldsGivenAValueOfTheirTypeFromTheNearestConfig) {
  auto config = [](const std::string& cls) {
    return "from dataclasses import dataclass, field\nfrom typing import Optional, Union\n\n\n@dataclass\nclass " + cls +
           ":\n    target_modules: Optional[Union[list[str], str]] = None\n"
           "    layers_to_transform: Optional[Union[list[int], int]] = None\n"
           "    layers_pattern: Optional[Union[list[str], str]] = None\n\n"
           "    def __post_init__(self):\n"
           "        if self.layers_pattern and self.layers_to_transform is None:\n"
           "            raise ValueError(\"When `layers_pattern` is specified, `layers_to_transform` must also be specified.\")\n";
  };
  std::string model =
      "def inject(peft_config):\n"
      "    if peft_config.target_modules is None:\n"
      "        raise ValueError(\"Please specify `target_modules` in `peft_config`\")\n";
  std::string b = config("BConfig");
  auto k = Knowledge({{"pkg/a/config.py", config("AConfig")}, {"pkg/b/config.py", b}, {"pkg/b/model.py", model}});

  Site given = RaiseSite("pkg/b/config.py", 12, "ValueError",
                         "When `layers_pattern` is specified, `layers_to_transform` must also be specified.", "BConfig.__post_init__");
  given.guards = {"self.layers_pattern and self.layers_to_transform is None"};
  Record g;
  Doc(given, b, *k, &g);
  SCOPED_TRACE(Dump(g));
  EXPECT_EQ(g.example_fix.value_or(""),
            "# before\nBConfig(layers_pattern=\"text\")\n# after\nBConfig(layers_pattern=\"text\", layers_to_transform=1)");

  Site inject = RaiseSite("pkg/b/model.py", 3, "ValueError", "Please specify `target_modules` in `peft_config`", "inject");
  inject.guards = {"peft_config.target_modules is None"};
  Record r;
  Doc(inject, model, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r.example_fix.value_or(""), "# before\nBConfig()\n# after\nBConfig(target_modules=\"text\")");
  EXPECT_FALSE(AnyHas(r.solutions, "AConfig"));
}

// lightning_utilities' requirement constants, defined in one module and tested in
// others (or in their own): the requirement is what to install.
TEST(ExampleFix, RequirementConstantsNameWhatToInstall) {
  std::string imports =
      "import operator\n\nfrom lightning_utilities.core.imports import RequirementCache, compare_version\n\n"
      "_TORCH_GREATER_EQUAL_2_3 = compare_version(\"torch\", operator.ge, \"2.3.0\")\n"
      "_XLA_AVAILABLE = RequirementCache(\"torch_xla\")\n";
  std::string user =
      "from pkg.imports import _TORCH_GREATER_EQUAL_2_3, _XLA_AVAILABLE\n"
      "from lightning_utilities.core.imports import RequirementCache\n\n"
      "_WANDB_AVAILABLE = RequirementCache(\"wandb>=0.12.10\")\n\n\n"
      "def consolidate(path):\n"
      "    if not _TORCH_GREATER_EQUAL_2_3:\n"
      "        raise RuntimeError(\"Processing distributed checkpoints requires PyTorch >= 2.3.\")\n\n\n"
      "def log(x):\n"
      "    if not _WANDB_AVAILABLE:\n"
      "        raise ModuleNotFoundError(str(_WANDB_AVAILABLE))\n\n\n"
      "def xla():\n"
      "    if not _XLA_AVAILABLE:\n"
      "        raise ModuleNotFoundError(str(_XLA_AVAILABLE))\n";
  auto k = Knowledge({{"pkg/imports.py", imports}, {"pkg/user.py", user}});
  auto doc = [&](const RepoKnowledge& kn, const std::string& path, const std::string& text, int line, const std::string& cls,
                 const std::string& msg, const std::string& fn, const std::string& guard) {
    Site s = RaiseSite(path, line, cls, msg, fn);
    s.guards = {guard};
    Record r;
    Doc(s, text, kn, &r);
    return r;
  };

  Record t = doc(*k, "pkg/user.py", user, 9, "RuntimeError", "Processing distributed checkpoints requires PyTorch >= 2.3.",
                 "consolidate", "not _TORCH_GREATER_EQUAL_2_3");
  SCOPED_TRACE(Dump(t));
  EXPECT_TRUE(AnyHas(t.solutions, "pip install \"torch>=2.3.0\""));
  EXPECT_TRUE(Has(t.example_fix, "# after\npip install \"torch>=2.3.0\""));
  Record w = doc(*k, "pkg/user.py", user, 14, "ModuleNotFoundError", "", "log", "not _WANDB_AVAILABLE");
  SCOPED_TRACE(Dump(w));
  EXPECT_TRUE(Has(w.example_fix, "pip install \"wandb>=0.12.10\""));
  Record x = doc(*k, "pkg/user.py", user, 19, "ModuleNotFoundError", "", "xla", "not _XLA_AVAILABLE");
  SCOPED_TRACE(Dump(x));
  EXPECT_TRUE(Has(x.example_fix, "pip install torch-xla"));

  // The call in the guard itself (xarray's module_available, with a minimum version).
  std::string direct =
      "from xarray.namedarray.utils import module_available\n\n\n"
      "def shuffle(x):\n"
      "    if not module_available(\"dask\", minversion=\"2024.08.1\"):\n"
      "        raise ValueError(\"This method is very inefficient on dask<2024.08.1. Please upgrade.\")\n";
  Record d = doc(*Knowledge({{"pkg/dask.py", direct}}), "pkg/dask.py", direct, 6, "ValueError",
                 "This method is very inefficient on dask<2024.08.1. Please upgrade.", "shuffle",
                 "not module_available(\"dask\", minversion=\"2024.08.1\")");
  SCOPED_TRACE(Dump(d));
  EXPECT_TRUE(Has(d.example_fix, "pip install \"dask>=2024.08.1\""));
}

}  // namespace
}  // namespace errdex
