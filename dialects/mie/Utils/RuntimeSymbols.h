//===- RuntimeSymbols.h - names shared by the lowering and code generation -===//
//
// Symbols that one pass creates and later passes or code generation recognize by name: spelled once
// here so that they cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_DIALECTS_MIE_UTILS_RUNTIMESYMBOLS_H
#define MIE_DIALECTS_MIE_UTILS_RUNTIMESYMBOLS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::mie {

/// The mutable two-word memref.global that random kernels read (key, run counter): made by
/// convert-ms-to-mie, bound to the entry's last argument by mie-bind-random-key, left out of the
/// weights by mie-bundle-weights (docs/random.md).
inline constexpr llvm::StringLiteral kRandomKeyGlobal = "mie_random_key";
/// The function code for symbolic dims exports for the runtime to size the arena of a run
/// (MIE_ARENA_BYTES_SYMBOL of runtime/include/mie/mie_kernel_abi.h).
inline constexpr llvm::StringLiteral kArenaBytesFunction = "mie_arena_bytes";

/// Runtime services: external functions `mie_host_<name>` that kernels call, given the kernel
/// environment by mie-parallelize-loops and implemented by code generation through the
/// environment's host api (kernel ABI 6, runtime/include/mie/mie_kernel_abi.h).
inline constexpr llvm::StringLiteral kHostServicePrefix = "mie_host_";
/// `mie_host_decode_image(env, encoded, size, out, height, width, channels, pixel_format, node)`:
/// ImageDecoder (docs/image-decoding.md); `mie_host_api::decode_image`.
inline constexpr llvm::StringLiteral kDecodeImageService = "mie_host_decode_image";
/// `mie_host_check_failed(env, message)`: a failed ms.check (a value that disagrees with a declared
/// shape); `mie_host_api::check_failed`, kernel ABI 8.
inline constexpr llvm::StringLiteral kCheckFailedService = "mie_host_check_failed";

} // namespace mlir::mie

#endif // MIE_DIALECTS_MIE_UTILS_RUNTIMESYMBOLS_H
