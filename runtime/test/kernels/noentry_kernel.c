/* A code object that loads fine but does not export mie_entry. */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

__attribute__((visibility("default"))) int32_t not_the_entry(const mie_kernel_env *env, void *const *args) {
  (void)env;
  (void)args;
  return 0;
}

/* The test model's ABI table (see test_kernel.c), so that a package naming not_the_entry as its entry runs. */
__attribute__((visibility("default"))) const int64_t mie_abi[] = {
    MIE_ABI_TABLE_MAGIC, 20, 512, 256, 2, 2, 1, 2, 2, 64, 7, 1, 1, 1, 2, 2, 64, 1, 1, 2};
