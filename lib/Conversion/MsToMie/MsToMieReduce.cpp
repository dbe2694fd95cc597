//===- MsToMieReduce.cpp - softmax, layer_norm and reductions -> mie ------===//
//
// Each op becomes one mie.kernel of linalg.generics. Per-row statistics (max, sum, mean, inverse
// standard deviation) live in f32 scratch buffers passed as extra `outs` of the kernel: they are
// mie.allocs like any other, so memory planning places them in the arena and the generated loops
// only capture function arguments (which keeps them parallelizable). Reduction generics put the
// reduced dims last in their iteration space, so the outer loops stay parallel.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {


using IterType = utils::IteratorType;

SmallVector<AffineMap> identityMaps(MLIRContext *ctx, int64_t rank, int64_t count) {
  return SmallVector<AffineMap>(count, AffineMap::getMultiDimIdentityMap(rank, ctx));
}

/// Emits a linalg.generic on buffers whose body yields `body(elements)`.
void buildGeneric(OpBuilder &b, Location loc, ValueRange ins, ValueRange outs,
                  ArrayRef<AffineMap> maps, ArrayRef<IterType> iters,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  linalg::GenericOp::create(b, loc, ins, outs, maps, iters,
                            [&](OpBuilder &gb, Location gl, ValueRange e) {
                              linalg::YieldOp::create(gb, gl, body(gb, gl, e));
                            });
}

/// softmax(x) = exp(x - max) / sum(exp(x - max)) along `axis`: a max reduction and a sum
/// reduction into f32 [.., 1, ..] scratch buffers, then one parallel pass writing the quotient
/// (exp is recomputed rather than stored, so narrow outputs lose nothing before the division).
struct SoftmaxToKernel : OpConversionPattern<ms::SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::SoftmaxOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    if (rank == 0)
      return rewriter.notifyMatchFailure(op, "expects a ranked input of rank >= 1");
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    Type et = type.getElementType(), ct = computeType(et);
    SmallVector<int64_t> statShape(type.getShape());
    statShape[axis] = 1;
    Value out = allocResult(rewriter, loc, op.getOperation());
    // Along the last axis in f32 (or wider): row kernels. The exps are stored in the output while
    // summed and scaled in place, so each is computed once. Symbolic dims may be among the rows.
    if (axis == rank - 1 && et == ct && !type.isDynamicDim(axis)) {
      int64_t len = type.getDimSize(axis);
      int64_t rows = type.hasStaticShape() ? type.getNumElements() / std::max<int64_t>(len, 1) : 0;
      KernelOp::create(
          rewriter, loc, "softmax", adaptor.getInput(), ValueRange{out},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value x = collapseToVector(b, l, args[0]), y = collapseToVector(b, l, args[1]);
            RowLoops row{b, l, len};
            row.forEachRowOf(args[0], axis, rows, [&](Value, Value base) {
              // maxnumf skips NaNs, but a NaN in the row still makes every output NaN through
              // its exp, as maximumf's NaN maximum would; maxnum reductions vectorize.
              Value mx = row.reduce(extremeConstant(b, l, ct, /*lowest=*/true),
                                    [&](OpBuilder &rb, Location rl, Value j, Value acc) {
                                      return arith::MaxNumFOp::create(
                                          rb, rl, acc, loadAt(rb, rl, x, base, j));
                                    });
              Value sum = row.reduce(
                  scalarConstant(b, l, ct, 0.0), [&](OpBuilder &rb, Location rl, Value j, Value acc) {
                    Value e = math::ExpOp::create(
                        rb, rl, arith::SubFOp::create(rb, rl, loadAt(rb, rl, x, base, j), mx));
                    memref::StoreOp::create(rb, rl, e, y,
                                            ValueRange{arith::AddIOp::create(rb, rl, base, j)});
                    return arith::AddFOp::create(rb, rl, acc, e, kReassoc);
                  });
              Value inv = arith::DivFOp::create(b, l, scalarConstant(b, l, ct, 1.0), sum);
              row.each([&](OpBuilder &rb, Location rl, Value j) {
                Value at = arith::AddIOp::create(rb, rl, base, j);
                Value e = memref::LoadOp::create(rb, rl, y, at);
                memref::StoreOp::create(rb, rl, arith::MulFOp::create(rb, rl, e, inv), y, at);
              });
            });
          });
      rewriter.replaceOp(op, out);
      return success();
    }
    // The statistics have the output's dims but 1 along the axis: the run's extents of its other
    // symbolic dims (none where the shape is static).
    SmallVector<Value> statSizes;
    if (!type.hasStaticShape())
      for (auto [d, size] : llvm::enumerate(resultSizes(rewriter, loc, op.getOperation())))
        if (static_cast<int64_t>(d) != axis)
          if (auto value = dyn_cast<Value>(size))
            statSizes.push_back(value);
    Value maxBuf =
        AllocOp::create(rewriter, loc, MemRefType::get(statShape, ct), statSizes, IntegerAttr());
    Value sumBuf =
        AllocOp::create(rewriter, loc, MemRefType::get(statShape, ct), statSizes, IntegerAttr());

    // Reductions iterate [other dims..., axis]; the statistics read the axis at 0.
    SmallVector<AffineExpr> inExprs(rank), statExprs(rank), bcastExprs(rank);
    int64_t loop = 0;
    for (int64_t d = 0; d < rank; ++d) {
      bcastExprs[d] = d == axis ? getAffineConstantExpr(0, ctx) : getAffineDimExpr(d, ctx);
      if (d == axis)
        continue;
      inExprs[d] = statExprs[d] = getAffineDimExpr(loop++, ctx);
    }
    inExprs[axis] = getAffineDimExpr(rank - 1, ctx);
    statExprs[axis] = getAffineConstantExpr(0, ctx);
    AffineMap inMap = AffineMap::get(rank, 0, inExprs, ctx);
    AffineMap statMap = AffineMap::get(rank, 0, statExprs, ctx);
    AffineMap bcast = AffineMap::get(rank, 0, bcastExprs, ctx);
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<IterType> redIters(rank - 1, IterType::parallel);
    redIters.push_back(IterType::reduction);
    SmallVector<IterType> parIters(rank, IterType::parallel);

    KernelOp::create(
        rewriter, loc, "softmax", adaptor.getInput(), ValueRange{out, maxBuf, sumBuf},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], y = args[1], mx = args[2], sum = args[3];
          linalg::FillOp::create(b, l, extremeConstant(b, l, ct, /*lowest=*/true), mx);
          buildGeneric(b, l, x, mx, {inMap, statMap}, redIters,
                       [&](OpBuilder &gb, Location gl, ValueRange e) -> Value {
                         return arith::MaximumFOp::create(gb, gl, convertFloat(gb, gl, e[0], ct),
                                                          e[1]);
                       });
          linalg::FillOp::create(b, l, scalarConstant(b, l, ct, 0.0), sum);
          buildGeneric(
              b, l, ValueRange{x, mx}, sum, {inMap, statMap, statMap}, redIters,
              [&](OpBuilder &gb, Location gl, ValueRange e) -> Value {
                Value shifted = arith::SubFOp::create(gb, gl, convertFloat(gb, gl, e[0], ct), e[1]);
                return arith::AddFOp::create(gb, gl, e[2], math::ExpOp::create(gb, gl, shifted),
                                             kReassoc);
              });
          buildGeneric(
              b, l, ValueRange{x, mx, sum}, y, {id, bcast, bcast, id}, parIters,
              [&](OpBuilder &gb, Location gl, ValueRange e) -> Value {
                Value shifted = arith::SubFOp::create(gb, gl, convertFloat(gb, gl, e[0], ct), e[1]);
                Value p = arith::DivFOp::create(gb, gl, math::ExpOp::create(gb, gl, shifted), e[2]);
                return convertFloat(gb, gl, p, et);
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// layer_norm as a row kernel: per row the mean and the inverse standard deviation (two-pass
/// variance, f32), then y = (x - mean) * rstd * scale + bias.
struct LayerNormToKernel : OpConversionPattern<ms::LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::LayerNormOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    // Symbolic dims may be among the rows (code for every shape), not among the normalized dims.
    for (int64_t d = axis; d < rank; ++d)
      if (type.isDynamicDim(d))
        return rewriter.notifyMatchFailure(op, "expects static normalized dims");
    Type et = type.getElementType(), ct = computeType(et);
    double eps = op.getEpsilon().convertToDouble();
    int64_t count = 1;
    for (int64_t d = axis; d < rank; ++d)
      count *= type.getDimSize(d);
    int64_t rows = type.hasStaticShape() ? type.getNumElements() / std::max<int64_t>(count, 1) : 0;
    Value out = allocResult(rewriter, loc, op.getOperation());
    Value bias = adaptor.getBias();
    SmallVector<Value> ins = {adaptor.getInput(), adaptor.getScale()};
    if (bias)
      ins.push_back(bias);
    // Scale and bias have the normalized dims' shape (verified): read by the position in the row.
    KernelOp::create(
        rewriter, loc, "layer_norm", ins, ValueRange{out},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = collapseToVector(b, l, args[0]), g = collapseToVector(b, l, args[1]);
          Value beta = bias ? collapseToVector(b, l, args[2]) : Value();
          Value y = collapseToVector(b, l, args.back());
          RowLoops row{b, l, count};
          row.forEachRowOf(args[0], axis, rows, [&](Value, Value base) {
            auto element = [&](OpBuilder &rb, Location rl, Value j) {
              return convertFloat(rb, rl, loadAt(rb, rl, x, base, j), ct);
            };
            auto param = [&](OpBuilder &rb, Location rl, Value p, Value j) {
              return convertFloat(rb, rl, loadAt(rb, rl, p, Value(), j), ct);
            };
            Value zero = scalarConstant(b, l, ct, 0.0);
            Value invCount = scalarConstant(b, l, ct, 1.0 / static_cast<double>(count));
            // Two reductions over the row while it is in L1 (the two-pass variance keeps the
            // precision a one-pass E[x^2] - E[x]^2 loses), then the normalized row.
            Value sum = row.reduce(zero, [&](OpBuilder &rb, Location rl, Value j, Value acc) {
              return arith::AddFOp::create(rb, rl, acc, element(rb, rl, j), kReassoc);
            });
            Value mean = arith::MulFOp::create(b, l, sum, invCount);
            Value squares = row.reduce(zero, [&](OpBuilder &rb, Location rl, Value j, Value acc) {
              Value d = arith::SubFOp::create(rb, rl, element(rb, rl, j), mean);
              return arith::AddFOp::create(rb, rl, acc, arith::MulFOp::create(rb, rl, d, d),
                                           kReassoc);
            });
            Value var = arith::MulFOp::create(b, l, squares, invCount);
            Value rstd = math::RsqrtOp::create(
                b, l, arith::AddFOp::create(b, l, var, scalarConstant(b, l, ct, eps)));
            row.each([&](OpBuilder &rb, Location rl, Value j) {
              Value d = arith::SubFOp::create(rb, rl, element(rb, rl, j), mean);
              Value r = arith::MulFOp::create(rb, rl, arith::MulFOp::create(rb, rl, d, rstd),
                                              param(rb, rl, g, j));
              if (beta)
                r = arith::AddFOp::create(rb, rl, r, param(rb, rl, beta, j));
              Value at = arith::AddIOp::create(rb, rl, base, j);
              memref::StoreOp::create(rb, rl, convertFloat(rb, rl, r, et), y, at);
            });
          });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::buildReductionKernel(OpBuilder &b, Location loc, Operation *reduceOp, StringRef name,
                                   ValueRange inputs, Value out, ScalarFn element) {
  MLIRContext *ctx = b.getContext();
  enum class Kind { Sum, Mean, Prod, Max, Min };
  Kind kind = isa<ms::ReduceSumOp>(reduceOp)    ? Kind::Sum
              : isa<ms::ReduceMeanOp>(reduceOp) ? Kind::Mean
              : isa<ms::ReduceProdOp>(reduceOp) ? Kind::Prod
              : isa<ms::ReduceMaxOp>(reduceOp)  ? Kind::Max
                                                : Kind::Min;
  auto inType = cast<RankedTensorType>(reduceOp->getOperand(0).getType());
  auto outType = cast<RankedTensorType>(reduceOp->getResult(0).getType());
  auto axes = cast<DenseI64ArrayAttr>(reduceOp->getAttr("axes")).asArrayRef();
  bool keepDims = reduceOp->hasAttr("keep_dims");
  // Buffers hold unsigned elements as signless integers; max, min and the mean's division read
  // the signedness from the ms type.
  Type et = signlessType(inType.getElementType());
  bool isFloat = isa<FloatType>(et), isUnsigned = isUnsignedType(inType);
  int64_t rank = inType.getRank();
  SmallVector<bool> reduced(rank, axes.empty());
  for (int64_t a : axes)
    reduced[a < 0 ? a + rank : a] = true;

  // Loop order: kept dims, then reduced dims.
  SmallVector<int64_t> loopOf(rank);
  int64_t numKept = 0, count = 1;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d])
      loopOf[d] = numKept++;
  int64_t next = numKept;
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d]) {
      loopOf[d] = next++;
      count *= inType.getDimSize(d);
    }
  SmallVector<AffineExpr> loopExprs, outExprs;
  for (int64_t d = 0; d < rank; ++d) {
    loopExprs.push_back(getAffineDimExpr(loopOf[d], ctx));
    if (!reduced[d])
      outExprs.push_back(getAffineDimExpr(loopOf[d], ctx));
    else if (keepDims)
      outExprs.push_back(getAffineConstantExpr(0, ctx));
  }
  // Each input is broadcast to the reduced input's shape, then read in loop order.
  AffineMap toInput = AffineMap::get(rank, 0, loopExprs, ctx);
  SmallVector<AffineMap> maps;
  for (Value in : inputs)
    maps.push_back(broadcastMap(ctx, cast<MemRefType>(in.getType()).getShape(), inType.getShape())
                       .compose(toInput));
  maps.push_back(AffineMap::get(rank, 0, outExprs, ctx));
  SmallVector<IterType> iters(rank, IterType::reduction);
  for (int64_t i = 0; i < numKept; ++i)
    iters[i] = IterType::parallel;

  bool additive = kind == Kind::Sum || kind == Kind::Mean;
  Type accType = additive || kind == Kind::Prod ? computeType(et) : et;
  SmallVector<Value> outs = {out};
  if (accType != et) {
    // The accumulators have the output's dims: the run's extents of its symbolic ones are those
    // the output buffer was allocated with.
    SmallVector<Value> sizes;
    if (auto alloc = out.getDefiningOp<AllocOp>())
      sizes = llvm::to_vector(alloc.getDynamicSizes());
    outs.push_back(AllocOp::create(b, loc, MemRefType::get(outType.getShape(), accType), sizes,
                                   IntegerAttr()));
  }

  SmallVector<Value> kernelIns(inputs);
  KernelOp::create(b, loc, name, kernelIns, outs, [&](OpBuilder &kb, Location l, ValueRange args) {
    ValueRange ins = args.take_front(inputs.size());
    Value y = args[inputs.size()], acc = args.back();
    Value init = additive             ? scalarConstant(kb, l, accType, 0.0)
                 : kind == Kind::Prod ? scalarConstant(kb, l, accType, 1.0)
                                      : extremeConstant(kb, l, accType, kind == Kind::Max,
                                                        isUnsigned);
    linalg::FillOp::create(kb, l, init, acc);
    buildGeneric(kb, l, ins, acc, maps, iters, [&](OpBuilder &gb, Location gl, ValueRange e) -> Value {
      Value x = element(gb, gl, e.drop_back(), et);
      Value v = isFloat ? convertFloat(gb, gl, x, accType) : x;
      switch (kind) {
      case Kind::Sum:
      case Kind::Mean:
        return isFloat ? (Value)arith::AddFOp::create(gb, gl, e.back(), v, kReassoc)
                       : (Value)arith::AddIOp::create(gb, gl, e.back(), v);
      case Kind::Prod:
        return isFloat ? (Value)arith::MulFOp::create(gb, gl, e.back(), v)
                       : (Value)arith::MulIOp::create(gb, gl, e.back(), v);
      case Kind::Max:
        return isFloat      ? (Value)arith::MaximumFOp::create(gb, gl, e.back(), v)
               : isUnsigned ? (Value)arith::MaxUIOp::create(gb, gl, e.back(), v)
                            : (Value)arith::MaxSIOp::create(gb, gl, e.back(), v);
      case Kind::Min:
        return isFloat      ? (Value)arith::MinimumFOp::create(gb, gl, e.back(), v)
               : isUnsigned ? (Value)arith::MinUIOp::create(gb, gl, e.back(), v)
                            : (Value)arith::MinSIOp::create(gb, gl, e.back(), v);
      }
      llvm_unreachable("unknown reduction");
    });
    bool mean = kind == Kind::Mean;
    if (!mean && acc == y)
      return;
    int64_t outRank = outType.getRank();
    SmallVector<IterType> par(outRank, IterType::parallel);
    SmallVector<Value> finalIns;
    if (acc != y)
      finalIns.push_back(acc);
    buildGeneric(kb, l, finalIns, y, identityMaps(ctx, outRank, finalIns.size() + 1), par,
                 [&](OpBuilder &gb, Location gl, ValueRange e) -> Value {
                   Value v = e[0];
                   if (mean) {
                     // Over no elements the sum is 0 and so is the mean, as in onnxruntime
                     // (0 / 0 would be NaN for floats and a trap for integers).
                     Value n = scalarConstant(gb, gl, accType,
                                              static_cast<double>(std::max<int64_t>(count, 1)));
                     v = isFloat      ? (Value)arith::DivFOp::create(gb, gl, v, n)
                         : isUnsigned ? (Value)arith::DivUIOp::create(gb, gl, v, n)
                                      : (Value)arith::DivSIOp::create(gb, gl, v, n);
                   }
                   return isFloat ? convertFloat(gb, gl, v, et) : v;
                 });
  });
}

namespace {

/// reduce_*: one reduction generic over [kept dims..., reduced dims...] into the output (or, for
/// sums and products of narrow floats, into an f32 scratch buffer), then a parallel pass for the
/// mean's division and the conversion back.
template <typename OpTy>
struct ReduceToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!signlessType(op.getInput().getType().getElementType()).isSignlessIntOrFloat())
      return rewriter.notifyMatchFailure(op, "expects float or integer elements");
    Value out = allocResult(rewriter, op.getLoc(), op.getOperation());
    buildReductionKernel(rewriter, op.getLoc(), op, OpTy::getOperationName().drop_front(3),
                         adaptor.getInput(), out,
                         [](OpBuilder &, Location, ValueRange e, Type) { return e[0]; });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieReducePatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SoftmaxToKernel, LayerNormToKernel, ReduceToKernel<ms::ReduceSumOp>,
               ReduceToKernel<ms::ReduceMeanOp>, ReduceToKernel<ms::ReduceProdOp>,
               ReduceToKernel<ms::ReduceMaxOp>, ReduceToKernel<ms::ReduceMinOp>>(
      converter, patterns.getContext());
}
