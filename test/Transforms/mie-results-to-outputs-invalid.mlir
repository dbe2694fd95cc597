// RUN: ms-opt %s -split-input-file -mie-results-to-outputs -verify-diagnostics

// Tests that a public function with a non-buffer result is rejected.

// expected-error @+1 {{mie-results-to-outputs expects only memref results}}
func.func @scalar_result(%x: memref<4xf32>) -> (memref<4xf32>, i32) {
  %c = arith.constant 1 : i32
  return %x, %c : memref<4xf32>, i32
}
