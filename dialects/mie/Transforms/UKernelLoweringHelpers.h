//===- UKernelLoweringHelpers.h - what the microkernel lowerings share -*- C++ -*-===//
//
// The builder of microkernel calls inside a kernel body, the epilogue as microkernel flags, the
// K-block loop, panel groups, convolution windows and packing, per-item parallel loops and the
// per-item convolution kernel (depthwise, direct): shared by the lowering families
// (ConvUKernelLowering.cpp, GemmUKernelLowering.cpp, DepthwiseUKernelLowering.cpp,
// PoolUKernelLowering.cpp, QuantizedUKernelLowering.cpp, WinogradUKernelLowering.cpp,
// AttentionUKernelLowering.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TRANSFORMS_UKERNELLOWERINGHELPERS_H
#define MIE_TRANSFORMS_UKERNELLOWERINGHELPERS_H

#include "UKernelLowering.h"

#include "dialects/mie/Utils/KernelBuilders.h"
#include "dialects/mie/Utils/SymbolicDims.h"

#include "mie/Target/UKernelRegistry.h"
#include "runtime/include/mie/mie_ukernel_abi.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>
#include <tuple>

namespace mlir::mie::ukernel_lowering {

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
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
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

/// An index of a lowering: a constant where the shapes are static (the IR then holds the
/// constant, as for every static product), else a value computed in the kernel body from the
/// buffers' run-time dims (code for symbolic dims).
struct Extent {
  int64_t constant = 0;
  Value value;

  /// Dim `d` of `buffer`: its static size, or memref.dim.
  static Extent dimOf(UKernelBuilder &ub, Value buffer, int64_t d) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.isDynamicDim(d))
      return {type.getDimSize(d), Value()};
    return {0, memref::DimOp::create(ub.b, ub.loc, buffer, d)};
  }

  bool isConstant() const { return !value; }
  Value get(UKernelBuilder &ub) const { return value ? value : ub.c(constant); }
  /// As a microkernel argument (i64).
  Value i64(UKernelBuilder &ub) const { return value ? ub.i64(value) : ub.i64(constant); }
  Extent times(UKernelBuilder &ub, const Extent &other) const {
    if (isConstant() && other.isConstant())
      return {constant * other.constant, Value()};
    if (isConstant() && constant == 1)
      return other;
    if (other.isConstant() && other.constant == 1)
      return *this;
    return {0, ub.mul(get(ub), other.get(ub))};
  }
  /// x * this.
  Value scale(UKernelBuilder &ub, Value x) const {
    return isConstant() ? ub.mul(x, constant) : ub.mul(x, value);
  }
  /// ceil(x / this).
  Value divideCeil(UKernelBuilder &ub, Value x) const {
    return isConstant() ? ub.ceilDiv(x, constant)
                        : ub.div(ub.add(x, ub.sub(value, ub.c(1))), value);
  }
  /// ceil(this / y).
  Extent ceilDiv(UKernelBuilder &ub, int64_t y) const {
    if (isConstant())
      return {(int64_t)llvm::divideCeil(constant, y), Value()};
    return {0, ub.ceilDiv(value, y)};
  }
};

/// A library op's epilogue as microkernel arguments: the constant part of the flags (applied
/// with the last K block) and the clamp bounds (0, 0 without a clamp).
struct TileEpilogue {
  int64_t flags;
  double lo, hi;
};

inline TileEpilogue tileEpilogue(EpilogueAttr epilogue, Value bias, Value residual,
                                 bool biasPerColumn) {
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
inline void emitKBlocks(UKernelBuilder &ub, int64_t k, int64_t kc, int64_t epiFlags,
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

/// emitKBlocks over a K known at run time only (code for symbolic dims): always the loop over
/// ceil(k / kc) blocks, the epilogue with the block the run finds last.
inline void emitRunTimeKBlocks(UKernelBuilder &ub, Value k, int64_t kc, int64_t epiFlags,
                               function_ref<void(Value k0, Value kcur)> pack,
                               function_ref<void(Value k0, Value kcur, Value flags)> tiles) {
  Value blocks = ub.ceilDiv(k, kc);
  Value lastBlock = ub.sub(blocks, ub.c(1));
  ub.loop(ub.c(0), blocks, [&](Value kb) {
    Value k0 = ub.mul(kb, kc);
    Value kcur = ub.min(ub.c(kc), ub.sub(k, k0));
    pack(k0, kcur);
    Value acc =
        arith::SelectOp::create(ub.b, ub.loc, ub.eq(kb, 0), ub.i64(0), ub.i64(MIE_UK_ACCUMULATE));
    Value last = arith::CmpIOp::create(ub.b, ub.loc, arith::CmpIPredicate::eq, kb, lastBlock);
    auto ifOp = scf::IfOp::create(ub.b, ub.loc, last, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(ub.b);
    ub.b.setInsertionPointToStart(ifOp.thenBlock());
    tiles(k0, kcur, arith::OrIOp::create(ub.b, ub.loc, acc, ub.i64(epiFlags)));
    ub.b.setInsertionPointToStart(ifOp.elseBlock());
    tiles(k0, kcur, acc);
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
inline Value stackBuffer(OpBuilder &b, Location loc, int64_t floats) {
  return memref::AllocaOp::create(b, loc, MemRefType::get({floats}, b.getF32Type()),
                                  b.getI64IntegerAttr(64));
}

inline KernelOperands collectOperands(Value x, Value w, Value bias, Value residual) {
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
inline void allowResidualInPlace(KernelOp kernel, const KernelOperands &operands,
                                 bool readBeforeWritten) {
  if (operands.residualIndex < 0 || !readBeforeWritten)
    return;
  kernel->setAttr(
      MieDialect::getInPlaceInputAttrName(),
      IntegerAttr::get(IntegerType::get(kernel.getContext(), 64), operands.residualIndex));
}

/// Filter panels [begin, end) of group `group`: `perGroup` panels each, the last one cut at
/// `panels`.
inline std::pair<Value, Value> panelGroup(UKernelBuilder &ub, Value group, int64_t perGroup,
                                          int64_t panels) {
  Value begin = ub.mul(group, perGroup);
  return {begin, ub.min(ub.add(begin, ub.c(perGroup)), ub.c(panels))};
}

/// Runs `body(begin, end)` on the filter panel groups of a work item: the one group `group` when
/// items are split by filter group (`items` > 1), else every group in turn.
inline void forPanelGroups(UKernelBuilder &ub, int64_t items, Value group, int64_t groups,
                           int64_t perGroup, int64_t panels,
                           function_ref<void(Value, Value)> body) {
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
inline SmallVector<Value> windowArgs(UKernelBuilder &ub, Conv2dOp op,
                                     ArrayRef<int64_t> filterShape) {
  ArrayRef<int64_t> s = op.getStrides(), p = op.getPads(), d = op.getDilations();
  return {ub.i64(filterShape[2]), ub.i64(filterShape[3]), ub.i64(s[0]), ub.i64(s[1]),
          ub.i64(p[0]),           ub.i64(p[1]),           ub.i64(d[0]), ub.i64(d[1])};
}

/// A 1x1 window with strides 1 and no padding (dilation is then irrelevant): output pixel p reads
/// input pixel p of every channel.
inline bool isPointwiseWindow(Conv2dOp op, ArrayRef<int64_t> filterShape) {
  return filterShape[2] == 1 && filterShape[3] == 1 &&
         llvm::all_of(op.getStrides(), [](int64_t v) { return v == 1; }) &&
         llvm::all_of(op.getPads(), [](int64_t v) { return v == 0; });
}

/// Calls the convolution packing of `op` (logical filter shape `w`): pixel panels `width` wide of
/// pixels [p0, p0 + np) of image `img` of `x`, K rows [k0, k0 + kc), at `dstOff` of `dst`.
inline void packConvPanels(UKernelBuilder &ub, Conv2dOp op, ArrayRef<int64_t> w, StringRef isa,
                           Value x, Value img, Value p0, Value np, Value k0, Value kc,
                           int64_t width, Value dst, Value dstOff) {
  ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(op.getOutput().getType()).getShape();
  SmallVector<Value> args = {ub.ptr(x), ub.i64(ub.mul(img, in[1] * in[2] * in[3])), ub.i64(in[1]),
                             ub.i64(in[2]), ub.i64(in[3])};
  llvm::append_range(args, windowArgs(ub, op, w));
  args.append({ub.i64(out[3]), ub.i64(p0), ub.i64(np), ub.i64(k0), ub.i64(kc), ub.i64(width),
               ub.ptr(dst), ub.i64(dstOff)});
  // The f16 tiles' panels hold f16 (the same layout).
  ub.call(isa == "neon_f16" ? ukernelSymbol(UKernel::F16PackConvNchw, "neon")
                            : ukernelSymbol(UKernel::F32PackConvNchw, isa),
          args);
}

/// Channels per work item of a per-channel loop (depthwise, Winograd transforms): at most about 16K
/// pixels' worth, so an item stays small against the pool's dispatch, and at most C / 16, so there
/// are items for every thread.
inline int64_t channelsPerItem(int64_t channels, int64_t pixels) {
  int64_t bySize = (1 << 14) / std::max<int64_t>(1, pixels);
  int64_t byCount = channels / 16;
  return std::clamp<int64_t>(std::min(bySize, byCount), 1, channels);
}

/// A top-level scf.parallel over [0, count) whose body `body(item)` builds; returns after it.
inline void parallelItems(UKernelBuilder &ub, Value count, function_ref<void(Value)> body) {
  auto par = scf::ParallelOp::create(ub.b, ub.loc, ValueRange{ub.c(0)}, ValueRange{count},
                                     ValueRange{ub.c(1)});
  OpBuilder::InsertionGuard guard(ub.b);
  ub.b.setInsertionPointToStart(par.getBody());
  body(par.getInductionVars()[0]);
}

inline void parallelItems(UKernelBuilder &ub, int64_t count, function_ref<void(Value)> body) {
  parallelItems(ub, ub.c(count), body);
}

/// `perImage` work items for every image of `buffer` (its dim 0): a constant where the batch is
/// static, else computed from the run's batch (code for symbolic dims).
inline Value imageItems(UKernelBuilder &ub, Value buffer, int64_t perImage) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.isDynamicDim(0))
    return ub.c(type.getDimSize(0) * perImage);
  return ub.mul(memref::DimOp::create(ub.b, ub.loc, buffer, 0), perImage);
}

/// An arena buffer of f32 words for a run-time extent, dim `d` of `buffer` (code for symbolic
/// dims): the least of `words` of that extent (expressions of d0), computed by an affine.apply
/// (one) or affine.min, which memory planning reads back as expressions of the symbols.
inline Value allocWordsOf(OpBuilder &b, Location loc, Value buffer, int64_t d,
                          ArrayRef<AffineExpr> words) {
  Value extent = memref::DimOp::create(b, loc, buffer, d);
  Value size = createLeast(b, loc, AffineMap::get(1, 0, words, b.getContext()), extent);
  return AllocOp::create(b, loc, MemRefType::get({ShapedType::kDynamic}, b.getF32Type()),
                         ValueRange{size}, IntegerAttr());
}

/// An arena buffer of `wordsPerImage` f32 words for every image of `buffer` (its dim 0), sized
/// for the run's batch where it is a run-time extent.
inline Value allocPerImage(OpBuilder &b, Location loc, Value buffer, int64_t wordsPerImage) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.isDynamicDim(0))
    return AllocOp::create(b, loc,
                           MemRefType::get({type.getDimSize(0) * wordsPerImage}, b.getF32Type()));
  return allocWordsOf(b, loc, buffer, 0, getAffineDimExpr(0, b.getContext()) * wordsPerImage);
}

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
inline std::tuple<Value, Value, Value> rowBand(UKernelBuilder &ub, Value item, int64_t bands,
                                               int64_t band, int64_t oh) {
  Value img = ub.div(item, bands), oh0 = ub.mul(ub.rem(item, bands), band);
  return {img, oh0, ub.min(ub.c(band), ub.sub(ub.c(oh), oh0))};
}

/// Replaces `op` by `mie.kernel name` over its operands: a stack plane of `planeFloats` floats
/// (none when 0) and one parallel loop over `itemsPerImage` items per image whose body `item(ub,
/// index, values)` emits the microkernel call (the depthwise and direct convolutions: each item
/// pads its own input rows into the plane).
inline KernelOp
emitPlaneKernel(Conv2dOp op, SymbolTable &symbols, StringRef name, int64_t planeFloats,
                int64_t itemsPerImage,
                function_ref<void(UKernelBuilder &, Value, const PlaneKernelValues &)> item) {
  KernelOperands operands =
      collectOperands(op.getInput(), op.getFilter(), op.getBias(), op.getResidual());
  PlaneKernelValues v;
  v.epilogue =
      tileEpilogue(op.getEpilogue(), op.getBias(), op.getResidual(), /*biasPerColumn=*/false);
  OpBuilder b(op);
  KernelOp kernel =
      KernelOp::create(b, op.getLoc(), name, operands.ins, op.getOutput(),
                       [&](OpBuilder &kb, Location kl, ValueRange args) {
                         UKernelBuilder ub{kb, kl, symbols};
                         v.x = args[0];
                         v.filter = args[1];
                         v.output = args.back();
                         v.bias = operands.bias(args, v.output);
                         v.residual = operands.residual(args, v.output);
                         if (planeFloats > 0)
                           v.plane = stackBuffer(kb, kl, planeFloats);
                         parallelItems(ub, imageItems(ub, v.x, itemsPerImage),
                                       [&](Value index) { item(ub, index, v); });
                       });
  op.erase();
  return kernel;
}

} // namespace mlir::mie::ukernel_lowering

#endif // MIE_TRANSFORMS_UKERNELLOWERINGHELPERS_H
