//===- MsMlOps.cpp - ms.post_transform, ms.tree_ensemble, ms.svm -----------===//
//
// Result types of the ai.onnx.ml models `ms-decompose` expands (DecomposeMlPatterns.cpp). The
// checks are the ones the expansion relies on: every table index in range, the trees acyclic,
// the attribute arrays of matching lengths.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

/// The static rows of features [N, F] the ml models read.
FailureOr<RankedTensorType> featureRows(const InferDiag &diag, Value input) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getRank() != 2 || !type.hasStaticShape())
    return diag.error("expects a static input [N, F], got ", type);
  return type;
}

bool inRange(ArrayRef<int64_t> values, int64_t end) {
  return llvm::all_of(values, [&](int64_t v) { return v >= 0 && v < end; });
}

} // namespace

LogicalResult PostTransformOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (type.getRank() != 2)
    return diag.error("expects scores [N, targets], got ", type);
  results.push_back(type);
  return success();
}

FailureOr<int64_t> TreeEnsembleOp::depthOf(ArrayRef<int64_t> modes, ArrayRef<int64_t> trueNext,
                                           ArrayRef<int64_t> falseNext, ArrayRef<int64_t> roots,
                                           int64_t *cycle) {
  int64_t size = static_cast<int64_t>(modes.size());
  SmallVector<int64_t> depth(size, -1); // -2: on the current path
  int64_t deepest = 0;
  for (int64_t root : roots) {
    if (root < 0 || root >= size)
      return failure();
    // Iterative depth-first walk: (node, next child to visit).
    SmallVector<std::pair<int64_t, int>> stack{{root, 0}};
    depth[root] = -2;
    while (!stack.empty()) {
      auto &[node, child] = stack.back();
      if (modes[node] < 0 || child == 2) {
        int64_t d = 0;
        if (modes[node] >= 0)
          d = 1 + std::max(depth[trueNext[node]], depth[falseNext[node]]);
        depth[node] = d;
        deepest = std::max(deepest, d);
        stack.pop_back();
        continue;
      }
      int64_t next = child == 0 ? trueNext[node] : falseNext[node];
      ++child;
      if (next < 0 || next >= size)
        return failure();
      if (depth[next] == -2) {
        if (cycle)
          *cycle = next;
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

LogicalResult TreeEnsembleOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  FailureOr<RankedTensorType> type = featureRows(diag, adaptor.getInput());
  if (failed(type))
    return failure();
  ArrayRef<int64_t> modes = adaptor.getNodesModes(), features = adaptor.getNodesFeatureids(),
                    trueNext = adaptor.getNodesTruenodeids(),
                    falseNext = adaptor.getNodesFalsenodeids(),
                    memberSizes = adaptor.getMembershipSizes();
  size_t nodes = modes.size();
  if (features.size() != nodes || adaptor.getNodesSplits().size() != nodes ||
      trueNext.size() != nodes || falseNext.size() != nodes ||
      adaptor.getNodesMissingValueTracksTrue().size() != nodes || memberSizes.size() != nodes)
    return diag.error("expects the nodes_* arrays and membership_sizes to have one entry per "
                      "node (",
                      nodes, ")");
  int64_t size = static_cast<int64_t>(nodes), featureCount = type->getDimSize(1);
  int64_t members = 0;
  for (size_t i = 0; i < nodes; ++i) {
    if (modes[i] < -1 || modes[i] > 6)
      return diag.error("expects node modes in [-1, 6], got ", modes[i], " at node ", i);
    if (modes[i] >= 0 && (features[i] < 0 || features[i] >= featureCount))
      return diag.error("node ", i, " tests feature ", features[i], " of ", featureCount);
    if (memberSizes[i] < 0)
      return diag.error("expects non-negative membership_sizes");
    members += memberSizes[i];
  }
  if (members != static_cast<int64_t>(adaptor.getMembershipValues().size()))
    return diag.error("expects ", members, " membership_values, got ",
                      adaptor.getMembershipValues().size());
  if (!inRange(trueNext, size) || !inRange(falseNext, size))
    return diag.error("expects the next nodes in [0, ", size, ")");
  if (adaptor.getTreeRoots().empty() || !inRange(adaptor.getTreeRoots(), size))
    return diag.error("expects tree roots in [0, ", size, ")");
  int64_t cycle = -1;
  if (failed(depthOf(modes, trueNext, falseNext, adaptor.getTreeRoots(), &cycle)))
    return diag.error("expects trees: node ", cycle, " is reached again below itself");
  int64_t targets = adaptor.getNTargets();
  ArrayRef<int64_t> leafNodes = adaptor.getLeafNodeids();
  if (targets < 1)
    return diag.error("expects n_targets >= 1, got ", targets);
  if (adaptor.getLeafTargetids().size() != leafNodes.size() ||
      adaptor.getLeafWeights().size() != leafNodes.size())
    return diag.error("expects leaf_nodeids, leaf_targetids and leaf_weights of one length");
  if (!inRange(leafNodes, size) || !inRange(adaptor.getLeafTargetids(), targets) ||
      llvm::any_of(leafNodes, [&](int64_t n) { return modes[n] != -1; }))
    return diag.error("expects the votes to name leaves and targets in range");
  size_t base = adaptor.getBaseValues().size();
  std::optional<ArrayRef<int64_t>> labels = adaptor.getClassLabels();
  if (labels) {
    if (static_cast<int64_t>(labels->size()) != targets || targets < 2)
      return diag.error("expects one class label per target (at least 2), got ", labels->size(),
                        " for ", targets);
    if (adaptor.getAggregateFunction() != TreeAggregate::sum ||
        adaptor.getPostTransform() == MlPostTransform::probit)
      return diag.error("expects a classifier to sum its trees and not to use probit");
  }
  // Two classes take up to two base values (onnxruntime's binary rules), others one per target.
  if (labels && targets == 2 ? base > 2 : (base != 0 && static_cast<int64_t>(base) != targets))
    return diag.error("expects ", targets, " base values or none, got ", base);
  Type et = type->getElementType();
  results.push_back(RankedTensorType::get({type->getDimSize(0), targets}, et));
  if (labels)
    results.push_back(RankedTensorType::get({type->getDimSize(0)}, IntegerType::get(ctx, 64)));
  return success();
}

LogicalResult SvmOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                      Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  FailureOr<RankedTensorType> type = featureRows(diag, adaptor.getInput());
  if (failed(type))
    return failure();
  if (!type->getElementType().isF32())
    return diag.error("expects f32 rows, got ", *type);
  if (adaptor.getKernelParams().size() != 3)
    return diag.error("expects 3 kernel_params (gamma, coef0, degree), got ",
                      adaptor.getKernelParams().size());
  ArrayRef<int64_t> perClass = adaptor.getVectorsPerClass();
  int64_t supports = 0, rows = type->getDimSize(0), features = type->getDimSize(1);
  for (int64_t v : perClass)
    if (v < 0 || llvm::AddOverflow(supports, v, supports))
      return diag.error("expects non-negative vectors_per_class");
  int64_t vectorValues;
  if (supports < 1 || llvm::MulOverflow(supports, features, vectorValues) ||
      static_cast<int64_t>(adaptor.getSupportVectors().size()) != vectorValues)
    return diag.error("expects ", supports, " support vectors of ", features, " features, got ",
                      adaptor.getSupportVectors().size(), " values");
  int64_t coefficients = adaptor.getCoefficients().size(), rho = adaptor.getRho().size();
  int64_t probabilities = adaptor.getProbA().size();
  if (adaptor.getProbB().size() != static_cast<size_t>(probabilities))
    return diag.error("expects as many prob_a as prob_b values");
  std::optional<ArrayRef<int64_t>> labels = adaptor.getClassLabels();
  if (!labels) {
    if (perClass.size() != 1 || coefficients != supports || rho < 1 || probabilities != 0 ||
        adaptor.getPostTransform() != MlPostTransform::none)
      return diag.error("expects a regressor to have one vector group, one coefficient per "
                        "vector, rho, no probabilities and no post_transform");
    results.push_back(RankedTensorType::get({rows, 1}, type->getElementType()));
    return success();
  }
  int64_t classes = labels->size(), pairs = classes * (classes - 1) / 2;
  if (classes < 2 || static_cast<int64_t>(perClass.size()) != classes)
    return diag.error("expects at least 2 class labels and one vector group each, got ", classes,
                      " and ", perClass.size());
  if (coefficients < (classes - 1) * supports || rho < pairs ||
      (probabilities != 0 && probabilities < pairs))
    return diag.error("expects ", (classes - 1) * supports, " coefficients and ", pairs,
                      " rho (and prob_a) values");
  if (adaptor.getOneClass() || adaptor.getPostTransform() == MlPostTransform::probit)
    return diag.error("expects a classifier without one_class and probit");
  int64_t width = probabilities ? classes : classes == 2 ? 2 : pairs;
  results.push_back(RankedTensorType::get({rows, width}, type->getElementType()));
  results.push_back(RankedTensorType::get({rows}, IntegerType::get(ctx, 64)));
  return success();
}
