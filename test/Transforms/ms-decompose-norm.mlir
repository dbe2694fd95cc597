// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// The composed reductions, ms.log_softmax and ms.rms_norm (DecomposeNormPatterns.cpp), as the
// importer built them.

// ReduceL1: the sum of |x|.
// CHECK-LABEL: func.func @reduce_l1
// CHECK-NEXT: %[[A:.+]] = ms.abs %arg0
// CHECK-NEXT: %[[S:.+]] = ms.reduce_sum %[[A]] {axes = array<i64: 1>, keep_dims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: return %[[S]]
func.func @reduce_l1(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = ms.reduce_l1 %x {axes = array<i64: -1>, keep_dims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// ReduceL2: sqrt of the sum of squares; empty axes reduce every axis.
// CHECK-LABEL: func.func @reduce_l2
// CHECK-NEXT: %[[SQ:.+]] = ms.mul %arg0, %arg0
// CHECK-NEXT: %[[S:.+]] = ms.reduce_sum %[[SQ]] {axes = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.+]] = ms.sqrt %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @reduce_l2(%x: tensor<2x3xf32>) -> tensor<f32> {
  %0 = ms.reduce_l2 %x : (tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// ReduceSumSquare with noop_with_empty_axes and no axes: only the square.
// CHECK-LABEL: func.func @reduce_sum_square_noop
// CHECK-NEXT: %[[SQ:.+]] = ms.mul %arg0, %arg0
// CHECK-NEXT: return %[[SQ]]
func.func @reduce_sum_square_noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.reduce_sum_square %x {keep_dims, noop_with_empty_axes} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ReduceLogSum: log of the sum.
// CHECK-LABEL: func.func @reduce_log_sum
// CHECK-NEXT: %[[S:.+]] = ms.reduce_sum %arg0 {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[L:.+]] = ms.log %[[S]]
// CHECK-NEXT: return %[[L]]
func.func @reduce_log_sum(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  %0 = ms.reduce_log_sum %x {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// ReduceLogSumExp: max + log(sum(exp(x - max))), the max replaced by 0 where it is not finite;
// without keep_dims the max is reshaped to the sum's shape.
// CHECK-LABEL: func.func @reduce_log_sum_exp
// CHECK: %[[MAX:.+]] = ms.reduce_max %arg0 {axes = array<i64: 1>, keep_dims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[D:.+]] = ms.sub %[[MAX]], %[[MAX]]
// CHECK-NEXT: %[[FIN:.+]] = ms.compare eq, %[[D]], %[[Z:.+]] :
// CHECK-NEXT: %[[M:.+]] = ms.where %[[FIN]], %[[MAX]], %[[Z]]
// CHECK-NEXT: %[[SH:.+]] = ms.sub %arg0, %[[M]]
// CHECK-NEXT: %[[E:.+]] = ms.exp %[[SH]]
// CHECK-NEXT: %[[S:.+]] = ms.reduce_sum %[[E]] {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[MO:.+]] = ms.reshape %[[M]] {shape = array<i64: 2>}
// CHECK-NEXT: %[[L:.+]] = ms.log %[[S]]
// CHECK-NEXT: %[[R:.+]] = ms.add %[[L]], %[[MO]]
// CHECK-NEXT: return %[[R]]
func.func @reduce_log_sum_exp(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = ms.reduce_log_sum_exp %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// ReduceLogSumExp with no axes and noop_with_empty_axes: the input.
// CHECK-LABEL: func.func @reduce_log_sum_exp_noop
// CHECK-NEXT: return %arg0
func.func @reduce_log_sum_exp_noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.reduce_log_sum_exp %x {noop_with_empty_axes} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// LogSoftmax over the dims from axis 1 on (opsets before 13): (x - max) - log(sum(exp(x - max))).
// CHECK-LABEL: func.func @log_softmax
// CHECK-NEXT: %[[MAX:.+]] = ms.reduce_max %arg0 {axes = array<i64: 1, 2>, keep_dims}
// CHECK-NEXT: %[[SH:.+]] = ms.sub %arg0, %[[MAX]]
// CHECK-NEXT: %[[E:.+]] = ms.exp %[[SH]]
// CHECK-NEXT: %[[S:.+]] = ms.reduce_sum %[[E]] {axes = array<i64: 1, 2>, keep_dims}
// CHECK-NEXT: %[[L:.+]] = ms.log %[[S]]
// CHECK-NEXT: %[[R:.+]] = ms.sub %[[SH]], %[[L]]
// CHECK-NEXT: return %[[R]]
func.func @log_softmax(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = ms.log_softmax %x {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// RMSNormalization of f16 in f32: widened, mean of squares over the last dim, reciprocal square
// root, narrowed back, times the scale.
// CHECK-LABEL: func.func @rms_norm
// CHECK: %[[EPS:.+]] = ms.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %[[X:.+]] = ms.cast %arg0 : tensor<2x8xf16> to tensor<2x8xf32>
// CHECK-NEXT: %[[SQ:.+]] = ms.mul %[[X]], %[[X]]
// CHECK-NEXT: %[[M:.+]] = ms.reduce_mean %[[SQ]] {axes = array<i64: 1>, keep_dims}
// CHECK-NEXT: %[[A:.+]] = ms.add %[[M]], %[[EPS]]
// CHECK-NEXT: %[[SQRT:.+]] = ms.sqrt %[[A]]
// CHECK-NEXT: %[[INV:.+]] = ms.reciprocal %[[SQRT]]
// CHECK-NEXT: %[[N:.+]] = ms.mul %[[X]], %[[INV]]
// CHECK-NEXT: %[[NH:.+]] = ms.cast %[[N]] : tensor<2x8xf32> to tensor<2x8xf16>
// CHECK-NEXT: %[[R:.+]] = ms.mul %[[NH]], %arg1
// CHECK-NEXT: return %[[R]]
func.func @rms_norm(%x: tensor<2x8xf16>, %s: tensor<8xf16>) -> tensor<2x8xf16> {
  %0 = ms.rms_norm %x, %s {axis = -1 : i64, epsilon = 1.0E-5 : f64, stash_type = f32}
      : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}
