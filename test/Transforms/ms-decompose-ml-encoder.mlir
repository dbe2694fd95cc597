// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// The numeric ai.onnx.ml transforms (DecomposeMlEncoderPatterns.cpp): ms.scaler, ms.normalizer,
// ms.imputer, ms.one_hot_encoder and ms.label_encoder, expanded as the importer expanded
// Scaler, Normalizer, Imputer, OneHotEncoder and LabelEncoder.

// ms.scaler: (cast(x, f32) - offset) * scale, one offset per feature, one scale for all.
// CHECK-LABEL: func.func @scaler
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[V2:.+]] = ms.cast %arg0 : tensor<2x3xf64> to tensor<2x3xf32>
// CHECK-NEXT: %[[V3:.+]] = ms.sub %[[V2]], %[[V0]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.mul %[[V3]], %[[V1]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V4]] : tensor<2x3xf32>
func.func @scaler(%x: tensor<2x3xf64>) -> tensor<2x3xf32> {
  %0 = ms.scaler %x {offset = array<f64: 1.0, 2.0, 3.0>, scale = array<f64: 0.5>} : (tensor<2x3xf64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ms.normalizer max: each row divided by its largest value where that is not 0, in f32.
// CHECK-LABEL: func.func @normalizer_max
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[V1:.+]] = ms.cast %arg0 : tensor<2x3xi32> to tensor<2x3xf32>
// CHECK-NEXT: %[[V2:.+]] = ms.reduce_max %[[V1]] {axes = array<i64: 1>, keep_dims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V3:.+]] = ms.compare ne, %[[V2]], %[[V0]] : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xi1>
// CHECK-NEXT: %[[V4:.+]] = ms.div %[[V1]], %[[V2]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V5:.+]] = ms.where %[[V3]], %[[V4]], %[[V1]] : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V5]] : tensor<2x3xf32>
func.func @normalizer_max(%x: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %0 = ms.normalizer %x {norm = #ms<ml_norm max>} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ms.normalizer l1 on one row: the sum of the magnitudes.
// CHECK-LABEL: func.func @normalizer_l1
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[V1:.+]] = ms.abs %arg0 : tensor<3xf32>
// CHECK-NEXT: %[[V2:.+]] = ms.reduce_sum %[[V1]] {axes = array<i64: 0>, keep_dims} : (tensor<3xf32>) -> tensor<1xf32>
// CHECK-NEXT: %[[V3:.+]] = ms.compare ne, %[[V2]], %[[V0]] : (tensor<1xf32>, tensor<f32>) -> tensor<1xi1>
// CHECK-NEXT: %[[V4:.+]] = ms.div %arg0, %[[V2]] : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V5:.+]] = ms.where %[[V3]], %[[V4]], %arg0 : (tensor<1xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: return %[[V5]] : tensor<3xf32>
func.func @normalizer_l1(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ms.normalizer %x {norm = #ms<ml_norm l1>} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// ms.normalizer l2: the Euclidean norm.
// CHECK-LABEL: func.func @normalizer_l2
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[V1:.+]] = ms.mul %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V2:.+]] = ms.reduce_sum %[[V1]] {axes = array<i64: 1>, keep_dims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V3:.+]] = ms.sqrt %[[V2]] : tensor<2x1xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.compare ne, %[[V3]], %[[V0]] : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xi1>
// CHECK-NEXT: %[[V5:.+]] = ms.div %arg0, %[[V3]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V6:.+]] = ms.where %[[V4]], %[[V5]], %arg0 : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V6]] : tensor<2x3xf32>
func.func @normalizer_l2(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.normalizer %x {norm = #ms<ml_norm l2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ms.imputer of NaN: the NaNs (x != x) become their feature's value.
// CHECK-LABEL: func.func @imputer_nan
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[V1:.+]] = ms.compare ne, %arg0, %arg0 : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xi1>
// CHECK-NEXT: %[[V2:.+]] = ms.where %[[V1]], %[[V0]], %arg0 : (tensor<3x2xi1>, tensor<2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[V2]] : tensor<3x2xf32>
func.func @imputer_nan(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = ms.imputer %x {imputed_values = array<f64: 1.0, 2.0>, replaced_value = 0x7FF8000000000000 : f64} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// ms.imputer on int64 with one value for every feature and the marker -1.
// CHECK-LABEL: func.func @imputer_int
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<7> : tensor<i64>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<-1> : tensor<i64>
// CHECK: %[[V2:.+]] = ms.compare eq, %arg0, %[[V1]] : (tensor<3x2xi64>, tensor<i64>) -> tensor<3x2xi1>
// CHECK-NEXT: %[[V3:.+]] = ms.where %[[V2]], %[[V0]], %arg0 : (tensor<3x2xi1>, tensor<i64>, tensor<3x2xi64>) -> tensor<3x2xi64>
// CHECK-NEXT: return %[[V3]] : tensor<3x2xi64>
func.func @imputer_int(%x: tensor<3x2xi64>) -> tensor<3x2xi64> {
  %0 = ms.imputer %x {imputed_values = array<f64: 7.0>, replaced_value = -1.0 : f64} : (tensor<3x2xi64>) -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}

// -----

// ms.one_hot_encoder: x converted to int64 against the categories; category 1, listed twice,
// counts at its last position (the mask).
// CHECK-LABEL: func.func @one_hot_encoder
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<[1, 3, 1]> : tensor<3xi64>
// CHECK: %[[V2:.+]] = ms.cast %arg0 : tensor<4xf32> to tensor<4xi64>
// CHECK-NEXT: %[[V3:.+]] = ms.reshape %[[V2]] {shape = array<i64: 4, 1>} : (tensor<4xi64>) -> tensor<4x1xi64>
// CHECK-NEXT: %[[V4:.+]] = ms.compare eq, %[[V3]], %[[V1]] : (tensor<4x1xi64>, tensor<3xi64>) -> tensor<4x3xi1>
// CHECK-NEXT: %[[V5:.+]] = ms.and %[[V4]], %[[V0]] : (tensor<4x3xi1>, tensor<3xi1>) -> tensor<4x3xi1>
// CHECK-NEXT: %[[V6:.+]] = ms.cast %[[V5]] : tensor<4x3xi1> to tensor<4x3xf32>
// CHECK-NEXT: return %[[V6]] : tensor<4x3xf32>
func.func @one_hot_encoder(%x: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = ms.one_hot_encoder %x {categories = array<i64: 1, 3, 1>} : (tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// ms.label_encoder of compact int64 keys: slot x - 1 of the dense tables of which key a slot
// holds and whether one does.
// CHECK-LABEL: func.func @label_encoder_dense
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<[true, false, true, false, true]> : tensor<5xi1>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<[0, 0, 2, 0, 1]> : tensor<5xi64>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<5> : tensor<i64>
// CHECK-DAG: %[[V3:.+]] = ms.constant dense<-1.000000e+00> : tensor<f32>
// CHECK-DAG: %[[V4:.+]] = ms.constant dense<[5.000000e-01, 1.500000e+00, 2.500000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[V5:.+]] = ms.constant dense<1> : tensor<i64>
// CHECK: %[[V6:.+]] = ms.compare ge, %arg0, %[[V5]] : (tensor<4xi64>, tensor<i64>) -> tensor<4xi1>
// CHECK-NEXT: %[[V7:.+]] = ms.compare le, %arg0, %[[V2]] : (tensor<4xi64>, tensor<i64>) -> tensor<4xi1>
// CHECK-NEXT: %[[V8:.+]] = ms.and %[[V6]], %[[V7]] : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: %[[V9:.+]] = ms.where %[[V8]], %arg0, %[[V5]] : (tensor<4xi1>, tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT: %[[V10:.+]] = ms.sub %[[V9]], %[[V5]] : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT: %[[V11:.+]] = ms.gather %[[V1]], %[[V10]] : (tensor<5xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT: %[[V12:.+]] = ms.gather %[[V0]], %[[V10]] : (tensor<5xi1>, tensor<4xi64>) -> tensor<4xi1>
// CHECK-NEXT: %[[V13:.+]] = ms.and %[[V8]], %[[V12]] : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: %[[V14:.+]] = ms.gather %[[V4]], %[[V11]] : (tensor<3xf32>, tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT: %[[V15:.+]] = ms.where %[[V13]], %[[V14]], %[[V3]] : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V15]] : tensor<4xf32>
func.func @label_encoder_dense(%x: tensor<4xi64>) -> tensor<4xf32> {
  %0 = ms.label_encoder %x {keys = dense<[1, 5, 3]> : tensor<3xi64>, values = dense<[0.5, 1.5, 2.5]> : tensor<3xf32>, default_value = dense<-1.0> : tensor<f32>} : (tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ms.label_encoder of scattered keys: every element compared with every key, the first match
// by argmax, else the default.
// CHECK-LABEL: func.func @label_encoder_compare
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<[1, 5000, 9000000]> : tensor<3xi64>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<-1.000000e+00> : tensor<f32>
// CHECK-DAG: %[[V3:.+]] = ms.constant dense<[5.000000e-01, 1.500000e+00, 2.500000e+00]> : tensor<3xf32>
// CHECK: %[[V4:.+]] = ms.reshape %arg0 {shape = array<i64: 4, 1>} : (tensor<4xi64>) -> tensor<4x1xi64>
// CHECK-NEXT: %[[V5:.+]] = ms.compare eq, %[[V4]], %[[V1]] : (tensor<4x1xi64>, tensor<3xi64>) -> tensor<4x3xi1>
// CHECK-NEXT: %[[V6:.+]] = ms.cast %[[V5]] : tensor<4x3xi1> to tensor<4x3xf32>
// CHECK-NEXT: %[[V7:.+]] = ms.reduce_max %[[V6]] {axes = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V8:.+]] = ms.compare gt, %[[V7]], %[[V0]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
// CHECK-NEXT: %[[V9:.+]] = ms.arg_max %[[V6]] {axis = 1 : i64} : (tensor<4x3xf32>) -> tensor<4xi64>
// CHECK-NEXT: %[[V10:.+]] = ms.gather %[[V3]], %[[V9]] : (tensor<3xf32>, tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT: %[[V11:.+]] = ms.where %[[V8]], %[[V10]], %[[V2]] : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V11]] : tensor<4xf32>
func.func @label_encoder_compare(%x: tensor<4xi64>) -> tensor<4xf32> {
  %0 = ms.label_encoder %x {keys = dense<[1, 5000, 9000000]> : tensor<3xi64>, values = dense<[0.5, 1.5, 2.5]> : tensor<3xf32>, default_value = dense<-1.0> : tensor<f32>} : (tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ms.label_encoder with a NaN key that matches NaN (ai.onnx.ml 4): x != x masked by the NaN key's
// column.
// CHECK-LABEL: func.func @label_encoder_nan
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<[false, true]> : tensor<2xi1>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<[5.000000e-01, 0x7FC00000]> : tensor<2xf32>
// CHECK-DAG: %[[V3:.+]] = ms.constant dense<-1> : tensor<i64>
// CHECK-DAG: %[[V4:.+]] = ms.constant dense<[3, 4]> : tensor<2xi64>
// CHECK: %[[V5:.+]] = ms.reshape %arg0 {shape = array<i64: 2, 1>} : (tensor<2xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V6:.+]] = ms.compare eq, %[[V5]], %[[V2]] : (tensor<2x1xf32>, tensor<2xf32>) -> tensor<2x2xi1>
// CHECK-NEXT: %[[V7:.+]] = ms.compare ne, %[[V5]], %[[V5]] : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xi1>
// CHECK-NEXT: %[[V8:.+]] = ms.and %[[V7]], %[[V1]] : (tensor<2x1xi1>, tensor<2xi1>) -> tensor<2x2xi1>
// CHECK-NEXT: %[[V9:.+]] = ms.or %[[V6]], %[[V8]] : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
// CHECK-NEXT: %[[V10:.+]] = ms.cast %[[V9]] : tensor<2x2xi1> to tensor<2x2xf32>
// CHECK-NEXT: %[[V11:.+]] = ms.reduce_max %[[V10]] {axes = array<i64: 1>} : (tensor<2x2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V12:.+]] = ms.compare gt, %[[V11]], %[[V0]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xi1>
// CHECK-NEXT: %[[V13:.+]] = ms.arg_max %[[V10]] {axis = 1 : i64} : (tensor<2x2xf32>) -> tensor<2xi64>
// CHECK-NEXT: %[[V14:.+]] = ms.gather %[[V4]], %[[V13]] : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT: %[[V15:.+]] = ms.where %[[V12]], %[[V14]], %[[V3]] : (tensor<2xi1>, tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
// CHECK-NEXT: return %[[V15]] : tensor<2xi64>
func.func @label_encoder_nan(%x: tensor<2xf32>) -> tensor<2xi64> {
  %0 = ms.label_encoder %x {keys = dense<[0.5, 0x7FC00000]> : tensor<2xf32>, values = dense<[3, 4]> : tensor<2xi64>, default_value = dense<-1> : tensor<i64>, nan_matches_nan} : (tensor<2xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
