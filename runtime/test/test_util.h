// Helpers shared by the runtime tests: scratch files under the build tree, the test kernel's bytes, a
// ready-made writer for the test model and a raw assembler for hand-crafted (possibly broken) packages.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mie/mie_package_writer.h"
#include "mie/mie_rt.h"

namespace mie::test {

// A fresh path under the build tree's scratch directory, unique per test and name.
std::string tmp_path(const std::string &name);
std::vector<uint8_t> read_file(const std::string &path);
void write_file(const std::string &path, const std::vector<uint8_t> &bytes);

std::vector<uint8_t> kernel_bytes();          // kernels/test_kernel.c, built for this host
std::vector<uint8_t> noentry_kernel_bytes();  // kernels/noentry_kernel.c
std::vector<uint8_t> notable_kernel_bytes();  // kernels/test_kernel.c without its ABI table (before ABI 3)
std::vector<uint8_t> random_key_kernel_bytes();  // kernels/random_key_kernel.c: reads the random key
std::vector<uint8_t> host_call_kernel_bytes();   // kernels/host_call_kernel.c: calls the host api
std::vector<uint8_t> dynamic_kernel_bytes();  // kernels/dynamic_kernel.c: a data-dependent output shape
std::vector<uint8_t> cuda_kernel_bytes();     // kernels/cuda_test_kernel.c: the host side of a cuda target
const char *host_target_name();               // "x86-64" or "aarch64"
const char *host_arch();                      // "x86_64" or "aarch64"
const char *other_target_name();              // the cpu target this host cannot run
const char *other_arch();

constexpr int kRows = 2, kCols = 64;
std::vector<float> test_weights();  // w[c] = 0.5 + c / 64
// Writer for the test model (see kernels/test_kernel.c); `weights` must outlive the writer's write().
mie::PackageWriter test_model_writer(const std::vector<float> &weights, const std::vector<uint8_t> &code);
// The same model with the given targets (kernel lists, own weights, ...).
mie::PackageWriter test_model_writer(const std::vector<float> &weights, std::vector<mie::PackageTargetSpec> targets);
mie::PackageTargetSpec host_target(const std::vector<uint8_t> &code);
// A cuda target "cuda-<sm>" of the test model, host code for this host, kernel ABI 4.
mie::PackageTargetSpec cuda_target(const std::vector<uint8_t> &code, const std::string &sm = "sm_90");

// Sets environment variables for a scope and restores them afterwards.
class ScopedEnv {
 public:
  ScopedEnv() = default;
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;
  ~ScopedEnv();
  ScopedEnv &set(const char *name, const std::string &value);
  ScopedEnv &unset(const char *name);

 private:
  void save(const char *name);
  std::map<std::string, std::pair<bool, std::string>> saved_;
};
// Reference results of the test model.
void reference(const std::vector<float> &x, int32_t k, std::vector<float> *y, std::vector<float> *rowsum);

// Builds a package byte image from manifest text and (offset, bytes) blobs: header with the correct manifest
// hash and offsets, manifest at 128, zero padding between. file_size 0 means "end of the last blob".
std::vector<uint8_t> assemble(const std::string &manifest, const std::vector<std::pair<uint64_t, std::vector<uint8_t>>> &blobs,
                              uint64_t file_size = 0);

// A valid manifest for assemble(): weights (256 bytes) at 4096, one host code section at 8192.
struct RawPackage {
  std::vector<uint8_t> weights, code;
  std::string manifest;
  std::vector<uint8_t> bytes() const { return assemble(manifest, {{4096, weights}, {8192, code}}); }
};
RawPackage raw_package();

// A package opened and a session created on it with default options (failures reported through gtest,
// leaving the pointers null), both released at the end of the scope.
struct OpenedSession {
  mie_package *pkg = nullptr;
  mie_session *session = nullptr;
  explicit OpenedSession(const std::string &path);
  ~OpenedSession();
  OpenedSession(const OpenedSession &) = delete;
  OpenedSession &operator=(const OpenedSession &) = delete;
};

// Replaces the first occurrence of `from` (which must exist) in s.
std::string replace(std::string s, const std::string &from, const std::string &to);

}  // namespace mie::test
