// The AMX bf16 microkernels (runtime/src/ukernels/bf16_amx.cpp): the A and B packing against a scalar
// bf16 rounding of the same elements, and the 32 x 32 tile against a double-precision product of the
// bf16-rounded operands, over odd sizes and every epilogue. Skipped where the CPU has no AMX-BF16 or
// Linux does not grant the tile state.
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

using mie_uk_test::activate;
using mie_uk_test::Epilogue;
using mie_uk_test::epilogues;
using mie_uk_test::randomVector;

constexpr int64_t T = MIE_UK_BF16_AMX_TILE;

/// Rounds to the nearest bf16, ties to even (finite inputs): what VCVTNEPS2BF16 does.
uint16_t toBf16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}

float fromBf16(uint16_t h) {
  const uint32_t u = uint32_t(h) << 16;
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

#define SKIP_WITHOUT_AMX()                                                                         \
  if (!mie_uk_test::amxUsable())                                                                   \
  GTEST_SKIP() << "this CPU or OS does not run AMX-BF16"

TEST(UKernelBf16Amx, PackAMatchesScalarRounding) {
  SKIP_WITHOUT_AMX();
  for (int64_t trans : {0, 1})
    for (int64_t mc : {1, 17, 32, 45})
      for (int64_t kc : {1, 31, 32, 70}) {
        const int64_t m0 = 3, k0 = 5, rows = m0 + mc + 2, cols = k0 + kc + 3;
        const int64_t lda = trans ? rows + 1 : cols + 1;
        std::vector<float> a = randomVector((trans ? cols : rows) * lda, uint32_t(mc * 100 + kc));
        const int64_t kb = roundUp(kc, T) / T, panels = roundUp(mc, T) / T;
        std::vector<uint16_t> got(panels * kb * T * T + 7, 0xdead);
        mie_uk_bf16_pack_a_amx(a.data(), 0, lda, trans, m0, mc, k0, kc, got.data(), 7);
        for (int64_t pm = 0; pm < panels; ++pm)
          for (int64_t blk = 0; blk < kb; ++blk)
            for (int64_t r = 0; r < T; ++r)
              for (int64_t q = 0; q < T; ++q) {
                const int64_t i = pm * T + r, kk = blk * T + q;
                uint16_t want = 0;
                if (i < mc && kk < kc)
                  want = toBf16(trans ? a[(k0 + kk) * lda + m0 + i] : a[(m0 + i) * lda + k0 + kk]);
                ASSERT_EQ(got[7 + ((pm * kb + blk) * T + r) * T + q], want)
                    << "trans=" << trans << " mc=" << mc << " kc=" << kc << " row " << i << " k "
                    << kk;
              }
      }
}

TEST(UKernelBf16Amx, PackBMatchesScalarRoundingInVnniPairs) {
  SKIP_WITHOUT_AMX();
  for (int64_t trans : {0, 1})
    for (int64_t nc : {1, 16, 17, 32, 50})
      for (int64_t kc : {1, 2, 31, 33, 64}) {
        const int64_t n0 = 2, k0 = 3, rows = k0 + kc + 1, cols = n0 + nc + 4;
        const int64_t ldb = trans ? rows + 2 : cols + 2;
        std::vector<float> b = randomVector((trans ? cols : rows) * ldb, uint32_t(nc * 100 + kc));
        const int64_t kb = roundUp(kc, T) / T, panels = roundUp(nc, T) / T;
        std::vector<uint16_t> got(panels * kb * T * T, 0xdead);
        mie_uk_bf16_pack_b_amx(b.data(), 0, ldb, trans, n0, nc, k0, kc, got.data(), 0);
        for (int64_t pn = 0; pn < panels; ++pn)
          for (int64_t blk = 0; blk < kb; ++blk)
            for (int64_t h = 0; h < 2; ++h)
              for (int64_t p = 0; p < 16; ++p)
                for (int64_t j = 0; j < 16; ++j)
                  for (int64_t e = 0; e < 2; ++e) {
                    const int64_t col = pn * T + h * 16 + j, kk = blk * T + 2 * p + e;
                    uint16_t want = 0;
                    if (col < nc && kk < kc)
                      want = toBf16(trans ? b[(n0 + col) * ldb + k0 + kk]
                                          : b[(k0 + kk) * ldb + n0 + col]);
                    const int64_t at = (pn * kb + blk) * T * T + h * 512 + p * 32 + j * 2 + e;
                    ASSERT_EQ(got[at], want) << "trans=" << trans << " nc=" << nc << " kc=" << kc
                                             << " column " << col << " k " << kk;
                  }
      }
}

/// One tile call on an m x n block of a larger C (a border catches stray stores), from A [m][k]
/// and B [k][n] packed by the packing routines, against the double product of their bf16 values.
/// `bf16C`: the bf16 product's tile (C, bias and residual in bf16, C rounded once at the store);
/// its A is packed from bf16 rows.
void checkTile(int64_t k, int64_t m, int64_t n, const Epilogue &e, bool bf16C) {
  const bool transposed = e.flags & MIE_UK_TRANSPOSE_C;
  const int64_t rowsC = transposed ? n : m, colsC = transposed ? m : n;
  const int64_t ldc = colsC + 5, ldr = colsC + 3, border = 2, kp = roundUp(k, T);
  std::vector<float> a = randomVector(m * k, uint32_t(1 + k + m));
  std::vector<float> b = randomVector(k * n, uint32_t(7 + k + n));
  std::vector<float> c0 = randomVector((rowsC + 2 * border) * ldc, 11);
  std::vector<float> bias = randomVector(std::max<int64_t>(m, n), 13);
  std::vector<float> res = randomVector(rowsC * ldr, 17);
  auto toHalves = [](std::vector<float> &v) { // rounds v to bf16 in place, returns the bf16
    std::vector<uint16_t> h(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      h[i] = toBf16(v[i]);
      v[i] = fromBf16(h[i]);
    }
    return h;
  };
  std::vector<uint16_t> ap(kp * T), bp(kp * T);
  mie_uk_bf16_pack_b_amx(b.data(), 0, n, 0, 0, n, 0, k, bp.data(), 0);
  const float lo = -0.25f, hi = 0.5f;
  const int64_t cOff = border * ldc + border;
  std::vector<float> c = c0;
  std::vector<uint16_t> cH;
  if (bf16C) {
    std::vector<uint16_t> aH = toHalves(a);
    mie_uk_bf16_pack_a_amx_bf16(aH.data(), 0, k, 0, 0, m, 0, k, ap.data(), 0);
    cH = toHalves(c0);
    std::vector<uint16_t> biasH = toHalves(bias), resH = toHalves(res);
    mie_uk_bf16_gemm_32x32_amx_bf16c(ap.data(), 0, bp.data(), 0, cH.data(), cOff, ldc, kp, m, n,
                                     e.flags, biasH.data(), 0, resH.data(), 0, ldr, lo, hi);
  } else {
    mie_uk_bf16_pack_a_amx(a.data(), 0, k, 0, 0, m, 0, k, ap.data(), 0);
    mie_uk_bf16_gemm_32x32_amx(ap.data(), 0, bp.data(), 0, c.data(), cOff, ldc, kp, m, n,
                               e.flags, bias.data(), 0, res.data(), 0, ldr, lo, hi);
  }
  const int act = int((e.flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
  for (int64_t i = 0; i < rowsC + 2 * border; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      const int64_t br = i - border, bq = j - border;
      const float got = bf16C ? fromBf16(cH[i * ldc + j]) : c[i * ldc + j];
      if (br < 0 || br >= rowsC || bq < 0 || bq >= colsC) {
        ASSERT_EQ(got, c0[i * ldc + j]) << "store outside the block at (" << br << ", " << bq << ")";
        continue;
      }
      const int64_t bi = transposed ? bq : br, bj = transposed ? br : bq;
      double want = (e.flags & MIE_UK_ACCUMULATE) ? c0[i * ldc + j] : 0.0;
      double scale = 1.0;
      for (int64_t p = 0; p < k; ++p) {
        const double x = fromBf16(toBf16(a[bi * k + p])) * double(fromBf16(toBf16(b[p * n + bj])));
        want += x;
        scale += std::fabs(x);
      }
      if (e.flags & MIE_UK_EPILOGUE) {
        if (e.flags & MIE_UK_BIAS)
          want += (e.flags & MIE_UK_BIAS_PER_COL) ? bias[bj] : bias[bi];
        if (e.flags & MIE_UK_RESIDUAL)
          want += res[br * ldr + bq];
        want = activate(want, act);
        if (e.flags & MIE_UK_CLAMP)
          want = std::min(std::max(want, double(lo)), double(hi));
      }
      // The products of bf16 values are exact in f32; only the f32 sums round, and a bf16 C once
      // more (half an ulp of bf16: 2^-9 relative).
      const double tol = 1e-6 * scale + (bf16C ? std::ldexp(std::fabs(want), -8) : 2e-6 * std::fabs(want));
      ASSERT_NEAR(got, want, tol) << e.name << (bf16C ? " bf16c" : "") << " k=" << k << " m=" << m
                                  << " n=" << n << " at (" << bi << ", " << bj << ")";
    }
}

TEST(UKernelBf16Amx, TileEveryEpilogueOddSizes) {
  SKIP_WITHOUT_AMX();
  for (int64_t k : {1, 31, 32, 33, 100, 256})
    for (int64_t m : {1, 7, 16, 17, 31, 32})
      for (int64_t n : {1, 9, 16, 17, 32})
        for (const Epilogue &e : epilogues()) {
          SCOPED_TRACE(e.name);
          checkTile(k, m, n, e, /*bf16C=*/false);
          checkTile(k, m, n, e, /*bf16C=*/true);
        }
}

/// A residual may be the block of C itself (an output planned in place over it): it is read whole
/// before the store.
TEST(UKernelBf16Amx, ResidualReadFromTheBlockItWrites) {
  SKIP_WITHOUT_AMX();
  const int64_t k = 64, m = 20, n = 30, ldc = 40;
  std::vector<float> a = randomVector(m * k, 3), b = randomVector(k * n, 4);
  std::vector<uint16_t> ap(k * T), bp(k * T);
  mie_uk_bf16_pack_a_amx(a.data(), 0, k, 0, 0, m, 0, k, ap.data(), 0);
  mie_uk_bf16_pack_b_amx(b.data(), 0, n, 0, 0, n, 0, k, bp.data(), 0);
  std::vector<float> c = randomVector(m * ldc, 5), c0 = c;
  const int64_t flags = MIE_UK_EPILOGUE | MIE_UK_RESIDUAL;
  mie_uk_bf16_gemm_32x32_amx(ap.data(), 0, bp.data(), 0, c.data(), 0, ldc, k, m, n, flags, nullptr,
                             0, c.data(), 0, ldc, 0, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double want = c0[i * ldc + j];
      for (int64_t p = 0; p < k; ++p)
        want += double(fromBf16(toBf16(a[i * k + p]))) * fromBf16(toBf16(b[p * n + j]));
      ASSERT_NEAR(c[i * ldc + j], want, 1e-4) << "at (" << i << ", " << j << ")";
    }
}

/// A convolution's window and image for the conv packing test.
struct ConvCase {
  int64_t C, H, W, KH, KW, SH, SW, PH, PW, DH, DW;
};

/// The conv packing against the implicit GEMM's B matrix built element by element: pixel panels of
/// 32 with K in VNNI pairs, zeros in the padding, past K and past the pixels asked for. The cases
/// cover the stem (C = 3, 7x7 stride 2), 3x3 strides 1 and 2, more than one 32-channel staging
/// block, 1x1 strided, dilation, a stride of 3 (the scalar path) and rows shorter than a panel.
TEST(UKernelBf16Amx, PackConvMatchesTheImplicitGemm) {
  SKIP_WITHOUT_AMX();
  const ConvCase cases[] = {{3, 20, 19, 7, 7, 2, 2, 3, 3, 1, 1},  {5, 9, 11, 3, 3, 1, 1, 1, 1, 1, 1},
                            {40, 7, 7, 3, 3, 2, 2, 1, 1, 1, 1}, {33, 6, 6, 1, 1, 2, 2, 0, 0, 1, 1},
                            {4, 12, 13, 3, 3, 1, 1, 2, 2, 2, 2}, {6, 10, 14, 3, 3, 3, 3, 1, 0, 1, 1},
                            {64, 5, 3, 3, 3, 1, 1, 1, 1, 1, 1}};
  for (const ConvCase &q : cases) {
    const int64_t OH = (q.H + 2 * q.PH - q.DH * (q.KH - 1) - 1) / q.SH + 1;
    const int64_t OW = (q.W + 2 * q.PW - q.DW * (q.KW - 1) - 1) / q.SW + 1;
    const int64_t P = OH * OW, K = q.C * q.KH * q.KW, kb = roundUp(K, T) / T;
    std::vector<float> xf = randomVector(q.C * q.H * q.W + 3, uint32_t(K + P));
    std::vector<uint16_t> x(xf.size());
    for (size_t i = 0; i < xf.size(); ++i)
      x[i] = toBf16(xf[i]);
    // Every pixel from 0, and a block that starts inside a row and ends before the last pixel.
    const int64_t ranges[][2] = {{0, P}, {P / 3, P - P / 3 - 1}};
    for (const auto &range : ranges) {
      const int64_t p0 = range[0], np = std::max<int64_t>(range[1], 1);
      const int64_t panels = roundUp(np, T) / T;
      std::vector<uint16_t> got(panels * kb * T * T + 5, 0xdead);
      mie_uk_bf16_pack_conv_amx(x.data(), 3, q.C, q.H, q.W, q.KH, q.KW, q.SH, q.SW, q.PH, q.PW,
                                q.DH, q.DW, OW, p0, np, got.data(), 5);
      for (int64_t t = 0; t < panels; ++t)
        for (int64_t kk = 0; kk < kb * T; ++kk)
          for (int64_t j = 0; j < T; ++j) {
            const int64_t pix = p0 + t * T + j;
            uint16_t want = 0;
            if (kk < K && t * T + j < np) {
              const int64_t c = kk / (q.KH * q.KW), tap = kk % (q.KH * q.KW);
              const int64_t ih = pix / OW * q.SH - q.PH + tap / q.KW * q.DH;
              const int64_t iw = pix % OW * q.SW - q.PW + tap % q.KW * q.DW;
              if (ih >= 0 && ih < q.H && iw >= 0 && iw < q.W)
                want = x[3 + (c * q.H + ih) * q.W + iw];
            }
            const int64_t at = 5 + t * kb * 1024 + kk / T * 1024 + j / 16 * 512 +
                               kk % T / 2 * 32 + j % 16 * 2 + kk % 2;
            ASSERT_EQ(got[at], want) << "C=" << q.C << " " << q.KH << "x" << q.KW << " stride "
                                     << q.SH << " p0=" << p0 << " np=" << np << " k " << kk
                                     << " pixel " << pix;
          }
    }
  }
}

} // namespace
