//===- DepthwiseUKernelLowering.cpp - depthwise convolutions, NCHW and NHWC ===//
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

KernelOp mlir::mie::lowerDepthwiseToUKernels(Conv2dOp op, SymbolTable &symbols) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = cast<MemRefType>(op.getFilter().getType()).getShape();
  const int64_t ch = in[1], h = in[2], wd = in[3], oh = out[2], ow = out[3];
  ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
  const bool bf16 = cast<MemRefType>(op.getOutput().getType()).getElementType().isBF16();
  int64_t planeFloats =
      bf16 ? mie_uk_bf16_dwconv_plane_floats(h, wd, w[2], w[3], strides[0], strides[1],
                                             dilations[0], dilations[1], oh, ow)
           : mie_uk_dwconv_plane_floats(w[2], w[3], strides[0], strides[1], dilations[0],
                                        dilations[1], oh, ow);
  int64_t perItem = channelsPerItem(ch, oh * ow);
  int64_t chunks = llvm::divideCeil(ch, perItem);
  std::string symbol = ukernelSymbol(bf16 ? UKernel::BF16DwconvNchw : UKernel::F32DwconvNchw,
                                     op.getUkernel()->getIsa());
  return emitPlaneKernel(op, symbols, "dwconv", planeFloats, chunks,
                         [&](UKernelBuilder &ub, Value item, const PlaneKernelValues &v) {
                           Value img = ub.div(item, chunks),
                                 c0 = ub.mul(ub.rem(item, chunks), perItem);
                           Value cn = ub.min(ub.c(perItem), ub.sub(ub.c(ch), c0));
                           Value xOff = ub.i64(ub.mul(img, ch * h * wd)),
                                 outOff = ub.i64(ub.mul(img, ch * oh * ow));
                           SmallVector<Value> args = {ub.ptr(v.x), xOff, ub.i64(h), ub.i64(wd)};
                           llvm::append_range(args, windowArgs(ub, op, w));
                           args.append({ub.i64(oh), ub.i64(ow), ub.ptr(v.filter), ub.i64(0),
                                        ub.i64(c0), ub.i64(cn), ub.ptr(v.output), outOff});
                           v.appendEpilogue(ub, args, outOff);
                           ub.call(symbol, args);
                         });
}

/// A channels-last depthwise convolution on the NHWC kernel: items are bands of output rows of
/// one image, all channels each, so consecutive channels-last kernels (the pixel-row GEMMs around
/// it split their rows alike) leave each thread reading rows it wrote itself.
KernelOp mlir::mie::lowerChannelsLastDepthwiseToUKernels(Conv2dOp op, SymbolTable &symbols,
                                                         int64_t minItems) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = *op.getFilterShape();
  const int64_t n = in[0], h = in[1], wd = in[2], ch = in[3], oh = out[1], ow = out[2];
  // A run-time batch (code for symbolic dims) counts as one image: bands for the smallest runs.
  const int64_t images = ShapedType::isDynamic(n) ? 1 : n;
  const int64_t bandsWanted = std::clamp<int64_t>(llvm::divideCeil(minItems, images), 1, oh);
  const int64_t band = llvm::divideCeil(oh, bandsWanted), bands = llvm::divideCeil(oh, band);
  const bool bf16 = cast<MemRefType>(op.getOutput().getType()).getElementType().isBF16();
  std::string symbol = ukernelSymbol(bf16 ? UKernel::BF16DwconvNhwc : UKernel::F32DwconvNhwc,
                                     op.getUkernel()->getIsa());
  return emitPlaneKernel(
      op, symbols, "dwconv_nhwc", /*planeFloats=*/0, bands,
      [&](UKernelBuilder &ub, Value item, const PlaneKernelValues &v) {
        auto [img, oh0, ohn] = rowBand(ub, item, bands, band, oh);
        Value xOff = ub.i64(ub.mul(img, h * wd * ch)), outOff = ub.i64(ub.mul(img, oh * ow * ch));
        SmallVector<Value> args = {ub.ptr(v.x), xOff, ub.i64(h), ub.i64(wd), ub.i64(ch)};
        llvm::append_range(args, windowArgs(ub, op, w));
        args.append({ub.i64(oh), ub.i64(ow), ub.ptr(v.filter), ub.i64(0), ub.i64(oh0), ub.i64(ohn),
                     ub.i64(0), ub.i64(ch), ub.ptr(v.output), outOff});
        v.appendEpilogueArgs(ub, args, outOff); // no plane: NHWC needs none
        ub.call(symbol, args);
      });
}
