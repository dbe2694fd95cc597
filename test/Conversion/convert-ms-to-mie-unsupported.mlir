// RUN: ms-opt %s -split-input-file -convert-ms-to-mie -verify-diagnostics

// Every ms op has a lowering now, so the "no lowering to mie for '...' yet" report cannot be
// triggered from ms IR; what remains unsupported is operand types a lowering rejects.

// Tests that a reduction of unsigned elements (which arith cannot compute on) fails the conversion
// at the op.

func.func @reduce_unsigned(%x: tensor<4x8xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{failed to legalize operation 'ms.reduce_sum'}}
  %0 = ms.reduce_sum %x {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}
