/* fma_peak.c - the machine's fp32 FMA peak on one thread: 12 independent accumulator chains of the
 * widest vector the compiler targets (-march=native), long enough to hide the FMA latency.
 * Prints "peak_gflops <value>". Built and run by benchmarks/compare_peers.py; never a test. */
#include <stdio.h>
#include <time.h>

#if defined(__AVX512F__)
#define VL 16
#define NCH 24
#elif defined(__AVX__)
#define VL 8
#define NCH 14
#else
#define VL 4
#define NCH 24
#endif
typedef float vf __attribute__((vector_size(VL * 4)));

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  vf acc[NCH], x, y;
  for (int i = 0; i < VL; ++i) { x[i] = 1.0f + 1e-7f * i; y[i] = 0.999999f; }
  for (int j = 0; j < NCH; ++j) acc[j] = x * (float)j;
  const long iters = 200000000L / VL;
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    double t0 = now();
    for (long i = 0; i < iters; ++i) {
#pragma clang loop unroll(full)
      for (int j = 0; j < NCH; ++j) acc[j] = acc[j] * y + x;
      __asm__ volatile("" : "+x"(acc[0]), "+x"(acc[1]), "+x"(acc[2]), "+x"(acc[3]), "+x"(acc[4]), "+x"(acc[5]));
    }
    double s = now() - t0, g = 2.0 * NCH * VL * iters / s / 1e9;
    if (g > best) best = g;
  }
  float sum = 0;
  for (int j = 0; j < NCH; ++j) for (int i = 0; i < VL; ++i) sum += acc[j][i];
  printf("peak_gflops %.1f\nvector_lanes %d\n(checksum %g)\n", best, VL, sum);
  return 0;
}
