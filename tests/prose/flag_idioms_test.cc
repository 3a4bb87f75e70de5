// The prose of real-style code for every way a program takes its settings: each
// fixture tree under tests/prose/fixtures/ is scanned by the real binary, and the
// records' triggers, solutions and exampleFix must name the settings the way the
// user writes them (`--deepep-mode normal`, `MYSVC_MAX_WORKERS=65`), never as the
// attribute the code reads (`deepep_mode="normal"`, `ServerArgs.deepep_mode`). The
// prose checker (document/prose_lint.h) must find nothing in them.
#include <gtest/gtest.h>

#include "prose/fixture_scan.h"

namespace errdex {
namespace {

using namespace prosetest;

TEST(FlagIdioms, Argparse) {
  Scanned s = ScanFixture("argparse");
  ASSERT_EQ(s.exit_code, 0);
  const Record* r = Find(s, "torch_native attention cannot be compiled");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r->trigger_scenarios, "`--attention-backend torch_native` and `--enable-torch-compile`"));
  EXPECT_TRUE(AnyHas(r->solutions, "Drop --enable-torch-compile or pick another backend. (the message's advice)"));
  EXPECT_TRUE(AnyHas(r->solutions, "Change `--attention-backend` from `torch_native` to `triton` or `flashinfer`; its default is `triton`"));
  EXPECT_EQ(r->example_fix.value_or(""),
            "# before\n--attention-backend torch_native --enable-torch-compile\n# after\n--attention-backend torch_native");
  const Record* p = Find(s, "--page-size must be at most 64");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->example_fix.value_or(""), "# before\n--page-size 65\n# after\n--page-size 1") << Dump(p);
  // Flags on both sides of a comparison, and inside arithmetic the facts do not read:
  // the prose names each as the user types it, never `args.num_kv_groups`.
  const Record* d = Find(s, "must be divisible by num_kv_groups");
  ASSERT_TRUE(d);
  EXPECT_TRUE(Has(d->trigger_scenarios, "`--num-heads % --num-kv-groups != 0`")) << Dump(d);
  const Record* c = Find(s, "a prefill chunk cannot span");
  ASSERT_TRUE(c);
  EXPECT_TRUE(Has(c->trigger_scenarios, "--page-size * 1024")) << Dump(c);
  for (const Record* r2 : {d, c}) {
    EXPECT_FALSE(Has(r2->trigger_scenarios, "args.")) << Dump(r2);
    EXPECT_FALSE(Has(r2->common_situations, "args.")) << Dump(r2);
    EXPECT_FALSE(AnyHas(r2->solutions, "args.")) << Dump(r2);
  }
  ExpectCleanProse(s);
}

// sglang: fields annotated A[T, Arg(...)] turned into flags by a helper that walks
// the dataclass (arg_groups/arg_utils.py); choices from Literal and from Arg(choices=CONST),
// aliases, a base class's fields, no_cli fields left out.
TEST(FlagIdioms, DataclassFieldsThroughAHelper) {
  Scanned s = ScanFixture("dataclass_helper");
  ASSERT_EQ(s.exit_code, 0);
  const Record* r = Find(s, "only supports DeepEP low_latency dispatch");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r->trigger_scenarios,
                  "`--moe-a2a-backend deepep`, `--moe-runner-backend flashinfer_cutedsl` and `--deepep-mode normal`"));
  EXPECT_TRUE(Has(r->trigger_scenarios, "only an explicit `--deepep-mode normal` does"));
  EXPECT_TRUE(AnyHas(r->solutions, "Pass `--deepep-mode low_latency` or `--deepep-mode auto` (the message's own hint)"));
  EXPECT_TRUE(AnyHas(r->solutions, "Change `--moe-runner-backend` from `flashinfer_cutedsl` to `auto`, `triton`, `flashinfer_trtllm` or `cutlass`"));
  EXPECT_EQ(r->example_fix.value_or(""),
            "# before\n--moe-a2a-backend deepep --moe-runner-backend flashinfer_cutedsl --deepep-mode normal\n"
            "# after\n--moe-a2a-backend deepep --moe-runner-backend flashinfer_cutedsl --deepep-mode low_latency");
  for (const char* attr : {"deepep_mode=", "cfg.deepep_mode`", "ServerArgs.deepep_mode"}) {
    EXPECT_FALSE(Has(r->trigger_scenarios, attr)) << attr;
    EXPECT_FALSE(AnyHas(r->solutions, attr)) << attr;
    EXPECT_FALSE(Has(r->example_fix, attr)) << attr;
  }
  // A field of the base class, by its own flag name (aliases: --ep).
  const Record* e = Find(s, "Expert load balancing needs expert parallelism");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->example_fix.value_or(""), "# before\n--enable-eplb --ep-size 1\n# after\n--enable-eplb --ep-size 2") << Dump(e);
  // Another file reads the same settings through `server_args`.
  const Record* m = Find(s, "is not available in this build");
  ASSERT_TRUE(m);
  EXPECT_TRUE(AnyHas(m->solutions, "Set `--moe-runner-backend` to one of the supported values: `auto` or `triton`")) << Dump(m);
  ExpectCleanProse(s);
}

// vLLM: add_argument("--tensor-parallel-size", **parallel_kwargs[...]) takes type and
// default from the config dataclass's field of that name.
TEST(FlagIdioms, EngineArgsKwargsFromConfigFields) {
  Scanned s = ScanFixture("engine_args");
  ASSERT_EQ(s.exit_code, 0);
  const Record* r = Find(s, "Tensor parallelism beyond one node");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r->trigger_scenarios, "`--tensor-parallel-size` > `8`"));
  EXPECT_TRUE(AnyHas(r->solutions, "Set `--tensor-parallel-size` to a value of at most 8, e.g. `--tensor-parallel-size 1`"));
  EXPECT_EQ(r->example_fix.value_or(""), "# before\n--tensor-parallel-size 9\n# after\n--tensor-parallel-size 1");
  const Record* u = Find(s, "The uni executor runs one process");
  ASSERT_TRUE(u);
  // Choices from the Literal alias the field is annotated with.
  EXPECT_TRUE(AnyHas(u->solutions, "Change `--distributed-executor-backend` from `uni` to `ray` or `mp`")) << Dump(u);
  ExpectCleanProse(s);
}

TEST(FlagIdioms, Click) {
  Scanned s = ScanFixture("click");
  ASSERT_EQ(s.exit_code, 0);
  const Record* r = Find(s, "Half precision needs an accelerator");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  // The command's parameters are its options.
  EXPECT_TRUE(Has(r->trigger_scenarios, "Launching with `--fp16` and `--device cpu`"));
  EXPECT_TRUE(AnyHas(r->solutions, "Use `--device cuda` or `--device mps` (the message's own hint)"));
  EXPECT_TRUE(AnyHas(r->solutions, "Drop `--fp16` (or pass `--no-fp16`)"));
  EXPECT_EQ(r->example_fix.value_or(""), "# before\n--fp16 --device cpu\n# after\n--fp16 --device cuda");
  const Record* w = Find(s, "must be at least 1");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->example_fix.value_or(""), "# before\n--workers 0\n# after\n--workers 1") << Dump(w);
  ExpectCleanProse(s);
}

TEST(FlagIdioms, Typer) {
  Scanned s = ScanFixture("typer");
  ASSERT_EQ(s.exit_code, 0);
  const Record* r = Find(s, "gptq kernels support at most 16");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  // An Enum-typed parameter: the member's value; an option with its own name.
  EXPECT_TRUE(Has(r->trigger_scenarios, "Launching with `--quantize gptq` and `--max-batch-size` > `16`"));
  EXPECT_TRUE(AnyHas(r->solutions, "Change `--quantize` from `gptq` to `awq` or `fp8`, or leave it out"));
  EXPECT_EQ(r->example_fix.value_or(""), "# before\n--quantize gptq --max-batch-size 17\n# after\n--quantize gptq --max-batch-size 16");
  ExpectCleanProse(s);
}

// pydantic BaseSettings: a field is set by its PREFIX_NAME environment variable.
TEST(FlagIdioms, PydanticSettingsAreEnvironmentVariables) {
  Scanned s = ScanFixture("pydantic_settings");
  ASSERT_EQ(s.exit_code, 0);
  const Record* r = Find(s, "max_workers above 64");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r->trigger_scenarios, "environment variable `MYSVC_MAX_WORKERS` > `64`"));
  EXPECT_EQ(r->example_fix.value_or(""), "# before\nMYSVC_MAX_WORKERS=65\n# after\nMYSVC_MAX_WORKERS=4");
  const Record* f = Find(s, "unknown log format");
  ASSERT_TRUE(f);
  EXPECT_TRUE(AnyHas(f->solutions, "Set environment variable `MYSVC_LOG_FORMAT` to one of the supported values: `text` or `json`")) << Dump(f);
  ExpectCleanProse(s);
}

// sglang's EnvBool registry, a get_*_env_var reader and os.environ.get.
TEST(FlagIdioms, EnvironmentRegistries) {
  Scanned s = ScanFixture("env_registry");
  ASSERT_EQ(s.exit_code, 0);
  const Record* r = Find(s, "The canary runs only with the default kernels");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r->trigger_scenarios, "`KV_FORCE_TRITON=1` (any true value) and `KV_ENABLE_CANARY=1` (any true value)"));
  EXPECT_EQ(r->example_fix.value_or(""), "# before\nKV_FORCE_TRITON=1 KV_ENABLE_CANARY=1\n# after\nKV_FORCE_TRITON=1 KV_ENABLE_CANARY=0");
  const Record* a = Find(s, "KV_USE_AITER needs a ROCm build");
  ASSERT_TRUE(a);
  EXPECT_TRUE(AnyHas(a->solutions, "Unset it on CUDA machines. (the message's advice)")) << Dump(a);
  EXPECT_TRUE(AnyHas(a->solutions, "an AMD GPU with a ROCm build of PyTorch")) << Dump(a);
  ExpectCleanProse(s);
}

// JavaScript/TypeScript: request fields of an express route, argument checks, NestJS HttpException.
TEST(FlagIdioms, JavaScriptAndTypeScript) {
  Scanned s = ScanFixture("javascript");
  ASSERT_EQ(s.exit_code, 0);
  const Record* r = Find(s, "unknown role");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r->trigger_scenarios, "A POST `/users` request where `role` in the request body is not `admin` or `viewer`"));
  EXPECT_TRUE(AnyHas(r->solutions, "Send `role` in the request body as one of `admin` or `viewer`"));
  EXPECT_EQ(r->example_fix.value_or(""), "# before\nPOST /users  {\"role\": \"other\"}\n# after\nPOST /users  {\"role\": \"admin\"}");
  const Record* n = Find(s, "name is required");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->example_fix.value_or(""), "# before\nPOST /users  {}\n# after\nPOST /users  {\"name\": \"...\"}") << Dump(n);
  const Record* t = Find(s, "page must be a string");
  ASSERT_TRUE(t);
  EXPECT_TRUE(AnyHas(t->solutions, "Pass `page` to `parsePage` as a string")) << Dump(t);
  const Record* h = Find(s, "Follower email and username not provided");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->http_status.value_or(0), 400);
  EXPECT_TRUE(AnyHas(h->solutions, "Pass `followerEmail` and `username` to `follow`")) << Dump(h);
  ExpectCleanProse(s);
}

// Rust: clap's derive attributes define the flags (in another file than the checks):
// `args.workers` is `--workers`, a ValueEnum variant is its kebab-case value, `long = "..."`
// renames, `std::env::var("X").is_ok()` is X set to any value.
TEST(FlagIdioms, RustClap) {
  Scanned s = ScanFixture("rust_clap");
  ASSERT_EQ(s.exit_code, 0);
  const Record* w = Find(s, "at least one worker thread");
  ASSERT_TRUE(w);
  SCOPED_TRACE(Dump(w));
  EXPECT_TRUE(Has(w->trigger_scenarios, "`--workers`"));
  EXPECT_EQ(w->example_fix.value_or(""), "# before\n--workers 0\n# after\n--workers 4");
  const Record* p = Find(s, "cache-aware routing needs");
  ASSERT_TRUE(p);
  SCOPED_TRACE(Dump(p));
  EXPECT_TRUE(Has(p->trigger_scenarios, "`--policy cache-aware`"));
  EXPECT_TRUE(AnyHas(p->solutions, "to `round-robin` or `random`"));
  EXPECT_FALSE(Has(p->example_fix, "Policy::"));
  const Record* m = Find(s, "payload limit");
  ASSERT_TRUE(m);
  SCOPED_TRACE(Dump(m));
  EXPECT_TRUE(AnyHas(m->solutions, "`--max-payload-mb 256`"));
  const Record* v = Find(s, "verbose logging is not allowed");
  ASSERT_TRUE(v);
  SCOPED_TRACE(Dump(v));
  EXPECT_TRUE(AnyHas(v->solutions, "Drop `--verbose`"));
  EXPECT_TRUE(AnyHas(v->solutions, "Unset `ROUTER_STRICT`"));
  EXPECT_FALSE(AnyHas(v->solutions, "ROUTER_STRICT=0"));  // is_ok(): "0" is set too
  for (const auto& l : s.lines) EXPECT_FALSE(Has(l.record.trigger_scenarios, "args.")) << Dump(&l.record);
  ExpectCleanProse(s);
}

// Go: flag.String/flag.Int bound to a local (`*mode`), pflag's Var forms on a FlagSet in
// another package (`cfg.MaxInflight` is `--max-inflight`), os.Getenv(X) == "" is X unset. A
// Python script of the same repository testing `args.mode` gets none of the Go flags.
TEST(FlagIdioms, GoFlag) {
  Scanned s = ScanFixture("go_flag");
  ASSERT_EQ(s.exit_code, 0);
  const Record* m = Find(s, "unknown mode");
  ASSERT_TRUE(m);
  SCOPED_TRACE(Dump(m));
  EXPECT_TRUE(Has(m->trigger_scenarios, "`-mode`"));
  EXPECT_TRUE(AnyHas(m->solutions, "`-mode serve`"));
  const Record* r = Find(s, "retries must not be negative");
  ASSERT_TRUE(r);
  SCOPED_TRACE(Dump(r));
  EXPECT_EQ(r->example_fix.value_or(""), "# before\n-retries -1\n# after\n-retries 3");
  const Record* i = Find(s, "max inflight must be positive");
  ASSERT_TRUE(i);
  SCOPED_TRACE(Dump(i));
  EXPECT_TRUE(AnyHas(i->solutions, "`--max-inflight 64`"));
  const Record* t = Find(s, "GATEWAY_TOKEN is not set");
  ASSERT_TRUE(t);
  SCOPED_TRACE(Dump(t));
  EXPECT_TRUE(AnyHas(t->solutions, "Set `GATEWAY_TOKEN` in the environment"));
  EXPECT_FALSE(Has(t->trigger_scenarios, "`GATEWAY_TOKEN=`"));
  const Record* py = Find(s, "unknown load mode");
  ASSERT_TRUE(py);
  SCOPED_TRACE(Dump(py));
  EXPECT_FALSE(Has(py->trigger_scenarios, "-mode"));
  EXPECT_FALSE(AnyHas(py->solutions, "-mode"));
  ExpectCleanProse(s);
}

// Java: picocli's @Option fields are flags (`threads` and `this.offline` in the checks),
// the default from defaultValue; System.getenv is an environment variable; the code spans
// stay Java (`!offline`).
TEST(FlagIdioms, JavaPicocli) {
  Scanned s = ScanFixture("java_picocli");
  ASSERT_EQ(s.exit_code, 0);
  const Record* t = Find(s, "--threads must be at least 1");
  ASSERT_TRUE(t);
  SCOPED_TRACE(Dump(t));
  EXPECT_EQ(t->example_fix.value_or(""), "# before\n--threads 0\n# after\n--threads 8");
  const Record* o = Find(s, "offline mode needs a model cache directory");
  ASSERT_TRUE(o);
  SCOPED_TRACE(Dump(o));
  EXPECT_TRUE(Has(o->trigger_scenarios, "`--offline` and `--cache-dir` not given"));
  EXPECT_TRUE(AnyHas(o->solutions, "Drop `--offline`"));
  const Record* k = Find(s, "MODEL_HUB_TOKEN is required");
  ASSERT_TRUE(k);
  SCOPED_TRACE(Dump(k));
  EXPECT_TRUE(Has(k->documentation, "`!offline`"));
  EXPECT_TRUE(AnyHas(k->solutions, "Pass `--offline`"));
  EXPECT_FALSE(k->try_catch_pattern);
  ExpectCleanProse(s);
}

// Java: JVM system properties (Integer.getInteger, System.getProperty, Long.getLong,
// Boolean.getBoolean with a literal name) are settings the user types as -Dname=value:
// never `--name value`, never the Java call; a boolean one is given "true", not bare.
// A property whose name is computed is not named.
TEST(FlagIdioms, JavaSystemProperties) {
  Scanned s = ScanFixture("java_properties");
  ASSERT_EQ(s.exit_code, 0);
  const Record* w = Find(s, "ingest.workers must be at least 1");
  ASSERT_TRUE(w);
  SCOPED_TRACE(Dump(w));
  EXPECT_EQ(w->example_fix.value_or(""), "# before\n-Dingest.workers=0\n# after\n-Dingest.workers=4");
  EXPECT_TRUE(Has(w->trigger_scenarios, "`-Dingest.workers` < `1`"));
  EXPECT_FALSE(Has(w->trigger_scenarios, "getInteger"));
  const Record* c = Find(s, "unsupported codec");
  ASSERT_TRUE(c);
  SCOPED_TRACE(Dump(c));
  EXPECT_TRUE(AnyHas(c->solutions, "`-Dingest.codec=zstd`"));
  EXPECT_TRUE(Has(c->example_fix.value_or(""), "-Dingest.codec=lz4"));
  const Record* b = Find(s, "strict ingest allows batches");
  ASSERT_TRUE(b);
  SCOPED_TRACE(Dump(b));
  EXPECT_TRUE(Has(b->example_fix.value_or(""), "-Dingest.strict=true -Dingest.max.batch=1025"));
  EXPECT_TRUE(AnyHas(b->solutions, "`-Dingest.max.batch=1024`"));
  EXPECT_FALSE(Has(b->example_fix.value_or(""), "--"));
  const Record* d = Find(s, "no compression level for the codec");
  ASSERT_TRUE(d);
  SCOPED_TRACE(Dump(d));
  EXPECT_FALSE(Has(d->trigger_scenarios, "-D"));
  EXPECT_FALSE(d->example_fix.has_value());
  ExpectCleanProse(s);
}

}  // namespace
}  // namespace errdex
