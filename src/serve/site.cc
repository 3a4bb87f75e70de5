// serve/site.cc: see site.h. Tested by tests/serve/serve_e2e_test.cc (every
// internal link of a written site resolves, hostile records stay escaped).
#include "serve/site.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

#include "serve/assets.h"
#include "serve/pages.h"
#include "serve/queries.h"

namespace errdex::serve {

namespace {

namespace fs = std::filesystem;

Status WriteFile(const fs::path& path, std::string_view bytes, SiteStats* stats) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return Status::IoError(path.parent_path().string() + ": cannot create: " + ec.message());
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::IoError(tmp.string() + ": cannot write");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return Status::IoError(tmp.string() + ": write failed");
  }
  fs::rename(tmp, path, ec);
  if (ec) return Status::IoError(path.string() + ": cannot rename into place: " + ec.message());
  stats->bytes += bytes.size();
  return Status::Ok();
}

// "../" once per directory between DIR and the file at `rel`.
std::string RootFor(const std::string& rel) {
  std::string root;
  for (char c : rel)
    if (c == '/') root += "../";
  return root;
}

}  // namespace

Result<SiteStats> WriteSite(const CatalogSnapshot& snap, const SiteOptions& o) {
  SiteStats stats;
  const fs::path dir(o.out_dir);
  std::string base = o.base_url;
  if (!base.empty() && base.back() != '/') base += '/';
  auto ctx_for = [&](const std::string& rel) {
    PageContext c;
    c.site = true;
    c.root = RootFor(rel);
    c.catalog_version = snap.version();
    if (!base.empty()) c.canonical = base + rel;
    return c;
  };
  // Every record (its newest version), grouped by page: (repo, slug or id).
  std::map<std::string, std::vector<std::shared_ptr<const EntryDetails>>> pages;
  std::map<std::string, std::vector<std::shared_ptr<const EntryDetails>>> by_repo;
  for (uint32_t e = 0; e < snap.entry_count(); ++e) {
    if (!o.repo.empty() && snap.catalog().repo(e) != o.repo) continue;
    auto d = snap.Details(e);
    if (!d.ok()) continue;
    pages[ErrorPagePath((*d)->record, true)].push_back(*d);
    by_repo[(*d)->record.repo.value_or("")].push_back(*d);
    ++stats.records;
  }
  nlohmann::json index = nlohmann::json::array();
  for (auto& [rel, recs] : pages) {
    std::sort(recs.begin(), recs.end(), [](const auto& a, const auto& b) {
      return std::tie(a->record.file_path, a->record.line_number, a->record.id) <
             std::tie(b->record.file_path, b->record.line_number, b->record.id);
    });
    if (Status s = WriteFile(dir / rel, ErrorPage(ctx_for(rel), snap, recs), &stats); !s.ok()) return s;
    ++stats.pages;
    for (const auto& r : recs)
      index.push_back({{"u", rel + "#r-" + r->record.id},
                       {"m", r->record.error_message.value_or("")},
                       {"c", r->record.error_class.value_or("")},
                       {"s", r->record.slug.value_or("")},
                       {"r", r->record.repo.value_or("")},
                       {"f", r->record.file_path + ":" + std::to_string(r->record.line_number)}});
  }
  // The index lists the repos in Repos() order, each with its errors by file and line.
  std::vector<std::vector<std::shared_ptr<const EntryDetails>>> listed;
  for (const RepoSummary& r : Repos(snap)) {
    auto& v = by_repo[r.repo];  // empty for a repo left out by --repo: the index skips it
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return std::tie(a->record.file_path, a->record.line_number) < std::tie(b->record.file_path, b->record.line_number);
    });
    listed.push_back(v);
  }
  if (Status s = WriteFile(dir / "index.html", IndexPage(ctx_for("index.html"), &snap, &listed), &stats); !s.ok())
    return s;
  if (Status s = WriteFile(dir / "404.html",
                           MessagePage(ctx_for("404.html"), "Not found", "There is no page at this address."), &stats);
      !s.ok())
    return s;
  if (Status s = WriteFile(dir / "search-index.json", DumpJson(index), &stats); !s.ok()) return s;
  for (const char* a : {"style.css", "favicon.svg", "search.js"})
    if (Status s = WriteFile(dir / "assets" / a, AssetText(a), &stats); !s.ok()) return s;
  return stats;
}

}  // namespace errdex::serve
