//===- OnnxDynamicShapeOps.cpp - ops with data-dependent output shapes -----===//
//
// NonZero, Unique, Compress (a runtime condition) and NonMaxSuppression, whose output extents
// depend on the data: each output is typed at its upper bound and carries its real extent as a
// tensor<1xi64> count (DynamicExtent). The consumers that keep such a value as bound plus count
// (elementwise ops, Transpose, the gathers, Squeeze/Unsqueeze) pass the extent on; any other op
// refuses it at its node. A graph output with an extent is returned with its count, which the
// runtime uses to report the real shape (docs/dynamic-shapes.md).
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

FailureOr<Value> constantOf(NodeImporter &n, RankedTensorType type, double value) {
  Attribute element =
      isa<FloatType>(type.getElementType())
          ? (Attribute)FloatAttr::get(type.getElementType(), value)
          : (Attribute)IntegerAttr::get(type.getElementType(), static_cast<int64_t>(value));
  return n.create<ms::ConstantOp>(cast<ElementsAttr>(DenseElementsAttr::get(type, element)));
}

/// Input `i` as a one-element tensor of shape [1] (ONNX passes such scalars as [1] or []), or a
/// constant `fallback` of `elementType` when the input is absent.
FailureOr<Value> oneElement(NodeImporter &n, unsigned i, Type elementType, double fallback,
                            StringRef what) {
  auto type = RankedTensorType::get({1}, elementType);
  if (!n.hasInput(i))
    return constantOf(n, type, fallback);
  RankedTensorType given = n.inputType(i);
  if (!given.hasStaticShape() || given.getNumElements() != 1 ||
      given.getElementType() != elementType)
    return n.error() << what << " must be a one-element " << elementType << " tensor, got "
                     << given;
  FailureOr<Value> value = n.input(i);
  if (failed(value) || given.getRank() == 1)
    return value;
  return n.create<ms::ReshapeOp>(*value, ArrayRef<int64_t>{1});
}

/// NonZero (opset 9+). A known input folds to a constant of its real shape.
LogicalResult importNonZero(NodeImporter &n) {
  RankedTensorType type = n.inputType(0);
  if (type.getRank() == 0)
    return n.error() << "expects an input of rank >= 1, got " << type;
  if (const KnownTensor *known = n.constantData(0)) {
    SmallVector<int64_t> positions;
    for (int64_t i = 0, e = known->numElements(); i < e; ++i)
      if (known->valueAt(i) != 0.0 || std::isnan(known->valueAt(i)))
        positions.push_back(i);
    int64_t rank = type.getRank(), count = static_cast<int64_t>(positions.size());
    SmallVector<int64_t> values(rank * count);
    for (auto [j, flat] : llvm::enumerate(positions))
      for (int64_t d = rank - 1, rest = flat; d >= 0; --d) {
        values[d * count + j] = rest % type.getDimSize(d);
        rest /= type.getDimSize(d);
      }
    n.setKnownOutput(
        0, KnownTensor::fromInts({rank, count}, IntegerType::get(n.context(), 64), values));
    return success();
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  FailureOr<Operation *> op = n.createOp<ms::NonZeroOp>(*x);
  if (failed(op))
    return failure();
  n.setOutput(0, (*op)->getResult(0));
  n.setOutputExtent(0, (*op)->getResult(1), 1);
  return success();
}

/// Unique (opset 11+): Y, indices and counts have data-dependent extents; inverse_indices does
/// not.
LogicalResult importUnique(NodeImporter &n) {
  bool sorted = n.getInt("sorted", 1) != 0;
  bool hasAxis = n.hasAttr("axis");
  int64_t axis = n.getInt("axis", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType type = n.inputType(0);
  int64_t dim = 0;
  if (hasAxis) {
    FailureOr<int64_t> a = normalizeAxis(n, axis, type.getRank());
    if (failed(a))
      return failure();
    dim = *a;
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  Builder b(n.context());
  FailureOr<Operation *> op =
      n.createOp<ms::UniqueOp>(*x, hasAxis ? b.getI64IntegerAttr(dim) : IntegerAttr(),
                               sorted ? b.getUnitAttr() : UnitAttr());
  if (failed(op))
    return failure();
  Value count = (*op)->getResult(4);
  for (unsigned i = 0; i < 4; ++i)
    n.setOutput(i, (*op)->getResult(i));
  n.setOutputExtent(0, count, dim);
  n.setOutputExtent(1, count, 0);
  n.setOutputExtent(3, count, 0);
  return success();
}

/// Compress (opset 9+; negative axes from 11): a known condition is a gather of known indices;
/// a runtime one gathers the positions NonZero finds in it, with their count as the extent.
LogicalResult importCompress(NodeImporter &n) {
  bool hasAxis = n.hasAttr("axis");
  int64_t axis = n.getInt("axis", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0), condType = n.inputType(1);
  if (condType.getRank() != 1)
    return n.error() << "expects a 1-D condition, got " << condType;
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  int64_t a = 0;
  if (hasAxis) {
    FailureOr<int64_t> normalized = normalizeAxis(n, axis, xType.getRank());
    if (failed(normalized))
      return failure();
    a = *normalized;
  } else if (xType.getRank() != 1) {
    x = n.create<ms::ReshapeOp>(*x, ArrayRef<int64_t>{xType.getNumElements()});
    if (failed(x))
      return failure();
  }
  int64_t size = cast<RankedTensorType>(x->getType()).getDimSize(a);
  int64_t length = condType.getDimSize(0);
  if (length > size)
    return n.error() << "condition has " << length << " entries, more than the " << size
                     << " slices along the axis";
  auto i64 = IntegerType::get(n.context(), 64);
  if (const KnownTensor *cond = n.constantData(1)) {
    SmallVector<int64_t> kept;
    for (int64_t i = 0; i < length; ++i)
      if (cond->valueAt(i) != 0.0)
        kept.push_back(i);
    auto idxType = RankedTensorType::get({static_cast<int64_t>(kept.size())}, i64);
    FailureOr<Value> idx = n.create<ms::ConstantOp>(
        cast<ElementsAttr>(DenseElementsAttr::get(idxType, ArrayRef<int64_t>(kept))));
    if (failed(idx))
      return failure();
    return finish(n, n.create<ms::GatherOp>(*x, *idx, static_cast<uint64_t>(a)));
  }
  FailureOr<Value> cond = n.input(1);
  if (failed(cond))
    return failure();
  FailureOr<Operation *> nonZero = n.createOp<ms::NonZeroOp>(*cond);
  if (failed(nonZero))
    return failure();
  FailureOr<Value> idx =
      n.create<ms::ReshapeOp>((*nonZero)->getResult(0), ArrayRef<int64_t>{length});
  if (failed(idx))
    return failure();
  FailureOr<Value> result = n.create<ms::GatherOp>(*x, *idx, static_cast<uint64_t>(a));
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  n.setOutputExtent(0, (*nonZero)->getResult(1), a);
  return success();
}

/// NonMaxSuppression (opset 10+). The selected rows are bounded by batches * classes * the
/// per-class maximum, which is the box count unless max_output_boxes_per_class is known.
LogicalResult importNonMaxSuppression(NodeImporter &n) {
  int64_t centerPointBox = n.getInt("center_point_box", 0);
  if (n.hasFailed())
    return failure();
  if (centerPointBox != 0 && centerPointBox != 1)
    return n.error() << "center_point_box must be 0 or 1, got " << centerPointBox;
  RankedTensorType boxesType = n.inputType(0);
  if (boxesType.getRank() != 3)
    return n.error() << "expects boxes of shape [batches, boxes, 4], got " << boxesType;
  int64_t numBoxes = boxesType.getDimSize(1), bound = numBoxes;
  if (const KnownTensor *max = n.hasInput(2) ? n.constantData(2) : nullptr)
    bound = std::clamp<int64_t>(max->intAt(0), 0, numBoxes);
  else if (!n.hasInput(2))
    bound = 0; // no maximum given: ONNX selects nothing
  Type f32 = Float32Type::get(n.context());
  auto i64 = IntegerType::get(n.context(), 64);
  FailureOr<Value> boxes = n.input(0), scores = n.input(1);
  FailureOr<Value> max = oneElement(n, 2, i64, 0, "max_output_boxes_per_class");
  FailureOr<Value> iou = oneElement(n, 3, f32, 0, "iou_threshold");
  FailureOr<Value> score =
      oneElement(n, 4, f32, -std::numeric_limits<double>::infinity(), "score_threshold");
  if (failed(boxes) || failed(scores) || failed(max) || failed(iou) || failed(score))
    return failure();
  Builder b(n.context());
  FailureOr<Operation *> op = n.createOp<ms::NonMaxSuppressionOp>(
      *boxes, *scores, *max, *iou, *score, b.getI64IntegerAttr(bound),
      centerPointBox ? b.getUnitAttr() : UnitAttr());
  if (failed(op))
    return failure();
  n.setOutput(0, (*op)->getResult(0));
  n.setOutputExtent(0, (*op)->getResult(1), 0);
  return success();
}

//===----------------------------------------------------------------------===//
// Consumers of data-dependent values
//===----------------------------------------------------------------------===//

enum class Rule {
  Unary,
  Elementwise,
  Transpose,
  Gather,
  GatherElements,
  GatherNd,
  Squeeze,
  Unsqueeze
};

const llvm::StringMap<Rule> &rules() {
  static const llvm::StringMap<Rule> table = [] {
    llvm::StringMap<Rule> t;
    for (StringRef op : {"Identity", "Cast",     "CastLike",  "Neg",  "Abs",        "Relu",
                         "Sigmoid",  "Tanh",     "Exp",       "Log",  "Sqrt",       "Not",
                         "Floor",    "Ceil",     "Round",     "Sign", "Reciprocal", "Erf",
                         "Softplus", "Softsign", "LeakyRelu", "Elu",  "Selu",       "HardSigmoid",
                         "Clip",     "IsNaN",    "IsInf",     "Sin",  "Cos"})
      t[op] = Rule::Unary;
    for (StringRef op : {"Add",         "Sub",   "Mul",     "Div",  "Pow",
                         "Mod",         "Equal", "Greater", "Less", "GreaterOrEqual",
                         "LessOrEqual", "And",   "Or",      "Xor",  "Where",
                         "Max",         "Min",   "Sum",     "Mean", "BitShift",
                         "PRelu"})
      t[op] = Rule::Elementwise;
    t["Transpose"] = Rule::Transpose;
    t["Gather"] = Rule::Gather;
    t["GatherElements"] = Rule::GatherElements;
    t["GatherND"] = Rule::GatherNd;
    t["Squeeze"] = Rule::Squeeze;
    t["Unsqueeze"] = Rule::Unsqueeze;
    return t;
  }();
  return table;
}

/// The first dynamic input, with its index.
std::pair<unsigned, DynamicExtent> firstDynamic(NodeImporter &n) {
  for (unsigned i = 0; i < n.node().inputs.size(); ++i)
    if (std::optional<DynamicExtent> e = n.inputExtent(i))
      return {i, *e};
  llvm_unreachable("propagation runs for nodes with a dynamic input");
}

LogicalResult refuse(NodeImporter &n, unsigned input, StringRef why) {
  return n.unsupportedFeature() << "input " << input << " ('" << n.node().inputs[input]
                                << "') has a data-dependent shape: " << why;
}

/// Elementwise ops (numpy broadcasting): every dynamic input must share one count and one output
/// dim, and the static inputs must broadcast along it (size 1), since they would otherwise have to
/// match a size only known at run time.
LogicalResult propagateElementwise(NodeImporter &n) {
  int64_t rank = n.outputType(0).getRank();
  auto [first, extent] = firstDynamic(n);
  int64_t dim = extent.dim + rank - n.inputType(first).getRank();
  for (unsigned i = 0; i < n.node().inputs.size(); ++i) {
    if (!n.hasInput(i))
      continue;
    RankedTensorType type = n.inputType(i);
    int64_t at = dim - (rank - type.getRank());
    std::optional<DynamicExtent> e = n.inputExtent(i);
    if (e && (!sameCount(e->count, extent.count) || at != e->dim))
      return refuse(n, i, "its extent is not the one of input " + std::to_string(first));
    if (!e && at >= 0 && type.getDimSize(at) != 1)
      return refuse(n, first,
                    "input " + std::to_string(i) + " does not broadcast along its dim " +
                        std::to_string(extent.dim));
  }
  if (n.outputType(0).getDimSize(dim) != n.inputType(first).getDimSize(extent.dim))
    return refuse(n, first, "it is broadcast along its data-dependent dim");
  n.setOutputExtent(0, extent.count, dim);
  return success();
}

/// Squeeze / Unsqueeze: the axes (attribute or input 1) say where the dynamic dim goes.
LogicalResult propagateSqueeze(NodeImporter &n, bool squeeze) {
  auto [first, extent] = firstDynamic(n);
  if (first != 0)
    return refuse(n, first, "the axes must be known");
  FailureOr<std::optional<SmallVector<int64_t>>> axes = intsFromAttrOrInput(n, "axes", 1, 13);
  if (failed(axes))
    return failure();
  int64_t inRank = n.inputType(0).getRank(), outRank = n.outputType(0).getRank();
  SmallVector<int64_t> list;
  if (*axes) {
    for (int64_t a : **axes)
      list.push_back(a < 0 ? a + (squeeze ? inRank : outRank) : a);
  } else if (squeeze) {
    for (int64_t d = 0; d < inRank; ++d)
      if (n.inputType(0).getDimSize(d) == 1)
        list.push_back(d);
  }
  const int64_t from = extent.dim;
  int64_t dim = from;
  if (squeeze) {
    if (llvm::is_contained(list, dim))
      return refuse(n, 0, "Squeeze removes its data-dependent dim");
    dim -= llvm::count_if(list, [&](int64_t a) { return a < from; });
  } else {
    // The dynamic dim is the from-th of the output dims that are not inserted.
    for (int64_t d = 0, seen = 0; d < outRank; ++d) {
      if (llvm::is_contained(list, d))
        continue;
      if (seen++ == from) {
        dim = d;
        break;
      }
    }
  }
  n.setOutputExtent(0, extent.count, dim);
  return success();
}

} // namespace

bool mlir::mie::onnx_import::sameCount(Value a, Value b) {
  if (a == b)
    return true;
  Operation *pa = a.getDefiningOp(), *pb = b.getDefiningOp();
  if (!pa || !pb || pa->getName() != pb->getName() ||
      pa->getAttrDictionary() != pb->getAttrDictionary() ||
      pa->getNumOperands() != pb->getNumOperands() || pa->getNumResults() != pb->getNumResults() ||
      cast<OpResult>(a).getResultNumber() != cast<OpResult>(b).getResultNumber() ||
      pa->getNumRegions() != 0 || pa->getResultTypes() != pb->getResultTypes())
    return false;
  // Constants compare by value (their attribute); other ops operand by operand.
  return llvm::all_of(llvm::zip(pa->getOperands(), pb->getOperands()),
                      [](auto pair) { return sameCount(std::get<0>(pair), std::get<1>(pair)); });
}

bool mlir::mie::onnx_import::takesDynamicExtents(StringRef opType) {
  return rules().count(opType) != 0;
}

LogicalResult mlir::mie::onnx_import::propagateDynamicExtents(NodeImporter &n) {
  auto [first, extent] = firstDynamic(n);
  switch (rules().lookup(n.opType())) {
  case Rule::Unary:
    if (first == 0)
      n.setOutputExtent(0, extent.count, extent.dim);
    return success();
  case Rule::Elementwise:
    return propagateElementwise(n);
  case Rule::Transpose: {
    std::optional<SmallVector<int64_t>> perm = n.getInts("perm");
    int64_t rank = n.inputType(0).getRank();
    for (int64_t j = 0; j < rank; ++j)
      if ((perm ? (*perm)[j] : rank - 1 - j) == extent.dim)
        n.setOutputExtent(0, extent.count, j);
    return success();
  }
  case Rule::Gather: {
    int64_t rank = n.inputType(0).getRank();
    int64_t axis = n.getInt("axis", 0);
    axis = axis < 0 ? axis + rank : axis;
    std::optional<DynamicExtent> data = n.inputExtent(0), indices = n.inputExtent(1);
    // Along the data's data-dependent dim the indices pick real rows (clamped into the bound,
    // they read valid memory whatever they are): the result has the indices' extent, if any.
    if (data && data->dim != axis && indices)
      return refuse(n, 1, "so has the data, along another dim");
    if (indices) {
      n.setOutputExtent(0, indices->count, axis + indices->dim);
      return success();
    }
    if (extent.dim == axis)
      return success();
    int64_t shift = extent.dim > axis ? n.inputType(1).getRank() - 1 : 0;
    n.setOutputExtent(0, extent.count, extent.dim + shift);
    return success();
  }
  case Rule::GatherElements:
    if (first == 0)
      return refuse(n, 0, "GatherElements takes one only as its indices");
    n.setOutputExtent(0, extent.count, extent.dim);
    return success();
  case Rule::GatherNd:
    if (first == 0)
      return refuse(n, 0, "GatherND takes one only as its indices");
    if (extent.dim == n.inputType(1).getRank() - 1)
      return refuse(n, 1, "its data-dependent dim is the index tuples' own");
    n.setOutputExtent(0, extent.count, extent.dim);
    return success();
  case Rule::Squeeze:
    return propagateSqueeze(n, /*squeeze=*/true);
  case Rule::Unsqueeze:
    return propagateSqueeze(n, /*squeeze=*/false);
  }
  llvm_unreachable("every rule is handled");
}

void mlir::mie::onnx_import::registerDynamicShapeOps(OnnxOpTable &table) {
  table["NonZero"] = {importNonZero, 1, 1, 9};
  table["Unique"] = {importUnique, 1, 1, 11};
  table["Compress"] = {importCompress, 2, 2, 9};
  table["NonMaxSuppression"] = {importNonMaxSuppression, 2, 5, 10};
}
