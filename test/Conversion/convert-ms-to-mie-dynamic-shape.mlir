// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Tests that non_zero is one sequential kernel: the indices zero-filled, one row-major scf.for over
// the elements carrying the count, a store of every index of a non-zero element (une: NaN counts)
// into the column of the count so far, then the count into its one-element buffer.

// CHECK-LABEL: func.func @non_zero
// CHECK: %[[IDX:.+]] = mie.alloc : memref<2x12xi64>
// CHECK: %[[CNT:.+]] = mie.alloc : memref<1xi64>
// CHECK: mie.kernel "non_zero" ins(%{{.+}} : memref<3x4xf32>) outs(%[[IDX]], %[[CNT]] : memref<2x12xi64>, memref<1xi64>)
// CHECK: linalg.fill
// CHECK: %[[N:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[FOUND:.+]] = %{{.+}}) -> (index)
// CHECK: arith.cmpf une
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %[[FOUND]]] : memref<2x12xi64>
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %[[FOUND]]] : memref<2x12xi64>
// CHECK: arith.select
// CHECK: %[[N64:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK: memref.store %[[N64]], %{{.+}}[%{{.+}}] : memref<1xi64>
// CHECK: return %[[IDX]], %[[CNT]]
func.func @non_zero(%x: tensor<3x4xf32>) -> (tensor<2x12xi64>, tensor<1xi64>) {
  %0:2 = ms.non_zero %x : (tensor<3x4xf32>) -> (tensor<2x12xi64>, tensor<1xi64>)
  return %0#0, %0#1 : tensor<2x12xi64>, tensor<1xi64>
}

// -----

// Tests that unique is one kernel with its two i64 scratch buffers (the order slots were kept in
// and their sorted positions): the lookup among the kept slices, then with `sorted` the bubble sort
// and the renumbering of the inverse indices.

// CHECK-LABEL: func.func @unique_sorted
// CHECK: mie.alloc : memref<8xf32>
// CHECK-COUNT-3: mie.alloc : memref<8xi64>
// CHECK: mie.alloc : memref<1xi64>
// CHECK: %[[ORD:.+]] = mie.alloc : memref<8xi64>
// CHECK: %[[RNK:.+]] = mie.alloc : memref<8xi64>
// CHECK: mie.kernel "unique" ins(%{{.+}} : memref<8xf32>) outs(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[ORD]], %[[RNK]] : memref<8xf32>, memref<8xi64>, memref<8xi64>, memref<8xi64>, memref<1xi64>, memref<8xi64>, memref<8xi64>)
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ogt
func.func @unique_sorted(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<1xi64>) {
  %0:5 = ms.unique %x {sorted} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xi64>, tensor<8xi64>, tensor<8xi64>, tensor<1xi64>)
  return %0#0, %0#4 : tensor<8xf32>, tensor<1xi64>
}

// -----

// Tests that unsigned elements sort unsigned.

// CHECK-LABEL: func.func @unique_unsigned
// CHECK: arith.cmpi ult
// CHECK: arith.cmpi ugt
func.func @unique_unsigned(%x: tensor<4x2xui8>) -> tensor<4x2xui8> {
  %0:5 = ms.unique %x {axis = 0 : i64, sorted} : (tensor<4x2xui8>) -> (tensor<4x2xui8>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<1xi64>)
  return %0#0 : tensor<4x2xui8>
}

// -----

// Tests that non_max_suppression is one kernel with an i1 scratch of taken boxes, the per-class
// maximum clamped into [0, max_per_class], candidates above the score threshold (ule marks the
// others taken), and the IoU test against the threshold.

// CHECK-LABEL: func.func @nms
// CHECK: %[[TAKEN:.+]] = mie.alloc : memref<6xi1>
// CHECK: mie.kernel "non_max_suppression" ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : memref<1x6x4xf32>, memref<1x2x6xf32>, memref<1xi64>, memref<1xf32>, memref<1xf32>) outs(%{{.+}}, %{{.+}}, %[[TAKEN]] : memref<12x3xi64>, memref<1xi64>, memref<6xi1>)
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: arith.cmpf ule
// CHECK: arith.divf
func.func @nms(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) -> (tensor<12x3xi64>, tensor<1xi64>) {
  %0:2 = ms.non_max_suppression %b, %s, %m, %t, %t {max_per_class = 6 : i64} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> (tensor<12x3xi64>, tensor<1xi64>)
  return %0#0, %0#1 : tensor<12x3xi64>, tensor<1xi64>
}
