// RUN: ms-opt %s -ms-decompose | FileCheck %s

// The symbolic reshapes of @einsum_symbolic and @conv_transpose_3d_batch below, printed first.
// CHECK-DAG: #[[DEPTHS:.+]] = affine_map<()[s0] -> (s0 * 4, 4, 2, 2)>
// CHECK-DAG: #[[LHS:.+]] = affine_map<()[s0, s1] -> (s0 * 2, s1, 8)>
// CHECK-DAG: #[[RHS:.+]] = affine_map<()[s0, s1] -> (s0 * 2, 8, s1)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<()[s0, s1] -> (s0, 2, s1, s1)>

// The pass's rewrite driver folds what becomes constant (up to the folders' 65,536 elements).

// Tile: [1, size] pairs expanded to [repeats, size], then merged.
// CHECK-LABEL: func.func @tile
// CHECK: %[[L:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 2, 1, 3>} : (tensor<2x3xf32>) -> tensor<1x2x1x3xf32>
// CHECK: %[[E:.+]] = ms.expand %[[L]] {shape = array<i64: 2, 2, 1, 3>} : (tensor<1x2x1x3xf32>) -> tensor<2x2x1x3xf32>
// CHECK: %[[Y:.+]] = ms.reshape %[[E]] {shape = array<i64: 4, 3>} : (tensor<2x2x1x3xf32>) -> tensor<4x3xf32>
// CHECK: return %[[Y]]
func.func @tile(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %y = ms.tile %x {repeats = array<i64: 2, 1>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// DepthToSpace, DCR: channels read as (block row, block column, channel).
// CHECK-LABEL: func.func @depth_to_space_dcr
// CHECK: %[[B:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 2, 2, 2, 2, 3>} : (tensor<1x8x2x3xf32>) -> tensor<1x2x2x2x2x3xf32>
// CHECK: %[[T:.+]] = ms.transpose %[[B]] {perms = array<i64: 0, 3, 4, 1, 5, 2>}
// CHECK: %[[Y:.+]] = ms.reshape %[[T]] {shape = array<i64: 1, 2, 4, 6>}
// CHECK: return %[[Y]]
func.func @depth_to_space_dcr(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %y = ms.depth_to_space %x {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %y : tensor<1x2x4x6xf32>
}

// CRD: channels read as (channel, block row, block column).
// CHECK-LABEL: func.func @depth_to_space_crd
// CHECK: ms.reshape %arg0 {shape = array<i64: 2, 1, 3, 3, 2, 2>}
// CHECK: ms.transpose %{{.+}} {perms = array<i64: 0, 1, 4, 2, 5, 3>}
// CHECK: ms.reshape %{{.+}} {shape = array<i64: 2, 1, 6, 6>}
func.func @depth_to_space_crd(%x: tensor<2x9x2x2xi8>) -> tensor<2x1x6x6xi8> {
  %y = ms.depth_to_space %x {blocksize = 3 : i64, crd} : (tensor<2x9x2x2xi8>) -> tensor<2x1x6x6xi8>
  return %y : tensor<2x1x6x6xi8>
}

// CHECK-LABEL: func.func @space_to_depth
// CHECK: ms.reshape %arg0 {shape = array<i64: 1, 2, 2, 2, 3, 2>}
// CHECK: ms.transpose %{{.+}} {perms = array<i64: 0, 3, 5, 1, 2, 4>}
// CHECK: ms.reshape %{{.+}} {shape = array<i64: 1, 8, 2, 3>}
func.func @space_to_depth(%x: tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32> {
  %y = ms.space_to_depth %x {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  return %y : tensor<1x8x2x3xf32>
}

// A DepthToSpace of a constant folds away, as the importer's own expansion did.
// CHECK-LABEL: func.func @depth_to_space_constant
// CHECK: %[[C:.+]] = ms.constant dense<{{\[\[\[}}[0, 1], [2, 3]]]]> : tensor<1x1x2x2xi32>
// CHECK-NEXT: return %[[C]]
func.func @depth_to_space_constant() -> tensor<1x1x2x2xi32> {
  %c = ms.constant dense<[[[[0]], [[1]], [[2]], [[3]]]]> : tensor<1x4x1x1xi32>
  %y = ms.depth_to_space %c {blocksize = 2 : i64} : (tensor<1x4x1x1xi32>) -> tensor<1x1x2x2xi32>
  return %y : tensor<1x1x2x2xi32>
}

// Trilu: column - row from [1, cols] and [rows, 1] index constants (here folded into one
// [rows, cols] table), compared with k (read at run time), then a select against zero.
// CHECK-LABEL: func.func @trilu_upper
// CHECK-DAG: %[[ZERO:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[OFF:.+]] = ms.constant dense<{{\[\[}}0, 1, 2, 3], [-1, 0, 1, 2], [-2, -1, 0, 1]]> : tensor<3x4xi64>
// CHECK: %[[K:.+]] = ms.reshape %arg1 {shape = array<i64>} : (tensor<1xi64>) -> tensor<i64>
// CHECK: %[[KEEP:.+]] = ms.compare ge, %[[OFF]], %[[K]]
// CHECK: %[[Y:.+]] = ms.where %[[KEEP]], %arg0, %[[ZERO]] : (tensor<3x4xi1>, tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
// CHECK: return %[[Y]]
func.func @trilu_upper(%x: tensor<2x3x4xf32>, %k: tensor<1xi64>) -> tensor<2x3x4xf32> {
  %y = ms.trilu %x, %k : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// Past the folders' limit the offsets stay a broadcast subtraction: no [rows, cols] table is
// stored (a causal mask over 512 positions); lower compares with le.
// CHECK-LABEL: func.func @trilu_lower_large
// CHECK-DAG: %[[COLS:.+]] = ms.constant dense<{{.+}}> : tensor<1x512xi64>
// CHECK-DAG: %[[ROWS:.+]] = ms.constant dense<{{.+}}> : tensor<512x1xi64>
// CHECK: %[[OFF:.+]] = ms.sub %[[COLS]], %[[ROWS]] : (tensor<1x512xi64>, tensor<512x1xi64>) -> tensor<512x512xi64>
// CHECK: ms.compare le, %[[OFF]], %arg1
func.func @trilu_lower_large(%x: tensor<512x512xf32>, %k: tensor<i64>) -> tensor<512x512xf32> {
  %y = ms.trilu %x, %k {lower} : (tensor<512x512xf32>, tensor<i64>) -> tensor<512x512xf32>
  return %y : tensor<512x512xf32>
}

// Without k, k is 0; with every operand of the mask constant, the mask is one constant.
// CHECK-LABEL: func.func @trilu_lower_default_k
// CHECK-DAG: %[[MASK:.+]] = ms.constant dense<{{\[\[}}true, false], [true, true]]> : tensor<2x2xi1>
// CHECK-DAG: %[[ZERO:.+]] = ms.constant dense<0> : tensor<i32>
// CHECK: ms.where %[[MASK]], %arg0, %[[ZERO]]
func.func @trilu_lower_default_k(%x: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %y = ms.trilu %x {lower} : (tensor<2x2xi32>) -> tensor<2x2xi32>
  return %y : tensor<2x2xi32>
}

// InstanceNormalization: statistics over the spatial dims, then per-channel scale and bias.
// CHECK-LABEL: func.func @instance_norm
// CHECK: %[[MEAN:.+]] = ms.reduce_mean %arg0 {axes = array<i64: 2, 3>, keep_dims}
// CHECK-NEXT: %[[C:.+]] = ms.sub %arg0, %[[MEAN]]
// CHECK-NEXT: %[[SQ:.+]] = ms.mul %[[C]], %[[C]]
// CHECK-NEXT: %[[VAR:.+]] = ms.reduce_mean %[[SQ]] {axes = array<i64: 2, 3>, keep_dims}
// CHECK-NEXT: %[[VE:.+]] = ms.add %[[VAR]], %{{.+}}
// CHECK-NEXT: %[[R:.+]] = ms.rsqrt %[[VE]]
// CHECK-NEXT: %[[N:.+]] = ms.mul %[[C]], %[[R]]
// CHECK-NEXT: %[[S:.+]] = ms.reshape %arg1 {shape = array<i64: 4, 1, 1>}
// CHECK-NEXT: %[[NS:.+]] = ms.mul %[[N]], %[[S]]
// CHECK-NEXT: %[[B:.+]] = ms.reshape %arg2 {shape = array<i64: 4, 1, 1>}
// CHECK-NEXT: %[[Y:.+]] = ms.add %[[NS]], %[[B]]
// CHECK-NEXT: return %[[Y]]
func.func @instance_norm(%x: tensor<2x4x3x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x3xf32> {
  %y = ms.instance_norm %x, %s, %b {epsilon = 1.0e-3 : f64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}

// GroupNormalization: the groups' channels and spatial dims as one reduced dim.
// CHECK-LABEL: func.func @group_norm
// CHECK-DAG: %[[EPS:.+]] = ms.constant dense<1.001360e-05> : tensor<f16>
// CHECK-DAG: %[[G:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 2, 6>} : (tensor<1x4x3xf16>) -> tensor<1x2x6xf16>
// CHECK: ms.reduce_mean %[[G]] {axes = array<i64: 2>, keep_dims}
// CHECK: ms.add %{{.+}}, %[[EPS]]
// CHECK: %[[N:.+]] = ms.reshape %{{.+}} {shape = array<i64: 1, 4, 3>} : (tensor<1x2x6xf16>) -> tensor<1x4x3xf16>
// CHECK: ms.reshape %arg1 {shape = array<i64: 4, 1>}
func.func @group_norm(%x: tensor<1x4x3xf16>, %s: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<1x4x3xf16> {
  %y = ms.group_norm %x, %s, %b {num_groups = 2 : i64} : (tensor<1x4x3xf16>, tensor<4xf16>, tensor<4xf16>) -> tensor<1x4x3xf16>
  return %y : tensor<1x4x3xf16>
}

// LpNormalization p = 1: x / sum(|x|); p = 2: x / sqrt(sum(x^2)).
// CHECK-LABEL: func.func @lp_normalization
// CHECK: %[[ABS:.+]] = ms.abs %arg0
// CHECK-NEXT: %[[L1:.+]] = ms.reduce_sum %[[ABS]] {axes = array<i64: 1>, keep_dims}
// CHECK-NEXT: ms.div %arg0, %[[L1]]
// CHECK: %[[SQ:.+]] = ms.mul %arg0, %arg0
// CHECK-NEXT: %[[SS:.+]] = ms.reduce_sum %[[SQ]] {axes = array<i64: 0>, keep_dims}
// CHECK-NEXT: %[[L2:.+]] = ms.sqrt %[[SS]]
// CHECK-NEXT: ms.div %arg0, %[[L2]]
func.func @lp_normalization(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = ms.lp_normalization %x {axis = 1 : i64, p = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = ms.lp_normalization %x {axis = 0 : i64, p = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %a, %b : tensor<2x3xf32>, tensor<2x3xf32>
}

// MeanVarianceNormalization: (x - mean) / (sqrt(var) + 1e-9) over the given axes.
// CHECK-LABEL: func.func @mean_variance_norm
// CHECK: %[[MEAN:.+]] = ms.reduce_mean %arg0 {axes = array<i64: 0, 2>, keep_dims}
// CHECK-NEXT: %[[C:.+]] = ms.sub %arg0, %[[MEAN]]
// CHECK: %[[VAR:.+]] = ms.reduce_mean %{{.+}} {axes = array<i64: 0, 2>, keep_dims}
// CHECK-NEXT: %[[SD:.+]] = ms.sqrt %[[VAR]]
// CHECK-NEXT: %[[E:.+]] = ms.add %[[SD]], %{{.+}}
// CHECK-NEXT: ms.div %[[C]], %[[E]]
func.func @mean_variance_norm(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  %y = ms.mean_variance_norm %x {axes = array<i64: 0, 2>} : (tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %y : tensor<2x4x5xf32>
}

// LRN: the squares as [N, 1, C, H*W], a zero-padded average pool of size x 1 over the channels,
// then x / (bias + alpha * mean)^beta.
// CHECK-LABEL: func.func @lrn
// CHECK: %[[SQ:.+]] = ms.mul %arg0, %arg0
// CHECK-NEXT: %[[R:.+]] = ms.reshape %[[SQ]] {shape = array<i64: 1, 1, 4, 4>} : (tensor<1x4x2x2xf32>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT: %[[P:.+]] = ms.avg_pool %[[R]] {count_include_pad, kernel = array<i64: 3, 1>, pads = array<i64: 1, 0, 1, 0>}
// CHECK-NEXT: %[[M:.+]] = ms.reshape %[[P]] {shape = array<i64: 1, 4, 2, 2>}
// CHECK: ms.pow
// CHECK: ms.div %arg0
func.func @lrn(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %y = ms.lrn %x {size = 3 : i64, alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 1.0 : f64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %y : tensor<1x4x2x2xf32>
}

// Conv3d: the input padded in depth, its 2 depth taps (dilation 2, stride 1) sliced and stacked
// as channels (c, kd), the output depths into the batch, one conv2d with the filter read as
// [F, C * KD, KH, KW]; the bias stays on it.
// CHECK-LABEL: func.func @conv3d
// CHECK: %[[P:.+]] = ms.pad %arg0 {pads = array<i64: 0, 0, 1, 0, 0, 0, 0, 1, 0, 0>} : (tensor<1x2x4x5x5xf32>) -> tensor<1x2x6x5x5xf32>
// CHECK: %[[S0:.+]] = ms.slice %[[P]] {sizes = array<i64: 1, 2, 4, 5, 5>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>}
// CHECK: %[[R0:.+]] = ms.reshape %[[S0]] {shape = array<i64: 1, 2, 1, 4, 5, 5>}
// CHECK: %[[S1:.+]] = ms.slice %[[P]] {sizes = array<i64: 1, 2, 4, 5, 5>, starts = array<i64: 0, 0, 2, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>}
// CHECK: %[[R1:.+]] = ms.reshape %[[S1]] {shape = array<i64: 1, 2, 1, 4, 5, 5>}
// CHECK: %[[C:.+]] = ms.concat %[[R0]], %[[R1]] {axis = 2 : i64} : (tensor<1x2x1x4x5x5xf32>, tensor<1x2x1x4x5x5xf32>) -> tensor<1x2x2x4x5x5xf32>
// CHECK: %[[T:.+]] = ms.transpose %[[C]] {perms = array<i64: 0, 3, 1, 2, 4, 5>}
// CHECK: %[[X:.+]] = ms.reshape %[[T]] {shape = array<i64: 4, 4, 5, 5>}
// CHECK: %[[W:.+]] = ms.reshape %arg1 {shape = array<i64: 3, 4, 3, 3>}
// CHECK: %[[Y:.+]] = ms.conv2d %[[X]], %[[W]], %arg2 {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<4x4x5x5xf32>, tensor<3x4x3x3xf32>, tensor<3xf32>) -> tensor<4x3x3x3xf32>
// CHECK: %[[B:.+]] = ms.reshape %[[Y]] {shape = array<i64: 1, 4, 3, 3, 3>}
// CHECK: ms.transpose %[[B]] {perms = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x4x3x3x3xf32>) -> tensor<1x3x4x3x3xf32>
func.func @conv3d(%x: tensor<1x2x4x5x5xf32>, %w: tensor<3x2x2x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x4x3x3xf32> {
  %y = ms.conv3d %x, %w, %b {strides = array<i64: 1, 2, 2>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 2, 1, 1>}
      : (tensor<1x2x4x5x5xf32>, tensor<3x2x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x4x3x3xf32>
  return %y : tensor<1x3x4x3x3xf32>
}

// ConvTranspose, 1-D, stride 2, a model-data filter [C = 2, F = 1, 3]: the input as [N, C, 1, I, 1]
// with one zero after each element, a pad of k - 1 - pad (2 - 0 before, 2 - 1 - 1 (the trailing
// zero) after), and a conv2d with the filter flipped into a new resource [1, 2, 1, 3]
// ([1, 2, 3] -> [3, 2, 1], [4, 5, 6] -> [6, 5, 4]).
// CHECK-LABEL: func.func @conv_transpose_1d
// CHECK: %[[W:.+]] = ms.constant dense_resource<deconv_w.flipped> : tensor<1x2x1x3xf32>
// CHECK: %[[I:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 2, 1, 1, 4, 1>}
// CHECK: %[[Z:.+]] = ms.pad %[[I]] {pads = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1>}
// CHECK: %[[D:.+]] = ms.reshape %[[Z]] {shape = array<i64: 1, 2, 1, 8>}
// CHECK: %[[X:.+]] = ms.pad %[[D]] {pads = array<i64: 0, 0, 0, 2, 0, 0, 0, 0>} : (tensor<1x2x1x8xf32>) -> tensor<1x2x1x10xf32>
// CHECK: %[[Y:.+]] = ms.conv2d %[[X]], %[[W]] : (tensor<1x2x1x10xf32>, tensor<1x2x1x3xf32>) -> tensor<1x1x1x8xf32>
// CHECK: ms.reshape %[[Y]] {shape = array<i64: 1, 1, 8>}
func.func @conv_transpose_1d(%x: tensor<1x2x4xf32>) -> tensor<1x1x8xf32> {
  %w = ms.constant dense_resource<deconv_w> : tensor<2x1x3xf32>
  %y = ms.conv_transpose %x, %w {strides = array<i64: 2>, pads = array<i64: 0, 1>, dilations = array<i64: 1>, output_padding = array<i64: 0>}
      : (tensor<1x2x4xf32>, tensor<2x1x3xf32>) -> tensor<1x1x8xf32>
  return %y : tensor<1x1x8xf32>
}

// ConvTranspose, 3-D, stride 1, a computed filter [C = 2, F = 1, 2, 1, 1]: the filter regrouped
// and flipped by reshape / transpose / slice, then an ms.conv3d (itself decomposed) over the
// input padded by k - 1 in depth.
// CHECK-LABEL: func.func @conv_transpose_3d
// CHECK: ms.pad %{{.+}} {pads = array<i64: 0, 0, 1, 0, 0, 0, 0, 1, 0, 0>} : (tensor<1x2x3x2x2xf32>) -> tensor<1x2x5x2x2xf32>
// CHECK: %[[F:.+]] = ms.slice %{{.+}} {sizes = array<i64: 1, 2, 2, 1, 1>, starts = array<i64: 0, 0, 1, 0, 0>, steps = array<i64: 1, 1, -1, -1, -1>}
// CHECK: ms.concat
// CHECK: %[[F2:.+]] = ms.reshape %[[F]] {shape = array<i64: 1, 4, 1, 1>}
// CHECK: ms.conv2d %{{.+}}, %[[F2]] : (tensor<4x4x2x2xf32>, tensor<1x4x1x1xf32>) -> tensor<4x1x2x2xf32>
// CHECK-NOT: ms.conv_transpose
// CHECK-NOT: ms.conv3d
func.func @conv_transpose_3d(%x: tensor<1x2x3x2x2xf32>, %w: tensor<2x1x2x1x1xf32>) -> tensor<1x1x4x2x2xf32> {
  %y = ms.conv_transpose %x, %w {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>}
      : (tensor<1x2x3x2x2xf32>, tensor<2x1x2x1x1xf32>) -> tensor<1x1x4x2x2xf32>
  return %y : tensor<1x1x4x2x2xf32>
}

// The same under a symbolic batch (video networks exported with a dynamic batch): the slices and
// reshapes carry the batch's expression, the output depths go into a batch of batch * 4.
// CHECK-LABEL: func.func @conv_transpose_3d_batch
// CHECK: ms.pad %arg0 {pads = array<i64: 0, 0, 1, 0, 0, 0, 0, 1, 0, 0>} : (tensor<?x2x3x2x2xf32>) -> tensor<?x2x5x2x2xf32>
// CHECK: ms.slice %{{.+}} {sizes = array<i64: -9223372036854775808, 2, 4, 2, 2>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>, symbolic_sizes = #{{.+}}} : (tensor<?x2x5x2x2xf32>) -> tensor<?x2x4x2x2xf32>
// CHECK: %[[X:.+]] = ms.reshape %{{.+}} {shape = array<i64: -9223372036854775808, 4, 2, 2>, symbolic_shape = #[[DEPTHS]]} : (tensor<?x4x2x2x2x2xf32>) -> tensor<?x4x2x2xf32>
// CHECK: %[[Y:.+]] = ms.conv2d %[[X]], %{{.+}} : (tensor<?x4x2x2xf32>, tensor<1x4x1x1xf32>) -> tensor<?x1x2x2xf32>
// CHECK: ms.reshape %[[Y]] {shape = array<i64: -9223372036854775808, 4, 1, 2, 2>, symbolic_shape = #{{.+}}}
// CHECK-NOT: ms.conv3d
func.func @conv_transpose_3d_batch(%x: tensor<?x2x3x2x2xf32> {ms.shape = affine_map<()[s0] -> (s0, 2, 3, 2, 2)>}, %w: tensor<2x1x2x1x1xf32>) -> tensor<?x1x4x2x2xf32> attributes {ms.symbols = ["batch"]} {
  %y = ms.conv_transpose %x, %w {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>}
      : (tensor<?x2x3x2x2xf32>, tensor<2x1x2x1x1xf32>) -> tensor<?x1x4x2x2xf32>
  return %y : tensor<?x1x4x2x2xf32>
}

// A 3-D pool under a symbolic batch: the two 2-D pools between reshapes of the batch's expression.
// CHECK-LABEL: func.func @pool_3d_batch
// CHECK: ms.reshape %arg0 {shape = array<i64: -9223372036854775808, 10, 6, 6>, symbolic_shape = #{{.+}}}
// CHECK: ms.max_pool %{{.+}} {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x10x6x6xf32>) -> tensor<?x10x3x3xf32>
// CHECK: ms.max_pool %{{.+}} {kernel = array<i64: 3, 1>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 1>} : (tensor<?x2x5x9xf32>) -> tensor<?x2x3x9xf32>
// CHECK: ms.reshape %{{.+}} : (tensor<?x2x3x9xf32>) -> tensor<?x2x3x3x3xf32>
func.func @pool_3d_batch(%x: tensor<?x2x5x6x6xf32> {ms.shape = affine_map<()[s0] -> (s0, 2, 5, 6, 6)>}) -> tensor<?x2x3x3x3xf32> attributes {ms.symbols = ["batch"]} {
  %0 = ms.max_pool %x {kernel = array<i64: 3, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 1, 0, 0, 1, 0, 0>, dilations = array<i64: 1, 1, 1>}
      : (tensor<?x2x5x6x6xf32>) -> tensor<?x2x3x3x3xf32>
  return %0 : tensor<?x2x3x3x3xf32>
}

// Einsum over three operands, a size-1 batch broadcast and a diagonal: b and j appear in the first
// two operands only, so the first matmul sums over both (K = 2 * 4, b's size-1 side expanded);
// then kk's diagonal is contracted with k.
// CHECK-LABEL: func.func @einsum_chain
// CHECK: ms.expand %{{.+}} {shape = array<i64: 2, 4, 5>}
// CHECK: ms.matmul %{{.+}}, %{{.+}} : (tensor<1x3x8xf32>, tensor<1x8x5xf32>) -> tensor<1x3x5xf32>
// CHECK: ms.mul %arg2, %{{.+}} : (tensor<5x5xf32>, tensor<5x5xf32>)
// CHECK: ms.reduce_sum %{{.+}} {axes = array<i64: 1>} : (tensor<5x5xf32>) -> tensor<5xf32>
// CHECK: ms.matmul %{{.+}}, %{{.+}} : (tensor<1x3x5xf32>, tensor<1x5x1xf32>) -> tensor<1x3x1xf32>
// CHECK-NOT: ms.einsum
func.func @einsum_chain(%a: tensor<2x3x4xf32>, %b: tensor<1x4x5xf32>, %c: tensor<5x5xf32>) -> tensor<3xf32> {
  %y = ms.einsum %a, %b, %c {equation = "bij,bjk,kk->i"} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>, tensor<5x5xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// Integer Einsum: ms.matmul is for floats, so the pair is a broadcast product summed over K.
// CHECK-LABEL: func.func @einsum_int
// CHECK: %[[L:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 3, 4, 1>}
// CHECK: %[[R:.+]] = ms.reshape %arg1 {shape = array<i64: 1, 1, 4, 2>}
// CHECK: %[[P:.+]] = ms.mul %[[L]], %[[R]] : (tensor<1x3x4x1xi64>, tensor<1x1x4x2xi64>) -> tensor<1x3x4x2xi64>
// CHECK: ms.reduce_sum %[[P]] {axes = array<i64: 2>} : (tensor<1x3x4x2xi64>) -> tensor<1x3x2xi64>
// CHECK-NOT: ms.matmul
func.func @einsum_int(%a: tensor<3x4xi64>, %b: tensor<4x2xi64>) -> tensor<3x2xi64> {
  %y = ms.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<3x4xi64>, tensor<4x2xi64>) -> tensor<3x2xi64>
  return %y : tensor<3x2xi64>
}

// Einsum over symbolic dims (attention written as einsum under a run-time batch and length): the
// batch flattens and unflattens by symbolic reshapes, the length is the matmul's M or K.
// CHECK-LABEL: func.func @einsum_symbolic
// CHECK: %[[L:.+]] = ms.reshape %arg0 {shape = array<i64: -9223372036854775808, -9223372036854775808, 8>, symbolic_shape = #[[LHS]]} : (tensor<?x2x?x8xf32>) -> tensor<?x?x8xf32>
// CHECK: %[[T:.+]] = ms.transpose %arg1 {perms = array<i64: 0, 1, 3, 2>}
// CHECK: %[[R:.+]] = ms.reshape %[[T]] {shape = array<i64: -9223372036854775808, 8, -9223372036854775808>, symbolic_shape = #[[RHS]]}
// CHECK: %[[P:.+]] = ms.matmul %[[L]], %[[R]] : (tensor<?x?x8xf32>, tensor<?x8x?xf32>) -> tensor<?x?x?xf32>
// CHECK: ms.reshape %[[P]] {shape = array<i64: -9223372036854775808, 2, -9223372036854775808, -9223372036854775808>, symbolic_shape = #[[OUT]]} : (tensor<?x?x?xf32>) -> tensor<?x2x?x?xf32>
// CHECK-NOT: ms.einsum
func.func @einsum_symbolic(%q: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 8)>},
                           %k: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 8)>})
    -> tensor<?x2x?x?xf32> attributes {ms.symbols = ["batch", "seq"]} {
  %y = ms.einsum %q, %k {equation = "bhid,bhjd->bhij"} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x?xf32>
  return %y : tensor<?x2x?x?xf32>
}

// A label whose sides are two different symbols may differ at run time: the einsum stays (the
// lowering reports it).
// CHECK-LABEL: func.func @einsum_symbolic_mismatch
// CHECK: ms.einsum
func.func @einsum_symbolic_mismatch(%a: tensor<?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 8)>},
                                    %b: tensor<?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s1, 8)>})
    -> tensor<?xf32> attributes {ms.symbols = ["batch", "seq"]} {
  %y = ms.einsum %a, %b {equation = "bd,bd->b"} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// 3-D pools: (H, W) pooled over [N, C * D, H, W], then D over [N, C, D, H' * W']; ceil_mode and
// count_include_pad carry over to both.
// CHECK-LABEL: func.func @pool_3d
// CHECK: %[[P:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 10, 6, 6>}
// CHECK: %[[HW:.+]] = ms.max_pool %[[P]] {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x10x6x6xf32>) -> tensor<1x10x3x3xf32>
// CHECK: %[[R:.+]] = ms.reshape %[[HW]] {shape = array<i64: 1, 2, 5, 9>}
// CHECK: %[[D:.+]] = ms.max_pool %[[R]] {kernel = array<i64: 3, 1>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 1>} : (tensor<1x2x5x9xf32>) -> tensor<1x2x3x9xf32>
// CHECK: ms.reshape %[[D]] {shape = array<i64: 1, 2, 3, 3, 3>}
// CHECK: ms.avg_pool %{{.+}} {ceil_mode, count_include_pad, kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x10x6x6xf32>) -> tensor<1x10x3x3xf32>
// CHECK: ms.avg_pool %{{.+}} {ceil_mode, count_include_pad, kernel = array<i64: 2, 1>, strides = array<i64: 2, 1>} : (tensor<1x2x5x9xf32>) -> tensor<1x2x3x9xf32>
func.func @pool_3d(%x: tensor<1x2x5x6x6xf32>) -> (tensor<1x2x3x3x3xf32>, tensor<1x2x3x3x3xf32>) {
  %0 = ms.max_pool %x {kernel = array<i64: 3, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 1, 0, 0, 1, 0, 0>, dilations = array<i64: 1, 1, 1>}
      : (tensor<1x2x5x6x6xf32>) -> tensor<1x2x3x3x3xf32>
  %1 = ms.avg_pool %x {kernel = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, ceil_mode, count_include_pad}
      : (tensor<1x2x5x6x6xf32>) -> tensor<1x2x3x3x3xf32>
  return %0, %1 : tensor<1x2x3x3x3xf32>, tensor<1x2x3x3x3xf32>
}

// The flipped 1-D filter, printed with the resources.
// CHECK: deconv_w.flipped: "0x0400000000004040000000400000803F0000C0400000A04000008040"
{-#
  dialect_resources: {
    builtin: {
      deconv_w: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

