// The CUDA driver API, reached through dlopen: the runtime has no link-time dependency on CUDA, so one build
// runs on machines with and without a GPU (and builds without the toolkit). The few types and constants used
// are declared here with the values of CUDA's cuda.h (test_cuda_abi.cpp checks them against the real header
// where the toolkit is installed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

// The handle types are the global incomplete structs of cuda.h, so that declarations agree where both are seen.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUgraph_st;
struct CUgraphExec_st;

namespace mie::rt::cuda {

using CUresult = int;  // cuda.h's enum cudaError_enum, int-sized
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = ::CUctx_st *;
using CUmodule = ::CUmod_st *;
using CUfunction = ::CUfunc_st *;
using CUstream = ::CUstream_st *;
using CUgraph = ::CUgraph_st *;
using CUgraphExec = ::CUgraphExec_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

// Every driver function the runtime calls: X(name, symbol, return, arguments). `symbol` is the versioned
// name cuda.h maps `name` to (cuMemAlloc -> cuMemAlloc_v2); the legacy default-stream variants are used
// where cuda.h has both, which is what a program compiled without per-thread default streams calls.
#define MIE_CUDA_DRIVER_FUNCTIONS(X)                                                                           \
  X(cuInit, "cuInit", CUresult, (unsigned flags))                                                              \
  X(cuDriverGetVersion, "cuDriverGetVersion", CUresult, (int *version))                                        \
  X(cuGetErrorName, "cuGetErrorName", CUresult, (CUresult error, const char **name))                           \
  X(cuGetErrorString, "cuGetErrorString", CUresult, (CUresult error, const char **text))                       \
  X(cuDeviceGetCount, "cuDeviceGetCount", CUresult, (int *count))                                              \
  X(cuDeviceGet, "cuDeviceGet", CUresult, (CUdevice * device, int ordinal))                                    \
  X(cuDeviceGetName, "cuDeviceGetName", CUresult, (char *name, int len, CUdevice device))                      \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult, (int *value, int attribute, CUdevice device))      \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult, (CUcontext * ctx, CUdevice device))        \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", CUresult, (CUdevice device))                    \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", CUresult, (CUcontext ctx))                                        \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", CUresult, (CUcontext * ctx))                                        \
  X(cuStreamCreate, "cuStreamCreate", CUresult, (CUstream * stream, unsigned flags))                           \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult, (CUstream stream))                                        \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream stream))                                   \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr * ptr, size_t bytes))                                  \
  X(cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr ptr))                                                    \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", CUresult,                                                       \
    (CUdeviceptr dst, const void *src, size_t bytes, CUstream stream))                                         \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", CUresult,                                                       \
    (void *dst, CUdeviceptr src, size_t bytes, CUstream stream))                                               \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", CUresult,                                                       \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))                                         \
  X(cuMemsetD8Async, "cuMemsetD8Async", CUresult,                                                              \
    (CUdeviceptr dst, unsigned char value, size_t bytes, CUstream stream))                                     \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", CUresult,                                                        \
    (CUmodule * module, const void *image, unsigned num_options, int *options, void **values))                 \
  X(cuModuleUnload, "cuModuleUnload", CUresult, (CUmodule module))                                             \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult, (CUfunction * function, CUmodule module, const char *name)) \
  X(cuLaunchKernel, "cuLaunchKernel", CUresult,                                                                \
    (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,               \
     unsigned shared_bytes, CUstream stream, void **params, void **extra))                                     \
  X(cuStreamBeginCapture, "cuStreamBeginCapture_v2", CUresult, (CUstream stream, int mode))                    \
  X(cuStreamEndCapture, "cuStreamEndCapture", CUresult, (CUstream stream, CUgraph * graph))                    \
  X(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", CUresult,                                      \
    (CUgraphExec * exec, CUgraph graph, unsigned long long flags))                                             \
  X(cuGraphLaunch, "cuGraphLaunch", CUresult, (CUgraphExec exec, CUstream stream))                             \
  X(cuGraphExecDestroy, "cuGraphExecDestroy", CUresult, (CUgraphExec exec))                                    \
  X(cuGraphDestroy, "cuGraphDestroy", CUresult, (CUgraph graph))

struct Driver {
#define MIE_CUDA_DECLARE(name, symbol, ret, args) ret(*name) args = nullptr;
  MIE_CUDA_DRIVER_FUNCTIONS(MIE_CUDA_DECLARE)
#undef MIE_CUDA_DECLARE
  std::string path;  // what was dlopen'ed
  int version = 0;   // cuDriverGetVersion (13000 = CUDA 13.0), 0 when it fails

  // "CUDA_ERROR_OUT_OF_MEMORY (out of memory)"; the number where the driver does not know it.
  std::string error_text(CUresult r) const;
};

// The driver named by the environment variable MIE_CUDA_DRIVER (a path, for tests), else libcuda.so.1, loaded
// once per name for the life of the process (libcuda is never unloaded). NULL with *why =
// "no CUDA driver (libcuda.so.1: <dlerror>)" when it cannot be loaded or lacks a function.
const Driver *load_driver(std::string *why);

struct Device {
  CUdevice device = 0;
  int ordinal = 0;
  int sm = 0;  // compute capability as major * 10 + minor (90 for an H100/H200)
  std::string name;
};

// Initializes the driver and describes the device the runtime uses: ordinal MIE_CUDA_DEVICE when set, else
// 0. false with *why = "no CUDA device", or the failing call and its CUDA error.
bool find_device(const Driver &d, Device *out, std::string *why);

}  // namespace mie::rt::cuda
