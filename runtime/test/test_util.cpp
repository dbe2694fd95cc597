#include "test_util.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/format.h"
#include "core/sha256.h"

namespace mie::test {

std::string tmp_path(const std::string &name) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string prefix = info ? std::string(info->test_suite_name()) + "." + info->name() : "global";
  for (char &c : prefix)
    if (c == '/') c = '_';
  const std::string path = std::string(MIE_TEST_TMP) + "/" + prefix + "." + name;
  ::unlink(path.c_str());
  return path;
}

std::vector<uint8_t> read_file(const std::string &path) {
  std::vector<uint8_t> out;
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    ADD_FAILURE() << "cannot open " << path;
    return out;
  }
  uint8_t buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return out;
}

void write_file(const std::string &path, const std::vector<uint8_t> &bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  if (!bytes.empty()) ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
}

std::vector<uint8_t> kernel_bytes() { return read_file(MIE_TEST_KERNEL); }
std::vector<uint8_t> noentry_kernel_bytes() { return read_file(MIE_TEST_KERNEL_NOENTRY); }
std::vector<uint8_t> notable_kernel_bytes() { return read_file(MIE_TEST_KERNEL_NOTABLE); }
std::vector<uint8_t> dynamic_kernel_bytes() { return read_file(MIE_TEST_KERNEL_DYNAMIC); }
std::vector<uint8_t> random_key_kernel_bytes() { return read_file(MIE_TEST_KERNEL_RANDOM); }
std::vector<uint8_t> host_call_kernel_bytes() { return read_file(MIE_TEST_KERNEL_HOST_CALL); }
std::vector<uint8_t> cuda_kernel_bytes() { return read_file(MIE_TEST_CUDA_KERNEL); }

#if defined(__aarch64__)
const char *host_target_name() { return "aarch64"; }
const char *host_arch() { return "aarch64"; }
const char *other_target_name() { return "x86-64"; }
const char *other_arch() { return "x86_64"; }
#else
const char *host_target_name() { return "x86-64"; }
const char *host_arch() { return "x86_64"; }
const char *other_target_name() { return "aarch64"; }
const char *other_arch() { return "aarch64"; }
#endif

std::vector<float> test_weights() {
  std::vector<float> w(kCols);
  for (int c = 0; c < kCols; ++c) w[c] = 0.5f + float(c) / 64.0f;
  return w;
}

mie::PackageTargetSpec host_target(const std::vector<uint8_t> &code) {
  mie::PackageTargetSpec t;
  t.name = host_target_name();
  t.arch = host_arch();
  t.arena_bytes = kRows * kCols * sizeof(float);
  t.code = code;
  return t;
}

mie::PackageTargetSpec cuda_target(const std::vector<uint8_t> &code, const std::string &sm) {
  mie::PackageTargetSpec t;
  t.name = "cuda-" + sm;
  t.kind = "cuda";
  t.arch = sm;
  t.host_arch = host_arch();
  t.arena_bytes = kRows * kCols * sizeof(float);
  t.code = code;
  return t;
}

ScopedEnv &ScopedEnv::set(const char *name, const std::string &value) {
  save(name);
  setenv(name, value.c_str(), 1);
  return *this;
}

ScopedEnv &ScopedEnv::unset(const char *name) {
  save(name);
  unsetenv(name);
  return *this;
}

void ScopedEnv::save(const char *name) {
  if (saved_.count(name)) return;
  const char *v = std::getenv(name);
  saved_[name] = {v != nullptr, v ? v : ""};
}

ScopedEnv::~ScopedEnv() {
  for (const auto &[name, old] : saved_) {
    if (old.first) setenv(name.c_str(), old.second.c_str(), 1);
    else unsetenv(name.c_str());
  }
}

mie::PackageWriter test_model_writer(const std::vector<float> &weights, const std::vector<uint8_t> &code) {
  return test_model_writer(weights, std::vector<mie::PackageTargetSpec>{host_target(code)});
}

mie::PackageWriter test_model_writer(const std::vector<float> &weights, std::vector<mie::PackageTargetSpec> targets) {
  mie::PackageWriter w;
  w.set_model("test-model");
  w.set_precision("fp32");
  w.add_input({"x", "f32", {kRows, kCols}});
  w.add_input({"k", "i32", {1}});
  w.add_output({"y", "f32", {kRows, kCols}});
  w.add_output({"rowsum", "f32", {kRows}});
  w.set_weights(weights.data(), weights.size() * sizeof(float));
  for (auto &t : targets) w.add_target(std::move(t));
  return w;
}

void reference(const std::vector<float> &x, int32_t k, std::vector<float> *y, std::vector<float> *rowsum) {
  const auto w = test_weights();
  y->assign(kRows * kCols, 0);
  rowsum->assign(kRows, 0);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      (*y)[r * kCols + c] = x[r * kCols + c] * w[c] + float(k);
      (*rowsum)[r] += (*y)[r * kCols + c];
    }
}

std::vector<uint8_t> assemble(const std::string &manifest,
                              const std::vector<std::pair<uint64_t, std::vector<uint8_t>>> &blobs, uint64_t file_size) {
  uint64_t end = 128 + manifest.size();
  for (const auto &b : blobs) end = std::max<uint64_t>(end, b.first + b.second.size());
  if (file_size == 0) file_size = end;
  std::vector<uint8_t> out(std::max(end, file_size), 0);
  std::memcpy(out.data() + 128, manifest.data(), manifest.size());
  for (const auto &b : blobs)
    if (!b.second.empty()) std::memcpy(out.data() + b.first, b.second.data(), b.second.size());
  rt::Header h;
  std::memcpy(h.magic, rt::kMagic, 8);
  h.format_version = 1;
  h.header_size = 128;
  h.manifest_offset = 128;
  h.manifest_size = manifest.size();
  h.file_size = file_size;
  rt::sha256(manifest.data(), manifest.size(), h.manifest_sha256);
  rt::encode_header(h, out.data());
  return out;
}

RawPackage raw_package() {
  RawPackage p;
  p.weights.resize(256);
  for (size_t i = 0; i < p.weights.size(); ++i) p.weights[i] = uint8_t(i * 7);
  p.code = kernel_bytes();
  p.manifest = std::string("{\"format_version\": 1, \"compiler\": \"test\", \"model\": \"raw\", \"precision\": \"fp32\",\n") +
               " \"inputs\": [{\"name\": \"x\", \"dtype\": \"f32\", \"shape\": [2, 64]}, {\"name\": \"k\", \"dtype\": \"i32\", \"shape\": [1]}],\n" +
               " \"outputs\": [{\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [2, 64]}, {\"name\": \"rowsum\", \"dtype\": \"f32\", \"shape\": [2]}],\n" +
               " \"weights\": {\"offset\": 4096, \"size\": 256, \"sha256\": \"" + rt::sha256_hex(p.weights.data(), p.weights.size()) + "\"},\n" +
               " \"targets\": [{\"name\": \"" + host_target_name() + "\", \"kind\": \"cpu\", \"arch\": \"" + host_arch() +
               "\", \"features\": \"\", \"format\": \"elf-shared-object\", \"entry\": \"mie_entry\", \"abi_version\": 1,\n" +
               "   \"arena_bytes\": 512, \"code\": {\"offset\": 8192, \"size\": " + std::to_string(p.code.size()) +
               ", \"sha256\": \"" + rt::sha256_hex(p.code.data(), p.code.size()) + "\"}}]}\n";
  return p;
}

std::string replace(std::string s, const std::string &from, const std::string &to) {
  const size_t pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << "'" << from << "' not found";
  if (pos != std::string::npos) s.replace(pos, from.size(), to);
  return s;
}

OpenedSession::OpenedSession(const std::string &path) {
  EXPECT_EQ(mie_package_open(path.c_str(), &pkg), MIE_OK) << mie_last_error();
  if (pkg) EXPECT_EQ(mie_session_create(pkg, nullptr, &session), MIE_OK) << mie_last_error();
}

OpenedSession::~OpenedSession() {
  mie_session_destroy(session);
  mie_package_close(pkg);
}

}  // namespace mie::test
