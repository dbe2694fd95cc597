// RUN: ms-opt %s -split-input-file -mie-bind-symbols | FileCheck %s

// Tests code for every shape of symbolic dims: the dynamic input and output become pointer-only
// arguments (memref<1xf32>: the runtime passes bare pointers) seen again with their ms.shape dims
// (row-major strides, static where they can be), an unused random_key argument keeps the slot
// before the new last argument "dims", every mie.symbol becomes a load of its value, and
// mie_arena_bytes(dims) computes what sizes the arena's pointer-only cast (a copy of that
// computation).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[^:]+]]: memref<1xf32> {mie.name = "x", mie.symbolic_shape = array<i64: -1, -1, 32>
// CHECK-SAME: %[[Y:[^:]+]]: memref<1xf32> {mie.name = "y", mie.symbolic_shape = array<i64: -1, 32>
// CHECK-SAME: %[[ARENA:[^:]+]]: memref<1xi8> {mie.slot = "arena"}, %{{[^:]+}}: memref<0xi8> {mie.slot = "weights"}, %{{[^:]+}}: memref<2xi64> {mie.slot = "random_key"}, %[[DIMS:[^:]+]]: memref<2xi64> {mie.slot = "dims"})
// CHECK: %[[W0:.+]] = memref.load %[[DIMS]][%{{.+}}]
// CHECK: %[[S0:.+]] = arith.index_cast %[[W0]] : i64 to index
// CHECK: %[[W1:.+]] = memref.load %[[DIMS]][%{{.+}}]
// CHECK: %[[S1:.+]] = arith.index_cast %[[W1]] : i64 to index
// CHECK: %[[B:.+]] = affine.apply #{{.+}}()[%[[S0]], %[[S1]]]
// CHECK: %[[T:.+]] = affine.apply #{{.+}}()[%[[S0]], %[[S1]]]
// CHECK: %[[STRIDE:.+]] = arith.muli %{{.+}}, %[[T]] : index
// CHECK: memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%[[B]], %[[T]], 32], strides: [%[[STRIDE]], 32, 1] : memref<1xf32> to memref<?x?x32xf32>
// CHECK: memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [%{{.+}}, 32], strides: [32, 1] : memref<1xf32> to memref<?x32xf32>
// CHECK-NOT: mie.symbol
// CHECK: return

// CHECK-LABEL: func.func @mie_arena_bytes
// CHECK-SAME: (%[[D:[^:]+]]: memref<2xi64> {mie.slot = "dims"}) -> i64 attributes {mie.arena_size_fn}
// CHECK: memref.load %[[D]]
// CHECK: memref.load %[[D]]
// CHECK: %[[BYTES:.+]] = affine.apply #{{.*}}()[%{{.+}}, %{{.+}}]
// CHECK: %[[TOTAL:.+]] = arith.index_cast %[[BYTES]] : index to i64
// CHECK: return %[[TOTAL]] : i64
#in = affine_map<()[s0, s1] -> (s0, s1, 32)>
#out = affine_map<()[s0, s1] -> (s0 * s1, 32)>
#bytes = affine_map<()[s0, s1] -> (s0 * s1 * 128)>
func.func @main(%x: memref<?x?x32xf32> {mie.name = "x", ms.shape = #in},
                %y: memref<?x32xf32> {mie.name = "y", ms.shape = #out},
                %a: memref<1xi8> {mie.slot = "arena"}, %w: memref<0xi8> {mie.slot = "weights"})
    attributes {ms.symbols = ["batch", "seq"]} {
  %s0 = mie.symbol 0 : index
  %s1 = mie.symbol 1 : index
  %bytes = affine.apply #bytes()[%s0, %s1]
  %arena = memref.reinterpret_cast %a to offset: [0], sizes: [%bytes], strides: [1] : memref<1xi8> to memref<?xi8>
  %flat = memref.collapse_shape %x [[0, 1], [2]] : memref<?x?x32xf32> into memref<?x32xf32>
  mie.kernel "copy" ins(%flat : memref<?x32xf32>) outs(%y : memref<?x32xf32>) {
  ^bb0(%i: memref<?x32xf32>, %o: memref<?x32xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that a module without symbols is left as it is.

// CHECK-LABEL: func.func @static
// CHECK-SAME: (%{{[^:]+}}: memref<4xf32>)
// CHECK-NOT: mie_arena_bytes
func.func @static(%x: memref<4xf32>) {
  return
}

// -----

// Tests that a kernel's input of the run's symbol values (mie.symbol_values: a start no buffer has
// as an extent) becomes the entry's "dims" argument itself.

// CHECK-LABEL: func.func @positions
// CHECK-SAME: %[[DIMS:[^:]+]]: memref<2xi64> {mie.slot = "dims"})
// CHECK-NOT: mie.symbol_values
// CHECK: mie.kernel "range" ins(%[[DIMS]] : memref<2xi64>)
func.func @positions(%a: memref<1xi8> {mie.slot = "arena"}, %r: memref<8xi64> {mie.name = "r"})
    attributes {ms.symbols = ["seq", "past_len"]} {
  %dims = mie.symbol_values : memref<2xi64>
  mie.kernel "range" ins(%dims : memref<2xi64>) outs(%r : memref<8xi64>) {
  ^bb0(%d: memref<2xi64>, %o: memref<8xi64>):
    mie.yield
  }
  return
}
