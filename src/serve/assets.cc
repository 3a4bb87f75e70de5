// serve/assets.cc: look-ups in the embedded asset table (assets.h).
#include "serve/assets.h"

#include <algorithm>

namespace errdex::serve {

const EmbeddedAsset* FindAsset(std::string_view path) {
  const auto& all = EmbeddedAssets();
  auto it = std::lower_bound(all.begin(), all.end(), path,
                             [](const EmbeddedAsset& a, std::string_view p) { return a.path < p; });
  return it != all.end() && it->path == path ? &*it : nullptr;
}

std::string_view AssetText(std::string_view path) {
  const EmbeddedAsset* a = FindAsset(path);
  return a ? a->bytes : std::string_view();
}

std::string_view ContentTypeOf(std::string_view path) {
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext;
  };
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".json")) return "application/json";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".txt")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace errdex::serve
