// Runs a loop body over [0, count) in parallel with oneTBB when the work is large enough to pay
// for it, serially otherwise.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstddef>

namespace tessera::zdnn {

// `body(begin, end)` processes rows [begin, end); `work` estimates the total elements touched.
template <class Body>
void for_rows(size_t count, size_t work, const Body& body) {
  constexpr size_t kParallelThreshold = size_t{1} << 16;
  if (work < kParallelThreshold || count < 2) {
    body(size_t{0}, count);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<size_t>(0, count),
                    [&](const tbb::blocked_range<size_t>& r) { body(r.begin(), r.end()); });
}

}  // namespace tessera::zdnn
