//===- WinogradUKernelLowering.cpp - Winograd convolutions ===//
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

KernelOp mlir::mie::lowerWinogradToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = op.getTiling();
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  const int64_t ch = in[1], h = in[2], wd = in[3], f = out[1], oh = out[2], ow = out[3];
  // F(m x m, 3x3): m x m output tiles, (m + 2)^2 GEMMs.
  const int64_t outTile = op.getUkernel()->getWinogradTile(), elems = (outTile + 2) * (outTile + 2);
  const int64_t th = llvm::divideCeil(oh, outTile), tw = llvm::divideCeil(ow, outTile),
                tiles = th * tw;
  const UKernel inputTransform =
                    outTile == 2 ? UKernel::F32WinogradInput2x2 : UKernel::F32WinogradInput4x4,
                outputTransform =
                    outTile == 2 ? UKernel::F32WinogradOutput2x2 : UKernel::F32WinogradOutput4x4;
  // The GEMMs: M = F filters, N = tiles, K = C, one per (image, xi).
  const int64_t k = ch, mr = t.getMr(), nr = t.getNr(), kc = std::min(t.getKc(), k), mc = t.getMc(),
                nc = t.getNc();
  const int64_t fPanels = llvm::divideCeil(f, mr), tBlocks = llvm::divideCeil(tiles, nc),
                fBlocks = llvm::divideCeil(fPanels, mc / mr);
  const int64_t fItems = t.getSharedPanels() ? fBlocks : 1;
  ArrayRef<int64_t> pads = op.getPads();
  KernelOperands operands =
      collectOperands(op.getInput(), op.getFilter(), op.getBias(), op.getResidual());
  const TileEpilogue epi =
      tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(), /*biasPerColumn=*/false);
  std::string isa = t.getIsa().str(), tile = t.getTileSymbol();

  OpBuilder b(op);
  Location loc = op.getLoc();
  // V [N][elems][C][tiles] and M [N][elems][F][tiles] live in the arena.
  Value vBuf = allocPerImage(b, loc, op.getInput(), elems * ch * tiles);
  Value mBuf = allocPerImage(b, loc, op.getInput(), elems * f * tiles);
  KernelOp kernel = KernelOp::create(
      b, loc, "conv2d_winograd", operands.ins, ValueRange{op.getOutput(), vBuf, mBuf},
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        size_t numIns = operands.ins.size();
        Value x = args[0], filter = args[1], output = args[numIns], v = args[numIns + 1],
              m = args[numIns + 2];
        Value bias = operands.bias(args, output);
        Value residual = operands.residual(args, output);
        Value plane = stackBuffer(kb, kl,
                                  outTile == 2 ? mie_uk_winograd_plane_floats(th, tw)
                                               : mie_uk_winograd4_plane_floats(th, tw));
        Value edgePanel = stackBuffer(kb, kl, kc * nr);
        // 1. Input transform, channels in chunks.
        int64_t cPer = channelsPerItem(ch, tiles);
        int64_t cChunks = llvm::divideCeil(ch, cPer);
        parallelItems(ub, imageItems(ub, x, cChunks), [&](Value item) {
          Value img = ub.div(item, cChunks), c0 = ub.mul(ub.rem(item, cChunks), cPer);
          Value cn = ub.min(ub.c(cPer), ub.sub(ub.c(ch), c0));
          ub.call(ukernelSymbol(inputTransform, isa),
                  {ub.ptr(x), ub.i64(ub.mul(img, ch * h * wd)), ub.i64(ch), ub.i64(h), ub.i64(wd),
                   ub.i64(pads[0]), ub.i64(pads[1]), ub.i64(th), ub.i64(tw), ub.i64(c0), ub.i64(cn),
                   ub.ptr(v), ub.i64(ub.mul(img, elems * ch * tiles)), ub.ptr(plane)});
        });
        // 2. The GEMMs, items (image x xi, tile block[, filter block]): V read in place (rows
        // `tiles` apart), a block's partial last panel packed; no epilogue.
        parallelItems(ub, imageItems(ub, x, elems * tBlocks * fItems), [&](Value item) {
          Value fb = ub.rem(item, fItems);
          item = ub.div(item, fItems);
          Value gemm = ub.div(item, tBlocks), t0 = ub.mul(ub.rem(item, tBlocks), nc);
          Value xi = ub.rem(gemm, elems);
          Value nt = ub.min(ub.c(nc), ub.sub(ub.c(tiles), t0));
          Value fullPanels = ub.div(nt, nr);
          Value edge = ub.sub(nt, ub.mul(fullPanels, nr));
          Value vGemm = ub.mul(gemm, ch * tiles), mGemm = ub.mul(gemm, f * tiles);
          Value uXi = ub.mul(xi, fPanels);
          Value wp = ub.ptr(filter), vp = ub.ptr(v), mp = ub.ptr(m), ep = ub.ptr(edgePanel);
          emitKBlocks(
              ub, k, kc, /*epiFlags=*/0,
              [&](Value k0, Value kcur) {
                ub.call(ukernelSymbol(UKernel::F32PackLhs, isa),
                        {vp, ub.i64(vGemm), ub.i64(tiles), ub.i64(1),
                         ub.i64(ub.add(t0, ub.mul(fullPanels, nr))), ub.i64(edge), ub.i64(k0),
                         ub.i64(kcur), ub.i64(nr), ep, ub.i64(0)});
              },
              [&](Value k0, Value kcur, Value flags) {
                auto run = [&](Value ftBegin, Value ftEnd) {
                  auto panels = [&](Value ptBegin, Value ptEnd, Value bp, bool inPlace) {
                    ub.loop(ptBegin, ptEnd, [&](Value pt) {
                      Value col = ub.add(t0, ub.mul(pt, nr));
                      Value ncur = ub.min(ub.c(nr), ub.sub(nt, ub.mul(pt, nr)));
                      Value bOff =
                          inPlace ? ub.add(ub.add(vGemm, ub.mul(k0, tiles)), col) : ub.c(0);
                      ub.loop(ftBegin, ftEnd, [&](Value ft) {
                        Value row = ub.mul(ft, mr);
                        Value mcur = ub.min(ub.c(mr), ub.sub(ub.c(f), row));
                        Value aOff = ub.mul(ub.add(ub.mul(ub.add(uXi, ft), k), k0), mr);
                        Value cOff = ub.i64(ub.add(mGemm, ub.add(ub.mul(row, tiles), col)));
                        // V read in place: prefetch the next panel (see the convolution's tiles).
                        Value tileFlags =
                            inPlace ? ub.flagsOnFirst(flags, MIE_UK_PREFETCH_NEXT_B, ft, ftBegin)
                                    : flags;
                        ub.call(tile, {wp, ub.i64(aOff), bp, ub.i64(bOff),
                                       ub.i64(inPlace ? tiles : nr), mp, cOff, ub.i64(tiles),
                                       ub.i64(kcur), ub.i64(mcur), ub.i64(ncur), tileFlags, mp,
                                       ub.i64(0), mp, cOff, ub.i64(tiles), ub.f32(0), ub.f32(0)});
                      });
                    });
                  };
                  panels(ub.c(0), fullPanels, vp, true);
                  panels(fullPanels, ub.ceilDiv(nt, nr), ep, false);
                };
                forPanelGroups(ub, fItems, fb, fBlocks, mc / mr, fPanels, run);
              });
        });
        // 3. Output transform with the epilogue, filters in chunks.
        int64_t fPer = channelsPerItem(f, tiles);
        int64_t fChunks = llvm::divideCeil(f, fPer);
        parallelItems(ub, imageItems(ub, x, fChunks), [&](Value item) {
          Value img = ub.div(item, fChunks), f0 = ub.mul(ub.rem(item, fChunks), fPer);
          Value fn = ub.min(ub.c(fPer), ub.sub(ub.c(f), f0));
          Value outOff = ub.i64(ub.mul(img, f * oh * ow));
          ub.call(ukernelSymbol(outputTransform, isa),
                  {ub.ptr(m), ub.i64(ub.mul(img, elems * f * tiles)), ub.i64(f), ub.i64(th),
                   ub.i64(tw), ub.i64(oh), ub.i64(ow), ub.i64(f0), ub.i64(fn), ub.ptr(output),
                   outOff, ub.i64(epi.flags), ub.ptr(bias), ub.i64(0), ub.ptr(residual), outOff,
                   ub.f32(epi.lo), ub.f32(epi.hi)});
        });
      });
  // The output is written only by the output transform, vector by vector after reading the
  // residual's same elements; the GEMMs' K blocks accumulate in the arena buffer M.
  allowResidualInPlace(kernel, operands, /*readBeforeWritten=*/true);
  op.erase();
  return kernel;
}
