//===- MsToMieElementwise.cpp - elementwise ms ops -> generated kernels ---===//
//
// Every elementwise ms op (broadcasting binaries, compare, where, unaries, cast) becomes one
// mie.kernel holding one linalg.generic; batch_norm becomes the same kind of kernel with its
// per-channel parameters broadcast along dim 1.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

/// Lowers any ms op whose scalar body emitElementwiseScalar knows.
template <typename OpTy>
struct ElementwiseToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out = allocResult(rewriter, loc, op);
    Operation *msOp = op.getOperation();
    buildElementwiseKernel(rewriter, loc, OpTy::getOperationName().drop_front(3),
                           adaptor.getOperands(), out,
                           [&](OpBuilder &b, Location l, ValueRange args, Type resultType) {
                             return emitElementwiseScalar(msOp, b, l, args, resultType);
                           });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// y = (x - mean) * scale / sqrt(var + eps) + bias with the parameters read along dim 1.
struct BatchNormToKernel : OpConversionPattern<ms::BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::BatchNormOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out = allocBuffer(rewriter, loc, op.getType());
    int64_t rank = op.getType().getRank();
    double eps = op.getEpsilon().convertToDouble();
    SmallVector<Value> ins = {adaptor.getInput(), adaptor.getScale(), adaptor.getBias(),
                              adaptor.getMean(), adaptor.getVariance()};
    KernelOp::create(
        rewriter, loc, "batch_norm", ins, out, [&](OpBuilder &b, Location l, ValueRange args) {
          MLIRContext *ctx = b.getContext();
          AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
          AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(1, ctx));
          SmallVector<AffineMap> maps = {id, channel, channel, channel, channel, id};
          SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
          linalg::GenericOp::create(
              b, l, args.drop_back(), args.back(), maps, iters,
              [&](OpBuilder &gb, Location gl, ValueRange e) {
                Type t = e[0].getType();
                Value var = arith::AddFOp::create(gb, gl, e[4], scalarConstant(gb, gl, t, eps));
                Value inv = math::RsqrtOp::create(gb, gl, var);
                Value centered = arith::SubFOp::create(gb, gl, e[0], e[3]);
                Value scaled = arith::MulFOp::create(gb, gl, centered,
                                                     arith::MulFOp::create(gb, gl, e[1], inv));
                linalg::YieldOp::create(gb, gl, (Value)arith::AddFOp::create(gb, gl, scaled, e[2]));
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

template <typename... Ops>
void addElementwisePatterns(TypeConverter &converter, RewritePatternSet &patterns,
                            std::tuple<Ops...> *) {
  patterns.add<ElementwiseToKernel<Ops>...>(converter, patterns.getContext());
}

} // namespace

void mstomie::populateMsToMieElementwisePatterns(TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  addElementwisePatterns(converter, patterns, static_cast<ms::ElementwiseOps *>(nullptr));
  patterns.add<BatchNormToKernel>(converter, ctx);
}
