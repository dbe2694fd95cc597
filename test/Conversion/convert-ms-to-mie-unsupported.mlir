// RUN: ms-opt %s -split-input-file -convert-ms-to-mie -verify-diagnostics

// Tests that an ms op without a lowering is reported at its own location and fails the pass.

func.func @softmax(%x: tensor<1x128xf32>) -> tensor<1x128xf32> {
  // expected-error @+1 {{no lowering to mie for 'ms.softmax' yet}}
  %0 = ms.softmax %x {axis = -1 : i64} : (tensor<1x128xf32>) -> tensor<1x128xf32>
  return %0 : tensor<1x128xf32>
}

// -----

// Tests that every unsupported op is reported, not only the first, while supported ones around them
// are not.

func.func @several(%x: tensor<1x128xf32>) -> tensor<1x1xf32> {
  %0 = ms.relu %x : tensor<1x128xf32>
  // expected-error @+1 {{no lowering to mie for 'ms.softmax' yet}}
  %1 = ms.softmax %0 {axis = 1 : i64} : (tensor<1x128xf32>) -> tensor<1x128xf32>
  // expected-error @+1 {{no lowering to mie for 'ms.reduce_sum' yet}}
  %2 = ms.reduce_sum %1 {axes = array<i64: 1>, keep_dims} : (tensor<1x128xf32>) -> tensor<1x1xf32>
  return %2 : tensor<1x1xf32>
}
