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

// Tests that f16 and bf16 math is expanded too (computed in f32 and truncated back); the bf16
// conversions themselves become integer bit operations (no __truncsfbf2 call in the object).

// CHECK-LABEL: func.func @half
// CHECK-SAME: (%[[H:[^:]+]]: f16, %[[B:[^:]+]]: bf16)
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.exp
// CHECK-NOT: bf16 to f32
// CHECK-NOT: f32 to bf16
// CHECK-DAG: arith.extf %[[H]] : f16 to f32
// CHECK-DAG: arith.bitcast %[[B]] : bf16 to i16
// CHECK-DAG: arith.truncf %{{.+}} : f32 to f16
// CHECK-DAG: arith.bitcast %{{.+}} : i16 to bf16
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

// -----

// Tests that bf16 arithmetic is done in f32 and that every conversion to and from bf16 is expanded
// (round to nearest even on integer bits).

// CHECK-LABEL: func.func @bf16_arith
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.addf {{.+}} : bf16
// CHECK-NOT: arith.mulf {{.+}} : bf16
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: arith.shrui
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: return
func.func @bf16_arith(%a: bf16, %b: bf16, %x: f32) -> (bf16, f32) {
  %0 = arith.addf %a, %b : bf16
  %1 = arith.truncf %x : f32 to bf16
  %2 = arith.mulf %0, %1 : bf16
  %3 = arith.extf %2 : bf16 to f32
  return %2, %3 : bf16, f32
}

// -----

// Tests that the trigonometric and hyperbolic functions (and their inverses) leave no math op that
// LLVM would turn into a libm call.

// CHECK-LABEL: func.func @trig
// CHECK-NOT: math.{{sin|cos|tan|asin|acos|atan|sinh|cosh|asinh|acosh|atanh|exp|log}}
// CHECK: return
func.func @trig(%x: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %0 = math.sin %x : f32
  %1 = math.cos %x : f32
  %2 = math.tan %x : f32
  %3 = math.asin %x : f32
  %4 = math.acos %x : f32
  %5 = math.atan %x : f32
  %6 = math.sinh %x : f32
  %7 = math.cosh %x : f32
  %8 = math.asinh %x : f32
  %9 = math.acosh %x : f32
  %10 = math.atanh %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// -----

// Tests that math ops the approximations leave alone (floor, absf, fma) are computed in f32 on bf16
// values too: LLVM would otherwise promote them itself and round back through __truncsfbf2, which
// a loaded package cannot call. f16 ones stay (the targets convert f16 in hardware).

// CHECK-LABEL: func.func @bf16_rounding
// CHECK-NOT: math.floor {{.*}} : bf16
// CHECK-NOT: math.absf {{.*}} : bf16
// CHECK: math.floor %{{.+}} : vector<8xf32>
// CHECK: math.absf %{{.+}} : f32
// CHECK: math.floor %{{.+}} : f16
// CHECK: math.fma %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK-NOT: math.fma {{.*}} bf16
// CHECK: return
func.func @bf16_rounding(%v: vector<8xbf16>, %b: bf16, %h: f16) -> (vector<8xbf16>, bf16, f16, bf16) {
  %0 = math.floor %v : vector<8xbf16>
  %1 = math.absf %b : bf16
  %2 = math.floor %h : f16
  %3 = math.fma %b, %b, %b : bf16
  return %0, %1, %2, %3 : vector<8xbf16>, bf16, f16, bf16
}
