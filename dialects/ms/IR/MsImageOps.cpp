//===- MsImageOps.cpp - ms.image_decode -------------------------------------===//
//
// The result type comes from the `height`, `width` and `pixel_format` attributes: the size of the
// images the compiled model decodes (docs/image-decoding.md).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

LogicalResult ImageDecodeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                              Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto encoded = cast<RankedTensorType>(adaptor.getEncoded().getType());
  if (encoded.getRank() != 1)
    return diag.error("expects 1-D encoded bytes, got ", encoded);
  int64_t height = adaptor.getHeight(), width = adaptor.getWidth();
  if (height <= 0 || width <= 0)
    return diag.error("expects a positive height and width, got ", height, "x", width);
  int64_t channels = adaptor.getPixelFormat() == PixelFormat::grayscale ? 1 : 3;
  results.push_back(RankedTensorType::get({height, width, channels},
                                          IntegerType::get(ctx, 8, IntegerType::Unsigned)));
  return success();
}
