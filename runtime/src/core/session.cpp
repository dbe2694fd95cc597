#include "session.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <cstddef>
#include <cstdlib>
#include <random>

#include "../cpu/host_cpu.h"
#include "abi_table.h"
#include "format.h"
#include "image_decoder.h"

namespace mie::rt {

// The code generator hard-codes this layout; fail the build rather than corrupt memory if it ever drifts.
static_assert(offsetof(mie_kernel_env, abi_version) == 0, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, num_threads) == 4, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, pool) == 8, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, parallel_for) == 16, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, profile_ctx) == 24, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, profile) == 32, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, gpu_ctx) == 40, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, gpu) == 48, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, host_ctx) == 56, "mie_kernel_env layout");
static_assert(offsetof(mie_kernel_env, host) == 64, "mie_kernel_env layout");
static_assert(sizeof(mie_kernel_env) == 72, "mie_kernel_env layout");
static_assert(offsetof(mie_host_api, decode_image) == 8 && offsetof(mie_host_api, check_failed) == 16 &&
                  sizeof(mie_host_api) == 24,
              "mie_host_api layout");
static_assert(offsetof(mie_gpu_api, version) == 0, "mie_gpu_api layout");
static_assert(offsetof(mie_gpu_api, get_function) == 8, "mie_gpu_api layout");
static_assert(offsetof(mie_gpu_api, launch) == 16, "mie_gpu_api layout");
static_assert(offsetof(mie_gpu_api, memcpy_d2d) == 24, "mie_gpu_api layout");
static_assert(offsetof(mie_gpu_api, memset_d8) == 32, "mie_gpu_api layout");
static_assert(offsetof(mie_gpu_api, matmul) == 40 && offsetof(mie_gpu_api, conv2d) == 48, "mie_gpu_api layout (version 2)");
static_assert(sizeof(mie_gpu_api) == 56, "mie_gpu_api layout");
static_assert(offsetof(mie_gpu_module, size) == 8 && offsetof(mie_gpu_module, format) == 16 &&
                  sizeof(mie_gpu_module) == 24 && offsetof(mie_gpu_module_table, modules) == 16,
              "mie_gpu_modules layout");
static_assert(MIE_KERNEL_ABI_VERSION == 8, "update the static_asserts with the ABI");

namespace {

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

// Moves an output written in its upper-bound layout (`bound` dims, row-major) to the dense row-major layout
// of its real shape `real` (each dim <= its bound) at the start of the same buffer. Runs of the innermost
// dim are moved in row-major order; every run's destination lies at or before its source and after the
// previous run's destination, so moving in place forward never overwrites data still to be moved.
void compact_output(uint8_t *data, size_t element_size, const std::vector<int64_t> &bound,
                    const std::vector<int64_t> &real) {
  const size_t rank = bound.size();
  if (rank == 0 || bound == real) return;
  for (int64_t d : real)
    if (d == 0) return;
  std::vector<int64_t> stride(rank, 1);
  for (size_t d = rank - 1; d > 0; --d) stride[d - 1] = stride[d] * bound[d];
  const size_t run = size_t(real[rank - 1]) * element_size;
  std::vector<int64_t> index(rank, 0);
  size_t dst = 0;
  while (true) {
    int64_t src = 0;
    for (size_t d = 0; d + 1 < rank; ++d) src += index[d] * stride[d];
    std::memmove(data + dst, data + size_t(src) * element_size, run);
    dst += run;
    size_t d = rank - 1;
    while (d > 0 && ++index[d - 1] == real[d - 1]) index[--d] = 0;
    if (d == 0) return;
  }
}

}  // namespace

mie_status Session::create(std::shared_ptr<const Package> pkg, const mie_session_options *options,
                           std::unique_ptr<Session> *out, std::string *error) {
  mie_status status = MIE_OK;
  const char *requested = options ? options->target : nullptr;
  const TargetDesc *target = select_target(*pkg, requested, &status, error);
  if (!target) return status;
  status = create_for(pkg, target, options, out, error);
  // An automatic choice of a device target whose session cannot start (a GPU library it calls is missing,
  // the device refuses its modules) falls back on the best host target: the portable package still runs.
  const char *env = std::getenv("MIE_TARGET");
  if (status != MIE_OK && status != MIE_ERR_OUT_OF_MEMORY && find_target_kind(target->kind)->device &&
      !requested && !(env && env[0])) {
    mie_status host_status = MIE_OK;
    std::string ignored;
    if (const TargetDesc *host = select_target(*pkg, host_target_kind().name, &host_status, &ignored)) {
      std::string host_error;
      if (create_for(pkg, host, options, out, &host_error) == MIE_OK) {
        (*out)->device_ += "; " + target->kind + " target '" + target->name + "' did not start: " + *error;
        return MIE_OK;
      }
    }
  }
  return status;
}

mie_status Session::load_variant(const TargetDesc *target, std::unique_ptr<Variant> *out,
                                 std::string *error) {
  const std::string prefix = "package '" + pkg_->path() + "': ";
  const Manifest &manifest = pkg_->manifest();
  auto v = std::make_unique<Variant>();
  v->target = target;
  mie_status status = v->code.load(pkg_->data() + target->code.offset, target->code.size,
                                   "target '" + target->name + "'", target->entry, error);
  if (status != MIE_OK) {
    *error = prefix + *error;
    return status;
  }
  // The entry is data-pointer-typed from dlsym; POSIX guarantees the round trip to a function
  // pointer.
  v->entry = reinterpret_cast<mie_entry_fn>(v->code.entry());

  // Before anything is sized by the manifest: the code says what it was compiled for. A table is
  // checked whatever abi_version the manifest claims, so lowering that number cannot skip the
  // check; code from before ABI 3 has none and runs on the manifest's word, as it always did.
  size_t table_bytes = 0;
  const void *table = v->code.symbol(MIE_ABI_SYMBOL, &table_bytes);
  const std::string where = prefix + "target '" + target->name + "': ";
  if (!table && target->abi_version >= 3) {
    *error = where + "the code object exports no ABI table '" + MIE_ABI_SYMBOL + "' (kernel ABI " +
             std::to_string(target->abi_version) + " code must)";
    return MIE_ERR_INVALID_PACKAGE;
  }
  if (!table && !manifest.symbols.empty()) {
    *error = where + "code for symbolic dims must export its ABI table";
    return MIE_ERR_INVALID_PACKAGE;
  }
  const SectionRef &weights = target->has_own_weights ? target->weights : manifest.weights;
  if (table && !check_abi_table(static_cast<const int64_t *>(table), table_bytes / sizeof(int64_t),
                                manifest, *target, weights.size, error)) {
    *error = where + *error;
    return MIE_ERR_INVALID_PACKAGE;
  }
  // Code for every shape: its arena size function (kernel ABI 7).
  if (!manifest.symbols.empty() && target->dims.empty()) {
    size_t symbol_bytes = 0;
    const void *fn = v->code.symbol(MIE_ARENA_BYTES_SYMBOL, &symbol_bytes);
    if (!fn) {
      *error = where + "code for every shape exports no '" + MIE_ARENA_BYTES_SYMBOL + "'";
      return MIE_ERR_INVALID_PACKAGE;
    }
    v->arena_bytes = reinterpret_cast<mie_arena_bytes_fn>(const_cast<void *>(fn));
    *out = std::move(v);
    return MIE_OK;  // shapes and sizes come with each bind
  }
  // The shapes this code runs (parse_manifest checked that they evaluate and fit the limits).
  for (int pass = 0; pass < 2; ++pass) {
    const auto &list = pass ? manifest.outputs : manifest.inputs;
    auto &shapes = pass ? v->output_shapes : v->input_shapes;
    auto &bytes = pass ? v->output_bytes : v->input_bytes;
    for (const TensorDesc &t : list) {
      std::vector<int64_t> shape;
      uint64_t n = 0;
      evaluate_shape(t, target->dims, &shape, &n);
      shapes.push_back(std::move(shape));
      bytes.push_back(n);
    }
  }
  *out = std::move(v);
  return MIE_OK;
}

void Session::select(Variant *v, const std::vector<int64_t> &values) {
  bound_ = v;
  target_ = v->target;
  entry_ = v->entry;
  input_shapes_ = v->input_shapes;
  output_shapes_ = v->output_shapes;
  dims_ = values;
}

mie_status Session::reserve_arena(uint64_t bytes, const std::string &what, std::string *error) {
  if (bytes > arena_bytes_) {
    if (!arena_.allocate(bytes)) {
      *error = "package '" + pkg_->path() + "': cannot allocate the " + std::to_string(bytes) +
               "-byte arena for " + what;
      return MIE_ERR_OUT_OF_MEMORY;
    }
    arena_bytes_ = bytes;
  }
  run_arena_bytes_ = bytes;
  return MIE_OK;
}

mie_status Session::create_for(std::shared_ptr<const Package> pkg, const TargetDesc *target,
                               const mie_session_options *options, std::unique_ptr<Session> *out,
                               std::string *error) {
  mie_status status = MIE_OK;
  const std::string prefix = "package '" + pkg->path() + "': ";

  const Manifest &manifest = pkg->manifest();
  size_t num_extents = 0;
  for (const TensorDesc &t : manifest.outputs) num_extents += t.dynamic_dims.size();
  // Data-dependent extents are read from host memory after a run: device code does not produce them.
  const TargetKind &kind = *find_target_kind(target->kind);
  if (num_extents > 0 && kind.device) {
    *error = prefix + "target '" + target->name + "': outputs with data-dependent shapes run on " +
             host_target_kind().name + " targets only";
    return MIE_ERR_UNSUPPORTED;
  }
  if (!manifest.symbols.empty() && kind.device) {
    *error = prefix + "target '" + target->name + "': packages with symbolic dims run on " +
             host_target_kind().name + " targets only";
    return MIE_ERR_UNSUPPORTED;
  }

  std::unique_ptr<Session> s(new Session());
  s->pkg_ = pkg;
  for (size_t k = 0; k < manifest.symbols.size(); ++k) {
    s->has_value_symbols_ |= manifest.symbols[k].is_value();
    if (manifest.symbols[k].batch && s->batch_symbol_ < 0)
      s->batch_symbol_ = int(k);
  }
  s->batch_slice_setting_ = batch_slice_from_environment();
  if (s->batch_symbol_ >= 0) {
    auto holds = [&](const TensorDesc &t) {
      for (const auto &[dim, expr] : t.symbolic_dims)
        if (expr.uses_symbol(size_t(s->batch_symbol_)))
          return true;
      return false;
    };
    for (const TensorDesc &t : manifest.inputs) s->input_holds_batch_.push_back(holds(t));
    for (const TensorDesc &t : manifest.outputs) s->output_holds_batch_.push_back(holds(t));
  }
  s->extents_.assign(num_extents, 0);
  // Every specialization of the target's name: one code object each, all checked now, so that a run
  // never loads code.
  for (const TargetDesc &t : manifest.targets) {
    if (t.name != target->name)
      continue;
    std::unique_ptr<Variant> v;
    status = s->load_variant(&t, &v, error);
    if (status != MIE_OK)
      return status;
    s->variants_.push_back(std::move(v));
  }
  s->target_ = s->variants_.front()->target;
  s->entry_ = s->variants_.front()->entry;
  const std::string where = prefix + "target '" + target->name + "': ";
  if (manifest.symbols.empty()) {
    // Shapes are the manifest's: bound from the start.
    s->select(s->variants_.front().get(), {});
  } else {
    // Until a bind: the manifest's dims, -1 where symbolic.
    for (const TensorDesc &t : manifest.inputs)
      s->input_shapes_.push_back(t.dims);
    for (const TensorDesc &t : manifest.outputs)
      s->output_shapes_.push_back(t.dims);
  }

  if (kind.device) {
    // Arena, weights and tensors live on the device; the host code only launches. (cuda is the one
    // device kind: a second one would make this session a per-kind interface.)
    const SectionRef &weights = target->has_own_weights ? target->weights : manifest.weights;
    status = cuda::CudaSession::create(*target, manifest, s->variants_.front()->code,
                                       pkg->weights(*target), weights.size, &s->gpu_, error);
    if (status != MIE_OK) {
      *error = where + *error;
      return status;
    }
    const cuda::Device &dev = s->gpu_->device();
    s->device_ = dev.name + ", sm_" + std::to_string(dev.sm) + ", device " + std::to_string(dev.ordinal);
    if (std::string libraries = s->gpu_->libraries(); !libraries.empty()) s->device_ += "; " + libraries;
  }

  // A package without symbols gets its arena now; one with symbols when a bind needs it (grown,
  // never shrunk, so runs of shapes that fit reuse it).
  if (manifest.symbols.empty() && target->arena_bytes > 0 && !s->gpu_) {
    if (!s->arena_.allocate(target->arena_bytes)) {  // page aligned, so 64-byte aligned
      *error = prefix + "cannot allocate the " + std::to_string(target->arena_bytes) + "-byte arena of target '" +
               target->name + "'";
      return MIE_ERR_OUT_OF_MEMORY;
    }
    s->arena_bytes_ = target->arena_bytes;
    s->run_arena_bytes_ = target->arena_bytes;
  }
  std::string pool_error;
  // A cuda target's host code only launches: one thread unless asked for more.
  const uint32_t threads = options && options->num_threads ? options->num_threads : s->gpu_ ? 1 : 0;
  if (!ThreadPool::create(threads, &s->pool_, &pool_error)) {
    *error = prefix + pool_error;
    return options && options->num_threads > ThreadPool::kMaxThreads ? MIE_ERR_INVALID_ARGUMENT : MIE_ERR_OUT_OF_MEMORY;
  }
  s->env_.abi_version = MIE_KERNEL_ABI_VERSION;
  s->env_.num_threads = s->pool_->num_threads();
  s->env_.pool = s->pool_.get();
  s->env_.parallel_for = &ThreadPool::parallel_for_thunk;
  if (!s->gpu_) {  // the host api serves cpu code; cuda host code is refused image decoding at compile time
    static const mie_host_api host_api = {MIE_HOST_API_VERSION, &Session::decode_image, &Session::check_failed};
    s->env_.host_ctx = s.get();
    s->env_.host = &host_api;
  }
  const auto &m = pkg->manifest();
  size_t dynamic_outputs = 0;
  for (const TensorDesc &t : m.outputs) dynamic_outputs += t.dynamic_dims.empty() ? 0 : 1;
  s->args_.assign(m.inputs.size() + m.outputs.size() + dynamic_outputs + 4, nullptr);
  // A fresh key per session (std::random_device reads the OS's entropy): two sessions, or two processes,
  // draw different numbers unless a seed is set.
  std::random_device entropy;
  s->random_key_[0] = (uint64_t(entropy()) << 32) ^ uint64_t(entropy());
  s->random_key_[1] = 0;
  *out = std::move(s);
  return MIE_OK;
}

Session::~Session() = default;

mie_status Session::set_threads(uint32_t num_threads, std::string *error) {
  std::lock_guard<std::mutex> lk(run_mu_);
  std::unique_ptr<ThreadPool> pool;
  std::string pool_error;
  // Tear the old pool down first so the thread count never doubles transiently.
  pool_.reset();
  if (!ThreadPool::create(num_threads, &pool, &pool_error)) {
    // Keep the session usable: fall back to running inline.
    ThreadPool::create(1, &pool_, &pool_error);
    env_.num_threads = 1;
    env_.pool = pool_.get();
    *error = "package '" + pkg_->path() + "': " + pool_error;
    std::string ignored;
    replan_batch_slices(&ignored);
    return num_threads > ThreadPool::kMaxThreads ? MIE_ERR_INVALID_ARGUMENT : MIE_ERR_OUT_OF_MEMORY;
  }
  pool_ = std::move(pool);
  env_.num_threads = pool_->num_threads();
  env_.pool = pool_.get();
  // Concurrent batch slices take one thread each: as many as there are now.
  return replan_batch_slices(error);
}

mie_status Session::set_profiler(mie_profile_fn hook, void *ctx, std::string *error) {
  std::lock_guard<std::mutex> lk(run_mu_);
  if (hook && gpu_) {
    // The host code's hook calls would time kernel launches, not kernels: the GPU runs them later.
    *error = "package '" + pkg_->path() + "': target '" + target_->name +
             "': per-kernel profiling is not supported for cuda targets (kernels run asynchronously)";
    return MIE_ERR_UNSUPPORTED;
  }
  if (hook && target_->abi_version < 2) {
    *error = "package '" + pkg_->path() + "': target '" + target_->name + "' was compiled for kernel ABI " +
             std::to_string(target_->abi_version) + ", which has no profile hooks (recompile the model)";
    return MIE_ERR_UNSUPPORTED;
  }
  user_profile_ = hook;
  user_profile_ctx_ = hook ? ctx : nullptr;
  install_hook();
  return MIE_OK;
}

mie_status Session::set_poison_dead_buffers(bool enable, std::string *error) {
  std::lock_guard<std::mutex> lk(run_mu_);
  const std::string prefix = "package '" + pkg_->path() + "': target '" + target_->name + "': ";
  if (enable && gpu_) {
    *error = prefix + "dead-buffer poisoning is not supported for cuda targets (the arena is device memory)";
    return MIE_ERR_UNSUPPORTED;
  }
  if (enable && target_->abi_version < 2) {
    *error = prefix + "compiled for kernel ABI " + std::to_string(target_->abi_version) +
             ", which has no kernel hooks (recompile the model)";
    return MIE_ERR_UNSUPPORTED;
  }
  if (enable && target_->arena_bytes > 0 &&
      std::none_of(target_->kernels.begin(), target_->kernels.end(),
                   [](const KernelDesc &k) { return !k.dead.empty(); })) {
    *error = prefix + "the package lists no dead buffers (an older mie-compile); recompile the model";
    return MIE_ERR_UNSUPPORTED;
  }
  poison_ = enable;
  install_hook();
  return MIE_OK;
}

void Session::install_hook() {
  const bool on = poison_ || user_profile_;
  env_.profile = on ? &Session::dispatch : nullptr;
  env_.profile_ctx = on ? this : nullptr;
}

void Session::dispatch(void *ctx, int32_t kernel, int32_t phase) {
  Session *s = static_cast<Session *>(ctx);
  if (s->user_profile_) s->user_profile_(s->user_profile_ctx_, kernel, phase);
  if (!s->poison_ || phase != 1 || kernel < 0 || size_t(kernel) >= s->target_->kernels.size()) return;
  for (const auto &[offset, bytes] : s->target_->kernels[size_t(kernel)].dead)
    std::memset(s->arena_.data() + offset, 0xFF, size_t(bytes));  // NaN in every float type
}

namespace {

std::string shape_text(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

} // namespace

mie_status Session::value_symbol(size_t s, const void *data, const std::vector<int64_t> &values,
                                 int64_t *out, std::string *error) const {
  const Manifest &m = pkg_->manifest();
  const SymbolDesc &sym = m.symbols[s];
  const TensorDesc &t = m.inputs[size_t(sym.value_input)];
  if (sym.axes_rank >= 0) {
    // An axis: the input's values made non-negative and sorted.
    std::vector<int64_t> axes(t.num_elements), sorted;
    for (uint64_t e = 0; e < t.num_elements; ++e)
      if (!read_integer_element(t.dtype, data, e, &axes[e]))
        axes[e] = INT64_MAX;
    std::string why;
    if (!resolve_axes(axes, sym.axes_rank, &sorted, &why) ||
        (!sym.axes_op.empty() && !canonical_axes(sym.axes_op, sym.axes_input_dims, &sorted, &why))) {
      *error = "package '" + pkg_->path() + "': input '" + t.name + "' (symbol '" + sym.name +
               "'): " + why;
      return MIE_ERR_INVALID_ARGUMENT;
    }
    *out = sorted[sym.value_element];
    return MIE_OK;
  }
  if (sym.reshape_of.empty()) {
    if (!read_integer_element(t.dtype, data, sym.value_element, out))
      *out = -1; // a u64 beyond int64: outside every range
    else if (sym.one_means >= 0 && *out == 1)
      *out = sym.one_means; // broadcast against that size
    return MIE_OK;
  }
  // A Reshape's result dim: all of the input's values, resolved against the reshaped dims (input
  // dims alone, bound before the value symbols).
  std::vector<int64_t> requested(t.num_elements), reshaped, resolved;
  for (uint64_t e = 0; e < t.num_elements; ++e)
    if (!read_integer_element(t.dtype, data, e, &requested[e]))
      requested[e] = -2;
  for (const ShapeExpr &e : sym.reshape_of) {
    reshaped.push_back(0);
    e.evaluate(values, &reshaped.back());
  }
  std::string why;
  if (!resolve_reshape(requested, reshaped, sym.reshape_allowzero, &resolved, &why)) {
    *error = "package '" + pkg_->path() + "': input '" + t.name + "' (symbol '" + sym.name +
             "'): " + why;
    return MIE_ERR_INVALID_ARGUMENT;
  }
  *out = resolved[sym.value_element];
  return MIE_OK;
}

mie_status Session::check_value_symbols(const void *const *inputs, std::string *error) const {
  // The inputs the bind read, unchanged: nothing to resolve again (the run path allocates nothing).
  bool same = true;
  for (size_t i = 0; i < bound_value_bytes_.size() && same; ++i)
    same = bound_value_bytes_[i].empty() ||
           std::memcmp(inputs[i], bound_value_bytes_[i].data(), bound_value_bytes_[i].size()) == 0;
  if (same)
    return MIE_OK;
  const Manifest &m = pkg_->manifest();
  for (size_t s = 0; s < m.symbols.size(); ++s) {
    const SymbolDesc &sym = m.symbols[s];
    if (!sym.is_value())
      continue;
    const TensorDesc &t = m.inputs[size_t(sym.value_input)];
    int64_t v = 0;
    if (mie_status status = value_symbol(s, inputs[sym.value_input], dims_, &v, error))
      return status;
    if (v != dims_[s]) {
      *error = "package '" + pkg_->path() + "': input '" + t.name + "' element " +
               std::to_string(sym.value_element) + " (symbol '" + sym.name + "') is " +
               std::to_string(v) + " but the inputs were bound with " + std::to_string(dims_[s]) +
               ": bind them again with their data (mie_session_bind_inputs)";
      return MIE_ERR_INVALID_ARGUMENT;
    }
  }
  return MIE_OK;
}

mie_status Session::bind_inputs(uint32_t num_inputs, const uint32_t *ranks,
                                const int64_t *const *dims, const void *const *data,
                                std::string *error) {
  const Manifest &m = pkg_->manifest();
  const std::string prefix = "package '" + pkg_->path() + "': ";
  if (num_inputs != m.inputs.size()) {
    *error = prefix + "the model has " + std::to_string(m.inputs.size()) +
             " input(s), the call gives " + std::to_string(num_inputs) + " shape(s)";
    return MIE_ERR_INVALID_ARGUMENT;
  }
  if (num_inputs && (!ranks || !dims)) {
    *error = prefix + (!ranks ? "ranks" : "dims") + " array is NULL";
    return MIE_ERR_INVALID_ARGUMENT;
  }
  // The manifest's dims, with each symbol's name where it has one: "[batch, seq, 768]".
  auto declared = [&](const TensorDesc &t) {
    std::string s = "[";
    for (size_t d = 0; d < t.dims.size(); ++d) {
      std::string dim = std::to_string(t.dims[d]);
      for (const auto &[at, expr] : t.symbolic_dims)
        if (at == d)
          dim = m.symbols[size_t(expr.single_symbol())].name;
      s += (d ? ", " : "") + dim;
    }
    return s + "]";
  };
  std::vector<int64_t> values(m.symbols.size(), -1);
  std::vector<std::string> bound_by(m.symbols.size());
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    const TensorDesc &t = m.inputs[i];
    const std::string what = prefix + "input '" + t.name + "'";
    if (ranks[i] != t.dims.size()) {
      *error = what + ": rank " + std::to_string(ranks[i]) + ", the model takes rank " +
               std::to_string(t.dims.size()) + " " + declared(t);
      return MIE_ERR_INVALID_ARGUMENT;
    }
    if (ranks[i] && !dims[i]) {
      *error = what + ": dims are NULL";
      return MIE_ERR_INVALID_ARGUMENT;
    }
    for (size_t d = 0; d < t.dims.size(); ++d) {
      const int64_t v = dims[i][d];
      int symbol = -1;
      for (const auto &[at, expr] : t.symbolic_dims)
        if (at == d)
          symbol = expr.single_symbol();
      if (symbol < 0) {
        if (v != t.dims[d]) {
          *error = what + " dim " + std::to_string(d) + ": " + std::to_string(v) +
                   ", the model takes " + std::to_string(t.dims[d]) + " " + declared(t);
          return MIE_ERR_INVALID_ARGUMENT;
        }
        continue;
      }
      const SymbolDesc &sym = m.symbols[size_t(symbol)];
      const std::string where = what + " dim " + std::to_string(d) + " (symbol '" + sym.name + "')";
      if (v < sym.min || v > sym.max) {
        *error = where + ": " + std::to_string(v) + " is outside the package's range " +
                 std::to_string(sym.min) + ".." + std::to_string(sym.max);
        return MIE_ERR_INVALID_ARGUMENT;
      }
      if (values[size_t(symbol)] >= 0 && values[size_t(symbol)] != v) {
        *error = where + ": " + std::to_string(v) + ", but " + bound_by[size_t(symbol)] +
                 " gives " + sym.name + " = " + std::to_string(values[size_t(symbol)]);
        return MIE_ERR_INVALID_ARGUMENT;
      }
      values[size_t(symbol)] = v;
      bound_by[size_t(symbol)] = "input '" + t.name + "' dim " + std::to_string(d);
    }
  }
  // Value symbols: read from their inputs' data, which runs then compare with a copy.
  std::vector<std::vector<uint8_t>> value_bytes(has_value_symbols_ ? m.inputs.size() : 0);
  for (size_t s = 0; s < m.symbols.size(); ++s) {
    const SymbolDesc &sym = m.symbols[s];
    if (!sym.is_value())
      continue;
    const TensorDesc &t = m.inputs[size_t(sym.value_input)];
    auto where = [&] {
      return prefix + "input '" + t.name + "' element " + std::to_string(sym.value_element) +
             " (symbol '" + sym.name + "')";
    };
    const void *p = data ? data[sym.value_input] : nullptr;
    if (!p) {
      *error = where() + ": the model's shapes depend on this input's values; bind the inputs with "
                         "their data (mie_session_bind_inputs)";
      return MIE_ERR_INVALID_ARGUMENT;
    }
    int64_t v = 0;
    if (mie_status status = value_symbol(s, p, values, &v, error))
      return status;
    if (v < sym.min || v > sym.max) {
      *error = where() + ": " + std::to_string(v) + " is outside the package's range " +
               std::to_string(sym.min) + ".." + std::to_string(sym.max);
      return MIE_ERR_INVALID_ARGUMENT;
    }
    values[s] = v;
    const uint8_t *bytes = static_cast<const uint8_t *>(p);
    value_bytes[size_t(sym.value_input)].assign(bytes, bytes + t.byte_size);
  }
  std::lock_guard<std::mutex> lk(run_mu_);
  if (m.symbols.empty())
    return MIE_OK; // the shapes are the manifest's, checked above
  Variant *match = nullptr, *generic = nullptr;
  for (const auto &v : variants_) {
    if (v->target->dims == values)
      match = v.get();
    if (v->arena_bytes)
      generic = v.get();
  }
  auto assignment = [&](const std::vector<int64_t> &vals) {
    std::string s;
    for (size_t k = 0; k < vals.size(); ++k)
      s += (k ? ", " : "") + m.symbols[k].name + "=" + std::to_string(vals[k]);
    return s;
  };
  // A specialization for exactly these values wins; else the code for every shape.
  if (!match && generic) {
    mie_status status = bind_generic(generic, values, assignment(values), error);
    if (status == MIE_OK)
      bound_value_bytes_ = std::move(value_bytes);
    return status;
  }
  if (!match) {
    std::string have;
    for (const auto &v : variants_)
      have += (have.empty() ? "{" : "}, {") + assignment(v->target->dims);
    *error = prefix + "target '" + target_->name + "' has no code for " + assignment(values) +
             ": the package was compiled for " + have +
             "} (mie-compile --specialize); --dim-range adds code for every shape in a range";
    return MIE_ERR_UNSUPPORTED;
  }
  if (mie_status status = reserve_arena(match->target->arena_bytes, assignment(values), error))
    return status;
  batch_slice_ = 0;  // a specialization's code takes its own sizes only
  select(match, values);
  bound_value_bytes_ = std::move(value_bytes);
  return MIE_OK;
}

mie_status Session::bind_generic(Variant *generic, const std::vector<int64_t> &values,
                                 const std::string &assignment, std::string *error) {
  const Manifest &m = pkg_->manifest();
  const std::string prefix = "package '" + pkg_->path() + "': ";
  std::vector<std::vector<int64_t>> shapes[2];
  std::vector<uint64_t> bytes[2];
  for (int pass = 0; pass < 2; ++pass) {
    for (const TensorDesc &t : pass ? m.outputs : m.inputs) {
      std::vector<int64_t> shape;
      uint64_t size = 0;
      if (!evaluate_shape(t, values, &shape, &size)) {
        *error = prefix + (pass ? "output '" : "input '") + t.name + "' has no valid shape for " + assignment +
                 " (a dim comes out negative or the tensor exceeds " + std::to_string(MIE_MAX_TENSOR_BYTES) +
                 " bytes)";
        return MIE_ERR_INVALID_ARGUMENT;
      }
      shapes[pass].push_back(std::move(shape));
      bytes[pass].push_back(size);
    }
  }
  const int64_t arena = generic->arena_bytes(values.data());
  if (arena < 0 || uint64_t(arena) > MIE_MAX_ARENA_BYTES) {
    *error = prefix + "target '" + target_->name + "': the code reports an arena of " + std::to_string(arena) +
             " bytes for " + assignment;
    return MIE_ERR_KERNEL;
  }
  uint64_t slice_arena = 0;
  uint32_t workers = 1;
  const int64_t slice = choose_batch_slice(generic, values, arena, &workers, &slice_arena);
  // Concurrent slices each have an arena of their own, at page-aligned offsets.
  const uint64_t stride = (slice_arena + 4095) / 4096 * 4096;
  if (mie_status status = reserve_arena(
          !slice ? uint64_t(arena) : workers > 1 ? stride * workers : slice_arena, assignment, error))
    return status;
  batch_workers_ = slice ? workers : 1;
  slice_arena_stride_ = stride;
  if (slice) {
    // Dim 0 of a tensor that holds the batch is the batch times a factor (the manifest's check):
    // its bytes are whole samples.
    const uint64_t batch = uint64_t(values[size_t(batch_symbol_)]);
    input_sample_bytes_.assign(m.inputs.size(), 0);
    output_sample_bytes_.assign(m.outputs.size(), 0);
    for (size_t i = 0; i < m.inputs.size(); ++i)
      if (input_holds_batch_[i]) input_sample_bytes_[i] = bytes[0][i] / batch;
    for (size_t i = 0; i < m.outputs.size(); ++i)
      if (output_holds_batch_[i]) output_sample_bytes_[i] = bytes[1][i] / batch;
    slice_scratch_.resize(workers);
    for (SliceScratch &scratch : slice_scratch_) {
      scratch.args.resize(args_.size());
      scratch.inputs.resize(m.inputs.size());
      scratch.outputs.resize(m.outputs.size());
      scratch.dims = values;
    }
  }
  batch_slice_ = slice;
  generic->input_shapes = std::move(shapes[0]);
  generic->output_shapes = std::move(shapes[1]);
  generic->input_bytes = std::move(bytes[0]);
  generic->output_bytes = std::move(bytes[1]);
  select(generic, values);
  return MIE_OK;
}

mie_status Session::run_sized(uint32_t num_inputs, const void *const *inputs, const uint64_t *input_bytes,
                              uint32_t num_outputs, void *const *outputs, const uint64_t *output_bytes,
                              std::string *error) {
  const Manifest &m = pkg_->manifest();
  const std::string prefix = "package '" + pkg_->path() + "': ";
  if (num_inputs != m.inputs.size() || num_outputs != m.outputs.size()) {
    *error = prefix + "the model has " + std::to_string(m.inputs.size()) + " input(s) and " +
             std::to_string(m.outputs.size()) + " output(s), the call passes " + std::to_string(num_inputs) +
             " and " + std::to_string(num_outputs);
    return MIE_ERR_INVALID_ARGUMENT;
  }
  if ((num_inputs && !input_bytes) || !output_bytes) {
    *error = prefix + (num_inputs && !input_bytes ? "input" : "output") + " sizes array is NULL";
    return MIE_ERR_INVALID_ARGUMENT;
  }
  if (!bound_)
    return run(inputs, outputs, error); // says what is missing
  auto check = [&](const TensorDesc &t, const std::vector<int64_t> &shape, uint64_t need,
                   uint64_t bytes, const char *kind) {
    if (bytes == need)
      return true;
    *error = prefix + kind + " '" + t.name + "': buffer is " + std::to_string(bytes) +
             " bytes, the model's " + dtype_to_name(t.dtype) + " tensor of shape " +
             shape_text(shape) + " needs " + std::to_string(need);
    return false;
  };
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (!check(m.inputs[i], bound_->input_shapes[i], bound_->input_bytes[i], input_bytes[i],
               "input"))
      return MIE_ERR_INVALID_ARGUMENT;
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (!check(m.outputs[i], bound_->output_shapes[i], bound_->output_bytes[i], output_bytes[i],
               "output"))
      return MIE_ERR_INVALID_ARGUMENT;
  return run(inputs, outputs, error);
}

mie_status Session::run(const void *const *inputs, void *const *outputs, std::string *error) {
  const Manifest &m = pkg_->manifest();
  const std::string prefix = "package '" + pkg_->path() + "': ";
  if (!bound_) {
    std::string names;
    for (const SymbolDesc &sym : m.symbols)
      names += (names.empty() ? "" : ", ") + sym.name;
    *error = prefix + "the model has symbolic dims (" + names +
             "): give the input shapes before a run (mie_session_set_input_shapes, or "
             "mie_session_bind_inputs with their data)";
    return MIE_ERR_INVALID_ARGUMENT;
  }
  // Argument checks first: the generated code trusts every pointer it gets.
  auto check = [&](const TensorDesc &t, uint64_t bytes, const void *p, const char *kind) {
    if (!p && bytes > 0) {
      *error = prefix + kind + " '" + t.name + "': buffer is NULL";
      return false;
    }
    const size_t align = dtype_byte_size(t.dtype);
    if (p && reinterpret_cast<uintptr_t>(p) % align != 0) {
      *error = prefix + kind + " '" + t.name + "': buffer is not aligned to " + std::to_string(align) + " bytes";
      return false;
    }
    return true;
  };
  if (!m.inputs.empty() && !inputs) {
    *error = prefix + "inputs array is NULL but the model has " + std::to_string(m.inputs.size()) + " input(s)";
    return MIE_ERR_INVALID_ARGUMENT;
  }
  if (!outputs) {
    *error = prefix + "outputs array is NULL but the model has " + std::to_string(m.outputs.size()) + " output(s)";
    return MIE_ERR_INVALID_ARGUMENT;
  }
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (!check(m.inputs[i], bound_->input_bytes[i], inputs[i], "input"))
      return MIE_ERR_INVALID_ARGUMENT;
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (!check(m.outputs[i], bound_->output_bytes[i], outputs[i], "output"))
      return MIE_ERR_INVALID_ARGUMENT;
  if (has_value_symbols_)
    if (mie_status status = check_value_symbols(inputs, error))
      return status;

  std::lock_guard<std::mutex> lk(run_mu_);
  if (gpu_) {
    const uint64_t t0 = now_ns();
    std::string gpu_error;
    const mie_status st = gpu_->run(entry_, &env_, inputs, outputs, target_->entry, &gpu_error);
    last_run_ns_.store(now_ns() - t0, std::memory_order_relaxed);
    if (st != MIE_OK) *error = prefix + "target '" + target_->name + "': " + gpu_error;
    return st;
  }
  host_error_.clear();
  const uint64_t t0 = now_ns();
  mie_status status = MIE_OK;
  if (batch_slice_ > 0)
    status = run_slices(inputs, outputs, error);
  else
    status = call_entry(inputs, outputs, dims_.data(), arena_.data(), args_.data(), error);
  last_run_ns_.store(now_ns() - t0, std::memory_order_relaxed);
  ++random_key_[1];
  if (status != MIE_OK)
    return status;
  if (!host_error_.empty()) {  // a host call failed (an image that does not decode, a failed check): the outputs are not valid
    *error = prefix + host_error_;
    return MIE_ERR_KERNEL;
  }
  return finish_dynamic_outputs(outputs, error);
}

mie_status Session::call_entry(const void *const *inputs, void *const *outputs, int64_t *dims,
                               uint8_t *arena, void **args, std::string *error) {
  const Manifest &m = pkg_->manifest();
  size_t k = 0;
  for (size_t i = 0; i < m.inputs.size(); ++i) args[k++] = const_cast<void *>(inputs[i]);
  for (size_t i = 0; i < m.outputs.size(); ++i) args[k++] = outputs[i];
  // Format 3: each output with data-dependent dims has its extent buffer after the outputs.
  for (size_t i = 0, e = 0; i < m.outputs.size(); e += m.outputs[i].dynamic_dims.size(), ++i)
    if (!m.outputs[i].dynamic_dims.empty()) args[k++] = extents_.data() + e;
  args[k++] = arena;
  args[k++] = const_cast<void *>(pkg_->weights(*target_));  // read-only mapping: writes would fault, by design
  args[k++] = random_key_;  // ABI 5: key and run counter; the counter moves on after every run
  args[k++] = dims;  // ABI 7: the symbol values (read by code for every shape only)
  if (poison_ && arena)
    std::memset(arena, 0xFF, size_t(run_arena_bytes_));
  const int32_t rc = entry_(&env_, args);
  if (rc != 0) {
    *error = "package '" + pkg_->path() + "': target '" + target_->name + "': entry '" + target_->entry +
             "' returned " + std::to_string(rc);
    return MIE_ERR_KERNEL;
  }
  return MIE_OK;
}

void Session::decode_image(void *ctx, const uint8_t *encoded, int64_t size, uint8_t *out, int64_t height,
                           int64_t width, int64_t channels, int64_t pixel_format, const char *node) {
  auto *s = static_cast<Session *>(ctx);
  std::string why;
  if (pixel_format < MIE_PIXEL_FORMAT_RGB || pixel_format > MIE_PIXEL_FORMAT_GRAYSCALE)
    why = "unknown pixel format " + std::to_string(pixel_format);
  else
    why = mie::decode_image(encoded, size, static_cast<mie::PixelFormat>(pixel_format), out, height, width, channels);
  if (why.empty()) return;
  std::lock_guard<std::mutex> lock(s->host_mu_);
  if (s->host_error_.empty()) s->host_error_ = "ImageDecoder node '" + std::string(node ? node : "?") + "': " + why;
}

void Session::check_failed(void *ctx, const char *message) {
  auto *s = static_cast<Session *>(ctx);
  std::lock_guard<std::mutex> lock(s->host_mu_);
  if (s->host_error_.empty()) s->host_error_ = message ? message : "a run-time check of the model failed";
}

mie_status Session::finish_dynamic_outputs(void *const *outputs, std::string *error) {
  const Manifest &m = pkg_->manifest();
  for (size_t i = 0, e = 0; i < m.outputs.size(); ++i) {
    const TensorDesc &t = m.outputs[i];
    if (t.dynamic_dims.empty()) continue;
    std::vector<int64_t> &shape = output_shapes_[i];
    shape = t.dims;
    for (uint32_t d : t.dynamic_dims) {
      const int64_t extent = extents_[e++];
      // The code is trusted to stay in its buffers, but a wrong extent would make the runtime read past one.
      if (extent < 0 || extent > t.dims[d]) {
        *error = "package '" + pkg_->path() + "': output '" + t.name + "': the code reported extent " +
                 std::to_string(extent) + " for dim " + std::to_string(d) + " whose bound is " +
                 std::to_string(t.dims[d]);
        shape = t.dims;
        return MIE_ERR_KERNEL;
      }
      shape[d] = extent;
    }
    compact_output(static_cast<uint8_t *>(outputs[i]), dtype_byte_size(t.dtype), t.dims, shape);
  }
  return MIE_OK;
}

}  // namespace mie::rt
