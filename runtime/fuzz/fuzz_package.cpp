// libFuzzer target: the package validator on arbitrary bytes. When the header's manifest range lies inside
// the input, the manifest hash is recomputed first, so mutations reach the JSON parser, the schema and the
// section checks instead of stopping at the hash (section hashes are left as they are: they only compare).
#include <cstring>
#include <vector>

#include "core/format.h"
#include "core/package.h"
#include "core/sha256.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  if (size >= mie::rt::kHeaderSize) {
    const uint64_t offset = mie::rt::load_le64(bytes.data() + 16), msize = mie::rt::load_le64(bytes.data() + 24);
    if (offset <= size && msize <= size - offset) mie::rt::sha256(bytes.data() + offset, size_t(msize), bytes.data() + 40);
  }
  mie::rt::Manifest manifest;
  std::string error;
  static const uint8_t kEmpty[1] = {0};
  mie::rt::validate_package(bytes.empty() ? kEmpty : bytes.data(), bytes.size(), &manifest, &error);
  return 0;
}
