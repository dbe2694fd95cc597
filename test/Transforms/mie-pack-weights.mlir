// RUN: ms-opt %s -split-input-file -mie-pack-weights | FileCheck %s

// Tests packing a [3, 2, 1, 1] filter into LHS panels of mr = 2: [ceil(3 / 2), 2, 2] with filter
// rows side by side for every k and the missing fourth row zero: panel 0 = (w00 w10, w01 w11),
// panel 1 = (w20 0, w21 0). The logical shape is kept in filter_shape; the old global goes.

// CHECK-NOT: memref.global "private" constant @w :
// CHECK: memref.global "private" constant @w_lhs2 : memref<2x2x2xf32> = dense_resource<w_lhs2>
// CHECK-NOT: memref.global "private" constant @w :
// CHECK-LABEL: func.func @conv
// CHECK: %[[P:.+]] = memref.get_global @w_lhs2 : memref<2x2x2xf32>
// CHECK: mie.conv2d ins(%{{.+}}, %[[P]] : memref<1x2x4x4xf32>, memref<2x2x2xf32>)
// CHECK-SAME: filter_shape = array<i64: 3, 2, 1, 1>
// 1 3 2 4 5 0 6 0 as little-endian f32 (after the 4-byte alignment header):
// CHECK: w_lhs2: "0x040000000000803F0000404000000040000080400000A040000000000000C04000000000"
memref.global "private" constant @w : memref<3x2x1x1xf32> = dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]], [[[5.0]], [[6.0]]]]>
func.func @conv(%x: memref<1x2x4x4xf32>, %y: memref<1x3x4x4xf32>) {
  %w = memref.get_global @w : memref<3x2x1x1xf32>
  mie.conv2d ins(%x, %w : memref<1x2x4x4xf32>, memref<3x2x1x1xf32>) outs(%y : memref<1x3x4x4xf32>) {ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 2, nr = 8, kc = 2, mc = 2, nc = 8>}
  return
}

// -----

// Tests that a `conv_pixel_rows` convolution (filters in the vector lanes) gets its [3, 1, 1, 2] filter
// as RHS panels of w^T with the tiling's nr = 2, not LHS panels of mr = 4: [ceil(3 / 2), K = 2, 2]
// = panel 0 (w00 w10, w01 w11), panel 1 (w20 0, w21 0), filter_shape keeping the logical shape.

// CHECK-LABEL: func.func @conv_pixel_rows
// CHECK: %[[P:.+]] = memref.get_global @wr_rhs2t : memref<2x2x2xf32>
// CHECK: mie.conv2d ins(%{{.+}}, %[[P]] : memref<1x1x4x4xf32>, memref<2x2x2xf32>)
// CHECK-SAME: filter_shape = array<i64: 3, 1, 1, 2>
// CHECK-SAME: ukernel = #mie.ukernel<conv_pixel_rows
// 1 3 2 4 5 0 6 0:
// CHECK: wr_rhs2t: "0x040000000000803F0000404000000040000080400000A040000000000000C04000000000"
memref.global "private" constant @wr : memref<3x1x1x2xf32> = dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]], [[[5.0, 6.0]]]]>
func.func @conv_pixel_rows(%x: memref<1x1x4x4xf32>, %y: memref<1x3x4x3xf32>) {
  %w = memref.get_global @wr : memref<3x1x1x2xf32>
  mie.conv2d ins(%x, %w : memref<1x1x4x4xf32>, memref<3x1x1x2xf32>) outs(%y : memref<1x3x4x3xf32>) {ukernel = #mie.ukernel<conv_pixel_rows, "avx2", mr = 4, nr = 2, kc = 2, mc = 4, nc = 2>}
  return
}

// -----

// Tests packing a transposed B [N = 3, K = 2] scaled by alpha = 2 into RHS panels of nr = 2:
// [ceil(3 / 2), 2, 2] = panel 0 (2*b00 2*b10, 2*b01 2*b11), panel 1 (2*b20 0, 2*b21 0); trans_b
// goes, alpha becomes 1 and b_packed is set. Two GEMMs reading one constant share the panels.

// CHECK-LABEL: func.func @gemm
// CHECK: %[[P:.+]] = memref.get_global @[[NAME:b_rhs2t_a[0-9]+]] : memref<2x2x2xf32>
// CHECK: mie.gemm ins(%{{.+}}, %[[P]] : memref<1x2xf32>, memref<2x2x2xf32>)
// CHECK-SAME: b_packed
// CHECK-NOT: trans_b
// CHECK: %[[Q:.+]] = memref.get_global @[[NAME]] : memref<2x2x2xf32>
// CHECK: mie.gemm ins(%{{.+}}, %[[Q]]
// 2 6 4 8 10 0 12 0:
// CHECK: "0x04000000000000400000C0400000804000000041000020410000000000004041{{0+}}"
memref.global "private" constant @b : memref<3x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]>
func.func @gemm(%a: memref<1x2xf32>, %c: memref<1x3xf32>, %d: memref<1x3xf32>) {
  %b = memref.get_global @b : memref<3x2xf32>
  mie.gemm ins(%a, %b : memref<1x2xf32>, memref<3x2xf32>) outs(%c : memref<1x3xf32>) {trans_b, alpha = 2.0 : f64, ukernel = #mie.ukernel<gemm, "avx2", mr = 1, nr = 2, kc = 2, mc = 1, nc = 2>}
  mie.gemm ins(%a, %b : memref<1x2xf32>, memref<3x2xf32>) outs(%d : memref<1x3xf32>) {trans_b, alpha = 2.0 : f64, ukernel = #mie.ukernel<gemm, "avx2", mr = 1, nr = 2, kc = 2, mc = 1, nc = 2>}
  return
}

// -----

// Tests the GEMM of a 1x1 convolution with pixels as rows: B is a collapsed view [F = 3, C = 2] of
// the filter [3, 2, 1, 1], packed from the filter's bytes like any transposed B (panel 0: w00 w10,
// w01 w11; panel 1: w20 0, w21 0); the view and the unpacked filter leave the module.

// CHECK-NOT: memref.global "private" constant @f :
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]]
// CHECK: %[[P:.+]] = memref.get_global @f_rhs2t : memref<2x2x2xf32>
// CHECK: mie.gemm ins(%{{.+}}, %[[P]] : memref<2x4xf32>, memref<2x2x2xf32>)
// CHECK-SAME: b_packed
// CHECK-SAME: trans_a, trans_c
// 1 3 2 4 5 0 6 0:
// CHECK: "0x040000000000803F0000404000000040000080400000A040000000000000C040{{0+}}"
memref.global "private" constant @f : memref<3x2x1x1xf32> = dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]], [[[5.0]], [[6.0]]]]>
func.func @pointwise(%x: memref<2x4xf32>, %y: memref<3x4xf32>) {
  %f = memref.get_global @f : memref<3x2x1x1xf32>
  %w = memref.collapse_shape %f [[0], [1, 2, 3]] : memref<3x2x1x1xf32> into memref<3x2xf32>
  mie.gemm ins(%x, %w : memref<2x4xf32>, memref<3x2xf32>) outs(%y : memref<3x4xf32>) {trans_a, trans_b, trans_c, ukernel = #mie.ukernel<gemm, "avx2", mr = 1, nr = 2, kc = 2, mc = 1, nc = 2>}
  return
}

// -----

// Tests that an op whose weights are not constant loses its tiling (the portable path runs it).

// CHECK-LABEL: func.func @runtime_weights
// CHECK: mie.conv2d
// CHECK-NOT: tiling
// CHECK-NOT: filter_shape
// CHECK: return
func.func @runtime_weights(%x: memref<1x2x4x4xf32>, %w: memref<3x2x1x1xf32>, %y: memref<1x3x4x4xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x4x4xf32>, memref<3x2x1x1xf32>) outs(%y : memref<1x3x4x4xf32>) {ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 2, nr = 8, kc = 2, mc = 2, nc = 8>}
  return
}

// -----

// Tests that a GEMM of two activations keeps its tiling with b unpacked: its kernel packs both
// operands at run time.

// CHECK-LABEL: func.func @runtime_gemm
// CHECK: mie.gemm ins(%{{.+}}, %{{.+}} : memref<4x8xf32>, memref<8x16xf32>) outs(%{{.+}} : memref<4x16xf32>) {ukernel = #mie.ukernel<gemm, "avx2", mr = 4, nr = 16, kc = 8, mc = 4, nc = 16>}
// CHECK-NOT: b_packed
// CHECK: return
func.func @runtime_gemm(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {ukernel = #mie.ukernel<gemm, "avx2", mr = 4, nr = 16, kc = 8, mc = 4, nc = 16>}
  return
}

// -----

// Tests the Winograd filter transforms of an all-ones 3x3 filter (one filter, one channel, mr = 1):
// U = G g G^T is the outer product of G's row sums. F(2x2, 3x3): [16, 1, 1, 1], sums (1, 1.5, 0.5,
// 1), so U starts 1, 1.5, 0.5, 1, 1.5, 2.25. F(4x4, 3x3): [36, 1, 1, 1], sums (1/4, -1/2, -1/6, 7/24,
// 1/8, 1), so U starts 1/16, -1/8, -1/24. The two variants of one filter are separate globals.

// CHECK-DAG: memref.global "private" constant @g_winograd2_1 : memref<16x1x1x1xf32>
// CHECK-DAG: memref.global "private" constant @g_winograd4_1 : memref<36x1x1x1xf32>
// CHECK-LABEL: func.func @winograd
// CHECK: mie.conv2d ins(%{{.+}}, %{{.+}} : memref<1x1x8x8xf32>, memref<16x1x1x1xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<winograd_2x2
// CHECK: mie.conv2d ins(%{{.+}}, %{{.+}} : memref<1x1x8x8xf32>, memref<36x1x1x1xf32>)
// CHECK-SAME: ukernel = #mie.ukernel<winograd_4x4
// 1.0 1.5 0.5 1.0 1.5 2.25 as little-endian f32:
// CHECK-DAG: g_winograd2_1: "0x040000000000803F0000C03F0000003F0000803F0000C03F00001040
// 0.0625 -0.125 -0.041666668 as little-endian f32:
// CHECK-DAG: g_winograd4_1: "0x040000000000803D000000BEABAA2ABD
memref.global "private" constant @g : memref<1x1x3x3xf32> = dense<1.0>
func.func @winograd(%x: memref<1x1x8x8xf32>, %y: memref<1x1x8x8xf32>, %z: memref<1x1x8x8xf32>) {
  %w = memref.get_global @g : memref<1x1x3x3xf32>
  mie.conv2d ins(%x, %w : memref<1x1x8x8xf32>, memref<1x1x3x3xf32>) outs(%y : memref<1x1x8x8xf32>) {pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<winograd_2x2, "avx2", mr = 1, nr = 8, kc = 1, mc = 1, nc = 8>}
  mie.conv2d ins(%x, %w : memref<1x1x8x8xf32>, memref<1x1x3x3xf32>) outs(%z : memref<1x1x8x8xf32>) {pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<winograd_4x4, "avx2", mr = 1, nr = 8, kc = 1, mc = 1, nc = 8>}
  return
}

// -----

// Tests packing a bf16 transposed B [N = 3, K = 2] scaled by alpha = 2 for the AMX tiling: one panel
// [ceil(3 / 32), K rounded up to 32, 32] in the tile's VNNI order, the k pairs of a column side by
// side: (2*b00 2*b01) (2*b10 2*b11) (2*b20 2*b21), zeros for the other 29 columns and past K = 2.

// CHECK-LABEL: func.func @gemm_amx
// CHECK: %[[P:.+]] = memref.get_global @{{b16_amxt_a[0-9]+}} : memref<1x32x32xbf16>
// CHECK: mie.gemm ins(%{{.+}}, %[[P]] : memref<1x2xbf16>, memref<1x32x32xbf16>)
// CHECK-SAME: b_packed
// CHECK-NOT: trans_b
// 2 4 6 8 10 12 as little-endian bf16 (after the alignment header), then zeros:
// CHECK: "0x0400000000408040C0400041204140410000{{0+}}"
memref.global "private" constant @b16 : memref<3x2xbf16> = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]>
func.func @gemm_amx(%a: memref<1x2xbf16>, %c: memref<1x3xbf16>) {
  %b = memref.get_global @b16 : memref<3x2xbf16>
  mie.gemm ins(%a, %b : memref<1x2xbf16>, memref<3x2xbf16>) outs(%c : memref<1x3xbf16>) {trans_b, alpha = 2.0 : f64, ukernel = #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 32, mc = 32, nc = 32>}
  return
}

// -----

// Tests packing a bf16 filter [F = 2, C = 1, 1, 2] for the AMX convolution tiling: the A panels
// [ceil(2 / 32), K = 2 rounded up to 32, 32] in bf16, each filter a row of 32 consecutive k: 1 2 then
// 30 zeros, 3 4 then zeros (rows of no filter and k past K are zeros).

// CHECK-LABEL: func.func @conv_amx
// CHECK: %[[P:.+]] = memref.get_global @{{wc_amxa[0-9]*}} : memref<1x32x32xbf16>
// CHECK: mie.conv2d ins(%{{.+}}, %[[P]] : memref<1x1x4x4xbf16>, memref<1x32x32xbf16>)
// CHECK-SAME: filter_shape = array<i64: 2, 1, 1, 2>
// CHECK: "0x04000000803F004000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000040408040{{0+}}"
memref.global "private" constant @wc : memref<2x1x1x2xbf16> = dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]>
func.func @conv_amx(%x: memref<1x1x4x4xbf16>, %y: memref<1x2x4x3xbf16>) {
  %w = memref.get_global @wc : memref<2x1x1x2xbf16>
  mie.conv2d ins(%x, %w : memref<1x1x4x4xbf16>, memref<2x1x1x2xbf16>) outs(%y : memref<1x2x4x3xbf16>) {accumulator = f32, ukernel = #mie.ukernel<conv_gemm, "amx", mr = 32, nr = 32, kc = 32, mc = 32, nc = 32, shared_panels = true>}
  return
}

// -----

// Tests packing the int8 filter [3, 2, 1, 1] of an integer convolution into the VNNI panels of
// mie_uk_qu8_pack_conv_filter: [ceil(3 / 8)][ceil(2 / 4)][8][4] = 32 bytes, each filter's k quad side by
// side (1 2 0 0, 3 4 0 0, 5 6 0 0, then five zero filters), 64-byte aligned.

// CHECK-LABEL: func.func @qconv
// CHECK: %[[P:.+]] = memref.get_global @wq_vnni8 : memref<32xi8>
// CHECK: mie.qconv2d ins(%{{.+}}, %[[P]], %{{.+}}, %{{.+}} : memref<1x2x4x4xi8>, memref<32xi8>, memref<3xi32>, memref<3xf32>)
// CHECK-SAME: filter_shape = array<i64: 3, 2, 1, 1>
// CHECK: wq_vnni8: "0x400000000102000003040000050600000000000000000000000000000000000000000000"
memref.global "private" constant @wq : memref<3x2x1x1xi8> = dense<[[[[1]], [[2]]], [[[3]], [[4]]], [[[5]], [[6]]]]>
func.func @qconv(%x: memref<1x2x4x4xi8>, %b: memref<3xi32>, %s: memref<3xf32>, %y: memref<1x3x4x4xi8>) {
  %w = memref.get_global @wq : memref<3x2x1x1xi8>
  mie.qconv2d ins(%x, %w, %b, %s : memref<1x2x4x4xi8>, memref<3x2x1x1xi8>, memref<3xi32>, memref<3xf32>) outs(%y : memref<1x3x4x4xi8>) {input_zero_point = 0 : i64, output_zero_point = 0 : i64, output_min = 0 : i64, output_max = 255 : i64}
  return
}

// -----

// Tests the tap-major K order of a window with several taps over a multiple of 4 channels: the
// filter [1, 4, 1, 2] (w[c][kw] = (1 2) (3 4) (5 6) (7 8)) packs k = tap * C + c, so the first quad
// is the 4 channels at tap 0 (1 3 5 7) and the second those at tap 1 (2 4 6 8), each followed by
// the seven zero filters of the 8-filter panel: [1][2][8][4] = 64 bytes.

// CHECK-LABEL: func.func @qconv_tap_major
// CHECK: %[[P:.+]] = memref.get_global @wqt_vnni8 : memref<64xi8>
// CHECK: mie.qconv2d ins(%{{.+}}, %[[P]], %{{.+}}, %{{.+}} : memref<1x4x4x4xi8>, memref<64xi8>, memref<1xi32>, memref<1xf32>)
// CHECK-SAME: filter_shape = array<i64: 1, 4, 1, 2>
// CHECK: wqt_vnni8: "0x4000000001030507000000000000000000000000000000000000000000000000000000000204060800000000000000000000000000000000000000000000000000000000"
memref.global "private" constant @wqt : memref<1x4x1x2xi8> = dense<[[[[1, 2]], [[3, 4]], [[5, 6]], [[7, 8]]]]>
func.func @qconv_tap_major(%x: memref<1x4x4x4xi8>, %b: memref<1xi32>, %s: memref<1xf32>, %y: memref<1x1x4x3xi8>) {
  %w = memref.get_global @wqt : memref<1x4x1x2xi8>
  mie.qconv2d ins(%x, %w, %b, %s : memref<1x4x4x4xi8>, memref<1x4x1x2xi8>, memref<1xi32>, memref<1xf32>) outs(%y : memref<1x1x4x3xi8>) {input_zero_point = 0 : i64, output_zero_point = 0 : i64, output_min = 0 : i64, output_max = 255 : i64}
  return
}

// -----

// Tests a channels-last depthwise filter for the NHWC kernel: [C, 1, KH, KW] becomes [KH * KW, C]
// (a tap's weights of consecutive channels side by side), in the filter's own type.
// Packed: (1 5) (2 6) (3 7) (4 8), f32 little-endian after the blob's 4-byte alignment word.
// CHECK: memref.global "private" constant @dw_nhwc : memref<4x2xf32> = dense_resource<dw_nhwc>
// CHECK-LABEL: func.func @channels_last_depthwise
// CHECK: %[[P:.+]] = memref.get_global @dw_nhwc : memref<4x2xf32>
// CHECK: mie.conv2d ins(%arg0, %[[P]] : memref<1x3x3x2xf32>, memref<4x2xf32>)
// CHECK-SAME: filter_shape = array<i64: 2, 1, 2, 2>
// CHECK: dw_nhwc: "0x040000000000803F0000A040000000400000C040000040400000E0400000804000000041"
module {
memref.global "private" constant @dw : memref<2x1x2x2xf32> = dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]>
func.func @channels_last_depthwise(%x: memref<1x3x3x2xf32>, %y: memref<1x2x2x2xf32>) {
  %w = memref.get_global @dw : memref<2x1x2x2xf32>
  mie.conv2d ins(%x, %w : memref<1x3x3x2xf32>, memref<2x1x2x2xf32>) outs(%y : memref<1x2x2x2xf32>) {channels_last, groups = 2 : i64, ukernel = #mie.ukernel<depthwise, "avx512">}
  return
}
}

// -----

// Tests packing for the f16 tiles ("neon_f16"): a filter [F = 2, C = 1, 1, 2] into f16 LHS panels
// [ceil(2 / 8), K = 2, 8] (k-major, the f32 layout: 1 3 then six zeros, 2 4 then six zeros), and a
// transposed B [N = 3, K = 2] into f16 RHS panels [ceil(3 / 4), 2, 4] (1 3 5 0, 2 4 6 0); the
// globals hold f16.

// CHECK-LABEL: func.func @f16_tiles
// CHECK: %[[W:.+]] = memref.get_global @wh_lhs8_f16 : memref<1x2x8xf16>
// CHECK: mie.conv2d ins(%{{.+}}, %[[W]] : memref<1x1x4x4xf16>, memref<1x2x8xf16>)
// CHECK-SAME: filter_shape = array<i64: 2, 1, 1, 2>
// CHECK: %[[B:.+]] = memref.get_global @bh_rhs4t_f16 : memref<1x2x4xf16>
// CHECK: mie.gemm ins(%{{.+}}, %[[B]] : memref<1x2xf16>, memref<1x2x4xf16>)
// CHECK-SAME: b_packed
// CHECK-NOT: trans_b
// CHECK: bh_rhs4t_f16: "0x04000000003C0042004500000040004400460000"
// CHECK: wh_lhs8_f16: "0x04000000003C004200000000000000000000000000400044000000000000000000000000"
memref.global "private" constant @wh : memref<2x1x1x2xf16> = dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]>
memref.global "private" constant @bh : memref<3x2xf16> = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]>
func.func @f16_tiles(%x: memref<1x1x4x4xf16>, %y: memref<1x2x4x3xf16>, %a: memref<1x2xf16>, %c: memref<1x3xf16>) {
  %w = memref.get_global @wh : memref<2x1x1x2xf16>
  mie.conv2d ins(%x, %w : memref<1x1x4x4xf16>, memref<2x1x1x2xf16>) outs(%y : memref<1x2x4x3xf16>) {accumulator = f32, ukernel = #mie.ukernel<conv_gemm, "neon_f16", mr = 8, nr = 4, kc = 2, mc = 8, nc = 4>}
  %b = memref.get_global @bh : memref<3x2xf16>
  mie.gemm ins(%a, %b : memref<1x2xf16>, memref<3x2xf16>) outs(%c : memref<1x3xf16>) {trans_b, accumulator = f32, ukernel = #mie.ukernel<gemm, "neon_f16", mr = 8, nr = 4, kc = 2, mc = 8, nc = 4>}
  return
}
