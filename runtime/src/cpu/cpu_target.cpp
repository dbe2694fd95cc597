#include "cpu/cpu_target.h"

#include "cpu/host_cpu.h"
#include "mie/mie_kernel_abi.h"

namespace mie::rt::cpu {

bool target_runnable(const TargetDesc &t, bool explicitly_requested, std::string *why) {
  if (t.arch != host_arch()) {
    *why = "built for " + t.arch + " but this host is " + host_arch();
    return false;
  }
  if (t.format != "elf-shared-object") {
    *why = "unsupported code format '" + t.format + "' (expected elf-shared-object)";
    return false;
  }
  if (t.abi_version < MIE_KERNEL_ABI_MIN_VERSION || t.abi_version > MIE_KERNEL_ABI_VERSION) {
    *why = "kernel ABI version " + std::to_string(t.abi_version) + " is not supported (this runtime runs " +
           std::to_string(MIE_KERNEL_ABI_MIN_VERSION) + " to " + std::to_string(MIE_KERNEL_ABI_VERSION) + ")";
    return false;
  }
  std::string feature;
  switch (check_host_features(t.features, &feature)) {
    case FeatureCheck::kAllPresent:
      return true;
    case FeatureCheck::kMissing:
      *why = "needs CPU feature '" + feature + "' which this host lacks";
      return false;
    case FeatureCheck::kUnknown:
      // Automatic selection must be sure the code cannot fault; an explicit request is the user's call.
      if (explicitly_requested) return true;
      *why = "needs CPU feature '" + feature + "' which this runtime cannot check";
      return false;
  }
  return false;
}

int64_t target_rank(const TargetDesc &t) {
  // The most specialized build: the one with the most required features.
  int64_t n = 0;
  for (char c : t.features)
    if (c == '+') ++n;
  return n;
}

}  // namespace mie::rt::cpu
