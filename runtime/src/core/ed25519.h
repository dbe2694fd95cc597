// Ed25519 signature verification (RFC 8032, pure Ed25519 with SHA-512), for package signatures.
// Verification only: the runtime never holds a secret key. Key generation and signing live in the
// tools' signing library (mie_signing.h), which shares the group arithmetic through ed25519_internal.h.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mie::rt {

constexpr size_t kEd25519PublicKeyBytes = 32;
constexpr size_t kEd25519SignatureBytes = 64;
constexpr size_t kEd25519SeedBytes = 32;  // the secret key as RFC 8032 defines it

// True when `public_key` is the canonical encoding of a curve point whose order is not small (a key
// of order 1, 2, 4 or 8 would let one signature verify for every message).
bool ed25519_public_key_valid(const uint8_t public_key[kEd25519PublicKeyBytes]);

// RFC 8032 section 5.1.7, cofactorless ([S]B == R + [k]A, compared as encodings), and stricter than
// the RFC requires where that costs no valid signature: A and R must be canonical encodings of points
// that are not of small order, and S must be below the group order L (no malleable second form).
bool ed25519_verify(const uint8_t public_key[kEd25519PublicKeyBytes], const uint8_t *message, size_t size,
                    const uint8_t signature[kEd25519SignatureBytes]);

}  // namespace mie::rt
