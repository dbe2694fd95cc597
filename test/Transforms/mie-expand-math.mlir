// RUN: ms-opt %s -split-input-file -mie-expand-math | FileCheck %s
// RUN: ms-opt %s -split-input-file -mie-expand-math | FileCheck %s --check-prefix=GONE

// Nowhere in the output:
// GONE-NOT: math.{{exp|tanh|erf|log}}

// Tests that exp, tanh, erf and log on f32 scalars (as left by linalg-to-loops) and vectors become
// polynomial arithmetic: no transcendental math op remains, only fma / floor / abs helpers.

// CHECK-LABEL: func.func @f32
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.log
// CHECK: math.fma
// CHECK: return
func.func @f32(%x: f32, %v: vector<8xf32>) -> (f32, f32, f32, f32, vector<8xf32>, vector<8xf32>) {
  %0 = math.exp %x : f32
  %1 = math.tanh %x : f32
  %2 = math.erf %x : f32
  %3 = math.log %x : f32
  %4 = math.tanh %v : vector<8xf32>
  %5 = math.exp %v : vector<8xf32>
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, vector<8xf32>, vector<8xf32>
}

// -----

// Tests that f16 and bf16 math is expanded too (computed in f32 and truncated back).

// CHECK-LABEL: func.func @half
// CHECK-SAME: (%[[H:[^:]+]]: f16, %[[B:[^:]+]]: bf16)
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.exp
// CHECK-DAG: arith.extf %[[H]] : f16 to f32
// CHECK-DAG: arith.extf %[[B]] : bf16 to f32
// CHECK-DAG: arith.truncf %{{.+}} : f32 to f16
// CHECK-DAG: arith.truncf %{{.+}} : f32 to bf16
// CHECK: return
func.func @half(%h: f16, %b: bf16) -> (f16, bf16, f16) {
  %0 = math.tanh %h : f16
  %1 = math.erf %b : bf16
  %2 = math.exp %h : f16
  return %0, %1, %2 : f16, bf16, f16
}

// -----

// Tests the epilogue activations as lowered kernels leave them (sigmoid = 1 / (1 + exp(-x)), tanh
// gelu) inside a loop body.

// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK: memref.store
func.func @in_loop(%buf: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %buf[%i] : memref<64xf32>
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %one, %d : f32
    %t = math.tanh %s : f32
    memref.store %t, %buf[%i] : memref<64xf32>
  }
  return
}

// NOTE: math.powf and math.ipowi (what ms.pow lowers to) are not expanded: powf later becomes
// llvm.intr.pow (a libm powf call) and ipowi survives mie-to-llvm-pipeline unconverted.
