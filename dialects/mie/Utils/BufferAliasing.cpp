//===- BufferAliasing.cpp - which bytes a buffer value covers -------------===//

#include "dialects/mie/Utils/BufferAliasing.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::mie;

std::optional<int64_t> mlir::mie::bufferBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() * std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
}

std::optional<ByteRange> mlir::mie::bytesOf(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type)
    return std::nullopt;
  Operation *def = buffer.getDefiningOp();
  if (auto view = dyn_cast_or_null<mie::ViewOp>(def)) {
    std::optional<ByteRange> base = bytesOf(view.getBase());
    std::optional<int64_t> bytes = bufferBytes(type);
    if (!base || !bytes)
      return std::nullopt;
    int64_t begin = base->begin + int64_t(view.getOffset());
    return ByteRange{base->root, begin, begin + *bytes};
  }
  if (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(def))
    return bytesOf(def->getOperand(0));
  if (auto viewLike = dyn_cast_or_null<ViewLikeOpInterface>(def))
    return bytesOf(viewLike.getViewSource());
  std::optional<int64_t> bytes = bufferBytes(type);
  if (!bytes)
    return std::nullopt;
  return ByteRange{buffer, 0, *bytes};
}

/// bytesOf, or for a buffer of dynamic shape that is the whole of its root (through collapses and
/// expands of the shape) every byte from the root's start: its end is known only at run time.
static std::optional<ByteRange> bytesReached(Value buffer) {
  if (std::optional<ByteRange> bytes = bytesOf(buffer))
    return bytes;
  Operation *def = buffer.getDefiningOp();
  while (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(def)) {
    buffer = def->getOperand(0);
    def = buffer.getDefiningOp();
  }
  if (!isa<MemRefType>(buffer.getType()) || isa_and_nonnull<ViewLikeOpInterface>(def))
    return std::nullopt;
  return ByteRange{buffer, 0, INT64_MAX};
}

bool mlir::mie::mayWriteInPlace(KernelOp kernel, unsigned inputIndex, unsigned outputIndex) {
  if (inputIndex >= kernel.getInputs().size() || outputIndex >= kernel.getOutputs().size())
    return false;
  // No other operand may reach the input's bytes: the kernel would read them after writing over
  // them (operands of unknown extent might).
  const unsigned inOperand = inputIndex, outOperand = kernel.getInputs().size() + outputIndex;
  std::optional<ByteRange> inBytes = bytesReached(kernel->getOperand(inOperand));
  if (!inBytes)
    return false;
  for (auto [index, operand] : llvm::enumerate(kernel->getOperands())) {
    if (index == inOperand || index == outOperand)
      continue;
    std::optional<ByteRange> bytes = bytesReached(operand);
    if (!bytes || bytes->overlaps(*inBytes))
      return false;
  }
  BlockArgument in = kernel.getInputArgs()[inputIndex];
  BlockArgument out = kernel.getOutputArgs()[outputIndex];
  auto inType = dyn_cast<MemRefType>(in.getType());
  // Dynamic dims of one type may differ in extent: the caller compares the sizes (a memory plan
  // over symbolic dims, their expressions).
  if (!inType || inType != out.getType() || !inType.getLayout().isIdentity())
    return false;
  // The lowering vouches for the body (microkernel calls this analysis cannot look into).
  if (auto vouched = kernel->getAttrOfType<IntegerAttr>(MieDialect::getInPlaceInputAttrName()))
    return outputIndex == 0 && vouched.getInt() == int64_t(inputIndex);
  if (!in.hasOneUse())
    return false;
  auto generic = dyn_cast<linalg::GenericOp>(in.use_begin()->getOwner());
  if (!generic || generic->getBlock() != &kernel.getBodyBlock() ||
      generic.getNumReductionLoops() != 0)
    return false;
  OpOperand *read = nullptr, *write = nullptr;
  for (OpOperand *operand : generic.getDpsInputOperands())
    if (operand->get() == in)
      read = operand;
  for (OpOperand &operand : generic.getDpsInitsMutable())
    if (operand.get() == out)
      write = &operand;
  if (!read || !write || llvm::is_contained(generic.getDpsInputs(), Value(out)) ||
      !generic.getMatchingIndexingMap(read).isIdentity() ||
      !generic.getMatchingIndexingMap(write).isIdentity() ||
      generic.payloadUsesValueFromOperand(write))
    return false;
  // Nothing before the generic may touch the output: a write there would land on the input.
  for (Operation &op : kernel.getBodyBlock()) {
    if (&op == generic.getOperation())
      return true;
    bool touches = false;
    op.walk([&](Operation *nested) {
      touches |= llvm::is_contained(nested->getOperands(), Value(out));
    });
    if (touches)
      return false;
  }
  return false;
}
