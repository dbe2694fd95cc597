/* A stand-in for libcublasLt.so.13 that the runtime tests load through MIE_CUBLASLT_LIBRARY: the functions the
 * runtime resolves (runtime/src/cuda/cuda_libraries.h), with cuBLASLt's column-major semantics, computed in f32
 * on the host memory the fake driver hands out, in stream order through the fake driver (so graph capture and
 * replay work as with the real library). It checks what a real cuBLASLt would refuse: shapes that do not
 * chain, leading dimensions shorter than a column, operands outside device memory, a bias pointer missing for
 * a bias epilogue, a workspace smaller than the algorithm's. Every matmul and heuristic query is logged
 * (mie_fake_library_log). */
#include <math.h>

#include "fake_library_common.h"

enum { SUCCESS = 0, NOT_INITIALIZED = 1, ALLOC_FAILED = 3, INVALID_VALUE = 7, NOT_SUPPORTED = 15 };
enum { R_32F = 0, COMPUTE_32F = 68 };
enum { EPI_DEFAULT = 1, EPI_RELU = 2, EPI_BIAS = 4, EPI_GELU = 32 };
#define FAKE_ALGO_WORKSPACE 4096

struct handle {
  int magic;
};
struct desc {
  int compute, scale;
  int32_t transa, transb, epilogue;
  const float *bias;
};
struct layout {
  int type;
  uint64_t rows, cols;
  int64_t ld;
  int32_t batch;
  int64_t stride;
};
struct pref {
  uint64_t max_workspace;
};
typedef struct {
  uint64_t data[8];
} algo_t;
typedef struct {
  algo_t algo;
  size_t workspaceSize;
  int state;
  float wavesCount;
  int reserved[4];
} heuristic_t;

EXPORT size_t cublasLtGetVersion(void) { return 130000; }
EXPORT const char *cublasLtGetStatusName(int s) {
  switch (s) {
    case SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return NULL;
  }
}

EXPORT int cublasLtCreate(struct handle **h) {
  if (!find_driver()) return NOT_INITIALIZED;
  const char *fail = getenv("MIE_FAKE_CUDA_FAIL");
  if (fail && strcmp(fail, "cublasLtCreate") == 0) return NOT_INITIALIZED;
  *h = calloc(1, sizeof **h);
  if (!*h) return ALLOC_FAILED;
  (*h)->magic = 0x17;
  return SUCCESS;
}
EXPORT int cublasLtDestroy(struct handle *h) {
  if (!h || h->magic != 0x17) return NOT_INITIALIZED;
  free(h);
  return SUCCESS;
}

EXPORT int cublasLtMatmulDescCreate(struct desc **d, int compute, int scale) {
  if (compute != COMPUTE_32F || scale != R_32F) return NOT_SUPPORTED;
  *d = calloc(1, sizeof **d);
  if (!*d) return ALLOC_FAILED;
  (*d)->compute = compute;
  (*d)->scale = scale;
  (*d)->epilogue = EPI_DEFAULT;
  return SUCCESS;
}
EXPORT int cublasLtMatmulDescDestroy(struct desc *d) {
  free(d);
  return SUCCESS;
}
EXPORT int cublasLtMatmulDescSetAttribute(struct desc *d, int attribute, const void *value, size_t size) {
  if (!d || !value) return INVALID_VALUE;
  if (attribute == 3 && size == 4) memcpy(&d->transa, value, 4);
  else if (attribute == 4 && size == 4) memcpy(&d->transb, value, 4);
  else if (attribute == 7 && size == 4) memcpy(&d->epilogue, value, 4);
  else if (attribute == 8 && size == 8) memcpy(&d->bias, value, 8);
  else return INVALID_VALUE;
  return SUCCESS;
}

EXPORT int cublasLtMatrixLayoutCreate(struct layout **l, int type, uint64_t rows, uint64_t cols, int64_t ld) {
  if (ld < (int64_t)rows) return INVALID_VALUE;  /* column-major: a column is `rows` long */
  *l = calloc(1, sizeof **l);
  if (!*l) return ALLOC_FAILED;
  **l = (struct layout){type, rows, cols, ld, 1, 0};
  return SUCCESS;
}
EXPORT int cublasLtMatrixLayoutDestroy(struct layout *l) {
  free(l);
  return SUCCESS;
}
EXPORT int cublasLtMatrixLayoutSetAttribute(struct layout *l, int attribute, const void *value, size_t size) {
  if (!l || !value) return INVALID_VALUE;
  if (attribute == 5 && size == 4) memcpy(&l->batch, value, 4);
  else if (attribute == 6 && size == 8) memcpy(&l->stride, value, 8);
  else return INVALID_VALUE;
  return l->batch >= 1 ? SUCCESS : INVALID_VALUE;
}

EXPORT int cublasLtMatmulPreferenceCreate(struct pref **p) {
  *p = calloc(1, sizeof **p);
  return *p ? SUCCESS : ALLOC_FAILED;
}
EXPORT int cublasLtMatmulPreferenceDestroy(struct pref *p) {
  free(p);
  return SUCCESS;
}
EXPORT int cublasLtMatmulPreferenceSetAttribute(struct pref *p, int attribute, const void *value, size_t size) {
  if (!p || attribute != 1 || size != 8) return INVALID_VALUE;
  memcpy(&p->max_workspace, value, 8);
  return SUCCESS;
}

/* m, n, k of D = op(A) op(B) when the layouts chain (C like D, every batch count equal), else INVALID_VALUE. */
static int shape(const struct desc *op, const struct layout *a, const struct layout *b, const struct layout *c,
                 const struct layout *d, uint64_t *m, uint64_t *n, uint64_t *k) {
  if (!op || !a || !b || !c || !d) return INVALID_VALUE;
  *m = op->transa ? a->cols : a->rows;
  *k = op->transa ? a->rows : a->cols;
  const uint64_t kb = op->transb ? b->cols : b->rows;
  *n = op->transb ? b->rows : b->cols;
  if (kb != *k || d->rows != *m || d->cols != *n || c->rows != *m || c->cols != *n) return INVALID_VALUE;
  if (a->batch != d->batch || b->batch != d->batch || c->batch != d->batch) return INVALID_VALUE;
  if (a->type != R_32F || b->type != R_32F || c->type != R_32F || d->type != R_32F) return NOT_SUPPORTED;
  return SUCCESS;
}

EXPORT int cublasLtMatmulAlgoGetHeuristic(struct handle *h, struct desc *op, struct layout *a, struct layout *b,
                                          struct layout *c, struct layout *d, struct pref *p, int requested,
                                          heuristic_t *results, int *returned) {
  uint64_t m, n, k;
  if (!h || !p || requested < 1) return INVALID_VALUE;
  const int s = shape(op, a, b, c, d, &m, &n, &k);
  if (s != SUCCESS) return s;
  log_line("heuristic m=%llu n=%llu k=%llu batch=%d max_workspace=%llu", (unsigned long long)m,
           (unsigned long long)n, (unsigned long long)k, d->batch, (unsigned long long)p->max_workspace);
  *returned = 0;
  if (p->max_workspace < FAKE_ALGO_WORKSPACE) return SUCCESS;  /* no algorithm fits */
  memset(&results[0], 0, sizeof results[0]);
  results[0].algo.data[0] = 0xA160;
  results[0].workspaceSize = FAKE_ALGO_WORKSPACE;
  results[0].state = SUCCESS;
  *returned = 1;
  return SUCCESS;
}

struct matmul_work {
  struct closure base;
  uint64_t m, n, k;
  int32_t batch, transa, transb, epilogue;
  int64_t lda, ldb, ldc, ldd, sa, sb, sc, sd;
  float alpha, beta;
  const float *a, *b, *c, *bias;
  float *d;
};

static float gelu_tanh(float x) { return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x))); }

static void run_matmul(void *arg) {
  const struct matmul_work *w = arg;
  for (int32_t bi = 0; bi < w->batch; ++bi) {
    const float *a = w->a + bi * w->sa, *b = w->b + bi * w->sb, *c = w->c + bi * w->sc;
    float *d = w->d + bi * w->sd;
    for (uint64_t j = 0; j < w->n; ++j)
      for (uint64_t i = 0; i < w->m; ++i) {
        double sum = 0;
        for (uint64_t p = 0; p < w->k; ++p) {
          const float av = w->transa ? a[p + i * w->lda] : a[i + p * w->lda];
          const float bv = w->transb ? b[j + p * w->ldb] : b[p + j * w->ldb];
          sum += (double)av * bv;
        }
        float v = w->alpha * (float)sum;
        if (w->beta != 0) v += w->beta * c[i + j * w->ldc];
        if (w->epilogue & EPI_BIAS) v += w->bias[i];
        if (w->epilogue & EPI_RELU) v = v > 0 ? v : 0;
        if (w->epilogue & EPI_GELU) v = gelu_tanh(v);
        d[i + j * w->ldd] = v;
      }
  }
}

/* Bytes a batched column-major matrix spans. */
static size_t span(const struct layout *l) {
  const size_t one = ((size_t)l->cols - 1) * (size_t)l->ld + (size_t)l->rows;
  return 4 * (one + (size_t)(l->batch - 1) * (size_t)l->stride);
}

EXPORT int cublasLtMatmul(struct handle *h, struct desc *op, const float *alpha, const void *a, struct layout *al,
                          const void *b, struct layout *bl, const float *beta, const void *c, struct layout *cl,
                          void *d, struct layout *dl, const algo_t *algo, void *workspace, size_t workspace_bytes,
                          void *stream) {
  uint64_t m, n, k;
  if (!h || !alpha || !beta || !algo || algo->data[0] != 0xA160) return INVALID_VALUE;
  int s = shape(op, al, bl, cl, dl, &m, &n, &k);
  if (s != SUCCESS) return s;
  if (workspace_bytes < FAKE_ALGO_WORKSPACE || !on_device(workspace, FAKE_ALGO_WORKSPACE)) return INVALID_VALUE;
  if (op->epilogue != EPI_DEFAULT && (op->epilogue & ~(EPI_BIAS | EPI_RELU | EPI_GELU))) return NOT_SUPPORTED;
  if ((op->epilogue & EPI_BIAS) && (!op->bias || !on_device(op->bias, 4 * m))) return INVALID_VALUE;
  if (!on_device(a, span(al)) || !on_device(b, span(bl)) || !on_device(d, span(dl)) ||
      (*beta != 0 && !on_device(c, span(cl))))
    return INVALID_VALUE;
  struct matmul_work *w = new_closure(sizeof *w);
  if (!w) return ALLOC_FAILED;
  w->m = m, w->n = n, w->k = k, w->batch = dl->batch;
  w->transa = op->transa, w->transb = op->transb, w->epilogue = op->epilogue == EPI_DEFAULT ? 0 : op->epilogue;
  w->lda = al->ld, w->ldb = bl->ld, w->ldc = cl->ld, w->ldd = dl->ld;
  w->sa = al->stride, w->sb = bl->stride, w->sc = cl->stride, w->sd = dl->stride;
  w->alpha = *alpha, w->beta = *beta;
  w->a = a, w->b = b, w->c = c, w->d = d, w->bias = op->bias;
  log_line("matmul m=%llu n=%llu k=%llu batch=%d transa=%d transb=%d epilogue=%d alpha=%g beta=%g lda=%lld ldb=%lld "
           "ldd=%lld strides=%lld,%lld,%lld",
           (unsigned long long)m, (unsigned long long)n, (unsigned long long)k, dl->batch, op->transa, op->transb,
           op->epilogue, (double)*alpha, (double)*beta, (long long)al->ld, (long long)bl->ld, (long long)dl->ld,
           (long long)al->stride, (long long)bl->stride, (long long)dl->stride);
  s = fake_enqueue(stream, run_matmul, w);
  return s == 0 ? SUCCESS : INVALID_VALUE;
}
