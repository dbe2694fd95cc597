//===- MsRecurrentOps.cpp - ms.rnn, ms.gru, ms.lstm -----------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The activation names a recurrence takes (ONNX's list, lower-cased).
bool isRecurrentActivation(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"relu", "tanh", "sigmoid", "affine", "leakyrelu", "thresholdedrelu", "scaledtanh",
              "hardsigmoid", "elu", "softsign", "softplus"},
             true)
      .Default(false);
}

/// Checks that `v` (when present) has shape `shape` and element type `et`.
LogicalResult checkShaped(const InferDiag &diag, StringRef name, Value v, ArrayRef<int64_t> shape,
                          Type et) {
  if (!v)
    return success();
  RankedTensorType type = tensorType(v);
  if (type.getShape() != shape) {
    std::string dims;
    llvm::raw_string_ostream os(dims);
    llvm::interleaveComma(shape, os);
    return diag.error("expects ", name, " of shape [", dims, "], got ", type);
  }
  if (et && type.getElementType() != et)
    return diag.error("expects ", name, " element type ", et, ", got ", type.getElementType());
  return success();
}

/// The operands and attributes every recurrence shares, checked once.
struct RecurrentParts {
  Value gates, recurrence, initialH, sequenceLens;
  RnnDirection direction;
  ArrayAttr activations;
  ArrayRef<double> alpha, beta;
  std::optional<APFloat> clip;
  int64_t activationsPerDirection, numGates;
};

/// Infers [y, y_h] (and y_c when `withCell`) after checking `p`; `extra` checks the op's own
/// operands given (T, B, D, H, element type).
LogicalResult
inferRecurrence(const InferDiag &diag, const RecurrentParts &p, bool withCell,
                function_ref<LogicalResult(int64_t, int64_t, int64_t, int64_t, Type)> extra,
                SmallVectorImpl<Type> &results) {
  RankedTensorType gatesType = tensorType(p.gates), rType = tensorType(p.recurrence);
  if (gatesType.getRank() != 4 || !gatesType.hasStaticShape())
    return diag.error("expects static gates of rank 4 [T, B, D, ", p.numGates, "H], got ",
                      gatesType);
  if (rType.getRank() != 3 || !rType.hasStaticShape())
    return diag.error("expects a static recurrence of rank 3 [D, ", p.numGates, "H, H], got ",
                      rType);
  Type et = gatesType.getElementType();
  if (rType.getElementType() != et)
    return diag.error("expects recurrence element type ", et, ", got ", rType.getElementType());
  int64_t dirs = p.direction == RnnDirection::bidirectional ? 2 : 1;
  int64_t steps = gatesType.getDimSize(0), batch = gatesType.getDimSize(1);
  int64_t hidden = rType.getDimSize(2);
  if (rType.getDimSize(0) != dirs || rType.getDimSize(1) != p.numGates * hidden)
    return diag.error("expects a recurrence of shape [", dirs, ", ", p.numGates * hidden, ", ",
                      hidden, "] (", stringifyRnnDirection(p.direction), ", ", p.numGates,
                      " gates of the hidden size ", hidden, "), got ", rType);
  if (gatesType.getDimSize(2) != dirs || gatesType.getDimSize(3) != p.numGates * hidden)
    return diag.error("expects gates of shape [T, B, ", dirs, ", ", p.numGates * hidden, "], got ",
                      gatesType);
  if (failed(checkShaped(diag, "initial_h", p.initialH, {dirs, batch, hidden}, et)))
    return failure();
  if (p.sequenceLens && failed(checkShaped(diag, "sequence_lens", p.sequenceLens, {batch}, {})))
    return failure();
  int64_t count = p.activationsPerDirection * dirs;
  if ((int64_t)p.activations.size() != count)
    return diag.error("expects ", count, " activations (", p.activationsPerDirection,
                      " per direction), got ", p.activations.size());
  for (Attribute a : p.activations)
    if (!isRecurrentActivation(cast<StringAttr>(a).getValue()))
      return diag.error("expects activations among relu, tanh, sigmoid, affine, leakyrelu, "
                        "thresholdedrelu, scaledtanh, hardsigmoid, elu, softsign, softplus, got '",
                        cast<StringAttr>(a).getValue(), "'");
  if ((int64_t)p.alpha.size() != count || (int64_t)p.beta.size() != count)
    return diag.error("expects one activation_alpha and one activation_beta per activation (",
                      count, "), got ", p.alpha.size(), " and ", p.beta.size());
  if (p.clip && !(p.clip->convertToDouble() > 0.0))
    return diag.error("expects a positive clip, got ", p.clip->convertToDouble());
  if (failed(extra(steps, batch, dirs, hidden, et)))
    return failure();
  results.push_back(RankedTensorType::get({steps, dirs, batch, hidden}, et));
  results.push_back(RankedTensorType::get({dirs, batch, hidden}, et));
  if (withCell)
    results.push_back(RankedTensorType::get({dirs, batch, hidden}, et));
  return success();
}

template <typename AdaptorT, typename OpTy>
RecurrentParts commonParts(AdaptorT adaptor) {
  RecurrentParts p;
  p.gates = adaptor.getGates();
  p.recurrence = adaptor.getRecurrence();
  p.initialH = adaptor.getInitialH();
  p.sequenceLens = adaptor.getSequenceLens();
  p.direction = adaptor.getDirection();
  p.activations = adaptor.getActivations();
  p.alpha = adaptor.getActivationAlpha();
  p.beta = adaptor.getActivationBeta();
  if (auto clip = adaptor.getClipAttr())
    p.clip = clip.getValue();
  p.activationsPerDirection = OpTy::getActivationsPerDirection();
  p.numGates = OpTy::getNumGates();
  return p;
}

} // namespace

int64_t RnnOp::getActivationsPerDirection() { return 1; }
int64_t RnnOp::getNumGates() { return 1; }
int64_t GruOp::getActivationsPerDirection() { return 2; }
int64_t GruOp::getNumGates() { return 3; }
int64_t LstmOp::getActivationsPerDirection() { return 3; }
int64_t LstmOp::getNumGates() { return 4; }

LogicalResult RnnOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  return inferRecurrence(
      diag, commonParts<Adaptor, RnnOp>(adaptor), /*withCell=*/false,
      [](int64_t, int64_t, int64_t, int64_t, Type) { return success(); }, results);
}

LogicalResult GruOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  return inferRecurrence(
      diag, commonParts<Adaptor, GruOp>(adaptor), /*withCell=*/false,
      [&](int64_t, int64_t, int64_t dirs, int64_t hidden, Type et) -> LogicalResult {
        Value bias = adaptor.getRecurrenceBias();
        if (bias && !adaptor.getLinearBeforeReset())
          return diag.error("expects a recurrence_bias only with linear_before_reset (without "
                            "it Rbh belongs in the gates)");
        return checkShaped(diag, "recurrence_bias", bias, {dirs, hidden}, et);
      },
      results);
}

LogicalResult LstmOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  return inferRecurrence(
      diag, commonParts<Adaptor, LstmOp>(adaptor), /*withCell=*/true,
      [&](int64_t, int64_t batch, int64_t dirs, int64_t hidden, Type et) -> LogicalResult {
        if (failed(
                checkShaped(diag, "initial_c", adaptor.getInitialC(), {dirs, batch, hidden}, et)))
          return failure();
        return checkShaped(diag, "peepholes", adaptor.getPeepholes(), {dirs, 3 * hidden}, et);
      },
      results);
}
