// The max-pooling microkernel of every ISA this CPU runs against a scalar reference: windows 1x1
// to 5x5, strides 1, 2 and 3, padding (which never wins: the inputs are all negative in some
// cases), dilation, ceil-mode windows that run past the padded image, rows shorter and longer than
// a vector, channel ranges, and nothing written outside them.
#include "ukernel_test_util.h"

#include <gtest/gtest.h>

#include <limits>

namespace {

using MaxPoolFn = void (*)(const float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, float *, int64_t, float *);

struct PoolIsa {
  const char *name;
  MaxPoolFn fn;
};

std::vector<PoolIsa> poolIsas() {
#if defined(__x86_64__)
  return {{"avx512", mie_uk_f32_maxpool_nchw_avx512}, {"avx2", mie_uk_f32_maxpool_nchw_avx2}};
#else
  return {{"neon", mie_uk_f32_maxpool_nchw_neon}};
#endif
}

struct PoolCase {
  int64_t h, w, kh, kw, sh, sw, ph, pw, dh, dw;
  bool ceil;    // one more output row and column when the last window starts inside the input
  float lo, hi; // input range
};

int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t pad, int64_t d, bool ceil) {
  const int64_t span = in + 2 * pad - d * (k - 1) - 1;
  return (ceil ? (span + s - 1) / s : span / s) + 1;
}

TEST(UKernelMaxPool, MatchesScalarReference) {
  const float inf = std::numeric_limits<float>::infinity();
  const PoolCase cases[] = {
      {112, 112, 3, 3, 2, 2, 1, 1, 1, 1, false, -1, 1}, // resnet's stem pool
      {7, 9, 3, 3, 1, 1, 1, 1, 1, 1, false, -3, -1},    // all negative: padding must not win
      {17, 33, 2, 2, 2, 2, 0, 0, 1, 1, false, -1, 1},
      {16, 16, 2, 2, 2, 2, 0, 0, 1, 1, true, -1, 1},
      {15, 15, 3, 3, 2, 2, 0, 0, 1, 1, true, -2, -1}, // ceil: last window past the image
      {13, 40, 5, 5, 1, 1, 2, 2, 1, 1, false, -1, 1},
      {12, 21, 3, 3, 3, 3, 1, 1, 1, 1, false, -1, 1}, // stride 3: the gathered taps
      {20, 37, 3, 3, 1, 2, 1, 0, 2, 2, false, -1, 1}, // dilation 2, stride 2 along W
      {9, 11, 1, 1, 1, 1, 0, 0, 1, 1, false, -1, 1},  // 1x1: a copy
      {6, 70, 3, 4, 2, 2, 1, 2, 1, 1, true, -5, -4},
      {5, 5, 5, 5, 1, 1, 0, 0, 1, 1, false, -1, 1},  // one output
      {33, 3, 4, 2, 3, 1, 1, 1, 1, 1, false, -1, 1}, // rows shorter than any vector
  };
  const int64_t channels = 5, c0 = 1, cn = 3;
  for (const PoolIsa &isa : poolIsas()) {
    if (!mie_uk_test::supported(isa.name))
      continue;
    for (const PoolCase &pc : cases) {
      const int64_t oh = outSize(pc.h, pc.kh, pc.sh, pc.ph, pc.dh, pc.ceil);
      const int64_t ow = outSize(pc.w, pc.kw, pc.sw, pc.pw, pc.dw, pc.ceil);
      std::vector<float> x = mie_uk_test::randomVector(channels * pc.h * pc.w, 7, pc.lo, pc.hi);
      std::vector<float> row(mie_uk_maxpool_row_floats(pc.w, pc.kw, pc.sw, pc.pw, pc.dw, ow));
      // A sentinel after the output and in the channels outside [c0, c0 + cn).
      std::vector<float> out(channels * oh * ow + 1, 42.0f);
      isa.fn(x.data(), 0, pc.h, pc.w, pc.kh, pc.kw, pc.sh, pc.sw, pc.ph, pc.pw, pc.dh, pc.dw, oh,
             ow, c0, cn, out.data(), 0, row.data());
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t xx = 0; xx < ow; ++xx) {
            const float got = out[(c * oh + y) * ow + xx];
            if (c < c0 || c >= c0 + cn) {
              ASSERT_EQ(got, 42.0f) << isa.name << ": channel " << c << " written";
              continue;
            }
            float want = -inf;
            for (int64_t i = 0; i < pc.kh; ++i)
              for (int64_t j = 0; j < pc.kw; ++j) {
                const int64_t ih = y * pc.sh - pc.ph + i * pc.dh,
                              iw = xx * pc.sw - pc.pw + j * pc.dw;
                if (ih >= 0 && ih < pc.h && iw >= 0 && iw < pc.w)
                  want = std::max(want, x[(c * pc.h + ih) * pc.w + iw]);
              }
            ASSERT_EQ(got, want) << isa.name << " h=" << pc.h << " w=" << pc.w << " k=" << pc.kh
                                 << "x" << pc.kw << " s=" << pc.sh << "," << pc.sw << " p=" << pc.ph
                                 << "," << pc.pw << " d=" << pc.dh << "," << pc.dw
                                 << " ceil=" << pc.ceil << " at c" << c << " (" << y << ", " << xx
                                 << ")";
          }
      ASSERT_EQ(out.back(), 42.0f) << isa.name << ": wrote past the output";
    }
  }
}

/// The image offsets: a second image of the batch, read and written at x_off / out_off.
TEST(UKernelMaxPool, Offsets) {
  const int64_t c = 2, h = 10, w = 10, oh = 5, ow = 5;
  std::vector<float> x = mie_uk_test::randomVector(2 * c * h * w, 11);
  for (const PoolIsa &isa : poolIsas()) {
    if (!mie_uk_test::supported(isa.name))
      continue;
    std::vector<float> row(mie_uk_maxpool_row_floats(w, 2, 2, 0, 1, ow));
    std::vector<float> out(2 * c * oh * ow, 42.0f);
    isa.fn(x.data(), c * h * w, h, w, 2, 2, 2, 2, 0, 0, 1, 1, oh, ow, 0, c, out.data(), c * oh * ow,
           row.data());
    for (int64_t i = 0; i < c * oh * ow; ++i)
      ASSERT_EQ(out[i], 42.0f) << isa.name << ": the first image's output written";
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xx = 0; xx < ow; ++xx) {
          const float *p = x.data() + ((c + ch) * h + 2 * y) * w + 2 * xx;
          const float want = std::max(std::max(p[0], p[1]), std::max(p[w], p[w + 1]));
          ASSERT_EQ(out[((c + ch) * oh + y) * ow + xx], want) << isa.name;
        }
  }
}

} // namespace
