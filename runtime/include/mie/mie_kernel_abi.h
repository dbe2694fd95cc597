/*
 * mie_kernel_abi.h - the stable C ABI between the mie runtime and generated code.
 *
 * The code generator hard-codes the layout of mie_kernel_env (field offsets 0, 4, 8, 16, 24, 32 on LP64), so any
 * change here must bump MIE_KERNEL_ABI_VERSION and the "abi_version" every package target declares.
 * Generated code never links against the runtime: everything it needs arrives through this table, which
 * keeps code objects free of undefined runtime symbols and loadable the same way on every target.
 */
#ifndef MIE_KERNEL_ABI_H
#define MIE_KERNEL_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MIE_KERNEL_ABI_VERSION 3
/* Oldest code ABI this runtime still runs: version 1 code reads only the fields up to parallel_for and
   never calls the profile hook; version 1 and 2 code may lack the ABI table below. */
#define MIE_KERNEL_ABI_MIN_VERSION 1

/* Since ABI 3 every cpu code object also exports, with default visibility, a read-only array of int64_t
   named MIE_ABI_SYMBOL: the facts its entry was compiled for. The runtime compares them with the manifest
   before it allocates the arena or runs anything, and refuses a package where they disagree (a manifest
   that is wrong about them would otherwise make the code read or write outside the caller's buffers, the
   arena or the weights). Words:
     [0] MIE_ABI_TABLE_MAGIC   [1] number of words in the table   [2] arena bytes   [3] weights bytes
     [4] number of inputs      [5] number of outputs
     then each input, then each output: dtype (the mie_dtype value of mie_rt.h), rank, rank dimensions. */
#define MIE_ABI_SYMBOL "mie_abi"
#define MIE_ABI_TABLE_MAGIC 0x003149424145494DLL /* the bytes "MIEABI1\0" read as a little-endian int64 */
#define MIE_ABI_TABLE_HEADER_WORDS 6

/* One chunk of a parallel loop: iterations [begin, end). */
typedef void (*mie_parallel_body_fn)(void *ctx, int64_t begin, int64_t end);

/* Called by generated code around each kernel launch of the entry: phase 0 before the kernel starts,
   1 after it has finished (its parallel loops joined). `kernel` indexes the target's manifest "kernels"
   list. Always on the calling thread. */
typedef void (*mie_profile_fn)(void *ctx, int32_t kernel, int32_t phase);

typedef struct mie_kernel_env {
  uint32_t abi_version; /* MIE_KERNEL_ABI_VERSION */
  uint32_t num_threads; /* threads the pool runs, >= 1 */
  void *pool;           /* opaque, passed back to parallel_for */
  /* Runs body(ctx, b, e) over disjoint chunks covering [0, count), in parallel, returns when all are done.
     The calling thread participates. Safe to call with count <= 0 (no-op).
     grain > 0: every chunk starts at a multiple of grain and is a multiple of grain long (the last chunk
     may be shorter), so vectorized bodies can rely on aligned chunk starts. grain <= 0: the runtime picks.
     A body may call parallel_for again (nested calls run inline on the calling thread). */
  void (*parallel_for)(void *pool, int64_t count, int64_t grain, mie_parallel_body_fn body, void *ctx);
  /* Since ABI 2. NULL profile: no hook calls (the generated code tests it before each call). */
  void *profile_ctx;
  mie_profile_fn profile;
} mie_kernel_env;

/* Exported (visibility default) by every cpu code object:
   int32_t mie_entry(const mie_kernel_env *env, void *const *args);
   args = [inputs in manifest order..., outputs in manifest order..., arena base (arena_bytes, 64-byte
   aligned, may be NULL when arena_bytes == 0), weights base (64-byte aligned, read-only, NULL when the
   weights section is empty)]. Returns 0 on success; any other value is reported as a kernel failure. */
typedef int32_t (*mie_entry_fn)(const mie_kernel_env *env, void *const *args);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MIE_KERNEL_ABI_H */
