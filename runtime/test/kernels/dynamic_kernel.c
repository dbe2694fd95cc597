/* A hand-written stand-in for generated code with a data-dependent output shape (package format 3).
 * Model: input x f32[6]; output y f32[2,6] whose dim 1 is data-dependent: column j of the real [2, n]
 * holds the j-th positive element of x (row 0) and its index (row 1). Like generated code it writes y
 * in its bound layout (row r at r * 6) and the count into the output's extent buffer (args[2]), which
 * the runtime reads. x[0] == -100 makes it report an extent past the bound, for the runtime's check. */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

#define N 6

__attribute__((visibility("default"))) const int64_t mie_abi[] = {
    MIE_ABI_TABLE_MAGIC, 16, 0 /* arena */, 0 /* weights */, 1, 2,
    1 /* f32 */, 1, N, /* x */ 1, 2, 2, N, /* y */ 8 /* i64 */, 1, 1 /* y's extent */};

__attribute__((visibility("default"))) int32_t mie_entry(const mie_kernel_env *env, void *const *args) {
  (void)env;
  const float *x = (const float *)args[0];
  float *y = (float *)args[1];
  int64_t *extent = (int64_t *)args[2];
  int64_t n = 0;
  for (int i = 0; i < 2 * N; ++i) y[i] = 0.0f;
  for (int i = 0; i < N; ++i) {
    if (x[i] <= 0.0f) continue;
    y[n] = x[i];
    y[N + n] = (float)i;
    ++n;
  }
  extent[0] = x[0] == -100.0f ? N + 1 : n;
  return 0;
}
