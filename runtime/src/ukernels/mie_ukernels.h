/*
 * mie_ukernels.h - the CPU microkernels generated code calls (IREE-ukernel style).
 *
 * These functions are compiled to LLVM bitcode at build time, once per ISA, and linked into every
 * generated module before LLVM's optimizer runs: the packing, depthwise and Winograd entries inline
 * with their constant arguments folded, the GEMM tiles stay one out-of-line copy each (see
 * f32_gemm.cpp), and the code object keeps no references to any of them. The compiler owns
 * everything around them: which tile, the K blocking, the packing of weights at compile time, the
 * split over threads. The same sources also build natively for the microkernel tests
 * (runtime/test/test_ukernels.cpp).
 *
 * Packed layouts (docs/kernels.md has the picture):
 *   LHS panels  [ceil(M / MR)][K][MR]: MR rows side by side for every k, zero-padded past M.
 *   RHS panels  [ceil(N / NR)][K][NR]: NR columns side by side for every k, zero-padded past N.
 * A tile call computes C[0:m, 0:n] (m <= MR, n <= NR, row stride ldc) from one LHS panel slice
 * (a, K block of k rows) and one RHS panel slice (b, row stride ldb, normally NR).
 *
 * Every pointer comes with an element offset so that generated code can pass whole buffers (bare
 * pointers of static memrefs) plus index arithmetic.
 */
#ifndef MIE_UKERNELS_H
#define MIE_UKERNELS_H

#include <stdint.h>

#include "mie/mie_ukernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff)                                                     \
  void mie_uk_f32_gemm_##MR##x##NR##_##isa(                                                        \
      const float *a, int64_t a_off, const float *b, int64_t b_off, int64_t ldb, float *c,         \
      int64_t c_off, int64_t ldc, int64_t k, int64_t m, int64_t n, int64_t flags,                  \
      const float *bias, int64_t bias_off, const float *res, int64_t res_off, int64_t ldr,         \
      float lo, float hi);
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE

/* The f16 tiles (f16_gemm_neon.cpp; AArch64 only): the NEON f32 tiles' shapes and arguments with
   f16 a, b, c, bias and residual (as uint16_t bits), f32 sums over the whole k, the epilogue in f32
   and one rounding to f16 (nearest even) at the store. A tile call's k must be all of the
   product's K (a partial sum stored in f16 would be rounded twice). */
#define MIE_UK_DECLARE_F16_GEMM_TILE(suffix, MR, NR)                                               \
  void mie_uk_f16_gemm_##MR##x##NR##_##suffix(                                                     \
      const uint16_t *a, int64_t a_off, const uint16_t *b, int64_t b_off, int64_t ldb,             \
      uint16_t *c, int64_t c_off, int64_t ldc, int64_t k, int64_t m, int64_t n, int64_t flags,     \
      const uint16_t *bias, int64_t bias_off, const uint16_t *res, int64_t res_off, int64_t ldr,   \
      float lo, float hi);
#define MIE_UK_F16_DECLARE_avx512(MR, NR)
#define MIE_UK_F16_DECLARE_avx2(MR, NR)
#define MIE_UK_F16_DECLARE_neon(MR, NR) MIE_UK_DECLARE_F16_GEMM_TILE(neon, MR, NR)
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) MIE_UK_F16_DECLARE_##isa(MR, NR)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
/* The f16 tiles' panels, as mie_uk_f32_pack_conv_nchw_neon and mie_uk_f32_pack_lhs_neon pack f32
   ones (the elements copied as they are). */
void mie_uk_f16_pack_conv_nchw_neon(const uint16_t *x, int64_t x_off, int64_t C, int64_t H,
                                    int64_t W, int64_t KH, int64_t KW, int64_t SH, int64_t SW,
                                    int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OW,
                                    int64_t p0, int64_t np, int64_t k0, int64_t kc, int64_t nr,
                                    uint16_t *dst, int64_t dst_off);
void mie_uk_f16_pack_lhs_neon(const uint16_t *a, int64_t a_off, int64_t lda, int64_t trans,
                              int64_t m0, int64_t mc, int64_t k0, int64_t kc, int64_t mr,
                              uint16_t *dst, int64_t dst_off);

/* Direct NCHW convolution of output rows [oh0, oh0 + ohn) of one image x + x_off [C, H, W] with the
   filter packed as the implicit GEMM's LHS panels w + w_off [ceil(F / MR)][C * KH * KW][MR], into
   out + out_off [F, OH, OW], epilogue as for the tiles (bias per filter, residual shaped like out).
   No pixel panels are packed: the band's input rows go to `plane` (mie_uk_conv_direct_plane_floats)
   and the tiles read them through per-(c, kh, kw) offsets. Strides 1 and 2 along W, K at most
   MIE_UK_CONV_DIRECT_MAX_K. One instance per GEMM tile. */
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff)                                                     \
  void mie_uk_f32_conv_direct_nchw_##MR##x##NR##_##isa(                                            \
      const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t KH, int64_t KW,      \
      int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OH,          \
      int64_t OW, int64_t F, const float *w, int64_t w_off, int64_t oh0, int64_t ohn, float *out,  \
      int64_t out_off, int64_t flags, const float *bias, int64_t bias_off, const float *res,       \
      int64_t res_off, float lo, float hi, float *plane);
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE

#define MIE_UK_DECLARE_PACKS(isa)                                                                  \
  /* RHS panels of an NCHW convolution's implicit GEMM (K = C * KH * KW in (c, kh, kw) order, N =  \
     output pixels): packs pixels [p0, p0 + np) and K rows [k0, k0 + kc) of one image `x + x_off`  \
     [C, H, W] into ceil(np / nr) panels [kc][nr] at dst + dst_off, zero where the window leaves   \
     the image. */                                                                                 \
  void mie_uk_f32_pack_conv_nchw_##isa(                                                            \
      const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t KH, int64_t KW,      \
      int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OW,          \
      int64_t p0, int64_t np, int64_t k0, int64_t kc, int64_t nr, float *dst, int64_t dst_off);    \
  /* LHS panels of a GEMM: rows [m0, m0 + mc) and K columns [k0, k0 + kc) of A (A[i][k] at         \
     a[a_off + i * lda + k], or a[a_off + k * lda + i] when trans) into ceil(mc / mr) panels       \
     [kc][mr]. */                                                                                  \
  void mie_uk_f32_pack_lhs_##isa(const float *a, int64_t a_off, int64_t lda, int64_t trans,        \
                                 int64_t m0, int64_t mc, int64_t k0, int64_t kc, int64_t mr,       \
                                 float *dst, int64_t dst_off);                                     \
  /* Max pooling of channels [c0, c0 + cn) of one NCHW image: x + x_off [C, H, W] into out +       \
     out_off [C, OH, OW]; window KH x KW, strides SH/SW, top/left padding PH/PW (the bottom/right  \
     padding and ceil mode are implied by OH/OW), dilations DH/DW; padding never wins. `row` is a  \
     scratch buffer of mie_uk_maxpool_row_floats(W, KW, SW, PW, DW, OW) floats. */                 \
  void mie_uk_f32_maxpool_nchw_##isa(                                                              \
      const float *x, int64_t x_off, int64_t H, int64_t W, int64_t KH, int64_t KW, int64_t SH,     \
      int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OH, int64_t OW,          \
      int64_t c0, int64_t cn, float *out, int64_t out_off, float *row);                            \
  /* Depthwise NCHW convolution (multiplier 1) of channels [c0, c0 + cn) of one image: x + x_off   \
     is [C, H, W], w + w_off [C, KH, KW], out + out_off [C, OH, OW]. `plane` is a scratch buffer   \
     of at least mie_uk_dwconv_plane_floats(...) floats. Epilogue flags as for the GEMM tiles      \
     (bias per channel, residual shaped like out). */                                              \
  void mie_uk_f32_dwconv_nchw_##isa(                                                               \
      const float *x, int64_t x_off, int64_t H, int64_t W, int64_t KH, int64_t KW, int64_t SH,     \
      int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OH, int64_t OW,          \
      const float *w, int64_t w_off, int64_t c0, int64_t cn, float *out, int64_t out_off,          \
      int64_t flags, const float *bias, int64_t bias_off, const float *res, int64_t res_off,       \
      float lo, float hi, float *plane);                                                           \
  /* The same for bf16 tensors (as uint16_t), summed in f32 and rounded once: `plane` holds        \
     mie_uk_bf16_dwconv_plane_floats(...) floats. */                                               \
  void mie_uk_bf16_dwconv_nchw_##isa(                                                              \
      const uint16_t *x, int64_t x_off, int64_t H, int64_t W, int64_t KH, int64_t KW, int64_t SH,  \
      int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OH, int64_t OW,          \
      const uint16_t *w, int64_t w_off, int64_t c0, int64_t cn, uint16_t *out, int64_t out_off,    \
      int64_t flags, const uint16_t *bias, int64_t bias_off, const uint16_t *res, int64_t res_off, \
      float lo, float hi, float *plane);                                                           \
  /* Depthwise convolution (channel multiplier 1) of one image in NHWC: x + x_off [H, W, C], the   \
     filter w + w_off [KH * KW, C] (tap-major, channels contiguous; packed at compile time from    \
     [C, 1, KH, KW]), out + out_off [OH, OW, C]. Computes output rows [oh0, oh0 + ohn) and         \
     channels [c0, c0 + cn) of that image (nothing else is written). Zero padding PH (top) / PW    \
     (left) (bottom/right implied by OH/OW), strides SH/SW, dilations DH/DW, any window size.      \
     Epilogue flags as for the GEMM tiles (MIE_UK_EPILOGUE, MIE_UK_BIAS: bias[bias_off + c] per    \
     channel; MIE_UK_RESIDUAL: res + res_off shaped like out [OH, OW, C], may be out itself; the   \
     activation bits; MIE_UK_CLAMP to [lo, hi]), applied in registers before the one store. No     \
     scratch buffer. */                                                                            \
  void mie_uk_f32_dwconv_nhwc_##isa(                                                               \
      const float *x, int64_t x_off, int64_t H, int64_t W, int64_t C, int64_t KH, int64_t KW,      \
      int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OH,          \
      int64_t OW, const float *w, int64_t w_off, int64_t oh0, int64_t ohn, int64_t c0, int64_t cn, \
      float *out, int64_t out_off, int64_t flags, const float *bias, int64_t bias_off,             \
      const float *res, int64_t res_off, float lo, float hi);                                      \
  /* The same for bf16 tensors (uint16_t: x, w, out, bias, res), summed in f32, each output        \
     rounded once to nearest even (NaN stays a quiet NaN), as mie_uk_bf16_dwconv_nchw does. */     \
  void mie_uk_bf16_dwconv_nhwc_##isa(                                                              \
      const uint16_t *x, int64_t x_off, int64_t H, int64_t W, int64_t C, int64_t KH, int64_t KW,   \
      int64_t SH, int64_t SW, int64_t PH, int64_t PW, int64_t DH, int64_t DW, int64_t OH,          \
      int64_t OW, const uint16_t *w, int64_t w_off, int64_t oh0, int64_t ohn, int64_t c0,          \
      int64_t cn, uint16_t *out, int64_t out_off, int64_t flags, const uint16_t *bias,             \
      int64_t bias_off, const uint16_t *res, int64_t res_off, float lo, float hi);                 \
  /* Winograd F(2x2, 3x3) input transform of channels [c0, c0 + cn) of one image x + x_off [C, H,  \
     W] (3x3, stride 1, top/left padding PH/PW; TH x TW tiles = ceil(OH / 2) x ceil(OW / 2)):      \
     writes V[16][C][TH * TW] at v + v_off. `plane` holds mie_uk_winograd_plane_floats(TH, TW)     \
     floats. */                                                                                    \
  void mie_uk_f32_winograd_input_2x2_3x3_##isa(                                                    \
      const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t PH, int64_t PW,      \
      int64_t TH, int64_t TW, int64_t c0, int64_t cn, float *v, int64_t v_off, float *plane);      \
  /* Winograd F(2x2, 3x3) output transform of filters [f0, f0 + fn): from M[16][F][TH * TW] at     \
     m + m_off into out + out_off [F, OH, OW], with the epilogue (bias per filter, residual shaped \
     like out) applied before the store. */                                                        \
  void mie_uk_f32_winograd_output_2x2_3x3_##isa(                                                   \
      const float *m, int64_t m_off, int64_t F, int64_t TH, int64_t TW, int64_t OH, int64_t OW,    \
      int64_t f0, int64_t fn, float *out, int64_t out_off, int64_t flags, const float *bias,       \
      int64_t bias_off, const float *res, int64_t res_off, float lo, float hi);                    \
  /* Winograd F(4x4, 3x3): the same, with TH x TW = ceil(OH / 4) x ceil(OW / 4) tiles, V[36][C][T] \
     and M[36][F][T]; `plane` holds mie_uk_winograd4_plane_floats(TH, TW) floats. */               \
  void mie_uk_f32_winograd_input_4x4_3x3_##isa(                                                    \
      const float *x, int64_t x_off, int64_t C, int64_t H, int64_t W, int64_t PH, int64_t PW,      \
      int64_t TH, int64_t TW, int64_t c0, int64_t cn, float *v, int64_t v_off, float *plane);      \
  void mie_uk_f32_winograd_output_4x4_3x3_##isa(                                                   \
      const float *m, int64_t m_off, int64_t F, int64_t TH, int64_t TW, int64_t OH, int64_t OW,    \
      int64_t f0, int64_t fn, float *out, int64_t out_off, int64_t flags, const float *bias,       \
      int64_t bias_off, const float *res, int64_t res_off, float lo, float hi);
/* Fused attention (f32_attention.cpp): softmax(scale * Q K^T [+ mask]) V for query rows
   [0, rows) of one head, keys in tiles of about MIE_UK_ATTENTION_KEY_TILE with an online softmax.
   Row r of Q is q + q_off + r * ldq (D floats), key row j k + k_off + j * ldk (D floats), value row
   j v + v_off + j * ldv (Dv floats), output row r o + o_off + r * ldo (Dv floats). With
   MIE_UK_ATTENTION_MASK in flags, mask[mask_off + r * mask_ls + j * mask_lt] is added to score
   (r, j) (strides 0 broadcast). With MIE_UK_ATTENTION_CAUSAL, row r sees only the keys
   j <= diag + r (diag >= 0: every row sees a key): key tiles past a row block's last visible key
   are skipped, not computed. `scratch` holds mie_uk_attention_scratch_floats(D, rows). */
#define MIE_UK_DECLARE_ATTENTION(isa)                                                              \
  void mie_uk_f32_attention_##isa(                                                                 \
      const float *q, int64_t q_off, int64_t ldq, const float *k, int64_t k_off, int64_t ldk,      \
      const float *v, int64_t v_off, int64_t ldv, const float *mask, int64_t mask_off,             \
      int64_t mask_ls, int64_t mask_lt, float *o, int64_t o_off, int64_t ldo, int64_t rows,        \
      int64_t T, int64_t D, int64_t Dv, float scale, int64_t flags, int64_t diag,              \
      float *scratch);
MIE_UK_DECLARE_ATTENTION(avx512)
MIE_UK_DECLARE_ATTENTION(avx2)
MIE_UK_DECLARE_ATTENTION(neon)

MIE_UK_DECLARE_PACKS(avx512)
MIE_UK_DECLARE_PACKS(avx2)
MIE_UK_DECLARE_PACKS(neon)
#undef MIE_UK_DECLARE_PACKS

/* bf16 GEMM on Intel AMX (bf16_amx.cpp; the `amx` ISA only, after the process obtained the AMX tile
   state from the OS). Panels hold bf16 as uint16_t, K padded with zeros to a multiple of 32:
     A panels [ceil(M / 32)][K / 32][2][16][32]  (32 rows, each 32 consecutive k per block)
     B panels [ceil(N / 32)][K / 32][2][16][16][2]  (columns 0-15 then 16-31, k in VNNI pairs)
   The tile computes C[0:m, 0:n] (m, n <= 32) from one A and one B panel over k (a multiple of 32),
   accumulating in f32, with the flags, bias, residual and clamp of the f32 tiles. */
void mie_uk_bf16_gemm_32x32_amx(const uint16_t *a, int64_t a_off, const uint16_t *b, int64_t b_off,
                                float *c, int64_t c_off, int64_t ldc, int64_t k, int64_t m, int64_t n,
                                int64_t flags, const float *bias, int64_t bias_off, const float *res,
                                int64_t res_off, int64_t ldr, float lo, float hi);
/* The same block of a bf16 product: C, bias and residual hold bf16, the epilogue runs in f32 and C
   is rounded once, at the store. */
void mie_uk_bf16_gemm_32x32_amx_bf16c(const uint16_t *a, int64_t a_off, const uint16_t *b,
                                      int64_t b_off, uint16_t *c, int64_t c_off, int64_t ldc,
                                      int64_t k, int64_t m, int64_t n, int64_t flags,
                                      const uint16_t *bias, int64_t bias_off, const uint16_t *res,
                                      int64_t res_off, int64_t ldr, float lo, float hi);
/* A panels from f32 rows [m0, m0 + mc), K columns [k0, k0 + kc) of A (A[i][k] at a[a_off + i * lda + k],
   or a[a_off + k * lda + i] when trans), rounded to nearest even bf16; `_bf16`: from bf16 rows. */
void mie_uk_bf16_pack_a_amx(const float *a, int64_t a_off, int64_t lda, int64_t trans, int64_t m0,
                            int64_t mc, int64_t k0, int64_t kc, uint16_t *dst, int64_t dst_off);
void mie_uk_bf16_pack_a_amx_bf16(const uint16_t *a, int64_t a_off, int64_t lda, int64_t trans,
                                 int64_t m0, int64_t mc, int64_t k0, int64_t kc, uint16_t *dst,
                                 int64_t dst_off);
/* B panels from f32 columns [n0, n0 + nc), K rows [k0, k0 + kc) of B (B[k][j] at b[b_off + k * ldb + j],
   or b[b_off + j * ldb + k] when trans), rounded to nearest even bf16. */
void mie_uk_bf16_pack_b_amx(const float *b, int64_t b_off, int64_t ldb, int64_t trans, int64_t n0,
                            int64_t nc, int64_t k0, int64_t kc, uint16_t *dst, int64_t dst_off);
/* B panels of a bf16 NCHW convolution's implicit GEMM (K = C * KH * KW in (c, kh, kw) order, N =
   output pixels): pixels [p0, p0 + np) of one image x + x_off [C, H, W] into ceil(np / 32) panels of
   K rounded up to 32 (the B layout above), zeros where the window leaves the image. The filters are
   the A panels, packed at compile time: C = out [F, P] rows, bias per filter. KH * KW at most
   MIE_UK_BF16_AMX_CONV_MAX_TAPS. */
void mie_uk_bf16_pack_conv_amx(const uint16_t *x, int64_t x_off, int64_t C, int64_t H, int64_t W,
                               int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t PH,
                               int64_t PW, int64_t DH, int64_t DW, int64_t OW, int64_t p0,
                               int64_t np, uint16_t *dst, int64_t dst_off);

/* uint8 x int8 NCHW convolution on AVX512-VNNI (qu8_conv_vnni.cpp; the targets with VNNI): the
   integer kernel of a QDQ model's DequantizeLinear -> Conv -> QuantizeLinear. K = C * KH * KW in
   (c, kh, kw) order, or (kh, kw, c) where mie_uk_qu8_tap_major; the filters are packed at compile
   time by mie_uk_qu8_pack_conv_filter into
   [ceil(F / MR)][ceil(K / 4)][MR][4] int8 (zeros past F and K). The call computes output pixels
   [p0, p0 + np) of filters [f0, f0 + fn) (f0 a multiple of MR) of one image:
     y[f][p] = clamp(round_half_even(float(acc + bias[f]) * scale[f]), y_min - y_zero,
                     y_max - y_zero) + y_zero,   acc = sum_k x[k][p] * w[f][k]
   over the raw uint8 activations (x_zero where the window leaves the image); bias[f] holds the
   int32 bias minus x_zero * sum_k w[f][k]. `scratch`: mie_uk_qu8_conv_scratch_bytes(K, np) bytes,
   64-byte aligned. */
void mie_uk_qu8_conv_nchw_vnni(const uint8_t *x, int64_t x_off, int64_t C, int64_t H, int64_t W,
                               int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t DH,
                               int64_t DW, int64_t PT, int64_t PL, int64_t OH, int64_t OW,
                               const int8_t *filter, int64_t F, const int32_t *bias,
                               const float *scale, int64_t x_zero, int64_t y_zero, int64_t y_min,
                               int64_t y_max, int64_t p0, int64_t np, int64_t f0, int64_t fn,
                               uint8_t *y, int64_t y_off, uint8_t *scratch);
/* The two halves of mie_uk_qu8_conv_nchw_vnni, for pixels packed once and shared by several
   calls (filter blocks of one pixel block): the pixel panels of pixels [p0, p0 + np) of one
   image (mie_uk_qu8_panel_bytes(K, np) bytes at dst + dst_off, 64-byte aligned; `stage`:
   mie_uk_qu8_stage_bytes(K) bytes, 64-byte aligned), and filters [f0, f0 + fn) over such panels,
   output pixel i of filter f at y[y_off + f * ldy + i]. */
void mie_uk_qu8_pack_conv_vnni(const uint8_t *x, int64_t x_off, int64_t C, int64_t H, int64_t W,
                               int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t DH,
                               int64_t DW, int64_t PT, int64_t PL, int64_t OW, int64_t x_zero,
                               int64_t p0, int64_t np, uint8_t *dst, int64_t dst_off,
                               uint8_t *stage);
void mie_uk_qu8_gemm_vnni(const uint8_t *panels, int64_t panels_off, int64_t K, int64_t np,
                          const int8_t *filter, const int32_t *bias, const float *scale,
                          int64_t y_zero, int64_t y_min, int64_t y_max, int64_t f0, int64_t fn,
                          uint8_t *y, int64_t y_off, int64_t ldy);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MIE_UKERNELS_H */
