// libFuzzer target: the package validator on arbitrary bytes. When the header's manifest range lies inside
// the input, the manifest hash is recomputed first, so mutations reach the JSON parser, the schema and the
// section checks instead of stopping at the hash (section hashes are left as they are: they only compare).
// An input whose last 128 bytes start with the signature trailer's magic gets its header's file_size
// pointed at them, so mutations reach the trailer's parser and the signature check too; the first byte
// picks the signature policy (none, a trusted key, a trusted key and a required signature).
#include <cstring>
#include <vector>

#include "core/format.h"
#include "core/package.h"
#include "core/sha256.h"
#include "core/signature.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  if (size >= mie::rt::kHeaderSize) {
    const uint64_t offset = mie::rt::load_le64(bytes.data() + 16), msize = mie::rt::load_le64(bytes.data() + 24);
    if (offset <= size && msize <= size - offset) mie::rt::sha256(bytes.data() + offset, size_t(msize), bytes.data() + 40);
    if (size >= mie::rt::kHeaderSize + mie::rt::kSignatureTrailerSize &&
        mie::rt::is_signature_trailer(bytes.data() + size - mie::rt::kSignatureTrailerSize))
      mie::rt::store_le64(bytes.data() + 32, size - mie::rt::kSignatureTrailerSize);
  }
  // RFC 8032's first test key: a valid point, so the policy code runs past the key checks.
  static const mie::rt::PublicKey kKey = {0xd7, 0x5a, 0x98, 0x01, 0x82, 0xb1, 0x0a, 0xb7, 0xd5, 0x4b, 0xfe,
                                          0xd3, 0xc9, 0x64, 0x07, 0x3a, 0x0e, 0xe1, 0x72, 0xf3, 0xda, 0xa6,
                                          0x23, 0x25, 0xaf, 0x02, 0x1a, 0x68, 0xf7, 0x07, 0x51, 0x1a};
  mie::rt::SignaturePolicy policy;
  const int mode = size > 0 ? data[0] % 3 : 0;
  if (mode >= 1) policy.trusted_keys.push_back(kKey);
  policy.require = mode == 2;
  mie::rt::Manifest manifest;
  mie::rt::SignatureState state;
  std::string error;
  static const uint8_t kEmpty[1] = {0};
  mie::rt::validate_package(bytes.empty() ? kEmpty : bytes.data(), bytes.size(), &manifest, &error, {}, &policy,
                            &state);
  return 0;
}
