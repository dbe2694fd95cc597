#include "cuda_libraries.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "mie/mie_rt.h"

namespace mie::rt::cuda {

// The layouts the code generator hard-codes (mie_kernel_abi.h).
static_assert(sizeof(void *) == 8, "LP64");
static_assert(offsetof(mie_gpu_api, matmul) == 40 && offsetof(mie_gpu_api, conv2d) == 48, "gpu api 2 offsets");
static_assert(sizeof(mie_gpu_matmul_desc) == 104 && offsetof(mie_gpu_matmul_desc, epilogue) == 80 &&
                  offsetof(mie_gpu_matmul_desc, alpha) == 96,
              "matmul descriptor layout");
static_assert(sizeof(mie_gpu_conv2d_desc) == 160 && offsetof(mie_gpu_conv2d_desc, groups) == 128 &&
                  offsetof(mie_gpu_conv2d_desc, residual) == 152,
              "conv2d descriptor layout");

namespace {

// The most workspace a convolution algorithm may ask for; the products get a fixed kMatmulWorkspace.
constexpr size_t kConvWorkspaceLimit = size_t(256) << 20;
constexpr size_t kMatmulWorkspace = size_t(32) << 20;

// Loads the first of `names` that opens (the environment variable's path alone when it is set) and resolves
// `resolve`'s functions; "" on success.
template <typename Lib, typename Resolve>
std::string open_library(const char *what, const char *env_name, std::vector<std::string> names, Lib *lib,
                         Resolve resolve) {
  if (const char *env = std::getenv(env_name); env && env[0]) names = {env};
  std::string tried;
  for (const std::string &name : names) {
    dlerror();
    void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *e = dlerror();
      tried += (tried.empty() ? "" : "; ") + name + ": " + (e ? e : "cannot be loaded");
      continue;
    }
    const char *missing = resolve(handle, lib);
    if (missing) {
      dlclose(handle);
      return std::string(what) + " " + name + " lacks " + missing + " (it is older than this runtime needs)";
    }
    lib->path = name;
    return "";
  }
  return std::string("cannot load ") + what + " (" + tried + ")";
}

template <typename Lib>
const Lib *load_once(const char *what, const char *env_name, std::vector<std::string> names,
                     const char *(*resolve)(void *, Lib *), std::string *why) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Lib>> loaded;  // never unloaded, as libcuda
  const char *env = std::getenv(env_name);
  const std::string key = env && env[0] ? env : names.front();
  std::lock_guard<std::mutex> lk(mu);
  auto it = loaded.find(key);
  if (it != loaded.end()) return it->second.get();
  auto lib = std::make_unique<Lib>();
  const std::string error = open_library(what, env_name, std::move(names), lib.get(), resolve);
  if (!error.empty()) {
    *why = error;
    return nullptr;
  }
  return (loaded[key] = std::move(lib)).get();
}

#define MIE_LIB_RESOLVE(name, ret, args)                          \
  lib->name = reinterpret_cast<ret(*) args>(dlsym(handle, #name)); \
  if (!lib->name) return #name;

const char *resolve_cublaslt(void *handle, CublasLt *lib) {
  MIE_CUBLASLT_FUNCTIONS(MIE_LIB_RESOLVE)
  lib->version = lib->cublasLtGetVersion();
  return nullptr;
}

const char *resolve_cudnn(void *handle, Cudnn *lib) {
  MIE_CUDNN_FUNCTIONS(MIE_LIB_RESOLVE)
  lib->version = lib->cudnnGetVersion();
  return nullptr;
}
#undef MIE_LIB_RESOLVE

size_t element_bytes(int64_t dtype) { return dtype == MIE_DTYPE_F32 ? 4 : 2; }

bool supported_dtype(int64_t dtype) {
  return dtype == MIE_DTYPE_F32 || dtype == MIE_DTYPE_F16 || dtype == MIE_DTYPE_BF16;
}

int cuda_type(int64_t dtype) {
  return dtype == MIE_DTYPE_F32 ? CUDA_R_32F : dtype == MIE_DTYPE_F16 ? CUDA_R_16F : CUDA_R_16BF;
}

int cudnn_type(int64_t dtype) {
  return dtype == MIE_DTYPE_F32 ? CUDNN_DATA_FLOAT : dtype == MIE_DTYPE_F16 ? CUDNN_DATA_HALF : CUDNN_DATA_BFLOAT16;
}

template <typename T>
std::string key_of(const T &desc) {
  return std::string(reinterpret_cast<const char *>(&desc), sizeof desc);
}

}  // namespace

std::string CublasLt::status_text(cublasStatus_t s) const {
  const char *name = cublasLtGetStatusName ? cublasLtGetStatusName(s) : nullptr;
  return name ? std::string(name) : "cuBLAS status " + std::to_string(s);
}

std::string Cudnn::status_text(cudnnStatus_t s) const {
  const char *text = cudnnGetErrorString ? cudnnGetErrorString(s) : nullptr;
  return text ? std::string(text) : "cuDNN status " + std::to_string(s);
}

const CublasLt *load_cublaslt(std::string *why) {
  return load_once<CublasLt>("cuBLASLt", "MIE_CUBLASLT_LIBRARY", {"libcublasLt.so.13", "libcublasLt.so"},
                             &resolve_cublaslt, why);
}

const Cudnn *load_cudnn(std::string *why) {
  return load_once<Cudnn>("cuDNN", "MIE_CUDNN_LIBRARY", {"libcudnn.so.9", "libcudnn.so"}, &resolve_cudnn, why);
}

struct LibraryCalls::MatmulPlan {
  const CublasLt *lt = nullptr;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  size_t workspace = 0;
  ~MatmulPlan() {
    if (op) lt->cublasLtMatmulDescDestroy(op);
    for (cublasLtMatrixLayout_t l : {a, b, d})
      if (l) lt->cublasLtMatrixLayoutDestroy(l);
  }
};

struct LibraryCalls::ConvPlan {
  const Cudnn *dnn = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr, bias = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnActivationDescriptor_t act = nullptr;
  int algo = 0;
  size_t workspace = 0;
  bool fused = false;     // cudnnConvolutionBiasActivationForward, else cudnnConvolutionForward
  CUdeviceptr zeros = 0;  // the bias of a fused convolution that has none (owned by LibraryCalls)
  ~ConvPlan() {
    for (cudnnTensorDescriptor_t t : {x, y, bias})
      if (t) dnn->cudnnDestroyTensorDescriptor(t);
    if (w) dnn->cudnnDestroyFilterDescriptor(w);
    if (conv) dnn->cudnnDestroyConvolutionDescriptor(conv);
    if (act) dnn->cudnnDestroyActivationDescriptor(act);
  }
};

bool LibraryCalls::create(const Driver *d, int64_t libraries, CUstream stream, std::unique_ptr<LibraryCalls> *out,
                          std::string *error) {
  std::unique_ptr<LibraryCalls> calls(new LibraryCalls());
  calls->d_ = d;
  calls->stream_ = stream;
  if (libraries & MIE_GPU_LIBRARY_CUBLASLT) {
    if (!(calls->lt_ = load_cublaslt(error))) return false;
    if (cublasStatus_t s = calls->lt_->cublasLtCreate(&calls->lt_handle_); s != CUBLAS_STATUS_SUCCESS) {
      calls->lt_handle_ = nullptr;
      *error = "cublasLtCreate: " + calls->lt_->status_text(s);
      return false;
    }
    if (std::string e = calls->reserve_workspace(kMatmulWorkspace); !e.empty()) {
      *error = e;
      return false;
    }
  }
  if (libraries & MIE_GPU_LIBRARY_CUDNN) {
    if (!(calls->dnn_ = load_cudnn(error))) return false;
    cudnnStatus_t s = calls->dnn_->cudnnCreate(&calls->dnn_handle_);
    if (s != CUDNN_STATUS_SUCCESS) {
      calls->dnn_handle_ = nullptr;
      *error = "cudnnCreate: " + calls->dnn_->status_text(s);
      return false;
    }
    if ((s = calls->dnn_->cudnnSetStream(calls->dnn_handle_, stream)) != CUDNN_STATUS_SUCCESS) {
      *error = "cudnnSetStream: " + calls->dnn_->status_text(s);
      return false;
    }
  }
  *out = std::move(calls);
  return true;
}

LibraryCalls::~LibraryCalls() {
  d_->cuStreamSynchronize(stream_);
  for (auto &[key, plan] : conv_plans_)
    if (plan->zeros) d_->cuMemFree(plan->zeros);
  matmul_plans_.clear();
  conv_plans_.clear();
  if (lt_handle_) lt_->cublasLtDestroy(lt_handle_);
  if (dnn_handle_) dnn_->cudnnDestroy(dnn_handle_);
  if (workspace_) d_->cuMemFree(workspace_);
}

std::string LibraryCalls::reserve_workspace(size_t bytes) {
  if (bytes <= workspace_bytes_) return "";
  // Work queued earlier may still use the old workspace.
  if (CUresult r = d_->cuStreamSynchronize(stream_); r != CUDA_SUCCESS)
    return "cuStreamSynchronize: " + d_->error_text(r);
  if (workspace_) d_->cuMemFree(workspace_);
  workspace_ = 0;
  workspace_bytes_ = 0;
  if (CUresult r = d_->cuMemAlloc(&workspace_, bytes); r != CUDA_SUCCESS) {
    workspace_ = 0;
    return "cannot allocate " + std::to_string(bytes) + " bytes of library workspace: cuMemAlloc: " + d_->error_text(r);
  }
  workspace_bytes_ = bytes;
  return "";
}

// Row-major d[m, n] = op(a) op(b) is column-major d^T[n, m] = op(b)^T op(a)^T: cuBLASLt's A is our b and its B
// our a, each read in the layout it is stored in, so transposes carry over unchanged; its bias (one value per
// row of its D) is then one per column of ours.
std::string LibraryCalls::plan_matmul(const mie_gpu_matmul_desc &g, MatmulPlan *p) {
  const CublasLt &lt = *lt_;
  p->lt = lt_;
  auto fail = [&](const char *call, cublasStatus_t s) { return std::string(call) + ": " + lt.status_text(s); };
  const int type = cuda_type(g.dtype);
  cublasStatus_t s;
  if ((s = lt.cublasLtMatmulDescCreate(&p->op, CUBLAS_COMPUTE_32F, CUDA_R_32F)) != CUBLAS_STATUS_SUCCESS)
    return p->op = nullptr, fail("cublasLtMatmulDescCreate", s);
  const int32_t trans_a = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, trans_b = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  static const int32_t epilogues[6] = {CUBLASLT_EPILOGUE_DEFAULT, CUBLASLT_EPILOGUE_BIAS,
                                       CUBLASLT_EPILOGUE_RELU,    CUBLASLT_EPILOGUE_RELU_BIAS,
                                       CUBLASLT_EPILOGUE_GELU,    CUBLASLT_EPILOGUE_GELU_BIAS};
  const int32_t epilogue = epilogues[g.epilogue];
  if ((s = lt.cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &trans_a, sizeof trans_a)) ||
      (s = lt.cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &trans_b, sizeof trans_b)) ||
      (s = lt.cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue)))
    return fail("cublasLtMatmulDescSetAttribute", s);
  // Stored shapes, column-major: our b is [k, n] row-major (n x k column-major), [n, k] with trans_b.
  const uint64_t m = uint64_t(g.m), n = uint64_t(g.n), k = uint64_t(g.k);
  const uint64_t b_rows = g.trans_b ? k : n, b_cols = g.trans_b ? n : k;
  const uint64_t a_rows = g.trans_a ? m : k, a_cols = g.trans_a ? k : m;
  if ((s = lt.cublasLtMatrixLayoutCreate(&p->a, type, b_rows, b_cols, int64_t(b_rows))) != CUBLAS_STATUS_SUCCESS)
    return p->a = nullptr, fail("cublasLtMatrixLayoutCreate", s);
  if ((s = lt.cublasLtMatrixLayoutCreate(&p->b, type, a_rows, a_cols, int64_t(a_rows))) != CUBLAS_STATUS_SUCCESS)
    return p->b = nullptr, fail("cublasLtMatrixLayoutCreate", s);
  if ((s = lt.cublasLtMatrixLayoutCreate(&p->d, type, n, m, int64_t(n))) != CUBLAS_STATUS_SUCCESS)
    return p->d = nullptr, fail("cublasLtMatrixLayoutCreate", s);
  if (g.batch > 1) {
    const int32_t batch = int32_t(g.batch);
    const int64_t strides[3] = {g.stride_b, g.stride_a, g.stride_d};
    cublasLtMatrixLayout_t layouts[3] = {p->a, p->b, p->d};
    for (int i = 0; i < 3; ++i)
      if ((s = lt.cublasLtMatrixLayoutSetAttribute(layouts[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch,
                                                   sizeof batch)) ||
          (s = lt.cublasLtMatrixLayoutSetAttribute(layouts[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                                   &strides[i], sizeof strides[i])))
        return fail("cublasLtMatrixLayoutSetAttribute", s);
  }
  cublasLtMatmulPreference_t pref = nullptr;
  if ((s = lt.cublasLtMatmulPreferenceCreate(&pref)) != CUBLAS_STATUS_SUCCESS)
    return fail("cublasLtMatmulPreferenceCreate", s);
  const uint64_t max_workspace = workspace_bytes_;
  s = lt.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &max_workspace,
                                              sizeof max_workspace);
  cublasLtMatmulHeuristicResult_t result{};
  int returned = 0;
  if (s == CUBLAS_STATUS_SUCCESS)
    s = lt.cublasLtMatmulAlgoGetHeuristic(lt_handle_, p->op, p->a, p->b, p->d, p->d, pref, 1, &result, &returned);
  lt.cublasLtMatmulPreferenceDestroy(pref);
  if (s != CUBLAS_STATUS_SUCCESS) return fail("cublasLtMatmulAlgoGetHeuristic", s);
  if (returned < 1 || result.state != CUBLAS_STATUS_SUCCESS)
    return "cublasLtMatmulAlgoGetHeuristic: no algorithm for a " + std::to_string(g.m) + "x" + std::to_string(g.n) +
           "x" + std::to_string(g.k) + " product (batch " + std::to_string(g.batch) + ", epilogue " +
           std::to_string(g.epilogue) + ")";
  p->algo = result.algo;
  p->workspace = result.workspaceSize;
  return "";
}

std::string LibraryCalls::matmul(const mie_gpu_matmul_desc &g, const void *a, const void *b, const void *bias,
                                 const void *residual, void *d) {
  if (!lt_) return "matmul: the host code did not declare that it calls cuBLASLt (mie_gpu_libraries)";
  if (!supported_dtype(g.dtype) || g.batch < 1 || g.m < 1 || g.n < 1 || g.k < 1 || g.epilogue < 0 ||
      g.epilogue > MIE_GPU_EPILOGUE_BIAS_GELU || ((g.trans_a | g.trans_b) & ~int64_t(1)) != 0)
    return "matmul: malformed descriptor";
  if (((g.epilogue & MIE_GPU_EPILOGUE_BIAS) != 0) != (bias != nullptr) || (g.residual != 0) != (residual != nullptr))
    return "matmul: the bias and residual operands do not match the descriptor";
  auto &plan = matmul_plans_[key_of(g)];
  if (!plan) {
    auto made = std::make_unique<MatmulPlan>();
    if (std::string e = plan_matmul(g, made.get()); !e.empty()) {
      matmul_plans_.erase(key_of(g));
      return e;
    }
    plan = std::move(made);
  }
  const CublasLt &lt = *lt_;
  cublasStatus_t s;
  // The bias address belongs to the call, not to the plan: one descriptor may serve several products.
  if (bias && (s = lt.cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                                     sizeof bias)) != CUBLAS_STATUS_SUCCESS)
    return "cublasLtMatmulDescSetAttribute(bias): " + lt.status_text(s);
  const float alpha = float(g.alpha), beta = residual ? 1.0f : 0.0f;
  s = lt.cublasLtMatmul(lt_handle_, plan->op, &alpha, b, plan->a, a, plan->b, &beta, residual ? residual : d,
                        plan->d, d, plan->d, &plan->algo, reinterpret_cast<void *>(uintptr_t(workspace_)),
                        workspace_bytes_, stream_);
  return s == CUBLAS_STATUS_SUCCESS ? "" : "cublasLtMatmul: " + lt.status_text(s);
}

std::string LibraryCalls::plan_conv(const mie_gpu_conv2d_desc &g, ConvPlan *p) {
  const Cudnn &dnn = *dnn_;
  p->dnn = dnn_;
  auto fail = [&](const char *call, cudnnStatus_t s) { return std::string(call) + ": " + dnn.status_text(s); };
  const int type = cudnn_type(g.dtype);
  cudnnStatus_t s;
  if ((s = dnn.cudnnCreateTensorDescriptor(&p->x)) || (s = dnn.cudnnCreateTensorDescriptor(&p->y)) ||
      (s = dnn.cudnnCreateTensorDescriptor(&p->bias)) || (s = dnn.cudnnCreateFilterDescriptor(&p->w)) ||
      (s = dnn.cudnnCreateConvolutionDescriptor(&p->conv)) || (s = dnn.cudnnCreateActivationDescriptor(&p->act)))
    return fail("cudnnCreate...Descriptor", s);
  if ((s = dnn.cudnnSetTensor4dDescriptor(p->x, CUDNN_TENSOR_NCHW, type, int(g.n), int(g.c), int(g.h), int(g.w))) ||
      (s = dnn.cudnnSetTensor4dDescriptor(p->y, CUDNN_TENSOR_NCHW, type, int(g.n), int(g.k), int(g.out_h),
                                          int(g.out_w))) ||
      (s = dnn.cudnnSetTensor4dDescriptor(p->bias, CUDNN_TENSOR_NCHW, type, 1, int(g.k), 1, 1)))
    return fail("cudnnSetTensor4dDescriptor", s);
  if ((s = dnn.cudnnSetFilter4dDescriptor(p->w, type, CUDNN_TENSOR_NCHW, int(g.k), int(g.c / g.groups), int(g.r),
                                          int(g.s))))
    return fail("cudnnSetFilter4dDescriptor", s);
  if ((s = dnn.cudnnSetConvolution2dDescriptor(p->conv, int(g.pad_h), int(g.pad_w), int(g.stride_h),
                                               int(g.stride_w), int(g.dilation_h), int(g.dilation_w),
                                               CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT)))
    return fail("cudnnSetConvolution2dDescriptor", s);
  if (g.groups > 1 && (s = dnn.cudnnSetConvolutionGroupCount(p->conv, int(g.groups))))
    return fail("cudnnSetConvolutionGroupCount", s);
  // f32 stays f32: FMA math keeps TF32 tensor cores out (they round the operands to 10 mantissa bits).
  if ((s = dnn.cudnnSetConvolutionMathType(p->conv, g.dtype == MIE_DTYPE_F32 ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH)))
    return fail("cudnnSetConvolutionMathType", s);
  const bool relu = g.activation == MIE_GPU_ACTIVATION_RELU;
  if ((s = dnn.cudnnSetActivationDescriptor(p->act, relu ? CUDNN_ACTIVATION_RELU : CUDNN_ACTIVATION_IDENTITY,
                                            CUDNN_PROPAGATE_NAN, 0.0)))
    return fail("cudnnSetActivationDescriptor", s);
  p->fused = g.bias || g.residual || relu;

  cudnnConvolutionFwdAlgoPerf_t perf[16] = {};
  int returned = 0;
  if ((s = dnn.cudnnGetConvolutionForwardAlgorithm_v7(dnn_handle_, p->x, p->w, p->conv, p->y, 16, &returned, perf)))
    return fail("cudnnGetConvolutionForwardAlgorithm_v7", s);
  const cudnnConvolutionFwdAlgoPerf_t *chosen = nullptr;
  for (int i = 0; i < returned && !chosen; ++i) {
    // The fused call runs an identity activation with this algorithm only.
    const bool usable = perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= kConvWorkspaceLimit &&
                        (!p->fused || relu || perf[i].algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
    if (usable) chosen = &perf[i];
  }
  if (!chosen)
    return "cudnnGetConvolutionForwardAlgorithm_v7: no usable algorithm for a " + std::to_string(g.k) + "x" +
           std::to_string(g.c / g.groups) + "x" + std::to_string(g.r) + "x" + std::to_string(g.s) +
           " convolution (groups " + std::to_string(g.groups) + ")";
  p->algo = chosen->algo;
  p->workspace = chosen->memory;
  if (std::string e = reserve_workspace(p->workspace); !e.empty()) return e;
  if (p->fused && !g.bias) {
    const size_t bytes = size_t(g.k) * element_bytes(g.dtype);
    CUresult r = d_->cuMemAlloc(&p->zeros, bytes);
    if (r != CUDA_SUCCESS) return p->zeros = 0, "cuMemAlloc (zero bias): " + d_->error_text(r);
    if ((r = d_->cuMemsetD8Async(p->zeros, 0, bytes, stream_)) != CUDA_SUCCESS)
      return "cuMemsetD8Async (zero bias): " + d_->error_text(r);
  }
  return "";
}

std::string LibraryCalls::conv2d(const mie_gpu_conv2d_desc &g, const void *x, const void *w, const void *bias,
                                 const void *residual, void *y) {
  if (!dnn_) return "conv2d: the host code did not declare that it calls cuDNN (mie_gpu_libraries)";
  if (!supported_dtype(g.dtype) || g.groups < 1 || g.c % g.groups || g.k % g.groups || g.n < 1 ||
      (g.activation != MIE_GPU_ACTIVATION_NONE && g.activation != MIE_GPU_ACTIVATION_RELU))
    return "conv2d: malformed descriptor";
  if ((g.bias != 0) != (bias != nullptr) || (g.residual != 0) != (residual != nullptr))
    return "conv2d: the bias and residual operands do not match the descriptor";
  auto &plan = conv_plans_[key_of(g)];
  if (!plan) {
    auto made = std::make_unique<ConvPlan>();
    std::string e = plan_conv(g, made.get());
    if (!e.empty()) {
      if (made->zeros) d_->cuMemFree(made->zeros);
      conv_plans_.erase(key_of(g));
      return e;
    }
    plan = std::move(made);
  }
  const Cudnn &dnn = *dnn_;
  void *workspace = reinterpret_cast<void *>(uintptr_t(workspace_));
  const float one = 1.0f, zero = 0.0f;
  cudnnStatus_t s;
  if (!plan->fused) {
    s = dnn.cudnnConvolutionForward(dnn_handle_, &one, plan->x, x, plan->w, w, plan->conv, plan->algo, workspace,
                                    workspace_bytes_, &zero, plan->y, y);
    return s == CUDNN_STATUS_SUCCESS ? "" : "cudnnConvolutionForward: " + dnn.status_text(s);
  }
  // y = act(conv + alpha2 * z + bias); without a residual z is y itself, not read (alpha2 = 0).
  const void *b = bias ? bias : reinterpret_cast<const void *>(uintptr_t(plan->zeros));
  s = dnn.cudnnConvolutionBiasActivationForward(dnn_handle_, &one, plan->x, x, plan->w, w, plan->conv, plan->algo,
                                                workspace, workspace_bytes_, residual ? &one : &zero, plan->y,
                                                residual ? residual : y, plan->bias, b, plan->act, plan->y, y);
  return s == CUDNN_STATUS_SUCCESS ? "" : "cudnnConvolutionBiasActivationForward: " + dnn.status_text(s);
}

}  // namespace mie::rt::cuda
