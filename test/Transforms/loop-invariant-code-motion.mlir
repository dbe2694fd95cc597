// RUN: ms-opt %s -split-input-file -loop-invariant-code-motion | FileCheck %s

// Tests that ms.loop and ms.scan are loops to upstream LICM (the ms pipeline runs it): an op on
// values defined outside the body (a captured input, a constant) runs once, before the loop; ops
// on the body's arguments stay.

// CHECK-LABEL: func.func @loop
// CHECK: %[[A:.+]] = ms.abs %arg1 : tensor<2xf32>
// CHECK-NEXT: ms.loop
// CHECK: ^bb0(%{{.+}}: tensor<i64>, %[[C:.+]]: tensor<i1>, %[[Y:.+]]: tensor<2xf32>):
// CHECK-NEXT: %[[Z:.+]] = ms.add %[[Y]], %[[A]]
// CHECK-NEXT: ms.region_yield %[[C]], %[[Z]]
func.func @loop(%m: tensor<i64>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ms.loop trip %m : tensor<i64> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
    %a = ms.abs %x : tensor<2xf32>
    %z = ms.add %y, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ms.region_yield %c, %z : tensor<i1>, tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @scan
// CHECK: %[[W:.+]] = ms.mul %arg2, %arg2 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: ms.scan
// CHECK: ms.matmul %{{.+}}, %[[W]]
func.func @scan(%h: tensor<1x2xf32>, %x: tensor<3x1x2xf32>, %w: tensor<2x2xf32>) -> tensor<1x2xf32> {
  %0 = ms.scan states(%h : tensor<1x2xf32>) inputs(%x : tensor<3x1x2xf32>) {scan_input_axes = array<i64: 0>, scan_input_directions = array<i64: 0>, scan_output_axes = array<i64>, scan_output_directions = array<i64>} -> (tensor<1x2xf32>) {
  ^bb0(%s: tensor<1x2xf32>, %t: tensor<1x2xf32>):
    %w2 = ms.mul %w, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %p = ms.matmul %s, %w2 : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
    %n = ms.add %p, %t : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    ms.region_yield %n : tensor<1x2xf32>
  }
  return %0 : tensor<1x2xf32>
}
