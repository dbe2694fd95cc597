// RUN: ms-opt %s -split-input-file -mie-gpu-library-calls -verify-diagnostics | FileCheck %s
// RUN: ms-opt %s -split-input-file -mie-gpu-library-calls=libraries=cudnn -verify-diagnostics | FileCheck %s --check-prefix=CUDNN
// RUN: ms-opt %s -split-input-file -mie-gpu-library-calls=libraries=none -verify-diagnostics | FileCheck %s --check-prefix=NONE

// Tests that a GEMM of a cuda target becomes a kernel `gemm_cublaslt` holding the op, marked for
// cuBLASLt, on the kernel's arguments (ins: a, b, bias; outs: the output), with the bias and the
// tanh GELU fused (cuBLASLt's GELU_BIAS epilogue) and nothing generated after it; the kernel
// carries the product's flops (2 * 8 * 16 * 32 plus the epilogue's). Without cublaslt in
// `libraries` it stays as it is.
// CHECK-LABEL: func.func @gemm_bias_gelu
// CHECK: mie.kernel "gemm_cublaslt" ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<8x32xf32>, memref<16x32xf32>, memref<16xf32>) outs(%{{.+}} : memref<8x16xf32>)
// CHECK-SAME: attributes {mie.flops = {{[0-9]+}} : i64}
// CHECK-NEXT: ^bb0(%[[A:.+]]: memref<8x32xf32>, %[[B:.+]]: memref<16x32xf32>, %[[BIAS:.+]]: memref<16xf32>, %[[Y:.+]]: memref<8x16xf32>):
// CHECK-NEXT: mie.gemm ins(%[[A]], %[[B]] : memref<8x32xf32>, memref<16x32xf32>) bias(%[[BIAS]] : memref<16xf32>) outs(%[[Y]] : memref<8x16xf32>)
// CHECK-SAME: epilogue = #mie.epilogue<bias, activation = gelu_tanh>
// CHECK-SAME: mie.gpu_library = "cublaslt"
// CHECK-SAME: trans_b
// CHECK-NEXT: mie.yield
// CHECK-NEXT: }
// CUDNN-LABEL: func.func @gemm_bias_gelu
// CUDNN-NOT: mie.kernel
// CUDNN: mie.gemm
// CUDNN-NOT: mie.gpu_library
// NONE-LABEL: func.func @gemm_bias_gelu
// NONE-NOT: mie.kernel
module attributes {mie.target = #mie.target<cuda, "sm_90">} {
func.func @gemm_bias_gelu(%a: memref<8x32xf32>, %b: memref<16x32xf32>, %bias: memref<16xf32>, %y: memref<8x16xf32>) {
  mie.gemm ins(%a, %b : memref<8x32xf32>, memref<16x32xf32>) bias(%bias : memref<16xf32>) outs(%y : memref<8x16xf32>) {trans_b, epilogue = #mie.epilogue<bias, activation = gelu_tanh>}
  return
}
}

// -----

// Tests that what cuBLASLt cannot fuse (the erf GELU, a clamp) is applied after the call by a
// linalg.generic in place on the output, in the same kernel, while bias and residual stay fused.
// CHECK-LABEL: func.func @gemm_rest
// CHECK: mie.kernel "gemm_cublaslt"
// CHECK: mie.gemm
// CHECK-SAME: residual(%{{.+}} : memref<2x4x8xf16>)
// CHECK-SAME: epilogue = #mie.epilogue<bias, residual>
// CHECK-SAME: mie.gpu_library = "cublaslt"
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%{{.+}} : memref<2x4x8xf16>)
// CHECK: math.erf
// CHECK: arith.minimumf
// CHECK: mie.yield
module attributes {mie.target = #mie.target<cuda, "sm_80">} {
func.func @gemm_rest(%a: memref<2x4x16xf16>, %b: memref<2x16x8xf16>, %bias: memref<8xf16>, %r: memref<2x4x8xf16>, %y: memref<2x4x8xf16>) {
  mie.gemm ins(%a, %b : memref<2x4x16xf16>, memref<2x16x8xf16>) bias(%bias : memref<8xf16>) residual(%r : memref<2x4x8xf16>) outs(%y : memref<2x4x8xf16>) {accumulator = f32, epilogue = #mie.epilogue<bias, residual, activation = gelu, clamp = [-1.0, 1.0]>}
  return
}
}

// -----

// Tests that a convolution with the same padding on both sides becomes a kernel `conv2d_cudnn`
// with bias, residual and relu fused (cudnnConvolutionBiasActivationForward), and one padded
// unevenly, or on a cpu target, is left to the generated kernels.
// CHECK-LABEL: func.func @convs
// CHECK: mie.kernel "conv2d_cudnn" ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : memref<1x8x16x16xf32>, memref<16x4x3x3xf32>, memref<16xf32>, memref<1x16x8x8xf32>) outs(%{{.+}} : memref<1x16x8x8xf32>)
// CHECK: mie.conv2d
// CHECK-SAME: epilogue = #mie.epilogue<bias, residual, activation = relu>, groups = 2 : i64
// CHECK-SAME: mie.gpu_library = "cudnn"
// CHECK-SAME: strides = array<i64: 2, 2>
// CHECK-NEXT: mie.yield
// CHECK: mie.conv2d ins(%{{.+}}, %{{.+}} : memref<1x8x16x16xf32>, memref<16x4x3x3xf32>) outs(%{{.+}} : memref<1x16x8x8xf32>) {groups = 2 : i64, pads = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>}
// CHECK-NEXT: return
// CUDNN-LABEL: func.func @convs
// CUDNN: mie.kernel "conv2d_cudnn"
// NONE-LABEL: func.func @convs
// NONE-NOT: mie.kernel
module attributes {mie.target = #mie.target<cuda, "sm_90">} {
func.func @convs(%x: memref<1x8x16x16xf32>, %w: memref<16x4x3x3xf32>, %b: memref<16xf32>, %r: memref<1x16x8x8xf32>, %y: memref<1x16x8x8xf32>, %z: memref<1x16x8x8xf32>) {
  mie.conv2d ins(%x, %w : memref<1x8x16x16xf32>, memref<16x4x3x3xf32>) bias(%b : memref<16xf32>) residual(%r : memref<1x16x8x8xf32>) outs(%y : memref<1x16x8x8xf32>) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64, epilogue = #mie.epilogue<bias, residual, activation = relu>}
  mie.conv2d ins(%x, %w : memref<1x8x16x16xf32>, memref<16x4x3x3xf32>) outs(%z : memref<1x16x8x8xf32>) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, groups = 2 : i64}
  return
}
}

// -----

// Tests that a product written transposed (trans_c) stays a generated kernel: cuBLASLt's bias goes
// per row of its output, mie's per product column.
// CHECK-LABEL: func.func @trans_c
// CHECK-NOT: mie.kernel
// CHECK: mie.gemm
// CHECK-NOT: mie.gpu_library
module attributes {mie.target = #mie.target<cuda, "sm_90">} {
func.func @trans_c(%a: memref<8x32xf32>, %b: memref<32x16xf32>, %y: memref<16x8xf32>) {
  mie.gemm ins(%a, %b : memref<8x32xf32>, memref<32x16xf32>) outs(%y : memref<16x8xf32>) {trans_c}
  return
}
}

// -----

// Tests that cpu modules are left alone.
// CHECK-LABEL: func.func @cpu
// CHECK-NOT: mie.kernel
// CHECK-NOT: mie.gpu_library
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+f16c">} {
func.func @cpu(%a: memref<8x32xf32>, %b: memref<32x16xf32>, %y: memref<8x16xf32>) {
  mie.gemm ins(%a, %b : memref<8x32xf32>, memref<32x16xf32>) outs(%y : memref<8x16xf32>)
  return
}
}
