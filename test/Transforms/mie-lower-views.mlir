// RUN: ms-opt %s -split-input-file -mie-lower-views | FileCheck %s

// Tests that every mie.view becomes a memref.view of the same base at its byte offset (an index
// constant), with the same result type, used in its place; views of the arena and of the weights,
// aligned or not, lower alike.

// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32>, %[[ARENA:[^:]+]]: memref<1024xi8>, %[[WEIGHTS:[^:]+]]: memref<128xi8>)
// CHECK-NOT: mie.view
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[A:.+]] = memref.view %[[ARENA]][%[[C0]]][] : memref<1024xi8> to memref<2x4xf32>
// CHECK-DAG: %[[B:.+]] = memref.view %[[ARENA]][%[[C512]]][] : memref<1024xi8> to memref<8xf16>
// CHECK-DAG: %[[W:.+]] = memref.view %[[WEIGHTS]][%[[C64]]][] : memref<128xi8> to memref<4xf32>
// CHECK: mie.kernel "k" ins(%[[W]], %[[X]] : memref<4xf32>, memref<4xf32>) outs(%[[A]], %[[B]] : memref<2x4xf32>, memref<8xf16>)
// CHECK-NOT: mie.view
func.func @views(%x: memref<4xf32>, %arena: memref<1024xi8>, %weights: memref<128xi8>) {
  %a = mie.view %arena[0] : memref<1024xi8> to memref<2x4xf32>
  %b = mie.view %arena[512] : memref<1024xi8> to memref<8xf16>
  %w = mie.view %weights[64] {aligned} : memref<128xi8> to memref<4xf32>
  mie.kernel "k" ins(%w, %x : memref<4xf32>, memref<4xf32>) outs(%a, %b : memref<2x4xf32>, memref<8xf16>) {
  ^bb0(%i: memref<4xf32>, %j: memref<4xf32>, %o: memref<2x4xf32>, %p: memref<8xf16>):
    mie.yield
  }
  return
}

// -----

// Tests views used by calls after outlining, in more than one function, and a view of the whole
// base.

// CHECK-LABEL: func.func @first
// CHECK-SAME: (%[[ARENA:[^:]+]]: memref<64xi8>)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[V:.+]] = memref.view %[[ARENA]][%[[C0]]][] : memref<64xi8> to memref<64xi8>
// CHECK: call @use(%[[V]]) : (memref<64xi8>) -> ()
// CHECK-LABEL: func.func @second
// CHECK-SAME: (%[[ARENA:[^:]+]]: memref<64xi8>)
// CHECK: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[V:.+]] = memref.view %[[ARENA]][%[[C32]]][] : memref<64xi8> to memref<2x2xf64>
// CHECK: call @use2(%[[V]]) : (memref<2x2xf64>) -> ()
func.func private @use(memref<64xi8>)
func.func private @use2(memref<2x2xf64>)

func.func @first(%arena: memref<64xi8>) {
  %v = mie.view %arena[0] : memref<64xi8> to memref<64xi8>
  call @use(%v) : (memref<64xi8>) -> ()
  return
}

func.func @second(%arena: memref<64xi8>) {
  %v = mie.view %arena[32] : memref<64xi8> to memref<2x2xf64>
  call @use2(%v) : (memref<2x2xf64>) -> ()
  return
}
