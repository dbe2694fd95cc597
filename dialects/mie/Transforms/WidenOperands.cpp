//===- WidenOperands.cpp - narrow products computed on f32 copies ---------===//

#include "dialects/mie/Transforms/WidenOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

namespace mlir::mie {

FailureOr<std::vector<float>> readGlobalAsF32(memref::GlobalOp global) {
  auto type = cast<MemRefType>(global.getType());
  auto et = dyn_cast<FloatType>(type.getElementType());
  if (!global.getConstant() || !et || !(et.isF32() || et.isF16() || et.isBF16()))
    return failure();
  Attribute init = global.getInitialValueAttr();
  const int64_t count = type.getNumElements();
  std::vector<float> values(count);
  auto toFloat = [](const APFloat &v) {
    bool lost;
    APFloat f = v;
    f.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    return f.convertToFloat();
  };
  if (auto resource = dyn_cast_if_present<DenseResourceElementsAttr>(init)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    const size_t bytes = et.getWidth() / 8;
    if (!blob || blob->getData().size() != size_t(count) * bytes)
      return failure();
    const char *data = blob->getData().data();
    if (et.isF32()) {
      std::memcpy(values.data(), data, values.size() * sizeof(float));
      return values;
    }
    for (int64_t i = 0; i < count; ++i) {
      uint16_t h;
      std::memcpy(&h, data + i * sizeof(uint16_t), sizeof(h));
      values[i] = toFloat(APFloat(et.getFloatSemantics(), APInt(16, h)));
    }
    return values;
  }
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(init)) {
    if (dense.isSplat()) {
      std::fill(values.begin(), values.end(), toFloat(dense.getSplatValue<APFloat>()));
      return values;
    }
    llvm::transform(dense.getValues<APFloat>(), values.begin(), toFloat);
    return values;
  }
  return failure();
}

Type wideAccumulatorOf(Operation *op) {
  Value output;
  std::optional<Type> accumulator;
  if (auto conv = dyn_cast<Conv2dOp>(op)) {
    output = conv.getOutput();
    accumulator = conv.getAccumulator();
  } else if (auto gemm = dyn_cast<GemmOp>(op)) {
    output = gemm.getOutput();
    accumulator = gemm.getAccumulator();
  }
  if (!output || !accumulator)
    return Type();
  auto et = dyn_cast<FloatType>(cast<MemRefType>(output.getType()).getElementType());
  auto acc = dyn_cast<FloatType>(*accumulator);
  if (!et || !acc || et.getWidth() > 16 || acc.getWidth() <= et.getWidth())
    return Type();
  return acc;
}

namespace {

/// A kernel converting every element of `from` into `to` (same shape, float types).
void buildConvertKernel(OpBuilder &b, Location loc, StringRef name, Value from, Value to) {
  auto toType = cast<MemRefType>(to.getType());
  int64_t rank = toType.getRank();
  Type et = toType.getElementType();
  bool widen = cast<FloatType>(et).getWidth() >
               cast<FloatType>(cast<MemRefType>(from.getType()).getElementType()).getWidth();
  KernelOp::create(b, loc, name, ValueRange{from}, ValueRange{to},
                   [&](OpBuilder &kb, Location kl, ValueRange args) {
                     AffineMap id = AffineMap::getMultiDimIdentityMap(rank, kb.getContext());
                     linalg::GenericOp::create(
                         kb, kl, args[0], args[1], SmallVector<AffineMap>{id, id},
                         SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
                         [&](OpBuilder &gb, Location gl, ValueRange e) {
                           Value v = widen ? (Value)arith::ExtFOp::create(gb, gl, et, e[0])
                                           : (Value)arith::TruncFOp::create(gb, gl, et, e[0]);
                           linalg::YieldOp::create(gb, gl, v);
                         });
                   });
}

/// The `wide` copy of the constant global `v` reads, made at compile time (one per global), or
/// null when `v` is not a readable constant global.
Value wideConstant(OpBuilder &b, Location loc, Value v, Type wide, SymbolTable &symbols) {
  auto get = v.getDefiningOp<memref::GetGlobalOp>();
  auto global = get ? symbols.lookup<memref::GlobalOp>(get.getName()) : memref::GlobalOp();
  if (!global || !wide.isF32())
    return Value();
  auto type = cast<MemRefType>(global.getType());
  auto wideType = MemRefType::get(type.getShape(), wide);
  std::string name = (global.getSymName() + "_f32").str();
  if (!symbols.lookup<memref::GlobalOp>(name)) {
    FailureOr<std::vector<float>> values = readGlobalAsF32(global);
    if (failed(values))
      return Value();
    OpBuilder gb = OpBuilder::atBlockBegin(&symbols.getOp()->getRegion(0).front());
    auto tensorType = RankedTensorType::get(type.getShape(), wide);
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(reinterpret_cast<const char *>(values->data()),
                       values->size() * sizeof(float)),
        alignof(float), /*dataIsMutable=*/false);
    auto init = DenseResourceElementsAttr::get(tensorType, name, std::move(blob));
    auto wideGlobal = memref::GlobalOp::create(gb, global.getLoc(), name,
                                               gb.getStringAttr("private"), wideType, init,
                                               /*constant=*/true, /*alignment=*/nullptr);
    symbols.insert(wideGlobal);
  }
  return memref::GetGlobalOp::create(b, loc, wideType, name);
}

} // namespace

void widenToF32(Operation *op, Type wide, SymbolTable &symbols) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value output =
      isa<Conv2dOp>(op) ? cast<Conv2dOp>(op).getOutput() : cast<GemmOp>(op).getOutput();
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    auto type = cast<MemRefType>(v.getType());
    if (v == output) {
      Value scratch = AllocOp::create(b, loc, MemRefType::get(type.getShape(), wide));
      OpBuilder after(op->getContext());
      after.setInsertionPointAfter(op);
      buildConvertKernel(after, loc, "narrow", scratch, v);
      operand.set(scratch);
      continue;
    }
    if (Value constant = wideConstant(b, loc, v, wide, symbols)) {
      operand.set(constant);
      // The narrow weights leave the package when nothing else reads them.
      auto get = v.getDefiningOp<memref::GetGlobalOp>();
      if (get->use_empty()) {
        StringRef name = get.getName();
        get.erase();
        auto global = symbols.lookup<memref::GlobalOp>(name);
        if (global && SymbolTable::symbolKnownUseEmpty(global, symbols.getOp()))
          symbols.erase(global);
      }
      continue;
    }
    Value scratch = AllocOp::create(b, loc, MemRefType::get(type.getShape(), wide));
    buildConvertKernel(b, loc, "widen", v, scratch);
    operand.set(scratch);
  }
  op->removeAttr("accumulator");
}

} // namespace mlir::mie
