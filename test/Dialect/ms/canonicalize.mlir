// RUN: ms-opt %s -split-input-file -canonicalize | FileCheck %s

// Folders and canonicalizations of the ms dialect.

// CHECK-LABEL: func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @add_zero(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = ms.constant dense<0.0> : tensor<2x3xf32>
  %0 = ms.add %x, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ms.add %z, %0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ms.sub %1, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// Broadcasting changes the type, so x + 0 does not fold to x.
// CHECK-LABEL: func @add_zero_broadcast
// CHECK: ms.add
func.func @add_zero_broadcast(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %z = ms.constant dense<0.0> : tensor<2x3xf32>
  %0 = ms.add %x, %z : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @mul_div_pow_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @mul_div_pow_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = ms.constant dense<1.0> : tensor<4xf32>
  %0 = ms.mul %one, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = ms.div %0, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = ms.pow %1, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @constant_fold_binary
// CHECK: %[[C:.*]] = ms.constant dense<[5.000000e+00, 8.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @constant_fold_binary() -> tensor<2xf32> {
  %a = ms.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = ms.constant dense<[4.0, 6.0]> : tensor<2xf32>
  %0 = ms.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = ms.mul %0, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = ms.max %1, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = ms.sub %2, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = ms.div %3, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %5 = ms.min %4, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %6 = ms.add %5, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %6 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func @constant_fold_int
// CHECK: ms.constant dense<[3, 16]> : tensor<2xi64>
func.func @constant_fold_int() -> tensor<2xi64> {
  %a = ms.constant dense<[1, 2]> : tensor<2xi64>
  %b = ms.constant dense<[2, 6]> : tensor<2xi64>
  %0 = ms.add %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %1 = ms.mul %0, %a : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %2 = ms.sub %1, %a : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %3 = ms.add %2, %a : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %3 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func @max_min_self
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @max_min_self(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.max %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = ms.min %0, %0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @unary_constant_fold
// CHECK-DAG: ms.constant dense<[0.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: ms.constant dense<[5.000000e-01, 0.731058597]> : tensor<2xf32>
// CHECK-DAG: ms.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: ms.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK-NOT: ms.relu
// CHECK-NOT: ms.sigmoid
// CHECK-NOT: ms.sqrt
func.func @unary_constant_fold() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = ms.constant dense<[-1.0, 2.0]> : tensor<2xf32>
  %0 = ms.relu %a : tensor<2xf32>
  %b = ms.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %1 = ms.sigmoid %b : tensor<2xf32>
  %c = ms.constant dense<[4.0, 9.0]> : tensor<2xf32>
  %2 = ms.sqrt %c : tensor<2xf32>
  %d = ms.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %3 = ms.reciprocal %d : tensor<2xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @unary_idempotent
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = ms.relu %[[X]]
// CHECK-NEXT: %[[A:.*]] = ms.abs %[[R]]
// CHECK-NEXT: return %[[A]]
func.func @unary_idempotent(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.relu %x : tensor<4xf32>
  %1 = ms.relu %0 : tensor<4xf32>
  %2 = ms.neg %1 : tensor<4xf32>
  %3 = ms.neg %2 : tensor<4xf32>
  %4 = ms.abs %3 : tensor<4xf32>
  %5 = ms.abs %4 : tensor<4xf32>
  return %5 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @log_exp
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @log_exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.exp %x : tensor<4xf32>
  %1 = ms.log %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @clip_unbounded
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = ms.clip %[[X]] {max = 6.000000e+00 : f64}
// CHECK-NEXT: return %[[C]]
func.func @clip_unbounded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.clip %x : tensor<4xf32>
  %1 = ms.clip %0 {max = 6.0 : f64} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @where_folds
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[A]], %[[B]], %[[A]]
func.func @where_folds(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %t = ms.constant dense<true> : tensor<4xi1>
  %f = ms.constant dense<false> : tensor<4xi1>
  %0 = ms.where %t, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = ms.where %f, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = ms.where %c, %a, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @cast_folds
// CHECK-SAME: (%[[X:.*]]: tensor<4xf16>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[H:.*]] = ms.cast %[[Y]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: %[[B:.*]] = ms.cast %[[H]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT: return %[[X]], %[[B]]
func.func @cast_folds(%x: tensor<4xf16>, %y: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  // f16 -> f32 -> f16 is exact: folds to x.
  %0 = ms.cast %x : tensor<4xf16> to tensor<4xf32>
  %1 = ms.cast %0 : tensor<4xf32> to tensor<4xf16>
  %2 = ms.cast %1 : tensor<4xf16> to tensor<4xf16>
  // f32 -> f16 -> f32 loses precision: kept.
  %3 = ms.cast %y : tensor<4xf32> to tensor<4xf16>
  %4 = ms.cast %3 : tensor<4xf16> to tensor<4xf32>
  return %2, %4 : tensor<4xf16>, tensor<4xf32>
}

// -----

// Integers through a float type that holds them all come back unchanged; i32 through f32 does not.
// CHECK-LABEL: func @cast_folds_integers
// CHECK-SAME: (%[[U:.*]]: tensor<4xui8>, %[[S:.*]]: tensor<4xi8>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NEXT: %[[F:.*]] = ms.cast %[[I]] : tensor<4xi32> to tensor<4xf32>
// CHECK-NEXT: %[[J:.*]] = ms.cast %[[F]] : tensor<4xf32> to tensor<4xi32>
// CHECK-NEXT: return %[[U]], %[[S]], %[[J]]
func.func @cast_folds_integers(%u: tensor<4xui8>, %s: tensor<4xi8>, %i: tensor<4xi32>)
    -> (tensor<4xui8>, tensor<4xi8>, tensor<4xi32>) {
  %0 = ms.cast %u : tensor<4xui8> to tensor<4xf32>
  %1 = ms.cast %0 : tensor<4xf32> to tensor<4xui8>
  %2 = ms.cast %s : tensor<4xi8> to tensor<4xf16>
  %3 = ms.cast %2 : tensor<4xf16> to tensor<4xi8>
  %4 = ms.cast %i : tensor<4xi32> to tensor<4xf32>
  %5 = ms.cast %4 : tensor<4xf32> to tensor<4xi32>
  return %1, %3, %5 : tensor<4xui8>, tensor<4xi8>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func @transpose_of_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = ms.transpose %[[X]] {perms = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: return %[[X]], %[[T]]
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3x2x4xf32>) {
  // Inverse permutations cancel.
  %0 = ms.transpose %x {perms = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = ms.transpose %0 {perms = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  // Others compose into one: [1, 2, 0] then [0, 2, 1] is [1, 0, 2].
  %2 = ms.transpose %0 {perms = array<i64: 0, 2, 1>} : (tensor<3x4x2xf32>) -> tensor<3x2x4xf32>
  // Identity.
  %3 = ms.transpose %1 {perms = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %3, %2 : tensor<2x3x4xf32>, tensor<3x2x4xf32>
}

// -----

// CHECK-LABEL: func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = ms.reshape %[[X]] {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: return %[[R]], %[[X]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x4xf32>) {
  %0 = ms.reshape %x {shape = array<i64: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = ms.reshape %0 {shape = array<i64: 6, 4>} : (tensor<24xf32>) -> tensor<6x4xf32>
  %2 = ms.reshape %x {shape = array<i64: 2, 3, 4>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1, %2 : tensor<6x4xf32>, tensor<2x3x4xf32>
}

// -----

// Reshaping a constant reshapes its attribute; a resource keeps its blob and changes only its type.
// CHECK-LABEL: func @reshape_constant
// CHECK-DAG: ms.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi64>
// CHECK-DAG: ms.constant dense_resource<blob> : tensor<4xf32>
// CHECK-DAG: ms.constant dense_resource<blob> : tensor<1x2x2xf32>
// CHECK-NOT: ms.reshape
// CHECK-NOT: ms.flatten
// CHECK-NOT: ms.unsqueeze
func.func @reshape_constant() -> (tensor<2x2xi64>, tensor<4xf32>, tensor<1x2x2xf32>) {
  %c = ms.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %0 = ms.reshape %c {shape = array<i64: 2, 2>} : (tensor<4xi64>) -> tensor<2x2xi64>
  %w = ms.constant dense_resource<blob> : tensor<2x2xf32>
  %1 = ms.flatten %w {axis = 0 : i64} : (tensor<2x2xf32>) -> tensor<1x4xf32>
  %2 = ms.squeeze %1 : (tensor<1x4xf32>) -> tensor<4xf32>
  %3 = ms.unsqueeze %w {axes = array<i64: 0>} : (tensor<2x2xf32>) -> tensor<1x2x2xf32>
  return %0, %2, %3 : tensor<2x2xi64>, tensor<4xf32>, tensor<1x2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// CHECK-LABEL: func @identity_shape_ops
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identity_shape_ops(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = ms.concat %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ms.slice %x {starts = array<i64: 0, 0>, sizes = array<i64: 2, 3>, steps = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ms.pad %x {pads = array<i64: 0, 0, 0, 0>, mode = #ms<pad_mode reflect>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ms.expand %x {shape = array<i64: 1, 3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = ms.resize %x {sizes = array<i64: 2, 3>, mode = #ms<resize_mode linear>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = ms.flatten %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A slice that picks everything with a negative step reverses: not an identity.
// CHECK-LABEL: func @slice_reverse_kept
// CHECK: ms.slice
func.func @slice_reverse_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.slice %x {starts = array<i64: 3>, sizes = array<i64: 4>, steps = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @expand_splat
// CHECK: %[[C:.*]] = ms.constant dense<2.000000e+00> : tensor<3x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @expand_splat() -> tensor<3x4xf32> {
  %c = ms.constant dense<2.0> : tensor<4xf32>
  %0 = ms.expand %c {shape = array<i64: 3, 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Tests that pow with a constant splat exponent of 2, 3, 0.5, -1 or -0.5 becomes multiplies, sqrt,
// reciprocal or rsqrt (exact for negative bases, which the general exp/log form is not).
// CHECK-LABEL: func @pow_small_exponents
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: ms.pow
// CHECK: %[[SQ:.*]] = ms.mul %[[X]], %[[X]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[SQ2:.*]] = ms.mul %[[X]], %[[X]]
// CHECK: %[[CUBE:.*]] = ms.mul %[[SQ2]], %[[X]]
// CHECK: %[[SQRT:.*]] = ms.sqrt %[[X]] : tensor<4xf32>
// CHECK: %[[REC:.*]] = ms.reciprocal %[[X]] : tensor<4xf32>
// CHECK: %[[RSQRT:.*]] = ms.rsqrt %[[X]] : tensor<4xf32>
// CHECK: return %[[SQ]], %[[CUBE]], %[[SQRT]], %[[REC]], %[[RSQRT]]
func.func @pow_small_exponents(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %two = ms.constant dense<2.0> : tensor<f32>
  %three = ms.constant dense<3.0> : tensor<4xf32>
  %half = ms.constant dense<0.5> : tensor<f32>
  %minus_one = ms.constant dense<-1.0> : tensor<f32>
  %minus_half = ms.constant dense<-0.5> : tensor<f32>
  %0 = ms.pow %x, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = ms.pow %x, %three : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = ms.pow %x, %half : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = ms.pow %x, %minus_one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = ms.pow %x, %minus_half : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests that an integer exponent cast to the base's type (as the importer writes Pow(f32, i64)) is
// seen through, and that integer bases square too.
// CHECK-LABEL: func @pow_cast_exponent
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<3xi32>)
// CHECK-NOT: ms.pow
// CHECK-DAG: ms.mul %[[X]], %[[X]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-DAG: ms.mul %[[I]], %[[I]] : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
func.func @pow_cast_exponent(%x: tensor<4xf32>, %i: tensor<3xi32>) -> (tensor<4xf32>, tensor<3xi32>) {
  %two = ms.constant dense<2> : tensor<i64>
  %c = ms.cast %two : tensor<i64> to tensor<f32>
  %0 = ms.pow %x, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %two_i = ms.constant dense<2> : tensor<i32>
  %1 = ms.pow %i, %two_i : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  return %0, %1 : tensor<4xf32>, tensor<3xi32>
}

// -----

// Tests what stays a pow: other exponents, a non-splat exponent, an exponent that broadcasts the
// base to a larger shape, and 0.5 on integers.
// CHECK-LABEL: func @pow_kept
// CHECK-COUNT-4: ms.pow
// CHECK-NOT: ms.mul
func.func @pow_kept(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<4xi32>) {
  %y = ms.constant dense<1.5> : tensor<f32>
  %v = ms.constant dense<[2.0, 2.0, 3.0, 2.0]> : tensor<4xf32>
  %b = ms.constant dense<2.0> : tensor<2x4xf32>
  %z = ms.constant dense<0> : tensor<i32>
  %0 = ms.pow %x, %y : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = ms.pow %x, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = ms.pow %x, %b : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = ms.pow %i, %z : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<4xi32>
}

// -----

// Tests the bitwise folders: x & x and x | x are x, x ^ 0 is x, constants fold.
// CHECK-LABEL: func @bitwise_fold
// CHECK-SAME: (%[[M:.*]]: tensor<4xi1>)
// CHECK: %[[C:.*]] = ms.constant dense<[2, 4, 3, 0]> : tensor<4xi32>
// CHECK-NEXT: return %[[M]], %[[C]]
func.func @bitwise_fold(%m: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi32>) {
  %f = ms.constant dense<false> : tensor<4xi1>
  %0 = ms.and %m, %m : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = ms.or %0, %0 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = ms.xor %1, %f : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %a = ms.constant dense<[3, 6, 5, 8]> : tensor<4xi32>
  %b = ms.constant dense<[1, 2, 6, 8]> : tensor<4xi32>
  %3 = ms.and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = ms.or %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %5 = ms.xor %3, %4 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %2, %5 : tensor<4xi1>, tensor<4xi32>
}

// -----

// Tests that a one-element resource exponent (how a model's Constant node arrives) is read too.
// CHECK-LABEL: func @pow_resource_exponent
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: ms.pow
// CHECK: ms.mul %[[X]], %[[X]]
func.func @pow_resource_exponent(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = ms.constant dense_resource<two> : tensor<f32>
  %0 = ms.pow %x, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      two: "0x0400000000000040"
    }
  }
#-}

// -----

// A check of a condition known to hold is its input; one known to fail stays (it fails every run).
// CHECK-LABEL: func @check_folds
// CHECK-SAME: (%[[I:.+]]: tensor<3xi64>)
// CHECK: %[[KEPT:.+]] = ms.check %[[I]], %{{.+}} {message = "always"}
// CHECK: return %[[I]], %[[KEPT]]
func.func @check_folds(%i: tensor<3xi64>) -> (tensor<3xi64>, tensor<3xi64>) {
  %yes = ms.constant dense<true> : tensor<i1>
  %no = ms.constant dense<false> : tensor<i1>
  %0 = ms.check %i, %yes {message = "never"} : (tensor<3xi64>, tensor<i1>) -> tensor<3xi64>
  %1 = ms.check %i, %no {message = "always"} : (tensor<3xi64>, tensor<i1>) -> tensor<3xi64>
  return %0, %1 : tensor<3xi64>, tensor<3xi64>
}
