// The random key of kernel ABI 5 (docs/random.md): the runtime passes, as the last slot of args,
// the session's 64-bit key and the number of runs before this one; a session's key comes from the
// OS's entropy, mie_session_set_random_seed sets it and restarts the count.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"
#include "test_util.h"

namespace {

using namespace mie::test;

// The model of kernels/random_key_kernel.c: no inputs, k i64[2] = the key slot's two words.
std::string random_key_package() {
  mie::PackageWriter w;
  w.set_model("random_key");
  w.set_precision("fp32");
  w.add_output({"k", "i64", {2}, {}});
  mie::PackageTargetSpec t = host_target(random_key_kernel_bytes());
  t.arena_bytes = 0;
  t.abi_version = MIE_KERNEL_ABI_RANDOM_VERSION;
  w.add_target(std::move(t));
  const std::string path = tmp_path("random_key.mie");
  EXPECT_EQ(w.write(path), "");
  return path;
}

struct Opened : OpenedSession {
  using OpenedSession::OpenedSession;
  void run(int64_t k[2]) {
    void *outs[] = {k};
    const uint64_t bytes[] = {16};
    ASSERT_EQ(mie_session_run_sized(session, 0, nullptr, nullptr, 1, outs, bytes), MIE_OK)
        << mie_last_error();
  }
};

TEST(RandomKey, RunsCountAndSeedsRestart) {
  const std::string path = random_key_package();
  Opened o(path);
  ASSERT_NE(o.session, nullptr);
  int64_t k[2];
  o.run(k);
  const int64_t key = k[0];
  EXPECT_EQ(k[1], 0);
  o.run(k);
  EXPECT_EQ(k[0], key); // one key per session
  EXPECT_EQ(k[1], 1);   // the count of runs before this one
  ASSERT_EQ(mie_session_set_random_seed(o.session, 0xFEDCBA9876543210ull), MIE_OK);
  o.run(k);
  EXPECT_EQ(uint64_t(k[0]), 0xFEDCBA9876543210ull);
  EXPECT_EQ(k[1], 0);
  o.run(k);
  EXPECT_EQ(k[1], 1);
}

TEST(RandomKey, SessionsDrawTheirOwnKeys) {
  const std::string path = random_key_package();
  Opened a(path), b(path);
  ASSERT_NE(a.session, nullptr);
  ASSERT_NE(b.session, nullptr);
  int64_t ka[2], kb[2];
  a.run(ka);
  b.run(kb);
  EXPECT_NE(ka[0], kb[0]); // 64 bits of entropy each: equal only by a 2^-64 chance
  EXPECT_EQ(mie_session_set_random_seed(nullptr, 1), MIE_ERR_INVALID_ARGUMENT);
}

} // namespace
