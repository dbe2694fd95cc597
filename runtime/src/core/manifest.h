// Typed view of a package manifest and its schema check. Every field is checked for presence and type here,
// so the rest of the runtime can use the structs without re-checking.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "json.h"
#include "mie/mie_rt.h"
#include "shape_expr.h"

namespace mie::rt {

struct TensorDesc {
  std::string name;
  mie_dtype dtype = MIE_DTYPE_INVALID;
  std::vector<int64_t> dims;
  uint64_t num_elements = 0;
  uint64_t byte_size = 0;
  // Outputs only (format 3): the dims whose real extent the code computes at run time, ascending. `dims`
  // is then the upper bound the caller's buffer is sized for; the code writes one int64 per entry into
  // the output's extent buffer (an entry argument after the outputs) and the runtime reports the real shape.
  std::vector<uint32_t> dynamic_dims;
  // Format 4, a package with symbols: one entry per dim whose extent is an expression of the
  // symbols
  // (`dims` has -1 there, and num_elements and byte_size are 0: the run's shape decides them);
  // empty when every dim is static. An input's symbolic dim is one symbol alone, an output's any
  // expression.
  std::vector<std::pair<uint32_t, ShapeExpr>> symbolic_dims;
  bool is_symbolic() const { return !symbolic_dims.empty(); }
};

// Format 4: a symbolic dim of the model ("batch", "seq") and the range of values its package
// accepts.
struct SymbolDesc {
  std::string name;
  int64_t min = 0, max = 0;
  // A value symbol: element `value_element` (row-major) of input `value_input`, an integer tensor
  // of static shape, is the symbol's value (a Reshape's shape given as a graph input): a run's
  // input data binds it, not its shapes. -1 for a symbol an input's dim binds.
  int32_t value_input = -1;
  uint64_t value_element = 0;
  // A Reshape's result dim: the input's values resolved against a tensor of these dims (over the
  // symbols an input's dim binds) as ONNX's Reshape does; empty for the element's value itself.
  std::vector<ShapeExpr> reshape_of;
  bool reshape_allowzero = false;
  // An axis: the element once the input's values are made non-negative (+ axes_rank where
  // negative) and sorted; -1 for none.
  int64_t axes_rank = -1;
  // A Squeeze's or Unsqueeze's axes of a tensor of `axes_input_dims`: canonical_axes.
  std::string axes_op;
  std::vector<int64_t> axes_input_dims;
  // An Expand's dim against a size: the element's 1 means that size; -1 for none.
  int64_t one_means = -1;
  // A batch: the model computes its samples independently (every output holds the symbol in dim
  // 0 only, as a multiple of it; inputs hold it so or not at all), so a run may take a large
  // batch in slices (Session::plan_batch_slices).
  bool batch = false;
  bool is_value() const { return value_input >= 0; }
};

// ONNX Reshape's resolution of `requested` (0 copies the dim of `dims` unless `allowzero`, one -1
// infers the dim that keeps the element count) into `out`; false with *why on a shape that does
// not reshape `dims`.
bool resolve_reshape(const std::vector<int64_t> &requested, const std::vector<int64_t> &dims,
                     bool allowzero, std::vector<int64_t> *out, std::string *why);

// ONNX's axes `axes` of a tensor of rank `rank`, made non-negative and sorted, into `out`; false
// with *why where one is out of range or repeated.
bool resolve_axes(const std::vector<int64_t> &axes, int64_t rank, std::vector<int64_t> *out,
                  std::string *why);

// The first set of axes (lexicographically) that makes the same shape as the resolved `axes` do
// when `op` ("squeeze" or "unsqueeze") applies them to a tensor of `dims`: the importer compiles
// for that set, ones next to ones being interchangeable. False with *why where `axes` squeeze a
// dim that is not 1.
bool canonical_axes(const std::string &op, const std::vector<int64_t> &dims,
                    std::vector<int64_t> *axes, std::string *why);

// The value of element `element` of an integer tensor of `dtype` at `data` (of an f32 or f64 one,
// truncated toward zero); false for another dtype or a value beyond int64.
bool read_integer_element(mie_dtype dtype, const void *data, uint64_t element, int64_t *out);

struct SectionRef {
  uint64_t offset = 0;
  uint64_t size = 0;
  uint8_t sha256[32] = {};
};

// One kernel launch of a target's entry, in launch order (informational; the profiler's table).
struct KernelDesc {
  std::string name;   // the generated function, e.g. "main_k3_conv2d"
  std::string nodes;  // the ONNX nodes it computes, comma-separated (may be empty)
  uint64_t flops = 0; // floating-point operations per run as the compiler counted them (0: not counted)
  // Arena bytes [offset, offset + bytes) whose buffers this kernel uses for the last time (optional).
  std::vector<std::pair<uint64_t, uint64_t>> dead;
};

struct TargetDesc {
  std::string name, kind, arch, features, format, entry;
  // cuda targets: the machine of the host code object ("x86_64", "aarch64"); empty for cpu targets.
  std::string host_arch;
  // cuda targets: `arch` as a number (sm_90 -> 90), and whether it was an arch-specific "sm_90a" (that code
  // runs on exactly that compute capability).
  int sm = 0;
  bool sm_exact = false;
  uint32_t abi_version = 0;
  uint64_t arena_bytes = 0;
  SectionRef code;
  // Format 2: the weights this target's code reads, when they differ from the shared ones (weights packed
  // for another microkernel tile).
  bool has_own_weights = false;
  SectionRef weights;
  std::vector<KernelDesc> kernels;  // optional in the manifest; empty for packages that predate it
  // Format 4, a package with symbols: the value of each symbol this target's code was compiled for
  // (a specialization); targets of one name differ in these. Empty in packages without symbols.
  std::vector<int64_t> dims;
};

struct Manifest {
  int64_t format_version = 0;
  std::string compiler, model, precision;
  std::vector<TensorDesc> inputs, outputs;
  SectionRef weights;
  std::vector<TargetDesc> targets;
  std::vector<SymbolDesc> symbols; // format 4; empty when every dim is static
};

// The shape of `t` for the symbols' `values` (t.dims when it has no symbolic dim); false when an
// expression does not evaluate (overflow, division by zero) or gives a negative extent. With
// `bytes`, also the tensor's byte size, and false where it exceeds MIE_MAX_TENSOR_BYTES.
bool evaluate_shape(const TensorDesc &t, const std::vector<int64_t> &values,
                    std::vector<int64_t> *out, uint64_t *bytes = nullptr);

// Checks the manifest schema (see docs/package-format.md). Unknown extra fields are ignored so that later
// compilers can add informational fields without a format bump. On failure *error is
// "<json path>: <what>" (e.g. "inputs[0].shape[1]: negative dimension -3").
bool parse_manifest(const json::Value &root, Manifest *out, std::string *error);

}  // namespace mie::rt
