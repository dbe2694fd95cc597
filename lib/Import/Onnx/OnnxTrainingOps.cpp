//===- OnnxTrainingOps.cpp - ai.onnx.preview.training optimizers ----------===//
//
// The optimizer steps of the `ai.onnx.preview.training` domain (opset 1): Adagrad, Momentum
// (standard and Nesterov) and Adam, each over one or more tensors, as elementwise ms ops. The
// learning rate R and the step count T are scalars read at run time (a training loop feeds them);
// the step-dependent factors (decay, bias correction, T > 0) are computed from T in the graph.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// The common form of an optimizer node: R, T, then `groups` groups of n tensors each (X, G, and
/// the optimizer's state), all float of one type, with n shapes shared across the groups.
struct OptimizerInputs {
  Value rate, step; // 0-d scalars of the tensors' float type (T converted)
  Type elementType;
  int64_t count = 0;
  SmallVector<SmallVector<Value>> groups; // groups[g][i]
};

/// The gradient with its L2 regularization term: norm_coefficient * X + G.
Value regularizedGradient(Ops &o, const OptimizerInputs &in, double norm, Value x, Value g) {
  return o.add(o.mul(o.scalar(in.elementType, norm), x), g);
}

/// T > 0: the steps after the first, where the step-dependent factors apply.
Value afterFirstStep(Ops &o, const OptimizerInputs &in) {
  return o.compare(ms::ComparePredicate::gt, in.step, o.scalar(in.elementType, 0.0));
}

/// sqrt(H) + epsilon, the denominator of the adaptive updates.
Value rootPlusEpsilon(Ops &o, const OptimizerInputs &in, Value h, double epsilon) {
  return o.add(o.op<ms::SqrtOp>(h), o.scalar(in.elementType, epsilon));
}

FailureOr<OptimizerInputs> readOptimizerInputs(NodeImporter &n, Ops &o, unsigned groups,
                                               StringRef groupNames) {
  size_t inputs = n.node().inputs.size();
  if (inputs < 2 + groups || (inputs - 2) % groups != 0)
    return n.error() << "expects R, T and " << groups << " groups of tensors (" << groupNames
                     << ") of one size each, got " << inputs << " inputs";
  if (n.node().outputs.size() > inputs - 2)
    return n.error() << "expects at most " << inputs - 2 << " outputs, got "
                     << n.node().outputs.size();
  for (unsigned i = 0; i < inputs; ++i)
    if (!n.hasInput(i))
      return n.error() << "input " << i << " is missing";
  RankedTensorType rateType = n.inputType(0), stepType = n.inputType(1);
  if (rateType.getNumElements() != 1 || !isa<FloatType>(rateType.getElementType()))
    return n.error() << "expects a float scalar R, got " << rateType;
  if (stepType.getNumElements() != 1 || !stepType.getElementType().isInteger(64))
    return n.error() << "expects an int64 scalar T, got " << stepType;
  OptimizerInputs in;
  in.count = (inputs - 2) / groups;
  Type elementType = in.elementType = n.inputType(2).getElementType();
  if (!isa<FloatType>(elementType))
    return n.error() << "expects float tensors, got " << n.inputType(2);
  for (unsigned g = 0; g < groups; ++g) {
    in.groups.emplace_back();
    for (int64_t i = 0; i < in.count; ++i) {
      unsigned index = 2 + g * in.count + i;
      RankedTensorType type = n.inputType(index);
      RankedTensorType first = n.inputType(2 + i);
      if (type.getElementType() != elementType || type.getShape() != first.getShape())
        return n.error() << "expects input " << index << " to have the shape and type of input "
                         << 2 + i << " (" << first << "), got " << type;
      in.groups.back().push_back(o.in(index));
    }
  }
  in.rate = o.reshape(o.cast(o.in(0), elementType), {});
  in.step = o.reshape(o.cast(o.in(1), elementType), {});
  if (o.failed())
    return failure();
  return in;
}

/// Sets output `group * count + i` of every tensor i of each result group.
LogicalResult setOptimizerOutputs(NodeImporter &n, Ops &o, ArrayRef<SmallVector<Value>> results) {
  if (o.failed())
    return failure();
  int64_t count = results.front().size();
  for (auto [g, group] : llvm::enumerate(results))
    for (auto [i, value] : llvm::enumerate(group))
      if (n.hasOutput(g * count + i))
        n.setOutput(g * count + i, value);
  return success();
}

/// Adagrad: r = R / (1 + T * decay_factor); G' = norm_coefficient * X + G; H' = H + G' * G';
/// X' = X - r * G' / (sqrt(H') + epsilon). Outputs X'..., H'....
LogicalResult importAdagrad(NodeImporter &n) {
  double decay = n.getFloat("decay_factor", 0.0), epsilon = n.getFloat("epsilon", 1e-6),
         norm = n.getFloat("norm_coefficient", 0.0);
  if (n.hasFailed())
    return failure();
  Ops o(n);
  FailureOr<OptimizerInputs> in = readOptimizerInputs(n, o, 3, "X, G, H");
  if (failed(in))
    return failure();
  Type et = in->elementType;
  Value rate = o.div(in->rate, o.add(o.scalar(et, 1.0), o.mul(in->step, o.scalar(et, decay))));
  SmallVector<SmallVector<Value>> results(2);
  for (int64_t i = 0; i < in->count; ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], h = in->groups[2][i];
    Value grad = regularizedGradient(o, *in, norm, x, g);
    Value hNew = o.add(h, o.mul(grad, grad));
    results[0].push_back(
        o.sub(x, o.div(o.mul(rate, grad), rootPlusEpsilon(o, *in, hNew, epsilon))));
    results[1].push_back(hNew);
  }
  return setOptimizerOutputs(n, o, results);
}

/// Momentum: G' = norm_coefficient * X + G; V' = alpha * V + (T > 0 ? beta : 1) * G';
/// X' = X - R * V' (standard) or X - R * (G' + alpha * V') (nesterov). Outputs X'..., V'....
LogicalResult importMomentum(NodeImporter &n) {
  if (!n.hasAttr("alpha") || !n.hasAttr("beta") || !n.hasAttr("norm_coefficient") ||
      !n.hasAttr("mode"))
    return n.error() << "attributes 'alpha', 'beta', 'mode' and 'norm_coefficient' are required";
  double alpha = n.getFloat("alpha", 0.0), beta = n.getFloat("beta", 0.0),
         norm = n.getFloat("norm_coefficient", 0.0);
  std::string mode = n.getString("mode", "");
  if (n.hasFailed())
    return failure();
  if (mode != "standard" && mode != "nesterov")
    return n.error() << "mode must be 'standard' or 'nesterov', got '" << mode << "'";
  Ops o(n);
  FailureOr<OptimizerInputs> in = readOptimizerInputs(n, o, 3, "X, G, V");
  if (failed(in))
    return failure();
  Type et = in->elementType;
  Value betaNow = o.where(afterFirstStep(o, *in), o.scalar(et, beta), o.scalar(et, 1.0));
  SmallVector<SmallVector<Value>> results(2);
  for (int64_t i = 0; i < in->count; ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], v = in->groups[2][i];
    Value grad = regularizedGradient(o, *in, norm, x, g);
    Value vNew = o.add(o.mul(o.scalar(et, alpha), v), o.mul(betaNow, grad));
    Value step = mode == "standard" ? vNew : o.add(grad, o.mul(o.scalar(et, alpha), vNew));
    results[0].push_back(o.sub(x, o.mul(in->rate, step)));
    results[1].push_back(vNew);
  }
  return setOptimizerOutputs(n, o, results);
}

/// Adam: G' = norm_coefficient * X + G; V' = alpha * V + (1 - alpha) * G';
/// H' = beta * H + (1 - beta) * G'^2; r = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R;
/// X' = (1 - norm_coefficient_post) * (X - r * V' / (sqrt(H') + epsilon)).
/// Outputs X'..., V'..., H'....
LogicalResult importAdam(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 0.9), beta = n.getFloat("beta", 0.999),
         epsilon = n.getFloat("epsilon", 1e-6), norm = n.getFloat("norm_coefficient", 0.0),
         normPost = n.getFloat("norm_coefficient_post", 0.0);
  if (n.hasFailed())
    return failure();
  Ops o(n);
  FailureOr<OptimizerInputs> in = readOptimizerInputs(n, o, 4, "X, G, V, H");
  if (failed(in))
    return failure();
  Type et = in->elementType;
  Value one = o.scalar(et, 1.0);
  Value corrected = o.div(
      o.mul(in->rate, o.op<ms::SqrtOp>(o.sub(one, o.op<ms::PowOp>(o.scalar(et, beta), in->step)))),
      o.sub(one, o.op<ms::PowOp>(o.scalar(et, alpha), in->step)));
  Value rate = o.where(afterFirstStep(o, *in), corrected, in->rate);
  SmallVector<SmallVector<Value>> results(3);
  for (int64_t i = 0; i < in->count; ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], v = in->groups[2][i], h = in->groups[3][i];
    Value grad = regularizedGradient(o, *in, norm, x, g);
    Value vNew = o.add(o.mul(o.scalar(et, alpha), v), o.mul(o.scalar(et, 1.0 - alpha), grad));
    Value hNew =
        o.add(o.mul(o.scalar(et, beta), h), o.mul(o.scalar(et, 1.0 - beta), o.mul(grad, grad)));
    Value xNew = o.sub(x, o.div(o.mul(rate, vNew), rootPlusEpsilon(o, *in, hNew, epsilon)));
    results[0].push_back(o.mul(o.scalar(et, 1.0 - normPost), xNew));
    results[1].push_back(vNew);
    results[2].push_back(hNew);
  }
  return setOptimizerOutputs(n, o, results);
}

} // namespace

void mlir::mie::onnx_import::registerTrainingOps(OnnxOpTable &table) {
  constexpr unsigned variadic = ~0u;
  table[domainOpKey(kTrainingDomain, "Adagrad")] = {importAdagrad, 5, variadic};
  table[domainOpKey(kTrainingDomain, "Momentum")] = {importMomentum, 5, variadic};
  table[domainOpKey(kTrainingDomain, "Adam")] = {importAdam, 6, variadic};
}
