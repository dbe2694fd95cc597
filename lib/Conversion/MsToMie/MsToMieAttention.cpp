//===- MsToMieAttention.cpp - ms.attention -> mie.attention ---------------===//
//
// Attention becomes the library op `mie.attention` on the operands' buffers: mie-select-kernels
// puts it on the fused attention microkernel of the target's ISA, mie-lower-library-kernels emits
// that call or the portable loops.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

struct AttentionToLibraryOp : OpConversionPattern<ms::AttentionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::AttentionOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto qType = cast<RankedTensorType>(op.getQuery().getType());
    auto kType = cast<RankedTensorType>(op.getKey().getType());
    auto vType = cast<RankedTensorType>(op.getValue().getType());
    // Dynamic dims only in code for symbolic dims, which records the result's dims.
    bool sized = op->hasAttr(kResultDimsAttrName) ||
                 (qType.hasStaticShape() && kType.hasStaticShape() && vType.hasStaticShape());
    if (!sized || !qType.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "expects f32 operands of known dims");
    Value out = allocResult(rewriter, op.getLoc(), op.getOperation());
    AttentionOp::create(rewriter, op.getLoc(), adaptor.getQuery(), adaptor.getKey(),
                        adaptor.getValue(), adaptor.getMask(), out, op.getScaleAttr(),
                        op.getTokenMajorAttr(), /*ukernel=*/UKernelAttr(), op.getCausalAttr(),
                        /*query_rows=*/IntegerAttr());
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieAttentionPatterns(TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<AttentionToLibraryOp>(converter, patterns.getContext());
}
