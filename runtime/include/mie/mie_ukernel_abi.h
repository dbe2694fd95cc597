/*
 * mie_ukernel_abi.h - what the compiler needs of the CPU microkernels' contract, and all it includes
 * of the runtime's kernels: the bits of their `flags` arguments, the activation numbers, the
 * scratch sizes generated code allocates for them, the limits of their shapes and the packed
 * layouts the compiler writes at compile time. The kernels themselves are listed in
 * mie_ukernels.def (the registry) and declared in runtime/src/ukernels/mie_ukernels.h (the
 * runtime's, never the compiler's). C, so both sides read the same definitions.
 */
#ifndef MIE_UKERNEL_ABI_H
#define MIE_UKERNEL_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bits of the `flags` argument of the GEMM tiles. */
enum {
  MIE_UK_ACCUMULATE = 1 << 0, /* C += A * B (else C = A * B) */
  MIE_UK_EPILOGUE = 1 << 1,   /* apply bias / residual / activation / clamp before the store */
  MIE_UK_BIAS = 1 << 2,       /* add bias */
  MIE_UK_BIAS_PER_COL =
      1 << 3,               /* bias[j] per column (GEMM); else bias[i] per row (NCHW convolution) */
  MIE_UK_RESIDUAL = 1 << 4, /* add residual[i * ldr + j] */
  MIE_UK_CLAMP = 1 << 5,    /* clamp to [lo, hi] after the activation */
  MIE_UK_TRANSPOSE_C = 1 << 6, /* C and the residual hold the tile transposed: (i, j) at [j * ld + i]
                                  (a 1x1 convolution computed with its pixels as rows) */
  MIE_UK_PREFETCH_NEXT_B = 1 << 7, /* while running, prefetch the next column panel read in place:
                                      the NR floats after each of the k rows of b (rows ldb apart).
                                      Rows far apart defeat the hardware prefetchers, and the first
                                      tile on a panel would otherwise wait for k cache misses */
};
/* The activation sits in bits 8..15, numbered as mlir::mie::Activation
 * (dialects/mie/IR/MieBase.td). */
#define MIE_UK_ACTIVATION_SHIFT 8
enum {
  MIE_UK_ACT_NONE = 0,
  MIE_UK_ACT_RELU = 1,
  MIE_UK_ACT_RELU6 = 2,
  MIE_UK_ACT_SIGMOID = 3,
  MIE_UK_ACT_HARD_SIGMOID = 4,
  MIE_UK_ACT_HARD_SWISH = 5,
  MIE_UK_ACT_SILU = 6,
  MIE_UK_ACT_GELU = 7,
  MIE_UK_ACT_GELU_TANH = 8,
  MIE_UK_ACT_TANH = 9,
};

/* The scratch of a kernel that takes none (the registry's scratch column). */
static inline int64_t mie_uk_no_scratch(void) { return 0; }

/* The largest K (C * KH * KW) of the direct convolution (mie_uk_f32_conv_direct_nchw_*). */
#define MIE_UK_CONV_DIRECT_MAX_K 256

/* The direct convolution's plane row: whole NR-pixel tiles of an output row read up to
   ceil(OW / NR) * NR * SW + (KW - 1) * DW floats (stride 2 reads two vectors per vector). */
static inline int64_t mie_uk_conv_direct_plane_ld(int64_t KW, int64_t SW, int64_t DW, int64_t OW,
                                                  int64_t NR) {
  const int64_t reach = (OW + NR - 1) / NR * NR * SW + (KW - 1) * DW + 1;
  return (reach + 15) / 16 * 16;
}
/* Its plane for a band of `ohn` output rows: C planes of (ohn - 1) * SH + (KH - 1) * DH + 1 rows. */
static inline int64_t mie_uk_conv_direct_plane_floats(int64_t C, int64_t KH, int64_t KW,
                                                      int64_t SH, int64_t SW, int64_t DH,
                                                      int64_t DW, int64_t OW, int64_t NR,
                                                      int64_t ohn) {
  return C * ((ohn - 1) * SH + (KH - 1) * DH + 1) * mie_uk_conv_direct_plane_ld(KW, SW, DW, OW, NR);
}

/* The row buffer of max pooling (mie_uk_f32_maxpool_nchw_*): the image row at [PW, PW + W), -inf
   around it as far as the taps of whole output vectors reach (output lanes rounded up to 16, the
   widest vector, so one size serves every ISA; stride 2 reads one vector more). */
static inline int64_t mie_uk_maxpool_row_floats(int64_t W, int64_t KW, int64_t SW, int64_t PW,
                                                int64_t DW, int64_t OW) {
  const int64_t reach = (OW + 15) / 16 * 16 * SW + (KW - 1) * DW + 16 + 1;
  return reach > PW + W ? reach : PW + W;
}

/* The attention kernel's flags (a mask added to the scores, causal rows), its key tile and the
   largest register tiles of any ISA (mie_uk_f32_attention_*). */
#define MIE_UK_ATTENTION_MASK 1
#define MIE_UK_ATTENTION_CAUSAL 2
#define MIE_UK_ATTENTION_KEY_TILE 128
#define MIE_UK_ATTENTION_MAX_MR 16
#define MIE_UK_ATTENTION_MAX_NR 32
#define MIE_UK_ATTENTION_MAX_KEY_TILE 144
/* The query rows of one block in the kernel's queries-in-lanes layout (a register tile's
   columns), per ISA: the calls with at least half a block of rows take it, and a call's rows are
   best a multiple of it (only its last block partial). */
#define MIE_UK_ATTENTION_QUERY_BLOCK_AVX512 32
#define MIE_UK_ATTENTION_QUERY_BLOCK_AVX2 16
#define MIE_UK_ATTENTION_QUERY_BLOCK_NEON 12

/* The scratch of one call, whatever its layout: queries in the lanes need (D + key tile + Dv) x their
   query block (a call whose values are wider takes its rows in place), rows in place one row's
   scores of 512 keys. Sized as the panels of the largest tiles of any ISA (key panels, a query
   panel, scores, probabilities, a value panel) plus two floats a row. */
static inline int64_t mie_uk_attention_scratch_floats(int64_t D, int64_t rows) {
  return MIE_UK_ATTENTION_MAX_KEY_TILE * D + D * MIE_UK_ATTENTION_MAX_MR +
         2 * MIE_UK_ATTENTION_MAX_MR * MIE_UK_ATTENTION_MAX_KEY_TILE +
         MIE_UK_ATTENTION_MAX_KEY_TILE * MIE_UK_ATTENTION_MAX_NR + 2 * rows;
}

/* The depthwise kernel's padded input plane: rows (OH - 1) * SH + (KH - 1) * DH + 1 of
   mie_uk_dwconv_plane_ld floats: the row of the direct convolution's plane for tiles of 16 pixels
   (an output row's whole vectors in the widest ISA). Sized to the row, not with a fixed slack, so
   small planes (7x7) fill little. */
static inline int64_t mie_uk_dwconv_plane_ld(int64_t KW, int64_t SW, int64_t DW, int64_t OW) {
  return mie_uk_conv_direct_plane_ld(KW, SW, DW, OW, 16);
}
static inline int64_t mie_uk_dwconv_plane_floats(int64_t KH, int64_t KW, int64_t SH, int64_t SW,
                                                 int64_t DH, int64_t DW, int64_t OH, int64_t OW) {
  return ((OH - 1) * SH + (KH - 1) * DH + 1) * mie_uk_dwconv_plane_ld(KW, SW, DW, OW);
}

/* The bf16 depthwise kernel's scratch: the f32 plane, then a channel's input, output and residual
   widened to f32 and its window (each part a multiple of 16 floats). */
static inline int64_t mie_uk_bf16_dwconv_plane_floats(int64_t H, int64_t W, int64_t KH, int64_t KW,
                                                      int64_t SH, int64_t SW, int64_t DH,
                                                      int64_t DW, int64_t OH, int64_t OW) {
  return (mie_uk_dwconv_plane_floats(KH, KW, SH, SW, DH, DW, OH, OW) + 15) / 16 * 16 +
         (H * W + 15) / 16 * 16 + 2 * ((OH * OW + 15) / 16 * 16) + KH * KW;
}

/* The Winograd input transform's padded plane: 2 TH + 2 rows of 2 TW + 2 + MIE_UK_WINOGRAD_SLACK.
 */
#define MIE_UK_WINOGRAD_SLACK 64
static inline int64_t mie_uk_winograd_plane_floats(int64_t TH, int64_t TW) {
  return (2 * TH + 2) * (2 * TW + 2 + MIE_UK_WINOGRAD_SLACK);
}
/* F(4x4, 3x3)'s: 4 TH + 2 rows of 4 TW + 2 + MIE_UK_WINOGRAD_SLACK (a stride-4 load of VL tiles
   reads 4 VL floats from the tile's column). */
static inline int64_t mie_uk_winograd4_plane_floats(int64_t TH, int64_t TW) {
  return (4 * TH + 2) * (4 * TW + 2 + MIE_UK_WINOGRAD_SLACK);
}

/* The AMX bf16 tile: 32 x 32 blocks of C, K in steps of 32 (mie_uk_bf16_gemm_32x32_amx*). */
#define MIE_UK_BF16_AMX_TILE 32

/* The most taps (KH * KW) of a bf16 AMX convolution (mie_uk_bf16_pack_conv_amx). */
#define MIE_UK_BF16_AMX_CONV_MAX_TAPS 64

/* The uint8 x int8 VNNI convolution's register tile and packed layouts (mie_uk_qu8_*_vnni). */
#define MIE_UK_QU8_MR 8
#define MIE_UK_QU8_NR 32
/* Bytes of the pixel panels of np pixels: ceil(np / NR) panels [ceil(K / 4)][NR][4] uint8. */
static inline int64_t mie_uk_qu8_panel_bytes(int64_t K, int64_t np) {
  return (np + MIE_UK_QU8_NR - 1) / MIE_UK_QU8_NR * ((K + 3) / 4) * 4 * MIE_UK_QU8_NR;
}
/* Bytes of the staging rows mie_uk_qu8_pack_conv_vnni needs. */
static inline int64_t mie_uk_qu8_stage_bytes(int64_t K) { return K * MIE_UK_QU8_NR; }
static inline int64_t mie_uk_qu8_conv_scratch_bytes(int64_t K, int64_t np) {
  return mie_uk_qu8_panel_bytes(K, np) + mie_uk_qu8_stage_bytes(K);
}
static inline int64_t mie_uk_qu8_packed_filter_bytes(int64_t F, int64_t K) {
  return (F + MIE_UK_QU8_MR - 1) / MIE_UK_QU8_MR * ((K + 3) / 4) * MIE_UK_QU8_MR * 4;
}
/* Whether K runs in (kh, kw, c) order instead of (c, kh, kw): windows of several taps over a
   multiple of 4 channels, where each group of 4 k is 4 channels at one tap and the kernel builds
   the pixel panels straight from the image, without staging rows. */
static inline int mie_uk_qu8_tap_major(int64_t C, int64_t KH, int64_t KW) {
  return KH * KW > 1 && C % 4 == 0;
}
/* Packs the filter w[F][C][KH][KW] (row-major int8) into `dst`
   (mie_uk_qu8_packed_filter_bytes(F, C * KH * KW) bytes), K in the kernel's order. */
static inline void mie_uk_qu8_pack_conv_filter(const int8_t *w, int64_t F, int64_t C, int64_t KH,
                                               int64_t KW, int8_t *dst) {
  const int64_t K = C * KH * KW, taps = KH * KW, groups = (K + 3) / 4,
                panels = (F + MIE_UK_QU8_MR - 1) / MIE_UK_QU8_MR;
  const int tapMajor = mie_uk_qu8_tap_major(C, KH, KW);
  for (int64_t pf = 0; pf < panels; ++pf)
    for (int64_t q = 0; q < groups; ++q)
      for (int64_t r = 0; r < MIE_UK_QU8_MR; ++r)
        for (int64_t e = 0; e < 4; ++e) {
          const int64_t f = pf * MIE_UK_QU8_MR + r, k = 4 * q + e;
          /* k = tap * C + c in tap-major order: w's index c * taps + tap. */
          const int64_t src = tapMajor ? (k % C) * taps + k / C : k;
          dst[((pf * groups + q) * MIE_UK_QU8_MR + r) * 4 + e] =
              f < F && k < K ? w[f * K + src] : 0;
        }
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MIE_UKERNEL_ABI_H */
