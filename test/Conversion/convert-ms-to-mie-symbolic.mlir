// RUN: ms-opt %s -split-input-file -verify-diagnostics -convert-ms-to-mie | FileCheck %s

// Code for every shape of symbolic dims: a dynamic result's buffer is sized from mie.symbol values
// by the dims ms::SymbolicShapes gives it, a reshape to symbolic sizes is an expand_shape whose
// output shape is computed the same way, and the function's dynamic result gets its dims as an
// ms.shape map (its arguments keep theirs).

#x = affine_map<()[s0, s1] -> (s0, s1, 32)>
#rows = affine_map<()[s0, s1] -> (s0 * s1, 32)>
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[^:]+]]: memref<?x?x32xf32> {mie.name = "x", ms.shape = {{.+}}}) -> (memref<?x32xf32> {mie.name = "y", ms.shape = {{.+}}})
// CHECK: %[[S0:.+]] = mie.symbol 0 : index
// CHECK: %[[S1:.+]] = mie.symbol 1 : index
// CHECK: %[[D0:.+]] = affine.apply #{{.*}}()[%[[S0]], %[[S1]]]
// CHECK: %[[D1:.+]] = affine.apply #{{.*}}()[%[[S0]], %[[S1]]]
// CHECK: %[[BUF:.+]] = mie.alloc(%[[D0]], %[[D1]]) : memref<?x?x32xf32>
// CHECK: mie.kernel "relu" ins(%[[X]] : memref<?x?x32xf32>) outs(%[[BUF]] : memref<?x?x32xf32>)
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[BUF]]
// CHECK: %[[ROWS:.+]] = affine.apply #{{.*}}()[%{{.+}}, %{{.+}}]
// CHECK: %[[VIEW:.+]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [%[[ROWS]], 32] : memref<?xf32> into memref<?x32xf32>
// CHECK: return %[[VIEW]] : memref<?x32xf32>
func.func @main(%arg0: tensor<?x?x32xf32> {mie.name = "x", ms.shape = #x}) -> (tensor<?x32xf32> {mie.name = "y"})
    attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.relu %arg0 : tensor<?x?x32xf32>
  %1 = ms.reshape %0 {shape = array<i64: -9223372036854775808, 32>, symbolic_shape = #rows} : (tensor<?x?x32xf32>) -> tensor<?x32xf32>
  return %1 : tensor<?x32xf32>
}

// -----

// An op whose lowering takes no run-time extents yet is refused at its location.

#x = affine_map<()[s0] -> (s0, 32)>
func.func @arg_max(%arg0: tensor<?x32xf32> {ms.shape = #x}) -> tensor<?x1xi64>
    attributes {ms.symbols = ["n"]} {
  // expected-error@+1 {{'ms.arg_max' over symbolic dims has no code for every shape yet (give its symbols sizes: --specialize or --dim-param)}}
  %0 = ms.arg_max %arg0 {axis = 1 : i64, keep_dims} : (tensor<?x32xf32>) -> tensor<?x1xi64>
  return %0 : tensor<?x1xi64>
}

// -----

// A KV cache's keys: the past and the new positions concatenated along a run-time axis, each
// input's slot starting where the ones before it end (their extents, read at run time).

#past = affine_map<()[s0, s1] -> (s1, 16)>
#new = affine_map<()[s0, s1] -> (s0, 16)>
// CHECK-LABEL: func.func @concat
// CHECK: %[[BUF:.+]] = mie.alloc(%{{.+}}) : memref<?x16xf32>
// CHECK: mie.kernel "concat" ins(%{{.+}}, %{{.+}} : memref<?x16xf32>, memref<?x16xf32>) outs(%[[BUF]] : memref<?x16xf32>)
// CHECK-NEXT: ^bb0(%[[P:[^:]+]]: memref<?x16xf32>, %[[N:[^:]+]]: memref<?x16xf32>, %[[O:[^:]+]]: memref<?x16xf32>):
// CHECK: %[[PLEN:.+]] = memref.dim %[[P]], %{{.+}} : memref<?x16xf32>
// CHECK: %[[SLOT0:.+]] = memref.subview %[[O]][0, 0] [%[[PLEN]], 16] [1, 1]
// CHECK: linalg.copy ins(%[[P]] : memref<?x16xf32>) outs(%[[SLOT0]]
// CHECK: %[[NLEN:.+]] = memref.dim %[[N]], %{{.+}} : memref<?x16xf32>
// CHECK: %[[SLOT1:.+]] = memref.subview %[[O]][%[[PLEN]], 0] [%[[NLEN]], 16] [1, 1]
// CHECK: linalg.copy ins(%[[N]] : memref<?x16xf32>) outs(%[[SLOT1]]
func.func @concat(%past: tensor<?x16xf32> {ms.shape = #past}, %new: tensor<?x16xf32> {ms.shape = #new}) -> tensor<?x16xf32>
    attributes {ms.symbols = ["seq", "past_len"]} {
  %0 = ms.concat %past, %new {axis = 0 : i64} : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// layer_norm over run-time rows: the row loop's bound is the product of the leading extents.

#x = affine_map<()[s0, s1] -> (s0, s1, 32)>
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[BUF:.+]] = mie.alloc(%{{.+}}, %{{.+}}) : memref<?x?x32xf32>
// CHECK: mie.kernel "layer_norm" ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%[[BUF]] : memref<?x?x32xf32>)
// CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: memref<?x?x32xf32>,
// CHECK: %[[B:.+]] = memref.dim %[[IN]], %{{.+}} : memref<?x?x32xf32>
// CHECK: %[[S:.+]] = memref.dim %[[IN]], %{{.+}} : memref<?x?x32xf32>
// CHECK: %[[ROWS:.+]] = arith.muli %[[B]], %[[S]] : index
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[ROWS]])
func.func @layer_norm(%arg0: tensor<?x?x32xf32> {ms.shape = #x}, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<?x?x32xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.layer_norm %arg0, %g, %b {axis = -1 : i64, epsilon = 1.0e-05 : f64} : (tensor<?x?x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x?x32xf32>
  return %0 : tensor<?x?x32xf32>
}

// -----

// softmax along the static last dim is a row kernel over run-time rows; along a symbolic dim, the
// generics over dynamic buffers, its statistics sized by the other symbolic dims.

#x = affine_map<()[s0, s1] -> (s0, s1, 32)>
// CHECK-LABEL: func.func @softmax
// CHECK: mie.kernel "softmax" ins(%{{.+}} : memref<?x?x32xf32>) outs(%{{.+}} : memref<?x?x32xf32>)
// CHECK: %[[ROWS:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[ROWS]])
// CHECK: %[[MAX:.+]] = mie.alloc(%[[BATCH:.+]]) : memref<?x1x32xf32>
// CHECK: %[[SUM:.+]] = mie.alloc(%[[BATCH]]) : memref<?x1x32xf32>
// CHECK: mie.kernel "softmax" ins(%{{.+}} : memref<?x?x32xf32>) outs(%{{.+}}, %[[MAX]], %[[SUM]] : memref<?x?x32xf32>, memref<?x1x32xf32>, memref<?x1x32xf32>)
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]
func.func @softmax(%arg0: tensor<?x?x32xf32> {ms.shape = #x}) -> (tensor<?x?x32xf32>, tensor<?x?x32xf32>)
    attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.softmax %arg0 {axis = 2 : i64} : (tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  %1 = ms.softmax %arg0 {axis = 1 : i64} : (tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  return %0, %1 : tensor<?x?x32xf32>, tensor<?x?x32xf32>
}

// -----

// A reduction over static dims keeps the symbolic ones: one generic over dynamic buffers.

#x = affine_map<()[s0, s1] -> (s0, s1, 32)>
// CHECK-LABEL: func.func @reduce
// CHECK: %[[BUF:.+]] = mie.alloc(%{{.+}}, %{{.+}}) : memref<?x?x1xf32>
// CHECK: mie.kernel "reduce_mean" ins(%{{.+}} : memref<?x?x32xf32>) outs(%[[BUF]] : memref<?x?x1xf32>)
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.constant 3.200000e+01 : f32
func.func @reduce(%arg0: tensor<?x?x32xf32> {ms.shape = #x}) -> tensor<?x?x1xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.reduce_mean %arg0 {axes = array<i64: -1>, keep_dims} : (tensor<?x?x32xf32>) -> tensor<?x?x1xf32>
  return %0 : tensor<?x?x1xf32>
}

// -----

// The embedding lookup copies as many rows as the run gives ids.

#ids = affine_map<()[s0, s1] -> (s0, s1)>
// CHECK-LABEL: func.func @gather
// CHECK: %[[BUF:.+]] = mie.alloc(%{{.+}}, %{{.+}}) : memref<?x?x16xf32>
// CHECK: mie.kernel "gather" ins(%{{.+}}, %{{.+}} : memref<100x16xf32>, memref<?x?xi64>) outs(%[[BUF]] : memref<?x?x16xf32>)
// CHECK-NEXT: ^bb0(%{{[^:]+}}: memref<100x16xf32>, %[[IDS:[^:]+]]: memref<?x?xi64>,
// CHECK: %[[B:.+]] = memref.dim %[[IDS]], %{{.+}} : memref<?x?xi64>
// CHECK: %[[S:.+]] = memref.dim %[[IDS]], %{{.+}} : memref<?x?xi64>
// CHECK: %[[N:.+]] = arith.muli %[[B]], %[[S]] : index
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %[[N]])
func.func @gather(%arg0: tensor<?x?xi64> {ms.shape = #ids}) -> tensor<?x?x16xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %t = ms.constant dense<1.0> : tensor<100x16xf32>
  %0 = ms.gather %t, %arg0 {axis = 0 : i64} : (tensor<100x16xf32>, tensor<?x?xi64>) -> tensor<?x?x16xf32>
  return %0 : tensor<?x?x16xf32>
}

// -----

// Slices to symbolic sizes (a position table to the sequence length) and from a symbolic start
// (the last token, seq - 1, read from the input's extent inside the kernel).

#x = affine_map<()[s0, s1] -> (s0, s1, 32)>
// CHECK-LABEL: func.func @slice
// CHECK: %[[POS:.+]] = mie.alloc(%{{.+}}) : memref<1x?xi64>
// CHECK: mie.kernel "slice" ins(%{{.+}} : memref<1x64xi64>) outs(%[[POS]] : memref<1x?xi64>)
// CHECK-NEXT: ^bb0(%[[T:[^:]+]]: memref<1x64xi64>, %[[O:[^:]+]]: memref<1x?xi64>):
// CHECK: %[[SEQ:.+]] = memref.dim %[[O]], %{{.+}} : memref<1x?xi64>
// CHECK: %[[BOX:.+]] = memref.subview %[[T]][0, 0] [1, %[[SEQ]]] [1, 1]
// CHECK: linalg.copy ins(%[[BOX]] : {{.+}}) outs(%[[O]] : memref<1x?xi64>)
// CHECK: %[[LAST:.+]] = mie.alloc(%{{.+}}) : memref<?x1x32xf32>
// CHECK: mie.kernel "slice" ins(%{{.+}} : memref<?x?x32xf32>) outs(%[[LAST]] : memref<?x1x32xf32>)
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: memref<?x?x32xf32>, %[[Y:[^:]+]]: memref<?x1x32xf32>):
// CHECK: %[[B:.+]] = memref.dim %[[Y]], %{{.+}} : memref<?x1x32xf32>
// CHECK: %[[S:.+]] = memref.dim %[[X]], %{{.+}} : memref<?x?x32xf32>
// CHECK: %[[START:.+]] = arith.addi %[[S]], %{{.+}} : index
// CHECK: memref.subview %[[X]][0, %[[START]], 0] [%[[B]], 1, 32] [1, 1, 1]
func.func @slice(%arg0: tensor<?x?x32xf32> {ms.shape = #x}) -> (tensor<1x?xi64>, tensor<?x1x32xf32>)
    attributes {ms.symbols = ["batch", "seq"]} {
  %t = ms.constant dense<1> : tensor<1x64xi64>
  %0 = ms.slice %t {starts = array<i64: 0, 0>, sizes = array<i64: 1, -9223372036854775808>, steps = array<i64: 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (1, s1)>} : (tensor<1x64xi64>) -> tensor<1x?xi64>
  %1 = ms.slice %arg0 {starts = array<i64: 0, -9223372036854775808, 0>, sizes = array<i64: -9223372036854775808, 1, 32>, steps = array<i64: 1, 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (s0, 1, 32)>, symbolic_starts = affine_map<()[s0, s1] -> (0, s1 - 1, 0)>} : (tensor<?x?x32xf32>) -> tensor<?x1x32xf32>
  return %0, %1 : tensor<1x?xi64>, tensor<?x1x32xf32>
}

// -----

// A start over a symbol that neither the input nor the result has as an extent: the kernel reads
// it from the run's symbol values (an input buffer).

#x = affine_map<()[s0, s1] -> (64, s1)>
// CHECK-LABEL: func.func @slice_start
// CHECK: %[[DIMS:.+]] = mie.symbol_values : memref<2xi64>
// CHECK: mie.kernel "slice" ins(%{{.+}}, %[[DIMS]] : memref<64x?xf32>, memref<2xi64>)
// CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: memref<64x?xf32>, %[[D:[^:]+]]: memref<2xi64>, %[[OUT:[^:]+]]: memref<1x?xf32>):
// CHECK: %[[WORD:.+]] = memref.load %[[D]][%{{.+}}] : memref<2xi64>
// CHECK: %[[START:.+]] = arith.index_cast %[[WORD]] : i64 to index
// CHECK: memref.subview %[[IN]][%[[START]], 0]
func.func @slice_start(%arg0: tensor<64x?xf32> {ms.shape = #x}) -> tensor<1x?xf32>
    attributes {ms.symbols = ["n", "m"]} {
  %0 = ms.slice %arg0 {starts = array<i64: -9223372036854775808, 0>, sizes = array<i64: 1, -9223372036854775808>, steps = array<i64: 1, 1>, symbolic_sizes = affine_map<()[s0, s1] -> (1, s1)>, symbolic_starts = affine_map<()[s0, s1] -> (s0, 0)>} : (tensor<64x?xf32>) -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}

// -----

// Strided slices beside symbolic dims (Swin's patch merging): every other row of seq (ceil(seq / 2)
// of them, a stride of 2 from 0) and a static dim read backwards by 2 from its last element (the
// box from its low end, 1, read in reverse).

#x = affine_map<()[s0] -> (s0, 6)>
// CHECK-LABEL: func.func @slice_strided
// CHECK: mie.kernel "slice"
// CHECK: %[[ROWS:.+]] = memref.dim %{{.+}}, %{{.+}} : memref<?x3xf32>
// CHECK: %[[BOX:.+]] = memref.subview %{{.+}}[0, 1] [%[[ROWS]], 3] [2, 2]
// CHECK: linalg.generic {{.+}} ins(%[[BOX]]
func.func @slice_strided(%arg0: tensor<?x6xf32> {ms.shape = #x}) -> tensor<?x3xf32>
    attributes {ms.symbols = ["seq"]} {
  %0 = ms.slice %arg0 {starts = array<i64: 0, 5>, sizes = array<i64: -9223372036854775808, 3>, steps = array<i64: 2, -2>, symbolic_sizes = affine_map<()[s0] -> (s0 ceildiv 2, 3)>} : (tensor<?x6xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// range(seq, step 2) of seq elements: the start is the result's extent.

// CHECK-LABEL: func.func @range
// CHECK: %[[BUF:.+]] = mie.alloc(%{{.+}}) : memref<?xi64>
// CHECK: mie.kernel "range" outs(%[[BUF]] : memref<?xi64>)
// CHECK-NEXT: ^bb0(%[[R:[^:]+]]: memref<?xi64>):
// CHECK: %[[START:.+]] = memref.dim %[[R]], %{{.+}} : memref<?xi64>
// CHECK: linalg.index 0
// CHECK: %[[STEP:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: arith.addi %[[START]], %[[STEP]] : index
func.func @range() -> tensor<?xi64> attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.range {delta = 2 : i64, symbolic_range = affine_map<()[s0, s1] -> (s1, s1)>} : tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// A static input (a class token) expanded to the batch: a broadcasting kernel.

// CHECK-LABEL: func.func @expand
// CHECK: %[[BUF:.+]] = mie.alloc(%{{.+}}) : memref<?x1x16xf32>
// CHECK: mie.kernel "expand" ins(%{{.+}} : memref<1x1x16xf32>) outs(%[[BUF]] : memref<?x1x16xf32>)
// CHECK: linalg.generic
func.func @expand(%arg0: tensor<1x1x16xf32>) -> tensor<?x1x16xf32> attributes {ms.symbols = ["batch"]} {
  %0 = ms.expand %arg0 {shape = array<i64: -9223372036854775808, 1, 16>, symbolic_shape = affine_map<()[s0] -> (s0, 1, 16)>} : (tensor<1x1x16xf32>) -> tensor<?x1x16xf32>
  return %0 : tensor<?x1x16xf32>
}

// -----

// An elementwise operand dim that could be 1 at run time and broadcast is refused.

#a = affine_map<()[s0, s1] -> (s0, 32)>
#b = affine_map<()[s0, s1] -> (s1, 32)>
func.func @broadcast(%arg0: tensor<?x32xf32> {ms.shape = #a}, %arg1: tensor<?x32xf32> {ms.shape = #b}) -> tensor<?x32xf32>
    attributes {ms.symbols = ["m", "n"]} {
  // expected-error@+1 {{operand dim 0 may broadcast at run time, which code for every shape does not take yet (give its symbols sizes: --specialize or --dim-param)}}
  %0 = ms.add %arg0, %arg1 : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

// The new positions of a KV cache, range(past_len, past_len + seq): the start is no extent of the
// result, so the kernel reads it from the run's symbol values (an input buffer).

// CHECK-LABEL: func.func @range_after_past
// CHECK: %[[DIMS:.+]] = mie.symbol_values : memref<2xi64>
// CHECK: mie.kernel "range" ins(%[[DIMS]] : memref<2xi64>) outs(%{{.+}} : memref<?xi64>)
// CHECK-NEXT: ^bb0(%[[D:[^:]+]]: memref<2xi64>, %[[R:[^:]+]]: memref<?xi64>):
// CHECK: %[[WORD:.+]] = memref.load %[[D]][%{{.+}}] : memref<2xi64>
// CHECK: %[[START:.+]] = arith.index_cast %[[WORD]] : i64 to index
// CHECK: linalg.index 0
// CHECK: arith.addi %[[START]], %{{.+}} : index
func.func @range_after_past() -> tensor<?xi64> attributes {ms.symbols = ["seq", "past_len"]} {
  %0 = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (s1, s0)>} : tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// A split along a static axis (GPT-2's fused q, k, v projection) of run-time rows: each piece's
// box reads its run-time dims from the piece.

#x = affine_map<()[s0] -> (s0, 96)>
// CHECK-LABEL: func.func @split_rows
// CHECK: mie.kernel "split" ins(%{{.+}} : memref<?x96xf32>) outs(%{{.+}}, %{{.+}} : memref<?x32xf32>, memref<?x64xf32>)
// CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: memref<?x96xf32>, %[[A:[^:]+]]: memref<?x32xf32>, %[[B:[^:]+]]: memref<?x64xf32>):
// CHECK: %[[RA:.+]] = memref.dim %[[A]], %{{.+}} : memref<?x32xf32>
// CHECK: memref.subview %[[IN]][0, 0] [%[[RA]], 32] [1, 1]
// CHECK: %[[RB:.+]] = memref.dim %[[B]], %{{.+}} : memref<?x64xf32>
// CHECK: memref.subview %[[IN]][0, 32] [%[[RB]], 64] [1, 1]
func.func @split_rows(%arg0: tensor<?x96xf32> {ms.shape = #x}) -> (tensor<?x32xf32>, tensor<?x64xf32>)
    attributes {ms.symbols = ["n"]} {
  %0:2 = ms.split %arg0 {axis = 1 : i64, sizes = array<i64: 32, 64>} : (tensor<?x96xf32>) -> (tensor<?x32xf32>, tensor<?x64xf32>)
  return %0#0, %0#1 : tensor<?x32xf32>, tensor<?x64xf32>
}

// -----

// Average pooling over a run-time batch (densenet's transitions, alexnet's head): the padded copy
// takes the input's batch, its interior the input's run-time extents.

#x = affine_map<()[s0] -> (s0, 8, 6, 6)>
// CHECK-LABEL: func.func @avg_pool
// CHECK: %[[N:.+]] = memref.dim %arg0, %{{.+}} : memref<?x8x6x6xf32>
// CHECK: %[[PADDED:.+]] = mie.alloc(%[[N]]) : memref<?x8x8x8xf32>
// CHECK: mie.kernel "pool_pad" ins(%arg0 : memref<?x8x6x6xf32>) outs(%[[PADDED]] : memref<?x8x8x8xf32>)
// CHECK: %[[IN:.+]] = memref.dim %{{.+}}, %{{.+}} : memref<?x8x6x6xf32>
// CHECK: memref.subview %{{.+}}[0, 0, 1, 1] [%[[IN]], 8, 6, 6] [1, 1, 1, 1]
// CHECK: mie.kernel "avg_pool" ins(%[[PADDED]] : memref<?x8x8x8xf32>) outs(%{{.+}} : memref<?x8x6x6xf32>)
// CHECK: linalg.pooling_nchw_sum
func.func @avg_pool(%x: tensor<?x8x6x6xf32> {ms.shape = #x}) -> tensor<?x8x6x6xf32>
    attributes {ms.symbols = ["batch"]} {
  %0 = ms.avg_pool %x {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x8x6x6xf32>) -> tensor<?x8x6x6xf32>
  return %0 : tensor<?x8x6x6xf32>
}

// -----

// A group rooted at a reduction of static dims (a variance over the last dim) is one reduction
// kernel over the run-time rows; its operand broadcast along the reduced dim only.

#x = affine_map<()[s0] -> (s0, 8)>
#m = affine_map<()[s0] -> (s0, 1)>
// CHECK-LABEL: func.func @fused_reduction
// CHECK: %[[S0:.+]] = mie.symbol 0 : index
// CHECK: %[[BUF:.+]] = mie.alloc(%{{.+}}) : memref<?x1xf32>
// CHECK: mie.kernel "sub_mul_reduce_mean" ins(%{{.+}}, %{{.+}} : memref<?x8xf32>, memref<?x1xf32>) outs(%[[BUF]] : memref<?x1xf32>)
func.func @fused_reduction(%x: tensor<?x8xf32> {ms.shape = #x}, %m: tensor<?x1xf32> {ms.shape = #m}) -> tensor<?x1xf32>
    attributes {ms.symbols = ["rows"]} {
  %r = ms.fused "sub_mul_reduce_mean" ins(%x, %m : tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x1xf32> {
  ^bb0(%a: tensor<?x8xf32>, %b: tensor<?x1xf32>):
    %d = ms.sub %a, %b : (tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x8xf32>
    %q = ms.mul %d, %d : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %r = ms.reduce_mean %q {axes = array<i64: -1>, keep_dims} : (tensor<?x8xf32>) -> tensor<?x1xf32>
    ms.yield %r : tensor<?x1xf32>
  }
  return %r : tensor<?x1xf32>
}

// -----

// An operand of such a group that could broadcast at run time along a kept dim is refused.

#x = affine_map<()[s0, s1] -> (s0, 8)>
#m = affine_map<()[s0, s1] -> (s1, 1)>
func.func @fused_reduction_broadcast(%x: tensor<?x8xf32> {ms.shape = #x}, %m: tensor<?x1xf32> {ms.shape = #m}) -> tensor<?x1xf32>
    attributes {ms.symbols = ["rows", "other"]} {
  // expected-error@+1 {{operand dim 0 may broadcast at run time, which code for every shape does not take yet (give its symbols sizes: --specialize or --dim-param)}}
  %r = ms.fused "sub_reduce_mean" ins(%x, %m : tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x1xf32> {
  ^bb0(%a: tensor<?x8xf32>, %b: tensor<?x1xf32>):
    %d = ms.sub %a, %b : (tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x8xf32>
    %r = ms.reduce_mean %d {axes = array<i64: -1>, keep_dims} : (tensor<?x8xf32>) -> tensor<?x1xf32>
    ms.yield %r : tensor<?x1xf32>
  }
  return %r : tensor<?x1xf32>
}

// -----

// A running sum along a constant axis (position ids from a padding mask): the sizes around the
// axis are the input buffer's run-time extents.

#x = affine_map<()[s0] -> (s0, 16)>
// CHECK-LABEL: func.func @cumsum
// CHECK: mie.kernel "cumsum" ins(%{{.+}} : memref<?x16xi32>) outs(%{{.+}} : memref<?x16xi32>)
// CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: memref<?x16xi32>, %{{[^:]+}}: memref<?x16xi32>):
// CHECK: memref.dim %[[IN]], %{{.+}} : memref<?x16xi32>
// CHECK: scf.parallel
func.func @cumsum(%x: tensor<?x16xi32> {ms.shape = #x}) -> tensor<?x16xi32> attributes {ms.symbols = ["batch"]} {
  %a = ms.constant dense<1> : tensor<i64>
  %0 = ms.cumsum %x, %a : (tensor<?x16xi32>, tensor<i64>) -> tensor<?x16xi32>
  return %0 : tensor<?x16xi32>
}

// -----

// A broadcasting copy whose symbolic input dims are the result's (an attention mask expanded over
// the heads) is an elementwise kernel; one whose symbolic dim could be 1 and broadcast is refused.

#x = affine_map<()[s0, s1] -> (s0, 1, 16)>
// CHECK-LABEL: func.func @expand_symbolic_input
// CHECK: mie.kernel "expand" ins(%{{.+}} : memref<?x1x16xf32>) outs(%{{.+}} : memref<?x4x16xf32>)
func.func @expand_symbolic_input(%x: tensor<?x1x16xf32> {ms.shape = #x}) -> tensor<?x4x16xf32>
    attributes {ms.symbols = ["batch", "other"]} {
  %0 = ms.expand %x {shape = array<i64: -9223372036854775808, 4, 16>, symbolic_shape = affine_map<()[s0, s1] -> (s0, 4, 16)>} : (tensor<?x1x16xf32>) -> tensor<?x4x16xf32>
  return %0 : tensor<?x4x16xf32>
}

// -----

#x = affine_map<()[s0, s1] -> (s1, 1, 16)>
func.func @expand_may_broadcast(%x: tensor<?x1x16xf32> {ms.shape = #x}) -> tensor<?x4x16xf32>
    attributes {ms.symbols = ["batch", "other"]} {
  // expected-error@+1 {{'ms.expand' over symbolic dims has no code for every shape yet}}
  %0 = ms.expand %x {shape = array<i64: -9223372036854775808, 4, 16>, symbolic_shape = affine_map<()[s0, s1] -> (s0, 4, 16)>} : (tensor<?x1x16xf32>) -> tensor<?x4x16xf32>
  return %0 : tensor<?x4x16xf32>
}

// -----

// Static pads of the static dims under a run-time batch (a stem's "same" padding): the kept box
// spans the batch buffer's extent. Padding a symbolic dim by static amounts is refused.

#x = affine_map<()[s0] -> (s0, 3, 4, 4)>
// CHECK-LABEL: func.func @pad_static_dims
// CHECK: mie.kernel "pad" ins(%{{.+}} : memref<?x3x4x4xf32>) outs(%{{.+}} : memref<?x3x6x6xf32>)
// CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: memref<?x3x4x4xf32>, %[[OUT:[^:]+]]: memref<?x3x6x6xf32>):
// CHECK: %[[N:.+]] = memref.dim %[[IN]], %{{.+}} : memref<?x3x4x4xf32>
// CHECK: linalg.fill
// CHECK: memref.subview %[[IN]][0, 0, 0, 0] [%[[N]], 3, 4, 4] [1, 1, 1, 1]
// CHECK: memref.subview %[[OUT]][0, 0, 1, 1] [%[[N]], 3, 4, 4] [1, 1, 1, 1]
// CHECK: linalg.copy
func.func @pad_static_dims(%x: tensor<?x3x4x4xf32> {ms.shape = #x}) -> tensor<?x3x6x6xf32> attributes {ms.symbols = ["batch"]} {
  %0 = ms.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : (tensor<?x3x4x4xf32>) -> tensor<?x3x6x6xf32>
  return %0 : tensor<?x3x6x6xf32>
}

// -----

#x = affine_map<()[s0] -> (s0, 4)>
func.func @pad_symbolic_dim(%x: tensor<?x4xf32> {ms.shape = #x}) -> tensor<?x4xf32> attributes {ms.symbols = ["batch"]} {
  // expected-error@+1 {{'ms.pad' over symbolic dims has no code for every shape yet}}
  %0 = ms.pad %x {pads = array<i64: 1, 0, 1, 0>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A resize that keeps its symbolic batch (a segmentation head's upsampling to the image size): the
// result's buffer is sized by the batch symbol, and the kernel's loops run over the output's
// extents, the batch read at the same index.

#x = affine_map<()[s0] -> (s0, 4, 5, 6)>
// CHECK-LABEL: func.func @resize_keeps_batch
// CHECK: %[[B:.+]] = mie.symbol 0 : index
// CHECK: %[[N:.+]] = affine.apply #{{.+}}()[%[[B]]]
// CHECK: %[[OUT:.+]] = mie.alloc(%[[N]]) : memref<?x4x11x13xf32>
// CHECK: mie.kernel "resize" ins(%arg0 : memref<?x4x5x6xf32>) outs(%[[OUT]] : memref<?x4x11x13xf32>)
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%{{.+}}: f32):
// CHECK-NEXT: %[[I0:.+]] = linalg.index 0 : index
// CHECK: memref.load %{{.+}}[%[[I0]], 
func.func @resize_keeps_batch(%x: tensor<?x4x5x6xf32> {ms.shape = #x}) -> tensor<?x4x11x13xf32> attributes {ms.symbols = ["batch"]} {
  %0 = ms.resize %x {sizes = array<i64: -9223372036854775808, 4, 11, 13>, mode = #ms<resize_mode linear>, coordinate_mode = #ms<coordinate_mode pytorch_half_pixel>} : (tensor<?x4x5x6xf32>) -> tensor<?x4x11x13xf32>
  return %0 : tensor<?x4x11x13xf32>
}

// -----

// A global pool of a video network's [N, C, D, H, W] under a run-time batch: batch x channels rows
// counted at run time, each of D x H x W = 18 elements.

#x = affine_map<()[s0] -> (s0, 4, 2, 3, 3)>
// CHECK-LABEL: func.func @global_pool_5d
// CHECK: mie.kernel "global_avg_pool" ins(%arg0 : memref<?x4x2x3x3xf32>) outs(%{{.+}} : memref<?x4x1x1x1xf32>)
// CHECK: %[[N:.+]] = memref.dim %{{.+}}, %{{.+}} : memref<?x4x2x3x3xf32>
// CHECK: %[[ROWS:.+]] = arith.muli %[[N]], %c4 : index
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[ROWS]])
// CHECK: arith.constant 18 : index
func.func @global_pool_5d(%x: tensor<?x4x2x3x3xf32> {ms.shape = #x}) -> tensor<?x4x1x1x1xf32> attributes {ms.symbols = ["batch"]} {
  %0 = ms.global_avg_pool %x : (tensor<?x4x2x3x3xf32>) -> tensor<?x4x1x1x1xf32>
  return %0 : tensor<?x4x1x1x1xf32>
}

// -----

// An element gather over run-time extents (DeBERTa's relative positions): the result is sized by
// the indices' dims (batch * 2, seq, seq), and the generic runs over them, each index clamped into
// the static axis of 8.

#x = affine_map<()[s0, s1] -> (s0 * 2, s1, 8)>
#i = affine_map<()[s0, s1] -> (s0 * 2, s1, s1)>
// CHECK-LABEL: func.func @gather_elements
// CHECK: %[[B:.+]] = mie.symbol 0 : index
// CHECK: %[[S:.+]] = mie.symbol 1 : index
// CHECK: %[[D0:.+]] = affine.apply #{{.+}}()[%[[B]], %[[S]]]
// CHECK: %[[D1:.+]] = affine.apply #{{.+}}()[%[[B]], %[[S]]]
// CHECK: %[[D2:.+]] = affine.apply #{{.+}}()[%[[B]], %[[S]]]
// CHECK: %[[OUT:.+]] = mie.alloc(%[[D0]], %[[D1]], %[[D2]]) : memref<?x?x?xf32>
// CHECK: mie.kernel "gather_elements" ins(%arg0, %arg1 : memref<?x?x8xf32>, memref<?x?x?xi64>) outs(%[[OUT]] : memref<?x?x?xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}} : memref<?x?x?xi64>) outs(%{{.+}} : memref<?x?x?xf32>)
// CHECK: arith.constant 7 : index
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] : memref<?x?x8xf32>
func.func @gather_elements(%x: tensor<?x?x8xf32> {ms.shape = #x}, %i: tensor<?x?x?xi64> {ms.shape = #i}) -> tensor<?x?x?xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %0 = ms.gather_elements %x, %i {axis = 2 : i64} : (tensor<?x?x8xf32>, tensor<?x?x?xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// An element gather along a symbolic axis (no static extent to clamp into) is refused, as is one
// whose indices' symbolic dim is not the data's (it could be larger at run time).

#x = affine_map<()[s0, s1] -> (s0, 8)>
func.func @gather_elements_symbolic_axis(%x: tensor<?x8xf32> {ms.shape = #x}, %i: tensor<2x8xi64>) -> tensor<2x8xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  // expected-error@+1 {{'ms.gather_elements' over symbolic dims has no code for every shape yet (give its symbols sizes: --specialize or --dim-param)}}
  %0 = ms.gather_elements %x, %i {axis = 0 : i64} : (tensor<?x8xf32>, tensor<2x8xi64>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

#x = affine_map<()[s0, s1] -> (s0, 8)>
#i = affine_map<()[s0, s1] -> (s1, 3)>
func.func @gather_elements_other_dim(%x: tensor<?x8xf32> {ms.shape = #x}, %i: tensor<?x3xi64> {ms.shape = #i}) -> tensor<?x3xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  // expected-error@+1 {{'ms.gather_elements' over symbolic dims has no code for every shape yet}}
  %0 = ms.gather_elements %x, %i {axis = 1 : i64} : (tensor<?x8xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
