//===- OnnxMlSvmOps.cpp - support vector machines (ai.onnx.ml) -------------===//
//
// SVMRegressor and SVMClassifier, the ops scikit-learn's SVC / NuSVC / SVR / NuSVR / OneClassSVM
// convert to (libsvm's model: support vectors, dual coefficients, rho). With support vectors
// they become one ms.svm, which `ms-decompose` expands into the kernel, one product per pair of
// classes, the votes and, with Platt's coefficients, the pairwise coupling
// (dialects/ms/Transforms/DecomposeMlPatterns.cpp); the handlers read the attributes, ms.svm's
// verifier checks them. Without them (liblinear's form) the model is linear: an
// ms.linear_regressor (X W^T + rho) and onnxruntime's label rule.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"
#include "OnnxMlOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// A libsvm kernel and its (gamma, coef0, degree).
struct SvmKernel {
  ms::SvmKernel kind = ms::SvmKernel::linear;
  SmallVector<double> params = {0.0, 0.0, 0.0};
};

FailureOr<SvmKernel> readKernel(NodeImporter &n) {
  std::string type = n.getString("kernel_type", "LINEAR");
  auto params = n.getFloats("kernel_params");
  if (n.hasFailed())
    return failure();
  SvmKernel k;
  if (type == "LINEAR")
    k.kind = ms::SvmKernel::linear;
  else if (type == "POLY")
    k.kind = ms::SvmKernel::poly;
  else if (type == "RBF")
    k.kind = ms::SvmKernel::rbf;
  else if (type == "SIGMOID")
    k.kind = ms::SvmKernel::sigmoid;
  else
    return n.error() << "has an unknown kernel_type '" << type
                     << "' (LINEAR, POLY, RBF or SIGMOID)",
           failure();
  if (params && !params->empty()) {
    if (params->size() != 3)
      return n.error() << "expects 3 kernel_params (gamma, coef0, degree), got " << params->size(),
             failure();
    k.params = *params;
  }
  return k;
}

/// The ms.svm of `x` [N, F] (f32) with `vectors` grouped by `perClass`: (scores, label).
FailureOr<Operation *> createSvm(NodeImporter &n, Value x, const SvmKernel &k,
                                 ArrayRef<double> vectors, ArrayRef<int64_t> perClass,
                                 ArrayRef<double> coefficients, ArrayRef<double> rho,
                                 ArrayRef<double> probA, ArrayRef<double> probB,
                                 ms::MlPostTransform transform, bool oneClass,
                                 ArrayRef<int64_t> labels) {
  Builder &b = n.builder();
  return n.createVariadicOp<ms::SvmOp>(
      x, k.kind, ArrayRef<double>(k.params), vectors, perClass, coefficients, rho, probA, probB,
      transform, oneClass, labels.empty() ? DenseI64ArrayAttr() : b.getDenseI64ArrayAttr(labels));
}

/// SVMRegressor: support vectors (n_supports > 0): K(X, SV) @ coefficients + rho[0]; without them
/// (liblinear's form) X @ coefficients + rho[0]. one_class: 1 where that is > 0, else -1. Y is
/// [N, 1] f32.
LogicalResult importSVMRegressor(NodeImporter &n) {
  auto coefficients = n.getFloats("coefficients"), rho = n.getFloats("rho");
  auto vectors = n.getFloats("support_vectors");
  int64_t supports = n.getInt("n_supports", 0);
  bool oneClass = n.getInt("one_class", 0) != 0;
  std::string transform = n.getString("post_transform", "NONE");
  FailureOr<SvmKernel> kernel = readKernel(n);
  if (n.hasFailed() || failed(kernel))
    return failure();
  if (!coefficients || coefficients->empty() || !rho || rho->empty())
    return n.error() << "needs coefficients and rho";
  // onnxruntime ignores post_transform here while the spec applies it: neither reading is safe.
  if (transform != "NONE")
    return n.unsupportedFeature() << "post_transform '" << transform
                                  << "' (onnxruntime ignores it on SVMRegressor, the ONNX "
                                     "specification applies it)";
  if (supports < 0)
    return n.error() << "has a negative n_supports " << supports;
  Ops o(n);
  FailureOr<Value> x = ml::rowsOfFeatures(n, o);
  if (failed(x))
    return failure();
  Type f32 = Float32Type::get(n.context());
  Value y;
  if (supports > 0) {
    FailureOr<Operation *> svm =
        createSvm(n, *x, *kernel, vectors.value_or(SmallVector<double>()), {supports},
                  *coefficients, *rho, {}, {}, ms::MlPostTransform::none, oneClass, {});
    if (failed(svm))
      return failure();
    return finish(n, o, (*svm)->getResult(0));
  } else {
    // liblinear's form: X coefficients^T + rho[0].
    y = o.op<ms::LinearRegressorOp>(*x, *coefficients, SmallVector<double>{(*rho)[0]}, int64_t(1),
                                    ms::MlPostTransform::none);
  }
  if (oneClass)
    y = o.where(o.compare(ms::ComparePredicate::gt, y, o.scalar(f32, 0.0)), o.scalar(f32, 1.0),
                o.scalar(f32, -1.0));
  return finish(n, o, y);
}

/// SVMClassifier with int64 labels. With support vectors (libsvm's SVC): one score per pair of
/// classes (i < j, in that order), a vote for i where it is > 0 and for j otherwise, the label of
/// the most voted class (the first of equals); scores are the pairs' (two classes: (-s, s) without
/// a transform, (1 - s, s) with one, as onnxruntime writes them), or with prob_a / prob_b the
/// coupled class probabilities. Without support vectors (liblinear's form): X W^T + rho[0] per
/// class and onnxruntime's rules for the label. Then the post transform over the scores.
LogicalResult importSVMClassifier(NodeImporter &n) {
  auto coefficients = n.getFloats("coefficients"), rho = n.getFloats("rho");
  auto vectors = n.getFloats("support_vectors");
  auto perClass = n.getInts("vectors_per_class");
  auto labels = n.getInts("classlabels_ints");
  auto probA = n.getFloats("prob_a"), probB = n.getFloats("prob_b");
  std::string transform = n.getString("post_transform", "NONE");
  FailureOr<SvmKernel> kernel = readKernel(n);
  if (n.hasFailed() || failed(kernel))
    return failure();
  if (n.hasAttr("classlabels_strings"))
    return n.unsupportedFeature() << "has string class labels (classlabels_strings): STRING "
                                     "tensors are not supported";
  if (!labels || labels->size() < 2)
    return n.error() << "needs at least two classlabels_ints";
  if (!coefficients || coefficients->empty() || !rho || rho->empty())
    return n.error() << "needs coefficients and rho";
  if (transform == "PROBIT")
    return n.unsupportedFeature() << "post_transform 'PROBIT' is not supported";
  SmallVector<double> a = probA.value_or(SmallVector<double>());
  SmallVector<double> b = probB.value_or(SmallVector<double>());
  int64_t classes = static_cast<int64_t>(labels->size());
  SmallVector<int64_t> counts = perClass.value_or(SmallVector<int64_t>());
  int64_t supports = 0;
  for (int64_t v : counts) {
    if (v < 0 || __builtin_add_overflow(supports, v, &supports))
      return n.error() << "has an invalid vectors_per_class entry " << v;
  }

  Ops o(n);
  FailureOr<Value> xOr = ml::rowsOfFeatures(n, o);
  if (failed(xOr))
    return failure();
  Value x = *xOr;
  int64_t rows = typeOf(x).getDimSize(0);
  Type f32 = Float32Type::get(n.context()), i64 = IntegerType::get(n.context(), 64);
  Value label, z;

  if (supports == 0) {
    // liblinear's form: one score per class, rho[0] added to each.
    Value classTable = o.constant(KnownTensor::fromInts({classes}, i64, *labels));
    Value scores =
        o.op<ms::LinearRegressorOp>(x, *coefficients, SmallVector<double>(classes, (*rho)[0]),
                                    classes, ms::MlPostTransform::none);
    if (o.failed())
      return failure();
    Value best = o.op<ms::ArgMaxOp>(scores, uint64_t(1), false, false);
    label = o.op<ms::GatherOp>(classTable, best, uint64_t(0));
    if (classes == 2) {
      // onnxruntime's binary rule on the largest score w: the second label where all weights are
      // >= 0 and w >= 0.5, or some weight is negative and w > 0; else the argmax's.
      bool allPositive = llvm::all_of(*coefficients, [](double w) { return w >= 0.0; });
      Value top = o.reshape(o.reduce<ms::ReduceMaxOp>(scores, {1}, false), {rows});
      Value second = o.compare(allPositive ? ms::ComparePredicate::ge : ms::ComparePredicate::gt,
                               top, o.scalar(f32, allPositive ? 0.5 : 0.0));
      label = o.where(second, o.constant(KnownTensor::fromInts({}, i64, {(*labels)[1]})), label);
    }
    FailureOr<ms::MlPostTransform> named = ml::postTransformNamed(n, transform);
    if (failed(named))
      return failure();
    z = *named == ms::MlPostTransform::none ? scores : o.op<ms::PostTransformOp>(scores, *named);
  } else {
    // ms.svm's verifier checks the vector groups, the coefficients, rho and prob_a per pair of
    // classes, and the size of the expansion's tables.
    FailureOr<ms::MlPostTransform> named = ml::postTransformNamed(n, transform);
    if (failed(named))
      return failure();
    FailureOr<Operation *> svm =
        createSvm(n, x, *kernel, vectors.value_or(SmallVector<double>()), counts, *coefficients,
                  *rho, a, b, *named, /*oneClass=*/false, *labels);
    if (failed(svm))
      return failure();
    z = (*svm)->getResult(0);
    label = (*svm)->getResult(1);
  }
  if (o.failed() || !label || !z)
    return failure();
  n.setOutput(0, label);
  if (n.hasOutput(1))
    n.setOutput(1, z);
  return success();
}

} // namespace

void mlir::mie::onnx_import::registerMlSvmOps(OnnxOpTable &table) {
  table[domainOpKey(kMlDomain, "SVMRegressor")] = {importSVMRegressor, 1, 1};
  table[domainOpKey(kMlDomain, "SVMClassifier")] = {importSVMClassifier, 1, 1};
}
