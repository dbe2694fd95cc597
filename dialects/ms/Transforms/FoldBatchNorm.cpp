//===- FoldBatchNorm.cpp - the ms-fold-batchnorm pass ---------------------===//

#include "dialects/ms/Transforms/Patterns.h"
#include "dialects/ms/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSFOLDBATCHNORMPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {
struct MsFoldBatchNormPass : impl::MsFoldBatchNormPassBase<MsFoldBatchNormPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldBatchNormPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::ms
