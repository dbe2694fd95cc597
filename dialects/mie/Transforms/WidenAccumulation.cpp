//===- WidenAccumulation.cpp - the mie-widen-accumulation pass ------------===//
//
// Until the f16/bf16 microkernels take an f32 accumulator themselves, the narrow products that
// precision assignment creates run on the portable path; this pass makes that path accumulate in
// f32 (see Passes.td) without touching the lowering of library kernels.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/IR/MieOps.h"
#include "dialects/mie/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEWIDENACCUMULATIONPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// A kernel converting every element of `from` into `to` (same shape, float types).
void buildConvertKernel(OpBuilder &b, Location loc, StringRef name, Value from, Value to) {
  auto toType = cast<MemRefType>(to.getType());
  int64_t rank = toType.getRank();
  Type et = toType.getElementType();
  bool widen = cast<FloatType>(et).getWidth() >
               cast<FloatType>(cast<MemRefType>(from.getType()).getElementType()).getWidth();
  KernelOp::create(b, loc, name, ValueRange{from}, ValueRange{to},
                   [&](OpBuilder &kb, Location kl, ValueRange args) {
                     AffineMap id = AffineMap::getMultiDimIdentityMap(rank, kb.getContext());
                     linalg::GenericOp::create(
                         kb, kl, args[0], args[1], SmallVector<AffineMap>{id, id},
                         SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
                         [&](OpBuilder &gb, Location gl, ValueRange e) {
                           Value v = widen ? (Value)arith::ExtFOp::create(gb, gl, et, e[0])
                                           : (Value)arith::TruncFOp::create(gb, gl, et, e[0]);
                           linalg::YieldOp::create(gb, gl, v);
                         });
                   });
}

/// Whether `op` (conv2d or gemm) takes the portable path with a narrow element type and a wider
/// accumulator: the f32 type to widen to, else null.
Type wideAccumulator(Operation *op, Value output, std::optional<Type> accumulator, bool tiled) {
  if (tiled || !accumulator)
    return Type();
  auto et = dyn_cast<FloatType>(cast<MemRefType>(output.getType()).getElementType());
  auto acc = dyn_cast<FloatType>(*accumulator);
  if (!et || !acc || et.getWidth() > 16 || acc.getWidth() <= et.getWidth())
    return Type();
  return acc;
}

/// Replaces the buffer operands of `op` by wide copies and its output by a wide scratch buffer
/// rounded back after it; clears the accumulator.
void widen(Operation *op, Type wide, unsigned outputIndex) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = cast<MemRefType>(operand.get().getType());
    Value scratch = AllocOp::create(b, loc, MemRefType::get(type.getShape(), wide));
    if (operand.getOperandNumber() != outputIndex)
      buildConvertKernel(b, loc, "widen", operand.get(), scratch);
    else {
      OpBuilder after(op->getContext());
      after.setInsertionPointAfter(op);
      buildConvertKernel(after, loc, "narrow", scratch, operand.get());
    }
    operand.set(scratch);
  }
  op->removeAttr("accumulator");
}

struct MieWidenAccumulationPass : impl::MieWidenAccumulationPassBase<MieWidenAccumulationPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, Type>> work;
    getOperation().walk([&](Operation *op) {
      if (auto conv = dyn_cast<Conv2dOp>(op)) {
        if (Type wide = wideAccumulator(op, conv.getOutput(), conv.getAccumulator(),
                                        conv.getTiling() || conv.getUkernel()))
          work.push_back({op, wide});
      } else if (auto gemm = dyn_cast<GemmOp>(op)) {
        if (Type wide = wideAccumulator(op, gemm.getOutput(), gemm.getAccumulator(),
                                        (bool)gemm.getTiling()))
          work.push_back({op, wide});
      }
    });
    for (auto [op, wide] : work) {
      Value output =
          isa<Conv2dOp>(op) ? cast<Conv2dOp>(op).getOutput() : cast<GemmOp>(op).getOutput();
      unsigned outputIndex = 0;
      for (OpOperand &operand : op->getOpOperands())
        if (operand.get() == output)
          outputIndex = operand.getOperandNumber();
      widen(op, wide, outputIndex);
    }
  }
};

} // namespace
} // namespace mlir::mie
