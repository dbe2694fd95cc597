//===- GpuLibraryCalls.cpp - the mie-gpu-library-calls pass ---------------===//
//
// Convolutions and GEMMs of a cuda target go to cuDNN and cuBLASLt: far faster than the naive
// one-thread-per-output kernels the generic lowering gives them. The op stays as it is, wrapped in a
// kernel of its own, and becomes a call through the runtime's gpu api in mie-gpu-lower-launches.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/FlopCount.h"
#include "dialects/mie/Utils/KernelBuilders.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEGPULIBRARYCALLSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Whether `v` is a static identity-layout buffer of f32, f16 or bf16 (what both libraries read as
/// a dense row-major / NCHW array).
bool isDenseFloatBuffer(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.hasStaticShape() && type.getLayout().isIdentity() &&
         (type.getElementType().isF32() || type.getElementType().isF16() ||
          type.getElementType().isBF16());
}

/// Whether every buffer of `op` is dense, of one element type, summed in f32 (or in that type).
bool hasLibraryBuffers(Operation *op, std::optional<Type> accumulator) {
  Type element = cast<MemRefType>(op->getOperand(0).getType()).getElementType();
  for (Value v : op->getOperands())
    if (!isDenseFloatBuffer(v) || cast<MemRefType>(v.getType()).getElementType() != element)
      return false;
  return !accumulator || accumulator->isF32() || *accumulator == element;
}

/// The part of `epilogue` a library applies (`fused`) and what a generated kernel applies after it
/// (`rest`, the identity when nothing is left). Bias and residual always fuse; the activation when
/// it is one of `activations`; the clamp never.
void splitEpilogue(EpilogueAttr epilogue, ArrayRef<Activation> activations, EpilogueAttr &fused,
                   EpilogueAttr &rest) {
  MLIRContext *ctx = epilogue.getContext();
  Activation act = epilogue.getActivation();
  bool fuseActivation = act == Activation::none || llvm::is_contained(activations, act);
  fused = EpilogueAttr::get(ctx, epilogue.getBias(), epilogue.getResidual(),
                            fuseActivation ? act : Activation::none);
  rest = EpilogueAttr::get(ctx, false, false, fuseActivation ? Activation::none : act,
                           epilogue.getClamp());
}

struct MieGpuLibraryCallsPass : impl::MieGpuLibraryCallsPassBase<MieGpuLibraryCallsPass> {
  using Base::Base;

  /// Replaces `op` by a kernel `name` holding it, marked for `library`, with the fused part of its
  /// epilogue, followed by the rest applied in place on its output.
  void wrap(Operation *op, StringRef name, StringRef library, EpilogueAttr fused,
            EpilogueAttr rest) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    // Operands are (ins..., output): the output is the last one for both ops.
    ValueRange operands = op->getOperands();
    int64_t flops = countLibraryOpFlops(op);
    auto kernel = KernelOp::create(
        b, loc, name, operands.drop_back(), operands.take_back(),
        [&](OpBuilder &kb, Location kl, ValueRange args) {
          IRMapping mapping;
          mapping.map(operands, args);
          Operation *call = kb.clone(*op, mapping);
          call->setAttr("epilogue", fused);
          call->setAttr(kGpuLibraryAttrName, kb.getStringAttr(library));
          if (rest.isIdentity())
            return;
          Value out = args.back();
          int64_t rank = cast<MemRefType>(out.getType()).getRank();
          SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, kb.getContext())};
          SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
          linalg::GenericOp::create(kb, kl, ValueRange{}, out, maps, iters,
                                    [&](OpBuilder &gb, Location gl, ValueRange e) {
                                      linalg::YieldOp::create(
                                          gb, gl,
                                          emitEpilogue(gb, gl, rest, e[0], Value(), Value()));
                                    });
        });
    kernel->setAttr(MieDialect::getFlopsAttrName(), b.getI64IntegerAttr(flops));
    op->erase();
  }

  bool servedByCublasLt(GemmOp gemm) {
    return !gemm.getUkernel() && !gemm.getBPacked() && !gemm.getTransC() &&
           hasLibraryBuffers(gemm, gemm.getAccumulator());
  }

  bool servedByCudnn(Conv2dOp conv) {
    ArrayRef<int64_t> pads = conv.getPads();
    auto filter = cast<MemRefType>(conv.getFilter().getType());
    return !conv.getUkernel() && !conv.getFilterShape() && filter.getRank() == 4 &&
           pads.size() == 4 && pads[0] == pads[2] && pads[1] == pads[3] &&
           hasLibraryBuffers(conv, conv.getAccumulator());
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target = module->getAttrOfType<TargetAttr>(MieDialect::getTargetAttrName());
    if (!target || target.getKind() != TargetKind::cuda)
      return;
    llvm::StringSet<> enabled;
    SmallVector<StringRef> names;
    StringRef(libraries).split(names, ',', -1, false);
    for (StringRef name : names) {
      name = name.trim();
      if (name != "cublaslt" && name != "cudnn" && name != "none") {
        module.emitError("mie-gpu-library-calls: unknown library '")
            << name << "' (expected cublaslt, cudnn or none)";
        return signalPassFailure();
      }
      enabled.insert(name);
    }
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<GemmOp, Conv2dOp>(op) && !isGpuLibraryCall(op) && !op->getParentOfType<KernelOp>())
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      EpilogueAttr fused, rest;
      if (auto gemm = dyn_cast<GemmOp>(op)) {
        if (!enabled.contains("cublaslt") || !servedByCublasLt(gemm))
          continue;
        splitEpilogue(gemm.getEpilogue(), {Activation::relu, Activation::gelu_tanh}, fused, rest);
        wrap(op, "gemm_cublaslt", "cublaslt", fused, rest);
      } else if (auto conv = dyn_cast<Conv2dOp>(op)) {
        if (!enabled.contains("cudnn") || !servedByCudnn(conv))
          continue;
        splitEpilogue(conv.getEpilogue(), {Activation::relu}, fused, rest);
        wrap(op, "conv2d_cudnn", "cudnn", fused, rest);
      }
    }
  }
};

} // namespace
} // namespace mlir::mie
