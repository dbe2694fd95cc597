//===- f32_dwconv_nhwc.cpp - depthwise NHWC convolution, one build per ISA -===//
//
// Channels in the vector lanes: an output pixel's channels are contiguous in NHWC, and so are a
// tap's input channels and weights ([KH * KW][C], packed at compile time), so every load is a
// whole vector (masked for the channel tail) and no scratch plane is needed.
//
// A call computes a band of output rows of one image. Per output row, the taps that lie in the
// image are a range of kernel rows (the row's border is checked once, per row), and the output
// columns split into an interior, where every window column lies in the image, and the few columns
// at the borders. The interior runs in register blocks of P pixels along the row x one channel
// vector: with the window width and stride known at compile time (3 or 5 wide, stride 1 or 2,
// undilated: mobilenet's layers), each input pixel a block's window row covers is loaded once and
// serves every pixel of the block whose window holds it (3x3 stride 1: 10 input and 3 weight loads
// for 24 FMAs a window row); other windows load each (tap, pixel) pair, no per-tap checks either
// way. The border columns and the interior's last few pixels run one pixel at a time over four
// channel vectors (four independent FMA chains), with the window columns in the image worked out
// once per pixel. Each output is summed over the window in (kh, kw) order from zero whatever the
// block, and the epilogue is applied in registers before the one store.
//
// bf16 tensors (uint16_t) run the same code with their loads widened in registers and each output
// rounded once at its store (ukernel_bf16.h).
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_bf16.h"
#include "ukernel_vector.h"

using namespace mie_uk;

namespace {

/// Pixels of an interior register block (accumulators: one vector each), and channel vectors of a
/// border pixel. Eight chains cover the FMA latency of two FMA ports.
constexpr int kNhwcPixels = 8;
constexpr int kNhwcPixelVectors = 4;

template <int N> struct IntConstant {
  static constexpr int value = N;
};

/// One call's operands and geometry, the pointers at their offsets.
template <class T> struct NhwcDw {
  const T *x, *w;
  T *out;
  const T *bias, *res;
  int64_t H, W, C, KH, KW, SH, SW, PH, PW, DH, DW, OH, OW, flags;
  float lo, hi;
};

/// A vector of channels [c, c + VL), or of the lanes of `m` (the channel tail) when Masked.
template <bool Masked, class T> MIE_UK_INLINE vf loadLanes(const T *p, vmask m) {
  if constexpr (Masked)
    return maskedLoadElems(m, p);
  else
    return loadElems(p);
}

/// The epilogue (bias per channel lane, residual at the output's place) and the store of output
/// pixel `pix` (oh * OW + ow), channels from c.
template <bool Masked, class T>
MIE_UK_INLINE void finishVector(const NhwcDw<T> &k, vf acc, int64_t pix, int64_t c, vmask m) {
  vf bias = splat(0.0f), res = splat(0.0f);
  if (k.flags & MIE_UK_EPILOGUE) {
    if (k.flags & MIE_UK_BIAS)
      bias = loadLanes<Masked>(k.bias + c, m);
    if (k.flags & MIE_UK_RESIDUAL)
      res = loadLanes<Masked>(k.res + pix * k.C + c, m);
  }
  const vf y = epilogueLanes(acc, k.flags, bias, res, k.lo, k.hi);
  if constexpr (Masked)
    maskedStoreElems(m, k.out + pix * k.C + c, y);
  else
    storeElems(k.out + pix * k.C + c, y);
}

/// P interior pixels of output row oh from column ow, channels from c (one vector), over the
/// kernel rows [khLo, khHi) that lie in the image. With KWc > 0 the window is KWc wide, stride S,
/// undilated along W: input pixel i of the block's (P - 1) S + KWc is loaded once and is tap
/// i - p S of pixel p. With KWc == 0 (any window) each tap of each pixel is loaded.
template <int P, int S, int KWc, bool Masked, class T>
MIE_UK_INLINE void interiorBlock(const NhwcDw<T> &k, int64_t oh, int64_t khLo, int64_t khHi,
                                 int64_t ow, int64_t c, vmask m) {
  vf acc[P];
  for (int p = 0; p < P; ++p)
    acc[p] = splat(0.0f);
  const int64_t C = k.C;
  const int64_t iw0 = ow * (KWc > 0 ? S : k.SW) - k.PW;
  for (int64_t kh = khLo; kh < khHi; ++kh) {
    const T *row = k.x + ((oh * k.SH - k.PH + kh * k.DH) * k.W + iw0) * C + c;
    const T *wr = k.w + kh * k.KW * C + c;
    if constexpr (KWc > 0) {
      // Fully unrolled (LLVM's own heuristics left the (P - 1) S + KWc x P nest a loop with a
      // branch per pixel and the weights on the stack: 3x slower): every accumulator and weight
      // stays in a register.
      vf wv[KWc];
#pragma clang loop unroll(full)
      for (int kw = 0; kw < KWc; ++kw)
        wv[kw] = loadLanes<Masked>(wr + kw * C, m);
#pragma clang loop unroll(full)
      for (int i = 0; i < (P - 1) * S + KWc; ++i) {
        const vf xi = loadLanes<Masked>(row + i * C, m);
#pragma clang loop unroll(full)
        for (int p = 0; p < P; ++p) {
          const int kw = i - p * S;
          if (kw >= 0 && kw < KWc)
            acc[p] = fma(wv[kw], xi, acc[p]);
        }
      }
    } else {
      const int64_t pixStep = k.SW * C, tapStep = k.DW * C;
      for (int64_t kw = 0; kw < k.KW; ++kw) {
        const vf wv = loadLanes<Masked>(wr + kw * C, m);
#pragma clang loop unroll(full)
        for (int p = 0; p < P; ++p)
          acc[p] = fma(wv, loadLanes<Masked>(row + p * pixStep + kw * tapStep, m), acc[p]);
      }
    }
  }
#pragma clang loop unroll(full)
  for (int p = 0; p < P; ++p)
    finishVector<Masked>(k, acc[p], oh * k.OW + ow + p, c, m);
}

/// One output pixel (oh, ow) over window columns [kwLo, kwHi) and rows [khLo, khHi) (those in the
/// image), NV channel vectors from c (the last masked when Masked: then NV is 1).
template <int NV, bool Masked, class T>
MIE_UK_INLINE void pixelVectors(const NhwcDw<T> &k, int64_t oh, int64_t khLo, int64_t khHi,
                                int64_t ow, int64_t kwLo, int64_t kwHi, int64_t c, vmask m) {
  vf acc[NV];
  for (int v = 0; v < NV; ++v)
    acc[v] = splat(0.0f);
  const int64_t C = k.C;
  const int64_t iw0 = ow * k.SW - k.PW;
  for (int64_t kh = khLo; kh < khHi; ++kh) {
    const T *row = k.x + ((oh * k.SH - k.PH + kh * k.DH) * k.W + iw0) * C + c;
    const T *wr = k.w + kh * k.KW * C + c;
    for (int64_t kw = kwLo; kw < kwHi; ++kw)
#pragma clang loop unroll(full)
      for (int v = 0; v < NV; ++v)
        acc[v] = fma(loadLanes<Masked>(wr + kw * C + v * VL, m),
                     loadLanes<Masked>(row + kw * k.DW * C + v * VL, m), acc[v]);
  }
  for (int v = 0; v < NV; ++v)
    finishVector<Masked>(k, acc[v], oh * k.OW + ow, c + v * VL, m);
}

/// [lo, hi) of the kernel taps t in [0, K) whose input index base + t * D lies in [0, N).
MIE_UK_INLINE void tapRange(int64_t base, int64_t D, int64_t K, int64_t N, int64_t &lo,
                            int64_t &hi) {
  lo = base >= 0 ? 0 : (-base + D - 1) / D;
  hi = N - 1 - base >= 0 ? (N - 1 - base) / D + 1 : 0;
  hi = hi < K ? hi : K;
  lo = lo < K ? lo : K;
  hi = hi < lo ? lo : hi;
}

/// Output rows [oh0, oh0 + ohn), channels [c0, c0 + cn), with interior blocks of stride S and
/// window width KWc (0: any).
template <int S, int KWc, class T>
MIE_UK_INLINE void dwconvNhwc(const NhwcDw<T> &k, int64_t oh0, int64_t ohn, int64_t c0,
                              int64_t cn) {
  constexpr int P = kNhwcPixels, NV = kNhwcPixelVectors;
  // The interior columns [owLo, owHi): ow SW - PW >= 0 and ow SW - PW + (KW - 1) DW < W.
  int64_t owLo = k.PW > 0 ? (k.PW + k.SW - 1) / k.SW : 0;
  const int64_t last = k.W - 1 - (k.KW - 1) * k.DW + k.PW;
  int64_t owHi = last >= 0 ? last / k.SW + 1 : 0;
  owLo = owLo < k.OW ? owLo : k.OW;
  owHi = owHi < k.OW ? owHi : k.OW;
  owHi = owHi < owLo ? owLo : owHi;
  // Blocks of P, then one of P / 2 if that many are left; the rest of the interior from owMid
  // goes one pixel at a time with the border columns.
  const int64_t blocks = (owHi - owLo) / P;
  const bool halfBlock = (owHi - owLo) % P >= P / 2;
  const int64_t owMid = owLo + blocks * P + (halfBlock ? P / 2 : 0);
  const int64_t full = c0 + cn / VL * VL, tail = cn % VL;
  const vmask all = firstLanes(VL), tailMask = firstLanes(tail);
  for (int64_t oh = oh0; oh < oh0 + ohn; ++oh) {
    int64_t khLo, khHi;
    tapRange(oh * k.SH - k.PH, k.DH, k.KH, k.H, khLo, khHi);
    // Pixel blocks outer, channels inner: a block reads its window's input pixels with all their
    // channels, contiguous runs that the prefetchers stream (channel vectors outer walked each row
    // once per vector, a strided pass: mobilenet_v2's stride-2 layers over 112x112 and 56x56 maps
    // were 1.3-1.6x slower so).
    auto blockChannels = [&](auto pixels, int64_t ow) MIE_UK_LAMBDA_INLINE {
      constexpr int PB = decltype(pixels)::value;
      for (int64_t c = c0; c < full; c += VL)
        interiorBlock<PB, S, KWc, false>(k, oh, khLo, khHi, ow, c, all);
      if (tail)
        interiorBlock<PB, S, KWc, true>(k, oh, khLo, khHi, ow, full, tailMask);
    };
    int64_t owb = owLo;
    for (int64_t b = 0; b < blocks; ++b, owb += P)
      blockChannels(IntConstant<P>(), owb);
    if (halfBlock)
      blockChannels(IntConstant<P / 2>(), owb);
    // The columns left: [0, owLo) and [owMid, OW).
    for (int64_t ow = 0; ow < k.OW; ++ow) {
      if (ow == owLo && owMid > owLo) {
        ow = owMid - 1;
        continue;
      }
      int64_t kwLo, kwHi;
      tapRange(ow * k.SW - k.PW, k.DW, k.KW, k.W, kwLo, kwHi);
      int64_t c = c0;
      for (; c + NV * VL <= full; c += NV * VL)
        pixelVectors<NV, false>(k, oh, khLo, khHi, ow, kwLo, kwHi, c, all);
      for (; c < full; c += VL)
        pixelVectors<1, false>(k, oh, khLo, khHi, ow, kwLo, kwHi, c, all);
      if (tail)
        pixelVectors<1, true>(k, oh, khLo, khHi, ow, kwLo, kwHi, full, tailMask);
    }
  }
}

/// The window shapes with compile-time interior blocks (mobilenet's: 3 or 5 wide, stride 1 or 2,
/// undilated along W), then any other.
template <class T>
MIE_UK_INLINE void dwconvNhwcChunk(const NhwcDw<T> &k, int64_t oh0, int64_t ohn, int64_t c0,
                                   int64_t cn) {
  if (k.DW == 1 && k.KW == 3 && k.SW == 1)
    return dwconvNhwc<1, 3>(k, oh0, ohn, c0, cn);
  if (k.DW == 1 && k.KW == 3 && k.SW == 2)
    return dwconvNhwc<2, 3>(k, oh0, ohn, c0, cn);
  if (k.DW == 1 && k.KW == 5 && k.SW == 1)
    return dwconvNhwc<1, 5>(k, oh0, ohn, c0, cn);
  if (k.DW == 1 && k.KW == 5 && k.SW == 2)
    return dwconvNhwc<2, 5>(k, oh0, ohn, c0, cn);
  dwconvNhwc<1, 0>(k, oh0, ohn, c0, cn);
}

/// The rows of a call in chunks of channels whose window rows stay in L1 from one output row to
/// the next (KH input rows of the chunk within 24 KiB), when the band's input fits L2 (else each
/// chunk would stream the band from memory again). A window row of all the channels of a 14x14
/// map with 384 channels is 64 KiB: every output row then read its input rows from L2.
template <class T>
MIE_UK_INLINE void dwconvNhwcAny(const NhwcDw<T> &k, int64_t oh0, int64_t ohn, int64_t c0,
                                 int64_t cn) {
  if (ohn <= 0 || cn <= 0)
    return;
  const int64_t bandRows = (ohn - 1) * k.SH + (k.KH - 1) * k.DH + 1;
  const int64_t bandBytes = bandRows * k.W * k.C * int64_t(sizeof(T));
  const int64_t windowBytesPerChannel = k.KH * k.W * int64_t(sizeof(T));
  int64_t chunk = cn;
  if (bandBytes <= (int64_t(1) << 20) && windowBytesPerChannel * cn > 24 * 1024) {
    chunk = 24 * 1024 / windowBytesPerChannel / VL * VL;
    chunk = chunk < kNhwcPixelVectors * VL ? kNhwcPixelVectors * VL : chunk;
  }
  for (int64_t c = c0; c < c0 + cn; c += chunk)
    dwconvNhwcChunk(k, oh0, ohn, c, c0 + cn - c < chunk ? c0 + cn - c : chunk);
}

} // namespace

#if defined(MIE_UK_ISA_AVX512)
#define MIE_UK_DW_NHWC_NAME mie_uk_f32_dwconv_nhwc_avx512
#define MIE_UK_BF16_DW_NHWC_NAME mie_uk_bf16_dwconv_nhwc_avx512
#elif defined(MIE_UK_ISA_AVX2)
#define MIE_UK_DW_NHWC_NAME mie_uk_f32_dwconv_nhwc_avx2
#define MIE_UK_BF16_DW_NHWC_NAME mie_uk_bf16_dwconv_nhwc_avx2
#else
#define MIE_UK_DW_NHWC_NAME mie_uk_f32_dwconv_nhwc_neon
#define MIE_UK_BF16_DW_NHWC_NAME mie_uk_bf16_dwconv_nhwc_neon
#endif

extern "C" __attribute__((always_inline)) void
MIE_UK_DW_NHWC_NAME(const float *x, int64_t x_off, int64_t H, int64_t W, int64_t C, int64_t KH,
                    int64_t KW, int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH,
                    int64_t DW, int64_t OH, int64_t OW, const float *w, int64_t w_off,
                    int64_t oh0, int64_t ohn, int64_t c0, int64_t cn, float *out, int64_t out_off,
                    int64_t flags, const float *bias, int64_t bias_off, const float *res,
                    int64_t res_off, float lo, float hi) {
  const NhwcDw<float> k{x + x_off, w + w_off, out + out_off,
                        (flags & MIE_UK_BIAS) ? bias + bias_off : nullptr,
                        (flags & MIE_UK_RESIDUAL) ? res + res_off : nullptr,
                        H, W, C, KH, KW, SH, SW, PH, PW, DH, DW, OH, OW, flags, lo, hi};
  dwconvNhwcAny(k, oh0, ohn, c0, cn);
}

extern "C" __attribute__((always_inline)) void
MIE_UK_BF16_DW_NHWC_NAME(const uint16_t *x, int64_t x_off, int64_t H, int64_t W, int64_t C,
                         int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t PH, int64_t PW,
                         int64_t DH, int64_t DW, int64_t OH, int64_t OW, const uint16_t *w,
                         int64_t w_off, int64_t oh0, int64_t ohn, int64_t c0, int64_t cn,
                         uint16_t *out, int64_t out_off, int64_t flags, const uint16_t *bias,
                         int64_t bias_off, const uint16_t *res, int64_t res_off, float lo,
                         float hi) {
  const NhwcDw<uint16_t> k{x + x_off, w + w_off, out + out_off,
                           (flags & MIE_UK_BIAS) ? bias + bias_off : nullptr,
                           (flags & MIE_UK_RESIDUAL) ? res + res_off : nullptr,
                           H, W, C, KH, KW, SH, SW, PH, PW, DH, DW, OH, OW, flags, lo, hi};
  dwconvNhwcAny(k, oh0, ohn, c0, cn);
}
