//===- f16_gemm_neon.cpp - f16 GEMM tiles with f32 sums (AArch64) ---------===//
//
// The register tiles of a reduced-precision product on AArch64: f16 operands (packed LHS panels
// [k][MR], B rows read in place or packed pixel panels, bias, residual and C), f32 accumulators,
// the f32 tiles' epilogue applied to the f32 registers and one rounding to f16 at the store (round
// to nearest even, NaN stays NaN, overflow to infinity: FCVTN under the default FPCR). The tiles
// have the shapes of the f32 NEON tiles (mie_ukernel_tiles.def): the accumulators are the same f32
// registers, and the kernel-selection cost model is the f32 one.
//
// Every ARMv8 CPU converts between f16 and f32 (FCVTL / FCVTN, part of the base ISA's Advanced
// SIMD), so the base build widens each loaded vector in registers and multiplies in f32. With
// __ARM_FEATURE_FP16_FML (FEAT_FHM: FMLAL / FMLAL2, optional from ARMv8.2) the K loop multiplies
// the f16 vectors directly into the f32 sums instead, which saves the conversions: an f16 x f16
// product is exact in f32 and both forms round the sum once, so the results are bit for bit the
// same. No target enables that build yet (docs/kernels.md says why); the microkernel tests build
// it separately (suffix neon_fp16fml) and check it against the base build.
//
// Part of the NEON unit (ukernels.cpp, after f32_gemm.cpp, whose templates pack the panels). With
// MIE_UK_F16_TILES_ONLY it compiles alone into the tiles only, under MIE_UK_F16_SUFFIX.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_bf16.h"
#include "ukernel_vector.h"
// After ukernel_vector.h, which it builds on.
#include "f32_tile.h"

#if defined(__ARM_FEATURE_FP16_FML)
#include <arm_neon.h>
#endif

#ifndef MIE_UK_F16_SUFFIX
#define MIE_UK_F16_SUFFIX neon
#endif

using namespace mie_uk;

namespace {

static_assert(VL == 4, "the f16 tiles are NEON's: 4 floats a vector");

typedef _Float16 vh4 __attribute__((ext_vector_type(4)));

/// VL f16 elements (as bits) widened to f32: FCVTL, exact.
MIE_UK_INLINE vf loadHalves(const uint16_t *p) {
  return __builtin_convertvector(__builtin_bit_cast(vh4, *reinterpret_cast<const vh *>(p)), vf);
}
/// VL floats rounded to f16 (FCVTN: to nearest even under the default FPCR) and stored as bits.
MIE_UK_INLINE void storeHalves(uint16_t *p, vf v) {
  *reinterpret_cast<vh *>(p) = __builtin_bit_cast(vh, __builtin_convertvector(v, vh4));
}
MIE_UK_INLINE float halfToFloat(uint16_t h) { return float(__builtin_bit_cast(_Float16, h)); }
MIE_UK_INLINE uint16_t floatToHalf(float x) { return __builtin_bit_cast(uint16_t, _Float16(x)); }

/// An m x n block of f16 elements, (i, j) at p[i * rowStride + j * colStride], widened into a full
/// tile, zeros elsewhere (edge tiles, transposed C); touches nothing outside the block.
template <int MR, int NV>
MIE_UK_INLINE void loadHalfBlock(vf (&t)[MR][NV], const uint16_t *p, int64_t rowStride,
                                 int64_t colStride, int64_t m, int64_t n) {
  float tmp[MR][NV * VL];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NV * VL; ++j)
      tmp[i][j] = (i < m && j < n) ? halfToFloat(p[i * rowStride + j * colStride]) : 0.0f;
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v)
      t[i][v] = load(&tmp[i][v * VL]);
}

/// The m x n block of an f16 C-shaped buffer (row stride ld, transposed when `transposed`) in f32.
template <int MR, int NV>
MIE_UK_INLINE void loadHalfTile(vf (&t)[MR][NV], const uint16_t *p, int64_t ld, int64_t m,
                                int64_t n, bool transposed) {
  if (transposed)
    return loadHalfBlock<MR, NV>(t, p, 1, ld, m, n);
  if (m == MR && n == NV * VL) {
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v)
        t[i][v] = loadHalves(p + i * ld + v * VL);
    return;
  }
  loadHalfBlock<MR, NV>(t, p, ld, 1, m, n);
}

/// finishTile (f32_tile.h) for f16 bias, residual and C: the epilogue on the f32 registers, then
/// the one rounding. The residual is read whole before the first store, so it may be C itself.
template <int MR, int NV>
MIE_UK_INLINE void finishHalfTile(vf (&acc)[MR][NV], uint16_t *c, int64_t ldc, int64_t m, int64_t n,
                                  int64_t flags, const uint16_t *bias, const uint16_t *res,
                                  int64_t ldr, float lo, float hi) {
  constexpr int NR = NV * VL;
  const bool transposed = flags & MIE_UK_TRANSPOSE_C;
  if (flags & MIE_UK_EPILOGUE) {
    if (flags & MIE_UK_BIAS) {
      if (flags & MIE_UK_BIAS_PER_COL) {
        vf one[1][NV];
        loadHalfTile<1, NV>(one, bias, 0, 1, n, false);
        for (int i = 0; i < MR; ++i)
          for (int v = 0; v < NV; ++v)
            acc[i][v] += one[0][v];
      } else {
        for (int i = 0; i < MR; ++i) {
          const vf bi = splat(i < m ? halfToFloat(bias[i]) : 0.0f);
          for (int v = 0; v < NV; ++v)
            acc[i][v] += bi;
        }
      }
    }
    if (flags & MIE_UK_RESIDUAL) {
      vf r[MR][NV];
      loadHalfTile<MR, NV>(r, res, ldr, m, n, transposed);
      for (int i = 0; i < MR; ++i)
        for (int v = 0; v < NV; ++v)
          acc[i][v] += r[i][v];
    }
    activateTile<MR, NV>(acc, flags, lo, hi);
  }
  if (!transposed && m == MR && n == NR) {
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v)
        storeHalves(c + i * ldc + v * VL, acc[i][v]);
    return;
  }
  float tmp[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v)
      store(&tmp[i][v * VL], acc[i][v]);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      c[transposed ? j * ldc + i : i * ldc + j] = floatToHalf(tmp[i][j]);
}

#if defined(__ARM_FEATURE_FP16_FML)
/// acc[I..R) += a[I] * b over one K step with FMLAL / FMLAL2 by element: `bh` holds the step's B
/// row (vector v in the low (even v) or high (odd v) half of bh[v / 2]), `ah` the panel's R
/// elements of the step, 8 to a register. The lane is an immediate, hence the recursion over I.
template <int I, int R, int NV>
MIE_UK_INLINE void fmlalRows(vf (&acc)[R][NV], const float16x8_t *bh, const float16x8_t *ah) {
  if constexpr (I < R) {
    for (int v = 0; v < NV; ++v) {
      const float32x4_t s = __builtin_bit_cast(float32x4_t, acc[I][v]);
      acc[I][v] =
          __builtin_bit_cast(vf, (v & 1) ? vfmlalq_laneq_high_f16(s, bh[v / 2], ah[I / 8], I % 8)
                                         : vfmlalq_laneq_low_f16(s, bh[v / 2], ah[I / 8], I % 8));
    }
    fmlalRows<I + 1, R, NV>(acc, bh, ah);
  }
}

/// 8 f16 elements at p (4 when `half`, zeros above).
MIE_UK_INLINE float16x8_t loadF16x8(const uint16_t *p, bool half) {
  const float16_t *q = reinterpret_cast<const float16_t *>(p);
  return half ? vcombine_f16(vld1_f16(q), vdup_n_f16(0)) : vld1q_f16(q);
}
#endif

/// acc += A B over k: `a` a packed f16 LHS panel whose K steps lie `stride` elements apart (R of
/// them used), `b` f16 rows of NV * VL elements ldb apart. Prefetches as tileProducts does
/// (f32_tile.h); the f16 rows are half as long, so one line covers a row of the next panel.
template <int R, int NV, int stride, bool prefetchNext>
MIE_UK_INLINE void halfTileProducts(vf (&acc)[R][NV], const uint16_t *__restrict a,
                                    const uint16_t *__restrict b, int64_t ldb, int64_t k) {
#pragma clang loop unroll_count(2)
  for (int64_t p = 0; p < k; ++p) {
    const uint16_t *row = b + p * ldb;
    if (prefetchNext)
      __builtin_prefetch(row + NV * VL, 0, 3);
    __builtin_prefetch(a + (p + kPrefetchARows) * stride, 0, 3);
    __builtin_prefetch(b + (p + kPrefetchBRows) * ldb, 0, 3);
#if defined(__ARM_FEATURE_FP16_FML)
    if constexpr (R % 4 == 0) {
      float16x8_t bh[(NV + 1) / 2], ah[(R + 7) / 8];
      for (int h = 0; h < (NV + 1) / 2; ++h)
        bh[h] = loadF16x8(row + 8 * h, 2 * h + 1 == NV);
      for (int g = 0; g < (R + 7) / 8; ++g)
        ah[g] = loadF16x8(a + p * stride + 8 * g, R - 8 * g == 4);
      fmlalRows<0, R, NV>(acc, bh, ah);
      continue;
    }
#endif
    vf bv[NV];
    for (int v = 0; v < NV; ++v)
      bv[v] = loadHalves(row + v * VL);
    if constexpr (R % VL == 0) {
      // VL rows of the panel a load (one FCVTL), each then broadcast from its lane.
      vf aw[R / VL];
      for (int q = 0; q < R / VL; ++q)
        aw[q] = loadHalves(a + p * stride + q * VL);
      for (int i = 0; i < R; ++i) {
        const vf av = splat(aw[i / VL][i % VL]);
        for (int v = 0; v < NV; ++v)
          acc[i][v] = fma(av, bv[v], acc[i][v]);
      }
    } else {
      for (int i = 0; i < R; ++i) {
        const vf av = splat(halfToFloat(a[p * stride + i]));
        for (int v = 0; v < NV; ++v)
          acc[i][v] = fma(av, bv[v], acc[i][v]);
      }
    }
  }
}

/// The first R rows of a panel whose K steps lie `stride` elements apart: C loaded (accumulate)
/// or zero, the products, the epilogue and the store.
template <int R, int NV, int stride>
MIE_UK_INLINE void halfTileRows(const uint16_t *__restrict a, const uint16_t *__restrict b,
                                int64_t ldb, uint16_t *c, int64_t ldc, int64_t k, int64_t m,
                                int64_t n, int64_t flags, const uint16_t *bias, const uint16_t *res,
                                int64_t ldr, float lo, float hi) {
  vf acc[R][NV];
  if (flags & MIE_UK_ACCUMULATE) {
    loadHalfTile<R, NV>(acc, c, ldc, m, n, flags & MIE_UK_TRANSPOSE_C);
  } else {
    for (int i = 0; i < R; ++i)
      for (int v = 0; v < NV; ++v)
        acc[i][v] = splat(0.0f);
  }
  if (flags & MIE_UK_PREFETCH_NEXT_B)
    halfTileProducts<R, NV, stride, true>(acc, a, b, ldb, k);
  else
    halfTileProducts<R, NV, stride, false>(acc, a, b, ldb, k);
  finishHalfTile<R, NV>(acc, c, ldc, m, n, flags, bias, res, ldr, lo, hi);
}

/// gemmTile (f32_tile.h) on f16 data: one row of accumulators for a single row (a matrix-vector
/// product), one vector fewer for a partial tile that fits it.
template <int MR, int NV>
MIE_UK_INLINE void halfGemmTile(const uint16_t *__restrict a, const uint16_t *__restrict b,
                                int64_t ldb, uint16_t *c, int64_t ldc, int64_t k, int64_t m,
                                int64_t n, int64_t flags, const uint16_t *bias, const uint16_t *res,
                                int64_t ldr, float lo, float hi) {
  if (MR > 1 && m == 1)
    return halfTileRows<1, NV, MR>(a, b, ldb, c, ldc, k, m, n, flags, bias, res, ldr, lo, hi);
  withTileVectors<NV>(n, [&](auto v) MIE_UK_LAMBDA_INLINE {
    halfTileRows<MR, decltype(v)::value, MR>(a, b, ldb, c, ldc, k, m, n, flags, bias, res, ldr, lo,
                                             hi);
  });
}

} // namespace

#define MIE_UK_F16_CONCAT2(a, b) a##b
#define MIE_UK_F16_CONCAT(a, b) MIE_UK_F16_CONCAT2(a, b)
#define MIE_UK_F16_NAME(MR, NR) MIE_UK_F16_CONCAT(mie_uk_f16_gemm_##MR##x##NR##_, MIE_UK_F16_SUFFIX)

// The f16 tiles have the NEON f32 tiles' shapes; not inlined, as the f32 tiles are not.
#define MIE_UK_F16_TILE_avx512(MR, NR)
#define MIE_UK_F16_TILE_avx2(MR, NR)
#define MIE_UK_F16_TILE_neon(MR, NR)                                                               \
  extern "C" __attribute__((noinline)) void MIE_UK_F16_NAME(MR, NR)(                               \
      const uint16_t *a, int64_t a_off, const uint16_t *b, int64_t b_off, int64_t ldb,             \
      uint16_t *c, int64_t c_off, int64_t ldc, int64_t k, int64_t m, int64_t n, int64_t flags,     \
      const uint16_t *bias, int64_t bias_off, const uint16_t *res, int64_t res_off, int64_t ldr,   \
      float lo, float hi) {                                                                        \
    static_assert(NR % VL == 0, "NR must be a multiple of the vector length");                     \
    halfGemmTile<MR, NR / VL>(a + a_off, b + b_off, ldb, c + c_off, ldc, k, m, n, flags,           \
                              bias + bias_off, res + res_off, ldr, lo, hi);                        \
  }
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) MIE_UK_F16_TILE_##isa(MR, NR)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
#undef MIE_UK_F16_TILE_avx512
#undef MIE_UK_F16_TILE_avx2
#undef MIE_UK_F16_TILE_neon

#if !defined(MIE_UK_F16_TILES_ONLY)
// The panels: f16 elements copied as bits by the f32 packing templates (f32_gemm.cpp).
extern "C" __attribute__((always_inline)) void mie_uk_f16_pack_conv_nchw_neon(
    const uint16_t *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t KH, int64_t KW,
    int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OW, int64_t p0,
    int64_t np, int64_t k0, int64_t kc, int64_t nr, uint16_t *dst, int64_t dst_off) {
  packConvNchw(x + x_off, C, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OW, p0, np, k0, kc, nr,
               dst + dst_off);
}

extern "C" __attribute__((always_inline)) void
mie_uk_f16_pack_lhs_neon(const uint16_t *a, int64_t a_off, int64_t lda, int64_t trans, int64_t m0,
                         int64_t mc, int64_t k0, int64_t kc, int64_t mr, uint16_t *dst,
                         int64_t dst_off) {
  packLhs(a + a_off, lda, trans, m0, mc, k0, kc, mr, dst + dst_off);
}
#endif
