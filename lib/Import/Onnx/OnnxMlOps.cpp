//===- OnnxMlOps.cpp - ai.onnx.ml ops on numeric tensors ------------------===//
//
// The classical-ML domain's ops that work on numeric tensors and map onto ms ops: Binarizer
// (a comparison), ArrayFeatureExtractor (a gather along the last axis) and Scaler ((x - offset) *
// scale per feature). The tree ensembles are in OnnxMlTreeOps.cpp. The string-keyed ops
// (LabelEncoder on strings, ...) stay unsupported with the other STRING tensors.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"

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

} // namespace

void mlir::mie::onnx_import::registerMlOps(OnnxOpTable &table) {
  table[domainOpKey(kMlDomain, "Binarizer")] = {importBinarizer, 1, 1};
  table[domainOpKey(kMlDomain, "ArrayFeatureExtractor")] = {importArrayFeatureExtractor, 2, 2};
  table[domainOpKey(kMlDomain, "Scaler")] = {importScaler, 1, 1};
}
