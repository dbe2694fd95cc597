// qconv_bench: one thread, the uint8 x int8 VNNI convolution (qu8_conv_vnni.cpp) on ResNet-50's
// convolution layers as a QDQ model runs them: the work items the lowering makes (pixel blocks of
// 128, the filters split where there are few pixel blocks), each packing its own pixels
// (`own`), against the pixels of each block packed once and shared by its filter blocks
// (`shared`); and how much of it is packing (`pack`: the packing of one pass over the pixels).
// Prints microseconds per layer and integer GOP/s (2 per multiply-add). Never part of the tests.
//   build/benchmarks/qconv_bench
#include "bench_timing.h"
#include "ukernels/mie_ukernels.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

struct Layer {
  const char *name;
  int64_t c, h, w, f, k, s; // square window k x k, stride s, padding k / 2
};

template <typename T>
T *alignedBuffer(int64_t bytes) {
  return static_cast<T *>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
}

} // namespace

int main() {
#if defined(__x86_64__)
  if (!__builtin_cpu_supports("avx512vnni")) {
    std::printf("qconv_bench: this CPU has no AVX512-VNNI\n");
    return 0;
  }
  const Layer layers[] = {
      {"conv1 7x7/2", 3, 224, 224, 64, 7, 2},    {"l1 1x1 64>64", 64, 56, 56, 64, 1, 1},
      {"l1 3x3", 64, 56, 56, 64, 3, 1},          {"l1 1x1 64>256", 64, 56, 56, 256, 1, 1},
      {"l1 1x1 256>64", 256, 56, 56, 64, 1, 1},  {"l2 1x1 256>128", 256, 56, 56, 128, 1, 1},
      {"l2 3x3/2", 128, 56, 56, 128, 3, 2},      {"l2 ds 1x1/2", 256, 56, 56, 512, 1, 2},
      {"l2 3x3", 128, 28, 28, 128, 3, 1},        {"l2 1x1 128>512", 128, 28, 28, 512, 1, 1},
      {"l2 1x1 512>128", 512, 28, 28, 128, 1, 1}, {"l3 3x3/2", 256, 28, 28, 256, 3, 2},
      {"l3 ds 1x1/2", 512, 28, 28, 1024, 1, 2},  {"l3 3x3", 256, 14, 14, 256, 3, 1},
      {"l3 1x1 256>1024", 256, 14, 14, 1024, 1, 1}, {"l3 1x1 1024>256", 1024, 14, 14, 256, 1, 1},
      {"l4 3x3/2", 512, 14, 14, 512, 3, 2},      {"l4 ds 1x1/2", 1024, 14, 14, 2048, 1, 2},
      {"l4 3x3", 512, 7, 7, 512, 3, 1},          {"l4 1x1 512>2048", 512, 7, 7, 2048, 1, 1},
      {"l4 1x1 2048>512", 2048, 7, 7, 512, 1, 1},
  };
  std::mt19937 rng(1);
  std::printf("%-18s %5s %5s %5s %9s %9s %9s %8s %8s\n", "layer", "P", "K", "items", "own us",
              "shared us", "pack us", "own GOP", "shr GOP");
  for (const Layer &l : layers) {
    const int64_t pad = l.k / 2, oh = (l.h + 2 * pad - l.k) / l.s + 1,
                  ow = (l.w + 2 * pad - l.k) / l.s + 1, p = oh * ow, k = l.c * l.k * l.k;
    // The lowering's work items (lowerQConvToUKernels): pixel blocks of up to 128, filter blocks
    // of at least 128 filters where one image has fewer than 8 pixel blocks.
    const int64_t mr = MIE_UK_QU8_MR, nr = MIE_UK_QU8_NR;
    const int64_t pb = std::min<int64_t>((p + nr - 1) / nr * nr, 4 * nr), pBlocks = (p + pb - 1) / pb;
    const int64_t fPanels = (l.f + mr - 1) / mr;
    const int64_t wantF =
        std::clamp<int64_t>((8 + pBlocks - 1) / pBlocks, 1, std::max<int64_t>(1, l.f / 128));
    const int64_t fb = (fPanels + wantF - 1) / wantF * mr, fBlocks = (l.f + fb - 1) / fb;

    std::vector<uint8_t> x(l.c * l.h * l.w);
    for (uint8_t &v : x)
      v = uint8_t(rng());
    std::vector<int8_t> w(l.f * k);
    for (int8_t &v : w)
      v = int8_t(rng());
    int8_t *packed = alignedBuffer<int8_t>(mie_uk_qu8_packed_filter_bytes(l.f, k));
    mie_uk_qu8_pack_conv_filter(w.data(), l.f, l.c, l.k, l.k, packed);
    std::vector<int32_t> bias(l.f, 1000);
    std::vector<float> scale(l.f, 1e-4f);
    uint8_t *y = alignedBuffer<uint8_t>(l.f * p);
    uint8_t *scratch = alignedBuffer<uint8_t>(mie_uk_qu8_conv_scratch_bytes(k, pb));
    uint8_t *stage = alignedBuffer<uint8_t>(mie_uk_qu8_stage_bytes(k));
    uint8_t *shared = alignedBuffer<uint8_t>(pBlocks * mie_uk_qu8_panel_bytes(k, pb));
    auto conv = [&](int64_t p0, int64_t np, int64_t f0, int64_t fn) {
      mie_uk_qu8_conv_nchw_vnni(x.data(), 0, l.c, l.h, l.w, l.k, l.k, l.s, l.s, 1, 1, pad, pad,
                                oh, ow, packed, l.f, bias.data(), scale.data(), 3, 5, 0, 255, p0,
                                np, f0, fn, y, 0, scratch);
    };
    auto pack = [&](int64_t block, uint8_t *dst) {
      const int64_t p0 = block * pb, np = std::min(pb, p - p0);
      mie_uk_qu8_pack_conv_vnni(x.data(), 0, l.c, l.h, l.w, l.k, l.k, l.s, l.s, 1, 1, pad, pad, ow,
                                3, p0, np, dst, 0, stage);
    };
    const double own = bestMicros([&] {
      for (int64_t b = 0; b < pBlocks; ++b)
        for (int64_t fi = 0; fi < fBlocks; ++fi)
          conv(b * pb, std::min(pb, p - b * pb), fi * fb, std::min(fb, l.f - fi * fb));
    });
    const double sharedUs = bestMicros([&] {
      for (int64_t b = 0; b < pBlocks; ++b)
        pack(b, shared + b * mie_uk_qu8_panel_bytes(k, pb));
      for (int64_t b = 0; b < pBlocks; ++b)
        for (int64_t fi = 0; fi < fBlocks; ++fi) {
          const int64_t p0 = b * pb;
          mie_uk_qu8_gemm_vnni(shared, b * mie_uk_qu8_panel_bytes(k, pb), k, std::min(pb, p - p0),
                               packed, bias.data(), scale.data(), 5, 0, 255, fi * fb,
                               std::min(fb, l.f - fi * fb), y, p0, p);
        }
    });
    const double packUs = bestMicros([&] {
      for (int64_t b = 0; b < pBlocks; ++b)
        pack(b, scratch);
    });
    const double ops = 2.0 * l.f * p * k;
    std::printf("%-18s %5lld %5lld %2lldx%-2lld %9.1f %9.1f %9.1f %8.0f %8.0f\n", l.name,
                (long long)p, (long long)k, (long long)pBlocks, (long long)fBlocks, own, sharedUs,
                packUs, ops / own * 1e-3, ops / sharedUs * 1e-3);
    std::free(packed);
    std::free(y);
    std::free(scratch);
    std::free(stage);
    std::free(shared);
  }
#else
  std::printf("qconv_bench: x86-64 only\n");
#endif
  return 0;
}
