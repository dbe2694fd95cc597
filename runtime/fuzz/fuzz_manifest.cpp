// libFuzzer target: the manifest's JSON parser and schema check.
#include "core/json.h"
#include "core/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mie::rt::json::Value root;
  std::string error;
  if (!mie::rt::json::parse(reinterpret_cast<const char *>(data), size, &root, &error)) return 0;
  mie::rt::Manifest manifest;
  mie::rt::parse_manifest(root, &manifest, &error);
  return 0;
}
