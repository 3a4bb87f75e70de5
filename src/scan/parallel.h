// scan/parallel: ParallelFor, the scan's one way to use its worker threads.
#pragma once

#include <cstddef>
#include <functional>

namespace errdex {

// Runs fn(i) for i in [0, n) on `jobs` threads; the calling thread calls
// tick() about every 100 ms until all are done.
void ParallelFor(size_t n, int jobs, const std::function<void(size_t)>& fn, const std::function<void()>& tick);

}  // namespace errdex
