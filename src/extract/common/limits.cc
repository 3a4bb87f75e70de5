// extract/common/limits.cc: CapSite (see limits.h). Tested by limits_test.cc.
#include "extract/common/limits.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "model/pattern.h"
#include "model/utf8.h"

namespace errdex {

namespace {

// Cuts `text` to at most `max` bytes and gives the memory back (resize keeps the
// capacity: 3,000 sites cut from 60 KB to 8 KB still held 180 MB).
void Cut(std::string& text, size_t max) {
  text.resize(Utf8CutPoint(text, max));
  text.shrink_to_fit();
}

void CapText(Site& site, const char* field, std::string& text, size_t max) {
  if (text.size() <= max) return;
  NoteTruncated(site, field, text.size());
  Cut(text, max);
}

void CapText(Site& site, const char* field, std::optional<std::string>& text, size_t max) {
  if (text) CapText(site, field, *text, max);
}

// A list of texts: each at most `max_each`, and together at most `max_total`
// bytes (items past it are dropped).
void CapList(Site& site, const char* field, std::vector<std::string>& list, size_t max_total) {
  size_t total = 0;
  for (const std::string& s : list) total += s.size();
  if (total <= max_total) return;
  NoteTruncated(site, field, total);
  size_t kept = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    if (kept + list[i].size() > max_total) {
      Cut(list[i], max_total - kept);
      list.resize(list[i].empty() ? i : i + 1);
      list.shrink_to_fit();
      break;
    }
    kept += list[i].size();
  }
}

}  // namespace

void NoteTruncated(Site& site, const char* field, uint64_t before) {
  for (const auto& t : site.truncated)
    if (t.first == field) return;
  site.truncated.emplace_back(field, before);
}

void CapSite(Site& site, const ExtractLimits& limits) {
  const size_t max = limits.max_excerpt_bytes;
  if (site.message_pattern && site.message_pattern->size() > max) {
    NoteTruncated(site, "messagePattern", site.message_pattern->size());
    site.message_pattern = std::string(PatternPrefix(*site.message_pattern, max));
  }
  CapText(site, "errorMessage", site.error_message, max);
  CapText(site, "messageExpr", site.message_expr, max);
  CapText(site, "errorClassExpr", site.error_class_expr, max);
  CapText(site, "errorClass", site.error_class, max);
  CapText(site, "errorCode", site.error_code, max);
  CapText(site, "assertCondition", site.assert_condition, max);
  CapText(site, "cause", site.cause, max);
  CapText(site, "exceptContext", site.except_context, max);
  CapText(site, "function", site.function, max);
  CapList(site, "interpolations", site.interpolations, max);
  CapList(site, "messageAlternatives", site.message_alternatives, max);
  if (site.guards.size() > limits.max_guards) {
    NoteTruncated(site, "guards", site.guards.size());
    site.guards.erase(site.guards.begin(), site.guards.end() - static_cast<std::ptrdiff_t>(limits.max_guards));
  }
  size_t longest = 0;
  for (std::string& g : site.guards) {
    if (g.size() <= limits.max_guard_bytes) continue;
    longest = std::max(longest, g.size());
    Cut(g, limits.max_guard_bytes);
  }
  if (longest > 0) NoteTruncated(site, "guardBytes", longest);
}

}  // namespace errdex
