//===- MsBatchSlices.cpp - symbols whose dim a run may take in slices -------===//
//
// An allowlist, not a denylist: an op the rules below do not know makes a function unsliceable,
// so a new op costs speed at worst, never a wrong answer.
//
//===----------------------------------------------------------------------===//

#include "MsBatchSlices.h"

#include "MsOps.h"
#include "MsShapeUtils.h"
#include "MsSymbolicShapes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

/// Whether `expr` is symbol `s` times factors free of it (`s0`, `s0 * s1`, `s0 * 12`).
bool isMultipleOf(AffineExpr expr, unsigned s) {
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return sym.getPosition() == s;
  auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return false;
  AffineExpr l = mul.getLHS(), r = mul.getRHS();
  return (isMultipleOf(l, s) && !r.isFunctionOfSymbol(s)) ||
         (isMultipleOf(r, s) && !l.isFunctionOfSymbol(s));
}

/// How a value stands to the batch symbol.
enum class Batch { Free, Major, Mixed };

class BatchSliceCheck {
public:
  BatchSliceCheck(Operation *function, unsigned symbol) : shapes(function), s(symbol) {}

  /// Free: no dim uses the symbol; Major: dim 0 is a multiple of it and no other dim uses it
  /// (each sample a contiguous block); Mixed otherwise, or where a dim is unknown.
  Batch of(Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return isa<TensorType>(v.getType()) ? Batch::Mixed : Batch::Free;
    if (type.hasStaticShape())
      return Batch::Free;
    ArrayRef<AffineExpr> dims = shapes.dims(v);
    bool uses = false;
    for (auto [d, e] : llvm::enumerate(dims)) {
      if (!e)
        return Batch::Mixed;
      if (d > 0 && e.isFunctionOfSymbol(s))
        return Batch::Mixed;
      uses |= e.isFunctionOfSymbol(s);
    }
    if (!uses)
      return Batch::Free;
    return isMultipleOf(dims[0], s) ? Batch::Major : Batch::Mixed;
  }

  /// Dim 0 of `v` (a Major value).
  AffineExpr lead(Value v) { return shapes.dims(v)[0]; }

  bool major(Value v) { return of(v) == Batch::Major; }
  bool free(Value v) { return of(v) == Batch::Free; }
  bool sameLead(Value a, Value b) { return major(a) && major(b) && lead(a) == lead(b); }

  /// Whether `op` computes sample by sample (or never touches the batch).
  bool allows(Operation *op);

private:
  /// The op's every result Major with `input`'s dim 0 (an op that keeps its input's samples in
  /// place).
  bool keepsSamplesOf(Operation *op, Value input) {
    return llvm::all_of(op->getResults(), [&](Value r) { return sameLead(r, input); });
  }
  /// Elementwise with numpy broadcasting: each operand free (the same for every sample; its dim
  /// 0, where it lines up with the result's, is 1) or Major of the result's rank and dim 0.
  bool elementwise(Operation *op) {
    Value result = op->getResult(0);
    if (!major(result))
      return false;
    auto rank = cast<RankedTensorType>(result.getType()).getRank();
    return llvm::all_of(op->getOperands(), [&](Value x) {
      if (free(x))
        return true;
      auto t = dyn_cast<RankedTensorType>(x.getType());
      return t && t.getRank() == rank && sameLead(x, result);
    });
  }
  /// `axis` of a rank-`rank` tensor is not dim 0.
  static bool notLead(int64_t axis, int64_t rank) { return positiveAxis(axis, rank) != 0; }
  static int64_t rankOf(Value v) { return cast<RankedTensorType>(v.getType()).getRank(); }

  SymbolicShapes shapes;
  unsigned s;
};

bool BatchSliceCheck::allows(Operation *op) {
  // A run of a slice would draw other numbers than the whole batch's run.
  if (isa<RandomUniformOp, RandomNormalOp, BernoulliOp, MultinomialOp>(op))
    return false;
  // Groups are checked member by member (their block arguments have the operands' dims).
  if (isa<FusedOp, YieldOp, func::ReturnOp>(op))
    return true;
  bool readsBatch = llvm::any_of(op->getOperands(), [&](Value v) { return !free(v); });
  bool makesBatch = llvm::any_of(op->getResults(), [&](Value v) { return !free(v); });
  if (!readsBatch && !makesBatch) {
    // Free values from free ones, unless an attribute computes with the symbol's value (a
    // slice starting at `batch - 1` of a free tensor).
    bool usesValue = false;
    for (NamedAttribute a : op->getAttrs())
      if (auto map = dyn_cast<AffineMapAttr>(a.getValue()))
        for (AffineExpr e : map.getValue().getResults())
          usesValue |= e.isFunctionOfSymbol(s);
    return !usesValue;
  }
  if (llvm::any_of(op->getOperands(), [&](Value v) { return of(v) == Batch::Mixed; }) ||
      llvm::any_of(op->getResults(), [&](Value v) { return of(v) == Batch::Mixed; }))
    return false;
  // Only a broadcast makes samples from free values: every sample the same copy.
  if (!readsBatch)
    return isa<ExpandOp>(op);
  if (isElementwiseOp(op) || isa<WhereOp, CompareOp>(op))
    return elementwise(op);
  return llvm::TypeSwitch<Operation *, bool>(op)
      // Per sample over its own dims (the channels, the pixels, the last axes).
      .Case<Conv2dOp, Conv3dOp, ConvTransposeOp, MaxPoolOp, AvgPoolOp, GlobalAvgPoolOp, ResizeOp,
            BatchNormOp, InstanceNormOp, GroupNormOp, DepthToSpaceOp>([&](Operation *op) {
        return llvm::all_of(op->getOperands().drop_front(), [&](Value v) { return free(v); }) &&
               keepsSamplesOf(op, op->getOperand(0));
      })
      .Case([&](SoftmaxOp o) {
        return notLead(o.getAxis(), rankOf(o.getInput())) && keepsSamplesOf(op, o.getInput());
      })
      .Case([&](LayerNormOp o) {
        int64_t rank = rankOf(o.getInput()), axis = o.getAxis();
        return positiveAxis(axis, rank) > 0 && free(o.getScale()) &&
               (!o.getBias() || free(o.getBias())) && keepsSamplesOf(op, o.getInput());
      })
      .Case([&](CumSumOp o) {
        DenseIntElementsAttr axis;
        return matchPattern(o.getAxis(), m_Constant(&axis)) && axis.getNumElements() == 1 &&
               notLead((*axis.begin()).getSExtValue(), rankOf(o.getInput())) &&
               keepsSamplesOf(op, o.getInput());
      })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp>([&](auto o) {
        ArrayRef<int64_t> axes = o.getAxes();
        int64_t rank = rankOf(o.getInput());
        return !axes.empty() && llvm::all_of(axes, [&](int64_t a) { return notLead(a, rank); }) &&
               keepsSamplesOf(op, o.getInput());
      })
      // Layout changes that keep every sample one block in front: the linear order of the
      // elements (reshapes) or dim 0 itself (transposes) stays.
      .Case<ReshapeOp, FlattenOp, SqueezeOp, UnsqueezeOp>(
          [&](Operation *op) { return major(op->getResult(0)); })
      .Case([&](TransposeOp o) {
        return !o.getPerms().empty() && o.getPerms()[0] == 0 && keepsSamplesOf(op, o.getInput());
      })
      .Case([&](ExpandOp o) { return keepsSamplesOf(op, o.getInput()); })
      .Case([&](PadOp o) {
        int64_t rank = rankOf(o.getInput());
        ArrayRef<int64_t> pads = o.getPads();
        return !o.getSymbolicPads() && (int64_t)pads.size() == 2 * rank && pads[0] == 0 &&
               pads[rank] == 0 &&
               llvm::all_of(op->getOperands().drop_front(), [&](Value v) { return free(v); }) &&
               keepsSamplesOf(op, o.getInput());
      })
      .Case([&](SliceOp o) {
        // Dim 0 whole: from 0, step 1, every sample.
        return o.getStarts()[0] == 0 && o.getSteps()[0] == 1 && keepsSamplesOf(op, o.getInput());
      })
      .Case([&](ConcatOp o) {
        Value result = o.getResult();
        return notLead(o.getAxis(), rankOf(result)) &&
               llvm::all_of(o.getInputs(), [&](Value v) { return sameLead(v, result); });
      })
      .Case([&](SplitOp o) {
        return notLead(o.getAxis(), rankOf(o.getInput())) && keepsSamplesOf(op, o.getInput());
      })
      // An embedding's rows for each sample's ids, or a free index into each sample's own dims.
      .Case([&](GatherOp o) {
        int64_t rank = rankOf(o.getData());
        int64_t axis = positiveAxis(o.getAxis(), rank);
        if (free(o.getData()))
          return axis == 0 && rankOf(o.getIndices()) >= 1 && keepsSamplesOf(op, o.getIndices());
        return axis != 0 && free(o.getIndices()) && keepsSamplesOf(op, o.getData());
      })
      // Row products: the rows of each sample by free weights, or products batched over dim 0.
      .Case<MatMulOp, GemmOp>([&](Operation *op) {
        Value result = op->getResult(0);
        if (!major(result) || op->hasAttr("trans_a"))
          return false;
        for (auto [i, x] : llvm::enumerate(op->getOperands())) {
          if (free(x))
            continue;
          // The left operand's rows, or a batched operand lined up with the result's batch.
          bool rows = i == 0 && rankOf(x) == 2 && rankOf(result) == 2;
          bool batched = rankOf(x) == rankOf(result) && rankOf(x) >= 3;
          bool bias = i == 2 && rankOf(x) == rankOf(result);
          if (!(rows || batched || bias) || !sameLead(x, result))
            return false;
        }
        return true;
      })
      .Case([&](AttentionOp o) {
        Value result = o.getResult();
        return llvm::all_of(op->getOperands(), [&](Value x) {
          return free(x) || (rankOf(x) == rankOf(result) && sameLead(x, result));
        });
      })
      .Default([](Operation *) { return false; });
}

} // namespace

std::optional<unsigned> mlir::ms::findBatchSliceSymbol(Operation *function) {
  auto func = dyn_cast<FunctionOpInterface>(function);
  auto names = function->getAttrOfType<ArrayAttr>(kSymbolsAttrName);
  if (!func || !names || function->hasAttr(kValueSymbolsAttrName) || func.isExternal())
    return std::nullopt;
  for (unsigned s = 0; s < names.size(); ++s) {
    BatchSliceCheck check(function, s);
    Block &body = func.getFunctionBody().front();
    bool bound = false, ok = true;
    for (BlockArgument arg : body.getArguments()) {
      Batch b = check.of(arg);
      ok &= b != Batch::Mixed;
      if (b == Batch::Major)
        bound |= isa<AffineSymbolExpr>(check.lead(arg));
    }
    Operation *terminator = body.getTerminator();
    ok &= bound && terminator->getNumOperands() > 0 &&
          llvm::all_of(terminator->getOperands(), [&](Value v) { return check.major(v); });
    if (ok)
      function->walk([&](Operation *op) {
        if (op != function && !check.allows(op)) {
          ok = false;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
    if (ok)
      return s;
  }
  return std::nullopt;
}
