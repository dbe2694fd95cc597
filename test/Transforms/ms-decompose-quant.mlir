// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// The quantization ops ms-decompose expands (DecomposeQuantPatterns.cpp).

// ms.dynamic_quantize_linear: the range by full reductions, the scale (max - min) / 255, the
// zero point and the values rounded, shifted, clipped to [0, 255] and converted to uint8.
// CHECK-LABEL: func.func @dynamic_quantize_linear
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<2.550000e+02> : tensor<f32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[V2:.+]] = ms.reduce_min %arg0 : (tensor<2x3xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V3:.+]] = ms.min %[[V2]], %[[V1]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V4:.+]] = ms.reduce_max %arg0 : (tensor<2x3xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V5:.+]] = ms.max %[[V4]], %[[V1]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V6:.+]] = ms.sub %[[V5]], %[[V3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V7:.+]] = ms.div %[[V6]], %[[V0]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V8:.+]] = ms.div %[[V3]], %[[V7]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V9:.+]] = ms.sub %[[V1]], %[[V8]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V10:.+]] = ms.round %[[V9]] : tensor<f32>
// CHECK-NEXT: %[[V11:.+]] = ms.clip %[[V10]] {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<f32>
// CHECK-NEXT: %[[V12:.+]] = ms.cast %[[V11]] : tensor<f32> to tensor<ui8>
// CHECK-NEXT: %[[V13:.+]] = ms.div %arg0, %[[V7]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V14:.+]] = ms.round %[[V13]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V15:.+]] = ms.cast %[[V12]] : tensor<ui8> to tensor<f32>
// CHECK-NEXT: %[[V16:.+]] = ms.add %[[V14]], %[[V15]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V17:.+]] = ms.clip %[[V16]] {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<2x3xf32>
// CHECK-NEXT: %[[V18:.+]] = ms.cast %[[V17]] : tensor<2x3xf32> to tensor<2x3xui8>
// CHECK-NEXT: return %[[V18]], %[[V7]], %[[V12]] : tensor<2x3xui8>, tensor<f32>, tensor<ui8>
func.func @dynamic_quantize_linear(%x: tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) {
  %y, %scale, %zero = ms.dynamic_quantize_linear %x : (tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>)
  return %y, %scale, %zero : tensor<2x3xui8>, tensor<f32>, tensor<ui8>
}

// -----

// ms.quantize_linear per tensor to uint8: x / scale, rounded half to even, the zero point added in
// f32, clipped to [0, 255] and converted.
// CHECK-LABEL: func.func @quantize_linear
// CHECK: %[[V0:.+]] = ms.div %arg0, %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V1:.+]] = ms.round %[[V0]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V2:.+]] = ms.cast %arg2 : tensor<ui8> to tensor<f32>
// CHECK-NEXT: %[[V3:.+]] = ms.add %[[V1]], %[[V2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.clip %[[V3]] {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<2x3xf32>
// CHECK-NEXT: %[[V5:.+]] = ms.cast %[[V4]] : tensor<2x3xf32> to tensor<2x3xui8>
// CHECK-NEXT: return %[[V5]] : tensor<2x3xui8>
func.func @quantize_linear(%x: tensor<2x3xf32>, %scale: tensor<f32>, %zero: tensor<ui8>) -> tensor<2x3xui8> {
  %q = ms.quantize_linear %x, %scale, %zero {element_type = ui8} : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %q : tensor<2x3xui8>
}

// -----

// Per axis (int8 along axis 1, no zero point): the scale [3] is reshaped to [1, 3, 1].
// CHECK-LABEL: func.func @quantize_linear_axis
// CHECK: %[[V0:.+]] = ms.reshape %arg1 {shape = array<i64: 1, 3, 1>} : (tensor<3xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[V1:.+]] = ms.div %arg0, %[[V0]] : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[V2:.+]] = ms.round %[[V1]] : tensor<2x3x4xf32>
// CHECK-NEXT: %[[V3:.+]] = ms.clip %[[V2]] {max = 1.270000e+02 : f64, min = -1.280000e+02 : f64} : tensor<2x3x4xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.cast %[[V3]] : tensor<2x3x4xf32> to tensor<2x3x4xi8>
// CHECK-NEXT: return %[[V4]] : tensor<2x3x4xi8>
func.func @quantize_linear_axis(%x: tensor<2x3x4xf32>, %scale: tensor<3xf32>) -> tensor<2x3x4xi8> {
  %q = ms.quantize_linear %x, %scale {axis = 1 : i64, element_type = i8} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xi8>
  return %q : tensor<2x3x4xi8>
}

// -----

// Blocks of 2 along axis 1: each scale repeated over its block, the partial last block cut to the
// input's extent; an f16 input is divided and rounded in f16 and clipped in f32.
// CHECK-LABEL: func.func @quantize_linear_blocked
// CHECK: %[[V0:.+]] = ms.reshape %arg1 {shape = array<i64: 2, 2, 1>} : (tensor<2x2xf16>) -> tensor<2x2x1xf16>
// CHECK-NEXT: %[[V1:.+]] = ms.expand %[[V0]] {shape = array<i64: 2, 2, 2>} : (tensor<2x2x1xf16>) -> tensor<2x2x2xf16>
// CHECK-NEXT: %[[V2:.+]] = ms.reshape %[[V1]] {shape = array<i64: 2, 4>} : (tensor<2x2x2xf16>) -> tensor<2x4xf16>
// CHECK-NEXT: %[[V3:.+]] = ms.slice %[[V2]] {sizes = array<i64: 2, 3>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : (tensor<2x4xf16>) -> tensor<2x3xf16>
// CHECK-NEXT: %[[V4:.+]] = ms.div %arg0, %[[V3]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT: %[[V5:.+]] = ms.round %[[V4]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V6:.+]] = ms.cast %[[V5]] : tensor<2x3xf16> to tensor<2x3xf32>
// CHECK-NEXT: %[[V7:.+]] = ms.clip %[[V6]] {max = 1.270000e+02 : f64, min = -1.280000e+02 : f64} : tensor<2x3xf32>
// CHECK-NEXT: %[[V8:.+]] = ms.cast %[[V7]] : tensor<2x3xf32> to tensor<2x3xi8>
// CHECK-NEXT: return %[[V8]] : tensor<2x3xi8>
func.func @quantize_linear_blocked(%x: tensor<2x3xf16>, %scale: tensor<2x2xf16>) -> tensor<2x3xi8> {
  %q = ms.quantize_linear %x, %scale {axis = 1 : i64, block_size = 2 : i64, element_type = i8} : (tensor<2x3xf16>, tensor<2x2xf16>) -> tensor<2x3xi8>
  return %q : tensor<2x3xi8>
}

// -----

// To an 8-bit float: x / scale converted, not saturating here; the zero point is not read.
// CHECK-LABEL: func.func @quantize_linear_float8
// CHECK: %[[V0:.+]] = ms.div %arg0, %arg1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V1:.+]] = ms.cast %[[V0]] : tensor<4xf32> to tensor<4xf8E4M3FN>
// CHECK-NEXT: return %[[V1]] : tensor<4xf8E4M3FN>
func.func @quantize_linear_float8(%x: tensor<4xf32>, %scale: tensor<f32>, %zero: tensor<f8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %q = ms.quantize_linear %x, %scale, %zero {element_type = f8E4M3FN, saturate = false} : (tensor<4xf32>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %q : tensor<4xf8E4M3FN>
}

// -----

// ms.dequantize_linear per axis: (x - zero point) * scale in f32, converted to the scale's type.
// CHECK-LABEL: func.func @dequantize_linear
// CHECK: %[[V0:.+]] = ms.cast %arg0 : tensor<2x3xi8> to tensor<2x3xf32>
// CHECK-NEXT: %[[V1:.+]] = ms.reshape %arg2 {shape = array<i64: 2, 1>} : (tensor<2xi8>) -> tensor<2x1xi8>
// CHECK-NEXT: %[[V2:.+]] = ms.cast %[[V1]] : tensor<2x1xi8> to tensor<2x1xf32>
// CHECK-NEXT: %[[V3:.+]] = ms.sub %[[V0]], %[[V2]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.reshape %arg1 {shape = array<i64: 2, 1>} : (tensor<2xf16>) -> tensor<2x1xf16>
// CHECK-NEXT: %[[V5:.+]] = ms.cast %[[V4]] : tensor<2x1xf16> to tensor<2x1xf32>
// CHECK-NEXT: %[[V6:.+]] = ms.mul %[[V3]], %[[V5]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V7:.+]] = ms.cast %[[V6]] : tensor<2x3xf32> to tensor<2x3xf16>
// CHECK-NEXT: return %[[V7]] : tensor<2x3xf16>
func.func @dequantize_linear(%x: tensor<2x3xi8>, %scale: tensor<2xf16>, %zero: tensor<2xi8>) -> tensor<2x3xf16> {
  %y = ms.dequantize_linear %x, %scale, %zero {axis = 0 : i64} : (tensor<2x3xi8>, tensor<2xf16>, tensor<2xi8>) -> tensor<2x3xf16>
  return %y : tensor<2x3xf16>
}

// -----

// A quantize -> dequantize pair reads the clipped f32 value instead of converting the uint8 back.
// CHECK-LABEL: func.func @dequantize_linear_of_quantize
// CHECK: %[[V0:.+]] = ms.div %arg0, %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V1:.+]] = ms.round %[[V0]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V2:.+]] = ms.cast %arg2 : tensor<ui8> to tensor<f32>
// CHECK-NEXT: %[[V3:.+]] = ms.add %[[V1]], %[[V2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.clip %[[V3]] {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64} : tensor<2x3xf32>
// CHECK-NEXT: %[[V5:.+]] = ms.cast %arg2 : tensor<ui8> to tensor<f32>
// CHECK-NEXT: %[[V6:.+]] = ms.sub %[[V4]], %[[V5]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V7:.+]] = ms.mul %[[V6]], %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V7]] : tensor<2x3xf32>
func.func @dequantize_linear_of_quantize(%x: tensor<2x3xf32>, %scale: tensor<f32>, %zero: tensor<ui8>) -> tensor<2x3xf32> {
  %q = ms.quantize_linear %x, %scale, %zero {element_type = ui8} : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  %y = ms.dequantize_linear %q, %scale, %zero : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// From an 8-bit float: x * scale, the zero point not read.
// CHECK-LABEL: func.func @dequantize_linear_float8
// CHECK: %[[V0:.+]] = ms.cast %arg0 : tensor<4xf8E5M2> to tensor<4xf32>
// CHECK-NEXT: %[[V1:.+]] = ms.mul %[[V0]], %arg1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4xf32>
func.func @dequantize_linear_float8(%x: tensor<4xf8E5M2>, %scale: tensor<f32>) -> tensor<4xf32> {
  %y = ms.dequantize_linear %x, %scale : (tensor<4xf8E5M2>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
