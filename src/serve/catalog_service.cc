// serve/catalog_service.cc: snapshots, the reload watcher and the store pool
// (catalog_service.h). Tested by catalog_service_test.cc and, with a scan
// committing under a running server, tests/serve/serve_e2e_test.cc.
#include "serve/catalog_service.h"

#include <algorithm>

namespace errdex::serve {

CatalogSnapshot::CatalogSnapshot(std::unique_ptr<Catalog> catalog, std::string version, std::vector<ScanInfo> scans,
                                 size_t details_cache_entries)
    : catalog_(std::move(catalog)),
      version_(std::move(version)),
      scans_(std::move(scans)),
      details_cap_(std::max<size_t>(1, details_cache_entries)) {}

int64_t CatalogSnapshot::EntryOfId(std::string_view id) const {
  // Entries are in record-id order (catalog.h): a binary search over record_id().
  size_t lo = 0, hi = entry_count();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (catalog_->record_id(static_cast<uint32_t>(mid)) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < entry_count() && catalog_->record_id(static_cast<uint32_t>(lo)) == id ? static_cast<int64_t>(lo) : -1;
}

Result<std::shared_ptr<const EntryDetails>> CatalogSnapshot::Details(uint32_t entry) const {
  if (entry >= entry_count()) return Status::NotFound("no entry " + std::to_string(entry));
  {
    std::lock_guard<std::mutex> lock(cache_mu_);
    auto it = details_.find(entry);
    if (it != details_.end()) return it->second;
  }
  Result<EntryDetails> d = [&] {
    std::lock_guard<std::mutex> lock(catalog_mu_);
    return catalog_->Details(entry);
  }();
  if (!d.ok()) return d.status();
  auto shared = std::make_shared<const EntryDetails>(std::move(d).value());
  std::lock_guard<std::mutex> lock(cache_mu_);
  if (details_.size() >= details_cap_) details_.clear();
  details_.emplace(entry, shared);
  return shared;
}

FuzzySearch CatalogSnapshot::Fuzzy() const {
  // Catalog::Fuzzy captures the catalog and asks its store: one caller at a time.
  FuzzySearch inner = catalog_->Fuzzy();
  if (!inner) return nullptr;
  return [this, inner](std::string_view text, int limit) {
    std::lock_guard<std::mutex> lock(catalog_mu_);
    return inner(text, limit);
  };
}

CatalogService::CatalogService(ServiceOptions options) : opt_(std::move(options)) {}

CatalogService::~CatalogService() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

Status CatalogService::last_error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

Status CatalogService::LoadNow() { return Refresh(); }

void CatalogService::StartWatching() {
  watcher_ = std::thread([this] { Watch(); });
}

void CatalogService::Watch() {
  for (;;) {
    Refresh();
    std::unique_lock<std::mutex> lock(mu_);
    if (opt_.reload_interval.count() <= 0 && Current()) return;  // loaded once, as asked
    // Until the first load succeeds, retry on the same clock.
    auto wait = opt_.reload_interval.count() > 0 ? opt_.reload_interval : std::chrono::milliseconds(1000);
    if (stop_cv_.wait_for(lock, wait, [this] { return stopping_; })) return;
  }
}

Status CatalogService::Refresh() {
  std::lock_guard<std::mutex> refresh(refresh_mu_);
  auto fail = [this](Status s) {
    failures_.fetch_add(1);
    {
      std::lock_guard<std::mutex> lock(mu_);
      error_ = s;
      version_store_.reset();  // the file may have been replaced: reopen next time
    }
    if (opt_.on_error) opt_.on_error(s);
    return s;
  };
  std::unique_ptr<CatalogStore> store;
  {
    std::lock_guard<std::mutex> lock(mu_);
    store = std::move(version_store_);
  }
  if (!store) {
    auto opened = CatalogStore::Open(opt_.db, /*create=*/false);
    if (!opened.ok()) return fail(opened.status());
    store = std::move(opened).value();
  }
  auto version = store->ContentVersion();
  if (!version.ok()) return fail(version.status());
  auto current = Current();
  if (current && current->version() == *version) {
    std::lock_guard<std::mutex> lock(mu_);
    version_store_ = std::move(store);
    return Status::Ok();
  }
  // The version is read before the catalog: if a scan commits in between, the
  // snapshot holds newer lines under the older label, and the next look sees
  // the version differ and loads again. Never the other way round.
  auto scans = store->ListScans();
  if (!scans.ok()) return fail(scans.status());
  auto catalog = Catalog::OpenStore(opt_.db, CatalogOptions{});
  if (!catalog.ok()) return fail(catalog.status());
  auto snapshot = std::make_shared<const CatalogSnapshot>(std::move(catalog).value(), *version,
                                                          std::move(scans).value(), opt_.details_cache_entries);
  bool first = !current;
  // Counted and announced before it is published: whoever sees the new
  // snapshot in Current() may rely on on_load having run for it.
  if (!first) reloads_.fetch_add(1);
  if (opt_.on_load) opt_.on_load(*snapshot, first);
  current_.store(snapshot);
  std::lock_guard<std::mutex> lock(mu_);
  error_ = Status::Ok();
  version_store_ = std::move(store);
  return Status::Ok();
}

CatalogService::StoreLease::~StoreLease() {
  if (!store_ || !owner_) return;
  std::lock_guard<std::mutex> lock(owner_->mu_);
  if (owner_->pool_.size() < owner_->opt_.max_store_connections) owner_->pool_.push_back(std::move(store_));
}

Result<CatalogService::StoreLease> CatalogService::Store() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!pool_.empty()) {
      std::unique_ptr<CatalogStore> s = std::move(pool_.back());
      pool_.pop_back();
      return StoreLease(this, std::move(s));
    }
  }
  auto opened = CatalogStore::Open(opt_.db, /*create=*/false);
  if (!opened.ok()) return opened.status();
  return StoreLease(this, std::move(opened).value());
}

}  // namespace errdex::serve
