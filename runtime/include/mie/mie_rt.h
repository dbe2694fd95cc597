/*
 * mie_rt.h - C API of the mie runtime: open and validate a .mie package, create a session, run it.
 *
 * Conventions:
 *  - Every function returns a mie_status; MIE_OK is 0. On failure, mie_last_error() returns a precise,
 *    human-readable message for the failing call on this thread (each API call clears it on entry).
 *  - Handles are opaque. Strings and arrays returned through info structs stay valid until the package is
 *    closed (a package stays alive while sessions created from it exist, even after mie_package_close).
 *  - One session must not be run from two threads at once (concurrent calls are serialized); different
 *    sessions are fully independent.
 */
#ifndef MIE_RT_H
#define MIE_RT_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define MIE_RT_API
#elif defined(MIE_RT_BUILDING)
#define MIE_RT_API __attribute__((visibility("default")))
#else
#define MIE_RT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The project's version, defined here once: mie_runtime_version() returns it, the tools print it
   (--version), cmake/MieVersion.cmake and the Python wheel's metadata read this line. */
#define MIE_RT_VERSION_STRING "0.1.0"
#define MIE_PACKAGE_FORMAT_VERSION                                                                 \
  4 /* the newest format this runtime reads (it reads 1 to 3 too) */

/* Limits on sizes read from files (a package's manifest, a tensor file), checked before anything of that
   size is allocated, so a few bytes declaring a huge size are an error rather than an allocation failure.
   docs/package-format.md lists where each applies. */
#define MIE_MAX_MANIFEST_BYTES (UINT64_C(64) << 20) /* a package's JSON manifest */
#define MIE_MAX_RANK 64                             /* dimensions of one tensor (numpy's own limit) */
#define MIE_MAX_TENSOR_BYTES (UINT64_C(1) << 40)    /* one input or output tensor */
#define MIE_MAX_ARENA_BYTES (UINT64_C(1) << 40)     /* a target's arena_bytes */
#define MIE_MAX_NPY_HEADER_BYTES (UINT64_C(1) << 20) /* the header dict of an .npy file */
#define MIE_MAX_TENSOR_FILE_BYTES (UINT64_C(1) << 41) /* an .npy or .pb file read by mie_tensor_io */

typedef enum mie_status {
  MIE_OK = 0,
  MIE_ERR_INVALID_ARGUMENT = 1, /* NULL handle, index out of range, bad option */
  MIE_ERR_IO = 2,               /* file cannot be opened, read, mapped or written */
  MIE_ERR_INVALID_PACKAGE = 3,  /* the package failed validation */
  MIE_ERR_UNSUPPORTED = 4,      /* valid package, but nothing here can run it (arch, CUDA, ABI version) */
  MIE_ERR_LOAD = 5,             /* the code object could not be loaded or lacks its entry symbol */
  MIE_ERR_OUT_OF_MEMORY = 6,   /* also: threads could not be started */
  MIE_ERR_KERNEL = 7,           /* the generated entry returned non-zero, or a runtime service it called failed
                                   (an image that does not decode: docs/image-decoding.md) */
  MIE_ERR_NOT_FOUND = 8,        /* named target does not exist */
  MIE_ERR_SIGNATURE = 9         /* refused by the signature policy: unsigned where a signature is required,
                                   signed by a key that is not trusted, or a signature that does not verify */
} mie_status;

/* Element types. Values are stable (they are part of the ABI). */
typedef enum mie_dtype {
  MIE_DTYPE_INVALID = 0,
  MIE_DTYPE_F32 = 1,
  MIE_DTYPE_F16 = 2,
  MIE_DTYPE_BF16 = 3,
  MIE_DTYPE_F64 = 4,
  MIE_DTYPE_I8 = 5,
  MIE_DTYPE_I16 = 6,
  MIE_DTYPE_I32 = 7,
  MIE_DTYPE_I64 = 8,
  MIE_DTYPE_U8 = 9,
  MIE_DTYPE_BOOL = 10,
  MIE_DTYPE_U16 = 11,
  MIE_DTYPE_U32 = 12,
  MIE_DTYPE_U64 = 13,
  /* 8-bit and 4-bit floats and 4-bit and 2-bit integers (ONNX FLOAT8E4M3FN ... UINT2): one byte per
     element in every buffer, the value in the low bits (4 or 2 bits for F4E2M1, I4, U4, I2, U2; signed
     values two's complement in those bits) and the bits above it zero in outputs, as ml_dtypes stores
     them. ONNX TensorProto files pack the 4-bit and 2-bit ones; the .pb readers and writers unpack and
     pack them. */
  MIE_DTYPE_F8E4M3FN = 14,
  MIE_DTYPE_F8E4M3FNUZ = 15,
  MIE_DTYPE_F8E5M2 = 16,
  MIE_DTYPE_F8E5M2FNUZ = 17,
  MIE_DTYPE_F8E8M0 = 18,
  MIE_DTYPE_F4E2M1 = 19,
  MIE_DTYPE_I4 = 20,
  MIE_DTYPE_U4 = 21,
  MIE_DTYPE_I2 = 22,
  MIE_DTYPE_U2 = 23
} mie_dtype;
#define MIE_DTYPE_LAST MIE_DTYPE_U2 /* the largest valid mie_dtype value */

typedef struct mie_package mie_package;
typedef struct mie_session mie_session;

typedef struct mie_tensor_info {
  const char *name;
  mie_dtype dtype;
  uint32_t rank;
  const int64_t *dims;   /* rank entries, >= 0, or -1 for a symbolic dim (NULL when rank == 0) */
  uint64_t num_elements; /* 0 when a dim is symbolic */
  uint64_t
      byte_size; /* num_elements * element size: the size of the caller's buffer (0: symbolic) */
} mie_tensor_info;

typedef struct mie_target_info {
  const char *name;     /* "x86-64", "aarch64", "cuda-sm_90", ... */
  const char *kind;     /* "cpu" or "cuda" */
  const char *arch;     /* "x86_64", "aarch64", "sm_90", ... */
  const char *features; /* LLVM-style feature list, e.g. "+avx2,+fma" (may be empty) */
  const char *format;   /* "elf-shared-object" (for cuda targets: their host code object) */
  const char *entry;    /* exported entry symbol, "mie_entry" */
  uint32_t abi_version;
  uint64_t arena_bytes;
  uint64_t code_size;
  int32_t runnable_here; /* 1 when mie_session_create could pick or accept this target on this host
                            (mie_package_target_check says why not) */
} mie_target_info;

typedef struct mie_session_options {
  uint32_t num_threads; /* 0 = the CPUs this process may run on */
  const char *target;   /* target name, or a kind ("cpu", "cuda" or "gpu": the best runnable target of that
                           kind); NULL = the environment variable MIE_TARGET (a name or kind) when set, else
                           the best runnable target for this host: a cuda target when one runs here, else the
                           most specialized cpu target */
} mie_session_options;

/* Runtime version and messages. */
MIE_RT_API const char *mie_runtime_version(void);
MIE_RT_API const char *mie_status_string(mie_status status);
MIE_RT_API const char *mie_last_error(void);
MIE_RT_API const char *mie_dtype_name(mie_dtype dtype); /* "f32", ...; "invalid" for unknown values */
MIE_RT_API size_t mie_dtype_size(mie_dtype dtype);      /* bytes per element; 0 for unknown values */

/* The CUDA device cuda targets would run on: MIE_OK with *out_description "NVIDIA H200, sm_90, device 0,
   driver 13000" (valid until the next call on this thread), or MIE_ERR_UNSUPPORTED with the reason in
   mie_last_error ("no CUDA driver (libcuda.so.1: ...)", "no CUDA device"). Loads the driver on first use. */
MIE_RT_API mie_status mie_cuda_device(const char **out_description);

/* Packages. mie_package_open maps the file read-only (never copied; from 2 MiB on at a 2 MiB-aligned address
   advised for transparent huge pages) and validates all of it before returning. Sessions share the mapping.
   Replace a package by renaming a new file over it, as mie-compile does, never by rewriting it in place. */
MIE_RT_API mie_status mie_package_open(const char *path, mie_package **out_package);
MIE_RT_API mie_status mie_package_close(mie_package *package); /* NULL is a no-op */
MIE_RT_API mie_status mie_package_model_name(const mie_package *package, const char **out_name);
MIE_RT_API mie_status mie_package_precision(const mie_package *package, const char **out_precision);
MIE_RT_API mie_status mie_package_compiler(const mie_package *package, const char **out_compiler);
MIE_RT_API mie_status mie_package_manifest_json(const mie_package *package, const char **out_json,
                                                size_t *out_size);
MIE_RT_API mie_status mie_package_weights(const mie_package *package, const void **out_data,
                                          uint64_t *out_size);
MIE_RT_API mie_status mie_package_num_inputs(const mie_package *package, uint32_t *out_count);
MIE_RT_API mie_status mie_package_num_outputs(const mie_package *package, uint32_t *out_count);
MIE_RT_API mie_status mie_package_input_info(const mie_package *package, uint32_t index,
                                             mie_tensor_info *out_info);
MIE_RT_API mie_status mie_package_output_info(const mie_package *package, uint32_t index,
                                              mie_tensor_info *out_info);
/* Outputs with data-dependent shapes (NonZero, Unique, Compress, NonMaxSuppression, TopK with a K computed at
   run time; package format 3): mie_package_output_info gives the upper bound the caller's buffer is sized
   for, this function the dims whose real extent is known only after a run (*out_count of them at *out_dims,
   ascending; 0 and NULL for an output of static shape). mie_session_output_shape gives the real shape. */
MIE_RT_API mie_status mie_package_output_dynamic_dims(const mie_package *package, uint32_t index,
                                                      uint32_t *out_count, const uint32_t **out_dims);
/* Symbolic dims (package format 4, docs/dynamic-shapes.md): a model compiled with its dynamic axes
   kept
   ("batch", "seq") names them here, with the range of values the package accepts. An input or
   output dim that is symbolic is -1 in mie_tensor_info.dims (num_elements and byte_size are then 0:
   the run's shapes decide them; mie_session_set_input_shapes binds them and mie_session_input_shape
   / mie_session_output_shape give them). mie_package_input_symbolic_dim / _output_symbolic_dim give
   dim `dim`'s expression over the symbols in MLIR's affine syntax, "s<i>" being symbol i ("s0", "s0
   * s1",
   "(s1 - 1) floordiv 2 + 1"; an input's is always one symbol), or "" for a static dim. */
MIE_RT_API mie_status mie_package_num_symbols(const mie_package *package, uint32_t *out_count);
MIE_RT_API mie_status mie_package_symbol_info(const mie_package *package, uint32_t index,
                                              const char **out_name, int64_t *out_min,
                                              int64_t *out_max);
/* Whether symbol `index` is a value symbol: *out_input = the input whose element *out_element
   (row-major; an integer tensor of static shape) is its value, bound from a run's data
   (mie_session_bind_inputs); -1 for a symbol an input's dim binds. */
MIE_RT_API mie_status mie_package_symbol_value_of(const mie_package *package, uint32_t index,
                                                  int32_t *out_input, uint64_t *out_element);
MIE_RT_API mie_status mie_package_input_symbolic_dim(const mie_package *package, uint32_t index,
                                                     uint32_t dim, const char **out_expr);
MIE_RT_API mie_status mie_package_output_symbolic_dim(const mie_package *package, uint32_t index,
                                                      uint32_t dim, const char **out_expr);
/* The value of each symbol target `index`'s code was compiled for (*out_count = the number of
   symbols; 0 and NULL in a package without symbols). Targets of one name differ only in these: a
   session runs the one matching the bound shapes. */
MIE_RT_API mie_status mie_package_target_dims(const mie_package *package, uint32_t index,
                                              uint32_t *out_count, const int64_t **out_dims);
MIE_RT_API mie_status mie_package_num_targets(const mie_package *package, uint32_t *out_count);
MIE_RT_API mie_status mie_package_target_info(const mie_package *package, uint32_t index,
                                              mie_target_info *out_info);
/* Whether mie_session_create could pick target `index` on this host and, when not, why (*out_reason
   "" when it could; otherwise e.g. "no CUDA driver (libcuda.so.1: ...)", "no CUDA device", "device sm_80
   is older than the package's sm_90", "needs CPU feature 'avx512f' which this host lacks"). The reason
   stays valid until the next call of this function on the same thread. Either out pointer may be NULL. */
MIE_RT_API mie_status mie_package_target_check(const mie_package *package, uint32_t index,
                                               int32_t *out_runnable, const char **out_reason);
/* Arena bytes of a target (NULL = the target mie_session_create would pick); in a package with symbolic
   dims the largest of its specializations (a session's arena grows to what the shapes it runs need). */
MIE_RT_API mie_status mie_package_arena_bytes(const mie_package *package, const char *target,
                                              uint64_t *out_bytes);

/* Signatures (docs/security.md). A package may end in an Ed25519 signature over its header and manifest,
   which pin every section through their SHA-256s. mie_package_open_with_options takes the keys to trust
   and whether a signature is required; mie_package_open is the same with no keys and no requirement.
   Both also obey the environment: MIE_TRUSTED_KEYS, a ':'-separated list of public key files (NAME.pub
   as mie-sign writes them), adds those keys and requires a signature by one of them, so that a deployment
   can impose the policy on programs that do not set it. With any trusted key given, a signed package must
   be signed by one of them; a signature always has to verify. Every refusal happens while the package is
   opened, before any of its code is loaded. */
#define MIE_PUBLIC_KEY_BYTES 32

typedef struct mie_package_options {
  uint32_t struct_size;        /* sizeof(mie_package_options) as the caller was compiled: set by _init */
  uint32_t num_trusted_keys;   /* keys in trusted_keys */
  const uint8_t *trusted_keys; /* num_trusted_keys Ed25519 public keys, MIE_PUBLIC_KEY_BYTES each, back to back */
  int32_t require_signature;   /* nonzero: refuse a package that is not signed by a trusted key */
} mie_package_options;

typedef enum mie_signature_state {
  MIE_SIGNATURE_NONE = 0,    /* not signed */
  MIE_SIGNATURE_PRESENT = 1, /* signed, and the signature verifies under the key it names, but no trusted
                                keys were given: nothing says whose key that is */
  MIE_SIGNATURE_TRUSTED = 2  /* signed by one of the trusted keys, and verified */
} mie_signature_state;

MIE_RT_API mie_status mie_package_options_init(mie_package_options *options);
MIE_RT_API mie_status mie_package_open_with_options(const char *path, const mie_package_options *options,
                                                    mie_package **out_package);
/* The signature state and, unless NONE, the signer's key (out_key may be NULL). */
MIE_RT_API mie_status mie_package_signature(const mie_package *package, mie_signature_state *out_state,
                                            uint8_t out_key[MIE_PUBLIC_KEY_BYTES]);
/* Reads a public key file (one line: "mie-ed25519-public " and 64 hex digits). MIE_ERR_IO when it cannot
   be read, MIE_ERR_INVALID_ARGUMENT when it is not a valid key; the message names the file. */
MIE_RT_API mie_status mie_public_key_read(const char *path, uint8_t out_key[MIE_PUBLIC_KEY_BYTES]);

/* Sessions: one loaded code object, one arena, one thread pool. A session of a cuda target also holds the
   device's primary context, one stream, the arena and the weights in device memory and one device buffer
   per input and output; its runs copy the inputs in and the outputs out, and return when the device is
   done. Its thread pool defaults to one thread (the host code only launches). */
MIE_RT_API mie_status mie_session_options_init(mie_session_options *options);
MIE_RT_API mie_status mie_session_create(mie_package *package, const mie_session_options *options,
                                         mie_session **out_session);
MIE_RT_API mie_status mie_session_destroy(mie_session *session); /* NULL is a no-op */
/* inputs/outputs: one buffer per manifest entry, byte_size bytes each, aligned to the element size.
   The runtime cannot see how large the buffers are: prefer mie_session_run_sized. */
MIE_RT_API mie_status mie_session_run(mie_session *session, const void *const *inputs,
                                      void *const *outputs);
/* mie_session_run with the caller's counts and buffer sizes: num_inputs and num_outputs must be the
   package's counts and input_bytes[i] / output_bytes[i] each tensor's byte_size, else
   MIE_ERR_INVALID_ARGUMENT naming the first mismatch, before any generated code runs. */
MIE_RT_API mie_status mie_session_run_sized(mie_session *session, uint32_t num_inputs,
                                            const void *const *inputs, const uint64_t *input_bytes,
                                            uint32_t num_outputs, void *const *outputs,
                                            const uint64_t *output_bytes);
/* The shapes of the next runs' inputs: input i has ranks[i] dims at dims[i]. A package with
   symbolic dims needs it before its first run (and again whenever the shapes change): every static
   dim must be the model's, every symbolic one inside its symbol's range, and inputs sharing a
   symbol must agree, else MIE_ERR_INVALID_ARGUMENT naming the input, the dim and the symbol;
   MIE_ERR_UNSUPPORTED when the package has no code for those values (it holds code for the values
   of its --specialize options). The arena grows when the shapes need more than it has and is reused
   otherwise. After it, the runs' buffers are sized for these shapes and mie_session_output_shape
   gives the outputs' shapes. A failed call keeps the previous shapes. For a package without symbols
   the shapes must be the manifest's. */
MIE_RT_API mie_status mie_session_set_input_shapes(mie_session *session, uint32_t num_inputs,
                                                   const uint32_t *ranks,
                                                   const int64_t *const *dims);
/* mie_session_set_input_shapes with the inputs' data (data[i] points to input i's elements; data may
   be NULL, or hold NULL for inputs whose values size nothing). A model whose tensors are sized by an
   input's values (a Reshape's shape, a Range's limit, an Expand's shape given as a graph input:
   value symbols, mie_package_symbol_value_of) needs them: the bind reads those elements, checks
   each against its symbol's range and picks the code for the values, as for dims; a run whose
   inputs then hold other values fails with MIE_ERR_INVALID_ARGUMENT naming the input, the element
   and the symbol (bind again). */
MIE_RT_API mie_status mie_session_bind_inputs(mie_session *session, uint32_t num_inputs,
                                              const uint32_t *ranks, const int64_t *const *dims,
                                              const void *const *data);
/* The value the last bind gave symbol `index` (a dim's extent, or a value symbol's value: a
   Reshape's resolved dim). MIE_ERR_INVALID_ARGUMENT before a bind or past the symbols. */
MIE_RT_API mie_status mie_session_symbol_value(const mie_session *session, uint32_t index,
                                               int64_t *out_value);
/* The bound shape of input `index` (the manifest's dims, -1 where symbolic, before a bind). */
MIE_RT_API mie_status mie_session_input_shape(const mie_session *session, uint32_t index,
                                              uint32_t *out_rank, const int64_t **out_dims);
/* The shape of output `index` as the session's last successful run computed it: the manifest's shape with
   every data-dependent dim replaced by its real extent (the manifest's shape before the first run).
   After a run, an output with data-dependent dims occupies the first product(shape) elements of the
   caller's buffer, dense and row-major; the rest of the buffer is unspecified. *out_dims stays valid until
   the session's next run or its destruction (NULL when the rank is 0). */
MIE_RT_API mie_status mie_session_output_shape(const mie_session *session, uint32_t index, uint32_t *out_rank,
                                               const int64_t **out_dims);
MIE_RT_API mie_status mie_session_set_threads(mie_session *session, uint32_t num_threads);
MIE_RT_API mie_status mie_session_num_threads(const mie_session *session, uint32_t *out_threads);
MIE_RT_API mie_status mie_session_target(const mie_session *session, const char **out_target_name);
/* What the session runs on: "cpu" for cpu targets, the CUDA device for cuda targets ("NVIDIA H200, sm_90,
   device 0", followed by "; cuBLASLt <version> (<library>), cuDNN <version> (<library>)" for the libraries its
   code calls). A session that runs a cpu target because the cuda target chosen automatically could not start
   (a GPU library it calls is missing) says so: "cpu; cuda target 'cuda-sm_90' did not start: <error>". Valid
   while the session lives. */
MIE_RT_API mie_status mie_session_device(const mie_session *session, const char **out_device);
MIE_RT_API mie_status mie_session_last_run_ns(const mie_session *session, uint64_t *out_ns);
/* The arena bytes the next run uses: the target's for a package of one shape; for one with symbolic
   dims, what the code chosen for the bound shapes needs (code for every shape computes it from the
   symbols' values), at most the session's arena, which grows to the largest run so far. */
MIE_RT_API mie_status mie_session_arena_bytes(const mie_session *session, uint64_t *out_bytes);
/* Batch slices (docs/dynamic-shapes.md), for packages whose manifest marks a batch symbol (a model that
   computes each sample on its own): a run of a large batch may run the code for every shape over slices
   of it, whose activations stay in the cache. `slice` -1 lets the runtime choose per bind (the default;
   the environment variable MIE_BATCH_SLICE sets a session's default: "auto", "off" or a number), 0 runs
   every batch whole, N > 0 runs a batch of more than N samples in slices of at most N (where N and the
   last slice are sizes the package takes). Applies to the bound shapes at once. */
MIE_RT_API mie_status mie_session_set_batch_slice(mie_session *session, int64_t slice);
/* The samples per slice the bound shapes run in: 0 when a run takes its batch whole. */
MIE_RT_API mie_status mie_session_batch_slice(const mie_session *session, int64_t *out_slice);

/* Profiling. The session's target lists its kernel launches in order (mie_kernel_info; packages from
   compilers that predate the list report 0 kernels). A profiler installed with mie_session_set_profiler
   is called on the thread that runs the session, with phase 0 right before kernel `kernel` starts and
   phase 1 right after it ends; it must be cheap and must not call back into the session. NULL removes
   it. MIE_ERR_UNSUPPORTED when the target's code predates kernel ABI 2 (no hook calls in it). */
typedef struct mie_kernel_info {
  const char *name;  /* generated function, e.g. "main_k3_conv2d" */
  const char *nodes; /* the source (ONNX) nodes it computes, comma-separated; may be "" */
  uint64_t flops;    /* floating-point operations per run as the compiler counted them; 0 = not counted */
} mie_kernel_info;
typedef void (*mie_profile_callback)(void *user, int32_t kernel, int32_t phase);
MIE_RT_API mie_status mie_session_num_kernels(const mie_session *session, uint32_t *out_count);
MIE_RT_API mie_status mie_session_kernel_info(const mie_session *session, uint32_t index,
                                              mie_kernel_info *out_info);
MIE_RT_API mie_status mie_session_set_profiler(mie_session *session, mie_profile_callback callback,
                                               void *user);

/* Debug mode checking the memory plan: with `enable` nonzero every run fills the session's arena with
   0xFF bytes (NaN in every float type) before the first kernel, and after each kernel refills the bytes
   of the buffers that kernel used for the last time; a plan that reused bytes still alive would show as
   NaN in the outputs. Costs a pass over the dead bytes per kernel. MIE_ERR_UNSUPPORTED for code
   predating kernel ABI 2 or packages without the kernels' dead ranges (older compilers). */
MIE_RT_API mie_status mie_session_set_poison_dead_buffers(mie_session *session, int enable);

/* Random numbers (RandomUniform, RandomNormal, Bernoulli, Multinomial, Dropout in training mode;
   docs/random.md): each session draws from its own key, taken from the OS's entropy when it is created,
   and every run draws new numbers. Setting `seed` makes the session's following runs draw the same
   numbers as any session given the same seed (and the same package) after the same number of runs,
   whatever the thread count. Ops with their own ONNX `seed` draw from it instead of the session's key;
   they too vary from run to run and restart here. A no-op for packages without random ops. */
MIE_RT_API mie_status mie_session_set_random_seed(mie_session *session, uint64_t seed);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MIE_RT_H */
