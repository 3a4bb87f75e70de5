// serve/site.h: `errdex site`: the pages of errdex serve written as static files,
// so a catalog can be published on any static host. No paste box (explaining
// needs the server); a search index (search-index.json) that the site's
// search.js filters in the browser; index.html lists every error, so the site
// works without JavaScript too.
//
// Layout of DIR:
//   index.html, 404.html, search-index.json, assets/{style.css,favicon.svg,search.js}
//   e/<owner>/<name>/<slug>.html   one page per slug (pages.h: SiteSegment names)
// Every internal link is relative, so DIR can be served under any path.
#pragma once

#include <string>

#include "model/status.h"
#include "serve/catalog_service.h"

namespace errdex::serve {

struct SiteOptions {
  std::string out_dir;
  std::string repo;      // only this repository; "" = all
  std::string base_url;  // absolute URL DIR is published at (canonical links); "" = none
};

struct SiteStats {
  size_t pages = 0;    // error pages
  size_t records = 0;
  size_t bytes = 0;
};

// Writes the site; files are written to temporaries and renamed into place.
Result<SiteStats> WriteSite(const CatalogSnapshot& snap, const SiteOptions& options);

}  // namespace errdex::serve
