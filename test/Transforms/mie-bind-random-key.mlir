// RUN: ms-opt %s -split-input-file -mie-bind-random-key | FileCheck %s

// Tests that every get of @mie_random_key in the public function becomes its new last argument
// "random_key" (after the arena and the weights) and that the global is erased.

// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[Y:[^:]+]]: memref<4xf32>, %{{[^:]+}}: memref<64xi8> {mie.slot = "arena"}, %{{[^:]+}}: memref<0xi8> {mie.slot = "weights"}, %[[KEY:[^:]+]]: memref<2xi64> {mie.slot = "random_key"})
// CHECK-NOT: memref.get_global
// CHECK: mie.kernel "random_uniform" ins(%[[KEY]] : memref<2xi64>) outs(%[[Y]] : memref<4xf32>)
// CHECK: mie.kernel "again" ins(%[[KEY]] : memref<2xi64>)
memref.global "private" @mie_random_key : memref<2xi64> {alignment = 16 : i64}
func.func @main(%y: memref<4xf32>, %arena: memref<64xi8> {mie.slot = "arena"}, %w: memref<0xi8> {mie.slot = "weights"}) {
  %k = memref.get_global @mie_random_key : memref<2xi64>
  mie.kernel "random_uniform" ins(%k : memref<2xi64>) outs(%y : memref<4xf32>) {
  ^bb0(%kk: memref<2xi64>, %o: memref<4xf32>):
    mie.yield
  }
  %k2 = memref.get_global @mie_random_key : memref<2xi64>
  mie.kernel "again" ins(%k2 : memref<2xi64>) outs(%y : memref<4xf32>) {
  ^bb0(%kk: memref<2xi64>, %o: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that a module without random ops is left as it is.

// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%{{[^:]+}}: memref<4xf32>)
func.func @plain(%y: memref<4xf32>) {
  return
}
