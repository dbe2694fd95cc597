//===- PoolUKernelLowering.cpp - max pooling ===//
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

KernelOp mlir::mie::lowerMaxPoolToUKernels(MaxPool2dOp op, SymbolTable &symbols) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  const int64_t ch = in[1], h = in[2], wd = in[3], oh = out[2], ow = out[3];
  ArrayRef<int64_t> k = op.getKernel(), strides = op.getStrides(), pads = op.getPads(),
                    dilations = op.getDilations();
  const int64_t rowFloats =
      mie_uk_maxpool_row_floats(wd, k[1], strides[1], pads[1], dilations[1], ow);
  const int64_t perItem = channelsPerItem(ch, oh * ow);
  const int64_t chunks = llvm::divideCeil(ch, perItem);
  std::string symbol = ukernelSymbol(UKernel::F32MaxpoolNchw, op.getUkernel()->getIsa());
  OpBuilder b(op);
  KernelOp kernel = KernelOp::create(
      b, op.getLoc(), "max_pool", op.getInput(), op.getOutput(),
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value x = args[0], output = args[1];
        Value row = stackBuffer(kb, kl, rowFloats);
        parallelItems(ub, imageItems(ub, x, chunks), [&](Value item) {
          Value img = ub.div(item, chunks), c0 = ub.mul(ub.rem(item, chunks), perItem);
          Value cn = ub.min(ub.c(perItem), ub.sub(ub.c(ch), c0));
          ub.call(symbol, {ub.ptr(x), ub.i64(ub.mul(img, ch * h * wd)), ub.i64(h), ub.i64(wd),
                           ub.i64(k[0]), ub.i64(k[1]), ub.i64(strides[0]), ub.i64(strides[1]),
                           ub.i64(pads[0]), ub.i64(pads[1]), ub.i64(dilations[0]),
                           ub.i64(dilations[1]), ub.i64(oh), ub.i64(ow), ub.i64(c0), ub.i64(cn),
                           ub.ptr(output), ub.i64(ub.mul(img, ch * oh * ow)), ub.ptr(row)});
        });
      });
  op.erase();
  return kernel;
}
