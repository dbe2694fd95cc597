/* A stand-in for libcudnn.so.9 that the runtime tests load through MIE_CUDNN_LIBRARY: the convolution functions
 * the runtime resolves (runtime/src/cuda/cuda_libraries.h), computed in f32 on the fake driver's host memory in
 * stream order (cudnnSetStream's stream, so a handle without one is refused). It checks what cuDNN would
 * refuse: an output descriptor that is not the convolution's output shape, channels that the group count does
 * not divide, an identity activation in the fused call with another algorithm than IMPLICIT_PRECOMP_GEMM, a
 * workspace smaller than the algorithm's, operands outside device memory. Algorithm queries and convolutions
 * are logged (mie_fake_library_log). */
#include "fake_library_common.h"

enum { SUCCESS = 0, NOT_INITIALIZED = 1001, ALLOC_FAILED = 1002, BAD_PARAM = 2000, NOT_SUPPORTED = 3000 };
enum { DATA_FLOAT = 0, NCHW = 0, CROSS_CORRELATION = 1, ACT_RELU = 1, ACT_IDENTITY = 5, PRECOMP_GEMM = 1 };

struct handle {
  void *stream;
};
struct tensor {
  int format, type, n, c, h, w;
};
struct filter {
  int type, format, k, c, h, w;
};
struct conv {
  int pad_h, pad_w, u, v, dil_h, dil_w, mode, compute, groups, math;
};
struct act {
  int mode, nan;
  double coef;
};
typedef struct {
  int algo;
  int status;
  float time;
  size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
} perf_t;

/* Algorithm 0 needs no workspace, algorithm 1 (IMPLICIT_PRECOMP_GEMM) some. */
static size_t algo_workspace(int algo) { return algo == PRECOMP_GEMM ? 8192 : 0; }

EXPORT size_t cudnnGetVersion(void) { return 91900; }
EXPORT const char *cudnnGetErrorString(int s) {
  switch (s) {
    case SUCCESS: return "CUDNN_STATUS_SUCCESS";
    case NOT_INITIALIZED: return "CUDNN_STATUS_NOT_INITIALIZED";
    case ALLOC_FAILED: return "CUDNN_STATUS_ALLOC_FAILED";
    case BAD_PARAM: return "CUDNN_STATUS_BAD_PARAM";
    case NOT_SUPPORTED: return "CUDNN_STATUS_NOT_SUPPORTED";
    default: return "CUDNN_STATUS_UNKNOWN";
  }
}

EXPORT int cudnnCreate(struct handle **h) {
  if (!find_driver()) return NOT_INITIALIZED;
  const char *fail = getenv("MIE_FAKE_CUDA_FAIL");
  if (fail && strcmp(fail, "cudnnCreate") == 0) return NOT_INITIALIZED;
  *h = calloc(1, sizeof **h);
  return *h ? SUCCESS : ALLOC_FAILED;
}
EXPORT int cudnnDestroy(struct handle *h) {
  free(h);
  return SUCCESS;
}
EXPORT int cudnnSetStream(struct handle *h, void *stream) {
  if (!h) return BAD_PARAM;
  h->stream = stream;
  return SUCCESS;
}

#define CREATE_DESTROY(Name, type)                              \
  EXPORT int cudnnCreate##Name(type **d) {                      \
    *d = calloc(1, sizeof **d);                                 \
    return *d ? SUCCESS : ALLOC_FAILED;                         \
  }                                                             \
  EXPORT int cudnnDestroy##Name(type *d) {                      \
    free(d);                                                    \
    return SUCCESS;                                             \
  }
CREATE_DESTROY(TensorDescriptor, struct tensor)
CREATE_DESTROY(FilterDescriptor, struct filter)
CREATE_DESTROY(ConvolutionDescriptor, struct conv)
CREATE_DESTROY(ActivationDescriptor, struct act)

EXPORT int cudnnSetTensor4dDescriptor(struct tensor *t, int format, int type, int n, int c, int h, int w) {
  if (!t || n < 1 || c < 1 || h < 1 || w < 1) return BAD_PARAM;
  *t = (struct tensor){format, type, n, c, h, w};
  return SUCCESS;
}
EXPORT int cudnnSetFilter4dDescriptor(struct filter *f, int type, int format, int k, int c, int h, int w) {
  if (!f || k < 1 || c < 1 || h < 1 || w < 1) return BAD_PARAM;
  *f = (struct filter){type, format, k, c, h, w};
  return SUCCESS;
}
EXPORT int cudnnSetConvolution2dDescriptor(struct conv *c, int pad_h, int pad_w, int u, int v, int dil_h, int dil_w,
                                           int mode, int compute) {
  if (!c || pad_h < 0 || pad_w < 0 || u < 1 || v < 1 || dil_h < 1 || dil_w < 1) return BAD_PARAM;
  *c = (struct conv){pad_h, pad_w, u, v, dil_h, dil_w, mode, compute, 1, 0};
  return SUCCESS;
}
EXPORT int cudnnSetConvolutionGroupCount(struct conv *c, int groups) {
  if (!c || groups < 1) return BAD_PARAM;
  c->groups = groups;
  return SUCCESS;
}
EXPORT int cudnnSetConvolutionMathType(struct conv *c, int math) {
  if (!c) return BAD_PARAM;
  c->math = math;
  return SUCCESS;
}
EXPORT int cudnnSetActivationDescriptor(struct act *a, int mode, int nan, double coef) {
  if (!a) return BAD_PARAM;
  *a = (struct act){mode, nan, coef};
  return SUCCESS;
}

/* Whether x, w, conv and y describe one convolution cuDNN runs (f32 NCHW only here). */
static int check(const struct tensor *x, const struct filter *w, const struct conv *c, const struct tensor *y) {
  if (!x || !w || !c || !y) return BAD_PARAM;
  if (x->type != DATA_FLOAT || w->type != DATA_FLOAT || y->type != DATA_FLOAT || c->compute != DATA_FLOAT)
    return NOT_SUPPORTED;
  if (x->format != NCHW || w->format != NCHW || y->format != NCHW || c->mode != CROSS_CORRELATION) return NOT_SUPPORTED;
  if (x->c % c->groups || w->k % c->groups || w->c != x->c / c->groups) return BAD_PARAM;
  const int oh = (x->h + 2 * c->pad_h - c->dil_h * (w->h - 1) - 1) / c->u + 1;
  const int ow = (x->w + 2 * c->pad_w - c->dil_w * (w->w - 1) - 1) / c->v + 1;
  if (y->n != x->n || y->c != w->k || y->h != oh || y->w != ow) return BAD_PARAM;
  return SUCCESS;
}

EXPORT int cudnnGetConvolutionForwardAlgorithm_v7(struct handle *h, struct tensor *x, struct filter *w,
                                                  struct conv *c, struct tensor *y, int requested, int *returned,
                                                  perf_t *perf) {
  if (!h || requested < 2) return BAD_PARAM;
  const int s = check(x, w, c, y);
  if (s != SUCCESS) return s;
  log_line("algorithms n=%d c=%d h=%d w=%d k=%d r=%d s=%d groups=%d math=%d", x->n, x->c, x->h, x->w, w->k, w->h,
           w->w, c->groups, c->math);
  for (int i = 0; i < 2; ++i)
    perf[i] = (perf_t){.algo = i, .status = SUCCESS, .time = (float)(2 - i), .memory = algo_workspace(i),
                       .mathType = c->math};
  *returned = 2;
  return SUCCESS;
}

struct conv_work {
  struct closure base;
  struct tensor x, y;
  struct filter w;
  struct conv c;
  int relu;
  float alpha1, alpha2;
  const float *xp, *wp, *zp, *bias;
  float *yp;
};

static void run_conv(void *arg) {
  const struct conv_work *q = arg;
  const int kpg = q->w.k / q->c.groups, cpg = q->w.c;
  for (int n = 0; n < q->y.n; ++n)
    for (int k = 0; k < q->y.c; ++k)
      for (int oy = 0; oy < q->y.h; ++oy)
        for (int ox = 0; ox < q->y.w; ++ox) {
          double sum = 0;
          const int g = k / kpg;
          for (int ci = 0; ci < cpg; ++ci)
            for (int r = 0; r < q->w.h; ++r)
              for (int s = 0; s < q->w.w; ++s) {
                const int iy = oy * q->c.u - q->c.pad_h + r * q->c.dil_h;
                const int ix = ox * q->c.v - q->c.pad_w + s * q->c.dil_w;
                if (iy < 0 || iy >= q->x.h || ix < 0 || ix >= q->x.w) continue;
                const int c = g * cpg + ci;
                sum += (double)q->xp[((n * q->x.c + c) * q->x.h + iy) * q->x.w + ix] *
                       q->wp[((k * cpg + ci) * q->w.h + r) * q->w.w + s];
              }
          const size_t at = ((size_t)(n * q->y.c + k) * q->y.h + oy) * q->y.w + ox;
          float v = q->alpha1 * (float)sum;
          if (q->alpha2 != 0) v += q->alpha2 * q->zp[at];
          if (q->bias) v += q->bias[k];
          if (q->relu) v = v > 0 ? v : 0;
          q->yp[at] = v;
        }
}

static size_t tensor_bytes(const struct tensor *t) { return 4 * (size_t)t->n * t->c * t->h * t->w; }

static int enqueue_conv(struct handle *h, const float *alpha1, struct tensor *xd, const void *x, struct filter *wd,
                        const void *w, struct conv *cd, int algo, void *ws, size_t ws_bytes, const float *alpha2,
                        struct tensor *zd, const void *z, struct tensor *bd, const void *bias, struct act *ad,
                        struct tensor *yd, void *y, int fused) {
  if (!h || !alpha1 || !alpha2) return BAD_PARAM;
  if (!h->stream) return BAD_PARAM;  /* never bound to the session's stream */
  int s = check(xd, wd, cd, yd);
  if (s != SUCCESS) return s;
  if (algo < 0 || algo > 1 || ws_bytes < algo_workspace(algo) || (algo_workspace(algo) && !on_device(ws, algo_workspace(algo))))
    return BAD_PARAM;
  const struct filter *f = wd;
  if (!on_device(x, tensor_bytes(xd)) || !on_device(w, 4 * (size_t)f->k * f->c * f->h * f->w) ||
      !on_device(y, tensor_bytes(yd)))
    return BAD_PARAM;
  if (fused) {
    if (!ad || !bd || !zd || (ad->mode != ACT_RELU && ad->mode != ACT_IDENTITY)) return BAD_PARAM;
    if (ad->mode == ACT_IDENTITY && algo != PRECOMP_GEMM) return NOT_SUPPORTED;
    if (bd->n != 1 || bd->c != yd->c || bd->h != 1 || bd->w != 1 || !on_device(bias, 4 * (size_t)bd->c)) return BAD_PARAM;
    if (*alpha2 != 0 && (zd->n != yd->n || zd->c != yd->c || zd->h != yd->h || zd->w != yd->w ||
                         !on_device(z, tensor_bytes(zd))))
      return BAD_PARAM;
  }
  struct conv_work *q = new_closure(sizeof *q);
  if (!q) return ALLOC_FAILED;
  q->x = *xd, q->y = *yd, q->w = *wd, q->c = *cd;
  q->relu = fused && ad->mode == ACT_RELU;
  q->alpha1 = *alpha1, q->alpha2 = fused ? *alpha2 : 0;
  q->xp = x, q->wp = w, q->zp = z, q->bias = fused ? bias : NULL, q->yp = y;
  log_line("conv fused=%d n=%d c=%d h=%d w=%d k=%d r=%d s=%d pad=%d,%d stride=%d,%d dilation=%d,%d groups=%d "
           "relu=%d alpha2=%g algo=%d math=%d",
           fused, xd->n, xd->c, xd->h, xd->w, wd->k, wd->h, wd->w, cd->pad_h, cd->pad_w, cd->u, cd->v, cd->dil_h,
           cd->dil_w, cd->groups, q->relu, (double)q->alpha2, algo, cd->math);
  s = fake_enqueue(h->stream, run_conv, q);
  return s == 0 ? SUCCESS : BAD_PARAM;
}

EXPORT int cudnnConvolutionForward(struct handle *h, const float *alpha, struct tensor *xd, const void *x,
                                   struct filter *wd, const void *w, struct conv *cd, int algo, void *ws,
                                   size_t ws_bytes, const float *beta, struct tensor *yd, void *y) {
  if (!beta || *beta != 0) return NOT_SUPPORTED;  /* the runtime never accumulates into y */
  return enqueue_conv(h, alpha, xd, x, wd, w, cd, algo, ws, ws_bytes, beta, NULL, NULL, NULL, NULL, NULL, yd, y, 0);
}

EXPORT int cudnnConvolutionBiasActivationForward(struct handle *h, const float *alpha1, struct tensor *xd,
                                                 const void *x, struct filter *wd, const void *w, struct conv *cd,
                                                 int algo, void *ws, size_t ws_bytes, const float *alpha2,
                                                 struct tensor *zd, const void *z, struct tensor *bd,
                                                 const void *bias, struct act *ad, struct tensor *yd, void *y) {
  return enqueue_conv(h, alpha1, xd, x, wd, w, cd, algo, ws, ws_bytes, alpha2, zd, z, bd, bias, ad, yd, y, 1);
}
