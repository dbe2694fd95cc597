// mie_signing.h - Ed25519 key generation, key files and package signing for the tools (mie-sign,
// mie-compile --sign-key); docs/security.md describes the trust model and docs/package-format.md the
// signature trailer.
//
// CMake target mie_signing: a static library of its own, never linked into libmie_rt.so. The runtime
// only verifies signatures and so only ever holds public keys; keeping everything that touches a secret
// key out of the library that every deployment ships means a process that loads packages has no code
// path that could read, derive or leak one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mie {

// A secret key (the RFC 8032 seed) with its public key. The seed is wiped when the object goes away.
class SigningKey {
 public:
  SigningKey() = default;
  SigningKey(const SigningKey &) = delete;
  SigningKey &operator=(const SigningKey &) = delete;
  ~SigningKey();
  // Derives the public key from `seed` (32 bytes).
  void set_seed(const uint8_t *seed);
  const uint8_t *seed() const { return seed_; }
  const uint8_t *public_key() const { return public_key_; }

 private:
  uint8_t seed_[32] = {};
  uint8_t public_key_[32] = {};
};

// RFC 8032 section 5.1.6: the 64-byte signature of `message` under `key`. Constant time in the key.
void ed25519_sign(const SigningKey &key, const uint8_t *message, size_t size, uint8_t signature[64]);

// Key files. NAME.key: "mie-ed25519-secret " + 64 hex digits (the seed) + newline, mode 0600;
// NAME.pub: "mie-ed25519-public " + 64 hex digits + newline. Every function returns "" on success or a
// message naming the file.
// Writes a new key pair from getrandom() (or /dev/urandom) to NAME.key and NAME.pub; refuses to
// overwrite either file, and leaves neither behind on failure.
std::string generate_key_files(const std::string &name);
// Reads a secret key file; refuses one that others than its owner may read, as ssh does.
std::string read_signing_key(const std::string &path, SigningKey *key);

// Signs the package image `data` (size bytes): validates it as the runtime would (an existing signature
// trailer is dropped first, so a package can be re-signed with another key), then writes to *out the same
// body followed by a signature trailer. *error-free return: "".
std::string sign_package(const uint8_t *data, uint64_t size, const SigningKey &key, std::vector<uint8_t> *out);
// sign_package on a file: reads `in`, writes the signed package to `out` atomically (`out` may be `in`).
std::string sign_package_file(const std::string &in, const std::string &out, const SigningKey &key);

// Writes `size` bytes to `path` atomically: into "<path>.tmp-XXXXXX" in the same directory (created with
// `mode`, less the umask), fsync'ed, then renamed over `path`, or with `replace` false linked to `path`
// only when no such file exists (never overwriting it). On failure the temporary is removed and `path` is
// untouched. Returns "" or a message naming `path`.
std::string write_file_atomically(const std::string &path, const void *data, size_t size, unsigned mode,
                                  bool replace);

}  // namespace mie
