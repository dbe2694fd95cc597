// attention_bench: GFLOP/s of the fused attention microkernel of every ISA this CPU runs, on one
// head of BERT/GPT-sized shapes (keys and values in L2, as a work item of the lowering sees them),
// for the query rows per call that the lowering gives a work item. Flops count the two products
// (4 * rows * T * D). Never part of the tests.
//   build/benchmarks/attention_bench [isa [S T D rows-per-call [causal]]]  (one ISA, one shape)
#include "bench_timing.h"
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using AttentionFn = void (*)(const float *, int64_t, int64_t, const float *, int64_t, int64_t,
                             const float *, int64_t, int64_t, const float *, int64_t, int64_t,
                             int64_t, float *, int64_t, int64_t, int64_t, int64_t, int64_t,
                             int64_t, float, int64_t, int64_t, float *);

struct Isa {
  const char *name;
  AttentionFn fn;
};

struct Shape {
  int64_t S, T, D, rows; // one head: S query rows in calls of `rows`, T keys
  bool causal;
};

void bench(const Isa &isa, const Shape &s) {
  const int64_t D = s.D;
  std::vector<float> q = mie_uk_test::randomVector(s.S * D, 1, -1.0f, 1.0f);
  std::vector<float> k = mie_uk_test::randomVector(s.T * D, 2, -1.0f, 1.0f);
  std::vector<float> v = mie_uk_test::randomVector(s.T * D, 3, -1.0f, 1.0f);
  std::vector<float> o(s.S * D);
  std::vector<float> scratch(mie_uk_attention_scratch_floats(D, s.rows));
  const int64_t flags = s.causal ? MIE_UK_ATTENTION_CAUSAL : 0;
  const double us = bestMicros([&] {
    for (int64_t r0 = 0; r0 < s.S; r0 += s.rows) {
      const int64_t rows = s.S - r0 < s.rows ? s.S - r0 : s.rows;
      isa.fn(q.data(), r0 * D, D, k.data(), 0, D, v.data(), 0, D, nullptr, 0, 0, 0, o.data(),
             r0 * D, D, rows, s.T, D, D, 0.125f, flags, s.T - s.S + r0, scratch.data());
    }
  });
  // Causal: about half the products.
  const double flops = 4.0 * s.S * s.T * D * (s.causal ? 0.5 : 1.0);
  std::printf("%-7s S=%-4lld T=%-4lld D=%-4lld rows/call=%-4lld %-7s %9.1f us %8.1f GFLOP/s\n",
              isa.name, (long long)s.S, (long long)s.T, (long long)D, (long long)s.rows,
              s.causal ? "causal" : "", us, flops / us / 1e3);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<Isa> isas;
#if defined(__x86_64__)
  if (mie_uk_test::supported("avx512"))
    isas.push_back({"avx512", mie_uk_f32_attention_avx512});
  if (mie_uk_test::supported("avx2"))
    isas.push_back({"avx2", mie_uk_f32_attention_avx2});
#elif defined(__aarch64__)
  isas.push_back({"neon", mie_uk_f32_attention_neon});
#endif
  const Shape shapes[] = {{384, 384, 64, 24, false},  {384, 384, 64, 96, false},
                          {384, 384, 64, 384, false}, {128, 128, 64, 24, false},
                          {64, 64, 64, 24, false},    {7, 7, 64, 7, false},
                          {1, 160, 64, 1, true},      {384, 384, 64, 24, true},
                          {384, 384, 128, 24, false}, {384, 384, 32, 24, false}};
  for (const Isa &isa : isas) {
    if (argc > 1 && std::string(argv[1]) != isa.name)
      continue;
    if (argc > 5) {
      bench(isa, {std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]),
                  std::atoll(argv[5]), argc > 6});
      continue;
    }
    for (const Shape &s : shapes)
      bench(isa, s);
  }
  return 0;
}
