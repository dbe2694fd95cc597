//===- EpilogueChain.cpp - what a library kernel can apply after its product ----===//

#include "dialects/ms/Transforms/EpilogueChain.h"
#include "dialects/ms/Transforms/FusionUtils.h"

#include "dialects/ms/IR/MsSymbolicShapes.h"

using namespace mlir;
using namespace mlir::ms;

static RankedTensorType tensorTypeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

bool ms::isEpilogueAnchor(Operation *op) {
  if (!isa<Conv2dOp, GemmOp, MatMulOp>(op))
    return false;
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  // f32, or a reduced product that accumulates in f32 (precision assignment): the library
  // kernels apply the epilogue to the accumulator before rounding.
  if (!resultType || !hasKnownDims(op->getResult(0)))
    return false;
  Type et = resultType.getElementType();
  auto acc = op->getAttrOfType<TypeAttr>("acc_type");
  if (!et.isF32() && !((et.isBF16() || et.isF16()) && acc && acc.getValue().isF32()))
    return false;
  if (isa<Conv2dOp>(op))
    return true;
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    Value c = gemm.getC();
    return !c || (gemm.getBeta().convertToDouble() == 1.0 && tensorTypeOf(c).getRank() == 1 &&
                  tensorTypeOf(c).getDimSize(0) == resultType.getDimSize(1));
  }
  if (auto matmul = dyn_cast<MatMulOp>(op))
    return tensorTypeOf(matmul.getRhs()).getRank() == 2 &&
           tensorTypeOf(matmul.getLhs()).getRank() >= 2;
  return false;
}

/// The anchor's bias operand, if it has one.
static Value anchorBias(Operation *anchor) {
  if (auto conv = dyn_cast<Conv2dOp>(anchor))
    return conv.getBias();
  if (auto gemm = dyn_cast<GemmOp>(anchor))
    return gemm.getC();
  return Value();
}

/// Whether `v` added to the anchor's result `type` is a per-output-channel bias: every dim but the
/// channel dim (1 for conv2d, the last one for gemm/matmul) is 1 after right-aligned broadcasting.
static bool isChannelVector(Operation *anchor, Value v, RankedTensorType type) {
  auto vt = tensorTypeOf(v);
  if (vt.getRank() > type.getRank() || vt.getElementType() != type.getElementType() ||
      !vt.hasStaticShape())
    return false;
  auto conv = dyn_cast<Conv2dOp>(anchor);
  int64_t channelDim = conv && !conv.getChannelsLast() ? 1 : type.getRank() - 1;
  int64_t offset = type.getRank() - vt.getRank();
  for (int64_t d = 0; d < vt.getRank(); ++d) {
    int64_t expected = d + offset == channelDim ? type.getDimSize(channelDim) : 1;
    if (vt.getDimSize(d) != expected)
      return false;
  }
  // The channel dim must be present: a scalar is not a bias of the right shape.
  return channelDim >= offset;
}

/// The other operand of a binary op that uses `v`, if `op` is one.
static Value otherOperand(Operation *op, Value v) {
  if (op->getNumOperands() != 2)
    return Value();
  // x + x is not a bias or residual add: the other operand must come from outside the chain.
  if (op->getOperand(0) == v && op->getOperand(1) != v)
    return op->getOperand(1);
  if (op->getOperand(1) == v && op->getOperand(0) != v)
    return op->getOperand(0);
  return Value();
}

/// The single user of `v`, if it has exactly one use in the block that defines `v`. A user in a
/// region of control flow (an ms.loop body) would pull the anchor into that region, where it
/// would run once per iteration.
static Operation *singleUser(Value v) {
  if (!v.hasOneUse())
    return nullptr;
  Operation *user = *v.getUsers().begin();
  return user->getBlock() == v.getParentBlock() ? user : nullptr;
}

/// Whether `op` is PyTorch's hardsigmoid, relu6(x + 3) / 6 (the epilogue's hard_sigmoid).
static bool isTorchHardSigmoid(Operation *op) {
  auto hs = dyn_cast<HardSigmoidOp>(op);
  return hs && std::abs(hs.getAlpha().convertToDouble() - 1.0 / 6.0) < 1e-6 &&
         std::abs(hs.getBeta().convertToDouble() - 0.5) < 1e-6;
}

/// Matches a gated activation `x * gate(x)` at `v` (which must have exactly these two uses):
/// SiLU with a sigmoid gate, hard-swish with PyTorch's hard-sigmoid gate. Returns the mul and sets
/// `activation`.
static Operation *matchGatedActivation(Value v, StringRef &activation) {
  if (!llvm::hasNItems(v.getUses(), 2))
    return nullptr;
  Operation *gate = nullptr;
  MulOp mul;
  for (Operation *user : v.getUsers()) {
    if (user->getBlock() != v.getParentBlock())
      return nullptr;
    if (isa<SigmoidOp>(user) || isTorchHardSigmoid(user))
      gate = user;
    else if (auto m = dyn_cast<MulOp>(user))
      mul = m;
  }
  if (!gate || !mul || !gate->hasOneUse() || *gate->getUsers().begin() != mul ||
      otherOperand(mul, v) != gate->getResult(0))
    return nullptr;
  activation = isa<SigmoidOp>(gate) ? "silu" : "hard_swish";
  return mul;
}

/// The activation name of a single-op activation on `v`, or empty.
static StringRef activationOf(Operation *op) {
  if (isa<ReluOp>(op))
    return "relu";
  if (isa<SigmoidOp>(op))
    return "sigmoid";
  if (isa<TanhOp>(op))
    return "tanh";
  if (isa<HardSwishOp>(op))
    return "hard_swish";
  if (isa<HardSigmoidOp>(op))
    return isTorchHardSigmoid(op) ? "hard_sigmoid" : "";
  if (auto gelu = dyn_cast<GeluOp>(op))
    return gelu.getApproximate() ? "gelu_tanh" : "gelu";
  return "";
}

EpilogueChain ms::matchEpilogueChain(Operation *anchor) {
  EpilogueChain chain;
  chain.anchor = anchor;
  chain.members.push_back(anchor);
  chain.bias = anchorBias(anchor);
  Value cur = anchor->getResult(0);
  auto type = tensorTypeOf(cur);
  // The user may have no result at all (the function's return): no result 0 to compare then.
  auto sameType = [&](Operation *op) {
    return op->getNumResults() == 1 && op->getResult(0).getType() == type &&
           haveSameDims(op->getResult(0), anchor->getResult(0));
  };

  Operation *next = singleUser(cur);
  // Bias add: only when the anchor has no bias of its own.
  if (next && isa<AddOp>(next) && sameType(next) && !chain.bias) {
    Value other = otherOperand(next, cur);
    if (other && isChannelVector(anchor, other, type)) {
      chain.bias = other;
      chain.members.push_back(next);
      cur = next->getResult(0);
      next = singleUser(cur);
    }
  }
  // Residual add: an operand of the result's own shape.
  if (next && isa<AddOp>(next) && sameType(next)) {
    Value other = otherOperand(next, cur);
    if (other && other.getType() == type && haveSameDims(other, cur)) {
      chain.residual = other;
      chain.members.push_back(next);
      cur = next->getResult(0);
      next = singleUser(cur);
    }
  }
  // One activation.
  StringRef gated;
  if (Operation *mul = matchGatedActivation(cur, gated)) {
    chain.activation = gated;
    for (Operation *user : cur.getUsers())
      if (user != mul)
        chain.members.push_back(user);
    chain.members.push_back(mul);
    cur = mul->getResult(0);
    next = singleUser(cur);
  } else if (next && sameType(next) && !activationOf(next).empty()) {
    chain.activation = activationOf(next);
    chain.members.push_back(next);
    cur = next->getResult(0);
    next = singleUser(cur);
  }
  // A clamp with constant bounds (relu6 when it is the activation itself).
  if (auto clip = dyn_cast_or_null<ClipOp>(next); clip && sameType(clip)) {
    double lo = clip.getMin() ? clip.getMin()->convertToDouble() : -INFINITY;
    double hi = clip.getMax() ? clip.getMax()->convertToDouble() : INFINITY;
    if (chain.activation.empty() && lo == 0.0 && hi == 6.0)
      chain.activation = "relu6";
    else
      chain.clamp = std::make_pair(lo, hi);
    chain.members.push_back(clip);
  }
  return chain;
}
