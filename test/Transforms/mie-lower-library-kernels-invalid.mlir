// RUN: ms-opt %s -split-input-file -verify-diagnostics -mie-lower-library-kernels

// Tests that a tiled GEMM of two activations with alpha != 1 is refused: its run-time panels are
// not scaled.
func.func @gemm_activations_alpha(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op has a tiling and an unpacked b but alpha != 1}}
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {alpha = 2.0 : f64, tiling = #mie.tiling<"avx2", mr = 4, nr = 16, kc = 8, mc = 4, nc = 16>}
  return
}
