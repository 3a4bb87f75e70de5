// scan/sinks: where ScanToSinks (scanner.h) sends a scan's files -- JSON Lines
// to a stream, units and a tree to a catalog, or everything to memory (Scan()).
// Each sink is used by one scan at a time: Prepare from worker threads, Emit
// and Finish from one thread at a time (ScanSink's contract).
#pragma once

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "scan/scanner.h"
#include "store/catalog_store.h"

namespace errdex {

// JSON Lines (schema-2 lines, or with "facts") written to `out` as files complete.
class JsonlSink final : public ScanSink {
 public:
  JsonlSink(FILE* out, bool with_facts) : out_(out), with_facts_(with_facts) {}
  bool WantsKnowledge() const override { return false; }
  void Prepare(FileOutput& out) override;
  Status Emit(FileOutput& out) override;
  Status Finish(ScanResult& result, const std::string& knowledge, const std::string& knowledge_key) override;
  // The errno of a failed write (EPIPE: the reader went away), 0 when none failed.
  int write_errno() const { return write_errno_; }

 private:
  FILE* out_;
  bool with_facts_;
  int write_errno_ = 0;
};

// The scan into a catalog: new units in batches as files complete, in
// transactions committed about once a second (invisible until the end), then
// the scan's tree and knowledge, with the last of the units, in one
// transaction that replaces any scan of the same key. A scan stopped before
// Finish leaves the catalog's scans as they were.
class CatalogSink final : public ScanSink {
 public:
  // `mu` guards `store` (the scan's lookups use it too).
  CatalogSink(CatalogStore* store, std::mutex* mu) : store_(store), mu_(mu) {}
  ~CatalogSink() override;
  bool WantsRecords() const override { return false; }
  void Prepare(FileOutput& out) override;
  Status Emit(FileOutput& out) override;
  Status Finish(ScanResult& result, const std::string& knowledge, const std::string& knowledge_key) override;

 private:
  // Writes the pending units (into the open transaction, or a new one);
  // commits it when `commit_due` and it is old enough (sinks.cc).
  Status Flush(bool commit_due);
  struct Pending {
    size_t slot;
    std::shared_ptr<const Unit> unit;
    std::string payload, compressed;
  };
  CatalogStore* store_;
  std::mutex* mu_;
  std::vector<int64_t> ids_;  // the tree, in order (0: pending)
  std::vector<Pending> pending_;
  size_t pending_bytes_ = 0;
  int64_t lease_ = 0;  // taken at the first write, given back at the end
  bool open_ = false;  // a transaction of units is open (CatalogStore::BeginWrites)
  std::chrono::steady_clock::time_point opened_;
};

// Everything in memory: ScanResult::lines, jsonl_chunks (with `json`) and knowledge.
class CollectSink final : public ScanSink {
 public:
  explicit CollectSink(ScanOptions::JsonLines json) : json_(json) {}
  Status Emit(FileOutput& out) override;
  Status Finish(ScanResult& result, const std::string& knowledge, const std::string& knowledge_key) override;

 private:
  ScanOptions::JsonLines json_;
  std::vector<CatalogLine> lines_;
  std::vector<std::string> chunks_;
  std::vector<std::pair<std::string, std::string>> contexts_;  // record id -> context JSON
};

// The document stage's blob as `errdex document` reads it: `knowledge` (the
// store's form, without sites) with each record's context added in order.
std::string AssembleKnowledge(const std::string& knowledge,
                              const std::vector<std::pair<std::string, std::string>>& contexts);

}  // namespace errdex
