// RUN: ms-opt %s -split-input-file -mie-gpu-lower-launches -verify-diagnostics | FileCheck %s

// Tests that a launch becomes calls through the environment's GPU API (kernel ABI 4: env->gpu at
// offset 48, env->gpu_ctx at 40; get_function at 8 and launch at 16 of mie_gpu_api): the kernel
// looked up by name in module 0 (the first gpu.binary), a missing one returning status 1, the
// arguments passed as an array of pointers to slots (buffers as their aligned pointers, indices as
// i64), the grid and block as i32; a non-zero status is returned at once. The launching function
// and the entry get %env first and return an i32 status, the entry passing its %env down.
// CHECK: llvm.mlir.global internal constant @__mie_gpu_name_main_k0_kernel("main_k0_kernel\00")
// CHECK-LABEL: func.func private @main_k0
// CHECK-SAME: (%[[ENV:[^:]+]]: !llvm.ptr, %[[X:[^:]+]]: memref<4xf32>, %[[Y:[^:]+]]: memref<4xf32>, %[[N:[^:]+]]: index) -> i32
// CHECK-DAG: %[[PARAMS:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK-DAG: %[[SLOTN:.+]] = llvm.alloca %{{.+}} x i64
// CHECK: %[[GPUSLOT:.+]] = llvm.getelementptr %[[ENV]][48] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[GPU:.+]] = llvm.load %[[GPUSLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[CTXSLOT:.+]] = llvm.getelementptr %[[ENV]][40] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[CTX:.+]] = llvm.load %[[CTXSLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[GFSLOT:.+]] = llvm.getelementptr %[[GPU]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[GF:.+]] = llvm.load %[[GFSLOT]]
// CHECK: %[[NAME:.+]] = llvm.mlir.addressof @__mie_gpu_name_main_k0_kernel
// CHECK: %[[MODULE:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[FN:.+]] = llvm.call %[[GF]](%[[CTX]], %[[MODULE]], %[[NAME]]) : !llvm.ptr, (!llvm.ptr, i32, !llvm.ptr) -> !llvm.ptr
// CHECK: %[[MISSING:.+]] = llvm.icmp "eq" %[[FN]], %{{.+}} : !llvm.ptr
// CHECK: %[[ST1:.+]] = arith.select %[[MISSING]], %{{.+}}, %{{.+}} : i32
// CHECK: %[[BAD1:.+]] = arith.cmpi ne, %[[ST1]], %{{.+}} : i32
// CHECK: cf.cond_br %[[BAD1]], ^[[EXIT:bb[0-9]+]](%[[ST1]] : i32), ^[[GO:bb[0-9]+]]
// CHECK: ^[[GO]]:
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: %[[N64:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK: llvm.store %[[N64]], %[[SLOTN]] : i64, !llvm.ptr
// CHECK: %[[LSLOT:.+]] = llvm.getelementptr %[[GPU]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[LAUNCH:.+]] = llvm.load %[[LSLOT]]
// CHECK: %[[ST2:.+]] = llvm.call %[[LAUNCH]](%[[CTX]], %[[FN]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[PARAMS]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr) -> i32
// CHECK: %[[BAD2:.+]] = arith.cmpi ne, %[[ST2]], %{{.+}} : i32
// CHECK: cf.cond_br %[[BAD2]], ^[[EXIT]](%[[ST2]] : i32), ^[[DONE:bb[0-9]+]]
// CHECK: ^[[DONE]]:
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: return %[[ZERO]] : i32
// CHECK: ^[[EXIT]](%[[CODE:.+]]: i32):
// CHECK: return %[[CODE]] : i32
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[MENV:[^:]+]]: !llvm.ptr, %[[MX:[^:]+]]: memref<4xf32>, %[[MY:[^:]+]]: memref<4xf32>) -> i32
// CHECK: %[[S:.+]] = call @main_k0(%[[MENV]], %[[MX]], %[[MY]], %{{.+}}) : (!llvm.ptr, memref<4xf32>, memref<4xf32>, index) -> i32
// CHECK: %[[SBAD:.+]] = arith.cmpi ne, %[[S]], %{{.+}} : i32
// CHECK: cf.cond_br %[[SBAD]], ^{{bb[0-9]+}}(%[[S]] : i32), ^{{bb[0-9]+}}
// CHECK: gpu.binary @mie_gpu
module attributes {gpu.container_module} {
  func.func private @main_k0(%x: memref<4xf32>, %y: memref<4xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @mie_gpu::@main_k0_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%x : memref<4xf32>, %y : memref<4xf32>, %n : index)
    return
  }
  func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) {
    %c4 = arith.constant 4 : index
    call @main_k0(%x, %y, %c4) : (memref<4xf32>, memref<4xf32>, index) -> ()
    return
  }
  gpu.binary @mie_gpu [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF">]
}

// -----

// Tests that the second GPU module's kernels are looked up as module 1.
// CHECK-LABEL: func.func @second
// CHECK: llvm.mlir.addressof @__mie_gpu_name_k
// CHECK-NEXT: llvm.mlir.constant(1 : i32) : i32
module attributes {gpu.container_module} {
  func.func @second(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.binary @a [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "A">]
  gpu.binary @b [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "B">]
}

// -----

// Tests that a launch inside a loop is refused: it could not return its status.
module attributes {gpu.container_module} {
  func.func @looped(%x: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c1 step %c1 {
      // expected-error @+1 {{mie-gpu-lower-launches: a GPU launch inside a loop or branch cannot report failure; it must be at the top level of 'looped'}}
      gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    }
    return
  }
  gpu.binary @a [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "A">]
}

// -----

// Tests that a buffer of dynamic layout cannot be passed as a bare pointer.
module attributes {gpu.container_module} {
  func.func @dynamic(%x: memref<4xf32, strided<[?]>>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{mie-gpu-lower-launches: cannot pass 'memref<4xf32, strided<[?]>>' to a kernel (static identity buffers and scalars only)}}
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32, strided<[?]>>)
    return
  }
  gpu.binary @a [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "A">]
}
