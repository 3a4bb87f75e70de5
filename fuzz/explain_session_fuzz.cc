// Fuzz target: an explain session (match/explain.h) over a small fixed catalog,
// as `errdex explain` runs it: the paste fed in chunks, tracebacks and log lines
// matched by Vectorscan + PCRE2, frames, the fuzzy fallback over the catalog's
// full-text index (SQLite FTS5: the paste's words become a query), and the JSON
// of every hit (catalog/explain_json.h). The catalog is a scan of a generated
// Python module, stored once per process in a temporary SQLite file. The first
// byte picks chunk size and options (small windows, line and input limits).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "catalog/catalog.h"
#include "catalog/explain_json.h"
#include "extract/common/file_source.h"
#include "fuzz/fuzz_util.h"
#include "scan/scanner.h"
#include "scan/sinks.h"
#include "store/catalog_store.h"

using namespace errdex;

namespace {

// Error sites of every shape the matcher handles: literal messages, f-strings,
// %-formats and .format() with holes at the start, middle and end, a message
// with a newline, conditional messages, asserts, HTTP errors, logging.
constexpr const char* kModule = R"PY(import logging
logger = logging.getLogger(__name__)

class ConfigError(ValueError):
    pass

def load(path, mode):
    if not path:
        raise ValueError("path must not be empty")
    if mode not in ("r", "w"):
        raise ConfigError(f"unknown mode {mode!r} for {path}")
    if len(path) > 4096:
        raise OSError("path is too long: %d bytes" % len(path))
    raise KeyError("no loader for {} in {}".format(path, mode))

def parse(text):
    assert text.startswith("{"), "document must start with a brace"
    if "\t" in text:
        raise SyntaxError("tabs are not allowed\nuse spaces instead")
    raise TypeError("expected str or bytes" if text else "empty document given")

def serve(request):
    from fastapi import HTTPException
    if request is None:
        raise HTTPException(status_code=404, detail="Item not found in the store")
    logger.error("request %s failed after %d retries", request, 3)
    raise RuntimeError(f"{request} could not be served")
)PY";

struct Fixture {
  std::string dir;
  std::unique_ptr<Catalog> catalog;
  ~Fixture() {
    catalog.reset();
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

Fixture* MakeFixture() {
  auto* f = new Fixture();
  char tmpl[] = "/tmp/errdex-fuzz-explain-XXXXXX";
  if (!mkdtemp(tmpl)) std::abort();
  f->dir = tmpl;
  MemoryFileSource source;
  source.Add("app/service.py", kModule);
  ScanOptions o;
  o.path = "<memory>";
  o.source = &source;
  o.repo = "o/n";
  o.sha = std::string(40, 'b');
  o.jobs = 1;
  auto store = CatalogStore::Open(f->dir + "/c.db", /*create=*/true);
  if (!store.ok()) std::abort();
  {
    std::mutex mu;
    CatalogSink sink(store->get(), &mu);
    if (!ScanToSinks(o, {&sink}, store->get(), &mu).ok()) std::abort();
  }
  store->reset();
  auto cat = Catalog::OpenStore(f->dir + "/c.db", CatalogOptions{});
  if (!cat.ok()) std::abort();
  f->catalog = std::move(cat).value();
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fixture = MakeFixture();
  static struct Cleanup {
    ~Cleanup() { delete fixture; }
  } cleanup;
  Catalog& c = *fixture->catalog;
  const fuzz::Split in = fuzz::TakeSelector(fuzz::Bytes(data, size));
  const uint8_t selector = in.selector;
  const std::string_view text = in.rest;
  ExplainOptions opts;
  opts.top_k = 1 + (selector & 3);
  if (selector & 4) {
    opts.window_bytes = 64;
    opts.max_line_bytes = 48;
    opts.max_message_lines = 2;
  }
  if (selector & 8) opts.max_input_bytes = text.size() / 2;
  opts.fuzzy = (selector & 16) == 0;
  if (selector & 32) opts.accept = [&c](uint32_t e) { return e % 2 == 0 || c.repo(e) == "o/n"; };
  const size_t chunk = (selector & 64) ? 1 + selector % 7 : text.size() + 1;
  ExplainSession session(c.matcher(), opts, c.Fuzzy());
  size_t hits = 0;
  HitSink sink = [&](const ExplainHit& h) {
    ++hits;
    fuzz::Check(h.begin <= h.end && h.end <= text.size(), "a hit's span inside the input");
    auto details = c.Details(h.entry);
    nlohmann::json j = ExplainHitJson(c, h, details.ok() ? &details.value() : nullptr);
    (void)j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  for (size_t pos = 0; pos < text.size(); pos += chunk) {
    Status s = session.Feed(text.substr(pos, chunk), sink);
    if (s.code() == Status::Code::kLimitExceeded) break;
    fuzz::Check(s.ok(), "Feed fails only at the input limit");
  }
  fuzz::Check(session.Finish(sink).ok(), "Finish succeeds");
  fuzz::Check(session.hit_count() == hits, "hit_count counts the hits given");
  return 0;
}
