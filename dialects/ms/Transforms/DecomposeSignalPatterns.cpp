//===- DecomposeSignalPatterns.cpp - ms-decompose's DFT and STFT rewrites ---===//
//
//   dft:  the transformed axis moved last, the real and imaginary parts split off, then
//         products with [rows, bins] cos and sin matrices built here in f64 (the angles reduced
//         mod length so long transforms stay exact): a truncated signal is sliced, a zero-padded
//         one simply has fewer matrix rows. The sums run in f64: a transform of f32 data
//         accumulated in f32 is off by about eps * |x| * sqrt(rows), far more than ONNX's
//         tolerance on the (often near-zero) bins.
//   stft: the frames are one ms.gather of the signal by a constant [frames, frame_length]
//         index, each weighted by the window, then the products of dft.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ms;

namespace {

/// The DFT of `re` (and `im` when the signal is complex; null when real) along their last dim,
/// at transform length `length`: bins 0 .. bins - 1 of sum_n x[n] exp(sign * 2 pi i k n /
/// length), times `scale`. Returns the real and imaginary parts, each [..., bins].
std::pair<Value, Value> dftMatmul(OpChain &o, Value re, Value im, int64_t length, int64_t bins,
                                  bool inverse, double scale) {
  RankedTensorType type = tensorTypeOf(re);
  Type et = type.getElementType();
  int64_t samples = type.getShape().back();
  int64_t rows = std::min(samples, length);
  if (rows < samples) { // truncate
    SmallVector<int64_t> starts(type.getRank(), 0), sizes(type.getShape()),
        steps(type.getRank(), 1);
    sizes.back() = rows;
    re = o.slice(re, starts, sizes, steps);
    if (im)
      im = o.slice(im, starts, sizes, steps);
  }
  SmallVector<double> cosines, sines;
  double sign = inverse ? 1.0 : -1.0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < bins; ++k) {
      double angle = 2.0 * M_PI * double((k * r) % length) / double(length);
      cosines.push_back(std::cos(angle) * scale);
      sines.push_back(sign * std::sin(angle) * scale);
    }
  Type f64 = Float64Type::get(et.getContext());
  re = o.cast(re, f64);
  if (im)
    im = o.cast(im, f64);
  Value cosMatrix = o.floats({rows, bins}, f64, cosines);
  Value sinMatrix = o.floats({rows, bins}, f64, sines);
  auto matmul = [&](Value a, Value b) { return o.op<MatMulOp>(a, b, TypeAttr()); };
  // (re + i im)(cos + i sin) = (re cos - im sin) + i (re sin + im cos)
  Value outRe = matmul(re, cosMatrix), outIm = matmul(re, sinMatrix);
  if (im) {
    outRe = o.sub(outRe, matmul(im, sinMatrix));
    outIm = o.add(outIm, matmul(im, cosMatrix));
  }
  return {o.cast(outRe, et), o.cast(outIm, et)};
}

/// [..., 2] from real and imaginary parts of the same shape.
Value interleaveComplex(OpChain &o, Value re, Value im) {
  SmallVector<int64_t> shape(tensorTypeOf(re).getShape());
  shape.push_back(1);
  return o.op<ConcatOp>(ValueRange{o.reshape(re, shape), o.reshape(im, shape)},
                        uint64_t(shape.size() - 1));
}

struct DecomposeDft : OpRewritePattern<DftOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DftOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    int64_t rank = xType.getRank(), axis = op.getAxis(), length = op.getLength();
    bool inverse = op.getInverse();
    int64_t bins = op.getType().getDimSize(axis);
    OpChain o(rewriter, op.getLoc());
    Value x = op.getInput();
    // Split off the real and imaginary parts, the transformed axis moved last.
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank - 1; ++d)
      if (d != axis)
        perm.push_back(d);
    perm.push_back(axis);
    SmallVector<int64_t> partShape(xType.getShape().drop_back());
    auto part = [&](int64_t which) {
      SmallVector<int64_t> starts(rank, 0), sizes(xType.getShape()), steps(rank, 1);
      starts.back() = which;
      sizes.back() = 1;
      return o.transpose(o.reshape(o.slice(x, starts, sizes, steps), partShape), perm);
    };
    Value re = xType.getShape().back() == 1 ? o.transpose(o.reshape(x, partShape), perm) : part(0);
    Value im = xType.getShape().back() == 2 ? part(1) : Value();
    auto [outRe, outIm] =
        dftMatmul(o, re, im, length, bins, inverse, inverse ? 1.0 / double(length) : 1.0);
    Value y = interleaveComplex(o, outRe, outIm);
    // Move the bins back to `axis` (the complex dim stays last).
    SmallVector<int64_t> back(rank);
    for (int64_t d = 0; d < rank - 1; ++d)
      back[perm[d]] = d;
    back[rank - 1] = rank - 1;
    rewriter.replaceOp(op, o.transpose(y, back));
    return success();
  }
};

struct DecomposeStft : OpRewritePattern<StftOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StftOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    int64_t batch = xType.getDimSize(0), parts = xType.getDimSize(2);
    int64_t step = op.getFrameStep(), frameLength = op.getFrameLength();
    int64_t frames = op.getType().getDimSize(1), bins = op.getType().getDimSize(2);
    OpChain o(rewriter, op.getLoc());
    SmallVector<int64_t> index;
    for (int64_t f = 0; f < frames; ++f)
      for (int64_t t = 0; t < frameLength; ++t)
        index.push_back(f * step + t);
    auto indexType = RankedTensorType::get({frames, frameLength}, rewriter.getI64Type());
    Value indices = o.constant(DenseElementsAttr::get(indexType, ArrayRef<int64_t>(index)));
    // [batch, frames, frameLength, parts]
    Value framed = o.op<GatherOp>(op.getInput(), indices, uint64_t(1));
    Value window;
    if (op.getWindow())
      window = o.reshape(o.cast(op.getWindow(), xType.getElementType()), {1, 1, frameLength});
    auto part = [&](int64_t which) {
      Value p = o.reshape(
          o.slice(framed, {0, 0, 0, which}, {batch, frames, frameLength, 1}, {1, 1, 1, 1}),
          {batch, frames, frameLength});
      return window ? o.mul(p, window) : p;
    };
    Value re = part(0), im = parts == 2 ? part(1) : Value();
    auto [outRe, outIm] = dftMatmul(o, re, im, frameLength, bins, /*inverse=*/false, 1.0);
    rewriter.replaceOp(op, interleaveComplex(o, outRe, outIm));
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeSignalPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeDft, DecomposeStft>(patterns.getContext());
}
