#include "package.h"

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "json.h"
#include "sha256.h"

namespace mie::rt {
namespace {

std::string range(uint64_t offset, uint64_t size) {
  return "[" + std::to_string(offset) + ", " + std::to_string(offset + size) + ")";
}

struct NamedSection {
  std::string label;  // "weights section", "code section of target 'x86-64'"
  const SectionRef *ref;
};

// Placement rules shared by every section: aligned, inside the file, no overflow. Overlaps are checked later
// across all sections at once.
bool check_placement(const std::string &label, uint64_t offset, uint64_t size, uint64_t file_size,
                     std::string *error) {
  if (offset % kSectionAlignment != 0) {
    *error = label + " offset " + std::to_string(offset) + " is not a multiple of " +
             std::to_string(kSectionAlignment);
    return false;
  }
  if (size > UINT64_MAX - offset) {
    *error = label + " offset " + std::to_string(offset) + " + size " + std::to_string(size) + " overflows";
    return false;
  }
  if (offset + size > file_size) {
    *error = label + " " + range(offset, size) + " extends past end of file (" + std::to_string(file_size) +
             " bytes)";
    return false;
  }
  return true;
}

bool check_signature(const uint8_t *data, const Header &h, const SignatureTrailer *trailer,
                     const SignaturePolicy *policy, SignatureState *sig, std::string *error) {
  static const SignaturePolicy kNoPolicy;
  const SignaturePolicy &p = policy ? *policy : kNoPolicy;
  if (!trailer) {
    if (p.require) {
      *error = "not signed, and a signature by a trusted key is required";
      return false;
    }
    return true;
  }
  uint8_t digest[kSignedDigestBytes];
  package_signed_digest(data, data + h.manifest_offset, h.manifest_size, digest);
  bool listed = false;
  for (const PublicKey &k : p.trusted_keys) listed |= k == trailer->public_key;
  if (!p.trusted_keys.empty() && !listed) {
    *error = "signed by key " + key_id(trailer->public_key) + ", which is not among the " +
             std::to_string(p.trusted_keys.size()) + " trusted key" + (p.trusted_keys.size() == 1 ? "" : "s");
    return false;
  }
  if (!ed25519_verify(trailer->public_key.data(), digest, sizeof digest, trailer->signature)) {
    *error = "signature by key " + key_id(trailer->public_key) +
             " does not verify (the header or manifest changed after signing, or the trailer is damaged)";
    return false;
  }
  sig->trusted = listed;
  return true;
}

}  // namespace

bool validate_package(const uint8_t *data, uint64_t size, Manifest *manifest, std::string *error,
                      const std::function<void(const uint8_t *, uint64_t)> &hashed, const SignaturePolicy *policy,
                      SignatureState *signature) {
  SignatureState local_state;
  SignatureState &sig = signature ? *signature : local_state;
  sig = SignatureState();
  if (size < kHeaderSize) {
    *error = "file is too small to be a package (" + std::to_string(size) + " bytes, the header alone is " +
             std::to_string(kHeaderSize) + ")";
    return false;
  }
  Header h;
  decode_header(data, &h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) {
    *error = "bad magic (not a .mie package)";
    return false;
  }
  if (h.format_version < kMinFormatVersion || h.format_version > kFormatVersion) {
    *error = "unsupported format version " + std::to_string(h.format_version) + " (this runtime reads versions " +
             std::to_string(kMinFormatVersion) + " to " + std::to_string(kFormatVersion) + ")";
    return false;
  }
  if (h.header_size != kHeaderSize) {
    *error = "header_size is " + std::to_string(h.header_size) + ", expected " + std::to_string(kHeaderSize);
    return false;
  }
  if (!h.reserved_zero) {
    *error = "reserved header bytes [72, 128) are not zero";
    return false;
  }
  if (h.file_size > size) {
    *error = "file is truncated: header says " + std::to_string(h.file_size) + " bytes, file has " +
             std::to_string(size);
    return false;
  }
  // The body is [0, file_size); a signed package has exactly one signature trailer after it, and
  // anything else after it is an error as before.
  SignatureTrailer trailer;
  if (h.file_size < size) {
    if (size - h.file_size != kSignatureTrailerSize || !is_signature_trailer(data + h.file_size)) {
      *error = "file has " + std::to_string(size) + " bytes but the header says " + std::to_string(h.file_size) +
               " (trailing data)";
      return false;
    }
    decode_signature_trailer(data + h.file_size, &trailer);
    if (trailer.version != kSignatureVersion) {
      *error = "signature trailer version " + std::to_string(trailer.version) +
               " is not supported (this runtime reads version " + std::to_string(kSignatureVersion) + ")";
      return false;
    }
    if (trailer.size != kSignatureTrailerSize || !trailer.reserved_zero) {
      *error = "malformed signature trailer (its size field is " + std::to_string(trailer.size) +
               ", expected " + std::to_string(kSignatureTrailerSize) + ", and its reserved bytes must be zero)";
      return false;
    }
    sig.present = true;
    sig.key = trailer.public_key;
    size = h.file_size;  // every check below is on the body alone
  }
  if (h.manifest_size == 0) {
    *error = "manifest is empty";
    return false;
  }
  if (!check_placement("manifest", h.manifest_offset, h.manifest_size, size, error)) return false;
  if (h.manifest_offset < kHeaderSize) {
    *error = "manifest " + range(h.manifest_offset, h.manifest_size) + " overlaps the header [0, 128)";
    return false;
  }
  // Parsing takes memory in proportion: bounded before the parser sees it.
  if (h.manifest_size > MIE_MAX_MANIFEST_BYTES) {
    *error = "manifest is " + std::to_string(h.manifest_size) + " bytes, more than the maximum of " +
             std::to_string(MIE_MAX_MANIFEST_BYTES);
    return false;
  }
  const uint8_t *mtext = data + h.manifest_offset;
  uint8_t digest[32];
  sha256(mtext, h.manifest_size, digest);
  if (std::memcmp(digest, h.manifest_sha256, 32) != 0) {
    *error = "sha256 mismatch in manifest";
    return false;
  }
  // The signature and the policy come before the manifest is parsed: with trusted keys configured, no
  // parser sees bytes that a trusted key did not sign.
  if (!check_signature(data, h, sig.present ? &trailer : nullptr, policy, &sig, error)) {
    sig.refused = true;
    return false;
  }

  json::Value root;
  std::string jerr;
  if (!json::parse(reinterpret_cast<const char *>(mtext), h.manifest_size, &root, &jerr)) {
    *error = "manifest is not valid JSON: " + jerr;
    return false;
  }
  if (!parse_manifest(root, manifest, &jerr)) {
    *error = "manifest: " + jerr;
    return false;
  }
  if (uint64_t(manifest->format_version) != h.format_version) {
    *error = "manifest format_version " + std::to_string(manifest->format_version) + " differs from the header's " +
             std::to_string(h.format_version);
    return false;
  }

  std::vector<NamedSection> sections;
  sections.push_back({"weights section", &manifest->weights});
  // Format 4: specializations of one model (targets of one name) often pack their weights alike,
  // and a target's weights may then be another weights section itself: the same offset, size and
  // hash. Such a section is listed (and hashed) once.
  auto same_section = [](const SectionRef &a, const SectionRef &b) {
    return a.offset == b.offset && a.size == b.size && std::memcmp(a.sha256, b.sha256, 32) == 0;
  };
  std::vector<const SectionRef *> weights_sections = {&manifest->weights};
  for (const auto &t : manifest->targets) {
    sections.push_back({"code section of target '" + t.name + "'", &t.code});
    if (!t.has_own_weights)
      continue;
    const bool shared =
        manifest->format_version >= 4 &&
        std::any_of(weights_sections.begin(), weights_sections.end(),
                    [&](const SectionRef *w) { return same_section(*w, t.weights); });
    if (shared)
      continue;
    weights_sections.push_back(&t.weights);
    sections.push_back({"weights section of target '" + t.name + "'", &t.weights});
  }
  for (const auto &s : sections)
    if (!check_placement(s.label, s.ref->offset, s.ref->size, size, error)) return false;

  // Overlaps: every non-empty section against the header, the manifest and each other. Quadratic, but a
  // package has a handful of sections.
  auto overlaps = [](uint64_t a, uint64_t as, uint64_t b, uint64_t bs) { return a < b + bs && b < a + as; };
  for (size_t i = 0; i < sections.size(); ++i) {
    const SectionRef &s = *sections[i].ref;
    if (s.size == 0) continue;  // an empty section occupies no bytes
    if (overlaps(s.offset, s.size, 0, kHeaderSize)) {
      *error = sections[i].label + " " + range(s.offset, s.size) + " overlaps the header [0, 128)";
      return false;
    }
    if (overlaps(s.offset, s.size, h.manifest_offset, h.manifest_size)) {
      *error = sections[i].label + " " + range(s.offset, s.size) + " overlaps the manifest " +
               range(h.manifest_offset, h.manifest_size);
      return false;
    }
    for (size_t j = 0; j < i; ++j) {
      const SectionRef &o = *sections[j].ref;
      if (o.size != 0 && overlaps(s.offset, s.size, o.offset, o.size)) {
        *error = sections[i].label + " " + range(s.offset, s.size) + " overlaps " + sections[j].label + " " +
                 range(o.offset, o.size);
        return false;
      }
    }
  }
  // Hashes last: they are the expensive part and everything they read is now known to be in bounds.
  for (const auto &s : sections) {
    Sha256 hash;
    for (uint64_t done = 0; done < s.ref->size;) {
      const uint64_t n = std::min(kHashChunk, s.ref->size - done);
      hash.update(data + s.ref->offset + done, size_t(n));
      if (hashed) hashed(data + s.ref->offset + done, n);
      done += n;
    }
    hash.finish(digest);
    if (std::memcmp(digest, s.ref->sha256, 32) != 0) {
      *error = "sha256 mismatch in " + s.label;
      return false;
    }
  }
  return true;
}

mie_status Package::open(const std::string &path, const SignaturePolicy &policy, std::shared_ptr<const Package> *out,
                         std::string *error) {
  const std::string prefix = "package '" + path + "': ";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = prefix + "cannot open: " + std::strerror(errno);
    return MIE_ERR_IO;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    *error = prefix + "cannot stat: " + std::strerror(errno);
    ::close(fd);
    return MIE_ERR_IO;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = prefix + "not a regular file";
    ::close(fd);
    return MIE_ERR_IO;
  }
  const uint64_t size = uint64_t(st.st_size);
  std::shared_ptr<Package> pkg(new Package());
  pkg->path_ = path;
  pkg->size_ = size;
  if (size >= kHeaderSize) {  // smaller files fail validation below; mmap of 0 bytes is an error anyway
    if (!pkg->file_.map(fd, size)) {
      const int why = errno;
      *error = prefix + "cannot map " + std::to_string(size) + " bytes: " + std::strerror(why);
      ::close(fd);
      return why == ENOMEM ? MIE_ERR_OUT_OF_MEMORY : MIE_ERR_IO;
    }
    pkg->data_ = pkg->file_.data();
  }
  ::close(fd);
  std::string verr;
  static const uint8_t kEmpty[kHeaderSize] = {};
  // Validation reads every byte; what it has hashed leaves the process's resident memory again (clean
  // file pages: the page cache keeps them, a later read maps them back), so a session holds only the
  // weights its kernels read: all of them for a CNN, a few rows of a large embedding table.
  auto release = [&](const uint8_t *begin, uint64_t n) { pkg->file_.release(begin, n); };
  if (!validate_package(pkg->data_ ? pkg->data_ : kEmpty, size, &pkg->manifest_, &verr, release, &policy,
                        &pkg->signature_)) {
    *error = prefix + verr;
    return pkg->signature_.refused ? MIE_ERR_SIGNATURE : MIE_ERR_INVALID_PACKAGE;
  }
  Header h;
  decode_header(pkg->data_, &h);
  pkg->manifest_text_.assign(reinterpret_cast<const char *>(pkg->data_ + h.manifest_offset), h.manifest_size);
  *out = std::move(pkg);
  return MIE_OK;
}

const TargetDesc *Package::find_target(const std::string &name) const {
  for (const auto &t : manifest_.targets)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace mie::rt
