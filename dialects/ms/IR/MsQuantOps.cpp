//===- MsQuantOps.cpp - ms.dynamic_quantize_linear -------------------------===//
//
// Result types of the quantization ops `ms-decompose` expands (DecomposeQuantPatterns.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

LogicalResult DynamicQuantizeLinearOp::inferReturnTypes(MLIRContext *ctx,
                                                        std::optional<Location> loc,
                                                        Adaptor adaptor,
                                                        SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (!type.getElementType().isF32())
    return diag.error("expects f32 x, got ", type);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  results.push_back(type.clone(u8));
  results.push_back(RankedTensorType::get({}, Float32Type::get(ctx)));
  results.push_back(RankedTensorType::get({}, u8));
  return success();
}
