//===- PackageSigner.h - mie-compile --sign-key ---------------------------===//
//
// Signs the package mie-compile produces. A header of its own so that the driver, which works in
// `mlir::mie` under `using namespace mlir`, never sees the runtime's top-level `mie` namespace (the two
// would make every `mie::` in the driver ambiguous).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>

namespace mie_compile {

class PackageSigner {
public:
  PackageSigner();
  ~PackageSigner();
  /// Reads the secret key file; "" or a message naming the file.
  std::string load(const std::string &keyPath);
  /// Replaces `package` (a complete package image) by the same package with a signature trailer.
  std::string sign(std::string &package) const;

private:
  struct Key;
  std::unique_ptr<Key> key;
};

} // namespace mie_compile
