// Signed packages end to end: signing (mie_signing.h), the trailer, and the loader's policy through the C
// API: a valid signature by a trusted key loads and runs; tampering with code, weights, manifest or
// header after signing, an untrusted key, or no signature where one is required is refused before any
// code is loaded; unsigned packages load as before when nothing is required.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

#include "core/format.h"
#include "core/package.h"
#include "core/sha256.h"
#include "core/signature.h"
#include "mie/mie_rt.h"
#include "mie/mie_rt.hpp"
#include "mie/mie_signing.h"
#include "test_util.h"

using namespace mie::test;

namespace {

void set_key(mie::SigningKey *key, uint8_t fill) {
  uint8_t seed[32];
  std::memset(seed, fill, sizeof seed);
  key->set_seed(seed);
}

std::vector<uint8_t> unsigned_package() {
  const auto weights = test_weights();
  std::vector<uint8_t> bytes;
  EXPECT_EQ(test_model_writer(weights, kernel_bytes()).serialize(&bytes), "");
  return bytes;
}

std::vector<uint8_t> signed_package(const mie::SigningKey &key) {
  std::vector<uint8_t> out;
  const auto bytes = unsigned_package();
  EXPECT_EQ(mie::sign_package(bytes.data(), bytes.size(), key, &out), "");
  return out;
}

mie_package_options trusting(const mie::SigningKey &key, bool require) {
  mie_package_options o;
  EXPECT_EQ(mie_package_options_init(&o), MIE_OK);
  o.num_trusted_keys = 1;
  o.trusted_keys = key.public_key();
  o.require_signature = require ? 1 : 0;
  return o;
}

// The message of the last failed open_and_run (closing the package handle clears mie_last_error).
std::string last_error;

// Opens `bytes` from a file under `options`; on success also creates a session and runs it once.
mie_status open_and_run(const std::vector<uint8_t> &bytes, const mie_package_options *options,
                        const std::string &name) {
  const std::string path = tmp_path(name);
  write_file(path, bytes);
  mie::Package pkg;
  const mie_status s = options ? pkg.open(path.c_str(), *options) : pkg.open(path.c_str());
  last_error = mie_last_error();
  if (s != MIE_OK) return s;
  mie::Session session;
  EXPECT_EQ(session.create(pkg, 1), MIE_OK) << mie_last_error();
  std::vector<float> x(kRows * kCols, 1.0f), y(kRows * kCols), rowsum(kRows);
  int32_t k = 2;
  const void *in[2] = {x.data(), &k};
  void *out[2] = {y.data(), rowsum.data()};
  EXPECT_EQ(session.run(in, out), MIE_OK) << mie_last_error();
  std::vector<float> ry, rr;
  reference(x, k, &ry, &rr);
  EXPECT_NEAR(y[5], ry[5], 1e-4f);
  return MIE_OK;
}

TEST(Signing, TrailerIsAppendedToTheUnchangedBody) {
  mie::SigningKey key;
  set_key(&key, 7);
  const auto body = unsigned_package();
  const auto signed_bytes = signed_package(key);
  ASSERT_EQ(signed_bytes.size(), body.size() + mie::rt::kSignatureTrailerSize);
  EXPECT_TRUE(std::equal(body.begin(), body.end(), signed_bytes.begin()));
  mie::rt::SignatureTrailer t;
  mie::rt::decode_signature_trailer(signed_bytes.data() + body.size(), &t);
  EXPECT_EQ(t.version, 1u);
  EXPECT_EQ(t.size, 128u);
  EXPECT_EQ(mie::rt::to_hex(t.public_key.data(), 32), mie::rt::to_hex(key.public_key(), 32));
  // Re-signing with another key replaces the trailer rather than stacking a second one.
  mie::SigningKey other;
  set_key(&other, 9);
  std::vector<uint8_t> resigned;
  ASSERT_EQ(mie::sign_package(signed_bytes.data(), signed_bytes.size(), other, &resigned), "");
  ASSERT_EQ(resigned.size(), signed_bytes.size());
  mie::rt::decode_signature_trailer(resigned.data() + body.size(), &t);
  EXPECT_EQ(mie::rt::to_hex(t.public_key.data(), 32), mie::rt::to_hex(other.public_key(), 32));
}

TEST(Signing, TrustedSignatureLoadsAndRuns) {
  mie::SigningKey key;
  set_key(&key, 1);
  const auto options = trusting(key, true);
  ASSERT_EQ(open_and_run(signed_package(key), &options, "signed.mie"), MIE_OK) << mie_last_error();
  // The state and key are reported.
  const std::string path = tmp_path("signed2.mie");
  write_file(path, signed_package(key));
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str(), options), MIE_OK) << mie_last_error();
  mie_signature_state state;
  uint8_t who[32];
  ASSERT_EQ(mie_package_signature(pkg.get(), &state, who), MIE_OK);
  EXPECT_EQ(state, MIE_SIGNATURE_TRUSTED);
  EXPECT_EQ(std::memcmp(who, key.public_key(), 32), 0);
  // Without trusted keys, the signature is still checked against its own key and reported as present.
  mie::Package plain;
  ASSERT_EQ(plain.open(path.c_str()), MIE_OK) << mie_last_error();
  ASSERT_EQ(mie_package_signature(plain.get(), &state, nullptr), MIE_OK);
  EXPECT_EQ(state, MIE_SIGNATURE_PRESENT);
}

TEST(Signing, UnsignedLoadsWhenNotRequired) {
  mie::SigningKey key;
  set_key(&key, 1);
  ASSERT_EQ(open_and_run(unsigned_package(), nullptr, "plain.mie"), MIE_OK) << mie_last_error();
  // Keys given but no requirement: an unsigned package still loads (a signed one must be by a trusted key).
  const auto options = trusting(key, false);
  ASSERT_EQ(open_and_run(unsigned_package(), &options, "plain2.mie"), MIE_OK) << mie_last_error();
  const std::string path = tmp_path("plain3.mie");
  write_file(path, unsigned_package());
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK);
  mie_signature_state state;
  ASSERT_EQ(mie_package_signature(pkg.get(), &state, nullptr), MIE_OK);
  EXPECT_EQ(state, MIE_SIGNATURE_NONE);
}

TEST(Signing, UnsignedRefusedWhenRequired) {
  mie::SigningKey key;
  set_key(&key, 1);
  const auto options = trusting(key, true);
  EXPECT_EQ(open_and_run(unsigned_package(), &options, "plain.mie"), MIE_ERR_SIGNATURE);
  EXPECT_NE(last_error.find("not signed, and a signature by a trusted key is required"), std::string::npos)
      << last_error;
}

TEST(Signing, UntrustedKeyRefused) {
  mie::SigningKey key, other;
  set_key(&key, 1);
  set_key(&other, 2);
  for (bool require : {true, false}) {
    const auto options = trusting(other, require);
    EXPECT_EQ(open_and_run(signed_package(key), &options, "signed.mie"), MIE_ERR_SIGNATURE);
    EXPECT_NE(last_error.find("which is not among the 1 trusted key"), std::string::npos) << last_error;
  }
}

// What an attacker who holds a signed package but not the key can change. Each mutation keeps the file
// self-consistent where it can (hashes recomputed), as someone swapping code or weights would.
TEST(Signing, TamperingAfterSigningIsRefused) {
  mie::SigningKey key;
  set_key(&key, 3);
  const auto good = signed_package(key);
  const auto options = trusting(key, true);
  mie::rt::Header h;
  mie::rt::decode_header(good.data(), &h);
  std::string manifest(reinterpret_cast<const char *>(good.data() + h.manifest_offset), h.manifest_size);
  mie::rt::Manifest m;
  std::string error;
  ASSERT_TRUE(mie::rt::validate_package(good.data(), good.size(), &m, &error)) << error;
  const auto &code = m.targets[0].code;
  const auto &weights = m.weights;

  // Flipping a byte of a section without touching the manifest: caught by the section hash.
  for (uint64_t where : {code.offset + code.size / 2, weights.offset + 8}) {
    auto bad = good;
    bad[where] ^= 1;
    EXPECT_EQ(open_and_run(bad, &options, "flip.mie"), MIE_ERR_INVALID_PACKAGE);
    EXPECT_NE(last_error.find("sha256 mismatch"), std::string::npos) << last_error;
  }

  // Swapping weights and fixing every hash (section, manifest, header): caught by the signature.
  {
    auto bad = good;
    bad[weights.offset + 8] ^= 1;
    const std::string old_sha = mie::rt::to_hex(weights.sha256, 32);
    const std::string new_sha = mie::rt::sha256_hex(bad.data() + weights.offset, weights.size);
    const std::string new_manifest = replace(manifest, old_sha, new_sha);
    ASSERT_EQ(new_manifest.size(), manifest.size());
    std::memcpy(bad.data() + h.manifest_offset, new_manifest.data(), new_manifest.size());
    mie::rt::sha256(new_manifest.data(), new_manifest.size(), bad.data() + 40);
    std::vector<uint8_t> body(bad.begin(), bad.begin() + h.file_size);
    mie::rt::Manifest unsigned_manifest;
    ASSERT_TRUE(mie::rt::validate_package(body.data(), body.size(), &unsigned_manifest, &error))
        << error;  // a consistent unsigned package
    EXPECT_EQ(open_and_run(bad, &options, "weights.mie"), MIE_ERR_SIGNATURE);
    EXPECT_NE(last_error.find("does not verify"), std::string::npos) << last_error;
    // Even without trusted keys: the signature no longer matches its own key.
    EXPECT_EQ(open_and_run(bad, nullptr, "weights2.mie"), MIE_ERR_SIGNATURE);
  }

  // The same for the code section.
  {
    auto bad = good;
    bad[code.offset + code.size - 1] ^= 0x80;
    const std::string new_manifest = replace(manifest, mie::rt::to_hex(code.sha256, 32),
                                             mie::rt::sha256_hex(bad.data() + code.offset, code.size));
    std::memcpy(bad.data() + h.manifest_offset, new_manifest.data(), new_manifest.size());
    mie::rt::sha256(new_manifest.data(), new_manifest.size(), bad.data() + 40);
    EXPECT_EQ(open_and_run(bad, &options, "code.mie"), MIE_ERR_SIGNATURE);
  }

  // A manifest edit (the arena size) with its hash fixed.
  {
    auto bad = good;
    const std::string needle = "\"arena_bytes\": ";
    const size_t at = manifest.find(needle);
    ASSERT_NE(at, std::string::npos);
    std::string new_manifest = manifest;
    char &digit = new_manifest[at + needle.size()];
    digit = digit == '9' ? '8' : char(digit + 1);
    std::memcpy(bad.data() + h.manifest_offset, new_manifest.data(), new_manifest.size());
    mie::rt::sha256(new_manifest.data(), new_manifest.size(), bad.data() + 40);
    EXPECT_EQ(open_and_run(bad, &options, "manifest.mie"), MIE_ERR_SIGNATURE);
  }

  // A trailer moved onto a different package (another model's body, same key) does not verify.
  {
    const auto weights2 = std::vector<float>(test_weights().size(), 0.25f);
    std::vector<uint8_t> other;
    ASSERT_EQ(test_model_writer(weights2, kernel_bytes()).serialize(&other), "");
    other.insert(other.end(), good.end() - mie::rt::kSignatureTrailerSize, good.end());
    EXPECT_EQ(open_and_run(other, &options, "moved.mie"), MIE_ERR_SIGNATURE);
  }

  // Stripping the signature leaves a valid unsigned package, which the policy then refuses.
  {
    std::vector<uint8_t> stripped(good.begin(), good.begin() + h.file_size);
    EXPECT_EQ(open_and_run(stripped, &options, "stripped.mie"), MIE_ERR_SIGNATURE);
  }

  // A flipped bit in the trailer's signature.
  {
    auto bad = good;
    bad[h.file_size + 48 + 10] ^= 4;
    EXPECT_EQ(open_and_run(bad, &options, "sig.mie"), MIE_ERR_SIGNATURE);
  }
}

TEST(Signing, MalformedTrailers) {
  mie::SigningKey key;
  set_key(&key, 5);
  const auto good = signed_package(key);
  const uint64_t body = good.size() - mie::rt::kSignatureTrailerSize;
  mie::rt::Manifest m;
  std::string error;
  auto refused = [&](std::vector<uint8_t> bytes, const std::string &expect) {
    EXPECT_FALSE(mie::rt::validate_package(bytes.data(), bytes.size(), &m, &error));
    EXPECT_NE(error.find(expect), std::string::npos) << error;
  };
  auto bad = good;
  mie::rt::store_le32(bad.data() + body + 8, 2);
  refused(bad, "signature trailer version 2 is not supported");
  bad = good;
  mie::rt::store_le32(bad.data() + body + 12, 64);
  refused(bad, "malformed signature trailer");
  bad = good;
  bad[body + 127] = 1;
  refused(bad, "malformed signature trailer");
  bad = good;
  bad.push_back(0);
  refused(bad, "(trailing data)");
  bad = good;
  bad.pop_back();
  refused(bad, "(trailing data)");
  bad = good;
  bad[body] = 'X';  // not the magic: plain trailing data, as before signatures existed
  refused(bad, "(trailing data)");
  // A small-order key in the trailer with the matching trivial signature (the forgery Ed25519 permits
  // for such keys): refused even with no policy at all.
  bad = good;
  std::memset(bad.data() + body + 16, 0, 96);
  bad[body + 16] = 1;  // A = identity
  bad[body + 48] = 1;  // R = identity, S = 0
  refused(bad, "does not verify");
}

TEST(Signing, OptionsAreChecked) {
  mie::SigningKey key;
  set_key(&key, 1);
  const std::string path = tmp_path("p.mie");
  write_file(path, signed_package(key));
  mie_package *p = nullptr;
  mie_package_options o;
  ASSERT_EQ(mie_package_options_init(&o), MIE_OK);
  EXPECT_EQ(o.struct_size, sizeof(mie_package_options));
  o.require_signature = 1;
  EXPECT_EQ(mie_package_open_with_options(path.c_str(), &o, &p), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error()).find("no trusted keys"), std::string::npos) << mie_last_error();
  o.num_trusted_keys = 1;
  EXPECT_EQ(mie_package_open_with_options(path.c_str(), &o, &p), MIE_ERR_INVALID_ARGUMENT);  // keys NULL
  const uint8_t bad_key[32] = {1};  // the identity: small order
  o.trusted_keys = bad_key;
  EXPECT_EQ(mie_package_open_with_options(path.c_str(), &o, &p), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error()).find("trusted key 0 is not a valid"), std::string::npos);
  o.struct_size = 0;
  EXPECT_EQ(mie_package_open_with_options(path.c_str(), &o, &p), MIE_ERR_INVALID_ARGUMENT);
  o.struct_size = sizeof o + 8;
  EXPECT_EQ(mie_package_open_with_options(path.c_str(), &o, &p), MIE_ERR_UNSUPPORTED);
  // A caller whose struct ends before the fields that carry a policy: they read as zero (no policy).
  o.struct_size = 4;
  ASSERT_EQ(mie_package_open_with_options(path.c_str(), &o, &p), MIE_OK) << mie_last_error();
  EXPECT_NE(p, nullptr);
  mie_package_close(p);
}

TEST(Signing, TrustedKeysFromTheEnvironment) {
  mie::SigningKey key, other;
  set_key(&key, 1);
  set_key(&other, 2);
  auto write_pub = [](const mie::SigningKey &k, const std::string &name) {
    mie::rt::PublicKey pub;
    std::memcpy(pub.data(), k.public_key(), 32);
    const std::string text = mie::rt::format_public_key_file_text(pub);
    const std::string path = tmp_path(name);
    write_file(path, std::vector<uint8_t>(text.begin(), text.end()));
    return path;
  };
  const std::string good_pub = write_pub(key, "good.pub"), other_pub = write_pub(other, "other.pub");
  const std::string signed_path = tmp_path("signed.mie"), plain_path = tmp_path("plain.mie");
  write_file(signed_path, signed_package(key));
  write_file(plain_path, unsigned_package());
  mie_package *p = nullptr;
  ASSERT_EQ(setenv("MIE_TRUSTED_KEYS", (other_pub + ":" + good_pub).c_str(), 1), 0);
  EXPECT_EQ(mie_package_open(signed_path.c_str(), &p), MIE_OK) << mie_last_error();
  mie_package_close(p);
  EXPECT_EQ(mie_package_open(plain_path.c_str(), &p), MIE_ERR_SIGNATURE);  // the variable requires a signature
  ASSERT_EQ(setenv("MIE_TRUSTED_KEYS", other_pub.c_str(), 1), 0);
  EXPECT_EQ(mie_package_open(signed_path.c_str(), &p), MIE_ERR_SIGNATURE);
  ASSERT_EQ(setenv("MIE_TRUSTED_KEYS", (good_pub + ".missing").c_str(), 1), 0);
  EXPECT_EQ(mie_package_open(signed_path.c_str(), &p), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error()).find("MIE_TRUSTED_KEYS: public key file"), std::string::npos)
      << mie_last_error();
  ASSERT_EQ(setenv("MIE_TRUSTED_KEYS", ":", 1), 0);
  EXPECT_EQ(mie_package_open(signed_path.c_str(), &p), MIE_ERR_INVALID_ARGUMENT);
  ASSERT_EQ(unsetenv("MIE_TRUSTED_KEYS"), 0);
  EXPECT_EQ(mie_package_open(plain_path.c_str(), &p), MIE_OK);
  mie_package_close(p);
}

TEST(Signing, KeyFiles) {
  const std::string name = tmp_path("k");
  unlink((name + ".key").c_str());  // left by an earlier run: keygen never overwrites
  unlink((name + ".pub").c_str());
  ASSERT_EQ(mie::generate_key_files(name), "");
  struct stat st;
  ASSERT_EQ(stat((name + ".key").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  mie::SigningKey key;
  ASSERT_EQ(mie::read_signing_key(name + ".key", &key), "");
  uint8_t pub[32];
  ASSERT_EQ(mie_public_key_read((name + ".pub").c_str(), pub), MIE_OK) << mie_last_error();
  EXPECT_EQ(std::memcmp(pub, key.public_key(), 32), 0);
  // Never overwritten.
  const auto before = read_file(name + ".key");
  EXPECT_NE(mie::generate_key_files(name).find("the file exists"), std::string::npos);
  EXPECT_EQ(read_file(name + ".key"), before);
  // A secret key others may read is refused; so are the wrong kind of file and bad lengths.
  ASSERT_EQ(chmod((name + ".key").c_str(), 0644), 0);
  EXPECT_NE(mie::read_signing_key(name + ".key", &key).find("chmod 600"), std::string::npos);
  EXPECT_NE(mie::read_signing_key(name + ".pub", &key).find("this is a public key file"), std::string::npos);
  const std::string shortkey = tmp_path("short.key");
  write_file(shortkey, std::vector<uint8_t>{'m'});
  ASSERT_EQ(chmod(shortkey.c_str(), 0600), 0);
  EXPECT_NE(mie::read_signing_key(shortkey, &key).find("not a secret key file"), std::string::npos);
  const std::string text = "mie-ed25519-secret 0011\n";
  write_file(shortkey, std::vector<uint8_t>(text.begin(), text.end()));
  EXPECT_NE(mie::read_signing_key(shortkey, &key).find("found 4 characters"), std::string::npos);
  const std::string pubtext = "mie-ed25519-public 0100000000000000000000000000000000000000000000000000000000000000\n";
  const std::string badpub = tmp_path("bad.pub");
  write_file(badpub, std::vector<uint8_t>(pubtext.begin(), pubtext.end()));
  EXPECT_EQ(mie_public_key_read(badpub.c_str(), pub), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error()).find("small order"), std::string::npos) << mie_last_error();
  EXPECT_EQ(mie_public_key_read((name + ".missing").c_str(), pub), MIE_ERR_IO);
}

}  // namespace
