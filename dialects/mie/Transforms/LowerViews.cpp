//===- LowerViews.cpp - the mie-lower-views pass --------------------------===//

#include "dialects/mie/Transforms/Passes.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIELOWERVIEWSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

struct MieLowerViewsPass : impl::MieLowerViewsPassBase<MieLowerViewsPass> {
  void runOnOperation() override {
    getOperation().walk([](ViewOp view) {
      OpBuilder b(view);
      Value shift = arith::ConstantIndexOp::create(b, view.getLoc(), view.getOffset());
      Value lowered = memref::ViewOp::create(b, view.getLoc(), view.getType(), view.getBase(),
                                             shift, ValueRange{});
      view.replaceAllUsesWith(lowered);
      view.erase();
    });
  }
};

} // namespace
} // namespace mlir::mie
