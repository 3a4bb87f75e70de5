// scan/ordered_emitter: hands a scan's files to its sinks in path order while
// the second pass finishes them in any order, letting workers run at most a
// window ahead of the next file to emit -- so a scan streams its output and
// what waits is bounded, whatever the tree. Apart from pipeline.cc because it
// is the scan's one ordering point, with its own locking.
//
// Thread-safe: WaitTurn, Done and Fail from any thread; `emit` runs on the
// thread whose Done completes the run of files before it, one call at a time.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <unordered_map>
#include <vector>

#include "model/status.h"
#include "scan/scanner.h"

namespace errdex {

// Files handed out ahead of the one being emitted, at most (bounds what waits).
constexpr size_t kEmitWindow = 256;

class OrderedEmitter {
 public:
  OrderedEmitter(size_t n, std::function<Status(FileOutput&)> emit) : ready_(n), emit_(std::move(emit)) {}
  // Blocks until file `i` may be worked on; false once emitting failed.
  bool WaitTurn(size_t i);
  // File `i` is finished (nullopt: it failed or was skipped); emits every file
  // now ready in order, unless another thread is emitting already.
  void Done(size_t i, std::optional<FileOutput> out);
  // Stops the scan: later emits are skipped and error() is `st` (the first one).
  void Fail(Status st);
  bool failed();
  Status error();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::optional<FileOutput>> ready_;
  std::unordered_map<size_t, bool> done_;
  size_t next_ = 0;
  bool emitting_ = false;
  bool failed_ = false;
  Status error_;
  std::function<Status(FileOutput&)> emit_;
};

}  // namespace errdex
