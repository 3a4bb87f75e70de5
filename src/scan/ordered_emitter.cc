// scan/ordered_emitter.cc: see ordered_emitter.h. Tested by
// tests/scan_e2e_test.cc (ScanDeterminism: the same bytes for any -j).
#include "scan/ordered_emitter.h"

namespace errdex {

bool OrderedEmitter::WaitTurn(size_t i) {
  std::unique_lock<std::mutex> l(mu_);
  cv_.wait(l, [&] { return i < next_ + kEmitWindow || failed_; });
  return !failed_;
}

void OrderedEmitter::Done(size_t i, std::optional<FileOutput> out) {
  std::unique_lock<std::mutex> l(mu_);
  ready_[i] = std::move(out);
  done_[i] = true;
  if (emitting_) return;
  emitting_ = true;
  while (next_ < ready_.size() && done_.count(next_)) {
    std::optional<FileOutput> o = std::move(ready_[next_]);
    ready_[next_].reset();
    done_.erase(next_);
    bool skip = failed_;  // read under the lock: Fail() writes it from other threads
    l.unlock();
    Status st = o && !skip ? emit_(*o) : Status::Ok();
    l.lock();
    if (!st.ok() && error_.ok()) {
      error_ = st;
      failed_ = true;
    }
    ++next_;
    cv_.notify_all();
  }
  emitting_ = false;
}

void OrderedEmitter::Fail(Status st) {
  std::lock_guard<std::mutex> l(mu_);
  if (error_.ok()) error_ = std::move(st);
  failed_ = true;
  cv_.notify_all();
}

bool OrderedEmitter::failed() {
  std::lock_guard<std::mutex> l(mu_);
  return failed_;
}

Status OrderedEmitter::error() {
  std::lock_guard<std::mutex> l(mu_);
  return error_;
}

}  // namespace errdex
