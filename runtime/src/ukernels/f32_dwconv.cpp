//===- f32_dwconv.cpp - depthwise NCHW convolution, one build per ISA -----===//
//
// Output pixels of a row in vector lanes; blocks of output rows x vectors are accumulated in
// registers over the whole KH x KW window (several rows at once, so short rows still run
// independent FMA chains), and the epilogue is applied before the one store.
//
// On x86 (masked vector loads) stride 1, and stride 2 with windows up to 3 wide, read the taps
// straight from the image: a tap's vector is one load at its column offset (stride 1) or the
// even or odd lanes of two loads (stride 2), masked where the window leaves the image (the masks
// computed once per block and tap), and rows outside the image are skipped.
// Elsewhere, and for other strides, each channel's plane is first copied into a zero-padded
// scratch plane (stride 2 split into even and odd columns); other strides gather lane by lane.
// The copy was most of the time: mobilenet_v2's stride-2 layer over a 112x112 map spent 0.4 of
// its 0.5 ms writing the split plane, and 7x7 maps paid a row's padding per channel.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_bf16.h"
#include "ukernel_vector.h"

using namespace mie_uk;

namespace {

MIE_UK_INLINE vf loadStrided(const float *p, int64_t stride) {
  if (stride == 1)
    return load(p);
  float tmp[VL];
  for (int l = 0; l < VL; ++l)
    tmp[l] = p[l * stride];
  return load(tmp);
}

/// Where a channel's taps are read: `plane` rows `ld` apart, tap (kh, kw) of output (oh, ow) at
/// row oh * SH + kh * DH, column ow * colScale + tapCol(kw), lanes `laneStride` apart. Stride 2
/// (undilated along W) splits each padded row into its even and odd columns (half rows `ld / 2`
/// long), so every tap reads whole contiguous vectors: the deinterleave is paid once per input
/// element, not once per tap.
struct DwPlane {
  const float *plane;
  int64_t ld, SH, DH, colScale, laneStride;
  // tapCol(kw) = (kw >> tapShift) * tapStep + (kw & tapOddMask) * tapOddOffset: kw * DW on a plain
  // plane, (kw & 1) * (ld / 2) + kw / 2 on a split one.
  int64_t tapShift, tapStep, tapOddMask, tapOddOffset;
  int64_t tapCol(int64_t kw) const {
    return (kw >> tapShift) * tapStep + (kw & tapOddMask) * tapOddOffset;
  }

  /// A padded plane as the image has it: lanes SW apart, tap kw at column kw * DW.
  static DwPlane plain(const float *plane, int64_t ld, int64_t SH, int64_t DH, int64_t SW,
                       int64_t DW) {
    return {plane, ld, SH, DH, SW, SW, 0, DW, 0, 0};
  }
  /// A stride-2 plane split into even and odd half rows: contiguous lanes, tap kw in the half
  /// kw & 1 at column kw / 2.
  static DwPlane split(const float *plane, int64_t ld, int64_t SH, int64_t DH) {
    return {plane, ld, SH, DH, 1, 1, 1, 1, 1, ld / 2};
  }

  /// The padded row of output row oh's tap row kh (the padding is in the plane: never null).
  const float *row(int64_t oh, int64_t kh) const { return plane + (oh * SH + kh * DH) * ld; }
  /// Tap kw of the VL output pixels from ow0: an offset into a padded row.
  struct Tap {
    int64_t off;
  };
  Tap prepare(int64_t ow0, int64_t kw) const { return {ow0 * colScale + tapCol(kw)}; }
  __attribute__((always_inline)) vf tap(const float *r, const Tap &t) const {
    return loadStrided(r + t.off, laneStride);
  }
};

/// The epilogue and the store of an R x NU block of output vectors from (oh0, ow0), the last
/// vector of a row cut at OW.
template <int R, int NU, class O>
MIE_UK_INLINE void storeDwBlock(vf (&acc)[R][NU], int64_t oh0, int64_t ow0, int64_t OW,
                                O *__restrict out, const O *res, int64_t flags, float bias,
                                float lo, float hi, float z) {
  for (int r = 0; r < R; ++r)
    for (int u = 0; u < NU; ++u) {
      const int64_t base = (oh0 + r) * OW + ow0 + u * VL;
      const int64_t rest = OW - (ow0 + u * VL);
      const int64_t valid = rest < VL ? rest : VL;
      // The residual as f32 (a bf16 one widened), for the f32 epilogue.
      float resRow[VL];
      if (res)
        store(resRow, loadFirstElems(res + base, valid));
      vf y = epilogueVector(acc[r][u], flags, bias, res ? resRow : nullptr, valid, lo, hi);
      storeElems(out + base, y, valid, z);
    }
}

#if MIE_UK_VL >= 8
/// Where a channel's taps are read without a scratch plane: the image itself, rows W apart, for
/// stride 1 (any dilation) and stride 2 (undilated along W). Lanes that fall outside the image
/// are zero (masked loads, which touch no memory there); rows outside it are skipped.
template <class T> struct DwImage {
  const T *x;
  int64_t H, W, SH, SW, PH, PW, DH, DW;
  /// The input row of output row oh's tap row kh, or null when it lies in the padding.
  const T *row(int64_t oh, int64_t kh) const {
    const int64_t ih = oh * SH - PH + kh * DH;
    return ih >= 0 && ih < H ? x + ih * W : nullptr;
  }
  /// Tap kw of the VL output pixels from ow0: the column of the (first) load, whether the
  /// loads stay inside the row, and if not the masks of the lanes that do (computed once per
  /// block and tap, not per row).
  struct Tap {
    int64_t c;
    bool inside, odd;
    vmask m0, m1;
  };
  vmask columnsMask(int64_t c) const {
    const vi col = laneIndex() + vi(int32_t(c));
    return __builtin_convertvector((col >= vi(0)) & (col < vi(int32_t(W))), vmask);
  }
  Tap prepare(int64_t ow0, int64_t kw) const {
    Tap t;
    const int64_t first = ow0 * SW - PW;
    // Stride 2: pixel l reads column first + 2 l + kw, the even or odd lanes of the pair of
    // vectors from first + (kw & ~1) (taps kw and kw + 1 share their loads).
    t.c = first + (SW == 1 ? kw * DW : (kw & ~int64_t(1)));
    t.odd = SW == 2 && (kw & 1);
    const int64_t reach = SW == 1 ? VL : 2 * VL;
    t.inside = t.c >= 0 && t.c + reach <= W;
    if (!t.inside) {
      t.m0 = columnsMask(t.c);
      if (SW == 2)
        t.m1 = columnsMask(t.c + VL);
    }
    return t;
  }
  __attribute__((always_inline)) vf tap(const T *r, const Tap &t) const {
    const vf a = t.inside ? loadElems(r + t.c) : maskedLoadElems(t.m0, r + t.c);
    if (SW == 1)
      return a;
    const vf b = t.inside ? loadElems(r + t.c + VL) : maskedLoadElems(t.m1, r + t.c + VL);
    return t.odd ? oddLanes(a, b) : evenLanes(a, b);
  }
  /// Stride 2: the even and the odd lanes of a tap pair's two loads (taps kw and kw + 1).
  __attribute__((always_inline)) void tapPair(const T *r, const Tap &t, vf &even,
                                              vf &odd) const {
    const vf a = t.inside ? loadElems(r + t.c) : maskedLoadElems(t.m0, r + t.c);
    const vf b = t.inside ? loadElems(r + t.c + VL) : maskedLoadElems(t.m1, r + t.c + VL);
    even = evenLanes(a, b);
    odd = oddLanes(a, b);
  }
};

/// R output rows x NU vectors of a 3x3 undilated window of stride S (1 or 2) read from the image:
/// each of the (R - 1) S + 3 input rows the block reads is loaded once and serves every output row
/// whose window holds it (stride 2: taps 0 and 1 from one pair of loads, tap 2 from the next). The
/// generic block loads every (tap, output row) pair itself: at stride 2, 36 loads and 18 shuffles
/// per 2 x 1 vectors against 20 and 15 here (mobilenet_v2's stride-2 layers 0.47-0.74x their
/// time; they were bound by loads, not memory).
template <int S, int R, int NU, class T, class O>
MIE_UK_INLINE void dwconvBlock3x3(const DwImage<T> &src, int64_t oh0, int64_t ow0, int64_t OW,
                                  const float *__restrict w, O *__restrict out, const O *res,
                                  int64_t flags, float bias, float lo, float hi, float z) {
  vf acc[R][NU];
  for (int r = 0; r < R; ++r)
    for (int u = 0; u < NU; ++u)
      acc[r][u] = splat(0.0f);
  // Stride 2: the pairs of loads of taps 0 and 1 (taps[0]), and of tap 2; stride 1: taps 0, 1, 2.
  typename DwImage<T>::Tap taps[3][NU];
  for (int u = 0; u < NU; ++u)
    for (int kw = 0; kw < 3; kw += S == 2 ? 2 : 1)
      taps[kw][u] = src.prepare(ow0 + u * VL, kw);
  for (int ir = 0; ir < (R - 1) * S + 3; ++ir) {
    // Input row ir of the block is tap row kh = ir - S r of output row r.
    const T *row = src.row(oh0, ir);
    if (!row)
      continue;
    for (int u = 0; u < NU; ++u) {
      vf t0, t1, t2;
      if constexpr (S == 2) {
        vf unused;
        src.tapPair(row, taps[0][u], t0, t1);
        src.tapPair(row, taps[2][u], t2, unused);
      } else {
        t0 = src.tap(row, taps[0][u]);
        t1 = src.tap(row, taps[1][u]);
        t2 = src.tap(row, taps[2][u]);
      }
      for (int r = 0; r < R; ++r) {
        const int kh = ir - S * r;
        if (kh < 0 || kh > 2)
          continue;
        acc[r][u] = fma(splat(w[kh * 3]), t0, acc[r][u]);
        acc[r][u] = fma(splat(w[kh * 3 + 1]), t1, acc[r][u]);
        acc[r][u] = fma(splat(w[kh * 3 + 2]), t2, acc[r][u]);
      }
    }
  }
  storeDwBlock<R, NU>(acc, oh0, ow0, OW, out, res, flags, bias, lo, hi, z);
}
#endif

/// R output rows [oh0, oh0 + R) x NU vectors from column ow0, over the whole window: R x NU
/// independent accumulators, so short rows (7 or 14 pixels: one or two vectors) still keep
/// several FMA chains in flight, and each weight broadcast serves all of them. Epilogue, store.
/// `Src` is where the taps come from: a DwPlane or a DwImage.
template <class Src> constexpr bool kIsImage = false;
#if MIE_UK_VL >= 8
template <class T> constexpr bool kIsImage<DwImage<T>> = true;
#endif

template <int R, int NU, class Src, class O>
MIE_UK_INLINE void dwconvBlock(const Src &src, int64_t oh0, int64_t ow0, int64_t KH, int64_t KW,
                               int64_t OW, const float *__restrict w, O *__restrict out,
                               const O *res, int64_t flags, float bias, float lo, float hi,
                               float z) {
#if MIE_UK_VL >= 8
  if constexpr (kIsImage<Src>) {
    if (KH == 3 && KW == 3 && src.DH == 1 && src.DW == 1 && src.SH == src.SW) {
      if (src.SH == 2)
        return dwconvBlock3x3<2, R, NU>(src, oh0, ow0, OW, w, out, res, flags, bias, lo, hi, z);
      // Stride 1 pays on short rows with AVX-512 (tall blocks share more rows: 14x14 and 7x7 maps
      // 0.9x); on rows of four vectors its twelve taps' masks and offsets cost what the loads
      // saved, and AVX2's 16 registers do not hold its blocks (1.1-1.15x slower).
      if (src.SH == 1 && VL == 16 && NU <= 2)
        return dwconvBlock3x3<1, R, NU>(src, oh0, ow0, OW, w, out, res, flags, bias, lo, hi, z);
    }
  }
#endif
  vf acc[R][NU];
  for (int r = 0; r < R; ++r)
    for (int u = 0; u < NU; ++u)
      acc[r][u] = splat(0.0f);
  for (int64_t kw = 0; kw < KW; ++kw) {
    typename Src::Tap taps[NU];
    for (int u = 0; u < NU; ++u)
      taps[u] = src.prepare(ow0 + u * VL, kw);
    for (int64_t kh = 0; kh < KH; ++kh) {
      const vf wv = splat(w[kh * KW + kw]);
      for (int r = 0; r < R; ++r) {
        const auto *row = src.row(oh0 + r, kh);
        if (!row)
          continue;
        for (int u = 0; u < NU; ++u)
          acc[r][u] = fma(wv, src.tap(row, taps[u]), acc[r][u]);
      }
    }
  }
  storeDwBlock<R, NU>(acc, oh0, ow0, OW, out, res, flags, bias, lo, hi, z);
}

/// Output rows [oh0, oh0 + R): NU vectors at a time while the row has that many, then one.
template <int R, int NU, class Src, class O>
MIE_UK_INLINE void dwconvRows(const Src &pl, int64_t oh0, int64_t KH, int64_t KW, int64_t OW,
                              const float *__restrict w, O *__restrict out, const O *res,
                              int64_t flags, float bias, float lo, float hi, float z) {
  const int64_t vectors = (OW + VL - 1) / VL;
  int64_t v = 0;
  for (; v + NU <= vectors; v += NU)
    dwconvBlock<R, NU>(pl, oh0, v * VL, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
  for (; v < vectors; ++v)
    dwconvBlock<R, 1>(pl, oh0, v * VL, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
}

/// The last `rem` < R output rows from oh0 as one block of `rem` rows: its FMA chains stay
/// independent (a 7-row map in blocks of 6 left one row's chain of KH x KW dependent FMAs alone).
template <int R, int NU, class Src, class O>
MIE_UK_INLINE void dwconvLastRows(int64_t rem, const Src &pl, int64_t oh0, int64_t KH,
                                  int64_t KW, int64_t OW, const float *__restrict w,
                                  O *__restrict out, const O *res, int64_t flags, float bias,
                                  float lo, float hi, float z) {
  if constexpr (R > 1) {
    if (rem == R - 1)
      dwconvRows<R - 1, NU>(pl, oh0, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
    else
      dwconvLastRows<R - 1, NU>(rem, pl, oh0, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
  }
}

/// All output rows: blocks of R rows, then one block of the rest.
template <int R, int NU, class Src, class O>
MIE_UK_INLINE void dwconvPlane(const Src &pl, int64_t OH, int64_t KH, int64_t KW, int64_t OW,
                               const float *__restrict w, O *__restrict out, const O *res,
                               int64_t flags, float bias, float lo, float hi, float z) {
  int64_t oh = 0;
  for (; oh + R <= OH; oh += R)
    dwconvRows<R, NU>(pl, oh, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
  dwconvLastRows<R, NU>(OH - oh, pl, oh, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
}

/// Every output row of a channel from `src`, register blocks by row width: about 8
/// accumulators, 2 rows of 4 vectors, 4 rows of 2, or 8 rows of 1 (7- or 14-pixel rows).
template <class Src, class O>
MIE_UK_INLINE void dwconvOutputs(const Src &src, int64_t OH, int64_t KH, int64_t KW, int64_t OW,
                                 const float *__restrict w, O *__restrict out, const O *res,
                                 int64_t flags, float bias, float lo, float hi, float z) {
  const int64_t vectors = (OW + VL - 1) / VL;
  if (vectors >= 4)
    dwconvPlane<2, 4>(src, OH, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
  else if (vectors >= 2)
    dwconvPlane<4, 2>(src, OH, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
  else
    dwconvPlane<8, 1>(src, OH, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
}

MIE_UK_INLINE void dwconvChannel(const float *__restrict x, int64_t H, int64_t W, int64_t KH,
                                 int64_t KW, int64_t SH, int64_t SW, int64_t PH, int64_t PW,
                                 int64_t DH, int64_t DW, int64_t OH, int64_t OW,
                                 const float *__restrict w, float *__restrict out, int64_t flags,
                                 float bias, const float *res, float lo, float hi,
                                 float *__restrict plane, bool planeFilled) {
  const float z = opaqueZero();
#if MIE_UK_VL >= 8
  // Stride 2 pays a shuffle per tap and row; with 5-wide windows that cost more than the split
  // plane (mobilenet_v3's 5x5 stride-2 layers 1.5x slower), with 3-wide ones less.
  if (SW == 1 || (SW == 2 && DW == 1 && KW <= 3)) {
    const DwImage<float> image{x, H, W, SH, SW, PH, PW, DH, DW};
    dwconvOutputs(image, OH, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
    return;
  }
#endif
  const int64_t rows = (OH - 1) * SH + (KH - 1) * DH + 1;
  const int64_t cols = (OW - 1) * SW + (KW - 1) * DW + 1;
  const int64_t ld = mie_uk_dwconv_plane_ld(KW, SW, DW, OW);
  // The reach of the loads: the last vector's last lane plus the window (rows are sized for the
  // widest ISA's vectors, so narrower ones leave slack that is never read, nor filled).
  const int64_t vectors = (OW + VL - 1) / VL;
  const bool splitPlane = SW == 2 && DW == 1;
  if (splitPlane)
    fillSplitPlane(x, H, W, PH, PW, rows, ld, vectors * VL + (KW - 1) / 2, plane, z, planeFilled);
  else
    fillPaddedPlane(x, H, W, PH, PW, rows, cols, ld, plane, z,
                    (vectors * VL - 1) * SW + (KW - 1) * DW + 1, planeFilled);
  const DwPlane pl =
      splitPlane ? DwPlane::split(plane, ld, SH, DH) : DwPlane::plain(plane, ld, SH, DH, SW, DW);
  dwconvOutputs(pl, OH, KH, KW, OW, w, out, res, flags, bias, lo, hi, z);
}

} // namespace

#if defined(MIE_UK_ISA_AVX512)
#define MIE_UK_DW_NAME mie_uk_f32_dwconv_nchw_avx512
#define MIE_UK_BF16_DW_NAME mie_uk_bf16_dwconv_nchw_avx512
#elif defined(MIE_UK_ISA_AVX2)
#define MIE_UK_DW_NAME mie_uk_f32_dwconv_nchw_avx2
#define MIE_UK_BF16_DW_NAME mie_uk_bf16_dwconv_nchw_avx2
#else
#define MIE_UK_DW_NAME mie_uk_f32_dwconv_nchw_neon
#define MIE_UK_BF16_DW_NAME mie_uk_bf16_dwconv_nchw_neon
#endif

extern "C" __attribute__((always_inline)) void
MIE_UK_DW_NAME(const float *x, int64_t x_off, int64_t H, int64_t W, int64_t KH, int64_t KW,
               int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OH,
               int64_t OW, const float *w, int64_t w_off, int64_t c0, int64_t cn, float *out,
               int64_t out_off, int64_t flags, const float *bias, int64_t bias_off,
               const float *res, int64_t res_off, float lo, float hi, float *plane) {
  for (int64_t c = c0; c < c0 + cn; ++c) {
    const float *resc = (flags & MIE_UK_RESIDUAL) ? res + res_off + c * OH * OW : nullptr;
    const float b = (flags & MIE_UK_BIAS) ? bias[bias_off + c] : 0.0f;
    dwconvChannel(x + x_off + c * H * W, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OH, OW,
                  w + w_off + c * KH * KW, out + out_off + c * OH * OW, flags, b, resc, lo, hi,
                  plane, /*planeFilled=*/c != c0);
  }
}

namespace {

/// bf16 (as uint16_t) widened to f32: exact, a shift (loops the compiler vectorizes).
MIE_UK_INLINE void widenBf16(const uint16_t *__restrict src, float *__restrict dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t u = uint32_t(src[i]) << 16;
    __builtin_memcpy(&dst[i], &u, sizeof(u));
  }
}

/// f32 rounded to bf16, to nearest even; NaN stays a (quiet) NaN.
MIE_UK_INLINE void narrowToBf16(const float *__restrict src, uint16_t *__restrict dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint32_t u;
    __builtin_memcpy(&u, &src[i], sizeof(u));
    const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    dst[i] = uint16_t((u & 0x7fffffffu) > 0x7f800000u ? (u >> 16) | 0x40u : rounded);
  }
}

} // namespace

/// The depthwise convolution of bf16 tensors (mie_ukernels.h), summed in f32. Where the f32 kernel
/// reads the image in place (x86 stride 1, and stride 2 with windows up to 3 wide) this one does the
/// same on the bf16 image, widening each loaded vector in registers, and rounds each output vector
/// once at its store. The other windows widen the channel into the scratch first and run the f32
/// kernel on it (one more pass over the channel).
extern "C" __attribute__((always_inline)) void
MIE_UK_BF16_DW_NAME(const uint16_t *x, int64_t x_off, int64_t H, int64_t W, int64_t KH, int64_t KW,
                    int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW,
                    int64_t OH, int64_t OW, const uint16_t *w, int64_t w_off, int64_t c0,
                    int64_t cn, uint16_t *out, int64_t out_off, int64_t flags,
                    const uint16_t *bias, int64_t bias_off, const uint16_t *res, int64_t res_off,
                    float lo, float hi, float *plane) {
  // The scratch: the f32 kernel's plane, then a channel's input, output and residual and its window.
  const int64_t planeFloats = (mie_uk_dwconv_plane_floats(KH, KW, SH, SW, DH, DW, OH, OW) + 15) /
                              16 * 16;
  const int64_t inFloats = (H * W + 15) / 16 * 16, outFloats = (OH * OW + 15) / 16 * 16;
  float *xf = plane + planeFloats, *of = xf + inFloats, *rf = of + outFloats, *wf = rf + outFloats;
#if MIE_UK_VL >= 8
  const bool inPlace = SW == 1 || (SW == 2 && DW == 1 && KW <= 3);
#else
  const bool inPlace = false;
#endif
  for (int64_t c = c0; c < c0 + cn; ++c) {
    widenBf16(w + w_off + c * KH * KW, wf, KH * KW);
    float b = 0.0f;
    if (flags & MIE_UK_BIAS)
      widenBf16(bias + bias_off + c, &b, 1);
    const uint16_t *xc = x + x_off + c * H * W;
    uint16_t *outc = out + out_off + c * OH * OW;
    const uint16_t *resc = (flags & MIE_UK_RESIDUAL) ? res + res_off + c * OH * OW : nullptr;
#if MIE_UK_VL >= 8
    // Stride 1 over rows longer than a vector: the f32 kernel's in-place path on the widened
    // plane, each input element widened once (widening every tap's load cost two more uops per
    // tap on the FMA ports: mobilenet_v2's 3x3 layers over 28x28 to 112x112 maps 0.80-0.95x the
    // time this way). Stride 2 reads each element for fewer taps and its 112x112 plane no longer
    // stays in L1 once widened (1.5x slower that way), and a 7x7 map's extra pass costs more
    // than its few loads save (1.17x): those widen the taps they load.
    if (inPlace && SW == 1 && W > VL) {
      widenBf16(xc, xf, H * W);
      const DwImage<float> image{xf, H, W, SH, SW, PH, PW, DH, DW};
      dwconvOutputs(image, OH, KH, KW, OW, wf, outc, resc, flags, b, lo, hi, opaqueZero());
      continue;
    }
    if (inPlace) {
      const DwImage<uint16_t> image{xc, H, W, SH, SW, PH, PW, DH, DW};
      dwconvOutputs(image, OH, KH, KW, OW, wf, outc, resc, flags, b, lo, hi, opaqueZero());
      continue;
    }
#endif
    widenBf16(xc, xf, H * W);
    const float *rfc = nullptr;
    if (resc) {
      widenBf16(resc, rf, OH * OW);
      rfc = rf;
    }
    dwconvChannel(xf, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OH, OW, wf, of, flags, b, rfc, lo, hi,
                  plane, /*planeFilled=*/c != c0);
    narrowToBf16(of, outc, OH * OW);
  }
}
