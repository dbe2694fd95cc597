//===- MieDialect.cpp - mie dialect registration and attribute checks -----===//

#include "dialects/mie/IR/MieOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::mie;

#include "dialects/mie/IR/MieDialect.cpp.inc"

void MieDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/mie/IR/MieOps.cpp.inc"
      >();
  registerAttributes();
}

LogicalResult MieDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  if (attribute.getName() == getTargetAttrName()) {
    if (isa<TargetAttr>(attribute.getValue()))
      return success();
    return op->emitError() << "expects '" << getTargetAttrName()
                           << "' to be a #mie.target attribute, got " << attribute.getValue();
  }
  if (attribute.getName() == getArenaBytesAttrName() ||
      attribute.getName() == getFlopsAttrName()) {
    auto count = dyn_cast<IntegerAttr>(attribute.getValue());
    if (count && count.getType().isInteger(64) && count.getInt() >= 0)
      return success();
    return op->emitError() << "expects '" << attribute.getName().strref()
                           << "' to be a non-negative i64, got " << attribute.getValue();
  }
  if (attribute.getName() == getPortableAttrName()) {
    if (isa<StringAttr>(attribute.getValue()) &&
        isa<Conv2dOp, GemmOp, AttentionOp, KernelOp, FunctionOpInterface>(op))
      return success();
    return op->emitError() << "expects '" << getPortableAttrName()
                           << "' to be a string on a mie.conv2d, mie.gemm, mie.attention, "
                              "mie.kernel or function, got "
                           << attribute.getValue();
  }
  if (attribute.getName() == getInPlaceInputAttrName()) {
    auto index = dyn_cast<IntegerAttr>(attribute.getValue());
    auto kernel = dyn_cast<KernelOp>(op);
    if (kernel && index && index.getType().isInteger(64) && index.getInt() >= 0 &&
        index.getInt() < int64_t(kernel.getInputs().size()) && !kernel.getOutputs().empty())
      return success();
    return op->emitError() << "expects '" << getInPlaceInputAttrName()
                           << "' on a mie.kernel with outputs, as the i64 index of one of its "
                              "inputs, got "
                           << attribute.getValue();
  }
  if (attribute.getName() == getMemoryAttrName()) {
    if (isa<DictionaryAttr>(attribute.getValue()))
      return success();
    return op->emitError() << "expects '" << getMemoryAttrName() << "' to be a dictionary, got "
                           << attribute.getValue();
  }
  if (attribute.getName() == getSchedulePeakAttrName()) {
    auto peaks = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
    if (peaks && peaks.size() == 2)
      return success();
    return op->emitError() << "expects '" << getSchedulePeakAttrName()
                           << "' to be array<i64: before, after>, got " << attribute.getValue();
  }
  if (attribute.getName() == getDeadAfterAttrName()) {
    auto ranges = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
    if (ranges && ranges.size() % 2 == 0 && llvm::all_of(ranges.asArrayRef(), [](int64_t v) {
          return v >= 0;
        }))
      return success();
    return op->emitError() << "expects '" << getDeadAfterAttrName()
                           << "' to be array<i64: offset, bytes, ...> of non-negative pairs, got "
                           << attribute.getValue();
  }
  if (attribute.getName() == getWeightsAttrName()) {
    auto blob = dyn_cast<ElementsAttr>(attribute.getValue());
    if (blob && blob.getElementType().isInteger(8) && blob.getShapedType().getRank() == 1)
      return success();
    return op->emitError() << "expects '" << getWeightsAttrName() << "' to be 1-D i8 elements, got "
                           << attribute.getValue();
  }
  // A convolution or GEMM a GPU library computes (mie-gpu-library-calls): cuDNN / cuBLASLt.
  if (attribute.getName() == "mie.gpu_library") {
    auto library = dyn_cast<StringAttr>(attribute.getValue());
    if (library && ((isa<GemmOp>(op) && library.getValue() == "cublaslt") ||
                    (isa<Conv2dOp>(op) && library.getValue() == "cudnn")))
      return success();
    return op->emitError() << "expects 'mie.gpu_library' to be \"cublaslt\" on a mie.gemm or "
                              "\"cudnn\" on a mie.conv2d, got "
                           << attribute.getValue();
  }
  if (attribute.getName() == getSymbolRangesAttrName()) {
    auto ranges = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
    auto symbols = op->getAttrOfType<ArrayAttr>("ms.symbols");
    bool ok = ranges && symbols && ranges.size() == int64_t(2 * symbols.size());
    for (int64_t i = 0; ok && i + 1 < ranges.size(); i += 2)
      ok = ranges[i] >= 0 && ranges[i] <= ranges[i + 1];
    if (ok)
      return success();
    return op->emitError() << "expects '" << getSymbolRangesAttrName()
                           << "' on a function with 'ms.symbols' to be array<i64: lo, hi, ...> with "
                              "0 <= lo <= hi for each symbol, got "
                           << attribute.getValue();
  }
  if (attribute.getName() == getArenaSizeFnAttrName() ||
      attribute.getName() == getParallelStagesAttrName()) {
    if (isa<UnitAttr>(attribute.getValue()))
      return success();
    return op->emitError() << "expects '" << attribute.getName().strref()
                           << "' to be a unit attribute";
  }
  // Unknown names are rejected so that a misspelt plan or target attribute does not pass silently.
  return op->emitError() << "unknown mie discardable attribute '" << attribute.getName().strref()
                         << "' (known: '" << getTargetAttrName() << "', '"
                         << getArenaBytesAttrName() << "', '" << getWeightsAttrName() << "', '"
                         << getFlopsAttrName() << "', '" << getMemoryAttrName() << "', '"
                         << getSchedulePeakAttrName() << "', '" << getDeadAfterAttrName() << "', '"
                         << getInPlaceInputAttrName() << "', '" << getPortableAttrName() << "', '"
                         << getSymbolRangesAttrName() << "', '" << getArenaSizeFnAttrName()
                         << "', '" << getParallelStagesAttrName() << "', 'mie.gpu_library')";
}

DictionaryAttr mlir::mie::slotArgAttrs(MLIRContext *ctx, StringRef slot) {
  return DictionaryAttr::get(ctx, {NamedAttribute(StringAttr::get(ctx, MieDialect::getSlotAttrName()),
                                                  StringAttr::get(ctx, slot))});
}

std::optional<unsigned> mlir::mie::slotArgument(FunctionOpInterface func, StringRef slot) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (auto attr = func.getArgAttrOfType<StringAttr>(i, MieDialect::getSlotAttrName());
        attr && attr == slot)
      return i;
  return std::nullopt;
}
