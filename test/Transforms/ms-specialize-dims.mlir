// RUN: ms-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(func.func(ms-specialize-dims{sizes=batch=3,seq=7}))' | FileCheck %s

// Every type gets the sizes its dims evaluate to (products, the window formula, a fused group's
// body), a symbolic reshape its static shape; the symbol attributes go.

// CHECK-LABEL: func.func @sized(%arg0: tensor<3x7x32xf32> {mie.name = "x"}, %arg1: tensor<3x2x9x9xf32>) -> (tensor<21x4x8xf32>, tensor<3x2x5x5xf32>, tensor<3x7x32xf32>) {
// CHECK-NOT: ms.symbols
// CHECK: ms.reshape %arg0 {shape = array<i64: 21, 4, 8>} : (tensor<3x7x32xf32>) -> tensor<21x4x8xf32>
// CHECK: ms.max_pool %arg1 {{.+}} : (tensor<3x2x9x9xf32>) -> tensor<3x2x5x5xf32>
// CHECK: ms.fused "exp_neg" ins(%arg0 : tensor<3x7x32xf32>) -> tensor<3x7x32xf32>
// CHECK-NEXT: ^bb0(%{{.+}}: tensor<3x7x32xf32>):
func.func @sized(%x: tensor<?x?x32xf32> {mie.name = "x", ms.shape = affine_map<()[s0, s1] -> (s0, s1, 32)>},
                 %i: tensor<?x2x?x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1 + 2, s1 + 2)>})
    -> (tensor<?x4x8xf32>, tensor<?x2x?x?xf32>, tensor<?x?x32xf32>) attributes {ms.symbols = ["batch", "seq"]} {
  %r = ms.reshape %x {shape = array<i64: -9223372036854775808, 4, 8>, symbolic_shape = affine_map<()[s0, s1] -> (s0 * s1, 4, 8)>} : (tensor<?x?x32xf32>) -> tensor<?x4x8xf32>
  %p = ms.max_pool %i {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %f = ms.fused "exp_neg" ins(%x : tensor<?x?x32xf32>) -> tensor<?x?x32xf32> {
  ^bb0(%a: tensor<?x?x32xf32>):
    %e = ms.exp %a : tensor<?x?x32xf32>
    %n = ms.neg %e : tensor<?x?x32xf32>
    ms.yield %n : tensor<?x?x32xf32>
  }
  return %r, %p, %f : tensor<?x4x8xf32>, tensor<?x2x?x?xf32>, tensor<?x?x32xf32>
}

// -----

// A slice to a symbolic length gets its static sizes.

// CHECK-LABEL: func.func @sliced
// CHECK: ms.slice %arg1 {sizes = array<i64: 1, 7>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : (tensor<1x512xi64>) -> tensor<1x7xi64>
func.func @sliced(%x: tensor<?x?xi64> {ms.shape = affine_map<()[s0, s1] -> (s0, s1)>}, %t: tensor<1x512xi64>) -> tensor<1x?xi64>
    attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.slice %t {starts = array<i64: 0, 0>, sizes = array<i64: 1, -9223372036854775808>, steps = array<i64: 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (1, s1)>} : (tensor<1x512xi64>) -> tensor<1x?xi64>
  return %0 : tensor<1x?xi64>
}

// -----

// An expand to a symbolic shape gets its static shape.

// CHECK-LABEL: func.func @expanded
// CHECK: ms.expand %arg1 {shape = array<i64: 3, 1, 16>} : (tensor<1x1x16xf32>) -> tensor<3x1x16xf32>
func.func @expanded(%x: tensor<?x4xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 4)>}, %c: tensor<1x1x16xf32>) -> tensor<?x1x16xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.expand %c {shape = array<i64: -9223372036854775808, 1, 16>, symbolic_shape = affine_map<()[s0, s1] -> (s0, 1, 16)>} : (tensor<1x1x16xf32>) -> tensor<?x1x16xf32>
  return %0 : tensor<?x1x16xf32>
}

// -----

// A function without symbols is left alone.

// CHECK-LABEL: func.func @static
// CHECK: ms.relu %arg0 : tensor<2x3xf32>
func.func @static(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.relu %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A `?` that no rule explains cannot be sized.

func.func @unexplained(%x: tensor<?x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1)>},
                       %y: tensor<?x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s1, s0)>}) -> tensor<?x?xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  // expected-error @+1 {{dim 0 of 'tensor<?x?xf32>' is not an expression of the symbolic dims: the function cannot be specialized}}
  %0 = ms.add %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A symbol without a size takes the default, with a warning.

// CHECK-LABEL: func.func @defaulted(%arg0: tensor<1x4xf32>)
// expected-warning @+1 {{the symbolic dim 'n' is compiled for a size of 1 (set it with --dim-param=n=N; --symbolic-dim-default=0 makes this an error)}}
func.func @defaulted(%x: tensor<?x4xf32> {ms.shape = affine_map<()[s0] -> (s0, 4)>}) -> tensor<?x4xf32>
    attributes {ms.symbols = ["n"]} {
  return %x : tensor<?x4xf32>
}

// -----

// A range becomes the constant it is for the sizes; a symbolic start (the last token) and
// symbolic pads (to a length of 16) get their values.

// CHECK-LABEL: func.func @started
// CHECK-DAG: %[[POS:.+]] = ms.constant dense<[0, 1, 2, 3, 4, 5, 6]> : tensor<7xi64>
// CHECK-DAG: %[[BACK:.+]] = ms.constant dense<[9, 7, 5]> : tensor<3xi32>
// CHECK-DAG: ms.slice %arg0 {sizes = array<i64: 3, 1, 32>, starts = array<i64: 0, 6, 0>, steps = array<i64: 1, 1, 1>} : (tensor<3x7x32xf32>) -> tensor<3x1x32xf32>
// CHECK-DAG: ms.pad %arg0 {pads = array<i64: 0, 0, 0, 0, 9, 0>} : (tensor<3x7x32xf32>) -> tensor<3x16x32xf32>
// CHECK: return %[[POS]], %[[BACK]]
func.func @started(%x: tensor<?x?x32xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1, 32)>})
    -> (tensor<?xi64>, tensor<?xi32>, tensor<?x1x32xf32>, tensor<?x?x32xf32>) attributes {ms.symbols = ["batch", "seq"]} {
  %r = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (0, s1)>} : tensor<?xi64>
  %b = ms.range {delta = -2 : i64, symbolic_range = affine_map<()[s0, s1] -> (s1 + 2, s0)>} : tensor<?xi32>
  %t = ms.slice %x {starts = array<i64: 0, -9223372036854775808, 0>, sizes = array<i64: -9223372036854775808, 1, 32>, steps = array<i64: 1, 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (s0, 1, 32)>, symbolic_starts = affine_map<()[s0, s1] -> (0, s1 - 1, 0)>} : (tensor<?x?x32xf32>) -> tensor<?x1x32xf32>
  %p = ms.pad %x {pads = array<i64: 0, 0, 0, 0, -9223372036854775808, 0>, symbolic_pads = affine_map<()[s0, s1] -> (0, 0, 0, 0, 16 - s1, 0)>} : (tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  return %r, %b, %t, %p : tensor<?xi64>, tensor<?xi32>, tensor<?x1x32xf32>, tensor<?x?x32xf32>
}

// -----

// A resize's kept symbolic dim (a segmentation head under a run-time batch) gets its size.

// CHECK-LABEL: func.func @resized
// CHECK: ms.resize %arg0 {mode = #ms<resize_mode linear>, sizes = array<i64: 3, 4, 11, 13>} : (tensor<3x4x5x6xf32>) -> tensor<3x4x11x13xf32>
func.func @resized(%x: tensor<?x4x5x6xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 4, 5, 6)>}) -> tensor<?x4x11x13xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %r = ms.resize %x {sizes = array<i64: -9223372036854775808, 4, 11, 13>, mode = #ms<resize_mode linear>} : (tensor<?x4x5x6xf32>) -> tensor<?x4x11x13xf32>
  return %r : tensor<?x4x11x13xf32>
}

// -----

// A symbolic start outside its dim for the sizes (a cache of 7 read from 7 - 9) is an error: ONNX
// would clamp it, which the expression does not say.

func.func @window(%past: tensor<?x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1, 8)>}) -> tensor<?x9x8xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  // expected-error @+1 {{the slice of dim 1 (size 7) from -2 with 9 elements is out of bounds for the given sizes of the symbolic dims (the model's slice would be clamped)}}
  %0 = ms.slice %past {starts = array<i64: 0, -9223372036854775808, 0>, sizes = array<i64: -9223372036854775808, 9, 8>, steps = array<i64: 1, 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (s0, 9, 8)>, symbolic_starts = affine_map<()[s0, s1] -> (0, s1 - 9, 0)>} : (tensor<?x?x8xf32>) -> tensor<?x9x8xf32>
  return %0 : tensor<?x9x8xf32>
}

// -----

// A range whose count is negative for the sizes cannot be sized (ONNX would make it empty).

func.func @negative_range(%x: tensor<?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0)>}) -> tensor<?xi64>
    attributes {ms.symbols = ["batch", "seq"]} {
  // expected-error @+1 {{dim 0 of 'tensor<?xi64>' is negative for the given sizes: the function cannot be specialized}}
  %0 = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (0, s0 - s1)>} : tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// So is a symbolic size past its dim (a table of 4 positions sliced to a sequence of 7).

func.func @overrun(%x: tensor<?x?xi64> {ms.shape = affine_map<()[s0, s1] -> (s0, s1)>}, %t: tensor<1x4xi64>) -> tensor<1x?xi64>
    attributes {ms.symbols = ["batch", "seq"]} {
  // expected-error @+1 {{the slice of dim 1 (size 4) from 0 with 7 elements is out of bounds for the given sizes of the symbolic dims (the model's slice would be clamped)}}
  %0 = ms.slice %t {starts = array<i64: 0, 0>, sizes = array<i64: 1, -9223372036854775808>, steps = array<i64: 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (1, s1)>} : (tensor<1x4xi64>) -> tensor<1x?xi64>
  return %0 : tensor<1x?xi64>
}

// -----

// A split along a static axis (GPT-2's fused q, k, v projection) keeps the input's symbolic dims
// in every result.

// CHECK-LABEL: func.func @split_hidden(%arg0: tensor<3x7x96xf32>) -> (tensor<3x7x32xf32>, tensor<3x7x64xf32>)
// CHECK: ms.split %arg0 {axis = 2 : i64, sizes = array<i64: 32, 64>} : (tensor<3x7x96xf32>) -> (tensor<3x7x32xf32>, tensor<3x7x64xf32>)
func.func @split_hidden(%x: tensor<?x?x96xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, s1, 96)>})
    -> (tensor<?x?x32xf32>, tensor<?x?x64xf32>) attributes {ms.symbols = ["batch", "seq"]} {
  %a, %b = ms.split %x {axis = 2 : i64, sizes = array<i64: 32, 64>} : (tensor<?x?x96xf32>) -> (tensor<?x?x32xf32>, tensor<?x?x64xf32>)
  return %a, %b : tensor<?x?x32xf32>, tensor<?x?x64xf32>
}

// -----

// An element gather (DeBERTa's relative positions) has its indices' dims: batch * 2 copies of
// seq x seq distances into the data's 8 positions.

// CHECK-LABEL: func.func @gathered_elements(%arg0: tensor<6x7x8xf32>, %arg1: tensor<6x7x7xi64>) -> tensor<6x7x7xf32>
// CHECK: ms.gather_elements %arg0, %arg1 {axis = 2 : i64} : (tensor<6x7x8xf32>, tensor<6x7x7xi64>) -> tensor<6x7x7xf32>
func.func @gathered_elements(%x: tensor<?x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0 * 2, s1, 8)>},
                             %i: tensor<?x?x?xi64> {ms.shape = affine_map<()[s0, s1] -> (s0 * 2, s1, s1)>})
    -> tensor<?x?x?xf32> attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.gather_elements %x, %i {axis = 2 : i64} : (tensor<?x?x8xf32>, tensor<?x?x?xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
