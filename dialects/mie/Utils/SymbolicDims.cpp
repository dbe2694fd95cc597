//===- SymbolicDims.cpp - dims of code for symbolic dims as expressions ---===//

#include "dialects/mie/Utils/SymbolicDims.h"

#include "dialects/mie/IR/MieOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::mie;

/// The results of `map` over `operands`, each operand's expression in place of its dim or symbol;
/// empty where an operand has none.
static SmallVector<AffineExpr> resultsOver(AffineMap map, ValueRange operands) {
  SmallVector<AffineExpr> dims, symbols;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    AffineExpr e = symbolicExpr(operand);
    if (!e)
      return {};
    (i < map.getNumDims() ? dims : symbols).push_back(e);
  }
  SmallVector<AffineExpr> results;
  for (AffineExpr result : map.getResults())
    results.push_back(result.replaceDimsAndSymbols(dims, symbols));
  return results;
}

AffineExpr mlir::mie::symbolicExpr(Value v) {
  MLIRContext *ctx = v.getContext();
  if (auto constant = v.getDefiningOp<arith::ConstantIndexOp>())
    return getAffineConstantExpr(constant.value(), ctx);
  if (auto symbol = v.getDefiningOp<SymbolOp>())
    return getAffineSymbolExpr(unsigned(symbol.getIndex()), ctx);
  if (auto dim = v.getDefiningOp<memref::DimOp>()) {
    std::optional<int64_t> index = dim.getConstantIndex();
    return index ? dimExpr(dim.getSource(), *index) : AffineExpr();
  }
  auto apply = v.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return {};
  SmallVector<AffineExpr> results = resultsOver(apply.getAffineMap(), apply.getMapOperands());
  return results.empty() ? AffineExpr() : results.front();
}

SmallVector<AffineExpr> mlir::mie::symbolicMinExprs(Value v) {
  if (auto min = v.getDefiningOp<affine::AffineMinOp>())
    return resultsOver(min.getAffineMap(), min.getMapOperands());
  AffineExpr e = symbolicExpr(v);
  return e ? SmallVector<AffineExpr>{e} : SmallVector<AffineExpr>();
}

Value mlir::mie::createLeast(OpBuilder &b, Location loc, AffineMap map, ValueRange operands) {
  if (map.getNumResults() == 1)
    return affine::AffineApplyOp::create(b, loc, map, operands).getResult();
  return affine::AffineMinOp::create(b, loc, map, operands).getResult();
}

AffineExpr mlir::mie::dimExpr(Value buffer, int64_t d) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || d < 0 || d >= type.getRank())
    return {};
  MLIRContext *ctx = buffer.getContext();
  if (!type.isDynamicDim(d))
    return getAffineConstantExpr(type.getDimSize(d), ctx);
  if (auto alloc = buffer.getDefiningOp<AllocOp>())
    return symbolicExpr(alloc.getDynamicSizes()[type.getDynamicDimIndex(d)]);
  if (auto collapse = buffer.getDefiningOp<memref::CollapseShapeOp>()) {
    AffineExpr product = getAffineConstantExpr(1, ctx);
    for (int64_t source : collapse.getReassociationIndices()[d]) {
      AffineExpr e = dimExpr(collapse.getSrc(), source);
      if (!e)
        return {};
      product = product * e;
    }
    return product;
  }
  if (auto expand = buffer.getDefiningOp<memref::ExpandShapeOp>()) {
    OpFoldResult size = expand.getMixedOutputShape()[d];
    if (auto value = dyn_cast<Value>(size))
      return symbolicExpr(value);
    return {};
  }
  if (auto arg = dyn_cast<BlockArgument>(buffer)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getBody().front())
      return {};
    // The dims of a graph input over the symbols (convert-ms-to-mie keeps the importer's).
    auto map = func.getArgAttrOfType<AffineMapAttr>(arg.getArgNumber(), "ms.shape");
    if (!map || int64_t(map.getValue().getNumResults()) != type.getRank())
      return {};
    return map.getValue().getResult(d);
  }
  return {};
}

int64_t mlir::mie::evaluateSymbolic(AffineExpr expr, ArrayRef<int64_t> values) {
  SmallVector<AffineExpr> constants;
  for (int64_t v : values)
    constants.push_back(getAffineConstantExpr(v, expr.getContext()));
  AffineExpr folded = simplifyAffineExpr(expr.replaceSymbols(constants), 0, values.size());
  auto constant = dyn_cast<AffineConstantExpr>(folded);
  return constant ? constant.getValue() : 0;
}

std::vector<std::vector<int64_t>> mlir::mie::rangeSamples(ArrayRef<int64_t> ranges) {
  const size_t n = ranges.size() / 2;
  std::vector<std::vector<int64_t>> samples;
  std::vector<int64_t> middle;
  for (size_t s = 0; s < n; ++s)
    middle.push_back((ranges[2 * s] + ranges[2 * s + 1] + 1) / 2);
  if (n <= 4) {
    for (size_t corner = 0; corner < (size_t(1) << n); ++corner) {
      std::vector<int64_t> point;
      for (size_t s = 0; s < n; ++s)
        point.push_back(ranges[2 * s + ((corner >> s) & 1)]);
      samples.push_back(point);
    }
  } else {
    std::vector<int64_t> low, high;
    for (size_t s = 0; s < n; ++s) {
      low.push_back(ranges[2 * s]);
      high.push_back(ranges[2 * s + 1]);
    }
    samples = {low, high};
    for (size_t s = 0; s < n; ++s) {
      samples.push_back(low);
      samples.back()[s] = high[s];
    }
  }
  samples.push_back(middle);
  return samples;
}

std::optional<std::pair<int64_t, int64_t>> mlir::mie::dimBounds(Value buffer, int64_t d) {
  AffineExpr expr = dimExpr(buffer, d);
  if (!expr)
    return std::nullopt;
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return std::make_pair(constant.getValue(), constant.getValue());
  Operation *scope =
      buffer.getDefiningOp() ? buffer.getDefiningOp() : buffer.getParentBlock()->getParentOp();
  auto func =
      isa<func::FuncOp>(scope) ? cast<func::FuncOp>(scope) : scope->getParentOfType<func::FuncOp>();
  auto ranges = func ? func->getAttrOfType<DenseI64ArrayAttr>(MieDialect::getSymbolRangesAttrName())
                     : nullptr;
  if (!ranges)
    return std::nullopt;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const std::vector<int64_t> &point : rangeSamples(ranges.asArrayRef())) {
    int64_t value = evaluateSymbolic(expr, point);
    lo = std::min(lo, value);
    hi = std::max(hi, value);
  }
  return std::make_pair(lo, hi);
}
