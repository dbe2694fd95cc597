// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Tests that a random op is one parallel kernel reading the run's key buffer (a get of the one
// mutable global @mie_random_key, read twice: key and run counter): Philox-4x32-10 of the linear
// index (ten rounds of two 32x32->64 products with its multipliers, the key bumped by the Weyl
// constants between rounds), the top 24 bits of the first word scaled by 2^-24, then
// low + (high - low) * u.

// CHECK: memref.global "private" @mie_random_key : memref<2xi64> {alignment = 16 : i64}
// CHECK-LABEL: func.func @uniform
// CHECK: %[[OUT:.+]] = mie.alloc : memref<2x3xf32>
// CHECK: %[[KEY:.+]] = memref.get_global @mie_random_key : memref<2xi64>
// CHECK: mie.kernel "random_uniform" ins(%[[KEY]] : memref<2xi64>) outs(%[[OUT]] : memref<2x3xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : memref<2xi64>, memref<2xi64>) outs(%{{.+}} : memref<2x3xf32>)
// CHECK-DAG: arith.constant -766435501 : i32
// CHECK-DAG: arith.constant -845247145 : i32
// CHECK-DAG: arith.constant -1640531527 : i32
// CHECK-DAG: arith.constant -1150833019 : i32
// CHECK-COUNT-20: arith.mului_extended
// CHECK-NOT: arith.mului_extended
// CHECK: arith.constant 5.96046448E-8 : f32
// CHECK: math.fma
// CHECK: linalg.yield
func.func @uniform() -> tensor<2x3xf32> {
  %0 = ms.random_uniform {shape = array<i64: 2, 3>, element_type = f32, low = -1.0, high = 2.0, stream = 0} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests that a seeded op keys Philox with a constant from its seed instead of the key buffer's
// first word, that two ops share the one global, and that a normal draw in f16 is computed in f32
// (Box-Muller: log, sqrt, cos) and rounded once.

// CHECK: memref.global "private" @mie_random_key
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @normal
// CHECK: mie.kernel "random_normal"
// CHECK: arith.constant {{-?[0-9]+}} : i64
// CHECK: math.log %{{.+}} : f32
// CHECK: math.sqrt %{{.+}} : f32
// CHECK: math.cos %{{.+}} : f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: mie.kernel "random_uniform"
// CHECK: arith.constant 1.1102230246251565E-16 : f64
func.func @normal() -> (tensor<4xf16>, tensor<3xf64>) {
  %0 = ms.random_normal {shape = array<i64: 4>, element_type = f16, seed = 7.0, stream = 0} : tensor<4xf16>
  %1 = ms.random_uniform {shape = array<i64: 3>, element_type = f64, stream = 1} : tensor<3xf64>
  return %0, %1 : tensor<4xf16>, tensor<3xf64>
}

// -----

// Tests that a draw in a loop body reads its iteration (a 0-D buffer, the third input of the
// generic) and keys Philox with mix64(key ^ mix64(iteration)): splitmix64's finalizer twice.

// CHECK-LABEL: func.func @in_loop
// CHECK: mie.kernel "random_uniform" ins(%{{.+}}, %{{.+}} : memref<2xi64>, memref<i64>) outs(%{{.+}} : memref<8xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<2xi64>, memref<2xi64>, memref<i64>)
// CHECK-COUNT-2: arith.constant -4658895280553007687 : i64
// CHECK: arith.mului_extended
func.func @in_loop(%i: tensor<i64>) -> tensor<8xf32> {
  %0 = ms.random_uniform iteration(%i : tensor<i64>) {shape = array<i64: 8>, element_type = f32, stream = 0} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
