// conv1x1_bench: one thread, the NCHW 1x1 convolutions of ResNets (F filters x C channels x P
// pixels) run the way the generated code runs them, with the choices the kernel-selection pass
// makes (tile, K block, pixel block) and the alternatives it could make: pixel panels read in place
// (rows P apart) or packed per K block. Prints microseconds per layer and GFLOP/s; compare with the
// tile's own rate in L1 (ukernel_bench). Never part of the tests.
// With `rows`, the layers of at most 196 pixels in the pixels-as-rows form instead (tile, K block,
// loop order), warm: the way the pass runs them on small maps. With `cold`, every timed run starts
// with the caches flushed of the layer's data (a 256 MiB buffer written first), as in a whole
// model, where each layer's weights were last read one inference earlier.
//   build/benchmarks/conv1x1_bench [avx512|avx2] [rows] [cold]
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using TileFn = void (*)(const float *, int64_t, const float *, int64_t, int64_t, float *, int64_t,
                        int64_t, int64_t, int64_t, int64_t, int64_t, const float *, int64_t,
                        const float *, int64_t, int64_t, float, float);
struct Tile {
  std::string isa;
  int64_t mr, nr;
  TileFn fn;
};

struct Layer {
  const char *name;
  int64_t f, c, p;
};

struct Choice {
  int64_t kc, nc;
  bool packed; // pixel panels packed per K block (else read in place, rows P apart)
};

/// Filters packed as the compiler packs them: [ceil(F / mr)][C][mr].
std::vector<float> packFilters(const std::vector<float> &w, int64_t f, int64_t c, int64_t mr) {
  const int64_t panels = (f + mr - 1) / mr;
  std::vector<float> out(panels * c * mr, 0.0f);
  for (int64_t i = 0; i < f; ++i)
    for (int64_t k = 0; k < c; ++k)
      out[((i / mr) * c + k) * mr + i % mr] = w[i * c + k];
  return out;
}

/// Pixel panels [np / nr][kc][nr] of pixels [p0, p0 + np), channels [k0, k0 + kc).
void packPixels(const float *x, int64_t p, int64_t p0, int64_t np, int64_t k0, int64_t kc,
                int64_t nr, float *dst) {
  for (int64_t pt = 0; pt * nr < np; ++pt) {
    const int64_t n = std::min(nr, np - pt * nr);
    for (int64_t k = 0; k < kc; ++k) {
      float *d = dst + (pt * kc + k) * nr;
      std::memcpy(d, x + (k0 + k) * p + p0 + pt * nr, n * sizeof(float));
      std::fill(d + n, d + nr, 0.0f);
    }
  }
}

/// Row panels [ceil(P / mr)][kc][mr] of x^T (pixels as rows), channels [k0, k0 + kc).
void packRows(const float *x, int64_t p, int64_t k0, int64_t kc, int64_t mr, float *dst) {
  for (int64_t pt = 0; pt * mr < p; ++pt) {
    const int64_t n = std::min(mr, p - pt * mr);
    for (int64_t k = 0; k < kc; ++k) {
      float *d = dst + (pt * kc + k) * mr;
      std::memcpy(d, x + (k0 + k) * p + pt * mr, n * sizeof(float));
      std::fill(d + n, d + mr, 0.0f);
    }
  }
}

/// One layer, one thread: items of `nc` pixels, each running every filter per K block.
void runLayer(const Tile &t, const Layer &l, const Choice &ch, const float *x, const float *wp,
              const float *bias, float *out, float *scratch) {
  const int64_t K = l.c, kc = std::min(ch.kc, K);
  const int64_t epi = MIE_UK_EPILOGUE | MIE_UK_BIAS | (MIE_UK_ACT_RELU << MIE_UK_ACTIVATION_SHIFT);
  const int64_t fPanels = (l.f + t.mr - 1) / t.mr;
  for (int64_t p0 = 0; p0 < l.p; p0 += ch.nc) {
    const int64_t np = std::min(ch.nc, l.p - p0);
    const int64_t full = ch.packed ? 0 : np / t.nr;
    for (int64_t k0 = 0; k0 < K; k0 += kc) {
      const int64_t kcur = std::min(kc, K - k0);
      int64_t flags = k0 ? MIE_UK_ACCUMULATE : 0;
      if (k0 + kcur == K)
        flags |= epi;
      // Packed: every panel of the block; in place: only a partial last panel.
      packPixels(x, l.p, p0 + full * t.nr, np - full * t.nr, k0, kcur, t.nr, scratch);
      for (int64_t pt = 0; pt * t.nr < np; ++pt) {
        const int64_t ncur = std::min(t.nr, np - pt * t.nr);
        const bool inPlace = pt < full;
        const float *b = inPlace ? x + k0 * l.p + p0 + pt * t.nr : scratch;
        const int64_t bOff = inPlace ? 0 : (pt - full) * kcur * t.nr;
        const int64_t ldb = inPlace ? l.p : t.nr;
        for (int64_t ft = 0; ft < fPanels; ++ft) {
          const int64_t row = ft * t.mr, mcur = std::min(t.mr, l.f - row);
          const int64_t tf = flags | (inPlace && ft == 0 ? MIE_UK_PREFETCH_NEXT_B : 0);
          float *c = out + row * l.p + p0 + pt * t.nr;
          t.fn(wp, (ft * K + k0) * t.mr, b, bOff, ldb, c, 0, l.p, kcur, mcur, ncur, tf, bias, row,
               nullptr, 0, 0, 0, 0);
        }
      }
    }
  }
}

/// The same layer as the transposed product the pass picks for small maps (`conv_pixel_rows`):
/// pixels are the broadcast rows (packed once per K block from x transposed), the filters' weights
/// the column panels [ceil(F / nr)][C][nr], the tile stores transposed into NCHW. `colsOuter`: each
/// column panel runs over every row tile (the generated loop order); else each row tile over
/// every column panel.
void runRowsLayer(const Tile &t, const Layer &l, int64_t kc, bool colsOuter, const float *x,
                  const float *wp, const float *bias, float *out, float *rows) {
  const int64_t K = l.c;
  kc = std::min(kc, K);
  const int64_t epi = MIE_UK_EPILOGUE | MIE_UK_BIAS | MIE_UK_BIAS_PER_COL | MIE_UK_TRANSPOSE_C |
                      (MIE_UK_ACT_RELU << MIE_UK_ACTIVATION_SHIFT);
  const int64_t mPanels = (l.p + t.mr - 1) / t.mr, nPanels = (l.f + t.nr - 1) / t.nr;
  for (int64_t k0 = 0; k0 < K; k0 += kc) {
    const int64_t kcur = std::min(kc, K - k0);
    int64_t flags = (k0 ? MIE_UK_ACCUMULATE : 0) | MIE_UK_TRANSPOSE_C;
    if (k0 + kcur == K)
      flags |= epi;
    packRows(x, l.p, k0, kcur, t.mr, rows);
    auto tile = [&](int64_t i, int64_t j) {
      const int64_t m = std::min(t.mr, l.p - i * t.mr), n = std::min(t.nr, l.f - j * t.nr);
      t.fn(rows, i * kcur * t.mr, wp, (j * K + k0) * t.nr, t.nr, out, j * t.nr * l.p + i * t.mr,
           l.p, kcur, m, n, flags, bias, j * t.nr, nullptr, 0, 0, 0, 0);
    };
    for (int64_t a = 0; a < (colsOuter ? nPanels : mPanels); ++a)
      for (int64_t b = 0; b < (colsOuter ? mPanels : nPanels); ++b)
        colsOuter ? tile(b, a) : tile(a, b);
  }
}

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// A layer's image, filters (F x C), bias and output, filled with small repeating values.
struct LayerData {
  std::vector<float> x, w, bias, out;
  explicit LayerData(const Layer &l) : x(l.c * l.p), w(l.f * l.c), bias(l.f), out(l.f * l.p) {
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float(i % 7) * 0.125f - 0.3f;
    for (size_t i = 0; i < w.size(); ++i)
      w[i] = float(i % 5) * 0.01f - 0.02f;
  }
};

/// One way to run a layer: its label, its packed filters, and the call.
struct Variant {
  std::string label;
  std::vector<float> packed;
  std::function<void(const float *packed)> run;
  double best = 1e30;
};

/// Every variant once a round, the minimum over 9 rounds (this machine's noise comes and goes over
/// seconds, so the variants are interleaved rather than timed one after another), printed with the
/// layer's `flop`. `warm`: each timed run follows an untimed one, as when the layer's activations
/// come from the layer before it.
bool gCold = false;

void timeVariants(std::vector<Variant> &variants, double flop, bool warm) {
  static std::vector<char> flush;
  if (gCold && flush.empty())
    flush.resize(size_t(256) << 20);
  for (int round = 0; round < 9; ++round)
    for (Variant &v : variants) {
      if (gCold)
        std::memset(flush.data(), round + 1, flush.size());
      else if (warm)
        v.run(v.packed.data());
      auto t0 = std::chrono::steady_clock::now();
      v.run(v.packed.data());
      v.best = std::min(v.best, seconds(t0));
    }
  for (const Variant &v : variants)
    std::printf("  %s %8.1f us %6.1f GFLOP/s\n", v.label.c_str(), v.best * 1e6,
                flop / v.best / 1e9);
}

std::string tileLabel(const Tile &t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%2lldx%-2lld", (long long)t.mr, (long long)t.nr);
  return buf;
}

/// The pixels-as-rows form of the layers with at most 196 pixels: every tile, K block and loop
/// order, warm.
template <size_t N>
int runRowsForm(const std::vector<Tile> &tiles, const std::string &isa, const Layer (&layers)[N]) {
  for (const Layer &l : layers) {
    if (l.p > 196)
      continue;
    LayerData d(l);
    std::printf("%s, pixels as rows\n", l.name);
    std::vector<float> rows((l.p + 48) * l.c);
    std::vector<Variant> variants;
    for (const Tile &t : tiles) {
      if (t.isa != isa || !mie_uk_test::supported(t.isa.c_str()))
        continue;
      // K blocks of 256 and 512 where shorter than K, then all of K.
      std::vector<int64_t> kcs;
      for (int64_t kc : {int64_t(256), int64_t(512)})
        if (kc < l.c)
          kcs.push_back(kc);
      kcs.push_back(l.c);
      for (int64_t kc : kcs)
        for (bool colsOuter : {true, false}) {
          char label[64];
          std::snprintf(label, sizeof label, "%s kc %4lld %-10s", tileLabel(t).c_str(),
                        (long long)kc, colsOuter ? "cols-outer" : "rows-outer");
          variants.push_back({label, packFilters(d.w, l.f, l.c, t.nr),
                              [&, tp = &t, kc, colsOuter](const float *wp) {
                                runRowsLayer(*tp, l, kc, colsOuter, d.x.data(), wp, d.bias.data(),
                                             d.out.data(), rows.data());
                              }});
        }
    }
    timeVariants(variants, 2.0 * l.f * l.c * l.p, /*warm=*/true);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
#if defined(__x86_64__)
  std::string isa = "avx512";
#else
  std::string isa = "neon";
#endif
  // "rows": the pixels-as-rows form of the small maps' layers instead of the NCHW form.
  bool rowsForm = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "rows")
      rowsForm = true;
    else if (std::string(argv[i]) == "cold")
      gCold = true;
    else
      isa = argv[i];
  }
  std::vector<Tile> tiles;
  // The tiles this build has: the host architecture's ISAs.
#if defined(__x86_64__)
#define MIE_UK_BENCH_TILE_avx512(MR, NR)                                                           \
  tiles.push_back({"avx512", MR, NR, mie_uk_f32_gemm_##MR##x##NR##_avx512});
#define MIE_UK_BENCH_TILE_avx2(MR, NR)                                                             \
  tiles.push_back({"avx2", MR, NR, mie_uk_f32_gemm_##MR##x##NR##_avx2});
#define MIE_UK_BENCH_TILE_neon(MR, NR)
#else
#define MIE_UK_BENCH_TILE_avx512(MR, NR)
#define MIE_UK_BENCH_TILE_avx2(MR, NR)
#define MIE_UK_BENCH_TILE_neon(MR, NR)                                                             \
  tiles.push_back({"neon", MR, NR, mie_uk_f32_gemm_##MR##x##NR##_neon});
#endif
#define MIE_UK_F32_GEMM_TILE(I, MR, NR, E) MIE_UK_BENCH_TILE_##I(MR, NR)
#include "mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
  const Layer layers[] = {{"layer1 conv1 64x256 56x56", 64, 256, 3136},
                          {"layer1 conv3 256x64 56x56", 256, 64, 3136},
                          {"layer2 conv1 128x512 28x28", 128, 512, 784},
                          {"layer2 conv3 512x128 28x28", 512, 128, 784},
                          {"layer3 conv1 256x1024 14x14", 256, 1024, 196},
                          {"layer3 conv3 1024x256 14x14", 1024, 256, 196},
                          {"layer4 conv1 512x2048 7x7", 512, 2048, 49}};
  const Choice choices[] = {{64, 0, false},  {128, 0, false}, {256, 0, false}, {512, 0, false},
                            {128, 0, true},  {256, 0, true},  {512, 0, true},  {128, 1, false},
                            {256, 1, false}, {256, 1, true},  {512, 1, true}};
  if (rowsForm)
    return runRowsForm(tiles, isa, layers);
  for (const Layer &l : layers) {
    LayerData d(l);
    std::printf("%s\n", l.name);
    std::vector<float> scratch(4 * 48 * l.c + 64);
    std::vector<Variant> variants;
    for (const Tile &t : tiles) {
      if (t.isa != isa || !mie_uk_test::supported(t.isa.c_str()))
        continue;
      for (const Choice &c0 : choices) {
        // nc 0: one pixel panel an item (the pass's per-item choice); 1: four panels.
        Choice ch = c0;
        ch.nc = ch.nc ? 4 * t.nr : t.nr;
        char label[64];
        std::snprintf(label, sizeof label, "%s kc %4lld nc %3lld %-8s", tileLabel(t).c_str(),
                      (long long)ch.kc, (long long)ch.nc, ch.packed ? "packed" : "in-place");
        variants.push_back(
            {label, packFilters(d.w, l.f, l.c, t.mr), [&, tp = &t, ch](const float *wp) {
               runLayer(*tp, l, ch, d.x.data(), wp, d.bias.data(), d.out.data(), scratch.data());
             }});
      }
    }
    timeVariants(variants, 2.0 * l.f * l.c * l.p, /*warm=*/false);
  }
  return 0;
}
