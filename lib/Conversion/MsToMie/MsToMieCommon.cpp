//===- MsToMieCommon.cpp - buffers and kernels for the ms -> mie lowering -===//

#include "MsToMieCommon.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::mie;

Type mstomie::signlessType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(signlessType(shaped.getElementType()));
  if (auto it = dyn_cast<IntegerType>(type); it && !it.isSignless())
    return IntegerType::get(type.getContext(), it.getWidth());
  return type;
}

bool mstomie::isUnsignedType(Type type) {
  auto it = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return it && it.isUnsigned();
}

bool mstomie::lowersUnsigned(Operation *op) {
  return isa<ms::ConstantOp, ms::ReshapeOp, ms::FlattenOp, ms::SqueezeOp, ms::UnsqueezeOp,
             ms::TransposeOp, ms::ConcatOp, ms::SliceOp, ms::GatherOp, ms::ExpandOp, ms::AddOp,
             ms::SubOp, ms::MulOp, ms::DivOp, ms::MaxOp, ms::MinOp, ms::ModOp, ms::AndOp, ms::OrOp,
             ms::XorOp, ms::ShiftLeftOp, ms::ShiftRightOp, ms::NotOp, ms::CompareOp, ms::WhereOp,
             ms::CastOp, ms::ReluOp, ms::ClipOp, ms::AbsOp, ms::NegOp, ms::SignOp, ms::ReduceSumOp,
             ms::ReduceMeanOp, ms::ReduceProdOp, ms::ReduceMaxOp, ms::ReduceMinOp, ms::ArgMaxOp,
             ms::ArgMinOp, ms::TopKOp, ms::CumSumOp, ms::GatherElementsOp, ms::GatherNdOp,
             ms::SplitOp, ms::ScatterElementsOp, ms::ScatterNdOp, ms::NonZeroOp, ms::UniqueOp,
             ms::QConv2dOp, ms::ImageDecodeOp>(op);
}

MemRefType mstomie::bufferTypeFor(Type tensorType) {
  auto tensor = cast<RankedTensorType>(tensorType);
  return MemRefType::get(tensor.getShape(), signlessType(tensor.getElementType()));
}

Value mstomie::allocBuffer(OpBuilder &b, Location loc, Type tensorType) {
  return AllocOp::create(b, loc, bufferTypeFor(tensorType));
}

SmallVector<OpFoldResult> mstomie::resultSizes(OpBuilder &b, Location loc, Operation *op,
                                               unsigned index) {
  auto type = cast<RankedTensorType>(op->getResult(index).getType());
  SmallVector<OpFoldResult> sizes;
  auto maps = op->getAttrOfType<ArrayAttr>(kResultDimsAttrName);
  AffineMap map = maps ? cast<AffineMapAttr>(maps[index]).getValue() : AffineMap();
  SmallVector<Value> symbols;
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size)) {
      sizes.push_back(b.getIndexAttr(size));
      continue;
    }
    // Checked by convert-ms-to-mie before any pattern runs.
    assert(map && "a dynamic dim without its recorded expression");
    if (symbols.empty())
      for (unsigned s = 0; s < map.getNumSymbols(); ++s)
        symbols.push_back(SymbolOp::create(b, loc, b.getIndexType(), b.getI64IntegerAttr(s)));
    AffineMap one = AffineMap::get(0, map.getNumSymbols(), map.getResult(d));
    sizes.push_back(affine::AffineApplyOp::create(b, loc, one, symbols).getResult());
  }
  return sizes;
}

Value mstomie::allocResult(OpBuilder &b, Location loc, Operation *op, unsigned index) {
  MemRefType type = bufferTypeFor(op->getResult(index).getType());
  if (type.hasStaticShape())
    return AllocOp::create(b, loc, type);
  SmallVector<Value> dynamic;
  for (OpFoldResult size : resultSizes(b, loc, op, index))
    if (auto value = dyn_cast<Value>(size))
      dynamic.push_back(value);
  return AllocOp::create(b, loc, type, dynamic, IntegerAttr());
}

SmallVector<AffineExpr> mstomie::recordedDims(Value value, Operation *user) {
  auto type = cast<ShapedType>(value.getType());
  MLIRContext *ctx = value.getContext();
  if (type.hasStaticShape())
    return llvm::map_to_vector(type.getShape(),
                               [&](int64_t size) { return getAffineConstantExpr(size, ctx); });
  AffineMap map;
  if (auto result = dyn_cast<OpResult>(value)) {
    if (auto maps = result.getOwner()->getAttrOfType<ArrayAttr>(kResultDimsAttrName))
      map = cast<AffineMapAttr>(maps[result.getResultNumber()]).getValue();
  } else {
    // While the conversion runs, the entry block may already be the converted one, or the
    // original one, detached: then the argument's number is that of the function holding `user`.
    Block *block = cast<BlockArgument>(value).getOwner();
    Operation *parent = block->getParent() ? block->getParentOp() : nullptr;
    FunctionOpInterface func;
    if (!parent)
      func = user->getParentOfType<FunctionOpInterface>();
    else if (block->isEntryBlock())
      func = dyn_cast<FunctionOpInterface>(parent);
    auto arg = cast<BlockArgument>(value);
    if (func && arg.getArgNumber() < func.getNumArguments())
      if (auto attr =
              func.getArgAttrOfType<AffineMapAttr>(arg.getArgNumber(), ms::kArgShapeAttrName))
        map = attr.getValue();
  }
  if (!map || map.getNumResults() != type.getRank())
    return {};
  return llvm::to_vector(map.getResults());
}

/// Where symbol `position` is an extent of one of `buffers`: (buffer, dim), or nothing.
static std::optional<std::pair<size_t, int64_t>>
findSymbolExtent(unsigned position, ArrayRef<SmallVector<AffineExpr>> buffers) {
  for (auto [i, dims] : llvm::enumerate(buffers))
    for (auto [d, dim] : llvm::enumerate(dims))
      if (auto symbol = dyn_cast_or_null<AffineSymbolExpr>(dim);
          symbol && symbol.getPosition() == position)
        return std::make_pair(i, static_cast<int64_t>(d));
  return std::nullopt;
}

bool mstomie::isComputableFromExtents(AffineExpr expr, ArrayRef<SmallVector<AffineExpr>> buffers) {
  bool ok = true;
  expr.walk([&](AffineExpr e) {
    if (isa<AffineDimExpr>(e))
      ok = false;
    else if (auto symbol = dyn_cast<AffineSymbolExpr>(e))
      ok &= findSymbolExtent(symbol.getPosition(), buffers).has_value();
  });
  return ok;
}

Value mstomie::emitFromExtents(OpBuilder &b, Location loc, AffineExpr expr, ValueRange args,
                               ArrayRef<SmallVector<AffineExpr>> buffers, Value symbolValues) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(b, loc, c.getValue());
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr)) {
    auto at = findSymbolExtent(symbol.getPosition(), buffers);
    if (at)
      return memref::DimOp::create(b, loc, args[at->first], at->second);
    assert(symbolValues && "a symbol that no buffer has as an extent");
    Value word = memref::LoadOp::create(
        b, loc, symbolValues,
        ValueRange{arith::ConstantIndexOp::create(b, loc, symbol.getPosition())});
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), word);
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = emitFromExtents(b, loc, binary.getLHS(), args, buffers, symbolValues);
  Value rhs = emitFromExtents(b, loc, binary.getRHS(), args, buffers, symbolValues);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::Mul:
    return arith::MulIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::Mod: {
    // Affine mod is non-negative (the divisor is a positive constant).
    Value r = arith::RemSIOp::create(b, loc, lhs, rhs);
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r,
                                           arith::ConstantIndexOp::create(b, loc, 0));
    return arith::SelectOp::create(b, loc, negative, arith::AddIOp::create(b, loc, r, rhs), r);
  }
  case AffineExprKind::FloorDiv:
    return arith::FloorDivSIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::CeilDiv:
    return arith::CeilDivSIOp::create(b, loc, lhs, rhs);
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

Value mstomie::symbolValuesBuffer(OpBuilder &b, Location loc, Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  auto symbols = func->getAttrOfType<ArrayAttr>(ms::kSymbolsAttrName);
  int64_t count = symbols ? int64_t(symbols.size()) : 0;
  return SymbolValuesOp::create(b, loc, MemRefType::get({count}, b.getI64Type()));
}

Value mstomie::extentProduct(OpBuilder &b, Location loc, Value buffer, int64_t from, int64_t to) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t constant = 1;
  Value product;
  for (int64_t d = from; d < to; ++d) {
    if (!type.isDynamicDim(d)) {
      constant *= type.getDimSize(d);
      continue;
    }
    Value dim = memref::DimOp::create(b, loc, buffer, d);
    product = product ? (Value)arith::MulIOp::create(b, loc, product, dim) : dim;
  }
  if (product && constant == 1)
    return product;
  Value c = arith::ConstantIndexOp::create(b, loc, constant);
  return product ? (Value)arith::MulIOp::create(b, loc, product, c) : c;
}

AffineMap mstomie::broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                                ArrayRef<int64_t> resultShape) {
  SmallVector<AffineExpr> exprs;
  size_t offset = resultShape.size() - operandShape.size();
  for (auto [i, dim] : llvm::enumerate(operandShape)) {
    bool broadcast = dim == 1 && resultShape[offset + i] != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx) : getAffineDimExpr(offset + i, ctx));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

/// The row length B of the [T / B, B] form of an elementwise kernel over T = `elements`: the
/// longest row of at most 4096 elements, a multiple of 16 (whole vectors), that divides T; 0 where
/// there is none of at least 256.
static int64_t flatRowLength(int64_t elements) {
  for (int64_t row = 4096; row >= 256; row -= 16)
    if (elements % row == 0)
      return row;
  return 0;
}

/// An elementwise kernel whose operands all have the output's shape or hold one element reads
/// them as [T / B, B] rows of the flat buffers (flatRowLength): the inner loop then runs over
/// whole vectors however short the output's last dimension is (7 on a ResNet's last maps, where
/// the loop over rows of 7 was mostly remainder code), and the outer loop still splits over
/// threads. Returns the reshaped arguments (output last), or nothing where the form does not
/// apply (broadcasts along some dimensions, strided views, small outputs).
static SmallVector<Value> flatRows(OpBuilder &b, Location loc, ValueRange args) {
  auto outType = cast<MemRefType>(args.back().getType());
  int64_t elements = outType.hasStaticShape() ? outType.getNumElements() : 0;
  int64_t row = outType.getRank() >= 2 && outType.hasStaticShape() && elements > 4096
                    ? flatRowLength(elements)
                    : 0;
  if (!row || outType.getShape().back() % 16 == 0)
    return {};
  for (Value arg : args) {
    auto type = cast<MemRefType>(arg.getType());
    if (!type.getLayout().isIdentity() ||
        (type.getShape() != outType.getShape() && type.getNumElements() != 1))
      return {};
  }
  SmallVector<Value> flat;
  for (Value arg : args) {
    auto type = cast<MemRefType>(arg.getType());
    if (type.getShape() != outType.getShape()) { // one element, read as a 0-d buffer
      flat.push_back(type.getRank() == 0 ? arg
                                         : memref::CollapseShapeOp::create(
                                               b, loc, arg, ArrayRef<ReassociationIndices>{}));
      continue;
    }
    ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    Value vector =
        memref::CollapseShapeOp::create(b, loc, arg, ArrayRef<ReassociationIndices>{all});
    flat.push_back(memref::ExpandShapeOp::create(
        b, loc, MemRefType::get({elements / row, row}, type.getElementType()), vector,
        ArrayRef<ReassociationIndices>{{0, 1}}));
  }
  return flat;
}

void mstomie::buildElementwiseKernel(OpBuilder &b, Location loc, StringRef name, ValueRange inputs,
                                     Value output, ScalarFn scalar) {
  KernelOp::create(b, loc, name, inputs, output, [&](OpBuilder &kb, Location kl, ValueRange kargs) {
    MLIRContext *ctx = kb.getContext();
    SmallVector<Value> flat = flatRows(kb, kl, kargs);
    ValueRange args = flat.empty() ? kargs : ValueRange(flat);
    auto outType = cast<MemRefType>(args.back().getType());
    SmallVector<AffineMap> maps;
    for (Value in : args.drop_back())
      maps.push_back(
          broadcastMap(ctx, cast<MemRefType>(in.getType()).getShape(), outType.getShape()));
    maps.push_back(AffineMap::getMultiDimIdentityMap(outType.getRank(), ctx));
    SmallVector<utils::IteratorType> iterators(outType.getRank(), utils::IteratorType::parallel);
    linalg::GenericOp::create(kb, kl, args.drop_back(), args.back(), maps, iterators,
                              [&](OpBuilder &gb, Location gl, ValueRange elems) {
                                Value r =
                                    scalar(gb, gl, elems.drop_back(), outType.getElementType());
                                linalg::YieldOp::create(gb, gl, r);
                              });
  });
}

Value mstomie::collapseToRows(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 2)
    return buffer;
  SmallVector<ReassociationIndices> groups(2);
  for (int64_t i = 0; i < type.getRank() - 1; ++i)
    groups[0].push_back(i);
  groups[1].push_back(type.getRank() - 1);
  return memref::CollapseShapeOp::create(b, loc, buffer, groups);
}

Value mstomie::collapseToBatch(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t rank = type.getRank();
  if (rank == 3)
    return buffer;
  SmallVector<ReassociationIndices> groups(3);
  for (int64_t i = 0; i < rank - 2; ++i)
    groups[0].push_back(i);
  groups[1].push_back(rank - 2);
  groups[2].push_back(rank - 1);
  return memref::CollapseShapeOp::create(b, loc, buffer, groups);
}

void mstomie::buildCopyKernel(OpBuilder &b, Location loc, StringRef name, Value input,
                              Value output) {
  KernelOp::create(b, loc, name, input, output, [&](OpBuilder &kb, Location kl, ValueRange args) {
    Value in = args[0], out = args[1];
    if (cast<MemRefType>(in.getType()).getRank() == 0 ||
        cast<MemRefType>(out.getType()).getRank() == 0) {
      // Scalars: a 0-d copy via load/store of the one element.
      Value zero = arith::ConstantIndexOp::create(kb, kl, 0);
      auto indices = [&](Value v) {
        return SmallVector<Value>(cast<MemRefType>(v.getType()).getRank(), zero);
      };
      Value x = memref::LoadOp::create(kb, kl, in, indices(in));
      memref::StoreOp::create(kb, kl, x, out, indices(out));
      return;
    }
    linalg::CopyOp::create(kb, kl, collapseToVector(kb, kl, in), collapseToVector(kb, kl, out));
  });
}

Type mstomie::computeType(Type elementType) {
  if (auto ft = dyn_cast<FloatType>(elementType); ft && ft.getWidth() < 32)
    return Float32Type::get(elementType.getContext());
  return elementType;
}

Value mstomie::convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  auto from = cast<FloatType>(v.getType());
  auto target = cast<FloatType>(to);
  if (from == target)
    return v;
  if (from.getWidth() < target.getWidth())
    return arith::ExtFOp::create(b, loc, target, v);
  return arith::TruncFOp::create(b, loc, target, v);
}

Value mstomie::extremeConstant(OpBuilder &b, Location loc, Type type, bool lowest,
                               bool isUnsigned) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(ft, lowest ? -std::numeric_limits<double>::infinity()
                                  : std::numeric_limits<double>::infinity()));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = isUnsigned
                    ? (lowest ? APInt::getMinValue(width) : APInt::getMaxValue(width))
                    : (lowest ? APInt::getSignedMinValue(width) : APInt::getSignedMaxValue(width));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value mstomie::wrapIndex(OpBuilder &b, Location loc, Value index, int64_t dimSize) {
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
  Value wrapped = arith::AddIOp::create(b, loc, i, arith::ConstantIndexOp::create(b, loc, dimSize));
  i = arith::SelectOp::create(b, loc, negative, wrapped, i);
  Value upper =
      arith::MinSIOp::create(b, loc, i, arith::ConstantIndexOp::create(b, loc, dimSize - 1));
  return arith::MaxSIOp::create(b, loc, upper, zero);
}

SmallVector<Value> mstomie::indexConstants(OpBuilder &b, Location loc, ArrayRef<int64_t> shape) {
  return llvm::map_to_vector(
      shape, [&](int64_t size) -> Value { return arith::ConstantIndexOp::create(b, loc, size); });
}

void mstomie::buildLoopNest(OpBuilder &b, Location loc, ValueRange upperBounds, bool parallel,
                            LoopBodyFn body) {
  if (upperBounds.empty()) {
    body(b, loc, {});
    return;
  }
  SmallVector<Value> lbs(upperBounds.size(), arith::ConstantIndexOp::create(b, loc, 0));
  SmallVector<Value> steps(upperBounds.size(), arith::ConstantIndexOp::create(b, loc, 1));
  if (parallel)
    scf::ParallelOp::create(b, loc, lbs, upperBounds, steps, body);
  else
    scf::buildLoopNest(b, loc, lbs, upperBounds, steps, body);
}

int64_t mstomie::normalizeAxis(uint64_t axis, int64_t rank) {
  auto a = static_cast<int64_t>(axis);
  return a < 0 ? a + rank : a;
}

Value mstomie::RowLoops::index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

void mstomie::RowLoops::forEachRow(int64_t rows, function_ref<void(Value row, Value base)> body) {
  auto par = scf::ParallelOp::create(b, loc, ValueRange{index(0)}, ValueRange{index(rows)},
                                     ValueRange{index(1)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(par.getBody());
  Value row = par.getInductionVars()[0];
  body(row, arith::MulIOp::create(b, loc, row, index(len)));
}

void mstomie::RowLoops::forEachRowOf(Value buffer, int64_t rowDim, int64_t staticRows,
                                     function_ref<void(Value row, Value base)> body) {
  if (cast<MemRefType>(buffer.getType()).hasStaticShape())
    return forEachRow(staticRows, body);
  forEachRow(extentProduct(b, loc, buffer, 0, rowDim), body);
}

void mstomie::RowLoops::forEachRow(Value rows, function_ref<void(Value row, Value base)> body) {
  auto par =
      scf::ParallelOp::create(b, loc, ValueRange{index(0)}, ValueRange{rows}, ValueRange{index(1)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(par.getBody());
  Value row = par.getInductionVars()[0];
  body(row, arith::MulIOp::create(b, loc, row, index(len)));
}

Value mstomie::RowLoops::reduce(
    Value init, function_ref<Value(OpBuilder &, Location, Value j, Value acc)> step) {
  auto loop = scf::ForOp::create(b, loc, index(0), index(len), index(1), ValueRange{init},
                                 [&](OpBuilder &fb, Location fl, Value j, ValueRange acc) {
                                   scf::YieldOp::create(fb, fl, step(fb, fl, j, acc[0]));
                                 });
  return loop.getResult(0);
}

void mstomie::RowLoops::each(function_ref<void(OpBuilder &, Location, Value j)> body) {
  scf::ForOp::create(b, loc, index(0), index(len), index(1), ValueRange{},
                     [&](OpBuilder &fb, Location fl, Value j, ValueRange) {
                       body(fb, fl, j);
                       scf::YieldOp::create(fb, fl);
                     });
}

Value mstomie::loadAt(OpBuilder &b, Location loc, Value flat, Value base, Value j) {
  Value at = base ? (Value)arith::AddIOp::create(b, loc, base, j) : j;
  return memref::LoadOp::create(b, loc, flat, at);
}
