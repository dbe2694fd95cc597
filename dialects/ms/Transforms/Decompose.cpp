//===- Decompose.cpp - the ms-decompose pass --------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Passes.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSDECOMPOSEPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {
/// The expansions of the ops the importer used to expand itself.
void populateImportExpansions(RewritePatternSet &patterns) {
  populateDecomposeSamplingPatterns(patterns);
  populateDecomposeSignalPatterns(patterns);
  populateDecomposeLossPatterns(patterns);
  populateDecomposeMlPatterns(patterns);
  populateDecomposeResizePatterns(patterns);
  populateDecomposeMathPatterns(patterns);
  populateDecomposeSequencePatterns(patterns);
  populateDecomposeNormPatterns(patterns);
  populateDecomposeIndexingPatterns(patterns);
  populateDecomposeMlEncoderPatterns(patterns);
  populateDecomposeTrainingPatterns(patterns);
  populateDecomposeRandomPatterns(patterns);
  populateDecomposeQuantPatterns(patterns);
}

struct MsDecomposePass : impl::MsDecomposePassBase<MsDecomposePass> {
  void runOnOperation() override {
    // The ops the importer used to expand itself are expanded first, in program order and
    // without folding, so that the greedy driver below finds the IR the importer emitted: where
    // it hoists and merges constants depends on the order it meets them in, and that order is
    // the weights' layout in the package.
    RewritePatternSet importExpansions(&getContext());
    populateImportExpansions(importExpansions);
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

Value expandImportComposite(Operation *op, function_ref<DenseElementsAttr(Value)> constantOf) {
  RewritePatternSet patterns(op->getContext());
  populateImportExpansions(patterns);
  FrozenRewritePatternSet frozen(std::move(patterns));
  PatternApplicator applicator(frozen);
  applicator.applyDefaultCostModel();
  // The value that replaced `op`, seen through a listener (the op is gone afterwards).
  struct Replacement : RewriterBase::Listener {
    Operation *target;
    Value value;
    void notifyOperationReplaced(Operation *replaced, ValueRange values) override {
      if (replaced == target)
        value = values.front();
    }
  } replacement;
  replacement.target = op;
  PatternRewriter rewriter(op->getContext());
  rewriter.setListener(&replacement);
  rewriter.setInsertionPoint(op);
  Value result = op->getResult(0);
  importConstantReader = &constantOf;
  LogicalResult expanded = applicator.matchAndRewrite(op, rewriter);
  importConstantReader = nullptr;
  return succeeded(expanded) ? replacement.value : result;
}
} // namespace mlir::ms
