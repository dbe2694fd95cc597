//===- qu8_conv_vnni.cpp - uint8 x int8 convolution on AVX512-VNNI ---------===//
//
// The integer kernel of a QDQ model's DequantizeLinear -> Conv -> QuantizeLinear: uint8 activations
// times int8 weights summed exactly in int32 by VPDPBUSD (16 lanes x 4 products per instruction),
// then one requantization per output, as onnxruntime's QLinearConv (MLAS) does it:
//   y = clamp(round_half_even(float(acc + bias[f]) * scale[f]), y_min - y_zero, y_max - y_zero)
//       + y_zero
// where acc = sum_k x[k] * w[f][k] over the raw uint8 activations, and bias[f] (computed at compile
// time) holds the int32 bias minus x_zero * sum_k w[f][k]: the activation's zero point costs
// nothing at run time. Padding is the activation zero point (the quantized 0.0).
//
// The GEMM is the NCHW one of docs/kernels.md: out[F][P] = W[F][K] x im2col[K][P], K = C * KH * KW
// in (c, kh, kw) order. Pixels are the vector lanes (the output rows are stored as they are),
// filters are broadcast: VPDPBUSD multiplies the 4 uint8 of a dword lane by the 4 int8 of the
// broadcast dword, so both sides hold k in groups of 4:
//   filters (packed at compile time, mie_uk_qu8_pack_conv_filter):
//     [ceil(F / 8)][ceil(K / 4)][8][4] int8, zero past F and K
//   pixels (packed at run time, per tile of 32 pixels): [ceil(K / 4)][32][4] uint8
// A register tile is 8 filters x 32 pixels (16 accumulators). mie_uk_qu8_conv_nchw_vnni packs all
// its pixel tiles (mie_uk_qu8_pack_conv_vnni), then runs each filter group over them, its weights
// in L1 (mie_uk_qu8_gemm_vnni); the generated code calls the two halves itself where several work
// items share one block of pixels.
//
// Built into the units of the AVX-512 targets with VNNI (ukernels.cpp with MIE_UK_VNNI or
// MIE_UK_AMX, -mavx512vnni): x86-64-avx512-vnni and x86-64-amx (every CPU with AMX has
// AVX512-VNNI).
//
//===----------------------------------------------------------------------===//

#include "mie_ukernels.h"

#include <immintrin.h>

namespace {

constexpr int64_t MR = MIE_UK_QU8_MR, NR = MIE_UK_QU8_NR;

/// The window reads of one tile of 32 output pixels. The tile's pixels are runs along output rows
/// (segments); the row of one tap (i, j) of one channel is one register filled by one masked load
/// per segment, each load's pointer moved back by the segment's first lane so that its pixels land
/// in their lanes (x_zero where the window leaves the image).
class TileWindows {
public:
  TileWindows(int64_t H, int64_t W, int64_t SH, int64_t SW, int64_t DH, int64_t DW, int64_t PT,
              int64_t PL, int64_t OW, int64_t p0, int64_t np, uint8_t xZero)
      : H(H), W(W), SH(SH), SW(SW), DH(DH), DW(DW), PT(PT), PL(PL),
        fill(_mm256_set1_epi8((char)xZero)), fillWords(_mm512_set1_epi16(xZero)) {
    for (int64_t p = p0, end = p0 + np; p < end; ++count) {
      const int64_t ox = p % OW, len = end - p < OW - ox ? end - p : OW - ox;
      segments[count] = {p / OW, ox, len, p - p0};
      p += len;
    }
  }

  /// Selects tap (i, j): per segment, the channel-plane offset of its first lane's column minus
  /// the lane's place, and the lanes whose column lies in the image (none where the row is out).
  void selectTap(int64_t i, int64_t j) {
    loads = 0;
    for (int64_t s = 0; s < count; ++s) {
      const Segment &g = segments[s];
      const int64_t iy = g.oy * SH - PT + i * DH, ix0 = g.ox * SW - PL + j * DW;
      if (iy < 0 || iy >= H)
        continue;
      int64_t qlo = ix0 >= 0 ? 0 : (-ix0 + SW - 1) / SW;
      int64_t qhi = ix0 > W - 1 ? 0 : (W - 1 - ix0) / SW + 1;
      qhi = qhi < g.len ? qhi : g.len;
      if (qlo >= qhi)
        continue;
      const uint64_t lanes = (((uint64_t)1 << (qhi - qlo)) - 1) << (qlo + g.lane);
      offset[loads] = iy * W + ix0 - g.lane * SW;
      // Stride 2 loads words: lane q's byte is the low byte of word q.
      mask[loads++] = SW == 2 ? _pdep_u64(lanes, 0x5555555555555555ull) : lanes;
    }
  }

  /// The selected tap's row of the channel plane at `plane`.
  __m256i row(const uint8_t *plane) const {
    if (SW == 1) {
      __m256i v = fill;
      for (int64_t s = 0; s < loads; ++s)
        v = _mm256_mask_loadu_epi8(v, (__mmask32)mask[s], plane + offset[s]);
      return v;
    }
    if (SW == 2) {
      __m512i words = fillWords;
      for (int64_t s = 0; s < loads; ++s)
        words = _mm512_mask_loadu_epi8(words, (__mmask64)mask[s], plane + offset[s]);
      return _mm512_cvtepi16_epi8(words);
    }
    alignas(32) uint8_t tmp[NR];
    _mm256_store_si256((__m256i *)tmp, fill);
    for (int64_t s = 0; s < loads; ++s)
      for (int64_t q = 0; q < NR; ++q)
        if (mask[s] >> q & 1)
          tmp[q] = plane[offset[s] + q * SW];
    return _mm256_load_si256((const __m256i *)tmp);
  }

private:
  struct Segment {
    int64_t oy, ox, len, lane;
  };
  int64_t H, W, SH, SW, DH, DW, PT, PL;
  __m256i fill;
  __m512i fillWords; // stride 2: x_zero in the even bytes
  Segment segments[NR];
  int64_t count = 0;
  int64_t offset[NR];
  uint64_t mask[NR];
  int64_t loads = 0;
};

/// One group of the panel layout: dword lane p of the two stores (64 bytes each) holds the 4 rows'
/// bytes of pixel p, from z0 = r0[0:16) r0[16:32) r1[0:16) r1[16:32) and z1 the same of r2, r3.
/// Byte and word unpacks (which work within 128-bit lanes, so lanes are regrouped before and
/// after): 10 shuffles per group where widening each row to dwords, shifting and or-ing took 24
/// operations, a quarter of the packing time.
inline void storeQuads(__m512i z0, __m512i z1, uint8_t *dst) {
  const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13),
                second = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
  const __m512i a = _mm512_shuffle_i64x2(z0, z1, _MM_SHUFFLE(1, 0, 1, 0)); // r0, r0, r2, r2
  const __m512i b = _mm512_shuffle_i64x2(z0, z1, _MM_SHUFFLE(3, 2, 3, 2)); // r1, r1, r3, r3
  // Byte pairs (r0 r1 | r2 r3) of pixels 0-7, 16-23 (lo) and 8-15, 24-31 (hi) of each lane.
  const __m512i lo = _mm512_unpacklo_epi8(a, b), hi = _mm512_unpackhi_epi8(a, b);
  // Pairs of r0 r1 (c) and of r2 r3 (d), lanes of pixels 0-7, 16-23, 8-15, 24-31.
  const __m512i c = _mm512_shuffle_i64x2(lo, hi, _MM_SHUFFLE(1, 0, 1, 0));
  const __m512i d = _mm512_shuffle_i64x2(lo, hi, _MM_SHUFFLE(3, 2, 3, 2));
  // Quads: lanes of pixels 0-3, 16-19, 8-11, 24-27 (l) and 4-7, 20-23, 12-15, 28-31 (h).
  const __m512i l = _mm512_unpacklo_epi16(c, d), h = _mm512_unpackhi_epi16(c, d);
  _mm512_store_si512((__m512i *)dst, _mm512_permutex2var_epi64(l, first, h));
  _mm512_store_si512((__m512i *)(dst + 64), _mm512_permutex2var_epi64(l, second, h));
}

inline __m512i rowPair(__m256i r0, __m256i r1) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
}

/// The staging rows [K][32] of one tile, K in (c, kh, kw) order.
void stageTile(const uint8_t *x, int64_t C, int64_t H, int64_t W, int64_t KH, int64_t KW,
               TileWindows &windows, uint8_t *stage) {
  for (int64_t i = 0; i < KH; ++i)
    for (int64_t j = 0; j < KW; ++j) {
      windows.selectTap(i, j);
      for (int64_t c = 0; c < C; ++c)
        _mm256_store_si256((__m256i *)(stage + ((c * KH + i) * KW + j) * NR),
                           windows.row(x + c * H * W));
    }
}

/// The panel of one tile with K in (kh, kw, c) order (mie_uk_qu8_tap_major: C a multiple of 4):
/// each group is 4 channels at one tap, interleaved from registers, no staging.
void quadTapsTile(const uint8_t *x, int64_t C, int64_t H, int64_t W, int64_t KH, int64_t KW,
                  TileWindows &windows, uint8_t *panel) {
  const int64_t plane = H * W;
  for (int64_t i = 0; i < KH; ++i)
    for (int64_t j = 0; j < KW; ++j) {
      windows.selectTap(i, j);
      uint8_t *dst = panel + (i * KW + j) * (C / 4) * NR * 4;
      for (int64_t c = 0; c < C; c += 4, dst += NR * 4) {
        const uint8_t *src = x + c * plane;
        storeQuads(rowPair(windows.row(src), windows.row(src + plane)),
                   rowPair(windows.row(src + 2 * plane), windows.row(src + 3 * plane)), dst);
      }
    }
}

/// The tile's panel [ceil(K / 4)][32][4] from K rows of its 32 pixels (row k at rows + k * stride;
/// with Direct, rows straight from the image: only the first tn lanes are read): dword lane p of
/// group q is rows 4q .. 4q + 3 of pixel p (zeros past K).
template <bool Direct>
void quadTile(const uint8_t *rows, int64_t stride, int64_t K, int64_t tn, uint8_t *panel) {
  const int64_t groups = (K + 3) / 4, whole = K / 4;
  const __mmask32 lanes = (__mmask32)(tn >= NR ? ~0u : (1u << tn) - 1);
  // Rows r and r + 1 side by side.
  auto pairAt = [&](int64_t r) {
    if (!Direct) // staging rows are 32 bytes apart, 64-byte aligned
      return _mm512_load_si512((const __m512i *)(rows + r * NR));
    return rowPair(_mm256_maskz_loadu_epi8(lanes, rows + r * stride),
                   _mm256_maskz_loadu_epi8(lanes, rows + (r + 1) * stride));
  };
  for (int64_t q = 0; q < whole; ++q)
    storeQuads(pairAt(4 * q), pairAt(4 * q + 2), panel + q * NR * 4);
  // The last, partial group: zeros past K.
  for (int64_t q = whole; q < groups; ++q) {
    for (int64_t h = 0; h < NR / 16; ++h) {
      __m512i d = _mm512_setzero_si512();
      for (int64_t r = 0; r < 4 && 4 * q + r < K; ++r) {
        const __m128i row = _mm_maskz_loadu_epi8((__mmask16)(lanes >> (16 * h)),
                                                 rows + (4 * q + r) * stride + 16 * h);
        d = _mm512_or_si512(d, _mm512_slli_epi32(_mm512_cvtepu8_epi32(row), (unsigned)(8 * r)));
      }
      _mm512_store_si512((__m512i *)(panel + (q * NR + 16 * h) * 4), d);
    }
  }
}

} // namespace

extern "C" {

void mie_uk_qu8_pack_conv_vnni(const uint8_t *x, int64_t x_off, int64_t C, int64_t H, int64_t W,
                               int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t DH,
                               int64_t DW, int64_t PT, int64_t PL, int64_t OW, int64_t x_zero,
                               int64_t p0, int64_t np, uint8_t *dst, int64_t dst_off,
                               uint8_t *stage) {
  x += x_off;
  dst += dst_off;
  const int64_t K = C * KH * KW, tileBytes = (K + 3) / 4 * NR * 4;
  // A 1x1 window at stride 1 without padding reads each channel's pixels where they lie: the
  // image rows are the GEMM's rows, no staging.
  const bool direct = KH == 1 && KW == 1 && SH == 1 && SW == 1 && PT == 0 && PL == 0 && OW == W;
  for (int64_t t = 0; t * NR < np; ++t) {
    const int64_t tn = np - t * NR < NR ? np - t * NR : NR;
    if (direct) {
      quadTile<true>(x + p0 + t * NR, H * W, K, tn, dst + t * tileBytes);
      continue;
    }
    TileWindows windows(H, W, SH, SW, DH, DW, PT, PL, OW, p0 + t * NR, tn, (uint8_t)x_zero);
    if (mie_uk_qu8_tap_major(C, KH, KW)) {
      quadTapsTile(x, C, H, W, KH, KW, windows, dst + t * tileBytes);
      continue;
    }
    stageTile(x, C, H, W, KH, KW, windows, stage);
    quadTile<false>(stage, NR, K, NR, dst + t * tileBytes);
  }
}

void mie_uk_qu8_gemm_vnni(const uint8_t *panels, int64_t panels_off, int64_t K, int64_t np,
                          const int8_t *filter, const int32_t *bias, const float *scale,
                          int64_t y_zero, int64_t y_min, int64_t y_max, int64_t f0, int64_t fn,
                          uint8_t *y, int64_t y_off, int64_t ldy) {
  panels += panels_off;
  y += y_off;
  const int64_t groups = (K + 3) / 4, tiles = (np + NR - 1) / NR, tileBytes = groups * NR * 4;
  const __m512 lo = _mm512_set1_ps((float)(y_min - y_zero)),
               hi = _mm512_set1_ps((float)(y_max - y_zero));
  const __m512i zp = _mm512_set1_epi32((int)y_zero);
  // The filter groups outside the tiles: a group's weights (8 K bytes) stay in L1 while it runs on
  // every panel (from L2), so the filters, the bigger operand of late layers (few pixels, K up to
  // 4608), are read once per call.
  for (int64_t fg = f0; fg < f0 + fn; fg += MR) {
    const int8_t *w = filter + (fg / MR) * groups * MR * 4;
    for (int64_t t = 0; t < tiles; ++t) {
      const int64_t tn = np - t * NR < NR ? np - t * NR : NR;
      const uint8_t *panel = panels + t * tileBytes;
      const __mmask16 m0 = (__mmask16)(tn >= 16 ? 0xffff : (1u << tn) - 1),
                      m1 = (__mmask16)(tn >= 32 ? 0xffff : tn > 16 ? (1u << (tn - 16)) - 1 : 0);
      __m512i acc[MR][2];
      for (int64_t r = 0; r < MR; ++r)
        acc[r][0] = acc[r][1] = _mm512_setzero_si512();
      for (int64_t q = 0; q < groups; ++q) {
        const __m512i a0 = _mm512_load_si512((const __m512i *)(panel + q * NR * 4));
        const __m512i a1 = _mm512_load_si512((const __m512i *)(panel + q * NR * 4 + 64));
        const int32_t *wq = (const int32_t *)(w + q * MR * 4);
        for (int64_t r = 0; r < MR; ++r) {
          const __m512i b = _mm512_set1_epi32(wq[r]);
          acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], a0, b);
          acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], a1, b);
        }
      }
      const int64_t rows = f0 + fn - fg < MR ? f0 + fn - fg : MR;
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t f = fg + r;
        const __m512i b = _mm512_set1_epi32(bias[f]);
        const __m512 s = _mm512_set1_ps(scale[f]);
        uint8_t *out = y + f * ldy + t * NR;
        for (int h = 0; h < 2; ++h) {
          const __mmask16 m = h ? m1 : m0;
          if (!m)
            continue;
          __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(acc[r][h], b)), s);
          v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
          const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(v), zp);
          _mm_mask_storeu_epi8(out + 16 * h, m, _mm512_cvtepi32_epi8(q));
        }
      }
    }
  }
}

void mie_uk_qu8_conv_nchw_vnni(const uint8_t *x, int64_t x_off, int64_t C, int64_t H, int64_t W,
                               int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t DH,
                               int64_t DW, int64_t PT, int64_t PL, int64_t OH, int64_t OW,
                               const int8_t *filter, int64_t F, const int32_t *bias,
                               const float *scale, int64_t x_zero, int64_t y_zero, int64_t y_min,
                               int64_t y_max, int64_t p0, int64_t np, int64_t f0, int64_t fn,
                               uint8_t *y, int64_t y_off, uint8_t *scratch) {
  const int64_t K = C * KH * KW;
  // Every pixel tile's panel first (scratch: the panels, then the staging rows), then the filters.
  uint8_t *stage = scratch + mie_uk_qu8_panel_bytes(K, np);
  mie_uk_qu8_pack_conv_vnni(x, x_off, C, H, W, KH, KW, SH, SW, DH, DW, PT, PL, OW, x_zero, p0, np,
                            scratch, 0, stage);
  mie_uk_qu8_gemm_vnni(scratch, 0, K, np, filter, bias, scale, y_zero, y_min, y_max, f0, fn, y,
                       y_off + p0, OH * OW);
  (void)F;
}

} // extern "C"
