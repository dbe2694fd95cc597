// RUN: ms-opt %s -split-input-file -ms-fuse-epilogues | FileCheck %s

// ResNet's tail: conv2d (with its bias) + residual add + relu is one group.

// CHECK-LABEL: func.func @conv_residual_relu
// CHECK: %[[F:.+]] = ms.fused "conv2d_add_relu" ins(%arg0, %arg1, %arg2, %arg3 : {{.+}}) -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<1x4x8x8xf32>, %[[W:.+]]: tensor<4x4x3x3xf32>, %[[B:.+]]: tensor<4xf32>, %[[R:.+]]: tensor<1x4x8x8xf32>):
// CHECK-NEXT: %[[C:.+]] = ms.conv2d %[[X]], %[[W]], %[[B]] {pads = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: %[[A:.+]] = ms.add %[[C]], %[[R]]
// CHECK-NEXT: %[[Y:.+]] = ms.relu %[[A]]
// CHECK-NEXT: ms.yield %[[Y]]
// CHECK: return %[[F]]
func.func @conv_residual_relu(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>,
                              %r: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %c = ms.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %a = ms.add %c, %r : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %y = ms.relu %a : tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

// A transformer linear layer: matmul [.., M, K] x [K, N] + bias vector + GELU, and a clip after a
// relu-free conv (bounds 0 and 6: relu6).

// CHECK-LABEL: func.func @matmul_bias_gelu
// CHECK: ms.fused "matmul_add_gelu" ins(%arg0, %arg1, %arg2 : tensor<1x16x32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> tensor<1x16x64xf32>
// CHECK: ms.fused "conv2d_clip" ins
func.func @matmul_bias_gelu(%x: tensor<1x16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>,
                            %i: tensor<1x4x8x8xf32>, %f: tensor<4x4x1x1xf32>) -> (tensor<1x16x64xf32>, tensor<1x4x8x8xf32>) {
  %m = ms.matmul %x, %w : (tensor<1x16x32xf32>, tensor<32x64xf32>) -> tensor<1x16x64xf32>
  %a = ms.add %b, %m : (tensor<64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %g = ms.gelu %a : tensor<1x16x64xf32>
  %c = ms.conv2d %i, %f : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %k = ms.clip %c {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x4x8x8xf32>
  return %g, %k : tensor<1x16x64xf32>, tensor<1x4x8x8xf32>
}

// -----

// SiLU written out as x * sigmoid(x) after a gemm with a rank-1 bias.

// CHECK-LABEL: func.func @gemm_silu
// CHECK: ms.fused "gemm_sigmoid_mul" ins
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[G:.+]] = ms.gemm
// CHECK-NEXT: %[[S:.+]] = ms.sigmoid %[[G]]
// CHECK-NEXT: %[[M:.+]] = ms.mul %[[G]], %[[S]]
// CHECK-NEXT: ms.yield %[[M]]
func.func @gemm_silu(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %g = ms.gemm %a, %b, %c : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %s = ms.sigmoid %g : tensor<2x4xf32>
  %m = ms.mul %g, %s : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

// -----

// Left alone: a conv2d whose result is also returned (a second user), an add of a row vector that
// is not per-output-channel, and a batched matmul whose right operand is not a matrix.

// CHECK-LABEL: func.func @not_fused
// CHECK-NOT: ms.fused
func.func @not_fused(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x1x1xf32>, %row: tensor<8xf32>,
                     %p: tensor<2x3x4xf32>, %q: tensor<2x4x5xf32>)
    -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<2x3x5xf32>) {
  %c = ms.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %r = ms.relu %c : tensor<1x4x8x8xf32>
  %c2 = ms.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %a = ms.add %c2, %row : (tensor<1x4x8x8xf32>, tensor<8xf32>) -> tensor<1x4x8x8xf32>
  %m = ms.matmul %p, %q : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %n = ms.relu %m : tensor<2x3x5xf32>
  return %c, %r, %a, %n : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<2x3x5xf32>
}

// -----

// Hard-swish as MobileNetV3 exports it at opset 13: x * hard_sigmoid(x) with PyTorch's parameters.
// A hard_sigmoid with ONNX's default parameters (alpha 0.2) is not the epilogue's and stays out.

// CHECK-LABEL: func.func @conv_hard_swish
// CHECK: ms.fused "conv2d_hard_sigmoid_mul" ins
// CHECK: %[[C2:.+]] = ms.conv2d %arg0, %arg1
// CHECK-NEXT: ms.hard_sigmoid %[[C2]] :
// CHECK-NOT: ms.fused
func.func @conv_hard_swish(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x1x1xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  %c = ms.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %g = ms.hard_sigmoid %c {alpha = 0.16666666666666666 : f64, beta = 0.5 : f64} : tensor<1x4x8x8xf32>
  %m = ms.mul %c, %g : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c2 = ms.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %g2 = ms.hard_sigmoid %c2 : tensor<1x4x8x8xf32>
  %m2 = ms.mul %c2, %g2 : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %m, %m2 : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}

// -----

// An epilogue in a region of control flow does not pull its anchor in (in a loop body it would
// run once per iteration): the matmul stays where it is, unfused.
// CHECK-LABEL: func.func @epilogue_across_region
// CHECK: %[[M:.+]] = ms.matmul %arg1, %arg2
// CHECK-NEXT: ms.if
// CHECK-NEXT: ms.add %[[M]], %arg3
// CHECK-NOT: ms.fused
func.func @epilogue_across_region(%c: tensor<i1>, %a: tensor<4x8xf32>, %w: tensor<8x8xf32>, %r: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = ms.matmul %a, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %0 = ms.if %c : tensor<i1> -> (tensor<4x8xf32>) {
    %s = ms.add %m, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %t = ms.relu %s : tensor<4x8xf32>
    ms.region_yield %t : tensor<4x8xf32>
  } else {
    ms.region_yield %r : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// Symbolic dims: matmul [batch, seq, 32] x [32, 32] + bias + residual is one group when the
// residual has the result's dims (the same symbols)...

// CHECK-LABEL: func.func @symbolic_residual
// CHECK: ms.fused "matmul_add_add" ins(%arg0, %arg1, %arg2 : tensor<?x?x32xf32>, tensor<32x32xf32>, tensor<32xf32>) -> tensor<?x?x32xf32>
// CHECK: ms.add %{{.+}}, %arg3 : (tensor<?x?x32xf32>, tensor<?x?x32xf32>)
func.func @symbolic_residual(%x: tensor<?x?x32xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1, 32)>},
                             %w: tensor<32x32xf32>, %b: tensor<32xf32>) -> tensor<?x?x32xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %m = ms.matmul %x, %w : (tensor<?x?x32xf32>, tensor<32x32xf32>) -> tensor<?x?x32xf32>
  %a = ms.add %m, %b : (tensor<?x?x32xf32>, tensor<32xf32>) -> tensor<?x?x32xf32>
  %r = ms.add %a, %x : (tensor<?x?x32xf32>, tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  return %r : tensor<?x?x32xf32>
}

// -----

// ... but not when the residual's `?` dims are other symbols (they may be 1 and broadcast at
// run time), nor when a dim has no expression (an argument without ms.shape).

// CHECK-LABEL: func.func @symbolic_residual_other_dims
// CHECK: ms.fused "matmul_add" ins(%arg0, %arg1, %arg2
// CHECK-NEXT: ^bb0
// CHECK-NEXT: ms.matmul
// CHECK-NEXT: ms.add
// CHECK-NEXT: ms.yield
// CHECK: ms.add %{{.+}}, %arg3
// CHECK-LABEL: func.func @unknown_dims
// CHECK-NOT: ms.fused
func.func @symbolic_residual_other_dims(
    %x: tensor<?x?x32xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1, 32)>},
    %w: tensor<32x32xf32>, %b: tensor<32xf32>,
    %y: tensor<?x?x32xf32> {ms.shape = affine_map<()[s0, s1] -> (s1, s0, 32)>}) -> tensor<?x?x32xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %m = ms.matmul %x, %w : (tensor<?x?x32xf32>, tensor<32x32xf32>) -> tensor<?x?x32xf32>
  %a = ms.add %m, %b : (tensor<?x?x32xf32>, tensor<32xf32>) -> tensor<?x?x32xf32>
  %r = ms.add %a, %y : (tensor<?x?x32xf32>, tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  return %r : tensor<?x?x32xf32>
}
func.func @unknown_dims(%x: tensor<?x32xf32>, %w: tensor<32x32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %m = ms.matmul %x, %w : (tensor<?x32xf32>, tensor<32x32xf32>) -> tensor<?x32xf32>
  %a = ms.add %m, %b : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  return %a : tensor<?x32xf32>
}
