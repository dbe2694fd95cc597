//===- AssignPrecision.cpp - the ms-assign-precision pass -----------------===//

#include "dialects/ms/Transforms/Passes.h"
#include "dialects/ms/Transforms/PrecisionAssignment.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSASSIGNPRECISIONPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {
struct MsAssignPrecisionPass : impl::MsAssignPrecisionPassBase<MsAssignPrecisionPass> {
  using impl::MsAssignPrecisionPassBase<MsAssignPrecisionPass>::MsAssignPrecisionPassBase;

  void runOnOperation() override {
    std::string error;
    FailureOr<PrecisionConfig> config =
        parsePrecisionConfig(precision, mixedType, keepFp32, forceReduced, quantizeMethod, error);
    if (failed(config)) {
      getOperation().emitError("ms-assign-precision: ") << error;
      return signalPassFailure();
    }
    if (failed(assignPrecision(getOperation(), *config)))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::ms
