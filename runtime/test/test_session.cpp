// End to end: the test kernel (kernels/test_kernel.c, built as a MODULE at build time) packed by the writer,
// loaded through the C API, run and checked numerically; plus every way session creation can refuse.
#include <dirent.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "cpu/code_loader.h"
#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"
#include "mie/mie_rt.hpp"
#include "test_util.h"

using namespace mie::test;

namespace {

std::string write_package(const mie::PackageWriter &w, const std::string &name) {
  const std::string path = tmp_path(name);
  EXPECT_EQ(w.write(path), "");
  return path;
}

struct Io {
  std::vector<float> x = std::vector<float>(kRows * kCols);
  int32_t k = 3;
  std::vector<float> y = std::vector<float>(kRows * kCols, -1.0f), rowsum = std::vector<float>(kRows, -1.0f);
  const void *in[2];
  void *out[2];
  explicit Io(int seed = 1) {
    for (size_t i = 0; i < x.size(); ++i) x[i] = float((int(i) * 37 + seed * 11) % 101) / 10.0f - 5.0f;
    in[0] = x.data();
    in[1] = &k;
    out[0] = y.data();
    out[1] = rowsum.data();
  }
  void check() const {
    std::vector<float> ry, rr;
    reference(x, k, &ry, &rr);
    // The kernel may be compiled with FMA contraction, so allow rounding differences.
    for (size_t i = 0; i < ry.size(); ++i) ASSERT_NEAR(y[i], ry[i], 1e-5f * (1 + std::fabs(ry[i]))) << "y[" << i << "]";
    for (size_t i = 0; i < rr.size(); ++i) ASSERT_NEAR(rowsum[i], rr[i], 1e-4f * (1 + std::fabs(rr[i]))) << "rowsum[" << i << "]";
  }
};

class SessionTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SessionTest, RunsTestModel) {
  const auto weights = test_weights();
  const std::string path = write_package(test_model_writer(weights, kernel_bytes()), "model.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, GetParam()), MIE_OK) << mie_last_error();
  EXPECT_EQ(s.target(), host_target_name());
  EXPECT_EQ(s.num_threads(), GetParam());
  for (int rep = 0; rep < 20; ++rep) {
    Io io(rep);
    io.k = rep - 5 < 0 ? 0 : rep - 5;
    ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
    io.check();
  }
  EXPECT_GT(s.last_run_ns(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Threads, SessionTest, ::testing::Values(1u, 2u, 4u),
                         [](const ::testing::TestParamInfo<uint32_t> &i) { return std::to_string(i.param); });

TEST(Session, SetThreadsAndDefaults) {
  const auto weights = test_weights();
  const std::string path = write_package(test_model_writer(weights, kernel_bytes()), "model.mie");
  mie_package *pkg = nullptr;
  ASSERT_EQ(mie_package_open(path.c_str(), &pkg), MIE_OK) << mie_last_error();
  mie_session *s = nullptr;
  mie_session_options too_many;
  ASSERT_EQ(mie_session_options_init(&too_many), MIE_OK);
  too_many.num_threads = 5000;
  EXPECT_EQ(mie_session_create(pkg, &too_many, &s), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(mie_last_error()), "package '" + path + "': num_threads 5000 exceeds the limit of 1024");
  EXPECT_EQ(s, nullptr);
  ASSERT_EQ(mie_session_create(pkg, nullptr, &s), MIE_OK) << mie_last_error();  // NULL options: defaults
  uint32_t n = 0;
  ASSERT_EQ(mie_session_num_threads(s, &n), MIE_OK);
  EXPECT_GE(n, 1u);
  for (uint32_t threads : {4u, 1u, 2u, 0u}) {
    ASSERT_EQ(mie_session_set_threads(s, threads), MIE_OK) << mie_last_error();
    Io io{int(threads)};
    ASSERT_EQ(mie_session_run(s, io.in, io.out), MIE_OK) << mie_last_error();
    io.check();
  }
  EXPECT_EQ(mie_session_set_threads(s, 5000), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(mie_last_error()), "package '" + path + "': num_threads 5000 exceeds the limit of 1024");
  ASSERT_EQ(mie_session_num_threads(s, &n), MIE_OK);
  EXPECT_EQ(n, 1u);  // still usable, inline
  Io io;
  ASSERT_EQ(mie_session_run(s, io.in, io.out), MIE_OK) << mie_last_error();
  io.check();
  // The session keeps the package alive after close.
  ASSERT_EQ(mie_package_close(pkg), MIE_OK);
  Io io2(7);
  ASSERT_EQ(mie_session_run(s, io2.in, io2.out), MIE_OK) << mie_last_error();
  io2.check();
  EXPECT_EQ(mie_session_destroy(s), MIE_OK);
  EXPECT_EQ(mie_session_destroy(nullptr), MIE_OK);
}

TEST(Session, ConcurrentSessions) {
  const auto weights = test_weights();
  const std::string path = write_package(test_model_writer(weights, kernel_bytes()), "model.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session a, b;
  ASSERT_EQ(a.create(pkg, 2), MIE_OK) << mie_last_error();
  ASSERT_EQ(b.create(pkg, 2), MIE_OK) << mie_last_error();
  auto work = [](mie::Session *s, int seed, bool *ok) {
    *ok = true;
    for (int i = 0; i < 200 && *ok; ++i) {
      Io io(seed + i);
      *ok = s->run(io.in, io.out) == MIE_OK;
      std::vector<float> ry, rr;
      reference(io.x, io.k, &ry, &rr);
      for (size_t j = 0; j < ry.size() && *ok; ++j) *ok = std::fabs(io.y[j] - ry[j]) <= 1e-5f * (1 + std::fabs(ry[j]));
    }
  };
  bool ok_a = false, ok_b = false, ok_c = false;
  std::thread ta(work, &a, 0, &ok_a), tb(work, &b, 1000, &ok_b), tc(work, &a, 2000, &ok_c);  // tc shares a
  ta.join();
  tb.join();
  tc.join();
  EXPECT_TRUE(ok_a);
  EXPECT_TRUE(ok_b);
  EXPECT_TRUE(ok_c);
}

TEST(Session, KernelFailureIsReported) {
  const auto weights = test_weights();
  const std::string path = write_package(test_model_writer(weights, kernel_bytes()), "model.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK);
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK);
  Io io;
  io.k = -1;
  EXPECT_EQ(s.run(io.in, io.out), MIE_ERR_KERNEL);
  EXPECT_EQ(mie::last_error(), "package '" + path + "': target '" + host_target_name() + "': entry 'mie_entry' returned 3");
}

TEST(Session, RunArgumentChecks) {
  const auto weights = test_weights();
  const std::string path = write_package(test_model_writer(weights, kernel_bytes()), "model.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK);
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK);
  const std::string pre = "package '" + path + "': ";
  Io io;
  EXPECT_EQ(s.run(nullptr, io.out), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "inputs array is NULL but the model has 2 input(s)");
  EXPECT_EQ(s.run(io.in, nullptr), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "outputs array is NULL but the model has 2 output(s)");
  io.in[0] = nullptr;
  EXPECT_EQ(s.run(io.in, io.out), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "input 'x': buffer is NULL");
  io.in[0] = reinterpret_cast<const char *>(io.x.data()) + 2;
  EXPECT_EQ(s.run(io.in, io.out), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "input 'x': buffer is not aligned to 4 bytes");
  Io ok;
  ok.out[1] = nullptr;
  EXPECT_EQ(s.run(ok.in, ok.out), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "output 'rowsum': buffer is NULL");
  EXPECT_EQ(mie_session_run(nullptr, ok.in, ok.out), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(mie_last_error(), "mie_session_run: session is NULL");
}

// Session creation failure: status and the message after "package '<path>': ".
std::pair<mie_status, std::string> create_error(const mie::PackageWriter &w, const char *target = nullptr) {
  const std::string path = tmp_path("bad.mie");
  EXPECT_EQ(w.write(path), "");
  mie::Package pkg;
  EXPECT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  mie_status st = s.create(pkg, 1, target);
  EXPECT_FALSE(s);
  std::string msg = mie::last_error();
  const std::string pre = "package '" + path + "': ";
  EXPECT_EQ(msg.compare(0, pre.size(), pre), 0) << msg;
  return {st, msg.substr(std::min(pre.size(), msg.size()))};
}

mie::PackageWriter writer_with(const std::vector<float> &weights, std::vector<mie::PackageTargetSpec> targets) {
  mie::PackageWriter w = test_model_writer(weights, std::move(targets));
  w.set_model("m");
  return w;
}

TEST(Session, MissingEntrySymbol) {
  const auto weights = test_weights();
  auto r = create_error(writer_with(weights, {host_target(noentry_kernel_bytes())}));
  EXPECT_EQ(r.first, MIE_ERR_LOAD);
  EXPECT_EQ(r.second, std::string("target '") + host_target_name() + "': code object does not export entry symbol 'mie_entry'");
}

TEST(Session, CustomEntryName) {
  const auto weights = test_weights();
  auto t = host_target(noentry_kernel_bytes());
  t.entry = "not_the_entry";
  const std::string path = write_package(writer_with(weights, {t}), "custom.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK);
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  Io io;
  EXPECT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
}

TEST(Session, BadCodeObjects) {
  const auto weights = test_weights();
  const std::string t = host_target_name();
  auto r = create_error(writer_with(weights, {host_target({1, 2, 3, 4, 5})}));
  EXPECT_EQ(r.first, MIE_ERR_LOAD);
  EXPECT_EQ(r.second, "target '" + t + "': code object is not an ELF file");
  auto code = kernel_bytes();
  code[18] = 243;  // e_machine = EM_RISCV
  code[19] = 0;
  r = create_error(writer_with(weights, {host_target(code)}));
  EXPECT_EQ(r.second, "target '" + t + "': code object is for riscv but this host is " + host_arch());
  code = kernel_bytes();
  code[16] = 2;  // e_type = ET_EXEC
  r = create_error(writer_with(weights, {host_target(code)}));
  EXPECT_EQ(r.second, "target '" + t + "': code object is not an ELF shared object (e_type 2)");
  // A valid header over garbage: dlopen's own message comes through.
  code = kernel_bytes();
  std::fill(code.begin() + 64, code.end(), uint8_t(0xAB));
  r = create_error(writer_with(weights, {host_target(code)}));
  EXPECT_EQ(r.first, MIE_ERR_LOAD);
  EXPECT_EQ(r.second.rfind("target '" + t + "': cannot load code object: ", 0), 0u) << r.second;
}

TEST(Session, TargetSelection) {
  const auto weights = test_weights();
  const auto code = kernel_bytes();
  auto other = host_target(code);
  other.name = other_target_name();
  other.arch = other_arch();
  mie::PackageTargetSpec gpu;
  gpu.name = "cuda-sm_90";
  gpu.kind = "cuda";
  gpu.arch = "sm_90";
  gpu.host_arch = host_arch();
  gpu.format = "cuda-bundle";  // refused before the driver is looked for: the same message on every machine
  gpu.code = {1};
  auto r = create_error(writer_with(weights, {other, gpu}));
  EXPECT_EQ(r.first, MIE_ERR_UNSUPPORTED);
  EXPECT_EQ(r.second, std::string("no target in this package can run on this host (") + host_arch() + "): '" +
                          other_target_name() + "': built for " + other_arch() + " but this host is " + host_arch() +
                          "; 'cuda-sm_90': unsupported code format 'cuda-bundle' (expected elf-shared-object)");
  r = create_error(writer_with(weights, {host_target(code), gpu}), "cuda-sm_90");
  EXPECT_EQ(r.first, MIE_ERR_UNSUPPORTED);
  EXPECT_EQ(r.second, "target 'cuda-sm_90': unsupported code format 'cuda-bundle' (expected elf-shared-object)");
  r = create_error(writer_with(weights, {host_target(code), gpu}), "foo");
  EXPECT_EQ(r.first, MIE_ERR_NOT_FOUND);
  EXPECT_EQ(r.second, std::string("no target named 'foo' (package has: ") + host_target_name() + ", cuda-sm_90)");
  r = create_error(writer_with(weights, {host_target(code), other}), other_target_name());
  EXPECT_EQ(r.second, std::string("target '") + other_target_name() + "': built for " + other_arch() +
                          " but this host is " + host_arch());
  auto newer = host_target(code);
  newer.abi_version = MIE_KERNEL_ABI_VERSION + 1;
  r = create_error(writer_with(weights, {newer}), host_target_name());
  EXPECT_EQ(r.first, MIE_ERR_UNSUPPORTED);
  EXPECT_EQ(r.second, std::string("target '") + host_target_name() + "': kernel ABI version " +
                          std::to_string(MIE_KERNEL_ABI_VERSION + 1) + " is not supported (this runtime runs 1 to " +
                          std::to_string(MIE_KERNEL_ABI_VERSION) + ")");
  auto unknown = host_target(code);
  unknown.features = "+madeup-feature";
  r = create_error(writer_with(weights, {unknown}));
  EXPECT_EQ(r.second, std::string("no target in this package can run on this host (") + host_arch() + "): '" +
                          host_target_name() + "': needs CPU feature 'madeup-feature' which this runtime cannot check");
}

#if defined(__x86_64__)
// AMX is checked, not assumed: a code object needing it runs where the CPU has it and Linux granted
// this process the tile state, and is refused as missing (never as uncheckable) elsewhere.
TEST(Session, AmxTargetIsCheckedOnThisHost) {
  const auto weights = test_weights();
  auto amx = host_target(kernel_bytes());
  amx.features = "+avx512f,+avx512bf16,+amx-tile,+amx-bf16";
  const bool host_has_amx = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16") &&
                            __builtin_cpu_supports("amx-tile") && __builtin_cpu_supports("amx-bf16");
  if (!host_has_amx) {
    auto r = create_error(writer_with(weights, {amx}));
    EXPECT_EQ(r.first, MIE_ERR_UNSUPPORTED);
    EXPECT_NE(r.second.find("which this host lacks"), std::string::npos) << r.second;
    return;
  }
  const std::string path = write_package(writer_with(weights, {amx}), "amx.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  EXPECT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
}
#endif

struct HookLog {
  std::vector<std::pair<int32_t, int32_t>> calls;  // (kernel, phase)
  static void record(void *self, int32_t kernel, int32_t phase) {
    static_cast<HookLog *>(self)->calls.emplace_back(kernel, phase);
  }
};

TEST(Session, ProfilerHookAndKernelList) {
  const auto weights = test_weights();
  auto target = host_target(kernel_bytes());
  target.kernels = {{"main_k0_mul", {"/mul", "/mul2"}, 128}, {"main_k1_add", {}, 0}};
  const std::string path = write_package(writer_with(weights, {target}), "profiled.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();

  uint32_t n = 0;
  ASSERT_EQ(mie_session_num_kernels(s.get(), &n), MIE_OK);
  ASSERT_EQ(n, 2u);
  mie_kernel_info k0, k1;
  ASSERT_EQ(mie_session_kernel_info(s.get(), 0, &k0), MIE_OK);
  ASSERT_EQ(mie_session_kernel_info(s.get(), 1, &k1), MIE_OK);
  EXPECT_STREQ(k0.name, "main_k0_mul");
  EXPECT_STREQ(k0.nodes, "/mul,/mul2");
  EXPECT_EQ(k0.flops, 128u);
  EXPECT_STREQ(k1.name, "main_k1_add");
  EXPECT_STREQ(k1.nodes, "");
  EXPECT_EQ(k1.flops, 0u);
  EXPECT_EQ(mie_session_kernel_info(s.get(), 2, &k0), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(mie_last_error(), "mie_session_kernel_info: index 2 is out of range (the target has 2 kernels)");

  Io io;
  HookLog log;
  ASSERT_EQ(mie_session_set_profiler(s.get(), &HookLog::record, &log), MIE_OK);
  ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
  io.check();
  const std::vector<std::pair<int32_t, int32_t>> want = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  EXPECT_EQ(log.calls, want);
  // Removed again: runs report nothing.
  ASSERT_EQ(mie_session_set_profiler(s.get(), nullptr, nullptr), MIE_OK);
  ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
  EXPECT_EQ(log.calls.size(), 4u);
}

TEST(Session, PoisonDeadBuffers) {
  // The test kernel writes the arena's 512 bytes in kernel 0 and reads them in kernel 1.
  const auto weights = test_weights();
  auto run_poisoned = [&](std::vector<std::pair<uint64_t, uint64_t>> dead0,
                          std::vector<std::pair<uint64_t, uint64_t>> dead1, const std::string &name, Io *io,
                          HookLog *log) {
    auto target = host_target(kernel_bytes());
    target.kernels = {{"main_k0_mul", {}, 0, std::move(dead0)}, {"main_k1_add", {}, 0, std::move(dead1)}};
    const std::string path = write_package(writer_with(weights, {target}), name);
    mie::Package pkg;
    EXPECT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
    mie::Session s;
    EXPECT_EQ(s.create(pkg, 2), MIE_OK) << mie_last_error();
    EXPECT_EQ(mie_session_set_poison_dead_buffers(s.get(), 1), MIE_OK) << mie_last_error();
    if (log) EXPECT_EQ(mie_session_set_profiler(s.get(), &HookLog::record, log), MIE_OK);
    EXPECT_EQ(s.run(io->in, io->out), MIE_OK) << mie_last_error();
  };
  // The right plan: the scratch dies at kernel 1. Outputs are exact, and a profiler still sees every call.
  Io right;
  HookLog log;
  run_poisoned({}, {{0, 512}}, "right.mie", &right, &log);
  right.check();
  const std::vector<std::pair<int32_t, int32_t>> want = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  EXPECT_EQ(log.calls, want);
  // A wrong plan declaring the scratch dead after kernel 0: kernel 1 reads NaN, every output is NaN.
  Io wrong;
  run_poisoned({{0, 512}}, {}, "wrong.mie", &wrong, nullptr);
  for (float v : wrong.y) EXPECT_TRUE(std::isnan(v));
  for (float v : wrong.rowsum) EXPECT_TRUE(std::isnan(v));
  // Half of it wrong: exactly the rows in the dead bytes turn NaN.
  Io half;
  run_poisoned({{256, 256}}, {{0, 256}}, "half.mie", &half, nullptr);
  EXPECT_FALSE(std::isnan(half.rowsum[0]));
  EXPECT_TRUE(std::isnan(half.rowsum[1]));
}

TEST(Session, PoisonNeedsDeadRanges) {
  // A package listing no dead bytes (an older compiler) cannot be checked: refused, not silently ignored.
  const auto weights = test_weights();
  auto target = host_target(kernel_bytes());
  target.kernels = {{"main_k0_mul", {}, 0}, {"main_k1_add", {}, 0}};
  const std::string path = write_package(writer_with(weights, {target}), "nodead.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  EXPECT_EQ(mie_session_set_poison_dead_buffers(s.get(), 1), MIE_ERR_UNSUPPORTED);
  EXPECT_NE(std::string(mie_last_error()).find("lists no dead buffers"), std::string::npos) << mie_last_error();
  EXPECT_EQ(mie_session_set_poison_dead_buffers(s.get(), 0), MIE_OK);
  EXPECT_EQ(mie_session_set_poison_dead_buffers(nullptr, 1), MIE_ERR_INVALID_ARGUMENT);
  // Dead bytes outside the arena never make it into a package.
  target.kernels = {{"main_k0_mul", {}, 0, {{500, 64}}}};
  const std::string refused = writer_with(weights, {target}).write(tmp_path("outside.mie"));
  EXPECT_NE(refused.find("kernel 'main_k0_mul': dead bytes [500, +64) lie outside the arena"), std::string::npos)
      << refused;
}

TEST(Session, ProfilerNeedsAbi2) {
  const auto weights = test_weights();
  auto target = host_target(kernel_bytes());
  target.abi_version = 1;  // code from before the hook: still runs, cannot be profiled
  const std::string path = write_package(writer_with(weights, {target}), "abi1.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  Io io;
  ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
  uint32_t n = 7;
  ASSERT_EQ(mie_session_num_kernels(s.get(), &n), MIE_OK);
  EXPECT_EQ(n, 0u);
  HookLog log;
  EXPECT_EQ(mie_session_set_profiler(s.get(), &HookLog::record, &log), MIE_ERR_UNSUPPORTED);
  EXPECT_EQ(std::string(mie_last_error()), "package '" + path + "': target '" + host_target_name() +
                                               "' was compiled for kernel ABI 1, which has no profile hooks "
                                               "(recompile the model)");
  EXPECT_EQ(mie_session_set_profiler(nullptr, nullptr, nullptr), MIE_ERR_INVALID_ARGUMENT);
}

TEST(Session, PerTargetWeights) {
  // Two targets of the same code: "plain" reads the shared weights, "doubled" its own (2x), as an AVX-512 and
  // an AVX2 build with differently packed weights would.
  const auto weights = test_weights();
  std::vector<float> doubled(weights.size());
  for (size_t i = 0; i < weights.size(); ++i) doubled[i] = 2 * weights[i];
  auto plain = host_target(kernel_bytes());
  plain.name = "plain";
  auto twice = host_target(kernel_bytes());
  twice.name = "doubled";
  twice.own_weights = true;
  twice.weights = reinterpret_cast<const uint8_t *>(doubled.data());
  twice.weights_size = doubled.size() * sizeof(float);
  const std::string path = write_package(writer_with(weights, {plain, twice}), "per_target_weights.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  const char *json = nullptr;
  size_t json_size = 0;
  ASSERT_EQ(mie_package_manifest_json(pkg.get(), &json, &json_size), MIE_OK);
  EXPECT_NE(std::string(json, json_size).find("\"format_version\": 2"), std::string::npos);
  for (const char *name : {"plain", "doubled"}) {
    mie::Session s;
    ASSERT_EQ(s.create(pkg, 1, name), MIE_OK) << mie_last_error();
    Io io;
    ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
    const float scale = std::string(name) == "doubled" ? 2.0f : 1.0f;
    for (int c = 0; c < kCols; ++c)
      ASSERT_NEAR(io.y[c], io.x[c] * scale * weights[c] + float(io.k), 1e-4f) << name << " y[" << c << "]";
  }
  // Only packages that need them are format 2.
  const std::string v1 = write_package(writer_with(weights, {plain}), "shared_weights.mie");
  mie::Package pkg1;
  ASSERT_EQ(pkg1.open(v1.c_str()), MIE_OK) << mie_last_error();
  ASSERT_EQ(mie_package_manifest_json(pkg1.get(), &json, &json_size), MIE_OK);
  EXPECT_NE(std::string(json, json_size).find("\"format_version\": 1"), std::string::npos);
}

TEST(Session, PrefersMostSpecializedTarget) {
  const auto weights = test_weights();
  const auto code = kernel_bytes();
  auto plain = host_target(code);
  plain.name = "plain";
#if defined(__x86_64__)
  const char *always = "+sse2,+cx16";  // every x86-64 CPU that can run the tests has these
#else
  const char *always = "+neon,+fp-armv8";
#endif
  auto special = host_target(code);
  special.name = "special";
  special.features = always;
  auto unknown = host_target(code);
  unknown.name = "unknown";
  unknown.features = "+madeup-feature,+a,+b,+c";
  const std::string path = write_package(writer_with(weights, {plain, special, unknown}), "multi.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK);
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  EXPECT_EQ(s.target(), "special");
  // Explicitly asking for a target with features this runtime cannot check is allowed.
  ASSERT_EQ(s.create(pkg, 1, "unknown"), MIE_OK) << mie_last_error();
  EXPECT_EQ(s.target(), "unknown");
  Io io;
  ASSERT_EQ(s.run(io.in, io.out), MIE_OK);
  io.check();
}

TEST(CodeLoader, TempFileFallbackLeavesNothingBehind) {
  const auto code = kernel_bytes();
  const std::string dir = std::string(MIE_TEST_TMP) + "/fallback";
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  const char *old_tmp = std::getenv("TMPDIR");
  const std::string saved = old_tmp ? old_tmp : "";
  setenv("TMPDIR", dir.c_str(), 1);
  setenv("MIE_RT_DISABLE_MEMFD", "1", 1);
  {
    mie::rt::LoadedCode loaded;
    std::string error;
    ASSERT_EQ(loaded.load(code.data(), code.size(), "test", "mie_entry", &error), MIE_OK) << error;
    EXPECT_FALSE(loaded.used_memfd());
    EXPECT_NE(loaded.entry(), nullptr);
    DIR *d = opendir(dir.c_str());
    ASSERT_NE(d, nullptr);
    int files = 0;
    while (dirent *e = readdir(d)) files += e->d_name[0] != '.';
    closedir(d);
    EXPECT_EQ(files, 0);  // unlinked right after dlopen
  }
  unsetenv("MIE_RT_DISABLE_MEMFD");
  if (old_tmp) setenv("TMPDIR", saved.c_str(), 1); else unsetenv("TMPDIR");
  mie::rt::LoadedCode loaded;
  std::string error;
  ASSERT_EQ(loaded.load(code.data(), code.size(), "test", "mie_entry", &error), MIE_OK) << error;
  EXPECT_TRUE(loaded.used_memfd());
}

TEST(CodeLoader, SessionWorksWithoutMemfd) {
  setenv("MIE_RT_DISABLE_MEMFD", "1", 1);
  const auto weights = test_weights();
  const std::string path = write_package(test_model_writer(weights, kernel_bytes()), "model.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK);
  mie::Session s;
  mie_status st = s.create(pkg, 2);
  unsetenv("MIE_RT_DISABLE_MEMFD");
  ASSERT_EQ(st, MIE_OK) << mie_last_error();
  Io io;
  ASSERT_EQ(s.run(io.in, io.out), MIE_OK);
  io.check();
}

TEST(CApi, Misc) {
  EXPECT_STREQ(mie_runtime_version(), MIE_RT_VERSION_STRING);
  EXPECT_STREQ(mie_status_string(MIE_ERR_KERNEL), "kernel error");
  EXPECT_STREQ(mie_dtype_name(MIE_DTYPE_BF16), "bf16");
  EXPECT_STREQ(mie_dtype_name(mie_dtype(99)), "invalid");
  EXPECT_EQ(mie_dtype_size(MIE_DTYPE_I64), 8u);
  EXPECT_EQ(mie_dtype_size(MIE_DTYPE_BOOL), 1u);
  // The 8-bit and 4-bit floats and 4-bit and 2-bit integers: one byte per element in buffers.
  EXPECT_STREQ(mie_dtype_name(MIE_DTYPE_F8E4M3FN), "f8e4m3fn");
  EXPECT_STREQ(mie_dtype_name(MIE_DTYPE_F8E8M0), "f8e8m0");
  EXPECT_STREQ(mie_dtype_name(MIE_DTYPE_U2), "u2");
  EXPECT_STREQ(mie_dtype_name(mie_dtype(MIE_DTYPE_LAST + 1)), "invalid");
  EXPECT_EQ(mie_dtype_size(MIE_DTYPE_I4), 1u);
  EXPECT_EQ(mie_dtype_size(MIE_DTYPE_F4E2M1), 1u);
  EXPECT_EQ(mie_session_options_init(nullptr), MIE_ERR_INVALID_ARGUMENT);
  mie_session *s = nullptr;
  EXPECT_EQ(mie_session_create(nullptr, nullptr, &s), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(mie_last_error(), "mie_session_create: package is NULL");
}

}  // namespace
