//===- PlanMemory.cpp - the mie-plan-memory pass --------------------------===//

#include "dialects/mie/Transforms/ArenaPlanner.h"
#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/BufferAliasing.h"
#include "dialects/mie/Utils/KernelLaunches.h"
#include "dialects/mie/Utils/ProgramOrder.h"
#include "dialects/mie/Utils/SymbolicDims.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <numeric>

namespace mlir::mie {
#define GEN_PASS_DEF_MIEPLANMEMORYPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Buffers listed at the peak in the summary, largest first.
constexpr size_t kPeakBuffersListed = 5;

/// For each buffer, the buffer whose bytes it takes over in place (its own index if none): an
/// output first written by a kernel at which one of its inputs, of the same type, is read for the
/// last time, where the kernel reads each input element just before writing the same output
/// element (mayWriteInPlace: an elementwise kernel, or a residual read in a tile's epilogue). Either
/// may be passed as a collapse or expand of the whole buffer (a GEMM's 2-D view of an image), and
/// `firstTouch` ignores such views, which touch no memory. Requests of buffers that take over
/// another's bytes are folded into that one's (its lifetime now ends where theirs does). Only
/// buffers allocated in the kernel's own block qualify: one defined outside a loop around the
/// kernel outlives the iteration, one defined inside lives only in it. Buffers of dynamic dims
/// qualify where their bytes are one expression of the symbols (`sizeExprs`): one type's dynamic
/// dims may differ in extent.
SmallVector<size_t> shareInPlace(const ProgramOrder &order, ArrayRef<AllocOp> allocs,
                                 const DenseMap<Value, size_t> &bufferIndex,
                                 ArrayRef<int64_t> firstTouch,
                                 ArrayRef<SmallVector<AffineExpr>> sizeExprs,
                                 std::vector<BufferRequest> &requests) {
  SmallVector<size_t> owner(requests.size());
  std::iota(owner.begin(), owner.end(), 0);
  auto index = [&](Value operand) -> std::optional<size_t> {
    while (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(
        operand.getDefiningOp()))
      operand = operand.getDefiningOp()->getOperand(0);
    auto it = bufferIndex.find(operand);
    if (it == bufferIndex.end())
      return std::nullopt;
    return owner[it->second];
  };
  for (auto [at, op] : llvm::enumerate(order.ops())) {
    auto kernel = dyn_cast<KernelOp>(op);
    if (!kernel)
      continue;
    SmallVector<size_t> taken;
    for (auto [outputIndex, output] : llvm::enumerate(kernel.getOutputs())) {
      std::optional<size_t> out = index(output);
      if (!out || firstTouch[*out] != int64_t(at) ||
          allocs[*out]->getBlock() != kernel->getBlock())
        continue;
      for (auto [inputIndex, input] : llvm::enumerate(kernel.getInputs())) {
        std::optional<size_t> in = index(input);
        if (!in || *in == *out || requests[*in].lastUse != int64_t(at) ||
            llvm::is_contained(taken, *in) || allocs[*in]->getBlock() != kernel->getBlock())
          continue;
        if (sizeExprs[*in] != sizeExprs[*out] ||
            !mayWriteInPlace(kernel, inputIndex, outputIndex))
          continue;
        BufferRequest &kept = requests[*in];
        kept.lastUse = std::max(kept.lastUse, requests[*out].lastUse);
        kept.alignment = std::max(kept.alignment, requests[*out].alignment);
        for (size_t &o : owner)
          if (o == *out)
            o = *in;
        taken.push_back(*in);
        break;
      }
    }
  }
  return owner;
}

/// The plan's bounds for reports (`mie.memory`): the lower bound, the bytes without reuse, the
/// buffers written in place, and the largest buffers live at the peak with the ONNX nodes that
/// produce them.
DictionaryAttr summarize(MLIRContext *ctx, const std::vector<BufferRequest> &requests,
                         ArrayRef<Location> locs, const ArenaPlan &plan, int64_t naive,
                         int64_t inPlace) {
  Builder b(ctx);
  ArenaBounds bounds = arenaBounds(requests);
  SmallVector<size_t> live;
  for (size_t i = 0; i < requests.size(); ++i)
    if (requests[i].firstUse <= bounds.peakOp && bounds.peakOp <= requests[i].lastUse)
      live.push_back(i);
  llvm::sort(live, [&](size_t a, size_t b) {
    return requests[a].size != requests[b].size ? requests[a].size > requests[b].size : a < b;
  });
  if (live.size() > kPeakBuffersListed)
    live.resize(kPeakBuffersListed);
  SmallVector<Attribute> peak;
  for (size_t i : live) {
    SmallVector<StringRef> nodes = sourceNodeNames(locs[i]);
    std::string name = nodes.empty() ? "" : llvm::join(nodes, ",");
    peak.push_back(b.getArrayAttr({b.getI64IntegerAttr(requests[i].size), b.getStringAttr(name)}));
  }
  // Every buffer, for the memory plot: offset, size, first and last op, and its ONNX nodes.
  SmallVector<int64_t> buffers;
  SmallVector<Attribute> bufferNodes;
  for (auto [i, req] : llvm::enumerate(requests)) {
    buffers.append({plan.offsets[i], req.size, req.firstUse, req.lastUse});
    bufferNodes.push_back(b.getStringAttr(llvm::join(sourceNodeNames(locs[i]), ",")));
  }
  return b.getDictionaryAttr({b.getNamedAttr("buffers", b.getDenseI64ArrayAttr(buffers)),
                              b.getNamedAttr("buffer_nodes", b.getArrayAttr(bufferNodes)),
                              b.getNamedAttr("peak_op", b.getI64IntegerAttr(bounds.peakOp)),
                              b.getNamedAttr("heuristic", b.getStringAttr(plan.heuristic)),
                              b.getNamedAttr("optimal", b.getBoolAttr(plan.optimal)),
                              b.getNamedAttr("lower_bound", b.getI64IntegerAttr(bounds.lowerBound)),
                              b.getNamedAttr("in_place", b.getI64IntegerAttr(inPlace)),
                              b.getNamedAttr("naive", b.getI64IntegerAttr(naive)),
                              b.getNamedAttr("peak", b.getArrayAttr(peak))});
}

/// The bytes of a buffer with dynamic dims over the function's symbols, as the least of some
/// expressions (one, unless a size is an affine.min: symbolicMinExprs); empty where a size is no
/// such expression.
SmallVector<AffineExpr> bytesExpr(AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.getElementType().isIntOrFloat())
    return {};
  // min(a, b) x c is min(a x c, b x c): sizes are never negative.
  SmallVector<AffineExpr> bytes = {getAffineConstantExpr(
      std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1), alloc.getContext())};
  unsigned next = 0;
  for (int64_t size : type.getShape()) {
    SmallVector<AffineExpr> dims =
        ShapedType::isDynamic(size)
            ? symbolicMinExprs(alloc.getDynamicSizes()[next++])
            : SmallVector<AffineExpr>{getAffineConstantExpr(size, alloc.getContext())};
    if (dims.empty())
      return {};
    SmallVector<AffineExpr> products;
    for (AffineExpr b : bytes)
      for (AffineExpr d : dims)
        products.push_back(b * d);
    bytes = std::move(products);
  }
  return bytes;
}

/// The least of `exprs` at the symbols' `values`.
int64_t evaluateLeast(ArrayRef<AffineExpr> exprs, ArrayRef<int64_t> values) {
  int64_t least = INT64_MAX;
  for (AffineExpr e : exprs)
    least = std::min(least, evaluateSymbolic(e, values));
  return least;
}

/// Code for symbolic dims (docs/dynamic-shapes.md): the buffers get a stacked plan
/// (planStackedArena) chosen on samples of the symbols' ranges, whose offsets the function computes
/// from the run's symbols at its start; the arena argument is its pointer alone, seen as an arena
/// of the plan's total for the run (mie-bind-symbols gives the runtime that total as
/// `mie_arena_bytes`). `requests` and `sizeExprs` are the buffers that own their bytes; buffer `i`
/// of `allocs` takes those of `owned[i]` (itself, or the buffer it is written in place over);
/// `locs` name the owners in reports.
LogicalResult planSymbolic(func::FuncOp func, ArrayRef<AllocOp> allocs, ArrayRef<size_t> owned,
                           const std::vector<BufferRequest> &requests,
                           ArrayRef<SmallVector<AffineExpr>> sizeExprs, ArrayRef<Location> locs) {
  MLIRContext *ctx = func.getContext();
  auto ranges = func->getAttrOfType<DenseI64ArrayAttr>(MieDialect::getSymbolRangesAttrName());
  auto symbols = func->getAttrOfType<ArrayAttr>("ms.symbols");
  if (!ranges || !symbols || ranges.size() != int64_t(2 * symbols.size()))
    return func.emitError("mie-plan-memory: buffers with symbolic dims need the function's '")
           << MieDialect::getSymbolRangesAttrName() << "'";
  std::vector<std::vector<BufferRequest>> samples;
  std::vector<std::vector<int64_t>> points = rangeSamples(ranges.asArrayRef());
  for (const std::vector<int64_t> &point : points) {
    samples.push_back(requests);
    for (auto [req, expr] : llvm::zip(samples.back(), sizeExprs))
      req.size = evaluateLeast(expr, point);
  }
  StackedArenaPlan plan = planStackedArena(samples);

  // Offsets in plan order from the symbols' values; the total last.
  auto emitPlan = [&](OpBuilder &b, Location loc, SmallVector<Value> &offsets) -> Value {
    SmallVector<Value> values;
    for (unsigned s = 0; s < symbols.size(); ++s)
      values.push_back(SymbolOp::create(b, loc, b.getIndexType(), b.getI64IntegerAttr(s)));
    SmallVector<Value> bytes(requests.size());
    offsets.assign(requests.size(), Value());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0), total = zero;
    for (size_t i : plan.order) {
      bytes[i] = createLeast(
          b, loc, AffineMap::get(0, symbols.size(), sizeExprs[i], b.getContext()), values);
      Value top = zero;
      for (size_t j : plan.below[i])
        top = arith::MaxUIOp::create(b, loc, top,
                                     arith::AddIOp::create(b, loc, offsets[j], bytes[j]));
      // Rounded up to the alignment: (top + a - 1) / a * a.
      Value align = arith::ConstantIndexOp::create(b, loc, requests[i].alignment);
      Value up = arith::AddIOp::create(
          b, loc, top, arith::ConstantIndexOp::create(b, loc, requests[i].alignment - 1));
      offsets[i] = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, up, align), align);
      total = arith::MaxUIOp::create(b, loc, total,
                                     arith::AddIOp::create(b, loc, offsets[i], bytes[i]));
    }
    return total;
  };

  // The arena argument: its pointer alone, seen as the run's arena of `total` bytes.
  unsigned argIndex = func.getNumArguments();
  if (failed(func.insertArgument(
          argIndex, MemRefType::get({1}, IntegerType::get(ctx, 8)),
          slotArgAttrs(ctx, "arena"),
          func.getLoc())))
    return failure();
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  SmallVector<Value> offsets;
  Value total = emitPlan(b, func.getLoc(), offsets);
  Value arena = memref::ReinterpretCastOp::create(
      b, func.getLoc(), MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8)),
      func.getArgument(argIndex), OpFoldResult(b.getIndexAttr(0)), ArrayRef<OpFoldResult>{total},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  for (auto [index, constAlloc] : llvm::enumerate(allocs)) {
    AllocOp alloc = constAlloc;
    OpBuilder ab(alloc);
    Value view = memref::ViewOp::create(ab, alloc.getLoc(), alloc.getType(), arena,
                                        offsets[owned[index]], alloc.getDynamicSizes());
    alloc.replaceAllUsesWith(view);
    alloc.erase();
  }
  // The plan at the ranges' largest shape, for the reports.
  size_t largest = 0;
  int64_t largestBytes = -1;
  for (auto [k, sample] : llvm::enumerate(samples)) {
    int64_t sampleBytes = plan.evaluate(sample).totalBytes;
    if (sampleBytes > largestBytes) {
      largestBytes = sampleBytes;
      largest = k;
    }
  }
  ArenaPlan evaluated = plan.evaluate(samples[largest]);
  evaluated.heuristic = "stacked over the symbols' ranges (worst ratio to the lower bound " +
                        std::to_string(plan.worstRatio).substr(0, 5) + ")";
  func->setAttr(MieDialect::getMemoryAttrName(),
                summarize(ctx, samples[largest], locs, evaluated,
                          arenaBounds(samples[largest]).naive,
                          int64_t(allocs.size() - requests.size())));
  return success();
}

struct MiePlanMemoryPass : impl::MiePlanMemoryPassBase<MiePlanMemoryPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (func.isPrivate()) {
      // The arena is an argument of the entry function; a private function would need it passed
      // through every call.
      if (!func.getBody().getOps<AllocOp>().empty()) {
        func.emitError("mie-plan-memory: buffers in private function '")
            << func.getSymName() << "' cannot be planned (only public functions own an arena)";
        return signalPassFailure();
      }
      return;
    }
    if (!func.getBody().hasOneBlock()) {
      func.emitError("mie-plan-memory expects a single-block function");
      return signalPassFailure();
    }
    // Program points: the ops in order, those in the regions of control flow included (the
    // allocations erased below are never a last use).
    ProgramOrder order(func.getBody());
    SmallVector<Operation *> ops(order.ops());
    SmallVector<AllocOp> candidates;
    for (Operation *op : ops)
      if (auto alloc = dyn_cast<AllocOp>(op))
        candidates.push_back(alloc);

    SmallVector<AllocOp> allocs;
    std::vector<BufferRequest> requests;
    // Bytes over the function's symbols (a constant if static; the least of several where a
    // size is an affine.min).
    SmallVector<SmallVector<AffineExpr>> sizeExprs;
    SmallVector<int64_t> firstTouch; // the first op that is not a view of the buffer
    for (AllocOp alloc : candidates) {
      if (alloc->use_empty()) {
        alloc.erase();
        continue;
      }
      std::optional<int64_t> bytes = bufferBytes(alloc.getType());
      SmallVector<AffineExpr> symbolicBytes = bytes ? SmallVector<AffineExpr>() : bytesExpr(alloc);
      if (!bytes && symbolicBytes.empty()) {
        alloc.emitError("mie-plan-memory: cannot size a buffer of ") << alloc.getType();
        return signalPassFailure();
      }
      BufferRequest req;
      req.size = bytes ? *bytes : 0;
      sizeExprs.push_back(
          bytes ? SmallVector<AffineExpr>{getAffineConstantExpr(*bytes, &getContext())}
                : symbolicBytes);
      // Never less than the element size, so every element access stays naturally aligned.
      req.alignment = std::max<int64_t>(
          alloc.getAlignment(),
          std::max<int64_t>(alloc.getType().getElementTypeBitWidth() / 8, 1));
      req.firstUse = INT64_MAX;
      req.lastUse = -1;
      int64_t touch = INT64_MAX;
      // Uses of the buffer and of every view of it (collapse/expand/subview/...) keep it alive.
      SmallVector<Value> aliases = {alloc.getResult()};
      while (!aliases.empty()) {
        Value value = aliases.pop_back_val();
        for (Operation *user : value.getUsers()) {
          Operation *top = order.numberedAncestor(user);
          if (!top || isa<func::ReturnOp, func::CallOp>(top)) {
            user->emitError("mie-plan-memory: buffer escapes its function through this op");
            return signalPassFailure();
          }
          auto [first, last] = order.useRange(alloc, user);
          req.firstUse = std::min(req.firstUse, first);
          req.lastUse = std::max(req.lastUse, last);
          if (top == user && isa<ViewLikeOpInterface>(user))
            llvm::append_range(aliases, user->getResults());
          else if (top != user || !isa<memref::DimOp>(user)) // an extent: no bytes
            touch = std::min(touch, order.positionOf(top));
        }
      }
      allocs.push_back(alloc);
      requests.push_back(req);
      firstTouch.push_back(touch);
    }

    DenseMap<Value, size_t> bufferIndex;
    for (auto [index, alloc] : llvm::enumerate(allocs))
      bufferIndex[alloc.getResult()] = index;
    const int64_t naive = arenaBounds(requests).naive;
    SmallVector<size_t> owner =
        shareInPlace(order, allocs, bufferIndex, firstTouch, sizeExprs, requests);
    // Pack the buffers that own their bytes; the others take their owner's offset.
    std::vector<BufferRequest> packed;
    SmallVector<SmallVector<AffineExpr>> packedSizeExprs;
    SmallVector<size_t> packedIndex(allocs.size());
    SmallVector<Location> packedLocs;
    for (size_t i = 0; i < allocs.size(); ++i) {
      if (owner[i] != i)
        continue;
      packedIndex[i] = packed.size();
      packed.push_back(requests[i]);
      packedSizeExprs.push_back(sizeExprs[i]);
      packedLocs.push_back(allocs[i].getLoc());
    }
    if (llvm::any_of(sizeExprs, [](ArrayRef<AffineExpr> e) {
          return e.size() != 1 || !isa<AffineConstantExpr>(e.front());
        })) {
      SmallVector<size_t> owned;
      for (size_t i = 0; i < allocs.size(); ++i)
        owned.push_back(packedIndex[owner[i]]);
      if (failed(planSymbolic(func, allocs, owned, packed, packedSizeExprs, packedLocs)))
        return signalPassFailure();
      return;
    }
    ArenaPlan plan = planArena(packed);
    MLIRContext *ctx = &getContext();
    auto arenaType = MemRefType::get({plan.totalBytes}, IntegerType::get(ctx, 8));
    unsigned argIndex = func.getNumArguments();
    if (failed(func.insertArgument(
            argIndex, arenaType,
            slotArgAttrs(ctx, "arena"),
            func.getLoc())))
      return signalPassFailure();
    Value arena = func.getArgument(argIndex);
    for (auto [index, alloc] : llvm::enumerate(allocs)) {
      OpBuilder b(alloc);
      int64_t offset = plan.offsets[packedIndex[owner[index]]];
      Value view = ViewOp::create(b, alloc.getLoc(), alloc.getType(), arena,
                                  b.getI64IntegerAttr(offset), UnitAttr());
      alloc.replaceAllUsesWith(view);
      alloc.erase();
    }
    // Where each buffer (with the buffers written in place over it) is used for the last time.
    // A buffer alive to the end of a loop dies at the loop's terminator, which launches nothing:
    // its bytes are not listed (they serve --poison-dead-buffers, a check).
    DenseMap<Operation *, SmallVector<int64_t>> deadAfter;
    for (auto [index, req] : llvm::enumerate(packed))
      if (!ops[req.lastUse]->hasTrait<OpTrait::IsTerminator>())
        deadAfter[ops[req.lastUse]].append({plan.offsets[index], req.size});
    for (auto &[op, ranges] : deadAfter)
      op->setAttr(MieDialect::getDeadAfterAttrName(), DenseI64ArrayAttr::get(ctx, ranges));
    func->setAttr(MieDialect::getArenaBytesAttrName(),
                  IntegerAttr::get(IntegerType::get(ctx, 64), plan.totalBytes));
    func->setAttr(MieDialect::getMemoryAttrName(), summarize(ctx, packed, packedLocs, plan, naive,
                                                            int64_t(allocs.size() - packed.size())));
  }
};

} // namespace
} // namespace mlir::mie
