// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s

// Tests that broadcasting binaries become one kernel each, whose generic reads a trailing-dims operand
// through a map dropping the leading dim and a size-1 dim through a constant 0, and that the
// result buffer of one kernel feeds the next.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[A:[^:]+]]: memref<2x3xf32>, %[[B:[^:]+]]: memref<3xf32>, %[[C:[^:]+]]: memref<2x1xf32>) -> memref<2x3xf32>
// CHECK: %[[SUM:.+]] = mie.alloc : memref<2x3xf32>
// CHECK: mie.kernel "add" ins(%[[A]], %[[B]] : memref<2x3xf32>, memref<3xf32>) outs(%[[SUM]] : memref<2x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
// CHECK: mie.yield
// CHECK: %[[PROD:.+]] = mie.alloc : memref<2x3xf32>
// CHECK: mie.kernel "mul" ins(%[[SUM]], %[[C]] : memref<2x3xf32>, memref<2x1xf32>) outs(%[[PROD]] : memref<2x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$COL]], #[[$ID]]]
// CHECK: arith.mulf
// CHECK: return %[[PROD]] : memref<2x3xf32>
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %0 = ms.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = ms.mul %0, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Tests that a rank-0 operand broadcasts through a map with no results.

// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @add_scalar
// CHECK: mie.kernel "add"
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[$SCALAR]], #{{.+}}]
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : memref<3xf32>, memref<f32>)
func.func @add_scalar(%y: tensor<3xf32>, %x: tensor<f32>) -> tensor<3xf32> {
  %0 = ms.add %y, %x : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Tests unary ops on floats and signless integers.

// CHECK-LABEL: func.func @unary
// CHECK: mie.kernel "relu"
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.+}}, %[[ZERO]] : f32
// CHECK: mie.kernel "tanh"
// CHECK: math.tanh %{{.+}} : f32
// CHECK: mie.kernel "neg" ins(%{{.+}} : memref<8xi32>)
// CHECK: %[[IZERO:.+]] = arith.constant 0 : i32
// CHECK: arith.subi %[[IZERO]], %{{.+}} : i32
func.func @unary(%x: tensor<1x64xf32>, %i: tensor<8xi32>) -> (tensor<1x64xf32>, tensor<8xi32>) {
  %0 = ms.relu %x : tensor<1x64xf32>
  %1 = ms.tanh %0 : tensor<1x64xf32>
  %2 = ms.neg %i : tensor<8xi32>
  return %1, %2 : tensor<1x64xf32>, tensor<8xi32>
}

// -----

// Tests compare into an i1 buffer and where reading it, both broadcasting the size-1 operand.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$BCAST:.+]] = affine_map<(d0) -> (0)>
// CHECK-LABEL: func.func @compare_where
// CHECK-SAME: (%[[A:[^:]+]]: memref<4xf32>, %[[B:[^:]+]]: memref<1xf32>)
// CHECK: %[[MASK:.+]] = mie.alloc : memref<4xi1>
// CHECK: mie.kernel "compare" ins(%[[A]], %[[B]] : memref<4xf32>, memref<1xf32>) outs(%[[MASK]] : memref<4xi1>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$ID]]]
// CHECK: arith.cmpf olt
// CHECK: %[[SEL:.+]] = mie.alloc : memref<4xf32>
// CHECK: mie.kernel "where" ins(%[[MASK]], %[[A]], %[[B]] : memref<4xi1>, memref<4xf32>, memref<1xf32>) outs(%[[SEL]] : memref<4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$BCAST]], #[[$ID]]]
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK: return %[[SEL]]
func.func @compare_where(%a: tensor<4xf32>, %b: tensor<1xf32>) -> tensor<4xf32> {
  %m = ms.compare lt, %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  %r = ms.where %m, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests casts: float narrowing, integer to float, and integer to bool (a compare with zero).

// CHECK-LABEL: func.func @cast
// CHECK: mie.kernel "cast" ins(%{{.+}} : memref<1x64xf32>) outs(%{{.+}} : memref<1x64xf16>)
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: mie.kernel "cast" ins(%{{.+}} : memref<3xi64>) outs(%{{.+}} : memref<3xf32>)
// CHECK: arith.sitofp %{{.+}} : i64 to f32
// CHECK: mie.kernel "cast" ins(%{{.+}} : memref<3xi64>) outs(%{{.+}} : memref<3xi1>)
// CHECK: arith.cmpi ne
func.func @cast(%x: tensor<1x64xf32>, %i: tensor<3xi64>) -> (tensor<1x64xf16>, tensor<3xf32>, tensor<3xi1>) {
  %0 = ms.cast %x : tensor<1x64xf32> to tensor<1x64xf16>
  %1 = ms.cast %i : tensor<3xi64> to tensor<3xf32>
  %2 = ms.cast %i : tensor<3xi64> to tensor<3xi1>
  return %0, %1, %2 : tensor<1x64xf16>, tensor<3xf32>, tensor<3xi1>
}

// -----

// Tests batch_norm: one kernel reading the four per-channel parameters along dim 1.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$CH:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x64x56x56xf32>, %[[S:[^:]+]]: memref<64xf32>, %[[B:[^:]+]]: memref<64xf32>, %[[M:[^:]+]]: memref<64xf32>, %[[V:[^:]+]]: memref<64xf32>)
// CHECK: %[[Y:.+]] = mie.alloc : memref<1x64x56x56xf32>
// CHECK: mie.kernel "batch_norm" ins(%[[X]], %[[S]], %[[B]], %[[M]], %[[V]] : {{.+}}) outs(%[[Y]] : memref<1x64x56x56xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$CH]], #[[$CH]], #[[$CH]], #[[$CH]], #[[$ID]]]
// CHECK: ^bb0(%[[IN:.+]]: f32, %[[SCALE:.+]]: f32, %[[BIAS:.+]]: f32, %[[MEAN:.+]]: f32, %[[VAR:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[EPS:.+]] = arith.constant 1.000000e-03 : f32
// CHECK: %[[VE:.+]] = arith.addf %[[VAR]], %[[EPS]]
// CHECK: %[[INV:.+]] = math.rsqrt %[[VE]]
// CHECK: %[[CEN:.+]] = arith.subf %[[IN]], %[[MEAN]]
// CHECK: %[[F:.+]] = arith.mulf %[[SCALE]], %[[INV]]
// CHECK: %[[P:.+]] = arith.mulf %[[CEN]], %[[F]]
// CHECK: %[[R:.+]] = arith.addf %[[P]], %[[BIAS]]
// CHECK: linalg.yield %[[R]]
func.func @batch_norm(%x: tensor<1x64x56x56xf32>, %s: tensor<64xf32>, %b: tensor<64xf32>,
                      %m: tensor<64xf32>, %v: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  %0 = ms.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-3 : f64}
      : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// -----

// Tests that a convolution becomes the library kernel with its bias in the epilogue and its window
// attributes (padding included) kept.

// CHECK-LABEL: func.func @conv2d_bias
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x3x224x224xf32>, %[[W:[^:]+]]: memref<32x3x3x3xf32>, %[[B:[^:]+]]: memref<32xf32>)
// CHECK: %[[Y:.+]] = mie.alloc : memref<1x32x112x112xf32>
// CHECK: mie.conv2d ins(%[[X]], %[[W]] : memref<1x3x224x224xf32>, memref<32x3x3x3xf32>) bias(%[[B]] : memref<32xf32>) outs(%[[Y]] : memref<1x32x112x112xf32>)
// CHECK-SAME: epilogue = #mie.epilogue<bias>
// CHECK-SAME: pads = array<i64: 1, 1, 1, 1>
// CHECK-SAME: strides = array<i64: 2, 2>
// CHECK: return %[[Y]]
func.func @conv2d_bias(%x: tensor<1x3x224x224xf32>, %w: tensor<32x3x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x112x112xf32> {
  %0 = ms.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x224x224xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>) -> tensor<1x32x112x112xf32>
  return %0 : tensor<1x32x112x112xf32>
}

// CHECK-LABEL: func.func @conv2d_depthwise_no_bias
// CHECK: mie.conv2d ins(%{{.+}}, %{{.+}} : memref<1x32x16x16xf32>, memref<32x1x3x3xf32>) outs(%{{.+}} : memref<1x32x16x16xf32>)
// CHECK-NOT: epilogue
// CHECK-SAME: groups = 32 : i64
func.func @conv2d_depthwise_no_bias(%x: tensor<1x32x16x16xf32>, %w: tensor<32x1x3x3xf32>) -> tensor<1x32x16x16xf32> {
  %0 = ms.conv2d %x, %w {groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x32x16x16xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x16x16xf32>
  return %0 : tensor<1x32x16x16xf32>
}

// -----

// Tests gemm: a rank-1 c of N elements is the epilogue bias; a 2-D c (with beta) is added by a
// following kernel; beta = 0 drops c.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x512xf32>, %[[W:[^:]+]]: memref<1000x512xf32>, %[[B:[^:]+]]: memref<1000xf32>, %[[C:[^:]+]]: memref<4x1000xf32>, %[[Y:[^:]+]]: memref<4x512xf32>)
// CHECK: %[[O0:.+]] = mie.alloc : memref<1x1000xf32>
// CHECK: mie.gemm ins(%[[X]], %[[W]] : memref<1x512xf32>, memref<1000x512xf32>) bias(%[[B]] : memref<1000xf32>) outs(%[[O0]] : memref<1x1000xf32>) {epilogue = #mie.epilogue<bias>, trans_b}
// CHECK: %[[P:.+]] = mie.alloc : memref<4x1000xf32>
// CHECK: mie.gemm ins(%[[Y]], %[[W]] : memref<4x512xf32>, memref<1000x512xf32>) outs(%[[P]] : memref<4x1000xf32>) {alpha = 5.000000e-01 : f64, trans_b}
// CHECK: %[[O1:.+]] = mie.alloc : memref<4x1000xf32>
// CHECK: mie.kernel "gemm_add_c" ins(%[[P]], %[[C]] : memref<4x1000xf32>, memref<4x1000xf32>) outs(%[[O1]] : memref<4x1000xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]]]
// CHECK: ^bb0(%[[PE:.+]]: f32, %[[CE:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[BETA:.+]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[SC:.+]] = arith.mulf %[[CE]], %[[BETA]]
// CHECK: arith.addf %[[PE]], %[[SC]]
// CHECK: %[[O2:.+]] = mie.alloc : memref<4x1000xf32>
// CHECK: mie.gemm ins(%[[Y]], %[[W]] : {{.+}}) outs(%[[O2]] : memref<4x1000xf32>)
// CHECK-NOT: mie.kernel
// CHECK: return %[[O0]], %[[O1]], %[[O2]]
func.func @gemm(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>,
                %c: tensor<4x1000xf32>, %y: tensor<4x512xf32>)
    -> (tensor<1x1000xf32>, tensor<4x1000xf32>, tensor<4x1000xf32>) {
  %0 = ms.gemm %x, %w, %b {trans_b} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  %1 = ms.gemm %y, %w, %c {trans_b, alpha = 0.5 : f64, beta = 2.0 : f64}
      : (tensor<4x512xf32>, tensor<1000x512xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
  %2 = ms.gemm %y, %w, %c {trans_b, beta = 0.0 : f64}
      : (tensor<4x512xf32>, tensor<1000x512xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
  return %0, %1, %2 : tensor<1x1000xf32>, tensor<4x1000xf32>, tensor<4x1000xf32>
}

// -----

// Tests that a rank-1 c that only broadcasts (one element) is not taken for a bias.

// CHECK-DAG: #[[$ONE:.+]] = affine_map<(d0, d1) -> (0)>
// CHECK-LABEL: func.func @gemm_broadcast_c
// CHECK: mie.gemm ins(%{{.+}}, %{{.+}} : memref<4x8xf32>, memref<8x16xf32>) outs(%{{.+}} : memref<4x16xf32>)
// CHECK: mie.kernel "gemm_add_c"
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[$ONE]], #{{.+}}]
func.func @gemm_broadcast_c(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %c: tensor<1xf32>) -> tensor<4x16xf32> {
  %0 = ms.gemm %x, %w, %c : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<1xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Tests matmul: 2-D products, rows of any rank times a matrix (rows collapsed) and equal batch
// dims on both sides (collapsed into one batch) go to the library GEMM, narrow floats too (the
// GEMM's kernel selection takes them); broadcast batch dims become one generated kernel with
// iteration space [batch..., m, n, k], marked mie.portable with the reason.

// CHECK-DAG: #[[$LHSB:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG: #[[$RHSB:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG: #[[$OUT4:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:[^:]+]]: memref<8x64xf32>, %[[B:[^:]+]]: memref<64x32xf32>, %[[C:[^:]+]]: memref<2x12x128x64xf32>, %[[D:[^:]+]]: memref<64x32xf32>, %[[E:[^:]+]]: memref<2x1x4x8xf32>, %[[F:[^:]+]]: memref<3x8x5xf32>, %[[G:[^:]+]]: memref<2x12x64x16xf32>, %[[H:[^:]+]]: memref<2x12x128x64xf16>
// CHECK: %[[O0:.+]] = mie.alloc : memref<8x32xf32>
// CHECK: mie.gemm ins(%[[A]], %[[B]] : memref<8x64xf32>, memref<64x32xf32>) outs(%[[O0]] : memref<8x32xf32>)
// CHECK-NOT: epilogue
// CHECK: %[[O1:.+]] = mie.alloc : memref<2x12x128x32xf32>
// CHECK: %[[CR:.+]] = memref.collapse_shape %[[C]] {{\[\[}}0, 1, 2], [3]] : memref<2x12x128x64xf32> into memref<3072x64xf32>
// CHECK: %[[O1R:.+]] = memref.collapse_shape %[[O1]] {{\[\[}}0, 1, 2], [3]] : memref<2x12x128x32xf32> into memref<3072x32xf32>
// CHECK: mie.gemm ins(%[[CR]], %[[D]] : memref<3072x64xf32>, memref<64x32xf32>) outs(%[[O1R]] : memref<3072x32xf32>)
// CHECK: %[[O2:.+]] = mie.alloc : memref<2x3x4x5xf32>
// CHECK: mie.kernel "matmul" ins(%[[E]], %[[F]] : memref<2x1x4x8xf32>, memref<3x8x5xf32>) outs(%[[O2]] : memref<2x3x4x5xf32>)
// CHECK-SAME: mie.portable = "matmul tensor<2x1x4x8xf32> * tensor<3x8x5xf32>: broadcast batch dims or a 1-D operand (no library GEMM form)"
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[$LHSB]], #[[$RHSB]], #[[$OUT4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[O3:.+]] = mie.alloc : memref<2x12x128x16xf32>
// CHECK: %[[CB:.+]] = memref.collapse_shape %[[C]] {{\[\[}}0, 1], [2], [3]] : memref<2x12x128x64xf32> into memref<24x128x64xf32>
// CHECK: %[[GB:.+]] = memref.collapse_shape %[[G]] {{\[\[}}0, 1], [2], [3]] : memref<2x12x64x16xf32> into memref<24x64x16xf32>
// CHECK: %[[O3B:.+]] = memref.collapse_shape %[[O3]] {{\[\[}}0, 1], [2], [3]] : memref<2x12x128x16xf32> into memref<24x128x16xf32>
// CHECK: mie.gemm ins(%[[CB]], %[[GB]] : memref<24x128x64xf32>, memref<24x64x16xf32>) outs(%[[O3B]] : memref<24x128x16xf32>)
// CHECK: %[[HB:.+]] = memref.collapse_shape %[[H]] {{\[\[}}0, 1], [2], [3]] : memref<2x12x128x64xf16> into memref<24x128x64xf16>
// CHECK: mie.gemm ins(%[[HB]], %{{.+}} : memref<24x128x64xf16>, memref<24x64x16xf16>) outs(%{{.+}} : memref<24x128x16xf16>) {accumulator = f32}
// CHECK-NOT: mie.portable
func.func @matmul(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %c: tensor<2x12x128x64xf32>,
                  %d: tensor<64x32xf32>, %e: tensor<2x1x4x8xf32>, %f: tensor<3x8x5xf32>,
                  %g: tensor<2x12x64x16xf32>, %h: tensor<2x12x128x64xf16>, %i: tensor<2x12x64x16xf16>)
    -> (tensor<8x32xf32>, tensor<2x12x128x32xf32>, tensor<2x3x4x5xf32>, tensor<2x12x128x16xf32>,
        tensor<2x12x128x16xf16>) {
  %0 = ms.matmul %a, %b : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = ms.matmul %c, %d : (tensor<2x12x128x64xf32>, tensor<64x32xf32>) -> tensor<2x12x128x32xf32>
  %2 = ms.matmul %e, %f : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %3 = ms.matmul %c, %g : (tensor<2x12x128x64xf32>, tensor<2x12x64x16xf32>) -> tensor<2x12x128x16xf32>
  %4 = ms.matmul %h, %i : (tensor<2x12x128x64xf16>, tensor<2x12x64x16xf16>) -> tensor<2x12x128x16xf16>
  return %0, %1, %2, %3, %4 : tensor<8x32xf32>, tensor<2x12x128x32xf32>, tensor<2x3x4x5xf32>,
      tensor<2x12x128x16xf32>, tensor<2x12x128x16xf16>
}

// -----

// Tests a 1-D lhs (a row vector: no m dim) against a batched rhs.

// CHECK-DAG: #[[$LHS:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #[[$RHS:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_vector_matrix
// CHECK: mie.kernel "matmul" ins(%{{.+}}, %{{.+}} : memref<64xf32>, memref<2x64x32xf32>) outs(%{{.+}} : memref<2x32xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @matmul_vector_matrix(%a: tensor<64xf32>, %b: tensor<2x64x32xf32>) -> tensor<2x32xf32> {
  %0 = ms.matmul %a, %b : (tensor<64xf32>, tensor<2x64x32xf32>) -> tensor<2x32xf32>
  return %0 : tensor<2x32xf32>
}

// -----

// Tests a 1-D rhs (a column vector: no n dim).

// CHECK-DAG: #[[$LHS:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$RHS:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @matmul_matrix_vector
// CHECK: mie.kernel "matmul" ins(%{{.+}}, %{{.+}} : memref<8x64xf32>, memref<64xf32>) outs(%{{.+}} : memref<8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]], iterator_types = ["parallel", "reduction"]}
func.func @matmul_matrix_vector(%a: tensor<8x64xf32>, %b: tensor<64xf32>) -> tensor<8xf32> {
  %0 = ms.matmul %a, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Tests that a dot product of two 1-D operands reduces into a 0-d buffer.
// CHECK-LABEL: func.func @matmul_vector_vector
// CHECK: mie.kernel "matmul"
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK-SAME: outs(%{{.*}} : memref<f32>)
func.func @matmul_vector_vector(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<f32> {
  %0 = ms.matmul %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Tests pooling. Max pooling becomes the library op mie.max_pool2d (its loops or microkernel come
// from mie-lower-library-kernels), padding and ceil mode kept as attributes, no copy; unpadded
// average pooling reads the input directly; global average pooling
// is a row kernel (one row of H * W per channel, a reassociated sum scaled by 1 / (H * W)); ceil
// mode pads only at the bottom / right.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @pool
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x64x112x112xf32>)
// CHECK-NOT: "pool_pad" ins(%[[X]] : memref<1x64x112x112xf32>) outs(%{{.+}} : memref<1x64x114x114xf32>)
// CHECK: %[[MAX:.+]] = mie.alloc : memref<1x64x56x56xf32>
// CHECK-NEXT: mie.max_pool2d ins(%[[X]] : memref<1x64x112x112xf32>) outs(%[[MAX]] : memref<1x64x56x56xf32>) {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
// CHECK: %[[AVG:.+]] = mie.alloc : memref<1x64x56x56xf32>
// CHECK: mie.kernel "avg_pool" ins(%[[X]] : memref<1x64x112x112xf32>) outs(%[[AVG]] : memref<1x64x56x56xf32>)
// CHECK: memref.alloca() : memref<2x2xf32>
// CHECK: linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK: linalg.generic {indexing_maps = [#[[$ID]]]
// CHECK: arith.divf
// CHECK: %[[GAP:.+]] = mie.alloc : memref<1x64x1x1xf32>
// CHECK: mie.kernel "global_avg_pool" ins(%[[X]] : memref<1x64x112x112xf32>) outs(%[[GAP]] : memref<1x64x1x1xf32>)
// CHECK: memref.collapse_shape
// CHECK: arith.constant 7.97193861E-5 : f32
// CHECK: scf.parallel (%[[ROW:.+]]) = (%c0) to (%c64) step (%c1)
// CHECK: scf.for %{{.+}} = %c0{{[_0-9]*}} to %c12544{{[_0-9]*}} step %c1{{[_0-9]*}} iter_args
// CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<reassoc> : f32
// CHECK: arith.mulf
// CHECK: memref.store
// CHECK: %[[CEIL:.+]] = mie.alloc : memref<1x64x38x38xf32>
// Ceil mode: the output's 38 columns say it (the last window runs past the input).
// CHECK-NEXT: mie.max_pool2d ins(%[[X]] : memref<1x64x112x112xf32>) outs(%[[CEIL]] : memref<1x64x38x38xf32>) {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>}
// CHECK: return %[[MAX]], %[[AVG]], %[[GAP]], %[[CEIL]]
func.func @pool(%x: tensor<1x64x112x112xf32>)
    -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x64x38x38xf32>) {
  %0 = ms.max_pool %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %1 = ms.avg_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %2 = ms.global_avg_pool %x : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
  %3 = ms.max_pool %x {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>, ceil_mode}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x38x38xf32>
  return %0, %1, %2, %3 : tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x64x38x38xf32>
}

// Tests padded average pooling without count_include_pad: zero padding, and a divisor counting only
// the taps inside the real input rows [0, 4) / columns [0, 4).

// CHECK-LABEL: func.func @avg_pool_padded
// CHECK: %[[PAD:.+]] = mie.alloc : memref<1x2x6x6xf32>
// CHECK: mie.kernel "pool_pad"
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ZERO]] : f32)
// CHECK: memref.subview %{{.+}}[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1]
// CHECK: mie.kernel "avg_pool" ins(%[[PAD]] : memref<1x2x6x6xf32>)
// CHECK: linalg.pooling_nchw_sum
// CHECK: linalg.index 2 : index
// CHECK: arith.constant 4 : index
// CHECK: linalg.index 3 : index
// CHECK: arith.sitofp
// CHECK: arith.divf
func.func @avg_pool_padded(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = ms.avg_pool %x {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Tests that reshape-like ops become views of their operand's buffer (collapse to 1-D, expand to
// the new shape: no kernel, no copy), and a scalar a one-element copy (load / store).

// CHECK-LABEL: func.func @reshapes
// CHECK-SAME: (%[[X:[^:]+]]: memref<1x512x1x1xf32>, %[[I:[^:]+]]: memref<128xi64>, %[[S:[^:]+]]: memref<f32>)
// CHECK: %[[C:.+]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1, 2, 3]] : memref<1x512x1x1xf32> into memref<512xf32>
// CHECK: %[[R:.+]] = memref.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [1, 512] : memref<512xf32> into memref<1x512xf32>
// CHECK: %[[C2:.+]] = memref.collapse_shape %[[X]]
// CHECK: %[[F:.+]] = memref.expand_shape %[[C2]] {{\[\[}}0, 1]] output_shape [1, 512]
// CHECK: %[[SQ:.+]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1, 2, 3]] : memref<1x512x1x1xf32> into memref<512xf32>
// CHECK: %[[U:.+]] = memref.expand_shape %[[I]] {{\[\[}}0, 1, 2]] output_shape [1, 128, 1] : memref<128xi64> into memref<1x128x1xi64>
// CHECK-NOT: mie.kernel "{{reshape|flatten|squeeze|unsqueeze}}" ins(%[[X]]
// CHECK: %[[SR:.+]] = mie.alloc : memref<1xf32>
// CHECK: mie.kernel "reshape" ins(%[[S]] : memref<f32>) outs(%[[SR]] : memref<1xf32>)
// CHECK: memref.load %{{.+}}[] : memref<f32>
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<1xf32>
// CHECK: return %[[R]], %[[F]], %[[SQ]], %[[U]], %[[SR]]
func.func @reshapes(%x: tensor<1x512x1x1xf32>, %i: tensor<128xi64>, %s: tensor<f32>)
    -> (tensor<1x512xf32>, tensor<1x512xf32>, tensor<512xf32>, tensor<1x128x1xi64>, tensor<1xf32>) {
  %0 = ms.reshape %x {shape = array<i64: 1, 512>} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  %1 = ms.flatten %x {axis = 1 : i64} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  %2 = ms.squeeze %x : (tensor<1x512x1x1xf32>) -> tensor<512xf32>
  %3 = ms.unsqueeze %i {axes = array<i64: 0, -1>} : (tensor<128xi64>) -> tensor<1x128x1xi64>
  %4 = ms.reshape %s {shape = array<i64: 1>} : (tensor<f32>) -> tensor<1xf32>
  return %0, %1, %2, %3, %4 : tensor<1x512xf32>, tensor<1x512xf32>, tensor<512xf32>, tensor<1x128x1xi64>, tensor<1xf32>
}

// -----

// Tests transpose: out[i] = in[j] with j[perms[d]] = i[d], so perms [0, 2, 3, 1] reads
// in[d0, d3, d1, d2].

// CHECK-DAG: #[[$PERM:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @transpose
// CHECK: %[[T:.+]] = mie.alloc : memref<1x12x64x128xf32>
// CHECK: mie.kernel "transpose" ins(%{{.+}} : memref<1x128x12x64xf32>) outs(%[[T]] : memref<1x12x64x128xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$PERM]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK: ^bb0(%[[E:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[E]] : f32
func.func @transpose(%x: tensor<1x128x12x64xf32>) -> tensor<1x12x64x128xf32> {
  %0 = ms.transpose %x {perms = array<i64: 0, 2, 3, 1>} : (tensor<1x128x12x64xf32>) -> tensor<1x12x64x128xf32>
  return %0 : tensor<1x12x64x128xf32>
}

// -----

// Tests a transpose that moves only size-1 dims (a single key/value head to the front): the
// elements keep their order, so it is a view, no kernel.

// CHECK-LABEL: func.func @transpose_unit_dims
// CHECK-NOT: mie.kernel
// CHECK: %[[F:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0, 1, 2, 3]] : memref<1x6x1x16xf32> into memref<96xf32>
// CHECK: %[[V:.+]] = memref.expand_shape %[[F]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 1, 6, 16] : memref<96xf32> into memref<1x1x6x16xf32>
// CHECK-NOT: mie.kernel
// CHECK: return %[[V]]
func.func @transpose_unit_dims(%x: tensor<1x6x1x16xf32>) -> tensor<1x1x6x16xf32> {
  %0 = ms.transpose %x {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x6x1x16xf32>) -> tensor<1x1x6x16xf32>
  return %0 : tensor<1x1x6x16xf32>
}

// -----

// Tests concat: one kernel copying each input into its slot of the output along the axis.

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:[^:]+]]: memref<1x16x8x8xf32>, %[[B:[^:]+]]: memref<1x32x8x8xf32>)
// CHECK: %[[Y:.+]] = mie.alloc : memref<1x48x8x8xf32>
// CHECK: mie.kernel "concat" ins(%[[A]], %[[B]] : memref<1x16x8x8xf32>, memref<1x32x8x8xf32>) outs(%[[Y]] : memref<1x48x8x8xf32>)
// CHECK: ^bb0(%[[IA:.+]]: memref<1x16x8x8xf32>, %[[IB:.+]]: memref<1x32x8x8xf32>, %[[O:.+]]: memref<1x48x8x8xf32>):
// CHECK: %[[SA:.+]] = memref.subview %[[O]][0, 0, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%[[IA]] : memref<1x16x8x8xf32>) outs(%[[SA]] :
// CHECK: %[[SB:.+]] = memref.subview %[[O]][0, 16, 0, 0] [1, 32, 8, 8] [1, 1, 1, 1]
// CHECK-SAME: offset: 1024
// CHECK: linalg.copy ins(%[[IB]] : memref<1x32x8x8xf32>) outs(%[[SB]] :
func.func @concat(%a: tensor<1x16x8x8xf32>, %b: tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32> {
  %0 = ms.concat %a, %b {axis = 1 : i64} : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
  return %0 : tensor<1x48x8x8xf32>
}

// Tests that a negative axis counts from the end: -3 is the channel dim here.
// CHECK-LABEL: func.func @concat_negative_axis
// CHECK: memref.subview %{{.*}}[0, 0, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1]
// CHECK: memref.subview %{{.*}}[0, 16, 0, 0] [1, 32, 8, 8] [1, 1, 1, 1]
func.func @concat_negative_axis(%a: tensor<1x16x8x8xf32>, %b: tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32> {
  %0 = ms.concat %a, %b {axis = -3 : i64} : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
  return %0 : tensor<1x48x8x8xf32>
}

// -----

// Tests that constants become private, 64-byte aligned constant globals read through get_global;
// a dense_resource global is named after its resource.

// CHECK-DAG: memref.global "private" constant @[[RES:__constant_weight]] : memref<2x2xf32> = dense_resource<weight> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @[[DENSE:__constant[_0-9]*]] : memref<3xi64> = dense<[1, 2, 3]> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @[[SPLAT:__constant[_0-9]*]] : memref<4xf32> = dense<1.000000e+00> {alignment = 64 : i64}
// CHECK-LABEL: func.func @constants
// CHECK-SAME: () -> (memref<2x2xf32>, memref<3xi64>, memref<4xf32>)
// CHECK: %[[R:.+]] = memref.get_global @[[RES]] : memref<2x2xf32>
// CHECK: %[[D:.+]] = memref.get_global @[[DENSE]] : memref<3xi64>
// CHECK: %[[S:.+]] = memref.get_global @[[SPLAT]] : memref<4xf32>
// CHECK: return %[[R]], %[[D]], %[[S]]
// CHECK: weight: "0x040000000000803F000000400000404000008040"
func.func @constants() -> (tensor<2x2xf32>, tensor<3xi64>, tensor<4xf32>) {
  %0 = ms.constant dense_resource<weight> : tensor<2x2xf32>
  %1 = ms.constant dense<[1, 2, 3]> : tensor<3xi64>
  %2 = ms.constant dense<1.0> : tensor<4xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<3xi64>, tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Tests that a splat constant of 16 MiB or more is not stored: it becomes a buffer filled by a
// kernel at run time (its one value, not its 2^22 copies). Integer splats too; smaller ones stay
// globals (above).

// CHECK-LABEL: func.func @large_splats
// CHECK-NOT: memref.global
// CHECK: %[[F:.+]] = mie.alloc : memref<4194304xf32>
// CHECK: mie.kernel "fill" outs(%[[F]] : memref<4194304xf32>)
// CHECK: %[[C:.+]] = arith.constant 1.500000e+00 : f32
// CHECK: linalg.fill ins(%[[C]] : f32) outs(%{{.+}} : memref<4194304xf32>)
// CHECK: %[[I:.+]] = mie.alloc : memref<2048x1024xi64>
// CHECK: mie.kernel "fill" outs(%[[I]] : memref<2048x1024xi64>)
// CHECK: arith.constant -7 : i64
// CHECK: return %[[F]], %[[I]]
func.func @large_splats() -> (tensor<4194304xf32>, tensor<2048x1024xi64>) {
  %0 = ms.constant dense<1.5> : tensor<4194304xf32>
  %1 = ms.constant dense<-7> : tensor<2048x1024xi64>
  return %0, %1 : tensor<4194304xf32>, tensor<2048x1024xi64>
}

// -----

// Tests the signatures: tensors become identity-layout memrefs of the same shape with argument and
// result attributes kept, calls follow, non-tensor types stay.

// CHECK-LABEL: func.func private @callee
// CHECK-SAME: (%{{.+}}: memref<4xf32>, %{{.+}}: i32) -> memref<4xf32>
// CHECK: %[[Y:.+]] = mie.alloc : memref<4xf32>
// CHECK: mie.kernel "relu"
// CHECK: return %[[Y]] : memref<4xf32>
func.func private @callee(%x: tensor<4xf32>, %n: i32) -> tensor<4xf32> {
  %0 = ms.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[X:[^:]+]]: memref<4xf32> {mie.name = "x"}, %[[N:[^:]+]]: i32) -> (memref<4xf32> {mie.name = "y"})
// CHECK: %[[R:.+]] = call @callee(%[[X]], %[[N]]) : (memref<4xf32>, i32) -> memref<4xf32>
// CHECK: return %[[R]] : memref<4xf32>
func.func @caller(%x: tensor<4xf32> {mie.name = "x"}, %n: i32) -> (tensor<4xf32> {mie.name = "y"}) {
  %0 = call @callee(%x, %n) : (tensor<4xf32>, i32) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @passthrough
// CHECK-SAME: (%[[X:[^:]+]]: memref<2x3xf16>) -> memref<2x3xf16>
// CHECK-NEXT: return %[[X]] : memref<2x3xf16>
func.func @passthrough(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  return %x : tensor<2x3xf16>
}

// -----

// Tests softmax on a middle axis: max and sum reductions (axis last in the iteration space) into
// f32 [2, 1, 4] scratch buffers passed as extra outs, then exp(x - max) / sum in one parallel pass.

// CHECK-DAG: #[[$RED:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[$STAT:.+]] = affine_map<(d0, d1, d2) -> (d0, 0, d1)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$BCAST:.+]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:[^:]+]]: memref<2x5x4xf32>)
// CHECK: %[[Y:.+]] = mie.alloc : memref<2x5x4xf32>
// CHECK: %[[MAX:.+]] = mie.alloc : memref<2x1x4xf32>
// CHECK: %[[SUM:.+]] = mie.alloc : memref<2x1x4xf32>
// CHECK: mie.kernel "softmax" ins(%[[X]] : memref<2x5x4xf32>) outs(%[[Y]], %[[MAX]], %[[SUM]] :
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.generic {indexing_maps = [#[[$RED]], #[[$STAT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK: linalg.generic {indexing_maps = [#[[$RED]], #[[$STAT]], #[[$STAT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$BCAST]], #[[$BCAST]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: return %[[Y]]
func.func @softmax(%x: tensor<2x5x4xf32>) -> tensor<2x5x4xf32> {
  %0 = ms.softmax %x {axis = 1 : i64} : (tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// -----

// Tests softmax along the last axis in f32 as a row kernel: per row of 8 the max (maxnumf: a NaN
// still reaches every output through its exp), the exps stored into the output while summed, then
// scaled in place by the reciprocal of the sum.
// CHECK-LABEL: func.func @softmax_last_axis
// CHECK: mie.kernel "softmax" ins(%{{.+}} : memref<3x4x8xf32>) outs(%{{.+}} : memref<3x4x8xf32>)
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c12) step
// CHECK: scf.for {{.+}} iter_args
// CHECK: arith.maxnumf
// CHECK: scf.for {{.+}} iter_args
// CHECK: math.exp
// CHECK: memref.store
// CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<reassoc> : f32
// CHECK: arith.divf
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK: memref.store
func.func @softmax_last_axis(%x: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %0 = ms.softmax %x : (tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return %0 : tensor<3x4x8xf32>
}

// -----

// Tests that an f16 softmax keeps its statistics and arithmetic in f32.

// CHECK-LABEL: func.func @softmax_f16
// CHECK: mie.kernel "softmax" ins(%{{.+}} : memref<4x8xf16>) outs(%{{.+}} : memref<4x8xf16>, memref<4x1xf32>, memref<4x1xf32>)
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK: math.exp %{{.+}} : f32
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @softmax_f16(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = ms.softmax %x : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// Tests layer_norm as a row kernel: one parallel loop over the 6 rows of 8; per row the sum and the
// squared deviations from the mean (two reassociable reductions: vectorized by LLVM) while the row
// is in L1, then (x - mean) * rstd * scale + bias written with the parameters read by the position
// in the row.

// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:[^:]+]]: memref<2x3x8xf32>, %[[G:[^:]+]]: memref<8xf32>, %[[B:[^:]+]]: memref<8xf32>)
// CHECK: %[[Y:.+]] = mie.alloc : memref<2x3x8xf32>
// CHECK: mie.kernel "layer_norm" ins(%[[X]], %[[G]], %[[B]] : {{.+}}) outs(%[[Y]] : memref<2x3x8xf32>)
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c6) step
// CHECK: arith.constant 1.250000e-01 : f32
// CHECK: scf.for {{.+}} iter_args
// CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<reassoc> : f32
// CHECK: scf.for {{.+}} iter_args
// CHECK: arith.mulf
// CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<reassoc> : f32
// CHECK: arith.constant 1.000000e-03 : f32
// CHECK: math.rsqrt
// CHECK: scf.for
// CHECK: memref.load %{{.+}}[%{{.+}}] : memref<8xf32>
// CHECK: memref.load %{{.+}}[%{{.+}}] : memref<8xf32>
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<48xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
func.func @layer_norm(%x: tensor<2x3x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  %0 = ms.layer_norm %x, %g, %b {epsilon = 1.0e-3 : f64} : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// Tests layer_norm over the last two dims without a bias: rows of 24, no add after the scale.
// CHECK-LABEL: func.func @layer_norm_no_bias
// CHECK: mie.kernel "layer_norm" ins(%{{.+}}, %{{.+}} : memref<2x3x8xf32>, memref<3x8xf32>) outs(%{{.+}} : memref<2x3x8xf32>)
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c2) step
// CHECK: math.rsqrt
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK-NEXT: memref.load %{{.+}}[%{{.+}}] : memref<24xf32>
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addi
// CHECK-NEXT: memref.store
func.func @layer_norm_no_bias(%x: tensor<2x3x8xf32>, %g: tensor<3x8xf32>) -> tensor<2x3x8xf32> {
  %0 = ms.layer_norm %x, %g {axis = 1 : i64} : (tensor<2x3x8xf32>, tensor<3x8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// Tests reductions: kept dims first in the iteration space, reduced dims last; keep_dims reads the
// output at 0, otherwise drops the dim; empty axes reduce everything into a rank-0 buffer; the mean
// divides in place; integers use maxsi/minsi with the integer extremes; f16 sums accumulate into an
// f32 scratch buffer and convert back.

// CHECK-DAG: #[[$SUMIN:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[$SUMOUT:.+]] = affine_map<(d0, d1, d2) -> (d0, 0, d1)>
// CHECK-DAG: #[[$MEANIN:.+]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-DAG: #[[$MEANOUT:.+]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG: #[[$LAST:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$KEEPLAST:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-LABEL: func.func @reduce
// CHECK: mie.kernel "reduce_sum" ins(%{{.+}} : memref<2x3x4xf32>) outs(%{{.+}} : memref<2x1x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$SUMIN]], #[[$SUMOUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.addf
// CHECK: mie.kernel "reduce_mean" ins(%{{.+}} : memref<2x3x4xf32>) outs(%{{.+}} : memref<3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$MEANIN]], #[[$MEANOUT]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK: arith.constant 8.000000e+00 : f32
// CHECK: arith.divf
// CHECK: mie.kernel "reduce_max" ins(%{{.+}} : memref<2x3x4xf32>) outs(%{{.+}} : memref<f32>)
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$SCALAR]]], iterator_types = ["reduction", "reduction", "reduction"]}
// CHECK: arith.maximumf
// CHECK: mie.kernel "reduce_min" ins(%{{.+}} : memref<2x3x4xi32>) outs(%{{.+}} : memref<2x3xi32>)
// CHECK: arith.constant 2147483647 : i32
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$LAST]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.minsi
// CHECK: mie.kernel "reduce_sum" ins(%{{.+}} : memref<2x3x4xf16>) outs(%{{.+}} : memref<2x3x1xf16>, memref<2x3x1xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$KEEPLAST]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.extf
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.+}} : memref<2x3x1xf32>) outs(%{{.+}} : memref<2x3x1xf16>)
// CHECK: arith.truncf
func.func @reduce(%x: tensor<2x3x4xf32>, %i: tensor<2x3x4xi32>, %h: tensor<2x3x4xf16>)
    -> (tensor<2x1x4xf32>, tensor<3xf32>, tensor<f32>, tensor<2x3xi32>, tensor<2x3x1xf16>) {
  %0 = ms.reduce_sum %x {axes = array<i64: 1>, keep_dims} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = ms.reduce_mean %x {axes = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %2 = ms.reduce_max %x : (tensor<2x3x4xf32>) -> tensor<f32>
  %3 = ms.reduce_min %i {axes = array<i64: 2>} : (tensor<2x3x4xi32>) -> tensor<2x3xi32>
  %4 = ms.reduce_sum %h {axes = array<i64: 2>, keep_dims} : (tensor<2x3x4xf16>) -> tensor<2x3x1xf16>
  return %0, %1, %2, %3, %4 : tensor<2x1x4xf32>, tensor<3xf32>, tensor<f32>, tensor<2x3xi32>, tensor<2x3x1xf16>
}

// -----

// Tests gather: rows of the data (an embedding table gathered by ids) are row copies, one parallel
// loop over (outer index, id) that reads, wraps and clamps the id once, then copies its 4
// contiguous elements; gathering along the last axis (a rank-0 i32 index) is a generic over the
// output whose body loads the data at the index with the other dims from linalg.index.

// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @gather
// CHECK: mie.kernel "gather" ins(%{{.+}}, %{{.+}} : memref<10x4xf32>, memref<2x3xi64>) outs(%{{.+}} : memref<2x3x4xf32>)
// CHECK: %[[DATA:.+]] = memref.collapse_shape %{{.+}} : memref<10x4xf32> into memref<40xf32>
// CHECK: %[[IDS:.+]] = memref.collapse_shape %{{.+}} : memref<2x3xi64> into memref<6xi64>
// CHECK: scf.parallel (%{{.+}}, %[[P:.+]]) = (%{{.+}}, %{{.+}}) to (%c1, %c6)
// CHECK: %[[I:.+]] = memref.load %[[IDS]][%[[P]]] : memref<6xi64>
// CHECK: %[[IX:.+]] = arith.index_cast %[[I]] : i64 to index
// CHECK: arith.cmpi slt, %[[IX]]
// CHECK: arith.select
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: scf.for %{{.+}} = %{{.+}} to %c4
// CHECK: memref.load %[[DATA]][%{{.+}}] : memref<40xf32>
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<24xf32>
// CHECK: mie.kernel "gather" ins(%{{.+}}, %{{.+}} : memref<10x4xf32>, memref<i32>) outs(%{{.+}} : memref<10xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$SCALAR]], #{{.+}}], iterator_types = ["parallel"]}
// CHECK: arith.index_cast %{{.+}} : i32 to index
// CHECK: %[[R:.+]] = linalg.index 0 : index
// CHECK: memref.load %{{.+}}[%[[R]], %{{.+}}] : memref<10x4xf32>
func.func @gather(%t: tensor<10x4xf32>, %ids: tensor<2x3xi64>, %j: tensor<i32>) -> (tensor<2x3x4xf32>, tensor<10xf32>) {
  %0 = ms.gather %t, %ids {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %1 = ms.gather %t, %j {axis = 1 : i64} : (tensor<10x4xf32>, tensor<i32>) -> tensor<10xf32>
  return %0, %1 : tensor<2x3x4xf32>, tensor<10xf32>
}

// Tests gather rows in the middle of the data: [2, 5, 3] gathered along axis 1 by a rank-0 index
// copies rows of 3 from (outer o, index i) at (o * 5 + i) * 3.
// CHECK-LABEL: func.func @gather_middle
// CHECK: mie.kernel "gather" ins(%{{.+}}, %{{.+}} : memref<2x5x3xf32>, memref<i64>) outs(%{{.+}} : memref<2x3xf32>)
// CHECK: scf.parallel (%[[O:.+]], %{{.+}}) = (%{{.+}}, %{{.+}}) to (%c2, %c1)
// CHECK: memref.load %{{.+}}[] : memref<i64>
// CHECK: arith.muli %[[O]], %c5
// CHECK: scf.for %{{.+}} = %{{.+}} to %c3
func.func @gather_middle(%t: tensor<2x5x3xf32>, %i: tensor<i64>) -> tensor<2x3xf32> {
  %0 = ms.gather %t, %i {axis = 1 : i64} : (tensor<2x5x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests slice: positive steps are a strided subview copied as is; a negative step takes the box
// [start + (size - 1) * step, start] with stride |step| and reverses it through the input map.

// CHECK-DAG: #[[$REV:.+]] = affine_map<(d0, d1) -> (-d0 + 4, d1)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @slice
// CHECK: mie.kernel "slice" ins(%{{.+}} : memref<6x8xf32>) outs(%{{.+}} : memref<2x3xf32>)
// CHECK: %[[BOX:.+]] = memref.subview %{{.+}}[1, 0] [2, 3] [2, 3] : memref<6x8xf32> to memref<2x3xf32, strided<[16, 3], offset: 8>>
// CHECK: linalg.copy ins(%[[BOX]] : {{.+}}) outs(%{{.+}} : memref<2x3xf32>)
// CHECK: mie.kernel "slice" ins(%{{.+}} : memref<6x8xf32>) outs(%{{.+}} : memref<5x2xf32>)
// CHECK: %[[RBOX:.+]] = memref.subview %{{.+}}[1, 1] [5, 2] [1, 2] : memref<6x8xf32> to memref<5x2xf32, strided<[8, 2], offset: 9>>
// CHECK: linalg.generic {indexing_maps = [#[[$REV]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[RBOX]] :
func.func @slice(%x: tensor<6x8xf32>) -> (tensor<2x3xf32>, tensor<5x2xf32>) {
  %0 = ms.slice %x {starts = array<i64: 1, 0>, sizes = array<i64: 2, 3>, steps = array<i64: 2, 3>} : (tensor<6x8xf32>) -> tensor<2x3xf32>
  %1 = ms.slice %x {starts = array<i64: 5, 1>, sizes = array<i64: 5, 2>, steps = array<i64: -1, 2>} : (tensor<6x8xf32>) -> tensor<5x2xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<5x2xf32>
}

// -----

// Tests split: one kernel with one output buffer per piece, each a copy of its subview.

// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[X:[^:]+]]: memref<2x9xf32>)
// CHECK: %[[A:.+]] = mie.alloc : memref<2x2xf32>
// CHECK: %[[B:.+]] = mie.alloc : memref<2x3xf32>
// CHECK: %[[C:.+]] = mie.alloc : memref<2x4xf32>
// CHECK: mie.kernel "split" ins(%[[X]] : memref<2x9xf32>) outs(%[[A]], %[[B]], %[[C]] :
// CHECK: memref.subview %{{.+}}[0, 0] [2, 2] [1, 1]
// CHECK: linalg.copy
// CHECK: memref.subview %{{.+}}[0, 2] [2, 3] [1, 1]
// CHECK: linalg.copy
// CHECK: memref.subview %{{.+}}[0, 5] [2, 4] [1, 1]
// CHECK: linalg.copy
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @split(%x: tensor<2x9xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x4xf32>) {
  %0:3 = ms.split %x {axis = 1 : i64, sizes = array<i64: 2, 3, 4>} : (tensor<2x9xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x4xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x4xf32>
}

// -----

// Tests pad: constant mode fills and copies the kept box into its slot (negative pads crop the
// source box); reflect mode maps the index with period 2 * (size - 1); edge mode clamps.

// CHECK-LABEL: func.func @pad
// CHECK: mie.kernel "pad" ins(%{{.+}} : memref<1x2x4x5xf32>) outs(%{{.+}} : memref<1x2x7x8xf32>)
// CHECK: %[[V:.+]] = arith.constant 1.500000e+00 : f32
// CHECK: linalg.fill ins(%[[V]] : f32)
// CHECK: %[[SRC:.+]] = memref.subview %{{.+}}[0, 0, 0, 0] [1, 2, 4, 5] [1, 1, 1, 1]
// CHECK: %[[DST:.+]] = memref.subview %{{.+}}[0, 0, 1, 2] [1, 2, 4, 5] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%[[SRC]] : {{.+}}) outs(%[[DST]] :
// CHECK: mie.kernel "pad" ins(%{{.+}} : memref<1x2x4x5xf32>) outs(%{{.+}} : memref<1x2x4x5xf32>)
// CHECK: memref.subview %{{.+}}[0, 0, 1, 0] [1, 2, 3, 3] [1, 1, 1, 1]
// CHECK: memref.subview %{{.+}}[0, 0, 0, 2] [1, 2, 3, 3] [1, 1, 1, 1]
// CHECK: mie.kernel "pad" ins(%{{.+}} : memref<1x2x4x5xf32>) outs(%{{.+}} : memref<1x2x9x5xf32>)
// CHECK: linalg.generic
// CHECK: %[[H:.+]] = linalg.index 2 : index
// CHECK: %[[J:.+]] = arith.subi %[[H]], %{{.+}} : index
// CHECK: arith.remsi %[[J]], %{{.+}} : index
// CHECK: memref.load
func.func @pad(%x: tensor<1x2x4x5xf32>) -> (tensor<1x2x7x8xf32>, tensor<1x2x4x5xf32>, tensor<1x2x9x5xf32>) {
  %0 = ms.pad %x {pads = array<i64: 0, 0, 1, 2, 0, 0, 2, 1>, value = 1.5 : f64} : (tensor<1x2x4x5xf32>) -> tensor<1x2x7x8xf32>
  %1 = ms.pad %x {pads = array<i64: 0, 0, -1, 2, 0, 0, 1, -2>} : (tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %2 = ms.pad %x {pads = array<i64: 0, 0, 3, 0, 0, 0, 2, 0>, mode = #ms<pad_mode reflect>} : (tensor<1x2x4x5xf32>) -> tensor<1x2x9x5xf32>
  return %0, %1, %2 : tensor<1x2x7x8xf32>, tensor<1x2x4x5xf32>, tensor<1x2x9x5xf32>
}

// CHECK-LABEL: func.func @pad_edge
// CHECK: mie.kernel "pad" ins(%{{.+}} : memref<4xi64>) outs(%{{.+}} : memref<7xi64>)
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[J:.+]] = arith.subi %[[I]], %{{.+}} : index
// CHECK: %[[LO:.+]] = arith.minsi %[[J]], %{{.+}} : index
// CHECK: %[[K:.+]] = arith.maxsi %[[LO]], %{{.+}} : index
// CHECK: memref.load %{{.+}}[%[[K]]] : memref<4xi64>
func.func @pad_edge(%x: tensor<4xi64>) -> tensor<7xi64> {
  %0 = ms.pad %x {pads = array<i64: 2, 1>, mode = #ms<pad_mode edge>} : (tensor<4xi64>) -> tensor<7xi64>
  return %0 : tensor<7xi64>
}

// -----

// Tests expand: a broadcasting copy (leading dim dropped, size-1 dim read at 0).

// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @expand
// CHECK: mie.kernel "expand" ins(%{{.+}} : memref<3x1xf32>) outs(%{{.+}} : memref<2x3x6xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: ^bb0(%[[E:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[E]] : f32
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x6xf32> {
  %0 = ms.expand %x {shape = array<i64: 2, 1, 6>} : (tensor<3x1xf32>) -> tensor<2x3x6xf32>
  return %0 : tensor<2x3x6xf32>
}

// -----

// Tests resize: unchanged dims read their own index; nearest (asymmetric, floor) divides the output
// index by the scale and floors it without libm (fptosi, step down when above); linear
// (align_corners) clamps the coordinate, takes the two neighbours and sums four weighted loads.

// CHECK-LABEL: func.func @resize
// CHECK: mie.kernel "resize" ins(%{{.+}} : memref<1x3x4x4xf32>) outs(%{{.+}} : memref<1x3x8x8xf32>)
// CHECK: %[[N:.+]] = linalg.index 0 : index
// CHECK: %[[C:.+]] = linalg.index 1 : index
// CHECK: %[[H:.+]] = linalg.index 2 : index
// CHECK: arith.index_cast %[[H]] : index to i64
// CHECK: arith.sitofp
// CHECK: arith.divf
// CHECK: arith.fptosi
// CHECK: arith.cmpf ogt
// CHECK: %[[HI:.+]] = arith.maxsi
// CHECK: %[[WI:.+]] = arith.maxsi
// CHECK: memref.load %{{.+}}[%[[N]], %[[C]], %[[HI]], %[[WI]]] : memref<1x3x4x4xf32>
// CHECK: mie.kernel "resize" ins(%{{.+}} : memref<1x3x4x4xf32>) outs(%{{.+}} : memref<1x3x7x3xf32>)
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK-COUNT-4: memref.load
// CHECK: linalg.yield
func.func @resize(%x: tensor<1x3x4x4xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x3x7x3xf32>) {
  %0 = ms.resize %x {sizes = array<i64: 1, 3, 8, 8>, mode = #ms<resize_mode nearest>, coordinate_mode = #ms<coordinate_mode asymmetric>, nearest_mode = #ms<nearest_mode floor>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  %1 = ms.resize %x {sizes = array<i64: 1, 3, 7, 3>, mode = #ms<resize_mode linear>, coordinate_mode = #ms<coordinate_mode align_corners>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x7x3xf32>
  return %0, %1 : tensor<1x3x8x8xf32>, tensor<1x3x7x3xf32>
}
