//===- MsToMieShape.cpp - gather, slice, split, pad, expand, resize -> mie ===//
//
// Data movement that is not a plain row-major copy. Boxes with positive strides are memref
// subviews copied by linalg.copy; everything else is one parallel linalg.generic over the output
// whose body computes the source position from linalg.index and reads it with memref.load (the
// source buffer is a kernel argument, so the loops stay parallelizable).
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

using IterType = utils::IteratorType;
using IndexFn = function_ref<Value(OpBuilder &, Location)>;

/// `axis` (the attribute's uint64_t read back as the signed value it stores) in [0, rank).
int64_t normalizeAxis(uint64_t axis, int64_t rank) {
  auto a = static_cast<int64_t>(axis);
  return a < 0 ? a + rank : a;
}

Value cstIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// max(lo, min(v, hi)) on index values.
Value clampIndex(OpBuilder &b, Location loc, Value v, int64_t lo, int64_t hi) {
  Value upper = arith::MinSIOp::create(b, loc, v, cstIndex(b, loc, hi));
  return arith::MaxSIOp::create(b, loc, upper, cstIndex(b, loc, lo));
}

/// Emits a parallel linalg.generic over all of `output` (no inputs) whose body yields
/// `body(builder, loc)`; the body reads its position with linalg.index.
void buildIndexedGeneric(OpBuilder &b, Location loc, Value output, IndexFn body) {
  int64_t rank = cast<MemRefType>(output.getType()).getRank();
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, b.getContext())};
  SmallVector<IterType> iters(rank, IterType::parallel);
  linalg::GenericOp::create(b, loc, ValueRange{}, output, maps, iters,
                            [&](OpBuilder &gb, Location gl, ValueRange) {
                              linalg::YieldOp::create(gb, gl, body(gb, gl));
                            });
}

/// A gather index as an in-range position along an axis of `axisSize`: negative indices count from
/// the end; out-of-range indices are invalid in ONNX, and clamping keeps a bad index from reading
/// outside the buffer.
Value gatherPosition(OpBuilder &b, Location loc, Value index, int64_t axisSize) {
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, cstIndex(b, loc, 0));
  Value wrapped = arith::AddIOp::create(b, loc, i, cstIndex(b, loc, axisSize));
  i = arith::SelectOp::create(b, loc, negative, wrapped, i);
  return clampIndex(b, loc, i, 0, axisSize - 1);
}

/// ms.gather whose data has dims after the axis (an embedding table [V, H] gathered by token ids):
/// row copies. One parallel loop over (outer index, gather index) reads the index once and copies
/// the contiguous slice of the trailing dims, a loop LLVM vectorizes.
void buildGatherRows(OpBuilder &b, Location l, Value data, Value indices, Value out, int64_t axis) {
  ArrayRef<int64_t> shape = cast<MemRefType>(data.getType()).getShape();
  auto idxType = cast<MemRefType>(indices.getType());
  int64_t outer = 1, inner = 1, axisSize = shape[axis];
  int64_t count = idxType.hasStaticShape() ? idxType.getNumElements() : 0;
  for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
    (d < axis ? outer : inner) *= d == axis ? 1 : shape[d];
  Value src = collapseToVector(b, l, data), dst = collapseToVector(b, l, out);
  Value idx = idxType.getRank() == 0 ? indices : collapseToVector(b, l, indices);
  // Indices of symbolic dims (token ids [batch, seq]): as many as the run gives.
  Value runCount =
      idxType.hasStaticShape() ? Value() : extentProduct(b, l, indices, 0, idxType.getRank());
  auto par = scf::ParallelOp::create(
      b, l, ValueRange{cstIndex(b, l, 0), cstIndex(b, l, 0)},
      ValueRange{cstIndex(b, l, outer), runCount ? runCount : cstIndex(b, l, count)},
      ValueRange{cstIndex(b, l, 1), cstIndex(b, l, 1)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(par.getBody());
  Value o = par.getInductionVars()[0], p = par.getInductionVars()[1];
  Value index = idxType.getRank() == 0 ? memref::LoadOp::create(b, l, idx, ValueRange{})
                                       : memref::LoadOp::create(b, l, idx, p);
  Value i = gatherPosition(b, l, index, axisSize);
  auto times = [&](Value v, int64_t c) { return arith::MulIOp::create(b, l, v, cstIndex(b, l, c)); };
  Value from = times(arith::AddIOp::create(b, l, times(o, axisSize), i), inner);
  Value outerBase = runCount ? (Value)arith::MulIOp::create(b, l, o, runCount) : times(o, count);
  Value to = times(arith::AddIOp::create(b, l, outerBase, p), inner);
  scf::ForOp::create(b, l, cstIndex(b, l, 0), cstIndex(b, l, inner), cstIndex(b, l, 1),
                     ValueRange{}, [&](OpBuilder &fb, Location fl, Value j, ValueRange) {
                       Value v = memref::LoadOp::create(
                           fb, fl, src, ValueRange{arith::AddIOp::create(fb, fl, from, j)});
                       memref::StoreOp::create(fb, fl, v, dst,
                                               ValueRange{arith::AddIOp::create(fb, fl, to, j)});
                       scf::YieldOp::create(fb, fl);
                     });
}

/// ms.gather: row copies when the data has dims after the axis, else one generic over the output
/// reading the indices through a map onto the output dims [axis, axis + rank(indices)) and the
/// data through memref.load.
struct GatherToKernel : OpConversionPattern<ms::GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::GatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    int64_t dataRank = dataType.getRank(), q = idxType.getRank();
    int64_t outRank = op.getType().getRank();
    int64_t axis = normalizeAxis(op.getAxis(), dataRank);
    int64_t axisSize = dataType.getDimSize(axis);
    // Indices are clamped into the axis, whose extent must be known (other dims may be symbolic).
    if (ShapedType::isDynamic(axisSize))
      return rewriter.notifyMatchFailure(op, "expects a static extent along the axis");
    Value out = allocResult(rewriter, loc, op.getOperation());

    SmallVector<AffineExpr> idxExprs;
    for (int64_t i = 0; i < q; ++i)
      idxExprs.push_back(getAffineDimExpr(axis + i, ctx));
    SmallVector<AffineMap> maps = {AffineMap::get(outRank, 0, idxExprs, ctx),
                                   AffineMap::getMultiDimIdentityMap(outRank, ctx)};
    SmallVector<IterType> iters(outRank, IterType::parallel);
    if (axis < dataRank - 1 && dataType.hasStaticShape()) {
      KernelOp::create(rewriter, loc, "gather", ValueRange{adaptor.getData(), adaptor.getIndices()},
                       out, [&](OpBuilder &b, Location l, ValueRange args) {
                         buildGatherRows(b, l, args[0], args[1], args[2], axis);
                       });
      rewriter.replaceOp(op, out);
      return success();
    }
    KernelOp::create(
        rewriter, loc, "gather", ValueRange{adaptor.getData(), adaptor.getIndices()}, out,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value data = args[0];
          linalg::GenericOp::create(
              b, l, args[1], args[2], maps, iters, [&](OpBuilder &gb, Location gl, ValueRange e) {
                Value i = gatherPosition(gb, gl, e[0], axisSize);
                SmallVector<Value> pos;
                for (int64_t d = 0; d < dataRank; ++d) {
                  if (d == axis)
                    pos.push_back(i);
                  else
                    pos.push_back(linalg::IndexOp::create(gb, gl, d < axis ? d : d - 1 + q));
                }
                linalg::YieldOp::create(gb, gl, (Value)memref::LoadOp::create(gb, gl, data, pos));
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.slice -> a subview of the selected box (strides |step|); copied as is when every step is
/// positive, else through a generic whose input map reverses the negative-step dims.
struct SliceToKernel : OpConversionPattern<ms::SliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::SliceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    ArrayRef<int64_t> starts = op.getStarts(), sizes = op.getSizes(), steps = op.getSteps();
    int64_t rank = sizes.size();
    if (llvm::any_of(sizes, ShapedType::isDynamic) || llvm::any_of(starts, ShapedType::isDynamic))
      return lowerSymbolicSlice(op, adaptor, rewriter);
    SmallVector<int64_t> lows, strides;
    bool reversed = false;
    SmallVector<AffineExpr> inExprs;
    for (int64_t d = 0; d < rank; ++d) {
      bool negative = steps[d] < 0;
      reversed |= negative;
      lows.push_back(negative ? starts[d] + (sizes[d] - 1) * steps[d] : starts[d]);
      strides.push_back(negative ? -steps[d] : steps[d]);
      inExprs.push_back(negative ? sizes[d] - 1 - getAffineDimExpr(d, ctx)
                                 : getAffineDimExpr(d, ctx));
    }
    Value out = allocBuffer(rewriter, loc, op.getType());
    KernelOp::create(rewriter, loc, "slice", adaptor.getInput(), out,
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       Value box = memref::SubViewOp::create(b, l, args[0], lows, sizes, strides);
                       if (!reversed) {
                         linalg::CopyOp::create(b, l, box, args[1]);
                         return;
                       }
                       SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, inExprs, ctx),
                                                      AffineMap::getMultiDimIdentityMap(rank, ctx)};
                       SmallVector<IterType> iters(rank, IterType::parallel);
                       linalg::GenericOp::create(b, l, box, args[1], maps, iters,
                                                 [](OpBuilder &gb, Location gl, ValueRange e) {
                                                   linalg::YieldOp::create(gb, gl, e[0]);
                                                 });
                     });
    rewriter.replaceOp(op, out);
    return success();
  }

private:
  /// Code for every shape: a slice whose sizes or starts are expressions of the symbols (a
  /// position table sliced to the sequence length, the last token) copies the box of its
  /// run-time extents. The sizes are the output's extents; the starts are computed inside the
  /// kernel from the extents of its two buffers (its body reads no mie.symbol), or from the run's
  /// symbol values (mie.symbol_values) where those do not give them. Steps along such dims are
  /// positive.
  LogicalResult lowerSymbolicSlice(ms::SliceOp op, OpAdaptor adaptor,
                                   ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    ArrayRef<int64_t> starts = op.getStarts(), sizes = op.getSizes(), steps = op.getSteps();
    int64_t rank = sizes.size();
    SmallVector<SmallVector<AffineExpr>> buffers = {recordedDims(op.getInput(), op),
                                                    recordedDims(op.getResult(), op)};
    auto symbolicStarts = op.getSymbolicStarts();
    for (int64_t d = 0; d < rank; ++d) {
      bool symbolic = ShapedType::isDynamic(starts[d]) || ShapedType::isDynamic(sizes[d]);
      if (symbolic && steps[d] < 0)
        return rewriter.notifyMatchFailure(op, "expects positive steps along symbolic dims");
      if (ShapedType::isDynamic(starts[d]) &&
          (!symbolicStarts || buffers[0].size() != static_cast<size_t>(rank) ||
           buffers[1].size() != static_cast<size_t>(rank)))
        return rewriter.notifyMatchFailure(op, "a symbolic start without its expression");
    }
    // Starts the two buffers' extents do not give read the run's symbol values.
    bool fromExtents = true;
    for (int64_t d = 0; d < rank; ++d)
      if (ShapedType::isDynamic(starts[d]))
        fromExtents &= isComputableFromExtents(symbolicStarts->getResult(d), buffers);
    Value out = allocResult(rewriter, loc, op.getOperation());
    SmallVector<Value> ins = {adaptor.getInput()};
    if (!fromExtents)
      ins.push_back(symbolValuesBuffer(rewriter, loc, op));
    KernelOp::create(
        rewriter, loc, "slice", ins, out, [&](OpBuilder &b, Location l, ValueRange kernelArgs) {
          // The input and the output (the symbol values between them when taken).
          SmallVector<Value> args = {kernelArgs.front(), kernelArgs.back()};
          Value symbolValues = fromExtents ? Value() : kernelArgs[1];
          SmallVector<OpFoldResult> offsets, boxSizes, strides;
          for (int64_t d = 0; d < rank; ++d) {
            // A negative step (along a static dim) reads the box from its low end backwards.
            int64_t low = steps[d] < 0 && !ShapedType::isDynamic(starts[d])
                              ? starts[d] + (sizes[d] - 1) * steps[d]
                              : starts[d];
            offsets.push_back(ShapedType::isDynamic(starts[d])
                                  ? OpFoldResult(emitFromExtents(b, l, symbolicStarts->getResult(d),
                                                                 args, buffers, symbolValues))
                                  : OpFoldResult(b.getIndexAttr(low)));
            boxSizes.push_back(ShapedType::isDynamic(sizes[d])
                                   ? OpFoldResult(memref::DimOp::create(b, l, args[1], d))
                                   : OpFoldResult(b.getIndexAttr(sizes[d])));
            strides.push_back(b.getIndexAttr(std::abs(steps[d])));
          }
          Value box = memref::SubViewOp::create(b, l, args[0], offsets, boxSizes, strides);
          if (llvm::all_of(steps, [](int64_t step) { return step > 0; })) {
            linalg::CopyOp::create(b, l, box, args[1]);
            return;
          }
          // Negative steps (along static dims only) read the box backwards.
          MLIRContext *ctx = b.getContext();
          SmallVector<AffineExpr> inExprs;
          for (int64_t d = 0; d < rank; ++d)
            inExprs.push_back(steps[d] < 0 ? sizes[d] - 1 - getAffineDimExpr(d, ctx)
                                           : getAffineDimExpr(d, ctx));
          SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, inExprs, ctx),
                                         AffineMap::getMultiDimIdentityMap(rank, ctx)};
          SmallVector<IterType> iters(rank, IterType::parallel);
          linalg::GenericOp::create(b, l, ValueRange{box}, args[1], maps, iters,
                                    [](OpBuilder &gb, Location gl, ValueRange e) {
                                      linalg::YieldOp::create(gb, gl, e[0]);
                                    });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.split -> one kernel copying each piece (a subview) into its own result buffer.
struct SplitToKernel : OpConversionPattern<ms::SplitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::SplitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = inType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    SmallVector<Value> outs;
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      outs.push_back(allocResult(rewriter, loc, op.getOperation(), i));
    ArrayRef<int64_t> sizes = op.getSizes();
    if (!inType.hasStaticShape() && inType.isDynamicDim(axis))
      return rewriter.notifyMatchFailure(op, "expects a static split axis");
    KernelOp::create(rewriter, loc, "split", adaptor.getInput(), outs,
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       int64_t offset = 0;
                       SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
                       for (auto [i, size] : llvm::enumerate(sizes)) {
                         Value piece = args[1 + i];
                         auto type = cast<MemRefType>(piece.getType());
                         SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
                         offsets[axis] = b.getIndexAttr(offset);
                         offset += size;
                         if (type.hasStaticShape() && type.getNumElements() == 0)
                           continue;
                         // Run-time dims (code for symbolic dims) are the piece's own.
                         Value view = memref::SubViewOp::create(
                             b, l, args[0], offsets, memref::getMixedSizes(b, l, piece), strides);
                         linalg::CopyOp::create(b, l, view, piece);
                       }
                     });
    rewriter.replaceOp(op, outs);
    return success();
  }
};

/// ms.pad: constant mode fills the output and copies the kept box of the input (negative pads
/// crop it) into its place; reflect and edge modes are one generic computing the source index.
/// Code for symbolic dims: those dims are not padded (convert-ms-to-mie checked), so they keep
/// the input buffer's run-time extents.
struct PadToKernel : OpConversionPattern<ms::PadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::PadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    Type et = inType.getElementType();
    if (!et.isSignlessIntOrFloat())
      return rewriter.notifyMatchFailure(op, "expects float or signless integer elements");
    int64_t rank = inType.getRank();
    ArrayRef<int64_t> pads = op.getPads();
    ArrayRef<int64_t> inShape = inType.getShape();
    ms::PadMode mode = op.getMode();
    double value = op.getValue().convertToDouble();
    Value out = allocResult(rewriter, loc, op.getOperation());
    KernelOp::create(
        rewriter, loc, "pad", adaptor.getInput(), out,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value in = args[0], dst = args[1];
          if (mode == ms::PadMode::constant) {
            SmallVector<int64_t> srcOff, dstOff;
            SmallVector<OpFoldResult> len, strides(rank, b.getIndexAttr(1));
            bool grows = false, empty = false;
            for (int64_t d = 0; d < rank; ++d) {
              int64_t begin = pads[d], end = pads[d + rank];
              grows |= begin > 0 || end > 0;
              srcOff.push_back(std::max<int64_t>(0, -begin));
              dstOff.push_back(std::max<int64_t>(0, begin));
              if (ShapedType::isDynamic(inShape[d])) { // unpadded: the run's extent
                len.push_back(memref::DimOp::create(b, l, in, d).getResult());
                continue;
              }
              int64_t kept = inShape[d] - std::max<int64_t>(0, -begin) - std::max<int64_t>(0, -end);
              len.push_back(b.getIndexAttr(kept));
              empty |= kept <= 0;
            }
            if (grows || empty)
              linalg::FillOp::create(b, l, scalarConstant(b, l, et, value), dst);
            if (empty)
              return;
            MLIRContext *ctx = b.getContext();
            Value src = memref::SubViewOp::create(b, l, in, getAsIndexOpFoldResult(ctx, srcOff),
                                                  len, strides);
            Value slot = memref::SubViewOp::create(b, l, dst, getAsIndexOpFoldResult(ctx, dstOff),
                                                   len, strides);
            linalg::CopyOp::create(b, l, src, slot);
            return;
          }
          buildIndexedGeneric(b, l, dst, [&](OpBuilder &gb, Location gl) -> Value {
            SmallVector<Value> pos;
            for (int64_t d = 0; d < rank; ++d) {
              Value i = linalg::IndexOp::create(gb, gl, d);
              int64_t begin = pads[d], end = pads[d + rank], size = inShape[d];
              if (begin == 0 && end == 0) {
                pos.push_back(i);
                continue;
              }
              Value j = arith::SubIOp::create(gb, gl, i, cstIndex(gb, gl, begin));
              if (mode == ms::PadMode::edge || size == 1) {
                pos.push_back(clampIndex(gb, gl, j, 0, size - 1));
                continue;
              }
              // Reflection without repeating the edge is periodic with period 2 * (size - 1):
              // m = j mod period in [0, period), mirrored back when past the end.
              int64_t period = 2 * (size - 1);
              Value p = cstIndex(gb, gl, period);
              Value m = arith::RemSIOp::create(gb, gl, j, p);
              Value neg =
                  arith::CmpIOp::create(gb, gl, arith::CmpIPredicate::slt, m, cstIndex(gb, gl, 0));
              m = arith::SelectOp::create(gb, gl, neg, arith::AddIOp::create(gb, gl, m, p), m);
              Value past = arith::CmpIOp::create(gb, gl, arith::CmpIPredicate::sge, m,
                                                 cstIndex(gb, gl, size));
              pos.push_back(
                  arith::SelectOp::create(gb, gl, past, arith::SubIOp::create(gb, gl, p, m), m));
            }
            return memref::LoadOp::create(gb, gl, in, pos);
          });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.expand -> a broadcasting copy.
struct ExpandToKernel : OpConversionPattern<ms::ExpandOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::ExpandOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value out = allocResult(rewriter, op.getLoc(), op.getOperation());
    buildElementwiseKernel(rewriter, op.getLoc(), "expand", adaptor.getInput(), out,
                           [](OpBuilder &, Location, ValueRange e, Type) { return e[0]; });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.range (code for every shape; ms-specialize-dims folds it to a constant otherwise) -> one
/// generic writing start + i * delta. The start is an expression of the symbols, computed inside
/// the kernel from the result's extent (convert-ms-to-mie checked that it can be).
struct RangeToKernel : OpConversionPattern<ms::RangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::RangeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<SmallVector<AffineExpr>> buffers = {recordedDims(op.getResult(), op)};
    if (buffers[0].size() != 1)
      return rewriter.notifyMatchFailure(op, "the result's dims were not recorded");
    Type et = op.getType().getElementType();
    int64_t delta = op.getDelta();
    Value out = allocResult(rewriter, loc, op.getOperation());
    // A start the result's extent does not give (a KV cache's positions start at its past
    // length) reads the run's symbol values.
    bool fromExtents = isComputableFromExtents(op.getStartExpr(), buffers);
    SmallVector<Value> ins;
    if (!fromExtents)
      ins.push_back(symbolValuesBuffer(rewriter, loc, op));
    KernelOp::create(
        rewriter, loc, "range", ins, out, [&](OpBuilder &b, Location l, ValueRange args) {
          Value start = emitFromExtents(b, l, op.getStartExpr(), args.take_back(), buffers,
                                        fromExtents ? Value() : args.front());
          buildIndexedGeneric(b, l, args.back(), [&](OpBuilder &gb, Location gl) {
            Value i = linalg::IndexOp::create(gb, gl, 0);
            Value v = arith::AddIOp::create(
                gb, gl, start, arith::MulIOp::create(gb, gl, i, cstIndex(gb, gl, delta)));
            return (Value)arith::IndexCastOp::create(gb, gl, et, v);
          });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// floor (or ceil) of a non-huge f32 as i64, without libm: truncate, then step towards -inf
/// (+inf) when the truncation moved the other way.
Value roundToInt(OpBuilder &b, Location loc, Value x, bool ceil) {
  Type i64 = b.getI64Type();
  Value t = arith::FPToSIOp::create(b, loc, i64, x);
  Value back = arith::SIToFPOp::create(b, loc, x.getType(), t);
  Value off = arith::CmpFOp::create(
      b, loc, ceil ? arith::CmpFPredicate::OLT : arith::CmpFPredicate::OGT, back, x);
  Value stepped = arith::AddIOp::create(
      b, loc, t, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(ceil ? 1 : -1)));
  return arith::SelectOp::create(b, loc, off, stepped, t);
}

/// ms.resize -> one generic over the output. Dims whose size is unchanged read the same index
/// (every coordinate mode maps them to themselves); the others map the output index to an input
/// coordinate in f32 exactly as ONNX Runtime does (same operations, same order), then take the
/// nearest element or interpolate linearly between the two neighbours along each such dim.
struct ResizeToKernel : OpConversionPattern<ms::ResizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::ResizeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    RankedTensorType outType = op.getType();
    int64_t rank = inType.getRank();
    Type et = inType.getElementType();
    Type f32 = rewriter.getF32Type();
    ms::ResizeMode mode = op.getMode();
    ms::CoordinateMode coordMode = op.getCoordinateMode();
    ms::NearestMode nearestMode = op.getNearestMode();
    SmallVector<int64_t> resized;
    for (int64_t d = 0; d < rank; ++d)
      if (inType.getDimSize(d) != outType.getDimSize(d))
        resized.push_back(d);
    if (mode == ms::ResizeMode::linear && resized.size() > 4)
      return rewriter.notifyMatchFailure(op, "linear resize of more than 4 dims");
    Value out = allocResult(rewriter, loc, op.getOperation());

    KernelOp::create(
        rewriter, loc, "resize", adaptor.getInput(), out,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value in = args[0];
          buildIndexedGeneric(b, l, args[1], [&](OpBuilder &gb, Location gl) -> Value {
            auto cf = [&](double v) -> Value { return scalarConstant(gb, gl, f32, v); };
            auto toIndex = [&](Value i64) -> Value {
              return arith::IndexCastOp::create(gb, gl, gb.getIndexType(), i64);
            };
            SmallVector<Value> base;
            for (int64_t d = 0; d < rank; ++d)
              base.push_back(linalg::IndexOp::create(gb, gl, d));
            // The input coordinate of each resized dim.
            SmallVector<Value> coords;
            for (int64_t d : resized) {
              int64_t inLen = inType.getDimSize(d), outLen = outType.getDimSize(d);
              float scale = static_cast<float>(outLen) / static_cast<float>(inLen);
              Value x = arith::SIToFPOp::create(
                  gb, gl, f32, arith::IndexCastOp::create(gb, gl, gb.getI64Type(), base[d]));
              Value c;
              switch (coordMode) {
              case ms::CoordinateMode::half_pixel:
              case ms::CoordinateMode::pytorch_half_pixel:
                if (coordMode == ms::CoordinateMode::pytorch_half_pixel && outLen <= 1) {
                  c = cf(0.0);
                  break;
                }
                c = arith::SubFOp::create(
                    gb, gl,
                    arith::DivFOp::create(gb, gl, arith::AddFOp::create(gb, gl, x, cf(0.5)),
                                          cf(scale)),
                    cf(0.5));
                break;
              case ms::CoordinateMode::align_corners:
                c = outLen == 1
                        ? cf(0.0)
                        : (Value)arith::DivFOp::create(
                              gb, gl,
                              arith::MulFOp::create(gb, gl, x, cf(static_cast<float>(inLen - 1))),
                              cf(static_cast<float>(outLen - 1)));
                break;
              case ms::CoordinateMode::asymmetric:
                c = arith::DivFOp::create(gb, gl, x, cf(scale));
                break;
              }
              coords.push_back(c);
            }

            if (mode == ms::ResizeMode::nearest) {
              SmallVector<Value> pos = base;
              for (auto [k, d] : llvm::enumerate(resized)) {
                Value c = coords[k], i;
                switch (nearestMode) {
                case ms::NearestMode::round_prefer_floor: // ties go down: ceil(c - 0.5)
                  i = roundToInt(gb, gl, arith::SubFOp::create(gb, gl, c, cf(0.5)), true);
                  break;
                case ms::NearestMode::round_prefer_ceil: // ties go up: floor(c + 0.5)
                  i = roundToInt(gb, gl, arith::AddFOp::create(gb, gl, c, cf(0.5)), false);
                  break;
                case ms::NearestMode::floor:
                  i = roundToInt(gb, gl, c, false);
                  break;
                case ms::NearestMode::ceil:
                  i = roundToInt(gb, gl, c, true);
                  break;
                }
                pos[d] = clampIndex(gb, gl, toIndex(i), 0, inType.getDimSize(d) - 1);
              }
              return memref::LoadOp::create(gb, gl, in, pos);
            }

            // Linear: per resized dim the two neighbours i0 <= c <= i1 (clamped into the input)
            // and their weights |c - i1|, |c - i0|, or 1/2 each where they coincide.
            SmallVector<Value> lo, hi, wLo, wHi;
            Type i64 = gb.getI64Type();
            for (auto [k, d] : llvm::enumerate(resized)) {
              int64_t last = inType.getDimSize(d) - 1;
              Value c = arith::MaximumFOp::create(
                  gb, gl, cf(0.0),
                  arith::MinimumFOp::create(gb, gl, coords[k], cf(static_cast<float>(last))));
              Value i0 = arith::FPToSIOp::create(gb, gl, i64, c);
              Value i1 = arith::MinSIOp::create(
                  gb, gl,
                  arith::AddIOp::create(gb, gl, i0,
                                        arith::ConstantOp::create(gb, gl, gb.getI64IntegerAttr(1))),
                  arith::ConstantOp::create(gb, gl, gb.getI64IntegerAttr(last)));
              Value f0 = arith::SIToFPOp::create(gb, gl, f32, i0);
              Value f1 = arith::SIToFPOp::create(gb, gl, f32, i1);
              Value same = arith::CmpIOp::create(gb, gl, arith::CmpIPredicate::eq, i0, i1);
              Value dHi = arith::SubFOp::create(gb, gl, c, f0);
              Value dLo = arith::SubFOp::create(gb, gl, f1, c);
              lo.push_back(toIndex(i0));
              hi.push_back(toIndex(i1));
              wLo.push_back(arith::SelectOp::create(gb, gl, same, cf(0.5), dLo));
              wHi.push_back(arith::SelectOp::create(gb, gl, same, cf(0.5), dHi));
            }
            Value acc;
            for (unsigned corner = 0; corner < (1u << resized.size()); ++corner) {
              SmallVector<Value> pos = base;
              Value w;
              for (auto [k, d] : llvm::enumerate(resized)) {
                bool upper = corner & (1u << k);
                pos[d] = upper ? hi[k] : lo[k];
                Value wk = upper ? wHi[k] : wLo[k];
                w = w ? (Value)arith::MulFOp::create(gb, gl, w, wk) : wk;
              }
              Value v = memref::LoadOp::create(gb, gl, in, pos);
              if (cast<FloatType>(et).getWidth() < 32)
                v = arith::ExtFOp::create(gb, gl, f32, v);
              else if (et != f32)
                v = arith::TruncFOp::create(gb, gl, f32, v);
              Value term = w ? (Value)arith::MulFOp::create(gb, gl, v, w) : v;
              acc = acc ? (Value)arith::AddFOp::create(gb, gl, acc, term) : term;
            }
            if (et == f32)
              return acc;
            auto target = cast<FloatType>(et);
            if (target.getWidth() > 32)
              return arith::ExtFOp::create(gb, gl, et, acc);
            return arith::TruncFOp::create(gb, gl, et, acc);
          });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieShapePatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GatherToKernel, SliceToKernel, SplitToKernel, PadToKernel, ExpandToKernel,
               RangeToKernel, ResizeToKernel>(converter, patterns.getContext());
}
