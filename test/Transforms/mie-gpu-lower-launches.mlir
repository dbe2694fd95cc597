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

// -----

// Tests that a GEMM marked for cuBLASLt becomes a call of gpu->matmul (mie_gpu_api offset 40) with
// a constant mie_gpu_matmul_desc of 13 i64 words: dtype 1 (f32), batch 2, m 4, n 8, k 16, trans_a
// 0, trans_b 1, batch strides 64 / 128 / 32, epilogue 5 (bias + gelu), residual 0, alpha 0.5 as
// its IEEE bits (0x3FE0000000000000); the operands as pointers, NULL for the absent residual; its
// status returned at once; before it, a gpu api older than version 2 returns status 2. The module exports
// mie_gpu_libraries = 1 (cuBLASLt).
// CHECK: llvm.mlir.global internal constant @__mie_gpu_matmul_desc(dense<[1, 2, 4, 8, 16, 0, 1, 64, 128, 32, 5, 0, 4602678819172646912]> : tensor<13xi64>)
// CHECK: llvm.mlir.global external constant @mie_gpu_libraries(1 : i64)
// CHECK-LABEL: func.func private @main_k0
// CHECK-SAME: (%[[ENV:[^:]+]]: !llvm.ptr, %[[A:[^:]+]]: memref<2x4x16xf32>, %[[B:[^:]+]]: memref<2x8x16xf32>, %[[BIAS:[^:]+]]: memref<8xf32>, %[[Y:[^:]+]]: memref<2x4x8xf32>) -> i32
// CHECK: %[[GPUSLOT:.+]] = llvm.getelementptr %[[ENV]][48]
// CHECK: %[[GPU:.+]] = llvm.load %[[GPUSLOT]]
// CHECK: %[[CTXSLOT:.+]] = llvm.getelementptr %[[ENV]][40]
// CHECK: %[[CTX:.+]] = llvm.load %[[CTXSLOT]]
// CHECK: %[[VERSION:.+]] = llvm.load %[[GPU]] : !llvm.ptr -> i32
// CHECK: %[[OLD:.+]] = arith.cmpi ult, %[[VERSION]], %{{.+}} : i32
// CHECK: %[[OLDST:.+]] = arith.select %[[OLD]], %{{.+}}, %{{.+}} : i32
// CHECK: cf.cond_br %{{.+}}, ^[[EXIT:bb[0-9]+]](%[[OLDST]] : i32), ^{{bb[0-9]+}}
// CHECK: %[[FNSLOT:.+]] = llvm.getelementptr %[[GPU]][40]
// CHECK: %[[FN:.+]] = llvm.load %[[FNSLOT]]
// CHECK: %[[DESC:.+]] = llvm.mlir.addressof @__mie_gpu_matmul_desc
// CHECK: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[PA:.+]] = llvm.inttoptr
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: %[[PB:.+]] = llvm.inttoptr
// CHECK: memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK: %[[PBIAS:.+]] = llvm.inttoptr
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: %[[PY:.+]] = llvm.inttoptr
// CHECK: %[[ST:.+]] = llvm.call %[[FN]](%[[CTX]], %[[DESC]], %[[PA]], %[[PB]], %[[PBIAS]], %[[NULL]], %[[PY]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// CHECK: %[[BAD:.+]] = arith.cmpi ne, %[[ST]], %{{.+}} : i32
// CHECK: cf.cond_br %[[BAD]], ^[[EXIT]](%[[ST]] : i32), ^{{bb[0-9]+}}
// CHECK-NOT: mie.gemm
// CHECK-LABEL: func.func @main
// CHECK: call @main_k0(%{{.+}}) : (!llvm.ptr, memref<2x4x16xf32>, memref<2x8x16xf32>, memref<8xf32>, memref<2x4x8xf32>) -> i32
module attributes {gpu.container_module} {
  func.func private @main_k0(%a: memref<2x4x16xf32>, %b: memref<2x8x16xf32>, %bias: memref<8xf32>, %y: memref<2x4x8xf32>) {
    mie.gemm ins(%a, %b : memref<2x4x16xf32>, memref<2x8x16xf32>) bias(%bias : memref<8xf32>) outs(%y : memref<2x4x8xf32>) {trans_b, alpha = 0.5 : f64, epilogue = #mie.epilogue<bias, activation = gelu_tanh>, mie.gpu_library = "cublaslt"}
    return
  }
  func.func @main(%a: memref<2x4x16xf32>, %b: memref<2x8x16xf32>, %bias: memref<8xf32>, %y: memref<2x4x8xf32>) {
    call @main_k0(%a, %b, %bias, %y) : (memref<2x4x16xf32>, memref<2x8x16xf32>, memref<8xf32>, memref<2x4x8xf32>) -> ()
    return
  }
}

// -----

// Tests that a convolution marked for cuDNN becomes a call of gpu->conv2d (offset 48) with a
// constant mie_gpu_conv2d_desc of 20 words (dtype 2 = f16, n c h w, k r s, out_h out_w, strides,
// pads, dilations, groups, activation 1 = relu, bias 0, residual 1), next to a kernel launch in the
// same function; mie_gpu_libraries = 2 (cuDNN).
// CHECK: llvm.mlir.global internal constant @__mie_gpu_conv2d_desc(dense<[2, 1, 8, 16, 16, 16, 3, 3, 8, 8, 2, 2, 1, 1, 1, 1, 2, 1, 0, 1]> : tensor<20xi64>)
// CHECK: llvm.mlir.global external constant @mie_gpu_libraries(2 : i64)
// CHECK-LABEL: func.func private @main_k0
// CHECK: llvm.getelementptr %{{.+}}[48] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.mlir.addressof @__mie_gpu_conv2d_desc
// CHECK: llvm.call %{{.+}}(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// CHECK: cf.cond_br
// CHECK: llvm.getelementptr %{{.+}}[16] : (!llvm.ptr) -> !llvm.ptr, i8
module attributes {gpu.container_module} {
  func.func private @main_k0(%x: memref<1x8x16x16xf16>, %w: memref<16x4x3x3xf16>, %r: memref<1x16x8x8xf16>, %y: memref<1x16x8x8xf16>) {
    mie.conv2d ins(%x, %w : memref<1x8x16x16xf16>, memref<16x4x3x3xf16>) residual(%r : memref<1x16x8x8xf16>) outs(%y : memref<1x16x8x8xf16>) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64, epilogue = #mie.epilogue<residual, activation = relu>, mie.gpu_library = "cudnn"}
    %c1 = arith.constant 1 : index
    gpu.launch_func @mie_gpu::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<1x16x8x8xf16>)
    return
  }
  gpu.binary @mie_gpu [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF">]
}

// -----

// Tests that a library op the library cannot compute is refused (an uneven padding cuDNN lacks).
module attributes {gpu.container_module} {
  func.func private @uneven(%x: memref<1x8x16x16xf32>, %w: memref<16x8x3x3xf32>, %y: memref<1x16x8x8xf32>) {
    // expected-error @below {{mie-gpu-lower-launches: cuDNN cannot compute this op (mie-gpu-library-calls should have kept it a kernel)}}
    mie.conv2d ins(%x, %w : memref<1x8x16x16xf32>, memref<16x8x3x3xf32>) outs(%y : memref<1x16x8x8xf32>) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, mie.gpu_library = "cudnn"}
    return
  }
}
