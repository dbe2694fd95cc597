// RUN: ms-opt %s -split-input-file -mie-insert-profile-hooks -verify-diagnostics | FileCheck %s

// Tests that every kernel launch of an entry is bracketed by hook calls with its launch number (the
// manifest's kernel id) and phase 0 / 1, passing the entry's environment; calls of declarations
// (the parallel dispatch inside a kernel) are not launches and get none.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[ENV:[^:]+]]: !llvm.ptr, %[[X:[^:]+]]: memref<4xf32>, %[[Y:[^:]+]]: memref<4xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i32
// CHECK: call @mie_profile_hook(%[[ENV]], %[[C0]], %[[C0]]) : (!llvm.ptr, i32, i32) -> ()
// CHECK-NEXT: call @main_k0_relu(%[[ENV]], %[[X]], %[[Y]])
// CHECK-NEXT: call @mie_profile_hook(%[[ENV]], %[[C0]], %[[C1]])
// CHECK-NEXT: call @mie_profile_hook(%[[ENV]], %[[C1]], %[[C0]])
// CHECK-NEXT: call @main_k1_copy(%[[X]], %[[Y]])
// CHECK-NEXT: call @mie_profile_hook(%[[ENV]], %[[C1]], %[[C1]])
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @main_k0_relu
// CHECK-NOT: mie_profile_hook
// CHECK: call @main_k0_relu_p0__dispatch
// CHECK-NOT: mie_profile_hook
// CHECK: func.func private @mie_profile_hook(!llvm.ptr, i32, i32)
func.func @main(%env: !llvm.ptr, %x: memref<4xf32>, %y: memref<4xf32>) {
  call @main_k0_relu(%env, %x, %y) : (!llvm.ptr, memref<4xf32>, memref<4xf32>) -> ()
  call @main_k1_copy(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}
func.func private @main_k0_relu(%env: !llvm.ptr, %x: memref<4xf32>, %y: memref<4xf32>) {
  %c4 = arith.constant 4 : index
  call @main_k0_relu_p0__dispatch(%env, %x, %y, %c4) : (!llvm.ptr, memref<4xf32>, memref<4xf32>, index) -> ()
  return
}
func.func private @main_k0_relu_p0__dispatch(!llvm.ptr, memref<4xf32>, memref<4xf32>, index)
func.func private @main_k1_copy(%x: memref<4xf32>, %y: memref<4xf32>) {
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Tests that an entry without the environment argument is rejected.

// expected-error @+1 {{expects the environment (!llvm.ptr) as first argument; run mie-parallelize-loops first}}
func.func @main(%x: memref<4xf32>) {
  return
}
