// RUN: ms-opt %s -split-input-file -mie-bundle-weights -verify-diagnostics

// Tests that reading a mutable global is rejected: only constants move into the weights blob.

memref.global "private" @state : memref<2xf32> = uninitialized

func.func @reads_state() {
  // expected-error @+1 {{mie-bundle-weights: global 'state' is not a constant}}
  %0 = memref.get_global @state : memref<2xf32>
  return
}

// -----

// Tests that a dense_resource constant whose blob is missing is reported at its global.

// expected-error @+1 {{weights resource 'missing' has no data}}
memref.global "private" constant @a : memref<2xf32> = dense_resource<missing>

func.func @reads_missing(%y: memref<2xf32>) {
  %0 = memref.get_global @a : memref<2xf32>
  mie.kernel "copy" ins(%0 : memref<2xf32>) outs(%y : memref<2xf32>) {
  ^bb0(%i: memref<2xf32>, %o: memref<2xf32>):
    linalg.copy ins(%i : memref<2xf32>) outs(%o : memref<2xf32>)
    mie.yield
  }
  return
}
