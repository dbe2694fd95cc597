//===- MsToMieAttention.cpp - ms.attention -> one kernel ------------------===//
//
// One kernel for the whole attention: a parallel loop over (batch dims, query row); per row the T
// scores live in a stack buffer (an alloca scope per row), never in an [S, T] tensor:
//   s_j = scale * <q_i, k_j> (+ mask_ij),  m = max_j s_j
//   o_i = sum_j exp(s_j - m) v_j / sum_j exp(s_j - m)
// The value rows are accumulated in j order so the innermost loop runs along contiguous rows of V
// and of the output.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

struct AttentionToKernel : OpConversionPattern<ms::AttentionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::AttentionOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto qType = cast<RankedTensorType>(op.getQuery().getType());
    auto kType = cast<RankedTensorType>(op.getKey().getType());
    auto vType = cast<RankedTensorType>(op.getValue().getType());
    if (!qType.hasStaticShape() || !kType.hasStaticShape() || !vType.hasStaticShape() ||
        !qType.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "expects static f32 operands");
    int64_t rank = qType.getRank(), batchRank = rank - 2;
    int64_t seq = qType.getDimSize(rank - 2), head = qType.getDimSize(rank - 1);
    int64_t keys = kType.getDimSize(rank - 2), valueSize = vType.getDimSize(rank - 1);
    double scale = op.getScale().convertToDouble();
    Value out = allocBuffer(rewriter, loc, op.getType());
    SmallVector<Value> ins = {adaptor.getQuery(), adaptor.getKey(), adaptor.getValue()};
    if (adaptor.getMask())
      ins.push_back(adaptor.getMask());
    ArrayRef<int64_t> maskShape =
        op.getMask() ? cast<RankedTensorType>(op.getMask().getType()).getShape()
                     : ArrayRef<int64_t>();

    KernelOp::create(rewriter, loc, "attention", ins, out, [&](OpBuilder &b, Location l,
                                                               ValueRange args) {
      Value q = args[0], k = args[1], v = args[2], o = args.back();
      Value mask = op.getMask() ? args[3] : Value();
      Type f32 = b.getF32Type();
      auto fm = arith::FastMathFlags::reassoc | arith::FastMathFlags::contract;
      auto idx = [&](int64_t c) -> Value { return arith::ConstantIndexOp::create(b, l, c); };
      Value zero = idx(0), one = idx(1);
      SmallVector<Value> lbs(batchRank + 1, zero), steps(batchRank + 1, one), ubs;
      for (int64_t d = 0; d < batchRank; ++d)
        ubs.push_back(idx(qType.getDimSize(d)));
      ubs.push_back(idx(seq));
      scf::ParallelOp::create(
          b, l, lbs, ubs, steps, [&](OpBuilder &pb, Location pl, ValueRange ivs) {
            ValueRange batch = ivs.drop_back();
            Value row = ivs.back();
            auto at = [&](Value i, Value j) {
              SmallVector<Value> indices(batch);
              indices.push_back(i);
              indices.push_back(j);
              return indices;
            };
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
                          Value kd = memref::LoadOp::create(db, dl, k, at(j, d));
                          Value p = arith::MulFOp::create(db, dl, qd, kd, fm);
                          scf::YieldOp::create(db, dl,
                                               (Value)arith::AddFOp::create(db, dl, acc[0], p, fm));
                        });
                    Value s = arith::MulFOp::create(fb, fl, dot.getResult(0),
                                                    scalarConstant(fb, fl, f32, scale));
                    if (mask) {
                      // Right-aligned broadcast of the mask onto [batch..., S, T].
                      SmallVector<Value> full = at(row, j), indices;
                      int64_t offset = rank - maskShape.size();
                      Value c0 = arith::ConstantIndexOp::create(fb, fl, 0);
                      for (auto [i, size] : llvm::enumerate(maskShape))
                        indices.push_back(size == 1 ? c0 : full[offset + i]);
                      s = arith::AddFOp::create(fb, fl, s,
                                                memref::LoadOp::create(fb, fl, mask, indices));
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
                                         Value ve = memref::LoadOp::create(eb, el, v, at(j, e));
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
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieAttentionPatterns(TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<AttentionToKernel>(converter, patterns.getContext());
}
