// Loads a cpu target's ELF shared object from package bytes without ever writing it to a named file:
// memfd_create + dlopen("/proc/self/fd/N"), falling back to a private, immediately unlinked temp file where
// memfd or /proc is unavailable (or MIE_RT_DISABLE_MEMFD=1 is set, which tests use to cover that path).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "mie/mie_rt.h"

namespace mie::rt {

class LoadedCode {
 public:
  LoadedCode() = default;
  ~LoadedCode();
  LoadedCode(const LoadedCode &) = delete;
  LoadedCode &operator=(const LoadedCode &) = delete;

  // `what` names the code object in messages ("target 'x86-64'"). On failure *error says what went wrong
  // (without a package prefix) and the status is returned.
  mie_status load(const uint8_t *data, size_t size, const std::string &what, const std::string &entry,
                  std::string *error);
  void *entry() const { return entry_; }
  // A data symbol the code object itself defines, with its ELF size in bytes (0 where the dynamic linker
  // cannot say); NULL when it has none.
  const void *symbol(const char *name, size_t *size) const;
  bool used_memfd() const { return used_memfd_; }

 private:
  void *handle_ = nullptr;
  void *entry_ = nullptr;
  bool used_memfd_ = false;
};

// Header checks that turn dlopen's vague failures into precise ones: ELF magic, 64-bit, little-endian,
// shared object, and a machine matching this host.
bool check_elf_image(const uint8_t *data, size_t size, std::string *error);

}  // namespace mie::rt
