#include "target_backends.h"

#include <cstdlib>

#include "../cpu/cpu_target.h"
#include "../cpu/host_cpu.h"
#include "../cuda/cuda_session.h"

namespace mie::rt {

namespace {

bool cuda_runnable(const TargetDesc &t, bool, std::string *why) { return cuda::target_runnable(t, why); }
int64_t cuda_rank(const TargetDesc &t) { return t.sm; }  // the highest SM the device runs

// One row per kind of target_kinds.cpp.
const TargetBackend kBackends[] = {
    {find_target_kind("cpu"), &cpu::target_runnable, &cpu::target_rank},
    {find_target_kind("cuda"), &cuda_runnable, &cuda_rank},
};

// "cuda": the device kinds, for messages about "gpu".
std::string device_kind_names() {
  std::string names;
  for (const TargetBackend &b : kBackends)
    if (b.kind->device) names += (names.empty() ? "" : " or ") + std::string(b.kind->name);
  return names;
}

}  // namespace

const TargetBackend *find_target_backend(const std::string &kind) {
  for (const TargetBackend &b : kBackends)
    if (kind == b.kind->name) return &b;
  return nullptr;
}

bool target_runnable_here(const TargetDesc &t, bool explicitly_requested, std::string *why) {
  const TargetBackend *backend = find_target_backend(t.kind);
  if (!backend) {
    *why = "unknown target kind '" + t.kind + "'";
    return false;
  }
  return backend->runnable(t, explicitly_requested, why);
}

const TargetDesc *select_target(const Package &pkg, const char *name, mie_status *status, std::string *error) {
  const auto &targets = pkg.manifest().targets;
  const std::string prefix = "package '" + pkg.path() + "': ";
  // The environment's choice where the caller made none: for every program using the runtime.
  std::string from = "target";
  if (!name) {
    const char *env = std::getenv("MIE_TARGET");
    if (env && env[0]) {
      name = env;
      from = "MIE_TARGET";
    }
  }
  // A kind instead of a name ("cpu", "cuda", or "gpu" for the device kinds; a target of that name wins): the
  // best runnable target of that kind, by the automatic rule.
  const std::string requested = name ? name : "";
  const bool devices = requested == "gpu";
  if (name && (devices || find_target_kind(requested)) && !pkg.find_target(name)) {
    const std::string kind = devices ? device_kind_names() : requested;
    const TargetDesc *best = nullptr;
    std::string reasons;
    for (const auto &t : targets) {
      const TargetBackend *backend = find_target_backend(t.kind);
      if (!backend || (devices ? !backend->kind->device : t.kind != requested)) continue;
      std::string why;
      if (!target_runnable_here(t, false, &why)) {
        reasons += (reasons.empty() ? "" : "; ") + ("'" + t.name + "': " + why);
        continue;
      }
      if (!best || backend->rank(t) > find_target_backend(best->kind)->rank(*best)) best = &t;
    }
    if (!best) {
      *error = prefix + from + " '" + name + "': " +
               (reasons.empty() ? "the package has no " + kind + " target" : "no " + kind + " target can run here: " + reasons);
      *status = reasons.empty() ? MIE_ERR_NOT_FOUND : MIE_ERR_UNSUPPORTED;
    }
    return best;
  }
  if (name) {
    const TargetDesc *t = pkg.find_target(name);
    if (!t) {
      std::string names;
      for (const auto &x : targets) names += (names.empty() ? "" : ", ") + x.name;
      *error = prefix + (from == "MIE_TARGET" ? "MIE_TARGET: " : "") + "no target named '" + name +
               "' (package has: " + names + ")";
      *status = MIE_ERR_NOT_FOUND;
      return nullptr;
    }
    std::string why;
    if (!target_runnable_here(*t, true, &why)) {
      *error = prefix + "target '" + t->name + "': " + why;
      *status = MIE_ERR_UNSUPPORTED;
      return nullptr;
    }
    return t;
  }
  // A device target above every host one, then the best by its kind's rank; ties keep manifest order.
  const TargetDesc *best = nullptr, *best_device = nullptr;
  std::string reasons;
  for (const auto &t : targets) {
    std::string why;
    if (!target_runnable_here(t, false, &why)) {
      reasons += (reasons.empty() ? "" : "; ") + ("'" + t.name + "': " + why);
      continue;
    }
    const TargetBackend *backend = find_target_backend(t.kind);
    const TargetDesc *&slot = backend->kind->device ? best_device : best;
    if (!slot || backend->rank(t) > find_target_backend(slot->kind)->rank(*slot)) slot = &t;
  }
  if (best_device) return best_device;
  if (!best) {
    *error = prefix + "no target in this package can run on this host (" + host_arch() + "): " + reasons;
    *status = MIE_ERR_UNSUPPORTED;
  }
  return best;
}

}  // namespace mie::rt
