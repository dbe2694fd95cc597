// RUN: ms-opt %s -split-input-file -mie-outline-kernels | FileCheck %s

// Tests that a kernel becomes a private function @<function>_k<N>_<name> taking its ins then outs,
// with the kernel body moved in (mie.yield becoming return), and a call in its place. The function
// records the body's float arithmetic per run (4 elements x 1 maximumf).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32>, %[[Y:[^:]+]]: memref<4xf32>)
// CHECK-NEXT: call @main_k0_relu(%[[X]], %[[Y]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: return
// CHECK-NOT: mie.kernel
// CHECK-LABEL: func.func private @main_k0_relu
// CHECK-SAME: (%[[IN:[^:]+]]: memref<4xf32> {llvm.noalias}, %[[OUT:[^:]+]]: memref<4xf32> {llvm.noalias}) attributes {mie.flops = 4 : i64} {
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic {{.+}} ins(%[[IN]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK: arith.maximumf %{{.+}}, %[[ZERO]]
// CHECK: return{{$}}
// CHECK-NOT: mie.yield
func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) {
  mie.kernel "relu" ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: memref<4xf32>, %out: memref<4xf32>):
    %zero = arith.constant 0.0 : f32
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                    iterator_types = ["parallel"]}
        ins(%in : memref<4xf32>) outs(%out : memref<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %zero : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  return
}

// -----

// Tests numbering within each function (from 0 in each), kernel names made symbol-safe, kernels
// reading planned views, a kernel without inputs, and a name clash resolved by the symbol table.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32>, %[[Y:[^:]+]]: memref<4xf32>, %[[ARENA:[^:]+]]: memref<16xi8>)
// CHECK: %[[T:.+]] = mie.view %[[ARENA]][0] : memref<16xi8> to memref<4xf32>
// CHECK-NEXT: call @[[K0:main_k0_max_pool_[0-9]+]](%[[X]], %[[T]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: call @main_k1_a_b_c(%[[T]], %[[Y]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: return
// CHECK-DAG: func.func private @main_k0_max_pool(){{$}}
// CHECK-DAG: func.func private @[[K0]](%{{[^:]+}}: memref<4xf32> {llvm.noalias}, %{{[^:]+}}: memref<4xf32> {llvm.noalias})
// CHECK-DAG: func.func private @main_k1_a_b_c(%{{[^:]+}}: memref<4xf32> {llvm.noalias}, %{{[^:]+}}: memref<4xf32> {llvm.noalias})
// CHECK-LABEL: func.func @other
// CHECK-SAME: (%[[Z:[^:]+]]: memref<4xf32>)
// CHECK-NEXT: call @other_k0_fill(%[[Z]]) : (memref<4xf32>) -> ()
// CHECK: func.func private @other_k0_fill(%{{[^:]+}}: memref<4xf32> {llvm.noalias})
// CHECK-NEXT: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: linalg.fill
// CHECK-NOT: mie.kernel
func.func @main(%x: memref<4xf32>, %y: memref<4xf32>, %arena: memref<16xi8>) {
  %t = mie.view %arena[0] : memref<16xi8> to memref<4xf32>
  mie.kernel "max_pool" ins(%x : memref<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    linalg.copy ins(%i : memref<4xf32>) outs(%o : memref<4xf32>)
    mie.yield
  }
  mie.kernel "a.b-c" ins(%t : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    linalg.copy ins(%i : memref<4xf32>) outs(%o : memref<4xf32>)
    mie.yield
  }
  return
}

func.func private @main_k0_max_pool()

func.func @other(%z: memref<4xf32>) {
  mie.kernel "fill" outs(%z : memref<4xf32>) {
  ^bb0(%o: memref<4xf32>):
    %c = arith.constant 1.0 : f32
    linalg.fill ins(%c : f32) outs(%o : memref<4xf32>)
    mie.yield
  }
  return
}

// -----

// Tests empty buffers: the outlined kernel gets a local empty buffer instead of an argument (a zero
// in an inner dim has no bare-pointer form), and the entry's then unused empty argument becomes the
// 1-D empty type, keeping one pointer per graph tensor.

// CHECK-LABEL: func.func @empty
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32>, %[[E:[^:]+]]: memref<0xf32>, %[[Y:[^:]+]]: memref<4xf32>)
// CHECK-NEXT: call @empty_k0_concat(%[[X]], %[[Y]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-LABEL: func.func private @empty_k0_concat
// CHECK-SAME: (%[[IN:[^:]+]]: memref<4xf32> {llvm.noalias}, %[[OUT:[^:]+]]: memref<4xf32> {llvm.noalias})
// CHECK-NEXT: memref.alloca() : memref<3x0x5xf32>
// CHECK: linalg.copy ins(%[[IN]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
func.func @empty(%x: memref<4xf32>, %e: memref<3x0x5xf32>, %y: memref<4xf32>) {
  mie.kernel "concat" ins(%x, %e : memref<4xf32>, memref<3x0x5xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: memref<4xf32>, %empty: memref<3x0x5xf32>, %out: memref<4xf32>):
    linalg.copy ins(%in : memref<4xf32>) outs(%out : memref<4xf32>)
    mie.yield
  }
  return
}

// -----

// Tests the arithmetic the function records: a count the library lowering put on the kernel is kept
// (its loops no longer show it), as is the reason of a portable product (mie.portable); otherwise linalg ops count trip count x float ops per iteration
// (matmul 2x3x4: 24 x (mulf + addf)), and ops without float arithmetic (copies) count nothing.

// CHECK-DAG: func.func private @main_k0_conv2d({{.+}}) attributes {mie.flops = 123 : i64, mie.portable = "convolution: a test's reason"}
// CHECK-DAG: func.func private @main_k1_matmul({{.+}}) attributes {mie.flops = 48 : i64}
// CHECK-DAG: func.func private @main_k2_copy({{.+}}) attributes {mie.flops = 0 : i64}
func.func @main(%a: memref<2x4xf32>, %b: memref<4x3xf32>, %c: memref<2x3xf32>, %d: memref<2x3xf32>) {
  mie.kernel "conv2d" outs(%d : memref<2x3xf32>) attributes {mie.flops = 123 : i64, mie.portable = "convolution: a test's reason"} {
  ^bb0(%o: memref<2x3xf32>):
    mie.yield
  }
  mie.kernel "matmul" ins(%a, %b : memref<2x4xf32>, memref<4x3xf32>) outs(%c : memref<2x3xf32>) {
  ^bb0(%x: memref<2x4xf32>, %y: memref<4x3xf32>, %z: memref<2x3xf32>):
    linalg.matmul ins(%x, %y : memref<2x4xf32>, memref<4x3xf32>) outs(%z : memref<2x3xf32>)
    mie.yield
  }
  mie.kernel "copy" ins(%c : memref<2x3xf32>) outs(%d : memref<2x3xf32>) {
  ^bb0(%x: memref<2x3xf32>, %y: memref<2x3xf32>):
    linalg.copy ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
    mie.yield
  }
  return
}

// -----

// Tests that buffers sharing bytes are not noalias: the output written in place over the input
// (the same arena offset, mie-plan-memory's in-place reuse) keeps neither attribute, while the
// scale, at bytes of its own, keeps it.
// CHECK-LABEL: func.func @in_place
// CHECK: func.func private @in_place_k0_scale(%{{[^:]+}}: memref<4xf32> {llvm.noalias}, %{{[^:]+}}: memref<4xf32>, %{{[^:]+}}: memref<4xf32>)
func.func @in_place(%arena: memref<64xi8>) {
  %s = mie.view %arena[32] : memref<64xi8> to memref<4xf32>
  %a = mie.view %arena[0] : memref<64xi8> to memref<4xf32>
  %b = mie.view %arena[0] : memref<64xi8> to memref<4xf32>
  mie.kernel "scale" ins(%s, %a : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%v: memref<4xf32>, %i: memref<4xf32>, %o: memref<4xf32>):
    linalg.mul ins(%v, %i : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
    mie.yield
  }
  return
}

// -----

// Tests a kernel on buffers of dynamic shape (code for every shape of symbolic dims): each is
// passed as a pointer-only memref<1xT> (its flattened buffer cast) plus its dynamic dims, taken from
// the view or expand that made it, and the kernel sees it again with those dims.

// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[X:[^:]+]]: memref<?x32xf32>, %[[Y:[^:]+]]: memref<?xf32>, %[[A:[^:]+]]: index, %[[B:[^:]+]]: index)
// CHECK: %[[E:.+]] = memref.expand_shape %[[X]] {{\[}}[0, 1], [2]] output_shape [%[[A]], %[[B]], 32]
// CHECK: %[[EF:.+]] = memref.collapse_shape %[[E]]
// CHECK: %[[EP:.+]] = memref.reinterpret_cast %[[EF]] to offset: [0], sizes: [1], strides: [1] : memref<?xf32> to memref<1xf32>
// CHECK: %[[YP:.+]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [1], strides: [1] : memref<?xf32> to memref<1xf32>
// CHECK: %[[N:.+]] = memref.dim %[[Y]]
// CHECK: call @dynamic_k0_sum(%[[EP]], %[[YP]], %[[A]], %[[B]], %[[N]]) : (memref<1xf32>, memref<1xf32>, index, index, index) -> ()
// CHECK-LABEL: func.func private @dynamic_k0_sum
// CHECK-SAME: (%[[P:[^:]+]]: memref<1xf32>, %[[Q:[^:]+]]: memref<1xf32>, %[[D0:[^:]+]]: index, %[[D1:[^:]+]]: index, %[[D2:[^:]+]]: index)
// CHECK: memref.reinterpret_cast %[[P]] to offset: [0], sizes: [%[[D0]], %[[D1]], 32], strides: [%{{.+}}, 32, 1] : memref<1xf32> to memref<?x?x32xf32>
// CHECK: memref.reinterpret_cast %[[Q]] to offset: [0], sizes: [%[[D2]]], strides: [1] : memref<1xf32> to memref<?xf32>
func.func @dynamic(%x: memref<?x32xf32>, %y: memref<?xf32>, %a: index, %b: index) {
  %e = memref.expand_shape %x [[0, 1], [2]] output_shape [%a, %b, 32] : memref<?x32xf32> into memref<?x?x32xf32>
  mie.kernel "sum" ins(%e : memref<?x?x32xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%i: memref<?x?x32xf32>, %o: memref<?xf32>):
    mie.yield
  }
  return
}
