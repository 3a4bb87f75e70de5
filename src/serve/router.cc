// serve/router.cc: the route table and its matcher (router.h). Tested by
// router_test.cc; the OpenAPI document is checked against Routes() by
// tests/web/openapi.test.mjs.
#include "serve/router.h"

namespace errdex::serve {

namespace {

// Walks template and path one segment at a time, allocating nothing but the
// parameters (this runs for every route of the table on every request).
bool Matches(std::string_view tmpl, std::string_view path, std::vector<std::string>* params) {
  if (path.empty() || path[0] != '/') return false;
  if (tmpl == "/") return path == "/";
  params->clear();
  size_t ti = 1, pi = 1;
  for (;;) {
    size_t te = tmpl.find('/', ti), pe = path.find('/', pi);
    if (te == std::string_view::npos) te = tmpl.size();
    if (pe == std::string_view::npos) pe = path.size();
    std::string_view t = tmpl.substr(ti, te - ti), p = path.substr(pi, pe - pi);
    if (!t.empty() && t.front() == '{') {
      if (p.empty()) return false;
      params->emplace_back(p);
    } else if (t != p) {
      return false;
    }
    bool tend = te == tmpl.size(), pend = pe == path.size();
    if (tend || pend) return tend && pend;
    ti = te + 1;
    pi = pe + 1;
  }
}

}  // namespace

const std::vector<Route>& Routes() {
  static const std::vector<Route> routes = {
      {RouteId::kIndexPage, "GET", "/", "/"},
      {RouteId::kErrorPage, "GET", "/e/{owner}/{name}/{slug}", "/e/{owner}/{name}/{slug}"},
      {RouteId::kExplainPage, "GET", "/explain", "/explain"},
      {RouteId::kExplainForm, "POST", "/explain", "/explain"},
      {RouteId::kSearchPage, "GET", "/search", "/search"},
      {RouteId::kAsset, "GET", "/assets/{file}", "/assets/{file}"},
      {RouteId::kFavicon, "GET", "/favicon.ico", "/favicon.ico"},
      {RouteId::kHealthz, "GET", "/healthz", "/healthz"},
      {RouteId::kReadyz, "GET", "/readyz", "/readyz"},
      {RouteId::kMetrics, "GET", "/metrics", "/metrics"},
      {RouteId::kOpenApi, "GET", "/v1/openapi.json", "/v1/openapi.json"},
      {RouteId::kExplainApi, "POST", "/v1/explain", "/v1/explain"},
      {RouteId::kErrorBySlugApi, "GET", "/v1/errors/by-slug/{owner}/{name}/{slug}",
       "/v1/errors/by-slug/{owner}/{name}/{slug}"},
      {RouteId::kErrorApi, "GET", "/v1/errors/{id}", "/v1/errors/{id}"},
      {RouteId::kSearchApi, "GET", "/v1/search", "/v1/search"},
      {RouteId::kReposApi, "GET", "/v1/repos", "/v1/repos"},
      {RouteId::kScansApi, "GET", "/v1/repos/{owner}/{name}/scans", "/v1/repos/{owner}/{name}/scans"},
      {RouteId::kMcp, "POST", "/mcp", "/mcp"},
  };
  return routes;
}

size_t RouteCount() { return Routes().size(); }

RouteMatch MatchRoute(std::string_view method, std::string_view path) {
  RouteMatch m;
  if (method == "HEAD") method = "GET";
  std::vector<std::string> params;
  const auto& routes = Routes();
  for (size_t i = 0; i < routes.size(); ++i) {
    if (!Matches(routes[i].path, path, &params)) continue;
    m.path_known = true;
    std::string_view rm = routes[i].method;
    if (m.allow.find(rm) == std::string::npos) {
      if (!m.allow.empty()) m.allow += ", ";
      m.allow += rm;
      if (rm == "GET") m.allow += ", HEAD";
    }
    if (!m.route && rm == method) {
      m.route = &routes[i];
      m.index = i;
      m.params = params;
    }
  }
  return m;
}

}  // namespace errdex::serve
