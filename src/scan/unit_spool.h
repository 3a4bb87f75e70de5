// scan/unit_spool: parsed files waiting between the scan's two passes (read +
// extract, then document once the whole repository's knowledge is built) -- in
// memory up to a budget, past it compressed in an unlinked temporary file, so
// what a scan holds does not grow with the tree (ScanOptions::resident_bytes).
// Apart from pipeline.cc because it is a container with its own rules; the
// pipeline only Puts and Takes.
//
// Thread-safe: Put and Take from any thread.
#pragma once

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "model/status.h"
#include "store/unit.h"

namespace errdex {

class UnitSpool {
 public:
  explicit UnitSpool(size_t budget) : budget_(budget) {}
  ~UnitSpool();
  // Keeps `unit` for `index`; `bytes` is what it holds in memory (an estimate).
  Status Put(size_t index, std::shared_ptr<Unit> unit, size_t bytes);
  // Gives back, once, what Put kept for `index`.
  Result<std::shared_ptr<Unit>> Take(size_t index);

 private:
  struct Held {
    std::shared_ptr<Unit> unit;
    size_t bytes;
  };
  struct Spilled {
    long offset;
    size_t size, raw_size;
    std::string key, repo, path, knowledge;
  };
  size_t budget_;
  std::atomic<size_t> resident_{0};
  std::mutex mu_;
  std::unordered_map<size_t, Held> memory_;
  std::unordered_map<size_t, Spilled> on_disk_;
  FILE* file_ = nullptr;
};

}  // namespace errdex
