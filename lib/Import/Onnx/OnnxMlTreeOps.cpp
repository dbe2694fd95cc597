//===- OnnxMlTreeOps.cpp - tree ensembles (ai.onnx.ml) ----------------------===//
//
// TreeEnsembleRegressor (ai.onnx.ml 1 and 3) and TreeEnsemble (ai.onnx.ml 5), the ops
// scikit-learn's, LightGBM's and XGBoost's converters emit for forests and boosted trees. Every
// tree of the ensemble is walked for every row at once, one level per step, with no control flow:
//
//   node[N, T] = roots;  repeated depth times:
//     x    = X[n, feature[node]]                 (gather + gather_elements)
//     take = compare(x, split[node]) by mode     (<=, <, >=, >, ==, != or set membership; NaN per
//                                                 missing_value_tracks_true)
//     node = where(take, true_next[node], false_next[node])
//
// over one node table holding the branches and the leaves (a leaf leads to itself, so trees of any
// depth up to the deepest stop in place). The leaves reached index a dense table of their weights
// per target, [nodes, targets], and the trees are aggregated (sum, average, min, max) along their
// axis; then the base values and the post transform. The tables are constants, so the graph is
// ordinary gathers, comparisons, selects and reductions that every target compiles.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"
#include "OnnxMlOps.h"

#include "llvm/ADT/DenseMap.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;
using mlir::mie::onnx_import::ml::postTransform;

namespace {

/// A branch's test, as ONNX numbers it (TreeEnsemble's nodes_modes; the regressor's strings map
/// here).
enum class Mode : int64_t {
  leq = 0,
  lt = 1,
  gte = 2,
  gt = 3,
  eq = 4,
  neq = 5,
  member = 6,
  leaf = -1
};

enum class Aggregate { sum, average, min, max };

/// The limit on the node table times the targets (the dense leaf table), and on the depth walked.
constexpr int64_t kMaxTableElements = int64_t(1) << 26;
/// The deepest tree walked: each level is a handful of ops in the graph.
constexpr int64_t kMaxDepth = 4096;

/// One ensemble as a node table. Branch nodes and leaves share the index space; a leaf's next
/// nodes are itself.
struct Forest {
  SmallVector<int64_t> feature, trueNext, falseNext;
  SmallVector<double> split;
  SmallVector<Mode> mode;
  SmallVector<bool> missingTrue;
  SmallVector<SmallVector<double>> members; // per node; MEMBER nodes only
  SmallVector<int64_t> roots;
  int64_t targets = 1;
  SmallVector<double> leafWeight; // [nodes][targets]
  SmallVector<bool> leafHas;      // [nodes][targets]: whether the leaf scores that target

  int64_t size() const { return static_cast<int64_t>(mode.size()); }
  void addNode(Mode m, int64_t f, double s, bool missing) {
    mode.push_back(m);
    feature.push_back(f);
    split.push_back(s);
    missingTrue.push_back(missing);
    members.emplace_back();
    trueNext.push_back(size() - 1);
    falseNext.push_back(size() - 1);
  }
};

/// The longest path from a root to a leaf, or failure where a path loops or runs past the table.
FailureOr<int64_t> forestDepth(NodeImporter &n, const Forest &forest) {
  SmallVector<int64_t> depth(forest.size(), -1); // -2: on the current path
  int64_t deepest = 0;
  for (int64_t root : forest.roots) {
    // Iterative depth-first walk: (node, next child to visit).
    SmallVector<std::pair<int64_t, int>> stack{{root, 0}};
    depth[root] = -2;
    while (!stack.empty()) {
      auto &[node, child] = stack.back();
      if (forest.mode[node] == Mode::leaf || child == 2) {
        int64_t d = 0;
        if (forest.mode[node] != Mode::leaf)
          d = 1 + std::max(depth[forest.trueNext[node]], depth[forest.falseNext[node]]);
        depth[node] = d;
        deepest = std::max(deepest, d);
        stack.pop_back();
        continue;
      }
      int64_t next = child == 0 ? forest.trueNext[node] : forest.falseNext[node];
      ++child;
      if (depth[next] == -2) {
        n.error() << "its trees are not trees: node " << next << " is reached again below itself";
        return failure();
      }
      if (depth[next] == -1) {
        depth[next] = -2;
        stack.push_back({next, 0});
      }
    }
  }
  return deepest;
}

Value intConstant(Ops &o, ArrayRef<int64_t> shape, ArrayRef<int64_t> values, Type type) {
  return o.constant(KnownTensor::fromInts(shape, type, values));
}

Value floatConstant(Ops &o, ArrayRef<int64_t> shape, ArrayRef<double> values, Type type) {
  return o.constant(KnownTensor::fromFloats(shape, type, values));
}

/// The leaf every tree reaches for every row of `x` [N, F] (element type `et`): [N, T] int64.
Value walkTrees(NodeImporter &n, Ops &o, Value x, const Forest &forest, int64_t depth) {
  MLIRContext *ctx = n.context();
  Type i64 = IntegerType::get(ctx, 64), i1 = IntegerType::get(ctx, 1);
  Type et = typeOf(x).getElementType();
  int64_t rows = typeOf(x).getDimSize(0), trees = static_cast<int64_t>(forest.roots.size());
  int64_t size = forest.size();
  auto mask = [&](function_ref<bool(int64_t)> property) {
    SmallVector<int64_t> values;
    for (int64_t i = 0; i < size; ++i)
      values.push_back(property(i) ? 1 : 0);
    return intConstant(o, {size}, values, i1);
  };
  Value feature = intConstant(o, {size}, forest.feature, i64);
  Value split = floatConstant(o, {size}, forest.split, et);
  Value trueNext = intConstant(o, {size}, forest.trueNext, i64);
  Value falseNext = intConstant(o, {size}, forest.falseNext, i64);

  // The tests present among the branches: one comparison where they are all the same (the usual
  // case: every converter writes BRANCH_LEQ or BRANCH_LT), else the three orderings selected per
  // node.
  SmallVector<Mode> modes;
  for (Mode m : forest.mode)
    if (m != Mode::leaf && !llvm::is_contained(modes, m))
      modes.push_back(m);
  bool anyMissing = llvm::any_of(forest.missingTrue, [](bool b) { return b; });
  int64_t memberCount = 0;
  for (const auto &m : forest.members)
    memberCount = std::max<int64_t>(memberCount, m.size());
  auto predicateOf = [](Mode m) {
    switch (m) {
    case Mode::leq:
      return ms::ComparePredicate::le;
    case Mode::lt:
      return ms::ComparePredicate::lt;
    case Mode::gte:
      return ms::ComparePredicate::ge;
    case Mode::gt:
      return ms::ComparePredicate::gt;
    case Mode::eq:
      return ms::ComparePredicate::eq;
    default:
      return ms::ComparePredicate::ne;
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
    membersTable = floatConstant(o, {size, memberCount}, table, et);
  }
  if (anyMissing)
    missingTrue = mask([&](int64_t i) { return forest.missingTrue[i]; });

  Value roots = intConstant(o, {1, trees}, forest.roots, i64);
  Value node = o.expand(roots, {rows, trees});
  for (int64_t level = 0; level < depth; ++level) {
    Value f = o.op<ms::GatherOp>(feature, node, uint64_t(0));
    Value value = o.op<ms::GatherElementsOp>(x, f, uint64_t(1));
    Value threshold = o.op<ms::GatherOp>(split, node, uint64_t(0));
    Value take;
    if (uniform) {
      take = o.compare(predicateOf(modes.empty() ? Mode::leq : modes[0]), value, threshold);
    } else {
      auto select = [&](ms::ComparePredicate p, Value table) {
        return o.op<ms::AndOp>(o.compare(p, value, threshold),
                               o.op<ms::GatherOp>(table, node, uint64_t(0)));
      };
      take = o.op<ms::OrOp>(o.op<ms::OrOp>(select(ms::ComparePredicate::lt, takeLt),
                                           select(ms::ComparePredicate::eq, takeEq)),
                            select(ms::ComparePredicate::gt, takeGt));
    }
    if (membersTable) {
      Value candidates = o.op<ms::GatherOp>(membersTable, node, uint64_t(0)); // [N, T, L]
      Value hits =
          o.compare(ms::ComparePredicate::eq, o.reshape(value, {rows, trees, 1}), candidates);
      Value any = o.reduce<ms::ReduceMaxOp>(o.cast(hits, et), {2}, false);
      Value inSet = o.compare(ms::ComparePredicate::gt, any, o.scalar(et, 0.0));
      take = o.where(o.op<ms::GatherOp>(isMember, node, uint64_t(0)), inSet, take);
    }
    if (isNeq) // x != split holds for a NaN x (IEEE; onnxruntime), which the orderings above miss
      take = o.op<ms::OrOp>(take, o.op<ms::AndOp>(o.compare(ms::ComparePredicate::ne, value, value),
                                                  o.op<ms::GatherOp>(isNeq, node, uint64_t(0))));
    if (missingTrue) {
      Value isNan = o.compare(ms::ComparePredicate::ne, value, value);
      take = o.op<ms::OrOp>(
          take, o.op<ms::AndOp>(isNan, o.op<ms::GatherOp>(missingTrue, node, uint64_t(0))));
    }
    node = o.where(take, o.op<ms::GatherOp>(trueNext, node, uint64_t(0)),
                   o.op<ms::GatherOp>(falseNext, node, uint64_t(0)));
  }
  return node;
}

/// Whether each tree's leaf scores each target: [N, T, targets] i1.
Value leafScores(NodeImporter &n, Ops &o, Value leaves, const Forest &forest) {
  SmallVector<int64_t> has(forest.leafHas.begin(), forest.leafHas.end());
  Value hasTable =
      intConstant(o, {forest.size(), forest.targets}, has, IntegerType::get(n.context(), 1));
  return o.op<ms::GatherOp>(hasTable, leaves, uint64_t(0));
}

/// Whether some tree voted for each target in each row: [N, targets] i1.
Value votedFor(NodeImporter &n, Ops &o, Value leaves, const Forest &forest, Type et) {
  Value any = o.reduce<ms::ReduceMaxOp>(o.cast(leafScores(n, o, leaves, forest), et), {1}, false);
  return o.compare(ms::ComparePredicate::gt, any, o.scalar(et, 0.0));
}

/// The trees' leaves [N, T] scored per target and aggregated over the trees: [N, targets] in `et`.
Value aggregateLeaves(NodeImporter &n, Ops &o, Value leaves, const Forest &forest,
                      Aggregate aggregate, Type et) {
  int64_t size = forest.size(), targets = forest.targets;
  int64_t trees = static_cast<int64_t>(forest.roots.size());
  Value weights = floatConstant(o, {size, targets}, forest.leafWeight, et);
  Value scored = o.op<ms::GatherOp>(weights, leaves, uint64_t(0)); // [N, T, targets]
  if (aggregate == Aggregate::sum || aggregate == Aggregate::average) {
    Value sum = o.reduce<ms::ReduceSumOp>(scored, {1}, false);
    return aggregate == Aggregate::sum ? sum : o.div(sum, o.scalar(et, double(trees)));
  }
  // Min and max over the trees whose leaf scores the target; a target no tree scores is 0.
  Value scores = leafScores(n, o, leaves, forest);
  double far = aggregate == Aggregate::min ? INFINITY : -INFINITY;
  Value masked = o.where(scores, scored, o.scalar(et, far));
  Value extreme = aggregate == Aggregate::min ? o.reduce<ms::ReduceMinOp>(masked, {1}, false)
                                              : o.reduce<ms::ReduceMaxOp>(masked, {1}, false);
  Value anyScore = o.reduce<ms::ReduceMaxOp>(o.cast(scores, et), {1}, false);
  return o.where(o.compare(ms::ComparePredicate::gt, anyScore, o.scalar(et, 0.0)), extreme,
                 o.scalar(et, 0.0));
}

/// X as a rank-2 tensor in a float type the tables use: f32 for integer inputs.
FailureOr<Value> featureMatrix(NodeImporter &n, Ops &o) {
  RankedTensorType xType = n.inputType(0);
  Type et = xType.getElementType();
  if (!xType.hasStaticShape() || xType.getRank() > 2 || xType.getRank() < 1) {
    n.unsupportedFeature() << "expects X of static shape [N, F] or [F], got " << xType;
    return failure();
  }
  if (!isa<FloatType>(et) && !(isa<IntegerType>(et) && !et.isInteger(1))) {
    n.error() << "expects a numeric X, got " << xType;
    return failure();
  }
  Value x = o.in(0);
  if (xType.getRank() == 1)
    x = o.reshape(x, {1, xType.getDimSize(0)});
  if (isa<IntegerType>(et))
    x = o.cast(x, Float32Type::get(n.context()));
  return x;
}

/// Checks that there are trees and that every branch tests a column of X.
LogicalResult checkForest(NodeImporter &n, const Forest &forest, int64_t features) {
  if (forest.roots.empty())
    return n.error() << "has no trees";
  for (int64_t i = 0; i < forest.size(); ++i)
    if (forest.mode[i] != Mode::leaf && (forest.feature[i] < 0 || forest.feature[i] >= features))
      return n.error() << "node " << i << " tests feature " << forest.feature[i] << " of X's "
                       << features;
  return success();
}

/// Walks `forest` for the rows of `x` and aggregates the leaves reached: (leaves [N, T], scores
/// [N, targets] in X's float type).
FailureOr<std::pair<Value, Value>> scoreForest(NodeImporter &n, Ops &o, Value x, Forest &forest,
                                               Aggregate aggregate) {
  if (failed(checkForest(n, forest, typeOf(x).getDimSize(1))))
    return failure();
  FailureOr<int64_t> depth = forestDepth(n, forest);
  if (failed(depth))
    return failure();
  if (*depth > kMaxDepth)
    return n.unsupportedFeature() << "has a tree " << *depth << " levels deep; at most "
                                  << kMaxDepth << " are supported",
           failure();
  Value leaves = walkTrees(n, o, x, forest, *depth);
  return std::pair{leaves,
                   aggregateLeaves(n, o, leaves, forest, aggregate, typeOf(x).getElementType())};
}

/// Builds the ensemble's output [N, targets] from a complete forest: scores, base values, post
/// transform, in `resultType`.
LogicalResult finishForest(NodeImporter &n, Ops &o, Value x, Forest &forest, Aggregate aggregate,
                           ArrayRef<double> base, StringRef transform, Type resultType) {
  FailureOr<std::pair<Value, Value>> scored = scoreForest(n, o, x, forest, aggregate);
  if (failed(scored))
    return failure();
  Value y = scored->second;
  Type et = typeOf(x).getElementType();
  if (!base.empty()) {
    if (static_cast<int64_t>(base.size()) != forest.targets)
      return n.error() << "has " << base.size() << " base values for " << forest.targets
                       << " targets";
    y = o.add(y, floatConstant(o, {1, forest.targets}, base, et));
  }
  // Of several targets, one that no tree voted for in a row is 0, its base value not added
  // (onnxruntime reads an unscored target as 0).
  if (forest.targets > 1)
    y = o.where(votedFor(n, o, scored->first, forest, et), y, o.scalar(et, 0.0));
  // One target: onnxruntime applies PROBIT only (its FinalizeScores1), as for LinearRegressor.
  if (forest.targets == 1 && transform != "PROBIT")
    return finish(n, o, o.cast(y, resultType));
  FailureOr<Value> out = postTransform(n, o, y, transform);
  if (failed(out))
    return failure();
  return finish(n, o, o.cast(*out, resultType));
}

/// A tensor attribute's values as doubles; nullopt where it is absent or unreadable.
std::optional<SmallVector<double>> tensorValues(NodeImporter &n, StringRef name) {
  if (!n.hasAttr(name))
    return std::nullopt;
  OnnxTensor *tensor = n.getTensor(name);
  if (!tensor)
    return std::nullopt;
  KnownTensor known = knownFromBytes(tensor->type, tensor->blob.getData());
  SmallVector<double> values;
  for (int64_t i = 0; i < known.numElements(); ++i)
    values.push_back(known.valueAt(i));
  return values;
}

/// An attribute given either as a list of floats or as a tensor (`name` + "_as_tensor").
std::optional<SmallVector<double>> floatsOrTensor(NodeImporter &n, StringRef name) {
  if (n.hasAttr(name))
    return n.getFloats(name);
  return tensorValues(n, (name + "_as_tensor").str());
}

/// A list-of-strings attribute (empty when absent).
SmallVector<std::string> getStrings(NodeImporter &n, StringRef name) {
  auto it = n.node().attributes.find(name);
  if (it == n.node().attributes.end())
    return {};
  return SmallVector<std::string>(it->second.strings.begin(), it->second.strings.end());
}

FailureOr<Aggregate> aggregateNamed(NodeImporter &n, StringRef name) {
  if (name == "SUM")
    return Aggregate::sum;
  if (name == "AVERAGE")
    return Aggregate::average;
  if (name == "MIN")
    return Aggregate::min;
  if (name == "MAX")
    return Aggregate::max;
  n.error() << "has an unknown aggregate_function '" << name << "'";
  return failure();
}

/// The forest of TreeEnsembleRegressor and TreeEnsembleClassifier (ai.onnx.ml 1 and 3): nodes named
/// by (tree id, node id), leaves by mode LEAF, the leaves' votes listed per (tree id, node id) in
/// the `votes`_treeids / _nodeids / _ids / _weights attributes ("target" or "class").
FailureOr<Forest> readListedNodes(NodeImporter &n, StringRef votes, int64_t targets) {
  std::string prefix = votes.str() + "_";
  auto treeIds = n.getInts("nodes_treeids"), nodeIds = n.getInts("nodes_nodeids"),
       featureIds = n.getInts("nodes_featureids"), trueIds = n.getInts("nodes_truenodeids"),
       falseIds = n.getInts("nodes_falsenodeids"),
       missing = n.getInts("nodes_missing_value_tracks_true"),
       targetTrees = n.getInts(prefix + "treeids"), targetNodes = n.getInts(prefix + "nodeids"),
       targetIds = n.getInts(prefix + "ids");
  auto values = floatsOrTensor(n, "nodes_values"), weights = floatsOrTensor(n, prefix + "weights");
  SmallVector<std::string> modes = getStrings(n, "nodes_modes");
  if (n.hasFailed())
    return failure();
  if (!treeIds || !nodeIds || !featureIds || !trueIds || !falseIds || !values || modes.empty() ||
      !targetTrees || !targetNodes || !targetIds || !weights)
    return n.error() << "needs the nodes_* and " << prefix << "* attributes", failure();
  size_t count = treeIds->size();
  if (nodeIds->size() != count || featureIds->size() != count || trueIds->size() != count ||
      falseIds->size() != count || values->size() != count || modes.size() != count ||
      (missing && !missing->empty() && missing->size() != count))
    return n.error() << "has nodes_* attributes of different lengths", failure();
  if (targetNodes->size() != targetTrees->size() || targetIds->size() != targetTrees->size() ||
      weights->size() != targetTrees->size())
    return n.error() << "has " << prefix << "* attributes of different lengths", failure();
  if (targets < 1 || targets > kMaxTableElements)
    return n.error() << "has " << targets << " targets", failure();

  Forest forest;
  forest.targets = targets;
  llvm::DenseMap<std::pair<int64_t, int64_t>, int64_t> index;
  for (size_t i = 0; i < count; ++i) {
    static const std::pair<const char *, Mode> names[] = {
        {"BRANCH_LEQ", Mode::leq}, {"BRANCH_LT", Mode::lt}, {"BRANCH_GTE", Mode::gte},
        {"BRANCH_GT", Mode::gt},   {"BRANCH_EQ", Mode::eq}, {"BRANCH_NEQ", Mode::neq},
        {"LEAF", Mode::leaf}};
    const auto *found = llvm::find_if(names, [&](const auto &p) { return modes[i] == p.first; });
    if (found == std::end(names))
      return n.error() << "node " << i << " has an unknown mode '" << modes[i] << "'", failure();
    if (!index.try_emplace({(*treeIds)[i], (*nodeIds)[i]}, static_cast<int64_t>(i)).second)
      return n.error() << "has node " << (*nodeIds)[i] << " of tree " << (*treeIds)[i] << " twice",
             failure();
    forest.addNode(found->second, (*featureIds)[i], (*values)[i],
                   missing && !missing->empty() && (*missing)[i]);
  }
  // Children by (tree, node id); a tree's root is its node no other node leads to.
  SmallVector<bool> isChild(count, false);
  for (size_t i = 0; i < count; ++i) {
    if (forest.mode[i] == Mode::leaf)
      continue;
    for (auto [ids, next] :
         {std::pair{&*trueIds, &forest.trueNext}, std::pair{&*falseIds, &forest.falseNext}}) {
      auto it = index.find({(*treeIds)[i], (*ids)[i]});
      if (it == index.end())
        return n.error() << "node " << (*nodeIds)[i] << " of tree " << (*treeIds)[i]
                         << " leads to node " << (*ids)[i] << ", which the tree does not have",
               failure();
      (*next)[i] = it->second;
      isChild[it->second] = true;
    }
  }
  SmallVector<int64_t> seenTrees;
  for (size_t i = 0; i < count; ++i) {
    if (isChild[i])
      continue;
    if (llvm::is_contained(seenTrees, (*treeIds)[i]))
      return n.error() << "tree " << (*treeIds)[i] << " has more than one root", failure();
    seenTrees.push_back((*treeIds)[i]);
    forest.roots.push_back(static_cast<int64_t>(i));
  }
  if (composite::product({static_cast<int64_t>(count), targets}) > kMaxTableElements)
    return n.unsupportedFeature() << "has " << count << " nodes x " << targets
                                  << " targets; at most " << kMaxTableElements << " are supported",
           failure();
  forest.leafWeight.assign(count * targets, 0.0);
  forest.leafHas.assign(count * targets, false);
  for (size_t t = 0; t < targetTrees->size(); ++t) {
    auto it = index.find({(*targetTrees)[t], (*targetNodes)[t]});
    if (it == index.end() || forest.mode[it->second] != Mode::leaf)
      return n.error() << votes << " vote " << t << " names node " << (*targetNodes)[t]
                       << " of tree " << (*targetTrees)[t]
                       << ", which is not a leaf of the ensemble",
             failure();
    int64_t target = (*targetIds)[t];
    if (target < 0 || target >= targets)
      return n.error() << votes << " vote " << t << " has id " << target << " of " << targets,
             failure();
    forest.leafWeight[it->second * targets + target] += (*weights)[t];
    forest.leafHas[it->second * targets + target] = true;
  }
  return forest;
}

/// Reads the listed forest into `forest` and returns X as a matrix.
FailureOr<Value> readListedForest(NodeImporter &n, Ops &o, StringRef votes, int64_t targets,
                                  Forest &forest) {
  FailureOr<Forest> read = readListedNodes(n, votes, targets);
  if (failed(read))
    return failure();
  forest = std::move(*read);
  return featureMatrix(n, o);
}

/// TreeEnsembleRegressor (ai.onnx.ml 1 and 3).
LogicalResult importTreeEnsembleRegressor(NodeImporter &n) {
  int64_t targets = n.getInt("n_targets", 1);
  std::string aggregateName = n.getString("aggregate_function", "SUM");
  std::string transform = n.getString("post_transform", "NONE");
  auto base = floatsOrTensor(n, "base_values");
  if (n.hasFailed())
    return failure();
  FailureOr<Aggregate> aggregate = aggregateNamed(n, aggregateName);
  if (failed(aggregate))
    return failure();
  Ops o(n);
  Forest forest;
  FailureOr<Value> x = readListedForest(n, o, "target", targets, forest);
  if (failed(x))
    return failure();
  return finishForest(n, o, *x, forest, *aggregate, base.value_or(SmallVector<double>()), transform,
                      Float32Type::get(n.context()));
}

/// The label [N] and scores [N, 2] of a two-class TreeEnsembleClassifier, by onnxruntime's rules
/// (its TreeAggregatorClassifier), which differ from the many-class ones: from the summed scores
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
FailureOr<std::pair<Value, Value>> twoClassOutputs(NodeImporter &n, Ops &o, Value scores,
                                                   Value scored, ArrayRef<double> base,
                                                   StringRef transform, bool oneVotedClass,
                                                   bool allPositive, ArrayRef<int64_t> labels) {
  Type et = typeOf(scores).getElementType();
  int64_t rows = typeOf(scores).getDimSize(0);
  auto column = [&](Value v, int64_t c) { return o.slice(v, {0, c}, {rows, 1}, {1, 1}); };
  Value s0 = column(scores, 0), s1 = column(scores, 1);
  Value h0 = column(scored, 0), h1 = column(scored, 1);
  Value zero = o.scalar(et, 0.0);
  // Two [N, 1] columns side by side.
  Type i1 = IntegerType::get(n.context(), 1);
  Value first = intConstant(o, {1, 2}, {1, 0}, i1);
  auto pair = [&](Value a, Value b) { return o.where(first, a, b); };
  // onnxruntime reads the score of a class no tree voted for in the row as 0, whatever was added.
  auto read0 = [&](Value v) { return o.where(h0, v, zero); };
  Value z, positive;
  if (base.size() == 2) {
    Value a1 = o.add(s0, o.scalar(et, base[1]));
    Value b0 = read0(o.add(s0, o.scalar(et, base[0])));
    Value first0 = read0(o.where(h1, o.sub(zero, a1), b0));
    FailureOr<Value> both = postTransform(n, o, pair(first0, o.where(h1, a1, zero)), transform);
    if (failed(both))
      return failure();
    z = *both;
    positive = o.where(h1, a1, b0);
  } else {
    if (base.size() > 2)
      return n.error() << "has " << base.size() << " base values for 2 classes", failure();
    Value q = read0(base.empty() ? s0 : o.add(s0, o.scalar(et, base[0])));
    FailureOr<Value> both = postTransform(n, o, pair(q, o.where(h1, s1, zero)), transform);
    if (failed(both))
      return failure();
    Value one;
    if (oneVotedClass && allPositive)
      one = pair(o.sub(o.scalar(et, 1.0), q), q);
    else if (oneVotedClass || base.empty())
      one = transform == "LOGISTIC"
                ? pair(o.op<ms::SigmoidOp>(o.sub(zero, q)), o.op<ms::SigmoidOp>(q))
                : pair(o.sub(zero, q), q);
    else
      one = pair(q, zero);
    z = o.where(h1, *both, one);
    positive = o.where(h1, s1, q);
  }
  Value threshold = o.scalar(et, oneVotedClass && allPositive ? 0.5 : 0.0);
  Value isPositive = o.reshape(o.compare(ms::ComparePredicate::gt, positive, threshold), {rows});
  Type i64 = IntegerType::get(n.context(), 64);
  auto labelConstant = [&](int64_t v) { return intConstant(o, {}, {v}, i64); };
  Value label = oneVotedClass
                    ? o.where(isPositive, labelConstant(labels[1]), labelConstant(labels[0]))
                    : o.where(isPositive, labelConstant(1), labelConstant(0));
  return std::pair{label, z};
}

/// TreeEnsembleClassifier (ai.onnx.ml 1 and 3) of int64 classes: the class scores are summed over
/// the trees plus the base values (Z, after the post transform) and the label Y is the class of the
/// largest score among the classes some tree or base value scores (the first of equals), as
/// onnxruntime decides it before the transform; two classes follow twoClassOutputs.
LogicalResult importTreeEnsembleClassifier(NodeImporter &n) {
  auto labels = n.getInts("classlabels_int64s");
  std::string transform = n.getString("post_transform", "NONE");
  auto base = floatsOrTensor(n, "base_values");
  if (n.hasFailed())
    return failure();
  if (!getStrings(n, "classlabels_strings").empty())
    return n.unsupportedFeature() << "has string class labels (classlabels_strings): STRING "
                                     "tensors are not supported";
  if (!labels || labels->empty())
    return n.error() << "needs classlabels_int64s";
  // onnxruntime's two-class forms with PROBIT keep one score; not reproduced.
  if (transform == "PROBIT")
    return n.unsupportedFeature() << "post_transform 'PROBIT' is not supported on classifiers";
  int64_t classes = static_cast<int64_t>(labels->size());
  if (classes < 2)
    return n.unsupportedFeature() << "has one class; two or more are supported";
  if (classes > 2 && base && !base->empty() && static_cast<int64_t>(base->size()) != classes)
    return n.error() << "has " << base->size() << " base values for " << classes << " classes";
  Ops o(n);
  Forest forest;
  FailureOr<Value> x = readListedForest(n, o, "class", classes, forest);
  if (failed(x))
    return failure();
  FailureOr<std::pair<Value, Value>> scored = scoreForest(n, o, *x, forest, Aggregate::sum);
  if (failed(scored))
    return failure();
  auto [leaves, scores] = *scored;
  Type et = typeOf(scores).getElementType();
  if (classes == 2) {
    auto votes = n.getInts("class_ids");
    auto weights = floatsOrTensor(n, "class_weights");
    bool oneVotedClass = llvm::all_of(*votes, [&](int64_t c) { return c == (*votes)[0]; });
    bool allPositive = llvm::all_of(*weights, [](double w) { return w >= 0; });
    FailureOr<std::pair<Value, Value>> out = twoClassOutputs(
        n, o, scores, votedFor(n, o, leaves, forest, et), base.value_or(SmallVector<double>()),
        transform, oneVotedClass, allPositive, *labels);
    if (failed(out) || o.failed())
      return failure();
    n.setOutput(0, out->first);
    if (n.hasOutput(1))
      n.setOutput(1, o.cast(out->second, Float32Type::get(n.context())));
    return success();
  }
  Value pick = scores;
  if (base && !base->empty()) {
    scores = o.add(scores, floatConstant(o, {1, classes}, *base, et));
    pick = scores; // every class is scored by its base value
  } else {
    pick = o.where(votedFor(n, o, leaves, forest, et), scores, o.scalar(et, -INFINITY));
  }
  Value best = o.op<ms::ArgMaxOp>(pick, uint64_t(1), false, false); // [N]
  Type i64 = IntegerType::get(n.context(), 64);
  Value label = o.op<ms::GatherOp>(intConstant(o, {classes}, *labels, i64), best, uint64_t(0));
  FailureOr<Value> z = postTransform(n, o, scores, transform);
  if (failed(z) || o.failed() || !label)
    return failure();
  n.setOutput(0, label);
  if (n.hasOutput(1))
    n.setOutput(1, o.cast(*z, Float32Type::get(n.context())));
  return success();
}

/// TreeEnsemble (ai.onnx.ml 5): branch nodes and leaves in separate lists, a child is a leaf where
/// nodes_trueleafs / nodes_falseleafs says so, one (target, weight) per leaf, set membership.
LogicalResult importTreeEnsemble(NodeImporter &n) {
  auto featureIds = n.getInts("nodes_featureids"), trueIds = n.getInts("nodes_truenodeids"),
       falseIds = n.getInts("nodes_falsenodeids"), trueLeafs = n.getInts("nodes_trueleafs"),
       falseLeafs = n.getInts("nodes_falseleafs"), leafTargets = n.getInts("leaf_targetids"),
       roots = n.getInts("tree_roots"), missing = n.getInts("nodes_missing_value_tracks_true");
  std::optional<SmallVector<double>> splitValues = tensorValues(n, "nodes_splits"),
                                     modeCodes = tensorValues(n, "nodes_modes"),
                                     weightValues = tensorValues(n, "leaf_weights"),
                                     memberValues = tensorValues(n, "membership_values");
  int64_t targets = n.getInt("n_targets", 1);
  int64_t aggregateCode = n.getInt("aggregate_function", 1);
  int64_t transformCode = n.getInt("post_transform", 0);
  if (n.hasFailed())
    return failure();
  if (!featureIds || !trueIds || !falseIds || !trueLeafs || !falseLeafs || !leafTargets || !roots ||
      !splitValues || !modeCodes || !weightValues)
    return n.error() << "needs the nodes_*, leaf_* and tree_roots attributes";
  const SmallVector<double> &splits = *splitValues, &modeValues = *modeCodes,
                            &weights = *weightValues;
  SmallVector<double> members = memberValues.value_or(SmallVector<double>());
  size_t count = featureIds->size(), leaves = leafTargets->size();
  if (trueIds->size() != count || falseIds->size() != count || trueLeafs->size() != count ||
      falseLeafs->size() != count || splits.size() != count || modeValues.size() != count ||
      (missing && !missing->empty() && missing->size() != count))
    return n.error() << "has nodes_* attributes of different lengths";
  if (weights.size() != leaves)
    return n.error() << "has " << weights.size() << " leaf_weights for " << leaves << " leaves";
  if (targets < 1 || targets > kMaxTableElements)
    return n.error() << "has n_targets " << targets;
  if (aggregateCode < 0 || aggregateCode > 3)
    return n.error() << "has an unknown aggregate_function " << aggregateCode;
  static const char *transforms[] = {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"};
  if (transformCode < 0 || transformCode > 4)
    return n.error() << "has an unknown post_transform " << transformCode;
  static const Aggregate aggregates[] = {Aggregate::average, Aggregate::sum, Aggregate::min,
                                         Aggregate::max};

  Forest forest;
  forest.targets = targets;
  size_t nextMember = 0;
  for (size_t i = 0; i < count; ++i) {
    int64_t code = static_cast<int64_t>(modeValues[i]);
    if (code < 0 || code > 6)
      return n.error() << "node " << i << " has an unknown mode " << code;
    forest.addNode(Mode(code), (*featureIds)[i], splits[i],
                   missing && !missing->empty() && (*missing)[i]);
    if (Mode(code) != Mode::member)
      continue;
    // The members of the i-th MEMBER node: the next run of membership_values up to a NaN.
    if (!memberValues)
      return n.error() << "node " << i
                       << " tests set membership but there are no membership_values";
    while (nextMember < members.size() && !std::isnan(members[nextMember]))
      forest.members[i].push_back(members[nextMember++]);
    ++nextMember;
  }
  int64_t leafBase = static_cast<int64_t>(count);
  for (size_t j = 0; j < leaves; ++j)
    forest.addNode(Mode::leaf, 0, 0.0, false);
  auto child = [&](int64_t id, int64_t isLeaf) -> std::optional<int64_t> {
    int64_t limit = isLeaf ? static_cast<int64_t>(leaves) : leafBase;
    if (id < 0 || id >= limit)
      return std::nullopt;
    return isLeaf ? leafBase + id : id;
  };
  for (size_t i = 0; i < count; ++i) {
    auto t = child((*trueIds)[i], (*trueLeafs)[i]), f = child((*falseIds)[i], (*falseLeafs)[i]);
    if (!t || !f)
      return n.error() << "node " << i << " leads to a node or leaf the ensemble does not have";
    forest.trueNext[i] = *t;
    forest.falseNext[i] = *f;
  }
  for (int64_t root : *roots) {
    if (root < 0 || root >= leafBase)
      return n.error() << "tree root " << root << " is not a node of the ensemble";
    // A tree that is one leaf: its root's branches both lead to the same leaf.
    if ((*trueLeafs)[root] && (*falseLeafs)[root] && (*trueIds)[root] == (*falseIds)[root])
      forest.roots.push_back(forest.trueNext[root]);
    else
      forest.roots.push_back(root);
  }
  if (composite::product({forest.size(), targets}) > kMaxTableElements ||
      composite::product({forest.size(), static_cast<int64_t>(members.size())}) > kMaxTableElements)
    return n.unsupportedFeature() << "has " << forest.size() << " nodes x " << targets
                                  << " targets (and " << members.size()
                                  << " membership values); at most " << kMaxTableElements
                                  << " table elements are supported";
  forest.leafWeight.assign(forest.size() * targets, 0.0);
  forest.leafHas.assign(forest.size() * targets, false);
  for (size_t j = 0; j < leaves; ++j) {
    int64_t target = (*leafTargets)[j];
    if (target < 0 || target >= targets)
      return n.error() << "leaf " << j << " has target " << target << " of " << targets;
    forest.leafWeight[(leafBase + j) * targets + target] = weights[j];
    forest.leafHas[(leafBase + j) * targets + target] = true;
  }
  RankedTensorType xType = n.inputType(0);
  if (!isa<FloatType>(xType.getElementType()))
    return n.error() << "expects a floating-point X, got " << xType;
  Ops o(n);
  FailureOr<Value> x = featureMatrix(n, o);
  if (failed(x))
    return failure();
  return finishForest(n, o, *x, forest, aggregates[aggregateCode], {}, transforms[transformCode],
                      xType.getElementType());
}

} // namespace

void mlir::mie::onnx_import::registerMlTreeOps(OnnxOpTable &table) {
  table[domainOpKey(kMlDomain, "TreeEnsembleRegressor")] = {importTreeEnsembleRegressor, 1, 1};
  table[domainOpKey(kMlDomain, "TreeEnsembleClassifier")] = {importTreeEnsembleClassifier, 1, 1};
  table[domainOpKey(kMlDomain, "TreeEnsemble")] = {importTreeEnsemble, 1, 1, 5};
}
