// Ed25519 key derivation and signing (RFC 8032 sections 5.1.5 and 5.1.6). Part of the tools' signing
// library, not of the runtime (see mie_signing.h); the group arithmetic comes from ed25519.cpp.
#include <cstring>

#include "ed25519_internal.h"
#include "mie/mie_signing.h"
#include "sha512.h"

namespace mie {
namespace {

using rt::ed25519::Point;

// [s]B with the same sequence of operations for every s: double, add, then keep the sum or not with a
// masked move. s is secret (the key's scalar, a signature's nonce).
Point base_multiply(const uint8_t s[32]) {
  const Point &b = rt::ed25519::base_point();
  Point q = rt::ed25519::identity();
  for (int i = 255; i >= 0; --i) {
    q = rt::ed25519::dbl(q);
    const Point sum = rt::ed25519::add(q, b);
    rt::ed25519::cmov(&q, sum, (s[i / 8] >> (i % 8)) & 1);
  }
  return q;
}

// The secret scalar s (the clamped first half of SHA-512(seed)) and the nonce prefix (the second half).
void expand(const uint8_t seed[32], uint8_t scalar[32], uint8_t prefix[32]) {
  uint8_t h[64];
  rt::sha512(seed, 32, h);
  std::memcpy(scalar, h, 32);
  scalar[0] &= 248;
  scalar[31] &= 127;
  scalar[31] |= 64;
  std::memcpy(prefix, h + 32, 32);
  volatile uint8_t *wipe = h;
  for (size_t i = 0; i < sizeof h; ++i) wipe[i] = 0;
}

void wipe(void *p, size_t n) {
  volatile uint8_t *b = static_cast<volatile uint8_t *>(p);
  for (size_t i = 0; i < n; ++i) b[i] = 0;
}

}  // namespace

SigningKey::~SigningKey() { wipe(seed_, sizeof seed_); }

void SigningKey::set_seed(const uint8_t *seed) {
  std::memcpy(seed_, seed, sizeof seed_);
  uint8_t scalar[32], prefix[32];
  expand(seed_, scalar, prefix);
  rt::ed25519::encode(base_multiply(scalar), public_key_);
  wipe(scalar, sizeof scalar);
  wipe(prefix, sizeof prefix);
}

void ed25519_sign(const SigningKey &key, const uint8_t *message, size_t size, uint8_t signature[64]) {
  uint8_t scalar[32], prefix[32], h[64], r[32], k[32];
  expand(key.seed(), scalar, prefix);
  // r = SHA-512(prefix || M) mod L; R = [r]B.
  rt::Sha512 hr;
  hr.update(prefix, 32);
  hr.update(message, size);
  hr.finish(h);
  rt::ed25519::scalar_reduce64(h, r);
  rt::ed25519::encode(base_multiply(r), signature);
  // k = SHA-512(R || A || M) mod L; S = (r + k * s) mod L.
  rt::Sha512 hk;
  hk.update(signature, 32);
  hk.update(key.public_key(), 32);
  hk.update(message, size);
  hk.finish(h);
  rt::ed25519::scalar_reduce64(h, k);
  rt::ed25519::scalar_muladd(k, scalar, r, signature + 32);
  wipe(scalar, sizeof scalar);
  wipe(prefix, sizeof prefix);
  wipe(h, sizeof h);
  wipe(r, sizeof r);
}

}  // namespace mie
