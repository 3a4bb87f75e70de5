// store/import.h: what `errdex import` needs beyond CatalogStore -- reading seed-format
// JSON Lines into scans grouped by (record.repo, record.analyzedSha), and adding
// them to a catalog in ONE transaction so an import is all-or-nothing.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/record.h"
#include "model/status.h"
#include "store/catalog_store.h"

namespace errdex {

// One scan to write: its description and its lines, in order.
struct ScanBatch {
  ScanInfo info;
  std::vector<CatalogLine> lines;
};

// Adds every batch to its scan (CatalogStore::AddLines: by record id, never
// deleting) in one transaction: either all of them are stored or none. Returns
// the scan ids.
Result<std::vector<int64_t>> PutScans(CatalogStore& store, const std::vector<ScanBatch>& batches);

// Accumulates JSON Lines files into batches. Not thread-safe.
class JsonLinesImport {
 public:
  // default_repo/default_sha: the scan key for records whose repo/analyzedSha is
  // null; a record that names another repo/sha than a non-empty default is an error.
  JsonLinesImport(std::string default_repo, std::string default_sha)
      : default_repo_(std::move(default_repo)), default_sha_(std::move(default_sha)) {}

  // Parses `text` (the contents of file `name`): one catalog line per '\n'-ended
  // line, the last one may lack its '\n'; empty lines are skipped. On the first bad
  // line returns kParseError/kInvalidArgument "name:LINE: reason" (nothing is kept
  // from this file then; earlier files stay added).
  Status AddFile(std::string_view name, std::string_view text);

  // The scans read so far, in order of first appearance. source = "import <files>".
  std::vector<ScanBatch> TakeBatches();
  int64_t line_count() const { return line_count_; }

 private:
  std::string default_repo_;
  std::string default_sha_;
  std::vector<ScanBatch> batches_;
  std::map<std::pair<std::string, std::string>, size_t> batch_index_;
  // (batch index, record id) -> "file:line" where it was first seen.
  std::map<std::pair<size_t, std::string>, std::string> seen_ids_;
  std::vector<std::string> files_;
  int64_t line_count_ = 0;
};

}  // namespace errdex
