// mie-run driven in-process: exit codes, messages and output files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "mie/mie_tensor_io.h"
#include "mie_run.h"
#include "test_util.h"

using namespace mie::test;

namespace {

struct Result {
  int code;
  std::string out, err;
};

Result run(std::vector<std::string> args) {
  args.insert(args.begin(), "mie-run");
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(&a[0]);
  argv.push_back(nullptr);
  char *out_buf = nullptr, *err_buf = nullptr;
  size_t out_size = 0, err_size = 0;
  FILE *out = open_memstream(&out_buf, &out_size);
  FILE *err = open_memstream(&err_buf, &err_size);
  Result r;
  r.code = mie::run::main(int(args.size()), argv.data(), out, err);
  std::fclose(out);
  std::fclose(err);
  r.out.assign(out_buf, out_size);
  r.err.assign(err_buf, err_size);
  std::free(out_buf);
  std::free(err_buf);
  return r;
}

class MieRun : public ::testing::Test {
 protected:
  void SetUp() override {
    weights_ = test_weights();
    model_ = tmp_path("model.mie");
    ASSERT_EQ(test_model_writer(weights_, kernel_bytes()).write(model_), "");
    for (size_t i = 0; i < x_.size(); ++i) x_[i] = float(i % 17) - 8.0f;
    x_npy_ = tmp_path("x.npy");
    ASSERT_EQ(mie::io::write_npy(x_npy_, MIE_DTYPE_F32, {kRows, kCols}, x_.data(), x_.size() * 4), "");
    k_pb_ = tmp_path("k.pb");
    mie::io::Tensor k;
    k.name = "k";
    k.dtype = MIE_DTYPE_I32;
    k.shape = {1};
    k.data = {2, 0, 0, 0};
    ASSERT_EQ(mie::io::write_onnx_tensor(k_pb_, k), "");
  }
  void check_outputs(const std::string &y_path, const std::string &rowsum_path) {
    std::vector<float> ry, rr;
    reference(x_, 2, &ry, &rr);
    mie::io::Tensor y, rs;
    ASSERT_EQ(mie::io::read_npy(y_path, &y), "");
    ASSERT_EQ(mie::io::read_npy(rowsum_path, &rs), "");
    ASSERT_EQ(y.shape, (std::vector<int64_t>{kRows, kCols}));
    ASSERT_EQ(rs.shape, (std::vector<int64_t>{kRows}));
    for (size_t i = 0; i < ry.size(); ++i)
      ASSERT_NEAR(mie::io::element_as_double(y.dtype, y.data.data(), i), ry[i], 1e-4);
    for (size_t i = 0; i < rr.size(); ++i)
      ASSERT_NEAR(mie::io::element_as_double(rs.dtype, rs.data.data(), i), rr[i], 1e-3);
  }
  std::vector<float> weights_, x_ = std::vector<float>(kRows * kCols);
  std::string model_, x_npy_, k_pb_;
};

TEST_F(MieRun, NamedInputsAndOutputs) {
  const std::string y = tmp_path("y.npy"), rs = tmp_path("rowsum.npy");
  Result r = run({model_, "--input", "k=" + k_pb_, "--input=x=" + x_npy_, "--output", "rowsum=" + rs, "--output", "y=" + y,
                  "--print", "--threads", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find(std::string("model 'test-model', target '") + host_target_name() + "', 2 threads, first run "),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("y: f32 [2, 64] first: -2 -1.60938 -1.1875"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rowsum: f32 [2] first:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" min: "), std::string::npos);
  check_outputs(y, rs);
}

TEST_F(MieRun, PositionalInputsAndOutputs) {
  const std::string y = tmp_path("y.npy"), rs = tmp_path("rowsum.npy");
  Result r = run({model_, "--input", x_npy_, "--input", k_pb_, "--output", y, "--output", rs});
  ASSERT_EQ(r.code, 0) << r.err;
  check_outputs(y, rs);
  // Named and positional mixed: the positional one fills the first input not named.
  r = run({model_, "--input", "k=" + k_pb_, "--input", x_npy_});
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(MieRun, Benchmark) {
  Result r = run({model_, "--input", x_npy_, "--input", k_pb_, "--benchmark", "5", "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("benchmark: 5 runs, min "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" ms, median "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" ms, mean "), std::string::npos) << r.out;
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

TEST_F(MieRun, ProfileAndTrace) {
  auto target = host_target(kernel_bytes());
  target.kernels = {{"main_k0_mul", {"/mul"}, 1000000}, {"main_k1_add", {"/add", "/sum"}, 0}};
  mie::PackageWriter w = test_model_writer(weights_, {target});
  w.set_model("profiled");
  const std::string model = tmp_path("profiled.mie"), trace = tmp_path("trace.json");
  ASSERT_EQ(w.write(model), "");
  std::remove(trace.c_str());
  Result r = run({model, "--input", x_npy_, "--input", k_pb_, "--benchmark", "3", "--threads", "1", "--trace", trace});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("profile: 3 runs, 1 thread, mean run "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("peak: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GFLOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("main_k0_mul"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  /add,/sum\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("trace: " + trace + " (3 runs)"), std::string::npos) << r.out;
  std::string text;
  {
    FILE *f = std::fopen(trace.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
  }
  EXPECT_EQ(text.rfind("{\"displayTimeUnit\": \"ms\"", 0), 0u) << text;
  EXPECT_EQ(count(text, "\"ph\": \"X\""), 6u) << text;  // 3 runs x 2 kernels
  EXPECT_EQ(count(text, "\"name\": \"main_k1_add\""), 3u) << text;
  EXPECT_NE(text.find("\"nodes\": \"/add,/sum\""), std::string::npos) << text;

  // --profile alone takes 20 runs by default.
  r = run({model, "--input", x_npy_, "--input", k_pb_, "--profile", "--threads", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("profile: 20 runs, 2 threads"), std::string::npos) << r.out;
}

TEST_F(MieRun, ProfileErrors) {
  // The test model lists no kernels (as packages from older compilers).
  Result r = run({model_, "--input", x_npy_, "--input", k_pb_, "--profile"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: --profile: the package lists no kernels (it was compiled by an older "
                   "mie-compile); recompile it to profile\n");
  r = run({model_, "--trace"});
  EXPECT_EQ(r.err, "mie-run: error: --trace needs a value\n");
  r = run({model_, "--trace="});
  EXPECT_EQ(r.err, "mie-run: error: --trace needs a file name\n");
  auto target = host_target(kernel_bytes());
  target.kernels = {{"main_k0_mul", {}, 0}, {"main_k1_add", {}, 0}};
  mie::PackageWriter w = test_model_writer(weights_, {target});
  const std::string model = tmp_path("profiled2.mie");
  ASSERT_EQ(w.write(model), "");
  const std::string bad = std::string(MIE_TEST_TMP) + "/no/such/dir/trace.json";
  r = run({model, "--input", x_npy_, "--input", k_pb_, "--benchmark", "2", "--trace", bad});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: --trace: '" + bad + "': cannot create: No such file or directory\n");
}

TEST_F(MieRun, InputErrors) {
  Result r = run({model_, "--input", x_npy_});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: missing input 'k'; the model expects: x (f32 [2, 64]), k (i32 [1])\n");
  r = run({model_});
  EXPECT_EQ(r.err, "mie-run: error: missing input 'x', 'k'; the model expects: x (f32 [2, 64]), k (i32 [1])\n");
  r = run({model_, "--input", x_npy_, "--input", k_pb_, "--input", x_npy_});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: too many inputs: '" + x_npy_ +
                       "' has no input left to fill (the model has 2: x (f32 [2, 64]), k (i32 [1]))\n");
  r = run({model_, "--input", "x=" + x_npy_, "--input", "x=" + x_npy_});
  EXPECT_EQ(r.err, "mie-run: error: input 'x' is given twice\n");

  const std::string x64 = tmp_path("x64.npy");
  std::vector<double> d(kRows * kCols);
  ASSERT_EQ(mie::io::write_npy(x64, MIE_DTYPE_F64, {kRows, kCols}, d.data(), d.size() * 8), "");
  r = run({model_, "--input", x64, "--input", k_pb_});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: input 'x' from '" + x64 + "': dtype f64 does not match the model's f32\n");
  const std::string xs = tmp_path("xs.npy");
  ASSERT_EQ(mie::io::write_npy(xs, MIE_DTYPE_F32, {kCols, kRows}, x_.data(), x_.size() * 4), "");
  r = run({model_, "--input", xs, "--input", k_pb_});
  EXPECT_EQ(r.err, "mie-run: error: input 'x' from '" + xs + "': shape [64, 2] does not match the model's [2, 64]\n");
  const std::string missing = tmp_path("missing.npy");
  r = run({model_, "--input", missing, "--input", k_pb_});
  EXPECT_EQ(r.err, "mie-run: error: input 'x': '" + missing + "': cannot open: No such file or directory\n");
  r = run({model_, "--input", x_npy_, "--input", model_});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.rfind("mie-run: error: input 'k': '" + model_ + "': ", 0), 0u) << r.err;
}

// A 17-byte TensorProto declaring 2^48 floats (dims 2^24 x 2^24, FLOAT, 3 bytes of raw_data) once made
// mie-run abort with std::bad_alloc; it is an error naming the sizes, with exit code 1.
TEST_F(MieRun, HugeDeclaredSizesAreErrors) {
  const std::vector<uint8_t> pb = {0x08, 0x80, 0x80, 0x80, 0x08, 0x08, 0x80, 0x80, 0x80,
                                   0x08, 0x10, 0x01, 0x4a, 0x03, 0x00, 0x00, 0x00};
  ASSERT_EQ(pb.size(), 17u);
  const std::string path = tmp_path("huge.pb");
  write_file(path, pb);
  Result r = run({model_, "--input", path, "--input", k_pb_});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: input 'x': '" + path +
                       "': dims [16777216, 16777216] of f32 are larger than the maximum of 1099511627776 bytes\n");
}

TEST_F(MieRun, OutputErrors) {
  Result r = run({model_, "--input", x_npy_, "--input", k_pb_, "--output", "a.npy", "--output", "b.npy", "--output", "c.npy"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: too many outputs: 'c.npy' has no output left to fill (the model has 2: y (f32 [2, 64]), "
                   "rowsum (f32 [2]))\n");
  const std::string bad = std::string(MIE_TEST_TMP) + "/no/such/dir/y.npy";
  r = run({model_, "--input", x_npy_, "--input", k_pb_, "--output", bad});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: output 'y': '" + bad + "': cannot create: No such file or directory\n");
}

TEST_F(MieRun, ArgumentAndRuntimeErrors) {
  Result r = run({});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("mie-run: error: no model given"), std::string::npos);
  r = run({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("usage: mie-run model.mie", 0), 0u);
  r = run({"--version"}); // the project's version, as mie-compile, mie-sign and Python print it
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, std::string("mie-run ") + MIE_RT_VERSION_STRING + "\n");
  r = run({model_, "--frobnicate"});
  EXPECT_EQ(r.err, "mie-run: error: unknown option '--frobnicate' (see --help)\n");
  r = run({model_, "--benchmark", "0"});
  EXPECT_EQ(r.err, "mie-run: error: --benchmark needs a positive integer, got '0'\n");
  r = run({model_, "--threads", "two"});
  EXPECT_EQ(r.err, "mie-run: error: --threads needs an integer from 0 (all CPUs) to 1024, got 'two'\n");
  r = run({model_, "--input"});
  EXPECT_EQ(r.err, "mie-run: error: --input needs a value\n");
  r = run({model_, "other.mie"});
  EXPECT_EQ(r.err, "mie-run: error: unexpected argument 'other.mie' (only one model; inputs go after --input)\n");
  r = run({x_npy_});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: package '" + x_npy_ + "': bad magic (not a .mie package)\n");
  r = run({model_, "--input", x_npy_, "--input", k_pb_, "--target", "cuda-sm_90"});
  EXPECT_EQ(r.err, "mie-run: error: package '" + model_ + "': no target named 'cuda-sm_90' (package has: " +
                       host_target_name() + ")\n");
  // A kernel failure (the test kernel rejects k < 0) is an error exit, not a crash.
  const std::string kneg = tmp_path("kneg.npy");
  const int32_t minus = -1;
  ASSERT_EQ(mie::io::write_npy(kneg, MIE_DTYPE_I32, {1}, &minus, 4), "");
  r = run({model_, "--input", x_npy_, "--input", kneg});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mie-run: error: package '" + model_ + "': target '" + host_target_name() +
                       "': entry 'mie_entry' returned 3\n");
}

// A package with a cuda and a cpu target: without a driver the cpu target runs, and -v says why the cuda
// one was skipped; with a (fake) driver the cuda target runs and the device is named.
TEST_F(MieRun, CudaTargetOrFallback) {
  const std::string pkg = tmp_path("gpu.mie");
  ASSERT_EQ(test_model_writer(weights_, {cuda_target(cuda_kernel_bytes()), host_target(kernel_bytes())}).write(pkg), "");
  const std::string y = tmp_path("y.npy"), rs = tmp_path("rowsum.npy");
  {
    ScopedEnv env;
    env.set("MIE_CUDA_DRIVER", "/nonexistent/libcuda.so.1");
    Result r = run({pkg, "--input", x_npy_, "--input", k_pb_, "--output", y, "--output", rs, "-v"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(std::string("model 'test-model', target '") + host_target_name() + "', "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("other targets in the package: cuda-sm_90 (not for this host)\n"
                         "  target 'cuda-sm_90': skipped: no CUDA driver (/nonexistent/libcuda.so.1: "),
              std::string::npos)
        << r.out;
    check_outputs(y, rs);
    r = run({pkg, "--input", x_npy_, "--input", k_pb_, "--target", "cuda-sm_90"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err.rfind("mie-run: error: package '" + pkg + "': target 'cuda-sm_90': no CUDA driver (", 0), 0u)
        << r.err;
  }
  ScopedEnv env;
  env.set("MIE_CUDA_DRIVER", MIE_TEST_FAKE_CUDA).set("MIE_FAKE_CUDA_SM", "90").set("MIE_FAKE_CUDA_DEVICES", "1");
  env.unset("MIE_FAKE_CUDA_FAIL");
  Result r = run({pkg, "--input", x_npy_, "--input", k_pb_, "--output", y, "--output", rs, "--benchmark", "3", "-v"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("model 'test-model', target 'cuda-sm_90', 1 thread, first run "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("device: Fake GPU 0, sm_90, device 0\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::string("  target '") + host_target_name() +
                       "': runnable here, not chosen (the selected target ranks higher)\n"),
            std::string::npos)
      << r.out;
  check_outputs(y, rs);
  r = run({"--devices"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\ncuda: Fake GPU 0, sm_90, device 0, driver 13000\n"), std::string::npos) << r.out;
  env.set("MIE_FAKE_CUDA_DEVICES", "0");
  r = run({"--devices"});
  EXPECT_NE(r.out.find("\ncuda: none: no CUDA device\n"), std::string::npos) << r.out;
}

// The selection rule of a portable package (cpu and cuda targets) and its overrides: --target with a kind
// (cpu, cuda, gpu) or a name, MIE_TARGET, and the "selected:" line that says why.
TEST_F(MieRun, PortablePackageSelectionAndOverrides) {
  const std::string pkg = tmp_path("portable.mie");
  ASSERT_EQ(test_model_writer(weights_, {host_target(kernel_bytes()), cuda_target(cuda_kernel_bytes(), "sm_80"),
                                         cuda_target(cuda_kernel_bytes(), "sm_90")})
                .write(pkg),
            "");
  const std::string y = tmp_path("y.npy"), rs = tmp_path("rowsum.npy");
  const std::vector<std::string> io = {"--input", x_npy_, "--input", k_pb_, "--output", y, "--output", rs};
  auto args = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = {pkg};
    a.insert(a.end(), io.begin(), io.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  {
    ScopedEnv env;
    env.set("MIE_CUDA_DRIVER", "/nonexistent/libcuda.so.1").unset("MIE_TARGET");
    Result r = run(args({}));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(std::string("target '") + host_target_name() + "'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("selected: automatic: the best cpu target for this host; no cuda target runs here "
                         "('cuda-sm_80': no CUDA driver (/nonexistent/libcuda.so.1: "),
              std::string::npos)
        << r.out;
    check_outputs(y, rs);
    r = run(args({"--target", "cuda"}));
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err.rfind("mie-run: error: package '" + pkg +
                              "': target 'cuda': no cuda target can run here: 'cuda-sm_80': no CUDA driver (",
                          0),
              0u)
        << r.err;
  }
  ScopedEnv env;
  env.set("MIE_CUDA_DRIVER", MIE_TEST_FAKE_CUDA).set("MIE_FAKE_CUDA_SM", "90").set("MIE_FAKE_CUDA_DEVICES", "1");
  env.unset("MIE_FAKE_CUDA_FAIL").unset("MIE_TARGET");
  Result r = run(args({}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("target 'cuda-sm_90'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("selected: automatic: a CUDA device runs it, and cuda targets rank above cpu ones\n"),
            std::string::npos)
      << r.out;
  check_outputs(y, rs);
  // An sm_80 device runs only the sm_80 target.
  env.set("MIE_FAKE_CUDA_SM", "80");
  r = run(args({"--target", "gpu"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("target 'cuda-sm_80'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("selected: --target gpu\n"), std::string::npos) << r.out;
  check_outputs(y, rs);
  r = run(args({"--target", "cpu"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(std::string("target '") + host_target_name() + "'"), std::string::npos) << r.out;
  check_outputs(y, rs);
  env.set("MIE_TARGET", "cpu");
  r = run(args({}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(std::string("target '") + host_target_name() + "'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("selected: MIE_TARGET=cpu\n"), std::string::npos) << r.out;
  // --target wins over the environment; a name that is neither a target nor a kind is refused.
  r = run(args({"--target", "cuda-sm_80"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("target 'cuda-sm_80'"), std::string::npos) << r.out;
  env.set("MIE_TARGET", "tpu");
  r = run(args({}));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("MIE_TARGET: no target named 'tpu' (package has: "), std::string::npos) << r.err;
}

}  // namespace
