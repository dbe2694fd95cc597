//===- MsMlOps.td - the ai.onnx.ml models that ms-decompose expands -*- tablegen -*-===//
//
// The classical-ML models of ONNX's ai.onnx.ml domain whose evaluation is more than a few ops:
// tree ensembles, support vector machines and the score transforms they share. The importer
// resolves ONNX's attribute forms (the ml 1/3 and ml 5 tree encodings, the string modes) into one
// normalized op; `ms-decompose` (DecomposeMlPatterns.cpp) expands it into gathers, comparisons,
// products and reductions, numbered as onnxruntime computes them.
//
//===----------------------------------------------------------------------===//

#ifndef MS_ML_OPS_TD
#define MS_ML_OPS_TD

include "dialects/ms/IR/MsBase.td"

def Ms_PostTransformOp : Ms_InferredOp<"post_transform"> {
  let summary = "The score transform of an ai.onnx.ml model (ONNX post_transform).";
  let description = [{
    Transforms `input` [N, targets] along the targets as onnxruntime does: `logistic` (sigmoid),
    `softmax`, `softmax_zero` (softmax over the scores with |y| > 1e-7, the others 0) or `probit`
    (sqrt(2) erfinv(2y - 1) with onnxruntime's approximation, evaluated in f64); `none` is the
    identity (the importer emits no op for it).

    Example:
    ```mlir
    %z = ms.post_transform %y {transform = #ms<post_transform softmax>}
        : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_MlPostTransformAttr:$transform);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_TreeEnsembleOp : Ms_InferredOp<"tree_ensemble"> {
  let summary = "A forest of decision trees (ONNX TreeEnsemble, TreeEnsembleRegressor/Classifier).";
  let description = [{
    One node table holds the branches and the leaves of every tree: node i tests feature
    `nodes_featureids[i]` of a row of `input` [N, F] against `nodes_splits[i]` by
    `nodes_modes[i]` (TreeEnsemble's numbering: 0 <=, 1 <, 2 >=, 3 >, 4 ==, 5 !=, 6 membership
    in the node's `membership_sizes[i]` values of `membership_values`, taken in node order;
    -1 marks a leaf) and goes on to `nodes_truenodeids[i]` or `nodes_falsenodeids[i]`; a NaN
    feature goes the true way where `nodes_missing_value_tracks_true[i]`. The trees start at
    `tree_roots`. Leaf `leaf_nodeids[j]` votes `leaf_weights[j]` for target `leaf_targetids[j]`
    (several votes of one leaf for one target add up). The votes of the leaves reached are
    combined over the trees by `aggregate_function` (min and max over the trees that vote for the
    target), `base_values` (one per target, or none) are added and `post_transform` applied,
    with onnxruntime's rules for targets no tree voted for.

    With `class_labels` the op is a classifier: `scores` [N, classes] (one target per class,
    summed) and `label` [N], the label of the best class; two classes follow onnxruntime's
    binary rules. Without it, `scores` [N, n_targets] only. Scores are in the input's element
    type. `ms-decompose` walks every tree for every row at once, one level per step.

    Example:
    ```mlir
    %y = ms.tree_ensemble %x {nodes_modes = array<i64: 0, -1, -1>,
        nodes_featureids = array<i64: 1, 0, 0>, nodes_splits = array<f64: 0.5, 0.0, 0.0>,
        nodes_truenodeids = array<i64: 1, 1, 2>, nodes_falsenodeids = array<i64: 2, 1, 2>,
        nodes_missing_value_tracks_true = array<i1: false, false, false>,
        membership_sizes = array<i64: 0, 0, 0>, membership_values = array<f64>,
        tree_roots = array<i64: 0>, leaf_nodeids = array<i64: 1, 2>,
        leaf_targetids = array<i64: 0, 0>, leaf_weights = array<f64: 1.0, 2.0>,
        n_targets = 1 : i64, aggregate_function = #ms<tree_aggregate sum>,
        base_values = array<f64>, post_transform = #ms<post_transform none>}
        : (tensor<4x2xf32>) -> tensor<4x1xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input,
                   DenseI64ArrayAttr:$nodes_modes, DenseI64ArrayAttr:$nodes_featureids,
                   DenseF64ArrayAttr:$nodes_splits, DenseI64ArrayAttr:$nodes_truenodeids,
                   DenseI64ArrayAttr:$nodes_falsenodeids,
                   DenseBoolArrayAttr:$nodes_missing_value_tracks_true,
                   DenseI64ArrayAttr:$membership_sizes, DenseF64ArrayAttr:$membership_values,
                   DenseI64ArrayAttr:$tree_roots, DenseI64ArrayAttr:$leaf_nodeids,
                   DenseI64ArrayAttr:$leaf_targetids, DenseF64ArrayAttr:$leaf_weights,
                   I64Attr:$n_targets, Ms_TreeAggregateAttr:$aggregate_function,
                   DenseF64ArrayAttr:$base_values, Ms_MlPostTransformAttr:$post_transform,
                   OptionalAttr<DenseI64ArrayAttr>:$class_labels);
  let results = (outs Ms_FloatTensor:$scores, Optional<RankedTensorOf<[I64]>>:$label);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// The longest path from a root to a leaf of the node table; failure where a path runs out
    /// of the table or reaches a node again below itself (that node in `*cycle`).
    static ::mlir::FailureOr<int64_t> depthOf(::llvm::ArrayRef<int64_t> modes,
                                              ::llvm::ArrayRef<int64_t> trueNext,
                                              ::llvm::ArrayRef<int64_t> falseNext,
                                              ::llvm::ArrayRef<int64_t> roots, int64_t *cycle);
  }];
}

def Ms_SvmOp : Ms_InferredOp<"svm"> {
  let summary = "A kernel support vector machine (ONNX SVMRegressor, SVMClassifier).";
  let description = [{
    libsvm's model over `input` [N, F] (f32): `support_vectors` [V, F] row major, grouped by
    class as `vectors_per_class` says (a regressor has one group), the kernel `kernel_type` with
    `kernel_params` (gamma, coef0, degree): LINEAR x.s, POLY (gamma x.s + coef0)^degree, RBF
    exp(-gamma |x - s|^2), SIGMOID tanh(gamma x.s + coef0).

    Without `class_labels` (a regressor): `scores` [N, 1] = K(x, SV) @ coefficients + rho[0],
    with `one_class` 1 where that is > 0, else -1. With them (a classifier of k classes): one
    score per pair of classes from libsvm's coefficient layout plus rho, the votes, `label` [N]
    the label of the most voted class, and `scores` the pairs' scores (two classes: [N, 2] as
    onnxruntime writes them) or, with Platt's `prob_a` / `prob_b`, the class probabilities of
    libsvm's pairwise coupling (an ms.loop of at most 100 sweeps), then `post_transform`.

    Example:
    ```mlir
    %y = ms.svm %x {kernel_type = #ms<svm_kernel rbf>, kernel_params = array<f64: 0.5, 0.0, 3.0>,
        support_vectors = array<f64: 1.0, 2.0, 3.0, 4.0>, vectors_per_class = array<i64: 2>,
        coefficients = array<f64: 0.5, -0.5>, rho = array<f64: 0.1>, prob_a = array<f64>,
        prob_b = array<f64>, post_transform = #ms<post_transform none>}
        : (tensor<3x2xf32>) -> tensor<3x1xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_SvmKernelAttr:$kernel_type,
                   DenseF64ArrayAttr:$kernel_params, DenseF64ArrayAttr:$support_vectors,
                   DenseI64ArrayAttr:$vectors_per_class, DenseF64ArrayAttr:$coefficients,
                   DenseF64ArrayAttr:$rho, DenseF64ArrayAttr:$prob_a, DenseF64ArrayAttr:$prob_b,
                   Ms_MlPostTransformAttr:$post_transform, UnitAttr:$one_class,
                   OptionalAttr<DenseI64ArrayAttr>:$class_labels);
  let results = (outs Ms_FloatTensor:$scores, Optional<RankedTensorOf<[I64]>>:$label);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// The numeric ai.onnx.ml transforms and linear models (DecomposeMlEncoderPatterns.cpp; the linear
// models in DecomposeMlPatterns.cpp, next to the post transforms they apply)
//===----------------------------------------------------------------------===//

def Ms_ScalerOp : Ms_InferredOp<"scaler"> {
  let summary = "(x - offset) * scale per feature, in f32 (ONNX ai.onnx.ml Scaler).";
  let description = [{
    `offset` and `scale` hold one value for every feature or one per feature (the input's last
    axis); the input is converted to f32 first, as scikit-learn's StandardScaler and MinMaxScaler
    convert.

    Example:
    ```mlir
    %y = ms.scaler %x {offset = array<f64: 1.0, 2.0, 3.0>, scale = array<f64: 0.5>}
        : (tensor<2x3xf64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, DenseF64ArrayAttr:$offset,
                   DenseF64ArrayAttr:$scale);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_NormalizerOp : Ms_InferredOp<"normalizer"> {
  let summary = "Each row divided by its max, L1 or L2 norm, in f32 (ONNX ai.onnx.ml Normalizer).";
  let description = [{
    The rows are the last axis of a 1-D or 2-D input: `max` divides by the largest value, `l1`
    by the sum of the magnitudes, `l2` by the Euclidean norm; a row whose norm is 0 stays as it
    is.

    Example:
    ```mlir
    %y = ms.normalizer %x {norm = #ms<ml_norm l2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, Ms_MlNormAttr:$norm);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_ImputerOp : Ms_InferredOp<"imputer"> {
  let summary = "Replaces a marker value by each feature's imputed value (ONNX ai.onnx.ml Imputer).";
  let description = [{
    The elements of a float or int64 `input` equal to `replaced_value` (NaN: the NaNs) become the
    imputed value of their feature (the last axis): `imputed_values` holds one value for all
    features or one per feature, in the input's type.

    Example:
    ```mlir
    %y = ms.imputer %x {imputed_values = array<f64: 1.0, 2.0>, replaced_value = 0x7FF8000000000000}
        : (tensor<3x2xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, DenseF64ArrayAttr:$imputed_values,
                   F64Attr:$replaced_value);
  let results = (outs Ms_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_OneHotEncoderOp : Ms_InferredOp<"one_hot_encoder"> {
  let summary = "One f32 indicator per category for every element (ONNX ai.onnx.ml OneHotEncoder).";
  let description = [{
    `input` (converted to int64) against `categories`: the result has the input's shape plus one
    axis of the categories, 1 where the element is the category, else 0. A category listed twice
    counts at its last position, as onnxruntime's map keeps it; a value that is no category gives
    a row of zeros.

    Example:
    ```mlir
    %y = ms.one_hot_encoder %x {categories = array<i64: 1, 3, 5>}
        : (tensor<4xi64>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, DenseI64ArrayAttr:$categories);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_LabelEncoderOp : Ms_InferredOp<"label_encoder"> {
  let summary = "A lookup of each element in a key-value table (ONNX ai.onnx.ml LabelEncoder).";
  let description = [{
    Each element of `input` equal to one of the distinct `keys` (1-D, the input's element type)
    becomes that key's entry of `values` (1-D, as many); any other becomes `default_value` (one
    element of the values' type). A NaN key matches the NaN elements where `nan_matches_nan` is
    set (ai.onnx.ml 4), else nothing. Integer keys over a compact range are looked up in a dense
    table; others are compared with every element (LabelEncoderOp::usesDenseTable).

    Example:
    ```mlir
    %y = ms.label_encoder %x {keys = dense<[1, 5, 9]> : tensor<3xi64>,
        values = dense<[0.5, 1.5, 2.5]> : tensor<3xf32>, default_value = dense<-1.0> : tensor<f32>}
        : (tensor<4xi64>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, ElementsAttr:$keys, ElementsAttr:$values,
                   ElementsAttr:$default_value, UnitAttr:$nan_matches_nan);
  let results = (outs Ms_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// Whether integer `keys` span few enough values (fewer than max(1024, 4 * keys), at most
    /// 2^20) to be looked up by slot `x - min` instead of compared with every element.
    static bool usesDenseTable(::llvm::ArrayRef<int64_t> keys);
  }];
}

def Ms_LinearRegressorOp : Ms_InferredOp<"linear_regressor"> {
  let summary = "X W^T + intercepts, then a post transform (ONNX ai.onnx.ml LinearRegressor).";
  let description = [{
    `input` [N, F] (f32) times the transposed `coefficients` [targets, F] (row major), plus
    `intercepts` (one per target, or none), then `post_transform` over the targets: `scores`
    [N, targets].

    Example:
    ```mlir
    %y = ms.linear_regressor %x {coefficients = array<f64: 1.0, 2.0, 3.0>,
        intercepts = array<f64: 0.5>, targets = 1 : i64, post_transform = #ms<post_transform none>}
        : (tensor<2x3xf32>) -> tensor<2x1xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DenseF64ArrayAttr:$coefficients,
                   DenseF64ArrayAttr:$intercepts, I64Attr:$targets,
                   Ms_MlPostTransformAttr:$post_transform);
  let results = (outs Ms_FloatTensor:$scores);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_LinearClassifierOp : Ms_InferredOp<"linear_classifier"> {
  let summary = "A linear classifier with int64 labels (ONNX ai.onnx.ml LinearClassifier).";
  let description = [{
    One score per intercept, `input` [N, F] (f32) times the transposed `coefficients` plus
    `intercepts`. Several scores: `label` [N] is the class label of the largest (the first of
    equals) and `scores` the scores through `post_transform`. One score (onnxruntime's binary
    form): the second of two `class_labels` where it is > 0, else the first (1 and 0 without two
    labels); `scores` (1 - s, s) [N, 2] with two labels, else s [N, 1], untransformed.

    Example:
    ```mlir
    %label, %scores = ms.linear_classifier %x {coefficients = array<f64: 1.0, -1.0, 0.5, 0.5>,
        intercepts = array<f64: 0.0, 0.1>, class_labels = array<i64: 3, 7>,
        post_transform = #ms<post_transform softmax>}
        : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>)
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DenseF64ArrayAttr:$coefficients,
                   DenseF64ArrayAttr:$intercepts, DenseI64ArrayAttr:$class_labels,
                   Ms_MlPostTransformAttr:$post_transform);
  let results = (outs RankedTensorOf<[I64]>:$label, Ms_FloatTensor:$scores);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // MS_ML_OPS_TD
