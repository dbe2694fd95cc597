//===- ExpandMath.cpp - the mie-expand-math pass --------------------------===//

#include "dialects/mie/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEEXPANDMATHPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

struct MieExpandMathPass : impl::MieExpandMathPassBase<MieExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // f16/bf16 math is computed in f32, then approximated by polynomials (exp, log, tanh, erf,
    // ...).
    // Powers to exp/log first (not fma, which LLVM maps to the instruction), then polynomials
    // (exp, log, tanh, erf, ...).
    math::populateExpansionPatterns(patterns, {"powf", "fpowi"});
    populateMathPolynomialApproximationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mie
