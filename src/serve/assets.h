// serve/assets.h: the files errdex serve answers with besides catalog data
// (templates, the style sheet, the OpenAPI document, the static site's search
// script), compiled into the binary from src/serve/assets/ by
// cmake/embed_assets.cmake. Nothing is ever read from disk to answer a request:
// a path either names one of these exactly or is not found.
#pragma once

#include <string_view>
#include <vector>

namespace errdex::serve {

struct EmbeddedAsset {
  std::string_view path;   // relative to src/serve/assets/, '/'-separated
  std::string_view bytes;
};

// Every embedded file, sorted by path. Defined in the generated serve_assets.cc.
const std::vector<EmbeddedAsset>& EmbeddedAssets();

// The asset named exactly `path`, or nullptr.
const EmbeddedAsset* FindAsset(std::string_view path);

// The bytes of an asset that must exist (templates): empty when it does not.
std::string_view AssetText(std::string_view path);

// Content-Type for a file name, by its extension.
std::string_view ContentTypeOf(std::string_view path);

}  // namespace errdex::serve
