//===- DecomposeMlPatterns.cpp - ms-decompose's ai.onnx.ml models ---------===//
//
//   post_transform: sigmoid, softmax, onnxruntime's softmax over the non-zero scores, or its
//                   probit approximation in f64.
//   linear_regressor, linear_classifier: one product by the transposed coefficients plus the
//                   intercepts; the classifier's label by argmax or onnxruntime's binary rule.
//   tree_ensemble:  every tree walked for every row at once, one level per step, no control flow:
//                     node[N, T] = roots;  repeated depth times:
//                       x    = X[n, feature[node]]               (gather + gather_elements)
//                       take = compare(x, split[node]) by mode   (<=, <, >=, >, ==, != or set
//                                                                 membership; NaN per
//                                                                 missing_value_tracks_true)
//                       node = where(take, true_next[node], false_next[node])
//                   a leaf leads to itself, so trees of any depth up to the deepest stop in place.
//                   The leaves reached index a dense table of their votes per target, aggregated
//                   over the trees; then the base values and the post transform. The tables are
//                   constants, so every target compiles the gathers, selects and reductions.
//   svm:            K = kernel(X, support vectors) [N, V]; one product by a [V, pairs] table
//                   placing each one-vs-one classifier's coefficients (in f64, as onnxruntime
//                   accumulates them), the votes as a product by a [pairs, classes] table, and
//                   with Platt's coefficients libsvm's pairwise coupling as an ms.loop.
// The numbers follow onnxruntime's kernels (tree_ensemble_aggregator.h, svmclassifier.cc,
// svmregressor.cc, ml_common.h), including its two-class rules, which the ONNX spec leaves open.
// The ops are built in the order the importer built them when it expanded these models itself
// (see Decompose.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ms;

namespace {

//===----------------------------------------------------------------------===//
// post_transform
//===----------------------------------------------------------------------===//

/// `transform` over the targets (axis 1) of `y` [N, targets], as onnxruntime computes it.
Value postTransform(OpChain &o, Value y, MlPostTransform transform) {
  Type et = tensorTypeOf(y).getElementType();
  switch (transform) {
  case MlPostTransform::none:
    return y;
  case MlPostTransform::logistic:
    return o.op<SigmoidOp>(y);
  case MlPostTransform::softmax:
    return o.op<SoftmaxOp>(y, uint64_t(1));
  case MlPostTransform::softmax_zero: {
    // Softmax over the non-zero scores; zeros (|y| <= 1e-7) stay zero (onnxruntime's definition).
    Value zero = o.scalar(et, 0.0);
    Value nonZero = o.compare(ComparePredicate::gt, o.op<AbsOp>(y), o.scalar(et, 1e-7));
    Value low = o.scalar(et, -INFINITY);
    Value top = o.reduce<ReduceMaxOp>(o.where(nonZero, y, low), {1}, true);
    Value e = o.where(nonZero, o.op<ExpOp>(o.sub(y, top)), zero);
    Value sum = o.reduce<ReduceSumOp>(e, {1}, true);
    return o.where(nonZero, o.div(e, sum), zero);
  }
  case MlPostTransform::probit: {
    // sqrt(2) * erfinv(2y - 1) with onnxruntime's ErfInv (Winitzki's approximation, a = 0.147) and
    // its constants; (0, 1) maps to the reals, others to NaN. Evaluated in f64: the formula's
    // -v + sqrt(v^2 - v2) cancels, and onnxruntime's f32 evaluation is itself up to ~3e-5 off
    // the exact value (measured), which f32 here would double.
    Type f64 = Float64Type::get(et.getContext());
    auto c = [&](double v) { return o.scalar(f64, v); };
    Value x = o.sub(o.mul(o.cast(y, f64), c(2.0)), c(1.0));
    Value sign = o.where(o.compare(ComparePredicate::lt, x, c(0.0)), c(-1.0), c(1.0));
    Value lg = o.op<LogOp>(o.mul(o.sub(c(1.0), x), o.add(c(1.0), x)));
    Value v = o.add(c(2.0f / (3.14159f * 0.147f)), o.mul(c(0.5), lg));
    Value v2 = o.mul(c(1.0f / 0.147f), lg);
    Value v3 = o.add(o.op<NegOp>(v), o.op<SqrtOp>(o.sub(o.mul(v, v), v2)));
    return o.cast(o.mul(c(1.41421356f), o.mul(sign, o.op<SqrtOp>(v3))), et);
  }
  }
  llvm_unreachable("unknown post transform");
}

struct DecomposePostTransform : OpRewritePattern<PostTransformOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PostTransformOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    rewriter.replaceOp(op, postTransform(o, op.getInput(), op.getTransform()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// linear_regressor, linear_classifier
//===----------------------------------------------------------------------===//

/// X W^T + b in f32 for rows `x` [N, F], `coefficients` [targets, F] and `intercepts` [targets]
/// (none: 0).
Value linearScores(OpChain &o, Value x, ArrayRef<double> coefficients, ArrayRef<double> intercepts,
                   int64_t targets) {
  int64_t features = tensorTypeOf(x).getDimSize(1);
  Type f32 = Float32Type::get(x.getContext());
  SmallVector<double> transposed(coefficients.size());
  for (int64_t t = 0; t < targets; ++t)
    for (int64_t f = 0; f < features; ++f)
      transposed[f * targets + t] = coefficients[t * features + f];
  Value w = o.floats({features, targets}, f32, transposed);
  Value y = o.op<MatMulOp>(x, w, TypeAttr());
  if (!intercepts.empty())
    y = o.add(y, o.floats({1, targets}, f32, intercepts));
  return y;
}

struct DecomposeLinearRegressor : OpRewritePattern<LinearRegressorOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinearRegressorOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    Value y =
        linearScores(o, op.getInput(), op.getCoefficients(), op.getIntercepts(), op.getTargets());
    rewriter.replaceOp(op, postTransform(o, y, op.getPostTransform()));
    return success();
  }
};

/// Several scores: the label of the largest (the first of equals), the scores through the post
/// transform. One score (onnxruntime's binary form): the second label where it is > 0, else the
/// first (1 and 0 without two labels); the scores (1 - s, s) with two labels, else s.
struct DecomposeLinearClassifier : OpRewritePattern<LinearClassifierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinearClassifierOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    ArrayRef<int64_t> classes = op.getClassLabels();
    int64_t targets = static_cast<int64_t>(op.getIntercepts().size());
    Value scores =
        linearScores(o, op.getInput(), op.getCoefficients(), op.getIntercepts(), targets);
    int64_t rows = tensorTypeOf(scores).getDimSize(0);
    Type i64 = IntegerType::get(op.getContext(), 64), f32 = Float32Type::get(op.getContext());
    Value label, z = scores;
    if (targets == 1) {
      bool twoLabels = classes.size() == 2;
      auto constant = [&](int64_t v) { return o.ints({}, i64, {v}); };
      Value positive =
          o.reshape(o.compare(ComparePredicate::gt, scores, o.scalar(f32, 0.0)), {rows});
      label = o.where(positive, constant(twoLabels ? classes[1] : 1),
                      constant(twoLabels ? classes[0] : 0));
      if (twoLabels) {
        Value first = o.ints({1, 2}, IntegerType::get(op.getContext(), 1), {1, 0});
        z = o.where(first, o.sub(o.scalar(f32, 1.0), scores), scores);
      }
    } else {
      Value best = o.op<ArgMaxOp>(scores, uint64_t(1), false, false);
      label = o.op<GatherOp>(o.ints({targets}, i64, classes), best, uint64_t(0));
      z = postTransform(o, scores, op.getPostTransform());
    }
    rewriter.replaceOp(op, ValueRange{label, z});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// tree_ensemble
//===----------------------------------------------------------------------===//

/// A branch's test, as ms.tree_ensemble numbers it (TreeEnsemble's nodes_modes; -1 a leaf).
enum class Mode : int64_t { leq = 0, lt = 1, gte = 2, gt = 3, eq = 4, neq = 5, member = 6, leaf = -1 };

/// The op's node table, with the votes laid out densely per (node, target).
struct Forest {
  explicit Forest(TreeEnsembleOp op)
      : feature(op.getNodesFeatureids()), trueNext(op.getNodesTruenodeids()),
        falseNext(op.getNodesFalsenodeids()), roots(op.getTreeRoots()),
        split(op.getNodesSplits()), missingTrue(op.getNodesMissingValueTracksTrue()),
        targets(op.getNTargets()) {
    for (int64_t m : op.getNodesModes())
      mode.push_back(Mode(m));
    ArrayRef<double> values = op.getMembershipValues();
    for (int64_t count : op.getMembershipSizes()) {
      members.emplace_back(values.take_front(count));
      values = values.drop_front(count);
    }
    leafWeight.assign(size() * targets, 0.0);
    leafHas.assign(size() * targets, false);
    for (auto [node, target, weight] :
         llvm::zip(op.getLeafNodeids(), op.getLeafTargetids(), op.getLeafWeights())) {
      leafWeight[node * targets + target] += weight;
      leafHas[node * targets + target] = true;
    }
  }
  int64_t size() const { return static_cast<int64_t>(mode.size()); }

  ArrayRef<int64_t> feature, trueNext, falseNext, roots;
  ArrayRef<double> split;
  ArrayRef<bool> missingTrue;
  SmallVector<Mode> mode;
  SmallVector<SmallVector<double>> members;
  int64_t targets;
  SmallVector<double> leafWeight; // [nodes][targets]
  SmallVector<bool> leafHas;      // [nodes][targets]: whether the leaf scores that target
};

/// The leaf every tree reaches for every row of `x` [N, F]: [N, T] int64.
Value walkTrees(OpChain &o, Value x, const Forest &forest, int64_t depth) {
  MLIRContext *ctx = x.getContext();
  Type i64 = IntegerType::get(ctx, 64), i1 = IntegerType::get(ctx, 1);
  Type et = tensorTypeOf(x).getElementType();
  int64_t rows = tensorTypeOf(x).getDimSize(0), trees = static_cast<int64_t>(forest.roots.size());
  int64_t size = forest.size();
  auto mask = [&](function_ref<bool(int64_t)> property) {
    SmallVector<int64_t> values;
    for (int64_t i = 0; i < size; ++i)
      values.push_back(property(i) ? 1 : 0);
    return o.ints({size}, i1, values);
  };
  Value feature = o.ints({size}, i64, forest.feature);
  Value split = o.floats({size}, et, forest.split);
  Value trueNext = o.ints({size}, i64, forest.trueNext);
  Value falseNext = o.ints({size}, i64, forest.falseNext);

  // The tests present among the branches: one comparison where they are all the same (the usual
  // case: every converter writes BRANCH_LEQ or BRANCH_LT), else the three orderings selected per
  // node.
  SmallVector<Mode> modes;
  for (Mode m : forest.mode)
    if (m != Mode::leaf && !llvm::is_contained(modes, m))
      modes.push_back(m);
  bool anyMissing = llvm::is_contained(forest.missingTrue, true);
  int64_t memberCount = 0;
  for (const auto &m : forest.members)
    memberCount = std::max<int64_t>(memberCount, m.size());
  auto predicateOf = [](Mode m) {
    switch (m) {
    case Mode::leq:
      return ComparePredicate::le;
    case Mode::lt:
      return ComparePredicate::lt;
    case Mode::gte:
      return ComparePredicate::ge;
    case Mode::gt:
      return ComparePredicate::gt;
    case Mode::eq:
      return ComparePredicate::eq;
    default:
      return ComparePredicate::ne;
    }
  };
  Value takeLt, takeEq, takeGt, isNeq, isMember, membersTable, missingTrue;
  bool uniform = modes.size() <= 1 && (modes.empty() || modes[0] != Mode::member);
  if (!uniform) {
    auto has = [&](int64_t i, std::initializer_list<Mode> which) {
      return llvm::is_contained(which, forest.mode[i]);
    };
    takeLt = mask([&](int64_t i) { return has(i, {Mode::leq, Mode::lt, Mode::neq}); });
    takeEq = mask([&](int64_t i) { return has(i, {Mode::leq, Mode::gte, Mode::eq}); });
    takeGt = mask([&](int64_t i) { return has(i, {Mode::gte, Mode::gt, Mode::neq}); });
    if (llvm::is_contained(modes, Mode::neq))
      isNeq = mask([&](int64_t i) { return forest.mode[i] == Mode::neq; });
  }
  if (memberCount > 0) {
    isMember = mask([&](int64_t i) { return forest.mode[i] == Mode::member; });
    SmallVector<double> table(size * memberCount, std::nan(""));
    for (int64_t i = 0; i < size; ++i)
      llvm::copy(forest.members[i], table.begin() + i * memberCount);
    membersTable = o.floats({size, memberCount}, et, table);
  }
  if (anyMissing)
    missingTrue = mask([&](int64_t i) { return forest.missingTrue[i]; });

  Value roots = o.ints({1, trees}, i64, forest.roots);
  Value node = o.expand(roots, {rows, trees});
  for (int64_t level = 0; level < depth; ++level) {
    Value f = o.op<GatherOp>(feature, node, uint64_t(0));
    Value value = o.op<GatherElementsOp>(x, f, uint64_t(1));
    Value threshold = o.op<GatherOp>(split, node, uint64_t(0));
    Value take;
    if (uniform) {
      take = o.compare(predicateOf(modes.empty() ? Mode::leq : modes[0]), value, threshold);
    } else {
      auto select = [&](ComparePredicate p, Value table) {
        return o.op<AndOp>(o.compare(p, value, threshold),
                           o.op<GatherOp>(table, node, uint64_t(0)));
      };
      take = o.op<OrOp>(o.op<OrOp>(select(ComparePredicate::lt, takeLt),
                                   select(ComparePredicate::eq, takeEq)),
                        select(ComparePredicate::gt, takeGt));
    }
    if (membersTable) {
      Value candidates = o.op<GatherOp>(membersTable, node, uint64_t(0)); // [N, T, L]
      Value hits =
          o.compare(ComparePredicate::eq, o.reshape(value, {rows, trees, 1}), candidates);
      Value any = o.reduce<ReduceMaxOp>(o.cast(hits, et), {2}, false);
      Value inSet = o.compare(ComparePredicate::gt, any, o.scalar(et, 0.0));
      take = o.where(o.op<GatherOp>(isMember, node, uint64_t(0)), inSet, take);
    }
    if (isNeq) // x != split holds for a NaN x (IEEE; onnxruntime), which the orderings above miss
      take = o.op<OrOp>(take, o.op<AndOp>(o.compare(ComparePredicate::ne, value, value),
                                          o.op<GatherOp>(isNeq, node, uint64_t(0))));
    if (missingTrue) {
      Value isNan = o.compare(ComparePredicate::ne, value, value);
      take = o.op<OrOp>(take,
                        o.op<AndOp>(isNan, o.op<GatherOp>(missingTrue, node, uint64_t(0))));
    }
    node = o.where(take, o.op<GatherOp>(trueNext, node, uint64_t(0)),
                   o.op<GatherOp>(falseNext, node, uint64_t(0)));
  }
  return node;
}

/// Whether each tree's leaf scores each target: [N, T, targets] i1.
Value leafScores(OpChain &o, Value leaves, const Forest &forest) {
  SmallVector<int64_t> has(forest.leafHas.begin(), forest.leafHas.end());
  Value hasTable =
      o.ints({forest.size(), forest.targets}, IntegerType::get(leaves.getContext(), 1), has);
  return o.op<GatherOp>(hasTable, leaves, uint64_t(0));
}

/// Whether some tree voted for each target in each row: [N, targets] i1.
Value votedFor(OpChain &o, Value leaves, const Forest &forest, Type et) {
  Value any = o.reduce<ReduceMaxOp>(o.cast(leafScores(o, leaves, forest), et), {1}, false);
  return o.compare(ComparePredicate::gt, any, o.scalar(et, 0.0));
}

/// The trees' leaves [N, T] scored per target and aggregated over the trees: [N, targets] in `et`.
Value aggregateLeaves(OpChain &o, Value leaves, const Forest &forest, TreeAggregate aggregate,
                      Type et) {
  int64_t size = forest.size(), targets = forest.targets;
  int64_t trees = static_cast<int64_t>(forest.roots.size());
  Value weights = o.floats({size, targets}, et, forest.leafWeight);
  Value scored = o.op<GatherOp>(weights, leaves, uint64_t(0)); // [N, T, targets]
  if (aggregate == TreeAggregate::sum || aggregate == TreeAggregate::average) {
    Value sum = o.reduce<ReduceSumOp>(scored, {1}, false);
    return aggregate == TreeAggregate::sum ? sum : o.div(sum, o.scalar(et, double(trees)));
  }
  // Min and max over the trees whose leaf scores the target; a target no tree scores is 0.
  Value scores = leafScores(o, leaves, forest);
  double far = aggregate == TreeAggregate::min ? INFINITY : -INFINITY;
  Value masked = o.where(scores, scored, o.scalar(et, far));
  Value extreme = aggregate == TreeAggregate::min ? o.reduce<ReduceMinOp>(masked, {1}, false)
                                                  : o.reduce<ReduceMaxOp>(masked, {1}, false);
  Value anyScore = o.reduce<ReduceMaxOp>(o.cast(scores, et), {1}, false);
  return o.where(o.compare(ComparePredicate::gt, anyScore, o.scalar(et, 0.0)), extreme,
                 o.scalar(et, 0.0));
}

/// The label [N] and scores [N, 2] of a two-class classifier, by onnxruntime's rules (its
/// TreeAggregatorClassifier), which differ from the many-class ones: from the summed scores
/// s0, s1 and whether some tree voted for each class in the row (h0, h1),
///  - with two base values: where h1, the pair (-(b1 + s0), b1 + s0), else (s0 + b0, 0); both
///    through the post transform;
///  - else (one base value b0, or none: b0 = 0): where h1, the pair (s0 + b0, s1) through the post
///    transform; else the one score q = s0 + b0 becomes (1 - q, q) when every vote is for one
///    class with positive weights, (sigmoid(-q), sigmoid(q)) with LOGISTIC, else (-q, q) where the
///    votes are for one class or there is no base value, else (q, 0);
///  - a class's score where no tree voted for it reads 0 (so s0 + b0 too where not h0);
///  - the label: the score of class 1 where h1, else q, compared with 0.5 (every
///    vote for one class, positive weights) or 0 (one class, mixed signs) picks between the two
///    labels; where both classes have votes it gives 1 or 0 itself, not a label.
std::pair<Value, Value> twoClassOutputs(OpChain &o, Value scores, Value scored,
                                        ArrayRef<double> base, MlPostTransform transform,
                                        bool oneVotedClass, bool allPositive,
                                        ArrayRef<int64_t> labels) {
  MLIRContext *ctx = scores.getContext();
  Type et = tensorTypeOf(scores).getElementType();
  int64_t rows = tensorTypeOf(scores).getDimSize(0);
  auto column = [&](Value v, int64_t c) { return o.slice(v, {0, c}, {rows, 1}, {1, 1}); };
  Value s0 = column(scores, 0), s1 = column(scores, 1);
  Value h0 = column(scored, 0), h1 = column(scored, 1);
  Value zero = o.scalar(et, 0.0);
  // Two [N, 1] columns side by side.
  Value first = o.ints({1, 2}, IntegerType::get(ctx, 1), {1, 0});
  auto pair = [&](Value a, Value b) { return o.where(first, a, b); };
  // onnxruntime reads the score of a class no tree voted for in the row as 0, whatever was added.
  auto read0 = [&](Value v) { return o.where(h0, v, zero); };
  Value z, positive;
  if (base.size() == 2) {
    Value a1 = o.add(s0, o.scalar(et, base[1]));
    Value b0 = read0(o.add(s0, o.scalar(et, base[0])));
    Value first0 = read0(o.where(h1, o.sub(zero, a1), b0));
    z = postTransform(o, pair(first0, o.where(h1, a1, zero)), transform);
    positive = o.where(h1, a1, b0);
  } else {
    Value q = read0(base.empty() ? s0 : o.add(s0, o.scalar(et, base[0])));
    Value both = postTransform(o, pair(q, o.where(h1, s1, zero)), transform);
    Value one;
    if (oneVotedClass && allPositive)
      one = pair(o.sub(o.scalar(et, 1.0), q), q);
    else if (oneVotedClass || base.empty())
      one = transform == MlPostTransform::logistic
                ? pair(o.op<SigmoidOp>(o.sub(zero, q)), o.op<SigmoidOp>(q))
                : pair(o.sub(zero, q), q);
    else
      one = pair(q, zero);
    z = o.where(h1, both, one);
    positive = o.where(h1, s1, q);
  }
  Value threshold = o.scalar(et, oneVotedClass && allPositive ? 0.5 : 0.0);
  Value isPositive = o.reshape(o.compare(ComparePredicate::gt, positive, threshold), {rows});
  Type i64 = IntegerType::get(ctx, 64);
  auto labelConstant = [&](int64_t v) { return o.ints({}, i64, {v}); };
  Value label = oneVotedClass
                    ? o.where(isPositive, labelConstant(labels[1]), labelConstant(labels[0]))
                    : o.where(isPositive, labelConstant(1), labelConstant(0));
  return {label, z};
}

struct DecomposeTreeEnsemble : OpRewritePattern<TreeEnsembleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TreeEnsembleOp op, PatternRewriter &rewriter) const override {
    FailureOr<int64_t> depth =
        TreeEnsembleOp::depthOf(op.getNodesModes(), op.getNodesTruenodeids(),
                                op.getNodesFalsenodeids(), op.getTreeRoots(), nullptr);
    if (failed(depth))
      return rewriter.notifyMatchFailure(op, "not a forest");
    OpChain o(rewriter, op.getLoc());
    Forest forest(op);
    Value x = op.getInput();
    Type et = tensorTypeOf(x).getElementType();
    ArrayRef<double> base = op.getBaseValues();
    MlPostTransform transform = op.getPostTransform();
    Value leaves = walkTrees(o, x, forest, *depth);
    Value scores = aggregateLeaves(o, leaves, forest, op.getAggregateFunction(), et);
    std::optional<ArrayRef<int64_t>> labels = op.getClassLabels();
    if (!labels) {
      if (!base.empty())
        scores = o.add(scores, o.floats({1, forest.targets}, et, base));
      // Of several targets, one that no tree voted for in a row is 0, its base value not added
      // (onnxruntime reads an unscored target as 0).
      if (forest.targets > 1)
        scores = o.where(votedFor(o, leaves, forest, et), scores, o.scalar(et, 0.0));
      rewriter.replaceOp(op, postTransform(o, scores, transform));
      return success();
    }
    int64_t classes = forest.targets;
    if (classes == 2) {
      ArrayRef<int64_t> votes = op.getLeafTargetids();
      bool oneVotedClass = llvm::all_equal(votes);
      bool allPositive = llvm::all_of(op.getLeafWeights(), [](double w) { return w >= 0; });
      auto [label, z] = twoClassOutputs(o, scores, votedFor(o, leaves, forest, et), base,
                                        transform, oneVotedClass, allPositive, *labels);
      rewriter.replaceOp(op, ValueRange{z, label});
      return success();
    }
    Value pick = scores;
    if (!base.empty()) {
      scores = o.add(scores, o.floats({1, classes}, et, base));
      pick = scores; // every class is scored by its base value
    } else {
      pick = o.where(votedFor(o, leaves, forest, et), scores, o.scalar(et, -INFINITY));
    }
    Value best = o.op<ArgMaxOp>(pick, uint64_t(1), false, false); // [N]
    Type i64 = rewriter.getI64Type();
    Value label = o.op<GatherOp>(o.ints({classes}, i64, *labels), best, uint64_t(0));
    rewriter.replaceOp(op, ValueRange{postTransform(o, scores, transform), label});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// svm
//===----------------------------------------------------------------------===//

/// Elements up to which RBF's squared distances are summed from the differences themselves
/// ([N, V, F] at once); past it they come from |x|^2 + |s|^2 - 2 x.s, which costs no
/// intermediate but loses digits where x is close to a support vector.
constexpr int64_t kDirectDistanceElements = int64_t(1) << 24;

/// The kernel of every row of `x` [N, F] with every support vector of `vectors` ([V, F] row
/// major): [N, V] in f32.
Value kernelValues(OpChain &o, SvmOp op, Value x, ArrayRef<double> vectors, int64_t count) {
  Type f32 = Float32Type::get(x.getContext());
  SvmKernel kind = op.getKernelType();
  double gamma = op.getKernelParams()[0], coef0 = op.getKernelParams()[1],
         degree = op.getKernelParams()[2];
  int64_t rows = tensorTypeOf(x).getDimSize(0), features = tensorTypeOf(x).getDimSize(1);
  if (kind == SvmKernel::rbf && rows * count * features <= kDirectDistanceElements) {
    Value s = o.floats({1, count, features}, f32, vectors);
    Value d = o.sub(o.reshape(x, {rows, 1, features}), s);
    Value squared = o.reduce<ReduceSumOp>(o.mul(d, d), {2}, false);
    return o.op<ExpOp>(o.mul(squared, o.scalar(f32, -gamma)));
  }
  SmallVector<double> transposed(vectors.size());
  for (int64_t v = 0; v < count; ++v)
    for (int64_t f = 0; f < features; ++f)
      transposed[f * count + v] = vectors[v * features + f];
  Value dot = o.op<MatMulOp>(x, o.floats({features, count}, f32, transposed), TypeAttr());
  switch (kind) {
  case SvmKernel::linear:
    return dot;
  case SvmKernel::rbf: {
    SmallVector<double> norms(count, 0.0);
    for (int64_t v = 0; v < count; ++v)
      for (int64_t f = 0; f < features; ++f)
        norms[v] += vectors[v * features + f] * vectors[v * features + f];
    Value xx = o.reduce<ReduceSumOp>(o.mul(x, x), {1}, true);
    Value ss = o.floats({1, count}, f32, norms);
    Value squared = o.sub(o.add(xx, ss), o.mul(dot, o.scalar(f32, 2.0)));
    squared = o.op<MaxOp>(squared, o.scalar(f32, 0.0));
    return o.op<ExpOp>(o.mul(squared, o.scalar(f32, -gamma)));
  }
  case SvmKernel::poly:
  case SvmKernel::sigmoid:
    break;
  }
  Value t = o.add(o.mul(dot, o.scalar(f32, gamma)), o.scalar(f32, coef0));
  if (kind == SvmKernel::sigmoid)
    return o.op<TanhOp>(t);
  if (degree == 2.0)
    return o.mul(t, t);
  if (degree == 3.0)
    return o.mul(o.mul(t, t), t);
  return o.op<PowOp>(t, o.scalar(f32, degree));
}

/// `values` [rows, cols] as an f32 constant.
Value table(OpChain &o, int64_t rows, int64_t cols, ArrayRef<double> values) {
  return o.floats({rows, cols}, Float32Type::get(o.context()), values);
}

/// libsvm's pairwise coupling of `pairwise` [N, k, k] (r[i][j]: the probability of i against j;
/// zero diagonal) into class probabilities [N, k], as onnxruntime's multiclass_probability does
/// it in f32: p = 1/k; Q[t][t] = sum_j r[j][t]^2, Q[t][j] = -r[j][t] r[t][j]; then up to 100
/// sweeps, each stopping a row once max_t |(Qp)_t - pQp| < 0.005 / k and otherwise updating p_t
/// for t = 0..k-1 in turn (Gauss-Seidel) and renormalizing. The sweeps are an ms.loop whose
/// carried values are p and a per-row "converged" flag; it ends once every row converged.
Value coupleProbabilities(OpChain &o, PatternRewriter &rewriter, Location loc, Value pairwise,
                          int64_t classes) {
  Type f32 = rewriter.getF32Type(), i1 = rewriter.getI1Type(), i64 = rewriter.getI64Type();
  int64_t rows = tensorTypeOf(pairwise).getDimSize(0);
  auto c = [&](double v) { return o.scalar(f32, v); };
  Value squares = o.reduce<ReduceSumOp>(o.mul(pairwise, pairwise), {1}, false); // [N, k]
  SmallVector<double> eye(classes * classes, 0.0);
  for (int64_t t = 0; t < classes; ++t)
    eye[t * classes + t] = 1.0;
  Value q = o.sub(o.mul(o.reshape(squares, {rows, classes, 1}),
                        o.floats({1, classes, classes}, f32, eye)),
                  o.mul(o.transpose(pairwise, {0, 2, 1}), pairwise));
  Value p0 = o.splat({rows, classes}, f32, 1.0 / double(classes));
  Value done0 = o.splat({rows, 1}, i1, 0.0);
  Value trips = o.ints({}, i64, {100});
  Value go = o.splat({}, i1, 1.0);

  SmallVector<Type> carried = {p0.getType(), done0.getType()};
  auto loop = LoopOp::create(rewriter, loc, carried, trips, go, ValueRange{p0, done0});
  Block *body = new Block();
  loop.getBody().push_back(body);
  body->addArgument(trips.getType(), loc);
  body->addArgument(go.getType(), loc);
  Value p = body->addArgument(p0.getType(), loc);
  Value done = body->addArgument(done0.getType(), loc);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(body);
  // Qp and pQp afresh ("for numerical accuracy"), then the stopping test.
  auto matVec = [&](Value v) {
    return o.reduce<ReduceSumOp>(o.mul(q, o.reshape(v, {rows, 1, classes})), {2}, false);
  };
  Value qp = matVec(p);
  Value pqp = o.reduce<ReduceSumOp>(o.mul(p, qp), {1}, true);
  Value error = o.reduce<ReduceMaxOp>(o.op<AbsOp>(o.sub(qp, pqp)), {1}, true);
  Value converged = o.compare(ComparePredicate::lt, error, c(0.005 / double(classes)));
  Value stop = o.op<OrOp>(done, converged);
  Value next = p;
  for (int64_t t = 0; t < classes; ++t) {
    Value qt = o.slice(q, {0, t, 0}, {rows, 1, classes}, {1, 1, 1}); // [N, 1, k]
    Value qtt = o.reshape(o.slice(qt, {0, 0, t}, {rows, 1, 1}, {1, 1, 1}), {rows, 1});
    Value qpt = o.slice(qp, {0, t}, {rows, 1}, {1, 1});
    Value diff = o.div(o.sub(pqp, qpt), qtt);
    SmallVector<double> unit(classes, 0.0);
    unit[t] = 1.0;
    next = o.add(next, o.mul(diff, o.floats({1, classes}, f32, unit)));
    Value scale = o.add(c(1.0), diff);
    pqp = o.div(o.div(o.add(pqp, o.mul(diff, o.add(o.mul(diff, qtt), o.mul(c(2.0), qpt)))), scale),
                scale);
    qp = o.div(o.add(qp, o.mul(diff, o.reshape(qt, {rows, classes}))), scale);
    next = o.div(next, scale);
  }
  next = o.where(stop, p, next);
  // Go on while any row has not converged.
  Value pending = o.reduce<ReduceMaxOp>(o.cast(o.op<NotOp>(stop), f32), {0, 1}, false);
  Value again = o.compare(ComparePredicate::gt, pending, c(0.0));
  RegionYieldOp::create(rewriter, loc, ValueRange{again, next, stop});
  return loop.getResult(0);
}

/// The regressor: K(X, SV) @ coefficients + rho[0], one_class as +-1.
Value svmRegression(OpChain &o, SvmOp op) {
  Value x = op.getInput();
  Type f32 = Float32Type::get(x.getContext());
  int64_t supports = op.getVectorsPerClass()[0];
  Value k = kernelValues(o, op, x, op.getSupportVectors(), supports);
  Value y = o.op<MatMulOp>(k, table(o, supports, 1, op.getCoefficients()), TypeAttr());
  y = o.add(y, o.scalar(f32, op.getRho()[0]));
  if (op.getOneClass())
    y = o.where(o.compare(ComparePredicate::gt, y, o.scalar(f32, 0.0)), o.scalar(f32, 1.0),
                o.scalar(f32, -1.0));
  return y;
}

/// The classifier (libsvm's SVC): one score per pair of classes (i < j, in that order), a vote for
/// i where it is > 0 and for j otherwise, the label of the most voted class (the first of
/// equals); scores are the pairs' (two classes: (-s, s) without a transform, (1 - s, s) with one,
/// as onnxruntime writes them), or with prob_a / prob_b the coupled class probabilities; then the
/// post transform. Returns (scores, label).
std::pair<Value, Value> svmClassification(OpChain &o, PatternRewriter &rewriter, SvmOp op) {
  Value x = op.getInput();
  ArrayRef<int64_t> labels = *op.getClassLabels(), counts = op.getVectorsPerClass();
  ArrayRef<double> coefficients = op.getCoefficients(), a = op.getProbA(), b = op.getProbB();
  MlPostTransform transform = op.getPostTransform();
  int64_t rows = tensorTypeOf(x).getDimSize(0);
  int64_t classes = static_cast<int64_t>(labels.size()), pairs = classes * (classes - 1) / 2;
  int64_t supports = 0;
  for (int64_t v : counts)
    supports += v;
  Type f32 = rewriter.getF32Type(), i64 = rewriter.getI64Type(), f64 = rewriter.getF64Type();
  Value classTable = o.ints({classes}, i64, labels);
  // W [V, pairs]: pair (i, j) reads class i's vectors with coefficient row j - 1 and class j's
  // with row i (libsvm's layout); D [pairs, k] and base: the votes.
  SmallVector<int64_t> start(classes, 0);
  for (int64_t k = 1; k < classes; ++k)
    start[k] = start[k - 1] + counts[k - 1];
  SmallVector<double> w(supports * pairs, 0.0), d(pairs * classes, 0.0), base(classes, 0.0);
  SmallVector<double> upper(a.empty() ? 0 : pairs * classes * classes, 0.0),
      lower(upper.size(), 0.0);
  int64_t pair = 0;
  for (int64_t i = 0; i < classes; ++i) {
    for (int64_t j = i + 1; j < classes; ++j, ++pair) {
      for (int64_t v = 0; v < counts[i]; ++v)
        w[(start[i] + v) * pairs + pair] = coefficients[(j - 1) * supports + start[i] + v];
      for (int64_t v = 0; v < counts[j]; ++v)
        w[(start[j] + v) * pairs + pair] = coefficients[i * supports + start[j] + v];
      d[pair * classes + i] = 1.0;
      d[pair * classes + j] = -1.0;
      base[j] += 1.0;
      if (!upper.empty()) {
        upper[pair * classes * classes + i * classes + j] = 1.0;
        lower[pair * classes * classes + j * classes + i] = 1.0;
      }
    }
  }
  // The pairs' sums in f64, as onnxruntime accumulates them: they cancel (coefficients of both
  // signs over hundreds of vectors), and the coupled probabilities amplify their error ~5x.
  Value k = o.cast(kernelValues(o, op, x, op.getSupportVectors(), supports), f64);
  Value pairSums = o.op<MatMulOp>(k, o.floats({supports, pairs}, f64, w), TypeAttr());
  SmallVector<double> rhoF32;
  for (double r : op.getRho().take_front(pairs))
    rhoF32.push_back(static_cast<float>(r));
  Value scores = o.cast(o.add(pairSums, o.floats({1, pairs}, f64, rhoF32)), f32);
  Value positive = o.cast(o.compare(ComparePredicate::gt, scores, o.scalar(f32, 0.0)), f32);
  Value votes = o.add(o.op<MatMulOp>(positive, table(o, pairs, classes, d), TypeAttr()),
                      table(o, 1, classes, base));
  Value label =
      o.op<GatherOp>(classTable, o.op<ArgMaxOp>(votes, uint64_t(1), false, false), uint64_t(0));
  if (!a.empty()) {
    // Platt's sigmoid per pair, 1 - logistic(s a + b), kept in [1e-7, 1 - 1e-7]; r[i][j] takes
    // it and r[j][i] its complement.
    Value sa = o.add(o.mul(scores, table(o, 1, pairs, a.take_front(pairs))),
                     table(o, 1, pairs, b.take_front(pairs)));
    Value r = o.op<SigmoidOp>(o.op<NegOp>(sa));
    r = o.op<MinOp>(o.op<MaxOp>(r, o.scalar(f32, 1e-7)), o.scalar(f32, 1.0f - 1e-7f));
    Value pairwise =
        o.add(o.op<MatMulOp>(r, table(o, pairs, classes * classes, upper), TypeAttr()),
              o.op<MatMulOp>(o.sub(o.scalar(f32, 1.0), r),
                             table(o, pairs, classes * classes, lower), TypeAttr()));
    Value p = coupleProbabilities(o, rewriter, op.getLoc(),
                                  o.reshape(pairwise, {rows, classes, classes}), classes);
    return {postTransform(o, p, transform), label};
  }
  if (classes == 2) {
    // One score s: (-s, s) without a transform, else (1 - s, s) untransformed (onnxruntime).
    Value first = o.ints({1, 2}, rewriter.getI1Type(), {1, 0});
    Value other = transform == MlPostTransform::none ? o.op<NegOp>(scores)
                                                     : o.sub(o.scalar(f32, 1.0), scores);
    return {o.where(first, other, scores), label};
  }
  return {postTransform(o, scores, transform), label};
}

struct DecomposeSvm : OpRewritePattern<SvmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SvmOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    if (!op.getClassLabels()) {
      rewriter.replaceOp(op, svmRegression(o, op));
      return success();
    }
    auto [scores, label] = svmClassification(o, rewriter, op);
    rewriter.replaceOp(op, ValueRange{scores, label});
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeMlPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposePostTransform, DecomposeLinearRegressor, DecomposeLinearClassifier,
               DecomposeTreeEnsemble, DecomposeSvm>(patterns.getContext());
}
