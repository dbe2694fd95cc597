// RUN: ms-opt %s -split-input-file -mie-gpu-map-loops -verify-diagnostics | FileCheck %s
// RUN: ms-opt %s -split-input-file -mie-gpu-map-loops=block-size=64 -verify-diagnostics | FileCheck %s --check-prefix=SMALL

// Tests that a kernel's top-level scf.parallel becomes one launch of 1-D blocks over the flattened
// iteration space (4 x 40 = 160: one block of 160 threads, as the loop is smaller than a block of
// 256), a grid-stride loop in each thread, the innermost index the remainder (neighbouring threads,
// neighbouring columns); constants are cloned into the launch, which captures only the buffers.
// The entry's kernel call stays on the host.
// CHECK-LABEL: func.func private @main_k0_relu
// CHECK-SAME: (%[[IN:[^:]+]]: memref<4x40xf32> {llvm.noalias}, %[[OUT:[^:]+]]: memref<4x40xf32> {llvm.noalias})
// CHECK-DAG: %[[N:.+]] = arith.constant 160 : index
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%[[BX:[^,]+]], %{{.+}}, %{{.+}}) in (%[[GX:[^ ]+]] = %[[ONE]], {{.+}}) threads(%[[TX:[^,]+]], %{{.+}}, %{{.+}}) in (%[[SX:[^ ]+]] = %[[N]],
// CHECK-DAG: %[[C40:.+]] = arith.constant 40 : index
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[TOTAL:.+]] = arith.constant 160 : index
// CHECK: %[[B:.+]] = arith.muli %[[BX]], %[[SX]] : index
// CHECK: %[[FIRST:.+]] = arith.addi %[[B]], %[[TX]] : index
// CHECK: %[[STRIDE:.+]] = arith.muli %[[GX]], %[[SX]] : index
// CHECK: scf.for %[[F:.+]] = %[[FIRST]] to %[[TOTAL]] step %[[STRIDE]] {
// CHECK: %[[J:.+]] = arith.remui %[[F]], %[[C40]] : index
// CHECK: %[[I:.+]] = arith.divui %[[F]], %[[C40]] : index
// CHECK: %[[X:.+]] = memref.load %[[IN]][%[[I]], %[[J]]]
// CHECK: %[[Y:.+]] = arith.maximumf %[[X]], %[[ZERO]]
// CHECK: memref.store %[[Y]], %[[OUT]][%[[I]], %[[J]]]
// CHECK: gpu.terminator
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func @main
// CHECK-NEXT: call @main_k0_relu
// CHECK-NEXT: return
// With 64-thread blocks the 160 iterations take 3 blocks.
// SMALL-LABEL: func.func private @main_k0_relu
// SMALL-DAG: %[[THREE:.+]] = arith.constant 3 : index
// SMALL-DAG: %[[T:.+]] = arith.constant 64 : index
// SMALL: gpu.launch blocks({{.+}}) in (%{{.+}} = %[[THREE]], {{.+}}) threads({{.+}}) in (%{{.+}} = %[[T]],
func.func private @main_k0_relu(%in: memref<4x40xf32> {llvm.noalias}, %out: memref<4x40xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c40 = arith.constant 40 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c40) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<4x40xf32>
    %y = arith.maximumf %x, %zero : f32
    memref.store %y, %out[%i, %j] : memref<4x40xf32>
    scf.reduce
  }
  return
}
func.func @main(%x: memref<4x40xf32>, %y: memref<4x40xf32>) {
  call @main_k0_relu(%x, %y) : (memref<4x40xf32>, memref<4x40xf32>) -> ()
  return
}

// -----

// Tests that a memref.copy becomes a parallel loop of loads and stores, then a launch (a 10-element
// loop gets one warp), and that a strided buffer (the interior of a padded one) travels as its base
// buffer, the launch rebuilding the view from the static offset and strides.
// CHECK-LABEL: func.func private @main_k0_copy
// CHECK-SAME: (%[[SRC:[^:]+]]: memref<10xf32>, %[[DST:[^:]+]]: memref<10xf32, strided<[1], offset: 3>>)
// CHECK: %[[BASE:[^,]+]], %{{.+}} = memref.extract_strided_metadata %[[DST]]
// CHECK: gpu.launch
// CHECK: %[[VIEW:.+]] = memref.reinterpret_cast %[[BASE]] to offset: [3], sizes: [10], strides: [1] : memref<f32> to memref<10xf32, strided<[1], offset: 3>>
// CHECK: scf.for
// CHECK: %[[V:.+]] = memref.load %[[SRC]]
// CHECK: memref.store %[[V]], %[[VIEW]]
// CHECK-NOT: memref.copy
// SMALL-LABEL: func.func private @main_k0_copy
// SMALL-DAG: %[[W:.+]] = arith.constant 32 : index
// SMALL: gpu.launch blocks({{.+}}) threads({{.+}}) in (%{{.+}} = %[[W]],
func.func private @main_k0_copy(%src: memref<10xf32>, %dst: memref<10xf32, strided<[1], offset: 3>>) {
  memref.copy %src, %dst : memref<10xf32> to memref<10xf32, strided<[1], offset: 3>>
  return
}

// -----

// Tests that a kernel with a sequential loop around parallel ones (a recurrence) runs as one
// single-thread launch holding all of it, stack scratch included.
// CHECK-LABEL: func.func private @main_k0_scan
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: gpu.launch blocks({{.+}}) in (%{{.+}} = %[[ONE]], %{{.+}} = %[[ONE]], %{{.+}} = %[[ONE]]) threads({{.+}}) in (%{{.+}} = %[[ONE]], %{{.+}} = %[[ONE]], %{{.+}} = %[[ONE]])
// CHECK: memref.alloca
// CHECK: scf.for
// CHECK: scf.parallel
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func private @main_k0_scan(%h: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %tmp = memref.alloca() : memref<8xf32>
  scf.for %t = %c0 to %c8 step %c1 {
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %x = memref.load %h[%i] : memref<8xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %tmp[%i] : memref<8xf32>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %x = memref.load %tmp[%i] : memref<8xf32>
      memref.store %x, %h[%i] : memref<8xf32>
      scf.reduce
    }
  }
  return
}

// -----

// Tests that an entry cannot run memory effects of its own next to its kernel launches.
func.func private @main_k0(%x: memref<4xf32>)
func.func @main(%x: memref<4xf32>, %i: index) {
  // expected-error @+1 {{mie-gpu-map-loops: cannot run this op on the GPU next to kernel launches in 'main'}}
  %v = memref.load %x[%i] : memref<4xf32>
  memref.store %v, %x[%i] : memref<4xf32>
  call @main_k0(%x) : (memref<4xf32>) -> ()
  return
}

// -----

// Tests that stack scratch shared by two parallel loops (written by one, read by the next) keeps
// the kernel serial: cloned into two launches it would be two buffers.
// CHECK-LABEL: func.func private @main_k0_shared_scratch
// CHECK: gpu.launch
// CHECK: memref.alloca
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func private @main_k0_shared_scratch(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %tmp = memref.alloca() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %tmp[%i] : memref<8xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %tmp[%i] : memref<8xf32>
    memref.store %v, %x[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

// Tests that a library call (a GEMM for cuBLASLt) stays on the host next to the launch of the
// loop after it (the rest of its epilogue), which is mapped as usual.
// CHECK-LABEL: func.func private @library_then_loop
// CHECK: mie.gemm
// CHECK-SAME: mie.gpu_library = "cublaslt"
// CHECK: gpu.launch
// CHECK: math.tanh
// CHECK: gpu.terminator
// CHECK: return
module {
  func.func private @library_then_loop(%a: memref<8x32xf32>, %b: memref<32x16xf32>, %y: memref<8x16xf32>) {
    mie.gemm ins(%a, %b : memref<8x32xf32>, memref<32x16xf32>) outs(%y : memref<8x16xf32>) {mie.gpu_library = "cublaslt"}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c16) step (%c1, %c1) {
      %v = memref.load %y[%i, %j] : memref<8x16xf32>
      %t = math.tanh %v : f32
      memref.store %t, %y[%i, %j] : memref<8x16xf32>
      scf.reduce
    }
    return
  }
}
