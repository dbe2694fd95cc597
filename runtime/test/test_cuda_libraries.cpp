// Library calls of gpu api 2 (mie_gpu_api::matmul, ::conv2d): the runtime's cuBLASLt / cuDNN path run with the
// fake driver and fake libcublasLt / libcudnn (kernels/fake_cublaslt.c, kernels/fake_cudnn.c), which compute with
// the libraries' own conventions (column-major products, NCHW convolutions) on host memory. The host code object
// (kernels/cuda_library_kernel.c) stands in for generated code; the outputs are compared with a reference
// computed here in row-major terms, so a wrong mapping of a descriptor onto cuBLASLt or cuDNN shows as wrong
// numbers, and the fakes' call logs show what was planned and called how often. No GPU is involved.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "mie/mie_package_writer.h"
#include "mie/mie_rt.h"
#include "cuda/cuda_driver.h"
#include "cuda/cuda_libraries.h"
#include "mie/mie_rt.hpp"
#include "test_util.h"

using namespace mie::test;

namespace {

constexpr int kWeights = 154;

struct FakeLibraries : ScopedEnv {
  FakeLibraries() {
    set("MIE_CUDA_DRIVER", MIE_TEST_FAKE_CUDA);
    set("MIE_CUBLASLT_LIBRARY", MIE_TEST_FAKE_CUBLASLT);
    set("MIE_CUDNN_LIBRARY", MIE_TEST_FAKE_CUDNN);
    set("MIE_FAKE_CUDA_SM", "90");
    set("MIE_FAKE_CUDA_DEVICES", "1");
    unset("MIE_FAKE_CUDA_FAIL");
    unset("MIE_CUDA_GRAPHS");
    unset("MIE_CUDA_DEVICE");
    clear_log(MIE_TEST_FAKE_CUBLASLT);
    clear_log(MIE_TEST_FAKE_CUDNN);
  }
  static void *library(const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);  // the same object the runtime loads; kept loaded
    EXPECT_NE(h, nullptr) << dlerror();
    return h;
  }
  static void clear_log(const char *path) {
    if (void *h = library(path)) reinterpret_cast<void (*)()>(dlsym(h, "mie_fake_library_log_clear"))();
  }
};

// The lines of a fake library's log that start with `prefix`.
std::vector<std::string> log_lines(const char *path, const std::string &prefix) {
  std::vector<std::string> out;
  void *h = FakeLibraries::library(path);
  if (!h) return out;
  const std::string text = reinterpret_cast<const char *(*)()>(dlsym(h, "mie_fake_library_log"))();
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
    at = end + 1;
  }
  return out;
}

std::vector<float> weights() {
  std::vector<float> w(kWeights);
  for (int i = 0; i < kWeights; ++i) w[size_t(i)] = float((i * 29) % 23) / 23.0f - 0.45f;
  return w;
}

std::string write_package(const std::string &code_path, const std::string &name) {
  mie::PackageWriter w;
  w.set_model("library-calls");
  w.set_precision("fp32");
  w.add_input({"x", "f32", {1, 4, 5, 5}});
  w.add_input({"r", "f32", {2, 2, 3}});
  w.add_output({"y", "f32", {2, 2, 3}});
  w.add_output({"c", "f32", {1, 4, 5, 5}});
  const auto ws = weights();
  w.set_weights(ws.data(), ws.size() * sizeof(float));
  mie::PackageTargetSpec t;
  t.name = "cuda-sm_90";
  t.kind = "cuda";
  t.arch = "sm_90";
  t.host_arch = host_arch();
  t.arena_bytes = 400;
  t.code = read_file(code_path);
  w.add_target(std::move(t));
  const std::string path = tmp_path(name);
  EXPECT_EQ(w.write(path), "");
  return path;
}

// The model of cuda_library_kernel.c in row-major terms.
void reference(const std::vector<float> &x, const std::vector<float> &r, std::vector<float> *y, std::vector<float> *c) {
  const auto ws = weights();
  const float *w = ws.data(), *cb = w + 72, *b = w + 76, *mb = w + 151;
  std::vector<float> conv(100), t(100);
  for (int k = 0; k < 4; ++k)
    for (int oy = 0; oy < 5; ++oy)
      for (int ox = 0; ox < 5; ++ox) {
        double s = 0;
        const int g = k / 2;
        for (int ci = 0; ci < 2; ++ci)
          for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx) {
              const int iy = oy - 1 + dy, ix = ox - 1 + dx;
              if (iy < 0 || iy > 4 || ix < 0 || ix > 4) continue;
              s += double(x[size_t(((g * 2 + ci) * 5 + iy) * 5 + ix)]) * w[((k * 2 + ci) * 3 + dy) * 3 + dx];
            }
        conv[size_t((k * 5 + oy) * 5 + ox)] = float(s);
      }
  c->assign(100, 0);
  for (int i = 0; i < 100; ++i) {
    (*c)[size_t(i)] = std::max(0.0f, conv[size_t(i)] + cb[i / 25]);
    t[size_t(i)] = conv[size_t(i)] + (*c)[size_t(i)];
  }
  y->assign(12, 0);
  for (int bi = 0; bi < 2; ++bi)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        double s = 0;
        for (int p = 0; p < 25; ++p) s += double(t[size_t(bi * 50 + i * 25 + p)]) * b[j * 25 + p];
        const float v = 0.5f * float(s) + mb[j] + r[size_t(bi * 6 + i * 3 + j)];
        (*y)[size_t(bi * 6 + i * 3 + j)] = 0.5f * v * (1.0f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
      }
}

struct Io {
  std::vector<float> x = std::vector<float>(100), r = std::vector<float>(12);
  std::vector<float> y = std::vector<float>(12, -7.0f), c = std::vector<float>(100, -7.0f);
  const void *in[2];
  void *out[2];
  explicit Io(int seed) {
    for (size_t i = 0; i < x.size(); ++i) x[i] = float((int(i) * 13 + seed * 7) % 19) / 9.5f - 1.0f;
    for (size_t i = 0; i < r.size(); ++i) r[i] = float(int(i) % 5 - seed % 3) * 0.25f;
    in[0] = x.data();
    in[1] = r.data();
    out[0] = y.data();
    out[1] = c.data();
  }
  void check() const {
    std::vector<float> ry, rc;
    reference(x, r, &ry, &rc);
    for (size_t i = 0; i < rc.size(); ++i) ASSERT_NEAR(c[i], rc[i], 1e-5f * (1 + std::fabs(rc[i]))) << "c[" << i << "]";
    for (size_t i = 0; i < ry.size(); ++i) ASSERT_NEAR(y[i], ry[i], 1e-5f * (1 + std::fabs(ry[i]))) << "y[" << i << "]";
  }
};

TEST(CudaLibraries, ConvolutionsAndProductsRunThroughTheLibrariesAndArePlannedOnce) {
  FakeLibraries env;
  const std::string path = write_package(MIE_TEST_CUDA_LIBRARY_KERNEL, "library.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  const char *device = nullptr;
  ASSERT_EQ(mie_session_device(s.get(), &device), MIE_OK);
  EXPECT_EQ(std::string(device), std::string("Fake GPU 0, sm_90, device 0; cuBLASLt 130000 (") + MIE_TEST_FAKE_CUBLASLT +
                                     "), cuDNN 91900 (" + MIE_TEST_FAKE_CUDNN + ")");
  // Run 1 plans and runs directly, run 2 is captured into a graph and launched, runs 3 and 4 replay it.
  for (int run = 0; run < 4; ++run) {
    Io io(run);
    ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << "run " << run << ": " << mie_last_error();
    io.check();
  }
  // One plan per descriptor, made on the first run.
  const auto heuristics = log_lines(MIE_TEST_FAKE_CUBLASLT, "heuristic");
  ASSERT_EQ(heuristics.size(), 1u);
  EXPECT_EQ(heuristics[0], "heuristic m=3 n=2 k=25 batch=2 max_workspace=33554432");
  const auto algorithms = log_lines(MIE_TEST_FAKE_CUDNN, "algorithms");
  ASSERT_EQ(algorithms.size(), 2u);
  EXPECT_EQ(algorithms[0], "algorithms n=1 c=4 h=5 w=5 k=4 r=3 s=3 groups=2 math=3");
  // Library calls happen on the direct and the captured run only: replays launch the graph.
  const auto matmuls = log_lines(MIE_TEST_FAKE_CUBLASLT, "matmul");
  ASSERT_EQ(matmuls.size(), 2u);
  // Row-major d[2][2x3] = 0.5 t[2][2x25] b^T + ... is column-major d^T = b t^T: cuBLASLt's A is b (transposed,
  // shared by both batch entries), its B is t.
  EXPECT_EQ(matmuls[0],
            "matmul m=3 n=2 k=25 batch=2 transa=1 transb=0 epilogue=36 alpha=0.5 beta=1 lda=25 ldb=25 ldd=3 "
            "strides=0,50,6");
  const auto convs = log_lines(MIE_TEST_FAKE_CUDNN, "conv");
  ASSERT_EQ(convs.size(), 4u);
  EXPECT_EQ(convs[0],
            "conv fused=1 n=1 c=4 h=5 w=5 k=4 r=3 s=3 pad=1,1 stride=1,1 dilation=1,1 groups=2 relu=1 alpha2=0 "
            "algo=0 math=3");
  // An identity activation with a residual: the fused call with the one algorithm cuDNN allows for it.
  EXPECT_EQ(convs[1],
            "conv fused=1 n=1 c=4 h=5 w=5 k=4 r=3 s=3 pad=1,1 stride=1,1 dilation=1,1 groups=2 relu=0 alpha2=1 "
            "algo=1 math=3");
}

TEST(CudaLibraries, GraphsOffCallsTheLibrariesEveryRun) {
  FakeLibraries env;
  env.set("MIE_CUDA_GRAPHS", "0");
  const std::string path = write_package(MIE_TEST_CUDA_LIBRARY_KERNEL, "library_nographs.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  for (int run = 0; run < 3; ++run) {
    Io io(run + 5);
    ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << mie_last_error();
    io.check();
  }
  EXPECT_EQ(log_lines(MIE_TEST_FAKE_CUBLASLT, "matmul").size(), 3u);
  EXPECT_EQ(log_lines(MIE_TEST_FAKE_CUBLASLT, "heuristic").size(), 1u);
  EXPECT_EQ(log_lines(MIE_TEST_FAKE_CUDNN, "conv").size(), 6u);
}

TEST(CudaLibraries, AMissingLibraryFailsTheSessionAndNamesIt) {
  FakeLibraries env;
  env.set("MIE_CUDNN_LIBRARY", "/nonexistent/libcudnn.so.9");
  const std::string path = write_package(MIE_TEST_CUDA_LIBRARY_KERNEL, "library_missing.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  EXPECT_EQ(s.create(pkg, 1), MIE_ERR_UNSUPPORTED);
  const std::string msg = mie::last_error();
  EXPECT_NE(msg.find("target 'cuda-sm_90': its host code calls cuBLASLt and cuDNN: cannot load cuDNN "
                     "(/nonexistent/libcudnn.so.9: "),
            std::string::npos)
      << msg;
}

TEST(CudaLibraries, PackagesThatCallNoLibraryNeedNone) {
  FakeLibraries env;
  env.set("MIE_CUBLASLT_LIBRARY", "/nonexistent/libcublasLt.so.13");
  env.set("MIE_CUDNN_LIBRARY", "/nonexistent/libcudnn.so.9");
  const auto ws = test_weights();
  const std::string path = tmp_path("library_none.mie");
  ASSERT_EQ(test_model_writer(ws, {cuda_target(cuda_kernel_bytes())}).write(path), "");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  const char *device = nullptr;
  ASSERT_EQ(mie_session_device(s.get(), &device), MIE_OK);
  EXPECT_STREQ(device, "Fake GPU 0, sm_90, device 0");
}

// A portable package on a machine with a driver but without the library its cuda target calls: the automatic
// choice falls back on the cpu target and says why; asking for the cuda target gives the error itself.
TEST(CudaLibraries, AutomaticSelectionFallsBackOnTheCpuTarget) {
  FakeLibraries env;
  env.set("MIE_CUBLASLT_LIBRARY", "/nonexistent/libcublasLt.so.13").unset("MIE_TARGET");
  const auto ws = test_weights();
  const std::string path = tmp_path("library_fallback.mie");
  ASSERT_EQ(test_model_writer(ws, {cuda_target(read_file(MIE_TEST_CUDA_KERNEL_LIBRARIES)), host_target(kernel_bytes())})
                .write(path),
            "");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  {
    mie::Session s;
    ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
    EXPECT_EQ(s.target(), host_target_name());
    const char *device = nullptr;
    ASSERT_EQ(mie_session_device(s.get(), &device), MIE_OK);
    EXPECT_EQ(std::string(device).rfind("cpu; cuda target 'cuda-sm_90' did not start: package '" + path +
                                            "': target 'cuda-sm_90': its host code calls cuBLASLt: cannot load "
                                            "cuBLASLt (/nonexistent/libcublasLt.so.13: ",
                                        0),
              0u)
        << device;
  }
  mie::Session s;
  EXPECT_EQ(s.create(pkg, 1, "cuda"), MIE_ERR_UNSUPPORTED);
  EXPECT_NE(mie::last_error().find("calls cuBLASLt: cannot load cuBLASLt"), std::string::npos) << mie::last_error();
  // With the library the cuda target runs.
  env.set("MIE_CUBLASLT_LIBRARY", MIE_TEST_FAKE_CUBLASLT);
  mie::Session t;
  ASSERT_EQ(t.create(pkg, 1), MIE_OK) << mie_last_error();
  EXPECT_EQ(t.target(), "cuda-sm_90");
}

TEST(CudaLibraries, LibraryErrorsAreReported) {
  FakeLibraries env;
  env.set("MIE_FAKE_CUDA_FAIL", "cublasLtCreate");
  const std::string path = write_package(MIE_TEST_CUDA_LIBRARY_KERNEL, "library_fail.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  {
    mie::Session s;
    EXPECT_EQ(s.create(pkg, 1), MIE_ERR_UNSUPPORTED);
    EXPECT_NE(mie::last_error().find("cublasLtCreate: CUBLAS_STATUS_NOT_INITIALIZED"), std::string::npos)
        << mie::last_error();
  }
  // Code that calls a library without declaring it: the call fails and the run says why.
  env.unset("MIE_FAKE_CUDA_FAIL");
  const std::string undeclared = write_package(MIE_TEST_CUDA_LIBRARY_KERNEL_UNDECLARED, "library_undeclared.mie");
  mie::Package pkg2;
  ASSERT_EQ(pkg2.open(undeclared.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg2, 1), MIE_OK) << mie_last_error();
  Io io(1);
  EXPECT_EQ(s.run(io.in, io.out), MIE_ERR_KERNEL);
  EXPECT_NE(mie::last_error().find("conv2d: the host code did not declare that it calls cuDNN (mie_gpu_libraries)"),
            std::string::npos)
      << mie::last_error();
}

// The real thing: the same host code object calling the real cuBLASLt and cuDNN on the machine's GPU (the
// libraries' default sonames, or MIE_CUBLASLT_LIBRARY / MIE_CUDNN_LIBRARY where the caller set them). f32
// products stay f32 (cuBLASLt's CUBLAS_COMPUTE_32F, cuDNN's FMA math), so the host reference holds to 1e-4.
// Skipped, with the reason, where the driver, a device or a library is missing; scripts/gpu-check.sh fails
// when the CudaGpu tests are skipped on a machine with a GPU.
TEST(CudaGpu, LibraryCallsOnTheDevice) {
  ScopedEnv env;
  env.unset("MIE_CUDA_GRAPHS");
  std::string why;
  const mie::rt::cuda::Driver *d = mie::rt::cuda::load_driver(&why);
  mie::rt::cuda::Device dev;
  if (!d || !mie::rt::cuda::find_device(*d, &dev, &why)) GTEST_SKIP() << "no GPU to run on: " << why;
  if (!mie::rt::cuda::load_cublaslt(&why) || !mie::rt::cuda::load_cudnn(&why)) GTEST_SKIP() << why;
  const std::string path = write_package(MIE_TEST_CUDA_LIBRARY_KERNEL, "library_gpu.mie");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  for (int run = 0; run < 5; ++run) {  // direct, captured, then graph replays with new inputs
    Io io(run * 3 + 1);
    ASSERT_EQ(s.run(io.in, io.out), MIE_OK) << "run " << run << ": " << mie_last_error();
    std::vector<float> ry, rc;
    reference(io.x, io.r, &ry, &rc);
    for (size_t i = 0; i < rc.size(); ++i) ASSERT_NEAR(io.c[i], rc[i], 1e-4f * (1 + std::fabs(rc[i]))) << "c[" << i << "]";
    for (size_t i = 0; i < ry.size(); ++i) ASSERT_NEAR(io.y[i], ry[i], 1e-4f * (1 + std::fabs(ry[i]))) << "y[" << i << "]";
  }
}

}  // namespace
