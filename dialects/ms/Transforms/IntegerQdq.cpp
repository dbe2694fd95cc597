//===- IntegerQdq.cpp - the ms-integer-qdq pass ---------------------------===//
//
// A QDQ model's DequantizeLinear -> Conv -> QuantizeLinear, as the importer builds it out of
// elementwise ops around an f32 convolution, becomes one ms.qconv2d: uint8 activations times
// int8 weights summed exactly in int32, requantized once (onnxruntime's QLinearConv). The f32
// form is one quantization step away from onnxruntime's integer kernels (a sum in another order
// lands on the other side of a rounding boundary); the integer form computes the same int32 sums
// and the same f32 requantization, and runs on VNNI.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/FusionUtils.h"
#include "dialects/ms/Transforms/Passes.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <cstdint>

namespace mlir::ms {
#define GEN_PASS_DEF_MSINTEGERQDQPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {

RankedTensorType tensorTypeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The value of a scalar constant, looking through casts (the importer converts zero points from
/// their integer type to f32).
std::optional<double> scalarConstant(Value v) {
  while (auto cast = v.getDefiningOp<CastOp>())
    v = cast.getInput();
  return getSplatValue(v);
}

/// Whether `clip` clamps to [lo, hi].
bool clipsTo(ClipOp clip, double lo, double hi) {
  return clip.getMin() && clip.getMax() && clip.getMin()->convertToDouble() == lo &&
         clip.getMax()->convertToDouble() == hi;
}

/// The uint8 tensor that the f32 `x` holds the values of, or null: a uint8 tensor converted to f32,
/// or a QuantizeLinear's clip(round(..) [+ zp], 0, 255) (then a conversion to uint8, reusing one
/// that exists).
Value uint8Source(PatternRewriter &rewriter, Value x) {
  auto u8 = IntegerType::get(x.getContext(), 8, IntegerType::Unsigned);
  if (auto cast = x.getDefiningOp<CastOp>()) {
    Value in = cast.getInput();
    return tensorTypeOf(in).getElementType() == u8 ? in : Value();
  }
  auto clip = x.getDefiningOp<ClipOp>();
  if (!clip || !clipsTo(clip, 0.0, 255.0))
    return Value();
  Value v = clip.getInput();
  if (auto add = v.getDefiningOp<AddOp>()) {
    std::optional<double> zp = scalarConstant(add.getRhs());
    if (!zp || *zp != std::nearbyint(*zp))
      return Value();
    v = add.getLhs();
  }
  if (!v.getDefiningOp<RoundOp>())
    return Value();
  RankedTensorType type = tensorTypeOf(x).clone(u8);
  for (Operation *user : x.getUsers())
    if (auto cast = dyn_cast<CastOp>(user); cast && cast.getType() == type)
      return cast;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(clip);
  return CastOp::create(rewriter, clip.getLoc(), type, x);
}

/// A DequantizeLinear `(x - zx) * sx` (or `x * sx`) with scalar constants sx, zx.
struct Dequantized {
  Value x;
  double scale, zeroPoint;
};

std::optional<Dequantized> matchDequantize(Value v) {
  auto mul = v.getDefiningOp<MulOp>();
  if (!mul)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    Value data = mul->getOperand(i);
    std::optional<double> scale = scalarConstant(mul->getOperand(1 - i));
    if (!scale || tensorTypeOf(data) != tensorTypeOf(v))
      continue;
    if (auto sub = data.getDefiningOp<SubOp>()) {
      std::optional<double> zp = scalarConstant(sub.getRhs());
      if (zp && tensorTypeOf(sub.getLhs()) == tensorTypeOf(v))
        return Dequantized{sub.getLhs(), *scale, *zp};
      continue;
    }
    return Dequantized{data, *scale, 0.0};
  }
  return std::nullopt;
}

/// The elements of a constant `values` (f32) that the importer dequantized from int8 weights, as
/// those integers, with the scale of each output channel; nullopt unless (q - 0) * scale gives
/// back every value exactly.
struct IntWeights {
  SmallVector<int8_t> q;
  SmallVector<float> scale;
};

std::optional<IntWeights> recoverInt8Weights(Value filter) {
  auto cst = filter.getDefiningOp<ConstantOp>();
  auto info = cst ? cst->getAttrOfType<DictionaryAttr>("ms.quantization") : DictionaryAttr();
  if (!info)
    return std::nullopt;
  auto axis = info.getAs<IntegerAttr>("axis");
  auto scales = info.getAs<DenseFPElementsAttr>("scale");
  auto zeros = info.getAs<DenseIntElementsAttr>("zero_point");
  RankedTensorType type = tensorTypeOf(filter);
  const int64_t f = type.getDimSize(0), k = type.getNumElements() / f;
  if (!axis || !scales || !zeros || (axis.getInt() != 0 && axis.getInt() != -1) ||
      (scales.getNumElements() != 1 && scales.getNumElements() != f))
    return std::nullopt;
  if (llvm::any_of(zeros.getValues<APInt>(), [](const APInt &z) { return !z.isZero(); }))
    return std::nullopt;
  std::optional<SmallVector<float>> values = readF32Constant(filter);
  if (!values)
    return std::nullopt;
  SmallVector<float> scaleValues = llvm::to_vector(scales.getValues<float>());
  IntWeights w;
  w.scale.resize(f);
  w.q.resize(values->size());
  for (int64_t row = 0; row < f; ++row) {
    const float s = scaleValues.size() == 1 ? scaleValues[0] : scaleValues[row];
    if (!(s > 0.0f) || !std::isfinite(s))
      return std::nullopt;
    w.scale[row] = s;
    for (int64_t i = row * k; i < (row + 1) * k; ++i) {
      const float q = std::nearbyint((*values)[i] / s);
      if (q < -128.0f || q > 127.0f || q * s != (*values)[i])
        return std::nullopt;
      w.q[i] = (int8_t)q;
    }
  }
  return w;
}

/// The QuantizeLinear of `v` to uint8 in [0, 255]: clip(round(v / sy) [+ zy], 0, 255), every op
/// but the clip used once.
struct Quantize {
  ClipOp clip;
  double scale, zeroPoint;
};

std::optional<Quantize> matchQuantize(Value v) {
  if (!v.hasOneUse())
    return std::nullopt;
  auto div = dyn_cast<DivOp>(*v.getUsers().begin());
  if (!div || div.getLhs() != v || !div->hasOneUse())
    return std::nullopt;
  std::optional<double> scale = scalarConstant(div.getRhs());
  auto round = dyn_cast<RoundOp>(*div->getUsers().begin());
  if (!scale || !round || !round->hasOneUse())
    return std::nullopt;
  Operation *next = *round->getUsers().begin();
  double zp = 0.0;
  if (auto add = dyn_cast<AddOp>(next)) {
    std::optional<double> z = scalarConstant(add.getRhs());
    if (add.getLhs() != round.getResult() || !z || !add->hasOneUse())
      return std::nullopt;
    zp = *z;
    next = *add->getUsers().begin();
  }
  auto clip = dyn_cast<ClipOp>(next);
  if (!clip || !clipsTo(clip, 0.0, 255.0) || zp < 0.0 || zp > 255.0 || zp != std::nearbyint(zp) ||
      tensorTypeOf(clip.getResult()) != tensorTypeOf(v))
    return std::nullopt;
  return Quantize{clip, *scale, zp};
}

/// A new constant holding `values` (of `type`) in a new blob named after `name`.
template <typename T>
Value createConstant(OpBuilder &b, Location loc, RankedTensorType type, ArrayRef<T> values,
                     StringRef name) {
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(T)),
      alignof(T), /*dataIsMutable=*/false);
  return ConstantOp::create(b, loc, DenseResourceElementsAttr::get(type, name, std::move(blob)));
}

struct QdqConvToInteger : OpRewritePattern<Conv2dOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2dOp conv, PatternRewriter &rewriter) const override {
    RankedTensorType outType = conv.getType();
    if (conv.getGroups() != 1 || conv.getAccType() || !outType.getElementType().isF32() ||
        !outType.hasStaticShape() || !tensorTypeOf(conv.getInput()).hasStaticShape())
      return rewriter.notifyMatchFailure(conv, "not a static f32 convolution of one group");
    std::optional<Dequantized> in = matchDequantize(conv.getInput());
    if (!in || in->zeroPoint < 0.0 || in->zeroPoint > 255.0 ||
        in->zeroPoint != std::nearbyint(in->zeroPoint) || !(in->scale > 0.0))
      return rewriter.notifyMatchFailure(conv, "input is not a uint8 DequantizeLinear");
    std::optional<IntWeights> w = recoverInt8Weights(conv.getFilter());
    if (!w)
      return rewriter.notifyMatchFailure(conv, "filter is not dequantized symmetric int8");
    // An optional relu, then the QuantizeLinear.
    Value result = conv.getResult();
    bool relu = false;
    if (result.hasOneUse())
      if (auto r = dyn_cast<ReluOp>(*result.getUsers().begin())) {
        relu = true;
        result = r.getResult();
      }
    std::optional<Quantize> out = matchQuantize(result);
    if (!out || !(out->scale > 0.0))
      return rewriter.notifyMatchFailure(conv, "result is not quantized to uint8");
    const int64_t f = outType.getDimSize(1), k = w->q.size() / f;
    const float sx = (float)in->scale, sy = (float)out->scale;
    const int64_t zx = (int64_t)in->zeroPoint;
    // The bias as int32 multiples of sx * scale[f] (how QDQ models quantize it).
    SmallVector<float> bias(f, 0.0f);
    if (Value b = conv.getBias()) {
      std::optional<SmallVector<float>> values = readF32Constant(b);
      if (!values)
        return rewriter.notifyMatchFailure(conv, "bias is not an f32 constant");
      bias = std::move(*values);
    }
    SmallVector<int32_t> intBias(f);
    SmallVector<float> multiplier(f);
    for (int64_t row = 0; row < f; ++row) {
      const float biasScale = sx * w->scale[row];
      const double q = std::nearbyint((double)bias[row] / biasScale);
      if (std::abs(q) > 1e9 ||
          std::abs((float)q * biasScale - bias[row]) > 1e-6f * std::abs(bias[row]))
        return rewriter.notifyMatchFailure(conv, "bias is not an int32 quantized bias");
      int64_t rowSum = 0;
      for (int64_t i = row * k; i < (row + 1) * k; ++i)
        rowSum += w->q[i];
      const int64_t folded = (int64_t)q - zx * rowSum;
      if (folded < INT32_MIN || folded > INT32_MAX)
        return rewriter.notifyMatchFailure(conv, "bias does not fit int32");
      intBias[row] = (int32_t)folded;
      // As onnxruntime computes QLinearConv's output scales: in f32.
      multiplier[row] = sx * w->scale[row] / sy;
    }
    Value x = uint8Source(rewriter, in->x);
    if (!x)
      return rewriter.notifyMatchFailure(conv, "input does not hold uint8 values");

    Location loc = conv.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType filterType = tensorTypeOf(conv.getFilter());
    StringRef name = "qconv";
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(
            conv.getFilter().getDefiningOp<ConstantOp>().getValue()))
      name = resource.getRawHandle().getKey();
    Value filter = createConstant<int8_t>(
        rewriter, loc, filterType.clone(IntegerType::get(ctx, 8)), w->q, (name + ".int8").str());
    Value biasValue =
        createConstant<int32_t>(rewriter, loc, RankedTensorType::get({f}, rewriter.getI32Type()),
                                intBias, (name + ".int32_bias").str());
    Value scaleValue =
        createConstant<float>(rewriter, loc, RankedTensorType::get({f}, rewriter.getF32Type()),
                              multiplier, (name + ".requant_scale").str());
    const int64_t zy = (int64_t)out->zeroPoint;
    auto qconv = QConv2dOp::create(
        rewriter, rewriter.getFusedLoc({loc, out->clip.getLoc()}), x, filter, biasValue,
        scaleValue, conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
        rewriter.getI64IntegerAttr(zx), rewriter.getI64IntegerAttr(zy),
        rewriter.getI64IntegerAttr(relu ? zy : 0), rewriter.getI64IntegerAttr(255));
    rewriter.setInsertionPointAfter(out->clip);
    rewriter.replaceOpWithNewOp<CastOp>(out->clip, outType, qconv.getResult());
    return success();
  }
};

/// A QuantizeLinear's value read both as uint8 (by an integer convolution, through `cast`) and as
/// f32 (by a DequantizeLinear: a residual branch) is read as uint8 by all: the f32 readers get
/// the uint8 tensor converted back (exact: the value is an integer in [0, 255]). Then the
/// QuantizeLinear's kernel stores one byte an element instead of four plus a separate conversion
/// kernel (its clip had a reader outside any one fused group), and the readers load a quarter of
/// the bytes.
struct ReadQuantizedAsUint8 : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp cast, PatternRewriter &rewriter) const override {
    auto clip = cast.getInput().getDefiningOp<ClipOp>();
    auto u8 = IntegerType::get(getContext(), 8, IntegerType::Unsigned);
    if (!clip || cast.getType() != tensorTypeOf(clip.getResult()).clone(u8) ||
        uint8Source(rewriter, clip.getResult()) != cast.getResult())
      return failure();
    SmallVector<OpOperand *> floatReaders;
    for (OpOperand &use : clip->getUses())
      if (use.getOwner() != cast.getOperation())
        floatReaders.push_back(&use);
    if (floatReaders.empty())
      return failure();
    rewriter.setInsertionPointAfter(cast);
    Value widened = CastOp::create(rewriter, cast.getLoc(), clip.getType(), cast.getResult());
    for (OpOperand *use : floatReaders)
      rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(widened); });
    return success();
  }
};

struct MsIntegerQdqPass : impl::MsIntegerQdqPassBase<MsIntegerQdqPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<QdqConvToInteger, ReadQuantizedAsUint8>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::ms
