// Microkernel tests: every f32 GEMM tile of every ISA this machine runs, and the packing routines,
// against scalar references over odd sizes (1, 7, 17, tile +- 1, ...) and every epilogue.
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <random>
#include <string>
#include <vector>

namespace {

using mie_uk_test::activate;
using mie_uk_test::Epilogue;
using mie_uk_test::epilogues;
using mie_uk_test::randomVector;
using mie_uk_test::supported;

using TileFn = void (*)(const float *, int64_t, const float *, int64_t, int64_t, float *, int64_t,
                        int64_t, int64_t, int64_t, int64_t, int64_t, const float *, int64_t,
                        const float *, int64_t, int64_t, float, float);
using PackConvFn = void (*)(const float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                            int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                            int64_t, int64_t, int64_t, int64_t, float *, int64_t);
using PackLhsFn = void (*)(const float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, int64_t, float *, int64_t);

using ConvDirectFn = void (*)(const float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                              int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                              int64_t, int64_t, const float *, int64_t, int64_t, int64_t, float *,
                              int64_t, int64_t, const float *, int64_t, const float *, int64_t,
                              float, float, float *);

struct Tile {
  std::string name;
  std::string isa;
  int mr, nr;
  TileFn fn;
  ConvDirectFn direct; // the direct convolution on this tile
};

using DwConvFn = void (*)(const float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                          int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                          const float *, int64_t, int64_t, int64_t, float *, int64_t, int64_t,
                          const float *, int64_t, const float *, int64_t, float, float, float *);

using WinogradInFn = void (*)(const float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                              int64_t, int64_t, int64_t, int64_t, float *, int64_t, float *);
using WinogradOutFn = void (*)(const float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                               int64_t, int64_t, float *, int64_t, int64_t, const float *, int64_t,
                               const float *, int64_t, float, float);

struct Isa {
  std::string name;
  PackConvFn packConv;
  PackLhsFn packLhs;
  DwConvFn dwconv;
  WinogradInFn winogradIn;
  WinogradOutFn winogradOut;
  WinogradInFn winograd4In;
  WinogradOutFn winograd4Out;
};


std::vector<Tile> allTiles() {
  std::vector<Tile> tiles;
#if defined(__x86_64__)
#define MIE_UK_F32_GEMM_TILE_avx512(MR, NR)                                                        \
  tiles.push_back({"f32_gemm_" #MR "x" #NR "_avx512", "avx512", MR, NR,                            \
                   mie_uk_f32_gemm_##MR##x##NR##_avx512,                                           \
                   mie_uk_f32_conv_direct_nchw_##MR##x##NR##_avx512});
#define MIE_UK_F32_GEMM_TILE_avx2(MR, NR)                                                          \
  tiles.push_back({"f32_gemm_" #MR "x" #NR "_avx2", "avx2", MR, NR,                                \
                   mie_uk_f32_gemm_##MR##x##NR##_avx2,                                             \
                   mie_uk_f32_conv_direct_nchw_##MR##x##NR##_avx2});
#define MIE_UK_F32_GEMM_TILE_neon(MR, NR)
#else
#define MIE_UK_F32_GEMM_TILE_avx512(MR, NR)
#define MIE_UK_F32_GEMM_TILE_avx2(MR, NR)
#define MIE_UK_F32_GEMM_TILE_neon(MR, NR)                                                          \
  tiles.push_back({"f32_gemm_" #MR "x" #NR "_neon", "neon", MR, NR,                                \
                   mie_uk_f32_gemm_##MR##x##NR##_neon,                                             \
                   mie_uk_f32_conv_direct_nchw_##MR##x##NR##_neon});
#endif
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) MIE_UK_F32_GEMM_TILE_##isa(MR, NR)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
  return tiles;
}

std::vector<Isa> allIsas() {
#if defined(__x86_64__)
  return {{"avx512", mie_uk_f32_pack_conv_nchw_avx512, mie_uk_f32_pack_lhs_avx512,
           mie_uk_f32_dwconv_nchw_avx512, mie_uk_f32_winograd_input_2x2_3x3_avx512,
           mie_uk_f32_winograd_output_2x2_3x3_avx512, mie_uk_f32_winograd_input_4x4_3x3_avx512,
           mie_uk_f32_winograd_output_4x4_3x3_avx512},
          {"avx2", mie_uk_f32_pack_conv_nchw_avx2, mie_uk_f32_pack_lhs_avx2,
           mie_uk_f32_dwconv_nchw_avx2, mie_uk_f32_winograd_input_2x2_3x3_avx2,
           mie_uk_f32_winograd_output_2x2_3x3_avx2, mie_uk_f32_winograd_input_4x4_3x3_avx2,
           mie_uk_f32_winograd_output_4x4_3x3_avx2}};
#else
  return {{"neon", mie_uk_f32_pack_conv_nchw_neon, mie_uk_f32_pack_lhs_neon,
           mie_uk_f32_dwconv_nchw_neon, mie_uk_f32_winograd_input_2x2_3x3_neon,
           mie_uk_f32_winograd_output_2x2_3x3_neon, mie_uk_f32_winograd_input_4x4_3x3_neon,
           mie_uk_f32_winograd_output_4x4_3x3_neon}};
#endif
}


/// Runs one tile call on an m x n block (embedded with a border in a larger C to catch stray
/// stores) and compares against a double-precision reference. With MIE_UK_TRANSPOSE_C, C and the
/// residual hold the block transposed (n rows of m). `residualInC`: the residual is the block of C
/// itself (an output planned over a residual that dies at the kernel: `mie.in_place_input`).
void checkTile(const Tile &t, int64_t k, int64_t m, int64_t n, const Epilogue &e,
               bool residualInC = false) {
  const bool transposed = e.flags & MIE_UK_TRANSPOSE_C;
  const int64_t rowsC = transposed ? n : m, colsC = transposed ? m : n;
  const int64_t ldc = colsC + 5, ldr = residualInC ? ldc : colsC + 3, border = 2;
  std::vector<float> a = randomVector(k * t.mr, 1 + k + m); // [k][mr], zero past m
  for (int64_t p = 0; p < k; ++p)
    for (int64_t i = m; i < t.mr; ++i)
      a[p * t.mr + i] = 0.0f;
  std::vector<float> b = randomVector(k * t.nr, 7 + k + n); // [k][nr], zero past n
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = n; j < t.nr; ++j)
      b[p * t.nr + j] = 0.0f;
  std::vector<float> c0 = randomVector((rowsC + 2 * border) * ldc, 11);
  std::vector<float> c = c0;
  std::vector<float> bias = randomVector(std::max<int64_t>(m, n), 13);
  std::vector<float> res = randomVector(rowsC * ldr, 17);
  const float lo = -0.25f, hi = 0.5f;
  float *cBlock = c.data() + border * ldc + border;
  const int64_t cOff = border * ldc + border;
  t.fn(a.data(), 0, b.data(), 0, t.nr, c.data(), cOff, ldc, k, m, n, e.flags, bias.data(), 0,
       residualInC ? c.data() : res.data(), residualInC ? cOff : 0, ldr, lo, hi);
  (void)cBlock;
  const int act = int((e.flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
  for (int64_t i = 0; i < rowsC + 2 * border; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      const int64_t br = i - border, bq = j - border; // position in the stored block
      const float got = c[i * ldc + j];
      if (br < 0 || br >= rowsC || bq < 0 || bq >= colsC) {
        ASSERT_EQ(got, c0[i * ldc + j])
            << "store outside the block at (" << br << ", " << bq << ")";
        continue;
      }
      const int64_t bi = transposed ? bq : br, bj = transposed ? br : bq; // product element
      double want = (e.flags & MIE_UK_ACCUMULATE) ? c0[i * ldc + j] : 0.0;
      for (int64_t p = 0; p < k; ++p)
        want += double(a[p * t.mr + bi]) * b[p * t.nr + bj];
      if (e.flags & MIE_UK_EPILOGUE) {
        if (e.flags & MIE_UK_BIAS)
          want += (e.flags & MIE_UK_BIAS_PER_COL) ? bias[bj] : bias[bi];
        if (e.flags & MIE_UK_RESIDUAL)
          want += residualInC ? c0[i * ldc + j] : res[br * ldr + bq];
        want = activate(want, act);
        if (e.flags & MIE_UK_CLAMP)
          want = std::min(std::max(want, double(lo)), double(hi));
      }
      ASSERT_NEAR(got, want, 2e-5 * (1 + std::fabs(want)) + 1e-6 * k)
          << t.name << " " << e.name << " k=" << k << " m=" << m << " n=" << n << " at (" << bi
          << ", " << bj << ")";
    }
}

/// checkTile on every tile this CPU runs, for reductions `ks`, every row count of the tile (a
/// partial tile runs exactly its rows: one code path per count) and odd column counts (1, 7,
/// NR - 1, NR), and every epilogue `use` accepts.
/// Runs `check(tile)` on every tile this CPU runs (the test is skipped where it runs none).
template <typename Check> void forEachRunnableTile(Check &&check) {
  int tested = 0;
  for (const Tile &t : allTiles()) {
    if (!supported(t.isa))
      continue;
    ++tested;
    SCOPED_TRACE(t.name);
    check(t);
  }
  if (!tested)
    GTEST_SKIP() << "no microkernel ISA of this build runs on this CPU";
}

void checkEveryTile(std::initializer_list<int64_t> ks, bool (*use)(const Epilogue &),
                    bool residualInC) {
  forEachRunnableTile([&](const Tile &t) {
    for (int64_t k : ks)
      for (int m = 1; m <= t.mr; ++m)
        for (int64_t n : {1, 7, t.nr - 1, t.nr}) {
          if (m < 1 || m > t.mr || n < 1 || n > t.nr)
            continue;
          for (const Epilogue &e : epilogues())
            if (use(e))
              checkTile(t, k, m, n, e, residualInC);
        }
  });
}

TEST(UKernelTiles, EveryTileEveryEpilogueOddSizes) {
  checkEveryTile({1, 7, 17, 63, 64, 65}, [](const Epilogue &) { return true; }, false);
}

TEST(UKernelTiles, RowResultsDoNotDependOnTheRowsBesideThem) {
  // A row's sums run in one order whatever the tile's row count: a request's outputs are the same
  // bits alone and in a batch (batch slices, servers batching requests), and a run's last partial
  // tile matches its full ones. Row i of an m-row call must equal row i of the full tile.
  forEachRunnableTile([](const Tile &t) {
    for (int64_t k : {17, 256})
      for (int64_t n : {t.nr, t.nr - 1})
        for (int64_t flags :
             {int64_t(0), int64_t(MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_BIAS_PER_COL),
              int64_t(MIE_UK_TRANSPOSE_C)}) {
          const bool transposed = flags & MIE_UK_TRANSPOSE_C;
          const int64_t ld = transposed ? t.mr : n;
          std::vector<float> a = randomVector(k * t.mr, 3), b = randomVector(k * t.nr, 5);
          std::vector<float> bias = randomVector(t.nr, 7), full(t.mr * t.nr, 0.0f);
          t.fn(a.data(), 0, b.data(), 0, t.nr, full.data(), 0, ld, k, t.mr, n, flags, bias.data(),
               0, nullptr, 0, 0, 0, 0);
          for (int64_t m = 1; m < t.mr; ++m) {
            // The first m rows of the same panel (the rows past m are never read).
            std::vector<float> c(t.mr * t.nr, 0.0f);
            t.fn(a.data(), 0, b.data(), 0, t.nr, c.data(), 0, ld, k, m, n, flags, bias.data(), 0,
                 nullptr, 0, 0, 0, 0);
            for (int64_t i = 0; i < m; ++i)
              for (int64_t j = 0; j < n; ++j) {
                const int64_t at = transposed ? j * ld + i : i * ld + j;
                ASSERT_EQ(c[at], full[at]) << "k=" << k << " m=" << m << " n=" << n
                                           << " flags=" << flags << " at (" << i << ", " << j
                                           << ")";
              }
          }
        }
  });
}

TEST(UKernelTiles, ReductionsAcrossSumChunks) {
  // K past one chunk of kTileSumChunk (256) and a partial last chunk: every epilogue, including
  // accumulation onto C and a residual read from the block the tile writes.
  checkEveryTile({256, 257, 600}, [](const Epilogue &) { return true; }, false);
  checkEveryTile(
      {513}, [](const Epilogue &e) { return (e.flags & MIE_UK_RESIDUAL) != 0; }, true);
}

TEST(UKernelTiles, LongReductionsLoseFewerDigitsThanOneSequentialSum) {
  // A classifier's K = 2048 of positive products: one sequential f32 sum grows to ~200 and rounds
  // every step at that magnitude (resnet50's logits 4e-4 from onnxruntime); the tiles sum in
  // chunks from zero. Their RMS error against a double reference must be well under that of one
  // sequential fused multiply-add chain in the same order.
  const int64_t k = 2048;
  forEachRunnableTile([&](const Tile &t) {
    std::vector<float> a = randomVector(k * t.mr, 23), b = randomVector(k * t.nr, 29);
    for (float &x : a)
      x = std::fabs(x);
    for (float &x : b)
      x = 0.2f * std::fabs(x);
    std::vector<float> c(t.mr * t.nr, 0.0f);
    t.fn(a.data(), 0, b.data(), 0, t.nr, c.data(), 0, t.nr, k, t.mr, t.nr, 0, nullptr, 0,
         nullptr, 0, 0, 0, 0);
    double tileErr = 0, sequentialErr = 0;
    for (int64_t i = 0; i < t.mr; ++i)
      for (int64_t j = 0; j < t.nr; ++j) {
        double want = 0;
        float sequential = 0;
        for (int64_t p = 0; p < k; ++p) {
          want += double(a[p * t.mr + i]) * b[p * t.nr + j];
          sequential = std::fma(a[p * t.mr + i], b[p * t.nr + j], sequential);
        }
        tileErr += (c[i * t.nr + j] - want) * (c[i * t.nr + j] - want);
        sequentialErr += (sequential - want) * (sequential - want);
      }
    EXPECT_LT(tileErr, 0.25 * sequentialErr)
        << "RMS " << std::sqrt(tileErr / (t.mr * t.nr)) << " against one sequential sum's "
        << std::sqrt(sequentialErr / (t.mr * t.nr));
  });
}

TEST(UKernelTiles, ResidualReadFromTheBlockItWrites) {
  checkEveryTile(
      {1, 17, 64},
      [](const Epilogue &e) {
        return (e.flags & MIE_UK_RESIDUAL) && !(e.flags & MIE_UK_ACCUMULATE);
      },
      /*residualInC=*/true);
}

TEST(UKernelTiles, ActivationsOverWideRange) {
  // Large |x| drives exp/tanh/erf into their clamped ranges: no NaN or Inf may come out.
  for (const Tile &t : allTiles()) {
    if (!supported(t.isa))
      continue;
    std::vector<float> a(t.mr, 1.0f), b(t.nr), c(t.mr * t.nr), bias(t.mr, 0.0f);
    for (int j = 0; j < t.nr; ++j)
      b[j] = -120.0f + 240.0f * j / (t.nr - 1);
    for (int act = 1; act <= MIE_UK_ACT_TANH; ++act) {
      int64_t flags = MIE_UK_EPILOGUE | (int64_t(act) << MIE_UK_ACTIVATION_SHIFT);
      t.fn(a.data(), 0, b.data(), 0, t.nr, c.data(), 0, t.nr, 1, t.mr, t.nr, flags, bias.data(), 0,
           c.data(), 0, t.nr, 0, 0);
      for (int j = 0; j < t.nr; ++j) {
        double want = activate(b[j], act);
        ASSERT_TRUE(std::isfinite(c[j])) << t.name << " act " << act << " x=" << b[j];
        ASSERT_NEAR(c[j], want, 1e-5 * (1 + std::fabs(want)))
            << t.name << " act " << act << " x=" << b[j];
      }
    }
  }
}

struct ConvCase {
  int64_t c, h, w, kh, kw, sh, sw, ph, pw, dh, dw;
};

TEST(UKernelPacking, ConvNchwPanelsMatchIm2col) {
  const ConvCase cases[] = {
      {3, 7, 9, 3, 3, 1, 1, 1, 1, 1, 1},   {4, 8, 8, 1, 1, 1, 1, 0, 0, 1, 1},
      {2, 9, 7, 3, 3, 2, 2, 1, 1, 1, 1},   {3, 11, 10, 7, 7, 2, 2, 3, 3, 1, 1},
      {2, 10, 10, 3, 3, 1, 1, 2, 2, 2, 2}, {5, 5, 6, 1, 1, 2, 2, 0, 0, 1, 1},
      {1, 4, 17, 3, 5, 1, 3, 0, 2, 1, 1},
      // Rows wide enough for whole vectors and an overlapping last one: stride 1 and 2, odd
      // widths whose last vector must not read past the row, 1x1 stride 2.
      {2, 4, 33, 3, 3, 1, 1, 1, 1, 1, 1},  {2, 6, 56, 3, 3, 2, 2, 1, 1, 1, 1},
      {2, 4, 35, 3, 3, 2, 2, 0, 0, 1, 1},  {3, 5, 40, 1, 1, 2, 2, 0, 0, 1, 1},
      {1, 5, 66, 3, 3, 2, 2, 1, 1, 1, 1},
  };
  for (const Isa &isa : allIsas()) {
    if (!supported(isa.name))
      continue;
    for (const ConvCase &cc : cases) {
      const int64_t oh = (cc.h + 2 * cc.ph - cc.dh * (cc.kh - 1) - 1) / cc.sh + 1;
      const int64_t ow = (cc.w + 2 * cc.pw - cc.dw * (cc.kw - 1) - 1) / cc.sw + 1;
      const int64_t p = oh * ow, k = cc.c * cc.kh * cc.kw;
      std::vector<float> x = randomVector(cc.c * cc.h * cc.w + 3, 5);
      auto im2col = [&](int64_t kk, int64_t pix) -> float {
        int64_t ch = kk / (cc.kh * cc.kw), r = kk % (cc.kh * cc.kw), i = r / cc.kw, j = r % cc.kw;
        int64_t y = pix / ow, xx = pix % ow;
        int64_t ih = y * cc.sh - cc.ph + i * cc.dh, iw = xx * cc.sw - cc.pw + j * cc.dw;
        if (ih < 0 || ih >= cc.h || iw < 0 || iw >= cc.w)
          return 0.0f;
        return x[3 + (ch * cc.h + ih) * cc.w + iw];
      };
      for (int64_t nr : {4, 8, 16, 32, 48})
        for (int64_t p0 : {int64_t(0), int64_t(1), p / 3})
          for (int64_t np : {int64_t(1), p - p0, std::min<int64_t>(nr + 3, p - p0)})
            for (int64_t k0 : {int64_t(0), k / 2})
              for (int64_t kc : {k - k0, std::min<int64_t>(k - k0, 5)}) {
                const int64_t panels = (np + nr - 1) / nr;
                std::vector<float> dst(panels * kc * nr + 2, -7.0f);
                isa.packConv(x.data(), 3, cc.c, cc.h, cc.w, cc.kh, cc.kw, cc.sh, cc.sw, cc.ph,
                             cc.pw, cc.dh, cc.dw, ow, p0, np, k0, kc, nr, dst.data(), 1);
                ASSERT_EQ(dst[0], -7.0f);
                ASSERT_EQ(dst.back(), -7.0f);
                for (int64_t t = 0; t < panels; ++t)
                  for (int64_t kk = 0; kk < kc; ++kk)
                    for (int64_t l = 0; l < nr; ++l) {
                      const int64_t pix = t * nr + l;
                      const float want = pix < np ? im2col(k0 + kk, p0 + pix) : 0.0f;
                      ASSERT_EQ(dst[1 + (t * kc + kk) * nr + l], want)
                          << isa.name << " nr=" << nr << " p0=" << p0 << " np=" << np
                          << " k0=" << k0 << " panel " << t << " k " << kk << " lane " << l;
                    }
              }
    }
  }
}

TEST(UKernelPacking, LhsPanelsBothLayouts) {
  for (const Isa &isa : allIsas()) {
    if (!supported(isa.name))
      continue;
    const int64_t m = 19, k = 23;
    std::vector<float> a = randomVector(m * k, 3);
    for (int64_t trans : {0, 1})
      for (int64_t mr : {1, 4, 6, 8, 12})
        for (int64_t m0 : {0, 5})
          for (int64_t k0 : {0, 9}) {
            const int64_t mc = m - m0, kc = k - k0, panels = (mc + mr - 1) / mr;
            const int64_t lda = trans ? m : k;
            std::vector<float> dst(panels * kc * mr, -7.0f);
            isa.packLhs(a.data(), 0, lda, trans, m0, mc, k0, kc, mr, dst.data(), 0);
            for (int64_t t = 0; t < panels; ++t)
              for (int64_t kk = 0; kk < kc; ++kk)
                for (int64_t i = 0; i < mr; ++i) {
                  const int64_t row = m0 + t * mr + i, col = k0 + kk;
                  const float want =
                      row < m ? (trans ? a[col * lda + row] : a[row * lda + col]) : 0.0f;
                  ASSERT_EQ(dst[(t * kc + kk) * mr + i], want)
                      << isa.name << " trans=" << trans << " mr=" << mr << " panel " << t;
                }
          }
  }
}

TEST(UKernelDepthwise, MatchesDirectConvolution) {
  struct Case {
    int64_t h, w, kh, kw, s, p, d;
  };
  const Case cases[] = {{7, 9, 3, 3, 1, 1, 1},   {16, 16, 3, 3, 2, 1, 1}, {13, 37, 5, 5, 1, 2, 1},
                        {14, 14, 5, 5, 2, 2, 1}, {9, 70, 3, 3, 1, 1, 1},  {10, 10, 3, 3, 1, 2, 2},
                        {5, 5, 1, 1, 1, 0, 1},   {6, 7, 3, 3, 2, 0, 1},   {3, 4, 7, 7, 1, 3, 1},
                        // Row blocks (8, 4 and 2 rows) with every tail; split stride-2 planes with
                        // odd widths and 5x5 windows; a stride that gathers.
                        {23, 7, 3, 3, 1, 1, 1},  {19, 14, 5, 5, 1, 2, 1}, {11, 40, 3, 3, 2, 1, 1},
                        {21, 33, 5, 5, 2, 2, 1}, {15, 70, 3, 3, 2, 1, 1}, {12, 20, 3, 3, 3, 1, 1},
                        {13, 29, 3, 3, 2, 1, 2},
                        // 3x3 stride 2 read row by row (every input row loaded once): four
                        // vectors a row and a tail, no padding with an odd height.
                        {9, 113, 3, 3, 2, 1, 1}, {17, 34, 3, 3, 2, 0, 1}};
  const int64_t channels = 3;
  const Epilogue epis[] = {
      {"plain", MIE_UK_EPILOGUE},
      {"bias_relu6", MIE_UK_EPILOGUE | MIE_UK_BIAS | (MIE_UK_ACT_RELU6 << MIE_UK_ACTIVATION_SHIFT)},
      {"bias_residual_hswish", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL |
                                   (MIE_UK_ACT_HARD_SWISH << MIE_UK_ACTIVATION_SHIFT)},
      {"clamp", MIE_UK_EPILOGUE | MIE_UK_CLAMP}};
  for (const Isa &isa : allIsas()) {
    if (!supported(isa.name))
      continue;
    for (const Case &cc : cases) {
      const int64_t oh = (cc.h + 2 * cc.p - cc.d * (cc.kh - 1) - 1) / cc.s + 1;
      const int64_t ow = (cc.w + 2 * cc.p - cc.d * (cc.kw - 1) - 1) / cc.s + 1;
      std::vector<float> x = randomVector(channels * cc.h * cc.w, 21);
      std::vector<float> w = randomVector(channels * cc.kh * cc.kw, 22);
      std::vector<float> bias = randomVector(channels, 23),
                         res = randomVector(channels * oh * ow, 24);
      // NaN scratch: the first channel must write every plane element the window reads (the
      // second one writes only the image's elements, counting on the first one's zeros).
      std::vector<float> plane(
          mie_uk_dwconv_plane_floats(cc.kh, cc.kw, cc.s, cc.s, cc.d, cc.d, oh, ow), NAN);
      for (const Epilogue &e : epis) {
        // Channels [1, 3) only, into an output with a guard value around them.
        std::vector<float> out(channels * oh * ow + 1, -9.0f);
        isa.dwconv(x.data(), 0, cc.h, cc.w, cc.kh, cc.kw, cc.s, cc.s, cc.p, cc.p, cc.d, cc.d, oh,
                   ow, w.data(), 0, 1, channels - 1, out.data(), 0, e.flags, bias.data(), 0,
                   res.data(), 0, -0.5f, 0.75f, plane.data());
        const int act = int((e.flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
        for (int64_t c = 0; c < channels; ++c)
          for (int64_t y = 0; y < oh; ++y)
            for (int64_t xx = 0; xx < ow; ++xx) {
              const float got = out[(c * oh + y) * ow + xx];
              if (c == 0) {
                ASSERT_EQ(got, -9.0f) << "channel 0 was not asked for";
                continue;
              }
              double want = 0;
              for (int64_t i = 0; i < cc.kh; ++i)
                for (int64_t j = 0; j < cc.kw; ++j) {
                  int64_t ih = y * cc.s - cc.p + i * cc.d, iw = xx * cc.s - cc.p + j * cc.d;
                  if (ih >= 0 && ih < cc.h && iw >= 0 && iw < cc.w)
                    want += double(x[(c * cc.h + ih) * cc.w + iw]) * w[(c * cc.kh + i) * cc.kw + j];
                }
              if (e.flags & MIE_UK_BIAS)
                want += bias[c];
              if (e.flags & MIE_UK_RESIDUAL)
                want += res[(c * oh + y) * ow + xx];
              want = activate(want, act);
              if (e.flags & MIE_UK_CLAMP)
                want = std::min(std::max(want, -0.5), 0.75);
              ASSERT_NEAR(got, want, 1e-5 * (1 + std::fabs(want)))
                  << isa.name << " " << e.name << " h=" << cc.h << " w=" << cc.w << " k=" << cc.kh
                  << " s=" << cc.s << " p=" << cc.p << " d=" << cc.d << " at c" << c << " (" << y
                  << ", " << xx << ")";
            }
        ASSERT_EQ(out.back(), -9.0f);
      }
    }
  }
}

/// The bf16 depthwise kernel is the f32 one on the widened tensors with its output rounded once
/// (to nearest even): bit for bit, over strides 1 and 2, a 5x5 window, the residual and bias.
TEST(UKernelDepthwise, Bf16IsTheF32KernelRoundedOnce) {
  using Bf16DwConvFn = void (*)(const uint16_t *, int64_t, int64_t, int64_t, int64_t, int64_t,
                                int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                int64_t, const uint16_t *, int64_t, int64_t, int64_t, uint16_t *,
                                int64_t, int64_t, const uint16_t *, int64_t, const uint16_t *,
                                int64_t, float, float, float *);
#if defined(__x86_64__)
  const std::pair<const char *, Bf16DwConvFn> kernels[] = {
      {"avx512", mie_uk_bf16_dwconv_nchw_avx512}, {"avx2", mie_uk_bf16_dwconv_nchw_avx2}};
#else
  const std::pair<const char *, Bf16DwConvFn> kernels[] = {{"neon", mie_uk_bf16_dwconv_nchw_neon}};
#endif
  auto toBf16 = [](float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
  };
  auto fromBf16 = [](uint16_t h) {
    const uint32_t u = uint32_t(h) << 16;
    float v;
    std::memcpy(&v, &u, 4);
    return v;
  };
  struct Case {
    int64_t h, w, kh, s, p;
  };
  // Rows of one vector and of several (stride 1 widens the plane first where a row is longer
  // than a vector, the others widen each tap's load), strides 1 and 2, 3x3 and 5x5.
  const Case cases[] = {{7, 9, 3, 1, 1},    {16, 17, 3, 2, 1}, {13, 20, 5, 1, 2},
                        {14, 14, 5, 2, 2}, {5, 70, 3, 1, 1},  {6, 40, 3, 1, 1}};
  const int64_t channels = 3;
  const int64_t flags = MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL |
                        (MIE_UK_ACT_RELU6 << MIE_UK_ACTIVATION_SHIFT);
  for (const Isa &isa : allIsas()) {
    if (!supported(isa.name))
      continue;
    Bf16DwConvFn bf16Kernel = nullptr;
    for (const auto &[name, fn] : kernels)
      if (isa.name == name)
        bf16Kernel = fn;
    ASSERT_NE(bf16Kernel, nullptr) << isa.name;
    for (const Case &cc : cases) {
      const int64_t oh = (cc.h + 2 * cc.p - cc.kh) / cc.s + 1, ow = (cc.w + 2 * cc.p - cc.kh) / cc.s + 1;
      // Operands rounded to bf16: `f` the f32 kernel's, `b` the bf16 kernel's, the same values.
      auto operand = [&](int64_t n, uint32_t seed, std::vector<float> &f, std::vector<uint16_t> &b) {
        f = randomVector(n, seed);
        b.resize(n);
        for (int64_t i = 0; i < n; ++i) {
          b[i] = toBf16(f[i]);
          f[i] = fromBf16(b[i]);
        }
      };
      std::vector<float> x, w, bias, res;
      std::vector<uint16_t> xb, wb, biasb, resb;
      operand(channels * cc.h * cc.w, 31, x, xb);
      operand(channels * cc.kh * cc.kh, 32, w, wb);
      operand(channels, 33, bias, biasb);
      operand(channels * oh * ow, 34, res, resb);
      std::vector<float> plane(mie_uk_dwconv_plane_floats(cc.kh, cc.kh, cc.s, cc.s, 1, 1, oh, ow));
      std::vector<float> want(channels * oh * ow);
      isa.dwconv(x.data(), 0, cc.h, cc.w, cc.kh, cc.kh, cc.s, cc.s, cc.p, cc.p, 1, 1, oh, ow,
                 w.data(), 0, 0, channels, want.data(), 0, flags, bias.data(), 0, res.data(), 0,
                 0.0f, 0.0f, plane.data());
      std::vector<float> scratch(mie_uk_bf16_dwconv_plane_floats(cc.h, cc.w, cc.kh, cc.kh, cc.s,
                                                                 cc.s, 1, 1, oh, ow));
      std::vector<uint16_t> got(channels * oh * ow + 1, 0xdead);
      bf16Kernel(xb.data(), 0, cc.h, cc.w, cc.kh, cc.kh, cc.s, cc.s, cc.p, cc.p, 1, 1, oh, ow,
                 wb.data(), 0, 0, channels, got.data(), 0, flags, biasb.data(), 0, resb.data(), 0,
                 0.0f, 0.0f, scratch.data());
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(got[i], toBf16(want[i])) << isa.name << " h=" << cc.h << " k=" << cc.kh
                                           << " s=" << cc.s << " at " << i;
      ASSERT_EQ(got.back(), 0xdead) << "stored past the output";
    }
  }
}

TEST(UKernelConvDirect, EveryTileMatchesReferenceConvolution) {
  struct Case {
    int64_t c, f, h, w, kh, kw, sh, sw, p, d;
  };
  // Stems (3 channels, 3x3 and 7x7 stride 2), odd sizes, a 1x1, dilation, filters past a panel.
  const Case cases[] = {{3, 16, 17, 19, 3, 3, 2, 2, 1, 1}, {3, 13, 23, 21, 7, 7, 2, 2, 3, 1},
                        {1, 5, 9, 30, 3, 3, 1, 1, 1, 1},   {2, 7, 6, 5, 1, 1, 1, 1, 0, 1},
                        {3, 9, 11, 13, 3, 3, 1, 2, 0, 2},  {4, 1, 8, 8, 5, 5, 1, 1, 2, 1},
                        // Stride-2 rows wide enough for whole vectors in the even/odd split.
                        {3, 8, 9, 70, 3, 3, 2, 2, 1, 1},   {3, 5, 12, 67, 7, 7, 2, 2, 3, 1}};
  const Epilogue epis[] = {
      {"plain", MIE_UK_EPILOGUE},
      {"bias_hswish", MIE_UK_EPILOGUE | MIE_UK_BIAS | (MIE_UK_ACT_HARD_SWISH << MIE_UK_ACTIVATION_SHIFT)},
      {"bias_residual_relu", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL |
                                 (MIE_UK_ACT_RELU << MIE_UK_ACTIVATION_SHIFT)}};
  int tested = 0;
  for (const Tile &t : allTiles()) {
    if (!supported(t.isa))
      continue;
    ++tested;
    for (const Case &cc : cases) {
      const int64_t oh = (cc.h + 2 * cc.p - cc.d * (cc.kh - 1) - 1) / cc.sh + 1;
      const int64_t ow = (cc.w + 2 * cc.p - cc.d * (cc.kw - 1) - 1) / cc.sw + 1;
      const int64_t k = cc.c * cc.kh * cc.kw, panels = (cc.f + t.mr - 1) / t.mr;
      std::vector<float> x = randomVector(cc.c * cc.h * cc.w, 41), w = randomVector(cc.f * k, 42);
      std::vector<float> bias = randomVector(cc.f, 43), res = randomVector(cc.f * oh * ow, 44);
      // The implicit GEMM's LHS panels: [panels][k][mr], zero past F.
      std::vector<float> packed(panels * k * t.mr, 0.0f);
      for (int64_t f = 0; f < cc.f; ++f)
        for (int64_t kk = 0; kk < k; ++kk)
          packed[((f / t.mr) * k + kk) * t.mr + f % t.mr] = w[f * k + kk];
      // Two bands of rows, as two work items would run them.
      const int64_t band = (oh + 1) / 2;
      std::vector<float> plane(mie_uk_conv_direct_plane_floats(cc.c, cc.kh, cc.kw, cc.sh, cc.sw,
                                                               cc.d, cc.d, ow, t.nr, band));
      for (const Epilogue &e : epis) {
        std::vector<float> out(cc.f * oh * ow + 1, -9.0f);
        for (int64_t oh0 = 0; oh0 < oh; oh0 += band)
          t.direct(x.data(), 0, cc.c, cc.h, cc.w, cc.kh, cc.kw, cc.sh, cc.sw, cc.p, cc.p, cc.d,
                   cc.d, oh, ow, cc.f, packed.data(), 0, oh0, std::min(band, oh - oh0), out.data(),
                   0, e.flags, bias.data(), 0, res.data(), 0, 0.0f, 0.0f, plane.data());
        const int act = int((e.flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
        for (int64_t f = 0; f < cc.f; ++f)
          for (int64_t y = 0; y < oh; ++y)
            for (int64_t xx = 0; xx < ow; ++xx) {
              double want = 0;
              for (int64_t ch = 0; ch < cc.c; ++ch)
                for (int64_t i = 0; i < cc.kh; ++i)
                  for (int64_t j = 0; j < cc.kw; ++j) {
                    int64_t ih = y * cc.sh - cc.p + i * cc.d, iw = xx * cc.sw - cc.p + j * cc.d;
                    if (ih >= 0 && ih < cc.h && iw >= 0 && iw < cc.w)
                      want += double(x[(ch * cc.h + ih) * cc.w + iw]) *
                              w[f * k + (ch * cc.kh + i) * cc.kw + j];
                  }
              if (e.flags & MIE_UK_BIAS)
                want += bias[f];
              if (e.flags & MIE_UK_RESIDUAL)
                want += res[(f * oh + y) * ow + xx];
              want = activate(want, act);
              const float got = out[(f * oh + y) * ow + xx];
              ASSERT_NEAR(got, want, 2e-5 * (1 + std::fabs(want)))
                  << t.name << " " << e.name << " c=" << cc.c << " f=" << cc.f << " " << cc.h << "x"
                  << cc.w << " k=" << cc.kh << "x" << cc.kw << " s=" << cc.sh << "," << cc.sw
                  << " at f" << f << " (" << y << ", " << xx << ")";
            }
        ASSERT_EQ(out.back(), -9.0f) << t.name << ": store past the output";
      }
    }
  }
  if (!tested)
    GTEST_SKIP() << "no microkernel ISA of this build runs on this CPU";
}

TEST(UKernelWinograd, TransformsAroundGemmsMatchDirectConvolution) {
  // Input transform, alpha^2 reference GEMMs with G g G^T weights, output transform + epilogue, for
  // F(2x2, 3x3) (alpha 4) and F(4x4, 3x3) (alpha 6).
  struct Case {
    int64_t c, f, h, w, pad;
  };
  const Case cases[] = {{3, 5, 6, 6, 1},  {2, 3, 7, 9, 1},  {4, 2, 5, 40, 1},   {1, 1, 3, 3, 0},
                        {3, 2, 8, 5, 0},  {2, 4, 17, 19, 1}, {2, 3, 14, 14, 1}, {3, 2, 30, 70, 1},
                        {1, 2, 9, 131, 0}};
  const double G2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  const double G4[6][3] = {{0.25, 0, 0},          {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                           {-1.0 / 6, 1.0 / 6, -1.0 / 6}, {1.0 / 24, 1.0 / 12, 1.0 / 6},
                           {1.0 / 24, -1.0 / 12, 1.0 / 6}, {0, 0, 1}};
  for (const Isa &isa : allIsas()) {
    if (!supported(isa.name))
      continue;
    for (int tile : {2, 4}) {
      const int alpha = tile + 2, elems = alpha * alpha;
      auto G = [&](int i, int a) { return tile == 2 ? G2[i][a] : G4[i][a]; };
      WinogradInFn in = tile == 2 ? isa.winogradIn : isa.winograd4In;
      WinogradOutFn outFn = tile == 2 ? isa.winogradOut : isa.winograd4Out;
      for (const Case &cc : cases) {
        const int64_t oh = cc.h + 2 * cc.pad - 2, ow = cc.w + 2 * cc.pad - 2;
        const int64_t th = (oh + tile - 1) / tile, tw = (ow + tile - 1) / tile, t = th * tw;
        std::vector<float> x = randomVector(cc.c * cc.h * cc.w, 31),
                           g = randomVector(cc.f * cc.c * 9, 32);
        std::vector<float> bias = randomVector(cc.f, 33), res = randomVector(cc.f * oh * ow, 34);
        std::vector<float> v(elems * cc.c * t + 1, -3.0f),
            plane(tile == 2 ? mie_uk_winograd_plane_floats(th, tw)
                            : mie_uk_winograd4_plane_floats(th, tw),
                  NAN); // the first channel fills the padding, the others only the image

        in(x.data(), 0, cc.c, cc.h, cc.w, cc.pad, cc.pad, th, tw, 0, cc.c, v.data(), 0,
           plane.data());
        ASSERT_EQ(v.back(), -3.0f) << "input transform wrote past V";
        std::vector<float> m(elems * cc.f * t, 0.0f);
        for (int64_t f = 0; f < cc.f; ++f)
          for (int64_t c = 0; c < cc.c; ++c) {
            double u[6][6] = {};
            for (int i = 0; i < alpha; ++i)
              for (int j = 0; j < alpha; ++j)
                for (int a = 0; a < 3; ++a)
                  for (int b = 0; b < 3; ++b)
                    u[i][j] += G(i, a) * g[(f * cc.c + c) * 9 + a * 3 + b] * G(j, b);
            for (int xi = 0; xi < elems; ++xi)
              for (int64_t k = 0; k < t; ++k)
                m[(xi * cc.f + f) * t + k] +=
                    float(u[xi / alpha][xi % alpha] * v[(xi * cc.c + c) * t + k]);
          }
        const int64_t flags = MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL |
                              (MIE_UK_ACT_RELU << MIE_UK_ACTIVATION_SHIFT);
        std::vector<float> out(cc.f * oh * ow + 1, -5.0f);
        outFn(m.data(), 0, cc.f, th, tw, oh, ow, 0, cc.f, out.data(), 0, flags, bias.data(), 0,
              res.data(), 0, 0, 0);
        ASSERT_EQ(out.back(), -5.0f) << "output transform wrote past the output";
        for (int64_t f = 0; f < cc.f; ++f)
          for (int64_t y = 0; y < oh; ++y)
            for (int64_t xx = 0; xx < ow; ++xx) {
              double want = bias[f] + res[(f * oh + y) * ow + xx];
              for (int64_t c = 0; c < cc.c; ++c)
                for (int a = 0; a < 3; ++a)
                  for (int b = 0; b < 3; ++b) {
                    int64_t ih = y - cc.pad + a, iw = xx - cc.pad + b;
                    if (ih >= 0 && ih < cc.h && iw >= 0 && iw < cc.w)
                      want += double(x[(c * cc.h + ih) * cc.w + iw]) *
                              g[(f * cc.c + c) * 9 + a * 3 + b];
                  }
              want = std::max(want, 0.0);
              ASSERT_NEAR(out[(f * oh + y) * ow + xx], want, 1e-4 * (1 + std::fabs(want)))
                  << isa.name << " F(" << tile << "x" << tile << ") c=" << cc.c << " f=" << cc.f
                  << " " << cc.h << "x" << cc.w << " at f" << f << " (" << y << ", " << xx << ")";
            }
        // The residual read from the output written over it (`mie.in_place_input`): each vector
        // is read before its own store, so the same values come out.
        std::vector<float> inPlace(res);
        inPlace.push_back(-5.0f);
        outFn(m.data(), 0, cc.f, th, tw, oh, ow, 0, cc.f, inPlace.data(), 0, flags, bias.data(), 0,
              inPlace.data(), 0, 0, 0);
        ASSERT_EQ(inPlace.back(), -5.0f) << "output transform wrote past the output";
        for (size_t i = 0; i < res.size(); ++i)
          ASSERT_EQ(inPlace[i], out[i]) << isa.name << " F(" << tile << "x" << tile
                                        << ") in place, element " << i;
      }
    }
  }
}

} // namespace
