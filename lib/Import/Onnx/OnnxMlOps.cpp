//===- OnnxMlOps.cpp - ai.onnx.ml ops on numeric tensors ------------------===//
//
// The classical-ML domain's ops that work on numeric tensors and map onto ms ops: Binarizer
// (a comparison), ArrayFeatureExtractor (a gather along the last axis), Scaler ((x - offset) *
// scale per feature), Imputer (a select per feature), Normalizer, LinearRegressor and
// LinearClassifier (a MatMul by the transposed coefficients), OneHotEncoder and LabelEncoder on
// numbers (comparisons and table lookups), and the post transforms the models share. The tree
// ensembles are in OnnxMlTreeOps.cpp, the support vector machines in OnnxMlSvmOps.cpp. The
// string-keyed forms (LabelEncoder on strings, ...) stay unsupported with the other STRING tensors.
//
//===----------------------------------------------------------------------===//

#include "OnnxMlOps.h"

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"

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
  FailureOr<Value> x = ml::rowsOfFeatures(n, o);
  if (failed(x))
    return failure();
  FailureOr<Value> y = ml::linearScores(n, o, *x, *coefficients,
                                        intercepts.value_or(SmallVector<double>()), targets);
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
  FailureOr<Value> x = ml::rowsOfFeatures(n, o);
  if (failed(x))
    return failure();
  FailureOr<Value> scores = ml::linearScores(n, o, *x, *coefficients, *intercepts, targets);
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

/// OneHotEncoder: X's elements (cast to int64, as onnxruntime does for float and double X) against
/// the categories cats_int64s: Y = X.shape + [categories] in f32, 1 where the element is the
/// category (a category listed twice counts at its last position, as onnxruntime's map keeps it).
/// With zeros = 0 onnxruntime fails a run that meets an unknown category; a package cannot fail
/// from inside its kernels, so an unknown category gives a row of zeros here (the zeros = 1
/// behaviour) and the compiler says so with a warning.
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
  if (failed(numericInput(n)))
    return failure();
  RankedTensorType xType = n.inputType(0);
  int64_t count = static_cast<int64_t>(cats->size());
  SmallVector<int64_t> shape(xType.getShape()), wide(xType.getShape());
  shape.push_back(1);
  wide.push_back(count);
  if (!isReasonableShape(wide) || product(wide) > (int64_t(1) << 28))
    return n.unsupportedFeature() << "an output of " << count << " categories per element of "
                                  << xType << " is too large";
  if (zeros == 0)
    emitWarning(n.loc()) << "OneHotEncoder node '" << n.name()
                         << "' has zeros = 0: a value that is none of its categories gives a row "
                            "of zeros here, where onnxruntime fails the run";
  Type i64 = IntegerType::get(n.context(), 64), i1 = IntegerType::get(n.context(), 1);
  llvm::DenseMap<int64_t, int64_t> last;
  for (auto [i, c] : llvm::enumerate(*cats))
    last[c] = static_cast<int64_t>(i);
  SmallVector<int64_t> counted(count);
  for (auto [i, c] : llvm::enumerate(*cats))
    counted[i] = last[c] == static_cast<int64_t>(i);
  Ops o(n);
  Value x = o.reshape(o.cast(o.in(0), i64), shape);
  Value hit = o.compare(ms::ComparePredicate::eq, x,
                        o.constant(KnownTensor::fromInts({count}, i64, *cats)));
  if (llvm::is_contained(counted, 0))
    hit = o.op<ms::AndOp>(hit, o.constant(KnownTensor::fromInts({count}, i1, counted)));
  return finish(n, o, o.cast(hit, Float32Type::get(n.context())));
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

/// Key spans up to which LabelEncoder looks integer keys up in a dense table indexed by x - min
/// instead of comparing every element with every key.
constexpr int64_t kDenseKeySpan = 1 << 20;

/// LabelEncoder on numbers (ai.onnx.ml 2 and 4): each element of X equal to a key becomes that
/// key's value, any other the default (default_tensor, or default_int64 (-1) / default_float
/// (-0.0) by the values' type). A NaN key matches NaN elements from ai.onnx.ml 4 on (before, none,
/// as onnxruntime reads version 2). Integer keys over a compact range
/// are looked up in a dense table; others are compared with every key.
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
  int64_t count = keys->numElements();
  if (count == 0 || values->numElements() != count)
    return n.error() << "has " << count << " keys and " << values->numElements()
                     << " values (one per key, at least one)";
  RankedTensorType xType = n.inputType(0);
  Type keyType = keys->type.getElementType(), valueType = values->type.getElementType();
  if (xType.getElementType() != keyType)
    return n.error() << "has keys of type " << keyType << " for an input of type " << xType;
  bool floatKeys = keys->isFloat();
  // The default value.
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
  // Keys must be distinct (NaN once).
  llvm::DenseSet<int64_t> seenInts;
  llvm::DenseSet<uint64_t> seenFloats;
  bool nanKey = false;
  SmallVector<int64_t> nanColumn(count, 0);
  for (int64_t k = 0; k < count; ++k) {
    bool fresh;
    if (floatKeys) {
      double v = keys->floatAt(k);
      if (std::isnan(v)) {
        // A NaN key matches NaN from ai.onnx.ml 4 on (the spec); before, it matches nothing,
        // as in onnxruntime.
        fresh = !nanKey;
        nanKey = n.domainOpset() >= 4;
        nanColumn[k] = nanKey;
      } else {
        fresh = seenFloats.insert(llvm::bit_cast<uint64_t>(v == 0.0 ? 0.0 : v)).second;
      }
    } else {
      fresh = seenInts.insert(keys->intAt(k)).second;
    }
    if (!fresh) {
      InFlightDiagnostic d = n.error() << "lists the key ";
      if (floatKeys)
        d << keys->floatAt(k);
      else
        d << keys->intAt(k);
      return d << " twice";
    }
  }

  Ops o(n);
  Value x = o.in(0);
  Value fallbackValue = o.constant(fallback);
  Value table = o.constant(*values);
  Type i64 = IntegerType::get(n.context(), 64), i1 = IntegerType::get(n.context(), 1);
  if (!floatKeys) {
    int64_t low = *llvm::min_element(keys->ints), high = *llvm::max_element(keys->ints);
    // high - low without overflow (+1 could wrap where the keys span all of int64).
    uint64_t distance = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
    if (distance < static_cast<uint64_t>(
                       std::min<int64_t>(kDenseKeySpan, std::max<int64_t>(1024, 4 * count)))) {
      // Dense: slot x - low of a table of `slots` values and a table of which slots are keys.
      int64_t slots = static_cast<int64_t>(distance) + 1;
      SmallVector<int64_t> slotOf(slots, 0), isKey(slots, 0);
      for (int64_t k = 0; k < count; ++k) {
        slotOf[keys->intAt(k) - low] = k;
        isKey[keys->intAt(k) - low] = 1;
      }
      Value lowValue = o.constant(KnownTensor::fromInts({}, keyType, {low}));
      Value inRange =
          o.op<ms::AndOp>(o.compare(ms::ComparePredicate::ge, x, lowValue),
                          o.compare(ms::ComparePredicate::le, x,
                                    o.constant(KnownTensor::fromInts({}, keyType, {high}))));
      Value slot = o.cast(o.sub(o.where(inRange, x, lowValue), lowValue), i64);
      Value key = o.op<ms::GatherOp>(o.constant(KnownTensor::fromInts({slots}, i64, slotOf)), slot,
                                     uint64_t(0));
      Value found = o.op<ms::AndOp>(
          inRange, o.op<ms::GatherOp>(o.constant(KnownTensor::fromInts({slots}, i1, isKey)), slot,
                                      uint64_t(0)));
      return finish(n, o,
                    o.where(found, o.op<ms::GatherOp>(table, key, uint64_t(0)), fallbackValue));
    }
  }
  // Compare every element with every key: [..., keys].
  SmallVector<int64_t> column(xType.getShape()), wide(xType.getShape());
  column.push_back(1);
  wide.push_back(count);
  if (!isReasonableShape(wide) || product(wide) > (int64_t(1) << 28))
    return n.unsupportedFeature() << "comparing " << xType << " with " << count
                                  << " keys is too large";
  Value xc = o.reshape(x, column);
  Value hit = o.compare(ms::ComparePredicate::eq, xc, o.constant(*keys));
  if (nanKey)
    hit = o.op<ms::OrOp>(
        hit, o.op<ms::AndOp>(o.compare(ms::ComparePredicate::ne, xc, xc),
                             o.constant(KnownTensor::fromInts({count}, i1, nanColumn))));
  Value hits = o.cast(hit, Float32Type::get(n.context()));
  int64_t axis = xType.getRank();
  Value found = o.compare(ms::ComparePredicate::gt, o.reduce<ms::ReduceMaxOp>(hits, {axis}, false),
                          o.scalar(Float32Type::get(n.context()), 0.0));
  Value key = o.op<ms::ArgMaxOp>(hits, uint64_t(axis), false, false);
  return finish(n, o, o.where(found, o.op<ms::GatherOp>(table, key, uint64_t(0)), fallbackValue));
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

FailureOr<Value> mlir::mie::onnx_import::ml::postTransform(NodeImporter &n, Ops &o, Value y,
                                                           StringRef transform) {
  FailureOr<ms::MlPostTransform> named = postTransformNamed(n, transform);
  if (failed(named))
    return failure();
  if (*named == ms::MlPostTransform::none)
    return y;
  return o.op<ms::PostTransformOp>(y, *named);
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

FailureOr<Value> mlir::mie::onnx_import::ml::linearScores(NodeImporter &n, Ops &o, Value x,
                                                          ArrayRef<double> coefficients,
                                                          ArrayRef<double> intercepts,
                                                          int64_t targets) {
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
