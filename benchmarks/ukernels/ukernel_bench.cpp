// ukernel_bench: GFLOP/s of every f32 GEMM tile this CPU runs, on full tiles with the panels in L1
// (k = 256), next to this machine's FMA peak measured the same way. The efficiencies in
// runtime/include/mie/mie_ukernel_tiles.def come from here. Then, where the CPU has AMX-BF16, the bf16
// AMX tile (32 x 32, panels in L1/L2) and its packing rates; on AArch64 the f16 tiles (f32 sums)
// against the f32 ones, and their FMLAL build where the CPU has FEAT_FHM. Never part of the tests.
//   build/benchmarks/ukernels/ukernel_bench [k]
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using mie_uk_test::supported;

using TileFn = void (*)(const float *, int64_t, const float *, int64_t, int64_t, float *, int64_t,
                        int64_t, int64_t, int64_t, int64_t, int64_t, const float *, int64_t,
                        const float *, int64_t, int64_t, float, float);
struct Tile {
  const char *isa;
  int mr, nr;
  double eff;
  TileFn fn;
};

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Best of 5 rates of `run(iters)` doing `flops` each iteration, in GFLOP/s.
template <typename Run> double bestRate(int64_t iters, double flops, Run &&run) {
  double rate = 0;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    run(iters);
    const double g = flops * iters / seconds(t0) / 1e9;
    rate = g > rate ? g : rate;
  }
  return rate;
}

#if defined(__x86_64__)
/// The AMX bf16 tile on full 32 x 32 blocks (f32 C, plain store), and the packing of its operands
/// from f32 (elements per ns).
void benchAmx(int64_t k) {
  const int64_t T = MIE_UK_BF16_AMX_TILE, kp = (k + T - 1) / T * T;
  std::vector<float> af(T * kp, 0.5f), bf(kp * T, 0.25f), c(T * T, 0.0f);
  std::vector<uint16_t> a(T * kp), b(kp * T);
  const double tile = bestRate(40000000 / (T * T * kp / 64 + 1), 2.0 * T * T * kp, [&](int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      mie_uk_bf16_gemm_32x32_amx(a.data(), 0, b.data(), 0, c.data(), 0, T, kp, T, T,
                                 MIE_UK_EPILOGUE, c.data(), 0, c.data(), 0, T, 0, 0);
  });
  const double packA = bestRate(200000000 / (T * kp), 1.0 * T * kp, [&](int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      mie_uk_bf16_pack_a_amx(af.data(), 0, kp, 0, 0, T, 0, kp, a.data(), 0);
  });
  const double packB = bestRate(200000000 / (T * kp), 1.0 * T * kp, [&](int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      mie_uk_bf16_pack_b_amx(bf.data(), 0, T, 0, 0, T, 0, kp, b.data(), 0);
  });
  std::printf("%-28s %8.1f   (packing from f32: A %.1f, B %.1f elements/ns)\n",
              "bf16_gemm_32x32_amx", tile, packA, packB);
}
#endif

#if defined(__aarch64__)
} // namespace
extern "C" {
#define MIE_UK_F16_BENCH_FML_avx512(MR, NR)
#define MIE_UK_F16_BENCH_FML_avx2(MR, NR)
#define MIE_UK_F16_BENCH_FML_neon(MR, NR) MIE_UK_DECLARE_F16_GEMM_TILE(neon_fp16fml, MR, NR)
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) MIE_UK_F16_BENCH_FML_##isa(MR, NR)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
}
namespace {

using F16TileFn = void (*)(const uint16_t *, int64_t, const uint16_t *, int64_t, int64_t,
                           uint16_t *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           const uint16_t *, int64_t, const uint16_t *, int64_t, int64_t, float,
                           float);

/// The f16 tiles on full tiles (f16 panels in L1, f32 sums, one rounding at the store): the base
/// build (widened in registers) and the FMLAL one, which only FEAT_FHM CPUs run.
void benchF16(int64_t k) {
  struct F16Tile {
    int mr, nr;
    F16TileFn base, fml;
  };
  const F16Tile tiles[] = {
#define MIE_UK_F16_BENCH_avx512(MR, NR)
#define MIE_UK_F16_BENCH_avx2(MR, NR)
#define MIE_UK_F16_BENCH_neon(MR, NR)                                                              \
  {MR, NR, mie_uk_f16_gemm_##MR##x##NR##_neon, mie_uk_f16_gemm_##MR##x##NR##_neon_fp16fml},
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) MIE_UK_F16_BENCH_##isa(MR, NR)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
  };
  const bool fml = getauxval(AT_HWCAP) & HWCAP_ASIMDFHM;
  std::vector<uint16_t> a(k * 32, 0x3800), b(k * 64, 0x3400), c(32 * 64, 0);
  for (const F16Tile &t : tiles) {
    auto rate = [&](F16TileFn fn) {
      return bestRate(40000000 / (t.mr * t.nr * k / 64 + 1), 2.0 * t.mr * t.nr * k, [&](int64_t n) {
        for (int64_t i = 0; i < n; ++i)
          fn(a.data(), 0, b.data(), 0, t.nr, c.data(), 0, 64, k, t.mr, t.nr, MIE_UK_EPILOGUE,
             c.data(), 0, c.data(), 0, 64, 0, 0);
      });
    };
    const std::string name = "f16_gemm_" + std::to_string(t.mr) + "x" + std::to_string(t.nr) + "_neon";
    if (fml)
      std::printf("%-28s %8.1f   (FMLAL build %.1f)\n", name.c_str(), rate(t.base), rate(t.fml));
    else
      std::printf("%-28s %8.1f   (no FEAT_FHM: FMLAL build not run)\n", name.c_str(), rate(t.base));
  }
}
#endif

} // namespace

int main(int argc, char **argv) {
  const int64_t k = argc > 1 ? std::atoll(argv[1]) : 256;
  std::vector<Tile> tiles = {
#if defined(__x86_64__)
#define MIE_UK_F32_GEMM_TILE_avx512(MR, NR, E)                                                     \
  {"avx512", MR, NR, E, mie_uk_f32_gemm_##MR##x##NR##_avx512},
#define MIE_UK_F32_GEMM_TILE_avx2(MR, NR, E)                                                       \
  {"avx2", MR, NR, E, mie_uk_f32_gemm_##MR##x##NR##_avx2},
#define MIE_UK_F32_GEMM_TILE_neon(MR, NR, E)
#else
#define MIE_UK_F32_GEMM_TILE_avx512(MR, NR, E)
#define MIE_UK_F32_GEMM_TILE_avx2(MR, NR, E)
#define MIE_UK_F32_GEMM_TILE_neon(MR, NR, E)                                                       \
  {"neon", MR, NR, E, mie_uk_f32_gemm_##MR##x##NR##_neon},
#endif
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) MIE_UK_F32_GEMM_TILE_##isa(MR, NR, eff)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
  };
  std::vector<float> a(k * 32, 0.5f), b(k * 64, 0.25f), c(32 * 64, 0.0f);
  std::printf("%-28s %8s %10s %s\n", "tile", "GFLOP/s", "best-ratio", "table efficiency");
  double best = 0;
  std::vector<double> rates;
  for (const Tile &t : tiles) {
    if (!supported(t.isa)) {
      rates.push_back(-1);
      continue;
    }
    double rate = 0;
    for (int rep = 0; rep < 5; ++rep) {
      const int64_t iters = 40000000 / (t.mr * t.nr * k / 64 + 1);
      auto t0 = std::chrono::steady_clock::now();
      for (int64_t i = 0; i < iters; ++i)
        t.fn(a.data(), 0, b.data(), 0, t.nr, c.data(), 0, 64, k, t.mr, t.nr, MIE_UK_EPILOGUE,
             c.data(), 0, c.data(), 0, 64, 0, 0);
      double g = 2.0 * t.mr * t.nr * k * iters / seconds(t0) / 1e9;
      rate = g > rate ? g : rate;
    }
    rates.push_back(rate);
    best = rate > best ? rate : best;
  }
  for (size_t i = 0; i < tiles.size(); ++i) {
    if (rates[i] < 0)
      continue;
    std::string name = "f32_gemm_" + std::to_string(tiles[i].mr) + "x" +
                       std::to_string(tiles[i].nr) + "_" + tiles[i].isa;
    std::printf("%-28s %8.1f %10.2f %.2f\n", name.c_str(), rates[i], rates[i] / best, tiles[i].eff);
  }
  std::printf("(compare with benchmarks/peak/fma_peak.c for the machine's FMA peak)\n");
#if defined(__x86_64__)
  if (supported("amx"))
    benchAmx(k);
#endif
#if defined(__aarch64__)
  benchF16(k);
#endif
  return 0;
}
