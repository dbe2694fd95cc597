//===- MsShapeUtils.h - shape arithmetic shared by ms ops -------*- C++ -*-===//
//
// Helpers for result-type inference. They take an optional location: with one they report why a
// shape is invalid, without one (speculative inference) they fail silently.
//
//===----------------------------------------------------------------------===//

#ifndef MS_IR_MSSHAPEUTILS_H
#define MS_IR_MSSHAPEUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::ms {

/// Where and for which op result-type inference reports problems. Inference runs as part of
/// verification (the verifier compares written and inferred types), so its diagnostics are phrased
/// like verifier errors: "'ms.conv2d' op expects ...". Without a location (speculative inference
/// from builders) nothing is reported.
class InferDiag {
public:
  InferDiag(std::optional<Location> loc, StringRef opName) : loc(loc), opName(opName) {}

  template <typename... Args>
  LogicalResult error(Args &&...args) const {
    return emitOptionalError(loc, "'", opName, "' op ", std::forward<Args>(args)...);
  }

private:
  std::optional<Location> loc;
  StringRef opName;
};

/// Numpy broadcasting of two shapes; dynamic dims broadcast with 1 or with themselves.
FailureOr<SmallVector<int64_t>> broadcastShapes(const InferDiag &diag, ArrayRef<int64_t> lhs,
                                                ArrayRef<int64_t> rhs);

/// Maps `axis` in [-rank, rank) to [0, rank); reports `what` on failure.
FailureOr<int64_t> normalizeAxis(const InferDiag &diag, int64_t axis, int64_t rank,
                                 StringRef what = "axis");

/// The axis attribute of a verified op (an I64Attr, read back as uint64_t: a negative axis is a
/// huge unsigned value) in [0, rank).
inline int64_t positiveAxis(uint64_t axis, int64_t rank) {
  int64_t signedAxis = static_cast<int64_t>(axis);
  return signedAxis < 0 ? signedAxis + rank : signedAxis;
}

/// Normalizes a list of axes (each in [-rank, rank), no duplicates) to sorted non-negative values.
FailureOr<SmallVector<int64_t>> normalizeAxes(const InferDiag &diag, ArrayRef<int64_t> axes,
                                              int64_t rank, StringRef what = "axes");

/// Whether `axes` (normalized, ascending) is one axis or the dims from one axis to the last: the
/// axes of ONNX's softmax-like ops (one axis, or the 2-D coercion before opset 13).
bool isAxisOrTrailingAxes(ArrayRef<int64_t> axes, int64_t rank);

/// Where a quantization parameter (scale or zero point) of a tensor applies: per tensor (a
/// scalar or one-element 1-D tensor), per axis (1-D with the tensor's extent along `axis`) or per
/// block (the tensor's rank, ceil(extent / blockSize) along `axis`, its extent elsewhere).
struct QuantParamLayout {
  enum class Kind { Tensor, Axis, Block } kind = Kind::Tensor;
  int64_t axis = 0;
  int64_t blockSize = 0;
};

/// The layout of `param` against `x` for ONNX's `axis` and `block_size`; the axis is normalized
/// (and checked) only where the parameter is not per tensor, as ONNX reads it.
FailureOr<QuantParamLayout> quantParamLayout(const InferDiag &diag, RankedTensorType x,
                                             RankedTensorType param, int64_t axis,
                                             int64_t blockSize, StringRef what);

/// The range of an integer type ONNX quantizes to (2, 4, 8, 16 or 32 bits), or nullopt.
std::optional<std::pair<double, double>> quantRange(Type type);

/// Whether `type` is an 8-bit float ONNX quantizes to (the E4M3 and E5M2 kinds) or FLOAT4E2M1:
/// the quantized value is x / scale converted to it (saturating or not) rather than rounded and
/// clipped to an integer range.
bool isQuantFloat(Type type);

/// Product of static dims, or ShapedType::kDynamic if any is dynamic.
int64_t shapeProduct(ArrayRef<int64_t> shape);

/// Renders a shape as "2x?x3" for diagnostics.
std::string shapeToString(ArrayRef<int64_t> shape);

/// Checks that `array` has `expected` entries; reports "expects <name> to have N entries, got M".
LogicalResult checkArraySize(const InferDiag &diag, StringRef name, ArrayRef<int64_t> array,
                             size_t expected);

/// Checks that every entry of `array` is >= `min`.
LogicalResult checkArrayMin(const InferDiag &diag, StringRef name, ArrayRef<int64_t> array,
                            int64_t min);

/// Size of a sliding-window output dim (convolution/pooling), or kDynamic for a dynamic input.
int64_t windowOutputSize(int64_t input, int64_t padBefore, int64_t padAfter, int64_t kernel,
                         int64_t stride, int64_t dilation, bool ceilMode);

/// The permutation that moves `axis` of a rank-`rank` tensor last (the others in order), and its
/// inverse: a product along one axis as a MatMul on the last one, then back.
std::pair<SmallVector<int64_t>, SmallVector<int64_t>> moveAxisLast(int64_t rank, int64_t axis);

} // namespace mlir::ms

#endif // MS_IR_MSSHAPEUTILS_H
