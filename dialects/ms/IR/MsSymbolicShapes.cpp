//===- MsSymbolicShapes.cpp - dims as expressions of a function's symbols -===//
//
// One rule per shape-changing op; the ops that keep their operands' dims in place (elementwise
// with numpy broadcasting, normalizations, softmax) share the positional rule. A rule only fills
// dims the type leaves `?`: a static dim is its constant whatever the rule says.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ms;

AffineMap ms::symbolicShapeMap(MLIRContext *ctx, unsigned numSymbols, ArrayRef<AffineExpr> exprs) {
  return AffineMap::get(/*dimCount=*/0, numSymbols, exprs, ctx);
}

namespace {

/// A product `coefficient * s_i^k...`, or nothing when `e` is not one (a sum, a division).
struct Monomial {
  int64_t coefficient = 1;
  SmallVector<unsigned> symbols; // sorted, with repeats for powers
};

std::optional<Monomial> asMonomial(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return Monomial{c.getValue(), {}};
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return Monomial{1, {s.getPosition()}};
  if (e.getKind() == AffineExprKind::Mul) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    std::optional<Monomial> l = asMonomial(bin.getLHS()), r = asMonomial(bin.getRHS());
    if (!l || !r)
      return std::nullopt;
    Monomial m{l->coefficient * r->coefficient, l->symbols};
    m.symbols.append(r->symbols);
    llvm::sort(m.symbols);
    return m;
  }
  return std::nullopt;
}

AffineExpr product(MLIRContext *ctx, ArrayRef<AffineExpr> exprs) {
  AffineExpr result = getAffineConstantExpr(1, ctx);
  for (AffineExpr e : exprs) {
    if (!e)
      return {};
    result = result * e;
  }
  return result;
}

} // namespace

AffineExpr ms::divideExactly(AffineExpr a, AffineExpr b) {
  if (!a || !b)
    return {};
  std::optional<Monomial> ma = asMonomial(a), mb = asMonomial(b);
  if (!ma || !mb || mb->coefficient == 0 || ma->coefficient % mb->coefficient != 0)
    return {};
  // Every symbol of the divisor must appear in the dividend, as often.
  SmallVector<unsigned> rest;
  size_t j = 0;
  for (unsigned s : ma->symbols) {
    if (j < mb->symbols.size() && mb->symbols[j] == s) {
      ++j;
      continue;
    }
    rest.push_back(s);
  }
  if (j != mb->symbols.size())
    return {};
  AffineExpr result = getAffineConstantExpr(ma->coefficient / mb->coefficient, a.getContext());
  for (unsigned s : rest)
    result = result * getAffineSymbolExpr(s, a.getContext());
  return result;
}

AffineExpr ms::broadcastDim(AffineExpr a, AffineExpr b) {
  if (!a || !b)
    return {};
  auto isOne = [](AffineExpr e) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == 1;
  };
  if (a == b || isOne(b))
    return a;
  return isOne(a) ? b : AffineExpr();
}

std::pair<SmallVector<int64_t>, AffineMapAttr>
ms::staticAndSymbolic(MLIRContext *ctx, unsigned numSymbols, ArrayRef<AffineExpr> sizes) {
  SmallVector<int64_t> values;
  for (AffineExpr e : sizes) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    values.push_back(c ? c.getValue() : ShapedType::kDynamic);
  }
  if (llvm::none_of(values, ShapedType::isDynamic))
    return {values, AffineMapAttr()};
  return {values, AffineMapAttr::get(symbolicShapeMap(ctx, numSymbols, sizes))};
}

std::pair<SmallVector<int64_t>, AffineMapAttr> ms::staticAndSymbolic(Operation *op,
                                                                     ArrayRef<AffineExpr> sizes) {
  Operation *fn = isa<FunctionOpInterface>(op) ? op : op->getParentOfType<FunctionOpInterface>();
  unsigned numSymbols = fn ? SymbolicShapes(fn).numSymbols() : 0;
  return staticAndSymbolic(op->getContext(), numSymbols, sizes);
}

SymbolicShapes::SymbolicShapes(Operation *function)
    : ctx(function->getContext()), function(function) {
  if (auto names = function->getAttrOfType<ArrayAttr>(kSymbolsAttrName))
    for (Attribute name : names)
      if (auto str = dyn_cast<StringAttr>(name))
        symbolNames.push_back(str.getValue());
}

ArrayRef<AffineExpr> SymbolicShapes::dims(Value value) {
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second;
  computeWithOperands(value);
  return cache.lookup(value);
}

void SymbolicShapes::computeWithOperands(Value value) {
  // Producers first, iteratively (a model's chain of ops is thousands deep): an op's rule then
  // reads its operands' dims from the cache.
  SmallVector<Value> stack = {value};
  while (!stack.empty()) {
    Value top = stack.back();
    if (cache.count(top)) {
      stack.pop_back();
      continue;
    }
    bool ready = true;
    if (auto result = dyn_cast<OpResult>(top))
      for (Value operand : result.getOwner()->getOperands())
        if (!cache.count(operand) && isa<RankedTensorType>(operand.getType())) {
          stack.push_back(operand);
          ready = false;
        }
    if (!ready)
      continue;
    SmallVector<AffineExpr> exprs = compute(top);
    cache.try_emplace(top, ArrayRef<AffineExpr>(exprs).copy(storage));
    stack.pop_back();
  }
}

static Operation *functionOf(Value v) {
  Operation *op = v.getParentRegion() ? v.getParentRegion()->getParentOp() : nullptr;
  if (!op || isa<FunctionOpInterface>(op))
    return op;
  return op->getParentOfType<FunctionOpInterface>();
}

SmallVector<AffineExpr> ms::symbolicDimsOf(Value v) {
  Operation *fn = functionOf(v);
  if (!fn)
    return SmallVector<AffineExpr>(cast<RankedTensorType>(v.getType()).getRank());
  SymbolicShapes shapes(fn);
  return SmallVector<AffineExpr>(shapes.dims(v));
}

bool ms::hasKnownDims(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.hasStaticShape())
    return static_cast<bool>(type);
  return llvm::all_of(symbolicDimsOf(v), [](AffineExpr e) { return static_cast<bool>(e); });
}

bool ms::haveSameDims(Value a, Value b) {
  auto ta = dyn_cast<RankedTensorType>(a.getType()), tb = dyn_cast<RankedTensorType>(b.getType());
  if (!ta || !tb || ta.getShape() != tb.getShape())
    return false;
  if (ta.hasStaticShape())
    return true;
  Operation *fn = functionOf(a);
  if (!fn || fn != functionOf(b))
    return false;
  // One analysis for both: their producers are mostly shared.
  SymbolicShapes shapes(fn);
  ArrayRef<AffineExpr> da = shapes.dims(a);
  return shapes.isResolved(a) && da == shapes.dims(b);
}

std::string SymbolicShapes::format(AffineExpr expr) const {
  if (!expr)
    return "?";
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return sym.getPosition() < symbolNames.size() ? symbolNames[sym.getPosition()].str()
                                                  : "s" + std::to_string(sym.getPosition());
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return std::to_string(c.getValue());
  auto bin = cast<AffineBinaryOpExpr>(expr);
  StringRef op;
  switch (bin.getKind()) {
  case AffineExprKind::Add:
    op = " + ";
    break;
  case AffineExprKind::Mul:
    op = " * ";
    break;
  case AffineExprKind::FloorDiv:
    op = " floordiv ";
    break;
  case AffineExprKind::CeilDiv:
    op = " ceildiv ";
    break;
  default:
    op = " mod ";
    break;
  }
  // Operands that are themselves sums are parenthesized under a tighter operator.
  auto operand = [&](AffineExpr e) {
    std::string text = format(e);
    bool sum = e.getKind() == AffineExprKind::Add;
    return sum && bin.getKind() != AffineExprKind::Add ? "(" + text + ")" : text;
  };
  return operand(bin.getLHS()) + op.str() + operand(bin.getRHS());
}

bool SymbolicShapes::isResolved(Value value) {
  return llvm::all_of(dims(value), [](AffineExpr e) { return static_cast<bool>(e); });
}

SmallVector<AffineExpr> SymbolicShapes::compute(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return {};
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<AffineExpr> exprs(shape.size());
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // A fused group's body arguments are its operands.
    if (auto fused = dyn_cast<FusedOp>(arg.getOwner()->getParentOp());
        fused && arg.getArgNumber() < fused->getNumOperands()) {
      SmallVector<AffineExpr> operand(dims(fused->getOperand(arg.getArgNumber())));
      if (operand.size() == shape.size())
        exprs = std::move(operand);
    }
    auto fn = dyn_cast<FunctionOpInterface>(function);
    if (fn && arg.getOwner()->getParentOp() == function && arg.getOwner()->isEntryBlock())
      if (auto map = fn.getArgAttrOfType<AffineMapAttr>(arg.getArgNumber(), kArgShapeAttrName))
        if (map.getValue().getNumResults() == shape.size())
          llvm::copy(map.getValue().getResults(), exprs.begin());
  } else {
    auto result = cast<OpResult>(value);
    SmallVector<AffineExpr> fromRule = fromOp(result.getOwner(), result.getResultNumber(), shape);
    if (fromRule.size() == shape.size())
      exprs = std::move(fromRule);
  }
  for (auto [i, d] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(d))
      exprs[i] = getAffineConstantExpr(d, ctx);
  return exprs;
}

namespace {

/// Numpy broadcasting of the operands' dims into `rank` result dims: equal expressions broadcast
/// to themselves, 1 to the other; anything else is unknown.
SmallVector<AffineExpr> broadcastDims(SymbolicShapes &shapes, ValueRange operands, size_t rank) {
  SmallVector<AffineExpr> out(rank, getAffineConstantExpr(1, shapes.context()));
  for (size_t i = 0; i < rank; ++i)
    for (Value operand : operands) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (type && (size_t)type.getRank() + i >= rank)
        out[i] = broadcastDim(out[i], shapes.dims(operand)[type.getRank() - rank + i]);
    }
  return out;
}

/// ceil/floor((in + padBefore + padAfter - dilation * (kernel - 1) - 1) / stride) + 1.
AffineExpr windowDim(AffineExpr in, int64_t padBefore, int64_t padAfter, int64_t kernel,
                     int64_t stride, int64_t dilation, bool ceilMode) {
  if (!in || stride <= 0)
    return {};
  AffineExpr span = in + (padBefore + padAfter - dilation * (kernel - 1) - 1);
  return (ceilMode ? span.ceilDiv(stride) : span.floorDiv(stride)) + 1;
}

/// The dims of a 2-D convolution or pooling's result: batch from the input, the output
/// channels static, the spatial dims by the window formula (NCHW, or NHWC when channels last).
SmallVector<AffineExpr> windowOp(ArrayRef<AffineExpr> input, ArrayRef<int64_t> kernel,
                                 ArrayRef<int64_t> s, ArrayRef<int64_t> p, ArrayRef<int64_t> d,
                                 bool ceilMode, bool channelsLast) {
  if (input.size() != 4 || kernel.size() != 2 || s.size() != 2 || p.size() != 4 || d.size() != 2)
    return {};
  unsigned h = channelsLast ? 1 : 2;
  SmallVector<AffineExpr> out(4);
  out[0] = input[0];
  out[h] = windowDim(input[h], p[0], p[2], kernel[0], s[0], d[0], ceilMode);
  out[h + 1] = windowDim(input[h + 1], p[1], p[3], kernel[1], s[1], d[1], ceilMode);
  return out;
}

bool keepsDimsInPlace(Operation *op) {
  return op->hasTrait<OpTrait::SameOperandsAndResultShape>() ||
         op->hasTrait<OpTrait::SameOperandsAndResultType>() ||
         isa<AddOp, SubOp, MulOp, DivOp, PowOp, MaxOp, MinOp, ModOp, AndOp, OrOp, XorOp,
             ShiftLeftOp, ShiftRightOp, CompareOp, WhereOp, SoftmaxOp, LayerNormOp, BatchNormOp,
             GlobalAvgPoolOp, CumSumOp>(op);
}

} // namespace

SmallVector<AffineExpr> SymbolicShapes::fromOp(Operation *op, unsigned resultIndex,
                                               ArrayRef<int64_t> shape) {
  size_t rank = shape.size();
  auto in = [&](unsigned i) { return dims(op->getOperand(i)); };
  if (keepsDimsInPlace(op))
    return broadcastDims(*this, op->getOperands(), rank);
  return llvm::TypeSwitch<Operation *, SmallVector<AffineExpr>>(op)
      .Case([&](FusedOp fused) -> SmallVector<AffineExpr> {
        // The body's arguments are the operands: their dims, then the yielded value's.
        Block &body = fused.getBody().front();
        auto yield = dyn_cast<YieldOp>(body.getTerminator());
        if (!yield || resultIndex >= yield->getNumOperands())
          return {};
        return SmallVector<AffineExpr>(dims(yield->getOperand(resultIndex)));
      })
      .Case([&](ReshapeOp reshape) -> SmallVector<AffineExpr> {
        if (std::optional<AffineMap> map = reshape.getSymbolicShape())
          return SmallVector<AffineExpr>(map->getResults());
        return {};
      })
      .Case([&](SliceOp slice) -> SmallVector<AffineExpr> {
        if (std::optional<AffineMap> map = slice.getSymbolicSizes())
          return SmallVector<AffineExpr>(map->getResults());
        return {};
      })
      .Case([&](TransposeOp transpose) {
        SmallVector<AffineExpr> out;
        ArrayRef<AffineExpr> input = in(0);
        for (int64_t p : transpose.getPerms())
          out.push_back(p >= 0 && p < (int64_t)input.size() ? input[p] : AffineExpr());
        return out;
      })
      .Case([&](FlattenOp flatten) -> SmallVector<AffineExpr> {
        ArrayRef<AffineExpr> input = in(0);
        int64_t axis = flatten.getAxis();
        axis = axis < 0 ? axis + input.size() : axis;
        return {product(ctx, input.take_front(axis)), product(ctx, input.drop_front(axis))};
      })
      .Case([&](SqueezeOp squeeze) {
        ArrayRef<AffineExpr> input = in(0);
        SmallVector<int64_t> axes;
        for (int64_t a : squeeze.getAxes())
          axes.push_back(a < 0 ? a + input.size() : a);
        SmallVector<AffineExpr> out;
        for (auto [i, e] : llvm::enumerate(input)) {
          auto c = dyn_cast_or_null<AffineConstantExpr>(e);
          bool removed = axes.empty() ? (c && c.getValue() == 1) : llvm::is_contained(axes, i);
          if (!removed)
            out.push_back(e);
        }
        return out;
      })
      .Case([&](UnsqueezeOp unsqueeze) {
        SmallVector<int64_t> axes;
        for (int64_t a : unsqueeze.getAxes())
          axes.push_back(a < 0 ? a + (int64_t)rank : a);
        SmallVector<AffineExpr> out;
        ArrayRef<AffineExpr> input = in(0);
        size_t next = 0;
        for (size_t i = 0; i < rank; ++i)
          out.push_back(llvm::is_contained(axes, (int64_t)i)
                            ? getAffineConstantExpr(1, ctx)
                            : (next < input.size() ? input[next++] : AffineExpr()));
        return out;
      })
      .Case([&](ConcatOp concat) {
        int64_t axis = positiveAxis(concat.getAxis(), rank);
        SmallVector<AffineExpr> out(in(0));
        AffineExpr sum = getAffineConstantExpr(0, ctx);
        for (Value operand : concat.getInputs()) {
          AffineExpr e = dims(operand)[axis];
          sum = e && sum ? sum + e : AffineExpr();
        }
        out[axis] = sum;
        return out;
      })
      .Case([&](SplitOp split) -> SmallVector<AffineExpr> {
        // The input's dims, the split axis cut into the static sizes (GPT-2's fused q, k, v
        // projection split along the hidden dim).
        SmallVector<AffineExpr> out(in(0));
        int64_t axis = positiveAxis(split.getAxis(), rank);
        ArrayRef<int64_t> sizes = split.getSizes();
        if (out.size() != rank || resultIndex >= sizes.size() ||
            ShapedType::isDynamic(sizes[resultIndex]))
          return {};
        out[axis] = getAffineConstantExpr(sizes[resultIndex], ctx);
        return out;
      })
      .Case([&](GatherOp gather) {
        ArrayRef<AffineExpr> data = in(0), indices = in(1);
        int64_t axis = positiveAxis(gather.getAxis(), data.size());
        SmallVector<AffineExpr> out(data.take_front(axis));
        out.append(indices.begin(), indices.end());
        out.append(data.begin() + axis + 1, data.end());
        return out;
      })
      // One element per index: the indices' dims.
      .Case([&](GatherElementsOp gather) { return SmallVector<AffineExpr>(in(1)); })
      .Case([&](MatMulOp matmul) -> SmallVector<AffineExpr> {
        ArrayRef<AffineExpr> lhs = in(0), rhs = in(1);
        if (lhs.size() < 2 || rhs.size() < 2)
          return {};
        // The batch dims broadcast; M comes from lhs, N from rhs.
        SmallVector<AffineExpr> out(rank);
        size_t batch = rank - 2;
        for (size_t i = 0; i < batch; ++i) {
          auto at = [&](ArrayRef<AffineExpr> d) -> AffineExpr {
            size_t b = d.size() - 2;
            return b + i >= batch ? d[b + i - batch] : getAffineConstantExpr(1, ctx);
          };
          AffineExpr l = at(lhs), r = at(rhs);
          auto one = [](AffineExpr e) {
            auto c = dyn_cast_or_null<AffineConstantExpr>(e);
            return c && c.getValue() == 1;
          };
          out[i] = one(l) ? r : one(r) ? l : (l == r ? l : AffineExpr());
        }
        out[rank - 2] = lhs[lhs.size() - 2];
        out[rank - 1] = rhs[rhs.size() - 1];
        return out;
      })
      .Case([&](Conv2dOp conv) -> SmallVector<AffineExpr> {
        auto filter = cast<RankedTensorType>(conv.getFilter().getType());
        int64_t kernel[2] = {filter.getDimSize(2), filter.getDimSize(3)};
        return windowOp(in(0), kernel, conv.getStrides(), conv.getPads(), conv.getDilations(),
                        false, conv->hasAttr("channels_last"));
      })
      .Case<MaxPoolOp, AvgPoolOp>([&](auto pool) -> SmallVector<AffineExpr> {
        ArrayRef<int64_t> kernel = pool.getKernel();
        if (kernel.size() == 2)
          return windowOp(in(0), kernel, pool.getStrides(), pool.getPads(), pool.getDilations(),
                          pool.getCeilMode(), pool->hasAttr("channels_last"));
        // 3-D (NCDHW): each spatial dim by the window formula.
        ArrayRef<AffineExpr> input = in(0);
        ArrayRef<int64_t> s = pool.getStrides(), p = pool.getPads(), d = pool.getDilations();
        size_t n = kernel.size();
        if (input.size() != n + 2 || s.size() != n || p.size() != 2 * n || d.size() != n)
          return {};
        SmallVector<AffineExpr> out = {input[0], input[1]};
        for (size_t i = 0; i < n; ++i)
          out.push_back(
              windowDim(input[2 + i], p[i], p[n + i], kernel[i], s[i], d[i], pool.getCeilMode()));
        return out;
      })
      // Static but for the batch (the verifier says so): the batch is the input's.
      .Case<Conv3dOp, ConvTransposeOp>([&](Operation *) {
        SmallVector<AffineExpr> out(rank);
        if (rank > 0 && !in(0).empty())
          out[0] = in(0)[0];
        return out;
      })
      .Case([&](AttentionOp attention) -> SmallVector<AffineExpr> {
        // The query's dims, the value's head size.
        SmallVector<AffineExpr> out(in(0));
        ArrayRef<AffineExpr> value = dims(attention.getValue());
        if (out.empty() || value.empty())
          return {};
        out.back() = value.back();
        return out;
      })
      .Case([&](GemmOp gemm) -> SmallVector<AffineExpr> {
        ArrayRef<AffineExpr> a = in(0), b = in(1);
        if (a.size() != 2 || b.size() != 2)
          return {};
        return {a[gemm.getTransA() ? 1 : 0], b[gemm.getTransB() ? 0 : 1]};
      })
      .Case([&](EinsumOp einsum) -> SmallVector<AffineExpr> {
        SmallVector<int64_t> ranks;
        for (Value input : einsum.getInputs())
          ranks.push_back(cast<RankedTensorType>(input.getType()).getRank());
        std::string error;
        FailureOr<EinsumEquation> eq = parseEinsumEquation(einsum.getEquation(), ranks, error);
        if (failed(eq))
          return {};
        // A label's size: its operands' dims broadcast (a 1 takes the other side).
        SmallVector<AffineExpr> out;
        for (char label : eq->output) {
          AffineExpr size = getAffineConstantExpr(1, ctx);
          for (auto [i, term] : llvm::enumerate(eq->terms))
            for (auto [d, l] : llvm::enumerate(term))
              if (l == label)
                size = broadcastDim(size, in(i)[d]);
          out.push_back(size);
        }
        return out;
      })
      .Case([&](RangeOp range) { return SmallVector<AffineExpr>{range.getSizeExpr()}; })
      // The input's dims: Trilu masks (its `k` operand is a scalar); a resize keeps the symbolic
      // ones (its static sizes are the type's).
      .Case<TriluOp, ResizeOp>([&](Operation *) { return SmallVector<AffineExpr>(in(0)); })
      .Case([&](PadOp pad) {
        ArrayRef<AffineExpr> input = in(0);
        size_t r = input.size();
        // Each amount: its constant, or the symbols' expression when it has one.
        SmallVector<AffineExpr> pads;
        if (std::optional<AffineMap> map = pad.getSymbolicPads())
          llvm::append_range(pads, map->getResults());
        else
          for (int64_t p : pad.getPads())
            pads.push_back(getAffineConstantExpr(p, ctx));
        SmallVector<AffineExpr> out;
        for (auto [i, e] : llvm::enumerate(input))
          out.push_back(e && pads.size() == 2 * r ? e + pads[i] + pads[i + r] : AffineExpr());
        return out;
      })
      .Case([&](TileOp tile) {
        ArrayRef<AffineExpr> input = in(0);
        ArrayRef<int64_t> repeats = tile.getRepeats();
        SmallVector<AffineExpr> out;
        for (auto [i, e] : llvm::enumerate(input))
          out.push_back(e && i < repeats.size() ? e * repeats[i] : AffineExpr());
        return out;
      })
      .Case([&](ExpandOp expand) {
        if (std::optional<AffineMap> map = expand.getSymbolicShape())
          return SmallVector<AffineExpr>(map->getResults());
        // The static target shape broadcast with the input: 1 keeps the input's dim.
        ArrayRef<int64_t> target = expand.getShape();
        ArrayRef<AffineExpr> input = in(0);
        SmallVector<AffineExpr> out(rank);
        for (size_t i = 0; i < rank; ++i) {
          int64_t k = (int64_t)i - (int64_t)(rank - input.size());
          AffineExpr e = k >= 0 ? input[k] : AffineExpr();
          int64_t t = (int64_t)i - (int64_t)(rank - target.size());
          if (t >= 0 && target[t] != 1 && !ShapedType::isDynamic(target[t]))
            e = getAffineConstantExpr(target[t], ctx);
          out[i] = e;
        }
        return out;
      })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp>(
          [&](auto reduce) -> SmallVector<AffineExpr> {
            ArrayRef<AffineExpr> input = in(0);
            if (rank == input.size()) // keep_dims: the reduced dims are static 1s
              return SmallVector<AffineExpr>(input);
            SmallVector<int64_t> axes;
            for (int64_t a : reduce.getAxes())
              axes.push_back(a < 0 ? a + (int64_t)input.size() : a);
            SmallVector<AffineExpr> out;
            for (auto [i, e] : llvm::enumerate(input))
              if (!axes.empty() && !llvm::is_contained(axes, (int64_t)i))
                out.push_back(e);
            return out;
          })
      .Default([](Operation *) { return SmallVector<AffineExpr>(); });
}
