//===- OnnxSymbolicDims.cpp - Shape and Reshape over kept symbolic dims ---===//
//
// With OnnxImportOptions::keepSymbolicDims a graph input's symbolic dims stay `?`, and the sizes
// exporters compute from them (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) are followed
// as expressions of the function's symbols (IntRange::sym, carried through the integer
// arithmetic by OnnxValueRanges.cpp). Shape of such a value is a run-time ms.shape_of whose
// elements have those expressions; a Reshape to sizes that all have one is an ms.reshape with
// a `symbolic_shape`, so the Shape chain that computed them is left dead.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

/// The largest size a symbol is taken to have where ranges are compared.
constexpr int64_t kSymbolMax = std::numeric_limits<int32_t>::max();

int64_t clampToI64(__int128 v) {
  return (int64_t)std::clamp<__int128>(v, std::numeric_limits<int64_t>::min(),
                                       std::numeric_limits<int64_t>::max());
}

/// The range of `e` with every symbol in [1, kSymbolMax].
IntRange rangeOf(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {c.getValue(), c.getValue()};
  if (isa<AffineSymbolExpr>(e))
    return {1, kSymbolMax};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  IntRange l = rangeOf(bin.getLHS()), r = rangeOf(bin.getRHS());
  __int128 a = l.lo, b = l.hi, c = r.lo, d = r.hi;
  switch (bin.getKind()) {
  case AffineExprKind::Add:
    return {clampToI64(a + c), clampToI64(b + d)};
  case AffineExprKind::Mul:
    return {clampToI64(std::min({a * c, a * d, b * c, b * d})),
            clampToI64(std::max({a * c, a * d, b * c, b * d}))};
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    if (c > 0 && c == d) // division by a positive constant is monotonic
      return {clampToI64(a / c), clampToI64((b + c - 1) / c)};
    break;
  case AffineExprKind::Mod:
    if (c > 0 && c == d)
      return {0, clampToI64(c - 1)};
    break;
  default:
    break;
  }
  return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
}

/// The function the node is imported into, holding its symbols.
Operation *functionOf(NodeImporter &n) {
  Operation *op = n.builder().getInsertionBlock()->getParentOp();
  return isa<FunctionOpInterface>(op) ? op : op->getParentOfType<FunctionOpInterface>();
}

} // namespace

bool mlir::mie::onnx_import::hasSymbolicElements(NodeImporter &n, unsigned i) {
  std::optional<SmallVector<IntRange>> ranges = n.inputRanges(i);
  return ranges && llvm::any_of(*ranges, [](const IntRange &r) { return r.sym; }) &&
         llvm::all_of(*ranges, [](const IntRange &r) { return r.sym || r.exact(); });
}

LogicalResult mlir::mie::onnx_import::importShapeOfSymbolicDims(NodeImporter &n, int64_t start,
                                                                int64_t end) {
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  ms::SymbolicShapes shapes(functionOf(n));
  ArrayRef<AffineExpr> dims = shapes.dims(*x);
  SmallVector<IntRange> ranges;
  for (int64_t i = start; i < end; ++i) {
    if (!dims[i])
      return n.unsupportedFeature() << "dim " << i << " of " << n.inputType(0)
                                    << " is not an expression of the symbolic input dims";
    IntRange r = rangeOf(dims[i]);
    if (!r.exact())
      r.sym = dims[i];
    ranges.push_back(r);
  }
  FailureOr<Value> shape = n.create<ms::ShapeOfOp>(*x, start, end);
  if (failed(shape))
    return failure();
  n.setOutput(0, *shape);
  n.setOutputRanges(0, ranges);
  return success();
}

LogicalResult mlir::mie::onnx_import::importReshapeOfSymbolicDims(NodeImporter &n) {
  std::optional<SmallVector<IntRange>> requested = n.inputRanges(1);
  if (!requested)
    return n.requireKnown(1, "shape"), failure();
  bool allowZero = n.opset() >= 14 && n.getInt("allowzero", 0) != 0;
  FailureOr<Value> x = n.input(0);
  if (n.hasFailed() || failed(x))
    return failure();
  ms::SymbolicShapes shapes(functionOf(n));
  ArrayRef<AffineExpr> inDims = shapes.dims(*x);
  MLIRContext *ctx = n.context();
  SmallVector<AffineExpr> outDims;
  int64_t inferred = -1;
  for (auto [i, entry] : llvm::enumerate(*requested)) {
    AffineExpr e = entry.symbolic(ctx);
    auto c = dyn_cast_or_null<AffineConstantExpr>(e);
    if (c && c.getValue() == 0 && !allowZero) {
      if (i >= inDims.size())
        return n.error() << "shape entry " << i << " copies a dim that " << n.inputType(0)
                         << " does not have";
      e = inDims[i];
    } else if (c && c.getValue() == -1) {
      if (inferred >= 0)
        return n.error() << "shape has more than one -1";
      inferred = i;
    } else if (c && c.getValue() < 0) {
      return n.error() << "shape entry " << i << " is " << c.getValue() << ", below -1";
    }
    outDims.push_back(e);
  }
  auto product = [&](ArrayRef<AffineExpr> dims, int64_t skip) {
    AffineExpr p = getAffineConstantExpr(1, ctx);
    for (auto [i, e] : llvm::enumerate(dims))
      if ((int64_t)i != skip)
        p = p && e ? p * e : AffineExpr();
    return p;
  };
  if (inferred >= 0)
    outDims[inferred] = ms::divideExactly(product(inDims, -1), product(outDims, inferred));
  for (auto [i, e] : llvm::enumerate(outDims))
    if (!e)
      return n.unsupportedFeature() << "dim " << i << " of the reshaped " << n.inputType(0)
                                    << " is not an expression of the symbolic input dims";
  SmallVector<int64_t> shape;
  bool symbolic = false;
  for (AffineExpr e : outDims) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    symbolic |= !c;
    shape.push_back(c ? c.getValue() : ShapedType::kDynamic);
  }
  AffineMapAttr map;
  if (symbolic)
    map = AffineMapAttr::get(
        ms::symbolicShapeMap(ctx, ms::SymbolicShapes(functionOf(n)).numSymbols(), outDims));
  FailureOr<Value> y = n.create<ms::ReshapeOp>(*x, shape, map);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}
