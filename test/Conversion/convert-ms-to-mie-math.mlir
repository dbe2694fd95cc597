// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// The scalar bodies of the math, logic and bitwise ms ops (one kernel each, as every elementwise op).

// Tests that a float pow computes |x|^y and fixes up negative bases: the sign of odd integral
// exponents, NaN for non-integral ones, and x^0 = 1.
// CHECK-LABEL: func.func @pow_float
// CHECK: mie.kernel "pow"
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[AX:.+]] = math.absf %[[X]]
// CHECK: %[[R:.+]] = math.powf %[[AX]], %[[Y]]
// CHECK: %[[FY:.+]] = math.floor %[[Y]]
// CHECK: %[[INT:.+]] = arith.cmpf oeq, %[[FY]], %[[Y]]
// CHECK: %[[NEG:.+]] = arith.negf %[[R]]
// CHECK: arith.select %{{.+}}, %[[NEG]], %[[R]]
// CHECK: arith.cmpf olt, %[[X]]
// CHECK: arith.cmpf oeq, %[[Y]]
// CHECK: arith.select
// CHECK: linalg.yield
func.func @pow_float(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.pow %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests the two remainders: integers with the divisor's sign (remsi plus a correction) and floats
// with fmod's (trunc of the quotient, one fma, a sign correction) -- no frem, which is a libm call.
// The integer divisor is 1 where the CPU would trap (by 0; INT_MIN by -1), so x mod 0 is 0.
// CHECK-LABEL: func.func @mod
// CHECK: mie.kernel "mod"
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i32):
// CHECK: %[[BYZERO:.+]] = arith.cmpi eq, %[[Y]], %{{.+}} : i32
// CHECK: %[[MIN:.+]] = arith.constant -2147483648 : i32
// CHECK: arith.cmpi eq, %[[X]], %[[MIN]] : i32
// CHECK: arith.cmpi eq, %[[Y]], %{{.+}} : i32
// CHECK: %[[TRAP:.+]] = arith.ori %[[BYZERO]], %{{.+}} : i1
// CHECK: %[[SAFE:.+]] = arith.select %[[TRAP]], %{{.+}}, %[[Y]] : i32
// CHECK: %[[R:.+]] = arith.remsi %[[X]], %[[SAFE]]
// CHECK: arith.cmpi ne, %[[R]]
// CHECK: %[[FIX:.+]] = arith.addi %[[R]]
// CHECK: arith.select %{{.+}}, %[[FIX]], %[[R]] : i32
// CHECK: mie.kernel "mod"
// CHECK: arith.remsi
// CHECK-NEXT: linalg.yield
// CHECK: mie.kernel "mod"
// CHECK-NOT: arith.remf
// CHECK: %[[Q:.+]] = arith.divf
// CHECK: %[[T:.+]] = math.trunc %[[Q]]
// CHECK: math.fma
// CHECK: math.copysign
// CHECK: linalg.yield
func.func @mod(%a: tensor<6xi32>, %b: tensor<6xi32>, %x: tensor<6xf32>, %y: tensor<f32>)
    -> (tensor<6xi32>, tensor<6xi32>, tensor<6xf32>) {
  %0 = ms.mod %a, %b : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %1 = ms.mod %a, %b {fmod} : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %2 = ms.mod %x, %y {fmod} : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  return %0, %1, %2 : tensor<6xi32>, tensor<6xi32>, tensor<6xf32>
}

// -----

// Tests the logical / bitwise ops: i1 and i32 alike, not as xor with all ones, shifts guarded
// against amounts of the bit width or more.
// CHECK-LABEL: func.func @bitwise
// CHECK: mie.kernel "and"
// CHECK: arith.andi %{{.+}}, %{{.+}} : i1
// CHECK: mie.kernel "or"
// CHECK: arith.ori %{{.+}}, %{{.+}} : i1
// CHECK: mie.kernel "xor"
// CHECK: arith.xori %{{.+}}, %{{.+}} : i1
// CHECK: mie.kernel "not"
// CHECK: %[[T:.+]] = arith.constant true
// CHECK: arith.xori %{{.+}}, %[[T]] : i1
// CHECK: mie.kernel "not"
// CHECK: %[[ONES:.+]] = arith.constant -1 : i8
// CHECK: arith.xori %{{.+}}, %[[ONES]] : i8
// CHECK: mie.kernel "shift_left"
// CHECK: %[[SH:.+]] = arith.shli
// CHECK: %[[W:.+]] = arith.constant 8 : i8
// CHECK: %[[FAR:.+]] = arith.cmpi uge, %{{.+}}, %[[W]]
// CHECK: arith.select %[[FAR]], %{{.+}}, %[[SH]]
// CHECK: mie.kernel "shift_right"
// CHECK: arith.shrui
func.func @bitwise(%a: tensor<4xi1>, %b: tensor<4xi1>, %i: tensor<4xi8>, %s: tensor<4xi8>)
    -> (tensor<4xi1>, tensor<4xi8>) {
  %0 = ms.and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = ms.or %0, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = ms.xor %1, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = ms.not %2 : tensor<4xi1>
  %4 = ms.not %i : tensor<4xi8>
  %5 = ms.shift_left %4, %s : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %6 = ms.shift_right %5, %s : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %3, %6 : tensor<4xi1>, tensor<4xi8>
}

// -----

// Tests the classification ops (i1 results), sign, and the unary functions' math ops.
// CHECK-LABEL: func.func @unary_math
// CHECK: mie.kernel "is_nan"
// CHECK: arith.cmpf uno
// CHECK: mie.kernel "is_inf"
// CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: arith.cmpf oeq, %{{.+}}, %[[NINF]]
// CHECK-NOT: 0x7F800000
// CHECK: mie.kernel "sign"
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf olt
// CHECK: mie.kernel "floor"
// CHECK: math.floor
// CHECK: mie.kernel "ceil"
// CHECK: math.ceil
// CHECK: mie.kernel "round"
// CHECK: math.roundeven
// CHECK: mie.kernel "sin"
// CHECK: math.sin
// CHECK: mie.kernel "cos"
// CHECK: math.cos
// CHECK: mie.kernel "tan"
// CHECK: math.tan
// CHECK: mie.kernel "asin"
// CHECK: math.asin
// CHECK: mie.kernel "acos"
// CHECK: math.acos
// CHECK: mie.kernel "atan"
// CHECK: math.atan
// CHECK: mie.kernel "sinh"
// CHECK: math.sinh
// CHECK: mie.kernel "cosh"
// CHECK: math.cosh
// CHECK: mie.kernel "asinh"
// CHECK: math.asinh
// CHECK: mie.kernel "acosh"
// CHECK: math.acosh
// CHECK: mie.kernel "atanh"
// CHECK: math.atanh
// CHECK: mie.kernel "sign"
// CHECK: arith.cmpi sgt
func.func @unary_math(%x: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi64>) {
  %0 = ms.is_nan %x : tensor<4xf32> -> tensor<4xi1>
  %1 = ms.is_inf %x {detect_positive = false} : tensor<4xf32> -> tensor<4xi1>
  %2 = ms.sign %x : tensor<4xf32>
  %3 = ms.floor %2 : tensor<4xf32>
  %4 = ms.ceil %3 : tensor<4xf32>
  %5 = ms.round %4 : tensor<4xf32>
  %6 = ms.sin %5 : tensor<4xf32>
  %7 = ms.cos %6 : tensor<4xf32>
  %8 = ms.tan %7 : tensor<4xf32>
  %9 = ms.asin %8 : tensor<4xf32>
  %10 = ms.acos %9 : tensor<4xf32>
  %11 = ms.atan %10 : tensor<4xf32>
  %12 = ms.sinh %11 : tensor<4xf32>
  %13 = ms.cosh %12 : tensor<4xf32>
  %14 = ms.asinh %13 : tensor<4xf32>
  %15 = ms.acosh %14 : tensor<4xf32>
  %16 = ms.atanh %15 : tensor<4xf32>
  %17 = ms.sign %i : tensor<4xi64>
  return %0, %1, %16, %17 : tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi64>
}

// -----

// Tests that bf16 converts through f32 only (where mie-expand-math expands it to bit operations).
// CHECK-LABEL: func.func @cast_bf16
// CHECK: mie.kernel "cast"
// CHECK: %[[F:.+]] = arith.sitofp %{{.+}} : i32 to f32
// CHECK: arith.truncf %[[F]] : f32 to bf16
// CHECK: mie.kernel "cast"
// CHECK: %[[E:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK: arith.truncf %[[E]] : f32 to f16
func.func @cast_bf16(%i: tensor<4xi32>) -> tensor<4xf16> {
  %0 = ms.cast %i : tensor<4xi32> to tensor<4xbf16>
  %1 = ms.cast %0 : tensor<4xbf16> to tensor<4xf16>
  return %1 : tensor<4xf16>
}
