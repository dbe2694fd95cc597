// RUN: ms-opt %s -split-input-file -verify-diagnostics -mie-lower-library-kernels

// Tests that a tiled GEMM of two activations with alpha != 1 is refused: its run-time panels are
// not scaled.
func.func @gemm_activations_alpha(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op has a gemm ukernel and an unpacked b but alpha != 1}}
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {alpha = 2.0 : f64, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 6, nc = 16>}
  return
}

// -----

// Tests that a register tile the registry lacks is refused where its symbol would be emitted
// (avx2 has no 4x16 tile), not at the link.
func.func @unregistered_tile(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op runs the register tile 'mie_uk_f32_gemm_4x16_avx2', which the microkernel registry does not list}}
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {ukernel = #mie.ukernel<gemm, "avx2", mr = 4, nr = 16, kc = 8, mc = 4, nc = 16>}
  return
}

// -----

// Tests that a tiled convolution whose filter mie-pack-weights did not pack is refused: its tiles
// read LHS panels.
func.func @conv_unpacked(%x: memref<1x2x4x4xf32>, %w: memref<3x2x1x1xf32>, %y: memref<1x3x4x4xf32>) {
  // expected-error @+1 {{'mie.conv2d' op needs a packed filter for its conv_direct ukernel (mie-pack-weights)}}
  mie.conv2d ins(%x, %w : memref<1x2x4x4xf32>, memref<3x2x1x1xf32>) outs(%y : memref<1x3x4x4xf32>) {ukernel = #mie.ukernel<conv_direct, "avx2", mr = 4, nr = 24, kc = 2, mc = 4, nc = 24>}
  return
}

// -----

// Tests that a channels-last depthwise convolution whose filter was not packed into [KH * KW, C]
// is refused.
func.func @dwconv_nhwc_unpacked(%x: memref<1x4x4x8xf32>, %w: memref<8x1x3x3xf32>, %y: memref<1x2x2x8xf32>) {
  // expected-error @+1 {{'mie.conv2d' op needs a packed [KH * KW, C] filter for its channels_last depthwise ukernel (mie-pack-weights)}}
  mie.conv2d ins(%x, %w : memref<1x4x4x8xf32>, memref<8x1x3x3xf32>) outs(%y : memref<1x2x2x8xf32>) {groups = 8 : i64, channels_last, ukernel = #mie.ukernel<depthwise, "avx512">}
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

// -----

// Code for symbolic dims: a mask dim whose size is no known expression of the symbols may be 1 at
// run time and broadcast, which the kernel's strides cannot take.
func.func @attention_mask_may_broadcast(%q: memref<?x4x?x8xf32>, %m: memref<?x1x1x?xf32>, %o: memref<?x4x?x8xf32>) {
  // expected-error @below {{mask dim 0 may broadcast at run time, which code for every shape does not take yet}}
  mie.attention ins(%q, %q, %q : memref<?x4x?x8xf32>, memref<?x4x?x8xf32>, memref<?x4x?x8xf32>) mask(%m : memref<?x1x1x?xf32>) outs(%o : memref<?x4x?x8xf32>) {scale = 0.125 : f64, query_rows = 24 : i64, ukernel = #mie.ukernel<attention, "avx2">}
  return
}

// -----

// Code for symbolic dims: the portable attention loops are sized at compile time.
func.func @portable_attention_run_time(%q: memref<?x4x8xf32>, %o: memref<?x4x8xf32>) {
  // expected-error @below {{has run-time extents (code for symbolic dims) but no microkernel lowering that takes them}}
  mie.attention ins(%q, %q, %q : memref<?x4x8xf32>, memref<?x4x8xf32>, memref<?x4x8xf32>) outs(%o : memref<?x4x8xf32>) {scale = 0.5 : f64}
  return
}
