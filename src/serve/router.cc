// serve/router.cc: the route table and its matcher (router.h). Tested by
// router_test.cc; the OpenAPI document is checked against Routes() by
// tests/web/openapi.test.mjs.
#include "serve/router.h"

namespace errdex::serve {

namespace {

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  size_t pos = 1;  // after the leading '/'
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    out.push_back(path.substr(pos, slash - pos));
    pos = slash + 1;
  }
  return out;
}

bool Matches(std::string_view tmpl, std::string_view path, std::vector<std::string>* params) {
  if (path.empty() || path[0] != '/') return false;
  if (tmpl == "/") return path == "/";
  auto t = Segments(tmpl), p = Segments(path);
  if (t.size() != p.size()) return false;
  params->clear();
  for (size_t i = 0; i < t.size(); ++i) {
    if (!t[i].empty() && t[i].front() == '{') {
      if (p[i].empty()) return false;
      params->emplace_back(p[i]);
    } else if (t[i] != p[i]) {
      return false;
    }
  }
  return true;
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
