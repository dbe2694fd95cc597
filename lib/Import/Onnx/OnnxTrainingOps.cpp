//===- OnnxTrainingOps.cpp - ai.onnx.preview.training optimizers ----------===//
//
// The optimizer steps of the `ai.onnx.preview.training` domain (opset 1): Adagrad, Momentum
// (standard and Nesterov) and Adam, each over one or more tensors, as ms.adagrad, ms.momentum and
// ms.adam, which `ms-decompose` expands into elementwise ops (DecomposeTrainingPatterns.cpp). The
// learning rate R and the step count T are scalars read at run time (a training loop feeds them).
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// Creates the optimizer step `OpTy` over the node's R, T and `groups` groups of tensors
/// (`groupNames`) with `attrs` and sets output i to result i. The tensors are read before R and
/// T, as the importer read them when it built the step itself, so that model data among them
/// keeps its place.
template <typename OpTy, typename... Attrs>
LogicalResult importOptimizer(NodeImporter &n, unsigned groups, StringRef groupNames,
                              Attrs &&...attrs) {
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
  if (!n.inputType(1).getElementType().isInteger(64))
    return n.error() << "expects an int64 scalar T, got " << n.inputType(1);
  Ops o(n);
  SmallVector<Value> tensors;
  for (unsigned i = 2; i < inputs; ++i)
    tensors.push_back(o.in(i));
  Value rate = o.in(0), step = o.in(1);
  if (o.failed())
    return failure();
  return finish(n, n.createVariadicOp<OpTy>(rate, step, tensors, std::forward<Attrs>(attrs)...));
}

/// Adagrad: outputs X'..., H'....
LogicalResult importAdagrad(NodeImporter &n) {
  double decay = n.getFloat("decay_factor", 0.0), epsilon = n.getFloat("epsilon", 1e-6),
         norm = n.getFloat("norm_coefficient", 0.0);
  if (n.hasFailed())
    return failure();
  return importOptimizer<ms::AdagradOp>(n, 3, "X, G, H", APFloat(decay), APFloat(epsilon),
                                        APFloat(norm));
}

/// Momentum: outputs X'..., V'....
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
  return importOptimizer<ms::MomentumOp>(n, 3, "X, G, V", APFloat(alpha), APFloat(beta),
                                         APFloat(norm), mode == "nesterov");
}

/// Adam: outputs X'..., V'..., H'....
LogicalResult importAdam(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 0.9), beta = n.getFloat("beta", 0.999),
         epsilon = n.getFloat("epsilon", 1e-6), norm = n.getFloat("norm_coefficient", 0.0),
         normPost = n.getFloat("norm_coefficient_post", 0.0);
  if (n.hasFailed())
    return failure();
  return importOptimizer<ms::AdamOp>(n, 4, "X, G, V, H", APFloat(alpha), APFloat(beta),
                                     APFloat(epsilon), APFloat(norm), APFloat(normPost));
}

} // namespace

void mlir::mie::onnx_import::registerTrainingOps(OnnxOpTable &table) {
  constexpr unsigned variadic = ~0u;
  table[domainOpKey(kTrainingDomain, "Adagrad")] = {importAdagrad, 5, variadic};
  table[domainOpKey(kTrainingDomain, "Momentum")] = {importMomentum, 5, variadic};
  table[domainOpKey(kTrainingDomain, "Adam")] = {importAdam, 6, variadic};
}
