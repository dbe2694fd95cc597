//===- ArenaPlanner.h - lifetime-based arena packing ------------*- C++ -*-===//
//
// The memory planning algorithm on its own, free of IR so that it can be unit tested: buffers with
// sizes, alignments and live intervals in, byte offsets into one arena out.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TRANSFORMS_ARENAPLANNER_H
#define MIE_TRANSFORMS_ARENAPLANNER_H

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
};

/// What any packing of `requests` must reserve: the largest sum of the sizes of buffers live at one op
/// (`lowerBound`, first reached at op `peakOp`), and what no reuse at all would (`naive`, the sum of
/// all sizes).
struct ArenaBounds {
  int64_t lowerBound = 0, naive = 0, peakOp = -1;
};
ArenaBounds arenaBounds(const std::vector<BufferRequest> &requests);

/// Greedy best-fit packing, largest buffers first (the heuristic of TFLite's and XLA's planners):
/// each buffer goes into the smallest gap, among buffers whose lifetimes overlap its own, that fits
/// it at its alignment, else after the last of them. Buffers whose lifetimes overlap never share a
/// byte; the result is deterministic.
ArenaPlan planArena(const std::vector<BufferRequest> &requests);

} // namespace mlir::mie

#endif // MIE_TRANSFORMS_ARENAPLANNER_H
