// cuBLASLt and cuDNN 9, reached through dlopen like the driver (cuda_driver.h): host code of a cuda target calls
// them through mie_gpu_api::matmul and ::conv2d (gpu api 2). The few types and constants used are declared here
// with the values of cublasLt.h / cudnn.h (test_cuda_abi.cpp checks them against the real headers where the
// toolkit is installed). A session loads a library only when its host code says it calls it
// (MIE_GPU_LIBRARIES_SYMBOL), so packages that call neither run without them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "cuda_driver.h"
#include "mie/mie_kernel_abi.h"

namespace mie::rt::cuda {

// ---- cuBLASLt ----
using cublasStatus_t = int;
using cublasLtHandle_t = void *;
using cublasLtMatmulDesc_t = void *;
using cublasLtMatrixLayout_t = void *;
using cublasLtMatmulPreference_t = void *;
struct cublasLtMatmulAlgo_t {
  uint64_t data[8];
};
struct cublasLtMatmulHeuristicResult_t {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
};

constexpr cublasStatus_t CUBLAS_STATUS_SUCCESS = 0;
constexpr int CUBLAS_COMPUTE_32F = 68;
constexpr int CUDA_R_32F = 0, CUDA_R_16F = 2, CUDA_R_16BF = 14;
constexpr int CUBLAS_OP_N = 0, CUBLAS_OP_T = 1;
constexpr int CUBLASLT_MATMUL_DESC_TRANSA = 3, CUBLASLT_MATMUL_DESC_TRANSB = 4, CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
              CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26;
constexpr int CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6;
constexpr int CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1;
constexpr int CUBLASLT_EPILOGUE_DEFAULT = 1, CUBLASLT_EPILOGUE_RELU = 2, CUBLASLT_EPILOGUE_BIAS = 4,
              CUBLASLT_EPILOGUE_RELU_BIAS = 6, CUBLASLT_EPILOGUE_GELU = 32, CUBLASLT_EPILOGUE_GELU_BIAS = 36;

#define MIE_CUBLASLT_FUNCTIONS(X)                                                                              \
  X(cublasLtCreate, cublasStatus_t, (cublasLtHandle_t * handle))                                               \
  X(cublasLtDestroy, cublasStatus_t, (cublasLtHandle_t handle))                                                \
  X(cublasLtGetVersion, size_t, (void))                                                                        \
  X(cublasLtGetStatusName, const char *, (cublasStatus_t status))                                              \
  X(cublasLtMatmulDescCreate, cublasStatus_t, (cublasLtMatmulDesc_t * desc, int compute_type, int scale_type)) \
  X(cublasLtMatmulDescDestroy, cublasStatus_t, (cublasLtMatmulDesc_t desc))                                    \
  X(cublasLtMatmulDescSetAttribute, cublasStatus_t,                                                            \
    (cublasLtMatmulDesc_t desc, int attribute, const void *value, size_t size))                                \
  X(cublasLtMatrixLayoutCreate, cublasStatus_t,                                                                \
    (cublasLtMatrixLayout_t * layout, int type, uint64_t rows, uint64_t cols, int64_t ld))                     \
  X(cublasLtMatrixLayoutDestroy, cublasStatus_t, (cublasLtMatrixLayout_t layout))                              \
  X(cublasLtMatrixLayoutSetAttribute, cublasStatus_t,                                                          \
    (cublasLtMatrixLayout_t layout, int attribute, const void *value, size_t size))                            \
  X(cublasLtMatmulPreferenceCreate, cublasStatus_t, (cublasLtMatmulPreference_t * pref))                       \
  X(cublasLtMatmulPreferenceDestroy, cublasStatus_t, (cublasLtMatmulPreference_t pref))                        \
  X(cublasLtMatmulPreferenceSetAttribute, cublasStatus_t,                                                      \
    (cublasLtMatmulPreference_t pref, int attribute, const void *value, size_t size))                          \
  X(cublasLtMatmulAlgoGetHeuristic, cublasStatus_t,                                                            \
    (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,   \
     cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d, cublasLtMatmulPreference_t pref, int requested,       \
     cublasLtMatmulHeuristicResult_t *results, int *returned))                                                 \
  X(cublasLtMatmul, cublasStatus_t,                                                                            \
    (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void *alpha, const void *a,                     \
     cublasLtMatrixLayout_t a_layout, const void *b, cublasLtMatrixLayout_t b_layout, const void *beta,        \
     const void *c, cublasLtMatrixLayout_t c_layout, void *d, cublasLtMatrixLayout_t d_layout,                 \
     const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspace_bytes, CUstream stream))

struct CublasLt {
#define MIE_LIB_DECLARE(name, ret, args) ret(*name) args = nullptr;
  MIE_CUBLASLT_FUNCTIONS(MIE_LIB_DECLARE)
  std::string path;
  size_t version = 0;
  std::string status_text(cublasStatus_t s) const;
};

// ---- cuDNN 9 (its convolution API: cudnn_cnn / cudnn_ops, exported by libcudnn.so.9) ----
using cudnnStatus_t = int;
using cudnnHandle_t = void *;
using cudnnTensorDescriptor_t = void *;
using cudnnFilterDescriptor_t = void *;
using cudnnConvolutionDescriptor_t = void *;
using cudnnActivationDescriptor_t = void *;
struct cudnnConvolutionFwdAlgoPerf_t {
  int algo;
  cudnnStatus_t status;
  float time;
  size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
};

constexpr cudnnStatus_t CUDNN_STATUS_SUCCESS = 0;
constexpr int CUDNN_TENSOR_NCHW = 0;
constexpr int CUDNN_DATA_FLOAT = 0, CUDNN_DATA_HALF = 2, CUDNN_DATA_BFLOAT16 = 9;
constexpr int CUDNN_CROSS_CORRELATION = 1;
constexpr int CUDNN_DEFAULT_MATH = 0, CUDNN_TENSOR_OP_MATH = 1, CUDNN_FMA_MATH = 3;
constexpr int CUDNN_ACTIVATION_RELU = 1, CUDNN_ACTIVATION_IDENTITY = 5;
constexpr int CUDNN_NOT_PROPAGATE_NAN = 0, CUDNN_PROPAGATE_NAN = 1;
constexpr int CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM = 1;

#define MIE_CUDNN_FUNCTIONS(X)                                                                                   \
  X(cudnnGetVersion, size_t, (void))                                                                             \
  X(cudnnGetErrorString, const char *, (cudnnStatus_t status))                                                   \
  X(cudnnCreate, cudnnStatus_t, (cudnnHandle_t * handle))                                                        \
  X(cudnnDestroy, cudnnStatus_t, (cudnnHandle_t handle))                                                         \
  X(cudnnSetStream, cudnnStatus_t, (cudnnHandle_t handle, CUstream stream))                                      \
  X(cudnnCreateTensorDescriptor, cudnnStatus_t, (cudnnTensorDescriptor_t * desc))                                \
  X(cudnnDestroyTensorDescriptor, cudnnStatus_t, (cudnnTensorDescriptor_t desc))                                 \
  X(cudnnSetTensor4dDescriptor, cudnnStatus_t,                                                                   \
    (cudnnTensorDescriptor_t desc, int format, int type, int n, int c, int h, int w))                            \
  X(cudnnCreateFilterDescriptor, cudnnStatus_t, (cudnnFilterDescriptor_t * desc))                                \
  X(cudnnDestroyFilterDescriptor, cudnnStatus_t, (cudnnFilterDescriptor_t desc))                                 \
  X(cudnnSetFilter4dDescriptor, cudnnStatus_t,                                                                   \
    (cudnnFilterDescriptor_t desc, int type, int format, int k, int c, int h, int w))                            \
  X(cudnnCreateConvolutionDescriptor, cudnnStatus_t, (cudnnConvolutionDescriptor_t * desc))                      \
  X(cudnnDestroyConvolutionDescriptor, cudnnStatus_t, (cudnnConvolutionDescriptor_t desc))                       \
  X(cudnnSetConvolution2dDescriptor, cudnnStatus_t,                                                              \
    (cudnnConvolutionDescriptor_t desc, int pad_h, int pad_w, int u, int v, int dilation_h, int dilation_w,      \
     int mode, int compute_type))                                                                                \
  X(cudnnSetConvolutionGroupCount, cudnnStatus_t, (cudnnConvolutionDescriptor_t desc, int groups))               \
  X(cudnnSetConvolutionMathType, cudnnStatus_t, (cudnnConvolutionDescriptor_t desc, int math_type))              \
  X(cudnnCreateActivationDescriptor, cudnnStatus_t, (cudnnActivationDescriptor_t * desc))                        \
  X(cudnnDestroyActivationDescriptor, cudnnStatus_t, (cudnnActivationDescriptor_t desc))                         \
  X(cudnnSetActivationDescriptor, cudnnStatus_t,                                                                 \
    (cudnnActivationDescriptor_t desc, int mode, int nan_opt, double coef))                                      \
  X(cudnnGetConvolutionForwardAlgorithm_v7, cudnnStatus_t,                                                       \
    (cudnnHandle_t handle, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,                                 \
     cudnnConvolutionDescriptor_t conv, cudnnTensorDescriptor_t y, int requested, int *returned,                 \
     cudnnConvolutionFwdAlgoPerf_t *results))                                                                    \
  X(cudnnConvolutionForward, cudnnStatus_t,                                                                      \
    (cudnnHandle_t handle, const void *alpha, cudnnTensorDescriptor_t x_desc, const void *x,                     \
     cudnnFilterDescriptor_t w_desc, const void *w, cudnnConvolutionDescriptor_t conv, int algo,                 \
     void *workspace, size_t workspace_bytes, const void *beta, cudnnTensorDescriptor_t y_desc, void *y))        \
  X(cudnnConvolutionBiasActivationForward, cudnnStatus_t,                                                        \
    (cudnnHandle_t handle, const void *alpha1, cudnnTensorDescriptor_t x_desc, const void *x,                    \
     cudnnFilterDescriptor_t w_desc, const void *w, cudnnConvolutionDescriptor_t conv, int algo,                 \
     void *workspace, size_t workspace_bytes, const void *alpha2, cudnnTensorDescriptor_t z_desc, const void *z, \
     cudnnTensorDescriptor_t bias_desc, const void *bias, cudnnActivationDescriptor_t act,                       \
     cudnnTensorDescriptor_t y_desc, void *y))

struct Cudnn {
  MIE_CUDNN_FUNCTIONS(MIE_LIB_DECLARE)
#undef MIE_LIB_DECLARE
  std::string path;
  size_t version = 0;
  std::string status_text(cudnnStatus_t s) const;
};

// The library named by MIE_CUBLASLT_LIBRARY / MIE_CUDNN_LIBRARY (a path, for tests), else the toolkit's soname
// (libcublasLt.so.13, libcudnn.so.9) and then the unversioned name; loaded once per name for the process. NULL
// with *why = "cannot load cuBLASLt (libcublasLt.so.13: <dlerror>)" or the function it lacks.
const CublasLt *load_cublaslt(std::string *why);
const Cudnn *load_cudnn(std::string *why);

// The library calls of one session: handles bound to its stream, the plans made per descriptor (layouts and the
// heuristic's algorithm for a product, tensor descriptors and the algorithm for a convolution), the workspace.
// Every device allocation is made outside stream capture: on the first call with a descriptor (the session's
// first run is never captured) or at creation.
class LibraryCalls {
 public:
  // `libraries`: MIE_GPU_LIBRARY_* bits of the host code. The session's context must be current.
  static bool create(const Driver *d, int64_t libraries, CUstream stream, std::unique_ptr<LibraryCalls> *out,
                     std::string *error);
  ~LibraryCalls();  // the session's context must be current
  LibraryCalls(const LibraryCalls &) = delete;
  LibraryCalls &operator=(const LibraryCalls &) = delete;

  // "" on success, else what failed ("cublasLtMatmul: CUBLAS_STATUS_...").
  std::string matmul(const mie_gpu_matmul_desc &desc, const void *a, const void *b, const void *bias,
                     const void *residual, void *d);
  std::string conv2d(const mie_gpu_conv2d_desc &desc, const void *x, const void *w, const void *bias,
                     const void *residual, void *y);
  const CublasLt *cublaslt() const { return lt_; }
  const Cudnn *cudnn() const { return dnn_; }

 private:
  struct MatmulPlan;
  struct ConvPlan;
  LibraryCalls() = default;
  std::string plan_matmul(const mie_gpu_matmul_desc &desc, MatmulPlan *plan);
  std::string plan_conv(const mie_gpu_conv2d_desc &desc, ConvPlan *plan);
  std::string reserve_workspace(size_t bytes);

  const Driver *d_ = nullptr;
  CUstream stream_ = nullptr;
  const CublasLt *lt_ = nullptr;
  const Cudnn *dnn_ = nullptr;
  cublasLtHandle_t lt_handle_ = nullptr;
  cudnnHandle_t dnn_handle_ = nullptr;
  CUdeviceptr workspace_ = 0;
  size_t workspace_bytes_ = 0;
  std::map<std::string, std::unique_ptr<MatmulPlan>> matmul_plans_;  // keyed by the descriptor's bytes
  std::map<std::string, std::unique_ptr<ConvPlan>> conv_plans_;
};

}  // namespace mie::rt::cuda
