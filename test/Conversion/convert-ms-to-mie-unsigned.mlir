// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Unsigned integers: buffers hold them as signless integers of the same width, and the scalar
// bodies take the unsigned forms where signedness matters (division, remainder, min/max,
// comparison, extension and conversion to float).

// CHECK-LABEL: func.func @div_mod_max
// CHECK-SAME: (%{{.+}}: memref<4xi8> {mie.unsigned}, %{{.+}}: memref<4xi8> {mie.unsigned})
// CHECK: mie.kernel "div"
// CHECK: arith.divui
// CHECK-NOT: arith.divsi
// CHECK: mie.kernel "mod"
// CHECK: arith.remui
// CHECK-NOT: arith.remsi
// CHECK: mie.kernel "max"
// CHECK: arith.maxui
// CHECK: mie.kernel "compare"
// CHECK: arith.cmpi ult
func.func @div_mod_max(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xi1>) {
  %0 = ms.div %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = ms.mod %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %2 = ms.max %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %3 = ms.compare lt, %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0, %1, %2, %3 : tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xi1>
}

// -----

// Casts: ui8 widens with zero extension and converts to float as unsigned; float to ui16 is the
// unsigned conversion. Signed i8 keeps the signed forms.
// CHECK-LABEL: func.func @casts
// CHECK: arith.extui %{{.+}} : i8 to i32
// CHECK: arith.uitofp %{{.+}} : i8 to f32
// CHECK: arith.fptoui %{{.+}} : f32 to i16
// CHECK: arith.extsi %{{.+}} : i8 to i32
func.func @casts(%a: tensor<4xui8>, %f: tensor<4xf32>, %s: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xui16>, tensor<4xi32>) {
  %0 = ms.cast %a : tensor<4xui8> to tensor<4xi32>
  %1 = ms.cast %a : tensor<4xui8> to tensor<4xf32>
  %2 = ms.cast %f : tensor<4xf32> to tensor<4xui16>
  %3 = ms.cast %s : tensor<4xi8> to tensor<4xi32>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xf32>, tensor<4xui16>, tensor<4xi32>
}

// -----

// An unsigned constant keeps its bytes in a signless global.
// CHECK-LABEL: memref.global "private" constant @__constant : memref<2xi16> = dense<[-1, 1]>
// CHECK-LABEL: func.func @constant
func.func @constant(%a: tensor<2xui16>) -> tensor<2xui16> {
  %c = ms.constant dense<[65535, 1]> : tensor<2xui16>
  %0 = ms.add %a, %c : (tensor<2xui16>, tensor<2xui16>) -> tensor<2xui16>
  return %0 : tensor<2xui16>
}
