// cli/progress.h: the progress line of a catalog's first open (compiling its
// matcher: 10k patterns take seconds, 100k more than a minute). Vectorscan
// compiles in one call with no progress of its own, so on a terminal a ticker
// thread shows the elapsed time; elsewhere (a pipe, CI) one line says what is
// happening and one says how long it took, and only for big catalogs.
#pragma once

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "match/pattern_db.h"

namespace errdex {

class CompileProgress {
 public:
  // tty: draw a redrawn line on stderr; otherwise plain lines (when not quiet).
  // cached: the compiled matcher is kept (a --db catalog), so only the first open pays.
  CompileProgress(bool quiet, bool cached)
      : tty_(!quiet && isatty(STDERR_FILENO)), plain_(!quiet && !tty_), cached_(cached) {}
  ~CompileProgress() { Stop(); }
  CompileProgress(const CompileProgress&) = delete;
  CompileProgress& operator=(const CompileProgress&) = delete;

  // Catalogs below this many patterns compile in about a second: no plain notice.
  static constexpr size_t kPlainNoticeMin = 2000;

  void operator()(const BuildProgress& p) {
    using Phase = BuildProgress::Phase;
    if (p.phase == Phase::kChecking) {
      if (tty_ && p.total >= kPlainNoticeMin) {
        std::fprintf(stderr, "\rerrdex: checking patterns %zu/%zu\033[K", p.done, p.total);
        std::fflush(stderr);
        drawn_ = true;
      }
    } else if (p.phase == Phase::kCompiling) {
      total_ = p.total;
      start_ = std::chrono::steady_clock::now();
      if (plain_ && total_ >= kPlainNoticeMin) {
        std::fprintf(stderr, "errdex: compiling %zu patterns into the matcher (%s)\n", total_,
                     cached_ ? "first open of this catalog version; cached for the next"
                             : "kept in memory only: a --db catalog keeps it");
        announced_ = true;
      }
      if (tty_ && !ticker_.joinable()) ticker_ = std::thread([this] { Tick(); });
    } else {
      Stop();
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      if (announced_) std::fprintf(stderr, "errdex: compiled in %.1f s\n", s);
    }
  }

 private:
  void Tick() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      auto s = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_).count();
      if (s >= 1 || total_ >= kPlainNoticeMin) {
        std::fprintf(stderr, "\rerrdex: compiling %zu patterns into the matcher (%s) %llds\033[K", total_,
                     cached_ ? "first open; cached after" : "in memory only", static_cast<long long>(s));
        std::fflush(stderr);
        drawn_ = true;
      }
      cv_.wait_for(lock, std::chrono::milliseconds(500));
    }
  }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (ticker_.joinable()) ticker_.join();
    if (drawn_) {
      std::fprintf(stderr, "\r\033[K");
      std::fflush(stderr);
      drawn_ = false;
    }
  }

  const bool tty_, plain_, cached_;
  bool announced_ = false;
  bool drawn_ = false;
  size_t total_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread ticker_;
};

}  // namespace errdex
