//===- OnnxValueRanges.cpp - element ranges of sizes computed at run time --===//
//
// A model computes the sizes of its later ops from Shape: of a data-dependent value (a NonZero's
// count, a TopK's K) the sizes are runtime tensors, not known values. What an op taking one as a
// shape needs is an upper bound, so the importer follows the ranges of their elements through the
// integer arithmetic exporters emit for sizes (interval arithmetic on at most kMaxBoundedElements
// elements). A value whose ranges are not followed simply has none: its consumers then need it
// known, as before.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsSymbolicShapes.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

using Ranges = SmallVector<IntRange>;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

int64_t sat(__int128 v) { return static_cast<int64_t>(std::clamp<__int128>(v, kMin, kMax)); }

IntRange hull(std::initializer_list<__int128> values) {
  return {sat(*std::min_element(values.begin(), values.end())),
          sat(*std::max_element(values.begin(), values.end()))};
}

IntRange combineRanges(StringRef op, IntRange a, IntRange b);

/// The symbolic value of `op` on two elements of which at least one is symbolic, where the
/// symbols' arithmetic says it (sums, differences, products, exact or floor division by a
/// positive constant of non-negative sizes; Min / Max where the ranges decide them).
AffineExpr combineSymbolic(StringRef op, IntRange a, IntRange b) {
  MLIRContext *ctx = a.sym ? a.sym.getContext() : b.sym.getContext();
  AffineExpr x = a.symbolic(ctx), y = b.symbolic(ctx);
  if (!x || !y)
    return {};
  if (op == "Add" || op == "Sum")
    return x + y;
  if (op == "Sub")
    return x - y;
  if (op == "Mul")
    return x * y;
  if (op == "Div") {
    if (AffineExpr q = ms::divideExactly(x, y))
      return q;
    if (b.exact() && b.lo > 0 && a.lo >= 0)
      return x.floorDiv(b.lo);
    return {};
  }
  if (op == "Min" || op == "Max") {
    bool aSmaller = a.hi <= b.lo, bSmaller = b.hi <= a.lo;
    if (aSmaller || bSmaller)
      return (op == "Min") == aSmaller ? x : y;
  }
  return {};
}

IntRange combine(StringRef op, IntRange a, IntRange b) {
  IntRange r = combineRanges(op, a, b);
  if ((a.sym || b.sym) && !r.exact())
    r.sym = combineSymbolic(op, a, b);
  return r;
}

IntRange combineRanges(StringRef op, IntRange a, IntRange b) {
  // Adding 0 or multiplying by 1 keeps the element, and the count it may be.
  auto is = [](IntRange r, int64_t v) { return r.exact() && r.lo == v; };
  if (((op == "Add" || op == "Sum" || op == "Sub") && is(b, 0)) || (op == "Mul" && is(b, 1)))
    return a;
  if (((op == "Add" || op == "Sum") && is(a, 0)) || (op == "Mul" && is(a, 1)))
    return b;
  __int128 al = a.lo, ah = a.hi, bl = b.lo, bh = b.hi;
  if (op == "Add" || op == "Sum")
    return {sat(al + bl), sat(ah + bh)};
  if (op == "Sub")
    return {sat(al - bh), sat(ah - bl)};
  if (op == "Mul")
    return hull({al * bl, al * bh, ah * bl, ah * bh});
  if (op == "Min")
    return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  if (op == "Max")
    return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  if (op == "Div") {
    if (b.lo > 0) // truncating division by a positive divisor is monotonic in both
      return hull({al / bl, al / bh, ah / bl, ah / bh});
    return {kMin, kMax};
  }
  auto decided = [](bool always, bool never) -> IntRange {
    return always ? IntRange{1, 1} : never ? IntRange{0, 0} : IntRange{0, 1};
  };
  if (op == "Equal")
    return decided(a.exact() && b.exact() && a.lo == b.lo, a.hi < b.lo || b.hi < a.lo);
  if (op == "Less")
    return decided(a.hi < b.lo, a.lo >= b.hi);
  if (op == "LessOrEqual")
    return decided(a.hi <= b.lo, a.lo > b.hi);
  if (op == "Greater")
    return decided(a.lo > b.hi, a.hi <= b.lo);
  if (op == "GreaterOrEqual")
    return decided(a.lo >= b.hi, a.hi < b.lo);
  if (op == "And")
    return decided(a.lo > 0 && b.lo > 0, a.hi == 0 || b.hi == 0);
  if (op == "Or")
    return decided(a.lo > 0 || b.lo > 0, a.hi == 0 && b.hi == 0);
  return {kMin, kMax};
}

/// The flat index into an input of `inShape` that numpy broadcasting reads for flat index `flat`
/// of `outShape`.
int64_t broadcastIndex(ArrayRef<int64_t> outShape, ArrayRef<int64_t> inShape, int64_t flat) {
  int64_t index = 0, stride = 1;
  for (int64_t d = outShape.size() - 1, k = inShape.size() - 1; d >= 0; --d, --k) {
    int64_t pos = flat % outShape[d];
    flat /= outShape[d];
    if (k < 0)
      continue;
    if (inShape[k] != 1)
      index += pos * stride;
    stride *= inShape[k];
  }
  return index;
}

bool isIntegerLike(Type t) { return isa<IntegerType>(t); }

/// The output's ranges for the node, or nullopt when the op is not one followed here.
std::optional<Ranges> outputRanges(NodeImporter &n) {
  StringRef op = n.opType();
  RankedTensorType outType = n.outputType(0);
  int64_t outCount = outType.getNumElements();
  auto in = [&](unsigned i) { return n.inputRanges(i); };

  // Same elements in the same order.
  if (llvm::is_contained({"Identity", "Squeeze", "Unsqueeze", "Reshape", "Flatten"}, op) ||
      ((op == "Cast" || op == "CastLike") && !outType.getElementType().isInteger(1))) {
    std::optional<Ranges> r = in(0);
    if (r && (int64_t)r->size() == outCount)
      return r;
    return std::nullopt;
  }
  if (op == "Neg" || op == "Abs") {
    std::optional<Ranges> r = in(0);
    if (!r)
      return std::nullopt;
    for (IntRange &e : *r)
      e = op == "Neg" ? IntRange{sat(-(__int128)e.hi), sat(-(__int128)e.lo)}
          : e.lo >= 0 ? e
          : e.hi <= 0 ? IntRange{sat(-(__int128)e.hi), sat(-(__int128)e.lo)}
                      : IntRange{0, std::max(sat(-(__int128)e.lo), e.hi)};
    return r;
  }
  if (op == "Gather") {
    std::optional<Ranges> data = in(0);
    const KnownTensor *indices = n.known(1);
    if (!data || !indices || n.inputType(0).getRank() > 1)
      return std::nullopt;
    int64_t size = data->size();
    Ranges out;
    for (int64_t i : indices->toInts()) {
      i = i < 0 ? i + size : i;
      if (i < 0 || i >= size)
        return std::nullopt;
      out.push_back((*data)[i]);
    }
    return out;
  }
  if (op == "Concat") {
    Ranges out;
    for (unsigned i = 0; i < n.node().inputs.size(); ++i) {
      std::optional<Ranges> r = in(i);
      if (!r || n.inputType(i).getRank() != 1)
        return std::nullopt;
      out.append(*r);
    }
    return out;
  }
  if (op == "Slice" && n.opset() >= 10) {
    std::optional<Ranges> data = in(0);
    std::optional<Ranges> starts = in(1), ends = in(2);
    if (!data || n.inputType(0).getRank() != 1 || !starts || !ends || starts->size() != 1 ||
        ends->size() != 1 || !(*starts)[0].exact() || !(*ends)[0].exact())
      return std::nullopt;
    int64_t step = 1;
    if (n.hasInput(4)) {
      std::optional<Ranges> s = in(4);
      if (!s || s->size() != 1 || !(*s)[0].exact())
        return std::nullopt;
      step = (*s)[0].lo;
    }
    int64_t size = data->size(), b = (*starts)[0].lo, e = (*ends)[0].lo;
    if (step != 1)
      return std::nullopt;
    b = std::clamp<int64_t>(b < 0 ? b + size : b, 0, size);
    e = std::clamp<int64_t>(e < 0 ? e + size : e, 0, size);
    Ranges out(data->begin() + b, data->begin() + std::max(b, e));
    if ((int64_t)out.size() != outCount)
      return std::nullopt;
    return out;
  }
  if (op == "ReduceMin" || op == "ReduceMax" || op == "ReduceSum" || op == "ReduceProd") {
    std::optional<Ranges> r = in(0);
    if (!r || outCount != 1 || r->empty())
      return std::nullopt;
    StringRef binaryOp = op == "ReduceMin"   ? "Min"
                         : op == "ReduceMax" ? "Max"
                         : op == "ReduceSum" ? "Add"
                                             : "Mul";
    IntRange acc = (*r)[0];
    for (size_t i = 1; i < r->size(); ++i)
      acc = combine(binaryOp, acc, (*r)[i]);
    return Ranges{acc};
  }
  if (op == "Clip") {
    std::optional<Ranges> r = in(0);
    if (!r)
      return std::nullopt;
    std::optional<Ranges> lo = n.hasInput(1) ? in(1) : std::nullopt;
    std::optional<Ranges> hi = n.hasInput(2) ? in(2) : std::nullopt;
    for (IntRange &e : *r) {
      if (lo && lo->size() == 1)
        e = combine("Max", e, (*lo)[0]);
      if (hi && hi->size() == 1)
        e = combine("Min", e, (*hi)[0]);
    }
    return r;
  }
  if (op == "Not") {
    std::optional<Ranges> r = in(0);
    if (!r)
      return std::nullopt;
    for (IntRange &e : *r)
      e = {1 - std::min<int64_t>(e.hi, 1), 1 - std::min<int64_t>(e.lo, 1)};
    return r;
  }
  if (op == "Where") {
    std::optional<Ranges> c = in(0), a = in(1), b = in(2);
    if (!c || !a || !b)
      return std::nullopt;
    Ranges out;
    for (int64_t i = 0; i < outCount; ++i) {
      IntRange ci = (*c)[broadcastIndex(outType.getShape(), n.inputType(0).getShape(), i)];
      IntRange ai = (*a)[broadcastIndex(outType.getShape(), n.inputType(1).getShape(), i)];
      IntRange bi = (*b)[broadcastIndex(outType.getShape(), n.inputType(2).getShape(), i)];
      out.push_back(ci.lo > 0    ? ai
                    : ci.hi == 0 ? bi
                                 : IntRange{std::min(ai.lo, bi.lo), std::max(ai.hi, bi.hi)});
    }
    return out;
  }
  static const char *const kBinary[] = {"Add",  "Sub",         "Mul",     "Div",
                                        "Min",  "Max",         "Sum",     "Equal",
                                        "Less", "LessOrEqual", "Greater", "GreaterOrEqual",
                                        "And",  "Or"};
  if (llvm::is_contained(kBinary, op)) {
    unsigned numInputs = n.node().inputs.size();
    if (numInputs < 1 || ((op != "Min" && op != "Max" && op != "Sum") && numInputs != 2))
      return std::nullopt;
    SmallVector<Ranges> inputs;
    for (unsigned i = 0; i < numInputs; ++i) {
      std::optional<Ranges> r = in(i);
      if (!r)
        return std::nullopt;
      inputs.push_back(*r);
    }
    Ranges out;
    for (int64_t i = 0; i < outCount; ++i) {
      IntRange acc = inputs[0][broadcastIndex(outType.getShape(), n.inputType(0).getShape(), i)];
      for (unsigned k = 1; k < numInputs; ++k)
        acc = combine(op, acc,
                      inputs[k][broadcastIndex(outType.getShape(), n.inputType(k).getShape(), i)]);
      out.push_back(acc);
    }
    return out;
  }
  return std::nullopt;
}

} // namespace

IntRange mlir::mie::onnx_import::rangeOfSymbolic(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {c.getValue(), c.getValue()};
  if (isa<AffineSymbolExpr>(e))
    return {1, std::numeric_limits<int32_t>::max()};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return {kMin, kMax};
  IntRange l = rangeOfSymbolic(bin.getLHS()), r = rangeOfSymbolic(bin.getRHS());
  bool positiveConstant = r.exact() && r.lo > 0;
  switch (bin.getKind()) {
  case AffineExprKind::Add:
    return combineRanges("Add", l, r);
  case AffineExprKind::Mul:
    return combineRanges("Mul", l, r);
  case AffineExprKind::FloorDiv:
    if (positiveConstant && l.lo >= 0) // truncation is the floor there
      return combineRanges("Div", l, r);
    break;
  case AffineExprKind::CeilDiv:
    if (positiveConstant && l.lo >= 0)
      return combineRanges("Div", combineRanges("Add", l, {r.lo - 1, r.lo - 1}), r);
    break;
  case AffineExprKind::Mod:
    if (positiveConstant)
      return {0, r.lo - 1};
    break;
  default:
    break;
  }
  return {kMin, kMax};
}

void mlir::mie::onnx_import::propagateRanges(NodeImporter &n) {
  // (An output with symbolic dims, an ms.range's, has no count of elements to follow.)
  if (!n.hasOutput(0) || !n.outputType(0).hasStaticShape() ||
      n.outputType(0).getNumElements() > kMaxBoundedElements)
    return;
  for (unsigned i = 0; i < n.node().inputs.size(); ++i)
    if (n.hasInput(i) && !isIntegerLike(n.inputType(i).getElementType()))
      return;
  // A size cast to a float type keeps its symbols (a window's length counted by a float Range,
  // as the window ops' function bodies do); only symbolic elements, so that nothing turns the
  // float value into a known integer one.
  bool floatCast = isa<FloatType>(n.outputType(0).getElementType()) &&
                   (n.opType() == "Cast" || n.opType() == "CastLike");
  if (!isIntegerLike(n.outputType(0).getElementType()) && !floatCast)
    return;
  std::optional<Ranges> r = outputRanges(n);
  if (r && floatCast && !llvm::all_of(*r, [](const IntRange &e) { return e.sym; }))
    return;
  if (r)
    n.setOutputRanges(0, *r);
}
