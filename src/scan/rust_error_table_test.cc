// scan/rust_error_table: a crate's name from its Cargo.toml, a file's types
// surviving the cache's bytes, and each file's digest naming exactly the types
// its constructions can resolve to -- so an edit of a template in one crate
// makes the constructions of another crate stale, and an unrelated edit does not.
#include "scan/rust_error_table.h"

#include <gtest/gtest.h>

#include <mutex>

#include "extract/rust/rust_extractor.h"
#include "store/catalog_store.h"
#include "store/store_test_util.h"

namespace errdex {
namespace {

using testing_util::TempDir;

TEST(RustErrorTable, CrateNameOfManifest) {
  EXPECT_EQ(CrateNameOfManifest("[package]\nname = \"smg-auth\"\nversion = \"0.1\"\n[dependencies]\nname = \"x\"\n"),
            "smg_auth");
  EXPECT_EQ(CrateNameOfManifest("[package]\nname = \"llm-tokenizer\"\n\n[lib]\nname = \"tok\"\n"), "tok");
  EXPECT_EQ(CrateNameOfManifest("[workspace]\nmembers = [\"crates/*\"]\n"), "");
  EXPECT_EQ(CrateNameOfManifest("# name = \"no\"\n[package]\n  name='quoted'\n"), "quoted");
}

TEST(RustErrorTable, TypesSurviveTheCacheBytes) {
  rust::ErrorType t;
  t.module = "inner";
  t.name = "E";
  t.variants["A"].template_text = "a {0} {x:?}";
  t.variants["B"].transparent = true;
  t.variants["C"].extra_args = {".0.len()"};
  std::vector<rust::ErrorType> back;
  ASSERT_TRUE(DecodeRustErrorTypes(EncodeRustErrorTypes({t}), "src/e.rs", &back));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].file, "src/e.rs");
  EXPECT_EQ(back[0].module, "inner");
  EXPECT_EQ(back[0].variants.at("A").template_text, "a {0} {x:?}");
  EXPECT_TRUE(back[0].variants.at("B").transparent);
  EXPECT_EQ(back[0].variants.at("C").extra_args, std::vector<std::string>{".0.len()"});
  rust::ErrorType r;
  r.name = "Alias";
  r.reexport_of = "errors::E";
  ASSERT_TRUE(DecodeRustErrorTypes(EncodeRustErrorTypes({t, r}), "src/lib.rs", &back));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(back[0].reexport_of.empty());
  EXPECT_EQ(back[1].reexport_of, "errors::E");
  EXPECT_FALSE(DecodeRustErrorTypes("\x07", "x", &back));
}

#ifdef ERRDEX_HAVE_TS_RUST

std::string Errors(const std::string& not_found) {
  return "#[derive(Debug, thiserror::Error)]\n"
         "pub enum CoreError {\n"
         "    #[error(\"" + not_found + " {0}\")]\n"
         "    NotFound(String),\n"
         "}\n";
}

struct Built {
  std::vector<RustFile> files;
  std::shared_ptr<const rust::ErrorTypeTable> table;
  size_t read = 0;
};

Built Build(MemoryFileSource* src, CatalogStore* store,
            const std::vector<std::string>& paths = {"crates/core/src/errors.rs", "crates/server/src/routes.rs",
                                                     "crates/server/src/other.rs"}) {
  Built b;
  for (const std::string& p : paths) {
    RustFile f;
    f.path = f.listed = p;
    auto text = src->Read(p);
    f.blob_id = GitBlobId(text.value());  // as a git listing gives them: the cache is keyed by them
    b.files.push_back(f);
  }
  std::mutex mu;
  RustErrorTableBuilder builder(src, store, &mu, 2);
  EXPECT_TRUE(builder.Run(b.files, {"crates/core/Cargo.toml", "crates/server/Cargo.toml"}, "").ok());
  b.table = builder.Table();
  b.read = builder.files_read();
  return b;
}

// The two crates' manifests, and core's CoreError ("no model named {0}").
void AddCrates(MemoryFileSource* src) {
  src->Add("crates/core/Cargo.toml", "[package]\nname = \"app-core\"\n");
  src->Add("crates/server/Cargo.toml", "[package]\nname = \"server\"\n");
  src->Add("crates/core/src/errors.rs", Errors("no model named"));
}

TEST(RustErrorTable, DigestsNameTheTypesAFileMentions) {
  TempDir dir;
  auto store = CatalogStore::Open(dir.File("c.db"), true);
  ASSERT_TRUE(store.ok());
  MemoryFileSource src;
  AddCrates(&src);
  src.Add("crates/server/src/routes.rs",
          "use app_core::errors::CoreError;\nfn f(n: &str) -> Result<(), CoreError> {\n"
          "    Err(CoreError::NotFound(n.into()))\n}\n");
  src.Add("crates/server/src/other.rs", "fn g() { panic!(\"x\"); }\n");
  Built one = Build(&src, store->get());
  ASSERT_NE(one.table, nullptr);
  EXPECT_EQ(one.read, 3u);
  EXPECT_FALSE(one.files[1].deps.empty());
  EXPECT_TRUE(one.files[2].deps.empty());  // mentions no type

  // The message the table gives the construction in another crate.
  auto sites = ExtractRust("crates/server/src/routes.rs",
                           "use app_core::errors::CoreError;\nfn f(n: &str) -> Result<(), CoreError> {\n"
                           "    Err(CoreError::NotFound(n.into()))\n}\n",
                           {}, one.table.get())
                   .sites;
  ASSERT_EQ(sites.size(), 1u);
  EXPECT_EQ(sites[0].message_pattern, "no model named (.*?)");

  // A second run reads nothing (the cache), and gives the same digests.
  Built again = Build(&src, store->get());
  EXPECT_EQ(again.read, 0u);
  EXPECT_EQ(again.files[1].deps, one.files[1].deps);

  // The template changes: the mentioning file's digest changes, the other's does not.
  src.Add("crates/core/src/errors.rs", Errors("unknown model"));
  Built edited = Build(&src, store->get());
  EXPECT_EQ(edited.read, 1u);
  EXPECT_NE(edited.files[1].deps, one.files[1].deps);
  EXPECT_TRUE(edited.files[2].deps.empty());
  // … and so does a crate's name (it decides what `app_core::` names).
  src.Add("crates/core/Cargo.toml", "[package]\nname = \"core-two\"\n");
  Built renamed = Build(&src, store->get());
  EXPECT_NE(renamed.files[1].deps, edited.files[1].deps);
}

// An alias (`pub use errors::CoreError as Failure;`) stands for its target: a file that
// writes only `Failure` gets CoreError's template, and is stale when that template changes.
TEST(RustErrorTable, AnAliasDigestTakesInItsTarget) {
  TempDir dir;
  auto store = CatalogStore::Open(dir.File("c.db"), true);
  ASSERT_TRUE(store.ok());
  MemoryFileSource src;
  AddCrates(&src);
  src.Add("crates/core/src/lib.rs", "pub mod errors;\npub use errors::CoreError as Failure;\n");
  const std::string routes =
      "fn f(n: &str) -> Result<(), app_core::Failure> {\n    Err(app_core::Failure::NotFound(n.into()))\n}\n";
  src.Add("crates/server/src/routes.rs", routes);
  const std::vector<std::string> paths = {"crates/core/src/errors.rs", "crates/core/src/lib.rs", "crates/server/src/routes.rs"};
  Built one = Build(&src, store->get(), paths);
  ASSERT_NE(one.table, nullptr);
  EXPECT_FALSE(one.files[2].deps.empty());
  auto sites = ExtractRust("crates/server/src/routes.rs", routes, {}, one.table.get()).sites;
  ASSERT_EQ(sites.size(), 1u);
  EXPECT_EQ(sites[0].message_pattern, "no model named (.*?)");
  src.Add("crates/core/src/errors.rs", Errors("unknown model"));
  Built edited = Build(&src, store->get(), paths);
  EXPECT_NE(edited.files[2].deps, one.files[2].deps);
}

#endif  // ERRDEX_HAVE_TS_RUST

}  // namespace
}  // namespace errdex
