// Tests of the document stage on other languages' code: Rust, Go and Java settings
// (settings_brace.cc) on hostile text and beside Python's, and conditions shown in the
// site's own language (guards.h ForeignCode). The fixture trees of tests/prose/ test
// the same through the real binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "document/documenter_test_util.h"
#include "document/guards.h"
#include "document/knowledge.h"

namespace errdex {
namespace {

using doctest::Doc;
using doctest::Dump;
using doctest::Has;
using doctest::Knowledge;
using doctest::RaiseSite;

// The record of a raise at `line` of `file` in `language` under `guards`.
Record DocIn(const std::string& language, const std::string& path, const std::string& file, int line, const std::string& msg,
             const std::string& function, std::vector<std::string> guards) {
  auto k = Knowledge({{path, file}});
  Site s = RaiseSite(path, line, "error", msg, function);
  s.language = language;
  s.guards = std::move(guards);
  Record r;
  Doc(s, file, *k, &r);
  return r;
}

// A Go site's prose shows its conditions in Go (`err != nil && n > 0`), not in the Python
// form the parser reads them in; Go's `if err := f(); err != nil {` assigns `f()` only.
TEST(DocumenterForeign, CodeSpansInTheSitesLanguage) {
  EXPECT_EQ(doc::ForeignCode("err is not None and not ok", "go"), "err != nil && !ok");
  EXPECT_EQ(doc::ForeignCode("p is None or q == True", "cpp"), "p == nullptr || q == true");
  // Option's None by its methods; `is not None` is no `is !None`.
  EXPECT_EQ(doc::ForeignCode("x is None", "rust"), "x.is_none()");
  EXPECT_EQ(doc::ForeignCode("cfg is not None and retries == 0", "rust"), "cfg.is_some() && retries == 0");
  EXPECT_EQ(doc::ForeignCode("not self.ready or args.port is None", "rust"), "!self.ready || args.port.is_none()");
  EXPECT_EQ(doc::ForeignCode("s == \"a and b\" and t", "java"), "s == \"a and b\" && t");
  EXPECT_EQ(doc::ForeignCode("a and not b", "python"), "a and not b");
  // C++'s `::` the parser wrote as `.`, back where a well-known namespace qualifies a name.
  EXPECT_EQ(doc::ForeignCode("not std.isfinite(scale) or q == cutlass.WeightOnlyQuantOp.FINE", "cuda"),
            "!std::isfinite(scale) || q == cutlass::WeightOnlyQuantOp::FINE");
  EXPECT_EQ(doc::ForeignCode("cfg.std.x and a.std.y", "cpp"), "cfg.std.x && a.std.y");
  // A switch label of several values (`case 1, 2:`, which the front ends give as `v == 1, 2`)
  // is one of them, quoted in the language's own operators; Python keeps its dtype names.
  EXPECT_EQ(doc::NormalizeGuard("lParam == 1, 2", "go"), "lParam in (1, 2)");
  EXPECT_EQ(doc::NormalizeGuard("switch (kind): case \"a\", \"b\"", "java"), "kind in (\"a\", \"b\")");
  EXPECT_EQ(doc::NormalizeGuard("a == b", "go"), "a == b");
  EXPECT_EQ(doc::ForeignCode("lParam in (1, 2)", "go"), "lParam == 1 || lParam == 2");
  EXPECT_EQ(doc::ForeignCode("x.to(torch.bfloat16)", "cuda"), "x.to(torch.bfloat16)");
  EXPECT_EQ(doc::ForeignCode("t == torch.kHalf", "cpp"), "t == torch::kHalf");
  // C++ casts are no comparisons: static_cast<int32_t>(x) reads as (x)
  std::string cast = doc::NormalizeGuard("n > static_cast<int32_t>(kMax) && p != static_cast<const void*>(q)", "cpp");
  cast.erase(std::unique(cast.begin(), cast.end(), [](char a, char b) { return a == ' ' && b == ' '; }), cast.end());
  EXPECT_EQ(cast, "n > (kMax) and p != (q)");
  std::string file =
      "package main\n\nfunc load(path string, n int) error {\n\tif err := open(path); err != nil && n > 0 {\n"
      "\t\treturn fmt.Errorf(\"load %s: %w\", path, err)\n\t}\n\treturn nil\n}\n";
  Site s = RaiseSite("load.go", 5, "error", "load {path}: {err}", "load");
  s.language = "go";
  s.guards = {"err != nil && n > 0"};
  auto k = Knowledge({{"load.go", file}});
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "`err != nil`")) << *r.documentation;
  EXPECT_FALSE(Has(r.documentation, "None"));
  EXPECT_FALSE(Has(r.trigger_scenarios, " and not "));
  EXPECT_FALSE(Has(r.documentation, "; err")) << "Go's if-statement initializer is the whole assignment";
}

// Go's `err` is the one the site sees: `r, err := zip.OpenReader(b)` binds it (one of
// the call's results), and an earlier `if err := f(); err != nil {` declared its own,
// gone after that block (ollama's updater said `err` = `os.MkdirAll(...)`).
TEST(DocumenterForeign, GoErrIsTheNearestVisibleAssignment) {
  std::string file =
      "package updater\n\nfunc DoUpgrade(bundle string, dir string) error {\n"
      "\tif err := os.MkdirAll(dir, 0o755); err != nil {\n"
      "\t\treturn fmt.Errorf(\"unable to create backup dir %s: %w\", dir, err)\n\t}\n"
      "\tr, err := zip.OpenReader(bundle)\n"
      "\tif err != nil {\n"
      "\t\treturn fmt.Errorf(\"unable to open upgrade bundle %s: %w\", bundle, err)\n\t}\n"
      "\tdefer r.Close()\n"
      "\tresp, err := client.Do(ctx, Request{\n\t\tURL: bundle,\n\t})\n"
      "\tif err != nil {\n\t\treturn fmt.Errorf(\"fetch: %w\", err)\n\t}\n"
      "\treturn nil\n}\n";
  auto k = Knowledge({{"up.go", file}});
  Site s = RaiseSite("up.go", 9, "error", "unable to open upgrade bundle {bundle}: {err}", "DoUpgrade");
  s.language = "go";
  s.guards = {"err != nil"};
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.documentation, "(`err` = `zip.OpenReader(bundle)`)"));
  Site in = RaiseSite("up.go", 5, "error", "unable to create backup dir {dir}: {err}", "DoUpgrade");
  in.language = "go";
  in.guards = {"err != nil"};
  Record ri;
  Doc(in, file, *k, &ri);
  SCOPED_TRACE(Dump(ri));
  EXPECT_TRUE(Has(ri.documentation, "(`err` = `os.MkdirAll(dir, 0o755)`)"));
  // A call whose arguments go on past its line is named, not cut.
  Site multi = RaiseSite("up.go", 16, "error", "fetch: {err}", "DoUpgrade");
  multi.language = "go";
  multi.guards = {"err != nil"};
  Record rm;
  Doc(multi, file, *k, &rm);
  SCOPED_TRACE(Dump(rm));
  EXPECT_TRUE(Has(rm.documentation, "(`err` = `client.Do(...)`)"));
}

// A Rust function's parameters, past a return type that holds brackets of its own
// (`-> Result<(), String>`): the guard on one is a caller's argument.
TEST(DocumenterForeign, RustParametersPastAReturnTypeWithBrackets) {
  std::string file =
      "fn load(path: Option<&str>, retries: u32) -> Result<(), String> {\n    if retries > 10 {\n"
      "        panic!(\"too many retries: {}\", retries);\n    }\n    Ok(())\n}\n";
  Site s = RaiseSite("src/lib.rs", 3, "panic", "too many retries: {retries}", "load");
  s.language = "rust";
  s.guards = {"retries > 10"};
  auto k = Knowledge({{"src/lib.rs", file}});
  Record r;
  Doc(s, file, *k, &r);
  SCOPED_TRACE(Dump(r));
  EXPECT_TRUE(Has(r.trigger_scenarios, "Calling `load` with argument `retries`")) << *r.trigger_scenarios;
}

// thiserror's `#[error("...")]` on a variant is a definition, not code that runs: it is
// said as `Enum::Variant`, the error raised wherever the code returns it -- not "raised by
// `<module>` unconditionally". A Rust `&str` tested with is_empty() is empty, not "false,
// empty or None".
TEST(DocumenterForeign, RustErrorDefinitionsAndEmptyStrings) {
  std::string file =
      "#[derive(Debug, Error)]\npub enum McpError {\n    #[error(\"tool not found: {0}\")]\n    NotFound(String),\n}\n\n"
      "pub fn get(name: &str) -> Result<(), McpError> {\n    if name.is_empty() {\n"
      "        return Err(McpError::NotFound(name.to_string()));\n    }\n    Ok(())\n}\n";
  auto k = Knowledge({{"src/error.rs", file}});
  Site d = RaiseSite("src/error.rs", 3, "NotFound", "tool not found: {0}", "<module>");
  d.language = "rust";
  d.error_class_expr = "#[error]";
  Record def;
  Doc(d, file, *k, &def);
  SCOPED_TRACE(Dump(def));
  EXPECT_TRUE(Has(def.documentation, "`McpError::NotFound` (src/error.rs:3) is an error type this code defines")) << *def.documentation;
  EXPECT_FALSE(Has(def.documentation, "unconditionally"));
  EXPECT_EQ(def.trigger_scenarios.value_or(""),
            "Code that returns `McpError::NotFound` (or passes it on with `?`): this is the text it displays.");
  Record e = DocIn("rust", "src/error.rs", file, 9, "tool not found: {name}", "get", {"name.is_empty()"});
  SCOPED_TRACE(Dump(e));
  EXPECT_TRUE(Has(e.trigger_scenarios, "with argument `name` empty")) << *e.trigger_scenarios;
  EXPECT_FALSE(Has(e.trigger_scenarios, "None"));
}

// A Go parameter tested against nil is "left as nil" (Python's None is not Go's word),
// and a `bool` parameter is false, not "false, empty or None".
TEST(DocumenterForeign, GoNilAndBoolParametersInGosWords) {
  std::string file =
      "package cmd\n\nfunc pick(ctx context.Context, client *api.Client, restart bool) error {\n"
      "\tif client == nil {\n\t\treturn errors.New(\"no API client available\")\n\t}\n"
      "\tif !restart {\n\t\treturn errors.New(\"restart confirmation is required\")\n\t}\n\treturn nil\n}\n";
  Record n = DocIn("go", "cmd/pick.go", file, 5, "no API client available", "pick", {"client == nil"});
  SCOPED_TRACE(Dump(n));
  EXPECT_TRUE(Has(n.documentation, "argument `client` is left as nil")) << *n.documentation;
  EXPECT_FALSE(Has(n.documentation, "None"));
  EXPECT_FALSE(Has(n.trigger_scenarios, "None"));
  EXPECT_TRUE(doctest::AnyHas(n.solutions, "(it must not be nil)"));
  // typeGuard and validationCode are Python: not for a Go program.
  EXPECT_FALSE(n.type_guard.has_value()) << *n.type_guard;
  EXPECT_FALSE(n.validation_code.has_value());
  Record b = DocIn("go", "cmd/pick.go", file, 8, "restart confirmation is required", "pick", {"!restart"});
  SCOPED_TRACE(Dump(b));
  EXPECT_TRUE(Has(b.documentation, "argument `restart` is false")) << *b.documentation;
  EXPECT_FALSE(Has(b.documentation, "empty or None"));
}

// `switch v := value.(type) { case float64:` reads as what the value is, and a
// switch's `default:` as no case matching -- not "`value.(type) is float64`" or
// "`default` is true".
TEST(DocumenterForeign, GoTypeSwitchAndDefaultInWords) {
  std::string file =
      "package tools\n\nfunc intArg(key string, value any) (int, error) {\n"
      "\tswitch v := value.(type) {\n\tcase float64:\n"
      "\t\treturn 0, fmt.Errorf(\"%s must be a whole number\", key)\n"  // 6
      "\tcase int, int64:\n\t\treturn 1, nil\n\tdefault:\n"
      "\t\treturn 0, fmt.Errorf(\"%s has an unsupported type\", key)\n"  // 10
      "\t}\n}\n";
  Record f = DocIn("go", "tools/args.go", file, 6, "{key} must be a whole number", "intArg", {"value.(type) is float64"});
  SCOPED_TRACE(Dump(f));
  EXPECT_TRUE(Has(f.documentation, "when `value` is a `float64`")) << *f.documentation;
  EXPECT_FALSE(Has(f.documentation, ".(type)"));
  EXPECT_FALSE(Has(f.trigger_scenarios, ".(type)")) << *f.trigger_scenarios;
  Record two = DocIn("go", "tools/args.go", file, 6, "{key} must be a whole number", "intArg", {"value.(type) is int, int64"});
  SCOPED_TRACE(Dump(two));
  EXPECT_TRUE(Has(two.documentation, "`value` is an `int` or an `int64`")) << *two.documentation;
  Record d = DocIn("go", "tools/args.go", file, 10, "{key} has an unsupported type", "intArg", {"default"});
  SCOPED_TRACE(Dump(d));
  EXPECT_TRUE(Has(d.documentation, "none of the `case`s of its `switch` matched")) << *d.documentation;
  EXPECT_FALSE(Has(d.documentation, "`default` is true"));
  EXPECT_FALSE(Has(d.trigger_scenarios, "`default` is true"));
}

// Spring: a field bound by `@Value("${server.port:8080}")` is the property `server.port`,
// so a guard on `port` or `this.port` is told in the user's terms -- the property, where
// it is set (application.properties, -D, --), written `server.port=...` -- not as the field.
// A constructor parameter's @Value is no field; a placeholder with text around it is no
// single property. @ConfigurationProperties(prefix = "ingest") fields are `ingest.kebab-name`.
TEST(DocumenterForeign, SpringValuePropertiesInTheUsersTerms) {
  std::string file =
      "package org.example.web;\n\n"
      "@Component\npublic class ServerSettings {\n"
      "    /** The port; see application.properties (server.port = ...). */\n"
      "    @Value(\"${server.port:8080}\")\n    private int port;\n"               // 7
      "    @Value(\"${web.mode}\") private String mode;\n"                          // 8
      "    @Value(\"http://${web.host}/\") private String url;\n"                   // 9
      "    public ServerSettings(@Value(\"${web.workers:4}\") int workers) {}\n\n"  // 10
      "    public void check() {\n"
      "        if (port < 1024) {\n"                                                  // 13
      "            throw new IllegalStateException(\"server.port must be at least 1024\");\n"
      "        }\n"
      "        if (!this.mode.equals(\"fast\")) {\n"                                  // 16
      "            throw new IllegalArgumentException(\"unsupported mode\");\n"
      "        }\n    }\n"
      "    @Value(\"${web.strict:false}\") private boolean strict;\n"  // 20
      "    public void strictCheck() {\n"
      "        if (strict && port > 9000) {\n"
      "            throw new IllegalStateException(\"strict mode wants a port below 9000\");\n"  // 23
      "        }\n    }\n}\n";
  auto k = Knowledge({{"src/main/java/org/example/web/ServerSettings.java", file},
                      {"src/main/java/org/example/web/IngestProperties.java",
                       "package org.example.web;\n\n@ConfigurationProperties(prefix = \"ingest\")\n"
                       "public class IngestProperties {\n    /** Records per batch (a javadoc; with = and ;). */\n"
                       "    private int maxBatch = 512;\n    private static final int LIMIT = 9;\n"
                       "    public int getMaxBatch() { int local = 1; return maxBatch; }\n    private boolean strict;\n}\n"}});
  const doc::KnowledgeIndex* idx = doc::AsIndex(*k);
  const doc::Flag* port = idx->FindFlagFor("java", "port");
  ASSERT_TRUE(port);
  EXPECT_EQ(port->Primary(), "server.port");
  EXPECT_EQ(port->With("80"), "server.port=80");
  EXPECT_EQ(port->default_value.value_or(""), "8080");
  EXPECT_EQ(port->type, "int");
  EXPECT_TRUE(idx->FindFlagFor("java", "-Dserver.port"));
  EXPECT_TRUE(idx->FindFlagFor("java", "mode"));
  EXPECT_FALSE(idx->FindFlagFor("java", "url")) << "text around the placeholder: no one property";
  EXPECT_FALSE(idx->FindFlagFor("java", "workers")) << "a constructor parameter is no field";
  const doc::Flag* batch = idx->FindFlagFor("java", "maxBatch");
  ASSERT_TRUE(batch);
  EXPECT_EQ(batch->Primary(), "ingest.max-batch");
  EXPECT_EQ(batch->default_value.value_or(""), "512");
  EXPECT_TRUE(idx->FindFlagFor("java", "strict"));
  EXPECT_FALSE(idx->FindFlagFor("java", "LIMIT")) << "a static field is no property";
  EXPECT_FALSE(idx->FindFlagFor("java", "local")) << "a method's local is no field";

  const std::string path = "src/main/java/org/example/web/ServerSettings.java";
  auto doc_at = [&](int line, const std::string& msg, const std::string& guard) {
    Site s = RaiseSite(path, line, "IllegalStateException", msg, "ServerSettings.check");
    s.language = "java";
    s.guards = {guard};
    Record r;
    Doc(s, file, *k, &r);
    return r;
  };
  Record p = doc_at(14, "server.port must be at least 1024", "port < 1024");
  SCOPED_TRACE(Dump(p));
  EXPECT_TRUE(Has(p.documentation, "`server.port` is a Spring property: set it in application.properties")) << *p.documentation;
  EXPECT_TRUE(Has(p.documentation, "`-Dserver.port=...`"));
  EXPECT_TRUE(Has(p.documentation, "`--server.port=...`"));
  EXPECT_TRUE(Has(p.trigger_scenarios, "`server.port`")) << *p.trigger_scenarios;
  EXPECT_TRUE(doctest::AnyHas(p.solutions, "`server.port=")) << Dump(p);
  EXPECT_FALSE(Has(p.trigger_scenarios, "`port`"));
  Record m = doc_at(17, "unsupported mode", "!this.mode.equals(\"fast\")");
  SCOPED_TRACE(Dump(m));
  EXPECT_TRUE(Has(m.documentation, "`web.mode` is a Spring property")) << *m.documentation;
  // Two properties, one sentence; a boolean one is given true or false, never dropped or bare.
  Record b = doc_at(23, "strict mode wants a port below 9000", "strict && port > 9000");
  SCOPED_TRACE(Dump(b));
  EXPECT_TRUE(Has(b.documentation, "`web.strict` and `server.port` are Spring properties")) << *b.documentation;
  EXPECT_TRUE(doctest::AnyHas(b.solutions, "`web.strict=false`"));
  EXPECT_FALSE(doctest::AnyHas(b.solutions, "Drop `web.strict`"));
}

// The Rust/Go/Java settings scanner on hostile text: definitions cut off at the end of
// the file, unbalanced brackets, a flag-dense file (the entries are capped), strings and
// comments that only look like definitions. Nothing crashes; nothing in a comment or a

// JavaScript's type tests are quoted as written (`typeof fn !== 'function'`,
// `Array.isArray(value)`), not in the parser's Python form; a local whose value goes on
// past its line (`var value = Array.isArray(val)` / `? ... : ...`) is not that line; and
// no Python typeGuard or validationCode is written for JavaScript.
TEST(DocumenterForeign, JavaScriptTypeTestsAsWritten) {
  std::string file =
      "res.set = function header(field, val) {\n  if (arguments.length === 2) {\n    var value = Array.isArray(val)\n"
      "      ? val.map(String)\n      : String(val);\n    if (Array.isArray(value)) {\n"
      "      throw new TypeError('Content-Type cannot be set to an Array');\n    }\n  }\n};\n"
      "app.engine = function engine(ext, fn) {\n  if (typeof fn !== 'function') {\n"
      "    throw new Error('callback function required');\n  }\n};\n";
  Record fn = DocIn("javascript", "lib/app.js", file, 13, "callback function required", "engine", {"typeof fn !== 'function'"});
  SCOPED_TRACE(Dump(fn));
  EXPECT_TRUE(Has(fn.documentation, "(in the code: `typeof fn !== 'function'`)")) << *fn.documentation;
  EXPECT_FALSE(Has(fn.documentation, "isinstance"));
  EXPECT_FALSE(fn.type_guard.has_value());
  EXPECT_FALSE(fn.validation_code.has_value());
  Record arr = DocIn("javascript", "lib/app.js", file, 7, "Content-Type cannot be set to an Array", "header",
                     {"arguments.length === 2", "Array.isArray(value)"});
  SCOPED_TRACE(Dump(arr));
  EXPECT_TRUE(Has(arr.documentation, "`value` is an array (in the code: `Array.isArray(value)`)")) << *arr.documentation;
  EXPECT_FALSE(Has(arr.documentation, "= `Array.isArray(val)`"));
  // `this.get('X-Forwarded-Proto')` reads a header: no route `GET /X-Forwarded-Proto`.
  std::string req =
      "req.protocol = function protocol() {\n  var proto = this.get('X-Forwarded-Proto') || 'http';\n  return proto;\n};\n"
      "req.header = function header(name) {\n  if (!name) {\n    throw new TypeError('name argument is required');\n  }\n};\n";
  Record hdr = DocIn("javascript", "lib/request.js", req, 7, "name argument is required", "header", {"!name"});
  SCOPED_TRACE(Dump(hdr));
  EXPECT_FALSE(Has(hdr.example_fix, "GET /")) << *hdr.example_fix;
  EXPECT_EQ(doc::ForeignCode("not isinstance(x, Foo) and isinstance(y, (int, float))", "typescript"),
            "!(x instanceof Foo) && typeof y === 'number'");
}

// string becomes a flag.
TEST(Knowledge, BraceSettingsOnHostileText) {
  for (const char* cut : {"#[arg(", "#[arg(long)]", "#[arg(long)] pub", "#[arg(long)] x", "x := flag.Int(", "x := flag.Int(\"n\"",
                          "fs.IntVar(&", "fs.IntVarP(&c.N, \"n\"", "@Option(names = {\"-x\"", "@Option(names = \"-x\") int",
                          "@Value(\"${a:", "@Value(\"${a}\") int", "@ConfigurationProperties(\"p\") class C { int a",
                          "std::env::var(", "os.Getenv(\"", "#[arg(long, default_value = \"unterminated)] x: u8,"}) {
    for (const char* path : {"a.rs", "a.go", "A.java"}) {
      auto k = Knowledge({{path, cut}});
      EXPECT_TRUE(doc::AsIndex(*k)->data().flags.size() <= 1) << cut;
    }
  }
  auto quiet = Knowledge({{"m.rs", "// #[arg(long)] pub x: u8,\nconst S: &str = \"#[arg(long)] y: u8,\";\n"},
                          {"m.go", "// n := flag.Int(\"n\", 1, \"u\")\nvar s = `m := flag.Int(\"m\", 1, \"u\")`\n"}});
  EXPECT_TRUE(doc::AsIndex(*quiet)->data().flags.empty());
  std::string dense;
  for (int i = 0; i < 6000; ++i) dense += "    #[arg(long)] f" + std::to_string(i) + ": u8,\n";
  auto many = Knowledge({{"big.rs", dense}});
  EXPECT_EQ(doc::AsIndex(*many)->data().flags.size(), 4096u);
}

// A Rust router's --policy does not hide what the Python side of the same repository
// says about --policy (a flag its strings mention, a dataclass field): each language keeps
// its own.
TEST(Knowledge, AnotherLanguagesFlagHidesNoPythonFlag) {
  auto k = Knowledge({{"router/src/cli.rs", "#[derive(Parser)]\nstruct Args {\n    #[arg(long)]\n    policy: String,\n}\n"},
                      {"python/launch.py", "CMD = ['router', '--policy', 'random']\nHELP = 'pass --policy to the router'\n"}});
  const doc::KnowledgeIndex* idx = doc::AsIndex(*k);
  const doc::Flag* py = idx->FindFlagFor("python", "--policy");
  const doc::Flag* rs = idx->FindFlagFor("rust", "--policy");
  ASSERT_TRUE(py);
  ASSERT_TRUE(rs);
  EXPECT_EQ(py->origin, "mentioned");
  EXPECT_EQ(rs->origin, "clap");
  EXPECT_EQ(idx->FindFlagFor("rust", "policy"), rs);
}

}  // namespace
}  // namespace errdex
