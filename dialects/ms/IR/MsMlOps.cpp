//===- MsMlOps.cpp - the ai.onnx.ml ops ms-decompose expands ---------------===//
//
// Result types of the ai.onnx.ml models and transforms `ms-decompose` expands
// (DecomposeMlPatterns.cpp, DecomposeMlEncoderPatterns.cpp). The checks are the ones the expansion
// relies on: every table index in range, the trees acyclic, the attribute arrays of matching
// lengths.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include "llvm/ADT/DenseSet.h"

#include <cmath>

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

/// The most elements of a table the expansions build (a tree ensemble's nodes x targets leaf table
/// or nodes x membership values, an SVM's pair tables), and the deepest tree they walk (each level
/// is a handful of ops in the graph).
constexpr int64_t kMaxTableElements = int64_t(1) << 26;
constexpr int64_t kMaxTreeDepth = 4096;

/// Whether the product of `values` exceeds kMaxTableElements (or overflows).
bool tooLarge(std::initializer_list<int64_t> values) {
  int64_t product = 1;
  for (int64_t v : values)
    if (llvm::MulOverflow(product, v, product))
      return true;
  return product > kMaxTableElements;
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
  if (adaptor.getTreeRoots().empty())
    return diag.error("has no trees");
  if (!inRange(adaptor.getTreeRoots(), size))
    return diag.error("expects tree roots in [0, ", size, ")");
  int64_t cycle = -1;
  FailureOr<int64_t> depth = depthOf(modes, trueNext, falseNext, adaptor.getTreeRoots(), &cycle);
  if (failed(depth))
    return diag.error("expects trees: node ", cycle, " is reached again below itself");
  if (*depth > kMaxTreeDepth)
    return diag.error("has a tree ", *depth, " levels deep; at most ", kMaxTreeDepth,
                      " are supported");
  int64_t targets = adaptor.getNTargets();
  ArrayRef<int64_t> leafNodes = adaptor.getLeafNodeids(), leafTargets = adaptor.getLeafTargetids();
  if (targets < 1)
    return diag.error("expects n_targets >= 1, got ", targets);
  if (tooLarge({size, targets}) || tooLarge({size, members}))
    return diag.error("has ", size, " nodes x ", targets, " targets (and ", members,
                      " membership values); at most ", kMaxTableElements,
                      " table elements are supported");
  if (leafTargets.size() != leafNodes.size() || adaptor.getLeafWeights().size() != leafNodes.size())
    return diag.error("expects leaf_nodeids, leaf_targetids and leaf_weights of one length");
  for (auto [j, node] : llvm::enumerate(leafNodes)) {
    if (node < 0 || node >= size || modes[node] != -1)
      return diag.error("vote ", j, " names node ", node, ", which is not a leaf");
    if (leafTargets[j] < 0 || leafTargets[j] >= targets)
      return diag.error("vote ", j, " has target ", leafTargets[j], " of ", targets);
  }
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
  // The expansion's tables: [V, pairs], [pairs, k] and with probabilities 2 x [pairs, k * k].
  if (tooLarge({supports, pairs}) || tooLarge({pairs, classes}) ||
      (probabilities != 0 && tooLarge({pairs, classes, classes})))
    return diag.error("has ", supports, " support vectors and ", classes,
                      " classes: its pair tables are too large");
  if (adaptor.getOneClass() || adaptor.getPostTransform() == MlPostTransform::probit)
    return diag.error("expects a classifier without one_class and probit");
  int64_t width = probabilities ? classes : classes == 2 ? 2 : pairs;
  results.push_back(RankedTensorType::get({rows, width}, type->getElementType()));
  results.push_back(RankedTensorType::get({rows}, IntegerType::get(ctx, 64)));
  return success();
}

//===----------------------------------------------------------------------===//
// The numeric transforms and linear models
//===----------------------------------------------------------------------===//

namespace {

/// A number (float or integer, not bool) tensor of rank >= `minRank`.
FailureOr<RankedTensorType> numericInput(const InferDiag &diag, Value input, int64_t minRank) {
  auto type = cast<RankedTensorType>(input.getType());
  Type et = type.getElementType();
  if (!isa<FloatType>(et) && !(isa<IntegerType>(et) && !et.isInteger(1)))
    return diag.error("expects a numeric input, got ", type);
  if (type.getRank() < minRank)
    return diag.error("expects an input of rank >= ", minRank, ", got ", type);
  return type;
}

/// Checks that `values` holds one value or one per feature (`features`, the last axis).
LogicalResult oneOrPerFeature(const InferDiag &diag, size_t values, int64_t features,
                              StringRef what) {
  if (values == 1 || static_cast<int64_t>(values) == features)
    return success();
  return diag.error("has ", values, " ", what, " values for ", features, " features");
}

/// The scores [N, targets] of rows `input` [N, F] by `coefficients` [targets, F] and `intercepts`
/// (none or one per target).
FailureOr<RankedTensorType> linearScores(const InferDiag &diag, Value input, size_t coefficients,
                                         size_t intercepts, int64_t targets) {
  FailureOr<RankedTensorType> type = featureRows(diag, input);
  if (failed(type))
    return failure();
  if (!type->getElementType().isF32())
    return diag.error("expects f32 rows, got ", *type);
  int64_t features = type->getDimSize(1), expected;
  if (targets < 1 || llvm::MulOverflow(targets, features, expected) ||
      static_cast<int64_t>(coefficients) != expected)
    return diag.error("has ", coefficients, " coefficients for ", targets, " targets of ", features,
                      " features");
  if (intercepts != 0 && static_cast<int64_t>(intercepts) != targets)
    return diag.error("has ", intercepts, " intercepts for ", targets, " targets");
  return RankedTensorType::get({type->getDimSize(0), targets}, type->getElementType());
}

} // namespace

LogicalResult ScalerOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  FailureOr<RankedTensorType> type = numericInput(diag, adaptor.getInput(), 1);
  if (failed(type))
    return failure();
  int64_t features = type->getShape().back();
  if (failed(oneOrPerFeature(diag, adaptor.getOffset().size(), features, "offset")) ||
      failed(oneOrPerFeature(diag, adaptor.getScale().size(), features, "scale")))
    return failure();
  results.push_back(type->clone(Float32Type::get(ctx)));
  return success();
}

LogicalResult NormalizerOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  FailureOr<RankedTensorType> type = numericInput(diag, adaptor.getInput(), 1);
  if (failed(type))
    return failure();
  if (type->getRank() > 2)
    return diag.error("expects X of rank 1 or 2, got ", *type);
  results.push_back(type->clone(Float32Type::get(ctx)));
  return success();
}

LogicalResult ImputerOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  FailureOr<RankedTensorType> type = numericInput(diag, adaptor.getInput(), 1);
  if (failed(type))
    return failure();
  Type et = type->getElementType();
  if (!isa<FloatType>(et) && !et.isInteger(64))
    return diag.error("expects a float or int64 input, got ", *type);
  if (failed(oneOrPerFeature(diag, adaptor.getImputedValues().size(), type->getShape().back(),
                             "imputed")))
    return failure();
  results.push_back(*type);
  return success();
}

LogicalResult OneHotEncoderOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                                Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  FailureOr<RankedTensorType> type = numericInput(diag, adaptor.getInput(), 0);
  if (failed(type))
    return failure();
  if (adaptor.getCategories().empty())
    return diag.error("needs categories");
  SmallVector<int64_t> shape(type->getShape());
  shape.push_back(adaptor.getCategories().size());
  results.push_back(RankedTensorType::get(shape, Float32Type::get(ctx)));
  return success();
}

bool LabelEncoderOp::usesDenseTable(ArrayRef<int64_t> keys) {
  int64_t low = *llvm::min_element(keys), high = *llvm::max_element(keys);
  int64_t count = static_cast<int64_t>(keys.size());
  // high - low without overflow (+1 could wrap where the keys span all of int64).
  uint64_t distance = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  return distance < static_cast<uint64_t>(
                        std::min<int64_t>(int64_t(1) << 20, std::max<int64_t>(1024, 4 * count)));
}

LogicalResult LabelEncoderOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  auto keys = dyn_cast<DenseElementsAttr>(adaptor.getKeys());
  auto values = dyn_cast<DenseElementsAttr>(adaptor.getValues());
  auto fallback = dyn_cast<DenseElementsAttr>(adaptor.getDefaultValue());
  if (!keys || !values || !fallback || keys.getType().getRank() != 1 ||
      values.getType().getRank() != 1)
    return diag.error("expects 1-D dense keys and values and a dense default_value");
  int64_t count = keys.getNumElements();
  if (count == 0 || values.getNumElements() != count)
    return diag.error("has ", count, " keys and ", values.getNumElements(),
                      " values (one per key, at least one)");
  Type keyType = keys.getElementType(), valueType = values.getElementType();
  if (type.getElementType() != keyType)
    return diag.error("has keys of type ", keyType, " for an input of type ", type);
  if (fallback.getElementType() != valueType || fallback.getNumElements() != 1)
    return diag.error("expects a default_value of one ", valueType, ", got ", fallback.getType());
  // Distinct keys (NaN once where it matches NaN): the lookups take the first match.
  if (isa<FloatType>(keyType)) {
    llvm::DenseSet<uint64_t> seen;
    bool nan = false;
    for (const APFloat &key : keys.getValues<APFloat>()) {
      double v = key.convertToDouble();
      bool fresh = std::isnan(v) ? !(nan && adaptor.getNanMatchesNan())
                                 : seen.insert(llvm::bit_cast<uint64_t>(v == 0.0 ? 0.0 : v)).second;
      nan |= std::isnan(v);
      if (!fresh)
        return diag.error("lists the key ", v, " twice");
    }
  } else {
    llvm::DenseSet<int64_t> seen;
    SmallVector<int64_t> ints;
    for (const APInt &key : keys.getValues<APInt>()) {
      ints.push_back(key.getSExtValue());
      if (!seen.insert(ints.back()).second)
        return diag.error("lists the key ", ints.back(), " twice");
    }
    if (usesDenseTable(ints)) {
      results.push_back(type.clone(valueType));
      return success();
    }
  }
  // Compared with every key: [..., keys] elements.
  int64_t elements = shapeProduct(type.getShape()), wide;
  if (elements == ShapedType::kDynamic || llvm::MulOverflow(elements, count, wide) ||
      wide > (int64_t(1) << 28))
    return diag.error("comparing ", type, " with ", count, " keys is too large");
  results.push_back(type.clone(valueType));
  return success();
}

LogicalResult LinearRegressorOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                  Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  FailureOr<RankedTensorType> type =
      linearScores(diag, adaptor.getInput(), adaptor.getCoefficients().size(),
                   adaptor.getIntercepts().size(), adaptor.getTargets());
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

LogicalResult LinearClassifierOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                                   Adaptor adaptor,
                                                   SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  int64_t targets = adaptor.getIntercepts().size();
  size_t classes = adaptor.getClassLabels().size();
  if (targets == 0)
    return diag.error("needs intercepts, one per score");
  FailureOr<RankedTensorType> type =
      linearScores(diag, adaptor.getInput(), adaptor.getCoefficients().size(), targets,
                   std::max<int64_t>(targets, 1));
  if (failed(type))
    return failure();
  if (targets > 1 && static_cast<int64_t>(classes) != targets)
    return diag.error("has ", classes, " class labels for ", targets, " scores");
  if (adaptor.getPostTransform() == MlPostTransform::probit)
    return diag.error("expects a classifier not to use probit");
  int64_t rows = type->getDimSize(0);
  results.push_back(RankedTensorType::get({rows}, IntegerType::get(ctx, 64)));
  results.push_back(targets == 1 && classes == 2
                        ? RankedTensorType::get({rows, 2}, type->getElementType())
                        : *type);
  return success();
}
