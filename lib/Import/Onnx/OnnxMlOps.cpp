//===- OnnxMlOps.cpp - ai.onnx.ml ops on numeric tensors ------------------===//
//
// The classical-ML domain's ops that work on numeric tensors and map onto ms ops: Binarizer
// (a comparison) and ArrayFeatureExtractor (a gather along the last axis). The string-keyed ops
// (LabelEncoder on strings, ...) stay unsupported with the other STRING tensors.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// Binarizer: 1 where x > threshold, else 0, in x's type.
LogicalResult importBinarizer(NodeImporter &n) {
  double threshold = n.getFloat("threshold", 0.0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  Type et = xType.getElementType();
  if (!isa<FloatType>(et) && !(isa<IntegerType>(et) && !et.isInteger(1)))
    return n.error() << "expects a numeric input, got " << xType;
  Ops o(n);
  Value x = o.in(0);
  Value above = o.compare(ms::ComparePredicate::gt, x, o.scalar(et, threshold));
  return finish(n, o, o.where(above, o.scalar(et, 1.0), o.scalar(et, 0.0)));
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

} // namespace

void mlir::mie::onnx_import::registerMlOps(OnnxOpTable &table) {
  table[domainOpKey(kMlDomain, "Binarizer")] = {importBinarizer, 1, 1};
  table[domainOpKey(kMlDomain, "ArrayFeatureExtractor")] = {importArrayFeatureExtractor, 2, 2};
}
