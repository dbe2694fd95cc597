// RUN: ms-opt %s -split-input-file -mie-select-kernels | FileCheck %s
// RUN: ms-opt %s -split-input-file -mie-select-kernels=winograd=false | FileCheck %s --check-prefix=DIRECT
// RUN: ms-opt %s -split-input-file -mie-select-kernels=isa=neon | FileCheck %s --check-prefix=NEON

// Tests that a 3x3 stride-1 convolution with constant weights on an AVX2 target is computed by
// Winograd F(4x4, 3x3) (a 56x56 map): 36 GEMMs of 64 filters x 196 tiles x K = 64 channels, where
// the 6x16 tile fills both sides best and one block of all tiles gives each GEMM its own item.
// Without Winograd it is an implicit GEMM over 3136 pixels with K = 576 in four blocks of 144 (the
// 24-wide panel re-read by the inner loop fits 16 KiB of L1) and enough pixel blocks to pack per item.

// CHECK-LABEL: func.func @conv3x3
// CHECK: mie.conv2d
// CHECK-SAME: ukernel = #mie.ukernel<winograd_4x4, "avx2", mr = 6, nr = 16, kc = 64, mc = 66, nc = 208>}
// DIRECT-LABEL: func.func @conv3x3
// DIRECT: ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 24, kc = 144, mc = 64, nc = 120>}
// NEON-LABEL: func.func @conv3x3
// NEON: ukernel = #mie.ukernel<conv_gemm, "neon", mr = 8, nr = 12,
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+f16c">} {
memref.global "private" constant @w : memref<64x64x3x3xf32> = dense<1.0>
func.func @conv3x3(%x: memref<1x64x56x56xf32>, %y: memref<1x64x56x56xf32>) {
  %w = memref.get_global @w : memref<64x64x3x3xf32>
  mie.conv2d ins(%x, %w : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>) outs(%y : memref<1x64x56x56xf32>) {pads = array<i64: 1, 1, 1, 1>}
  return
}
}

// -----

// Tests that a late 7x7 layer keeps Winograd F(2x2, 3x3) (F(4x4, 3x3) would have four tiles);
// without Winograd its 49 pixels (49 of 64 lanes of the NCHW form's tiles) become the rows of the
// transposed implicit GEMM (`conv_pixel_rows`: 49 rows of 7x48 tiles, the 512 filters in the lanes),
// its pixel panels packed once and shared (K = 4608 in five blocks of 928), and so does the 3x3
// stride-2 layer to 14x14 (196 pixels) next to it. A GEMM with a constant B gets a tiling with
// shared packed rows while one with a run-time B gets one whose work items pack both operands.

// CHECK-LABEL: func.func @late
// CHECK: mie.conv2d
// CHECK-SAME: ukernel = #mie.ukernel<winograd_2x2
// CHECK: mie.conv2d
// CHECK-SAME: strides = array<i64: 2, 2>, ukernel = #mie.ukernel<conv_pixel_rows, "avx512", mr = 8, nr = 32, kc = 768, mc = 104, nc = 32, shared_panels = true>
// DIRECT-LABEL: func.func @late
// DIRECT: mie.conv2d
// DIRECT-SAME: ukernel = #mie.ukernel<conv_pixel_rows, "avx512", mr = 7, nr = 48, kc = 928, mc = 28, nc = 48, shared_panels = true>
// DIRECT: mie.conv2d
// DIRECT-SAME: strides = array<i64: 2, 2>, ukernel = #mie.ukernel<conv_pixel_rows
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx512", mr = 7, nr = 48, kc = 512, mc = 7, nc = 48, shared_panels = true>
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx512", mr = 8, nr = 16, kc = 512, mc = 8, nc = 16>
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+avx512f">} {
memref.global "private" constant @w : memref<512x512x3x3xf32> = dense<1.0>
memref.global "private" constant @fc : memref<1000x512xf32> = dense<1.0>
memref.global "private" constant @w2 : memref<256x256x3x3xf32> = dense<1.0>
func.func @late(%x: memref<1x512x7x7xf32>, %y: memref<1x512x7x7xf32>, %a: memref<1x512xf32>,
                %b: memref<512x8xf32>, %c: memref<1x1000xf32>, %d: memref<1x8xf32>,
                %x2: memref<1x256x28x28xf32>, %y2: memref<1x256x14x14xf32>) {
  %w = memref.get_global @w : memref<512x512x3x3xf32>
  mie.conv2d ins(%x, %w : memref<1x512x7x7xf32>, memref<512x512x3x3xf32>) outs(%y : memref<1x512x7x7xf32>) {pads = array<i64: 1, 1, 1, 1>}
  %w2 = memref.get_global @w2 : memref<256x256x3x3xf32>
  mie.conv2d ins(%x2, %w2 : memref<1x256x28x28xf32>, memref<256x256x3x3xf32>) outs(%y2 : memref<1x256x14x14xf32>) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  %fc = memref.get_global @fc : memref<1000x512xf32>
  mie.gemm ins(%a, %fc : memref<1x512xf32>, memref<1000x512xf32>) outs(%c : memref<1x1000xf32>) {trans_b}
  mie.gemm ins(%a, %b : memref<1x512xf32>, memref<512x8xf32>) outs(%d : memref<1x8xf32>)
  return
}
}

// -----

// Tests the tiling of GEMMs whose rows are the activation (BERT's linear layers, 128 tokens): a row
// block takes every row, K blocks are whole K up to 1024 (balanced beyond: 3072 = 3 x 1024), and
// the 16 work items split the columns (768 / 24 = 32 panels -> 2 per item) before the rows.
// CHECK-LABEL: func.func @linear
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx2", mr = 4, nr = 24, kc = 768, mc = 128, nc = 48, shared_panels = true>
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx2", mr = 4, nr = 24, kc = 1024, mc = 128, nc = 48, shared_panels = true>
// A row block's K block stays within 512 KiB (plus an eighth): 4096 rows x K = 768 are 683 panels
// of the 6x16 tile (which fills 4096 rows best), at most 32 per block, so 22 equal blocks of 32
// panels (192 rows) and 22 items without splitting the columns.
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 768, mc = 192, nc = 768>
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
memref.global "private" constant @w1 : memref<768x768xf32> = dense<1.0>
memref.global "private" constant @w2 : memref<3072x768xf32> = dense<1.0>
func.func @linear(%x: memref<128x768xf32>, %h: memref<128x3072xf32>, %y: memref<128x768xf32>,
                  %z: memref<128x768xf32>, %big: memref<4096x768xf32>, %o: memref<4096x768xf32>) {
  %w1 = memref.get_global @w1 : memref<768x768xf32>
  mie.gemm ins(%x, %w1 : memref<128x768xf32>, memref<768x768xf32>) outs(%y : memref<128x768xf32>)
  %w2 = memref.get_global @w2 : memref<3072x768xf32>
  mie.gemm ins(%h, %w2 : memref<128x3072xf32>, memref<3072x768xf32>) outs(%z : memref<128x768xf32>)
  mie.gemm ins(%big, %w1 : memref<4096x768xf32>, memref<768x768xf32>) outs(%o : memref<4096x768xf32>)
  return
}
}

// -----

// Tests that f32 attention goes to the fused attention microkernel of the target's ISA.
// CHECK-LABEL: func.func @attention
// CHECK: mie.attention
// CHECK-SAME: ukernel = #mie.ukernel<attention, "avx2">
// NEON-LABEL: func.func @attention
// NEON: ukernel = #mie.ukernel<attention, "neon">
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
func.func @attention(%q: memref<12x128x64xf32>, %k: memref<12x128x64xf32>, %v: memref<12x128x64xf32>,
                     %m: memref<1x128xf32>, %o: memref<12x128x64xf32>) {
  mie.attention ins(%q, %k, %v : memref<12x128x64xf32>, memref<12x128x64xf32>, memref<12x128x64xf32>) mask(%m : memref<1x128xf32>) outs(%o : memref<12x128x64xf32>) {scale = 0.125 : f64}
  return
}
}

// -----

// Tests that a depthwise convolution gets the depthwise microkernel of the target's ISA, and that
// grouped convolutions (2 groups) keep the portable path.

// CHECK-LABEL: func.func @depthwise
// CHECK: mie.conv2d
// CHECK-SAME: ukernel = #mie.ukernel<depthwise, "avx2">
// CHECK: mie.conv2d
// CHECK-NOT: ukernel
// CHECK-NOT: tiling
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
func.func @depthwise(%x: memref<1x32x16x16xf32>, %w: memref<32x1x3x3xf32>, %y: memref<1x32x16x16xf32>,
                     %g: memref<32x16x3x3xf32>) {
  mie.conv2d ins(%x, %w : memref<1x32x16x16xf32>, memref<32x1x3x3xf32>) outs(%y : memref<1x32x16x16xf32>) {groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>}
  mie.conv2d ins(%x, %g : memref<1x32x16x16xf32>, memref<32x16x3x3xf32>) outs(%y : memref<1x32x16x16xf32>) {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>}
  return
}
}

// -----

// Tests that f32 max pooling gets the max-pooling microkernel of the target's ISA (any window,
// stride, padding and dilation) and f16 pooling keeps the generated loops.

// CHECK-LABEL: func.func @max_pool
// CHECK: mie.max_pool2d
// CHECK-SAME: ukernel = #mie.ukernel<max_pool, "avx2">
// CHECK: mie.max_pool2d
// CHECK-NOT: ukernel
// CHECK: return
// NEON-LABEL: func.func @max_pool
// NEON: ukernel = #mie.ukernel<max_pool, "neon">
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
func.func @max_pool(%x: memref<1x8x15x15xf32>, %y: memref<1x8x6x6xf32>, %hx: memref<1x8x15x15xf16>,
                    %hy: memref<1x8x6x6xf16>) {
  mie.max_pool2d ins(%x : memref<1x8x15x15xf32>) outs(%y : memref<1x8x6x6xf32>) {dilations = array<i64: 2, 2>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>}
  mie.max_pool2d ins(%hx : memref<1x8x15x15xf16>) outs(%hy : memref<1x8x6x6xf16>) {dilations = array<i64: 2, 2>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>}
  return
}
}

// -----

// Tests that a module without a CPU target selects nothing.

// CHECK-LABEL: func.func @no_target
// CHECK-NOT: tiling
// CHECK: return
memref.global "private" constant @w : memref<8x8x1x1xf32> = dense<1.0>
func.func @no_target(%x: memref<1x8x4x4xf32>, %y: memref<1x8x4x4xf32>) {
  %w = memref.get_global @w : memref<8x8x1x1xf32>
  mie.conv2d ins(%x, %w : memref<1x8x4x4xf32>, memref<8x8x1x1xf32>) outs(%y : memref<1x8x4x4xf32>)
  return
}

// -----

// Tests that a pointwise convolution on a 7x7 output (49 pixels: 49 of 64 lanes of a 16-wide tile)
// becomes the GEMM with pixels as rows, x^T [49, 512] x w^T [512, 2048] written back transposed
// (trans_c) on 2-D views of the same buffers, bias and residual kept; on 56x56 (3136 pixels, every
// lane filled) the convolution stays; a strided 1x1 and a batch of two images, which are not one
// GEMM on views, stay convolutions with their pixels as rows (packed at run time).

// CHECK-LABEL: func.func @pointwise
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x512x7x7xf32>, %[[Y:[^:]+]]: memref<1x2048x7x7xf32>, %[[B:[^:]+]]: memref<2048xf32>, %[[R:[^:]+]]: memref<1x2048x7x7xf32>
// CHECK: %[[W:.+]] = memref.get_global @w1 : memref<2048x512x1x1xf32>
// CHECK-DAG: %[[X2:.+]] = memref.collapse_shape %[[X]] {{\[}}[0, 1], [2, 3]] : memref<1x512x7x7xf32> into memref<512x49xf32>
// CHECK-DAG: %[[W2:.+]] = memref.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : memref<2048x512x1x1xf32> into memref<2048x512xf32>
// CHECK-DAG: %[[R2:.+]] = memref.collapse_shape %[[R]] {{\[}}[0, 1], [2, 3]] : memref<1x2048x7x7xf32> into memref<2048x49xf32>
// CHECK-DAG: %[[Y2:.+]] = memref.collapse_shape %[[Y]] {{\[}}[0, 1], [2, 3]] : memref<1x2048x7x7xf32> into memref<2048x49xf32>
// CHECK: mie.gemm ins(%[[X2]], %[[W2]] : memref<512x49xf32>, memref<2048x512xf32>) bias(%[[B]] : memref<2048xf32>) residual(%[[R2]] : memref<2048x49xf32>) outs(%[[Y2]] : memref<2048x49xf32>)
// CHECK-SAME: epilogue = #mie.epilogue<bias, residual, activation = relu>
// CHECK-SAME: trans_a, trans_b, trans_c, ukernel = #mie.ukernel<gemm, "avx2"
// CHECK-NOT: mie.conv2d ins(%[[X]]
// CHECK: mie.conv2d ins(%{{.+}} : memref<1x64x56x56xf32>, memref<256x64x1x1xf32>)
// CHECK: mie.conv2d ins(%{{.+}} : memref<1x512x14x14xf32>, memref<2048x512x1x1xf32>)
// CHECK-SAME: strides = array<i64: 2, 2>, ukernel = #mie.ukernel<conv_pixel_rows
// CHECK: mie.conv2d ins(%{{.+}} : memref<2x512x7x7xf32>, memref<2048x512x1x1xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<conv_pixel_rows, "avx2", mr = 4, nr = 24, kc = 512, mc = 52, nc = 264, shared_panels = true>
// CHECK-NOT: mie.gemm
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+f16c">} {
memref.global "private" constant @w1 : memref<2048x512x1x1xf32> = dense<1.0>
memref.global "private" constant @w2 : memref<256x64x1x1xf32> = dense<1.0>
func.func @pointwise(%x: memref<1x512x7x7xf32>, %y: memref<1x2048x7x7xf32>, %b: memref<2048xf32>,
                     %r: memref<1x2048x7x7xf32>, %x56: memref<1x64x56x56xf32>,
                     %y56: memref<1x256x56x56xf32>, %x14: memref<1x512x14x14xf32>,
                     %xb: memref<2x512x7x7xf32>, %yb: memref<2x2048x7x7xf32>) {
  %w1 = memref.get_global @w1 : memref<2048x512x1x1xf32>
  mie.conv2d ins(%x, %w1 : memref<1x512x7x7xf32>, memref<2048x512x1x1xf32>) bias(%b : memref<2048xf32>)
      residual(%r : memref<1x2048x7x7xf32>) outs(%y : memref<1x2048x7x7xf32>)
      {epilogue = #mie.epilogue<bias, residual, activation = relu>}
  %w2 = memref.get_global @w2 : memref<256x64x1x1xf32>
  mie.conv2d ins(%x56, %w2 : memref<1x64x56x56xf32>, memref<256x64x1x1xf32>) outs(%y56 : memref<1x256x56x56xf32>)
  mie.conv2d ins(%x14, %w1 : memref<1x512x14x14xf32>, memref<2048x512x1x1xf32>) outs(%y : memref<1x2048x7x7xf32>)
      {strides = array<i64: 2, 2>}
  mie.conv2d ins(%xb, %w1 : memref<2x512x7x7xf32>, memref<2048x512x1x1xf32>) outs(%yb : memref<2x2048x7x7xf32>)
  return
}
}

// -----

// Tests the transposed store's cost in the choice: at 14x14 (196 pixels, 94% of 16-wide lanes) a
// short reduction (K = 40, mobilenet_v3's 40 -> 240) stays an NCHW convolution, whose tiles store
// whole vectors, while K = 1024 (1024 -> 256) amortizes the scatter and runs as pixel rows.

// CHECK-LABEL: func.func @pointwise_short_k
// CHECK: mie.conv2d ins(%{{.+}} : memref<1x40x14x14xf32>, memref<240x40x1x1xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<conv_gemm, "avx2"
// CHECK: mie.gemm ins(%{{.+}} : memref<1024x196xf32>, memref<256x1024xf32>)
// CHECK-SAME: trans_a, trans_b, trans_c
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+f16c">} {
memref.global "private" constant @w40 : memref<240x40x1x1xf32> = dense<1.0>
memref.global "private" constant @w1024 : memref<256x1024x1x1xf32> = dense<1.0>
func.func @pointwise_short_k(%x: memref<1x40x14x14xf32>, %y: memref<1x240x14x14xf32>,
                             %x2: memref<1x1024x14x14xf32>, %y2: memref<1x256x14x14xf32>) {
  %w = memref.get_global @w40 : memref<240x40x1x1xf32>
  mie.conv2d ins(%x, %w : memref<1x40x14x14xf32>, memref<240x40x1x1xf32>) outs(%y : memref<1x240x14x14xf32>)
  %w2 = memref.get_global @w1024 : memref<256x1024x1x1xf32>
  mie.conv2d ins(%x2, %w2 : memref<1x1024x14x14xf32>, memref<256x1024x1x1xf32>) outs(%y2 : memref<1x256x14x14xf32>)
  return
}
}

// -----

// Tests that AVX-512's tiles of at most 8 rows, which store transposed through an in-register
// transpose (about 4 K steps, not 16), take pixel rows for shorter reductions: mobilenet_v3's
// 96 -> 576 at 7x7 (49 of 64 lanes in the NCHW form) runs as pixel rows with K = 96 on the 7x48
// tile (49 rows: seven whole tiles), while 40 -> 240 at 14x14 (94% of the lanes) stays NCHW.

// CHECK-LABEL: func.func @pointwise_avx512
// CHECK: mie.gemm ins(%{{.+}} : memref<96x49xf32>, memref<576x96xf32>)
// CHECK-SAME: trans_a, trans_b, trans_c, ukernel = #mie.ukernel<gemm, "avx512", mr = 7, nr = 48
// CHECK: mie.conv2d ins(%{{.+}} : memref<1x40x14x14xf32>, memref<240x40x1x1xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<conv_gemm, "avx512"
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+f16c,+avx512f">} {
memref.global "private" constant @w96 : memref<576x96x1x1xf32> = dense<1.0>
memref.global "private" constant @w40 : memref<240x40x1x1xf32> = dense<1.0>
func.func @pointwise_avx512(%x: memref<1x96x7x7xf32>, %y: memref<1x576x7x7xf32>,
                            %x2: memref<1x40x14x14xf32>, %y2: memref<1x240x14x14xf32>) {
  %w = memref.get_global @w96 : memref<576x96x1x1xf32>
  mie.conv2d ins(%x, %w : memref<1x96x7x7xf32>, memref<576x96x1x1xf32>) outs(%y : memref<1x576x7x7xf32>)
  %w2 = memref.get_global @w40 : memref<240x40x1x1xf32>
  mie.conv2d ins(%x2, %w2 : memref<1x40x14x14xf32>, memref<240x40x1x1xf32>) outs(%y2 : memref<1x240x14x14xf32>)
  return
}
}

// -----

// Tests that a stem (3 input channels, K = 27) runs on the direct kernel: tiles along output rows
// (OW = 112 fills 4x24 tiles best with 32 filters), kc = K, and bands of 7 of the 112 output rows
// (16 work items: nc = 7 rows x 120 pixels of whole tiles); a 3x3 convolution with 64 channels
// (K = 576) keeps the packed path.

// CHECK-LABEL: func.func @stem
// CHECK: mie.conv2d ins(%{{.+}} : memref<1x3x224x224xf32>, memref<32x3x3x3xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<conv_direct, "avx2", mr = 4, nr = 24, kc = 27, mc = 32, nc = 840>
// CHECK: mie.conv2d ins(%{{.+}} : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>)
// CHECK-NOT: conv_direct
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+f16c">} {
memref.global "private" constant @w1 : memref<32x3x3x3xf32> = dense<1.0>
memref.global "private" constant @w2 : memref<64x64x3x3xf32> = dense<1.0>
func.func @stem(%x: memref<1x3x224x224xf32>, %y: memref<1x32x112x112xf32>,
                %x2: memref<1x64x56x56xf32>, %y2: memref<1x64x28x28xf32>) {
  %w1 = memref.get_global @w1 : memref<32x3x3x3xf32>
  mie.conv2d ins(%x, %w1 : memref<1x3x224x224xf32>, memref<32x3x3x3xf32>) outs(%y : memref<1x32x112x112xf32>)
      {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
  %w2 = memref.get_global @w2 : memref<64x64x3x3xf32>
  mie.conv2d ins(%x2, %w2 : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>) outs(%y2 : memref<1x64x28x28xf32>)
      {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
  return
}
}

// -----

// Tests GEMMs of two activations (attention's batched products when attention is not recognized):
// 12 batches of 128 x 128 x 64 get row and column blocks within 256 KiB each; 12 items are too few
// for 16, so the larger block (128 rows against 128 columns) is halved: 66 rows = 11 panels of the
// 6x16 tile. A GEMM with alpha != 1 keeps the linalg path: panels packed at run time are not
// scaled.
// CHECK-LABEL: func.func @activations
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 64, mc = 66, nc = 128>
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 128, mc = 66, nc = 64>
// CHECK: mie.gemm
// CHECK-NOT: tiling
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
func.func @activations(%q: memref<12x128x64xf32>, %kt: memref<12x64x128xf32>, %s: memref<12x128x128xf32>,
                       %v: memref<12x128x64xf32>, %o: memref<12x128x64xf32>, %a: memref<8x16xf32>,
                       %b: memref<16x4xf32>, %c: memref<8x4xf32>) {
  mie.gemm ins(%q, %kt : memref<12x128x64xf32>, memref<12x64x128xf32>) outs(%s : memref<12x128x128xf32>)
  mie.gemm ins(%s, %v : memref<12x128x128xf32>, memref<12x128x64xf32>) outs(%o : memref<12x128x64xf32>)
  mie.gemm ins(%a, %b : memref<8x16xf32>, memref<16x4xf32>) outs(%c : memref<8x4xf32>) {alpha = 2.0 : f64}
  return
}
}

// -----

// Tests that row blocks are balanced: 256 rows x K = 2048 (two K blocks of 1024) are 43 panels of
// 6 rows, at most 24 per block; two blocks of 22 panels (132 rows) instead of 21 + 21 + 1, whose
// one-panel block would stream all the weights again for 6 rows.
// CHECK-LABEL: func.func @balanced_rows
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 1024, mc = 132, nc = 64, shared_panels = true>
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
memref.global "private" constant @w : memref<2048x512xf32> = dense<1.0>
func.func @balanced_rows(%x: memref<256x2048xf32>, %y: memref<256x512xf32>) {
  %w = memref.get_global @w : memref<2048x512xf32>
  mie.gemm ins(%x, %w : memref<256x2048xf32>, memref<2048x512xf32>) outs(%y : memref<256x512xf32>)
  return
}
}

// -----

// Tests the attention kernel's work items: 2 x 12 heads of 128 rows already give 24 items (whole
// heads); one head of 300 rows is split into groups of whole query blocks (16 rows on AVX2) for
// 16 items (19 -> 32 rows: 10 items).
// CHECK-LABEL: func.func @attention_items
// CHECK: mie.attention
// CHECK-SAME: query_rows = 128 : i64
// CHECK-SAME: ukernel = #mie.ukernel<attention, "avx2">
// CHECK: mie.attention
// CHECK-SAME: query_rows = 32 : i64
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
func.func @attention_items(%q: memref<2x12x128x64xf32>, %o: memref<2x12x128x64xf32>,
                           %q1: memref<300x1x64xf32>, %o1: memref<300x1x64xf32>) {
  mie.attention ins(%q, %q, %q : memref<2x12x128x64xf32>, memref<2x12x128x64xf32>, memref<2x12x128x64xf32>) outs(%o : memref<2x12x128x64xf32>) {scale = 0.125 : f64}
  mie.attention ins(%q1, %q1, %q1 : memref<300x1x64xf32>, memref<300x1x64xf32>, memref<300x1x64xf32>) outs(%o1 : memref<300x1x64xf32>) {scale = 0.125 : f64, token_major}
  return
}
}

// -----

// Tests that AVX-512's work items are whole query blocks of 32 rows (its queries-in-lanes tile):
// one head of 600 rows for 16 items, 38 -> 64 rows (AVX2: 48).
// CHECK-LABEL: func.func @attention_items_avx512
// CHECK: mie.attention
// CHECK-SAME: query_rows = 64 : i64
// CHECK-SAME: ukernel = #mie.ukernel<attention, "avx512">
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+avx512f">} {
func.func @attention_items_avx512(%q: memref<600x1x64xf32>, %o: memref<600x1x64xf32>) {
  mie.attention ins(%q, %q, %q : memref<600x1x64xf32>, memref<600x1x64xf32>, memref<600x1x64xf32>) outs(%o : memref<600x1x64xf32>) {scale = 0.125 : f64, token_major}
  return
}
}

// -----

// Tests the streamed-filter rule of the AVX-512 cost model on 1x1 convolutions over 14x14 = 196
// pixels: with 24 filters x K = 64 (6 KiB, in L1) the NCHW form's 24x16 tile fills both sides best
// (196 of 208 lanes) and is kept; with 576 filters x K = 96 (216 KiB, re-read from L2 for every
// pixel panel) a one-vector-wide tile, which broadcasts one filter value per FMA, loses a tenth of
// its efficiency, and the NCHW form (then 12x32: 196 of 224 lanes) loses to the pixels as rows
// (8x32 tiles storing transposed in registers).
// CHECK-LABEL: func.func @filters_in_l1
// CHECK: mie.conv2d
// CHECK-SAME: ukernel = #mie.ukernel<conv_gemm, "avx512", mr = 24, nr = 16,
// CHECK-LABEL: func.func @filters_from_l2
// CHECK: mie.gemm
// CHECK-SAME: trans_a, trans_b, trans_c, ukernel = #mie.ukernel<gemm, "avx512", mr = 8, nr = 32, kc = 96, mc = 200, nc = 32, shared_panels = true>}
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+f16c,+avx512f,+avx512bw,+avx512cd,+avx512dq,+avx512vl">} {
memref.global "private" constant @w_small : memref<24x64x1x1xf32> = dense<1.0>
memref.global "private" constant @w_large : memref<576x96x1x1xf32> = dense<1.0>
func.func @filters_in_l1(%x: memref<1x64x14x14xf32>, %y: memref<1x24x14x14xf32>) {
  %w = memref.get_global @w_small : memref<24x64x1x1xf32>
  mie.conv2d ins(%x, %w : memref<1x64x14x14xf32>, memref<24x64x1x1xf32>) outs(%y : memref<1x24x14x14xf32>)
  return
}
func.func @filters_from_l2(%x: memref<1x96x14x14xf32>, %y: memref<1x576x14x14xf32>) {
  %w = memref.get_global @w_large : memref<576x96x1x1xf32>
  mie.conv2d ins(%x, %w : memref<1x96x14x14xf32>, memref<576x96x1x1xf32>) outs(%y : memref<1x576x14x14xf32>)
  return
}
}

// -----

// Tests that on a target with AMX-BF16 a bf16 linear layer (bf16 buffers, f32 sums) takes the AMX
// tiling: 32 x 32 tiles, all of K in one block rounded up to 32 (100 -> 128), row blocks within
// 512 KiB at 2 bytes an element, the 16 items splitting the columns (24 panels -> 1 per item); an
// f32 product on the same target
// keeps the AVX-512 tiles, a bf16 product summed in bf16 and one whose weights are computed keep
// the generic kernel, and without AMX a bf16 product gets no tiling.
// CHECK-LABEL: func.func @amx
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 768, mc = 128, nc = 32, shared_panels = true>
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 128, mc = 32, nc = 32, shared_panels = true>
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx512"
// CHECK: mie.gemm
// CHECK-NOT: tiling
// CHECK-SAME: accumulator = bf16
// The product by an activation (no AMX tiling) runs the f32 tiles on widened copies of both.
// CHECK: mie.kernel "widen"
// CHECK: mie.kernel "widen"
// CHECK: mie.gemm ins(%{{.+}}, %{{.+}} : memref<128x768xf32>, memref<768x768xf32>) outs(%[[W:.+]] : memref<128x768xf32>)
// CHECK-NOT: accumulator
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx512"
// CHECK: mie.kernel "narrow" ins(%[[W]] : memref<128x768xf32>) outs(%arg1 : memref<128x768xbf16>)
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+avx512f,+avx512bf16,+amx-tile,+amx-bf16">} {
memref.global "private" constant @w : memref<768x768xbf16> = dense<1.0>
memref.global "private" constant @v : memref<20x100xbf16> = dense<1.0>
memref.global "private" constant @wf : memref<768x768xf32> = dense<1.0>
func.func @amx(%x: memref<128x768xbf16>, %y: memref<128x768xbf16>, %s: memref<5x100xbf16>,
               %t: memref<5x20xbf16>, %xf: memref<128x768xf32>, %yf: memref<128x768xf32>,
               %m: memref<768x768xbf16>) {
  %w = memref.get_global @w : memref<768x768xbf16>
  mie.gemm ins(%x, %w : memref<128x768xbf16>, memref<768x768xbf16>) outs(%y : memref<128x768xbf16>) {accumulator = f32}
  %v = memref.get_global @v : memref<20x100xbf16>
  mie.gemm ins(%s, %v : memref<5x100xbf16>, memref<20x100xbf16>) outs(%t : memref<5x20xbf16>) {trans_b}
  %wf = memref.get_global @wf : memref<768x768xf32>
  mie.gemm ins(%xf, %wf : memref<128x768xf32>, memref<768x768xf32>) outs(%yf : memref<128x768xf32>)
  mie.gemm ins(%x, %w : memref<128x768xbf16>, memref<768x768xbf16>) outs(%y : memref<128x768xbf16>) {accumulator = bf16}
  mie.gemm ins(%x, %m : memref<128x768xbf16>, memref<768x768xbf16>) outs(%y : memref<128x768xbf16>) {accumulator = f32}
  return
}
}

// -----

// Tests the channels-last kernels of an AMX target (ms-assign-layout). A pixel-row product with
// small weights (a 1x1 convolution over a 14x14 map: 196 x 96 x 576, 110 KiB of packed weights)
// splits its rows only, each item one 32-row block times every column, packing its own rows (no
// shared panels), so consecutive layers split their pixels alike. A channels-last depthwise
// convolution takes the NHWC depthwise kernel (bf16 summed in f32, or f32; any stride), unless its
// filter is computed (its filter must be packed at compile time); a channels-last convolution of
// one group keeps the generic lowering.
// CHECK-LABEL: func.func @channels_last
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 96, mc = 32, nc = 576>
// CHECK: mie.conv2d
// CHECK-SAME: ukernel = #mie.ukernel<depthwise, "avx512">
// CHECK: mie.conv2d
// CHECK-SAME: strides = array<i64: 3, 3>, ukernel = #mie.ukernel<depthwise, "avx512">
// CHECK: mie.conv2d
// CHECK-NOT: ukernel
// CHECK-SAME: groups = 4 : i64
// CHECK: mie.conv2d
// CHECK-NOT: ukernel
// CHECK-NOT: tiling
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+avx512f,+avx512bf16,+amx-tile,+amx-bf16">} {
memref.global "private" constant @p : memref<96x576xbf16> = dense<1.0>
memref.global "private" constant @d : memref<576x1x3x3xbf16> = dense<1.0>
memref.global "private" constant @df : memref<4x1x3x3xf32> = dense<1.0>
memref.global "private" constant @g : memref<4x4x3x3xf32> = dense<1.0>
func.func @channels_last(%x: memref<196x96xbf16>, %y: memref<196x576xbf16>,
                         %i: memref<1x14x14x576xbf16>, %o: memref<1x14x14x576xbf16>,
                         %fi: memref<1x9x9x4xf32>, %fo: memref<1x3x3x4xf32>,
                         %fw: memref<4x1x3x3xf32>, %go: memref<1x7x7x4xf32>) {
  %p = memref.get_global @p : memref<96x576xbf16>
  mie.gemm ins(%x, %p : memref<196x96xbf16>, memref<96x576xbf16>) outs(%y : memref<196x576xbf16>) {accumulator = f32}
  %d = memref.get_global @d : memref<576x1x3x3xbf16>
  mie.conv2d ins(%i, %d : memref<1x14x14x576xbf16>, memref<576x1x3x3xbf16>) outs(%o : memref<1x14x14x576xbf16>) {accumulator = f32, channels_last, groups = 576 : i64, pads = array<i64: 1, 1, 1, 1>}
  %df = memref.get_global @df : memref<4x1x3x3xf32>
  mie.conv2d ins(%fi, %df : memref<1x9x9x4xf32>, memref<4x1x3x3xf32>) outs(%fo : memref<1x3x3x4xf32>) {channels_last, groups = 4 : i64, strides = array<i64: 3, 3>}
  mie.conv2d ins(%fi, %fw : memref<1x9x9x4xf32>, memref<4x1x3x3xf32>) outs(%fo : memref<1x3x3x4xf32>) {channels_last, groups = 4 : i64, strides = array<i64: 3, 3>}
  %g = memref.get_global @g : memref<4x4x3x3xf32>
  mie.conv2d ins(%fi, %g : memref<1x9x9x4xf32>, memref<4x4x3x3xf32>) outs(%go : memref<1x7x7x4xf32>) {channels_last}
  return
}
}

// -----

// Tests a bf16 product summed in f32 on a target without AMX: the f32 tiles on f32 copies, the
// constant weights converted at compile time into an f32 global (the bf16 one leaves the module),
// the activation by a "widen" kernel, the result rounded back by a "narrow" kernel.

// CHECK: memref.global "private" constant @w_f32 : memref<768x768xf32>
// CHECK-NOT: memref.global "private" constant @w :
// CHECK-LABEL: func.func @bf16_without_amx
// CHECK: mie.kernel "widen" ins(%arg0 : memref<128x768xbf16>) outs(%[[X:.+]] : memref<128x768xf32>)
// CHECK: %[[W:.+]] = memref.get_global @w_f32 : memref<768x768xf32>
// CHECK: mie.gemm ins(%[[X]], %[[W]] : memref<128x768xf32>, memref<768x768xf32>) outs(%[[Y:.+]] : memref<128x768xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx512"
// CHECK: mie.kernel "narrow" ins(%[[Y]] : memref<128x768xf32>) outs(%arg1 : memref<128x768xbf16>)
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+avx512f">} {
memref.global "private" constant @w : memref<768x768xbf16> = dense<1.0>
func.func @bf16_without_amx(%x: memref<128x768xbf16>, %y: memref<128x768xbf16>) {
  %w = memref.get_global @w : memref<768x768xbf16>
  mie.gemm ins(%x, %w : memref<128x768xbf16>, memref<768x768xbf16>) outs(%y : memref<128x768xbf16>) {accumulator = f32}
  return
}
}

// -----

// Tests bf16 convolutions on an AMX target. A 3x3 one (64 -> 64 at 56x56, K = 576) takes the AMX
// tiling: 32 x 32 tiles over all of K, its 98 pixel panels (3.6 MB) packed once and shared, the two
// filter panels (36 KiB each) in one block, pixel blocks of 7 panels (a quarter of the L2 budget)
// halved to 4 so that there are items for every thread.
// A depthwise one runs the bf16 depthwise microkernel; a grouped one and one summed in bf16 keep the
// portable path.

// CHECK-LABEL: func.func @amx_conv
// CHECK: mie.conv2d
// CHECK-SAME: ukernel = #mie.ukernel<conv_gemm, "amx", mr = 32, nr = 32, kc = 576, mc = 64, nc = 128, shared_panels = true>
// CHECK: mie.conv2d
// CHECK-SAME: ukernel = #mie.ukernel<depthwise, "avx512">
// CHECK: mie.conv2d
// CHECK-NOT: tiling
// CHECK-SAME: groups = 2
// CHECK: mie.conv2d
// CHECK-NOT: tiling
// CHECK: return
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+avx512f,+avx512bf16,+amx-tile,+amx-bf16">} {
memref.global "private" constant @w : memref<64x64x3x3xbf16> = dense<1.0>
memref.global "private" constant @dw : memref<64x1x3x3xbf16> = dense<1.0>
memref.global "private" constant @g : memref<64x32x3x3xbf16> = dense<1.0>
func.func @amx_conv(%x: memref<1x64x56x56xbf16>, %y: memref<1x64x56x56xbf16>) {
  %w = memref.get_global @w : memref<64x64x3x3xbf16>
  mie.conv2d ins(%x, %w : memref<1x64x56x56xbf16>, memref<64x64x3x3xbf16>) outs(%y : memref<1x64x56x56xbf16>) {accumulator = f32, pads = array<i64: 1, 1, 1, 1>}
  %dw = memref.get_global @dw : memref<64x1x3x3xbf16>
  mie.conv2d ins(%x, %dw : memref<1x64x56x56xbf16>, memref<64x1x3x3xbf16>) outs(%y : memref<1x64x56x56xbf16>) {accumulator = f32, groups = 64 : i64, pads = array<i64: 1, 1, 1, 1>}
  %g = memref.get_global @g : memref<64x32x3x3xbf16>
  mie.conv2d ins(%x, %g : memref<1x64x56x56xbf16>, memref<64x32x3x3xbf16>) outs(%y : memref<1x64x56x56xbf16>) {accumulator = f32, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>}
  mie.conv2d ins(%x, %w : memref<1x64x56x56xbf16>, memref<64x64x3x3xbf16>) outs(%y : memref<1x64x56x56xbf16>) {accumulator = bf16, pads = array<i64: 1, 1, 1, 1>}
  return
}
}

// -----

// Tests fp16 products summed in f32 on an aarch64 target (what --precision=mixed, fp16 and auto
// make there): a linear layer with constant weights and a 3x3 convolution of one group take the
// "neon_f16" tiling (the NEON f32 tiles' shapes, 2-byte panels, all of K in one block: kc = 768
// and 576), with no widen or narrow kernel around them. A depthwise convolution and a product by
// an activation keep the f32 kernels on widened copies; a product summed in f16 gets no tiling.

// CHECK-LABEL: func.func @f16_neon
// CHECK-NOT: "widen"
// CHECK: mie.gemm ins(%arg0, %{{.+}} : memref<128x768xf16>, memref<768x768xf16>) outs(%arg1 : memref<128x768xf16>)
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "neon_f16", mr = 8, nr = 12, kc = 768, mc = 128, nc = 48, shared_panels = true>
// CHECK-NOT: "widen"
// CHECK: mie.conv2d ins(%arg3, %{{.+}} : memref<1x64x56x56xf16>, memref<64x64x3x3xf16>) outs(%arg4 : memref<1x64x56x56xf16>)
// CHECK-SAME: ukernel = #mie.ukernel<conv_gemm, "neon_f16", mr = 8, nr = 12, kc = 576, mc = 64, nc = 108>
// CHECK: mie.kernel "widen" ins(%arg3 : memref<1x64x56x56xf16>)
// CHECK: mie.conv2d ins(%{{.+}}, %{{.+}} : memref<1x64x56x56xf32>, memref<64x1x3x3xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<depthwise, "neon">
// CHECK: mie.kernel "narrow"
// CHECK: mie.kernel "widen" ins(%arg0 : memref<128x768xf16>)
// CHECK: mie.gemm ins(%{{.+}}, %{{.+}} : memref<128x768xf32>, memref<768x768xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "neon",
// CHECK: mie.kernel "narrow"
// CHECK: mie.gemm ins(%arg0, %{{.+}} : memref<128x768xf16>, memref<768x768xf16>) outs(%arg1 : memref<128x768xf16>) {accumulator = f16, mie.portable = "product [128, 768] f16 * [768, 768] f16: f16 summed in f16 (the microkernels sum narrow floats in f32)"}
// CHECK-NEXT: return
module attributes {mie.target = #mie.target<cpu, "aarch64", features = "+neon">} {
memref.global "private" constant @w16 : memref<768x768xf16> = dense<1.0>
memref.global "private" constant @c16 : memref<64x64x3x3xf16> = dense<1.0>
memref.global "private" constant @dw16 : memref<64x1x3x3xf16> = dense<1.0>
func.func @f16_neon(%x: memref<128x768xf16>, %y: memref<128x768xf16>, %m: memref<768x768xf16>,
                    %i: memref<1x64x56x56xf16>, %o: memref<1x64x56x56xf16>) {
  %w = memref.get_global @w16 : memref<768x768xf16>
  mie.gemm ins(%x, %w : memref<128x768xf16>, memref<768x768xf16>) outs(%y : memref<128x768xf16>) {accumulator = f32}
  %c = memref.get_global @c16 : memref<64x64x3x3xf16>
  mie.conv2d ins(%i, %c : memref<1x64x56x56xf16>, memref<64x64x3x3xf16>) outs(%o : memref<1x64x56x56xf16>) {accumulator = f32, pads = array<i64: 1, 1, 1, 1>}
  %dw = memref.get_global @dw16 : memref<64x1x3x3xf16>
  mie.conv2d ins(%i, %dw : memref<1x64x56x56xf16>, memref<64x1x3x3xf16>) outs(%o : memref<1x64x56x56xf16>) {accumulator = f32, groups = 64 : i64, pads = array<i64: 1, 1, 1, 1>}
  mie.gemm ins(%x, %m : memref<128x768xf16>, memref<768x768xf16>) outs(%y : memref<128x768xf16>) {accumulator = f32}
  mie.gemm ins(%x, %w : memref<128x768xf16>, memref<768x768xf16>) outs(%y : memref<128x768xf16>) {accumulator = f16}
  return
}
}

// -----

// Tests that every product left to the portable path says why (mie.portable, read by
// --report=kernels and the compile-time warning): a grouped convolution, a convolution whose
// filter is computed at run time, and a bf16 attention; a served one gets no mark.

// CHECK-LABEL: func.func @portable_reasons
// CHECK: mie.conv2d
// CHECK-SAME: mie.portable = "convolution [1, 32, 14, 14] f32 * [32, 8, 3, 3] f32: 4 groups of 8 channels (the convolution microkernels take one group)"
// CHECK: mie.conv2d
// CHECK-SAME: mie.portable = "convolution [1, 32, 14, 14] f32 * [32, 32, 3, 3] f32: its filter is computed at run time (the microkernels read filters packed at compile time)"
// CHECK: mie.attention
// CHECK-SAME: mie.portable = "attention [2, 4, 8] bf16: bf16 (the attention microkernel is f32)"
// CHECK: mie.conv2d
// CHECK-NOT: mie.portable
// CHECK-SAME: ukernel = #mie.ukernel<winograd_4x4
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+f16c">} {
memref.global "private" constant @wg : memref<32x8x3x3xf32> = dense<1.0>
memref.global "private" constant @w : memref<32x32x3x3xf32> = dense<1.0>
func.func @portable_reasons(%x: memref<1x32x14x14xf32>, %y: memref<1x32x14x14xf32>, %wr: memref<32x32x3x3xf32>,
                            %q: memref<2x4x8xbf16>, %o: memref<2x4x8xbf16>) {
  %wg = memref.get_global @wg : memref<32x8x3x3xf32>
  mie.conv2d ins(%x, %wg : memref<1x32x14x14xf32>, memref<32x8x3x3xf32>) outs(%y : memref<1x32x14x14xf32>) {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>}
  mie.conv2d ins(%x, %wr : memref<1x32x14x14xf32>, memref<32x32x3x3xf32>) outs(%y : memref<1x32x14x14xf32>) {pads = array<i64: 1, 1, 1, 1>}
  mie.attention ins(%q, %q, %q : memref<2x4x8xbf16>, memref<2x4x8xbf16>, memref<2x4x8xbf16>) outs(%o : memref<2x4x8xbf16>) {scale = 0.125 : f64}
  %w = memref.get_global @w : memref<32x32x3x3xf32>
  mie.conv2d ins(%x, %w : memref<1x32x14x14xf32>, memref<32x32x3x3xf32>) outs(%y : memref<1x32x14x14xf32>) {pads = array<i64: 1, 1, 1, 1>}
  return
}
}

// -----

// Tests code for symbolic dims: a product over run-time rows (batch x seq, up to 8 x 384 = 3072)
// takes the register tiles that score best over row counts spread in log scale from 1 to 3072
// (utilization x FMAs per load; AVX2 has no two tiles of one nr that beat its 4x24 tile alone,
// AVX-512 pairs 8x48 with 7x48 for the runs that 7 rows fill better), blocks sized for the most rows (192-row blocks, K in one block),
// its row panels packed once per run and shared, and its columns split into 16 blocks so that a
// run of one row still gives every thread work; attention's query rows per item are chosen for the longest sequence (384) and
// the fewest batch indices (1 x 12 heads).
// CHECK-LABEL: func.func @run_time_rows
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx2", mr = 4, nr = 24, kc = 768, mc = 192, nc = 192, shared_panels = true>}
// CHECK: mie.attention
// CHECK-SAME: query_rows = 192 : i64
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
memref.global "private" constant @w : memref<768x3072xf32> = dense<1.0>
func.func @run_time_rows(%x: memref<?x768xf32> {ms.shape = affine_map<()[s0, s1] -> (s0 * s1, 768)>}) attributes {ms.symbols = ["batch", "seq"], mie.symbol_ranges = array<i64: 1, 8, 1, 384>} {
  %w = memref.get_global @w : memref<768x3072xf32>
  %b = mie.symbol 0 : index
  %s = mie.symbol 1 : index
  %rows = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%b, %s]
  %y = mie.alloc(%rows) : memref<?x3072xf32>
  mie.gemm ins(%x, %w : memref<?x768xf32>, memref<768x3072xf32>) outs(%y : memref<?x3072xf32>)
  %q = mie.alloc(%b, %s) : memref<?x12x?x64xf32>
  %o = mie.alloc(%b, %s) : memref<?x12x?x64xf32>
  mie.attention ins(%q, %q, %q : memref<?x12x?x64xf32>, memref<?x12x?x64xf32>, memref<?x12x?x64xf32>) outs(%o : memref<?x12x?x64xf32>) {scale = 0.125 : f64}
  return
}
}

// -----

// The same product on AVX-512: the 8x48 tile with the 7-row one of the same nr for the runs whose
// rows pad less onto it (few_rows_mr; the lowering picks per run).
// CHECK-LABEL: func.func @run_time_rows_avx512
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx512", mr = 8, nr = 48, kc = 768, mc = 192, nc = 192, shared_panels = true, few_rows_mr = 7>}
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+avx512f">} {
memref.global "private" constant @w : memref<768x3072xf32> = dense<1.0>
func.func @run_time_rows_avx512(%x: memref<?x768xf32> {ms.shape = affine_map<()[s0, s1] -> (s0 * s1, 768)>}) attributes {ms.symbols = ["batch", "seq"], mie.symbol_ranges = array<i64: 1, 8, 1, 384>} {
  %w = memref.get_global @w : memref<768x3072xf32>
  %b = mie.symbol 0 : index
  %s = mie.symbol 1 : index
  %rows = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%b, %s]
  %y = mie.alloc(%rows) : memref<?x3072xf32>
  mie.gemm ins(%x, %w : memref<?x768xf32>, memref<768x3072xf32>) outs(%y : memref<?x3072xf32>)
  %q = mie.alloc(%b, %s) : memref<?x12x?x64xf32>
  %o = mie.alloc(%b, %s) : memref<?x12x?x64xf32>
  mie.attention ins(%q, %q, %q : memref<?x12x?x64xf32>, memref<?x12x?x64xf32>, memref<?x12x?x64xf32>) outs(%o : memref<?x12x?x64xf32>) {scale = 0.125 : f64}
  return
}
}

// -----

// On AVX-512 as well, weights that stay in cache (128 x 512, 256 KiB packed) keep one tile, that of
// a typical run (64 rows: 8x32), and no few-rows tile: their runs do not stream the weights, and a
// second tile would cost each call a run-time choice.
// CHECK-LABEL: func.func @run_time_rows_small_weights
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx512", mr = 8, nr = 32, kc = 128, mc = 1024, nc = 32, shared_panels = true>}
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma,+avx512f">} {
memref.global "private" constant @w : memref<128x512xf32> = dense<1.0>
func.func @run_time_rows_small_weights(%x: memref<?x128xf32> {ms.shape = affine_map<()[s0, s1] -> (s0 * s1, 768)>}) attributes {ms.symbols = ["batch", "seq"], mie.symbol_ranges = array<i64: 1, 8, 1, 384>} {
  %w = memref.get_global @w : memref<128x512xf32>
  %b = mie.symbol 0 : index
  %s = mie.symbol 1 : index
  %rows = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%b, %s]
  %y = mie.alloc(%rows) : memref<?x512xf32>
  mie.gemm ins(%x, %w : memref<?x128xf32>, memref<128x512xf32>) outs(%y : memref<?x512xf32>)
  return
}
}

// -----

// Tests code for symbolic dims: a product of two activations over run-time extents (here the
// weights are an argument) runs the activations tiling, chosen for the most rows (8) and the
// columns (32): 8 rows give one 6-row panel and a partial one, split until every thread has work.
// A reduced-precision one keeps the portable path and says why.
// CHECK-LABEL: func.func @run_time_activation_product
// CHECK: mie.gemm
// CHECK-SAME: ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 64, mc = 6, nc = 16>
// CHECK: mie.gemm
// CHECK-SAME: mie.portable = "product [?, 64] f16 * [64, 32] f16: run-time extents in a product the f32 tiles do not take"
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
func.func @run_time_activation_product(%x: memref<?x64xf32> {ms.shape = affine_map<()[s0] -> (s0, 64)>}, %w: memref<64x32xf32>,
                                       %h: memref<?x64xf16> {ms.shape = affine_map<()[s0] -> (s0, 64)>}, %hw: memref<64x32xf16>) attributes {ms.symbols = ["batch"], mie.symbol_ranges = array<i64: 1, 8>} {
  %b = mie.symbol 0 : index
  %y = mie.alloc(%b) : memref<?x32xf32>
  mie.gemm ins(%x, %w : memref<?x64xf32>, memref<64x32xf32>) outs(%y : memref<?x32xf32>)
  %hy = mie.alloc(%b) : memref<?x32xf16>
  mie.gemm ins(%h, %hw : memref<?x64xf16>, memref<64x32xf16>) outs(%hy : memref<?x32xf16>)
  return
}
}

// -----

// Tests code for symbolic dims: convolutions over a run-time batch (1..32) take the families that
// loop over images, tiled as for one image: Winograd for a 3x3 stride-1 layer, pixels as rows
// for a pointwise layer on a 14x14 map (per image: the static path's GEMM on views takes one image
// only), the depthwise kernel, the direct kernel for a 3-channel stem; max pooling its kernel.
// CHECK-LABEL: func.func @run_time_batch
// CHECK: mie.conv2d {{.+}}ukernel = #mie.ukernel<winograd_4x4, "avx2", mr = 6, nr = 16, kc = 64, mc = 66, nc = 208>}
// CHECK: mie.conv2d {{.+}}ukernel = #mie.ukernel<conv_pixel_rows, "avx2", mr = 6, nr = 16, kc = 1024, mc = 102, nc = 32, shared_panels = true>}
// CHECK: mie.conv2d {{.+}}ukernel = #mie.ukernel<depthwise, "avx2">}
// CHECK: mie.conv2d {{.+}}ukernel = #mie.ukernel<conv_direct, "avx2", mr = 6, nr = 16, kc = 27, mc = 18, nc = 16>}
// CHECK: mie.max_pool2d {{.+}}ukernel = #mie.ukernel<max_pool, "avx2">}
module attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">} {
memref.global "private" constant @w3 : memref<64x64x3x3xf32> = dense<1.0>
memref.global "private" constant @w1 : memref<256x1024x1x1xf32> = dense<1.0>
memref.global "private" constant @wd : memref<32x1x3x3xf32> = dense<1.0>
memref.global "private" constant @ws : memref<16x3x3x3xf32> = dense<1.0>
func.func @run_time_batch(%x: memref<?x64x56x56xf32> {ms.shape = affine_map<()[s0] -> (s0, 64, 56, 56)>},
                          %p: memref<?x1024x14x14xf32> {ms.shape = affine_map<()[s0] -> (s0, 1024, 14, 14)>},
                          %d: memref<?x32x28x28xf32> {ms.shape = affine_map<()[s0] -> (s0, 32, 28, 28)>},
                          %i: memref<?x3x32x32xf32> {ms.shape = affine_map<()[s0] -> (s0, 3, 32, 32)>}) attributes {ms.symbols = ["batch"], mie.symbol_ranges = array<i64: 1, 32>} {
  %b = mie.symbol 0 : index
  %w3 = memref.get_global @w3 : memref<64x64x3x3xf32>
  %y3 = mie.alloc(%b) : memref<?x64x56x56xf32>
  mie.conv2d ins(%x, %w3 : memref<?x64x56x56xf32>, memref<64x64x3x3xf32>) outs(%y3 : memref<?x64x56x56xf32>) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
  %w1 = memref.get_global @w1 : memref<256x1024x1x1xf32>
  %y1 = mie.alloc(%b) : memref<?x256x14x14xf32>
  mie.conv2d ins(%p, %w1 : memref<?x1024x14x14xf32>, memref<256x1024x1x1xf32>) outs(%y1 : memref<?x256x14x14xf32>) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
  %wd = memref.get_global @wd : memref<32x1x3x3xf32>
  %yd = mie.alloc(%b) : memref<?x32x28x28xf32>
  mie.conv2d ins(%d, %wd : memref<?x32x28x28xf32>, memref<32x1x3x3xf32>) outs(%yd : memref<?x32x28x28xf32>) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 32 : i64}
  %ws = memref.get_global @ws : memref<16x3x3x3xf32>
  %ys = mie.alloc(%b) : memref<?x16x16x16xf32>
  mie.conv2d ins(%i, %ws : memref<?x3x32x32xf32>, memref<16x3x3x3xf32>) outs(%ys : memref<?x16x16x16xf32>) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
  %yp = mie.alloc(%b) : memref<?x16x8x8xf32>
  mie.max_pool2d ins(%ys : memref<?x16x16x16xf32>) outs(%yp : memref<?x16x8x8xf32>) {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
  return
}
}
