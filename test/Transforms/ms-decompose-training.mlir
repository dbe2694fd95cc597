// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// The optimizer steps of ai.onnx.preview.training (DecomposeTrainingPatterns.cpp): ms.adagrad,
// ms.momentum and ms.adam as elementwise ops, R and T converted to the tensors' type.

// ms.adagrad: r = R / (1 + T decay), G' = norm X + G, H' = H + G'^2, X' = X - r G' / (sqrt(H') + eps).
// CHECK-LABEL: func.func @adagrad
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<9.99999997E-7> : tensor<f32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<0.00999999977> : tensor<f32>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<1.000000e-01> : tensor<f32>
// CHECK-DAG: %[[V3:.+]] = ms.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[V4:.+]] = ms.cast %arg1 : tensor<i64> to tensor<f32>
// CHECK-NEXT: %[[V5:.+]] = ms.mul %[[V4]], %[[V2]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V6:.+]] = ms.add %[[V5]], %[[V3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V7:.+]] = ms.div %arg0, %[[V6]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V8:.+]] = ms.mul %arg2, %[[V1]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V9:.+]] = ms.add %[[V8]], %arg3 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V10:.+]] = ms.mul %[[V9]], %[[V9]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V11:.+]] = ms.add %arg4, %[[V10]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V12:.+]] = ms.mul %[[V7]], %[[V9]] : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V13:.+]] = ms.sqrt %[[V11]] : tensor<2xf32>
// CHECK-NEXT: %[[V14:.+]] = ms.add %[[V13]], %[[V0]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V15:.+]] = ms.div %[[V12]], %[[V14]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V16:.+]] = ms.sub %arg2, %[[V15]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[V16]], %[[V11]] : tensor<2xf32>, tensor<2xf32>
func.func @adagrad(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %h: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %x1, %h1 = ms.adagrad %r, %t, %x, %g, %h {decay_factor = 0.1 : f64, epsilon = 1.0e-06 : f64, norm_coefficient = 0.01 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %x1, %h1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// ms.momentum (standard): V' = alpha V + (T > 0 ? beta : 1) G', X' = X - R V'.
// CHECK-LABEL: func.func @momentum
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<0.899999976> : tensor<f32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<1.000000e-01> : tensor<f32>
// CHECK-DAG: %[[V3:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[V4:.+]] = ms.cast %arg1 : tensor<i64> to tensor<f32>
// CHECK-NEXT: %[[V5:.+]] = ms.compare gt, %[[V4]], %[[V3]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: %[[V6:.+]] = ms.where %[[V5]], %[[V2]], %[[V1]] : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V7:.+]] = ms.mul %arg2, %[[V3]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V8:.+]] = ms.add %[[V7]], %arg3 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V9:.+]] = ms.mul %arg4, %[[V0]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V10:.+]] = ms.mul %[[V6]], %[[V8]] : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V11:.+]] = ms.add %[[V9]], %[[V10]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V12:.+]] = ms.mul %arg0, %[[V11]] : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V13:.+]] = ms.sub %arg2, %[[V12]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[V13]], %[[V11]] : tensor<2xf32>, tensor<2xf32>
func.func @momentum(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %x1, %v1 = ms.momentum %r, %t, %x, %g, %v {alpha = 0.9 : f64, beta = 0.1 : f64, norm_coefficient = 0.0 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %x1, %v1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// ms.momentum nesterov over two tensors in f64 with [1] R and T: X' = X - R (G' + alpha V'), each
// tensor its own chain, results X'... then V'....
// CHECK-LABEL: func.func @nesterov
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<9.000000e-01> : tensor<f64>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<1.000000e+00> : tensor<f64>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<1.000000e-01> : tensor<f64>
// CHECK-DAG: %[[V3:.+]] = ms.constant dense<0.000000e+00> : tensor<f64>
// CHECK: %[[V4:.+]] = ms.reshape %arg0 {shape = array<i64>} : (tensor<1xf64>) -> tensor<f64>
// CHECK-NEXT: %[[V5:.+]] = ms.cast %arg1 : tensor<1xi64> to tensor<1xf64>
// CHECK-NEXT: %[[V6:.+]] = ms.reshape %[[V5]] {shape = array<i64>} : (tensor<1xf64>) -> tensor<f64>
// CHECK-NEXT: %[[V7:.+]] = ms.compare gt, %[[V6]], %[[V3]] : (tensor<f64>, tensor<f64>) -> tensor<i1>
// CHECK-NEXT: %[[V8:.+]] = ms.where %[[V7]], %[[V2]], %[[V1]] : (tensor<i1>, tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK-NEXT: %[[V9:.+]] = ms.mul %arg2, %[[V3]] : (tensor<2xf64>, tensor<f64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V10:.+]] = ms.add %[[V9]], %arg4 : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V11:.+]] = ms.mul %arg6, %[[V0]] : (tensor<2xf64>, tensor<f64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V12:.+]] = ms.mul %[[V8]], %[[V10]] : (tensor<f64>, tensor<2xf64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V13:.+]] = ms.add %[[V11]], %[[V12]] : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V14:.+]] = ms.mul %[[V13]], %[[V0]] : (tensor<2xf64>, tensor<f64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V15:.+]] = ms.add %[[V10]], %[[V14]] : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V16:.+]] = ms.mul %[[V4]], %[[V15]] : (tensor<f64>, tensor<2xf64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V17:.+]] = ms.sub %arg2, %[[V16]] : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
// CHECK-NEXT: %[[V18:.+]] = ms.mul %arg3, %[[V3]] : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
// CHECK-NEXT: %[[V19:.+]] = ms.add %[[V18]], %arg5 : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
// CHECK-NEXT: %[[V20:.+]] = ms.mul %arg7, %[[V0]] : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
// CHECK-NEXT: %[[V21:.+]] = ms.mul %[[V8]], %[[V19]] : (tensor<f64>, tensor<3xf64>) -> tensor<3xf64>
// CHECK-NEXT: %[[V22:.+]] = ms.add %[[V20]], %[[V21]] : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
// CHECK-NEXT: %[[V23:.+]] = ms.mul %[[V22]], %[[V0]] : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
// CHECK-NEXT: %[[V24:.+]] = ms.add %[[V19]], %[[V23]] : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
// CHECK-NEXT: %[[V25:.+]] = ms.mul %[[V4]], %[[V24]] : (tensor<f64>, tensor<3xf64>) -> tensor<3xf64>
// CHECK-NEXT: %[[V26:.+]] = ms.sub %arg3, %[[V25]] : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
// CHECK-NEXT: return %[[V17]], %[[V26]], %[[V13]], %[[V22]] : tensor<2xf64>, tensor<3xf64>, tensor<2xf64>, tensor<3xf64>
func.func @nesterov(%r: tensor<1xf64>, %t: tensor<1xi64>, %x: tensor<2xf64>, %y: tensor<3xf64>, %gx: tensor<2xf64>, %gy: tensor<3xf64>, %vx: tensor<2xf64>, %vy: tensor<3xf64>) -> (tensor<2xf64>, tensor<3xf64>, tensor<2xf64>, tensor<3xf64>) {
  %0:4 = ms.momentum %r, %t, %x, %y, %gx, %gy, %vx, %vy {alpha = 0.9 : f64, beta = 0.1 : f64, norm_coefficient = 0.0 : f64, nesterov} : (tensor<1xf64>, tensor<1xi64>, tensor<2xf64>, tensor<3xf64>, tensor<2xf64>, tensor<3xf64>, tensor<2xf64>, tensor<3xf64>) -> (tensor<2xf64>, tensor<3xf64>, tensor<2xf64>, tensor<3xf64>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<2xf64>, tensor<3xf64>, tensor<2xf64>, tensor<3xf64>
}

// -----

// ms.adam: the bias-corrected rate where T > 0, the moments, then X' scaled by 1 - norm_post.
// CHECK-LABEL: func.func @adam
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<9.99999997E-7> : tensor<f32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<1.000000e-03> : tensor<f32>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<1.000000e-01> : tensor<f32>
// CHECK-DAG: %[[V3:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[V4:.+]] = ms.constant dense<0.899999976> : tensor<f32>
// CHECK-DAG: %[[V5:.+]] = ms.constant dense<9.990000e-01> : tensor<f32>
// CHECK-DAG: %[[V6:.+]] = ms.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[V7:.+]] = ms.cast %arg1 : tensor<i64> to tensor<f32>
// CHECK-NEXT: %[[V8:.+]] = ms.pow %[[V5]], %[[V7]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V9:.+]] = ms.sub %[[V6]], %[[V8]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V10:.+]] = ms.sqrt %[[V9]] : tensor<f32>
// CHECK-NEXT: %[[V11:.+]] = ms.mul %arg0, %[[V10]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V12:.+]] = ms.pow %[[V4]], %[[V7]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V13:.+]] = ms.sub %[[V6]], %[[V12]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V14:.+]] = ms.div %[[V11]], %[[V13]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V15:.+]] = ms.compare gt, %[[V7]], %[[V3]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: %[[V16:.+]] = ms.where %[[V15]], %[[V14]], %arg0 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[V17:.+]] = ms.mul %arg2, %[[V3]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V18:.+]] = ms.add %[[V17]], %arg3 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V19:.+]] = ms.mul %arg4, %[[V4]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V20:.+]] = ms.mul %[[V18]], %[[V2]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V21:.+]] = ms.add %[[V19]], %[[V20]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V22:.+]] = ms.mul %arg5, %[[V5]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V23:.+]] = ms.mul %[[V18]], %[[V18]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V24:.+]] = ms.mul %[[V23]], %[[V1]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V25:.+]] = ms.add %[[V22]], %[[V24]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V26:.+]] = ms.mul %[[V16]], %[[V21]] : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V27:.+]] = ms.sqrt %[[V25]] : tensor<2xf32>
// CHECK-NEXT: %[[V28:.+]] = ms.add %[[V27]], %[[V0]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V29:.+]] = ms.div %[[V26]], %[[V28]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[V30:.+]] = ms.sub %arg2, %[[V29]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[V30]], %[[V21]], %[[V25]] : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
func.func @adam(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>, %h: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %x1, %v1, %h1 = ms.adam %r, %t, %x, %g, %v, %h {alpha = 0.9 : f64, beta = 0.999 : f64, epsilon = 1.0e-06 : f64, norm_coefficient = 0.0 : f64, norm_coefficient_post = 0.0 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %x1, %v1, %h1 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
