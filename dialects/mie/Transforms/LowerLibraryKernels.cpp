//===- LowerLibraryKernels.cpp - the mie-lower-library-kernels pass -------===//
//
// Library kernels with a tiling run on the microkernels (the *UKernelLowering.cpp files, one per
// family). The rest take the portable implementation here: linalg on the kernel's buffers, which
// the CPU code generator turns into loops.
//
//===----------------------------------------------------------------------===//

#include "UKernelLowering.h"
#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/FlopCount.h"
#include "dialects/mie/Utils/KernelBuilders.h"
#include "mie/Target/UKernelRegistry.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

namespace mlir::mie {
#define GEN_PASS_DEF_MIELOWERLIBRARYKERNELSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Work items of a channels-last depthwise convolution: mie-select-kernels' default
/// min-work-items, which the pixel-row GEMMs around it were split by.
constexpr int64_t kChannelsLastMinItems = 16;

/// Applies the epilogue in place on `out` ([N, C, ...] with the bias along `biasDim`).
void buildEpilogueGeneric(OpBuilder &b, Location loc, EpilogueAttr epilogue, Value out, Value bias,
                          Value residual, int64_t biasDim) {
  if (epilogue.isIdentity())
    return;
  MLIRContext *ctx = b.getContext();
  auto outType = cast<MemRefType>(out.getType());
  int64_t rank = outType.getRank();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  if (bias) {
    ins.push_back(bias);
    maps.push_back(AffineMap::get(rank, 0, getAffineDimExpr(biasDim, ctx)));
  }
  if (residual) {
    ins.push_back(residual);
    maps.push_back(id);
  }
  maps.push_back(id);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  linalg::GenericOp::create(b, loc, ins, out, maps, iters,
                            [&](OpBuilder &gb, Location gl, ValueRange e) {
                              Value biasV = bias ? e[0] : Value();
                              Value resV = residual ? e[bias ? 1 : 0] : Value();
                              Value y = emitEpilogue(gb, gl, epilogue, e.back(), biasV, resV);
                              linalg::YieldOp::create(gb, gl, y);
                            });
}

/// Max pooling in generated loops (any element type; the f32 microkernel, where the target has one,
/// runs the same algorithm in vectors): without a padded copy, separable: one parallel loop over
/// the output rows (image, channel, row); each first takes the maximum of the window's input rows
/// that lie in the image into a row buffer (contiguous reads LLVM vectorizes), then each output
/// column the maximum of its window's taps in that buffer, over the output columns whose tap lies
/// in the image (a range known at compile time). Padding and ceil mode are the rows and columns a
/// tap skips. (A -inf filled copy of the input plus a pooling over it took 2.7x onnxruntime's time
/// on resnet50's stem pool; maxing the output row with every KH x KW tap, nine strided
/// passes, 2.4x.)
KernelOp lowerMaxPool(MaxPool2dOp op) {
  ArrayRef<int64_t> inShape = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> outShape = cast<MemRefType>(op.getOutput().getType()).getShape();
  const int64_t h = inShape[2], w = inShape[3], oh = outShape[2], ow = outShape[3];
  const int64_t rows = outShape[0] * outShape[1] * oh;
  ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(), pads = op.getPads(),
                    dilations = op.getDilations();
  Type et = cast<MemRefType>(op.getOutput().getType()).getElementType();
  OpBuilder builder(op);
  KernelOp k = KernelOp::create(
      builder, op.getLoc(), "max_pool", op.getInput(), op.getOutput(),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = collapseToVector(b, l, args[0]), y = collapseToVector(b, l, args[1]);
        auto idx = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, l, v); };
        Value lowest = scalarConstant(b, l, et, -std::numeric_limits<double>::infinity());
        auto forRange = [&](int64_t lo, int64_t hi, function_ref<void(Value)> body) {
          scf::ForOp::create(b, l, idx(lo), idx(hi), idx(1), ValueRange{},
                             [&](OpBuilder &fb, Location fl, Value iv, ValueRange) {
                               OpBuilder::InsertionGuard guard(b);
                               b.setInsertionPoint(scf::YieldOp::create(fb, fl));
                               body(iv);
                             });
        };
        auto maxInto = [&](Value dst, Value at, Value v) {
          Value cur = memref::LoadOp::create(b, l, dst, ValueRange{at});
          memref::StoreOp::create(b, l, arith::MaximumFOp::create(b, l, cur, v), dst,
                                  ValueRange{at});
        };
        // The row buffer: allocated before the loop, so each thread's outlined body gets its own
        // (mie-parallelize-loops clones it) and no iteration grows the stack.
        // With a stride SW along W it holds the columns split by residue: column c at
        // (c % SW) * cw + c / SW, so every tap's columns (o * SW + off, o = 0, 1, ...) are
        // contiguous and the column pass vectorizes; the row pass reads all residues of a group of
        // SW columns at once, contiguous too (resnet50's 3x3 stride-2 pool: 2x faster than
        // strided taps).
        const int64_t sw = strides[1], cw = llvm::divideCeil(w, sw), groups = w / sw;
        auto slot = [&](int64_t residue, Value group) -> Value {
          return arith::AddIOp::create(b, l, group, idx(residue * cw));
        };
        Value colMax = memref::AllocaOp::create(b, l, MemRefType::get({sw * cw}, et));
        auto par = scf::ParallelOp::create(b, l, ValueRange{idx(0)}, ValueRange{idx(rows)},
                                           ValueRange{idx(1)});
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(par.getBody());
        Value row = par.getInductionVars()[0];
        Value plane = arith::DivUIOp::create(b, l, row, idx(oh));
        Value orow = arith::RemUIOp::create(b, l, row, idx(oh));
        Value xPlane = arith::MulIOp::create(b, l, plane, idx(h * w));
        Value yRow = arith::MulIOp::create(b, l, row, idx(ow));
        forRange(0, sw * cw, [&](Value c) { memref::StoreOp::create(b, l, lowest, colMax, c); });
        for (int64_t kh = 0; kh < kernel[0]; ++kh) {
          // ih = orow * SH + kh * DH - top, inside [0, H) or skipped.
          Value ih = arith::SubIOp::create(b, l, arith::MulIOp::create(b, l, orow, idx(strides[0])),
                                           idx(pads[0] - kh * dilations[0]));
          Value inside = arith::AndIOp::create(
              b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, ih, idx(0)),
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, ih, idx(h)));
          auto ifOp = scf::IfOp::create(b, l, inside, /*withElseRegion=*/false);
          OpBuilder::InsertionGuard ifGuard(b);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          Value xRow = arith::AddIOp::create(b, l, xPlane, arith::MulIOp::create(b, l, ih, idx(w)));
          auto column = [&](Value group, int64_t residue) {
            Value c = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, group, idx(sw)),
                                            idx(residue));
            maxInto(
                colMax, slot(residue, group),
                memref::LoadOp::create(b, l, x, ValueRange{arith::AddIOp::create(b, l, xRow, c)}));
          };
          forRange(0, groups, [&](Value g) {
            for (int64_t r = 0; r < sw; ++r)
              column(g, r);
          });
          for (int64_t r = 0; r < w % sw; ++r) // the last, partial group
            column(idx(groups), r);
        }
        forRange(0, ow, [&](Value o) {
          memref::StoreOp::create(b, l, lowest, y,
                                  ValueRange{arith::AddIOp::create(b, l, yRow, o)});
        });
        for (int64_t kw = 0; kw < kernel[1]; ++kw) {
          // Output columns o whose tap iw = o * SW + off lies in [0, W).
          const int64_t off = kw * dilations[1] - pads[1];
          const int64_t lo = off >= 0 ? 0 : llvm::divideCeil(-off, strides[1]);
          const int64_t hi = w - 1 - off < 0 ? 0 : std::min(ow, (w - 1 - off) / strides[1] + 1);
          if (lo >= hi)
            continue;
          // iw = o * SW + off: residue off mod SW, group o + floor(off / SW).
          const int64_t residue = ((off % sw) + sw) % sw, shift = (off - residue) / sw;
          forRange(lo, hi, [&](Value o) {
            maxInto(y, arith::AddIOp::create(b, l, yRow, o),
                    memref::LoadOp::create(
                        b, l, colMax,
                        ValueRange{slot(residue, arith::AddIOp::create(b, l, o, idx(shift)))}));
          });
        }
      });
  op.erase();
  return k;
}

/// Reorders a convolution's loops so the reductions (input channel, kernel window) run outside the
/// output's spatial dims: the innermost loop then walks contiguous output and input rows, which LLVM
/// vectorizes, instead of a scalar dot product per output element.
void reductionsOutside(linalg::LinalgOp conv, ArrayRef<unsigned> order) {
  IRRewriter rewriter(conv->getContext());
  rewriter.setInsertionPoint(conv);
  FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, conv);
  if (succeeded(generic))
    (void)linalg::interchangeGenericOp(rewriter, *generic, order);
}

/// The convolution proper on (already padded) buffers, choosing the linalg form by grouping.
void buildConvolution(OpBuilder &b, Location loc, Value input, Value filter, Value out,
                      int64_t groups, DenseIntElementsAttr strides,
                      DenseIntElementsAttr dilations) {
  auto inType = cast<MemRefType>(input.getType());
  auto wType = cast<MemRefType>(filter.getType());
  auto outType = cast<MemRefType>(out.getType());
  int64_t channels = inType.getDimSize(1), filters = wType.getDimSize(0);
  if (groups == 1) {
    auto conv = linalg::Conv2DNchwFchwOp::create(b, loc, TypeRange{}, ValueRange{input, filter},
                                                 out, strides, dilations);
    // (n, f, oh, ow, c, kh, kw) -> (n, f, c, kh, kw, oh, ow).
    reductionsOutside(conv, {0, 1, 4, 5, 6, 2, 3});
    return;
  }
  if (groups == channels && groups == filters) {
    // Depthwise, multiplier 1: [C, 1, KH, KW] -> [C, KH, KW].
    Value w = memref::CollapseShapeOp::create(b, loc, filter,
                                              ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
    auto conv = linalg::DepthwiseConv2DNchwChwOp::create(b, loc, TypeRange{}, ValueRange{input, w},
                                                         out, strides, dilations);
    // (n, c, oh, ow, kh, kw) -> (n, c, kh, kw, oh, ow).
    reductionsOutside(conv, {0, 1, 4, 5, 2, 3});
    return;
  }
  // General grouped: split the channel dims into [G, C/G].
  auto split = [&](Value v, MemRefType type, int64_t outer) -> Value {
    SmallVector<int64_t> shape = {type.getDimSize(0), groups, type.getDimSize(1) / groups};
    llvm::append_range(shape, type.getShape().drop_front(2));
    return memref::ExpandShapeOp::create(b, loc, MemRefType::get(shape, type.getElementType()), v,
                                         ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  };
  SmallVector<int64_t> wShape = {groups, filters / groups};
  llvm::append_range(wShape, wType.getShape().drop_front(1));
  Value w =
      memref::ExpandShapeOp::create(b, loc, MemRefType::get(wShape, wType.getElementType()), filter,
                                    ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  auto conv = linalg::Conv2DNgchwGfchwOp::create(b, loc, TypeRange{},
                                                 ValueRange{split(input, inType, groups), w},
                                                 split(out, outType, groups), strides, dilations);
  // (n, g, f, oh, ow, c, kh, kw) -> (n, g, f, c, kh, kw, oh, ow).
  reductionsOutside(conv, {0, 1, 2, 5, 6, 7, 3, 4});
}

/// The convolution of a channels_last op on (already padded) NHWC buffers: one group or
/// depthwise (the ms verifier admits no other grouping in NHWC), as one linalg.generic whose
/// innermost loop walks the contiguous channels of the output (and, depthwise, of the input).
void buildChannelsLastConvolution(OpBuilder &b, Location loc, Value input, Value filter, Value out,
                                  int64_t groups, ArrayRef<int64_t> strides,
                                  ArrayRef<int64_t> dilations) {
  MLIRContext *ctx = b.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  using utils::IteratorType;
  const IteratorType par = IteratorType::parallel, red = IteratorType::reduction;
  SmallVector<AffineMap> maps;
  SmallVector<IteratorType> iters;
  if (groups == 1) {
    // (n, oh, kh, kw, c, ow, f)
    auto row = d(1) * strides[0] + d(2) * dilations[0], col = d(5) * strides[1] + d(3) * dilations[1];
    maps = {AffineMap::get(7, 0, {d(0), row, col, d(4)}, ctx),
            AffineMap::get(7, 0, {d(6), d(4), d(2), d(3)}, ctx),
            AffineMap::get(7, 0, {d(0), d(1), d(5), d(6)}, ctx)};
    iters = {par, par, red, red, red, par, par};
  } else {
    // Depthwise, multiplier 1: (n, oh, kh, kw, ow, c), the filter [C, 1, KH, KW].
    auto row = d(1) * strides[0] + d(2) * dilations[0], col = d(4) * strides[1] + d(3) * dilations[1];
    maps = {AffineMap::get(6, 0, {d(0), row, col, d(5)}, ctx),
            AffineMap::get(6, 0, {d(5), getAffineConstantExpr(0, ctx), d(2), d(3)}, ctx),
            AffineMap::get(6, 0, {d(0), d(1), d(4), d(5)}, ctx)};
    iters = {par, par, red, red, par, par};
  }
  linalg::GenericOp::create(
      b, loc, ValueRange{input, filter}, out, maps, iters,
      [&](OpBuilder &gb, Location gl, ValueRange e) {
        Type et = e[2].getType();
        Value product = isa<FloatType>(et) ? (Value)arith::MulFOp::create(gb, gl, e[0], e[1])
                                            : (Value)arith::MulIOp::create(gb, gl, e[0], e[1]);
        Value sum = isa<FloatType>(et) ? (Value)arith::AddFOp::create(gb, gl, e[2], product)
                                       : (Value)arith::AddIOp::create(gb, gl, e[2], product);
        linalg::YieldOp::create(gb, gl, sum);
      });
}

KernelOp lowerConv2d(Conv2dOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value input = op.getInput();
  ArrayRef<int64_t> pads = op.getPads();
  // Padding is a zero-filled copy inside the same kernel (its buffer an extra scratch output that
  // memory planning places like any other), so a padded convolution is still one launch.
  Value padded;
  if (llvm::any_of(pads, [](int64_t p) { return p != 0; })) {
    auto inType = cast<MemRefType>(input.getType());
    SmallVector<int64_t> shape(inType.getShape());
    const int64_t h = op.getChannelsLast() ? 1 : 2;
    shape[h] += pads[0] + pads[2];
    shape[h + 1] += pads[1] + pads[3];
    // A run-time batch (code for symbolic dims) is the input's.
    SmallVector<Value> batch;
    if (inType.isDynamicDim(0))
      batch.push_back(memref::DimOp::create(b, loc, input, 0));
    padded = AllocOp::create(b, loc, MemRefType::get(shape, inType.getElementType()), batch,
                             IntegerAttr());
  }
  const bool channelsLast = op.getChannelsLast();
  SmallVector<int64_t> strideValues(op.getStrides()), dilationValues(op.getDilations());
  SmallVector<Value> ins = {input, op.getFilter()};
  if (op.getBias())
    ins.push_back(op.getBias());
  if (op.getResidual())
    ins.push_back(op.getResidual());
  SmallVector<Value> outs = {op.getOutput()};
  if (padded)
    outs.push_back(padded);
  bool hasBias = op.getBias() != nullptr, hasResidual = op.getResidual() != nullptr;
  EpilogueAttr epilogue = op.getEpilogue();
  auto strides = b.getI64TensorAttr(op.getStrides());
  auto dilations = b.getI64TensorAttr(op.getDilations());
  int64_t groups = op.getGroups();
  KernelOp kernel = KernelOp::create(b, loc, "conv2d", ins, outs, [&](OpBuilder &kb, Location kl, ValueRange args) {
    Value out = args[ins.size()];
    Value source = args[0];
    if (padded) {
      Value scratch = args.back();
      auto inType = cast<MemRefType>(source.getType());
      linalg::FillOp::create(kb, kl, scalarConstant(kb, kl, inType.getElementType(), 0.0),
                             scratch);
      SmallVector<int64_t> offsets = channelsLast ? SmallVector<int64_t>{0, pads[0], pads[1], 0}
                                                  : SmallVector<int64_t>{0, 0, pads[0], pads[1]};
      SmallVector<OpFoldResult> at, unit(4, kb.getIndexAttr(1));
      for (int64_t offset : offsets)
        at.push_back(kb.getIndexAttr(offset));
      Value interior = memref::SubViewOp::create(kb, kl, scratch, at,
                                                 memref::getMixedSizes(kb, kl, source), unit);
      linalg::CopyOp::create(kb, kl, source, interior);
      source = scratch;
    }
    Type et = cast<MemRefType>(out.getType()).getElementType();
    linalg::FillOp::create(kb, kl, scalarConstant(kb, kl, et, 0.0), out);
    if (channelsLast)
      buildChannelsLastConvolution(kb, kl, source, args[1], out, groups, strideValues,
                                   dilationValues);
    else
      buildConvolution(kb, kl, source, args[1], out, groups, strides, dilations);
    Value bias = hasBias ? args[2] : Value();
    Value residual = hasResidual ? args[hasBias ? 3 : 2] : Value();
    buildEpilogueGeneric(kb, kl, epilogue, out, bias, residual, /*biasDim=*/channelsLast ? 3 : 1);
  });
  op.erase();
  return kernel;
}

KernelOp lowerGemm(GemmOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto outType = cast<MemRefType>(op.getOutput().getType());
  int64_t rank = outType.getRank(); // 2, or 3 when batched
  bool batched = rank == 3;
  bool ta = op.getTransA(), tb = op.getTransB(), tc = op.getTransC();
  double alpha = op.getAlpha().convertToDouble();
  SmallVector<Value> ins = {op.getA(), op.getB()};
  bool hasBias = op.getBias() != nullptr, hasResidual = op.getResidual() != nullptr;
  if (hasBias)
    ins.push_back(op.getBias());
  if (hasResidual)
    ins.push_back(op.getResidual());
  EpilogueAttr epilogue = op.getEpilogue();
  KernelOp kernel = KernelOp::create(
      b, loc, "gemm", ins, op.getOutput(), [&](OpBuilder &kb, Location kl, ValueRange args) {
        MLIRContext *ctx = kb.getContext();
        Value out = args.back();
        Type et = outType.getElementType();
        linalg::FillOp::create(kb, kl, scalarConstant(kb, kl, et, 0.0), out);
        // Iteration space [batch?, m, n, k].
        int64_t nd = rank + 1, m = rank - 2, n = rank - 1, k = rank;
        auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
        SmallVector<AffineExpr> aExprs, bExprs, oExprs;
        if (batched) {
          aExprs.push_back(d(0));
          bExprs.push_back(d(0));
          oExprs.push_back(d(0));
        }
        aExprs.append(ta ? SmallVector<AffineExpr>{d(k), d(m)}
                         : SmallVector<AffineExpr>{d(m), d(k)});
        bExprs.append(tb ? SmallVector<AffineExpr>{d(n), d(k)}
                         : SmallVector<AffineExpr>{d(k), d(n)});
        if (tc)
          oExprs.append({d(n), d(m)});
        else
          oExprs.append({d(m), d(n)});
        SmallVector<AffineMap> maps = {AffineMap::get(nd, 0, aExprs, ctx),
                                       AffineMap::get(nd, 0, bExprs, ctx),
                                       AffineMap::get(nd, 0, oExprs, ctx)};
        SmallVector<utils::IteratorType> iters(nd - 1, utils::IteratorType::parallel);
        iters.push_back(utils::IteratorType::reduction);
        linalg::GenericOp::create(kb, kl, args.take_front(2), out, maps, iters,
                                  [&](OpBuilder &gb, Location gl, ValueRange e) {
                                    Value p = arith::MulFOp::create(gb, gl, e[0], e[1]);
                                    linalg::YieldOp::create(
                                        gb, gl, (Value)arith::AddFOp::create(gb, gl, e[2], p));
                                  });
        if (alpha != 1.0) {
          SmallVector<AffineMap> idMaps = {AffineMap::getMultiDimIdentityMap(rank, ctx)};
          SmallVector<utils::IteratorType> par(rank, utils::IteratorType::parallel);
          linalg::GenericOp::create(
              kb, kl, ValueRange{}, out, idMaps, par,
              [&](OpBuilder &gb, Location gl, ValueRange e) {
                linalg::YieldOp::create(
                    gb, gl,
                    (Value)arith::MulFOp::create(gb, gl, e[0], scalarConstant(gb, gl, et, alpha)));
              });
        }
        Value bias = hasBias ? args[2] : Value();
        Value residual = hasResidual ? args[hasBias ? 3 : 2] : Value();
        // The bias goes per product column: the output's last dim, or with trans_c its rows.
        buildEpilogueGeneric(kb, kl, epilogue, out, bias, residual,
                             /*biasDim=*/tc ? rank - 2 : rank - 1);
      });
  op.erase();
  return kernel;
}

/// The portable attention: a parallel loop over (batch dims, query row); per row the T scores live
/// in a stack buffer (an alloca scope per row), never in an [S, T] buffer:
///   s_j = scale * <q_i, k_j> (+ mask_ij),  m = max_j s_j
///   o_i = sum_j exp(s_j - m) v_j / sum_j exp(s_j - m)
/// The value rows are accumulated in j order so the innermost loop runs along contiguous rows of V
/// and of the output.
KernelOp lowerAttention(AttentionOp op) {
  OpBuilder rewriter(op);
  Location loc = op.getLoc();
  // Shapes in the logical [..., H, S, D] order; token-major buffers hold [..., S, H, D].
  const bool tokenMajor = op.getTokenMajor();
  SmallVector<int64_t> qShape = op.getLogicalShape(op.getQuery());
  int64_t rank = qShape.size(), batchRank = rank - 2;
  int64_t seq = qShape[rank - 2], head = qShape[rank - 1];
  int64_t keys = op.getLogicalShape(op.getKey())[rank - 2];
  int64_t valueSize = op.getLogicalShape(op.getValue())[rank - 1];
  const int64_t group = op.getHeadsPerKeyValueHead();
  double scale = op.getScale().convertToDouble();
  Value out = op.getOutput();
  SmallVector<Value> ins = {op.getQuery(), op.getKey(), op.getValue()};
  if (op.getMask())
    ins.push_back(op.getMask());
  ArrayRef<int64_t> maskShape =
      op.getMask() ? cast<MemRefType>(op.getMask().getType()).getShape() : ArrayRef<int64_t>();

    KernelOp kernel = KernelOp::create(rewriter, loc, "attention", ins, out, [&](OpBuilder &b, Location l,
                                                               ValueRange args) {
      Value q = args[0], k = args[1], v = args[2], o = args.back();
      Value mask = op.getMask() ? args[3] : Value();
      Type f32 = b.getF32Type();
      auto fm = arith::FastMathFlags::reassoc | arith::FastMathFlags::contract;
      auto idx = [&](int64_t c) -> Value { return arith::ConstantIndexOp::create(b, l, c); };
      Value zero = idx(0), one = idx(1);
      SmallVector<Value> lbs(batchRank + 1, zero), steps(batchRank + 1, one), ubs;
      for (int64_t d = 0; d < batchRank; ++d)
        ubs.push_back(idx(qShape[d]));
      ubs.push_back(idx(seq));
      scf::ParallelOp::create(
          b, l, lbs, ubs, steps, [&](OpBuilder &pb, Location pl, ValueRange ivs) {
            ValueRange batch = ivs.drop_back();
            Value row = ivs.back();
            // Indices of element (i, j) of the batch's query/output rows, and of its key/value
            // rows: head h / group under grouped-query attention.
            SmallVector<Value> kvBatch(batch);
            if (group > 1)
              kvBatch[rank - 3] = arith::DivUIOp::create(
                  pb, pl, kvBatch[rank - 3], arith::ConstantIndexOp::create(pb, pl, group));
            auto indicesOf = [&](Value i, Value j, bool keyValue) {
              SmallVector<Value> indices(keyValue ? ValueRange(kvBatch) : batch);
              indices.push_back(i);
              indices.push_back(j);
              if (tokenMajor) // (..., h, i, j) -> (..., i, h, j)
                std::swap(indices[rank - 3], indices[rank - 2]);
              return indices;
            };
            auto at = [&](Value i, Value j) { return indicesOf(i, j, false); };
            auto atKv = [&](Value i, Value j) { return indicesOf(i, j, true); };
            // The row's scratch is released at the end of each iteration.
            auto scope = memref::AllocaScopeOp::create(pb, pl, TypeRange{});
            OpBuilder sb = OpBuilder::atBlockEnd(&scope.getBodyRegion().emplaceBlock());
            Location sl = pl;
            {
              auto cst = [&](double c) { return scalarConstant(sb, sl, f32, c); };
              auto sIdx = [&](int64_t c) -> Value {
                return arith::ConstantIndexOp::create(sb, sl, c);
              };
              Value scores = memref::AllocaOp::create(sb, sl, MemRefType::get({keys}, f32));
              Value lo = sIdx(0), step = sIdx(1);
              // Pass 1: scores and their maximum.
              auto maxLoop = scf::ForOp::create(
                  sb, sl, lo, sIdx(keys), step,
                  ValueRange{cst(-std::numeric_limits<double>::infinity())},
                  [&](OpBuilder &fb, Location fl, Value j, ValueRange iter) {
                    auto dot = scf::ForOp::create(
                        fb, fl, lo, arith::ConstantIndexOp::create(fb, fl, head), step,
                        ValueRange{scalarConstant(fb, fl, f32, 0.0)},
                        [&](OpBuilder &db, Location dl, Value d, ValueRange acc) {
                          Value qd = memref::LoadOp::create(db, dl, q, at(row, d));
                          Value kd = memref::LoadOp::create(db, dl, k, atKv(j, d));
                          Value p = arith::MulFOp::create(db, dl, qd, kd, fm);
                          scf::YieldOp::create(db, dl,
                                               (Value)arith::AddFOp::create(db, dl, acc[0], p, fm));
                        });
                    Value s = arith::MulFOp::create(fb, fl, dot.getResult(0),
                                                    scalarConstant(fb, fl, f32, scale));
                    if (mask) {
                      // Right-aligned broadcast of the mask onto the logical scores [batch...,
                      // S, T] (also for token-major operands).
                      SmallVector<Value> full(batch), indices;
                      full.append({row, j});
                      int64_t offset = rank - maskShape.size();
                      Value c0 = arith::ConstantIndexOp::create(fb, fl, 0);
                      for (auto [i, size] : llvm::enumerate(maskShape))
                        indices.push_back(size == 1 ? c0 : full[offset + i]);
                      s = arith::AddFOp::create(fb, fl, s,
                                                memref::LoadOp::create(fb, fl, mask, indices));
                    }
                    if (op.getCausal()) {
                      // Keys past the row's diagonal j = row + (T - S) are hidden.
                      Value last = arith::AddIOp::create(
                          fb, fl, row, arith::ConstantIndexOp::create(fb, fl, keys - seq));
                      Value hidden =
                          arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::ugt, j, last);
                      s = arith::SelectOp::create(
                          fb, fl, hidden,
                          scalarConstant(fb, fl, f32, -std::numeric_limits<double>::infinity()), s);
                    }
                    memref::StoreOp::create(fb, fl, s, scores, j);
                    scf::YieldOp::create(fb, fl,
                                         (Value)arith::MaximumFOp::create(fb, fl, iter[0], s));
                  });
              Value maxScore = maxLoop.getResult(0);
              // The output row starts at zero and accumulates p_j * v_j.
              Value dv = sIdx(valueSize);
              scf::ForOp::create(sb, sl, lo, dv, step, ValueRange{},
                                 [&](OpBuilder &fb, Location fl, Value e, ValueRange) {
                                   memref::StoreOp::create(fb, fl, scalarConstant(fb, fl, f32, 0.0),
                                                           o, at(row, e));
                                   scf::YieldOp::create(fb, fl);
                                 });
              auto sumLoop = scf::ForOp::create(
                  sb, sl, lo, sIdx(keys), step, ValueRange{cst(0.0)},
                  [&](OpBuilder &fb, Location fl, Value j, ValueRange iter) {
                    Value s = memref::LoadOp::create(fb, fl, scores, j);
                    Value p = math::ExpOp::create(fb, fl, arith::SubFOp::create(fb, fl, s, maxScore));
                    scf::ForOp::create(fb, fl, lo, dv, step, ValueRange{},
                                       [&](OpBuilder &eb, Location el, Value e, ValueRange) {
                                         Value ve = memref::LoadOp::create(eb, el, v, atKv(j, e));
                                         Value oe = memref::LoadOp::create(eb, el, o, at(row, e));
                                         Value r = arith::AddFOp::create(
                                             eb, el, oe, arith::MulFOp::create(eb, el, p, ve, fm),
                                             fm);
                                         memref::StoreOp::create(eb, el, r, o, at(row, e));
                                         scf::YieldOp::create(eb, el);
                                       });
                    scf::YieldOp::create(fb, fl,
                                         (Value)arith::AddFOp::create(fb, fl, iter[0], p));
                  });
              Value inv = arith::DivFOp::create(sb, sl, cst(1.0), sumLoop.getResult(0));
              scf::ForOp::create(sb, sl, lo, dv, step, ValueRange{},
                                 [&](OpBuilder &fb, Location fl, Value e, ValueRange) {
                                   Value oe = memref::LoadOp::create(fb, fl, o, at(row, e));
                                   memref::StoreOp::create(
                                       fb, fl, arith::MulFOp::create(fb, fl, oe, inv), o,
                                       at(row, e));
                                   scf::YieldOp::create(fb, fl);
                                 });
              memref::AllocaScopeReturnOp::create(sb, sl, ValueRange{});
            }
            scf::ReduceOp::create(pb, pl);
          });
    });
  op.erase();
  return kernel;
}

/// The microkernel lowering of a family (#mie.ukernel) on the op that carries the choice.
using UKernelLoweringFn = FailureOr<KernelOp> (*)(Operation *op, SymbolTable &symbols);

template <typename OpT, KernelOp (*Lower)(OpT, SymbolTable &)>
FailureOr<KernelOp> lowerOp(Operation *op, SymbolTable &symbols) {
  // A lowering that cannot take the op's shapes says why and gives no kernel.
  if (KernelOp kernel = Lower(cast<OpT>(op), symbols))
    return kernel;
  return failure();
}

/// The convolution families whose tiles read a filter packed at compile time.
template <KernelOp (*Lower)(Conv2dOp, SymbolTable &)>
FailureOr<KernelOp> lowerPackedConv(Operation *op, SymbolTable &symbols) {
  auto conv = cast<Conv2dOp>(op);
  if (!conv.getFilterShape())
    return conv.emitOpError("needs a packed filter for its ")
           << stringifyUKernelFamily(conv.getUkernel()->getFamily())
           << " ukernel (mie-pack-weights)";
  return Lower(conv, symbols);
}

/// The implicit GEMM: on the AMX tiles with the "amx" tiling, else on the f32 (or f16) tiles.
FailureOr<KernelOp> lowerConvGemm(Operation *op, SymbolTable &symbols) {
  return cast<Conv2dOp>(op).getUkernel()->isAmx()
             ? lowerPackedConv<lowerAmxConvToUKernels>(op, symbols)
             : lowerPackedConv<lowerConv2dToUKernels>(op, symbols);
}

/// The depthwise kernel of the op's layout: NCHW reads the filter as it is, NHWC a packed one.
FailureOr<KernelOp> lowerDepthwise(Operation *op, SymbolTable &symbols) {
  auto conv = cast<Conv2dOp>(op);
  if (!conv.getChannelsLast())
    return lowerDepthwiseToUKernels(conv, symbols);
  if (!conv.getFilterShape())
    return conv.emitOpError("needs a packed [KH * KW, C] filter for its channels_last depthwise "
                            "ukernel (mie-pack-weights)");
  return lowerChannelsLastDepthwiseToUKernels(conv, symbols, kChannelsLastMinItems);
}

/// The row products: constant b packed into panels at compile time, or both operands packed by
/// the work items at run time.
FailureOr<KernelOp> lowerGemmFamily(Operation *op, SymbolTable &symbols) {
  auto gemm = cast<GemmOp>(op);
  if (gemm.getBPacked())
    return lowerGemmToUKernels(gemm, symbols);
  // Packing scales constant panels by alpha; panels packed at run time are not scaled.
  if (gemm.getAlpha().convertToDouble() != 1.0)
    return gemm.emitOpError("has a gemm ukernel and an unpacked b but alpha != 1");
  return lowerActivationGemmToUKernels(gemm, symbols);
}

/// Every family's lowering, looked up by the op's `ukernel` (the op verifiers admit only the
/// families of their op).
struct FamilyLowering {
  UKernelFamily family;
  UKernelLoweringFn lower;
};
constexpr FamilyLowering kFamilyLowerings[] = {
    {UKernelFamily::gemm, lowerGemmFamily},
    {UKernelFamily::conv_gemm, lowerConvGemm},
    {UKernelFamily::conv_direct, lowerPackedConv<lowerDirectConvToUKernels>},
    {UKernelFamily::conv_pixel_rows, lowerPackedConv<lowerPixelRowsConvToUKernels>},
    {UKernelFamily::winograd_2x2, lowerPackedConv<lowerWinogradToUKernels>},
    {UKernelFamily::winograd_4x4, lowerPackedConv<lowerWinogradToUKernels>},
    {UKernelFamily::depthwise, lowerDepthwise},
    {UKernelFamily::max_pool, lowerOp<MaxPool2dOp, lowerMaxPoolToUKernels>},
    {UKernelFamily::attention, lowerOp<AttentionOp, lowerAttentionToUKernels>},
};

/// The op's kernel choice, for the ops that can carry one.
std::optional<UKernelAttr> getUKernelChoice(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<UKernelAttr>>(op)
      .Case<Conv2dOp, GemmOp, AttentionOp, MaxPool2dOp>([](auto op) { return op.getUkernel(); })
      .Default([](Operation *) { return std::nullopt; });
}

/// The portable lowering of an op without a microkernel choice.
FailureOr<KernelOp> lowerPortable(Operation *op, SymbolTable &symbols) {
  // The portable loops of pooling and attention are sized at compile time; a GEMM's and an NCHW
  // convolution's linalg forms read their extents (a convolution's run-time batch) at run time.
  auto conv = dyn_cast<Conv2dOp>(op);
  if (!isa<GemmOp>(op) && !(conv && !conv.getChannelsLast()) &&
      llvm::any_of(op->getOperandTypes(), [](Type t) {
        auto memref = dyn_cast<MemRefType>(t);
        return memref && !memref.hasStaticShape();
      }))
    return op->emitOpError("has run-time extents (code for symbolic dims) but no microkernel "
                           "lowering that takes them");
  if (auto qconv = dyn_cast<QConv2dOp>(op)) {
    // The integer convolution has one kernel (VNNI) and no portable form.
    if (!qconv.getFilterShape())
      return qconv.emitOpError("needs a packed filter (mie-pack-weights)");
    return lowerQConvToUKernels(qconv, symbols);
  }
  // (The verifier admits a packed filter only with a tiled ukernel.)
  if (auto conv = dyn_cast<Conv2dOp>(op))
    return lowerConv2d(conv);
  if (auto pool = dyn_cast<MaxPool2dOp>(op))
    return lowerMaxPool(pool);
  if (auto attention = dyn_cast<AttentionOp>(op))
    return lowerAttention(attention);
  return lowerGemm(cast<GemmOp>(op));
}

struct MieLowerLibraryKernelsPass
    : impl::MieLowerLibraryKernelsPassBase<MieLowerLibraryKernelsPass> {
  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      // Library calls of a cuda target are not kernels to generate (mie-gpu-library-calls).
      if (isa<Conv2dOp, QConv2dOp, GemmOp, AttentionOp, MaxPool2dOp>(op) && !isGpuLibraryCall(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      // The kernel carries the op's arithmetic, which its loops and microkernel calls no longer
      // show (pooling counts none: comparisons, as for the other generated kernels).
      std::optional<int64_t> flops;
      if (!isa<MaxPool2dOp>(op))
        flops = countLibraryOpFlops(op);
      // Why a product runs the portable lowering (mie-select-kernels), for the reports.
      Attribute portable = op->getAttr(MieDialect::getPortableAttrName());
      FailureOr<KernelOp> kernel = failure();
      if (std::optional<UKernelAttr> choice = getUKernelChoice(op)) {
        // A tile the registry lacks would only fail at the link, after code generation.
        if (std::string tile = choice->getTileSymbol(); !tile.empty() && !isRegisteredUKernel(tile))
          return (void)(op->emitOpError() << "runs the register tile '" << tile
                                          << "', which the microkernel registry does not list "
                                             "(runtime/include/mie/mie_ukernel_tiles.def)"),
                 signalPassFailure();
        const FamilyLowering *entry = llvm::find_if(kFamilyLowerings, [&](const FamilyLowering &f) {
          return f.family == choice->getFamily();
        });
        kernel = entry->lower(op, symbols);
      } else {
        kernel = lowerPortable(op, symbols);
      }
      if (failed(kernel))
        return signalPassFailure();
      if (flops && *flops > 0)
        (*kernel)->setAttr(MieDialect::getFlopsAttrName(),
                           IntegerAttr::get(IntegerType::get(&getContext(), 64), *flops));
      if (portable)
        (*kernel)->setAttr(MieDialect::getPortableAttrName(), portable);
    }
  }
};

} // namespace
} // namespace mlir::mie
