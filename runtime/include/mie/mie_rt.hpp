// mie_rt.hpp - thin header-only C++ RAII wrapper over the C API (mie_rt.h). No exceptions: functions return
// mie_status and mie::last_error() gives the message, exactly like the C API.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "mie/mie_rt.h"

namespace mie {

inline std::string last_error() { return mie_last_error(); }

class Package {
 public:
  Package() = default;
  ~Package() { reset(); }
  Package(Package &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Package &operator=(Package &&o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  Package(const Package &) = delete;
  Package &operator=(const Package &) = delete;

  mie_status open(const char *path) {
    reset();
    return mie_package_open(path, &p_);
  }
  // With a signature policy (mie_package_options, from mie_package_options_init).
  mie_status open(const char *path, const mie_package_options &options) {
    reset();
    return mie_package_open_with_options(path, &options, &p_);
  }
  void reset() {
    mie_package_close(p_);
    p_ = nullptr;
  }
  explicit operator bool() const { return p_ != nullptr; }
  mie_package *get() const { return p_; }

  uint32_t num_inputs() const {
    uint32_t n = 0;
    mie_package_num_inputs(p_, &n);
    return n;
  }
  uint32_t num_outputs() const {
    uint32_t n = 0;
    mie_package_num_outputs(p_, &n);
    return n;
  }
  uint32_t num_targets() const {
    uint32_t n = 0;
    mie_package_num_targets(p_, &n);
    return n;
  }
  mie_tensor_info input(uint32_t i) const {
    mie_tensor_info info{};
    mie_package_input_info(p_, i, &info);
    return info;
  }
  mie_tensor_info output(uint32_t i) const {
    mie_tensor_info info{};
    mie_package_output_info(p_, i, &info);
    return info;
  }
  mie_target_info target(uint32_t i) const {
    mie_target_info info{};
    mie_package_target_info(p_, i, &info);
    return info;
  }
  std::string model_name() const {
    const char *s = nullptr;
    return mie_package_model_name(p_, &s) == MIE_OK ? s : "";
  }

 private:
  mie_package *p_ = nullptr;
};

class Session {
 public:
  Session() = default;
  ~Session() { reset(); }
  Session(Session &&o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Session &operator=(Session &&o) noexcept {
    if (this != &o) {
      reset();
      s_ = std::exchange(o.s_, nullptr);
    }
    return *this;
  }
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  // The session keeps the package's data alive on its own; `package` may be closed afterwards.
  mie_status create(const Package &package, uint32_t num_threads = 0, const char *target = nullptr) {
    reset();
    mie_session_options options;
    mie_session_options_init(&options);
    options.num_threads = num_threads;
    options.target = target;
    return mie_session_create(package.get(), &options, &s_);
  }
  void reset() {
    mie_session_destroy(s_);
    s_ = nullptr;
  }
  explicit operator bool() const { return s_ != nullptr; }
  mie_session *get() const { return s_; }

  mie_status run(const void *const *inputs, void *const *outputs) { return mie_session_run(s_, inputs, outputs); }
  mie_status run(uint32_t num_inputs, const void *const *inputs, const uint64_t *input_bytes, uint32_t num_outputs,
                 void *const *outputs, const uint64_t *output_bytes) {
    return mie_session_run_sized(s_, num_inputs, inputs, input_bytes, num_outputs, outputs, output_bytes);
  }
  mie_status set_threads(uint32_t n) { return mie_session_set_threads(s_, n); }
  uint32_t num_threads() const {
    uint32_t n = 0;
    mie_session_num_threads(s_, &n);
    return n;
  }
  std::string target() const {
    const char *s = nullptr;
    return mie_session_target(s_, &s) == MIE_OK ? s : "";
  }
  uint64_t last_run_ns() const {
    uint64_t ns = 0;
    mie_session_last_run_ns(s_, &ns);
    return ns;
  }

 private:
  mie_session *s_ = nullptr;
};

}  // namespace mie
