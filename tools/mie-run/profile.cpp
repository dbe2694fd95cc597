#include "profile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

#include "core/json.h"
#include "mie/mie_tensor_io.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace mie::run {
namespace {

uint64_t now_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

// Each loop runs `iters` rounds of kChains independent FMAs (enough chains to cover latency x
// throughput on current cores) and returns the lanes x chains x iters multiply-adds it did.
constexpr int kChains = 12;

#if defined(__x86_64__)
__attribute__((target("avx512f"))) double fma_loop_avx512(long iters, float *sink) {
  __m512 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm512_set1_ps(float(c));
  const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(0.001f);
  for (long i = 0; i < iters; ++i)
    for (int c = 0; c < kChains; ++c) acc[c] = _mm512_fmadd_ps(acc[c], a, b);
  __m512 s = acc[0];
  for (int c = 1; c < kChains; ++c) s = _mm512_add_ps(s, acc[c]);
  *sink = _mm512_reduce_add_ps(s);
  return 16.0 * kChains * double(iters);
}

__attribute__((target("avx2,fma"))) double fma_loop_avx2(long iters, float *sink) {
  __m256 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm256_set1_ps(float(c));
  const __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(0.001f);
  for (long i = 0; i < iters; ++i)
    for (int c = 0; c < kChains; ++c) acc[c] = _mm256_fmadd_ps(acc[c], a, b);
  __m256 s = acc[0];
  for (int c = 1; c < kChains; ++c) s = _mm256_add_ps(s, acc[c]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, s);
  *sink = lanes[0];
  return 8.0 * kChains * double(iters);
}
#elif defined(__aarch64__)
double fma_loop_neon(long iters, float *sink) {
  float32x4_t acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = vdupq_n_f32(float(c));
  const float32x4_t a = vdupq_n_f32(0.999f), b = vdupq_n_f32(0.001f);
  for (long i = 0; i < iters; ++i)
    for (int c = 0; c < kChains; ++c) acc[c] = vfmaq_f32(b, acc[c], a);
  float32x4_t s = acc[0];
  for (int c = 1; c < kChains; ++c) s = vaddq_f32(s, acc[c]);
  *sink = vgetq_lane_f32(s, 0);
  return 4.0 * kChains * double(iters);
}
#endif

}  // namespace

double measure_fma_peak_gflops(std::string *isa) {
  double (*loop)(long, float *) = nullptr;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    loop = fma_loop_avx512;
    *isa = "avx512";
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    loop = fma_loop_avx2;
    *isa = "avx2+fma";
  }
#elif defined(__aarch64__)
  loop = fma_loop_neon;
  *isa = "neon";
#endif
  if (!loop) {
    *isa = "unknown";
    return 0;
  }
  float sink = 0;
  long iters = 1 << 16;
  // Grow the loop to ~10 ms, then keep the best of five (the fastest run is the least disturbed).
  for (;;) {
    const uint64_t t0 = now_ns();
    loop(iters, &sink);
    if (now_ns() - t0 > 10000000 || iters > (1L << 30)) break;
    iters *= 2;
  }
  double best = 0;
  for (int r = 0; r < 5; ++r) {
    const uint64_t t0 = now_ns();
    const double fmas = loop(iters, &sink);
    const double ns = double(now_ns() - t0);
    best = std::max(best, 2.0 * fmas / ns);
  }
  if (sink == 12345.0f) std::fputs("", stderr);  // keep the loop's result alive
  return best;
}

std::string KernelProfiler::attach(mie_session *session, long runs) {
  uint32_t count = 0;
  mie_session_num_kernels(session, &count);
  if (count == 0)
    return "the package lists no kernels (it was compiled by an older mie-compile); recompile it to profile";
  kernels_.assign(count, Kernel{});
  for (uint32_t i = 0; i < count; ++i) {
    mie_kernel_info info;
    mie_session_kernel_info(session, i, &info);
    kernels_[i].name = info.name;
    kernels_[i].nodes = info.nodes;
    kernels_[i].flops = info.flops;
  }
  open_.assign(count, 0);
  events_.reserve(size_t(runs) * count);
  if (mie_session_set_profiler(session, &KernelProfiler::hook, this) != MIE_OK) return mie_last_error();
  session_ = session;
  origin_ns_ = now_ns();
  return "";
}

void KernelProfiler::detach() {
  if (session_) mie_session_set_profiler(session_, nullptr, nullptr);
  session_ = nullptr;
}

void KernelProfiler::hook(void *ctx, int32_t kernel, int32_t phase) {
  auto *self = static_cast<KernelProfiler *>(ctx);
  const uint64_t t = now_ns();
  if (kernel < 0 || size_t(kernel) >= self->kernels_.size()) {
    self->bad_id_ = true;
    return;
  }
  if (phase == 0) {
    self->open_[size_t(kernel)] = t;
    if (kernel == 0) ++self->runs_;
    return;
  }
  const uint64_t begin = self->open_[size_t(kernel)];
  Kernel &k = self->kernels_[size_t(kernel)];
  k.total_ns += t - begin;
  ++k.launches;
  self->events_.push_back({kernel, begin - self->origin_ns_, t - self->origin_ns_});
}

void KernelProfiler::print_table(FILE *out, uint32_t threads, double peak_per_core, const std::string &peak_isa,
                                 double mean_run_ms) const {
  const double runs = std::max<uint32_t>(runs_, 1);
  const double peak = peak_per_core * threads;
  std::vector<size_t> order(kernels_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return kernels_[a].total_ns > kernels_[b].total_ns; });
  double kernel_ms = 0;
  uint64_t flops = 0;
  for (const Kernel &k : kernels_) {
    kernel_ms += double(k.total_ns) / 1e6 / runs;
    flops += k.flops;
  }
  std::fprintf(out, "profile: %u runs, %u thread%s, mean run %.3f ms, kernels %.3f ms\n", runs_, threads,
               threads == 1 ? "" : "s", mean_run_ms, kernel_ms);
  if (peak > 0)
    std::fprintf(out, "peak: %.1f GFLOP/s (%u x %.1f, fp32 FMA, %s, measured now)\n", peak, threads, peak_per_core,
                 peak_isa.c_str());
  std::fprintf(out, "%5s  %-34s %9s %7s %8s %7s  %s\n", "#", "kernel", "ms/run", "share", "GFLOP/s", "%peak",
               "nodes");
  for (size_t i : order) {
    const Kernel &k = kernels_[i];
    const double ms = double(k.total_ns) / 1e6 / runs;
    const double share = kernel_ms > 0 ? 100.0 * ms / kernel_ms : 0;
    std::fprintf(out, "%5zu  %-34s %9.4f %6.1f%%", i, k.name.c_str(), ms, share);
    if (k.flops > 0 && ms > 0) {
      const double gflops = double(k.flops) / (ms * 1e6);
      std::fprintf(out, " %8.1f", gflops);
      if (peak > 0)
        std::fprintf(out, " %6.1f%%", 100.0 * gflops / peak);
      else
        std::fprintf(out, " %7s", "-");
    } else {
      std::fprintf(out, " %8s %7s", "-", "-");
    }
    std::string nodes = k.nodes;
    if (nodes.size() > 60) nodes = nodes.substr(0, 57) + "...";
    std::fprintf(out, "  %s\n", nodes.c_str());
  }
  if (kernel_ms > 0) {
    const double gflops = double(flops) / (kernel_ms * 1e6);
    std::fprintf(out, "total: %.4g GFLOP per run, %.1f GFLOP/s over the kernels", double(flops) / 1e9, gflops);
    if (peak > 0) std::fprintf(out, ", %.1f%% of peak", 100.0 * gflops / peak);
    std::fprintf(out, "\n");
  }
  if (bad_id_) std::fprintf(out, "warning: the code reported kernel ids outside the manifest's list\n");
}

std::string KernelProfiler::write_trace(const std::string &path, const std::string &model,
                                        const std::string &target) const {
  using rt::json::append_quoted;
  std::string o = "{\"displayTimeUnit\": \"ms\", \"otherData\": {\"model\": ";
  append_quoted(o, model);
  o += ", \"target\": ";
  append_quoted(o, target);
  o += "},\n\"traceEvents\": [\n";
  o += "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"mie-run\"}}";
  char buf[128];
  for (const Event &e : events_) {
    const Kernel &k = kernels_[size_t(e.kernel)];
    std::snprintf(buf, sizeof buf, ", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": %.3f, \"dur\": %.3f",
                  double(e.begin_ns) / 1e3, double(e.end_ns - e.begin_ns) / 1e3);
    o += ",\n{\"name\": ";
    append_quoted(o, k.name);
    o += std::string(", \"cat\": \"kernel\"") + buf + ", \"args\": {\"nodes\": ";
    append_quoted(o, k.nodes);
    o += ", \"flops\": " + std::to_string(k.flops) + "}}";
  }
  o += "\n]}\n";
  return io::write_file_atomic(path, o.data(), o.size());
}

}  // namespace mie::run
