//===- ukernel_vector.h - the vector type and math the microkernels share --===//
//
// One source serves every ISA: clang's ext_vector_type maps `vf` onto zmm (AVX-512), ymm (AVX2) or
// q (NEON) registers, and the -m flags the build passes pick the instructions. The math functions
// are polynomial approximations with no libm calls, so the bitcode links into generated modules
// without leaving undefined symbols. Accuracy: exp, sigmoid, tanh, erf within a few ulp of 1e-7
// relative on the ranges activations see, well inside the compiler's 1e-4 end-to-end bound.
//
//===----------------------------------------------------------------------===//
#ifndef MIE_UKERNEL_VECTOR_H
#define MIE_UKERNEL_VECTOR_H

#include "mie_ukernels.h"

#include <stdint.h>

#if defined(MIE_UK_ISA_AVX512)
#define MIE_UK_VL 16
#elif defined(MIE_UK_ISA_AVX2)
#define MIE_UK_VL 8
#elif defined(MIE_UK_ISA_NEON)
#define MIE_UK_VL 4
#else
#error "define one of MIE_UK_ISA_AVX512, MIE_UK_ISA_AVX2, MIE_UK_ISA_NEON"
#endif

#define MIE_UK_INLINE static inline __attribute__((always_inline))
// The same for a lambda's call operator (callbacks of the tile helpers), which is otherwise left out of
// line: one copy per call site, called once per tile.
#define MIE_UK_LAMBDA_INLINE __attribute__((always_inline))

namespace mie_uk {

constexpr int VL = MIE_UK_VL;
typedef float vf __attribute__((ext_vector_type(MIE_UK_VL)));
typedef float vfu __attribute__((ext_vector_type(MIE_UK_VL), aligned(4)));
typedef int32_t vi __attribute__((ext_vector_type(MIE_UK_VL)));

MIE_UK_INLINE vf load(const float *p) { return *reinterpret_cast<const vfu *>(p); }
MIE_UK_INLINE void store(float *p, vf v) { *reinterpret_cast<vfu *>(p) = v; }
MIE_UK_INLINE vf splat(float x) { return vf(x); }
MIE_UK_INLINE vf fma(vf a, vf b, vf c) { return __builtin_elementwise_fma(a, b, c); }
MIE_UK_INLINE vf vmax(vf a, vf b) { return __builtin_elementwise_max(a, b); }
MIE_UK_INLINE vf vmin(vf a, vf b) { return __builtin_elementwise_min(a, b); }
MIE_UK_INLINE vf clamp(vf x, float lo, float hi) { return vmin(vmax(x, splat(lo)), splat(hi)); }

/// A zero the optimizer cannot see through. Packing and transforms copy short runs (a few to a few
/// dozen floats); LLVM would turn plain copy and fill loops into memcpy / memset calls, whose call
/// overhead dominates at those sizes (and which the generated module would then import). Storing
/// `z` or `src + z` keeps them vectorized loops.
MIE_UK_INLINE float opaqueZero() {
  float z = 0.0f;
  __asm__("" : "+r"(z));
  return z;
}

/// Lanes 0, 2, 4, ... of the 2 * VL lanes of a then b: floats, or VL elements of another type
/// (the bits of bf16 / f16 panels, which packing moves without computing on them).
template <typename V>
MIE_UK_INLINE V evenLanes(V a, V b) {
#if MIE_UK_VL == 16
  return __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
#elif MIE_UK_VL == 8
  return __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
#else
  return __builtin_shufflevector(a, b, 0, 2, 4, 6);
#endif
}

/// Lanes 1, 3, 5, ... of the 2 * VL lanes of a then b (any VL-lane vector, as evenLanes).
template <typename V>
MIE_UK_INLINE V oddLanes(V a, V b) {
#if MIE_UK_VL == 16
  return __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
#elif MIE_UK_VL == 8
  return __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
#else
  return __builtin_shufflevector(a, b, 1, 3, 5, 7);
#endif
}

/// Lanes 0, 2, 4, ... of the 2 * VL floats at p (a stride-2 load).
MIE_UK_INLINE vf loadEven(const float *p) { return evenLanes(load(p), load(p + VL)); }

/// 0, 1, 2, ..., VL - 1: the lane masks of loadFirst and storeFirst.
MIE_UK_INLINE vi laneIndex() {
#if MIE_UK_VL == 16
  return vi{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
#elif MIE_UK_VL == 8
  return vi{0, 1, 2, 3, 4, 5, 6, 7};
#else
  return vi{0, 1, 2, 3};
#endif
}
typedef bool vmask __attribute__((ext_vector_type(MIE_UK_VL)));

/// The first n (0..VL) lanes at p, zeros elsewhere; the other lanes' memory is never touched
/// (AVX-512 and AVX masked moves suppress their faults), so a row's last floats load as a vector.
MIE_UK_INLINE vf loadFirst(const float *p, int64_t n) {
  vmask m = __builtin_convertvector(laneIndex() < vi(int32_t(n)), vmask);
  return __builtin_masked_load(m, p, splat(0.0f));
}
/// The first n (0..2 VL) floats at p as two vectors (a: lanes [0, VL), b: the rest), zeros
/// after: a stride-2 row's last pairs, deinterleaved with evenLanes/oddLanes.
MIE_UK_INLINE void loadFirstPair(const float *p, int64_t n, vf &a, vf &b) {
  a = loadFirst(p, n < VL ? n : VL);
  b = loadFirst(p + VL, n > VL ? n - VL : 0);
}
/// Stores the first n (0..VL) lanes of v at p, nothing past them.
MIE_UK_INLINE void storeFirst(float *p, vf v, int64_t n) {
  vmask m = __builtin_convertvector(laneIndex() < vi(int32_t(n)), vmask);
  __builtin_masked_store(m, v, p);
}

/// d[0, n) = z and d[0, n) = s[0, n) + z: whole vectors, then one masked vector. The kernels' rows
/// are 7 to 112 floats, which LLVM's own vectorized loops (four vectors an iteration) leave mostly
/// to scalar remainders; the opaque zero z keeps LLVM from calling memset/memcpy (libc is not
/// linked into generated code, and a call costs more than a short row).
MIE_UK_INLINE void fillFloats(float *d, int64_t n, float z) {
  int64_t i = 0;
  for (; i + VL <= n; i += VL)
    store(d + i, splat(z));
  if (i < n)
    storeFirst(d + i, splat(z), n - i);
}
MIE_UK_INLINE void copyFloats(float *__restrict d, const float *__restrict s, int64_t n, float z) {
  int64_t i = 0;
  for (; i + VL <= n; i += VL)
    store(d + i, load(s + i) + splat(z));
  if (i < n)
    storeFirst(d + i, loadFirst(s + i, n - i) + splat(z), n - i);
}

/// The first n < VL floats at p (zeros after), or a whole vector; never reads past p + n.
MIE_UK_INLINE vf loadN(const float *p, int64_t n) {
  return n >= VL ? load(p) : loadFirst(p, n);
}

/// Stores the first n < VL lanes of v (or all of them); never writes past p + n.
MIE_UK_INLINE void storeN(float *p, vf v, int64_t n, float z) {
  if (n >= VL)
    store(p, v);
  else
    storeFirst(p, v + splat(z), n);
}

/// e^x: x = n ln2 + r with |r| <= ln2 / 2, e^r by a degree-6 polynomial, 2^n through the exponent
/// bits.
MIE_UK_INLINE vf exp(vf x) {
  x = clamp(x, -87.3365478515625f, 88.37626266479492f);
  vf n = __builtin_elementwise_floor(fma(x, splat(1.44269504088896341f), splat(0.5f)));
  vf r = fma(n, splat(-0.693359375f), x);
  r = fma(n, splat(2.12194440e-4f), r);
  vf p = splat(1.9875691500e-4f);
  p = fma(p, r, splat(1.3981999507e-3f));
  p = fma(p, r, splat(8.3334519073e-3f));
  p = fma(p, r, splat(4.1665795894e-2f));
  p = fma(p, r, splat(1.6666665459e-1f));
  p = fma(p, r, splat(5.0000001201e-1f));
  p = fma(p, r * r, r + splat(1.0f));
  vi bits = (__builtin_convertvector(n, vi) + 127) << 23;
  return p * __builtin_bit_cast(vf, bits);
}

MIE_UK_INLINE vf sigmoid(vf x) { return splat(1.0f) / (splat(1.0f) + exp(-x)); }

/// tanh through e^(2|x|): 1 - 2 / (e^(2|x|) + 1), sign restored; exact to float rounding at |x|
/// > 9.
MIE_UK_INLINE vf tanh(vf x) {
  vf a = __builtin_elementwise_abs(x);
  vf t = splat(1.0f) - splat(2.0f) / (exp(a + a) + splat(1.0f));
  return __builtin_elementwise_copysign(t, x);
}

/// erf by Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7).
MIE_UK_INLINE vf erf(vf x) {
  vf a = __builtin_elementwise_abs(x);
  vf t = splat(1.0f) / fma(a, splat(0.3275911f), splat(1.0f));
  vf p = splat(1.061405429f);
  p = fma(p, t, splat(-1.453152027f));
  p = fma(p, t, splat(1.421413741f));
  p = fma(p, t, splat(-0.284496736f));
  p = fma(p, t, splat(0.254829592f));
  vf y = splat(1.0f) - p * t * exp(-a * a);
  return __builtin_elementwise_copysign(y, x);
}

/// The activations of mlir::mie::Activation, with the same formulas as mie::emitActivation.
MIE_UK_INLINE vf activate(vf x, int act) {
  switch (act) {
  case 1: // relu
    return vmax(x, splat(0.0f));
  case 2: // relu6
    return clamp(x, 0.0f, 6.0f);
  case 3: // sigmoid
    return sigmoid(x);
  case 4: // hard_sigmoid: relu6(x + 3) / 6
    return clamp(x + splat(3.0f), 0.0f, 6.0f) / splat(6.0f);
  case 5: // hard_swish
    return x * (clamp(x + splat(3.0f), 0.0f, 6.0f) / splat(6.0f));
  case 6: // silu
    return x * sigmoid(x);
  case 7: // gelu (erf)
    return (x * splat(0.5f)) * (splat(1.0f) + erf(x * splat(0.7071067811865476f)));
  case 8: { // gelu (tanh)
    vf inner = (x + splat(0.044715f) * x * x * x) * splat(0.7978845608028654f);
    return (x * splat(0.5f)) * (splat(1.0f) + tanh(inner));
  }
  case 9:
    return tanh(x);
  default:
    return x;
  }
}

/// Fills `rows` rows of `ld` floats at `plane` with the zero-padded image rows:
/// plane[r][q] = x[r - PH][q - PW] for q < cols inside the image, zero elsewhere (the padding and
/// the columns [cols, width) that whole-vector reads run into; width defaults to ld). `z` is
/// opaqueZero(). With `interiorOnly` only the image's elements are written: the caller filled
/// this plane, same geometry, before (the kernels loop over channels on one scratch plane, and
/// the padding is the same zeros for every channel; on 7x7 and 14x14 maps writing it again cost
/// as much as the copy).
MIE_UK_INLINE void fillPaddedPlane(const float *__restrict x, int64_t H, int64_t W, int64_t PH,
                                   int64_t PW, int64_t rows, int64_t cols, int64_t ld,
                                   float *__restrict plane, float z, int64_t width = -1,
                                   bool interiorOnly = false) {
  // Only the first `width` floats of a row are ever read (all of ld by default): no need to fill
  // the slack of a row sized for the widest ISA.
  if (width < 0 || width > ld)
    width = ld;
  const int64_t left = PW < cols ? PW : cols;
  int64_t right = PW + W < cols ? PW + W : cols; // first column past the image
  right = right < left ? left : right;
  // The rows inside the image: [r0, r1).
  const int64_t r0 = PH < 0 ? 0 : (PH < rows ? PH : rows);
  int64_t r1 = PH + H < rows ? PH + H : rows;
  r1 = r1 < r0 ? r0 : r1;
  for (int64_t r = r0; r < r1; ++r) {
    float *d = plane + r * ld;
    copyFloats(d + left, x + (r - PH) * W + left - PW, right - left, z);
    if (!interiorOnly) {
      fillFloats(d, left, z);
      if (width > right)
        fillFloats(d + right, width - right, z);
    }
  }
  if (interiorOnly)
    return;
  for (int64_t r = 0; r < r0; ++r)
    fillFloats(plane + r * ld, width, z);
  for (int64_t r = r1; r < rows; ++r)
    fillFloats(plane + r * ld, width, z);
}

/// The padded plane with every row split into its even columns (first half, ld / 2 floats) and
/// its odd ones (second half); zeros where the window leaves the image and past the row.
/// `interiorOnly` as for fillPaddedPlane: the zeros are already there.
MIE_UK_INLINE void fillSplitPlane(const float *__restrict x, int64_t H, int64_t W, int64_t PH,
                                  int64_t PW, int64_t rows, int64_t ld, int64_t width,
                                  float *__restrict plane, float z, bool interiorOnly = false) {
  // Only the first `width` floats of each half are read.
  const int64_t half = width < ld / 2 ? width : ld / 2;
  // Column pair j is (2 j - PW, 2 j + 1 - PW): wholly inside the image for j in [lo, hi), a
  // branch-free deinterleave; the few pairs at the borders are checked, and with interiorOnly
  // only those with a column in the image, [jFirst, jEnd), are written.
  const int64_t lo = (PW + 1) / 2 < half ? (PW + 1) / 2 : half;
  int64_t hi = (W + PW) / 2 < half ? (W + PW) / 2 : half;
  hi = hi < lo ? lo : hi;
  const int64_t jFirst = interiorOnly ? (PW / 2 < lo ? PW / 2 : lo) : 0;
  const int64_t jEnd = interiorOnly ? ((W + PW + 1) / 2 < half ? (W + PW + 1) / 2 : half) : half;
  const vf vz = splat(z);
  for (int64_t r = 0; r < rows; ++r) {
    float *even = plane + r * ld, *odd = even + ld / 2;
    const int64_t ih = r - PH;
    if (ih < 0 || ih >= H) {
      if (!interiorOnly) {
        fillFloats(even, half, z);
        fillFloats(odd, half, z);
      }
      continue;
    }
    const float *s = x + ih * W;
    auto edge = [&](int64_t j) {
      const int64_t c0 = 2 * j - PW, c1 = c0 + 1;
      even[j] = (c0 >= 0 && c0 < W ? s[c0] : 0.0f) + z;
      odd[j] = (c1 >= 0 && c1 < W ? s[c1] : 0.0f) + z;
    };
    for (int64_t j = jFirst; j < lo; ++j)
      edge(j);
    // Whole vectors (their 2 VL reads end on the pair hi - 1, inside the image), then one masked.
    const float *sp = s - PW;
    int64_t j = lo;
    for (; j + VL <= hi; j += VL) {
      const vf a = load(sp + 2 * j), b = load(sp + 2 * j + VL);
      store(even + j, evenLanes(a, b) + vz);
      store(odd + j, oddLanes(a, b) + vz);
    }
    if (j < hi) {
      const int64_t n = hi - j;
      vf a, b;
      loadFirstPair(sp + 2 * j, 2 * n, a, b);
      storeFirst(even + j, evenLanes(a, b) + vz, n);
      storeFirst(odd + j, oddLanes(a, b) + vz, n);
    }
    for (int64_t j = hi; j < jEnd; ++j)
      edge(j);
  }
}

/// The epilogue of one output vector whose bias and residual are already vectors (NHWC: channels in
/// the lanes, a bias per lane), flags as for the GEMM tiles (mie_ukernels.h): nothing unless
/// MIE_UK_EPILOGUE is set; `bias` and `res` are read only when their flags are.
MIE_UK_INLINE vf epilogueLanes(vf acc, int64_t flags, vf bias, vf res, float lo, float hi) {
  if (!(flags & MIE_UK_EPILOGUE))
    return acc;
  if (flags & MIE_UK_BIAS)
    acc += bias;
  if (flags & MIE_UK_RESIDUAL)
    acc += res;
  int act = int((flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
  if (act != MIE_UK_ACT_NONE)
    acc = activate(acc, act);
  if (flags & MIE_UK_CLAMP)
    acc = clamp(acc, lo, hi);
  return acc;
}

/// The epilogue of one output vector (bias value, residual row with `valid` lanes), flags as for
/// the GEMM tiles (mie_ukernels.h): nothing unless MIE_UK_EPILOGUE is set.
MIE_UK_INLINE vf epilogueVector(vf acc, int64_t flags, float bias, const float *res, int64_t valid,
                                float lo, float hi) {
  if (!(flags & MIE_UK_EPILOGUE))
    return acc;
  return epilogueLanes(acc, flags, splat(bias),
                       (flags & MIE_UK_RESIDUAL) ? loadN(res, valid) : splat(0.0f), lo, hi);
}

} // namespace mie_uk

#endif // MIE_UKERNEL_VECTOR_H
