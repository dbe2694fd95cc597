//===- ConvUKernelLowering.cpp - NCHW convolutions: implicit GEMM and direct ===//
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

KernelOp mlir::mie::lowerConv2dToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = op.getTiling();
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = *op.getFilterShape();
  const int64_t n = in[0], ch = in[1], f = out[1], p = out[2] * out[3], k = ch * w[2] * w[3];
  const int64_t mr = t.getMr(), nr = t.getNr(), kc = std::min(t.getKc(), k), mc = t.getMc(),
                nc = t.getNc();
  // 1x1, stride 1, no padding: the image [C, P] already is the K x N operand, read in place.
  const bool direct = isPointwiseWindow(op, w);
  // Shared panels split filters over items; the direct form shares the image itself.
  const bool shared = t.getSharedPanels() && !direct;
  const int64_t fPanels = llvm::divideCeil(f, mr), pPanels = llvm::divideCeil(p, nr),
                pBlocks = llvm::divideCeil(p, nc), fBlocks = llvm::divideCeil(fPanels, mc / mr);
  KernelOperands operands =
      collectOperands(op.getInput(), op.getFilter(), op.getBias(), op.getResidual());
  const TileEpilogue epi =
      tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(), /*biasPerColumn=*/false);
  std::string isa = t.getIsa().str(), tile = t.getTileSymbol();
  // The f16 tiles' panels take half an f32 word an element (buffers are sized in f32 words).
  auto words = [&](int64_t elements) {
    return isa == "neon_f16" ? (int64_t)llvm::divideCeil(elements, 2) : elements;
  };

  OpBuilder b(op);
  SmallVector<Value> outs = {op.getOutput()};
  // Shared panels live in the arena: every pixel panel of every image, all of K.
  if (shared && ShapedType::isDynamic(n))
    outs.push_back(allocPerImage(b, op.getLoc(), op.getInput(), words(pPanels * k * nr)));
  else if (shared)
    outs.push_back(AllocOp::create(b, op.getLoc(),
                                   MemRefType::get({words(n * pPanels * k * nr)}, b.getF32Type())));
  KernelOp kernel = KernelOp::create(
      b, op.getLoc(), "conv2d", operands.ins, outs,
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value x = args[0], filter = args[1], output = args[operands.ins.size()];
        Value bias = operands.bias(args, output);
        Value residual = operands.residual(args, output);
        // Per-item packing: one thread's pixel panels for one K block, sunk into each thread's
        // body.
        Value scratch = shared ? args.back() : stackBuffer(kb, kl, words(nc * kc));
        auto pack = [&](Value img, Value p0, Value np, Value k0, Value kcur, Value dstOff) {
          packConvPanels(ub, op, w, isa, x, img, p0, np, k0, kcur, nr, scratch, dstOff);
        };
        // Tiles of filter panels [ftBegin, ftEnd) x pixel panels [ptBegin, ptEnd) of the block
        // starting at p0 (np pixels); `bOffset(pt, k0, kcur)` locates pixel panel pt's K block in
        // `bBase`, whose rows are `ldb` apart. Pixel panels outside (each stays in L1), filter
        // panels inside (streamed from L2).
        auto tiles = [&](Value img, Value ftBegin, Value ftEnd, Value p0, Value np, Value ptBegin,
                         Value ptEnd, Value k0, Value kcur, Value flags, Value bBase, int64_t ldb,
                         function_ref<Value(Value, Value, Value)> bOffset) {
          Value wp = ub.ptr(filter), outp = ub.ptr(output), sp = ub.ptr(bBase), bp = ub.ptr(bias),
                rp = ub.ptr(residual);
          Value outImg = ub.mul(img, f * p);
          ub.loop(ptBegin, ptEnd, [&](Value pt) {
            Value ncur = ub.min(ub.c(nr), ub.sub(np, ub.mul(pt, nr)));
            Value bOff = ub.i64(bOffset(pt, k0, kcur));
            ub.loop(ftBegin, ftEnd, [&](Value ft) {
              Value row = ub.mul(ft, mr);
              Value mcur = ub.min(ub.c(mr), ub.sub(ub.c(f), row));
              Value aOff = ub.mul(ub.add(ub.mul(ft, k), k0), mr);
              Value cOff =
                  ub.i64(ub.add(ub.add(outImg, ub.mul(row, p)), ub.add(p0, ub.mul(pt, nr))));
              // A panel read in place (rows P apart): the first filter tile on it fetches the
              // next panel's rows while the rest of the filters reuse this one.
              Value tileFlags =
                  ldb == nr ? flags : ub.flagsOnFirst(flags, MIE_UK_PREFETCH_NEXT_B, ft, ftBegin);
              ub.call(tile, {wp, ub.i64(aOff), sp, bOff, ub.i64(ldb), outp, cOff, ub.i64(p),
                             ub.i64(kcur), ub.i64(mcur), ub.i64(ncur), tileFlags, bp, ub.i64(row),
                             rp, cOff, ub.i64(p), ub.f32(epi.lo), ub.f32(epi.hi)});
            });
          });
        };

        if (direct) {
          // Full pixel panels read the image in place (rows P apart); only a block's partial last
          // panel is packed, so no load runs past the image. Items are (image, pixel block) and run
          // every filter, or (image, pixel block, filter block) when the tiling shares panels.
          const int64_t fItems = t.getSharedPanels() ? fBlocks : 1;
          parallelItems(ub, imageItems(ub, x, pBlocks * fItems), [&](Value item) {
            Value fb = ub.rem(item, fItems);
            item = ub.div(item, fItems);
            Value img = ub.div(item, pBlocks), p0 = ub.mul(ub.rem(item, pBlocks), nc);
            Value np = ub.min(ub.c(nc), ub.sub(ub.c(p), p0));
            Value fullPanels = ub.div(np, nr);
            Value edge = ub.sub(np, ub.mul(fullPanels, nr));
            Value xImg = ub.mul(img, ch * p);
            emitKBlocks(
                ub, k, kc, epi.flags,
                [&](Value k0, Value kcur) {
                  pack(img, ub.add(p0, ub.mul(fullPanels, nr)), edge, k0, kcur, ub.c(0));
                },
                [&](Value k0, Value kcur, Value flags) {
                  forPanelGroups(
                      ub, fItems, fb, fBlocks, mc / mr, fPanels, [&](Value ftBegin, Value ftEnd) {
                        tiles(img, ftBegin, ftEnd, p0, np, ub.c(0), fullPanels, k0, kcur, flags, x,
                              p, [&](Value pt, Value k0_, Value) {
                                return ub.add(ub.add(xImg, ub.mul(k0_, p)),
                                              ub.add(p0, ub.mul(pt, nr)));
                              });
                        tiles(img, ftBegin, ftEnd, p0, np, fullPanels, ub.ceilDiv(np, nr), k0, kcur,
                              flags, scratch, nr, [&](Value, Value, Value) { return ub.c(0); });
                      });
                });
          });
          return;
        }
        if (!shared) {
          // Items: (image, pixel block); all filters run on the block's panels, in L2-sized groups.
          parallelItems(ub, imageItems(ub, x, pBlocks), [&](Value item) {
            Value img = ub.div(item, pBlocks), p0 = ub.mul(ub.rem(item, pBlocks), nc);
            Value np = ub.min(ub.c(nc), ub.sub(ub.c(p), p0));
            emitKBlocks(
                ub, k, kc, epi.flags,
                [&](Value k0, Value kcur) { pack(img, p0, np, k0, kcur, ub.c(0)); },
                [&](Value k0, Value kcur, Value flags) {
                  forPanelGroups(
                      ub, 1, Value(), fBlocks, mc / mr, fPanels, [&](Value ftBegin, Value ftEnd) {
                        tiles(img, ftBegin, ftEnd, p0, np, ub.c(0), ub.ceilDiv(np, nr), k0, kcur,
                              flags, scratch, nr, [&](Value pt, Value, Value kc_) {
                                return ub.mul(ub.mul(pt, kc_), nr);
                              });
                      });
                });
          });
          return;
        }
        // Shared: first every (image, pixel panel) is packed over all of K, then the items
        // (image, pixel block, filter block) only compute.
        parallelItems(ub, imageItems(ub, x, pPanels), [&](Value item) {
          Value img = ub.div(item, pPanels), p0 = ub.mul(ub.rem(item, pPanels), nr);
          Value np = ub.min(ub.c(nr), ub.sub(ub.c(p), p0));
          pack(img, p0, np, ub.c(0), ub.c(k), ub.mul(item, k * nr));
        });
        parallelItems(ub, imageItems(ub, x, pBlocks * fBlocks), [&](Value item) {
          Value img = ub.div(item, pBlocks * fBlocks);
          Value rest = ub.rem(item, pBlocks * fBlocks);
          Value pb = ub.div(rest, fBlocks), fb = ub.rem(rest, fBlocks);
          Value p0 = ub.mul(pb, nc);
          Value np = ub.min(ub.c(nc), ub.sub(ub.c(p), p0));
          Value ftBegin, ftEnd;
          std::tie(ftBegin, ftEnd) = panelGroup(ub, fb, mc / mr, fPanels);
          Value firstPanel = ub.add(ub.mul(img, pPanels), ub.mul(pb, nc / nr));
          emitKBlocks(
              ub, k, kc, epi.flags, [&](Value, Value) {},
              [&](Value k0, Value kcur, Value flags) {
                tiles(img, ftBegin, ftEnd, p0, np, ub.c(0), ub.ceilDiv(np, nr), k0, kcur, flags,
                      scratch, nr, [&](Value pt, Value k0_, Value) {
                        return ub.mul(ub.add(ub.mul(ub.add(firstPanel, pt), k), k0_), nr);
                      });
              });
        });
      });
  allowResidualInPlace(kernel, operands, /*readBeforeWritten=*/kc >= k);
  op.erase();
  return kernel;
}

KernelOp mlir::mie::lowerDirectConvToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = op.getTiling();
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = *op.getFilterShape();
  const int64_t ch = in[1], h = in[2], wd = in[3], f = out[1], oh = out[2], ow = out[3];
  ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
  // A work item is a band of output rows of one image: nc pixels, whole rows of whole tiles.
  const int64_t band = std::clamp<int64_t>(t.getNc() / llvm::alignTo(ow, t.getNr()), 1, oh),
                bands = llvm::divideCeil(oh, band);
  const int64_t planeFloats = mie_uk_conv_direct_plane_floats(
      ch, w[2], w[3], strides[0], strides[1], dilations[0], dilations[1], ow, t.getNr(), band);
  std::string symbol = ukernelSymbol(UKernel::F32ConvDirectNchw, t.getIsa(), t.getMr(), t.getNr());
  return emitPlaneKernel(
      op, symbols, "conv2d_direct", planeFloats, bands,
      [&](UKernelBuilder &ub, Value item, const PlaneKernelValues &v) {
        auto [img, oh0, ohn] = rowBand(ub, item, bands, band, oh);
        Value xOff = ub.i64(ub.mul(img, ch * h * wd)), outOff = ub.i64(ub.mul(img, f * oh * ow));
        SmallVector<Value> args = {ub.ptr(v.x), xOff, ub.i64(ch), ub.i64(h), ub.i64(wd)};
        llvm::append_range(args, windowArgs(ub, op, w));
        args.append({ub.i64(oh), ub.i64(ow), ub.i64(f), ub.ptr(v.filter), ub.i64(0), ub.i64(oh0),
                     ub.i64(ohn), ub.ptr(v.output), outOff});
        v.appendEpilogue(ub, args, outOff);
        ub.call(symbol, args);
      });
}
