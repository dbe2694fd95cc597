/*
 * mie_kernel_abi.h - the stable C ABI between the mie runtime and generated code.
 *
 * The code generator hard-codes the layout of mie_kernel_env (field offsets 0, 4, 8, 16, 24, 32, 40, 48 on LP64),
 * of mie_gpu_api (0, 8, 16, 24, 32, 40, 48) and of the library call descriptors below, so any
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

#define MIE_KERNEL_ABI_VERSION 8
/* Oldest code ABI this runtime still runs: version 1 code reads only the fields up to parallel_for and
   never calls the profile hook; version 1 and 2 code may lack the ABI table below; version 3 code reads no
   field past `profile` (cpu code may keep declaring 3: ABI 4 only added the GPU fields). */
#define MIE_KERNEL_ABI_MIN_VERSION 1
/* What cpu code declares: ABI 4 added only fields cpu code never reads, and declaring 3 keeps cpu packages
   loadable by runtimes that predate ABI 4. cuda targets declare 4. cpu code that draws random numbers
   declares MIE_KERNEL_ABI_RANDOM_VERSION: it reads the random key slot of `args` (below), which
   runtimes before ABI 5 do not pass. */
#define MIE_KERNEL_ABI_CPU_VERSION 3
#define MIE_KERNEL_ABI_RANDOM_VERSION 5
/* What code that calls runtime services (mie_host_api below: image decoding) declares: ABI 6 added the
   host fields of mie_kernel_env it reads (and it may read the random key, which ABI 5 added). */
#define MIE_KERNEL_ABI_HOST_VERSION 6
/* What cuda host code declares: ABI 4 added the GPU fields it reads; it reads no random key. */
#define MIE_KERNEL_ABI_CUDA_VERSION 4
/* What code for every shape of a model's symbolic dims declares (package format 4, a target without
   "dims"; docs/dynamic-shapes.md): ABI 7 added, after the random key slot of mie_entry's `args`, a
   pointer to the run's symbol values (int64_t, in the order of the manifest's "symbols"), and such
   code exports, with default visibility, `int64_t MIE_ARENA_BYTES_SYMBOL(const int64_t *dims)`: the
   arena bytes a run with those values needs, which the runtime allocates (and grows) before the
   run. Its ABI table has -1 for the arena bytes and for every symbolic dim of an input or output. */
#define MIE_KERNEL_ABI_SYMBOLS_VERSION 7
#define MIE_ARENA_BYTES_SYMBOL "mie_arena_bytes"
/* What code that checks values against the model's declared shapes at run time declares (ms.check; a
   Slice's starts or a Pad's pads given as graph inputs, docs/dynamic-shapes.md): ABI 8 added
   mie_host_api::check_failed (host api version 2), which it calls. */
#define MIE_KERNEL_ABI_CHECK_VERSION 8
typedef int64_t (*mie_arena_bytes_fn)(const int64_t *dims);

/* Since ABI 5 the runtime passes, as the last slot of mie_entry's `args`, a pointer to the run's random
   key: two uint64_t, the session's 64-bit Philox key (random at session creation, or
   mie_session_set_random_seed's) and the number of runs before this one. Code that draws random numbers
   (docs/random.md) takes it as its last entry argument; other code ignores the slot. */

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
/* Version 2 appended `matmul` and `conv2d` (library calls: cuBLASLt, cuDNN); version 1 code never reads past
   memset_d8, so every version 2 table serves it. */
#define MIE_GPU_API_VERSION 2

/* Library call descriptors (since gpu api 2). Constant data of the host code object, passed by pointer;
   every field is 8 bytes (offsets in brackets, which the code generator hard-codes). Matrices and
   images are dense row-major / NCHW buffers of one element type `dtype` (the mie_dtype of mie_rt.h:
   f32, f16 or bf16); products are summed in f32. */
#define MIE_GPU_EPILOGUE_NONE 0
#define MIE_GPU_EPILOGUE_BIAS 1      /* + bias[n], one value per column of d */
#define MIE_GPU_EPILOGUE_RELU 2
#define MIE_GPU_EPILOGUE_BIAS_RELU 3
#define MIE_GPU_EPILOGUE_GELU 4      /* the tanh approximation of GELU (cuBLASLt's) */
#define MIE_GPU_EPILOGUE_BIAS_GELU 5
/* d[b] = epilogue(alpha * op(a[b]) * op(b[b]) (+ residual[b])), b < batch; the residual is added before the
   activation. a is [m, k] ([k, m] with trans_a), b is [k, n] ([n, k] with trans_b), d and residual [m, n]. */
struct mie_gpu_matmul_desc {
  int64_t dtype;                          /* [0] */
  int64_t batch;                          /* [8]  >= 1 */
  int64_t m, n, k;                        /* [16] [24] [32] */
  int64_t trans_a, trans_b;               /* [40] [48] 0 or 1 */
  int64_t stride_a, stride_b, stride_d;   /* [56] [64] [72] elements between batch entries (d's also the
                                                            residual's); 0: one matrix for every entry */
  int64_t epilogue;                       /* [80] MIE_GPU_EPILOGUE_* */
  int64_t residual;                       /* [88] 1: a residual operand is added */
  double alpha;                           /* [96] */
};
#define MIE_GPU_ACTIVATION_NONE 0
#define MIE_GPU_ACTIVATION_RELU 1
/* y = activation(conv(x, w) + bias[k] + residual) with x [n, c, h, w], w [k, c / groups, r, s], y and
   residual [n, k, out_h, out_w]; padding is the same on both sides of each dimension. */
struct mie_gpu_conv2d_desc {
  int64_t dtype;                          /* [0] */
  int64_t n, c, h, w;                     /* [8] [16] [24] [32] */
  int64_t k, r, s;                        /* [40] [48] [56] */
  int64_t out_h, out_w;                   /* [64] [72] */
  int64_t stride_h, stride_w;             /* [80] [88] */
  int64_t pad_h, pad_w;                   /* [96] [104] */
  int64_t dilation_h, dilation_w;         /* [112] [120] */
  int64_t groups;                         /* [128] */
  int64_t activation;                     /* [136] MIE_GPU_ACTIVATION_* */
  int64_t bias, residual;                 /* [144] [152] 1: the operand is present */
};

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
  /* Since version 2 [40]: the product of `desc` through cuBLASLt on the session's stream (bias and residual
     NULL when the descriptor has none). The plan (layouts, heuristic's algorithm) is made on the first call
     with a descriptor and cached; the workspace is the session's. 0 = ok. */
  int32_t (*matmul)(void *gpu_ctx, const struct mie_gpu_matmul_desc *desc, const void *a, const void *b,
                    const void *bias, const void *residual, void *d);
  /* Since version 2 [48]: the convolution of `desc` through cuDNN, likewise planned once per descriptor. */
  int32_t (*conv2d)(void *gpu_ctx, const struct mie_gpu_conv2d_desc *desc, const void *x, const void *w,
                    const void *bias, const void *residual, void *y);
} mie_gpu_api;

/* Since gpu api 2 host code that calls the libraries exports, with default visibility, an int64_t named
   MIE_GPU_LIBRARIES_SYMBOL: which libraries it calls. The runtime loads them when the session is created
   and refuses the session, naming the library, where one is missing; code without the symbol calls none. */
#define MIE_GPU_LIBRARIES_SYMBOL "mie_gpu_libraries"
#define MIE_GPU_LIBRARY_CUBLASLT 1
#define MIE_GPU_LIBRARY_CUDNN 2

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

/* Since ABI 6: services of the runtime that generated code calls (docs/image-decoding.md). A call that
   fails records its message in host_ctx and returns normally; the runtime fails the run with that message
   once the entry returns (so no status travels through the generated code). */
#define MIE_HOST_API_VERSION 2
#define MIE_PIXEL_FORMAT_RGB 0
#define MIE_PIXEL_FORMAT_BGR 1
#define MIE_PIXEL_FORMAT_GRAYSCALE 2
typedef struct mie_host_api {
  uint32_t version; /* MIE_HOST_API_VERSION */
  /* [8] Decodes the image file encoded[0, size) (JPEG, PNG, BMP, PNM, TIFF, WebP or JPEG 2000, told by its
     first bytes) into out, uint8 [height, width, channels] (channels 3 for RGB/BGR, 1 for grayscale). An
     image of another size, or data that does not decode, is a failure (out is then zero-filled); `node` (a
     NUL-terminated name, the ONNX node) prefixes its message. */
  void (*decode_image)(void *host_ctx, const uint8_t *encoded, int64_t size, uint8_t *out, int64_t height,
                       int64_t width, int64_t channels, int64_t pixel_format, const char *node);
  /* [16] Since version 2 (ABI 8): a run-time check of the model failed (ms.check: values that disagree with
     a shape the model declares); `message` (NUL-terminated, naming the ONNX node) says which. The code goes
     on, memory-safe, and the runtime fails the run with the message. */
  void (*check_failed)(void *host_ctx, const char *message);
} mie_host_api;

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
  /* Since ABI 6; set for cpu targets (NULL for cuda ones). host_ctx is passed back to every host call. */
  void *host_ctx;
  const struct mie_host_api *host;
} mie_kernel_env;

/* Exported (visibility default) by every code object (cpu targets and the host side of cuda targets):
   int32_t mie_entry(const mie_kernel_env *env, void *const *args);
   args = [inputs in manifest order..., outputs in manifest order..., arena base (arena_bytes, 64-byte
   aligned, may be NULL when arena_bytes == 0), weights base (64-byte aligned, read-only, NULL when the
   weights section is empty), since ABI 5 the random key (two uint64_t, above)]. Returns 0 on success; any other value is reported as a kernel failure.
   For a cuda target every one of these pointers is a device pointer: the runtime copies the inputs to
   the device before the call and the outputs back after it, and synchronizes the stream. */
typedef int32_t (*mie_entry_fn)(const mie_kernel_env *env, void *const *args);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MIE_KERNEL_ABI_H */
