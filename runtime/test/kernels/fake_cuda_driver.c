/* A stand-in for libcuda.so.1 that the runtime tests load through MIE_CUDA_DRIVER, so that the runtime's
 * whole CUDA path (driver loading, device checks, context, stream, device memory, module loading, launches,
 * graph capture, error reporting) runs on machines without a GPU. It implements the driver functions the
 * runtime resolves, on host memory, and checks how they are used:
 *  - device memory is host memory, but every device pointer a copy, fill or kernel touches must lie inside
 *    a live allocation (else CUDA_ERROR_INVALID_VALUE / CUDA_ERROR_ILLEGAL_ADDRESS): host pointers passed as
 *    device pointers are caught;
 *  - memory and launch calls need a current context (CUDA_ERROR_INVALID_CONTEXT otherwise);
 *  - while a stream captures, copies from or to the host and synchronization are refused
 *    (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED) and launches, fills and device copies are recorded;
 *  - a module must be PTX text, and cuModuleGetFunction finds only the kernels its ".entry" lines declare;
 *  - kernels run on the host for the three kernels of cuda_test_kernels.ptx, over the launch's grid and
 *    block (x only), thread by thread, as that PTX computes them.
 * Environment: MIE_FAKE_CUDA_DEVICES (default 1; 0 makes cuInit report CUDA_ERROR_NO_DEVICE, as a real
 * driver without devices does), MIE_FAKE_CUDA_SM (compute capability, default 90), MIE_FAKE_CUDA_FAIL (the
 * name of one function that then fails; "cuLaunchKernel-capturing": launches fail only while a stream
 * captures). mie_fake_cuda_stats() reports what happened; mie_fake_cuda_enqueue() and mie_fake_cuda_on_device()
 * serve the fake cuBLASLt and cuDNN. Not thread-safe
 * beyond what the tests need (one thread at a time). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum {
  OK = 0,
  INVALID_VALUE = 1,
  OUT_OF_MEMORY = 2,
  NOT_INITIALIZED = 3,
  NO_DEVICE = 100,
  INVALID_DEVICE = 101,
  INVALID_IMAGE = 200,
  INVALID_CONTEXT = 201,
  NOT_FOUND = 500,
  ILLEGAL_ADDRESS = 700,
  LAUNCH_FAILED = 719,
  CAPTURE_UNSUPPORTED = 900,
  UNKNOWN = 999
};

struct mie_fake_cuda_stats {
  int64_t live_allocations;
  int64_t primary_ctx_refs;
  int64_t kernel_launches; /* kernels run, directly or in graphs */
  int64_t graph_launches;
  int64_t graphs_instantiated;
  int64_t modules_loaded;
  int64_t htod_copies, dtoh_copies;
};

static struct mie_fake_cuda_stats stats;
static int initialized;

static int env_int(const char *name, int fallback) {
  const char *v = getenv(name);
  return v && v[0] ? atoi(v) : fallback;
}

/* MIE_FAKE_CUDA_FAIL names the function that fails. */
static int failing(const char *fn) {
  const char *v = getenv("MIE_FAKE_CUDA_FAIL");
  return v && strcmp(v, fn) == 0;
}

/* ---- errors ---- */
static const struct {
  CUresult code;
  const char *name, *text;
} errors[] = {
    {OK, "CUDA_SUCCESS", "no error"},
    {INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CAPTURE_UNSUPPORTED, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "operation not permitted when stream is capturing"},
    {UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i)
    if (errors[i].code == error) {
      *name = errors[i].name;
      return OK;
    }
  *name = NULL;
  return INVALID_VALUE;
}

EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i)
    if (errors[i].code == error) {
      *text = errors[i].text;
      return OK;
    }
  *text = NULL;
  return INVALID_VALUE;
}

/* ---- driver and device ---- */
EXPORT CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return OK;
}

EXPORT CUresult cuInit(unsigned flags) {
  if (flags != 0) return INVALID_VALUE;
  if (failing("cuInit")) return UNKNOWN;
  if (env_int("MIE_FAKE_CUDA_DEVICES", 1) <= 0) return NO_DEVICE;
  initialized = 1;
  return OK;
}

EXPORT CUresult cuDeviceGetCount(int *count) {
  if (!initialized) return NOT_INITIALIZED;
  *count = env_int("MIE_FAKE_CUDA_DEVICES", 1);
  return OK;
}

EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  if (!initialized) return NOT_INITIALIZED;
  if (ordinal < 0 || ordinal >= env_int("MIE_FAKE_CUDA_DEVICES", 1)) return INVALID_DEVICE;
  *device = ordinal;
  return OK;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, int device) {
  if (!initialized) return NOT_INITIALIZED;
  snprintf(name, (size_t)len, "Fake GPU %d", device);
  return OK;
}

EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  if (!initialized) return NOT_INITIALIZED;
  (void)device;
  const int sm = env_int("MIE_FAKE_CUDA_SM", 90);
  if (attribute == 75) *value = sm / 10;      /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
  else if (attribute == 76) *value = sm % 10; /* ..._MINOR */
  else return INVALID_VALUE;
  return OK;
}

/* ---- contexts: one primary context; a per-thread stack of current ones ---- */
struct CUctx_st {
  int device;
};
static struct CUctx_st primary;
static __thread struct CUctx_st *current[16];
static __thread int depth;

EXPORT CUresult cuDevicePrimaryCtxRetain(struct CUctx_st **ctx, int device) {
  if (!initialized) return NOT_INITIALIZED;
  if (failing("cuDevicePrimaryCtxRetain")) return OUT_OF_MEMORY;
  primary.device = device;
  ++stats.primary_ctx_refs;
  *ctx = &primary;
  return OK;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  (void)device;
  if (stats.primary_ctx_refs <= 0) return INVALID_CONTEXT;
  --stats.primary_ctx_refs;
  return OK;
}

EXPORT CUresult cuCtxPushCurrent_v2(struct CUctx_st *ctx) {
  if (!ctx || depth == 16) return INVALID_VALUE;
  current[depth++] = ctx;
  return OK;
}

EXPORT CUresult cuCtxPopCurrent_v2(struct CUctx_st **ctx) {
  if (depth == 0) return INVALID_CONTEXT;
  *ctx = current[--depth];
  return OK;
}

static int have_context(void) { return depth > 0 && stats.primary_ctx_refs > 0; }

/* ---- memory ---- */
struct allocation {
  char *base;
  size_t size;
  struct allocation *next;
};
static struct allocation *allocations;

/* Whether [p, p + n) lies inside one live allocation. */
static int on_device(CUdeviceptr p, size_t n) {
  for (struct allocation *a = allocations; a; a = a->next) {
    const uintptr_t b = (uintptr_t)a->base;
    if (p >= b && p - b <= a->size && n <= a->size - (size_t)(p - b)) return 1;
  }
  return 0;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  if (!have_context()) return INVALID_CONTEXT;
  if (bytes == 0) return INVALID_VALUE;
  if (failing("cuMemAlloc")) return OUT_OF_MEMORY;
  struct allocation *a = malloc(sizeof *a);
  if (!a) return OUT_OF_MEMORY;
  a->size = bytes;
  a->base = aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!a->base) {
    free(a);
    return OUT_OF_MEMORY;
  }
  a->next = allocations;
  allocations = a;
  ++stats.live_allocations;
  *ptr = (CUdeviceptr)(uintptr_t)a->base;
  return OK;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr) {
  if (!have_context()) return INVALID_CONTEXT;
  for (struct allocation **a = &allocations; *a; a = &(*a)->next)
    if ((uintptr_t)(*a)->base == ptr) {
      struct allocation *dead = *a;
      *a = dead->next;
      free(dead->base);
      free(dead);
      --stats.live_allocations;
      return OK;
    }
  return INVALID_VALUE;
}

/* ---- streams and graphs: work is done at once, or recorded while capturing ---- */
enum { OP_LAUNCH, OP_D2D, OP_SET, OP_HOST };
enum { K_SCALE, K_ADD_K, K_ROWSUM };
struct op {
  int kind;
  int kernel;
  unsigned grid, block;
  uint64_t args[5]; /* launch: the argument values, copied as CUDA copies them at launch/capture time */
  CUdeviceptr dst, src;
  unsigned char value;
  size_t bytes;
  void (*fn)(void *); /* OP_HOST: work of a fake library (fake_cublaslt.c, fake_cudnn.c) */
  void *arg;
};
struct CUstream_st {
  int capturing;
  struct op *ops;
  size_t num_ops;
};
struct CUgraph_st {
  struct op *ops;
  size_t num_ops;
};
struct CUgraphExec_st {
  struct op *ops;
  size_t num_ops;
};
struct CUfunc_st {
  int kernel;
};
static struct CUfunc_st functions[3] = {{K_SCALE}, {K_ADD_K}, {K_ROWSUM}};

EXPORT CUresult cuStreamCreate(struct CUstream_st **stream, unsigned flags) {
  (void)flags;
  if (!have_context()) return INVALID_CONTEXT;
  *stream = calloc(1, sizeof **stream);
  return *stream ? OK : OUT_OF_MEMORY;
}

EXPORT CUresult cuStreamDestroy_v2(struct CUstream_st *stream) {
  if (!stream) return INVALID_VALUE;
  free(stream->ops);
  free(stream);
  return OK;
}

EXPORT CUresult cuStreamSynchronize(struct CUstream_st *stream) {
  if (!stream) return INVALID_VALUE;
  if (stream->capturing) return CAPTURE_UNSUPPORTED;
  return failing("cuStreamSynchronize") ? ILLEGAL_ADDRESS : OK;
}

static float *f32(uint64_t p) { return (float *)(uintptr_t)p; }

/* Runs one recorded or direct operation. */
static CUresult execute(const struct op *o) {
  if (o->kind == OP_D2D) {
    memmove((void *)(uintptr_t)o->dst, (const void *)(uintptr_t)o->src, o->bytes);
    return OK;
  }
  if (o->kind == OP_SET) {
    memset((void *)(uintptr_t)o->dst, o->value, o->bytes);
    return OK;
  }
  if (o->kind == OP_HOST) {
    o->fn(o->arg);
    return OK;
  }
  ++stats.kernel_launches;
  const uint64_t *a = o->args;
  for (unsigned i = 0; i < o->grid * o->block; ++i) {
    if (o->kernel == K_SCALE) { /* (out, x, w, n, cols) */
      const uint32_t n = (uint32_t)a[3], cols = (uint32_t)a[4];
      if (i >= n) continue;
      if (!on_device(a[0] + 4ull * i, 4) || !on_device(a[1] + 4ull * i, 4) || !on_device(a[2] + 4ull * (i % cols), 4))
        return ILLEGAL_ADDRESS;
      f32(a[0])[i] = f32(a[1])[i] * f32(a[2])[i % cols];
    } else if (o->kernel == K_ADD_K) { /* (y, s, k, n) */
      const uint32_t n = (uint32_t)a[3];
      if (i >= n) continue;
      if (!on_device(a[0] + 4ull * i, 4) || !on_device(a[1] + 4ull * i, 4) || !on_device(a[2], 4))
        return ILLEGAL_ADDRESS;
      f32(a[0])[i] = f32(a[1])[i] + (float)*(const int32_t *)(uintptr_t)a[2];
    } else { /* (out, y, rows, cols) */
      const uint32_t rows = (uint32_t)a[2], cols = (uint32_t)a[3];
      if (i >= rows) continue;
      if (!on_device(a[0] + 4ull * i, 4) || !on_device(a[1] + 4ull * i * cols, 4ull * cols)) return ILLEGAL_ADDRESS;
      float s = 0;
      for (uint32_t c = 0; c < cols; ++c) s += f32(a[1])[i * cols + c];
      f32(a[0])[i] = s;
    }
  }
  return OK;
}

static CUresult submit(struct CUstream_st *stream, const struct op *o) {
  if (!stream->capturing) return execute(o);
  struct op *grown = realloc(stream->ops, (stream->num_ops + 1) * sizeof *grown);
  if (!grown) return OUT_OF_MEMORY;
  stream->ops = grown;
  stream->ops[stream->num_ops++] = *o;
  return OK;
}

EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, struct CUstream_st *stream) {
  if (!have_context() || !stream) return INVALID_CONTEXT;
  if (stream->capturing) return CAPTURE_UNSUPPORTED;
  if (failing("cuMemcpyHtoDAsync")) return UNKNOWN;
  if (!on_device(dst, bytes)) return INVALID_VALUE;
  memcpy((void *)(uintptr_t)dst, src, bytes);
  ++stats.htod_copies;
  return OK;
}

EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, struct CUstream_st *stream) {
  if (!have_context() || !stream) return INVALID_CONTEXT;
  if (stream->capturing) return CAPTURE_UNSUPPORTED;
  if (!on_device(src, bytes)) return INVALID_VALUE;
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  ++stats.dtoh_copies;
  return OK;
}

EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, struct CUstream_st *stream) {
  if (!have_context() || !stream) return INVALID_CONTEXT;
  if (!on_device(dst, bytes) || !on_device(src, bytes)) return INVALID_VALUE;
  struct op o = {.kind = OP_D2D, .dst = dst, .src = src, .bytes = bytes};
  return submit(stream, &o);
}

EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t bytes, struct CUstream_st *stream) {
  if (!have_context() || !stream) return INVALID_CONTEXT;
  if (!on_device(dst, bytes)) return INVALID_VALUE;
  struct op o = {.kind = OP_SET, .dst = dst, .value = value, .bytes = bytes};
  return submit(stream, &o);
}

/* For the fake libraries, which run their work on this driver's streams as the real ones run theirs on
   libcuda's: `fn(arg)` runs in stream order (at once, or recorded while the stream captures and run by every
   launch of the graph); and whether [p, p + n) is device memory. */
EXPORT CUresult mie_fake_cuda_enqueue(struct CUstream_st *stream, void (*fn)(void *), void *arg) {
  if (!have_context()) return INVALID_CONTEXT;
  if (!stream || !fn) return INVALID_VALUE;
  struct op o = {.kind = OP_HOST, .fn = fn, .arg = arg};
  return submit(stream, &o);
}

EXPORT int mie_fake_cuda_on_device(CUdeviceptr p, size_t n) { return on_device(p, n); }

/* ---- modules ---- */
struct CUmod_st {
  char *text;
};

EXPORT CUresult cuModuleLoadDataEx(struct CUmod_st **module, const void *image, unsigned num_options, int *options,
                                   void **values) {
  if (!have_context()) return INVALID_CONTEXT;
  const char *text = image;
  if (failing("cuModuleLoadDataEx") || !strstr(text, ".version") || !strstr(text, ".target")) {
    /* Fill the JIT error log the way the driver does (CU_JIT_ERROR_LOG_BUFFER = 5, its size = 6). */
    char *log = NULL;
    size_t size = 0;
    for (unsigned i = 0; i < num_options; ++i) {
      if (options[i] == 5) log = values[i];
      if (options[i] == 6) size = (size_t)(uintptr_t)values[i];
    }
    if (log && size) snprintf(log, size, "ptxas fatal   : (fake driver) not PTX text this driver accepts");
    return INVALID_IMAGE;
  }
  struct CUmod_st *m = malloc(sizeof *m);
  if (!m || !(m->text = strdup(text))) {
    free(m);
    return OUT_OF_MEMORY;
  }
  ++stats.modules_loaded;
  *module = m;
  return OK;
}

EXPORT CUresult cuModuleUnload(struct CUmod_st *module) {
  if (!module) return INVALID_VALUE;
  free(module->text);
  free(module);
  --stats.modules_loaded;
  return OK;
}

EXPORT CUresult cuModuleGetFunction(struct CUfunc_st **function, struct CUmod_st *module, const char *name) {
  static const char *names[3] = {"mie_test_scale", "mie_test_add_k", "mie_test_rowsum"};
  char entry[256];
  snprintf(entry, sizeof entry, ".entry %s(", name);
  if (!module || !strstr(module->text, entry)) return NOT_FOUND;
  for (int i = 0; i < 3; ++i)
    if (strcmp(name, names[i]) == 0) {
      *function = &functions[i];
      return OK;
    }
  return NOT_FOUND; /* declared, but this fake cannot run it */
}

EXPORT CUresult cuLaunchKernel(struct CUfunc_st *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared_bytes, struct CUstream_st *stream, void **params,
                               void **extra) {
  if (!have_context() || !stream) return INVALID_CONTEXT;
  if (!f || !params || extra || gy != 1 || gz != 1 || by != 1 || bz != 1 || shared_bytes != 0 || gx == 0 || bx == 0)
    return INVALID_VALUE;
  if (failing("cuLaunchKernel")) return LAUNCH_FAILED;
  if (stream->capturing && failing("cuLaunchKernel-capturing")) return CAPTURE_UNSUPPORTED;
  static const int arity[3] = {5, 4, 4};
  static const int sizes[3][5] = {{8, 8, 8, 4, 4}, {8, 8, 8, 4, 0}, {8, 8, 4, 4, 0}};
  struct op o = {.kind = OP_LAUNCH, .kernel = f->kernel, .grid = gx, .block = bx};
  for (int i = 0; i < arity[f->kernel]; ++i) {
    if (sizes[f->kernel][i] == 8) memcpy(&o.args[i], params[i], 8);
    else o.args[i] = *(const uint32_t *)params[i];
  }
  return submit(stream, &o);
}

EXPORT CUresult cuStreamBeginCapture_v2(struct CUstream_st *stream, int mode) {
  if (!stream || stream->capturing || mode < 0 || mode > 2) return INVALID_VALUE;
  if (failing("cuStreamBeginCapture")) return CAPTURE_UNSUPPORTED;
  stream->capturing = 1;
  stream->num_ops = 0;
  return OK;
}

EXPORT CUresult cuStreamEndCapture(struct CUstream_st *stream, struct CUgraph_st **graph) {
  if (!stream || !stream->capturing) return INVALID_VALUE;
  stream->capturing = 0;
  struct CUgraph_st *g = malloc(sizeof *g);
  if (!g) return OUT_OF_MEMORY;
  g->ops = stream->ops;
  g->num_ops = stream->num_ops;
  stream->ops = NULL;
  stream->num_ops = 0;
  *graph = g;
  return OK;
}

EXPORT CUresult cuGraphInstantiateWithFlags(struct CUgraphExec_st **exec, struct CUgraph_st *graph,
                                            unsigned long long flags) {
  if (!graph || flags) return INVALID_VALUE;
  struct CUgraphExec_st *e = malloc(sizeof *e);
  if (!e) return OUT_OF_MEMORY;
  e->ops = malloc(graph->num_ops * sizeof *e->ops + 1);
  if (!e->ops) {
    free(e);
    return OUT_OF_MEMORY;
  }
  if (graph->num_ops) memcpy(e->ops, graph->ops, graph->num_ops * sizeof *e->ops);
  e->num_ops = graph->num_ops;
  ++stats.graphs_instantiated;
  *exec = e;
  return OK;
}

EXPORT CUresult cuGraphLaunch(struct CUgraphExec_st *exec, struct CUstream_st *stream) {
  if (!have_context() || !stream || !exec) return INVALID_VALUE;
  ++stats.graph_launches;
  for (size_t i = 0; i < exec->num_ops; ++i) {
    CUresult r = execute(&exec->ops[i]);
    if (r != OK) return r;
  }
  return OK;
}

EXPORT CUresult cuGraphExecDestroy(struct CUgraphExec_st *exec) {
  if (!exec) return INVALID_VALUE;
  free(exec->ops);
  free(exec);
  --stats.graphs_instantiated;
  return OK;
}

EXPORT CUresult cuGraphDestroy(struct CUgraph_st *graph) {
  if (!graph) return INVALID_VALUE;
  free(graph->ops);
  free(graph);
  return OK;
}

/* The counters as 8 int64 words in the order of struct mie_fake_cuda_stats (a plain int64_t array keeps the
   function's type the same on both sides of the C/C++ line). */
EXPORT void mie_fake_cuda_stats(int64_t *out) { memcpy(out, &stats, sizeof stats); }
_Static_assert(sizeof(struct mie_fake_cuda_stats) == 8 * sizeof(int64_t), "8 counters");
