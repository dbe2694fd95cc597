// A session: one package target loaded and ready to run, with its arena and thread pool.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../cpu/code_loader.h"
#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"
#include "package.h"
#include "thread_pool.h"

namespace mie::rt {

// Whether mie_session_create would accept `t` on this host; *why explains a refusal and the status says
// what kind of refusal it is (MIE_ERR_UNSUPPORTED).
bool target_runnable_here(const TargetDesc &t, bool explicitly_requested, std::string *why);

// Explicit name: that target or a precise error. NULL name: the best runnable cpu target (the one with the
// most required features, i.e. the most specialized build; ties keep manifest order).
const TargetDesc *select_target(const Package &pkg, const char *name, mie_status *status, std::string *error);

class Session {
 public:
  static mie_status create(std::shared_ptr<const Package> pkg, const mie_session_options *options,
                           std::unique_ptr<Session> *out, std::string *error);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  mie_status run(const void *const *inputs, void *const *outputs, std::string *error);
  mie_status set_threads(uint32_t num_threads, std::string *error);
  // Installs (or, with a NULL hook, removes) the profile hook the generated code calls around each
  // kernel; MIE_ERR_UNSUPPORTED for code built before ABI 2, which has no hook calls.
  mie_status set_profiler(mie_profile_fn hook, void *ctx, std::string *error);
  uint32_t num_threads() const { return env_.num_threads; }
  const TargetDesc &target() const { return *target_; }
  uint64_t last_run_ns() const { return last_run_ns_.load(std::memory_order_relaxed); }

 private:
  Session() = default;
  std::shared_ptr<const Package> pkg_;
  const TargetDesc *target_ = nullptr;
  LoadedCode code_;
  mie_entry_fn entry_ = nullptr;
  HugePageBuffer arena_;  // NULL data when the target needs no arena
  std::unique_ptr<ThreadPool> pool_;
  mie_kernel_env env_{};
  std::vector<void *> args_;  // reused by every run: no allocation on the run path
  std::mutex run_mu_;
  std::atomic<uint64_t> last_run_ns_{0};  // read by mie_session_last_run_ns without the run lock
};

}  // namespace mie::rt
