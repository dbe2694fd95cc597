// libFuzzer target: the .npy and ONNX TensorProto readers. Whatever parses must describe its own bytes.
#include <cstdlib>

#include "mie/mie_tensor_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mie::io::Tensor t;
  for (int format = 0; format < 2; ++format) {
    const std::string error = format ? mie::io::parse_onnx_tensor(data, size, "t.pb", &t)
                                     : mie::io::parse_npy(data, size, "t.npy", &t);
    if (error.empty() && t.data.size() != t.num_elements() * mie::io::dtype_size(t.dtype)) std::abort();
  }
  return 0;
}
