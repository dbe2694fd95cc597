//===- Decompose.cpp - the ms-decompose pass --------------------------------===//

#include "dialects/ms/Transforms/Passes.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSDECOMPOSEPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {
struct MsDecomposePass : impl::MsDecomposePassBase<MsDecomposePass> {
  void runOnOperation() override {
    // The ops the importer used to expand itself are expanded first, in program order and
    // without folding, so that the greedy driver below finds the IR the importer emitted: where
    // it hoists and merges constants depends on the order it meets them in, and that order is
    // the weights' layout in the package.
    RewritePatternSet importExpansions(&getContext());
    populateDecomposeSamplingPatterns(importExpansions);
    populateDecomposeSignalPatterns(importExpansions);
    populateDecomposeLossPatterns(importExpansions);
    populateDecomposeMlPatterns(importExpansions);
    populateDecomposeResizePatterns(importExpansions);
    populateDecomposeMathPatterns(importExpansions);
    populateDecomposeSequencePatterns(importExpansions);
    populateDecomposeNormPatterns(importExpansions);
    populateDecomposeIndexingPatterns(importExpansions);
    populateDecomposeMlEncoderPatterns(importExpansions);
    populateDecomposeTrainingPatterns(importExpansions);
    populateDecomposeRandomPatterns(importExpansions);
    populateDecomposeQuantPatterns(importExpansions);
    walkAndApplyPatterns(getOperation(), std::move(importExpansions));
    // The importer then erased the dense constants its folds had left unused in the function's
    // body (the operands of folded index arithmetic): so does this phase, for the same reason.
    if (!getOperation().getBody().empty())
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(getOperation().front())))
        if (auto constant = dyn_cast<ConstantOp>(op);
            constant && op.use_empty() && isa<DenseElementsAttr>(constant.getValue()))
          op.erase();

    RewritePatternSet patterns(&getContext());
    populateDecomposePatterns(patterns);
    populateDecomposeConvPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::ms
