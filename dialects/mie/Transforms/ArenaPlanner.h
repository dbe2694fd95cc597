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
  const char *heuristic = "";   // the placement order that won (planArena)
};

/// What any packing of `requests` must reserve: the largest sum of the sizes of buffers live at one op
/// (`lowerBound`, first reached at op `peakOp`), and what no reuse at all would (`naive`, the sum of
/// all sizes).
struct ArenaBounds {
  int64_t lowerBound = 0, naive = 0, peakOp = -1;
};
ArenaBounds arenaBounds(const std::vector<BufferRequest> &requests);

/// Best-fit placement in one given order (indices into `requests`; each exactly once).
ArenaPlan planArenaInOrder(const std::vector<BufferRequest> &requests,
                           const std::vector<std::size_t> &order);

/// Greedy best-fit packing: buffers are placed one at a time, each into the smallest gap, among the
/// placed buffers whose lifetimes overlap its own, that fits it at its alignment, else after the last
/// of them. As XLA's heap simulator does, several placement orders are tried (largest first, the
/// heuristic of TFLite's and XLA's planners; largest size x lifetime first; longest lifetime first;
/// schedule order) and the smallest arena kept, the earlier order on a tie. Buffers whose lifetimes
/// overlap never share a byte; the result is deterministic.
ArenaPlan planArena(const std::vector<BufferRequest> &requests);

} // namespace mlir::mie

#endif // MIE_TRANSFORMS_ARENAPLANNER_H
