// serve/queries.h: the questions every surface of errdex serve asks (HTTP API,
// pages, MCP, the static site), answered from a CatalogSnapshot through the
// library, and their JSON forms. One place, so that the surfaces agree with each
// other and with `errdex explain --json` / `errdex show`.
//
// Thread-safety: the functions are thread-safe (snapshots and the service are).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "match/explain.h"
#include "model/status.h"
#include "serve/catalog_service.h"
#include "serve/safe_text.h"

namespace errdex::serve {

// ---------------------------------------------------------------- explain

struct ExplainRequest {
  std::string text;
  std::string repo;  // only entries of this repo; "" = all
  size_t top = 3;    // hits per error (as explain --top)
  bool fuzzy = true;
};
struct ExplainAnswer {
  std::vector<ExplainHit> hits;
  std::vector<std::shared_ptr<const EntryDetails>> details;  // per hit; nullptr when the record is gone
};
Result<ExplainAnswer> Explain(CatalogService& service, const CatalogSnapshot& snap, const ExplainRequest& req);
// The same objects as the "data" of `errdex explain --json`, one array.
nlohmann::json ExplainAnswerJson(const CatalogSnapshot& snap, const ExplainAnswer& answer);

// The printed message a hit matched, cut into plain text and captured values
// (marked), as `errdex explain` highlights them.
std::vector<TextPart> HitMessageParts(const ExplainHit& hit);

// ---------------------------------------------------------------- records

// {"record": <seed format, byte for byte>, "versions": [...], "onlyInOlderVersions": b}
std::string RecordJson(const EntryDetails& d);
nlohmann::json RecordJsonValue(const EntryDetails& d);

// A record by id. kNotFound when this version has no such record.
Result<std::shared_ptr<const EntryDetails>> RecordById(const CatalogSnapshot& snap, std::string_view id);
// Every record of a repo with this slug (slugs repeat: one message raised at
// several places), by file and line. kNotFound when there is none.
Result<std::vector<std::shared_ptr<const EntryDetails>>> RecordsOfSlug(CatalogService& service,
                                                                       const CatalogSnapshot& snap,
                                                                       std::string_view repo, std::string_view slug);
// An id, else a slug in any repo (what a person or a model types).
Result<std::vector<std::shared_ptr<const EntryDetails>>> RecordsByIdOrSlug(CatalogService& service,
                                                                           const CatalogSnapshot& snap,
                                                                           std::string_view id_or_slug);
// The other entries in the same function of the same file and repo, by line.
std::vector<uint32_t> SameFunction(const CatalogSnapshot& snap, uint32_t entry);

// ---------------------------------------------------------------- search

struct SearchRequest {
  std::string q;
  std::string repo, error_class, severity, tag;
  int limit = 20;      // 1..100
  std::string cursor;  // from a previous answer's next_cursor
};
struct SearchItem {
  std::string record_id;
  std::shared_ptr<const EntryDetails> details;
  std::vector<TextPart> snippet;  // errorMessage with the words the search matched marked
};
struct SearchAnswer {
  std::vector<SearchItem> items;
  std::string next_cursor;  // "" on the last page
};
// kInvalidArgument for a bad limit or cursor.
Result<SearchAnswer> Search(CatalogService& service, const CatalogSnapshot& snap, const SearchRequest& req);
nlohmann::json SearchAnswerJson(const SearchAnswer& answer);

// ---------------------------------------------------------------- repos

struct RepoSummary {
  std::string repo;
  std::vector<const ScanInfo*> scans;  // newest first (into the snapshot)
};
std::vector<RepoSummary> Repos(const CatalogSnapshot& snap);
nlohmann::json ReposJson(const std::vector<RepoSummary>& repos);
nlohmann::json ScanJson(const ScanInfo& s);

// JSON text for an answer: invalid UTF-8 from a hostile repo is replaced, never an error.
std::string DumpJson(const nlohmann::json& j);

}  // namespace errdex::serve
