//===- MsToMie.cpp - the convert-ms-to-mie pass ---------------------------===//

#include "mie/Conversion/Passes.h"

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"
#include "dialects/ms/Transforms/EpilogueChain.h"
#include "dialects/ms/Transforms/FusionUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
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

/// A product the library GEMM computes over run-time rows: every dim of the left operand but its
/// last (the rows, collapsed) may be symbolic; K and the right operand (a matrix) are static.
bool isRowsProduct(Operation *op) {
  auto isStatic = [](Value v) { return cast<RankedTensorType>(v.getType()).hasStaticShape(); };
  if (auto matmul = dyn_cast<ms::MatMulOp>(op)) {
    auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
    auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
    return lhs.getRank() >= 2 && rhs.getRank() == 2 && rhs.hasStaticShape() &&
           !lhs.isDynamicDim(lhs.getRank() - 1);
  }
  if (auto gemm = dyn_cast<ms::GemmOp>(op)) {
    auto a = cast<RankedTensorType>(gemm.getA().getType());
    return !gemm.getTransA() && !a.isDynamicDim(1) && isStatic(gemm.getB()) &&
           (!gemm.getC() || isStatic(gemm.getC()));
  }
  return false;
}

/// Whether every axis of a reduction `op` (ms.reduce_*) is a static dim of its input: the count
/// a mean divides by is then a constant, and the symbolic dims are among the kept ones.
bool reducesStaticDims(Operation *op) {
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  auto axes = cast<DenseI64ArrayAttr>(op->getAttr("axes")).asArrayRef();
  if (axes.empty())
    return type.hasStaticShape();
  return llvm::all_of(axes, [&](int64_t a) {
    return !type.isDynamicDim(a < 0 ? a + type.getRank() : a);
  });
}

/// The dims of a reduction's input (its reduced dims static: reducesStaticDims) from those of its
/// result, `resultDims`.
SmallVector<AffineExpr> reducedInputDims(Operation *reduction, ArrayRef<AffineExpr> resultDims) {
  auto type = cast<RankedTensorType>(reduction->getOperand(0).getType());
  auto axes = cast<DenseI64ArrayAttr>(reduction->getAttr("axes")).asArrayRef();
  const bool keepDims = reduction->hasAttr("keep_dims");
  SmallVector<AffineExpr> dims;
  size_t kept = 0;
  for (int64_t d = 0, rank = type.getRank(); d < rank; ++d) {
    bool reduced =
        axes.empty() || llvm::any_of(axes, [&](int64_t a) { return (a < 0 ? a + rank : a) == d; });
    if (reduced) {
      dims.push_back(getAffineConstantExpr(type.getDimSize(d), reduction->getContext()));
      kept += keepDims;
    } else {
      dims.push_back(kept < resultDims.size() ? resultDims[kept] : AffineExpr());
      ++kept;
    }
  }
  return dims;
}

/// The first dim of `operand` that is `?` and not the dim of `reference` (the dims it is
/// broadcast to, right-aligned) it lines up with: one that could be 1 at run time and broadcast,
/// which code for every shape does not take yet. None where every `?` is its reference's.
std::optional<int64_t> mayBroadcastDim(ms::SymbolicShapes &shapes, Value operand,
                                       ArrayRef<AffineExpr> reference) {
  auto type = dyn_cast<RankedTensorType>(operand.getType());
  if (!type || type.hasStaticShape())
    return std::nullopt;
  ArrayRef<AffineExpr> in = shapes.dims(operand);
  size_t shift = reference.size() - in.size();
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size) && (!in[d] || in[d] != reference[shift + d]))
      return d;
  return std::nullopt;
}

/// A convolution or pooling over a run-time batch: f32, every dim but the batch static.
bool isRunTimeBatchImageOp(Operation *op) {
  if (!isa<ms::Conv2dOp, ms::MaxPoolOp, ms::AvgPoolOp, ms::GlobalAvgPoolOp>(op))
    return false;
  auto batchOnly = [](Type t) {
    auto type = cast<RankedTensorType>(t);
    return type.getElementType().isF32() && type.getRank() == 4 &&
           llvm::none_of(llvm::seq<int64_t>(1, 4), [&](int64_t d) { return type.isDynamicDim(d); });
  };
  return batchOnly(op->getOperand(0).getType()) && batchOnly(op->getResult(0).getType());
}

/// Whether the lowering of `op` takes run-time extents (code for symbolic dims).
bool lowersSymbolicDims(Operation *op, ms::SymbolicShapes &shapes) {
  if (isRowsProduct(op) || isRunTimeBatchImageOp(op))
    return true;
  // A product of two activations (attention's scores and context when attention is not
  // recognized, a KV cache's): matrices, or equal batch dims (the same expressions: a `?` that
  // could be 1 at run time and broadcast takes no code yet); the portable GEMM reads every extent
  // at run time.
  if (auto matmul = dyn_cast<ms::MatMulOp>(op)) {
    auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
    auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
    if (lhs.getRank() < 2 || lhs.getRank() != rhs.getRank())
      return false;
    ArrayRef<AffineExpr> l = shapes.dims(matmul.getLhs()), r = shapes.dims(matmul.getRhs());
    for (int64_t d = 0; d + 2 < lhs.getRank(); ++d)
      if (!l[d] || l[d] != r[d])
        return false;
    return true;
  }
  // Row kernels over run-time rows; the normalized dims static.
  if (auto norm = dyn_cast<ms::LayerNormOp>(op)) {
    RankedTensorType type = norm.getType();
    int64_t axis = mstomie::normalizeAxis(norm.getAxis(), type.getRank());
    return llvm::none_of(llvm::seq<int64_t>(axis, type.getRank()),
                         [&](int64_t d) { return type.isDynamicDim(d); });
  }
  if (isa<ms::SoftmaxOp>(op))
    return true;
  if (isa<ms::ReduceSumOp, ms::ReduceMeanOp, ms::ReduceProdOp, ms::ReduceMaxOp, ms::ReduceMinOp>(
          op))
    return reducesStaticDims(op);
  // Indices are clamped into the axis, whose extent must be static.
  if (auto gather = dyn_cast<ms::GatherOp>(op)) {
    auto data = cast<RankedTensorType>(gather.getData().getType());
    return !data.isDynamicDim(mstomie::normalizeAxis(gather.getAxis(), data.getRank()));
  }
  // One element per index: the indexed axis static (indices are clamped into it), and every other
  // symbolic dim the data's own (the indices' position is the data's there; a smaller one could
  // not be proven to fit without the sizes).
  if (auto gather = dyn_cast<ms::GatherElementsOp>(op)) {
    auto data = cast<RankedTensorType>(gather.getData().getType());
    auto indices = cast<RankedTensorType>(gather.getIndices().getType());
    int64_t axis = mstomie::normalizeAxis(gather.getAxis(), data.getRank());
    if (data.isDynamicDim(axis))
      return false;
    ArrayRef<AffineExpr> d = shapes.dims(gather.getData()), i = shapes.dims(gather.getIndices());
    return llvm::all_of(llvm::seq<int64_t>(0, data.getRank()), [&](int64_t k) {
      return k == axis || (!data.isDynamicDim(k) && !indices.isDynamicDim(k)) ||
             (d[k] && d[k] == i[k]);
    });
  }
  // Symbolic sizes and starts along dims of positive step (a start computed from the buffers'
  // extents or from the run's symbol values).
  if (auto slice = dyn_cast<ms::SliceOp>(op)) {
    ArrayRef<int64_t> starts = slice.getStarts(), sizes = slice.getSizes();
    for (auto [d, step] : llvm::enumerate(slice.getSteps())) {
      bool symbolicStart = ShapedType::isDynamic(starts[d]);
      if ((symbolicStart || ShapedType::isDynamic(sizes[d])) && step < 0)
        return false;
      if (symbolicStart && !slice.getSymbolicStarts())
        return false;
    }
    return true;
  }
  // The start computed from the result's extent (the count) or the run's symbol values; a
  // concat's slots from its inputs' extents.
  if (isa<ms::RangeOp, ms::ConcatOp>(op))
    return true;
  // A global pool of any rank (a video network's [N, C, D, H, W]): rows counted at run time,
  // each row's length static.
  if (auto pool = dyn_cast<ms::GlobalAvgPoolOp>(op)) {
    auto type = cast<RankedTensorType>(pool.getInput().getType());
    return type.getRank() >= 2 &&
           llvm::none_of(type.getShape().drop_front(), ShapedType::isDynamic);
  }
  // A resize keeps its symbolic dims (the verifier says so): they are loops over run-time
  // extents that read the same index.
  if (isa<ms::ResizeOp>(op))
    return true;
  // Static amounts that leave the symbolic dims unpadded (a convolution stem's "same" padding of
  // the image dims under a run-time batch).
  if (auto pad = dyn_cast<ms::PadOp>(op)) {
    auto type = cast<RankedTensorType>(pad.getInput().getType());
    ArrayRef<int64_t> pads = pad.getPads();
    int64_t rank = type.getRank();
    return !pad.getSymbolicPads() && llvm::all_of(llvm::seq<int64_t>(0, rank), [&](int64_t d) {
      return !type.isDynamicDim(d) || (pads[d] == 0 && pads[d + rank] == 0);
    });
  }
  // A running sum along a constant axis (position ids from a padding mask) over run-time extents.
  if (auto cumsum = dyn_cast<ms::CumSumOp>(op))
    return matchPattern(cumsum.getAxis(), m_Constant());
  // Pieces along a static axis (GPT-2's fused q, k, v projection).
  if (auto split = dyn_cast<ms::SplitOp>(op)) {
    auto type = cast<RankedTensorType>(split.getInput().getType());
    return !type.isDynamicDim(mstomie::normalizeAxis(split.getAxis(), type.getRank()));
  }
  // A broadcasting copy (a class token, an attention mask over the heads): its symbolic input dims
  // must be the result's own (a `?` that is 1 at run time and broadcast takes no code yet).
  if (auto expand = dyn_cast<ms::ExpandOp>(op))
    return !mayBroadcastDim(shapes, expand.getInput(), shapes.dims(expand.getResult()));
  // Attention over run-time batch, heads' rows and keys; the head width static.
  if (auto attention = dyn_cast<ms::AttentionOp>(op)) {
    auto query = cast<RankedTensorType>(attention.getQuery().getType());
    return query.getElementType().isF32() && !query.isDynamicDim(query.getRank() - 1);
  }
  if (auto group = dyn_cast<ms::FusedOp>(op);
      group && ms::isEpilogueAnchor(group.getMembers().front()))
    return isRowsProduct(group.getMembers().front()) ||
           isRunTimeBatchImageOp(group.getMembers().front());
  // A fused group of elementwise ops is one elementwise kernel; one rooted at a reduction of
  // static dims (RMSNorm's mean of squares, a hand-written layer norm's variance) one reduction
  // kernel over run-time kept dims, as a reduction alone.
  if (auto group = dyn_cast<ms::FusedOp>(op)) {
    SmallVector<Operation *> members = group.getMembers();
    Operation *root = members.back();
    bool reduction = ms::isFloatReduction(root);
    if (reduction && !reducesStaticDims(root))
      return false;
    return llvm::all_of(ArrayRef(members).drop_back(reduction ? 1 : 0), ms::isElementwiseOp);
  }
  return ms::isElementwiseOp(op) || isa<ms::ReshapeOp, ms::FlattenOp, ms::SqueezeOp, ms::UnsqueezeOp,
                                        ms::TransposeOp, ms::ConstantOp>(op);
}

/// Code for symbolic dims: records the dims of every dynamic result (mstomie::kResultDimsAttrName)
/// and of every dynamic function result (`ms.shape`, as the arguments have them), and refuses the
/// ops whose lowering has no code for run-time extents yet.
LogicalResult recordSymbolicDims(func::FuncOp func) {
  ms::SymbolicShapes shapes(func);
  MLIRContext *ctx = func.getContext();
  auto isDynamic = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && !tensor.hasStaticShape();
  };
  auto mapOf = [&](Value value, Operation *at) -> FailureOr<AffineMap> {
    ArrayRef<AffineExpr> dims = shapes.dims(value);
    if (llvm::any_of(dims, [](AffineExpr e) { return !e; }))
      return at->emitError("a dim of this value is no expression of the symbolic dims, which "
                           "code for every shape needs"),
             failure();
    return ms::symbolicShapeMap(ctx, shapes.numSymbols(), dims);
  };
  bool failedAny = false;
  func.walk([&](Operation *op) {
    if (op->getParentOfType<ms::FusedOp>() || !isa<ms::MsDialect>(op->getDialect()))
      return;
    bool dynamic = llvm::any_of(op->getResultTypes(), isDynamic) ||
                   llvm::any_of(op->getOperandTypes(), isDynamic);
    if (!dynamic)
      return;
    if (!lowersSymbolicDims(op, shapes)) {
      op->emitError() << "'" << op->getName()
                      << "' over symbolic dims has no code for every shape yet (give its "
                         "symbols sizes: --specialize or --dim-param)";
      failedAny = true;
      return;
    }
    // Elementwise kernels broadcast by the static shapes: an operand dim that is `?` must be the
    // result's dim itself (a `?` that is 1 at run time and broadcast has no code yet); in a group
    // rooted at a reduction, the reduced input's dim.
    auto group = dyn_cast<ms::FusedOp>(op);
    if (ms::isElementwiseOp(op) || (group && !ms::isEpilogueAnchor(group.getMembers().front()))) {
      SmallVector<AffineExpr> out = llvm::to_vector(shapes.dims(op->getResult(0)));
      if (Operation *root = group ? group.getMembers().back() : nullptr;
          root && ms::isFloatReduction(root))
        out = reducedInputDims(root, out);
      for (Value operand : op->getOperands())
        if (std::optional<int64_t> d = mayBroadcastDim(shapes, operand, out)) {
          op->emitError() << "operand dim " << *d
                          << " may broadcast at run time, which code for every shape does not "
                             "take yet (give its symbols sizes: --specialize or --dim-param)";
          failedAny = true;
          return;
        }
    }
    SmallVector<Attribute> maps;
    for (Value result : op->getResults()) {
      FailureOr<AffineMap> map = mapOf(result, op);
      if (failed(map)) {
        failedAny = true;
        return;
      }
      maps.push_back(AffineMapAttr::get(*map));
    }
    op->setAttr(mstomie::kResultDimsAttrName, ArrayAttr::get(ctx, maps));
  });
  if (failedAny)
    return failure();
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    if (!isDynamic(value.getType()))
      continue;
    FailureOr<AffineMap> map = mapOf(value, ret);
    if (failed(map))
      return failure();
    func.setResultAttr(i, ms::kArgShapeAttrName, AffineMapAttr::get(*map));
  }
  return failure(failedAny);
}

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
    mstomie::EpilogueChains chains = mstomie::matchGroupEpilogueChains(getOperation());
    mstomie::populateMsToMieFusedPatterns(converter, patterns, chains);
    mstomie::populateMsToMieAttentionPatterns(converter, patterns);
    mstomie::populateMsToMieIndexingPatterns(converter, patterns);
    mstomie::populateMsToMieScanPatterns(converter, patterns);
    mstomie::populateMsToMieRecurrentPatterns(converter, patterns);
    mstomie::populateMsToMieControlFlowPatterns(converter, patterns);
    mstomie::populateMsToMieDynamicShapePatterns(converter, patterns);
    mstomie::populateMsToMieRandomPatterns(converter, patterns);
    mstomie::populateMsToMieHostCallPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);

    ConversionTarget target(*ctx);
    // Members of an ms.fused group are lowered with (and erased by) their group's pattern.
    target.addDynamicallyLegalDialect<ms::MsDialect>(
        [](Operation *op) { return op->getParentOfType<ms::FusedOp>() != nullptr; });
    target.addLegalOp<ModuleOp>();
    target.addLegalDialect<MieDialect, linalg::LinalgDialect, memref::MemRefDialect,
                           affine::AffineDialect, arith::ArithDialect, math::MathDialect, scf::SCFDialect,
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
      if (cuda && isa<ms::CheckOp>(op)) {
        op->emitError("run-time checks of values against declared shapes are not supported on "
                      "cuda targets yet (")
            << cast<ms::CheckOp>(op).getMessage() << "); compile for a cpu target";
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
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func->hasAttr(ms::kSymbolsAttrName) && failed(recordSymbolicDims(func)))
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
