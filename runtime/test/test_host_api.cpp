// The host api of kernel ABI 6 and 8 (docs/image-decoding.md, docs/package-format.md): the runtime hands cpu
// code its services through the environment, ImageDecoder's decoding and failed checks among them. A failed call fails the run with its
// message once the entry returns; the next run starts clean.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"
#include "test_util.h"

namespace {

using namespace mie::test;

// The model of kernels/host_call_kernel.c: bytes u8[64] -> image u8[2, 3, 3].
std::string host_call_package(int abi_version = MIE_KERNEL_ABI_HOST_VERSION) {
  mie::PackageWriter w;
  w.set_model("host_call");
  w.set_precision("fp32");
  w.add_input({"bytes", "u8", {64}, {}});
  w.add_output({"image", "u8", {2, 3, 3}, {}});
  mie::PackageTargetSpec t = host_target(host_call_kernel_bytes());
  t.arena_bytes = 0;
  t.abi_version = abi_version;
  w.add_target(std::move(t));
  const std::string path = tmp_path("host_call_" + std::to_string(abi_version) + ".mie");
  EXPECT_EQ(w.write(path), "");
  return path;
}

// A binary PPM of `width` x `height` pixels 0, 1, 2, ..., zero-padded to the model's 64 bytes.
std::string ppm(int width, int height) {
  std::string file = "P6\n" + std::to_string(width) + " " + std::to_string(height) + "\n255\n";
  for (int i = 0; i < width * height * 3; ++i)
    file.push_back(char(i));
  file.resize(64, '\0');
  return file;
}

struct Opened : OpenedSession {
  using OpenedSession::OpenedSession;
  mie_status run(const std::string &bytes, uint8_t image[18]) {
    const void *ins[] = {bytes.data()};
    const uint64_t in_bytes[] = {64};
    void *outs[] = {image};
    const uint64_t out_bytes[] = {18};
    return mie_session_run_sized(session, 1, ins, in_bytes, 1, outs, out_bytes);
  }
};

TEST(HostApi, DecodesThroughTheEnvironment) {
  Opened o(host_call_package());
  ASSERT_NE(o.session, nullptr);
  uint8_t image[18];
  ASSERT_EQ(o.run(ppm(3, 2), image), MIE_OK) << mie_last_error();
  for (int i = 0; i < 18; ++i)
    EXPECT_EQ(image[i], i);
}

TEST(HostApi, AFailedDecodeFailsTheRunNamingTheNode) {
  Opened o(host_call_package());
  ASSERT_NE(o.session, nullptr);
  uint8_t image[18];
  ASSERT_EQ(o.run(ppm(2, 2), image), MIE_ERR_KERNEL);
  const std::string error = mie_last_error();
  EXPECT_NE(error.find("ImageDecoder node 'decode': the image is"), std::string::npos) << error;
  std::string foreign(64, '\0');
  std::memcpy(&foreign[0], "GIF89a", 6);
  ASSERT_EQ(o.run(foreign, image), MIE_ERR_KERNEL);
  EXPECT_NE(std::string(mie_last_error()).find("not an image in a known format"), std::string::npos)
      << mie_last_error();
  // The failure was the run's, not the session's.
  ASSERT_EQ(o.run(ppm(3, 2), image), MIE_OK) << mie_last_error();
  EXPECT_EQ(image[17], 17);
}

// ABI 8: a failed ms.check fails the run with its message (naming the node), after the entry returned; the
// next run starts clean.
TEST(HostApi, AFailedCheckFailsTheRunWithItsMessage) {
  Opened o(host_call_package(MIE_KERNEL_ABI_CHECK_VERSION));
  ASSERT_NE(o.session, nullptr) << mie_last_error();
  uint8_t image[18];
  std::string checked = ppm(3, 2);
  std::memcpy(&checked[0], "CHECK", 5);
  ASSERT_EQ(o.run(checked, image), MIE_ERR_KERNEL);
  const std::string error = mie_last_error();
  EXPECT_NE(error.find("Slice node 'cut': the run's starts do not give the declared shape"), std::string::npos)
      << error;
  ASSERT_EQ(o.run(ppm(3, 2), image), MIE_OK) << mie_last_error();
  EXPECT_EQ(image[17], 17);
}

} // namespace
