//===- DecomposeMlEncoderPatterns.cpp - ms-decompose's ai.onnx.ml transforms -===//
//
//   scaler:          (cast(x, f32) - offset) * scale
//   normalizer:      x / norm(row) where the norm is not 0 (max, sum of |x|, sqrt of sum x^2)
//   imputer:         where(x == replaced (x != x for NaN), imputed, x)
//   one_hot_encoder: cast(reshape(x, [..., 1]) == categories, f32), a category listed twice
//                    masked out at all but its last position
//   label_encoder:   integer keys over a compact range: a dense table indexed by x - min (which
//                    slot holds which key, and whether one does); others: every element compared
//                    with every key, the first match's value by argmax, else the default
// The ops are built in the order the importer built them when it expanded these transforms
// itself (see Decompose.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "llvm/ADT/DenseMap.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ms;

namespace {

struct DecomposeScaler : OpRewritePattern<ScalerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScalerOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    Type f32 = Float32Type::get(op.getContext());
    // One value for every feature, or one per feature along the last axis.
    auto parameter = [&](ArrayRef<double> v) {
      if (v.size() == 1)
        return o.scalar(f32, v[0]);
      return o.floats({static_cast<int64_t>(v.size())}, f32, v);
    };
    Value off = parameter(op.getOffset()), mul = parameter(op.getScale());
    rewriter.replaceOp(op, o.mul(o.sub(o.cast(op.getInput(), f32), off), mul));
    return success();
  }
};

struct DecomposeNormalizer : OpRewritePattern<NormalizerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NormalizerOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    Type f32 = Float32Type::get(op.getContext());
    Value x = o.cast(op.getInput(), f32);
    int64_t axis = tensorTypeOf(x).getRank() - 1;
    MlNorm norm = op.getNorm();
    Value d = norm == MlNorm::max  ? o.reduce<ReduceMaxOp>(x, {axis}, true)
              : norm == MlNorm::l1 ? o.reduce<ReduceSumOp>(o.op<AbsOp>(x), {axis}, true)
                                   : o.op<SqrtOp>(o.reduce<ReduceSumOp>(o.mul(x, x), {axis}, true));
    Value zero = o.scalar(f32, 0.0);
    rewriter.replaceOp(op, o.where(o.compare(ComparePredicate::ne, d, zero), o.div(x, d), x));
    return success();
  }
};

struct DecomposeImputer : OpRewritePattern<ImputerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ImputerOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    Value x = op.getInput();
    RankedTensorType type = tensorTypeOf(x);
    Type et = type.getElementType();
    bool isFloat = isa<FloatType>(et);
    ArrayRef<double> values = op.getImputedValues();
    int64_t features = type.getShape().back();
    double replaced = op.getReplacedValue().convertToDouble();
    Value imputed = values.size() == 1
                        ? o.scalar(et, values[0])
                        : (isFloat ? o.floats({features}, et, values)
                                   : o.ints({features}, et,
                                            SmallVector<int64_t>(values.begin(), values.end())));
    Value missing = isFloat && std::isnan(replaced)
                        ? o.compare(ComparePredicate::ne, x, x)
                        : o.compare(ComparePredicate::eq, x, o.scalar(et, replaced));
    rewriter.replaceOp(op, o.where(missing, imputed, x));
    return success();
  }
};

struct DecomposeOneHotEncoder : OpRewritePattern<OneHotEncoderOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(OneHotEncoderOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    ArrayRef<int64_t> cats = op.getCategories();
    int64_t count = static_cast<int64_t>(cats.size());
    SmallVector<int64_t> shape(tensorTypeOf(op.getInput()).getShape());
    shape.push_back(1);
    Type i64 = IntegerType::get(op.getContext(), 64), i1 = IntegerType::get(op.getContext(), 1);
    // onnxruntime's map keeps a category's last position.
    llvm::DenseMap<int64_t, int64_t> last;
    for (auto [i, c] : llvm::enumerate(cats))
      last[c] = static_cast<int64_t>(i);
    SmallVector<int64_t> counted(count);
    for (auto [i, c] : llvm::enumerate(cats))
      counted[i] = last[c] == static_cast<int64_t>(i);
    Value x = o.reshape(o.cast(op.getInput(), i64), shape);
    Value hit = o.compare(ComparePredicate::eq, x, o.ints({count}, i64, cats));
    if (llvm::is_contained(counted, 0))
      hit = o.op<AndOp>(hit, o.ints({count}, i1, counted));
    rewriter.replaceOp(op, o.cast(hit, Float32Type::get(op.getContext())));
    return success();
  }
};

/// LabelEncoder's integer keys looked up in a dense table: slot x - low of a table of which key
/// each slot holds and of whether one does.
Value denseLookup(OpChain &o, Value x, ArrayRef<int64_t> keys, Value table, Value fallbackValue) {
  Type keyType = tensorTypeOf(x).getElementType();
  Type i64 = IntegerType::get(x.getContext(), 64), i1 = IntegerType::get(x.getContext(), 1);
  int64_t count = static_cast<int64_t>(keys.size());
  int64_t low = *llvm::min_element(keys), high = *llvm::max_element(keys);
  int64_t slots =
      static_cast<int64_t>(static_cast<uint64_t>(high) - static_cast<uint64_t>(low)) + 1;
  SmallVector<int64_t> slotOf(slots, 0), isKey(slots, 0);
  for (int64_t k = 0; k < count; ++k) {
    slotOf[keys[k] - low] = k;
    isKey[keys[k] - low] = 1;
  }
  Value lowValue = o.ints({}, keyType, {low});
  Value inRange = o.op<AndOp>(o.compare(ComparePredicate::ge, x, lowValue),
                              o.compare(ComparePredicate::le, x, o.ints({}, keyType, {high})));
  Value slot = o.cast(o.sub(o.where(inRange, x, lowValue), lowValue), i64);
  Value key = o.op<GatherOp>(o.ints({slots}, i64, slotOf), slot, uint64_t(0));
  Value found = o.op<AndOp>(inRange, o.op<GatherOp>(o.ints({slots}, i1, isKey), slot, uint64_t(0)));
  return o.where(found, o.op<GatherOp>(table, key, uint64_t(0)), fallbackValue);
}

struct DecomposeLabelEncoder : OpRewritePattern<LabelEncoderOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LabelEncoderOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    auto keys = cast<DenseElementsAttr>(op.getKeys());
    Value x = op.getInput();
    RankedTensorType xType = tensorTypeOf(x);
    Value fallbackValue = o.constant(cast<DenseElementsAttr>(op.getDefaultValue()));
    Value table = o.constant(cast<DenseElementsAttr>(op.getValues()));
    int64_t count = keys.getNumElements();
    Type i1 = IntegerType::get(op.getContext(), 1), f32 = Float32Type::get(op.getContext());
    if (!isa<FloatType>(keys.getElementType())) {
      SmallVector<int64_t> ints;
      for (const APInt &key : keys.getValues<APInt>())
        ints.push_back(key.getSExtValue());
      if (LabelEncoderOp::usesDenseTable(ints)) {
        rewriter.replaceOp(op, denseLookup(o, x, ints, table, fallbackValue));
        return success();
      }
    }
    // A NaN key matches the NaN elements where nan_matches_nan says so (ai.onnx.ml 4).
    SmallVector<int64_t> nanColumn(count, 0);
    bool nanKey = false;
    if (isa<FloatType>(keys.getElementType()) && op.getNanMatchesNan())
      for (auto [k, key] : llvm::enumerate(keys.getValues<APFloat>()))
        nanKey |= nanColumn[k] = key.isNaN();
    // Compare every element with every key: [..., keys].
    SmallVector<int64_t> column(xType.getShape());
    column.push_back(1);
    Value xc = o.reshape(x, column);
    Value hit = o.compare(ComparePredicate::eq, xc, o.constant(keys));
    if (nanKey)
      hit = o.op<OrOp>(hit, o.op<AndOp>(o.compare(ComparePredicate::ne, xc, xc),
                                        o.ints({count}, i1, nanColumn)));
    Value hits = o.cast(hit, f32);
    int64_t axis = xType.getRank();
    Value found = o.compare(ComparePredicate::gt, o.reduce<ReduceMaxOp>(hits, {axis}, false),
                            o.scalar(f32, 0.0));
    Value key = o.op<ArgMaxOp>(hits, uint64_t(axis), false, false);
    rewriter.replaceOp(op, o.where(found, o.op<GatherOp>(table, key, uint64_t(0)), fallbackValue));
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeMlEncoderPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeScaler, DecomposeNormalizer, DecomposeImputer, DecomposeOneHotEncoder,
               DecomposeLabelEncoder>(patterns.getContext());
}
