#include "format.h"

#include <cstring>

namespace mie::rt {

uint64_t load_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}
uint32_t load_le32(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
void store_le64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
}
void store_le32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

void encode_header(const Header &h, uint8_t out[kHeaderSize]) {
  std::memset(out, 0, kHeaderSize);
  std::memcpy(out, h.magic, 8);
  store_le32(out + 8, h.format_version);
  store_le32(out + 12, h.header_size);
  store_le64(out + 16, h.manifest_offset);
  store_le64(out + 24, h.manifest_size);
  store_le64(out + 32, h.file_size);
  std::memcpy(out + 40, h.manifest_sha256, 32);
}

void decode_header(const uint8_t in[kHeaderSize], Header *h) {
  std::memcpy(h->magic, in, 8);
  h->format_version = load_le32(in + 8);
  h->header_size = load_le32(in + 12);
  h->manifest_offset = load_le64(in + 16);
  h->manifest_size = load_le64(in + 24);
  h->file_size = load_le64(in + 32);
  std::memcpy(h->manifest_sha256, in + 40, 32);
  h->reserved_zero = true;
  for (size_t i = kReservedOffset; i < kHeaderSize; ++i)
    if (in[i] != 0) h->reserved_zero = false;
}

namespace {
struct DtypeEntry {
  mie_dtype dtype;
  const char *name;
  size_t size;
};
constexpr DtypeEntry kDtypes[] = {
    {MIE_DTYPE_F32, "f32", 4}, {MIE_DTYPE_F16, "f16", 2}, {MIE_DTYPE_BF16, "bf16", 2},
    {MIE_DTYPE_F64, "f64", 8}, {MIE_DTYPE_I8, "i8", 1},   {MIE_DTYPE_I16, "i16", 2},
    {MIE_DTYPE_I32, "i32", 4}, {MIE_DTYPE_I64, "i64", 8}, {MIE_DTYPE_U8, "u8", 1},
    {MIE_DTYPE_BOOL, "bool", 1}, {MIE_DTYPE_U16, "u16", 2}, {MIE_DTYPE_U32, "u32", 4},
    {MIE_DTYPE_U64, "u64", 8},
    {MIE_DTYPE_F8E4M3FN, "f8e4m3fn", 1}, {MIE_DTYPE_F8E4M3FNUZ, "f8e4m3fnuz", 1},
    {MIE_DTYPE_F8E5M2, "f8e5m2", 1}, {MIE_DTYPE_F8E5M2FNUZ, "f8e5m2fnuz", 1},
    {MIE_DTYPE_F8E8M0, "f8e8m0", 1}, {MIE_DTYPE_F4E2M1, "f4e2m1", 1},
    {MIE_DTYPE_I4, "i4", 1}, {MIE_DTYPE_U4, "u4", 1}, {MIE_DTYPE_I2, "i2", 1}, {MIE_DTYPE_U2, "u2", 1},
};
}  // namespace

bool dtype_from_name(const std::string &name, mie_dtype *out) {
  for (const auto &e : kDtypes)
    if (name == e.name) {
      *out = e.dtype;
      return true;
    }
  return false;
}

const char *dtype_to_name(mie_dtype dtype) {
  for (const auto &e : kDtypes)
    if (e.dtype == dtype) return e.name;
  return "invalid";
}

size_t dtype_byte_size(mie_dtype dtype) {
  for (const auto &e : kDtypes)
    if (e.dtype == dtype) return e.size;
  return 0;
}

const char *dtype_name_list() { return "f32, f16, bf16, f64, i8, i16, i32, i64, u8, bool"; }

bool parse_sm_arch(const std::string &arch, int *sm, bool *exact) {
  if (arch.size() < 5 || arch.compare(0, 3, "sm_") != 0) return false;
  size_t end = arch.size();
  *exact = arch.back() == 'a';
  if (*exact) --end;
  if (end - 3 > 4) return false;  // sm_1000 at most: no overflow below
  int v = 0;
  for (size_t i = 3; i < end; ++i) {
    if (arch[i] < '0' || arch[i] > '9') return false;
    v = v * 10 + (arch[i] - '0');
  }
  if (end - 3 < 2 || arch[3] == '0') return false;  // two digits at least: major and minor
  *sm = v;
  return true;
}

}  // namespace mie::rt
