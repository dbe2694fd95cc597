//===- FuseEpilogues.cpp - the ms-fuse-epilogues pass ---------------------===//

#include "dialects/ms/Transforms/EpilogueChain.h"
#include "dialects/ms/Transforms/FusionUtils.h"
#include "dialects/ms/Transforms/Passes.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSFUSEEPILOGUESPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {
struct MsFuseEpiloguesPass : impl::MsFuseEpiloguesPassBase<MsFuseEpiloguesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> anchors;
    getOperation().walk([&](Operation *op) {
      if (!op->getParentOfType<FusedOp>() && isEpilogueAnchor(op))
        anchors.push_back(op);
    });
    for (Operation *anchor : anchors) {
      EpilogueChain chain = matchEpilogueChain(anchor);
      if (chain.members.size() > 1)
        wrapInFusedOp(rewriter, chain.members);
    }
  }
};
} // namespace
} // namespace mlir::ms
