//===- WidenAccumulation.cpp - the mie-widen-accumulation pass ------------===//
//
// The narrow products that precision assignment creates and no microkernel took (mie-select-kernels
// gives the others reduced-precision tiles or widens them for the f32 ones) run on the portable
// path; this pass makes that path accumulate in f32 (see Passes.td) without touching the lowering
// of library kernels.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Transforms/WidenOperands.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEWIDENACCUMULATIONPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

struct MieWidenAccumulationPass : impl::MieWidenAccumulationPassBase<MieWidenAccumulationPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, Type>> work;
    getOperation().walk([&](Operation *op) {
      // A GPU library sums in f32 whatever the buffers are.
      if (isGpuLibraryCall(op))
        return;
      if (auto conv = dyn_cast<Conv2dOp>(op); conv && conv.getUkernel())
        return;
      if (auto gemm = dyn_cast<GemmOp>(op); gemm && gemm.getUkernel())
        return;
      if (Type wide = wideAccumulatorOf(op))
        work.push_back({op, wide});
    });
    SymbolTable symbols(getOperation());
    for (auto [op, wide] : work)
      widenToF32(op, wide, symbols);
  }
};

} // namespace
} // namespace mlir::mie
