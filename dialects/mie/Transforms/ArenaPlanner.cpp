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

ArenaPlan mlir::mie::planArenaInOrder(const std::vector<BufferRequest> &requests,
                                      const std::vector<size_t> &order) {
  ArenaPlan plan;
  plan.offsets.assign(requests.size(), 0);
  struct Placed {
    int64_t begin, end; // [begin, end) bytes
  };
  std::vector<size_t> placed;
  for (size_t index : order) {
    const BufferRequest &req = requests[index];
    // Intervals already taken by buffers alive at the same time, sorted by offset.
    std::vector<Placed> busy;
    for (size_t other : placed) {
      const BufferRequest &o = requests[other];
      if (o.lastUse < req.firstUse || req.lastUse < o.firstUse)
        continue;
      busy.push_back({plan.offsets[other], plan.offsets[other] + o.size});
    }
    std::sort(busy.begin(), busy.end(),
              [](const Placed &a, const Placed &b) { return a.begin < b.begin; });

    int64_t bestOffset = -1, bestGap = INT64_MAX, cursor = 0;
    for (const Placed &p : busy) {
      int64_t start = alignTo(cursor, req.alignment);
      if (start + req.size <= p.begin && p.begin - start < bestGap) {
        bestGap = p.begin - start;
        bestOffset = start;
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

ArenaPlan mlir::mie::planArena(const std::vector<BufferRequest> &requests) {
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
    ArenaPlan plan = planArenaInOrder(requests, order);
    plan.heuristic = h.name;
    if (first || plan.totalBytes < best.totalBytes)
      best = std::move(plan);
    first = false;
  }
  return best;
}
