//===- AttentionUKernelLowering.cpp - fused attention ===//
//
// The loops around the microkernels, in the IR where they can be read: one scf.parallel over thread
// work items, calls with bare pointers plus element offsets (runtime/include/mie/mie_ukernel_abi.h
// is their contract; names come from the registry, ukernelSymbol).
//
//===----------------------------------------------------------------------===//

#include "UKernelLoweringHelpers.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::ukernel_lowering;

KernelOp mlir::mie::lowerAttentionToUKernels(AttentionOp op, SymbolTable &symbols) {
  SmallVector<int64_t> q = op.getLogicalShape(op.getQuery());
  SmallVector<int64_t> k = op.getLogicalShape(op.getKey());
  SmallVector<int64_t> v = op.getLogicalShape(op.getValue());
  const int64_t rank = q.size(), seq = q[rank - 2], d = q[rank - 1], keys = k[rank - 2],
                dv = v[rank - 1];
  ArrayRef<int64_t> batchDims = ArrayRef<int64_t>(q).drop_back(2);
  // Query heads (the last batch dim) and how many of them share a key/value head.
  const int64_t heads = rank >= 3 ? q[rank - 3] : 1, group = op.getHeadsPerKeyValueHead();
  const bool tokenMajor = op.getTokenMajor();
  int64_t batch = 1;
  for (int64_t size : batchDims)
    batch *= size;
  // The mask's element strides on the scores' dims [batch..., S, T] (right-aligned numpy
  // broadcast: 0 where the mask has no such dim or size 1).
  SmallVector<int64_t> maskStrides(rank, 0);
  if (Value mask = op.getMask()) {
    ArrayRef<int64_t> m = cast<MemRefType>(mask.getType()).getShape();
    int64_t stride = 1;
    for (int64_t i = m.size() - 1; i >= 0; --i) {
      if (m[i] != 1)
        maskStrides[rank - m.size() + i] = stride;
      stride *= m[i];
    }
  }
  const int64_t rowsPerItem = std::min<int64_t>(op.getQueryRows().value_or(seq), seq);
  const int64_t groups = llvm::divideCeil(seq, rowsPerItem);
  SmallVector<Value> ins = {op.getQuery(), op.getKey(), op.getValue()};
  if (op.getMask())
    ins.push_back(op.getMask());
  const std::string name = ukernelSymbol(UKernel::F32Attention, op.getUkernel()->getIsa());
  const float scale = static_cast<float>(op.getScale().convertToDouble());

  OpBuilder b(op);
  KernelOp kernel = KernelOp::create(
      b, op.getLoc(), "attention", ins, op.getOutput(),
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value qv = args[0], kv = args[1], vv = args[2], out = args.back();
        Value mask = op.getMask() ? args[3] : qv; // not read without the mask flag
        Value scratch = stackBuffer(kb, kl, mie_uk_attention_scratch_floats(d, rowsPerItem));
        parallelItems(ub, batch * groups, [&](Value item) {
          Value bi = ub.div(item, groups);
          Value r0 = ub.mul(ub.rem(item, groups), rowsPerItem);
          Value rows = ub.min(ub.c(rowsPerItem), ub.sub(ub.c(seq), r0));
          // The mask offset of batch index bi: its digits over the batch dims times their strides.
          Value maskOff = ub.mul(r0, maskStrides[rank - 2]);
          Value rest = bi;
          for (int64_t i = batchDims.size() - 1; i >= 0; --i) {
            if (maskStrides[i])
              maskOff = ub.add(maskOff, ub.mul(ub.rem(rest, batchDims[i]), maskStrides[i]));
            rest = ub.div(rest, batchDims[i]);
          }
          int64_t flags = (op.getMask() ? MIE_UK_ATTENTION_MASK : 0) |
                          (op.getCausal() ? MIE_UK_ATTENTION_CAUSAL : 0);
          // Causal: the item's first row r0 sees the keys up to r0 + (T - S).
          Value diag = ub.i64(ub.add(r0, ub.c(keys - seq)));
          // Batch index bi is head h of outer index bo; its keys and values are head h / group
          // of the key/value buffers.
          Value bo = ub.div(bi, heads), h = ub.rem(bi, heads), hkv = ub.div(h, group);
          // Element offset of row `row` of head `head` of bo in a buffer of `n` heads of `len`
          // rows of `width` floats, and the distance between its rows. Token-major: the heads of
          // a position share a row, so a head's rows are n rows apart and start at column
          // head * width; head-major: each head is one contiguous [len, width] block.
          auto offset = [&](int64_t n, int64_t len, int64_t width, Value head, Value row) {
            Value base = ub.mul(bo, n * len * width);
            Value start = tokenMajor ? ub.add(ub.mul(head, width), ub.mul(row, n * width))
                                     : ub.add(ub.mul(head, len * width), ub.mul(row, width));
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
                         ub.i64(maskStrides[rank - 2]),
                         ub.i64(maskStrides[rank - 1]),
                         ub.ptr(out),
                         offset(heads, seq, dv, h, r0),
                         ld(heads, dv),
                         ub.i64(rows),
                         ub.i64(keys),
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
