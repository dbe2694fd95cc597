//===- ExpandMath.cpp - the mie-expand-math pass --------------------------===//

#include "dialects/mie/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEEXPANDMATHPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// math.fma on bf16 (which math's extension to supported types leaves alone, since an f32 fma
/// rounds twice) computed in f32 and rounded once to bf16, as the rest of bf16 arithmetic is.
struct FmaOnBFloat16InF32 : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FmaOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isBF16())
      return failure();
    Type f32 = rewriter.getF32Type();
    Type wide = isa<VectorType>(type) ? cast<VectorType>(type).clone(f32) : f32;
    auto extend = [&](Value v) -> Value {
      return arith::ExtFOp::create(rewriter, op.getLoc(), wide, v);
    };
    Value fma = math::FmaOp::create(rewriter, op.getLoc(), extend(op.getA()), extend(op.getB()),
                                    extend(op.getC()));
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, fma);
    return success();
  }
};

struct MieExpandMathPass : impl::MieExpandMathPassBase<MieExpandMathPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Type bf16 = BFloat16Type::get(ctx), f32 = Float32Type::get(ctx);
    // bf16 math is computed in f32 (extended before the expansions below, so that what they do
    // not approximate, floor, absf, asin, ..., is on f32 too): LLVM would promote bf16 math to f32
    // and round back through libgcc's __truncsfbf2 (see below).
    TypeConverter mathConverter;
    SetVector<Type> supported;
    supported.insert(Float16Type::get(ctx));
    supported.insert(f32);
    supported.insert(Float64Type::get(ctx));
    math::populateExtendToSupportedTypesTypeConverter(mathConverter, supported, f32);
    ConversionTarget mathTarget(*ctx);
    // (A partial conversion: only math ops on types outside `supported` are illegal.)
    math::populateExtendToSupportedTypesConversionTarget(mathTarget, mathConverter);
    RewritePatternSet extend(ctx);
    math::populateExtendToSupportedTypesPatterns(extend, mathConverter);
    if (failed(applyPartialConversion(getOperation(), mathTarget, std::move(extend))))
      return signalPassFailure();
    RewritePatternSet patterns(ctx);
    // f16/bf16 math is computed in f32. Powers and the hyperbolic/tangent family become exp, log,
    // sin, cos (not fma, floor, ceil, trunc, roundeven: LLVM maps them to instructions on our
    // targets), then polynomials (exp, log, sin, cos, atan, asin, acos, tanh, erf, ...).
    math::populateExpansionPatterns(
        patterns, {"powf", "fpowi", "tan", "sinh", "cosh", "asinh", "acosh", "atanh"});
    populateMathPolynomialApproximationPatterns(patterns);
    patterns.add<FmaOnBFloat16InF32>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    // Targets without native bf16 arithmetic would round f32 -> bf16 through libgcc's
    // __truncsfbf2, which a loaded package cannot call: bf16 arithmetic is done in f32, and the
    // conversions become integer bit operations (round to nearest even).
    TypeConverter converter;
    arith::populateEmulateUnsupportedFloatsConversions(converter, {bf16}, f32);
    RewritePatternSet emulate(ctx);
    arith::populateEmulateUnsupportedFloatsPatterns(emulate, converter);
    ConversionTarget target(*ctx);
    arith::populateEmulateUnsupportedFloatsLegality(target, converter);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target, std::move(emulate))))
      return signalPassFailure();
    RewritePatternSet bf16Patterns(ctx);
    arith::populateExpandBFloat16Patterns(bf16Patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(bf16Patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mie
