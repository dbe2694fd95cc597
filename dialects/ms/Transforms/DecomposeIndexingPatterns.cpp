//===- DecomposeIndexingPatterns.cpp - ms-decompose's one_hot, ... --------===//
//
// The expansions of MsCompositeIndexingOps.td, as the importer built them:
//   one_hot:          where(indices == range(depth), on, off), the range laid along the new axis;
//                     negative indices wrap by depth; constant values become two scalars;
//   reverse_sequence: one gather along the time axis by t < len[b] ? len[b] - 1 - t : t;
//   tensor_scatter:   the update gathered at p - w[b] (mod the cache length when circular) where
//                     0 <= p - w[b] < the update's length, the cache elsewhere;
//   max_unpool:       one scatter of the values to their flat indices in a zero tensor, reshaped
//                     to the unpooled shape and padded to output_shape;
//   max_pool_indices: the input padded with -inf (so padding never wins) read once per window tap
//                     with a strided slice; a strictly greater tap replaces the running maximum
//                     and its index, so the first maximum in row-major window order stays, as in
//                     ONNX's reference; indices are a constant [Hp, Wp] plane index plus a
//                     constant [N, C, 1, 1] offset.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsShapeUtils.h"
#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

#include <limits>

using namespace mlir;
using namespace mlir::ms;

namespace {

SmallVector<int64_t> iota(int64_t from, int64_t to) {
  return llvm::to_vector(llvm::seq<int64_t>(from, to));
}

/// A 1-D int64 value laid along dim `axis` of a rank-`rank` shape (ones elsewhere).
Value alongAxis(OpChain &o, Value v, int64_t axis, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = tensorTypeOf(v).getNumElements();
  return o.reshape(v, shape);
}

struct DecomposeOneHot : OpRewritePattern<OneHotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(OneHotOp op, PatternRewriter &rewriter) const override {
    RankedTensorType indicesType = op.getIndices().getType();
    int64_t rank = indicesType.getRank() + 1, depth = op.getDepth();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    OpChain o(rewriter, op.getLoc());
    Type indexType = rewriter.getI64Type();
    Value indices = o.cast(op.getIndices(), indexType); // float indices truncate, as ONNX casts
    Value zero = o.scalar(indexType, 0.0);
    Value wrapped = o.add(indices, o.scalar(indexType, (double)depth));
    indices = o.where(o.compare(ComparePredicate::lt, indices, zero), wrapped, indices);
    SmallVector<int64_t> lifted(indicesType.getShape());
    lifted.insert(lifted.begin() + axis, 1);
    SmallVector<int64_t> rangeShape(rank, 1);
    rangeShape[axis] = depth;
    Value range = o.ints(rangeShape, indexType, iota(0, depth));
    Value hot = o.compare(ComparePredicate::eq, o.reshape(indices, lifted), range);

    // Constant values (the importer knew them) become two scalar constants; others are sliced.
    Value off, on;
    DenseElementsAttr values;
    if (matchPattern(op.getValues(), m_Constant(&values))) {
      auto scalarType = RankedTensorType::get({}, values.getElementType());
      auto element = [&](int64_t i) {
        return o.constant(DenseElementsAttr::get(scalarType, values.getValues<Attribute>()[i]));
      };
      off = element(0);
      on = element(1);
    } else {
      Value flat = o.reshape(op.getValues(), {2});
      off = o.reshape(o.slice(flat, {0}, {1}, {1}), {});
      on = o.reshape(o.slice(flat, {1}, {1}, {1}), {});
    }
    rewriter.replaceOp(op, o.where(hot, on, off));
    return success();
  }
};

struct DecomposeReverseSequence : OpRewritePattern<ReverseSequenceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReverseSequenceOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    int64_t rank = xType.getRank(), batchAxis = op.getBatchAxis(), timeAxis = op.getTimeAxis();
    int64_t steps = xType.getDimSize(timeAxis);
    OpChain o(rewriter, op.getLoc());
    Type i64 = rewriter.getI64Type();
    Value time = alongAxis(o, o.ints({steps}, i64, iota(0, steps)), timeAxis, rank);
    Value lens = alongAxis(o, op.getSequenceLens(), batchAxis, rank);
    Value reversed = o.sub(o.sub(lens, o.scalar(i64, 1.0)), time);
    Value index = o.where(o.compare(ComparePredicate::lt, time, lens), reversed, time);
    index = o.expand(index, xType.getShape());
    rewriter.replaceOp(op, o.op<GatherElementsOp>(op.getInput(), index, uint64_t(timeAxis)));
    return success();
  }
};

struct DecomposeTensorScatter : OpRewritePattern<TensorScatterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TensorScatterOp op, PatternRewriter &rewriter) const override {
    RankedTensorType cType = op.getPastCache().getType(), uType = op.getUpdate().getType();
    int64_t rank = cType.getRank();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    int64_t length = cType.getDimSize(axis), updates = uType.getDimSize(axis);
    if (updates == 0) { // nothing to write
      rewriter.replaceOp(op, op.getPastCache());
      return success();
    }
    OpChain o(rewriter, op.getLoc());
    Type i64 = rewriter.getI64Type();
    Value positions = alongAxis(o, o.ints({length}, i64, iota(0, length)), axis, rank);
    Value offset = positions;
    if (Value w = op.getWriteIndices())
      offset = o.sub(positions, alongAxis(o, w, 0, rank));
    if (op.getCircular())
      offset = o.op<ModOp>(offset, o.scalar(i64, (double)length), false);
    Value written =
        o.op<AndOp>(o.compare(ComparePredicate::ge, offset, o.scalar(i64, 0.0)),
                    o.compare(ComparePredicate::lt, offset, o.scalar(i64, (double)updates)));
    Value index =
        o.op<MinOp>(o.op<MaxOp>(offset, o.scalar(i64, 0.0)), o.scalar(i64, (double)(updates - 1)));
    Value gathered =
        o.op<GatherElementsOp>(op.getUpdate(), o.expand(index, cType.getShape()), uint64_t(axis));
    rewriter.replaceOp(op, o.where(written, gathered, op.getPastCache()));
    return success();
  }
};

struct DecomposeMaxUnpool : OpRewritePattern<MaxUnpoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaxUnpoolOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    SmallVector<int64_t> unpooled = op.getUnpooledShape();
    int64_t rank = xType.getRank(), total = 1, count = xType.getNumElements();
    for (int64_t d : unpooled)
      total *= d;
    // An output_shape larger than the unpooled shape: zeros after its block.
    SmallVector<int64_t> growth(2 * rank, 0);
    ArrayRef<int64_t> outputShape = op.getOutputShape();
    for (int64_t d = 0; d < rank && !outputShape.empty(); ++d)
      growth[rank + d] = outputShape[d] - unpooled[d];
    OpChain o(rewriter, op.getLoc());
    Value zeros = o.expand(o.scalar(xType.getElementType(), 0.0), {total});
    Value flat = o.op<ScatterElementsOp>(zeros, o.reshape(op.getIndices(), {count}),
                                         o.reshape(op.getInput(), {count}), uint64_t(0),
                                         ScatterReduction::none);
    rewriter.replaceOp(op, o.pad(o.reshape(flat, unpooled), growth));
    return success();
  }
};

struct DecomposeMaxPoolIndices : OpRewritePattern<MaxPoolIndicesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaxPoolIndicesOp op, PatternRewriter &rewriter) const override {
    Value x = op.getInput();
    ArrayRef<int64_t> in = tensorTypeOf(x).getShape(), out = op.getType().getShape();
    ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(), pads = op.getPads(),
                      dilations = op.getDilations();
    bool columnMajor = op.getColumnMajor();
    int64_t batch = in[0], channels = in[1], h = in[2], w = in[3];
    // Rows/columns the last window reaches past the padded input (ceil_mode) are padded too.
    SmallVector<int64_t> padEnd = {pads[2], pads[3]};
    int64_t extent[2];
    for (int i = 0; i < 2; ++i) {
      int64_t reach = (out[2 + i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1;
      extent[i] = std::max(reach, in[2 + i] + pads[i] + pads[2 + i]);
      padEnd[i] = extent[i] - in[2 + i] - pads[i];
    }
    SmallVector<int64_t> plane;
    for (int64_t r = 0; r < extent[0]; ++r) {
      for (int64_t c = 0; c < extent[1]; ++c) {
        int64_t hh = r - pads[0], ww = c - pads[1];
        bool inside = hh >= 0 && hh < h && ww >= 0 && ww < w;
        plane.push_back(!inside ? 0 : columnMajor ? hh + ww * h : hh * w + ww);
      }
    }
    SmallVector<int64_t> offsets;
    for (int64_t i = 0; i < batch * channels; ++i)
      offsets.push_back(i * h * w);
    Type i64 = rewriter.getI64Type();
    OpChain o(rewriter, op.getLoc());
    Value padded =
        o.op<PadOp>(x, ArrayRef<int64_t>{0, 0, pads[0], pads[1], 0, 0, padEnd[0], padEnd[1]},
                    PadMode::constant, APFloat(-std::numeric_limits<double>::infinity()));
    Value planeIndex = o.ints({extent[0], extent[1]}, i64, plane);
    Value best, bestIndex;
    for (int64_t i = 0; i < kernel[0]; ++i) {
      for (int64_t j = 0; j < kernel[1]; ++j) {
        int64_t r = i * dilations[0], c = j * dilations[1];
        Value tap = o.slice(padded, {0, 0, r, c}, {batch, channels, out[2], out[3]},
                            {1, 1, strides[0], strides[1]});
        Value tapIndex = o.slice(planeIndex, {r, c}, {out[2], out[3]}, {strides[0], strides[1]});
        if (!best) {
          best = tap;
          bestIndex = o.expand(tapIndex, {batch, channels, out[2], out[3]});
          continue;
        }
        Value greater = o.compare(ComparePredicate::gt, tap, best);
        best = o.where(greater, tap, best);
        bestIndex = o.where(greater, tapIndex, bestIndex);
      }
    }
    Value offset = o.ints({batch, channels, 1, 1}, i64, offsets);
    rewriter.replaceOp(op, o.add(bestIndex, offset));
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeIndexingPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeOneHot, DecomposeReverseSequence, DecomposeTensorScatter,
               DecomposeMaxUnpool, DecomposeMaxPoolIndices>(patterns.getContext());
}
