// RUN: ms-opt %s -split-input-file -mie-plan-memory | FileCheck %s
// RUN: ms-opt %s -split-input-file -mie-plan-memory -mie-check-memory-plan | FileCheck %s

// Tests a chain of kernels: a buffer lives from the kernel writing it to the last kernel reading it,
// so %a and %c (disjoint lifetimes) share offset 0 while %b, alive with both, does not. A kernel
// reading one buffer and writing another keeps them apart. An unused alloc is dropped. The arena is
// a new last argument, the slot "arena" (mie.slot), and its size is the function's
// mie.arena_bytes; mie.memory records the lower bound (the most bytes live at one kernel: two of
// the three buffers), the bytes without reuse, the buffers live at the peak, largest first
// (unnamed here: no ONNX locations), and for the memory plot every buffer's offset, size, first and last op (block positions).

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:[^:]+]]: memref<256xf32>, %[[Y:[^:]+]]: memref<256xf32>, %[[ARENA:[^:]+]]: memref<2048xi8> {mie.slot = "arena"})
// CHECK-SAME: attributes {mie.arena_bytes = 2048 : i64, mie.memory = {buffer_nodes = ["", "", ""], buffers = array<i64: 0, 1024, 4, 5, 1024, 1024, 5, 6, 0, 1024, 6, 7>, heuristic = "best fit, largest first", in_place = 0 : i64, lower_bound = 2048 : i64, naive = 3072 : i64, optimal = true, peak = {{\[}}[1024, ""], [1024, ""]], peak_op = 5 : i64}}
// CHECK-NOT: mie.alloc
// CHECK: %[[A:.+]] = mie.view %[[ARENA]][0] : memref<2048xi8> to memref<256xf32>
// CHECK: %[[B:.+]] = mie.view %[[ARENA]][1024] : memref<2048xi8> to memref<256xf32>
// CHECK: %[[C:.+]] = mie.view %[[ARENA]][0] : memref<2048xi8> to memref<256xf32>
// CHECK-NOT: mie.view
// CHECK: mie.kernel "k0" ins(%[[X]] : memref<256xf32>) outs(%[[A]] : memref<256xf32>)
// CHECK: mie.kernel "k1" ins(%[[A]] : memref<256xf32>) outs(%[[B]] : memref<256xf32>)
// CHECK: mie.kernel "k2" ins(%[[B]] : memref<256xf32>) outs(%[[C]] : memref<256xf32>)
// CHECK: mie.kernel "k3" ins(%[[C]] : memref<256xf32>) outs(%[[Y]] : memref<256xf32>)
func.func @chain(%x: memref<256xf32>, %y: memref<256xf32>) {
  %a = mie.alloc : memref<256xf32>
  %b = mie.alloc : memref<256xf32>
  %c = mie.alloc : memref<256xf32>
  %unused = mie.alloc : memref<1024xf32>
  mie.kernel "k0" ins(%x : memref<256xf32>) outs(%a : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
    mie.yield
  }
  mie.kernel "k1" ins(%a : memref<256xf32>) outs(%b : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
    mie.yield
  }
  mie.kernel "k2" ins(%b : memref<256xf32>) outs(%c : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
    mie.yield
  }
  mie.kernel "k3" ins(%c : memref<256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
    mie.yield
  }
  return
}

// -----

// Tests buffers alive at the same time: placed largest first, one after the other, never sharing
// a byte (1024 + 256 + 64 bytes).

// CHECK-LABEL: func.func @overlapping
// CHECK-SAME: %[[ARENA:[^:]+]]: memref<1344xi8> {mie.slot = "arena"}) attributes {mie.arena_bytes = 1344 : i64, mie.memory
// CHECK: mie.view %[[ARENA]][1280] : memref<1344xi8> to memref<16xf32>
// CHECK: mie.view %[[ARENA]][0] : memref<1344xi8> to memref<256xf32>
// CHECK: mie.view %[[ARENA]][1024] : memref<1344xi8> to memref<64xf32>
func.func @overlapping(%x: memref<4xf32>) {
  %a = mie.alloc : memref<16xf32>
  %b = mie.alloc : memref<256xf32>
  %c = mie.alloc : memref<64xf32>
  mie.kernel "k" ins(%x : memref<4xf32>) outs(%a, %b, %c : memref<16xf32>, memref<256xf32>, memref<64xf32>) {
  ^bb0(%i: memref<4xf32>, %o1: memref<16xf32>, %o2: memref<256xf32>, %o3: memref<64xf32>):
    mie.yield
  }
  return
}

// -----

// Tests the alignment attribute: every offset is a multiple of its buffer's alignment (64 by
// default), and the plan is the smallest possible, 144 bytes: the 256-aligned buffer at 0, the
// 100 bytes after it, the 3 bytes after those, the 64-aligned 16 bytes at 128. (Largest first alone
// gives 264: the 256-aligned buffer must then go after the others.)

// CHECK-LABEL: func.func @alignment
// CHECK-SAME: %[[ARENA:[^:]+]]: memref<144xi8> {mie.slot = "arena"}) attributes {mie.arena_bytes = 144 : i64, mie.memory
// CHECK-SAME: optimal = true
// CHECK: mie.view %[[ARENA]][8] : memref<144xi8> to memref<100xi8>
// CHECK: mie.view %[[ARENA]][128] : memref<144xi8> to memref<4xf32>
// CHECK: mie.view %[[ARENA]][108] : memref<144xi8> to memref<3xi8>
// CHECK: mie.view %[[ARENA]][0] : memref<144xi8> to memref<2xf32>
func.func @alignment(%x: memref<4xf32>) {
  %a = mie.alloc {alignment = 1} : memref<100xi8>
  %b = mie.alloc : memref<4xf32>
  %c = mie.alloc {alignment = 1} : memref<3xi8>
  %d = mie.alloc {alignment = 256} : memref<2xf32>
  mie.kernel "k" ins(%x : memref<4xf32>)
      outs(%a, %b, %c, %d : memref<100xi8>, memref<4xf32>, memref<3xi8>, memref<2xf32>) {
  ^bb0(%i: memref<4xf32>, %o1: memref<100xi8>, %o2: memref<4xf32>, %o3: memref<3xi8>, %o4: memref<2xf32>):
    mie.yield
  }
  return
}

// Tests that offsets are aligned to at least the element size, even with a smaller `alignment`:
// the f32 buffer never lands right after the 5 bytes (offset 5); it goes first, the bytes after it.
// CHECK-LABEL: func.func @element_alignment
// CHECK-SAME: mie.arena_bytes = 9 : i64
// CHECK: mie.view %{{.*}}[4] : memref<9xi8> to memref<5xi8>
// CHECK: mie.view %{{.*}}[0] : memref<9xi8> to memref<1xf32>
func.func @element_alignment() {
  %a = mie.alloc {alignment = 1} : memref<5xi8>
  %b = mie.alloc {alignment = 1} : memref<1xf32>
  mie.kernel "w" outs(%a, %b : memref<5xi8>, memref<1xf32>) {
  ^bb0(%p: memref<5xi8>, %q: memref<1xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that i1 buffers (comparison results) take one byte per element.
// CHECK-LABEL: func.func @bool_buffer
// CHECK-SAME: mie.arena_bytes = 4 : i64
// CHECK: mie.view %{{.*}}[0] : memref<4xi8> to memref<4xi1>
func.func @bool_buffer() {
  %m = mie.alloc : memref<4xi1>
  mie.kernel "cmp" outs(%m : memref<4xi1>) {
  ^bb0(%p: memref<4xi1>):
    mie.yield
  }
  return
}

// -----

// Tests that a use through a view (collapse_shape) keeps the viewed buffer alive: %b, written while
// %s (a view of %a) is read, must not share %a's bytes.
// CHECK-LABEL: func.func @alias_keeps_alive
// CHECK-SAME: mie.arena_bytes = 128 : i64
// CHECK: mie.view %{{.*}}[0] : memref<128xi8> to memref<2x8xf32>
// CHECK: mie.view %{{.*}}[64] : memref<128xi8> to memref<16xf32>
func.func @alias_keeps_alive() {
  %a = mie.alloc : memref<2x8xf32>
  %b = mie.alloc : memref<16xf32>
  mie.kernel "write_a" outs(%a : memref<2x8xf32>) {
  ^bb0(%p: memref<2x8xf32>):
    mie.yield
  }
  %s = memref.collapse_shape %a [[0, 1]] : memref<2x8xf32> into memref<16xf32>
  mie.kernel "read_s" ins(%s : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%p: memref<16xf32>, %q: memref<16xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that a buffer stays alive from the kernel writing it to the last kernel reading it, with
// other kernels in between: the buffer written in between gets other bytes.

// CHECK-LABEL: func.func @long_lived
// CHECK-SAME: %[[ARENA:[^:]+]]: memref<128xi8> {mie.slot = "arena"}) attributes {mie.arena_bytes = 128 : i64, mie.memory
// CHECK: %[[A:.+]] = mie.view %[[ARENA]][0] : memref<128xi8> to memref<16xf32>
// CHECK: %[[B:.+]] = mie.view %[[ARENA]][64] : memref<128xi8> to memref<16xf32>
func.func @long_lived(%x: memref<16xf32>, %y: memref<16xf32>) {
  %a = mie.alloc : memref<16xf32>
  %b = mie.alloc : memref<16xf32>
  mie.kernel "k0" ins(%x : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%i: memref<16xf32>, %o: memref<16xf32>):
    linalg.copy ins(%i : memref<16xf32>) outs(%o : memref<16xf32>)
    mie.yield
  }
  mie.kernel "k1" ins(%x : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%i: memref<16xf32>, %o: memref<16xf32>):
    linalg.copy ins(%i : memref<16xf32>) outs(%o : memref<16xf32>)
    mie.yield
  }
  mie.kernel "k2" ins(%a, %b : memref<16xf32>, memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%i: memref<16xf32>, %j: memref<16xf32>, %o: memref<16xf32>):
    linalg.add ins(%i, %j : memref<16xf32>, memref<16xf32>) outs(%o : memref<16xf32>)
    mie.yield
  }
  return
}

// -----

// Tests a function without buffers: it still gets an (empty) arena, so the calling convention does
// not depend on the plan; declarations are left alone.

// CHECK-LABEL: func.func @no_buffers
// CHECK-SAME: (%{{[^:]+}}: memref<4xf32>, %{{[^:]+}}: memref<0xi8> {mie.slot = "arena"}) attributes {mie.arena_bytes = 0 : i64, mie.memory
func.func @no_buffers(%x: memref<4xf32>) {
  return
}

// CHECK-LABEL: func.func private @declaration
// CHECK-SAME: (memref<4xf32>){{$}}
func.func private @declaration(memref<4xf32>)

// -----

// Tests in-place reuse: %b is first written by an elementwise kernel at which %a, of the same type,
// is read for the last time, so %b takes %a's bytes (the same offset) and the arena holds one buffer
// where it held two. The chain continues: %c takes them over from %b in turn.
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: memref<1024xi8> {mie.slot = "arena"}) attributes {mie.arena_bytes = 1024 : i64, mie.memory = {{{.*}}heuristic = "best fit, largest first", in_place = 2 : i64, lower_bound = 1024 : i64, naive = 3072 : i64
// CHECK: mie.view %{{.*}}[0] : memref<1024xi8> to memref<16x16xf32>
// CHECK: mie.view %{{.*}}[0] : memref<1024xi8> to memref<16x16xf32>
// CHECK: mie.view %{{.*}}[0] : memref<1024xi8> to memref<16x16xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @in_place(%x: memref<16x16xf32>, %s: memref<16xf32>, %y: memref<16x16xf32>) {
  %a = mie.alloc : memref<16x16xf32>
  %b = mie.alloc : memref<16x16xf32>
  %c = mie.alloc : memref<16x16xf32>
  mie.kernel "copy" ins(%x : memref<16x16xf32>) outs(%a : memref<16x16xf32>) {
  ^bb0(%i: memref<16x16xf32>, %o: memref<16x16xf32>):
    linalg.copy ins(%i : memref<16x16xf32>) outs(%o : memref<16x16xf32>)
    mie.yield
  }
  // A broadcast second operand is fine: only %a must be read through the identity.
  mie.kernel "scale" ins(%s, %a : memref<16xf32>, memref<16x16xf32>) outs(%b : memref<16x16xf32>) {
  ^bb0(%v: memref<16xf32>, %i: memref<16x16xf32>, %o: memref<16x16xf32>):
    linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%v, %i : memref<16xf32>, memref<16x16xf32>) outs(%o : memref<16x16xf32>) {
    ^bb0(%p: f32, %q: f32, %r: f32):
      %m = arith.mulf %p, %q : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  mie.kernel "relu" ins(%b : memref<16x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%i: memref<16x16xf32>, %o: memref<16x16xf32>):
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%i : memref<16x16xf32>) outs(%o : memref<16x16xf32>) {
    ^bb0(%q: f32, %r: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %q, %z : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  mie.kernel "copy" ins(%c : memref<16x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%i: memref<16x16xf32>, %o: memref<16x16xf32>):
    linalg.copy ins(%i : memref<16x16xf32>) outs(%o : memref<16x16xf32>)
    mie.yield
  }
  return
}

// -----

// Tests where in-place reuse is refused, each output gets bytes of its own: the input is still read
// later (@live_after), read transposed (@transposed), read by the kernel a second time through
// another operand (@twice), the output is written before the elementwise op reads the input
// (@written_first), and the payload reads the output's old value (@accumulates).
// CHECK-LABEL: func.func @live_after
// CHECK-SAME: in_place = 0 : i64
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: in_place = 0 : i64
// CHECK-LABEL: func.func @twice
// CHECK-SAME: in_place = 0 : i64
// CHECK-LABEL: func.func @written_first
// CHECK-SAME: in_place = 0 : i64
// CHECK-LABEL: func.func @accumulates
// CHECK-SAME: in_place = 0 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @live_after(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %a = mie.alloc : memref<8x8xf32>
  %b = mie.alloc : memref<8x8xf32>
  mie.kernel "copy" ins(%x : memref<8x8xf32>) outs(%a : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  mie.kernel "neg" ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>) {
    ^bb0(%q: f32, %r: f32):
      %m = arith.negf %q : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  mie.kernel "add" ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %j: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.add ins(%i, %j : memref<8x8xf32>, memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  return
}
func.func @transposed(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %a = mie.alloc : memref<8x8xf32>
  %b = mie.alloc : memref<8x8xf32>
  mie.kernel "copy" ins(%x : memref<8x8xf32>) outs(%a : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  mie.kernel "transpose" ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
        ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>) {
    ^bb0(%q: f32, %r: f32):
      linalg.yield %q : f32
    }
    mie.yield
  }
  mie.kernel "copy" ins(%b : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  return
}
func.func @twice(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %a = mie.alloc : memref<8x8xf32>
  %b = mie.alloc : memref<8x8xf32>
  mie.kernel "copy" ins(%x : memref<8x8xf32>) outs(%a : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  mie.kernel "mul_transposed" ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %j: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
        ins(%i, %j : memref<8x8xf32>, memref<8x8xf32>) outs(%o : memref<8x8xf32>) {
    ^bb0(%p: f32, %q: f32, %r: f32):
      %m = arith.mulf %p, %q : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  mie.kernel "copy" ins(%b : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  return
}
func.func @written_first(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %a = mie.alloc : memref<8x8xf32>
  %b = mie.alloc : memref<8x8xf32>
  mie.kernel "copy" ins(%x : memref<8x8xf32>) outs(%a : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  mie.kernel "fill_then_neg" ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    %z = arith.constant 0.0 : f32
    linalg.fill ins(%z : f32) outs(%o : memref<8x8xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>) {
    ^bb0(%q: f32, %r: f32):
      %m = arith.negf %q : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  mie.kernel "copy" ins(%b : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  return
}
func.func @accumulates(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %a = mie.alloc : memref<8x8xf32>
  %b = mie.alloc : memref<8x8xf32>
  mie.kernel "copy" ins(%x : memref<8x8xf32>) outs(%a : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  mie.kernel "acc" ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>) {
    ^bb0(%q: f32, %r: f32):
      %m = arith.addf %q, %r : f32
      linalg.yield %m : f32
    }
    mie.yield
  }
  mie.kernel "copy" ins(%b : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%i: memref<8x8xf32>, %o: memref<8x8xf32>):
    linalg.copy ins(%i : memref<8x8xf32>) outs(%o : memref<8x8xf32>)
    mie.yield
  }
  return
}

// -----

// Tests in-place reuse that the microkernel lowering vouches for (`mie.in_place_input`: a residual
// read in the epilogue of the tile that stores the same elements): the output takes the bytes of
// the residual, which dies at the kernel, also when the kernel reads both through 2-D collapses of
// the whole buffers (a pixel-rows GEMM on an image) and the collapses come before it. Without the
// attribute (@residual_not_vouched), or with the residual read again later (@residual_live_after),
// the output gets bytes of its own.
// CHECK-LABEL: func.func @residual_in_place
// CHECK-SAME: in_place = 1 : i64, lower_bound = 256 : i64, naive = 512 : i64
// CHECK: mie.view %{{.*}}[0] : memref<256xi8> to memref<1x4x2x8xf32>
// CHECK: mie.view %{{.*}}[0] : memref<256xi8> to memref<1x4x2x8xf32>
// CHECK-LABEL: func.func @residual_not_vouched
// CHECK-SAME: in_place = 0 : i64
// CHECK-LABEL: func.func @residual_live_after
// CHECK-SAME: in_place = 0 : i64
func.func @residual_in_place(%x: memref<1x4x2x8xf32>, %w: memref<16x16xf32>, %y: memref<1x4x2x8xf32>) {
  %res = mie.alloc : memref<1x4x2x8xf32>
  %out = mie.alloc : memref<1x4x2x8xf32>
  mie.kernel "copy" ins(%x : memref<1x4x2x8xf32>) outs(%res : memref<1x4x2x8xf32>) {
  ^bb0(%i: memref<1x4x2x8xf32>, %o: memref<1x4x2x8xf32>):
    linalg.copy ins(%i : memref<1x4x2x8xf32>) outs(%o : memref<1x4x2x8xf32>)
    mie.yield
  }
  %xc = memref.collapse_shape %x [[0, 1], [2, 3]] : memref<1x4x2x8xf32> into memref<4x16xf32>
  %rc = memref.collapse_shape %res [[0, 1], [2, 3]] : memref<1x4x2x8xf32> into memref<4x16xf32>
  %oc = memref.collapse_shape %out [[0, 1], [2, 3]] : memref<1x4x2x8xf32> into memref<4x16xf32>
  mie.kernel "gemm" ins(%xc, %w, %rc : memref<4x16xf32>, memref<16x16xf32>, memref<4x16xf32>)
      outs(%oc : memref<4x16xf32>) attributes {mie.in_place_input = 2 : i64} {
  ^bb0(%a: memref<4x16xf32>, %b: memref<16x16xf32>, %r: memref<4x16xf32>, %o: memref<4x16xf32>):
    mie.yield
  }
  mie.kernel "copy" ins(%out : memref<1x4x2x8xf32>) outs(%y : memref<1x4x2x8xf32>) {
  ^bb0(%i: memref<1x4x2x8xf32>, %o: memref<1x4x2x8xf32>):
    linalg.copy ins(%i : memref<1x4x2x8xf32>) outs(%o : memref<1x4x2x8xf32>)
    mie.yield
  }
  return
}
func.func @residual_not_vouched(%x: memref<4x16xf32>, %w: memref<16x16xf32>, %y: memref<4x16xf32>) {
  %res = mie.alloc : memref<4x16xf32>
  %out = mie.alloc : memref<4x16xf32>
  mie.kernel "copy" ins(%x : memref<4x16xf32>) outs(%res : memref<4x16xf32>) {
  ^bb0(%i: memref<4x16xf32>, %o: memref<4x16xf32>):
    linalg.copy ins(%i : memref<4x16xf32>) outs(%o : memref<4x16xf32>)
    mie.yield
  }
  mie.kernel "gemm" ins(%x, %w, %res : memref<4x16xf32>, memref<16x16xf32>, memref<4x16xf32>)
      outs(%out : memref<4x16xf32>) {
  ^bb0(%a: memref<4x16xf32>, %b: memref<16x16xf32>, %r: memref<4x16xf32>, %o: memref<4x16xf32>):
    mie.yield
  }
  mie.kernel "copy" ins(%out : memref<4x16xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%i: memref<4x16xf32>, %o: memref<4x16xf32>):
    linalg.copy ins(%i : memref<4x16xf32>) outs(%o : memref<4x16xf32>)
    mie.yield
  }
  return
}
func.func @residual_live_after(%x: memref<4x16xf32>, %w: memref<16x16xf32>, %y: memref<4x16xf32>) {
  %res = mie.alloc : memref<4x16xf32>
  %out = mie.alloc : memref<4x16xf32>
  mie.kernel "copy" ins(%x : memref<4x16xf32>) outs(%res : memref<4x16xf32>) {
  ^bb0(%i: memref<4x16xf32>, %o: memref<4x16xf32>):
    linalg.copy ins(%i : memref<4x16xf32>) outs(%o : memref<4x16xf32>)
    mie.yield
  }
  mie.kernel "gemm" ins(%x, %w, %res : memref<4x16xf32>, memref<16x16xf32>, memref<4x16xf32>)
      outs(%out : memref<4x16xf32>) attributes {mie.in_place_input = 2 : i64} {
  ^bb0(%a: memref<4x16xf32>, %b: memref<16x16xf32>, %r: memref<4x16xf32>, %o: memref<4x16xf32>):
    mie.yield
  }
  mie.kernel "add" ins(%out, %res : memref<4x16xf32>, memref<4x16xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%i: memref<4x16xf32>, %j: memref<4x16xf32>, %o: memref<4x16xf32>):
    linalg.add ins(%i, %j : memref<4x16xf32>, memref<4x16xf32>) outs(%o : memref<4x16xf32>)
    mie.yield
  }
  return
}

// -----

// Tests buffers around a loop (ONNX Loop/Scan lowered to scf.for): %w, written before the loop and
// read at the start of every iteration, stays alive over the whole loop (points 4 to 13, the
// loop's last nested op), so no buffer of the body takes its bytes, although on straight-line
// order %w's last use (k1) comes before %t2 and %t3 are first written. The body's buffers live
// within one iteration and share bytes among themselves (%t3 takes %t1's); %a, after the loop,
// takes %w's. %w dies at the loop's terminator, which launches nothing: its bytes are not listed
// as dead after any kernel.
// CHECK-LABEL: func.func @loop_keeps_outer_buffers
// CHECK-SAME: mie.arena_bytes = 3072 : i64, mie.memory = {buffer_nodes = ["", "", "", "", ""], buffers = array<i64: 0, 1024, 4, 13, 1024, 1024, 7, 9, 2048, 1024, 9, 11, 1024, 1024, 11, 12, 0, 1024, 15, 16>
// CHECK: %[[W:.+]] = mie.view %{{.+}}[0] : memref<3072xi8> to memref<256xf32>
// CHECK: mie.kernel "k0" ins(%arg0 : memref<256xf32>) outs(%[[W]] : memref<256xf32>) {
// CHECK: scf.for
// CHECK:   %[[T1:.+]] = mie.view %{{.+}}[1024] : memref<3072xi8> to memref<256xf32>
// CHECK:   mie.kernel "k1" ins(%[[W]] : memref<256xf32>) outs(%[[T1]] : memref<256xf32>) {
// CHECK:   %[[T2:.+]] = mie.view %{{.+}}[2048] : memref<3072xi8> to memref<256xf32>
// CHECK:   mie.kernel "k2" ins(%[[T1]] : memref<256xf32>) outs(%[[T2]] : memref<256xf32>) attributes {mie.dead_after = array<i64: 1024, 1024>}
// CHECK:   %[[T3:.+]] = mie.view %{{.+}}[1024] : memref<3072xi8> to memref<256xf32>
// CHECK:   mie.kernel "k3" ins(%[[T2]] : memref<256xf32>) outs(%[[T3]] : memref<256xf32>) attributes {mie.dead_after = array<i64: 2048, 1024>}
// CHECK:   mie.kernel "k4" ins(%[[T3]] : memref<256xf32>) outs(%arg1 : memref<256xf32>) attributes {mie.dead_after = array<i64: 1024, 1024>}
// CHECK: %[[A:.+]] = mie.view %{{.+}}[0] : memref<3072xi8> to memref<256xf32>
// CHECK: mie.kernel "k5" ins(%arg1 : memref<256xf32>) outs(%[[A]] : memref<256xf32>) {
// CHECK: mie.kernel "k6" ins(%[[A]] : memref<256xf32>) outs(%arg1 : memref<256xf32>) attributes {mie.dead_after = array<i64: 0, 1024>}
func.func @loop_keeps_outer_buffers(%x: memref<256xf32>, %y: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = mie.alloc : memref<256xf32>
  mie.kernel "k0" ins(%x : memref<256xf32>) outs(%w : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
    mie.yield
  }
  scf.for %iv = %c0 to %c4 step %c1 {
    %t1 = mie.alloc : memref<256xf32>
    mie.kernel "k1" ins(%w : memref<256xf32>) outs(%t1 : memref<256xf32>) {
    ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
      linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
      mie.yield
    }
    %t2 = mie.alloc : memref<256xf32>
    mie.kernel "k2" ins(%t1 : memref<256xf32>) outs(%t2 : memref<256xf32>) {
    ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
      linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
      mie.yield
    }
    %t3 = mie.alloc : memref<256xf32>
    mie.kernel "k3" ins(%t2 : memref<256xf32>) outs(%t3 : memref<256xf32>) {
    ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
      linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
      mie.yield
    }
    mie.kernel "k4" ins(%t3 : memref<256xf32>) outs(%y : memref<256xf32>) {
    ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
      linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
      mie.yield
    }
  }
  %a = mie.alloc : memref<256xf32>
  mie.kernel "k5" ins(%y : memref<256xf32>) outs(%a : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
    mie.yield
  }
  mie.kernel "k6" ins(%a : memref<256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    linalg.copy ins(%i : memref<256xf32>) outs(%o : memref<256xf32>)
    mie.yield
  }
  return
}

// -----

// Tests buffers of symbolic dims (code for every shape): they become memref.views of the arena at
// offsets computed at the function's start from the symbols (a stacked plan: the second buffer,
// alive with the first, sits on top of it), the arena is a pointer-only memref<1xi8> seen with the
// plan's total, and mie.memory describes the plan at the ranges' largest shape.

// CHECK-LABEL: func.func @symbolic
// CHECK-SAME: %[[ARENA:[^:]+]]: memref<1xi8> {mie.slot = "arena"}
// CHECK-SAME: heuristic = "stacked over the symbols' ranges (worst ratio to the lower bound 1.000)"
// CHECK-SAME: lower_bound = 65536 : i64
// CHECK: %[[N:.+]] = mie.symbol 0 : index
// CHECK: %[[BYTES0:.+]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK: %[[OFF0:.+]] = arith.muli
// CHECK: %[[END0:.+]] = arith.addi %[[OFF0]], %[[BYTES0]] : index
// CHECK: %[[BYTES1:.+]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK: %[[ON0:.+]] = arith.addi %[[OFF0]], %[[BYTES0]] : index
// CHECK: %[[TOP1:.+]] = arith.maxui %{{.+}}, %[[ON0]] : index
// CHECK: %[[UP1:.+]] = arith.addi %[[TOP1]], %{{.+}} : index
// CHECK: %[[OFF1:.+]] = arith.muli
// CHECK: %[[END1:.+]] = arith.addi %[[OFF1]], %[[BYTES1]] : index
// CHECK: %[[TOTAL:.+]] = arith.maxui %{{.+}}, %[[END1]] : index
// CHECK: %[[BASE:.+]] = memref.reinterpret_cast %[[ARENA]] to offset: [0], sizes: [%[[TOTAL]]], strides: [1] : memref<1xi8> to memref<?xi8>
// CHECK: memref.view %[[BASE]][%[[OFF0]]][%{{.+}}] : memref<?xi8> to memref<?x32xf32>
// CHECK: memref.view %[[BASE]][%[[OFF1]]][%{{.+}}] : memref<?xi8> to memref<?x32xf32>
// CHECK-NOT: mie.alloc
func.func @symbolic(%x: memref<?x32xf32>, %y: memref<?x32xf32>)
    attributes {ms.symbols = ["n"], mie.symbol_ranges = array<i64: 1, 256>} {
  %n = mie.symbol 0 : index
  %a = mie.alloc(%n) : memref<?x32xf32>
  %b = mie.alloc(%n) : memref<?x32xf32>
  mie.kernel "k0" ins(%x : memref<?x32xf32>) outs(%a : memref<?x32xf32>) {
  ^bb0(%i: memref<?x32xf32>, %o: memref<?x32xf32>):
    mie.yield
  }
  mie.kernel "k1" ins(%a : memref<?x32xf32>) outs(%b : memref<?x32xf32>) {
  ^bb0(%i: memref<?x32xf32>, %o: memref<?x32xf32>):
    mie.yield
  }
  mie.kernel "k2" ins(%a, %b : memref<?x32xf32>, memref<?x32xf32>) outs(%y : memref<?x32xf32>) {
  ^bb0(%i: memref<?x32xf32>, %j: memref<?x32xf32>, %o: memref<?x32xf32>):
    mie.yield
  }
  return
}

// -----

// Tests in-place reuse of buffers of symbolic dims: %b, written elementwise from %a where %a dies,
// takes %a's offset when both have the same bytes as an expression of the symbols (n x 128; reading
// %b's extent before the kernel touches no bytes); %d, of the same type but m rows, keeps bytes of
// its own.
// CHECK-LABEL: func.func @symbolic_in_place
// CHECK-SAME: in_place = 1 : i64
// CHECK: %[[N:.+]] = mie.symbol 0 : index
// CHECK: %[[OFF0:.+]] = arith.muli
// CHECK: %[[OFF1:.+]] = arith.muli
// CHECK: %[[BASE:.+]] = memref.reinterpret_cast
// CHECK: memref.view %[[BASE]][%[[OFF0]]][%{{.+}}] : memref<?xi8> to memref<?x32xf32>
// CHECK: memref.view %[[BASE]][%[[OFF0]]][%{{.+}}] : memref<?xi8> to memref<?x32xf32>
// CHECK: memref.view %[[BASE]][%[[OFF1]]][%{{.+}}] : memref<?xi8> to memref<?x32xf32>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @symbolic_in_place(%x: memref<?x32xf32>, %y: memref<?x32xf32>, %z: memref<?x32xf32>)
    attributes {ms.symbols = ["n", "m"], mie.symbol_ranges = array<i64: 1, 256, 1, 64>} {
  %n = mie.symbol 0 : index
  %m = mie.symbol 1 : index
  %a = mie.alloc(%n) : memref<?x32xf32>
  %b = mie.alloc(%n) : memref<?x32xf32>
  %d = mie.alloc(%m) : memref<?x32xf32>
  %i0 = arith.constant 0 : index
  %rows = memref.dim %b, %i0 : memref<?x32xf32>
  mie.kernel "copy" ins(%x : memref<?x32xf32>) outs(%a : memref<?x32xf32>) {
  ^bb0(%i: memref<?x32xf32>, %o: memref<?x32xf32>):
    linalg.copy ins(%i : memref<?x32xf32>) outs(%o : memref<?x32xf32>)
    mie.yield
  }
  mie.kernel "relu" ins(%a : memref<?x32xf32>) outs(%b : memref<?x32xf32>) {
  ^bb0(%i: memref<?x32xf32>, %o: memref<?x32xf32>):
    linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%i : memref<?x32xf32>) outs(%o : memref<?x32xf32>) {
    ^bb0(%q: f32, %r: f32):
      %c0 = arith.constant 0.0 : f32
      %v = arith.maximumf %q, %c0 : f32
      linalg.yield %v : f32
    }
    mie.yield
  }
  mie.kernel "relu" ins(%b : memref<?x32xf32>) outs(%d : memref<?x32xf32>) {
  ^bb0(%i: memref<?x32xf32>, %o: memref<?x32xf32>):
    linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%i : memref<?x32xf32>) outs(%o : memref<?x32xf32>) {
    ^bb0(%q: f32, %r: f32):
      %c0 = arith.constant 0.0 : f32
      %v = arith.maximumf %q, %c0 : f32
      linalg.yield %v : f32
    }
    mie.yield
  }
  mie.kernel "copy" ins(%d : memref<?x32xf32>) outs(%y : memref<?x32xf32>) {
  ^bb0(%i: memref<?x32xf32>, %o: memref<?x32xf32>):
    linalg.copy ins(%i : memref<?x32xf32>) outs(%o : memref<?x32xf32>)
    mie.yield
  }
  return
}
