// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s
// RUN: ms-opt %s -split-input-file -convert-ms-to-mie -mie-outline-kernels -mie-parallelize-loops | FileCheck %s --check-prefix=ENV

// Tests that ms.check is one kernel that copies its input and, where the condition is false, calls
// the runtime service mie_host_check_failed with the message (a NUL-terminated constant).

// CHECK-LABEL: func.func @check
// CHECK: %[[OUT:.+]] = mie.alloc : memref<3xi64>
// CHECK: mie.kernel "check" ins(%{{.+}}, %{{.+}} : memref<3xi64>, memref<i1>) outs(%[[OUT]] : memref<3xi64>)
// CHECK: ^bb0(%[[IN:.+]]: memref<3xi64>, %[[OK:.+]]: memref<i1>, %[[COPY:.+]]: memref<3xi64>):
// CHECK: %[[HOLDS:.+]] = memref.load %[[OK]][] : memref<i1>
// CHECK: %[[FAILS:.+]] = arith.xori %[[HOLDS]], %true
// CHECK: scf.if %[[FAILS]] {
// CHECK:   %[[TEXT:.+]] = llvm.mlir.addressof @mie_host_text_0
// CHECK:   func.call @mie_host_check_failed(%[[TEXT]]) : (!llvm.ptr) -> ()
// CHECK: }
// CHECK: memref.copy %[[IN]], %[[COPY]]
// CHECK: return %[[OUT]]
// CHECK-DAG: func.func private @mie_host_check_failed(!llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @mie_host_text_0("Slice node 's': the starts disagree\00")

// Tests that mie-parallelize-loops hands the service the environment.

// ENV: func.func @check(%[[ENV:[^:]+]]: !llvm.ptr,
// ENV: call @check_k0_check(%[[ENV]],
// ENV: func.func private @check_k0_check(%[[KENV:[^:]+]]: !llvm.ptr,
// ENV: call @mie_host_check_failed(%[[KENV]],
// ENV: func.func private @mie_host_check_failed(!llvm.ptr, !llvm.ptr)
func.func @check(%i: tensor<3xi64>, %ok: tensor<i1>) -> tensor<3xi64> {
  %0 = ms.check %i, %ok {message = "Slice node 's': the starts disagree"} : (tensor<3xi64>, tensor<i1>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

