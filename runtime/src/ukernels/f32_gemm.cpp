//===- f32_gemm.cpp - f32 GEMM tiles and packing, one build per ISA -------===//
//
// Built three times (MIE_UK_ISA_AVX512 / _AVX2 / _NEON with the matching -m flags) into LLVM
// bitcode that the code generator links into generated modules, and natively for the tests. Each
// tile keeps its MR x NR accumulators in registers for the whole K block and applies the epilogue
// to them before the one store, so a fused convolution writes its output exactly once.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_bf16.h"
#include "ukernel_vector.h"
#include "f32_tile.h"

using namespace mie_uk;

namespace {

/// Where one tap of one segment reads: lane l of [lo, hi) gets row[iw0 + l * SW] of the input row
/// at `row` (an offset in the channel's plane); the other lanes fall into the padding.
struct TapRun {
  int64_t row, iw0, lo, hi;
};

/// Lanes of a vector whose segment lanes v + l lie in [lo, hi) (v: the vector's first lane).
MIE_UK_INLINE vmask lanesWithin(vi l, int64_t v, int64_t lo, int64_t hi) {
  return __builtin_convertvector((l >= vi(int32_t(lo - v))) & (l < vi(int32_t(hi - v))), vmask);
}

/// One tap of one segment for the channels [cbeg, cend): lanes [0, len) of the K row of channel c
/// at ds + (c - cbeg) * dstride get xc[r.row + r.iw0 + l * SW] (xc: channel c's plane) for l in
/// [r.lo, r.hi) and zeros elsewhere. The masks depend on the tap and the segment only, so they are
/// worked out once for all channels, and a channel costs one or two masked loads (whose masked-off
/// lanes touch no memory: the padding reads nothing), a deinterleave for stride 2 and one masked
/// store per vector. Copying per K row with the bounds and fills recomputed each time cost
/// resnet50's stride-2 3x3 layers a quarter of their time in packing. T: float, or the bits of a
/// 16-bit type (the f16 tiles' panels): packing copies elements, so one template serves both.
template <typename T>
MIE_UK_INLINE void packTapSegment(T *__restrict ds, int64_t dstride, const T *x, int64_t plane,
                                  int64_t channels, const TapRun &r, int64_t len, int64_t SW) {
  typedef typename Lanes<T>::type V;
  const V zero = V(T(0));
  const vi l = laneIndex();
  for (int64_t v = 0; v < len; v += VL) {
    const vmask st = __builtin_convertvector(l < vi(int32_t(len - v)), vmask);
    T *d = ds + v;
    if (SW == 1) {
      const vmask ld = lanesWithin(l, v, r.lo, r.hi);
      const T *s = x + r.row + r.iw0 + v;
      for (int64_t c = 0; c < channels; ++c, s += plane, d += dstride)
        __builtin_masked_store(st, __builtin_masked_load(ld, s, zero), d);
    } else if (SW == 2) {
      // Lane v + j reads element 2 (v + j) of the row: element e of the pair (a: [0, VL),
      // b: [VL, 2 VL)) at s is lane j = e / 2's read when e is even.
      const vi even = (l & vi(1)) == vi(0);
      const vmask la = __builtin_convertvector(
          even & (l >= vi(int32_t(2 * (r.lo - v)))) & (l < vi(int32_t(2 * (r.hi - v)))), vmask);
      const vi lb = l + vi(int32_t(VL));
      const vmask lbm = __builtin_convertvector(
          even & (lb >= vi(int32_t(2 * (r.lo - v)))) & (lb < vi(int32_t(2 * (r.hi - v)))), vmask);
      const T *s = x + r.row + r.iw0 + 2 * v;
      for (int64_t c = 0; c < channels; ++c, s += plane, d += dstride) {
        const V a = __builtin_masked_load(la, s, zero);
        const V b = __builtin_masked_load(lbm, s + VL, zero);
        __builtin_masked_store(st, evenLanes(a, b), d);
      }
    } else {
      const int64_t n = len - v < VL ? len - v : VL;
      const T *s = x + r.row + r.iw0;
      for (int64_t c = 0; c < channels; ++c, s += plane, d += dstride)
        for (int64_t j = 0; j < n; ++j)
          d[j] = v + j >= r.lo && v + j < r.hi ? s[(v + j) * SW] : T(0);
    }
  }
}

/// Packs pixel panels of an NCHW convolution's implicit GEMM. A panel's pixels fall into runs along
/// output rows (segments), found once per panel. What a segment reads for a tap (kh, kw) is the
/// same for every channel, so the loops run tap, segment, then the block's channels of that tap (K
/// rows c * taps + tap): bounds and masks once per tap and segment, a few instructions per K row.
template <typename T>
MIE_UK_INLINE void packConvNchw(const T *x, int64_t C, int64_t H, int64_t W, int64_t KH,
                                int64_t KW, int64_t SH, int64_t SW, int64_t PH, int64_t PW,
                                int64_t DH, int64_t DW, int64_t OW, int64_t p0, int64_t np,
                                int64_t k0, int64_t kc, int64_t nr, T *__restrict dst) {
  (void)C;
  const T z = opaqueZeroOf<T>();
  const int64_t taps = KH * KW;
  struct Segment {
    int64_t lane, len, ih0, iw0; // first lane, lanes, input row / column of tap (0, 0)
  };
  Segment segs[64]; // a panel has at most nr <= 64 segments (the widest tile has nr = 48)
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
    T *panel = dst + t * kc * nr;
    for (int64_t tap = 0; tap < taps; ++tap) {
      // The block's K rows of this tap: channels c with k0 <= c * taps + tap < k0 + kc.
      const int64_t cbeg = (k0 - tap + taps - 1) / taps;
      const int64_t cend = (k0 + kc - tap + taps - 1) / taps;
      if (cend <= cbeg)
        continue;
      T *d = panel + (cbeg * taps + tap - k0) * nr;
      const T *xc = x + cbeg * H * W;
      const int64_t kh = tap / KW, kw = tap - kh * KW;
      for (int64_t sidx = 0; sidx < numSegs; ++sidx)
        packTapSegment(d + segs[sidx].lane, taps * nr, xc, H * W, cend - cbeg,
                       runOf(segs[sidx], kh, kw), segs[sidx].len, SW);
    }
    if (cnt < nr) // the lanes past the last pixel
      for (int64_t kk = 0; kk < kc; ++kk)
        fillElems(panel + kk * nr + cnt, nr - cnt, z);
  }
}

template <typename T>
MIE_UK_INLINE void packLhs(const T *a, int64_t lda, int64_t trans, int64_t m0, int64_t mc,
                           int64_t k0, int64_t kc, int64_t mr, T *__restrict dst) {
  const T z = opaqueZeroOf<T>();
  for (int64_t t = 0, panels = (mc + mr - 1) / mr; t < panels; ++t) {
    const int64_t rows = mc - t * mr < mr ? mc - t * mr : mr;
    T *d = dst + t * kc * mr;
    const int64_t i0 = m0 + t * mr;
    if (trans) {
      for (int64_t kk = 0; kk < kc; ++kk) {
        const T *src = a + (k0 + kk) * lda + i0;
        copyElems(d + kk * mr, src, rows, z);
        fillElems(d + kk * mr + rows, mr - rows, z);
      }
    } else {
      for (int64_t i = 0; i < rows; ++i) {
        const T *src = a + (i0 + i) * lda + k0;
        for (int64_t kk = 0; kk < kc; ++kk)
          d[kk * mr + i] = src[kk];
      }
      // The rows past the matrix, one k at a time: a contiguous (masked) store each. Row by row,
      // a constant kc unrolled the k loop into kc strided stores inside a loop over a run-time row
      // count, which loop strength reduction took 0.15 s to compile per GEMM of a dynamic package.
      if (rows < mr)
        for (int64_t kk = 0; kk < kc; ++kk)
          fillElems(d + kk * mr + rows, mr - rows, z);
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
    gemmTile<MR, NR / VL, true, true>(a + a_off, b + b_off, ldb, c + c_off, ldc, k, m, n, flags,   \
                                      bias + bias_off, res + res_off, ldr, lo, hi);                \
  })
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE

extern "C" __attribute__((always_inline)) void MIE_UK_SUFFIX(mie_uk_f32_pack_conv_nchw)(
    const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t KH, int64_t KW,
    int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OW, int64_t p0,
    int64_t np, int64_t k0, int64_t kc, int64_t nr, float *dst, int64_t dst_off) {
  packConvNchw(x + x_off, C, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OW, p0, np, k0, kc, nr,
               dst + dst_off);
}

// Not inlined either: one copy serves every GEMM kernel of a package. An inlined copy per kernel,
// specialized to its K, compiled a two-layer encoder in 1.15x the time (a dynamic package 1.2x)
// and ran no faster (bert_tiny 3 x 1, 1 x 7, 3 x 64 rows within 1%).
extern "C" __attribute__((noinline)) void
MIE_UK_SUFFIX(mie_uk_f32_pack_lhs)(const float *a, int64_t a_off, int64_t lda, int64_t trans,
                                   int64_t m0, int64_t mc, int64_t k0, int64_t kc, int64_t mr,
                                   float *dst, int64_t dst_off) {
  packLhs(a + a_off, lda, trans, m0, mc, k0, kc, mr, dst + dst_off);
}
