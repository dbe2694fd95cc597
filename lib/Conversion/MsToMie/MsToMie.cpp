//===- MsToMie.cpp - the convert-ms-to-mie pass ---------------------------===//

#include "mie/Conversion/Passes.h"

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mie {
#define GEN_PASS_DEF_CONVERTMSTOMIEPASS
#include "mie/Conversion/Passes.h.inc"
} // namespace mlir::mie

using namespace mlir;

namespace mlir::mie {
namespace {

/// Tensors become identity-layout memrefs of the same shape; everything else is unchanged.
class TensorToBufferConverter : public TypeConverter {
public:
  TensorToBufferConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](RankedTensorType type) -> Type { return mstomie::bufferTypeFor(type); });
  }
};

struct ConvertMsToMiePass : impl::ConvertMsToMiePassBase<ConvertMsToMiePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    TensorToBufferConverter converter;
    RewritePatternSet patterns(ctx);
    mstomie::populateMsToMieElementwisePatterns(converter, patterns);
    mstomie::populateMsToMieNNPatterns(converter, patterns);
    mstomie::populateMsToMieTensorPatterns(converter, patterns);
    mstomie::populateMsToMieReducePatterns(converter, patterns);
    mstomie::populateMsToMieShapePatterns(converter, patterns);
    mstomie::populateMsToMieFusedPatterns(converter, patterns);
    mstomie::populateMsToMieAttentionPatterns(converter, patterns);
    mstomie::populateMsToMieIndexingPatterns(converter, patterns);
    mstomie::populateMsToMieScanPatterns(converter, patterns);
    mstomie::populateMsToMieRecurrentPatterns(converter, patterns);
    mstomie::populateMsToMieControlFlowPatterns(converter, patterns);
    mstomie::populateMsToMieDynamicShapePatterns(converter, patterns);
    mstomie::populateMsToMieRandomPatterns(converter, patterns);
    mstomie::populateMsToMieImagePatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);

    ConversionTarget target(*ctx);
    // Members of an ms.fused group are lowered with (and erased by) their group's pattern.
    target.addDynamicallyLegalDialect<ms::MsDialect>(
        [](Operation *op) { return op->getParentOfType<ms::FusedOp>() != nullptr; });
    target.addLegalOp<ModuleOp>();
    target.addLegalDialect<MieDialect, linalg::LinalgDialect, memref::MemRefDialect,
                           arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                           LLVM::LLVMDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) && converter.isLegal(&op.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });

    // Report every op without a lowering at its own location (the ONNX node), not just the first
    // one the conversion driver would stop at.
    FrozenRewritePatternSet frozen(std::move(patterns));
    const auto &covered = frozen.getOpSpecificNativePatterns();
    bool unsupported = false;
    auto targetAttr = getOperation()->getAttrOfType<TargetAttr>(MieDialect::getTargetAttrName());
    bool cuda = targetAttr && targetAttr.getKind() == TargetKind::cuda;
    getOperation().walk([&](Operation *op) {
      if (!isa<ms::MsDialect>(op->getDialect()) || op->getParentOfType<ms::FusedOp>())
        return;
      if (cuda && isa<ms::ImageDecodeOp>(op)) {
        op->emitError("ImageDecoder is not supported on cuda targets (the codecs run on the "
                      "host); compile for a cpu target");
        unsupported = true;
        return;
      }
      if (auto group = dyn_cast<ms::FusedOp>(op);
          group && failed(mstomie::checkLowerableGroup(group, true))) {
        unsupported = true;
        return;
      }
      if (!covered.count(op->getName())) {
        op->emitError() << "no lowering to mie for '" << op->getName() << "' yet";
        unsupported = true;
        return;
      }
      // Buffers hold unsigned values as signless integers; only lowerings that read the
      // signedness from the ms op take them (a fused group: each member).
      auto checkUnsigned = [&](Operation *o) {
        if (isa<ms::FusedOp, ms::YieldOp>(o) || mstomie::lowersUnsigned(o))
          return;
        for (Type t : llvm::concat<const Type>(o->getOperandTypes(), o->getResultTypes())) {
          if (!mstomie::isUnsignedType(t))
            continue;
          o->emitError() << "unsupported element type " << getElementTypeOrSelf(t) << " in '"
                         << o->getName() << "': unsigned integers are not lowered for it yet";
          unsupported = true;
          return;
        }
      };
      // The 8-bit and 4-bit floats are converted (ms.cast) and moved; an op that compares or orders
      // their values would reach LLVM with a type it has no arithmetic for.
      auto checkNarrowFloat = [&](Operation *o) {
        if (!isa<ms::CompareOp, ms::UniqueOp, ms::NonZeroOp, ms::ArgMaxOp, ms::ArgMinOp, ms::TopKOp,
                 ms::CumSumOp>(o))
          return;
        for (Type t : o->getOperandTypes()) {
          if (!mstomie::isNarrowFloat(getElementTypeOrSelf(t)))
            continue;
          o->emitError() << "unsupported element type " << getElementTypeOrSelf(t) << " in '"
                         << o->getName()
                         << "': 8-bit and 4-bit floats are only converted and moved";
          unsupported = true;
          return;
        }
      };
      checkUnsigned(op);
      checkNarrowFloat(op);
      if (auto group = dyn_cast<ms::FusedOp>(op))
        group.getBody().walk([&](Operation *member) {
          checkUnsigned(member);
          checkNarrowFloat(member);
        });
    });
    if (unsupported)
      return signalPassFailure();
    // The buffers of unsigned graph inputs and outputs are signless: the package's ABI table
    // reads their element types from this mark (see readPlan).
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (mstomie::isUnsignedType(func.getArgumentTypes()[i]))
          func.setArgAttr(i, "mie.unsigned", UnitAttr::get(ctx));
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        if (mstomie::isUnsignedType(func.getResultTypes()[i]))
          func.setResultAttr(i, "mie.unsigned", UnitAttr::get(ctx));
    }
    if (failed(applyFullConversion(getOperation(), target, frozen)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mie
