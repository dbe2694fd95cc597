// RUN: ms-opt %s -split-input-file -mie-check-memory-plan -verify-diagnostics | FileCheck %s

// Tests a correct plan, left unchanged: %a and %c share bytes, but %a's last use comes before %c's
// first; %b is alive with both and has bytes of its own.
// CHECK-LABEL: func.func @valid
// CHECK-COUNT-3: mie.view
#id = affine_map<(d0) -> (d0)>
func.func @valid(%x: memref<4xf32>, %y: memref<4xf32>, %arena: memref<32xi8> {mie.slot = "arena"})
    attributes {mie.arena_bytes = 32 : i64} {
  %a = mie.view %arena[0] : memref<32xi8> to memref<4xf32>
  mie.kernel "k0" ins(%x : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  %b = mie.view %arena[16] : memref<32xi8> to memref<4xf32>
  mie.kernel "k1" ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  %c = mie.view %arena[0] : memref<32xi8> to memref<4xf32>
  mie.kernel "k2" ins(%b : memref<4xf32>) outs(%c : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  mie.kernel "k3" ins(%c : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  return
}

// Tests that an output written in place over an input dying at an elementwise kernel is accepted.
// CHECK-LABEL: func.func @in_place
func.func @in_place(%x: memref<4xf32>, %y: memref<4xf32>, %arena: memref<16xi8> {mie.slot = "arena"})
    attributes {mie.arena_bytes = 16 : i64} {
  %a = mie.view %arena[0] : memref<16xi8> to memref<4xf32>
  mie.kernel "k0" ins(%x : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  %b = mie.view %arena[0] : memref<16xi8> to memref<4xf32>
  mie.kernel "neg" ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%i : memref<4xf32>) outs(%o : memref<4xf32>) {
    ^bb0(%q: f32, %r: f32):
      %m = arith.negf %q : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  mie.kernel "k2" ins(%b : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  return
}

// Tests that an output written in place over a residual that the microkernel lowering vouches for
// (`mie.in_place_input`) is accepted, also through collapses of the whole buffers.
// CHECK-LABEL: func.func @residual_in_place
func.func @residual_in_place(%x: memref<2x4xf32>, %y: memref<1x2x2x2xf32>,
                             %arena: memref<32xi8> {mie.slot = "arena"})
    attributes {mie.arena_bytes = 32 : i64} {
  %r = mie.view %arena[0] : memref<32xi8> to memref<1x2x2x2xf32>
  mie.kernel "k0" ins(%x : memref<2x4xf32>) outs(%r : memref<1x2x2x2xf32>) {
  ^bb0(%i: memref<2x4xf32>, %o: memref<1x2x2x2xf32>):
    mie.yield
  }
  %o = mie.view %arena[0] : memref<32xi8> to memref<1x2x2x2xf32>
  %rc = memref.collapse_shape %r [[0, 1], [2, 3]] : memref<1x2x2x2xf32> into memref<2x4xf32>
  %oc = memref.collapse_shape %o [[0, 1], [2, 3]] : memref<1x2x2x2xf32> into memref<2x4xf32>
  mie.kernel "gemm" ins(%x, %rc : memref<2x4xf32>, memref<2x4xf32>) outs(%oc : memref<2x4xf32>)
      attributes {mie.in_place_input = 1 : i64} {
  ^bb0(%a: memref<2x4xf32>, %b: memref<2x4xf32>, %c: memref<2x4xf32>):
    mie.yield
  }
  mie.kernel "k2" ins(%o : memref<1x2x2x2xf32>) outs(%y : memref<1x2x2x2xf32>) {
  ^bb0(%i: memref<1x2x2x2xf32>, %p: memref<1x2x2x2xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that the attribute vouches only for the input it names: here the kernel writes its output
// over input 0, the microkernel lowering vouched for input 1.
func.func @residual_other_input(%x: memref<4xf32>, %y: memref<4xf32>,
                                %arena: memref<32xi8> {mie.slot = "arena"})
    attributes {mie.arena_bytes = 32 : i64} {
  %a = mie.view %arena[0] : memref<32xi8> to memref<4xf32> loc(fused["/a/Conv"])
  %r = mie.view %arena[16] : memref<32xi8> to memref<4xf32>
  mie.kernel "k0" ins(%x : memref<4xf32>) outs(%a, %r : memref<4xf32>, memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>, %p: memref<4xf32>):
    mie.yield
  }
  %o = mie.view %arena[0] : memref<32xi8> to memref<4xf32> loc(fused["/b/Conv"])
  // expected-error @below {{mie-check-memory-plan: buffers [0, 16) (/a/Conv) and [0, 16) (/b/Conv) are both alive at this op and share arena bytes}}
  mie.kernel "gemm" ins(%a, %r : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
      attributes {mie.in_place_input = 1 : i64} {
  ^bb0(%i: memref<4xf32>, %j: memref<4xf32>, %p: memref<4xf32>):
    mie.yield
  }
  mie.kernel "k2" ins(%o : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %p: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

// Tests two buffers alive at the same kernel and sharing bytes: the error is at the kernel where
// both are alive, with both buffers' byte ranges and ONNX nodes.
func.func @overlap(%x: memref<4xf32>, %y: memref<4xf32>, %arena: memref<32xi8> {mie.slot = "arena"})
    attributes {mie.arena_bytes = 32 : i64} {
  %a = mie.view %arena[0] : memref<32xi8> to memref<4xf32> loc(fused["/conv1/Conv"])
  mie.kernel "k0" ins(%x : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  %b = mie.view %arena[8] : memref<32xi8> to memref<4xf32> loc(fused["/relu/Relu"])
  // expected-error @below {{mie-check-memory-plan: buffers [0, 16) (/conv1/Conv) and [8, 24) (/relu/Relu) are both alive at this op and share arena bytes}}
  mie.kernel "k1" ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  mie.kernel "k2" ins(%b : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that the same bytes for an input and an output of a kernel that does not write elementwise
// in place (here it reads the input reversed) are an overlap.
#rev = affine_map<(d0) -> (3 - d0)>
#id = affine_map<(d0) -> (d0)>
func.func @not_in_place(%x: memref<4xf32>, %y: memref<4xf32>, %arena: memref<16xi8> {mie.slot = "arena"})
    attributes {mie.arena_bytes = 16 : i64} {
  %a = mie.view %arena[0] : memref<16xi8> to memref<4xf32>
  mie.kernel "k0" ins(%x : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  %b = mie.view %arena[0] : memref<16xi8> to memref<4xf32>
  // expected-error @below {{buffers [0, 16) and [0, 16) are both alive at this op}}
  mie.kernel "reverse" ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    linalg.generic {indexing_maps = [#rev, #id], iterator_types = ["parallel"]}
        ins(%i : memref<4xf32>) outs(%o : memref<4xf32>) {
    ^bb0(%q: f32, %r: f32):
      linalg.yield %q : f32
    }
    mie.yield
  }
  mie.kernel "k2" ins(%b : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

// Tests a buffer that runs past the end of the arena the plan reserved (mie.arena_bytes).
func.func @outside(%x: memref<4xf32>, %arena: memref<32xi8> {mie.slot = "arena"})
    attributes {mie.arena_bytes = 16 : i64} {
  // expected-error @below {{mie-check-memory-plan: buffer [8, 24) does not lie inside the arena of 16 bytes}}
  %a = mie.view %arena[8] : memref<32xi8> to memref<4xf32>
  mie.kernel "k0" ins(%x : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  return
}

// -----

// Tests a plan that would be right on straight-line code but not in a loop: %w is read at the start
// of every iteration, so %t, written later in the body, must not take its bytes (the next
// iteration would read %t's values as %w).
#id = affine_map<(d0) -> (d0)>
func.func @loop_overwrites_outer(%x: memref<4xf32>, %y: memref<4xf32>, %arena: memref<32xi8> {mie.slot = "arena"})
    attributes {mie.arena_bytes = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = mie.view %arena[0] : memref<32xi8> to memref<4xf32>
  mie.kernel "k0" ins(%x : memref<4xf32>) outs(%w : memref<4xf32>) {
  ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
    mie.yield
  }
  scf.for %iv = %c0 to %c4 step %c1 {
    %s = mie.view %arena[16] : memref<32xi8> to memref<4xf32>
    mie.kernel "k1" ins(%w : memref<4xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
      mie.yield
    }
    %t = mie.view %arena[0] : memref<32xi8> to memref<4xf32>
    // expected-error @below {{mie-check-memory-plan: buffers [0, 16) and [0, 16) are both alive at this op and share arena bytes}}
    mie.kernel "k2" ins(%s : memref<4xf32>) outs(%t : memref<4xf32>) {
    ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
      mie.yield
    }
    mie.kernel "k3" ins(%t : memref<4xf32>) outs(%y : memref<4xf32>) {
    ^bb0(%i: memref<4xf32>, %o: memref<4xf32>):
      mie.yield
    }
  }
  return
}
