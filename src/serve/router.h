// serve/router.h: every route errdex serve answers, as one table (the OpenAPI
// document must list each of them: tests/web/openapi.test.mjs checks it against
// `errdex serve --routes`), and matching a request path against it. Paths are
// matched segment by segment ({name} is one non-empty segment); no regex runs per
// request.
//
// Thread-safety: immutable data and pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex::serve {

enum class RouteId {
  kIndexPage,
  kErrorPage,
  kExplainPage,
  kExplainForm,
  kSearchPage,
  kAsset,
  kFavicon,
  kHealthz,
  kReadyz,
  kMetrics,
  kOpenApi,
  kExplainApi,
  kErrorApi,
  kErrorBySlugApi,
  kSearchApi,
  kReposApi,
  kScansApi,
  kMcp,
};

struct Route {
  RouteId id;
  const char* method;  // "GET" (HEAD too) or "POST"
  const char* path;    // template: "/v1/errors/{id}"
  const char* label;   // for metrics: the template, or "" for none
};

// The whole table, in matching order.
const std::vector<Route>& Routes();
// Number of routes (metrics arrays are indexed by route index).
size_t RouteCount();

struct RouteMatch {
  const Route* route = nullptr;      // null: no route has this path for this method
  bool path_known = false;           // some route has this path (with another method: 405)
  std::string allow;                 // methods of the path, for Allow on 405
  std::vector<std::string> params;   // the {names}' segments, in order
  size_t index = 0;                  // of route in Routes()
};
// `path` as httplib gives it (percent-decoded, no query string).
RouteMatch MatchRoute(std::string_view method, std::string_view path);

}  // namespace errdex::serve
