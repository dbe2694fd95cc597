// RUN: ms-opt %s -split-input-file -mie-bundle-weights | FileCheck %s

// Tests packing f32, dense_resource, f16 and i64 constants at 64-byte aligned offsets (0, 64, 128,
// 192) into one 208-byte little-endian blob: every get_global becomes an aligned view of the new
// last argument "weights" (after the arena), reads of one global share its offset, the constant
// globals are erased and a mutable one is kept.

// CHECK: module attributes {mie.weights = dense_resource<[[BLOB:mie_weights[_0-9]*]]> : tensor<208xi8>}
// CHECK-NOT: memref.global "private" constant
// CHECK: memref.global "private" @state : memref<2xf32> = uninitialized
// CHECK-NOT: memref.global "private" constant
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32>, %[[ARENA:[^:]+]]: memref<64xi8> {mie.slot = "arena"}, %[[W:[^:]+]]: memref<208xi8> {mie.slot = "weights"})
// CHECK: %[[A:.+]] = mie.view %[[W]][0] {aligned} : memref<208xi8> to memref<3xf32>
// CHECK: %[[B:.+]] = mie.view %[[W]][64] {aligned} : memref<208xi8> to memref<2x2xf32>
// CHECK: %[[D:.+]] = mie.view %[[W]][128] {aligned} : memref<208xi8> to memref<2xf16>
// CHECK: %[[E:.+]] = mie.view %[[W]][192] {aligned} : memref<208xi8> to memref<2xi64>
// CHECK: %[[B2:.+]] = mie.view %[[W]][64] {aligned} : memref<208xi8> to memref<2x2xf32>
// CHECK-NOT: memref.get_global
// CHECK: mie.kernel "k" ins(%[[A]], %[[B]], %[[D]], %[[E]], %[[B2]] :
// CHECK: [[BLOB]]: "0x400000000000803F0000004000004040000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000803F000000400000404000008040000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003C00C00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100000000000000FFFFFFFFFFFFFFFF"
memref.global "private" constant @a : memref<3xf32> = dense<[1.0, 2.0, 3.0]> {alignment = 64 : i64}
memref.global "private" constant @b : memref<2x2xf32> = dense_resource<weight> {alignment = 64 : i64}
memref.global "private" constant @d : memref<2xf16> = dense<[1.0, -2.0]>
memref.global "private" constant @e : memref<2xi64> = dense<[1, -1]>
memref.global "private" @state : memref<2xf32> = uninitialized

func.func @main(%x: memref<4xf32>, %arena: memref<64xi8> {mie.slot = "arena"}) {
  %0 = memref.get_global @a : memref<3xf32>
  %1 = memref.get_global @b : memref<2x2xf32>
  %2 = memref.get_global @d : memref<2xf16>
  %3 = memref.get_global @e : memref<2xi64>
  %4 = memref.get_global @b : memref<2x2xf32>
  mie.kernel "k" ins(%0, %1, %2, %3, %4 : memref<3xf32>, memref<2x2xf32>, memref<2xf16>, memref<2xi64>, memref<2x2xf32>)
      outs(%x : memref<4xf32>) {
  ^bb0(%i0: memref<3xf32>, %i1: memref<2x2xf32>, %i2: memref<2xf16>, %i3: memref<2xi64>, %i4: memref<2x2xf32>, %o: memref<4xf32>):
    mie.yield
  }
  return
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Tests a splat constant (expanded to every element) and that every public function gets the
// weights argument, whether or not it reads a constant; declarations are left alone.

// CHECK: module attributes {mie.weights = dense_resource<[[BLOB:mie_weights[_0-9]*]]> : tensor<8xi8>}
// CHECK-LABEL: func.func @reads
// CHECK-SAME: (%{{[^:]+}}: memref<4xi16>, %[[W:[^:]+]]: memref<8xi8> {mie.slot = "weights"})
// CHECK: %[[V:.+]] = mie.view %[[W]][0] {aligned} : memref<8xi8> to memref<4xi16>
// CHECK: mie.kernel "copy" ins(%[[V]] : memref<4xi16>)
// CHECK-LABEL: func.func @does_not_read
// CHECK-SAME: (%{{[^:]+}}: memref<2xf32>, %{{[^:]+}}: memref<8xi8> {mie.slot = "weights"})
// CHECK-LABEL: func.func private @declaration
// CHECK-SAME: (memref<2xf32>){{$}}
// CHECK: [[BLOB]]: "0x400000000700070007000700"
memref.global "private" constant @splat : memref<4xi16> = dense<7>

func.func @reads(%y: memref<4xi16>) {
  %0 = memref.get_global @splat : memref<4xi16>
  mie.kernel "copy" ins(%0 : memref<4xi16>) outs(%y : memref<4xi16>) {
  ^bb0(%i: memref<4xi16>, %o: memref<4xi16>):
    linalg.copy ins(%i : memref<4xi16>) outs(%o : memref<4xi16>)
    mie.yield
  }
  return
}

func.func @does_not_read(%x: memref<2xf32>) {
  return
}

func.func private @declaration(memref<2xf32>)

// -----

// Tests a module without constants: an empty blob, and still a weights argument.

// CHECK: module attributes {mie.weights = dense_resource<{{.+}}> : tensor<0xi8>}
// CHECK-LABEL: func.func @no_constants
// CHECK-SAME: (%{{[^:]+}}: memref<4xf32>, %{{[^:]+}}: memref<0xi8> {mie.slot = "weights"})
func.func @no_constants(%x: memref<4xf32>) {
  return
}

// NOTE: every case here holds a mie op, so that the mie dialect is loaded: the pass does not list
// MieDialect in its dependentDialects and, when the input has no mie op (e.g. a function with
// `%0 = memref.get_global @a` feeding a linalg.copy, without argument attributes), the mie.view it
// creates is unregistered and the pass segfaults in replaceAllUsesWith.
//
// NOTE: two more cases are left out until fixed. An i1 constant (memref.global "private" constant @m :
// memref<2xi1> = dense<[true, false]>, read by memref.get_global) becomes a mie.view that the
// verifier rejects ("expects a result element type of whole bytes, got 'i1'"). And a get_global in a
// private function is not rewritten although its global is erased, so the module no longer verifies
// ("'memref.get_global' op 'a' does not reference a valid global memref").
