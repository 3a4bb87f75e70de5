// catalog/explain_json.cc: ExplainHit -> JSON (explain_json.h). Covered by
// tests/explain_e2e_test.cc (explain --json) and tests/serve_e2e_test.cc (the same
// hits over HTTP).
#include "catalog/explain_json.h"

#include <cmath>

namespace errdex {

const char* ExplainKindName(ExplainHit::Kind kind) {
  switch (kind) {
    case ExplainHit::Kind::kPattern: return "pattern";
    case ExplainHit::Kind::kFrame: return "frame";
    case ExplainHit::Kind::kNormalized: return "normalized";
    case ExplainHit::Kind::kFuzzy: return "fuzzy";
    case ExplainHit::Kind::kClass: return "class";
  }
  return "?";
}

nlohmann::json RecordVersionsJson(const std::vector<RecordVersion>& versions) {
  using nlohmann::json;
  json vs = json::array();
  for (const RecordVersion& v : versions)
    vs.push_back({{"repo", v.repo}, {"sha", v.sha}, {"datasetVersion", v.dataset_version}, {"lineNumber", v.line},
                  {"githubUrl", v.github_url}, {"latest", v.latest}});
  return vs;
}

const char* ExplainTier(const ExplainHit& h) {
  switch (h.kind) {
    case ExplainHit::Kind::kPattern: return h.approximate ? "partial" : "exact";
    case ExplainHit::Kind::kFrame: return h.approximate ? "frame-near" : "frame";
    case ExplainHit::Kind::kNormalized: return "normalized";
    case ExplainHit::Kind::kFuzzy: return "fuzzy";
    case ExplainHit::Kind::kClass: return "class";
  }
  return "?";
}

const char* ChainRole(const ExplainHit& h) {
  if (h.chain_len <= 1 || h.chain_pos + 1 == h.chain_len) return "final";
  return h.chain_direct_cause ? "cause" : "context";
}

nlohmann::json ExplainHitJson(const Catalog& catalog, const ExplainHit& h, const EntryDetails* d) {
  using nlohmann::json;
  json data;
  data["recordId"] = catalog.record_id(h.entry);
  data["score"] = std::round(h.score * 100) / 100;
  data["exact"] = !h.approximate;
  data["approximate"] = h.approximate;
  data["matchedBy"] = ExplainKindName(h.kind);
  data["fullMessage"] = h.full;
  data["span"] = {{"begin", h.begin}, {"end", h.end}};
  json caps = json::array();
  for (const ExplainCapture& c : h.captures)
    caps.push_back({{"group", c.group}, {"begin", c.begin}, {"end", c.end}, {"text", c.text}});
  data["captures"] = caps;
  data["printedClass"] = h.printed_class.empty() ? json(nullptr) : json(h.printed_class);
  data["classAgreement"] = h.class_agreement;
  data["frameFile"] = h.frame_file;
  data["frameFunction"] = h.frame_function;
  data["frameLine"] = h.frame_line;
  data["frameCode"] = h.frame_code;
  data["tier"] = ExplainTier(h);
  // "Several sites match equally": this hit stands for all of them.
  data["equalSites"] = h.equal_entries.size() + 1;
  json also = json::array();
  const auto& entries = catalog.matcher().entries();
  for (uint32_t e : h.equal_entries) {
    const MatchEntry& me = entries[e];
    also.push_back({{"recordId", catalog.record_id(e)},
                    {"repo", catalog.repo(e).empty() ? json(nullptr) : json(catalog.repo(e))},
                    {"filePath", me.file_path},
                    {"lineNumber", me.line}});
  }
  data["alsoAt"] = also;
  data["chain"] = {{"position", h.chain_pos}, {"length", h.chain_len}, {"role", ChainRole(h)}};
  data["group"] = h.group;
  data["repo"] = catalog.repo(h.entry).empty() ? json(nullptr) : json(catalog.repo(h.entry));
  if (d) {
    const Record& r = d->record;
    data["errorClass"] = r.error_class ? json(*r.error_class) : json(nullptr);
    data["errorMessage"] = r.error_message ? json(*r.error_message) : json(nullptr);
    data["filePath"] = r.file_path;
    data["lineNumber"] = r.line_number;
    data["githubUrl"] = r.github_url ? json(*r.github_url) : json(nullptr);
    data["versions"] = RecordVersionsJson(d->versions);
    data["onlyInOlderVersions"] = d->only_in_older;
  }
  return data;
}

}  // namespace errdex
