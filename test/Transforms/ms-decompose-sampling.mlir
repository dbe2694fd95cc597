// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// The sampling composites (DecomposeSamplingPatterns.cpp): grid_sample, roi_align,
// deform_conv, affine_grid, col2im. The rewrite driver hoists the scalar constants.

// GridSample, bilinear, border padding, align_corners: per spatial dim the grid component (x is
// the last one) becomes an input coordinate, clamped only where it lies outside the borders, split
// into floor and fraction; each of the 2x2 taps is a gather_elements of the input flattened to
// [N, C, H * W] at row * W + col, weighted by the product of the per-dim linear weights.
// CHECK-LABEL: func.func @grid_sample_linear_border
// The rows (H = 3) read grid component 1; (g + 1) * (3 - 1) / 2 folds to g + 1.
// CHECK: %[[GY:.+]] = ms.slice %arg1 {sizes = array<i64: 1, 5, 6, 1>, starts = array<i64: 0, 0, 0, 1>
// CHECK: %[[OUTSIDE:.+]] = ms.or
// CHECK: %[[CLAMPED:.+]] = ms.min %{{.+}}, %{{.+}} : (tensor<1x30xf32>, tensor<f32>)
// CHECK-NEXT: %[[Y:.+]] = ms.where %[[OUTSIDE]], %[[CLAMPED]], %{{.+}} : (tensor<1x30xi1>, tensor<1x30xf32>, tensor<1x30xf32>)
// CHECK-NEXT: %[[Y0:.+]] = ms.floor %[[Y]]
// CHECK-NEXT: %[[FY:.+]] = ms.sub %[[Y]], %[[Y0]]
// The columns (W = 4) read grid component 0.
// CHECK: ms.slice %arg1 {sizes = array<i64: 1, 5, 6, 1>, starts = array<i64: 0, 0, 0, 0>
// CHECK: %[[FLAT:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 2, 12>}
// CHECK: %[[IDX:.+]] = ms.expand %{{.+}} {shape = array<i64: 1, 2, 30>}
// CHECK-NEXT: %[[TAP:.+]] = ms.gather_elements %[[FLAT]], %[[IDX]] {axis = 2 : i64} : (tensor<1x2x12xf32>, tensor<1x2x30xi64>) -> tensor<1x2x30xf32>
// CHECK-COUNT-3: ms.gather_elements %[[FLAT]]
// CHECK-NOT: ms.gather_elements
// CHECK: %[[OUT:.+]] = ms.reshape %{{.+}} {shape = array<i64: 1, 2, 5, 6>} : (tensor<1x2x30xf32>) -> tensor<1x2x5x6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @grid_sample_linear_border(%x: tensor<1x2x3x4xf32>, %g: tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32> {
  %y = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode linear>, padding_mode = #ms<grid_padding_mode border>, align_corners} : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32>
  return %y : tensor<1x2x5x6xf32>
}

// -----

// Nearest with zeros padding: coordinates ((g + 1) * size - 1) / 2 rounded half to even, one tap
// per dim whose index is masked where it falls outside the input.
// CHECK-LABEL: func.func @grid_sample_nearest_zeros
// CHECK: %[[R:.+]] = ms.round %{{.+}} : tensor<1x30xf32>
// CHECK-NEXT: %[[I:.+]] = ms.cast %[[R]] : tensor<1x30xf32> to tensor<1x30xi64>
// CHECK-NEXT: %[[GE:.+]] = ms.compare ge, %[[I]]
// CHECK-NEXT: %[[LT:.+]] = ms.compare lt, %[[I]]
// CHECK-NEXT: ms.and %[[GE]], %[[LT]]
// CHECK: %[[G:.+]] = ms.gather_elements
// CHECK-NOT: ms.gather_elements
// CHECK: %[[M:.+]] = ms.where %{{.+}}, %[[G]], %{{.+}} : (tensor<1x1x30xi1>, tensor<1x2x30xf32>, tensor<f32>) -> tensor<1x2x30xf32>
// CHECK-NEXT: %[[OUT:.+]] = ms.reshape %[[M]] {shape = array<i64: 1, 2, 5, 6>}
// CHECK-NEXT: return %[[OUT]]
func.func @grid_sample_nearest_zeros(%x: tensor<1x2x3x4xf32>, %g: tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32> {
  %y = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode nearest>, padding_mode = #ms<grid_padding_mode zeros>} : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32>
  return %y : tensor<1x2x5x6xf32>
}

// -----

// Bicubic with reflection: the coordinate and each of its 4 taps per dim are reflected (a floor
// of the reflection count each), and the 4 x 4 taps are 16 gathers.
// CHECK-LABEL: func.func @grid_sample_cubic_reflection
// CHECK-COUNT-22: ms.floor
// CHECK-NOT: ms.floor
// CHECK-COUNT-16: ms.gather_elements %{{.+}} {axis = 2 : i64} : (tensor<1x1x12xf32>, tensor<1x1x4xi64>) -> tensor<1x1x4xf32>
// CHECK-NOT: ms.gather_elements
// CHECK: return %{{.+}} : tensor<1x1x2x2xf32>
func.func @grid_sample_cubic_reflection(%x: tensor<1x1x3x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %y = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode cubic>, padding_mode = #ms<grid_padding_mode reflection>} : (tensor<1x1x3x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

// 3-D linear with an f32 grid on f16 data: 2 x 2 x 2 gathers of the input flattened to
// [N, C, D * H * W], the weights computed in f32 and cast to f16.
// CHECK-LABEL: func.func @grid_sample_3d
// CHECK: ms.reshape %arg0 {shape = array<i64: 1, 1, 24>}
// CHECK-COUNT-8: ms.gather_elements %{{.+}} {axis = 2 : i64} : (tensor<1x1x24xf16>, tensor<1x1x8xi64>) -> tensor<1x1x8xf16>
// CHECK-NOT: ms.gather_elements
// CHECK: return %{{.+}} : tensor<1x1x2x2x2xf16>
func.func @grid_sample_3d(%x: tensor<1x1x2x3x4xf16>, %g: tensor<1x2x2x2x3xf32>) -> tensor<1x1x2x2x2xf16> {
  %y = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode linear>, padding_mode = #ms<grid_padding_mode zeros>} : (tensor<1x1x2x3x4xf16>, tensor<1x2x2x2x3xf32>) -> tensor<1x1x2x2x2xf16>
  return %y : tensor<1x1x2x2x2xf16>
}

// -----

// RoiAlign, average, half_pixel: per ROI 2 x 2 bins of 2 x 2 samples; X laid out as
// [C, N * H * W], four bilinear taps gathered at batch offset + row * W + col, weighted, summed,
// then averaged over each bin's samples.
// CHECK-LABEL: func.func @roi_align_avg
// CHECK: %[[ITEM:.+]] = ms.cast %arg2 : tensor<4xi32> to tensor<4xi64>
// CHECK: %[[T:.+]] = ms.transpose %{{.+}} {perms = array<i64: 1, 0, 2>} : (tensor<2x3x64xf32>) -> tensor<3x2x64xf32>
// CHECK-NEXT: %[[FLAT:.+]] = ms.reshape %[[T]] {shape = array<i64: 3, 128>}
// CHECK-COUNT-4: ms.gather_elements %[[FLAT]], %{{.+}} {axis = 1 : i64} : (tensor<3x128xf32>, tensor<3x64xi64>) -> tensor<3x64xf32>
// CHECK: %[[BINS:.+]] = ms.reshape %{{.+}} {shape = array<i64: 3, 4, 2, 2, 2, 2>}
// CHECK-NEXT: %[[P:.+]] = ms.reduce_mean %[[BINS]] {axes = array<i64: 3, 5>}
// CHECK-NEXT: %[[Y:.+]] = ms.transpose %[[P]] {perms = array<i64: 1, 0, 2, 3>} : (tensor<3x4x2x2xf32>) -> tensor<4x3x2x2xf32>
// CHECK-NEXT: return %[[Y]]
func.func @roi_align_avg(%x: tensor<2x3x8x8xf32>, %rois: tensor<4x4xf32>, %idx: tensor<4xi32>) -> tensor<4x3x2x2xf32> {
  %y = ms.roi_align %x, %rois, %idx {output_height = 2, output_width = 2, sampling_ratio = 2, spatial_scale = 0.5, half_pixel} : (tensor<2x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi32>) -> tensor<4x3x2x2xf32>
  return %y : tensor<4x3x2x2xf32>
}

// -----

// Max mode, output_half_pixel, f16 ROIs: the boxes cast to the data type, the extent at least 1
// (a max), the taps combined by maximum and the bins reduced by reduce_max.
// CHECK-LABEL: func.func @roi_align_max
// CHECK: ms.cast %arg1 : tensor<2x4xf16> to tensor<2x4xf32>
// CHECK-COUNT-4: ms.gather_elements
// CHECK: ms.max %{{.+}}, %{{.+}} : (tensor<3x2x1x2xf32>, tensor<3x2x1x2xf32>)
// CHECK: %[[P:.+]] = ms.reduce_max %{{.+}} {axes = array<i64: 3, 5>} : (tensor<3x2x1x1x2x1xf32>) -> tensor<3x2x1x2xf32>
// CHECK-NEXT: ms.transpose %[[P]] {perms = array<i64: 1, 0, 2, 3>}
func.func @roi_align_max(%x: tensor<1x3x8x8xf32>, %rois: tensor<2x4xf16>, %idx: tensor<2xi64>) -> tensor<2x3x1x2xf32> {
  %y = ms.roi_align %x, %rois, %idx {output_height = 1, output_width = 2, sampling_ratio = 1, spatial_scale = 1.0, max} : (tensor<1x3x8x8xf32>, tensor<2x4xf16>, tensor<2xi64>) -> tensor<2x3x1x2xf32>
  return %y : tensor<2x3x1x2xf32>
}

// -----

// DeformConv with 2 groups, 2 offset groups, bias and mask: the four bilinear taps of every
// (offset group, tap, position) gathered from X as [N, offset_group, C / offset_group, H * W],
// weighted, masked, then one batched matmul per group and the bias.
// CHECK-LABEL: func.func @deform_conv
// CHECK: ms.reshape %arg2 {shape = array<i64: 1, 2, 9, 2, 9>}
// CHECK: %[[FLAT:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 2, 2, 25>}
// CHECK-COUNT-4: ms.gather_elements %[[FLAT]], %{{.+}} {axis = 3 : i64} : (tensor<1x2x2x25xf32>, tensor<1x2x2x81xi64>) -> tensor<1x2x2x81xf32>
// CHECK: %[[MASK:.+]] = ms.reshape %arg4 {shape = array<i64: 1, 2, 1, 81>}
// CHECK-NEXT: %[[COLS:.+]] = ms.mul %{{.+}}, %[[MASK]]
// CHECK-NEXT: %[[C:.+]] = ms.reshape %[[COLS]] {shape = array<i64: 1, 2, 18, 9>}
// CHECK-NEXT: %[[W:.+]] = ms.reshape %arg1 {shape = array<i64: 1, 2, 1, 18>}
// CHECK-NEXT: %[[MM:.+]] = ms.matmul %[[W]], %[[C]] : (tensor<1x2x1x18xf32>, tensor<1x2x18x9xf32>) -> tensor<1x2x1x9xf32>
// CHECK-NEXT: %[[Y:.+]] = ms.reshape %[[MM]] {shape = array<i64: 1, 2, 3, 3>}
// CHECK-NEXT: %[[B:.+]] = ms.reshape %arg3 {shape = array<i64: 1, 2, 1, 1>}
// CHECK-NEXT: %[[OUT:.+]] = ms.add %[[Y]], %[[B]]
// CHECK-NEXT: return %[[OUT]]
func.func @deform_conv(%x: tensor<1x4x5x5xf32>, %w: tensor<2x2x3x3xf32>, %off: tensor<1x36x3x3xf32>, %b: tensor<2xf32>, %m: tensor<1x18x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %y = ms.deform_conv %x, %w, %off bias %b mask %m {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2, offset_groups = 2} : (tensor<1x4x5x5xf32>, tensor<2x2x3x3xf32>, tensor<1x36x3x3xf32>, tensor<2xf32>, tensor<1x18x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// Without bias and mask the matmul's reshape is the result.
// CHECK-LABEL: func.func @deform_conv_plain
// CHECK-COUNT-4: ms.gather_elements
// CHECK: %[[MM:.+]] = ms.matmul
// CHECK-NEXT: %[[Y:.+]] = ms.reshape %[[MM]] {shape = array<i64: 1, 1, 2, 2>}
// CHECK-NEXT: return %[[Y]]
func.func @deform_conv_plain(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x2x2xf32>, %off: tensor<1x8x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %y = ms.deform_conv %x, %w, %off {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

// AffineGrid (align_corners): the base grid (x, y, 1) per output position, row-major over H x W,
// times theta transposed.
// CHECK-LABEL: func.func @affine_grid
// CHECK: %[[B:.+]] = ms.constant dense<{{\[\[}}-1.000000e+00, -1.000000e+00, 1.000000e+00], [0.000000e+00, -1.000000e+00, 1.000000e+00], [1.000000e+00, -1.000000e+00, 1.000000e+00], [-1.000000e+00, 1.000000e+00, 1.000000e+00], [0.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<6x3xf32>
// CHECK-NEXT: %[[T:.+]] = ms.transpose %arg0 {perms = array<i64: 0, 2, 1>}
// CHECK-NEXT: %[[G:.+]] = ms.matmul %[[B]], %[[T]] : (tensor<6x3xf32>, tensor<2x3x2xf32>) -> tensor<2x6x2xf32>
// CHECK-NEXT: %[[Y:.+]] = ms.reshape %[[G]] {shape = array<i64: 2, 2, 3, 2>}
// CHECK-NEXT: return %[[Y]]
func.func @affine_grid(%t: tensor<2x2x3xf32>) -> tensor<2x2x3x2xf32> {
  %y = ms.affine_grid %t {size = array<i64: 2, 1, 2, 3>, align_corners} : (tensor<2x2x3xf32>) -> tensor<2x2x3x2xf32>
  return %y : tensor<2x2x3x2xf32>
}

// -----

// 3-D without align_corners: coordinates at the pixels' centers, (x, y, z, 1) per position.
// CHECK-LABEL: func.func @affine_grid_3d
// CHECK: %[[B:.+]] = ms.constant dense<{{\[\[}}-5.000000e-01, -5.000000e-01, 0.000000e+00, 1.000000e+00], [5.000000e-01, -5.000000e-01, 0.000000e+00, 1.000000e+00], [-5.000000e-01, 5.000000e-01, 0.000000e+00, 1.000000e+00], [5.000000e-01, 5.000000e-01, 0.000000e+00, 1.000000e+00]]> : tensor<4x4xf32>
// CHECK: ms.matmul %[[B]], %{{.+}} : (tensor<4x4xf32>, tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
// CHECK: ms.reshape %{{.+}} {shape = array<i64: 1, 1, 2, 2, 3>}
func.func @affine_grid_3d(%t: tensor<1x3x4xf32>) -> tensor<1x1x2x2x3xf32> {
  %y = ms.affine_grid %t {size = array<i64: 1, 1, 1, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x1x2x2x3xf32>
  return %y : tensor<1x1x2x2x3xf32>
}

// -----

// Col2Im: each channel's 4 taps x 16 blocks added (scatter_elements add) into a zero 5x5 padded
// image at block * stride + tap * dilation (the index and zeros fold to constants), then the
// padding sliced off.
// CHECK-LABEL: func.func @col2im
// CHECK-DAG: %[[IDX:.+]] = ms.constant dense<"0x{{[0-9A-F]+}}"> : tensor<1x2x64xi64>
// CHECK-DAG: %[[Z:.+]] = ms.constant dense<0.000000e+00> : tensor<1x2x25xf32>
// CHECK: %[[X:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 2, 64>}
// CHECK-NEXT: %[[S:.+]] = ms.scatter_elements %[[Z]], %[[IDX]], %[[X]] {axis = 2 : i64, reduction = #ms<scatter_reduction add>}
// CHECK-NEXT: %[[P:.+]] = ms.reshape %[[S]] {shape = array<i64: 1, 2, 5, 5>}
// CHECK-NEXT: %[[Y:.+]] = ms.slice %[[P]] {sizes = array<i64: 1, 2, 3, 3>, starts = array<i64: 0, 0, 1, 1>, steps = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: return %[[Y]]
func.func @col2im(%x: tensor<1x8x16xf32>) -> tensor<1x2x3x3xf32> {
  %0 = ms.col2im %x {image_shape = array<i64: 3, 3>, block_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}
