// SHA-512 (FIPS 180-4 examples) and Ed25519 (RFC 8032 section 7.1 vectors, then what verification must
// refuse: changed messages, signatures and keys, S >= L, non-canonical and small-order points).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/ed25519.h"
#include "core/ed25519_internal.h"
#include "core/sha256.h"
#include "core/sha512.h"
#include "mie/mie_signing.h"

namespace {

using mie::rt::to_hex;

std::vector<uint8_t> unhex(const std::string &hex) {
  std::vector<uint8_t> out(hex.size() / 2);
  EXPECT_TRUE(mie::rt::from_hex(hex, out.data(), out.size())) << hex;
  return out;
}

std::string sha512_hex(const std::string &s) {
  uint8_t d[64];
  mie::rt::sha512(s.data(), s.size(), d);
  return to_hex(d, 64);
}

TEST(Sha512, FipsExamples) {
  EXPECT_EQ(sha512_hex(""), "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877"
                            "eec2f63b931bd47417a81a538327af927da3e");
  EXPECT_EQ(sha512_hex("abc"), "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c2"
                               "3a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  // 448 bits: one block plus a padding block.
  EXPECT_EQ(sha512_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7"
            "a71dd70354ec631238ca3445");
  // 896 bits: the padding spills into a second block (112 bytes leave no room for the length).
  EXPECT_EQ(sha512_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopq"
                       "rsmnopqrstnopqrstu"),
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329ee"
            "b6dd26545e96e55b874be909");
}

TEST(Sha512, MillionAsInUnevenPieces) {
  const std::string a(1000000, 'a');
  const std::string expected =
      "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e"
      "4eadb217ad8cc09b";
  EXPECT_EQ(sha512_hex(a), expected);
  mie::rt::Sha512 h;
  size_t pos = 0, step = 1;
  while (pos < a.size()) {
    const size_t n = std::min(step, a.size() - pos);
    h.update(a.data() + pos, n);
    pos += n;
    step = step * 5 % 301 + 1;
  }
  uint8_t d[64];
  h.finish(d);
  EXPECT_EQ(to_hex(d, 64), expected);
}

TEST(Sha512, PaddingBoundaries) {
  // Around 111/112/128 bytes, byte by byte against one call: the two paths through update must agree.
  for (size_t len : {0, 1, 111, 112, 113, 127, 128, 129, 239, 240, 255, 256, 257}) {
    std::string s(len, 'x');
    for (size_t i = 0; i < len; ++i) s[i] = char('a' + i % 26);
    mie::rt::Sha512 h;
    for (char c : s) h.update(&c, 1);
    uint8_t d[64];
    h.finish(d);
    EXPECT_EQ(to_hex(d, 64), sha512_hex(s)) << "length " << len;
  }
}

struct Rfc8032Vector {
  const char *name, *seed, *public_key, *message, *signature;
};

const char kMessage1023[] =
    "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1"
    "e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d"
    "658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a"
    "7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
    "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc10"
    "3b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1"
    "85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2d17ba70eb6248e594e1a2297acbbb39d"
    "502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
    "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089b"
    "eccf80cfe2df16a2cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba"
    "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae0784504df543af8969b"
    "e3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
    "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988d"
    "cda6f3bfd15c4b4c4525004aa06eeff8ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df"
    "f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7"
    "984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
    "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac09"
    "43bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f"
    "b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f161"
    "0e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
    "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8ca"
    "c60c905c15fc910840b94c00a0b9d0"
    ;

const Rfc8032Vector kVectors[] = {
    {"TEST 1", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe2"
     "4655141438e7a100b"},
    {"TEST 2", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302ae"
     "eb00d291612bb0c00"},
    {"TEST 3", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28"
     "dc027beceea1ec40a"},
    {"TEST 1024", "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
     "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e", kMessage1023,
     "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a"
     "6ac00a9704a188a03"},
    {"TEST SHA(abc)", "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce8"
     "0e2a9ac94fa54ca49f",
     "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17"
     "ad9bef1177331a704"},
};

bool verify(const std::vector<uint8_t> &key, const std::vector<uint8_t> &msg, const std::vector<uint8_t> &sig) {
  return mie::rt::ed25519_verify(key.data(), msg.data(), msg.size(), sig.data());
}

TEST(Ed25519, Rfc8032Vectors) {
  ASSERT_EQ(std::strlen(kMessage1023), 2046u);
  for (const auto &v : kVectors) {
    SCOPED_TRACE(v.name);
    const auto seed = unhex(v.seed), msg = unhex(v.message), pub = unhex(v.public_key), sig = unhex(v.signature);
    mie::SigningKey key;
    key.set_seed(seed.data());
    EXPECT_EQ(to_hex(key.public_key(), 32), v.public_key);
    uint8_t mine[64];
    mie::ed25519_sign(key, msg.data(), msg.size(), mine);
    EXPECT_EQ(to_hex(mine, 64), v.signature);
    EXPECT_TRUE(verify(pub, msg, sig));
    EXPECT_TRUE(mie::rt::ed25519_public_key_valid(pub.data()));
  }
}

TEST(Ed25519, RefusesAnyChangedBit) {
  for (const auto &v : kVectors) {
    SCOPED_TRACE(v.name);
    const auto msg = unhex(v.message), pub = unhex(v.public_key), sig = unhex(v.signature);
    for (size_t bit = 0; bit < 8 * msg.size(); bit += 61) {
      auto m = msg;
      m[bit / 8] ^= uint8_t(1 << (bit % 8));
      EXPECT_FALSE(verify(pub, m, sig)) << "message bit " << bit;
    }
    auto longer = msg;
    longer.push_back(0);
    EXPECT_FALSE(verify(pub, longer, sig));
    for (size_t bit = 0; bit < 512; bit += 7) {
      auto s = sig;
      s[bit / 8] ^= uint8_t(1 << (bit % 8));
      EXPECT_FALSE(verify(pub, msg, s)) << "signature bit " << bit;
    }
    for (size_t bit = 0; bit < 256; bit += 5) {
      auto k = pub;
      k[bit / 8] ^= uint8_t(1 << (bit % 8));
      EXPECT_FALSE(verify(k, msg, sig)) << "key bit " << bit;
    }
  }
}

// S + L is the same scalar modulo L, so [S+L]B = [S]B: only the S < L rule refuses the second form.
TEST(Ed25519, RefusesNonCanonicalS) {
  const auto &v = kVectors[1];
  const auto msg = unhex(v.message), pub = unhex(v.public_key), sig = unhex(v.signature);
  const auto l = unhex("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
  auto plus_l = sig;
  unsigned carry = 0;
  for (int i = 0; i < 32; ++i) {
    const unsigned sum = unsigned(sig[32 + i]) + l[i] + carry;
    plus_l[32 + i] = uint8_t(sum);
    carry = sum >> 8;
  }
  ASSERT_EQ(carry, 0u);
  EXPECT_FALSE(verify(pub, msg, plus_l));
  auto s_is_l = sig;
  std::memcpy(s_is_l.data() + 32, l.data(), 32);
  EXPECT_FALSE(verify(pub, msg, s_is_l));
  EXPECT_FALSE(mie::rt::ed25519::scalar_is_canonical(l.data()));
  auto l_minus_1 = l;
  l_minus_1[0] -= 1;
  EXPECT_TRUE(mie::rt::ed25519::scalar_is_canonical(l_minus_1.data()));
}

// The identity as public key and as R with S = 0 satisfies [S]B = R + [k]A for every message: the
// forgery that refusing small-order keys exists for.
TEST(Ed25519, RefusesSmallOrderKeyForgery) {
  const auto identity = unhex("0100000000000000000000000000000000000000000000000000000000000000");
  std::vector<uint8_t> sig(64, 0);
  sig[0] = 1;
  EXPECT_FALSE(verify(identity, unhex("65646765"), sig));
  EXPECT_FALSE(verify(identity, {}, sig));
  EXPECT_FALSE(mie::rt::ed25519_public_key_valid(identity.data()));
}

TEST(Ed25519, SmallOrderPoints) {
  // The curve's points of order 1, 2, 4 and 8 (canonical encodings; the order-4 and order-8 ones in both signs).
  const char *small[] = {
      "0100000000000000000000000000000000000000000000000000000000000000",
      "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
      "0000000000000000000000000000000000000000000000000000000000000000",
      "0000000000000000000000000000000000000000000000000000000000000080",
      "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
      "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
      "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
      "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
  };
  for (const char *hex : small) {
    SCOPED_TRACE(hex);
    const auto enc = unhex(hex);
    mie::rt::ed25519::Point p;
    ASSERT_TRUE(mie::rt::ed25519::decode(enc.data(), &p));
    EXPECT_TRUE(mie::rt::ed25519::has_small_order(p));
    EXPECT_FALSE(mie::rt::ed25519_public_key_valid(enc.data()));
    // As R of an otherwise valid signature, too.
    auto sig = unhex(kVectors[0].signature);
    std::memcpy(sig.data(), enc.data(), 32);
    EXPECT_FALSE(verify(unhex(kVectors[0].public_key), {}, sig));
  }
  EXPECT_FALSE(mie::rt::ed25519::has_small_order(mie::rt::ed25519::base_point()));
}

TEST(Ed25519, RefusesInvalidEncodings) {
  // y >= p: p itself (y = 0 non-canonically) and p + 1 (the identity non-canonically) decode to nothing,
  // although their values mod p are points; so does the identity with the sign bit set (x = 0 is even).
  for (const char *hex : {"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                          "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                          "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                          "0100000000000000000000000000000000000000000000000000000000000080"}) {
    mie::rt::ed25519::Point p;
    EXPECT_FALSE(mie::rt::ed25519::decode(unhex(hex).data(), &p)) << hex;
  }
  // y = 2 is not on the curve ((y^2 - 1) / (d y^2 + 1) is not a square).
  const auto off_curve = unhex("0200000000000000000000000000000000000000000000000000000000000000");
  mie::rt::ed25519::Point p;
  EXPECT_FALSE(mie::rt::ed25519::decode(off_curve.data(), &p));
  const auto &v = kVectors[2];
  EXPECT_FALSE(verify(off_curve, unhex(v.message), unhex(v.signature)));
  auto sig = unhex(v.signature);
  std::memcpy(sig.data(), off_curve.data(), 32);
  EXPECT_FALSE(verify(unhex(v.public_key), unhex(v.message), sig));
  // Every valid encoding decodes and encodes back to itself; about half of all y values are points.
  int points = 0;
  for (int y = 3; y < 200; ++y) {
    for (int sign = 0; sign < 2; ++sign) {
      uint8_t enc[32] = {uint8_t(y)};
      enc[31] = uint8_t(sign << 7);
      if (!mie::rt::ed25519::decode(enc, &p)) continue;
      ++points;
      uint8_t back[32];
      mie::rt::ed25519::encode(p, back);
      EXPECT_EQ(to_hex(back, 32), to_hex(enc, 32));
    }
  }
  EXPECT_GT(points, 100);
  EXPECT_LT(points, 300);
}

TEST(Ed25519, SignVerifyRoundTripManyLengths) {
  mie::SigningKey key;
  key.set_seed(unhex(kVectors[4].seed).data());
  std::vector<uint8_t> msg;
  for (size_t n = 0; n < 300; n += 13) {
    msg.resize(n);
    for (size_t i = 0; i < n; ++i) msg[i] = uint8_t(i * 31 + n);
    uint8_t sig[64];
    mie::ed25519_sign(key, msg.data(), msg.size(), sig);
    EXPECT_TRUE(mie::rt::ed25519_verify(key.public_key(), msg.data(), msg.size(), sig)) << n;
  }
}

}  // namespace
