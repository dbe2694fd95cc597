//===- ukernels.cpp - every microkernel family of one ISA in one unit -----===//
//
// The unit the build compiles once per ISA (to bitcode for the compiler, natively for the tests).
//
//===----------------------------------------------------------------------===//

#include "f32_dwconv.cpp"
#include "f32_gemm.cpp"
#include "f32_winograd.cpp"
