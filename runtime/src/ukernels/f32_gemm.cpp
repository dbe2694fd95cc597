//===- f32_gemm.cpp - f32 GEMM tiles and packing, one build per ISA -------===//
//
// Built three times (MIE_UK_ISA_AVX512 / _AVX2 / _NEON with the matching -m flags) into LLVM
// bitcode that the code generator links into generated modules, and natively for the tests. Each
// tile keeps its MR x NR accumulators in registers for the whole K block and applies the epilogue
// to them before the one store, so a fused convolution writes its output exactly once.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_vector.h"
#include "f32_tile.h"

using namespace mie_uk;

namespace {

/// Lanes [lo, hi) of d get row[iw0 + l * SW] for a stride SW > 1, where those lanes' reads lie in
/// the row [0, W) (stride 1 is copyFloats). Stride 2: whole vectors, then one masked vector for the
/// rest: a panel's segments are output-row pieces of 7 to 56 pixels, which LLVM's vectorized loops
/// (4 vectors an iteration) left almost entirely to their scalar remainders (resnet50's stride-2
/// layers 0.87-0.90x their time).
MIE_UK_INLINE void copyRowLanes(float *__restrict d, const float *row, int64_t W, int64_t iw0,
                                int64_t SW, int64_t lo, int64_t hi, float z) {
  int64_t l = lo;
  if (SW == 2) {
    const vf vz = splat(z); // as in copyFloats(): keeps LLVM from turning the loop into memcpy
    // A whole vector reads 2 * VL floats, one past its last lane's input: only inside the row.
    for (; l + VL <= hi && iw0 + 2 * (l + VL) <= W; l += VL)
      store(d + l, loadEven(row + iw0 + 2 * l) + vz);
    if (l < hi) { // at most VL lanes are left: their inputs are the 2 n - 1 floats from 2 l
      const int64_t n = hi - l;
      vf a, b;
      loadFirstPair(row + iw0 + 2 * l, 2 * n - 1, a, b);
      storeFirst(d + l, evenLanes(a, b) + vz, n);
    }
    return;
  }
  for (; l < hi; ++l)
    d[l] = row[iw0 + l * SW] + z;
}

/// Where one tap of one segment reads: lane l of [lo, hi) gets row[iw0 + l * SW] of the input row
/// at `row` (an offset in the channel's plane); the other lanes fall into the padding.
struct TapRun {
  int64_t row, iw0, lo, hi;
};

/// Copies one segment of one K row (a tap of the channel plane `xc`) into its panel lanes `ds`.
MIE_UK_INLINE void copyTapRun(float *__restrict ds, const float *xc, const TapRun &r, int64_t len,
                              int64_t W, int64_t SW, float z) {
  fillFloats(ds, r.lo, z);
  if (SW == 1)
    copyFloats(ds + r.lo, xc + r.row + r.iw0 + r.lo, r.hi - r.lo, z);
  else
    copyRowLanes(ds, xc + r.row, W, r.iw0, SW, r.lo, r.hi, z);
  fillFloats(ds + r.hi, len - r.hi, z);
}

/// Packs pixel panels of an NCHW convolution's implicit GEMM. A panel's pixels fall into runs along
/// output rows (segments), found once per panel. What a segment reads for a tap (kh, kw) is the same
/// for every channel, so the reads' bounds and offsets are worked out once per panel for all taps
/// (a table of taps x segments), and every K row only copies. Recomputed per K row (two divisions
/// by the stride each), they made resnet50's strided layers 1.02-1.08x slower (1 thread, in the model).
MIE_UK_INLINE void packConvNchw(const float *x, int64_t C, int64_t H, int64_t W, int64_t KH,
                                int64_t KW, int64_t SH, int64_t SW, int64_t PH, int64_t PW,
                                int64_t DH, int64_t DW, int64_t OW, int64_t p0, int64_t np,
                                int64_t k0, int64_t kc, int64_t nr, float *__restrict dst) {
  (void)C;
  const float z = opaqueZero();
  const int64_t taps = KH * KW;
  struct Segment {
    int64_t lane, len, ih0, iw0; // first lane, lanes, input row / column of tap (0, 0)
  };
  Segment segs[64]; // a panel has at most nr <= 64 segments (the widest tile has nr = 48)
  // The table of a panel: runs[tap * numSegs + seg]; larger windows x segment counts (a 1-wide
  // output, 7x7 windows and more) work the runs out per K row instead.
  constexpr int64_t kMaxRuns = 256;
  TapRun runs[kMaxRuns];
  auto runOf = [&](const Segment &sg, int64_t kh, int64_t kw) -> TapRun {
    const int64_t ih = sg.ih0 + kh * DH, iw0 = sg.iw0 + kw * DW;
    if (ih < 0 || ih >= H)
      return {0, 0, sg.len, sg.len}; // all padding: lanes [len, len) read nothing
    // Lanes [lo, hi) have 0 <= iw0 + l * SW < W.
    int64_t lo = iw0 < 0 ? (-iw0 + SW - 1) / SW : 0;
    int64_t hi = W - iw0 <= 0 ? 0 : (W - iw0 + SW - 1) / SW;
    lo = lo > sg.len ? sg.len : lo;
    hi = hi < lo ? lo : (hi > sg.len ? sg.len : hi);
    return {ih * W, iw0, lo, hi};
  };
  for (int64_t t = 0, panels = (np + nr - 1) / nr; t < panels; ++t) {
    const int64_t pbeg = p0 + t * nr;
    const int64_t cnt = np - t * nr < nr ? np - t * nr : nr;
    int64_t numSegs = 0;
    for (int64_t lane = 0, oh = pbeg / OW, ow = pbeg - (pbeg / OW) * OW; lane < cnt;) {
      const int64_t len = OW - ow < cnt - lane ? OW - ow : cnt - lane;
      segs[numSegs++] = {lane, len, oh * SH - PH, ow * SW - PW};
      lane += len;
      ow = 0;
      ++oh;
    }
    const bool tabled = taps * numSegs <= kMaxRuns;
    if (tabled)
      for (int64_t tap = 0; tap < taps; ++tap)
        for (int64_t sidx = 0; sidx < numSegs; ++sidx)
          runs[tap * numSegs + sidx] = runOf(segs[sidx], tap / KW, tap - (tap / KW) * KW);
    int64_t c = k0 / taps, tap = k0 - c * taps;
    for (int64_t kk = 0; kk < kc; ++kk) {
      float *d = dst + (t * kc + kk) * nr;
      const float *xc = x + c * H * W;
      for (int64_t sidx = 0; sidx < numSegs; ++sidx) {
        const Segment &sg = segs[sidx];
        const TapRun r = tabled ? runs[tap * numSegs + sidx] : runOf(sg, tap / KW, tap % KW);
        copyTapRun(d + sg.lane, xc, r, sg.len, W, SW, z);
      }
      fillFloats(d + cnt, nr - cnt, z);
      if (++tap == taps) {
        tap = 0;
        ++c;
      }
    }
  }
}

MIE_UK_INLINE void packLhs(const float *a, int64_t lda, int64_t trans, int64_t m0, int64_t mc,
                           int64_t k0, int64_t kc, int64_t mr, float *__restrict dst) {
  const float z = opaqueZero();
  for (int64_t t = 0, panels = (mc + mr - 1) / mr; t < panels; ++t) {
    const int64_t rows = mc - t * mr < mr ? mc - t * mr : mr;
    float *d = dst + t * kc * mr;
    const int64_t i0 = m0 + t * mr;
    if (trans) {
      for (int64_t kk = 0; kk < kc; ++kk) {
        const float *src = a + (k0 + kk) * lda + i0;
        copyFloats(d + kk * mr, src, rows, z);
        fillFloats(d + kk * mr + rows, mr - rows, z);
      }
    } else {
      for (int64_t i = 0; i < rows; ++i) {
        const float *src = a + (i0 + i) * lda + k0;
        for (int64_t kk = 0; kk < kc; ++kk)
          d[kk * mr + i] = src[kk];
      }
      for (int64_t i = rows; i < mr; ++i)
        for (int64_t kk = 0; kk < kc; ++kk)
          d[kk * mr + i] = z;
    }
  }
}

} // namespace

// Instantiate the tiles of this build's ISA only.
#define MIE_UK_WHEN_avx512(...)
#define MIE_UK_WHEN_avx2(...)
#define MIE_UK_WHEN_neon(...)
#if defined(MIE_UK_ISA_AVX512)
#undef MIE_UK_WHEN_avx512
#define MIE_UK_WHEN_avx512(...) __VA_ARGS__
#define MIE_UK_SUFFIX(name) name##_avx512
#elif defined(MIE_UK_ISA_AVX2)
#undef MIE_UK_WHEN_avx2
#define MIE_UK_WHEN_avx2(...) __VA_ARGS__
#define MIE_UK_SUFFIX(name) name##_avx2
#else
#undef MIE_UK_WHEN_neon
#define MIE_UK_WHEN_neon(...) __VA_ARGS__
#define MIE_UK_SUFFIX(name) name##_neon
#endif

#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff)                                                     \
  /* Not inlined: one copy per tile serves every call (the flags branch outside the K loop), which \
   */                                                                                              \
  /* halves compile time against an inlined copy per call site at no measured run-time cost. */    \
  MIE_UK_WHEN_##isa(extern "C" __attribute__((noinline)) void mie_uk_f32_gemm_##MR##x##NR##_##isa( \
      const float *a, int64_t a_off, const float *b, int64_t b_off, int64_t ldb, float *c,         \
      int64_t c_off, int64_t ldc, int64_t k, int64_t m, int64_t n, int64_t flags,                  \
      const float *bias, int64_t bias_off, const float *res, int64_t res_off, int64_t ldr,         \
      float lo, float hi) {                                                                        \
    static_assert(NR % VL == 0, "NR must be a multiple of the vector length");                     \
    prefetchTileRows<NR / VL>(c + c_off, ldc, m, flags, res + res_off, ldr);                       \
    gemmTile<MR, NR / VL, true>(a + a_off, b + b_off, ldb, c + c_off, ldc, k, m, n, flags,         \
                                bias + bias_off, res + res_off, ldr, lo, hi);                      \
  })
#include "f32_gemm_tiles.def"
#undef MIE_UK_F32_GEMM_TILE

extern "C" __attribute__((always_inline)) void MIE_UK_SUFFIX(mie_uk_f32_pack_conv_nchw)(
    const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t KH, int64_t KW,
    int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OW, int64_t p0,
    int64_t np, int64_t k0, int64_t kc, int64_t nr, float *dst, int64_t dst_off) {
  packConvNchw(x + x_off, C, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OW, p0, np, k0, kc, nr,
               dst + dst_off);
}

extern "C" __attribute__((always_inline)) void
MIE_UK_SUFFIX(mie_uk_f32_pack_lhs)(const float *a, int64_t a_off, int64_t lda, int64_t trans,
                                   int64_t m0, int64_t mc, int64_t k0, int64_t kc, int64_t mr,
                                   float *dst, int64_t dst_off) {
  packLhs(a + a_off, lda, trans, m0, mc, k0, kc, mr, dst + dst_off);
}
