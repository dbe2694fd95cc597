// Ed25519 from RFC 8032 (sections 5.1.1 to 5.1.7): field and group arithmetic, point encoding, scalars
// modulo L, and verification. See ed25519_internal.h for the representation.
#include "ed25519.h"

#include <cstring>

#include "ed25519_internal.h"
#include "sha512.h"

namespace mie::rt::ed25519 {
namespace {

using u128 = unsigned __int128;
constexpr uint64_t kMask51 = (uint64_t(1) << 51) - 1;

// --- Field arithmetic modulo p = 2^255 - 19 ---------------------------------------------------------
// Every operation leaves its limbs below 2^52 ("weakly reduced"), which keeps the products in mul below
// 2^128 without further bookkeeping. Only to_bytes reduces fully.

Fe fe(uint64_t v) { return Fe{{v, 0, 0, 0, 0}}; }

void carry(Fe &h) {
  uint64_t c = 0;
  for (int i = 0; i < 5; ++i) {
    h.v[i] += c;
    c = h.v[i] >> 51;
    h.v[i] &= kMask51;
  }
  h.v[0] += 19 * c;
}

Fe add(const Fe &f, const Fe &g) {
  Fe h;
  for (int i = 0; i < 5; ++i) h.v[i] = f.v[i] + g.v[i];
  carry(h);
  return h;
}

Fe sub(const Fe &f, const Fe &g) {
  // f + 4p - g: 4p's limbs exceed any weakly reduced g's, so no limb goes negative.
  Fe h;
  h.v[0] = f.v[0] + 0x1FFFFFFFFFFFB4 - g.v[0];
  for (int i = 1; i < 5; ++i) h.v[i] = f.v[i] + 0x1FFFFFFFFFFFFC - g.v[i];
  carry(h);
  return h;
}

Fe neg(const Fe &f) { return sub(fe(0), f); }

Fe mul(const Fe &f, const Fe &g) {
  const uint64_t *a = f.v, *b = g.v;
  const uint64_t b1 = 19 * b[1], b2 = 19 * b[2], b3 = 19 * b[3], b4 = 19 * b[4];
  u128 r0 = u128(a[0]) * b[0] + u128(a[1]) * b4 + u128(a[2]) * b3 + u128(a[3]) * b2 + u128(a[4]) * b1;
  u128 r1 = u128(a[0]) * b[1] + u128(a[1]) * b[0] + u128(a[2]) * b4 + u128(a[3]) * b3 + u128(a[4]) * b2;
  u128 r2 = u128(a[0]) * b[2] + u128(a[1]) * b[1] + u128(a[2]) * b[0] + u128(a[3]) * b4 + u128(a[4]) * b3;
  u128 r3 = u128(a[0]) * b[3] + u128(a[1]) * b[2] + u128(a[2]) * b[1] + u128(a[3]) * b[0] + u128(a[4]) * b4;
  u128 r4 = u128(a[0]) * b[4] + u128(a[1]) * b[3] + u128(a[2]) * b[2] + u128(a[3]) * b[1] + u128(a[4]) * b[0];
  Fe h;
  r1 += uint64_t(r0 >> 51);
  h.v[0] = uint64_t(r0) & kMask51;
  r2 += uint64_t(r1 >> 51);
  h.v[1] = uint64_t(r1) & kMask51;
  r3 += uint64_t(r2 >> 51);
  h.v[2] = uint64_t(r2) & kMask51;
  r4 += uint64_t(r3 >> 51);
  h.v[3] = uint64_t(r3) & kMask51;
  const uint64_t c = uint64_t(r4 >> 51);
  h.v[4] = uint64_t(r4) & kMask51;
  h.v[0] += 19 * c;  // c < 2^77 / 2^51 is small: the sum stays far below 2^64
  carry(h);
  return h;
}

Fe sq(const Fe &f) { return mul(f, f); }

// f^e for a public exponent (little-endian bytes): the sequence of operations does not depend on f.
Fe pow(const Fe &f, const uint8_t e[32]) {
  Fe r = fe(1);
  for (int i = 254; i >= 0; --i) {
    r = sq(r);
    if ((e[i / 8] >> (i % 8)) & 1) r = mul(r, f);
  }
  return r;
}

Fe invert(const Fe &f) {
  static const uint8_t kPMinus2[32] = {0xeb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
  return pow(f, kPMinus2);
}

void to_bytes(const Fe &f, uint8_t out[32]) {
  Fe h = f;
  carry(h);
  carry(h);
  // h < 2p now; subtract p once when h >= p, found by adding 19 and looking at bit 255.
  uint64_t q = (h.v[0] + 19) >> 51;
  for (int i = 1; i < 5; ++i) q = (h.v[i] + q) >> 51;
  h.v[0] += 19 * q;
  uint64_t c = 0;
  for (int i = 0; i < 5; ++i) {
    h.v[i] += c;
    c = h.v[i] >> 51;
    h.v[i] &= kMask51;
  }
  const uint64_t w0 = h.v[0] | h.v[1] << 51, w1 = h.v[1] >> 13 | h.v[2] << 38, w2 = h.v[2] >> 26 | h.v[3] << 25,
                 w3 = h.v[3] >> 39 | h.v[4] << 12;
  const uint64_t w[4] = {w0, w1, w2, w3};
  for (int i = 0; i < 32; ++i) out[i] = uint8_t(w[i / 8] >> (8 * (i % 8)));
}

// The low 255 bits of `in` (the caller deals with bit 255); may be >= p.
Fe from_bytes(const uint8_t in[32]) {
  uint64_t w[4];
  for (int i = 0; i < 4; ++i) {
    w[i] = 0;
    for (int j = 7; j >= 0; --j) w[i] = w[i] << 8 | in[8 * i + j];
  }
  Fe h;
  h.v[0] = w[0] & kMask51;
  h.v[1] = (w[0] >> 51 | w[1] << 13) & kMask51;
  h.v[2] = (w[1] >> 38 | w[2] << 26) & kMask51;
  h.v[3] = (w[2] >> 25 | w[3] << 39) & kMask51;
  h.v[4] = (w[3] >> 12) & kMask51;
  return h;
}

bool fe_equal(const Fe &f, const Fe &g) {
  uint8_t a[32], b[32];
  to_bytes(f, a);
  to_bytes(g, b);
  return std::memcmp(a, b, 32) == 0;
}

bool fe_is_zero(const Fe &f) { return fe_equal(f, fe(0)); }

int fe_parity(const Fe &f) {
  uint8_t b[32];
  to_bytes(f, b);
  return b[0] & 1;
}

// Curve constants, derived once instead of transcribed: d = -121665 / 121666 and sqrt(-1) = 2^((p-1)/4).
// The RFC's test vectors check them (a wrong d or sqrt(-1) decodes no point correctly).
struct Constants {
  Fe d, d2, sqrt_m1;
  Point base;
};

const Constants &constants() {
  static const Constants c = [] {
    Constants k;
    k.d = mul(neg(fe(121665)), invert(fe(121666)));
    k.d2 = add(k.d, k.d);
    static const uint8_t kPMinus1Over4[32] = {0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                              0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                              0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f};
    k.sqrt_m1 = pow(fe(2), kPMinus1Over4);
    return k;
  }();
  return c;
}

// --- Scalars modulo L -----------------------------------------------------------------------------

constexpr uint64_t kL[4] = {0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0, 0x1000000000000000};

void load_words(const uint8_t *in, uint64_t *w, int n) {
  for (int i = 0; i < n; ++i) {
    w[i] = 0;
    for (int j = 7; j >= 0; --j) w[i] = w[i] << 8 | in[8 * i + j];
  }
}

// x mod L for a 512-bit x (eight little-endian words): binary long division, one bit at a time, with a
// masked subtraction instead of a branch so that the secret nonce of a signature leaks no timing.
void reduce_words(const uint64_t x[8], uint8_t out[32]) {
  uint64_t r[4] = {0, 0, 0, 0};  // invariant: r < L < 2^253
  for (int bit = 511; bit >= 0; --bit) {
    r[3] = r[3] << 1 | r[2] >> 63;
    r[2] = r[2] << 1 | r[1] >> 63;
    r[1] = r[1] << 1 | r[0] >> 63;
    r[0] = r[0] << 1 | ((x[bit / 64] >> (bit % 64)) & 1);
    uint64_t t[4], borrow = 0;
    for (int i = 0; i < 4; ++i) {
      const u128 d = u128(r[i]) - kL[i] - borrow;
      t[i] = uint64_t(d);
      borrow = uint64_t(d >> 64) & 1;
    }
    const uint64_t keep = 0 - borrow;  // all ones when r < L
    for (int i = 0; i < 4; ++i) r[i] = (r[i] & keep) | (t[i] & ~keep);
  }
  for (int i = 0; i < 32; ++i) out[i] = uint8_t(r[i / 8] >> (8 * (i % 8)));
}

}  // namespace

// --- Group ----------------------------------------------------------------------------------------

Point identity() { return Point{fe(0), fe(1), fe(1), fe(0)}; }

const Point &base_point() {
  static const Point b = [] {
    // B's encoding: y = 4/5, x even (RFC 8032 section 5.1).
    uint8_t enc[32];
    std::memset(enc, 0x66, 32);
    enc[0] = 0x58;
    Point p;
    decode(enc, &p);
    return p;
  }();
  return b;
}

Point add(const Point &p, const Point &q) {
  const Fe a = mul(sub(p.y, p.x), sub(q.y, q.x));
  const Fe b = mul(add(p.y, p.x), add(q.y, q.x));
  const Fe c = mul(mul(p.t, constants().d2), q.t);
  const Fe d = mul(add(p.z, p.z), q.z);
  const Fe e = sub(b, a), f = sub(d, c), g = add(d, c), h = add(b, a);
  return Point{mul(e, f), mul(g, h), mul(f, g), mul(e, h)};
}

Point dbl(const Point &p) {
  const Fe a = sq(p.x), b = sq(p.y);
  const Fe zz = sq(p.z);
  const Fe c = add(zz, zz);
  const Fe h = add(a, b);
  const Fe e = sub(h, sq(add(p.x, p.y)));
  const Fe g = sub(a, b);
  const Fe f = add(c, g);
  return Point{mul(e, f), mul(g, h), mul(f, g), mul(e, h)};
}

Point negate(const Point &p) { return Point{neg(p.x), p.y, p.z, neg(p.t)}; }

void cmov(Point *p, const Point &q, uint64_t condition) {
  const uint64_t mask = 0 - (condition & 1);
  Fe *dst[4] = {&p->x, &p->y, &p->z, &p->t};
  const Fe *src[4] = {&q.x, &q.y, &q.z, &q.t};
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 5; ++i) dst[k]->v[i] ^= mask & (dst[k]->v[i] ^ src[k]->v[i]);
}

void encode(const Point &p, uint8_t out[32]) {
  const Fe zi = invert(p.z);
  const Fe x = mul(p.x, zi), y = mul(p.y, zi);
  to_bytes(y, out);
  out[31] |= uint8_t(fe_parity(x) << 7);
}

bool decode(const uint8_t in[32], Point *out) {
  const int sign = in[31] >> 7;
  const Fe y = from_bytes(in);
  // Step 1: y must be canonical (< p): re-encoding must give back the same 255 bits.
  uint8_t canonical[32];
  to_bytes(y, canonical);
  uint8_t low[32];
  std::memcpy(low, in, 32);
  low[31] &= 0x7f;
  if (std::memcmp(canonical, low, 32) != 0) return false;
  // Step 2: x^2 = (y^2 - 1) / (d y^2 + 1), root by x = u v^3 (u v^7)^((p-5)/8).
  const Constants &k = constants();
  const Fe yy = sq(y);
  const Fe u = sub(yy, fe(1));
  const Fe v = add(mul(k.d, yy), fe(1));
  const Fe v3 = mul(sq(v), v);
  const Fe v7 = mul(sq(v3), v);
  static const uint8_t kPMinus5Over8[32] = {0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f};
  Fe x = mul(mul(u, v3), pow(mul(u, v7), kPMinus5Over8));
  // Step 3: v x^2 must be u or -u (then x times sqrt(-1) is the root); otherwise there is none.
  const Fe vxx = mul(v, sq(x));
  if (!fe_equal(vxx, u)) {
    if (!fe_equal(vxx, neg(u))) return false;
    x = mul(x, k.sqrt_m1);
  }
  // Step 4: the sign bit picks the root; x = 0 has only the even one.
  if (fe_is_zero(x) && sign == 1) return false;
  if (fe_parity(x) != sign) x = neg(x);
  *out = Point{x, y, fe(1), mul(x, y)};
  return true;
}

bool has_small_order(const Point &p) {
  const Point q = dbl(dbl(dbl(p)));
  return fe_is_zero(q.x) && fe_equal(q.y, q.z);
}

bool scalar_is_canonical(const uint8_t s[32]) {
  uint64_t w[4];
  load_words(s, w, 4);
  for (int i = 3; i >= 0; --i) {
    if (w[i] < kL[i]) return true;
    if (w[i] > kL[i]) return false;
  }
  return false;  // s == L
}

void scalar_reduce64(const uint8_t in[64], uint8_t out[32]) {
  uint64_t x[8];
  load_words(in, x, 8);
  reduce_words(x, out);
}

void scalar_muladd(const uint8_t a[32], const uint8_t b[32], const uint8_t c[32], uint8_t out[32]) {
  uint64_t x[4], y[4], z[4], p[8] = {};
  load_words(a, x, 4);
  load_words(b, y, 4);
  load_words(c, z, 4);
  for (int i = 0; i < 4; ++i) {
    uint64_t carry_word = 0;
    for (int j = 0; j < 4; ++j) {
      const u128 t = u128(x[i]) * y[j] + p[i + j] + carry_word;
      p[i + j] = uint64_t(t);
      carry_word = uint64_t(t >> 64);
    }
    p[i + 4] = carry_word;
  }
  // + c: a * b + c < 2^512 for 256-bit operands, so the carry out of the top word is always zero.
  uint64_t carry_word = 0;
  for (int i = 0; i < 8; ++i) {
    const u128 t = u128(p[i]) + (i < 4 ? z[i] : 0) + carry_word;
    p[i] = uint64_t(t);
    carry_word = uint64_t(t >> 64);
  }
  reduce_words(p, out);
}

}  // namespace mie::rt::ed25519

namespace mie::rt {

bool ed25519_public_key_valid(const uint8_t public_key[kEd25519PublicKeyBytes]) {
  ed25519::Point a;
  return ed25519::decode(public_key, &a) && !ed25519::has_small_order(a);
}

bool ed25519_verify(const uint8_t public_key[kEd25519PublicKeyBytes], const uint8_t *message, size_t size,
                    const uint8_t signature[kEd25519SignatureBytes]) {
  using namespace ed25519;
  const uint8_t *r_bytes = signature, *s_bytes = signature + 32;
  if (!scalar_is_canonical(s_bytes)) return false;
  Point a, r;
  if (!decode(public_key, &a) || has_small_order(a)) return false;
  if (!decode(r_bytes, &r) || has_small_order(r)) return false;
  // k = SHA-512(R || A || M) mod L.
  uint8_t h[64], k[32];
  Sha512 hash;
  hash.update(r_bytes, 32);
  hash.update(public_key, 32);
  hash.update(message, size);
  hash.finish(h);
  scalar_reduce64(h, k);
  // [S]B + [k](-A), both scalars public: plain double-and-add over the 253 significant bits.
  const Point minus_a = negate(a);
  const Point &b = base_point();
  Point q = identity();
  for (int i = 255; i >= 0; --i) {
    q = dbl(q);
    if ((s_bytes[i / 8] >> (i % 8)) & 1) q = add(q, b);
    if ((k[i / 8] >> (i % 8)) & 1) q = add(q, minus_a);
  }
  uint8_t check[32];
  encode(q, check);
  return std::memcmp(check, r_bytes, 32) == 0;
}

}  // namespace mie::rt
