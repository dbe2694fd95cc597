//===- OnnxCompositeLossOps.cpp - the training losses as ms compositions --===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, written exactly in terms of existing ms
// ops: the log-probability of each sample's class is read with ms.gather_elements along the class
// axis, the class weights with ms.gather, ignored samples are masked with ms.where, and the
// reductions are ms.reduce_* over every axis. SoftmaxCrossEntropyLoss is the same loss on a
// log-softmax over the class axis, which is also its optional second output.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

enum class LossReduction { None, Sum, Mean };

/// The node's `reduction` (default mean) and `ignore_index` attributes.
struct LossAttrs {
  LossReduction reduction = LossReduction::Mean;
  std::optional<int64_t> ignoreIndex;
};

FailureOr<LossAttrs> readLossAttrs(NodeImporter &n) {
  LossAttrs attrs;
  std::string reduction = n.getString("reduction", "mean");
  if (n.hasAttr("ignore_index"))
    attrs.ignoreIndex = n.getInt("ignore_index", 0);
  if (n.hasFailed())
    return failure();
  if (reduction == "none")
    attrs.reduction = LossReduction::None;
  else if (reduction == "sum")
    attrs.reduction = LossReduction::Sum;
  else if (reduction != "mean")
    return n.error() << "reduction '" << reduction << "' must be none, sum or mean";
  return attrs;
}

/// Checks the shapes shared by both losses: input [N, C, d1, ...] of a float type, target
/// [N, d1, ...] of int32/int64, weight [C] of the input's type.
LogicalResult checkLossOperands(NodeImporter &n, StringRef inputName) {
  RankedTensorType xType = n.inputType(0), tType = n.inputType(1);
  if (!isa<FloatType>(xType.getElementType()) || xType.getRank() < 2)
    return n.error() << "expects " << inputName
                     << " of a float type with shape [N, C, d1, ...], got " << xType;
  Type tt = tType.getElementType();
  if (!tt.isSignlessInteger(32) && !tt.isSignlessInteger(64))
    return n.error() << "expects an int32 or int64 target, got " << tType;
  SmallVector<int64_t> expected(xType.getShape());
  expected.erase(expected.begin() + 1);
  if (tType.getShape() != ArrayRef<int64_t>(expected))
    return n.error() << "target " << tType << " must have the shape of " << inputName << " "
                     << xType << " without its class dim, " << listToString(expected);
  if (n.hasInput(2)) {
    RankedTensorType wType = n.inputType(2);
    if (wType.getRank() != 1 || wType.getDimSize(0) != xType.getDimSize(1) ||
        wType.getElementType() != xType.getElementType())
      return n.error() << "weight " << wType << " must be a 1-D tensor of "
                       << xType.getDimSize(1) << " classes of " << xType.getElementType();
  }
  return success();
}

/// The loss of log-probabilities `logProb` [N, C, d...] against input 1 (the target) with the
/// optional class weights (input 2): per sample -logProb[n, target, d...] * weight[target], 0
/// where the target is ignore_index; then summed, or divided by the sum of the weights that
/// were applied (the number of samples not ignored, without weights) for mean.
Value buildNllLoss(NodeImporter &n, Ops &o, Value logProb, const LossAttrs &attrs) {
  RankedTensorType xType = n.inputType(0), tType = n.inputType(1);
  Type et = xType.getElementType(), tt = tType.getElementType();
  Value target = o.in(1);
  // An ignored target may lie outside [0, C) (negative ignore_index, or one past the classes):
  // it reads class 0 instead, and its loss and weight are then masked to 0.
  Value ignored;
  if (attrs.ignoreIndex) {
    ignored = o.compare(ms::ComparePredicate::eq, target,
                        o.scalar(tt, static_cast<double>(*attrs.ignoreIndex)));
    target = o.where(ignored, o.scalar(tt, 0.0), target);
  }
  SmallVector<int64_t> lifted(tType.getShape());
  lifted.insert(lifted.begin() + 1, 1);
  Value picked = o.op<ms::GatherElementsOp>(logProb, o.reshape(target, lifted), uint64_t(1));
  Value loss = o.op<ms::NegOp>(o.reshape(picked, tType.getShape()));

  Value weight; // per sample (target's shape); null when every sample weighs 1
  if (n.hasInput(2))
    weight = o.op<ms::GatherOp>(o.in(2), target, uint64_t(0));
  Value zero = ignored ? o.scalar(et, 0.0) : Value();
  if (ignored)
    weight = o.where(ignored, zero, weight ? weight : o.scalar(et, 1.0));
  if (weight)
    loss = o.mul(loss, weight);
  if (ignored) // -x * 0 would keep a NaN or infinite log-probability of class 0
    loss = o.where(ignored, zero, loss);

  SmallVector<int64_t> all = iota(0, tType.getRank());
  switch (attrs.reduction) {
  case LossReduction::None:
    return loss;
  case LossReduction::Sum:
    return o.reduce<ms::ReduceSumOp>(loss, all, false);
  case LossReduction::Mean:
    if (!weight)
      return o.reduce<ms::ReduceMeanOp>(loss, all, false);
    return o.div(o.reduce<ms::ReduceSumOp>(loss, all, false),
                 o.reduce<ms::ReduceSumOp>(weight, all, false));
  }
  llvm_unreachable("unknown reduction");
}

/// NegativeLogLikelihoodLoss(input, target, weight?): input holds log-probabilities.
LogicalResult importNllLoss(NodeImporter &n) {
  FailureOr<LossAttrs> attrs = readLossAttrs(n);
  if (failed(attrs) || failed(checkLossOperands(n, "input")))
    return failure();
  Ops o(n);
  return finish(n, o, buildNllLoss(n, o, o.in(0), *attrs));
}

/// SoftmaxCrossEntropyLoss(scores, labels, weights?) -> (output, log_prob?): the NLL loss of the
/// log-softmax of the scores over the class axis, (x - max) - log(sum(exp(x - max))).
LogicalResult importSoftmaxCrossEntropyLoss(NodeImporter &n) {
  FailureOr<LossAttrs> attrs = readLossAttrs(n);
  if (failed(attrs) || failed(checkLossOperands(n, "scores")))
    return failure();
  Ops o(n);
  Value x = o.in(0);
  Value shifted = o.sub(x, o.reduce<ms::ReduceMaxOp>(x, {1}, true));
  Value logSum = o.op<ms::LogOp>(o.reduce<ms::ReduceSumOp>(o.op<ms::ExpOp>(shifted), {1}, true));
  Value logProb = o.sub(shifted, logSum);
  Value loss = buildNllLoss(n, o, logProb, *attrs);
  if (failed(finish(n, o, loss)))
    return failure();
  if (n.hasOutput(1))
    n.setOutput(1, logProb);
  return success();
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeLossOps(OnnxOpTable &table) {
  table["NegativeLogLikelihoodLoss"] = {importNllLoss, 2, 3, 12};
  table["SoftmaxCrossEntropyLoss"] = {importSoftmaxCrossEntropyLoss, 2, 3, 12};
}
