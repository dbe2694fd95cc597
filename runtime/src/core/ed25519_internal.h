// Curve25519 field and edwards25519 group arithmetic shared by verification (ed25519.cpp, in the runtime)
// and signing (ed25519_sign.cpp, in the tools' signing library). Not part of any public interface.
//
// Field elements are five 51-bit limbs (radix 2^51) multiplied through unsigned __int128; points use the
// extended coordinates of RFC 8032 section 5.1.4, whose addition formula is complete for edwards25519, so
// no operation needs a special case (and so none branches on secret data). Scalars are 32-byte
// little-endian strings.
#pragma once

#include <cstdint>

namespace mie::rt::ed25519 {

struct Fe {
  uint64_t v[5];
};

struct Point {
  Fe x, y, z, t;
};

Point identity();
const Point &base_point();
Point add(const Point &p, const Point &q);
Point dbl(const Point &p);
Point negate(const Point &p);
// Constant time in `condition` (0 or 1): p = condition ? q : p.
void cmov(Point *p, const Point &q, uint64_t condition);
void encode(const Point &p, uint8_t out[32]);
// RFC 8032 section 5.1.3, rejecting y >= p and the x = 0, sign 1 encoding. False on any invalid input.
bool decode(const uint8_t in[32], Point *out);
bool has_small_order(const Point &p);  // [8]p is the identity

// The group order L = 2^252 + 27742317777372353535851937790883648493.
bool scalar_is_canonical(const uint8_t s[32]);  // s < L
void scalar_reduce64(const uint8_t in[64], uint8_t out[32]);  // in mod L, constant time
// (a * b + c) mod L for any 32-byte a, b, c; constant time.
void scalar_muladd(const uint8_t a[32], const uint8_t b[32], const uint8_t c[32], uint8_t out[32]);

}  // namespace mie::rt::ed25519
