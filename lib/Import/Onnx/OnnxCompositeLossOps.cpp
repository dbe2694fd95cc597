//===- OnnxCompositeLossOps.cpp - the training losses as ms compositions --===//
//
// NegativeLogLikelihoodLoss becomes ms.nll_loss (ms-decompose expands it: dialects/ms/Transforms/
// DecomposePatterns.cpp). SoftmaxCrossEntropyLoss is the same loss on a log-softmax over the class
// axis, which is also its optional second output.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// The node's `reduction` (default mean) and `ignore_index` attributes.
struct LossAttrs {
  ms::LossReduction reduction = ms::LossReduction::mean;
  std::optional<int64_t> ignoreIndex;
};

FailureOr<LossAttrs> readLossAttrs(NodeImporter &n) {
  LossAttrs attrs;
  std::string reduction = n.getString("reduction", "mean");
  if (n.hasAttr("ignore_index"))
    attrs.ignoreIndex = n.getInt("ignore_index", 0);
  if (n.hasFailed())
    return failure();
  std::optional<ms::LossReduction> parsed = ms::symbolizeLossReduction(reduction);
  if (!parsed)
    return n.error() << "reduction '" << reduction << "' must be none, sum or mean";
  attrs.reduction = *parsed;
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

/// ms.nll_loss of `logProb` [N, C, d...] against input 1 (the target) with the optional class
/// weights (input 2).
Value buildNllLoss(NodeImporter &n, Ops &o, Value logProb, const LossAttrs &attrs) {
  Value weight = n.hasInput(2) ? o.in(2) : Value();
  IntegerAttr ignoreIndex;
  if (attrs.ignoreIndex)
    ignoreIndex = n.builder().getI64IntegerAttr(*attrs.ignoreIndex);
  return o.op<ms::NllLossOp>(logProb, o.in(1), weight, attrs.reduction, ignoreIndex);
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
