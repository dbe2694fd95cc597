//===- OnnxMlOps.cpp - ai.onnx.ml ops on numeric tensors ------------------===//
//
// The classical-ML domain's ops that work on numeric tensors: Binarizer (a comparison) and
// ArrayFeatureExtractor (a gather along the last axis) as ms primitives; Scaler, Normalizer,
// Imputer, LinearRegressor, LinearClassifier, OneHotEncoder and LabelEncoder on numbers as the ms
// ops of the same names, which `ms-decompose` expands (DecomposeMlEncoderPatterns.cpp,
// DecomposeMlPatterns.cpp); the handlers read the attributes. The tree ensembles are in
// OnnxMlTreeOps.cpp, the support vector machines in OnnxMlSvmOps.cpp. The string-keyed forms
// (LabelEncoder on strings, ...) stay unsupported with the other STRING tensors.
//
//===----------------------------------------------------------------------===//

#include "OnnxMlOps.h"

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// Input 0's element type where it is a number (float or integer, not bool); failure, reported,
/// otherwise.
FailureOr<Type> numericInput(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  Type et = xType.getElementType();
  if (!isa<FloatType>(et) && !(isa<IntegerType>(et) && !et.isInteger(1)))
    return n.error() << "expects a numeric input, got " << xType, failure();
  return et;
}

/// Binarizer: 1 where x > threshold, else 0, in x's type.
LogicalResult importBinarizer(NodeImporter &n) {
  double threshold = n.getFloat("threshold", 0.0);
  if (n.hasFailed())
    return failure();
  FailureOr<Type> et = numericInput(n);
  if (failed(et))
    return failure();
  Ops o(n);
  Value x = o.in(0);
  Value above = o.compare(ms::ComparePredicate::gt, x, o.scalar(*et, threshold));
  return finish(n, o, o.where(above, o.scalar(*et, 1.0), o.scalar(*et, 0.0)));
}

/// ArrayFeatureExtractor: X[..., Y] with Y's indices flattened; a 1-D X gives [1, count], as in
/// ONNX's reference.
LogicalResult importArrayFeatureExtractor(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0), yType = n.inputType(1);
  if (!yType.getElementType().isInteger(64))
    return n.error() << "expects int64 indices Y, got " << yType;
  if (xType.getRank() < 1 || !xType.hasStaticShape() || !yType.hasStaticShape())
    return n.unsupportedFeature() << "expects static shapes and X of rank >= 1, got " << xType
                                  << " and " << yType;
  int64_t count = yType.getNumElements();
  Ops o(n);
  Value indices = o.reshape(o.in(1), {count});
  Value gathered = o.op<ms::GatherOp>(o.in(0), indices, uint64_t(xType.getRank() - 1));
  SmallVector<int64_t> shape(xType.getShape().drop_back());
  if (shape.empty())
    shape.push_back(1);
  shape.push_back(count);
  return finish(n, o, o.reshape(gathered, shape));
}

/// Scaler: (X - offset) * scale in f32 (ms.scaler), one offset and scale for all features
/// where the attribute is absent or empty.
LogicalResult importScaler(NodeImporter &n) {
  auto offset = n.getFloats("offset"), scale = n.getFloats("scale");
  if (n.hasFailed())
    return failure();
  auto orDefault = [](const std::optional<SmallVector<double>> &values, double fallback) {
    return values && !values->empty() ? *values : SmallVector<double>{fallback};
  };
  Ops o(n);
  return finish(n, o, o.op<ms::ScalerOp>(o.in(0), orDefault(offset, 0.0), orDefault(scale, 1.0)));
}

/// LinearRegressor: X W^T + intercepts over `targets` targets, then the post transform
/// (onnxruntime applies none to a single target but PROBIT).
LogicalResult importLinearRegressor(NodeImporter &n) {
  auto coefficients = n.getFloats("coefficients"), intercepts = n.getFloats("intercepts");
  int64_t targets = n.getInt("targets", 1);
  std::string transform = n.getString("post_transform", "NONE");
  if (n.hasFailed())
    return failure();
  if (!coefficients)
    return n.error() << "needs coefficients";
  FailureOr<ms::MlPostTransform> named = ms::MlPostTransform::none;
  if (targets != 1 || transform == "PROBIT")
    named = ml::postTransformNamed(n, transform);
  Ops o(n);
  FailureOr<Value> x = ml::rowsOfFeatures(n, o);
  if (failed(x) || failed(named))
    return failure();
  return finish(n, o,
                o.op<ms::LinearRegressorOp>(*x, *coefficients,
                                            intercepts.value_or(SmallVector<double>()), targets,
                                            *named));
}

/// LinearClassifier with int64 labels (ms.linear_classifier); the post transform applies to
/// several scores only.
LogicalResult importLinearClassifier(NodeImporter &n) {
  auto coefficients = n.getFloats("coefficients"), intercepts = n.getFloats("intercepts");
  auto labels = n.getInts("classlabels_ints");
  std::string transform = n.getString("post_transform", "NONE");
  if (n.hasFailed())
    return failure();
  if (n.hasAttr("classlabels_strings"))
    return n.unsupportedFeature() << "has string class labels (classlabels_strings): STRING "
                                     "tensors are not supported";
  if (!coefficients || !intercepts || intercepts->empty())
    return n.error() << "needs coefficients and intercepts";
  if (transform == "PROBIT")
    return n.unsupportedFeature() << "post_transform 'PROBIT' is not supported";
  FailureOr<ms::MlPostTransform> named = ms::MlPostTransform::none;
  if (intercepts->size() > 1)
    named = ml::postTransformNamed(n, transform);
  Ops o(n);
  FailureOr<Value> x = ml::rowsOfFeatures(n, o);
  if (failed(x) || failed(named))
    return failure();
  return finish(
      n, n.createVariadicOp<ms::LinearClassifierOp>(
             *x, *coefficients, *intercepts, labels.value_or(SmallVector<int64_t>()), *named));
}

/// Normalizer: each row divided by its MAX, L1 or L2 norm, in f32 (ms.normalizer).
LogicalResult importNormalizer(NodeImporter &n) {
  std::string norm = n.getString("norm", "MAX");
  if (n.hasFailed())
    return failure();
  auto named = llvm::StringSwitch<std::optional<ms::MlNorm>>(norm)
                   .Case("MAX", ms::MlNorm::max)
                   .Case("L1", ms::MlNorm::l1)
                   .Case("L2", ms::MlNorm::l2)
                   .Default(std::nullopt);
  if (!named)
    return n.error() << "has an unknown norm '" << norm << "' (MAX, L1 or L2)";
  Ops o(n);
  return finish(n, o, o.op<ms::NormalizerOp>(o.in(0), *named));
}

/// Imputer (ms.imputer): the imputed values of X's type, imputed_value_floats for float X,
/// imputed_value_int64s for int64 X; the replaced value likewise.
LogicalResult importImputer(NodeImporter &n) {
  auto floats = n.getFloats("imputed_value_floats");
  auto ints = n.getInts("imputed_value_int64s");
  double replacedFloat = n.getFloat("replaced_value_float", 0.0);
  int64_t replacedInt = n.getInt("replaced_value_int64", 0);
  if (n.hasFailed())
    return failure();
  bool isFloat = isa<FloatType>(n.inputType(0).getElementType());
  SmallVector<double> values;
  if (isFloat && floats)
    values.assign(floats->begin(), floats->end());
  else if (!isFloat && ints)
    values.assign(ints->begin(), ints->end());
  if (values.empty())
    return n.error() << "needs imputed_value_" << (isFloat ? "floats" : "int64s") << " for a "
                     << (isFloat ? "float" : "int64") << " input";
  Ops o(n);
  return finish(
      n, o,
      o.op<ms::ImputerOp>(o.in(0), values, APFloat(isFloat ? replacedFloat : double(replacedInt))));
}

/// OneHotEncoder (ms.one_hot_encoder) on the categories cats_int64s. With zeros = 0 onnxruntime
/// fails a run that meets an unknown category; a package cannot fail from inside its kernels, so
/// an unknown category gives a row of zeros here (the zeros = 1 behaviour) and the compiler says
/// so with a warning.
LogicalResult importOneHotEncoder(NodeImporter &n) {
  auto cats = n.getInts("cats_int64s");
  int64_t zeros = n.getInt("zeros", 1);
  if (n.hasFailed())
    return failure();
  if (n.hasAttr("cats_strings"))
    return n.unsupportedFeature() << "has string categories (cats_strings): STRING tensors are "
                                     "not supported";
  if (!cats || cats->empty())
    return n.error() << "needs categories (cats_int64s)";
  RankedTensorType xType = n.inputType(0);
  int64_t count = static_cast<int64_t>(cats->size());
  SmallVector<int64_t> wide(xType.getShape());
  wide.push_back(count);
  if (!isReasonableShape(wide) || product(wide) > (int64_t(1) << 28))
    return n.unsupportedFeature() << "an output of " << count << " categories per element of "
                                  << xType << " is too large";
  if (zeros == 0)
    emitWarning(n.loc()) << "OneHotEncoder node '" << n.name()
                         << "' has zeros = 0: a value that is none of its categories gives a row "
                            "of zeros here, where onnxruntime fails the run";
  Ops o(n);
  return finish(n, o, o.op<ms::OneHotEncoderOp>(o.in(0), *cats));
}

/// A LabelEncoder key or value table: `<what>_tensor` (ai.onnx.ml 4), `<what>_int64s` or
/// `<what>_floats`, as a 1-D known tensor; string tables are refused with the other STRING
/// tensors.
FailureOr<KnownTensor> encoderTable(NodeImporter &n, StringRef what) {
  std::string asTensor = (what + "_tensor").str(), asInts = (what + "_int64s").str(),
              asFloats = (what + "_floats").str(), asStrings = (what + "_strings").str();
  int given = n.hasAttr(asTensor) + n.hasAttr(asInts) + n.hasAttr(asFloats) + n.hasAttr(asStrings);
  if (given != 1)
    return n.error() << "needs exactly one of " << asTensor << ", " << asInts << ", " << asFloats
                     << " and " << asStrings,
           failure();
  if (n.hasAttr(asStrings))
    return n.unsupportedFeature() << "has string " << what << " (" << asStrings
                                  << "): STRING tensors are not supported",
           failure();
  if (n.hasAttr(asTensor)) {
    OnnxTensor *tensor = n.getTensor(asTensor);
    if (!tensor)
      return failure();
    Type et = tensor->type.getElementType();
    if (!et.isF32() && !et.isF64() && !et.isSignlessInteger(64) && !et.isSignlessInteger(32) &&
        !et.isSignlessInteger(16))
      return n.error() << "expects " << asTensor << " of int64, int32, int16, float or double, got "
                       << tensor->type,
             failure();
    KnownTensor known = knownFromBytes(tensor->type, tensor->blob.getData());
    return known.reshaped({known.numElements()});
  }
  if (n.hasAttr(asInts)) {
    SmallVector<int64_t> v = n.getInts(asInts).value_or(SmallVector<int64_t>());
    return KnownTensor::fromInts({static_cast<int64_t>(v.size())},
                                 IntegerType::get(n.context(), 64), v);
  }
  SmallVector<double> v = n.getFloats(asFloats).value_or(SmallVector<double>());
  return KnownTensor::fromFloats({static_cast<int64_t>(v.size())}, Float32Type::get(n.context()),
                                 v);
}

/// LabelEncoder on numbers (ai.onnx.ml 2 and 4) as ms.label_encoder: each element of X equal to a
/// key becomes that key's value, any other the default (default_tensor, or default_int64 (-1) /
/// default_float (-0.0) by the values' type). A NaN key matches NaN elements from ai.onnx.ml 4 on
/// (before, none, as onnxruntime reads version 2).
LogicalResult importLabelEncoder(NodeImporter &n) {
  if (n.hasAttr("classes_strings"))
    return n.unsupportedFeature() << "maps strings (classes_strings): STRING tensors are not "
                                     "supported";
  FailureOr<KnownTensor> keys = encoderTable(n, "keys");
  if (failed(keys))
    return failure();
  FailureOr<KnownTensor> values = encoderTable(n, "values");
  if (failed(values))
    return failure();
  Type valueType = values->type.getElementType();
  KnownTensor fallback;
  if (n.hasAttr("default_tensor")) {
    OnnxTensor *tensor = n.getTensor("default_tensor");
    if (!tensor)
      return failure();
    if (tensor->type.getElementType() != valueType || tensor->type.getNumElements() != 1)
      return n.error() << "expects a default_tensor of one " << valueType << ", got "
                       << tensor->type;
    fallback = knownFromBytes(tensor->type, tensor->blob.getData()).reshaped({});
  } else if (values->isFloat()) {
    fallback = KnownTensor::fromFloats({}, valueType, {n.getFloat("default_float", -0.0)});
  } else {
    fallback = KnownTensor::fromInts({}, valueType, {n.getInt("default_int64", -1)});
  }
  if (n.hasFailed())
    return failure();
  Ops o(n);
  return finish(n, o,
                o.op<ms::LabelEncoderOp>(o.in(0), keys->toAttr(), values->toAttr(),
                                         fallback.toAttr(), n.domainOpset() >= 4));
}

} // namespace

FailureOr<ms::MlPostTransform>
mlir::mie::onnx_import::ml::postTransformNamed(NodeImporter &n, StringRef transform) {
  auto named = llvm::StringSwitch<std::optional<ms::MlPostTransform>>(transform)
                   .Case("NONE", ms::MlPostTransform::none)
                   .Case("LOGISTIC", ms::MlPostTransform::logistic)
                   .Case("SOFTMAX", ms::MlPostTransform::softmax)
                   .Case("SOFTMAX_ZERO", ms::MlPostTransform::softmax_zero)
                   .Case("PROBIT", ms::MlPostTransform::probit)
                   .Default(std::nullopt);
  if (!named)
    return n.unsupportedFeature() << "post_transform '" << transform
                                  << "' is not supported (NONE, LOGISTIC, SOFTMAX, SOFTMAX_ZERO "
                                     "and PROBIT are)",
           failure();
  return *named;
}

FailureOr<Value> mlir::mie::onnx_import::ml::rowsOfFeatures(NodeImporter &n, Ops &o) {
  if (failed(numericInput(n)))
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() < 1 || xType.getRank() > 2 || !xType.hasStaticShape())
    return n.unsupportedFeature() << "expects X of static shape [N, F] or [F], got " << xType,
           failure();
  Value x = o.cast(o.in(0), Float32Type::get(n.context()));
  if (xType.getRank() == 1)
    x = o.reshape(x, {1, xType.getDimSize(0)});
  return x;
}

void mlir::mie::onnx_import::registerMlOps(OnnxOpTable &table) {
  table[domainOpKey(kMlDomain, "Binarizer")] = {importBinarizer, 1, 1};
  table[domainOpKey(kMlDomain, "ArrayFeatureExtractor")] = {importArrayFeatureExtractor, 2, 2};
  table[domainOpKey(kMlDomain, "Scaler")] = {importScaler, 1, 1};
  table[domainOpKey(kMlDomain, "Normalizer")] = {importNormalizer, 1, 1};
  table[domainOpKey(kMlDomain, "Imputer")] = {importImputer, 1, 1};
  table[domainOpKey(kMlDomain, "LinearRegressor")] = {importLinearRegressor, 1, 1};
  table[domainOpKey(kMlDomain, "LinearClassifier")] = {importLinearClassifier, 1, 1};
  table[domainOpKey(kMlDomain, "OneHotEncoder")] = {importOneHotEncoder, 1, 1};
  table[domainOpKey(kMlDomain, "LabelEncoder")] = {importLabelEncoder, 1, 1};
}
