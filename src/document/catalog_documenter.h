// document/catalog_documenter: (re)fills the prose fields of records already in
// a catalog -- what `errdex document` runs. For each stored line: the site's facts
// (stored with the line; rebuilt from the record when absent), the repository
// knowledge blob (KnowledgeBlobKey) the scanner stored, and the SiteContext
// the scan gathered for it (kept in that blob) -- so the result equals the
// scan's own; without a stored context, the one the sourceCode window gives
// (placed at its real line numbers). Then DocumentRecord, the optional
// language-model pass, and UpdateRecords.
//
// Thread-safety: uses `store` from several threads only through a mutex (the LLM
// cache); otherwise from the calling thread.
#pragma once

#include <optional>
#include <string>

#include "document/llm.h"
#include "model/status.h"
#include "store/catalog_store.h"

namespace errdex {

struct DocumentCatalogOptions {
  std::string repo;               // "" = every repository
  std::string sha;                // "" = every commit
  int jobs = 2;                   // documenting threads
  std::optional<LlmOptions> llm;  // the language-model pass, when set
};

struct DocumentCatalogStats {
  int scans = 0;            // scans touched
  int records = 0;          // records documented
  int with_knowledge = 0;   // records whose scan had a knowledge blob
  int with_context = 0;     // records documented from the context the scan stored (else: from the window)
  int without_facts = 0;    // records documented from the record alone (no stored facts)
  bool llm_used = false;
  LlmStats llm;
};

// kNotFound when nothing matches the filter.
Result<DocumentCatalogStats> DocumentCatalog(CatalogStore& store, const DocumentCatalogOptions& options);

// An LlmCache over CatalogStore::GetCache/PutCache, serialized by a mutex.
class StoreLlmCache final : public LlmCache {
 public:
  explicit StoreLlmCache(CatalogStore* store) : store_(store) {}
  std::optional<std::string> Get(const std::string& key) override;
  void Put(const std::string& key, const std::string& value) override;

 private:
  std::mutex mu_;
  CatalogStore* store_;
};

// The Site behind a record when its facts were not stored: kind from errorType,
// class, message, file and line; no guards.
Site SiteFromRecord(const Record& r);

}  // namespace errdex
