// RUN: ms-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #mie.target
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expects a cpu arch of "x86-64" or "aarch64", got "armv7"}}
func.func private @target_cpu_arch() attributes {mie.target = #mie.target<cpu, "armv7">}

// -----

// expected-error @+1 {{expects a cuda arch of the form "sm_<N>", got "compute_90"}}
func.func private @target_cuda_form() attributes {mie.target = #mie.target<cuda, "compute_90">}

// -----

// expected-error @+1 {{expects a cuda arch of sm_75 or newer (the oldest ptxas 13 supports), got "sm_70"}}
func.func private @target_cuda_old() attributes {mie.target = #mie.target<cuda, "sm_70">}

// -----

// expected-error @+2 {{expected ::mlir::mie::TargetKind to be one of: cpu, cuda}}
// expected-error @+1 {{failed to parse Mie_TargetAttr parameter 'kind' which is to be a `::mlir::mie::TargetKind`}}
func.func private @target_kind() attributes {mie.target = #mie.target<tpu, "v4">}

// -----

// expected-error @+1 {{expects 'mie.target' to be a #mie.target attribute, got "x86-64"}}
func.func private @target_not_target() attributes {mie.target = "x86-64"}

// -----

// expected-error @+1 {{expects 'mie.memory' to be a dictionary, got 12 : i64}}
func.func private @memory_not_dictionary() attributes {mie.memory = 12 : i64}

// -----

// expected-error @+1 {{expects 'mie.schedule_peak' to be array<i64: before, after>, got array<i64: 5>}}
func.func private @schedule_peak_one_number() attributes {mie.schedule_peak = array<i64: 5>}

// -----

// expected-error @+1 {{expects 'mie.dead_after' to be array<i64: offset, bytes, ...> of non-negative pairs, got array<i64: 0, 64, 128>}}
func.func private @dead_after_odd() attributes {mie.dead_after = array<i64: 0, 64, 128>}

// -----

// expected-error @+1 {{unknown mie discardable attribute 'mie.arena' (known: 'mie.target', 'mie.arena_bytes', 'mie.weights', 'mie.flops', 'mie.memory', 'mie.schedule_peak', 'mie.dead_after', 'mie.in_place_input', 'mie.portable', 'mie.symbol_ranges', 'mie.arena_size_fn', 'mie.parallel_stages', 'mie.gpu_library')}}
func.func private @unknown_attr() attributes {mie.arena = 1024 : i64}

// -----

// expected-error @+1 {{expects 'mie.in_place_input' on a mie.kernel with outputs, as the i64 index of one of its inputs, got 1 : i64}}
func.func private @in_place_input_not_a_kernel() attributes {mie.in_place_input = 1 : i64}

// -----

func.func @in_place_input_out_of_range(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{expects 'mie.in_place_input' on a mie.kernel with outputs, as the i64 index of one of its inputs, got 1 : i64}}
  mie.kernel "k" ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) attributes {mie.in_place_input = 1 : i64} {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  return
}

//===----------------------------------------------------------------------===//
// #mie.epilogue
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{expects clamp min <= max, got [6.000000e+00, 0.000000e+00]}}
func.func private @epilogue_clamp() attributes {e = #mie.epilogue<clamp = [6.0, 0.0]>}

// -----

// expected-error @+1 {{duplicate 'bias' in #mie.epilogue}}
func.func private @epilogue_duplicate() attributes {e = #mie.epilogue<bias, bias>}

// -----

// expected-error @+1 {{expects 'bias', 'residual', 'activation' or 'clamp' in #mie.epilogue, got 'scale'}}
func.func private @epilogue_unknown_part() attributes {e = #mie.epilogue<scale>}

// -----

// expected-error @+1 {{unknown activation 'swish'}}
func.func private @epilogue_unknown_activation() attributes {e = #mie.epilogue<activation = swish>}

//===----------------------------------------------------------------------===//
// mie.alloc
//===----------------------------------------------------------------------===//

// -----

func.func @alloc_dynamic() {
  // expected-error @+1 {{'mie.alloc' op expects one size operand per dynamic dim of 'memref<?x4xf32>', got 0}}
  %0 = mie.alloc : memref<?x4xf32>
  return
}

// -----

func.func @alloc_layout() {
  // expected-error @+1 {{'mie.alloc' op expects the identity layout, got 'memref<4x4xf32, strided<[8, 1]>>'}}
  %0 = mie.alloc : memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @alloc_alignment() {
  // expected-error @+1 {{'mie.alloc' op expects 'alignment' to be a positive power of two, got 48}}
  %0 = mie.alloc {alignment = 48} : memref<16xf32>
  return
}

//===----------------------------------------------------------------------===//
// mie.view
//===----------------------------------------------------------------------===//

// -----

func.func @view_base(%base: memref<16x64xi8>) {
  // expected-error @+1 {{'mie.view' op expects a base of type memref<Nxi8> (1-D, static, identity layout), got 'memref<16x64xi8>'}}
  %0 = mie.view %base[0] : memref<16x64xi8> to memref<4xf32>
  return
}

// -----

func.func @view_dynamic(%arena: memref<1024xi8>) {
  // expected-error @+1 {{'mie.view' op expects a static result shape, got 'memref<?xf32>'}}
  %0 = mie.view %arena[0] : memref<1024xi8> to memref<?xf32>
  return
}

// -----

func.func @view_layout(%arena: memref<1024xi8>) {
  // expected-error @+1 {{'mie.view' op expects the result to have the identity layout, got 'memref<4x4xf32, strided<[8, 1]>>'}}
  %0 = mie.view %arena[0] : memref<1024xi8> to memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @view_memory_space(%arena: memref<1024xi8, 1>) {
  // expected-error @+1 {{'mie.view' op expects the result in the base's memory space (memory space 1 : i64), got the default memory space}}
  %0 = mie.view %arena[0] : memref<1024xi8, 1> to memref<4xf32>
  return
}

// -----

func.func @view_element_bytes(%arena: memref<1024xi8>) {
  // expected-error @+1 {{'mie.view' op expects a result element type of whole bytes, got 'i12'}}
  %0 = mie.view %arena[0] : memref<1024xi8> to memref<8xi12>
  return
}

// -----

func.func @view_negative(%arena: memref<1024xi8>) {
  // expected-error @+1 {{'mie.view' op expects a non-negative offset, got -4}}
  %0 = mie.view %arena[-4] : memref<1024xi8> to memref<4xf32>
  return
}

// -----

func.func @view_element_multiple(%arena: memref<1024xi8>) {
  // expected-error @+1 {{'mie.view' op expects the offset to be a multiple of the element size (4 bytes), got 6}}
  %0 = mie.view %arena[6] : memref<1024xi8> to memref<4xf32>
  return
}

// -----

func.func @view_aligned(%arena: memref<1024xi8>) {
  // expected-error @+1 {{'mie.view' op expects an 'aligned' offset to be a multiple of 64 bytes, got 96}}
  %0 = mie.view %arena[96] {aligned} : memref<1024xi8> to memref<4xf32>
  return
}

// -----

func.func @view_bounds(%arena: memref<1024xi8>) {
  // expected-error @+1 {{'mie.view' op expects offset + byte size <= base size, got 768 + 512 > 1024}}
  %0 = mie.view %arena[768] : memref<1024xi8> to memref<2x64xf32>
  return
}

//===----------------------------------------------------------------------===//
// mie.conv2d
//===----------------------------------------------------------------------===//

// -----

func.func @conv2d_float(%x: memref<1x8x8x8xi8>, %w: memref<8x8x3x3xi8>, %y: memref<1x8x6x6xi8>) {
  // expected-error @+1 {{'mie.conv2d' op operand #0 must be memref of floating-point values}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xi8>, memref<8x8x3x3xi8>) outs(%y : memref<1x8x6x6xi8>)
  return
}

// -----

func.func @conv2d_channels_last_shape(%x: memref<1x8x8x4xf32>, %w: memref<4x1x3x3xf32>, %y: memref<1x4x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects output of shape [1, 6, 6, 4] (from input, filter, strides, pads and dilations), got [1, 4, 6, 6]}}
  mie.conv2d ins(%x, %w : memref<1x8x8x4xf32>, memref<4x1x3x3xf32>) outs(%y : memref<1x4x6x6xf32>) {channels_last, groups = 4 : i64}
  return
}

// -----

func.func @conv2d_channels_last_tiling(%x: memref<1x8x8x4xf32>, %w: memref<4x4x3x3xf32>, %y: memref<1x6x6x4xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects the depthwise ukernel or none with channels_last, got conv_direct}}
  mie.conv2d ins(%x, %w : memref<1x8x8x4xf32>, memref<4x4x3x3xf32>) outs(%y : memref<1x6x6x4xf32>) {channels_last, ukernel = #mie.ukernel<conv_direct, "avx2", mr = 6, nr = 16, kc = 36, mc = 6, nc = 16>}
  return
}

// -----

func.func @conv2d_channels_last_packed(%x: memref<1x8x8x4xf32>, %w: memref<4x9xf32>, %y: memref<1x6x6x4xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects filter of shape [9, 4] ([KH * KW, C], the packed NHWC depthwise filter), got [4, 9]}}
  mie.conv2d ins(%x, %w : memref<1x8x8x4xf32>, memref<4x9xf32>) outs(%y : memref<1x6x6x4xf32>) {channels_last, filter_shape = array<i64: 4, 1, 3, 3>, groups = 4 : i64, ukernel = #mie.ukernel<depthwise, "avx2">}
  return
}

// -----

// A run-time batch (code for symbolic dims) must be the image's.
func.func @conv2d_static(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %y: memref<?x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects output of shape [1, 8, 6, 6] (from input, filter, strides, pads and dilations), got [?, 8, 6, 6]}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<?x8x6x6xf32>)
  return
}

// -----

func.func @conv2d_element_type(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf16>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects filter element type 'f32' (the first operand's), got 'f16'}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf16>) outs(%y : memref<1x8x6x6xf32>)
  return
}

// -----

func.func @conv2d_rank(%x: memref<8x8x8xf32>, %w: memref<8x8x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects input of rank 4 [N, C, H, W], got 'memref<8x8x8xf32>'}}
  mie.conv2d ins(%x, %w : memref<8x8x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
  return
}

// -----

func.func @conv2d_strides(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects 'strides' to have 2 entries, got 1}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
      {strides = array<i64: 1>}
  return
}

// -----

func.func @conv2d_pads(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects every 'pads' entry to be >= 0, got [0, -1, 0, 0]}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
      {pads = array<i64: 0, -1, 0, 0>}
  return
}

// -----

func.func @conv2d_groups(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects groups >= 1, got 0}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
      {groups = 0}
  return
}

// -----

func.func @conv2d_groups_filter(%x: memref<1x9x8x8xf32>, %w: memref<8x3x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects filter output channels (8) to be divisible by groups (3)}}
  mie.conv2d ins(%x, %w : memref<1x9x8x8xf32>, memref<8x3x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
      {groups = 3}
  return
}

// -----

func.func @conv2d_channels(%x: memref<1x8x8x8xf32>, %w: memref<8x4x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects input channels (8) to equal filter channels per group (4) * groups (1)}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x4x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
  return
}

// -----

func.func @conv2d_window(%x: memref<1x8x4x4xf32>, %w: memref<8x8x3x3xf32>, %y: memref<1x8x1x1xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects the dilated KH (5) to fit the padded input height (4)}}
  mie.conv2d ins(%x, %w : memref<1x8x4x4xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x1x1xf32>)
      {dilations = array<i64: 2, 2>}
  return
}

// -----

func.func @conv2d_output(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %y: memref<1x8x8x8xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects output of shape [1, 8, 6, 6] (from input, filter, strides, pads and dilations), got [1, 8, 8, 8]}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x8x8xf32>)
  return
}

// -----

func.func @conv2d_missing_bias(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects a bias operand because the epilogue has 'bias', found none}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
      {epilogue = #mie.epilogue<bias>}
  return
}

// -----

func.func @conv2d_extra_bias(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %b: memref<8xf32>,
                             %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects no bias operand because the epilogue has no 'bias', found 'memref<8xf32>'}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) bias(%b : memref<8xf32>)
      outs(%y : memref<1x8x6x6xf32>)
  return
}

// -----

func.func @conv2d_missing_residual(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects a residual operand because the epilogue has 'residual', found none}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
      {epilogue = #mie.epilogue<residual, activation = relu>}
  return
}

// -----

func.func @conv2d_extra_residual(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %r: memref<1x8x6x6xf32>,
                                 %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects no residual operand because the epilogue has no 'residual', found 'memref<1x8x6x6xf32>'}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) residual(%r : memref<1x8x6x6xf32>)
      outs(%y : memref<1x8x6x6xf32>)
  return
}

// -----

func.func @conv2d_bias_shape(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %b: memref<6xf32>,
                             %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects bias of shape [8] ([F], the output channels), got [6]}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) bias(%b : memref<6xf32>)
      outs(%y : memref<1x8x6x6xf32>) {epilogue = #mie.epilogue<bias>}
  return
}

// -----

func.func @conv2d_residual_shape(%x: memref<1x8x8x8xf32>, %w: memref<8x8x3x3xf32>, %r: memref<1x8x8x8xf32>,
                                 %y: memref<1x8x6x6xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects residual of shape [1, 8, 6, 6] (the output's), got [1, 8, 8, 8]}}
  mie.conv2d ins(%x, %w : memref<1x8x8x8xf32>, memref<8x8x3x3xf32>) residual(%r : memref<1x8x8x8xf32>)
      outs(%y : memref<1x8x6x6xf32>) {epilogue = #mie.epilogue<residual>}
  return
}

//===----------------------------------------------------------------------===//
// mie.max_pool2d
//===----------------------------------------------------------------------===//

// -----

func.func @max_pool2d_channels(%x: memref<1x8x8x8xf32>, %y: memref<1x4x4x4xf32>) {
  // expected-error @+1 {{'mie.max_pool2d' op expects the output's N and C (1, 4) to be the input's (1, 8)}}
  mie.max_pool2d ins(%x : memref<1x8x8x8xf32>) outs(%y : memref<1x4x4x4xf32>) {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
  return
}

// -----

// A ukernel attribute names a kernel of the registry (runtime/include/mie/mie_ukernels.def): here an
// ISA no unit defines it for.
func.func @max_pool2d_unknown_ukernel(%x: memref<1x8x8x8xf32>, %y: memref<1x8x4x4xf32>) {
  // expected-error @+1 {{expects an ISA with the max_pool kernels of the registry (runtime/include/mie/mie_ukernels.def), got 'sse2'}}
  mie.max_pool2d ins(%x : memref<1x8x8x8xf32>) outs(%y : memref<1x8x4x4xf32>) {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, ukernel = #mie.ukernel<max_pool, "sse2">}
  return
}

// -----

func.func @max_pool2d_size(%x: memref<1x8x8x8xf32>, %y: memref<1x8x5x4xf32>) {
  // expected-error @+1 {{'mie.max_pool2d' op expects output height 4 from input, kernel, strides, pads and dilations, got 5}}
  mie.max_pool2d ins(%x : memref<1x8x8x8xf32>) outs(%y : memref<1x8x5x4xf32>) {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
  return
}

// -----

func.func @max_pool2d_ceil(%x: memref<1x8x9x9xf32>, %y: memref<1x8x4x6xf32>) {
  // expected-error @+1 {{'mie.max_pool2d' op expects output width 4 or 5 from input, kernel, strides, pads and dilations, got 6}}
  mie.max_pool2d ins(%x : memref<1x8x9x9xf32>) outs(%y : memref<1x8x4x6xf32>) {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
  return
}

// -----

func.func @max_pool2d_window(%x: memref<1x8x4x4xf32>, %y: memref<1x8x4x1xf32>) {
  // expected-error @+1 {{'mie.max_pool2d' op expects the dilated KW (5) to fit the padded input width (4)}}
  mie.max_pool2d ins(%x : memref<1x8x4x4xf32>) outs(%y : memref<1x8x4x1xf32>) {kernel = array<i64: 1, 5>}
  return
}

// -----

func.func @max_pool2d_kernel(%x: memref<1x8x4x4xf32>, %y: memref<1x8x4x4xf32>) {
  // expected-error @+1 {{'mie.max_pool2d' op expects 'kernel' to have 2 entries, got 1}}
  mie.max_pool2d ins(%x : memref<1x8x4x4xf32>) outs(%y : memref<1x8x4x4xf32>) {kernel = array<i64: 1>}
  return
}

// -----

func.func @max_pool2d_ukernel(%x: memref<1x8x4x4xf16>, %y: memref<1x8x2x2xf16>) {
  // expected-error @+1 {{'mie.max_pool2d' op expects f32 buffers for the max_pool ukernel}}
  mie.max_pool2d ins(%x : memref<1x8x4x4xf16>) outs(%y : memref<1x8x2x2xf16>) {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, ukernel = #mie.ukernel<max_pool, "avx2">}
  return
}

// -----

func.func @max_pool2d_rank(%x: memref<8x4x4xf32>, %y: memref<8x2x2xf32>) {
  // expected-error @+1 {{'mie.max_pool2d' op expects input of rank 4 [N, C, H, W]}}
  mie.max_pool2d ins(%x : memref<8x4x4xf32>) outs(%y : memref<8x2x2xf32>) {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
  return
}

//===----------------------------------------------------------------------===//
// mie.gemm
//===----------------------------------------------------------------------===//

// -----

func.func @gemm_rank(%a: memref<2x4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects a, b and output all of rank 2 or all of rank 3, got ranks 3, 2 and 2}}
  mie.gemm ins(%a, %b : memref<2x4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @gemm_batch(%a: memref<2x4x8xf32>, %b: memref<3x8x16xf32>, %c: memref<2x4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects one batch size for a, b and output, got 2, 3 and 2}}
  mie.gemm ins(%a, %b : memref<2x4x8xf32>, memref<3x8x16xf32>) outs(%c : memref<2x4x16xf32>)
  return
}

// -----

func.func @gemm_k(%a: memref<4x8xf32>, %b: memref<16x8xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects the contraction sizes to match, got K = 8 from a and K = 16 from b}}
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<16x8xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @gemm_output(%a: memref<8x4xf32>, %b: memref<8x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects output of shape [4, 16] ([.., M, N] from a and b), got [8, 16]}}
  mie.gemm ins(%a, %b : memref<8x4xf32>, memref<8x16xf32>) outs(%c : memref<8x16xf32>) {trans_a}
  return
}

// -----

func.func @gemm_element_type(%a: memref<4x8xf16>, %b: memref<8x16xf16>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects output element type 'f16' (the first operand's), got 'f32'}}
  mie.gemm ins(%a, %b : memref<4x8xf16>, memref<8x16xf16>) outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @conv_direct_no_tiling(%x: memref<1x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %y: memref<1x4x6x6xf32>) {
  // expected-error @+1 {{expects a tiling (mr, nr, kc, mc, nc) for the conv_direct family}}
  mie.conv2d ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%y : memref<1x4x6x6xf32>) {ukernel = #mie.ukernel<conv_direct, "avx2">}
  return
}

// -----

func.func @conv_direct_stride(%x: memref<1x3x9x9xf32>, %w: memref<1x27x4xf32>, %y: memref<1x4x3x3xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects C * KH * KW <= 256 and a stride of 1 or 2 along W with conv_direct, got K = 27 and stride 3}}
  mie.conv2d ins(%x, %w : memref<1x3x9x9xf32>, memref<1x27x4xf32>) outs(%y : memref<1x4x3x3xf32>) {strides = array<i64: 3, 3>, filter_shape = array<i64: 4, 3, 3, 3>, ukernel = #mie.ukernel<conv_direct, "avx2", mr = 4, nr = 8, kc = 27, mc = 4, nc = 8>}
  return
}

// -----

func.func @gemm_trans_c_shape(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x32xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects output of shape [32, 8] ([.., N, M] from a and b (trans_c)), got [8, 32]}}
  mie.gemm ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%c : memref<8x32xf32>) {trans_c}
  return
}

// -----

func.func @gemm_packed_trans_c_shape(%a: memref<3x8xf32>, %b: memref<1x8x16xf32>, %c: memref<3x20xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects output [N, M] with trans_c, got 20 columns for M = 3}}
  mie.gemm ins(%a, %b : memref<3x8xf32>, memref<1x8x16xf32>) outs(%c : memref<3x20xf32>) {trans_c, b_packed, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 6, nc = 16>}
  return
}

// -----

func.func @gemm_bias_shape(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %bias: memref<4xf32>,
                           %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects bias of shape [16] ([N], the product columns), got [4]}}
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) bias(%bias : memref<4xf32>)
      outs(%c : memref<4x16xf32>) {epilogue = #mie.epilogue<bias>}
  return
}

// -----

func.func @gemm_missing_residual(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects a residual operand because the epilogue has 'residual', found none}}
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
      {epilogue = #mie.epilogue<residual>}
  return
}

//===----------------------------------------------------------------------===//
// mie.kernel and mie.yield
//===----------------------------------------------------------------------===//

// -----

func.func @kernel_name(%a: memref<4xf32>) {
  // expected-error @+1 {{'mie.kernel' op expects a non-empty kernel name}}
  mie.kernel "" outs(%a : memref<4xf32>) {
  ^bb0(%x: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

func.func @kernel_no_outputs(%a: memref<4xf32>) {
  // expected-error @+1 {{'mie.kernel' op expects at least one output buffer, found none}}
  mie.kernel "k" ins(%a : memref<4xf32>) {
  ^bb0(%x: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

func.func @kernel_num_args(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{'mie.kernel' op expects 2 body arguments (1 ins + 1 outs), found 1}}
  mie.kernel "k" ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

func.func @kernel_input_type(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{'mie.kernel' op expects body argument #0 to have type 'memref<4xf32>' (the type of ins #0), found 'memref<8xf32>'}}
  mie.kernel "k" ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: memref<8xf32>, %y: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

func.func @kernel_output_type(%a: memref<4xf32>, %b: memref<4xf16>) {
  // expected-error @+1 {{'mie.kernel' op expects body argument #1 to have type 'memref<4xf16>' (the type of outs #0), found 'memref<4xf32>'}}
  mie.kernel "k" ins(%a : memref<4xf32>) outs(%b : memref<4xf16>) {
  ^bb0(%x: memref<4xf32>, %y: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

func.func @kernel_terminator(%a: memref<4xf32>) {
  // expected-error @+1 {{'mie.kernel' op expects the body to end with 'mie.yield', found 'memref.dealloc'}}
  mie.kernel "k" outs(%a : memref<4xf32>) {
  ^bb0(%x: memref<4xf32>):
    memref.dealloc %x : memref<4xf32>
  }
  return
}

// -----

func.func @kernel_isolated(%a: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-note @+1 {{required by region isolation constraints}}
  mie.kernel "k" outs(%a : memref<4xf32>) {
  ^bb0(%x: memref<4xf32>):
    // expected-error @+1 {{using value defined outside the region}}
    linalg.fill ins(%zero : f32) outs(%x : memref<4xf32>)
    mie.yield
  }
  return
}

// -----

func.func @yield_parent() {
  // expected-error @+1 {{'mie.yield' op expects parent op 'mie.kernel'}}
  mie.yield
}

// -----

// expected-error @+1 {{expects 'mie.arena_bytes' to be a non-negative i64, got -1 : i64}}
func.func private @negative_arena() attributes {mie.arena_bytes = -1 : i64}

// -----

// expected-error @+1 {{expects 'mie.weights' to be 1-D i8 elements, got dense<1.000000e+00> : tensor<4xf32>}}
module attributes {mie.weights = dense<1.0> : tensor<4xf32>} {
}

// -----

//===----------------------------------------------------------------------===//
// #mie.tiling and the microkernel forms of mie.conv2d / mie.gemm
//===----------------------------------------------------------------------===//

// expected-error @+1 {{unknown microkernel ISA 'sse2' (known: avx512, avx2, neon, amx, neon_f16)}}
func.func private @tiling_isa() attributes {t = #mie.tiling<"sse2", mr = 4, nr = 8, kc = 8, mc = 4, nc = 8>}

// -----

// expected-error @+1 {{expects mr = nr = 32 and kc a multiple of 32 for the AMX tile, got mr = 32, nr = 32, kc = 100}}
func.func private @tiling_amx() attributes {t = #mie.tiling<"amx", mr = 32, nr = 32, kc = 100, mc = 32, nc = 32>}

// -----

func.func @amx_packed_b_shape(%a: memref<5x100xbf16>, %b: memref<1x100x32xbf16>, %c: memref<5x20xbf16>) {
  // expected-error @+1 {{expects b of shape [1, 128, 32] ([ceil(N / 32), K rounded up to 32, 32], the packed AMX panels), got [1, 100, 32]}}
  mie.gemm ins(%a, %b : memref<5x100xbf16>, memref<1x100x32xbf16>) outs(%c : memref<5x20xbf16>) {b_packed, ukernel = #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 128, mc = 32, nc = 32>}
  return
}

// -----

func.func @f16_tiles_k_blocks(%a: memref<5x100xf16>, %b: memref<1x100x12xf16>, %c: memref<5x12xf16>) {
  // expected-error @+1 {{expects kc to cover all of K = 100 with the neon_f16 tiling (the f16 output is rounded once), got kc = 64}}
  mie.gemm ins(%a, %b : memref<5x100xf16>, memref<1x100x12xf16>) outs(%c : memref<5x12xf16>) {b_packed, accumulator = f32, ukernel = #mie.ukernel<gemm, "neon_f16", mr = 8, nr = 12, kc = 64, mc = 8, nc = 12>}
  return
}

// -----

func.func @f16_tiles_conv_k_blocks(%x: memref<1x4x6x6xf16>, %w: memref<1x36x8xf16>, %y: memref<1x8x6x6xf16>) {
  // expected-error @+1 {{expects kc to cover all of K = 36 with the neon_f16 tiling (the f16 output is rounded once), got kc = 32}}
  mie.conv2d ins(%x, %w : memref<1x4x6x6xf16>, memref<1x36x8xf16>) outs(%y : memref<1x8x6x6xf16>) {accumulator = f32, pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 4, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "neon_f16", mr = 8, nr = 12, kc = 32, mc = 8, nc = 12>}
  return
}

// -----

// expected-error @+1 {{expects mc (6) to be a multiple of mr (4) and nc (8) a multiple of nr (8)}}
func.func private @tiling_blocks() attributes {t = #mie.tiling<"avx2", mr = 4, nr = 8, kc = 8, mc = 6, nc = 8>}

// -----

// The tiling inline in #mie.ukernel is checked as #mie.tiling is.
// expected-error @+1 {{expects mc (6) to be a multiple of mr (4) and nc (8) a multiple of nr (8)}}
func.func private @ukernel_tiling_blocks() attributes {k = #mie.ukernel<gemm, "avx2", mr = 4, nr = 8, kc = 8, mc = 6, nc = 8>}

// -----

// expected-error @+1 {{expects no tiling for the depthwise family}}
func.func private @ukernel_untiled_family() attributes {k = #mie.ukernel<depthwise, "avx2", mr = 4, nr = 8, kc = 8, mc = 4, nc = 8>}

// -----

// expected-error @+1 {{expects an f32 ISA for the winograd_2x2 family, got 'amx'}}
func.func private @ukernel_amx_winograd() attributes {k = #mie.ukernel<winograd_2x2, "amx", mr = 32, nr = 32, kc = 32, mc = 32, nc = 32>}

// -----

// expected-error @+1 {{expects an ISA with the attention kernels of the registry (runtime/include/mie/mie_ukernels.def), got 'sse2'}}
func.func private @ukernel_unknown_isa() attributes {k = #mie.ukernel<attention, "sse2">}

// -----

// expected-error @+1 {{expects few_rows_mr to be a row count other than mr (8) on an f32 tile family, got 8 on 'avx512'}}
func.func private @tiling_few_rows_same() attributes {t = #mie.tiling<"avx512", mr = 8, nr = 48, kc = 8, mc = 8, nc = 48, few_rows_mr = 8>}

// -----

// expected-error @+1 {{expects few_rows_mr only on the gemm family's f32 tiles, got the conv_pixel_rows family on 'avx512'}}
func.func private @ukernel_few_rows_conv() attributes {k = #mie.ukernel<conv_pixel_rows, "avx512", mr = 8, nr = 48, kc = 8, mc = 8, nc = 48, few_rows_mr = 7>}

// -----

// expected-error @+1 {{expects shared_panels = true or false}}
func.func private @ukernel_shared_panels() attributes {k = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 6, nc = 16, shared_panels = yes>}

// -----

func.func @gemm_with_conv_family(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mie.gemm' op expects a ukernel of the gemm family, got conv_gemm}}
  mie.gemm ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 6, nc = 16>}
  return
}

// -----

func.func @depthwise_f16(%x: memref<1x2x5x5xf16>, %w: memref<2x1x3x3xf16>, %y: memref<1x2x5x5xf16>) {
  // expected-error @+1 {{'mie.conv2d' op expects f32 or bf16 buffers for the depthwise ukernel, got 'f16'}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf16>, memref<2x1x3x3xf16>) outs(%y : memref<1x2x5x5xf16>) {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<depthwise, "neon">}
  return
}

// -----

func.func @packed_filter_shape(%x: memref<1x2x5x5xf32>, %w: memref<2x18x8xf32>, %y: memref<1x8x5x5xf32>) {
  // expected-error @+1 {{expects filter of shape [2, 18, 4] ([ceil(F / mr), C / groups * KH * KW, mr], the packed panels), got [2, 18, 8]}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<2x18x8xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_gemm, "avx2", mr = 4, nr = 8, kc = 18, mc = 8, nc = 16>}
  return
}

// -----

func.func @pixel_rows_filter_shape(%x: memref<1x2x5x5xf32>, %w: memref<2x18x4xf32>, %y: memref<1x8x5x5xf32>) {
  // expected-error @+1 {{expects filter of shape [1, 18, 8] ([ceil(F / nr), C * KH * KW, nr], the packed column panels), got [2, 18, 4]}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<2x18x4xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<conv_pixel_rows, "avx2", mr = 4, nr = 8, kc = 18, mc = 8, nc = 16>}
  return
}

// -----

func.func @conv_gemm_family(%x: memref<1x2x5x5xf32>, %w: memref<8x2x3x3xf32>, %y: memref<1x8x5x5xf32>) {
  // expected-error @+1 {{'mie.conv2d' op expects a ukernel of the conv_gemm, conv_direct, conv_pixel_rows, winograd_2x2, winograd_4x4 or depthwise family, got gemm}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<8x2x3x3xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 18, mc = 6, nc = 16>}
  return
}

// -----

func.func @packed_filter_without_tiling(%x: memref<1x2x5x5xf32>, %w: memref<2x18x4xf32>, %y: memref<1x8x5x5xf32>) {
  // expected-error @+1 {{expects a tiled ukernel with a packed filter (filter_shape is set)}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<2x18x4xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>}
  return
}

// -----

func.func @winograd_stride(%x: memref<1x2x5x5xf32>, %w: memref<16x2x2x4xf32>, %y: memref<1x8x3x3xf32>) {
  // expected-error @+1 {{expects a 3x3 filter, strides 1 and dilations 1 with winograd}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<16x2x2x4xf32>) outs(%y : memref<1x8x3x3xf32>) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<winograd_2x2, "avx2", mr = 4, nr = 8, kc = 2, mc = 8, nc = 16>}
  return
}

// -----

func.func @winograd_tile(%x: memref<1x2x5x5xf32>, %w: memref<64x2x2x4xf32>, %y: memref<1x8x5x5xf32>) {
  // expected-error @+1 {{unknown microkernel family 'winograd_6x6'}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<64x2x2x4xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<winograd_6x6, "avx2", mr = 4, nr = 8, kc = 2, mc = 8, nc = 16>}
  return
}

// -----

func.func @winograd4_panels(%x: memref<1x2x5x5xf32>, %w: memref<16x2x2x4xf32>, %y: memref<1x8x5x5xf32>) {
  // expected-error @+1 {{expects filter of shape [36, 2, 2, 4] ([(m + 2)^2, ceil(F / mr), C, mr], the Winograd-transformed panels)}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<16x2x2x4xf32>) outs(%y : memref<1x8x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, filter_shape = array<i64: 8, 2, 3, 3>, ukernel = #mie.ukernel<winograd_4x4, "avx2", mr = 4, nr = 8, kc = 2, mc = 8, nc = 16>}
  return
}

// -----

func.func @ukernel_not_depthwise(%x: memref<1x2x5x5xf32>, %w: memref<4x2x3x3xf32>, %y: memref<1x4x5x5xf32>) {
  // expected-error @+1 {{expects a depthwise convolution (groups = C = F) for the depthwise ukernel}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<4x2x3x3xf32>) outs(%y : memref<1x4x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, ukernel = #mie.ukernel<depthwise, "avx2">}
  return
}

// -----

func.func @accumulator_narrow(%x: memref<1x2x5x5xf32>, %w: memref<4x2x3x3xf32>, %y: memref<1x4x5x5xf32>) {
  // expected-error @+1 {{expects an accumulator type that is a float type at least as wide as 'f32', got 'f16'}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xf32>, memref<4x2x3x3xf32>) outs(%y : memref<1x4x5x5xf32>) {pads = array<i64: 1, 1, 1, 1>, accumulator = f16}
  return
}

// -----

func.func @packed_b_alpha(%a: memref<3x8xf32>, %b: memref<2x8x12xf32>, %c: memref<3x20xf32>) {
  // expected-error @+1 {{expects alpha = 1 with a packed b (alpha is folded into the panels)}}
  mie.gemm ins(%a, %b : memref<3x8xf32>, memref<2x8x12xf32>) outs(%c : memref<3x20xf32>) {alpha = 2.0 : f64, b_packed, ukernel = #mie.ukernel<gemm, "neon", mr = 8, nr = 12, kc = 8, mc = 8, nc = 24>}
  return
}

//===----------------------------------------------------------------------===//
// mie.attention
//===----------------------------------------------------------------------===//

// -----

func.func @attention_key_size(%q: memref<2x4x8xf32>, %k: memref<2x6x4xf32>, %v: memref<2x6x3xf32>, %o: memref<2x4x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects key of shape [2, 6, 8] ([..., T, D] with the query's batch (or fewer heads dividing its heads) and D), got [2, 6, 4]}}
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x4xf32>, memref<2x6x3xf32>) outs(%o : memref<2x4x3xf32>) {scale = 0.5 : f64}
  return
}

// -----

func.func @attention_value_keys(%q: memref<2x4x8xf32>, %k: memref<2x6x8xf32>, %v: memref<2x5x3xf32>, %o: memref<2x4x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects value of shape [2, 6, 3] ([..., T, Dv] with the key's batch and T), got [2, 5, 3]}}
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x5x3xf32>) outs(%o : memref<2x4x3xf32>) {scale = 0.5 : f64}
  return
}

// -----

func.func @attention_output(%q: memref<2x4x8xf32>, %k: memref<2x6x8xf32>, %v: memref<2x6x3xf32>, %o: memref<2x4x8xf32>) {
  // expected-error @+1 {{'mie.attention' op expects output of shape [2, 4, 3] ([..., S, Dv]), got [2, 4, 8]}}
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x3xf32>) outs(%o : memref<2x4x8xf32>) {scale = 0.5 : f64}
  return
}

// -----

func.func @attention_mask(%q: memref<2x4x8xf32>, %k: memref<2x6x8xf32>, %v: memref<2x6x3xf32>, %m: memref<4x5xf32>, %o: memref<2x4x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects a mask that broadcasts to the scores [2, 4, 6], got [4, 5]}}
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x8xf32>, memref<2x6x3xf32>) mask(%m : memref<4x5xf32>) outs(%o : memref<2x4x3xf32>) {scale = 0.5 : f64}
  return
}

// -----

func.func @attention_rank(%q: memref<8xf32>, %k: memref<8xf32>, %v: memref<8xf32>, %o: memref<8xf32>) {
  // expected-error @+1 {{'mie.attention' op expects query of rank >= 2 [..., S, D], got rank 1}}
  mie.attention ins(%q, %k, %v : memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%o : memref<8xf32>) {scale = 0.5 : f64}
  return
}

// -----

func.func @attention_element_type(%q: memref<2x4x8xf32>, %k: memref<2x6x8xf16>, %v: memref<2x6x3xf32>, %o: memref<2x4x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects key element type 'f32' (the first operand's), got 'f16'}}
  mie.attention ins(%q, %k, %v : memref<2x4x8xf32>, memref<2x6x8xf16>, memref<2x6x3xf32>) outs(%o : memref<2x4x3xf32>) {scale = 0.5 : f64}
  return
}

// -----

func.func @attention_token_major_output(%q: memref<4x2x8xf32>, %k: memref<6x2x8xf32>, %v: memref<6x2x3xf32>, %o: memref<2x4x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects output of shape [4, 2, 3] ([..., S, H, Dv]), got [2, 4, 3]}}
  mie.attention ins(%q, %k, %v : memref<4x2x8xf32>, memref<6x2x8xf32>, memref<6x2x3xf32>) outs(%o : memref<2x4x3xf32>) {scale = 0.5 : f64, token_major}
  return
}

// -----

func.func @attention_key_heads(%q: memref<4x6x8xf32>, %k: memref<3x6x8xf32>, %v: memref<3x6x3xf32>, %o: memref<4x6x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects key of shape [4, 6, 8]}}
  mie.attention ins(%q, %k, %v : memref<4x6x8xf32>, memref<3x6x8xf32>, memref<3x6x3xf32>) outs(%o : memref<4x6x3xf32>) {scale = 0.5 : f64}
  return
}

// -----

func.func @attention_value_heads(%q: memref<4x6x8xf32>, %k: memref<2x6x8xf32>, %v: memref<4x6x3xf32>, %o: memref<4x6x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects value of shape [2, 6, 3] ([..., T, Dv] with the key's batch and T), got [4, 6, 3]}}
  mie.attention ins(%q, %k, %v : memref<4x6x8xf32>, memref<2x6x8xf32>, memref<4x6x3xf32>) outs(%o : memref<4x6x3xf32>) {scale = 0.5 : f64}
  return
}

// -----

func.func @attention_token_major_rank(%q: memref<4x8xf32>, %k: memref<6x8xf32>, %v: memref<6x3xf32>, %o: memref<4x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects query of rank >= 3 [..., S, H, D], got rank 2}}
  mie.attention ins(%q, %k, %v : memref<4x8xf32>, memref<6x8xf32>, memref<6x3xf32>) outs(%o : memref<4x3xf32>) {scale = 0.5 : f64, token_major}
  return
}

// -----

func.func @attention_causal_keys(%q: memref<2x6x8xf32>, %k: memref<2x4x8xf32>, %v: memref<2x4x3xf32>, %o: memref<2x6x3xf32>) {
  // expected-error @+1 {{'mie.attention' op expects at least as many keys as queries when causal, got 4 keys and 6 queries}}
  mie.attention ins(%q, %k, %v : memref<2x6x8xf32>, memref<2x4x8xf32>, memref<2x4x3xf32>) outs(%o : memref<2x6x3xf32>) {causal, scale = 0.5 : f64}
  return
}

// -----

// Tests that a GPU library mark names the library of its op: cuBLASLt computes GEMMs, not convolutions.
func.func @gpu_library_mismatch(%x: memref<1x1x4x4xf32>, %w: memref<1x1x1x1xf32>, %y: memref<1x1x4x4xf32>) {
  // expected-error @+1 {{expects 'mie.gpu_library' to be "cublaslt" on a mie.gemm or "cudnn" on a mie.conv2d, got "cublaslt"}}
  mie.conv2d ins(%x, %w : memref<1x1x4x4xf32>, memref<1x1x1x1xf32>) outs(%y : memref<1x1x4x4xf32>) {mie.gpu_library = "cublaslt"}
  return
}

// -----

func.func @qconv2d_float_input(%x: memref<1x2x4x4xf32>, %w: memref<3x2x1x1xi8>, %b: memref<3xi32>, %s: memref<3xf32>, %y: memref<1x3x4x4xi8>) {
  // expected-error @+1 {{'mie.qconv2d' op operand #0 must be memref of 8-bit signless integer values}}
  mie.qconv2d ins(%x, %w, %b, %s : memref<1x2x4x4xf32>, memref<3x2x1x1xi8>, memref<3xi32>, memref<3xf32>) outs(%y : memref<1x3x4x4xi8>) {input_zero_point = 0 : i64, output_zero_point = 0 : i64, output_min = 0 : i64, output_max = 255 : i64}
  return
}

// -----

func.func @depthwise_f64_sums(%x: memref<1x2x5x5xbf16>, %w: memref<2x1x3x3xbf16>, %y: memref<1x2x5x5xbf16>) {
  // expected-error @+1 {{'mie.conv2d' op expects sums in f32 for the depthwise ukernel, got an accumulator 'f64'}}
  mie.conv2d ins(%x, %w : memref<1x2x5x5xbf16>, memref<2x1x3x3xbf16>) outs(%y : memref<1x2x5x5xbf16>) {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, accumulator = f64, ukernel = #mie.ukernel<depthwise, "avx512">}
  return
}

// -----

func.func @symbol_out_of_range() attributes {ms.symbols = ["n"]} {
  // expected-error @+1 {{'mie.symbol' op expects a symbol index below the function's 1 symbols, got 1}}
  %0 = mie.symbol 1 : index
  return
}

// -----

func.func @symbol_ranges_size() attributes {ms.symbols = ["n"], mie.symbol_ranges = array<i64: 1, 2, 3, 4>} {
  // expected-error @-1 {{expects 'mie.symbol_ranges' on a function with 'ms.symbols' to be array<i64: lo, hi, ...> with 0 <= lo <= hi for each symbol}}
  return
}

// -----

// Code for symbolic dims: a convolution takes a run-time batch only.
func.func @conv_run_time_channels(%x: memref<1x?x8x8xf32>, %w: memref<4x3x3x3xf32>, %y: memref<1x4x6x6xf32>) {
  // expected-error @below {{expects input to have static dims but the batch (dim 0), got 'memref<1x?x8x8xf32>'}}
  mie.conv2d ins(%x, %w : memref<1x?x8x8xf32>, memref<4x3x3x3xf32>) outs(%y : memref<1x4x6x6xf32>)
  return
}

// -----

// Packed weights are static whatever the rows.
func.func @gemm_run_time_packed_weights(%a: memref<?x8xf32>, %b: memref<?x8x16xf32>, %c: memref<?x32xf32>) {
  // expected-error @below {{expects b of static shape with packed panels, got 'memref<?x8x16xf32>'}}
  mie.gemm ins(%a, %b : memref<?x8xf32>, memref<?x8x16xf32>) outs(%c : memref<?x32xf32>) {b_packed, ukernel = #mie.ukernel<gemm, "avx2", mr = 6, nr = 16, kc = 8, mc = 12, nc = 16>}
  return
}

// -----

func.func @symbol_values_of_index() -> memref<2xindex> {
  // expected-error @below {{'mie.symbol_values' op expects a static 1-D i64 buffer, got 'memref<2xindex>'}}
  %0 = mie.symbol_values : memref<2xindex>
  return %0 : memref<2xindex>
}
