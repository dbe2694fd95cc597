// RUN: ms-opt %s -split-input-file -verify-diagnostics -mie-lower-library-kernels

// Tests that a tiled GEMM of two activations with alpha != 1 is refused: its run-time panels are
// not scaled.
func.func @gemm_activations_alpha(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op has a tiling and an unpacked b but alpha != 1}}
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {alpha = 2.0 : f64, tiling = #mie.tiling<"avx2", mr = 4, nr = 16, kc = 8, mc = 4, nc = 16>}
  return
}

// -----

// Tests that an integer convolution whose filter was not packed is refused: its kernel reads the
// VNNI panels.
func.func @qconv_unpacked(%x: memref<1x2x4x4xi8>, %w: memref<3x2x1x1xi8>, %b: memref<3xi32>, %s: memref<3xf32>, %y: memref<1x3x4x4xi8>) {
  // expected-error @+1 {{'mie.qconv2d' op needs a packed filter (mie-pack-weights)}}
  mie.qconv2d ins(%x, %w, %b, %s : memref<1x2x4x4xi8>, memref<3x2x1x1xi8>, memref<3xi32>, memref<3xf32>) outs(%y : memref<1x3x4x4xi8>) {input_zero_point = 0 : i64, output_zero_point = 0 : i64, output_min = 0 : i64, output_max = 255 : i64}
  return
}
