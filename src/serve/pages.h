// serve/pages.h: the HTML pages of errdex serve and errdex site, rendered on the
// server from the mustache templates in src/serve/assets/templates/ (kainjow
// mustache: {{name}} always HTML-escapes, and no template uses the raw forms
// {{{...}}} or {{&...}}, which pages_test.cc checks). Catalog text passes through
// VisibleText first (safe_text.h); links taken from records must be http(s).
// The pages need no JavaScript and no inline style or script.
//
// Thread-safety: thread-safe (each thread renders with its own parsed templates).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "serve/catalog_service.h"
#include "serve/queries.h"

namespace errdex::serve {

struct PageContext {
  bool site = false;           // errdex site: static files (links end in .html, no forms that need a server)
  std::string root = "/";      // prefix of every internal link ("/", or "../../" for a site page)
  std::string canonical;       // absolute URL of this page, when known (site --base-url)
  std::string catalog_version;
};

// The path (after root) of a record's page: e/<owner>/<name>/<slug or id>.
// For the server each segment is percent-encoded; for the site it is a file name
// that needs no decoding (bytes outside A-Z a-z 0-9 - . ~ become _XX, no leading
// '.'), + ".html".
std::string ErrorPagePath(const Record& r, bool site);
std::string SiteSegment(std::string_view s);
// Splits "owner/name" for a page path; a repo without '/' or empty maps to "-".
std::pair<std::string, std::string> RepoSegments(std::string_view repo);
// The reverse: "-" back to "".
std::string RepoFromSegments(std::string_view owner, std::string_view name);

std::string IndexPage(const PageContext& ctx, const CatalogSnapshot* snap,
                      const std::vector<std::vector<std::shared_ptr<const EntryDetails>>>* site_errors = nullptr);
// One page for one slug (or id): every record that has it.
std::string ErrorPage(const PageContext& ctx, const CatalogSnapshot& snap,
                      const std::vector<std::shared_ptr<const EntryDetails>>& records);
// The paste box and, when `answer` is given, its hits as cards.
std::string ExplainPage(const PageContext& ctx, const CatalogSnapshot& snap, std::string_view text,
                        const ExplainAnswer* answer);
std::string SearchPage(const PageContext& ctx, const CatalogSnapshot* snap, const SearchRequest& req,
                       const SearchAnswer* answer, std::string_view problem);
// A page that only says something (not found, still loading).
std::string MessagePage(const PageContext& ctx, std::string_view heading, std::string_view detail);

}  // namespace errdex::serve
