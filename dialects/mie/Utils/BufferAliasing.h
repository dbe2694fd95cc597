//===- BufferAliasing.h - which bytes a buffer value covers -----*- C++ -*-===//
//
// What memory planning, its checker and kernel outlining need to know about buffers that share
// storage: the bytes of its root that a buffer value covers, and whether a kernel may write an output
// over the bytes of one of its inputs (in-place).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_UTILS_BUFFERALIASING_H
#define MIE_UTILS_BUFFERALIASING_H

#include "dialects/mie/IR/MieDialect.h"
#include "dialects/mie/IR/MieOps.h"

#include <optional>

namespace mlir::mie {

/// Bytes [begin, end) of `root` (a block argument or a buffer-allocating op's result).
struct ByteRange {
  Value root;
  int64_t begin = 0, end = 0;

  bool overlaps(const ByteRange &other) const {
    return root == other.root && begin < other.end && other.begin < end;
  }
};

/// Bytes of a buffer of static shape (one per i1); std::nullopt for dynamic shapes or non-scalar
/// elements.
std::optional<int64_t> bufferBytes(MemRefType type);

/// The bytes `buffer` covers, following view-like ops to the root: a `mie.view` covers its offset
/// and its result's size; a collapse or expand of the shape, the bytes of its source; any other view
/// (subview, reinterpret_cast...) conservatively the whole of its source. std::nullopt for buffers
/// of dynamic shape.
std::optional<ByteRange> bytesOf(Value buffer);

/// Whether `kernel` may write its output `outputIndex` over the bytes of its input `inputIndex`:
/// the input is read once, by an elementwise `linalg.generic` (all loops parallel) that reads it and
/// writes the output both through the identity map, without reading the output's old value, and
/// nothing touches the output before that op. Each element of the input is then read in the same
/// iteration that writes the element of the output at the same address, and never after.
/// Or the kernel carries `mie.in_place_input` = `inputIndex` and `outputIndex` is 0 (the lowering
/// that emitted its microkernel calls vouches for the same order). Both must have the same
/// identity-layout type, and no other operand of the kernel may reach the input's bytes (bytesOf;
/// a buffer of dynamic shape reaches all of its root's bytes from the start). Where the type has
/// dynamic dims the caller must know the two extents equal.
bool mayWriteInPlace(KernelOp kernel, unsigned inputIndex, unsigned outputIndex);

} // namespace mlir::mie

#endif // MIE_UTILS_BUFFERALIASING_H
