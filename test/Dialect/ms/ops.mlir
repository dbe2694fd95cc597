// RUN: ms-opt %s -split-input-file | ms-opt -split-input-file | FileCheck %s
// RUN: %python %mie_src_root/test/Utils/check_op_coverage.py ms %mie_src_root/dialects/ms/IR %s %S/invalid.mlir
// RUN: ms-opt %s -split-input-file -mlir-print-op-generic | ms-opt -split-input-file | FileCheck %s

// Round trip of every ms op in its custom form and through the generic form.

// CHECK-LABEL: func @binary
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: ms.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = ms.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ms.sub
  %1 = ms.sub %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ms.mul
  %2 = ms.mul %1, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ms.div
  %3 = ms.div %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ms.pow
  %4 = ms.pow %3, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ms.max
  %5 = ms.max %4, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ms.min
  %6 = ms.min %5, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %6 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @broadcast_both_ways
func.func @broadcast_both_ways(%a: tensor<4x1xi64>, %b: tensor<1x5xi64>) -> tensor<4x5xi64> {
  // CHECK: ms.add %{{.*}}, %{{.*}} : (tensor<4x1xi64>, tensor<1x5xi64>) -> tensor<4x5xi64>
  %0 = ms.add %a, %b : (tensor<4x1xi64>, tensor<1x5xi64>) -> tensor<4x5xi64>
  return %0 : tensor<4x5xi64>
}

// -----

// CHECK-LABEL: func @dynamic_broadcast
func.func @dynamic_broadcast(%a: tensor<?x8xf16>, %b: tensor<8xf16>) -> tensor<?x8xf16> {
  // CHECK: ms.mul %{{.*}}, %{{.*}} : (tensor<?x8xf16>, tensor<8xf16>) -> tensor<?x8xf16>
  %0 = ms.mul %a, %b : (tensor<?x8xf16>, tensor<8xf16>) -> tensor<?x8xf16>
  return %0 : tensor<?x8xf16>
}

// -----

// CHECK-LABEL: func @compare_where
func.func @compare_where(%a: tensor<4xf32>, %b: tensor<1xf32>) -> tensor<4xf32> {
  // CHECK: ms.compare lt, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  %m = ms.compare lt, %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  // CHECK: ms.compare eq
  %e = ms.compare eq, %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  // CHECK: ms.compare ne
  %n = ms.compare ne, %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  // CHECK: ms.compare le
  %l = ms.compare le, %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  // CHECK: ms.compare gt
  %g = ms.compare gt, %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  // CHECK: ms.compare ge
  %h = ms.compare ge, %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  // CHECK: ms.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  %r = ms.where %m, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<1x64xf32>, %i: tensor<8xi32>) -> tensor<1x64xf32> {
  // CHECK: ms.relu %{{.*}} : tensor<1x64xf32>
  %0 = ms.relu %x : tensor<1x64xf32>
  // CHECK: ms.sigmoid
  %1 = ms.sigmoid %0 : tensor<1x64xf32>
  // CHECK: ms.hard_swish
  %2 = ms.hard_swish %1 : tensor<1x64xf32>
  // CHECK: ms.tanh
  %3 = ms.tanh %2 : tensor<1x64xf32>
  // CHECK: ms.erf
  %4 = ms.erf %3 : tensor<1x64xf32>
  // CHECK: ms.exp
  %5 = ms.exp %4 : tensor<1x64xf32>
  // CHECK: ms.log
  %6 = ms.log %5 : tensor<1x64xf32>
  // CHECK: ms.sqrt
  %7 = ms.sqrt %6 : tensor<1x64xf32>
  // CHECK: ms.rsqrt
  %8 = ms.rsqrt %7 : tensor<1x64xf32>
  // CHECK: ms.neg
  %9 = ms.neg %8 : tensor<1x64xf32>
  // CHECK: ms.abs
  %10 = ms.abs %9 : tensor<1x64xf32>
  // CHECK: ms.reciprocal
  %11 = ms.reciprocal %10 : tensor<1x64xf32>
  // CHECK: ms.clip %{{.*}} {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<1x64xf32>
  %12 = ms.clip %11 {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x64xf32>
  // CHECK: ms.clip %{{.*}} {min = -1.000000e+00 : f64} : tensor<1x64xf32>
  %13 = ms.clip %12 {min = -1.0 : f64} : tensor<1x64xf32>
  // Default-valued attributes (beta = 0.5) are elided.
  // CHECK: ms.hard_sigmoid %{{.*}} {alpha = 0.16666666666666666 : f64} : tensor<1x64xf32>
  %14 = ms.hard_sigmoid %13 {alpha = 0.16666666666666666 : f64, beta = 0.5 : f64} : tensor<1x64xf32>
  // CHECK: ms.gelu %{{.*}} : tensor<1x64xf32>
  %15 = ms.gelu %14 : tensor<1x64xf32>
  // CHECK: ms.gelu %{{.*}} {approximate} : tensor<1x64xf32>
  %16 = ms.gelu %15 {approximate} : tensor<1x64xf32>
  // CHECK: ms.relu %{{.*}} : tensor<8xi32>
  %17 = ms.relu %i : tensor<8xi32>
  // CHECK: ms.neg %{{.*}} : tensor<8xi32>
  %18 = ms.neg %17 : tensor<8xi32>
  // CHECK: ms.abs %{{.*}} : tensor<8xi32>
  %19 = ms.abs %18 : tensor<8xi32>
  return %16 : tensor<1x64xf32>
}

// -----

// CHECK-LABEL: func @math_unary
func.func @math_unary(%x: tensor<2x5xf32>, %i: tensor<6xi32>) -> (tensor<2x5xf32>, tensor<6xi32>) {
  // CHECK: ms.floor %{{.*}} : tensor<2x5xf32>
  %0 = ms.floor %x : tensor<2x5xf32>
  // CHECK: ms.ceil
  %1 = ms.ceil %0 : tensor<2x5xf32>
  // CHECK: ms.round
  %2 = ms.round %1 : tensor<2x5xf32>
  // CHECK: ms.sign %{{.*}} : tensor<2x5xf32>
  %3 = ms.sign %2 : tensor<2x5xf32>
  // CHECK: ms.sin
  %4 = ms.sin %3 : tensor<2x5xf32>
  // CHECK: ms.cos
  %5 = ms.cos %4 : tensor<2x5xf32>
  // CHECK: ms.tan
  %6 = ms.tan %5 : tensor<2x5xf32>
  // CHECK: ms.asin
  %7 = ms.asin %6 : tensor<2x5xf32>
  // CHECK: ms.acos
  %8 = ms.acos %7 : tensor<2x5xf32>
  // CHECK: ms.atan
  %9 = ms.atan %8 : tensor<2x5xf32>
  // CHECK: ms.sinh
  %10 = ms.sinh %9 : tensor<2x5xf32>
  // CHECK: ms.cosh
  %11 = ms.cosh %10 : tensor<2x5xf32>
  // CHECK: ms.asinh
  %12 = ms.asinh %11 : tensor<2x5xf32>
  // CHECK: ms.acosh
  %13 = ms.acosh %12 : tensor<2x5xf32>
  // CHECK: ms.atanh %{{.*}} : tensor<2x5xf32>
  %14 = ms.atanh %13 : tensor<2x5xf32>
  // CHECK: ms.sign %{{.*}} : tensor<6xi32>
  %15 = ms.sign %i : tensor<6xi32>
  return %14, %15 : tensor<2x5xf32>, tensor<6xi32>
}

// -----

// CHECK-LABEL: func @classify
func.func @classify(%x: tensor<4xf16>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: ms.is_nan %{{.*}} : tensor<4xf16> -> tensor<4xi1>
  %0 = ms.is_nan %x : tensor<4xf16> -> tensor<4xi1>
  // Default-valued flags are elided.
  // CHECK: ms.is_inf %{{.*}} : tensor<4xf16> -> tensor<4xi1>
  %1 = ms.is_inf %x {detect_negative = true} : tensor<4xf16> -> tensor<4xi1>
  // CHECK: ms.is_inf %{{.*}} {detect_positive = false} : tensor<4xf16> -> tensor<4xi1>
  %2 = ms.is_inf %x {detect_positive = false} : tensor<4xf16> -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func @mod_bitwise
func.func @mod_bitwise(%a: tensor<3x4xi32>, %b: tensor<4xi32>, %x: tensor<4xf32>, %m: tensor<4xi1>)
    -> (tensor<3x4xi32>, tensor<4xf32>, tensor<4xi1>) {
  // CHECK: ms.mod %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  %0 = ms.mod %a, %b : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: ms.mod %{{.*}}, %{{.*}} {fmod} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = ms.mod %x, %x {fmod} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: ms.and %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  %2 = ms.and %0, %b : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: ms.or
  %3 = ms.or %2, %b : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: ms.xor
  %4 = ms.xor %3, %a : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
  // CHECK: ms.shift_left
  %5 = ms.shift_left %4, %b : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: ms.shift_right
  %6 = ms.shift_right %5, %b : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: ms.not %{{.*}} : tensor<3x4xi32>
  %7 = ms.not %6 : tensor<3x4xi32>
  // CHECK: ms.and %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %8 = ms.and %m, %m : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK: ms.not %{{.*}} : tensor<4xi1>
  %9 = ms.not %8 : tensor<4xi1>
  return %7, %1, %9 : tensor<3x4xi32>, tensor<4xf32>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func @cast
func.func @cast(%x: tensor<1x64xf32>, %i: tensor<3xi64>) -> (tensor<1x64xf16>, tensor<1x64xbf16>, tensor<3xf32>, tensor<3xi1>) {
  // CHECK: ms.cast %{{.*}} : tensor<1x64xf32> to tensor<1x64xf16>
  %0 = ms.cast %x : tensor<1x64xf32> to tensor<1x64xf16>
  // CHECK: ms.cast %{{.*}} : tensor<1x64xf32> to tensor<1x64xbf16>
  %1 = ms.cast %x : tensor<1x64xf32> to tensor<1x64xbf16>
  // CHECK: ms.cast %{{.*}} : tensor<3xi64> to tensor<3xf32>
  %2 = ms.cast %i : tensor<3xi64> to tensor<3xf32>
  // CHECK: ms.cast %{{.*}} : tensor<3xi64> to tensor<3xi1>
  %3 = ms.cast %i : tensor<3xi64> to tensor<3xi1>
  return %0, %1, %2, %3 : tensor<1x64xf16>, tensor<1x64xbf16>, tensor<3xf32>, tensor<3xi1>
}

// -----

// The 8-bit and 4-bit floats and 4-bit and 2-bit integers, with ONNX Cast's saturate and round_mode.
// CHECK-LABEL: func @cast_narrow
func.func @cast_narrow(%x: tensor<4xf32>, %q: tensor<4xi4>) -> (tensor<4xf8E4M3FN>, tensor<4xf8E8M0FNU>, tensor<4xui2>, tensor<4xf4E2M1FN>) {
  // CHECK: ms.cast %{{.*}} {saturate} : tensor<4xf32> to tensor<4xf8E4M3FN>
  %0 = ms.cast %x {saturate} : tensor<4xf32> to tensor<4xf8E4M3FN>
  // CHECK: ms.cast %{{.*}} {round_mode = "down"} : tensor<4xf32> to tensor<4xf8E8M0FNU>
  %1 = ms.cast %x {round_mode = "down"} : tensor<4xf32> to tensor<4xf8E8M0FNU>
  // CHECK: ms.cast %{{.*}} : tensor<4xi4> to tensor<4xui2>
  %2 = ms.cast %q : tensor<4xi4> to tensor<4xui2>
  // CHECK: ms.cast %{{.*}} : tensor<4xf8E4M3FN> to tensor<4xf4E2M1FN>
  %3 = ms.cast %0 : tensor<4xf8E4M3FN> to tensor<4xf4E2M1FN>
  return %0, %1, %2, %3 : tensor<4xf8E4M3FN>, tensor<4xf8E8M0FNU>, tensor<4xui2>, tensor<4xf4E2M1FN>
}

// -----

// CHECK-LABEL: func @qconv2d
func.func @qconv2d(%x: tensor<1x16x9x9xui8>, %w: tensor<8x16x3x3xi8>, %b: tensor<8xi32>,
                   %s: tensor<8xf32>) -> tensor<1x8x5x5xui8> {
  // CHECK: ms.qconv2d %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {input_zero_point = 128 : i64, output_min = 3 : i64, output_zero_point = 3 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x9x9xui8>, tensor<8x16x3x3xi8>, tensor<8xi32>, tensor<8xf32>) -> tensor<1x8x5x5xui8>
  %0 = ms.qconv2d %x, %w, %b, %s {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>,
                                  input_zero_point = 128 : i64, output_zero_point = 3 : i64,
                                  output_min = 3 : i64}
      : (tensor<1x16x9x9xui8>, tensor<8x16x3x3xi8>, tensor<8xi32>, tensor<8xf32>) -> tensor<1x8x5x5xui8>
  return %0 : tensor<1x8x5x5xui8>
}

// -----

// CHECK-LABEL: func @conv2d
func.func @conv2d(%x: tensor<1x3x224x224xf32>, %w: tensor<32x3x3x3xf32>, %b: tensor<32xf32>,
                  %dw: tensor<32x1x3x3xf32>) -> tensor<1x32x112x112xf32> {
  // CHECK: ms.conv2d %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>) -> tensor<1x32x112x112xf32>
  %0 = ms.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x224x224xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>) -> tensor<1x32x112x112xf32>
  // Depthwise: groups = channels.
  // CHECK: ms.conv2d %{{.*}}, %{{.*}} {groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x112x112xf32>
  %1 = ms.conv2d %0, %dw {groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x112x112xf32>
  // Dilated, asymmetric padding, accumulation type.
  // CHECK: ms.conv2d %{{.*}}, %{{.*}} {acc_type = f32, dilations = array<i64: 2, 2>, groups = 32 : i64, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x112x112xf32>
  %2 = ms.conv2d %1, %dw {groups = 32 : i64, dilations = array<i64: 2, 2>, pads = array<i64: 2, 2, 2, 2>, acc_type = f32}
      : (tensor<1x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x112x112xf32>
  // Channels last (NHWC input and output, the filter as it is), stride 2.
  // CHECK: ms.conv2d %{{.*}}, %{{.*}} {channels_last, groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x112x112x32xf32>, tensor<32x1x3x3xf32>) -> tensor<1x56x56x32xf32>
  %t = ms.transpose %2 {perms = array<i64: 0, 2, 3, 1>} : (tensor<1x32x112x112xf32>) -> tensor<1x112x112x32xf32>
  %3 = ms.conv2d %t, %dw {channels_last, groups = 32 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x112x112x32xf32>, tensor<32x1x3x3xf32>) -> tensor<1x56x56x32xf32>
  return %2 : tensor<1x32x112x112xf32>
}

// -----

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<2x12x128x64xf32>, %b: tensor<2x12x64x128xf32>, %w: tensor<64x32xf32>,
                  %v: tensor<64xf32>) -> (tensor<2x12x128x128xf32>, tensor<2x12x128x32xf32>, tensor<2x12x128xf32>) {
  // CHECK: ms.matmul %{{.*}}, %{{.*}} : (tensor<2x12x128x64xf32>, tensor<2x12x64x128xf32>) -> tensor<2x12x128x128xf32>
  %0 = ms.matmul %a, %b : (tensor<2x12x128x64xf32>, tensor<2x12x64x128xf32>) -> tensor<2x12x128x128xf32>
  // Broadcast of a 2-D weight over the batch dims.
  // CHECK: ms.matmul %{{.*}}, %{{.*}} : (tensor<2x12x128x64xf32>, tensor<64x32xf32>) -> tensor<2x12x128x32xf32>
  %1 = ms.matmul %a, %w : (tensor<2x12x128x64xf32>, tensor<64x32xf32>) -> tensor<2x12x128x32xf32>
  // 1-D rhs: the trailing dim disappears.
  // CHECK: ms.matmul %{{.*}}, %{{.*}} : (tensor<2x12x128x64xf32>, tensor<64xf32>) -> tensor<2x12x128xf32>
  %2 = ms.matmul %a, %v : (tensor<2x12x128x64xf32>, tensor<64xf32>) -> tensor<2x12x128xf32>
  return %0, %1, %2 : tensor<2x12x128x128xf32>, tensor<2x12x128x32xf32>, tensor<2x12x128xf32>
}

// -----

// CHECK-LABEL: func @gemm
func.func @gemm(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) -> tensor<1x1000xf32> {
  // CHECK: ms.gemm %{{.*}}, %{{.*}}, %{{.*}} {trans_b} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  %0 = ms.gemm %x, %w, %b {trans_b} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  // CHECK: ms.gemm %{{.*}}, %{{.*}} {alpha = 5.000000e-01 : f64, trans_a, trans_b} : (tensor<512x1xf32>, tensor<1000x512xf32>) -> tensor<1x1000xf32>
  %t = ms.transpose %x {perms = array<i64: 1, 0>} : (tensor<1x512xf32>) -> tensor<512x1xf32>
  %1 = ms.gemm %t, %w {trans_a, trans_b, alpha = 0.5 : f64} : (tensor<512x1xf32>, tensor<1000x512xf32>) -> tensor<1x1000xf32>
  return %1 : tensor<1x1000xf32>
}

// -----

// CHECK-LABEL: func @norms
func.func @norms(%x: tensor<1x64x56x56xf32>, %p: tensor<64xf32>, %h: tensor<1x128x768xf32>,
                 %g: tensor<768xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x128x768xf32>) {
  // CHECK: ms.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64} : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %0 = ms.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-3 : f64}
      : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  // CHECK: ms.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.9999999999999998E-13 : f64} : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  %1 = ms.layer_norm %h, %g, %g {axis = -1 : i64, epsilon = 1.0e-12 : f64}
      : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  // CHECK: ms.layer_norm %{{.*}}, %{{.*}} : (tensor<1x128x768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  %2 = ms.layer_norm %1, %g : (tensor<1x128x768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  // CHECK: ms.softmax %{{.*}} : (tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
  %3 = ms.softmax %2 {axis = -1 : i64} : (tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
  // CHECK: ms.softmax %{{.*}} {axis = 1 : i64}
  %4 = ms.softmax %3 {axis = 1 : i64} : (tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
  return %0, %4 : tensor<1x64x56x56xf32>, tensor<1x128x768xf32>
}

// -----

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<2x8x4xf32>) -> (tensor<2x1x4xf32>, tensor<2xf32>, tensor<f32>, tensor<1x1x1xf32>) {
  // CHECK: ms.reduce_sum %{{.*}} {axes = array<i64: 1>, keep_dims} : (tensor<2x8x4xf32>) -> tensor<2x1x4xf32>
  %0 = ms.reduce_sum %x {axes = array<i64: 1>, keep_dims} : (tensor<2x8x4xf32>) -> tensor<2x1x4xf32>
  // CHECK: ms.reduce_mean %{{.*}} {axes = array<i64: -1, 1>} : (tensor<2x8x4xf32>) -> tensor<2xf32>
  %1 = ms.reduce_mean %x {axes = array<i64: -1, 1>} : (tensor<2x8x4xf32>) -> tensor<2xf32>
  // CHECK: ms.reduce_max %{{.*}} : (tensor<2x8x4xf32>) -> tensor<f32>
  %2 = ms.reduce_max %x : (tensor<2x8x4xf32>) -> tensor<f32>
  // CHECK: ms.reduce_min %{{.*}} {keep_dims} : (tensor<2x8x4xf32>) -> tensor<1x1x1xf32>
  %3 = ms.reduce_min %x {keep_dims} : (tensor<2x8x4xf32>) -> tensor<1x1x1xf32>
  return %0, %1, %2, %3 : tensor<2x1x4xf32>, tensor<2xf32>, tensor<f32>, tensor<1x1x1xf32>
}

// -----

// CHECK-LABEL: func @scans
func.func @scans(%x: tensor<2x8x4xf32>, %i: tensor<3x5xi32>, %axis: tensor<1xi64>)
    -> (tensor<2x4xf32>, tensor<2x1x4xi64>, tensor<8x4xi64>, tensor<2x3x4xf32>, tensor<2x3x4xi64>,
        tensor<3x2xi32>, tensor<3x2xi64>, tensor<2x8x4xf32>, tensor<3x5xi32>) {
  // CHECK: ms.reduce_prod %{{.*}} {axes = array<i64: 1>} : (tensor<2x8x4xf32>) -> tensor<2x4xf32>
  %0 = ms.reduce_prod %x {axes = array<i64: 1>} : (tensor<2x8x4xf32>) -> tensor<2x4xf32>
  // CHECK: ms.arg_max %{{.*}} {axis = 1 : i64, keep_dims, select_last_index} : (tensor<2x8x4xf32>) -> tensor<2x1x4xi64>
  %1 = ms.arg_max %x {axis = 1 : i64, keep_dims, select_last_index} : (tensor<2x8x4xf32>) -> tensor<2x1x4xi64>
  // CHECK: ms.arg_min %{{.*}} : (tensor<2x8x4xf32>) -> tensor<8x4xi64>
  %2 = ms.arg_min %x : (tensor<2x8x4xf32>) -> tensor<8x4xi64>
  // CHECK: ms.top_k %{{.*}} {axis = 1 : i64, k = 3 : i64} : (tensor<2x8x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xi64>)
  %3:2 = ms.top_k %x {k = 3 : i64, axis = 1 : i64} : (tensor<2x8x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xi64>)
  // CHECK: ms.top_k %{{.*}} {k = 2 : i64, smallest} : (tensor<3x5xi32>) -> (tensor<3x2xi32>, tensor<3x2xi64>)
  %4:2 = ms.top_k %i {k = 2 : i64, smallest} : (tensor<3x5xi32>) -> (tensor<3x2xi32>, tensor<3x2xi64>)
  // CHECK: ms.cumsum %{{.*}}, %{{.*}} {exclusive, reverse} : (tensor<2x8x4xf32>, tensor<1xi64>) -> tensor<2x8x4xf32>
  %5 = ms.cumsum %x, %axis {exclusive, reverse} : (tensor<2x8x4xf32>, tensor<1xi64>) -> tensor<2x8x4xf32>
  %c = ms.constant dense<-1> : tensor<i32>
  // CHECK: ms.cumsum %{{.*}}, %{{.*}} : (tensor<3x5xi32>, tensor<i32>) -> tensor<3x5xi32>
  %6 = ms.cumsum %i, %c : (tensor<3x5xi32>, tensor<i32>) -> tensor<3x5xi32>
  return %0, %1, %2, %3#0, %3#1, %4#0, %4#1, %5, %6 : tensor<2x4xf32>, tensor<2x1x4xi64>, tensor<8x4xi64>,
      tensor<2x3x4xf32>, tensor<2x3x4xi64>, tensor<3x2xi32>, tensor<3x2xi64>, tensor<2x8x4xf32>, tensor<3x5xi32>
}

// -----

// CHECK-LABEL: func @pooling
func.func @pooling(%x: tensor<1x64x112x112xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x64x38x38xf32>) {
  // CHECK: ms.max_pool %{{.*}} {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %0 = ms.max_pool %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // CHECK: ms.avg_pool %{{.*}} {count_include_pad, kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %1 = ms.avg_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // CHECK: ms.global_avg_pool %{{.*}} : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
  %2 = ms.global_avg_pool %x : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
  // ceil_mode: (112 - 3) / 3 + 1 = 37 rounds up to 38.
  // CHECK: ms.max_pool %{{.*}} {ceil_mode, kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x38x38xf32>
  %3 = ms.max_pool %x {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>, ceil_mode}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x38x38xf32>
  return %0, %1, %2, %3 : tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x64x38x38xf32>
}

// -----

// CHECK-LABEL: func @constants
func.func @constants() -> (tensor<2x2xf32>, tensor<3xi64>) {
  // CHECK: ms.constant dense_resource<weight> : tensor<2x2xf32>
  %0 = ms.constant dense_resource<weight> : tensor<2x2xf32>
  // CHECK: ms.constant dense<[1, 2, 3]> : tensor<3xi64>
  %1 = ms.constant dense<[1, 2, 3]> : tensor<3xi64>
  return %0, %1 : tensor<2x2xf32>, tensor<3xi64>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// CHECK-LABEL: func @shape_ops
func.func @shape_ops(%x: tensor<1x512x1x1xf32>, %i: tensor<128xi64>) -> tensor<1x512xf32> {
  // CHECK: ms.reshape %{{.*}} {shape = array<i64: 1, 512>} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  %0 = ms.reshape %x {shape = array<i64: 1, 512>} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  // CHECK: ms.flatten %{{.*}} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  %1 = ms.flatten %x {axis = 1 : i64} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  // CHECK: ms.flatten %{{.*}} {axis = 0 : i64} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  %2 = ms.flatten %x {axis = 0 : i64} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  // CHECK: ms.squeeze %{{.*}} {axes = array<i64: 2, 3>} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  %3 = ms.squeeze %x {axes = array<i64: 2, 3>} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  // CHECK: ms.squeeze %{{.*}} : (tensor<1x512x1x1xf32>) -> tensor<512xf32>
  %4 = ms.squeeze %x : (tensor<1x512x1x1xf32>) -> tensor<512xf32>
  // CHECK: ms.unsqueeze %{{.*}} {axes = array<i64: 0, -1>} : (tensor<128xi64>) -> tensor<1x128x1xi64>
  %5 = ms.unsqueeze %i {axes = array<i64: 0, -1>} : (tensor<128xi64>) -> tensor<1x128x1xi64>
  return %0 : tensor<1x512xf32>
}

// -----

// CHECK-LABEL: func @data_movement
func.func @data_movement(%x: tensor<1x128x12x64xf32>, %a: tensor<1x16x8x8xf32>, %b: tensor<1x32x8x8xf32>)
    -> (tensor<1x12x128x64xf32>, tensor<1x48x8x8xf32>, tensor<1x16x8x8xf32>) {
  // CHECK: ms.transpose %{{.*}} {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x128x12x64xf32>) -> tensor<1x12x128x64xf32>
  %0 = ms.transpose %x {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x128x12x64xf32>) -> tensor<1x12x128x64xf32>
  // CHECK: ms.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
  %1 = ms.concat %a, %b {axis = 1 : i64} : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
  // CHECK: ms.split %{{.*}} {axis = -3 : i64, sizes = array<i64: 16, 16>} : (tensor<1x32x8x8xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>)
  %2:2 = ms.split %b {axis = -3 : i64, sizes = array<i64: 16, 16>} : (tensor<1x32x8x8xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>)
  return %0, %1, %2#1 : tensor<1x12x128x64xf32>, tensor<1x48x8x8xf32>, tensor<1x16x8x8xf32>
}

// -----

// CHECK-LABEL: func @slice_gather
func.func @slice_gather(%x: tensor<4x6xf32>, %t: tensor<30522x768xf32>, %ids: tensor<1x128xi64>)
    -> (tensor<4x2xf32>, tensor<2x6xf32>, tensor<1x128x768xf32>, tensor<4x1x128xf32>) {
  // CHECK: ms.slice %{{.*}} {sizes = array<i64: 4, 2>, starts = array<i64: 0, 1>, steps = array<i64: 1, 2>} : (tensor<4x6xf32>) -> tensor<4x2xf32>
  %0 = ms.slice %x {starts = array<i64: 0, 1>, sizes = array<i64: 4, 2>, steps = array<i64: 1, 2>} : (tensor<4x6xf32>) -> tensor<4x2xf32>
  // Negative step: rows 3 and 2, reversed.
  // CHECK: ms.slice %{{.*}} {sizes = array<i64: 2, 6>, starts = array<i64: 3, 0>, steps = array<i64: -1, 1>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %1 = ms.slice %x {starts = array<i64: 3, 0>, sizes = array<i64: 2, 6>, steps = array<i64: -1, 1>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  // CHECK: ms.gather %{{.*}}, %{{.*}} : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
  %2 = ms.gather %t, %ids {axis = 0 : i64} : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
  // CHECK: ms.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x6xf32>, tensor<1x128xi64>) -> tensor<4x1x128xf32>
  %3 = ms.gather %x, %ids {axis = 1 : i64} : (tensor<4x6xf32>, tensor<1x128xi64>) -> tensor<4x1x128xf32>
  return %0, %1, %2, %3 : tensor<4x2xf32>, tensor<2x6xf32>, tensor<1x128x768xf32>, tensor<4x1x128xf32>
}

// -----

// CHECK-LABEL: func @element_gathers_scatters
func.func @element_gathers_scatters(%d: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>)
    -> (tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  // CHECK: ms.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  %0 = ms.gather_elements %d, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // CHECK: ms.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  %1 = ms.scatter_elements %d, %i, %u {axis = -1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  // CHECK: ms.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, reduction = #ms<scatter_reduction max>}
  %2 = ms.scatter_elements %d, %i, %u {axis = 1 : i64, reduction = #ms<scatter_reduction max>} : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// Element gathers over symbolic dims: the result has the indices' shape; a `?` beside a static dim
// is not compared (the sizes decide: a symbolic data dim against static indices, a symbolic
// indices dim against static data), nor are indices with a `?` taken to be empty.
// CHECK-LABEL: func @element_gathers_symbolic
func.func @element_gathers_symbolic(%d: tensor<?x16x32xf32>, %i: tensor<?x16x16xi64>, %j: tensor<2x16x3xi64>, %k: tensor<?x8xi64>, %e: tensor<4x8xf32>)
    -> (tensor<?x16x16xf32>, tensor<2x16x3xf32>, tensor<?x8xf32>) {
  // CHECK: ms.gather_elements %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<?x16x32xf32>, tensor<?x16x16xi64>) -> tensor<?x16x16xf32>
  %0 = ms.gather_elements %d, %i {axis = 2 : i64} : (tensor<?x16x32xf32>, tensor<?x16x16xi64>) -> tensor<?x16x16xf32>
  // CHECK: ms.gather_elements %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<?x16x32xf32>, tensor<2x16x3xi64>) -> tensor<2x16x3xf32>
  %1 = ms.gather_elements %d, %j {axis = -1 : i64} : (tensor<?x16x32xf32>, tensor<2x16x3xi64>) -> tensor<2x16x3xf32>
  // CHECK: ms.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x8xf32>, tensor<?x8xi64>) -> tensor<?x8xf32>
  %2 = ms.gather_elements %e, %k {axis = 1 : i64} : (tensor<4x8xf32>, tensor<?x8xi64>) -> tensor<?x8xf32>
  return %0, %1, %2 : tensor<?x16x16xf32>, tensor<2x16x3xf32>, tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func @tuple_gathers_scatters
func.func @tuple_gathers_scatters(%d: tensor<2x3x4xf32>, %i: tensor<2x5x1xi64>, %j: tensor<2x2xi32>,
                                  %u: tensor<2x4xf32>) -> (tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x3x4xf32>) {
  // CHECK: ms.gather_nd %{{.*}}, %{{.*}} {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x1xi64>) -> tensor<2x5x4xf32>
  %0 = ms.gather_nd %d, %i {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x1xi64>) -> tensor<2x5x4xf32>
  // CHECK: ms.gather_nd %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x2xi32>) -> tensor<2x4xf32>
  %1 = ms.gather_nd %d, %j : (tensor<2x3x4xf32>, tensor<2x2xi32>) -> tensor<2x4xf32>
  // CHECK: ms.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} {reduction = #ms<scatter_reduction add>} : (tensor<2x3x4xf32>, tensor<2x2xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  %2 = ms.scatter_nd %d, %j, %u {reduction = #ms<scatter_reduction add>} : (tensor<2x3x4xf32>, tensor<2x2xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  return %0, %1, %2 : tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func @pad_expand_resize
func.func @pad_expand_resize(%x: tensor<1x3x4x4xf32>, %y: tensor<3x1xf32>)
    -> (tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>, tensor<1x3x2x4xf32>, tensor<2x3x6xf32>, tensor<1x3x8x8xf32>, tensor<1x3x7x9xf32>) {
  // CHECK: ms.pad %{{.*}} {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, value = 1.500000e+00 : f64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
  %0 = ms.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, mode = #ms<pad_mode constant>, value = 1.5 : f64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
  // CHECK: ms.pad %{{.*}} {mode = #ms<pad_mode reflect>, pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
  %1 = ms.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, mode = #ms<pad_mode reflect>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
  // Negative pads crop (constant mode only).
  // CHECK: ms.pad %{{.*}} {pads = array<i64: 0, 0, -1, 0, 0, 0, -1, 0>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x4xf32>
  %2 = ms.pad %x {pads = array<i64: 0, 0, -1, 0, 0, 0, -1, 0>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x4xf32>
  // CHECK: ms.expand %{{.*}} {shape = array<i64: 2, 1, 6>} : (tensor<3x1xf32>) -> tensor<2x3x6xf32>
  %3 = ms.expand %y {shape = array<i64: 2, 1, 6>} : (tensor<3x1xf32>) -> tensor<2x3x6xf32>
  // CHECK: ms.resize %{{.*}} {sizes = array<i64: 1, 3, 8, 8>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  %4 = ms.resize %x {sizes = array<i64: 1, 3, 8, 8>, mode = #ms<resize_mode nearest>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: ms.resize %{{.*}} {coordinate_mode = #ms<coordinate_mode align_corners>, mode = #ms<resize_mode linear>, nearest_mode = #ms<nearest_mode floor>, sizes = array<i64: 1, 3, 7, 9>}
  %5 = ms.resize %x {sizes = array<i64: 1, 3, 7, 9>, mode = #ms<resize_mode linear>, coordinate_mode = #ms<coordinate_mode align_corners>, nearest_mode = #ms<nearest_mode floor>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x7x9xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>, tensor<1x3x2x4xf32>, tensor<2x3x6xf32>, tensor<1x3x8x8xf32>, tensor<1x3x7x9xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Recurrences
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @recurrences
func.func @recurrences(%g1: tensor<5x2x1x8xf32>, %r1: tensor<1x8x8xf32>, %h1: tensor<1x2x8xf32>,
                       %g3: tensor<5x2x2x24xf32>, %r3: tensor<2x24x8xf32>, %rb: tensor<1x8xf32>,
                       %g3f: tensor<5x2x1x24xf32>, %r3f: tensor<1x24x8xf32>, %len: tensor<2xi32>,
                       %g4: tensor<5x2x1x32xf32>, %r4: tensor<1x32x8xf32>, %p: tensor<1x24xf32>) {
  // CHECK: ms.rnn %{{.*}}, %{{.*}} initial_h(%{{.*}}) {activation_alpha = array<f64: 0.000000e+00>, activation_beta = array<f64: 0.000000e+00>, activations = ["tanh"]} : (tensor<5x2x1x8xf32>, tensor<1x8x8xf32>, tensor<1x2x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  %0:2 = ms.rnn %g1, %r1 initial_h(%h1) {activations = ["tanh"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>}
      : (tensor<5x2x1x8xf32>, tensor<1x8x8xf32>, tensor<1x2x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  // CHECK: ms.gru %{{.*}}, %{{.*}} sequence_lens(%{{.*}}) {{{.*}}direction = #ms<rnn_direction bidirectional>{{.*}}} : (tensor<5x2x2x24xf32>, tensor<2x24x8xf32>, tensor<2xi32>) -> (tensor<5x2x2x8xf32>, tensor<2x2x8xf32>)
  %1:2 = ms.gru %g3, %r3 sequence_lens(%len) {direction = #ms<rnn_direction bidirectional>, activations = ["sigmoid", "tanh", "hardsigmoid", "relu"], activation_alpha = array<f64: 0.0, 0.0, 0.2, 0.0>, activation_beta = array<f64: 0.0, 0.0, 0.5, 0.0>, clip = 3.0 : f64}
      : (tensor<5x2x2x24xf32>, tensor<2x24x8xf32>, tensor<2xi32>) -> (tensor<5x2x2x8xf32>, tensor<2x2x8xf32>)
  // CHECK: ms.gru %{{.*}}, %{{.*}} recurrence_bias(%{{.*}}) {{{.*}}linear_before_reset{{.*}}} : (tensor<5x2x1x24xf32>, tensor<1x24x8xf32>, tensor<1x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  %2:2 = ms.gru %g3f, %r3f recurrence_bias(%rb) {linear_before_reset, activations = ["sigmoid", "tanh"], activation_alpha = array<f64: 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0>}
      : (tensor<5x2x1x24xf32>, tensor<1x24x8xf32>, tensor<1x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  // CHECK: ms.lstm %{{.*}}, %{{.*}} initial_h(%{{.*}}) initial_c(%{{.*}}) peepholes(%{{.*}}) sequence_lens(%{{.*}}) {{{.*}}direction = #ms<rnn_direction reverse>, input_forget} : (tensor<5x2x1x32xf32>, tensor<1x32x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x24xf32>, tensor<2xi32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>)
  %3:3 = ms.lstm %g4, %r4 initial_h(%h1) initial_c(%h1) peepholes(%p) sequence_lens(%len) {direction = #ms<rnn_direction reverse>, input_forget, activations = ["sigmoid", "tanh", "tanh"], activation_alpha = array<f64: 0.0, 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0, 0.0>}
      : (tensor<5x2x1x32xf32>, tensor<1x32x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x24xf32>, tensor<2xi32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// Fusion ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @fused
// CHECK: %[[R:.+]] = ms.fused "add_relu" ins(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<f32>):
// CHECK-NEXT: %[[S:.+]] = ms.add %[[X]], %[[Y]]
// CHECK-NEXT: %[[T:.+]] = ms.relu %[[S]]
// CHECK-NEXT: ms.yield %[[T]] : tensor<4xf32>
// CHECK: return %[[R]]
func.func @fused(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<4xf32> {
  %r = ms.fused "add_relu" ins(%a, %b : tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<f32>):
    %s = ms.add %x, %y : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %t = ms.relu %s : tensor<4xf32>
    ms.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @attention
// CHECK: ms.attention %{{.+}}, %{{.+}}, %{{.+}} {scale = 1.250000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x6x16xf32>, tensor<2x4x6x32xf32>) -> tensor<2x4x8x32xf32>
// CHECK: ms.attention %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {scale = 1.000000e+00 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x6x16xf32>, tensor<2x4x6x32xf32>, tensor<2x1x1x6xf32>) -> tensor<2x4x8x32xf32>
func.func @attention(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x6x16xf32>, %v: tensor<2x4x6x32xf32>,
                     %m: tensor<2x1x1x6xf32>) -> (tensor<2x4x8x32xf32>, tensor<2x4x8x32xf32>) {
  %0 = ms.attention %q, %k, %v {scale = 0.125 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x6x16xf32>, tensor<2x4x6x32xf32>) -> tensor<2x4x8x32xf32>
  %1 = ms.attention %q, %k, %v, %m {scale = 1.0 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x6x16xf32>, tensor<2x4x6x32xf32>, tensor<2x1x1x6xf32>) -> tensor<2x4x8x32xf32>
  return %0, %1 : tensor<2x4x8x32xf32>, tensor<2x4x8x32xf32>
}

// -----

// Token-major operands [B, S, H, D]; the mask broadcasts to the logical scores [B, H, S, T].
// Grouped-query: 2 key/value heads serve the 4 query heads (token-major: heads after positions).
// CHECK-LABEL: func.func @attention_grouped_query
// CHECK: ms.attention %{{.+}}, %{{.+}}, %{{.+}} {scale = 1.250000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x32xf32>) -> tensor<2x4x8x32xf32>
// CHECK: ms.attention %{{.+}}, %{{.+}}, %{{.+}} {scale = 1.250000e-01 : f64, token_major} : (tensor<2x8x4x16xf32>, tensor<2x6x1x16xf32>, tensor<2x6x1x32xf32>) -> tensor<2x8x4x32xf32>
func.func @attention_grouped_query(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x32xf32>,
                                   %qt: tensor<2x8x4x16xf32>, %kt: tensor<2x6x1x16xf32>, %vt: tensor<2x6x1x32xf32>) -> (tensor<2x4x8x32xf32>, tensor<2x8x4x32xf32>) {
  %0 = ms.attention %q, %k, %v {scale = 0.125 : f64} : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x32xf32>) -> tensor<2x4x8x32xf32>
  %1 = ms.attention %qt, %kt, %vt {scale = 0.125 : f64, token_major} : (tensor<2x8x4x16xf32>, tensor<2x6x1x16xf32>, tensor<2x6x1x32xf32>) -> tensor<2x8x4x32xf32>
  return %0, %1 : tensor<2x4x8x32xf32>, tensor<2x8x4x32xf32>
}

// -----

// CHECK-LABEL: func.func @attention_causal
// CHECK: ms.attention %{{.+}}, %{{.+}}, %{{.+}} {causal, scale = 1.250000e-01 : f64} : (tensor<2x4x6x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x6x32xf32>
func.func @attention_causal(%q: tensor<2x4x6x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x32xf32>) -> tensor<2x4x6x32xf32> {
  %0 = ms.attention %q, %k, %v {causal, scale = 0.125 : f64} : (tensor<2x4x6x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x6x32xf32>
  return %0 : tensor<2x4x6x32xf32>
}

// -----

// CHECK-LABEL: func.func @attention_token_major
// CHECK: ms.attention %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {scale = 1.250000e-01 : f64, token_major} : (tensor<2x8x4x16xf32>, tensor<2x6x4x16xf32>, tensor<2x6x4x32xf32>, tensor<2x1x8x6xf32>) -> tensor<2x8x4x32xf32>
func.func @attention_token_major(%q: tensor<2x8x4x16xf32>, %k: tensor<2x6x4x16xf32>, %v: tensor<2x6x4x32xf32>,
                                 %m: tensor<2x1x8x6xf32>) -> tensor<2x8x4x32xf32> {
  %0 = ms.attention %q, %k, %v, %m {scale = 0.125 : f64, token_major} : (tensor<2x8x4x16xf32>, tensor<2x6x4x16xf32>, tensor<2x6x4x32xf32>, tensor<2x1x8x6xf32>) -> tensor<2x8x4x32xf32>
  return %0 : tensor<2x8x4x32xf32>
}

// -----

// Control flow (ONNX If / Loop / Scan): regions use outer values directly (implicit captures).

// CHECK-LABEL: func.func @if_captures
// CHECK: %[[R:.+]]:2 = ms.if %{{.+}} : tensor<i1> -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK:   %[[S:.+]] = ms.add %arg1, %arg2
// CHECK:   ms.region_yield %[[S]], %arg1 : tensor<4xf32>, tensor<4xf32>
// CHECK: } else {
// CHECK:   ms.region_yield %arg2, %arg2 : tensor<4xf32>, tensor<4xf32>
// CHECK: }
func.func @if_captures(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = ms.if %c : tensor<i1> -> (tensor<4xf32>, tensor<4xf32>) {
    %s = ms.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ms.region_yield %s, %a : tensor<4xf32>, tensor<4xf32>
  } else {
    ms.region_yield %b, %b : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @loop_scan_outputs
// CHECK: ms.loop trip %{{.+}} : tensor<i64> iter_args(%arg0 : tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
// CHECK: ^bb0(%{{.+}}: tensor<i64>, %[[C:.+]]: tensor<i1>, %[[Y:.+]]: tensor<2xf32>):
// CHECK:   ms.region_yield %[[C]], %{{.+}}, %{{.+}} : tensor<i1>, tensor<2xf32>, tensor<2xf32>
func.func @loop_scan_outputs(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  %m = ms.constant dense<3> : tensor<i64>
  %0:2 = ms.loop trip %m : tensor<i64> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
    %z = ms.add %y, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ms.region_yield %c, %z, %z : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  return %0#0, %0#1 : tensor<2xf32>, tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @loop_while
// CHECK: ms.loop cond %arg0 : tensor<i1> iter_args(%arg1 : tensor<2xf32>) -> (tensor<2xf32>) {
func.func @loop_while(%c0: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ms.loop cond %c0 : tensor<i1> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
    %z = ms.add %y, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ms.region_yield %c, %z : tensor<i1>, tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @scan_axes
// CHECK: ms.scan states(%arg0 : tensor<2xf32>) inputs(%arg1 : tensor<2x5xf32>) {scan_input_axes = array<i64: 1>, scan_input_directions = array<i64: 1>, scan_output_axes = array<i64: 1>, scan_output_directions = array<i64: 0>} -> (tensor<2xf32>, tensor<2x5xf32>) {
// CHECK: ^bb0(%{{.+}}: tensor<2xf32>, %{{.+}}: tensor<2xf32>):
func.func @scan_axes(%h: tensor<2xf32>, %x: tensor<2x5xf32>) -> (tensor<2xf32>, tensor<2x5xf32>) {
  %0:2 = ms.scan states(%h : tensor<2xf32>) inputs(%x : tensor<2x5xf32>) {scan_input_axes = array<i64: 1>, scan_input_directions = array<i64: 1>, scan_output_axes = array<i64: 1>, scan_output_directions = array<i64: 0>} -> (tensor<2xf32>, tensor<2x5xf32>) {
  ^bb0(%s: tensor<2xf32>, %t: tensor<2xf32>):
    %n = ms.add %s, %t : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ms.region_yield %n, %n : tensor<2xf32>, tensor<2xf32>
  }
  return %0#0, %0#1 : tensor<2xf32>, tensor<2x5xf32>
}

// -----

// ms.check passes its input through; the condition is a one-element i1 tensor.
// CHECK-LABEL: func.func @check
func.func @check(%i: tensor<3xi64>, %ok: tensor<i1>, %ok1: tensor<1xi1>) -> (tensor<3xi64>, tensor<3xi64>) {
  // CHECK: ms.check %{{.*}}, %{{.*}} {message = "Slice node 's': bad"} : (tensor<3xi64>, tensor<i1>) -> tensor<3xi64>
  %0 = ms.check %i, %ok {message = "Slice node 's': bad"} : (tensor<3xi64>, tensor<i1>) -> tensor<3xi64>
  // CHECK: ms.check %{{.*}}, %{{.*}} {message = "m"} : (tensor<3xi64>, tensor<1xi1>) -> tensor<3xi64>
  %1 = ms.check %i, %ok1 {message = "m"} : (tensor<3xi64>, tensor<1xi1>) -> tensor<3xi64>
  return %0, %1 : tensor<3xi64>, tensor<3xi64>
}

// -----

// Ops with data-dependent extents: results at their upper bound plus a tensor<1xi64> count.
// CHECK-LABEL: func.func @dynamic_shape_ops
func.func @dynamic_shape_ops(%x: tensor<3x4xf32>, %u: tensor<5x3xi64>, %boxes: tensor<1x6x4xf32>,
                             %scores: tensor<1x2x6xf32>, %max: tensor<1xi64>, %iou: tensor<1xf32>)
    -> (tensor<2x12xi64>, tensor<12xf32>, tensor<5x3xi64>, tensor<12x3xi64>) {
  // CHECK: ms.non_zero %{{.*}} : (tensor<3x4xf32>) -> (tensor<2x12xi64>, tensor<1xi64>)
  %0:2 = ms.non_zero %x : (tensor<3x4xf32>) -> (tensor<2x12xi64>, tensor<1xi64>)
  // CHECK: ms.unique %{{.*}} {sorted} : (tensor<3x4xf32>) -> (tensor<12xf32>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<1xi64>)
  %1:5 = ms.unique %x {sorted} : (tensor<3x4xf32>) -> (tensor<12xf32>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<1xi64>)
  // CHECK: ms.unique %{{.*}} {axis = 0 : i64} : (tensor<5x3xi64>) -> (tensor<5x3xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<1xi64>)
  %2:5 = ms.unique %u {axis = 0 : i64} : (tensor<5x3xi64>) -> (tensor<5x3xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<1xi64>)
  // CHECK: ms.non_max_suppression %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {center_point_box, max_per_class = 6 : i64} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> (tensor<12x3xi64>, tensor<1xi64>)
  %3:2 = ms.non_max_suppression %boxes, %scores, %max, %iou, %iou {max_per_class = 6 : i64, center_point_box}
      : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> (tensor<12x3xi64>, tensor<1xi64>)
  return %0#0, %1#0, %2#0, %3#0 : tensor<2x12xi64>, tensor<12xf32>, tensor<5x3xi64>, tensor<12x3xi64>
}

// -----

// CHECK-LABEL: func @composites
func.func @composites(%x: tensor<1x8x2x3xf32>, %m: tensor<2x3x4xf32>, %k: tensor<i64>)
    -> (tensor<1x2x4x6xf32>, tensor<1x2x4x6xf32>, tensor<1x8x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  // CHECK: ms.tile %{{.*}} {repeats = array<i64: 1, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  %t = ms.tile %m {repeats = array<i64: 1, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  // CHECK: ms.depth_to_space %{{.*}} {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  %0 = ms.depth_to_space %x {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  // CHECK: ms.depth_to_space %{{.*}} {blocksize = 2 : i64, crd} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  %1 = ms.depth_to_space %x {blocksize = 2 : i64, crd} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  // CHECK: ms.space_to_depth %{{.*}} {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  %2 = ms.space_to_depth %0 {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  // CHECK: ms.trilu %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x3x4xf32>
  %3 = ms.trilu %m, %k : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x3x4xf32>
  // CHECK: ms.trilu %{{.*}} {lower} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %4 = ms.trilu %m {lower} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0, %1, %2, %3, %4 : tensor<1x2x4x6xf32>, tensor<1x2x4x6xf32>, tensor<1x8x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func @normalizations
func.func @normalizations(%x: tensor<2x4x3x3xf32>, %s: tensor<4xf32>) -> (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>) {
  // CHECK: ms.instance_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %0 = ms.instance_norm %x, %s, %s {epsilon = 1.0e-3 : f64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: ms.group_norm %{{.*}}, %{{.*}}, %{{.*}} {num_groups = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %1 = ms.group_norm %x, %s, %s {num_groups = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: ms.lp_normalization %{{.*}} {axis = 3 : i64, p = 2 : i64} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %2 = ms.lp_normalization %x {axis = 3 : i64, p = 2 : i64} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: ms.mean_variance_norm %{{.*}} {axes = array<i64: 0, 2, 3>} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %3 = ms.mean_variance_norm %x {axes = array<i64: 0, 2, 3>} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: ms.lrn %{{.*}} {alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 1.000000e+00 : f64, size = 3 : i64} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %4 = ms.lrn %x {size = 3 : i64, alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 1.0 : f64} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %0, %1, %2, %3 : tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @convolutions_3d_and_transposed
func.func @convolutions_3d_and_transposed(%x: tensor<1x4x5x6x6xf32>, %w: tensor<6x2x3x3x3xf32>, %b: tensor<6xf32>,
    %x2: tensor<1x4x5x5xf32>, %w2: tensor<4x1x3x3xf32>, %x1: tensor<2x3x7xf32>, %w1: tensor<3x2x4xf32>)
    -> (tensor<1x6x3x6x6xf32>, tensor<1x2x9x9xf32>, tensor<2x2x13xf32>) {
  // CHECK: ms.conv3d %{{.*}}, %{{.*}}, %{{.*}} {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1, 1, 1>, strides = array<i64: 2, 1, 1>} : (tensor<1x4x5x6x6xf32>, tensor<6x2x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x6x6xf32>
  %0 = ms.conv3d %x, %w, %b {strides = array<i64: 2, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, groups = 2 : i64}
      : (tensor<1x4x5x6x6xf32>, tensor<6x2x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x6x6xf32>
  // 2 * (5 - 1) + 0 + 1 * (3 - 1) + 1 - 1 - 1 = 9; 2 groups of 1 output channel.
  // CHECK: ms.conv_transpose %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 2 : i64, output_padding = array<i64: 0, 0>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x2x9x9xf32>
  %1 = ms.conv_transpose %x2, %w2 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, groups = 2 : i64}
      : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x2x9x9xf32>
  // 1-D, dilation 2, output_padding 1, a negative (zero-adding) end pad: 1 * 6 + 1 + 2 * 3 + 1 - 2 - (-1) = 13.
  // CHECK: ms.conv_transpose %{{.*}}, %{{.*}} {dilations = array<i64: 2>, output_padding = array<i64: 1>, pads = array<i64: 2, -1>, strides = array<i64: 1>} : (tensor<2x3x7xf32>, tensor<3x2x4xf32>) -> tensor<2x2x13xf32>
  %2 = ms.conv_transpose %x1, %w1 {strides = array<i64: 1>, pads = array<i64: 2, -1>, dilations = array<i64: 2>, output_padding = array<i64: 1>}
      : (tensor<2x3x7xf32>, tensor<3x2x4xf32>) -> tensor<2x2x13xf32>
  return %0, %1, %2 : tensor<1x6x3x6x6xf32>, tensor<1x2x9x9xf32>, tensor<2x2x13xf32>
}

// -----

// CHECK-LABEL: func.func @einsum
func.func @einsum(%a: tensor<2x3x4xf32>, %b: tensor<1x4x5xf32>, %c: tensor<5x5xf32>) -> (tensor<2x3x5xf32>, tensor<5xf32>, tensor<3xf32>) {
  // CHECK: ms.einsum %{{.*}}, %{{.*}} {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = ms.einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: ms.einsum %{{.*}} {equation = "ii->i"} : (tensor<5x5xf32>) -> tensor<5xf32>
  %1 = ms.einsum %c {equation = "ii->i"} : (tensor<5x5xf32>) -> tensor<5xf32>
  // CHECK: ms.einsum %{{.*}}, %{{.*}}, %{{.*}} {equation = "bij,bjk,kk->i"}
  %2 = ms.einsum %a, %b, %c {equation = "bij,bjk,kk->i"} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>, tensor<5x5xf32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<2x3x5xf32>, tensor<5xf32>, tensor<3xf32>
}

// -----

// Symbolic sizes: a label `?` in one operand and 1 in another stays `?`; against a static size
// other than 1 it takes that size.
// CHECK-LABEL: func.func @einsum_symbolic
func.func @einsum_symbolic(%a: tensor<?x3x4xf32>, %b: tensor<1x4x?xf32>, %d: tensor<7x5xf32>) -> (tensor<?x3x?xf32>, tensor<7x5x3xf32>) {
  // CHECK: ms.einsum %{{.*}}, %{{.*}} {equation = "bij,bjk->bik"} : (tensor<?x3x4xf32>, tensor<1x4x?xf32>) -> tensor<?x3x?xf32>
  %0 = ms.einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<?x3x4xf32>, tensor<1x4x?xf32>) -> tensor<?x3x?xf32>
  // CHECK: ms.einsum %{{.*}}, %{{.*}} {equation = "kij,kb->kbi"} : (tensor<?x3x4xf32>, tensor<7x5xf32>) -> tensor<7x5x3xf32>
  %1 = ms.einsum %a, %d {equation = "kij,kb->kbi"} : (tensor<?x3x4xf32>, tensor<7x5xf32>) -> tensor<7x5x3xf32>
  return %0, %1 : tensor<?x3x?xf32>, tensor<7x5x3xf32>
}

// -----

// CHECK-LABEL: func.func @pools_3d
func.func @pools_3d(%x: tensor<1x2x5x6x6xf32>) -> (tensor<1x2x3x3x3xf32>, tensor<1x2x3x3x3xf32>) {
  // CHECK: ms.max_pool %{{.*}} {dilations = array<i64: 1, 1, 1>, kernel = array<i64: 3, 2, 2>, pads = array<i64: 1, 0, 0, 1, 0, 0>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x5x6x6xf32>) -> tensor<1x2x3x3x3xf32>
  %0 = ms.max_pool %x {kernel = array<i64: 3, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 1, 0, 0, 1, 0, 0>, dilations = array<i64: 1, 1, 1>}
      : (tensor<1x2x5x6x6xf32>) -> tensor<1x2x3x3x3xf32>
  // CHECK: ms.avg_pool %{{.*}} {ceil_mode, count_include_pad, dilations = array<i64: 1, 1, 1>, kernel = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x5x6x6xf32>) -> tensor<1x2x3x3x3xf32>
  %1 = ms.avg_pool %x {kernel = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, ceil_mode, count_include_pad}
      : (tensor<1x2x5x6x6xf32>) -> tensor<1x2x3x3x3xf32>
  return %0, %1 : tensor<1x2x3x3x3xf32>, tensor<1x2x3x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @random
func.func @random() -> (tensor<2x3xf32>, tensor<4xf64>, tensor<f16>) {
  // CHECK: ms.random_uniform {element_type = f32, high = 2.000000e+00 : f64, low = -1.000000e+00 : f64, shape = array<i64: 2, 3>, stream = 0 : i64} : tensor<2x3xf32>
  %0 = ms.random_uniform {shape = array<i64: 2, 3>, element_type = f32, low = -1.0, high = 2.0, stream = 0} : tensor<2x3xf32>
  // CHECK: ms.random_normal {element_type = f64, mean = 1.000000e+00 : f64, scale = 5.000000e-01 : f64, seed = 3.000000e+00 : f64, shape = array<i64: 4>, stream = 1 : i64} : tensor<4xf64>
  %1 = ms.random_normal {shape = array<i64: 4>, element_type = f64, mean = 1.0, scale = 0.5, seed = 3.0, stream = 1} : tensor<4xf64>
  // CHECK: ms.random_uniform {element_type = f16, shape = array<i64>, stream = 2 : i64} : tensor<f16>
  %2 = ms.random_uniform {shape = array<i64>, element_type = f16, stream = 2} : tensor<f16>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4xf64>, tensor<f16>
}

// CHECK-LABEL: func.func @random_iteration
func.func @random_iteration(%i: tensor<i64>) -> tensor<3xf32> {
  // CHECK: ms.random_uniform iteration(%{{.+}} : tensor<i64>) {element_type = f32, shape = array<i64: 3>, stream = 0 : i64} : tensor<3xf32>
  %0 = ms.random_uniform iteration(%i : tensor<i64>) {shape = array<i64: 3>, element_type = f32, stream = 0} : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @image_decode
func.func @image_decode(%bytes: tensor<1058xui8>) -> (tensor<32x24x3xui8>, tensor<32x24x1xui8>) {
  // CHECK: ms.image_decode %{{.+}} {height = 32 : i64, pixel_format = #ms<pixel_format bgr>, width = 24 : i64} : (tensor<1058xui8>) -> tensor<32x24x3xui8>
  %0 = ms.image_decode %bytes {height = 32, width = 24, pixel_format = #ms<pixel_format bgr>} : (tensor<1058xui8>) -> tensor<32x24x3xui8>
  // CHECK: ms.image_decode %{{.+}} {height = 32 : i64, pixel_format = #ms<pixel_format grayscale>, width = 24 : i64} : (tensor<1058xui8>) -> tensor<32x24x1xui8>
  %1 = ms.image_decode %bytes {height = 32, width = 24, pixel_format = #ms<pixel_format grayscale>} : (tensor<1058xui8>) -> tensor<32x24x1xui8>
  return %0, %1 : tensor<32x24x3xui8>, tensor<32x24x1xui8>
}

// -----

// CHECK-LABEL: func.func @grid_sample
func.func @grid_sample(%x: tensor<1x2x3x4xf32>, %g: tensor<1x5x6x2xf32>, %v: tensor<2x1x3x4x5xf16>, %h: tensor<2x2x2x2x3xf16>) -> (tensor<1x2x5x6xf32>, tensor<2x1x2x2x2xf16>) {
  // CHECK: ms.grid_sample %{{.+}}, %{{.+}} {align_corners, mode = #ms<grid_sample_mode cubic>, padding_mode = #ms<grid_padding_mode reflection>} : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32>
  %0 = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode cubic>, padding_mode = #ms<grid_padding_mode reflection>, align_corners} : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32>
  // CHECK: ms.grid_sample %{{.+}}, %{{.+}} {mode = #ms<grid_sample_mode nearest>, padding_mode = #ms<grid_padding_mode zeros>} : (tensor<2x1x3x4x5xf16>, tensor<2x2x2x2x3xf16>) -> tensor<2x1x2x2x2xf16>
  %1 = ms.grid_sample %v, %h {mode = #ms<grid_sample_mode nearest>, padding_mode = #ms<grid_padding_mode zeros>} : (tensor<2x1x3x4x5xf16>, tensor<2x2x2x2x3xf16>) -> tensor<2x1x2x2x2xf16>
  return %0, %1 : tensor<1x2x5x6xf32>, tensor<2x1x2x2x2xf16>
}

// CHECK-LABEL: func.func @roi_align
func.func @roi_align(%x: tensor<2x3x8x8xf32>, %rois: tensor<4x4xf32>, %idx: tensor<4xi64>) -> (tensor<4x3x2x3xf32>, tensor<4x3x1x1xf32>) {
  // CHECK: ms.roi_align %{{.+}}, %{{.+}}, %{{.+}} {half_pixel, output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, spatial_scale = 5.000000e-01 : f64} : (tensor<2x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x2x3xf32>
  %0 = ms.roi_align %x, %rois, %idx {output_height = 2, output_width = 3, sampling_ratio = 2, spatial_scale = 0.5, half_pixel} : (tensor<2x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x2x3xf32>
  // CHECK: ms.roi_align %{{.+}}, %{{.+}}, %{{.+}} {max, output_height = 1 : i64, output_width = 1 : i64, sampling_ratio = 1 : i64, spatial_scale = 1.000000e+00 : f64} : (tensor<2x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x1x1xf32>
  %1 = ms.roi_align %x, %rois, %idx {output_height = 1, output_width = 1, sampling_ratio = 1, spatial_scale = 1.0, max} : (tensor<2x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x1x1xf32>
  return %0, %1 : tensor<4x3x2x3xf32>, tensor<4x3x1x1xf32>
}

// CHECK-LABEL: func.func @deform_conv
func.func @deform_conv(%x: tensor<1x4x5x5xf32>, %w: tensor<2x2x3x3xf32>, %off: tensor<1x36x3x3xf32>, %b: tensor<2xf32>, %m: tensor<1x18x3x3xf32>, %off1: tensor<1x18x5x5xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>) {
  // CHECK: ms.deform_conv %{{.+}}, %{{.+}}, %{{.+}} bias %{{.+}} mask %{{.+}} {dilations = array<i64: 1, 1>, groups = 2 : i64, offset_groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<2x2x3x3xf32>, tensor<1x36x3x3xf32>, tensor<2xf32>, tensor<1x18x3x3xf32>) -> tensor<1x2x3x3xf32>
  %0 = ms.deform_conv %x, %w, %off bias %b mask %m {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2, offset_groups = 2} : (tensor<1x4x5x5xf32>, tensor<2x2x3x3xf32>, tensor<1x36x3x3xf32>, tensor<2xf32>, tensor<1x18x3x3xf32>) -> tensor<1x2x3x3xf32>
  // CHECK: ms.deform_conv %{{.+}}, %{{.+}}, %{{.+}} {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<2x2x3x3xf32>, tensor<1x18x5x5xf32>) -> tensor<1x2x5x5xf32>
  %1 = ms.deform_conv %x, %w, %off1 {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2} : (tensor<1x4x5x5xf32>, tensor<2x2x3x3xf32>, tensor<1x18x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %0, %1 : tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>
}

// CHECK-LABEL: func.func @affine_grid
func.func @affine_grid(%t2: tensor<2x2x3xf32>, %t3: tensor<1x3x4xf16>) -> (tensor<2x2x3x2xf32>, tensor<1x2x3x4x3xf16>) {
  // CHECK: ms.affine_grid %{{.+}} {align_corners, size = array<i64: 2, 1, 2, 3>} : (tensor<2x2x3xf32>) -> tensor<2x2x3x2xf32>
  %0 = ms.affine_grid %t2 {size = array<i64: 2, 1, 2, 3>, align_corners} : (tensor<2x2x3xf32>) -> tensor<2x2x3x2xf32>
  // CHECK: ms.affine_grid %{{.+}} {size = array<i64: 1, 5, 2, 3, 4>} : (tensor<1x3x4xf16>) -> tensor<1x2x3x4x3xf16>
  %1 = ms.affine_grid %t3 {size = array<i64: 1, 5, 2, 3, 4>} : (tensor<1x3x4xf16>) -> tensor<1x2x3x4x3xf16>
  return %0, %1 : tensor<2x2x3x2xf32>, tensor<1x2x3x4x3xf16>
}

// CHECK-LABEL: func.func @col2im
func.func @col2im(%x: tensor<1x8x16xf32>) -> tensor<1x2x3x3xf32> {
  // CHECK: ms.col2im %{{.+}} {block_shape = array<i64: 2, 2>, dilations = array<i64: 1, 1>, image_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x16xf32>) -> tensor<1x2x3x3xf32>
  %0 = ms.col2im %x {image_shape = array<i64: 3, 3>, block_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// CHECK-LABEL: func.func @dft
func.func @dft(%x: tensor<1x6x3x1xf32>, %c: tensor<2x8x2xf64>) -> (tensor<1x5x3x2xf32>, tensor<2x8x2xf64>) {
  // CHECK: ms.dft %{{.+}} {axis = 1 : i64, length = 8 : i64, onesided} : (tensor<1x6x3x1xf32>) -> tensor<1x5x3x2xf32>
  %0 = ms.dft %x {axis = 1, length = 8, onesided} : (tensor<1x6x3x1xf32>) -> tensor<1x5x3x2xf32>
  // CHECK: ms.dft %{{.+}} {axis = 1 : i64, inverse, length = 8 : i64} : (tensor<2x8x2xf64>) -> tensor<2x8x2xf64>
  %1 = ms.dft %c {axis = 1, length = 8, inverse} : (tensor<2x8x2xf64>) -> tensor<2x8x2xf64>
  return %0, %1 : tensor<1x5x3x2xf32>, tensor<2x8x2xf64>
}

// CHECK-LABEL: func.func @stft
func.func @stft(%x: tensor<1x32x1xf32>, %w: tensor<8xf16>, %c: tensor<2x16x2xf32>) -> (tensor<1x7x5x2xf32>, tensor<2x3x6x2xf32>) {
  // CHECK: ms.stft %{{.+}}, %{{.+}} {frame_length = 8 : i64, frame_step = 4 : i64, onesided} : (tensor<1x32x1xf32>, tensor<8xf16>) -> tensor<1x7x5x2xf32>
  %0 = ms.stft %x, %w {frame_step = 4, frame_length = 8, onesided} : (tensor<1x32x1xf32>, tensor<8xf16>) -> tensor<1x7x5x2xf32>
  // CHECK: ms.stft %{{.+}} {frame_length = 6 : i64, frame_step = 5 : i64} : (tensor<2x16x2xf32>) -> tensor<2x3x6x2xf32>
  %1 = ms.stft %c {frame_step = 5, frame_length = 6} : (tensor<2x16x2xf32>) -> tensor<2x3x6x2xf32>
  return %0, %1 : tensor<1x7x5x2xf32>, tensor<2x3x6x2xf32>
}

// CHECK-LABEL: func.func @nll_loss
func.func @nll_loss(%lp: tensor<4x5x2xf32>, %t: tensor<4x2xi64>, %w: tensor<5xf32>) -> (tensor<f32>, tensor<4x2xf32>) {
  // CHECK: ms.nll_loss %{{.+}}, %{{.+}} {ignore_index = -1 : i64, reduction = #ms<loss_reduction mean>} : (tensor<4x5x2xf32>, tensor<4x2xi64>) -> tensor<f32>
  %0 = ms.nll_loss %lp, %t {reduction = #ms<loss_reduction mean>, ignore_index = -1} : (tensor<4x5x2xf32>, tensor<4x2xi64>) -> tensor<f32>
  // CHECK: ms.nll_loss %{{.+}}, %{{.+}}, %{{.+}} {reduction = #ms<loss_reduction none>} : (tensor<4x5x2xf32>, tensor<4x2xi64>, tensor<5xf32>) -> tensor<4x2xf32>
  %1 = ms.nll_loss %lp, %t, %w {reduction = #ms<loss_reduction none>} : (tensor<4x5x2xf32>, tensor<4x2xi64>, tensor<5xf32>) -> tensor<4x2xf32>
  return %0, %1 : tensor<f32>, tensor<4x2xf32>
}

// CHECK-LABEL: func.func @post_transform
func.func @post_transform(%y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: ms.post_transform %{{.+}} {transform = #ms<post_transform softmax>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = ms.post_transform %y {transform = #ms<post_transform softmax>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @tree_ensemble
func.func @tree_ensemble(%x: tensor<4x2xf32>) -> (tensor<4x3xf32>, tensor<4xi64>) {
  // CHECK: ms.tree_ensemble %{{.+}} {aggregate_function = #ms<tree_aggregate sum>, base_values = array<f64>, class_labels = array<i64: 7, 8, 9>, leaf_nodeids = array<i64: 1, 2>, leaf_targetids = array<i64: 0, 2>, leaf_weights = array<f64: 1.000000e+00, 2.000000e+00>, membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>, n_targets = 3 : i64, nodes_falsenodeids = array<i64: 2, 1, 2>, nodes_featureids = array<i64: 1, 0, 0>, nodes_missing_value_tracks_true = array<i1: false, false, false>, nodes_modes = array<i64: 0, -1, -1>, nodes_splits = array<f64: 5.000000e-01, 0.000000e+00, 0.000000e+00>, nodes_truenodeids = array<i64: 1, 1, 2>, post_transform = #ms<post_transform softmax>, tree_roots = array<i64: 0>} : (tensor<4x2xf32>) -> (tensor<4x3xf32>, tensor<4xi64>)
  %scores, %label = ms.tree_ensemble %x {aggregate_function = #ms<tree_aggregate sum>, base_values = array<f64>, class_labels = array<i64: 7, 8, 9>, leaf_nodeids = array<i64: 1, 2>, leaf_targetids = array<i64: 0, 2>, leaf_weights = array<f64: 1.000000e+00, 2.000000e+00>, membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>, n_targets = 3 : i64, nodes_falsenodeids = array<i64: 2, 1, 2>, nodes_featureids = array<i64: 1, 0, 0>, nodes_missing_value_tracks_true = array<i1: false, false, false>, nodes_modes = array<i64: 0, -1, -1>, nodes_splits = array<f64: 5.000000e-01, 0.000000e+00, 0.000000e+00>, nodes_truenodeids = array<i64: 1, 1, 2>, post_transform = #ms<post_transform softmax>, tree_roots = array<i64: 0>} : (tensor<4x2xf32>) -> (tensor<4x3xf32>, tensor<4xi64>)
  return %scores, %label : tensor<4x3xf32>, tensor<4xi64>
}

// CHECK-LABEL: func.func @svm_regressor
func.func @svm_regressor(%x: tensor<3x2xf32>) -> tensor<3x1xf32> {
  // CHECK: ms.svm %{{.+}} {coefficients = array<f64: 5.000000e-01, -5.000000e-01>, kernel_params = array<f64: 5.000000e-01, 0.000000e+00, 3.000000e+00>, kernel_type = #ms<svm_kernel rbf>, one_class, post_transform = #ms<post_transform none>, prob_a = array<f64>, prob_b = array<f64>, rho = array<f64: 1.000000e-01>, support_vectors = array<f64: 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00>, vectors_per_class = array<i64: 2>} : (tensor<3x2xf32>) -> tensor<3x1xf32>
  %scores = ms.svm %x {coefficients = array<f64: 5.000000e-01, -5.000000e-01>, kernel_params = array<f64: 5.000000e-01, 0.000000e+00, 3.000000e+00>, kernel_type = #ms<svm_kernel rbf>, one_class, post_transform = #ms<post_transform none>, prob_a = array<f64>, prob_b = array<f64>, rho = array<f64: 1.000000e-01>, support_vectors = array<f64: 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00>, vectors_per_class = array<i64: 2>} : (tensor<3x2xf32>) -> tensor<3x1xf32>
  return %scores : tensor<3x1xf32>
}

// CHECK-LABEL: func.func @svm_classifier
func.func @svm_classifier(%x: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3xi64>) {
  // CHECK: ms.svm %{{.+}} {class_labels = array<i64: 0, 1, 2>, coefficients = array<f64: 5.000000e-01, -5.000000e-01, 2.500000e-01, 1.000000e+00, -1.000000e+00, 5.000000e-01>, kernel_params = array<f64: 5.000000e-01, 1.000000e+00, 3.000000e+00>, kernel_type = #ms<svm_kernel poly>, post_transform = #ms<post_transform none>, prob_a = array<f64>, prob_b = array<f64>, rho = array<f64: 1.000000e-01, 2.000000e-01, 3.000000e-01>, support_vectors = array<f64: 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00>, vectors_per_class = array<i64: 1, 1, 1>} : (tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3xi64>)
  %scores, %label = ms.svm %x {class_labels = array<i64: 0, 1, 2>, coefficients = array<f64: 5.000000e-01, -5.000000e-01, 2.500000e-01, 1.000000e+00, -1.000000e+00, 5.000000e-01>, kernel_params = array<f64: 5.000000e-01, 1.000000e+00, 3.000000e+00>, kernel_type = #ms<svm_kernel poly>, post_transform = #ms<post_transform none>, prob_a = array<f64>, prob_b = array<f64>, rho = array<f64: 1.000000e-01, 2.000000e-01, 3.000000e-01>, support_vectors = array<f64: 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00>, vectors_per_class = array<i64: 1, 1, 1>} : (tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3xi64>)
  return %scores, %label : tensor<3x3xf32>, tensor<3xi64>
}

// CHECK-LABEL: func.func @interpolate
func.func @interpolate(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x6xf32> {
  // CHECK: ms.interpolate %{{.+}} {axes = array<i64: 2, 3>, coordinate_transformation_mode = #ms<resize_transform half_pixel>, cubic_coeff_a = -7.500000e-01 : f64, extrapolation_value = 0.000000e+00 : f64, mode = #ms<interpolation cubic>, nearest_modes = [#ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>], roi = array<f64: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00>, scales = array<f64: 1.000000e+00, 1.000000e+00, 2.000000e+00, 1.500000e+00>, sizes = array<i64: 1, 1, 8, 6>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x8x6xf32>
  %0 = ms.interpolate %x {axes = array<i64: 2, 3>, coordinate_transformation_mode = #ms<resize_transform half_pixel>, cubic_coeff_a = -7.500000e-01 : f64, extrapolation_value = 0.000000e+00 : f64, mode = #ms<interpolation cubic>, nearest_modes = [#ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>], roi = array<f64: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00>, scales = array<f64: 1.000000e+00, 1.000000e+00, 2.000000e+00, 1.500000e+00>, sizes = array<i64: 1, 1, 8, 6>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x8x6xf32>
  return %0 : tensor<1x1x8x6xf32>
}

// CHECK-LABEL: func.func @det
func.func @det(%x: tensor<2x3x3xf32>) -> tensor<2xf32> {
  // CHECK: ms.det %{{.+}} : (tensor<2x3x3xf32>) -> tensor<2xf32>
  %0 = ms.det %x : (tensor<2x3x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @hardmax
func.func @hardmax(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: ms.hardmax %{{.+}} {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %0 = ms.hardmax %x {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @rotary_embedding
func.func @rotary_embedding(%x: tensor<1x3x8xf16>, %cos: tensor<16x2xf32>, %sin: tensor<16x2xf32>, %p: tensor<1x3xi64>) -> tensor<1x3x8xf16> {
  // CHECK: ms.rotary_embedding %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {interleaved, num_heads = 2 : i64, rotary_embedding_dim = 4 : i64} : (tensor<1x3x8xf16>, tensor<16x2xf32>, tensor<16x2xf32>, tensor<1x3xi64>) -> tensor<1x3x8xf16>
  %0 = ms.rotary_embedding %x, %cos, %sin, %p {interleaved, num_heads = 2 : i64, rotary_embedding_dim = 4 : i64} : (tensor<1x3x8xf16>, tensor<16x2xf32>, tensor<16x2xf32>, tensor<1x3xi64>) -> tensor<1x3x8xf16>
  return %0 : tensor<1x3x8xf16>
}

// CHECK-LABEL: func.func @tfidf
func.func @tfidf(%x: tensor<2x6xi64>) -> tensor<2x2xf32> {
  // CHECK: ms.tfidf %{{.+}} {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = #ms<tfidf_mode tf>, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 3, 7>, weights = array<f64>} : (tensor<2x6xi64>) -> tensor<2x2xf32>
  %0 = ms.tfidf %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = #ms<tfidf_mode tf>, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 3, 7>, weights = array<f64>} : (tensor<2x6xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @onnx_attention
func.func @onnx_attention(%q: tensor<1x4x3x4xf32>, %k: tensor<1x2x5x4xf32>, %v: tensor<1x2x5x4xf32>, %m: tensor<3x4xi1>, %l: tensor<1xi64>) -> (tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>, tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>) {
  // CHECK: ms.onnx_attention %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {is_causal, past_length = 2 : i64, qk_matmul_output_mode = 3 : i64, scale = 5.000000e-01 : f64, softcap = 2.000000e+00 : f64, softmax_type = f32} : (tensor<1x4x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<3x4xi1>) -> (tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>)
  %y, %qk = ms.onnx_attention %q, %k, %v, %m {is_causal, past_length = 2 : i64, qk_matmul_output_mode = 3 : i64, scale = 5.000000e-01 : f64, softcap = 2.000000e+00 : f64, softmax_type = f32} : (tensor<1x4x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<3x4xi1>) -> (tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>)
  // CHECK: ms.onnx_attention %{{.+}}, %{{.+}}, %{{.+}} nonpad %{{.+}} {past_length = 0 : i64, qk_matmul_output_mode = 0 : i64, scale = 1.000000e+00 : f64, softcap = 0.000000e+00 : f64, softmax_type = f64} : (tensor<1x4x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<1xi64>) -> (tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>)
  %y2, %qk2 = ms.onnx_attention %q, %k, %v nonpad %l {past_length = 0 : i64, qk_matmul_output_mode = 0 : i64, scale = 1.0 : f64, softcap = 0.0 : f64, softmax_type = f64} : (tensor<1x4x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<1xi64>) -> (tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>)
  return %y, %qk, %y2, %qk2 : tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>, tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>
}

// CHECK-LABEL: func.func @composed_reductions
func.func @composed_reductions(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<f32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>) {
  // CHECK: ms.reduce_l1 %{{.+}} {axes = array<i64: -1>, keep_dims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %0 = ms.reduce_l1 %x {axes = array<i64: -1>, keep_dims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  // CHECK: ms.reduce_l2 %{{.+}} : (tensor<2x3xf32>) -> tensor<f32>
  %1 = ms.reduce_l2 %x : (tensor<2x3xf32>) -> tensor<f32>
  // CHECK: ms.reduce_sum_square %{{.+}} {noop_with_empty_axes} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ms.reduce_sum_square %x {noop_with_empty_axes} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ms.reduce_log_sum %{{.+}} {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  %3 = ms.reduce_log_sum %x {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  // CHECK: ms.reduce_log_sum_exp %{{.+}} {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %4 = ms.reduce_log_sum_exp %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<2x1xf32>, tensor<f32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @log_softmax_rms_norm
func.func @log_softmax_rms_norm(%x: tensor<2x3x4xf32>, %h: tensor<2x8xf16>, %s: tensor<8xf16>) -> (tensor<2x3x4xf32>, tensor<2x8xf16>) {
  // CHECK: ms.log_softmax %{{.+}} {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %0 = ms.log_softmax %x {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: ms.rms_norm %{{.+}}, %{{.+}} {axis = -1 : i64, epsilon = 1.000000e-05 : f64, stash_type = f32} : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
  %1 = ms.rms_norm %h, %s {axis = -1 : i64, epsilon = 1.0E-5 : f64, stash_type = f32} : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
  return %0, %1 : tensor<2x3x4xf32>, tensor<2x8xf16>
}

// CHECK-LABEL: func.func @composite_indexing
func.func @composite_indexing(%i: tensor<3xi64>, %v: tensor<2xf32>, %x: tensor<4x3x2xf32>, %lens: tensor<3xi64>, %past: tensor<2x5x4xf32>, %update: tensor<2x2x4xf32>, %w: tensor<2xi64>) -> (tensor<3x4xf32>, tensor<4x3x2xf32>, tensor<2x5x4xf32>) {
  // CHECK: ms.one_hot %{{.+}}, %{{.+}} {axis = -1 : i64, depth = 4 : i64} : (tensor<3xi64>, tensor<2xf32>) -> tensor<3x4xf32>
  %0 = ms.one_hot %i, %v {depth = 4 : i64, axis = -1 : i64} : (tensor<3xi64>, tensor<2xf32>) -> tensor<3x4xf32>
  // CHECK: ms.reverse_sequence %{{.+}}, %{{.+}} {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x3x2xf32>, tensor<3xi64>) -> tensor<4x3x2xf32>
  %1 = ms.reverse_sequence %x, %lens {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x3x2xf32>, tensor<3xi64>) -> tensor<4x3x2xf32>
  // CHECK: ms.tensor_scatter %{{.+}}, %{{.+}}, %{{.+}} {axis = -2 : i64, circular} : (tensor<2x5x4xf32>, tensor<2x2x4xf32>, tensor<2xi64>) -> tensor<2x5x4xf32>
  %2 = ms.tensor_scatter %past, %update, %w {axis = -2 : i64, circular} : (tensor<2x5x4xf32>, tensor<2x2x4xf32>, tensor<2xi64>) -> tensor<2x5x4xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<4x3x2xf32>, tensor<2x5x4xf32>
}

// CHECK-LABEL: func.func @max_unpool_and_indices
func.func @max_unpool_and_indices(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>, %p: tensor<1x2x5x5xf32>) -> (tensor<1x1x5x5xf32>, tensor<1x2x3x3xi64>) {
  // CHECK: ms.max_unpool %{{.+}}, %{{.+}} {kernel_shape = array<i64: 2, 2>, output_shape = array<i64: 1, 1, 5, 5>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x5x5xf32>
  %0 = ms.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, output_shape = array<i64: 1, 1, 5, 5>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x5x5xf32>
  // CHECK: ms.max_pool_indices %{{.+}} {ceil_mode, column_major, dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xi64>
  %1 = ms.max_pool_indices %p {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode, column_major} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xi64>
  return %0, %1 : tensor<1x1x5x5xf32>, tensor<1x2x3x3xi64>
}

// CHECK-LABEL: func.func @conv_transpose_auto_pad
func.func @conv_transpose_auto_pad(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<1x2x10x10xf32>, tensor<1x2x8x8xf32>) {
  // CHECK: ms.conv_transpose %{{.*}}, %{{.*}} {auto_pad = #ms<auto_pad same_upper>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  %0 = ms.conv_transpose %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, auto_pad = #ms<auto_pad same_upper>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  // CHECK: ms.conv_transpose %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, output_shape = array<i64: 8, 8>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  %1 = ms.conv_transpose %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, output_shape = array<i64: 8, 8>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return %0, %1 : tensor<1x2x10x10xf32>, tensor<1x2x8x8xf32>
}

// CHECK-LABEL: func.func @einsum_onnx_forms
func.func @einsum_onnx_forms(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> (tensor<2x3x5xf32>, tensor<5x4xf32>) {
  // CHECK: ms.einsum %{{.+}}, %{{.+}} {equation = "...ij,jk->...ik"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %0 = ms.einsum %a, %b {equation = "...ij,jk->...ik"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: ms.einsum %{{.+}} {equation = "kj"} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %1 = ms.einsum %b {equation = "kj"} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  return %0, %1 : tensor<2x3x5xf32>, tensor<5x4xf32>
}

// A function with symbolic dims: its symbols, its arguments' dims over them, a reshape whose
// dims are expressions of them, and the run-time extents of a tensor.
// CHECK-LABEL: func.func @symbolic_dims
// CHECK-SAME: ms.shape = affine_map<()[s0, s1] -> (s0, s1, 32)>
// CHECK-SAME: attributes {ms.symbols = ["batch", "seq"]}
func.func @symbolic_dims(%x: tensor<?x?x32xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1, 32)>}, %table: tensor<1x512xi64>) -> (tensor<?x4x8xf32>, tensor<2xi64>) attributes {ms.symbols = ["batch", "seq"]} {
  // CHECK: ms.reshape %{{.+}} {shape = array<i64: -9223372036854775808, 4, 8>, symbolic_shape = #{{.+}}} : (tensor<?x?x32xf32>) -> tensor<?x4x8xf32>
  %0 = ms.reshape %x {shape = array<i64: -9223372036854775808, 4, 8>, symbolic_shape = affine_map<()[s0, s1] -> (s0 * s1, 4, 8)>} : (tensor<?x?x32xf32>) -> tensor<?x4x8xf32>
  // CHECK: ms.slice %{{.+}} {sizes = array<i64: 1, -9223372036854775808>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>, symbolic_sizes = #{{.+}}} : (tensor<1x512xi64>) -> tensor<1x?xi64>
  %p = ms.slice %table {starts = array<i64: 0, 0>, sizes = array<i64: 1, -9223372036854775808>, steps = array<i64: 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (1, s1)>} : (tensor<1x512xi64>) -> tensor<1x?xi64>
  // CHECK: ms.shape_of %{{.+}} {end = 2 : i64, start = 0 : i64} : (tensor<?x?x32xf32>) -> tensor<2xi64>
  %1 = ms.shape_of %x {start = 0 : i64, end = 2 : i64} : (tensor<?x?x32xf32>) -> tensor<2xi64>
  return %0, %1 : tensor<?x4x8xf32>, tensor<2xi64>
}

// Ops sized or placed by the symbols: positions of the sequence length, the last token (a
// symbolic start), a sequence padded to 16 (a symbolic amount).
// CHECK-LABEL: func.func @symbolic_starts_pads_range
func.func @symbolic_starts_pads_range(%x: tensor<?x?x32xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1, 32)>}) -> (tensor<?xi64>, tensor<1xi32>, tensor<?x1x32xf32>, tensor<?x?x32xf32>) attributes {ms.symbols = ["batch", "seq"]} {
  // CHECK: ms.range {delta = 1 : i64, symbolic_range = #{{.+}}} : tensor<?xi64>
  %r = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (0, s1)>} : tensor<?xi64>
  // CHECK: ms.range {delta = -2 : i64, symbolic_range = #{{.+}}} : tensor<1xi32>
  %l = ms.range {delta = -2 : i64, symbolic_range = affine_map<()[s0, s1] -> (s1 - 1, 1)>} : tensor<1xi32>
  // CHECK: ms.slice %{{.+}} {sizes = array<i64: -9223372036854775808, 1, 32>, starts = array<i64: 0, -9223372036854775808, 0>, steps = array<i64: 1, 1, 1>, symbolic_sizes = #{{.+}}, symbolic_starts = #{{.+}}} : (tensor<?x?x32xf32>) -> tensor<?x1x32xf32>
  %t = ms.slice %x {starts = array<i64: 0, -9223372036854775808, 0>, sizes = array<i64: -9223372036854775808, 1, 32>, steps = array<i64: 1, 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (s0, 1, 32)>, symbolic_starts = affine_map<()[s0, s1] -> (0, s1 - 1, 0)>} : (tensor<?x?x32xf32>) -> tensor<?x1x32xf32>
  // CHECK: ms.pad %{{.+}} {pads = array<i64: 0, 0, 0, 0, -9223372036854775808, 0>, symbolic_pads = #{{.+}}} : (tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  %p = ms.pad %x {pads = array<i64: 0, 0, 0, 0, -9223372036854775808, 0>, symbolic_pads = affine_map<()[s0, s1] -> (0, 0, 0, 0, -s1 + 16, 0)>} : (tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  return %r, %l, %t, %p : tensor<?xi64>, tensor<1xi32>, tensor<?x1x32xf32>, tensor<?x?x32xf32>
}

// CHECK-LABEL: func.func @scaler
func.func @scaler(%x: tensor<2x3xf64>) -> tensor<2x3xf32> {
  // CHECK: ms.scaler %{{.+}} {offset = array<f64: 1.000000e+00, 2.000000e+00, 3.000000e+00>, scale = array<f64: 5.000000e-01>} : (tensor<2x3xf64>) -> tensor<2x3xf32>
  %0 = ms.scaler %x {offset = array<f64: 1.0, 2.0, 3.0>, scale = array<f64: 0.5>} : (tensor<2x3xf64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @normalizer
func.func @normalizer(%x: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // CHECK: ms.normalizer %{{.+}} {norm = #ms<ml_norm l2>} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %0 = ms.normalizer %x {norm = #ms<ml_norm l2>} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @imputer
func.func @imputer(%x: tensor<3x2xf32>, %i: tensor<3x2xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  // CHECK: ms.imputer %{{.+}} {imputed_values = array<f64: 1.000000e+00, 2.000000e+00>, replaced_value = 0x7FF8000000000000 : f64} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %0 = ms.imputer %x {imputed_values = array<f64: 1.0, 2.0>, replaced_value = 0x7FF8000000000000 : f64} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  // CHECK: ms.imputer %{{.+}} {imputed_values = array<f64: 7.000000e+00>, replaced_value = -1.000000e+00 : f64} : (tensor<3x2xi64>) -> tensor<3x2xi64>
  %1 = ms.imputer %i {imputed_values = array<f64: 7.0>, replaced_value = -1.0 : f64} : (tensor<3x2xi64>) -> tensor<3x2xi64>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xi64>
}

// CHECK-LABEL: func.func @one_hot_encoder
func.func @one_hot_encoder(%x: tensor<4xi64>) -> tensor<4x3xf32> {
  // CHECK: ms.one_hot_encoder %{{.+}} {categories = array<i64: 1, 3, 5>} : (tensor<4xi64>) -> tensor<4x3xf32>
  %0 = ms.one_hot_encoder %x {categories = array<i64: 1, 3, 5>} : (tensor<4xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @label_encoder
func.func @label_encoder(%x: tensor<4xi64>, %f: tensor<2xf32>) -> (tensor<4xf32>, tensor<2xi64>) {
  // CHECK: ms.label_encoder %{{.+}} {default_value = dense<-1.000000e+00> : tensor<f32>, keys = dense<[1, 5, 9]> : tensor<3xi64>, values = dense<[5.000000e-01, 1.500000e+00, 2.500000e+00]> : tensor<3xf32>} : (tensor<4xi64>) -> tensor<4xf32>
  %0 = ms.label_encoder %x {keys = dense<[1, 5, 9]> : tensor<3xi64>, values = dense<[0.5, 1.5, 2.5]> : tensor<3xf32>, default_value = dense<-1.0> : tensor<f32>} : (tensor<4xi64>) -> tensor<4xf32>
  // CHECK: ms.label_encoder %{{.+}} {default_value = dense<-1> : tensor<i64>, keys = dense<[5.000000e-01, 0x7FC00000]> : tensor<2xf32>, nan_matches_nan, values = dense<[3, 4]> : tensor<2xi64>} : (tensor<2xf32>) -> tensor<2xi64>
  %1 = ms.label_encoder %f {keys = dense<[0.5, 0x7FC00000]> : tensor<2xf32>, values = dense<[3, 4]> : tensor<2xi64>, default_value = dense<-1> : tensor<i64>, nan_matches_nan} : (tensor<2xf32>) -> tensor<2xi64>
  return %0, %1 : tensor<4xf32>, tensor<2xi64>
}

// CHECK-LABEL: func.func @linear_regressor
func.func @linear_regressor(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // CHECK: ms.linear_regressor %{{.+}} {coefficients = array<f64: 1.000000e+00, 2.000000e+00, 3.000000e+00>, intercepts = array<f64: 5.000000e-01>, post_transform = #ms<post_transform none>, targets = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %0 = ms.linear_regressor %x {coefficients = array<f64: 1.0, 2.0, 3.0>, intercepts = array<f64: 0.5>, targets = 1 : i64, post_transform = #ms<post_transform none>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// CHECK-LABEL: func.func @linear_classifier
func.func @linear_classifier(%x: tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>) {
  // CHECK: ms.linear_classifier %{{.+}} {class_labels = array<i64: 3, 7>, coefficients = array<f64: 1.000000e+00, -1.000000e+00, 5.000000e-01, 5.000000e-01>, intercepts = array<f64: 0.000000e+00, 1.000000e-01>, post_transform = #ms<post_transform softmax>} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>)
  %label, %scores = ms.linear_classifier %x {coefficients = array<f64: 1.0, -1.0, 0.5, 0.5>, intercepts = array<f64: 0.0, 0.1>, class_labels = array<i64: 3, 7>, post_transform = #ms<post_transform softmax>} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>)
  return %label, %scores : tensor<2xi64>, tensor<2x2xf32>
}

// CHECK-LABEL: func.func @optimizers
func.func @optimizers(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %h: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK: ms.adagrad %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {decay_factor = 1.000000e-01 : f64, epsilon = 9.9999999999999995E-7 : f64, norm_coefficient = 0.000000e+00 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %x1, %h1 = ms.adagrad %r, %t, %x, %g, %h {decay_factor = 0.1 : f64, epsilon = 1.0e-06 : f64, norm_coefficient = 0.0 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  // CHECK: ms.momentum %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {alpha = 9.000000e-01 : f64, beta = 1.000000e-01 : f64, nesterov, norm_coefficient = 0.000000e+00 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %x2, %v2 = ms.momentum %r, %t, %x, %g, %v {alpha = 0.9 : f64, beta = 0.1 : f64, norm_coefficient = 0.0 : f64, nesterov} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  // CHECK: ms.adam %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {alpha = 9.000000e-01 : f64, beta = 0.99899999999999999 : f64, epsilon = 9.9999999999999995E-7 : f64, norm_coefficient = 0.000000e+00 : f64, norm_coefficient_post = 0.000000e+00 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %x3, %v3, %h3 = ms.adam %r, %t, %x, %g, %v, %h {alpha = 0.9 : f64, beta = 0.999 : f64, epsilon = 1.0e-06 : f64, norm_coefficient = 0.0 : f64, norm_coefficient_post = 0.0 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %x1, %h1, %x2, %v2, %x3, %v3, %h3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @bernoulli_multinomial
func.func @bernoulli_multinomial(%p: tensor<2x3xf32>, %i: tensor<i64>) -> (tensor<2x3xf32>, tensor<2x4xi64>) {
  // CHECK: ms.bernoulli %{{.+}} {element_type = f32, stream = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = ms.bernoulli %p {element_type = f32, stream = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ms.multinomial %{{.+}} iteration(%{{.+}} : tensor<i64>) {element_type = i64, sample_size = 4 : i64, seed = 5.000000e+00 : f64, stream = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x4xi64>
  %1 = ms.multinomial %p iteration(%i : tensor<i64>) {sample_size = 4 : i64, element_type = i64, seed = 5.0 : f64, stream = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x4xi64>
  return %0, %1 : tensor<2x3xf32>, tensor<2x4xi64>
}

// CHECK-LABEL: func.func @quantize_dequantize_linear
func.func @quantize_dequantize_linear(%x: tensor<2x3xf32>, %scale: tensor<3xf32>, %zero: tensor<3xi8>) -> tensor<2x3xf32> {
  // CHECK: ms.quantize_linear %{{.+}}, %{{.+}}, %{{.+}} {element_type = i8} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xi8>
  %q = ms.quantize_linear %x, %scale, %zero {axis = 1 : i64, element_type = i8} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xi8>
  // CHECK: ms.dequantize_linear %{{.+}}, %{{.+}} {axis = -1 : i64} : (tensor<2x3xi8>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = ms.dequantize_linear %q, %scale {axis = -1 : i64} : (tensor<2x3xi8>, tensor<3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dynamic_quantize_linear
func.func @dynamic_quantize_linear(%x: tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) {
  // CHECK: ms.dynamic_quantize_linear %{{.+}} : (tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>)
  %y, %scale, %zero = ms.dynamic_quantize_linear %x : (tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>)
  return %y, %scale, %zero : tensor<2x3xui8>, tensor<f32>, tensor<ui8>
}
