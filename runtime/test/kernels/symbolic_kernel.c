/* A hand-written stand-in for generated code of a model with a symbolic dim (package format 4),
 * built once per specialization (-DROWS=n). Model: input x f32[rows, 3] -> y f32[rows * 2, 3]: rows
 * 2r and 2r + 1 of y are 2 * x[r] and x[r] + rows. Its arena is 64 * rows bytes; the code writes
 * all of it, so a runtime handing it a smaller arena would be caught by the sanitizers, and it
 * reads rows from the shape it was compiled for, so the runtime must run the specialization
 * matching the bound shapes. */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

#ifndef ROWS
#error "build with -DROWS=n"
#endif
#define COLS 3

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

__attribute__((visibility("default"))) int32_t mie_entry(const mie_kernel_env *env,
                                                         void *const *args) {
  (void)env;
  const float *x = (const float *)args[0];
  float *y = (float *)args[1];
  uint8_t *arena = (uint8_t *)args[2];
  for (int i = 0; i < 64 * ROWS; ++i)
    arena[i] = (uint8_t)i;
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c) {
      y[(2 * r) * COLS + c] = 2.0f * x[r * COLS + c];
      y[(2 * r + 1) * COLS + c] =
          x[r * COLS + c] + (float)ROWS + (float)(arena[64 * ROWS - 1] != (uint8_t)(64 * ROWS - 1));
    }
  return 0;
}
