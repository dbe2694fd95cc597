// The .mie container format shared by the reader (package.cpp) and the writer (package_writer.cpp):
// header layout and dtype names. docs/package-format.md is the normative description.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "mie/mie_rt.h"

namespace mie::rt {

constexpr uint8_t kMagic[8] = {'M', 'I', 'E', 'P', 'K', 'G', 0, 0};
// Versions this runtime reads. 2 adds per-target weights sections (a version 1 reader would silently run
// such a target on the shared weights); 3 adds outputs with data-dependent dims, whose extents the code
// writes into buffers after the outputs (a version 2 reader would pass the wrong arguments). Writers emit
// the lowest version a package needs.
constexpr uint32_t kFormatVersion = 4;
constexpr uint32_t kMinFormatVersion = 1;
constexpr uint32_t kHeaderSize = 128;
constexpr uint64_t kSectionAlignment = 64;
constexpr size_t kReservedOffset = 72;  // 56 reserved bytes at [72, 128)

struct Header {
  uint8_t magic[8];
  uint32_t format_version = 0;
  uint32_t header_size = 0;
  uint64_t manifest_offset = 0;
  uint64_t manifest_size = 0;
  uint64_t file_size = 0;
  uint8_t manifest_sha256[32];
  bool reserved_zero = true;  // decode only: all 56 reserved bytes were zero
};

// Byte layout: magic@0 version@8 header_size@12 manifest_offset@16 manifest_size@24 file_size@32
// manifest_sha256@40 reserved@72..128. All little-endian, independent of the host's byte order.
void encode_header(const Header &h, uint8_t out[kHeaderSize]);
void decode_header(const uint8_t in[kHeaderSize], Header *h);

uint64_t load_le64(const uint8_t *p);
uint32_t load_le32(const uint8_t *p);
void store_le64(uint8_t *p, uint64_t v);
void store_le32(uint8_t *p, uint32_t v);

// dtype <-> manifest name ("f32", "bf16", ...). Unknown names/values: false / "invalid" / 0.
bool dtype_from_name(const std::string &name, mie_dtype *out);
const char *dtype_to_name(mie_dtype dtype);
size_t dtype_byte_size(mie_dtype dtype);
const char *dtype_name_list();  // "f32, f16, bf16, f64, i8, i16, i32, i64, u8, bool" for error messages

// A cuda target's arch: "sm_90" -> 90, "sm_90a" -> 90 with *exact set (code for exactly that compute
// capability); false for anything else.
bool parse_sm_arch(const std::string &arch, int *sm, bool *exact);

}  // namespace mie::rt
