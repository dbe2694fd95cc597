//===- AutoPrecision.cpp - mixed precision under a measured error budget --===//
//
// `--precision=auto` starts from `mixed` and keeps in f32 the fewest of mixed's reduced products
// (conv2d, matmul, gemm: the ops mixed computes in the reduced type on its own account; the
// elementwise ops follow them) that bring the outputs' error within the budget. Everything is
// measured, nothing estimated: each variant is compiled by this same pipeline into a package for a
// target this machine runs, and run through the runtime on the calibration inputs.
//
//  1. fp32 and mixed, as they are. The error of mixed within the budget: nothing is kept.
//  2. Otherwise fp32 and mixed again with every candidate's result as an extra output. A
//     candidate's local error is the error at its result less the largest error arriving on its
//     operands (from the candidates upstream): what rounding at that op itself added.
//  3. Candidates ranked by local error; a bisection on the count k finds the fewest of the top k
//     whose package meets the budget (the error falls as k grows; k = all is fp32).
//
// The chosen variant's package is the one measured; the final package reuses its code and is run
// once more before it is returned.
//
//===----------------------------------------------------------------------===//

#include "AutoPrecision.h"

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"
#include "dialects/ms/Transforms/PrecisionAssignment.h"

#include "mie/mie_rt.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::mie;

namespace {

constexpr int kRandomSets = 4;
constexpr StringLiteral kIdAttr = "ms.auto_id";
constexpr StringLiteral kKeepAttr = "ms.keep_fp32";

func::FuncOp publicFunc(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      return func;
  return {};
}

/// The ONNX node an op was built from (the first name in its location), for reports and
/// `--keep-fp32`.
std::string nodeName(Operation *op) {
  std::string name;
  op->getLoc()->walk([&](Location loc) {
    if (auto named = dyn_cast<NameLoc>(loc)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name.empty() ? op->getName().getStringRef().str() : name;
}

//===----------------------------------------------------------------------===//
// Calibration inputs
//===----------------------------------------------------------------------===//

mie_dtype dtypeOf(const std::string &name) { return mie_dtype(::mie::dtype_code(name)); }

bool isTensorFile(StringRef path) { return path.ends_with(".npy") || path.ends_with(".pb"); }

/// The tensor files directly in `dir`, sorted.
std::vector<std::string> tensorFiles(StringRef dir, std::vector<std::string> *subdirs) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    if (it->type() == llvm::sys::fs::file_type::directory_file) {
      if (subdirs)
        subdirs->push_back(it->path());
    } else if (isTensorFile(it->path())) {
      files.push_back(it->path());
    }
  }
  llvm::sort(files);
  if (subdirs)
    llvm::sort(*subdirs);
  return files;
}

/// One set from the tensor files of one directory: a file belongs to an input by its stem (the
/// input's name, or input_<i>) or, for a .pb, by its TensorProto name. Other files (outputs saved
/// beside the inputs) are not inputs and are skipped.
FailureOr<CalibrationSet> readSet(StringRef dir, ArrayRef<std::string> files,
                                  const PackageSignature &signature, Location loc) {
  size_t n = signature.inputs.size();
  CalibrationSet set(n);
  std::vector<std::string> from(n);
  for (const std::string &file : files) {
    ::mie::io::Tensor tensor;
    std::string stem = llvm::sys::path::stem(file).str();
    std::optional<size_t> index;
    for (size_t i = 0; i < n && !index; ++i)
      if (stem == signature.inputs[i].name || stem == "input_" + std::to_string(i))
        index = i;
    if (!index && StringRef(file).ends_with(".npy"))
      continue;
    if (std::string error = ::mie::io::read_tensor_file(file, &tensor); !error.empty())
      return emitError(loc) << "--calibration: " << error, failure();
    for (size_t i = 0; i < n && !index; ++i)
      if (!tensor.name.empty() && tensor.name == signature.inputs[i].name)
        index = i;
    if (!index)
      continue;
    const ::mie::PackageTensorSpec &spec = signature.inputs[*index];
    if (!from[*index].empty())
      return emitError(loc) << "--calibration: '" << from[*index] << "' and '" << file
                            << "' are both input '" << spec.name << "'",
             failure();
    if (tensor.dtype != dtypeOf(spec.dtype) || tensor.shape != spec.shape)
      return emitError(loc) << "--calibration: '" << file << "' is "
                            << ::mie::io::dtype_name(tensor.dtype) << " "
                            << ::mie::io::shape_string(tensor.shape) << ", but input '" << spec.name
                            << "' is " << spec.dtype << " " << ::mie::io::shape_string(spec.shape),
             failure();
    from[*index] = file;
    set[*index] = std::move(tensor);
  }
  for (size_t i = 0; i < n; ++i)
    if (from[i].empty())
      return emitError(loc) << "--calibration: no tensor for input '" << signature.inputs[i].name
                            << "' in '" << dir << "' (expected " << signature.inputs[i].name
                            << ".npy, input_" << i << ".npy or .pb, or a TensorProto named so)",
             failure();
  return set;
}

/// The sets of `dir`: its own tensor files (one set) and those of each subdirectory (one set each,
/// as ONNX's test_data_set_<n> folders).
FailureOr<std::vector<CalibrationSet>>
readCalibration(StringRef dir, const PackageSignature &signature, Location loc) {
  if (!llvm::sys::fs::is_directory(dir))
    return emitError(loc) << "--calibration: '" << dir << "' is not a directory", failure();
  std::vector<std::string> subdirs;
  std::vector<CalibrationSet> sets;
  std::vector<std::string> files = tensorFiles(dir, &subdirs);
  auto add = [&](StringRef where, const std::vector<std::string> &in) -> LogicalResult {
    if (in.empty())
      return success();
    FailureOr<CalibrationSet> set = readSet(where, in, signature, loc);
    if (failed(set))
      return failure();
    sets.push_back(std::move(*set));
    return success();
  };
  if (failed(add(dir, files)))
    return failure();
  for (const std::string &sub : subdirs)
    if (failed(add(sub, tensorFiles(sub, nullptr))))
      return failure();
  if (sets.empty())
    return emitError(loc) << "--calibration: '" << dir
                          << "' holds no .npy or .pb input files (in it or in its subdirectories)",
           failure();
  return sets;
}

/// The values an integer input may take: [0, n) where it indexes a table of n rows (followed
/// through casts and reshapes to a gather of a constant), else {0, 1} (masks, flags).
int64_t integerBound(Value input) {
  int64_t bound = 0;
  SmallVector<Value> work{input};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto gather = dyn_cast<ms::GatherOp>(user)) {
        auto table = dyn_cast<RankedTensorType>(gather.getData().getType());
        if (use.getOperandNumber() == 1 && table &&
            gather.getData().getDefiningOp<ms::ConstantOp>()) {
          int64_t axis = ms::positiveAxis(gather.getAxis(), table.getRank());
          if (axis >= 0 && axis < table.getRank() && !table.isDynamicDim(axis)) {
            int64_t rows = table.getDimSize(axis);
            bound = bound ? std::min(bound, rows) : rows;
          }
        }
        continue;
      }
      if (isa<ms::CastOp, ms::ReshapeOp, ms::FlattenOp, ms::SqueezeOp, ms::UnsqueezeOp,
              ms::TransposeOp, ms::SliceOp, ms::ExpandOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return bound > 0 ? bound : 2;
}

/// Seeded random sets: floats uniform in [-1, 1), integers in their inferred range; `ranges`
/// says which, per input, for the report.
std::vector<CalibrationSet> randomSets(func::FuncOp func, const PackageSignature &signature,
                                       std::string &ranges) {
  llvm::raw_string_ostream os(ranges);
  for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
    mie_dtype dtype = dtypeOf(spec.dtype);
    bool isFloat = dtype == MIE_DTYPE_F32 || dtype == MIE_DTYPE_F64 || dtype == MIE_DTYPE_F16 ||
                   dtype == MIE_DTYPE_BF16;
    os << (i ? ", " : "") << spec.name;
    if (isFloat)
      os << " in [-1, 1)";
    else if (dtype == MIE_DTYPE_BOOL)
      os << " 0 or 1";
    else
      os << " in [0, " << integerBound(func.getArgument(i)) << ")";
  }
  std::mt19937_64 rng(20261203);
  std::vector<CalibrationSet> sets(kRandomSets);
  for (CalibrationSet &set : sets) {
    for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
      ::mie::io::Tensor t;
      t.name = spec.name;
      t.dtype = dtypeOf(spec.dtype);
      t.shape = spec.shape;
      uint64_t count = t.num_elements();
      size_t width = ::mie::io::dtype_size(t.dtype);
      t.data.resize(count * width);
      std::uniform_real_distribution<float> real(-1.0f, 1.0f);
      std::uniform_int_distribution<int64_t> integer(0, integerBound(func.getArgument(i)) - 1);
      for (uint64_t e = 0; e < count; ++e) {
        uint8_t *p = t.data.data() + e * width;
        auto put = [&](auto value) { std::memcpy(p, &value, sizeof(value)); };
        switch (t.dtype) {
        case MIE_DTYPE_F32:
          put(real(rng));
          break;
        case MIE_DTYPE_F64:
          put(double(real(rng)));
          break;
        case MIE_DTYPE_F16:
          put(ms::roundToF16(real(rng)));
          break;
        case MIE_DTYPE_BF16:
          put(ms::roundToBF16(real(rng)));
          break;
        case MIE_DTYPE_I8:
          put(int8_t(integer(rng)));
          break;
        case MIE_DTYPE_I16:
          put(int16_t(integer(rng)));
          break;
        case MIE_DTYPE_I32:
          put(int32_t(integer(rng)));
          break;
        case MIE_DTYPE_I64:
          put(int64_t(integer(rng)));
          break;
        case MIE_DTYPE_U8:
          put(uint8_t(integer(rng)));
          break;
        case MIE_DTYPE_U16:
          put(uint16_t(integer(rng)));
          break;
        case MIE_DTYPE_U32:
          put(uint32_t(integer(rng)));
          break;
        case MIE_DTYPE_U64:
          put(uint64_t(integer(rng)));
          break;
        case MIE_DTYPE_BOOL:
          put(uint8_t(rng() & 1));
          break;
        default:
          // The 8-bit and 4-bit floats and 4-bit and 2-bit integers stay 0, a value of each: a
          // model reads them only in conversions, which the precision policy does not change.
          break;
        }
      }
      set.push_back(std::move(t));
    }
  }
  return sets;
}

//===----------------------------------------------------------------------===//
// Running a package
//===----------------------------------------------------------------------===//

using Outputs = std::vector<std::vector<float>>; // per output, as f32

/// Runs the package bytes on every set (through a temporary file: the runtime maps packages)
/// on target `targetName`; the outputs per set.
FailureOr<std::vector<Outputs>> runPackage(StringRef bytes, StringRef targetName,
                                           const std::vector<CalibrationSet> &sets, Location loc) {
  SmallString<128> path;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("mie-auto", "mie", fd, path))
    return emitError(loc) << "auto precision: cannot create a temporary package: " << ec.message(),
           failure();
  llvm::FileRemover remover(path);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      return emitError(loc) << "auto precision: cannot write the temporary package '" << path
                            << "'",
             failure();
    }
  }
  auto fail = [&](StringRef what) {
    return emitError(loc) << "auto precision: " << what << ": " << mie_last_error(), failure();
  };
  mie_package *package = nullptr;
  if (mie_package_open(path.c_str(), &package) != MIE_OK)
    return fail("cannot open the calibration package");
  std::unique_ptr<mie_package, decltype(&mie_package_close)> packageGuard(package,
                                                                          mie_package_close);
  mie_session_options sessionOptions;
  mie_session_options_init(&sessionOptions);
  std::string target = targetName.str();
  sessionOptions.target = target.c_str();
  mie_session *session = nullptr;
  if (mie_session_create(package, &sessionOptions, &session) != MIE_OK)
    return fail("cannot run the calibration package here");
  std::unique_ptr<mie_session, decltype(&mie_session_destroy)> sessionGuard(session,
                                                                            mie_session_destroy);
  uint32_t numOutputs = 0;
  mie_package_num_outputs(package, &numOutputs);
  std::vector<mie_tensor_info> infos(numOutputs);
  for (uint32_t o = 0; o < numOutputs; ++o)
    mie_package_output_info(package, o, &infos[o]);
  std::vector<Outputs> results;
  std::vector<std::vector<uint8_t>> buffers(numOutputs);
  for (const CalibrationSet &set : sets) {
    std::vector<const void *> inputs;
    std::vector<uint64_t> inputBytes;
    for (const ::mie::io::Tensor &t : set) {
      inputs.push_back(t.data.data());
      inputBytes.push_back(t.data.size());
    }
    std::vector<void *> outputs;
    std::vector<uint64_t> outputBytes;
    for (uint32_t o = 0; o < numOutputs; ++o) {
      buffers[o].resize(infos[o].byte_size);
      outputs.push_back(buffers[o].data());
      outputBytes.push_back(infos[o].byte_size);
    }
    if (mie_session_run_sized(session, uint32_t(inputs.size()), inputs.data(), inputBytes.data(),
                              numOutputs, outputs.data(), outputBytes.data()) != MIE_OK)
      return fail("the calibration run failed");
    Outputs values(numOutputs);
    for (uint32_t o = 0; o < numOutputs; ++o) {
      values[o].resize(infos[o].num_elements);
      for (uint64_t e = 0; e < infos[o].num_elements; ++e)
        values[o][e] = float(::mie::io::element_as_double(infos[o].dtype, buffers[o].data(), e));
    }
    results.push_back(std::move(values));
  }
  return results;
}

/// max |x - ref| / max |ref| (absolute where ref is all zeros); infinite when x has a NaN or an
/// infinity where ref is finite.
double relativeError(ArrayRef<float> x, ArrayRef<float> ref) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size() && i < ref.size(); ++i) {
    if (!std::isfinite(ref[i]))
      continue;
    if (!std::isfinite(x[i]))
      return INFINITY;
    diff = std::max(diff, std::fabs(double(x[i]) - double(ref[i])));
    scale = std::max(scale, std::fabs(double(ref[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

/// The error of outputs [0, numOutputs) over every set: the largest.
double outputsError(const std::vector<Outputs> &runs,
                    const std::vector<std::vector<std::vector<float>>> &reference,
                    size_t numOutputs) {
  double worst = 0;
  for (size_t s = 0; s < runs.size(); ++s)
    for (size_t o = 0; o < numOutputs; ++o)
      worst = std::max(worst, relativeError(runs[s][o], reference[s][o]));
  return worst;
}

//===----------------------------------------------------------------------===//
// The search
//===----------------------------------------------------------------------===//

/// A target of `targets` whose code runs here, else the baseline of this machine's architecture.
FailureOr<CpuTarget> pickCalibrationTarget(ArrayRef<CpuTarget> targets, Location loc) {
  for (const CpuTarget &t : targets)
    if (hostRunsCpuTarget(t))
      return t;
  std::string error, hostArch = hostCpuArch();
  if (!hostArch.empty()) {
    FailureOr<CpuTarget> baseline =
        lookupCpuTarget(hostArch == "x86_64" ? "x86-64" : "aarch64", error);
    if (succeeded(baseline))
      return baseline;
  }
  return emitError(loc) << "--precision=auto measures the variants by running them, but this "
                           "machine runs none of the targets ("
                        << llvm::sys::getProcessTriple() << ")",
         failure();
}

struct Candidate {
  Operation *op; // in the prepared module
  std::string name;
  std::string kind;
  double error = 0, local = 0; // at its result, and what it added (step 2)
};

class Search {
public:
  Search(ModuleOp module, const CompileOptions &options, const PrecisionOptions &mixed)
      : module(module), options(options), mixed(mixed), loc(module.getLoc()) {}

  FailureOr<AutoPrecisionOutcome> run(ArrayRef<CpuTarget> targets);

private:
  struct Variant {
    std::vector<Outputs> runs;
    std::optional<PackageTargetCode> code;
  };
  FailureOr<Variant> compileAndRun(bool reduced, ArrayRef<int64_t> keep, bool instrument);
  LogicalResult rank();
  FailureOr<double> errorWithTopK(size_t k);

  ModuleOp module;
  const CompileOptions &options;
  const PrecisionOptions &mixed;
  Location loc;
  AutoPrecisionOutcome outcome;
  std::vector<Candidate> candidates; // by id
  std::vector<int64_t> order;        // ids, largest local error first
  size_t numOutputs = 0;
  std::optional<PackageTargetCode> bestCode;
  std::map<size_t, double> measured; // k -> error
  std::vector<Value> probes;         // values of `module` the instrumented variants output
};

FailureOr<Search::Variant> Search::compileAndRun(bool reduced, ArrayRef<int64_t> keep,
                                                 bool instrument) {
  IRMapping mapping;
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone(mapping)));
  func::FuncOp func = publicFunc(*copy);
  MLIRContext *ctx = module.getContext();
  for (int64_t id : keep)
    mapping.lookup(candidates[id].op)->setAttr(kKeepAttr, UnitAttr::get(ctx));
  if (instrument) {
    // The probed values become outputs after the model's own.
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    SmallVector<Value> results(ret.getOperands());
    SmallVector<Type> types(func.getFunctionType().getResults());
    for (Value v : probes) {
      results.push_back(mapping.lookup(v));
      types.push_back(v.getType());
    }
    ret->setOperands(results);
    func.setType(FunctionType::get(ctx, func.getFunctionType().getInputs(), types));
    for (size_t i = numOutputs; i < results.size(); ++i)
      func.setResultAttr(i, "mie.name",
                         StringAttr::get(ctx, "__auto_" + std::to_string(i - numOutputs)));
  }
  PrecisionOptions precision;
  if (reduced)
    precision = mixed;
  PassManager pm(ctx);
  buildMsPostPrecisionPipeline(pm, options.fusion, options.maxFusedOps, precision);
  if (failed(pm.run(*copy)))
    return failure();
  for (auto f : copy->getOps<func::FuncOp>())
    f->removeAttr("ms.precision");
  FailureOr<PackageSignature> signature = readSignature(*copy);
  if (failed(signature))
    return failure();
  FailureOr<PackageTargetCode> code =
      compileMsForTarget(*copy, options, outcome.calibrationTarget, signature->inputs.size());
  if (failed(code))
    return failure();
  ++outcome.compiles;
  FailureOr<std::string> bytes =
      buildPackage(*copy, "auto-calibration", reduced ? "mixed" : "fp32", *signature, {*code});
  if (failed(bytes))
    return failure();
  FailureOr<std::vector<Outputs>> runs =
      runPackage(*bytes, outcome.calibrationTarget.name, outcome.sets, loc);
  if (failed(runs))
    return failure();
  Variant variant;
  variant.runs = std::move(*runs);
  if (!instrument)
    variant.code = std::move(*code);
  return variant;
}

/// Step 2: every candidate's error at its result and the local error it adds: that less the
/// largest error on its (non-constant) operands.
LogicalResult Search::rank() {
  llvm::SetVector<Value> unique;
  for (const Candidate &c : candidates) {
    unique.insert(c.op->getResult(0));
    for (Value operand : c.op->getOperands())
      if (!operand.getDefiningOp<ms::ConstantOp>() && isa<RankedTensorType>(operand.getType()))
        unique.insert(operand);
  }
  probes.assign(unique.begin(), unique.end());
  FailureOr<Variant> exact = compileAndRun(false, {}, true);
  if (failed(exact))
    return failure();
  FailureOr<Variant> reduced = compileAndRun(true, {}, true);
  if (failed(reduced))
    return failure();
  DenseMap<Value, size_t> outputOf;
  for (auto [i, v] : llvm::enumerate(probes))
    outputOf[v] = numOutputs + i;
  auto errorAt = [&](Value v) {
    size_t index = outputOf.lookup(v);
    double worst = 0;
    for (size_t s = 0; s < outcome.sets.size(); ++s)
      worst = std::max(worst, relativeError(reduced->runs[s][index], exact->runs[s][index]));
    return worst;
  };
  for (Candidate &c : candidates) {
    c.error = errorAt(c.op->getResult(0));
    double in = 0;
    for (Value operand : c.op->getOperands())
      if (unique.contains(operand))
        in = std::max(in, errorAt(operand));
    c.local = std::max(0.0, c.error - in);
  }
  order.resize(candidates.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = int64_t(i);
  llvm::sort(order, [&](int64_t a, int64_t b) {
    if (candidates[a].local != candidates[b].local)
      return candidates[a].local > candidates[b].local;
    if (candidates[a].error != candidates[b].error)
      return candidates[a].error > candidates[b].error;
    return a < b;
  });
  return success();
}

FailureOr<double> Search::errorWithTopK(size_t k) {
  if (auto it = measured.find(k); it != measured.end())
    return it->second;
  std::vector<int64_t> keep(order.begin(), order.begin() + k);
  FailureOr<Variant> variant = compileAndRun(true, keep, false);
  if (failed(variant))
    return failure();
  double error = outputsError(variant->runs, outcome.reference, numOutputs);
  measured[k] = error;
  // The smallest k meeting the budget is the last one measured that met it (bisection).
  if (error <= mixed.accuracyBudget)
    bestCode = std::move(variant->code);
  return error;
}

FailureOr<AutoPrecisionOutcome> Search::run(ArrayRef<CpuTarget> targets) {
  // The variants repeat the final compile's warnings (an unmatched --keep-fp32 entry, ...): that
  // one reports them once; errors pass.
  ScopedDiagnosticHandler quiet(module.getContext(), [](Diagnostic &diag) {
    return success(diag.getSeverity() == DiagnosticSeverity::Warning);
  });
  func::FuncOp func = publicFunc(module);
  if (!func)
    return emitError(loc, "--precision=auto: the module has no public function"), failure();
  FailureOr<PackageSignature> signature = readSignature(module);
  if (failed(signature))
    return failure();
  numOutputs = signature->outputs.size();
  FailureOr<CpuTarget> target = pickCalibrationTarget(targets, loc);
  if (failed(target))
    return failure();
  outcome.calibrationTarget = *target;
  std::string calibration, randomRanges;
  if (!mixed.calibrationDir.empty()) {
    FailureOr<std::vector<CalibrationSet>> sets =
        readCalibration(mixed.calibrationDir, *signature, loc);
    if (failed(sets))
      return failure();
    outcome.sets = std::move(*sets);
    calibration = "dir:" + std::to_string(outcome.sets.size());
  } else {
    outcome.sets = randomSets(func, *signature, randomRanges);
    calibration = "random:" + std::to_string(outcome.sets.size());
  }

  // The candidates: the products mixed computes in the reduced type (what the pass retypes and
  // gives an f32 accumulator), found by running the pass on a copy.
  MLIRContext *ctx = module.getContext();
  int64_t next = 0;
  func.walk([&](Operation *op) {
    if (isa<ms::Conv2dOp, ms::MatMulOp, ms::GemmOp>(op))
      op->setAttr(kIdAttr, IntegerAttr::get(IntegerType::get(ctx, 64), next++));
  });
  {
    OwningOpRef<ModuleOp> probe = module.clone();
    PassManager pm(ctx);
    buildMsPostPrecisionPipeline(pm, /*fusion=*/false, options.maxFusedOps, mixed);
    if (failed(pm.run(*probe)))
      return failure();
    DenseSet<int64_t> reducedIds;
    probe->walk([&](Operation *op) {
      auto id = op->getAttrOfType<IntegerAttr>(kIdAttr);
      auto type = id ? dyn_cast<RankedTensorType>(op->getResult(0).getType()) : nullptr;
      if (type && !type.getElementType().isF32())
        reducedIds.insert(id.getInt());
    });
    // Renumbered densely over the candidates only.
    next = 0;
    func.walk([&](Operation *op) {
      auto id = op->getAttrOfType<IntegerAttr>(kIdAttr);
      if (!id)
        return;
      if (!reducedIds.contains(id.getInt())) {
        op->removeAttr(kIdAttr);
        return;
      }
      op->setAttr(kIdAttr, IntegerAttr::get(IntegerType::get(ctx, 64), next++));
      candidates.push_back({op, nodeName(op), op->getName().stripDialect().str()});
    });
  }

  std::string reduced = mixed.reducedTypeName().str();
  outcome.record.reduced = reduced;
  outcome.record.budget = mixed.accuracyBudget;
  outcome.record.calibration = calibration;
  outcome.record.candidates = candidates.size();

  // Step 1.
  FailureOr<Variant> exact = compileAndRun(false, {}, false);
  if (failed(exact))
    return failure();
  for (Outputs &run : exact->runs)
    outcome.reference.push_back(std::move(run));
  size_t keepCount = 0;
  double mixedError = 0;
  if (!candidates.empty()) {
    FailureOr<double> error = errorWithTopK(0);
    if (failed(error))
      return failure();
    mixedError = *error;
  } else {
    measured[0] = 0;
    bestCode = std::move(exact->code);
  }
  bool ranked = false;
  if (mixedError > mixed.accuracyBudget) {
    // Steps 2 and 3: the error falls as k grows; the smallest passing k lies in (lo, hi].
    if (failed(rank()))
      return failure();
    ranked = true;
    size_t lo = 0, hi = candidates.size();
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      FailureOr<double> error = errorWithTopK(mid);
      if (failed(error))
        return failure();
      (*error <= mixed.accuracyBudget ? hi : lo) = mid;
    }
    FailureOr<double> error = errorWithTopK(hi);
    if (failed(error))
      return failure();
    if (*error > mixed.accuracyBudget)
      return emitError(loc) << llvm::formatv(
                 "--accuracy-budget={0:e1} cannot be met: with every product in f32 the outputs' "
                 "error is still {1:e2} (the rounding of the remaining reduced ops)",
                 mixed.accuracyBudget, *error),
             failure();
    keepCount = hi;
  }
  outcome.code = std::move(bestCode);
  outcome.record.error = measured[keepCount];

  // Mark the kept ops in the module itself and drop the ids.
  std::vector<int64_t> kept(order.begin(), order.begin() + keepCount);
  for (int64_t id : kept) {
    candidates[id].op->setAttr(kKeepAttr, UnitAttr::get(ctx));
    outcome.record.kept.push_back(candidates[id].name);
  }
  func.walk([&](Operation *op) { op->removeAttr(kIdAttr); });

  // The report.
  llvm::raw_string_ostream os(outcome.reportText);
  os << llvm::formatv("  auto: budget {0:e1} on the outputs' relative error (max |{1} - fp32| / "
                      "max |fp32| per output), reduced type {1}\n",
                      mixed.accuracyBudget, reduced);
  os << "    calibration: " << outcome.sets.size()
     << (mixed.calibrationDir.empty() ? " random input sets (seeded)"
                                      : " input sets from '" + mixed.calibrationDir + "'")
     << ", run on target " << outcome.calibrationTarget.name << "\n";
  if (!randomRanges.empty())
    os << "    random inputs: " << randomRanges << "\n";
  os << "    candidates: " << candidates.size()
     << " products (conv2d, matmul, gemm) that mixed computes in " << reduced << "\n";
  os << llvm::formatv("    all candidates reduced (mixed): error {0:e2} ({1} budget)\n", mixedError,
                      mixedError <= mixed.accuracyBudget ? "within" : "over");
  if (ranked) {
    os << "    measured with the top k kept in f32 (largest local error first):";
    for (auto [k, error] : measured)
      os << llvm::formatv(" k={0}: {1:e2}", k, error);
    os << "\n";
  }
  os << "    kept in f32: " << keepCount << " of " << candidates.size() << "\n";
  for (int64_t id : kept)
    os << llvm::formatv("      {0} ({1}): local error {2:e2}, error at its result {3:e2}\n",
                        candidates[id].name, candidates[id].kind, candidates[id].local,
                        candidates[id].error);
  os << "    compiles: " << outcome.compiles << "\n";
  return std::move(outcome);
}

} // namespace

FailureOr<AutoPrecisionOutcome> mlir::mie::searchAutoPrecision(ModuleOp module,
                                                               const CompileOptions &options,
                                                               ArrayRef<CpuTarget> targets,
                                                               const PrecisionOptions &mixed) {
  return Search(module, options, mixed).run(targets);
}

FailureOr<double> mlir::mie::measurePackageError(StringRef package,
                                                 const AutoPrecisionOutcome &outcome,
                                                 Location loc) {
  FailureOr<std::vector<Outputs>> runs =
      runPackage(package, outcome.calibrationTarget.name, outcome.sets, loc);
  if (failed(runs))
    return failure();
  return outputsError(*runs, outcome.reference, outcome.reference.front().size());
}
