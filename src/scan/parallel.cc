// scan/parallel.cc: see parallel.h.
#include "scan/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace errdex {

// Runs fn(i) for i in [0, n) on `jobs` threads; the calling thread calls
// tick() about every 100 ms until all are done.
void ParallelFor(size_t n, int jobs, const std::function<void(size_t)>& fn, const std::function<void()>& tick) {
  if (n == 0) return;
  int threads = std::max(1, std::min<int>(jobs, static_cast<int>(n)));
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::condition_variable cv;
  int finished = 0;
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) fn(i);
      std::lock_guard<std::mutex> lock(mu);
      ++finished;
      cv.notify_one();
    });
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    while (!cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return finished == threads; })) {
      lock.unlock();
      if (tick) tick();
      lock.lock();
    }
  }
  for (auto& th : pool) th.join();
}

}  // namespace errdex
