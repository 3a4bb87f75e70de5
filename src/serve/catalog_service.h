// serve/catalog_service.h: the catalog as a long-running server sees it. A
// CatalogSnapshot is one version of the catalog (its matcher and the caches built
// on it); CatalogService holds the current one and swaps in a new one when the
// store's ContentVersion changes (a scan committed): the new matcher is built on
// the service's own thread, off the request path, and replaces the old one in
// one atomic pointer swap. A request keeps the snapshot it started with until it
// ends, so it never sees half of a change; the old snapshot goes away with its
// last request.
//
// Every query answered here goes through the library (Catalog, CatalogStore):
// the HTTP API, the pages and MCP answer what `errdex explain/show` answer.
//
// Thread-safety: CatalogService and CatalogSnapshot are thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "catalog/catalog.h"
#include "model/status.h"
#include "store/catalog_store.h"

namespace errdex::serve {

class CatalogSnapshot;

struct ServiceOptions {
  std::string db;  // the catalog database (errdex scan/import --db)
  // How often the store's ContentVersion is read; 0 = load once, never reload.
  std::chrono::milliseconds reload_interval{1000};
  size_t details_cache_entries = 16384;  // per snapshot; the cache starts over when full
  size_t max_store_connections = 16;     // read connections for searches (kept open)
  // Told of each version swapped in (first: the first load), before Current()
  // returns it, and of each failed load, on the loading thread (for the CLI's
  // log lines).
  std::function<void(const CatalogSnapshot& snapshot, bool first)> on_load;
  std::function<void(const Status& error)> on_error;
};

// One version of the catalog. Immutable but for its caches.
class CatalogSnapshot {
 public:
  CatalogSnapshot(std::unique_ptr<Catalog> catalog, std::string version, std::vector<ScanInfo> scans,
                  size_t details_cache_entries);
  CatalogSnapshot(const CatalogSnapshot&) = delete;
  CatalogSnapshot& operator=(const CatalogSnapshot&) = delete;

  const std::string& version() const { return version_; }
  // matcher(), record_id(), repo() and open_info() only: the rest of Catalog is not
  // thread-safe and is reached through the methods below.
  const Catalog& catalog() const { return *catalog_; }
  size_t entry_count() const { return catalog_->matcher().entries().size(); }
  // The scans (repo, commit) stored when this version was loaded, in scan order.
  const std::vector<ScanInfo>& scans() const { return scans_; }

  // The entry of a record id, or -1.
  int64_t EntryOfId(std::string_view id) const;
  // The record behind an entry and every version it exists in (Catalog::Details),
  // cached. kNotFound when the record left the store after this version was loaded.
  Result<std::shared_ptr<const EntryDetails>> Details(uint32_t entry) const;
  // The fuzzy fallback's candidates (Catalog::Fuzzy), safe to call from any thread.
  FuzzySearch Fuzzy() const;

 private:
  std::unique_ptr<Catalog> catalog_;
  std::string version_;
  std::vector<ScanInfo> scans_;
  mutable std::mutex catalog_mu_;  // Catalog's store connection is single-threaded
  mutable std::mutex cache_mu_;
  mutable std::unordered_map<uint32_t, std::shared_ptr<const EntryDetails>> details_;
  size_t details_cap_;
};

class CatalogService {
 public:
  explicit CatalogService(ServiceOptions options);
  ~CatalogService();  // stops watching
  CatalogService(const CatalogService&) = delete;
  CatalogService& operator=(const CatalogService&) = delete;

  // Loads the current version now, on the caller's thread.
  Status LoadNow();
  // Loads (when not loaded yet) and then watches for new versions on a thread of
  // its own, every reload_interval.
  void StartWatching();

  // The current version; nullptr until the first load succeeded.
  std::shared_ptr<const CatalogSnapshot> Current() const { return current_.load(); }
  // Why the last load failed (ok when it did not).
  Status last_error() const;
  uint64_t reloads() const { return reloads_.load(); }         // versions swapped in after the first
  uint64_t load_failures() const { return failures_.load(); }

  // A read connection to the store, from a pool; returned when the lease ends.
  class StoreLease {
   public:
    StoreLease(CatalogService* owner, std::unique_ptr<CatalogStore> store) : owner_(owner), store_(std::move(store)) {}
    StoreLease(StoreLease&&) = default;
    ~StoreLease();
    CatalogStore* operator->() { return store_.get(); }
    CatalogStore& operator*() { return *store_; }

   private:
    CatalogService* owner_;
    std::unique_ptr<CatalogStore> store_;
  };
  Result<StoreLease> Store();

 private:
  // Reads the version; when it differs from the current one, builds and swaps.
  Status Refresh();
  void Watch();

  ServiceOptions opt_;
  std::atomic<std::shared_ptr<const CatalogSnapshot>> current_;
  std::atomic<uint64_t> reloads_{0};
  std::atomic<uint64_t> failures_{0};
  mutable std::mutex mu_;  // guards error_, version_store_, pool_, refresh
  Status error_;
  std::unique_ptr<CatalogStore> version_store_;  // the watcher's connection
  std::vector<std::unique_ptr<CatalogStore>> pool_;
  std::mutex refresh_mu_;  // one load at a time
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::thread watcher_;
};

}  // namespace errdex::serve
