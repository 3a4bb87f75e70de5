#include "serve/router.h"

#include <gtest/gtest.h>

namespace errdex::serve {
namespace {

TEST(Router, MatchesTemplatesSegmentBySegment) {
  RouteMatch m = MatchRoute("GET", "/v1/errors/0123456789abcdef");
  ASSERT_NE(m.route, nullptr);
  EXPECT_EQ(m.route->id, RouteId::kErrorApi);
  EXPECT_EQ(m.params, std::vector<std::string>{"0123456789abcdef"});

  m = MatchRoute("GET", "/v1/errors/by-slug/o/r/some-slug");
  ASSERT_NE(m.route, nullptr);
  EXPECT_EQ(m.route->id, RouteId::kErrorBySlugApi);
  EXPECT_EQ(m.params, (std::vector<std::string>{"o", "r", "some-slug"}));

  m = MatchRoute("HEAD", "/e/o/r/s");
  ASSERT_NE(m.route, nullptr);
  EXPECT_EQ(m.route->id, RouteId::kErrorPage);
  ASSERT_NE(MatchRoute("GET", "/").route, nullptr);
  EXPECT_EQ(MatchRoute("GET", "/").route->id, RouteId::kIndexPage);
}

TEST(Router, UnknownPathsAndMethods) {
  EXPECT_EQ(MatchRoute("GET", "/nope").route, nullptr);
  EXPECT_FALSE(MatchRoute("GET", "/nope").path_known);
  EXPECT_EQ(MatchRoute("GET", "/v1/errors/").route, nullptr);      // empty segment
  EXPECT_EQ(MatchRoute("GET", "/v1/errors/a/b").route, nullptr);   // extra segment
  EXPECT_EQ(MatchRoute("GET", "/assets/../etc/passwd").route, nullptr);
  EXPECT_EQ(MatchRoute("GET", "").route, nullptr);
  EXPECT_EQ(MatchRoute("GET", "relative").route, nullptr);
  RouteMatch m = MatchRoute("GET", "/v1/explain");
  EXPECT_EQ(m.route, nullptr);
  EXPECT_TRUE(m.path_known);
  EXPECT_EQ(m.allow, "POST");
  m = MatchRoute("DELETE", "/explain");
  EXPECT_TRUE(m.path_known);
  EXPECT_EQ(m.allow, "GET, HEAD, POST");
  EXPECT_EQ(MatchRoute("GET", "/mcp").allow, "POST");
}

TEST(Router, EveryRouteMatchesItsOwnTemplate) {
  for (const Route& r : Routes()) {
    std::string path = r.path;
    for (size_t b; (b = path.find('{')) != std::string::npos;) path.replace(b, path.find('}', b) - b + 1, "x");
    RouteMatch m = MatchRoute(r.method, path);
    ASSERT_NE(m.route, nullptr) << r.path;
    EXPECT_EQ(m.route->id, r.id) << r.path;
  }
}

}  // namespace
}  // namespace errdex::serve
