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

} // namespace mie_uk

#endif // MIE_UKERNEL_BF16_H
