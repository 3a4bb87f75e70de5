// catalog/catalog.h: the front door of explain. Opens a catalog (a SQLite store or
// seed-format JSON Lines files), builds the Matcher from its records, and keeps the
// compiled matcher in the store as a blob keyed by the store's ContentVersion, so
// that opening an unchanged catalog deserializes instead of recompiling (Vectorscan
// takes seconds for 10k patterns; loading takes milliseconds). The blob also holds
// the compact entry table, so an open reads no record: full records are fetched per
// hit (Details).
//
// store/ and match/ do not know each other; this layer passes bytes between them.
// Thread-safety: not thread-safe (owns a store connection); the Matcher it hands
// out is immutable and may be shared by threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "match/explain.h"
#include "match/pattern_db.h"
#include "model/record.h"
#include "model/status.h"
#include "store/catalog_store.h"

namespace errdex {

struct CatalogOptions {
  MatcherOptions matcher;
  bool use_cache = true;    // read/write the compiled matcher blob in the store
  bool read_only = false;   // never write the blob (e.g. a catalog on a read-only disk)
};

// One version (scan) of a record.
struct RecordVersion {
  std::string repo;
  std::string sha;
  std::string dataset_version;
  int line = 0;
  std::string github_url;
  bool latest = false;  // this scan is the newest stored scan of its repo
};

struct EntryDetails {
  Record record;                        // from the newest version that has it
  std::vector<RecordVersion> versions;  // newest first
  bool only_in_older = false;           // absent from the newest scan of its repo
};

// A pattern left out of the matcher, and the records that use it.
struct RejectedEntry {
  std::string pattern;
  std::vector<std::string> record_ids;
  Status why;
};

struct CatalogOpenInfo {
  bool from_cache = false;  // matcher deserialized from the store
  double millis = 0;        // time to open, build or load the matcher
  size_t entries = 0;
  size_t patterns = 0;      // distinct message patterns
  size_t compiled = 0;      // patterns in the Vectorscan database
};

class Catalog {
 public:
  // A catalog database (errdex scan/import). kNotFound when the file does not exist.
  static Result<std::unique_ptr<Catalog>> OpenStore(const std::string& path, const CatalogOptions& options);
  // Seed-format JSON Lines files, compiled in memory (nothing cached).
  static Result<std::unique_ptr<Catalog>> FromJsonLines(const std::vector<std::string>& paths,
                                                       const CatalogOptions& options);
  ~Catalog();
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  const Matcher& matcher() const { return *matcher_; }
  std::string_view record_id(uint32_t entry) const { return ids_[entry]; }
  std::string_view repo(uint32_t entry) const { return repos_[entry]; }
  Result<EntryDetails> Details(uint32_t entry);
  // Candidates for the fuzzy fallback (FTS5 bm25 when backed by a store; nullptr
  // otherwise, and match/ compares against every entry).
  FuzzySearch Fuzzy();
  // The same over `store`, another connection to this catalog's store, so that
  // threads sharing this catalog need not share its connection (errdex serve).
  // REQUIRES: store outlives the returned function; it is this catalog's store.
  FuzzySearch Fuzzy(CatalogStore& store) const;
  const std::vector<RejectedEntry>& rejected() const { return rejected_; }
  const CatalogOpenInfo& open_info() const { return info_; }

 private:
  Catalog() = default;
  // Builds entries and patterns from lines (any order); versions for JSONL mode.
  Status BuildFromLines(const std::vector<StoredLine>& lines, const std::vector<ScanInfo>& scans);
  Status Compile(const MatcherOptions& options);
  std::string SerializeBlob(const std::string& version, const std::string& db_bytes) const;
  Status LoadBlob(std::shared_ptr<const std::string> blob, const std::string& version, const MatcherOptions& options);
  void CollectRejected();
  // The entry of a record id, or -1: a binary search, since entries are in id order
  // (a hash map of 100k ids cost more at open than every lookup after it).
  int64_t EntryOfId(std::string_view id) const;

  std::unique_ptr<CatalogStore> store_;
  std::unique_ptr<Matcher> matcher_;
  std::vector<MatchEntry> entries_;  // until matcher_ owns them
  std::vector<std::string> patterns_;
  // The bytes that entries_, ids_ and repos_ view: the cached matcher blob, or the
  // strings BuildFromLines kept. Shared with the Matcher.
  std::shared_ptr<const void> storage_;
  std::vector<std::string_view> ids_;  // sorted: entry i is the i-th record id (see EntryOfId)
  std::vector<std::string_view> repos_;
  std::vector<RejectedEntry> rejected_;
  CatalogOpenInfo info_;
  // JSON Lines mode: every version of every record in memory.
  std::unordered_map<std::string, std::vector<StoredLine>> lines_of_id_;
  std::vector<ScanInfo> scans_;
  bool scans_loaded_ = false;
};

// The function around a record's line, read from its sourceCode excerpt
// ("" when the excerpt does not show it, "<module>" at top level). Exposed for tests.
std::string EnclosingFunction(const Record& r);

}  // namespace errdex
