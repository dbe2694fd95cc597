// RUN: ms-opt %s -split-input-file -ms-integer-qdq | FileCheck %s

// Two QDQ convolutions in a row, as the importer builds them: QuantizeLinear (div, round, add zero
// point, clip) and DequantizeLinear (sub, mul) around f32 convolutions whose weights the importer
// dequantized from int8 (ms.quantization). Each becomes one ms.qconv2d; the second reads the
// first's uint8 result (cast(cast(u8 -> f32) -> u8) folds), and the f32 the last QuantizeLinear
// gave its DequantizeLinear is the uint8 result converted.
//
// Input: sx = 0.5, zx = 10. First conv: q = [[1, -2], [3, 4], [-128, 127]] with per-channel scales
// [0.25, 0.5, 0.125], int32 bias [100, -7, 0] (times sx * scale), relu, then sy = 0.25, zy = 3.
// Its int32 bias minus zx * row sums ([-1, 7, -1]): [110, -77, 10] = 6E000000 B3FFFFFF 0A000000;
// multipliers sx * scale / sy = [0.5, 1, 0.25] = 0000003F 0000803F 0000803E; output_min = zy
// (relu). Second conv: per-tensor scale 2, q = [5, -1, 0], no bias, input (sx, zx) = (0.25, 3),
// output sy = 0.5, zy = 0: bias -3 * 4 = -12 = F4FFFFFF, multiplier 0.25 * 2 / 0.5 = 1.

// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-DAG: %[[W1:.*]] = ms.constant dense_resource<[[W1KEY:.*]]> : tensor<3x2x1x1xi8>
// CHECK-DAG: %[[B1:.*]] = ms.constant dense_resource<[[B1KEY:.*]]> : tensor<3xi32>
// CHECK-DAG: %[[S1:.*]] = ms.constant dense_resource<[[S1KEY:.*]]> : tensor<3xf32>
// CHECK-DAG: %[[W2:.*]] = ms.constant dense_resource<[[W2KEY:.*]]> : tensor<1x3x1x1xi8>
// CHECK: %[[CLIP:.*]] = ms.clip
// CHECK: %[[XU8:.*]] = ms.cast %[[CLIP]] : tensor<1x2x4x4xf32> to tensor<1x2x4x4xui8>
// CHECK: %[[Q1:.*]] = ms.qconv2d %[[XU8]], %[[W1]], %[[B1]], %[[S1]] {input_zero_point = 10 : i64, output_min = 3 : i64, output_zero_point = 3 : i64} : (tensor<1x2x4x4xui8>, tensor<3x2x1x1xi8>, tensor<3xi32>, tensor<3xf32>) -> tensor<1x3x4x4xui8>
// CHECK: %[[Q2:.*]] = ms.qconv2d %[[Q1]], %[[W2]], %{{.*}}, %{{.*}} {input_zero_point = 3 : i64, output_zero_point = 0 : i64} : (tensor<1x3x4x4xui8>, tensor<1x3x1x1xi8>, tensor<1xi32>, tensor<1xf32>) -> tensor<1x1x4x4xui8>
// CHECK: %[[F:.*]] = ms.cast %[[Q2]] : tensor<1x1x4x4xui8> to tensor<1x1x4x4xf32>
// CHECK: %[[DQ:.*]] = ms.mul %[[F]]
// CHECK: return %[[DQ]]
// CHECK-NOT: ms.conv2d
// CHECK-DAG: [[W1KEY]]: "0x0100000001FE0304807F"
// CHECK-DAG: [[B1KEY]]: "0x040000006E000000B3FFFFFF0A000000"
// CHECK-DAG: [[S1KEY]]: "0x040000000000003F0000803F0000803E"
// CHECK-DAG: [[W2KEY]]: "0x0100000005FF00"
// CHECK-DAG: "0x04000000F4FFFFFF"
// CHECK-DAG: "0x040000000000803F"
func.func @chain(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %sx = ms.constant dense<5.000000e-01> : tensor<f32>
  %zx = ms.constant dense<10> : tensor<ui8>
  %s1 = ms.constant dense<2.500000e-01> : tensor<f32>
  %z1 = ms.constant dense<3> : tensor<ui8>
  %s2 = ms.constant dense<5.000000e-01> : tensor<f32>
  %w1 = ms.constant {ms.quantization = {axis = 0 : i64, scale = dense<[2.500000e-01, 5.000000e-01, 1.250000e-01]> : tensor<3xf32>, zero_point = dense<0> : tensor<3xi32>}} dense<[[[[2.500000e-01]], [[-5.000000e-01]]], [[[1.500000e+00]], [[2.000000e+00]]], [[[-1.600000e+01]], [[1.587500e+01]]]]> : tensor<3x2x1x1xf32>
  %b1 = ms.constant dense<[1.250000e+01, -1.750000e+00, 0.000000e+00]> : tensor<3xf32>
  %w2 = ms.constant {ms.quantization = {axis = -1 : i64, scale = dense<2.000000e+00> : tensor<1xf32>, zero_point = dense<0> : tensor<1xi32>}} dense<[[[[1.000000e+01]], [[-2.000000e+00]], [[0.000000e+00]]]]> : tensor<1x3x1x1xf32>
  // QuantizeLinear(x), DequantizeLinear.
  %0 = ms.div %x, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %1 = ms.round %0 : tensor<1x2x4x4xf32>
  %zxf = ms.cast %zx : tensor<ui8> to tensor<f32>
  %2 = ms.add %1, %zxf : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %3 = ms.clip %2 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x2x4x4xf32>
  %4 = ms.sub %3, %zxf : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %5 = ms.mul %4, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  // Conv, Relu, QuantizeLinear, DequantizeLinear.
  %6 = ms.conv2d %5, %w1, %b1 : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %7 = ms.relu %6 : tensor<1x3x4x4xf32>
  %8 = ms.div %7, %s1 : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %9 = ms.round %8 : tensor<1x3x4x4xf32>
  %z1f = ms.cast %z1 : tensor<ui8> to tensor<f32>
  %10 = ms.add %9, %z1f : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %11 = ms.clip %10 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x3x4x4xf32>
  %12 = ms.sub %11, %z1f : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %13 = ms.mul %12, %s1 : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  // Conv without bias, QuantizeLinear without zero point, DequantizeLinear.
  %14 = ms.conv2d %13, %w2 : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x1x4x4xf32>
  %15 = ms.div %14, %s2 : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %16 = ms.round %15 : tensor<1x1x4x4xf32>
  %17 = ms.clip %16 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x1x4x4xf32>
  %18 = ms.mul %17, %s2 : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  return %18 : tensor<1x1x4x4xf32>
}

// -----

// What stays f32: weights without their quantization (not from an int8 DequantizeLinear), a
// grouped convolution, a result quantized to int8 ([-128, 127]), a result with another user, and
// weights whose values are not integer multiples of their scale.

// CHECK-LABEL: func @unchanged
// CHECK-NOT: ms.qconv2d
// CHECK-COUNT-5: ms.conv2d
// CHECK-NOT: ms.qconv2d
func.func @unchanged(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %sx = ms.constant dense<5.000000e-01> : tensor<f32>
  %plain = ms.constant dense<1.000000e+00> : tensor<2x2x1x1xf32>
  %grouped = ms.constant {ms.quantization = {axis = -1 : i64, scale = dense<1.000000e+00> : tensor<1xf32>, zero_point = dense<0> : tensor<1xi32>}} dense<1.000000e+00> : tensor<2x1x1x1xf32>
  %w = ms.constant {ms.quantization = {axis = -1 : i64, scale = dense<1.000000e+00> : tensor<1xf32>, zero_point = dense<0> : tensor<1xi32>}} dense<1.000000e+00> : tensor<2x2x1x1xf32>
  %inexact = ms.constant {ms.quantization = {axis = -1 : i64, scale = dense<3.000000e-01> : tensor<1xf32>, zero_point = dense<0> : tensor<1xi32>}} dense<1.000000e+00> : tensor<2x2x1x1xf32>
  %0 = ms.div %x, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %1 = ms.round %0 : tensor<1x2x4x4xf32>
  %2 = ms.clip %1 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x2x4x4xf32>
  %3 = ms.mul %2, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %c0 = ms.conv2d %3, %plain : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %c1 = ms.conv2d %3, %grouped {groups = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %c2 = ms.conv2d %3, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %c3 = ms.conv2d %3, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %c4 = ms.conv2d %3, %inexact : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %q0 = ms.div %c0, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %r0 = ms.round %q0 : tensor<1x2x4x4xf32>
  %y0 = ms.clip %r0 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x2x4x4xf32>
  %q1 = ms.div %c1, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %r1 = ms.round %q1 : tensor<1x2x4x4xf32>
  %y1 = ms.clip %r1 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x2x4x4xf32>
  %q2 = ms.div %c2, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %r2 = ms.round %q2 : tensor<1x2x4x4xf32>
  %y2 = ms.clip %r2 {max = 1.270000e+02 : f64, min = -1.280000e+02 : f64} : tensor<1x2x4x4xf32>
  %q3 = ms.div %c3, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %r3 = ms.round %q3 : tensor<1x2x4x4xf32>
  %y3 = ms.clip %r3 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x2x4x4xf32>
  %q4 = ms.div %c4, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %r4 = ms.round %q4 : tensor<1x2x4x4xf32>
  %y4 = ms.clip %r4 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x2x4x4xf32>
  return %y0, %y1, %y2, %y3, %c3, %y4 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// A QuantizeLinear's value read by an integer convolution (as uint8) and by the DequantizeLinear of
// a residual branch (in f32): the residual reads the uint8 tensor converted back to f32, so the
// clipped f32 value has one reader left, the conversion to uint8.
// CHECK-LABEL: func @residual_reads_uint8
// CHECK: %[[CLIP:.*]] = ms.clip
// CHECK: %[[XU8:.*]] = ms.cast %[[CLIP]] : tensor<1x2x4x4xf32> to tensor<1x2x4x4xui8>
// CHECK: %[[WIDE:.*]] = ms.cast %[[XU8]] : tensor<1x2x4x4xui8> to tensor<1x2x4x4xf32>
// CHECK-NOT: %[[CLIP]]
// CHECK: ms.qconv2d %[[XU8]]
// CHECK: %[[RES:.*]] = ms.sub %[[WIDE]], %{{.*}} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
// CHECK: ms.add %{{.*}}, %{{.*}}
func.func @residual_reads_uint8(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %sx = ms.constant dense<5.000000e-01> : tensor<f32>
  %zx = ms.constant dense<10> : tensor<ui8>
  %s1 = ms.constant dense<2.500000e-01> : tensor<f32>
  %z1 = ms.constant dense<3> : tensor<ui8>
  %w = ms.constant {ms.quantization = {axis = -1 : i64, scale = dense<5.000000e-01> : tensor<1xf32>, zero_point = dense<0> : tensor<1xi32>}} dense<[[[[5.000000e-01]], [[1.000000e+00]]], [[[1.500000e+00]], [[2.000000e+00]]]]> : tensor<2x2x1x1xf32>
  %0 = ms.div %x, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %1 = ms.round %0 : tensor<1x2x4x4xf32>
  %zxf = ms.cast %zx : tensor<ui8> to tensor<f32>
  %2 = ms.add %1, %zxf : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %3 = ms.clip %2 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x2x4x4xf32>
  %4 = ms.sub %3, %zxf : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %5 = ms.mul %4, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %6 = ms.conv2d %5, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %7 = ms.div %6, %s1 : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %8 = ms.round %7 : tensor<1x2x4x4xf32>
  %z1f = ms.cast %z1 : tensor<ui8> to tensor<f32>
  %9 = ms.add %8, %z1f : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %10 = ms.clip %9 {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<1x2x4x4xf32>
  %11 = ms.sub %10, %z1f : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %12 = ms.mul %11, %s1 : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  // The residual branch: DequantizeLinear of the same QuantizeLinear.
  %13 = ms.sub %3, %zxf : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %14 = ms.mul %13, %sx : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %15 = ms.add %12, %14 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %15 : tensor<1x2x4x4xf32>
}
