//===- OnnxCompositeTextOps.cpp - TfIdfVectorizer out of ms ops -----------===//
//
// TfIdfVectorizer over integer token ids as ms.tfidf, which ms-decompose expands into comparisons
// against the n-gram pool (DecomposeSequencePatterns.cpp), whose verifier checks the attributes.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// ONNX's reference (and onnxruntime): with skip distance d = 1 .. max_skip_count + 1, every
/// start position counts the pool n-grams of length min..max whose tokens sit d apart; unigrams
/// count at d = 1 only.
LogicalResult importTfIdfVectorizer(NodeImporter &n) {
  if (n.hasAttr("pool_strings"))
    return n.unsupportedFeature() << "string pools (pool_strings) are not supported";
  std::string mode = n.getString("mode", "");
  int64_t minGram = n.getInt("min_gram_length", 0), maxGram = n.getInt("max_gram_length", 0),
          maxSkip = n.getInt("max_skip_count", 0);
  std::optional<SmallVector<int64_t>> counts = n.getInts("ngram_counts"),
                                      indexes = n.getInts("ngram_indexes"),
                                      pool = n.getInts("pool_int64s");
  std::optional<SmallVector<double>> weights = n.getFloats("weights");
  if (n.hasFailed())
    return failure();
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    return n.error() << "mode must be TF, IDF or TFIDF, got '" << mode << "'";
  if (!counts || !indexes || !pool)
    return n.error() << "attributes 'ngram_counts', 'ngram_indexes' and 'pool_int64s' are required";
  // ms.tfidf counts over [rows, width]: a 0-D or 1-D input is one row.
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() > 2 || !xType.hasStaticShape())
    return n.unsupportedFeature() << "expects a static input of rank 0 to 2, got " << xType;
  int64_t rows = xType.getRank() == 2 ? xType.getDimSize(0) : 1;
  int64_t width = xType.getRank() == 0 ? 1 : xType.getShape().back();
  ms::TfIdfMode weighting = mode == "TF"    ? ms::TfIdfMode::tf
                            : mode == "IDF" ? ms::TfIdfMode::idf
                                            : ms::TfIdfMode::tfidf;
  Ops o(n);
  Value counted = o.op<ms::TfIdfOp>(o.reshape(o.in(0), {rows, width}), weighting, minGram, maxGram,
                                    maxSkip, *counts, *indexes, *pool,
                                    weights.value_or(SmallVector<double>()));
  if (o.failed())
    return failure();
  return finish(
      n, o, o.reshape(counted, typeOf(counted).getShape().take_back(xType.getRank() == 2 ? 2 : 1)));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeTextOps(OnnxOpTable &table) {
  table["TfIdfVectorizer"] = {importTfIdfVectorizer, 1, 1, 9};
}
