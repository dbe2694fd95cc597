//===- BundleWeights.cpp - the mie-bundle-weights pass ------------------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/RuntimeSymbols.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEBUNDLEWEIGHTSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

constexpr int64_t kWeightAlignment = 64;

/// Appends the row-major little-endian bytes of `value` (one byte per i1) to `blob`.
LogicalResult appendBytes(ElementsAttr value, std::vector<char> &blob, Location loc) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *data = resource.getRawHandle().getBlob();
    if (!data)
      return emitError(loc) << "weights resource '" << resource.getRawHandle().getKey()
                            << "' has no data";
    ArrayRef<char> bytes = data->getData();
    blob.insert(blob.end(), bytes.begin(), bytes.end());
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return emitError(loc) << "cannot pack constant of kind " << value;
  Type et = dense.getElementType();
  unsigned width = std::max<unsigned>(et.getIntOrFloatBitWidth() / 8, 1);
  auto appendInt = [&](const APInt &v) {
    for (unsigned i = 0; i < width; ++i)
      blob.push_back(static_cast<char>(v.extractBitsAsZExtValue(
          std::min(8u, v.getBitWidth()), std::min(8 * i, v.getBitWidth() - 1))));
  };
  if (isa<FloatType>(et)) {
    for (const APFloat &v : dense.getValues<APFloat>())
      appendInt(v.bitcastToAPInt());
  } else if (isa<IntegerType>(et)) {
    for (const APInt &v : dense.getValues<APInt>())
      appendInt(et.isInteger(1) ? APInt(8, v.getBoolValue()) : v);
  } else {
    return emitError(loc) << "cannot pack constant of element type " << et;
  }
  return success();
}

struct MieBundleWeightsPass : impl::MieBundleWeightsPassBase<MieBundleWeightsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::vector<char> blob;
    llvm::StringMap<int64_t> offsets;
    SmallVector<memref::GlobalOp> globals;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      auto value = dyn_cast_if_present<ElementsAttr>(global.getInitialValueAttr());
      if (!global.getConstant() || !value)
        continue;
      blob.resize((blob.size() + kWeightAlignment - 1) / kWeightAlignment * kWeightAlignment, 0);
      offsets[global.getSymName()] = blob.size();
      if (failed(appendBytes(value, blob, global.getLoc())))
        return signalPassFailure();
      globals.push_back(global);
    }

    auto blobType =
        RankedTensorType::get({static_cast<int64_t>(blob.size())}, IntegerType::get(ctx, 8));
    auto weightsType = MemRefType::get(blobType.getShape(), blobType.getElementType());
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (func.isPrivate()) {
        WalkResult found = func.walk([&](memref::GetGlobalOp get) {
          if (!offsets.count(get.getName()))
            return WalkResult::advance();
          get.emitError("mie-bundle-weights: constant read in private function '")
              << func.getSymName() << "'; weights reach kernels as arguments (pack before outlining)";
          return WalkResult::interrupt();
        });
        if (found.wasInterrupted())
          return signalPassFailure();
        continue;
      }
      unsigned argIndex = func.getNumArguments();
      if (failed(func.insertArgument(
              argIndex, weightsType,
              slotArgAttrs(ctx, "weights"),
              func.getLoc())))
        return signalPassFailure();
      Value weights = func.getArgument(argIndex);
      WalkResult result = func.walk([&](memref::GetGlobalOp get) {
        auto it = offsets.find(get.getName());
        // The run's random key is bound by mie-bind-random-key, which runs next.
        if (get.getName() == kRandomKeyGlobal)
          return WalkResult::advance();
        if (it == offsets.end()) {
          get.emitError("mie-bundle-weights: global '") << get.getName() << "' is not a constant";
          return WalkResult::interrupt();
        }
        OpBuilder b(get);
        Value view = ViewOp::create(b, get.getLoc(), get.getType(), weights,
                                    b.getI64IntegerAttr(it->second), b.getUnitAttr());
        get.replaceAllUsesWith(view);
        get.erase();
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return signalPassFailure();
    }
    for (memref::GlobalOp global : globals)
      global.erase();

    AsmResourceBlob data = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(blob.data(), blob.size()), kWeightAlignment, /*dataIsMutable=*/false);
    module->setAttr(MieDialect::getWeightsAttrName(),
                    DenseResourceElementsAttr::get(blobType, "mie_weights", std::move(data)));
  }
};

} // namespace
} // namespace mlir::mie
