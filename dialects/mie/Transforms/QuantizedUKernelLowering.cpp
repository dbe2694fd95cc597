//===- QuantizedUKernelLowering.cpp - uint8 x int8 convolutions on VNNI ===//
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

KernelOp mlir::mie::lowerQConvToUKernels(QConv2dOp op, SymbolTable &symbols) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  SmallVector<int64_t> w = op.getLogicalFilterShape();
  const int64_t n = in[0], ch = in[1], h = in[2], wd = in[3], f = out[1], oh = out[2], ow = out[3];
  const int64_t p = oh * ow, k = ch * w[2] * w[3], mr = MIE_UK_QU8_MR;
  // Work items (image, pixel block, filter block): pixel blocks of 128 pixels (4 register tiles),
  // filter blocks (of at least 128 filters) only where one image has too few pixel blocks for the
  // threads (late layers: few pixels, many filters), 8 items wanted. Without filter blocks an item
  // packs its pixels itself and uses them at once (from L2); with them, every pixel block is
  // packed once into an arena buffer first, which its filter blocks share (each packing the same
  // pixels again cost up to a third of a late 3x3 layer).
  const int64_t pb = std::min<int64_t>(llvm::alignTo(p, MIE_UK_QU8_NR), 4 * MIE_UK_QU8_NR);
  const int64_t pBlocks = llvm::divideCeil(p, pb);
  const int64_t fPanels = llvm::divideCeil(f, mr);
  const int64_t wantF =
      std::clamp<int64_t>(llvm::divideCeil(8, n * pBlocks), 1, std::max<int64_t>(1, f / 128));
  const int64_t fb = llvm::divideCeil(fPanels, wantF) * mr, fBlocks = llvm::divideCeil(f, fb);
  const bool shared = fBlocks > 1;
  const int64_t blockBytes = mie_uk_qu8_panel_bytes(k, pb);
  ArrayRef<int64_t> strides = op.getStrides(), pads = op.getPads(), dilations = op.getDilations();
  OpBuilder b(op);
  SmallVector<Value> outs = {op.getOutput()};
  if (shared)
    outs.push_back(AllocOp::create(
        b, op.getLoc(),
        MemRefType::get({n * pBlocks * (int64_t)llvm::divideCeil(blockBytes, 4)}, b.getF32Type())));
  KernelOp kernel = KernelOp::create(
      b, op.getLoc(), "qconv2d",
      ValueRange{op.getInput(), op.getFilter(), op.getBias(), op.getScale()}, outs,
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value x = args[0], filter = args[1], bias = args[2], scale = args[3], y = args[4];
        // The image's arguments up to the window (x, x_off, C, H, W, KH, KW, SH, SW, DH, DW, PT,
        // PL), both entry points take them.
        auto imageArgs = [&](Value img) {
          return SmallVector<Value>{ub.ptr(x),
                                    ub.i64(ub.mul(img, ch * h * wd)),
                                    ub.i64(ch),
                                    ub.i64(h),
                                    ub.i64(wd),
                                    ub.i64(w[2]),
                                    ub.i64(w[3]),
                                    ub.i64(strides[0]),
                                    ub.i64(strides[1]),
                                    ub.i64(dilations[0]),
                                    ub.i64(dilations[1]),
                                    ub.i64(pads[0]),
                                    ub.i64(pads[1])};
        };
        auto requantArgs = [&]() {
          return SmallVector<Value>{ub.i64(op.getOutputZeroPoint()), ub.i64(op.getOutputMin()),
                                    ub.i64(op.getOutputMax())};
        };
        Value panels = shared ? args[5] : Value();
        if (shared) {
          Value stage = stackBuffer(kb, kl, llvm::divideCeil(mie_uk_qu8_stage_bytes(k), 4));
          parallelItems(ub, n * pBlocks, [&](Value item) {
            Value img = ub.div(item, pBlocks), p0 = ub.mul(ub.rem(item, pBlocks), pb);
            SmallVector<Value> callArgs = imageArgs(img);
            callArgs.append({ub.i64(ow), ub.i64(op.getInputZeroPoint()), ub.i64(p0),
                             ub.i64(ub.min(ub.c(pb), ub.sub(ub.c(p), p0))), ub.ptr(panels),
                             ub.i64(ub.mul(item, blockBytes)), ub.ptr(stage)});
            ub.call(ukernelSymbol(UKernel::QU8PackConvVnni), callArgs);
          });
        }
        Value scratch =
            shared ? Value()
                   : stackBuffer(kb, kl, llvm::divideCeil(mie_uk_qu8_conv_scratch_bytes(k, pb), 4));
        parallelItems(ub, n * pBlocks * fBlocks, [&](Value item) {
          Value fItem = ub.rem(item, fBlocks);
          Value block = ub.div(item, fBlocks);
          Value img = ub.div(block, pBlocks), p0 = ub.mul(ub.rem(block, pBlocks), pb);
          Value np = ub.min(ub.c(pb), ub.sub(ub.c(p), p0));
          Value f0 = ub.mul(fItem, fb);
          Value fn = ub.min(ub.c(fb), ub.sub(ub.c(f), f0));
          if (shared) {
            SmallVector<Value> callArgs = {ub.ptr(panels), ub.i64(ub.mul(block, blockBytes)),
                                           ub.i64(k),      ub.i64(np),
                                           ub.ptr(filter), ub.ptr(bias),
                                           ub.ptr(scale)};
            callArgs.append(requantArgs());
            callArgs.append({ub.i64(f0), ub.i64(fn), ub.ptr(y),
                             ub.i64(ub.add(ub.mul(img, f * p), p0)), ub.i64(p)});
            ub.call(ukernelSymbol(UKernel::QU8GemmVnni), callArgs);
            return;
          }
          SmallVector<Value> callArgs = imageArgs(img);
          callArgs.append({ub.i64(oh), ub.i64(ow), ub.ptr(filter), ub.i64(f), ub.ptr(bias),
                           ub.ptr(scale), ub.i64(op.getInputZeroPoint())});
          callArgs.append(requantArgs());
          callArgs.append({ub.i64(p0), ub.i64(np), ub.i64(f0), ub.i64(fn), ub.ptr(y),
                           ub.i64(ub.mul(img, f * p)), ub.ptr(scratch)});
          ub.call(ukernelSymbol(UKernel::QU8ConvNchwVnni), callArgs);
        });
      });
  op.erase();
  return kernel;
}
