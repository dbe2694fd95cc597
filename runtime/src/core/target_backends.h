// The runtime's backends, one per kind of target (target_kinds.h): whether a target of the kind runs on
// this machine and how the automatic choice ranks the runnable ones; the choice itself (select_target).
// The kinds' own code lives in runtime/src/<kind>/.
#pragma once

#include <cstdint>
#include <string>

#include "manifest.h"
#include "mie/mie_rt.h"
#include "package.h"
#include "target_kinds.h"

namespace mie::rt {

struct TargetBackend {
  const TargetKind *kind;
  // Whether `t` runs here; *why explains a refusal. An explicit request may run what an automatic choice
  // would not risk (a CPU feature the runtime cannot check).
  bool (*runnable)(const TargetDesc &t, bool explicitly_requested, std::string *why);
  // Higher is better among the runnable targets of the kind (cpu: the most required features, i.e. the
  // most specialized build; cuda: the highest SM the device runs).
  int64_t (*rank)(const TargetDesc &t);
};

// The backend of the kind named `kind`, or nullptr.
const TargetBackend *find_target_backend(const std::string &kind);

// Whether mie_session_create would accept `t` on this host; *why explains a refusal and the status says
// what kind of refusal it is (MIE_ERR_UNSUPPORTED).
bool target_runnable_here(const TargetDesc &t, bool explicitly_requested, std::string *why);

// Explicit name: that target or a precise error; a kind ("cpu", "cuda", "gpu" for the device kinds): the
// best runnable target of it. NULL name ($MIE_TARGET where set): the best runnable device target, else the
// best runnable host one, by their kinds' ranks; ties keep manifest order.
const TargetDesc *select_target(const Package &pkg, const char *name, mie_status *status, std::string *error);

}  // namespace mie::rt
