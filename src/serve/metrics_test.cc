#include "serve/metrics.h"

#include <gtest/gtest.h>

#include "serve/router.h"

namespace errdex::serve {
namespace {

size_t IndexOf(RouteId id) {
  for (size_t i = 0; i < Routes().size(); ++i)
    if (Routes()[i].id == id) return i;
  return 0;
}

TEST(Metrics, CountsByRouteAndStatusWithACumulativeHistogram) {
  Metrics m;
  int explain = static_cast<int>(IndexOf(RouteId::kExplainApi));
  m.Observe(explain, 200, 0.0004);
  m.Observe(explain, 200, 0.003);
  m.Observe(explain, 413, 0.2);
  m.Observe(-1, 404, 0.0001);
  m.Observe(explain, 299, 0.0001);  // a status outside the list counts as "other"
  m.CountShed();
  Metrics::CatalogGauges g;
  g.version = "7\"x";
  g.entries = 12;
  g.ready = true;
  std::string text = m.Render(g, 2, 1);
  auto has = [&](const std::string& line) { return text.find(line + "\n") != std::string::npos; };
  EXPECT_TRUE(has("errdex_http_requests_total{route=\"/v1/explain\",method=\"POST\",status=\"200\"} 2")) << text;
  EXPECT_TRUE(has("errdex_http_requests_total{route=\"/v1/explain\",method=\"POST\",status=\"413\"} 1"));
  EXPECT_TRUE(has("errdex_http_requests_total{route=\"/v1/explain\",method=\"POST\",status=\"other\"} 1"));
  EXPECT_TRUE(has("errdex_http_requests_total{route=\"unmatched\",method=\"\",status=\"404\"} 1"));
  EXPECT_TRUE(has("errdex_http_request_duration_seconds_bucket{route=\"/v1/explain\",method=\"POST\",le=\"0.0005\"} 2"));
  EXPECT_TRUE(has("errdex_http_request_duration_seconds_bucket{route=\"/v1/explain\",method=\"POST\",le=\"0.005\"} 3"));
  EXPECT_TRUE(has("errdex_http_request_duration_seconds_bucket{route=\"/v1/explain\",method=\"POST\",le=\"+Inf\"} 4"));
  EXPECT_TRUE(has("errdex_http_request_duration_seconds_count{route=\"/v1/explain\",method=\"POST\"} 4"));
  EXPECT_TRUE(has("errdex_http_shed_total 1"));
  EXPECT_TRUE(has("errdex_http_in_flight 2"));
  EXPECT_TRUE(has("errdex_catalog_info{version=\"7\\\"x\"} 1"));  // label value escaped
  EXPECT_TRUE(has("errdex_catalog_entries 12"));
  EXPECT_TRUE(has("errdex_catalog_ready 1"));
  // Every sample line names a metric declared by a # TYPE line before it.
  std::string declared;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.rfind("# TYPE ", 0) == 0) declared += " " + line.substr(7, line.find(' ', 7) - 7) + " ";
    if (line.empty() || line[0] == '#') continue;
    std::string name = line.substr(0, line.find_first_of("{ "));
    for (const char* suffix : {"_bucket", "_sum", "_count"})
      if (name.size() > strlen(suffix) && name.compare(name.size() - strlen(suffix), strlen(suffix), suffix) == 0 &&
          declared.find(" " + name.substr(0, name.size() - strlen(suffix)) + " ") != std::string::npos)
        name = name.substr(0, name.size() - strlen(suffix));
    EXPECT_NE(declared.find(" " + name + " "), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace errdex::serve
