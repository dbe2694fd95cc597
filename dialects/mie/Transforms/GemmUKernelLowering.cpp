//===- GemmUKernelLowering.cpp - GEMMs and row products (f32, f16, AMX bf16) ===//
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

namespace {

/// A product whose rows (M, the broadcast side) are an activation packed at run time into row
/// panels and whose columns are a constant weight packed as RHS panels [ceil(N / nr)][K][nr]:
/// `batch` independent copies (images), C of copy `img` at `img * cBatch` in the output. `m` may
/// be dynamic (code for symbolic dims): the rows are then the output's dim `rowsDim` at run time
/// (2-D products only), and `ldc` with C transposed must be static. So may `batch` (the images of
/// a convolution: the output's and the activation's dim 0), with static rows.
struct RowsProduct {
  int64_t batch, m, n, k, cBatch, ldc;
  int64_t rowsDim = 0;
  bool transposeC; // C(i, j) at [j * ldc + i] (MIE_UK_TRANSPOSE_C)
  TilingAttr tiling;
  TileEpilogue epi;
  /// The AMX tiles (the "amx" tiling): bf16 panels, `k` all of K rounded up to 32 (the packing
  /// reads the real K and fills the rest with zeros), no B row stride; `tile` names the tile
  /// (f32 or bf16 C). Otherwise the f32 tiles of the tiling's ISA.
  bool amx = false;
  std::string tile;
  /// The f16 tiles (the "neon_f16" tiling): f16 panels, otherwise as the f32 tiles (`k` is all of
  /// K: the tiling has one K block).
  bool f16 = false;

  /// The most rows over the symbols' ranges where they are known at run time only (0: unknown).
  int64_t mostRows = 0;

  /// Bytes of one packed element, and the f32 words a buffer of `elements` of them takes.
  int64_t elementBytes() const { return amx || f16 ? 2 : 4; }
  int64_t words(int64_t elements) const { return llvm::divideCeil(elements * elementBytes(), 4); }
};

/// Run-time rows share row panels of at most this many bytes (rounded to whole row blocks): a
/// run of more rows goes through them in chunks, so that the arena of a large run holds no more
/// panels than a static package's (which packs them per item beyond kSharedPanelsBudget of
/// mie-select-kernels; bert_tiny's 3072 x 512 panels were 0.67x of its 8 x 384 run's lower bound).
constexpr int64_t kRunTimeSharedPanelsBytes = 1024 * 1024;

/// The row blocks of a chunk of shared row panels (at least one; the tiling's row blocks, or as
/// many of the few-rows tile's, which are smaller), or 0 where every run's rows fit one chunk (or
/// the rows are not known at run time only, or their range is unknown).
int64_t sharedChunkBlocks(const RowsProduct &g) {
  TilingAttr t = g.tiling;
  if (!ShapedType::isDynamic(g.m) || g.batch != 1 || !t.getSharedPanels())
    return 0;
  const int64_t blocks =
      std::max<int64_t>(1, kRunTimeSharedPanelsBytes / (g.k * g.elementBytes()) / t.getMc());
  return g.mostRows > blocks * t.getMc() ? blocks : 0;
}

/// The kernel body of a RowsProduct: with shared panels, every (image, row panel) packed over all
/// of K first; then items (image, column block, row block), each packing its row block per K block
/// unless shared. `pack(img, m0, mcur, k0, kcur, scratch, dstOff, mr)` writes row panels
/// [ceil(mcur / mr)][kcur][mr] of rows [m0, m0 + mcur) at `dstOff` of `scratch`.
///
/// Where the rows are known at run time only and the tiling has a `few_rows_mr` tile, the run
/// takes the one of the two tiles that pads its rows less (the first on a tie): the selection
/// paired them so that the second has no more FMAs per load, and the buffer of shared panels is
/// sized for the fewer padded rows. One loop nest serves both: mr and the row blocks are values
/// chosen once, and each tile call goes to the chosen microkernel.
using PackRows = function_ref<void(Value img, Value m0, Value mcur, Value k0, Value kcur,
                                   Value scratch, Value dstOff, const Extent &mr)>;
void emitRowsProduct(UKernelBuilder &ub, const RowsProduct &g, Value weights, Value output,
                     Value bias, Value residual, Value sharedPanels, PackRows pack) {
  TilingAttr t = g.tiling;
  const int64_t n = g.n, k = g.k;
  const int64_t nr = t.getNr(), kc = std::min(t.getKc(), k), nc = t.getNc();
  const int64_t nPanels = llvm::divideCeil(n, nr), nBlocks = llvm::divideCeil(nPanels, nc / nr);
  // The rows, their panels and blocks: constants, or computed from the run's rows.
  const bool dynamicRows = ShapedType::isDynamic(g.m);
  Value allRows =
      dynamicRows ? (Value)memref::DimOp::create(ub.b, ub.loc, output, g.rowsDim) : ub.c(g.m);
  // The register tile: the tiling's, or the few-rows one where it pads the run's rows less.
  TilingAttr few = dynamicRows ? t.getFewRowsTiling() : TilingAttr();
  Extent mr{t.getMr(), Value()}, mc{t.getMc(), Value()};
  // 1 where the run takes the few-rows tile, else 0: an index, which the parallel loops'
  // bodies can take as an argument (mie-parallelize-loops captures index values and buffers).
  Value fewIndex;
  if (few) {
    auto padded = [&](int64_t rows) { return ub.mul(ub.ceilDiv(allRows, rows), rows); };
    Value takeFew = arith::CmpIOp::create(ub.b, ub.loc, arith::CmpIPredicate::ult,
                                          padded(few.getMr()), padded(t.getMr()));
    auto pick = [&](int64_t a, int64_t b) {
      return arith::SelectOp::create(ub.b, ub.loc, takeFew, ub.c(a), ub.c(b)).getResult();
    };
    fewIndex = pick(1, 0);
    mr = Extent{0, pick(few.getMr(), t.getMr())};
    mc = Extent{0, pick(few.getMc(), t.getMc())};
  }
  // Emits `emit(mr)` with the chosen tile's mr a constant: under a branch on the run's tile
  // where there are two (the microkernel calls, and the packing, whose convolution form lays
  // out panels of a constant width).
  auto onChosenTile = [&](function_ref<void(const Extent &)> emit) {
    if (!few)
      return emit(mr);
    auto ifOp = scf::IfOp::create(
        ub.b, ub.loc,
        arith::CmpIOp::create(ub.b, ub.loc, arith::CmpIPredicate::ne, fewIndex, ub.c(0)),
        /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(ub.b);
    ub.b.setInsertionPointToStart(ifOp.thenBlock());
    emit(Extent{few.getMr(), Value()});
    ub.b.setInsertionPointToStart(ifOp.elseBlock());
    emit(Extent{t.getMr(), Value()});
  };
  const std::string tile = g.tile.empty() ? t.getTileSymbol() : g.tile;
  // Rows [rowBase, rowBase + m) (rowBase null: all of them, from row 0).
  auto rowsFrom = [&](Value rowBase, Value m) {
    // The images: a constant, or the run's batch (the output's dim 0: code for symbolic dims).
    const bool dynamicBatch = ShapedType::isDynamic(g.batch);
    Value images = dynamicBatch ? (Value)memref::DimOp::create(ub.b, ub.loc, output, 0) : Value();
    // ceil(rows / per) x times, of one image or of all.
    auto countOf = [&](const Extent &per, int64_t times, bool allImages = false) -> Value {
      const int64_t imgs = allImages && !dynamicBatch ? g.batch : 1;
      Value count = dynamicRows ? ub.mul(per.divideCeil(ub, m), times * imgs)
                                : ub.c((int64_t)llvm::divideCeil(g.m, per.constant) * times * imgs);
      return allImages && dynamicBatch ? ub.mul(count, images) : count;
    };
    Value mPanels = countOf(mr, 1), mBlocks = countOf(mc, 1);
    Value imageItems = countOf(mc, nBlocks);
    Value scratch =
        sharedPanels ? sharedPanels : stackBuffer(ub.b, ub.loc, g.words(mc.constant * kc));
    // Tiles of row block [m0, m0 + mBlock) x column panels [ntBegin, ntEnd); `aOffset(mt, k0,
    // kcur)` locates row panel mt's K block in the scratch. Weight panels outside (each stays in
    // L1), row panels inside (from L2).
    auto tiles = [&](Value img, Value m0, Value mBlock, Value ntBegin, Value ntEnd, Value k0,
                     Value kcur, Value flags, function_ref<Value(Value, Value, Value)> aOffset) {
      Value bp = ub.ptr(weights), outp = ub.ptr(output), sp = ub.ptr(scratch), biasp = ub.ptr(bias),
            rp = ub.ptr(residual);
      Value cImg = ub.mul(img, g.cBatch);
      ub.loop(ntBegin, ntEnd, [&](Value nt) {
        Value col = ub.mul(nt, nr);
        // A constant where every column panel is full: the microkernel's partial-column code
        // then folds away after inlining (the column loop's bounds are run-time values with
        // dynamic rows, so LLVM cannot see it; that code was most of a dynamic package's tiles).
        Value ncur = n % nr == 0 ? ub.c(nr) : ub.min(ub.c(nr), ub.sub(ub.c(n), col));
        Value bOff = ub.mul(ub.add(ub.mul(nt, k), k0), nr);
        ub.loop(ub.c(0), mr.divideCeil(ub, mBlock), [&](Value mt) {
          Value row = ub.add(m0, mr.scale(ub, mt));
          Value mcur = ub.min(mr.get(ub), ub.sub(m, row));
          Value at = rowBase ? ub.add(rowBase, row) : row; // the row in A and C
          Value cOff = ub.i64(ub.add(cImg, g.transposeC ? ub.add(ub.mul(col, g.ldc), at)
                                                        : ub.add(ub.mul(at, g.ldc), col)));
          Value tileFlags =
              g.transposeC ? arith::OrIOp::create(ub.b, ub.loc, flags, ub.i64(MIE_UK_TRANSPOSE_C))
                           : flags;
          SmallVector<Value> args = {sp, ub.i64(aOffset(mt, k0, kcur)), bp, ub.i64(bOff)};
          if (!g.amx) // the AMX panels have no row stride
            args.push_back(ub.i64(nr));
          args.append({outp, cOff, ub.i64(g.ldc), ub.i64(kcur), ub.i64(mcur), ub.i64(ncur),
                       tileFlags, biasp, ub.i64(col), rp, cOff, ub.i64(g.ldc), ub.f32(g.epi.lo),
                       ub.f32(g.epi.hi)});
          onChosenTile([&](const Extent &chosen) {
            ub.call(few && chosen.constant == few.getMr() ? few.getTileSymbol() : tile, args);
          });
        });
      });
    };
    if (sharedPanels) {
      parallelItems(ub, countOf(mr, 1, /*allImages=*/true), [&](Value item) {
        Value img = g.batch == 1 ? ub.c(0) : ub.div(item, mPanels);
        Value m0 = mr.scale(ub, g.batch == 1 ? item : ub.rem(item, mPanels));
        Value rows = ub.min(mr.get(ub), ub.sub(m, m0));
        Value dstOff =
            mr.isConstant() ? ub.mul(item, k * mr.constant) : ub.mul(ub.mul(item, k), mr.value);
        onChosenTile([&](const Extent &chosen) {
          pack(img, rowBase ? ub.add(rowBase, m0) : m0, rows, ub.c(0), ub.c(k), scratch, dstOff,
               chosen);
        });
      });
    }
    // Items column block major: the row blocks of one column block are neighbours, so the weight
    // panels they all stream are read from DRAM once and then from cache (by the same thread, or
    // by another one at about the same time), not once per row block.
    parallelItems(ub, countOf(mc, nBlocks, /*allImages=*/true), [&](Value item) {
      Value img = g.batch == 1 ? ub.c(0) : ub.div(item, imageItems);
      Value rest = g.batch == 1 ? item : ub.rem(item, imageItems);
      Value nb = ub.div(rest, mBlocks);
      Value mb = ub.rem(rest, mBlocks);
      Value m0 = mc.scale(ub, mb);
      Value mBlock = ub.min(mc.get(ub), ub.sub(m, m0));
      Value ntBegin = ub.mul(nb, nc / nr);
      Value ntEnd = ub.min(ub.add(ntBegin, ub.c(nc / nr)), ub.c(nPanels));
      emitKBlocks(
          ub, k, kc, g.epi.flags,
          [&](Value k0, Value kcur) {
            if (!sharedPanels)
              pack(img, rowBase ? ub.add(rowBase, m0) : m0, mBlock, k0, kcur, scratch, ub.c(0), mr);
          },
          [&](Value k0, Value kcur, Value flags) {
            tiles(img, m0, mBlock, ntBegin, ntEnd, k0, kcur, flags,
                  [&](Value mt, Value k0_, Value kc_) {
                    if (sharedPanels) // panels of all images and rows, all of K
                      return mr.scale(
                          ub,
                          ub.add(ub.mul(ub.add(ub.add(ub.mul(img, mPanels), ub.div(m0, mr.get(ub))),
                                               mt),
                                        k),
                                 k0_));
                    return mr.scale(ub, ub.mul(mt, kc_));
                  });
          });
    });
  };
  // Shared panels of at most a chunk of row blocks (code for symbolic dims): the runs of more
  // rows go through them a chunk at a time, each packed and then multiplied.
  const int64_t chunkBlocks = sharedPanels ? sharedChunkBlocks(g) : 0;
  if (!chunkBlocks)
    return rowsFrom(Value(), allRows);
  const Extent chunkRows = mc.isConstant() ? Extent{chunkBlocks * mc.constant, Value()}
                                           : Extent{0, ub.mul(mc.value, chunkBlocks)};
  auto chunks =
      scf::ForOp::create(ub.b, ub.loc, ub.c(0), chunkRows.divideCeil(ub, allRows), ub.c(1));
  chunks->setAttr(MieDialect::getParallelStagesAttrName(), ub.b.getUnitAttr());
  OpBuilder::InsertionGuard guard(ub.b);
  ub.b.setInsertionPointToStart(chunks.getBody());
  Value rowBase = chunkRows.scale(ub, chunks.getInductionVar());
  rowsFrom(rowBase, ub.min(chunkRows.get(ub), ub.sub(allRows, rowBase)));
}

/// Replaces `op` by one `mie.kernel name` computing `g` (emitRowsProduct) over `operands` (the
/// activation first, then the packed weights, bias, residual) into `output`, the row panels in an
/// arena buffer when the tiling shares them; `pack(ub, activation, ...)` packs row panels.
using PackRowsOf =
    function_ref<void(UKernelBuilder &ub, Value activation, Value img, Value m0, Value mcur,
                      Value k0, Value kcur, Value scratch, Value dstOff, const Extent &mr)>;
KernelOp emitRowsProductKernel(Operation *op, StringRef name, const RowsProduct &product,
                               const KernelOperands &operands, Value output, SymbolTable &symbols,
                               PackRowsOf pack) {
  TilingAttr t = product.tiling;
  RowsProduct g = product;
  if (ShapedType::isDynamic(g.m))
    if (std::optional<std::pair<int64_t, int64_t>> rows = dimBounds(output, g.rowsDim))
      g.mostRows = rows->second;
  OpBuilder b(op);
  SmallVector<Value> outs = {output};
  if (t.getSharedPanels() && ShapedType::isDynamic(g.batch)) {
    // Every image's row panels: the activation's dim 0 is the run's batch.
    outs.push_back(
        allocPerImage(b, op->getLoc(), operands.ins[0],
                      g.words((int64_t)llvm::divideCeil(g.m, t.getMr()) * g.k * t.getMr())));
  } else if (t.getSharedPanels() && ShapedType::isDynamic(g.m)) {
    // Sized for the run's rows: ceil(rows / mr) panels of K x mr packed elements per image, on
    // the tile that pads them less (emitRowsProduct), at most a chunk's (sharedChunkBlocks).
    AffineExpr rows = getAffineDimExpr(0, b.getContext());
    SmallVector<AffineExpr> words;
    for (TilingAttr tile : {t, t.getFewRowsTiling()})
      if (tile)
        words.push_back(
            (rows.ceilDiv(tile.getMr()) * (g.batch * g.k * tile.getMr() * g.elementBytes()))
                .ceilDiv(4));
    if (int64_t blocks = sharedChunkBlocks(g))
      words.push_back(getAffineConstantExpr(g.words(blocks * t.getMc() * g.k), b.getContext()));
    outs.push_back(allocWordsOf(b, op->getLoc(), output, g.rowsDim, words));
  } else if (t.getSharedPanels()) {
    outs.push_back(AllocOp::create(
        b, op->getLoc(),
        MemRefType::get(
            {g.words(g.batch * (int64_t)llvm::divideCeil(g.m, t.getMr()) * g.k * t.getMr())},
            b.getF32Type())));
  }
  KernelOp kernel = KernelOp::create(
      b, op->getLoc(), name, operands.ins, outs, [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value out = args[operands.ins.size()];
        emitRowsProduct(ub, g, args[1], out, operands.bias(args, out), operands.residual(args, out),
                        t.getSharedPanels() ? args.back() : Value(),
                        [&](Value img, Value m0, Value mcur, Value k0, Value kcur, Value scratch,
                            Value dstOff, const Extent &mr) {
                          pack(ub, args[0], img, m0, mcur, k0, kcur, scratch, dstOff, mr);
                        });
      });
  allowResidualInPlace(kernel, operands, /*readBeforeWritten=*/t.getKc() >= g.k);
  op->erase();
  return kernel;
}

} // namespace

KernelOp mlir::mie::lowerGemmToUKernels(GemmOp op, SymbolTable &symbols) {
  TilingAttr t = op.getTiling();
  ArrayRef<int64_t> a = cast<MemRefType>(op.getA().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  const bool ta = op.getTransA(), tc = op.getTransC();
  // With trans_c the output is the product transposed: tiles store with MIE_UK_TRANSPOSE_C.
  const int64_t m = tc ? out[1] : out[0], n = tc ? out[0] : out[1], k = ta ? a[0] : a[1],
                lda = a[1];
  KernelOperands operands = collectOperands(op.getA(), op.getB(), op.getBias(), op.getResidual());
  RowsProduct g{1,
                m,
                n,
                k,
                0,
                tc ? m : n,
                /*rowsDim=*/tc ? 1 : 0,
                tc,
                t,
                tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(),
                             /*biasPerColumn=*/true),
                /*amx=*/false,
                /*tile=*/""};
  std::string isa = t.getIsa().str();
  if (isa == "amx") {
    // bf16 rows packed into the AMX A panels over the real K; the tiles run all of K rounded up.
    const bool bf16 = cast<MemRefType>(op.getOutput().getType()).getElementType().isBF16();
    g.amx = true;
    g.k = t.getKc();
    g.tile = ukernelSymbol(bf16 ? UKernel::BF16GemmAmxBF16C : UKernel::BF16GemmAmx);
    const std::string packA =
        ukernelSymbol(bf16 ? UKernel::BF16PackAAmxBF16 : UKernel::BF16PackAAmx);
    return emitRowsProductKernel(
        op, "gemm", g, operands, op.getOutput(), symbols,
        [&](UKernelBuilder &ub, Value av, Value, Value m0, Value mcur, Value, Value, Value scratch,
            Value dstOff, const Extent &) {
          ub.call(packA, {ub.ptr(av), ub.i64(0), ub.i64(lda), ub.i64(ta ? 1 : 0), ub.i64(m0),
                          ub.i64(mcur), ub.i64(0), ub.i64(k), ub.ptr(scratch), ub.i64(dstOff)});
        });
  }
  // The f16 tiles pack f16 rows the f32 way.
  g.f16 = isa == "neon_f16";
  return emitRowsProductKernel(
      op, "gemm", g, operands, op.getOutput(), symbols,
      [&](UKernelBuilder &ub, Value av, Value, Value m0, Value mcur, Value k0, Value kcur,
          Value scratch, Value dstOff, const Extent &mr) {
        ub.call(g.f16 ? ukernelSymbol(UKernel::F16PackLhs, "neon")
                      : ukernelSymbol(UKernel::F32PackLhs, isa),
                {ub.ptr(av), ub.i64(0), ub.i64(lda), ub.i64(ta ? 1 : 0), ub.i64(m0), ub.i64(mcur),
                 ub.i64(k0), ub.i64(kcur), mr.i64(ub), ub.ptr(scratch), ub.i64(dstOff)});
      });
}

KernelOp mlir::mie::lowerPixelRowsConvToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = op.getTiling();
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = *op.getFilterShape();
  const int64_t batch = in[0], f = out[1], p = out[2] * out[3];
  const int64_t k = in[1] * w[2] * w[3];
  KernelOperands operands =
      collectOperands(op.getInput(), op.getFilter(), op.getBias(), op.getResidual());
  // out^T[P, F] per image: rows are pixels, columns filters, stored transposed into [F, P].
  const RowsProduct g{batch,
                      p,
                      f,
                      k,
                      f * p,
                      p,
                      /*rowsDim=*/0,
                      /*transposeC=*/true,
                      t,
                      tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(),
                                   /*biasPerColumn=*/true),
                      /*amx=*/false,
                      /*tile=*/""};
  std::string isa = t.getIsa().str();
  // The pixel panels of the implicit GEMM are its row panels when their width is mr.
  return emitRowsProductKernel(
      op, "conv2d", g, operands, op.getOutput(), symbols,
      [&](UKernelBuilder &ub, Value x, Value img, Value m0, Value mcur, Value k0, Value kcur,
          Value scratch, Value dstOff, const Extent &mr) {
        packConvPanels(ub, op, w, isa, x, img, m0, mcur, k0, kcur, mr.constant, scratch, dstOff);
      });
}

KernelOp mlir::mie::lowerAmxConvToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = op.getTiling();
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = *op.getFilterShape();
  constexpr int64_t T = MIE_UK_BF16_AMX_TILE;
  const int64_t n = in[0], f = out[1], p = out[2] * out[3];
  const int64_t kp = llvm::alignTo(in[1] * w[2] * w[3], T), mc = t.getMc(), nc = t.getNc();
  // A panel (32 filters or 32 pixels over all of K) in bf16 elements.
  const int64_t panel = kp * T;
  const int64_t fPanels = llvm::divideCeil(f, T), pPanels = llvm::divideCeil(p, T),
                pBlocks = llvm::divideCeil(p, nc), fBlocks = llvm::divideCeil(fPanels, mc / T);
  const bool shared = t.getSharedPanels();
  KernelOperands operands =
      collectOperands(op.getInput(), op.getFilter(), op.getBias(), op.getResidual());
  const TileEpilogue epi =
      tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(), /*biasPerColumn=*/false);
  const bool bf16Out = cast<MemRefType>(op.getOutput().getType()).getElementType().isBF16();
  const std::string tile = bf16Out ? ukernelSymbol(UKernel::BF16GemmAmxBF16C) : t.getTileSymbol();

  OpBuilder b(op);
  SmallVector<Value> outs = {op.getOutput()};
  // Shared panels live in the arena (bf16 pairs as f32 words): every pixel panel of every image.
  if (shared)
    outs.push_back(AllocOp::create(b, op.getLoc(),
                                   MemRefType::get({n * pPanels * panel / 2}, b.getF32Type())));
  KernelOp kernel = KernelOp::create(
      b, op.getLoc(), "conv2d", operands.ins, outs,
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value x = args[0], filter = args[1], output = args[operands.ins.size()];
        Value bias = operands.bias(args, output), residual = operands.residual(args, output);
        Value scratch = shared ? args.back() : stackBuffer(kb, kl, nc / T * panel / 2);
        // Pixel panels of pixels [p0, p0 + np) of image `img`, at element `dstOff` of the scratch.
        // A 1x1 stride-1 unpadded window reads the plane as one row of H * W pixels: every K row
        // of a panel is then one run of 32 (the packing copies a run per output row it meets).
        auto pack = [&](Value img, Value p0, Value np, Value dstOff) {
          const bool oneRow = isPointwiseWindow(op, w);
          SmallVector<Value> packArgs = {ub.ptr(x), ub.i64(ub.mul(img, in[1] * in[2] * in[3])),
                                         ub.i64(in[1]), ub.i64(oneRow ? 1 : in[2]),
                                         ub.i64(oneRow ? p : in[3])};
          llvm::append_range(packArgs, windowArgs(ub, op, w));
          packArgs.append({ub.i64(oneRow ? p : out[3]), ub.i64(p0), ub.i64(np), ub.ptr(scratch),
                           ub.i64(dstOff)});
          ub.call(ukernelSymbol(UKernel::BF16PackConvAmx), packArgs);
        };
        // Blocks of 32 filters [ftBegin, ftEnd) x 32 pixels of the np pixels from p0, all of K
        // per call; `panelOf(pt)` is pixel panel pt's first element in the scratch. Pixel panels
        // outside (each stays in L1), filter panels inside (streamed from L2).
        auto tiles = [&](Value img, Value ftBegin, Value ftEnd, Value p0, Value np,
                         function_ref<Value(Value)> panelOf) {
          Value wp = ub.ptr(filter), outp = ub.ptr(output), sp = ub.ptr(scratch), bp = ub.ptr(bias),
                rp = ub.ptr(residual);
          Value outImg = ub.mul(img, f * p);
          ub.loop(ub.c(0), ub.ceilDiv(np, T), [&](Value pt) {
            Value ncur = ub.min(ub.c(T), ub.sub(np, ub.mul(pt, T)));
            Value bOff = ub.i64(panelOf(pt));
            ub.loop(ftBegin, ftEnd, [&](Value ft) {
              Value row = ub.mul(ft, T);
              Value mcur = ub.min(ub.c(T), ub.sub(ub.c(f), row));
              Value cOff =
                  ub.i64(ub.add(ub.add(outImg, ub.mul(row, p)), ub.add(p0, ub.mul(pt, T))));
              ub.call(tile, {wp, ub.i64(ub.mul(ft, panel)), sp, bOff, outp, cOff, ub.i64(p),
                             ub.i64(kp), ub.i64(mcur), ub.i64(ncur), ub.i64(epi.flags), bp,
                             ub.i64(row), rp, cOff, ub.i64(p), ub.f32(epi.lo), ub.f32(epi.hi)});
            });
          });
        };
        if (!shared) {
          // Items: (image, pixel block), packed by the item; every filter group runs on it.
          parallelItems(ub, n * pBlocks, [&](Value item) {
            Value img = ub.div(item, pBlocks), p0 = ub.mul(ub.rem(item, pBlocks), nc);
            Value np = ub.min(ub.c(nc), ub.sub(ub.c(p), p0));
            pack(img, p0, np, ub.c(0));
            forPanelGroups(
                ub, 1, Value(), fBlocks, mc / T, fPanels, [&](Value ftBegin, Value ftEnd) {
                  tiles(img, ftBegin, ftEnd, p0, np, [&](Value pt) { return ub.mul(pt, panel); });
                });
          });
          return;
        }
        // Shared: every (image, pixel panel) packed first, then the items (image, pixel block,
        // filter block) only compute.
        parallelItems(ub, n * pPanels, [&](Value item) {
          Value img = ub.div(item, pPanels), p0 = ub.mul(ub.rem(item, pPanels), T);
          pack(img, p0, ub.min(ub.c(T), ub.sub(ub.c(p), p0)), ub.mul(item, panel));
        });
        parallelItems(ub, n * pBlocks * fBlocks, [&](Value item) {
          Value img = ub.div(item, pBlocks * fBlocks), rest = ub.rem(item, pBlocks * fBlocks);
          Value pb = ub.div(rest, fBlocks);
          auto [ftBegin, ftEnd] = panelGroup(ub, ub.rem(rest, fBlocks), mc / T, fPanels);
          Value p0 = ub.mul(pb, nc);
          Value firstPanel = ub.add(ub.mul(img, pPanels), ub.mul(pb, nc / T));
          tiles(img, ftBegin, ftEnd, p0, ub.min(ub.c(nc), ub.sub(ub.c(p), p0)),
                [&](Value pt) { return ub.mul(ub.add(firstPanel, pt), panel); });
        });
      });
  // All of K in one call: each tile reads its residual block just before it stores it.
  allowResidualInPlace(kernel, operands, /*readBeforeWritten=*/true);
  op.erase();
  return kernel;
}

KernelOp mlir::mie::lowerActivationGemmToUKernels(GemmOp op, SymbolTable &symbols) {
  TilingAttr t = op.getTiling();
  const int64_t r = cast<MemRefType>(op.getOutput().getType()).getRank();
  const bool ta = op.getTransA(), tb = op.getTransB(), tc = op.getTransC();
  const int64_t mr = t.getMr(), nr = t.getNr(), mc = t.getMc(), nc = t.getNc();
  KernelOperands operands = collectOperands(op.getA(), op.getB(), op.getBias(), op.getResidual());
  const TileEpilogue epi =
      tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(), /*biasPerColumn=*/true);
  std::string isa = t.getIsa().str(), tile = t.getTileSymbol();

  OpBuilder builder(op);
  KernelOp kernel = KernelOp::create(
      builder, op.getLoc(), "gemm", operands.ins, op.getOutput(),
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value av = args[0], bv = args[1], output = args.back();
        Value bias = operands.bias(args, output);
        Value residual = operands.residual(args, output);
        // Every extent a constant, or read from the buffers at run time (code for symbolic
        // dims: attention's products over the sequence, a KV cache's keys).
        auto dim = [&](Value buffer, int64_t d) { return Extent::dimOf(ub, buffer, d); };
        const Extent batch = r == 3 ? dim(output, 0) : Extent{1, Value()};
        const Extent m = dim(output, tc ? r - 1 : r - 2), n = dim(output, tc ? r - 2 : r - 1),
                     k = dim(av, ta ? r - 2 : r - 1), lda = dim(av, r - 1), ldb = dim(bv, r - 1);
        const Extent ldc = tc ? m : n;
        const Extent aMatrix = dim(av, r - 2).times(ub, lda),
                     bMatrix = dim(bv, r - 2).times(ub, ldb);
        // K blocks of the tiling's kc, all of a static K when shorter.
        const int64_t kc = k.isConstant() ? std::min(t.getKc(), k.constant) : t.getKc();
        const Extent mBlocks = m.ceilDiv(ub, mc), nBlocks = n.ceilDiv(ub, nc);
        const Extent imageItems = mBlocks.times(ub, nBlocks);
        // Per thread: the item's row block and column block of one K block, as panels.
        Value aPanels = stackBuffer(kb, kl, mc * kc), bPanels = stackBuffer(kb, kl, nc * kc);
        // Items: (batch index, row block, column block).
        parallelItems(ub, batch.times(ub, imageItems).get(ub), [&](Value item) {
          Value bi = ub.div(item, imageItems.get(ub)), rest = ub.rem(item, imageItems.get(ub));
          Value m0 = ub.mul(ub.div(rest, nBlocks.get(ub)), mc);
          Value mBlock = ub.min(ub.c(mc), ub.sub(m.get(ub), m0));
          Value n0 = ub.mul(ub.rem(rest, nBlocks.get(ub)), nc);
          Value nBlock = ub.min(ub.c(nc), ub.sub(n.get(ub), n0));
          Value aOff = ub.i64(ub.mul(bi, aMatrix.get(ub)));
          Value bOff = ub.i64(ub.mul(bi, bMatrix.get(ub)));
          Value cBase = ub.mul(bi, m.times(ub, n).get(ub));
          auto pack = [&](Value k0, Value kcur) {
            ub.call(ukernelSymbol(UKernel::F32PackLhs, isa),
                    {ub.ptr(av), aOff, lda.i64(ub), ub.i64(ta ? 1 : 0), ub.i64(m0), ub.i64(mBlock),
                     ub.i64(k0), ub.i64(kcur), ub.i64(mr), ub.ptr(aPanels), ub.i64(0)});
            // Column panels are the rows of op(b)^T: b [K, N] is that matrix stored
            // transposed, b [N, K] (trans_b) stores it as is.
            ub.call(ukernelSymbol(UKernel::F32PackLhs, isa),
                    {ub.ptr(bv), bOff, ldb.i64(ub), ub.i64(tb ? 0 : 1), ub.i64(n0), ub.i64(nBlock),
                     ub.i64(k0), ub.i64(kcur), ub.i64(nr), ub.ptr(bPanels), ub.i64(0)});
          };
          auto tiles = [&](Value k0, Value kcur, Value flags) {
            Value ap = ub.ptr(aPanels), bp = ub.ptr(bPanels), outp = ub.ptr(output),
                  biasp = ub.ptr(bias), rp = ub.ptr(residual);
            Value tileFlags =
                tc ? arith::OrIOp::create(ub.b, ub.loc, flags, ub.i64(MIE_UK_TRANSPOSE_C)) : flags;
            // Column panels outside (each stays in L1), row panels inside.
            ub.loop(ub.c(0), ub.ceilDiv(nBlock, nr), [&](Value nt) {
              Value col = ub.add(n0, ub.mul(nt, nr));
              Value ncur = ub.min(ub.c(nr), ub.sub(n.get(ub), col));
              Value bTile = ub.i64(ub.mul(ub.mul(nt, kcur), nr));
              ub.loop(ub.c(0), ub.ceilDiv(mBlock, mr), [&](Value mt) {
                Value row = ub.add(m0, ub.mul(mt, mr));
                Value mcur = ub.min(ub.c(mr), ub.sub(m.get(ub), row));
                Value cOff = ub.i64(ub.add(cBase, tc ? ub.add(ub.mul(col, m.get(ub)), row)
                                                     : ub.add(ub.mul(row, n.get(ub)), col)));
                ub.call(tile, {ap, ub.i64(ub.mul(ub.mul(mt, kcur), mr)), bp, bTile, ub.i64(nr),
                               outp, cOff, ldc.i64(ub), ub.i64(kcur), ub.i64(mcur), ub.i64(ncur),
                               tileFlags, biasp, ub.i64(col), rp, cOff, ldc.i64(ub), ub.f32(epi.lo),
                               ub.f32(epi.hi)});
              });
            });
          };
          if (k.isConstant())
            emitKBlocks(ub, k.constant, kc, epi.flags, pack, tiles);
          else
            emitRunTimeKBlocks(ub, k.get(ub), kc, epi.flags, pack, tiles);
        });
      });
  op.erase();
  return kernel;
}
