//===- OnnxMlTreeOps.cpp - tree ensembles (ai.onnx.ml) ----------------------===//
//
// TreeEnsembleRegressor, TreeEnsembleClassifier (ai.onnx.ml 1 and 3) and TreeEnsemble
// (ai.onnx.ml 5), the ops scikit-learn's, LightGBM's and XGBoost's converters emit for forests and
// boosted trees, become one ms.tree_ensemble: the handlers resolve ONNX's two encodings (nodes
// named by (tree, node id) with LEAF nodes and per-leaf vote lists; or separate branch and leaf
// lists) into its single node table, where a leaf is a node of mode -1; ms.tree_ensemble's
// verifier checks what the expansion relies on. `ms-decompose` walks the trees
// (dialects/ms/Transforms/DecomposeMlPatterns.cpp).
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"
#include "OnnxMlOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// ms.tree_ensemble's mode numbers (TreeEnsemble's nodes_modes; the regressor's strings map here).
constexpr int64_t kMember = 6, kLeaf = -1;

/// One ensemble as ms.tree_ensemble's node table. Branch nodes and leaves share the index space;
/// a leaf's next nodes are itself.
struct Forest {
  SmallVector<int64_t> mode, feature, trueNext, falseNext, memberSizes, roots;
  SmallVector<double> split, members;
  SmallVector<bool> missingTrue;
  int64_t targets = 1;
  SmallVector<int64_t> leafNodes, leafTargets; // the votes
  SmallVector<double> leafWeights;

  int64_t size() const { return static_cast<int64_t>(mode.size()); }
  void addNode(int64_t m, int64_t f, double s, bool missing) {
    mode.push_back(m);
    feature.push_back(f);
    split.push_back(s);
    missingTrue.push_back(missing);
    memberSizes.push_back(0);
    trueNext.push_back(size() - 1);
    falseNext.push_back(size() - 1);
  }
  void vote(int64_t node, int64_t target, double weight) {
    leafNodes.push_back(node);
    leafTargets.push_back(target);
    leafWeights.push_back(weight);
  }
};

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

/// Creates the ms.tree_ensemble of `forest` over X [N, F] (`x`) with the base values and the post
/// transform (ONNX's name; `applied`: whether onnxruntime applies it, which it does not to a
/// single regression target but for PROBIT): its scores (in X's float type) and, for a classifier
/// (`labels`), its label. Its verifier checks the table (features, trees, depth, votes, sizes).
FailureOr<std::pair<Value, Value>> emitForest(NodeImporter &n, Ops &o, Value x,
                                              const Forest &forest, ms::TreeAggregate aggregate,
                                              ArrayRef<double> base, StringRef transform,
                                              bool applied, ArrayRef<int64_t> labels) {
  if (!x)
    return failure();
  ms::MlPostTransform t = ms::MlPostTransform::none;
  if (applied) {
    FailureOr<ms::MlPostTransform> named = ml::postTransformNamed(n, transform);
    if (failed(named))
      return failure();
    t = *named;
  }
  Builder &b = n.builder();
  FailureOr<Operation *> op = n.createVariadicOp<ms::TreeEnsembleOp>(
      x, ArrayRef<int64_t>(forest.mode), ArrayRef<int64_t>(forest.feature),
      ArrayRef<double>(forest.split), ArrayRef<int64_t>(forest.trueNext),
      ArrayRef<int64_t>(forest.falseNext), ArrayRef<bool>(forest.missingTrue),
      ArrayRef<int64_t>(forest.memberSizes), ArrayRef<double>(forest.members),
      ArrayRef<int64_t>(forest.roots), ArrayRef<int64_t>(forest.leafNodes),
      ArrayRef<int64_t>(forest.leafTargets), ArrayRef<double>(forest.leafWeights),
      static_cast<uint64_t>(forest.targets), aggregate, base, t,
      labels.empty() ? DenseI64ArrayAttr() : b.getDenseI64ArrayAttr(labels));
  if (failed(op))
    return failure();
  return std::pair<Value, Value>{(*op)->getResult(0),
                                 labels.empty() ? Value() : (*op)->getResult(1)};
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

FailureOr<ms::TreeAggregate> aggregateNamed(NodeImporter &n, StringRef name) {
  auto aggregate = llvm::StringSwitch<std::optional<ms::TreeAggregate>>(name)
                       .Case("SUM", ms::TreeAggregate::sum)
                       .Case("AVERAGE", ms::TreeAggregate::average)
                       .Case("MIN", ms::TreeAggregate::min)
                       .Case("MAX", ms::TreeAggregate::max)
                       .Default(std::nullopt);
  if (!aggregate)
    return n.error() << "has an unknown aggregate_function '" << name << "'", failure();
  return *aggregate;
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

  Forest forest;
  forest.targets = targets;
  llvm::DenseMap<std::pair<int64_t, int64_t>, int64_t> index;
  for (size_t i = 0; i < count; ++i) {
    static const std::pair<const char *, int64_t> names[] = {
        {"BRANCH_LEQ", 0}, {"BRANCH_LT", 1}, {"BRANCH_GTE", 2}, {"BRANCH_GT", 3},
        {"BRANCH_EQ", 4},  {"BRANCH_NEQ", 5}, {"LEAF", kLeaf}};
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
    if (forest.mode[i] == kLeaf)
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
  for (size_t t = 0; t < targetTrees->size(); ++t) {
    auto it = index.find({(*targetTrees)[t], (*targetNodes)[t]});
    if (it == index.end())
      return n.error() << votes << " vote " << t << " names node " << (*targetNodes)[t]
                       << " of tree " << (*targetTrees)[t] << ", which the ensemble does not have",
             failure();
    forest.vote(it->second, (*targetIds)[t], (*weights)[t]);
  }
  return forest;
}

/// TreeEnsembleRegressor (ai.onnx.ml 1 and 3).
LogicalResult importTreeEnsembleRegressor(NodeImporter &n) {
  int64_t targets = n.getInt("n_targets", 1);
  std::string aggregateName = n.getString("aggregate_function", "SUM");
  std::string transform = n.getString("post_transform", "NONE");
  auto base = floatsOrTensor(n, "base_values");
  if (n.hasFailed())
    return failure();
  FailureOr<ms::TreeAggregate> aggregate = aggregateNamed(n, aggregateName);
  if (failed(aggregate))
    return failure();
  FailureOr<Forest> forest = readListedNodes(n, "target", targets);
  if (failed(forest))
    return failure();
  Ops o(n);
  FailureOr<Value> x = featureMatrix(n, o);
  if (failed(x))
    return failure();
  FailureOr<std::pair<Value, Value>> out =
      emitForest(n, o, *x, *forest, *aggregate, base.value_or(SmallVector<double>()), transform,
                 targets > 1 || transform == "PROBIT", {});
  return failed(out) ? failure() : finish(n, o, o.cast(out->first, Float32Type::get(n.context())));
}

/// TreeEnsembleClassifier (ai.onnx.ml 1 and 3) of int64 classes: the class scores are summed over
/// the trees plus the base values (Z, after the post transform) and the label Y is the class of the
/// largest score among the classes some tree or base value scores (the first of equals), as
/// onnxruntime decides it before the transform; two classes follow onnxruntime's binary rules
/// (ms.tree_ensemble's expansion).
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
  FailureOr<Forest> forest = readListedNodes(n, "class", classes);
  if (failed(forest))
    return failure();
  Ops o(n);
  FailureOr<Value> x = featureMatrix(n, o);
  if (failed(x))
    return failure();
  FailureOr<std::pair<Value, Value>> out =
      emitForest(n, o, *x, *forest, ms::TreeAggregate::sum, base.value_or(SmallVector<double>()),
                 transform, /*applied=*/true, *labels);
  if (failed(out))
    return failure();
  n.setOutput(0, out->second);
  if (n.hasOutput(1))
    n.setOutput(1, o.cast(out->first, Float32Type::get(n.context())));
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
  if (aggregateCode < 0 || aggregateCode > 3)
    return n.error() << "has an unknown aggregate_function " << aggregateCode;
  static const char *transforms[] = {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"};
  if (transformCode < 0 || transformCode > 4)
    return n.error() << "has an unknown post_transform " << transformCode;
  static const ms::TreeAggregate aggregates[] = {
      ms::TreeAggregate::average, ms::TreeAggregate::sum, ms::TreeAggregate::min,
      ms::TreeAggregate::max};

  Forest forest;
  forest.targets = targets;
  size_t nextMember = 0;
  for (size_t i = 0; i < count; ++i) {
    int64_t code = static_cast<int64_t>(modeValues[i]);
    if (code < 0 || code > 6)
      return n.error() << "node " << i << " has an unknown mode " << code;
    forest.addNode(code, (*featureIds)[i], splits[i],
                   missing && !missing->empty() && (*missing)[i]);
    if (code != kMember)
      continue;
    // The members of the i-th MEMBER node: the next run of membership_values up to a NaN.
    if (!memberValues)
      return n.error() << "node " << i
                       << " tests set membership but there are no membership_values";
    while (nextMember < members.size() && !std::isnan(members[nextMember]))
      forest.members.push_back(members[nextMember++]), ++forest.memberSizes[i];
    ++nextMember;
  }
  int64_t leafBase = static_cast<int64_t>(count);
  for (size_t j = 0; j < leaves; ++j)
    forest.addNode(kLeaf, 0, 0.0, false);
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
  for (size_t j = 0; j < leaves; ++j)
    forest.vote(leafBase + j, (*leafTargets)[j], weights[j]);
  RankedTensorType xType = n.inputType(0);
  if (!isa<FloatType>(xType.getElementType()))
    return n.error() << "expects a floating-point X, got " << xType;
  Ops o(n);
  FailureOr<Value> x = featureMatrix(n, o);
  if (failed(x))
    return failure();
  FailureOr<std::pair<Value, Value>> out =
      emitForest(n, o, *x, forest, aggregates[aggregateCode], {}, transforms[transformCode],
                 targets > 1 || transformCode == 4, {});
  return failed(out) ? failure() : finish(n, o, out->first);
}

} // namespace

void mlir::mie::onnx_import::registerMlTreeOps(OnnxOpTable &table) {
  table[domainOpKey(kMlDomain, "TreeEnsembleRegressor")] = {importTreeEnsembleRegressor, 1, 1};
  table[domainOpKey(kMlDomain, "TreeEnsembleClassifier")] = {importTreeEnsembleClassifier, 1, 1};
  table[domainOpKey(kMlDomain, "TreeEnsemble")] = {importTreeEnsemble, 1, 1, 5};
}
