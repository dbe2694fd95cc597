// The device side of a session running a cuda target (docs/package-format.md, "CUDA targets"): the primary
// context of the device, one stream, the arena, the weights (uploaded once), one device buffer per input and
// output, the GPU modules of the host code object, and the mie_gpu_api the host code calls.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../core/manifest.h"
#include "../cpu/code_loader.h"
#include "cuda_driver.h"
#include "cuda_libraries.h"
#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"

namespace mie::rt::cuda {

// Whether a cuda target can run here: its host code is for this CPU, the driver loads, a device exists and is
// new enough. *why says why not ("no CUDA driver (libcuda.so.1: ...)", "no CUDA device", "device sm_80 is
// older than the package's sm_90").
bool target_runnable(const TargetDesc &t, std::string *why);

class CudaSession {
 public:
  // `code` is the target's loaded host code object; `weights` the weights section its code reads (host
  // memory, uploaded here). Errors have no package prefix.
  static mie_status create(const TargetDesc &target, const Manifest &manifest, const LoadedCode &code,
                           const void *weights, uint64_t weights_size, std::unique_ptr<CudaSession> *out,
                           std::string *error);
  ~CudaSession();
  CudaSession(const CudaSession &) = delete;
  CudaSession &operator=(const CudaSession &) = delete;

  // Copies the inputs to the device, calls `entry` with device pointers and env's gpu fields set, copies the
  // outputs back and waits for the stream. Repeated runs replay a CUDA graph of the entry's GPU work
  // (captured on the second run) unless MIE_CUDA_GRAPHS=0. Errors name the CUDA call and its error.
  mie_status run(mie_entry_fn entry, mie_kernel_env *env, const void *const *inputs, void *const *outputs,
                 const std::string &entry_name, std::string *error);
  const Device &device() const { return device_; }
  // The libraries the host code calls, loaded: "cuBLASLt 130000 (libcublasLt.so.13), cuDNN 91900 (...)"; "" when none.
  std::string libraries() const;
  bool graph_ready() const { return graph_exec_ != nullptr; }

 private:
  CudaSession() = default;
  // Records the first failure of a gpu api call during a run (later ones are usually its consequences).
  int32_t fail(const std::string &call, CUresult r);
  bool check(const char *call, CUresult r, std::string *error) const;
  mie_status load_modules(const LoadedCode &code, std::string *error);
  mie_status call_entry(mie_entry_fn entry, mie_kernel_env *env, const std::string &entry_name, std::string *error);
  bool capture_graph(mie_entry_fn entry, mie_kernel_env *env, const std::string &entry_name);

  static void *api_get_function(void *ctx, int32_t module, const char *name);
  static int32_t api_launch(void *ctx, void *function, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                            uint32_t by, uint32_t bz, uint32_t shared_bytes, void **params);
  static int32_t api_memcpy_d2d(void *ctx, void *dst, const void *src, int64_t bytes);
  static int32_t api_memset_d8(void *ctx, void *dst, uint8_t value, int64_t bytes);
  static int32_t api_matmul(void *ctx, const mie_gpu_matmul_desc *desc, const void *a, const void *b,
                            const void *bias, const void *residual, void *d);
  static int32_t api_conv2d(void *ctx, const mie_gpu_conv2d_desc *desc, const void *x, const void *w,
                            const void *bias, const void *residual, void *y);
  // The first failure of a library call (`what`: its error text) of the current run.
  int32_t fail_library(const std::string &what);

  const Driver *d_ = nullptr;
  Device device_;
  CUcontext ctx_ = nullptr;  // the device's primary context, retained
  CUstream stream_ = nullptr;
  std::vector<CUdeviceptr> allocations_;  // freed on destruction
  CUdeviceptr arena_ = 0, weights_ = 0;
  std::vector<CUdeviceptr> inputs_, outputs_;
  std::vector<uint64_t> input_bytes_, output_bytes_;
  std::vector<CUmodule> modules_;
  std::vector<std::map<std::string, CUfunction, std::less<>>> functions_;  // per module, filled on demand
  std::vector<void *> args_;  // the entry's arguments: device pointers
  mie_gpu_api api_{};
  std::unique_ptr<LibraryCalls> libraries_;  // when the host code calls cuBLASLt or cuDNN
  std::string run_error_;  // the first failed api call of the current run
  // CUDA graph of the entry's GPU work: captured on the second run (the first one loads and checks).
  bool graphs_enabled_ = true;
  uint64_t runs_ = 0;
  CUgraph graph_ = nullptr;
  CUgraphExec graph_exec_ = nullptr;
};

}  // namespace mie::rt::cuda
