// fuzz/limits_check.h: the extraction limits as a property: every site a front
// end returns is already within ExtractLimits (limits.h), so CapSite changes
// nothing, and its lines are inside the file.
#pragma once

#include <algorithm>

#include "extract/common/limits.h"
#include "fuzz/fuzz_util.h"
#include "model/site.h"

namespace errdex::fuzz {

// Small limits for one input in four (the first byte decides), so the cutting
// paths run as often as the ordinary ones.
inline ExtractLimits LimitsFor(uint8_t selector) {
  ExtractLimits l;
  if ((selector & 3) == 3) {
    l.max_sites = 3;
    l.max_excerpt_bytes = 64;
    l.max_guards = 2;
    l.max_guard_bytes = 16;
  }
  return l;
}

inline void CheckSites(const std::vector<Site>& sites, const ExtractLimits& limits, size_t lines_in_file) {
  Check(sites.size() <= limits.max_sites, "no more sites than max_sites");
  for (const Site& s : sites) {
    Site capped = s;
    CapSite(capped, limits);
    Check(capped.error_message == s.error_message && capped.message_pattern == s.message_pattern &&
              capped.guards == s.guards && capped.function == s.function &&
              capped.interpolations == s.interpolations,
          "a front end's site is already within the limits");
    Check(s.line >= 1 && static_cast<size_t>(s.line) <= std::max<size_t>(lines_in_file, 1), "site line inside the file");
  }
}

inline size_t CountLines(std::string_view text) {
  size_t n = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') ++n;
    else if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) ++n;
  }
  return n;
}

}  // namespace errdex::fuzz
