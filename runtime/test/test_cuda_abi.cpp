// The runtime declares the CUDA driver API itself (runtime/src/cuda/cuda_driver.h) so that it builds
// without the toolkit; where the toolkit is installed this file checks those declarations against cuda.h:
// constants, the handle types, and the argument lists of the functions behind each resolved symbol. All
// checks are static: a mismatch fails the build of the tests.
#include <cuda.h>

#include <tuple>
#include <type_traits>

#include "cuda/cuda_driver.h"

namespace {

namespace rc = mie::rt::cuda;

template <typename R, typename... A>
std::tuple<A...> args_of(R (*)(A...));
template <typename F, typename G>
constexpr bool same_args = std::is_same_v<decltype(args_of(std::declval<F>())), decltype(args_of(std::declval<G>()))>;

static_assert(sizeof(CUresult) == sizeof(rc::CUresult), "CUresult is int-sized");
static_assert(CUDA_SUCCESS == rc::CUDA_SUCCESS && CUDA_ERROR_INVALID_VALUE == rc::CUDA_ERROR_INVALID_VALUE &&
              CUDA_ERROR_NO_DEVICE == rc::CUDA_ERROR_NO_DEVICE);
static_assert(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR == rc::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR &&
              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR == rc::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
static_assert(CU_STREAM_NON_BLOCKING == rc::CU_STREAM_NON_BLOCKING &&
              CU_STREAM_CAPTURE_MODE_THREAD_LOCAL == rc::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
static_assert(CU_JIT_ERROR_LOG_BUFFER == rc::CU_JIT_ERROR_LOG_BUFFER &&
              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES == rc::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
static_assert(std::is_same_v<CUdeviceptr, rc::CUdeviceptr> && std::is_same_v<CUdevice, rc::CUdevice> &&
              std::is_same_v<CUcontext, rc::CUcontext> && std::is_same_v<CUmodule, rc::CUmodule> &&
              std::is_same_v<CUfunction, rc::CUfunction> && std::is_same_v<CUstream, rc::CUstream> &&
              std::is_same_v<CUgraph, rc::CUgraph> && std::is_same_v<CUgraphExec, rc::CUgraphExec>);
// Enum arguments are int-sized: the three functions taking one are declared with int.
static_assert(sizeof(CUdevice_attribute) == sizeof(int) && sizeof(CUstreamCaptureMode) == sizeof(int) &&
              sizeof(CUjit_option) == sizeof(int));

#define MIE_SAME(ours, theirs) static_assert(same_args<decltype(rc::Driver::ours), decltype(&::theirs)>, #theirs);
MIE_SAME(cuInit, cuInit)
MIE_SAME(cuDriverGetVersion, cuDriverGetVersion)
MIE_SAME(cuDeviceGetCount, cuDeviceGetCount)
MIE_SAME(cuDeviceGet, cuDeviceGet)
MIE_SAME(cuDeviceGetName, cuDeviceGetName)
MIE_SAME(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain)
MIE_SAME(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2)
MIE_SAME(cuCtxPushCurrent, cuCtxPushCurrent_v2)
MIE_SAME(cuCtxPopCurrent, cuCtxPopCurrent_v2)
MIE_SAME(cuStreamCreate, cuStreamCreate)
MIE_SAME(cuStreamDestroy, cuStreamDestroy_v2)
MIE_SAME(cuStreamSynchronize, cuStreamSynchronize)
MIE_SAME(cuMemAlloc, cuMemAlloc_v2)
MIE_SAME(cuMemFree, cuMemFree_v2)
MIE_SAME(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2)
MIE_SAME(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2)
MIE_SAME(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2)
MIE_SAME(cuMemsetD8Async, cuMemsetD8Async)
MIE_SAME(cuModuleUnload, cuModuleUnload)
MIE_SAME(cuModuleGetFunction, cuModuleGetFunction)
MIE_SAME(cuLaunchKernel, cuLaunchKernel)
MIE_SAME(cuStreamEndCapture, cuStreamEndCapture)
MIE_SAME(cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags)
MIE_SAME(cuGraphLaunch, cuGraphLaunch)
MIE_SAME(cuGraphExecDestroy, cuGraphExecDestroy)
MIE_SAME(cuGraphDestroy, cuGraphDestroy)
#undef MIE_SAME

}  // namespace
