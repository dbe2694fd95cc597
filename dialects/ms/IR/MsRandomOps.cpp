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

LogicalResult BernoulliOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (!type.hasStaticShape())
    return diag.error("expects probabilities of a static shape, got ", type);
  Type et = adaptor.getElementType();
  if (!isa_and_nonnull<FloatType, IntegerType>(et))
    return diag.error("expects a numeric element_type, got ", et);
  if (adaptor.getSeedAttr() && !std::isfinite(adaptor.getSeedAttr().getValueAsDouble()))
    return diag.error("expects a finite seed");
  results.push_back(type.clone(et));
  return success();
}

LogicalResult MultinomialOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                              Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (type.getRank() != 2 || !type.hasStaticShape())
    return diag.error("expects float log-probabilities of static shape [batch, classes], got ",
                      type);
  if (type.getDimSize(1) < 1)
    return diag.error("expects at least one class, got ", type);
  int64_t samples = adaptor.getSampleSize();
  if (samples < 1)
    return diag.error("expects sample_size >= 1, got ", samples);
  Type et = adaptor.getElementType();
  if (!et || !(et.isSignlessInteger(32) || et.isSignlessInteger(64)))
    return diag.error("expects element_type i32 or i64, got ", et);
  if (adaptor.getSeedAttr() && !std::isfinite(adaptor.getSeedAttr().getValueAsDouble()))
    return diag.error("expects a finite seed");
  results.push_back(RankedTensorType::get({type.getDimSize(0), samples}, et));
  return success();
}
