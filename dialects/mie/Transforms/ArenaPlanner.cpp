//===- ArenaPlanner.cpp - lifetime-based arena packing --------------------===//

#include "dialects/mie/Transforms/ArenaPlanner.h"

#include <algorithm>
#include <functional>
#include <numeric>

using namespace mlir::mie;

static int64_t alignTo(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

ArenaBounds mlir::mie::arenaBounds(const std::vector<BufferRequest> &requests) {
  ArenaBounds bounds;
  // Sweep the ops in order: a buffer counts from its first use through its last (inclusive).
  std::vector<std::pair<int64_t, int64_t>> events; // (op, +size at first use / -size after last)
  for (const BufferRequest &req : requests) {
    bounds.naive += req.size;
    events.push_back({req.firstUse, req.size});
    events.push_back({req.lastUse + 1, -req.size});
  }
  std::sort(events.begin(), events.end());
  int64_t live = 0;
  for (size_t i = 0; i < events.size();) {
    const int64_t op = events[i].first;
    for (; i < events.size() && events[i].first == op; ++i)
      live += events[i].second;
    if (live > bounds.lowerBound) {
      bounds.lowerBound = live;
      bounds.peakOp = op;
    }
  }
  return bounds;
}

static bool livesOverlap(const BufferRequest &a, const BufferRequest &b) {
  return !(a.lastUse < b.firstUse || b.lastUse < a.firstUse);
}

ArenaPlan mlir::mie::planArenaInOrder(const std::vector<BufferRequest> &requests,
                                      const std::vector<size_t> &order, Fit fit) {
  ArenaPlan plan;
  plan.offsets.assign(requests.size(), 0);
  struct Placed {
    int64_t begin, end; // [begin, end) bytes
  };
  std::vector<size_t> placed;
  std::vector<Placed> busy;
  for (size_t index : order) {
    const BufferRequest &req = requests[index];
    // Intervals already taken by buffers alive at the same time, sorted by offset.
    busy.clear();
    for (size_t other : placed)
      if (livesOverlap(requests[other], req))
        busy.push_back({plan.offsets[other], plan.offsets[other] + requests[other].size});
    std::sort(busy.begin(), busy.end(),
              [](const Placed &a, const Placed &b) { return a.begin < b.begin; });

    int64_t bestOffset = -1, bestGap = INT64_MAX, cursor = 0;
    for (const Placed &p : busy) {
      int64_t start = alignTo(cursor, req.alignment);
      if (start + req.size <= p.begin && p.begin - start < bestGap) {
        bestGap = p.begin - start;
        bestOffset = start;
        if (fit == Fit::First)
          break;
      }
      cursor = std::max(cursor, p.end);
    }
    if (bestOffset < 0)
      bestOffset = alignTo(cursor, req.alignment);
    plan.offsets[index] = bestOffset;
    plan.totalBytes = std::max(plan.totalBytes, bestOffset + req.size);
    placed.push_back(index);
  }
  return plan;
}

namespace {

/// SplitMix64: a tiny generator whose sequence is the same on every platform and standard library
/// (std::uniform_int_distribution's is not), so plans are reproducible everywhere.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return size_t(next() % n); }
};

/// Placements tried by the local search: enough to close resnet50's fragmentation (a few hundred
/// moves) several times over, bounded so that one search costs about 5e7 buffer pair checks (a
/// quarter of a second) at most.
constexpr size_t kLocalSearchMaxMoves = 2000;
constexpr double kLocalSearchPairChecks = 5e7;
/// Nodes of the exhaustive search before it gives up (a quarter of a second at most).
constexpr int64_t kExactSearchMaxNodes = 400000;

/// Branch and bound over offsets. Any packing can be pushed down until each buffer rests at 0 or on
/// the (aligned) end of a buffer below it that is alive at the same time; placing buffers in the
/// order of their offsets, each offset is then one of those candidates, so trying every remaining
/// buffer at every feasible candidate not below the previous offset visits an optimal packing.
struct ExactSearch {
  const std::vector<BufferRequest> &requests;
  int64_t lowerBound;
  std::vector<int64_t> offsets, bestOffsets;
  std::vector<bool> isPlaced;
  std::vector<size_t> placed;
  int64_t best;
  int64_t nodes = 0;
  bool cutOff = false;

  bool fits(size_t index, int64_t offset) const {
    const BufferRequest &req = requests[index];
    for (size_t other : placed)
      if (livesOverlap(requests[other], req) && offset < offsets[other] + requests[other].size &&
          offsets[other] < offset + req.size)
        return false;
    return true;
  }

  void search(int64_t height, int64_t lastOffset, size_t lastIndex) {
    if (best == lowerBound || cutOff)
      return;
    if (++nodes > kExactSearchMaxNodes) {
      cutOff = true;
      return;
    }
    if (placed.size() == requests.size()) {
      if (height < best) {
        best = height;
        bestOffsets = offsets;
      }
      return;
    }
    // Every remaining buffer starts at or above lastOffset.
    for (size_t i = 0; i < requests.size(); ++i)
      if (!isPlaced[i] && std::max(height, lastOffset + requests[i].size) >= best)
        return;
    for (size_t i = 0; i < requests.size(); ++i) {
      if (isPlaced[i])
        continue;
      const BufferRequest &req = requests[i];
      std::vector<int64_t> candidates = {0};
      for (size_t other : placed)
        if (livesOverlap(requests[other], req))
          candidates.push_back(alignTo(offsets[other] + requests[other].size, req.alignment));
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
      for (int64_t offset : candidates) {
        // Buffers at the same offset go in index order: one of the equivalent sequences.
        if (offset < lastOffset || (offset == lastOffset && !placed.empty() && i < lastIndex))
          continue;
        if (std::max(height, offset + req.size) >= best || !fits(i, offset))
          continue;
        offsets[i] = offset;
        isPlaced[i] = true;
        placed.push_back(i);
        search(std::max(height, offset + req.size), offset, i);
        placed.pop_back();
        isPlaced[i] = false;
      }
    }
  }
};

} // namespace

ArenaPlan mlir::mie::planArena(const std::vector<BufferRequest> &requests) {
  const int64_t lowerBound = arenaBounds(requests).lowerBound;
  auto lifetime = [&](size_t i) { return requests[i].lastUse - requests[i].firstUse + 1; };
  // Each order sorts by its key, descending, then by first use and index: deterministic.
  struct Heuristic {
    const char *name;
    std::function<double(size_t)> key;
  };
  const Heuristic heuristics[] = {
      {"largest first", [&](size_t i) { return double(requests[i].size); }},
      {"largest size x lifetime first",
       [&](size_t i) { return double(requests[i].size) * double(lifetime(i)); }},
      {"longest lifetime first", [&](size_t i) { return double(lifetime(i)); }},
      {"schedule order", [&](size_t i) { return -double(requests[i].firstUse); }},
  };
  ArenaPlan best;
  std::vector<size_t> bestOrder;
  Fit bestFit = Fit::Best;
  bool first = true;
  for (const Heuristic &h : heuristics) {
    std::vector<size_t> order(requests.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      double ka = h.key(a), kb = h.key(b);
      if (ka != kb)
        return ka > kb;
      if (requests[a].firstUse != requests[b].firstUse)
        return requests[a].firstUse < requests[b].firstUse;
      return a < b;
    });
    for (Fit fit : {Fit::Best, Fit::First}) {
      ArenaPlan plan = planArenaInOrder(requests, order, fit);
      if (first || plan.totalBytes < best.totalBytes) {
        best = std::move(plan);
        best.heuristic = std::string(fit == Fit::Best ? "best fit, " : "first fit, ") + h.name;
        bestOrder = order;
        bestFit = fit;
      }
      first = false;
    }
  }
  if (requests.empty() || best.totalBytes == lowerBound) {
    best.optimal = true;
    return best;
  }

  // Stage 2: local search over the order.
  const double n = double(requests.size());
  const size_t maxMoves =
      std::min<size_t>(kLocalSearchMaxMoves, size_t(kLocalSearchPairChecks / (n * n)) + 1);
  SplitMix64 rng{0x6d69652d61726e61ull};
  size_t kept = 0;
  for (size_t move = 0; move < maxMoves && best.totalBytes > lowerBound && requests.size() > 1;
       ++move) {
    size_t from = 1 + rng.below(requests.size() - 1), to = rng.below(from);
    std::vector<size_t> order = bestOrder;
    std::rotate(order.begin() + to, order.begin() + from, order.begin() + from + 1);
    ArenaPlan plan = planArenaInOrder(requests, order, bestFit);
    if (plan.totalBytes <= best.totalBytes) {
      kept += plan.totalBytes < best.totalBytes;
      plan.heuristic = std::move(best.heuristic);
      best = std::move(plan);
      bestOrder = std::move(order);
    }
  }
  if (kept)
    best.heuristic += ", then " + std::to_string(kept) + " improving moves of a local search";
  if (best.totalBytes == lowerBound) {
    best.optimal = true;
    return best;
  }

  // Stage 3: exhaustive search on small problems.
  if (requests.size() > kExactSearchMaxBuffers)
    return best;
  ExactSearch exact{requests, lowerBound, std::vector<int64_t>(requests.size(), 0), best.offsets,
                    std::vector<bool>(requests.size(), false), {}, best.totalBytes};
  exact.search(0, 0, 0);
  if (exact.best < best.totalBytes) {
    best.offsets = exact.bestOffsets;
    best.totalBytes = exact.best;
    best.heuristic = exact.cutOff ? "branch and bound (cut off)" : "branch and bound";
  }
  best.optimal = !exact.cutOff;
  return best;
}

ArenaPlan StackedArenaPlan::evaluate(const std::vector<BufferRequest> &requests) const {
  ArenaPlan plan;
  plan.offsets.assign(requests.size(), 0);
  plan.heuristic = "stacked";
  for (size_t index : order) {
    int64_t top = 0;
    for (size_t other : below[index])
      top = std::max(top, plan.offsets[other] + requests[other].size);
    plan.offsets[index] = alignTo(top, requests[index].alignment);
    plan.totalBytes = std::max(plan.totalBytes, plan.offsets[index] + requests[index].size);
  }
  return plan;
}

/// The stacking of `requests` in `order`: every earlier buffer alive with a buffer is below it,
/// less those that a listed one already sits on.
static StackedArenaPlan stackInOrder(const std::vector<BufferRequest> &requests,
                                     const std::vector<size_t> &order) {
  StackedArenaPlan plan;
  plan.order = order;
  std::vector<std::vector<size_t>> earlier(requests.size()); // all earlier buffers alive with it
  for (size_t index : order) {
    for (size_t other : order) {
      if (other == index)
        break;
      if (livesOverlap(requests[other], requests[index]))
        earlier[index].push_back(other);
    }
  }
  plan.below.resize(requests.size());
  for (size_t index : order) {
    // `other` is redundant when some listed buffer has it among its own earlier ones: that buffer
    // sits above it, so it ends at least as high.
    std::vector<bool> covered(requests.size(), false);
    for (size_t j : earlier[index])
      for (size_t k : earlier[j])
        covered[k] = true;
    for (size_t j : earlier[index])
      if (!covered[j])
        plan.below[index].push_back(j);
  }
  return plan;
}

StackedArenaPlan
mlir::mie::planStackedArena(const std::vector<std::vector<BufferRequest>> &samples) {
  StackedArenaPlan best;
  if (samples.empty())
    return best;
  const size_t n = samples.front().size();
  std::vector<int64_t> bounds;
  for (const auto &requests : samples)
    bounds.push_back(arenaBounds(requests).lowerBound);
  int64_t bestTotal = 0;
  bool found = false;
  for (const auto &requests : samples) {
    // The offset order of the static plan at this sample (the lower buffer first; on equal offsets
    // the one that ends first, which the other then sits on).
    ArenaPlan planned = planArena(requests);
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (planned.offsets[a] != planned.offsets[b])
        return planned.offsets[a] < planned.offsets[b];
      return requests[a].size < requests[b].size;
    });
    StackedArenaPlan candidate = stackInOrder(requests, order);
    double worst = 0;
    int64_t total = 0;
    for (size_t k = 0; k < samples.size(); ++k) {
      int64_t bytes = candidate.evaluate(samples[k]).totalBytes;
      total += bytes;
      worst = std::max(worst, bounds[k] ? double(bytes) / double(bounds[k]) : 1.0);
    }
    candidate.worstRatio = worst;
    if (!found || worst < best.worstRatio || (worst == best.worstRatio && total < bestTotal)) {
      best = std::move(candidate);
      bestTotal = total;
      found = true;
    }
  }
  return best;
}
