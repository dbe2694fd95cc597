// The runtime's side of the cpu kind of target: whether a cpu code object runs on this host (its arch,
// format, kernel ABI and CPU features), and how the automatic choice ranks the runnable ones.
#pragma once

#include <cstdint>
#include <string>

#include "core/manifest.h"

namespace mie::rt::cpu {

// Whether `t` runs here; *why says why not. A feature this runtime cannot check refuses an automatic
// choice but not an explicit request (the user's call).
bool target_runnable(const TargetDesc &t, bool explicitly_requested, std::string *why);

// Higher is better among runnable cpu targets: the count of required features.
int64_t target_rank(const TargetDesc &t);

}  // namespace mie::rt::cpu
