// serve/metrics.cc: see metrics.h. Tested by metrics_test.cc.
#include "serve/metrics.h"

#include <cstdio>

#include "serve/router.h"

namespace errdex::serve {

namespace {

// A label value in the exposition format: backslash, quote and newline escaped.
std::string Label(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string Num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

}  // namespace

Metrics::Metrics() {
  for (size_t i = 0; i <= RouteCount(); ++i) routes_.push_back(std::make_unique<PerRoute>());
}

void Metrics::Observe(int route, int status, double seconds) {
  size_t r = route < 0 || static_cast<size_t>(route) >= RouteCount() ? RouteCount() : static_cast<size_t>(route);
  PerRoute& p = *routes_[r];
  size_t s = kStatuses.size() - 1;
  for (size_t i = 0; i + 1 < kStatuses.size(); ++i)
    if (kStatuses[i] == status) s = i;
  p.by_status[s].fetch_add(1, std::memory_order_relaxed);
  size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b]) ++b;
  p.buckets[b].fetch_add(1, std::memory_order_relaxed);
  p.count.fetch_add(1, std::memory_order_relaxed);
  p.sum_micros.fetch_add(static_cast<uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

std::string Metrics::Render(const CatalogGauges& c, size_t in_flight, size_t queued) const {
  std::string o;
  auto route_label = [](size_t r) -> std::string {
    return r < RouteCount() ? Label(Routes()[r].label) + "\",method=\"" + Routes()[r].method : "unmatched\",method=\"";
  };
  o += "# HELP errdex_http_requests_total HTTP requests answered, by route template and status.\n";
  o += "# TYPE errdex_http_requests_total counter\n";
  for (size_t r = 0; r < routes_.size(); ++r)
    for (size_t s = 0; s < kStatuses.size(); ++s) {
      uint64_t n = routes_[r]->by_status[s].load(std::memory_order_relaxed);
      if (!n) continue;
      o += "errdex_http_requests_total{route=\"" + route_label(r) + "\",status=\"" +
           (kStatuses[s] ? std::to_string(kStatuses[s]) : std::string("other")) + "\"} " + std::to_string(n) + "\n";
    }
  o += "# HELP errdex_http_request_duration_seconds Time from the request line read to the response written.\n";
  o += "# TYPE errdex_http_request_duration_seconds histogram\n";
  for (size_t r = 0; r < routes_.size(); ++r) {
    const PerRoute& p = *routes_[r];
    uint64_t count = p.count.load(std::memory_order_relaxed);
    if (!count) continue;
    std::string l = "route=\"" + route_label(r) + "\"";
    uint64_t cum = 0;
    for (size_t b = 0; b < kBuckets.size(); ++b) {
      cum += p.buckets[b].load(std::memory_order_relaxed);
      o += "errdex_http_request_duration_seconds_bucket{" + l + ",le=\"" + Num(kBuckets[b]) + "\"} " +
           std::to_string(cum) + "\n";
    }
    cum += p.buckets[kBuckets.size()].load(std::memory_order_relaxed);
    o += "errdex_http_request_duration_seconds_bucket{" + l + ",le=\"+Inf\"} " + std::to_string(cum) + "\n";
    char sum[32];
    std::snprintf(sum, sizeof sum, "%.6f", p.sum_micros.load(std::memory_order_relaxed) / 1e6);
    o += "errdex_http_request_duration_seconds_sum{" + l + "} " + sum + "\n";
    o += "errdex_http_request_duration_seconds_count{" + l + "} " + std::to_string(count) + "\n";
  }
  o += "# HELP errdex_http_shed_total Connections answered 503 because every worker was busy and the queue full.\n";
  o += "# TYPE errdex_http_shed_total counter\n";
  o += "errdex_http_shed_total " + std::to_string(shed_.load(std::memory_order_relaxed)) + "\n";
  o += "# HELP errdex_http_in_flight Requests being answered now.\n# TYPE errdex_http_in_flight gauge\n";
  o += "errdex_http_in_flight " + std::to_string(in_flight) + "\n";
  o += "# HELP errdex_http_queued Connections waiting for a worker.\n# TYPE errdex_http_queued gauge\n";
  o += "errdex_http_queued " + std::to_string(queued) + "\n";
  o += "# HELP errdex_catalog_info The catalog version being served (the store's ContentVersion).\n";
  o += "# TYPE errdex_catalog_info gauge\n";
  o += "errdex_catalog_info{version=\"" + Label(c.version) + "\"} 1\n";
  o += "# HELP errdex_catalog_ready 1 once a catalog is loaded and its matcher built.\n";
  o += "# TYPE errdex_catalog_ready gauge\nerrdex_catalog_ready " + std::string(c.ready ? "1" : "0") + "\n";
  o += "# HELP errdex_catalog_entries Records in the matcher.\n# TYPE errdex_catalog_entries gauge\n";
  o += "errdex_catalog_entries " + std::to_string(c.entries) + "\n";
  o += "# HELP errdex_catalog_patterns Distinct message patterns.\n# TYPE errdex_catalog_patterns gauge\n";
  o += "errdex_catalog_patterns " + std::to_string(c.patterns) + "\n";
  o += "# HELP errdex_catalog_reloads_total New catalog versions swapped in while serving.\n";
  o += "# TYPE errdex_catalog_reloads_total counter\nerrdex_catalog_reloads_total " + std::to_string(c.reloads) + "\n";
  o += "# HELP errdex_catalog_load_failures_total Catalog loads that failed (the previous version kept serving).\n";
  o += "# TYPE errdex_catalog_load_failures_total counter\nerrdex_catalog_load_failures_total " +
       std::to_string(c.load_failures) + "\n";
  return o;
}

}  // namespace errdex::serve
