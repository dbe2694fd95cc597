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

// -----

// Reductions: max and min start from the unsigned extremes (0 and all ones) and compare unsigned;
// the mean divides unsigned. Sums and products wrap alike either way.
// CHECK-LABEL: func.func @reductions
// CHECK: mie.kernel "reduce_max"
// CHECK: arith.constant 0 : i8
// CHECK: arith.maxui
// CHECK: mie.kernel "reduce_min"
// CHECK: arith.constant -1 : i8
// CHECK: arith.minui
// CHECK: mie.kernel "reduce_mean"
// CHECK: arith.divui
// CHECK-NOT: arith.divsi
// CHECK: mie.kernel "reduce_sum"
// CHECK: arith.addi
func.func @reductions(%x: tensor<4x8xui8>) -> (tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>) {
  %0 = ms.reduce_max %x {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4xui8>
  %1 = ms.reduce_min %x {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4xui8>
  %2 = ms.reduce_mean %x {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4xui8>
  %3 = ms.reduce_sum %x {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4xui8>
  return %0, %1, %2, %3 : tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>
}

// -----

// arg_min and top_k order the values unsigned; cumsum adds on the signless buffer.
// CHECK-LABEL: func.func @scans
// CHECK: mie.kernel "arg_min"
// CHECK: arith.constant -1 : i32
// CHECK: arith.cmpi ult
// CHECK: mie.kernel "top_k"
// CHECK: arith.cmpi ugt, %{{.+}}, %{{.+}} : i32
// CHECK: mie.kernel "cumsum"
// CHECK: arith.addi %{{.+}}, %{{.+}} : i32
func.func @scans(%x: tensor<2x8xui32>, %a: tensor<i64>) -> (tensor<2x1xi64>, tensor<2x3xui32>, tensor<2x3xi64>, tensor<2x8xui32>) {
  %0 = ms.arg_min %x {axis = 1 : i64, keep_dims} : (tensor<2x8xui32>) -> tensor<2x1xi64>
  %1:2 = ms.top_k %x {k = 3 : i64} : (tensor<2x8xui32>) -> (tensor<2x3xui32>, tensor<2x3xi64>)
  %2 = ms.cumsum %x, %a : (tensor<2x8xui32>, tensor<i64>) -> tensor<2x8xui32>
  return %0, %1#0, %1#1, %2 : tensor<2x1xi64>, tensor<2x3xui32>, tensor<2x3xi64>, tensor<2x8xui32>
}

// -----

// A scatter with max combines unsigned; gathers only move the elements.
// CHECK-LABEL: func.func @scatter_gather
// CHECK: mie.kernel "scatter_elements"
// CHECK: arith.maxui %{{.+}}, %{{.+}} : i16
// CHECK: mie.kernel "gather_elements"
func.func @scatter_gather(%d: tensor<4xui16>, %i: tensor<2xi64>, %u: tensor<2xui16>) -> (tensor<4xui16>, tensor<2xui16>) {
  %0 = ms.scatter_elements %d, %i, %u {reduction = #ms<scatter_reduction max>} : (tensor<4xui16>, tensor<2xi64>, tensor<2xui16>) -> tensor<4xui16>
  %1 = ms.gather_elements %d, %i : (tensor<4xui16>, tensor<2xi64>) -> tensor<2xui16>
  return %0, %1 : tensor<4xui16>, tensor<2xui16>
}
