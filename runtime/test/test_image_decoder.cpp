#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/image_decoder.h"

#ifndef MIE_TEST_IMAGE_DIR
#error "MIE_TEST_IMAGE_DIR must name the directory of the test images (runtime/test/data/images)"
#endif

using mie::decode_image;
using mie::PixelFormat;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes read_file(const std::string &name) {
  std::ifstream f(std::string(MIE_TEST_IMAGE_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(f.good()) << "cannot open " << name;
  return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

struct Decoded {
  std::string error;
  Bytes pixels;
};

Decoded decode(const Bytes &data, PixelFormat format, int64_t height, int64_t width) {
  const int64_t channels = format == PixelFormat::Grayscale ? 1 : 3;
  Decoded d;
  d.pixels.assign(size_t(height * width * channels), 0xcd);
  d.error = decode_image(data.data(), int64_t(data.size()), format, d.pixels.data(), height, width,
                         channels);
  return d;
}

uint8_t luma(uint8_t r, uint8_t g, uint8_t b) {
  return uint8_t((r * 19595u + g * 38470u + b * 7471u + 0x8000u) >> 16);
}

// Expected output for an RGB raster in each pixel format.
Bytes in_format(const Bytes &rgb, PixelFormat format) {
  Bytes out;
  for (size_t i = 0; i < rgb.size(); i += 3) {
    if (format == PixelFormat::Grayscale)
      out.push_back(luma(rgb[i], rgb[i + 1], rgb[i + 2]));
    else if (format == PixelFormat::RGB)
      out.insert(out.end(), {rgb[i], rgb[i + 1], rgb[i + 2]});
    else
      out.insert(out.end(), {rgb[i + 2], rgb[i + 1], rgb[i]});
  }
  return out;
}

const PixelFormat kFormats[] = {PixelFormat::RGB, PixelFormat::BGR, PixelFormat::Grayscale};

// ---- the ONNX backend test cases (reference outputs computed by Pillow)

struct Reference {
  const char *name;
  PixelFormat format;
};

const Reference kReferences[] = {
    {"bmp_rgb", PixelFormat::RGB},  {"jpeg2k_rgb", PixelFormat::RGB},
    {"jpeg_bgr", PixelFormat::BGR}, {"jpeg_grayscale", PixelFormat::Grayscale},
    {"jpeg_rgb", PixelFormat::RGB}, {"png_rgb", PixelFormat::RGB},
    {"pnm_rgb", PixelFormat::RGB},  {"tiff_rgb", PixelFormat::RGB},
    {"webp_rgb", PixelFormat::RGB},
};

// Why the codec of the reference file `name` cannot run here, "" when it can: JPEG, PNG, TIFF, WebP
// and JPEG 2000 need the system's libraries (and the first three their headers at build time),
// which the aarch64 runtime under qemu has neither of. Tests of such a codec are skipped, saying
// why.
std::string codec_missing(const std::string &name) {
  const Decoded d = decode(read_file(name + ".in.bin"), PixelFormat::RGB, 32, 32);
  const bool missing = d.error.find("built without") != std::string::npos ||
                       d.error.find("(install the Debian package") != std::string::npos;
  return missing ? d.error : "";
}

#define REQUIRE_CODEC(name)                                                                        \
  do {                                                                                             \
    if (const std::string why = codec_missing(name); !why.empty())                                 \
      GTEST_SKIP() << why;                                                                         \
  } while (0)

class ReferenceTest : public ::testing::TestWithParam<Reference> {};

TEST_P(ReferenceTest, BitExact) {
  const Reference &r = GetParam();
  REQUIRE_CODEC(r.name);
  const Bytes input = read_file(std::string(r.name) + ".in.bin");
  const Bytes expected = read_file(std::string(r.name) + ".out.bin");
  const Decoded d = decode(input, r.format, 32, 32);
  ASSERT_EQ(d.error, "");
  ASSERT_EQ(d.pixels.size(), expected.size());
  size_t differing = 0;
  int max_difference = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    if (d.pixels[i] != expected[i]) {
      ++differing;
      max_difference = std::max(max_difference, std::abs(int(d.pixels[i]) - int(expected[i])));
    }
  EXPECT_EQ(differing, 0u) << "max difference " << max_difference;
}

// The compiled model's encoded input has a fixed byte count: shorter files come padded with zeros.
TEST_P(ReferenceTest, ZeroPadded) {
  const Reference &r = GetParam();
  REQUIRE_CODEC(r.name);
  Bytes input = read_file(std::string(r.name) + ".in.bin");
  input.resize(input.size() + 4096, 0);
  const Decoded d = decode(input, r.format, 32, 32);
  ASSERT_EQ(d.error, "");
  EXPECT_EQ(d.pixels, read_file(std::string(r.name) + ".out.bin"));
}

INSTANTIATE_TEST_SUITE_P(Onnx, ReferenceTest, ::testing::ValuesIn(kReferences),
                         [](const auto &info) { return std::string(info.param.name); });

// Every prefix of every reference file decodes or fails cleanly, and a failure leaves zeros.
TEST(ImageDecoder, TruncatedFiles) {
  for (const Reference &r : kReferences) {
    const Bytes input = read_file(std::string(r.name) + ".in.bin");
    for (size_t n = 0; n < input.size(); ++n) {
      const Decoded d = decode(Bytes(input.begin(), input.begin() + long(n)), r.format, 32, 32);
      if (!d.error.empty()) {
        EXPECT_EQ(d.error.find('\n'), std::string::npos) << d.error;
        for (uint8_t v : d.pixels)
          ASSERT_EQ(v, 0) << r.name << " prefix " << n;
      }
    }
    // The formats whose decoders need all of the pixel data.
    const std::string name = r.name;
    if (name == "bmp_rgb" || name == "pnm_rgb" || name == "tiff_rgb" || name == "jpeg_rgb")
      EXPECT_NE(decode(Bytes(input.begin(), input.end() - 1), r.format, 32, 32).error, "") << name;
  }
}

TEST(ImageDecoder, ConcurrentDecoding) {
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t, &failures] {
      for (int round = 0; round < 5; ++round)
        for (const Reference &r : kReferences) {
          if (!codec_missing(r.name).empty())
            continue;
          const Decoded d = decode(read_file(std::string(r.name) + ".in.bin"), r.format, 32, 32);
          if (!d.error.empty() || d.pixels != read_file(std::string(r.name) + ".out.bin"))
            ++failures[size_t(t)];
        }
    });
  for (std::thread &t : threads)
    t.join();
  for (int f : failures)
    EXPECT_EQ(f, 0);
}

TEST(ImageDecoder, WrongSizeNamesBothSizes) {
  for (const Reference &r : kReferences) {
    if (!codec_missing(r.name).empty())
      continue;
    const Decoded d = decode(read_file(std::string(r.name) + ".in.bin"), r.format, 16, 24);
    EXPECT_NE(d.error.find("the image is 32x32 ("), std::string::npos) << d.error;
    EXPECT_NE(d.error.find("the model expects 24x16"), std::string::npos) << d.error;
    for (uint8_t v : d.pixels)
      ASSERT_EQ(v, 0);
  }
}

TEST(ImageDecoder, UnknownFormat) {
  const Decoded d = decode(Bytes{0x12, 0x34, 0x56, 0x78, 0x9a}, PixelFormat::RGB, 2, 2);
  EXPECT_EQ(d.error, "not an image in a known format (first bytes 12 34 56 78 9a)");
  for (uint8_t v : d.pixels)
    EXPECT_EQ(v, 0);
  EXPECT_NE(decode(Bytes{}, PixelFormat::RGB, 2, 2).error, "");
}

TEST(ImageDecoder, InvalidArguments) {
  const Bytes bmp = read_file("bmp_rgb.in.bin");
  uint8_t out[32 * 32 * 3];
  EXPECT_NE(decode_image(bmp.data(), int64_t(bmp.size()), PixelFormat::RGB, out, 32, 32, 1), "");
  EXPECT_NE(decode_image(bmp.data(), int64_t(bmp.size()), PixelFormat::Grayscale, out, 32, 32, 3),
            "");
  EXPECT_NE(decode_image(bmp.data(), int64_t(bmp.size()), PixelFormat(7), out, 32, 32, 3), "");
  for (int64_t h : {0, -1})
    for (int64_t w : {32, 0, -5}) {
      EXPECT_NE(decode_image(bmp.data(), int64_t(bmp.size()), PixelFormat::RGB, out, h, w, 3), "");
      EXPECT_NE(decode_image(bmp.data(), int64_t(bmp.size()), PixelFormat::RGB, out, w, h, 3), "");
    }
  EXPECT_NE(decode_image(bmp.data(), -1, PixelFormat::RGB, out, 32, 32, 3), "");
  EXPECT_NE(decode_image(nullptr, 10, PixelFormat::RGB, out, 32, 32, 3), "");
  EXPECT_NE(decode_image(bmp.data(), int64_t(bmp.size()), PixelFormat::RGB, out, int64_t(1) << 40,
                         int64_t(1) << 40, 3),
            "");
  EXPECT_EQ(decode_image(bmp.data(), int64_t(bmp.size()), PixelFormat::RGB, out, 32, 32, 3), "");
}

// ---- BMP files built here

void put16(Bytes &b, size_t at, uint32_t v) {
  b[at] = uint8_t(v);
  b[at + 1] = uint8_t(v >> 8);
}
void put32(Bytes &b, size_t at, uint32_t v) {
  put16(b, at, v & 0xffff);
  put16(b, at + 2, v >> 16);
}

struct BmpSpec {
  int width = 5, height = 3;
  int bits = 24;
  bool top_down = false;
  uint32_t header = 40;
  uint32_t compression = 0;
  std::vector<uint32_t> masks;   // BI_BITFIELDS: r, g, b (and a in headers of 56 bytes and more)
  std::vector<uint32_t> palette; // 0xRRGGBB
  std::vector<uint32_t> pixels;  // row-major from the top: palette indices or packed values
};

// A BMP file: headers, masks after a 40-byte header, the palette, then rows padded to 4 bytes.
Bytes make_bmp(const BmpSpec &s) {
  const size_t stride = ((size_t(s.width) * size_t(s.bits) + 31) / 32) * 4;
  const size_t extra_masks = s.header == 40 && s.compression == 3 ? 12 : 0;
  const size_t offset = 14 + s.header + extra_masks + 4 * s.palette.size();
  Bytes b(offset + stride * size_t(s.height), 0);
  b[0] = 'B', b[1] = 'M';
  put32(b, 2, uint32_t(b.size()));
  put32(b, 10, uint32_t(offset));
  put32(b, 14, s.header);
  put32(b, 18, uint32_t(s.width));
  put32(b, 22, uint32_t(s.top_down ? -s.height : s.height));
  put16(b, 26, 1);
  put16(b, 28, uint32_t(s.bits));
  put32(b, 30, s.compression);
  put32(b, 46, uint32_t(s.palette.size()));
  for (size_t i = 0; i < s.masks.size(); ++i)
    put32(b, 54 + 4 * i, s.masks[i]);
  for (size_t i = 0; i < s.palette.size(); ++i) {
    const size_t at = 14 + s.header + extra_masks + 4 * i;
    b[at] = uint8_t(s.palette[i]), b[at + 1] = uint8_t(s.palette[i] >> 8);
    b[at + 2] = uint8_t(s.palette[i] >> 16);
  }
  for (int y = 0; y < s.height; ++y) {
    const size_t row = offset + stride * size_t(s.top_down ? y : s.height - 1 - y);
    for (int x = 0; x < s.width; ++x) {
      const uint32_t v = s.pixels[size_t(y * s.width + x)];
      if (s.bits < 8) {
        const int per_byte = 8 / s.bits;
        b[row + size_t(x / per_byte)] |= uint8_t(v << (8 - s.bits * (1 + x % per_byte)));
      } else {
        for (int i = 0; i < s.bits / 8; ++i)
          b[row + size_t(x * s.bits / 8 + i)] = uint8_t(v >> (8 * i));
      }
    }
  }
  return b;
}

std::vector<uint32_t> pattern(size_t n, uint32_t modulo, uint32_t seed) {
  std::vector<uint32_t> v(n);
  std::mt19937 rng(seed);
  for (uint32_t &x : v)
    x = rng() % modulo;
  return v;
}

void expect_decodes(const Bytes &file, const Bytes &rgb, int height, int width) {
  for (PixelFormat f : kFormats) {
    const Decoded d = decode(file, f, height, width);
    ASSERT_EQ(d.error, "");
    EXPECT_EQ(d.pixels, in_format(rgb, f)) << "pixel format " << int(f);
  }
}

TEST(Bmp, TrueColour) {
  for (int bits : {24, 32})
    for (bool top_down : {false, true})
      for (uint32_t header : {40u, 108u, 124u}) {
        BmpSpec s;
        s.bits = bits, s.top_down = top_down, s.header = header;
        s.pixels = pattern(size_t(s.width * s.height), 1u << 24, uint32_t(bits + header));
        if (bits == 32)
          for (uint32_t &p : s.pixels)
            p |= 0x5a000000; // the 4th byte is not alpha
        Bytes rgb;
        for (uint32_t p : s.pixels)
          rgb.insert(rgb.end(), {uint8_t(p >> 16), uint8_t(p >> 8), uint8_t(p)});
        SCOPED_TRACE(std::to_string(bits) + " bits, header " + std::to_string(header));
        expect_decodes(make_bmp(s), rgb, s.height, s.width);
      }
}

TEST(Bmp, Palette) {
  for (int bits : {1, 4, 8})
    for (bool top_down : {false, true}) {
      BmpSpec s;
      s.bits = bits, s.top_down = top_down, s.width = 13, s.height = 4;
      s.palette = pattern(size_t(1) << bits, 1u << 24, uint32_t(bits));
      s.pixels = pattern(size_t(s.width * s.height), 1u << bits, uint32_t(bits + 1));
      Bytes rgb;
      for (uint32_t i : s.pixels) {
        const uint32_t c = s.palette[i];
        rgb.insert(rgb.end(), {uint8_t(c >> 16), uint8_t(c >> 8), uint8_t(c)});
      }
      SCOPED_TRACE(std::to_string(bits) + " bits");
      expect_decodes(make_bmp(s), rgb, s.height, s.width);
    }
}

// A palette shorter than the pixels' depth: missing entries are black.
TEST(Bmp, ShortPalette) {
  BmpSpec s;
  s.bits = 8, s.width = 4, s.height = 1;
  s.palette = {0x102030, 0xffeedd};
  s.pixels = {0, 1, 2, 255};
  expect_decodes(make_bmp(s), {0x10, 0x20, 0x30, 0xff, 0xee, 0xdd, 0, 0, 0, 0, 0, 0}, 1, 4);
}

// 16-bit pixels scale like Pillow's unpackers: v * 255 / max.
TEST(Bmp, SixteenBit) {
  struct Case {
    uint32_t compression;
    std::vector<uint32_t> masks;
    int r_bits, g_bits;
  };
  for (const Case &c : {Case{0, {}, 5, 5}, Case{3, {0x7c00, 0x3e0, 0x1f}, 5, 5},
                        Case{3, {0xf800, 0x7e0, 0x1f}, 5, 6}})
    for (uint32_t header : {40u, 56u, 124u}) {
      BmpSpec s;
      s.bits = 16, s.compression = c.compression, s.masks = c.masks, s.header = header;
      s.width = 7;
      s.pixels = pattern(size_t(s.width * s.height), 1u << 16, header);
      Bytes rgb;
      for (uint32_t p : s.pixels) {
        const uint32_t rmax = (1u << c.r_bits) - 1, gmax = (1u << c.g_bits) - 1;
        const uint32_t r = p >> (5 + c.g_bits) & rmax, g = p >> 5 & gmax, b = p & 31;
        rgb.insert(rgb.end(),
                   {uint8_t(r * 255 / rmax), uint8_t(g * 255 / gmax), uint8_t(b * 255 / 31)});
      }
      SCOPED_TRACE("green bits " + std::to_string(c.g_bits) + ", header " + std::to_string(header));
      expect_decodes(make_bmp(s), rgb, s.height, s.width);
    }
}

TEST(Bmp, ThirtyTwoBitBitfields) {
  // RGBA byte order (masks r=0xff, g=0xff00, b=0xff0000), alpha dropped.
  BmpSpec s;
  s.bits = 32, s.compression = 3, s.header = 124;
  s.masks = {0xff, 0xff00, 0xff0000, 0xff000000};
  s.pixels = pattern(size_t(s.width * s.height), 0xffffffffu, 3);
  Bytes rgb;
  for (uint32_t p : s.pixels)
    rgb.insert(rgb.end(), {uint8_t(p), uint8_t(p >> 8), uint8_t(p >> 16)});
  expect_decodes(make_bmp(s), rgb, s.height, s.width);
}

// OS/2 1.x: a 12-byte header with 16-bit sizes, 2^bits palette entries of 3 bytes.
TEST(Bmp, Os2Header) {
  Bytes b = {'B', 'M', 36, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 12, 0, 0, 0, 2, 0, 1, 0, 1, 0, 1, 0};
  b.insert(b.end(), {1, 2, 3, 4, 5, 6, 0x80, 0, 0, 0});
  expect_decodes(b, {6, 5, 4, 3, 2, 1}, 1, 2);
}

TEST(Bmp, Refused) {
  BmpSpec s;
  s.pixels = pattern(size_t(s.width * s.height), 1u << 24, 1);
  Bytes rle = make_bmp(s);
  put32(rle, 30, 1);
  EXPECT_NE(decode(rle, PixelFormat::RGB, 3, 5).error.find("RLE"), std::string::npos);
  Bytes masks = make_bmp(s);
  put16(masks, 28, 16);
  put32(masks, 30, 3);
  put32(masks, 54, 0x3ff); // 10 bits of red
  EXPECT_NE(decode(masks, PixelFormat::RGB, 3, 5).error.find("bitfields"), std::string::npos);
  put32(masks, 54, 0xff0000); // bits the 16-bit pixels do not have
  EXPECT_NE(decode(masks, PixelFormat::RGB, 3, 5).error.find("bitfields"), std::string::npos);
  Bytes header = make_bmp(s);
  put32(header, 14, 41);
  EXPECT_NE(decode(header, PixelFormat::RGB, 3, 5).error.find("header size"), std::string::npos);
}

// ---- PNM files built here

Bytes text(const std::string &s) { return Bytes(s.begin(), s.end()); }

TEST(Pnm, BinaryAndPlain) {
  const Bytes rgb = {255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 200, 100, 50, 1, 2, 3};
  Bytes p6 = text("P6\n# a comment\n3 # width\n2\n255\n");
  p6.insert(p6.end(), rgb.begin(), rgb.end());
  expect_decodes(p6, rgb, 2, 3);
  expect_decodes(
      text("P3 3 2 255\n255 0 0 0 255 0 0 0 255\n# comment\n10 20 30 200 100 50 1 2 3\n"), rgb, 2,
      3);

  const Bytes gray = {0, 17, 34, 255, 128, 7};
  Bytes gray_rgb;
  for (uint8_t v : gray)
    gray_rgb.insert(gray_rgb.end(), {v, v, v});
  Bytes p5 = text("P5 3 2 255 ");
  p5.insert(p5.end(), gray.begin(), gray.end());
  expect_decodes(p5, gray_rgb, 2, 3);
  expect_decodes(text("P2\n#c\n3 2\n255\n0 17 34\n255 128 7"), gray_rgb, 2, 3);
}

TEST(Pnm, Bitmaps) {
  // 1 is black; P4 rows are padded to whole bytes.
  const Bytes bits = {1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}; // 9x2
  Bytes rgb;
  for (uint8_t b : bits)
    rgb.insert(rgb.end(), 3, b ? 0 : 255);
  expect_decodes(text("P1\n9 2\n101100001\n1111 0 0 0 0 1"), rgb, 2, 9);
  Bytes p4 = text("P4 9 2\n");
  p4.insert(p4.end(), {0xb0, 0x80, 0xf0, 0x80});
  expect_decodes(p4, rgb, 2, 9);
}

// Samples of a maxval below 255 scale as Python's round(v / maxval * 255), half to even.
TEST(Pnm, SmallMaxval) {
  Bytes rgb;
  std::string plain = "P2 3 1 2\n";
  Bytes p5 = text("P5 3 1 2\n");
  for (uint8_t v : {0, 1, 2}) {
    const uint8_t scaled = v == 1 ? 128 : uint8_t(v * 255 / 2); // 127.5 rounds to 128
    rgb.insert(rgb.end(), 3, scaled);
    plain += std::to_string(v) + " ";
    p5.push_back(v);
  }
  expect_decodes(text(plain), rgb, 1, 3);
  expect_decodes(p5, rgb, 1, 3);
  // Binary samples above maxval clamp to 255 (Pillow's binary decoder); plain ones are errors.
  Bytes over = text("P5 1 1 100\n");
  over.push_back(200);
  expect_decodes(over, {255, 255, 255}, 1, 1);
  EXPECT_NE(decode(text("P2 1 1 100\n200\n"), PixelFormat::RGB, 1, 1).error, "");
  // 7 of maxval 10: 178.5 rounds to 178.
  expect_decodes(text("P2 1 1 10\n7\n"), {178, 178, 178}, 1, 1);
}

TEST(Pnm, Refused) {
  EXPECT_NE(decode(text("P6 1 1 65535\n\0\0\0\0\0\0"), PixelFormat::RGB, 1, 1).error.find("maxval"),
            std::string::npos);
  EXPECT_NE(decode(text("P6 1 1 0\n\0\0\0"), PixelFormat::RGB, 1, 1).error, "");
  EXPECT_NE(decode(text("Pf 1 1 -1\n"), PixelFormat::RGB, 1, 1).error.find("PNM"),
            std::string::npos);
  EXPECT_NE(decode(text("P3 1 1 255\n1 2 x\n"), PixelFormat::RGB, 1, 1).error, "");
  EXPECT_NE(decode(text("P3 2 1 255\n1 2 3\n"), PixelFormat::RGB, 1, 2).error, "");
  EXPECT_NE(decode(text("P6 2 2 255\n\1\2\3"), PixelFormat::RGB, 2, 2).error.find("truncated"),
            std::string::npos);
  const Decoded size = decode(text("P5 4 3 255\n"), PixelFormat::Grayscale, 2, 2);
  EXPECT_EQ(size.error, "the image is 4x3 (PNM) but the model expects 2x2");
}

// ---- PNG files built here (stored, uncompressed deflate blocks; no zlib needed)

uint32_t crc32(const uint8_t *p, size_t n, uint32_t crc = 0) {
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k)
      crc = crc >> 1 ^ (0xedb88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

void put_be32(Bytes &b, uint32_t v) {
  b.insert(b.end(), {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)});
}

void add_chunk(Bytes &png, const char *type, const Bytes &data) {
  put_be32(png, uint32_t(data.size()));
  const size_t at = png.size();
  png.insert(png.end(), type, type + 4);
  png.insert(png.end(), data.begin(), data.end());
  put_be32(png, crc32(png.data() + at, png.size() - at));
}

struct PngSpec {
  uint32_t width, height;
  uint8_t depth, color_type, interlace = 0;
  std::vector<std::pair<const char *, Bytes>> chunks = {}; // before IDAT: PLTE, tRNS, gAMA
  Bytes scanlines =
      {}; // filter type 0 and the packed samples of each row (of each pass if interlaced)
};

Bytes make_png(const PngSpec &s) {
  Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr;
  put_be32(ihdr, s.width);
  put_be32(ihdr, s.height);
  ihdr.insert(ihdr.end(), {s.depth, s.color_type, 0, 0, s.interlace});
  add_chunk(png, "IHDR", ihdr);
  for (const auto &c : s.chunks)
    add_chunk(png, c.first, c.second);
  // zlib: header, one final stored block, Adler-32 of the data.
  Bytes z = {0x78, 0x01, 0x01};
  const uint16_t n = uint16_t(s.scanlines.size());
  z.insert(z.end(), {uint8_t(n), uint8_t(n >> 8), uint8_t(~n), uint8_t(~n >> 8)});
  z.insert(z.end(), s.scanlines.begin(), s.scanlines.end());
  uint32_t a = 1, b = 0;
  for (uint8_t v : s.scanlines)
    a = (a + v) % 65521, b = (b + a) % 65521;
  put_be32(z, b << 16 | a);
  add_chunk(png, "IDAT", z);
  add_chunk(png, "IEND", {});
  return png;
}

Bytes gray_to_rgb(const Bytes &gray) {
  Bytes rgb;
  for (uint8_t v : gray)
    rgb.insert(rgb.end(), 3, v);
  return rgb;
}

TEST(Png, GrayDepths) {
  REQUIRE_CODEC("png_rgb");
  // 3x2 images; samples below 8 bits scale by bit replication (Pillow's L;1, L;2, L;4 unpackers).
  struct Case {
    uint8_t depth;
    Bytes scanlines, gray;
  };
  const Case cases[] = {
      {8, {0, 0x10, 0x80, 0xfe, 0, 0x9a, 0xff, 7}, {0x10, 0x80, 0xfe, 0x9a, 0xff, 7}},
      {4, {0, 0x01, 0xf0, 0, 0xa5, 0xf0}, {0x00, 0x11, 0xff, 0xaa, 0x55, 0xff}},
      {2, {0, 0b00011000, 0, 0b11100100}, {0, 85, 170, 255, 170, 85}},
      {1, {0, 0b10100000, 0, 0b01100000}, {255, 0, 255, 0, 255, 255}},
  };
  for (const Case &c : cases) {
    PngSpec s{3, 2, c.depth, 0};
    s.scanlines = c.scanlines;
    // Pillow ignores gAMA: no gamma correction.
    s.chunks = {{"gAMA", {0, 0, 0xb1, 0x8f}}};
    SCOPED_TRACE(std::to_string(c.depth) + "-bit gray");
    expect_decodes(make_png(s), gray_to_rgb(c.gray), 2, 3);
  }
}

TEST(Png, PaletteAndAlpha) {
  REQUIRE_CODEC("png_rgb");
  PngSpec palette{3, 1, 2, 3};
  palette.chunks = {{"PLTE", {10, 20, 30, 40, 50, 60, 70, 80, 90, 200, 210, 220}},
                    {"tRNS", {0, 128}}};
  palette.scanlines = {0, 0b11100100};
  expect_decodes(make_png(palette), {200, 210, 220, 70, 80, 90, 40, 50, 60}, 1, 3);

  PngSpec rgba{2, 1, 8, 6};
  rgba.scanlines = {0, 1, 2, 3, 0, 250, 251, 252, 9};
  expect_decodes(make_png(rgba), {1, 2, 3, 250, 251, 252}, 1, 2);

  PngSpec gray_alpha{2, 1, 8, 4};
  gray_alpha.scanlines = {0, 77, 0, 200, 255};
  expect_decodes(make_png(gray_alpha), gray_to_rgb({77, 200}), 1, 2);

  // A gray tRNS colour is dropped too.
  PngSpec gray_trns{2, 1, 8, 0};
  gray_trns.chunks = {{"tRNS", {0, 77}}};
  gray_trns.scanlines = {0, 77, 78};
  expect_decodes(make_png(gray_trns), gray_to_rgb({77, 78}), 1, 2);
}

// 16-bit samples keep their high byte, as Pillow's RGB;16B and LA;16B unpackers do.
TEST(Png, SixteenBit) {
  REQUIRE_CODEC("png_rgb");
  PngSpec rgb{2, 1, 16, 2};
  rgb.scanlines = {0, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xff, 0xff, 0x00, 0xff, 0x80, 0x00};
  expect_decodes(make_png(rgb), {0x12, 0x56, 0x9a, 0xff, 0x00, 0x80}, 1, 2);
  PngSpec gray_alpha{1, 1, 16, 4};
  gray_alpha.scanlines = {0, 0xab, 0xcd, 0x00, 0x01};
  expect_decodes(make_png(gray_alpha), {0xab, 0xab, 0xab}, 1, 1);
}

TEST(Png, Interlaced) {
  REQUIRE_CODEC("png_rgb");
  // Adam7 on 2x2: pass 1 holds (0,0), pass 6 (1,0), pass 7 the second row.
  PngSpec s{2, 2, 8, 0, 1};
  s.scanlines = {0, 11, 0, 22, 0, 33, 44};
  expect_decodes(make_png(s), gray_to_rgb({11, 22, 33, 44}), 2, 2);
}

TEST(Png, Corrupt) {
  REQUIRE_CODEC("png_rgb");
  PngSpec s{2, 1, 8, 0};
  s.scanlines = {0, 1, 2};
  Bytes png = make_png(s);
  png[30] ^= 1; // inside IHDR: its CRC no longer matches
  EXPECT_NE(decode(png, PixelFormat::RGB, 1, 2).error.find("corrupt PNG data: "),
            std::string::npos);
  EXPECT_EQ(decode(make_png(s), PixelFormat::RGB, 2, 2).error,
            "the image is 2x1 (PNG) but the model expects 2x2");
}

// ---- TIFF files built here (little-endian, uncompressed, one strip)

struct TiffSpec {
  uint32_t width, height;
  uint16_t photometric; // 0 min-is-white, 1 min-is-black, 2 RGB, 3 palette
  uint16_t samples;
  Bytes pixels;                        // packed 8-bit samples, rows from the top
  std::vector<uint16_t> colormap = {}; // palette: 256 reds, greens, blues
  uint16_t extra_samples = 0xffff;     // ExtraSamples value when present
};

Bytes make_tiff(const TiffSpec &s) {
  struct Entry {
    uint16_t tag, type;
    uint32_t count, value;
  };
  Bytes b = {'I', 'I', 42, 0, 8, 0, 0, 0};
  std::vector<Entry> entries = {
      {256, 4, 1, s.width},   {257, 4, 1, s.height},      {258, 3, 1, 8},
      {259, 3, 1, 1},         {262, 3, 1, s.photometric}, {273, 4, 1, 0},
      {277, 3, 1, s.samples}, {278, 4, 1, s.height},      {279, 4, 1, uint32_t(s.pixels.size())}};
  if (!s.colormap.empty())
    entries.push_back({320, 3, uint32_t(s.colormap.size()), 0});
  if (s.extra_samples != 0xffff)
    entries.push_back({338, 3, 1, s.extra_samples});
  // BitsPerSample of more than two samples lives after the IFD, as do the colormap and the pixels.
  const size_t ifd_end = 8 + 2 + 12 * entries.size() + 4;
  size_t at = ifd_end;
  Bytes tail;
  for (Entry &e : entries) {
    if (e.tag == 258 && s.samples == 2) {
      e.count = 2, e.value = 0x00080008; // two shorts fit in the entry
    } else if (e.tag == 258 && s.samples > 2) {
      e.count = s.samples, e.value = uint32_t(at + tail.size());
      for (int i = 0; i < s.samples; ++i)
        tail.insert(tail.end(), {8, 0});
    } else if (e.tag == 320) {
      e.value = uint32_t(at + tail.size());
      for (uint16_t v : s.colormap)
        tail.insert(tail.end(), {uint8_t(v), uint8_t(v >> 8)});
    }
  }
  for (Entry &e : entries)
    if (e.tag == 273)
      e.value = uint32_t(at + tail.size());
  b.insert(b.end(), {uint8_t(entries.size()), 0});
  for (const Entry &e : entries) {
    Bytes entry(12, 0);
    put16(entry, 0, e.tag);
    put16(entry, 2, e.type);
    put32(entry, 4, e.count);
    if (e.type == 3 && e.count == 1)
      put16(entry, 8, e.value);
    else
      put32(entry, 8, e.value);
    b.insert(b.end(), entry.begin(), entry.end());
  }
  b.insert(b.end(), 4, 0);
  b.insert(b.end(), tail.begin(), tail.end());
  b.insert(b.end(), s.pixels.begin(), s.pixels.end());
  return b;
}

TEST(Tiff, Gray) {
  REQUIRE_CODEC("tiff_rgb");
  const Bytes gray = {0, 1, 2, 100, 200, 255};
  expect_decodes(make_tiff({3, 2, 1, 1, gray}), gray_to_rgb(gray), 2, 3);
  Bytes inverted;
  for (uint8_t v : gray)
    inverted.push_back(uint8_t(255 - v));
  expect_decodes(make_tiff({3, 2, 0, 1, gray}), gray_to_rgb(inverted), 2, 3);
}

TEST(Tiff, RgbAndPalette) {
  REQUIRE_CODEC("tiff_rgb");
  const Bytes rgb = {1, 2, 3, 40, 50, 60, 200, 210, 220, 255, 0, 128};
  expect_decodes(make_tiff({2, 2, 2, 3, rgb}), rgb, 2, 2);
  // A 16-bit colormap: Pillow keeps the high byte.
  TiffSpec palette{2, 1, 3, 1, {0, 2}};
  palette.colormap.assign(768, 0);
  for (int c = 0; c < 3; ++c)
    palette.colormap[size_t(256 * c + 2)] = uint16_t((10 + c) * 257 + 3);
  expect_decodes(make_tiff(palette), {0, 0, 0, 10, 11, 12}, 1, 2);
}

// Pillow drops an unassociated alpha and keeps the colour as stored (libtiff's RGBA interface alone
// would premultiply it).
TEST(Tiff, UnassociatedAlpha) {
  REQUIRE_CODEC("tiff_rgb");
  TiffSpec s{2, 1, 2, 4, {10, 20, 30, 128, 200, 100, 50, 255}};
  s.extra_samples = 2;
  expect_decodes(make_tiff(s), {10, 20, 30, 200, 100, 50}, 1, 2);
  TiffSpec gray{2, 1, 1, 2, {10, 128, 200, 0}};
  gray.extra_samples = 2;
  expect_decodes(make_tiff(gray), gray_to_rgb({10, 200}), 1, 2);
}

// ---- JPEG files made for these tests with libjpeg (quality 100, 8x4, sample y * 60 + i * 7)

TEST(Jpeg, GraySource) {
  REQUIRE_CODEC("jpeg_rgb");
  const Bytes jpeg = read_file("gray_8x4.jpg");
  const Decoded gray = decode(jpeg, PixelFormat::Grayscale, 4, 8);
  ASSERT_EQ(gray.error, "");
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x)
      EXPECT_NEAR(gray.pixels[size_t(y * 8 + x)], y * 60 + x * 7, 2) << x << "," << y;
  // A gray source is decoded as gray and replicated, not decoded as colour.
  for (PixelFormat f : {PixelFormat::RGB, PixelFormat::BGR}) {
    const Decoded rgb = decode(jpeg, f, 4, 8);
    ASSERT_EQ(rgb.error, "");
    EXPECT_EQ(rgb.pixels, gray_to_rgb(gray.pixels));
  }
}

TEST(Jpeg, CmykRefused) {
  REQUIRE_CODEC("jpeg_rgb");
  EXPECT_EQ(decode(read_file("cmyk_8x4.jpg"), PixelFormat::RGB, 4, 8).error,
            "CMYK and YCCK JPEGs are not supported");
}

} // namespace
