//===- MsShapeUtils.cpp - shape arithmetic shared by ms ops ---------------===//

#include "dialects/ms/IR/MsShapeUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;

FailureOr<SmallVector<int64_t>> ms::broadcastShapes(const InferDiag &diag, ArrayRef<int64_t> lhs,
                                                    ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a == b || b == 1) {
      result[i] = a;
    } else if (a == 1) {
      result[i] = b;
    } else if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b)) {
      result[i] = ShapedType::isDynamic(a) ? b : a;
    } else {
      (void)diag.error("shapes ", shapeToString(lhs), " and ", shapeToString(rhs),
                       " are not broadcast-compatible (dim ", i, ": ", a, " vs ", b, ")");
      return failure();
    }
  }
  return result;
}

FailureOr<int64_t> ms::normalizeAxis(const InferDiag &diag, int64_t axis, int64_t rank,
                                     StringRef what) {
  if (axis < -rank || axis >= rank) {
    (void)diag.error(what, " ", axis, " is out of range for rank ", rank, " (expected [", -rank,
                     ", ", rank, "))");
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>> ms::normalizeAxes(const InferDiag &diag, ArrayRef<int64_t> axes,
                                                  int64_t rank, StringRef what) {
  SmallVector<int64_t> result;
  for (int64_t axis : axes) {
    FailureOr<int64_t> normalized = normalizeAxis(diag, axis, rank, what);
    if (failed(normalized))
      return failure();
    if (llvm::is_contained(result, *normalized)) {
      (void)diag.error(what, " contains dimension ", *normalized, " more than once");
      return failure();
    }
    result.push_back(*normalized);
  }
  llvm::sort(result);
  return result;
}

int64_t ms::shapeProduct(ArrayRef<int64_t> shape) {
  int64_t product = 1;
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      return ShapedType::kDynamic;
    product *= dim;
  }
  return product;
}

std::string ms::shapeToString(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "[]";
  std::string out;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (i)
      out += "x";
    out += ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
  }
  return out;
}

LogicalResult ms::checkArraySize(const InferDiag &diag, StringRef name, ArrayRef<int64_t> array,
                                 size_t expected) {
  if (array.size() == expected)
    return success();
  return diag.error("expects '", name, "' to have ", expected, " entries, got ", array.size());
}

LogicalResult ms::checkArrayMin(const InferDiag &diag, StringRef name, ArrayRef<int64_t> array,
                                int64_t min) {
  for (auto [i, value] : llvm::enumerate(array))
    if (value < min)
      return diag.error("expects '", name, "' entries to be >= ", min, ", got ", value,
                        " at index ", i);
  return success();
}

bool ms::isAxisOrTrailingAxes(ArrayRef<int64_t> axes, int64_t rank) {
  bool contiguous = !axes.empty() && axes.front() >= 0 &&
                    (axes.size() == 1 ? axes.front() < rank : axes.back() == rank - 1);
  for (size_t i = 1; i < axes.size() && contiguous; ++i)
    contiguous = axes[i] == axes[i - 1] + 1;
  return contiguous;
}

int64_t ms::windowOutputSize(int64_t input, int64_t padBefore, int64_t padAfter, int64_t kernel,
                             int64_t stride, int64_t dilation, bool ceilMode) {
  if (ShapedType::isDynamic(input))
    return ShapedType::kDynamic;
  int64_t span = input + padBefore + padAfter - dilation * (kernel - 1) - 1;
  if (span < 0)
    return -1;
  int64_t out = (ceilMode ? llvm::divideCeil(span, stride) : span / stride) + 1;
  // ONNX/PyTorch ceil mode: the last window must start inside the input or the begin padding.
  if (ceilMode && (out - 1) * stride >= input + padBefore)
    --out;
  return out;
}

FailureOr<ms::QuantParamLayout> ms::quantParamLayout(const InferDiag &diag, RankedTensorType x,
                                                     RankedTensorType param, int64_t axis,
                                                     int64_t blockSize, StringRef what) {
  QuantParamLayout layout;
  if (param.getRank() == 0 || (param.getRank() == 1 && param.getDimSize(0) == 1 && blockSize == 0))
    return layout;
  FailureOr<int64_t> normalized = normalizeAxis(diag, axis, x.getRank());
  if (failed(normalized))
    return failure();
  layout.axis = *normalized;
  int64_t extent = x.getDimSize(layout.axis);
  if (blockSize == 0) {
    if (param.getRank() != 1 || param.getDimSize(0) != extent) {
      (void)diag.error(what, " ", param, " must be a scalar or 1-D with ", extent,
                       " elements (the input's extent along axis ", layout.axis, ")");
      return failure();
    }
    layout.kind = QuantParamLayout::Kind::Axis;
    return layout;
  }
  if (blockSize < 0) {
    (void)diag.error("block_size must be >= 0, got ", blockSize);
    return failure();
  }
  if (param.getRank() != x.getRank()) {
    (void)diag.error(what, " ", param, " must have the input's rank for block_size ", blockSize);
    return failure();
  }
  for (int64_t d = 0; d < x.getRank(); ++d) {
    int64_t expected =
        d == layout.axis ? (x.getDimSize(d) + blockSize - 1) / blockSize : x.getDimSize(d);
    if (param.getDimSize(d) != expected) {
      (void)diag.error(what, " ", param, " does not match blocks of ", blockSize, " along axis ",
                       layout.axis, " of ", x);
      return failure();
    }
  }
  layout.kind = QuantParamLayout::Kind::Block;
  layout.blockSize = blockSize;
  return layout;
}

std::optional<std::pair<double, double>> ms::quantRange(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return std::nullopt;
  unsigned width = intType.getWidth();
  if (width != 2 && width != 4 && width != 8 && width != 16 && width != 32)
    return std::nullopt;
  if (intType.isUnsigned())
    return std::make_pair(0.0, std::ldexp(1.0, width) - 1.0);
  return std::make_pair(-std::ldexp(1.0, width - 1), std::ldexp(1.0, width - 1) - 1.0);
}

bool ms::isQuantFloat(Type type) {
  return isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type, Float8E5M2FNUZType,
             Float4E2M1FNType>(type);
}

std::pair<SmallVector<int64_t>, SmallVector<int64_t>> mlir::ms::moveAxisLast(int64_t rank,
                                                                             int64_t axis) {
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  SmallVector<int64_t> back(rank);
  for (int64_t d = 0; d < rank; ++d)
    back[perm[d]] = d;
  return {perm, back};
}
