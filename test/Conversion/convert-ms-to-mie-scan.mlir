// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Tests that arg_max is one reduction generic over [kept dims, axis] carrying the best value in an
// f32 scratch buffer (filled with -inf) next to the int64 index (filled with 0): the first position
// wins ties (ogt), a first NaN wins (uno on the candidate and ord on the best so far).

// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, 0, d1)>
// CHECK-LABEL: func.func @arg_max
// CHECK: %[[IDX:.+]] = mie.alloc : memref<2x1x4xi64>
// CHECK: %[[BEST:.+]] = mie.alloc : memref<2x1x4xf32>
// CHECK: mie.kernel "arg_max" ins(%{{.+}} : memref<2x8x4xf32>) outs(%[[IDX]], %[[BEST]] : memref<2x1x4xi64>, memref<2x1x4xf32>)
// CHECK: linalg.fill ins(%{{.+}} : f32)
// CHECK: linalg.fill ins(%{{.+}} : i64)
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: ^bb0(%[[V:.+]]: f32, %[[B:.+]]: f32, %[[I:.+]]: i64):
// CHECK: %[[GT:.+]] = arith.cmpf ogt, %[[V]], %[[B]] : f32
// CHECK: %[[VNAN:.+]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// CHECK: %[[BNUM:.+]] = arith.cmpf ord, %[[B]], %[[B]] : f32
// CHECK: %[[FIRSTNAN:.+]] = arith.andi %[[VNAN]], %[[BNUM]] : i1
// CHECK: %[[TAKE:.+]] = arith.ori %[[GT]], %[[FIRSTNAN]] : i1
// CHECK: %[[POS:.+]] = linalg.index 2 : index
// CHECK: %[[POS64:.+]] = arith.index_cast %[[POS]] : index to i64
// CHECK: %[[NB:.+]] = arith.select %[[TAKE]], %[[V]], %[[B]] : f32
// CHECK: %[[NI:.+]] = arith.select %[[TAKE]], %[[POS64]], %[[I]] : i64
// CHECK: linalg.yield %[[NB]], %[[NI]] : f32, i64
// CHECK: return %[[IDX]]
func.func @arg_max(%x: tensor<2x8x4xf32>) -> tensor<2x1x4xi64> {
  %0 = ms.arg_max %x {axis = 1 : i64, keep_dims} : (tensor<2x8x4xf32>) -> tensor<2x1x4xi64>
  return %0 : tensor<2x1x4xi64>
}

// -----

// Tests that arg_min with select_last_index takes ties (sle) and integers compare signed, with the
// best value starting at the largest i32.

// CHECK-LABEL: func.func @arg_min_last
// CHECK: mie.kernel "arg_min" ins(%{{.+}} : memref<3x5xi32>) outs(%{{.+}}, %{{.+}} : memref<3xi64>, memref<3xi32>)
// CHECK: arith.constant 2147483647 : i32
// CHECK: linalg.generic
// CHECK: arith.cmpi sle
// CHECK-NOT: arith.cmpf
// CHECK: linalg.yield
func.func @arg_min_last(%x: tensor<3x5xi32>) -> tensor<3xi64> {
  %0 = ms.arg_min %x {axis = -1 : i64, select_last_index} : (tensor<3x5xi32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// Tests that reduce_prod multiplies into a buffer filled with 1, and that f16 accumulates in f32.

// CHECK-LABEL: func.func @reduce_prod
// CHECK: mie.kernel "reduce_prod" ins(%{{.+}} : memref<2x3xf16>) outs(%{{.+}}, %{{.+}} : memref<2xf16>, memref<2xf32>)
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ONE]] : f32)
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: arith.truncf
func.func @reduce_prod(%x: tensor<2x3xf16>) -> tensor<2xf16> {
  %0 = ms.reduce_prod %x {axes = array<i64: 1>} : (tensor<2x3xf16>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

// Tests that top_k is an scf.parallel over the lines off the axis, each an in-order insertion: the
// slot of element i counts the kept elements it does not beat (ties keep input order), the ones
// behind move down and the element and its index are stored at the slot when it is below k.

// CHECK-LABEL: func.func @top_k
// CHECK: mie.kernel "top_k" ins(%[[X:[^ ]+]] : memref<2x8xf32>) outs(%{{.+}}, %{{.+}} : memref<2x3xf32>, memref<2x3xi64>)
// CHECK: ^bb0(%{{.+}}: memref<2x8xf32>, %[[VALS:.+]]: memref<2x3xf32>, %[[IDXS:.+]]: memref<2x3xi64>):
// CHECK: scf.parallel (%[[LINE:.+]]) =
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[V:.+]] = memref.load %{{.+}}[%[[LINE]], %[[I]]] : memref<2x8xf32>
// CHECK: %[[SLOT:.+]] = scf.for {{.+}} iter_args({{.+}}) -> (index)
// CHECK: arith.cmpf ogt
// CHECK: scf.yield
// CHECK: %[[FITS:.+]] = arith.cmpi slt, %[[SLOT]], %{{.+}} : index
// CHECK: scf.if %[[FITS]]
// CHECK: scf.for
// CHECK: memref.store %{{.+}}, %[[VALS]]
// CHECK: memref.store %{{.+}}, %[[IDXS]]
// CHECK: memref.store %[[V]], %[[VALS]][%[[LINE]], %[[SLOT]]]
// CHECK: %[[I64:.+]] = arith.index_cast %[[I]] : index to i64
// CHECK: memref.store %[[I64]], %[[IDXS]][%[[LINE]], %[[SLOT]]]
// CHECK: scf.reduce
func.func @top_k(%x: tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>) {
  %0:2 = ms.top_k %x {k = 3 : i64} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi64>
}

// -----

// Tests that the smallest-first top_k of integers compares with slt.

// CHECK-LABEL: func.func @top_k_smallest
// CHECK: mie.kernel "top_k"
// CHECK: arith.cmpi slt, %{{.+}}, %{{.+}} : i32
func.func @top_k_smallest(%x: tensor<6xi32>) -> (tensor<2xi32>, tensor<2xi64>) {
  %0:2 = ms.top_k %x {k = 2 : i64, smallest} : (tensor<6xi32>) -> (tensor<2xi32>, tensor<2xi64>)
  return %0#0, %0#1 : tensor<2xi32>, tensor<2xi64>
}

// -----

// Tests that a constant cumsum axis gives constant [outer, n, inner] sizes (the axis buffer is not
// a kernel input) and that reverse walks the axis from its end.

// CHECK-LABEL: func.func @cumsum_constant_axis
// CHECK: mie.kernel "cumsum" ins(%{{.+}} : memref<2x3xf32>) outs(%{{.+}} : memref<2x3xf32>)
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[XF:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1]] : memref<2x3xf32> into memref<6xf32>
// CHECK: %[[YF:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1]] : memref<2x3xf32> into memref<6xf32>
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}, %{{.+}}) to (%[[C2]], %[[C1]])
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %[[C3]] step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32)
// CHECK: %[[LAST:.+]] = arith.subi %[[C3]], %{{.+}} : index
// CHECK: arith.subi %[[LAST]], %[[J]] : index
// CHECK: %[[V:.+]] = memref.load %[[XF]]
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK: memref.store %[[SUM]], %[[YF]]
// CHECK: scf.yield %[[SUM]] : f32
func.func @cumsum_constant_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = ms.constant dense<-1> : tensor<i64>
  %0 = ms.cumsum %x, %a {reverse} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests that a runtime cumsum axis is a kernel input, read, wrapped and clamped into [0, rank), and
// that exclusive stores the sum before adding the element.

// CHECK-LABEL: func.func @cumsum_runtime_axis
// CHECK-SAME: (%[[X:.+]]: memref<2x3xi32>, %[[A:.+]]: memref<1xi32>)
// CHECK: mie.kernel "cumsum" ins(%[[X]], %[[A]] : memref<2x3xi32>, memref<1xi32>)
// CHECK: ^bb0(%{{.+}}: memref<2x3xi32>, %[[AA:.+]]: memref<1xi32>, %{{.+}}: memref<2x3xi32>):
// CHECK: %[[RAW:.+]] = memref.load %[[AA]]
// CHECK: arith.index_cast %[[RAW]] : i32 to index
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: scf.parallel
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (i32)
// CHECK: %[[V:.+]] = memref.load
// CHECK: %[[SUM:.+]] = arith.addi %[[ACC]], %[[V]] : i32
// CHECK: memref.store %[[ACC]]
// CHECK: scf.yield %[[SUM]] : i32
func.func @cumsum_runtime_axis(%x: tensor<2x3xi32>, %a: tensor<1xi32>) -> tensor<2x3xi32> {
  %0 = ms.cumsum %x, %a {exclusive} : (tensor<2x3xi32>, tensor<1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
