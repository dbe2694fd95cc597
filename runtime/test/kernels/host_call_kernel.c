/* A hand-written stand-in for generated code that calls runtime services (kernel ABI 6 and 8): ImageDecoder's
 * kernel, `env->host->decode_image(env->host_ctx, ...)` on its input, for the runtime's tests; bytes that
 * start with "CHECK" also fail an ms.check (`env->host->check_failed`, host api version 2) first.
 * Model: input bytes u8[64]; output image u8[2, 3, 3] (a 3x2 RGB image). */
#include <stdint.h>

#include "mie/mie_kernel_abi.h"

__attribute__((visibility("default"))) const int64_t mie_abi[] = {
    MIE_ABI_TABLE_MAGIC, 14, 0 /* arena */, 0 /* weights */, 1, 1, 9 /* u8 */, 1, 64 /* bytes */,
    9 /* u8 */, 3, 2, 3, 3 /* image */};

__attribute__((visibility("default"))) int32_t mie_entry(const mie_kernel_env *env, void *const *args) {
  if (env->abi_version < 6 || !env->host || env->host->version < 1) return 3;
  const uint8_t *bytes = (const uint8_t *)args[0];
  if (bytes[0] == 'C' && bytes[1] == 'H' && bytes[2] == 'E' && bytes[3] == 'C' && bytes[4] == 'K') {
    if (env->abi_version < 8 || env->host->version < 2) return 4;
    env->host->check_failed(env->host_ctx, "Slice node 'cut': the run's starts do not give the declared shape");
  }
  env->host->decode_image(env->host_ctx, (const uint8_t *)args[0], 64, (uint8_t *)args[1], 2, 3, 3,
                          MIE_PIXEL_FORMAT_RGB, "decode");
  return 0; /* a failed decode is the runtime's to report */
}
