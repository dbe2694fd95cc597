#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/sha256.h"

using mie::rt::Sha256;
using mie::rt::sha256_hex;

namespace {

std::string hex_of(const std::string &s) { return sha256_hex(s.data(), s.size()); }

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(hex_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 448 bits: the padding needs a second block.
  EXPECT_EQ(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // 896 bits: two full message blocks.
  EXPECT_EQ(hex_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                   "mnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(hex_of("The quick brown fox jumps over the lazy dog"),
            "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
}

TEST(Sha256, MillionAsInUnevenPieces) {
  const std::string a(1000000, 'a');
  EXPECT_EQ(hex_of(a), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Same digest when fed in pieces that straddle block boundaries in every way.
  Sha256 h;
  size_t pos = 0, step = 1;
  while (pos < a.size()) {
    size_t n = std::min(step, a.size() - pos);
    h.update(a.data() + pos, n);
    pos += n;
    step = step * 3 % 257 + 1;
  }
  uint8_t d[32];
  h.finish(d);
  EXPECT_EQ(mie::rt::to_hex(d, 32), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  // Lengths around the 55/56/64-byte padding edges: incremental and one-shot must agree.
  for (size_t len : {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129}) {
    std::string s(len, 'x');
    for (size_t i = 0; i < len; ++i) s[i] = char('a' + i % 26);
    Sha256 h;
    for (char c : s) h.update(&c, 1);
    uint8_t d[32];
    h.finish(d);
    EXPECT_EQ(mie::rt::to_hex(d, 32), hex_of(s)) << "length " << len;
  }
  // Spot check against a known digest of a 64-byte message.
  EXPECT_EQ(hex_of(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Sha256, AcceleratedMatchesPortable) {
  std::vector<uint8_t> data(64 * 37);
  uint32_t seed = 12345;
  for (auto &b : data) {
    seed = seed * 1103515245u + 12345u;
    b = uint8_t(seed >> 16);
  }
  uint32_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8];
  std::memcpy(b, a, sizeof a);
  mie::rt::detail::sha256_blocks_portable(a, data.data(), data.size() / 64);
  if (!mie::rt::detail::sha256_blocks_accelerated(b, data.data(), data.size() / 64))
    GTEST_SKIP() << "no accelerated SHA-256 on this CPU";
  EXPECT_EQ(0, std::memcmp(a, b, sizeof a));
}

TEST(Sha256, Hex) {
  uint8_t bytes[3];
  EXPECT_TRUE(mie::rt::from_hex("00fFa1", bytes, 3));
  EXPECT_EQ(bytes[1], 0xff);
  EXPECT_FALSE(mie::rt::from_hex("00ff", bytes, 3));
  EXPECT_FALSE(mie::rt::from_hex("00fg00", bytes, 3));
  EXPECT_EQ(mie::rt::to_hex(bytes, 3), "00ffa1");
}

}  // namespace
