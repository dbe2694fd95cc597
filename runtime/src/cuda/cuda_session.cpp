#include "cuda_session.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "../cpu/host_cpu.h"

namespace mie::rt::cuda {
namespace {

// Makes the session's context current on the calling thread for the scope (sessions may be created, run
// and destroyed on different threads, and the host application may use contexts of its own).
class ContextScope {
 public:
  ContextScope(const Driver *d, CUcontext ctx) : d_(d), ok_(ctx && d->cuCtxPushCurrent(ctx) == CUDA_SUCCESS) {}
  ~ContextScope() {
    CUcontext popped;
    if (ok_) d_->cuCtxPopCurrent(&popped);
  }
  bool ok() const { return ok_; }

 private:
  const Driver *d_;
  bool ok_;
};

std::string sm_name(int sm) { return "sm_" + std::to_string(sm); }

bool graphs_enabled_by_env() {
  const char *env = std::getenv("MIE_CUDA_GRAPHS");
  return !(env && std::strcmp(env, "0") == 0);
}

}  // namespace

bool target_runnable(const TargetDesc &t, std::string *why) {
  if (t.host_arch != host_arch()) {
    *why = "host code built for " + t.host_arch + " but this host is " + host_arch();
    return false;
  }
  // The contract between compiler and runtime spells the host code object's format "elf"; the writer's
  // default, shared with cpu targets, is "elf-shared-object". Both name the same thing.
  if (t.format != "elf-shared-object" && t.format != "elf") {
    *why = "unsupported code format '" + t.format + "' (expected elf-shared-object)";
    return false;
  }
  if (t.abi_version < 4 || t.abi_version > MIE_KERNEL_ABI_VERSION) {
    *why = "kernel ABI version " + std::to_string(t.abi_version) + " is not supported for cuda targets (this runtime runs 4" +
           (MIE_KERNEL_ABI_VERSION > 4 ? " to " + std::to_string(MIE_KERNEL_ABI_VERSION) : std::string()) + ")";
    return false;
  }
  const Driver *d = load_driver(why);
  if (!d) return false;
  Device dev;
  if (!find_device(*d, &dev, why)) return false;
  if (dev.sm < t.sm) {
    *why = "device " + sm_name(dev.sm) + " is older than the package's " + t.arch;
    return false;
  }
  if (t.sm_exact && dev.sm != t.sm) {
    *why = "device " + sm_name(dev.sm) + " cannot run code for exactly " + t.arch;
    return false;
  }
  return true;
}

bool CudaSession::check(const char *call, CUresult r, std::string *error) const {
  if (r == CUDA_SUCCESS) return true;
  *error = std::string(call) + ": " + d_->error_text(r);
  return false;
}

int32_t CudaSession::fail(const std::string &call, CUresult r) {
  if (run_error_.empty()) run_error_ = call + ": " + d_->error_text(r);
  return int32_t(r == CUDA_SUCCESS ? CUDA_ERROR_INVALID_VALUE : r);
}

mie_status CudaSession::create(const TargetDesc &target, const Manifest &m, const LoadedCode &code,
                               const void *weights, uint64_t weights_size, std::unique_ptr<CudaSession> *out,
                               std::string *error) {
  std::string why;
  const Driver *d = load_driver(&why);
  std::unique_ptr<CudaSession> s(new CudaSession());
  if (!d || !find_device(*d, &s->device_, &why)) {
    *error = why;
    return MIE_ERR_UNSUPPORTED;
  }
  s->d_ = d;
  s->graphs_enabled_ = graphs_enabled_by_env();
  if (!s->check("cuDevicePrimaryCtxRetain", d->cuDevicePrimaryCtxRetain(&s->ctx_, s->device_.device), error)) {
    s->ctx_ = nullptr;
    return MIE_ERR_UNSUPPORTED;
  }
  ContextScope scope(d, s->ctx_);
  if (!scope.ok()) {
    *error = "cuCtxPushCurrent: cannot make the device's context current";
    return MIE_ERR_UNSUPPORTED;
  }
  if (!s->check("cuStreamCreate", d->cuStreamCreate(&s->stream_, CU_STREAM_NON_BLOCKING), error)) {
    s->stream_ = nullptr;
    return MIE_ERR_UNSUPPORTED;
  }
  // Modules first: a package whose GPU code this device cannot run fails before memory is spent on it.
  if (mie_status st = s->load_modules(code, error); st != MIE_OK) return st;
  // The libraries the host code calls (gpu api 2), loaded now so that a missing one fails the session, not a run.
  size_t libraries_bytes = 0;
  if (const void *sym = code.symbol(MIE_GPU_LIBRARIES_SYMBOL, &libraries_bytes)) {
    int64_t libraries = 0;
    std::memcpy(&libraries, sym, sizeof libraries);
    if (libraries & ~int64_t(MIE_GPU_LIBRARY_CUBLASLT | MIE_GPU_LIBRARY_CUDNN)) {
      *error = "the host code calls GPU libraries this runtime does not know (" MIE_GPU_LIBRARIES_SYMBOL " = " +
               std::to_string(libraries) + ")";
      return MIE_ERR_UNSUPPORTED;
    }
    if (libraries && !LibraryCalls::create(d, libraries, s->stream_, &s->libraries_, error)) {
      *error = "its host code calls " +
               std::string(libraries & MIE_GPU_LIBRARY_CUBLASLT ? "cuBLASLt" : "") +
               (libraries == (MIE_GPU_LIBRARY_CUBLASLT | MIE_GPU_LIBRARY_CUDNN) ? " and " : "") +
               (libraries & MIE_GPU_LIBRARY_CUDNN ? "cuDNN" : "") + ": " + *error;
      return MIE_ERR_UNSUPPORTED;
    }
  }

  auto alloc = [&](uint64_t bytes, const std::string &what, CUdeviceptr *p) {
    *p = 0;
    if (bytes == 0) return true;  // NULL, as on the cpu side: nothing may be read or written there
    CUresult r = d->cuMemAlloc(p, size_t(bytes));
    if (r != CUDA_SUCCESS) {
      *error = "cannot allocate " + std::to_string(bytes) + " bytes of device memory for " + what + ": cuMemAlloc: " +
               d->error_text(r);
      *p = 0;
      return false;
    }
    s->allocations_.push_back(*p);
    return true;
  };
  if (!alloc(target.arena_bytes, "the arena of target '" + target.name + "'", &s->arena_) ||
      !alloc(weights_size, "the weights", &s->weights_))
    return MIE_ERR_OUT_OF_MEMORY;
  for (const auto &t : m.inputs) {
    s->inputs_.push_back(0);
    s->input_bytes_.push_back(t.byte_size);
    if (!alloc(t.byte_size, "input '" + t.name + "'", &s->inputs_.back())) return MIE_ERR_OUT_OF_MEMORY;
  }
  for (const auto &t : m.outputs) {
    s->outputs_.push_back(0);
    s->output_bytes_.push_back(t.byte_size);
    if (!alloc(t.byte_size, "output '" + t.name + "'", &s->outputs_.back())) return MIE_ERR_OUT_OF_MEMORY;
  }
  // The weights once, for every run of the session.
  if (weights_size > 0 &&
      (!s->check("cuMemcpyHtoDAsync (weights)", d->cuMemcpyHtoDAsync(s->weights_, weights, size_t(weights_size), s->stream_), error) ||
       !s->check("cuStreamSynchronize", d->cuStreamSynchronize(s->stream_), error)))
    return MIE_ERR_KERNEL;

  for (CUdeviceptr p : s->inputs_) s->args_.push_back(reinterpret_cast<void *>(uintptr_t(p)));
  for (CUdeviceptr p : s->outputs_) s->args_.push_back(reinterpret_cast<void *>(uintptr_t(p)));
  s->args_.push_back(reinterpret_cast<void *>(uintptr_t(s->arena_)));
  s->args_.push_back(reinterpret_cast<void *>(uintptr_t(s->weights_)));
  s->api_.version = MIE_GPU_API_VERSION;
  s->api_.get_function = &CudaSession::api_get_function;
  s->api_.launch = &CudaSession::api_launch;
  s->api_.memcpy_d2d = &CudaSession::api_memcpy_d2d;
  s->api_.memset_d8 = &CudaSession::api_memset_d8;
  s->api_.matmul = &CudaSession::api_matmul;
  s->api_.conv2d = &CudaSession::api_conv2d;
  *out = std::move(s);
  return MIE_OK;
}

mie_status CudaSession::load_modules(const LoadedCode &code, std::string *error) {
  size_t bytes = 0;
  const void *sym = code.symbol(MIE_GPU_MODULES_SYMBOL, &bytes);
  if (!sym) {
    *error = std::string("the host code object exports no GPU module table '") + MIE_GPU_MODULES_SYMBOL + "'";
    return MIE_ERR_INVALID_PACKAGE;
  }
  // Read through memcpy at the contract's offsets: magic @0, count @8, then 24-byte entries
  // {image @0, size @8, format @16, reserved @20}. The symbol's ELF size bounds what is read.
  const uint8_t *p = static_cast<const uint8_t *>(sym);
  static_assert(sizeof(mie_gpu_module) == 24 && sizeof(void *) == 8, "mie_gpu_module layout (LP64)");
  int64_t magic = 0, count = 0;
  if (bytes != 0 && bytes < 16) {
    *error = std::string("the GPU module table '") + MIE_GPU_MODULES_SYMBOL + "' is " + std::to_string(bytes) +
             " bytes, too small for its header";
    return MIE_ERR_INVALID_PACKAGE;
  }
  std::memcpy(&magic, p, 8);
  std::memcpy(&count, p + 8, 8);
  if (magic != MIE_GPU_MODULES_MAGIC) {
    *error = std::string("the GPU module table '") + MIE_GPU_MODULES_SYMBOL + "' is not one this runtime reads (bad magic)";
    return MIE_ERR_INVALID_PACKAGE;
  }
  // Where the dynamic linker cannot say how large the symbol is, only a sane count is believed.
  const uint64_t room = bytes ? (bytes - 16) / sizeof(mie_gpu_module) : 4096;
  if (count < 0 || uint64_t(count) > room) {
    *error = "the GPU module table declares " + std::to_string(count) + " modules but holds room for " +
             std::to_string(room);
    return MIE_ERR_INVALID_PACKAGE;
  }
  for (int64_t i = 0; i < count; ++i) {
    mie_gpu_module mod;
    std::memcpy(&mod, p + 16 + size_t(i) * sizeof(mie_gpu_module), sizeof mod);
    const std::string what = "GPU module " + std::to_string(i);
    const uint8_t *image = static_cast<const uint8_t *>(mod.image);
    if (!image || mod.size <= 0) {
      *error = what + " is empty";
      return MIE_ERR_INVALID_PACKAGE;
    }
    if (mod.format == MIE_GPU_MODULE_PTX) {
      if (image[mod.size - 1] != 0) {
        *error = what + ": PTX text is not NUL-terminated within its " + std::to_string(mod.size) + " bytes";
        return MIE_ERR_INVALID_PACKAGE;
      }
    } else if (mod.format == MIE_GPU_MODULE_CUBIN) {
      if (mod.size < 4 || std::memcmp(image, "\177ELF", 4) != 0) {
        *error = what + ": cubin is not an ELF image";
        return MIE_ERR_INVALID_PACKAGE;
      }
    } else {
      *error = what + ": unknown format " + std::to_string(mod.format) + " (0 = cubin, 1 = PTX)";
      return MIE_ERR_INVALID_PACKAGE;
    }
    // The JIT's own log says what is wrong with PTX this driver cannot compile.
    char log[4096] = {};
    int options[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[2] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log - 1))};
    CUmodule module = nullptr;
    CUresult r = d_->cuModuleLoadDataEx(&module, image, 2, options, values);
    if (r != CUDA_SUCCESS) {
      *error = "cannot load " + what + " (" + (mod.format == MIE_GPU_MODULE_PTX ? "PTX" : "cubin") + ") on " +
               device_.name + " (" + sm_name(device_.sm) + "): cuModuleLoadDataEx: " + d_->error_text(r);
      if (log[0]) *error += ": " + std::string(log);
      return MIE_ERR_LOAD;
    }
    modules_.push_back(module);
  }
  functions_.resize(modules_.size());
  return MIE_OK;
}

CudaSession::~CudaSession() {
  if (!ctx_) return;
  {
    ContextScope scope(d_, ctx_);
    if (scope.ok()) {
      if (stream_) d_->cuStreamSynchronize(stream_);
      if (graph_exec_) d_->cuGraphExecDestroy(graph_exec_);
      if (graph_) d_->cuGraphDestroy(graph_);
      libraries_.reset();
      for (CUdeviceptr p : allocations_) d_->cuMemFree(p);
      for (CUmodule m : modules_) d_->cuModuleUnload(m);
      if (stream_) d_->cuStreamDestroy(stream_);
    }
  }
  d_->cuDevicePrimaryCtxRelease(device_.device);
}

void *CudaSession::api_get_function(void *ctx, int32_t module, const char *name) {
  auto *s = static_cast<CudaSession *>(ctx);
  if (module < 0 || size_t(module) >= s->modules_.size() || !name) {
    if (s->run_error_.empty())
      s->run_error_ = "get_function: module " + std::to_string(module) + " does not exist (the code object has " +
                      std::to_string(s->modules_.size()) + ")";
    return nullptr;
  }
  auto &cache = s->functions_[size_t(module)];
  auto it = cache.find(std::string_view(name));
  if (it != cache.end()) return it->second;
  CUfunction f = nullptr;
  CUresult r = s->d_->cuModuleGetFunction(&f, s->modules_[size_t(module)], name);
  if (r != CUDA_SUCCESS) {
    s->fail("cuModuleGetFunction(module " + std::to_string(module) + ", '" + name + "')", r);
    return nullptr;
  }
  cache.emplace(name, f);
  return f;
}

int32_t CudaSession::api_launch(void *ctx, void *function, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                                uint32_t by, uint32_t bz, uint32_t shared_bytes, void **params) {
  auto *s = static_cast<CudaSession *>(ctx);
  if (!function) return s->fail("launch: the function is NULL", CUDA_ERROR_INVALID_VALUE);
  CUresult r = s->d_->cuLaunchKernel(static_cast<CUfunction>(function), gx, gy, gz, bx, by, bz, shared_bytes,
                                     s->stream_, params, nullptr);
  return r == CUDA_SUCCESS ? 0 : s->fail("cuLaunchKernel", r);
}

int32_t CudaSession::api_memcpy_d2d(void *ctx, void *dst, const void *src, int64_t bytes) {
  auto *s = static_cast<CudaSession *>(ctx);
  if (bytes < 0) return s->fail("memcpy_d2d: negative size " + std::to_string(bytes), CUDA_ERROR_INVALID_VALUE);
  if (bytes == 0) return 0;
  CUresult r = s->d_->cuMemcpyDtoDAsync(CUdeviceptr(uintptr_t(dst)), CUdeviceptr(uintptr_t(src)), size_t(bytes), s->stream_);
  return r == CUDA_SUCCESS ? 0 : s->fail("cuMemcpyDtoDAsync", r);
}

int32_t CudaSession::api_memset_d8(void *ctx, void *dst, uint8_t value, int64_t bytes) {
  auto *s = static_cast<CudaSession *>(ctx);
  if (bytes < 0) return s->fail("memset_d8: negative size " + std::to_string(bytes), CUDA_ERROR_INVALID_VALUE);
  if (bytes == 0) return 0;
  CUresult r = s->d_->cuMemsetD8Async(CUdeviceptr(uintptr_t(dst)), value, size_t(bytes), s->stream_);
  return r == CUDA_SUCCESS ? 0 : s->fail("cuMemsetD8Async", r);
}

int32_t CudaSession::fail_library(const std::string &what) {
  if (run_error_.empty()) run_error_ = what;
  return int32_t(CUDA_ERROR_INVALID_VALUE);
}

int32_t CudaSession::api_matmul(void *ctx, const mie_gpu_matmul_desc *desc, const void *a, const void *b,
                                const void *bias, const void *residual, void *d) {
  auto *s = static_cast<CudaSession *>(ctx);
  if (!s->libraries_) return s->fail_library("matmul: the host code did not declare that it calls cuBLASLt (" MIE_GPU_LIBRARIES_SYMBOL ")");
  if (!desc) return s->fail_library("matmul: the descriptor is NULL");
  const std::string e = s->libraries_->matmul(*desc, a, b, bias, residual, d);
  return e.empty() ? 0 : s->fail_library(e);
}

int32_t CudaSession::api_conv2d(void *ctx, const mie_gpu_conv2d_desc *desc, const void *x, const void *w,
                                const void *bias, const void *residual, void *y) {
  auto *s = static_cast<CudaSession *>(ctx);
  if (!s->libraries_) return s->fail_library("conv2d: the host code did not declare that it calls cuDNN (" MIE_GPU_LIBRARIES_SYMBOL ")");
  if (!desc) return s->fail_library("conv2d: the descriptor is NULL");
  const std::string e = s->libraries_->conv2d(*desc, x, w, bias, residual, y);
  return e.empty() ? 0 : s->fail_library(e);
}

std::string CudaSession::libraries() const {
  if (!libraries_) return "";
  std::string out;
  if (const CublasLt *lt = libraries_->cublaslt()) out = "cuBLASLt " + std::to_string(lt->version) + " (" + lt->path + ")";
  if (const Cudnn *dnn = libraries_->cudnn())
    out += (out.empty() ? "" : ", ") + ("cuDNN " + std::to_string(dnn->version) + " (" + dnn->path + ")");
  return out;
}

mie_status CudaSession::call_entry(mie_entry_fn entry, mie_kernel_env *env, const std::string &entry_name,
                                   std::string *error) {
  const int32_t rc = entry(env, args_.data());
  if (rc != 0) {
    *error = "entry '" + entry_name + "' returned " + std::to_string(rc);
    if (!run_error_.empty()) *error += ": " + run_error_;
    return MIE_ERR_KERNEL;
  }
  return MIE_OK;
}

// Records the entry's GPU work into a graph and instantiates it. false when the work could not be captured
// for any reason, a failure of the entry under capture included (the caller then runs the entry directly,
// now and from then on, so a call that fails only under capture costs the graph, not the run, and a real
// failure is reported by the direct call).
bool CudaSession::capture_graph(mie_entry_fn entry, mie_kernel_env *env, const std::string &entry_name) {
  // Thread-local mode: only this thread's calls are refused while capturing, other sessions keep running.
  if (d_->cuStreamBeginCapture(stream_, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) != CUDA_SUCCESS) return false;
  std::string ignored;
  const mie_status status = call_entry(entry, env, entry_name, &ignored);
  CUgraph graph = nullptr;
  const CUresult end = d_->cuStreamEndCapture(stream_, &graph);
  run_error_.clear();
  if (status != MIE_OK || end != CUDA_SUCCESS || !graph) {
    if (graph) d_->cuGraphDestroy(graph);
    return false;
  }
  CUgraphExec exec = nullptr;
  if (d_->cuGraphInstantiateWithFlags(&exec, graph, 0) != CUDA_SUCCESS || !exec) {
    d_->cuGraphDestroy(graph);
    return false;
  }
  graph_ = graph;
  graph_exec_ = exec;
  return true;
}

mie_status CudaSession::run(mie_entry_fn entry, mie_kernel_env *env, const void *const *inputs,
                            void *const *outputs, const std::string &entry_name, std::string *error) {
  ContextScope scope(d_, ctx_);
  if (!scope.ok()) {
    *error = "cuCtxPushCurrent: cannot make the device's context current";
    return MIE_ERR_KERNEL;
  }
  run_error_.clear();
  env->gpu_ctx = this;
  env->gpu = &api_;
  // On any failure nothing queued may still read or write the caller's buffers once the caller sees it.
  auto bail = [&](mie_status st) {
    d_->cuStreamSynchronize(stream_);
    return st;
  };
  for (size_t i = 0; i < inputs_.size(); ++i)
    if (input_bytes_[i] &&
        !check("cuMemcpyHtoDAsync", d_->cuMemcpyHtoDAsync(inputs_[i], inputs[i], size_t(input_bytes_[i]), stream_), error))
      return bail(MIE_ERR_KERNEL);

  // Captured work is recorded, not run: the graph is launched right below. A capture that fails turns
  // graphs off for the session.
  if (!graph_exec_ && graphs_enabled_ && runs_ > 0 && !capture_graph(entry, env, entry_name))
    graphs_enabled_ = false;
  if (graph_exec_) {
    if (!check("cuGraphLaunch", d_->cuGraphLaunch(graph_exec_, stream_), error)) return bail(MIE_ERR_KERNEL);
  } else if (mie_status status = call_entry(entry, env, entry_name, error); status != MIE_OK) {
    return bail(status);
  }
  for (size_t i = 0; i < outputs_.size(); ++i)
    if (output_bytes_[i] &&
        !check("cuMemcpyDtoHAsync", d_->cuMemcpyDtoHAsync(outputs[i], outputs_[i], size_t(output_bytes_[i]), stream_), error))
      return bail(MIE_ERR_KERNEL);
  // Errors of the kernels themselves (an illegal address, a trap) surface here.
  if (!check("cuStreamSynchronize", d_->cuStreamSynchronize(stream_), error)) return MIE_ERR_KERNEL;
  ++runs_;
  return MIE_OK;
}

}  // namespace mie::rt::cuda
