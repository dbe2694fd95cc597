//===- UKernelLowering.cpp - library kernels on the microkernels ----------===//
//
// The loops around the microkernels, in the IR where they can be read: one scf.parallel over thread
// work items, K blocks, packing of the activation panels into a stack buffer, the register tiles.
// The microkernels take bare pointers plus element offsets (runtime/src/ukernels/mie_ukernels.h, their contract in runtime/include/mie/mie_ukernel_abi.h);
// code generation links them from bitcode (see mie_ukernels.h for which of them inline).
//
//===----------------------------------------------------------------------===//

#include "UKernelLowering.h"

#include "dialects/mie/Utils/KernelBuilders.h"

#include "mie/Target/UKernelRegistry.h"
#include "runtime/include/mie/mie_ukernel_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <tuple>

using namespace mlir;
using namespace mlir::mie;

namespace {

/// Index arithmetic and microkernel calls inside one kernel body.
struct UKernelBuilder {
  OpBuilder &b;
  Location loc;
  SymbolTable &symbols;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) { return mul(x, c(y)); }
  Value div(Value x, int64_t y) { return arith::DivUIOp::create(b, loc, x, c(y)); }
  Value rem(Value x, int64_t y) { return arith::RemUIOp::create(b, loc, x, c(y)); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value ceilDiv(Value x, int64_t y) { return div(add(x, c(y - 1)), y); }
  Value eq(Value x, int64_t y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(y));
  }

  /// `flags` with `bits` or-ed in on the first iteration of a loop from `first` (`iv == first`).
  Value flagsOnFirst(Value flags, int64_t bits, Value iv, Value first) {
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, iv, first);
    Value with = arith::OrIOp::create(b, loc, flags, i64(bits));
    return arith::SelectOp::create(b, loc, isFirst, with, flags);
  }

  Value i64(Value index) { return arith::IndexCastOp::create(b, loc, b.getI64Type(), index); }
  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(static_cast<float>(v)));
  }
  /// The aligned base pointer of a static buffer.
  Value ptr(Value memref) { return bufferPointer(b, loc, memref); }

  /// Calls `name`, declaring it (external, private) on first use from the operand types.
  void call(StringRef name, ArrayRef<Value> operands) {
    if (!symbols.lookup(name)) {
      OpBuilder mb = OpBuilder::atBlockEnd(&symbols.getOp()->getRegion(0).front());
      SmallVector<Type> types;
      for (Value v : operands)
        types.push_back(v.getType());
      auto decl = func::FuncOp::create(mb, loc, name, mb.getFunctionType(types, {}));
      decl.setPrivate();
      symbols.insert(decl);
    }
    func::CallOp::create(b, loc, name, TypeRange{}, operands);
  }

  /// scf.for from `lb` to `ub` (step 1) with `body(iv)`.
  void loop(Value lb, Value ub, function_ref<void(Value)> body) {
    auto forOp = scf::ForOp::create(b, loc, lb, ub, c(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    body(forOp.getInductionVar());
  }
};

/// A library op's epilogue as microkernel arguments: the constant part of the flags (applied
/// with the last K block) and the clamp bounds (0, 0 without a clamp).
struct TileEpilogue {
  int64_t flags;
  double lo, hi;
};

TileEpilogue tileEpilogue(EpilogueAttr epilogue, Value bias, Value residual, bool biasPerColumn) {
  TileEpilogue e{MIE_UK_EPILOGUE, 0.0, 0.0};
  if (bias)
    e.flags |= MIE_UK_BIAS | (biasPerColumn ? MIE_UK_BIAS_PER_COL : 0);
  if (residual)
    e.flags |= MIE_UK_RESIDUAL;
  if (auto clamp = epilogue.getClamp()) {
    e.flags |= MIE_UK_CLAMP;
    std::tie(e.lo, e.hi) = *clamp;
  }
  e.flags |= static_cast<int64_t>(epilogue.getActivation()) << MIE_UK_ACTIVATION_SHIFT;
  return e;
}

/// Emits the K-block loop shared by both lowerings: `pack(k0, kc)` fills the scratch panels, then
/// `tiles(kc, k0, flags)` runs the register tiles; the epilogue goes with the last block only, and
/// every block after the first accumulates. Two copies of the tile loops (with and without the
/// epilogue) keep each tile call's flags constant but the accumulate bit.
void emitKBlocks(UKernelBuilder &ub, int64_t k, int64_t kc, int64_t epiFlags,
                 function_ref<void(Value k0, Value kcur)> pack,
                 function_ref<void(Value k0, Value kcur, Value flags)> tiles) {
  int64_t blocks = llvm::divideCeil(k, kc);
  if (blocks == 1) {
    Value k0 = ub.c(0), kcur = ub.c(k);
    pack(k0, kcur);
    tiles(k0, kcur, ub.i64(epiFlags));
    return;
  }
  ub.loop(ub.c(0), ub.c(blocks), [&](Value kb) {
    Value k0 = ub.mul(kb, kc);
    Value kcur = ub.min(ub.c(kc), ub.sub(ub.c(k), k0));
    pack(k0, kcur);
    Value acc =
        arith::SelectOp::create(ub.b, ub.loc, ub.eq(kb, 0), ub.i64(0), ub.i64(MIE_UK_ACCUMULATE));
    Value last = ub.eq(kb, blocks - 1);
    auto ifOp = scf::IfOp::create(ub.b, ub.loc, last, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(ub.b);
      ub.b.setInsertionPointToStart(ifOp.thenBlock());
      tiles(k0, kcur, arith::OrIOp::create(ub.b, ub.loc, acc, ub.i64(epiFlags)));
      ub.b.setInsertionPointToStart(ifOp.elseBlock());
      tiles(k0, kcur, acc);
    }
  });
}

/// Operands of a kernel: the op's inputs (bias and residual when present), then the output.
struct KernelOperands {
  SmallVector<Value> ins;
  int biasIndex = -1, residualIndex = -1;

  /// The body arguments of bias and residual, or `fallback` (any valid buffer: the flags tell the
  /// microkernel not to read it) when the op has none.
  Value bias(ValueRange args, Value fallback) const {
    return biasIndex >= 0 ? args[biasIndex] : fallback;
  }
  Value residual(ValueRange args, Value fallback) const {
    return residualIndex >= 0 ? args[residualIndex] : fallback;
  }
};

/// A 64-byte aligned f32 stack buffer of one thread (sunk into each thread's body by
/// mie-parallelize-loops).
Value stackBuffer(OpBuilder &b, Location loc, int64_t floats) {
  return memref::AllocaOp::create(b, loc, MemRefType::get({floats}, b.getF32Type()),
                                  b.getI64IntegerAttr(64));
}

KernelOperands collectOperands(Value x, Value w, Value bias, Value residual) {
  KernelOperands k;
  k.ins = {x, w};
  if (bias) {
    k.biasIndex = k.ins.size();
    k.ins.push_back(bias);
  }
  if (residual) {
    k.residualIndex = k.ins.size();
    k.ins.push_back(residual);
  }
  return k;
}

/// Marks `kernel`, when `readBeforeWritten`, as reading its residual input only where and just
/// before it stores the same elements of its output 0, so memory planning may give the output the
/// residual's bytes (mayWriteInPlace). The tiles of a product of one K block do (each reads its
/// residual block in the epilogue); with several, the blocks before the last store partial sums
/// into the output before the last one reads the residual there.
void allowResidualInPlace(KernelOp kernel, const KernelOperands &operands,
                          bool readBeforeWritten) {
  if (operands.residualIndex < 0 || !readBeforeWritten)
    return;
  kernel->setAttr(MieDialect::getInPlaceInputAttrName(),
                  IntegerAttr::get(IntegerType::get(kernel.getContext(), 64),
                                   operands.residualIndex));
}

/// Filter panels [begin, end) of group `group`: `perGroup` panels each, the last one cut at
/// `panels`.
std::pair<Value, Value> panelGroup(UKernelBuilder &ub, Value group, int64_t perGroup,
                                   int64_t panels) {
  Value begin = ub.mul(group, perGroup);
  return {begin, ub.min(ub.add(begin, ub.c(perGroup)), ub.c(panels))};
}

/// Runs `body(begin, end)` on the filter panel groups of a work item: the one group `group` when
/// items are split by filter group (`items` > 1), else every group in turn.
void forPanelGroups(UKernelBuilder &ub, int64_t items, Value group, int64_t groups,
                    int64_t perGroup, int64_t panels, function_ref<void(Value, Value)> body) {
  if (items > 1) {
    auto [begin, end] = panelGroup(ub, group, perGroup, panels);
    return body(begin, end);
  }
  ub.loop(ub.c(0), ub.c(groups), [&](Value g) {
    auto [begin, end] = panelGroup(ub, g, perGroup, panels);
    body(begin, end);
  });
}

/// The window of a convolution as microkernel arguments: KH, KW, SH, SW, PH, PW, DH, DW.
SmallVector<Value> windowArgs(UKernelBuilder &ub, Conv2dOp op, ArrayRef<int64_t> filterShape) {
  ArrayRef<int64_t> s = op.getStrides(), p = op.getPads(), d = op.getDilations();
  return {ub.i64(filterShape[2]), ub.i64(filterShape[3]), ub.i64(s[0]), ub.i64(s[1]),
          ub.i64(p[0]),           ub.i64(p[1]),           ub.i64(d[0]), ub.i64(d[1])};
}

/// A 1x1 window with strides 1 and no padding (dilation is then irrelevant): output pixel p reads
/// input pixel p of every channel.
bool isPointwiseWindow(Conv2dOp op, ArrayRef<int64_t> filterShape) {
  return filterShape[2] == 1 && filterShape[3] == 1 &&
         llvm::all_of(op.getStrides(), [](int64_t v) { return v == 1; }) &&
         llvm::all_of(op.getPads(), [](int64_t v) { return v == 0; });
}

/// Calls the convolution packing of `op` (logical filter shape `w`): pixel panels `width` wide of
/// pixels [p0, p0 + np) of image `img` of `x`, K rows [k0, k0 + kc), at `dstOff` of `dst`.
void packConvPanels(UKernelBuilder &ub, Conv2dOp op, ArrayRef<int64_t> w, StringRef isa, Value x,
                    Value img, Value p0, Value np, Value k0, Value kc, int64_t width, Value dst,
                    Value dstOff) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  SmallVector<Value> args = {ub.ptr(x), ub.i64(ub.mul(img, in[1] * in[2] * in[3])),
                             ub.i64(in[1]), ub.i64(in[2]), ub.i64(in[3])};
  llvm::append_range(args, windowArgs(ub, op, w));
  args.append({ub.i64(out[3]), ub.i64(p0), ub.i64(np), ub.i64(k0), ub.i64(kc), ub.i64(width),
               ub.ptr(dst), ub.i64(dstOff)});
  // The f16 tiles' panels hold f16 (the same layout).
  ub.call(isa == "neon_f16" ? ukernelSymbol(UKernel::F16PackConvNchw, "neon")
                            : ukernelSymbol(UKernel::F32PackConvNchw, isa),
          args);
}


} // namespace

/// Channels per work item of a per-channel loop (depthwise, Winograd transforms): at most about 16K
/// pixels' worth, so an item stays small against the pool's dispatch, and at most C / 16, so there
/// are items for every thread.
static int64_t channelsPerItem(int64_t channels, int64_t pixels) {
  int64_t bySize = (1 << 14) / std::max<int64_t>(1, pixels);
  int64_t byCount = channels / 16;
  return std::clamp<int64_t>(std::min(bySize, byCount), 1, channels);
}

/// A top-level scf.parallel over [0, count) whose body `body(item)` builds; returns after it.
static void parallelItems(UKernelBuilder &ub, int64_t count, function_ref<void(Value)> body) {
  auto par = scf::ParallelOp::create(ub.b, ub.loc, ValueRange{ub.c(0)}, ValueRange{ub.c(count)},
                                     ValueRange{ub.c(1)});
  OpBuilder::InsertionGuard guard(ub.b);
  ub.b.setInsertionPointToStart(par.getBody());
  body(par.getInductionVars()[0]);
}

KernelOp mlir::mie::lowerConv2dToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = *op.getTiling();
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
  if (shared)
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
          parallelItems(ub, n * pBlocks * fItems, [&](Value item) {
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
          parallelItems(ub, n * pBlocks, [&](Value item) {
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
        parallelItems(ub, n * pPanels, [&](Value item) {
          Value img = ub.div(item, pPanels), p0 = ub.mul(ub.rem(item, pPanels), nr);
          Value np = ub.min(ub.c(nr), ub.sub(ub.c(p), p0));
          pack(img, p0, np, ub.c(0), ub.c(k), ub.mul(item, k * nr));
        });
        parallelItems(ub, n * pBlocks * fBlocks, [&](Value item) {
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

namespace {

/// A product whose rows (M, the broadcast side) are an activation packed at run time into row
/// panels and whose columns are a constant weight packed as RHS panels [ceil(N / nr)][K][nr]:
/// `batch` independent copies (images), C of copy `img` at `img * cBatch` in the output.
struct RowsProduct {
  int64_t batch, m, n, k, cBatch, ldc;
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

  /// Bytes of one packed element, and the f32 words a buffer of `elements` of them takes.
  int64_t elementBytes() const { return amx || f16 ? 2 : 4; }
  int64_t words(int64_t elements) const { return llvm::divideCeil(elements * elementBytes(), 4); }
};

/// The kernel body of a RowsProduct: with shared panels, every (image, row panel) packed over all
/// of K first; then items (image, column block, row block), each packing its row block per K block
/// unless shared. `pack(img, m0, mcur, k0, kcur, scratch, dstOff)` writes row panels
/// [ceil(mcur / mr)][kcur][mr] of rows [m0, m0 + mcur) at `dstOff` of `scratch`.
using PackRows = function_ref<void(Value img, Value m0, Value mcur, Value k0, Value kcur,
                                   Value scratch, Value dstOff)>;
void emitRowsProduct(UKernelBuilder &ub, const RowsProduct &g, Value weights, Value output,
                     Value bias, Value residual, Value sharedPanels, PackRows pack) {
  TilingAttr t = g.tiling;
  const int64_t m = g.m, n = g.n, k = g.k;
  const int64_t mr = t.getMr(), nr = t.getNr(), kc = std::min(t.getKc(), k), mc = t.getMc(),
                nc = t.getNc();
  const int64_t mPanels = llvm::divideCeil(m, mr), nPanels = llvm::divideCeil(n, nr),
                mBlocks = llvm::divideCeil(m, mc), nBlocks = llvm::divideCeil(nPanels, nc / nr);
  const std::string tile = g.tile.empty() ? t.getTileSymbol() : g.tile;
  Value scratch = sharedPanels ? sharedPanels : stackBuffer(ub.b, ub.loc, g.words(mc * kc));
  // Tiles of row block [m0, m0 + mBlock) x column panels [ntBegin, ntEnd); `aOffset(mt, k0,
  // kcur)` locates row panel mt's K block in the scratch. Weight panels outside (each stays in
  // L1), row panels inside (from L2).
  auto tiles = [&](Value img, Value m0, Value mBlock, Value ntBegin, Value ntEnd, Value k0,
                   Value kcur, Value flags, function_ref<Value(Value, Value, Value)> aOffset) {
    Value bp = ub.ptr(weights), outp = ub.ptr(output), sp = ub.ptr(scratch),
          biasp = ub.ptr(bias), rp = ub.ptr(residual);
    Value cImg = ub.mul(img, g.cBatch);
    ub.loop(ntBegin, ntEnd, [&](Value nt) {
      Value col = ub.mul(nt, nr);
      Value ncur = ub.min(ub.c(nr), ub.sub(ub.c(n), col));
      Value bOff = ub.mul(ub.add(ub.mul(nt, k), k0), nr);
      ub.loop(ub.c(0), ub.ceilDiv(mBlock, mr), [&](Value mt) {
        Value row = ub.add(m0, ub.mul(mt, mr));
        Value mcur = ub.min(ub.c(mr), ub.sub(ub.c(m), row));
        Value cOff = ub.i64(ub.add(cImg, g.transposeC ? ub.add(ub.mul(col, g.ldc), row)
                                                      : ub.add(ub.mul(row, g.ldc), col)));
        Value tileFlags = g.transposeC ? arith::OrIOp::create(ub.b, ub.loc, flags,
                                                              ub.i64(MIE_UK_TRANSPOSE_C))
                                       : flags;
        SmallVector<Value> args = {sp, ub.i64(aOffset(mt, k0, kcur)), bp, ub.i64(bOff)};
        if (!g.amx) // the AMX panels have no row stride
          args.push_back(ub.i64(nr));
        args.append({outp, cOff, ub.i64(g.ldc), ub.i64(kcur), ub.i64(mcur), ub.i64(ncur),
                     tileFlags, biasp, ub.i64(col), rp, cOff, ub.i64(g.ldc), ub.f32(g.epi.lo),
                     ub.f32(g.epi.hi)});
        ub.call(tile, args);
      });
    });
  };
  if (sharedPanels) {
    parallelItems(ub, g.batch * mPanels, [&](Value item) {
      Value img = g.batch == 1 ? ub.c(0) : ub.div(item, mPanels);
      Value m0 = ub.mul(g.batch == 1 ? item : ub.rem(item, mPanels), mr);
      pack(img, m0, ub.min(ub.c(mr), ub.sub(ub.c(m), m0)), ub.c(0), ub.c(k), scratch,
           ub.mul(item, k * mr));
    });
  }
  // Items column block major: the row blocks of one column block are neighbours, so the weight
  // panels they all stream are read from DRAM once and then from cache (by the same thread, or by
  // another one at about the same time), not once per row block.
  parallelItems(ub, g.batch * mBlocks * nBlocks, [&](Value item) {
    Value img = g.batch == 1 ? ub.c(0) : ub.div(item, mBlocks * nBlocks);
    Value rest = g.batch == 1 ? item : ub.rem(item, mBlocks * nBlocks);
    Value nb = getenv("MIE_ROWMAJOR") ? ub.rem(rest, nBlocks) : ub.div(rest, mBlocks);
    Value mb = getenv("MIE_ROWMAJOR") ? ub.div(rest, nBlocks) : ub.rem(rest, mBlocks);
    Value m0 = ub.mul(mb, mc);
    Value mBlock = ub.min(ub.c(mc), ub.sub(ub.c(m), m0));
    Value ntBegin = ub.mul(nb, nc / nr);
    Value ntEnd = ub.min(ub.add(ntBegin, ub.c(nc / nr)), ub.c(nPanels));
    emitKBlocks(
        ub, k, kc, g.epi.flags,
        [&](Value k0, Value kcur) {
          if (!sharedPanels)
            pack(img, m0, mBlock, k0, kcur, scratch, ub.c(0));
        },
        [&](Value k0, Value kcur, Value flags) {
          tiles(img, m0, mBlock, ntBegin, ntEnd, k0, kcur, flags,
                [&](Value mt, Value k0_, Value kc_) {
                  if (sharedPanels) // panels of all images and rows, all of K
                    return ub.mul(
                        ub.add(ub.mul(ub.add(ub.add(ub.mul(img, mPanels), ub.div(m0, mr)), mt),
                                      k),
                               k0_),
                        mr);
                  return ub.mul(ub.mul(mt, kc_), mr);
                });
        });
  });
}

/// Replaces `op` by one `mie.kernel name` computing `g` (emitRowsProduct) over `operands` (the
/// activation first, then the packed weights, bias, residual) into `output`, the row panels in an
/// arena buffer when the tiling shares them; `pack(ub, activation, ...)` packs row panels.
using PackRowsOf = function_ref<void(UKernelBuilder &ub, Value activation, Value img, Value m0,
                                     Value mcur, Value k0, Value kcur, Value scratch,
                                     Value dstOff)>;
KernelOp emitRowsProductKernel(Operation *op, StringRef name, const RowsProduct &g,
                               const KernelOperands &operands, Value output, SymbolTable &symbols,
                               PackRowsOf pack) {
  TilingAttr t = g.tiling;
  OpBuilder b(op);
  SmallVector<Value> outs = {output};
  if (t.getSharedPanels())
    outs.push_back(AllocOp::create(
        b, op->getLoc(),
        MemRefType::get(
            {g.words(g.batch * (int64_t)llvm::divideCeil(g.m, t.getMr()) * g.k * t.getMr())},
            b.getF32Type())));
  KernelOp kernel = KernelOp::create(
      b, op->getLoc(), name, operands.ins, outs, [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value out = args[operands.ins.size()];
        emitRowsProduct(ub, g, args[1], out, operands.bias(args, out), operands.residual(args, out),
                        t.getSharedPanels() ? args.back() : Value(),
                        [&](Value img, Value m0, Value mcur, Value k0, Value kcur, Value scratch,
                            Value dstOff) {
                          pack(ub, args[0], img, m0, mcur, k0, kcur, scratch, dstOff);
                        });
      });
  allowResidualInPlace(kernel, operands, /*readBeforeWritten=*/t.getKc() >= g.k);
  op->erase();
  return kernel;
}

} // namespace

KernelOp mlir::mie::lowerGemmToUKernels(GemmOp op, SymbolTable &symbols) {
  TilingAttr t = *op.getTiling();
  ArrayRef<int64_t> a = cast<MemRefType>(op.getA().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  const bool ta = op.getTransA(), tc = op.getTransC();
  // With trans_c the output is the product transposed: tiles store with MIE_UK_TRANSPOSE_C.
  const int64_t m = tc ? out[1] : out[0], n = tc ? out[0] : out[1], k = ta ? a[0] : a[1],
                lda = a[1];
  const int64_t mr = t.getMr();
  KernelOperands operands = collectOperands(op.getA(), op.getB(), op.getBias(), op.getResidual());
  RowsProduct g{1, m, n, k, 0, tc ? m : n, tc, t,
                tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(),
                             /*biasPerColumn=*/true),
                /*amx=*/false, /*tile=*/""};
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
            Value dstOff) {
          ub.call(packA, {ub.ptr(av), ub.i64(0), ub.i64(lda), ub.i64(ta ? 1 : 0), ub.i64(m0),
                          ub.i64(mcur), ub.i64(0), ub.i64(k), ub.ptr(scratch), ub.i64(dstOff)});
        });
  }
  // The f16 tiles pack f16 rows the f32 way.
  g.f16 = isa == "neon_f16";
  return emitRowsProductKernel(
      op, "gemm", g, operands, op.getOutput(), symbols,
      [&](UKernelBuilder &ub, Value av, Value, Value m0, Value mcur, Value k0, Value kcur,
          Value scratch, Value dstOff) {
        ub.call(g.f16 ? ukernelSymbol(UKernel::F16PackLhs, "neon")
                      : ukernelSymbol(UKernel::F32PackLhs, isa),
                {ub.ptr(av), ub.i64(0), ub.i64(lda), ub.i64(ta ? 1 : 0), ub.i64(m0), ub.i64(mcur),
                 ub.i64(k0), ub.i64(kcur), ub.i64(mr), ub.ptr(scratch), ub.i64(dstOff)});
      });
}

KernelOp mlir::mie::lowerPixelRowsConvToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = *op.getTiling();
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = *op.getFilterShape();
  const int64_t batch = in[0], f = out[1], p = out[2] * out[3];
  const int64_t k = in[1] * w[2] * w[3], mr = t.getMr();
  KernelOperands operands =
      collectOperands(op.getInput(), op.getFilter(), op.getBias(), op.getResidual());
  // out^T[P, F] per image: rows are pixels, columns filters, stored transposed into [F, P].
  const RowsProduct g{batch, p, f, k, f * p, p, /*transposeC=*/true, t,
                      tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(),
                                   /*biasPerColumn=*/true),
                      /*amx=*/false, /*tile=*/""};
  std::string isa = t.getIsa().str();
  // The pixel panels of the implicit GEMM are its row panels when their width is mr.
  return emitRowsProductKernel(
      op, "conv2d", g, operands, op.getOutput(), symbols,
      [&](UKernelBuilder &ub, Value x, Value img, Value m0, Value mcur, Value k0, Value kcur,
          Value scratch, Value dstOff) {
        packConvPanels(ub, op, w, isa, x, img, m0, mcur, k0, kcur, mr, scratch, dstOff);
      });
}

KernelOp mlir::mie::lowerAmxConvToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = *op.getTiling();
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
  const std::string tile =
      bf16Out ? ukernelSymbol(UKernel::BF16GemmAmxBF16C) : t.getTileSymbol();

  OpBuilder b(op);
  SmallVector<Value> outs = {op.getOutput()};
  // Shared panels live in the arena (bf16 pairs as f32 words): every pixel panel of every image.
  if (shared)
    outs.push_back(
        AllocOp::create(b, op.getLoc(), MemRefType::get({n * pPanels * panel / 2}, b.getF32Type())));
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
          Value wp = ub.ptr(filter), outp = ub.ptr(output), sp = ub.ptr(scratch),
                bp = ub.ptr(bias), rp = ub.ptr(residual);
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
            forPanelGroups(ub, 1, Value(), fBlocks, mc / T, fPanels,
                           [&](Value ftBegin, Value ftEnd) {
                             tiles(img, ftBegin, ftEnd, p0, np,
                                   [&](Value pt) { return ub.mul(pt, panel); });
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
  TilingAttr t = *op.getTiling();
  ArrayRef<int64_t> a = cast<MemRefType>(op.getA().getType()).getShape();
  ArrayRef<int64_t> b = cast<MemRefType>(op.getB().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  const int64_t r = out.size(), batch = r == 3 ? out[0] : 1;
  const bool ta = op.getTransA(), tb = op.getTransB(), tc = op.getTransC();
  const int64_t m = tc ? out[r - 1] : out[r - 2], n = tc ? out[r - 2] : out[r - 1],
                k = ta ? a[r - 2] : a[r - 1], lda = a[r - 1], ldb = b[r - 1], ldc = tc ? m : n;
  const int64_t mr = t.getMr(), nr = t.getNr(), kc = std::min(t.getKc(), k), mc = t.getMc(),
                nc = t.getNc();
  const int64_t nPanels = llvm::divideCeil(n, nr), mBlocks = llvm::divideCeil(m, mc),
                nBlocks = llvm::divideCeil(nPanels, nc / nr);
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
        // Per thread: the item's row block and column block of one K block, as panels.
        Value aPanels = stackBuffer(kb, kl, mc * kc), bPanels = stackBuffer(kb, kl, nc * kc);
        // Items: (batch index, row block, column block).
        parallelItems(ub, batch * mBlocks * nBlocks, [&](Value item) {
          Value bi = ub.div(item, mBlocks * nBlocks), rest = ub.rem(item, mBlocks * nBlocks);
          Value m0 = ub.mul(ub.div(rest, nBlocks), mc);
          Value mBlock = ub.min(ub.c(mc), ub.sub(ub.c(m), m0));
          Value n0 = ub.mul(ub.rem(rest, nBlocks), nc);
          Value nBlock = ub.min(ub.c(nc), ub.sub(ub.c(n), n0));
          Value aOff = ub.i64(ub.mul(bi, a[r - 2] * a[r - 1]));
          Value bOff = ub.i64(ub.mul(bi, b[r - 2] * b[r - 1]));
          Value cBase = ub.mul(bi, m * n);
          emitKBlocks(
              ub, k, kc, epi.flags,
              [&](Value k0, Value kcur) {
                ub.call(ukernelSymbol(UKernel::F32PackLhs, isa),
                        {ub.ptr(av), aOff, ub.i64(lda), ub.i64(ta ? 1 : 0), ub.i64(m0),
                         ub.i64(mBlock), ub.i64(k0), ub.i64(kcur), ub.i64(mr), ub.ptr(aPanels),
                         ub.i64(0)});
                // Column panels are the rows of op(b)^T: b [K, N] is that matrix stored
                // transposed, b [N, K] (trans_b) stores it as is.
                ub.call(ukernelSymbol(UKernel::F32PackLhs, isa),
                        {ub.ptr(bv), bOff, ub.i64(ldb), ub.i64(tb ? 0 : 1), ub.i64(n0),
                         ub.i64(nBlock), ub.i64(k0), ub.i64(kcur), ub.i64(nr), ub.ptr(bPanels),
                         ub.i64(0)});
              },
              [&](Value k0, Value kcur, Value flags) {
                Value ap = ub.ptr(aPanels), bp = ub.ptr(bPanels), outp = ub.ptr(output),
                      biasp = ub.ptr(bias), rp = ub.ptr(residual);
                Value tileFlags =
                    tc ? arith::OrIOp::create(ub.b, ub.loc, flags, ub.i64(MIE_UK_TRANSPOSE_C))
                       : flags;
                // Column panels outside (each stays in L1), row panels inside.
                ub.loop(ub.c(0), ub.ceilDiv(nBlock, nr), [&](Value nt) {
                  Value col = ub.add(n0, ub.mul(nt, nr));
                  Value ncur = ub.min(ub.c(nr), ub.sub(ub.c(n), col));
                  Value bTile = ub.i64(ub.mul(ub.mul(nt, kcur), nr));
                  ub.loop(ub.c(0), ub.ceilDiv(mBlock, mr), [&](Value mt) {
                    Value row = ub.add(m0, ub.mul(mt, mr));
                    Value mcur = ub.min(ub.c(mr), ub.sub(ub.c(m), row));
                    Value cOff = ub.i64(ub.add(
                        cBase, tc ? ub.add(ub.mul(col, m), row) : ub.add(ub.mul(row, n), col)));
                    ub.call(tile, {ap, ub.i64(ub.mul(ub.mul(mt, kcur), mr)), bp, bTile,
                                   ub.i64(nr), outp, cOff, ub.i64(ldc), ub.i64(kcur),
                                   ub.i64(mcur), ub.i64(ncur), tileFlags, biasp, ub.i64(col), rp,
                                   cOff, ub.i64(ldc), ub.f32(epi.lo), ub.f32(epi.hi)});
                  });
                });
              });
        });
      });
  op.erase();
  return kernel;
}

namespace {

/// What a per-item convolution microkernel call reads inside its kernel body.
struct PlaneKernelValues {
  Value x, filter, bias, residual, output, plane;
  TileEpilogue epilogue;

  /// The calls' common tail: flags, bias (offset 0), residual (at `outOff`), clamp bounds, plane.
  /// flags, bias, bias offset, residual, residual offset (the output's), lo, hi.
  void appendEpilogueArgs(UKernelBuilder &ub, SmallVectorImpl<Value> &args, Value outOff) const {
    args.append({ub.i64(epilogue.flags), ub.ptr(bias), ub.i64(0), ub.ptr(residual), outOff,
                 ub.f32(epilogue.lo), ub.f32(epilogue.hi)});
  }
  /// The epilogue arguments, then the stack plane.
  void appendEpilogue(UKernelBuilder &ub, SmallVectorImpl<Value> &args, Value outOff) const {
    appendEpilogueArgs(ub, args, outOff);
    args.push_back(ub.ptr(plane));
  }
};

/// Work item `item` of a kernel split into `bands` bands of `band` output rows per image (of
/// `oh` rows): the image, the band's first row and its number of rows.
std::tuple<Value, Value, Value> rowBand(UKernelBuilder &ub, Value item, int64_t bands,
                                        int64_t band, int64_t oh) {
  Value img = ub.div(item, bands), oh0 = ub.mul(ub.rem(item, bands), band);
  return {img, oh0, ub.min(ub.c(band), ub.sub(ub.c(oh), oh0))};
}

/// Replaces `op` by `mie.kernel name` over its operands: a stack plane of `planeFloats` floats
/// (none when 0) and one parallel loop over `items` whose body `item(ub, index, values)` emits the microkernel
/// call (the depthwise and direct convolutions: each item pads its own input rows into the plane).
KernelOp emitPlaneKernel(Conv2dOp op, SymbolTable &symbols, StringRef name, int64_t planeFloats,
                     int64_t items,
                     function_ref<void(UKernelBuilder &, Value, const PlaneKernelValues &)> item) {
  KernelOperands operands =
      collectOperands(op.getInput(), op.getFilter(), op.getBias(), op.getResidual());
  PlaneKernelValues v;
  v.epilogue =
      tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(), /*biasPerColumn=*/false);
  OpBuilder b(op);
  KernelOp kernel = KernelOp::create(b, op.getLoc(), name, operands.ins, op.getOutput(),
                   [&](OpBuilder &kb, Location kl, ValueRange args) {
                     UKernelBuilder ub{kb, kl, symbols};
                     v.x = args[0];
                     v.filter = args[1];
                     v.output = args.back();
                     v.bias = operands.bias(args, v.output);
                     v.residual = operands.residual(args, v.output);
                     if (planeFloats > 0)
                       v.plane = stackBuffer(kb, kl, planeFloats);
                     parallelItems(ub, items, [&](Value index) { item(ub, index, v); });
                   });
  op.erase();
  return kernel;
}

} // namespace

KernelOp mlir::mie::lowerDepthwiseToUKernels(Conv2dOp op, SymbolTable &symbols) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = cast<MemRefType>(op.getFilter().getType()).getShape();
  const int64_t n = in[0], ch = in[1], h = in[2], wd = in[3], oh = out[2], ow = out[3];
  ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
  const bool bf16 = cast<MemRefType>(op.getOutput().getType()).getElementType().isBF16();
  int64_t planeFloats =
      bf16 ? mie_uk_bf16_dwconv_plane_floats(h, wd, w[2], w[3], strides[0], strides[1],
                                             dilations[0], dilations[1], oh, ow)
           : mie_uk_dwconv_plane_floats(w[2], w[3], strides[0], strides[1], dilations[0],
                                        dilations[1], oh, ow);
  int64_t perItem = channelsPerItem(ch, oh * ow);
  int64_t chunks = llvm::divideCeil(ch, perItem);
  std::string symbol = op.getUkernel()->str();
  return emitPlaneKernel(op, symbols, "dwconv", planeFloats, n * chunks,
                  [&](UKernelBuilder &ub, Value item, const PlaneKernelValues &v) {
                    Value img = ub.div(item, chunks), c0 = ub.mul(ub.rem(item, chunks), perItem);
                    Value cn = ub.min(ub.c(perItem), ub.sub(ub.c(ch), c0));
                    Value xOff = ub.i64(ub.mul(img, ch * h * wd)),
                          outOff = ub.i64(ub.mul(img, ch * oh * ow));
                    SmallVector<Value> args = {ub.ptr(v.x), xOff, ub.i64(h), ub.i64(wd)};
                    llvm::append_range(args, windowArgs(ub, op, w));
                    args.append({ub.i64(oh), ub.i64(ow), ub.ptr(v.filter), ub.i64(0), ub.i64(c0),
                                 ub.i64(cn), ub.ptr(v.output), outOff});
                    v.appendEpilogue(ub, args, outOff);
                    ub.call(symbol, args);
                  });
}

KernelOp mlir::mie::lowerMaxPoolToUKernels(MaxPool2dOp op, SymbolTable &symbols) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  const int64_t n = in[0], ch = in[1], h = in[2], wd = in[3], oh = out[2], ow = out[3];
  ArrayRef<int64_t> k = op.getKernel(), strides = op.getStrides(), pads = op.getPads(),
                    dilations = op.getDilations();
  const int64_t rowFloats =
      mie_uk_maxpool_row_floats(wd, k[1], strides[1], pads[1], dilations[1], ow);
  const int64_t perItem = channelsPerItem(ch, oh * ow);
  const int64_t chunks = llvm::divideCeil(ch, perItem);
  std::string symbol = op.getUkernel()->str();
  OpBuilder b(op);
  KernelOp kernel = KernelOp::create(
      b, op.getLoc(), "max_pool", op.getInput(), op.getOutput(),
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        UKernelBuilder ub{kb, kl, symbols};
        Value x = args[0], output = args[1];
        Value row = stackBuffer(kb, kl, rowFloats);
        parallelItems(ub, n * chunks, [&](Value item) {
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

/// A channels-last depthwise convolution on the NHWC kernel: items are bands of output rows of
/// one image, all channels each, so consecutive channels-last kernels (the pixel-row GEMMs around
/// it split their rows alike) leave each thread reading rows it wrote itself.
KernelOp mlir::mie::lowerChannelsLastDepthwiseToUKernels(Conv2dOp op, SymbolTable &symbols,
                                                         int64_t minItems) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = *op.getFilterShape();
  const int64_t n = in[0], h = in[1], wd = in[2], ch = in[3], oh = out[1], ow = out[2];
  const int64_t bandsWanted = std::clamp<int64_t>(llvm::divideCeil(minItems, n), 1, oh);
  const int64_t band = llvm::divideCeil(oh, bandsWanted), bands = llvm::divideCeil(oh, band);
  std::string symbol = op.getUkernel()->str();
  return emitPlaneKernel(op, symbols, "dwconv_nhwc", /*planeFloats=*/0, n * bands,
                         [&](UKernelBuilder &ub, Value item, const PlaneKernelValues &v) {
                           auto [img, oh0, ohn] = rowBand(ub, item, bands, band, oh);
                           Value xOff = ub.i64(ub.mul(img, h * wd * ch)),
                                 outOff = ub.i64(ub.mul(img, oh * ow * ch));
                           SmallVector<Value> args = {ub.ptr(v.x), xOff, ub.i64(h), ub.i64(wd),
                                                      ub.i64(ch)};
                           llvm::append_range(args, windowArgs(ub, op, w));
                           args.append({ub.i64(oh), ub.i64(ow), ub.ptr(v.filter), ub.i64(0),
                                        ub.i64(oh0), ub.i64(ohn), ub.i64(0), ub.i64(ch),
                                        ub.ptr(v.output), outOff});
                           v.appendEpilogueArgs(ub, args, outOff); // no plane: NHWC needs none
                           ub.call(symbol, args);
                         });
}

KernelOp mlir::mie::lowerDirectConvToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = *op.getTiling();
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  ArrayRef<int64_t> w = *op.getFilterShape();
  const int64_t n = in[0], ch = in[1], h = in[2], wd = in[3], f = out[1], oh = out[2], ow = out[3];
  ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
  // A work item is a band of output rows of one image: nc pixels, whole rows of whole tiles.
  const int64_t band = std::clamp<int64_t>(t.getNc() / llvm::alignTo(ow, t.getNr()), 1, oh),
                bands = llvm::divideCeil(oh, band);
  const int64_t planeFloats = mie_uk_conv_direct_plane_floats(
      ch, w[2], w[3], strides[0], strides[1], dilations[0], dilations[1], ow, t.getNr(), band);
  std::string symbol =
      ukernelSymbol(UKernel::F32ConvDirectNchw, t.getIsa(), t.getMr(), t.getNr());
  return emitPlaneKernel(op, symbols, "conv2d_direct", planeFloats, n * bands,
                  [&](UKernelBuilder &ub, Value item, const PlaneKernelValues &v) {
                    auto [img, oh0, ohn] = rowBand(ub, item, bands, band, oh);
                    Value xOff = ub.i64(ub.mul(img, ch * h * wd)),
                          outOff = ub.i64(ub.mul(img, f * oh * ow));
                    SmallVector<Value> args = {ub.ptr(v.x), xOff, ub.i64(ch), ub.i64(h),
                                               ub.i64(wd)};
                    llvm::append_range(args, windowArgs(ub, op, w));
                    args.append({ub.i64(oh), ub.i64(ow), ub.i64(f), ub.ptr(v.filter), ub.i64(0),
                                 ub.i64(oh0), ub.i64(ohn), ub.ptr(v.output), outOff});
                    v.appendEpilogue(ub, args, outOff);
                    ub.call(symbol, args);
                  });
}

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
  const int64_t wantF = std::clamp<int64_t>(llvm::divideCeil(8, n * pBlocks), 1,
                                            std::max<int64_t>(1, f / 128));
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

KernelOp mlir::mie::lowerWinogradToUKernels(Conv2dOp op, SymbolTable &symbols) {
  TilingAttr t = *op.getTiling();
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  const int64_t n = in[0], ch = in[1], h = in[2], wd = in[3], f = out[1], oh = out[2], ow = out[3];
  // F(m x m, 3x3): m x m output tiles, (m + 2)^2 GEMMs.
  const int64_t outTile = int64_t(*op.getWinograd()), elems = (outTile + 2) * (outTile + 2);
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
  Value vBuf = AllocOp::create(b, loc, MemRefType::get({n * elems * ch * tiles}, b.getF32Type()));
  Value mBuf = AllocOp::create(b, loc, MemRefType::get({n * elems * f * tiles}, b.getF32Type()));
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
        parallelItems(ub, n * cChunks, [&](Value item) {
          Value img = ub.div(item, cChunks), c0 = ub.mul(ub.rem(item, cChunks), cPer);
          Value cn = ub.min(ub.c(cPer), ub.sub(ub.c(ch), c0));
          ub.call(ukernelSymbol(inputTransform, isa),
                  {ub.ptr(x), ub.i64(ub.mul(img, ch * h * wd)), ub.i64(ch), ub.i64(h), ub.i64(wd),
                   ub.i64(pads[0]), ub.i64(pads[1]), ub.i64(th), ub.i64(tw), ub.i64(c0), ub.i64(cn),
                   ub.ptr(v), ub.i64(ub.mul(img, elems * ch * tiles)), ub.ptr(plane)});
        });
        // 2. The GEMMs, items (image x xi, tile block[, filter block]): V read in place (rows
        // `tiles` apart), a block's partial last panel packed; no epilogue.
        parallelItems(ub, n * elems * tBlocks * fItems, [&](Value item) {
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
        parallelItems(ub, n * fChunks, [&](Value item) {
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
  const std::string name = op.getUkernel()->str();
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
          auto ld = [&](int64_t n, int64_t width) { return ub.i64(tokenMajor ? n * width : width); };
          const int64_t kvHeads = heads / group;
          ub.call(name, {ub.ptr(qv), offset(heads, seq, d, h, r0), ld(heads, d), ub.ptr(kv),
                         offset(kvHeads, keys, d, hkv, ub.c(0)), ld(kvHeads, d), ub.ptr(vv),
                         offset(kvHeads, keys, dv, hkv, ub.c(0)), ld(kvHeads, dv), ub.ptr(mask),
                         ub.i64(maskOff), ub.i64(maskStrides[rank - 2]),
                         ub.i64(maskStrides[rank - 1]), ub.ptr(out),
                         offset(heads, seq, dv, h, r0), ld(heads, dv), ub.i64(rows), ub.i64(keys),
                         ub.i64(d), ub.i64(dv), ub.f32(scale), ub.i64(flags), diag,
                         ub.ptr(scratch)});
        });
      });
  op.erase();
  return kernel;
}
