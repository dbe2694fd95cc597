// RUN: ms-opt %s -split-input-file -convert-ms-to-mie -verify-diagnostics

// Every ms op has a lowering, so the "no lowering to mie for '...' yet" report cannot be triggered
// from ms IR; what remains unsupported are element types the kernels cannot compute on.

// Tests that unsigned elements are reported, with the op named, at an op whose lowering does not
// read their signedness (ms.pad, whose fill value is read as a double) instead of
// computing them as signed integers.

func.func @pad_unsigned(%x: tensor<4xui8>) -> tensor<6xui8> {
  // expected-error @+1 {{unsupported element type 'ui8' in 'ms.pad': unsigned integers are not lowered for it yet}}
  %0 = ms.pad %x {pads = array<i64: 1, 1>} : (tensor<4xui8>) -> tensor<6xui8>
  return %0 : tensor<6xui8>
}

// -----

// Tests that 8-bit and 4-bit floats are reported where an op would compare their values (they are
// only converted, ms.cast, and moved) instead of reaching LLVM, which has no arithmetic on them.

func.func @compare_f8(%x: tensor<4xf8E5M2>) -> tensor<4xi1> {
  // expected-error @+1 {{unsupported element type 'f8E5M2' in 'ms.compare': 8-bit and 4-bit floats are only converted and moved}}
  %0 = ms.compare eq, %x, %x : (tensor<4xf8E5M2>, tensor<4xf8E5M2>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
