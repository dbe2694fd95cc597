//===- DecomposeConvPatterns.cpp - ms-decompose's convolution/pool rewrites -===//
//
//   conv3d:         one ms.conv2d over (H, W): the input padded in depth, its KD depth taps of
//                   each output depth stacked as channels (c, kd), c-major, so that the filter
//                   [F, C / g, KD, KH, KW] is read as [F, C / g * KD, KH, KW] as it is and each
//                   group's channels stay together; the output depths go into the batch. The
//                   GEMM's reduction is C * KD * KH * KW long, as a native 3-D kernel's would be,
//                   and the 2-D kernels (implicit GEMM, Winograd) run it.
//   conv_transpose: the input with stride - 1 zeros between elements (reshape, pad, reshape),
//                   padded by dilation * (k - 1) - pad on each side (negative: a crop) plus
//                   output_padding at the end, then a stride-1 convolution (conv2d, conv3d; 1-D
//                   as 2-D with a height of 1) with the filter [C, F / g, k...] regrouped to
//                   [F, C / g, k...] and flipped spatially: for model data, a new resource made
//                   here, so that no transpose runs per inference.
//   3-D max_pool / avg_pool: a 2-D pool over (H, W) of [N, C * D, H, W], then one over D of
//                   [N, C, D, H' * W'] (a window x pool separates per dim: its maximum, its
//                   sum and its element count, padding counted or not, are products or
//                   repeated maxima of per-dim ones).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"

#include <cstring>

using namespace mlir;
using namespace mlir::ms;

namespace {

ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

Value reshape(PatternRewriter &rewriter, Location loc, Value x, ArrayRef<int64_t> shape) {
  return ReshapeOp::create(rewriter, loc, x, shape);
}

/// The sizes of a rewrite under a batch that may be symbolic: `batch` times `scale`, then the
/// static `rest`.
SmallVector<AffineExpr> withBatch(AffineExpr batch, int64_t scale, ArrayRef<int64_t> rest) {
  SmallVector<AffineExpr> dims = {batch * scale};
  for (int64_t size : rest)
    dims.push_back(getAffineConstantExpr(size, batch.getContext()));
  return dims;
}

/// The batch (dim 0) of `x`: its size, or its expression over the function's symbols.
AffineExpr batchOf(Value x) { return symbolicDimsOf(x).front(); }

Value pad(PatternRewriter &rewriter, Location loc, Value x, ArrayRef<int64_t> pads) {
  return PadOp::create(rewriter, loc, x, pads, PadMode::constant, APFloat(0.0));
}

Value conv2d(PatternRewriter &rewriter, Location loc, Value x, Value w, Value bias,
             ArrayRef<int64_t> strides, ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations,
             int64_t groups) {
  return Conv2dOp::create(rewriter, loc, x, w, bias, strides, pads, dilations,
                          static_cast<uint64_t>(groups), TypeAttr());
}

struct DecomposeConv3d : OpRewritePattern<Conv3dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv3dOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> xs = shapeOf(op.getInput()), ws = shapeOf(op.getFilter());
    ArrayRef<int64_t> strides = op.getStrides(), pads = op.getPads(),
                      dilations = op.getDilations();
    // The batch may be symbolic (the verifier keeps every other dim static).
    const AffineExpr batch = batchOf(op.getInput());
    const int64_t channels = xs[1], height = xs[3], width = xs[4], taps = ws[2];
    const int64_t outDepth = op.getType().getDimSize(2);
    // The stacked input [N, C, KD, OD, H, W] must stay a size int64 can count.
    int64_t elements = 1;
    for (int64_t d : {xs[0], channels, taps, outDepth, height, width})
      if (!ShapedType::isDynamic(d) &&
          (llvm::MulOverflow(elements, d, elements) || elements > (int64_t(1) << 48)))
        return rewriter.notifyMatchFailure(op, "the stacked input is too large");
    Value padded = op.getInput();
    if (pads[0] || pads[3])
      padded = pad(rewriter, loc, padded, {0, 0, pads[0], 0, 0, 0, 0, pads[3], 0, 0});
    auto [slabSizes, slabMap] =
        staticAndSymbolic(op, withBatch(batch, 1, {channels, outDepth, height, width}));
    SmallVector<Value> slabs;
    for (int64_t tap = 0; tap < taps; ++tap) {
      Value slab = SliceOp::create(
          rewriter, loc, padded, rewriter.getDenseI64ArrayAttr({0, 0, tap * dilations[0], 0, 0}),
          rewriter.getDenseI64ArrayAttr(slabSizes),
          rewriter.getDenseI64ArrayAttr({1, 1, strides[0], 1, 1}), slabMap, AffineMapAttr());
      slabs.push_back(reshapeToDims(rewriter, op, slab,
                                    withBatch(batch, 1, {channels, 1, outDepth, height, width})));
    }
    Value stacked = slabs.size() == 1 ? slabs.front()
                                      : ConcatOp::create(rewriter, loc, ValueRange(slabs), 2);
    stacked = TransposeOp::create(rewriter, loc, stacked, ArrayRef<int64_t>{0, 3, 1, 2, 4, 5});
    stacked = reshapeToDims(rewriter, op, stacked,
                            withBatch(batch, outDepth, {channels * taps, height, width}));
    Value filter = reshape(rewriter, loc, op.getFilter(), {ws[0], ws[1] * taps, ws[3], ws[4]});
    Value y = conv2d(rewriter, loc, stacked, filter, op.getBias(), {strides[1], strides[2]},
                     {pads[1], pads[2], pads[4], pads[5]}, {dilations[1], dilations[2]},
                     op.getGroups());
    ArrayRef<int64_t> ys = shapeOf(y);
    y = reshapeToDims(rewriter, op, y, withBatch(batch, 1, {outDepth, ys[1], ys[2], ys[3]}));
    rewriter.replaceOpWithNewOp<TransposeOp>(op, y, ArrayRef<int64_t>{0, 2, 1, 3, 4});
    return success();
  }
};

/// The convolution filter [F, C / g, k...] of a transposed convolution's filter [C, F / g, k...]
/// held as a resource (model data), as a new resource beside it; null otherwise.
Value flippedResource(PatternRewriter &rewriter, Value filter, int64_t groups,
                      ArrayRef<int64_t> convShape) {
  auto constant = filter.getDefiningOp<ConstantOp>();
  auto resource = constant ? dyn_cast<DenseResourceElementsAttr>(constant.getValue())
                           : DenseResourceElementsAttr();
  if (!resource || !resource.getRawHandle().getBlob())
    return Value();
  ArrayRef<char> bytes = resource.getData();
  auto type = cast<RankedTensorType>(filter.getType());
  int64_t count = type.getNumElements();
  if (count == 0 || bytes.size() % count != 0)
    return Value();
  size_t width = bytes.size() / count;
  // Flipping every spatial dim of a row-major kernel reverses its linear order.
  int64_t features = convShape[0], perGroupIn = convShape[1];
  int64_t kernelSize = 1;
  for (int64_t k : convShape.drop_front(2))
    kernelSize *= k;
  int64_t perGroupOut = features / groups;
  std::vector<char> flipped(bytes.size());
  char *to = flipped.data();
  for (int64_t f = 0; f < features; ++f) {
    int64_t g = f / perGroupOut, fInGroup = f % perGroupOut;
    for (int64_t c = 0; c < perGroupIn; ++c) {
      int64_t block = ((g * perGroupIn + c) * perGroupOut + fInGroup) * kernelSize;
      for (int64_t pos = 0; pos < kernelSize; ++pos, to += width)
        std::memcpy(to, bytes.data() + (block + kernelSize - 1 - pos) * width, width);
    }
  }
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      flipped, resource.getRawHandle().getBlob()->getDataAlignment(), /*dataIsMutable=*/false);
  std::string name = (resource.getRawHandle().getKey() + ".flipped").str();
  auto attr = DenseResourceElementsAttr::get(type.clone(convShape), name, std::move(blob));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(constant); // with the model's other constants
  return ConstantOp::create(rewriter, constant.getLoc(), attr);
}

struct DecomposeConvTranspose : OpRewritePattern<ConvTransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvTransposeOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> xs = shapeOf(op.getInput()), ws = shapeOf(op.getFilter());
    const size_t spatial = xs.size() - 2;
    // Everything below is 2-D or 3-D: a 1-D op gets a leading spatial dim of 1.
    auto lift = [&](ArrayRef<int64_t> v, int64_t one) {
      SmallVector<int64_t> lifted(v);
      if (spatial == 1)
        lifted.insert(lifted.begin(), one);
      return lifted;
    };
    SmallVector<int64_t> resolvedPads = op.getResolvedPads();
    ArrayRef<int64_t> pads = resolvedPads;
    SmallVector<int64_t> s = lift(op.getStrides(), 1), d = lift(op.getDilations(), 1),
                         k = lift(ws.drop_front(2), 1), in = lift(xs.drop_front(2), 1),
                         begin = lift(pads.take_front(spatial), 0),
                         end = lift(pads.drop_front(spatial), 0),
                         extra = lift(op.getOutputPadding(), 0);
    const size_t dims = s.size();
    const AffineExpr batch = batchOf(op.getInput()); // may be symbolic; the rest is static
    const int64_t channels = xs[1], groups = op.getGroups();
    const int64_t perGroupOut = ws[1], features = groups * perGroupOut,
                  perGroupIn = channels / groups;

    // Zero insertion: [N, C, I0, 1, I1, 1, ...] padded to [N, C, I0, s0, I1, s1, ...]; the
    // trailing stride - 1 zeros are cropped by the next pad, which also adds
    // dilation * (k - 1) - pad on each side and output_padding at the end.
    SmallVector<int64_t> interleaved = {channels}, zeroPads(2 * (2 + 2 * dims), 0),
                         dilated = {channels}, convPads(2 * (2 + dims), 0);
    bool strided = false;
    for (size_t i = 0; i < dims; ++i) {
      int64_t reach = d[i] * (k[i] - 1);
      interleaved.append({in[i], 1});
      zeroPads[2 + 2 * dims + 2 + 2 * i + 1] = s[i] - 1;
      dilated.push_back(in[i] * s[i]);
      convPads[2 + i] = reach - begin[i];
      convPads[2 + dims + 2 + i] = reach - end[i] + extra[i] - (s[i] - 1);
      strided |= s[i] != 1;
    }
    Value x = reshapeToDims(rewriter, op, op.getInput(), withBatch(batch, 1, interleaved));
    if (strided)
      x = pad(rewriter, loc, x, zeroPads);
    x = pad(rewriter, loc, reshapeToDims(rewriter, op, x, withBatch(batch, 1, dilated)), convPads);

    // The filter as [F, C / g, k...], spatially flipped.
    SmallVector<int64_t> convShape = {features, perGroupIn};
    llvm::append_range(convShape, k);
    Value w;
    SmallVector<int64_t> ownShape = {features, perGroupIn};
    llvm::append_range(ownShape, ws.drop_front(2));
    if (Value flipped = flippedResource(rewriter, op.getFilter(), groups, ownShape)) {
      w = spatial == 1 ? reshape(rewriter, loc, flipped, convShape) : flipped;
    } else {
      SmallVector<int64_t> split = {groups, perGroupIn, perGroupOut}, perm = {0, 2, 1},
                           starts = {0, 0}, steps = {1, 1};
      for (size_t i = 0; i < dims; ++i) {
        split.push_back(k[i]);
        perm.push_back(3 + i);
        starts.push_back(k[i] - 1);
        steps.push_back(-1);
      }
      w = TransposeOp::create(rewriter, loc, reshape(rewriter, loc, op.getFilter(), split), perm);
      w = SliceOp::create(rewriter, loc, reshape(rewriter, loc, w, convShape), starts, convShape,
                          steps);
    }
    Value y;
    if (dims == 2)
      y = conv2d(rewriter, loc, x, w, op.getBias(), {1, 1}, {0, 0, 0, 0}, d, groups);
    else
      y = Conv3dOp::create(rewriter, loc, x, w, op.getBias(), ArrayRef<int64_t>{1, 1, 1},
                           ArrayRef<int64_t>{0, 0, 0, 0, 0, 0}, ArrayRef<int64_t>(d),
                           static_cast<uint64_t>(groups));
    if (spatial == 1)
      y = reshapeToDims(rewriter, op, y, withBatch(batch, 1, op.getType().getShape().drop_front()));
    rewriter.replaceOp(op, y);
    return success();
  }
};


/// A 3-D pool as two 2-D ones of the same kind (max_pool, avg_pool).
template <typename PoolOp>
struct DecomposePool3d : OpRewritePattern<PoolOp> {
  using OpRewritePattern<PoolOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(PoolOp op, PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> s = shapeOf(op.getInput());
    if (s.size() != 5)
      return rewriter.notifyMatchFailure(op, "a 2-D pool");
    Location loc = op.getLoc();
    ArrayRef<int64_t> k = op.getKernel(), st = op.getStrides(), p = op.getPads(),
                      d = op.getDilations();
    auto pool = [&](Value in, ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                    ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations) -> Value {
      // The modes carry over as they are (the result type depends on ceil_mode).
      PoolOp pooled;
      if constexpr (std::is_same_v<PoolOp, AvgPoolOp>)
        pooled = PoolOp::create(rewriter, loc, in, kernel, strides, pads, dilations,
                                op.getCeilMode(), op.getCountIncludePad());
      else
        pooled = PoolOp::create(rewriter, loc, in, kernel, strides, pads, dilations,
                                op.getCeilMode());
      return pooled;
    };
    // The batch may be symbolic; the other dims must be static to be regrouped.
    if (llvm::any_of(s.drop_front(), ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(op, "a symbolic dim other than the batch");
    AffineExpr batch = batchOf(op.getInput());
    Value planes =
        reshapeToDims(rewriter, op, op.getInput(), withBatch(batch, 1, {s[1] * s[2], s[3], s[4]}));
    Value y = pool(planes, {k[1], k[2]}, {st[1], st[2]}, {p[1], p[2], p[4], p[5]}, {d[1], d[2]});
    int64_t h = shapeOf(y)[2], w = shapeOf(y)[3];
    y = reshapeToDims(rewriter, op, y, withBatch(batch, 1, {s[1], s[2], h * w}));
    y = pool(y, {k[0], 1}, {st[0], 1}, {p[0], 0, p[3], 0}, {d[0], 1});
    rewriter.replaceOp(
        op,
        reshapeToDims(rewriter, op, y, withBatch(batch, 1, op.getType().getShape().drop_front())));
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeConvPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeConv3d, DecomposeConvTranspose, DecomposePool3d<MaxPoolOp>,
               DecomposePool3d<AvgPoolOp>>(patterns.getContext());
}
