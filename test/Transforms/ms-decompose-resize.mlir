// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// ms.interpolate (DecomposeResizePatterns.cpp): one product per resized axis with its [in, out]
// interpolation matrix, built tap for tap as ONNX's reference does.

// Cubic (Keys, a = -0.75) with half_pixel on two axes: the last axis first, as a product with
// its [in, out] matrix, then the other moved last, multiplied and moved back.
// CHECK-LABEL: func.func @cubic
// CHECK-DAG: %[[MH:.+]] = ms.constant dense<{{\[\[}}1.10546875, 0.7734375, {{.+}}> : tensor<4x8xf32>
// CHECK-DAG: %[[MW:.+]] = ms.constant dense<{{\[\[}}1.08680558, 5.000000e-01, {{.+}}> : tensor<4x6xf32>
// CHECK: %[[W:.+]] = ms.matmul %arg0, %[[MW]] : (tensor<1x1x4x4xf32>, tensor<4x6xf32>) -> tensor<1x1x4x6xf32>
// CHECK-NEXT: %[[T:.+]] = ms.transpose %[[W]] {perms = array<i64: 0, 1, 3, 2>}
// CHECK-NEXT: %[[H:.+]] = ms.matmul %[[T]], %[[MH]] : (tensor<1x1x6x4xf32>, tensor<4x8xf32>) -> tensor<1x1x6x8xf32>
// CHECK-NEXT: %[[Y:.+]] = ms.transpose %[[H]] {perms = array<i64: 0, 1, 3, 2>}
// CHECK-NEXT: return %[[Y]]
func.func @cubic(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x6xf32> {
  %y = ms.interpolate %x {sizes = array<i64: 1, 1, 8, 6>,
      scales = array<f64: 1.0, 1.0, 2.0, 1.5>, axes = array<i64: 2, 3>,
      mode = #ms<interpolation cubic>,
      coordinate_transformation_mode = #ms<resize_transform half_pixel>,
      nearest_modes = [#ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>,
                       #ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>],
      roi = array<f64: 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0>, cubic_coeff_a = -0.75 : f64,
      extrapolation_value = 0.0 : f64}
      : (tensor<1x1x4x4xf32>) -> tensor<1x1x8x6xf32>
  return %y : tensor<1x1x8x6xf32>
}

// -----

// tf_crop_and_resize: axis 0 (roi 0..1, scale 1) is the identity and skipped; on axis 1 the
// output position beyond the input reads extrapolation_value, added as a bias.
// CHECK-LABEL: func.func @crop
// CHECK-DAG: %[[BIAS:.+]] = ms.constant dense<[0.000000e+00, 0.000000e+00, 1.000000e+01]> : tensor<3xf32>
// CHECK-DAG: %[[M:.+]] = ms.constant dense<{{.+}}> : tensor<5x3xf32>
// CHECK: %[[P:.+]] = ms.matmul %arg0, %[[M]] : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[Y:.+]] = ms.add %[[P]], %[[BIAS]]
// CHECK-NEXT: return %[[Y]]
func.func @crop(%x: tensor<2x5xf32>) -> tensor<2x3xf32> {
  %y = ms.interpolate %x {sizes = array<i64: 2, 3>, scales = array<f64: 1.0, 0.6>,
      axes = array<i64: 0, 1>, mode = #ms<interpolation linear>,
      coordinate_transformation_mode = #ms<resize_transform tf_crop_and_resize>,
      nearest_modes = [#ms<nearest_mode floor>, #ms<nearest_mode floor>],
      roi = array<f64: 0.0, 0.5, 1.0, 1.5>, cubic_coeff_a = -0.75 : f64,
      extrapolation_value = 10.0 : f64}
      : (tensor<2x5xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Antialiased linear downsampling by 2 with half_pixel_symmetric and exclude_outside: a triangle
// filter twice as wide (four taps), renormalized inside the input.
// CHECK-LABEL: func.func @linear_antialias
// CHECK: %[[M:.+]] = ms.constant dense<{{\[\[}}0.428571433, 0.000000e+00, 0.000000e+00], [0.428571433, 1.250000e-01, 0.000000e+00]{{.+}}> : tensor<6x3xf32>
// CHECK-NEXT: %[[Y:.+]] = ms.matmul %arg0, %[[M]] : (tensor<1x6xf32>, tensor<6x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: return %[[Y]]
func.func @linear_antialias(%x: tensor<1x6xf32>) -> tensor<1x3xf32> {
  %y = ms.interpolate %x {sizes = array<i64: 1, 3>, scales = array<f64: 1.0, 0.5>,
      axes = array<i64: 1>, mode = #ms<interpolation linear>,
      coordinate_transformation_mode = #ms<resize_transform half_pixel_symmetric>,
      nearest_modes = [#ms<nearest_mode floor>, #ms<nearest_mode floor>],
      roi = array<f64: 0.0, 0.0, 1.0, 1.0>, cubic_coeff_a = -0.75 : f64,
      extrapolation_value = 0.0 : f64, antialias, exclude_outside}
      : (tensor<1x6xf32>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}
