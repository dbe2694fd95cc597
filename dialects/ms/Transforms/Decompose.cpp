//===- Decompose.cpp - the ms-decompose pass --------------------------------===//

#include "dialects/ms/Transforms/Passes.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSDECOMPOSEPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {
struct MsDecomposePass : impl::MsDecomposePassBase<MsDecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposePatterns(patterns);
    populateDecomposeConvPatterns(patterns);
    populateDecomposeSamplingPatterns(patterns);
    populateDecomposeSignalPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::ms
