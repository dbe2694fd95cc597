//===- f32_tile.h - loading and finishing register tiles --------*- C++ -*-===//
//
// Shared by the microkernels that keep an MR x NR tile of accumulators (the GEMM tiles, the direct
// convolution): partial and transposed loads of C-shaped blocks, and the epilogue (bias, residual,
// activation, clamp) applied to the registers before the one store. Part of the per-ISA unit
// (ukernels.cpp); needs ukernel_vector.h.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_UK_F32_TILE_H
#define MIE_UK_F32_TILE_H

namespace mie_uk {

/// Loads an m x n block, element (i, j) at p[i * rowStride + j * colStride], into a full MR x NR
/// tile, zeros elsewhere: the edge-tile and transposed path, which never touches memory past the
/// block.
template <int MR, int NV>
MIE_UK_INLINE void loadBlock(vf (&t)[MR][NV], const float *p, int64_t rowStride, int64_t colStride,
                             int64_t m, int64_t n) {
  float tmp[MR][NV * VL];
  const float z = opaqueZero();
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NV * VL; ++j)
      tmp[i][j] = (i < m && j < n) ? p[i * rowStride + j * colStride] + z : z;
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v)
      t[i][v] = load(&tmp[i][v * VL]);
}

#if MIE_UK_VL == 16
/// 8 x 16 blocks transposed in registers (AVX-512 tiles of 8 rows: the pixels-as-rows products
/// store their tiles transposed into NCHW outputs, 16 filters x 8 pixels a block). Three rounds of
/// two-source shuffles (rows in pairs, then fours, then eights) turn 8 rows of 16 columns into 8
/// vectors of two columns each; one element at a time, the stores (and the residual's loads) took
/// about as long as a 256-long K loop of the tile. `transposeRows8x16` and `transposeCols8x16`
/// are inverses: rows r[8] <-> w[8], w[q] = column 2q (lanes 0-7) then column 2q + 1 (lanes 8-15).
typedef float v8f __attribute__((ext_vector_type(8)));
typedef float v8fu __attribute__((ext_vector_type(8), aligned(4)));

MIE_UK_INLINE void transposeRows8x16(const vf (&r)[8], vf (&w)[8]) {
  vf s1[8], s2[8];
  for (int i = 0; i < 4; ++i) { // s1[2i]: columns 0-7 of rows 2i, 2i + 1; s1[2i + 1]: columns 8-15
    s1[2 * i] = __builtin_shufflevector(r[2 * i], r[2 * i + 1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20,
                                        5, 21, 6, 22, 7, 23);
    s1[2 * i + 1] = __builtin_shufflevector(r[2 * i], r[2 * i + 1], 8, 24, 9, 25, 10, 26, 11, 27,
                                            12, 28, 13, 29, 14, 30, 15, 31);
  }
  for (int h = 0; h < 2; ++h)   // rows 0-3, then 4-7
    for (int g = 0; g < 2; ++g) { // columns 0-7, then 8-15, of s1
      const vf &a = s1[4 * h + g], &b = s1[4 * h + g + 2];
      // s2[4h + 2g]: 4 columns x 4 rows (lanes 4j + row), the first four columns; + 1: the next four.
      s2[4 * h + 2 * g] = __builtin_shufflevector(a, b, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6,
                                                  7, 22, 23);
      s2[4 * h + 2 * g + 1] = __builtin_shufflevector(a, b, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28,
                                                      29, 14, 15, 30, 31);
    }
  for (int q = 0; q < 4; ++q) { // s2[q]: rows 0-3 of columns 4q..4q+3, s2[4 + q]: rows 4-7
    w[2 * q] = __builtin_shufflevector(s2[q], s2[4 + q], 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20,
                                       21, 22, 23);
    w[2 * q + 1] = __builtin_shufflevector(s2[q], s2[4 + q], 8, 9, 10, 11, 24, 25, 26, 27, 12, 13,
                                           14, 15, 28, 29, 30, 31);
  }
}

MIE_UK_INLINE void transposeCols8x16(const vf (&w)[8], vf (&r)[8]) {
  vf s1[8], s2[8];
  for (int q = 0; q < 4; ++q) {
    s2[q] = __builtin_shufflevector(w[2 * q], w[2 * q + 1], 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19,
                                    24, 25, 26, 27);
    s2[4 + q] = __builtin_shufflevector(w[2 * q], w[2 * q + 1], 4, 5, 6, 7, 12, 13, 14, 15, 20, 21,
                                        22, 23, 28, 29, 30, 31);
  }
  for (int h = 0; h < 2; ++h)
    for (int g = 0; g < 2; ++g) {
      const vf &a = s2[4 * h + 2 * g], &b = s2[4 * h + 2 * g + 1];
      s1[4 * h + g] = __builtin_shufflevector(a, b, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25,
                                              28, 29);
      s1[4 * h + g + 2] = __builtin_shufflevector(a, b, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23,
                                                  26, 27, 30, 31);
    }
  for (int i = 0; i < 4; ++i) {
    r[2 * i] = evenLanes(s1[2 * i], s1[2 * i + 1]);
    r[2 * i + 1] = __builtin_shufflevector(s1[2 * i], s1[2 * i + 1], 1, 3, 5, 7, 9, 11, 13, 15, 17,
                                           19, 21, 23, 25, 27, 29, 31);
  }
}

typedef bool v8mask __attribute__((ext_vector_type(8)));

/// The first m (0..8) of 8 lanes.
MIE_UK_INLINE v8mask first8(int64_t m) {
  typedef int32_t v8i __attribute__((ext_vector_type(8)));
  return __builtin_convertvector(v8i{0, 1, 2, 3, 4, 5, 6, 7} < v8i(int32_t(m)), v8mask);
}

/// Tiles of at most 8 rows, NV vectors: the m x n corner of the tile to / from p[j * ld + i]
/// (rows past MR are zeros in the transpose; a partial corner's columns are masked stores of m
/// floats, or masked loads with zeros past the corner).
template <int MR, int NV>
MIE_UK_INLINE void storeTransposed8(float *p, int64_t ld, const vf (&t)[MR][NV], int64_t m,
                                    int64_t n) {
  static_assert(MR <= 8, "at most 8 rows");
  const bool full = m == 8 && n == NV * VL;
  const v8mask rows = first8(m);
  for (int v = 0; v < NV && v * VL < n; ++v) {
    vf r[8], w[8];
    for (int i = 0; i < 8; ++i)
      r[i] = i < MR ? t[i][v] : splat(0.0f);
    transposeRows8x16(r, w);
    float *col = p + v * VL * ld;
    for (int q = 0; q < 8; ++q) {
      const v8f lo = __builtin_shufflevector(w[q], w[q], 0, 1, 2, 3, 4, 5, 6, 7);
      const v8f hi = __builtin_shufflevector(w[q], w[q], 8, 9, 10, 11, 12, 13, 14, 15);
      const int64_t j = v * VL + 2 * q;
      if (full) {
        *reinterpret_cast<v8fu *>(col + 2 * q * ld) = lo;
        *reinterpret_cast<v8fu *>(col + (2 * q + 1) * ld) = hi;
        continue;
      }
      if (j < n)
        __builtin_masked_store(rows, lo, col + 2 * q * ld);
      if (j + 1 < n)
        __builtin_masked_store(rows, hi, col + (2 * q + 1) * ld);
    }
  }
}

template <int MR, int NV>
MIE_UK_INLINE void loadTransposed8(vf (&t)[MR][NV], const float *p, int64_t ld, int64_t m,
                                   int64_t n) {
  static_assert(MR <= 8, "at most 8 rows");
  const bool full = m == 8 && n == NV * VL;
  const v8mask rows = first8(m);
  for (int v = 0; v < NV; ++v) {
    vf r[8], w[8];
    const float *col = p + v * VL * ld;
    for (int q = 0; q < 8; ++q) {
      const int64_t j = v * VL + 2 * q;
      v8f a = v8f(0.0f), b = v8f(0.0f);
      if (full) {
        a = *reinterpret_cast<const v8fu *>(col + 2 * q * ld);
        b = *reinterpret_cast<const v8fu *>(col + (2 * q + 1) * ld);
      } else {
        if (j < n)
          a = __builtin_masked_load(rows, col + 2 * q * ld, v8f(0.0f));
        if (j + 1 < n)
          b = __builtin_masked_load(rows, col + (2 * q + 1) * ld, v8f(0.0f));
      }
      w[q] = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    }
    transposeCols8x16(w, r);
    for (int i = 0; i < MR; ++i)
      t[i][v] = r[i];
  }
}
#endif

/// A tile width of NV vectors, as a type (for withTileVectors' callbacks).
template <int NV> struct TileVectors {
  static constexpr int value = NV;
};

/// Runs `run(TileVectors<V>{})` with V = NV, or NV - 1 for a partial last tile whose n columns fit
/// one vector fewer (the pixels past the last full panel of a row): its K loop then spends no vector
/// of FMAs on zero columns. The GEMM tiles and the direct convolution's share it.
template <int NV, typename Run> MIE_UK_INLINE void withTileVectors(int64_t n, Run &&run) {
  if constexpr (NV > 1)
    if (n <= (NV - 1) * VL)
      return run(TileVectors<NV - 1>{});
  run(TileVectors<NV>{});
}

/// The m x n block of a C-shaped buffer (row stride ld; stored transposed when `transposed`, as
/// MIE_UK_TRANSPOSE_C says): whole vector loads for a full tile, loadBlock otherwise.
template <int MR, int NV>
MIE_UK_INLINE void loadTile(vf (&t)[MR][NV], const float *p, int64_t ld, int64_t m, int64_t n,
                            bool transposed) {
#if MIE_UK_VL == 16
  if constexpr (MR <= 8)
    if (transposed)
      return loadTransposed8<MR, NV>(t, p, ld, m, n);
#endif
  if (transposed)
    return loadBlock<MR, NV>(t, p, 1, ld, m, n);
  if (m == MR && n == NV * VL) {
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v)
        t[i][v] = load(p + i * ld + v * VL);
    return;
  }
  if (n == NV * VL) { // whole rows, fewer of them: vector loads of the first m, zeros past them
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v)
        t[i][v] = i < m ? load(p + i * ld + v * VL) : splat(0.0f);
    return;
  }
  loadBlock<MR, NV>(t, p, ld, 1, m, n);
}

/// Stores the m x n corner of a tile transposed: (i, j) to c[j * ldc + i], so each column of the
/// tile becomes one contiguous run of m floats.
template <int MR, int NV>
MIE_UK_INLINE void storeTransposed(float *c, int64_t ldc, const vf (&t)[MR][NV], int64_t m,
                                   int64_t n) {
  constexpr int NR = NV * VL;
#if MIE_UK_VL == 16
  if constexpr (MR <= 8)
    return storeTransposed8<MR, NV>(c, ldc, t, m, n);
#endif
  float tmp[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v)
      store(&tmp[i][v * VL], t[i][v]);
  const float z = opaqueZero();
  if (m == MR && n == NR) {
    for (int j = 0; j < NR; ++j)
      for (int i = 0; i < MR; ++i)
        c[j * ldc + i] = tmp[i][j] + z;
    return;
  }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i)
      c[j * ldc + i] = tmp[i][j] + z;
}

/// The activation and clamp of an epilogue (flags as for the GEMM tiles) on a tile's f32
/// registers, after its bias and residual: shared by the f32 and the reduced-storage tiles.
template <int MR, int NV>
MIE_UK_INLINE void activateTile(vf (&acc)[MR][NV], int64_t flags, float lo, float hi) {
  const int act = int((flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
  if (act != MIE_UK_ACT_NONE)
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v)
        acc[i][v] = activate(acc[i][v], act);
  if (flags & MIE_UK_CLAMP)
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v)
        acc[i][v] = clamp(acc[i][v], lo, hi);
}

/// activateTile on `count` vectors in memory, out of line: one copy per unit serves the partial
/// tiles of every row count (gemmTile's exactRows), whose inlined activations (erf, tanh and
/// sigmoid polynomials for every register) made the tiles 3.4x larger and a package's compile
/// 1.5-2.2x slower. (Unused in units without GEMM tiles, such as the attention kernel's.)
__attribute__((noinline, unused)) static void activateVectors(vf *x, int64_t count,
                                                              int64_t flags, float lo, float hi) {
  const int act = int((flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff);
#pragma clang loop unroll(disable)
  for (int64_t i = 0; i < count; ++i) {
    vf y = act != MIE_UK_ACT_NONE ? activate(x[i], act) : x[i];
    x[i] = (flags & MIE_UK_CLAMP) ? clamp(y, lo, hi) : y;
  }
}

/// The epilogue (when MIE_UK_EPILOGUE) on the m x n corner of a tile, then its store to C (row
/// stride ldc; transposed with MIE_UK_TRANSPOSE_C): everything a tile does after its K loop. The
/// residual is read whole before the first store, so it may be C itself (memory planning writes an
/// output over a residual that dies there: `mie.in_place_input`), hence no __restrict on c.
template <int MR, int NV, bool activateOutOfLine = false>
MIE_UK_INLINE void finishTile(vf (&acc)[MR][NV], float *c, int64_t ldc, int64_t m,
                              int64_t n, int64_t flags, const float *bias, const float *res,
                              int64_t ldr, float lo, float hi) {
  constexpr int NR = NV * VL;
  const bool full = m == MR && n == NR;
  const bool transposed = flags & MIE_UK_TRANSPOSE_C;
  if (flags & MIE_UK_EPILOGUE) {
    if (flags & MIE_UK_BIAS) {
      if (flags & MIE_UK_BIAS_PER_COL) {
        vf bb[NV];
        if (n == NR) {
          for (int v = 0; v < NV; ++v)
            bb[v] = load(bias + v * VL);
        } else {
          vf one[1][NV];
          loadBlock<1, NV>(one, bias, 0, 1, 1, n);
          for (int v = 0; v < NV; ++v)
            bb[v] = one[0][v];
        }
        for (int i = 0; i < MR; ++i)
          for (int v = 0; v < NV; ++v)
            acc[i][v] += bb[v];
      } else {
        for (int i = 0; i < MR; ++i) {
          vf bi = splat(i < m ? bias[i] : 0.0f);
          for (int v = 0; v < NV; ++v)
            acc[i][v] += bi;
        }
      }
    }
    if (flags & MIE_UK_RESIDUAL) {
      vf r[MR][NV];
      loadTile<MR, NV>(r, res, ldr, m, n, transposed);
      for (int i = 0; i < MR; ++i)
        for (int v = 0; v < NV; ++v)
          acc[i][v] += r[i][v];
    }
    if constexpr (activateOutOfLine) {
      if (flags & ((int64_t(0xff) << MIE_UK_ACTIVATION_SHIFT) | MIE_UK_CLAMP)) {
        // Through a copy: the accumulators' own address never escapes, so they stay in registers.
        vf flat[MR * NV];
        for (int i = 0; i < MR; ++i)
          for (int v = 0; v < NV; ++v)
            flat[i * NV + v] = acc[i][v];
        activateVectors(flat, MR * NV, flags, lo, hi);
        for (int i = 0; i < MR; ++i)
          for (int v = 0; v < NV; ++v)
            acc[i][v] = flat[i * NV + v];
      }
    } else {
      activateTile<MR, NV>(acc, flags, lo, hi);
    }
  }

  if (transposed) {
    storeTransposed<MR, NV>(c, ldc, acc, m, n);
    return;
  }
  if (full) {
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v)
        store(c + i * ldc + v * VL, acc[i][v]);
    return;
  }
  if (n == NR) { // whole rows, fewer of them (a partial tile of rows known at run time only)
    for (int i = 0; i < MR; ++i)
      if (i < m)
        for (int v = 0; v < NV; ++v)
          store(c + i * ldc + v * VL, acc[i][v]);
    return;
  }
  float tmp[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v)
      store(&tmp[i][v * VL], acc[i][v]);
  const float z = opaqueZero();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      c[i * ldc + j] = tmp[i][j] + z;
}

/// K steps ahead that tileProducts prefetches its LHS panel (MR floats a step: 32 steps are 8-16
/// cache lines) and its B rows (NR floats a step, possibly a plane apart). 16 and 4 steps measured
/// within the noise of these.
constexpr int64_t kPrefetchARows = 32, kPrefetchBRows = 8;

/// acc += A B over k: `a` a packed LHS panel [k][MR], `b` rows of NR floats ldb apart. With
/// `prefetchNext`, also prefetches the NR floats after each row (the next panel of an operand read
/// in place, whose rows the hardware prefetchers do not follow); with `streamed`, the rows a few
/// steps ahead (operands that come from L3 or memory; not the attention kernel's L1 tiles).
template <int MR, int NV, bool prefetchNext, bool streamed, int stride = MR>
MIE_UK_INLINE void tileProducts(vf (&acc)[MR][NV], const float *__restrict a,
                                const float *__restrict b, int64_t ldb, int64_t k) {
#pragma clang loop unroll_count(2)
  for (int64_t p = 0; p < k; ++p) {
    vf bv[NV];
    for (int v = 0; v < NV; ++v)
      bv[v] = load(b + p * ldb + v * VL);
    if (prefetchNext) {
      // The next panel's row: NV * VL floats, one or two cache lines.
      __builtin_prefetch(b + p * ldb + NV * VL, 0, 3);
      __builtin_prefetch(b + p * ldb + 2 * NV * VL - 1, 0, 3);
    }
    // The rows a few steps ahead: weights streamed from L3 or memory once per inference (the
    // packed filters of late layers, a linear layer's B panels) and NCHW rows a whole plane apart
    // miss in L1 on every step, and the hardware prefetchers cover neither in time on an Intel
    // Xeon (resnet50 1 thread: kernels 0.93x, the 7x7 layers 0.77-0.90x). Each costs a load slot,
    // which the tiles with more FMAs than loads per step have spare.
    if (streamed) {
      __builtin_prefetch(a + (p + kPrefetchARows) * stride, 0, 3);
      for (int v = 0; v < NV; ++v)
        __builtin_prefetch(b + (p + kPrefetchBRows) * ldb + v * VL, 0, 3);
    }
    for (int i = 0; i < MR; ++i) {
      vf av = splat(a[p * stride + i]);
      for (int v = 0; v < NV; ++v)
        acc[i][v] = fma(av, bv[v], acc[i][v]);
    }
  }
}

/// Prefetches the m rows of C (for write) and of the residual (when the epilogue adds one) that a
/// tile finishes with. In a convolution they lie a whole output plane apart, which no hardware
/// prefetcher follows: without this the epilogue waits for MR cache misses, and the stores for MR
/// more, once per tile; fetched before the K loop, they arrive while it computes. For the GEMM
/// tile entry points only: the attention kernel's tiles live in L1.
template <int NV>
MIE_UK_INLINE void prefetchTileRows(const float *c, int64_t ldc, int64_t m, int64_t flags,
                                    const float *res, int64_t ldr) {
  if (flags & MIE_UK_TRANSPOSE_C)
    return;
  const bool residual =
      (flags & (MIE_UK_EPILOGUE | MIE_UK_RESIDUAL)) == (MIE_UK_EPILOGUE | MIE_UK_RESIDUAL);
  for (int64_t i = 0; i < m; ++i) {
    __builtin_prefetch(c + i * ldc, 1, 3);
    __builtin_prefetch(c + i * ldc + NV * VL - 1, 1, 3);
    if (residual) {
      __builtin_prefetch(res + i * ldr, 0, 3);
      __builtin_prefetch(res + i * ldr + NV * VL - 1, 0, 3);
    }
  }
}

/// K steps a register tile sums from zero before adding them to the tile's running total (MLAS's
/// 256; gemmTileRows).
constexpr int64_t kTileSumChunk = 256;

/// gemmTile on the first R rows of a packed panel whose rows lie `stride` floats apart (MR).
/// `partial`: exactly R = m rows of a larger tile (gemmTile's exactRows), one copy per row count,
/// so the least code: the activation out of line (finishTile), and no K loop of its own for the
/// next panel's prefetch (MIE_UK_PREFETCH_NEXT_B, which the few partial tiles of a run can do
/// without).
template <int R, int NV, int stride, bool streamed, bool partial = false>
MIE_UK_INLINE void gemmTileRows(const float *__restrict a, const float *__restrict b, int64_t ldb,
                                float *c, int64_t ldc, int64_t k, int64_t m, int64_t n,
                                int64_t flags, const float *bias, const float *res, int64_t ldr,
                                float lo, float hi) {
  vf acc[R][NV];
  for (int i = 0; i < R; ++i)
    for (int v = 0; v < NV; ++v)
      acc[i][v] = splat(0.0f);
  // The sums over K in chunks of kTileSumChunk, each from zero, added up on the stack: one
  // sequential f32 sum over a long K loses digits as it grows (resnet50's classifier, K = 2048 at
  // logits of ~190: 4e-4 from onnxruntime, whose MLAS sums 256 at a time; chunked, 9e-5). The
  // partial sums stay out of C: C may be the residual's buffer, read by the last K block's epilogue.
  // One site of the K loop: each is inlined with its prefetch variants into every tile shape and
  // partial row count, so a second one would double the kernels' code.
  vf sums[R][NV];
  int64_t p0 = 0;
  for (;; p0 += kTileSumChunk) {
    const int64_t kb = k - p0 < kTileSumChunk ? k - p0 : kTileSumChunk;
    if (!partial && (flags & MIE_UK_PREFETCH_NEXT_B))
      tileProducts<R, NV, true, streamed, stride>(acc, a + p0 * stride, b + p0 * ldb, ldb, kb);
    else
      tileProducts<R, NV, false, streamed, stride>(acc, a + p0 * stride, b + p0 * ldb, ldb, kb);
    if (p0 + kb >= k)
      break;
    for (int i = 0; i < R; ++i)
      for (int v = 0; v < NV; ++v) {
        sums[i][v] = p0 == 0 ? acc[i][v] : sums[i][v] + acc[i][v];
        acc[i][v] = splat(0.0f);
      }
  }
  if (p0 > 0)
    for (int i = 0; i < R; ++i)
      for (int v = 0; v < NV; ++v)
        acc[i][v] = sums[i][v] + acc[i][v];
  // What earlier K blocks left in C is added last, as one more chunk.
  if (flags & MIE_UK_ACCUMULATE) {
    vf prev[R][NV];
    loadTile<R, NV>(prev, c, ldc, m, n, flags & MIE_UK_TRANSPOSE_C);
    for (int i = 0; i < R; ++i)
      for (int v = 0; v < NV; ++v)
        acc[i][v] = prev[i][v] + acc[i][v];
  }

  finishTile<R, NV, /*activateOutOfLine=*/partial>(acc, c, ldc, m, n, flags, bias, res, ldr, lo,
                                                   hi);
}

/// Runs `run(TileRows<R>{})` with R = m, for 1 < m < MR.
template <int R> struct TileRows {
  static constexpr int value = R;
};
template <int MR, int R = 2, typename Run>
MIE_UK_INLINE void withPartialTileRows(int64_t m, Run &&run) {
  if constexpr (R < MR) {
    if (m == R)
      return run(TileRows<R>{});
    return withPartialTileRows<MR, R + 1>(m, run);
  }
}

/// One register tile of C (m x n of MR x NR, row stride ldc) += or = A B over k: `a` is a packed
/// LHS panel [k][MR] (rows broadcast), `b` rows of NR floats ldb apart (vector loads), then the
/// epilogue and the store (finishTile). The GEMM tiles and the attention kernel's two products.
/// A single row (a matrix-vector product: classifiers, squeeze-excite) runs one row of
/// accumulators: the full tile would spend MR times the FMAs on the panel's zero rows (on AVX-512's
/// 8x48 tile, 1.75x the AVX2 time of mobilenet_v3's classifier). `streamed`: the operands come from
/// L3 or memory (the GEMM tile entry points), so the K loop prefetches ahead. `exactRows` (the
/// GEMM tile entry points): a partial tile runs exactly its m rows of accumulators (rows known at
/// run time only: 5 or 7 rows on an 8-row tile cost 8 rows' FMAs before, 1.6x and 1.15x the
/// time), each row's sums in the order of a full tile's, so that a row's result does not depend
/// on the rows beside it; the attention kernel's query blocks are mostly full (its code stays
/// smaller).
template <int MR, int NV, bool streamed, bool exactRows = false>
MIE_UK_INLINE void gemmTile(const float *__restrict a, const float *__restrict b, int64_t ldb,
                            float *c, int64_t ldc, int64_t k, int64_t m, int64_t n,
                            int64_t flags, const float *bias, const float *res, int64_t ldr,
                            float lo, float hi) {
  if (MR > 1 && m == 1)
    return gemmTileRows<1, NV, MR, streamed>(a, b, ldb, c, ldc, k, m, n, flags, bias, res, ldr, lo,
                                             hi);
  if constexpr (exactRows && MR > 2)
    if (m < MR)
      return withPartialTileRows<MR>(m, [&](auto r) MIE_UK_LAMBDA_INLINE {
        gemmTileRows<decltype(r)::value, NV, MR, streamed, /*partial=*/true>(
            a, b, ldb, c, ldc, k, m, n, flags, bias, res, ldr, lo, hi);
      });
  withTileVectors<NV>(n, [&](auto v) MIE_UK_LAMBDA_INLINE {
    gemmTileRows<MR, decltype(v)::value, MR, streamed>(a, b, ldb, c, ldc, k, m, n, flags, bias, res,
                                                       ldr, lo, hi);
  });
}

} // namespace mie_uk

#endif // MIE_UK_F32_TILE_H
