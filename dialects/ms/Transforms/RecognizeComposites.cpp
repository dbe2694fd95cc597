//===- RecognizeComposites.cpp - the ms-recognize-composites pass ---------===//

#include "dialects/ms/Transforms/Passes.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSRECOGNIZECOMPOSITESPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {
struct MsRecognizeCompositesPass
    : impl::MsRecognizeCompositesPassBase<MsRecognizeCompositesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateNormalizationPatterns(patterns);
    populateAttentionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::ms
