//===- OnnxCompositeTextOps.cpp - TfIdfVectorizer out of ms ops -----------===//
//
// TfIdfVectorizer over integer token ids, as comparisons against the n-gram pool (a compile-time
// constant): for each n-gram length n and skip distance d, the n token columns x[:, i + j * d]
// of every start i are compared with the pool's j-th tokens of all n-grams of length n, the
// matches multiplied over j and summed over i: counts [B, n-grams]. One constant one-hot matrix
// maps n-grams to their output columns (ngram_indexes), then the TF / IDF / TFIDF weighting.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// The n-grams of the pool with their global index (the position ngram_indexes refers to).
struct NgramGroup {
  int64_t length = 0;
  int64_t firstIndex = 0;      // global index of the group's first n-gram
  SmallVector<int64_t> tokens; // [count][length], row-major
  int64_t count() const { return length ? tokens.size() / length : 0; }
};

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

  // Split the pool into groups of one length; ngram_counts[i] is where the (i + 1)-grams start.
  SmallVector<NgramGroup> groups;
  int64_t globalIndex = 0;
  for (size_t i = 0; i < counts->size(); ++i) {
    int64_t begin = (*counts)[i];
    int64_t end = i + 1 < counts->size() ? (*counts)[i + 1] : (int64_t)pool->size();
    int64_t length = i + 1;
    if (begin < 0 || end < begin || end > (int64_t)pool->size() || (end - begin) % length != 0)
      return n.error() << "ngram_counts " << listToString(*counts) << " do not split a pool of "
                       << pool->size() << " tokens into whole " << length << "-grams";
    NgramGroup group{length, globalIndex,
                     SmallVector<int64_t>(pool->begin() + begin, pool->begin() + end)};
    globalIndex += group.count();
    if (length >= minGram && length <= maxGram && group.count() > 0)
      groups.push_back(std::move(group));
  }
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

  Ops o(n);
  MLIRContext *ctx = n.context();
  Type f32 = Float32Type::get(ctx);
  auto constant = [&](DenseElementsAttr attr) -> Value {
    return ms::ConstantOp::create(n.builder(), n.loc(), attr);
  };
  Value x = o.reshape(o.in(0), {rows, width});
  // counts [rows, outSize] = sum over groups of group counts [rows, G] x one-hot [G, outSize].
  Value total;
  for (const NgramGroup &group : groups) {
    const int64_t len = group.length, grams = group.count();
    Value groupCounts;
    int64_t maxDistance = len == 1 ? 1 : maxSkip + 1;
    for (int64_t d = 1; d <= maxDistance; ++d) {
      int64_t starts = width - (len - 1) * d;
      if (starts <= 0)
        break;
      Value match;
      for (int64_t j = 0; j < len; ++j) {
        Value column = o.reshape(o.slice(x, {0, j * d}, {rows, starts}, {1, 1}), {rows, starts, 1});
        SmallVector<int64_t> tokens;
        for (int64_t g = 0; g < grams; ++g)
          tokens.push_back(group.tokens[g * len + j]);
        auto tokenType = RankedTensorType::get({1, 1, grams}, intType);
        Value pooled = constant(
            intType.getWidth() == 64
                ? DenseElementsAttr::get(tokenType, ArrayRef(tokens))
                : DenseElementsAttr::get(
                      tokenType, ArrayRef(SmallVector<int32_t>(tokens.begin(), tokens.end()))));
        Value hit = o.cast(o.compare(ms::ComparePredicate::eq, column, pooled), f32);
        match = match ? o.mul(match, hit) : hit;
      }
      Value perDistance = o.reduce<ms::ReduceSumOp>(match, {1}, false); // [rows, grams]
      groupCounts = groupCounts ? o.add(groupCounts, perDistance) : perDistance;
    }
    if (!groupCounts)
      continue;
    // The one-hot map is dense: bounded (256 MiB of f32) rather than built at any size.
    if (grams > (int64_t(1) << 26) / outSize)
      return n.unsupportedFeature() << grams << " " << len << "-grams over " << outSize
                                    << " output columns: the dense n-gram -> column map would "
                                       "be too large";
    SmallVector<float> oneHot(grams * outSize, 0.0f);
    for (int64_t g = 0; g < grams; ++g)
      oneHot[g * outSize + (*indexes)[group.firstIndex + g]] += 1.0f;
    Value scatter = constant(
        DenseElementsAttr::get(RankedTensorType::get({grams, outSize}, f32), ArrayRef(oneHot)));
    Value columns = o.op<ms::MatMulOp>(groupCounts, scatter, TypeAttr());
    total = total ? o.add(total, columns) : columns;
  }
  if (o.failed())
    return failure();
  if (!total)
    total = o.scalar(f32, 0.0);
  Value result = o.expand(total, {rows, outSize});

  bool weighted = weights && !weights->empty();
  Value weightRow;
  if (weighted) {
    SmallVector<float> w(weights->begin(), weights->begin() + outSize);
    weightRow =
        constant(DenseElementsAttr::get(RankedTensorType::get({1, outSize}, f32), ArrayRef(w)));
  }
  if (mode == "IDF") {
    Value present = o.compare(ms::ComparePredicate::gt, result, o.scalar(f32, 0.0));
    result = o.where(present, weighted ? weightRow : o.scalar(f32, 1.0), o.scalar(f32, 0.0));
  } else if (mode == "TFIDF" && weighted) {
    result = o.mul(result, weightRow);
  }
  SmallVector<int64_t> outShape =
      xType.getRank() == 2 ? SmallVector<int64_t>{rows, outSize} : SmallVector<int64_t>{outSize};
  return finish(n, o, o.reshape(result, outShape));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeTextOps(OnnxOpTable &table) {
  table["TfIdfVectorizer"] = {importTfIdfVectorizer, 1, 1, 9};
}
