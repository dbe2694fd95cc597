//===- OnnxCompositeTextOps.cpp - TfIdfVectorizer out of ms ops -----------===//
//
// TfIdfVectorizer over integer token ids as ms.tfidf, which ms-decompose expands into comparisons
// against the n-gram pool (DecomposeSequencePatterns.cpp); the handler checks the attributes.
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
  if (minGram < 1 || maxGram < minGram || maxSkip < 0)
    return n.error() << "expects 1 <= min_gram_length <= max_gram_length and max_skip_count >= "
                        "0, got "
                     << minGram << ", " << maxGram << ", " << maxSkip;
  if (!counts || !indexes || !pool || indexes->empty())
    return n.error() << "attributes 'ngram_counts', 'ngram_indexes' and 'pool_int64s' are required";

  // ngram_counts[i] is where the (i + 1)-grams start.
  SmallVector<std::pair<int64_t, int64_t>> ranges;
  if (failed(ms::TfIdfOp::ngramRanges(*counts, pool->size(), ranges)))
    return n.error() << "ngram_counts " << listToString(*counts) << " do not split a pool of "
                     << pool->size() << " tokens into whole " << ranges.size() + 1 << "-grams";
  int64_t globalIndex = 0;
  for (auto [i, range] : llvm::enumerate(ranges))
    globalIndex += (range.second - range.first) / int64_t(i + 1);
  if ((int64_t)indexes->size() < globalIndex)
    return n.error() << "ngram_indexes has " << indexes->size() << " entries for " << globalIndex
                     << " n-grams";
  if (llvm::any_of(*indexes, [](int64_t v) { return v < 0 || v >= (int64_t(1) << 31); }))
    return n.error() << "ngram_indexes must be in [0, 2^31)";
  int64_t outSize = *llvm::max_element(*indexes) + 1;
  if (weights && !weights->empty() && (int64_t)weights->size() < outSize)
    return n.error() << "weights has " << weights->size() << " entries for " << outSize
                     << " outputs";

  RankedTensorType xType = n.inputType(0);
  auto intType = dyn_cast<IntegerType>(xType.getElementType());
  if (!intType || (intType.getWidth() != 32 && intType.getWidth() != 64))
    return n.error() << "expects int32 or int64 tokens, got " << xType;
  if (xType.getRank() > 2 || !xType.hasStaticShape())
    return n.unsupportedFeature() << "expects a static input of rank 0 to 2, got " << xType;
  int64_t rows = xType.getRank() == 2 ? xType.getDimSize(0) : 1;
  int64_t width = xType.getRank() == 0 ? 1 : xType.getShape().back();

  // The expansion's one-hot n-gram -> column maps are dense: bounded (256 MiB of f32) rather
  // than built at any size. A length counts where its n-grams fit in a row.
  for (auto [i, range] : llvm::enumerate(ranges)) {
    int64_t length = i + 1, grams = (range.second - range.first) / length;
    if (length >= minGram && length <= maxGram && grams > 0 && width > length - 1 &&
        grams > (int64_t(1) << 26) / outSize)
      return n.unsupportedFeature() << grams << " " << length << "-grams over " << outSize
                                    << " output columns: the dense n-gram -> column map would "
                                       "be too large";
  }
  ms::TfIdfMode weighting = mode == "TF"    ? ms::TfIdfMode::tf
                            : mode == "IDF" ? ms::TfIdfMode::idf
                                            : ms::TfIdfMode::tfidf;
  Ops o(n);
  Value counted = o.op<ms::TfIdfOp>(o.reshape(o.in(0), {rows, width}), weighting, minGram, maxGram,
                                    maxSkip, *counts, *indexes, *pool,
                                    weights.value_or(SmallVector<double>()));
  SmallVector<int64_t> outShape =
      xType.getRank() == 2 ? SmallVector<int64_t>{rows, outSize} : SmallVector<int64_t>{outSize};
  return finish(n, o, o.reshape(counted, outShape));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeTextOps(OnnxOpTable &table) {
  table["TfIdfVectorizer"] = {importTfIdfVectorizer, 1, 1, 9};
}
