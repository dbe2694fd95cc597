//===- MsRandomOps.cpp - ms.random_uniform, ms.random_normal ------------------===//
//
// The result type comes from the `shape` and `element_type` attributes; the distribution's
// parameters are checked here so that a bad model fails at import, not with NaNs at run time.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ms;

namespace {

/// The result type of a random op: static `shape` of a float `elementType`.
LogicalResult inferRandomType(const InferDiag &diag, ArrayRef<int64_t> shape, Type elementType,
                              std::optional<double> seed, SmallVectorImpl<Type> &results) {
  if (!isa_and_nonnull<Float16Type, BFloat16Type, Float32Type, Float64Type>(elementType))
    return diag.error("expects element_type f16, bf16, f32 or f64, got ", elementType);
  for (int64_t d : shape)
    if (d < 0)
      return diag.error("expects a static shape of extents >= 0");
  if (seed && !std::isfinite(*seed))
    return diag.error("expects a finite seed");
  results.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

} // namespace

LogicalResult RandomUniformOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  double low = adaptor.getLow().convertToDouble(), high = adaptor.getHigh().convertToDouble();
  if (!std::isfinite(low) || !std::isfinite(high) || low > high)
    return diag.error("expects finite bounds with low <= high, got [", low, ", ", high, ")");
  std::optional<double> seed;
  if (adaptor.getSeedAttr())
    seed = adaptor.getSeedAttr().getValueAsDouble();
  return inferRandomType(diag, adaptor.getShape(), adaptor.getElementType(), seed, results);
}

LogicalResult RandomNormalOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  double mean = adaptor.getMean().convertToDouble(), scale = adaptor.getScale().convertToDouble();
  if (!std::isfinite(mean) || !std::isfinite(scale))
    return diag.error("expects a finite mean and scale, got ", mean, " and ", scale);
  std::optional<double> seed;
  if (adaptor.getSeedAttr())
    seed = adaptor.getSeedAttr().getValueAsDouble();
  return inferRandomType(diag, adaptor.getShape(), adaptor.getElementType(), seed, results);
}
