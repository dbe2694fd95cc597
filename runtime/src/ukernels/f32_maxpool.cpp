//===- f32_maxpool.cpp - max pooling of NCHW f32 tensors, one build per ISA ---===//
//
// Separable, one output row at a time: first the maximum of the window's input rows that lie in
// the image, whole contiguous vectors, into a row buffer whose left and right margins hold -inf
// (the padding, which max pooling ignores); then each output pixel the maximum of its KW taps in
// that buffer: one load per tap at stride 1, the even lanes of two loads at stride 2 (taps kw and
// kw + 1 of one pair of loads), a lane-by-lane gather at larger strides. Both passes read memory
// contiguously, so the kernel runs at the speed the image streams in: the generated loops it
// replaces, the same algorithm scalar with LLVM's vectorizer on the column pass's split buffer,
// took 1.7x onnxruntime's time on resnet50's stem pool (3x3, stride 2, 112x112).
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_vector.h"

using namespace mie_uk;

namespace {

/// The maximum of the window's rows of output row oh that lie in the image, at row[PW, PW + W);
/// -inf when none does (a ceil-mode window wholly in the padding).
MIE_UK_INLINE void maxOfRows(const float *__restrict x, int64_t H, int64_t W, int64_t KH,
                             int64_t SH, int64_t PH, int64_t DH, int64_t oh, float *__restrict row,
                             float lowest) {
  const float *rows[2];
  int64_t count = 0;
  for (int64_t kh = 0; kh < KH; ++kh) {
    const int64_t ih = oh * SH - PH + kh * DH;
    if (ih < 0 || ih >= H)
      continue;
    const float *r = x + ih * W;
    if (count < 2) {
      rows[count++] = r;
      continue;
    }
    // A third and later row: fold into the buffer the first two rows made.
    if (count == 2) {
      int64_t i = 0;
      for (; i + VL <= W; i += VL)
        store(row + i, vmax(vmax(load(rows[0] + i), load(rows[1] + i)), load(r + i)));
      if (i < W)
        storeFirst(row + i,
                   vmax(vmax(loadFirst(rows[0] + i, W - i), loadFirst(rows[1] + i, W - i)),
                        loadFirst(r + i, W - i)),
                   W - i);
      count = 3;
      continue;
    }
    int64_t i = 0;
    for (; i + VL <= W; i += VL)
      store(row + i, vmax(load(row + i), load(r + i)));
    if (i < W)
      storeFirst(row + i, vmax(loadFirst(row + i, W - i), loadFirst(r + i, W - i)), W - i);
  }
  if (count == 3)
    return;
  // One or two rows (a 2-row window, or a window cut by the padding): max them now.
  int64_t i = 0;
  for (; i + VL <= W; i += VL) {
    const vf a = count ? load(rows[0] + i) : splat(lowest);
    store(row + i, count == 2 ? vmax(a, load(rows[1] + i)) : a);
  }
  if (i < W) {
    const vf a = count ? loadFirst(rows[0] + i, W - i) : splat(lowest);
    storeFirst(row + i, count == 2 ? vmax(a, loadFirst(rows[1] + i, W - i)) : a, W - i);
  }
}

/// Output vector `ow0` of a row: the maximum over the KW taps of `row` (the padded buffer,
/// column c of the image at c + PW).
MIE_UK_INLINE vf maxOfTaps(const float *__restrict row, int64_t ow0, int64_t KW, int64_t SW,
                           int64_t DW) {
  vf acc = splat(-__builtin_inff());
  const float *base = row + ow0 * SW;
  if (SW == 1) {
    for (int64_t kw = 0; kw < KW; ++kw)
      acc = vmax(acc, load(base + kw * DW));
  } else if (SW == 2 && DW == 1) {
    // Taps kw and kw + 1 are the even and odd lanes of one pair of loads.
    int64_t kw = 0;
    for (; kw + 1 < KW; kw += 2) {
      const vf a = load(base + kw), b = load(base + kw + VL);
      acc = vmax(acc, vmax(evenLanes(a, b), oddLanes(a, b)));
    }
    if (kw < KW)
      acc = vmax(acc, loadEven(base + kw));
  } else {
    for (int64_t kw = 0; kw < KW; ++kw) {
      float lanes[VL];
      for (int l = 0; l < VL; ++l)
        lanes[l] = base[l * SW + kw * DW];
      acc = vmax(acc, load(lanes));
    }
  }
  return acc;
}

} // namespace

#if defined(MIE_UK_ISA_AVX512)
#define MIE_UK_MAXPOOL_NAME mie_uk_f32_maxpool_nchw_avx512
#elif defined(MIE_UK_ISA_AVX2)
#define MIE_UK_MAXPOOL_NAME mie_uk_f32_maxpool_nchw_avx2
#else
#define MIE_UK_MAXPOOL_NAME mie_uk_f32_maxpool_nchw_neon
#endif

extern "C" __attribute__((always_inline)) void
MIE_UK_MAXPOOL_NAME(const float *x, int64_t x_off, int64_t H, int64_t W, int64_t KH, int64_t KW,
                    int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW,
                    int64_t OH, int64_t OW, int64_t c0, int64_t cn, float *out, int64_t out_off,
                    float *row) {
  const float lowest = -__builtin_inff();
  const int64_t length = mie_uk_maxpool_row_floats(W, KW, SW, PW, DW, OW);
  // The margins: the same -inf for every row of every channel; the image part is rewritten.
  for (int64_t i = 0; i < PW; ++i)
    row[i] = lowest;
  for (int64_t i = PW + W; i < length; ++i)
    row[i] = lowest;
  const int64_t vectors = (OW + VL - 1) / VL;
  const float z = opaqueZero();
  for (int64_t c = c0; c < c0 + cn; ++c) {
    const float *xc = x + x_off + c * H * W;
    float *oc = out + out_off + c * OH * OW;
    for (int64_t oh = 0; oh < OH; ++oh) {
      maxOfRows(xc, H, W, KH, SH, PH, DH, oh, row + PW, lowest);
      float *o = oc + oh * OW;
      for (int64_t v = 0; v < vectors; ++v) {
        const vf m = maxOfTaps(row, v * VL, KW, SW, DW);
        storeN(o + v * VL, m, OW - v * VL, z);
      }
    }
  }
}
