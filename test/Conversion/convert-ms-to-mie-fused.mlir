// RUN: ms-opt %s -split-input-file -verify-diagnostics -convert-ms-to-mie | FileCheck %s

// Each ms.fused group becomes one kernel. An anchored group is one library kernel with the chain as
// its epilogue: here a matmul over [1, 16, 32] rows (collapsed to one 16x32 GEMM) with bias and GELU.

// CHECK-LABEL: func.func @anchored
// CHECK: %[[OUT:.+]] = mie.alloc : memref<1x16x64xf32>
// CHECK: %[[A:.+]] = memref.collapse_shape %arg0 {{\[}}[0, 1], [2]] : memref<1x16x32xf32> into memref<16x32xf32>
// CHECK: %[[O:.+]] = memref.collapse_shape %[[OUT]] {{\[}}[0, 1], [2]] : memref<1x16x64xf32> into memref<16x64xf32>
// CHECK: mie.gemm ins(%[[A]], %arg1 : memref<16x32xf32>, memref<32x64xf32>) bias(%arg2 : memref<64xf32>) outs(%[[O]] : memref<16x64xf32>) {epilogue = #mie.epilogue<bias, activation = gelu>}
// CHECK-NOT: mie.kernel
// CHECK: return %[[OUT]]
func.func @anchored(%x: tensor<1x16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<1x16x64xf32> {
  %r = ms.fused "matmul_add_gelu" ins(%x, %w, %b : tensor<1x16x32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> tensor<1x16x64xf32> {
  ^bb0(%a: tensor<1x16x32xf32>, %c: tensor<32x64xf32>, %d: tensor<64xf32>):
    %m = ms.matmul %a, %c : (tensor<1x16x32xf32>, tensor<32x64xf32>) -> tensor<1x16x64xf32>
    %s = ms.add %d, %m : (tensor<64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
    %g = ms.gelu %s : tensor<1x16x64xf32>
    ms.yield %g : tensor<1x16x64xf32>
  }
  return %r : tensor<1x16x64xf32>
}

// -----

// Conv2d with a [1, C, 1, 1] bias add (collapsed to the epilogue's vector), a residual and relu6.

// CHECK-LABEL: func.func @conv_chain
// CHECK: %[[B:.+]] = memref.collapse_shape %arg2 {{\[}}[0, 1, 2, 3]] : memref<1x4x1x1xf32> into memref<4xf32>
// CHECK: mie.conv2d ins(%arg0, %arg1 : {{.+}}) bias(%[[B]] : memref<4xf32>) residual(%arg3 : memref<1x4x8x8xf32>) outs(%{{.+}} : memref<1x4x8x8xf32>) {epilogue = #mie.epilogue<bias, residual, activation = relu6>}
func.func @conv_chain(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x1x1xf32>, %b: tensor<1x4x1x1xf32>, %r: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %y = ms.fused "conv2d_add_add_clip" ins(%x, %w, %b, %r : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>, tensor<1x4x1x1xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  ^bb0(%a: tensor<1x4x8x8xf32>, %f: tensor<4x4x1x1xf32>, %c: tensor<1x4x1x1xf32>, %d: tensor<1x4x8x8xf32>):
    %0 = ms.conv2d %a, %f : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
    %1 = ms.add %0, %c : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
    %2 = ms.add %1, %d : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %3 = ms.clip %2 {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x4x8x8xf32>
    ms.yield %3 : tensor<1x4x8x8xf32>
  }
  return %y : tensor<1x4x8x8xf32>
}

// -----

// A group rooted at a reduction: one kernel whose reduction body computes the members per element
// ((x - m)^2 is never stored) with a reassociable sum (so it vectorizes), then the mean's division.

// CHECK-LABEL: func.func @reduction
// CHECK: mie.kernel "sub_mul_reduce_mean" ins(%arg0, %arg1 : memref<4x8xf32>, memref<4x1xf32>) outs(%{{.+}} : memref<4x1xf32>)
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[M:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: %[[Q:.+]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[Q]] fastmath<reassoc> : f32
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: arith.divf
// CHECK: mie.yield
// CHECK-NOT: mie.kernel
func.func @reduction(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %r = ms.fused "sub_mul_reduce_mean" ins(%x, %m : tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x1xf32>):
    %d = ms.sub %a, %b : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    %q = ms.mul %d, %d : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %r = ms.reduce_mean %q {axes = array<i64: -1>, keep_dims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
    ms.yield %r : tensor<4x1xf32>
  }
  return %r : tensor<4x1xf32>
}

// -----

// An elementwise group: one kernel with one linalg.generic computing the chain.

// CHECK-LABEL: func.func @elementwise
// CHECK: mie.kernel "sub_exp_mul" ins(%arg0, %arg1 : memref<4x8xf32>, memref<8xf32>)
// CHECK-COUNT-1: linalg.generic
// CHECK: arith.subf
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: linalg.yield
// CHECK-NOT: mie.kernel
func.func @elementwise(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = ms.fused "sub_exp_mul" ins(%x, %v : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8xf32>):
    %d = ms.sub %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %e = ms.exp %d : tensor<4x8xf32>
    %m = ms.mul %e, %d : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ms.yield %m : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Attention: the library op mie.attention on the buffers (mie-select-kernels and
// mie-lower-library-kernels choose and emit its kernel).

// CHECK-LABEL: func.func @attention
// CHECK: %[[O:.+]] = mie.alloc : memref<2x4x4xf32>
// CHECK: mie.attention ins(%arg0, %arg1, %arg2 : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x4xf32>) outs(%[[O]] : memref<2x4x4xf32>) {scale = 5.000000e-01 : f64}
// CHECK-NOT: mie.kernel
func.func @attention(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x4xf32>) -> tensor<2x4x4xf32> {
  %o = ms.attention %q, %k, %v {scale = 0.5 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A group that is neither an epilogue chain nor elementwise cannot be one kernel: an error at the
// group, never a silent split.

func.func @bad_group(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'ms.fused' op cannot be lowered to one kernel: member 'ms.transpose' ends the group but is neither elementwise nor a float reduction}}
  %r = ms.fused "relu_transpose" ins(%x : tensor<4x8xf32>) -> tensor<8x4xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %e = ms.relu %a : tensor<4x8xf32>
    %t = ms.transpose %e {perms = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    ms.yield %t : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}

// -----

// An elementwise group over a map whose rows (7) are shorter than a vector: its operands all have
// the output's shape or one element, so the kernel reads the flat buffers as [T / B, B] rows, B
// the longest multiple of 16 up to 4096 dividing T = 64 * 14 * 7 = 6272: 3136, two rows. The
// one-element operands are read as 0-d buffers.
// CHECK-LABEL: func.func @elementwise_flat_rows
// CHECK: mie.kernel "cast_sub_mul_add"
// CHECK: ^bb0(%[[X:.+]]: memref<1x64x14x7xi8>, %[[Z:.+]]: memref<f32>, %[[S:.+]]: memref<1x1x1x1xf32>, %[[R:.+]]: memref<1x64x14x7xf32>, %[[O:.+]]: memref<1x64x14x7xf32>):
// CHECK: %[[XV:.+]] = memref.collapse_shape %[[X]] {{\[}}[0, 1, 2, 3]] : memref<1x64x14x7xi8> into memref<6272xi8>
// CHECK: %[[XR:.+]] = memref.expand_shape %[[XV]] {{\[}}[0, 1]] output_shape [2, 3136] : memref<6272xi8> into memref<2x3136xi8>
// CHECK: %[[S0:.+]] = memref.collapse_shape %[[S]] [] : memref<1x1x1x1xf32> into memref<f32>
// CHECK: %[[RR:.+]] = memref.expand_shape {{.+}} : memref<6272xf32> into memref<2x3136xf32>
// CHECK: %[[OR:.+]] = memref.expand_shape {{.+}} : memref<6272xf32> into memref<2x3136xf32>
// CHECK: linalg.generic {{.+}} ins(%[[XR]], %[[Z]], %[[S0]], %[[RR]] : memref<2x3136xi8>, memref<f32>, memref<f32>, memref<2x3136xf32>) outs(%[[OR]] : memref<2x3136xf32>)
func.func @elementwise_flat_rows(%x: tensor<1x64x14x7xui8>, %z: tensor<f32>, %s: tensor<1x1x1x1xf32>, %r: tensor<1x64x14x7xf32>) -> tensor<1x64x14x7xf32> {
  %y = ms.fused "cast_sub_mul_add" ins(%x, %z, %s, %r : tensor<1x64x14x7xui8>, tensor<f32>, tensor<1x1x1x1xf32>, tensor<1x64x14x7xf32>) -> tensor<1x64x14x7xf32> {
  ^bb0(%a: tensor<1x64x14x7xui8>, %b: tensor<f32>, %c: tensor<1x1x1x1xf32>, %d: tensor<1x64x14x7xf32>):
    %0 = ms.cast %a : tensor<1x64x14x7xui8> to tensor<1x64x14x7xf32>
    %1 = ms.sub %0, %b : (tensor<1x64x14x7xf32>, tensor<f32>) -> tensor<1x64x14x7xf32>
    %2 = ms.mul %1, %c : (tensor<1x64x14x7xf32>, tensor<1x1x1x1xf32>) -> tensor<1x64x14x7xf32>
    %3 = ms.add %2, %d : (tensor<1x64x14x7xf32>, tensor<1x64x14x7xf32>) -> tensor<1x64x14x7xf32>
    ms.yield %3 : tensor<1x64x14x7xf32>
  }
  return %y : tensor<1x64x14x7xf32>
}

// -----

// A per-channel operand ([1, C, 1, 1]) broadcasts along some dimensions only: the kernel keeps the
// output's shape.
// CHECK-LABEL: func.func @elementwise_channel_broadcast
// CHECK: mie.kernel "sub_mul"
// CHECK-NOT: memref.expand_shape
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : memref<1x64x14x7xf32>)
func.func @elementwise_channel_broadcast(%x: tensor<1x64x14x7xf32>, %b: tensor<1x64x1x1xf32>) -> tensor<1x64x14x7xf32> {
  %y = ms.fused "sub_mul" ins(%x, %b : tensor<1x64x14x7xf32>, tensor<1x64x1x1xf32>) -> tensor<1x64x14x7xf32> {
  ^bb0(%a: tensor<1x64x14x7xf32>, %c: tensor<1x64x1x1xf32>):
    %0 = ms.sub %a, %c : (tensor<1x64x14x7xf32>, tensor<1x64x1x1xf32>) -> tensor<1x64x14x7xf32>
    %1 = ms.mul %0, %a : (tensor<1x64x14x7xf32>, tensor<1x64x14x7xf32>) -> tensor<1x64x14x7xf32>
    ms.yield %1 : tensor<1x64x14x7xf32>
  }
  return %y : tensor<1x64x14x7xf32>
}
