// The ABI table a code object exports (MIE_ABI_SYMBOL, see mie_kernel_abi.h) checked against the manifest.
// The package's hashes only prove that the bytes are the ones the writer hashed; this check makes sure the
// manifest the runtime sizes buffers by describes the same arena, weights and tensors the code was compiled
// for, so a manifest edited (and re-hashed) by hand or produced by a buggy tool is refused instead of
// letting the code read or write past a buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "manifest.h"

namespace mie::rt {

// `words` holds `count` int64 words (what the symbol's ELF size covers; the table's own word count must
// fit in it). `weights_bytes` is the size of the weights section the target's code is given. On a
// mismatch *error names the fact: "arena_bytes: the code was compiled for 10240, the manifest says 64".
bool check_abi_table(const int64_t *words, size_t count, const Manifest &manifest, const TargetDesc &target,
                     uint64_t weights_bytes, std::string *error);

}  // namespace mie::rt
