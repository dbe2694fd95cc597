// Helpers the microkernel tests share: random inputs and which ISAs this CPU runs.
#ifndef MIE_RUNTIME_TEST_UKERNEL_TEST_UTIL_H
#define MIE_RUNTIME_TEST_UKERNEL_TEST_UTIL_H

#include "ukernels/mie_ukernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace mie_uk_test {

inline std::vector<float> randomVector(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// Whether this process may run the AMX microkernels: the CPU has AMX-BF16 (and AVX512-BF16, which
/// their packing uses), and Linux granted the tile state (asked once; the runtime asks the same way
/// when it loads a package with AMX code).
inline bool amxUsable() {
#if defined(__x86_64__) && defined(__linux__)
  static const bool ok = [] {
    if (!__builtin_cpu_supports("amx-tile") || !__builtin_cpu_supports("amx-bf16") ||
        !__builtin_cpu_supports("avx512bf16"))
      return false;
    constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
    return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
  }();
  return ok;
#else
  return false;
#endif
}

/// Whether this CPU runs the microkernels built for `isa` (avx512, avx2, amx, neon).
inline bool supported(const std::string &isa) {
#if defined(__x86_64__)
  if (isa == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
  if (isa == "avx2")
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (isa == "amx")
    return amxUsable();
  return false;
#elif defined(__aarch64__)
  return isa == "neon";
#else
  return false;
#endif
}

/// The activation of the tile epilogues (MIE_UK_ACT_*), in double precision.
inline double activate(double x, int act) {
  auto clamp = [](double v, double lo, double hi) { return std::min(std::max(v, lo), hi); };
  auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  switch (act) {
  case MIE_UK_ACT_RELU:
    return std::max(x, 0.0);
  case MIE_UK_ACT_RELU6:
    return clamp(x, 0, 6);
  case MIE_UK_ACT_SIGMOID:
    return sigmoid(x);
  case MIE_UK_ACT_HARD_SIGMOID:
    return clamp(x + 3, 0, 6) / 6;
  case MIE_UK_ACT_HARD_SWISH:
    return x * clamp(x + 3, 0, 6) / 6;
  case MIE_UK_ACT_SILU:
    return x * sigmoid(x);
  case MIE_UK_ACT_GELU:
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case MIE_UK_ACT_GELU_TANH:
    return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
  case MIE_UK_ACT_TANH:
    return std::tanh(x);
  default:
    return x;
  }
}

/// A tile epilogue the tests run: its name and the flags a tile call gets.
struct Epilogue {
  const char *name;
  int64_t flags;
};

/// Every activation after a bias, appended to `e` (the epilogue lists of the tile and depthwise
/// tests end with them).
inline void appendBiasActivations(std::vector<Epilogue> &e) {
  static const char *kActs[] = {"",           "relu", "relu6", "sigmoid",   "hard_sigmoid",
                                "hard_swish", "silu", "gelu",  "gelu_tanh", "tanh"};
  for (int act = 1; act <= MIE_UK_ACT_TANH; ++act)
    e.push_back(
        {kActs[act], MIE_UK_EPILOGUE | MIE_UK_BIAS | (int64_t(act) << MIE_UK_ACTIVATION_SHIFT)});
}

/// Every epilogue combination the tile tests run (each activation with a bias too).
inline std::vector<Epilogue> epilogues() {
  std::vector<Epilogue> e = {
      {"plain", 0},
      {"store_only", MIE_UK_EPILOGUE},
      {"bias_row", MIE_UK_EPILOGUE | MIE_UK_BIAS},
      {"bias_col", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_BIAS_PER_COL},
      {"residual", MIE_UK_EPILOGUE | MIE_UK_RESIDUAL},
      {"bias_residual_relu", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL |
                                 (MIE_UK_ACT_RELU << MIE_UK_ACTIVATION_SHIFT)},
      {"clamp", MIE_UK_EPILOGUE | MIE_UK_CLAMP},
      {"accumulate", MIE_UK_ACCUMULATE},
      {"accumulate_bias_col_silu", MIE_UK_ACCUMULATE | MIE_UK_EPILOGUE | MIE_UK_BIAS |
                                       MIE_UK_BIAS_PER_COL |
                                       (MIE_UK_ACT_SILU << MIE_UK_ACTIVATION_SHIFT)},
      {"transposed", MIE_UK_TRANSPOSE_C},
      {"transposed_bias_col_residual_relu", MIE_UK_TRANSPOSE_C | MIE_UK_EPILOGUE | MIE_UK_BIAS |
                                                MIE_UK_BIAS_PER_COL | MIE_UK_RESIDUAL |
                                                (MIE_UK_ACT_RELU << MIE_UK_ACTIVATION_SHIFT)},
      {"transposed_accumulate_clamp", MIE_UK_TRANSPOSE_C | MIE_UK_ACCUMULATE | MIE_UK_EPILOGUE |
                                          MIE_UK_CLAMP},
      // Prefetching the next panel (past the end of b here: a prefetch never faults) changes
      // nothing in C.
      {"prefetch_next_bias_relu", MIE_UK_PREFETCH_NEXT_B | MIE_UK_EPILOGUE | MIE_UK_BIAS |
                                      (MIE_UK_ACT_RELU << MIE_UK_ACTIVATION_SHIFT)},
      {"prefetch_next_accumulate", MIE_UK_PREFETCH_NEXT_B | MIE_UK_ACCUMULATE},
  };
  appendBiasActivations(e);
  return e;
}

} // namespace mie_uk_test

#endif // MIE_RUNTIME_TEST_UKERNEL_TEST_UTIL_H
