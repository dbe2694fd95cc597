//===- ukernels.cpp - every microkernel family of one ISA in one unit -----===//
//
// The unit the build compiles once per ISA (to bitcode for the compiler, natively for the tests).
//
//===----------------------------------------------------------------------===//

#include "f32_attention.cpp"
#include "f32_dwconv.cpp"
#include "f32_dwconv_nhwc.cpp"
#include "f32_gemm.cpp"
#include "f32_maxpool.cpp"
// After f32_gemm.cpp: instantiates its tiles with the same per-ISA macros.
#include "f32_conv_direct.cpp"
#include "f32_winograd.cpp"
#if defined(MIE_UK_ISA_NEON)
// After f32_gemm.cpp: its packing templates pack the f16 panels.
#include "f16_gemm_neon.cpp"
#endif
#if defined(MIE_UK_AMX)
// The AMX targets' unit: the AVX-512 kernels above, the bf16 AMX family and the uint8 x int8
// VNNI convolution (every AMX CPU has AVX512-VNNI).
#include "bf16_amx.cpp"
#include "qu8_conv_vnni.cpp"
#elif defined(MIE_UK_VNNI)
// The AVX-512 + VNNI targets' unit: the AVX-512 kernels above and the VNNI convolution.
#include "qu8_conv_vnni.cpp"
#endif
