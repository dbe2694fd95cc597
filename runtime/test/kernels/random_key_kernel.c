/* A hand-written stand-in for generated code that draws random numbers (kernel ABI 5): it takes the
 * run's random key, the last slot of args after the arena and the weights, and copies its two words
 * (the session's key, the number of runs before this one) to its output, for the runtime's tests.
 * Model: no inputs; output k i64[2]. */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

__attribute__((visibility("default"))) const int64_t mie_abi[] = {
    MIE_ABI_TABLE_MAGIC, 9, 0 /* arena */, 0 /* weights */, 0, 1, 8 /* i64 */, 1, 2 /* k */};

__attribute__((visibility("default"))) int32_t mie_entry(const mie_kernel_env *env, void *const *args) {
  (void)env;
  int64_t *k = (int64_t *)args[0];
  const uint64_t *key = (const uint64_t *)args[3]; /* [0] k, [1] arena, [2] weights, [3] random key */
  k[0] = (int64_t)key[0];
  k[1] = (int64_t)key[1];
  return 0;
}
