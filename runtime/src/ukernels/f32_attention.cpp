//===- f32_attention.cpp - fused scaled-dot-product attention, one build per ISA -===//
//
// softmax(scale * Q K^T + mask) V for a group of query rows of one head, flash-attention style:
// the keys go in tiles of about 128 with an online softmax (running maximum and sum per query,
// the output rescaled when the maximum grows), so the S x T score matrix never exists; one tile
// of it lives in the scratch, in L1. Q, K, V and the output are read and written through row
// strides, so heads can be addressed inside [tokens, heads * D] buffers.
//
// Two layouts of the same computation, chosen per call by its query rows:
// - Queries in the vector lanes (most rows: encoders, prompts). A block of NV * VL queries is
//   one B panel (Q^T, packed once per block); the scores of MR keys at a time are a register tile
//   whose LHS rows are the key rows themselves, read in place (no key packing); the softmax runs
//   down the keys with one vector per NV * VL queries (maximum, exponentials, sums and the
//   rescaling all whole vectors); and the output is O^T += V^T P^T with the LHS the value
//   columns, read in place too. Only Q is transposed in (once per block) and O out (once per
//   block). A layout that packed every key tile transposed and moved every probability through
//   a scalar transpose ran at 42% of the FMA peak at 24 rows a call, this one ~75%.
// - Rows in place (fewer rows: a decoder's next token, a short sequence's last rows). Each row's
//   scores are dot products with the key rows, its output a sum of the value rows, both read in
//   place: nothing packed. It replaced a keys-in-the-lanes layout (key tiles packed transposed,
//   an MR-row query panel per call) that was up to 14x slower below 8 rows and at most 1.1x
//   faster at 12, and whose code (every partial register tile) made a package with attention
//   compile 1.7x as long.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_vector.h"
#include "f32_tile.h"

using namespace mie_uk;

namespace {

// The queries-in-lanes register tile: MR rows (keys for the scores, value columns for the output)
// x NR queries.
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

/// The sum of the lanes of x as a tree of halves (the lanes one after another were a chain of VL
/// dependent adds per key of the rows-in-place scores).
MIE_UK_INLINE float sumLanes(vf x) {
#if MIE_UK_VL == 16
  const auto h8 = __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7) +
                  __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15);
  const auto h4 = __builtin_shufflevector(h8, h8, 0, 1, 2, 3) +
                  __builtin_shufflevector(h8, h8, 4, 5, 6, 7);
#elif MIE_UK_VL == 8
  const auto h4 = __builtin_shufflevector(x, x, 0, 1, 2, 3) +
                  __builtin_shufflevector(x, x, 4, 5, 6, 7);
#else
  static_assert(MIE_UK_VL == 4, "a tree for this vector length");
  const vf h4 = x;
#endif
  const auto h2 = __builtin_shufflevector(h4, h4, 0, 1) + __builtin_shufflevector(h4, h4, 2, 3);
  return h2[0] + h2[1];
}

MIE_UK_INLINE float expScalar(float x) { return exp(splat(x))[0]; }

MIE_UK_INLINE void scaleRow(float *x, int64_t n, float s) {
  int64_t j = 0;
  for (; j + VL <= n; j += VL)
    store(x + j, load(x + j) * splat(s));
  for (; j < n; ++j)
    x[j] *= s;
}

/// Query rows [r0, r0 + mr) times `scale` as a panel [D][W] (the queries-in-lanes Q^T), zero
/// rows past mr.
template <int64_t W>
MIE_UK_INLINE void packQueries(const float *q, int64_t ldq, int64_t r0, int64_t mr, int64_t D,
                               float scale, float *__restrict dst) {
  const float z = opaqueZero();
  for (int64_t i = 0; i < W; ++i) {
    if (i < mr) {
      const float *row = q + (r0 + i) * ldq;
      for (int64_t e = 0; e < D; ++e)
        dst[e * W + i] = row[e] * scale;
    } else {
      for (int64_t e = 0; e < D; ++e)
        dst[e * W + i] = z;
    }
  }
}

/// Keys per tile of the rows-in-place layout: one row's scores, 2 KB.
constexpr int64_t kAttRowKT = 512;
static_assert(kAttRowKT <= 2 * MIE_UK_ATTENTION_MAX_MR * MIE_UK_ATTENTION_MAX_KEY_TILE,
              "one row's scores fit the scratch (its scores and probabilities alone)");
/// s[i] = scale * <q, k_i> for the N key rows k_i ldk apart: vectors along D (one partial vector
/// last), N independent sums sharing the query's loads.
template <int N>
MIE_UK_INLINE void scoreKeys(const float *q, const float *k, int64_t ldk, int64_t D, float scale,
                             float *s) {
  vf acc[N];
  for (int i = 0; i < N; ++i)
    acc[i] = splat(0.0f);
  int64_t e = 0;
  for (; e + VL <= D; e += VL) {
    const vf qv = load(q + e);
    for (int i = 0; i < N; ++i)
      acc[i] = fma(qv, load(k + i * ldk + e), acc[i]);
  }
  if (e < D) {
    const vf qv = loadFirst(q + e, D - e);
    for (int i = 0; i < N; ++i)
      acc[i] = fma(qv, loadFirst(k + i * ldk + e, D - e), acc[i]);
  }
  for (int i = 0; i < N; ++i)
    s[i] = sumLanes(acc[i]) * scale;
}

/// out[0, n) = alpha * out[0, n) (first: 0) + sum_j p[j] * rows[j][0, n) over kt rows ld apart,
/// NV vectors of columns at a time in registers.
template <int NV>
MIE_UK_INLINE void accumulateRows(float *out, int64_t n, bool first, float alpha, const float *p,
                                  const float *rows, int64_t ld, int64_t kt) {
  const int64_t last = n - (NV - 1) * VL; // lanes of the last vector: 1..VL
  vf acc[NV];
  for (int w = 0; w < NV; ++w)
    acc[w] = first ? splat(0.0f) : loadN(out + w * VL, w + 1 < NV ? VL : last) * splat(alpha);
  for (int64_t j = 0; j < kt; ++j) {
    const vf pj = splat(p[j]);
    const float *row = rows + j * ld;
    for (int w = 0; w < NV; ++w)
      acc[w] = fma(pj, loadN(row + w * VL, w + 1 < NV ? VL : last), acc[w]);
  }
  const float z = opaqueZero();
  for (int w = 0; w < NV; ++w)
    storeN(out + w * VL, acc[w], w + 1 < NV ? VL : last, z);
}

/// Rows in place (see the file comment): a row's scores are dot products of its query with the
/// key rows, its output the sum of the value rows weighted by the probabilities, both read in
/// place. Scratch: one row's scores for a key tile.
void attendRowsInPlace(const float *q, int64_t ldq, const float *k, int64_t ldk, const float *v,
                       int64_t ldv, const float *mask, int64_t mask_ls, int64_t mask_lt,
                       float *o, int64_t ldo, int64_t rows, int64_t T, int64_t D, int64_t Dv,
                       float scale, bool causal, int64_t diag, float *scratch) {
  float *s = scratch;
  const float z = opaqueZero();
  for (int64_t r = 0; r < rows; ++r) {
    const float *qr = q + r * ldq;
    float *orow = o + r * ldo;
    // Causal: row r sees the keys up to its diagonal diag + r.
    const int64_t keys = causal && diag + r + 1 < T ? diag + r + 1 : T;
    if (keys <= 0) { // no key visible: the softmax of nothing but -inf, NaN as in the reference
      fillFloats(orow, Dv, __builtin_nanf("") + z);
      continue;
    }
    float runMax = -__builtin_inff(), runSum = 0.0f;
    for (int64_t t0 = 0; t0 < keys; t0 += kAttRowKT) {
      const int64_t kt = keys - t0 < kAttRowKT ? keys - t0 : kAttRowKT;
      const float *kr = k + t0 * ldk;
      // Scores, four keys at a time.
      int64_t j = 0;
      for (; j + 4 <= kt; j += 4)
        scoreKeys<4>(qr, kr + j * ldk, ldk, D, scale, s + j);
      for (; j < kt; ++j)
        scoreKeys<1>(qr, kr + j * ldk, ldk, D, scale, s + j);
      if (mask) {
        const float *mrow = mask + r * mask_ls + t0 * mask_lt;
        if (mask_lt == 1) {
          for (j = 0; j + VL <= kt; j += VL)
            store(s + j, load(s + j) + load(mrow + j));
          for (; j < kt; ++j)
            s[j] += mrow[j];
        } else {
          for (j = 0; j < kt; ++j)
            s[j] += mrow[j * mask_lt];
        }
      }
      // Online softmax: new maximum, rescale factor of what was accumulated, probabilities.
      float mx = rowMax(s, kt);
      mx = mx > runMax ? mx : runMax;
      // A row masked out (-inf) so far: exponents relative to 0 instead of -inf - -inf = NaN;
      // its terms are 0 until a key is visible, as in the reference.
      if (mx == -__builtin_inff())
        mx = 0.0f;
      const bool first = t0 == 0;
      const float alpha = first ? 0.0f : expScalar(runMax - mx);
      vf sum = splat(0.0f);
      float tail = 0.0f;
      for (j = 0; j + VL <= kt; j += VL) {
        vf p = exp(load(s + j) - splat(mx));
        sum += p;
        store(s + j, p);
      }
      for (; j < kt; ++j) {
        float p = expScalar(s[j] - mx);
        tail += p;
        s[j] = p;
      }
      runSum = runSum * alpha + sumLanes(sum) + tail;
      runMax = mx;
      // Output += P V over this key tile, four vectors of value columns at a time.
      const float *vr = v + t0 * ldv;
      for (int64_t c0 = 0; c0 < Dv; c0 += 4 * VL) {
        const int64_t nc = Dv - c0 < 4 * VL ? Dv - c0 : 4 * VL;
        if (nc > 3 * VL)
          accumulateRows<4>(orow + c0, nc, first, alpha, s, vr + c0, ldv, kt);
        else if (nc > 2 * VL)
          accumulateRows<3>(orow + c0, nc, first, alpha, s, vr + c0, ldv, kt);
        else if (nc > VL)
          accumulateRows<2>(orow + c0, nc, first, alpha, s, vr + c0, ldv, kt);
        else
          accumulateRows<1>(orow + c0, nc, first, alpha, s, vr + c0, ldv, kt);
      }
    }
    scaleRow(orow, Dv, 1.0f / runSum);
  }
}

/// Query rows per block of the queries-in-lanes layout (one register tile's columns), and its
/// keys per tile: scores of about 8 KB, so that they, Q^T and O^T stay in a 32 KB L1 (128 keys
/// of AVX-512's 32 queries made 32 KB of them and ran at 0.75x the speed).
constexpr int64_t kAttNQ = kAttNR;
#if defined(MIE_UK_ISA_AVX512)
static_assert(kAttNQ == MIE_UK_ATTENTION_QUERY_BLOCK_AVX512, "the compiler sizes work items by it");
#elif defined(MIE_UK_ISA_AVX2)
static_assert(kAttNQ == MIE_UK_ATTENTION_QUERY_BLOCK_AVX2, "the compiler sizes work items by it");
#else
static_assert(kAttNQ == MIE_UK_ATTENTION_QUERY_BLOCK_NEON, "the compiler sizes work items by it");
#endif
constexpr int64_t kAttQueryKT = 2048 / kAttNQ < kAttKT ? 2048 / kAttNQ : kAttKT;

/// Runs `run(TileRows<R>{})` with R = m, for 1 <= m <= MR: a tile of exactly m rows.
template <int MR, typename Run> MIE_UK_INLINE void withTileRows(int64_t m, Run &&run) {
  if (m == MR)
    return run(TileRows<MR>{});
  if (m == 1)
    return run(TileRows<1>{});
  withPartialTileRows<MR>(m, run);
}

/// acc += A B over k with the LHS read in place: A(i, p) = a[i * lda + p] (rowMajor: R key rows,
/// D floats each) or a[p * lda + i] (R value columns of k value rows), broadcast per step; B rows
/// of NV vectors, kAttNQ floats apart.
template <int R, int NV, bool rowMajor>
MIE_UK_INLINE void inPlaceProducts(vf (&acc)[R][NV], const float *__restrict a, int64_t lda,
                                   const float *__restrict b, int64_t k) {
  const float *rowsOfA[R];
  for (int i = 0; i < R; ++i)
    rowsOfA[i] = a + (rowMajor ? i * lda : i);
  // Not unrolled: two steps' broadcasts from R rows made LLVM load them all ahead and spill.
#pragma clang loop unroll(disable)
  for (int64_t p = 0; p < k; ++p) {
    vf bv[NV];
    for (int w = 0; w < NV; ++w)
      bv[w] = load(b + p * kAttNQ + w * VL);
    for (int i = 0; i < R; ++i) {
      vf av = splat(rowMajor ? rowsOfA[i][p] : rowsOfA[i][p * lda]);
      for (int w = 0; w < NV; ++w)
        acc[i][w] = fma(av, bv[w], acc[i][w]);
    }
  }
}

/// out[i] = alpha * out[i] + A B (rows of kAttNQ floats; `alpha` null: from zero) for the `rows`
/// LHS rows of A read in place (inPlaceProducts), MR rows a register tile: the score tiles (A the
/// key rows, B Q^T) and the output's (A the value columns, B the probabilities).
template <bool rowMajor>
MIE_UK_INLINE void inPlaceTiles(int64_t rows, const float *a, int64_t lda, const float *b,
                                int64_t k, float *out, const vf *alpha) {
  for (int64_t i0 = 0; i0 < rows; i0 += kAttMR) {
    withTileRows<kAttMR>(rows - i0 < kAttMR ? rows - i0 : kAttMR, [&](auto r) MIE_UK_LAMBDA_INLINE {
      constexpr int R = decltype(r)::value;
      float *c = out + i0 * kAttNQ;
      vf acc[R][kAttNV];
      for (int i = 0; i < R; ++i)
        for (int w = 0; w < kAttNV; ++w)
          acc[i][w] = alpha ? load(c + i * kAttNQ + w * VL) * alpha[w] : splat(0.0f);
      inPlaceProducts<R, kAttNV, rowMajor>(acc, a + (rowMajor ? i0 * lda : i0), lda, b, k);
      for (int i = 0; i < R; ++i)
        for (int w = 0; w < kAttNV; ++w)
          store(c + i * kAttNQ + w * VL, acc[i][w]);
    });
  }
}

/// Queries in the vector lanes (see the file comment): blocks of kAttNQ query rows, keys in tiles
/// of kAttQueryKT. Scratch: Q^T [D][NQ], scores and then probabilities S^T [KT][NQ], O^T [Dv][NQ].
void attendQueriesInLanes(const float *q, int64_t ldq, const float *k, int64_t ldk,
                          const float *v, int64_t ldv, const float *mask, int64_t mask_ls,
                          int64_t mask_lt, float *o, int64_t ldo, int64_t rows, int64_t T,
                          int64_t D, int64_t Dv, float scale, bool causal, int64_t diag,
                          float *scratch) {
  float *qt = scratch;
  float *st = qt + D * kAttNQ;
  float *ot = st + kAttQueryKT * kAttNQ;
  const vf minusInf = splat(-__builtin_inff());
  for (int64_t r0 = 0; r0 < rows; r0 += kAttNQ) {
    const int64_t m = rows - r0 < kAttNQ ? rows - r0 : kAttNQ;
    // Q^T scaled, zero lanes past m (their scores are 0: finite, never stored).
    packQueries<kAttNQ>(q, ldq, r0, m, D, scale, qt);
    vf runMax[kAttNV], runSum[kAttNV];
    for (int w = 0; w < kAttNV; ++w) {
      runMax[w] = minusInf;
      runSum[w] = splat(0.0f);
    }
    // Causal: no row of the block sees a key past its last row's diagonal.
    const int64_t keys = causal && diag + r0 + m < T ? diag + r0 + m : T;
    for (int64_t t0 = 0; t0 < keys; t0 += kAttQueryKT) {
      const int64_t kt = keys - t0 < kAttQueryKT ? keys - t0 : kAttQueryKT;
      const bool first = t0 == 0;
      // S^T[j][i] = scale * <k_(t0 + j), q_(r0 + i)>, MR keys a tile.
      inPlaceTiles<true>(kt, k + t0 * ldk, ldk, qt, D, st, nullptr);
      if (mask) {
        for (int64_t j = 0; j < kt; ++j) {
          float *srow = st + j * kAttNQ;
          const float *mcol = mask + r0 * mask_ls + (t0 + j) * mask_lt;
          if (mask_ls == 0) { // one value per key (a padding mask)
            for (int w = 0; w < kAttNV; ++w)
              store(srow + w * VL, load(srow + w * VL) + splat(mcol[0]));
          } else {
            for (int64_t i = 0; i < m; ++i)
              srow[i] += mcol[i * mask_ls];
          }
        }
      }
      // Causal: key t0 + j is hidden from the rows i < t0 + j - diag - r0.
      if (causal) {
        for (int64_t j = diag + r0 + 1 - t0 > 0 ? diag + r0 + 1 - t0 : 0; j < kt; ++j) {
          const int32_t hidden = int32_t(t0 + j - diag - r0);
          for (int w = 0; w < kAttNV; ++w) {
            vf x = load(st + j * kAttNQ + w * VL);
            store(st + j * kAttNQ + w * VL,
                  laneIndex() + int32_t(w * VL) < vi(hidden) ? minusInf : x);
          }
        }
      }
      // Online softmax down the keys, one vector per VL queries.
      vf alpha[kAttNV], sum[kAttNV];
      for (int w = 0; w < kAttNV; ++w) {
        vf mx = runMax[w];
        for (int64_t j = 0; j < kt; ++j)
          mx = vmax(mx, load(st + j * kAttNQ + w * VL));
        // A query masked out (-inf) so far: exponents relative to 0 instead of -inf - -inf =
        // NaN; its terms are 0 until a key is visible, as in the reference.
        mx = mx == minusInf ? splat(0.0f) : mx;
        alpha[w] = first ? splat(0.0f) : exp(runMax[w] - mx);
        runMax[w] = mx;
        sum[w] = splat(0.0f);
      }
      for (int64_t j = 0; j < kt; ++j)
        for (int w = 0; w < kAttNV; ++w) {
          vf p = exp(load(st + j * kAttNQ + w * VL) - runMax[w]);
          sum[w] += p;
          store(st + j * kAttNQ + w * VL, p);
        }
      for (int w = 0; w < kAttNV; ++w)
        runSum[w] = runSum[w] * alpha[w] + sum[w];
      // O^T = alpha O^T + V^T P^T over this key tile, MR value columns a tile.
      inPlaceTiles<false>(Dv, v + t0 * ldv, ldv, st, kt, ot, first ? nullptr : alpha);
    }
    // O = (O^T)^T / sum, the block's m rows.
    float inv[kAttNQ];
    for (int w = 0; w < kAttNV; ++w)
      store(inv + w * VL, splat(1.0f) / runSum[w]);
    for (int64_t i = 0; i < m; ++i) {
      float *row = o + (r0 + i) * ldo;
      for (int64_t c = 0; c < Dv; ++c)
        row[c] = ot[c * kAttNQ + i] * inv[i];
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
  mask = flags & MIE_UK_ATTENTION_MASK ? mask + mask_off : nullptr;
  // Causal: keys past the last row's diagonal are hidden from every row; none is computed.
  const bool causal = flags & MIE_UK_ATTENTION_CAUSAL;
  if (causal && diag + rows < T)
    T = diag + rows;
  // Queries in the lanes from half a block of rows on, where O^T fits the scratch (value rows up
  // to about 4 D: mie_uk_attention_scratch_floats sizes by D); fewer rows, or wider values, in
  // place.
  const bool queriesInLanes =
      rows >= kAttNQ / 2 &&
      (D + kAttQueryKT + Dv) * kAttNQ <= mie_uk_attention_scratch_floats(D, rows) - 2 * rows;
  (queriesInLanes ? attendQueriesInLanes : attendRowsInPlace)(q, ldq, k, ldk, v, ldv, mask,
                                                              mask_ls, mask_lt, o, ldo, rows, T, D,
                                                              Dv, scale, causal, diag, scratch);
}

#undef MIE_UK_ATT_NAME
