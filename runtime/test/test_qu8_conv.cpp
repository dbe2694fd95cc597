// The uint8 x int8 VNNI convolution (runtime/src/ukernels/qu8_conv_vnni.cpp) against a scalar
// reference: exact int64 sums of (x - x_zero) * w with x_zero padding, then the requantization
// in f32 as the kernel documents it (the same float operations, so the outputs must be equal, not
// close). Odd channel counts, filter counts, K not a multiple of 4, windows, strides 1, 2 and 3,
// padding, dilation, pixel and filter ranges that split tiles. Skipped without AVX512-VNNI.
#include "ukernels/mie_ukernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

bool vnniUsable() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

struct Shape {
  int64_t c, h, w, f, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr;
};

/// The outputs of filters [f0, f0 + fn) at pixels [p0, p0 + np) as the kernel defines them.
std::vector<int> reference(const Shape &s, const std::vector<uint8_t> &x, const std::vector<int8_t> &w,
                           const std::vector<int32_t> &bias, const std::vector<float> &scale,
                           int xZero, int yZero, int yMin, int yMax, int64_t oh, int64_t ow) {
  std::vector<int> y(s.f * oh * ow);
  const int64_t K = s.c * s.kh * s.kw;
  for (int64_t f = 0; f < s.f; ++f)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        int64_t acc = 0;
        for (int64_t c = 0; c < s.c; ++c)
          for (int64_t i = 0; i < s.kh; ++i)
            for (int64_t j = 0; j < s.kw; ++j) {
              const int64_t iy = oy * s.sh - s.pt + i * s.dh, ix = ox * s.sw - s.pl + j * s.dw;
              const int v = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w
                                ? x[(c * s.h + iy) * s.w + ix]
                                : xZero;
              acc += int64_t(v) * w[f * K + (c * s.kh + i) * s.kw + j];
            }
        // The kernel's bias already holds -x_zero * rowsum; acc here sums the raw values too.
        float v = float(int32_t(acc) + bias[f]) * scale[f];
        v = std::fmin(std::fmax(v, float(yMin - yZero)), float(yMax - yZero));
        y[(f * oh + oy) * ow + ox] = int(std::nearbyint(v)) + yZero;
      }
  return y;
}

TEST(UKernelQu8ConvVnni, MatchesScalarReference) {
  if (!vnniUsable())
    GTEST_SKIP() << "this CPU has no AVX512-VNNI";
  const Shape shapes[] = {
      {1, 5, 7, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},    // one channel, one filter
      {3, 9, 11, 13, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  // K = 27, padded 3x3
      {17, 14, 14, 9, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, // pointwise, 196 pixels
      {5, 15, 13, 21, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, // stride 2
      {6, 12, 40, 8, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0},  // 1x1 stride 2, rows wider than a tile
      {3, 23, 23, 16, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3}, // a 7x7 stem
      {4, 11, 10, 7, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2},  // stride 3, dilation 2
      {2, 7, 7, 10, 5, 3, 1, 2, 1, 1, 2, 0, 2, 1},   // asymmetric window and padding
      {33, 7, 7, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  // a late layer's 7x7 map
      // K over many quads, more than 128 filters, partial pixel tiles
      {600, 6, 7, 140, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, // K = 600: 2 blocks; 128 + 12 filters
      {70, 9, 9, 20, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},   // K = 630, padded 3x3
      {145, 5, 8, 270, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, // K = 1305: 3 blocks, the last short
      // tap-major K (channels a multiple of 4): stride 1, 2 and 3, dilation, 7x7 maps
      {8, 9, 11, 13, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {12, 15, 13, 21, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      {4, 11, 10, 7, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2},
      {64, 7, 7, 40, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {16, 6, 9, 10, 5, 3, 1, 2, 1, 1, 2, 0, 2, 1},
  };
  std::mt19937 rng(7);
  for (const Shape &s : shapes) {
    const int64_t oh = (s.h + s.pt + s.pb - s.dh * (s.kh - 1) - 1) / s.sh + 1;
    const int64_t ow = (s.w + s.pl + s.pr - s.dw * (s.kw - 1) - 1) / s.sw + 1;
    const int64_t K = s.c * s.kh * s.kw, P = oh * ow;
    std::vector<uint8_t> x(s.c * s.h * s.w + 5);
    for (uint8_t &v : x)
      v = uint8_t(rng() & 255);
    std::vector<int8_t> w(s.f * K);
    for (int8_t &v : w)
      v = int8_t(int(rng() % 256) - 128);
    std::vector<int32_t> bias(s.f);
    std::vector<float> scale(s.f);
    const int xZero = int(rng() % 256), yZero = 64 + int(rng() % 128);
    for (int64_t f = 0; f < s.f; ++f) {
      int64_t rowSum = 0;
      for (int64_t k = 0; k < K; ++k)
        rowSum += w[f * K + k];
      bias[f] = int32_t(int(rng() % 20001) - 10000 - xZero * rowSum);
      // The centered sums spread about 7000 sqrt(K): outputs spread over tens of steps.
      scale[f] = 0.008f / std::sqrt(float(K)) * (1.0f + float(rng() % 100) / 100.0f);
    }
    std::vector<int8_t> packed(mie_uk_qu8_packed_filter_bytes(s.f, K));
    mie_uk_qu8_pack_conv_filter(w.data(), s.f, s.c, s.kh, s.kw, packed.data());
    for (int yMin : {0, yZero}) {
      const int yMax = 255;
      std::vector<int> want =
          reference(s, std::vector<uint8_t>(x.begin() + 5, x.end()), w, bias, scale, xZero, yZero,
                    yMin, yMax, oh, ow);
      // Whole range in one call, then split pixel and filter ranges (f0 a multiple of MR).
      const int64_t fSplit = s.f > MIE_UK_QU8_MR ? MIE_UK_QU8_MR : s.f;
      const int64_t pSplit = P > 37 ? 37 : P;
      std::vector<std::vector<int64_t>> calls = {{0, P, 0, s.f}};
      if (pSplit < P || fSplit < s.f)
        calls = {{0, pSplit, 0, fSplit},
                 {0, pSplit, fSplit, s.f - fSplit},
                 {pSplit, P - pSplit, 0, fSplit},
                 {pSplit, P - pSplit, fSplit, s.f - fSplit}};
      std::vector<uint8_t> y(s.f * P + 3, 0xab);
      alignas(64) static uint8_t scratch[1 << 20];
      ASSERT_LE(mie_uk_qu8_conv_scratch_bytes(K, P) + 64, int64_t(sizeof(scratch)));
      for (const std::vector<int64_t> &call : calls) {
        if (call[1] == 0 || call[3] == 0)
          continue;
        mie_uk_qu8_conv_nchw_vnni(x.data(), 5, s.c, s.h, s.w, s.kh, s.kw, s.sh, s.sw, s.dh, s.dw,
                                  s.pt, s.pl, oh, ow, packed.data(), s.f, bias.data(),
                                  scale.data(), xZero, yZero, yMin, yMax, call[0], call[1],
                                  call[2], call[3], y.data(), 1, scratch);
      }
      EXPECT_EQ(y[0], 0xab) << "wrote before the output";
      EXPECT_EQ(y[s.f * P + 1], 0xab) << "wrote past the output";
      int mismatches = 0;
      for (int64_t i = 0; i < s.f * P && mismatches < 5; ++i)
        if (int(y[1 + i]) != want[i]) {
          ++mismatches;
          ADD_FAILURE() << "shape c" << s.c << " " << s.h << "x" << s.w << " f" << s.f << " k"
                        << s.kh << "x" << s.kw << " s" << s.sh << " y_min " << yMin << ": output "
                        << i << " is " << int(y[1 + i]) << ", want " << want[i];
        }
      // The two halves: each pixel range packed once, its panels shared by the filter ranges.
      std::vector<uint8_t> y2(s.f * P + 3, 0xab);
      for (const std::vector<int64_t> &call : calls) {
        if (call[1] == 0 || call[3] == 0)
          continue;
        mie_uk_qu8_pack_conv_vnni(x.data(), 5, s.c, s.h, s.w, s.kh, s.kw, s.sh, s.sw, s.dh, s.dw,
                                  s.pt, s.pl, ow, xZero, call[0], call[1], scratch, 64,
                                  scratch + 64 + mie_uk_qu8_panel_bytes(K, call[1]));
        mie_uk_qu8_gemm_vnni(scratch, 64, K, call[1], packed.data(), bias.data(), scale.data(),
                             yZero, yMin, yMax, call[2], call[3], y2.data(), 1 + call[0], P);
      }
      EXPECT_EQ(y2[0], 0xab) << "wrote before the output";
      EXPECT_EQ(y2[s.f * P + 1], 0xab) << "wrote past the output";
      mismatches = 0;
      for (int64_t i = 0; i < s.f * P && mismatches < 5; ++i)
        if (int(y2[1 + i]) != want[i]) {
          ++mismatches;
          ADD_FAILURE() << "packed once, shape c" << s.c << " " << s.h << "x" << s.w << " f" << s.f
                        << " k" << s.kh << "x" << s.kw << ": output " << i << " is "
                        << int(y2[1 + i]) << ", want " << want[i];
        }
      // The outputs must not all sit at a bound (the test would then not see the sums).
      int inside = 0;
      for (int v : want)
        inside += v > yMin && v < yMax;
      EXPECT_GT(inside, int(want.size()) / 4);
    }
  }
}

TEST(UKernelQu8ConvVnni, PackFilterLayout) {
  const int64_t F = 11, K = 10;
  std::vector<int8_t> w(F * K);
  for (int64_t i = 0; i < F * K; ++i)
    w[i] = int8_t(i % 251 - 120);
  std::vector<int8_t> packed(mie_uk_qu8_packed_filter_bytes(F, K), 99);
  ASSERT_EQ(packed.size(), size_t(2 * 3 * MIE_UK_QU8_MR * 4));
  mie_uk_qu8_pack_conv_filter(w.data(), F, K, 1, 1, packed.data()); // 1x1: K = C
  for (int64_t f = 0; f < 2 * MIE_UK_QU8_MR; ++f)
    for (int64_t k = 0; k < 12; ++k) {
      const int8_t got = packed[(((f / MIE_UK_QU8_MR) * 3 + k / 4) * MIE_UK_QU8_MR +
                                 f % MIE_UK_QU8_MR) * 4 + k % 4];
      EXPECT_EQ(got, f < F && k < K ? w[f * K + k] : 0) << "f " << f << " k " << k;
    }
}

// A window over a multiple of 4 channels runs K tap-major: group q holds channels 4 (q % (C / 4))
// .. + 3 at tap q / (C / 4); other windows keep (c, kh, kw).
TEST(UKernelQu8ConvVnni, PackConvFilterTapMajor) {
  EXPECT_TRUE(mie_uk_qu8_tap_major(8, 3, 3));
  EXPECT_FALSE(mie_uk_qu8_tap_major(6, 3, 3));
  EXPECT_FALSE(mie_uk_qu8_tap_major(8, 1, 1));
  const int64_t F = 3, C = 8, KH = 2, KW = 3, K = C * KH * KW;
  std::vector<int8_t> w(F * K);
  for (int64_t i = 0; i < F * K; ++i)
    w[i] = int8_t(i % 251 - 120);
  std::vector<int8_t> packed(mie_uk_qu8_packed_filter_bytes(F, K), 99);
  mie_uk_qu8_pack_conv_filter(w.data(), F, C, KH, KW, packed.data());
  for (int64_t f = 0; f < F; ++f)
    for (int64_t i = 0; i < KH; ++i)
      for (int64_t j = 0; j < KW; ++j)
        for (int64_t c = 0; c < C; ++c) {
          const int64_t k = (i * KW + j) * C + c; // the kernel's order
          const int8_t got = packed[((k / 4) * MIE_UK_QU8_MR + f) * 4 + k % 4];
          EXPECT_EQ(got, w[((f * C + c) * KH + i) * KW + j]) << "f " << f << " k " << k;
        }
}

} // namespace
