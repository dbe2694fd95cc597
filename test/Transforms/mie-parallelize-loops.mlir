// RUN: ms-opt %s -split-input-file -mie-parallelize-loops=min-bytes=0 | FileCheck %s
// RUN: ms-opt %s -split-input-file -mie-parallelize-loops | FileCheck %s --check-prefix=SMALL

// Tests that a kernel's top-level scf.parallel moves into a body function that runs iterations
// [begin, end) of its first dimension, called through a dispatch declaration (implemented by code
// generation as one env->parallel_for); the entry and the kernel get the environment as argument 0.
// With the default min-bytes (64 KiB) the same 128-byte loop stays serial: not worth waking threads.
// SMALL-LABEL: func.func private @main_k0_relu
// SMALL-NOT: __dispatch
// SMALL: scf.parallel
// SMALL-NOT: __dispatch
// SMALL: return
// CHECK-LABEL: func.func private @main_k0_relu
// CHECK-SAME: (%[[ENV:[^:]+]]: !llvm.ptr, %[[IN:[^:]+]]: memref<4x8xf32> {llvm.noalias}, %[[OUT:[^:]+]]: memref<4x8xf32> {llvm.noalias})
// CHECK: %[[N:.+]] = arith.constant 4 : index
// CHECK: call @main_k0_relu_p0__dispatch(%[[ENV]], %[[OUT]], %[[IN]], %[[N]])
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func private @main_k0_relu_p0
// CHECK-SAME: (%[[BO:[^:]+]]: memref<4x8xf32> {llvm.noalias}, %[[BI:[^:]+]]: memref<4x8xf32> {llvm.noalias}, %[[BEGIN:[^:]+]]: index, %[[END:[^:]+]]: index)
// CHECK: %[[LB:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[UB:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%[[LB]], %{{.+}}) to (%[[UB]], %{{.+}})
// CHECK: memref.load %[[BI]]
// CHECK: memref.store %{{.+}}, %[[BO]]
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[MENV:[^:]+]]: !llvm.ptr, %[[X:[^:]+]]: memref<4x8xf32>, %[[Y:[^:]+]]: memref<4x8xf32>)
// CHECK: call @main_k0_relu(%[[MENV]], %[[X]], %[[Y]])
// CHECK: func.func private @main_k0_relu_p0__dispatch(!llvm.ptr, memref<4x8xf32>, memref<4x8xf32>, index)
func.func private @main_k0_relu(%in: memref<4x8xf32> {llvm.noalias}, %out: memref<4x8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<4x8xf32>
    %y = arith.maximumf %x, %zero : f32
    memref.store %y, %out[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  return
}
func.func @main(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  call @main_k0_relu(%x, %y) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  return
}


// -----

// Tests that a loop with a single iteration stays serial: the kernel keeps its signature, and only
// the entry gets the environment argument.
// CHECK-LABEL: func.func private @main_k0_scalar
// CHECK-SAME: (%{{[^:]+}}: memref<1xf32>)
// CHECK: scf.parallel
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{[^:]+}}: !llvm.ptr, %[[Y:[^:]+]]: memref<1xf32>)
// CHECK: call @main_k0_scalar(%[[Y]])
// CHECK-NOT: __dispatch
func.func private @main_k0_scalar(%out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %zero, %out[%i] : memref<1xf32>
    scf.reduce
  }
  return
}
func.func @main(%y: memref<1xf32>) {
  call @main_k0_scalar(%y) : (memref<1xf32>) -> ()
  return
}

// -----

// Tests that the address arithmetic of the microkernel lowering is recomputed in the body: a
// buffer packed before the loop reaches it as an !llvm.ptr (a row GEMM's shared rows), and the
// buffer itself is captured, so the loop is still split across threads.
// CHECK-LABEL: func.func private @main_k0_rows
// CHECK: call @main_k0_rows_p0__dispatch
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func private @main_k0_rows_p0
// CHECK-SAME: %[[B:[^:]+]]: memref<64xf32> {llvm.noalias}
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: llvm.inttoptr
// CHECK: scf.parallel
// CHECK: llvm.load
func.func private @main_k0_rows(%buf: memref<64xf32> {llvm.noalias}, %out: memref<4x16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %intptr = memref.extract_aligned_pointer_as_index %buf : memref<64xf32> -> index
  %i64 = arith.index_cast %intptr : index to i64
  %p = llvm.inttoptr %i64 : i64 to !llvm.ptr
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c16) step (%c1, %c1) {
    %x = llvm.load %p : !llvm.ptr -> f32
    memref.store %x, %out[%i, %j] : memref<4x16xf32>
    scf.reduce
  }
  return
}
func.func @main(%b: memref<64xf32>, %y: memref<4x16xf32>) {
  call @main_k0_rows(%b, %y) : (memref<64xf32>, memref<4x16xf32>) -> ()
  return
}

// -----

// Tests that a runtime service (`mie_host_*`, here ImageDecoder's) gets the environment as its first
// operand, its declaration a first parameter, and the kernel calling it the environment from the
// entry, although the kernel has no parallel loop; another external function is left alone.
// CHECK-LABEL: func.func private @main_k0_image_decode
// CHECK-SAME: (%[[KENV:[^:]+]]: !llvm.ptr, %{{[^:]+}}: memref<64xi8>, %{{[^:]+}}: memref<2x2x3xi8>)
// CHECK: call @mie_host_decode_image(%[[KENV]], %{{.+}}) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr) -> ()
// CHECK: call @other(%{{.+}}) : (i64) -> ()
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[MENV:[^:]+]]: !llvm.ptr,
// CHECK: call @main_k0_image_decode(%[[MENV]],
// CHECK: func.func private @mie_host_decode_image(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr)
// CHECK: func.func private @other(i64)
llvm.mlir.global internal constant @name("decode\00")
func.func private @main_k0_image_decode(%in: memref<64xi8>, %out: memref<2x2x3xi8>) {
  %a = memref.extract_aligned_pointer_as_index %in : memref<64xi8> -> index
  %ai = arith.index_cast %a : index to i64
  %p = llvm.inttoptr %ai : i64 to !llvm.ptr
  %b = memref.extract_aligned_pointer_as_index %out : memref<2x2x3xi8> -> index
  %bi = arith.index_cast %b : index to i64
  %q = llvm.inttoptr %bi : i64 to !llvm.ptr
  %n = llvm.mlir.addressof @name : !llvm.ptr
  %size = arith.constant 64 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %rgb = arith.constant 0 : i64
  call @mie_host_decode_image(%p, %size, %q, %two, %two, %three, %rgb, %n) : (!llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr) -> ()
  call @other(%size) : (i64) -> ()
  return
}
func.func @main(%x: memref<64xi8>, %y: memref<2x2x3xi8>) {
  call @main_k0_image_decode(%x, %y) : (memref<64xi8>, memref<2x2x3xi8>) -> ()
  return
}
func.func private @mie_host_decode_image(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr)
func.func private @other(i64)

// -----

// Tests code for symbolic dims: a kernel sees a buffer of run-time dims as a reinterpret_cast of
// its pointer-only argument with the dims passed beside it (mie-outline-kernels). The loop over
// its rows is split by a trip count computed before the dispatch, ceil((ub - lb) / step) never
// negative, and the body rebuilds the view from the captured pointer and dims. The buffers have
// no size here: with the default min-bytes the run decides, dispatching only when its largest
// run-time buffer (rows x 8 x 4 bytes) has 65536 bytes, and calling the body over every iteration
// on this thread otherwise (a one-token decoder step paid a dispatch per kernel).
// CHECK-LABEL: func.func private @main_k0_relu_rows
// CHECK-SAME: (%[[ENV:[^:]+]]: !llvm.ptr, %[[IN:[^:]+]]: memref<1xf32> {llvm.noalias}, %[[OUT:[^:]+]]: memref<1xf32> {llvm.noalias}, %[[ROWS:[^:]+]]: index)
// CHECK: %[[SPAN:.+]] = arith.maxsi %{{.+}}, %{{.+}} : index
// CHECK: %[[UP:.+]] = arith.addi %[[SPAN]], %{{.+}} : index
// CHECK: %[[TRIPS:.+]] = arith.divui %[[UP]], %{{.+}} : index
// CHECK: call @main_k0_relu_rows_p0__dispatch(%[[ENV]], {{.+}}, %[[TRIPS]])
// CHECK-LABEL: func.func private @main_k0_relu_rows_p0
// CHECK: memref.reinterpret_cast
// CHECK: scf.parallel
// SMALL-LABEL: func.func private @main_k0_relu_rows
// SMALL-SAME: %[[ROWS:[^:]+]]: index)
// SMALL: %[[B0:.+]] = arith.muli %{{.+}}, %[[ROWS]] : index
// SMALL: %[[X:.+]] = arith.muli %[[B0]], %{{.+}} : index
// SMALL: %[[B1:.+]] = arith.muli %{{.+}}, %[[ROWS]] : index
// SMALL: %[[Y:.+]] = arith.muli %[[B1]], %{{.+}} : index
// SMALL: %[[MAX:.+]] = arith.maxui %[[X]], %[[Y]] : index
// SMALL: %[[C:.+]] = arith.constant 65536 : index
// SMALL: %[[BIG:.+]] = arith.cmpi uge, %[[MAX]], %[[C]] : index
// SMALL: scf.if %[[BIG]] {
// SMALL-NEXT: call @main_k0_relu_rows_p0__dispatch(%{{.+}}, %[[TRIPS:[^)]+]])
// SMALL-NEXT: } else {
// SMALL-NEXT: %[[ZERO:.+]] = arith.constant 0 : index
// SMALL-NEXT: call @main_k0_relu_rows_p0(%{{.+}}, %[[ZERO]], %[[TRIPS]])
// SMALL-NEXT: }
// SMALL-NOT: scf.parallel
// SMALL-LABEL: func.func private @main_k0_relu_rows_p0(
func.func private @main_k0_relu_rows(%in: memref<1xf32> {llvm.noalias}, %out: memref<1xf32> {llvm.noalias}, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.reinterpret_cast %in to offset: [0], sizes: [%rows, 8], strides: [8, 1] : memref<1xf32> to memref<?x8xf32>
  %y = memref.reinterpret_cast %out to offset: [0], sizes: [%rows, 8], strides: [8, 1] : memref<1xf32> to memref<?x8xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %c8) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<?x8xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %y[%i, %j] : memref<?x8xf32>
    scf.reduce
  }
  return
}
func.func @main(%x: memref<1xf32>, %y: memref<1xf32>, %rows: index) {
  call @main_k0_relu_rows(%x, %y, %rows) : (memref<1xf32>, memref<1xf32>, index) -> ()
  return
}

// -----

// Tests that the loops of a branch the kernel takes at run time (a row product's tile chosen for
// the run's rows, code for symbolic dims) and those in the stages of a `mie.parallel_stages`
// loop (its chunks of shared row panels) are split as its top-level loops are: one body function
// and dispatch each, called where the loop was; the stage loop's induction variable is captured.
// Loops inside another sequential loop or another parallel loop are not split.
// CHECK-LABEL: func.func private @main_k0_branches
// CHECK: scf.if
// CHECK: call @main_k0_branches_p0__dispatch
// CHECK: } else {
// CHECK: call @main_k0_branches_p1__dispatch
// CHECK: scf.for %[[T:.+]] = 
// CHECK: call @main_k0_branches_p2__dispatch(%{{.+}}, %{{.+}}, %[[T]], %{{.+}})
// CHECK: } {mie.parallel_stages}
// CHECK: scf.for
// CHECK: scf.parallel
// CHECK: call @main_k0_branches_p3__dispatch
// CHECK-NOT: __dispatch
// CHECK: return
func.func private @main_k0_branches(%out: memref<64xf32> {llvm.noalias}, %few: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  scf.if %few {
    scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
      memref.store %one, %out[%i] : memref<64xf32>
      scf.reduce
    }
  } else {
    scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
      memref.store %two, %out[%i] : memref<64xf32>
      scf.reduce
    }
  }
  scf.for %t = %c0 to %c2 step %c1 {
    scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
      %at = arith.addi %i, %t : index
      %v = arith.index_cast %at : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %out[%i] : memref<64xf32>
      scf.reduce
    }
  } {mie.parallel_stages}
  scf.for %t = %c0 to %c2 step %c1 {
    scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
      memref.store %one, %out[%i] : memref<64xf32>
      scf.reduce
    }
  }
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
      memref.store %two, %out[%j] : memref<64xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
func.func @main(%y: memref<64xf32>, %few: i1) {
  call @main_k0_branches(%y, %few) : (memref<64xf32>, i1) -> ()
  return
}
