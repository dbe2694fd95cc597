/* A code object that loads fine but does not export mie_entry. */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

__attribute__((visibility("default"))) int32_t not_the_entry(const mie_kernel_env *env, void *const *args) {
  (void)env;
  (void)args;
  return 0;
}
