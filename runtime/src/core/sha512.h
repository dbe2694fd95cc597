// SHA-512 (FIPS 180-4), the hash inside Ed25519 (RFC 8032) and the digest a package signature covers.
// Portable code only: it hashes a package's header and manifest and Ed25519's few short inputs, never the
// large sections (those stay on the accelerated SHA-256 of sha256.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace mie::rt {

class Sha512 {
 public:
  Sha512();
  void update(const void *data, size_t size);
  void finish(uint8_t digest[64]);  // the object must not be updated afterwards

 private:
  uint64_t state_[8];
  uint64_t total_bytes_ = 0;  // 2^64 bytes is far beyond anything hashed here; FIPS allows 2^128 bits
  uint8_t buffer_[128];
  size_t buffered_ = 0;
};

void sha512(const void *data, size_t size, uint8_t digest[64]);

}  // namespace mie::rt
