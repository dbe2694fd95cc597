// libFuzzer target: the ABI table check on arbitrary words against a small fixed manifest, as a code
// object's table could be malformed; it must never read past `count` words.
#include <cstring>
#include <vector>

#include "core/abi_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // An exact-size heap copy so that AddressSanitizer sees any read past the last word.
  std::vector<int64_t> words(size / 8);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 8);
  static const mie::rt::Manifest manifest = [] {
    mie::rt::Manifest m;
    m.inputs.resize(2);
    m.inputs[0].dtype = MIE_DTYPE_F32;
    m.inputs[0].dims = {2, 64};
    m.inputs[1].dtype = MIE_DTYPE_I32;
    m.inputs[1].dims = {1};
    m.outputs.resize(1);
    m.outputs[0].dtype = MIE_DTYPE_F32;
    m.outputs[0].dims = {2};
    return m;
  }();
  mie::rt::TargetDesc target;
  target.arena_bytes = 512;
  std::string error;
  mie::rt::check_abi_table(words.data(), words.size(), manifest, target, 256, &error);
  return 0;
}
