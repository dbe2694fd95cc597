// RUN: ms-opt %s -split-input-file -mie-plan-memory -verify-diagnostics

// Tests that a buffer returned from its function is reported at the return.

func.func @escapes_through_return() -> memref<4xf32> {
  %a = mie.alloc : memref<4xf32>
  // expected-error @+1 {{mie-plan-memory: buffer escapes its function through this op}}
  return %a : memref<4xf32>
}

// -----

// Tests that a buffer passed to a call is reported at the call.

func.func private @callee(memref<4xf32>)

func.func @escapes_through_call() {
  %a = mie.alloc : memref<4xf32>
  // expected-error @+1 {{mie-plan-memory: buffer escapes its function through this op}}
  call @callee(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// Tests that a function with several blocks is rejected.

// expected-error @+1 {{mie-plan-memory expects a single-block function}}
func.func @blocks(%c: i1) {
  %a = mie.alloc : memref<4xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}

// -----

// Tests that buffers in a private function are rejected instead of giving it an arena its callers
// do not pass.
// expected-error @+1 {{mie-plan-memory: buffers in private function 'callee' cannot be planned (only public functions own an arena)}}
func.func private @callee() {
  %a = mie.alloc : memref<4xf32>
  mie.kernel "w" outs(%a : memref<4xf32>) {
  ^bb0(%p: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that buffers of symbolic dims need the symbols' ranges (the plan is chosen on them).

func.func @no_ranges(%x: memref<?xf32>) attributes {ms.symbols = ["n"]} {
  // expected-error@-1 {{mie-plan-memory: buffers with symbolic dims need the function's 'mie.symbol_ranges'}}
  %n = mie.symbol 0 : index
  %a = mie.alloc(%n) : memref<?xf32>
  mie.kernel "k" ins(%x : memref<?xf32>) outs(%a : memref<?xf32>) {
  ^bb0(%i: memref<?xf32>, %o: memref<?xf32>):
    mie.yield
  }
  mie.kernel "k2" ins(%a : memref<?xf32>) outs(%x : memref<?xf32>) {
  ^bb0(%i: memref<?xf32>, %o: memref<?xf32>):
    mie.yield
  }
  return
}
