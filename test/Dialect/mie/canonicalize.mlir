// RUN: ms-opt %s -split-input-file -canonicalize | FileCheck %s

// Tests that unused buffers are dead code: mie.alloc only allocates its result, mie.view is pure.

// CHECK-LABEL: func.func @dead_buffers
// CHECK-NOT: mie.alloc
// CHECK-NOT: mie.view
// CHECK: return
func.func @dead_buffers(%arena: memref<4096xi8>) {
  %0 = mie.alloc : memref<1x64x8x8xf32>
  %1 = mie.view %arena[0] : memref<4096xi8> to memref<16xf32>
  return
}

// -----

// Tests that a buffer written by a kernel stays, and so does the kernel, even if nothing reads it.

// CHECK-LABEL: func.func @written_buffers_stay
// CHECK: %[[A:.+]] = mie.view {{.+}} to memref<16x4xf32>
// CHECK: %[[B:.+]] = mie.view {{.+}} to memref<16x16xf32>
// CHECK: %[[Y:.+]] = mie.alloc : memref<4x16xf32>
// CHECK: %[[Z:.+]] = mie.view {{.+}} to memref<4x16xf32>
// CHECK: mie.gemm ins(%[[A]], %[[B]] : {{.+}}) outs(%[[Z]] : memref<4x16xf32>)
// CHECK: mie.gemm ins(%[[A]], %[[B]] : {{.+}}) outs(%[[Y]] : memref<4x16xf32>)
// CHECK: mie.kernel "scale" outs(%[[Y]] : memref<4x16xf32>)
func.func @written_buffers_stay(%arena: memref<4096xi8>) {
  %a = mie.view %arena[0] : memref<4096xi8> to memref<16x4xf32>
  %b = mie.view %arena[256] : memref<4096xi8> to memref<16x16xf32>
  %y = mie.alloc : memref<4x16xf32>
  %z = mie.view %arena[1280] : memref<4096xi8> to memref<4x16xf32>
  mie.gemm ins(%a, %b : memref<16x4xf32>, memref<16x16xf32>) outs(%z : memref<4x16xf32>) {trans_a}
  mie.gemm ins(%a, %b : memref<16x4xf32>, memref<16x16xf32>) outs(%y : memref<4x16xf32>) {trans_a}
  mie.kernel "scale" outs(%y : memref<4x16xf32>) {
  ^bb0(%o: memref<4x16xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that a view of a view becomes one view of the root base at the summed offset, through a
// chain of three, and that the intermediate views disappear.

// CHECK-LABEL: func.func @view_of_view
// CHECK-SAME: (%[[ARENA:.+]]: memref<65536xi8>)
// CHECK-NEXT: %[[A:.+]] = mie.view %[[ARENA]][1088] : memref<65536xi8> to memref<16xf32>
// CHECK-NEXT: %[[B:.+]] = mie.view %[[ARENA]][9344] : memref<65536xi8> to memref<4x4xf16>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @view_of_view(%arena: memref<65536xi8>) -> (memref<16xf32>, memref<4x4xf16>) {
  %region = mie.view %arena[1024] : memref<65536xi8> to memref<16384xi8>
  %a = mie.view %region[64] : memref<16384xi8> to memref<16xf32>
  %sub = mie.view %region[8192] : memref<16384xi8> to memref<4096xi8>
  %b = mie.view %sub[128] : memref<4096xi8> to memref<4x4xf16>
  return %a, %b : memref<16xf32>, memref<4x4xf16>
}

// -----

// Tests that an `aligned` view folds through its parent only when the summed offset stays a multiple
// of 64, and keeps `aligned` when it does.

// CHECK-LABEL: func.func @aligned_view_of_view
// CHECK-SAME: (%[[ARENA:.+]]: memref<65536xi8>)
// CHECK: %[[SUB:.+]] = mie.view %[[ARENA]][32] : memref<65536xi8> to memref<1024xi8>
// CHECK: %[[A:.+]] = mie.view %[[SUB]][64] {aligned} : memref<1024xi8> to memref<16xf32>
// CHECK: %[[B:.+]] = mie.view %[[ARENA]][4160] {aligned} : memref<65536xi8> to memref<16xf32>
// CHECK: return %[[A]], %[[B]]
func.func @aligned_view_of_view(%arena: memref<65536xi8>) -> (memref<16xf32>, memref<16xf32>) {
  %sub = mie.view %arena[32] : memref<65536xi8> to memref<1024xi8>
  %a = mie.view %sub[64] {aligned} : memref<1024xi8> to memref<16xf32>
  %sub2 = mie.view %arena[4096] {aligned} : memref<65536xi8> to memref<1024xi8>
  %b = mie.view %sub2[64] {aligned} : memref<1024xi8> to memref<16xf32>
  return %a, %b : memref<16xf32>, memref<16xf32>
}
