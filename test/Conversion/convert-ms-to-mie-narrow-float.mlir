// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Conversions to and from the 8-bit and 4-bit floats are integer operations on the bits (LLVM stores
// these types as i8 / i4 and has no arithmetic on them): round half to even on the dropped bits,
// then the overflow, infinity and NaN encodings of the format.

// f32 -> f8E4M3FN saturating: overflow and infinity give 0x7E (448), NaN 0x7F with its sign.
// CHECK-LABEL: func.func @to_e4m3fn_saturate
// CHECK: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f8E4M3FN):
// CHECK: %[[BITS:.+]] = arith.bitcast %[[IN]] : f32 to i32
// CHECK: arith.cmpi ugt, %{{.+}}, %c2139095040_i32
// CHECK: %{{.+}} = arith.shrui %[[SIG:[0-9]+]], %{{[0-9]+}} : i32
// CHECK: %[[REST:.+]] = arith.andi %[[SIG]], %{{[0-9]+}} : i32
// CHECK: arith.cmpi ugt, %[[REST]], %[[HALF:[0-9]+]] : i32
// CHECK: arith.cmpi eq, %[[REST]], %[[HALF]] : i32
// CHECK: %[[TOOLARGE:.+]] = arith.cmpi ugt, %{{.+}}, %c126_i32{{.*}} : i32
// CHECK-NEXT: %c126_i32{{.*}} = arith.constant 126 : i32
// CHECK-NEXT: arith.select %[[TOOLARGE]], %c126_i32
// CHECK: arith.constant 127 : i32
// CHECK: %[[R:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK-NEXT: %[[F:.+]] = arith.bitcast %[[R]] : i8 to f8E4M3FN
// CHECK-NEXT: linalg.yield %[[F]] : f8E4M3FN
func.func @to_e4m3fn_saturate(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %0 = ms.cast %x {saturate} : tensor<4xf32> to tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// f32 -> f8E5M2 without saturate: past the largest value is infinity, 0x7C.
// CHECK-LABEL: func.func @to_e5m2
// CHECK: %[[TOOLARGE:.+]] = arith.cmpi ugt, %{{.+}}, %c123_i32{{.*}} : i32
// CHECK-NEXT: %c124_i32{{.*}} = arith.constant 124 : i32
// CHECK-NEXT: arith.select %[[TOOLARGE]], %c124_i32
// CHECK: arith.trunci %{{.+}} : i32 to i8
// CHECK-NEXT: arith.bitcast %{{.+}} : i8 to f8E5M2
func.func @to_e5m2(%x: tensor<4xf32>) -> tensor<4xf8E5M2> {
  %0 = ms.cast %x : tensor<4xf32> to tensor<4xf8E5M2>
  return %0 : tensor<4xf8E5M2>
}

// -----

// f64 rounds once, on its own bits (i64); FNUZ's NaN is 0x80.
// CHECK-LABEL: func.func @f64_to_e4m3fnuz
// CHECK: arith.bitcast %{{.+}} : f64 to i64
// CHECK-NOT: arith.truncf
// CHECK: arith.constant 128 : i64
// CHECK: arith.trunci %{{.+}} : i64 to i8
// CHECK-NEXT: arith.bitcast %{{.+}} : i8 to f8E4M3FNUZ
func.func @f64_to_e4m3fnuz(%x: tensor<4xf64>) -> tensor<4xf8E4M3FNUZ> {
  %0 = ms.cast %x : tensor<4xf64> to tensor<4xf8E4M3FNUZ>
  return %0 : tensor<4xf8E4M3FNUZ>
}

// -----

// f16 -> f4E2M1FN widens to f32 first (exactly) and always saturates (0x7, 6.0).
// CHECK-LABEL: func.func @to_e2m1
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.constant 7 : i32
// CHECK: arith.trunci %{{.+}} : i32 to i4
// CHECK-NEXT: arith.bitcast %{{.+}} : i4 to f4E2M1FN
func.func @to_e2m1(%x: tensor<4xf16>) -> tensor<4xf4E2M1FN> {
  %0 = ms.cast %x : tensor<4xf16> to tensor<4xf4E2M1FN>
  return %0 : tensor<4xf4E2M1FN>
}

// -----

// f32 -> f8E8M0FNU rounding up: the reference's fraction mask 0x4FFFFF (5242879), no carry past
// 0xFE when saturating, NaN and infinity 0xFF.
// CHECK-LABEL: func.func @to_e8m0_up
// CHECK: arith.constant 5242879 : i32
// CHECK: arith.constant 254 : i32
// CHECK: arith.constant 255 : i32
// CHECK: arith.trunci %{{.+}} : i32 to i8
// CHECK-NEXT: arith.bitcast %{{.+}} : i8 to f8E8M0FNU
func.func @to_e8m0_up(%x: tensor<4xf32>) -> tensor<4xf8E8M0FNU> {
  %0 = ms.cast %x {saturate} : tensor<4xf32> to tensor<4xf8E8M0FNU>
  return %0 : tensor<4xf8E8M0FNU>
}

// -----

// Rounding to nearest reads the guard (0x400000), round (0x200000) and sticky (0x1FFFFF) bits.
// CHECK-LABEL: func.func @to_e8m0_nearest
// CHECK: arith.constant 4194304 : i32
// CHECK: arith.constant 2097152 : i32
// CHECK: arith.constant 2097151 : i32
// CHECK-NOT: 5242879
func.func @to_e8m0_nearest(%x: tensor<4xf32>) -> tensor<4xf8E8M0FNU> {
  %0 = ms.cast %x {round_mode = "nearest"} : tensor<4xf32> to tensor<4xf8E8M0FNU>
  return %0 : tensor<4xf8E8M0FNU>
}

// -----

// f8E5M2 -> f16 through f32: the bits rebuilt (a denormal as mantissa * 2^-16), infinity and NaN
// for the all-ones exponent, then the f32 -> f16 conversion.
// CHECK-LABEL: func.func @from_e5m2
// CHECK: arith.bitcast %{{.+}} : f8E5M2 to i8
// CHECK-NEXT: arith.extui %{{.+}} : i8 to i32
// CHECK: arith.constant 1.52587891E-5 : f32
// CHECK: arith.constant 2139095040 : i32
// CHECK: %[[F:.+]] = arith.bitcast %{{.+}} : i32 to f32
// CHECK-NEXT: arith.truncf %[[F]] : f32 to f16
func.func @from_e5m2(%x: tensor<4xf8E5M2>) -> tensor<4xf16> {
  %0 = ms.cast %x : tensor<4xf8E5M2> to tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// An 8-bit float to an integer goes through f32.
// CHECK-LABEL: func.func @e4m3fn_to_i8
// CHECK: arith.bitcast %{{.+}} : i32 to f32
// CHECK-NEXT: arith.fptosi %{{.+}} : f32 to i8
func.func @e4m3fn_to_i8(%x: tensor<4xf8E4M3FN>) -> tensor<4xi8> {
  %0 = ms.cast %x : tensor<4xf8E4M3FN> to tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// A float to a 4-bit or 2-bit integer converts to i32 and keeps the low bits (-9.0 -> 7, as
// ONNX's test data has it); ui4 wraps the same way. From them, the signedness picks the conversion.
// CHECK-LABEL: func.func @int4
// CHECK: %[[I:.+]] = arith.fptosi %{{.+}} : f32 to i32
// CHECK-NEXT: arith.trunci %[[I]] : i32 to i4
// CHECK: %[[U:.+]] = arith.fptosi %{{.+}} : f32 to i32
// CHECK-NEXT: arith.trunci %[[U]] : i32 to i2
// CHECK: arith.uitofp %{{.+}} : i4 to f32
// CHECK: arith.sitofp %{{.+}} : i2 to f32
func.func @int4(%x: tensor<4xf32>, %u: tensor<4xui4>, %s: tensor<4xi2>)
    -> (tensor<4xi4>, tensor<4xui2>, tensor<4xf32>, tensor<4xf32>) {
  %0 = ms.cast %x : tensor<4xf32> to tensor<4xi4>
  %1 = ms.cast %x : tensor<4xf32> to tensor<4xui2>
  %2 = ms.cast %u : tensor<4xui4> to tensor<4xf32>
  %3 = ms.cast %s : tensor<4xi2> to tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xi4>, tensor<4xui2>, tensor<4xf32>, tensor<4xf32>
}
