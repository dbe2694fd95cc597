// What the host CPU can run: its architecture name as used in manifests ("x86_64", "aarch64") and which
// LLVM-style target features ("+avx2,+fma") it has, so session creation never picks a code object that
// would die of SIGILL.
#pragma once

#include <cstdint>
#include <string>

namespace mie::rt {

const char *host_arch();  // "x86_64", "aarch64" or "unknown"

enum class FeatureCheck { kAllPresent, kMissing, kUnknown };

// Checks each "+name" entry of a comma-separated feature list ("-name" entries require nothing).
// *which names the first missing or unknown feature.
FeatureCheck check_host_features(const std::string &features, std::string *which);

// The bytes of the host's last-level cache (the largest level cpu0 reports; 8 MiB where the
// system does not say): what batch slices keep a run's activations within.
uint64_t last_level_cache_bytes();

}  // namespace mie::rt
