//===- CPUTarget.cpp - native code for x86-64 and aarch64 -----------------===//

#include "mie/Target/CPUTarget.h"

#include "dialects/mie/Utils/RuntimeSymbols.h"

#include "BFloat16AsBits.h"

#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace mlir::mie;

/// No gathers or scatters from the loop vectorizer: the generic x86-64-v4 cost model rates them
/// cheap, so it vectorized a broadcast multiply over [C, 196] rows across the channels with
/// gather/scatter pairs (after fully unrolling the contiguous row), 10x slower than the AVX2 code
/// on mobilenet_v3's squeeze-excite scaling. The microkernels, vectorized by hand, need neither.
/// MIE_ABI_SYMBOL of runtime/include/mie/mie_kernel_abi.h: exported next to mie_entry.
constexpr const char *kAbiSymbol = "mie_abi";
/// The GPU module table a cuda target's host code exports (CUDATarget.h); never defined by cpu
/// code.
constexpr const char *kGpuModulesSymbol = "mie_gpu_modules";

/// The GPU libraries a cuda target's host code calls (MIE_GPU_LIBRARIES_SYMBOL); never cpu code's.
constexpr const char *kGpuLibrariesSymbol = "mie_gpu_libraries";

/// What a code object exports; everything else is internal.
static bool isExported(StringRef name) {
  return name == "mie_entry" || name == kAbiSymbol || name == kGpuModulesSymbol ||
         name == kGpuLibrariesSymbol || name == kArenaBytesFunction;
}

constexpr const char *kX86Tuning = "+prefer-no-gather,+prefer-no-scatter";

static const CpuTarget kTargets[] = {
    // AVX2 + FMA is the baseline of DESIGN.md: every x86 server of the last decade has it.
    {"x86-64", "x86_64", "x86_64-unknown-linux-gnu", "x86-64-v3", "+avx2,+fma,+f16c", kX86Tuning},
    // x86-64-v4: the AVX-512 servers (Skylake-SP and later, Zen 4 and later).
    {"x86-64-avx512", "x86_64", "x86_64-unknown-linux-gnu", "x86-64-v4",
     "+avx2,+fma,+f16c,+avx512f,+avx512bw,+avx512cd,+avx512dq,+avx512vl", kX86Tuning},
    // AVX-512 with VNNI (Cascade Lake, Ice Lake, Zen 4 and later): QDQ convolutions run on uint8 x
    // int8 VPDPBUSD; everything else as x86-64-avx512.
    {"x86-64-avx512-vnni", "x86_64", "x86_64-unknown-linux-gnu", "x86-64-v4",
     "+avx2,+fma,+f16c,+avx512f,+avx512bw,+avx512cd,+avx512dq,+avx512vl,+avx512vnni", kX86Tuning},
    // AVX-512 with AMX-BF16 (Sapphire Rapids and later): the bf16 GEMMs run on AMX tiles, QDQ
    // convolutions on AVX512-VNNI (which every AMX CPU has). The runtime asks Linux for the tile
    // state before it picks this code.
    {"x86-64-amx", "x86_64", "x86_64-unknown-linux-gnu", "x86-64-v4",
     "+avx2,+fma,+f16c,+avx512f,+avx512bw,+avx512cd,+avx512dq,+avx512vl,+avx512bf16,+avx512vnni,"
     "+amx-tile,+amx-bf16",
     kX86Tuning},
    {"aarch64", "aarch64", "aarch64-unknown-linux-gnu", "generic", "+neon"},
};

std::string mie::knownCpuTargets() {
  std::string names;
  for (const CpuTarget &t : kTargets)
    names += (names.empty() ? "" : ", ") + t.name;
  return names;
}

FailureOr<CpuTarget> mie::lookupCpuTarget(StringRef name, std::string &error) {
  for (const CpuTarget &t : kTargets)
    if (t.name == name)
      return t;
  error = ("unknown target '" + name + "' (known: " + knownCpuTargets() + ")").str();
  return failure();
}

FailureOr<SmallVector<CpuTarget>> mie::lookupCpuTargets(StringRef list, std::string &error) {
  SmallVector<StringRef> names;
  list.split(names, ',');
  SmallVector<CpuTarget> targets;
  for (StringRef name : names) {
    name = name.trim();
    FailureOr<CpuTarget> target = lookupCpuTarget(name, error);
    if (failed(target))
      return failure();
    if (llvm::any_of(targets, [&](const CpuTarget &t) { return t.name == target->name; })) {
      error = ("target '" + name + "' is listed twice").str();
      return failure();
    }
    targets.push_back(*target);
  }
  return targets;
}

std::string mie::hostCpuArch() {
  llvm::Triple host(llvm::sys::getProcessTriple());
  return host.getArch() == llvm::Triple::x86_64    ? "x86_64"
         : host.getArch() == llvm::Triple::aarch64 ? "aarch64"
                                                    : "";
}

bool mie::hostRunsCpuTarget(const CpuTarget &target) {
  if (target.arch != hostCpuArch())
    return false;
  static const llvm::StringMap<bool> has = llvm::sys::getHostCPUFeatures();
  SmallVector<StringRef> features;
  StringRef(target.features).split(features, ',', -1, /*KeepEmpty=*/false);
  // NEON is part of the AArch64 architecture, whatever the host reports.
  return llvm::all_of(features, [&](StringRef f) {
    return !f.consume_front("+") || has.lookup(f) || f == "neon";
  });
}

FailureOr<CpuTarget> mie::hostCpuTarget(std::string &error) {
  const CpuTarget *best = nullptr;
  for (const CpuTarget &t : kTargets)
    if (hostRunsCpuTarget(t) &&
        (!best || StringRef(t.features).count(',') > StringRef(best->features).count(',')))
      best = &t;
  if (!best) {
    error = "no target runs on this machine (" + llvm::sys::getProcessTriple() +
            "); known: " + knownCpuTargets();
    return failure();
  }
  return *best;
}

std::string mie::defaultCpuTargetList(bool reducedPrecision) {
  if (hostCpuArch() == "aarch64")
    return "aarch64";
  // x86-64-avx512-vnni differs from x86-64-avx512 only in the integer QDQ convolutions, which need
  // every target of a package to have VNNI: with the AVX2 baseline in the list it would add code
  // that computes nothing differently.
  return reducedPrecision ? "x86-64,x86-64-avx512,x86-64-amx" : "x86-64,x86-64-avx512";
}

static void initializeLLVMTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
  });
}

/// Adds `int32_t mie_entry(const mie_kernel_env *env, void *const *args)`: passes `env` as the
/// first parameter of `entry` and loads one pointer per remaining parameter from `args`. Returns
/// what `entry` returns when it returns an i32 status (a cuda target's host code), else 0.
static LogicalResult addEntryWrapper(llvm::Module &module, StringRef entryName, ModuleOp op) {
  llvm::Function *entry = module.getFunction(entryName);
  if (!entry)
    return op.emitError() << "no function '" << entryName << "' to export";
  for (llvm::Type *param : entry->getFunctionType()->params())
    if (!param->isPointerTy())
      return op.emitError() << "entry '" << entryName << "' has a non-pointer parameter";
  if (entry->arg_size() == 0)
    return op.emitError() << "entry '" << entryName << "' does not take the runtime environment";
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  auto *type = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr}, false);
  auto *wrapper =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, "mie_entry", module);
  wrapper->setVisibility(llvm::GlobalValue::DefaultVisibility);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  llvm::Value *args = wrapper->getArg(1);
  SmallVector<llvm::Value *> operands = {wrapper->getArg(0)};
  for (unsigned i = 1, e = entry->arg_size(); i < e; ++i) {
    llvm::Value *slot = b.CreateConstInBoundsGEP1_64(ptr, args, i - 1);
    operands.push_back(b.CreateLoad(ptr, slot));
  }
  llvm::Value *status = b.CreateCall(entry, operands);
  b.CreateRet(entry->getReturnType()->isIntegerTy(32) ? status : b.getInt32(0));
  return success();
}

/// Exports `words` as the constant int64 array `mie_abi` (the ABI table of mie_kernel_abi.h).
static void addAbiTable(llvm::Module &module, ArrayRef<int64_t> words) {
  llvm::LLVMContext &ctx = module.getContext();
  SmallVector<uint64_t> data(words.begin(), words.end());
  llvm::Constant *init = llvm::ConstantDataArray::get(ctx, ArrayRef<uint64_t>(data));
  auto *table = new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true,
                                         llvm::GlobalValue::ExternalLinkage, init, kAbiSymbol);
  table->setVisibility(llvm::GlobalValue::DefaultVisibility);
  table->setAlignment(llvm::Align(8));
}

/// Implements every `<body>__dispatch(env, captures..., count)` declared by mie-parallelize-loops:
/// the captures go into an array of 8-byte slots, and `env->parallel_for(env->pool, count, 0,
/// <body>__trampoline, slots)` runs `<body>(captures..., begin, end)` on the runtime's threads. The
/// offsets are those of `mie_kernel_env` in runtime/include/mie/mie_kernel_abi.h.
static LogicalResult implementDispatches(llvm::Module &module, ModuleOp op) {
  constexpr StringLiteral suffix = "__dispatch";
  constexpr unsigned kPoolOffset = 8, kParallelForOffset = 16;
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  SmallVector<llvm::Function *> dispatches;
  for (llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().ends_with(suffix))
      dispatches.push_back(&f);
  for (llvm::Function *dispatch : dispatches) {
    llvm::Function *body = module.getFunction(dispatch->getName().drop_back(suffix.size()));
    unsigned numCaptures = dispatch->arg_size() - 2; // env, captures..., count
    if (!body || body->arg_size() != numCaptures + 2)
      return op.emitError() << "malformed parallel dispatch '" << dispatch->getName() << "'";
    // Trampoline: (ctx, begin, end) -> body(ctx[0], ..., ctx[n-1], begin, end).
    auto *trampType = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, i64, i64}, false);
    auto *tramp = llvm::Function::Create(trampType, llvm::GlobalValue::InternalLinkage,
                                         body->getName() + "__trampoline", module);
    {
      llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", tramp));
      SmallVector<llvm::Value *> operands;
      for (unsigned i = 0; i < numCaptures; ++i) {
        llvm::Type *t = body->getArg(i)->getType();
        operands.push_back(b.CreateLoad(t, b.CreateConstInBoundsGEP1_64(i64, tramp->getArg(0), i)));
      }
      operands.push_back(tramp->getArg(1));
      operands.push_back(tramp->getArg(2));
      b.CreateCall(body, operands);
      b.CreateRetVoid();
    }
    // A body the kernel also calls itself (code for symbolic dims runs a small run's loop on the
    // calling thread) stays one function: inlined into both callers it doubled such kernels' code
    // and a dynamic package's compile time.
    if (!body->hasOneUse())
      body->addFnAttr(llvm::Attribute::NoInline);
    // Dispatch: store the captures, call env->parallel_for.
    dispatch->setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", dispatch));
    llvm::Value *slots = b.CreateAlloca(i64, b.getInt64(std::max(numCaptures, 1u)));
    for (unsigned i = 0; i < numCaptures; ++i)
      b.CreateStore(dispatch->getArg(1 + i), b.CreateConstInBoundsGEP1_64(i64, slots, i));
    llvm::Value *env = dispatch->getArg(0);
    llvm::Value *pool =
        b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), env, kPoolOffset));
    llvm::Value *parallelFor =
        b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), env, kParallelForOffset));
    auto *pfType =
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, i64, i64, ptr, ptr}, false);
    b.CreateCall(pfType, parallelFor,
                 {pool, dispatch->getArg(numCaptures + 1), b.getInt64(0), tramp, slots});
    b.CreateRetVoid();
  }
  return success();
}

/// Implements `mie_profile_hook(env, kernel, phase)` declared by mie-insert-profile-hooks:
/// `if (env->profile) env->profile(env->profile_ctx, kernel, phase)` (kernel ABI 2 offsets).
static LogicalResult implementProfileHook(llvm::Module &module, ModuleOp op) {
  constexpr unsigned kProfileCtxOffset = 24, kProfileOffset = 32;
  llvm::Function *hook = module.getFunction("mie_profile_hook");
  if (!hook)
    return success();
  if (!hook->isDeclaration() || hook->arg_size() != 3)
    return op.emitError() << "malformed profile hook 'mie_profile_hook'";
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  hook->setLinkage(llvm::GlobalValue::InternalLinkage);
  auto *entry = llvm::BasicBlock::Create(ctx, "entry", hook);
  auto *call = llvm::BasicBlock::Create(ctx, "call", hook);
  auto *done = llvm::BasicBlock::Create(ctx, "done", hook);
  llvm::IRBuilder<> b(entry);
  llvm::Value *env = hook->getArg(0);
  llvm::Value *fn =
      b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), env, kProfileOffset));
  b.CreateCondBr(b.CreateIsNull(fn), done, call);
  b.SetInsertPoint(call);
  llvm::Value *userCtx =
      b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), env, kProfileCtxOffset));
  auto *fnType = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, i32, i32}, false);
  b.CreateCall(fnType, fn, {userCtx, hook->getArg(1), hook->getArg(2)});
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return success();
}

/// Implements every runtime service `mie_host_<name>(env, args...)` declared by the kernels
/// (convert-ms-to-mie, given the environment by mie-parallelize-loops) as
/// `env->host-><name>(env->host_ctx, args...)`: the offsets of `mie_kernel_env` and `mie_host_api`
/// (kernel ABI 6; check_failed since ABI 8) in runtime/include/mie/mie_kernel_abi.h.
static LogicalResult implementHostCalls(llvm::Module &module, ModuleOp op) {
  constexpr unsigned kHostCtxOffset = 56, kHostOffset = 64;
  static const llvm::StringMap<unsigned> kServiceOffsets = {{kDecodeImageService, 8},
                                                            {kCheckFailedService, 16}};
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  for (llvm::Function &f : module) {
    if (!f.isDeclaration() || !f.getName().starts_with(kHostServicePrefix))
      continue;
    auto service = kServiceOffsets.find(f.getName());
    if (service == kServiceOffsets.end())
      return op.emitError() << "unknown runtime service '" << f.getName() << "'";
    if (f.arg_size() == 0 || !f.getArg(0)->getType()->isPointerTy() ||
        !f.getReturnType()->isVoidTy())
      return op.emitError() << "malformed runtime service call '" << f.getName()
                            << "' (run mie-parallelize-loops first)";
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", &f));
    llvm::Value *env = f.getArg(0);
    llvm::Value *host =
        b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), env, kHostOffset));
    llvm::Value *hostCtx =
        b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), env, kHostCtxOffset));
    llvm::Value *fn =
        b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), host, service->second));
    SmallVector<llvm::Type *> params = {ptr};
    SmallVector<llvm::Value *> operands = {hostCtx};
    for (unsigned i = 1, e = f.arg_size(); i < e; ++i) {
      params.push_back(f.getArg(i)->getType());
      operands.push_back(f.getArg(i));
    }
    b.CreateCall(llvm::FunctionType::get(b.getVoidTy(), params, false), fn, operands);
    b.CreateRetVoid();
  }
  return success();
}

/// Only mie_entry and the ABI table are exported, and what other parts of a split module reference
/// (`shared`): everything else becomes internal, so that O3 may inline it and drop what is unused.
static void internalize(llvm::Module &module, const llvm::StringSet<> &shared = {}) {
  for (llvm::GlobalValue &v : module.global_values()) {
    if (v.isDeclaration() || isExported(v.getName()))
      continue;
    if (shared.contains(v.getName()))
      v.setVisibility(llvm::GlobalValue::HiddenVisibility);
    else
      v.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
}

static void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(module, mam);
}

/// Links `objects` into one shared object with ld.lld (the LLVM 22 one from Debian, else any on
/// PATH). The objects of a split module reference each other through hidden symbols, so only
/// `mie_entry` and `mie_abi` are exported and nothing is left undefined.
static FailureOr<std::string> linkShared(ArrayRef<std::string> objects, ModuleOp op) {
  llvm::ErrorOr<std::string> lld = llvm::sys::findProgramByName("ld.lld-22");
  if (!lld)
    lld = llvm::sys::findProgramByName("ld.lld");
  if (!lld)
    return op.emitError("cannot link: ld.lld-22 (Debian package lld-22) is not on PATH"), failure();
  SmallVector<SmallString<128>> objPaths(objects.size());
  SmallString<128> soPath;
  llvm::scope_exit cleanup([&] {
    for (const SmallString<128> &path : objPaths)
      if (!path.empty())
        llvm::sys::fs::remove(path);
    if (!soPath.empty())
      llvm::sys::fs::remove(soPath);
  });
  for (auto [object, path] : llvm::zip_equal(objects, objPaths)) {
    if (llvm::sys::fs::createTemporaryFile("mie-kernels", "o", path))
      return op.emitError("cannot create temporary files for linking"), failure();
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (!ec)
      out << object;
    out.close();
    if (ec || out.has_error())
      return op.emitError("cannot write ") << path << ": " << (ec ? ec : out.error()).message(),
             failure();
  }
  if (llvm::sys::fs::createTemporaryFile("mie-kernels", "so", soPath))
    return op.emitError("cannot create temporary files for linking"), failure();
  SmallVector<StringRef> argv = {
      *lld, "-shared",     "--hash-style=gnu", "-z",      "now",
      "-z", "noexecstack", "--gc-sections",    "-soname", "mie-kernels.so",
      "-o", soPath};
  for (const SmallString<128> &path : objPaths)
    argv.push_back(path);
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*lld, argv, std::nullopt, {}, 0, 0, &message);
  if (rc != 0)
    return op.emitError("ld.lld failed (exit ") << rc << "): " << message, failure();
  auto buffer = llvm::MemoryBuffer::getFile(soPath, /*IsText=*/false);
  if (!buffer)
    return op.emitError("cannot read linked object ") << soPath, failure();
  return (*buffer)->getBuffer().str();
}

static std::unique_ptr<llvm::TargetMachine> createTargetMachine(const CpuTarget &target,
                                                                std::string &error) {
  llvm::Triple triple(target.triple);
  const llvm::Target *llvmTarget = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget) {
    error = "LLVM has no backend for " + target.triple + ": " + error;
    return nullptr;
  }
  return std::unique_ptr<llvm::TargetMachine>(llvmTarget->createTargetMachine(
      triple, target.cpu, target.codegenFeatures(), llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}

/// The back half for one module (the whole one, or one part of a split): the microkernels it calls
/// linked in, internalized but for `shared`, O3 and `artifact` with `machine` (one per thread).
/// Touches nothing outside `module`'s context, so parts run on threads of their own; `error` gets
/// a one-line reason on failure.
static LogicalResult compileModulePart(llvm::Module &module, llvm::TargetMachine &machine,
                                       const CpuTarget &target, const llvm::StringSet<> &shared,
                                       CpuArtifact artifact, std::string &out, std::string &error) {
  if (failed(linkUKernels(module, target, error)))
    return failure();
  internalize(module, shared);
  optimize(module, machine);
  bfloat16AsBits(module);
  out.clear();
  if (artifact == CpuArtifact::LLVMIR) {
    llvm::raw_string_ostream os(out);
    module.print(os, nullptr);
    return success();
  }
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager codegen;
  auto fileType = artifact == CpuArtifact::Assembly ? llvm::CodeGenFileType::AssemblyFile
                                                    : llvm::CodeGenFileType::ObjectFile;
  if (machine.addPassesToEmitFile(codegen, os, nullptr, fileType)) {
    error = "the target cannot emit this file type";
    return failure();
  }
  codegen.run(module);
  out.assign(buffer.begin(), buffer.end());
  return success();
}

/// Into how many parts a module with `numFunctions` definitions is split for code generation. It
/// depends on the module only, never on the machine, so the package is the same whatever --jobs.
static unsigned codegenParts(unsigned numFunctions) {
  constexpr unsigned kFunctionsPerPart = 32, kMaxParts = 4;
  return std::clamp(numFunctions / kFunctionsPerPart, 1u, kMaxParts);
}

/// Splits `module` (wrappers added, not yet optimized) into parts and compiles them to objects on
/// up to `jobs` threads. Each part travels as bitcode into an LLVM context of its own thread.
static FailureOr<SmallVector<std::string>> compileSplit(llvm::Module &module,
                                                        const CpuTarget &target, unsigned parts,
                                                        unsigned jobs, ModuleOp op) {
  // Internal first: SplitModule then makes what crosses parts external but hidden.
  internalize(module);
  SmallVector<std::string> bitcode;
  SmallVector<llvm::StringSet<>> defined, declared;
  llvm::SplitModule(
      module, parts,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::raw_string_ostream os(bitcode.emplace_back());
        llvm::WriteBitcodeToFile(*part, os);
        llvm::StringSet<> &def = defined.emplace_back(), &decl = declared.emplace_back();
        for (const llvm::GlobalValue &v : part->global_values())
          (v.isDeclaration() ? decl : def).insert(v.getName());
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/false);
  // What one part defines and another calls stays visible (hidden) for the link.
  llvm::StringSet<> shared;
  for (const llvm::StringSet<> &decl : declared)
    for (const auto &name : decl)
      if (llvm::any_of(defined,
                       [&](const llvm::StringSet<> &d) { return d.contains(name.first()); }))
        shared.insert(name.first());

  SmallVector<std::string> objects(bitcode.size()), errors(bitcode.size());
  std::atomic<unsigned> next{0};
  auto worker = [&] {
    for (unsigned i; (i = next.fetch_add(1)) < bitcode.size();) {
      llvm::LLVMContext context;
      llvm::Expected<std::unique_ptr<llvm::Module>> part =
          llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode[i], "mie-kernels-part"), context);
      if (!part) {
        errors[i] = "cannot read back part of the module: " + toString(part.takeError());
        continue;
      }
      std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(target, errors[i]);
      if (machine &&
          failed(compileModulePart(**part, *machine, target, shared, CpuArtifact::Object,
                                   objects[i], errors[i])) &&
          errors[i].empty())
        errors[i] = "code generation failed";
    }
  };
  unsigned threads = std::max(1u, std::min<unsigned>(jobs, bitcode.size()));
  SmallVector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool)
    t.join();
  for (const std::string &error : errors)
    if (!error.empty())
      return op.emitError(error), failure();
  return objects;
}

FailureOr<std::string>
mie::emitCpuArtifact(ModuleOp op, const CpuTarget &target, CpuArtifact artifact, StringRef entry,
                     unsigned jobs, ArrayRef<int64_t> abiTable,
                     function_ref<LogicalResult(llvm::Module &)> addExports) {
  initializeLLVMTargets();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module = translateModuleToLLVMIR(op, llvmContext, "mie_kernels");
  if (!module)
    return op.emitError("translation to LLVM IR failed"), failure();

  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(target, error);
  if (!machine)
    return op.emitError(error), failure();
  module->setTargetTriple(llvm::Triple(target.triple));
  module->setDataLayout(machine->createDataLayout());
  unsigned numFunctions = 0;
  for (llvm::Function &f : *module) {
    if (f.isDeclaration())
      continue;
    ++numFunctions;
    f.addFnAttr("target-cpu", target.cpu);
    f.addFnAttr("target-features", target.codegenFeatures());
  }
  // After the attributes above: the microkernels keep their own (the same CPU, see CMakeLists.txt).
  // Kernels stay functions of their own: inlined, every kernel of the graph would make one
  // function whose optimization and code generation take time superlinear in the kernel count
  // (1,000 unfused sigmoids: 15 s, most of it dominator tree updates), against one call per kernel
  // saved at run time.
  if (llvm::Function *graph = module->getFunction(entry))
    for (llvm::Instruction &inst : llvm::instructions(*graph))
      if (auto *call = dyn_cast<llvm::CallInst>(&inst))
        if (llvm::Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration())
          callee->addFnAttr(llvm::Attribute::NoInline);
  if (failed(addEntryWrapper(*module, entry, op)) || failed(implementDispatches(*module, op)) ||
      failed(implementProfileHook(*module, op)) || failed(implementHostCalls(*module, op)))
    return failure();
  if (!abiTable.empty())
    addAbiTable(*module, abiTable);
  // Code for symbolic dims: the runtime sizes each run's arena with it (kernel ABI 7).
  if (llvm::Function *arenaBytes = module->getFunction(kArenaBytesFunction))
    arenaBytes->setVisibility(llvm::GlobalValue::DefaultVisibility);
  if (addExports && failed(addExports(*module)))
    return failure();
  if (llvm::verifyModule(*module, &llvm::errs()))
    return op.emitError("generated LLVM IR does not verify"), failure();

  // A shared object is linked from several objects anyway, so its code generation, the slowest
  // step of a compile, is split and runs in parallel; the other artifacts are one file each.
  unsigned parts = codegenParts(numFunctions);
  if (artifact == CpuArtifact::SharedObject && parts > 1) {
    if (jobs == 0)
      jobs = llvm::heavyweight_hardware_concurrency().compute_thread_count();
    FailureOr<SmallVector<std::string>> objects = compileSplit(*module, target, parts, jobs, op);
    if (failed(objects))
      return failure();
    return linkShared(*objects, op);
  }
  std::string out;
  if (failed(compileModulePart(*module, *machine, target, {}, artifact, out, error)))
    return op.emitError(error), failure();
  if (artifact != CpuArtifact::SharedObject)
    return out;
  return linkShared({out}, op);
}
