// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// The draws built on a uniform draw (DecomposeRandomPatterns.cpp): ms.bernoulli and
// ms.multinomial, each an ms.random_uniform of its own seed, stream and iteration.

// ms.bernoulli of f16 probabilities: an f32 uniform draw of the op's seed and stream, compared
// with the probabilities, converted to the element type.
// CHECK-LABEL: func.func @bernoulli
// CHECK: %[[V0:.+]] = ms.random_uniform {element_type = f32, seed = 3.000000e+00 : f64, shape = array<i64: 2, 3>, stream = 0 : i64} : tensor<2x3xf32>
// CHECK-NEXT: %[[V1:.+]] = ms.cast %arg0 : tensor<2x3xf16> to tensor<2x3xf32>
// CHECK-NEXT: %[[V2:.+]] = ms.compare lt, %[[V0]], %[[V1]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %[[V3:.+]] = ms.cast %[[V2]] : tensor<2x3xi1> to tensor<2x3xi32>
// CHECK-NEXT: return %[[V3]] : tensor<2x3xi32>
func.func @bernoulli(%p: tensor<2x3xf16>) -> tensor<2x3xi32> {
  %0 = ms.bernoulli %p {element_type = i32, seed = 3.0 : f64, stream = 0 : i64} : (tensor<2x3xf16>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// ms.multinomial in a loop body: the draw keyed by the iteration, u * total against the
// cumulative sums of exp(x - max), the count clamped to the last class.
// CHECK-LABEL: func.func @multinomial
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<2> : tensor<i32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<1> : tensor<i64>
// CHECK: %[[V2:.+]] = ms.random_uniform iteration(%arg1 : tensor<i64>) {element_type = f32, shape = array<i64: 2, 4>, stream = 1 : i64} : tensor<2x4xf32>
// CHECK-NEXT: %[[V3:.+]] = ms.reduce_max %arg0 {axes = array<i64: 1>, keep_dims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.sub %arg0, %[[V3]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V5:.+]] = ms.exp %[[V4]] : tensor<2x3xf32>
// CHECK-NEXT: %[[V6:.+]] = ms.cumsum %[[V5]], %[[V1]] : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V7:.+]] = ms.slice %[[V6]] {sizes = array<i64: 2, 1>, starts = array<i64: 0, 2>, steps = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V8:.+]] = ms.mul %[[V2]], %[[V7]] : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[V9:.+]] = ms.reshape %[[V8]] {shape = array<i64: 2, 4, 1>} : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[V10:.+]] = ms.reshape %[[V6]] {shape = array<i64: 2, 1, 3>} : (tensor<2x3xf32>) -> tensor<2x1x3xf32>
// CHECK-NEXT: %[[V11:.+]] = ms.compare le, %[[V10]], %[[V9]] : (tensor<2x1x3xf32>, tensor<2x4x1xf32>) -> tensor<2x4x3xi1>
// CHECK-NEXT: %[[V12:.+]] = ms.cast %[[V11]] : tensor<2x4x3xi1> to tensor<2x4x3xi32>
// CHECK-NEXT: %[[V13:.+]] = ms.reduce_sum %[[V12]] {axes = array<i64: 2>} : (tensor<2x4x3xi32>) -> tensor<2x4xi32>
// CHECK-NEXT: %[[V14:.+]] = ms.min %[[V13]], %[[V0]] : (tensor<2x4xi32>, tensor<i32>) -> tensor<2x4xi32>
// CHECK-NEXT: %[[V15:.+]] = ms.cast %[[V14]] : tensor<2x4xi32> to tensor<2x4xi64>
// CHECK-NEXT: return %[[V15]] : tensor<2x4xi64>
func.func @multinomial(%x: tensor<2x3xf32>, %i: tensor<i64>) -> tensor<2x4xi64> {
  %0 = ms.multinomial %x iteration(%i : tensor<i64>) {sample_size = 4 : i64, element_type = i64, stream = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x4xi64>
  return %0 : tensor<2x4xi64>
}
