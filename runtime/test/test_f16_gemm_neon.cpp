// The AArch64 f16 microkernels (runtime/src/ukernels/f16_gemm_neon.cpp): every f16 tile against a
// scalar reference (double sums of the f16 inputs and the epilogue, rounded once to f16) over odd
// sizes, partial tiles and every epilogue, the residual read from the block the tile writes, the
// IEEE cases of the one rounding (ties to even, overflow to infinity, NaN), the f16 packing
// against im2col, and, where the CPU has FEAT_FHM, the FMLAL build bit for bit against the base
// build. Runs under qemu-aarch64 in the cross-built runtime's tests.
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/auxv.h>
#endif

// The FMLAL build of the tiles (f16_gemm_neon.cpp compiled with +fp16fml, its own suffix).
extern "C" {
#define MIE_UK_F16_DECLARE_FML_avx512(MR, NR)
#define MIE_UK_F16_DECLARE_FML_avx2(MR, NR)
#define MIE_UK_F16_DECLARE_FML_neon(MR, NR) MIE_UK_DECLARE_F16_GEMM_TILE(neon_fp16fml, MR, NR)
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) MIE_UK_F16_DECLARE_FML_##isa(MR, NR)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
}

namespace {

using mie_uk_test::activate;
using mie_uk_test::Epilogue;
using mie_uk_test::epilogues;
using mie_uk_test::randomVector;

using F16TileFn = void (*)(const uint16_t *, int64_t, const uint16_t *, int64_t, int64_t,
                           uint16_t *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           const uint16_t *, int64_t, const uint16_t *, int64_t, int64_t, float,
                           float);

struct F16Tile {
  std::string name;
  int mr, nr;
  F16TileFn fn, fml;
};

std::vector<F16Tile> f16Tiles() {
  std::vector<F16Tile> tiles;
#define MIE_UK_F16_TILE_avx512(MR, NR)
#define MIE_UK_F16_TILE_avx2(MR, NR)
#define MIE_UK_F16_TILE_neon(MR, NR)                                                               \
  tiles.push_back({"f16_gemm_" #MR "x" #NR "_neon", MR, NR, mie_uk_f16_gemm_##MR##x##NR##_neon,    \
                   mie_uk_f16_gemm_##MR##x##NR##_neon_fp16fml});
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) MIE_UK_F16_TILE_##isa(MR, NR)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
  return tiles;
}

uint16_t toHalf(float x) { return __builtin_bit_cast(uint16_t, _Float16(x)); }
float fromHalf(uint16_t h) { return float(__builtin_bit_cast(_Float16, h)); }

/// Rounds to f16 in place and returns the bits.
std::vector<uint16_t> toHalves(std::vector<float> &v) {
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    h[i] = toHalf(v[i]);
    v[i] = fromHalf(h[i]);
  }
  return h;
}

/// The spacing of f16 values at |x| (subnormals: 2^-24).
double ulpHalf(double x) {
  x = std::fabs(x);
  if (x < std::ldexp(1.0, -14))
    return std::ldexp(1.0, -24);
  return std::ldexp(1.0, int(std::floor(std::log2(x))) - 10);
}

/// Whether the CPU has FEAT_FHM (FMLAL); qemu-aarch64's default CPU does.
bool hasFp16Fml() {
#if defined(__linux__) && defined(HWCAP_ASIMDFHM)
  return getauxval(AT_HWCAP) & HWCAP_ASIMDFHM;
#else
  return false;
#endif
}

/// One tile call on an m x n block of a larger f16 C (a border catches stray stores) from a packed
/// [k][mr] panel and B rows ldb apart, against the double sums of the same f16 values and the
/// epilogue, rounded once to f16. The tile sums in f32, so it may differ by the f32 rounding of
/// the sum (at most (k + 4) u of the sum of magnitudes, u = 2^-24, times the activation's slope)
/// plus one f16 spacing (the two roundings of values that close may land on neighbours).
/// `residualInC`: the residual is C itself (an output written over the residual that dies there).
/// With `fml`, the FMLAL build of the tile must give the same bits.
void checkF16Tile(const F16Tile &t, int64_t k, int64_t m, int64_t n, const Epilogue &e,
                  bool residualInC, bool fml) {
  const bool transposed = e.flags & MIE_UK_TRANSPOSE_C;
  const int64_t rowsC = transposed ? n : m, colsC = transposed ? m : n;
  const int64_t ldc = colsC + 5, ldr = residualInC ? ldc : colsC + 3, border = 2;
  const int64_t ldb = t.nr + 3; // B rows read in place, a row stride wider than the tile
  std::vector<float> a = randomVector(k * t.mr, uint32_t(1 + k + m));
  for (int64_t p = 0; p < k; ++p)
    for (int64_t i = m; i < t.mr; ++i)
      a[p * t.mr + i] = 0.0f;
  std::vector<float> b = randomVector(k * ldb + t.nr, uint32_t(7 + k + n));
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = n; j < t.nr; ++j)
      b[p * ldb + j] = 0.0f;
  std::vector<float> c0 = randomVector((rowsC + 2 * border) * ldc, 11);
  std::vector<float> bias = randomVector(std::max<int64_t>(m, n), 13);
  std::vector<float> res = randomVector(rowsC * ldr, 17);
  const std::vector<uint16_t> aH = toHalves(a), bH = toHalves(b), c0H = toHalves(c0),
                              biasH = toHalves(bias), resH = toHalves(res);
  const float lo = -0.25f, hi = 0.5f;
  const int64_t cOff = border * ldc + border;
  std::vector<uint16_t> c = c0H;
  t.fn(aH.data(), 0, bH.data(), 0, ldb, c.data(), cOff, ldc, k, m, n, e.flags, biasH.data(), 0,
       residualInC ? c.data() : resH.data(), residualInC ? cOff : 0, ldr, lo, hi);
  if (fml) {
    std::vector<uint16_t> cf = c0H;
    t.fml(aH.data(), 0, bH.data(), 0, ldb, cf.data(), cOff, ldc, k, m, n, e.flags, biasH.data(), 0,
          residualInC ? cf.data() : resH.data(), residualInC ? cOff : 0, ldr, lo, hi);
    ASSERT_EQ(std::memcmp(c.data(), cf.data(), c.size() * 2), 0)
        << t.name << " " << e.name << " k=" << k << " m=" << m << " n=" << n
        << ": the FMLAL build differs from the base build";
  }
  const int act = int((e.flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
  for (int64_t i = 0; i < rowsC + 2 * border; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      const int64_t br = i - border, bq = j - border;
      const uint16_t gotBits = c[i * ldc + j];
      if (br < 0 || br >= rowsC || bq < 0 || bq >= colsC) {
        ASSERT_EQ(gotBits, c0H[i * ldc + j])
            << "store outside the block at (" << br << ", " << bq << ")";
        continue;
      }
      const int64_t bi = transposed ? bq : br, bj = transposed ? br : bq;
      double want = (e.flags & MIE_UK_ACCUMULATE) ? c0[i * ldc + j] : 0.0;
      double magnitude = std::fabs(want);
      for (int64_t p = 0; p < k; ++p) {
        const double term = double(a[p * t.mr + bi]) * b[p * ldb + bj];
        want += term;
        magnitude += std::fabs(term);
      }
      if (e.flags & MIE_UK_EPILOGUE) {
        if (e.flags & MIE_UK_BIAS) {
          want += (e.flags & MIE_UK_BIAS_PER_COL) ? bias[bj] : bias[bi];
          magnitude += 1;
        }
        if (e.flags & MIE_UK_RESIDUAL) {
          want += residualInC ? c0[i * ldc + j] : res[br * ldr + bq];
          magnitude += 1;
        }
        want = activate(want, act);
        if (e.flags & MIE_UK_CLAMP)
          want = std::min(std::max(want, double(lo)), double(hi));
      }
      const double rounded = fromHalf(toHalf(float(want)));
      const double tol = ulpHalf(rounded) + 2 * (k + 4) * std::ldexp(magnitude, -24) +
                         2e-6 * (1 + std::fabs(want));
      ASSERT_NEAR(fromHalf(gotBits), rounded, tol)
          << t.name << " " << e.name << " k=" << k << " m=" << m << " n=" << n << " at (" << bi
          << ", " << bj << ")" << (residualInC ? " residual in C" : "");
    }
}

TEST(UKernelF16Tiles, EveryTileEveryEpilogueOddSizes) {
  const bool fml = hasFp16Fml();
  for (const F16Tile &t : f16Tiles())
    for (int64_t k : {1, 7, 17, 63, 64, 65})
      for (int64_t m : {int64_t(1), int64_t(t.mr - 1), int64_t(t.mr)})
        for (int64_t n : {int64_t(1), int64_t(7 % t.nr + 1), int64_t(t.nr - 1), int64_t(t.nr)})
          for (const Epilogue &e : epilogues()) {
            checkF16Tile(t, k, m, n, e, /*residualInC=*/false, fml);
            if (HasFatalFailure())
              return;
          }
}

TEST(UKernelF16Tiles, ResidualReadFromTheBlockItWrites) {
  for (const F16Tile &t : f16Tiles())
    for (const Epilogue &e : epilogues()) {
      if (!(e.flags & MIE_UK_RESIDUAL))
        continue;
      for (int64_t m : {int64_t(t.mr - 1), int64_t(t.mr)})
        checkF16Tile(t, 33, m, t.nr, e, /*residualInC=*/true, hasFp16Fml());
      if (HasFatalFailure())
        return;
    }
}

TEST(UKernelF16Tiles, FmlalBuildMatchesBaseBuildBitForBit) {
  if (!hasFp16Fml())
    GTEST_SKIP() << "this CPU has no FEAT_FHM (FMLAL)";
  // Larger sums than the epilogue sweep: products of every magnitude, long K.
  for (const F16Tile &t : f16Tiles())
    for (int64_t k : {2, 129, 513}) {
      std::vector<float> a = randomVector(k * t.mr, uint32_t(k), -8.0f, 8.0f);
      std::vector<float> b = randomVector(k * t.nr, uint32_t(k + 1), -8.0f, 8.0f);
      const std::vector<uint16_t> aH = toHalves(a), bH = toHalves(b);
      std::vector<uint16_t> c1(t.mr * t.nr), c2(t.mr * t.nr);
      t.fn(aH.data(), 0, bH.data(), 0, t.nr, c1.data(), 0, t.nr, k, t.mr, t.nr, 0, nullptr, 0,
           nullptr, 0, 0, 0, 0);
      t.fml(aH.data(), 0, bH.data(), 0, t.nr, c2.data(), 0, t.nr, k, t.mr, t.nr, 0, nullptr, 0,
            nullptr, 0, 0, 0, 0);
      ASSERT_EQ(c1, c2) << t.name << " k=" << k;
    }
}

/// The one rounding at the store is IEEE's: ties to even, overflow to infinity, NaN stays NaN,
/// and f16 subnormals in and out.
TEST(UKernelF16Tiles, StoreRoundsOnceAsIeeeSays) {
  const F16Tile t = f16Tiles().front();
  auto run = [&](std::vector<float> aCol, std::vector<float> bRow) {
    const int64_t k = aCol.size();
    std::vector<uint16_t> a(k * t.mr, 0), b(k * t.nr, 0), c(t.mr * t.nr, 0xffff);
    for (int64_t p = 0; p < k; ++p) {
      a[p * t.mr] = toHalf(aCol[p]);
      b[p * t.nr] = toHalf(bRow[p]);
    }
    t.fn(a.data(), 0, b.data(), 0, t.nr, c.data(), 0, t.nr, k, 1, 1, 0, nullptr, 0, nullptr, 0, 0,
         0, 0);
    return c[0];
  };
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1. 1 + 3 * 2^-11: even is 1 + 2^-9.
  EXPECT_EQ(run({1.0f, 1.0f}, {1.0f, 0x1p-11f}), 0x3c00);
  EXPECT_EQ(run({1.0f, 3.0f}, {1.0f, 0x1p-11f}), 0x3c02);
  // A sum past the largest f16 (65504) in f32 is infinite in f16 (each term is finite).
  EXPECT_EQ(run({255.0f, 255.0f}, {255.0f, 255.0f}), 0x7c00);
  EXPECT_EQ(run({-255.0f, 255.0f}, {255.0f, 255.0f}), 0x0000);
  EXPECT_EQ(run({-255.0f, -255.0f}, {255.0f, 255.0f}), 0xfc00);
  // The f32 sum keeps what f16 sums would lose: 2048 + 1 - 2048 = 1 (an f16 running sum: 0).
  EXPECT_EQ(run({2048.0f, 1.0f, -2048.0f}, {1.0f, 1.0f, 1.0f}), 0x3c00);
  // Subnormals: 2^-24 (the smallest f16) times 1 stays 2^-24; 2^-14 * 2^-10 = 2^-24.
  EXPECT_EQ(run({0x1p-24f}, {1.0f}), 0x0001);
  EXPECT_EQ(run({0x1p-14f}, {0x1p-10f}), 0x0001);
  const uint16_t nan = run({std::nanf(""), 1.0f}, {1.0f, 1.0f});
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
  const uint16_t infTimesZero = run({INFINITY}, {0.0f});
  EXPECT_EQ(infTimesZero & 0x7c00, 0x7c00);
  EXPECT_NE(infTimesZero & 0x03ff, 0);
}

TEST(UKernelF16Packing, ConvNchwPanelsMatchIm2col) {
  struct Case {
    int64_t C, H, W, KH, KW, SH, SW, PH, PW, DH, DW;
  };
  for (const Case &cs :
       {Case{3, 7, 9, 3, 3, 1, 1, 1, 1, 1, 1}, Case{5, 9, 8, 3, 3, 2, 2, 1, 1, 1, 1},
        Case{4, 6, 6, 1, 1, 1, 1, 0, 0, 1, 1}, Case{2, 11, 10, 3, 3, 3, 3, 2, 1, 2, 2},
        Case{3, 8, 8, 7, 7, 2, 2, 3, 3, 1, 1}}) {
    const int64_t OH = (cs.H + 2 * cs.PH - cs.DH * (cs.KH - 1) - 1) / cs.SH + 1;
    const int64_t OW = (cs.W + 2 * cs.PW - cs.DW * (cs.KW - 1) - 1) / cs.SW + 1;
    const int64_t K = cs.C * cs.KH * cs.KW, P = OH * OW;
    std::vector<float> xf = randomVector(cs.C * cs.H * cs.W + 3, uint32_t(K + P));
    const std::vector<uint16_t> x = toHalves(xf);
    for (int64_t nr : {4, 8, 12})
      for (auto [p0, np, k0, kc] : {std::array<int64_t, 4>{0, P, 0, K},
                                    std::array<int64_t, 4>{1, P - 1 < 13 ? P - 1 : 13, 2, K - 3},
                                    std::array<int64_t, 4>{P - 1, 1, K - 1, 1}}) {
        const int64_t panels = (np + nr - 1) / nr, dstOff = 5;
        std::vector<uint16_t> dst(dstOff + panels * kc * nr, 0xdead);
        mie_uk_f16_pack_conv_nchw_neon(x.data(), 3, cs.C, cs.H, cs.W, cs.KH, cs.KW, cs.SH, cs.SW,
                                       cs.PH, cs.PW, cs.DH, cs.DW, OW, p0, np, k0, kc, nr,
                                       dst.data(), dstOff);
        for (int64_t t = 0; t < panels; ++t)
          for (int64_t kk = 0; kk < kc; ++kk)
            for (int64_t j = 0; j < nr; ++j) {
              const int64_t p = p0 + t * nr + j, kg = k0 + kk;
              uint16_t want = 0;
              if (p < p0 + np) {
                const int64_t oh = p / OW, ow = p % OW, c = kg / (cs.KH * cs.KW);
                const int64_t kh = kg / cs.KW % cs.KH, kw = kg % cs.KW;
                const int64_t ih = oh * cs.SH - cs.PH + kh * cs.DH;
                const int64_t iw = ow * cs.SW - cs.PW + kw * cs.DW;
                if (ih >= 0 && ih < cs.H && iw >= 0 && iw < cs.W)
                  want = x[3 + (c * cs.H + ih) * cs.W + iw];
              }
              ASSERT_EQ(dst[dstOff + (t * kc + kk) * nr + j], want)
                  << "nr=" << nr << " p0=" << p0 << " panel " << t << " k " << kg << " lane " << j;
            }
        ASSERT_EQ(dst[dstOff - 1], 0xdead) << "store before the panels";
      }
  }
}

TEST(UKernelF16Packing, LhsPanelsBothLayouts) {
  for (int64_t trans : {0, 1})
    for (int64_t mr : {4, 8, 12, 16})
      for (auto [mc, kc] : {std::array<int64_t, 2>{1, 1}, std::array<int64_t, 2>{7, 17},
                            std::array<int64_t, 2>{33, 65}}) {
        const int64_t m0 = 2, k0 = 3, rows = m0 + mc + 1, cols = k0 + kc + 2;
        const int64_t lda = trans ? rows + 3 : cols + 3;
        std::vector<float> af = randomVector((trans ? cols : rows) * lda, uint32_t(mc + kc));
        const std::vector<uint16_t> a = toHalves(af);
        const int64_t panels = (mc + mr - 1) / mr;
        std::vector<uint16_t> dst(panels * kc * mr, 0xdead);
        mie_uk_f16_pack_lhs_neon(a.data(), 0, lda, trans, m0, mc, k0, kc, mr, dst.data(), 0);
        for (int64_t t = 0; t < panels; ++t)
          for (int64_t kk = 0; kk < kc; ++kk)
            for (int64_t r = 0; r < mr; ++r) {
              const int64_t i = t * mr + r;
              const uint16_t want =
                  i >= mc ? 0 : (trans ? a[(k0 + kk) * lda + m0 + i] : a[(m0 + i) * lda + k0 + kk]);
              ASSERT_EQ(dst[(t * kc + kk) * mr + r], want)
                  << "trans=" << trans << " mr=" << mr << " mc=" << mc << " row " << i << " k "
                  << kk;
            }
      }
}

} // namespace
