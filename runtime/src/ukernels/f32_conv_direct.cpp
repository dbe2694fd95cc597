//===- f32_conv_direct.cpp - NCHW convolution without packing, per ISA ----===//
//
// For convolutions with a short reduction (K = C * KH * KW up to a few hundred: the stems of image
// networks, 3 input channels) packing the implicit GEMM's pixel panels costs as much as the
// products, since every packed element serves only F / VL vector FMAs. Here a band of output rows
// gets its input rows copied once into a zero-padded plane per channel; the register tiles then
// read their K rows straight from it through a table of offsets (one per (c, kh, kw), the
// "indirect" GEMM of XNNPACK) with plain vector loads. For stride 2 each padded row is stored split
// into its even and its odd columns, so a tap's lanes are again contiguous (no shuffles in the
// inner loop). The filter is the packed LHS of the implicit GEMM, so the tiles, epilogue and
// weight layout are the GEMM's.
//
//===----------------------------------------------------------------------===//

#include "f32_tile.h"
#include "mie_ukernels.h"
#include "ukernel_vector.h"

using namespace mie_uk;

namespace {

/// One MR x NR tile: filters [MR] x output pixels [NR] of one row, K rows read at b + off[p].
template <int MR, int NV>
MIE_UK_INLINE void directTile(const float *__restrict a, const float *__restrict b,
                              const int64_t *__restrict off, int64_t k, float *__restrict c,
                              int64_t ldc, int64_t m, int64_t n, int64_t flags, const float *bias,
                              const float *res, int64_t ldr, float lo, float hi) {
  vf acc[MR][NV];
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v)
      acc[i][v] = splat(0.0f);
  for (int64_t p = 0; p < k; ++p) {
    const float *row = b + off[p];
    vf bv[NV];
    for (int v = 0; v < NV; ++v)
      bv[v] = load(row + v * VL);
    for (int i = 0; i < MR; ++i) {
      vf av = splat(a[p * MR + i]);
      for (int v = 0; v < NV; ++v)
        acc[i][v] = fma(av, bv[v], acc[i][v]);
    }
  }
  finishTile<MR, NV>(acc, c, ldc, m, n, flags, bias, res, ldr, lo, hi);
}

template <int MR, int NV>
MIE_UK_INLINE void convDirect(const float *__restrict x, int64_t C, int64_t H, int64_t W,
                              int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t PH,
                              int64_t PW, int64_t DH, int64_t DW, int64_t OH, int64_t OW,
                              int64_t F, const float *__restrict w, int64_t oh0, int64_t ohn,
                              float *__restrict out, int64_t flags, const float *bias,
                              const float *res, float lo, float hi, float *__restrict plane) {
  constexpr int NR = NV * VL;
  const float z = opaqueZero();
  const int64_t K = C * KH * KW;
  const int64_t rows = (ohn - 1) * SH + (KH - 1) * DH + 1;
  const int64_t cols = (OW - 1) * SW + (KW - 1) * DW + 1;
  const int64_t ld = mie_uk_conv_direct_plane_ld(KW, SW, DW, OW, NR);
  // The band's input rows start at oh0 * SH - PH: a plane per channel, padding as zeros; with
  // stride 2 a row holds its even columns in [0, half) and its odd ones in [half, ld).
  const int64_t half = ld / 2;
  for (int64_t ch = 0; ch < C; ++ch) {
    float *cp = plane + ch * rows * ld;
    if (SW != 2) {
      fillPaddedPlane(x + ch * H * W, H, W, PH - oh0 * SH, PW, rows, cols, ld, cp, z);
      continue;
    }
    fillSplitPlane(x + ch * H * W, H, W, PH - oh0 * SH, PW, rows, ld, half, cp, z);
  }
  int64_t off[MIE_UK_CONV_DIRECT_MAX_K];
  for (int64_t ch = 0, p = 0; ch < C; ++ch)
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw) {
        const int64_t col = kw * DW; // column of output pixel 0's tap in the padded row
        off[p++] = ch * rows * ld + kh * DH * ld + (SW == 2 ? (col % 2) * half + col / 2 : col);
      }
  const int64_t plane_size = OH * OW;
  for (int64_t oh = oh0; oh < oh0 + ohn; ++oh) {
    const float *band = plane + (oh - oh0) * SH * ld;
    for (int64_t f0 = 0; f0 < F; f0 += MR) {
      const int64_t m = F - f0 < MR ? F - f0 : MR;
      const float *a = w + f0 * K; // panel f0 / MR of [ceil(F / MR)][K][MR]
      for (int64_t ow0 = 0; ow0 < OW; ow0 += NR) {
        const int64_t n = OW - ow0 < NR ? OW - ow0 : NR;
        const int64_t o = f0 * plane_size + oh * OW + ow0;
        // Stride 2: pixel ow0's tap sits ow0 columns into its (even or odd) half row.
        withTileVectors<NV>(n, [&](auto v) MIE_UK_LAMBDA_INLINE {
          directTile<MR, decltype(v)::value>(a, band + (SW == 2 ? ow0 : ow0 * SW), off, K, out + o,
                                             plane_size, m, n, flags, bias + f0,
                                             res ? res + o : nullptr, plane_size, lo, hi);
        });
      }
    }
  }
}

} // namespace

#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff)                                                     \
  MIE_UK_WHEN_##isa(extern "C" __attribute__((noinline)) void                                      \
                        mie_uk_f32_conv_direct_nchw_##MR##x##NR##_##isa(                           \
                            const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W,        \
                            int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t PH, int64_t PW, \
                            int64_t DH, int64_t DW, int64_t OH, int64_t OW, int64_t F,             \
                            const float *w, int64_t w_off, int64_t oh0, int64_t ohn, float *out,   \
                            int64_t out_off, int64_t flags, const float *bias, int64_t bias_off,   \
                            const float *res, int64_t res_off, float lo, float hi, float *plane) { \
    convDirect<MR, NR / VL>(x + x_off, C, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OH, OW, F,         \
                            w + w_off, oh0, ohn, out + out_off, flags, bias + bias_off,            \
                            (flags & MIE_UK_RESIDUAL) ? res + res_off : nullptr, lo, hi, plane);   \
  })
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
