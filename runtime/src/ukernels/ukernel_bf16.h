//===- ukernel_bf16.h - bf16 storage in the f32 microkernels ---------------===//
//
// bf16 tensors (as uint16_t) read and written by kernels that compute in f32: VL elements widened
// to f32 in registers (a shift, exact), and f32 rounded to bf16 once, at the store, to nearest even
// (NaN stays a quiet NaN). The overloads for float pass through, so one kernel template serves
// both storage types (the depthwise kernels, NCHW and NHWC).
//
//===----------------------------------------------------------------------===//
#ifndef MIE_UKERNEL_BF16_H
#define MIE_UKERNEL_BF16_H

#include "ukernel_vector.h"

namespace mie_uk {

typedef uint16_t vh __attribute__((ext_vector_type(MIE_UK_VL), aligned(2)));

MIE_UK_INLINE vf widen(vh h) {
  return __builtin_bit_cast(vf, __builtin_convertvector(h, vi) << 16);
}
MIE_UK_INLINE vf loadElems(const float *p) { return load(p); }
MIE_UK_INLINE vf loadElems(const uint16_t *p) { return widen(*reinterpret_cast<const vh *>(p)); }
MIE_UK_INLINE vf maskedLoadElems(vmask m, const float *p) {
  return __builtin_masked_load(m, p, splat(0.0f));
}
MIE_UK_INLINE vf maskedLoadElems(vmask m, const uint16_t *p) {
  return widen(__builtin_masked_load(m, p, vh(uint16_t(0))));
}
MIE_UK_INLINE vh roundToBf16(vf x) {
  const vi u = __builtin_bit_cast(vi, x);
  const vi rounded = (u + vi(0x7fff) + ((u >> 16) & vi(1))) >> 16;
  const vi quiet = (u >> 16) | vi(0x40);
  const vi nan = (u & vi(0x7fffffff)) > vi(0x7f800000);
  return __builtin_convertvector(nan ? quiet : rounded, vh);
}
/// The lanes [0, n) (n <= VL) of a mask.
MIE_UK_INLINE vmask firstLanes(int64_t n) {
  return __builtin_convertvector(laneIndex() < vi(int32_t(n)), vmask);
}
/// The first `valid` lanes of a row of outputs (f32 or bf16), zeros after.
MIE_UK_INLINE vf loadFirstElems(const float *p, int64_t valid) { return loadN(p, valid); }
MIE_UK_INLINE vf loadFirstElems(const uint16_t *p, int64_t valid) {
  return maskedLoadElems(firstLanes(valid), p);
}
MIE_UK_INLINE void storeElems(float *p, vf v, int64_t valid, float z) { storeN(p, v, valid, z); }
MIE_UK_INLINE void storeElems(uint16_t *p, vf v, int64_t valid, float) {
  __builtin_masked_store(firstLanes(valid), roundToBf16(v), p);
}
/// Whole vectors: a plain store (f32), or the rounded vector (bf16).
MIE_UK_INLINE void storeElems(float *p, vf v) { store(p, v); }
MIE_UK_INLINE void storeElems(uint16_t *p, vf v) { *reinterpret_cast<vh *>(p) = roundToBf16(v); }
/// A masked store (lanes where m is set).
MIE_UK_INLINE void maskedStoreElems(vmask m, float *p, vf v) { __builtin_masked_store(m, v, p); }
MIE_UK_INLINE void maskedStoreElems(vmask m, uint16_t *p, vf v) {
  __builtin_masked_store(m, roundToBf16(v), p);
}

/// The vector of VL elements of a storage type: floats, or the bits of a 16-bit type (bf16, f16),
/// for code that moves elements without computing on them (packing).
template <typename T> struct Lanes;
template <> struct Lanes<float> {
  typedef vf type;
};
template <> struct Lanes<uint16_t> {
  typedef vh type;
};

/// opaqueZero (ukernel_vector.h) of either storage type: the zero that fillElems and copyElems
/// store or add.
template <typename T> MIE_UK_INLINE T opaqueZeroOf() {
  T z = 0;
  __asm__("" : "+r"(z));
  return z;
}

/// fillFloats and copyFloats for either storage type (16-bit elements are copied as bits: `z`
/// is or-ed in, which keeps LLVM from turning the loops into memset / memcpy calls).
MIE_UK_INLINE void fillElems(float *d, int64_t n, float z) { fillFloats(d, n, z); }
MIE_UK_INLINE void copyElems(float *__restrict d, const float *__restrict s, int64_t n, float z) {
  copyFloats(d, s, n, z);
}
MIE_UK_INLINE void fillElems(uint16_t *d, int64_t n, uint16_t z) {
  int64_t i = 0;
  for (; i + VL <= n; i += VL)
    *reinterpret_cast<vh *>(d + i) = vh(z);
  if (i < n)
    __builtin_masked_store(firstLanes(n - i), vh(z), d + i);
}
MIE_UK_INLINE void copyElems(uint16_t *__restrict d, const uint16_t *__restrict s, int64_t n,
                             uint16_t z) {
  int64_t i = 0;
  for (; i + VL <= n; i += VL)
    *reinterpret_cast<vh *>(d + i) = *reinterpret_cast<const vh *>(s + i) | vh(z);
  if (i < n) {
    const vmask m = firstLanes(n - i);
    __builtin_masked_store(m, __builtin_masked_load(m, s + i, vh(z)) | vh(z), d + i);
  }
}

} // namespace mie_uk

#endif // MIE_UKERNEL_BF16_H
