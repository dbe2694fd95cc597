// cuda targets: the manifest rules, target selection and its reasons, and sessions running the cuda test model
// (kernels/cuda_test_kernel.c) through the fake driver (kernels/fake_cuda_driver.c, loaded as
// MIE_CUDA_DRIVER) and, where there is one, a real GPU (CudaGpu.*; skipped with the reason elsewhere).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <algorithm>

#include "core/format.h"
#include "core/package.h"
#include "core/sha256.h"
#include "cuda/cuda_driver.h"
#include "mie/mie_rt.h"
#include "mie/mie_rt.hpp"
#include "test_util.h"

using namespace mie::test;

namespace {

// The fake driver, with its defaults (one sm_90 device, nothing failing).
struct FakeDriver : ScopedEnv {
  explicit FakeDriver(int sm = 90, int devices = 1) {
    set("MIE_CUDA_DRIVER", MIE_TEST_FAKE_CUDA);
    set("MIE_FAKE_CUDA_SM", std::to_string(sm));
    set("MIE_FAKE_CUDA_DEVICES", std::to_string(devices));
    unset("MIE_FAKE_CUDA_FAIL");
    unset("MIE_CUDA_GRAPHS");
    unset("MIE_CUDA_DEVICE");
  }
};

struct FakeStats {
  int64_t live_allocations, primary_ctx_refs, kernel_launches, graph_launches, graphs_instantiated, modules_loaded,
      htod_copies, dtoh_copies;
};

FakeStats fake_stats() {
  FakeStats s{};
  // The same object the runtime loads (dlopen of the same path); kept loaded so that its counters are the
  // ones the runtime's calls change, whichever of the two loads it first.
  static void *h = dlopen(MIE_TEST_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(h, nullptr) << "cannot load the fake driver: " << dlerror();
  if (!h) return s;
  auto fn = reinterpret_cast<void (*)(int64_t *)>(dlsym(h, "mie_fake_cuda_stats"));
  EXPECT_NE(fn, nullptr);
  int64_t words[8] = {};
  if (fn) fn(words);
  static_assert(sizeof(FakeStats) == sizeof words, "the fake's 8 counters");
  std::memcpy(&s, words, sizeof s);
  return s;
}

std::string write_package(std::vector<mie::PackageTargetSpec> targets, const std::vector<float> &weights,
                          const std::string &name = "cuda.mie") {
  const std::string path = tmp_path(name);
  EXPECT_EQ(test_model_writer(weights, std::move(targets)).write(path), "");
  return path;
}

// Why target `index` cannot run here ("" when it can).
std::string why_not(const mie::Package &pkg, uint32_t index) {
  int32_t runnable = -1;
  const char *why = nullptr;
  EXPECT_EQ(mie_package_target_check(pkg.get(), index, &runnable, &why), MIE_OK) << mie_last_error();
  EXPECT_EQ(runnable, why && why[0] ? 0 : 1);
  return why ? why : "(null)";
}

struct Io {
  std::vector<float> x = std::vector<float>(kRows * kCols);
  int32_t k;
  std::vector<float> y = std::vector<float>(kRows * kCols, -1.0f), rowsum = std::vector<float>(kRows, -1.0f);
  const void *in[2];
  void *out[2];
  explicit Io(int seed) : k(seed % 7) {
    for (size_t i = 0; i < x.size(); ++i) x[i] = float((int(i) * 37 + seed * 11) % 101) / 10.0f - 5.0f;
    in[0] = x.data();
    in[1] = &k;
    out[0] = y.data();
    out[1] = rowsum.data();
  }
  void check() const {
    std::vector<float> ry, rr;
    reference(x, k, &ry, &rr);
    for (size_t i = 0; i < ry.size(); ++i) ASSERT_NEAR(y[i], ry[i], 1e-5f * (1 + std::fabs(ry[i]))) << "y[" << i << "]";
    for (size_t i = 0; i < rr.size(); ++i)
      ASSERT_NEAR(rowsum[i], rr[i], 1e-4f * (1 + std::fabs(rr[i]))) << "rowsum[" << i << "]";
  }
};

const std::string kNoDriver = "/nonexistent/libcuda.so.1";

TEST(CudaTargets, NoDriverFallsBackToTheCpuTargetAndSaysWhy) {
  ScopedEnv env;
  env.set("MIE_CUDA_DRIVER", kNoDriver);
  const auto weights = test_weights();
  const std::string path = write_package({cuda_target(cuda_kernel_bytes()), host_target(kernel_bytes())}, weights);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  const std::string why = why_not(pkg, 0);
  EXPECT_EQ(why.rfind("no CUDA driver (" + kNoDriver + ": ", 0), 0u) << why;
  EXPECT_NE(why.find("No such file or directory"), std::string::npos) << why;
  EXPECT_EQ(why_not(pkg, 1), "");
  EXPECT_EQ(pkg.target(0).runnable_here, 0);
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  EXPECT_EQ(s.target(), host_target_name());
  const char *device = nullptr;
  ASSERT_EQ(mie_session_device(s.get(), &device), MIE_OK);
  EXPECT_STREQ(device, "cpu");
  Io io(3);
  ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
  io.check();
}

TEST(CudaTargets, OnlyACudaTargetAndNoDriverIsAClearError) {
  ScopedEnv env;
  env.set("MIE_CUDA_DRIVER", kNoDriver);
  const auto weights = test_weights();
  const std::string path = write_package({cuda_target(cuda_kernel_bytes())}, weights);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  const std::string pre = "package '" + path + "': ";
  mie::Session s;
  EXPECT_EQ(s.create(pkg, 1), MIE_ERR_UNSUPPORTED);
  std::string msg = mie::last_error();
  const std::string auto_pre = pre + "no target in this package can run on this host (" + host_arch() +
                               "): 'cuda-sm_90': no CUDA driver (" + kNoDriver + ": ";
  EXPECT_EQ(msg.rfind(auto_pre, 0), 0u) << msg;
  EXPECT_EQ(s.create(pkg, 1, "cuda-sm_90"), MIE_ERR_UNSUPPORTED);
  msg = mie::last_error();
  EXPECT_EQ(msg.rfind(pre + "target 'cuda-sm_90': no CUDA driver (" + kNoDriver + ": ", 0), 0u) << msg;
  uint64_t arena = 0;
  EXPECT_EQ(mie_package_arena_bytes(pkg.get(), nullptr, &arena), MIE_ERR_UNSUPPORTED);
}

TEST(CudaTargets, DeviceChecks) {
  const auto weights = test_weights();
  const std::string path = write_package({cuda_target(cuda_kernel_bytes()), host_target(kernel_bytes())}, weights);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  {
    FakeDriver fake(90, 0);
    EXPECT_EQ(why_not(pkg, 0), "no CUDA device");
    mie::Session s;
    EXPECT_EQ(s.create(pkg, 1, "cuda-sm_90"), MIE_ERR_UNSUPPORTED);
    EXPECT_EQ(mie::last_error(), "package '" + path + "': target 'cuda-sm_90': no CUDA device");
    ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
    EXPECT_EQ(s.target(), host_target_name());
  }
  {
    FakeDriver fake(80);
    EXPECT_EQ(why_not(pkg, 0), "device sm_80 is older than the package's sm_90");
    mie::Session s;
    EXPECT_EQ(s.create(pkg, 1, "cuda-sm_90"), MIE_ERR_UNSUPPORTED);
    EXPECT_EQ(mie::last_error(), "package '" + path + "': target 'cuda-sm_90': device sm_80 is older than the package's sm_90");
  }
  {
    FakeDriver fake(90);
    fake.set("MIE_CUDA_DEVICE", "3");
    EXPECT_EQ(why_not(pkg, 0), "MIE_CUDA_DEVICE='3' is not a device ordinal (this machine has 1 CUDA device)");
    fake.set("MIE_FAKE_CUDA_DEVICES", "4");
    EXPECT_EQ(why_not(pkg, 0), "");
    fake.unset("MIE_CUDA_DEVICE");
    fake.set("MIE_FAKE_CUDA_FAIL", "cuInit");
    EXPECT_EQ(why_not(pkg, 0), "the CUDA driver does not initialize: cuInit: CUDA_ERROR_UNKNOWN (unknown error)");
  }
}

TEST(CudaTargets, TargetRulesBeforeTheDriver) {
  FakeDriver fake(100);
  const auto weights = test_weights();
  const auto code = cuda_kernel_bytes();
  auto other_host = cuda_target(code);
  other_host.host_arch = other_arch();
  auto abi3 = cuda_target(code, "sm_80");
  abi3.abi_version = 5;  // rewritten to 3 below: the writer refuses to write it
  auto exact = cuda_target(code, "sm_90a");
  auto bundle = cuda_target(code, "sm_75");
  bundle.format = "cuda-bundle";
  std::vector<uint8_t> bytes;
  ASSERT_EQ(test_model_writer(weights, {other_host, abi3, exact, bundle}).serialize(&bytes), "");
  mie::rt::Header h;
  mie::rt::decode_header(bytes.data(), &h);
  std::string manifest(bytes.begin() + long(h.manifest_offset), bytes.begin() + long(h.manifest_offset + h.manifest_size));
  manifest = replace(manifest, "\"abi_version\": 5", "\"abi_version\": 3");
  std::copy(manifest.begin(), manifest.end(), bytes.begin() + long(h.manifest_offset));
  mie::rt::sha256(manifest.data(), manifest.size(), h.manifest_sha256);
  mie::rt::encode_header(h, bytes.data());
  const std::string path = tmp_path("rules.mie");
  write_file(path, bytes);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  EXPECT_EQ(why_not(pkg, 0), std::string("host code built for ") + other_arch() + " but this host is " + host_arch());
  EXPECT_EQ(why_not(pkg, 1), "kernel ABI version 3 is not supported for cuda targets (this runtime runs 4 to " +
                                std::to_string(MIE_KERNEL_ABI_VERSION) + ")");
  EXPECT_EQ(why_not(pkg, 2), "device sm_100 cannot run code for exactly sm_90a");
  EXPECT_EQ(why_not(pkg, 3), "unsupported code format 'cuda-bundle' (expected elf-shared-object)");
}

TEST(CudaTargets, AutomaticSelectionPrefersTheHighestRunnableSm) {
  const auto weights = test_weights();
  const auto code = cuda_kernel_bytes();
  const std::string path =
      write_package({host_target(kernel_bytes()), cuda_target(code, "sm_80"), cuda_target(code, "sm_90")}, weights);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  for (auto [sm, want] : {std::pair<int, const char *>{90, "cuda-sm_90"}, {86, "cuda-sm_80"}, {100, "cuda-sm_90"}}) {
    FakeDriver fake(sm);
    mie::Session s;
    ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
    EXPECT_EQ(s.target(), want) << "device sm_" << sm;
    Io io(sm);
    ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
    io.check();
  }
  FakeDriver fake(75);
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  EXPECT_EQ(s.target(), host_target_name());
}

TEST(CudaSession, RunsOnTheFakeDriverAndReplaysAGraph) {
  FakeDriver fake;
  const auto weights = test_weights();
  const std::string path = write_package({host_target(kernel_bytes()), cuda_target(cuda_kernel_bytes())}, weights);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  const FakeStats before = fake_stats();
  {
    mie::Session s;
    ASSERT_EQ(s.create(pkg), MIE_OK) << mie_last_error();
    EXPECT_EQ(s.target(), "cuda-sm_90");
    EXPECT_EQ(s.num_threads(), 1u);  // the host code only launches
    const char *device = nullptr;
    ASSERT_EQ(mie_session_device(s.get(), &device), MIE_OK);
    EXPECT_STREQ(device, "Fake GPU 0, sm_90, device 0");
    FakeStats st = fake_stats();
    // Arena, weights, two inputs and two outputs; the weights uploaded once; one module; one context.
    EXPECT_EQ(st.live_allocations - before.live_allocations, 6);
    EXPECT_EQ(st.htod_copies - before.htod_copies, 1);
    EXPECT_EQ(st.modules_loaded - before.modules_loaded, 1);
    EXPECT_EQ(st.primary_ctx_refs - before.primary_ctx_refs, 1);
    for (int rep = 0; rep < 5; ++rep) {
      Io io(rep);
      ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
      io.check();
    }
    st = fake_stats();
    // Run 1 calls the entry directly, run 2 captures a graph and launches it, runs 3 to 5 launch it again.
    EXPECT_EQ(st.graph_launches - before.graph_launches, 4);
    EXPECT_EQ(st.kernel_launches - before.kernel_launches, 5 * 3);
    EXPECT_EQ(st.htod_copies - before.htod_copies, 1 + 5 * 2);
    EXPECT_EQ(st.dtoh_copies - before.dtoh_copies, 5 * 2);
    EXPECT_GT(s.last_run_ns(), 0u);
  }
  const FakeStats after = fake_stats();  // everything handed back
  EXPECT_EQ(after.live_allocations, before.live_allocations);
  EXPECT_EQ(after.modules_loaded, before.modules_loaded);
  EXPECT_EQ(after.primary_ctx_refs, before.primary_ctx_refs);
  EXPECT_EQ(after.graphs_instantiated, before.graphs_instantiated);
}

TEST(CudaSession, GraphsCanBeTurnedOffOrFailToCapture) {
  const auto weights = test_weights();
  const std::string path = write_package({cuda_target(cuda_kernel_bytes())}, weights);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  // Off by request, refused by CUDA, or a launch CUDA refuses only under capture: the entry runs directly.
  for (const char *how : {"MIE_CUDA_GRAPHS=0", "cuStreamBeginCapture", "cuLaunchKernel-capturing"}) {
    FakeDriver fake;
    if (std::strcmp(how, "MIE_CUDA_GRAPHS=0") == 0) fake.set("MIE_CUDA_GRAPHS", "0");
    else fake.set("MIE_FAKE_CUDA_FAIL", how);
    mie::Session s;
    ASSERT_EQ(s.create(pkg), MIE_OK) << mie_last_error();
    const FakeStats before = fake_stats();
    for (int rep = 0; rep < 3; ++rep) {
      Io io(rep + 10);
      ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << how << ": " << mie_last_error();
      io.check();
    }
    const FakeStats st = fake_stats();
    EXPECT_EQ(st.graph_launches, before.graph_launches) << how;
    EXPECT_EQ(st.graphs_instantiated, before.graphs_instantiated) << how;
    EXPECT_EQ(st.kernel_launches - before.kernel_launches, 3 * 3) << how;
  }
}

TEST(CudaSession, CudaErrorsAreReportedWithTheirNames) {
  const auto weights = test_weights();
  const std::string path = write_package({cuda_target(cuda_kernel_bytes())}, weights);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  const std::string pre = "package '" + path + "': target 'cuda-sm_90': ";
  FakeDriver fake;
  {
    mie::Session s;
    ASSERT_EQ(s.create(pkg), MIE_OK) << mie_last_error();
    fake.set("MIE_FAKE_CUDA_FAIL", "cuLaunchKernel");
    Io io(1);
    EXPECT_EQ(s.run(io.in, io.out), MIE_ERR_KERNEL);
    EXPECT_EQ(mie::last_error(),
              pre + "entry 'mie_entry' returned 7: cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)");
    fake.set("MIE_FAKE_CUDA_FAIL", "cuStreamSynchronize");
    EXPECT_EQ(s.run(io.in, io.out), MIE_ERR_KERNEL);
    EXPECT_EQ(mie::last_error(),
              pre + "cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)");
    fake.set("MIE_FAKE_CUDA_FAIL", "cuMemcpyHtoDAsync");
    EXPECT_EQ(s.run(io.in, io.out), MIE_ERR_KERNEL);
    EXPECT_EQ(mie::last_error(), pre + "cuMemcpyHtoDAsync: CUDA_ERROR_UNKNOWN (unknown error)");
    fake.unset("MIE_FAKE_CUDA_FAIL");
    ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();  // the session is still usable
    io.check();
    // Neither profiling nor poisoning applies to device code.
    EXPECT_EQ(mie_session_set_profiler(s.get(), [](void *, int32_t, int32_t) {}, nullptr), MIE_ERR_UNSUPPORTED);
    EXPECT_EQ(std::string(mie_last_error()),
              pre + "per-kernel profiling is not supported for cuda targets (kernels run asynchronously)");
    EXPECT_EQ(mie_session_set_poison_dead_buffers(s.get(), 1), MIE_ERR_UNSUPPORTED);
    EXPECT_EQ(std::string(mie_last_error()),
              pre + "dead-buffer poisoning is not supported for cuda targets (the arena is device memory)");
  }
  for (const char *fn : {"cuMemAlloc", "cuModuleLoadDataEx", "cuDevicePrimaryCtxRetain"}) {
    fake.set("MIE_FAKE_CUDA_FAIL", fn);
    mie::Session s;
    EXPECT_NE(s.create(pkg), MIE_OK) << fn;
    const std::string msg = mie::last_error();
    if (std::strcmp(fn, "cuMemAlloc") == 0)
      EXPECT_EQ(msg, pre + "cannot allocate 512 bytes of device memory for the arena of target 'cuda-sm_90': "
                           "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
    else if (std::strcmp(fn, "cuModuleLoadDataEx") == 0)
      EXPECT_EQ(msg, pre + "cannot load GPU module 0 (PTX) on Fake GPU 0 (sm_90): cuModuleLoadDataEx: "
                           "CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid): ptxas fatal   : (fake driver) "
                           "not PTX text this driver accepts");
    else
      EXPECT_EQ(msg, pre + "cuDevicePrimaryCtxRetain: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
  }
  fake.unset("MIE_FAKE_CUDA_FAIL");
  const FakeStats st = fake_stats();
  EXPECT_EQ(st.live_allocations, 0);  // failed creations leave nothing behind
  EXPECT_EQ(st.primary_ctx_refs, 0);
  EXPECT_EQ(st.modules_loaded, 0);
}

TEST(CudaSession, HostCodeObjectProblems) {
  FakeDriver fake;
  const auto weights = test_weights();
  const std::string pre = "target 'cuda-sm_90': ";
  auto create = [&](const std::vector<uint8_t> &code, mie_status want) {
    const std::string path = write_package({cuda_target(code)}, weights, "host.mie");
    mie::Package pkg;
    EXPECT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
    mie::Session s;
    EXPECT_EQ(s.create(pkg), want);
    std::string msg = mie::last_error();
    const std::string p = "package '" + path + "': ";
    return msg.rfind(p, 0) == 0 ? msg.substr(p.size()) : msg;
  };
  EXPECT_EQ(create(read_file(MIE_TEST_CUDA_KERNEL_NOMODULES), MIE_ERR_INVALID_PACKAGE),
            pre + "the host code object exports no GPU module table 'mie_gpu_modules'");
  // A cpu code object: its entry and ABI table pass, but it has no GPU modules.
  EXPECT_EQ(create(kernel_bytes(), MIE_ERR_INVALID_PACKAGE),
            pre + "the host code object exports no GPU module table 'mie_gpu_modules'");
  {
    const std::string path = write_package({cuda_target(read_file(MIE_TEST_CUDA_KERNEL_MISSINGFN))}, weights);
    mie::Package pkg;
    ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
    mie::Session s;
    ASSERT_EQ(s.create(pkg), MIE_OK) << mie_last_error();
    Io io(2);
    EXPECT_EQ(s.run(io.in, io.out), MIE_ERR_KERNEL);
    EXPECT_EQ(mie::last_error(), "package '" + path + "': " + pre +
                                     "entry 'mie_entry' returned 5: cuModuleGetFunction(module 0, 'mie_test_missing'): "
                                     "CUDA_ERROR_NOT_FOUND (named symbol not found)");
  }
  // The ABI table is checked as for cpu targets.
  auto wrong_arena = cuda_target(cuda_kernel_bytes());
  wrong_arena.arena_bytes = 64;
  const std::string path = write_package({wrong_arena}, weights, "arena.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  EXPECT_EQ(s.create(pkg), MIE_ERR_INVALID_PACKAGE);
  EXPECT_EQ(mie::last_error(), "package '" + path + "': " + pre +
                                   "manifest disagrees with the code object: arena_bytes: the code was compiled for "
                                   "512, the manifest says 64");
}

TEST(CudaManifest, MalformedCudaTargetsAreRefused) {
  RawPackage p = raw_package();
  const std::string cpu = std::string("\"kind\": \"cpu\", \"arch\": \"") + host_arch() + "\"";
  auto check = [&](const std::string &target_fields, const std::string &want) {
    RawPackage q = p;
    q.manifest = replace(q.manifest, cpu, target_fields);
    const auto bytes = q.bytes();
    mie::rt::Manifest m;
    std::string error;
    const bool ok = mie::rt::validate_package(bytes.data(), bytes.size(), &m, &error);
    if (want.empty()) {
      EXPECT_TRUE(ok) << error;
      return m;
    }
    EXPECT_FALSE(ok) << target_fields;
    EXPECT_EQ(error, want);
    return m;
  };
  mie::rt::Manifest m = check(std::string("\"kind\": \"cuda\", \"arch\": \"sm_90\", \"host_arch\": \"") + host_arch() + "\"", "");
  ASSERT_EQ(m.targets.size(), 1u);
  EXPECT_EQ(m.targets[0].host_arch, host_arch());
  EXPECT_EQ(m.targets[0].sm, 90);
  EXPECT_FALSE(m.targets[0].sm_exact);
  m = check("\"kind\": \"cuda\", \"arch\": \"sm_100a\", \"host_arch\": \"x86_64\"", "");
  EXPECT_EQ(m.targets[0].sm, 100);
  EXPECT_TRUE(m.targets[0].sm_exact);
  check("\"kind\": \"cuda\", \"arch\": \"sm_90\"", "manifest: targets[0]: missing field 'host_arch'");
  check("\"kind\": \"cuda\", \"arch\": \"sm_90\", \"host_arch\": 64",
        "manifest: targets[0].host_arch: expected a string, got 64");
  check("\"kind\": \"cuda\", \"arch\": \"sm_90\", \"host_arch\": \"\"", "manifest: targets[0].host_arch: must not be empty");
  for (const char *bad : {"gfx90a", "sm_9", "sm_", "sm_x0", "sm_09", "compute_90", "sm_90b", "sm_12345"})
    check(std::string("\"kind\": \"cuda\", \"arch\": \"") + bad + "\", \"host_arch\": \"x86_64\"",
          std::string("manifest: targets[0].arch: expected an SM architecture such as sm_90 for a cuda target, got '") +
              bad + "'");
  // A cpu target ignores host_arch, like any field it does not know.
  check(cpu + ", \"host_arch\": \"riscv\"", "");
}

TEST(CudaManifest, WriterRefusesWhatTheReaderWould) {
  const auto weights = test_weights();
  std::vector<uint8_t> out;
  auto no_host = cuda_target({1});
  no_host.host_arch.clear();
  EXPECT_EQ(test_model_writer(weights, {no_host}).serialize(&out),
            "target 0 ('cuda-sm_90'): a cuda target needs host_arch, the machine of its host code object");
  auto bad_arch = cuda_target({1});
  bad_arch.arch = "ampere";
  EXPECT_EQ(test_model_writer(weights, {bad_arch}).serialize(&out),
            "target 0 ('cuda-sm_90'): arch must be an SM architecture such as sm_90 for a cuda target, not 'ampere'");
  auto old = cuda_target({1});
  old.abi_version = 3;
  EXPECT_EQ(test_model_writer(weights, {old}).serialize(&out),
            "target 0 ('cuda-sm_90'): a cuda target needs kernel ABI 4 or later (its host code calls the mie_gpu_api)");
  auto cpu = host_target({1});
  cpu.host_arch = "x86_64";
  EXPECT_EQ(test_model_writer(weights, {cpu}).serialize(&out),
            std::string("target 0 ('") + host_target_name() + "'): host_arch is for cuda targets only");
  // Round trip: the reader sees what was written.
  ASSERT_EQ(test_model_writer(weights, {cuda_target({1, 2, 3})}).serialize(&out), "");
  mie::rt::Manifest m;
  std::string error;
  ASSERT_TRUE(mie::rt::validate_package(out.data(), out.size(), &m, &error)) << error;
  EXPECT_EQ(m.targets[0].kind, "cuda");
  EXPECT_EQ(m.targets[0].arch, "sm_90");
  EXPECT_EQ(m.targets[0].host_arch, host_arch());
  EXPECT_EQ(m.targets[0].abi_version, 4u);  // the writer's default for cuda targets
}

// The real thing: the same host code object and PTX on the machine's GPU, through the driver the runtime
// loads (libcuda.so.1, or MIE_CUDA_DRIVER where the caller set it). Skipped, with the reason, where the
// driver or a device is missing (the reason is what a session would report); scripts/gpu-check.sh fails
// when it is skipped on a machine with a GPU.
TEST(CudaGpu, RunsTheTestModelOnTheDevice) {
  ScopedEnv env;
  env.unset("MIE_CUDA_GRAPHS");
  std::string why;
  const mie::rt::cuda::Driver *d = mie::rt::cuda::load_driver(&why);
  mie::rt::cuda::Device dev;
  if (!d || !mie::rt::cuda::find_device(*d, &dev, &why)) GTEST_SKIP() << "no GPU to run on: " << why;
  const auto weights = test_weights();
  const std::string sm = "sm_" + std::to_string(dev.sm >= 90 ? 90 : 80);
  if (dev.sm < 80) GTEST_SKIP() << "device sm_" << dev.sm << " is older than the test's sm_80";
  const std::string path = write_package({host_target(kernel_bytes()), cuda_target(cuda_kernel_bytes(), sm)}, weights);
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg), MIE_OK) << mie_last_error();
  EXPECT_EQ(s.target(), "cuda-" + sm);
  for (int rep = 0; rep < 6; ++rep) {  // direct, captured, then graph replays with new inputs
    Io io(rep * 5 + 1);
    ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
    io.check();
  }
  // A second session at the same time shares the primary context.
  mie::Session t;
  ASSERT_EQ(t.create(pkg, 1, ("cuda-" + sm).c_str()), MIE_OK) << mie_last_error();
  Io io(42);
  ASSERT_EQ(t.run(io.in, io.out), MIE_OK) << mie_last_error();
  io.check();
}

}  // namespace
