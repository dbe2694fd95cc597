//===- FusionUtils.cpp - shared pieces of the ms fusion passes ------------===//

#include "dialects/ms/Transforms/FusionUtils.h"

#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::ms;

bool ms::isFusibleElementwise(Operation *op) { return isElementwiseOp(op); }

bool ms::isFloatReduction(Operation *op) {
  return isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp>(op) &&
         isa<FloatType>(getElementTypeOrSelf(op->getOperand(0).getType()));
}

bool ms::isFusibleReduction(Operation *op) {
  return isFloatReduction(op) && hasKnownDims(op->getOperand(0));
}

std::string ms::fusedKernelName(ArrayRef<Operation *> members) {
  constexpr size_t kMaxNamed = 5;
  std::string name;
  for (auto [i, op] : llvm::enumerate(members)) {
    if (i == kMaxNamed) {
      name += "_x" + std::to_string(members.size());
      break;
    }
    if (i)
      name += "_";
    name += op->getName().stripDialect().str();
  }
  return name;
}

FusedOp ms::wrapInFusedOp(RewriterBase &rewriter, ArrayRef<Operation *> members) {
  Operation *root = members.back();
  llvm::SmallPtrSet<Operation *, 16> inGroup(members.begin(), members.end());
  SmallVector<Value> inputs;
  llvm::SmallDenseSet<Value> seen;
  SmallVector<Location> locs;
  for (Operation *op : members) {
    locs.push_back(op->getLoc());
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if ((!def || !inGroup.contains(def)) && seen.insert(operand).second)
        inputs.push_back(operand);
    }
  }
  Location loc = rewriter.getFusedLoc(locs);
  rewriter.setInsertionPoint(root);
  auto fused = FusedOp::create(rewriter, loc, root->getResult(0).getType(),
                               fusedKernelName(members), inputs);
  Block *body = rewriter.createBlock(&fused.getBody(), {}, ValueRange(inputs).getTypes(),
                                     SmallVector<Location>(inputs.size(), loc));
  IRMapping mapping;
  mapping.map(inputs, body->getArguments());
  rewriter.setInsertionPointToStart(body);
  for (Operation *op : members)
    rewriter.clone(*op, mapping);
  YieldOp::create(rewriter, loc, mapping.lookup(root->getResult(0)));
  rewriter.replaceOp(root, fused.getResult());
  for (Operation *op : llvm::reverse(members.drop_back()))
    rewriter.eraseOp(op);
  return fused;
}

Location ms::chainLoc(Operation *root, ValueRange stops) {
  SmallVector<Operation *> worklist = {root};
  llvm::SetVector<Operation *> chain;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (isa<ConstantOp>(op) || !chain.insert(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && !llvm::is_contained(stops, operand))
        worklist.push_back(def);
  }
  SmallVector<Operation *> ordered(chain.begin(), chain.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->getBlock() == b->getBlock() ? a->isBeforeInBlock(b) : a < b;
  });
  SmallVector<Location> locs;
  for (Operation *op : ordered)
    locs.push_back(op->getLoc());
  return FusedLoc::get(root->getContext(), locs);
}

std::optional<double> ms::getSplatValue(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  if (!cst)
    return std::nullopt;
  // Importers keep even scalars in blobs: read one-element resources directly.
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(cst.getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    Type et = resource.getType().getElementType();
    if (!blob || resource.getType().getNumElements() != 1)
      return std::nullopt;
    ArrayRef<char> bytes = blob->getData();
    auto read = [&](auto zero) -> std::optional<double> {
      if (bytes.size() != sizeof(zero))
        return std::nullopt;
      std::memcpy(&zero, bytes.data(), sizeof(zero));
      return (double)zero;
    };
    if (et.isF32())
      return read(0.0f);
    if (et.isF64())
      return read(0.0);
    if (et.isInteger(64))
      return read(int64_t(0));
    if (et.isInteger(32))
      return read(int32_t(0));
    if (et.isUnsignedInteger(8))
      return read(uint8_t(0));
    if (et.isSignlessInteger(8))
      return read(int8_t(0));
    return std::nullopt;
  }
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!dense || !(dense.isSplat() || dense.getNumElements() == 1))
    return std::nullopt;
  Type et = dense.getElementType();
  if (isa<FloatType>(et))
    return (*dense.getValues<APFloat>().begin()).convertToDouble();
  if (et.isInteger(1))
    return *dense.getValues<bool>().begin() ? 1.0 : 0.0;
  if (isa<IntegerType>(et)) {
    APInt v = *dense.getValues<APInt>().begin();
    return et.isUnsignedInteger() ? (double)v.getZExtValue() : (double)v.getSExtValue();
  }
  return std::nullopt;
}

bool ms::isSplatNear(Value v, double expected) {
  std::optional<double> value = getSplatValue(v);
  return value && std::abs(*value - expected) <= 1e-6 * std::max(1.0, std::abs(expected));
}

std::optional<SmallVector<float>> ms::readF32Constant(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  if (!cst)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(cst.getType());
  if (!type || !type.getElementType().isF32() || !type.hasStaticShape())
    return std::nullopt;
  int64_t count = type.getNumElements();
  if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue())) {
    SmallVector<float> values;
    values.reserve(count);
    if (dense.isSplat()) {
      values.assign(count, dense.getSplatValue<float>());
      return values;
    }
    llvm::append_range(values, dense.getValues<float>());
    return values;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(cst.getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != (size_t)count * sizeof(float))
      return std::nullopt;
    ArrayRef<char> bytes = blob->getData();
    SmallVector<float> values(count);
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
  return std::nullopt;
}

Value ms::createF32Constant(OpBuilder &b, Location loc, RankedTensorType type,
                            ArrayRef<float> values, StringRef blobName) {
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(float)),
      alignof(float));
  auto attr = DenseResourceElementsAttr::get(type, blobName, std::move(blob));
  return ConstantOp::create(b, loc, attr);
}
