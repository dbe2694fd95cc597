// dwconv_bench: the depthwise microkernels on mobilenet_v2's depthwise layers (3x3, padding 1,
// bias and ReLU6 as the model runs them), one image, all channels and rows in one call, one
// thread: microseconds per call and GFLOP/s of the NCHW kernel (mie_uk_*_dwconv_nchw) next to the
// NHWC one (mie_uk_*_dwconv_nhwc), f32 and bf16. With a second argument of 2, each call is split
// over two threads (a spinning worker and the caller) the way generated code splits it: NCHW by
// channels, NHWC by bands of output rows. Never part of the tests.
//   build/benchmarks/dwconv_bench [avx512|avx2|neon] [1|2]
#include "bench_timing.h"
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

using mie_uk_test::randomVector;
using mie_uk_test::supported;

using NchwFn = decltype(&mie_uk_f32_dwconv_nchw_avx512);
using Bf16NchwFn = decltype(&mie_uk_bf16_dwconv_nchw_avx512);
using NhwcFn = decltype(&mie_uk_f32_dwconv_nhwc_avx512);
using Bf16NhwcFn = decltype(&mie_uk_bf16_dwconv_nhwc_avx512);

struct Kernels {
  const char *isa;
  NchwFn nchw;
  NhwcFn nhwc;
  Bf16NchwFn bf16Nchw;
  Bf16NhwcFn bf16Nhwc;
};

/// Runs job(0) on a spinning worker thread and job(1) on the caller, or job(0) alone with one
/// thread: the halves of a call, without thread start-up or wake-up costs in the time.
class Split {
public:
  explicit Split(int threads) : threads_(threads) {
    if (threads_ == 2)
      worker_ = std::thread([this] {
        int64_t seen = 0;
        while (true) {
          int64_t g;
          while ((g = generation_.load(std::memory_order_acquire)) == seen)
            ;
          if (g < 0)
            return;
          seen = g;
          job_(0);
          done_.store(g, std::memory_order_release);
        }
      });
  }
  ~Split() {
    if (threads_ == 2) {
      generation_.store(-1, std::memory_order_release);
      worker_.join();
    }
  }
  void run(const std::function<void(int)> &job) {
    if (threads_ == 1)
      return job(0);
    job_ = job;
    const int64_t g = ++counter_;
    generation_.store(g, std::memory_order_release);
    job(1);
    while (done_.load(std::memory_order_acquire) != g)
      ;
  }
  int threads() const { return threads_; }

private:
  int threads_;
  std::thread worker_;
  std::function<void(int)> job_;
  int64_t counter_ = 0;
  std::atomic<int64_t> generation_{0}, done_{0};
};

/// [begin, end) of part `i` of `n` split over `parts`.
void part(int64_t n, int parts, int i, int64_t &begin, int64_t &count) {
  begin = n * i / parts;
  count = n * (i + 1) / parts - begin;
}

uint16_t toBf16(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
std::vector<uint16_t> toBf16(const std::vector<float> &f) {
  std::vector<uint16_t> b(f.size());
  for (size_t i = 0; i < f.size(); ++i)
    b[i] = toBf16(f[i]);
  return b;
}

} // namespace

int main(int argc, char **argv) {
  const std::vector<Kernels> all = {
#if defined(__x86_64__)
    {"avx512", mie_uk_f32_dwconv_nchw_avx512, mie_uk_f32_dwconv_nhwc_avx512,
     mie_uk_bf16_dwconv_nchw_avx512, mie_uk_bf16_dwconv_nhwc_avx512},
    {"avx2", mie_uk_f32_dwconv_nchw_avx2, mie_uk_f32_dwconv_nhwc_avx2, mie_uk_bf16_dwconv_nchw_avx2,
     mie_uk_bf16_dwconv_nhwc_avx2},
#else
    {"neon", mie_uk_f32_dwconv_nchw_neon, mie_uk_f32_dwconv_nhwc_neon, mie_uk_bf16_dwconv_nchw_neon,
     mie_uk_bf16_dwconv_nhwc_neon},
#endif
  };
  const Kernels *k = nullptr;
  for (const Kernels &candidate : all)
    if ((argc > 1 ? std::string(argv[1]) == candidate.isa : true) && supported(candidate.isa)) {
      k = &candidate;
      break;
    }
  if (!k) {
    std::fprintf(stderr, "no such ISA on this CPU\n");
    return 1;
  }
  Split split(argc > 2 && std::atoi(argv[2]) == 2 ? 2 : 1);
  const int T = split.threads();
  struct Layer {
    int64_t C, H, S;
  };
  // mobilenet_v2's depthwise layers (several repeat in the model; each once here).
  const Layer layers[] = {{32, 112, 1}, {96, 112, 2}, {144, 56, 1}, {144, 56, 2}, {192, 28, 1},
                          {192, 28, 2}, {384, 14, 1}, {576, 14, 1}, {576, 14, 2}, {960, 7, 1}};
  const int64_t flags =
      MIE_UK_EPILOGUE | MIE_UK_BIAS | (MIE_UK_ACT_RELU6 << MIE_UK_ACTIVATION_SHIFT);
  std::printf("%s, %d thread(s) (NCHW split by channels, NHWC by rows), 3x3 pad 1, bias + relu6; "
              "us per call (GFLOP/s)\n",
              k->isa, T);
  std::printf("%-16s %20s %20s %7s %20s %20s %7s\n", "C,H,stride", "f32 NCHW", "f32 NHWC", "ratio",
              "bf16 NCHW", "bf16 NHWC", "ratio");
  for (const Layer &l : layers) {
    const int64_t H = l.H, W = l.H, C = l.C, S = l.S;
    const int64_t OH = (H + 2 - 3) / S + 1, OW = OH;
    const double gflop = 2.0 * C * OH * OW * 9 / 1e3; // per microsecond -> GFLOP/s
    // NCHW and NHWC hold different values: only the time matters here.
    const std::vector<float> x = randomVector(C * H * W, 1), w = randomVector(C * 9, 2),
                             bias = randomVector(C, 3);
    std::vector<float> out(C * OH * OW);
    // A scratch plane per thread.
    const int64_t planeFloats = mie_uk_dwconv_plane_floats(3, 3, S, S, 1, 1, OH, OW);
    const int64_t bf16PlaneFloats = mie_uk_bf16_dwconv_plane_floats(H, W, 3, 3, S, S, 1, 1, OH, OW);
    std::vector<float> plane(T * planeFloats), bf16Plane(T * bf16PlaneFloats);
    const std::vector<uint16_t> xb = toBf16(x), wb = toBf16(w), biasb = toBf16(bias);
    std::vector<uint16_t> outb(C * OH * OW);
    const double nchw = bestMicros([&] {
      split.run([&](int i) {
        int64_t c0, cn;
        part(C, T, i, c0, cn);
        k->nchw(x.data(), 0, H, W, 3, 3, S, S, 1, 1, 1, 1, OH, OW, w.data(), 0, c0, cn, out.data(),
                0, flags, bias.data(), 0, nullptr, 0, 0.0f, 6.0f, plane.data() + i * planeFloats);
      });
    });
    const double nhwc = bestMicros([&] {
      split.run([&](int i) {
        int64_t oh0, ohn;
        part(OH, T, i, oh0, ohn);
        k->nhwc(x.data(), 0, H, W, C, 3, 3, S, S, 1, 1, 1, 1, OH, OW, w.data(), 0, oh0, ohn, 0, C,
                out.data(), 0, flags, bias.data(), 0, nullptr, 0, 0.0f, 6.0f);
      });
    });
    const double bNchw = bestMicros([&] {
      split.run([&](int i) {
        int64_t c0, cn;
        part(C, T, i, c0, cn);
        k->bf16Nchw(xb.data(), 0, H, W, 3, 3, S, S, 1, 1, 1, 1, OH, OW, wb.data(), 0, c0, cn,
                    outb.data(), 0, flags, biasb.data(), 0, nullptr, 0, 0.0f, 6.0f,
                    bf16Plane.data() + i * bf16PlaneFloats);
      });
    });
    const double bNhwc = bestMicros([&] {
      split.run([&](int i) {
        int64_t oh0, ohn;
        part(OH, T, i, oh0, ohn);
        k->bf16Nhwc(xb.data(), 0, H, W, C, 3, 3, S, S, 1, 1, 1, 1, OH, OW, wb.data(), 0, oh0, ohn,
                    0, C, outb.data(), 0, flags, biasb.data(), 0, nullptr, 0, 0.0f, 6.0f);
      });
    });
    char name[32];
    std::snprintf(name, sizeof(name), "%lld,%lld,%lld", (long long)C, (long long)H, (long long)S);
    std::printf("%-16s %10.1f (%6.1f) %10.1f (%6.1f) %7.2f %10.1f (%6.1f) %10.1f (%6.1f) %7.2f\n",
                name, nchw, gflop / nchw, nhwc, gflop / nhwc, nhwc / nchw, bNchw, gflop / bNchw,
                bNhwc, gflop / bNhwc, bNhwc / bNchw);
  }
  std::printf("ratio: NHWC time / NCHW time (below 1: NHWC faster)\n");
  return 0;
}
