// A session: one package target loaded and ready to run, with its arena and thread pool.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../cpu/code_loader.h"
#include "../cuda/cuda_session.h"
#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"
#include "package.h"
#include "target_backends.h"
#include "thread_pool.h"

namespace mie::rt {

class Session {
 public:
  static mie_status create(std::shared_ptr<const Package> pkg, const mie_session_options *options,
                           std::unique_ptr<Session> *out, std::string *error);
  // A session of `target`, chosen by create.
  static mie_status create_for(std::shared_ptr<const Package> pkg, const TargetDesc *target,
                               const mie_session_options *options, std::unique_ptr<Session> *out,
                               std::string *error);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  // Binds the shapes of the next runs' inputs (input i is ranks[i] dims at dims[i]): required for a
  // package with symbolic dims, whose code for those shapes it picks; for other packages the shapes
  // must be the manifest's. Errors name the input, the dim and the symbol; a failed bind keeps the
  // previous one.
  mie_status set_input_shapes(uint32_t num_inputs, const uint32_t *ranks,
                              const int64_t *const *dims, std::string *error) {
    return bind_inputs(num_inputs, ranks, dims, nullptr, error);
  }
  // set_input_shapes with the inputs' data too (`data` may be NULL, or hold NULL for an input):
  // a package with value symbols (an input's element that sizes the model's tensors, a Reshape's
  // shape given as a graph input) binds them from the data of their inputs. Runs check that those
  // elements still hold the bound values.
  mie_status bind_inputs(uint32_t num_inputs, const uint32_t *ranks, const int64_t *const *dims,
                         const void *const *data, std::string *error);
  // The bound shape of input `index` (the manifest's for a package without symbols; before a bind,
  // the manifest's dims with -1 where symbolic).
  const std::vector<int64_t> &input_shape(size_t index) const { return input_shapes_[index]; }
  // The bound value of each symbol (empty before a bind and in packages without symbols).
  const std::vector<int64_t> &symbol_values() const { return dims_; }
  size_t num_inputs() const { return input_shapes_.size(); }
  mie_status run(const void *const *inputs, void *const *outputs, std::string *error);
  // run() after checking the caller's counts and buffer sizes against the manifest.
  mie_status run_sized(uint32_t num_inputs, const void *const *inputs, const uint64_t *input_bytes,
                       uint32_t num_outputs, void *const *outputs, const uint64_t *output_bytes, std::string *error);
  mie_status set_threads(uint32_t num_threads, std::string *error);
  // Installs (or, with a NULL hook, removes) the profile hook the generated code calls around each
  // kernel; MIE_ERR_UNSUPPORTED for code built before ABI 2, which has no hook calls.
  mie_status set_profiler(mie_profile_fn hook, void *ctx, std::string *error);
  // Debug mode checking memory planning: every run starts with the arena filled with NaN (all bytes
  // 0xFF), and after each kernel the bytes of the buffers it used for the last time are filled again,
  // so that a kernel reading a buffer the plan thinks dead reads NaN. MIE_ERR_UNSUPPORTED for code
  // built before ABI 2 (no hooks) or packages without the kernels' dead ranges.
  mie_status set_poison_dead_buffers(bool enable, std::string *error);
  uint32_t num_threads() const { return env_.num_threads; }
  // The target whose code runs: in a package with symbols, the specialization of the bound shapes
  // (the first one before any bind).
  const TargetDesc &target() const { return *target_; }
  uint64_t arena_capacity() const { return arena_bytes_; }
  /// The arena bytes the next run uses (its bound shapes'; at most arena_capacity()).
  uint64_t run_arena_bytes() const { return run_arena_bytes_; }
  const cuda::CudaSession *gpu() const { return gpu_.get(); }
  const std::string &device() const { return device_; }  // "cpu" or the CUDA device (mie_session_device)
  // Restarts the random numbers of the code (docs/random.md): key `seed`, run counter 0.
  void set_random_seed(uint64_t seed) {
    std::lock_guard<std::mutex> lock(run_mu_);
    random_key_[0] = seed;
    random_key_[1] = 0;
  }
  uint64_t last_run_ns() const { return last_run_ns_.load(std::memory_order_relaxed); }
  // Batch slices (docs/dynamic-shapes.md, "Batch slices"), for packages whose manifest marks a
  // batch symbol: `slice` -1 lets the runtime choose for each bind (the default, or what
  // MIE_BATCH_SLICE says: "auto", "off" or a number), 0 runs every batch whole, N > 0 runs a
  // batch of more than N samples as runs over slices of at most N. Applies to the bound shapes
  // at once.
  mie_status set_batch_slice(int64_t slice, std::string *error);
  // The samples per slice the bound shapes run in: 0 when a run takes the batch whole.
  int64_t batch_slice() const { return batch_slice_; }
  // The shape of output `index` after the last successful run: the manifest's shape with each
  // data-dependent dim replaced by the extent the code reported (the manifest's shape before any
  // run). In a package with symbolic dims: the shapes the bound input shapes give (before a bind,
  // the manifest's dims with -1 where symbolic).
  const std::vector<int64_t> &output_shape(size_t index) const { return output_shapes_[index]; }
  size_t num_outputs() const { return output_shapes_.size(); }

 private:
  Session() = default;
  // One code object of the session's target: the only one in a package without symbols, else one
  // per specialization (the manifest's targets of that name), with its tensors' shapes and sizes.
  struct Variant {
    const TargetDesc *target = nullptr;
    LoadedCode code;
    mie_entry_fn entry = nullptr;
    // Code for every shape (a target without dims in a package with symbols, kernel ABI 7): it
    // takes the symbol values and sizes each run's arena; the shapes below are the bound run's.
    mie_arena_bytes_fn arena_bytes = nullptr;
    std::vector<std::vector<int64_t>> input_shapes, output_shapes;
    std::vector<uint64_t> input_bytes, output_bytes;
  };
  mie_status load_variant(const TargetDesc *target, std::unique_ptr<Variant> *out,
                          std::string *error);
  // Runs of the shapes `values` gives the symbols (none without symbols) use `v`.
  void select(Variant *v, const std::vector<int64_t> &values);
  // Grows the arena to `bytes` where it is smaller (`what` names the shapes in the error) and
  // records that the bound code uses that much of it.
  mie_status reserve_arena(uint64_t bytes, const std::string &what, std::string *error);
  // Binds the code for every shape to the symbols' `values`: the tensors' shapes and the arena.
  mie_status bind_generic(Variant *generic, const std::vector<int64_t> &values, const std::string &assignment,
                          std::string *error);
  // The slice a run of `generic` for `values` (whose code reports `whole` arena bytes) takes its
  // batch in (0: whole), the slices run at once in *workers (each on one thread, with its own
  // arena) and one slice's arena bytes in *slice_arena (batch_slices.cpp).
  int64_t choose_batch_slice(Variant *generic, const std::vector<int64_t> &values, int64_t whole,
                             uint32_t *workers, uint64_t *slice_arena) const;
  // Binds the bound code for every shape again (its batch slices follow the settings and the
  // threads); run_mu_ held. MIE_OK where nothing is bound.
  mie_status replan_batch_slices(std::string *error);
  // Runs the bound batch in slices of batch_slice_ samples (batch_slices.cpp).
  mie_status run_slices(const void *const *inputs, void *const *outputs, std::string *error);
  // Calls the bound entry on `inputs` and `outputs` with the symbols' values `dims`, `arena` and
  // `args` (the entry's argument array, one per concurrent call).
  mie_status call_entry(const void *const *inputs, void *const *outputs, int64_t *dims, uint8_t *arena,
                        void **args, std::string *error);
  // MIE_BATCH_SLICE: "auto" or unset -1, "off" 0, a number that number.
  static int64_t batch_slice_from_environment();
  int batch_symbol_ = -1;  // the manifest's batch symbol, -1 for none
  int64_t batch_slice_setting_ = -1, batch_slice_ = 0;
  uint32_t batch_workers_ = 1;      // slices run at once (one thread each) when more than 1
  uint64_t slice_arena_stride_ = 0;  // bytes between the concurrent slices' arenas
  // Per input and output: whether it holds the batch (in dim 0: the manifest's check), and the
  // bound shapes' bytes of one sample of it (0 for an input free of it).
  std::vector<bool> input_holds_batch_, output_holds_batch_;
  std::vector<uint64_t> input_sample_bytes_, output_sample_bytes_;
  // One per concurrent slice, sized at the bind so that a run allocates nothing: the entry's
  // argument array, the slice's inputs, outputs and symbol values.
  struct SliceScratch {
    std::vector<void *> args;
    std::vector<const void *> inputs;
    std::vector<void *> outputs;
    std::vector<int64_t> dims;
  };
  std::vector<SliceScratch> slice_scratch_;
  std::shared_ptr<const Package> pkg_;
  std::vector<std::unique_ptr<Variant>> variants_;
  // The variant of the bound input shapes; null before a bind in a symbolic package.
  Variant *bound_ = nullptr;
  const TargetDesc *target_ = nullptr;  // bound_'s target, or the first variant's
  mie_entry_fn entry_ = nullptr;
  // The arena's capacity: it grows to the largest run so far, and what the bound shapes use of it
  // (poisoning fills that much).
  uint64_t arena_bytes_ = 0, run_arena_bytes_ = 0;
  std::vector<int64_t> dims_;  // the bound symbol values: the last slot of args (kernel ABI 7)
  // Value symbol `s` for its input's `data`: the element, or a Reshape's dim resolved from all of
  // them against the reshaped dims in `values` (the symbols inputs' dims bind).
  mie_status value_symbol(size_t s, const void *data, const std::vector<int64_t> &values,
                          int64_t *out, std::string *error) const;
  // Checks that the value symbols' elements of a run's `inputs` hold the bound values.
  mie_status check_value_symbols(const void *const *inputs, std::string *error) const;
  bool has_value_symbols_ = false;
  // Per input, the bytes the last bind read its value symbols from (empty for other inputs).
  std::vector<std::vector<uint8_t>> bound_value_bytes_;
  std::vector<std::vector<int64_t>> input_shapes_;
  std::unique_ptr<cuda::CudaSession> gpu_;  // cuda targets: the device side (arena, weights, stream, modules)
  std::string device_ = "cpu";  // "cpu; cuda target 'x' did not start: ..." after a fallback (create)
  HugePageBuffer arena_;  // NULL data when the target needs no arena
  std::unique_ptr<ThreadPool> pool_;
  mie_kernel_env env_{};
  // The generated code calls env_.profile; it is dispatch() whenever a user profiler or poisoning is on.
  static void dispatch(void *ctx, int32_t kernel, int32_t phase);
  // mie_host_api::decode_image (ABI 6): records the first failure of a run in host_error_.
  static void decode_image(void *ctx, const uint8_t *encoded, int64_t size, uint8_t *out, int64_t height,
                           int64_t width, int64_t channels, int64_t pixel_format, const char *node);
  // mie_host_api::check_failed (ABI 8): records the first failed check of a run (ms.check) in host_error_.
  static void check_failed(void *ctx, const char *message);
  void install_hook();
  mie_profile_fn user_profile_ = nullptr;
  void *user_profile_ctx_ = nullptr;
  bool poison_ = false;
  // Reads the extents the code wrote, checks them against the bounds and moves each data-dependent output
  // to the dense layout of its real shape.
  mie_status finish_dynamic_outputs(void *const *outputs, std::string *error);
  std::vector<void *> args_;  // reused by every run: no allocation on the run path
  uint64_t random_key_[2] = {0, 0};  // the random key slot of args_ (ABI 5): Philox key, runs so far
  std::mutex host_mu_;
  std::string host_error_;  // the first failed host call of the current run (ABI 6), "" when none
  std::vector<int64_t> extents_;  // one per data-dependent dim of the outputs, in output order
  std::vector<std::vector<int64_t>> output_shapes_;
  std::mutex run_mu_;
  std::atomic<uint64_t> last_run_ns_{0};  // read by mie_session_last_run_ns without the run lock
};

}  // namespace mie::rt
