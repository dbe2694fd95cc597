// RUN: ms-opt %s -split-input-file -canonicalize | FileCheck %s

// Constant folding of ms ops on dense constants: the shape arithmetic that ONNX exporters emit
// (Shape -> Gather -> Sub -> Mod -> Concat -> Reshape -> Slice -> Transpose -> Cast) folds to one
// constant, with numpy broadcasting and the element type's signedness.

// A window-attention padding computation: pad = (7 - dim % 7) % 7 for dims 10 and 12, laid out
// the way PyTorch's F.pad export does (reversed pairs, then transposed and flattened).
// CHECK-LABEL: func @window_pads
// CHECK-NEXT: %[[C:.+]] = ms.constant dense<[0, 0, 0, 0, 0, 0, 2, 4]> : tensor<8xi64>
// CHECK-NEXT: return %[[C]]
func.func @window_pads() -> tensor<8xi64> {
  %shape = ms.constant dense<[1, 10, 12, 8]> : tensor<4xi64>
  %idx = ms.constant dense<[1, 2]> : tensor<2xi64>
  %hw = ms.gather %shape, %idx : (tensor<4xi64>, tensor<2xi64>) -> tensor<2xi64>
  %seven = ms.constant dense<7> : tensor<i64>
  %m = ms.mod %hw, %seven : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %s = ms.sub %seven, %m : (tensor<i64>, tensor<2xi64>) -> tensor<2xi64>
  %p = ms.mod %s, %seven : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %zeros = ms.constant dense<0> : tensor<6xi64>
  %r1 = ms.reshape %p {shape = array<i64: 2, 1>} : (tensor<2xi64>) -> tensor<2x1xi64>
  %z0 = ms.constant dense<0> : tensor<2x1xi64>
  %pairs0 = ms.concat %z0, %r1 {axis = 1 : i64} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x2xi64>
  %rest = ms.reshape %zeros {shape = array<i64: 3, 2>} : (tensor<6xi64>) -> tensor<3x2xi64>
  %pairs = ms.concat %pairs0, %rest {axis = 0 : i64} : (tensor<2x2xi64>, tensor<3x2xi64>) -> tensor<5x2xi64>
  %rev = ms.slice %pairs {starts = array<i64: 3, 0>, sizes = array<i64: 4, 2>, steps = array<i64: -1, 1>} : (tensor<5x2xi64>) -> tensor<4x2xi64>
  %t = ms.transpose %rev {perms = array<i64: 1, 0>} : (tensor<4x2xi64>) -> tensor<2x4xi64>
  %flat = ms.reshape %t {shape = array<i64: 8>} : (tensor<2x4xi64>) -> tensor<8xi64>
  return %flat : tensor<8xi64>
}

// -----

// Integer division truncates toward zero; Python's modulo takes the divisor's sign, fmod the
// dividend's.
// CHECK-LABEL: func @div_mod_signs
// CHECK-DAG: ms.constant dense<[-3, -3, 3, 3]> : tensor<4xi32>
// CHECK-DAG: ms.constant dense<[2, -2, 1, -1]> : tensor<4xi32>
// CHECK-DAG: ms.constant dense<[-1, 1, 1, -1]> : tensor<4xi32>
// CHECK-NOT: ms.div
// CHECK-NOT: ms.mod
func.func @div_mod_signs() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %a = ms.constant dense<[-7, 7, -7, 7]> : tensor<4xi32>
  %b = ms.constant dense<[2, -2, -2, 2]> : tensor<4xi32>
  %q = ms.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %x = ms.constant dense<[-7, 7, 7, -7]> : tensor<4xi32>
  %y = ms.constant dense<[3, -3, 3, -3]> : tensor<4xi32>
  %m = ms.mod %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %f = ms.mod %x, %y {fmod} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %q, %m, %f : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// A division or remainder by zero is left to the generated code.
// CHECK-LABEL: func @div_by_zero
// CHECK: ms.div
// CHECK: ms.mod
func.func @div_by_zero() -> (tensor<2xi64>, tensor<2xi64>) {
  %a = ms.constant dense<[6, 7]> : tensor<2xi64>
  %b = ms.constant dense<[3, 0]> : tensor<2xi64>
  %q = ms.div %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %m = ms.mod %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %q, %m : tensor<2xi64>, tensor<2xi64>
}

// -----

// Unsigned elements divide, compare and take max/min as unsigned (200 is not -56).
// CHECK-LABEL: func @unsigned_arith
// CHECK-DAG: ms.constant dense<[100, 0]> : tensor<2xui8>
// CHECK-DAG: ms.constant dense<[200, 4]> : tensor<2xui8>
// CHECK-DAG: ms.constant dense<[false, true]> : tensor<2xi1>
// CHECK-DAG: ms.constant dense<[-28, 1]> : tensor<2xi8>
func.func @unsigned_arith() -> (tensor<2xui8>, tensor<2xui8>, tensor<2xi1>, tensor<2xi8>) {
  %a = ms.constant dense<[200, 3]> : tensor<2xui8>
  %b = ms.constant dense<[2, 4]> : tensor<2xui8>
  %q = ms.div %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %m = ms.max %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %lt = ms.compare lt, %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  %s = ms.constant dense<[-56, 3]> : tensor<2xi8>
  %sb = ms.constant dense<[2, 2]> : tensor<2xi8>
  %sq = ms.div %s, %sb : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  return %q, %m, %lt, %sq : tensor<2xui8>, tensor<2xui8>, tensor<2xi1>, tensor<2xi8>
}

// -----

// Comparisons broadcast; NaN compares unequal to everything.
// CHECK-LABEL: func @compare_where
// CHECK-DAG: ms.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: ms.constant dense<[0, 5, 2]> : tensor<3xi64>
// CHECK-NOT: ms.where
func.func @compare_where() -> (tensor<3xi1>, tensor<3xi64>) {
  %x = ms.constant dense<[2.0, 0x7FC00000, 3.0]> : tensor<3xf32>
  %y = ms.constant dense<2.0> : tensor<f32>
  %ne = ms.compare ne, %x, %y : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %a = ms.constant dense<[0, 1, 2]> : tensor<3xi64>
  %one = ms.constant dense<1> : tensor<i64>
  %eq = ms.compare eq, %a, %one : (tensor<3xi64>, tensor<i64>) -> tensor<3xi1>
  %five = ms.constant dense<5> : tensor<i64>
  %w = ms.where %eq, %five, %a : (tensor<3xi1>, tensor<i64>, tensor<3xi64>) -> tensor<3xi64>
  return %ne, %w : tensor<3xi1>, tensor<3xi64>
}

// -----

// Casts follow ONNX: float to int truncates toward zero, to bool is x != 0; int64 to int32 wraps.
// CHECK-LABEL: func @casts
// CHECK-DAG: ms.constant dense<[-2, 2, 0]> : tensor<3xi32>
// CHECK-DAG: ms.constant dense<[true, true, false]> : tensor<3xi1>
// CHECK-DAG: ms.constant dense<[-2.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-DAG: ms.constant dense<[-1, 255]> : tensor<2xi32>
func.func @casts() -> (tensor<3xi32>, tensor<3xi1>, tensor<2xf32>, tensor<2xi32>) {
  %f = ms.constant dense<[-2.7, 2.7, 0.0]> : tensor<3xf32>
  %i = ms.cast %f : tensor<3xf32> to tensor<3xi32>
  %b = ms.cast %f : tensor<3xf32> to tensor<3xi1>
  %n = ms.constant dense<[-2, 4]> : tensor<2xi64>
  %nf = ms.cast %n : tensor<2xi64> to tensor<2xf32>
  %big = ms.constant dense<[4294967295, 255]> : tensor<2xi64>
  %w = ms.cast %big : tensor<2xi64> to tensor<2xi32>
  return %i, %b, %nf, %w : tensor<3xi32>, tensor<3xi1>, tensor<2xf32>, tensor<2xi32>
}

// -----

// Casts from and to the 8-bit and 4-bit floats are not folded: they depend on saturate and
// round_mode, which the generated code applies. Between integers, int4 wraps.
// CHECK-LABEL: func @cast_narrow
// CHECK-DAG: ms.constant dense<[7, -1]> : tensor<2xi4>
// CHECK-DAG: ms.cast %{{.+}} {saturate} : tensor<2xf32> to tensor<2xf8E4M3FN>
// CHECK-DAG: ms.cast %{{.+}} : tensor<2xf8E5M2> to tensor<2xf32>
func.func @cast_narrow() -> (tensor<2xf8E4M3FN>, tensor<2xf32>, tensor<2xi4>) {
  %f = ms.constant dense<[1000.0, 1.0]> : tensor<2xf32>
  %a = ms.cast %f {saturate} : tensor<2xf32> to tensor<2xf8E4M3FN>
  %e = ms.constant dense<[2.0, 1.0]> : tensor<2xf8E5M2>
  %b = ms.cast %e : tensor<2xf8E5M2> to tensor<2xf32>
  %n = ms.constant dense<[-9, 15]> : tensor<2xi32>
  %c = ms.cast %n : tensor<2xi32> to tensor<2xi4>
  return %a, %b, %c : tensor<2xf8E4M3FN>, tensor<2xf32>, tensor<2xi4>
}

// -----

// A float that does not fit the integer type is not folded (ONNX leaves it undefined).
// CHECK-LABEL: func @cast_out_of_range
// CHECK: ms.cast
func.func @cast_out_of_range() -> tensor<1xi8> {
  %f = ms.constant dense<300.0> : tensor<1xf32>
  %i = ms.cast %f : tensor<1xf32> to tensor<1xi8>
  return %i : tensor<1xi8>
}

// -----

// Element counts: reduce_prod of a shape, unsqueeze, expand, neg, abs, floor.
// CHECK-LABEL: func @reductions_and_shapes
// CHECK-DAG: ms.constant dense<120> : tensor<i64>
// CHECK-DAG: ms.constant dense<{{\[}}[6], [20]]> : tensor<2x1xi64>
// CHECK-DAG: ms.constant dense<{{\[}}[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi64>
// CHECK-DAG: ms.constant dense<[3, -3]> : tensor<2xi64>
// CHECK-DAG: ms.constant dense<[2.000000e+00, -3.000000e+00]> : tensor<2xf32>
func.func @reductions_and_shapes() -> (tensor<i64>, tensor<2x1xi64>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xf32>) {
  %s = ms.constant dense<[2, 3, 4, 5]> : tensor<4xi64>
  %p = ms.reduce_prod %s : (tensor<4xi64>) -> tensor<i64>
  %m = ms.reshape %s {shape = array<i64: 2, 2>} : (tensor<4xi64>) -> tensor<2x2xi64>
  %rows = ms.reduce_prod %m {axes = array<i64: 1>, keep_dims} : (tensor<2x2xi64>) -> tensor<2x1xi64>
  %r = ms.constant dense<[1, 2, 3]> : tensor<3xi64>
  %e = ms.expand %r {shape = array<i64: 2, 3>} : (tensor<3xi64>) -> tensor<2x3xi64>
  %v = ms.constant dense<[-3, 3]> : tensor<2xi64>
  %a = ms.abs %v : tensor<2xi64>
  %n = ms.neg %v : tensor<2xi64>
  %sum = ms.add %a, %n : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %z = ms.sub %a, %sum : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %k = ms.mul %z, %v : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %kk = ms.div %k, %v : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %kn = ms.neg %v : tensor<2xi64>
  %f = ms.constant dense<[2.5, -2.5]> : tensor<2xf32>
  %fl = ms.floor %f : tensor<2xf32>
  %c = ms.ceil %fl : tensor<2xf32>
  return %p, %rows, %e, %kn, %c : tensor<i64>, tensor<2x1xi64>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xf32>
}

// -----

// Float reductions fold by max and min (exact in any order; NaN wins), not by sum; a concat with a
// negative axis over constants folds.
// CHECK-LABEL: func @float_max_min_negative_concat
// CHECK-DAG: ms.constant dense<[4.000000e+00, 0x7FC00000]> : tensor<2xf32>
// CHECK-DAG: ms.constant dense<[-1.000000e+00, 0x7FC00000]> : tensor<2xf32>
// CHECK-DAG: ms.constant dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi64>
// CHECK: ms.reduce_sum
func.func @float_max_min_negative_concat() -> (tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<2x2xi64>) {
  %f = ms.constant dense<[[4.0, -1.0, 2.0], [1.0, 0x7FC00000, 3.0]]> : tensor<2x3xf32>
  %max = ms.reduce_max %f {axes = array<i64: -1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %min = ms.reduce_min %f {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %sum = ms.reduce_sum %f : (tensor<2x3xf32>) -> tensor<f32>
  %a = ms.constant dense<[[1], [2]]> : tensor<2x1xi64>
  %b = ms.constant dense<[[3], [4]]> : tensor<2x1xi64>
  %c = ms.concat %a, %b {axis = -1 : i64} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x2xi64>
  return %max, %min, %sum, %c : tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<2x2xi64>
}

// -----

// Shifts see the amount as unsigned; past the width they give 0.
// CHECK-LABEL: func @shifts_bits
// CHECK-DAG: ms.constant dense<[4, 0, 64]> : tensor<3xui8>
// CHECK-DAG: ms.constant dense<[false, true]> : tensor<2xi1>
func.func @shifts_bits() -> (tensor<3xui8>, tensor<2xi1>) {
  %x = ms.constant dense<[1, 1, 128]> : tensor<3xui8>
  %y = ms.constant dense<[2, 8, 1]> : tensor<3xui8>
  %l = ms.shift_left %x, %y : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  %r = ms.shift_right %x, %y : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  %sum = ms.or %l, %r : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  %b = ms.constant dense<[true, false]> : tensor<2xi1>
  %nb = ms.not %b : tensor<2xi1>
  return %sum, %nb : tensor<3xui8>, tensor<2xi1>
}

// -----

// ms.tile of a constant (a shape tensor repeated): element i is element i mod shape of the input;
// repeats of all ones fold to the input itself.
// CHECK-LABEL: func.func @tile_constant
// CHECK: %[[C:.+]] = ms.constant dense<{{\[\[}}1, 2, 1, 2, 1, 2], [3, 4, 3, 4, 3, 4], [1, 2, 1, 2, 1, 2], [3, 4, 3, 4, 3, 4]]> : tensor<4x6xi64>
// CHECK-NEXT: return %[[C]], %arg0
func.func @tile_constant(%x: tensor<2x2xf32>) -> (tensor<4x6xi64>, tensor<2x2xf32>) {
  %c = ms.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %t = ms.tile %c {repeats = array<i64: 2, 3>} : (tensor<2x2xi64>) -> tensor<4x6xi64>
  %same = ms.tile %x {repeats = array<i64: 1, 1>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %t, %same : tensor<4x6xi64>, tensor<2x2xf32>
}

// -----

// Clip folds on constants of every element type, with either bound alone (TF "same" padding
// exported as a clamp of the pad sizes): signed, unsigned and float elements, NaN kept.
// CHECK-LABEL: func @clip_constants
// CHECK-DAG: ms.constant dense<[0, 0, 3, 1000]> : tensor<4xi64>
// CHECK-DAG: ms.constant dense<[2, 5, 7]> : tensor<3xui8>
// CHECK-DAG: ms.constant dense<[-1.000000e+00, 5.000000e-01, 0x7FC00000]> : tensor<3xf32>
// CHECK-NOT: ms.clip
func.func @clip_constants() -> (tensor<4xi64>, tensor<3xui8>, tensor<3xf32>) {
  %i = ms.constant dense<[-4, 0, 3, 5000]> : tensor<4xi64>
  %ci = ms.clip %i {min = 0.0 : f64} : tensor<4xi64>
  %cj = ms.clip %ci {max = 1000.0 : f64} : tensor<4xi64>
  %u = ms.constant dense<[2, 5, 200]> : tensor<3xui8>
  %cu = ms.clip %u {max = 7.0 : f64} : tensor<3xui8>
  %f = ms.constant dense<[-3.0, 0.5, 0x7FC00000]> : tensor<3xf32>
  %cf = ms.clip %f {min = -1.0 : f64, max = 6.0 : f64} : tensor<3xf32>
  return %cj, %cu, %cf : tensor<4xi64>, tensor<3xui8>, tensor<3xf32>
}
