// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Tests that a reverse GRU (reset gate before the product) with sequence lengths and clip is one
// kernel looping over time: the state in an f32 scratch buffer; per step the z and r products of
// every batch row as dot products along R's rows (each row of R once per step, loaded once for up
// to four batch rows, reassociable sums) into a [B, 2H] scratch; then per batch row its length read and clamped into [0, T], the row
// skipped past it, the time index counted back from its last valid step, r ⊙ H into a [B, H]
// scratch; its product with Rh; the gate math. No library kernel per step.

// CHECK-LABEL: func.func @gru_reverse_lens
// CHECK-NOT: mie.gemm
// CHECK: %[[Y:.+]] = mie.alloc : memref<5x1x2x8xf32>
// CHECK: %[[YH:.+]] = mie.alloc : memref<1x2x8xf32>
// CHECK: %[[H:.+]] = mie.alloc : memref<1x2x8xf32>
// CHECK: %[[PROD:.+]] = mie.alloc : memref<2x24xf32>
// CHECK: %[[RH:.+]] = mie.alloc : memref<2x8xf32>
// CHECK: mie.kernel "gru" ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<5x2x1x24xf32>, memref<1x24x8xf32>, memref<2xi32>) outs(%[[Y]], %[[YH]], %[[H]], %[[PROD]], %[[RH]] :
// CHECK-NEXT: ^bb0(%[[G:.+]]: memref<5x2x1x24xf32>, %[[R:.+]]: memref<1x24x8xf32>, %[[LENS:.+]]: memref<2xi32>, %[[KY:.+]]: memref<5x1x2x8xf32>, %[[KYH:.+]]: memref<1x2x8xf32>, %[[KH:.+]]: memref<1x2x8xf32>, %[[KP:.+]]: memref<2x24xf32>, %[[KRH:.+]]: memref<2x8xf32>):
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[KY]] : memref<5x1x2x8xf32>)
// CHECK: scf.for %[[S:.+]] = %{{.+}} to %{{.+}} step
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[ROW:.+]] = arith.addi %[[J]],
// CHECK: %[[DOTS:.+]]:2 = scf.for %{{.+}} iter_args(%[[A0:.+]] = %{{.+}}, %[[A1:.+]] = %{{.+}}) -> (f32, f32)
// CHECK: %[[RK:.+]] = memref.load %[[R]][%{{.+}}, %[[ROW]], %{{.+}}]
// CHECK: %[[H0:.+]] = memref.load %[[KH]]
// CHECK: %[[P0:.+]] = arith.mulf %[[H0]], %[[RK]] : f32
// CHECK: arith.addf %[[A0]], %[[P0]] fastmath<reassoc> : f32
// CHECK: %[[H1:.+]] = memref.load %[[KH]]
// CHECK: %[[P1:.+]] = arith.mulf %[[H1]], %[[RK]] : f32
// CHECK: arith.addf %[[A1]], %[[P1]] fastmath<reassoc> : f32
// CHECK: memref.store %[[DOTS]]#0, %[[KP]][%{{.+}}, %[[ROW]]]
// CHECK: memref.store %[[DOTS]]#1, %[[KP]][%{{.+}}, %[[ROW]]]
// CHECK: scf.for %[[B:.+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[RAW:.+]] = memref.load %[[LENS]][%[[B]]] : memref<2xi32>
// CHECK: %[[LEN:.+]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK: %[[POS:.+]] = arith.maxsi %[[LEN]], %{{.+}} : index
// CHECK: %[[CLAMPED:.+]] = arith.minsi %[[POS]], %{{.+}} : index
// CHECK: %[[ACTIVE:.+]] = arith.cmpi slt, %[[S]], %[[CLAMPED]] : index
// CHECK: scf.if %[[ACTIVE]] {
// CHECK: %[[LAST:.+]] = arith.subi %[[CLAMPED]], %{{.+}} : index
// CHECK: %[[TIME:.+]] = arith.subi %[[LAST]], %[[S]] : index
// CHECK: memref.load %[[G]][%[[TIME]], %[[B]],
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: memref.store %{{.+}}, %[[KRH]][%[[B]],
// CHECK: scf.for {{.+}} iter_args
// CHECK: memref.load %[[KRH]]
// CHECK: scf.if
// CHECK: math.tanh
// CHECK: memref.store %{{.+}}, %[[KH]]
// CHECK: memref.store %{{.+}}, %[[KY]][
// CHECK: memref.store %{{.+}}, %[[KYH]]
// CHECK: return %[[Y]], %[[YH]]
func.func @gru_reverse_lens(%g: tensor<5x2x1x24xf32>, %r: tensor<1x24x8xf32>, %len: tensor<2xi32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>) {
  %0:2 = ms.gru %g, %r sequence_lens(%len) {direction = #ms<rnn_direction reverse>, activations = ["sigmoid", "tanh"], activation_alpha = array<f64: 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0>, clip = 2.0 : f64}
      : (tensor<5x2x1x24xf32>, tensor<1x24x8xf32>, tensor<2xi32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return %0#0, %0#1 : tensor<5x1x2x8xf32>, tensor<1x2x8xf32>
}

// -----

// Tests that a bf16 bidirectional LSTM keeps its state (h and c) in f32 scratch buffers, takes all
// four gates' products in one pass over R, reads the peepholes, and rounds only what it stores.

// CHECK-LABEL: func.func @lstm_bf16
// CHECK: mie.kernel "lstm" ins(%{{.+}} : memref<3x1x2x16xbf16>, memref<2x16x4xbf16>, memref<2x12xbf16>) outs(%{{.+}} : memref<3x2x1x4xbf16>, memref<2x1x4xbf16>, memref<2x1x4xbf16>, memref<2x1x4xf32>, memref<2x1x4xf32>, memref<1x16xf32>)
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: arith.truncf %{{.+}} : f32 to bf16
func.func @lstm_bf16(%g: tensor<3x1x2x16xbf16>, %r: tensor<2x16x4xbf16>, %p: tensor<2x12xbf16>) -> (tensor<3x2x1x4xbf16>, tensor<2x1x4xbf16>, tensor<2x1x4xbf16>) {
  %0:3 = ms.lstm %g, %r peepholes(%p) {direction = #ms<rnn_direction bidirectional>, activations = ["sigmoid", "tanh", "tanh", "sigmoid", "tanh", "tanh"], activation_alpha = array<f64: 0.0, 0.0, 0.0, 0.0, 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0, 0.0, 0.0, 0.0, 0.0>}
      : (tensor<3x1x2x16xbf16>, tensor<2x16x4xbf16>, tensor<2x12xbf16>) -> (tensor<3x2x1x4xbf16>, tensor<2x1x4xbf16>, tensor<2x1x4xbf16>)
  return %0#0, %0#1, %0#2 : tensor<3x2x1x4xbf16>, tensor<2x1x4xbf16>, tensor<2x1x4xbf16>
}
