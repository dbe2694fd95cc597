//===- MsToMieNN.cpp - convolution, GEMM, matmul and pooling -> mie -------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

/// ms.conv2d -> mie.conv2d (library kernel) with the bias in the epilogue; padding stays an
/// attribute so a library implementation can handle it without a padded copy.
struct Conv2dToLibrary : OpConversionPattern<ms::Conv2dOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::Conv2dOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out = allocResult(rewriter, loc, op.getOperation());
    Value bias = adaptor.getBias();
    auto epilogue = EpilogueAttr::get(rewriter.getContext(), /*bias=*/bias != nullptr,
                                      /*residual=*/false, Activation::none);
    mie::Conv2dOp::create(rewriter, loc, adaptor.getInput(), adaptor.getFilter(), bias,
                          /*residual=*/Value(), out, op.getStrides(), op.getPads(),
                          op.getDilations(), op.getGroups(), epilogue, op.getAccTypeAttr(),
                          /*ukernel=*/UKernelAttr(), /*filter_shape=*/DenseI64ArrayAttr(),
                          op.getChannelsLast());
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.qconv2d -> mie.qconv2d (the VNNI library kernel; its filter is packed by mie-pack-weights).
struct QConv2dToLibrary : OpConversionPattern<ms::QConv2dOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::QConv2dOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out = allocBuffer(rewriter, loc, op.getType());
    mie::QConv2dOp::create(rewriter, loc, adaptor.getInput(), adaptor.getFilter(),
                           adaptor.getBias(), adaptor.getScale(), out, op.getStrides(),
                           op.getPads(), op.getDilations(), op.getInputZeroPoint(),
                           op.getOutputZeroPoint(), op.getOutputMin(), op.getOutputMax(),
                           /*filter_shape=*/DenseI64ArrayAttr());
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.gemm -> mie.gemm; a rank-1 `c` with beta = 1 is the epilogue bias, any other `c` is added by
/// a following elementwise kernel (beta * c, broadcast).
struct GemmToLibrary : OpConversionPattern<ms::GemmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::GemmOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value c = adaptor.getC();
    double beta = op.getBeta().convertToDouble();
    bool biasEpilogue = c && beta == 1.0 && cast<MemRefType>(c.getType()).getRank() == 1 &&
                        cast<MemRefType>(c.getType()).getDimSize(0) == op.getType().getDimSize(1);
    Value product = allocResult(rewriter, loc, op.getOperation());
    auto epilogue = EpilogueAttr::get(rewriter.getContext(), biasEpilogue, false, Activation::none);
    mie::GemmOp::create(rewriter, loc, adaptor.getA(), adaptor.getB(), biasEpilogue ? c : Value(),
                        Value(), product, op.getTransAAttr(), op.getTransBAttr(), op.getAlphaAttr(),
                        epilogue, op.getAccTypeAttr(), /*ukernel=*/UKernelAttr(),
                        /*b_packed=*/UnitAttr());
    if (!c || biasEpilogue || beta == 0.0) {
      rewriter.replaceOp(op, product);
      return success();
    }
    Value out = allocResult(rewriter, loc, op.getOperation());
    buildElementwiseKernel(rewriter, loc, "gemm_add_c", ValueRange{product, c}, out,
                           [&](OpBuilder &b, Location l, ValueRange e, Type t) -> Value {
                             Value scaled = beta == 1.0
                                                ? e[1]
                                                : (Value)arith::MulFOp::create(
                                                      b, l, e[1], scalarConstant(b, l, t, beta));
                             return arith::AddFOp::create(b, l, e[0], scaled);
                           });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.matmul on the library GEMM where its operands are matrices in place: 2-D products; rows of
/// any rank times one matrix (the rows collapsed, as a linear layer's); equal batch dims on both
/// sides (collapsed into one batch of a 3-D GEMM, as attention's products when it is not
/// recognized). Broadcast batch dims and 1-D operands become a generated kernel with one
/// linalg.generic whose maps broadcast them.
struct MatMulToKernel : OpConversionPattern<ms::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::MatMulOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out = allocResult(rewriter, loc, op.getOperation());
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    auto libraryGemm = [&](Value a, Value b, Value c, TypeAttr accumulator) {
      mie::GemmOp::create(rewriter, loc, a, b, Value(), Value(), c, UnitAttr(), UnitAttr(),
                          rewriter.getF64FloatAttr(1.0), EpilogueAttr::get(rewriter.getContext()),
                          accumulator, /*ukernel=*/UKernelAttr(),
                          /*b_packed=*/UnitAttr());
      rewriter.replaceOp(op, out);
      return success();
    };
    if (lhsType.getRank() == 2 && rhsType.getRank() == 2)
      return libraryGemm(adaptor.getLhs(), adaptor.getRhs(), out, op.getAccTypeAttr());
    // Narrow floats without an acc_type sum in f32, rounded once, as the generic kernel below
    // does (and as ONNX's fp16 references are computed).
    Type et = op.getType().getElementType();
    TypeAttr accumulator = op.getAccTypeAttr();
    if (!accumulator && computeType(et) != et)
      accumulator = TypeAttr::get(computeType(et));
    // Rows of any rank times one matrix are one 2-D product, equal batch dims one batched
    // product, in every element type: narrow floats as in the 2-D case (AMX tiles, or f32 tiles
    // on widened copies; a tied LM head under mixed precision ran the generic kernel below at
    // 5 GFLOP/s).
    if (lhsType.getRank() >= 3 && rhsType.getRank() == 2)
      return libraryGemm(collapseToRows(rewriter, loc, adaptor.getLhs()), adaptor.getRhs(),
                         collapseToRows(rewriter, loc, out), accumulator);
    if (lhsType.getRank() >= 3 && rhsType.getRank() == lhsType.getRank() &&
        lhsType.getShape().drop_back(2) == rhsType.getShape().drop_back(2))
      return libraryGemm(collapseToBatch(rewriter, loc, adaptor.getLhs()),
                         collapseToBatch(rewriter, loc, adaptor.getRhs()),
                         collapseToBatch(rewriter, loc, out), accumulator);
    ArrayRef<int64_t> resultShape = op.getType().getShape();
    bool lhsMatrix = lhsType.getRank() >= 2, rhsMatrix = rhsType.getRank() >= 2;
    int64_t batchRank = resultShape.size() - (lhsMatrix ? 1 : 0) - (rhsMatrix ? 1 : 0);
    // Iteration space: [batch..., m?, n?, k].
    int64_t numDims = resultShape.size() + 1;
    MLIRContext *ctx = rewriter.getContext();
    auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    int64_t mDim = batchRank, nDim = batchRank + (lhsMatrix ? 1 : 0), kDim = numDims - 1;
    auto operandMap = [&](RankedTensorType type, bool isLhs) {
      SmallVector<AffineExpr> exprs;
      int64_t matrixRank = type.getRank() >= 2 ? 2 : 1;
      ArrayRef<int64_t> batch = type.getShape().drop_back(matrixRank);
      int64_t offset = batchRank - batch.size();
      for (auto [i, size] : llvm::enumerate(batch))
        exprs.push_back(size == 1 && resultShape[offset + i] != 1 ? getAffineConstantExpr(0, ctx)
                                                                  : dim(offset + i));
      if (isLhs) {
        if (matrixRank == 2)
          exprs.push_back(dim(mDim));
        exprs.push_back(dim(kDim));
      } else {
        exprs.push_back(dim(kDim));
        if (matrixRank == 2)
          exprs.push_back(dim(nDim));
      }
      return AffineMap::get(numDims, 0, exprs, ctx);
    };
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < numDims - 1; ++i)
      outExprs.push_back(dim(i));
    SmallVector<AffineMap> maps = {operandMap(lhsType, true), operandMap(rhsType, false),
                                   AffineMap::get(numDims, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iters(numDims - 1, utils::IteratorType::parallel);
    iters.push_back(utils::IteratorType::reduction);
    // Narrow floats (f16, bf16) accumulate in an f32 scratch buffer and are rounded once at the
    // end.
    Type ct = computeType(et);
    SmallVector<Value> outs = {out};
    if (ct != et)
      outs.push_back(AllocOp::create(rewriter, loc, MemRefType::get(resultShape, ct)));
    auto kernel = KernelOp::create(
        rewriter, loc, "matmul", ValueRange{adaptor.getLhs(), adaptor.getRhs()}, outs,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value y = args[2], acc = args.back();
          linalg::FillOp::create(b, l, scalarConstant(b, l, ct, 0.0), acc);
          linalg::GenericOp::create(
              b, l, args.take_front(2), acc, maps, iters,
              [&](OpBuilder &gb, Location gl, ValueRange e) {
                Value p = arith::MulFOp::create(gb, gl, convertFloat(gb, gl, e[0], ct),
                                                convertFloat(gb, gl, e[1], ct));
                linalg::YieldOp::create(gb, gl, (Value)arith::AddFOp::create(gb, gl, e[2], p));
              });
          if (acc == y)
            return;
          int64_t rank = resultShape.size();
          AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
          linalg::GenericOp::create(
              b, l, acc, y, SmallVector<AffineMap>{id, id},
              SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
              [&](OpBuilder &gb, Location gl, ValueRange e) {
                linalg::YieldOp::create(gb, gl, convertFloat(gb, gl, e[0], et));
              });
        });
    // No library GEMM form: said in --report=kernels and the compile-time warning.
    std::string reason;
    llvm::raw_string_ostream os(reason);
    os << "matmul " << lhsType << " * " << rhsType << ": "
       << "broadcast batch dims or a 1-D operand (no library GEMM form)";
    kernel->setAttr(MieDialect::getPortableAttrName(), rewriter.getStringAttr(reason));
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// Extra bottom/right padding so that ceil-mode windows that start inside the input fit.
static std::pair<int64_t, int64_t> ceilOverflow(RankedTensorType in, RankedTensorType out,
                                                ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                                ArrayRef<int64_t> pads,
                                                ArrayRef<int64_t> dilations) {
  int64_t extra[2];
  for (int i = 0; i < 2; ++i) {
    int64_t needed = (out.getDimSize(2 + i) - 1) * strides[i] + dilations[i] * (kernel[i] - 1) + 1;
    int64_t have = in.getDimSize(2 + i) + pads[i] + pads[i + 2];
    extra[i] = std::max<int64_t>(0, needed - have);
  }
  return {extra[0], extra[1]};
}

/// Pads the input of a pooling op into a fresh buffer when it has (explicit or ceil-mode) padding.
static Value padForPooling(OpBuilder &b, Location loc, Value input, RankedTensorType inType,
                           ArrayRef<int64_t> pads, std::pair<int64_t, int64_t> extra,
                           double padValue) {
  int64_t padH = pads[0] + pads[2] + extra.first, padW = pads[1] + pads[3] + extra.second;
  if (padH == 0 && padW == 0)
    return input;
  SmallVector<int64_t> shape(inType.getShape());
  shape[2] += padH;
  shape[3] += padW;
  // A run-time batch (code for symbolic dims) is the input's.
  SmallVector<Value> batch;
  if (inType.isDynamicDim(0))
    batch.push_back(memref::DimOp::create(b, loc, input, 0));
  Value padded = AllocOp::create(b, loc, MemRefType::get(shape, inType.getElementType()), batch,
                                 IntegerAttr());
  buildPadKernel(b, loc, "pool_pad", input, padded, {0, 0, pads[0], pads[1]}, padValue);
  return padded;
}

template <typename PoolOp>
static std::pair<Value, std::pair<int64_t, int64_t>> preparePool(PoolOp op, Value input,
                                                                 OpBuilder &b, double padValue) {
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  auto extra = ceilOverflow(inType, op.getType(), op.getKernel(), op.getStrides(), op.getPads(),
                            op.getDilations());
  return {padForPooling(b, op.getLoc(), input, inType, op.getPads(), extra, padValue), extra};
}

/// Max pooling of 4-D (NCHW) tensors (the batch may be symbolic): `mie.max_pool2d`, which
/// mie-select-kernels may put on a microkernel and mie-lower-library-kernels otherwise lowers to
/// loops.
struct MaxPoolToLibrary : OpConversionPattern<ms::MaxPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::MaxPoolOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    RankedTensorType outType = op.getType();
    // A dynamic batch only in code for symbolic dims, which records the result's dims.
    bool sized =
        op->hasAttr(kResultDimsAttrName) || (inType.hasStaticShape() && outType.hasStaticShape());
    if (!sized || inType.getRank() != 4)
      return rewriter.notifyMatchFailure(op, "expects 4-D shapes of known dims");
    Value out = allocResult(rewriter, op.getLoc(), op.getOperation());
    MaxPool2dOp::create(rewriter, op.getLoc(), adaptor.getInput(), out, op.getKernel(),
                        op.getStrides(), op.getPads(), op.getDilations(),
                        /*ukernel=*/UKernelAttr());
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// Average pooling: a window sum over the zero-padded input, divided by the window size, or, when
/// padding must not count, by the number of real (or explicitly padded) elements under the window.
struct AvgPoolToKernel : OpConversionPattern<ms::AvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::AvgPoolOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [padded, extra] = preparePool(op, adaptor.getInput(), rewriter, 0.0);
    Value out = allocResult(rewriter, loc, op.getOperation());
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(), pads = op.getPads(),
                      dilations = op.getDilations();
    bool countPad = op.getCountIncludePad();
    KernelOp::create(
        rewriter, loc, "avg_pool", padded, out, [&](OpBuilder &b, Location l, ValueRange args) {
          Type et = op.getType().getElementType();
          linalg::FillOp::create(b, l, scalarConstant(b, l, et, 0.0), args[1]);
          Value window = memref::AllocaOp::create(b, l, MemRefType::get(kernel, et));
          linalg::PoolingNchwSumOp::create(b, l, TypeRange{}, ValueRange{args[0], window}, args[1],
                                           b.getI64TensorAttr(strides),
                                           b.getI64TensorAttr(dilations));
          int64_t rank = 4;
          MLIRContext *ctx = b.getContext();
          SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx)};
          SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
          linalg::GenericOp::create(
              b, l, ValueRange{}, args[1], maps, iters,
              [&](OpBuilder &gb, Location gl, ValueRange e) {
                // count = prod over h, w of |[start, end) ∩ [lo, hi)| / dilation-aware, where the
                // window starts at o * stride - pad_begin and [lo, hi) is the input (plus the
                // explicit padding when it counts). Computed on index values, converted once.
                Value count = arith::ConstantIndexOp::create(gb, gl, 1);
                for (int i = 0; i < 2; ++i) {
                  int64_t size = inType.getDimSize(2 + i);
                  int64_t lo = countPad ? -pads[i] : 0;
                  int64_t hi = countPad ? size + pads[i + 2] : size;
                  Value o = linalg::IndexOp::create(gb, gl, 2 + i);
                  Value start = arith::SubIOp::create(
                      gb, gl,
                      arith::MulIOp::create(gb, gl, o,
                                            arith::ConstantIndexOp::create(gb, gl, strides[i])),
                      arith::ConstantIndexOp::create(gb, gl, pads[i]));
                  // Number of taps t in [0, k) with lo <= start + t * d < hi.
                  Value n = arith::ConstantIndexOp::create(gb, gl, 0);
                  for (int64_t t = 0; t < kernel[i]; ++t) {
                    Value pos = arith::AddIOp::create(
                        gb, gl, start, arith::ConstantIndexOp::create(gb, gl, t * dilations[i]));
                    Value inLo = arith::CmpIOp::create(gb, gl, arith::CmpIPredicate::sge, pos,
                                                       arith::ConstantIndexOp::create(gb, gl, lo));
                    Value inHi = arith::CmpIOp::create(gb, gl, arith::CmpIPredicate::slt, pos,
                                                       arith::ConstantIndexOp::create(gb, gl, hi));
                    Value inside = arith::AndIOp::create(gb, gl, inLo, inHi);
                    n = arith::AddIOp::create(
                        gb, gl, n,
                        arith::IndexCastOp::create(
                            gb, gl, gb.getIndexType(),
                            arith::ExtUIOp::create(gb, gl, gb.getI64Type(), inside)));
                  }
                  count = arith::MulIOp::create(gb, gl, count, n);
                }
                Value countInt = arith::IndexCastOp::create(gb, gl, gb.getI64Type(), count);
                Value countF = arith::SIToFPOp::create(gb, gl, et, countInt);
                linalg::YieldOp::create(gb, gl, (Value)arith::DivFOp::create(gb, gl, e[0], countF));
              });
        });
    rewriter.replaceOp(op, out);
    (void)extra;
    return success();
  }
};

/// Mean over every dim after the channel dim: a row kernel (RowLoops), one row of H x W elements
/// per (image, channel), summed in the compute type with reassociation so the sum vectorizes (a
/// serial chain of adds bounded the squeeze-excite pools of mobilenet_v3 at one add per 4 cycles).
struct GlobalAvgPoolToKernel : OpConversionPattern<ms::GlobalAvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::GlobalAvgPoolOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    // A run-time batch only (code for symbolic dims): the rows are counted at run time, each
    // row's length stays static.
    bool runTimeBatch = inType.getRank() >= 2 && op->hasAttr(kResultDimsAttrName) &&
                        llvm::all_of(inType.getShape().drop_front(),
                                     [](int64_t d) { return !ShapedType::isDynamic(d); });
    if ((!inType.hasStaticShape() && !runTimeBatch) || inType.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "expects a static input of rank >= 2");
    Value out = allocResult(rewriter, loc, op.getOperation());
    int64_t count = 1;
    for (int64_t d : inType.getShape().drop_front(2))
      count *= d;
    int64_t rows = inType.hasStaticShape() ? inType.getDimSize(0) * inType.getDimSize(1) : 0;
    if (inType.hasStaticShape())
      count = rows ? inType.getNumElements() / rows : 0;
    Type et = inType.getElementType(), ct = computeType(et);
    KernelOp::create(
        rewriter, loc, "global_avg_pool", adaptor.getInput(), out,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = collapseToVector(b, l, args[0]), y = collapseToVector(b, l, args[1]);
          RowLoops row{b, l, count};
          // An empty window has no mean: 0 / 0 gives NaN, as the reference does.
          Value inv = scalarConstant(b, l, ct, 1.0 / static_cast<double>(count));
          auto body = [&](Value r, Value base) {
            Value sum = row.reduce(scalarConstant(b, l, ct, 0.0),
                                   [&](OpBuilder &rb, Location rl, Value j, Value acc) {
                                     Value v = convertFloat(rb, rl, loadAt(rb, rl, x, base, j), ct);
                                     return arith::AddFOp::create(rb, rl, acc, v, kReassoc);
                                   });
            Value mean = convertFloat(b, l, arith::MulFOp::create(b, l, sum, inv), et);
            memref::StoreOp::create(b, l, mean, y, r);
          };
          row.forEachRowOf(args[0], 2, rows, body);
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieNNPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<Conv2dToLibrary, QConv2dToLibrary, GemmToLibrary, MatMulToKernel, MaxPoolToLibrary,
               AvgPoolToKernel, GlobalAvgPoolToKernel>(converter, patterns.getContext());
}
