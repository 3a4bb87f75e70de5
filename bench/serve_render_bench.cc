// bench/serve_render_bench.cc: how long errdex serve takes to render its pages,
// in process (no HTTP): the error page of N records (first render: the record is
// read from the store; again: from the snapshot's cache) and the explain page of
// one paste. Target (issue 12): an error page renders in <= 2 ms.
//
// usage: serve_render_bench --db CATALOG.db [--records N=200]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "serve/catalog_service.h"
#include "serve/pages.h"
#include "serve/queries.h"

using namespace errdex;
using namespace errdex::serve;
using Clock = std::chrono::steady_clock;

namespace {

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

}  // namespace

int main(int argc, char** argv) {
  std::string db;
  size_t records = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--db")) db = argv[i + 1];
    else if (!std::strcmp(argv[i], "--records")) records = std::stoul(argv[i + 1]);
  }
  if (db.empty()) {
    std::fprintf(stderr, "usage: serve_render_bench --db CATALOG.db [--records N]\n");
    return 2;
  }
  ServiceOptions o;
  o.db = db;
  CatalogService service(o);
  if (Status s = service.LoadNow(); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 2;
  }
  auto snap = service.Current();
  const size_t n = std::min(records, snap->entry_count());
  PageContext ctx;
  ctx.catalog_version = snap->version();
  std::vector<double> cold, warm;
  size_t bytes = 0;
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < n; ++i) {
      uint32_t entry = static_cast<uint32_t>(i * snap->entry_count() / n);
      auto t0 = Clock::now();
      auto d = snap->Details(entry);
      if (!d.ok()) continue;
      // As the route does: every record of the slug, then the page.
      auto recs = RecordsOfSlug(service, *snap, (*d)->record.repo.value_or(""), (*d)->record.slug.value_or(""));
      std::string html = ErrorPage(ctx, *snap, recs.ok() ? *recs : std::vector<std::shared_ptr<const EntryDetails>>{*d});
      double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
      (round == 0 ? cold : warm).push_back(us);
      bytes += html.size();
    }
  }
  std::printf("error page (%zu records of %zu): first render median %.0f us, p99 %.0f us; again median %.0f us, "
              "p99 %.0f us; %.1f KB each  [target <= 2 ms]\n",
              n, snap->entry_count(), Percentile(cold, 0.5), Percentile(cold, 0.99), Percentile(warm, 0.5),
              Percentile(warm, 0.99), bytes / 1024.0 / (cold.size() + warm.size()));
  return 0;
}
