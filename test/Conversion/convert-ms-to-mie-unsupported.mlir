// RUN: ms-opt %s -split-input-file -convert-ms-to-mie -verify-diagnostics

// Every ms op has a lowering, so the "no lowering to mie for '...' yet" report cannot be triggered
// from ms IR; what remains unsupported are element types the kernels cannot compute on.

// Tests that unsigned elements are reported, with the op named, at every op whose lowering does not
// read their signedness (reductions, for now) instead of computing them as signed integers.

func.func @reduce_unsigned(%x: tensor<4x8xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{unsupported element type 'ui8' in 'ms.reduce_sum': unsigned integers are not lowered for it yet}}
  %0 = ms.reduce_sum %x {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @max_unsigned(%a: tensor<4x8xui16>) -> tensor<4xui16> {
  // expected-error @+1 {{unsupported element type 'ui16' in 'ms.reduce_max': unsigned integers are not lowered for it yet}}
  %0 = ms.reduce_max %a {axes = array<i64: 1>} : (tensor<4x8xui16>) -> tensor<4xui16>
  return %0 : tensor<4xui16>
}
