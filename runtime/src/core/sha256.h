// SHA-256 (FIPS 180-4) for package validation and the package writer.
// Self-contained so the runtime needs no crypto library; uses the x86 SHA extensions when the CPU has them,
// because hashing a large weights blob dominates package open time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mie::rt {

class Sha256 {
 public:
  Sha256();
  void update(const void *data, size_t size);
  void finish(uint8_t digest[32]);  // the object must not be updated afterwards

 private:
  uint32_t state_[8];
  uint64_t total_bytes_ = 0;
  uint8_t buffer_[64];
  size_t buffered_ = 0;
};

void sha256(const void *data, size_t size, uint8_t digest[32]);
std::string sha256_hex(const void *data, size_t size);

std::string to_hex(const uint8_t *bytes, size_t size);  // lowercase
// Parses exactly 2*size hex digits (either case) into bytes; false on any other input.
bool from_hex(const std::string &hex, uint8_t *bytes, size_t size);

namespace detail {
// Block functions exposed so tests can check the accelerated path against the portable one.
void sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks);
// Returns false (doing nothing) when this CPU/build has no accelerated implementation.
bool sha256_blocks_accelerated(uint32_t state[8], const uint8_t *data, size_t blocks);
}  // namespace detail

}  // namespace mie::rt
