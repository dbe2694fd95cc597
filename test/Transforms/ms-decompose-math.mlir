// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// ms.det and ms.hardmax (DecomposeMathPatterns.cpp).

// A batch of 2x2 matrices: per column the largest |pivot| below the diagonal (ms.arg_max),
// the rows swapped by a gather with the sign flipped where they moved, elimination below the
// pivot (a zero pivot divides by 1), then the diagonal's product times the sign.
// CHECK-LABEL: func.func @det
// CHECK: %[[ABS:.+]] = ms.abs
// CHECK-NEXT: %[[P0:.+]] = ms.arg_max %[[ABS]] {axis = 1 : i64, keep_dims}
// CHECK: %[[A1:.+]] = ms.gather_elements %arg0, %{{.+}} {axis = 1 : i64}
// CHECK-NEXT: %[[SW:.+]] = ms.compare ne, %[[P0]]
// CHECK: %[[ZERO:.+]] = ms.compare eq
// CHECK-NEXT: %[[SAFE:.+]] = ms.where %[[ZERO]]
// CHECK: ms.div %{{.+}}, %[[SAFE]]
// CHECK: %[[A2:.+]] = ms.sub %[[A1]]
// CHECK: ms.arg_max
// CHECK: ms.gather_elements %[[A2]]
// CHECK: %[[DIAG:.+]] = ms.reduce_sum %{{.+}} {axes = array<i64: 2>}
// CHECK-NEXT: %[[PROD:.+]] = ms.reduce_prod %[[DIAG]] {axes = array<i64: 1>} : (tensor<2x2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[SIGN:.+]] = ms.reshape %{{.+}} {shape = array<i64: 2>}
// CHECK-NEXT: %[[D:.+]] = ms.mul %[[PROD]], %[[SIGN]]
// CHECK-NEXT: return %[[D]]
func.func @det(%x: tensor<2x2x2xf32>) -> tensor<2xf32> {
  %d = ms.det %x : (tensor<2x2x2xf32>) -> tensor<2xf32>
  return %d : tensor<2xf32>
}

// -----

// One axis of 5: the maxima marked, counted by a prefix sum of three shifted adds (1, 2, 4),
// and only the first (count 1) kept.
// CHECK-LABEL: func.func @hardmax
// CHECK: %[[MAX:.+]] = ms.reduce_max %arg0 {axes = array<i64: 1>, keep_dims}
// CHECK-NEXT: %[[IS:.+]] = ms.compare eq, %arg0, %[[MAX]]
// CHECK-NEXT: %[[ONES:.+]] = ms.cast %[[IS]] : tensor<2x5xi1> to tensor<2x5xf32>
// CHECK-NEXT: ms.pad %[[ONES]] {pads = array<i64: 0, 1, 0, -1>}
// CHECK: ms.pad %{{.+}} {pads = array<i64: 0, 2, 0, -2>}
// CHECK: ms.pad %{{.+}} {pads = array<i64: 0, 4, 0, -4>}
// CHECK-NEXT: %[[COUNT:.+]] = ms.add
// CHECK-NEXT: %[[M:.+]] = ms.mul %[[COUNT]], %[[ONES]]
// CHECK-NEXT: %[[FIRST:.+]] = ms.compare eq, %[[M]]
// CHECK-NEXT: %[[Y:.+]] = ms.cast %[[FIRST]]
// CHECK-NEXT: return %[[Y]]
func.func @hardmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %y = ms.hardmax %x {axes = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// -----

// Hardmax before opset 13: the dims from axis 1 on flattened to one axis of 6 and back.
// CHECK-LABEL: func.func @hardmax_coerced
// CHECK: %[[R:.+]] = ms.reshape %arg0 {shape = array<i64: 2, 6>}
// CHECK-NEXT: ms.reduce_max %[[R]] {axes = array<i64: 1>, keep_dims}
// CHECK: %[[Y:.+]] = ms.reshape %{{.+}} {shape = array<i64: 2, 3, 2>} : (tensor<2x6xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT: return %[[Y]]
func.func @hardmax_coerced(%x: tensor<2x3x2xf32>) -> tensor<2x3x2xf32> {
  %y = ms.hardmax %x {axes = array<i64: 1, 2>} : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  return %y : tensor<2x3x2xf32>
}
