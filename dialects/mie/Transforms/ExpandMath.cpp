//===- ExpandMath.cpp - the mie-expand-math pass --------------------------===//

#include "dialects/mie/Transforms/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEEXPANDMATHPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

struct MieExpandMathPass : impl::MieExpandMathPassBase<MieExpandMathPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    // f16/bf16 math is computed in f32. Powers and the hyperbolic/tangent family become exp, log,
    // sin, cos (not fma, floor, ceil, trunc, roundeven: LLVM maps them to instructions on our
    // targets), then polynomials (exp, log, sin, cos, atan, asin, acos, tanh, erf, ...).
    math::populateExpansionPatterns(
        patterns, {"powf", "fpowi", "tan", "sinh", "cosh", "asinh", "acosh", "atanh"});
    populateMathPolynomialApproximationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    // Targets without native bf16 arithmetic would round f32 -> bf16 through libgcc's
    // __truncsfbf2, which a loaded package cannot call: bf16 arithmetic is done in f32, and the
    // conversions become integer bit operations (round to nearest even).
    Type bf16 = BFloat16Type::get(ctx), f32 = Float32Type::get(ctx);
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
