//===- MsToMieIndexing.cpp - element/tuple gathers and scatters -> mie ----===//
//
// Gathers are one parallel linalg.generic over the output whose body computes the source position
// from the index elements and reads it with memref.load. Scatters copy `data` into the output (a
// parallel copy), then apply the updates in sequential scf.for loops: two updates may address the
// same element (duplicates accumulate under a reduction, and the last one wins without), so their
// order must be the row-major order ONNX defines, and mie-parallelize-loops only splits
// scf.parallel loops.
//
// Index elements are wrapped (negative counts from the end) and then clamped into their dim: ONNX
// declares out-of-range indices invalid, and clamping keeps such a model from touching memory
// outside its buffers.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

using IterType = utils::IteratorType;


/// Emits a parallel linalg.generic over all of `output` with `input` (if any) read through the
/// identity map; `body` gets the input element (or nothing) and yields the output element.
void buildGatherGeneric(OpBuilder &b, Location loc, Value input, Value output,
                        function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = cast<MemRefType>(output.getType()).getRank();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  if (input) {
    ins.push_back(input);
    maps.push_back(id);
  }
  maps.push_back(id);
  SmallVector<IterType> iters(rank, IterType::parallel);
  linalg::GenericOp::create(b, loc, ins, output, maps, iters,
                            [&](OpBuilder &gb, Location gl, ValueRange e) {
                              linalg::YieldOp::create(gb, gl, body(gb, gl, e.drop_back()));
                            });
}

/// The linalg.index values of dims [0, count) of the enclosing generic.
SmallVector<Value> loopIndices(OpBuilder &b, Location loc, int64_t count) {
  SmallVector<Value> ivs;
  for (int64_t d = 0; d < count; ++d)
    ivs.push_back(linalg::IndexOp::create(b, loc, d));
  return ivs;
}

/// ms.gather_elements: out[i] = data[i with i[axis] replaced by indices[i]].
struct GatherElementsToKernel : OpConversionPattern<ms::GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::GatherElementsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    int64_t rank = dataType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t axisSize = dataType.getDimSize(axis);
    // Indices are clamped into the axis, whose extent must be known (other dims may be symbolic:
    // the generic runs over the output's run-time extents).
    if (ShapedType::isDynamic(axisSize))
      return rewriter.notifyMatchFailure(op, "expects a static extent along the axis");
    Value out = allocResult(rewriter, loc, op.getOperation());
    KernelOp::create(rewriter, loc, "gather_elements",
                     ValueRange{adaptor.getData(), adaptor.getIndices()}, out,
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       buildGatherGeneric(b, l, args[1], args[2],
                                          [&](OpBuilder &gb, Location gl, ValueRange e) -> Value {
                                            SmallVector<Value> pos = loopIndices(gb, gl, rank);
                                            pos[axis] = wrapIndex(gb, gl, e[0], axisSize);
                                            return memref::LoadOp::create(gb, gl, args[0], pos);
                                          });
                     });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.gather_nd: for output position (batch, q, s), the tuple indices[batch, q, :] addresses dims
/// [b, b + r) of data, which is read at (batch, tuple, s).
struct GatherNdToKernel : OpConversionPattern<ms::GatherNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::GatherNdOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto batch = static_cast<int64_t>(op.getBatchDims());
    int64_t tupleDims = idxType.getRank() - 1; // batch dims + q
    int64_t r = idxType.getShape().back();
    int64_t outRank = op.getType().getRank();
    Value out = allocBuffer(rewriter, loc, op.getType());
    KernelOp::create(
        rewriter, loc, "gather_nd", ValueRange{adaptor.getData(), adaptor.getIndices()}, out,
        [&](OpBuilder &b, Location l, ValueRange args) {
          buildGatherGeneric(
              b, l, Value(), args[2], [&](OpBuilder &gb, Location gl, ValueRange) -> Value {
                SmallVector<Value> ivs = loopIndices(gb, gl, outRank);
                SmallVector<Value> idxPos(ivs.begin(), ivs.begin() + tupleDims);
                idxPos.push_back(Value());
                SmallVector<Value> pos(ivs.begin(), ivs.begin() + batch);
                for (int64_t t = 0; t < r; ++t) {
                  idxPos.back() = arith::ConstantIndexOp::create(gb, gl, t);
                  Value i = memref::LoadOp::create(gb, gl, args[1], idxPos);
                  pos.push_back(wrapIndex(gb, gl, i, dataType.getDimSize(batch + t)));
                }
                pos.append(ivs.begin() + tupleDims, ivs.end());
                return memref::LoadOp::create(gb, gl, args[0], pos);
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// `update` combined with the element `old` already in place (max and min of integers compare
/// unsigned when `isUnsigned`).
Value combine(OpBuilder &b, Location loc, ms::ScatterReduction reduction, Value old, Value update,
              bool isUnsigned) {
  bool isFloat = isa<FloatType>(update.getType());
  // Booleans combine logically, as numpy does (add and max are or, mul and min are and); signed
  // i1 arithmetic would make true + true false and max(true, false) false.
  if (update.getType().isInteger(1) && reduction != ms::ScatterReduction::none) {
    if (reduction == ms::ScatterReduction::add || reduction == ms::ScatterReduction::max)
      return arith::OrIOp::create(b, loc, old, update);
    return arith::AndIOp::create(b, loc, old, update);
  }
  switch (reduction) {
  case ms::ScatterReduction::none:
    return update;
  case ms::ScatterReduction::add:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, old, update)
                   : (Value)arith::AddIOp::create(b, loc, old, update);
  case ms::ScatterReduction::mul:
    return isFloat ? (Value)arith::MulFOp::create(b, loc, old, update)
                   : (Value)arith::MulIOp::create(b, loc, old, update);
  case ms::ScatterReduction::max:
    return isFloat      ? (Value)arith::MaximumFOp::create(b, loc, old, update)
           : isUnsigned ? (Value)arith::MaxUIOp::create(b, loc, old, update)
                        : (Value)arith::MaxSIOp::create(b, loc, old, update);
  case ms::ScatterReduction::min:
    return isFloat      ? (Value)arith::MinimumFOp::create(b, loc, old, update)
           : isUnsigned ? (Value)arith::MinUIOp::create(b, loc, old, update)
                        : (Value)arith::MinSIOp::create(b, loc, old, update);
  }
  llvm_unreachable("unknown scatter reduction");
}

/// Stores `update` (combined with what is there) at `pos` of `out`.
void scatterElement(OpBuilder &b, Location loc, ms::ScatterReduction reduction, Value update,
                    Value out, ValueRange pos, bool isUnsigned) {
  Value old;
  if (reduction != ms::ScatterReduction::none)
    old = memref::LoadOp::create(b, loc, out, pos);
  memref::StoreOp::create(b, loc, combine(b, loc, reduction, old, update, isUnsigned), out, pos);
}

/// Scatters must combine elementwise in types arith can compute with (unsigned integers as the
/// signless ones of their buffers).
LogicalResult checkScatterElements(Operation *op, Type elementType,
                                   ConversionPatternRewriter &rewriter) {
  if (!signlessType(elementType).isSignlessIntOrFloat())
    return rewriter.notifyMatchFailure(op, "expects float or integer elements");
  return success();
}

/// ms.scatter_elements: copy data, then for every position i of updates (in order),
/// out[i with i[axis] replaced by indices[i]] (op)= updates[i].
struct ScatterElementsToKernel : OpConversionPattern<ms::ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::ScatterElementsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    if (failed(checkScatterElements(op, type.getElementType(), rewriter)))
      return failure();
    int64_t axis = normalizeAxis(op.getAxis(), type.getRank());
    int64_t axisSize = type.getDimSize(axis);
    ArrayRef<int64_t> updShape = cast<RankedTensorType>(op.getUpdates().getType()).getShape();
    ms::ScatterReduction reduction = op.getReduction();
    bool isUnsigned = isUnsignedType(type);
    Value out = allocBuffer(rewriter, loc, type);
    KernelOp::create(rewriter, loc, "scatter_elements",
                     ValueRange{adaptor.getData(), adaptor.getIndices(), adaptor.getUpdates()}, out,
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       linalg::CopyOp::create(b, l, args[0], args[3]);
                       buildLoopNest(b, l, indexConstants(b, l, updShape), /*parallel=*/false,
                                     [&](OpBuilder &lb, Location ll, ValueRange ivs) {
                                       SmallVector<Value> pos(ivs);
                                       Value i = memref::LoadOp::create(lb, ll, args[1], ivs);
                                       pos[axis] = wrapIndex(lb, ll, i, axisSize);
                                       Value update = memref::LoadOp::create(lb, ll, args[2], ivs);
                                       scatterElement(lb, ll, reduction, update, args[3], pos,
                                                      isUnsigned);
                                     });
                     });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.scatter_nd: copy data, then for every tuple position q of indices (in order), the slice of
/// out at tuple indices[q, :] (op)= the slice updates[q].
struct ScatterNdToKernel : OpConversionPattern<ms::ScatterNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::ScatterNdOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    if (failed(checkScatterElements(op, type.getElementType(), rewriter)))
      return failure();
    ArrayRef<int64_t> idxShape = cast<RankedTensorType>(op.getIndices().getType()).getShape();
    int64_t r = idxShape.back();
    ArrayRef<int64_t> sliceShape = type.getShape().drop_front(r);
    ms::ScatterReduction reduction = op.getReduction();
    bool isUnsigned = isUnsignedType(type);
    Value out = allocBuffer(rewriter, loc, type);
    KernelOp::create(rewriter, loc, "scatter_nd",
                     ValueRange{adaptor.getData(), adaptor.getIndices(), adaptor.getUpdates()}, out,
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       linalg::CopyOp::create(b, l, args[0], args[3]);
                       buildLoopNest(
                           b, l, indexConstants(b, l, idxShape.drop_back()), /*parallel=*/false,
                           [&](OpBuilder &qb, Location ql, ValueRange qs) {
                             SmallVector<Value> idxPos(qs);
                             idxPos.push_back(Value());
                             SmallVector<Value> tuple;
                             for (int64_t t = 0; t < r; ++t) {
                               idxPos.back() = arith::ConstantIndexOp::create(qb, ql, t);
                               Value i = memref::LoadOp::create(qb, ql, args[1], idxPos);
                               tuple.push_back(wrapIndex(qb, ql, i, type.getDimSize(t)));
                             }
                             buildLoopNest(
                                 qb, ql, indexConstants(qb, ql, sliceShape), /*parallel=*/false,
                                 [&](OpBuilder &sb, Location sl, ValueRange ss) {
                                   SmallVector<Value> updPos(qs), pos(tuple);
                                   updPos.append(ss.begin(), ss.end());
                                   pos.append(ss.begin(), ss.end());
                                   Value update = memref::LoadOp::create(sb, sl, args[2], updPos);
                                   scatterElement(sb, sl, reduction, update, args[3], pos,
                                                  isUnsigned);
                                 });
                           });
                     });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieIndexingPatterns(TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns
      .add<GatherElementsToKernel, GatherNdToKernel, ScatterElementsToKernel, ScatterNdToKernel>(
          converter, patterns.getContext());
}
