//===- MsToMieDynamicShape.cpp - non_zero, unique, non_max_suppression -> mie ===//
//
// Ops with data-dependent extents: each is one sequential kernel (the extent of a result depends
// on every element before it) writing its results at their upper bound, zero past the real
// extent, and the extent itself into a one-element i64 buffer.
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

Value cstIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

Value toIndex(OpBuilder &b, Location loc, Value i64) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64);
}

Value addIndex(OpBuilder &b, Location loc, Value v, int64_t c) {
  return arith::AddIOp::create(b, loc, v, cstIndex(b, loc, c));
}

/// `a == b` for float (ordered) or integer elements.
Value equal(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
}

/// `a < b` (`less`) or `a > b`, integers signed or unsigned.
Value compare(OpBuilder &b, Location loc, Value x, Value y, bool less, bool isUnsigned) {
  if (isa<FloatType>(x.getType()))
    return arith::CmpFOp::create(b, loc, less ? arith::CmpFPredicate::OLT : arith::CmpFPredicate::OGT,
                                 x, y);
  using P = arith::CmpIPredicate;
  P pred = isUnsigned ? (less ? P::ult : P::ugt) : (less ? P::slt : P::sgt);
  return arith::CmpIOp::create(b, loc, pred, x, y);
}

/// for i in [0, n): body(i), sequential.
void forRange(OpBuilder &b, Location loc, Value n, function_ref<void(OpBuilder &, Location, Value)> body) {
  scf::ForOp::create(b, loc, cstIndex(b, loc, 0), n, cstIndex(b, loc, 1), ValueRange{},
                     [&](OpBuilder &fb, Location fl, Value i, ValueRange) {
                       body(fb, fl, i);
                       scf::YieldOp::create(fb, fl);
                     });
}

/// The fold of `step(i, acc)` over i in [0, n) from `init`, sequential.
Value foldRange(OpBuilder &b, Location loc, Value n, Value init,
                function_ref<Value(OpBuilder &, Location, Value, Value)> step) {
  auto loop = scf::ForOp::create(b, loc, cstIndex(b, loc, 0), n, cstIndex(b, loc, 1),
                                 ValueRange{init},
                                 [&](OpBuilder &fb, Location fl, Value i, ValueRange acc) {
                                   scf::YieldOp::create(fb, fl, step(fb, fl, i, acc[0]));
                                 });
  return loop.getResult(0);
}

/// non_zero: one row-major pass over the input; the j-th non-zero element writes its indices into
/// column j.
struct NonZeroToKernel : OpConversionPattern<ms::NonZeroOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::NonZeroOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    Type et = signlessType(inType.getElementType());
    ArrayRef<int64_t> shape = inType.getShape();
    Value indices = allocBuffer(rewriter, loc, op.getIndices().getType());
    Value count = allocBuffer(rewriter, loc, op.getCount().getType());
    KernelOp::create(
        rewriter, loc, "non_zero", adaptor.getInput(), ValueRange{indices, count},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], idx = args[1], cnt = args[2];
          linalg::FillOp::create(b, l, scalarConstant(b, l, b.getI64Type(), 0), idx);
          Value zero = scalarConstant(b, l, et, 0);
          Value n = foldRange(
              b, l, cstIndex(b, l, inType.getNumElements()), cstIndex(b, l, 0),
              [&](OpBuilder &fb, Location fl, Value i, Value found) {
                SmallVector<Value> pos(shape.size());
                Value rest = i;
                for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
                  Value size = cstIndex(fb, fl, shape[d]);
                  pos[d] = arith::RemUIOp::create(fb, fl, rest, size);
                  rest = arith::DivUIOp::create(fb, fl, rest, size);
                }
                Value v = memref::LoadOp::create(fb, fl, x, pos);
                // NaN is not zero: the unordered comparison.
                Value nonZero =
                    isa<FloatType>(et)
                        ? (Value)arith::CmpFOp::create(fb, fl, arith::CmpFPredicate::UNE, v, zero)
                        : (Value)arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::ne, v, zero);
                scf::IfOp::create(fb, fl, nonZero, [&](OpBuilder &ib, Location il) {
                  for (auto [d, p] : llvm::enumerate(pos))
                    memref::StoreOp::create(ib, il, toI64(ib, il, p), idx,
                                            ValueRange{cstIndex(ib, il, d), found});
                  scf::YieldOp::create(ib, il);
                });
                Value next = addIndex(fb, fl, found, 1);
                return (Value)arith::SelectOp::create(fb, fl, nonZero, next, found);
              });
          memref::StoreOp::create(b, l, toI64(b, l, n), cnt, cstIndex(b, l, 0));
        });
    rewriter.replaceOp(op, {indices, count});
    return success();
  }
};

/// unique: the input as [outer, slices, inner] (no axis: [1, elements, 1]); slice k is the
/// outer * inner elements at (o, k, i). Each slice is looked up among the distinct ones kept so
/// far (O(slices^2)); with `sorted` the kept ones are then bubble-sorted (stable), carrying their
/// first index and count, and the inverse indices are renumbered through the permutation.
struct UniqueToKernel : OpConversionPattern<ms::UniqueOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::UniqueOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    Type et = signlessType(inType.getElementType());
    bool isUnsigned = isUnsignedType(inType);
    int64_t outer = 1, slices = inType.getNumElements(), inner = 1;
    if (std::optional<int64_t> axis = op.getAxis()) {
      int64_t a = normalizeAxis(static_cast<uint64_t>(*axis), inType.getRank());
      slices = inType.getDimSize(a);
      for (int64_t d = 0; d < inType.getRank(); ++d)
        (d < a ? outer : inner) *= d == a ? 1 : inType.getDimSize(d);
    }
    int64_t sliceLen = outer * inner;
    SmallVector<Value> outs;
    for (Value result : op->getResults())
      outs.push_back(allocBuffer(rewriter, loc, result.getType()));
    // Scratch: order[p] = the slot first kept at p; rank[s] = where slot s ended up.
    auto scratchType = MemRefType::get({std::max<int64_t>(slices, 1)}, rewriter.getI64Type());
    Value order = AllocOp::create(rewriter, loc, scratchType);
    Value rankOf = AllocOp::create(rewriter, loc, scratchType);
    SmallVector<Value> kernelOuts(outs);
    kernelOuts.append({order, rankOf});
    bool sorted = op.getSorted();
    KernelOp::create(
        rewriter, loc, "unique", adaptor.getInput(), kernelOuts,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = collapseToVector(b, l, args[0]), vals = collapseToVector(b, l, args[1]);
          Value first = args[2], inverse = args[3], counts = args[4], cnt = args[5];
          Value ord = args[6], rnk = args[7];
          Value i64Zero = scalarConstant(b, l, b.getI64Type(), 0);
          linalg::FillOp::create(b, l, scalarConstant(b, l, et, 0), args[1]);
          for (Value buffer : {first, inverse, counts})
            linalg::FillOp::create(b, l, i64Zero, buffer);
          Value numSlices = cstIndex(b, l, slices), len = cstIndex(b, l, sliceLen);
          Value innerV = cstIndex(b, l, inner), stride = cstIndex(b, l, slices * inner);
          // Flat position of element t of slice k.
          auto at = [&](OpBuilder &bb, Location bl, Value k, Value t) -> Value {
            Value o = arith::DivUIOp::create(bb, bl, t, innerV);
            Value i = arith::RemUIOp::create(bb, bl, t, innerV);
            Value base = arith::MulIOp::create(bb, bl, o, stride);
            Value off = arith::AddIOp::create(bb, bl, arith::MulIOp::create(bb, bl, k, innerV), i);
            return arith::AddIOp::create(bb, bl, base, off);
          };
          auto sameSlice = [&](OpBuilder &bb, Location bl, Value kv, Value kx) -> Value {
            return foldRange(bb, bl, len, arith::ConstantIntOp::create(bb, bl, 1, 1),
                             [&](OpBuilder &sb, Location sl, Value t, Value eq) {
                               Value a = memref::LoadOp::create(sb, sl, vals, at(sb, sl, kv, t));
                               Value c = memref::LoadOp::create(sb, sl, x, at(sb, sl, kx, t));
                               return (Value)arith::AndIOp::create(sb, sl, eq, equal(sb, sl, a, c));
                             });
          };
          Value kept = foldRange(
              b, l, numSlices, cstIndex(b, l, 0),
              [&](OpBuilder &fb, Location fl, Value k, Value n) {
                // The kept slot equal to slice k, or n when there is none.
                Value match = foldRange(
                    fb, fl, n, n, [&](OpBuilder &mb, Location ml, Value j, Value found) {
                      Value open = arith::CmpIOp::create(mb, ml, arith::CmpIPredicate::eq, found, n);
                      auto check = scf::IfOp::create(
                          mb, ml, open,
                          [&](OpBuilder &tb, Location tl) {
                            Value same = sameSlice(tb, tl, j, k);
                            scf::YieldOp::create(
                                tb, tl, ValueRange{arith::SelectOp::create(tb, tl, same, j, found)});
                          },
                          [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, found); });
                      return check.getResult(0);
                    });
                Value isNew = arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::eq, match, n);
                scf::IfOp::create(fb, fl, isNew, [&](OpBuilder &ib, Location il) {
                  forRange(ib, il, len, [&](OpBuilder &cb, Location cl, Value t) {
                    Value v = memref::LoadOp::create(cb, cl, x, at(cb, cl, k, t));
                    memref::StoreOp::create(cb, cl, v, vals, at(cb, cl, n, t));
                  });
                  memref::StoreOp::create(ib, il, toI64(ib, il, k), first, n);
                  memref::StoreOp::create(ib, il, toI64(ib, il, n), ord, n);
                  scf::YieldOp::create(ib, il);
                });
                Value c = memref::LoadOp::create(fb, fl, counts, match);
                memref::StoreOp::create(
                    fb, fl, arith::AddIOp::create(fb, fl, c, scalarConstant(fb, fl, fb.getI64Type(), 1)),
                    counts, match);
                memref::StoreOp::create(fb, fl, toI64(fb, fl, match), inverse, k);
                return (Value)arith::SelectOp::create(fb, fl, isNew, addIndex(fb, fl, n, 1), n);
              });
          if (sorted)
            sortKept(b, l, kept, len, vals, first, counts, ord, rnk, inverse, numSlices, at,
                     isUnsigned);
          memref::StoreOp::create(b, l, toI64(b, l, kept), cnt, cstIndex(b, l, 0));
        });
    rewriter.replaceOp(op, outs);
    return success();
  }

  using AtFn = function_ref<Value(OpBuilder &, Location, Value, Value)>;

  /// Bubble sort of the `kept` slots (lexicographic in slice order; only strictly smaller slots
  /// move up, so the sort is stable), then inverse[k] = the sorted position of its slot.
  static void sortKept(OpBuilder &b, Location l, Value kept, Value len, Value vals, Value first,
                       Value counts, Value ord, Value rnk, Value inverse, Value numSlices, AtFn at,
                       bool isUnsigned) {
    forRange(b, l, kept, [&](OpBuilder &pb, Location pl, Value p) {
      Value last = arith::SubIOp::create(pb, pl, addIndex(pb, pl, kept, -1), p);
      forRange(pb, pl, last, [&](OpBuilder &qb, Location ql, Value q) {
        Value next = addIndex(qb, ql, q, 1);
        // 0: equal so far, 1: slot next sorts first, 2: slot q sorts first.
        Value state = foldRange(
            qb, ql, len, cstIndex(qb, ql, 0), [&](OpBuilder &sb, Location sl, Value t, Value s) {
              Value a = memref::LoadOp::create(sb, sl, vals, at(sb, sl, next, t));
              Value c = memref::LoadOp::create(sb, sl, vals, at(sb, sl, q, t));
              Value open = arith::CmpIOp::create(sb, sl, arith::CmpIPredicate::eq, s,
                                                 cstIndex(sb, sl, 0));
              Value less = compare(sb, sl, a, c, /*less=*/true, isUnsigned);
              Value more = compare(sb, sl, a, c, /*less=*/false, isUnsigned);
              Value decided = arith::SelectOp::create(
                  sb, sl, less, cstIndex(sb, sl, 1),
                  arith::SelectOp::create(sb, sl, more, cstIndex(sb, sl, 2), s));
              return (Value)arith::SelectOp::create(sb, sl, open, decided, s);
            });
        Value swap = arith::CmpIOp::create(qb, ql, arith::CmpIPredicate::eq, state,
                                           cstIndex(qb, ql, 1));
        scf::IfOp::create(qb, ql, swap, [&](OpBuilder &ib, Location il) {
          forRange(ib, il, len, [&](OpBuilder &cb, Location cl, Value t) {
            Value pa = at(cb, cl, q, t), pc = at(cb, cl, next, t);
            Value a = memref::LoadOp::create(cb, cl, vals, pa);
            Value c = memref::LoadOp::create(cb, cl, vals, pc);
            memref::StoreOp::create(cb, cl, c, vals, pa);
            memref::StoreOp::create(cb, cl, a, vals, pc);
          });
          for (Value buffer : {first, counts, ord}) {
            Value a = memref::LoadOp::create(ib, il, buffer, q);
            Value c = memref::LoadOp::create(ib, il, buffer, next);
            memref::StoreOp::create(ib, il, c, buffer, q);
            memref::StoreOp::create(ib, il, a, buffer, next);
          }
          scf::YieldOp::create(ib, il);
        });
      });
    });
    forRange(b, l, kept, [&](OpBuilder &rb, Location rl, Value p) {
      Value slot = toIndex(rb, rl, memref::LoadOp::create(rb, rl, ord, p));
      memref::StoreOp::create(rb, rl, toI64(rb, rl, p), rnk, slot);
    });
    forRange(b, l, numSlices, [&](OpBuilder &rb, Location rl, Value k) {
      Value slot = toIndex(rb, rl, memref::LoadOp::create(rb, rl, inverse, k));
      memref::StoreOp::create(rb, rl, memref::LoadOp::create(rb, rl, rnk, slot), inverse, k);
    });
  }
};

/// non_max_suppression: for every batch and class, the candidates (score > score_threshold) are
/// picked by descending score, ties to the lower index (each pick a scan over the boxes, O(boxes^2)
/// per class), each kept unless its IoU with a box kept before for the class exceeds the threshold
/// (onnxruntime's test: boxes without area or overlap never suppress). `taken` marks the boxes
/// picked or below the score threshold.
struct NonMaxSuppressionToKernel : OpConversionPattern<ms::NonMaxSuppressionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::NonMaxSuppressionOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto boxesType = cast<RankedTensorType>(op.getBoxes().getType());
    auto scoresType = cast<RankedTensorType>(op.getScores().getType());
    int64_t batches = boxesType.getDimSize(0), numBoxes = boxesType.getDimSize(1);
    int64_t classes = scoresType.getDimSize(1);
    auto bound = static_cast<int64_t>(op.getMaxPerClass());
    bool center = op.getCenterPointBox();
    Value selected = allocBuffer(rewriter, loc, op.getSelected().getType());
    Value count = allocBuffer(rewriter, loc, op.getCount().getType());
    Value taken = AllocOp::create(
        rewriter, loc, MemRefType::get({std::max<int64_t>(numBoxes, 1)}, rewriter.getI1Type()));
    KernelOp::create(
        rewriter, loc, "non_max_suppression",
        ValueRange{adaptor.getBoxes(), adaptor.getScores(), adaptor.getMaxOutput(),
                   adaptor.getIouThreshold(), adaptor.getScoreThreshold()},
        ValueRange{selected, count, taken}, [&](OpBuilder &b, Location l, ValueRange args) {
          Value boxes = args[0], scores = args[1], sel = args[5], cnt = args[6], tk = args[7];
          Type f32 = b.getF32Type();
          linalg::FillOp::create(b, l, scalarConstant(b, l, b.getI64Type(), 0), sel);
          Value c0 = cstIndex(b, l, 0);
          auto loadF32 = [&](OpBuilder &bb, Location bl, Value buffer, ValueRange at) {
            return convertFloat(bb, bl, memref::LoadOp::create(bb, bl, buffer, at), f32);
          };
          Value flat = collapseToVector(b, l, args[2]);
          Value maxOut = toIndex(
              b, l,
              arith::MinSIOp::create(
                  b, l,
                  arith::MaxSIOp::create(b, l, memref::LoadOp::create(b, l, flat, c0),
                                         scalarConstant(b, l, b.getI64Type(), 0)),
                  scalarConstant(b, l, b.getI64Type(), static_cast<double>(bound))));
          Value iouT = loadF32(b, l, collapseToVector(b, l, args[3]), c0);
          Value scoreT = loadF32(b, l, collapseToVector(b, l, args[4]), c0);
          Value n = cstIndex(b, l, numBoxes);
          // [ymin, xmin, ymax, xmax] of box i of batch `batch`.
          auto corners = [&](OpBuilder &bb, Location bl, Value batch, Value i) {
            SmallVector<Value> v;
            for (int64_t k = 0; k < 4; ++k)
              v.push_back(loadF32(bb, bl, boxes, ValueRange{batch, i, cstIndex(bb, bl, k)}));
            SmallVector<Value> out(4);
            if (center) { // x_center, y_center, width, height
              Value half = scalarConstant(bb, bl, f32, 0.5);
              Value hw = arith::MulFOp::create(bb, bl, v[2], half);
              Value hh = arith::MulFOp::create(bb, bl, v[3], half);
              out = {arith::SubFOp::create(bb, bl, v[1], hh), arith::SubFOp::create(bb, bl, v[0], hw),
                     arith::AddFOp::create(bb, bl, v[1], hh), arith::AddFOp::create(bb, bl, v[0], hw)};
            } else {
              out = {arith::MinimumFOp::create(bb, bl, v[0], v[2]),
                     arith::MinimumFOp::create(bb, bl, v[1], v[3]),
                     arith::MaximumFOp::create(bb, bl, v[0], v[2]),
                     arith::MaximumFOp::create(bb, bl, v[1], v[3])};
            }
            return out;
          };
          auto suppresses = [&](OpBuilder &bb, Location bl, Value batch, Value i, Value j) {
            SmallVector<Value> p = corners(bb, bl, batch, i), q = corners(bb, bl, batch, j);
            Value zero = scalarConstant(bb, bl, f32, 0);
            auto extent = [&](Value lo1, Value hi1, Value lo2, Value hi2) -> Value {
              Value lo = arith::MaximumFOp::create(bb, bl, lo1, lo2);
              Value hi = arith::MinimumFOp::create(bb, bl, hi1, hi2);
              return arith::MaximumFOp::create(bb, bl, arith::SubFOp::create(bb, bl, hi, lo), zero);
            };
            Value inter = arith::MulFOp::create(bb, bl, extent(p[0], p[2], q[0], q[2]),
                                                extent(p[1], p[3], q[1], q[3]));
            auto area = [&](ArrayRef<Value> c) -> Value {
              return arith::MulFOp::create(bb, bl, arith::SubFOp::create(bb, bl, c[2], c[0]),
                                           arith::SubFOp::create(bb, bl, c[3], c[1]));
            };
            Value a1 = area(p), a2 = area(q);
            Value uni = arith::SubFOp::create(bb, bl, arith::AddFOp::create(bb, bl, a1, a2), inter);
            auto positive = [&](Value v) -> Value {
              return arith::CmpFOp::create(bb, bl, arith::CmpFPredicate::OGT, v, zero);
            };
            Value valid = arith::AndIOp::create(
                bb, bl, arith::AndIOp::create(bb, bl, positive(inter), positive(a1)),
                arith::AndIOp::create(bb, bl, positive(a2), positive(uni)));
            Value over = arith::CmpFOp::create(bb, bl, arith::CmpFPredicate::OGT,
                                               arith::DivFOp::create(bb, bl, inter, uni), iouT);
            return (Value)arith::AndIOp::create(bb, bl, valid, over);
          };
          Value total = foldRange(b, l, cstIndex(b, l, batches), c0, [&](OpBuilder &bb, Location bl,
                                                                         Value batch, Value acc) {
            return foldRange(bb, bl, cstIndex(bb, bl, classes), acc, [&](OpBuilder &cb, Location cl,
                                                                          Value cls, Value start) {
              forRange(cb, cl, n, [&](OpBuilder &ib, Location il, Value i) {
                Value s = loadF32(ib, il, scores, ValueRange{batch, cls, i});
                Value below = arith::CmpFOp::create(ib, il, arith::CmpFPredicate::ULE, s, scoreT);
                memref::StoreOp::create(ib, il, below, tk, i);
              });
              Value kept = foldRange(cb, cl, n, cstIndex(cb, cl, 0), [&](OpBuilder &sb, Location sl,
                                                                         Value, Value k) {
                // The best box not taken yet: n when none is left.
                auto best = scf::ForOp::create(
                    sb, sl, cstIndex(sb, sl, 0), n, cstIndex(sb, sl, 1),
                    ValueRange{n, scalarConstant(sb, sl, f32, 0)},
                    [&](OpBuilder &fb, Location fl, Value i, ValueRange cur) {
                      Value free = arith::XOrIOp::create(fb, fl, memref::LoadOp::create(fb, fl, tk, i),
                                                         arith::ConstantIntOp::create(fb, fl, 1, 1));
                      Value s = loadF32(fb, fl, scores, ValueRange{batch, cls, i});
                      Value none = arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::eq, cur[0], n);
                      Value higher = arith::CmpFOp::create(fb, fl, arith::CmpFPredicate::OGT, s, cur[1]);
                      Value take = arith::AndIOp::create(fb, fl, free,
                                                         arith::OrIOp::create(fb, fl, none, higher));
                      scf::YieldOp::create(fb, fl,
                                           ValueRange{arith::SelectOp::create(fb, fl, take, i, cur[0]),
                                                      arith::SelectOp::create(fb, fl, take, s, cur[1])});
                    });
                Value pick = best.getResult(0);
                Value open = arith::AndIOp::create(
                    sb, sl, arith::CmpIOp::create(sb, sl, arith::CmpIPredicate::ult, pick, n),
                    arith::CmpIOp::create(sb, sl, arith::CmpIPredicate::ult, k, maxOut));
                auto step = scf::IfOp::create(
                    sb, sl, open,
                    [&](OpBuilder &tb, Location tl) {
                      memref::StoreOp::create(tb, tl, arith::ConstantIntOp::create(tb, tl, 1, 1), tk,
                                              pick);
                      Value hit = foldRange(
                          tb, tl, k, arith::ConstantIntOp::create(tb, tl, 0, 1),
                          [&](OpBuilder &jb, Location jl, Value j, Value any) {
                            Value row = arith::AddIOp::create(jb, jl, start, j);
                            Value other = toIndex(
                                jb, jl,
                                memref::LoadOp::create(jb, jl, sel, ValueRange{row, cstIndex(jb, jl, 2)}));
                            return (Value)arith::OrIOp::create(jb, jl, any,
                                                               suppresses(jb, jl, batch, other, pick));
                          });
                      Value keep = arith::XOrIOp::create(tb, tl, hit,
                                                         arith::ConstantIntOp::create(tb, tl, 1, 1));
                      scf::IfOp::create(tb, tl, keep, [&](OpBuilder &kb, Location kl) {
                        Value row = arith::AddIOp::create(kb, kl, start, k);
                        Value fields[] = {batch, cls, pick};
                        for (auto [col, v] : llvm::enumerate(fields))
                          memref::StoreOp::create(kb, kl, toI64(kb, kl, v), sel,
                                                  ValueRange{row, cstIndex(kb, kl, col)});
                        scf::YieldOp::create(kb, kl);
                      });
                      scf::YieldOp::create(
                          tb, tl, ValueRange{arith::SelectOp::create(tb, tl, keep, addIndex(tb, tl, k, 1), k)});
                    },
                    [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, k); });
                return step.getResult(0);
              });
              return (Value)arith::AddIOp::create(cb, cl, start, kept);
            });
          });
          memref::StoreOp::create(b, l, toI64(b, l, total), cnt, c0);
        });
    rewriter.replaceOp(op, {selected, count});
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieDynamicShapePatterns(TypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns.add<NonZeroToKernel, UniqueToKernel, NonMaxSuppressionToKernel>(converter, patterns.getContext());
}
