//===- FoldBatchNormPatterns.cpp - folding into conv weights --------------===//
//
// Inference batch normalization and per-channel scaling/shifting after a convolution are affine per
// output channel, so they fold into the convolution's weights and bias: w'[c] = w[c] * s[c],
// b'[c] = b[c] * s[c] + t[c]. The folded constants are new blobs; the old ones die with their last
// user.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/FusionUtils.h"
#include "dialects/ms/Transforms/Patterns.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorTypeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Per-channel values of a constant that varies only along dim `channelDim` of `resultType` (or is
/// a scalar): `channels` values, or nullopt.
std::optional<SmallVector<float>> readChannelConstant(Value v, RankedTensorType resultType,
                                                      int64_t channelDim) {
  auto type = tensorTypeOf(v);
  if (type.getRank() > resultType.getRank() || !type.hasStaticShape())
    return std::nullopt;
  int64_t channels = resultType.getDimSize(channelDim);
  int64_t offset = resultType.getRank() - type.getRank();
  bool perChannel = false;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 1)
      continue;
    if (d + offset != channelDim || type.getDimSize(d) != channels)
      return std::nullopt;
    perChannel = true;
  }
  std::optional<SmallVector<float>> values = readF32Constant(v);
  if (!values)
    return std::nullopt;
  if (!perChannel)
    return SmallVector<float>(channels, values->front());
  return values;
}

/// Replaces `conv` (and `user`, the op it folds into) by a conv2d with filter rows scaled by
/// `scale` and bias `bias * scale + shift`.
LogicalResult rebuildConv(PatternRewriter &rewriter, Conv2dOp conv, Operation *user,
                          ArrayRef<float> scale, ArrayRef<float> shift) {
  std::optional<SmallVector<float>> filter = readF32Constant(conv.getFilter());
  if (!filter)
    return rewriter.notifyMatchFailure(conv, "filter is not an f32 constant");
  int64_t channels = tensorTypeOf(conv.getFilter()).getDimSize(0);
  SmallVector<float> bias(channels, 0.0f);
  if (Value b = conv.getBias()) {
    std::optional<SmallVector<float>> values = readF32Constant(b);
    if (!values)
      return rewriter.notifyMatchFailure(conv, "bias is not an f32 constant");
    bias = std::move(*values);
  }
  int64_t rowSize = filter->size() / channels;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t i = 0; i < rowSize; ++i)
      (*filter)[c * rowSize + i] *= scale[c];
    bias[c] = bias[c] * scale[c] + shift[c];
  }
  Location loc = rewriter.getFusedLoc({conv.getLoc(), user->getLoc()});
  rewriter.setInsertionPoint(conv);
  Value newFilter =
      createF32Constant(rewriter, loc, tensorTypeOf(conv.getFilter()), *filter, "folded_filter");
  Value newBias = createF32Constant(
      rewriter, loc, RankedTensorType::get({channels}, rewriter.getF32Type()), bias, "folded_bias");
  OperationState state(loc, conv->getName());
  state.addOperands({conv.getInput(), newFilter, newBias});
  state.addAttributes(conv->getAttrs());
  state.addTypes(conv.getType());
  Operation *folded = rewriter.create(state);
  rewriter.replaceOp(user, folded->getResults());
  rewriter.eraseOp(conv);
  return success();
}

/// The conv2d producing `v` if it may be folded into its one user.
Conv2dOp foldableConv(Value v) {
  auto conv = v.getDefiningOp<Conv2dOp>();
  if (!conv || !conv->hasOneUse() || !conv.getType().getElementType().isF32())
    return nullptr;
  return conv;
}

/// Per-channel scale and shift of an inference batch_norm with constant parameters.
std::optional<std::pair<SmallVector<float>, SmallVector<float>>> batchNormAffine(BatchNormOp bn) {
  auto scale = readF32Constant(bn.getScale()), bias = readF32Constant(bn.getBias());
  auto mean = readF32Constant(bn.getMean()), var = readF32Constant(bn.getVariance());
  if (!scale || !bias || !mean || !var)
    return std::nullopt;
  double eps = bn.getEpsilon().convertToDouble();
  SmallVector<float> s(scale->size()), t(scale->size());
  for (size_t c = 0; c < s.size(); ++c) {
    s[c] = (float)((*scale)[c] / std::sqrt((double)(*var)[c] + eps));
    t[c] = (*bias)[c] - (*mean)[c] * s[c];
  }
  return std::make_pair(std::move(s), std::move(t));
}

struct FoldBatchNormIntoConv : OpRewritePattern<BatchNormOp> {
  FoldBatchNormIntoConv(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(BatchNormOp bn, PatternRewriter &rewriter) const override {
    Conv2dOp conv = foldableConv(bn.getInput());
    if (!conv)
      return rewriter.notifyMatchFailure(bn, "input is not a single-use f32 conv2d");
    auto affine = batchNormAffine(bn);
    if (!affine)
      return rewriter.notifyMatchFailure(bn, "parameters are not f32 constants");
    // Conv bias b becomes b * s + (beta - mean * s) = (b - mean) * s + beta.
    return rebuildConv(rewriter, conv, bn, affine->first, affine->second);
  }
};

/// conv2d * c and conv2d + c with a per-channel or scalar constant `c`.
template <typename OpTy, bool IsScale>
struct FoldConstantIntoConv : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    for (int i = 0; i < 2; ++i) {
      Conv2dOp conv = foldableConv(op->getOperand(i));
      if (!conv || op.getType() != conv.getType())
        continue;
      auto values = readChannelConstant(op->getOperand(1 - i), conv.getType(), 1);
      if (!values)
        continue;
      int64_t channels = values->size();
      SmallVector<float> scale(channels, 1.0f), shift(channels, 0.0f);
      (IsScale ? scale : shift) = std::move(*values);
      return rebuildConv(rewriter, conv, op, scale, shift);
    }
    return rewriter.notifyMatchFailure(op, "not a conv2d and a per-channel f32 constant");
  }
};

/// batch_norm with constant parameters that cannot fold into a conv: x * s + t with per-channel
/// constants shaped [C, 1, ...] (which elementwise fusion merges with the neighbours).
struct BatchNormToScaleShift : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BatchNormOp bn, PatternRewriter &rewriter) const override {
    RankedTensorType type = bn.getType();
    if (type.getRank() < 2 || !type.getElementType().isF32())
      return rewriter.notifyMatchFailure(bn, "expects an f32 input of rank >= 2");
    auto affine = batchNormAffine(bn);
    if (!affine)
      return rewriter.notifyMatchFailure(bn, "parameters are not f32 constants");
    SmallVector<int64_t> shape(type.getRank() - 1, 1);
    shape[0] = type.getDimSize(1);
    auto paramType = RankedTensorType::get(shape, rewriter.getF32Type());
    Location loc = bn.getLoc();
    Value s = createF32Constant(rewriter, loc, paramType, affine->first, "bn_scale");
    Value t = createF32Constant(rewriter, loc, paramType, affine->second, "bn_shift");
    Value scaled = MulOp::create(rewriter, loc, bn.getInput(), s);
    rewriter.replaceOpWithNewOp<AddOp>(bn, scaled, t);
    return success();
  }
};

} // namespace

void ms::populateFoldBatchNormPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldBatchNormIntoConv, FoldConstantIntoConv<MulOp, true>,
               FoldConstantIntoConv<AddOp, false>, BatchNormToScaleShift>(patterns.getContext());
}
