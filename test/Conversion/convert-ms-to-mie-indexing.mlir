// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Tests that gather_elements is one parallel generic over the output reading the indices through
// the identity map; the index is wrapped (negative + axis size) and clamped into [0, size - 1]
// before it replaces the axis coordinate of the data position.

// CHECK-LABEL: func.func @gather_elements
// CHECK: mie.kernel "gather_elements" ins(%{{.+}}, %{{.+}} : memref<3x4xf32>, memref<3x2xi64>) outs(%{{.+}} : memref<3x2xf32>)
// CHECK: ^bb0(%[[D:.+]]: memref<3x4xf32>, %{{.+}}: memref<3x2xi64>, %{{.+}}: memref<3x2xf32>):
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel"]
// CHECK: ^bb0(%[[IN:.+]]: i64, %{{.+}}: f32):
// CHECK: %[[ROW:.+]] = linalg.index 0 : index
// CHECK: %[[I:.+]] = arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[I]], %[[ZERO:.+]] : index
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[W:.+]] = arith.addi %[[I]], %[[C4]] : index
// CHECK: %[[SEL:.+]] = arith.select %[[NEG]], %[[W]], %[[I]] : index
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: %[[HI:.+]] = arith.minsi %[[SEL]], %[[C3]] : index
// CHECK: %[[LO:.+]] = arith.maxsi %[[HI]], %[[ZERO]] : index
// CHECK: %[[E:.+]] = memref.load %[[D]][%[[ROW]], %[[LO]]] : memref<3x4xf32>
// CHECK: linalg.yield %[[E]] : f32
func.func @gather_elements(%d: tensor<3x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %0 = ms.gather_elements %d, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Tests that gather_nd with a batch dim reads the tuple entry at [batch, q, 0] and then the data at
// [batch, tuple, s].

// CHECK-LABEL: func.func @gather_nd
// CHECK: mie.kernel "gather_nd"
// CHECK: ^bb0(%[[D:.+]]: memref<2x3x4xf32>, %[[IX:.+]]: memref<2x5x1xi64>, %{{.+}}: memref<2x5x4xf32>):
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: %[[B:.+]] = linalg.index 0 : index
// CHECK: %[[Q:.+]] = linalg.index 1 : index
// CHECK: %[[S:.+]] = linalg.index 2 : index
// CHECK: %[[T:.+]] = memref.load %[[IX]][%[[B]], %[[Q]], %{{.+}}] : memref<2x5x1xi64>
// CHECK: arith.index_cast %[[T]]
// CHECK: %[[P:.+]] = arith.maxsi
// CHECK: memref.load %[[D]][%[[B]], %[[P]], %[[S]]] : memref<2x3x4xf32>
func.func @gather_nd(%d: tensor<2x3x4xf32>, %i: tensor<2x5x1xi64>) -> tensor<2x5x4xf32> {
  %0 = ms.gather_nd %d, %i {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x1xi64>) -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// -----

// Tests that scatter_elements copies the data, then applies the updates in sequential scf.for loops
// (never scf.parallel: duplicate indices must accumulate in order), adding to the element there.

// CHECK-LABEL: func.func @scatter_elements_add
// CHECK: mie.kernel "scatter_elements"
// CHECK: ^bb0(%[[D:.+]]: memref<3x4xf32>, %[[IX:.+]]: memref<3x2xi64>, %[[U:.+]]: memref<3x2xf32>, %[[O:.+]]: memref<3x4xf32>):
// CHECK: linalg.copy ins(%[[D]] : memref<3x4xf32>) outs(%[[O]] : memref<3x4xf32>)
// CHECK-NOT: scf.parallel
// CHECK: scf.for %[[R:.+]] =
// CHECK: scf.for %[[C:.+]] =
// CHECK: memref.load %[[IX]][%[[R]], %[[C]]]
// CHECK: %[[P:.+]] = arith.maxsi
// CHECK: %[[UPD:.+]] = memref.load %[[U]][%[[R]], %[[C]]]
// CHECK: %[[OLD:.+]] = memref.load %[[O]][%[[R]], %[[P]]]
// CHECK: %[[NEW:.+]] = arith.addf %[[OLD]], %[[UPD]] : f32
// CHECK: memref.store %[[NEW]], %[[O]][%[[R]], %[[P]]]
// CHECK-NOT: scf.parallel
// CHECK: mie.yield
func.func @scatter_elements_add(%d: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %0 = ms.scatter_elements %d, %i, %u {axis = 1 : i64, reduction = #ms<scatter_reduction add>} : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Tests the other reductions of scatter_elements on integers (mul, max, min: muli, maxsi, minsi)
// and that without a reduction the update is stored as is.

// CHECK-LABEL: func.func @scatter_elements_reductions
// CHECK: mie.kernel "scatter_elements"
// CHECK: arith.muli
// CHECK: mie.kernel "scatter_elements"
// CHECK: %[[OLD:.+]] = memref.load %{{.+}} : memref<4xi32>
// CHECK-NEXT: arith.maxsi %[[OLD]], %{{.+}} : i32
// CHECK: mie.kernel "scatter_elements"
// CHECK: %[[OLD2:.+]] = memref.load %{{.+}} : memref<4xi32>
// CHECK-NEXT: arith.minsi %[[OLD2]], %{{.+}} : i32
// CHECK: mie.kernel "scatter_elements"
// CHECK: arith.maxsi %{{.+}}, %{{.+}} : index
// CHECK: %[[UPD:.+]] = memref.load %{{.+}} : memref<2xi32>
// CHECK-NEXT: memref.store %[[UPD]], %{{.+}} : memref<4xi32>
func.func @scatter_elements_reductions(%d: tensor<4xi32>, %i: tensor<2xi32>, %u: tensor<2xi32>)
    -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = ms.scatter_elements %d, %i, %u {reduction = #ms<scatter_reduction mul>} : (tensor<4xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  %1 = ms.scatter_elements %d, %i, %u {reduction = #ms<scatter_reduction max>} : (tensor<4xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  %2 = ms.scatter_elements %d, %i, %u {reduction = #ms<scatter_reduction min>} : (tensor<4xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  %3 = ms.scatter_elements %d, %i, %u : (tensor<4xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Tests that scatter_nd loops sequentially over the index tuples, reads each tuple's entries, and
// loops (sequentially too) over the addressed slice, storing updates[q, s] at out[tuple, s].

// CHECK-LABEL: func.func @scatter_nd
// CHECK: mie.kernel "scatter_nd"
// CHECK: ^bb0(%[[D:.+]]: memref<4x6xi32>, %[[IX:.+]]: memref<2x1xi64>, %[[U:.+]]: memref<2x6xi32>, %[[O:.+]]: memref<4x6xi32>):
// CHECK: linalg.copy ins(%[[D]] : memref<4x6xi32>) outs(%[[O]] : memref<4x6xi32>)
// CHECK-NOT: scf.parallel
// CHECK: scf.for %[[Q:.+]] =
// CHECK: memref.load %[[IX]][%[[Q]], %{{.+}}] : memref<2x1xi64>
// CHECK: %[[ROW:.+]] = arith.maxsi
// CHECK: scf.for %[[S:.+]] =
// CHECK: %[[UPD:.+]] = memref.load %[[U]][%[[Q]], %[[S]]]
// CHECK: memref.store %[[UPD]], %[[O]][%[[ROW]], %[[S]]]
// CHECK-NOT: scf.parallel
// CHECK: mie.yield
func.func @scatter_nd(%d: tensor<4x6xi32>, %i: tensor<2x1xi64>, %u: tensor<2x6xi32>) -> tensor<4x6xi32> {
  %0 = ms.scatter_nd %d, %i, %u : (tensor<4x6xi32>, tensor<2x1xi64>, tensor<2x6xi32>) -> tensor<4x6xi32>
  return %0 : tensor<4x6xi32>
}

// -----

// Tests that scatter_nd's float reductions combine with mulf.

// CHECK-LABEL: func.func @scatter_nd_mul
// CHECK: mie.kernel "scatter_nd"
// CHECK: arith.mulf
func.func @scatter_nd_mul(%d: tensor<4x4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4x4xf32>) -> tensor<4x4x4xf32> {
  %0 = ms.scatter_nd %d, %i, %u {reduction = #ms<scatter_reduction mul>} : (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>) -> tensor<4x4x4xf32>
  return %0 : tensor<4x4x4xf32>
}

// -----

// Tests that booleans combine logically: add and max are or, mul and min are and.

// CHECK-LABEL: func.func @scatter_nd_bool
// CHECK: mie.kernel "scatter_nd"
// CHECK: arith.ori %{{.+}}, %{{.+}} : i1
// CHECK: mie.kernel "scatter_nd"
// CHECK: arith.andi %{{.+}}, %{{.+}} : i1
func.func @scatter_nd_bool(%d: tensor<4xi1>, %i: tensor<2x1xi64>, %u: tensor<2xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = ms.scatter_nd %d, %i, %u {reduction = #ms<scatter_reduction add>} : (tensor<4xi1>, tensor<2x1xi64>, tensor<2xi1>) -> tensor<4xi1>
  %1 = ms.scatter_nd %d, %i, %u {reduction = #ms<scatter_reduction min>} : (tensor<4xi1>, tensor<2x1xi64>, tensor<2xi1>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}
