// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// ms.nll_loss (DecomposePatterns.cpp): a gather_elements of each sample's class, the weights
// gathered, the ignored samples masked, then the reduction.

// Mean with weights and a negative ignore_index: ignored targets read class 0, their weight and
// loss become 0, and the mean divides by the sum of the weights applied.
// CHECK-LABEL: func.func @nll_loss_mean_weight_ignore
// CHECK-DAG: %[[ZERO:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[II:.+]] = ms.constant dense<-1> : tensor<i64>
// CHECK: %[[IGN:.+]] = ms.compare eq, %arg1, %[[II]]
// CHECK-NEXT: %[[T:.+]] = ms.where %[[IGN]], %{{.+}}, %arg1 : (tensor<2x4xi1>, tensor<i64>, tensor<2x4xi64>) -> tensor<2x4xi64>
// CHECK-NEXT: %[[LT:.+]] = ms.reshape %[[T]] {shape = array<i64: 2, 1, 4>}
// CHECK-NEXT: %[[P:.+]] = ms.gather_elements %arg0, %[[LT]] {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1x4xi64>) -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[PR:.+]] = ms.reshape %[[P]] {shape = array<i64: 2, 4>}
// CHECK-NEXT: %[[NEG:.+]] = ms.neg %[[PR]]
// CHECK-NEXT: %[[GW:.+]] = ms.gather %arg2, %[[T]] : (tensor<3xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[W:.+]] = ms.where %[[IGN]], %[[ZERO]], %[[GW]]
// CHECK-NEXT: %[[WL:.+]] = ms.mul %[[NEG]], %[[W]]
// CHECK-NEXT: %[[L:.+]] = ms.where %[[IGN]], %[[ZERO]], %[[WL]]
// CHECK-NEXT: %[[SUM:.+]] = ms.reduce_sum %[[L]] {axes = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<f32>
// CHECK-NEXT: %[[WSUM:.+]] = ms.reduce_sum %[[W]] {axes = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<f32>
// CHECK-NEXT: %[[MEAN:.+]] = ms.div %[[SUM]], %[[WSUM]]
// CHECK-NEXT: return %[[MEAN]]
func.func @nll_loss_mean_weight_ignore(%lp: tensor<2x3x4xf32>, %t: tensor<2x4xi64>, %w: tensor<3xf32>) -> tensor<f32> {
  %y = ms.nll_loss %lp, %t, %w {reduction = #ms<loss_reduction mean>, ignore_index = -1} : (tensor<2x3x4xf32>, tensor<2x4xi64>, tensor<3xf32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

// reduction = none: one loss per sample, no mask without ignore_index.
// CHECK-LABEL: func.func @nll_loss_none
// CHECK: ms.gather_elements %arg0, %{{.+}} {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2x1xf32>
// CHECK: %[[NEG:.+]] = ms.neg %{{.+}} : tensor<2xf32>
// CHECK-NEXT: return %[[NEG]] : tensor<2xf32>
func.func @nll_loss_none(%lp: tensor<2x3xf32>, %t: tensor<2xi64>) -> tensor<2xf32> {
  %y = ms.nll_loss %lp, %t {reduction = #ms<loss_reduction none>} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// reduction = sum over N-d samples with an int32 target.
// CHECK-LABEL: func.func @nll_loss_sum_i32
// CHECK: ms.gather_elements %arg0, %{{.+}} {axis = 1 : i64} : (tensor<2x3x2x2xf32>, tensor<2x1x2x2xi32>) -> tensor<2x1x2x2xf32>
// CHECK-NOT: ms.where
// CHECK: %[[S:.+]] = ms.reduce_sum %{{.+}} {axes = array<i64: 0, 1, 2>} : (tensor<2x2x2xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[S]]
func.func @nll_loss_sum_i32(%lp: tensor<2x3x2x2xf32>, %t: tensor<2x2x2xi32>) -> tensor<f32> {
  %y = ms.nll_loss %lp, %t {reduction = #ms<loss_reduction sum>} : (tensor<2x3x2x2xf32>, tensor<2x2x2xi32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

// reduction = mean without weights: a plain reduce_mean.
// CHECK-LABEL: func.func @nll_loss_mean
// CHECK: %[[NEG:.+]] = ms.neg
// CHECK-NEXT: %[[M:.+]] = ms.reduce_mean %[[NEG]] {axes = array<i64: 0>} : (tensor<2xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[M]]
func.func @nll_loss_mean(%lp: tensor<2x3xf32>, %t: tensor<2xi64>) -> tensor<f32> {
  %y = ms.nll_loss %lp, %t {reduction = #ms<loss_reduction mean>} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<f32>
  return %y : tensor<f32>
}
