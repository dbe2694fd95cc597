//===- MsToMieControlFlow.cpp - ms.if / ms.loop / ms.scan -> scf ----------===//
//
// Control flow runs natively: ms.if becomes scf.if on the condition's element, ms.loop an scf.for
// (trip count only) or scf.while (with a condition), ms.scan an scf.for over the sequence. The
// kernels of the regions are lowered in place by the other patterns, inside the scf regions.
//
// Buffers (destination-passing): the results of a region op are buffers allocated before it. A
// branch or body ends by copying what it yields into them (ms.region_yield becomes copy kernels);
// loop-carried values live in their result buffers, which the body reads as its arguments and
// overwrites at the end of each iteration; a scan output gets the element of step t written at
// row t. The iteration number is a 0-d i64 buffer that the loop stores into at the start of each
// iteration and that the slicing kernels read. mie-plan-memory keeps every buffer defined outside
// a loop and used in it alive over the whole loop (dialects/mie/Utils/ProgramOrder.h).
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

/// Where one yielded value goes: all of `dest`, or (with `counter`) the slice of `dest` at the
/// iteration number along `axis` (counted from the end when `reverse`).
struct YieldTarget {
  Value dest;
  Value counter;
  int64_t axis = 0;
  bool reverse = false;
};

/// What each ms.region_yield does, recorded by its parent's pattern (which runs first: the
/// conversion visits ops in pre-order) for the yield's own pattern.
struct YieldPlans {
  DenseMap<Operation *, SmallVector<YieldTarget>> targets;
};

/// The one element of a buffer (any rank, one element) as a scalar.
Value loadElement(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return memref::LoadOp::create(b, loc, buffer, SmallVector<Value>(type.getRank(), zero));
}

/// The iteration number read from `counter` inside a kernel, as an index (from the end of
/// `length` elements when `reverse`).
Value readCounter(OpBuilder &b, Location loc, Value counter, int64_t length, bool reverse) {
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), loadElement(b, loc, counter));
  if (!reverse)
    return i;
  return arith::SubIOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, length - 1), i);
}

/// `ivs` with `index` inserted at `axis`.
SmallVector<Value> withIndex(ValueRange ivs, int64_t axis, Value index) {
  SmallVector<Value> out(ivs);
  out.insert(out.begin() + axis, index);
  return out;
}

/// slice = source[..., i, ...] (i along `axis`, from `counter`).
void buildExtractKernel(OpBuilder &b, Location loc, Value source, Value counter, Value slice,
                        int64_t axis, bool reverse) {
  int64_t length = cast<MemRefType>(source.getType()).getDimSize(axis);
  KernelOp::create(
      b, loc, "scan_slice", ValueRange{source, counter}, slice,
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        Value i = readCounter(kb, kl, args[1], length, reverse);
        auto shape = cast<MemRefType>(args[2].getType()).getShape();
        buildLoopNest(kb, kl, indexConstants(kb, kl, shape), /*parallel=*/true,
                      [&](OpBuilder &lb, Location ll, ValueRange ivs) {
                        Value v = memref::LoadOp::create(lb, ll, args[0], withIndex(ivs, axis, i));
                        memref::StoreOp::create(lb, ll, v, args[2], ivs);
                      });
      });
}

/// dest[..., i, ...] = element (i along `axis`, from `counter`).
void buildInsertKernel(OpBuilder &b, Location loc, Value element, Value counter, Value dest,
                       int64_t axis, bool reverse) {
  int64_t length = cast<MemRefType>(dest.getType()).getDimSize(axis);
  KernelOp::create(
      b, loc, "scan_insert", ValueRange{element, counter}, dest,
      [&](OpBuilder &kb, Location kl, ValueRange args) {
        Value i = readCounter(kb, kl, args[1], length, reverse);
        auto shape = cast<MemRefType>(args[0].getType()).getShape();
        buildLoopNest(kb, kl, indexConstants(kb, kl, shape), /*parallel=*/true,
                      [&](OpBuilder &lb, Location ll, ValueRange ivs) {
                        Value v = memref::LoadOp::create(lb, ll, args[0], ivs);
                        memref::StoreOp::create(lb, ll, v, args[2], withIndex(ivs, axis, i));
                      });
      });
}

/// The buffer `value` is a view of (itself when it is no view).
Value rootOf(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Stores the iteration number `iv` (an index) into the 0-d i64 buffer `counter`.
void storeCounter(OpBuilder &b, Location loc, Value iv, Value counter) {
  Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), iv);
  memref::StoreOp::create(b, loc, i, counter, ValueRange());
}

/// A new buffer for `type` holding a copy of `init` (the loop-carried values and states start as
/// copies: the loop overwrites them, and the initial value may be read after the loop).
Value copiedBuffer(OpBuilder &b, Location loc, Type type, Value init, StringRef name) {
  Value buffer = allocBuffer(b, loc, type);
  buildCopyKernel(b, loc, name, init, buffer);
  return buffer;
}

/// ms.region_yield -> copies of the yielded values into their destinations.
struct RegionYieldToCopies : OpConversionPattern<ms::RegionYieldOp> {
  RegionYieldToCopies(TypeConverter &converter, MLIRContext *ctx, std::shared_ptr<YieldPlans> plans)
      : OpConversionPattern(converter, ctx), plans(std::move(plans)) {}

  LogicalResult matchAndRewrite(ms::RegionYieldOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto it = plans->targets.find(op);
    if (it == plans->targets.end())
      return rewriter.notifyMatchFailure(op, "its parent was not lowered");
    ArrayRef<YieldTarget> targets = it->second;
    Location loc = op.getLoc();
    ValueRange values = adaptor.getValues();
    // Scan elements first: they write only the scan outputs, which the body never reads.
    for (auto [target, value] : llvm::zip(targets, values))
      if (target.counter)
        buildInsertKernel(rewriter, loc, value, target.counter, target.dest, target.axis,
                          target.reverse);
    // A value that is (a view of) another destination would be overwritten before it is copied
    // (carried values that swap places): it goes through a temporary first.
    SmallVector<Value> sources(values);
    for (auto [index, target] : llvm::enumerate(targets)) {
      if (target.counter || sources[index] == target.dest)
        continue;
      Value root = rootOf(sources[index]), dest = target.dest;
      bool clobbered = llvm::any_of(targets, [&](const YieldTarget &other) {
        return !other.counter && other.dest != dest && other.dest == root;
      });
      if (!clobbered)
        continue;
      Value temporary = allocBuffer(rewriter, loc, op.getValues()[index].getType());
      buildCopyKernel(rewriter, loc, "carry_temporary", sources[index], temporary);
      sources[index] = temporary;
    }
    for (auto [index, target] : llvm::enumerate(targets))
      if (!target.counter && sources[index] != target.dest)
        buildCopyKernel(rewriter, loc, "yield", sources[index], target.dest);
    rewriter.eraseOp(op);
    return success();
  }

  std::shared_ptr<YieldPlans> plans;
};

/// ms.if -> scf.if on the condition's element; both branches copy their values into the result
/// buffers.
struct IfToScf : OpConversionPattern<ms::IfOp> {
  IfToScf(TypeConverter &converter, MLIRContext *ctx, std::shared_ptr<YieldPlans> plans)
      : OpConversionPattern(converter, ctx), plans(std::move(plans)) {}

  LogicalResult matchAndRewrite(ms::IfOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> results;
    for (Type type : op.getResultTypes())
      results.push_back(allocBuffer(rewriter, loc, type));
    Value cond = loadElement(rewriter, loc, adaptor.getCond());
    auto ifOp = scf::IfOp::create(rewriter, loc, cond, /*withElseRegion=*/true);
    SmallVector<YieldTarget> targets;
    for (Value r : results)
      targets.push_back({r, Value()});
    for (auto [from, to] : {std::pair<Region *, Region *>{&op.getThenRegion(),
                                                          &ifOp.getThenRegion()},
                            std::pair<Region *, Region *>{&op.getElseRegion(),
                                                          &ifOp.getElseRegion()}}) {
      Block &source = from->front();
      plans->targets[source.getTerminator()] = targets;
      rewriter.inlineBlockBefore(&source, to->front().getTerminator());
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  std::shared_ptr<YieldPlans> plans;
};

/// ms.loop -> scf.for over the trip count, or scf.while (condition, and trip count if any).
struct LoopToScf : OpConversionPattern<ms::LoopOp> {
  LoopToScf(TypeConverter &converter, MLIRContext *ctx, std::shared_ptr<YieldPlans> plans)
      : OpConversionPattern(converter, ctx), plans(std::move(plans)) {}

  LogicalResult matchAndRewrite(ms::LoopOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    unsigned numCarried = op.getNumCarried();
    if (op.getNumScanOutputs() && !matchPattern(op.getMaxTripCount(), m_Constant()))
      return op.emitOpError("with scan outputs needs a constant trip count to be lowered");

    auto boolType = RankedTensorType::get({}, IntegerType::get(ctx, 1));
    auto i64Type = RankedTensorType::get({}, IntegerType::get(ctx, 64));
    Value counter = allocBuffer(rewriter, loc, i64Type);
    Value condition = allocBuffer(rewriter, loc, boolType);
    if (adaptor.getCond()) {
      buildCopyKernel(rewriter, loc, "loop_condition", adaptor.getCond(), condition);
    } else {
      // The body may read its condition argument even when the loop ignores it: true.
      KernelOp::create(rewriter, loc, "fill", ValueRange(), condition,
                       [&](OpBuilder &kb, Location kl, ValueRange args) {
                         Value t = arith::ConstantIntOp::create(kb, kl, 1, 1);
                         linalg::FillOp::create(kb, kl, t, args[0]);
                       });
    }
    SmallVector<Value> results;
    for (auto [init, adapted] : llvm::zip(op.getInitValues(), adaptor.getInitValues()))
      results.push_back(copiedBuffer(rewriter, loc, init.getType(), adapted, "loop_init"));
    SmallVector<YieldTarget> targets = {{condition, Value()}};
    for (Value r : results)
      targets.push_back({r, Value()});
    for (Type type : TypeRange(op.getResultTypes()).drop_front(numCarried)) {
      results.push_back(allocBuffer(rewriter, loc, type));
      targets.push_back({results.back(), counter, 0, false});
    }

    FailureOr<Block *> converted = rewriter.convertRegionTypes(&op.getBody(), *getTypeConverter());
    if (failed(converted))
      return failure();
    Block *body = *converted;
    plans->targets[body->getTerminator()] = targets;
    SmallVector<Value> args = {counter, condition};
    llvm::append_range(args, ArrayRef<Value>(results).take_front(numCarried));

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value tripCount;
    if (adaptor.getMaxTripCount())
      tripCount = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                             loadElement(rewriter, loc, adaptor.getMaxTripCount()));
    if (!op.getCond()) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, tripCount, one);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      storeCounter(rewriter, loc, loop.getInductionVar(), counter);
      rewriter.inlineBlockBefore(body, loop.getBody()->getTerminator(), args);
    } else {
      auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{rewriter.getIndexType()},
                                       ValueRange{zero});
      OpBuilder::InsertionGuard guard(rewriter);
      Block *before = rewriter.createBlock(&loop.getBefore(), {}, {rewriter.getIndexType()}, {loc});
      Value go = loadElement(rewriter, loc, condition);
      if (tripCount) {
        Value inRange = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                              before->getArgument(0), tripCount);
        go = arith::AndIOp::create(rewriter, loc, go, inRange);
      }
      scf::ConditionOp::create(rewriter, loc, go, before->getArguments());
      Block *after = rewriter.createBlock(&loop.getAfter(), {}, {rewriter.getIndexType()}, {loc});
      Value iv = after->getArgument(0);
      storeCounter(rewriter, loc, iv, counter);
      Value next = arith::AddIOp::create(rewriter, loc, iv, one);
      auto yield = scf::YieldOp::create(rewriter, loc, next);
      rewriter.inlineBlockBefore(body, yield, args);
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  std::shared_ptr<YieldPlans> plans;
};

/// ms.scan -> scf.for over the sequence: each step slices the scan inputs, runs the body on the
/// states and the slices, and writes the states and the scan outputs' rows.
struct ScanToScf : OpConversionPattern<ms::ScanOp> {
  ScanToScf(TypeConverter &converter, MLIRContext *ctx, std::shared_ptr<YieldPlans> plans)
      : OpConversionPattern(converter, ctx), plans(std::move(plans)) {}

  LogicalResult matchAndRewrite(ms::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned numStates = op.getNumStates();
    Value counter = allocBuffer(rewriter, loc, RankedTensorType::get({}, rewriter.getI64Type()));
    SmallVector<Value> results;
    SmallVector<YieldTarget> targets;
    for (auto [init, adapted] : llvm::zip(op.getInitStates(), adaptor.getInitStates())) {
      results.push_back(copiedBuffer(rewriter, loc, init.getType(), adapted, "scan_init"));
      targets.push_back({results.back(), Value()});
    }
    for (auto [j, type] : llvm::enumerate(TypeRange(op.getResultTypes()).drop_front(numStates))) {
      results.push_back(allocBuffer(rewriter, loc, type));
      targets.push_back({results.back(), counter, op.getScanOutputAxes()[j],
                         op.getScanOutputDirections()[j] == 1});
    }
    FailureOr<Block *> converted = rewriter.convertRegionTypes(&op.getBody(), *getTypeConverter());
    if (failed(converted))
      return failure();
    Block *body = *converted;
    plans->targets[body->getTerminator()] = targets;

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value length = arith::ConstantIndexOp::create(rewriter, loc, op.getSequenceLength());
    auto loop = scf::ForOp::create(rewriter, loc, zero, length, one);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    storeCounter(rewriter, loc, loop.getInductionVar(), counter);
    SmallVector<Value> args(ArrayRef<Value>(results).take_front(numStates));
    for (auto [i, input, adapted] : llvm::enumerate(op.getScanInputs(), adaptor.getScanInputs())) {
      int64_t axis = op.getScanInputAxes()[i];
      auto type = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape.erase(shape.begin() + axis);
      Value slice = allocBuffer(rewriter, loc, type.clone(shape));
      buildExtractKernel(rewriter, loc, adapted, counter, slice, axis,
                         op.getScanInputDirections()[i] == 1);
      args.push_back(slice);
    }
    rewriter.inlineBlockBefore(body, loop.getBody()->getTerminator(), args);
    rewriter.replaceOp(op, results);
    return success();
  }

  std::shared_ptr<YieldPlans> plans;
};

} // namespace

void mlir::mie::mstomie::populateMsToMieControlFlowPatterns(TypeConverter &converter,
                                                            RewritePatternSet &patterns) {
  auto plans = std::make_shared<YieldPlans>();
  MLIRContext *ctx = patterns.getContext();
  patterns.add<RegionYieldToCopies, IfToScf, LoopToScf, ScanToScf>(converter, ctx, plans);
}
