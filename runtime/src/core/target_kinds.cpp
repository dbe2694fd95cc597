#include "target_kinds.h"

#include "format.h"
#include "mie/mie_kernel_abi.h"

namespace mie::rt {

namespace {

// One row per kind, the host's first.
const TargetKind kKinds[] = {
    {"cpu", /*device=*/false, MIE_KERNEL_ABI_CPU_VERSION, MIE_KERNEL_ABI_MIN_VERSION, nullptr, nullptr, nullptr,
     /*needs_host_arch=*/false},
    // docs/cuda.md: a host ELF object that launches the kernels through the mie_gpu_api (kernel ABI 4).
    {"cuda", /*device=*/true, MIE_KERNEL_ABI_CUDA_VERSION, MIE_KERNEL_ABI_CUDA_VERSION,
     "its host code calls the mie_gpu_api", "an SM architecture such as sm_90", &parse_sm_arch,
     /*needs_host_arch=*/true},
};

}  // namespace

const TargetKind *find_target_kind(const std::string &name) {
  for (const TargetKind &kind : kKinds)
    if (name == kind.name) return &kind;
  return nullptr;
}

const TargetKind &host_target_kind() { return kKinds[0]; }

std::string known_target_kinds() {
  std::string names;
  const size_t n = sizeof(kKinds) / sizeof(kKinds[0]);
  for (size_t i = 0; i < n; ++i)
    names += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kKinds[i].name;
  return names;
}

std::string target_kinds_with_host_arch() {
  std::string names;
  for (const TargetKind &kind : kKinds)
    if (kind.needs_host_arch) names += (names.empty() ? "" : ", ") + std::string(kind.name);
  return names;
}

}  // namespace mie::rt
