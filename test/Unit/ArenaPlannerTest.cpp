//===- ArenaPlannerTest.cpp - unit tests of the arena packing algorithm ---===//
//
// planArena on its own: offsets and total size for hand-made lifetimes whose best packing is known,
// and the safety properties (no byte shared by buffers alive at the same time, every offset aligned,
// total = max(offset + size)) on seeded random request sets.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/Transforms/ArenaPlanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <string>

using mlir::mie::ArenaBounds;
using mlir::mie::arenaBounds;
using mlir::mie::ArenaPlan;
using mlir::mie::BufferRequest;
using mlir::mie::planArena;
using mlir::mie::planArenaInOrder;
using mlir::mie::planStackedArena;
using mlir::mie::StackedArenaPlan;

namespace {

BufferRequest request(int64_t size, int64_t firstUse, int64_t lastUse, int64_t alignment = 1) {
  BufferRequest r;
  r.size = size;
  r.alignment = alignment;
  r.firstUse = firstUse;
  r.lastUse = lastUse;
  return r;
}

bool livesOverlap(const BufferRequest &a, const BufferRequest &b) {
  return !(a.lastUse < b.firstUse || b.lastUse < a.firstUse);
}

/// Checks every guarantee of planArena on `plan` for `requests`; `what` names the input in failures.
void expectValidPlan(const std::vector<BufferRequest> &requests, const ArenaPlan &plan,
                     const std::string &what) {
  ASSERT_EQ(plan.offsets.size(), requests.size()) << what;
  int64_t end = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const BufferRequest &r = requests[i];
    EXPECT_GE(plan.offsets[i], 0) << what << ": buffer " << i;
    EXPECT_EQ(plan.offsets[i] % r.alignment, 0)
        << what << ": buffer " << i << " at " << plan.offsets[i] << " with alignment "
        << r.alignment;
    end = std::max(end, plan.offsets[i] + r.size);
  }
  EXPECT_EQ(plan.totalBytes, end) << what;
  for (size_t i = 0; i < requests.size(); ++i) {
    for (size_t j = i + 1; j < requests.size(); ++j) {
      if (!livesOverlap(requests[i], requests[j]))
        continue;
      int64_t iBegin = plan.offsets[i], iEnd = iBegin + requests[i].size;
      int64_t jBegin = plan.offsets[j], jEnd = jBegin + requests[j].size;
      EXPECT_TRUE(iEnd <= jBegin || jEnd <= iBegin)
          << what << ": buffers " << i << " [" << iBegin << ", " << iEnd << ") and " << j << " ["
          << jBegin << ", " << jEnd << ") are alive together and share bytes";
    }
  }
}

std::vector<BufferRequest> randomRequests(unsigned seed, size_t count) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> size(1, 4096), first(0, 99), length(0, 19), alignLog(0, 8);
  std::vector<BufferRequest> requests;
  for (size_t i = 0; i < count; ++i) {
    int64_t f = first(rng);
    requests.push_back(request(size(rng), f, f + length(rng), int64_t(1) << alignLog(rng)));
  }
  return requests;
}

/// The most bytes live at one op, by brute force over the ops randomRequests can use (0..118).
int64_t mostBytesLive(const std::vector<BufferRequest> &requests) {
  int64_t most = 0;
  for (int64_t op = 0; op < 120; ++op) {
    int64_t live = 0;
    for (const BufferRequest &r : requests)
      if (r.firstUse <= op && op <= r.lastUse)
        live += r.size;
    most = std::max(most, live);
  }
  return most;
}

TEST(ArenaPlannerTest, EmptyInput) {
  ArenaPlan plan = planArena({});
  EXPECT_TRUE(plan.offsets.empty());
  EXPECT_EQ(plan.totalBytes, 0);
}

TEST(ArenaPlannerTest, OneBuffer) {
  ArenaPlan plan = planArena({request(1000, 3, 7, 64)});
  ASSERT_EQ(plan.offsets.size(), 1u);
  EXPECT_EQ(plan.offsets[0], 0);
  EXPECT_EQ(plan.totalBytes, 1000);
}

TEST(ArenaPlannerTest, DisjointLifetimesShareOffset) {
  // A chain a -> b -> c -> d where each buffer dies before the one after next is born: a and c, b and
  // d can share bytes, so two slots suffice.
  std::vector<BufferRequest> requests = {request(256, 0, 1), request(256, 1, 2),
                                         request(256, 2, 3), request(256, 3, 4)};
  ArenaPlan plan = planArena(requests);
  expectValidPlan(requests, plan, "chain");
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);
  EXPECT_EQ(plan.offsets[1], plan.offsets[3]);
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  EXPECT_EQ(plan.totalBytes, 512);
}

TEST(ArenaPlannerTest, FullyDisjointLifetimesReuseOffsetZero) {
  std::vector<BufferRequest> requests = {request(100, 0, 0), request(300, 1, 1),
                                         request(200, 2, 5)};
  ArenaPlan plan = planArena(requests);
  EXPECT_EQ(plan.offsets, (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(plan.totalBytes, 300);
}

TEST(ArenaPlannerTest, TouchingLifetimesOverlap) {
  // The last use of one buffer and the first of the other are the same op (it reads one and writes
  // the other), so they must not share bytes.
  std::vector<BufferRequest> requests = {request(128, 0, 4), request(128, 4, 6)};
  ArenaPlan plan = planArena(requests);
  expectValidPlan(requests, plan, "touching");
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  EXPECT_EQ(plan.totalBytes, 256);
}

TEST(ArenaPlannerTest, OverlappingLifetimesNeverShareBytes) {
  std::vector<BufferRequest> requests = {request(10, 0, 5), request(20, 2, 3), request(30, 3, 8),
                                         request(40, 5, 5)};
  ArenaPlan plan = planArena(requests);
  expectValidPlan(requests, plan, "small");
  // Alive together at 5: 10 + 30 + 40 bytes, and nothing is alive elsewhere that forces more.
  EXPECT_EQ(plan.totalBytes, 80);
}

TEST(ArenaPlannerTest, RandomRequestsNeverShareBytesAndAreAligned) {
  for (unsigned seed : {1u, 42u, 2024u}) {
    std::vector<BufferRequest> requests = randomRequests(seed, 200);
    ArenaPlan plan = planArena(requests);
    expectValidPlan(requests, plan, "seed " + std::to_string(seed));
    // The arena is at least as large as the bytes alive at any one time.
    EXPECT_GE(plan.totalBytes, mostBytesLive(requests)) << "seed " << seed;
  }
}

TEST(ArenaPlannerTest, AlignmentRespected) {
  // Largest first puts the 64-byte aligned buffer at 128, after the 100 bytes (138 in all); below
  // the lower bound's 110 only with the aligned one at 0, which the exhaustive search finds.
  std::vector<BufferRequest> requests = {request(100, 0, 5, 1), request(10, 0, 5, 64)};
  std::vector<size_t> largestFirst = {0, 1};
  ArenaPlan greedy = planArenaInOrder(requests, largestFirst);
  EXPECT_EQ(greedy.offsets[1], 128);
  EXPECT_EQ(greedy.totalBytes, 138);
  ArenaPlan plan = planArena(requests);
  EXPECT_EQ(plan.offsets[1], 0);
  EXPECT_EQ(plan.offsets[0], 10);
  EXPECT_EQ(plan.totalBytes, 110);
  EXPECT_TRUE(plan.optimal);
}

TEST(ArenaPlannerTest, AlignmentRespectedInsideGap) {
  // At time 1 the bytes [0, 40) and [100, 164) are taken; a 16-byte buffer aligned to 32 fits the
  // gap [40, 100) only from 64.
  std::vector<BufferRequest> requests = {
      request(100, 2, 2),     // x: placed first, at 0
      request(64, 1, 2),      // y: alive with x, after it at 100
      request(40, 1, 1),      // z: alive with y only, at 0
      request(16, 1, 1, 32)}; // w: between z and y, aligned up from 40 to 64
  ArenaPlan plan = planArena(requests);
  expectValidPlan(requests, plan, "aligned gap");
  EXPECT_EQ(plan.offsets, (std::vector<int64_t>{0, 100, 0, 64}));
  EXPECT_EQ(plan.totalBytes, 164);
}

TEST(ArenaPlannerTest, BestFitPicksSmallestGap) {
  // Placed largest first: d [0, 72) at time 3, a [0, 50) at times 0-1, s after d at [72, 92),
  // q after a at [50, 60). At time 2 only q and s are alive, leaving the gaps [0, 50) and [60, 72);
  // n (8 bytes) goes into the smaller one, not the first one.
  std::vector<BufferRequest> requests = {
      request(72, 3, 3), // d
      request(50, 0, 1), // a
      request(20, 2, 3), // s
      request(10, 1, 2), // q
      request(8, 2, 2),  // n
  };
  ArenaPlan plan = planArena(requests);
  expectValidPlan(requests, plan, "best fit");
  EXPECT_EQ(plan.offsets, (std::vector<int64_t>{0, 0, 72, 50, 60}));
  EXPECT_EQ(plan.totalBytes, 92);
}

TEST(ArenaPlannerTest, LargestFirst) {
  // Requested small first, placed large first: the large buffer gets offset 0.
  std::vector<BufferRequest> requests = {request(16, 0, 2), request(4096, 0, 2)};
  ArenaPlan plan = planArena(requests);
  EXPECT_EQ(plan.offsets[1], 0);
  EXPECT_EQ(plan.offsets[0], 4096);
  EXPECT_EQ(plan.totalBytes, 4112);
}

TEST(ArenaPlannerTest, TotalIsMaxEnd) {
  std::vector<BufferRequest> requests = {request(10, 0, 1), request(7, 1, 2, 8), request(3, 2, 3)};
  ArenaPlan plan = planArena(requests);
  int64_t end = 0;
  for (size_t i = 0; i < requests.size(); ++i)
    end = std::max(end, plan.offsets[i] + requests[i].size);
  EXPECT_EQ(plan.totalBytes, end);
  // The 8-aligned buffer at 0, the others on top of it: the lower bound.
  EXPECT_EQ(plan.totalBytes, 17);
}

TEST(ArenaPlannerTest, Deterministic) {
  std::vector<BufferRequest> requests = randomRequests(7, 200);
  // Equal sizes too, where only the tie-breaking decides.
  for (int i = 0; i < 20; ++i)
    requests.push_back(request(512, i % 5, i % 5 + 2));
  ArenaPlan first = planArena(requests);
  for (int run = 0; run < 3; ++run) {
    ArenaPlan again = planArena(requests);
    EXPECT_EQ(again.offsets, first.offsets);
    EXPECT_EQ(again.totalBytes, first.totalBytes);
  }
}

TEST(ArenaPlannerTest, BoundsOfAChain) {
  // a (0-1), b (1-2), c (2-3): at op 1 a and b are live (300 bytes), at op 2 b and c (350).
  std::vector<BufferRequest> requests = {request(100, 0, 1), request(200, 1, 2), request(150, 2, 3)};
  ArenaBounds bounds = arenaBounds(requests);
  EXPECT_EQ(bounds.lowerBound, 350);
  EXPECT_EQ(bounds.peakOp, 2);
  EXPECT_EQ(bounds.naive, 450);
  EXPECT_EQ(arenaBounds({}).lowerBound, 0);
  EXPECT_EQ(arenaBounds({}).naive, 0);
}

TEST(ArenaPlannerTest, RandomPlansLieBetweenTheBounds) {
  // Property: the lower bound is the largest sum over any op of the buffers live there (checked by
  // brute force), no plan is below it, and none above the bytes without reuse plus alignment.
  for (unsigned seed = 1; seed <= 50; ++seed) {
    std::vector<BufferRequest> requests = randomRequests(seed, 5 + seed * 3);
    ArenaBounds bounds = arenaBounds(requests);
    int64_t naive = 0, maxAlign = 1;
    for (const BufferRequest &r : requests) {
      naive += r.size;
      maxAlign = std::max(maxAlign, r.alignment);
    }
    EXPECT_EQ(bounds.lowerBound, mostBytesLive(requests)) << "seed " << seed;
    EXPECT_EQ(bounds.naive, naive) << "seed " << seed;
    ArenaPlan plan = planArena(requests);
    expectValidPlan(requests, plan, "random");
    EXPECT_GE(plan.totalBytes, bounds.lowerBound) << "seed " << seed;
    EXPECT_LE(plan.totalBytes, naive + int64_t(requests.size()) * maxAlign) << "seed " << seed;
  }
}

TEST(ArenaPlannerTest, KeepsTheSmallestOfSeveralOrders) {
  // Never larger than largest-first alone, and on some inputs smaller: the orders matter.
  int smaller = 0;
  for (unsigned seed = 100; seed < 200; ++seed) {
    std::vector<BufferRequest> requests = randomRequests(seed, 40);
    std::vector<size_t> bySize(requests.size());
    std::iota(bySize.begin(), bySize.end(), 0);
    std::sort(bySize.begin(), bySize.end(), [&](size_t a, size_t b) {
      if (requests[a].size != requests[b].size)
        return requests[a].size > requests[b].size;
      return requests[a].firstUse != requests[b].firstUse ? requests[a].firstUse < requests[b].firstUse
                                                           : a < b;
    });
    ArenaPlan largestFirst = planArenaInOrder(requests, bySize), best = planArena(requests);
    expectValidPlan(requests, best, "best");
    EXPECT_LE(best.totalBytes, largestFirst.totalBytes) << "seed " << seed;
    smaller += best.totalBytes < largestFirst.totalBytes;
  }
  EXPECT_GT(smaller, 0);
}

} // namespace

namespace {

/// The smallest arena for `requests` by trying every offset of every buffer in [0, limit).
int64_t bruteForceSmallest(const std::vector<BufferRequest> &requests, int64_t limit) {
  std::vector<int64_t> offsets(requests.size(), 0);
  int64_t best = INT64_MAX;
  std::function<void(size_t, int64_t)> place = [&](size_t index, int64_t height) {
    if (height >= best)
      return;
    if (index == requests.size()) {
      best = height;
      return;
    }
    const BufferRequest &r = requests[index];
    for (int64_t offset = 0; offset + r.size <= limit; offset += r.alignment) {
      bool free = true;
      for (size_t j = 0; j < index && free; ++j)
        free = !livesOverlap(r, requests[j]) || offset + r.size <= offsets[j] ||
               offsets[j] + requests[j].size <= offset;
      if (!free)
        continue;
      offsets[index] = offset;
      place(index + 1, std::max(height, offset + r.size));
    }
  };
  place(0, 0);
  return best;
}

TEST(ArenaPlannerTest, SmallProblemsArePackedOptimally) {
  // Property: on problems small enough for the exhaustive search, the arena is the smallest
  // possible (brute force over every offset), and the plan says so.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int64_t> size(1, 9), first(0, 5), length(0, 4), alignLog(0, 2);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<BufferRequest> requests;
    for (int i = 0; i < 5; ++i) {
      int64_t f = first(rng);
      requests.push_back(request(size(rng), f, f + length(rng), int64_t(1) << alignLog(rng)));
    }
    ArenaPlan plan = planArena(requests);
    expectValidPlan(requests, plan, "small");
    EXPECT_TRUE(plan.optimal) << "trial " << trial;
    EXPECT_EQ(plan.totalBytes, bruteForceSmallest(requests, 64)) << "trial " << trial;
  }
}

TEST(ArenaPlannerTest, NeverWorseThanAnyGreedyOrder) {
  // Beyond the exhaustive search's size the local search starts from the best greedy order, so
  // the plan is never larger than any of them, best or first fit; and it reaches the lower bound
  // on some inputs where no greedy order does.
  int closed = 0;
  for (unsigned seed = 300; seed < 340; ++seed) {
    std::vector<BufferRequest> requests = randomRequests(seed, 30);
    for (BufferRequest &r : requests)
      r.alignment = 1;
    ArenaPlan plan = planArena(requests);
    expectValidPlan(requests, plan, "local search");
    std::vector<size_t> order(requests.size());
    std::iota(order.begin(), order.end(), 0);
    int64_t greedyBest = INT64_MAX;
    for (int key = 0; key < 2; ++key) {
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        int64_t ka = key ? requests[a].size : requests[a].lastUse - requests[a].firstUse;
        int64_t kb = key ? requests[b].size : requests[b].lastUse - requests[b].firstUse;
        return ka != kb ? ka > kb : a < b;
      });
      for (mlir::mie::Fit fit : {mlir::mie::Fit::Best, mlir::mie::Fit::First}) {
        int64_t greedy = planArenaInOrder(requests, order, fit).totalBytes;
        EXPECT_LE(plan.totalBytes, greedy) << "seed " << seed;
        greedyBest = std::min(greedyBest, greedy);
      }
    }
    int64_t lowerBound = arenaBounds(requests).lowerBound;
    closed += plan.totalBytes == lowerBound && greedyBest > lowerBound;
    EXPECT_EQ(plan.optimal, plan.totalBytes == lowerBound) << "seed " << seed;
  }
  EXPECT_GT(closed, 0);
}

/// Buffers whose sizes depend on symbols: size(s) = a * s0 * s1 + b * s0 + c at a shape s.
struct SymbolicRequest {
  int64_t perBoth = 0, perFirst = 0, fixed = 0;
  int64_t alignment = 1, firstUse = 0, lastUse = 0;
};

std::vector<BufferRequest> atShape(const std::vector<SymbolicRequest> &symbolic, int64_t s0,
                                   int64_t s1) {
  std::vector<BufferRequest> out;
  for (const SymbolicRequest &r : symbolic)
    out.push_back(request(r.perBoth * s0 * s1 + r.perFirst * s0 + r.fixed, r.firstUse, r.lastUse,
                          r.alignment));
  return out;
}

std::vector<std::vector<BufferRequest>>
cornersAndInterior(const std::vector<SymbolicRequest> &symbolic, int64_t max0, int64_t max1) {
  return {atShape(symbolic, 1, 1), atShape(symbolic, 1, max1), atShape(symbolic, max0, 1),
          atShape(symbolic, max0, max1), atShape(symbolic, (max0 + 1) / 2, (max1 + 1) / 2)};
}

TEST(ArenaPlannerTest, StackedPlanHoldsForEveryShape) {
  // Chosen on a few shapes, the stacked plan must be valid at every shape of the range: no byte
  // shared by buffers alive together, aligned offsets, total = the highest end.
  for (unsigned seed = 400; seed < 430; ++seed) {
    std::mt19937 rng(seed);
    std::vector<SymbolicRequest> symbolic;
    for (const BufferRequest &r : randomRequests(seed, 20)) {
      SymbolicRequest s;
      s.perBoth = int64_t(rng() % 3) * 64;
      s.perFirst = int64_t(rng() % 2) * 32;
      s.fixed = int64_t(rng() % 5) * 16;
      s.alignment = r.alignment;
      s.firstUse = r.firstUse;
      s.lastUse = r.lastUse;
      symbolic.push_back(s);
    }
    StackedArenaPlan plan = planStackedArena(cornersAndInterior(symbolic, 8, 384));
    ASSERT_EQ(plan.order.size(), symbolic.size());
    for (int trial = 0; trial < 20; ++trial) {
      int64_t s0 = 1 + int64_t(rng() % 8), s1 = 1 + int64_t(rng() % 384);
      std::vector<BufferRequest> requests = atShape(symbolic, s0, s1);
      expectValidPlan(requests, plan.evaluate(requests),
                      "seed " + std::to_string(seed) + " at " + std::to_string(s0) + "x" +
                          std::to_string(s1));
    }
  }
}

TEST(ArenaPlannerTest, StackedPlanIsNoLargerThanTheStaticPlanOfItsShape) {
  // With one sample the stacking keeps the static plan's order: every buffer sits on the buffers
  // below it there, so it ends no higher than the static plan put it.
  for (unsigned seed = 500; seed < 530; ++seed) {
    std::vector<BufferRequest> requests = randomRequests(seed, 25);
    int64_t planned = planArena(requests).totalBytes;
    StackedArenaPlan stacked = planStackedArena({requests});
    EXPECT_LE(stacked.evaluate(requests).totalBytes, planned) << "seed " << seed;
  }
}

TEST(ArenaPlannerTest, StackedPlanOfAnEncoderStaysNearTheLowerBound) {
  // Two transformer encoder layers over batch (s0) and sequence length (s1), hidden 768, 12 heads,
  // with the attention scores materialized (12 * s1 * s1 per batch row: quadratic in s1, unlike
  // every other buffer): the order chosen on the range's corners must stay within 10% of each
  // shape's lower bound across the whole range.
  std::vector<SymbolicRequest> symbolic;
  // perRow bytes per (batch row, position), live over ops [first, last].
  auto add = [&](int64_t perRow, int64_t first, int64_t last) {
    SymbolicRequest r;
    r.perBoth = perRow;
    r.alignment = 64;
    r.firstUse = first;
    r.lastUse = last;
    symbolic.push_back(r);
  };
  for (int64_t op = 0; op < 18; op += 9) {
    add(768 * 4, op, op + 2);      // q
    add(768 * 4, op + 1, op + 3);  // k
    add(768 * 4, op + 2, op + 3);  // v
    add(768 * 4, op + 3, op + 4);  // context
    add(768 * 4, op + 4, op + 6);  // projection + residual
    add(768 * 4, op + 5, op + 8);  // layer norm
    add(3072 * 4, op + 6, op + 7); // feed-forward 1
    add(768 * 4, op + 7, op + 8);  // feed-forward 2 + residual
  }
  // The scores of each layer (sized below), alive across the attention.
  add(0, 3, 3);
  add(0, 12, 12);
  auto shape = [&](int64_t b, int64_t s) {
    std::vector<BufferRequest> requests = atShape(symbolic, b, s);
    for (size_t i = requests.size() - 2; i < requests.size(); ++i)
      requests[i].size = 12 * s * s * 4 * b;
    return requests;
  };
  StackedArenaPlan plan =
      planStackedArena({shape(1, 1), shape(1, 384), shape(8, 1), shape(8, 384), shape(3, 64)});
  double worst = 0;
  for (int64_t b : {1, 3, 8})
    for (int64_t s : {1, 7, 64, 128, 384}) {
      std::vector<BufferRequest> requests = shape(b, s);
      ArenaPlan evaluated = plan.evaluate(requests);
      expectValidPlan(requests, evaluated, "encoder");
      worst =
          std::max(worst, double(evaluated.totalBytes) / double(arenaBounds(requests).lowerBound));
    }
  RecordProperty("worst_ratio", std::to_string(worst));
  EXPECT_LE(worst, 1.10);
}

} // namespace
