// RUN: ms-opt %s -split-input-file -ms-fuse-elementwise="max-ops=3" | FileCheck %s
// RUN: ms-opt %s -split-input-file -ms-fuse-elementwise | FileCheck %s --check-prefix=DEFAULT
// RUN: not ms-opt %s -split-input-file -ms-fuse-elementwise="max-ops=1" 2>&1 | FileCheck %s --check-prefix=TOO-SMALL

// Tests that a chain longer than max-ops becomes several groups of at most max-ops ops each, taken
// from the end of the chain (the root's group fills first), each group feeding the next; the
// default cap (64) keeps this chain of 7 whole. A single op left over stays unfused.

// CHECK-LABEL: func.func @chain
// CHECK: %[[G1:.+]] = ms.relu %arg0
// CHECK: %[[G2:.+]] = ms.fused "exp_tanh_neg" ins(%[[G1]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: ms.exp
// CHECK-NEXT: ms.tanh
// CHECK-NEXT: ms.neg
// CHECK-NEXT: ms.yield
// CHECK: %[[G3:.+]] = ms.fused "sigmoid_abs_relu" ins(%[[G2]] : tensor<4x8xf32>)
// CHECK: return %[[G3]]

// DEFAULT-LABEL: func.func @chain
// DEFAULT: ms.fused "relu_exp_tanh_neg_sigmoid_x7"
// DEFAULT-NOT: ms.fused
// DEFAULT-LABEL: func.func @diamond
// DEFAULT: ms.fused "sub_exp_exp_tanh_mul"
// DEFAULT-NOT: ms.fused
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = ms.relu %x : tensor<4x8xf32>
  %1 = ms.exp %0 : tensor<4x8xf32>
  %2 = ms.tanh %1 : tensor<4x8xf32>
  %3 = ms.neg %2 : tensor<4x8xf32>
  %4 = ms.sigmoid %3 : tensor<4x8xf32>
  %5 = ms.abs %4 : tensor<4x8xf32>
  %6 = ms.relu %5 : tensor<4x8xf32>
  return %6 : tensor<4x8xf32>
}

// -----

// Tests that a capped group is still legal: %d has users in two places, so it only joins a group
// that holds both; the cap stops the group of %m before it reaches %d, which then roots a group
// of its own with what only it uses.

// CHECK-LABEL: func.func @diamond
// CHECK: %[[D:.+]] = ms.fused "sub_exp" ins(%arg0, %arg1
// CHECK: %[[M:.+]] = ms.fused "exp_tanh_mul" ins(%[[D]] : tensor<4x8xf32>)
// CHECK: return %[[M]]
func.func @diamond(%x: tensor<4x8xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %a = ms.sub %x, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %d = ms.exp %a : tensor<4x8xf32>
  %e = ms.exp %d : tensor<4x8xf32>
  %f = ms.tanh %d : tensor<4x8xf32>
  %m = ms.mul %e, %f : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// TOO-SMALL: error: ms-fuse-elementwise: max-ops must be at least 2, got 1
