// RUN: ms-opt %s -split-input-file -verify-diagnostics -convert-ms-to-mie | FileCheck %s

// Code for every shape of symbolic dims: a dynamic result's buffer is sized from mie.symbol values
// by the dims ms::SymbolicShapes gives it, a reshape to symbolic sizes is an expand_shape whose
// output shape is computed the same way, and the function's dynamic result gets its dims as an
// ms.shape map (its arguments keep theirs).

#x = affine_map<()[s0, s1] -> (s0, s1, 32)>
#rows = affine_map<()[s0, s1] -> (s0 * s1, 32)>
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[^:]+]]: memref<?x?x32xf32> {mie.name = "x", ms.shape = {{.+}}}) -> (memref<?x32xf32> {mie.name = "y", ms.shape = {{.+}}})
// CHECK: %[[S0:.+]] = mie.symbol 0 : index
// CHECK: %[[S1:.+]] = mie.symbol 1 : index
// CHECK: %[[D0:.+]] = affine.apply #{{.*}}()[%[[S0]], %[[S1]]]
// CHECK: %[[D1:.+]] = affine.apply #{{.*}}()[%[[S0]], %[[S1]]]
// CHECK: %[[BUF:.+]] = mie.alloc(%[[D0]], %[[D1]]) : memref<?x?x32xf32>
// CHECK: mie.kernel "relu" ins(%[[X]] : memref<?x?x32xf32>) outs(%[[BUF]] : memref<?x?x32xf32>)
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[BUF]]
// CHECK: %[[ROWS:.+]] = affine.apply #{{.*}}()[%{{.+}}, %{{.+}}]
// CHECK: %[[VIEW:.+]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [%[[ROWS]], 32] : memref<?xf32> into memref<?x32xf32>
// CHECK: return %[[VIEW]] : memref<?x32xf32>
func.func @main(%arg0: tensor<?x?x32xf32> {mie.name = "x", ms.shape = #x}) -> (tensor<?x32xf32> {mie.name = "y"})
    attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.relu %arg0 : tensor<?x?x32xf32>
  %1 = ms.reshape %0 {shape = array<i64: -9223372036854775808, 32>, symbolic_shape = #rows} : (tensor<?x?x32xf32>) -> tensor<?x32xf32>
  return %1 : tensor<?x32xf32>
}

// -----

// An op whose lowering takes no run-time extents yet is refused at its location.

#x = affine_map<()[s0] -> (s0, 32)>
func.func @softmax(%arg0: tensor<?x32xf32> {ms.shape = #x}) -> tensor<?x32xf32>
    attributes {ms.symbols = ["n"]} {
  // expected-error@+1 {{'ms.softmax' over symbolic dims has no code for every shape yet (give its symbols sizes: --specialize or --dim-param)}}
  %0 = ms.softmax %arg0 {axis = 1 : i64} : (tensor<?x32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

// An elementwise operand dim that could be 1 at run time and broadcast is refused.

#a = affine_map<()[s0, s1] -> (s0, 32)>
#b = affine_map<()[s0, s1] -> (s1, 32)>
func.func @broadcast(%arg0: tensor<?x32xf32> {ms.shape = #a}, %arg1: tensor<?x32xf32> {ms.shape = #b}) -> tensor<?x32xf32>
    attributes {ms.symbols = ["m", "n"]} {
  // expected-error@+1 {{operand dim 0 may broadcast at run time, which code for every shape does not take yet (give its symbols sizes: --specialize or --dim-param)}}
  %0 = ms.add %arg0, %arg1 : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}
