//===- AssignLayout.cpp - the ms-assign-layout pass -----------------------===//

#include "dialects/ms/Transforms/LayoutAssignment.h"
#include "dialects/ms/Transforms/Passes.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSASSIGNLAYOUTPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {
struct MsAssignLayoutPass : impl::MsAssignLayoutPassBase<MsAssignLayoutPass> {
  using impl::MsAssignLayoutPassBase<MsAssignLayoutPass>::MsAssignLayoutPassBase;

  void runOnOperation() override {
    if (layout == "nchw")
      return;
    if (layout != "nhwc") {
      getOperation().emitError("ms-assign-layout: unknown layout '")
          << layout << "' (expected nhwc or nchw)";
      return signalPassFailure();
    }
    if (failed(assignChannelsLast(getOperation())))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::ms
