// serve/metrics.h: what errdex serve counts, in the Prometheus text format
// (GET /metrics): requests by route and status, a latency histogram per route,
// requests turned away, and the catalog being served.
//
// Thread-safety: thread-safe; Observe() is lock-free (relaxed atomics).
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace errdex::serve {

class Metrics {
 public:
  Metrics();
  // A request answered: `route` indexes Routes(), or -1 for one no route matched.
  void Observe(int route, int status, double seconds);
  void CountShed() { shed_.fetch_add(1, std::memory_order_relaxed); }

  struct CatalogGauges {
    std::string version;
    size_t entries = 0;
    size_t patterns = 0;
    uint64_t reloads = 0;
    uint64_t load_failures = 0;
    bool ready = false;
  };
  // The whole text exposition.
  std::string Render(const CatalogGauges& catalog, size_t in_flight, size_t queued) const;

  static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                      0.05,   0.1,   0.25,   0.5,   1,     5};
  static constexpr std::array<int, 17> kStatuses = {200, 202, 204, 301, 304, 400, 403, 404, 405,
                                                    406, 408, 413, 415, 422, 500, 503, 0 /* other */};

 private:
  struct PerRoute {
    std::array<std::atomic<uint64_t>, kStatuses.size()> by_status{};
    std::array<std::atomic<uint64_t>, kBuckets.size() + 1> buckets{};  // last: +Inf
    std::atomic<uint64_t> count{0};
    std::atomic<uint64_t> sum_micros{0};
  };
  std::vector<std::unique_ptr<PerRoute>> routes_;  // RouteCount() + 1 (unmatched last)
  std::atomic<uint64_t> shed_{0};
};

}  // namespace errdex::serve
