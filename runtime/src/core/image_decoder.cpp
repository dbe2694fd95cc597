#include "image_decoder.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace mie {
namespace image_detail {

std::string check_size(const char *format, int64_t width, int64_t height,
                       const Expected &expected) {
  if (width == expected.width && height == expected.height)
    return "";
  return "the image is " + std::to_string(width) + "x" + std::to_string(height) + " (" + format +
         ") but the model expects " + std::to_string(expected.width) + "x" +
         std::to_string(expected.height);
}

} // namespace image_detail

namespace {

using image_detail::check_size;
using image_detail::Expected;
using image_detail::Raster;

uint32_t load_le16(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8; }
uint32_t load_le32(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// ---- BMP: the subset Pillow's BmpImagePlugin reads, except RLE.

// One colour channel of a BI_BITFIELDS (or implied) mask: a contiguous run of 1 to 8 bits. Values
// scale to 8 bits as v * 255 / max, which is what Pillow's unpackers do for 5- and 6-bit channels
// (ImagingUnpackBGR15/BGR16) and the identity for 8-bit ones.
struct Channel {
  int shift = 0;
  uint32_t max = 0;
  uint8_t get(uint32_t pixel) const { return uint8_t((pixel >> shift & max) * 255 / max); }
};

bool parse_mask(uint32_t mask, Channel *c) {
  if (mask == 0)
    return false;
  c->shift = __builtin_ctz(mask);
  c->max = mask >> c->shift;
  return (c->max & (c->max + 1)) == 0 && c->max <= 255;
}

std::string decode_bmp(const uint8_t *d, size_t n, const Expected &expected, Raster *r) {
  if (n < 18)
    return "truncated BMP file (" + std::to_string(n) + " bytes)";
  const uint32_t header = load_le32(d + 14);
  if (header != 12 && header != 40 && header != 52 && header != 56 && header != 64 &&
      header != 108 && header != 124)
    return "unsupported BMP header size " + std::to_string(header);
  if (n < 14 + header)
    return "truncated BMP file (" + std::to_string(n) + " bytes)";
  int64_t width, height;
  uint32_t bits, compression = 0, colors = 0;
  uint32_t palette_entry = 4; // BGRX, or BGR in OS/2 1.x files (12-byte header)
  if (header == 12) {
    width = load_le16(d + 18);
    height = load_le16(d + 20);
    bits = load_le16(d + 24);
    palette_entry = 3;
  } else {
    width = int32_t(load_le32(d + 18));
    height = int32_t(load_le32(d + 22));
    bits = load_le16(d + 28);
    compression = load_le32(d + 30);
    colors = load_le32(d + 46);
  }
  // A negative height means rows are stored top-down.
  const bool top_down = height < 0;
  if (top_down)
    height = -height;
  if (std::string e = check_size("BMP", width, height, expected); !e.empty())
    return e;
  if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32)
    return "unsupported BMP pixel depth " + std::to_string(bits);
  if (compression == 1 || compression == 2)
    return "RLE-compressed BMP is not supported (save the image uncompressed)";
  if (compression != 0 && compression != 3)
    return "unsupported BMP compression " + std::to_string(compression);

  Channel channels[3];
  uint8_t palette[256][3] = {}; // indices past the palette's end read as black
  if (bits <= 8) {
    if (compression == 3)
      return "BMP bitfields with " + std::to_string(bits) + "-bit pixels";
    if (colors == 0)
      colors = 1u << bits;
    if (colors > 65536)
      return "unsupported BMP palette size " + std::to_string(colors);
    const uint64_t at = 14 + header;
    if (uint64_t(colors) * palette_entry > n - at)
      return "truncated BMP palette";
    for (uint32_t i = 0; i < colors && i < 256; ++i) {
      const uint8_t *p = d + at + i * palette_entry;
      palette[i][0] = p[2];
      palette[i][1] = p[1];
      palette[i][2] = p[0];
    }
  } else {
    uint32_t masks[3] = {0xff0000, 0xff00, 0xff};
    if (bits == 16)
      masks[0] = 0x7c00, masks[1] = 0x3e0, masks[2] = 0x1f;
    if (compression == 3) {
      // A 40-byte header is followed by the three masks; longer ones hold them at the same place.
      if (n < 14 + 40 + 12)
        return "truncated BMP bitfields";
      const uint32_t m[3] = {load_le32(d + 54), load_le32(d + 58), load_le32(d + 62)};
      // All-zero masks in a 32-bit file mean the default layout (Pillow reads them as BGRA).
      if (!(bits == 32 && m[0] == 0 && m[1] == 0 && m[2] == 0))
        std::memcpy(masks, m, sizeof m);
    }
    for (int c = 0; c < 3; ++c)
      if (!parse_mask(masks[c], &channels[c]) || (bits < 32 && masks[c] >> bits)) {
        char hex[64];
        std::snprintf(hex, sizeof hex, "%#x %#x %#x", masks[0], masks[1], masks[2]);
        return std::string("unsupported BMP bitfields (masks ") + hex + ")";
      }
  }

  uint64_t offset = load_le32(d + 10);
  // Pillow's reading of files whose pixel offset forgets the palette.
  if (bits <= 8 && header != 12 && offset == 14 + header)
    offset += 4 * uint64_t(colors);
  const uint64_t stride = ((uint64_t(width) * bits + 31) >> 3) & ~uint64_t(3);
  if (offset > n || stride * uint64_t(height) > n - offset)
    return "truncated BMP pixel data (" + std::to_string(n) + " bytes, the pixels need " +
           std::to_string(offset + stride * uint64_t(height)) + ")";
  r->allocate(width, height, 3);
  for (int64_t y = 0; y < height; ++y) {
    const uint8_t *row = d + offset + stride * uint64_t(top_down ? y : height - 1 - y);
    uint8_t *o = r->pixels.data() + y * width * 3;
    for (int64_t x = 0; x < width; ++x, o += 3) {
      if (bits <= 8) {
        const int per_byte = 8 / int(bits);
        const int shift = 8 - int(bits) * (1 + int(x % per_byte));
        const uint8_t index = uint8_t(row[x / per_byte] >> shift & ((1u << bits) - 1));
        std::memcpy(o, palette[index], 3);
        continue;
      }
      const uint8_t *p = row + x * (bits / 8);
      uint32_t pixel = 0;
      for (uint32_t b = 0; b < bits / 8; ++b)
        pixel |= uint32_t(p[b]) << (8 * b);
      for (int c = 0; c < 3; ++c)
        o[c] = channels[c].get(pixel);
    }
  }
  return "";
}

// ---- PNM: P1-P6 as Pillow's PpmImagePlugin reads them.

bool is_space(uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// Pillow's header tokenizer: whitespace ends a token (and is consumed), '#' starts a comment to the
// end of the line that does not end the token.
bool read_token(const uint8_t *d, size_t n, size_t *at, uint64_t *value, std::string *error) {
  std::string token;
  while (token.size() <= 10 && *at < n) {
    const uint8_t c = d[(*at)++];
    if (is_space(c)) {
      if (token.empty())
        continue;
      break;
    }
    if (c == '#') {
      while (*at < n && d[*at] != '\r' && d[*at] != '\n')
        ++*at;
      if (*at < n)
        ++*at;
      continue;
    }
    token += char(c);
  }
  if (token.empty())
    return *error = "truncated PNM header", false;
  if (token.size() > 10)
    return *error = "PNM header token too long", false;
  *value = 0;
  for (char c : token) {
    if (c < '0' || c > '9')
      return *error = "invalid PNM header token '" + token + "'", false;
    *value = *value * 10 + uint64_t(c - '0');
  }
  return true;
}

// Pillow scales a sample v of maxval m as round(v / m * 255), in doubles, rounding half to even.
uint8_t scale_sample(uint64_t v, uint64_t maxval) {
  if (maxval == 255)
    return uint8_t(v);
  return uint8_t(std::min(255.0, std::nearbyint(double(v) / double(maxval) * 255.0)));
}

std::string decode_pnm(const uint8_t *d, size_t n, const Expected &expected, Raster *r) {
  size_t at = 0;
  while (at < n && at < 6 && !is_space(d[at]))
    ++at;
  const std::string magic(reinterpret_cast<const char *>(d), at);
  if (magic.size() != 2 || magic[1] < '1' || magic[1] > '6')
    return "unsupported PNM variant '" + magic + "' (only P1-P6 are)";
  const int kind = magic[1] - '0';
  const bool bitmap = kind == 1 || kind == 4, plain = kind <= 3;
  const int bands = kind == 3 || kind == 6 ? 3 : 1;
  uint64_t width, height, maxval = 1;
  std::string error;
  if (!read_token(d, n, &at, &width, &error) || !read_token(d, n, &at, &height, &error) ||
      (!bitmap && !read_token(d, n, &at, &maxval, &error)))
    return error;
  // Tokens have at most 10 digits: the casts cannot overflow.
  if (std::string e = check_size("PNM", int64_t(width), int64_t(height), expected); !e.empty())
    return e;
  if (maxval == 0 || maxval > 65535)
    return "invalid PNM maxval " + std::to_string(maxval);
  if (maxval > 255)
    return "PNM with more than 8 bits per sample (maxval " + std::to_string(maxval) +
           ") is not supported";
  r->allocate(int64_t(width), int64_t(height), bands);
  uint8_t *o = r->pixels.data();
  const size_t count = r->pixels.size();

  if (!plain) {
    const uint64_t need = kind == 4 ? (width + 7) / 8 * height : count;
    if (need > n - at)
      return "truncated PNM pixel data (" + std::to_string(n - at) + " bytes, " +
             std::to_string(need) + " needed)";
    if (kind == 4) {
      // Rows padded to whole bytes, most significant bit first, 1 is black.
      const size_t stride = size_t((width + 7) / 8);
      for (size_t y = 0; y < height; ++y)
        for (size_t x = 0; x < width; ++x)
          *o++ = (d[at + y * stride + x / 8] >> (7 - x % 8) & 1) ? 0 : 255;
    } else {
      for (size_t i = 0; i < count; ++i)
        o[i] = scale_sample(d[at + i], maxval);
    }
    return "";
  }

  // Plain formats: Pillow deletes comments ('#' up to and including the end of the line) before
  // splitting the rest into whitespace-separated tokens, so a comment can join two tokens.
  std::string text;
  for (size_t i = at; i < n; ++i) {
    if (d[i] == '#') {
      while (i < n && d[i] != '\r' && d[i] != '\n')
        ++i;
      continue;
    }
    text += char(d[i]);
  }
  size_t done = 0;
  if (bitmap) {
    // Every digit is a token of its own, whitespace or not.
    for (char c : text) {
      if (is_space(uint8_t(c)))
        continue;
      if (c != '0' && c != '1')
        return std::string("invalid character in PBM data: '") + c + "'";
      if (done < count)
        o[done++] = c == '1' ? 0 : 255;
    }
  } else {
    for (size_t i = 0; i < text.size() && done < count;) {
      if (is_space(uint8_t(text[i]))) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < text.size() && !is_space(uint8_t(text[end])))
        ++end;
      const std::string token = text.substr(i, end - i);
      i = end;
      if (token.size() > 10)
        return "PNM token too long";
      uint64_t v = 0;
      for (char c : token) {
        if (c < '0' || c > '9')
          return "invalid PNM sample '" + token + "'";
        v = v * 10 + uint64_t(c - '0');
      }
      if (v > maxval)
        return "PNM sample " + token + " is larger than maxval " + std::to_string(maxval);
      o[done++] = scale_sample(v, maxval);
    }
  }
  if (done < count)
    return "truncated PNM data (" + std::to_string(done) + " of " + std::to_string(count) +
           " samples)";
  return "";
}

// ---- format detection and the conversion to the requested pixel format

enum class Format { Unknown, Jpeg, Png, Bmp, Pnm, Tiff, Webp, Jp2, J2k };

Format detect(const uint8_t *d, size_t n) {
  auto starts = [&](const char *magic, size_t len, size_t at = 0) {
    return n >= at + len && std::memcmp(d + at, magic, len) == 0;
  };
  if (starts("\xff\xd8\xff", 3))
    return Format::Jpeg;
  if (starts("\x89PNG\r\n\x1a\n", 8))
    return Format::Png;
  if (starts("BM", 2))
    return Format::Bmp;
  // Pillow's test for its PPM plugin; the decoder names the variants it refuses.
  if (n >= 2 && d[0] == 'P' && d[1] && std::strchr("0123456fy", d[1]))
    return Format::Pnm;
  if (starts("II*\0", 4) || starts("MM\0*", 4) || starts("II+\0", 4) || starts("MM\0+", 4))
    return Format::Tiff;
  if (starts("RIFF", 4) && starts("WEBP", 4, 8))
    return Format::Webp;
  if (starts("\0\0\0\x0cjP  \r\n\x87\n", 12))
    return Format::Jp2;
  if (starts("\xff\x4f\xff\x51", 4))
    return Format::J2k;
  return Format::Unknown;
}

std::string unknown_format(const uint8_t *d, size_t n) {
  if (n == 0)
    return "not an image: the data is empty";
  std::string s = "not an image in a known format (first bytes";
  for (size_t i = 0; i < n && i < 8; ++i) {
    char hex[4];
    std::snprintf(hex, sizeof hex, " %02x", d[i]);
    s += hex;
  }
  return s + ")";
}

// Pillow's RGB to L conversion (ITU-R 601-2 luma in 16-bit fixed point, rounded).
uint8_t luma(const uint8_t *rgb) {
  return uint8_t((rgb[0] * 19595u + rgb[1] * 38470u + rgb[2] * 7471u + 0x8000u) >> 16);
}

void convert(const Raster &r, PixelFormat format, uint8_t *out) {
  const size_t pixels = size_t(r.width * r.height);
  const uint8_t *in = r.pixels.data();
  if (format == PixelFormat::Grayscale) {
    if (r.channels == 1)
      std::memcpy(out, in, pixels);
    else
      for (size_t i = 0; i < pixels; ++i)
        out[i] = luma(in + 3 * i);
    return;
  }
  for (size_t i = 0; i < pixels; ++i, out += 3) {
    const uint8_t *p = in + i * size_t(r.channels);
    if (r.channels == 1)
      out[0] = out[1] = out[2] = p[0];
    else if (format == PixelFormat::RGB)
      out[0] = p[0], out[1] = p[1], out[2] = p[2];
    else
      out[0] = p[2], out[1] = p[1], out[2] = p[0];
  }
}

const char *format_name(PixelFormat f) {
  switch (f) {
  case PixelFormat::RGB:
    return "RGB";
  case PixelFormat::BGR:
    return "BGR";
  case PixelFormat::Grayscale:
    return "Grayscale";
  }
  return "?";
}

} // namespace

std::string decode_image(const uint8_t *data, int64_t size, PixelFormat format, uint8_t *out,
                         int64_t height, int64_t width, int64_t channels) {
  if (format != PixelFormat::RGB && format != PixelFormat::BGR && format != PixelFormat::Grayscale)
    return "unknown pixel format " + std::to_string(int32_t(format));
  const int64_t want = format == PixelFormat::Grayscale ? 1 : 3;
  if (channels != want)
    return std::string("pixel format ") + format_name(format) + " has " + std::to_string(want) +
           " channel" + (want == 1 ? "" : "s") + " but the output has " + std::to_string(channels);
  // Each dimension below 2^30 keeps every size computed from them (row strides in bits included)
  // far from overflowing.
  constexpr int64_t kMaxDim = int64_t(1) << 30;
  if (height <= 0 || width <= 0 || height >= kMaxDim || width >= kMaxDim)
    return "invalid output size " + std::to_string(width) + "x" + std::to_string(height);
  if (!out)
    return "no output buffer";
  const size_t out_bytes = size_t(height * width * channels);
  std::memset(out, 0, out_bytes);
  if (size < 0 || (size > 0 && !data))
    return "invalid encoded data";
  const uint8_t *d = data;
  const size_t n = size_t(size);
  const Expected expected{height, width};
  Raster raster;
  std::string error;
  switch (detect(d, n)) {
  case Format::Jpeg:
    error = image_detail::decode_jpeg(d, n, expected, &raster);
    break;
  case Format::Png:
    error = image_detail::decode_png(d, n, expected, &raster);
    break;
  case Format::Bmp:
    error = decode_bmp(d, n, expected, &raster);
    break;
  case Format::Pnm:
    error = decode_pnm(d, n, expected, &raster);
    break;
  case Format::Tiff:
    error = image_detail::decode_tiff(d, n, expected, &raster);
    break;
  case Format::Webp:
    error = image_detail::decode_webp(d, n, expected, &raster);
    break;
  case Format::Jp2:
    error = image_detail::decode_jpeg2000(d, n, false, expected, &raster);
    break;
  case Format::J2k:
    error = image_detail::decode_jpeg2000(d, n, true, expected, &raster);
    break;
  case Format::Unknown:
    return unknown_format(d, n);
  }
  if (!error.empty())
    return error;
  // Every codec checks the size before decoding; this guards the buffer against one that did not.
  if (raster.width != width || raster.height != height ||
      (raster.channels != 1 && raster.channels != 3) ||
      raster.pixels.size() != size_t(width * height * raster.channels))
    return "internal error: the decoder returned a raster of the wrong shape";
  convert(raster, format, out);
  return "";
}

} // namespace mie
