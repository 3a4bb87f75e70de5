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

// "pattern", "frame", "normalized" or "fuzzy".
const char* ExplainKindName(ExplainHit::Kind kind);
// How sure a hit is: "exact" (a template explains the message), "partial" (a
// template matched but explains too little of it), "frame" (the raising frame is at
// the site), "frame-near" (frames point near it), "normalized" (matched once case,
// quotes, whitespace and markdown were evened out), "fuzzy" (similar words).
const char* ExplainTier(const ExplainHit& hit);
// "final" (the exception the user hit), "cause" (raise ... from) or "context"
// (raised while handling it) in a chain of exceptions.
const char* ChainRole(const ExplainHit& hit);

// One hit: its scores, input span, captures, and (when `details` is given) the
// record's class, message, place and every version it exists in.
nlohmann::json ExplainHitJson(const Catalog& catalog, const ExplainHit& hit, const EntryDetails* details);

// [{repo, sha, datasetVersion, lineNumber, githubUrl, latest}], newest first.
nlohmann::json RecordVersionsJson(const std::vector<RecordVersion>& versions);

}  // namespace errdex
