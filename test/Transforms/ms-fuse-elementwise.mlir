// RUN: ms-opt %s -split-input-file -ms-fuse-elementwise | FileCheck %s

// A chain with a diamond: %d feeds both %e and %f, which are both in the group, so %d is computed
// once inside it. Operands that broadcast (%s, a scalar) stay inputs.

// CHECK-LABEL: func.func @diamond
// CHECK: %[[F:.+]] = ms.fused "sub_exp_tanh_mul" ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<4x8xf32>, %[[S:.+]]: tensor<f32>):
// CHECK-NEXT: %[[D:.+]] = ms.sub %[[X]], %[[S]]
// CHECK-NEXT: %[[E:.+]] = ms.exp %[[D]]
// CHECK-NEXT: %[[T:.+]] = ms.tanh %[[D]]
// CHECK-NEXT: %[[M:.+]] = ms.mul %[[E]], %[[T]]
// CHECK-NEXT: ms.yield %[[M]]
// CHECK: return %[[F]]
func.func @diamond(%x: tensor<4x8xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %d = ms.sub %x, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %e = ms.exp %d : tensor<4x8xf32>
  %f = ms.tanh %d : tensor<4x8xf32>
  %m = ms.mul %e, %f : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// %a is also returned, so it cannot join the group of %c (its value must reach memory): it is the
// boundary, and %c's group starts after it. %b has the smaller shape [8] that %c broadcasts, so
// joining would recompute it for every row: it stays outside too.

// CHECK-LABEL: func.func @boundaries
// CHECK: %[[A:.+]] = ms.relu %arg0
// CHECK: %[[B:.+]] = ms.exp %arg1
// CHECK: %[[G:.+]] = ms.fused "add_neg" ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK: return %[[G]], %[[A]]
func.func @boundaries(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = ms.relu %x : tensor<4x8xf32>
  %b = ms.exp %v : tensor<8xf32>
  %c = ms.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %n = ms.neg %c : tensor<4x8xf32>
  return %n, %a : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A reduction roots a group whose members compute its input (the sum of squares of x - m): one
// kernel, the squares never stored. The add after the reduction starts a new group of its own shape.

// CHECK-LABEL: func.func @reduction
// CHECK: %[[R:.+]] = ms.fused "sub_mul_reduce_mean" ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x1xf32> {
// CHECK: ms.reduce_mean
// CHECK-NEXT: ms.yield
// CHECK: %[[S:.+]] = ms.fused "add_sqrt" ins(%[[R]], %arg2 : tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
// CHECK: return %[[S]]
func.func @reduction(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>, %eps: tensor<f32>) -> tensor<4x1xf32> {
  %d = ms.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %q = ms.mul %d, %d : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = ms.reduce_mean %q {axes = array<i64: -1>, keep_dims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %a = ms.add %r, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %s = ms.sqrt %a : tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// -----

// Single ops are not wrapped, and non-elementwise ops (a transpose) split chains.

// CHECK-LABEL: func.func @singles
// CHECK-NOT: ms.fused
func.func @singles(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %a = ms.relu %x : tensor<4x8xf32>
  %t = ms.transpose %a {perms = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %n = ms.neg %t : tensor<8x4xf32>
  return %n : tensor<8x4xf32>
}

// -----

// Symbolic dims: a chain over [batch, seq] is one group; an op mixing [batch, seq] with
// [seq, batch] (which may broadcast at run time: its dims have no expression) joins none.

// CHECK-LABEL: func.func @symbolic_chain
// CHECK: %[[G:.+]] = ms.fused "sub_exp_mul" ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: %[[N:.+]] = ms.neg %arg2
// CHECK-NEXT: ms.add %[[N]], %[[G]]
func.func @symbolic_chain(%x: tensor<?x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1)>},
                          %y: tensor<?x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1)>},
                          %z: tensor<?x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s1, s0)>}) -> tensor<?x?xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %d = ms.sub %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %e = ms.exp %d : tensor<?x?xf32>
  %m = ms.mul %e, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %n = ms.neg %z : tensor<?x?xf32>
  %s = ms.add %n, %m : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
