// Fuzz target: `errdex import` of one JSON Lines file (store/import.h) into a
// SQLite catalog, and the export of what was stored. The store lives for the whole
// process; each input is imported inside a transaction that is then rolled back,
// so every input meets the same empty catalog.
// Property (the README's byte-identical round trip): what is exported is exactly
// what was imported, line for line.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "fuzz/fuzz_util.h"
#include "model/record.h"
#include "store/catalog_store.h"
#include "store/import.h"

using namespace errdex;

namespace {

struct Fixture {
  std::string dir;
  std::unique_ptr<CatalogStore> store;
  ~Fixture() {
    store.reset();
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

Fixture* MakeFixture() {
  auto* f = new Fixture();
  char tmpl[] = "/tmp/errdex-fuzz-import-XXXXXX";
  if (!mkdtemp(tmpl)) std::abort();
  f->dir = tmpl;
  auto store = CatalogStore::Open(f->dir + "/c.db", /*create=*/true);
  if (!store.ok()) std::abort();
  f->store = std::move(store).value();
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fixture = MakeFixture();
  static struct Cleanup {
    ~Cleanup() { delete fixture; }
  } cleanup;
  const fuzz::Split in = fuzz::TakeSelector(fuzz::Bytes(data, size));
  const uint8_t selector = in.selector;
  const std::string_view text = in.rest;
  JsonLinesImport import((selector & 1) ? "o/n" : "", (selector & 2) ? std::string(40, 'c') : "");
  if (!import.AddFile("in.jsonl", text).ok()) return 0;
  std::vector<ScanBatch> batches = import.TakeBatches();
  std::vector<std::string> imported;
  for (const ScanBatch& b : batches)
    for (const CatalogLine& l : b.lines) imported.push_back(CatalogLineToJson(l));

  CatalogStore& store = *fixture->store;
  const Status rollback = Status::Internal("fuzz: roll back");
  Status st = store.InTransaction([&]() -> Status {
    auto ids = PutScans(store, batches);
    fuzz::Check(ids.ok(), "valid lines are stored");
    auto lines = store.LoadLines(ScanFilter{});
    fuzz::Check(lines.ok(), "stored lines load");
    std::vector<std::string> exported;
    for (const StoredLine& l : *lines) exported.push_back(CatalogLineToJson(l.line));
    std::sort(imported.begin(), imported.end());
    std::sort(exported.begin(), exported.end());
    fuzz::Check(imported == exported, "export gives back exactly the imported lines");
    return rollback;
  });
  fuzz::Check(st.code() == Status::Code::kInternal, "the transaction rolls back");
  return 0;
}
