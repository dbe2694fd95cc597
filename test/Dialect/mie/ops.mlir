// RUN: ms-opt %s -split-input-file | ms-opt -split-input-file | FileCheck %s
// RUN: %python %mie_src_root/test/Utils/check_op_coverage.py mie %mie_src_root/dialects/mie/IR %s %S/invalid.mlir
// RUN: ms-opt %s -split-input-file --mlir-print-op-generic | ms-opt -split-input-file | FileCheck %s

// Tests that every #mie.target form round-trips as a function's discardable attribute.

// CHECK-LABEL: func.func private @target_x86
// CHECK-SAME: mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">
func.func private @target_x86() attributes {mie.target = #mie.target<cpu, "x86-64", features = "+avx2,+fma">}

// CHECK-LABEL: func.func private @target_aarch64
// CHECK-SAME: mie.target = #mie.target<cpu, "aarch64", features = "+neon">
func.func private @target_aarch64() attributes {mie.target = #mie.target<cpu, "aarch64", features = "+neon">}

// CHECK-LABEL: func.func private @target_cpu_no_features
// CHECK-SAME: mie.target = #mie.target<cpu, "x86-64">}
func.func private @target_cpu_no_features() attributes {mie.target = #mie.target<cpu, "x86-64">}

// CHECK-LABEL: func.func private @target_cuda
// CHECK-SAME: mie.target = #mie.target<cuda, "sm_90">}
func.func private @target_cuda() attributes {mie.target = #mie.target<cuda, "sm_90">}

// CHECK-LABEL: func.func private @target_cuda_oldest
// CHECK-SAME: mie.target = #mie.target<cuda, "sm_75">}
func.func private @target_cuda_oldest() attributes {mie.target = #mie.target<cuda, "sm_75">}

// CHECK-LABEL: func.func private @target_cuda_arch_specific
// CHECK-SAME: mie.target = #mie.target<cuda, "sm_90a", features = "+ptx86">
func.func private @target_cuda_arch_specific() attributes {mie.target = #mie.target<cuda, "sm_90a", features = "+ptx86">}

// -----

// Tests that #mie.epilogue parts print in application order, `activation = none` is elided and
// every activation round-trips.

// CHECK-LABEL: func.func private @epilogues
// CHECK-SAME: e0 = #mie.epilogue<>
// CHECK-SAME: e1 = #mie.epilogue<bias>
// CHECK-SAME: e2 = #mie.epilogue<bias, residual, activation = relu>
// CHECK-SAME: e3 = #mie.epilogue<activation = relu6>
// CHECK-SAME: e4 = #mie.epilogue<bias, clamp = [0.0, 6.0]>
// CHECK-SAME: e5 = #mie.epilogue<residual, activation = silu, clamp = [-1.5, 1.0e+30]>
// CHECK-SAME: e6 = #mie.epilogue<>
func.func private @epilogues() attributes {
  e0 = #mie.epilogue<>,
  e1 = #mie.epilogue<bias>,
  e2 = #mie.epilogue<bias, residual, activation = relu>,
  e3 = #mie.epilogue<activation = relu6>,
  e4 = #mie.epilogue<clamp = [0.0, 6.0], bias>,
  e5 = #mie.epilogue<clamp = [-1.5, 1.0e30], activation = silu, residual>,
  e6 = #mie.epilogue<activation = none>
}

// CHECK-LABEL: func.func private @activations
// CHECK-SAME: #mie.epilogue<activation = relu>
// CHECK-SAME: #mie.epilogue<activation = relu6>
// CHECK-SAME: #mie.epilogue<activation = sigmoid>
// CHECK-SAME: #mie.epilogue<activation = hard_sigmoid>
// CHECK-SAME: #mie.epilogue<activation = hard_swish>
// CHECK-SAME: #mie.epilogue<activation = silu>
// CHECK-SAME: #mie.epilogue<activation = gelu>
// CHECK-SAME: #mie.epilogue<activation = gelu_tanh>
// CHECK-SAME: #mie.epilogue<activation = tanh>
func.func private @activations() attributes {all = [
  #mie.epilogue<activation = relu>, #mie.epilogue<activation = relu6>,
  #mie.epilogue<activation = sigmoid>, #mie.epilogue<activation = hard_sigmoid>,
  #mie.epilogue<activation = hard_swish>, #mie.epilogue<activation = silu>,
  #mie.epilogue<activation = gelu>, #mie.epilogue<activation = gelu_tanh>,
  #mie.epilogue<activation = tanh>]}

// -----

// Tests mie.alloc with the default and an explicit alignment.

// CHECK-LABEL: func.func @alloc
func.func @alloc() -> (memref<1x64x56x56xf32>, memref<1024xf16>, memref<4x4xi8, 1>) {
  // CHECK: %{{.+}} = mie.alloc : memref<1x64x56x56xf32>
  %0 = mie.alloc : memref<1x64x56x56xf32>
  // CHECK: %{{.+}} = mie.alloc {alignment = 128 : i64} : memref<1024xf16>
  %1 = mie.alloc {alignment = 128} : memref<1024xf16>
  // CHECK: %{{.+}} = mie.alloc : memref<4x4xi8, 1>
  %2 = mie.alloc {alignment = 64} : memref<4x4xi8, 1>
  return %0, %1, %2 : memref<1x64x56x56xf32>, memref<1024xf16>, memref<4x4xi8, 1>
}

// -----

// Tests a buffer of code for every shape of symbolic dims: mie.symbol values size its dynamic dims.

// CHECK-LABEL: func.func @symbolic
func.func @symbolic() -> memref<?x?x768xf32> attributes {ms.symbols = ["batch", "seq"]} {
  // CHECK: %[[B:.+]] = mie.symbol 0 : index
  %b = mie.symbol 0 : index
  // CHECK: %[[S:.+]] = mie.symbol 1 : index
  %s = mie.symbol 1 : index
  // CHECK: mie.alloc(%[[B]], %[[S]]) : memref<?x?x768xf32>
  %0 = mie.alloc(%b, %s) : memref<?x?x768xf32>
  return %0 : memref<?x?x768xf32>
}

// -----

// Tests mie.view into an arena and a weights blob, with and without `aligned`, filling the base
// exactly.

// CHECK-LABEL: func.func @view
// CHECK-SAME: (%[[ARENA:.+]]: memref<65536xi8>, %[[WEIGHTS:.+]]: memref<1048576xi8>)
func.func @view(%arena: memref<65536xi8>, %weights: memref<1048576xi8>)
    -> (memref<1x64xf32>, memref<64x64x3x3xf32>, memref<32768xf16>, memref<65536xi8>) {
  // CHECK: mie.view %[[ARENA]][1024] : memref<65536xi8> to memref<1x64xf32>
  %0 = mie.view %arena[1024] : memref<65536xi8> to memref<1x64xf32>
  // CHECK: mie.view %[[WEIGHTS]][4096] {aligned} : memref<1048576xi8> to memref<64x64x3x3xf32>
  %1 = mie.view %weights[4096] {aligned} : memref<1048576xi8> to memref<64x64x3x3xf32>
  // CHECK: mie.view %[[ARENA]][0] : memref<65536xi8> to memref<32768xf16>
  %2 = mie.view %arena[0] : memref<65536xi8> to memref<32768xf16>
  // CHECK: mie.view %[[ARENA]][0] : memref<65536xi8> to memref<65536xi8>
  %3 = mie.view %arena[0] : memref<65536xi8> to memref<65536xi8>
  return %0, %1, %2, %3 : memref<1x64xf32>, memref<64x64x3x3xf32>, memref<32768xf16>, memref<65536xi8>
}

// -----

// Tests that elements narrower than a byte (i4, f4E2M1FN) take a byte each: 65536 of them fill
// the arena.

// CHECK-LABEL: func.func @view_narrow
func.func @view_narrow(%arena: memref<65536xi8>) -> (memref<65536xi4>, memref<65536xf4E2M1FN>) {
  // CHECK: mie.view %{{.+}}[0] : memref<65536xi8> to memref<65536xi4>
  %0 = mie.view %arena[0] : memref<65536xi8> to memref<65536xi4>
  // CHECK: mie.view %{{.+}}[0] : memref<65536xi8> to memref<65536xf4E2M1FN>
  %1 = mie.view %arena[0] : memref<65536xi8> to memref<65536xf4E2M1FN>
  return %0, %1 : memref<65536xi4>, memref<65536xf4E2M1FN>
}

// -----

// Tests mie.max_pool2d: floor and ceil mode sizes, padding, dilation, a microkernel, f16.

// CHECK-LABEL: func.func @max_pool2d
func.func @max_pool2d(%x: memref<1x64x112x112xf32>, %y: memref<1x64x56x56xf32>,
                      %c: memref<1x64x38x38xf32>, %hx: memref<2x3x9x9xf16>, %hy: memref<2x3x3x5xf16>) {
  // CHECK: mie.max_pool2d ins(%{{.+}} : memref<1x64x112x112xf32>) outs(%{{.+}} : memref<1x64x56x56xf32>) {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, ukernel = #mie.ukernel<max_pool, "avx512">}
  mie.max_pool2d ins(%x : memref<1x64x112x112xf32>) outs(%y : memref<1x64x56x56xf32>)
      {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>,
       ukernel = #mie.ukernel<max_pool, "avx512">}
  // CHECK: mie.max_pool2d ins(%{{.+}} : memref<1x64x112x112xf32>) outs(%{{.+}} : memref<1x64x38x38xf32>) {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>}
  mie.max_pool2d ins(%x : memref<1x64x112x112xf32>) outs(%c : memref<1x64x38x38xf32>)
      {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>}
  // CHECK: mie.max_pool2d ins(%{{.+}} : memref<2x3x9x9xf16>) outs(%{{.+}} : memref<2x3x3x5xf16>) {dilations = array<i64: 2, 1>, kernel = array<i64: 2, 3>, pads = array<i64: 0, 1, 0, 0>, strides = array<i64: 3, 2>}
  mie.max_pool2d ins(%hx : memref<2x3x9x9xf16>) outs(%hy : memref<2x3x3x5xf16>)
      {kernel = array<i64: 2, 3>, strides = array<i64: 3, 2>, pads = array<i64: 0, 1, 0, 0>,
       dilations = array<i64: 2, 1>}
  return
}

// -----

// Tests mie.conv2d with every combination of the optional operands and the window attributes.

// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x64x56x56xf32>, %[[W:[^:]+]]: memref<64x64x3x3xf32>, %[[B:[^:]+]]: memref<64xf32>, %[[R:[^:]+]]: memref<1x64x56x56xf32>, %[[Y:[^:]+]]: memref<1x64x56x56xf32>)
func.func @conv2d(%x: memref<1x64x56x56xf32>, %w: memref<64x64x3x3xf32>, %b: memref<64xf32>,
                  %r: memref<1x64x56x56xf32>, %y: memref<1x64x56x56xf32>) {
  // CHECK: mie.conv2d ins(%[[X]], %[[W]] : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>) outs(%[[Y]] : memref<1x64x56x56xf32>) {pads = array<i64: 1, 1, 1, 1>}
  mie.conv2d ins(%x, %w : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>)
      outs(%y : memref<1x64x56x56xf32>) {pads = array<i64: 1, 1, 1, 1>}
  // CHECK: mie.conv2d ins(%[[X]], %[[W]] : {{.+}}) bias(%[[B]] : memref<64xf32>) outs(%[[Y]] : {{.+}}) {epilogue = #mie.epilogue<bias, activation = relu>, pads = array<i64: 1, 1, 1, 1>}
  mie.conv2d ins(%x, %w : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>) bias(%b : memref<64xf32>)
      outs(%y : memref<1x64x56x56xf32>)
      {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<bias, activation = relu>}
  // CHECK: mie.conv2d ins(%[[X]], %[[W]] : {{.+}}) residual(%[[R]] : memref<1x64x56x56xf32>) outs(%[[Y]] : {{.+}}) {epilogue = #mie.epilogue<residual>, pads = array<i64: 1, 1, 1, 1>}
  mie.conv2d ins(%x, %w : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>)
      residual(%r : memref<1x64x56x56xf32>) outs(%y : memref<1x64x56x56xf32>)
      {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<residual>}
  // CHECK: mie.conv2d ins(%[[X]], %[[W]] : {{.+}}) bias(%[[B]] : {{.+}}) residual(%[[R]] : {{.+}}) outs(%[[Y]] : {{.+}}) {epilogue = #mie.epilogue<bias, residual, activation = relu6, clamp = [0.0, 6.0]>, pads = array<i64: 1, 1, 1, 1>}
  mie.conv2d ins(%x, %w : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>) bias(%b : memref<64xf32>)
      residual(%r : memref<1x64x56x56xf32>) outs(%y : memref<1x64x56x56xf32>)
      {pads = array<i64: 1, 1, 1, 1>,
       epilogue = #mie.epilogue<bias, residual, activation = relu6, clamp = [0.0, 6.0]>}
  return
}

// CHECK-LABEL: func.func @conv2d_window
func.func @conv2d_window(%x: memref<2x32x112x112xf16>, %dw: memref<32x1x3x3xf16>,
                         %gw: memref<64x8x5x5xf16>, %y: memref<2x32x56x56xf16>,
                         %z: memref<2x64x104x105xf16>) {
  // Depthwise, stride 2: (112 + 1 + 1 - 3) / 2 + 1 = 56.
  // CHECK: mie.conv2d {{.+}} {groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  mie.conv2d ins(%x, %dw : memref<2x32x112x112xf16>, memref<32x1x3x3xf16>)
      outs(%y : memref<2x32x56x56xf16>)
      {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 32}
  // Grouped, dilated (window 2 * (5 - 1) + 1 = 9), left pad only: 112 - 9 + 1 = 104 rows,
  // 112 + 1 - 9 + 1 = 105 columns.
  // CHECK: mie.conv2d {{.+}} {dilations = array<i64: 2, 2>, groups = 4 : i64, pads = array<i64: 0, 1, 0, 0>}
  mie.conv2d ins(%x, %gw : memref<2x32x112x112xf16>, memref<64x8x5x5xf16>)
      outs(%z : memref<2x64x104x105xf16>)
      {dilations = array<i64: 2, 2>, pads = array<i64: 0, 1, 0, 0>, groups = 4}
  return
}

// -----

// Tests mie.gemm in 2-D and batched 3-D form with transposes, alpha and epilogue operands.

// CHECK-LABEL: func.func @gemm
// CHECK-SAME: (%[[A:[^:]+]]: memref<8x512xf32>, %[[W:[^:]+]]: memref<1000x512xf32>, %[[B:[^:]+]]: memref<1000xf32>, %[[Y:[^:]+]]: memref<8x1000xf32>)
func.func @gemm(%a: memref<8x512xf32>, %w: memref<1000x512xf32>, %b: memref<1000xf32>,
                %y: memref<8x1000xf32>) {
  // CHECK: mie.gemm ins(%[[A]], %[[W]] : memref<8x512xf32>, memref<1000x512xf32>) bias(%[[B]] : memref<1000xf32>) outs(%[[Y]] : memref<8x1000xf32>) {epilogue = #mie.epilogue<bias>, trans_b}
  mie.gemm ins(%a, %w : memref<8x512xf32>, memref<1000x512xf32>) bias(%b : memref<1000xf32>)
      outs(%y : memref<8x1000xf32>) {trans_b, epilogue = #mie.epilogue<bias>}
  return
}

// CHECK-LABEL: func.func @gemm_trans_c
func.func @gemm_trans_c(%x: memref<512x49xf32>, %w: memref<2048x512xf32>, %b: memref<2048xf32>,
                        %r: memref<2048x49xf32>, %y: memref<2048x49xf32>) {
  // A 1x1 convolution with pixels as rows: the product [49, 2048] is stored as [2048, 49].
  // CHECK: mie.gemm ins(%{{.+}}, %{{.+}} : memref<512x49xf32>, memref<2048x512xf32>) bias(%{{.+}} : memref<2048xf32>) residual(%{{.+}} : memref<2048x49xf32>) outs(%{{.+}} : memref<2048x49xf32>) {epilogue = #mie.epilogue<bias, residual>, trans_a, trans_b, trans_c}
  mie.gemm ins(%x, %w : memref<512x49xf32>, memref<2048x512xf32>) bias(%b : memref<2048xf32>)
      residual(%r : memref<2048x49xf32>) outs(%y : memref<2048x49xf32>)
      {trans_a, trans_b, trans_c, epilogue = #mie.epilogue<bias, residual>}
  return
}

// CHECK-LABEL: func.func @gemm_trans_a_alpha
func.func @gemm_trans_a_alpha(%a: memref<64x16xbf16>, %b: memref<64x32xbf16>,
                              %y: memref<16x32xbf16>) {
  // CHECK: mie.gemm ins(%{{.+}}, %{{.+}} : memref<64x16xbf16>, memref<64x32xbf16>) outs(%{{.+}} : memref<16x32xbf16>) {alpha = 1.250000e-01 : f64, trans_a}
  mie.gemm ins(%a, %b : memref<64x16xbf16>, memref<64x32xbf16>) outs(%y : memref<16x32xbf16>)
      {trans_a, alpha = 0.125 : f64}
  return
}

// CHECK-LABEL: func.func @gemm_batched
// CHECK-SAME: (%[[Q:[^:]+]]: memref<12x128x64xf16>, %[[K:[^:]+]]: memref<12x128x64xf16>, %[[R:[^:]+]]: memref<12x128x128xf16>, %[[S:[^:]+]]: memref<12x128x128xf16>)
func.func @gemm_batched(%q: memref<12x128x64xf16>, %k: memref<12x128x64xf16>,
                        %r: memref<12x128x128xf16>, %s: memref<12x128x128xf16>) {
  // CHECK: mie.gemm ins(%[[Q]], %[[K]] : memref<12x128x64xf16>, memref<12x128x64xf16>) residual(%[[R]] : memref<12x128x128xf16>) outs(%[[S]] : memref<12x128x128xf16>) {epilogue = #mie.epilogue<residual, activation = gelu_tanh>, trans_b}
  mie.gemm ins(%q, %k : memref<12x128x64xf16>, memref<12x128x64xf16>)
      residual(%r : memref<12x128x128xf16>) outs(%s : memref<12x128x128xf16>)
      {trans_b, epilogue = #mie.epilogue<residual, activation = gelu_tanh>}
  return
}

// -----

// Tests mie.kernel with a linalg body, with no inputs, and with extra attributes.

// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%[[A:[^:]+]]: memref<64xf32>, %[[B:[^:]+]]: memref<64xf32>, %[[C:[^:]+]]: memref<64xf32>)
func.func @kernel(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<64xf32>) {
  // CHECK: mie.kernel "add_relu" ins(%[[A]], %[[B]] : memref<64xf32>, memref<64xf32>) outs(%[[C]] : memref<64xf32>) {
  // CHECK-NEXT: ^bb0(%[[X:.+]]: memref<64xf32>, %[[Y:.+]]: memref<64xf32>, %[[Z:.+]]: memref<64xf32>):
  // CHECK-NEXT: linalg.add ins(%[[X]], %[[Y]] : memref<64xf32>, memref<64xf32>) outs(%[[Z]] : memref<64xf32>)
  // CHECK: mie.yield
  // CHECK-NEXT: }
  mie.kernel "add_relu" ins(%a, %b : memref<64xf32>, memref<64xf32>) outs(%c : memref<64xf32>) {
  ^bb0(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>):
    linalg.add ins(%x, %y : memref<64xf32>, memref<64xf32>) outs(%z : memref<64xf32>)
    %zero = arith.constant 0.0 : f32
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        outs(%z : memref<64xf32>) {
    ^bb0(%v: f32):
      %m = arith.maximumf %v, %zero : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  return
}

// CHECK-LABEL: func.func @kernel_no_inputs
func.func @kernel_no_inputs(%c: memref<4x4xf16>) {
  // CHECK: mie.kernel "fill" outs(%{{.+}} : memref<4x4xf16>) attributes {cost = 16 : i64} {
  // CHECK-NEXT: ^bb0(%[[O:.+]]: memref<4x4xf16>):
  // CHECK: linalg.fill ins(%{{.+}} : f16) outs(%[[O]] : memref<4x4xf16>)
  // CHECK: mie.yield
  mie.kernel "fill" outs(%c : memref<4x4xf16>) attributes {cost = 16 : i64} {
  ^bb0(%o: memref<4x4xf16>):
    %one = arith.constant 1.0 : f16
    linalg.fill ins(%one : f16) outs(%o : memref<4x4xf16>)
    mie.yield
  }
  return
}

// -----

// Tests that the microkernel attributes round-trip: a tiling (with and without shared panels) on a
// conv2d with a packed filter and on a gemm with packed b, the accumulator type, Winograd conv2ds
// (F(2x2, 3x3) and F(4x4, 3x3)), a pixel-rows conv2d (filter as column panels of nr = 8) and a
// depthwise ukernel.

// CHECK-LABEL: func.func @microkernel_attrs
// CHECK: mie.conv2d {{.*}}accumulator = f32, filter_shape = array<i64: 8, 2, 3, 3>, {{.*}}ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 8, kc = 18, mc = 8, nc = 16>
// CHECK: mie.conv2d {{.*}}ukernel = #mie.ukernel<winograd_2x2, "avx512", mr = 8, nr = 16, kc = 2, mc = 8, nc = 16, shared_panels = true>
// CHECK: mie.conv2d {{.*}}ukernel = #mie.ukernel<winograd_4x4
// CHECK: mie.conv2d {{.*}}filter_shape = array<i64: 8, 2, 3, 3>, {{.*}}ukernel = #mie.ukernel<conv_pixel_rows, "avx2", mr = 4, nr = 8, kc = 18, mc = 8, nc = 8, shared_panels = true>
// CHECK: mie.conv2d {{.*}}ukernel = #mie.ukernel<depthwise, "neon">
// CHECK: mie.gemm {{.*}}b_packed, ukernel = #mie.ukernel<gemm, "neon", mr = 8, nr = 12, kc = 8, mc = 8, nc = 24>
func.func @microkernel_attrs(%x: memref<1x2x5x5xf32>, %w: memref<2x18x4xf32>, %y: memref<1x8x5x5xf32>,
                             %wg: memref<16x1x2x8xf32>, %wg4: memref<36x1x2x8xf32>, %dw: memref<2x1x3x3xf32>, %z: memref<1x2x5x5xf32>,
                             %a: memref<3x8xf32>, %b: memref<2x8x12xf32>, %c: memref<3x20xf32>,
                             %wr: memref<1x18x8xf32>) {
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<2x18x4xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, accumulator = f32, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 8, kc = 18, mc = 8, nc = 16>}
  mie.conv2d ins(%x, %wg : memref<1x2x5x5xf32>, memref<16x1x2x8xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<winograd_2x2, "avx512", mr = 8, nr = 16, kc = 2, mc = 8, nc = 16, shared_panels = true>}
  mie.conv2d ins(%x, %wg4 : memref<1x2x5x5xf32>, memref<36x1x2x8xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<winograd_4x4, "avx512", mr = 8, nr = 16, kc = 2, mc = 8, nc = 16>}
  mie.conv2d ins(%x, %wr : memref<1x2x5x5xf32>, memref<1x18x8xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_pixel_rows, "avx2", mr = 4, nr = 8, kc = 18, mc = 8, nc = 8, shared_panels = true>}
  mie.conv2d ins(%x, %dw : memref<1x2x5x5xf32>, memref<2x1x3x3xf32>) outs(%z : memref<1x2x5x5xf32>) {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<depthwise, "neon">}
  mie.gemm ins(%a, %b : memref<3x8xf32>, memref<2x8x12xf32>) outs(%c : memref<3x20xf32>) {b_packed, ukernel = #mie.ukernel<gemm, "neon", mr = 8, nr = 12, kc = 8, mc = 8, nc = 24>}
  return
}

// -----

// Tests mie.attention with and without a mask (one that broadcasts over heads and query rows) and
// with the microkernel the kernel selection names.
// CHECK-LABEL: func.func @attention
// CHECK: mie.attention ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x3xf32>) outs(%{{.+}} : memref<2x4x3xf32>) {scale = 5.000000e-01 : f64}
// CHECK: mie.attention ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x3xf32>) mask(%{{.+}} : memref<1x6xf32>) outs(%{{.+}} : memref<2x4x3xf32>) {scale = 1.250000e-01 : f64, ukernel = #mie.ukernel<attention, "avx2">}
func.func @attention(%q: memref<2x4x8xf32>, %k: memref<2x6x8xf32>, %v: memref<2x6x3xf32>,
                     %m: memref<1x6xf32>, %o: memref<2x4x3xf32>) {
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x3xf32>) outs(%o : memref<2x4x3xf32>) {scale = 0.5 : f64}
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x3xf32>) mask(%m : memref<1x6xf32>) outs(%o : memref<2x4x3xf32>) {scale = 0.125 : f64, ukernel = #mie.ukernel<attention, "avx2">}
  return
}

// -----

// Tests token-major mie.attention: buffers [S, H, D] with the heads after the positions.
// CHECK-LABEL: func.func @attention_token_major
// CHECK: mie.attention ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<4x2x8xf32>, memref<6x2x8xf32>, memref<6x2x3xf32>) mask(%{{.+}} : memref<2x1x6xf32>) outs(%{{.+}} : memref<4x2x3xf32>) {scale = 5.000000e-01 : f64, token_major}
func.func @attention_token_major(%q: memref<4x2x8xf32>, %k: memref<6x2x8xf32>, %v: memref<6x2x3xf32>,
                                 %m: memref<2x1x6xf32>, %o: memref<4x2x3xf32>) {
  mie.attention ins(%q, %k, %v : memref<4x2x8xf32>, memref<6x2x8xf32>, memref<6x2x3xf32>) mask(%m : memref<2x1x6xf32>) outs(%o : memref<4x2x3xf32>) {scale = 0.5 : f64, token_major}
  return
}

// -----

// Tests grouped-query mie.attention: 2 key/value heads for 4 query heads, head-major and
// token-major.
// CHECK-LABEL: func.func @attention_grouped_query
// CHECK: mie.attention ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<4x6x8xf32>, memref<2x5x8xf32>, memref<2x5x3xf32>) outs(%{{.+}} : memref<4x6x3xf32>) {scale = 5.000000e-01 : f64}
// CHECK: mie.attention ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<6x4x8xf32>, memref<5x2x8xf32>, memref<5x2x3xf32>) outs(%{{.+}} : memref<6x4x3xf32>) {scale = 5.000000e-01 : f64, token_major}
func.func @attention_grouped_query(%q: memref<4x6x8xf32>, %k: memref<2x5x8xf32>, %v: memref<2x5x3xf32>, %o: memref<4x6x3xf32>,
                                   %qt: memref<6x4x8xf32>, %kt: memref<5x2x8xf32>, %vt: memref<5x2x3xf32>, %ot: memref<6x4x3xf32>) {
  mie.attention ins(%q, %k, %v : memref<4x6x8xf32>, memref<2x5x8xf32>, memref<2x5x3xf32>) outs(%o : memref<4x6x3xf32>) {scale = 0.5 : f64}
  mie.attention ins(%qt, %kt, %vt : memref<6x4x8xf32>, memref<5x2x8xf32>, memref<5x2x3xf32>) outs(%ot : memref<6x4x3xf32>) {scale = 0.5 : f64, token_major}
  return
}

// -----

// Tests causal mie.attention: 4 queries over 6 keys (the diagonal offset 2).
// CHECK-LABEL: func.func @attention_causal
// CHECK: mie.attention ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x3xf32>) outs(%{{.+}} : memref<2x4x3xf32>) {causal, scale = 5.000000e-01 : f64}
func.func @attention_causal(%q: memref<2x4x8xf32>, %k: memref<2x6x8xf32>, %v: memref<2x6x3xf32>, %o: memref<2x4x3xf32>) {
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x3xf32>) outs(%o : memref<2x4x3xf32>) {causal, scale = 0.5 : f64}
  return
}

// -----

// Tests mie.qconv2d with its filter packed (filter_shape) and the window attributes.
// CHECK-LABEL: func.func @qconv2d
// CHECK: mie.qconv2d ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : memref<1x5x9x9xi8>, memref<1152xi8>, memref<16xi32>, memref<16xf32>) outs(%{{.+}} : memref<1x16x5x5xi8>) {filter_shape = array<i64: 16, 5, 3, 3>, input_zero_point = 128 : i64, output_max = 255 : i64, output_min = 3 : i64, output_zero_point = 3 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
func.func @qconv2d(%x: memref<1x5x9x9xi8>, %w: memref<1152xi8>, %b: memref<16xi32>, %s: memref<16xf32>, %y: memref<1x16x5x5xi8>) {
  mie.qconv2d ins(%x, %w, %b, %s : memref<1x5x9x9xi8>, memref<1152xi8>, memref<16xi32>, memref<16xf32>) outs(%y : memref<1x16x5x5xi8>) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, input_zero_point = 128 : i64, output_zero_point = 3 : i64, output_min = 3 : i64, output_max = 255 : i64, filter_shape = array<i64: 16, 5, 3, 3>}
  return
}

// -----

// Tests that #mie.ukernel reads back as printed for every family: the tiled ones with the tiling
// after the ISA (shared_panels and few_rows_mr only when set), the others with the ISA alone.
// CHECK-LABEL: func.func private @ukernel_families()
// CHECK-SAME: a = #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 768, mc = 128, nc = 768, shared_panels = true>
// CHECK-SAME: b = #mie.ukernel<conv_gemm, "neon_f16", mr = 8, nr = 12, kc = 576, mc = 64, nc = 108>
// CHECK-SAME: c = #mie.ukernel<conv_direct, "avx2", mr = 4, nr = 24, kc = 27, mc = 32, nc = 840>
// CHECK-SAME: d = #mie.ukernel<conv_pixel_rows, "avx512", mr = 7, nr = 48, kc = 928, mc = 28, nc = 48, shared_panels = true>
// CHECK-SAME: e = #mie.ukernel<winograd_2x2, "neon", mr = 8, nr = 12, kc = 64, mc = 8, nc = 24>
// CHECK-SAME: f = #mie.ukernel<winograd_4x4, "avx2", mr = 6, nr = 16, kc = 64, mc = 66, nc = 208>
// CHECK-SAME: g = #mie.ukernel<depthwise, "avx512">
// CHECK-SAME: h = #mie.ukernel<max_pool, "neon">
// CHECK-SAME: i = #mie.ukernel<attention, "avx2">
// CHECK-SAME: j = #mie.ukernel<gemm, "avx512", mr = 8, nr = 48, kc = 768, mc = 192, nc = 192, shared_panels = true, few_rows_mr = 7>
// CHECK-SAME: k = #mie.tiling<"avx512", mr = 8, nr = 48, kc = 768, mc = 192, nc = 192, few_rows_mr = 7>
func.func private @ukernel_families() attributes {
  a = #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 768, mc = 128, nc = 768, shared_panels = true>,
  b = #mie.ukernel<conv_gemm, "neon_f16", mr = 8, nr = 12, kc = 576, mc = 64, nc = 108, shared_panels = false>,
  c = #mie.ukernel<conv_direct, "avx2", mr = 4, nr = 24, kc = 27, mc = 32, nc = 840>,
  d = #mie.ukernel<conv_pixel_rows, "avx512", mr = 7, nr = 48, kc = 928, mc = 28, nc = 48, shared_panels = true>,
  e = #mie.ukernel<winograd_2x2, "neon", mr = 8, nr = 12, kc = 64, mc = 8, nc = 24>,
  f = #mie.ukernel<winograd_4x4, "avx2", mr = 6, nr = 16, kc = 64, mc = 66, nc = 208>,
  g = #mie.ukernel<depthwise, "avx512">,
  h = #mie.ukernel<max_pool, "neon">,
  i = #mie.ukernel<attention, "avx2">,
  j = #mie.ukernel<gemm, "avx512", mr = 8, nr = 48, kc = 768, mc = 192, nc = 192, shared_panels = true, few_rows_mr = 7>,
  k = #mie.tiling<"avx512", mr = 8, nr = 48, kc = 768, mc = 192, nc = 192, few_rows_mr = 7>}

// -----

// Tests the run's symbol values as a buffer, one i64 per symbol of the function.

// CHECK-LABEL: func.func @symbol_values
// CHECK: mie.symbol_values : memref<2xi64>
func.func @symbol_values() -> memref<2xi64> attributes {ms.symbols = ["batch", "seq"]} {
  %0 = mie.symbol_values : memref<2xi64>
  return %0 : memref<2xi64>
}
