//===- AttentionUKernelLowering.cpp - fused attention ===//
//
// The loops around the microkernels, in the IR where they can be read: one scf.parallel over thread
// work items, calls with bare pointers plus element offsets (runtime/include/mie/mie_ukernel_abi.h
// is their contract; names come from the registry, ukernelSymbol).
//
//===----------------------------------------------------------------------===//

#include "UKernelLoweringHelpers.h"

#include "dialects/mie/Utils/SymbolicDims.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::ukernel_lowering;

namespace {

/// The dims of a buffer in the attention's logical [..., H, S, D] order as extents, read with
/// memref.dim where dynamic.
SmallVector<Extent> logicalExtents(UKernelBuilder &ub, AttentionOp op, Value buffer) {
  const int64_t rank = cast<MemRefType>(buffer.getType()).getRank();
  SmallVector<Extent> extents;
  for (int64_t d = 0; d < rank; ++d)
    extents.push_back(Extent::dimOf(ub, buffer, op.getPhysicalDim(d, rank)));
  return extents;
}

} // namespace

KernelOp mlir::mie::lowerAttentionToUKernels(AttentionOp op, SymbolTable &symbols) {
  SmallVector<int64_t> q = op.getLogicalShape(op.getQuery());
  SmallVector<int64_t> v = op.getLogicalShape(op.getValue());
  const int64_t rank = q.size(), d = q[rank - 1], dv = v[rank - 1];
  // Query heads (the last batch dim) and how many of them share a key/value head. Head-major
  // buffers with a head per key/value head need no head count (batch index = outer index x heads
  // + head addresses the same rows either way): a run-time one (the batch of a [batch, S, D]
  // attention) counts as 1.
  const bool tokenMajor = op.getTokenMajor();
  const int64_t group = op.getHeadsPerKeyValueHead();
  int64_t heads = rank >= 3 ? q[rank - 3] : 1;
  if (ShapedType::isDynamic(heads) && !tokenMajor && group == 1)
    heads = 1;
  if (ShapedType::isDynamic(d) || ShapedType::isDynamic(dv) || ShapedType::isDynamic(heads)) {
    op.emitOpError("runs the attention microkernel over a run-time head count or head width, "
                   "which its calls take as constants");
    return nullptr;
  }
  // Code for symbolic dims: a mask dim of run-time size must be the scores' dim itself (one that
  // is 1 at run time and broadcast would need a stride of 0 the code cannot choose).
  ArrayRef<int64_t> maskShape =
      op.getMask() ? cast<MemRefType>(op.getMask().getType()).getShape() : ArrayRef<int64_t>();
  for (auto [i, size] : llvm::enumerate(maskShape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    int64_t scoresDim = rank - maskShape.size() + i;
    // The scores [..., S, T]: the query's batch dims and rows, the key's rows.
    Value source = scoresDim == rank - 1 ? op.getKey() : op.getQuery();
    int64_t logical = scoresDim == rank - 1 ? rank - 2 : scoresDim;
    AffineExpr maskDim = dimExpr(op.getMask(), i),
               scores = dimExpr(source, op.getPhysicalDim(logical, rank));
    if (!maskDim || maskDim != scores) {
      op.emitOpError() << "mask dim " << i
                       << " may broadcast at run time, which code for every shape does not take "
                          "yet (give its symbols sizes: --specialize or --dim-param)";
      return nullptr;
    }
  }
  SmallVector<Value> ins = {op.getQuery(), op.getKey(), op.getValue()};
  if (op.getMask())
    ins.push_back(op.getMask());
  const std::string name = ukernelSymbol(UKernel::F32Attention, op.getUkernel()->getIsa());
  const float scale = static_cast<float>(op.getScale().convertToDouble());
  const int64_t rowsHint =
      op.getQueryRows().value_or(ShapedType::isDynamic(q[rank - 2]) ? 24 : q[rank - 2]);

  OpBuilder b(op);
  KernelOp kernel = KernelOp::create(
      b, op.getLoc(), "attention", ins, op.getOutput(),
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value qv = args[0], kv = args[1], vv = args[2], out = args.back();
        Value mask = op.getMask() ? args[3] : qv; // not read without the mask flag
        SmallVector<Extent> qx = logicalExtents(ub, op, qv), kx = logicalExtents(ub, op, kv);
        const Extent seq = qx[rank - 2], keys = kx[rank - 2];
        ArrayRef<Extent> batchDims = ArrayRef<Extent>(qx).drop_back(2);
        Extent batch{1, Value()};
        for (const Extent &size : batchDims)
          batch = batch.times(ub, size);
        // The mask's element strides on the scores' dims [batch..., S, T] (right-aligned numpy
        // broadcast: 0 where the mask has no such dim or size 1).
        SmallVector<Extent> maskStrides(rank, Extent{0, Value()});
        if (op.getMask()) {
          SmallVector<Extent> m;
          for (int64_t i = 0, e = maskShape.size(); i < e; ++i)
            m.push_back(Extent::dimOf(ub, mask, i));
          Extent stride{1, Value()};
          for (int64_t i = m.size() - 1; i >= 0; --i) {
            if (!m[i].isConstant() || m[i].constant != 1)
              maskStrides[rank - m.size() + i] = stride;
            stride = stride.times(ub, m[i]);
          }
        }
        // Rows per item: at most the sequence, a static count where the sequence is.
        Extent rowsPerItem = seq.isConstant()
                                 ? Extent{std::min<int64_t>(rowsHint, seq.constant), Value()}
                                 : Extent{rowsHint, Value()};
        Value groups = seq.isConstant()
                           ? ub.c((int64_t)llvm::divideCeil(seq.constant, rowsPerItem.constant))
                           : ub.ceilDiv(seq.value, rowsPerItem.constant);
        Value scratch =
            stackBuffer(kb, kl, mie_uk_attention_scratch_floats(d, rowsPerItem.constant));
        Value items = batch.isConstant() && seq.isConstant()
                          ? ub.c(batch.constant *
                                 (int64_t)llvm::divideCeil(seq.constant, rowsPerItem.constant))
                          : ub.mul(batch.get(ub), groups);
        parallelItems(ub, items, [&](Value item) {
          Value bi = ub.div(item, groups);
          Value r0 = ub.mul(ub.rem(item, groups), rowsPerItem.constant);
          Value rows = ub.min(ub.c(rowsPerItem.constant), ub.sub(seq.get(ub), r0));
          // The mask offset of batch index bi: its digits over the batch dims times their strides.
          Value maskOff = ub.mul(r0, maskStrides[rank - 2].get(ub));
          Value rest = bi;
          for (int64_t i = batchDims.size() - 1; i >= 0; --i) {
            if (!maskStrides[i].isConstant() || maskStrides[i].constant)
              maskOff = ub.add(maskOff,
                               ub.mul(ub.rem(rest, batchDims[i].get(ub)), maskStrides[i].get(ub)));
            rest = ub.div(rest, batchDims[i].get(ub));
          }
          int64_t flags = (op.getMask() ? MIE_UK_ATTENTION_MASK : 0) |
                          (op.getCausal() ? MIE_UK_ATTENTION_CAUSAL : 0);
          // Causal: the item's first row r0 sees the keys up to r0 + (T - S).
          Value diag = keys.isConstant() && seq.isConstant()
                           ? ub.i64(ub.add(r0, ub.c(keys.constant - seq.constant)))
                           : ub.i64(ub.add(r0, ub.sub(keys.get(ub), seq.get(ub))));
          // Batch index bi is head h of outer index bo; its keys and values are head h / group
          // of the key/value buffers.
          Value bo = ub.div(bi, heads), h = ub.rem(bi, heads), hkv = ub.div(h, group);
          // Element offset of row `row` of head `head` of bo in a buffer of `n` heads of `len`
          // rows of `width` floats, and the distance between its rows. Token-major: the heads of
          // a position share a row, so a head's rows are n rows apart and start at column
          // head * width; head-major: each head is one contiguous [len, width] block.
          auto offset = [&](int64_t n, const Extent &len, int64_t width, Value head, Value row) {
            Value base = ub.mul(bo, Extent{n * width, Value()}.times(ub, len).get(ub));
            Value start = tokenMajor
                              ? ub.add(ub.mul(head, width), ub.mul(row, n * width))
                              : ub.add(ub.mul(head, Extent{width, Value()}.times(ub, len).get(ub)),
                                       ub.mul(row, width));
            return ub.i64(ub.add(base, start));
          };
          auto ld = [&](int64_t n, int64_t width) {
            return ub.i64(tokenMajor ? n * width : width);
          };
          const int64_t kvHeads = heads / group;
          ub.call(name, {ub.ptr(qv),
                         offset(heads, seq, d, h, r0),
                         ld(heads, d),
                         ub.ptr(kv),
                         offset(kvHeads, keys, d, hkv, ub.c(0)),
                         ld(kvHeads, d),
                         ub.ptr(vv),
                         offset(kvHeads, keys, dv, hkv, ub.c(0)),
                         ld(kvHeads, dv),
                         ub.ptr(mask),
                         ub.i64(maskOff),
                         maskStrides[rank - 2].i64(ub),
                         maskStrides[rank - 1].i64(ub),
                         ub.ptr(out),
                         offset(heads, seq, dv, h, r0),
                         ld(heads, dv),
                         ub.i64(rows),
                         keys.i64(ub),
                         ub.i64(d),
                         ub.i64(dv),
                         ub.f32(scale),
                         ub.i64(flags),
                         diag,
                         ub.ptr(scratch)});
        });
      });
  op.erase();
  return kernel;
}
