// RUN: ms-opt %s -split-input-file -mie-schedule-for-memory | FileCheck %s

// Tests two branches that each shrink a large buffer: as given, both large buffers are alive at
// once (1024 + 1024 + 64 bytes at "shrink_a"); scheduled for memory, branch a is finished before
// branch b starts (1024 + 64 + 64 at most). Allocations and views move with their first kernel.
// CHECK-LABEL: func.func @branches
// CHECK-SAME: mie.schedule_peak = array<i64: 2112, 1152>
// CHECK: mie.kernel "grow_a"
// CHECK: mie.kernel "shrink_a"
// CHECK: mie.alloc : memref<256xf32>
// CHECK: mie.kernel "grow_b"
// CHECK: mie.kernel "shrink_b"
// CHECK: mie.kernel "join"
func.func @branches(%x: memref<16xf32>, %y: memref<16xf32>) {
  %a = mie.alloc : memref<256xf32>
  %b = mie.alloc : memref<256xf32>
  %a2 = mie.alloc : memref<16xf32>
  %b2 = mie.alloc : memref<16xf32>
  mie.kernel "grow_a" ins(%x : memref<16xf32>) outs(%a : memref<256xf32>) {
  ^bb0(%i: memref<16xf32>, %o: memref<256xf32>):
    mie.yield
  }
  mie.kernel "grow_b" ins(%x : memref<16xf32>) outs(%b : memref<256xf32>) {
  ^bb0(%i: memref<16xf32>, %o: memref<256xf32>):
    mie.yield
  }
  mie.kernel "shrink_a" ins(%a : memref<256xf32>) outs(%a2 : memref<16xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<16xf32>):
    mie.yield
  }
  mie.kernel "shrink_b" ins(%b : memref<256xf32>) outs(%b2 : memref<16xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<16xf32>):
    mie.yield
  }
  mie.kernel "join" ins(%a2, %b2 : memref<16xf32>, memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%i: memref<16xf32>, %j: memref<16xf32>, %o: memref<16xf32>):
    mie.yield
  }
  return
}

// -----

// Tests that dependencies are kept: "late_write" writes the graph output after "read_y" reads
// it, and "overwrite" writes %a after "use_a" reads it, so neither may move before the other
// even though the greedy order would prefer it; the order is the given one (no lower peak).
// CHECK-LABEL: func.func @dependencies
// CHECK-SAME: mie.schedule_peak = array<i64: 2048, 2048>
// CHECK: mie.kernel "fill_a"
// CHECK: mie.kernel "use_a"
// CHECK: mie.kernel "overwrite"
// CHECK: mie.kernel "read_y"
// CHECK: mie.kernel "late_write"
func.func @dependencies(%x: memref<16xf32>, %y: memref<16xf32>, %z: memref<16xf32>) {
  %a = mie.alloc : memref<256xf32>
  %b = mie.alloc : memref<256xf32>
  mie.kernel "fill_a" ins(%x : memref<16xf32>) outs(%a : memref<256xf32>) {
  ^bb0(%i: memref<16xf32>, %o: memref<256xf32>):
    mie.yield
  }
  mie.kernel "use_a" ins(%a : memref<256xf32>) outs(%b : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    mie.yield
  }
  mie.kernel "overwrite" ins(%b : memref<256xf32>) outs(%a : memref<256xf32>) {
  ^bb0(%i: memref<256xf32>, %o: memref<256xf32>):
    mie.yield
  }
  mie.kernel "read_y" ins(%a, %y : memref<256xf32>, memref<16xf32>) outs(%z : memref<16xf32>) {
  ^bb0(%i: memref<256xf32>, %j: memref<16xf32>, %o: memref<16xf32>):
    mie.yield
  }
  mie.kernel "late_write" ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%i: memref<16xf32>, %o: memref<16xf32>):
    mie.yield
  }
  return
}
