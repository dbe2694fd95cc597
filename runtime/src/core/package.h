// A validated, read-only .mie package. Immutable after open; sessions share it through shared_ptr so the
// mapping (and with it the weights every session reads) outlives mie_package_close while sessions exist.
#pragma once

#include <cstdint>
#include <memory>
#include <functional>
#include <string>

#include "huge_pages.h"
#include "manifest.h"
#include "mie/mie_rt.h"

namespace mie::rt {

// Validates a whole package image: header, section bounds/alignment/overlaps, manifest hash, manifest schema
// and every section hash. Pure (no I/O) so tests can feed it mutated bytes. *error has no "package" prefix.
// `hashed`, when given, is told each stretch of the sections (at most kHashChunk bytes) once its hash has
// been computed: the package is then done with those bytes until a kernel reads them.
constexpr uint64_t kHashChunk = uint64_t(8) << 20;
bool validate_package(const uint8_t *data, uint64_t size, Manifest *manifest, std::string *error,
                      const std::function<void(const uint8_t *, uint64_t)> &hashed = {});

class Package {
 public:
  // Maps `path` read-only (a MappedFile: never copied, huge pages where the file system allows) and
  // validates it. Errors are "package '<path>': ..." with a matching status.
  static mie_status open(const std::string &path, std::shared_ptr<const Package> *out, std::string *error);
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

 private:
  Package() = default;
  const void *section_data(const SectionRef &s) const { return s.size ? data_ + s.offset : nullptr; }
  std::string path_;
  const uint8_t *data_ = nullptr;
  uint64_t size_ = 0;
  MappedFile file_;  // holds data_
  Manifest manifest_;
  std::string manifest_text_;  // NUL-terminated copy for the C API
};

}  // namespace mie::rt
