// catalog/explain_json.h: the JSON form of an explain hit and of a record's
// versions, one mapping shared by every surface that answers "what is this error"
// (`errdex explain --json`, POST /v1/explain, the MCP explain_error tool), so that
// they all answer the same thing. Keys are camelCase as in the record format.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "catalog/catalog.h"
#include "match/explain.h"

namespace errdex {

// "pattern", "frame" or "fuzzy".
const char* ExplainKindName(ExplainHit::Kind kind);

// One hit: its scores, input span, captures, and (when `details` is given) the
// record's class, message, place and every version it exists in.
nlohmann::json ExplainHitJson(const Catalog& catalog, const ExplainHit& hit, const EntryDetails* details);

// [{repo, sha, datasetVersion, lineNumber, githubUrl, latest}], newest first.
nlohmann::json RecordVersionsJson(const std::vector<RecordVersion>& versions);

}  // namespace errdex
