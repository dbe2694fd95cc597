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
