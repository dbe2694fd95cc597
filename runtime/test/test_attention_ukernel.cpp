// The fused attention microkernel of every ISA this machine runs against a naive softmax(QK^T)V in
// double: sequence lengths 1, 7, 128, 129, 384 (one key tile, partial tiles, several tiles with the
// online rescaling), head sizes 32/64/80/128 and value widths that are not whole vectors, additive
// masks per key, per (query, key), causal (-inf above the diagonal) and hiding a whole key tile,
// heads addressed inside [tokens, heads * D] rows, and grouped-query / multi-query attention (fewer
// key/value heads, each serving several query heads, as the lowering addresses them); calls of
// few rows (rows in place) and of many (queries in the lanes), partial query blocks.
#include "ukernel_test_util.h"
#include "ukernels/mie_ukernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using mie_uk_test::randomVector;

using AttentionFn = void (*)(const float *, int64_t, int64_t, const float *, int64_t, int64_t,
                             const float *, int64_t, int64_t, const float *, int64_t, int64_t,
                             int64_t, float *, int64_t, int64_t, int64_t, int64_t, int64_t,
                             int64_t, float, int64_t, int64_t, float *);

struct AttentionIsa {
  std::string name;
  AttentionFn fn;
};

std::vector<AttentionIsa> attentionIsas() {
#if defined(__x86_64__)
  return {{"avx512", mie_uk_f32_attention_avx512}, {"avx2", mie_uk_f32_attention_avx2}};
#elif defined(__aarch64__)
  return {{"neon", mie_uk_f32_attention_neon}};
#else
  return {};
#endif
}


/// causalFlag: the kernel's causal flag (no mask read) against the causal reference;
/// causalFlagPerKey: the flag plus a mask per key (a padding mask on a decoder).
enum class Mask { none, perKey, perQueryKey, causal, hideFirstTile, causalFlag, causalFlagPerKey };

struct Case {
  int64_t S, T, D, Dv, heads;
  Mask mask;
  int64_t kvHeads = 0; // key/value heads, dividing `heads`; 0: as many as query heads
};

/// Runs head `h` of a [tokens, heads * D] layout through the kernel (query rows split into two
/// calls, as work items do) with keys and values [tokens, kvHeads * D], head h reading key/value
/// head h / (heads / kvHeads), and compares every output of that head with the reference.
void checkCase(const AttentionIsa &isa, const Case &c) {
  const int64_t kvHeads = c.kvHeads ? c.kvHeads : c.heads, group = c.heads / kvHeads;
  const int64_t ldq = c.heads * c.D, ldk = kvHeads * c.D, ldv = kvHeads * c.Dv, ldo = c.heads * c.Dv;
  std::vector<float> q = randomVector(c.S * ldq, 1, -2.0f, 2.0f);
  std::vector<float> k = randomVector(c.T * ldk, 2, -2.0f, 2.0f);
  std::vector<float> v = randomVector(c.T * ldv, 3, -1.0f, 1.0f);
  // Large negative entries mask keys out, as BERT's padding masks do.
  std::vector<float> mask = randomVector(c.S * c.T, 4, -3.0f, 0.0f);
  for (size_t i = 0; i < mask.size(); i += 5)
    mask[i] = -10000.0f;
  // Causal: key j visible to query row i only for j <= i + T - S (-inf elsewhere), so early rows
  // see no key of the later tiles, and with S > T some rows no key of the first tile either.
  // The kernel's mask: the reference's, but without the causal part the flag stands for.
  const bool causalFlag = c.mask == Mask::causalFlag || c.mask == Mask::causalFlagPerKey;
  std::vector<float> kernelMask(mask.size());
  const std::vector<float> perKey(mask.begin(), mask.begin() + c.T);
  if (c.mask == Mask::causal || causalFlag)
    for (int64_t i = 0; i < c.S; ++i)
      for (int64_t j = 0; j < c.T; ++j) {
        bool visible = j <= i + c.T - c.S;
        float m = c.mask == Mask::causalFlagPerKey ? perKey[j] : 0.0f;
        mask[i * c.T + j] = visible ? m : -INFINITY;
        kernelMask[i * c.T + j] = m;
      }
  // Every key of the first tile of 128 hidden: the online softmax starts from -inf maxima.
  if (c.mask == Mask::hideFirstTile)
    for (int64_t i = 0; i < c.S; ++i)
      for (int64_t j = 0; j < c.T; ++j)
        mask[i * c.T + j] = j < 130 ? -INFINITY : mask[i * c.T + j];
  if (!causalFlag)
    kernelMask = mask;
  const int64_t maskLs = c.mask == Mask::perKey ? 0 : c.T, maskLt = 1;
  int64_t flags = c.mask == Mask::none || c.mask == Mask::causalFlag ? 0 : MIE_UK_ATTENTION_MASK;
  if (causalFlag)
    flags |= MIE_UK_ATTENTION_CAUSAL;
  const float scale = 1.0f / std::sqrt(float(c.D));
  for (int64_t h = 0; h < c.heads; ++h) {
    const int64_t hk = h / group;
    std::vector<float> out(c.S * ldo, -7.0f);
    const int64_t split = c.S / 2;
    for (auto [r0, rows] : {std::pair<int64_t, int64_t>{0, split}, {split, c.S - split}}) {
      if (rows == 0)
        continue;
      std::vector<float> scratch(mie_uk_attention_scratch_floats(c.D, rows), std::nanf(""));
      // Causal: row 0 of this call is query row r0, whose last visible key is r0 + T - S.
      isa.fn(q.data(), r0 * ldq + h * c.D, ldq, k.data(), hk * c.D, ldk, v.data(), hk * c.Dv, ldv,
             kernelMask.data(), r0 * maskLs, maskLs, maskLt, out.data(), r0 * ldo + h * c.Dv, ldo,
             rows, c.T, c.D, c.Dv, scale, flags, r0 + c.T - c.S, scratch.data());
    }
    double worst = 0;
    for (int64_t i = 0; i < c.S; ++i) {
      std::vector<double> s(c.T);
      double mx = -INFINITY;
      for (int64_t j = 0; j < c.T; ++j) {
        double dot = 0;
        for (int64_t e = 0; e < c.D; ++e)
          dot += double(q[i * ldq + h * c.D + e]) * k[j * ldk + hk * c.D + e];
        s[j] = dot * scale + (c.mask == Mask::none ? 0.0 : mask[i * maskLs + j * maskLt]);
        mx = std::max(mx, s[j]);
      }
      double sum = 0;
      for (double &x : s)
        sum += (x = std::exp(x - mx));
      for (int64_t e = 0; e < c.Dv; ++e) {
        double ref = 0;
        for (int64_t j = 0; j < c.T; ++j)
          ref += s[j] / sum * v[j * ldv + hk * c.Dv + e];
        worst = std::max(worst, std::abs(out[i * ldo + h * c.Dv + e] - ref));
      }
      // Other heads' columns are untouched.
      for (int64_t e = 0; e < ldo; ++e)
        if (e < h * c.Dv || e >= (h + 1) * c.Dv)
          ASSERT_EQ(out[i * ldo + e], -7.0f) << isa.name << " wrote outside head " << h;
    }
    EXPECT_LT(worst, 2e-5) << isa.name << " S=" << c.S << " T=" << c.T << " D=" << c.D
                           << " Dv=" << c.Dv << " head " << h << " of " << c.heads << " ("
                           << kvHeads << " key/value heads) mask " << int(c.mask);
  }
}

TEST(UKernelAttention, MatchesNaiveSoftmaxAttention) {
  const Case cases[] = {
      {1, 1, 32, 32, 1, Mask::none},       {7, 7, 64, 64, 2, Mask::perKey},
      {128, 128, 64, 64, 2, Mask::perKey}, {129, 129, 80, 80, 1, Mask::perQueryKey},
      {13, 384, 128, 128, 1, Mask::none},  {5, 300, 32, 20, 3, Mask::perQueryKey},
      {384, 17, 64, 72, 1, Mask::perKey},  {2, 257, 16, 7, 1, Mask::none},
      {200, 200, 64, 64, 1, Mask::causal}, {7, 300, 32, 32, 1, Mask::causal},
      {9, 300, 64, 64, 2, Mask::hideFirstTile},
      // Grouped-query (2 query heads per key/value head) and multi-query (one key/value head).
      {128, 128, 64, 64, 4, Mask::causal, 2},  {7, 300, 32, 32, 4, Mask::perKey, 1},
      {129, 129, 128, 128, 6, Mask::perQueryKey, 3},
      // The causal flag: key tiles past a block's diagonal skipped (S = T = 300: three tiles),
      // fewer queries than keys (the diagonal offset T - S), grouped-query, a padding mask too.
      {300, 300, 64, 64, 1, Mask::causalFlag},  {7, 300, 32, 32, 1, Mask::causalFlag},
      {200, 200, 64, 64, 4, Mask::causalFlag, 2}, {150, 150, 32, 24, 2, Mask::causalFlagPerKey},
      // Calls of 20-32 rows: the queries-in-lanes layout with a partial query block, the first
      // key tiles hidden, a diagonal offset, value widths that are no whole register tile, and
      // values so wide (Dv 300 for D 16) that AVX-512's block of O^T outgrows the scratch and the
      // call takes its rows in place.
      {48, 300, 64, 64, 1, Mask::hideFirstTile}, {40, 300, 32, 20, 2, Mask::causalFlag},
      {64, 64, 16, 300, 1, Mask::perQueryKey},   {41, 41, 64, 64, 1, Mask::causal},
      // Calls of fewer rows than half a query block take them in place: more than one tile of 512
      // keys, query and value rows that are no whole vector (D 40, Dv 24), a decoder's next
      // token, 12 rows (AVX-512's query block is 32).
      {3, 1100, 64, 64, 2, Mask::causalFlagPerKey}, {5, 700, 40, 24, 1, Mask::perQueryKey},
      {1, 1025, 64, 64, 2, Mask::causalFlag},       {24, 300, 64, 64, 1, Mask::causalFlag},
  };
  int ran = 0;
  for (const AttentionIsa &isa : attentionIsas()) {
    if (!mie_uk_test::supported(isa.name))
      continue;
    ++ran;
    for (const Case &c : cases)
      checkCase(isa, c);
  }
  EXPECT_GT(ran, 0) << "no attention kernel runs on this CPU";
}

} // namespace
