// RUN: ms-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the ms dialect.

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

func.func @binary_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'ms.add' op expects operands to have the same element type, got 'f32' and 'f16'}}
  %0 = ms.add %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @mod_float_without_fmod(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'ms.mod' op expects fmod for floating-point operands, got 'f32'}}
  %0 = ms.mod %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bitwise_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ms.and' op operand #0 must be ranked tensor of integer values}}
  %0 = ms.and %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bitwise_element_types(%a: tensor<4xi32>, %b: tensor<4xi64>) {
  // expected-error @+1 {{'ms.or' op expects operands to have the same element type, got 'i32' and 'i64'}}
  %0 = ms.or %a, %b : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi32>
  return
}

// -----

func.func @xor_broadcast(%a: tensor<2x3xi1>, %b: tensor<4xi1>) {
  // expected-error @+1 {{'ms.xor' op shapes 2x3 and 4 are not broadcast-compatible (dim 1: 3 vs 4)}}
  %0 = ms.xor %a, %b : (tensor<2x3xi1>, tensor<4xi1>) -> tensor<2x3xi1>
  return
}

// -----

func.func @shift_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ms.shift_left' op operand #0 must be ranked tensor of integer values}}
  %0 = ms.shift_left %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @shift_right_types(%a: tensor<4xi8>, %b: tensor<4xi16>) {
  // expected-error @+1 {{'ms.shift_right' op expects operands to have the same element type, got 'i8' and 'i16'}}
  %0 = ms.shift_right %a, %b : (tensor<4xi8>, tensor<4xi16>) -> tensor<4xi8>
  return
}

// -----

func.func @not_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ms.not' op operand #0 must be ranked tensor of integer values}}
  %0 = ms.not %a : tensor<4xf32>
  return
}

// -----

// The rounding, trigonometric and hyperbolic ops take floats only.
func.func @floor_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.floor' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.floor %a : tensor<4xi32>
  return
}

// -----

func.func @ceil_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.ceil' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.ceil %a : tensor<4xi32>
  return
}

// -----

func.func @round_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.round' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.round %a : tensor<4xi32>
  return
}

// -----

func.func @cos_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.cos' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.cos %a : tensor<4xi32>
  return
}

// -----

func.func @tan_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.tan' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.tan %a : tensor<4xi32>
  return
}

// -----

func.func @asin_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.asin' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.asin %a : tensor<4xi32>
  return
}

// -----

func.func @acos_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.acos' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.acos %a : tensor<4xi32>
  return
}

// -----

func.func @atan_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.atan' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.atan %a : tensor<4xi32>
  return
}

// -----

func.func @sinh_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.sinh' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.sinh %a : tensor<4xi32>
  return
}

// -----

func.func @cosh_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.cosh' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.cosh %a : tensor<4xi32>
  return
}

// -----

func.func @asinh_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.asinh' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.asinh %a : tensor<4xi32>
  return
}

// -----

func.func @acosh_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.acosh' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.acosh %a : tensor<4xi32>
  return
}

// -----

func.func @atanh_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.atanh' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.atanh %a : tensor<4xi32>
  return
}

// -----

func.func @unary_result_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ms.sin' op requires the same type for all operands and results}}
  %0 = "ms.sin"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @sign_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'ms.sign' op operand #0 must be ranked tensor of floating-point or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values}}
  %0 = ms.sign %a : tensor<4xi1>
  return
}

// -----

func.func @is_nan_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ms.is_nan' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.is_nan %a : tensor<4xi32> -> tensor<4xi1>
  return
}

// -----

func.func @is_inf_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ms.is_inf' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ms.is_inf %a : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @is_inf_shape(%a: tensor<4xf32>) {
  // expected-error @+2 {{'ms.is_inf' op inferred type(s) 'tensor<4xi1>' are incompatible with return type(s) of operation 'tensor<5xi1>'}}
  // expected-error @+1 {{'ms.is_inf' op failed to infer returned types}}
  %0 = ms.is_inf %a : tensor<4xf32> -> tensor<5xi1>
  return
}

// -----

func.func @binary_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'ms.sub' op shapes 2x3 and 4 are not broadcast-compatible (dim 1: 3 vs 4)}}
  %0 = ms.sub %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @binary_result_type(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'ms.mul' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @+1 {{'ms.mul' op failed to infer returned types}}
  %0 = ms.mul %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @binary_unranked(%a: tensor<*xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'ms.div' op operand #0 must be ranked tensor}}
  %0 = ms.div %a, %b : (tensor<*xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @compare_result_i1(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'ms.compare' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ms.compare lt, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @compare_element_types(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'ms.compare' op expects operands to have the same element type, got 'f32' and 'i32'}}
  %0 = ms.compare eq, %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_predicate(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = ms.compare olt, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @where_condition(%c: tensor<4xf32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'ms.where' op operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ms.where %c, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_branches(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'ms.where' op expects operands to have the same element type, got 'f32' and 'f16'}}
  %0 = ms.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @where_broadcast(%c: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'ms.where' op shapes 3 and 4 are not broadcast-compatible (dim 0: 3 vs 4)}}
  %0 = ms.where %c, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @unary_float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ms.sigmoid' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.sigmoid %x : tensor<4xi32>
  return
}

// -----

func.func @tanh_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.tanh' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.tanh %x : tensor<4xi64>
  return
}

// -----

func.func @erf_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.erf' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.erf %x : tensor<4xi64>
  return
}

// -----

func.func @exp_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.exp' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.exp %x : tensor<4xi64>
  return
}

// -----

func.func @log_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.log' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.log %x : tensor<4xi64>
  return
}

// -----

func.func @sqrt_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.sqrt' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.sqrt %x : tensor<4xi64>
  return
}

// -----

func.func @rsqrt_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.rsqrt' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.rsqrt %x : tensor<4xi64>
  return
}

// -----

func.func @reciprocal_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.reciprocal' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.reciprocal %x : tensor<4xi64>
  return
}

// -----

func.func @hard_swish_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.hard_swish' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.hard_swish %x : tensor<4xi64>
  return
}

// -----

func.func @gelu_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.gelu' op operand #0 must be ranked tensor of floating-point values}}
  %0 = ms.gelu %x : tensor<4xi64>
  return
}

// -----

func.func @neg_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'ms.neg' op operand #0 must be ranked tensor of floating-point or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values}}
  %0 = ms.neg %x : tensor<4xi1>
  return
}

// -----

func.func @abs_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'ms.abs' op operand #0 must be ranked tensor of floating-point or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values}}
  %0 = ms.abs %x : tensor<4xi1>
  return
}

// -----

func.func @pow_element_types(%a: tensor<4xf32>, %b: tensor<f64>) {
  // expected-error @+1 {{'ms.pow' op expects operands to have the same element type, got 'f32' and 'f64'}}
  %0 = ms.pow %a, %b : (tensor<4xf32>, tensor<f64>) -> tensor<4xf32>
  return
}

// -----

func.func @max_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'ms.max' op operand #0 must be ranked tensor of floating-point}}
  %0 = ms.max %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @min_broadcast(%a: tensor<2x4xi32>, %b: tensor<3x1xi32>) {
  // expected-error @+1 {{'ms.min' op shapes 2x4 and 3x1 are not broadcast-compatible (dim 0: 2 vs 3)}}
  %0 = ms.min %a, %b : (tensor<2x4xi32>, tensor<3x1xi32>) -> tensor<2x4xi32>
  return
}

// -----

func.func @unary_same_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ms.relu' op requires the same type for all operands and results}}
  %0 = "ms.relu"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @clip_bounds(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ms.clip' op expects min <= max, got min = 6.000000e+00 and max = 0.000000e+00}}
  %0 = ms.clip %x {min = 6.0 : f64, max = 0.0 : f64} : tensor<4xf32>
  return
}

// -----

func.func @hard_sigmoid_alpha(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ms.hard_sigmoid' op expects a non-zero alpha}}
  %0 = ms.hard_sigmoid %x {alpha = 0.0 : f64} : tensor<4xf32>
  return
}

// -----

func.func @cast_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ms.cast' op requires the same shape for all operands and results}}
  %0 = ms.cast %x : tensor<4xf32> to tensor<5xf16>
  return
}

// -----

func.func @cast_round_mode(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ms.cast' op round_mode must be "up", "down" or "nearest", got "zero"}}
  %0 = ms.cast %x {round_mode = "zero"} : tensor<4xf32> to tensor<4xf8E8M0FNU>
  return
}

// -----

func.func @cast_round_mode_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ms.cast' op round_mode applies only to a f8E8M0FNU result, got 'f8E4M3FN'}}
  %0 = ms.cast %x {round_mode = "up"} : tensor<4xf32> to tensor<4xf8E4M3FN>
  return
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

// -----

func.func @qconv_channels(%x: tensor<1x4x8x8xui8>, %w: tensor<2x3x3x3xi8>, %b: tensor<2xi32>,
                           %s: tensor<2xf32>) {
  // expected-error @+1 {{'ms.qconv2d' op expects input channels (4) to equal filter channels (3)}}
  %0 = ms.qconv2d %x, %w, %b, %s {input_zero_point = 0 : i64, output_zero_point = 0 : i64}
      : (tensor<1x4x8x8xui8>, tensor<2x3x3x3xi8>, tensor<2xi32>, tensor<2xf32>) -> tensor<1x2x6x6xui8>
  return
}

// -----

func.func @qconv_bias(%x: tensor<1x3x8x8xui8>, %w: tensor<2x3x3x3xi8>, %b: tensor<3xi32>,
                      %s: tensor<2xf32>) {
  // expected-error @+1 {{'ms.qconv2d' op expects bias of shape [2], got 'tensor<3xi32>'}}
  %0 = ms.qconv2d %x, %w, %b, %s {input_zero_point = 0 : i64, output_zero_point = 0 : i64}
      : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xi8>, tensor<3xi32>, tensor<2xf32>) -> tensor<1x2x6x6xui8>
  return
}

// -----

func.func @qconv_zero_point(%x: tensor<1x3x8x8xui8>, %w: tensor<2x3x3x3xi8>, %b: tensor<2xi32>,
                            %s: tensor<2xf32>) {
  // expected-error @+1 {{'ms.qconv2d' op expects zero points in [0, 255], got 300 and 0}}
  %0 = ms.qconv2d %x, %w, %b, %s {input_zero_point = 300 : i64, output_zero_point = 0 : i64}
      : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xi8>, tensor<2xi32>, tensor<2xf32>) -> tensor<1x2x6x6xui8>
  return
}

// -----

func.func @qconv_output_range(%x: tensor<1x3x8x8xui8>, %w: tensor<2x3x3x3xi8>, %b: tensor<2xi32>,
                              %s: tensor<2xf32>) {
  // expected-error @+1 {{'ms.qconv2d' op expects 0 <= output_min <= output_max <= 255, got 9 and 8}}
  %0 = ms.qconv2d %x, %w, %b, %s {input_zero_point = 0 : i64, output_zero_point = 0 : i64,
                                  output_min = 9 : i64, output_max = 8 : i64}
      : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xi8>, tensor<2xi32>, tensor<2xf32>) -> tensor<1x2x6x6xui8>
  return
}

// -----

func.func @conv2d_channels_last_groups(%x: tensor<1x8x8x4xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects one group or a depthwise convolution (groups = C = F) with channels_last, got groups = 2}}
  %0 = ms.conv2d %x, %w {channels_last, groups = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @conv_input_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects input of rank 4, got 'tensor<3x8x8xf32>'}}
  %0 = ms.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_filter_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x27xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects filter of rank 4, got 'tensor<4x27xf32>'}}
  %0 = ms.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x27xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_filter_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+1 {{'ms.conv2d' op expects filter element type 'f32', got 'f16'}}
  %0 = ms.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_acc_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects 'acc_type' to be a float type, got 'i32'}}
  %0 = ms.conv2d %x, %w {acc_type = i32} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_strides_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects 'strides' to have 2 entries, got 1}}
  %0 = ms.conv2d %x, %w {strides = array<i64: 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_pads_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects 'pads' to have 4 entries, got 2}}
  %0 = ms.conv2d %x, %w {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dilations_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects 'dilations' to have 2 entries, got 3}}
  %0 = ms.conv2d %x, %w {dilations = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_stride_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects 'strides' entries to be >= 1, got 0 at index 1}}
  %0 = ms.conv2d %x, %w {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects 'pads' entries to be >= 0, got -1 at index 2}}
  %0 = ms.conv2d %x, %w {pads = array<i64: 0, 0, -1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dilation_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects 'dilations' entries to be >= 1, got 0 at index 0}}
  %0 = ms.conv2d %x, %w {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects groups >= 1, got 0}}
  %0 = ms.conv2d %x, %w {groups = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups_divide_filters(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects filter output channels (6) to be divisible by groups (4)}}
  %0 = ms.conv2d %x, %w {groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects input channels (3) to equal filter channels per group (2) * groups (1)}}
  %0 = ms.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op expects bias of shape [4], got 'tensor<3xf32>'}}
  %0 = ms.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x3x2x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv2d' op window of size 3 (dilation 1) does not fit padded input dim 2 of size 2}}
  %0 = ms.conv2d %x, %w : (tensor<1x3x2x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x6xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'ms.conv2d' op inferred type(s) 'tensor<1x4x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  // expected-error @+1 {{'ms.conv2d' op failed to infer returned types}}
  %0 = ms.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// MatMul and Gemm
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'ms.matmul' op expects operands of rank >= 1, got 'tensor<f32>' and 'tensor<4xf32>'}}
  %0 = ms.matmul %a, %b : (tensor<f32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<2x4xf32>, %b: tensor<4x2xf16>) {
  // expected-error @+1 {{'ms.matmul' op expects operands to have the same element type, got 'f32' and 'f16'}}
  %0 = ms.matmul %a, %b : (tensor<2x4xf32>, tensor<4x2xf16>) -> tensor<2x2xf32>
  return
}

// -----

func.func @matmul_contracting(%a: tensor<2x4xf32>, %b: tensor<5x2xf32>) {
  // expected-error @+1 {{'ms.matmul' op expects contracting dims to match, got 4 (lhs) and 5 (rhs)}}
  %0 = ms.matmul %a, %b : (tensor<2x4xf32>, tensor<5x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<3x2x4xf32>, %b: tensor<2x4x2xf32>) {
  // expected-error @+1 {{'ms.matmul' op shapes 3 and 2 are not broadcast-compatible (dim 0: 3 vs 2)}}
  %0 = ms.matmul %a, %b : (tensor<3x2x4xf32>, tensor<2x4x2xf32>) -> tensor<3x2x2xf32>
  return
}

// -----

func.func @gemm_rank(%a: tensor<2x2x4xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.gemm' op expects a of rank 2, got 'tensor<2x2x4xf32>'}}
  %0 = ms.gemm %a, %b : (tensor<2x2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @gemm_b_type(%a: tensor<2x4xf32>, %b: tensor<4x2xbf16>) {
  // expected-error @+1 {{'ms.gemm' op expects b element type 'f32', got 'bf16'}}
  %0 = ms.gemm %a, %b : (tensor<2x4xf32>, tensor<4x2xbf16>) -> tensor<2x2xf32>
  return
}

// -----

func.func @gemm_contracting(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'ms.gemm' op expects contracting dims to match, got 4 (a) and 3 (b)}}
  %0 = ms.gemm %a, %b {trans_b} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gemm_c_broadcast(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<5x3xf32>) {
  // expected-error @+1 {{'ms.gemm' op shapes 2x3 and 5x3 are not broadcast-compatible (dim 0: 2 vs 5)}}
  %0 = ms.gemm %a, %b, %c : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gemm_c_unidirectional(%a: tensor<1x4xf32>, %b: tensor<4x3xf32>, %c: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.gemm' op expects c 'tensor<2x3xf32>' to broadcast unidirectionally to [1, 3]}}
  %0 = ms.gemm %a, %b, %c : (tensor<1x4xf32>, tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

// -----

func.func @batch_norm_rank(%x: tensor<8xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{'ms.batch_norm' op expects input of rank >= 2, got 'tensor<8xf32>'}}
  %0 = ms.batch_norm %x, %p, %p, %p, %p : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @batch_norm_params(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %q: tensor<4xf32>) {
  // expected-error @+1 {{'ms.batch_norm' op expects mean of shape [8], got 'tensor<4xf32>'}}
  %0 = ms.batch_norm %x, %p, %p, %q, %p : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @batch_norm_param_type(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %q: tensor<8xf16>) {
  // expected-error @+1 {{'ms.batch_norm' op expects variance element type 'f32', got 'f16'}}
  %0 = ms.batch_norm %x, %p, %p, %p, %q : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf16>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @batch_norm_epsilon(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{'ms.batch_norm' op expects a non-negative epsilon}}
  %0 = ms.batch_norm %x, %p, %p, %p, %p {epsilon = -1.0 : f64} : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'ms.layer_norm' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.layer_norm %x, %g {axis = 2 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @layer_norm_scale(%x: tensor<2x8xf32>, %g: tensor<2x8xf32>) {
  // expected-error @+1 {{'ms.layer_norm' op expects scale of shape 8 (the normalized dims), got 'tensor<2x8xf32>'}}
  %0 = ms.layer_norm %x, %g : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @layer_norm_bias_type(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf16>) {
  // expected-error @+1 {{'ms.layer_norm' op expects bias element type 'f32', got 'f16'}}
  %0 = ms.layer_norm %x, %g, %b : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf16>) -> tensor<2x8xf32>
  return
}

// -----

func.func @layer_norm_epsilon(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'ms.layer_norm' op expects a non-negative epsilon}}
  %0 = ms.layer_norm %x, %g {epsilon = -1.0e-5 : f64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'ms.softmax' op axis -3 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.softmax %x {axis = -3 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Reductions and pooling
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'ms.reduce_sum' op axes 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.reduce_sum %x {axes = array<i64: 2>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_duplicate_axes(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'ms.reduce_mean' op axes contains dimension 1 more than once}}
  %0 = ms.reduce_mean %x {axes = array<i64: 1, -1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_min_bool(%x: tensor<2x8xi1>) {
  // expected-error @+1 {{'ms.reduce_min' op operand #0 must be ranked tensor of floating-point}}
  %0 = ms.reduce_min %x : (tensor<2x8xi1>) -> tensor<i1>
  return
}

// -----

func.func @reduce_result(%x: tensor<2x8xf32>) {
  // expected-error @+2 {{'ms.reduce_max' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'ms.reduce_max' op failed to infer returned types}}
  %0 = ms.reduce_max %x {axes = array<i64: 1>, keep_dims} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_prod_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'ms.reduce_prod' op axes -3 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.reduce_prod %x {axes = array<i64: -3>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @arg_max_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'ms.arg_max' op expects an input of rank >= 1, got 'tensor<f32>'}}
  %0 = ms.arg_max %x : (tensor<f32>) -> tensor<i64>
  return
}

// -----

func.func @arg_min_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'ms.arg_min' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.arg_min %x {axis = 2 : i64} : (tensor<2x8xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @top_k_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'ms.top_k' op expects an input of rank >= 1, got 'tensor<f32>'}}
  %0:2 = ms.top_k %x {k = 1 : i64} : (tensor<f32>) -> (tensor<f32>, tensor<i64>)
  return
}

// -----

func.func @top_k_k(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'ms.top_k' op expects k in [0, 8] (the size of dim 1), got 9}}
  %0:2 = ms.top_k %x {k = 9 : i64} : (tensor<2x8xf32>) -> (tensor<2x9xf32>, tensor<2x9xi64>)
  return
}

// -----

func.func @top_k_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'ms.top_k' op axis -3 is out of range for rank 2 (expected [-2, 2))}}
  %0:2 = ms.top_k %x {k = 1 : i64, axis = -3 : i64} : (tensor<2x8xf32>) -> (tensor<2x1xf32>, tensor<2x1xi64>)
  return
}

// -----

func.func @arg_max_result(%x: tensor<2x8xf32>) {
  // expected-error @+2 {{'ms.arg_max' op inferred type(s) 'tensor<2x1xi64>' are incompatible with return type(s) of operation 'tensor<2xi64>'}}
  // expected-error @+1 {{'ms.arg_max' op failed to infer returned types}}
  %0 = ms.arg_max %x {axis = 1 : i64, keep_dims} : (tensor<2x8xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @cumsum_scalar(%x: tensor<f32>, %a: tensor<i64>) {
  // expected-error @+1 {{'ms.cumsum' op expects an input of rank >= 1, got 'tensor<f32>'}}
  %0 = ms.cumsum %x, %a : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @cumsum_axis_elements(%x: tensor<2x8xf32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'ms.cumsum' op expects a one-element axis, got 'tensor<2xi64>'}}
  %0 = ms.cumsum %x, %a : (tensor<2x8xf32>, tensor<2xi64>) -> tensor<2x8xf32>
  return
}

// -----

func.func @cumsum_constant_axis(%x: tensor<2x8xf32>) {
  %a = ms.constant dense<2> : tensor<1xi64>
  // expected-error @+1 {{'ms.cumsum' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.cumsum %x, %a : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x8xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<1x8x8xf32>) {
  // expected-error @+1 {{'ms.max_pool' op expects input of rank 4 or 5, got 'tensor<1x8x8xf32>'}}
  %0 = ms.max_pool %x {kernel = array<i64: 2, 2>} : (tensor<1x8x8xf32>) -> tensor<1x4x4xf32>
  return
}

// -----

func.func @pool_kernel_size(%x: tensor<1x1x8x8xf32>) {
  // expected-error @+1 {{'ms.avg_pool' op expects 'kernel' to have 2 entries, got 3}}
  %0 = ms.avg_pool %x {kernel = array<i64: 2, 2, 2>} : (tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x1x8x8xf32>) {
  // expected-error @+1 {{'ms.avg_pool' op expects 'kernel' entries to be >= 1, got 0 at index 0}}
  %0 = ms.avg_pool %x {kernel = array<i64: 0, 2>} : (tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @pool_strides(%x: tensor<1x1x8x8xf32>) {
  // expected-error @+1 {{'ms.max_pool' op expects 'strides' entries to be >= 1, got -2 at index 0}}
  %0 = ms.max_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: -2, 2>} : (tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @pool_pad_vs_kernel(%x: tensor<1x1x8x8xf32>) {
  // expected-error @+1 {{'ms.max_pool' op expects pads smaller than the kernel, got pad 2 for kernel 2}}
  %0 = ms.max_pool %x {kernel = array<i64: 2, 2>, pads = array<i64: 2, 0, 0, 0>} : (tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @pool_window(%x: tensor<1x1x2x8xf32>) {
  // expected-error @+1 {{'ms.max_pool' op window of size 3 does not fit padded input dim 2 of size 2}}
  %0 = ms.max_pool %x {kernel = array<i64: 3, 3>} : (tensor<1x1x2x8xf32>) -> tensor<1x1x1x6xf32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<1x8xf32>) {
  // expected-error @+1 {{'ms.global_avg_pool' op expects input of rank >= 3 ([N, C, spatial...]), got 'tensor<1x8xf32>'}}
  %0 = ms.global_avg_pool %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Constants and shape ops
//===----------------------------------------------------------------------===//

// -----

func.func @constant_vector() {
  // expected-error @+1 {{'ms.constant' op expects a ranked tensor value, got 'vector<4xf32>'}}
  %0 = "ms.constant"() {value = dense<1.0> : vector<4xf32>} : () -> tensor<4xf32>
  return
}

// -----

func.func @constant_resource_size() {
  // expected-error @+1 {{'ms.constant' op expects resource 'short' to hold 16 bytes for 'tensor<4xf32>', got 8}}
  %0 = ms.constant dense_resource<short> : tensor<4xf32>
  return
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F00000040"
    }
  }
#-}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.reshape' op cannot reshape 'tensor<2x3xf32>' (6 elements) to 4x2 (8 elements)}}
  %0 = ms.reshape %x {shape = array<i64: 4, 2>} : (tensor<2x3xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @reshape_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.reshape' op expects 'shape' entries to be >= 0, got -1 at index 0}}
  %0 = ms.reshape %x {shape = array<i64: -1, 3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @flatten_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.flatten' op axis 3 is out of range for rank 2 (expected [-2, 2])}}
  %0 = ms.flatten %x {axis = 3 : i64} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  return
}

// -----

func.func @squeeze_size(%x: tensor<2x1xf32>) {
  // expected-error @+1 {{'ms.squeeze' op cannot squeeze dim 0 of size 2 in 'tensor<2x1xf32>'}}
  %0 = ms.squeeze %x {axes = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @squeeze_duplicate(%x: tensor<1x1xf32>) {
  // expected-error @+1 {{'ms.squeeze' op axes contains dimension 0 more than once}}
  %0 = ms.squeeze %x {axes = array<i64: 0, -2>} : (tensor<1x1xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @unsqueeze_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ms.unsqueeze' op axes 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.unsqueeze %x {axes = array<i64: 2>} : (tensor<4xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @transpose_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.transpose' op expects 'perms' to have 2 entries, got 3}}
  %0 = ms.transpose %x {perms = array<i64: 0, 1, 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.transpose' op expects 'perms' to be a permutation of [0, 2), got [1, 1]}}
  %0 = ms.transpose %x {perms = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'ms.concat' op expects at least one input}}
  %0 = ms.concat {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'ms.concat' op expects input 1 to have rank 2 and element type 'f32', got 'tensor<3xf32>'}}
  %0 = ms.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'ms.concat' op expects input 1 to match dim 1 (3), got 'tensor<2x4xf32>'}}
  %0 = ms.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @split_sum(%x: tensor<6xf32>) {
  // expected-error @+1 {{'ms.split' op expects 'sizes' to add up to dim 0 (6), got 5}}
  %0:2 = ms.split %x {axis = 0 : i64, sizes = array<i64: 2, 3>} : (tensor<6xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  return
}

// -----

func.func @split_negative(%x: tensor<6xf32>) {
  // expected-error @+1 {{'ms.split' op expects 'sizes' entries to be >= 0, got -1 at index 1}}
  %0:2 = ms.split %x {axis = 0 : i64, sizes = array<i64: 7, -1>} : (tensor<6xf32>) -> (tensor<7xf32>, tensor<1xf32>)
  return
}

// -----

func.func @split_empty(%x: tensor<6xf32>) {
  // expected-error @+1 {{'ms.split' op expects at least one entry in 'sizes'}}
  ms.split %x {axis = 0 : i64, sizes = array<i64>} : (tensor<6xf32>) -> ()
  return
}

// -----

func.func @slice_sizes(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'ms.slice' op expects 'steps' to have 2 entries, got 1}}
  %0 = ms.slice %x {starts = array<i64: 0, 0>, sizes = array<i64: 4, 6>, steps = array<i64: 1>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @slice_step_zero(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'ms.slice' op expects non-zero steps, got 0 for dim 1}}
  %0 = ms.slice %x {starts = array<i64: 0, 0>, sizes = array<i64: 4, 6>, steps = array<i64: 1, 0>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @slice_bounds(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'ms.slice' op slice of dim 1 (size 6) from 2 with 3 elements of step 2 is out of bounds}}
  %0 = ms.slice %x {starts = array<i64: 0, 2>, sizes = array<i64: 4, 3>, steps = array<i64: 1, 2>} : (tensor<4x6xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_scalar_data(%d: tensor<f32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'ms.gather' op expects data of rank >= 1, got 'tensor<f32>'}}
  %0 = ms.gather %d, %i : (tensor<f32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_axis(%d: tensor<4x6xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'ms.gather' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.gather %d, %i {axis = 2 : i64} : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_index_type(%d: tensor<4x6xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{'ms.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = ms.gather %d, %i : (tensor<4x6xf32>, tensor<2xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @gather_elements_rank(%d: tensor<4x6xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'ms.gather_elements' op expects data of rank >= 1 and indices of the same rank, got 'tensor<4x6xf32>' and 'tensor<2xi64>'}}
  %0 = ms.gather_elements %d, %i : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_axis(%d: tensor<4x6xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{'ms.gather_elements' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.gather_elements %d, %i {axis = 2 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_elements_dim(%d: tensor<4x6xf32>, %i: tensor<5x2xi64>) {
  // expected-error @+1 {{'ms.gather_elements' op expects indices dim 0 (5) to be at most the data dim (4)}}
  %0 = ms.gather_elements %d, %i {axis = 1 : i64} : (tensor<4x6xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  return
}

// -----

func.func @gather_elements_empty_axis(%d: tensor<4x0xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{'ms.gather_elements' op expects a non-empty dim 1 to index, got 'tensor<4x0xf32>'}}
  %0 = ms.gather_elements %d, %i {axis = 1 : i64} : (tensor<4x0xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return
}

// -----

// A static dim beside symbolic ones is still compared.
func.func @gather_elements_dim_symbolic(%d: tensor<?x4x6xf32>, %i: tensor<?x5x2xi64>) {
  // expected-error @+1 {{'ms.gather_elements' op expects indices dim 1 (5) to be at most the data dim (4)}}
  %0 = ms.gather_elements %d, %i {axis = 2 : i64} : (tensor<?x4x6xf32>, tensor<?x5x2xi64>) -> tensor<?x5x2xf32>
  return
}

// -----

// Indices with a symbolic dim may have elements, which an empty axis cannot give.
func.func @gather_elements_empty_axis_symbolic(%d: tensor<4x0xf32>, %i: tensor<?x2xi64>) {
  // expected-error @+1 {{'ms.gather_elements' op expects a non-empty dim 1 to index, got 'tensor<4x0xf32>'}}
  %0 = ms.gather_elements %d, %i {axis = 1 : i64} : (tensor<4x0xf32>, tensor<?x2xi64>) -> tensor<?x2xf32>
  return
}

// -----

func.func @scatter_nd_empty_dim(%d: tensor<0x6xf32>, %i: tensor<2x1xi64>, %u: tensor<2x6xf32>) {
  // expected-error @+1 {{'ms.scatter_nd' op expects a non-empty dim 0 to index, got 'tensor<0x6xf32>'}}
  %0 = ms.scatter_nd %d, %i, %u : (tensor<0x6xf32>, tensor<2x1xi64>, tensor<2x6xf32>) -> tensor<0x6xf32>
  return
}

// -----

func.func @gather_nd_scalar_indices(%d: tensor<4x6xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{'ms.gather_nd' op expects static indices of rank >= 1, got 'tensor<i64>'}}
  %0 = ms.gather_nd %d, %i : (tensor<4x6xf32>, tensor<i64>) -> tensor<4x6xf32>
  return
}

// -----

func.func @gather_nd_batch_dims(%d: tensor<4x6xf32>, %i: tensor<4x1xi64>) {
  // expected-error @+1 {{'ms.gather_nd' op expects batch_dims in [0, 2), got 2}}
  %0 = ms.gather_nd %d, %i {batch_dims = 2 : i64} : (tensor<4x6xf32>, tensor<4x1xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_nd_tuple(%d: tensor<4x6xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'ms.gather_nd' op expects index tuples of 1 to 2 entries, got 3}}
  %0 = ms.gather_nd %d, %i : (tensor<4x6xf32>, tensor<2x3xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_batch_mismatch(%d: tensor<4x6xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+1 {{'ms.gather_nd' op expects batch dim 0 of indices (3) to match data (4)}}
  %0 = ms.gather_nd %d, %i {batch_dims = 1 : i64} : (tensor<4x6xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @scatter_elements_updates_shape(%d: tensor<4x6xf32>, %i: tensor<4x2xi64>, %u: tensor<4x3xf32>) {
  // expected-error @+1 {{'ms.scatter_elements' op expects updates of shape 4x2, got 4x3}}
  %0 = ms.scatter_elements %d, %i, %u {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>, tensor<4x3xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @scatter_elements_updates_type(%d: tensor<4x6xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf16>) {
  // expected-error @+1 {{'ms.scatter_elements' op expects updates of element type 'f32', got 'f16'}}
  %0 = ms.scatter_elements %d, %i, %u {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>, tensor<4x2xf16>) -> tensor<4x6xf32>
  return
}

// -----

func.func @scatter_elements_rank(%d: tensor<4x6xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'ms.scatter_elements' op expects data of rank >= 1 and indices of the same rank, got 'tensor<4x6xf32>' and 'tensor<2xi64>'}}
  %0 = ms.scatter_elements %d, %i, %u : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @scatter_nd_updates_shape(%d: tensor<4x6xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) {
  // expected-error @+1 {{'ms.scatter_nd' op expects updates of shape 2x6, got 2x4}}
  %0 = ms.scatter_nd %d, %i, %u : (tensor<4x6xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @scatter_nd_tuple(%d: tensor<4x6xf32>, %i: tensor<2x3xi64>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'ms.scatter_nd' op expects index tuples of 1 to 2 entries, got 3}}
  %0 = ms.scatter_nd %d, %i, %u : (tensor<4x6xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @pad_size(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'ms.pad' op expects 'pads' to have 4 entries, got 2}}
  %0 = ms.pad %x {pads = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @pad_negative_edge(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'ms.pad' op expects non-negative pads in edge mode, got -1 for dim 0}}
  %0 = ms.pad %x {pads = array<i64: -1, 0, 0, 0>, mode = #ms<pad_mode edge>} : (tensor<4x6xf32>) -> tensor<3x6xf32>
  return
}

// -----

func.func @pad_reflect_size(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'ms.pad' op reflect padding of dim 0 needs pads smaller than its size (4), got 4}}
  %0 = ms.pad %x {pads = array<i64: 4, 0, 0, 0>, mode = #ms<pad_mode reflect>} : (tensor<4x6xf32>) -> tensor<8x6xf32>
  return
}

// -----

func.func @pad_crop(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'ms.pad' op pads -3 and -2 crop dim 0 of size 4 below zero}}
  %0 = ms.pad %x {pads = array<i64: -3, 0, -2, 0>} : (tensor<4x6xf32>) -> tensor<0x6xf32>
  return
}

// -----

// Tests that pads whose sum overflows int64 are an error, not undefined behaviour (found by
// fuzz_onnx_import).
func.func @pad_overflow(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'ms.pad' op pads 7526359402266230785 and 5477540904500294755 overflow dim 0 of size 4}}
  %0 = ms.pad %x {pads = array<i64: 7526359402266230785, 0, 5477540904500294755, 0>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @pad_mode(%x: tensor<4x6xf32>) {
  // expected-error @+2 {{expected ::mlir::ms::PadMode to be one of: constant, reflect, edge}}
  // expected-error @+1 {{failed to parse Ms_PadModeAttr parameter 'value' which is to be a `::mlir::ms::PadMode`}}
  %0 = ms.pad %x {pads = array<i64: 0, 0, 0, 0>, mode = #ms<pad_mode wrap>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @expand_broadcast(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{'ms.expand' op shapes 3x2 and 4x4 are not broadcast-compatible (dim 0: 3 vs 4)}}
  %0 = ms.expand %x {shape = array<i64: 4, 4>} : (tensor<3x2xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @expand_negative(%x: tensor<3x1xf32>) {
  // expected-error @+1 {{'ms.expand' op expects 'shape' entries to be >= 0, got -1 at index 1}}
  %0 = ms.expand %x {shape = array<i64: 3, -1>} : (tensor<3x1xf32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @resize_sizes(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'ms.resize' op expects 'sizes' to have 4 entries, got 2}}
  %0 = ms.resize %x {sizes = array<i64: 8, 8>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @conv3d_symbolic_depth(%x: tensor<1x2x?x5x5xf32>, %w: tensor<3x2x2x3x3xf32>) {
  // expected-error @+1 {{'ms.conv3d' op expects static shapes (but for the batch), got 'tensor<1x2x?x5x5xf32>' and 'tensor<3x2x2x3x3xf32>'}}
  %0 = ms.conv3d %x, %w {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>} : (tensor<1x2x?x5x5xf32>, tensor<3x2x2x3x3xf32>) -> tensor<1x3x?x3x3xf32>
  return
}

// -----

func.func @einsum_symbolic_diagonal(%x: tensor<?x?xf32>) {
  // expected-error @+1 {{'ms.einsum' op expects label 'i' repeated in term 'ii' to have a static size, got 'tensor<?x?xf32>'}}
  %0 = ms.einsum %x {equation = "ii->i"} : (tensor<?x?xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @resize_symbolic_size_of_static_dim(%x: tensor<?x3x4x4xf32>) {
  // expected-error @+1 {{'ms.resize' op expects sizes to keep exactly the input's symbolic dims, got size ? for dim 2 of 'tensor<?x3x4x4xf32>'}}
  %0 = ms.resize %x {sizes = array<i64: -9223372036854775808, 3, -9223372036854775808, 8>} : (tensor<?x3x4x4xf32>) -> tensor<?x3x?x8xf32>
  return
}

// -----

func.func @resize_symbolic_dim(%x: tensor<?x3x4x4xf32>) {
  // expected-error @+1 {{'ms.resize' op expects sizes to keep exactly the input's symbolic dims, got size 2 for dim 0 of 'tensor<?x3x4x4xf32>'}}
  %0 = ms.resize %x {sizes = array<i64: 2, 3, 8, 8>} : (tensor<?x3x4x4xf32>) -> tensor<2x3x8x8xf32>
  return
}

// -----

func.func @resize_zero(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'ms.resize' op expects 'sizes' entries to be >= 1, got 0 at index 2}}
  %0 = ms.resize %x {sizes = array<i64: 1, 3, 0, 8>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x0x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Recurrences
//===----------------------------------------------------------------------===//

func.func @rnn_gates_rank(%g: tensor<5x2x8xf32>, %r: tensor<1x8x8xf32>) {
  // expected-error @+1 {{'ms.rnn' op expects static gates of rank 4 [T, B, D, 1H], got 'tensor<5x2x8xf32>'}}
  %0:2 = ms.rnn %g, %r {activations = ["tanh"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>} : (tensor<5x2x8xf32>, tensor<1x8x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @rnn_recurrence_rank(%g: tensor<5x2x1x8xf32>, %r: tensor<8x8xf32>) {
  // expected-error @+1 {{'ms.rnn' op expects a static recurrence of rank 3 [D, 1H, H], got 'tensor<8x8xf32>'}}
  %0:2 = ms.rnn %g, %r {activations = ["tanh"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>} : (tensor<5x2x1x8xf32>, tensor<8x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @rnn_recurrence_type(%g: tensor<5x2x1x8xf32>, %r: tensor<1x8x8xf16>) {
  // expected-error @+1 {{'ms.rnn' op expects recurrence element type 'f32', got 'f16'}}
  %0:2 = ms.rnn %g, %r {activations = ["tanh"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>} : (tensor<5x2x1x8xf32>, tensor<1x8x8xf16>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @gru_recurrence_directions(%g: tensor<5x2x1x24xf32>, %r: tensor<1x24x8xf32>) {
  // expected-error @+1 {{'ms.gru' op expects a recurrence of shape [2, 24, 8] (bidirectional, 3 gates of the hidden size 8), got 'tensor<1x24x8xf32>'}}
  %0:2 = ms.gru %g, %r {direction = #ms<rnn_direction bidirectional>, activations = ["sigmoid", "tanh", "sigmoid", "tanh"], activation_alpha = array<f64: 0.0, 0.0, 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0, 0.0, 0.0>} : (tensor<5x2x1x24xf32>, tensor<1x24x8xf32>) -> (tensor<5x2x2x8xf32>, tensor<2x2x8xf32>)
  return
}

// -----

func.func @lstm_gates_columns(%g: tensor<5x2x1x24xf32>, %r: tensor<1x32x8xf32>) {
  // expected-error @+1 {{'ms.lstm' op expects gates of shape [T, B, 1, 32], got 'tensor<5x2x1x24xf32>'}}
  %0:3 = ms.lstm %g, %r {activations = ["sigmoid", "tanh", "tanh"], activation_alpha = array<f64: 0.0, 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0, 0.0>} : (tensor<5x2x1x24xf32>, tensor<1x32x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @rnn_initial_h_shape(%g: tensor<5x2x1x8xf32>, %r: tensor<1x8x8xf32>, %h: tensor<1x3x8xf32>) {
  // expected-error @+1 {{'ms.rnn' op expects initial_h of shape [1, 2, 8], got 'tensor<1x3x8xf32>'}}
  %0:2 = ms.rnn %g, %r initial_h(%h) {activations = ["tanh"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>} : (tensor<5x2x1x8xf32>, tensor<1x8x8xf32>, tensor<1x3x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @rnn_sequence_lens_shape(%g: tensor<5x2x1x8xf32>, %r: tensor<1x8x8xf32>, %l: tensor<3xi32>) {
  // expected-error @+1 {{'ms.rnn' op expects sequence_lens of shape [2], got 'tensor<3xi32>'}}
  %0:2 = ms.rnn %g, %r sequence_lens(%l) {activations = ["tanh"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>} : (tensor<5x2x1x8xf32>, tensor<1x8x8xf32>, tensor<3xi32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @gru_activation_count(%g: tensor<5x2x1x24xf32>, %r: tensor<1x24x8xf32>) {
  // expected-error @+1 {{'ms.gru' op expects 2 activations (2 per direction), got 1}}
  %0:2 = ms.gru %g, %r {activations = ["sigmoid"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>} : (tensor<5x2x1x24xf32>, tensor<1x24x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @rnn_activation_name(%g: tensor<5x2x1x8xf32>, %r: tensor<1x8x8xf32>) {
  // expected-error @+1 {{'ms.rnn' op expects activations among relu, tanh, sigmoid, affine, leakyrelu, thresholdedrelu, scaledtanh, hardsigmoid, elu, softsign, softplus, got 'gelu'}}
  %0:2 = ms.rnn %g, %r {activations = ["gelu"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>} : (tensor<5x2x1x8xf32>, tensor<1x8x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @rnn_activation_alpha_count(%g: tensor<5x2x1x8xf32>, %r: tensor<1x8x8xf32>) {
  // expected-error @+1 {{'ms.rnn' op expects one activation_alpha and one activation_beta per activation (1), got 2 and 1}}
  %0:2 = ms.rnn %g, %r {activations = ["tanh"], activation_alpha = array<f64: 0.0, 1.0>, activation_beta = array<f64: 0.0>} : (tensor<5x2x1x8xf32>, tensor<1x8x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @rnn_clip(%g: tensor<5x2x1x8xf32>, %r: tensor<1x8x8xf32>) {
  // expected-error @+1 {{'ms.rnn' op expects a positive clip, got 0}}
  %0:2 = ms.rnn %g, %r {activations = ["tanh"], activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>, clip = 0.0 : f64} : (tensor<5x2x1x8xf32>, tensor<1x8x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @gru_recurrence_bias_without_linear_before_reset(%g: tensor<5x2x1x24xf32>, %r: tensor<1x24x8xf32>, %rb: tensor<1x8xf32>) {
  // expected-error @+1 {{'ms.gru' op expects a recurrence_bias only with linear_before_reset}}
  %0:2 = ms.gru %g, %r recurrence_bias(%rb) {activations = ["sigmoid", "tanh"], activation_alpha = array<f64: 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0>} : (tensor<5x2x1x24xf32>, tensor<1x24x8xf32>, tensor<1x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @gru_recurrence_bias_shape(%g: tensor<5x2x1x24xf32>, %r: tensor<1x24x8xf32>, %rb: tensor<1x24xf32>) {
  // expected-error @+1 {{'ms.gru' op expects recurrence_bias of shape [1, 8], got 'tensor<1x24xf32>'}}
  %0:2 = ms.gru %g, %r recurrence_bias(%rb) {linear_before_reset, activations = ["sigmoid", "tanh"], activation_alpha = array<f64: 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0>} : (tensor<5x2x1x24xf32>, tensor<1x24x8xf32>, tensor<1x24xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @lstm_initial_c_shape(%g: tensor<5x2x1x32xf32>, %r: tensor<1x32x8xf32>, %c: tensor<2x2x8xf32>) {
  // expected-error @+1 {{'ms.lstm' op expects initial_c of shape [1, 2, 8], got 'tensor<2x2x8xf32>'}}
  %0:3 = ms.lstm %g, %r initial_c(%c) {activations = ["sigmoid", "tanh", "tanh"], activation_alpha = array<f64: 0.0, 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0, 0.0>} : (tensor<5x2x1x32xf32>, tensor<1x32x8xf32>, tensor<2x2x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @lstm_peepholes_shape(%g: tensor<5x2x1x32xf32>, %r: tensor<1x32x8xf32>, %p: tensor<1x32xf32>) {
  // expected-error @+1 {{'ms.lstm' op expects peepholes of shape [1, 24], got 'tensor<1x32xf32>'}}
  %0:3 = ms.lstm %g, %r peepholes(%p) {activations = ["sigmoid", "tanh", "tanh"], activation_alpha = array<f64: 0.0, 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0, 0.0>} : (tensor<5x2x1x32xf32>, tensor<1x32x8xf32>, tensor<1x32xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// Fusion ops
//===----------------------------------------------------------------------===//

func.func @fused_arg_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ms.fused' op expects block argument #0 to have the type of input #0 ('tensor<4xf32>'), got 'tensor<2xf32>'}}
  %r = ms.fused "relu" ins(%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<2xf32>):
    %t = ms.relu %x : tensor<2xf32>
    ms.yield %t : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @fused_yield_type(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'ms.fused' op expects the yielded type 'tensor<4xf32>' to equal the result type 'tensor<4xi1>'}}
  %r = ms.fused "relu" ins(%a : tensor<4xf32>) -> tensor<4xi1> {
  ^bb0(%x: tensor<4xf32>):
    %t = ms.relu %x : tensor<4xf32>
    ms.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xi1>
}

// -----

func.func @fused_empty(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ms.fused' op expects at least one op in the group}}
  %r = ms.fused "nothing" ins(%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    ms.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @fused_nested(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = ms.fused "outer" ins(%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    // expected-error @+1 {{'ms.fused' op cannot be a member of 'ms.fused': members are ms ops other than 'ms.fused'}}
    %i = ms.fused "inner" ins(%x : tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%y: tensor<4xf32>):
      %t = ms.relu %y : tensor<4xf32>
      ms.yield %t : tensor<4xf32>
    }
    ms.yield %i : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_outside_fused(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ms.yield' op expects parent op 'ms.fused'}}
  ms.yield %a : tensor<4xf32>
}

// -----

func.func @attention_head_size(%q: tensor<2x8x16xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x32xf32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'ms.attention' op expects query and key of one head size, got 16 and 8}}
  %0 = ms.attention %q, %k, %v {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x6x8xf32>, tensor<2x6x32xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @attention_batch(%q: tensor<2x8x16xf32>, %k: tensor<3x6x16xf32>, %v: tensor<3x6x32xf32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'ms.attention' op expects the query's batch dims on key and value, or fewer heads (dim -3) that divide the query's (grouped-query attention)}}
  %0 = ms.attention %q, %k, %v {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<3x6x16xf32>, tensor<3x6x32xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @attention_mask(%q: tensor<2x8x16xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x6x32xf32>, %m: tensor<2x8x8xf32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'ms.attention' op shapes 2x8x8 and 2x8x6 are not broadcast-compatible (dim 2: 8 vs 6)}}
  %0 = ms.attention %q, %k, %v, %m {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x6x16xf32>, tensor<2x6x32xf32>, tensor<2x8x8xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @attention_mask_rank(%q: tensor<2x8x16xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x6x32xf32>, %m: tensor<3x2x8x6xf32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'ms.attention' op expects a mask that broadcasts to the scores' shape [2x8x6], got 'tensor<3x2x8x6xf32>'}}
  %0 = ms.attention %q, %k, %v, %m {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x6x16xf32>, tensor<2x6x32xf32>, tensor<3x2x8x6xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @attention_seq(%q: tensor<2x8x16xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x5x32xf32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'ms.attention' op expects key and value of one sequence length, got 6 and 5}}
  %0 = ms.attention %q, %k, %v {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x6x16xf32>, tensor<2x5x32xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @attention_value_heads(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x6x16xf32>, %v: tensor<1x4x6x32xf32>) -> tensor<1x4x8x32xf32> {
  // expected-error @+1 {{'ms.attention' op expects the query's batch dims on key and value, or fewer heads}}
  %0 = ms.attention %q, %k, %v {scale = 1.0 : f64} : (tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x4x6x32xf32>) -> tensor<1x4x8x32xf32>
  return %0 : tensor<1x4x8x32xf32>
}

// -----

func.func @attention_token_major_rank(%q: tensor<8x16xf32>, %k: tensor<6x16xf32>, %v: tensor<6x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'ms.attention' op expects query, key and value of one rank >= 3, got}}
  %0 = ms.attention %q, %k, %v {scale = 1.0 : f64, token_major} : (tensor<8x16xf32>, tensor<6x16xf32>, tensor<6x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

func.func @attention_token_major_heads(%q: tensor<2x8x4x16xf32>, %k: tensor<2x6x3x16xf32>, %v: tensor<2x6x3x32xf32>) -> tensor<2x8x4x32xf32> {
  // expected-error @+1 {{'ms.attention' op expects the query's batch dims on key and value, or fewer heads (dim -3) that divide the query's (grouped-query attention)}}
  %0 = ms.attention %q, %k, %v {scale = 1.0 : f64, token_major} : (tensor<2x8x4x16xf32>, tensor<2x6x3x16xf32>, tensor<2x6x3x32xf32>) -> tensor<2x8x4x32xf32>
  return %0 : tensor<2x8x4x32xf32>
}

// -----

func.func @attention_causal_keys(%q: tensor<2x8x16xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x6x32xf32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'ms.attention' op expects at least as many keys as queries when causal (every row sees a key), got 6 keys and 8 queries}}
  %0 = ms.attention %q, %k, %v {causal, scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x6x16xf32>, tensor<2x6x32xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

func.func @if_cond_elements(%c: tensor<2xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ms.if' op expects a condition of one element, got 'tensor<2xi1>'}}
  %0 = ms.if %c : tensor<2xi1> -> (tensor<4xf32>) {
    ms.region_yield %a : tensor<4xf32>
  } else {
    ms.region_yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @if_branch_shapes(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ms.if' op expects else value #0 to have the type of result ('tensor<4xf32>'), got 'tensor<8xf32>'}}
  %0 = ms.if %c : tensor<i1> -> (tensor<4xf32>) {
    ms.region_yield %a : tensor<4xf32>
  } else {
    ms.region_yield %b : tensor<8xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @if_yield_count(%c: tensor<i1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ms.if' op expects the then region to yield 1 values, got 2}}
  %0 = ms.if %c : tensor<i1> -> (tensor<4xf32>) {
    ms.region_yield %a, %a : tensor<4xf32>, tensor<4xf32>
  } else {
    ms.region_yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @loop_carried_shape(%m: tensor<i64>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ms.loop' op expects loop-carried value #0 to have the type of its initial value ('tensor<2xf32>'), got 'tensor<4xf32>'}}
  %0 = ms.loop trip %m : tensor<i64> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
    %z = ms.concat %y, %y {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
    ms.region_yield %c, %z : tensor<i1>, tensor<4xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_body_args(%m: tensor<i64>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ms.loop' op expects 3 body arguments (iteration number, condition, loop-carried values), got 2}}
  %0 = ms.loop trip %m : tensor<i64> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%c: tensor<i1>, %y: tensor<2xf32>):
    ms.region_yield %c, %y : tensor<i1>, tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_condition_type(%m: tensor<i64>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ms.loop' op expects the body to yield a condition of one i1 element, got 'tensor<2xf32>'}}
  %0 = ms.loop trip %m : tensor<i64> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
    ms.region_yield %y, %y : tensor<2xf32>, tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_scan_with_condition(%m: tensor<i64>, %c0: tensor<i1>, %x: tensor<2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'ms.loop' op with scan outputs expects a trip count and no condition (the number of iterations must be static)}}
  %0:2 = ms.loop trip %m : tensor<i64> cond %c0 : tensor<i1> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
    ms.region_yield %c, %y, %y : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  return %0#1 : tensor<3x2xf32>
}

// -----

func.func @loop_scan_trip_count(%x: tensor<2xf32>) -> tensor<3x2xf32> {
  %m = ms.constant dense<4> : tensor<i64>
  // expected-error @+1 {{'ms.loop' op expects scan output #0 to have the trip count (4) as leading dim, got 'tensor<3x2xf32>'}}
  %0:2 = ms.loop trip %m : tensor<i64> iter_args(%x : tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
    ms.region_yield %c, %y, %y : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  return %0#1 : tensor<3x2xf32>
}

// -----

func.func @scan_lengths(%h: tensor<2xf32>, %x: tensor<3x2xf32>, %z: tensor<4x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ms.scan' op expects all scan inputs to have the same length (3), scan input #1 has 4}}
  %0 = ms.scan states(%h : tensor<2xf32>) inputs(%x, %z : tensor<3x2xf32>, tensor<4x2xf32>) {scan_input_axes = array<i64: 0, 0>, scan_input_directions = array<i64: 0, 0>, scan_output_axes = array<i64>, scan_output_directions = array<i64>} -> (tensor<2xf32>) {
  ^bb0(%s: tensor<2xf32>, %a: tensor<2xf32>, %b: tensor<2xf32>):
    ms.region_yield %s : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_slice_type(%h: tensor<2xf32>, %x: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ms.scan' op expects body argument #1 to have the type of a state or scan input slice ('tensor<2xf32>'), got 'tensor<3xf32>'}}
  %0 = ms.scan states(%h : tensor<2xf32>) inputs(%x : tensor<3x2xf32>) {scan_input_axes = array<i64: 0>, scan_input_directions = array<i64: 0>, scan_output_axes = array<i64>, scan_output_directions = array<i64>} -> (tensor<2xf32>) {
  ^bb0(%s: tensor<2xf32>, %a: tensor<3xf32>):
    ms.region_yield %s : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_output_type(%h: tensor<2xf32>, %x: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ms.scan' op expects scan output #0 of type 'tensor<3x2xf32>' (its elements stacked along axis 0), got 'tensor<2x3xf32>'}}
  %0:2 = ms.scan states(%h : tensor<2xf32>) inputs(%x : tensor<3x2xf32>) {scan_input_axes = array<i64: 0>, scan_input_directions = array<i64: 0>, scan_output_axes = array<i64: 0>, scan_output_directions = array<i64: 0>} -> (tensor<2xf32>, tensor<2x3xf32>) {
  ^bb0(%s: tensor<2xf32>, %a: tensor<2xf32>):
    ms.region_yield %s, %a : tensor<2xf32>, tensor<2xf32>
  }
  return %0#1 : tensor<2x3xf32>
}

// -----

func.func @scan_direction(%h: tensor<2xf32>, %x: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ms.scan' op expects directions 0 (forward) or 1 (reverse), got 2}}
  %0 = ms.scan states(%h : tensor<2xf32>) inputs(%x : tensor<3x2xf32>) {scan_input_axes = array<i64: 0>, scan_input_directions = array<i64: 2>, scan_output_axes = array<i64>, scan_output_directions = array<i64>} -> (tensor<2xf32>) {
  ^bb0(%s: tensor<2xf32>, %a: tensor<2xf32>):
    ms.region_yield %s : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @region_yield_parent(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ms.region_yield' op expects parent op to be one of 'ms.if, ms.loop, ms.scan'}}
  ms.region_yield %a : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Ops with data-dependent extents
//===----------------------------------------------------------------------===//

// -----

func.func @check_condition(%i: tensor<3xi64>, %ok: tensor<2xi1>) {
  // expected-error @+1 {{'ms.check' op expects a one-element condition, got 'tensor<2xi1>'}}
  %0 = ms.check %i, %ok {message = "m"} : (tensor<3xi64>, tensor<2xi1>) -> tensor<3xi64>
  return
}

// -----

func.func @check_type(%i: tensor<3xi64>, %ok: tensor<i1>) {
  // expected-error @+2 {{'ms.check' op inferred type(s) 'tensor<3xi64>' are incompatible with return type(s) of operation 'tensor<3xi32>'}}
  // expected-error @+1 {{'ms.check' op failed to infer returned types}}
  %0 = ms.check %i, %ok {message = "m"} : (tensor<3xi64>, tensor<i1>) -> tensor<3xi32>
  return
}

// -----

func.func @non_zero_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'ms.non_zero' op expects a static input of rank >= 1, got 'tensor<f32>'}}
  %0:2 = ms.non_zero %x : (tensor<f32>) -> (tensor<1x1xi64>, tensor<1xi64>)
  return
}

// -----

func.func @non_zero_bound(%x: tensor<3x4xf32>) {
  // expected-error @+2 {{'ms.non_zero' op inferred type(s) 'tensor<2x12xi64>', 'tensor<1xi64>' are incompatible with return type(s) of operation 'tensor<2x4xi64>', 'tensor<1xi64>'}}
  // expected-error @+1 {{'ms.non_zero' op failed to infer returned types}}
  %0:2 = ms.non_zero %x : (tensor<3x4xf32>) -> (tensor<2x4xi64>, tensor<1xi64>)
  return
}

// -----

func.func @unique_axis(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'ms.unique' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0:5 = ms.unique %x {axis = 2 : i64} : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<1xi64>)
  return
}

// -----

func.func @nms_boxes(%b: tensor<1x6x3xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) {
  // expected-error @+1 {{'ms.non_max_suppression' op expects static boxes of shape [batches, boxes, 4], got 'tensor<1x6x3xf32>'}}
  %0:2 = ms.non_max_suppression %b, %s, %m, %t, %t {max_per_class = 6 : i64} : (tensor<1x6x3xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> (tensor<12x3xi64>, tensor<1xi64>)
  return
}

// -----

func.func @nms_scores(%b: tensor<1x6x4xf32>, %s: tensor<1x2x5xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) {
  // expected-error @+1 {{'ms.non_max_suppression' op expects scores of shape [1, classes, 6], got 'tensor<1x2x5xf32>'}}
  %0:2 = ms.non_max_suppression %b, %s, %m, %t, %t {max_per_class = 6 : i64} : (tensor<1x6x4xf32>, tensor<1x2x5xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> (tensor<12x3xi64>, tensor<1xi64>)
  return
}

// -----

func.func @nms_bound(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) {
  // expected-error @+1 {{'ms.non_max_suppression' op expects max_per_class in [0, 6], got 7}}
  %0:2 = ms.non_max_suppression %b, %s, %m, %t, %t {max_per_class = 7 : i64} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> (tensor<14x3xi64>, tensor<1xi64>)
  return
}

// -----

func.func @nms_threshold(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %t: tensor<2xf32>) {
  // expected-error @+1 {{'ms.non_max_suppression' op expects a one-element iou_threshold, got 'tensor<2xf32>'}}
  %0:2 = ms.non_max_suppression %b, %s, %m, %t, %t {max_per_class = 6 : i64} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<2xf32>, tensor<2xf32>) -> (tensor<12x3xi64>, tensor<1xi64>)
  return
}

//===----------------------------------------------------------------------===//
// Composites (expanded by ms-decompose)
//===----------------------------------------------------------------------===//

// -----

func.func @depth_to_space_channels(%x: tensor<1x6x2x2xf32>) {
  // expected-error @+1 {{'ms.depth_to_space' op expects blocksize^2 (4) to divide the 6 channels}}
  %0 = ms.depth_to_space %x {blocksize = 2 : i64} : (tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @depth_to_space_rank(%x: tensor<8x2x2xf32>) {
  // expected-error @+1 {{'ms.depth_to_space' op expects a static 4-D input, got 'tensor<8x2x2xf32>'}}
  %0 = ms.depth_to_space %x {blocksize = 2 : i64} : (tensor<8x2x2xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @space_to_depth_spatial(%x: tensor<1x2x3x4xf32>) {
  // expected-error @+1 {{'ms.space_to_depth' op expects the blocksize 2 to divide the spatial dims 3x4}}
  %0 = ms.space_to_depth %x {blocksize = 2 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x8x1x2xf32>
  return
}

// -----

func.func @space_to_depth_blocksize(%x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'ms.space_to_depth' op expects a blocksize in [1, 65536], got 0}}
  %0 = ms.space_to_depth %x {blocksize = 0 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @trilu_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ms.trilu' op expects an input of rank >= 2, got 'tensor<4xf32>'}}
  %0 = ms.trilu %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @trilu_k(%x: tensor<2x2xf32>, %k: tensor<2xi64>) {
  // expected-error @+1 {{'ms.trilu' op expects a one-element k, got 'tensor<2xi64>'}}
  %0 = ms.trilu %x, %k : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @tile_repeats_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.tile' op expects 'repeats' to have 2 entries, got 1}}
  %0 = ms.tile %x {repeats = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @tile_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.tile' op expects non-negative repeats that keep sizes in int64, got [2, -1]}}
  %0 = ms.tile %x {repeats = array<i64: 2, -1>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @instance_norm_rank(%x: tensor<2x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ms.instance_norm' op expects an input of rank >= 3 ([N, C, spatial...]), got 'tensor<2x4xf32>'}}
  %0 = ms.instance_norm %x, %s, %s : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @instance_norm_params(%x: tensor<2x4x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'ms.instance_norm' op expects scale and bias of type 'tensor<4xf32>', got 'tensor<3xf32>'}}
  %0 = ms.instance_norm %x, %s, %s : (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @group_norm_groups(%x: tensor<2x4x3xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ms.group_norm' op expects num_groups (3) to be >= 1 and divide the 4 channels}}
  %0 = ms.group_norm %x, %s, %s {num_groups = 3 : i64} : (tensor<2x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @lp_normalization_p(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'ms.lp_normalization' op expects p to be 1 or 2, got 3}}
  %0 = ms.lp_normalization %x {axis = 1 : i64, p = 3 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @lp_normalization_axis(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'ms.lp_normalization' op expects an axis in [0, 2), got 2}}
  %0 = ms.lp_normalization %x {axis = 2 : i64, p = 2 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @mean_variance_norm_axes(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'ms.mean_variance_norm' op expects sorted, distinct axes in [0, 2), got [1, 0]}}
  %0 = ms.mean_variance_norm %x {axes = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @lrn_size(%x: tensor<1x4x2x2xf32>) {
  // expected-error @+1 {{'ms.lrn' op expects a size >= 1, got 0}}
  %0 = ms.lrn %x {size = 0 : i64, alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 1.0 : f64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @lrn_rank(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.lrn' op expects a static input of rank >= 3 ([N, C, spatial...]), got 'tensor<4x2xf32>'}}
  %0 = ms.lrn %x {size = 3 : i64, alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 1.0 : f64} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @conv3d_channels(%x: tensor<1x4x5x6x6xf32>, %w: tensor<6x3x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv3d' op expects input channels (4) = filter channels per group (3) * groups (1) and filter outputs (6) divisible by groups}}
  %0 = ms.conv3d %x, %w : (tensor<1x4x5x6x6xf32>, tensor<6x3x3x3x3xf32>) -> tensor<1x6x3x4x4xf32>
  return
}

// -----

func.func @conv3d_window(%x: tensor<1x4x2x6x6xf32>, %w: tensor<6x4x3x3x3xf32>) {
  // expected-error @+1 {{'ms.conv3d' op window of size 3 (dilation 1) does not fit padded input dim 2 of size 2}}
  %0 = ms.conv3d %x, %w : (tensor<1x4x2x6x6xf32>, tensor<6x4x3x3x3xf32>) -> tensor<1x6x1x4x4xf32>
  return
}

// -----

func.func @conv3d_rank(%x: tensor<1x4x6x6xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{'ms.conv3d' op expects an input and a filter of rank 5, got 'tensor<1x4x6x6xf32>' and 'tensor<6x4x3x3xf32>'}}
  %0 = ms.conv3d %x, %w : (tensor<1x4x6x6xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x4x4xf32>
  return
}

// -----

func.func @conv_transpose_filter(%x: tensor<1x4x5x5xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'ms.conv_transpose' op expects filter inputs (3) = input channels (4), divisible by groups (1)}}
  %0 = ms.conv_transpose %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>}
      : (tensor<1x4x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @conv_transpose_empty(%x: tensor<1x4x1x1xf32>, %w: tensor<4x2x1x1xf32>) {
  // expected-error @+1 {{'ms.conv_transpose' op expects a non-empty output, got size 0 along spatial dim 0}}
  %0 = ms.conv_transpose %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>}
      : (tensor<1x4x1x1xf32>, tensor<4x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  return
}

// -----

func.func @conv_transpose_pads(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'ms.conv_transpose' op expects 'pads' to have 4 entries, got 2}}
  %0 = ms.conv_transpose %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>}
      : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @einsum_characters(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.einsum' op expects an equation of letters, ',', '...' and '->', got 'i2->i'}}
  %0 = ms.einsum %a {equation = "i2->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_terms(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.einsum' op expects one term per operand: 'ij,jk->ik' has 2, there are 1 operands}}
  %0 = ms.einsum %a {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'ms.einsum' op expects label 'j' to have one size (or 1), got 3 and 4}}
  %0 = ms.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @einsum_output(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.einsum' op expects the output's labels distinct and each in an operand, got 'ik' of 'ij->ik'}}
  %0 = ms.einsum %a {equation = "ij->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.einsum' op expects term 'ijk' of 'ijk->i' to label each of the 2 dims of operand 0}}
  %0 = ms.einsum %a {equation = "ijk->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @pool_3d_pads(%x: tensor<1x2x5x6x6xf32>) {
  // expected-error @+1 {{'ms.max_pool' op expects 'pads' to have 6 entries, got 4}}
  %0 = ms.max_pool %x {kernel = array<i64: 2, 2, 2>, strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>}
      : (tensor<1x2x5x6x6xf32>) -> tensor<1x2x4x5x5xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<2x5x6xf32>) {
  // expected-error @+1 {{'ms.avg_pool' op expects input of rank 4 or 5, got 'tensor<2x5x6xf32>'}}
  %0 = ms.avg_pool %x {kernel = array<i64: 2>} : (tensor<2x5x6xf32>) -> tensor<2x5x5xf32>
  return
}

// -----

func.func @random_uniform_bounds() {
  // expected-error @+1 {{'ms.random_uniform' op expects finite bounds with low <= high, got [2.000000e+00, 1.000000e+00)}}
  %0 = ms.random_uniform {shape = array<i64: 2>, element_type = f32, low = 2.0, high = 1.0, stream = 0} : tensor<2xf32>
  return
}

// -----

func.func @random_uniform_type() {
  // expected-error @+1 {{'ms.random_uniform' op expects element_type f16, bf16, f32 or f64, got 'i32'}}
  %0 = ms.random_uniform {shape = array<i64: 2>, element_type = i32, stream = 0} : tensor<2xf32>
  return
}

// -----

func.func @random_uniform_result() {
  // expected-error @+2 {{'ms.random_uniform' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'ms.random_uniform' op failed to infer returned types}}
  %0 = ms.random_uniform {shape = array<i64: 2>, element_type = f32, stream = 0} : tensor<3xf32>
  return
}

// -----

func.func @random_normal_shape() {
  // expected-error @+1 {{'ms.random_normal' op expects a static shape of extents >= 0}}
  %0 = ms.random_normal {shape = array<i64: -1>, element_type = f32, stream = 0} : tensor<?xf32>
  return
}

// -----

func.func @random_normal_scale() {
  // expected-error @+1 {{'ms.random_normal' op expects a finite mean and scale, got 0.000000e+00 and INF}}
  %0 = ms.random_normal {shape = array<i64: 2>, element_type = f32, scale = 0x7FF0000000000000 : f64, stream = 0} : tensor<2xf32>
  return
}

// -----

func.func @image_decode_rank(%bytes: tensor<2x8xui8>) {
  // expected-error @+1 {{'ms.image_decode' op expects 1-D encoded bytes, got 'tensor<2x8xui8>'}}
  %0 = ms.image_decode %bytes {height = 4, width = 4, pixel_format = #ms<pixel_format rgb>} : (tensor<2x8xui8>) -> tensor<4x4x3xui8>
  return
}

// -----

func.func @image_decode_size(%bytes: tensor<16xui8>) {
  // expected-error @+1 {{'ms.image_decode' op expects a positive height and width, got 0x4}}
  %0 = ms.image_decode %bytes {height = 0, width = 4, pixel_format = #ms<pixel_format rgb>} : (tensor<16xui8>) -> tensor<0x4x3xui8>
  return
}

// -----

func.func @image_decode_channels(%bytes: tensor<16xui8>) {
  // expected-error @+2 {{'ms.image_decode' op inferred type(s) 'tensor<4x4x1xui8>' are incompatible with return type(s) of operation 'tensor<4x4x3xui8>'}}
  // expected-error @+1 {{'ms.image_decode' op failed to infer returned types}}
  %0 = ms.image_decode %bytes {height = 4, width = 4, pixel_format = #ms<pixel_format grayscale>} : (tensor<16xui8>) -> tensor<4x4x3xui8>
  return
}

// -----

func.func @image_decode_bytes(%bytes: tensor<16xi8>) {
  // expected-error @+1 {{'ms.image_decode' op operand #0 must be ranked tensor of 8-bit unsigned integer values, but got 'tensor<16xi8>'}}
  %0 = ms.image_decode %bytes {height = 4, width = 4, pixel_format = #ms<pixel_format rgb>} : (tensor<16xi8>) -> tensor<4x4x3xui8>
  return
}

// -----

func.func @random_iteration_type(%i: tensor<1xi64>) {
  // expected-error @+1 {{'ms.random_normal' op operand #0 must be 0D tensor of 64-bit signless integer values, but got 'tensor<1xi64>'}}
  %0 = ms.random_normal iteration(%i : tensor<1xi64>) {shape = array<i64: 2>, element_type = f32, stream = 0} : tensor<2xf32>
  return
}

// -----

func.func @grid_sample_rank(%x: tensor<1x2x3xf32>, %g: tensor<1x5x1xf32>) {
  // expected-error @+1 {{'ms.grid_sample' op expects a static input [N, C, D1, ...] with 2 or 3 spatial dims, got 'tensor<1x2x3xf32>'}}
  %0 = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode linear>, padding_mode = #ms<grid_padding_mode zeros>} : (tensor<1x2x3xf32>, tensor<1x5x1xf32>) -> tensor<1x2x5xf32>
  return
}

// -----

func.func @grid_sample_grid(%x: tensor<1x2x3x4xf32>, %g: tensor<1x5x6x3xf32>) {
  // expected-error @+1 {{'ms.grid_sample' op expects a static grid [1, ..., 2] of rank 4, got 'tensor<1x5x6x3xf32>'}}
  %0 = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode linear>, padding_mode = #ms<grid_padding_mode zeros>} : (tensor<1x2x3x4xf32>, tensor<1x5x6x3xf32>) -> tensor<1x2x5x6xf32>
  return
}

// -----

func.func @grid_sample_cubic_3d(%x: tensor<1x2x3x4x5xf32>, %g: tensor<1x2x2x2x3xf32>) {
  // expected-error @+1 {{'ms.grid_sample' op expects 2 spatial dims for cubic sampling, got 3}}
  %0 = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode cubic>, padding_mode = #ms<grid_padding_mode zeros>} : (tensor<1x2x3x4x5xf32>, tensor<1x2x2x2x3xf32>) -> tensor<1x2x2x2x2xf32>
  return
}

// -----

func.func @roi_align_rois(%x: tensor<1x3x8x8xf32>, %rois: tensor<4x5xf32>, %idx: tensor<4xi64>) {
  // expected-error @+1 {{'ms.roi_align' op expects static rois [R, 4], got 'tensor<4x5xf32>'}}
  %0 = ms.roi_align %x, %rois, %idx {output_height = 1, output_width = 1, sampling_ratio = 1, spatial_scale = 1.0} : (tensor<1x3x8x8xf32>, tensor<4x5xf32>, tensor<4xi64>) -> tensor<4x3x1x1xf32>
  return
}

// -----

func.func @roi_align_indices(%x: tensor<1x3x8x8xf32>, %rois: tensor<4x4xf32>, %idx: tensor<3xi64>) {
  // expected-error @+1 {{'ms.roi_align' op expects batch_indices [4], got 'tensor<3xi64>'}}
  %0 = ms.roi_align %x, %rois, %idx {output_height = 1, output_width = 1, sampling_ratio = 1, spatial_scale = 1.0} : (tensor<1x3x8x8xf32>, tensor<4x4xf32>, tensor<3xi64>) -> tensor<4x3x1x1xf32>
  return
}

// -----

func.func @roi_align_ratio(%x: tensor<1x3x8x8xf32>, %rois: tensor<4x4xf32>, %idx: tensor<4xi64>) {
  // expected-error @+1 {{'ms.roi_align' op expects output_height, output_width and sampling_ratio in [1, 65536], got 1, 1 and 0}}
  %0 = ms.roi_align %x, %rois, %idx {output_height = 1, output_width = 1, sampling_ratio = 0, spatial_scale = 1.0} : (tensor<1x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x1x1xf32>
  return
}

// -----

func.func @deform_conv_groups(%x: tensor<1x4x5x5xf32>, %w: tensor<2x4x3x3xf32>, %off: tensor<1x18x3x3xf32>) {
  // expected-error @+1 {{'ms.deform_conv' op expects groups (2) and offset_groups (1) to divide the 4 input channels and groups to divide the 2 filters of 4 channels each}}
  %0 = ms.deform_conv %x, %w, %off {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2} : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>, tensor<1x18x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @deform_conv_offset(%x: tensor<1x4x5x5xf32>, %w: tensor<2x4x3x3xf32>, %off: tensor<1x18x5x5xf32>) {
  // expected-error @+1 {{'ms.deform_conv' op expects offset [1, 18, 3, 3], got 'tensor<1x18x5x5xf32>'}}
  %0 = ms.deform_conv %x, %w, %off {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>, tensor<1x18x5x5xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @deform_conv_mask(%x: tensor<1x4x5x5xf32>, %w: tensor<2x4x3x3xf32>, %off: tensor<1x18x3x3xf32>, %m: tensor<1x18x3x3xf32>) {
  // expected-error @+1 {{'ms.deform_conv' op expects mask [1, 9, 3, 3], got 'tensor<1x18x3x3xf32>'}}
  %0 = ms.deform_conv %x, %w, %off mask %m {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>, tensor<1x18x3x3xf32>, tensor<1x18x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @deform_conv_pads(%x: tensor<1x4x5x5xf32>, %w: tensor<2x4x3x3xf32>, %off: tensor<1x18x3x3xf32>) {
  // expected-error @+1 {{'ms.deform_conv' op expects 'pads' to have 4 entries, got 2}}
  %0 = ms.deform_conv %x, %w, %off {strides = array<i64: 1, 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>, tensor<1x18x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @affine_grid_size(%t: tensor<2x2x3xf32>) {
  // expected-error @+1 {{'ms.affine_grid' op expects a size [N, C, H, W] or [N, C, D, H, W], got 3 entries}}
  %0 = ms.affine_grid %t {size = array<i64: 2, 1, 2>} : (tensor<2x2x3xf32>) -> tensor<2x2x2xf32>
  return
}

// -----

func.func @affine_grid_theta(%t: tensor<2x2x3xf32>) {
  // expected-error @+1 {{'ms.affine_grid' op expects theta [2, 3, 4], got 'tensor<2x2x3xf32>'}}
  %0 = ms.affine_grid %t {size = array<i64: 2, 1, 2, 3, 4>} : (tensor<2x2x3xf32>) -> tensor<2x2x3x4x3xf32>
  return
}

// -----

func.func @col2im_blocks(%x: tensor<1x8x15xf32>) {
  // expected-error @+1 {{'ms.col2im' op expects the input's last dim (15) to be the number of blocks that fit the padded image}}
  %0 = ms.col2im %x {image_shape = array<i64: 3, 3>, block_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x15xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @col2im_taps(%x: tensor<1x6x16xf32>) {
  // expected-error @+1 {{'ms.col2im' op expects prod(block_shape) (4) to divide the 6 input rows}}
  %0 = ms.col2im %x {image_shape = array<i64: 3, 3>, block_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x6x16xf32>) -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @col2im_pads(%x: tensor<1x8x16xf32>) {
  // expected-error @+1 {{'ms.col2im' op expects 'pads' to have 4 entries, got 2}}
  %0 = ms.col2im %x {image_shape = array<i64: 3, 3>, block_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1>} : (tensor<1x8x16xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @dft_axis(%x: tensor<1x6x3x2xf32>) {
  // expected-error @+1 {{'ms.dft' op expects an axis in [0, 3) (a signal dim), got 3}}
  %0 = ms.dft %x {axis = 3, length = 6} : (tensor<1x6x3x2xf32>) -> tensor<1x6x3x2xf32>
  return
}

// -----

func.func @dft_signal(%x: tensor<1x6x3xf32>) {
  // expected-error @+1 {{'ms.dft' op expects a static signal [..., 1 or 2] of rank >= 2, got 'tensor<1x6x3xf32>'}}
  %0 = ms.dft %x {axis = 1, length = 6} : (tensor<1x6x3xf32>) -> tensor<1x6x2xf32>
  return
}

// -----

func.func @dft_length(%x: tensor<1x6x2xf32>) {
  // expected-error @+1 {{'ms.dft' op expects a length in [1, 2^24], got 0}}
  %0 = ms.dft %x {axis = 1, length = 0} : (tensor<1x6x2xf32>) -> tensor<1x0x2xf32>
  return
}

// -----

func.func @stft_frame(%x: tensor<1x8x1xf32>) {
  // expected-error @+1 {{'ms.stft' op expects frame_step >= 1 and a frame_length in [1, 8], got 2 and 9}}
  %0 = ms.stft %x {frame_step = 2, frame_length = 9} : (tensor<1x8x1xf32>) -> tensor<1x1x9x2xf32>
  return
}

// -----

func.func @stft_window(%x: tensor<1x8x1xf32>, %w: tensor<3xf32>) {
  // expected-error @+1 {{'ms.stft' op expects a window [4], got 'tensor<3xf32>'}}
  %0 = ms.stft %x, %w {frame_step = 2, frame_length = 4} : (tensor<1x8x1xf32>, tensor<3xf32>) -> tensor<1x3x4x2xf32>
  return
}

// -----

func.func @nll_loss_target(%lp: tensor<4x5xf32>, %t: tensor<5xi64>) {
  // expected-error @+1 {{'ms.nll_loss' op expects a target [4] (the input's shape without its class dim), got 'tensor<5xi64>'}}
  %0 = ms.nll_loss %lp, %t {reduction = #ms<loss_reduction sum>} : (tensor<4x5xf32>, tensor<5xi64>) -> tensor<f32>
  return
}

// -----

func.func @nll_loss_weight(%lp: tensor<4x5xf32>, %t: tensor<4xi32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'ms.nll_loss' op expects a weight of 5 classes of 'f32', got 'tensor<4xf32>'}}
  %0 = ms.nll_loss %lp, %t, %w {reduction = #ms<loss_reduction sum>} : (tensor<4x5xf32>, tensor<4xi32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @post_transform_rank(%y: tensor<6xf32>) {
  // expected-error @+1 {{'ms.post_transform' op expects scores [N, targets], got 'tensor<6xf32>'}}
  %0 = ms.post_transform %y {transform = #ms<post_transform softmax>} : (tensor<6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @tree_ensemble_lengths(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op expects the nodes_* arrays and membership_sizes to have one entry per node (3)}}
  %0 = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>, nodes_featureids = array<i64: 1, 0>,
      nodes_splits = array<f64: 0.5, 0.0, 0.0>, nodes_truenodeids = array<i64: 1, 1, 2>,
      nodes_falsenodeids = array<i64: 2, 1, 2>, nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>, tree_roots = array<i64: 0>,
      leaf_nodeids = array<i64: 1>, leaf_targetids = array<i64: 0>, leaf_weights = array<f64: 1.0>,
      n_targets = 1 : i64, aggregate_function = #ms<tree_aggregate sum>, base_values = array<f64>,
      post_transform = #ms<post_transform none>} : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @tree_ensemble_cycle(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op expects trees: node 0 is reached again below itself}}
  %0 = ms.tree_ensemble %x {nodes_modes = array<i64: 0, 0, -1>, nodes_featureids = array<i64: 1, 0, 0>,
      nodes_splits = array<f64: 0.5, 0.0, 0.0>, nodes_truenodeids = array<i64: 1, 0, 2>,
      nodes_falsenodeids = array<i64: 2, 2, 2>, nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>, tree_roots = array<i64: 0>,
      leaf_nodeids = array<i64: 2>, leaf_targetids = array<i64: 0>, leaf_weights = array<f64: 1.0>,
      n_targets = 1 : i64, aggregate_function = #ms<tree_aggregate sum>, base_values = array<f64>,
      post_transform = #ms<post_transform none>} : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @tree_ensemble_vote(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op vote 0 names node 0, which is not a leaf}}
  %0 = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>, nodes_featureids = array<i64: 1, 0, 0>,
      nodes_splits = array<f64: 0.5, 0.0, 0.0>, nodes_truenodeids = array<i64: 1, 1, 2>,
      nodes_falsenodeids = array<i64: 2, 1, 2>, nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>, tree_roots = array<i64: 0>,
      leaf_nodeids = array<i64: 0>, leaf_targetids = array<i64: 0>, leaf_weights = array<f64: 1.0>,
      n_targets = 1 : i64, aggregate_function = #ms<tree_aggregate sum>, base_values = array<f64>,
      post_transform = #ms<post_transform none>} : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @tree_ensemble_feature(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op node 0 tests feature 5 of 2}}
  %0 = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>, nodes_featureids = array<i64: 5, 0, 0>,
      nodes_splits = array<f64: 0.5, 0.0, 0.0>, nodes_truenodeids = array<i64: 1, 1, 2>,
      nodes_falsenodeids = array<i64: 2, 1, 2>, nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>, tree_roots = array<i64: 0>,
      leaf_nodeids = array<i64: 1>, leaf_targetids = array<i64: 0>, leaf_weights = array<f64: 1.0>,
      n_targets = 1 : i64, aggregate_function = #ms<tree_aggregate sum>, base_values = array<f64>,
      post_transform = #ms<post_transform none>} : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @tree_ensemble_classifier(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op expects a classifier to sum its trees and not to use probit}}
  %0:2 = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>, nodes_featureids = array<i64: 1, 0, 0>,
      nodes_splits = array<f64: 0.5, 0.0, 0.0>, nodes_truenodeids = array<i64: 1, 1, 2>,
      nodes_falsenodeids = array<i64: 2, 1, 2>, nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>, tree_roots = array<i64: 0>,
      leaf_nodeids = array<i64: 1>, leaf_targetids = array<i64: 0>, leaf_weights = array<f64: 1.0>,
      n_targets = 3 : i64, aggregate_function = #ms<tree_aggregate max>, base_values = array<f64>,
      post_transform = #ms<post_transform none>, class_labels = array<i64: 1, 2, 3>}
      : (tensor<4x2xf32>) -> (tensor<4x3xf32>, tensor<4xi64>)
  return
}

// -----

func.func @tree_ensemble_base(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op expects 2 base values or none, got 1}}
  %0 = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>, nodes_featureids = array<i64: 1, 0, 0>,
      nodes_splits = array<f64: 0.5, 0.0, 0.0>, nodes_truenodeids = array<i64: 1, 1, 2>,
      nodes_falsenodeids = array<i64: 2, 1, 2>, nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>, tree_roots = array<i64: 0>,
      leaf_nodeids = array<i64: 1>, leaf_targetids = array<i64: 0>, leaf_weights = array<f64: 1.0>,
      n_targets = 2 : i64, aggregate_function = #ms<tree_aggregate sum>, base_values = array<f64: 1.0>,
      post_transform = #ms<post_transform none>} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @svm_kernel_params(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{'ms.svm' op expects 3 kernel_params (gamma, coef0, degree), got 2}}
  %0 = ms.svm %x {kernel_type = #ms<svm_kernel rbf>, kernel_params = array<f64: 0.5, 0.0>,
      support_vectors = array<f64: 1.0, 2.0, 3.0, 4.0>, vectors_per_class = array<i64: 2>,
      coefficients = array<f64: 0.5, -0.5>, rho = array<f64: 0.1>, prob_a = array<f64>,
      prob_b = array<f64>, post_transform = #ms<post_transform none>} : (tensor<3x2xf32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @svm_vectors(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{'ms.svm' op expects 2 support vectors of 2 features, got 3 values}}
  %0 = ms.svm %x {kernel_type = #ms<svm_kernel rbf>, kernel_params = array<f64: 0.5, 0.0, 3.0>,
      support_vectors = array<f64: 1.0, 2.0, 3.0>, vectors_per_class = array<i64: 2>,
      coefficients = array<f64: 0.5, -0.5>, rho = array<f64: 0.1>, prob_a = array<f64>,
      prob_b = array<f64>, post_transform = #ms<post_transform none>} : (tensor<3x2xf32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @svm_regressor_coefficients(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{'ms.svm' op expects a regressor to have one vector group, one coefficient per vector, rho, no probabilities and no post_transform}}
  %0 = ms.svm %x {kernel_type = #ms<svm_kernel rbf>, kernel_params = array<f64: 0.5, 0.0, 3.0>,
      support_vectors = array<f64: 1.0, 2.0, 3.0, 4.0>, vectors_per_class = array<i64: 2>,
      coefficients = array<f64: 0.5>, rho = array<f64: 0.1>, prob_a = array<f64>,
      prob_b = array<f64>, post_transform = #ms<post_transform none>} : (tensor<3x2xf32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @svm_classifier_rho(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{'ms.svm' op expects 6 coefficients and 3 rho (and prob_a) values}}
  %0:2 = ms.svm %x {kernel_type = #ms<svm_kernel linear>, kernel_params = array<f64: 0.0, 0.0, 0.0>,
      support_vectors = array<f64: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>, vectors_per_class = array<i64: 1, 1, 1>,
      coefficients = array<f64: 0.5, -0.5, 0.25, 1.0, -1.0, 0.5>, rho = array<f64: 0.1>,
      prob_a = array<f64>, prob_b = array<f64>, post_transform = #ms<post_transform none>,
      class_labels = array<i64: 0, 1, 2>} : (tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3xi64>)
  return
}

// -----

func.func @interpolate_kept_dim(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{'ms.interpolate' op expects dim 1, which is not resized, to keep its size 1, got 2}}
  %0 = ms.interpolate %x {sizes = array<i64: 1, 2, 8, 8>, scales = array<f64: 1.0, 1.0, 2.0, 2.0>,
      axes = array<i64: 2, 3>, mode = #ms<interpolation linear>,
      coordinate_transformation_mode = #ms<resize_transform half_pixel>,
      nearest_modes = [#ms<nearest_mode floor>, #ms<nearest_mode floor>, #ms<nearest_mode floor>, #ms<nearest_mode floor>],
      roi = array<f64: 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0>, cubic_coeff_a = -0.75 : f64,
      extrapolation_value = 0.0 : f64} : (tensor<1x1x4x4xf32>) -> tensor<1x2x8x8xf32>
  return
}

// -----

func.func @interpolate_roi(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'ms.interpolate' op expects one scale and nearest mode per dim and a roi of 4 values}}
  %0 = ms.interpolate %x {sizes = array<i64: 8, 8>, scales = array<f64: 2.0, 2.0>,
      axes = array<i64: 0, 1>, mode = #ms<interpolation linear>,
      coordinate_transformation_mode = #ms<resize_transform tf_crop_and_resize>,
      nearest_modes = [#ms<nearest_mode floor>, #ms<nearest_mode floor>],
      roi = array<f64: 0.0, 1.0>, cubic_coeff_a = -0.75 : f64,
      extrapolation_value = 0.0 : f64} : (tensor<4x4xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @interpolate_scales(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'ms.interpolate' op expects positive finite scales}}
  %0 = ms.interpolate %x {sizes = array<i64: 8, 8>, scales = array<f64: 2.0, 0.0>,
      axes = array<i64: 0, 1>, mode = #ms<interpolation linear>,
      coordinate_transformation_mode = #ms<resize_transform half_pixel>,
      nearest_modes = [#ms<nearest_mode floor>, #ms<nearest_mode floor>],
      roi = array<f64: 0.0, 0.0, 1.0, 1.0>, cubic_coeff_a = -0.75 : f64,
      extrapolation_value = 0.0 : f64} : (tensor<4x4xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @det_square(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.det' op expects static square matrices [..., n, n] with n in [1, 64], got 'tensor<2x3xf32>'}}
  %0 = ms.det %x : (tensor<2x3xf32>) -> tensor<f32>
  return
}

// -----

func.func @hardmax_axes(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'ms.hardmax' op expects a static input and one axis or the dims from one axis to the last, got 'tensor<2x3x4xf32>' and axes [0, 1]}}
  %0 = ms.hardmax %x {axes = array<i64: 0, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @rotary_embedding_dim(%x: tensor<1x2x3x4xf32>, %c: tensor<1x3x2xf32>) {
  // expected-error @+1 {{'ms.rotary_embedding' op expects an even rotary_embedding_dim in [2, 4], got 3}}
  %0 = ms.rotary_embedding %x, %c, %c {num_heads = 0 : i64, rotary_embedding_dim = 3 : i64} : (tensor<1x2x3x4xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<1x2x3x4xf32>
  return
}

// -----

func.func @rotary_embedding_cache(%x: tensor<1x2x3x4xf32>, %c: tensor<1x3x1xf32>) {
  // expected-error @+1 {{'ms.rotary_embedding' op expects caches [B, S, 2], got 'tensor<1x3x1xf32>'}}
  %0 = ms.rotary_embedding %x, %c, %c {num_heads = 0 : i64, rotary_embedding_dim = 4 : i64} : (tensor<1x2x3x4xf32>, tensor<1x3x1xf32>, tensor<1x3x1xf32>) -> tensor<1x2x3x4xf32>
  return
}

// -----

func.func @tfidf_counts(%x: tensor<2x6xi64>) {
  // expected-error @+1 {{'ms.tfidf' op expects ngram_counts that split the pool into whole n-grams}}
  %0 = ms.tfidf %x {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = #ms<tfidf_mode tf>, ngram_counts = array<i64: 0, 1>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 3, 7>, weights = array<f64>} : (tensor<2x6xi64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @tfidf_weights(%x: tensor<2x6xi64>) {
  // expected-error @+1 {{'ms.tfidf' op expects no weights or one per output column (2), got 1}}
  %0 = ms.tfidf %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = #ms<tfidf_mode idf>, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 3, 7>, weights = array<f64: 1.0>} : (tensor<2x6xi64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @onnx_attention_heads(%q: tensor<1x3x3x4xf32>, %k: tensor<1x2x5x4xf32>) {
  // expected-error @+1 {{'ms.onnx_attention' op expects query [B, H, S, D], key [B, Hkv, T, D] and value [B, Hkv, T, Dv] with Hkv dividing H, got 'tensor<1x3x3x4xf32>', 'tensor<1x2x5x4xf32>' and 'tensor<1x2x5x4xf32>'}}
  %y, %qk = ms.onnx_attention %q, %k, %k {past_length = 0 : i64, qk_matmul_output_mode = 0 : i64, scale = 1.0 : f64, softcap = 0.0 : f64, softmax_type = f32} : (tensor<1x3x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>) -> (tensor<1x3x3x4xf32>, tensor<1x3x3x5xf32>)
  return
}

// -----

func.func @onnx_attention_mode(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x5x4xf32>) {
  // expected-error @+1 {{'ms.onnx_attention' op expects past_length in [0, 5] and qk_matmul_output_mode in [0, 3], got 0 and 4}}
  %y, %qk = ms.onnx_attention %q, %k, %k {past_length = 0 : i64, qk_matmul_output_mode = 4 : i64, scale = 1.0 : f64, softcap = 0.0 : f64, softmax_type = f32} : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>) -> (tensor<1x2x3x4xf32>, tensor<1x2x3x5xf32>)
  return
}

// -----

func.func @onnx_attention_mask(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x5x4xf32>, %m: tensor<3x6xi1>) {
  // expected-error @+1 {{'ms.onnx_attention' op expects a bool or 'f32' attn_mask of rank 1 to 4 with at most 5 columns, got 'tensor<3x6xi1>'}}
  %y, %qk = ms.onnx_attention %q, %k, %k, %m {past_length = 0 : i64, qk_matmul_output_mode = 0 : i64, scale = 1.0 : f64, softcap = 0.0 : f64, softmax_type = f32} : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<3x6xi1>) -> (tensor<1x2x3x4xf32>, tensor<1x2x3x5xf32>)
  return
}

// -----

func.func @reduce_l1_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.reduce_l1' op axes 2 is out of range}}
  %0 = ms.reduce_l1 %x {axes = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_log_sum_exp_type(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'ms.reduce_log_sum_exp' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  // expected-error @+1 {{'ms.reduce_log_sum_exp' op failed to infer returned types}}
  %0 = ms.reduce_log_sum_exp %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @log_softmax_axes(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'ms.log_softmax' op expects one axis or the dims from one axis to the last, got axes [0, 1] for 'tensor<2x3x4xf32>'}}
  %0 = ms.log_softmax %x {axes = array<i64: 0, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @rms_norm_stash(%x: tensor<2x8xf16>, %s: tensor<8xf16>) {
  // expected-error @+1 {{'ms.rms_norm' op expects a float stash_type, got 'i32'}}
  %0 = ms.rms_norm %x, %s {axis = -1 : i64, epsilon = 1.0E-5 : f64, stash_type = i32} : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
  return
}

// -----

func.func @rms_norm_scale(%x: tensor<2x8xf16>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'ms.rms_norm' op expects a scale of the input's element type 'f16', got 'tensor<8xf32>'}}
  %0 = ms.rms_norm %x, %s {axis = -1 : i64, epsilon = 1.0E-5 : f64, stash_type = f32} : (tensor<2x8xf16>, tensor<8xf32>) -> tensor<2x8xf16>
  return
}

// -----

func.func @one_hot_values(%i: tensor<3xi64>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'ms.one_hot' op expects values holding [off_value, on_value], got 'tensor<3xf32>'}}
  %0 = ms.one_hot %i, %v {depth = 4 : i64, axis = -1 : i64} : (tensor<3xi64>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @one_hot_depth(%i: tensor<3xi64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'ms.one_hot' op expects a depth in [1, 65536], got 0}}
  %0 = ms.one_hot %i, %v {depth = 0 : i64, axis = -1 : i64} : (tensor<3xi64>, tensor<2xf32>) -> tensor<3x0xf32>
  return
}

// -----

func.func @reverse_sequence_axes(%x: tensor<4x3x2xf32>, %lens: tensor<3xi64>) {
  // expected-error @+1 {{'ms.reverse_sequence' op expects a static input of rank >= 2 and batch_axis/time_axis 0 and 1, got 'tensor<4x3x2xf32>' with batch_axis 2 and time_axis 0}}
  %0 = ms.reverse_sequence %x, %lens {batch_axis = 2 : i64, time_axis = 0 : i64} : (tensor<4x3x2xf32>, tensor<3xi64>) -> tensor<4x3x2xf32>
  return
}

// -----

func.func @reverse_sequence_lens(%x: tensor<4x3x2xf32>, %lens: tensor<4xi64>) {
  // expected-error @+1 {{'ms.reverse_sequence' op expects sequence_lens of type tensor<3xi64>, got 'tensor<4xi64>'}}
  %0 = ms.reverse_sequence %x, %lens {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x3x2xf32>, tensor<4xi64>) -> tensor<4x3x2xf32>
  return
}

// -----

func.func @tensor_scatter_fit(%past: tensor<2x5x4xf32>, %update: tensor<2x6x4xf32>) {
  // expected-error @+1 {{'ms.tensor_scatter' op expects an update 'tensor<2x6x4xf32>' that fits past_cache 'tensor<2x5x4xf32>' along axis 1}}
  %0 = ms.tensor_scatter %past, %update {axis = 1 : i64} : (tensor<2x5x4xf32>, tensor<2x6x4xf32>) -> tensor<2x5x4xf32>
  return
}

// -----

func.func @tensor_scatter_batch_axis(%past: tensor<2x5x4xf32>, %update: tensor<2x5x4xf32>) {
  // expected-error @+1 {{'ms.tensor_scatter' op expects an axis other than the batch axis 0}}
  %0 = ms.tensor_scatter %past, %update {axis = 0 : i64} : (tensor<2x5x4xf32>, tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  return
}

// -----

func.func @max_unpool_indices(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi32>) {
  // expected-error @+1 {{'ms.max_unpool' op expects int64 indices of the input's shape 'tensor<1x1x2x2xf32>', got 'tensor<1x1x2x2xi32>'}}
  %0 = ms.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, output_shape = array<i64>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @max_unpool_output_shape(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) {
  // expected-error @+1 {{'ms.max_unpool' op expects output_shape [1, 1, 3, 3] to keep N and C and be at least the unpooled shape [1, 1, 4, 4]}}
  %0 = ms.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, output_shape = array<i64: 1, 1, 3, 3>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @max_pool_indices_window(%x: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{'ms.max_pool_indices' op expects a window that fits the padded input 'tensor<1x1x2x2xf32>'}}
  %0 = ms.max_pool_indices %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xi64>
  return
}

// -----

func.func @conv_transpose_output_shape(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'ms.conv_transpose' op expects 'output_shape' to have 2 entries, got 3}}
  %0 = ms.conv_transpose %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, output_shape = array<i64: 8, 8, 8>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return
}

// -----

func.func @einsum_ellipsis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.einsum' op expects term 'i...jk' of 'i...jk' to label each of the 2 dims of operand 0}}
  %0 = ms.einsum %a {equation = "i...jk"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_l2_duplicate(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.reduce_l2' op axes contains dimension 1 more than once}}
  %0 = ms.reduce_l2 %x {axes = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_sum_square_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.reduce_sum_square' op axes -3 is out of range}}
  %0 = ms.reduce_sum_square %x {axes = array<i64: -3>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_log_sum_type(%x: tensor<2x3xi1>) {
  // expected-error @+1 {{'ms.reduce_log_sum' op operand #0 must be ranked tensor of}}
  %0 = ms.reduce_log_sum %x : (tensor<2x3xi1>) -> tensor<i1>
  return
}

// -----

func.func @reshape_symbolic_rank(%x: tensor<?x32xf32>) -> tensor<?x4x8xf32> {
  // expected-error @+1 {{'ms.reshape' op expects 'symbolic_shape' to have no dims and one result per 'shape' entry (3), got affine_map<()[s0] -> (s0, 32)>}}
  %0 = ms.reshape %x {shape = array<i64: -9223372036854775808, 4, 8>, symbolic_shape = affine_map<()[s0] -> (s0, 32)>} : (tensor<?x32xf32>) -> tensor<?x4x8xf32>
  return %0 : tensor<?x4x8xf32>
}

// -----

func.func @reshape_symbolic_static_entry(%x: tensor<?x32xf32>) -> tensor<?x32xf32> {
  // expected-error @+1 {{'ms.reshape' op expects 'shape' entry 1 to be 32 as 'symbolic_shape' says, got 16}}
  %0 = ms.reshape %x {shape = array<i64: -9223372036854775808, 16>, symbolic_shape = affine_map<()[s0] -> (s0, 32)>} : (tensor<?x32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

func.func @reshape_symbolic_dynamic_entry(%x: tensor<?x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'ms.reshape' op expects 'shape' entry 0 to be ? as 'symbolic_shape' says, got 4}}
  %0 = ms.reshape %x {shape = array<i64: 4, 32>, symbolic_shape = affine_map<()[s0] -> (s0, 32)>} : (tensor<?x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

func.func @shape_of_range(%x: tensor<?x32xf32>) -> tensor<3xi64> {
  // expected-error @+1 {{'ms.shape_of' op expects 0 <= start <= end <= rank (2), got start 0 and end 3}}
  %0 = ms.shape_of %x {start = 0 : i64, end = 3 : i64} : (tensor<?x32xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @slice_symbolic_entry(%x: tensor<1x512xi64>) -> tensor<1x?xi64> {
  // expected-error @+1 {{'ms.slice' op expects 'sizes' entry 1 to be ? as 'symbolic_sizes' says, got 8}}
  %0 = ms.slice %x {starts = array<i64: 0, 0>, sizes = array<i64: 1, 8>, steps = array<i64: 1, 1>, symbolic_sizes = affine_map<()[s0] -> (1, s0)>} : (tensor<1x512xi64>) -> tensor<1x?xi64>
  return %0 : tensor<1x?xi64>
}

// -----

func.func @slice_symbolic_start_entry(%x: tensor<1x?xi64>) -> tensor<1x1xi64> {
  // expected-error @+1 {{'ms.slice' op expects 'starts' entry 1 to be ? as 'symbolic_starts' says, got 3}}
  %0 = ms.slice %x {starts = array<i64: 0, 3>, sizes = array<i64: 1, 1>, steps = array<i64: 1, 1>, symbolic_starts = affine_map<()[s0] -> (0, s0 - 1)>} : (tensor<1x?xi64>) -> tensor<1x1xi64>
  return %0 : tensor<1x1xi64>
}

// -----

func.func @slice_symbolic_starts_rank(%x: tensor<1x?xi64>) -> tensor<1x1xi64> {
  // expected-error @+1 {{'ms.slice' op expects 'symbolic_starts' to have no dims and one result per 'starts' entry (2), got affine_map<()[s0] -> (s0 - 1)>}}
  %0 = ms.slice %x {starts = array<i64: 0, -9223372036854775808>, sizes = array<i64: 1, 1>, steps = array<i64: 1, 1>, symbolic_starts = affine_map<()[s0] -> (s0 - 1)>} : (tensor<1x?xi64>) -> tensor<1x1xi64>
  return %0 : tensor<1x1xi64>
}

// -----

func.func @pad_symbolic_entry(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'ms.pad' op expects 'pads' entry 2 to be ? as 'symbolic_pads' says, got 0}}
  %0 = ms.pad %x {pads = array<i64: 0, 0, 0, 0>, symbolic_pads = affine_map<()[s0] -> (0, 0, 16 - s0, 0)>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @range_results() -> tensor<?xi64> {
  // expected-error @+1 {{'ms.range' op expects 'symbolic_range' to have no dims and two results (the start and the number of elements), got affine_map<()[s0] -> (s0)>}}
  %0 = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0] -> (s0)>} : tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @range_delta() -> tensor<?xi64> {
  // expected-error @+1 {{'ms.range' op expects a non-zero delta}}
  %0 = ms.range {delta = 0 : i64, symbolic_range = affine_map<()[s0] -> (0, s0)>} : tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @range_static_count() -> tensor<4xi64> {
  // expected-error @+1 {{'ms.range' op expects a result of ? elements as 'symbolic_range' says, got 'tensor<4xi64>'}}
  %0 = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0] -> (0, s0)>} : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @range_rank() -> tensor<?x2xi64> {
  // expected-error @+1 {{'ms.range' op expects a 1-D result, got 'tensor<?x2xi64>'}}
  %0 = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0] -> (0, s0)>} : tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// -----

func.func @range_negative_count() -> tensor<0xi64> {
  // expected-error @+1 {{'ms.range' op expects a non-negative number of elements, got -2}}
  %0 = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0] -> (0, -2)>} : tensor<0xi64>
  return %0 : tensor<0xi64>
}

// -----

func.func @scaler_offsets(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.scaler' op has 2 offset values for 3 features}}
  %0 = ms.scaler %x {offset = array<f64: 1.0, 2.0>, scale = array<f64: 0.5>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @normalizer_rank(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'ms.normalizer' op expects X of rank 1 or 2, got 'tensor<2x3x4xf32>'}}
  %0 = ms.normalizer %x {norm = #ms<ml_norm max>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @imputer_type(%x: tensor<3x2xi32>) {
  // expected-error @+1 {{'ms.imputer' op expects a float or int64 input, got 'tensor<3x2xi32>'}}
  %0 = ms.imputer %x {imputed_values = array<f64: 1.0>, replaced_value = 0.0 : f64} : (tensor<3x2xi32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @imputer_values(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{'ms.imputer' op has 3 imputed values for 2 features}}
  %0 = ms.imputer %x {imputed_values = array<f64: 1.0, 2.0, 3.0>, replaced_value = 0.0 : f64} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @one_hot_encoder_empty(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.one_hot_encoder' op needs categories}}
  %0 = ms.one_hot_encoder %x {categories = array<i64>} : (tensor<4xi64>) -> tensor<4x0xf32>
  return
}

// -----

func.func @label_encoder_duplicate(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.label_encoder' op lists the key 3 twice}}
  %0 = ms.label_encoder %x {keys = dense<[3, 5, 3]> : tensor<3xi64>, values = dense<[0.5, 1.5, 2.5]> : tensor<3xf32>, default_value = dense<-1.0> : tensor<f32>} : (tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @label_encoder_nan_twice(%x: tensor<2xf32>) {
  // expected-error @+1 {{'ms.label_encoder' op lists the key nan twice}}
  %0 = ms.label_encoder %x {keys = dense<[0x7FC00000, 0x7FC00000]> : tensor<2xf32>, values = dense<[3, 4]> : tensor<2xi64>, default_value = dense<-1> : tensor<i64>, nan_matches_nan} : (tensor<2xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @label_encoder_key_type(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ms.label_encoder' op has keys of type 'i64' for an input of type 'tensor<4xi32>'}}
  %0 = ms.label_encoder %x {keys = dense<[1, 5, 3]> : tensor<3xi64>, values = dense<[0.5, 1.5, 2.5]> : tensor<3xf32>, default_value = dense<-1.0> : tensor<f32>} : (tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @label_encoder_values(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.label_encoder' op has 3 keys and 2 values (one per key, at least one)}}
  %0 = ms.label_encoder %x {keys = dense<[1, 5, 3]> : tensor<3xi64>, values = dense<[0.5, 1.5]> : tensor<2xf32>, default_value = dense<-1.0> : tensor<f32>} : (tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @label_encoder_default(%x: tensor<4xi64>) {
  // expected-error @+1 {{'ms.label_encoder' op expects a default_value of one 'f32', got 'tensor<i64>'}}
  %0 = ms.label_encoder %x {keys = dense<[1, 5, 3]> : tensor<3xi64>, values = dense<[0.5, 1.5, 2.5]> : tensor<3xf32>, default_value = dense<-1> : tensor<i64>} : (tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @linear_regressor_coefficients(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.linear_regressor' op has 5 coefficients for 2 targets of 3 features}}
  %0 = ms.linear_regressor %x {coefficients = array<f64: 1.0, 2.0, 3.0, 4.0, 5.0>, intercepts = array<f64>, targets = 2 : i64, post_transform = #ms<post_transform none>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @linear_regressor_intercepts(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.linear_regressor' op has 2 intercepts for 1 targets}}
  %0 = ms.linear_regressor %x {coefficients = array<f64: 1.0, 2.0, 3.0>, intercepts = array<f64: 1.0, 2.0>, targets = 1 : i64, post_transform = #ms<post_transform none>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @linear_classifier_labels(%x: tensor<2x2xf32>) {
  // expected-error @+1 {{'ms.linear_classifier' op has 2 class labels for 3 scores}}
  %0:2 = ms.linear_classifier %x {coefficients = array<f64: 1.0, -1.0, 0.5, 0.5, 0.0, 2.0>, intercepts = array<f64: 0.0, 0.1, 0.2>, class_labels = array<i64: 3, 7>, post_transform = #ms<post_transform none>} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x3xf32>)
  return
}

// -----

func.func @linear_classifier_probit(%x: tensor<2x2xf32>) {
  // expected-error @+1 {{'ms.linear_classifier' op expects a classifier not to use probit}}
  %0:2 = ms.linear_classifier %x {coefficients = array<f64: 1.0, -1.0, 0.5, 0.5>, intercepts = array<f64: 0.0, 0.1>, class_labels = array<i64: 3, 7>, post_transform = #ms<post_transform probit>} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>)
  return
}

// -----

func.func @adagrad_groups(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>) {
  // expected-error @+1 {{'ms.adagrad' op expects 3 groups of tensors of one size each, got 2 tensors}}
  %0:2 = ms.adagrad %r, %t, %x, %g {decay_factor = 0.0 : f64, epsilon = 1.0e-06 : f64, norm_coefficient = 0.0 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @momentum_shapes(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<3xf32>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'ms.momentum' op expects tensor 1 to have the shape and type of tensor 0 ('tensor<2xf32>'), got 'tensor<3xf32>'}}
  %0:2 = ms.momentum %r, %t, %x, %g, %v {alpha = 0.9 : f64, beta = 0.1 : f64, norm_coefficient = 0.0 : f64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @adam_rate(%r: tensor<2xf32>, %t: tensor<i64>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'ms.adam' op expects a float scalar R, got 'tensor<2xf32>'}}
  %0:3 = ms.adam %r, %t, %x, %x, %x, %x {alpha = 0.9 : f64, beta = 0.999 : f64, epsilon = 1.0e-06 : f64, norm_coefficient = 0.0 : f64, norm_coefficient_post = 0.0 : f64} : (tensor<2xf32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @bernoulli_dynamic(%p: tensor<?xf32>) {
  // expected-error @+1 {{'ms.bernoulli' op expects probabilities of a static shape, got 'tensor<?xf32>'}}
  %0 = ms.bernoulli %p {element_type = f32, stream = 0 : i64} : (tensor<?xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @multinomial_samples(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.multinomial' op expects sample_size >= 1, got 0}}
  %0 = ms.multinomial %x {sample_size = 0 : i64, element_type = i64, stream = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x0xi64>
  return
}

// -----

func.func @multinomial_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ms.multinomial' op expects element_type i32 or i64, got 'f32'}}
  %0 = ms.multinomial %x {sample_size = 2 : i64, element_type = f32, stream = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x2xi64>
  return
}

// -----

func.func @quantize_linear_type(%x: tensor<2x3xf32>, %scale: tensor<f32>) {
  // expected-error @+1 {{'ms.quantize_linear' op cannot quantize to 'i32'}}
  %0 = ms.quantize_linear %x, %scale {element_type = i32} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @quantize_linear_axis_scale(%x: tensor<2x3xf32>, %scale: tensor<2xf32>) {
  // expected-error @+1 {{'ms.quantize_linear' op scale 'tensor<2xf32>' must be a scalar or 1-D with 3 elements (the input's extent along axis 1)}}
  %0 = ms.quantize_linear %x, %scale {element_type = i8} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_linear_blocks(%x: tensor<2x3xf32>, %scale: tensor<2x1xf32>) {
  // expected-error @+1 {{'ms.quantize_linear' op scale 'tensor<2x1xf32>' does not match blocks of 2 along axis 1 of 'tensor<2x3xf32>'}}
  %0 = ms.quantize_linear %x, %scale {block_size = 2 : i64, element_type = i8} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_linear_negative_block(%x: tensor<2x3xf32>, %scale: tensor<2x1xf32>) {
  // expected-error @+1 {{'ms.quantize_linear' op block_size must be >= 0, got -2}}
  %0 = ms.quantize_linear %x, %scale {block_size = -2 : i64, element_type = i8} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_linear_block_rank(%x: tensor<2x3xf32>, %scale: tensor<2xf32>) {
  // expected-error @+1 {{'ms.quantize_linear' op scale 'tensor<2xf32>' must have the input's rank for block_size 2}}
  %0 = ms.quantize_linear %x, %scale {block_size = 2 : i64, element_type = i8} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_linear_axis(%x: tensor<2x3xf32>, %scale: tensor<3xf32>) {
  // expected-error @+1 {{'ms.quantize_linear' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.quantize_linear %x, %scale {axis = 2 : i64, element_type = i8} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_linear_zero_point_shape(%x: tensor<2x3xf32>, %scale: tensor<3xf32>, %zero: tensor<i8>) {
  // expected-error @+1 {{'ms.quantize_linear' op zero point 'tensor<i8>' must have the scale's shape 'tensor<3xf32>'}}
  %0 = ms.quantize_linear %x, %scale, %zero {element_type = i8} : (tensor<2x3xf32>, tensor<3xf32>, tensor<i8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_linear_zero_point_type(%x: tensor<2x3xf32>, %scale: tensor<f32>, %zero: tensor<ui8>) {
  // expected-error @+1 {{'ms.quantize_linear' op zero point 'tensor<ui8>' must have element type 'i8'}}
  %0 = ms.quantize_linear %x, %scale, %zero {element_type = i8} : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @dequantize_linear_type(%x: tensor<2x3xi64>, %scale: tensor<f32>) {
  // expected-error @+1 {{'ms.dequantize_linear' op expects an integer, 8-bit float or FLOAT4E2M1 input, got 'tensor<2x3xi64>'}}
  %0 = ms.dequantize_linear %x, %scale : (tensor<2x3xi64>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dequantize_linear_zero_point_type(%x: tensor<2x3xi8>, %scale: tensor<f32>, %zero: tensor<ui8>) {
  // expected-error @+1 {{'ms.dequantize_linear' op zero point 'tensor<ui8>' must have element type 'i8'}}
  %0 = ms.dequantize_linear %x, %scale, %zero : (tensor<2x3xi8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dynamic_quantize_linear_shape(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'ms.dynamic_quantize_linear' op inferred type(s) 'tensor<2x3xui8>', 'tensor<f32>', 'tensor<ui8>' are incompatible with return type(s) of operation 'tensor<3x2xui8>', 'tensor<f32>', 'tensor<ui8>'}}
  // expected-error @+1 {{'ms.dynamic_quantize_linear' op failed to infer returned types}}
  %0:3 = ms.dynamic_quantize_linear %x : (tensor<2x3xf32>) -> (tensor<3x2xui8>, tensor<f32>, tensor<ui8>)
  return
}

// -----

func.func @tree_ensemble_vote_target(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op vote 1 has target 3 of 1}}
  %0 = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>,
      nodes_featureids = array<i64: 1, 0, 0>, nodes_splits = array<f64: 0.5, 0.0, 0.0>,
      nodes_truenodeids = array<i64: 1, 1, 2>, nodes_falsenodeids = array<i64: 2, 1, 2>,
      nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>,
      tree_roots = array<i64: 0>, leaf_nodeids = array<i64: 1, 2>,
      leaf_targetids = array<i64: 0, 3>, leaf_weights = array<f64: 1.0, 2.0>,
      n_targets = 1 : i64, aggregate_function = #ms<tree_aggregate sum>,
      base_values = array<f64>, post_transform = #ms<post_transform none>}
      : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @tree_ensemble_no_trees(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op has no trees}}
  %0 = ms.tree_ensemble %x {nodes_modes = array<i64: -1>,
      nodes_featureids = array<i64: 0>, nodes_splits = array<f64: 0.0>,
      nodes_truenodeids = array<i64: 0>, nodes_falsenodeids = array<i64: 0>,
      nodes_missing_value_tracks_true = array<i1: false>,
      membership_sizes = array<i64: 0>, membership_values = array<f64>,
      tree_roots = array<i64>, leaf_nodeids = array<i64>,
      leaf_targetids = array<i64>, leaf_weights = array<f64>,
      n_targets = 1 : i64, aggregate_function = #ms<tree_aggregate sum>,
      base_values = array<f64>, post_transform = #ms<post_transform none>}
      : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @tree_ensemble_table(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'ms.tree_ensemble' op has 1 nodes x 100000000 targets (and 0 membership values); at most 67108864 table elements are supported}}
  %0 = ms.tree_ensemble %x {nodes_modes = array<i64: -1>,
      nodes_featureids = array<i64: 0>, nodes_splits = array<f64: 0.0>,
      nodes_truenodeids = array<i64: 0>, nodes_falsenodeids = array<i64: 0>,
      nodes_missing_value_tracks_true = array<i1: false>,
      membership_sizes = array<i64: 0>, membership_values = array<f64>,
      tree_roots = array<i64: 0>, leaf_nodeids = array<i64>,
      leaf_targetids = array<i64>, leaf_weights = array<f64>,
      n_targets = 100000000 : i64, aggregate_function = #ms<tree_aggregate sum>,
      base_values = array<f64>, post_transform = #ms<post_transform none>}
      : (tensor<4x2xf32>) -> tensor<4x100000000xf32>
  return
}
