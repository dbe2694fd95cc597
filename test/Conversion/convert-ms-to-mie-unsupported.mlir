// RUN: ms-opt %s -split-input-file -convert-ms-to-mie -verify-diagnostics

// Every ms op has a lowering, so the "no lowering to mie for '...' yet" report cannot be triggered
// from ms IR; what remains unsupported are element types the kernels cannot compute on.

// Tests that unsigned elements (arith has signless integers only) are reported at every op that
// uses them, with the op named, instead of failing inside a lowering.

func.func @reduce_unsigned(%x: tensor<4x8xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{unsupported element type 'ui8' in 'ms.reduce_sum': unsigned integers are not lowered yet}}
  %0 = ms.reduce_sum %x {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @add_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>) {
  // expected-error @+1 {{unsupported element type 'ui8' in 'ms.add': unsigned integers are not lowered yet}}
  %0 = ms.add %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // expected-error @+1 {{unsupported element type 'ui8' in 'ms.compare': unsigned integers are not lowered yet}}
  %1 = ms.compare lt, %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0, %1 : tensor<4xui8>, tensor<4xi1>
}
