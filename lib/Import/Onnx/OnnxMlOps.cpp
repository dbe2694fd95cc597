//===- OnnxMlOps.cpp - ai.onnx.ml ops on numeric tensors ------------------===//
//
// The classical-ML domain's ops that work on numeric tensors and map onto ms ops: Binarizer
// (a comparison), ArrayFeatureExtractor (a gather along the last axis), Scaler ((x - offset) *
// scale per feature), Imputer (a select per feature), Normalizer, LinearRegressor and
// LinearClassifier (a MatMul by the transposed coefficients), and the post transforms the models
// share. The tree ensembles are in OnnxMlTreeOps.cpp. The string-keyed ops (LabelEncoder on
// strings, ...) stay unsupported with the other STRING tensors.
//
//===----------------------------------------------------------------------===//

#include "OnnxMlOps.h"

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"

#include <cmath>

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

/// Scaler: (X - offset) * scale in f32, offset and scale one value or one per feature (X's last
/// axis), as scikit-learn's StandardScaler / MinMaxScaler convert.
LogicalResult importScaler(NodeImporter &n) {
  auto offset = n.getFloats("offset"), scale = n.getFloats("scale");
  if (n.hasFailed())
    return failure();
  if (failed(numericInput(n)))
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() < 1)
    return n.error() << "expects an input of rank >= 1, got " << xType;
  int64_t features = xType.getShape().back();
  Type f32 = Float32Type::get(n.context());
  Ops o(n);
  // One value, or one per feature along the last axis.
  auto parameter = [&](const std::optional<SmallVector<double>> &values, double fallback,
                       StringRef name) -> Value {
    SmallVector<double> v = values && !values->empty() ? *values : SmallVector<double>{fallback};
    if (v.size() == 1)
      return o.scalar(f32, v[0]);
    if (static_cast<int64_t>(v.size()) != features) {
      n.error() << "has " << v.size() << " " << name << " values for " << features << " features";
      return Value();
    }
    return o.constant(KnownTensor::fromFloats({static_cast<int64_t>(v.size())}, f32, v));
  };
  Value off = parameter(offset, 0.0, "offset"), mul = parameter(scale, 1.0, "scale");
  if (!off || !mul)
    return failure();
  return finish(n, o, o.mul(o.sub(o.cast(o.in(0), f32), off), mul));
}

/// X [N, F] (a 1-D X is one row) in f32, as the linear models compute.
FailureOr<Value> rowsOfFeatures(NodeImporter &n, Ops &o) {
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

/// X W^T + b for `coefficients` [targets, F] and `intercepts` [targets] (none: 0).
FailureOr<Value> linearScores(NodeImporter &n, Ops &o, Value x, ArrayRef<double> coefficients,
                              ArrayRef<double> intercepts, int64_t targets) {
  int64_t features = typeOf(x).getDimSize(1);
  if (targets < 1 ||
      static_cast<int64_t>(coefficients.size()) != composite::product({targets, features}))
    return n.error() << "has " << coefficients.size() << " coefficients for " << targets
                     << " targets of " << features << " features",
           failure();
  if (!intercepts.empty() && static_cast<int64_t>(intercepts.size()) != targets)
    return n.error() << "has " << intercepts.size() << " intercepts for " << targets << " targets",
           failure();
  Type f32 = Float32Type::get(n.context());
  SmallVector<double> transposed(coefficients.size());
  for (int64_t t = 0; t < targets; ++t)
    for (int64_t f = 0; f < features; ++f)
      transposed[f * targets + t] = coefficients[t * features + f];
  Value w = o.constant(KnownTensor::fromFloats({features, targets}, f32, transposed));
  Value y = o.op<ms::MatMulOp>(x, w, TypeAttr());
  if (!intercepts.empty())
    y = o.add(y, o.constant(KnownTensor::fromFloats({1, targets}, f32, intercepts)));
  return y;
}

/// LinearRegressor: X W^T + intercepts over `targets` targets, then the post transform (onnxruntime
/// applies none to a single target).
LogicalResult importLinearRegressor(NodeImporter &n) {
  auto coefficients = n.getFloats("coefficients"), intercepts = n.getFloats("intercepts");
  int64_t targets = n.getInt("targets", 1);
  std::string transform = n.getString("post_transform", "NONE");
  if (n.hasFailed())
    return failure();
  if (!coefficients)
    return n.error() << "needs coefficients";
  Ops o(n);
  FailureOr<Value> x = rowsOfFeatures(n, o);
  if (failed(x))
    return failure();
  FailureOr<Value> y =
      linearScores(n, o, *x, *coefficients, intercepts.value_or(SmallVector<double>()), targets);
  if (failed(y))
    return failure();
  if (targets == 1 && transform != "PROBIT")
    return finish(n, o, *y);
  FailureOr<Value> out = ml::postTransform(n, o, *y, transform);
  return failed(out) ? failure() : finish(n, o, *out);
}

/// LinearClassifier with int64 labels: scores X W^T + intercepts, one per intercept. Several
/// scores: the label of the largest (the first of equals), the scores through the post transform.
/// One score (onnxruntime's binary form): the second label where it is > 0, else the first (1 and
/// 0 without two labels); the scores (1 - s, s) with two labels, else s, untransformed.
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
  int64_t targets = static_cast<int64_t>(intercepts->size());
  SmallVector<int64_t> classes = labels.value_or(SmallVector<int64_t>());
  if (targets > 1 && static_cast<int64_t>(classes.size()) != targets)
    return n.error() << "has " << classes.size() << " class labels for " << targets << " scores";
  if (transform == "PROBIT")
    return n.unsupportedFeature() << "post_transform 'PROBIT' is not supported";
  Ops o(n);
  FailureOr<Value> x = rowsOfFeatures(n, o);
  if (failed(x))
    return failure();
  FailureOr<Value> scores = linearScores(n, o, *x, *coefficients, *intercepts, targets);
  if (failed(scores))
    return failure();
  int64_t rows = typeOf(*scores).getDimSize(0);
  Type i64 = IntegerType::get(n.context(), 64), f32 = Float32Type::get(n.context());
  Value label, z = *scores;
  if (targets == 1) {
    bool twoLabels = classes.size() == 2;
    auto constant = [&](int64_t v) { return o.constant(KnownTensor::fromInts({}, i64, {v})); };
    Value positive =
        o.reshape(o.compare(ms::ComparePredicate::gt, *scores, o.scalar(f32, 0.0)), {rows});
    label = o.where(positive, constant(twoLabels ? classes[1] : 1),
                    constant(twoLabels ? classes[0] : 0));
    if (twoLabels) {
      Value first =
          o.constant(KnownTensor::fromInts({1, 2}, IntegerType::get(n.context(), 1), {1, 0}));
      z = o.where(first, o.sub(o.scalar(f32, 1.0), *scores), *scores);
    }
  } else {
    Value best = o.op<ms::ArgMaxOp>(*scores, uint64_t(1), false, false);
    label = o.op<ms::GatherOp>(o.constant(KnownTensor::fromInts({targets}, i64, classes)), best,
                               uint64_t(0));
    FailureOr<Value> transformed = ml::postTransform(n, o, *scores, transform);
    if (failed(transformed))
      return failure();
    z = *transformed;
  }
  if (o.failed() || !label)
    return failure();
  n.setOutput(0, label);
  if (n.hasOutput(1))
    n.setOutput(1, z);
  return success();
}

/// Normalizer: each row of X [N, C] (or the one row of a 1-D X) divided by its MAX (largest
/// value), L1 (sum of magnitudes) or L2 (Euclidean) norm, in f32; a row whose norm is 0 stays.
LogicalResult importNormalizer(NodeImporter &n) {
  std::string norm = n.getString("norm", "MAX");
  if (n.hasFailed())
    return failure();
  if (norm != "MAX" && norm != "L1" && norm != "L2")
    return n.error() << "has an unknown norm '" << norm << "' (MAX, L1 or L2)";
  if (failed(numericInput(n)))
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() < 1 || xType.getRank() > 2)
    return n.error() << "expects X of rank 1 or 2, got " << xType;
  Type f32 = Float32Type::get(n.context());
  Ops o(n);
  Value x = o.cast(o.in(0), f32);
  int64_t axis = xType.getRank() - 1;
  Value d = norm == "MAX"  ? o.reduce<ms::ReduceMaxOp>(x, {axis}, true)
            : norm == "L1" ? o.reduce<ms::ReduceSumOp>(o.op<ms::AbsOp>(x), {axis}, true)
                           : o.op<ms::SqrtOp>(o.reduce<ms::ReduceSumOp>(o.mul(x, x), {axis}, true));
  Value zero = o.scalar(f32, 0.0);
  return finish(n, o, o.where(o.compare(ms::ComparePredicate::ne, d, zero), o.div(x, d), x));
}

/// Imputer: the elements of X equal to the replaced value (NaN: the NaNs) become the imputed value
/// of their feature (X's last axis; one value for all or one per feature), in X's type: float
/// values for float X, int64 ones for int64 X.
LogicalResult importImputer(NodeImporter &n) {
  auto floats = n.getFloats("imputed_value_floats");
  auto ints = n.getInts("imputed_value_int64s");
  double replacedFloat = n.getFloat("replaced_value_float", 0.0);
  int64_t replacedInt = n.getInt("replaced_value_int64", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  Type et = xType.getElementType();
  bool isFloat = isa<FloatType>(et);
  if (!isFloat && !et.isInteger(64))
    return n.error() << "expects a float or int64 input, got " << xType;
  SmallVector<double> values;
  if (isFloat && floats)
    values.assign(floats->begin(), floats->end());
  else if (!isFloat && ints)
    values.assign(ints->begin(), ints->end());
  if (values.empty())
    return n.error() << "needs imputed_value_" << (isFloat ? "floats" : "int64s") << " for a "
                     << (isFloat ? "float" : "int64") << " input";
  if (xType.getRank() < 1)
    return n.error() << "expects an input of rank >= 1, got " << xType;
  int64_t features = xType.getShape().back();
  if (values.size() != 1 && static_cast<int64_t>(values.size()) != features)
    return n.error() << "has " << values.size() << " imputed values for " << features
                     << " features";
  Ops o(n);
  Value x = o.in(0);
  Value imputed =
      values.size() == 1
          ? o.scalar(et, values[0])
          : o.constant(
                isFloat ? KnownTensor::fromFloats({features}, et, values)
                        : KnownTensor::fromInts(
                              {features}, et, SmallVector<int64_t>(values.begin(), values.end())));
  Value missing = isFloat && std::isnan(replacedFloat)
                      ? o.compare(ms::ComparePredicate::ne, x, x)
                      : o.compare(ms::ComparePredicate::eq, x,
                                  o.scalar(et, isFloat ? replacedFloat : double(replacedInt)));
  return finish(n, o, o.where(missing, imputed, x));
}

} // namespace

FailureOr<Value> mlir::mie::onnx_import::ml::postTransform(NodeImporter &n, Ops &o, Value y,
                                                           StringRef transform) {
  Type et = typeOf(y).getElementType();
  if (transform == "NONE")
    return y;
  if (transform == "LOGISTIC")
    return o.op<ms::SigmoidOp>(y);
  if (transform == "SOFTMAX")
    return o.op<ms::SoftmaxOp>(y, uint64_t(1));
  if (transform == "SOFTMAX_ZERO") {
    // Softmax over the non-zero scores; zeros (|y| <= 1e-7) stay zero (onnxruntime's definition).
    Value zero = o.scalar(et, 0.0);
    Value nonZero = o.compare(ms::ComparePredicate::gt, o.op<ms::AbsOp>(y), o.scalar(et, 1e-7));
    Value low = o.scalar(et, -INFINITY);
    Value top = o.reduce<ms::ReduceMaxOp>(o.where(nonZero, y, low), {1}, true);
    Value e = o.where(nonZero, o.op<ms::ExpOp>(o.sub(y, top)), zero);
    Value sum = o.reduce<ms::ReduceSumOp>(e, {1}, true);
    return o.where(nonZero, o.div(e, sum), zero);
  }
  n.unsupportedFeature() << "post_transform '" << transform
                         << "' is not supported (NONE, LOGISTIC, SOFTMAX and SOFTMAX_ZERO are)";
  return failure();
}

void mlir::mie::onnx_import::registerMlOps(OnnxOpTable &table) {
  table[domainOpKey(kMlDomain, "Binarizer")] = {importBinarizer, 1, 1};
  table[domainOpKey(kMlDomain, "ArrayFeatureExtractor")] = {importArrayFeatureExtractor, 2, 2};
  table[domainOpKey(kMlDomain, "Scaler")] = {importScaler, 1, 1};
  table[domainOpKey(kMlDomain, "Normalizer")] = {importNormalizer, 1, 1};
  table[domainOpKey(kMlDomain, "Imputer")] = {importImputer, 1, 1};
  table[domainOpKey(kMlDomain, "LinearRegressor")] = {importLinearRegressor, 1, 1};
  table[domainOpKey(kMlDomain, "LinearClassifier")] = {importLinearClassifier, 1, 1};
}
