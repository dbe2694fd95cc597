//===- Pipelines.cpp - the one definition of the compilation pipeline -----===//

#include "mie/Pipelines/Pipelines.h"

#include "AutoPrecision.h"
#include "PackageEmitter.h"
#include "SymbolicPackage.h"
#include "dialects/mie/IR/MieOps.h"
#include "dialects/mie/Transforms/Passes.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"
#include "dialects/ms/Transforms/Passes.h"
#include "mie/Conversion/Passes.h"
#include "mie/Target/CPUTarget.h"
#include "mie/Target/CUDATarget.h"
#include "mie/Target/Target.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>

using namespace mlir;
using namespace mlir::mie;

void mlir::mie::buildMsPrePrecisionPipeline(OpPassManager &pm, bool fusion, bool integerQdq) {
  // The importer's composite ops (depth_to_space, trilu, ...) become primitives first: nothing
  // after this pass, and no lowering, needs to know them.
  pm.addNestedPass<func::FuncOp>(ms::createMsDecomposePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Out of ms.loop / ms.scan bodies: what does not depend on the iteration runs once.
  pm.addPass(createLoopInvariantCodeMotionPass());
  if (fusion) {
    pm.addNestedPass<func::FuncOp>(ms::createMsFoldBatchNormPass());
    pm.addNestedPass<func::FuncOp>(ms::createMsRecognizeCompositesPass());
    if (integerQdq)
      pm.addNestedPass<func::FuncOp>(ms::createMsIntegerQdqPass());
    // Recognition leaves transposes to merge and dead chains to drop.
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
}

void mlir::mie::buildMsPostPrecisionPipeline(OpPassManager &pm, bool fusion, unsigned maxFusedOps,
                                             const PrecisionOptions &precision, StringRef layout) {
  // Precision assignment sits between recognition and fusion. After: batch norms must be folded
  // into the conv weights while they are f32 (the folding reads f32 only, and folding in f32 then
  // rounding once loses less than rounding twice), and layer_norm/softmax/gelu/attention must be
  // single ops so that the policy classifies each as a whole instead of reducing its
  // decomposition piece by piece. Before: fusion then sees the casts the pass leaves and absorbs
  // them into elementwise groups (ms.cast is elementwise), so they cost no kernel of their own
  // where a neighbour is elementwise; and the epilogue groups form around the reduced products.
  if (!precision.isDefault()) {
    ms::MsAssignPrecisionPassOptions options;
    options.precision = stringifyPrecisionPolicy(precision.policy).str();
    options.mixedType = precision.reducedTypeName().str();
    options.keepFp32.assign(precision.keepFp32.begin(), precision.keepFp32.end());
    options.forceReduced.assign(precision.forceReduced.begin(), precision.forceReduced.end());
    options.quantizeMethod = stringifyQuantizeMethod(precision.quantizeMethod).str();
    pm.addNestedPass<func::FuncOp>(ms::createMsAssignPrecisionPass(options));
  }
  if (!fusion)
    return;
  // After precision (casts are elementwise and move with their neighbours; weights are already in
  // their stored type when they are transposed), before fusion (the epilogues then form around the
  // channels-last products, the bias along the last dim).
  if (layout != "nchw") {
    ms::MsAssignLayoutPassOptions layoutOptions;
    layoutOptions.layout = layout.str();
    pm.addNestedPass<func::FuncOp>(ms::createMsAssignLayoutPass(layoutOptions));
    pm.addPass(createCanonicalizerPass());
  }
  pm.addNestedPass<func::FuncOp>(ms::createMsFuseEpiloguesPass());
  ms::MsFuseElementwisePassOptions elementwiseOptions;
  elementwiseOptions.maxOps = maxFusedOps;
  pm.addNestedPass<func::FuncOp>(ms::createMsFuseElementwisePass(elementwiseOptions));
}

void mlir::mie::buildMsPipeline(OpPassManager &pm, bool fusion, unsigned maxFusedOps,
                                const PrecisionOptions &precision, bool integerQdq,
                                StringRef layout) {
  buildMsPrePrecisionPipeline(pm, fusion, integerQdq);
  buildMsPostPrecisionPipeline(pm, fusion, maxFusedOps, precision, layout);
}

/// Whether every target of a package has `feature` ("+amx-bf16") among its CPU features (a cuda
/// target's are empty).
static bool allCpuTargetsHave(ArrayRef<PackageTarget> targets, StringRef feature) {
  return llvm::all_of(targets, [&](const PackageTarget &t) {
    SmallVector<StringRef> features;
    StringRef(t.features).split(features, ',');
    return llvm::is_contained(features, feature);
  });
}

StringRef mlir::mie::resolveLayout(LayoutChoice requested, ArrayRef<PackageTarget> targets,
                                   PrecisionPolicy policy) {
  if (requested != LayoutChoice::Auto)
    return requested == LayoutChoice::Nhwc ? "nhwc" : "nchw";
  // Channels last pays where the products run on AMX tiles (bf16 rows of pixels straight from
  // the activation, split over threads by pixels) and every target of the package runs them.
  return reducesProducts(policy) && allCpuTargetsHave(targets, "+amx-bf16") ? "nhwc" : "nchw";
}

void mlir::mie::buildMsToMiePipeline(OpPassManager &pm, StringRef gpuLibraries) {
  pm.addPass(createConvertMsToMiePass());
  pm.addPass(createMieSelectKernelsPass());
  // cuda targets only: convolutions and GEMMs on cuDNN / cuBLASLt, before anything lowers them.
  MieGpuLibraryCallsPassOptions libraryOptions;
  libraryOptions.libraries = gpuLibraries.str();
  pm.addPass(createMieGpuLibraryCallsPass(libraryOptions));
  pm.addPass(createMiePackWeightsPass());
  // Narrow products the microkernels do not serve yet accumulate in f32 on the portable path.
  pm.addPass(createMieWidenAccumulationPass());
  pm.addPass(createMieLowerLibraryKernelsPass());
  pm.addPass(createMieResultsToOutputsPass());
  pm.addNestedPass<func::FuncOp>(createMieScheduleForMemoryPass());
  pm.addNestedPass<func::FuncOp>(createMiePlanMemoryPass());
  pm.addNestedPass<func::FuncOp>(createMieCheckMemoryPlanPass());
  pm.addPass(createMieBundleWeightsPass());
  pm.addPass(createMieBindRandomKeyPass());
  // Code for every shape of symbolic dims: the run's symbol values and the arena size function.
  pm.addPass(createMieBindSymbolsPass());
  pm.addPass(createMieOutlineKernelsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::mie::registerPipelines() {
  PassPipelineRegistration<>("mie-ms-pipeline", "Graph-level clean-up of ms",
                             [](OpPassManager &pm) { buildMsPipeline(pm); });
  PassPipelineRegistration<>("mie-ms-to-mie-pipeline", "Lower ms to planned, outlined mie kernels",
                             [](OpPassManager &pm) { buildMsToMiePipeline(pm); });
  PassPipelineRegistration<>("mie-to-llvm-pipeline", "Lower mie kernels to the LLVM dialect",
                             [](OpPassManager &pm) { buildMieToLLVMPipeline(pm); });
  PassPipelineRegistration<>(
      "mie-to-cuda-pipeline",
      "Lower mie kernels to sm_90 PTX and host code launching them (kernel ABI 4)",
      [](OpPassManager &pm) { buildMieToCudaPipeline(pm); });
}

static LogicalResult runPipeline(ModuleOp module, const CompileOptions &options,
                                 function_ref<void(OpPassManager &)> build) {
  return runPasses(module, options.printIRAfterAll, build);
}

/// What code generation needs of the options.
static CodegenOptions codegenOptions(const CompileOptions &options) {
  CodegenOptions codegen;
  codegen.printIRAfterAll = options.printIRAfterAll;
  codegen.jobs = options.jobs;
  codegen.parallelMinBytes = options.parallelMinBytes;
  codegen.cudaPath = options.cudaPath;
  return codegen;
}

bool mlir::mie::hasSymbolicDims(ModuleOp module) {
  return llvm::any_of(module.getOps<func::FuncOp>(),
                      [](func::FuncOp f) { return f->hasAttr(ms::kSymbolsAttrName); });
}

/// Whether a function of `module` has value symbols (an input's elements sizing tensors): its
/// package binds them from a run's data, whatever the options.
static bool hasValueSymbols(ModuleOp module) {
  return llvm::any_of(module.getOps<func::FuncOp>(),
                      [](func::FuncOp f) { return f->hasAttr(ms::kValueSymbolsAttrName); });
}

static std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// ms -> mie for one target: the module gets the target's attribute (kernel selection, weight
/// packing and microkernels follow it) and leaves planned and outlined.
static LogicalResult lowerToMie(ModuleOp module, const CompileOptions &options,
                                const PackageTarget &target) {
  module.getContext()->getOrLoadDialect<MieDialect>();
  Attribute attr = target.backend->getTargetAttr(module.getContext(), target);
  module->setAttr(MieDialect::getTargetAttrName(), attr);
  return runPipeline(module, options,
                     [&](OpPassManager &pm) { buildMsToMiePipeline(pm, options.cudaLibraries); });
}

/// The rest of a package target after lowerToMie: the plan read, the target's code object.
static FailureOr<PackageTargetCode> compileTargetCode(ModuleOp module,
                                                      const CompileOptions &options,
                                                      const PackageTarget &target,
                                                      size_t numInputs) {
  FailureOr<PackagePlan> plan = readPlan(module);
  if (failed(plan))
    return failure();
  FailureOr<std::string> code = target.backend->emitCodeObject(
      module, target, codegenOptions(options), buildAbiTable(*plan, numInputs));
  if (failed(code))
    return failure();
  return PackageTargetCode{target, std::move(*plan), std::move(*code)};
}

FailureOr<PackageTargetCode> mlir::mie::compileMsForTarget(ModuleOp msModule,
                                                           const CompileOptions &options,
                                                           const CpuTarget &cpu, size_t numInputs) {
  CompileOptions quiet = options;
  quiet.printIRAfterAll = false;
  PackageTarget target = makeCpuPackageTarget(cpu);
  if (failed(lowerToMie(msModule, quiet, target)))
    return failure();
  return compileTargetCode(msModule, quiet, target, numInputs);
}

/// --precision=auto up to the optimized ms graph: the graph prepared once, the search (which
/// marks the products it keeps in f32), then assignment under mixed and fusion.
static FailureOr<AutoPrecisionOutcome>
runAutoPrecision(ModuleOp module, const CompileOptions &options, ArrayRef<CpuTarget> targets,
                 PrecisionOptions mixed, bool integerQdq, StringRef layout) {
  if (failed(runPipeline(module, options, [&](OpPassManager &pm) {
        buildMsPrePrecisionPipeline(pm, options.fusion, integerQdq);
      })))
    return failure();
  mixed.policy = PrecisionPolicy::Mixed;
  FailureOr<AutoPrecisionOutcome> outcome = searchAutoPrecision(module, options, targets, mixed);
  if (failed(outcome))
    return failure();
  if (failed(runPipeline(module, options, [&](OpPassManager &pm) {
        buildMsPostPrecisionPipeline(pm, options.fusion, options.maxFusedOps, mixed, layout);
      })))
    return failure();
  // The summaries name the policy the user asked for.
  Builder b(module.getContext());
  for (auto func : module.getOps<func::FuncOp>())
    if (auto summary = func->getAttrOfType<DictionaryAttr>("ms.precision")) {
      NamedAttrList entries(summary);
      entries.set("policy", b.getStringAttr("auto(" + mixed.reducedTypeName() + ")"));
      func->setAttr("ms.precision", entries.getDictionary(module.getContext()));
    }
  return outcome;
}

/// The precision report with the search's account before its last line, which gains the measured
/// error, the budget and the count kept in f32.
static std::string autoPrecisionReport(ModuleOp module, const AutoPrecisionOutcome &outcome) {
  std::string report = buildPrecisionReport(module);
  StringRef text(report);
  size_t last = text.drop_back().rfind('\n') + 1;
  std::string tail = text.substr(last).rtrim().str();
  return (text.take_front(last) + outcome.reportText + tail +
          llvm::formatv(" error={0:e2} budget={1:e1} kept_fp32={2}\n", outcome.record.error,
                        outcome.record.budget, outcome.record.kept.size())
              .str())
      .str();
}

/// The reports the options ask for, read off a module lowered to mie.
static void fillReports(ModuleOp module, const CompileOptions &options) {
  if (options.fusionReport)
    *options.fusionReport = buildFusionReport(module);
  if (options.memoryReport)
    *options.memoryReport = buildMemoryReport(module);
  if (options.memoryPlot)
    *options.memoryPlot = buildMemoryPlot(module);
}

/// The products that run portable code, per (location, reason), with the targets they run so on:
/// one compile-time warning each however many targets the package has.
class PortableProductWarnings {
public:
  void add(ModuleOp module, StringRef target, std::string *kernelReport) {
    if (kernelReport)
      *kernelReport += buildKernelReport(module, target);
    for (PortableProduct &product : collectPortableProducts(module)) {
      auto key = std::make_pair(product.loc.getAsOpaquePointer(), product.reason);
      auto [it, inserted] = index.try_emplace(key, entries.size());
      if (inserted)
        entries.push_back({product.loc, product.reason, {}});
      entries[it->second].targets.push_back(target.str());
    }
  }

  void emit() const {
    for (const Entry &entry : entries)
      emitWarning(entry.loc) << "no microkernel on " << llvm::join(entry.targets, ", ")
                             << " for the " << entry.reason
                             << "; it runs portable generated code (--report=kernels lists "
                                "every such product)";
  }

private:
  struct Entry {
    Location loc;
    std::string reason;
    std::vector<std::string> targets;
  };
  std::map<std::pair<const void *, std::string>, size_t> index;
  std::vector<Entry> entries;
};

/// Whether every target runs the uint8 x int8 VNNI convolution (cpu targets with AVX512-VNNI): the
/// graph is shared by the targets of a package, so the integer QDQ convolutions need all of them.
/// One target of a package: `work` lowered for it and its code object; `reports` fills the
/// compile's reports from this lowering, `portable` (when given) collects its portable products.
static FailureOr<PackageTargetCode> lowerAndCompile(ModuleOp work, const CompileOptions &options,
                                                    const PackageTarget &target, size_t numInputs,
                                                    bool reports,
                                                    PortableProductWarnings *portable) {
  if (failed(lowerToMie(work, options, target)))
    return failure();
  if (reports)
    fillReports(work, options);
  if (portable)
    portable->add(work, target.name, options.kernelReport);
  return compileTargetCode(work, options, target, numInputs);
}

/// --emit=mie, llvm, asm or obj: `module` (after the graph passes) lowered for its one target.
static FailureOr<std::string> emitStage(ModuleOp module, const CompileOptions &options,
                                        const PackageTarget &target) {
  if (failed(lowerToMie(module, options, target)))
    return failure();
  fillReports(module, options);
  PortableProductWarnings portable;
  portable.add(module, target.name, options.kernelReport);
  portable.emit();
  if (options.emit == EmitKind::Mie)
    return printModule(module);
  if (failed(readPlan(module)))
    return failure();
  CodegenStage stage = options.emit == EmitKind::LLVMIR     ? CodegenStage::LLVMIR
                       : options.emit == EmitKind::Assembly ? CodegenStage::Assembly
                                                            : CodegenStage::Object;
  return target.backend->emitStage(module, target, codegenOptions(options), stage);
}

/// A module keeping its symbolic dims (after the graph passes): a package with every target's
/// code for each combination of the specialized values and, with --dim-range, code for every shape
/// in the ranges; the symbols and their ranges in the manifest (SymbolicPackage.h,
/// docs/dynamic-shapes.md). --emit=mie and the later stages show the code for every shape.
static FailureOr<std::string> compileSymbolic(ModuleOp module, const CompileOptions &options,
                                              ArrayRef<PackageTarget> targets) {
  for (const PackageTarget &t : targets)
    if (!t.backend->runsOnHostCpu())
      return emitError(module.getLoc())
                 << "packages with symbolic dims take cpu targets only for now; '" << t.name
                 << "' is a " << t.kind() << " target",
             failure();
  FailureOr<SymbolPlan> plan = planSymbols(module, options);
  if (failed(plan))
    return failure();
  for (auto func : module.getOps<func::FuncOp>())
    func->removeAttr("ms.precision");
  std::vector<std::vector<int64_t>> points = plan->points();
  if (options.emit != EmitKind::Package) {
    if (!plan->generic || !points.empty())
      return emitError(module.getLoc(), "--specialize makes a package; --emit=mie, llvm, asm and "
                                        "obj take one shape (size it with --dim-param) or the "
                                        "code for every shape (--dim-range alone)"),
             failure();
    setSymbolRanges(module, *plan);
    return emitStage(module, options, targets.front());
  }
  FailureOr<SymbolicDims> symbolic = readSymbolicDims(module);
  if (failed(symbolic))
    return failure();

  // Per target, its specializations and then its code for every shape: entry t * perTarget + p.
  const size_t perTarget = points.size() + (plan->generic ? 1 : 0);
  std::vector<std::optional<PackageTargetCode>> compiled(targets.size() * perTarget);
  std::optional<PackageSignature> signature;
  PortableProductWarnings portable;
  const bool valueSymbols = hasValueSymbols(module);
  for (size_t p = 0; p < perTarget; ++p) {
    const bool generic = p == points.size();
    OwningOpRef<ModuleOp> sized = module.clone();
    std::string noShape; // why a combination of values is no shape the model takes
    auto specialize = [&] {
      // Value symbols combine into values no op takes (a Reshape's [4, 4] of 24 elements): such
      // a combination gets no code, and a remark says why.
      std::optional<ScopedDiagnosticHandler> quiet;
      if (valueSymbols)
        quiet.emplace(module.getContext(), [&](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error && noShape.empty())
            noShape = d.str();
          return success();
        });
      return runPipeline(*sized, options, [&](OpPassManager &pm) {
        ms::MsSpecializeDimsPassOptions sizes;
        std::vector<std::string> given = plan->sizes(points[p]);
        sizes.sizes.assign(given.begin(), given.end());
        sizes.defaultSize = 0;
        pm.addNestedPass<func::FuncOp>(ms::createMsSpecializeDimsPass(sizes));
        pm.addPass(createCanonicalizerPass());
        pm.addPass(createCSEPass());
      });
    };
    if (generic) {
      setSymbolRanges(*sized, *plan);
    } else if (failed(specialize())) {
      if (!valueSymbols)
        return failure();
      emitRemark(module.getLoc()) << "no code for " << llvm::join(plan->sizes(points[p]), ", ")
                                  << ": " << noShape;
      continue;
    }
    if (!signature) {
      FailureOr<PackageSignature> read = readSignature(*sized);
      if (failed(read) || failed(applySymbolicDims(*read, *symbolic, module.getLoc())))
        return failure();
      for (const PackageTarget &t : targets)
        if (failed(t.backend->checkSupported(*sized, t, {})))
          return failure();
      signature = std::move(*read);
    }
    for (auto [index, t] : llvm::enumerate(targets)) {
      OwningOpRef<ModuleOp> copy;
      ModuleOp work = *sized;
      if (index + 1 < targets.size()) {
        copy = sized->clone();
        work = *copy;
      }
      // Reports and warnings describe the first code of the package; the others differ in sizes.
      FailureOr<PackageTargetCode> code =
          lowerAndCompile(work, options, t, signature->inputs.size(), p == 0 && index == 0,
                          p == 0 ? &portable : nullptr);
      if (failed(code))
        return failure();
      if (!generic)
        code->dims = points[p];
      compiled[index * perTarget + p] = std::move(*code);
    }
  }
  portable.emit();
  std::vector<PackageTargetCode> ordered;
  for (std::optional<PackageTargetCode> &c : compiled)
    if (c)
      ordered.push_back(std::move(*c));
  if (ordered.empty())
    return emitError(module.getLoc(), "no combination of the symbols' values is a shape the "
                                      "model takes (the remarks say why)"),
           failure();
  return buildPackage(module, options.modelName, options.precision.manifestName(), *signature,
                      ordered, nullptr, plan->ranges);
}

static bool allTargetsRunVnni(ArrayRef<PackageTarget> targets) {
  return allCpuTargetsHave(targets, "+avx512vnni");
}

FailureOr<std::string> mlir::mie::compileModule(ModuleOp module, const CompileOptions &options) {
  std::vector<PackageTarget> resolved = resolveTargets(options);
  const std::vector<PackageTarget> *targets = &resolved;
  // Auto precision measures candidates by running them: on the cpu targets only.
  SmallVector<CpuTarget> cpuTargets;
  for (const PackageTarget &t : *targets)
    if (t.backend->runsOnHostCpu())
      cpuTargets.push_back(t.host);
  if (targets->size() > 1 && options.emit != EmitKind::Package &&
      options.emit != EmitKind::Import && options.emit != EmitKind::Ms)
    return emitError(module.getLoc(), "several targets make a package; --emit=mie, llvm, asm and "
                                      "obj take one target"),
           failure();
  const PackageTarget *target = &targets->front();

  if (options.emit == EmitKind::Import)
    return printModule(module);
  StringRef layout = resolveLayout(options.layout, *targets, options.precision.policy);
  PrecisionOptions precision = options.precision;
  if (precision.mixedType == ReducedType::Target)
    precision.mixedType = target->arch == "aarch64" ? ReducedType::Fp16 : ReducedType::Bf16;
  std::optional<AutoPrecisionOutcome> autoOutcome;
  if (precision.policy == PrecisionPolicy::Auto && hasSymbolicDims(module))
    return emitError(module.getLoc(), "--precision=auto compiles and runs its candidates: it does "
                                      "not take symbolic dims yet (drop --symbolic-dims)"),
           failure();
  if (precision.policy == PrecisionPolicy::Auto) {
    if (cpuTargets.size() != targets->size())
      return emitError(module.getLoc(), "--precision=auto measures its candidates on the CPU: "
                                        "it takes cpu targets only"),
             failure();
    FailureOr<AutoPrecisionOutcome> outcome = runAutoPrecision(
        module, options, cpuTargets, precision, allTargetsRunVnni(*targets), layout);
    if (failed(outcome))
      return failure();
    autoOutcome = std::move(*outcome);
  } else if (failed(runPipeline(module, options, [&](OpPassManager &pm) {
               buildMsPipeline(pm, options.fusion, options.maxFusedOps, precision,
                               allTargetsRunVnni(*targets), layout);
             }))) {
    return failure();
  }
  if (options.precisionReport)
    *options.precisionReport =
        autoOutcome ? autoPrecisionReport(module, *autoOutcome) : buildPrecisionReport(module);
  if (autoOutcome && options.autoPrecisionSummary)
    *options.autoPrecisionSummary = llvm::formatv(
        "auto precision: {0} of {1} products kept in f32, the rest in {2}; measured error "
        "{3:e2} (budget {4:e1}) on {5} calibration input sets, {6} compiles",
        autoOutcome->record.kept.size(), autoOutcome->record.candidates,
        autoOutcome->record.reduced, autoOutcome->record.error, autoOutcome->record.budget,
        autoOutcome->sets.size(), autoOutcome->compiles);
  if (options.emit == EmitKind::Ms)
    return printModule(module);
  if (hasSymbolicDims(module) && (!options.specializations.empty() || options.everyShape ||
                                  !options.dimRanges.empty() || hasValueSymbols(module)))
    return compileSymbolic(module, options, *targets);
  // Symbolic dims the import kept get their sizes here, after the graph passes decided on the
  // symbolic graph: the lowering to mie takes static shapes (docs/dynamic-shapes.md).
  if (hasSymbolicDims(module) && failed(runPipeline(module, options, [&](OpPassManager &pm) {
        ms::MsSpecializeDimsPassOptions sizes;
        sizes.sizes.assign(options.dimSizes.begin(), options.dimSizes.end());
        sizes.defaultSize = options.defaultDimSize;
        pm.addNestedPass<func::FuncOp>(ms::createMsSpecializeDimsPass(sizes));
        pm.addPass(createCanonicalizerPass());
        pm.addPass(createCSEPass());
      })))
    return failure();
  // The summaries were for the report; the lowering has no use for them.
  for (auto func : module.getOps<func::FuncOp>())
    func->removeAttr("ms.precision");

  FailureOr<PackageSignature> signature = readSignature(module);
  if (failed(signature))
    return failure();
  // What a kind cannot compile is refused before any target is lowered, by the kind.
  std::vector<std::string> dataDependentOutputs;
  for (const auto &out : signature->outputs)
    if (!out.dynamic_dims.empty())
      dataDependentOutputs.push_back(out.name);
  for (const PackageTarget &t : *targets)
    if (failed(t.backend->checkSupported(module, t, dataDependentOutputs)))
      return failure();

  if (options.emit == EmitKind::Package) {
    // Every target starts from the same optimized ms graph; the last one may consume the module.
    // Under auto the calibration target's code is the one the search measured (the same graph,
    // compiled the same way), unless a report needs the lowered module.
    bool reuse = autoOutcome && autoOutcome->code && !options.fusionReport &&
                 !options.memoryReport && !options.memoryPlot && !options.kernelReport;
    PortableProductWarnings portable;
    std::vector<PackageTargetCode> compiled;
    for (auto [index, t] : llvm::enumerate(*targets)) {
      if (reuse && t.name == autoOutcome->calibrationTarget.name) {
        compiled.push_back(*autoOutcome->code);
        continue;
      }
      OwningOpRef<ModuleOp> copy;
      ModuleOp work = module;
      if (index + 1 < targets->size()) {
        copy = module.clone();
        work = *copy;
      }
      FailureOr<PackageTargetCode> code =
          lowerAndCompile(work, options, t, signature->inputs.size(), index == 0, &portable);
      if (failed(code))
        return failure();
      compiled.push_back(std::move(*code));
    }
    portable.emit();
    FailureOr<std::string> package =
        buildPackage(module, options.modelName, options.precision.manifestName(), *signature,
                     compiled, autoOutcome ? &autoOutcome->record : nullptr);
    if (failed(package) || !autoOutcome)
      return package;
    // The final package itself, run once more: its error is the one its manifest records.
    if (llvm::any_of(*targets, [&](const PackageTarget &t) {
          return t.name == autoOutcome->calibrationTarget.name;
        })) {
      FailureOr<double> error = measurePackageError(*package, *autoOutcome, module.getLoc());
      if (failed(error))
        return failure();
      if (*error > options.precision.accuracyBudget)
        return emitError(module.getLoc()) << llvm::formatv(
                   "--precision=auto: the final package's error {0:e2} exceeds "
                   "the budget {1:e1} (the search measured {2:e2})",
                   *error, options.precision.accuracyBudget, autoOutcome->record.error),
               failure();
    }
    return package;
  }

  return emitStage(module, options, *target);
}
