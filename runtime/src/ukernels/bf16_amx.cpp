//===- bf16_amx.cpp - bf16 GEMM tiles on Intel AMX, f32 accumulation -------===//
//
// The reduced-precision GEMM family for CPUs with AMX (Sapphire Rapids and later): a 32 x 32 block of
// C per call from bf16 panels, accumulated in f32 by TDPBF16PS in four tile registers (2 x 2 tiles
// of 16 x 16), then the same epilogue as the f32 tiles (f32_tile.h) on AVX-512 registers. One
// TDPBF16PS does 16 x 16 x 32 multiply-adds: measured here (one Sapphire Rapids class core, panels
// in L2) about 1,070 GFLOP/s against the f32 FMA peak of about 220 and the 2 x 32 of AVX512-BF16's
// VDPBF16PS. That gap, not the halved bytes, is why bf16 pays on these CPUs, and why this family
// uses AMX rather than VDPBF16PS.
//
// Built only for the `amx` ISA (-march=x86-64-v4 plus -mavx512bf16 -mamx-tile -mamx-bf16, with
// MIE_UK_ISA_AVX512 for the f32 helpers): as bitcode appended to the AVX-512 unit for the AMX target
// (ukernels.cpp with MIE_UK_AMX), and as its own object for the tests (its f32 helpers are inline,
// so it defines no symbol of the AVX-512 unit). The process must have asked the kernel for the
// AMX tile state first (Linux: arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)), or the first
// tile instruction faults.
//
// Packed layouts (bf16 as uint16_t; K padded with zeros to a multiple of 32):
//   A panel [K / 32][2][16][32]: per 32-k block, rows 0-15 then 16-31, each row 32 consecutive k:
//     exactly two tile loads of 1 KiB with a 64-byte stride.
//   B panel [K / 32][2][16][16][2]: per 32-k block, columns 0-15 then 16-31, each as 16 pairs of
//     k (VNNI: k = 2p and 2p + 1 of a column side by side), the layout TDPBF16PS reads B in.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_vector.h"
#include "f32_tile.h"

#include <immintrin.h>

using namespace mie_uk;

namespace {

/// The tile configuration: palette 1, tiles 0-3 the C blocks (16 rows of 16 floats), 4-5 the A
/// halves (16 rows of 32 bf16), 6-7 the B halves (16 pairs of 16 columns).
struct alignas(64) TileConfig {
  uint8_t palette = 1, startRow = 0, reserved[14] = {};
  uint16_t bytesPerRow[16] = {64, 64, 64, 64, 64, 64, 64, 64};
  uint8_t rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};

/// Rounds 16 floats to bf16, to nearest even (VCVTNEPS2BF16; NaN stays NaN).
MIE_UK_INLINE __m256i toBf16(vf x) { return (__m256i)_mm512_cvtneps_pbh((__m512)x); }

/// Interleaves the bf16 of two k rows of 16 columns into 16 VNNI pairs (row k first).
MIE_UK_INLINE __m512i pairRows(__m256i k0, __m256i k1) {
  // Element 2j takes k0[j] (index j), element 2j + 1 takes k1[j] (index 32 + j: the second source).
  const __m512i idx = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40, 8,
                                       39, 7, 38, 6, 37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0);
  return _mm512_permutex2var_epi16(_mm512_castsi256_si512(k0), idx, _mm512_castsi256_si512(k1));
}

/// 16 floats of a row at p (or at p, p + ld, ... when strided), `n` valid, zeros past them.
MIE_UK_INLINE vf loadRow(const float *p, int64_t stride, int64_t n) {
  if (stride == 1)
    return n >= VL ? load(p) : loadFirst(p, n);
  float tmp[VL];
  const float z = opaqueZero();
  for (int j = 0; j < VL; ++j)
    tmp[j] = j < n ? p[j * stride] + z : z;
  return load(tmp);
}

/// Lanes [0, n) of 16 set (n may be <= 0 or >= 16).
MIE_UK_INLINE __mmask16 firstLanes(int64_t n) {
  return n >= 16 ? __mmask16(0xffff) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1);
}

/// 16 bf16 at p widened to f32 (exact), `n` valid, zeros past them: masked-off lanes read nothing.
MIE_UK_INLINE vf loadBf16(const uint16_t *p, int64_t n) {
  const __m256i h = _mm256_maskz_loadu_epi16(firstLanes(n), p);
  return (vf)_mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

/// Stores lanes [0, n) of x rounded to bf16 at p.
MIE_UK_INLINE void storeBf16(uint16_t *p, vf x, int64_t n) {
  _mm256_mask_storeu_epi16(p, firstLanes(n), toBf16(x));
}

MIE_UK_INLINE float bf16ToFloat(uint16_t h) {
  union {
    uint32_t u;
    float f;
  } v = {uint32_t(h) << 16};
  return v.f;
}

/// 16 elements of a row of f32 or bf16 values (strided or not) as f32: the packing's source.
MIE_UK_INLINE vf loadRow(const uint16_t *p, int64_t stride, int64_t n) {
  if (stride == 1)
    return loadBf16(p, n);
  float tmp[VL];
  const float z = opaqueZero();
  for (int j = 0; j < VL; ++j)
    tmp[j] = j < n ? bf16ToFloat(p[j * stride]) + z : z;
  return load(tmp);
}

/// Rounds to bf16, to nearest even; NaN stays a (quiet) NaN. The scalar twin of toBf16.
MIE_UK_INLINE uint16_t floatToBf16(float x) {
  union {
    float f;
    uint32_t u;
  } v = {x};
  if ((v.u & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((v.u >> 16) | 0x40);
  v.u += 0x7fffu + ((v.u >> 16) & 1u);
  return uint16_t(v.u >> 16);
}

/// The A B products of one 32 x 32 block over k (a multiple of 32) into `out` [32][32] (f32).
MIE_UK_INLINE void amxProducts(const uint16_t *a, const uint16_t *b, int64_t k,
                               float (&out)[32][32]) {
  // Loading the configuration costs about as much as two TDPBF16PS; a call runs at least one 32-k
  // step (four of them), usually eight or more.
  static const TileConfig config;
  _tile_loadconfig(&config);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (int64_t p = 0; p < k; p += 32, a += 32 * 32, b += 32 * 32) {
    _tile_loadd(4, a, 64);
    _tile_loadd(5, a + 16 * 32, 64);
    _tile_loadd(6, b, 64);
    _tile_loadd(7, b + 16 * 32, 64);
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6);
    _tile_dpbf16ps(3, 5, 7);
  }
  _tile_stored(0, &out[0][0], 128);
  _tile_stored(1, &out[0][16], 128);
  _tile_stored(2, &out[16][0], 128);
  _tile_stored(3, &out[16][16], 128);
  // Hands the tile state back: a thread holding it has 8 KiB more to save on every context switch.
  _tile_release();
}

/// A panels [ceil(mc / 32)][ceil(kc / 32)][2][16][32] of rows [m0, m0 + mc) and K columns
/// [k0, k0 + kc) of A (f32 or bf16; A[i][k] at a[i * lda + k], or a[k * lda + i] when `trans`),
/// rounded to bf16 (exact for a bf16 source), zeros past mc and kc.
template <typename T>
MIE_UK_INLINE void packA(const T *a, int64_t lda, int64_t trans, int64_t m0, int64_t mc, int64_t k0,
                         int64_t kc, uint16_t *dst) {
  const int64_t kb = (kc + 31) / 32;
  for (int64_t pm = 0; pm < mc; pm += 32)
    for (int64_t blk = 0; blk < kb; ++blk)
      for (int64_t r = 0; r < 32; ++r) {
        uint16_t *d = dst + (pm / 32) * kb * 1024 + blk * 1024 + r * 32;
        const int64_t i = m0 + pm + r, kk = k0 + blk * 32;
        const int64_t valid = pm + r < mc ? (kc - blk * 32 < 32 ? kc - blk * 32 : 32) : 0;
        const T *row = trans ? a + kk * lda + i : a + i * lda + kk;
        const int64_t stride = trans ? lda : 1;
        for (int h = 0; h < 2; ++h) {
          const int64_t nh = valid - h * VL;
          const vf x = nh > 0 ? loadRow(row + h * VL * stride, stride, nh) : splat(0.0f);
          _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + h * VL), toBf16(x));
        }
      }
}

} // namespace

/// One 32 x 32 block: C[0:m, 0:n] (m, n <= 32) = or += A B over `k` (a multiple of 32) from one
/// packed A panel and one packed B panel, then the epilogue and the store as for the f32 tiles
/// (flags, bias, residual, clamp; MIE_UK_TRANSPOSE_C). The C blocks go through a 4 KiB scratch in
/// L1: AMX stores whole tile rows, while C's block may be partial, transposed or in place over a
/// residual.
extern "C" __attribute__((noinline)) void
mie_uk_bf16_gemm_32x32_amx(const uint16_t *a, int64_t a_off, const uint16_t *b, int64_t b_off,
                           float *c, int64_t c_off, int64_t ldc, int64_t k, int64_t m, int64_t n,
                           int64_t flags, const float *bias, int64_t bias_off, const float *res,
                           int64_t res_off, int64_t ldr, float lo, float hi) {
  alignas(64) float scratch[32][32];
  amxProducts(a + a_off, b + b_off, k, scratch);

  c += c_off;
  bias += bias_off;
  res += res_off;
  const bool transposed = flags & MIE_UK_TRANSPOSE_C;
  for (int64_t i0 = 0; i0 < m; i0 += 8) {
    const int64_t rows = m - i0 < 8 ? m - i0 : 8;
    vf acc[8][2];
    for (int i = 0; i < 8; ++i)
      for (int v = 0; v < 2; ++v)
        acc[i][v] = load(&scratch[i0 + i][v * VL]);
    // Row i0 of C, its residual and (per row) its bias; transposed, row i is column i of memory.
    float *cr = c + (transposed ? i0 : i0 * ldc);
    const float *rr = res + (transposed ? i0 : i0 * ldr);
    const float *br = flags & MIE_UK_BIAS_PER_COL ? bias : bias + i0;
    if (flags & MIE_UK_ACCUMULATE) {
      vf old[8][2];
      loadTile<8, 2>(old, cr, ldc, rows, n, transposed);
      for (int i = 0; i < 8; ++i)
        for (int v = 0; v < 2; ++v)
          acc[i][v] += old[i][v];
    }
    finishTile<8, 2>(acc, cr, ldc, rows, n, flags, br, rr, ldr, lo, hi);
  }
}

/// The 32 x 32 block of a bf16 product: as mie_uk_bf16_gemm_32x32_amx, but C, the bias and the
/// residual hold bf16 (as uint16_t). The epilogue runs on the f32 sums (bias and residual widened,
/// exactly), and C is rounded to bf16 once, at the store: a bf16 layer gets one rounding, not one
/// per K block (the compiler gives it all of K in one call). A residual read in place (the block
/// of C itself) is read whole before the store.
extern "C" __attribute__((noinline)) void mie_uk_bf16_gemm_32x32_amx_bf16c(
    const uint16_t *a, int64_t a_off, const uint16_t *b, int64_t b_off, uint16_t *c,
    int64_t c_off, int64_t ldc, int64_t k, int64_t m, int64_t n, int64_t flags,
    const uint16_t *bias, int64_t bias_off, const uint16_t *res, int64_t res_off, int64_t ldr,
    float lo, float hi) {
  alignas(64) float sums[32][32];
  amxProducts(a + a_off, b + b_off, k, sums);
  c += c_off;
  const bool transposed = flags & MIE_UK_TRANSPOSE_C;
  if (!transposed && !(flags & MIE_UK_ACCUMULATE)) {
    // Row by row in one pass: the epilogue on two vectors of sums, then the bf16 store. With a
    // short K (a 1x1 convolution over 16 or 32 channels) this pass, not the products, is most of
    // the call, and the general path below makes three. A residual read in place is read a row
    // at a time, each row before it is stored.
    const bool epilogue = flags & MIE_UK_EPILOGUE;
    const int act = int((flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
    const bool perCol = flags & MIE_UK_BIAS_PER_COL;
    bias += bias_off;
    res += res_off;
    for (int64_t i = 0; i < m; ++i) {
      const vf rowBias = epilogue && (flags & MIE_UK_BIAS) && !perCol ? splat(bf16ToFloat(bias[i]))
                                                                      : splat(0.0f);
      for (int h = 0; h < 2 && h * VL < n; ++h) {
        const int64_t nh = n - h * VL;
        vf v = load(&sums[i][h * VL]);
        if (epilogue) {
          if (flags & MIE_UK_BIAS)
            v += perCol ? loadBf16(bias + h * VL, nh) : rowBias;
          if (flags & MIE_UK_RESIDUAL)
            v += loadBf16(res + i * ldr + h * VL, nh);
          if (act != MIE_UK_ACT_NONE)
            v = activate(v, act);
          if (flags & MIE_UK_CLAMP)
            v = clamp(v, lo, hi);
        }
        storeBf16(c + i * ldc + h * VL, v, nh);
      }
    }
    return;
  }
  // C(i, j) of the product: row i of memory, or column i when transposed.
  auto at = [&](int64_t i, int64_t j, int64_t ld) { return transposed ? j * ld + i : i * ld + j; };
  const bool epilogue = flags & MIE_UK_EPILOGUE;
  alignas(64) float resF[32][32], biasF[32], out[32][32];
  if (epilogue && (flags & MIE_UK_RESIDUAL)) {
    res += res_off;
    for (int64_t i = 0; i < m; ++i)
      if (transposed) {
        for (int64_t j = 0; j < n; ++j)
          resF[i][j] = bf16ToFloat(res[at(i, j, ldr)]);
      } else {
        for (int h = 0; h < 2; ++h)
          store(&resF[i][h * VL], loadBf16(res + i * ldr + h * VL, n - h * VL));
      }
  }
  if (epilogue && (flags & MIE_UK_BIAS)) {
    bias += bias_off;
    const int64_t count = flags & MIE_UK_BIAS_PER_COL ? n : m;
    for (int64_t j = 0; j < count; ++j)
      biasF[j] = bf16ToFloat(bias[j]);
  }
  if (flags & MIE_UK_ACCUMULATE)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        sums[i][j] += bf16ToFloat(c[at(i, j, ldc)]);
  // The f32 epilogue into `out` (row-major, the product's orientation), then the bf16 store.
  const int64_t f32Flags = flags & ~int64_t(MIE_UK_TRANSPOSE_C | MIE_UK_ACCUMULATE);
  for (int64_t i0 = 0; i0 < m; i0 += 8) {
    const int64_t rows = m - i0 < 8 ? m - i0 : 8;
    vf acc[8][2];
    for (int i = 0; i < 8; ++i)
      for (int v = 0; v < 2; ++v)
        acc[i][v] = load(&sums[i0 + i][v * VL]);
    finishTile<8, 2>(acc, &out[i0][0], 32, rows, n, f32Flags,
                     flags & MIE_UK_BIAS_PER_COL ? biasF : biasF + i0, &resF[i0][0], 32, lo, hi);
  }
  for (int64_t i = 0; i < m; ++i)
    if (transposed) {
      for (int64_t j = 0; j < n; ++j)
        c[at(i, j, ldc)] = floatToBf16(out[i][j]);
    } else {
      for (int h = 0; h < 2; ++h)
        storeBf16(c + i * ldc + h * VL, load(&out[i][h * VL]), n - h * VL);
    }
}

/// A panels from f32 rows (packA): the activation of an f32 product computed in bf16.
extern "C" void mie_uk_bf16_pack_a_amx(const float *a, int64_t a_off, int64_t lda, int64_t trans,
                                       int64_t m0, int64_t mc, int64_t k0, int64_t kc,
                                       uint16_t *dst, int64_t dst_off) {
  packA(a + a_off, lda, trans, m0, mc, k0, kc, dst + dst_off);
}

/// A panels from bf16 rows (packA): the activation of a bf16 product.
extern "C" void mie_uk_bf16_pack_a_amx_bf16(const uint16_t *a, int64_t a_off, int64_t lda,
                                            int64_t trans, int64_t m0, int64_t mc, int64_t k0,
                                            int64_t kc, uint16_t *dst, int64_t dst_off) {
  packA(a + a_off, lda, trans, m0, mc, k0, kc, dst + dst_off);
}

/// B panels from f32 columns [n0, n0 + nc) and K rows [k0, k0 + kc) of B (B[k][j] at
/// b[b_off + k * ldb + j], or b[b_off + j * ldb + k] when `trans`): ceil(nc / 32) panels of
/// ceil(kc / 32) blocks [2][16][16][2] (VNNI pairs), rounded to bf16, zeros past nc and kc. The
/// compiler packs constant weights the same way at compile time (mie-pack-weights).
extern "C" void mie_uk_bf16_pack_b_amx(const float *b, int64_t b_off, int64_t ldb, int64_t trans,
                                       int64_t n0, int64_t nc, int64_t k0, int64_t kc,
                                       uint16_t *dst, int64_t dst_off) {
  b += b_off;
  dst += dst_off;
  const int64_t kb = (kc + 31) / 32;
  // Column j0 + [0, 16) of K row kk, `cols` valid, zeros past kc.
  auto row = [&](int64_t kk, int64_t j0, int64_t cols) -> vf {
    if (kk >= kc || cols <= 0)
      return splat(0.0f);
    return trans ? loadRow(b + (n0 + j0) * ldb + k0 + kk, ldb, cols)
                 : loadRow(b + (k0 + kk) * ldb + n0 + j0, 1, cols);
  };
  for (int64_t pn = 0; pn < nc; pn += 32)
    for (int64_t blk = 0; blk < kb; ++blk)
      for (int h = 0; h < 2; ++h) {
        const int64_t j0 = pn + h * 16, cols = nc - j0 < 16 ? nc - j0 : 16;
        uint16_t *d = dst + (pn / 32) * kb * 1024 + blk * 1024 + h * 512;
        for (int64_t p = 0; p < 16; ++p) {
          const int64_t kk = blk * 32 + 2 * p;
          const __m512i pairs = pairRows(toBf16(row(kk, j0, cols)), toBf16(row(kk + 1, j0, cols)));
          _mm512_storeu_si512(d + p * 32, pairs);
        }
      }
}

namespace {

/// Lanes [lo, hi) of 32 (0 <= lo <= hi <= 32).
MIE_UK_INLINE __mmask32 laneRange(int64_t lo, int64_t hi) {
  const uint64_t upTo = hi >= 32 ? 0xffffffffull : (1ull << hi) - 1;
  return __mmask32(upTo & ~((1ull << lo) - 1));
}

/// One tap of one run of output pixels (a segment of a panel along an output row): lanes
/// [lane + lo, lane + hi) of the panel read x[c][ih][iw0 + (l - lane) SW] (l: the lane), the other
/// lanes of [lane, lane + len) are padding.
struct AmxTapRun {
  int64_t lane, len, offset, lo, hi;
  bool inside; // the input row exists (else the whole segment is padding)
};

/// Writes the segment's lanes of `channels` K rows (one per channel, `rowStride` apart, the
/// channels' planes `plane` elements apart) from x + r.offset: one or two masked loads per row
/// (masked-off lanes read nothing, so the padding costs no memory access) and one masked store.
MIE_UK_INLINE void packConvSegment(uint16_t *__restrict rows, int64_t rowStride, const uint16_t *x,
                                   int64_t plane, int64_t channels, const AmxTapRun &r,
                                   int64_t SW) {
  const __mmask32 st = laneRange(r.lane, r.lane + r.len);
  if (!r.inside || r.hi <= r.lo) {
    for (int64_t c = 0; c < channels; ++c)
      _mm512_mask_storeu_epi16(rows + c * rowStride, st, _mm512_setzero_si512());
    return;
  }
  const __mmask32 live = laneRange(r.lane + r.lo, r.lane + r.hi);
  if (SW == 1) {
    // Lane l reads s[l] with s = x + offset - lane: lane `lane` reads the segment's first column.
    const uint16_t *s = x + r.offset - r.lane;
    for (int64_t c = 0; c < channels; ++c, s += plane)
      _mm512_mask_storeu_epi16(rows + c * rowStride, st, _mm512_maskz_loadu_epi16(live, s));
  } else if (SW == 2) {
    // Lane l reads element 2 l of s = x + offset - 2 lane: the even elements of 64, gathered by one
    // two-source permutation; only the elements a live lane takes are loaded.
    const uint64_t liveBits = live;
    uint64_t even = 0;
    for (int j = 0; j < 32; ++j)
      even |= ((liveBits >> j) & 1ull) << (2 * j);
    const __mmask32 lowHalf = __mmask32(even), highHalf = __mmask32(even >> 32);
    alignas(64) static const uint16_t kEvenIndex[32] = {0,  2,  4,  6,  8,  10, 12, 14,
                                                         16, 18, 20, 22, 24, 26, 28, 30,
                                                         32, 34, 36, 38, 40, 42, 44, 46,
                                                         48, 50, 52, 54, 56, 58, 60, 62};
    const __m512i idx = _mm512_load_si512(kEvenIndex);
    const uint16_t *s = x + r.offset - 2 * r.lane;
    for (int64_t c = 0; c < channels; ++c, s += plane) {
      const __m512i a = _mm512_maskz_loadu_epi16(lowHalf, s);
      const __m512i b = _mm512_maskz_loadu_epi16(highHalf, s + 32);
      _mm512_mask_storeu_epi16(rows + c * rowStride, st, _mm512_permutex2var_epi16(a, idx, b));
    }
  } else {
    for (int64_t c = 0; c < channels; ++c) {
      const uint16_t *s = x + r.offset + c * plane;
      uint16_t *d = rows + c * rowStride + r.lane;
      for (int64_t l = 0; l < r.len; ++l)
        d[l] = l >= r.lo && l < r.hi ? s[l * SW] : uint16_t(0);
    }
  }
}

} // namespace

/// B panels of a bf16 NCHW convolution's implicit GEMM on the AMX tiles (K = C * KH * KW in
/// (c, kh, kw) order, N = output pixels): pixels [p0, p0 + np) of one image x + x_off [C, H, W]
/// into ceil(np / 32) panels [K32 / 32][2][16][16][2] (K32: K rounded up to 32; VNNI pairs of k,
/// the layout of mie_uk_bf16_pack_b_amx), zeros where the window leaves the image, past K and past
/// np. The K rows of up to 32 channels at a time go to a k-major staging block first (the bounds
/// and masks of a tap and an output-row segment are worked out once for all those channels, as
/// in the f32 packing), then pairs of rows are interleaved into VNNI order.
extern "C" void mie_uk_bf16_pack_conv_amx(const uint16_t *x, int64_t x_off, int64_t C, int64_t H,
                                          int64_t W, int64_t KH, int64_t KW, int64_t SH,
                                          int64_t SW, int64_t PH, int64_t PW, int64_t DH,
                                          int64_t DW, int64_t OW, int64_t p0, int64_t np,
                                          uint16_t *dst, int64_t dst_off) {
  constexpr int64_t kChunk = 32; // channels per staging block: their K rows start on a 32-k block
  x += x_off;
  dst += dst_off;
  const int64_t taps = KH * KW, K = C * taps, kb = (K + 31) / 32;
  alignas(64) uint16_t staging[kChunk * MIE_UK_BF16_AMX_CONV_MAX_TAPS][32];
  struct Segment {
    int64_t lane, len, ih0, iw0; // first lane, lanes, input row / column of tap (0, 0)
  };
  for (int64_t t = 0, panels = (np + 31) / 32; t < panels; ++t) {
    const int64_t pbeg = p0 + t * 32, cnt = np - t * 32 < 32 ? np - t * 32 : 32;
    Segment segs[32];
    int64_t numSegs = 0;
    for (int64_t lane = 0, oh = pbeg / OW, ow = pbeg % OW; lane < cnt; ow = 0, ++oh) {
      const int64_t len = OW - ow < cnt - lane ? OW - ow : cnt - lane;
      segs[numSegs++] = {lane, len, oh * SH - PH, ow * SW - PW};
      lane += len;
    }
    uint16_t *panel = dst + t * kb * 1024;
    for (int64_t c0 = 0; c0 < C; c0 += kChunk) {
      const int64_t channels = C - c0 < kChunk ? C - c0 : kChunk;
      const int64_t rows = channels * taps, paddedRows = (rows + 31) / 32 * 32;
      for (int64_t tap = 0; tap < taps; ++tap) {
        const int64_t kh = tap / KW, kw = tap % KW;
        for (int64_t s = 0; s < numSegs; ++s) {
          const Segment &sg = segs[s];
          const int64_t ih = sg.ih0 + kh * DH, iw0 = sg.iw0 + kw * DW;
          // Lanes [lo, hi) of the segment have 0 <= iw0 + l SW < W.
          int64_t lo = iw0 < 0 ? (-iw0 + SW - 1) / SW : 0;
          int64_t hi = W - iw0 <= 0 ? 0 : (W - iw0 + SW - 1) / SW;
          lo = lo > sg.len ? sg.len : lo;
          hi = hi < lo ? lo : (hi > sg.len ? sg.len : hi);
          const AmxTapRun run{sg.lane, sg.len, ih * W + iw0, lo, hi, ih >= 0 && ih < H};
          packConvSegment(&staging[tap][0], taps * 32, x + c0 * H * W, H * W, channels, run, SW);
        }
      }
      // Lanes past the panel's pixels and rows past K hold zeros.
      if (cnt < 32)
        for (int64_t r = 0; r < rows; ++r)
          _mm512_mask_storeu_epi16(&staging[r][0], laneRange(cnt, 32), _mm512_setzero_si512());
      for (int64_t r = rows; r < paddedRows; ++r)
        _mm512_store_si512(&staging[r][0], _mm512_setzero_si512());
      // Rows 2p and 2p + 1 of each 32-row block side by side: the block's two halves of columns.
      uint16_t *blocks = panel + (c0 * taps / 32) * 1024;
      for (int64_t r0 = 0; r0 < paddedRows; r0 += 32, blocks += 1024)
        for (int h = 0; h < 2; ++h)
          for (int64_t p = 0; p < 16; ++p) {
            const __m256i k0 = _mm256_load_si256(
                reinterpret_cast<const __m256i *>(&staging[r0 + 2 * p][h * 16]));
            const __m256i k1 = _mm256_load_si256(
                reinterpret_cast<const __m256i *>(&staging[r0 + 2 * p + 1][h * 16]));
            _mm512_storeu_si512(blocks + h * 512 + p * 32, pairRows(k0, k1));
          }
    }
  }
}
