/* A hand-written stand-in for generated code, packed into packages by the tests.
 * Model: inputs x f32[2,64], k i32[1]; outputs y f32[2,64], rowsum f32[2]; weights w f32[64];
 * arena: 2*64 f32 scratch.   y[r][c] = x[r][c] * w[c] + k;  rowsum[r] = sum_c y[r][c].
 * It reports its two steps (multiply, add) to the profile hook as kernels 0 and 1.
 * It checks what the ABI promises (env version, aligned arena/weights, grain-aligned chunks) and reports
 * violations through its return code so the tests see them. */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

#define ROWS 2
#define COLS 64
#define GRAIN 16

typedef struct {
  const float *x;
  const float *w;
  float *scratch;
  float *y;
  int32_t k;
  int32_t grain_violation;
} Ctx;

static void mul_body(void *p, int64_t begin, int64_t end) {
  Ctx *c = (Ctx *)p;
  if (begin % GRAIN != 0 || (end != ROWS * COLS && (end - begin) % GRAIN != 0))
    __atomic_store_n(&c->grain_violation, 1, __ATOMIC_RELAXED);
  for (int64_t i = begin; i < end; ++i) c->scratch[i] = c->x[i] * c->w[i % COLS];
}

static void add_body(void *p, int64_t begin, int64_t end) {
  Ctx *c = (Ctx *)p;
  for (int64_t i = begin; i < end; ++i) c->y[i] = c->scratch[i] + (float)c->k;
}

#ifndef MIE_TEST_NO_ABI_TABLE
/* What this entry assumes (kernel ABI 3); built without it (mie_test_kernel_notable) it stands for code
   from before ABI 3. */
__attribute__((visibility("default"))) const int64_t mie_abi[] = {
    MIE_ABI_TABLE_MAGIC, 20, ROWS * COLS * 4 /* arena */, COLS * 4 /* weights */, 2, 2,
    1 /* f32 */, 2, ROWS, COLS, /* x */ 7 /* i32 */, 1, 1, /* k */
    1, 2, ROWS, COLS, /* y */ 1, 1, ROWS /* rowsum */};
#endif

__attribute__((visibility("default"))) int32_t mie_entry(const mie_kernel_env *env, void *const *args) {
  if (env->abi_version != MIE_KERNEL_ABI_VERSION || env->num_threads < 1 || !env->parallel_for) return 2;
  Ctx c;
  c.x = (const float *)args[0];
  const int32_t *k = (const int32_t *)args[1];
  c.y = (float *)args[2];
  float *rowsum = (float *)args[3];
  c.scratch = (float *)args[4];
  c.w = (const float *)args[5];
  c.grain_violation = 0;
  if (!c.scratch || !c.w) return 4;
  if (((uintptr_t)c.scratch) % 64 != 0 || ((uintptr_t)c.w) % 64 != 0) return 5;
  if (*k < 0) return 3; /* lets tests exercise the kernel-failure path */
  c.k = *k;
  /* Two "kernels" (ids 0 and 1) reported to the profile hook the way generated code does. */
  if (env->profile) env->profile(env->profile_ctx, 0, 0);
  env->parallel_for(env->pool, ROWS * COLS, GRAIN, mul_body, &c);
  if (env->profile) env->profile(env->profile_ctx, 0, 1);
  if (env->profile) env->profile(env->profile_ctx, 1, 0);
  env->parallel_for(env->pool, ROWS * COLS, 0, add_body, &c);
  if (env->profile) env->profile(env->profile_ctx, 1, 1);
  env->parallel_for(env->pool, 0, 1, add_body, &c); /* count 0 must be a no-op */
  if (c.grain_violation) return 6;
  for (int r = 0; r < ROWS; ++r) {
    float s = 0;
    for (int i = 0; i < COLS; ++i) s += c.y[r * COLS + i];
    rowsum[r] = s;
  }
  return 0;
}
