// RUN: ms-opt %s -split-input-file -mie-widen-accumulation | FileCheck %s

// Tests a bf16 grouped convolution summed in f32 (no microkernel: the portable path): its constant
// filter becomes an f32 global converted at compile time (the bf16 one leaves the module), the
// image and the bias are widened by one kernel each, the convolution runs on f32 buffers with no
// accumulator left, and a "narrow" kernel rounds its result into the original bf16 output once.

// CHECK: memref.global "private" constant @w_f32 : memref<4x2x3x3xf32>
// CHECK-NOT: memref.global "private" constant @w :
// CHECK-LABEL: func.func @grouped
// CHECK: mie.kernel "widen" ins(%arg0 : memref<1x4x6x6xbf16>) outs(%[[X:.+]] : memref<1x4x6x6xf32>)
// CHECK: arith.extf
// CHECK: %[[W:.+]] = memref.get_global @w_f32 : memref<4x2x3x3xf32>
// CHECK: mie.kernel "widen" ins(%arg1 : memref<4xbf16>) outs(%[[B:.+]] : memref<4xf32>)
// CHECK: mie.conv2d ins(%[[X]], %[[W]] : memref<1x4x6x6xf32>, memref<4x2x3x3xf32>) bias(%[[B]] : memref<4xf32>) outs(%[[Y:[^ ]+]] : memref<1x4x6x6xf32>)
// CHECK-NOT: accumulator
// CHECK: mie.kernel "narrow" ins(%[[Y]] : memref<1x4x6x6xf32>) outs(%arg2 : memref<1x4x6x6xbf16>)
// CHECK: arith.truncf
memref.global "private" constant @w : memref<4x2x3x3xbf16> = dense<0.5>
func.func @grouped(%x: memref<1x4x6x6xbf16>, %bias: memref<4xbf16>, %y: memref<1x4x6x6xbf16>) {
  %w = memref.get_global @w : memref<4x2x3x3xbf16>
  mie.conv2d ins(%x, %w : memref<1x4x6x6xbf16>, memref<4x2x3x3xbf16>) bias(%bias : memref<4xbf16>) outs(%y : memref<1x4x6x6xbf16>) {accumulator = f32, groups = 2 : i64, epilogue = #mie.epilogue<bias>, pads = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// Tests what stays: a product summed in its own type, one on a microkernel (tiling or ukernel, which
// take the accumulator themselves), and an f32 one.

// CHECK-LABEL: func.func @untouched
// CHECK-NOT: mie.kernel
// CHECK: mie.gemm {{.+}} {accumulator = bf16}
// CHECK: mie.conv2d {{.+}} {accumulator = f32
// CHECK-SAME: ukernel = #mie.ukernel<depthwise, "avx512">
// CHECK: mie.gemm {{.+}} : memref<2x3xf32>
// CHECK-NOT: mie.kernel
func.func @untouched(%a: memref<2x4xbf16>, %b: memref<4x3xbf16>, %c: memref<2x3xbf16>,
                     %x: memref<1x4x6x6xbf16>, %w: memref<4x1x3x3xbf16>, %y: memref<1x4x6x6xbf16>,
                     %af: memref<2x4xf32>, %bf: memref<4x3xf32>, %cf: memref<2x3xf32>) {
  mie.gemm ins(%a, %b : memref<2x4xbf16>, memref<4x3xbf16>) outs(%c : memref<2x3xbf16>) {accumulator = bf16}
  mie.conv2d ins(%x, %w : memref<1x4x6x6xbf16>, memref<4x1x3x3xbf16>) outs(%y : memref<1x4x6x6xbf16>) {accumulator = f32, groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<depthwise, "avx512">}
  mie.gemm ins(%af, %bf : memref<2x4xf32>, memref<4x3xf32>) outs(%cf : memref<2x3xf32>)
  return
}
