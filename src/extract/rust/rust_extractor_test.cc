// Unit tests of the Rust front end: each idiom's site and message rule, thiserror
// templates composed with constructions, context (functions, guards, let-else,
// tests), macros inside token trees, and bad input. The differential test against
// the syn crate is tests/diff/lang_oracle.py with tests/diff/rust_oracle.
#include "extract/rust/rust_extractor.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

#ifdef ERRDEX_HAVE_TS_RUST

std::vector<Site> Sites(std::string_view text, std::string path = "src/lib.rs") {
  return ExtractRust(path, text).sites;
}

const Site* At(const std::vector<Site>& s, int line) {
  for (const Site& x : s)
    if (x.line == line) return &x;
  return nullptr;
}

TEST(RustExtractor, PanicFamilyAndFormatRules) {
  auto s = Sites(
      "fn f(x: u32, name: &str) {\n"
      "    panic!(\"bad {} for {name:?} {{lit}} {0}\", x);\n"
      "    unreachable!();\n"
      "    todo!(\"later {}\", x);\n"
      "    let v = m.get(\"k\")\n"
      "        .expect(&format!(\"key {name} missing\"));\n"
      "    assert!(x > 0, \"x must be positive, got {x}\");\n"
      "    assert_eq!(x, 3, \"three\");\n"
      "    assert!(x < 9);\n"
      "    panic!(\"{:?} and {}\", \"q\\\"uote\", \"plain\");\n"
      "}\n");
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[0].kind, SiteKind::kPanic);
  EXPECT_EQ(s[0].error_class, "panic");
  EXPECT_EQ(s[0].message_pattern, "bad (.*?) for (.*?) \\{lit\\} (.*?)");
  EXPECT_EQ(s[0].error_message, "bad {x} for {name} {lit} {x}");
  EXPECT_EQ(s[0].function, "f");
  EXPECT_EQ(s[1].message_pattern, "internal error: entered unreachable code");
  EXPECT_EQ(s[2].message_pattern, "not yet implemented: later (.*?)");
  EXPECT_EQ(s[3].line, 6);  // the line of .expect, where rustc reports the panic
  EXPECT_EQ(s[3].message_pattern, "key (.*?) missing");
  EXPECT_EQ(s[4].kind, SiteKind::kAssert);
  EXPECT_EQ(s[4].assert_condition, "x > 0");
  EXPECT_EQ(s[4].message_pattern, "x must be positive, got (.*?)");
  EXPECT_EQ(s[5].message_pattern, "assertion `left == right` failed: three");
  EXPECT_EQ(s[6].line, 10);  // assert! without a message is not a site
  EXPECT_EQ(s[6].error_message, "\"q\\\"uote\" and plain");
}

TEST(RustExtractor, ThiserrorTemplatesComposeWithConstructions) {
  auto s = Sites(
      "#[derive(Debug, thiserror::Error)]\n"
      "pub enum ApiError {\n"
      "    #[error(\"bad request: {0}\")]\n"
      "    BadRequest(String),\n"
      "    #[error(\"worker {id} failed: {msg}\")]\n"
      "    Worker { id: u32, msg: String },\n"
      "    #[error(transparent)]\n"
      "    Io(#[from] std::io::Error),\n"
      "}\n"
      "impl ApiError {\n"
      "    fn f(id: u32) -> Result<(), ApiError> {\n"
      "        if id == 0 { return Err(ApiError::BadRequest(format!(\"missing {}\", id))); }\n"
      "        let e = Self::Worker { id, msg: \"down\".to_string() };\n"
      "        Err(other::Unknown::Gone(\"gone away\".into()))\n"
      "    }\n"
      "}\n");
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].line, 3);
  EXPECT_EQ(s[0].error_class, "BadRequest");
  EXPECT_EQ(s[0].message_pattern, "bad request: (.*?)");
  EXPECT_EQ(s[1].message_pattern, "worker (.*?) failed: (.*?)");
  EXPECT_EQ(s[2].line, 12);
  EXPECT_EQ(s[2].error_class, "BadRequest");
  EXPECT_EQ(s[2].message_pattern, "bad request: missing (.*?)");
  EXPECT_EQ(s[2].guards, std::vector<std::string>{"id == 0"});
  EXPECT_EQ(s[2].function, "ApiError.f");
  EXPECT_EQ(s[3].error_class, "Worker");
  EXPECT_EQ(s[3].message_pattern, "worker (.*?) failed: down");
  EXPECT_EQ(s[4].error_class, "Gone");  // a type of another file: its argument is the message
  EXPECT_EQ(s[4].message_pattern, "gone away");
}

// A thiserror struct is its own error: built by its name (`ParseError { .. }`, a tuple
// struct's `Timeout(n)`, a unit struct's `Closed`, `Self { .. }` in its impl), with or
// without Err(...), it is a site whose message is the struct's template. A transparent
// struct, a struct without #[error] and Some(..)/Ok(..) are not.
TEST(RustExtractor, ThiserrorStructsBuiltByName) {
  auto s = Sites(
      "use thiserror::Error;\n"
      "#[derive(Debug, Error)]\n"
      "#[error(\"bad {field} at line {line}\")]\n"  // 3
      "pub struct ParseError { field: String, line: u32 }\n"
      "#[derive(Debug, Error)]\n"
      "#[error(\"timed out after {0} s\")]\n"  // 6
      "pub struct Timeout(u64);\n"
      "#[derive(Debug, Error)]\n"
      "#[error(\"closed\")]\n"  // 9
      "pub struct Closed;\n"
      "#[derive(Debug, Error)]\n"
      "#[error(transparent)]\n"
      "pub struct Wrapped(#[from] std::io::Error);\n"
      "pub struct Plain { field: String }\n"
      "impl ParseError {\n"
      "    fn at(field: String) -> Self { Self { field, line: 0 } }\n"  // 16
      "}\n"
      "fn f(field: String, n: u64, e: std::io::Error) -> Result<(), ParseError> {\n"
      "    if n == 0 { return Err(ParseError { field: \"port\".to_string(), line: 7 }); }\n"  // 19
      "    let t = Timeout(n);\n"                                         // 20
      "    if n == 1 { return Err(Closed); }\n"                           // 21
      "    let p = Plain { field: String::new() };\n"
      "    let w = Wrapped(e);\n"
      "    let o = Some(n);\n"
      "    Ok(())\n"
      "}\n");
  ASSERT_EQ(s.size(), 7u);
  const Site* self_built = At(s, 16);
  ASSERT_NE(self_built, nullptr);
  EXPECT_EQ(self_built->error_class, "ParseError");
  EXPECT_EQ(self_built->message_pattern, "bad (.*?) at line (.*?)");  // a number is a value, not text
  const Site* in_err = At(s, 19);
  ASSERT_NE(in_err, nullptr);
  EXPECT_EQ(in_err->error_class, "ParseError");
  EXPECT_EQ(in_err->error_class_expr, "ParseError");
  EXPECT_EQ(in_err->message_pattern, "bad port at line (.*?)");
  EXPECT_EQ(in_err->guards, std::vector<std::string>{"n == 0"});
  const Site* tuple = At(s, 20);
  ASSERT_NE(tuple, nullptr);
  EXPECT_EQ(tuple->error_class, "Timeout");
  EXPECT_EQ(tuple->message_pattern, "timed out after (.*?) s");
  const Site* unit = At(s, 21);
  ASSERT_NE(unit, nullptr);
  EXPECT_EQ(unit->error_class, "Closed");
  EXPECT_EQ(unit->error_message.value_or(""), "closed");
  for (int line : {22, 23, 24}) EXPECT_EQ(At(s, line), nullptr) << line;
}

TEST(RustExtractor, AnyhowLogsAndHttpResponses) {
  auto s = Sites(
      "async fn route(id: u32) -> Response {\n"
      "    let Some(w) = pick(id) else { bail!(\"no worker for {id}\") };\n"
      "    ensure!(id > 0);\n"
      "    tracing::error!(worker = %w.url, ?err, \"failed to reach {}\", w.url);\n"
      "    warn!(target: \"router\", \"slow\");\n"
      "    read(p).with_context(|| format!(\"reading {p}\"))?;\n"
      "    (StatusCode::SERVICE_UNAVAILABLE, format!(\"no workers for {model}\")).into_response();\n"
      "    Err(Status::invalid_argument(\"bad model\"))\n"
      "}\n");
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[0].error_class, "Error");
  EXPECT_EQ(s[0].guards, std::vector<std::string>{"not (let Some(w) = pick(id))"});
  EXPECT_EQ(s[0].message_pattern, "no worker for (.*?)");
  EXPECT_EQ(s[1].message_pattern, "Condition failed: `(.*?)`");
  EXPECT_EQ(s[2].kind, SiteKind::kLog);
  EXPECT_EQ(s[2].log_level, "error");
  EXPECT_EQ(s[2].message_pattern, "failed to reach (.*?)");
  EXPECT_EQ(s[3].log_level, "warning");
  EXPECT_EQ(s[3].message_pattern, "slow");
  EXPECT_EQ(s[4].message_pattern, "reading (.*?)");
  EXPECT_EQ(s[5].kind, SiteKind::kHttpResponse);
  EXPECT_EQ(s[5].http_status, 503);
  EXPECT_EQ(s[5].error_code, "SERVICE_UNAVAILABLE");
  EXPECT_EQ(s[6].error_class, "InvalidArgument");
  EXPECT_EQ(s[6].message_pattern, "bad model");
}

TEST(RustExtractor, MacrosInsideTokenTreesAndTestCode) {
  auto s = Sites(
      "fn run() {\n"
      "    tokio::select! { _ = a => { panic!(\"in select {}\", 1) } }\n"
      "    let v = vec![x.expect(\"not a site inside tokens\"), y];\n"
      "    match r { Err(e) => error!(\"failed: {e}\"), Ok(_) => {} }\n"
      "}\n"
      "macro_rules! m { () => { panic!(\"template\") } }\n"
      "#[cfg(test)]\n"
      "mod tests {\n"
      "    #[test]\n"
      "    fn t() { panic!(\"in test\"); }\n"
      "}\n");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].message_pattern, "in select (.*?)");
  EXPECT_EQ(s[1].guards, std::vector<std::string>{"r matches Err(e)"});
  EXPECT_FALSE(s[1].in_tests);
  EXPECT_EQ(s[2].line, 10);
  EXPECT_TRUE(s[2].in_tests);
  EXPECT_EQ(s[2].function, "t");
}

TEST(RustExtractor, LiteralsRawContinuedAndEscaped) {
  auto s = Sites(
      "fn f() {\n"
      "    panic!(r#\"raw \"{x}\" text\"#);\n"
      "    panic!(\"first \\\n"
      "            second \\u{e9}\\t\");\n"
      "    panic!(concat!(\"a\", \"b\"));\n"
      "    bail!(err);\n"
      "}\n");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].error_message, "raw \"{x}\" text");
  EXPECT_EQ(s[1].error_message, "first second \xC3\xA9\t");
  EXPECT_EQ(s[2].error_message, "ab");
  EXPECT_FALSE(s[3].error_message.has_value());  // a value: the message is unknown
  EXPECT_EQ(s[3].message_expr, "err");
}

TEST(RustBadInput, NeverCrashesAndReportsSyntaxErrors) {
  auto r = ExtractRust("x.rs", "fn f( { panic!(\"still found\"); \n }}}} ((( \xff\xfe \0 garbage");
  EXPECT_FALSE(r.failed);
  EXPECT_FALSE(r.diagnostics.empty());
  std::string deep = "fn f() {";
  for (int i = 0; i < 30000; ++i) deep += "{ (";
  deep += "panic!(\"deep\")";
  auto d = ExtractRust("deep.rs", deep);  // must not overflow the stack
  (void)d;
  TsExtractOptions tight;
  tight.max_file_bytes = 10;
  auto big = ExtractRust("big.rs", "fn main() { panic!(\"x\"); }", tight);
  EXPECT_TRUE(big.failed);
  EXPECT_TRUE(big.sites.empty());
}

// A file with none of the words a site is spelled with is not parsed: no sites, and no
// diagnostic for its syntax. One word anywhere (`Err (` with a space, a macro inside a
// token tree) and the file is parsed as before.
TEST(RustExtractor, FileWithoutSiteWordsIsNotParsed) {
  auto none = ExtractRust("x.rs", "fn f( { let e = Error::new(); \n }}}} (((");
  EXPECT_TRUE(none.sites.empty());
  EXPECT_TRUE(none.diagnostics.empty());
  EXPECT_FALSE(none.failed);
  auto spaced = Sites("fn f() -> Result<(), String> {\n    Err (format!(\"bad {}\", 1))\n}\n");
  ASSERT_EQ(spaced.size(), 1u);
  EXPECT_EQ(spaced[0].line, 2);
  auto nested = Sites("fn f() {\n    let v = vec![1, 2, { todo!(\"later\") }];\n}\n");
  EXPECT_EQ(nested.size(), 1u);
  auto broken = ExtractRust("y.rs", "fn f( { panic!(\"x\") }}}} (((");
  EXPECT_FALSE(broken.diagnostics.empty());  // parsed: its syntax is reported
}

#else
TEST(RustExtractor, GrammarNotBuilt) {
  auto r = ExtractRust("x.rs", "fn f() {}");
  EXPECT_TRUE(r.failed);
}
#endif

}  // namespace
}  // namespace errdex
