// Outputs with data-dependent shapes (package format 3): the writer, the manifest checks, the extent
// buffer the code writes, the real shape the C API reports and the output moved to its dense layout.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "mie/mie_rt.h"
#include "test_util.h"

namespace {

using namespace mie::test;

constexpr int kN = 6;

// The model of kernels/dynamic_kernel.c: x f32[6] -> y f32[2, 6] with dim 1 data-dependent.
mie::PackageWriter dynamic_writer(std::vector<int64_t> dynamic_dims = {1}) {
  mie::PackageWriter w;
  w.set_model("dynamic");
  w.set_precision("fp32");
  w.add_input({"x", "f32", {kN}, {}});
  w.add_output({"y", "f32", {2, kN}, std::move(dynamic_dims)});
  mie::PackageTargetSpec t = host_target(dynamic_kernel_bytes());
  t.arena_bytes = 0;
  w.add_target(std::move(t));
  return w;
}

struct Opened {
  mie_package *pkg = nullptr;
  mie_session *session = nullptr;
  ~Opened() {
    mie_session_destroy(session);
    mie_package_close(pkg);
  }
};

TEST(DynamicShapes, WriterEmitsFormat3AndChecksDims) {
  std::vector<uint8_t> bytes;
  ASSERT_EQ(dynamic_writer().serialize(&bytes), "");
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  EXPECT_EQ(version, 3u);
  EXPECT_EQ(dynamic_writer({2}).serialize(&bytes),
            "output 0 ('y'): dynamic dims must be strictly ascending dims of its shape");
  EXPECT_EQ(dynamic_writer({1, 1}).serialize(&bytes),
            "output 0 ('y'): dynamic dims must be strictly ascending dims of its shape");
}

TEST(DynamicShapes, RealShapeAfterRun) {
  const std::string path = tmp_path("dynamic.mie");
  ASSERT_EQ(dynamic_writer().write(path), "");
  Opened o;
  ASSERT_EQ(mie_package_open(path.c_str(), &o.pkg), MIE_OK) << mie_last_error();
  uint32_t count = 0;
  const uint32_t *dims = nullptr;
  ASSERT_EQ(mie_package_output_dynamic_dims(o.pkg, 0, &count, &dims), MIE_OK);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(dims[0], 1u);
  EXPECT_EQ(mie_package_output_dynamic_dims(o.pkg, 1, &count, &dims), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(mie_last_error(), "mie_package_output_dynamic_dims: index 1 out of range (model has 1)");
  mie_tensor_info info;
  ASSERT_EQ(mie_package_output_info(o.pkg, 0, &info), MIE_OK);
  EXPECT_EQ(info.byte_size, uint64_t(2 * kN * 4));  // the bound
  ASSERT_EQ(mie_session_create(o.pkg, nullptr, &o.session), MIE_OK) << mie_last_error();

  uint32_t rank = 0;
  const int64_t *shape = nullptr;
  ASSERT_EQ(mie_session_output_shape(o.session, 0, &rank, &shape), MIE_OK);
  ASSERT_EQ(rank, 2u);  // before a run: the bound
  EXPECT_EQ(shape[1], kN);

  const float x[kN] = {1.5f, -2.0f, 3.0f, 0.0f, 4.0f, -1.0f};
  float y[2 * kN];
  const void *in[] = {x};
  void *out[] = {y};
  const uint64_t in_bytes[] = {sizeof(x)}, out_bytes[] = {sizeof(y)};
  ASSERT_EQ(mie_session_run_sized(o.session, 1, in, in_bytes, 1, out, out_bytes), MIE_OK) << mie_last_error();
  ASSERT_EQ(mie_session_output_shape(o.session, 0, &rank, &shape), MIE_OK);
  ASSERT_EQ(rank, 2u);
  EXPECT_EQ(shape[0], 2);
  EXPECT_EQ(shape[1], 3);
  // Dense [2, 3] at the start of the buffer (the code wrote rows 6 apart).
  const float expected[] = {1.5f, 3.0f, 4.0f, 0.0f, 2.0f, 4.0f};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(y[i], expected[i]) << i;

  // Another run, another shape; none found is [2, 0].
  const float none[kN] = {-1, -1, -1, 0, 0, 0};
  in[0] = none;
  ASSERT_EQ(mie_session_run_sized(o.session, 1, in, in_bytes, 1, out, out_bytes), MIE_OK);
  ASSERT_EQ(mie_session_output_shape(o.session, 0, &rank, &shape), MIE_OK);
  EXPECT_EQ(shape[1], 0);

  // An extent past the bound fails the run rather than letting a reader walk off the buffer.
  const float bad[kN] = {-100, 1, 1, 1, 1, 1};
  in[0] = bad;
  EXPECT_EQ(mie_session_run_sized(o.session, 1, in, in_bytes, 1, out, out_bytes), MIE_ERR_KERNEL);
  EXPECT_EQ(std::string(mie_last_error()),
            "package '" + path + "': output 'y': the code reported extent 7 for dim 1 whose bound is 6");
  EXPECT_EQ(mie_session_output_shape(o.session, 1, &rank, &shape), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie_session_output_shape(nullptr, 0, &rank, &shape), MIE_ERR_INVALID_ARGUMENT);
}

TEST(DynamicShapes, AbiTableCountsTheExtentBuffers) {
  // Without dynamic_dims the manifest has one output fewer than the code's table: refused.
  const std::string path = tmp_path("static.mie");
  ASSERT_EQ(dynamic_writer({}).write(path), "");
  Opened o;
  ASSERT_EQ(mie_package_open(path.c_str(), &o.pkg), MIE_OK) << mie_last_error();
  EXPECT_EQ(mie_session_create(o.pkg, nullptr, &o.session), MIE_ERR_INVALID_PACKAGE);
  EXPECT_NE(std::string(mie_last_error()).find("manifest disagrees with the code object: outputs: the code was "
                                               "compiled for 2, the manifest says 1"),
            std::string::npos)
      << mie_last_error();
}

}  // namespace
