// Package signatures (docs/package-format.md, "Signature trailer"; docs/security.md): the trailer that
// carries one, the digest it signs and the public key file format. Shared by the reader (package.cpp,
// which verifies) and the tools' signing library (signing.cpp, which signs); no secret key code here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "ed25519.h"
#include "mie/mie_rt.h"

namespace mie::rt {

using PublicKey = std::array<uint8_t, kEd25519PublicKeyBytes>;

// Trailer layout (128 bytes right after the package body, at the header's file_size):
//   magic@0 "MIESIG\0\0", version@8 (u32, 1: Ed25519 over the version 1 digest), size@12 (u32, 128),
//   public_key@16 (32 bytes), signature@48 (64 bytes), reserved@112 (16 bytes, zero).
constexpr uint8_t kSignatureMagic[8] = {'M', 'I', 'E', 'S', 'I', 'G', 0, 0};
constexpr uint32_t kSignatureVersion = 1;
constexpr uint32_t kSignatureTrailerSize = 128;

struct SignatureTrailer {
  uint32_t version = 0;
  uint32_t size = 0;
  PublicKey public_key{};
  uint8_t signature[kEd25519SignatureBytes] = {};
  bool reserved_zero = true;  // decode only
};

// True when `bytes` (kSignatureTrailerSize of them) start with the trailer magic.
bool is_signature_trailer(const uint8_t *bytes);
void encode_signature_trailer(const SignatureTrailer &t, uint8_t out[kSignatureTrailerSize]);
void decode_signature_trailer(const uint8_t in[kSignatureTrailerSize], SignatureTrailer *t);

// The message an Ed25519 package signature signs: SHA-512 of the domain string
// "mie package signature v1\0" (25 bytes), the 128 header bytes and the manifest bytes. The header pins
// the manifest's place, size and SHA-256 and the body's size; the manifest pins every section's place,
// size and SHA-256, which validation checks: so the digest pins every byte the runtime uses.
constexpr size_t kSignedDigestBytes = 64;
void package_signed_digest(const uint8_t *header, const uint8_t *manifest, uint64_t manifest_size,
                           uint8_t digest[kSignedDigestBytes]);

// Public key files (NAME.pub): one line, "mie-ed25519-public " and 64 hex digits, then a newline.
// parse_public_key_file_text accepts exactly that (the final newline optional) and checks the key is a
// valid, not small-order point; *error says what is wrong without naming the file.
constexpr const char *kPublicKeyPrefix = "mie-ed25519-public ";
std::string format_public_key_file_text(const PublicKey &key);
bool parse_public_key_file_text(const std::string &text, PublicKey *key, std::string *error);
// Reads and parses a public key file: MIE_OK, MIE_ERR_IO (cannot be read) or MIE_ERR_INVALID_ARGUMENT (not
// a valid key file); errors name it ("public key file 'k.pub': ...").
mie_status read_public_key_file(const std::string &path, PublicKey *key, std::string *error);

// A short name for a key in messages: the first 8 bytes of SHA-256(key) in hex.
std::string key_id(const PublicKey &key);

}  // namespace mie::rt
