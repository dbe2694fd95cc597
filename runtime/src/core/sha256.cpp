#include "sha256.h"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MIE_SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#elif defined(__aarch64__) && defined(__linux__) && defined(__GNUC__)
#define MIE_SHA256_ARM 1
#include <arm_neon.h>
#include <sys/auxv.h>
// GCC's arm_neon.h guards the SHA-2 intrinsics with "+crypto"; clang names the extension "sha2".
#if defined(__clang__)
#define MIE_SHA256_ARM_TARGET __attribute__((target("sha2")))
#else
#define MIE_SHA256_ARM_TARGET __attribute__((target("+crypto")))
#endif
#endif

namespace mie::rt {
namespace {

constexpr uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

#if MIE_SHA256_X86
// SHA-NI: each _mm_sha256rnds2_epu32 does two rounds; state is kept as ABEF/CDGH as the instructions want.
__attribute__((target("sha,sse4.1"))) void blocks_shani(uint32_t state[8], const uint8_t *data,
                                                         size_t blocks) {
  const __m128i kShuffle = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i *>(&state[0]));
  __m128i state1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(&state[4]));
  tmp = _mm_shuffle_epi32(tmp, 0xB1);             // CDAB
  state1 = _mm_shuffle_epi32(state1, 0x1B);       // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);  // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);    // CDGH
  for (; blocks > 0; --blocks, data += 64) {
    const __m128i abef_save = state0, cdgh_save = state1;
    __m128i w[4];
    for (int g = 0; g < 16; ++g) {  // 16 groups of 4 rounds; fully unrolled by the compiler
      __m128i m;
      if (g < 4) {
        m = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(data + 16 * g)), kShuffle);
      } else {
        m = _mm_sha256msg1_epu32(w[(g - 4) & 3], w[(g - 3) & 3]);
        m = _mm_add_epi32(m, _mm_alignr_epi8(w[(g - 1) & 3], w[(g - 2) & 3], 4));
        m = _mm_sha256msg2_epu32(m, w[(g - 1) & 3]);
      }
      w[g & 3] = m;
      __m128i k = _mm_add_epi32(m, _mm_loadu_si128(reinterpret_cast<const __m128i *>(&kK[4 * g])));
      state1 = _mm_sha256rnds2_epu32(state1, state0, k);
      k = _mm_shuffle_epi32(k, 0x0E);
      state0 = _mm_sha256rnds2_epu32(state0, state1, k);
    }
    state0 = _mm_add_epi32(state0, abef_save);
    state1 = _mm_add_epi32(state1, cdgh_save);
  }
  tmp = _mm_shuffle_epi32(state0, 0x1B);          // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);       // DCHG
  state0 = _mm_blend_epi16(tmp, state1, 0xF0);    // DCBA
  state1 = _mm_alignr_epi8(state1, tmp, 8);       // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i *>(&state[0]), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(&state[4]), state1);
}

bool cpu_has_shani() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const bool ssse3 = c & (1u << 9), sse41 = c & (1u << 19);
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return ssse3 && sse41 && (b & (1u << 29));
}
#endif

#if MIE_SHA256_ARM
// ARMv8 SHA-2 instructions: state stays ABCD/EFGH; each SHA256H/SHA256H2 pair does four rounds.
MIE_SHA256_ARM_TARGET void blocks_armv8(uint32_t state[8], const uint8_t *data, size_t blocks) {
  uint32x4_t state0 = vld1q_u32(&state[0]);
  uint32x4_t state1 = vld1q_u32(&state[4]);
  for (; blocks > 0; --blocks, data += 64) {
    const uint32x4_t abcd_save = state0, efgh_save = state1;
    uint32x4_t w[4];
    for (int i = 0; i < 4; ++i) w[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16 * i)));
    for (int g = 0; g < 16; ++g) {  // fully unrolled by the compiler
      const uint32x4_t k = vaddq_u32(w[g & 3], vld1q_u32(&kK[4 * g]));
      if (g < 12)  // schedule W[g+4] from W[g..g+3] into the slot W[g] vacates
        w[g & 3] = vsha256su1q_u32(vsha256su0q_u32(w[g & 3], w[(g + 1) & 3]), w[(g + 2) & 3], w[(g + 3) & 3]);
      const uint32x4_t prev = state0;
      state0 = vsha256hq_u32(state0, state1, k);
      state1 = vsha256h2q_u32(state1, prev, k);
    }
    state0 = vaddq_u32(state0, abcd_save);
    state1 = vaddq_u32(state1, efgh_save);
  }
  vst1q_u32(&state[0], state0);
  vst1q_u32(&state[4], state1);
}

bool cpu_has_arm_sha2() { return (getauxval(AT_HWCAP) & (1ul << 6)) != 0; }  // HWCAP_SHA2
#endif

using BlocksFn = void (*)(uint32_t *, const uint8_t *, size_t);

BlocksFn pick_blocks() {
#if MIE_SHA256_X86
  if (cpu_has_shani()) return blocks_shani;
#elif MIE_SHA256_ARM
  if (cpu_has_arm_sha2()) return blocks_armv8;
#endif
  return detail::sha256_blocks_portable;
}

// Chosen once; a function-local static is thread-safe to initialize.
BlocksFn blocks_fn() {
  static const BlocksFn fn = pick_blocks();
  return fn;
}

}  // namespace

namespace detail {

void sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
  for (; blocks > 0; --blocks, data += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = (uint32_t(data[4 * i]) << 24) | (uint32_t(data[4 * i + 1]) << 16) |
             (uint32_t(data[4 * i + 2]) << 8) | uint32_t(data[4 * i + 3]);
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
    state[0] += a; state[1] += b; state[2] += c; state[3] += d;
    state[4] += e; state[5] += f; state[6] += g; state[7] += h;
  }
}

bool sha256_blocks_accelerated(uint32_t state[8], const uint8_t *data, size_t blocks) {
#if MIE_SHA256_X86
  if (cpu_has_shani()) {
    blocks_shani(state, data, blocks);
    return true;
  }
#elif MIE_SHA256_ARM
  if (cpu_has_arm_sha2()) {
    blocks_armv8(state, data, blocks);
    return true;
  }
#endif
  (void)state; (void)data; (void)blocks;
  return false;
}

}  // namespace detail

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256::update(const void *data, size_t size) {
  if (size == 0) return;  // data may be NULL for an empty section
  const uint8_t *p = static_cast<const uint8_t *>(data);
  total_bytes_ += size;
  if (buffered_ > 0) {
    size_t take = 64 - buffered_ < size ? 64 - buffered_ : size;
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take; p += take; size -= take;
    if (buffered_ < 64) return;
    blocks_fn()(state_, buffer_, 1);
    buffered_ = 0;
  }
  if (size >= 64) {
    blocks_fn()(state_, p, size / 64);
    p += size / 64 * 64;
    size %= 64;
  }
  std::memcpy(buffer_, p, size);
  buffered_ = size;
}

void Sha256::finish(uint8_t digest[32]) {
  const uint64_t bit_len = total_bytes_ * 8;
  uint8_t pad[72] = {0x80};
  // Pad to 56 mod 64, then append the 64-bit big-endian bit length.
  size_t pad_len = (buffered_ < 56 ? 56 : 120) - buffered_;
  for (int i = 0; i < 8; ++i) pad[pad_len + i] = uint8_t(bit_len >> (56 - 8 * i));
  update(pad, pad_len + 8);
  for (int i = 0; i < 8; ++i) {
    digest[4 * i] = uint8_t(state_[i] >> 24);
    digest[4 * i + 1] = uint8_t(state_[i] >> 16);
    digest[4 * i + 2] = uint8_t(state_[i] >> 8);
    digest[4 * i + 3] = uint8_t(state_[i]);
  }
}

void sha256(const void *data, size_t size, uint8_t digest[32]) {
  Sha256 h;
  h.update(data, size);
  h.finish(digest);
}

std::string sha256_hex(const void *data, size_t size) {
  uint8_t d[32];
  sha256(data, size, d);
  return to_hex(d, 32);
}

std::string to_hex(const uint8_t *bytes, size_t size) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(size * 2, '0');
  for (size_t i = 0; i < size; ++i) {
    s[2 * i] = kDigits[bytes[i] >> 4];
    s[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return s;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool from_hex(const std::string &hex, uint8_t *bytes, size_t size) {
  if (hex.size() != 2 * size) return false;
  for (size_t i = 0; i < size; ++i) {
    int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    bytes[i] = uint8_t(hi << 4 | lo);
  }
  return true;
}

}  // namespace mie::rt
