//===- ArenaPlanner.h - lifetime-based arena packing ------------*- C++ -*-===//
//
// The memory planning algorithm on its own, free of IR so that it can be unit tested: buffers with
// sizes, alignments and live intervals in, byte offsets into one arena out.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TRANSFORMS_ARENAPLANNER_H
#define MIE_TRANSFORMS_ARENAPLANNER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::mie {

struct BufferRequest {
  int64_t size = 0;      // bytes
  int64_t alignment = 1; // power of two
  int64_t firstUse = 0;  // index of the first op that touches the buffer
  int64_t lastUse = 0;   // index of the last op that touches it (inclusive)
};

struct ArenaPlan {
  std::vector<int64_t> offsets; // one per request, in request order
  int64_t totalBytes = 0;
  std::string heuristic;        // how the plan was found (planArena)
  bool optimal = false;         // proven smallest: equal to the lower bound, or searched exhaustively
};

/// How a gap is chosen for each buffer in turn.
enum class Fit {
  Best,  // the smallest gap that holds it
  First, // the lowest gap that holds it
};

/// What any packing of `requests` must reserve: the largest sum of the sizes of buffers live at one op
/// (`lowerBound`, first reached at op `peakOp`), and what no reuse at all would (`naive`, the sum of
/// all sizes).
struct ArenaBounds {
  int64_t lowerBound = 0, naive = 0, peakOp = -1;
};
ArenaBounds arenaBounds(const std::vector<BufferRequest> &requests);

/// Greedy placement in one given order (indices into `requests`; each exactly once): each buffer goes
/// into a gap, among the placed buffers whose lifetimes overlap its own, that fits it at its
/// alignment (the smallest such gap or the lowest, by `fit`), else after the last of them.
ArenaPlan planArenaInOrder(const std::vector<BufferRequest> &requests,
                           const std::vector<std::size_t> &order, Fit fit = Fit::Best);

/// Packs `requests` into the smallest arena found, in three stages that stop as soon as the arena
/// equals the lower bound (then it is optimal):
///  1. as XLA's heap simulator does, greedy placement in several orders (largest first, the heuristic
///     of TFLite's and XLA's planners; largest size x lifetime first; longest lifetime first; schedule
///     order), each with best fit and with first fit, the smallest kept (the earlier on a tie);
///  2. a local search over the placement order from the best of those: one buffer at a time moves to
///     an earlier place in the order, and the move is kept when the arena does not grow. The moves
///     come from a fixed-seed generator and their number is bounded by the size of the problem, so
///     the result is deterministic and the search takes well under a second;
///  3. on small problems (kExactSearchMaxBuffers), an exhaustive branch and bound over the offsets
///     (ArenaPlan::optimal when it completes).
/// Buffers whose lifetimes overlap never share a byte.
ArenaPlan planArena(const std::vector<BufferRequest> &requests);

/// A plan for buffers whose sizes depend on a run's symbolic dims (docs/dynamic-shapes.md): the
/// order of the buffers is fixed at compile time and each buffer sits on top of the earlier buffers
/// alive at the same time, so that its offset follows from the run's sizes alone:
///   offset(i) = alignTo(max over j in below[i] of offset(j) + size(j), alignment(i))  (0 if none).
/// That holds for any sizes (no two buffers alive at once share a byte, whatever the shape), and at
/// the shape a static plan was made for it is never larger than that plan.
struct StackedArenaPlan {
  /// The placement order (indices into the requests); offsets are evaluated in it.
  std::vector<std::size_t> order;
  /// Per request: the buffers it sits directly on, earlier in `order` and alive with it. Buffers a
  /// listed one already sits on (directly or not) are left out: they end no higher.
  std::vector<std::vector<std::size_t>> below;
  /// The largest arena / lower bound over the samples the plan was chosen on.
  double worstRatio = 0;

  /// Offsets and total for one shape: `requests` are the buffers at that shape (the lifetimes and
  /// alignments of the planned ones, their sizes for the shape).
  ArenaPlan evaluate(const std::vector<BufferRequest> &requests) const;
};

/// Chooses a StackedArenaPlan for `samples`: the requests at several shapes of the symbols' range
/// (its corners and interior; the same buffers, lifetimes and alignments, sizes per shape). The
/// candidate orders are the offset order of planArena's plan at each sample; the one whose worst
/// arena-to-lower-bound ratio over the samples is smallest wins (the smaller total on a tie).
StackedArenaPlan planStackedArena(const std::vector<std::vector<BufferRequest>> &samples);

/// Problems up to this many buffers get the exhaustive search of planArena's stage 3.
constexpr std::size_t kExactSearchMaxBuffers = 12;

} // namespace mlir::mie

#endif // MIE_TRANSFORMS_ARENAPLANNER_H
