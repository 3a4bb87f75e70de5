// store/import.h: what `errdex import` needs beyond CatalogStore -- reading seed-format
// JSON Lines into scans grouped by (record.repo, record.analyzedSha), and adding
// them to a catalog in ONE transaction so an import is all-or-nothing.
#pragma once

#include <cstdint>
#include <functional>
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

// Checks a record's messagePattern for an importer (the CLI passes
// match/pattern_db.h's CheckPattern): kParseError rejects the line (the pattern is
// not a regular expression: the record is broken); any other error keeps the line
// and counts it as unmatchable (too generic, too long: explain finds such records
// by traceback frames and full-text search only).
using PatternCheck = std::function<Status(std::string_view pattern)>;

// Accumulates JSON Lines files into batches. Every line must be a catalog line
// errdex itself could have written: a 16-hex record id, a datasetVersion, a
// filePath, schemaVersion 2 (model/record.h kSchemaVersion), integers within int,
// no duplicate keys, a record id once per scan, and (with a PatternCheck) a
// messagePattern that is a regular expression. `errdex import` and
// `errdex explain --catalog` read with this one class, so they accept the same
// files. Not thread-safe.
class JsonLinesImport {
 public:
  // default_repo/default_sha: the scan key for records whose repo/analyzedSha is
  // null; a record that names another repo/sha than a non-empty default is an error.
  JsonLinesImport(std::string default_repo, std::string default_sha)
      : default_repo_(std::move(default_repo)), default_sha_(std::move(default_sha)) {}

  // A longer line is an error (a record errdex writes is a few KB; its texts are
  // cut at --max-excerpt-bytes): parsing it would take ~10x its size in memory.
  static constexpr size_t kMaxLineBytes = size_t{64} << 20;

  // Parses `text` (the contents of file `name`): one catalog line per '\n'-ended
  // line, the last one may lack its '\n'; empty lines are skipped. On the first bad
  // line returns kParseError/kInvalidArgument "name:LINE: reason" (nothing is kept
  // from this file then; earlier files stay added).
  Status AddFile(std::string_view name, std::string_view text);

  // Set before AddFile.
  void set_pattern_check(PatternCheck check) { pattern_check_ = std::move(check); }

  // The scans read so far, in order of first appearance. source = "import <files>".
  std::vector<ScanBatch> TakeBatches();
  int64_t line_count() const { return line_count_; }
  // Lines kept whose pattern the PatternCheck found unusable for matching, and the
  // first such "file:line: reason".
  int64_t unmatchable_patterns() const { return unmatchable_; }
  const std::string& first_unmatchable() const { return first_unmatchable_; }

 private:
  std::string default_repo_;
  std::string default_sha_;
  std::vector<ScanBatch> batches_;
  std::map<std::pair<std::string, std::string>, size_t> batch_index_;
  // (batch index, record id) -> "file:line" where it was first seen.
  std::map<std::pair<size_t, std::string>, std::string> seen_ids_;
  std::vector<std::string> files_;
  int64_t line_count_ = 0;
  PatternCheck pattern_check_;
  int64_t unmatchable_ = 0;
  std::string first_unmatchable_;
};

}  // namespace errdex
