// RUN: ms-opt %s -split-input-file -ms-fold-batchnorm | FileCheck %s

// conv2d + inference batch_norm: s = scale / sqrt(var + eps) = [1/2, 6/3] = [0.5, 2];
// w' = w * s = [0.5, 4]; b' = (0 - mean) * s + beta = [-1 + 1, -2 + 1] = [0, -1].
// Blobs: a 4-byte alignment word, then little-endian f32 (0.5 = 3F000000, 4 = 40800000, -1 = BF800000).

// CHECK-LABEL: func.func @conv_bn
// CHECK: %[[W:.+]] = ms.constant dense_resource<folded_filter> : tensor<2x1x1x1xf32>
// CHECK: %[[B:.+]] = ms.constant dense_resource<folded_bias> : tensor<2xf32>
// CHECK: %[[C:.+]] = ms.conv2d %arg0, %[[W]], %[[B]]
// CHECK-NOT: ms.batch_norm
// CHECK: return %[[C]]
// CHECK: folded_filter: "0x040000000000003F00008040"
// CHECK: folded_bias: "0x0400000000000000000080BF"
func.func @conv_bn(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ms.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %scale = ms.constant dense<[1.0, 6.0]> : tensor<2xf32>
  %beta = ms.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %mean = ms.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %var = ms.constant dense<[3.0, 8.0]> : tensor<2xf32>
  %c = ms.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ms.batch_norm %c, %scale, %beta, %mean, %var {epsilon = 1.0 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// A per-channel Mul then a per-channel Add fold one after the other: w' = w * [2, 4] = [2, 8],
// b' = ([1, 1] * [2, 4]) + [1, -1] = [3, 3].

// CHECK-LABEL: func.func @conv_mul_add
// CHECK: %[[C:.+]] = ms.conv2d %arg0, %{{.+}}, %{{.+}}
// CHECK-NOT: ms.mul
// CHECK-NOT: ms.add
// CHECK: return %[[C]]
// CHECK-DAG: folded_filter{{.*}}: "0x040000000000004000000041"
// CHECK-DAG: folded_bias{{.*}}: "0x040000000000404000004040"
func.func @conv_mul_add(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ms.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %b = ms.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %m = ms.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %a = ms.constant dense<[[[[1.0]], [[-1.0]]]]> : tensor<1x2x1x1xf32>
  %c = ms.conv2d %x, %w, %b : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %s = ms.mul %c, %m : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = ms.add %a, %s : (tensor<1x2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// Not folded: the conv result has a second user (folding would compute it twice), and a constant
// that varies along a spatial dim is not per-channel.

// CHECK-LABEL: func.func @not_foldable
// CHECK: %[[C:.+]] = ms.conv2d
// CHECK: ms.mul %[[C]]
// CHECK: %[[C2:.+]] = ms.conv2d
// CHECK: ms.add %[[C2]]
func.func @not_foldable(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = ms.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %m = ms.constant dense<2.0> : tensor<f32>
  %row = ms.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %c = ms.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %s = ms.mul %c, %m : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %c2 = ms.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %t = ms.add %c2, %row : (tensor<1x2x4x4xf32>, tensor<4xf32>) -> tensor<1x2x4x4xf32>
  return %s, %c, %t : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// A batch_norm that does not follow a conv becomes x * s + t with [C, 1, 1] constants
// (s = [0.5, 2], t = [0, -1]).

// CHECK-LABEL: func.func @bn_alone
// CHECK: %[[S:.+]] = ms.constant dense_resource<bn_scale> : tensor<2x1x1xf32>
// CHECK: %[[T:.+]] = ms.constant dense_resource<bn_shift> : tensor<2x1x1xf32>
// CHECK: %[[M:.+]] = ms.mul %arg0, %[[S]]
// CHECK: %[[A:.+]] = ms.add %[[M]], %[[T]]
// CHECK: return %[[A]]
// CHECK: bn_scale: "0x040000000000003F00000040"
// CHECK: bn_shift: "0x0400000000000000000080BF"
func.func @bn_alone(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %scale = ms.constant dense<[1.0, 6.0]> : tensor<2xf32>
  %beta = ms.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %mean = ms.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %var = ms.constant dense<[3.0, 8.0]> : tensor<2xf32>
  %y = ms.batch_norm %x, %scale, %beta, %mean, %var {epsilon = 1.0 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
