//===- MsToMieScan.cpp - arg_max/arg_min, top_k, cumsum -> mie ------------===//
//
// Ops that walk along one axis in order. arg_max/arg_min are a linalg reduction generic (the axis
// is its last, sequential loop) carrying the best value in a scratch buffer. top_k and cumsum are
// an scf.parallel over the positions off the axis (split across threads by mie-parallelize-loops,
// each iteration owns its own line) holding sequential scf.for loops along the axis.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

using IterType = utils::IteratorType;


Value cstIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value isNaN(OpBuilder &b, Location loc, Value v) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
}

/// Whether `a` comes strictly before `b` in the order of `largest ? descending : ascending`
/// (`orEqual`: or ties with it). Integers compare signed, or unsigned when `isUnsigned`.
Value precedes(OpBuilder &b, Location loc, Value a, Value c, bool largest, bool orEqual,
               bool isUnsigned) {
  if (isa<FloatType>(a.getType())) {
    auto pred = largest ? (orEqual ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT)
                        : (orEqual ? arith::CmpFPredicate::OLE : arith::CmpFPredicate::OLT);
    return arith::CmpFOp::create(b, loc, pred, a, c);
  }
  using P = arith::CmpIPredicate;
  auto pred = isUnsigned ? (largest ? (orEqual ? P::uge : P::ugt) : (orEqual ? P::ule : P::ult))
                         : (largest ? (orEqual ? P::sge : P::sgt) : (orEqual ? P::sle : P::slt));
  return arith::CmpIOp::create(b, loc, pred, a, c);
}

/// arg_max / arg_min: a reduction generic over [other dims..., axis] into (best value, index).
/// A candidate replaces the best one when it is strictly better (or, with select_last_index, at
/// least as good), so ties keep the first (last) position. A NaN wins like numpy's argmax/argmin:
/// the first NaN (the last one with select_last_index) is the answer.
template <typename OpTy, bool IsMax>
struct ArgReduceToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    RankedTensorType outType = op.getType();
    Type et = signlessType(inType.getElementType()); // unsigned: signless buffers
    bool isUnsigned = isUnsignedType(inType);
    if (!et.isSignlessIntOrFloat())
      return rewriter.notifyMatchFailure(op, "expects float or integer elements");
    int64_t rank = inType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    bool keepDims = op.getKeepDims(), last = op.getSelectLastIndex();

    SmallVector<AffineExpr> inExprs, outExprs;
    for (int64_t d = 0; d < rank; ++d) {
      AffineExpr loop = getAffineDimExpr(d == axis ? rank - 1 : (d < axis ? d : d - 1), ctx);
      inExprs.push_back(loop);
      if (d != axis)
        outExprs.push_back(loop);
      else if (keepDims)
        outExprs.push_back(getAffineConstantExpr(0, ctx));
    }
    AffineMap inMap = AffineMap::get(rank, 0, inExprs, ctx);
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
    SmallVector<IterType> iters(rank - 1, IterType::parallel);
    iters.push_back(IterType::reduction);

    Value out = allocBuffer(rewriter, loc, outType);
    Value best = AllocOp::create(rewriter, loc, MemRefType::get(outType.getShape(), et));
    StringRef name = OpTy::getOperationName().drop_front(3);
    KernelOp::create(
        rewriter, loc, name, adaptor.getInput(), ValueRange{out, best},
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::FillOp::create(b, l, extremeConstant(b, l, et, /*lowest=*/IsMax, isUnsigned),
                                 args[2]);
          linalg::FillOp::create(b, l, scalarConstant(b, l, b.getI64Type(), 0), args[1]);
          linalg::GenericOp::create(
              b, l, args[0], ValueRange{args[2], args[1]}, {inMap, outMap, outMap}, iters,
              [&](OpBuilder &gb, Location gl, ValueRange e) {
                Value v = e[0], cur = e[1], idx = e[2];
                Value take = precedes(gb, gl, v, cur, IsMax, last, isUnsigned);
                if (isa<FloatType>(et)) {
                  // First NaN: v is NaN and the best is not yet; last NaN: any NaN.
                  Value nan = isNaN(gb, gl, v);
                  if (!last)
                    nan = arith::AndIOp::create(
                        gb, gl, nan,
                        arith::CmpFOp::create(gb, gl, arith::CmpFPredicate::ORD, cur, cur));
                  take = arith::OrIOp::create(gb, gl, take, nan);
                }
                Value pos = arith::IndexCastOp::create(gb, gl, gb.getI64Type(),
                                                       linalg::IndexOp::create(gb, gl, rank - 1));
                linalg::YieldOp::create(
                    gb, gl,
                    ValueRange{arith::SelectOp::create(gb, gl, take, v, cur),
                               arith::SelectOp::create(gb, gl, take, pos, idx)});
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// top_k: per line along the axis, an insertion into the sorted output: element i goes after
/// every kept element that precedes it or ties with it (ties stay in input order, so the lower
/// index comes first), the kept elements behind it move down one slot and the k-th falls off.
/// O(n * k) per line. NaN sorts after every number.
struct TopKToKernel : OpConversionPattern<ms::TopKOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::TopKOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    Type et = signlessType(inType.getElementType()); // unsigned: signless buffers
    bool isUnsigned = isUnsignedType(inType);
    if (!et.isSignlessIntOrFloat())
      return rewriter.notifyMatchFailure(op, "expects float or integer elements");
    int64_t rank = inType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    auto k = static_cast<int64_t>(op.getK());
    int64_t n = inType.getDimSize(axis);
    bool largest = !op.getSmallest();
    SmallVector<int64_t> lineShape(inType.getShape());
    lineShape.erase(lineShape.begin() + axis);

    Value values = allocBuffer(rewriter, loc, op.getValues().getType());
    Value indices = allocBuffer(rewriter, loc, op.getIndices().getType());
    KernelOp::create(
        rewriter, loc, "top_k", adaptor.getInput(), ValueRange{values, indices},
        [&](OpBuilder &b, Location l, ValueRange args) {
          if (k == 0)
            return;
          Value x = args[0], vals = args[1], idxs = args[2];
          auto better = [&](OpBuilder &bb, Location bl, Value a, Value c) -> Value {
            Value p = precedes(bb, bl, a, c, largest, /*orEqual=*/false, isUnsigned);
            if (!isa<FloatType>(et))
              return p;
            // A number precedes a NaN.
            Value numberBeforeNaN = arith::CmpIOp::create(bb, bl, arith::CmpIPredicate::ugt,
                                                          isNaN(bb, bl, c), isNaN(bb, bl, a));
            return arith::OrIOp::create(bb, bl, p, numberBeforeNaN);
          };
          buildLoopNest(
              b, l, indexConstants(b, l, lineShape), /*parallel=*/true,
              [&](OpBuilder &pb, Location pl, ValueRange line) {
                auto at = [&](Value i) {
                  SmallVector<Value> pos(line);
                  pos.insert(pos.begin() + axis, i);
                  return pos;
                };
                Value zero = cstIndex(pb, pl, 0), one = cstIndex(pb, pl, 1);
                Value kv = cstIndex(pb, pl, k);
                scf::ForOp::create(
                    pb, pl, zero, cstIndex(pb, pl, n), one, ValueRange{},
                    [&](OpBuilder &fb, Location fl, Value i, ValueRange) {
                      Value v = memref::LoadOp::create(fb, fl, x, at(i));
                      Value kept = arith::MinSIOp::create(fb, fl, i, kv);
                      // slot = number of kept elements that v does not beat.
                      auto count = scf::ForOp::create(
                          fb, fl, zero, kept, one, ValueRange{zero},
                          [&](OpBuilder &cb, Location cl, Value j, ValueRange acc) {
                            Value e = memref::LoadOp::create(cb, cl, vals, at(j));
                            Value beats = better(cb, cl, v, e);
                            Value next = arith::SelectOp::create(
                                cb, cl, beats, acc[0],
                                arith::AddIOp::create(cb, cl, acc[0], cstIndex(cb, cl, 1)));
                            scf::YieldOp::create(cb, cl, next);
                          });
                      Value slot = count.getResult(0);
                      Value fits =
                          arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::slt, slot, kv);
                      scf::IfOp::create(fb, fl, fits, [&](OpBuilder &ib, Location il) {
                        // Move [slot, end) one down, from the back; the k-th falls off.
                        Value end = arith::MinSIOp::create(ib, il, kept, cstIndex(ib, il, k - 1));
                        Value moves = arith::SubIOp::create(ib, il, end, slot);
                        scf::ForOp::create(
                            ib, il, zero, moves, one, ValueRange{},
                            [&](OpBuilder &mb, Location ml, Value t, ValueRange) {
                              Value to = arith::SubIOp::create(mb, ml, end, t);
                              Value from = arith::SubIOp::create(mb, ml, to, cstIndex(mb, ml, 1));
                              for (Value buf : {vals, idxs}) {
                                Value e = memref::LoadOp::create(mb, ml, buf, at(from));
                                memref::StoreOp::create(mb, ml, e, buf, at(to));
                              }
                              scf::YieldOp::create(mb, ml);
                            });
                        memref::StoreOp::create(ib, il, v, vals, at(slot));
                        Value i64 = arith::IndexCastOp::create(ib, il, ib.getI64Type(), i);
                        memref::StoreOp::create(ib, il, i64, idxs, at(slot));
                        scf::YieldOp::create(ib, il);
                      });
                      scf::YieldOp::create(fb, fl);
                    });
              });
        });
    rewriter.replaceOp(op, {values, indices});
    return success();
  }
};

/// The axis of a cumsum when it is a constant, normalized to [0, rank).
std::optional<int64_t> constantAxis(Value axis, int64_t rank) {
  DenseIntElementsAttr attr;
  if (!matchPattern(axis, m_Constant(&attr)))
    return std::nullopt;
  int64_t a = (*attr.value_begin<APInt>()).getSExtValue();
  return a < 0 ? a + rank : a;
}

/// cumsum on the row-major buffer seen as [outer, n, inner] around the axis: an scf.parallel over
/// (outer, inner) with a sequential running sum along n (accumulated in f32 for narrow floats). A
/// constant axis gives constant sizes; a runtime one (a one-element buffer) is read, wrapped when
/// negative and clamped into [0, rank), and the sizes are selected from the static dims. Code for
/// symbolic dims (a constant axis): the sizes are products of the input buffer's run-time extents.
struct CumSumToKernel : OpConversionPattern<ms::CumSumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::CumSumOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type et = signlessType(type.getElementType()); // sums wrap alike signed and unsigned
    if (!et.isSignlessIntOrFloat())
      return rewriter.notifyMatchFailure(op, "expects float or integer elements");
    bool isFloat = isa<FloatType>(et);
    Type accType = computeType(et);
    ArrayRef<int64_t> shape = type.getShape();
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = constantAxis(op.getAxis(), rank);
    bool exclusive = op.getExclusive(), reverse = op.getReverse();
    if (!axis && !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "a run-time axis needs static dims");

    Value out = allocResult(rewriter, loc, op.getOperation());
    SmallVector<Value> ins = {adaptor.getInput()};
    if (!axis)
      ins.push_back(adaptor.getAxis());
    KernelOp::create(
        rewriter, loc, "cumsum", ins, out, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], y = args.back();
          // Sizes of [outer, n, inner].
          Value outer, n, inner;
          if (axis) {
            outer = extentProduct(b, l, x, 0, *axis);
            n = extentProduct(b, l, x, *axis, *axis + 1);
            inner = extentProduct(b, l, x, *axis + 1, rank);
          } else {
            auto axisType = cast<MemRefType>(args[1].getType());
            SmallVector<Value> zeros(axisType.getRank(), cstIndex(b, l, 0));
            Value raw = memref::LoadOp::create(b, l, args[1], zeros);
            Value a = arith::IndexCastOp::create(b, l, b.getIndexType(), raw);
            Value negative =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a, cstIndex(b, l, 0));
            a = arith::SelectOp::create(b, l, negative,
                                        arith::AddIOp::create(b, l, a, cstIndex(b, l, rank)), a);
            a = arith::MaxSIOp::create(
                b, l, arith::MinSIOp::create(b, l, a, cstIndex(b, l, rank - 1)), cstIndex(b, l, 0));
            outer = inner = cstIndex(b, l, 1);
            n = cstIndex(b, l, shape[0]);
            for (int64_t d = 0; d < rank; ++d) {
              Value dv = cstIndex(b, l, d), size = cstIndex(b, l, shape[d]);
              auto pick = [&](arith::CmpIPredicate pred, Value current, Value chosen) -> Value {
                Value c = arith::CmpIOp::create(b, l, pred, dv, a);
                return arith::SelectOp::create(b, l, c, chosen, current);
              };
              outer =
                  pick(arith::CmpIPredicate::slt, outer, arith::MulIOp::create(b, l, outer, size));
              n = pick(arith::CmpIPredicate::eq, n, size);
              inner =
                  pick(arith::CmpIPredicate::sgt, inner, arith::MulIOp::create(b, l, inner, size));
            }
          }
          auto flat = [&](Value buf) -> Value {
            if (rank == 1)
              return buf;
            SmallVector<ReassociationIndices> all(1);
            for (int64_t d = 0; d < rank; ++d)
              all[0].push_back(d);
            return memref::CollapseShapeOp::create(b, l, buf, all);
          };
          Value xf = flat(x), yf = flat(y);
          buildLoopNest(
              b, l, ValueRange{outer, inner}, /*parallel=*/true,
              [&](OpBuilder &pb, Location pl, ValueRange ivs) {
                // base = o * n * inner + i
                Value base = arith::AddIOp::create(
                    pb, pl,
                    arith::MulIOp::create(pb, pl, arith::MulIOp::create(pb, pl, ivs[0], n), inner),
                    ivs[1]);
                Value zero = scalarConstant(pb, pl, accType, 0.0);
                scf::ForOp::create(
                    pb, pl, cstIndex(pb, pl, 0), n, cstIndex(pb, pl, 1), ValueRange{zero},
                    [&](OpBuilder &fb, Location fl, Value j, ValueRange acc) {
                      if (reverse)
                        j = arith::SubIOp::create(
                            fb, fl, arith::SubIOp::create(fb, fl, n, cstIndex(fb, fl, 1)), j);
                      Value lin = arith::AddIOp::create(fb, fl, base,
                                                        arith::MulIOp::create(fb, fl, j, inner));
                      Value v = memref::LoadOp::create(fb, fl, xf, lin);
                      if (isFloat)
                        v = convertFloat(fb, fl, v, accType);
                      Value sum = isFloat ? (Value)arith::AddFOp::create(fb, fl, acc[0], v)
                                          : (Value)arith::AddIOp::create(fb, fl, acc[0], v);
                      Value result = exclusive ? acc[0] : sum;
                      if (isFloat)
                        result = convertFloat(fb, fl, result, et);
                      memref::StoreOp::create(fb, fl, result, yf, lin);
                      scf::YieldOp::create(fb, fl, sum);
                    });
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieScanPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ArgReduceToKernel<ms::ArgMaxOp, true>, ArgReduceToKernel<ms::ArgMinOp, false>,
               TopKToKernel, CumSumToKernel>(converter, patterns.getContext());
}
