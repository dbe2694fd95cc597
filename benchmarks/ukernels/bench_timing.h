//===- bench_timing.h - best-of-batches timing for the kernel benches ------===//
//
// Shared by the microkernel benches: one warm call sizes a batch of about 20 ms, and the best of
// 7 batches is the figure (the minimum is the least disturbed by the other jobs on a shared
// machine).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_BENCHMARKS_UKERNELS_BENCH_TIMING_H
#define MIE_BENCHMARKS_UKERNELS_BENCH_TIMING_H

#include <chrono>
#include <cstdint>

/// The best of 7 batches, in microseconds per call; a batch runs about 20 ms.
template <typename Run>
double bestMicros(Run &&run) {
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  run();
  const double once = std::chrono::duration<double>(clock::now() - t0).count();
  const int64_t iters = once > 0.02 ? 1 : int64_t(0.02 / (once + 1e-9)) + 1;
  double best = 1e30;
  for (int rep = 0; rep < 7; ++rep) {
    t0 = clock::now();
    for (int64_t i = 0; i < iters; ++i)
      run();
    const double us = std::chrono::duration<double>(clock::now() - t0).count() * 1e6 / iters;
    best = us < best ? us : best;
  }
  return best;
}

#endif // MIE_BENCHMARKS_UKERNELS_BENCH_TIMING_H
