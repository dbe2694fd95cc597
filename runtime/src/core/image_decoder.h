// Image decoding for the ONNX ImageDecoder op, bit-exact with the ONNX reference implementation
// (Pillow). BMP and PNM are decoded here; JPEG, PNG, TIFF, WebP and JPEG 2000 through the system's
// libraries, loaded with dlopen on first use so that the runtime links against nothing new.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mie {

enum class PixelFormat : int32_t { RGB = 0, BGR = 1, Grayscale = 2 };

// Decodes the encoded image `data[0, size)` (JPEG, PNG, BMP, PNM, TIFF, WebP, JPEG 2000 — detected
// from its first bytes) into `out`, uint8 [height, width, channels] row-major, channels 3 for
// RGB/BGR and 1 for Grayscale. Returns "" on success, else a one-line message saying what went
// wrong. On failure `out` holds zeros. Never reads past `size`, never writes past
// height*width*channels bytes, whatever the bytes. Thread-safe.
std::string decode_image(const uint8_t *data, int64_t size, PixelFormat format, uint8_t *out,
                         int64_t height, int64_t width, int64_t channels);

// Internal interface between image_decoder.cpp (format detection, BMP, PNM, output conversion) and
// image_codecs.cpp (the codecs behind system libraries).
namespace image_detail {

// A decoded image before conversion to the requested pixel format: 1 channel (gray) or 3 (RGB),
// alpha already dropped.
struct Raster {
  int64_t width = 0, height = 0;
  int channels = 0;
  std::vector<uint8_t> pixels; // [height, width, channels]

  // Sizes the raster for a decoded image, zero-filled.
  void allocate(int64_t w, int64_t h, int c) {
    width = w;
    height = h;
    channels = c;
    pixels.assign(size_t(w * h * c), 0);
  }
};

// The size the model expects. Codecs compare the image's size against it before decoding, so that
// a file declaring a huge size costs nothing.
struct Expected {
  int64_t height, width;
};

// "" when `width` x `height` is the expected size, else the message naming both sizes.
std::string check_size(const char *format, int64_t width, int64_t height, const Expected &expected);

// Each returns "" after filling `raster`, else an error message.
std::string decode_jpeg(const uint8_t *data, size_t size, const Expected &expected, Raster *raster);
std::string decode_png(const uint8_t *data, size_t size, const Expected &expected, Raster *raster);
std::string decode_tiff(const uint8_t *data, size_t size, const Expected &expected, Raster *raster);
std::string decode_webp(const uint8_t *data, size_t size, const Expected &expected, Raster *raster);
// `codestream`: a raw J2K codestream rather than the JP2 box format.
std::string decode_jpeg2000(const uint8_t *data, size_t size, bool codestream,
                            const Expected &expected, Raster *raster);

} // namespace image_detail
} // namespace mie
