// RUN: ms-opt %s -split-input-file -ms-recognize-composites | FileCheck %s

// GELU as PyTorch exports it: x * (1 + erf(x / sqrt(2))) * 0.5.

// CHECK-LABEL: func.func @gelu_erf
// CHECK: %[[G:.+]] = ms.gelu %arg0 : tensor<2x8xf32>
// CHECK-NOT: ms.erf
// CHECK: return %[[G]]
func.func @gelu_erf(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %sqrt2 = ms.constant dense<1.41421354> : tensor<f32>
  %one = ms.constant dense<1.0> : tensor<f32>
  %half = ms.constant dense<0.5> : tensor<f32>
  %d = ms.div %x, %sqrt2 : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = ms.erf %d : tensor<2x8xf32>
  %a = ms.add %e, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = ms.mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = ms.mul %m, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// The tanh form: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).

// CHECK-LABEL: func.func @gelu_tanh
// CHECK: %[[G:.+]] = ms.gelu %arg0 {approximate} : tensor<2x8xf32>
// CHECK: return %[[G]]
func.func @gelu_tanh(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %three = ms.constant dense<3.0> : tensor<f32>
  %c = ms.constant dense<0.044715> : tensor<f32>
  %k = ms.constant dense<0.797884583> : tensor<f32>
  %one = ms.constant dense<1.0> : tensor<f32>
  %half = ms.constant dense<0.5> : tensor<f32>
  %x3 = ms.pow %x, %three : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %cx3 = ms.mul %c, %x3 : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %in = ms.add %x, %cx3 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %arg = ms.mul %in, %k : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %t = ms.tanh %arg : tensor<2x8xf32>
  %a = ms.add %one, %t : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %hx = ms.mul %half, %x : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = ms.mul %hx, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// LayerNorm from its ReduceMean/Sub/Pow/Sqrt/Div chain with the affine tail.

// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[L:.+]] = ms.layer_norm %arg0, %arg1, %arg2 {axis = 2 : i64, epsilon = 9.99999974{{[0-9]*}}E-6 : f64}
// CHECK-NOT: ms.reduce_mean
// CHECK: return %[[L]]
func.func @layer_norm(%x: tensor<1x4x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<1x4x16xf32> {
  %two = ms.constant dense<2.0> : tensor<f32>
  %eps = ms.constant dense<1.0e-5> : tensor<f32>
  %m = ms.reduce_mean %x {axes = array<i64: -1>, keep_dims} : (tensor<1x4x16xf32>) -> tensor<1x4x1xf32>
  %d = ms.sub %x, %m : (tensor<1x4x16xf32>, tensor<1x4x1xf32>) -> tensor<1x4x16xf32>
  %p = ms.pow %d, %two : (tensor<1x4x16xf32>, tensor<f32>) -> tensor<1x4x16xf32>
  %v = ms.reduce_mean %p {axes = array<i64: -1>, keep_dims} : (tensor<1x4x16xf32>) -> tensor<1x4x1xf32>
  %ve = ms.add %v, %eps : (tensor<1x4x1xf32>, tensor<f32>) -> tensor<1x4x1xf32>
  %s = ms.sqrt %ve : tensor<1x4x1xf32>
  %n = ms.div %d, %s : (tensor<1x4x16xf32>, tensor<1x4x1xf32>) -> tensor<1x4x16xf32>
  %y = ms.mul %n, %g : (tensor<1x4x16xf32>, tensor<16xf32>) -> tensor<1x4x16xf32>
  %z = ms.add %y, %b : (tensor<1x4x16xf32>, tensor<16xf32>) -> tensor<1x4x16xf32>
  return %z : tensor<1x4x16xf32>
}

// -----

// Softmax written out with the max subtraction, along axis 1.

// CHECK-LABEL: func.func @softmax
// CHECK: %[[S:.+]] = ms.softmax %arg0 {axis = 1 : i64}
// CHECK: return %[[S]]
func.func @softmax(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %mx = ms.reduce_max %x {axes = array<i64: 1>, keep_dims} : (tensor<3x5xf32>) -> tensor<3x1xf32>
  %d = ms.sub %x, %mx : (tensor<3x5xf32>, tensor<3x1xf32>) -> tensor<3x5xf32>
  %e = ms.exp %d : tensor<3x5xf32>
  %s = ms.reduce_sum %e {axes = array<i64: 1>, keep_dims} : (tensor<3x5xf32>) -> tensor<3x1xf32>
  %r = ms.div %e, %s : (tensor<3x5xf32>, tensor<3x1xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// Attention: Q·Kᵀ (K given transposed) / 8 + mask -> softmax -> ·V. K gets its [.., T, D] layout back
// through a transpose (canonicalization merges it with the exporter's).

// CHECK-LABEL: func.func @attention
// CHECK: %[[K:.+]] = ms.transpose %arg1 {perms = array<i64: 0, 1, 3, 2>} : (tensor<1x2x16x6xf32>) -> tensor<1x2x6x16xf32>
// CHECK: %[[A:.+]] = ms.attention %arg0, %[[K]], %arg2, %arg3 {scale = 1.250000e-01 : f64}
// CHECK-NOT: ms.softmax
// CHECK: return %[[A]]
func.func @attention(%q: tensor<1x2x4x16xf32>, %kt: tensor<1x2x16x6xf32>, %v: tensor<1x2x6x8xf32>,
                     %mask: tensor<1x1x1x6xf32>) -> tensor<1x2x4x8xf32> {
  %c = ms.constant dense<8.0> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<1x2x4x16xf32>, tensor<1x2x16x6xf32>) -> tensor<1x2x4x6xf32>
  %d = ms.div %s, %c : (tensor<1x2x4x6xf32>, tensor<f32>) -> tensor<1x2x4x6xf32>
  %m = ms.add %d, %mask : (tensor<1x2x4x6xf32>, tensor<1x1x1x6xf32>) -> tensor<1x2x4x6xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x2x4x6xf32>
  %o = ms.matmul %p, %v : (tensor<1x2x4x6xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Attention between the exporters' head split ([B, S, H, D] -> [B, H, S, D] for Q and V, to
// [B, H, D, S] for Kᵀ) and head merge transposes: one token-major attention on the projections'
// reshapes, writing the merged layout; no transpose is left.

// CHECK-LABEL: func.func @attention_heads
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x6x2x16xf32>, %[[K:[^:]+]]: tensor<1x6x2x16xf32>, %[[V:[^:]+]]: tensor<1x6x2x8xf32>
// CHECK-NOT: ms.transpose
// CHECK: %[[A:.+]] = ms.attention %[[Q]], %[[K]], %[[V]], %{{.+}} {scale = 2.500000e-01 : f64, token_major} : (tensor<1x6x2x16xf32>, tensor<1x6x2x16xf32>, tensor<1x6x2x8xf32>, tensor<1x1x1x6xf32>) -> tensor<1x6x2x8xf32>
// CHECK-NOT: ms.transpose
// CHECK: return %[[A]]
func.func @attention_heads(%q: tensor<1x6x2x16xf32>, %k: tensor<1x6x2x16xf32>, %v: tensor<1x6x2x8xf32>,
                           %mask: tensor<1x1x1x6xf32>) -> tensor<1x6x2x8xf32> {
  %qh = ms.transpose %q {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x6x2x16xf32>) -> tensor<1x2x6x16xf32>
  %kt = ms.transpose %k {perms = array<i64: 0, 2, 3, 1>} : (tensor<1x6x2x16xf32>) -> tensor<1x2x16x6xf32>
  %vh = ms.transpose %v {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x6x2x8xf32>) -> tensor<1x2x6x8xf32>
  %c = ms.constant dense<4.0> : tensor<f32>
  %s = ms.matmul %qh, %kt : (tensor<1x2x6x16xf32>, tensor<1x2x16x6xf32>) -> tensor<1x2x6x6xf32>
  %d = ms.div %s, %c : (tensor<1x2x6x6xf32>, tensor<f32>) -> tensor<1x2x6x6xf32>
  %m = ms.add %d, %mask : (tensor<1x2x6x6xf32>, tensor<1x1x1x6xf32>) -> tensor<1x2x6x6xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %o = ms.matmul %p, %vh : (tensor<1x2x6x6xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32>
  %r = ms.transpose %o {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x2x6x8xf32>) -> tensor<1x6x2x8xf32>
  return %r : tensor<1x6x2x8xf32>
}

// -----

// The merge must follow: an attention whose result is used as [B, H, S, Dv] keeps its transposes.

// CHECK-LABEL: func.func @attention_heads_unmerged
// CHECK-COUNT-3: ms.transpose
// CHECK: ms.attention
// CHECK-NOT: token_major
// CHECK: return
func.func @attention_heads_unmerged(%q: tensor<1x6x2x16xf32>, %k: tensor<1x6x2x16xf32>, %v: tensor<1x6x2x8xf32>) -> tensor<1x2x6x8xf32> {
  %qh = ms.transpose %q {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x6x2x16xf32>) -> tensor<1x2x6x16xf32>
  %kt = ms.transpose %k {perms = array<i64: 0, 2, 3, 1>} : (tensor<1x6x2x16xf32>) -> tensor<1x2x16x6xf32>
  %vh = ms.transpose %v {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x6x2x8xf32>) -> tensor<1x2x6x8xf32>
  %s = ms.matmul %qh, %kt : (tensor<1x2x6x16xf32>, tensor<1x2x16x6xf32>) -> tensor<1x2x6x6xf32>
  %p = ms.softmax %s {axis = -1 : i64} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %o = ms.matmul %p, %vh : (tensor<1x2x6x6xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32>
  return %o : tensor<1x2x6x8xf32>
}

// -----

// Grouped-query attention as Llama's exporters write it: 2 key/value heads repeated to the 4 query
// heads (Unsqueeze, Expand, Reshape) before Q·Kᵀ. The repetition folds away: the attention reads
// the 2 heads, each serving 2 query heads.

// CHECK-LABEL: func.func @attention_grouped_query
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x4x6x16xf32>, %[[K:[^:]+]]: tensor<1x2x6x16xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK-NOT: ms.expand
// CHECK: %[[A:.+]] = ms.attention %[[Q]], %[[K]], %[[V]] {scale = 2.500000e-01 : f64} : (tensor<1x4x6x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x8xf32>) -> tensor<1x4x6x8xf32>
// CHECK: return %[[A]]
func.func @attention_grouped_query(%q: tensor<1x4x6x16xf32>, %k: tensor<1x2x6x16xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x4x6x8xf32> {
  %k1 = ms.unsqueeze %k {axes = array<i64: 2>} : (tensor<1x2x6x16xf32>) -> tensor<1x2x1x6x16xf32>
  %k2 = ms.expand %k1 {shape = array<i64: 1, 2, 2, 6, 16>} : (tensor<1x2x1x6x16xf32>) -> tensor<1x2x2x6x16xf32>
  %kr = ms.reshape %k2 {shape = array<i64: 1, 4, 6, 16>} : (tensor<1x2x2x6x16xf32>) -> tensor<1x4x6x16xf32>
  %v1 = ms.unsqueeze %v {axes = array<i64: 2>} : (tensor<1x2x6x8xf32>) -> tensor<1x2x1x6x8xf32>
  %v2 = ms.expand %v1 {shape = array<i64: 1, 2, 2, 6, 8>} : (tensor<1x2x1x6x8xf32>) -> tensor<1x2x2x6x8xf32>
  %vr = ms.reshape %v2 {shape = array<i64: 1, 4, 6, 8>} : (tensor<1x2x2x6x8xf32>) -> tensor<1x4x6x8xf32>
  %kt = ms.transpose %kr {perms = array<i64: 0, 1, 3, 2>} : (tensor<1x4x6x16xf32>) -> tensor<1x4x16x6xf32>
  %c = ms.constant dense<0.25> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<1x4x6x16xf32>, tensor<1x4x16x6xf32>) -> tensor<1x4x6x6xf32>
  %d = ms.mul %s, %c : (tensor<1x4x6x6xf32>, tensor<f32>) -> tensor<1x4x6x6xf32>
  %p = ms.softmax %d {axis = -1 : i64} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %o = ms.matmul %p, %vr : (tensor<1x4x6x6xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x8xf32>
  return %o : tensor<1x4x6x8xf32>
}

// -----

// Multi-query attention: one key/value head that the MatMuls broadcast over the 3 query heads.
// Between the head split and merge transposes it becomes token-major too.

// CHECK-LABEL: func.func @attention_multi_query
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x6x3x16xf32>, %[[K:[^:]+]]: tensor<1x6x1x16xf32>, %[[V:[^:]+]]: tensor<1x6x1x8xf32>
// CHECK-NOT: ms.transpose
// CHECK: %[[A:.+]] = ms.attention %[[Q]], %[[K]], %[[V]] {scale = 2.500000e-01 : f64, token_major} : (tensor<1x6x3x16xf32>, tensor<1x6x1x16xf32>, tensor<1x6x1x8xf32>) -> tensor<1x6x3x8xf32>
// CHECK: return %[[A]]
func.func @attention_multi_query(%q: tensor<1x6x3x16xf32>, %k: tensor<1x6x1x16xf32>, %v: tensor<1x6x1x8xf32>) -> tensor<1x6x3x8xf32> {
  %qh = ms.transpose %q {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x6x3x16xf32>) -> tensor<1x3x6x16xf32>
  %kt = ms.transpose %k {perms = array<i64: 0, 2, 3, 1>} : (tensor<1x6x1x16xf32>) -> tensor<1x1x16x6xf32>
  %vh = ms.transpose %v {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x6x1x8xf32>) -> tensor<1x1x6x8xf32>
  %c = ms.constant dense<0.25> : tensor<f32>
  %s = ms.matmul %qh, %kt : (tensor<1x3x6x16xf32>, tensor<1x1x16x6xf32>) -> tensor<1x3x6x6xf32>
  %d = ms.mul %s, %c : (tensor<1x3x6x6xf32>, tensor<f32>) -> tensor<1x3x6x6xf32>
  %p = ms.softmax %d {axis = -1 : i64} : (tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %o = ms.matmul %p, %vh : (tensor<1x3x6x6xf32>, tensor<1x1x6x8xf32>) -> tensor<1x3x6x8xf32>
  %r = ms.transpose %o {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x3x6x8xf32>) -> tensor<1x6x3x8xf32>
  return %r : tensor<1x6x3x8xf32>
}

// -----

// Keys broadcast from one head but values with all three: the kernel's key and value heads must
// agree, so this stays unrecognized.

// CHECK-LABEL: func.func @attention_key_value_heads_differ
// CHECK-NOT: ms.attention
// CHECK: ms.softmax
func.func @attention_key_value_heads_differ(%q: tensor<1x3x6x16xf32>, %kt: tensor<1x1x16x6xf32>, %v: tensor<1x3x6x8xf32>) -> tensor<1x3x6x8xf32> {
  %s = ms.matmul %q, %kt : (tensor<1x3x6x16xf32>, tensor<1x1x16x6xf32>) -> tensor<1x3x6x6xf32>
  %p = ms.softmax %s {axis = -1 : i64} : (tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %o = ms.matmul %p, %v : (tensor<1x3x6x6xf32>, tensor<1x3x6x8xf32>) -> tensor<1x3x6x8xf32>
  return %o : tensor<1x3x6x8xf32>
}

// -----

// A decoder's constant causal mask (0 on and below the diagonal j = i + (T - S), the float minimum
// above; 3 queries over 4 keys) becomes the causal flag: no mask operand is left.

// CHECK-LABEL: func.func @attention_causal_mask
// CHECK: %[[A:.+]] = ms.attention %arg0, %{{.+}}, %arg2 {causal, scale = 1.000000e+00 : f64} : (tensor<1x2x3x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
// CHECK: return %[[A]]
func.func @attention_causal_mask(%q: tensor<1x2x3x8xf32>, %kt: tensor<1x2x8x4xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32> {
  %mask = ms.constant dense<[[[[0.0, 0.0, -3.40282347E+38, -3.40282347E+38], [0.0, 0.0, 0.0, -3.40282347E+38], [0.0, 0.0, 0.0, 0.0]]]]> : tensor<1x1x3x4xf32>
  %s = ms.matmul %q, %kt : (tensor<1x2x3x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x3x4xf32>
  %m = ms.add %s, %mask : (tensor<1x2x3x4xf32>, tensor<1x1x3x4xf32>) -> tensor<1x2x3x4xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o = ms.matmul %p, %v : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  return %o : tensor<1x2x3x8xf32>
}

// -----

// A mask that is not causal (its last row hides a key on the diagonal's side) stays a mask.

// CHECK-LABEL: func.func @attention_not_causal_mask
// CHECK: ms.attention %arg0, %{{.+}}, %arg2, %{{.+}} {scale = 1.000000e+00 : f64}
// CHECK-NOT: causal
func.func @attention_not_causal_mask(%q: tensor<1x2x3x8xf32>, %kt: tensor<1x2x8x4xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32> {
  %mask = ms.constant dense<[[[[0.0, 0.0, -1.0E+9, -1.0E+9], [0.0, 0.0, 0.0, -1.0E+9], [0.0, -1.0E+9, 0.0, 0.0]]]]> : tensor<1x1x3x4xf32>
  %s = ms.matmul %q, %kt : (tensor<1x2x3x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x3x4xf32>
  %m = ms.add %s, %mask : (tensor<1x2x3x4xf32>, tensor<1x1x3x4xf32>) -> tensor<1x2x3x4xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o = ms.matmul %p, %v : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  return %o : tensor<1x2x3x8xf32>
}

// -----

// Left alone when an intermediate has another user: the erf result is also returned.

// CHECK-LABEL: func.func @gelu_shared
// CHECK-NOT: ms.gelu
// CHECK: ms.erf
func.func @gelu_shared(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %sqrt2 = ms.constant dense<1.41421354> : tensor<f32>
  %one = ms.constant dense<1.0> : tensor<f32>
  %half = ms.constant dense<0.5> : tensor<f32>
  %d = ms.div %x, %sqrt2 : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = ms.erf %d : tensor<2x8xf32>
  %a = ms.add %e, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = ms.mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = ms.mul %m, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %r, %e : tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// Attention over symbolic dims (batch s0, query and key length s1): the fold needs the batch and
// length dims to be the same symbols on Q, Kᵀ, V and the mask, not just `?`.

// CHECK-LABEL: func.func @attention_symbolic
// CHECK: ms.attention %arg0, %{{.+}}, %arg2, %arg3 {scale = 1.250000e-01 : f64}
// CHECK-LABEL: func.func @attention_symbolic_other_length
// CHECK-NOT: ms.attention
// CHECK: ms.softmax
func.func @attention_symbolic(%q: tensor<?x2x?x16xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 16)>},
                              %kt: tensor<?x2x16x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, 16, s1)>},
                              %v: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 8)>},
                              %mask: tensor<?x1x1x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 1, 1, s1)>}) -> tensor<?x2x?x8xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %c = ms.constant dense<8.0> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<?x2x?x16xf32>, tensor<?x2x16x?xf32>) -> tensor<?x2x?x?xf32>
  %d = ms.div %s, %c : (tensor<?x2x?x?xf32>, tensor<f32>) -> tensor<?x2x?x?xf32>
  %m = ms.add %d, %mask : (tensor<?x2x?x?xf32>, tensor<?x1x1x?xf32>) -> tensor<?x2x?x?xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %o = ms.matmul %p, %v : (tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %o : tensor<?x2x?x8xf32>
}
func.func @attention_symbolic_other_length(%q: tensor<?x2x?x16xf32> {ms.shape = affine_map<()[s0, s1, s2] -> (s0, 2, s1, 16)>},
                              %kt: tensor<?x2x16x?xf32> {ms.shape = affine_map<()[s0, s1, s2] -> (s0, 2, 16, s1)>},
                              %v: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1, s2] -> (s0, 2, s2, 8)>}) -> tensor<?x2x?x8xf32>
    attributes {ms.symbols = ["batch", "seq", "kv"]} {
  %c = ms.constant dense<8.0> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<?x2x?x16xf32>, tensor<?x2x16x?xf32>) -> tensor<?x2x?x?xf32>
  %d = ms.div %s, %c : (tensor<?x2x?x?xf32>, tensor<f32>) -> tensor<?x2x?x?xf32>
  %p = ms.softmax %d {axis = -1 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %o = ms.matmul %p, %v : (tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %o : tensor<?x2x?x8xf32>
}

// -----

// A decoder's masked_fill over symbolic lengths: the hidden keys (key position j > query position
// i, compared as ranges over the one length) filled with -inf after the scale, or with a large
// negative value before it (still hidden once scaled), become the causal flag; the positions and
// their comparison stay for their other users.

// CHECK-LABEL: func.func @attention_causal_fill
// CHECK: %[[A:.+]] = ms.attention %arg0, %{{.+}}, %arg2 {causal, scale = 1.250000e-01 : f64}
// CHECK-NOT: ms.where
// CHECK: return %[[A]]
// CHECK-LABEL: func.func @attention_causal_fill_inside_scale
// CHECK: ms.attention %arg0, %{{.+}}, %arg2 {causal, scale = 1.250000e-01 : f64}
// CHECK-NOT: ms.where
// CHECK-LABEL: func.func @attention_causal_visible_when_true
// CHECK: ms.attention %arg0, %{{.+}}, %arg2 {causal, scale = 1.000000e+00 : f64}
// CHECK-NOT: ms.where
func.func @attention_causal_fill(%q: tensor<?x2x?x16xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 16)>},
                                 %kt: tensor<?x2x16x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, 16, s1)>},
                                 %v: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 8)>}) -> tensor<?x2x?x8xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %r = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (0, s1)>} : tensor<?xi64>
  %key = ms.unsqueeze %r {axes = array<i64: 0>} : (tensor<?xi64>) -> tensor<1x?xi64>
  %query = ms.unsqueeze %r {axes = array<i64: 1>} : (tensor<?xi64>) -> tensor<?x1xi64>
  %hidden = ms.compare gt, %key, %query : (tensor<1x?xi64>, tensor<?x1xi64>) -> tensor<?x?xi1>
  %c = ms.constant dense<0.125> : tensor<f32>
  %ninf = ms.constant dense<0xFF800000> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<?x2x?x16xf32>, tensor<?x2x16x?xf32>) -> tensor<?x2x?x?xf32>
  %d = ms.mul %s, %c : (tensor<?x2x?x?xf32>, tensor<f32>) -> tensor<?x2x?x?xf32>
  %m = ms.where %hidden, %ninf, %d : (tensor<?x?xi1>, tensor<f32>, tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %o = ms.matmul %p, %v : (tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %o : tensor<?x2x?x8xf32>
}
func.func @attention_causal_fill_inside_scale(%q: tensor<?x2x?x16xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 16)>},
                                 %kt: tensor<?x2x16x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, 16, s1)>},
                                 %v: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 8)>}) -> tensor<?x2x?x8xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %r = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (0, s1)>} : tensor<?xi64>
  %key = ms.unsqueeze %r {axes = array<i64: 0>} : (tensor<?xi64>) -> tensor<1x?xi64>
  %query = ms.unsqueeze %r {axes = array<i64: 1>} : (tensor<?xi64>) -> tensor<?x1xi64>
  // query < key: the same keys, the operands the other way round.
  %hidden = ms.compare lt, %query, %key : (tensor<?x1xi64>, tensor<1x?xi64>) -> tensor<?x?xi1>
  %hidden4 = ms.unsqueeze %hidden {axes = array<i64: 0, 1>} : (tensor<?x?xi1>) -> tensor<1x1x?x?xi1>
  %c = ms.constant dense<8.0> : tensor<f32>
  %fill = ms.constant dense<-1.0e9> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<?x2x?x16xf32>, tensor<?x2x16x?xf32>) -> tensor<?x2x?x?xf32>
  %m = ms.where %hidden4, %fill, %s : (tensor<1x1x?x?xi1>, tensor<f32>, tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %d = ms.div %m, %c : (tensor<?x2x?x?xf32>, tensor<f32>) -> tensor<?x2x?x?xf32>
  %p = ms.softmax %d {axis = -1 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %o = ms.matmul %p, %v : (tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %o : tensor<?x2x?x8xf32>
}
// Static shapes: a constant lower-triangular "keep" mask, the scores where it is true.
func.func @attention_causal_visible_when_true(%q: tensor<1x2x3x8xf32>, %kt: tensor<1x2x8x3xf32>, %v: tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32> {
  %keep = ms.constant dense<[[true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
  %fill = ms.constant dense<-3.40282347E+38> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<1x2x3x8xf32>, tensor<1x2x8x3xf32>) -> tensor<1x2x3x3xf32>
  %m = ms.where %keep, %s, %fill : (tensor<3x3xi1>, tensor<1x2x3x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %o = ms.matmul %p, %v : (tensor<1x2x3x3xf32>, tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
  return %o : tensor<1x2x3x8xf32>
}

// -----

// Not causal, so not an attention: the diagonal hidden too (j >= i), a fill that hides nothing
// (-1 after a scale of 0.125), and positions over two different lengths.

// CHECK-LABEL: func.func @masked_fill_not_causal
// CHECK-NOT: ms.attention
// CHECK: ms.where
// CHECK-LABEL: func.func @masked_fill_small_fill
// CHECK-NOT: ms.attention
// CHECK: ms.where
// CHECK-LABEL: func.func @masked_fill_other_lengths
// CHECK-NOT: ms.attention
// CHECK: ms.where
func.func @masked_fill_not_causal(%q: tensor<?x2x?x16xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 16)>},
                                  %kt: tensor<?x2x16x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, 16, s1)>},
                                  %v: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 8)>}) -> tensor<?x2x?x8xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %r = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (0, s1)>} : tensor<?xi64>
  %key = ms.unsqueeze %r {axes = array<i64: 0>} : (tensor<?xi64>) -> tensor<1x?xi64>
  %query = ms.unsqueeze %r {axes = array<i64: 1>} : (tensor<?xi64>) -> tensor<?x1xi64>
  %hidden = ms.compare ge, %key, %query : (tensor<1x?xi64>, tensor<?x1xi64>) -> tensor<?x?xi1>
  %ninf = ms.constant dense<0xFF800000> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<?x2x?x16xf32>, tensor<?x2x16x?xf32>) -> tensor<?x2x?x?xf32>
  %m = ms.where %hidden, %ninf, %s : (tensor<?x?xi1>, tensor<f32>, tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %o = ms.matmul %p, %v : (tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %o : tensor<?x2x?x8xf32>
}
func.func @masked_fill_small_fill(%q: tensor<?x2x?x16xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 16)>},
                                  %kt: tensor<?x2x16x?xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, 16, s1)>},
                                  %v: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1] -> (s0, 2, s1, 8)>}) -> tensor<?x2x?x8xf32>
    attributes {ms.symbols = ["batch", "seq"]} {
  %r = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (0, s1)>} : tensor<?xi64>
  %key = ms.unsqueeze %r {axes = array<i64: 0>} : (tensor<?xi64>) -> tensor<1x?xi64>
  %query = ms.unsqueeze %r {axes = array<i64: 1>} : (tensor<?xi64>) -> tensor<?x1xi64>
  %hidden = ms.compare gt, %key, %query : (tensor<1x?xi64>, tensor<?x1xi64>) -> tensor<?x?xi1>
  %c = ms.constant dense<0.125> : tensor<f32>
  %fill = ms.constant dense<-8.0> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<?x2x?x16xf32>, tensor<?x2x16x?xf32>) -> tensor<?x2x?x?xf32>
  %m = ms.where %hidden, %fill, %s : (tensor<?x?xi1>, tensor<f32>, tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %d = ms.mul %m, %c : (tensor<?x2x?x?xf32>, tensor<f32>) -> tensor<?x2x?x?xf32>
  %p = ms.softmax %d {axis = -1 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %o = ms.matmul %p, %v : (tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %o : tensor<?x2x?x8xf32>
}
func.func @masked_fill_other_lengths(%q: tensor<?x2x?x16xf32> {ms.shape = affine_map<()[s0, s1, s2] -> (s0, 2, s1, 16)>},
                                     %kt: tensor<?x2x16x?xf32> {ms.shape = affine_map<()[s0, s1, s2] -> (s0, 2, 16, s2)>},
                                     %v: tensor<?x2x?x8xf32> {ms.shape = affine_map<()[s0, s1, s2] -> (s0, 2, s2, 8)>}) -> tensor<?x2x?x8xf32>
    attributes {ms.symbols = ["batch", "seq", "kv"]} {
  %rq = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1, s2] -> (0, s1)>} : tensor<?xi64>
  %rk = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1, s2] -> (0, s2)>} : tensor<?xi64>
  %key = ms.unsqueeze %rk {axes = array<i64: 0>} : (tensor<?xi64>) -> tensor<1x?xi64>
  %query = ms.unsqueeze %rq {axes = array<i64: 1>} : (tensor<?xi64>) -> tensor<?x1xi64>
  %hidden = ms.compare gt, %key, %query : (tensor<1x?xi64>, tensor<?x1xi64>) -> tensor<?x?xi1>
  %ninf = ms.constant dense<0xFF800000> : tensor<f32>
  %s = ms.matmul %q, %kt : (tensor<?x2x?x16xf32>, tensor<?x2x16x?xf32>) -> tensor<?x2x?x?xf32>
  %m = ms.where %hidden, %ninf, %s : (tensor<?x?xi1>, tensor<f32>, tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %p = ms.softmax %m {axis = -1 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %o = ms.matmul %p, %v : (tensor<?x2x?x?xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %o : tensor<?x2x?x8xf32>
}
