// The NHWC depthwise microkernels (f32 and bf16) of every ISA this machine runs, against a scalar
// double-precision reference: odd channel counts (vector tails), small and odd maps, 1x1 to 5x5
// windows, strides, padding, dilation, every epilogue, and partial row and channel ranges (which
// must leave the rest of the output untouched).
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using mie_uk_test::activate;
using mie_uk_test::Epilogue;
using mie_uk_test::randomVector;
using mie_uk_test::supported;

using NhwcFn = void (*)(const float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                        int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                        const float *, int64_t, int64_t, int64_t, int64_t, int64_t, float *,
                        int64_t, int64_t, const float *, int64_t, const float *, int64_t, float,
                        float);
using Bf16NhwcFn = void (*)(const uint16_t *, int64_t, int64_t, int64_t, int64_t, int64_t,
                            int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                            int64_t, const uint16_t *, int64_t, int64_t, int64_t, int64_t,
                            int64_t, uint16_t *, int64_t, int64_t, const uint16_t *, int64_t,
                            const uint16_t *, int64_t, float, float);

struct NhwcIsa {
  const char *name;
  NhwcFn f32;
  Bf16NhwcFn bf16;
};

std::vector<NhwcIsa> nhwcIsas() {
  std::vector<NhwcIsa> all = {
#if defined(__x86_64__)
      {"avx512", mie_uk_f32_dwconv_nhwc_avx512, mie_uk_bf16_dwconv_nhwc_avx512},
      {"avx2", mie_uk_f32_dwconv_nhwc_avx2, mie_uk_bf16_dwconv_nhwc_avx2},
#else
      {"neon", mie_uk_f32_dwconv_nhwc_neon, mie_uk_bf16_dwconv_nhwc_neon},
#endif
  };
  std::vector<NhwcIsa> run;
  for (const NhwcIsa &isa : all)
    if (supported(isa.name))
      run.push_back(isa);
  return run;
}

/// One depthwise convolution: the image [H, W, C], window, strides, top/left padding, dilations
/// and the output size (its bottom/right padding is whatever OH/OW imply).
struct Shape {
  int64_t H, W, C, KH, KW, SH, SW, PH, PW, DH, DW, OH, OW;
};

/// The output extent of a padded, strided, dilated window: `padEnd` extra at the bottom/right.
int64_t outSize(int64_t n, int64_t k, int64_t s, int64_t pad, int64_t padEnd, int64_t d) {
  return (n + pad + padEnd - d * (k - 1) - 1) / s + 1;
}

/// The epilogues the tests cycle through: none, the store alone, bias, residual, their
/// combinations with relu, relu6 and hard-swish, a clamp (relu6 as mobilenet lowers it), and every
/// other activation after a bias.
std::vector<Epilogue> nhwcEpilogues() {
  std::vector<Epilogue> e = {
      {"none", 0},
      {"store_only", MIE_UK_EPILOGUE},
      {"bias", MIE_UK_EPILOGUE | MIE_UK_BIAS},
      {"residual", MIE_UK_EPILOGUE | MIE_UK_RESIDUAL},
      {"bias_residual_relu", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL |
                                 (MIE_UK_ACT_RELU << MIE_UK_ACTIVATION_SHIFT)},
      {"bias_relu6", MIE_UK_EPILOGUE | MIE_UK_BIAS | (MIE_UK_ACT_RELU6 << MIE_UK_ACTIVATION_SHIFT)},
      {"bias_clamp", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_CLAMP},
      {"bias_residual_hswish", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL |
                                   (MIE_UK_ACT_HARD_SWISH << MIE_UK_ACTIVATION_SHIFT)},
      {"residual_relu6_clamp", MIE_UK_EPILOGUE | MIE_UK_RESIDUAL | MIE_UK_CLAMP |
                                   (MIE_UK_ACT_RELU6 << MIE_UK_ACTIVATION_SHIFT)},
  };
  appendBiasActivations(e);
  return e;
}

constexpr float kLo = -0.5f, kHi = 0.75f;

/// The reference output at (oh, ow, c), in double precision.
double reference(const Shape &s, const std::vector<float> &x, const std::vector<float> &w,
                 const std::vector<float> &bias, const std::vector<float> &res, int64_t flags,
                 int64_t oh, int64_t ow, int64_t c) {
  double acc = 0;
  for (int64_t kh = 0; kh < s.KH; ++kh)
    for (int64_t kw = 0; kw < s.KW; ++kw) {
      const int64_t ih = oh * s.SH - s.PH + kh * s.DH, iw = ow * s.SW - s.PW + kw * s.DW;
      if (ih >= 0 && ih < s.H && iw >= 0 && iw < s.W)
        acc += double(x[(ih * s.W + iw) * s.C + c]) * w[(kh * s.KW + kw) * s.C + c];
    }
  if (!(flags & MIE_UK_EPILOGUE))
    return acc;
  if (flags & MIE_UK_BIAS)
    acc += bias[c];
  if (flags & MIE_UK_RESIDUAL)
    acc += res[(oh * s.OW + ow) * s.C + c];
  acc = activate(acc, int((flags >> MIE_UK_ACTIVATION_SHIFT) & 0xff));
  if (flags & MIE_UK_CLAMP)
    acc = std::min(std::max(acc, double(kLo)), double(kHi));
  return acc;
}

std::string describe(const Shape &s) {
  return "H=" + std::to_string(s.H) + " W=" + std::to_string(s.W) + " C=" + std::to_string(s.C) +
         " K=" + std::to_string(s.KH) + "x" + std::to_string(s.KW) + " S=" + std::to_string(s.SH) +
         "," + std::to_string(s.SW) + " P=" + std::to_string(s.PH) + "," + std::to_string(s.PW) +
         " D=" + std::to_string(s.DH) + "," + std::to_string(s.DW) + " out=" +
         std::to_string(s.OH) + "x" + std::to_string(s.OW);
}

/// Runs the f32 kernel on rows [oh0, oh0 + ohn) and channels [c0, c0 + cn) of an output filled
/// with NaN (the operands at nonzero offsets in their buffers), checks that range against the
/// reference and that every other element is still the NaN it was. `inPlace`: the residual is
/// the output buffer itself (memory planning writes the output over a residual that dies there).
void checkF32(const NhwcIsa &isa, const Shape &s, const Epilogue &e, int64_t oh0, int64_t ohn,
              int64_t c0, int64_t cn, bool inPlace = false) {
  SCOPED_TRACE(std::string(isa.name) + " " + e.name + " " + describe(s) + " rows " +
               std::to_string(oh0) + "+" + std::to_string(ohn) + " channels " +
               std::to_string(c0) + "+" + std::to_string(cn) + (inPlace ? " in place" : ""));
  const int64_t xOff = 3, wOff = 5, outOff = 7, biasOff = 2, resOff = 4;
  const uint32_t seed = uint32_t(s.H * 131 + s.W * 31 + s.C * 7 + s.KH + s.SW);
  std::vector<float> xb = randomVector(xOff + s.H * s.W * s.C, seed);
  std::vector<float> wb = randomVector(wOff + s.KH * s.KW * s.C, seed + 1);
  std::vector<float> biasb = randomVector(biasOff + s.C, seed + 2);
  const int64_t outN = s.OH * s.OW * s.C;
  std::vector<float> resb = randomVector(resOff + outN, seed + 3, -2.0f, 2.0f);
  std::vector<float> x(xb.begin() + xOff, xb.end()), w(wb.begin() + wOff, wb.end()),
      bias(biasb.begin() + biasOff, biasb.end()), res(resb.begin() + resOff, resb.end());
  std::vector<float> out(outOff + outN + 3, NAN);
  if (inPlace) // the residual's values in the output buffer, NaN outside the computed range
    for (int64_t oh = oh0; oh < oh0 + ohn; ++oh)
      for (int64_t ow = 0; ow < s.OW; ++ow)
        for (int64_t c = c0; c < c0 + cn; ++c)
          out[outOff + (oh * s.OW + ow) * s.C + c] = res[(oh * s.OW + ow) * s.C + c];
  isa.f32(xb.data(), xOff, s.H, s.W, s.C, s.KH, s.KW, s.SH, s.SW, s.PH, s.PW, s.DH, s.DW, s.OH,
          s.OW, wb.data(), wOff, oh0, ohn, c0, cn, out.data(), outOff, e.flags, biasb.data(),
          biasOff, inPlace ? out.data() : resb.data(), inPlace ? outOff : resOff, kLo, kHi);
  for (int64_t i = 0; i < int64_t(out.size()); ++i) {
    const int64_t j = i - outOff, pix = j / std::max<int64_t>(s.C, 1), c = j % s.C;
    const int64_t oh = pix / s.OW, ow = pix % s.OW;
    const bool asked = j >= 0 && j < outN && oh >= oh0 && oh < oh0 + ohn && c >= c0 && c < c0 + cn;
    if (!asked) {
      ASSERT_TRUE(std::isnan(out[i])) << "wrote element " << j << " outside the range";
      continue;
    }
    const double want = reference(s, x, w, bias, res, e.flags, oh, ow, c);
    ASSERT_NEAR(out[i], want, 2e-5 * (1 + std::fabs(want)))
        << "at (" << oh << ", " << ow << ", " << c << ")";
  }
}

/// Every window shape of the grid: the maps and channel counts the task names (vector tails of
/// every ISA: 1, 3, 15, 16, 17, 33, 96 channels), windows 1x1 to 5x5 (and non-square), strides 1
/// and 2, padding 0 to 2 (the bottom/right padding the top/left one, one more or one less),
/// dilation 1 and 2; each shape with the next epilogue of the list in turn, so all of them run
/// many times.
TEST(UKernelDepthwiseNhwc, MatchesReferenceOverOddShapes) {
  const std::vector<NhwcIsa> isas = nhwcIsas();
  if (isas.empty())
    GTEST_SKIP() << "no microkernel ISA of this build runs on this CPU";
  const std::vector<Epilogue> epis = nhwcEpilogues();
  const int64_t channels[] = {1, 3, 15, 16, 17, 33, 96};
  const int64_t maps[][2] = {{1, 1}, {2, 5}, {5, 2}, {7, 7}, {14, 14}, {5, 14}, {14, 7}};
  const int64_t windows[][2] = {{1, 1}, {3, 3}, {5, 5}, {3, 5}, {5, 1}};
  int64_t cases = 0;
  for (const NhwcIsa &isa : isas)
    for (int64_t C : channels)
      for (const auto &map : maps)
        for (const auto &win : windows)
          for (int64_t stride : {1, 2})
            for (int64_t pad : {0, 1, 2})
              for (int64_t dil : {1, 2}) {
                // Large channel counts on the two larger maps and the common windows only: the
                // tails and borders are the same as with fewer channels.
                if (C == 96 && (map[0] < 7 || win[0] != win[1] || dil != 1))
                  continue;
                Shape s{map[0], map[1], C, win[0], win[1], stride, stride, pad, pad, dil, dil,
                        0, 0};
                const int64_t padEnd = cases % 3 == 0   ? pad
                                       : cases % 3 == 1 ? pad + 1
                                                        : std::max<int64_t>(pad - 1, 0);
                s.OH = outSize(s.H, s.KH, s.SH, s.PH, padEnd, s.DH);
                s.OW = outSize(s.W, s.KW, s.SW, s.PW, padEnd, s.DW);
                if (s.OH < 1 || s.OW < 1)
                  continue;
                checkF32(isa, s, epis[cases % epis.size()], 0, s.OH, 0, C);
                ++cases;
                if (HasFatalFailure())
                  return;
              }
  EXPECT_GT(cases, 1000);
}

/// Mobilenet-like shapes (wide rows: several interior blocks, a half block and single pixels),
/// mixed strides and dilations, every epilogue on each.
TEST(UKernelDepthwiseNhwc, EveryEpilogueOnWideRows) {
  const std::vector<NhwcIsa> isas = nhwcIsas();
  if (isas.empty())
    GTEST_SKIP() << "no microkernel ISA of this build runs on this CPU";
  const Shape shapes[] = {
      {9, 29, 33, 3, 3, 1, 1, 1, 1, 1, 1, 9, 29},  {12, 30, 40, 3, 3, 2, 2, 1, 1, 1, 1, 6, 15},
      {11, 27, 24, 5, 5, 1, 1, 2, 2, 1, 1, 11, 27}, {13, 31, 20, 5, 5, 2, 2, 2, 2, 1, 1, 7, 16},
      {10, 26, 17, 3, 3, 1, 2, 1, 1, 2, 1, 8, 13},  {8, 40, 19, 3, 3, 2, 1, 0, 2, 1, 2, 3, 40},
      {6, 23, 5, 7, 7, 1, 1, 3, 3, 1, 1, 6, 23},    {7, 50, 16, 3, 3, 3, 3, 1, 1, 1, 1, 3, 17},
      {5, 33, 48, 1, 1, 1, 1, 0, 0, 1, 1, 5, 33},
      // Enough channels for the kernel to run them in chunks that keep their window rows in L1
      // (the last chunk with the vector tail).
      {14, 14, 389, 3, 3, 1, 1, 1, 1, 1, 1, 14, 14}};
  for (const NhwcIsa &isa : isas)
    for (const Shape &s : shapes)
      for (const Epilogue &e : nhwcEpilogues()) {
        checkF32(isa, s, e, 0, s.OH, 0, s.C);
        if (HasFatalFailure())
          return;
      }
}

/// A work item computes a band of rows and a range of channels and nothing else (the output is NaN
/// elsewhere); ranges start anywhere, including mid-vector, and may hold only the channel tail.
TEST(UKernelDepthwiseNhwc, PartialRowAndChannelRanges) {
  const std::vector<NhwcIsa> isas = nhwcIsas();
  if (isas.empty())
    GTEST_SKIP() << "no microkernel ISA of this build runs on this CPU";
  const Epilogue e = {"bias_residual_relu6", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL |
                                                  (MIE_UK_ACT_RELU6 << MIE_UK_ACTIVATION_SHIFT)};
  const Shape shapes[] = {{14, 14, 37, 3, 3, 1, 1, 1, 1, 1, 1, 14, 14},
                          {15, 21, 40, 3, 3, 2, 2, 1, 1, 1, 1, 8, 11},
                          {7, 7, 96, 5, 5, 1, 1, 2, 2, 1, 1, 7, 7},
                          {9, 12, 21, 3, 3, 1, 1, 2, 2, 2, 2, 9, 12},
                          {14, 14, 389, 3, 3, 2, 2, 1, 1, 1, 1, 7, 7}};
  for (const NhwcIsa &isa : isas)
    for (const Shape &s : shapes) {
      const int64_t rows[][2] = {{0, 1}, {1, 3}, {s.OH - 2, 2}, {s.OH / 2, s.OH - s.OH / 2}};
      const int64_t chans[][2] = {{0, s.C}, {1, s.C - 2}, {5, 11}, {s.C - 3, 3}, {16, s.C - 16},
                                  {17, 1}};
      for (const auto &r : rows)
        for (const auto &ch : chans) {
          checkF32(isa, s, e, r[0], r[1], ch[0], ch[1]);
          if (HasFatalFailure())
            return;
        }
      // Nothing at all for empty ranges.
      checkF32(isa, s, e, 0, 0, 0, s.C);
      checkF32(isa, s, e, 0, s.OH, 3, 0);
    }
}

/// The residual read from the output buffer itself (an output planned over a residual that dies
/// at the kernel): each element is read before the one store that overwrites it.
TEST(UKernelDepthwiseNhwc, ResidualReadFromTheOutput) {
  const std::vector<NhwcIsa> isas = nhwcIsas();
  if (isas.empty())
    GTEST_SKIP() << "no microkernel ISA of this build runs on this CPU";
  const Epilogue e = {"bias_residual", MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_RESIDUAL};
  const Shape shapes[] = {{14, 14, 35, 3, 3, 1, 1, 1, 1, 1, 1, 14, 14},
                          {13, 17, 24, 3, 3, 2, 2, 1, 1, 1, 1, 7, 9}};
  for (const NhwcIsa &isa : isas)
    for (const Shape &s : shapes) {
      checkF32(isa, s, e, 0, s.OH, 0, s.C, /*inPlace=*/true);
      checkF32(isa, s, e, 2, 3, 4, s.C - 9, /*inPlace=*/true);
    }
}

uint16_t toBf16(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
float fromBf16(uint16_t h) {
  const uint32_t u = uint32_t(h) << 16;
  float v;
  std::memcpy(&v, &u, 4);
  return v;
}

/// The bf16 kernel is the f32 one on the same (bf16-representable) values with each output
/// rounded once, to nearest even: bit for bit, over the interior blocks and borders of both
/// strides, 3x3 and 5x5 and a dilated window, channel tails, partial ranges and the epilogues.
TEST(UKernelDepthwiseNhwc, Bf16IsTheF32KernelRoundedOnce) {
  const std::vector<NhwcIsa> isas = nhwcIsas();
  if (isas.empty())
    GTEST_SKIP() << "no microkernel ISA of this build runs on this CPU";
  const Shape shapes[] = {
      {14, 14, 33, 3, 3, 1, 1, 1, 1, 1, 1, 14, 14}, {15, 29, 40, 3, 3, 2, 2, 1, 1, 1, 1, 8, 15},
      {7, 7, 96, 5, 5, 1, 1, 2, 2, 1, 1, 7, 7},     {14, 14, 17, 5, 5, 2, 2, 2, 2, 1, 1, 7, 7},
      {9, 12, 5, 3, 3, 1, 1, 2, 2, 2, 2, 9, 12},    {5, 40, 1, 3, 3, 1, 1, 1, 1, 1, 1, 5, 40},
      {14, 14, 389, 3, 3, 1, 1, 1, 1, 1, 1, 14, 14}};
  const std::vector<Epilogue> epis = nhwcEpilogues();
  int64_t n = 0;
  for (const NhwcIsa &isa : isas)
    for (const Shape &s : shapes)
      for (const Epilogue &e : {epis[0], epis[4], epis[5], epis[7], epis[8]}) {
        SCOPED_TRACE(std::string(isa.name) + " " + e.name + " " + describe(s));
        auto operand = [&](int64_t count, uint32_t seed, std::vector<float> &f,
                           std::vector<uint16_t> &b) {
          f = randomVector(count, seed, -2.0f, 2.0f);
          b.resize(count);
          for (int64_t i = 0; i < count; ++i) {
            b[i] = toBf16(f[i]);
            f[i] = fromBf16(b[i]);
          }
        };
        const int64_t outN = s.OH * s.OW * s.C;
        std::vector<float> x, w, bias, res;
        std::vector<uint16_t> xb, wb, biasb, resb;
        operand(s.H * s.W * s.C, 41, x, xb);
        operand(s.KH * s.KW * s.C, 42, w, wb);
        operand(s.C, 43, bias, biasb);
        operand(outN, 44, res, resb);
        // Rows [1, OH) and channels [1, C) when there is more than one (else all).
        const int64_t oh0 = s.OH > 1 ? 1 : 0, c0 = s.C > 1 ? 1 : 0;
        std::vector<float> want(outN, NAN);
        isa.f32(x.data(), 0, s.H, s.W, s.C, s.KH, s.KW, s.SH, s.SW, s.PH, s.PW, s.DH, s.DW, s.OH,
                s.OW, w.data(), 0, oh0, s.OH - oh0, c0, s.C - c0, want.data(), 0, e.flags,
                bias.data(), 0, res.data(), 0, kLo, kHi);
        std::vector<uint16_t> got(outN + 1, 0xdead);
        isa.bf16(xb.data(), 0, s.H, s.W, s.C, s.KH, s.KW, s.SH, s.SW, s.PH, s.PW, s.DH, s.DW,
                 s.OH, s.OW, wb.data(), 0, oh0, s.OH - oh0, c0, s.C - c0, got.data(), 0, e.flags,
                 biasb.data(), 0, resb.data(), 0, kLo, kHi);
        for (int64_t i = 0; i < outN; ++i) {
          const int64_t oh = i / (s.OW * s.C), c = i % s.C;
          if (oh < oh0 || c < c0)
            ASSERT_EQ(got[i], 0xdead) << "wrote element " << i << " outside the range";
          else
            ASSERT_EQ(got[i], toBf16(want[i])) << "at " << i;
        }
        ASSERT_EQ(got.back(), 0xdead) << "stored past the output";
        ++n;
      }
  EXPECT_GT(n, 0);
}

/// NaN in, NaN out (a quiet bf16 NaN), never rounded to infinity.
TEST(UKernelDepthwiseNhwc, Bf16NaNStaysNaN) {
  const std::vector<NhwcIsa> isas = nhwcIsas();
  if (isas.empty())
    GTEST_SKIP() << "no microkernel ISA of this build runs on this CPU";
  const int64_t H = 4, W = 9, C = 19;
  std::vector<uint16_t> x(H * W * C, toBf16(0.5f)), w(9 * C, toBf16(0.25f)), out(H * W * C);
  x[(2 * W + 4) * C + 7] = 0x7f81; // a signaling NaN at pixel (2, 4), channel 7
  for (const NhwcIsa &isa : isas) {
    isa.bf16(x.data(), 0, H, W, C, 3, 3, 1, 1, 1, 1, 1, 1, H, W, w.data(), 0, 0, H, 0, C,
             out.data(), 0, 0, nullptr, 0, nullptr, 0, 0.0f, 0.0f);
    for (int64_t oh = 0; oh < H; ++oh)
      for (int64_t ow = 0; ow < W; ++ow)
        for (int64_t c = 0; c < C; ++c) {
          const uint16_t v = out[(oh * W + ow) * C + c];
          const bool nan = c == 7 && oh >= 1 && oh <= 3 && ow >= 3 && ow <= 5;
          if (nan)
            ASSERT_TRUE((v & 0x7fff) > 0x7f80 && (v & 0x40)) << isa.name << " " << std::hex << v;
          else
            ASSERT_FALSE((v & 0x7fff) > 0x7f80)
                << isa.name << " at " << oh << "," << ow << "," << c;
        }
  }
}

} // namespace
