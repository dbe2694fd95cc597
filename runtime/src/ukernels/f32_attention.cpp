//===- f32_attention.cpp - fused scaled-dot-product attention, one build per ISA -===//
//
// softmax(scale * Q K^T + mask) V for a group of query rows of one head, flash-attention style:
// the keys go in tiles of about 128; per tile the scores of an MR-row query block are one small
// GEMM on the register tiles (Q block packed and scaled, the key tile packed transposed once per
// tile for all the group's blocks), the softmax is online (running maximum and sum per row, the
// output rescaled when the maximum grows), and the probabilities times the value rows accumulate
// into the output with the same tiles. So the S x T score matrix never exists: one MR x tile block
// of it lives in the scratch, in L1. Q, K, V and the output are read and written through row
// strides, so heads can be addressed inside [tokens, heads * D] buffers.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_vector.h"
#include "f32_tile.h"

using namespace mie_uk;

namespace {

// The register tile: MR query rows x NR (keys for the scores, value columns for the output).
#if defined(MIE_UK_ISA_AVX512)
constexpr int kAttMR = 12, kAttNV = 2;
#elif defined(MIE_UK_ISA_AVX2)
constexpr int kAttMR = 6, kAttNV = 2;
#else
constexpr int kAttMR = 8, kAttNV = 3;
#endif
constexpr int kAttNR = kAttNV * VL;
/// Keys per tile: MIE_UK_ATTENTION_KEY_TILE rounded up to whole NR panels.
constexpr int64_t kAttKT = (MIE_UK_ATTENTION_KEY_TILE + kAttNR - 1) / kAttNR * kAttNR;
static_assert(kAttMR <= MIE_UK_ATTENTION_MAX_MR && kAttNR <= MIE_UK_ATTENTION_MAX_NR &&
                  kAttKT <= MIE_UK_ATTENTION_MAX_KEY_TILE,
              "mie_uk_attention_scratch_floats must cover this ISA's tiles");

/// Largest element of x[0, n).
MIE_UK_INLINE float rowMax(const float *x, int64_t n) {
  vf m = splat(-__builtin_inff());
  int64_t j = 0;
  for (; j + VL <= n; j += VL)
    m = vmax(m, load(x + j));
  float r = __builtin_reduce_max(m);
  for (; j < n; ++j)
    r = x[j] > r ? x[j] : r;
  return r;
}

MIE_UK_INLINE float sumLanes(vf x) {
  float t[VL];
  store(t, x);
  float r = 0.0f;
  for (int l = 0; l < VL; ++l)
    r += t[l];
  return r;
}

MIE_UK_INLINE float expScalar(float x) { return exp(splat(x))[0]; }

MIE_UK_INLINE void scaleRow(float *x, int64_t n, float s) {
  int64_t j = 0;
  for (; j + VL <= n; j += VL)
    store(x + j, load(x + j) * splat(s));
  for (; j < n; ++j)
    x[j] *= s;
}

/// Keys [t0, t0 + kt) transposed into panels [kt / NR][D][NR], zero past kt.
MIE_UK_INLINE void packKeys(const float *k, int64_t ldk, int64_t t0, int64_t kt, int64_t D,
                            float *__restrict dst) {
  const float z = opaqueZero();
  for (int64_t pn = 0, panels = (kt + kAttNR - 1) / kAttNR; pn < panels; ++pn) {
    float *d = dst + pn * D * kAttNR;
    for (int l = 0; l < kAttNR; ++l) {
      const int64_t j = pn * kAttNR + l;
      if (j < kt) {
        const float *row = k + (t0 + j) * ldk;
        for (int64_t e = 0; e < D; ++e)
          d[e * kAttNR + l] = row[e] + z;
      } else {
        for (int64_t e = 0; e < D; ++e)
          d[e * kAttNR + l] = z;
      }
    }
  }
}

/// Query rows [r0, r0 + mr) times `scale` as an LHS panel [D][MR], zero rows past mr.
MIE_UK_INLINE void packQueries(const float *q, int64_t ldq, int64_t r0, int64_t mr, int64_t D,
                               float scale, float *__restrict dst) {
  for (int i = 0; i < kAttMR; ++i) {
    if (i < mr) {
      const float *row = q + (r0 + i) * ldq;
      for (int64_t e = 0; e < D; ++e)
        dst[e * kAttMR + i] = row[e] * scale;
    } else {
      for (int64_t e = 0; e < D; ++e)
        dst[e * kAttMR + i] = 0.0f;
    }
  }
}

} // namespace

#if defined(MIE_UK_ISA_AVX512)
#define MIE_UK_ATT_NAME mie_uk_f32_attention_avx512
#elif defined(MIE_UK_ISA_AVX2)
#define MIE_UK_ATT_NAME mie_uk_f32_attention_avx2
#else
#define MIE_UK_ATT_NAME mie_uk_f32_attention_neon
#endif

extern "C" __attribute__((noinline)) void
MIE_UK_ATT_NAME(const float *q, int64_t q_off, int64_t ldq, const float *k, int64_t k_off,
                int64_t ldk, const float *v, int64_t v_off, int64_t ldv, const float *mask,
                int64_t mask_off, int64_t mask_ls, int64_t mask_lt, float *o, int64_t o_off,
                int64_t ldo, int64_t rows, int64_t T, int64_t D, int64_t Dv, float scale,
                int64_t flags, int64_t diag, float *scratch) {
  q += q_off;
  k += k_off;
  v += v_off;
  o += o_off;
  const bool hasMask = flags & MIE_UK_ATTENTION_MASK;
  // Causal: keys past the last row's diagonal are hidden from every row; none is computed.
  const bool causal = flags & MIE_UK_ATTENTION_CAUSAL;
  if (causal && diag + rows < T)
    T = diag + rows;
  if (hasMask)
    mask += mask_off;
  // Scratch: key panels, query panel, scores [MR][KT], probabilities [KT][MR] (the LHS of the
  // value product), a zero-padded value panel for a partial last column block, then the running
  // maximum and sum of every row.
  float *keys = scratch;
  float *qp = keys + kAttKT * D;
  float *s = qp + D * kAttMR;
  float *pt = s + kAttMR * kAttKT;
  float *vp = pt + kAttKT * kAttMR;
  float *runMax = vp + kAttKT * kAttNR;
  float *runSum = runMax + rows;
  for (int64_t r = 0; r < rows; ++r) {
    runMax[r] = -__builtin_inff();
    runSum[r] = 0.0f;
  }
  const float z = opaqueZero();
  for (int64_t t0 = 0; t0 < T; t0 += kAttKT) {
    const int64_t tileKeys = T - t0 < kAttKT ? T - t0 : kAttKT;
    const bool first = t0 == 0;
    packKeys(k, ldk, t0, tileKeys, D, keys);
    for (int64_t r0 = 0; r0 < rows; r0 += kAttMR) {
      const int64_t mr = rows - r0 < kAttMR ? rows - r0 : kAttMR;
      // Causal: the block's keys in this tile end at its last row's diagonal (the first tile
      // always has one: diag >= 0).
      int64_t kt = tileKeys;
      if (causal && diag + r0 + mr - t0 < kt)
        kt = diag + r0 + mr - t0;
      if (kt <= 0)
        continue;
      packQueries(q, ldq, r0, mr, D, scale, qp);
      // Scores of the block: S[i][j] = scale * <q_i, k_j>.
      for (int64_t j0 = 0; j0 < kt; j0 += kAttNR)
        gemmTile<kAttMR, kAttNV, false>(qp, keys + (j0 / kAttNR) * D * kAttNR, kAttNR, s + j0,
                                        kAttKT, D, mr, kt - j0 < kAttNR ? kt - j0 : kAttNR, 0,
                                        nullptr, nullptr, 0, 0.0f, 0.0f);
      // Online softmax: new maximum, rescale factor of what was accumulated, probabilities.
      for (int i = 0; i < kAttMR; ++i) {
        if (i >= mr) {
          for (int64_t j = 0; j < kt; ++j)
            pt[j * kAttMR + i] = z;
          continue;
        }
        float *row = s + i * kAttKT;
        if (hasMask) {
          const float *mrow = mask + (r0 + i) * mask_ls + t0 * mask_lt;
          if (mask_lt == 1) {
            int64_t j = 0;
            for (; j + VL <= kt; j += VL)
              store(row + j, load(row + j) + load(mrow + j));
            for (; j < kt; ++j)
              row[j] += mrow[j];
          } else {
            for (int64_t j = 0; j < kt; ++j)
              row[j] += mrow[j * mask_lt];
          }
        }
        const int64_t r = r0 + i;
        if (causal) // keys past the row's diagonal (all of the tile's, for the block's early rows)
          for (int64_t j = diag + r + 1 - t0 > 0 ? diag + r + 1 - t0 : 0; j < kt; ++j)
            row[j] = -__builtin_inff();
        float mx = rowMax(row, kt);
        mx = mx > runMax[r] ? mx : runMax[r];
        // A row masked out (-inf) so far: exponents relative to 0 instead of -inf - -inf = NaN;
        // its terms are 0 until a key is visible, as in the reference.
        if (mx == -__builtin_inff())
          mx = 0.0f;
        const float alpha = first ? 0.0f : expScalar(runMax[r] - mx);
        vf sum = splat(0.0f);
        float tail = 0.0f;
        int64_t j = 0;
        for (; j + VL <= kt; j += VL) {
          vf p = exp(load(row + j) - splat(mx));
          sum += p;
          store(row + j, p);
        }
        for (; j < kt; ++j) {
          float p = expScalar(row[j] - mx);
          tail += p;
          row[j] = p;
        }
        for (j = 0; j < kt; ++j)
          pt[j * kAttMR + i] = row[j];
        runSum[r] = runSum[r] * alpha + sumLanes(sum) + tail;
        runMax[r] = mx;
        if (!first)
          scaleRow(o + r * ldo, Dv, alpha);
      }
      // Output block += P V over this key tile.
      for (int64_t c0 = 0; c0 < Dv; c0 += kAttNR) {
        const int64_t nc = Dv - c0 < kAttNR ? Dv - c0 : kAttNR;
        const float *b = v + t0 * ldv + c0;
        int64_t ldb = ldv;
        if (nc < kAttNR) {
          // Whole-vector loads would run past the row: a zero-padded copy of the columns.
          for (int64_t j = 0; j < kt; ++j)
            for (int l = 0; l < kAttNR; ++l)
              vp[j * kAttNR + l] = l < nc ? b[j * ldv + l] + z : z;
          b = vp;
          ldb = kAttNR;
        }
        gemmTile<kAttMR, kAttNV, false>(pt, b, ldb, o + r0 * ldo + c0, ldo, kt, mr, nc,
                                        first ? 0 : MIE_UK_ACCUMULATE, nullptr, nullptr, 0, 0.0f,
                                        0.0f);
      }
    }
  }
  for (int64_t r = 0; r < rows; ++r)
    scaleRow(o + r * ldo, Dv, 1.0f / runSum[r]);
}

#undef MIE_UK_ATT_NAME
