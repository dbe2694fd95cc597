// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Tests that control flow lowers to scf with its kernels inside (destination passing): ms.if to
// scf.if on the condition's element, each branch copying its values into result buffers allocated
// before it.

// CHECK-LABEL: func.func @if
// CHECK: %[[R:.+]] = mie.alloc : memref<4xf32>
// CHECK: %[[C:.+]] = memref.load %arg0[] : memref<i1>
// CHECK: scf.if %[[C]] {
// CHECK:   %[[S:.+]] = mie.alloc : memref<4xf32>
// CHECK:   mie.kernel "add" ins(%arg1, %arg2 : memref<4xf32>, memref<4xf32>) outs(%[[S]] : memref<4xf32>)
// CHECK:   mie.kernel "yield" ins(%[[S]] : memref<4xf32>) outs(%[[R]] : memref<4xf32>)
// CHECK: } else {
// CHECK:   mie.kernel "yield" ins(%arg2 : memref<4xf32>) outs(%[[R]] : memref<4xf32>)
// CHECK: }
// CHECK: return %[[R]]
func.func @if(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.if %c : tensor<i1> -> (tensor<4xf32>) {
    %s = ms.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ms.region_yield %s : tensor<4xf32>
  } else {
    ms.region_yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// ms.loop with a trip count: scf.for. The carried values live in buffers that start as copies of
// their initial values and that the body reads as its arguments; the scan element is written at
// row i (read from the counter buffer the loop stores i into) before the carried values are
// overwritten, and carried values that swap places go through temporaries. Without a condition
// operand the condition buffer starts true.

// CHECK-LABEL: func.func @loop_swap
// CHECK: %[[M:.+]] = memref.get_global
// CHECK: %[[I:.+]] = mie.alloc : memref<i64>
// CHECK: %[[COND:.+]] = mie.alloc : memref<i1>
// CHECK: mie.kernel "fill" outs(%[[COND]] : memref<i1>)
// CHECK: %[[P:.+]] = mie.alloc : memref<2xf32>
// CHECK: mie.kernel "loop_init" ins(%arg0 : memref<2xf32>) outs(%[[P]] : memref<2xf32>)
// CHECK: %[[Q:.+]] = mie.alloc : memref<2xf32>
// CHECK: mie.kernel "loop_init" ins(%arg1 : memref<2xf32>) outs(%[[Q]] : memref<2xf32>)
// CHECK: %[[S:.+]] = mie.alloc : memref<3x2xf32>
// CHECK: %[[MV:.+]] = memref.load %[[M]][] : memref<i64>
// CHECK: %[[UB:.+]] = arith.index_cast %[[MV]] : i64 to index
// CHECK: scf.for %[[IV:.+]] = %{{.+}} to %[[UB]] step %{{.+}} {
// CHECK:   %[[IV64:.+]] = arith.index_cast %[[IV]] : index to i64
// CHECK:   memref.store %[[IV64]], %[[I]][] : memref<i64>
// CHECK:   mie.kernel "scan_insert" ins(%[[P]], %[[I]] : memref<2xf32>, memref<i64>) outs(%[[S]] : memref<3x2xf32>)
// CHECK:     %[[ROW:.+]] = memref.load %{{.+}}[] : memref<i64>
// CHECK:   %[[T0:.+]] = mie.alloc : memref<2xf32>
// CHECK:   mie.kernel "carry_temporary" ins(%[[Q]] : memref<2xf32>) outs(%[[T0]] : memref<2xf32>)
// CHECK:   %[[T1:.+]] = mie.alloc : memref<2xf32>
// CHECK:   mie.kernel "carry_temporary" ins(%[[P]] : memref<2xf32>) outs(%[[T1]] : memref<2xf32>)
// CHECK:   mie.kernel "yield" ins(%[[T0]] : memref<2xf32>) outs(%[[P]] : memref<2xf32>)
// CHECK:   mie.kernel "yield" ins(%[[T1]] : memref<2xf32>) outs(%[[Q]] : memref<2xf32>)
// CHECK: }
// CHECK: return %[[P]], %[[Q]], %[[S]]
func.func @loop_swap(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>) {
  %m = ms.constant dense<3> : tensor<i64>
  %0:3 = ms.loop trip %m : tensor<i64> iter_args(%x, %y : tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %p: tensor<2xf32>, %q: tensor<2xf32>):
    ms.region_yield %c, %q, %p, %p : tensor<i1>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
  return %0#0, %0#1, %0#2 : tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>
}

// -----

// ms.loop with a condition: scf.while testing the condition buffer, which the body's yield
// overwrites at the end of each iteration.

// CHECK-LABEL: func.func @loop_while
// CHECK: %[[COND:.+]] = mie.alloc : memref<i1>
// CHECK: mie.kernel "loop_condition" ins(%arg0 : memref<i1>) outs(%[[COND]] : memref<i1>)
// CHECK: %[[Y:.+]] = mie.alloc : memref<2xf32>
// CHECK: scf.while (%{{.+}} = %{{.+}}) : (index) -> index {
// CHECK:   %[[GO:.+]] = memref.load %[[COND]][] : memref<i1>
// CHECK:   scf.condition(%[[GO]])
// CHECK: } do {
// CHECK:   mie.kernel "add" ins(%[[Y]], %[[Y]] : memref<2xf32>, memref<2xf32>)
// CHECK:   %[[N:.+]] = mie.alloc : memref<i1>
// CHECK:   mie.kernel "not" ins(%[[COND]] : memref<i1>) outs(%[[N]] : memref<i1>)
// CHECK:   mie.kernel "yield" ins(%[[N]] : memref<i1>) outs(%[[COND]] : memref<i1>)
// CHECK:   mie.kernel "yield" ins(%{{.+}} : memref<2xf32>) outs(%[[Y]] : memref<2xf32>)
// CHECK:   scf.yield
// CHECK: }
// CHECK: return %[[Y]]
func.func @loop_while(%c0: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ms.loop cond %c0 : tensor<i1> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
    %z = ms.add %y, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %n = ms.not %c : tensor<i1>
    ms.region_yield %n, %z : tensor<i1>, tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----


func.func @scan(%h: tensor<2xf32>, %x: tensor<2x5xf32>) -> (tensor<2xf32>, tensor<5x2xf32>) {
  %0:2 = ms.scan states(%h : tensor<2xf32>) inputs(%x : tensor<2x5xf32>) {scan_input_axes = array<i64: 1>, scan_input_directions = array<i64: 1>, scan_output_axes = array<i64: 0>, scan_output_directions = array<i64: 0>} -> (tensor<2xf32>, tensor<5x2xf32>) {
  ^bb0(%s: tensor<2xf32>, %t: tensor<2xf32>):
    %n = ms.add %s, %t : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ms.region_yield %n, %n : tensor<2xf32>, tensor<2xf32>
  }
  return %0#0, %0#1 : tensor<2xf32>, tensor<5x2xf32>
}
