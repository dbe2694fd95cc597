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

MIE_UK_INLINE void inputTransform(const float *__restrict x, int64_t H, int64_t W, int64_t PH,
                                  int64_t PW, int64_t TH, int64_t TW, int64_t C, int64_t c0,
                                  int64_t cn, float *__restrict v, float *__restrict plane) {
  const float z = opaqueZero();
  const int64_t T = TH * TW;
  const int64_t rows = 2 * TH + 2, cols = 2 * TW + 2, ld = cols + MIE_UK_WINOGRAD_SLACK;
  for (int64_t c = c0; c < c0 + cn; ++c) {
    // Tile (th, tw) reads plane rows 2 th .. 2 th + 3 and columns 2 tw .. 2 tw + 3 < cols.
    fillPaddedPlane(x + c * H * W, H, W, PH, PW, rows, cols, ld, plane, z);
    for (int64_t th = 0; th < TH; ++th) {
      const float *r0 = plane + 2 * th * ld;
      for (int64_t tw0 = 0; tw0 < TW; tw0 += VL) {
        // d[i][j] for VL tiles: input (2 th + i, 2 tw + j).
        vf t[4][4];
        for (int j = 0; j < 4; ++j) {
          vf d0 = loadEven(r0 + 2 * tw0 + j), d1 = loadEven(r0 + ld + 2 * tw0 + j);
          vf d2 = loadEven(r0 + 2 * ld + 2 * tw0 + j), d3 = loadEven(r0 + 3 * ld + 2 * tw0 + j);
          t[0][j] = d0 - d2;
          t[1][j] = d1 + d2;
          t[2][j] = d2 - d1;
          t[3][j] = d1 - d3;
        }
        const int64_t n = TW - tw0;
        float *base = v + c * T + th * TW + tw0;
        for (int i = 0; i < 4; ++i) {
          storeN(base + (i * 4 + 0) * C * T, t[i][0] - t[i][2], n, z);
          storeN(base + (i * 4 + 1) * C * T, t[i][1] + t[i][2], n, z);
          storeN(base + (i * 4 + 2) * C * T, t[i][2] - t[i][1], n, z);
          storeN(base + (i * 4 + 3) * C * T, t[i][1] - t[i][3], n, z);
        }
      }
    }
  }
}

MIE_UK_INLINE void outputTransform(const float *__restrict m, int64_t F, int64_t TH, int64_t TW,
                                   int64_t OH, int64_t OW, int64_t f0, int64_t fn,
                                   float *__restrict out, int64_t flags, const float *bias,
                                   const float *res, float lo, float hi) {
  const float z = opaqueZero();
  const int64_t T = TH * TW;
  for (int64_t f = f0; f < f0 + fn; ++f) {
    const float b = (flags & MIE_UK_BIAS) ? bias[f] : 0.0f;
    for (int64_t th = 0; th < TH; ++th) {
      for (int64_t tw0 = 0; tw0 < TW; tw0 += VL) {
        const int64_t n = TW - tw0;
        const float *base = m + f * T + th * TW + tw0;
        vf r[2][4];
        for (int j = 0; j < 4; ++j) {
          vf m0 = loadN(base + (0 * 4 + j) * F * T, n), m1 = loadN(base + (1 * 4 + j) * F * T, n);
          vf m2 = loadN(base + (2 * 4 + j) * F * T, n), m3 = loadN(base + (3 * 4 + j) * F * T, n);
          r[0][j] = m0 + m1 + m2;
          r[1][j] = m1 - m2 - m3;
        }
        for (int i = 0; i < 2; ++i) {
          const int64_t oh = 2 * th + i;
          if (oh >= OH)
            break;
          vf y0 = r[i][0] + r[i][1] + r[i][2], y1 = r[i][1] - r[i][2] - r[i][3];
          // Output columns 2 tw0 .. 2 tw0 + 2 VL of row oh: (y0 y1) interleaved.
          const int64_t col = 2 * tw0;
          const int64_t valid = OW - col; // > 0: tw0 < TW = ceil(OW / 2)
          float *o = out + (f * OH + oh) * OW + col;
          const float *rr = res ? res + (f * OH + oh) * OW + col : nullptr;
          const int64_t v0 = valid < VL ? valid : VL;
          const int64_t v1 = valid - VL;
          storeN(o, epilogueVector(zipLo(y0, y1), flags, b, rr, v0, lo, hi), v0, z);
          if (v1 > 0)
            storeN(o + VL,
                   epilogueVector(zipHi(y0, y1), flags, b, rr ? rr + VL : nullptr, v1, lo, hi), v1,
                   z);
        }
      }
    }
  }
}

/// Lanes 0, 4, 8, ... of the 4 VL floats at p: input column 4 tw + j of VL consecutive tiles.
MIE_UK_INLINE vf loadStride4(const float *p) { return evenLanes(loadEven(p), loadEven(p + 2 * VL)); }

/// B^T d along one axis of a 6x6 patch, F(4x4, 3x3) (interpolation points 0, +-1, +-2).
MIE_UK_INLINE void inputAxis6(const vf (&d)[6], vf (&t)[6]) {
  t[0] = fma(splat(4.0f), d[0], fma(splat(-5.0f), d[2], d[4]));
  t[1] = fma(splat(-4.0f), d[1] + d[2], d[3] + d[4]);
  t[2] = fma(splat(4.0f), d[1] - d[2], d[4] - d[3]);
  t[3] = fma(splat(2.0f), d[3] - d[1], d[4] - d[2]);
  t[4] = fma(splat(-2.0f), d[3] - d[1], d[4] - d[2]);
  t[5] = fma(splat(4.0f), d[1], fma(splat(-5.0f), d[3], d[5]));
}

/// A^T m along one axis, six transformed elements to four outputs.
MIE_UK_INLINE void outputAxis6(const vf (&m)[6], vf (&r)[4]) {
  const vf s12 = m[1] + m[2], d12 = m[1] - m[2], s34 = m[3] + m[4], d34 = m[3] - m[4];
  r[0] = m[0] + s12 + s34;
  r[1] = fma(splat(2.0f), d34, d12);
  r[2] = fma(splat(4.0f), s34, s12);
  r[3] = fma(splat(8.0f), d34, d12) + m[5];
}

MIE_UK_INLINE void inputTransform4(const float *__restrict x, int64_t H, int64_t W, int64_t PH,
                                   int64_t PW, int64_t TH, int64_t TW, int64_t C, int64_t c0,
                                   int64_t cn, float *__restrict v, float *__restrict plane) {
  const float z = opaqueZero();
  const int64_t T = TH * TW;
  const int64_t rows = 4 * TH + 2, cols = 4 * TW + 2, ld = cols + MIE_UK_WINOGRAD_SLACK;
  for (int64_t c = c0; c < c0 + cn; ++c) {
    // Tile (th, tw) reads plane rows 4 th .. 4 th + 5 and columns 4 tw .. 4 tw + 5 < cols.
    fillPaddedPlane(x + c * H * W, H, W, PH, PW, rows, cols, ld, plane, z);
    for (int64_t th = 0; th < TH; ++th) {
      const float *r0 = plane + 4 * th * ld;
      for (int64_t tw0 = 0; tw0 < TW; tw0 += VL) {
        vf t[6][6]; // t[i][j]: row i of B^T d, column j, for VL tiles
        for (int j = 0; j < 6; ++j) {
          vf d[6], col[6];
          for (int r = 0; r < 6; ++r)
            d[r] = loadStride4(r0 + r * ld + 4 * tw0 + j);
          inputAxis6(d, col);
          for (int i = 0; i < 6; ++i)
            t[i][j] = col[i];
        }
        const int64_t n = TW - tw0;
        float *base = v + c * T + th * TW + tw0;
        for (int i = 0; i < 6; ++i) {
          vf u[6];
          inputAxis6(t[i], u);
          for (int j = 0; j < 6; ++j)
            storeN(base + (i * 6 + j) * C * T, u[j], n, z);
        }
      }
    }
  }
}

MIE_UK_INLINE void outputTransform4(const float *__restrict m, int64_t F, int64_t TH, int64_t TW,
                                    int64_t OH, int64_t OW, int64_t f0, int64_t fn,
                                    float *__restrict out, int64_t flags, const float *bias,
                                    const float *res, float lo, float hi) {
  const float z = opaqueZero();
  const int64_t T = TH * TW;
  for (int64_t f = f0; f < f0 + fn; ++f) {
    const float b = (flags & MIE_UK_BIAS) ? bias[f] : 0.0f;
    for (int64_t th = 0; th < TH; ++th) {
      for (int64_t tw0 = 0; tw0 < TW; tw0 += VL) {
        const int64_t n = TW - tw0;
        const float *base = m + f * T + th * TW + tw0;
        vf r[4][6]; // r[i][j]: row i of A^T m, column j
        for (int j = 0; j < 6; ++j) {
          vf col[6], o[4];
          for (int i = 0; i < 6; ++i)
            col[i] = loadN(base + (i * 6 + j) * F * T, n);
          outputAxis6(col, o);
          for (int i = 0; i < 4; ++i)
            r[i][j] = o[i];
        }
        for (int i = 0; i < 4; ++i) {
          const int64_t oh = 4 * th + i;
          if (oh >= OH)
            break;
          vf y[4];
          outputAxis6(r[i], y);
          // Output columns 4 tw0 .. 4 tw0 + 4 VL of row oh: (y0 y1 y2 y3) interleaved.
          const vf a0 = zipLo(y[0], y[2]), a1 = zipHi(y[0], y[2]);
          const vf b0 = zipLo(y[1], y[3]), b1 = zipHi(y[1], y[3]);
          const vf o[4] = {zipLo(a0, b0), zipHi(a0, b0), zipLo(a1, b1), zipHi(a1, b1)};
          const int64_t col = 4 * tw0;
          const int64_t valid = OW - col; // > 0: tw0 < TW = ceil(OW / 4)
          float *dst = out + (f * OH + oh) * OW + col;
          const float *rr = res ? res + (f * OH + oh) * OW + col : nullptr;
          for (int q = 0; q < 4 && q * VL < valid; ++q) {
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

extern "C" __attribute__((always_inline)) void MIE_UK_WG_NAME(mie_uk_f32_winograd_input_2x2_3x3)(
    const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t PH, int64_t PW,
    int64_t TH, int64_t TW, int64_t c0, int64_t cn, float *v, int64_t v_off, float *plane) {
  inputTransform(x + x_off, H, W, PH, PW, TH, TW, C, c0, cn, v + v_off, plane);
}

extern "C" __attribute__((always_inline)) void MIE_UK_WG_NAME(mie_uk_f32_winograd_output_2x2_3x3)(
    const float *m, int64_t m_off, int64_t F, int64_t TH, int64_t TW, int64_t OH, int64_t OW,
    int64_t f0, int64_t fn, float *out, int64_t out_off, int64_t flags, const float *bias,
    int64_t bias_off, const float *res, int64_t res_off, float lo, float hi) {
  outputTransform(m + m_off, F, TH, TW, OH, OW, f0, fn, out + out_off, flags, bias + bias_off,
                  (flags & MIE_UK_RESIDUAL) ? res + res_off : nullptr, lo, hi);
}

extern "C" __attribute__((always_inline)) void MIE_UK_WG_NAME(mie_uk_f32_winograd_input_4x4_3x3)(
    const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t PH, int64_t PW,
    int64_t TH, int64_t TW, int64_t c0, int64_t cn, float *v, int64_t v_off, float *plane) {
  inputTransform4(x + x_off, H, W, PH, PW, TH, TW, C, c0, cn, v + v_off, plane);
}

extern "C" __attribute__((always_inline)) void MIE_UK_WG_NAME(mie_uk_f32_winograd_output_4x4_3x3)(
    const float *m, int64_t m_off, int64_t F, int64_t TH, int64_t TW, int64_t OH, int64_t OW,
    int64_t f0, int64_t fn, float *out, int64_t out_off, int64_t flags, const float *bias,
    int64_t bias_off, const float *res, int64_t res_off, float lo, float hi) {
  outputTransform4(m + m_off, F, TH, TW, OH, OW, f0, fn, out + out_off, flags, bias + bias_off,
                   (flags & MIE_UK_RESIDUAL) ? res + res_off : nullptr, lo, hi);
}
