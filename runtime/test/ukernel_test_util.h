// Helpers the microkernel tests share: random inputs and which ISAs this CPU runs.
#ifndef MIE_RUNTIME_TEST_UKERNEL_TEST_UTIL_H
#define MIE_RUNTIME_TEST_UKERNEL_TEST_UTIL_H

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace mie_uk_test {

inline std::vector<float> randomVector(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// Whether this CPU runs the microkernels built for `isa` (avx512, avx2, neon).
inline bool supported(const std::string &isa) {
#if defined(__x86_64__)
  if (isa == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
  if (isa == "avx2")
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return false;
#elif defined(__aarch64__)
  return isa == "neon";
#else
  return false;
#endif
}

} // namespace mie_uk_test

#endif // MIE_RUNTIME_TEST_UKERNEL_TEST_UTIL_H
