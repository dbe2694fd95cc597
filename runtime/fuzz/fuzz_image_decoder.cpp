// libFuzzer target: the ImageDecoder op's decoding of arbitrary bytes at the size of the ONNX test
// images (32x32), so that mutations of runtime/test/data/images/*.in.bin reach the pixel decoding.
// It must never crash, read past the input or write past the output, and leave zeros when it fails.
#include <cstdlib>
#include <vector>

#include "core/image_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Exact-size heap copies so that AddressSanitizer sees any access past either end.
  const std::vector<uint8_t> input(data, data + size);
  for (mie::PixelFormat format :
       {mie::PixelFormat::RGB, mie::PixelFormat::BGR, mie::PixelFormat::Grayscale}) {
    const int64_t channels = format == mie::PixelFormat::Grayscale ? 1 : 3;
    std::vector<uint8_t> out(size_t(32 * 32 * channels), 0xcd);
    const std::string error = mie::decode_image(input.data(), int64_t(input.size()), format,
                                                out.data(), 32, 32, channels);
    if (!error.empty())
      for (uint8_t v : out)
        if (v != 0)
          std::abort();
  }
  return 0;
}
