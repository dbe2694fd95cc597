/*
 * mie_kernel_abi.h - the stable C ABI between the mie runtime and generated code.
 *
 * The code generator hard-codes the layout of mie_kernel_env (field offsets 0, 4, 8, 16, 24, 32, 40, 48 on LP64)
 * and of mie_gpu_api (0, 8, 16, 24, 32), so any
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

#define MIE_KERNEL_ABI_VERSION 4
/* Oldest code ABI this runtime still runs: version 1 code reads only the fields up to parallel_for and
   never calls the profile hook; version 1 and 2 code may lack the ABI table below; version 3 code reads no
   field past `profile` (cpu code may keep declaring 3: ABI 4 only added the GPU fields). */
#define MIE_KERNEL_ABI_MIN_VERSION 1
/* What cpu code declares: ABI 4 added only fields cpu code never reads, and declaring 3 keeps cpu packages
   loadable by runtimes that predate ABI 4. cuda targets declare MIE_KERNEL_ABI_VERSION. */
#define MIE_KERNEL_ABI_CPU_VERSION 3

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

/* Since ABI 4: what the host code of a cuda target calls to run GPU work (docs/package-format.md, "CUDA
   targets"). Every call works on the session's CUDA context and stream; none blocks on the device. The
   runtime records the CUDA error behind any non-zero result and reports it with the entry's failure. */
#define MIE_GPU_API_VERSION 1
typedef struct mie_gpu_api {
  uint32_t version; /* MIE_GPU_API_VERSION */
  /* The kernel `name` of module `module` (an index into the code object's mie_gpu_modules table), NULL
     when the module has no such kernel or the index is out of range. Cached: later calls are a lookup. */
  void *(*get_function)(void *gpu_ctx, int32_t module, const char *name);
  /* cuLaunchKernel on the session's stream; params: one pointer to each kernel argument. 0 = ok. */
  int32_t (*launch)(void *gpu_ctx, void *function, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                    uint32_t by, uint32_t bz, uint32_t shared_bytes, void **params);
  /* Device-to-device copy / byte fill on the session's stream, asynchronous. 0 = ok. */
  int32_t (*memcpy_d2d)(void *gpu_ctx, void *dst, const void *src, int64_t bytes);
  int32_t (*memset_d8)(void *gpu_ctx, void *dst, uint8_t value, int64_t bytes);
} mie_gpu_api;

/* Since ABI 4 the host code object of a cuda target also exports, with default visibility, read-only
   data named MIE_GPU_MODULES_SYMBOL: the GPU code images the runtime loads (cuModuleLoadData) on the
   session's context when the session is created. `image` points into the code object itself. */
#define MIE_GPU_MODULES_SYMBOL "mie_gpu_modules"
#define MIE_GPU_MODULES_MAGIC 0x003155504745494DLL /* the bytes "MIEGPU1\0" read as a little-endian int64 */
#define MIE_GPU_MODULE_CUBIN 0
#define MIE_GPU_MODULE_PTX 1 /* NUL-terminated text; `size` counts the NUL */
struct mie_gpu_module {
  const void *image;
  int64_t size;
  int32_t format; /* MIE_GPU_MODULE_CUBIN or MIE_GPU_MODULE_PTX */
  int32_t reserved;
};
struct mie_gpu_module_table {
  int64_t magic; /* MIE_GPU_MODULES_MAGIC */
  int64_t count;
  struct mie_gpu_module modules[];
};

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
  /* Since ABI 4; both NULL for cpu targets. gpu_ctx is passed back to every gpu call. */
  void *gpu_ctx;
  const struct mie_gpu_api *gpu;
} mie_kernel_env;

/* Exported (visibility default) by every code object (cpu targets and the host side of cuda targets):
   int32_t mie_entry(const mie_kernel_env *env, void *const *args);
   args = [inputs in manifest order..., outputs in manifest order..., arena base (arena_bytes, 64-byte
   aligned, may be NULL when arena_bytes == 0), weights base (64-byte aligned, read-only, NULL when the
   weights section is empty)]. Returns 0 on success; any other value is reported as a kernel failure.
   For a cuda target every one of these pointers is a device pointer: the runtime copies the inputs to
   the device before the call and the outputs back after it, and synchronizes the stream. */
typedef int32_t (*mie_entry_fn)(const mie_kernel_env *env, void *const *args);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MIE_KERNEL_ABI_H */
