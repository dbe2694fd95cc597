// A validated, read-only .mie package. Immutable after open; sessions share it through shared_ptr so the
// mapping (and with it the weights every session reads) outlives mie_package_close while sessions exist.
#pragma once

#include <cstdint>
#include <memory>
#include <functional>
#include <string>
#include <vector>

#include "huge_pages.h"
#include "manifest.h"
#include "mie/mie_rt.h"
#include "signature.h"

namespace mie::rt {

// What the opener trusts (docs/security.md). With keys, a signed package must be signed by one of them;
// with `require`, an unsigned package is refused too.
struct SignaturePolicy {
  std::vector<PublicKey> trusted_keys;
  bool require = false;
};

// What validation found out about a package's signature.
struct SignatureState {
  bool present = false;  // the file ends in a signature trailer (whose signature verifies)
  bool trusted = false;  // ... made with one of the policy's trusted keys
  PublicKey key{};       // the trailer's key, when present
  bool refused = false;  // validation failed on the signature or on the policy: MIE_ERR_SIGNATURE
};

// Validates a whole package image: header, signature trailer and policy, section bounds/alignment/overlaps,
// manifest hash, manifest schema and every section hash. Pure (no I/O) so tests can feed it mutated bytes.
// *error has no "package" prefix. A present signature is always verified (against its own key when the
// policy lists none: that catches damage, not forgery); `policy` NULL trusts no key and requires nothing.
// `hashed`, when given, is told each stretch of the sections (at most kHashChunk bytes) once its hash has
// been computed: the package is then done with those bytes until a kernel reads them.
constexpr uint64_t kHashChunk = uint64_t(8) << 20;
bool validate_package(const uint8_t *data, uint64_t size, Manifest *manifest, std::string *error,
                      const std::function<void(const uint8_t *, uint64_t)> &hashed = {},
                      const SignaturePolicy *policy = nullptr, SignatureState *signature = nullptr);

class Package {
 public:
  // Maps `path` read-only (a MappedFile: never copied, huge pages where the file system allows) and
  // validates it under `policy`. Errors are "package '<path>': ..." with a matching status.
  static mie_status open(const std::string &path, const SignaturePolicy &policy,
                         std::shared_ptr<const Package> *out, std::string *error);
  Package(const Package &) = delete;
  Package &operator=(const Package &) = delete;

  const std::string &path() const { return path_; }
  const Manifest &manifest() const { return manifest_; }
  const uint8_t *data() const { return data_; }
  uint64_t size() const { return size_; }
  const std::string &manifest_text() const { return manifest_text_; }
  // NULL when the weights section is empty; otherwise 64-byte aligned (the contents are page aligned).
  const void *weights() const { return section_data(manifest_.weights); }
  // The weights `target`'s code reads: its own section when it has one, else the shared one.
  const void *weights(const TargetDesc &target) const {
    return section_data(target.has_own_weights ? target.weights : manifest_.weights);
  }
  const TargetDesc *find_target(const std::string &name) const;
  const SignatureState &signature() const { return signature_; }

 private:
  Package() = default;
  const void *section_data(const SectionRef &s) const { return s.size ? data_ + s.offset : nullptr; }
  std::string path_;
  const uint8_t *data_ = nullptr;
  uint64_t size_ = 0;
  MappedFile file_;  // holds data_
  Manifest manifest_;
  std::string manifest_text_;  // NUL-terminated copy for the C API
  SignatureState signature_;
};

}  // namespace mie::rt
