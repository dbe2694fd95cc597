//===- PackageEmitter.cpp - assembling a .mie package ---------------------===//

#include "PackageEmitter.h"

#include "dialects/mie/IR/MieDialect.h"
#include "dialects/mie/Utils/KernelLaunches.h"
#include "dialects/mie/Utils/RuntimeSymbols.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::mie;

static FailureOr<func::FuncOp> publicFunction(ModuleOp module) {
  func::FuncOp found;
  for (auto func : module.getOps<func::FuncOp>()) {
    // Code for symbolic dims also exports the arena size function the runtime calls.
    if (func.isPrivate() || func.isExternal() ||
        func->hasAttr(MieDialect::getArenaSizeFnAttrName()))
      continue;
    if (found)
      return module.emitError("expected one public function, found '")
                 << found.getSymName() << "' and '" << func.getSymName() << "'",
             failure();
    found = func;
  }
  if (!found)
    return module.emitError("expected a public function to compile"), failure();
  return found;
}

static FailureOr<std::string> dtypeName(Type type, Location loc) {
  if (type.isF32())
    return std::string("f32");
  if (type.isF16())
    return std::string("f16");
  if (type.isBF16())
    return std::string("bf16");
  if (type.isF64())
    return std::string("f64");
  if (type.isInteger(1))
    return std::string("bool");
  if (type.isUnsignedInteger(8))
    return std::string("u8");
  if (type.isUnsignedInteger(16))
    return std::string("u16");
  if (type.isUnsignedInteger(32))
    return std::string("u32");
  if (type.isUnsignedInteger(64))
    return std::string("u64");
  if (type.isSignlessInteger(8))
    return std::string("i8");
  if (type.isSignlessInteger(16))
    return std::string("i16");
  if (type.isSignlessInteger(32))
    return std::string("i32");
  if (type.isSignlessInteger(64))
    return std::string("i64");
  // The 8-bit and 4-bit floats and 4-bit and 2-bit integers: one byte per element at the boundary.
  if (isa<Float8E4M3FNType>(type))
    return std::string("f8e4m3fn");
  if (isa<Float8E4M3FNUZType>(type))
    return std::string("f8e4m3fnuz");
  if (isa<Float8E5M2Type>(type))
    return std::string("f8e5m2");
  if (isa<Float8E5M2FNUZType>(type))
    return std::string("f8e5m2fnuz");
  if (isa<Float8E8M0FNUType>(type))
    return std::string("f8e8m0");
  if (isa<Float4E2M1FNType>(type))
    return std::string("f4e2m1");
  if (type.isSignlessInteger(4))
    return std::string("i4");
  if (type.isUnsignedInteger(4))
    return std::string("u4");
  if (type.isSignlessInteger(2))
    return std::string("i2");
  if (type.isUnsignedInteger(2))
    return std::string("u2");
  return emitError(loc) << "element type " << type << " cannot cross the package boundary",
         failure();
}

static FailureOr<::mie::PackageTensorSpec> tensorSpec(Type type, StringAttr name,
                                                      std::string fallback, Location loc,
                                                      bool symbolicFunction = false) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  // A symbolic dim is -1 here; the package's expression for it comes from applySymbolicDims.
  bool symbolic = shaped && symbolicFunction;
  if (!shaped || (!shaped.hasStaticShape() && !symbolic))
    return emitError(loc)
               << "model inputs and outputs need static shapes, got " << type
               << " (packages do not take symbolic dims yet: size them with --dim-param)",
           failure();
  FailureOr<std::string> dtype = dtypeName(shaped.getElementType(), loc);
  if (failed(dtype))
    return failure();
  ::mie::PackageTensorSpec spec;
  spec.name = name ? name.str() : fallback;
  spec.dtype = *dtype;
  for (int64_t d : shaped.getShape())
    spec.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
  return spec;
}

FailureOr<PackageSignature> mlir::mie::readSignature(ModuleOp module) {
  FailureOr<func::FuncOp> func = publicFunction(module);
  if (failed(func))
    return failure();
  PackageSignature signature;
  FunctionType type = func->getFunctionType();
  const bool symbolic = (*func)->hasAttr("ms.symbols");
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    auto spec = tensorSpec(type.getInput(i), func->getArgAttrOfType<StringAttr>(i, "mie.name"),
                           "input_" + std::to_string(i), func->getLoc(), symbolic);
    if (failed(spec))
      return failure();
    signature.inputs.push_back(*spec);
  }
  // Results marked `mie.extent_of` are the extent buffers of the outputs with data-dependent dims
  // (`mie.dynamic_dims`): after every output, in the order of their outputs
  // (docs/package-format.md).
  SmallVector<int64_t> extentsOf;
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    if (auto of = func->getResultAttrOfType<IntegerAttr>(i, "mie.extent_of")) {
      extentsOf.push_back(of.getInt());
      continue;
    }
    if (!extentsOf.empty())
      return func->emitError("output ") << i << " follows an extent buffer", failure();
    auto spec = tensorSpec(type.getResult(i), func->getResultAttrOfType<StringAttr>(i, "mie.name"),
                           "output_" + std::to_string(i), func->getLoc(), symbolic);
    if (failed(spec))
      return failure();
    if (auto dims = func->getResultAttrOfType<DenseI64ArrayAttr>(i, "mie.dynamic_dims"))
      spec->dynamic_dims.assign(dims.asArrayRef().begin(), dims.asArrayRef().end());
    signature.outputs.push_back(*spec);
  }
  SmallVector<int64_t> dynamicOutputs;
  for (auto [i, out] : llvm::enumerate(signature.outputs))
    if (!out.dynamic_dims.empty())
      dynamicOutputs.push_back(static_cast<int64_t>(i));
  if (extentsOf != dynamicOutputs)
    return func->emitError("the extent buffers do not follow the outputs with data-dependent "
                           "dims one for one"),
           failure();
  return signature;
}

FailureOr<PackagePlan> mlir::mie::readPlan(ModuleOp module) {
  FailureOr<func::FuncOp> func = publicFunction(module);
  if (failed(func))
    return failure();
  PackagePlan plan;
  for (func::FuncOp f : module.getOps<func::FuncOp>()) {
    if (!f.isExternal() || !f.getSymName().starts_with(kHostServicePrefix))
      continue;
    plan.callsHost = true;
    plan.checksValues |= f.getSymName() == kCheckFailedService;
  }
  if (auto bytes = (*func)->getAttrOfType<IntegerAttr>(MieDialect::getArenaBytesAttrName()))
    plan.arenaBytes = bytes.getInt();
  for (unsigned i = 0, e = func->getNumArguments(); i < e; ++i) {
    auto type = dyn_cast<MemRefType>(func->getArgument(i).getType());
    if (!type || !type.hasStaticShape())
      return func->emitError("entry argument ") << i << " is not a static memref", failure();
    auto name = func->getArgAttrOfType<StringAttr>(i, MieDialect::getSlotAttrName());
    if (name && name.getValue() == "random_key") { // the last slot of args (mie-bind-random-key)
      plan.readsRandomKey = true;
      continue;
    }
    if (name && name.getValue() == "dims") { // code for symbolic dims (mie-bind-symbols)
      plan.symbolic = true;
      continue;
    }
    if (name && (name.getValue() == "arena" || name.getValue() == "weights")) {
      int64_t bytes = type.getNumElements() * int64_t((type.getElementTypeBitWidth() + 7) / 8);
      (name.getValue() == "arena" ? plan.arenaArgBytes : plan.weightsArgBytes) = bytes;
      continue;
    }
    // The pointer of a buffer of symbolic dims (mie-bind-symbols): the shape it stands for.
    std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
    if (auto declared = func->getArgAttrOfType<DenseI64ArrayAttr>(i, "mie.symbolic_shape"))
      shape.assign(declared.asArrayRef().begin(), declared.asArrayRef().end());
    // Unsigned inputs and outputs live in signless buffers, marked by convert-ms-to-mie.
    Type elementType = type.getElementType();
    if (func->getArgAttr(i, "mie.unsigned") && elementType.isSignlessInteger())
      elementType = IntegerType::get(module.getContext(), elementType.getIntOrFloatBitWidth(),
                                     IntegerType::Unsigned);
    FailureOr<std::string> dtype = dtypeName(elementType, func->getLoc());
    if (failed(dtype))
      return failure();
    plan.arguments.push_back({::mie::dtype_code(*dtype), std::move(shape)});
  }
  // The arena of code for symbolic dims is sized per run (mie_arena_bytes): -1 in the ABI table.
  if (plan.symbolic)
    plan.arenaArgBytes = -1;
  (*func)->removeAttr(MieDialect::getArenaBytesAttrName());
  (*func)->removeAttr(MieDialect::getMemoryAttrName());
  (*func)->removeAttr(MieDialect::getSchedulePeakAttrName());
  // Argument names served the IR reader; LLVM IR has no place for them.
  for (unsigned i = 0, e = func->getNumArguments(); i < e; ++i) {
    func->removeArgAttr(i, "mie.name");
    func->removeArgAttr(i, MieDialect::getSlotAttrName());
    func->removeArgAttr(i, "mie.unsigned");
    func->removeArgAttr(i, "mie.dynamic_dims");
    func->removeArgAttr(i, "mie.extent_of");
    func->removeArgAttr(i, "mie.symbolic_shape");
    func->removeArgAttr(i, "ms.shape");
  }
  for (auto other : module.getOps<func::FuncOp>()) {
    if (other->hasAttr(MieDialect::getArenaSizeFnAttrName()))
      for (unsigned i = 0, e = other.getNumArguments(); i < e; ++i)
        other.removeArgAttr(i, MieDialect::getSlotAttrName());
    other->removeAttr(MieDialect::getArenaSizeFnAttrName());
    other->removeAttr(MieDialect::getSymbolRangesAttrName());
    other->removeAttr("ms.symbols");
  }
  if (auto blob =
          module->getAttrOfType<DenseResourceElementsAttr>(MieDialect::getWeightsAttrName())) {
    AsmResourceBlob *data = blob.getRawHandle().getBlob();
    if (!data)
      return module.emitError("the weights blob has no data"), failure();
    plan.weights.assign(data->getData().begin(), data->getData().end());
  }
  module->removeAttr(MieDialect::getWeightsAttrName());
  module->removeAttr(MieDialect::getTargetAttrName());
  for (func::CallOp launch : collectKernelLaunches(module, *func)) {
    ::mie::PackageKernelSpec kernel;
    kernel.name = launch.getCallee().str();
    for (StringRef node : sourceNodeNames(launch.getLoc()))
      kernel.nodes.push_back(node.str());
    auto callee = module.lookupSymbol<func::FuncOp>(launch.getCallee());
    if (auto flops = callee->getAttrOfType<IntegerAttr>(MieDialect::getFlopsAttrName()))
      kernel.flops = uint64_t(flops.getInt());
    if (auto dead = launch->getAttrOfType<DenseI64ArrayAttr>(MieDialect::getDeadAfterAttrName()))
      for (size_t i = 0; i + 1 < dead.asArrayRef().size(); i += 2)
        kernel.dead.push_back({uint64_t(dead[i]), uint64_t(dead[i + 1])});
    plan.kernels.push_back(std::move(kernel));
  }
  for (auto callee : module.getOps<func::FuncOp>()) {
    callee->removeAttr(MieDialect::getFlopsAttrName());
    callee->removeAttr(MieDialect::getPortableAttrName());
  }
  func->walk([](Operation *op) { op->removeAttr(MieDialect::getDeadAfterAttrName()); });
  return plan;
}

std::vector<int64_t> mlir::mie::buildAbiTable(const PackagePlan &plan, size_t numInputs) {
  std::vector<int64_t> words = {
      MIE_ABI_TABLE_MAGIC,
      0, // the length, once known
      plan.arenaArgBytes,
      plan.weightsArgBytes,
      int64_t(std::min(numInputs, plan.arguments.size())),
      int64_t(plan.arguments.size() - std::min(numInputs, plan.arguments.size()))};
  for (const ArgumentAbi &arg : plan.arguments) {
    words.push_back(arg.dtype);
    words.push_back(int64_t(arg.shape.size()));
    words.insert(words.end(), arg.shape.begin(), arg.shape.end());
  }
  words[1] = int64_t(words.size());
  return words;
}

FailureOr<std::string> mlir::mie::buildPackage(
    ModuleOp module, StringRef modelName, StringRef precision, const PackageSignature &signature,
    const std::vector<PackageTargetCode> &targets, const ::mie::PackagePrecisionAuto *autoRecord,
    const std::vector<::mie::PackageSymbolSpec> &symbols) {
  ::mie::PackageWriter writer;
  writer.set_model(modelName.str());
  writer.set_precision(precision.str());
  if (autoRecord)
    writer.set_precision_auto(*autoRecord);
  for (const auto &symbol : symbols)
    writer.add_symbol(symbol);
  for (const auto &in : signature.inputs)
    writer.add_input(in);
  for (const auto &out : signature.outputs)
    writer.add_output(out);
  const std::vector<char> &shared = targets.front().plan.weights;
  writer.set_weights(shared.data(), shared.size());
  for (const PackageTargetCode &t : targets) {
    ::mie::PackageTargetSpec spec;
    spec.name = t.target.name;
    spec.kind = t.target.kind().str();
    spec.arch = t.target.arch;
    spec.features = t.target.features;
    CodeObjectFacts facts = t.target.backend->describeCodeObject(t.target);
    if (!facts.format.empty())
      spec.format = facts.format;
    if (!facts.hostArch.empty())
      spec.host_arch = facts.hostArch;
    if (facts.abiVersion)
      spec.abi_version = facts.abiVersion;
    // Code that draws random numbers reads the random key slot of args, which ABI 5 added.
    if (t.plan.readsRandomKey)
      spec.abi_version = MIE_KERNEL_ABI_RANDOM_VERSION;
    // Code that calls runtime services reads the host fields of the environment, which ABI 6 added.
    if (t.plan.callsHost)
      spec.abi_version = MIE_KERNEL_ABI_HOST_VERSION;
    // Code for every shape of symbolic dims reads the symbol values slot ABI 7 added.
    if (t.plan.symbolic)
      spec.abi_version = MIE_KERNEL_ABI_SYMBOLS_VERSION;
    // Code that checks values at run time calls the host api's check_failed, which ABI 8 added.
    if (t.plan.checksValues)
      spec.abi_version = MIE_KERNEL_ABI_CHECK_VERSION;
    spec.arena_bytes = t.plan.arenaBytes;
    spec.code.assign(t.code.begin(), t.code.end());
    spec.kernels = t.plan.kernels;
    spec.dims = t.dims;
    if (t.plan.weights != shared) {
      spec.own_weights = true;
      spec.weights = reinterpret_cast<const uint8_t *>(t.plan.weights.data());
      spec.weights_size = t.plan.weights.size();
    }
    writer.add_target(std::move(spec));
  }
  std::vector<uint8_t> bytes;
  std::string error = writer.serialize(&bytes);
  if (!error.empty())
    return module.emitError("cannot write the package: ") << error, failure();
  return std::string(bytes.begin(), bytes.end());
}
