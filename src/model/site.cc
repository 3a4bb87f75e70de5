#include "model/site.h"

namespace errdex {

namespace {
constexpr const char* kNames[kSiteKindCount] = {"raise", "assert", "http", "http_response", "log", "panic"};
}

const char* SiteKindName(SiteKind kind) { return kNames[static_cast<int>(kind)]; }

std::optional<SiteKind> SiteKindFromName(const std::string& name) {
  for (int i = 0; i < kSiteKindCount; ++i)
    if (name == kNames[i]) return static_cast<SiteKind>(i);
  return std::nullopt;
}

}  // namespace errdex
