//===- MsToMieFused.cpp - ms.fused groups -> one kernel each --------------===//
//
// An anchored group (conv2d / gemm / matmul + epilogue chain) becomes one library kernel whose
// epilogue applies the chain; an elementwise group becomes one generated kernel with one
// linalg.generic computing the whole chain per element; a group rooted at a reduction becomes one
// reduction kernel whose input elements are computed by the chain.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/Transforms/EpilogueChain.h"
#include "dialects/ms/Transforms/FusionUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

struct FusedToKernel : OpConversionPattern<ms::FusedOp> {
  FusedToKernel(TypeConverter &converter, MLIRContext *ctx, const EpilogueChains &chains)
      : OpConversionPattern(converter, ctx), chains(chains) {}
  const EpilogueChains &chains;

  LogicalResult matchAndRewrite(ms::FusedOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Operation *> members = op.getMembers();
    // The buffer bound to a value of the body that comes from outside the group.
    auto bufferOf = [&](Value v) -> Value {
      if (!v)
        return Value();
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner()->getParentOp() == op ? adaptor.getInputs()[arg.getArgNumber()]
                                                        : Value();
    };
    // Anchored groups were matched before the conversion (isEpilogueAnchor reads symbolic dims
    // from tensor types the conversion replaces).
    if (chains.count(op))
      return lowerAnchored(op, members, bufferOf, rewriter);
    if (failed(checkLowerableGroup(op, /*report=*/false)))
      return rewriter.notifyMatchFailure(op, "not a lowerable group");
    Operation *root = members.back();
    bool reduction = ms::isFloatReduction(root);

    // The scalar chain: block arguments are the kernel's input elements; each member's scalar body
    // reads its operands' scalars. Reductions consume the value yielded by the member before them.
    Value chainResult = reduction ? root->getOperand(0) : op.getYieldedValue();
    bool emitted = true;
    auto chain = [&](OpBuilder &b, Location l, ValueRange elements, Type) -> Value {
      DenseMap<Value, Value> scalars;
      for (BlockArgument arg : op.getBody().getArguments())
        scalars[arg] = elements[arg.getArgNumber()];
      for (Operation *member : ArrayRef(members).drop_back(reduction ? 1 : 0)) {
        SmallVector<Value> args;
        for (Value operand : member->getOperands())
          args.push_back(scalars.lookup(operand));
        Type resultType = cast<RankedTensorType>(member->getResult(0).getType()).getElementType();
        Value r = emitElementwiseScalar(member, b, l, args, resultType);
        if (!r) {
          emitted = false;
          return args.front();
        }
        scalars[member->getResult(0)] = r;
      }
      return scalars.lookup(chainResult);
    };
    Location loc = op.getLoc();
    Value out = allocResult(rewriter, loc, op.getOperation());
    if (reduction)
      buildReductionKernel(rewriter, loc, root, op.getName(), adaptor.getInputs(), out, chain);
    else
      buildElementwiseKernel(rewriter, loc, op.getName(), adaptor.getInputs(), out, chain);
    if (!emitted)
      return op.emitOpError("has a member without a scalar lowering");
    rewriter.replaceOp(op, out);
    return success();
  }

  LogicalResult lowerAnchored(ms::FusedOp op, ArrayRef<Operation *> members,
                              function_ref<Value(Value)> bufferOf,
                              ConversionPatternRewriter &rewriter) const {
    auto matched = chains.find(op);
    if (matched == chains.end())
      return rewriter.notifyMatchFailure(op, "no epilogue chain was matched for the group");
    const ms::EpilogueChain &chain = matched->second;
    if (chain.members.size() != members.size())
      return rewriter.notifyMatchFailure(op, "not an epilogue chain");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Activation activation = Activation::none;
    if (!chain.activation.empty())
      activation = *symbolizeActivation(chain.activation);
    auto epilogue =
        EpilogueAttr::get(ctx, (bool)chain.bias, (bool)chain.residual, activation, chain.clamp);
    Value bias = chain.bias ? collapseToVector(rewriter, loc, bufferOf(chain.bias)) : Value();
    Value residual = bufferOf(chain.residual);
    Value out = allocResult(rewriter, loc, op.getOperation());
    // The accumulation type precision assignment chose (f32 for f16/bf16 products).
    auto accumulator = chain.anchor->getAttrOfType<TypeAttr>("acc_type");
    if (auto conv = dyn_cast<ms::Conv2dOp>(chain.anchor)) {
      mie::Conv2dOp::create(rewriter, loc, bufferOf(conv.getInput()), bufferOf(conv.getFilter()),
                            bias, residual, out, conv.getStrides(), conv.getPads(),
                            conv.getDilations(), conv.getGroups(), epilogue, accumulator,
                            /*ukernel=*/UKernelAttr(), /*filter_shape=*/DenseI64ArrayAttr(),
                            conv.getChannelsLast());
    } else if (auto gemm = dyn_cast<ms::GemmOp>(chain.anchor)) {
      mie::GemmOp::create(rewriter, loc, bufferOf(gemm.getA()), bufferOf(gemm.getB()), bias,
                          residual, out, gemm.getTransAAttr(), gemm.getTransBAttr(),
                          gemm.getAlphaAttr(), epilogue, accumulator,
                          /*ukernel=*/UKernelAttr(), /*b_packed=*/UnitAttr());
    } else {
      // matmul [..., M, K] x [K, N]: one GEMM over all rows of the left operand.
      auto matmul = cast<ms::MatMulOp>(chain.anchor);
      mie::GemmOp::create(rewriter, loc, collapseToRows(rewriter, loc, bufferOf(matmul.getLhs())),
                          bufferOf(matmul.getRhs()), bias,
                          residual ? collapseToRows(rewriter, loc, residual) : Value(),
                          collapseToRows(rewriter, loc, out), UnitAttr(), UnitAttr(),
                          rewriter.getF64FloatAttr(1.0), epilogue, accumulator,
                          /*ukernel=*/UKernelAttr(), /*b_packed=*/UnitAttr());
    }
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

LogicalResult mstomie::checkLowerableGroup(ms::FusedOp op, bool report) {
  SmallVector<Operation *> members = op.getMembers();
  auto fail = [&](Operation *member, StringRef why) {
    if (report)
      op.emitOpError("cannot be lowered to one kernel: member '")
          << member->getName() << "' " << why;
    return failure();
  };
  if (ms::isEpilogueAnchor(members.front())) {
    size_t matched = ms::matchEpilogueChain(members.front()).members.size();
    if (matched != members.size())
      return fail(members[matched], "does not fit the epilogue of its anchor");
    return success();
  }
  Operation *root = members.back();
  bool reduction = ms::isFloatReduction(root);
  if (!reduction && !ms::isFusibleElementwise(root))
    return fail(root, "ends the group but is neither elementwise nor a float reduction");
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>((reduction ? root->getOperand(0) : root->getResult(0)).getType())
          .getShape();
  for (Operation *member : ArrayRef(members).drop_back(reduction ? 1 : 0))
    if (!ms::isFusibleElementwise(member) ||
        cast<RankedTensorType>(member->getResult(0).getType()).getShape() != shape)
      return fail(member, "is not an elementwise op over the group's iteration shape");
  return success();
}

EpilogueChains mstomie::matchGroupEpilogueChains(Operation *root) {
  EpilogueChains chains;
  root->walk([&](ms::FusedOp group) {
    Operation *first = &group.getBody().front().front();
    if (ms::isEpilogueAnchor(first))
      chains[group] = ms::matchEpilogueChain(first);
  });
  return chains;
}

void mstomie::populateMsToMieFusedPatterns(TypeConverter &converter, RewritePatternSet &patterns,
                                           const EpilogueChains &chains) {
  patterns.add<FusedToKernel>(converter, patterns.getContext(), chains);
}
