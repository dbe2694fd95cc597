// RUN: ms-opt %s -split-input-file -ms-assign-layout | FileCheck %s
// RUN: ms-opt %s -split-input-file -ms-assign-layout=layout=nchw | FileCheck %s --check-prefix=NCHW
// RUN: not ms-opt %s -split-input-file -ms-assign-layout=layout=nchwc 2>&1 | FileCheck %s --check-prefix=BAD

// NCHW: func.func @mobilenet_block
// NCHW-NOT: ms.matmul
// NCHW-NOT: channels_last
// BAD: ms-assign-layout: unknown layout 'nchwc' (expected nhwc or nchw)

// A MobileNet stem and block: the stem (3x3, one group) stays NCHW and its output is transposed
// once; the depthwise convolution runs channels last, the 1x1 one becomes a matmul by the
// transposed [C, F] weight plus the bias, the residual add and the clips follow the layout, and
// the global pool becomes a mean over H and W whose 1x1 result leaves by a reshape.

// CHECK-LABEL: func.func @mobilenet_block
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x8x8xf32>
// CHECK: %[[STEM:.+]] = ms.conv2d %[[X]], %{{.+}} {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : {{.+}} -> tensor<1x2x4x4xf32>
// CHECK: %[[T:.+]] = ms.transpose %[[STEM]] {perms = array<i64: 0, 2, 3, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[C1:.+]] = ms.clip %[[T]] {{.+}} : tensor<1x4x4x2xf32>
// CHECK: %[[DW:.+]] = ms.conv2d %[[C1]], %{{.+}} {channels_last, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x3x3xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[C2:.+]] = ms.clip %[[DW]]
// CHECK: %[[PW:.+]] = ms.constant dense<{{\[}}[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK: %[[MM:.+]] = ms.matmul %[[C2]], %[[PW]] : (tensor<1x4x4x2xf32>, tensor<2x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[B:.+]] = ms.add %[[MM]], %{{.+}} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[R:.+]] = ms.add %[[B]], %[[C1]] : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[M:.+]] = ms.reduce_mean %[[R]] {axes = array<i64: 1, 2>, keep_dims} : (tensor<1x4x4x2xf32>) -> tensor<1x1x1x2xf32>
// CHECK: %[[BACK:.+]] = ms.reshape %[[M]] {shape = array<i64: 1, 2, 1, 1>} : (tensor<1x1x1x2xf32>) -> tensor<1x2x1x1xf32>
// CHECK: ms.flatten %[[BACK]]
// CHECK-NOT: ms.transpose
// CHECK-NOT: ms.global_avg_pool
func.func @mobilenet_block(%x: tensor<1x3x8x8xf32>) -> tensor<1x2xf32> {
  %ws = ms.constant dense<0.5> : tensor<2x3x3x3xf32>
  %wd = ms.constant dense<0.25> : tensor<2x1x3x3xf32>
  %wp = ms.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>
  %bp = ms.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %s = ms.conv2d %x, %ws {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  %c1 = ms.clip %s {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x2x4x4xf32>
  %d = ms.conv2d %c1, %wd {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
  %c2 = ms.clip %d {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x2x4x4xf32>
  %p = ms.conv2d %c2, %wp, %bp : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = ms.add %p, %c1 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %g = ms.global_avg_pool %r : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  %f = ms.flatten %g {axis = 1 : i64} : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32>
  return %f : tensor<1x2xf32>
}

// -----

// Graph inputs enter and graph outputs leave by one transpose each; a constant operand broadcast
// along the channels ([C, 1, 1]) is transposed with the values ([1, 1, 1, C]).

// CHECK-LABEL: func.func @graph_boundaries
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x5x5xf32>
// CHECK: %[[T:.+]] = ms.transpose %[[X]] {perms = array<i64: 0, 2, 3, 1>}
// CHECK: %[[D:.+]] = ms.conv2d %[[T]], %{{.+}} {channels_last, groups = 2 : i64, strides = array<i64: 2, 2>}
// CHECK: %[[S:.+]] = ms.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00]]]]> : tensor<1x1x1x2xf32>
// CHECK: %[[M:.+]] = ms.mul %[[D]], %[[S]] : (tensor<1x2x2x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK: %[[Y:.+]] = ms.transpose %[[M]] {perms = array<i64: 0, 3, 1, 2>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK: return %[[Y]]
func.func @graph_boundaries(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32> {
  %w = ms.constant dense<1.0> : tensor<2x1x3x3xf32>
  %s = ms.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %d = ms.conv2d %x, %w {groups = 2 : i64, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x2x2xf32>
  %m = ms.mul %d, %s : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %m : tensor<1x2x2x2xf32>
}

// -----

// Squeeze-and-excitation: the pooled [N, C, 1, 1] branch runs its 1x1 convolutions channels last
// too and scales the feature map in the same layout.

// CHECK-LABEL: func.func @squeeze_excite
// CHECK: %[[D:.+]] = ms.conv2d %{{.+}} {channels_last, groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>}
// CHECK: %[[P:.+]] = ms.reduce_mean %[[D]] {axes = array<i64: 1, 2>, keep_dims} : (tensor<1x6x6x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK: %[[FC:.+]] = ms.matmul %[[P]], %{{.+}} : (tensor<1x1x1x4xf32>, tensor<4x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK: %[[G:.+]] = ms.sigmoid %[[FC]] : tensor<1x1x1x4xf32>
// CHECK: %[[Y:.+]] = ms.mul %[[D]], %[[G]] : (tensor<1x6x6x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK: ms.transpose %[[Y]] {perms = array<i64: 0, 3, 1, 2>}
func.func @squeeze_excite(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %wd = ms.constant dense<0.5> : tensor<4x1x3x3xf32>
  %wf = ms.constant dense<0.125> : tensor<4x4x1x1xf32>
  %d = ms.conv2d %x, %wd {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %p = ms.global_avg_pool %d : (tensor<1x4x6x6xf32>) -> tensor<1x4x1x1xf32>
  %f = ms.conv2d %p, %wf : (tensor<1x4x1x1xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %g = ms.sigmoid %f : tensor<1x4x1x1xf32>
  %y = ms.mul %d, %g : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

// A ResNet bottleneck: the 1x1 convolutions feed a 3x3 one of one group, which needs NCHW, so the
// whole component stays NCHW (no transposes between kernels).

// CHECK-LABEL: func.func @resnet_bottleneck
// CHECK-NOT: ms.transpose
// CHECK-NOT: ms.matmul
// CHECK-NOT: channels_last
// CHECK: return
func.func @resnet_bottleneck(%x: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w1 = ms.constant dense<0.5> : tensor<4x8x1x1xf32>
  %w2 = ms.constant dense<0.5> : tensor<4x4x3x3xf32>
  %w3 = ms.constant dense<0.5> : tensor<8x4x1x1xf32>
  %a = ms.conv2d %x, %w1 : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32>
  %ra = ms.relu %a : tensor<1x4x6x6xf32>
  %b = ms.conv2d %ra, %w2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %rb = ms.relu %b : tensor<1x4x6x6xf32>
  %c = ms.conv2d %rb, %w3 : (tensor<1x4x6x6xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32>
  %s = ms.add %c, %x : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %y = ms.relu %s : tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}

// -----

// No convolution runs channels last: elementwise ops and a pool alone stay NCHW.

// CHECK-LABEL: func.func @no_convolution
// CHECK-NOT: ms.transpose
// CHECK: ms.global_avg_pool
func.func @no_convolution(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x1x1xf32> {
  %r = ms.relu %x : tensor<1x4x6x6xf32>
  %p = ms.global_avg_pool %r : (tensor<1x4x6x6xf32>) -> tensor<1x4x1x1xf32>
  return %p : tensor<1x4x1x1xf32>
}

// -----

// A value broadcast from a lower rank that is not a constant would need its own transpose.

// CHECK-LABEL: func.func @non_constant_broadcast
// CHECK-NOT: ms.transpose
// CHECK-NOT: channels_last
// CHECK: return
func.func @non_constant_broadcast(%x: tensor<1x4x6x6xf32>, %v: tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %w = ms.constant dense<0.5> : tensor<4x1x3x3xf32>
  %d = ms.conv2d %x, %w {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %m = ms.mul %d, %v : (tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32>
  return %m : tensor<1x4x6x6xf32>
}

// -----

// A feature map read by an op that needs NCHW (a max pool) keeps its component NCHW.

// CHECK-LABEL: func.func @nchw_reader
// CHECK-NOT: ms.transpose
// CHECK-NOT: channels_last
// CHECK: ms.max_pool
func.func @nchw_reader(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32> {
  %w = ms.constant dense<0.5> : tensor<4x1x3x3xf32>
  %d = ms.conv2d %x, %w {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %mp = ms.max_pool %d {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
  return %mp : tensor<1x4x3x3xf32>
}

// -----

// Reduced precision: the casts are elementwise and move with the layout; a bf16 weight is
// transposed in its own type, and the product keeps its accumulation type.

// CHECK-LABEL: func.func @bf16_pointwise
// CHECK: %[[T:.+]] = ms.transpose %arg0 {perms = array<i64: 0, 2, 3, 1>}
// CHECK: %[[C:.+]] = ms.cast %[[T]] : tensor<1x3x3x2xf32> to tensor<1x3x3x2xbf16>
// CHECK: %[[D:.+]] = ms.conv2d %[[C]], %{{.+}} {acc_type = f32, channels_last, groups = 2 : i64}
// CHECK: %[[W:.+]] = ms.constant dense<{{\[}}[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xbf16>
// CHECK: ms.matmul %[[D]], %[[W]] {acc_type = f32} : (tensor<1x2x2x2xbf16>, tensor<2x2xbf16>) -> tensor<1x2x2x2xbf16>
func.func @bf16_pointwise(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %wd = ms.constant dense<1.0> : tensor<2x1x2x2xbf16>
  %wp = ms.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xbf16>
  %c = ms.cast %x : tensor<1x2x3x3xf32> to tensor<1x2x3x3xbf16>
  %d = ms.conv2d %c, %wd {groups = 2 : i64, acc_type = f32} : (tensor<1x2x3x3xbf16>, tensor<2x1x2x2xbf16>) -> tensor<1x2x2x2xbf16>
  %p = ms.conv2d %d, %wp {acc_type = f32} : (tensor<1x2x2x2xbf16>, tensor<2x2x1x1xbf16>) -> tensor<1x2x2x2xbf16>
  %y = ms.cast %p : tensor<1x2x2x2xbf16> to tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}
