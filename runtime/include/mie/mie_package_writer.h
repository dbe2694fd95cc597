// mie_package_writer.h - writes .mie packages (docs/package-format.md). Linked by the compiler (CMake target
// mie_package_writer); independent of the runtime library and of LLVM/MLIR.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"

namespace mie {

struct PackageTensorSpec {
  std::string name;
  std::string dtype;           // f32 f16 bf16 f64 i8 i16 i32 i64 u8 bool
  std::vector<int64_t> shape;  // every dim >= 0; empty = scalar
  // Outputs only: the dims whose extent the code computes at run time (ascending); `shape` is their upper
  // bound. Such a package is format 3 (docs/package-format.md, "Data-dependent output shapes").
  std::vector<int64_t> dynamic_dims;
  // A package with symbols (format 4): per dim, the expression of the symbols its extent is ("s0",
  // "s0 * s1", MLIR's affine syntax over the symbols' indices), "" for a static dim; empty when
  // every dim is static. `shape` has -1 at the symbolic dims. An input's symbolic dim must be one
  // symbol alone.
  std::vector<std::string> symbolic = {};
};

// A symbolic dim of the model and the range of values the package accepts for it (format 4).
struct PackageSymbolSpec {
  std::string name;
  int64_t min = 1, max = 1;
  // A value symbol: element `value_element` of input `value_input` (an integer tensor of static
  // shape) is its value, bound from a run's input data; -1 for a symbol an input's dim binds.
  int32_t value_input = -1;
  uint64_t value_element = 0;
  // A value symbol that is a Reshape's result dim: the input's values resolved as ONNX's Reshape
  // does against a tensor of these dims (expressions of the other symbols, as `symbolic`; 0
  // copies the dim unless `reshape_allowzero`, -1 infers one). Empty: the element's value itself.
  std::vector<std::string> reshape_of = {};
  bool reshape_allowzero = false;
  // A value symbol that is an axis (a Squeeze's axes given as an input): the element once the
  // input's values are made non-negative (+ `axes_rank` where negative) and sorted; -1: not one.
  int32_t axes_rank = -1;
  // A Squeeze's or Unsqueeze's axes ("squeeze", "unsqueeze"; "" for others): axes that make the
  // same shape of a tensor of `axes_input_dims` are the same, the element being that of the first
  // such set (ones next to ones are interchangeable).
  std::string axes_op = {};
  std::vector<int64_t> axes_input_dims = {};
  // An Expand's dim against a size: the element's value 1 means that size (numpy broadcasting);
  // -1: not one.
  int64_t one_means = -1;
  // A batch: the model computes the samples along this symbol independently (every input holds
  // it in its first dim only, as a multiple of the symbol, or not at all; every output holds it
  // so), so a run may take a large batch in slices (docs/dynamic-shapes.md, "Batch slices").
  bool batch = false;
};

// The mie_dtype value (mie_rt.h) of a manifest dtype name such as "f32"; 0 for a name the format has not.
int64_t dtype_code(const std::string &name);

// One kernel launch of the entry, in launch order: what `mie-run --profile` names and counts.
struct PackageKernelSpec {
  std::string name;                // generated function name
  std::vector<std::string> nodes;  // source (ONNX) node names it computes
  uint64_t flops = 0;              // floating-point operations per run (0: not counted)
  // Arena bytes [offset, offset + bytes) whose buffers the kernel uses for the last time (what the
  // runtime's dead-buffer poisoning overwrites after it).
  std::vector<std::pair<uint64_t, uint64_t>> dead;
};

struct PackageTargetSpec {
  std::string name;      // "x86-64", "aarch64", "cuda-sm_90"
  std::string kind = "cpu";
  std::string arch;      // "x86_64", "aarch64", "sm_90"
  std::string features;  // "+avx2,+fma"; may be empty
  std::string format = "elf-shared-object";  // also the host code object of a cuda target
  std::string host_arch;  // cuda targets only, required there: the host code object's machine ("x86_64")
  std::string entry = "mie_entry";
  // The ABI the code was generated for; 0 = the kind's: MIE_KERNEL_ABI_CPU_VERSION for cpu,
  // MIE_KERNEL_ABI_VERSION for cuda (the first with the mie_gpu_api).
  uint32_t abi_version = 0;
  uint64_t arena_bytes = 0;
  std::vector<uint8_t> code;  // the whole code object; must not be empty
  std::vector<PackageKernelSpec> kernels;  // optional; index = the kernel id the profile hook reports
  // Weights of this target alone (format 2), for code whose weights differ from the shared ones (packed for
  // another microkernel tile). Not copied: must stay valid until write()/serialize() return.
  bool own_weights = false;
  const uint8_t *weights = nullptr;
  uint64_t weights_size = 0;
  // A package with symbols: the value of every symbol this code was compiled for (in the order of
  // add_symbol). Targets of one name then differ in these: the runtime picks the one matching a
  // run.
  std::vector<int64_t> dims = {};
};

// What `mie-compile --precision=auto` measured: the manifest's optional "precision_auto" object
// (docs/package-format.md). Readers that do not know it ignore it.
struct PackagePrecisionAuto {
  std::string reduced;             // the reduced type of the products: "bf16" or "fp16"
  double budget = 0;               // the accuracy budget (relative error of the outputs)
  double error = 0;                // the final package's measured error
  std::string calibration;         // "random:<sets>" or "dir:<sets>"
  uint64_t candidates = 0;         // the products mixed would compute in the reduced type
  std::vector<std::string> kept;   // those kept in f32 (ONNX node names)
};

class PackageWriter {
 public:
  // Sections are placed at multiples of this (the format only requires 64): page-aligned code and weights
  // keep the door open to mapping them directly.
  static constexpr uint64_t kSectionPlacement = 4096;

  void set_model(std::string name) { model_ = std::move(name); }
  void set_precision(std::string precision) { precision_ = std::move(precision); }  // "fp32", "fp16", ...
  void set_compiler(std::string compiler) { compiler_ = std::move(compiler); }
  void set_precision_auto(PackagePrecisionAuto record) {
    precision_auto_ = std::move(record);
    has_precision_auto_ = true;
  }
  void add_symbol(PackageSymbolSpec spec) { symbols_.push_back(std::move(spec)); }
  void add_input(PackageTensorSpec spec) { inputs_.push_back(std::move(spec)); }
  void add_output(PackageTensorSpec spec) { outputs_.push_back(std::move(spec)); }
  // Not copied (weights can be large): `data` must stay valid until write()/serialize() return.
  void set_weights(const void *data, uint64_t size) {
    weights_ = static_cast<const uint8_t *>(data);
    weights_size_ = size;
  }
  void add_target(PackageTargetSpec spec) { targets_.push_back(std::move(spec)); }

  // Writes the package atomically: the bytes go to "<path>.tmp-XXXXXX" in the same directory, which is
  // fsync'ed and renamed over `path`; on any failure the temporary is removed and `path` is untouched.
  // Returns "" on success, otherwise a message saying what was wrong.
  std::string write(const std::string &path) const;

  // The same bytes in memory (tests, tools that embed packages).
  std::string serialize(std::vector<uint8_t> *out) const;

 private:
  struct Layout;
  std::string check() const;
  std::string plan(Layout *layout) const;
  template <typename Sink>
  bool emit(const Layout &layout, Sink &&sink) const;

  std::string model_, precision_ = "fp32", compiler_ = "mie-compile " MIE_RT_VERSION_STRING;
  std::vector<PackageSymbolSpec> symbols_;
  std::vector<PackageTensorSpec> inputs_, outputs_;
  const uint8_t *weights_ = nullptr;
  uint64_t weights_size_ = 0;
  std::vector<PackageTargetSpec> targets_;
  PackagePrecisionAuto precision_auto_;
  bool has_precision_auto_ = false;
};

}  // namespace mie
