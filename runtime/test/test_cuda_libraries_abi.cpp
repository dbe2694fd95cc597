// The runtime declares what it uses of cuBLASLt and cuDNN itself (runtime/src/cuda/cuda_libraries.h) so that it
// builds without the toolkit; where the headers are installed this file checks those constants and the layout
// of the structs the libraries fill in against cublasLt.h and cudnn.h. All checks are static.
#define CUDNN_DEPRECATED_ENUM  // the legacy convolution API the runtime calls is marked deprecated in cuDNN 9
#define CUDNN_DEPRECATED
#include <cublasLt.h>
#include <cudnn.h>

#include <cstddef>

#include "cuda/cuda_libraries.h"

namespace {

namespace rc = mie::rt::cuda;

static_assert(CUBLAS_STATUS_SUCCESS == rc::CUBLAS_STATUS_SUCCESS && CUBLAS_COMPUTE_32F == rc::CUBLAS_COMPUTE_32F);
static_assert(CUDA_R_32F == rc::CUDA_R_32F && CUDA_R_16F == rc::CUDA_R_16F && CUDA_R_16BF == rc::CUDA_R_16BF);
static_assert(CUBLAS_OP_N == rc::CUBLAS_OP_N && CUBLAS_OP_T == rc::CUBLAS_OP_T);
static_assert(CUBLASLT_MATMUL_DESC_TRANSA == rc::CUBLASLT_MATMUL_DESC_TRANSA &&
              CUBLASLT_MATMUL_DESC_TRANSB == rc::CUBLASLT_MATMUL_DESC_TRANSB &&
              CUBLASLT_MATMUL_DESC_EPILOGUE == rc::CUBLASLT_MATMUL_DESC_EPILOGUE &&
              CUBLASLT_MATMUL_DESC_BIAS_POINTER == rc::CUBLASLT_MATMUL_DESC_BIAS_POINTER &&
              CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE == rc::CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE);
static_assert(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT == rc::CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT &&
              CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET == rc::CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET &&
              CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES == rc::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES);
static_assert(CUBLASLT_EPILOGUE_DEFAULT == rc::CUBLASLT_EPILOGUE_DEFAULT &&
              CUBLASLT_EPILOGUE_RELU == rc::CUBLASLT_EPILOGUE_RELU &&
              CUBLASLT_EPILOGUE_BIAS == rc::CUBLASLT_EPILOGUE_BIAS &&
              CUBLASLT_EPILOGUE_RELU_BIAS == rc::CUBLASLT_EPILOGUE_RELU_BIAS &&
              CUBLASLT_EPILOGUE_GELU == rc::CUBLASLT_EPILOGUE_GELU &&
              CUBLASLT_EPILOGUE_GELU_BIAS == rc::CUBLASLT_EPILOGUE_GELU_BIAS);
static_assert(sizeof(cublasLtMatmulAlgo_t) == sizeof(rc::cublasLtMatmulAlgo_t) &&
              sizeof(cublasLtMatmulHeuristicResult_t) == sizeof(rc::cublasLtMatmulHeuristicResult_t) &&
              offsetof(cublasLtMatmulHeuristicResult_t, workspaceSize) ==
                  offsetof(rc::cublasLtMatmulHeuristicResult_t, workspaceSize) &&
              offsetof(cublasLtMatmulHeuristicResult_t, state) == offsetof(rc::cublasLtMatmulHeuristicResult_t, state));
static_assert(sizeof(cublasStatus_t) == sizeof(rc::cublasStatus_t) && sizeof(cublasComputeType_t) == sizeof(int) &&
              sizeof(cudaDataType_t) == sizeof(int));

static_assert(CUDNN_STATUS_SUCCESS == rc::CUDNN_STATUS_SUCCESS && CUDNN_TENSOR_NCHW == rc::CUDNN_TENSOR_NCHW);
static_assert(CUDNN_DATA_FLOAT == rc::CUDNN_DATA_FLOAT && CUDNN_DATA_HALF == rc::CUDNN_DATA_HALF &&
              CUDNN_DATA_BFLOAT16 == rc::CUDNN_DATA_BFLOAT16);
static_assert(CUDNN_CROSS_CORRELATION == rc::CUDNN_CROSS_CORRELATION && CUDNN_DEFAULT_MATH == rc::CUDNN_DEFAULT_MATH &&
              CUDNN_TENSOR_OP_MATH == rc::CUDNN_TENSOR_OP_MATH && CUDNN_FMA_MATH == rc::CUDNN_FMA_MATH);
static_assert(CUDNN_ACTIVATION_RELU == rc::CUDNN_ACTIVATION_RELU &&
              CUDNN_ACTIVATION_IDENTITY == rc::CUDNN_ACTIVATION_IDENTITY &&
              CUDNN_NOT_PROPAGATE_NAN == rc::CUDNN_NOT_PROPAGATE_NAN && CUDNN_PROPAGATE_NAN == rc::CUDNN_PROPAGATE_NAN);
static_assert(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM == rc::CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
static_assert(sizeof(cudnnConvolutionFwdAlgoPerf_t) == sizeof(rc::cudnnConvolutionFwdAlgoPerf_t) &&
              offsetof(cudnnConvolutionFwdAlgoPerf_t, status) == offsetof(rc::cudnnConvolutionFwdAlgoPerf_t, status) &&
              offsetof(cudnnConvolutionFwdAlgoPerf_t, memory) == offsetof(rc::cudnnConvolutionFwdAlgoPerf_t, memory));
static_assert(sizeof(cudnnStatus_t) == sizeof(rc::cudnnStatus_t) && sizeof(cudnnDataType_t) == sizeof(int) &&
              sizeof(cudnnConvolutionFwdAlgo_t) == sizeof(int) && sizeof(cudnnActivationMode_t) == sizeof(int));

}  // namespace
