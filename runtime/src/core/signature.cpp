#include "signature.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "sha256.h"
#include "sha512.h"

namespace mie::rt {

bool is_signature_trailer(const uint8_t *bytes) {
  return std::memcmp(bytes, kSignatureMagic, sizeof kSignatureMagic) == 0;
}

void encode_signature_trailer(const SignatureTrailer &t, uint8_t out[kSignatureTrailerSize]) {
  std::memset(out, 0, kSignatureTrailerSize);
  std::memcpy(out, kSignatureMagic, 8);
  store_le32(out + 8, t.version);
  store_le32(out + 12, t.size);
  std::memcpy(out + 16, t.public_key.data(), 32);
  std::memcpy(out + 48, t.signature, 64);
}

void decode_signature_trailer(const uint8_t in[kSignatureTrailerSize], SignatureTrailer *t) {
  t->version = load_le32(in + 8);
  t->size = load_le32(in + 12);
  std::memcpy(t->public_key.data(), in + 16, 32);
  std::memcpy(t->signature, in + 48, 64);
  t->reserved_zero = true;
  for (size_t i = 112; i < kSignatureTrailerSize; ++i)
    if (in[i] != 0) t->reserved_zero = false;
}

void package_signed_digest(const uint8_t *header, const uint8_t *manifest, uint64_t manifest_size,
                           uint8_t digest[kSignedDigestBytes]) {
  static const char kDomain[] = "mie package signature v1";  // hashed with its NUL: 25 bytes
  Sha512 h;
  h.update(kDomain, sizeof kDomain);
  h.update(header, kHeaderSize);
  h.update(manifest, size_t(manifest_size));
  h.finish(digest);
}

std::string format_public_key_file_text(const PublicKey &key) {
  return std::string(kPublicKeyPrefix) + to_hex(key.data(), key.size()) + "\n";
}

bool parse_public_key_file_text(const std::string &text, PublicKey *key, std::string *error) {
  const std::string prefix = kPublicKeyPrefix;
  if (text.compare(0, prefix.size(), prefix) != 0) {
    *error = "not a public key file (expected a line starting with '" + prefix.substr(0, prefix.size() - 1) + "')";
    return false;
  }
  std::string hex = text.substr(prefix.size());
  if (!hex.empty() && hex.back() == '\n') hex.pop_back();
  if (hex.size() != 2 * kEd25519PublicKeyBytes) {
    *error = "expected " + std::to_string(2 * kEd25519PublicKeyBytes) + " hex digits (a " +
             std::to_string(kEd25519PublicKeyBytes) + "-byte Ed25519 key), found " + std::to_string(hex.size()) +
             " characters";
    return false;
  }
  if (!from_hex(hex, key->data(), key->size())) {
    *error = "the key is not hex digits";
    return false;
  }
  if (!ed25519_public_key_valid(key->data())) {
    *error = "not a valid Ed25519 public key (not a curve point, or a point of small order)";
    return false;
  }
  return true;
}

mie_status read_public_key_file(const std::string &path, PublicKey *key, std::string *error) {
  const std::string prefix = "public key file '" + path + "': ";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = prefix + "cannot open: " + std::strerror(errno);
    return MIE_ERR_IO;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = prefix + "not a regular file";
    ::close(fd);
    return MIE_ERR_IO;
  }
  // A key file is one short line: read at most a little more than that, so a wrong path (a device, a
  // huge file) costs nothing and reads as "too long".
  char buf[512];
  size_t n = 0;
  while (n < sizeof buf) {
    const ssize_t r = ::read(fd, buf + n, sizeof buf - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      *error = prefix + "cannot read: " + std::strerror(errno);
      ::close(fd);
      return MIE_ERR_IO;
    }
    if (r == 0) break;
    n += size_t(r);
  }
  ::close(fd);
  if (n == sizeof buf) {
    *error = prefix + "too long to be a key file";
    return MIE_ERR_INVALID_ARGUMENT;
  }
  std::string why;
  if (!parse_public_key_file_text(std::string(buf, n), key, &why)) {
    *error = prefix + why;
    return MIE_ERR_INVALID_ARGUMENT;
  }
  return MIE_OK;
}

std::string key_id(const PublicKey &key) {
  uint8_t digest[32];
  sha256(key.data(), key.size(), digest);
  return to_hex(digest, 8);
}

}  // namespace mie::rt
