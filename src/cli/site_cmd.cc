// cli/site_cmd.cc: `errdex site` -- a catalog's pages as static files
// (serve/site.h). Exit codes: 0 written, 1 nothing to write (no records), 2 error.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "serve/catalog_service.h"
#include "serve/site.h"

namespace errdex::cli {

namespace {

struct SiteFlags {
  std::string db;
  std::string out;
  std::string repo;
  std::string base_url;
};

int RunSite(const SiteFlags& f) {
  serve::ServiceOptions svc;
  svc.db = f.db;
  svc.reload_interval = std::chrono::milliseconds(0);
  serve::CatalogService service(svc);
  if (Status s = service.LoadNow(); !s.ok()) {
    std::fprintf(stderr, "errdex: error: %s\n", s.message().c_str());
    return 2;
  }
  auto snap = service.Current();
  serve::SiteOptions o;
  o.out_dir = f.out;
  o.repo = f.repo;
  o.base_url = f.base_url;
  auto stats = serve::WriteSite(*snap, o);
  if (!stats.ok()) {
    std::fprintf(stderr, "errdex: error: %s\n", stats.status().message().c_str());
    return 2;
  }
  std::fprintf(stderr, "errdex: wrote %zu pages (%zu records, %.1f MB) to %s\n", stats->pages, stats->records,
               stats->bytes / 1e6, f.out.c_str());
  if (stats->records == 0) {
    std::fprintf(stderr, "errdex: warning: no records%s\n", f.repo.empty() ? "" : (" of " + f.repo).c_str());
    return 1;
  }
  return 0;
}

}  // namespace

void RegisterSiteCommands(CLI::App& app, CommandTable& table) {
  auto f = std::make_shared<SiteFlags>();
  CLI::App* sub = app.add_subcommand("site", "write a catalog's pages as a static site (any static host)");
  sub->footer("DIR gets index.html, one page per error under e/OWNER/NAME/, search-index.json and assets/.");
  sub->add_option("--db", f->db, "catalog database (errdex scan/import --db)")->required();
  sub->add_option("-o,--output", f->out, "directory to write (created if missing)")->required();
  sub->add_option("--repo", f->repo, "only this repository (owner/name)");
  sub->add_option("--base-url", f->base_url, "absolute URL the site will be published at (for canonical links)");
  table.emplace_back(sub, [f] { return RunSite(*f); });
}

}  // namespace errdex::cli
