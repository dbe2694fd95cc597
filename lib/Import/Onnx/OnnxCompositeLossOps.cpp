//===- OnnxCompositeLossOps.cpp - the training losses as ms compositions --===//
//
// NegativeLogLikelihoodLoss becomes ms.nll_loss (ms-decompose expands it: dialects/ms/Transforms/
// DecomposePatterns.cpp). SoftmaxCrossEntropyLoss is the same loss on an ms.log_softmax over the
// class axis, which is also its optional second output.
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

/// ms.nll_loss of `logProb` [N, C, d...] against input 1 (the target) with the optional class
/// weights (input 2); its verifier checks the shapes.
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
  if (failed(attrs))
    return failure();
  Ops o(n);
  return finish(n, o, buildNllLoss(n, o, o.in(0), *attrs));
}

/// SoftmaxCrossEntropyLoss(scores, labels, weights?) -> (output, log_prob?): the NLL loss of the
/// log-softmax of the scores over the class axis.
LogicalResult importSoftmaxCrossEntropyLoss(NodeImporter &n) {
  FailureOr<LossAttrs> attrs = readLossAttrs(n);
  if (failed(attrs))
    return failure();
  Ops o(n);
  Value logProb = o.op<ms::LogSoftmaxOp>(o.in(0), ArrayRef<int64_t>{1});
  if (failed(finish(n, o, buildNllLoss(n, o, logProb, *attrs))))
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
