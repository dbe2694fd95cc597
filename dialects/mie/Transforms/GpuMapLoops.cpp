//===- GpuMapLoops.cpp - the mie-gpu-map-loops pass -----------------------===//

#include "dialects/mie/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEGPUMAPLOOPSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// What may be cloned into a launch instead of being passed to it: ops without memory effects and
/// without regions (constants, index arithmetic, views), and stack scratch (each thread gets its
/// own, as each cpu chunk does).
bool isSinkable(Operation *op) {
  return op->getNumRegions() == 0 && (isMemoryEffectFree(op) || isa<memref::AllocaOp>(op));
}

/// `memref.copy %src, %dst` as an `scf.parallel` of loads and stores over `dst`'s shape (layouts
/// may differ: the loop indexes both).
LogicalResult copyToLoops(memref::CopyOp copy) {
  auto type = dyn_cast<MemRefType>(copy.getTarget().getType());
  if (!type || !type.hasStaticShape() || !isa<MemRefType>(copy.getSource().getType()))
    return copy.emitError("mie-gpu-map-loops: only copies of static buffers run on the GPU");
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  if (type.getRank() == 0) {
    Value v = memref::LoadOp::create(b, loc, copy.getSource(), ValueRange{});
    memref::StoreOp::create(b, loc, v, copy.getTarget(), ValueRange{});
    copy.erase();
    return success();
  }
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t dim : type.getShape()) {
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    ubs.push_back(arith::ConstantIndexOp::create(b, loc, dim));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  scf::ParallelOp::create(b, loc, lbs, ubs, steps,
                          [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs) {
                            Value v = memref::LoadOp::create(nested, nestedLoc, copy.getSource(),
                                                             ivs);
                            memref::StoreOp::create(nested, nestedLoc, v, copy.getTarget(), ivs);
                          });
  copy.erase();
  return success();
}

struct MieGpuMapLoopsPass : impl::MieGpuMapLoopsPassBase<MieGpuMapLoopsPass> {
  using Base::Base;

  /// Replaces `loop` by a grid-stride launch over its flattened iteration space.
  void mapLoop(scf::ParallelOp loop) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    // Trip counts, innermost last; the flat count is their product.
    SmallVector<Value> trips;
    Value total = arith::ConstantIndexOp::create(b, loc, 1);
    for (auto [lb, ub, step] :
         llvm::zip_equal(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
      Value span = b.createOrFold<arith::SubIOp>(loc, ub, lb);
      Value trip = b.createOrFold<arith::CeilDivUIOp>(loc, span, step);
      trips.push_back(trip);
      total = b.createOrFold<arith::MulIOp>(loc, total, trip);
    }
    if (std::optional<int64_t> n = getConstantIntValue(total); n && *n <= 0) {
      loop.erase();
      return;
    }
    // Blocks of blockSize threads (fewer for a small static loop, rounded up to a warp).
    Value threads = arith::ConstantIndexOp::create(b, loc, blockSize);
    if (std::optional<int64_t> n = getConstantIntValue(total); n && *n < blockSize)
      threads = arith::ConstantIndexOp::create(b, loc, llvm::alignTo(*n, 32));
    Value blocks = b.createOrFold<arith::CeilDivUIOp>(loc, total, threads);
    blocks = b.createOrFold<arith::MinUIOp>(loc, blocks,
                                            arith::ConstantIndexOp::create(b, loc, maxBlocks));
    blocks = b.createOrFold<arith::MaxUIOp>(loc, blocks,
                                            arith::ConstantIndexOp::create(b, loc, 1));
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one, threads, one, one);

    b.setInsertionPointToStart(&launch.getBody().front());
    Value first = b.createOrFold<arith::AddIOp>(
        loc, b.createOrFold<arith::MulIOp>(loc, launch.getBlockIds().x, launch.getBlockSize().x),
        launch.getThreadIds().x);
    Value stride =
        b.createOrFold<arith::MulIOp>(loc, launch.getGridSize().x, launch.getBlockSize().x);
    auto flatLoop = scf::ForOp::create(b, loc, first, total, stride);
    gpu::TerminatorOp::create(b, loc);

    b.setInsertionPointToStart(flatLoop.getBody());
    // Innermost dimension fastest: neighbouring threads, neighbouring innermost indices.
    IRMapping mapping;
    Value rest = flatLoop.getInductionVar();
    for (int64_t d = int64_t(trips.size()) - 1; d >= 0; --d) {
      Value index = rest;
      if (d > 0) {
        index = b.createOrFold<arith::RemUIOp>(loc, rest, trips[d]);
        rest = b.createOrFold<arith::DivUIOp>(loc, rest, trips[d]);
      }
      Value iv = b.createOrFold<arith::AddIOp>(
          loc, loop.getLowerBound()[d],
          b.createOrFold<arith::MulIOp>(loc, index, loop.getStep()[d]));
      mapping.map(loop.getInductionVars()[d], iv);
    }
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
    loop.erase();
  }

  /// Moves everything but the terminator of `func`'s body into one single-thread launch.
  void runSerially(func::FuncOp func) {
    Block &body = func.getBody().front();
    OpBuilder b(body.getTerminator());
    Location loc = func.getLoc();
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
    Block &launchBody = launch.getBody().front();
    b.setInsertionPointToEnd(&launchBody);
    auto terminator = gpu::TerminatorOp::create(b, loc);
    SmallVector<Operation *> toMove;
    for (Operation &op : body.without_terminator())
      if (&op != launch && &op != one.getDefiningOp())
        toMove.push_back(&op);
    for (Operation *op : toMove)
      op->moveBefore(terminator);
  }

  /// A strided buffer captured by `launch` (a kernel argument that is a view into a padded
  /// buffer) cannot travel as a bare pointer: its base buffer does (a rank-0 buffer at the same
  /// address), and the launch rebuilds the view from the static offset and strides.
  LogicalResult passStridedAsBase(gpu::LaunchOp launch) {
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(launch.getBody(), captured);
    for (Value value : captured) {
      auto type = dyn_cast<MemRefType>(value.getType());
      if (!type || type.getLayout().isIdentity())
        continue;
      SmallVector<int64_t> strides;
      int64_t offset;
      if (!type.hasStaticShape() || failed(type.getStridesAndOffset(strides, offset)) ||
          ShapedType::isDynamic(offset) || llvm::any_of(strides, ShapedType::isDynamic))
        return launch.emitError("mie-gpu-map-loops: cannot pass ")
               << type << " to a kernel (a dynamic layout)";
      OpBuilder b(launch);
      Location loc = launch.getLoc();
      auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, value);
      b.setInsertionPointToStart(&launch.getBody().front());
      Value view = memref::ReinterpretCastOp::create(b, loc, type, metadata.getBaseBuffer(),
                                                     offset, type.getShape(), strides);
      replaceAllUsesInRegionWith(value, view, launch.getBody());
    }
    return success();
  }

  LogicalResult mapFunction(func::FuncOp func) {
    if (func.isExternal())
      return success();
    if (!func.getBody().hasOneBlock())
      return func.emitError("mie-gpu-map-loops: expected a function of one block");
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies)
      if (failed(copyToLoops(copy)))
        return failure();

    Block &body = func.getBody().front();
    SmallVector<scf::ParallelOp> loops;
    Operation *other = nullptr;
    bool hasCalls = false;
    for (Operation &op : body.without_terminator()) {
      if (auto loop = dyn_cast<scf::ParallelOp>(op); loop && loop.getNumResults() == 0)
        loops.push_back(loop);
      else if (isa<func::CallOp>(op) || isGpuLibraryCall(&op))
        hasCalls = true; // host calls: kernel launches of their own, or a GPU library's
      else if (!isSinkable(&op) && !other)
        other = &op;
    }
    // Stack scratch is cloned into each launch that uses it: one that several top-level ops share
    // carries data between them and must stay one buffer, so the kernel runs serially.
    for (auto alloca : body.getOps<memref::AllocaOp>()) {
      SmallPtrSet<Operation *, 2> users;
      for (Operation *user : alloca->getUsers())
        users.insert(body.findAncestorOpInBlock(*user));
      if (users.size() > 1 && !other)
        other = alloca;
    }
    if (other) {
      // Kernels only: an entry's calls launch kernels of their own and must stay on the host.
      if (hasCalls)
        return other->emitError("mie-gpu-map-loops: cannot run this op on the GPU next to "
                                "kernel launches in '")
               << func.getSymName() << "'";
      runSerially(func);
    } else {
      for (scf::ParallelOp loop : loops)
        mapLoop(loop);
    }
    SmallVector<gpu::LaunchOp> launches(body.getOps<gpu::LaunchOp>());
    for (gpu::LaunchOp launch : launches) {
      if (failed(sinkOperationsIntoLaunchOp(launch, isSinkable)))
        return launch.emitError("mie-gpu-map-loops: cannot sink the launch's operands");
      if (failed(passStridedAsBase(launch)))
        return failure();
    }
    // What was cloned into the launches is dead on the host now.
    SmallVector<Operation *> hostOps;
    for (Operation &op : body.without_terminator())
      hostOps.push_back(&op);
    for (Operation *op : llvm::reverse(hostOps))
      if (isSinkable(op) && op->use_empty())
        op->erase();
    return success();
  }

  void runOnOperation() override {
    for (auto func : llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>()))
      if (failed(mapFunction(func)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mie
