//===- f32_dwconv.cpp - depthwise NCHW convolution, one build per ISA -----===//
//
// Output pixels of a row in vector lanes: each channel's input plane is first copied into a
// zero-padded scratch plane (so the inner loops have no bounds checks), then every output row is
// accumulated in registers over the whole KH x KW window, U vectors at a time (then one at a time
// for the rest of a row, so short rows compute only the vectors they need), and the epilogue is
// applied before the one store. Stride 2 reads two vectors and keeps the even lanes; other strides
// gather lane by lane.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_vector.h"

using namespace mie_uk;

namespace {

MIE_UK_INLINE vf loadStrided(const float *p, int64_t stride) {
  if (stride == 1)
    return load(p);
  if (stride == 2)
    return loadEven(p);
  float tmp[VL];
  for (int l = 0; l < VL; ++l)
    tmp[l] = p[l * stride];
  return load(tmp);
}

constexpr int U = 4; // vectors of one output row accumulated together

/// Output vectors [ow0, ow0 + NU * VL) of row oh over the whole window, epilogue, store.
template <int NU>
MIE_UK_INLINE void dwconvVectors(const float *__restrict plane, int64_t ld, int64_t oh,
                                 int64_t ow0, int64_t KH, int64_t KW, int64_t SH, int64_t SW,
                                 int64_t DH, int64_t DW, int64_t OW, const float *__restrict w,
                                 float *__restrict o, const float *r, int64_t flags, float bias,
                                 float lo, float hi, float z) {
  vf acc[NU];
  for (int u = 0; u < NU; ++u)
    acc[u] = splat(0.0f);
  for (int64_t kh = 0; kh < KH; ++kh) {
    const float *prow = plane + (oh * SH + kh * DH) * ld + ow0 * SW;
    for (int64_t kw = 0; kw < KW; ++kw) {
      const vf wv = splat(w[kh * KW + kw]);
      const float *p = prow + kw * DW;
      for (int u = 0; u < NU; ++u)
        acc[u] = fma(wv, loadStrided(p + u * VL * SW, SW), acc[u]);
    }
  }
  for (int u = 0; u < NU; ++u) {
    const int64_t base = ow0 + u * VL;
    const int64_t valid = OW - base < VL ? OW - base : VL;
    vf y = epilogueVector(acc[u], flags, bias, r ? r + base : nullptr, valid, lo, hi);
    storeN(o + base, y, valid, z);
  }
}

MIE_UK_INLINE void dwconvChannel(const float *__restrict x, int64_t H, int64_t W, int64_t KH,
                                 int64_t KW, int64_t SH, int64_t SW, int64_t PH, int64_t PW,
                                 int64_t DH, int64_t DW, int64_t OH, int64_t OW,
                                 const float *__restrict w, float *__restrict out, int64_t flags,
                                 float bias, const float *res, float lo, float hi,
                                 float *__restrict plane) {
  const float z = opaqueZero();
  const int64_t rows = (OH - 1) * SH + (KH - 1) * DH + 1;
  const int64_t cols = (OW - 1) * SW + (KW - 1) * DW + 1;
  const int64_t ld = mie_uk_dwconv_plane_ld(KW, SW, DW, OW);
  fillPaddedPlane(x, H, W, PH, PW, rows, cols, ld, plane, z);
  // U vectors at a time while a row has that many, then one at a time: a 7-wide row computes one
  // vector, not U.
  const int64_t vectors = (OW + VL - 1) / VL;
  for (int64_t oh = 0; oh < OH; ++oh) {
    float *o = out + oh * OW;
    const float *r = res ? res + oh * OW : nullptr;
    int64_t v = 0;
    for (; v + U <= vectors; v += U)
      dwconvVectors<U>(plane, ld, oh, v * VL, KH, KW, SH, SW, DH, DW, OW, w, o, r, flags, bias, lo,
                       hi, z);
    for (; v < vectors; ++v)
      dwconvVectors<1>(plane, ld, oh, v * VL, KH, KW, SH, SW, DH, DW, OW, w, o, r, flags, bias, lo,
                       hi, z);
  }
}

} // namespace

#if defined(MIE_UK_ISA_AVX512)
#define MIE_UK_DW_NAME mie_uk_f32_dwconv_nchw_avx512
#elif defined(MIE_UK_ISA_AVX2)
#define MIE_UK_DW_NAME mie_uk_f32_dwconv_nchw_avx2
#else
#define MIE_UK_DW_NAME mie_uk_f32_dwconv_nchw_neon
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
                  plane);
  }
}
