// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// The ai.onnx.ml models (DecomposeMlPatterns.cpp): ms.post_transform, ms.linear_regressor,
// ms.linear_classifier (a product by the transposed coefficients), ms.tree_ensemble (every
// tree walked one level per step with gathers and selects), ms.svm (kernel products, pair and
// vote tables, the pairwise coupling loop).

// ms.post_transform softmax_zero: softmax over the scores with |y| > 1e-7, the others 0.
// CHECK-LABEL: func.func @post_softmax_zero
// CHECK: %[[ABS:.+]] = ms.abs %arg0
// CHECK-NEXT: %[[NZ:.+]] = ms.compare gt, %[[ABS]]
// CHECK-NEXT: %[[LOW:.+]] = ms.where %[[NZ]], %arg0
// CHECK-NEXT: %[[TOP:.+]] = ms.reduce_max %[[LOW]] {axes = array<i64: 1>, keep_dims}
// CHECK-NEXT: %[[D:.+]] = ms.sub %arg0, %[[TOP]]
// CHECK-NEXT: %[[E:.+]] = ms.exp %[[D]]
// CHECK-NEXT: %[[EZ:.+]] = ms.where %[[NZ]], %[[E]]
// CHECK-NEXT: %[[S:.+]] = ms.reduce_sum %[[EZ]] {axes = array<i64: 1>, keep_dims}
// CHECK-NEXT: %[[Q:.+]] = ms.div %[[EZ]], %[[S]]
// CHECK-NEXT: %[[Y:.+]] = ms.where %[[NZ]], %[[Q]]
// CHECK-NEXT: return %[[Y]]
func.func @post_softmax_zero(%y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = ms.post_transform %y {transform = #ms<post_transform softmax_zero>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %z : tensor<2x3xf32>
}

// -----

// ms.post_transform probit: onnxruntime's erfinv approximation, evaluated in f64 and cast back.
// CHECK-LABEL: func.func @post_probit
// CHECK: ms.cast %arg0 : tensor<2x1xf32> to tensor<2x1xf64>
// CHECK: ms.log
// CHECK: ms.sqrt
// CHECK: ms.sqrt
// CHECK: %[[Y:.+]] = ms.cast %{{.+}} : tensor<2x1xf64> to tensor<2x1xf32>
// CHECK-NEXT: return %[[Y]]
func.func @post_probit(%y: tensor<2x1xf32>) -> tensor<2x1xf32> {
  %z = ms.post_transform %y {transform = #ms<post_transform probit>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %z : tensor<2x1xf32>
}

// -----

// A one-level tree of <= tests, one target: the root's test at every row (the root constant
// folded into the feature index), the leaf reached scored by the [nodes, targets] table, the
// trees summed and the base value added.
// CHECK-LABEL: func.func @tree_regressor
// CHECK-DAG: %[[BASE:.+]] = ms.constant dense<2.500000e-01> : tensor<1x1xf32>
// CHECK-DAG: %[[W:.+]] = ms.constant dense<{{\[}}[0.000000e+00], [1.000000e+00], [2.000000e+00]]> : tensor<3x1xf32>
// CHECK: %[[X:.+]] = ms.gather_elements %arg0, %{{.+}} {axis = 1 : i64}
// CHECK-NEXT: %[[T:.+]] = ms.compare le, %[[X]]
// CHECK-NEXT: %[[N:.+]] = ms.where %[[T]]
// CHECK-NEXT: %[[L:.+]] = ms.gather %[[W]], %[[N]] : (tensor<3x1xf32>, tensor<4x1xi64>) -> tensor<4x1x1xf32>
// CHECK-NEXT: %[[S:.+]] = ms.reduce_sum %[[L]] {axes = array<i64: 1>}
// CHECK-NEXT: %[[Y:.+]] = ms.add %[[S]], %[[BASE]]
// CHECK-NEXT: return %[[Y]]
func.func @tree_regressor(%x: tensor<4x2xf32>) -> tensor<4x1xf32> {
  %y = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>,
      nodes_featureids = array<i64: 1, 0, 0>, nodes_splits = array<f64: 0.5, 0.0, 0.0>,
      nodes_truenodeids = array<i64: 1, 1, 2>, nodes_falsenodeids = array<i64: 2, 1, 2>,
      nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>,
      tree_roots = array<i64: 0>, leaf_nodeids = array<i64: 1, 2>,
      leaf_targetids = array<i64: 0, 0>, leaf_weights = array<f64: 1.0, 2.0>,
      n_targets = 1 : i64, aggregate_function = #ms<tree_aggregate sum>,
      base_values = array<f64: 0.25>, post_transform = #ms<post_transform none>}
      : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

// Mixed tests (<, !=, set membership), a NaN routed true, two targets aggregated by max, then
// logistic: each level selects among the <, == and > comparisons by per-node masks, overrides
// member nodes by the membership test, lets a NaN through at != and missing-tracks-true nodes;
// the max runs over the trees that vote for the target (0 where none does).
// CHECK-LABEL: func.func @tree_mixed
// CHECK-DAG: %[[NEGINF:.+]] = ms.constant dense<0xFFF0000000000000> : tensor<f64>
// CHECK-DAG: ms.constant dense<{{.+}}0x7FF8000000000000{{.+}}> : tensor<7x2xf64>
// CHECK: %[[F:.+]] = ms.gather %{{.+}}, %[[NODE:.+]] : (tensor<7xi64>, tensor<3x1xi64>) -> tensor<3x1xi64>
// CHECK-NEXT: %[[V:.+]] = ms.gather_elements %arg0, %[[F]] {axis = 1 : i64}
// CHECK-NEXT: %[[S:.+]] = ms.gather %{{.+}}, %[[NODE]] : (tensor<7xf64>, tensor<3x1xi64>) -> tensor<3x1xf64>
// CHECK-NEXT: ms.compare lt, %[[V]], %[[S]]
// CHECK: ms.compare eq, %[[V]], %[[S]]
// CHECK: ms.compare gt, %[[V]], %[[S]]
// CHECK: %[[CAND:.+]] = ms.gather %{{.+}}, %[[NODE]] : (tensor<7x2xf64>, tensor<3x1xi64>) -> tensor<3x1x2xf64>
// CHECK-NEXT: %[[VR:.+]] = ms.reshape %[[V]] {shape = array<i64: 3, 1, 1>}
// CHECK-NEXT: %[[HIT:.+]] = ms.compare eq, %[[VR]], %[[CAND]]
// CHECK: ms.reduce_max %{{.+}} {axes = array<i64: 2>}
// CHECK: %[[NAN1:.+]] = ms.compare ne, %[[V]], %[[V]]
// CHECK: %[[NAN2:.+]] = ms.compare ne, %[[V]], %[[V]]
// CHECK: %[[TAKE:.+]] = ms.or
// CHECK: ms.where %[[TAKE]]
// CHECK: %[[SC:.+]] = ms.gather %{{.+}} : (tensor<7x2xf64>, tensor<3x1xi64>) -> tensor<3x1x2xf64>
// CHECK-NEXT: %[[HAS:.+]] = ms.gather %{{.+}} : (tensor<7x2xi1>, tensor<3x1xi64>) -> tensor<3x1x2xi1>
// CHECK-NEXT: %[[M:.+]] = ms.where %[[HAS]], %[[SC]], %[[NEGINF]]
// CHECK-NEXT: ms.reduce_max %[[M]] {axes = array<i64: 1>}
// CHECK: %[[Y:.+]] = ms.sigmoid
// CHECK-NEXT: return %[[Y]]
func.func @tree_mixed(%x: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %y = ms.tree_ensemble %x {nodes_modes = array<i64: 1, 6, 5, -1, -1, -1, -1>,
      nodes_featureids = array<i64: 0, 1, 1, 0, 0, 0, 0>,
      nodes_splits = array<f64: 0.5, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0>,
      nodes_truenodeids = array<i64: 1, 3, 5, 3, 4, 5, 6>,
      nodes_falsenodeids = array<i64: 2, 4, 6, 3, 4, 5, 6>,
      nodes_missing_value_tracks_true = array<i1: false, true, false, false, false, false, false>,
      membership_sizes = array<i64: 0, 2, 0, 0, 0, 0, 0>, membership_values = array<f64: 1.0, 3.0>,
      tree_roots = array<i64: 0>, leaf_nodeids = array<i64: 3, 4, 5, 6>,
      leaf_targetids = array<i64: 0, 1, 0, 1>, leaf_weights = array<f64: 1.0, 2.0, 3.0, 4.0>,
      n_targets = 2 : i64, aggregate_function = #ms<tree_aggregate max>,
      base_values = array<f64>, post_transform = #ms<post_transform logistic>}
      : (tensor<3x2xf64>) -> tensor<3x2xf64>
  return %y : tensor<3x2xf64>
}

// -----

// A classifier of three classes without base values: the label is the best class among those
// some tree voted for; the scores go through softmax.
// CHECK-LABEL: func.func @tree_classifier
// CHECK-DAG: %[[LABELS:.+]] = ms.constant dense<[7, 8, 9]> : tensor<3xi64>
// CHECK: %[[SUM:.+]] = ms.reduce_sum %{{.+}} {axes = array<i64: 1>} : (tensor<4x1x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[VOTED:.+]] = ms.compare gt
// CHECK-NEXT: %[[PICK:.+]] = ms.where %[[VOTED]], %[[SUM]]
// CHECK-NEXT: %[[BEST:.+]] = ms.arg_max %[[PICK]] {axis = 1 : i64}
// CHECK-NEXT: %[[L:.+]] = ms.gather %[[LABELS]], %[[BEST]]
// CHECK-NEXT: %[[Z:.+]] = ms.softmax %[[SUM]] {axis = 1 : i64}
// CHECK-NEXT: return %[[Z]], %[[L]]
func.func @tree_classifier(%x: tensor<4x2xf32>) -> (tensor<4x3xf32>, tensor<4xi64>) {
  %y, %l = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>,
      nodes_featureids = array<i64: 1, 0, 0>, nodes_splits = array<f64: 0.5, 0.0, 0.0>,
      nodes_truenodeids = array<i64: 1, 1, 2>, nodes_falsenodeids = array<i64: 2, 1, 2>,
      nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>,
      tree_roots = array<i64: 0>, leaf_nodeids = array<i64: 1, 2>,
      leaf_targetids = array<i64: 0, 2>, leaf_weights = array<f64: 1.0, 2.0>,
      n_targets = 3 : i64, aggregate_function = #ms<tree_aggregate sum>,
      base_values = array<f64>, post_transform = #ms<post_transform softmax>,
      class_labels = array<i64: 7, 8, 9>}
      : (tensor<4x2xf32>) -> (tensor<4x3xf32>, tensor<4xi64>)
  return %y, %l : tensor<4x3xf32>, tensor<4xi64>
}

// -----

// Two classes, every vote for class 1 with positive weights (onnxruntime's binary rules): the
// one score q becomes (1 - q, q) where class 1 has no vote, and the label compares with 0.5.
// CHECK-LABEL: func.func @tree_two_classes
// CHECK-DAG: %[[FIRST:.+]] = ms.constant dense<{{\[\[}}true, false]]> : tensor<1x2xi1>
// CHECK-DAG: %[[HALF:.+]] = ms.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[S0:.+]] = ms.slice %[[SUM:.+]] {sizes = array<i64: 4, 1>, starts = array<i64: 0, 0>
// CHECK-NEXT: %[[S1:.+]] = ms.slice %[[SUM]] {sizes = array<i64: 4, 1>, starts = array<i64: 0, 1>
// CHECK-NEXT: %[[H0:.+]] = ms.slice
// CHECK-NEXT: %[[H1:.+]] = ms.slice
// CHECK-NEXT: %[[Q:.+]] = ms.where %[[H0]], %[[S0]]
// CHECK: %[[ONE:.+]] = ms.where %[[FIRST]], %{{.+}}, %[[Q]]
// CHECK-NEXT: %[[Z:.+]] = ms.where %[[H1]], %{{.+}}, %[[ONE]]
// CHECK-NEXT: %[[P:.+]] = ms.where %[[H1]], %[[S1]], %[[Q]]
// CHECK-NEXT: %[[GT:.+]] = ms.compare gt, %[[P]], %[[HALF]]
// CHECK-NEXT: %[[R:.+]] = ms.reshape %[[GT]] {shape = array<i64: 4>}
// CHECK-NEXT: %[[L:.+]] = ms.where %[[R]]
// CHECK-NEXT: return %[[Z]], %[[L]]
func.func @tree_two_classes(%x: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4xi64>) {
  %y, %l = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>,
      nodes_featureids = array<i64: 1, 0, 0>, nodes_splits = array<f64: 0.5, 0.0, 0.0>,
      nodes_truenodeids = array<i64: 1, 1, 2>, nodes_falsenodeids = array<i64: 2, 1, 2>,
      nodes_missing_value_tracks_true = array<i1: false, false, false>,
      membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>,
      tree_roots = array<i64: 0>, leaf_nodeids = array<i64: 1, 2>,
      leaf_targetids = array<i64: 1, 1>, leaf_weights = array<f64: 0.25, 0.75>,
      n_targets = 2 : i64, aggregate_function = #ms<tree_aggregate sum>,
      base_values = array<f64>, post_transform = #ms<post_transform none>,
      class_labels = array<i64: 3, 5>}
      : (tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4xi64>)
  return %y, %l : tensor<4x2xf32>, tensor<4xi64>
}

// -----

// An RBF one-class regressor: squared distances from the differences, exp(-gamma d), the product
// with the coefficients plus rho, then +-1.
// CHECK-LABEL: func.func @svm_regressor
// CHECK: %[[XR:.+]] = ms.reshape %arg0 {shape = array<i64: 3, 1, 2>}
// CHECK-NEXT: %[[D:.+]] = ms.sub %[[XR]], %{{.+}} : (tensor<3x1x2xf32>, tensor<1x2x2xf32>) -> tensor<3x2x2xf32>
// CHECK-NEXT: %[[D2:.+]] = ms.mul %[[D]], %[[D]]
// CHECK-NEXT: %[[SQ:.+]] = ms.reduce_sum %[[D2]] {axes = array<i64: 2>}
// CHECK-NEXT: %[[G:.+]] = ms.mul %[[SQ]]
// CHECK-NEXT: %[[K:.+]] = ms.exp %[[G]]
// CHECK-NEXT: %[[M:.+]] = ms.matmul %[[K]], %{{.+}} : (tensor<3x2xf32>, tensor<2x1xf32>) -> tensor<3x1xf32>
// CHECK-NEXT: %[[Y:.+]] = ms.add %[[M]]
// CHECK-NEXT: %[[POS:.+]] = ms.compare gt, %[[Y]]
// CHECK-NEXT: %[[R:.+]] = ms.where %[[POS]]
// CHECK-NEXT: return %[[R]]
func.func @svm_regressor(%x: tensor<3x2xf32>) -> tensor<3x1xf32> {
  %y = ms.svm %x {kernel_type = #ms<svm_kernel rbf>, kernel_params = array<f64: 0.5, 0.0, 3.0>,
      support_vectors = array<f64: 1.0, 2.0, 3.0, 4.0>, vectors_per_class = array<i64: 2>,
      coefficients = array<f64: 0.5, -0.5>, rho = array<f64: 0.1>, prob_a = array<f64>,
      prob_b = array<f64>, post_transform = #ms<post_transform none>, one_class}
      : (tensor<3x2xf32>) -> tensor<3x1xf32>
  return %y : tensor<3x1xf32>
}

// -----

// A cubic-polynomial classifier of three classes: the kernel, the pairs' sums in f64 plus rho,
// the votes as a product with the [pairs, classes] table, the label of the most voted class.
// CHECK-LABEL: func.func @svm_classifier
// CHECK-DAG: %[[LABELS:.+]] = ms.constant dense<[0, 1, 2]> : tensor<3xi64>
// CHECK: %[[DOT:.+]] = ms.matmul %arg0, %{{.+}} : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[GD:.+]] = ms.mul %[[DOT]]
// CHECK-NEXT: %[[T:.+]] = ms.add %[[GD]]
// CHECK-NEXT: %[[T2:.+]] = ms.mul %[[T]], %[[T]]
// CHECK-NEXT: %[[T3:.+]] = ms.mul %[[T2]], %[[T]]
// CHECK-NEXT: %[[K:.+]] = ms.cast %[[T3]] : tensor<3x3xf32> to tensor<3x3xf64>
// CHECK-NEXT: %[[PS:.+]] = ms.matmul %[[K]], %{{.+}} : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: %[[PR:.+]] = ms.add %[[PS]], %{{.+}} : (tensor<3x3xf64>, tensor<1x3xf64>)
// CHECK-NEXT: %[[S:.+]] = ms.cast %[[PR]] : tensor<3x3xf64> to tensor<3x3xf32>
// CHECK-NEXT: %[[GT:.+]] = ms.compare gt, %[[S]]
// CHECK-NEXT: %[[VF:.+]] = ms.cast %[[GT]]
// CHECK-NEXT: %[[V:.+]] = ms.matmul %[[VF]]
// CHECK-NEXT: %[[VB:.+]] = ms.add %[[V]]
// CHECK-NEXT: %[[BEST:.+]] = ms.arg_max %[[VB]] {axis = 1 : i64}
// CHECK-NEXT: %[[L:.+]] = ms.gather %[[LABELS]], %[[BEST]]
// CHECK-NEXT: return %[[S]], %[[L]]
func.func @svm_classifier(%x: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3xi64>) {
  %y, %l = ms.svm %x {kernel_type = #ms<svm_kernel poly>, kernel_params = array<f64: 0.5, 1.0, 3.0>,
      support_vectors = array<f64: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>, vectors_per_class = array<i64: 1, 1, 1>,
      coefficients = array<f64: 0.5, -0.5, 0.25, 1.0, -1.0, 0.5>, rho = array<f64: 0.1, 0.2, 0.3>,
      prob_a = array<f64>, prob_b = array<f64>, post_transform = #ms<post_transform none>,
      class_labels = array<i64: 0, 1, 2>}
      : (tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3xi64>)
  return %y, %l : tensor<3x3xf32>, tensor<3xi64>
}

// -----

// With Platt's coefficients: the pairs' sigmoids clamped to [1e-7, 1 - 1e-7], laid out as
// r[i][j] / r[j][i] by two products, then the pairwise coupling as an ms.loop of at most 100
// sweeps carrying p and the rows' convergence.
// CHECK-LABEL: func.func @svm_probabilities
// CHECK: %[[L:.+]] = ms.gather %{{.+}}, %{{.+}} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
// CHECK: %[[R:.+]] = ms.sigmoid
// CHECK: ms.matmul %{{.+}} : (tensor<3x3xf32>, tensor<3x9xf32>) -> tensor<3x9xf32>
// CHECK: ms.matmul %{{.+}} : (tensor<3x3xf32>, tensor<3x9xf32>) -> tensor<3x9xf32>
// CHECK: %[[LOOP:.+]]:2 = ms.loop
// CHECK: ms.region_yield
// CHECK: return %[[LOOP]]#0, %[[L]]
func.func @svm_probabilities(%x: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3xi64>) {
  %y, %l = ms.svm %x {kernel_type = #ms<svm_kernel linear>, kernel_params = array<f64: 0.0, 0.0, 0.0>,
      support_vectors = array<f64: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>, vectors_per_class = array<i64: 1, 1, 1>,
      coefficients = array<f64: 0.5, -0.5, 0.25, 1.0, -1.0, 0.5>, rho = array<f64: 0.1, 0.2, 0.3>,
      prob_a = array<f64: -1.0, -2.0, -3.0>, prob_b = array<f64: 0.1, 0.2, 0.3>,
      post_transform = #ms<post_transform none>, class_labels = array<i64: 0, 1, 2>}
      : (tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3xi64>)
  return %y, %l : tensor<3x3xf32>, tensor<3xi64>
}

// -----

// A sigmoid-kernel classifier of two classes: its one pair score s written as (-s, s).
// CHECK-LABEL: func.func @svm_two_classes
// CHECK: ms.tanh
// CHECK: %[[L:.+]] = ms.gather %{{.+}} : (tensor<2xi64>, tensor<3xi64>) -> tensor<3xi64>
// CHECK-NEXT: %[[N:.+]] = ms.neg %[[S:.+]] : tensor<3x1xf32>
// CHECK-NEXT: %[[Z:.+]] = ms.where %{{.+}}, %[[N]], %[[S]] : (tensor<1x2xi1>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[Z]], %[[L]]
func.func @svm_two_classes(%x: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3xi64>) {
  %y, %l = ms.svm %x {kernel_type = #ms<svm_kernel sigmoid>, kernel_params = array<f64: 0.5, 1.0, 0.0>,
      support_vectors = array<f64: 1.0, 2.0, 3.0, 4.0>, vectors_per_class = array<i64: 1, 1>,
      coefficients = array<f64: 0.5, -0.5>, rho = array<f64: 0.1>,
      prob_a = array<f64>, prob_b = array<f64>, post_transform = #ms<post_transform none>,
      class_labels = array<i64: 4, 6>}
      : (tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3xi64>)
  return %y, %l : tensor<3x2xf32>, tensor<3xi64>
}

// -----


// ms.linear_regressor: X W^T by the transposed coefficients [F, targets], the intercepts, then
// the post transform.
// CHECK-LABEL: func.func @linear_regressor
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<{{\[}}[5.000000e-01, -5.000000e-01]]> : tensor<1x2xf32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK: %[[V2:.+]] = ms.matmul %arg0, %[[V1]] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V3:.+]] = ms.add %[[V2]], %[[V0]] : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.sigmoid %[[V3]] : tensor<2x2xf32>
// CHECK-NEXT: return %[[V4]] : tensor<2x2xf32>
func.func @linear_regressor(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %0 = ms.linear_regressor %x {coefficients = array<f64: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>, intercepts = array<f64: 0.5, -0.5>, targets = 2 : i64, post_transform = #ms<post_transform logistic>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// ms.linear_classifier with one score and two labels: the second label where the score is > 0,
// the scores (1 - s, s).
// CHECK-LABEL: func.func @linear_classifier_binary
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<{{\[}}[true, false]]> : tensor<1x2xi1>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<3> : tensor<i64>
// CHECK-DAG: %[[V3:.+]] = ms.constant dense<7> : tensor<i64>
// CHECK-DAG: %[[V4:.+]] = ms.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[V5:.+]] = ms.constant dense<1.000000e-01> : tensor<1x1xf32>
// CHECK-DAG: %[[V6:.+]] = ms.constant dense<{{\[}}[1.000000e+00], [-1.000000e+00]]> : tensor<2x1xf32>
// CHECK: %[[V7:.+]] = ms.matmul %arg0, %[[V6]] : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V8:.+]] = ms.add %[[V7]], %[[V5]] : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V9:.+]] = ms.compare gt, %[[V8]], %[[V4]] : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xi1>
// CHECK-NEXT: %[[V10:.+]] = ms.reshape %[[V9]] {shape = array<i64: 2>} : (tensor<2x1xi1>) -> tensor<2xi1>
// CHECK-NEXT: %[[V11:.+]] = ms.where %[[V10]], %[[V3]], %[[V2]] : (tensor<2xi1>, tensor<i64>, tensor<i64>) -> tensor<2xi64>
// CHECK-NEXT: %[[V12:.+]] = ms.sub %[[V0]], %[[V8]] : (tensor<f32>, tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[V13:.+]] = ms.where %[[V1]], %[[V12]], %[[V8]] : (tensor<1x2xi1>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %[[V11]], %[[V13]] : tensor<2xi64>, tensor<2x2xf32>
func.func @linear_classifier_binary(%x: tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>) {
  %label, %scores = ms.linear_classifier %x {coefficients = array<f64: 1.0, -1.0>, intercepts = array<f64: 0.1>, class_labels = array<i64: 3, 7>, post_transform = #ms<post_transform none>} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>)
  return %label, %scores : tensor<2xi64>, tensor<2x2xf32>
}

// -----

// ms.linear_classifier with three scores: the label of the largest, the scores through softmax.
// CHECK-LABEL: func.func @linear_classifier
// CHECK-DAG: %[[V0:.+]] = ms.constant dense<[3, 7, 9]> : tensor<3xi64>
// CHECK-DAG: %[[V1:.+]] = ms.constant dense<{{\[}}[0.000000e+00, 1.000000e-01, 2.000000e-01]]> : tensor<1x3xf32>
// CHECK-DAG: %[[V2:.+]] = ms.constant dense<{{\[}}[1.000000e+00, 5.000000e-01, 0.000000e+00], [-1.000000e+00, 5.000000e-01, 2.000000e+00]]> : tensor<2x3xf32>
// CHECK: %[[V3:.+]] = ms.matmul %arg0, %[[V2]] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V4:.+]] = ms.add %[[V3]], %[[V1]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[V5:.+]] = ms.arg_max %[[V4]] {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
// CHECK-NEXT: %[[V6:.+]] = ms.gather %[[V0]], %[[V5]] : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT: %[[V7:.+]] = ms.softmax %[[V4]] {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V6]], %[[V7]] : tensor<2xi64>, tensor<2x3xf32>
func.func @linear_classifier(%x: tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x3xf32>) {
  %label, %scores = ms.linear_classifier %x {coefficients = array<f64: 1.0, -1.0, 0.5, 0.5, 0.0, 2.0>, intercepts = array<f64: 0.0, 0.1, 0.2>, class_labels = array<i64: 3, 7, 9>, post_transform = #ms<post_transform softmax>} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x3xf32>)
  return %label, %scores : tensor<2xi64>, tensor<2x3xf32>
}
