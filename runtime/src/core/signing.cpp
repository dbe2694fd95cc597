// Key files, package signing and atomic file writes for the tools (mie_signing.h).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ed25519.h"
#include "format.h"
#include "mie/mie_signing.h"
#include "package.h"
#include "sha256.h"
#include "signature.h"
#include "temp_file.h"

namespace mie {
namespace {

constexpr const char *kSecretKeyPrefix = "mie-ed25519-secret ";

void wipe(void *p, size_t n) {
  volatile uint8_t *b = static_cast<volatile uint8_t *>(p);
  for (size_t i = 0; i < n; ++i) b[i] = 0;
}

void wipe(std::string &s) {
  wipe(&s[0], s.size());
  s.clear();
}

// 32 bytes from the kernel's CSPRNG: getrandom() (blocks only until the pool is first seeded), or
// /dev/urandom where the system call is missing (old kernels, some sandboxes).
std::string random_bytes(uint8_t *out, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = getrandom(out + done, size - done, 0);
    if (n > 0) {
      done += size_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != ENOSYS) return std::string("getrandom failed: ") + std::strerror(errno);
    break;
  }
  if (done == size) return "";
  int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string("no getrandom() and cannot open /dev/urandom: ") + std::strerror(errno);
  while (done < size) {
    const ssize_t n = ::read(fd, out + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return "cannot read /dev/urandom";
    }
    done += size_t(n);
  }
  ::close(fd);
  return "";
}

bool exists(const std::string &path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

// Reads a whole small or large regular file; "" or a message without the file's name.
std::string read_file(const std::string &path, std::vector<uint8_t> *out, uint64_t max_bytes, struct stat *st) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string("cannot open: ") + std::strerror(errno);
  if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
    ::close(fd);
    return "not a regular file";
  }
  if (uint64_t(st->st_size) > max_bytes) {
    ::close(fd);
    return "too large (" + std::to_string(st->st_size) + " bytes)";
  }
  out->resize(size_t(st->st_size));
  size_t done = 0;
  while (done < out->size()) {
    const ssize_t n = ::read(fd, out->data() + done, out->size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int why = errno;
      ::close(fd);
      return std::string("cannot read: ") + std::strerror(why);
    }
    if (n == 0) break;
    done += size_t(n);
  }
  ::close(fd);
  if (done != out->size()) return "the file changed while it was read";
  return "";
}

}  // namespace

namespace {

struct Piece {
  const void *data;
  size_t size;
};

std::string write_pieces_atomically(const std::string &path, std::initializer_list<Piece> pieces, unsigned mode,
                                    bool replace) {
  const std::string prefix = "cannot write '" + path + "': ";
  if (!replace && exists(path)) return prefix + "the file exists (it is never overwritten)";
  // Our own O_EXCL name beside the target, as PackageWriter::write does: same file system, so the rename
  // or link is atomic, and the file is created with `mode` from the start (never briefly wider).
  std::string tmp;
  const int fd = rt::create_temp_beside(path, mode, &tmp);
  if (fd < 0) return prefix + "cannot create '" + tmp + "': " + std::strerror(errno);
  int saved_errno = 0;
  for (const Piece &piece : pieces) {
    const char *p = static_cast<const char *>(piece.data);
    size_t left = piece.size;
    while (left > 0 && saved_errno == 0) {
      const ssize_t w = ::write(fd, p, left > (1u << 30) ? (1u << 30) : left);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        saved_errno = errno;
        break;
      }
      p += w;
      left -= size_t(w);
    }
  }
  // fsync before the rename or link: a crash must leave the old file or the whole new one.
  if (saved_errno == 0 && fsync(fd) != 0) saved_errno = errno;
  if (::close(fd) != 0 && saved_errno == 0) saved_errno = errno;
  if (saved_errno == 0) {
    if (replace) {
      if (std::rename(tmp.c_str(), path.c_str()) != 0) saved_errno = errno;
    } else if (::link(tmp.c_str(), path.c_str()) != 0) {
      // link() fails with EEXIST where a file appeared since the check above: still never overwritten.
      saved_errno = errno;
    }
  }
  if (!replace || saved_errno != 0) unlink(tmp.c_str());
  if (saved_errno == EEXIST && !replace) return prefix + "the file exists (it is never overwritten)";
  if (saved_errno != 0) return prefix + std::strerror(saved_errno);
  return "";
}

// The signature trailer for the package image `data`; *body is where the unsigned package ends.
std::string make_trailer(const uint8_t *data, uint64_t size, const SigningKey &key, uint64_t *body,
                         uint8_t trailer_bytes[rt::kSignatureTrailerSize]) {
  // Drop an existing trailer: what is signed is the body, and re-signing replaces the signature.
  *body = size;
  if (size >= rt::kHeaderSize) {
    rt::Header h;
    rt::decode_header(data, &h);
    if (h.file_size < size && size - h.file_size == rt::kSignatureTrailerSize &&
        rt::is_signature_trailer(data + h.file_size))
      *body = h.file_size;
  }
  rt::Manifest manifest;
  std::string error;
  if (!rt::validate_package(data, *body, &manifest, &error)) return "not a valid package: " + error;
  rt::Header h;
  rt::decode_header(data, &h);
  uint8_t digest[rt::kSignedDigestBytes];
  rt::package_signed_digest(data, data + h.manifest_offset, h.manifest_size, digest);
  rt::SignatureTrailer trailer;
  trailer.version = rt::kSignatureVersion;
  trailer.size = rt::kSignatureTrailerSize;
  std::memcpy(trailer.public_key.data(), key.public_key(), 32);
  ed25519_sign(key, digest, sizeof digest, trailer.signature);
  // A signature that does not verify would only be found at load time, on another machine: check here.
  if (!rt::ed25519_verify(key.public_key(), digest, sizeof digest, trailer.signature))
    return "internal error: the new signature does not verify";
  rt::encode_signature_trailer(trailer, trailer_bytes);
  return "";
}

}  // namespace

std::string write_file_atomically(const std::string &path, const void *data, size_t size, unsigned mode,
                                  bool replace) {
  return write_pieces_atomically(path, {{data, size}}, mode, replace);
}

std::string generate_key_files(const std::string &name) {
  if (name.empty()) return "keygen: the key name is empty";
  const std::string key_path = name + ".key", pub_path = name + ".pub";
  // Both checked first so that an existing NAME.pub never leaves a fresh NAME.key behind without it.
  for (const std::string &path : {key_path, pub_path})
    if (exists(path)) return "cannot write '" + path + "': the file exists (it is never overwritten)";
  uint8_t seed[32];
  if (std::string e = random_bytes(seed, sizeof seed); !e.empty()) return "keygen: " + e;
  SigningKey key;
  key.set_seed(seed);
  wipe(seed, sizeof seed);
  std::string secret = std::string(kSecretKeyPrefix) + rt::to_hex(key.seed(), 32) + "\n";
  std::string error = write_file_atomically(key_path, secret.data(), secret.size(), 0600, false);
  wipe(secret);
  if (!error.empty()) return error;
  rt::PublicKey pub;
  std::memcpy(pub.data(), key.public_key(), 32);
  const std::string text = rt::format_public_key_file_text(pub);
  error = write_file_atomically(pub_path, text.data(), text.size(), 0644, false);
  if (!error.empty()) {
    unlink(key_path.c_str());  // a secret key without its public half is of no use to anyone
    return error;
  }
  return "";
}

std::string read_signing_key(const std::string &path, SigningKey *key) {
  const std::string prefix = "secret key file '" + path + "': ";
  std::vector<uint8_t> bytes;
  struct stat st;
  if (std::string e = read_file(path, &bytes, 4096, &st); !e.empty()) return prefix + e;
  std::string text(bytes.begin(), bytes.end());
  wipe(bytes.data(), bytes.size());
  const std::string expect = kSecretKeyPrefix;
  if (text.compare(0, expect.size(), expect) != 0) {
    const bool is_public = text.compare(0, std::strlen(rt::kPublicKeyPrefix), rt::kPublicKeyPrefix) == 0;
    wipe(text);
    return prefix + (is_public ? "this is a public key file; signing needs the secret key (NAME.key)"
                               : "not a secret key file (expected a line starting with 'mie-ed25519-secret')");
  }
  if (st.st_mode & 077) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
    wipe(text);
    return prefix + "others than its owner may read it (mode " + mode + "); chmod 600 it";
  }
  std::string hex = text.substr(expect.size());
  wipe(text);
  if (!hex.empty() && hex.back() == '\n') hex.pop_back();
  uint8_t seed[32];
  const bool ok = hex.size() == 64 && rt::from_hex(hex, seed, 32);
  const size_t found = hex.size();
  wipe(hex);
  if (!ok)
    return prefix + (found != 64 ? "expected 64 hex digits (a 32-byte Ed25519 seed), found " +
                                       std::to_string(found) + " characters"
                                 : std::string("the key is not hex digits"));
  key->set_seed(seed);
  wipe(seed, sizeof seed);
  return "";
}

std::string sign_package(const uint8_t *data, uint64_t size, const SigningKey &key, std::vector<uint8_t> *out) {
  uint64_t body = 0;
  uint8_t trailer[rt::kSignatureTrailerSize];
  if (std::string e = make_trailer(data, size, key, &body, trailer); !e.empty()) return e;
  out->assign(data, data + body);
  out->insert(out->end(), trailer, trailer + sizeof trailer);
  return "";
}

std::string sign_package_file(const std::string &in, const std::string &out, const SigningKey &key) {
  const std::string prefix = "package '" + in + "': ";
  // Mapped, not read: the weights of a large model need not fit in memory twice.
  int fd = ::open(in.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return prefix + "cannot open: " + std::strerror(errno);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return prefix + "not a regular file";
  }
  const size_t size = size_t(st.st_size);
  const uint8_t *data = nullptr;
  if (size > 0) {
    void *p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int why = errno;
      ::close(fd);
      return prefix + "cannot map: " + std::strerror(why);
    }
    data = static_cast<const uint8_t *>(p);
  }
  ::close(fd);
  static const uint8_t kEmpty[1] = {0};
  uint64_t body = 0;
  uint8_t trailer[rt::kSignatureTrailerSize];
  std::string error = make_trailer(data ? data : kEmpty, size, key, &body, trailer);
  if (!error.empty()) error = prefix + error;
  else error = write_pieces_atomically(out, {{data, size_t(body)}, {trailer, sizeof trailer}}, 0666, true);
  if (data) munmap(const_cast<uint8_t *>(data), size);
  return error;
}

}  // namespace mie
