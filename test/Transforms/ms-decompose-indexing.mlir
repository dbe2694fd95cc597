// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// ms.one_hot, ms.reverse_sequence, ms.tensor_scatter, ms.max_unpool and ms.max_pool_indices
// (DecomposeIndexingPatterns.cpp), as the importer built them.

// OneHot with run-time values: the indices wrapped by depth, compared with a constant range laid
// along the new axis, off and on sliced out of the values.
// CHECK-LABEL: func.func @one_hot
// CHECK: %[[WRAP:.+]] = ms.add %arg0, %{{.+}} : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
// CHECK-NEXT: %[[NEG:.+]] = ms.compare lt, %arg0, %{{.+}}
// CHECK-NEXT: %[[IDX:.+]] = ms.where %[[NEG]], %[[WRAP]], %arg0
// CHECK-NEXT: %[[LIFT:.+]] = ms.reshape %[[IDX]] {shape = array<i64: 3, 1>}
// CHECK-NEXT: %[[HOT:.+]] = ms.compare eq, %[[LIFT]], %{{.+}} : (tensor<3x1xi64>, tensor<1x4xi64>) -> tensor<3x4xi1>
// CHECK: %[[OFF:.+]] = ms.slice %arg1
// CHECK: %[[ON:.+]] = ms.slice %arg1
// CHECK: %[[R:.+]] = ms.where %[[HOT]], %{{.+}}, %{{.+}} : (tensor<3x4xi1>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @one_hot(%i: tensor<3xi64>, %v: tensor<2xf32>) -> tensor<3x4xf32> {
  %0 = ms.one_hot %i, %v {depth = 4 : i64, axis = -1 : i64} : (tensor<3xi64>, tensor<2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// OneHot with constant values and float indices along axis 0: the values become two scalar
// constants.
// CHECK-LABEL: func.func @one_hot_known
// CHECK-DAG: %[[OFF:.+]] = ms.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG: %[[ON:.+]] = ms.constant dense<5.000000e+00> : tensor<f32>
// CHECK: %[[I:.+]] = ms.cast %arg0 : tensor<2xf32> to tensor<2xi64>
// CHECK: %[[LIFT:.+]] = ms.reshape %{{.+}} {shape = array<i64: 1, 2>}
// CHECK: %[[R:.+]] = ms.where %{{.+}}, %[[ON]], %[[OFF]] : (tensor<3x2xi1>, tensor<f32>, tensor<f32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @one_hot_known(%i: tensor<2xf32>) -> tensor<3x2xf32> {
  %v = ms.constant dense<[1.0, 5.0]> : tensor<2xf32>
  %0 = ms.one_hot %i, %v {depth = 3 : i64, axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// ReverseSequence (time axis 0): one gather along time by t < len[b] ? len[b] - 1 - t : t.
// CHECK-LABEL: func.func @reverse_sequence
// CHECK: %[[T:.+]] = ms.constant dense<{{\[\[\[}}0]], {{\[\[}}1]], {{\[\[}}2]], {{\[\[}}3]]]> : tensor<4x1x1xi64>
// CHECK: %[[LEN:.+]] = ms.reshape %arg1 {shape = array<i64: 1, 3, 1>}
// CHECK: %[[REV:.+]] = ms.sub %{{.+}}, %[[T]] : (tensor<1x3x1xi64>, tensor<4x1x1xi64>) -> tensor<4x3x1xi64>
// CHECK-NEXT: %[[IN:.+]] = ms.compare lt, %[[T]], %[[LEN]]
// CHECK-NEXT: %[[IDX:.+]] = ms.where %[[IN]], %[[REV]], %[[T]]
// CHECK-NEXT: %[[IDXE:.+]] = ms.expand %[[IDX]] {shape = array<i64: 4, 3, 2>}
// CHECK-NEXT: %[[R:.+]] = ms.gather_elements %arg0, %[[IDXE]] : (tensor<4x3x2xf32>, tensor<4x3x2xi64>) -> tensor<4x3x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @reverse_sequence(%x: tensor<4x3x2xf32>, %lens: tensor<3xi64>) -> tensor<4x3x2xf32> {
  %0 = ms.reverse_sequence %x, %lens {batch_axis = 1 : i64, time_axis = 0 : i64}
      : (tensor<4x3x2xf32>, tensor<3xi64>) -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

// TensorScatter, circular: the offsets p - w[b] modulo the cache length, the update gathered where
// they fall inside it, the cache elsewhere.
// CHECK-LABEL: func.func @tensor_scatter
// CHECK: %[[OFF:.+]] = ms.sub %{{.+}}, %{{.+}} : (tensor<1x5x1xi64>, tensor<2x1x1xi64>) -> tensor<2x5x1xi64>
// CHECK: %[[WRAP:.+]] = ms.mod %[[OFF]], %{{.+}} : (tensor<2x5x1xi64>, tensor<i64>)
// CHECK: %[[WRITTEN:.+]] = ms.and
// CHECK: ms.max %[[WRAP]]
// CHECK: %[[G:.+]] = ms.gather_elements %arg1, %{{.+}} {axis = 1 : i64} : (tensor<2x2x4xf32>, tensor<2x5x4xi64>) -> tensor<2x5x4xf32>
// CHECK-NEXT: %[[R:.+]] = ms.where %[[WRITTEN]], %[[G]], %arg0
// CHECK-NEXT: return %[[R]]
func.func @tensor_scatter(%past: tensor<2x5x4xf32>, %update: tensor<2x2x4xf32>, %w: tensor<2xi64>) -> tensor<2x5x4xf32> {
  %0 = ms.tensor_scatter %past, %update, %w {axis = -2 : i64, circular}
      : (tensor<2x5x4xf32>, tensor<2x2x4xf32>, tensor<2xi64>) -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// -----

// TensorScatter of an empty update: the cache.
// CHECK-LABEL: func.func @tensor_scatter_empty
// CHECK-NEXT: return %arg0
func.func @tensor_scatter_empty(%past: tensor<2x5x4xf32>, %update: tensor<2x0x4xf32>) -> tensor<2x5x4xf32> {
  %0 = ms.tensor_scatter %past, %update {axis = 1 : i64}
      : (tensor<2x5x4xf32>, tensor<2x0x4xf32>) -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// -----

// MaxUnpool: the values scattered to their flat indices in a zero tensor, reshaped to the
// unpooled [1, 1, 4, 4].
// CHECK-LABEL: func.func @max_unpool
// CHECK: %[[Z:.+]] = ms.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK: %[[S:.+]] = ms.scatter_elements %[[Z]], %{{.+}}, %{{.+}} : (tensor<16xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[U:.+]] = ms.reshape %[[S]] {shape = array<i64: 1, 1, 4, 4>}
// CHECK-NEXT: return %[[U]]
func.func @max_unpool(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32> {
  %0 = ms.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                             pads = array<i64: 0, 0, 0, 0>, output_shape = array<i64>}
      : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// MaxUnpool with a larger output_shape: the unpooled block padded with zeros at the end.
// CHECK-LABEL: func.func @max_unpool_output_shape
// CHECK: %[[U:.+]] = ms.reshape %{{.+}} {shape = array<i64: 1, 1, 4, 4>}
// CHECK-NEXT: %[[P:.+]] = ms.pad %[[U]] {{.*}}pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>
// CHECK-NEXT: return %[[P]]
func.func @max_unpool_output_shape(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<1x1x5x5xf32> {
  %0 = ms.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                             pads = array<i64: 0, 0, 0, 0>, output_shape = array<i64: 1, 1, 5, 5>}
      : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}

// -----

// MaxPool's indices, 2x2 windows of stride 2 (no padding: the -inf pad folds away): one strided
// slice per tap, the first strictly greater tap kept with its plane index, plus the per-plane
// offsets.
// CHECK-LABEL: func.func @max_pool_indices
// CHECK: %[[OFF:.+]] = ms.constant dense<{{\[\[\[\[}}0]], {{\[\[}}16]]]]> : tensor<1x2x1x1xi64>
// CHECK: %[[T0:.+]] = ms.slice %arg0 {{.*}}-> tensor<1x2x2x2xf32>
// CHECK-NEXT: %[[T1:.+]] = ms.slice %arg0
// CHECK-NEXT: %[[GT:.+]] = ms.compare gt, %[[T1]], %[[T0]]
// CHECK-NEXT: ms.where %[[GT]], %[[T1]], %[[T0]]
// CHECK: %[[R:.+]] = ms.add %{{.+}}, %[[OFF]] : (tensor<1x2x2x2xi64>, tensor<1x2x1x1xi64>) -> tensor<1x2x2x2xi64>
// CHECK-NEXT: return %[[R]]
func.func @max_pool_indices(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xi64> {
  %0 = ms.max_pool_indices %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                               pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xi64>
  return %0 : tensor<1x2x2x2xi64>
}
