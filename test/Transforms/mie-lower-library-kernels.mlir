// RUN: ms-opt %s -split-input-file -mie-lower-library-kernels | FileCheck %s

// Tests a padded convolution with bias and relu: one kernel that makes a zero-padded copy into a
// scratch output (a new buffer, placed by memory planning later), computes the convolution on it and
// applies the epilogue in place, the bias read along the channel dim. The kernel records the
// convolution's arithmetic (2 x 256 outputs x 27 taps).

// CHECK-DAG: #[[$CH:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_pad_bias_relu
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x3x8x8xf32>, %[[W:[^:]+]]: memref<4x3x3x3xf32>, %[[B:[^:]+]]: memref<4xf32>, %[[Y:[^:]+]]: memref<1x4x8x8xf32>)
// CHECK: %[[PAD:.+]] = mie.alloc : memref<1x3x10x10xf32>
// CHECK: mie.kernel "conv2d" ins(%[[X]], %[[W]], %[[B]] : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>, memref<4xf32>) outs(%[[Y]], %[[PAD]] : memref<1x4x8x8xf32>, memref<1x3x10x10xf32>)
// CHECK-SAME: attributes {mie.flops = 13824 : i64}
// CHECK: ^bb0(%[[PIN:.+]]: memref<1x3x8x8xf32>, %[[F:.+]]: memref<4x3x3x3xf32>, %[[BB:.+]]: memref<4xf32>, %[[O:.+]]: memref<1x4x8x8xf32>, %[[I:.+]]: memref<1x3x10x10xf32>):
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[I]] : memref<1x3x10x10xf32>)
// CHECK: %[[INNER:.+]] = memref.subview %[[I]][0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%[[PIN]] : memref<1x3x8x8xf32>) outs(%[[INNER]] :
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[O]] : memref<1x4x8x8xf32>)
// The convolution runs with its reductions outside the output rows (so the inner loop vectorizes).
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[I]], %[[F]] : {{.+}}) outs(%[[O]] : {{.+}})
// CHECK: linalg.generic {indexing_maps = [#[[$CH]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[BB]] : memref<4xf32>) outs(%[[O]] : memref<1x4x8x8xf32>)
// CHECK: ^bb0(%[[BIAS:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[BIAS]] : f32
// CHECK: %[[RELU:.+]] = arith.maximumf %[[SUM]], %{{.+}} : f32
// CHECK: linalg.yield %[[RELU]] : f32
// CHECK: mie.yield
// CHECK-NOT: mie.conv2d
// CHECK: return
func.func @conv_pad_bias_relu(%x: memref<1x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %b: memref<4xf32>,
                              %y: memref<1x4x8x8xf32>) {
  mie.conv2d ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) bias(%b : memref<4xf32>)
      outs(%y : memref<1x4x8x8xf32>)
      {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<bias, activation = relu>}
  return
}

// -----

// Tests asymmetric padding ([top, left, bottom, right] = [0, 1, 2, 3]): the padded buffer grows by
// top + bottom rows and left + right columns and the input lands at [top, left]; an identity
// epilogue adds no generic.

// CHECK-LABEL: func.func @conv_asymmetric_pads
// CHECK: %[[PAD:.+]] = mie.alloc : memref<1x3x10x12xf32>
// CHECK: mie.kernel "conv2d" ins(%{{.+}}, %{{.+}} : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%{{.+}}, %[[PAD]] : memref<1x4x8x10xf32>, memref<1x3x10x12xf32>)
// CHECK: memref.subview %{{.+}}[0, 0, 0, 1] [1, 3, 8, 8] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
// CHECK-NOT: linalg.generic
// CHECK: mie.yield
func.func @conv_asymmetric_pads(%x: memref<1x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %y: memref<1x4x8x10xf32>) {
  mie.conv2d ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%y : memref<1x4x8x10xf32>)
      {pads = array<i64: 0, 1, 2, 3>}
  return
}

// -----

// Tests a depthwise convolution (groups = channels = filters) with stride 2 and dilation 2: the
// filter collapses to [C, KH, KW] for linalg's depthwise form; no padding means no copy.

// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x8x9x9xf32>, %[[W:[^:]+]]: memref<8x1x3x3xf32>, %[[Y:[^:]+]]: memref<1x8x3x3xf32>)
// CHECK-NOT: mie.alloc
// CHECK: mie.kernel "conv2d" ins(%[[X]], %[[W]] : memref<1x8x9x9xf32>, memref<8x1x3x3xf32>) outs(%[[Y]] : memref<1x8x3x3xf32>)
// CHECK: ^bb0(%[[I:.+]]: memref<1x8x9x9xf32>, %[[F:.+]]: memref<8x1x3x3xf32>, %[[O:.+]]: memref<1x8x3x3xf32>):
// CHECK: %[[F3:.+]] = memref.collapse_shape %[[F]] {{\[\[}}0, 1], [2], [3]] : memref<8x1x3x3xf32> into memref<8x3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$DWIN:.+]], #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "reduction", "reduction", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[I]], %[[F3]] : memref<1x8x9x9xf32>, memref<8x3x3xf32>) outs(%[[O]] : memref<1x8x3x3xf32>)
func.func @depthwise(%x: memref<1x8x9x9xf32>, %w: memref<8x1x3x3xf32>, %y: memref<1x8x3x3xf32>) {
  mie.conv2d ins(%x, %w : memref<1x8x9x9xf32>, memref<8x1x3x3xf32>) outs(%y : memref<1x8x3x3xf32>)
      {strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>, groups = 8}
  return
}

// -----

// Tests a grouped convolution (2 groups of 4 input channels, 2 filters each) with a residual and a
// clamp: input, filter and output are viewed as [N, G, C/G, H, W], [G, F/G, C/G, KH, KW] and
// [N, G, F/G, OH, OW]; the epilogue adds the residual element by element, then clamps to [0, 6].

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @grouped_residual_clamp
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x8x6x6xf32>, %[[W:[^:]+]]: memref<4x4x3x3xf32>, %[[R:[^:]+]]: memref<1x4x4x4xf32>, %[[Y:[^:]+]]: memref<1x4x4x4xf32>)
// CHECK: mie.kernel "conv2d" ins(%[[X]], %[[W]], %[[R]] : memref<1x8x6x6xf32>, memref<4x4x3x3xf32>, memref<1x4x4x4xf32>) outs(%[[Y]] : memref<1x4x4x4xf32>)
// CHECK: ^bb0(%[[I:.+]]: memref<1x8x6x6xf32>, %[[F:.+]]: memref<4x4x3x3xf32>, %[[RR:.+]]: memref<1x4x4x4xf32>, %[[O:.+]]: memref<1x4x4x4xf32>):
// CHECK-DAG: %[[GF:.+]] = memref.expand_shape %[[F]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 2, 4, 3, 3] : memref<4x4x3x3xf32> into memref<2x2x4x3x3xf32>
// CHECK-DAG: %[[GI:.+]] = memref.expand_shape %[[I]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 4, 6, 6] : memref<1x8x6x6xf32> into memref<1x2x4x6x6xf32>
// CHECK-DAG: %[[GO:.+]] = memref.expand_shape %[[O]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 4] : memref<1x4x4x4xf32> into memref<1x2x2x4x4xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[GI]], %[[GF]] : memref<1x2x4x6x6xf32>, memref<2x2x4x3x3xf32>) outs(%[[GO]] : memref<1x2x2x4x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], {{.+}}} ins(%[[RR]] : memref<1x4x4x4xf32>) outs(%[[O]] : memref<1x4x4x4xf32>)
// CHECK: ^bb0(%[[RES:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[RES]] : f32
// CHECK: %[[LO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[MAX:.+]] = arith.maximumf %[[SUM]], %[[LO]] : f32
// CHECK: %[[HI:.+]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[MIN:.+]] = arith.minimumf %[[MAX]], %[[HI]] : f32
// CHECK: linalg.yield %[[MIN]] : f32
func.func @grouped_residual_clamp(%x: memref<1x8x6x6xf32>, %w: memref<4x4x3x3xf32>,
                                  %r: memref<1x4x4x4xf32>, %y: memref<1x4x4x4xf32>) {
  mie.conv2d ins(%x, %w : memref<1x8x6x6xf32>, memref<4x4x3x3xf32>) residual(%r : memref<1x4x4x4xf32>)
      outs(%y : memref<1x4x4x4xf32>) {groups = 2, epilogue = #mie.epilogue<residual, clamp = [0.0, 6.0]>}
  return
}

// -----

// Tests a depthwise convolution with channel multiplier 2 (groups = channels, filters = 2 x
// channels): not linalg's depthwise form, so the general grouped one.

// CHECK-LABEL: func.func @depthwise_multiplier
// CHECK: memref.expand_shape %{{.+}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [4, 2, 1, 3, 3] : memref<8x1x3x3xf32> into memref<4x2x1x3x3xf32>
// CHECK: memref.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 4, 1, 6, 6]
// CHECK: memref.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 4, 2, 4, 4]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
// CHECK-NOT: linalg.depthwise
func.func @depthwise_multiplier(%x: memref<1x4x6x6xf32>, %w: memref<8x1x3x3xf32>, %y: memref<1x8x4x4xf32>) {
  mie.conv2d ins(%x, %w : memref<1x4x6x6xf32>, memref<8x1x3x3xf32>) outs(%y : memref<1x8x4x4xf32>) {groups = 4}
  return
}

// -----

// Tests the direct form of a stem-like convolution (3 channels, 3x3 stride 2): one parallel loop
// over bands of 2 output rows (nc = 48 pixels: 2 rows of one 24-pixel tile), ceil(5 / 2) = 3
// items; a stack plane for a band's padded rows (3 channels x 5 rows x 64 floats: whole 24-pixel
// tiles of a row at stride 2, rounded up); the direct kernel of the 4x24 tile with the packed
// filter, and no pixel panels packed.

// CHECK-LABEL: func.func @conv_direct
// CHECK: mie.kernel "conv2d_direct"
// CHECK-SAME: attributes {mie.flops = 10800 : i64}
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<960xf32>
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c3) step (%c1)
// CHECK: func.call @mie_uk_f32_conv_direct_nchw_4x24_avx2(
// CHECK-NOT: mie_uk_f32_pack_conv_nchw
func.func @conv_direct(%x: memref<1x3x9x9xf32>, %w: memref<2x27x4xf32>, %b: memref<8xf32>, %y: memref<1x8x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<1x3x9x9xf32>, memref<2x27x4xf32>) bias(%b : memref<8xf32>) outs(%y : memref<1x8x5x5xf32>) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 3, 3, 3>, epilogue = #mie.epilogue<bias, activation = relu>, ukernel = #mie.ukernel<conv_direct, "avx2", mr = 4, nr = 24, kc = 27, mc = 8, nc = 48>}
  return
}

// -----

// Tests the transposed-output GEMM (a 1x1 convolution with pixels as rows): trans_a rows packed
// from a [K, M] buffer (the pack reads it transposed), tiles storing with MIE_UK_TRANSPOSE_C (64)
// into the [N, M] output at offset col * M + row with ld = M = 3, bias per product column.

// CHECK-LABEL: func.func @gemm_ukernel_trans_c
// CHECK: func.call @mie_uk_f32_pack_lhs_avx2(%{{[^,]+}}, %c0_i64, %c3_i64, %c1_i64,
// CHECK: %[[FLAGS:.+]] = arith.ori %c14_i64, %c64_i64 : i64
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2({{.*}}, %c3_i64, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[FLAGS]],
func.func @gemm_ukernel_trans_c(%a: memref<8x3xf32>, %b: memref<2x8x16xf32>, %bias: memref<20xf32>, %c: memref<20x3xf32>) {
  mie.gemm ins(%a, %b : memref<8x3xf32>, memref<2x8x16xf32>) bias(%bias : memref<20xf32>) outs(%c : memref<20x3xf32>) {trans_a, trans_c, b_packed, epilogue = #mie.epilogue<bias>, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 6, nc = 16, shared_panels = true>}
  return
}

// -----

// Tests the portable form of a transposed-output GEMM: the product's (m, n) lands at output
// (n, m), and the bias (per product column) runs along the output's rows.

// CHECK-DAG: #[[$CT:.+]] = affine_map<(d0, d1, d2) -> (d1, d0)>
// CHECK-DAG: #[[$ROWS:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @gemm_trans_c
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #[[$CT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#[[$ROWS]], #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : memref<32xf32>) outs(%{{.+}} : memref<32x8xf32>)
func.func @gemm_trans_c(%a: memref<8x16xf32>, %w: memref<16x32xf32>, %b: memref<32xf32>,
                        %y: memref<32x8xf32>) {
  mie.gemm ins(%a, %w : memref<8x16xf32>, memref<16x32xf32>) bias(%b : memref<32xf32>)
      outs(%y : memref<32x8xf32>) {trans_c, epilogue = #mie.epilogue<bias>}
  return
}

// -----

// Tests a GEMM with trans_b, alpha and a bias: the product over [m, n, k] reads b as [n, k], is
// scaled by alpha, then the bias is added along the columns.

// CHECK-DAG: #[[$A:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$BT:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$C:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$COLS:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @gemm_trans_b_alpha_bias
// CHECK-SAME: (%[[A:[^:]+]]: memref<8x16xf32>, %[[W:[^:]+]]: memref<32x16xf32>, %[[B:[^:]+]]: memref<32xf32>, %[[Y:[^:]+]]: memref<8x32xf32>)
// CHECK: mie.kernel "gemm" ins(%[[A]], %[[W]], %[[B]] : memref<8x16xf32>, memref<32x16xf32>, memref<32xf32>) outs(%[[Y]] : memref<8x32xf32>)
// CHECK: ^bb0(%[[KA:.+]]: memref<8x16xf32>, %[[KW:.+]]: memref<32x16xf32>, %[[KB:.+]]: memref<32xf32>, %[[O:.+]]: memref<8x32xf32>):
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[O]] : memref<8x32xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$A]], #[[$BT]], #[[$C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[KA]], %[[KW]] : {{.+}}) outs(%[[O]] : {{.+}})
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[$ID]]], iterator_types = ["parallel", "parallel"]} outs(%[[O]] : memref<8x32xf32>)
// CHECK: %[[ALPHA:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: arith.mulf %{{.+}}, %[[ALPHA]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[$COLS]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[KB]] : memref<32xf32>) outs(%[[O]] : memref<8x32xf32>)
// CHECK: arith.addf
// CHECK-NOT: mie.gemm
func.func @gemm_trans_b_alpha_bias(%a: memref<8x16xf32>, %w: memref<32x16xf32>, %b: memref<32xf32>,
                                   %y: memref<8x32xf32>) {
  mie.gemm ins(%a, %w : memref<8x16xf32>, memref<32x16xf32>) bias(%b : memref<32xf32>)
      outs(%y : memref<8x32xf32>) {trans_b, alpha = 0.5 : f64, epilogue = #mie.epilogue<bias>}
  return
}

// -----

// Tests a batched GEMM with trans_a and the identity epilogue: iteration space [batch, m, n, k], a
// read as [batch, k, m]; no scaling and no epilogue generic.

// CHECK-DAG: #[[$AT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG: #[[$B:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[$C:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @gemm_batched_trans_a
// CHECK: mie.kernel "gemm" ins(%{{.+}}, %{{.+}} : memref<2x16x8xf32>, memref<2x16x4xf32>) outs(%{{.+}} : memref<2x8x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$AT]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: mie.yield
func.func @gemm_batched_trans_a(%a: memref<2x16x8xf32>, %b: memref<2x16x4xf32>, %y: memref<2x8x4xf32>) {
  mie.gemm ins(%a, %b : memref<2x16x8xf32>, memref<2x16x4xf32>) outs(%y : memref<2x8x4xf32>) {trans_a}
  return
}

// -----

// Tests an f16 GEMM with a residual and gelu: constants in the buffers' element type, erf for gelu.

// CHECK-LABEL: func.func @gemm_residual_gelu
// CHECK: mie.kernel "gemm" ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<8x16xf16>, memref<16x32xf16>, memref<8x32xf16>)
// CHECK: arith.constant 0.000000e+00 : f16
// CHECK: linalg.generic
// CHECK: linalg.generic {{.+}} ins(%{{.+}} : memref<8x32xf16>) outs(%{{.+}} : memref<8x32xf16>)
// CHECK: %[[SUM:.+]] = arith.addf
// CHECK: math.erf %{{.+}} : f16
// CHECK: linalg.yield
func.func @gemm_residual_gelu(%a: memref<8x16xf16>, %b: memref<16x32xf16>, %r: memref<8x32xf16>,
                              %y: memref<8x32xf16>) {
  mie.gemm ins(%a, %b : memref<8x16xf16>, memref<16x32xf16>) residual(%r : memref<8x32xf16>)
      outs(%y : memref<8x32xf16>) {epilogue = #mie.epilogue<residual, activation = gelu>}
  return
}

// -----

// Tests the microkernel form of a tiled convolution with a packed filter (3x3, K = 18 in one block,
// 25 pixels in per-item blocks of 16): one parallel loop over (image, pixel block) items, each packing
// its pixel panels into a stack buffer and running 4x8 tiles over the filter panels with the bias
// and relu epilogue in the flags (262 = epilogue | bias | relu << 8); the tiles are declared.

// CHECK-LABEL: func.func @conv_ukernel
// CHECK: mie.kernel "conv2d" ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<1x2x5x5xf32>, memref<2x18x4xf32>, memref<8xf32>) outs(%{{.+}} : memref<1x8x5x5xf32>)
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<288xf32>
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c2) step
// CHECK: func.call @mie_uk_f32_pack_conv_nchw_avx2(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: func.call @mie_uk_f32_gemm_4x8_avx2({{.*}}%c262_i64
// CHECK: func.func private @mie_uk_f32_pack_conv_nchw_avx2(!llvm.ptr, i64
// CHECK: func.func private @mie_uk_f32_gemm_4x8_avx2(!llvm.ptr, i64, !llvm.ptr
func.func @conv_ukernel(%x: memref<1x2x5x5xf32>, %w: memref<2x18x4xf32>, %b: memref<8xf32>, %y: memref<1x8x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<2x18x4xf32>) bias(%b : memref<8xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<bias, activation = relu>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 8, kc = 18, mc = 8, nc = 16>}
  return
}

// -----

// Tests shared panels: a first parallel loop packs every pixel panel (4 of 8 lanes, all of K) into an
// arena buffer (a new mie.alloc, an extra kernel output), a second one runs the tiles without packing.

// CHECK-LABEL: func.func @conv_shared
// CHECK: %[[PANELS:.+]] = mie.alloc : memref<576xf32>
// CHECK: mie.kernel "conv2d" ins({{.*}}) outs(%{{.+}}, %[[PANELS]] : memref<1x8x5x5xf32>, memref<576xf32>)
// CHECK: scf.parallel
// CHECK: func.call @mie_uk_f32_pack_conv_nchw_avx2(
// CHECK: scf.parallel
// CHECK-NOT: mie_uk_f32_pack
// CHECK: func.call @mie_uk_f32_gemm_4x8_avx2(
func.func @conv_shared(%x: memref<1x2x5x5xf32>, %w: memref<2x18x4xf32>, %y: memref<1x8x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<2x18x4xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 8, kc = 18, mc = 4, nc = 8, shared_panels = true>}
  return
}

// -----

// Tests a channels-last depthwise convolution on the NHWC microkernel (filter packed [KH * KW, C]):
// no scratch plane, work items are bands of output rows of one image (7 rows: 7 bands of one row
// each, at most 16), every band all 8 channels, with the bias and a residual read at the output's
// offset; and a channels-last convolution of one group on the generic lowering: a padded NHWC copy
// (pads along H and W) and one linalg.generic whose innermost loop runs over the output channels.

// CHECK-LABEL: func.func @channels_last_depthwise
// CHECK: mie.kernel "dwconv_nhwc"
// CHECK-NOT: memref.alloca
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c7) step
// CHECK: func.call @mie_uk_f32_dwconv_nhwc_avx512(
// CHECK: mie.kernel "conv2d"
// CHECK: memref.subview %{{.+}}[0, 1, 1, 0] [1, 7, 7, 4] [1, 1, 1, 1]
// CHECK: linalg.generic {{.+}}iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]
func.func @channels_last_depthwise(%x: memref<1x7x7x8xf32>, %w: memref<9x8xf32>, %b: memref<8xf32>,
                                   %r: memref<1x7x7x8xf32>, %y: memref<1x7x7x8xf32>,
                                   %g: memref<4x4x3x3xf32>, %gx: memref<1x7x7x4xf32>, %gy: memref<1x7x7x4xf32>) {
  mie.conv2d ins(%x, %w : memref<1x7x7x8xf32>, memref<9x8xf32>) bias(%b : memref<8xf32>) residual(%r : memref<1x7x7x8xf32>) outs(%y : memref<1x7x7x8xf32>) {channels_last, epilogue = #mie.epilogue<bias, residual>, filter_shape = array<i64: 8, 1, 3, 3>, groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<depthwise, "avx512">}
  mie.conv2d ins(%gx, %g : memref<1x7x7x4xf32>, memref<4x4x3x3xf32>) outs(%gy : memref<1x7x7x4xf32>) {channels_last, pads = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// Tests a depthwise convolution on its microkernel: channels split over a parallel loop, a stack
// buffer for the padded plane (6 rows of 32 floats: a row's whole 16-lane vectors, 16 + 2 + 1 read,
// rounded up to 16), the filter read as it is.

// CHECK-LABEL: func.func @depthwise_ukernel
// CHECK: mie.kernel "dwconv"
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<192xf32>
// CHECK: scf.parallel
// CHECK: func.call @mie_uk_f32_dwconv_nchw_avx2(
func.func @depthwise_ukernel(%x: memref<1x4x4x4xf32>, %w: memref<4x1x3x3xf32>, %y: memref<1x4x4x4xf32>) {
  mie.conv2d ins(%x, %w : memref<1x4x4x4xf32>, memref<4x1x3x3xf32>) outs(%y : memref<1x4x4x4xf32>) {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<depthwise, "avx2">}
  return
}

// -----

// Tests max pooling in generated loops: no padded copy; one parallel loop over the output rows
// (64 channels x 56), each started at -inf, its window rows checked against the image at run time;
// the row buffer holds the columns split by residue (even at g, odd at g + 56), so the column pass's
// taps read contiguous runs; each tap covers the output columns whose input lies in the image (the
// left tap skips column 0). Ceil mode: the last window (columns 111..113) runs past the input, so
// after tap 0 (all 38 columns) taps 1 and 2 stop before output column 37.

// CHECK-LABEL: func.func @max_pool_loops
// CHECK: mie.kernel "max_pool" ins(%{{.+}} : memref<1x64x112x112xf32>) outs(%{{.+}} : memref<1x64x56x56xf32>)
// CHECK: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c3584) step (%c1)
// CHECK: memref.store %[[NEGINF]]
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK: scf.for %[[G:.+]] = %c0{{[_0-9]*}} to %c56{{[_0-9]*}} step
// CHECK: memref.load %alloca[%{{.+}}] : memref<112xf32>
// CHECK: %[[C56:.+]] = arith.constant 56 : index
// CHECK-NEXT: arith.addi %[[G]], %[[C56]] : index
// CHECK: scf.for %{{.+}} = %c1{{[_0-9]*}} to %c56{{[_0-9]*}} step
// CHECK: arith.maximumf
// CHECK: scf.for %{{.+}} = %c0{{[_0-9]*}} to %c56{{[_0-9]*}} step
// CHECK: scf.for %{{.+}} = %c0{{[_0-9]*}} to %c56{{[_0-9]*}} step
// CHECK: mie.kernel "max_pool" ins(%{{.+}} : memref<1x64x112x112xf32>) outs(%{{.+}} : memref<1x64x38x38xf32>)
// CHECK: scf.for %{{.+}} = %c0{{[_0-9]*}} to %c38{{[_0-9]*}} step
// CHECK: scf.for %{{.+}} = %c0{{[_0-9]*}} to %c38{{[_0-9]*}} step
// CHECK: scf.for %{{.+}} = %c0{{[_0-9]*}} to %c37{{[_0-9]*}} step
// CHECK: scf.for %{{.+}} = %c0{{[_0-9]*}} to %c37{{[_0-9]*}} step
// CHECK-NOT: mie.max_pool2d
func.func @max_pool_loops(%x: memref<1x64x112x112xf32>, %y: memref<1x64x56x56xf32>, %c: memref<1x64x38x38xf32>) {
  mie.max_pool2d ins(%x : memref<1x64x112x112xf32>) outs(%y : memref<1x64x56x56xf32>) {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  mie.max_pool2d ins(%x : memref<1x64x112x112xf32>) outs(%c : memref<1x64x38x38xf32>) {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>}
  return
}

// -----

// Tests max pooling on its microkernel: a stack row buffer (mie_uk_maxpool_row_floats: 64 output
// lanes x stride 2 + 2 + 16 + 1 = 147 floats), channels split over a parallel loop (16 items of 4
// channels: at most C / 16 each), every geometry argument passed.

// CHECK-LABEL: func.func @max_pool_ukernel
// CHECK: mie.kernel "max_pool"
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<147xf32>
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c16) step (%c1)
// CHECK: func.call @mie_uk_f32_maxpool_nchw_avx512(
// CHECK-NOT: mie.max_pool2d
func.func @max_pool_ukernel(%x: memref<1x64x112x112xf32>, %y: memref<1x64x56x56xf32>) {
  mie.max_pool2d ins(%x : memref<1x64x112x112xf32>) outs(%y : memref<1x64x56x56xf32>) {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, ukernel = #mie.ukernel<max_pool, "avx512">}
  return
}

// -----

// Tests a GEMM with packed B on shared row panels: the rows are packed once (mie_uk_f32_pack_lhs),
// then tiles with the bias per column (flags 14 = epilogue | bias | per column).

// CHECK-LABEL: func.func @gemm_ukernel
// CHECK: mie.alloc : memref<48xf32>
// CHECK: func.call @mie_uk_f32_pack_lhs_avx2(
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2({{.*}}%c14_i64
func.func @gemm_ukernel(%a: memref<3x8xf32>, %b: memref<2x8x16xf32>, %bias: memref<20xf32>, %c: memref<3x20xf32>) {
  mie.gemm ins(%a, %b : memref<3x8xf32>, memref<2x8x16xf32>) bias(%bias : memref<20xf32>) outs(%c : memref<3x20xf32>) {b_packed, epilogue = #mie.epilogue<bias>, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 6, nc = 16, shared_panels = true>}
  return
}

// -----

// Tests the Winograd F(2x2, 3x3) form: V [16 x C x tiles] and M [16 x F x tiles] become arena buffers
// (9 tiles of a 5x5 output), three parallel loops run the input transform, the 16 GEMMs (V read in
// place, flags without epilogue; the first filter tile on each in-place panel prefetches the next
// one, MIE_UK_PREFETCH_NEXT_B = 128) and the output transform with the bias + relu epilogue (262). The
// kernel is credited with the direct convolution's arithmetic (2 x 200 outputs x 18 taps).

// CHECK-LABEL: func.func @conv_winograd
// CHECK: %[[V:.+]] = mie.alloc : memref<288xf32>
// CHECK: %[[M:.+]] = mie.alloc : memref<1152xf32>
// CHECK: mie.kernel "conv2d_winograd" {{.*}}outs(%{{.+}}, %[[V]], %[[M]] :
// CHECK-SAME: attributes {mie.flops = 7200 : i64}
// CHECK: scf.parallel
// CHECK: func.call @mie_uk_f32_winograd_input_2x2_3x3_avx2(
// CHECK: scf.parallel
// CHECK: %[[FIRST:.+]] = arith.cmpi eq,
// CHECK: %[[PREFETCH:.+]] = arith.ori %{{.+}}, %c128_i64 : i64
// CHECK: %[[TFLAGS:.+]] = arith.select %[[FIRST]], %[[PREFETCH]], %{{.+}} : i64
// CHECK: func.call @mie_uk_f32_gemm_4x8_avx2({{.*}}, %[[TFLAGS]],
// CHECK: scf.parallel
// CHECK: func.call @mie_uk_f32_winograd_output_2x2_3x3_avx2({{.*}}%c262_i64
func.func @conv_winograd(%x: memref<1x2x5x5xf32>, %w: memref<16x2x2x4xf32>, %b: memref<8xf32>, %y: memref<1x8x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<16x2x2x4xf32>) bias(%b : memref<8xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<bias, activation = relu>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<winograd_2x2, "avx2", mr = 4, nr = 8, kc = 2, mc = 8, nc = 16>}
  return
}

// -----

// Tests the Winograd F(4x4, 3x3) form: a 10x10 output is 3x3 = 9 tiles of 4x4, so V [36 x 2 x 9]
// and M [36 x 8 x 9], the 4x4 transforms, and 36 GEMM items (one per element, all tiles each).

// CHECK-LABEL: func.func @conv_winograd4
// CHECK: %[[V:.+]] = mie.alloc : memref<648xf32>
// CHECK: %[[M:.+]] = mie.alloc : memref<2592xf32>
// CHECK: mie.kernel "conv2d_winograd" {{.*}}outs(%{{.+}}, %[[V]], %[[M]] :
// CHECK: func.call @mie_uk_f32_winograd_input_4x4_3x3_avx2(
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c36)
// CHECK: func.call @mie_uk_f32_gemm_4x8_avx2(
// CHECK: func.call @mie_uk_f32_winograd_output_4x4_3x3_avx2({{.*}}%c262_i64
func.func @conv_winograd4(%x: memref<1x2x10x10xf32>, %w: memref<36x2x2x4xf32>, %b: memref<8xf32>, %y: memref<1x8x10x10xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x10x10xf32>, memref<36x2x2x4xf32>) bias(%b : memref<8xf32>) outs(%y : memref<1x8x10x10xf32>) {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<bias, activation = relu>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<winograd_4x4, "avx2", mr = 4, nr = 8, kc = 2, mc = 8, nc = 16>}
  return
}

// -----

// Tests that attention on the microkernel is one kernel of (batch index, query row group) items:
// 24 heads of 128 rows give 24 items of all 128 rows; the per-thread scratch holds the key tile
// panels and the running softmax state. The mask [2, 1, 1, 128] broadcasts over heads and query
// rows: its offset takes the batch digit (item / 12) % 2 times 128, row stride 0, key stride 1.
// CHECK-LABEL: func.func @attention_ukernel
// CHECK: mie.kernel "attention" ins({{.+}}) outs({{.+}}) attributes {mie.flops = 100663296 : i64}
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<19712xf32>
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c24{{[_0-9]*}}) step
// CHECK: %[[C12:.+]] = arith.constant 12 : index
// CHECK: %[[HEADS:.+]] = arith.divui %{{.+}}, %[[C12]] : index
// CHECK: arith.remui %[[HEADS]], %{{.+}}
// CHECK: %[[ROWSTRIDE:.+]] = arith.constant 0 : i64
// CHECK: %[[KEYSTRIDE:.+]] = arith.constant 1 : i64
// CHECK: func.call @mie_uk_f32_attention_avx2({{.+}}, %[[ROWSTRIDE]], %[[KEYSTRIDE]], {{.+}}) : (!llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, i64, f32, i64, i64, !llvm.ptr) -> ()
// CHECK: func.func private @mie_uk_f32_attention_avx2
func.func @attention_ukernel(%q: memref<2x12x128x64xf32>, %k: memref<2x12x128x64xf32>, %v: memref<2x12x128x64xf32>,
                             %m: memref<2x1x1x128xf32>, %o: memref<2x12x128x64xf32>) {
  mie.attention ins(%q, %k, %v : memref<2x12x128x64xf32>, memref<2x12x128x64xf32>, memref<2x12x128x64xf32>) mask(%m : memref<2x1x1x128xf32>) outs(%o : memref<2x12x128x64xf32>) {scale = 0.125 : f64, ukernel = #mie.ukernel<attention, "avx2">}
  return
}

// -----

// Tests the portable attention (no microkernel): a parallel loop over (batch, query row); per row
// the scores live in a stack buffer inside an alloca scope, then the exps and the normalization.
// CHECK-LABEL: func.func @attention_portable
// The reason mie-select-kernels gave for the portable path travels to the kernel.
// CHECK: mie.kernel "attention" ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x4xf32>) outs(%{{.+}} : memref<2x4x4xf32>) attributes {mie.flops = 1152 : i64, mie.portable = "attention: a test's reason"}
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) =
// CHECK: memref.alloca_scope
// CHECK: memref.alloca() : memref<6xf32>
// CHECK: math.exp
// CHECK: arith.divf
// CHECK-NOT: func.call
func.func @attention_portable(%q: memref<2x4x8xf32>, %k: memref<2x6x8xf32>, %v: memref<2x6x4xf32>, %o: memref<2x4x4xf32>) {
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x4xf32>) outs(%o : memref<2x4x4xf32>) {scale = 0.5 : f64, mie.portable = "attention: a test's reason"}
  return
}

// -----

// Tests token-major attention on the microkernel: the heads of a position share a row of
// 12 x 64 = 768 floats, so Q, K, V and the output rows of a head are 768 floats apart; 64 query
// rows per item make 12 x 2 items.
// CHECK-LABEL: func.func @attention_token_major
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c24{{[_0-9]*}}) step
// CHECK: %[[LD:.+]] = arith.constant 768 : i64
// CHECK: func.call @mie_uk_f32_attention_avx2(%{{.+}}, %{{.+}}, %[[LD]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %c128_i64, %c64_i64, %c64_i64
func.func @attention_token_major(%q: memref<1x128x12x64xf32>, %k: memref<1x128x12x64xf32>, %v: memref<1x128x12x64xf32>, %o: memref<1x128x12x64xf32>) {
  mie.attention ins(%q, %k, %v : memref<1x128x12x64xf32>, memref<1x128x12x64xf32>, memref<1x128x12x64xf32>) outs(%o : memref<1x128x12x64xf32>) {query_rows = 64 : i64, scale = 0.125 : f64, token_major, ukernel = #mie.ukernel<attention, "avx2">}
  return
}

// -----

// Tests the portable token-major attention: the loop runs over (head, query row) and indexes
// every buffer as [position, head, element].
// CHECK-LABEL: func.func @attention_token_major_portable
// CHECK: scf.parallel (%[[H:.+]], %[[I:.+]]) = (%{{.+}}, %{{.+}}) to (%c2, %c5)
// CHECK: memref.load %{{.+}}[%[[I]], %[[H]], %{{.+}}] : memref<5x2x8xf32>
// CHECK: memref.load %{{.+}}[%[[J:.+]], %[[H]], %{{.+}}] : memref<6x2x8xf32>
// CHECK: memref.load %{{.+}}[%{{.+}}, %[[H]], %{{.+}}] : memref<6x2x4xf32>
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[I]], %[[H]], %{{.+}}] : memref<5x2x4xf32>
func.func @attention_token_major_portable(%q: memref<5x2x8xf32>, %k: memref<6x2x8xf32>, %v: memref<6x2x4xf32>, %o: memref<5x2x4xf32>) {
  mie.attention ins(%q, %k, %v : memref<5x2x8xf32>, memref<6x2x8xf32>, memref<6x2x4xf32>) outs(%o : memref<5x2x4xf32>) {scale = 0.5 : f64, token_major}
  return
}

// -----

// Tests grouped-query attention on the microkernel: 8 query heads share 2 key/value heads
// (token-major), so query head h reads key/value head h / 4, whose rows are 2 x 64 = 128 floats
// apart while the query's are 8 x 64 = 512.
// CHECK-LABEL: func.func @attention_grouped_query
// CHECK: scf.parallel
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[KVH:.+]] = arith.divui %{{.+}}, %[[C4]] : index
// CHECK: %[[QLD:.+]] = arith.constant 512 : i64
// CHECK: arith.muli %[[KVH]], %{{.+}} : index
// CHECK: %[[KVLD:.+]] = arith.constant 128 : i64
// CHECK: func.call @mie_uk_f32_attention_avx2(%{{.+}}, %{{.+}}, %[[QLD]], %{{.+}}, %{{.+}}, %[[KVLD]], %{{.+}}, %{{.+}}, %c128_i64{{[_0-9]*}},
func.func @attention_grouped_query(%q: memref<1x96x8x64xf32>, %k: memref<1x96x2x64xf32>, %v: memref<1x96x2x64xf32>, %o: memref<1x96x8x64xf32>) {
  mie.attention ins(%q, %k, %v : memref<1x96x8x64xf32>, memref<1x96x2x64xf32>, memref<1x96x2x64xf32>) outs(%o : memref<1x96x8x64xf32>) {scale = 0.125 : f64, token_major, ukernel = #mie.ukernel<attention, "avx2">}
  return
}

// -----

// Tests the portable grouped-query attention: 6 query heads over 3 key/value heads, so keys and
// values are indexed with head h / 2.
// CHECK-LABEL: func.func @attention_grouped_query_portable
// CHECK: scf.parallel (%{{.+}}, %[[H:.+]], %[[I:.+]]) = (%{{.+}}, %{{.+}}, %{{.+}}) to (%{{.+}}, %c6, %c5)
// CHECK: %[[KVH:.+]] = arith.divui %[[H]], %c2 : index
// CHECK: memref.load %{{.+}}[%{{.+}}, %[[H]], %[[I]], %{{.+}}] : memref<1x6x5x8xf32>
// CHECK: memref.load %{{.+}}[%{{.+}}, %[[KVH]], %{{.+}}, %{{.+}}] : memref<1x3x7x8xf32>
// CHECK: memref.load %{{.+}}[%{{.+}}, %[[KVH]], %{{.+}}, %{{.+}}] : memref<1x3x7x4xf32>
func.func @attention_grouped_query_portable(%q: memref<1x6x5x8xf32>, %k: memref<1x3x7x8xf32>, %v: memref<1x3x7x4xf32>, %o: memref<1x6x5x4xf32>) {
  mie.attention ins(%q, %k, %v : memref<1x6x5x8xf32>, memref<1x3x7x8xf32>, memref<1x3x7x4xf32>) outs(%o : memref<1x6x5x4xf32>) {scale = 0.5 : f64}
  return
}

// -----

// Tests a batched GEMM of two activations (b transposed, a residual) on the microkernels: items are
// (batch, row block, column block) = 3 x 2 x 2; each packs its row block of a and its column block
// of op(b) (b [N, K] as stored: not transposed by the pack) per K block of 32 (K = 40: two blocks,
// the epilogue with the last), then runs the tiles, the residual at the output's offset.
// CHECK-LABEL: func.func @gemm_activations
// CHECK: mie.kernel "gemm" ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<3x20x40xf32>, memref<3x24x40xf32>, memref<3x20x24xf32>) outs(%{{.+}} : memref<3x20x24xf32>) attributes {mie.flops = 115200 : i64}
// CHECK-DAG: memref.alloca() {alignment = 64 : i64} : memref<384xf32>
// CHECK-DAG: memref.alloca() {alignment = 64 : i64} : memref<512xf32>
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c12) step
// CHECK: scf.for
// CHECK: func.call @mie_uk_f32_pack_lhs_avx2(%{{.+}}, %{{.+}}, %c40_i64, %c0_i64
// CHECK: func.call @mie_uk_f32_pack_lhs_avx2(%{{.+}}, %{{.+}}, %c40_i64{{[_0-9]*}}, %c0_i64
// CHECK: scf.if
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2
// CHECK: } else {
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2
func.func @gemm_activations(%a: memref<3x20x40xf32>, %b: memref<3x24x40xf32>, %r: memref<3x20x24xf32>, %c: memref<3x20x24xf32>) {
  mie.gemm ins(%a, %b : memref<3x20x40xf32>, memref<3x24x40xf32>) residual(%r : memref<3x20x24xf32>) outs(%c : memref<3x20x24xf32>) {trans_b, epilogue = #mie.epilogue<residual>, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 32, mc = 12, nc = 16>}
  return
}

// -----

// Tests causal attention on the microkernel: the causal flag (2) and, per item of 48 query rows,
// the last key its first query row sees: row r0 + (T - S) with 96 queries over 128 keys.
// CHECK-LABEL: func.func @attention_causal
// CHECK: scf.parallel
// CHECK: %[[R0:.+]] = arith.muli %{{.+}}, %c48 : index
// CHECK: %[[DIAG:.+]] = arith.addi %[[R0]], %c32 : index
// CHECK: %[[D64:.+]] = arith.index_cast %[[DIAG]] : index to i64
// CHECK: func.call @mie_uk_f32_attention_avx2({{.+}}, %c2_i64, %[[D64]], %{{.+}}) :
func.func @attention_causal(%q: memref<1x96x8x64xf32>, %k: memref<1x128x8x64xf32>, %v: memref<1x128x8x64xf32>, %o: memref<1x96x8x64xf32>) {
  mie.attention ins(%q, %k, %v : memref<1x96x8x64xf32>, memref<1x128x8x64xf32>, memref<1x128x8x64xf32>) outs(%o : memref<1x96x8x64xf32>) {causal, query_rows = 48 : i64, scale = 0.125 : f64, token_major, ukernel = #mie.ukernel<attention, "avx2">}
  return
}

// -----

// Tests the portable causal attention: scores of keys past row + (T - S) = row + 1 are -inf.
// CHECK-LABEL: func.func @attention_causal_portable
// CHECK: scf.parallel (%{{.+}}, %[[I:.+]]) =
// CHECK: %[[LAST:.+]] = arith.addi %[[I]], %c1{{[_0-9]*}} : index
// CHECK: %[[HIDDEN:.+]] = arith.cmpi ugt, %{{.+}}, %[[LAST]] : index
// CHECK: arith.select %[[HIDDEN]], %cst{{.*}}, %{{.+}} : f32
func.func @attention_causal_portable(%q: memref<2x4x8xf32>, %k: memref<2x5x8xf32>, %v: memref<2x5x4xf32>, %o: memref<2x4x4xf32>) {
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x5x8xf32>, memref<2x5x4xf32>) outs(%o : memref<2x4x4xf32>) {causal, scale = 0.5 : f64}
  return
}

// -----

// Tests a 1x1 stride-1 convolution reading the image in place as the K x N operand (rows P = 64
// apart, ldb = 64; blocks of 48 pixels): the first filter tile of each pixel panel prefetches the next panel's rows
// (MIE_UK_PREFETCH_NEXT_B = 128); the partial last panel is packed (ldb = nr = 16), no prefetch.

// CHECK-LABEL: func.func @conv_pointwise_in_place
// CHECK: scf.parallel
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}} : index
// CHECK: %[[PREFETCH:.+]] = arith.ori %c2_i64, %c128_i64 : i64
// CHECK: %[[TFLAGS:.+]] = arith.select %[[FIRST]], %[[PREFETCH]], %{{.+}} : i64
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2({{.*}}, %c64_i64, {{.*}}, %[[TFLAGS]],
// CHECK-NOT: arith.select
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2({{.*}}, %c16_i64{{[_0-9]*}}, {{.*}}, %c2_i64,
func.func @conv_pointwise_in_place(%x: memref<1x8x8x8xf32>, %w: memref<2x8x6xf32>, %y: memref<1x12x8x8xf32>) {
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<2x8x6xf32>) outs(%y : memref<1x12x8x8xf32>) {filter_shape = array<i64: 12, 8, 1, 1>, epilogue = #mie.epilogue<>, ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 12, nc = 48>}
  return
}

// -----

// Tests the work items of a GEMM with several row blocks (18 rows in blocks of 6) and column blocks
// (2 of 16): column block major, item -> (item / 3, item % 3), so the row blocks that stream the
// same weight panels run next to each other.

// CHECK-LABEL: func.func @gemm_items_column_major
// CHECK: scf.parallel (%[[ITEM:.+]]) = (%c0) to (%c6{{[_0-9]*}}) step (%c1)
// CHECK: arith.divui %[[ITEM]], %c3{{[_0-9]*}} : index
// CHECK: arith.remui %[[ITEM]], %c3{{[_0-9]*}} : index
func.func @gemm_items_column_major(%a: memref<18x8xf32>, %b: memref<2x8x16xf32>, %c: memref<18x32xf32>) {
  mie.gemm ins(%a, %b : memref<18x8xf32>, memref<2x8x16xf32>) outs(%c : memref<18x32xf32>) {b_packed, epilogue = #mie.epilogue<>, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 6, nc = 16>}
  return
}

// -----

// Tests a `conv_pixel_rows` convolution (a 3x3 stride-2 one on two images, 5x5 = 25 output pixels,
// 20 filters): first every (image, 6-pixel row panel) is packed over all of K = 27 by the
// convolution packing with a panel width of mr = 6 into the shared buffer (2 x 5 panels x 27 x 6
// floats); then items (image, column block of 16 filters, row block of 12 pixels) run the tiles on
// the filter's column panels, storing transposed (flags | 64) into the NCHW output at image * 500 +
// filter * 25 + pixel with ldc = 25, the bias per column (per filter) and the residual alike.

// CHECK-LABEL: func.func @conv_pixel_rows
// CHECK: %[[SHARED:.+]] = mie.alloc : memref<1620xf32>
// CHECK: scf.parallel (%[[P:.+]]) = (%c0{{.*}}) to (%c10) step
// CHECK: %[[IMG:.+]] = arith.divui %[[P]], %c5
// CHECK: %[[DST:.+]] = arith.muli %[[P]], %c162
// CHECK: arith.muli %[[IMG]], %c243
// CHECK: func.call @mie_uk_f32_pack_conv_nchw_avx2({{.*}}, %c5_i64, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %c6_i64, %{{.+}}, %{{.+}})
// CHECK: scf.parallel (%[[I:.+]]) = (%c0{{.*}}) to (%c12) step
// CHECK: %[[IMG2:.+]] = arith.divui %[[I]], %c6
// CHECK: arith.muli %[[IMG2]], %c500
// CHECK: %[[FLAGS:.+]] = arith.ori %c286_i64, %c64_i64 : i64
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2({{.*}}, %c16_i64, %{{.+}}, %[[C:.+]], %c25_i64, {{.*}}, %[[FLAGS]], {{.*}}, %[[C]], %c25_i64
func.func @conv_pixel_rows(%x: memref<2x3x9x9xf32>, %w: memref<2x27x16xf32>, %b: memref<20xf32>, %r: memref<2x20x5x5xf32>, %y: memref<2x20x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<2x3x9x9xf32>, memref<2x27x16xf32>) bias(%b : memref<20xf32>) residual(%r : memref<2x20x5x5xf32>) outs(%y : memref<2x20x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, filter_shape = array<i64: 20, 3, 3, 3>, epilogue = #mie.epilogue<bias, residual, activation = relu>, ukernel = #mie.ukernel<conv_pixel_rows, "avx2", mr = 6, nr = 16, kc = 27, mc = 12, nc = 16, shared_panels = true>}
  return
}

// -----

// Tests which microkernel lowerings let memory planning write the output over the residual
// (`mie.in_place_input`, the residual's index among the kernel's inputs): the tiles read the
// residual whole in the epilogue before storing the same elements, so a product of one K block
// (@residual_one_k_block: x, w, residual = 2; @gemm_residual: a, b, bias, residual = 3) and the
// Winograd form (only its output transform writes the output) qualify; with several K blocks
// (@residual_k_blocks, K = 18 in blocks of 8) the first ones store partial sums before the last
// reads the residual, so it does not.
// CHECK-LABEL: func.func @residual_one_k_block
// CHECK: mie.kernel "conv2d"
// CHECK-SAME: mie.in_place_input = 2 : i64
// CHECK-LABEL: func.func @residual_k_blocks
// CHECK: mie.kernel "conv2d"
// CHECK-NOT: mie.in_place_input
// CHECK-LABEL: func.func @gemm_residual
// CHECK: mie.kernel "gemm"
// CHECK-SAME: mie.in_place_input = 3 : i64
// CHECK-LABEL: func.func @winograd_residual
// CHECK: mie.kernel "conv2d_winograd"
// CHECK-SAME: mie.in_place_input = 2 : i64
func.func @residual_one_k_block(%x: memref<1x2x5x5xf32>, %w: memref<2x18x4xf32>, %r: memref<1x8x5x5xf32>, %y: memref<1x8x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<2x18x4xf32>) residual(%r : memref<1x8x5x5xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<residual>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 8, kc = 18, mc = 8, nc = 16>}
  return
}
func.func @residual_k_blocks(%x: memref<1x2x5x5xf32>, %w: memref<2x18x4xf32>, %r: memref<1x8x5x5xf32>, %y: memref<1x8x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<2x18x4xf32>) residual(%r : memref<1x8x5x5xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<residual>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 8, kc = 8, mc = 8, nc = 16>}
  return
}
func.func @gemm_residual(%a: memref<18x8xf32>, %b: memref<2x8x16xf32>, %bias: memref<32xf32>, %r: memref<18x32xf32>, %c: memref<18x32xf32>) {
  mie.gemm ins(%a, %b : memref<18x8xf32>, memref<2x8x16xf32>) bias(%bias : memref<32xf32>) residual(%r : memref<18x32xf32>) outs(%c : memref<18x32xf32>) {b_packed, epilogue = #mie.epilogue<bias, residual>, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 6, nc = 16>}
  return
}
func.func @winograd_residual(%x: memref<1x2x5x5xf32>, %w: memref<16x2x2x4xf32>, %r: memref<1x8x5x5xf32>, %y: memref<1x8x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<16x2x2x4xf32>) residual(%r : memref<1x8x5x5xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<residual>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<winograd_2x2, "avx2", mr = 4, nr = 8, kc = 2, mc = 8, nc = 16>}
  return
}

// -----

// Tests the AMX lowering of a bf16 product with packed weights [ceil(20 / 32), 128, 32] (K = 100
// rounded up): the 5 rows are packed once (shared panels, 32 rows x 128 k of bf16 = 2048 words)
// from bf16 over the real K = 100, then each item runs the bf16-output tile over all of K rounded
// up (k = 128), with no B row stride, the bias per column and the residual read in place.
// CHECK-LABEL: func.func @gemm_amx
// CHECK: %[[PANELS:.+]] = mie.alloc : memref<2048xf32>
// CHECK: mie.kernel "gemm"
// CHECK-SAME: mie.in_place_input = 3 : i64
// CHECK: func.call @mie_uk_bf16_pack_a_amx_bf16(%{{[^,]+}}, %{{[^,]+}}, %c100_i64, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %c100_i64{{[_0-9]*}}, %{{[^,]+}}, %{{[^,]+}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64) -> ()
// CHECK: %[[KP:.+]] = arith.index_cast %c128 : index to i64
// CHECK: func.call @mie_uk_bf16_gemm_32x32_amx_bf16c(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[KP]], {{.+}}) : (!llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, f32, f32) -> ()
func.func @gemm_amx(%a: memref<5x100xbf16>, %b: memref<1x128x32xbf16>, %bias: memref<20xbf16>, %r: memref<5x20xbf16>, %c: memref<5x20xbf16>) {
  mie.gemm ins(%a, %b : memref<5x100xbf16>, memref<1x128x32xbf16>) bias(%bias : memref<20xbf16>) residual(%r : memref<5x20xbf16>) outs(%c : memref<5x20xbf16>) {b_packed, epilogue = #mie.epilogue<bias, residual>, ukernel = #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 128, mc = 32, nc = 32, shared_panels = true>}
  return
}

// -----

// Tests the AMX lowering of a bf16 3x3 convolution (C = 4, K = 36 rounded up to 64; F = 40 filters in
// two A panels of 32 x 64; P = 6 x 6 = 36 pixels in two B panels): shared pixel panels (2 panels x
// 64 k x 32 pixels of bf16 = 2048 words) packed per (image, pixel panel) over all of K, then items
// running the bf16-output tile over k = 64 with the bias per filter (row) and the residual read in
// place; the window goes to the packing (KH, KW, SH, SW, PH, PW, DH, DW = 3, 3, 1, 1, 1, 1, 1, 1).
// CHECK-LABEL: func.func @conv_amx
// CHECK: %[[PANELS:.+]] = mie.alloc : memref<2048xf32>
// CHECK: mie.kernel "conv2d"
// CHECK-SAME: mie.in_place_input = 3 : i64
// CHECK: scf.parallel
// CHECK: func.call @mie_uk_bf16_pack_conv_amx({{.+}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64) -> ()
// CHECK: scf.parallel
// CHECK: %[[KP:.+]] = arith.constant 64 : i64
// CHECK: func.call @mie_uk_bf16_gemm_32x32_amx_bf16c(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[KP]], {{.+}}) : (!llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, f32, f32) -> ()
func.func @conv_amx(%x: memref<1x4x6x6xbf16>, %w: memref<2x64x32xbf16>, %bias: memref<40xbf16>, %r: memref<1x40x6x6xbf16>, %y: memref<1x40x6x6xbf16>) {
  mie.conv2d ins(%x, %w : memref<1x4x6x6xbf16>, memref<2x64x32xbf16>) bias(%bias : memref<40xbf16>) residual(%r : memref<1x40x6x6xbf16>) outs(%y : memref<1x40x6x6xbf16>) {accumulator = f32, pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<bias, residual>, filter_shape = array<i64: 40, 4, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "amx", mr = 32, nr = 32, kc = 64, mc = 64, nc = 64, shared_panels = true>}
  return
}

// -----

// Tests a bf16 depthwise convolution with the bf16 microkernel: the kernel's scratch holds the f32
// plane and the channel widened (mie_uk_bf16_dwconv_plane_floats: 192 + 16 + 2 x 16 + 9 = 249 floats).
// CHECK-LABEL: func.func @dwconv_bf16
// CHECK: mie.kernel "dwconv"
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<249xf32>
// CHECK: func.call @mie_uk_bf16_dwconv_nchw_avx512(
func.func @dwconv_bf16(%x: memref<1x4x4x4xbf16>, %w: memref<4x1x3x3xbf16>, %y: memref<1x4x4x4xbf16>) {
  mie.conv2d ins(%x, %w : memref<1x4x4x4xbf16>, memref<4x1x3x3xbf16>) outs(%y : memref<1x4x4x4xbf16>) {accumulator = f32, groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<depthwise, "avx512">}
  return
}

// -----

// Tests the integer convolution (3x3, pads 1, stride 2, C = 5, F = 70, 9 x 9 -> 5 x 5 = 25 pixels):
// one block of 32 pixels (25 rounded up to a tile) per image, so 8 / 2 = 4 filter blocks wanted, at
// most max(1, F / 128) = 1: one item per image. Its scratch holds the tile's quads and staging rows:
// ceil(45 / 4) * 4 * 32 + 45 * 32 = 1536 + 1440 bytes = 744 floats. The call gets the window
// (KH, KW, SH, SW, DH, DW, PT, PL = 3, 3, 2, 2, 1, 1, 1, 1), the zero points and the clamp.
// CHECK-LABEL: func.func @qconv
// CHECK: mie.kernel "qconv2d"
// CHECK-SAME: attributes {mie.flops = 315000 : i64}
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<744xf32>
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c2) step
// CHECK: func.call @mie_uk_qu8_conv_nchw_vnni({{.+}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr) -> ()
func.func @qconv(%x: memref<2x5x9x9xi8>, %w: memref<3456xi8>, %b: memref<70xi32>, %s: memref<70xf32>, %y: memref<2x70x5x5xi8>) {
  mie.qconv2d ins(%x, %w, %b, %s : memref<2x5x9x9xi8>, memref<3456xi8>, memref<70xi32>, memref<70xf32>) outs(%y : memref<2x70x5x5xi8>) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, input_zero_point = 128 : i64, output_zero_point = 3 : i64, output_min = 3 : i64, output_max = 255 : i64, filter_shape = array<i64: 70, 5, 3, 3>}
  return
}

// -----

// Tests the integer convolution of a late layer (1x1, C = 64, F = 256, 7 x 7 = 49 pixels, one
// image): one pixel block of 64 (49 rounded up to tiles), so 8 filter blocks wanted, at most
// F / 128 = 2: two items of 128 filters, which share the block's pixels. The block is packed once
// into an arena buffer (ceil(49 / 32) tiles x 16 quads x 128 bytes = 4096 bytes = 1024 floats)
// with staging rows on the stack (64 x 32 bytes = 512 floats); then the two items run the filters
// on it: panel offset, K = 64, the pixels, filters, bias, scale, the requantization, filters
// [f0, f0 + fn), the output and its row stride P = 49.
// CHECK-LABEL: func.func @qconv_shared_pixels
// CHECK: %[[PANELS:.+]] = mie.alloc : memref<1024xf32>
// CHECK: mie.kernel "qconv2d"
// CHECK-SAME: outs(%{{.+}}, %[[PANELS]] : memref<1x256x7x7xi8>, memref<1024xf32>)
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<512xf32>
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c1) step
// CHECK: func.call @mie_uk_qu8_pack_conv_vnni({{.+}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c2) step
// CHECK: func.call @mie_uk_qu8_gemm_vnni({{.+}}, %c64_i64{{[_0-9]*}}, {{.+}}, %c49_i64{{[_0-9]*}}) : (!llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64) -> ()
// CHECK-NOT: mie_uk_qu8_conv_nchw_vnni
func.func @qconv_shared_pixels(%x: memref<1x64x7x7xi8>, %w: memref<16384xi8>, %b: memref<256xi32>, %s: memref<256xf32>, %y: memref<1x256x7x7xi8>) {
  mie.qconv2d ins(%x, %w, %b, %s : memref<1x64x7x7xi8>, memref<16384xi8>, memref<256xi32>, memref<256xf32>) outs(%y : memref<1x256x7x7xi8>) {input_zero_point = 128 : i64, output_zero_point = 3 : i64, output_min = 3 : i64, output_max = 255 : i64, filter_shape = array<i64: 256, 64, 1, 1>}
  return
}

// -----

// Tests the lowering of an f16 product on the f16 tiles ("neon_f16", weights packed [ceil(20 / 12),
// K = 100, 12] in f16): each item packs its rows from f16 over all of K (one K block: the f16
// output is rounded once) into a stack buffer of 8 rows x 100 k f16 = 400 words, then runs the f16
// tile with the B row stride nr = 12, the bias per column and the residual read in place.
// CHECK-LABEL: func.func @gemm_f16_tiles
// CHECK: mie.kernel "gemm"
// CHECK-SAME: mie.in_place_input = 3 : i64
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<400xf32>
// CHECK: func.call @mie_uk_f16_pack_lhs_neon({{.+}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64) -> ()
// CHECK-NOT: scf.if
// CHECK: func.call @mie_uk_f16_gemm_8x12_neon(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %c12_i64{{[_0-9]*}}, {{.+}}) : (!llvm.ptr, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, f32, f32) -> ()
// CHECK-NOT: mie_uk_f32
func.func @gemm_f16_tiles(%a: memref<5x100xf16>, %b: memref<2x100x12xf16>, %bias: memref<20xf16>, %r: memref<5x20xf16>, %c: memref<5x20xf16>) {
  mie.gemm ins(%a, %b : memref<5x100xf16>, memref<2x100x12xf16>) bias(%bias : memref<20xf16>) residual(%r : memref<5x20xf16>) outs(%c : memref<5x20xf16>) {b_packed, accumulator = f32, epilogue = #mie.epilogue<bias, residual, activation = relu>, ukernel = #mie.ukernel<gemm, "neon_f16", mr = 8, nr = 12, kc = 100, mc = 8, nc = 24>}
  return
}

// -----

// Tests the lowering of an f16 3x3 convolution on the f16 tiles (C = 4, K = 36, F = 8 filters in
// one f16 panel [1, 36, 8]; 36 pixels in blocks of 24): each item packs its pixel panels with the
// f16 packing (window 3, 3, 1, 1, 1, 1, 1, 1) into a stack buffer of 24 pixels x 36 k f16 = 432
// words, then the f16 tiles read them (row stride nr = 12) with the bias per filter.
// CHECK-LABEL: func.func @conv_f16_tiles
// CHECK: mie.kernel "conv2d"
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<432xf32>
// CHECK: func.call @mie_uk_f16_pack_conv_nchw_neon(%{{[^,]+}}, %{{[^,]+}}, %c4_i64{{[_0-9]*}}, %c6_i64{{[_0-9]*}}, %c6_i64{{[_0-9]*}}, %c3_i64{{[_0-9]*}}, %c3_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, {{.+}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64) -> ()
// CHECK: func.call @mie_uk_f16_gemm_8x12_neon(
// CHECK-NOT: mie_uk_f32
func.func @conv_f16_tiles(%x: memref<1x4x6x6xf16>, %w: memref<1x36x8xf16>, %bias: memref<8xf16>, %y: memref<1x8x6x6xf16>) {
  mie.conv2d ins(%x, %w : memref<1x4x6x6xf16>, memref<1x36x8xf16>) bias(%bias : memref<8xf16>) outs(%y : memref<1x8x6x6xf16>) {accumulator = f32, pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<bias>, filter_shape = array<i64: 8, 4, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "neon_f16", mr = 8, nr = 12, kc = 36, mc = 8, nc = 24>}
  return
}

// -----

// Tests code for symbolic dims: a product over run-time rows reads them from its output
// (memref.dim) and counts its row panels and blocks from them; its shared row panels are an arena
// buffer sized for the run's rows (ceil(rows / 6) panels of 8 x 6 floats).

// CHECK-LABEL: func.func @gemm_run_time_rows
// CHECK: %[[ROWS:.+]] = memref.dim %{{.+}}, %c0 : memref<?x32xf32>
// CHECK: %[[WORDS:.+]] = affine.apply #{{.+}}(%[[ROWS]])
// CHECK: %[[SHARED:.+]] = mie.alloc(%[[WORDS]]) : memref<?xf32>
// CHECK: mie.kernel "gemm" ins({{.+}}) outs(%{{.+}}, %[[SHARED]] : memref<?x32xf32>, memref<?xf32>)
// CHECK: %[[M:.+]] = memref.dim %{{.+}}, %c0{{[_0-9]*}} : memref<?x32xf32>
// CHECK: %[[UP:.+]] = arith.addi %[[M]], %c5
// CHECK: %[[PANELS:.+]] = arith.divui %[[UP]], %c6
// CHECK: scf.parallel (%{{.+}}) = (%c0{{[_0-9]*}}) to (%{{.+}}) step
// CHECK: func.call @mie_uk_f32_pack_lhs_avx2
// CHECK: scf.parallel
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2
func.func @gemm_run_time_rows(%a: memref<?x8xf32>, %b: memref<2x8x16xf32>, %c: memref<?x32xf32>) {
  mie.gemm ins(%a, %b : memref<?x8xf32>, memref<2x8x16xf32>) outs(%c : memref<?x32xf32>) {b_packed, epilogue = #mie.epilogue<>, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 12, nc = 16, shared_panels = true>}
  return
}

// -----

// Tests code for symbolic dims: a product over run-time rows with a second tile of the same nr
// (few_rows_mr = 7 beside the 8x48 tile) takes, per run, the one that pads the rows less
// (ceil(m / 7) x 7 < ceil(m / 8) x 8 takes the 7-row tile): one loop nest whose mr and row blocks
// (mc / mr panels: 14 or 16 rows) are chosen once, the row panels packed with that mr into one
// arena buffer sized for the fewer padded rows (an affine.min of the two sizes), and each pack
// and tile call going to the chosen tile's (a branch, so that the inlined packing sees a
// constant mr). The range's 16 rows fit one chunk of shared panels.

// CHECK: #[[WORDS:.+]] = affine_map<(d0) -> ((d0 ceildiv 8) * 64, (d0 ceildiv 7) * 56)>
// CHECK-LABEL: func.func @gemm_few_rows_tile
// CHECK: %[[ROWS:.+]] = memref.dim %{{.+}}, %c0 : memref<?x48xf32>
// CHECK: %[[SIZE:.+]] = affine.min #[[WORDS]](%[[ROWS]])
// CHECK: %[[SHARED:.+]] = mie.alloc(%[[SIZE]]) : memref<?xf32>
// CHECK: mie.kernel "gemm"
// CHECK: %[[M:.+]] = memref.dim %{{.+}}, %c0{{[_0-9]*}} : memref<?x48xf32>
// CHECK: %[[UP7:.+]] = arith.addi %[[M]], %c6
// CHECK: %[[P7:.+]] = arith.divui %[[UP7]], %c7
// CHECK: %[[R7:.+]] = arith.muli %[[P7]], %c7
// CHECK: %[[UP8:.+]] = arith.addi %[[M]], %c7
// CHECK: %[[P8:.+]] = arith.divui %[[UP8]], %c8
// CHECK: %[[R8:.+]] = arith.muli %[[P8]], %c8
// CHECK: %[[FEW:.+]] = arith.cmpi ult, %[[R7]], %[[R8]]
// CHECK: %[[FEWINDEX:.+]] = arith.select %[[FEW]], %c1{{[_0-9]*}}, %c0{{[_0-9]*}} : index
// CHECK: %[[MR:.+]] = arith.select %[[FEW]], %c7{{[_0-9]*}}, %c8{{[_0-9]*}} : index
// CHECK: arith.select %[[FEW]], %c14, %c16 : index
// CHECK-NOT: scf.for
// CHECK: scf.parallel
// CHECK: %[[PACKFEW:.+]] = arith.cmpi ne, %[[FEWINDEX]], %c0{{[_0-9]*}} : index
// CHECK-NEXT: scf.if %[[PACKFEW]] {
// CHECK: func.call @mie_uk_f32_pack_lhs_avx512({{.+}}, %c7_i64, %{{[^,]+}}, %{{[^,]+}}) :
// CHECK: } else {
// CHECK: func.call @mie_uk_f32_pack_lhs_avx512({{.+}}, %c8_i64{{[_0-9]*}}, %{{[^,]+}}, %{{[^,]+}}) :
// CHECK: scf.parallel
// CHECK: %[[TAKE:.+]] = arith.cmpi ne, %[[FEWINDEX]], %c0{{[_0-9]*}} : index
// CHECK-NEXT: scf.if %[[TAKE]] {
// CHECK-NEXT: func.call @mie_uk_f32_gemm_7x48_avx512
// CHECK-NEXT: } else {
// CHECK-NEXT: func.call @mie_uk_f32_gemm_8x48_avx512
func.func @gemm_few_rows_tile(%a: memref<?x8xf32>, %b: memref<1x8x48xf32>, %c: memref<?x48xf32>) attributes {ms.symbols = ["rows"], mie.symbol_ranges = array<i64: 1, 16>} {
  %s = mie.symbol 0 : index
  %y = mie.alloc(%s) : memref<?x48xf32>
  mie.gemm ins(%a, %b : memref<?x8xf32>, memref<1x8x48xf32>) outs(%y : memref<?x48xf32>) {b_packed, epilogue = #mie.epilogue<>, ukernel = #mie.ukernel<gemm, "avx512", mr = 8, nr = 48, kc = 8, mc = 16, nc = 48, shared_panels = true, few_rows_mr = 7>}
  return
}

// -----

// Tests code for symbolic dims: shared row panels of at most 1 MiB (whole row blocks) for rows
// known at run time only: K = 4096 gives 64-row chunks (1 MiB / 16 KiB a row), so the runs of up
// to 3072 rows go through them in a loop over ceil(rows / 64) chunks, each packing its rows (at
// their offset in A) and multiplying them; the buffer is the least of the run's panels and one
// chunk's (64 x 4096 words).

// CHECK: #[[CHUNKED:.+]] = affine_map<(d0) -> ((d0 ceildiv 8) * 32768, 262144)>
// CHECK-LABEL: func.func @gemm_shared_panels_chunks
// CHECK: affine.min #[[CHUNKED]]
// CHECK: mie.kernel "gemm"
// CHECK: %[[ROWS:.+]] = memref.dim %{{.+}}, %c0{{[_0-9]*}} : memref<?x48xf32>
// CHECK: %[[UP:.+]] = arith.addi %[[ROWS]], %c63
// CHECK: %[[CHUNKS:.+]] = arith.divui %[[UP]], %c64
// CHECK: scf.for %[[CHUNK:.+]] = %c0{{[_0-9]*}} to %[[CHUNKS]] step %c1
// CHECK: %[[BASE:.+]] = arith.muli %[[CHUNK]], %c64
// CHECK: %[[LEFT:.+]] = arith.subi %[[ROWS]], %[[BASE]]
// CHECK: arith.minsi %c64{{[_0-9]*}}, %[[LEFT]]
// CHECK: scf.parallel
// CHECK: arith.addi %[[BASE]]
// CHECK: func.call @mie_uk_f32_pack_lhs_avx512
// CHECK: scf.parallel
// CHECK: func.call @mie_uk_f32_gemm_8x48_avx512
func.func @gemm_shared_panels_chunks(%a: memref<?x4096xf32>, %b: memref<1x4096x48xf32>) attributes {ms.symbols = ["rows"], mie.symbol_ranges = array<i64: 1, 3072>} {
  %s = mie.symbol 0 : index
  %y = mie.alloc(%s) : memref<?x48xf32>
  mie.gemm ins(%a, %b : memref<?x4096xf32>, memref<1x4096x48xf32>) outs(%y : memref<?x48xf32>) {b_packed, epilogue = #mie.epilogue<>, ukernel = #mie.ukernel<gemm, "avx512", mr = 8, nr = 48, kc = 1024, mc = 64, nc = 48, shared_panels = true>}
  return
}

// -----

// Tests code for symbolic dims: attention over a run-time batch and sequence (self-attention: keys
// = rows) with a padding mask [batch, 1, 1, seq]: the items are batch x 4 heads x ceil(seq / 24)
// row groups, the mask offset of an item is its batch index times the mask's run-time row length,
// and the causal diagonal and key count come from the buffers' dims.

// CHECK-LABEL: func.func @attention_run_time
// CHECK: mie.kernel "attention"
// CHECK: %[[B:.+]] = memref.dim %{{.+}}, %c0{{[_0-9]*}} : memref<?x4x?x8xf32>
// CHECK: %[[S:.+]] = memref.dim %{{.+}}, %c2{{[_0-9]*}} : memref<?x4x?x8xf32>
// CHECK: %[[T:.+]] = memref.dim %{{.+}}, %c2{{[_0-9]*}} : memref<?x4x?x8xf32>
// CHECK: %[[MT:.+]] = memref.dim %{{.+}}, %c3{{[_0-9]*}} : memref<?x1x1x?xf32>
// CHECK: scf.parallel
// CHECK: %[[DIGIT:.+]] = arith.remui %{{.+}}, %[[B]] : index
// CHECK: arith.muli %[[DIGIT]], %[[MT]] : index
// CHECK: func.call @mie_uk_f32_attention_avx2
func.func @attention_run_time(%q: memref<?x4x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 4, s1, 8)>}, %m: memref<?x1x1x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 1, 1, s1)>}, %o: memref<?x4x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 4, s1, 8)>}) {
  mie.attention ins(%q, %q, %q : memref<?x4x?x8xf32>, memref<?x4x?x8xf32>, memref<?x4x?x8xf32>) mask(%m : memref<?x1x1x?xf32>) outs(%o : memref<?x4x?x8xf32>) {scale = 0.125 : f64, query_rows = 24 : i64, ukernel = #mie.ukernel<attention, "avx2">}
  return
}

// -----

// Tests code for symbolic dims: a convolution and a pooling over a run-time batch count their
// work items from the run's images (memref.dim of the image), and the shared pixel panels are an
// arena buffer of 576 floats (ceil(25 / 8) panels of 18 x 8) per image.

// CHECK-LABEL: func.func @conv_run_time_batch
// CHECK: %[[N:.+]] = memref.dim %arg0, %c0 : memref<?x2x5x5xf32>
// CHECK: %[[WORDS:.+]] = affine.apply #{{.+}}(%[[N]])
// CHECK: %[[SHARED:.+]] = mie.alloc(%[[WORDS]]) : memref<?xf32>
// CHECK: mie.kernel "conv2d" {{.+}} outs(%arg2, %[[SHARED]] : memref<?x8x5x5xf32>, memref<?xf32>)
// CHECK: %[[IMAGES:.+]] = memref.dim %{{.+}}, %c0{{[_0-9]*}} : memref<?x2x5x5xf32>
// CHECK: %[[PANELS:.+]] = arith.muli %[[IMAGES]], %c4{{[_0-9]*}} : index
// CHECK: scf.parallel (%{{.+}}) = (%c0{{[_0-9]*}}) to (%[[PANELS]]) step
// CHECK: mie.kernel "max_pool"
// CHECK: %[[PIMAGES:.+]] = memref.dim %{{.+}}, %c0{{[_0-9]*}} : memref<?x8x5x5xf32>
// CHECK: %[[ITEMS:.+]] = arith.muli %[[PIMAGES]], %c{{[0-9]+}}{{[_0-9]*}} : index
// CHECK: scf.parallel (%{{.+}}) = (%c0{{[_0-9]*}}) to (%[[ITEMS]]) step
// CHECK: func.call @mie_uk_f32_maxpool_nchw_avx2
func.func @conv_run_time_batch(%x: memref<?x2x5x5xf32>, %w: memref<2x18x4xf32>, %y: memref<?x8x5x5xf32>, %p: memref<?x8x3x3xf32>) {
  mie.conv2d ins(%x, %w : memref<?x2x5x5xf32>, memref<2x18x4xf32>) outs(%y : memref<?x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 8, kc = 18, mc = 4, nc = 8, shared_panels = true>}
  mie.max_pool2d ins(%y : memref<?x8x5x5xf32>) outs(%p : memref<?x8x3x3xf32>) {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, ukernel = #mie.ukernel<max_pool, "avx2">}
  return
}

// -----

// Tests code for symbolic dims: a batched product of two activations over run-time extents
// (attention's context P x V over the keys): batch, rows and K read from the buffers, the items
// batch x row blocks x column blocks, and the K blocks a loop of ceil(K / 64) iterations whose last
// one, found at run time, applies the epilogue.

// CHECK-LABEL: func.func @gemm_run_time_activations
// CHECK: mie.kernel "gemm"
// CHECK: %[[BATCH:.+]] = memref.dim %{{.+}}, %c0{{[_0-9]*}} : memref<?x?x8xf32>
// CHECK: %[[M:.+]] = memref.dim %{{.+}}, %c1{{[_0-9]*}} : memref<?x?x8xf32>
// CHECK: %[[K:.+]] = memref.dim %{{.+}}, %c2{{[_0-9]*}} : memref<?x?x?xf32>
// CHECK: scf.parallel
// CHECK: %[[UP:.+]] = arith.addi %[[K]], %c63{{[_0-9]*}} : index
// CHECK: %[[BLOCKS:.+]] = arith.divui %[[UP]], %c64{{[_0-9]*}} : index
// CHECK: scf.for %[[KB:.+]] = %{{.+}} to %[[BLOCKS]] step
// CHECK: func.call @mie_uk_f32_pack_lhs_avx2
// CHECK: scf.if
// CHECK: func.call @mie_uk_f32_gemm_6x16_avx2
func.func @gemm_run_time_activations(%p: memref<?x?x?xf32>, %v: memref<?x?x8xf32>, %o: memref<?x?x8xf32>) {
  mie.gemm ins(%p, %v : memref<?x?x?xf32>, memref<?x?x8xf32>) outs(%o : memref<?x?x8xf32>) {ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 64, mc = 12, nc = 16>}
  return
}

// -----

// Tests code for symbolic dims: the portable (grouped) convolution over a run-time batch: the
// padded copy takes the image's batch and its interior the image's run-time extents; the linalg
// convolution reads the batch from its buffers.

// CHECK-LABEL: func.func @grouped_conv_run_time_batch
// CHECK: %[[N:.+]] = memref.dim %arg0, %{{.+}} : memref<?x4x5x5xf32>
// CHECK: %[[PADDED:.+]] = mie.alloc(%[[N]]) : memref<?x4x7x7xf32>
// CHECK: mie.kernel "conv2d" {{.+}} outs(%arg2, %[[PADDED]] : memref<?x4x5x5xf32>, memref<?x4x7x7xf32>)
// CHECK: %[[IN:.+]] = memref.dim %{{.+}}, %{{.+}} : memref<?x4x5x5xf32>
// CHECK: memref.subview %{{.+}}[0, 0, 1, 1] [%[[IN]], 4, 5, 5] [1, 1, 1, 1]
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : memref<?x2x2x7x7xf32>, memref<2x2x2x3x3xf32>) outs(%{{.+}} : memref<?x2x2x5x5xf32>)
func.func @grouped_conv_run_time_batch(%x: memref<?x4x5x5xf32>, %w: memref<4x2x3x3xf32>, %y: memref<?x4x5x5xf32>) {
  mie.conv2d ins(%x, %w : memref<?x4x5x5xf32>, memref<4x2x3x3xf32>) outs(%y : memref<?x4x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64}
  return
}
