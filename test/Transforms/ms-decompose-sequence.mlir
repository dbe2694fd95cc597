// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// ms.rotary_embedding, ms.tfidf and ms.onnx_attention (DecomposeSequencePatterns.cpp).

// A 4-D input whose first 4 of 6 features rotate by halves: x1 cos - x2 sin, x1 sin + x2 cos,
// the last 2 features passed through.
// CHECK-LABEL: func.func @rotary
// CHECK: %[[X:.+]] = ms.transpose %arg0 {perms = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: %[[COS:.+]] = ms.reshape %arg1 {shape = array<i64: 1, 3, 1, 2>}
// CHECK-NEXT: %[[SIN:.+]] = ms.reshape %arg2 {shape = array<i64: 1, 3, 1, 2>}
// CHECK-NEXT: %[[X1:.+]] = ms.slice %[[X]] {sizes = array<i64: 1, 3, 2, 2>, starts = array<i64: 0, 0, 0, 0>
// CHECK-NEXT: %[[X2:.+]] = ms.slice %[[X]] {sizes = array<i64: 1, 3, 2, 2>, starts = array<i64: 0, 0, 0, 2>
// CHECK-NEXT: %[[A:.+]] = ms.mul %[[COS]], %[[X1]]
// CHECK-NEXT: %[[B:.+]] = ms.mul %[[SIN]], %[[X2]]
// CHECK-NEXT: %[[RE:.+]] = ms.sub %[[A]], %[[B]]
// CHECK-NEXT: %[[C:.+]] = ms.mul %[[SIN]], %[[X1]]
// CHECK-NEXT: %[[D:.+]] = ms.mul %[[COS]], %[[X2]]
// CHECK-NEXT: %[[IM:.+]] = ms.add %[[C]], %[[D]]
// CHECK-NEXT: %[[ROT:.+]] = ms.concat %[[RE]], %[[IM]] {axis = 3 : i64}
// CHECK-NEXT: %[[REST:.+]] = ms.slice %[[X]] {sizes = array<i64: 1, 3, 2, 2>, starts = array<i64: 0, 0, 0, 4>
// CHECK-NEXT: %[[ALL:.+]] = ms.concat %[[ROT]], %[[REST]] {axis = 3 : i64}
// CHECK-NEXT: %[[Y:.+]] = ms.transpose %[[ALL]] {perms = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: return %[[Y]]
func.func @rotary(%x: tensor<1x2x3x6xf32>, %cos: tensor<1x3x2xf32>, %sin: tensor<1x3x2xf32>) -> tensor<1x2x3x6xf32> {
  %y = ms.rotary_embedding %x, %cos, %sin {rotary_embedding_dim = 4 : i64, num_heads = 0 : i64}
      : (tensor<1x2x3x6xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<1x2x3x6xf32>
  return %y : tensor<1x2x3x6xf32>
}

// -----

// A 3-D f16 input of 2 heads, interleaved pairs, caches read at position_ids (cast to the
// input's type and to int64 indices).
// CHECK-LABEL: func.func @rotary_positions
// CHECK: %[[X:.+]] = ms.reshape %arg0 {shape = array<i64: 1, 3, 2, 4>}
// CHECK-NEXT: %[[C16:.+]] = ms.cast %arg1 : tensor<16x2xf32> to tensor<16x2xf16>
// CHECK-NEXT: %[[P:.+]] = ms.cast %arg3 : tensor<1x3xi32> to tensor<1x3xi64>
// CHECK-NEXT: ms.gather %[[C16]], %[[P]] : (tensor<16x2xf16>, tensor<1x3xi64>) -> tensor<1x3x2xf16>
// CHECK: ms.slice %[[X]] {sizes = array<i64: 1, 3, 2, 2>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 2>}
// CHECK-NEXT: ms.slice %[[X]] {sizes = array<i64: 1, 3, 2, 2>, starts = array<i64: 0, 0, 0, 1>, steps = array<i64: 1, 1, 1, 2>}
// CHECK: ms.concat %{{.+}}, %{{.+}} {axis = 4 : i64} : (tensor<1x3x2x2x1xf16>, tensor<1x3x2x2x1xf16>) -> tensor<1x3x2x2x2xf16>
// CHECK-NEXT: %[[Y:.+]] = ms.reshape %{{.+}} {shape = array<i64: 1, 3, 8>}
// CHECK-NEXT: return %[[Y]]
func.func @rotary_positions(%x: tensor<1x3x8xf16>, %cos: tensor<16x2xf32>, %sin: tensor<16x2xf32>, %p: tensor<1x3xi32>) -> tensor<1x3x8xf16> {
  %y = ms.rotary_embedding %x, %cos, %sin, %p {rotary_embedding_dim = 4 : i64, num_heads = 2 : i64, interleaved}
      : (tensor<1x3x8xf16>, tensor<16x2xf32>, tensor<16x2xf32>, tensor<1x3xi32>) -> tensor<1x3x8xf16>
  return %y : tensor<1x3x8xf16>
}

// -----

// Unigrams and bigrams with one skip: the unigram pool compared with every token, the bigram
// (4, 5) at distances 1 and 2 (4 and 3 starts), each length's counts mapped to the output
// columns by a one-hot product, then weighted (TFIDF).
// CHECK-LABEL: func.func @tfidf
// CHECK-DAG: %[[W:.+]] = ms.constant dense<{{\[\[}}5.000000e-01, 2.000000e+00, 3.000000e+00]]> : tensor<1x3xf32>
// CHECK-DAG: %[[H2:.+]] = ms.constant dense<{{\[\[}}0.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<1x3xf32>
// CHECK-DAG: %[[H1:.+]] = ms.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<2x3xf32>
// CHECK: ms.compare eq, %{{.+}}, %{{.+}} : (tensor<1x5x1xi32>, tensor<1x1x2xi32>) -> tensor<1x5x2xi1>
// CHECK: %[[C1:.+]] = ms.reduce_sum %{{.+}} {axes = array<i64: 1>} : (tensor<1x5x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT: %[[U:.+]] = ms.matmul %[[C1]], %[[H1]]
// CHECK: ms.slice %arg0 {sizes = array<i64: 1, 4>, starts = array<i64: 0, 1>
// CHECK: %[[D1:.+]] = ms.reduce_sum %{{.+}} : (tensor<1x4x1xf32>) -> tensor<1x1xf32>
// CHECK: ms.slice %arg0 {sizes = array<i64: 1, 3>, starts = array<i64: 0, 2>
// CHECK: %[[D2:.+]] = ms.reduce_sum %{{.+}} : (tensor<1x3x1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT: %[[C2:.+]] = ms.add %[[D1]], %[[D2]]
// CHECK-NEXT: %[[B:.+]] = ms.matmul %[[C2]], %[[H2]]
// CHECK-NEXT: %[[T:.+]] = ms.add %[[U]], %[[B]]
// CHECK-NEXT: %[[Y:.+]] = ms.mul %[[T]], %[[W]]
// CHECK-NEXT: return %[[Y]]
func.func @tfidf(%x: tensor<1x5xi32>) -> tensor<1x3xf32> {
  %y = ms.tfidf %x {mode = #ms<tfidf_mode tfidf>, min_gram_length = 1 : i64, max_gram_length = 2 : i64,
      max_skip_count = 1 : i64, ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 0, 2, 1>,
      pool_int64s = array<i64: 4, 5, 4, 5>, weights = array<f64: 0.5, 2.0, 3.0>}
      : (tensor<1x5xi32>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}

// -----

// IDF without weights: 1 where a pooled token occurs in the row, else 0.
// CHECK-LABEL: func.func @idf
// CHECK: %[[C:.+]] = ms.matmul %{{.+}} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[P:.+]] = ms.compare gt, %[[C]]
// CHECK-NEXT: %[[Y:.+]] = ms.where %[[P]]
// CHECK-NEXT: return %[[Y]]
func.func @idf(%x: tensor<2x4xi64>) -> tensor<2x2xf32> {
  %y = ms.tfidf %x {mode = #ms<tfidf_mode idf>, min_gram_length = 1 : i64, max_gram_length = 1 : i64,
      max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 1, 0>,
      pool_int64s = array<i64: 7, 9>, weights = array<f64>}
      : (tensor<2x4xi64>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// ms.onnx_attention with key padding (nonpad_kv_seqlen) and the softmax in f32 over f16 data:
// the positions past each batch's length biased by -inf, Q and K scaled by sqrt(scale), the
// biased scores as the second result (mode 1).
// CHECK-LABEL: func.func @onnx_attention_nonpad
// CHECK-DAG: %[[ROOT:.+]] = ms.constant dense<7.070310e-01> : tensor<f16>
// CHECK-DAG: %[[POS:.+]] = ms.constant dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi64>
// CHECK: %[[L:.+]] = ms.reshape %arg3 {shape = array<i64: 2, 1>}
// CHECK-NEXT: %[[KEPT:.+]] = ms.compare lt, %[[POS]], %[[L]]
// CHECK-NEXT: %[[PAD:.+]] = ms.where %[[KEPT]]
// CHECK-NEXT: %[[BIAS:.+]] = ms.reshape %[[PAD]] {shape = array<i64: 2, 1, 1, 3>}
// CHECK-NEXT: %[[QS:.+]] = ms.mul %arg0, %[[ROOT]]
// CHECK-NEXT: %[[KS:.+]] = ms.mul %arg1, %[[ROOT]]
// CHECK-NEXT: %[[KT:.+]] = ms.transpose %[[KS]] {perms = array<i64: 0, 1, 3, 2>}
// CHECK-NEXT: %[[S:.+]] = ms.matmul %[[QS]], %[[KT]]
// CHECK-NEXT: %[[LOGITS:.+]] = ms.add %[[S]], %[[BIAS]]
// CHECK-NEXT: %[[WIDE:.+]] = ms.cast %[[LOGITS]] : tensor<2x2x3x3xf16> to tensor<2x2x3x3xf32>
// CHECK-NEXT: %[[P:.+]] = ms.softmax %[[WIDE]]
// CHECK-NEXT: %[[PN:.+]] = ms.cast %[[P]] : tensor<2x2x3x3xf32> to tensor<2x2x3x3xf16>
// CHECK-NEXT: %[[Y:.+]] = ms.matmul %[[PN]], %arg2
// CHECK-NEXT: return %[[Y]], %[[LOGITS]]
func.func @onnx_attention_nonpad(%q: tensor<2x2x3x4xf16>, %k: tensor<2x2x3x4xf16>, %v: tensor<2x2x3x4xf16>, %l: tensor<2xi64>) -> (tensor<2x2x3x4xf16>, tensor<2x2x3x3xf16>) {
  %y, %qk = ms.onnx_attention %q, %k, %v nonpad %l {past_length = 0 : i64, qk_matmul_output_mode = 1 : i64, scale = 5.000000e-01 : f64, softcap = 0.000000e+00 : f64, softmax_type = f32} : (tensor<2x2x3x4xf16>, tensor<2x2x3x4xf16>, tensor<2x2x3x4xf16>, tensor<2xi64>) -> (tensor<2x2x3x4xf16>, tensor<2x2x3x3xf16>)
  return %y, %qk : tensor<2x2x3x4xf16>, tensor<2x2x3x3xf16>
}

// -----

// A bool mask padded with -inf to the 5 keys (2 past), the causal part, grouped-query heads
// repeated (2 -> 4), softcap and the probabilities as the second result (mode 3).
// CHECK-LABEL: func.func @onnx_attention
// CHECK: %[[M:.+]] = ms.where %arg3
// CHECK-NEXT: %[[MP:.+]] = ms.pad %[[M]] {pads = array<i64: 0, 0, 0, 1>, value = 0xFFF0000000000000 : f64}
// CHECK-NEXT: %[[BIAS:.+]] = ms.add %[[MP]], %{{.+}} : (tensor<3x5xf32>, tensor<3x5xf32>)
// CHECK: ms.expand %{{.+}} {shape = array<i64: 1, 2, 2, 5, 4>}
// CHECK-NEXT: ms.reshape %{{.+}} {shape = array<i64: 1, 4, 5, 4>}
// CHECK: ms.expand %{{.+}} {shape = array<i64: 1, 2, 2, 5, 4>}
// CHECK-NEXT: %[[VR:.+]] = ms.reshape %{{.+}} {shape = array<i64: 1, 4, 5, 4>}
// CHECK: %[[S:.+]] = ms.matmul
// CHECK-NEXT: %[[L:.+]] = ms.add %[[S]], %[[BIAS]]
// CHECK-NEXT: ms.div %[[L]]
// CHECK-NEXT: ms.tanh
// CHECK-NEXT: %[[CAPPED:.+]] = ms.mul
// CHECK-NEXT: %[[P:.+]] = ms.softmax %[[CAPPED]]
// CHECK-NEXT: %[[Y:.+]] = ms.matmul %[[P]], %[[VR]]
// CHECK-NEXT: return %[[Y]], %[[P]]
func.func @onnx_attention(%q: tensor<1x4x3x4xf32>, %k: tensor<1x2x5x4xf32>, %v: tensor<1x2x5x4xf32>, %m: tensor<3x4xi1>) -> (tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>) {
  %y, %qk = ms.onnx_attention %q, %k, %v, %m {is_causal, past_length = 2 : i64, qk_matmul_output_mode = 3 : i64, scale = 5.000000e-01 : f64, softcap = 2.000000e+00 : f64, softmax_type = f32} : (tensor<1x4x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<3x4xi1>) -> (tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>)
  return %y, %qk : tensor<1x4x3x4xf32>, tensor<1x4x3x5xf32>
}
