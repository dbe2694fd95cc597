/* A hand-written stand-in for generated code of a model with a symbolic dim (package format 4),
 * built once per specialization (-DROWS=n) and once as code for every shape (-DROWS=0, kernel ABI
 * 7: rows from the symbol values slot, the arena size from mie_arena_bytes). Model: input x
 * f32[rows, 3] -> y f32[rows * 2, 3]: rows 2r and 2r + 1 of y are 2 * x[r] and x[r] + rows (+ 0.25
 * from the code for every shape, so that tests can tell which code ran). Its arena is 64 * rows
 * bytes; the code writes all of it, so a runtime handing it a smaller arena would be caught by the
 * sanitizers. */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

#ifndef ROWS
#error "build with -DROWS=n (0: code for every shape)"
#endif
#define COLS 3

#if ROWS == 0
__attribute__((visibility("default"))) const int64_t mie_abi[] = {MIE_ABI_TABLE_MAGIC,
                                                                  14,
                                                                  -1 /* arena: per run */,
                                                                  0 /* weights */,
                                                                  1,
                                                                  1,
                                                                  1 /* f32 */,
                                                                  2,
                                                                  -1,
                                                                  COLS,
                                                                  /* x */ 1,
                                                                  2,
                                                                  -1,
                                                                  COLS /* y */};

__attribute__((visibility("default"))) int64_t mie_arena_bytes(const int64_t *dims) {
  return 64 * dims[0];
}
#define EXTRA 0.25f
#else
__attribute__((visibility("default"))) const int64_t mie_abi[] = {MIE_ABI_TABLE_MAGIC,
                                                                  14,
                                                                  64 * ROWS /* arena */,
                                                                  0 /* weights */,
                                                                  1,
                                                                  1,
                                                                  1 /* f32 */,
                                                                  2,
                                                                  ROWS,
                                                                  COLS,
                                                                  /* x */ 1,
                                                                  2,
                                                                  2 * ROWS,
                                                                  COLS /* y */};
#define EXTRA 0.0f
#endif

__attribute__((visibility("default"))) int32_t mie_entry(const mie_kernel_env *env,
                                                         void *const *args) {
  (void)env;
  const float *x = (const float *)args[0];
  float *y = (float *)args[1];
  uint8_t *arena = (uint8_t *)args[2];
  /* args[3]: weights, args[4]: the random key, args[5]: the symbol values (ABI 7). */
  const int64_t rows = ROWS ? ROWS : ((const int64_t *)args[5])[0];
  for (int64_t i = 0; i < 64 * rows; ++i)
    arena[i] = (uint8_t)i;
  for (int64_t r = 0; r < rows; ++r)
    for (int c = 0; c < COLS; ++c) {
      y[(2 * r) * COLS + c] = 2.0f * x[r * COLS + c];
      y[(2 * r + 1) * COLS + c] = x[r * COLS + c] + (float)rows + EXTRA +
                                  (float)(arena[64 * rows - 1] != (uint8_t)(64 * rows - 1));
    }
  return 0;
}
