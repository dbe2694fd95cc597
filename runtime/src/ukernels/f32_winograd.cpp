//===- f32_winograd.cpp - Winograd F(2x2, 3x3), F(4x4, 3x3) transforms per ISA -===//
//
// A 3x3 stride-1 convolution as 16 GEMMs (Lavin & Gray, "Fast Algorithms for Convolutional Neural
// Networks"): every 2x2 output tile is A^T [ (G g G^T) . (B^T d B) ] A for its 4x4 input patch d,
// so the 16 element-wise products become 16 GEMMs U[xi] (F x C) x V[xi] (C x T) over all T tiles,
// run on the GEMM tiles. 2.25x fewer multiplications than the direct form. F(4x4, 3x3) does the
// same with 6x6 patches, 4x4 output tiles and 36 GEMMs: 4x fewer multiplications, for feature maps
// large enough to fill its tiles (its transforms cost more per element and round a little more).
// These are the data transforms; the weights U are transformed at compile time. All vectorize
// across the tiles of a tile row: V and M are [16 or 36][C or F][T], contiguous in the tile index.
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"
#include "ukernel_vector.h"

using namespace mie_uk;

namespace {

/// (a0 b0 a1 b1 ...): the first and second VL lanes of the interleaving of a and b.
MIE_UK_INLINE vf zipLo(vf a, vf b) {
#if MIE_UK_VL == 16
  return __builtin_shufflevector(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
#elif MIE_UK_VL == 8
  return __builtin_shufflevector(a, b, 0, 8, 1, 9, 2, 10, 3, 11);
#else
  return __builtin_shufflevector(a, b, 0, 4, 1, 5);
#endif
}
MIE_UK_INLINE vf zipHi(vf a, vf b) {
#if MIE_UK_VL == 16
  return __builtin_shufflevector(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15,
                                 31);
#elif MIE_UK_VL == 8
  return __builtin_shufflevector(a, b, 4, 12, 5, 13, 6, 14, 7, 15);
#else
  return __builtin_shufflevector(a, b, 2, 6, 3, 7);
#endif
}

/// Column j of the patches of VL consecutive tiles of a tile row: every M-th float from p (the
/// tiles start M columns apart).
template <int M>
MIE_UK_INLINE vf loadTileColumn(const float *p) {
  static_assert(M == 2 || M == 4, "F(2x2, 3x3) and F(4x4, 3x3) only");
  if constexpr (M == 2)
    return loadEven(p);
  else
    return evenLanes(loadEven(p), loadEven(p + 2 * VL));
}

/// B^T d along one axis of a patch: F(2x2, 3x3) (points 0, +-1) and F(4x4, 3x3) (0, +-1, +-2).
MIE_UK_INLINE void inputAxis(const vf (&d)[4], vf (&t)[4]) {
  t[0] = d[0] - d[2];
  t[1] = d[1] + d[2];
  t[2] = d[2] - d[1];
  t[3] = d[1] - d[3];
}
MIE_UK_INLINE void inputAxis(const vf (&d)[6], vf (&t)[6]) {
  t[0] = fma(splat(4.0f), d[0], fma(splat(-5.0f), d[2], d[4]));
  t[1] = fma(splat(-4.0f), d[1] + d[2], d[3] + d[4]);
  t[2] = fma(splat(4.0f), d[1] - d[2], d[4] - d[3]);
  t[3] = fma(splat(2.0f), d[3] - d[1], d[4] - d[2]);
  t[4] = fma(splat(-2.0f), d[3] - d[1], d[4] - d[2]);
  t[5] = fma(splat(4.0f), d[1], fma(splat(-5.0f), d[3], d[5]));
}

/// A^T m along one axis: M + 2 transformed elements to M outputs.
MIE_UK_INLINE void outputAxis(const vf (&m)[4], vf (&r)[2]) {
  r[0] = m[0] + m[1] + m[2];
  r[1] = m[1] - m[2] - m[3];
}
MIE_UK_INLINE void outputAxis(const vf (&m)[6], vf (&r)[4]) {
  const vf s12 = m[1] + m[2], d12 = m[1] - m[2], s34 = m[3] + m[4], d34 = m[3] - m[4];
  r[0] = m[0] + s12 + s34;
  r[1] = fma(splat(2.0f), d34, d12);
  r[2] = fma(splat(4.0f), s34, s12);
  r[3] = fma(splat(8.0f), d34, d12) + m[5];
}

/// An output row's M columns of VL tiles (y[c]: column c of every tile) in memory order: M vectors
/// of y[0][l] y[1][l] ... y[M - 1][l] for tiles l = 0, 1, ...
MIE_UK_INLINE void interleave(const vf (&y)[2], vf (&o)[2]) {
  o[0] = zipLo(y[0], y[1]);
  o[1] = zipHi(y[0], y[1]);
}
MIE_UK_INLINE void interleave(const vf (&y)[4], vf (&o)[4]) {
  const vf a0 = zipLo(y[0], y[2]), a1 = zipHi(y[0], y[2]);
  const vf b0 = zipLo(y[1], y[3]), b1 = zipHi(y[1], y[3]);
  o[0] = zipLo(a0, b0);
  o[1] = zipHi(a0, b0);
  o[2] = zipLo(a1, b1);
  o[3] = zipHi(a1, b1);
}

/// V = B^T d B for the (M + 2) x (M + 2) patch of every M x M output tile, channels [c0, c0 + cn).
template <int M>
MIE_UK_INLINE void inputTransform(const float *__restrict x, int64_t H, int64_t W, int64_t PH,
                                  int64_t PW, int64_t TH, int64_t TW, int64_t C, int64_t c0,
                                  int64_t cn, float *__restrict v, float *__restrict plane) {
  constexpr int A = M + 2;
  const float z = opaqueZero();
  const int64_t T = TH * TW;
  const int64_t rows = M * TH + 2, cols = M * TW + 2, ld = cols + MIE_UK_WINOGRAD_SLACK;
  for (int64_t c = c0; c < c0 + cn; ++c) {
    // Tile (th, tw) reads plane rows M th .. M th + M + 1 and columns M tw .. M tw + M + 1 < cols.
    fillPaddedPlane(x + c * H * W, H, W, PH, PW, rows, cols, ld, plane, z, -1,
                    /*interiorOnly=*/c != c0);
    for (int64_t th = 0; th < TH; ++th) {
      const float *r0 = plane + M * th * ld;
      for (int64_t tw0 = 0; tw0 < TW; tw0 += VL) {
        vf t[A][A]; // t[i][j]: row i of B^T d, column j, for VL tiles
        for (int j = 0; j < A; ++j) {
          vf d[A], col[A];
          for (int r = 0; r < A; ++r)
            d[r] = loadTileColumn<M>(r0 + r * ld + M * tw0 + j);
          inputAxis(d, col);
          for (int i = 0; i < A; ++i)
            t[i][j] = col[i];
        }
        const int64_t n = TW - tw0;
        float *base = v + c * T + th * TW + tw0;
        for (int i = 0; i < A; ++i) {
          vf u[A];
          inputAxis(t[i], u);
          for (int j = 0; j < A; ++j)
            storeN(base + (i * A + j) * C * T, u[j], n, z);
        }
      }
    }
  }
}

/// Y = A^T m A for every M x M output tile of filters [f0, f0 + fn), the epilogue on each stored
/// vector.
template <int M>
MIE_UK_INLINE void outputTransform(const float *__restrict m, int64_t F, int64_t TH, int64_t TW,
                                   int64_t OH, int64_t OW, int64_t f0, int64_t fn,
                                   float *out, int64_t flags, const float *bias,
                                   const float *res, float lo, float hi) {
  constexpr int A = M + 2;
  const float z = opaqueZero();
  const int64_t T = TH * TW;
  for (int64_t f = f0; f < f0 + fn; ++f) {
    const float b = (flags & MIE_UK_BIAS) ? bias[f] : 0.0f;
    for (int64_t th = 0; th < TH; ++th) {
      for (int64_t tw0 = 0; tw0 < TW; tw0 += VL) {
        const int64_t n = TW - tw0;
        const float *base = m + f * T + th * TW + tw0;
        vf r[M][A]; // r[i][j]: row i of A^T m, column j
        for (int j = 0; j < A; ++j) {
          vf col[A], o[M];
          for (int i = 0; i < A; ++i)
            col[i] = loadN(base + (i * A + j) * F * T, n);
          outputAxis(col, o);
          for (int i = 0; i < M; ++i)
            r[i][j] = o[i];
        }
        for (int i = 0; i < M; ++i) {
          const int64_t oh = M * th + i;
          if (oh >= OH)
            break;
          vf y[M], o[M];
          outputAxis(r[i], y);
          interleave(y, o); // output columns M tw0 .. M tw0 + M VL of row oh
          const int64_t col = M * tw0;
          const int64_t valid = OW - col; // > 0: tw0 < TW = ceil(OW / M)
          float *dst = out + (f * OH + oh) * OW + col;
          const float *rr = res ? res + (f * OH + oh) * OW + col : nullptr;
          for (int q = 0; q < M && q * VL < valid; ++q) {
            const int64_t nq = valid - q * VL < VL ? valid - q * VL : VL;
            storeN(dst + q * VL,
                   epilogueVector(o[q], flags, b, rr ? rr + q * VL : nullptr, nq, lo, hi), nq, z);
          }
        }
      }
    }
  }
}

} // namespace

#if defined(MIE_UK_ISA_AVX512)
#define MIE_UK_WG_NAME(name) name##_avx512
#elif defined(MIE_UK_ISA_AVX2)
#define MIE_UK_WG_NAME(name) name##_avx2
#else
#define MIE_UK_WG_NAME(name) name##_neon
#endif

// mie_uk_f32_winograd_{input,output}_MxM_3x3_<isa> for F(M x M, 3x3).
#define MIE_UK_WG_ENTRIES(M)                                                                       \
  extern "C" __attribute__((always_inline)) void MIE_UK_WG_NAME(                                   \
      mie_uk_f32_winograd_input_##M##x##M##_3x3)(                                                  \
      const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t PH, int64_t PW,      \
      int64_t TH, int64_t TW, int64_t c0, int64_t cn, float *v, int64_t v_off, float *plane) {     \
    inputTransform<M>(x + x_off, H, W, PH, PW, TH, TW, C, c0, cn, v + v_off, plane);               \
  }                                                                                                \
  extern "C" __attribute__((always_inline)) void MIE_UK_WG_NAME(                                   \
      mie_uk_f32_winograd_output_##M##x##M##_3x3)(                                                 \
      const float *m, int64_t m_off, int64_t F, int64_t TH, int64_t TW, int64_t OH, int64_t OW,    \
      int64_t f0, int64_t fn, float *out, int64_t out_off, int64_t flags, const float *bias,       \
      int64_t bias_off, const float *res, int64_t res_off, float lo, float hi) {                   \
    outputTransform<M>(m + m_off, F, TH, TW, OH, OW, f0, fn, out + out_off, flags,                 \
                       bias + bias_off, (flags & MIE_UK_RESIDUAL) ? res + res_off : nullptr, lo,   \
                       hi);                                                                        \
  }
MIE_UK_WG_ENTRIES(2)
MIE_UK_WG_ENTRIES(4)
#undef MIE_UK_WG_ENTRIES
