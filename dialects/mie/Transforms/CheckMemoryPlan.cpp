//===- CheckMemoryPlan.cpp - the mie-check-memory-plan pass ---------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/BufferAliasing.h"
#include "dialects/mie/Utils/KernelLaunches.h"
#include "dialects/mie/Utils/ProgramOrder.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIECHECKMEMORYPLANPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// One planned buffer: a view of the arena, its bytes and the program points (ProgramOrder) at
/// which it is alive.
struct PlannedBuffer {
  Value view; // the mie.view's result
  ByteRange bytes;
  int64_t first = INT64_MAX, last = -1;
};

/// The view of the arena that `value` is, or is a view of.
ViewOp arenaViewOf(Value value, Value arena) {
  while (Operation *def = value.getDefiningOp()) {
    auto view = dyn_cast<ViewOp>(def);
    if (view && view.getBase() == arena)
      return view;
    auto viewLike = dyn_cast<ViewLikeOpInterface>(def);
    if (!viewLike)
      return {};
    value = viewLike.getViewSource();
  }
  return {};
}

std::string describe(const PlannedBuffer &buffer) {
  SmallVector<StringRef> nodes = sourceNodeNames(buffer.view.getLoc());
  std::string text = llvm::formatv("[{0}, {1})", buffer.bytes.begin, buffer.bytes.end).str();
  if (!nodes.empty())
    text += " (" + llvm::join(nodes, ",") + ")";
  return text;
}

/// Whether `operand` is `buffer`, or a view of all of its bytes (a GEMM's collapse of an image).
bool coversBuffer(Value operand, const PlannedBuffer &buffer, Value arena) {
  ViewOp view = arenaViewOf(operand, arena);
  std::optional<ByteRange> bytes = bytesOf(operand);
  return view && view.getResult() == buffer.view && bytes && bytes->begin == buffer.bytes.begin &&
         bytes->end == buffer.bytes.end;
}

/// Whether `a`, dying at op `at`, and `b`, born there, are an input and an output that the kernel
/// writes in place.
bool writtenInPlace(Operation *at, const PlannedBuffer &a, const PlannedBuffer &b, Value arena) {
  auto kernel = dyn_cast<KernelOp>(at);
  if (!kernel || a.last != b.first || a.bytes.begin != b.bytes.begin ||
      a.bytes.end != b.bytes.end)
    return false;
  for (auto [inputIndex, input] : llvm::enumerate(kernel.getInputs()))
    for (auto [outputIndex, output] : llvm::enumerate(kernel.getOutputs()))
      if (coversBuffer(input, a, arena) && coversBuffer(output, b, arena) &&
          mayWriteInPlace(kernel, inputIndex, outputIndex))
        return true;
  return false;
}

struct MieCheckMemoryPlanPass : impl::MieCheckMemoryPlanPassBase<MieCheckMemoryPlanPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto arenaBytes = func->getAttrOfType<IntegerAttr>(MieDialect::getArenaBytesAttrName());
    if (func.isExternal() || !arenaBytes)
      return;
    Value arena;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (auto name = func.getArgAttrOfType<StringAttr>(i, MieDialect::getSlotAttrName());
          name && name == "arena")
        arena = func.getArgument(i);
    if (!arena) {
      func.emitError("mie-check-memory-plan: function has mie.arena_bytes but no arena argument");
      return signalPassFailure();
    }
    if (!func.getBody().hasOneBlock()) {
      func.emitError("mie-check-memory-plan expects a single-block function");
      return signalPassFailure();
    }

    // Lifetimes re-derived from the planned IR: program points over the ops of the function and
    // of its control flow, a use inside a loop of a buffer placed outside it covering the loop.
    ProgramOrder order(func.getBody());
    ArrayRef<Operation *> ops = order.ops();
    SmallVector<PlannedBuffer> buffers;
    DenseMap<Operation *, size_t> bufferOf;
    bool failed = false;
    for (Operation *op : ops) {
      auto view = dyn_cast<ViewOp>(op);
      if (!view || view.getBase() != arena)
        continue;
      std::optional<ByteRange> bytes = bytesOf(view.getResult());
      if (!bytes || bytes->end > arenaBytes.getInt()) {
        view.emitError("mie-check-memory-plan: buffer ")
            << (bytes ? llvm::formatv("[{0}, {1})", bytes->begin, bytes->end).str()
                      : std::string("of unknown size"))
            << " does not lie inside the arena of " << arenaBytes.getInt() << " bytes";
        failed = true;
        continue;
      }
      bufferOf[view] = buffers.size();
      buffers.push_back({view.getResult(), *bytes});
    }
    for (Operation *op : ops) {
      if (isa<ViewLikeOpInterface>(op))
        continue;
      // Ops nested in region ops have points of their own; only kernel bodies are walked (they
      // are isolated, so this finds only the kernel's operands).
      auto visit = [&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (ViewOp view = arenaViewOf(operand, arena)) {
            auto it = bufferOf.find(view);
            if (it == bufferOf.end())
              continue;
            PlannedBuffer &buffer = buffers[it->second];
            auto [first, last] = order.useRange(view, op);
            buffer.first = std::min(buffer.first, first);
            buffer.last = std::max(buffer.last, last);
          }
      };
      if (isa<KernelOp>(op) || op->getNumRegions() == 0)
        op->walk(visit);
      else
        visit(op);
    }

    for (size_t i = 0; i < buffers.size(); ++i) {
      for (size_t j = i + 1; j < buffers.size(); ++j) {
        const PlannedBuffer &a = buffers[i], &b = buffers[j];
        if (a.last < 0 || b.last < 0 || a.last < b.first || b.last < a.first ||
            !a.bytes.overlaps(b.bytes))
          continue;
        const int64_t at = std::max(a.first, b.first);
        if (writtenInPlace(ops[at], a, b, arena) || writtenInPlace(ops[at], b, a, arena))
          continue;
        ops[at]->emitError("mie-check-memory-plan: buffers ")
            << describe(a) << " and " << describe(b)
            << " are both alive at this op and share arena bytes";
        failed = true;
      }
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mie
