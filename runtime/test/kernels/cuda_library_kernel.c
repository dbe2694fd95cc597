/* A hand-written stand-in for the host side of a cuda target that calls the GPU libraries (gpu api 2): the
 * shape of what mie-gpu-lower-launches generates for mie.conv2d / mie.gemm ops placed on cuDNN / cuBLASLt.
 * Model (test_cuda_libraries.cpp): inputs x f32[1,4,5,5], r f32[2,2,3]; outputs y f32[2,2,3], c f32[1,4,5,5];
 * weights w f32[4,2,3,3], cb f32[4], b f32[3,25], mb f32[3]; arena t f32[1,4,5,5].
 *   c = relu(conv(x, w, pad 1, groups 2) + cb)                  cuDNN, fused bias + relu
 *   t = conv(x, w, pad 1, groups 2) + c                         cuDNN, fused residual (identity activation)
 *   y[i] = gelu_tanh(0.5 * t[i] b^T + mb + r[i]), t as [2][2, 25] cuBLASLt, batched, b shared (stride 0)
 * MIE_TEST_UNDECLARED_LIBRARIES: the same calls without the mie_gpu_libraries symbol. */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT const int64_t mie_abi[] = {MIE_ABI_TABLE_MAGIC, 28, 400 /* arena */, 154 * 4 /* weights */, 2, 2,
                                  1, 4, 1, 4, 5, 5, /* x */ 1, 3, 2, 2, 3, /* r */
                                  1, 3, 2, 2, 3, /* y */ 1, 4, 1, 4, 5, 5 /* c */};

struct empty_module_table {
  int64_t magic;
  int64_t count;
};
EXPORT const struct empty_module_table mie_gpu_modules = {MIE_GPU_MODULES_MAGIC, 0};

#ifndef MIE_TEST_UNDECLARED_LIBRARIES
EXPORT const int64_t mie_gpu_libraries = MIE_GPU_LIBRARY_CUBLASLT | MIE_GPU_LIBRARY_CUDNN;
#endif

static const struct mie_gpu_conv2d_desc conv_relu = {
    .dtype = 1, .n = 1, .c = 4, .h = 5, .w = 5, .k = 4, .r = 3, .s = 3, .out_h = 5, .out_w = 5,
    .stride_h = 1, .stride_w = 1, .pad_h = 1, .pad_w = 1, .dilation_h = 1, .dilation_w = 1, .groups = 2,
    .activation = MIE_GPU_ACTIVATION_RELU, .bias = 1, .residual = 0};
static const struct mie_gpu_conv2d_desc conv_residual = {
    .dtype = 1, .n = 1, .c = 4, .h = 5, .w = 5, .k = 4, .r = 3, .s = 3, .out_h = 5, .out_w = 5,
    .stride_h = 1, .stride_w = 1, .pad_h = 1, .pad_w = 1, .dilation_h = 1, .dilation_w = 1, .groups = 2,
    .activation = MIE_GPU_ACTIVATION_NONE, .bias = 0, .residual = 1};
static const struct mie_gpu_matmul_desc product = {
    .dtype = 1, .batch = 2, .m = 2, .n = 3, .k = 25, .trans_a = 0, .trans_b = 1, .stride_a = 50, .stride_b = 0,
    .stride_d = 6, .epilogue = MIE_GPU_EPILOGUE_BIAS_GELU, .residual = 1, .alpha = 0.5};

EXPORT int32_t mie_entry(const mie_kernel_env *env, void *const *args) {
  if (env->abi_version < 4 || !env->gpu || env->gpu->version < 2 || !env->gpu_ctx) return 2;
  const mie_gpu_api *g = env->gpu;
  void *ctx = env->gpu_ctx;
  const char *x = args[0], *r = args[1], *t = args[4], *weights = args[5];
  char *y = args[2], *c = args[3];
  const char *w = weights, *cb = weights + 72 * 4, *b = weights + 76 * 4, *mb = weights + 151 * 4;
  int32_t rc;
  if ((rc = g->conv2d(ctx, &conv_relu, x, w, cb, 0, c)) != 0) return rc;
  if ((rc = g->conv2d(ctx, &conv_residual, x, w, 0, c, (void *)t)) != 0) return rc;
  if ((rc = g->matmul(ctx, &product, t, b, mb, r, y)) != 0) return rc;
  return 0;
}
