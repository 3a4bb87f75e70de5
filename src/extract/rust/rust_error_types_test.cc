// Unit tests of the workspace table of thiserror types: a generated workspace of
// three crates, whose constructions in one crate get the templates of enums
// declared in another -- through `use` aliases, qualified paths, `Self::` in an
// impl, globs -- and a name two crates declare stays unknown unless a path
// singles one out.
#include "extract/rust/rust_error_types.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "extract/rust/rust_extractor.h"

namespace errdex {
namespace {

TEST(RustUseTree, FlattensBracesAliasesSelfAndGlobs) {
  rust::UseMap uses;
  rust::AddUseTree("app_core::errors::{CoreError as CE, ConfigError, nested::{Deep, self}}", &uses);
  rust::AddUseTree("crate::errors", &uses);
  rust::AddUseTree("super::kinds::*", &uses);
  rust::AddUseTree("std::fmt::Write as _", &uses);
  EXPECT_EQ(uses["CE"], "app_core::errors::CoreError");
  EXPECT_EQ(uses["ConfigError"], "app_core::errors::ConfigError");
  EXPECT_EQ(uses["Deep"], "app_core::errors::nested::Deep");
  EXPECT_EQ(uses["nested"], "app_core::errors::nested");
  EXPECT_EQ(uses["errors"], "crate::errors");
  EXPECT_EQ(uses["*"], "super::kinds");
  EXPECT_EQ(uses.count("Write"), 0u);
  EXPECT_EQ(uses.count("_"), 0u);
}

// Re-exports are read from the text, without a parse: a `pub use` (any visibility) that
// starts a line, its capitalized names (an `as` alias by the alias); not a comment, a
// string, a lowercase module or a glob.
TEST(RustReexports, ReadFromTheTextWithoutAParse) {
  std::vector<rust::ErrorType> r = rust::ReexportsIn(
      "src/lib.rs",
      "// pub use old::Commented;\npub(crate) use a::{B, c, D as E};\n  pub use m::*;\n"
      "const S: &str = \"pub use q::Q;\";\npub  use crate::errors::Error;\n");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].name, "B");
  EXPECT_EQ(r[0].reexport_of, "a::B");
  EXPECT_EQ(r[1].name, "E");
  EXPECT_EQ(r[1].reexport_of, "a::D");
  EXPECT_EQ(r[2].name, "Error");
  EXPECT_EQ(r[2].reexport_of, "crate::errors::Error");
  EXPECT_EQ(r[2].file, "src/lib.rs");
  EXPECT_TRUE(r[2].variants.empty());
}

// A file mentions a type by its name as a whole identifier, or by an alias a
// re-export gives it; `MyError` or `ErrorKind` is no mention of `Error`.
TEST(RustErrorTypeTable, MentionedByWholeIdentifiersAndAliases) {
  rust::ErrorTypeTable table({rust::CrateRoot{"", "top"}});
  rust::ErrorType error;
  error.file = "src/errors.rs";
  error.name = "Error";
  error.variants["Io"] = rust::ErrorVariant{};
  rust::ErrorType alias;
  alias.file = "src/lib.rs";
  alias.name = "ApiError";
  alias.reexport_of = "errors::Error";
  table.Add({error, alias});
  EXPECT_TRUE(table.MentionedIn("fn f() -> Result<(), Error> { Err(Error::Io(e)) }"));
  EXPECT_TRUE(table.MentionedIn("return Err(ApiError::Io(e));"));
  EXPECT_FALSE(table.MentionedIn("struct MyError; enum ErrorKind { A } // Errors"));
  EXPECT_FALSE(table.MentionedIn(""));
}

TEST(RustErrorTypeTable, LocatesFilesInCratesAndModules) {
  rust::ErrorTypeTable table({{"crates/core", "app_core"}, {"", "top"}});
  std::string crate, module;
  table.Locate("crates/core/src/errors.rs", &crate, &module);
  EXPECT_EQ(crate, "app_core");
  EXPECT_EQ(module, "errors");
  table.Locate("crates/core/src/net/mod.rs", &crate, &module);
  EXPECT_EQ(module, "net");
  table.Locate("crates/core/src/lib.rs", &crate, &module);
  EXPECT_EQ(module, "");
  table.Locate("src/a/b.rs", &crate, &module);
  EXPECT_EQ(crate, "top");
  EXPECT_EQ(module, "a::b");
  rust::ErrorTypeTable no_manifests({});
  no_manifests.Locate("crates/my-util/src/x.rs", &crate, &module);
  EXPECT_EQ(crate, "my_util");
  EXPECT_EQ(module, "x");
}

#ifdef ERRDEX_HAVE_TS_RUST

// The generated workspace: path -> text.
const std::map<std::string, std::string>& Workspace() {
  static const std::map<std::string, std::string> files = {
      {"crates/core/src/errors.rs",
       "use thiserror::Error;\n"
       "#[derive(Debug, Error)]\n"
       "pub enum CoreError {\n"
       "    #[error(\"model {0} not found\")]\n"
       "    NotFound(String),\n"
       "    #[error(\"worker {id} failed: {reason}\")]\n"
       "    Worker { id: u32, reason: String },\n"
       "    #[error(\"bad shape {0:?}\")]\n"
       "    Shape(Vec<usize>),\n"
       "    #[error(transparent)]\n"
       "    Io(#[from] std::io::Error),\n"
       "}\n"
       "#[derive(Debug, Error)]\n"
       "pub enum ConfigError {\n"
       "    #[error(\"core config: {0}\")]\n"
       "    Missing(String),\n"
       "}\n"},
      {"crates/core/src/impls.rs",
       "use crate::errors::CoreError;\n"
       "impl CoreError {\n"
       "    pub fn missing(name: &str) -> Self {\n"
       "        Self::NotFound(name.to_string())\n"
       "    }\n"
       "}\n"},
      {"crates/other/src/lib.rs",
       "#[derive(Debug, thiserror::Error)]\n"
       "pub enum ConfigError {\n"
       "    #[error(\"other config: {0}\")]\n"
       "    Missing(String),\n"
       "}\n"},
      {"crates/server/src/routes.rs",
       "use app_core::errors::{CoreError as CE, ConfigError};\n"
       "fn a(name: &str) -> Result<(), CE> {\n"
       "    Err(CE::NotFound(name.to_string()))\n"
       "}\n"
       "fn b() -> Result<(), app_core::errors::CoreError> {\n"
       "    let e = app_core::errors::CoreError::Worker { id: 3, reason: \"oom\".into() };\n"
       "    Err(e)\n"
       "}\n"
       "fn c(dims: Vec<usize>) -> Result<(), CE> {\n"
       "    Err(CE::Shape(dims))\n"
       "}\n"
       "fn d(e: std::io::Error) -> Result<(), CE> {\n"
       "    Err(CE::Io(e))\n"
       "}\n"
       "fn e() -> Result<(), ConfigError> {\n"
       "    Err(ConfigError::Missing(\"k\".into()))\n"
       "}\n"
       "fn f() -> Result<(), app_other::ConfigError> {\n"
       "    Err(app_other::ConfigError::Missing(\"k\".into()))\n"
       "}\n"},
      {"crates/server/src/globbed.rs",
       "use app_core::*;\n"
       "use app_core::errors::*;\n"
       "fn k(n: &str) -> Result<(), errors::CoreError> {\n"
       "    Err(errors::CoreError::NotFound(n.into()))\n"
       "}\n"
       "fn m() -> Result<(), ConfigError> {\n"
       "    Err(ConfigError::Missing(\"g\".into()))\n"
       "}\n"},
      {"crates/server/src/bare.rs",
       "fn g(key: &str) -> Result<(), ConfigError> {\n"
       "    Err(ConfigError::Missing(key.to_string()))\n"
       "}\n"
       "fn h(io: std::io::Error) -> ConfigError {\n"
       "    ConfigError::Missing(format!(\"{io}\"))\n"
       "}\n"},
  };
  return files;
}

rust::ErrorTypeTable BuildTable() {
  rust::ErrorTypeTable table({{"crates/core", "app_core"}, {"crates/other", "app_other"}, {"crates/server", "server"}});
  for (const auto& [path, text] : Workspace()) table.Add(CollectRustErrorTypes(path, text));
  return table;
}

std::vector<Site> SitesOf(const std::string& path, const rust::ErrorTypeTable* table) {
  return ExtractRust(path, Workspace().at(path), {}, table).sites;
}

const Site* At(const std::vector<Site>& s, int line) {
  for (const Site& x : s)
    if (x.line == line) return &x;
  return nullptr;
}

TEST(RustErrorTypeTable, CollectsEveryTypeWithItsCrateAndModule) {
  rust::ErrorTypeTable table = BuildTable();
  EXPECT_EQ(table.size(), 3u);
  rust::UseMap none;
  const rust::ErrorType* core = table.Resolve("crates/server/src/x.rs", "app_core::errors::CoreError", none);
  ASSERT_NE(core, nullptr);
  EXPECT_EQ(core->crate, "app_core");
  EXPECT_EQ(core->module, "errors");
  EXPECT_TRUE(core->variants.at("Io").transparent);
  EXPECT_EQ(core->variants.at("Worker").template_text, "worker {id} failed: {reason}");
  // A name of another (external) crate's type does not resolve to a workspace one.
  EXPECT_EQ(table.Resolve("crates/server/src/x.rs", "std::io::CoreError", none), nullptr);
}

TEST(RustErrorTypeTable, ConstructionsInOtherCratesGetTheirTemplates) {
  rust::ErrorTypeTable table = BuildTable();
  auto s = SitesOf("crates/server/src/routes.rs", &table);
  const Site* alias = At(s, 3);  // `use … CoreError as CE`, positional {0}
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->error_class, "NotFound");
  EXPECT_EQ(alias->message_pattern, "model (.*?) not found");
  const Site* named = At(s, 6);  // a qualified path, named {field}s, outside Err(...)
  ASSERT_NE(named, nullptr);
  EXPECT_EQ(named->error_class, "Worker");
  EXPECT_EQ(named->message_pattern, "worker (.*?) failed: oom");  // a number is a value, not text
  const Site* debug = At(s, 10);  // {0:?}
  ASSERT_NE(debug, nullptr);
  EXPECT_EQ(debug->message_pattern, "bad shape (.*?)");
  const Site* transparent = At(s, 13);  // the wrapped error's message: not known here
  ASSERT_NE(transparent, nullptr);
  EXPECT_EQ(transparent->error_class, "Io");
  EXPECT_FALSE(transparent->error_message.has_value());
  const Site* by_use = At(s, 16);  // two ConfigErrors: the `use` path picks core's
  ASSERT_NE(by_use, nullptr);
  EXPECT_EQ(by_use->message_pattern, "core config: k");
  const Site* by_path = At(s, 19);  // … and a crate path picks other's
  ASSERT_NE(by_path, nullptr);
  EXPECT_EQ(by_path->message_pattern, "other config: k");

  // Without the table none of them has the template (the change's reason).
  auto alone = SitesOf("crates/server/src/routes.rs", nullptr);
  ASSERT_NE(At(alone, 3), nullptr);
  EXPECT_FALSE(At(alone, 3)->error_message.has_value());
  EXPECT_EQ(At(alone, 6), nullptr);
}

TEST(RustErrorTypeTable, SelfInAnImplOfAnotherFilesEnum) {
  rust::ErrorTypeTable table = BuildTable();
  auto s = SitesOf("crates/core/src/impls.rs", &table);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].line, 4);
  EXPECT_EQ(s[0].error_class, "NotFound");
  EXPECT_EQ(s[0].message_pattern, "model (.*?) not found");
}

TEST(RustErrorTypeTable, GlobImportsNameTheModuleAndTheType) {
  rust::ErrorTypeTable table = BuildTable();
  auto s = SitesOf("crates/server/src/globbed.rs", &table);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].message_pattern, "model (.*?) not found");  // `errors::` from `use app_core::*`
  EXPECT_EQ(s[1].message_pattern, "core config: g");         // the one ConfigError the globs give
}

TEST(RustErrorTypeTable, AnAmbiguousNameWithoutAPathStaysUnknown) {
  rust::ErrorTypeTable table = BuildTable();
  auto s = SitesOf("crates/server/src/bare.rs", &table);
  // Err(ConfigError::Missing(key)) is a site (the variant is its class) with
  // no template: neither crate's is more likely than the other's.
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].error_class, "Missing");
  EXPECT_FALSE(s[0].error_message.has_value());
  // ConfigError::Missing(…) outside Err(...) is no site at all.
}

// A crate with two enums of one name (errors::ApiError, legacy::ApiError): `api::ApiError`
// and `crate::ApiError` name neither module, and only lib.rs's `pub use errors::ApiError;`
// says which -- followed, it gives errors' template. An alias (`pub use self::errors::Limits
// as LimitError`) resolves the same way. Without lib.rs the name stays unknown.
TEST(RustErrorTypeTable, ReExportsAreFollowedWhenANameHasSeveralTypes) {
  const std::map<std::string, std::string> files = {
      {"crates/api/src/lib.rs",
       "pub mod errors;\nmod legacy;\npub use errors::ApiError;\npub use self::errors::Limits as LimitError;\n"},
      {"crates/api/src/errors.rs",
       "#[derive(Debug, thiserror::Error)]\npub enum ApiError {\n    #[error(\"no route to {0}\")]\n    NoRoute(String),\n}\n"
       "#[derive(Debug, thiserror::Error)]\npub enum Limits {\n    #[error(\"over {0} requests\")]\n    Over(u32),\n}\n"},
      {"crates/api/src/legacy.rs",
       "#[derive(Debug, thiserror::Error)]\npub enum ApiError {\n    #[error(\"legacy route {0} gone\")]\n    NoRoute(String),\n}\n"},
      {"crates/api/src/handler.rs",
       "use crate::ApiError;\nfn c(p: &str) -> Result<(), ApiError> {\n    Err(ApiError::NoRoute(p.into()))\n}\n"},
      {"crates/app/src/main.rs",
       "use api::LimitError;\nfn a(p: &str) -> Result<(), api::ApiError> {\n    Err(api::ApiError::NoRoute(p.into()))\n}\n"
       "fn b() -> Result<(), LimitError> {\n    Err(LimitError::Over(5))\n}\n"},
  };
  auto build = [&](bool with_lib) {
    rust::ErrorTypeTable table({{"crates/api", "api"}, {"crates/app", "app"}});
    for (const auto& [path, text] : files)
      if (with_lib || path != "crates/api/src/lib.rs") table.Add(CollectRustErrorTypes(path, text));
    return table;
  };
  rust::ErrorTypeTable table = build(true);
  EXPECT_EQ(table.size(), 3u);  // re-exports are no types
  auto main_rs = ExtractRust("crates/app/src/main.rs", files.at("crates/app/src/main.rs"), {}, &table).sites;
  const Site* by_crate = At(main_rs, 3);
  ASSERT_NE(by_crate, nullptr);
  EXPECT_EQ(by_crate->message_pattern, "no route to (.*?)");
  const Site* alias = At(main_rs, 6);
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->error_class, "Over");
  EXPECT_EQ(alias->message_pattern, "over (.*?) requests");
  auto handler = ExtractRust("crates/api/src/handler.rs", files.at("crates/api/src/handler.rs"), {}, &table).sites;
  ASSERT_NE(At(handler, 3), nullptr);
  EXPECT_EQ(At(handler, 3)->message_pattern, "no route to (.*?)");

  rust::ErrorTypeTable without = build(false);
  auto unresolved = ExtractRust("crates/app/src/main.rs", files.at("crates/app/src/main.rs"), {}, &without).sites;
  ASSERT_NE(At(unresolved, 3), nullptr);
  EXPECT_FALSE(At(unresolved, 3)->error_message.has_value());
}

#endif  // ERRDEX_HAVE_TS_RUST

}  // namespace
}  // namespace errdex
