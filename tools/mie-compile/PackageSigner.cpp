//===- PackageSigner.cpp - mie-compile --sign-key -------------------------===//
#include "PackageSigner.h"

#include <vector>

#include "mie/mie_signing.h"

namespace mie_compile {

struct PackageSigner::Key {
  mie::SigningKey key;
};

PackageSigner::PackageSigner() : key(std::make_unique<Key>()) {}
PackageSigner::~PackageSigner() = default;

std::string PackageSigner::load(const std::string &keyPath) {
  return mie::read_signing_key(keyPath, &key->key);
}

std::string PackageSigner::sign(std::string &package) const {
  std::vector<uint8_t> signedBytes;
  std::string error =
      mie::sign_package(reinterpret_cast<const uint8_t *>(package.data()), package.size(),
                        key->key, &signedBytes);
  if (error.empty())
    package.assign(signedBytes.begin(), signedBytes.end());
  return error;
}

} // namespace mie_compile
