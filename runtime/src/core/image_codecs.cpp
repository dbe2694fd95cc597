// The codecs behind system libraries: libjpeg(-turbo), libpng, libtiff, libwebp and openjpeg, each
// loaded with dlopen on first use (the runtime links against none of them) and set up the way
// Pillow, the ONNX reference for ImageDecoder, uses it.
#include "image_decoder.h"

#include <algorithm>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include <dlfcn.h>

// The codecs compiled against a library's header. A cross build leaves them out (CMake defines
// MIE_RT_NO_CODEC_HEADERS there): the headers it would find are the build machine's, and jconfig.h,
// pnglibconf.h are per architecture. TIFF and WebP need no header (their few prototypes are below).
#if !defined(MIE_RT_NO_CODEC_HEADERS) && __has_include(<jpeglib.h>)
#include <jpeglib.h>
// jpeglib.h must come first.
#include <jerror.h>
#define MIE_HAVE_JPEG 1
#endif
#if !defined(MIE_RT_NO_CODEC_HEADERS) && __has_include(<png.h>)
#include <png.h>
#define MIE_HAVE_PNG 1
#endif
#if !defined(MIE_RT_NO_CODEC_HEADERS) && __has_include(<openjpeg.h>)
#include <openjpeg.h>
#define MIE_HAVE_OPENJPEG 1
#endif

namespace mie::image_detail {
namespace {

// A library opened once per process and never closed, with the symbols a codec needs. `error` is
// non-empty when the library or one of the symbols is missing.
class Library {
public:
  // `format`: for messages ("JPEG"); `names`: the files to try in order; `package`: the Debian
  // package that provides the first.
  Library(const char *format, std::initializer_list<const char *> names, const char *package)
      : format_(format), package_(package) {
    std::string first_error;
    for (const char *name : names) {
      handle_ = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (handle_) {
        name_ = name;
        return;
      }
      if (first_error.empty()) {
        const char *e = dlerror();
        first_error = e ? e : std::string(name) + ": cannot be loaded";
      }
    }
    error_ = std::string("cannot decode ") + format + ": " + first_error +
             " (install the Debian package " + package + ")";
  }

  // Sets *f to the symbol `name`, or records why not (then the library is unusable).
  template <class F>
  void bind(const char *name, F *f, bool optional = false) {
    *f = nullptr;
    if (!handle_)
      return;
    dlerror();
    void *p = dlsym(handle_, name);
    if (!p && !optional && error_.empty()) {
      const char *e = dlerror();
      error_ = std::string("cannot decode ") + format_ + ": " + name_ + " lacks " + name + ": " +
               (e ? e : "symbol not found") + " (install the Debian package " + package_ + ")";
    }
    *f = reinterpret_cast<F>(p);
  }

  const std::string &error() const { return error_; }
  const std::string &name() const { return name_; }

private:
  const char *format_, *package_;
  void *handle_ = nullptr;
  std::string name_, error_;
};

void copy_message(char *to, size_t capacity, const char *message) {
  std::snprintf(to, capacity, "%s", message ? message : "unknown error");
  // Libraries end some messages with a newline or a space; ours are one line.
  size_t n = std::strlen(to);
  for (size_t i = 0; i < n; ++i)
    if (to[i] == '\n' || to[i] == '\r')
      to[i] = ' ';
  while (n > 0 && to[n - 1] == ' ')
    to[--n] = '\0';
}

// ---- JPEG: libjpeg(-turbo), with Pillow's settings: the default (islow) DCT and fancy upsampling.

#ifdef MIE_HAVE_JPEG

struct JpegLib : Library {
  decltype(&jpeg_std_error) std_error;
  decltype(&jpeg_CreateDecompress) create_decompress;
  decltype(&jpeg_destroy_decompress) destroy_decompress;
  decltype(&jpeg_mem_src) mem_src;
  decltype(&jpeg_read_header) read_header;
  decltype(&jpeg_start_decompress) start_decompress;
  decltype(&jpeg_read_scanlines) read_scanlines;

  // Only a library of the ABI this file was compiled against: the structs are shared with it.
  JpegLib()
      : Library("JPEG",
#if JPEG_LIB_VERSION == 62
                {"libjpeg.so.62", "libjpeg.so"},
#elif JPEG_LIB_VERSION == 80
                {"libjpeg.so.8", "libjpeg.so"},
#else
                {"libjpeg.so"},
#endif
                "libjpeg62-turbo") {
    bind("jpeg_std_error", &std_error);
    bind("jpeg_CreateDecompress", &create_decompress);
    bind("jpeg_destroy_decompress", &destroy_decompress);
    bind("jpeg_mem_src", &mem_src);
    bind("jpeg_read_header", &read_header);
    bind("jpeg_start_decompress", &start_decompress);
    bind("jpeg_read_scanlines", &read_scanlines);
  }
};

struct JpegError {
  jpeg_error_mgr mgr; // first: libjpeg hands callbacks &mgr
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jpeg_fail(j_common_ptr cinfo) {
  auto *e = reinterpret_cast<JpegError *>(cinfo->err);
  e->mgr.format_message(cinfo, e->message);
  longjmp(e->jump, 1);
}

// Warnings are ignored, as Pillow does, except the end of the data before the end of the image: the
// library would fill the rest with gray where Pillow reports a truncated file.
void jpeg_warn(j_common_ptr cinfo, int level) {
  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF)
    jpeg_fail(cinfo);
}

void jpeg_silent(j_common_ptr) {}

// A bound on the work a crafted progressive file can cause (each scan redoes the whole image).
void jpeg_progress(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor)
    return;
  auto *d = reinterpret_cast<j_decompress_ptr>(cinfo);
  if (d->input_scan_number > 1000) {
    auto *e = reinterpret_cast<JpegError *>(cinfo->err);
    std::snprintf(e->message, sizeof e->message, "more than 1000 progressive scans");
    longjmp(e->jump, 1);
  }
}

std::string jpeg_decode(const JpegLib &lib, const uint8_t *data, size_t size,
                        const Expected &expected, Raster *raster) {
  jpeg_decompress_struct cinfo;
  std::memset(&cinfo, 0, sizeof cinfo);
  JpegError err;
  cinfo.err = lib.std_error(&err.mgr);
  err.mgr.error_exit = jpeg_fail;
  err.mgr.emit_message = jpeg_warn;
  err.mgr.output_message = jpeg_silent;
  err.message[0] = '\0';
  jpeg_progress_mgr progress{};
  progress.progress_monitor = jpeg_progress;
  // Until the library accepts the struct's layout, its errors are not about the data.
  const char *volatile prefix = "cannot decode JPEG: ";
  // No C++ object created after setjmp is alive across a library call: a longjmp skips no
  // destructor.
  if (setjmp(err.jump)) {
    lib.destroy_decompress(&cinfo);
    return prefix + std::string(err.message);
  }
  lib.create_decompress(&cinfo, JPEG_LIB_VERSION, sizeof cinfo);
  prefix = "corrupt JPEG data: ";
  cinfo.progress = &progress;
  lib.mem_src(&cinfo, data, static_cast<unsigned long>(size));
  lib.read_header(&cinfo, TRUE);
  const char *refused = nullptr;
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK)
    refused = "CMYK and YCCK JPEGs are not supported";
  else if (cinfo.num_components != 1 && cinfo.num_components != 3)
    refused = "JPEG with a number of components other than 1 or 3 is not supported";
  if (refused) {
    lib.destroy_decompress(&cinfo);
    return refused;
  }
  // Checked before decoding anything.
  if (cinfo.image_width != uint64_t(expected.width) ||
      cinfo.image_height != uint64_t(expected.height)) {
    const int64_t w = cinfo.image_width, h = cinfo.image_height;
    lib.destroy_decompress(&cinfo);
    return check_size("JPEG", w, h, expected);
  }
  const bool gray = cinfo.jpeg_color_space == JCS_GRAYSCALE;
  cinfo.out_color_space = gray ? JCS_GRAYSCALE : JCS_RGB;
  cinfo.dct_method = JDCT_ISLOW;
  cinfo.do_fancy_upsampling = TRUE;
  lib.start_decompress(&cinfo);
  const int channels = gray ? 1 : 3;
  if (cinfo.output_width != cinfo.image_width || cinfo.output_height != cinfo.image_height ||
      cinfo.output_components != channels) {
    lib.destroy_decompress(&cinfo);
    return "cannot decode JPEG: unexpected output shape from the library";
  }
  raster->allocate(expected.width, expected.height, channels);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = raster->pixels.data() +
                   size_t(cinfo.output_scanline) * cinfo.output_width * size_t(channels);
    if (lib.read_scanlines(&cinfo, &row, 1) != 1)
      break;
  }
  lib.destroy_decompress(&cinfo);
  return "";
}

#endif // MIE_HAVE_JPEG

// ---- PNG: libpng, expanded to 8-bit gray or RGB. Pillow keeps the high byte of 16-bit samples and
// ignores gAMA, so there is no gamma correction.

#ifdef MIE_HAVE_PNG

struct PngLib : Library {
  decltype(&png_create_read_struct) create_read_struct;
  decltype(&png_create_info_struct) create_info_struct;
  decltype(&png_destroy_read_struct) destroy_read_struct;
  decltype(&png_set_longjmp_fn) set_longjmp_fn;
  decltype(&png_longjmp) longjmp_;
  decltype(&png_error) error_;
  decltype(&png_get_io_ptr) get_io_ptr;
  decltype(&png_get_error_ptr) get_error_ptr;
  decltype(&png_set_read_fn) set_read_fn;
  decltype(&png_read_info) read_info;
  decltype(&png_get_IHDR) get_IHDR;
  decltype(&png_set_expand) set_expand;
  decltype(&png_set_strip_16) set_strip_16;
  decltype(&png_set_strip_alpha) set_strip_alpha;
  decltype(&png_set_interlace_handling) set_interlace_handling;
  decltype(&png_read_update_info) read_update_info;
  decltype(&png_get_channels) get_channels;
  decltype(&png_get_rowbytes) get_rowbytes;
  decltype(&png_read_image) read_image;

  PngLib() : Library("PNG", {"libpng16.so.16"}, "libpng16-16") {
    bind("png_create_read_struct", &create_read_struct);
    bind("png_create_info_struct", &create_info_struct);
    bind("png_destroy_read_struct", &destroy_read_struct);
    bind("png_set_longjmp_fn", &set_longjmp_fn);
    bind("png_longjmp", &longjmp_);
    bind("png_error", &error_);
    bind("png_get_io_ptr", &get_io_ptr);
    bind("png_get_error_ptr", &get_error_ptr);
    bind("png_set_read_fn", &set_read_fn);
    bind("png_read_info", &read_info);
    bind("png_get_IHDR", &get_IHDR);
    bind("png_set_expand", &set_expand);
    bind("png_set_strip_16", &set_strip_16);
    bind("png_set_strip_alpha", &set_strip_alpha);
    bind("png_set_interlace_handling", &set_interlace_handling);
    bind("png_read_update_info", &read_update_info);
    bind("png_get_channels", &get_channels);
    bind("png_get_rowbytes", &get_rowbytes);
    bind("png_read_image", &read_image);
  }
};

const PngLib &png_lib() {
  static const PngLib lib;
  return lib;
}

struct PngInput {
  const uint8_t *data;
  size_t size, at;
  char message[256];
};

void png_read_bytes(png_structp png, png_bytep to, size_t count) {
  auto *in = static_cast<PngInput *>(png_lib().get_io_ptr(png));
  if (count > in->size - in->at)
    png_lib().error_(png, "the data ends inside the image");
  std::memcpy(to, in->data + in->at, count);
  in->at += count;
}

// Keeps the message and jumps to the buffer set with png_set_longjmp_fn: returning would make
// libpng print the message to stderr first.
void png_fail(png_structp png, png_const_charp message) {
  auto *in = static_cast<PngInput *>(png_lib().get_error_ptr(png));
  copy_message(in->message, sizeof in->message, message);
  png_lib().longjmp_(png, 1);
}

void png_warn(png_structp, png_const_charp) {}

std::string png_decode(const PngLib &lib, const uint8_t *data, size_t size,
                       const Expected &expected, Raster *raster) {
  PngInput in{data, size, 0, {0}};
  png_structp png = lib.create_read_struct(PNG_LIBPNG_VER_STRING, &in, png_fail, png_warn);
  if (!png)
    return "cannot decode PNG: libpng refused to start (version mismatch?)";
  png_infop info = lib.create_info_struct(png);
  if (!info) {
    lib.destroy_read_struct(&png, nullptr, nullptr);
    return "cannot decode PNG: out of memory";
  }
  // Declared before setjmp, so that a longjmp skips no constructor or destructor.
  std::vector<png_bytep> rows;
  std::string refused;
  if (setjmp(*lib.set_longjmp_fn(png, longjmp, sizeof(jmp_buf)))) {
    lib.destroy_read_struct(&png, &info, nullptr);
    return std::string("corrupt PNG data: ") + in.message;
  }
  lib.set_read_fn(png, &in, png_read_bytes);
  lib.read_info(png, info);
  png_uint_32 width = 0, height = 0;
  int depth = 0, color_type = 0;
  lib.get_IHDR(png, info, &width, &height, &depth, &color_type, nullptr, nullptr, nullptr);
  refused = check_size("PNG", width, height, expected);
  if (refused.empty()) {
    lib.set_expand(png);
    if (depth == 16)
      lib.set_strip_16(png);
    lib.set_strip_alpha(png);
    lib.set_interlace_handling(png);
    lib.read_update_info(png, info);
    const int channels = lib.get_channels(png, info);
    if ((channels != 1 && channels != 3) ||
        lib.get_rowbytes(png, info) != width * size_t(channels)) {
      refused = "cannot decode PNG: unexpected output layout from the library";
    } else {
      raster->allocate(width, height, channels);
      rows.resize(height);
      for (png_uint_32 y = 0; y < height; ++y)
        rows[y] = raster->pixels.data() + size_t(y) * width * size_t(channels);
      lib.read_image(png, rows.data());
    }
  }
  lib.destroy_read_struct(&png, &info, nullptr);
  return refused;
}

#endif // MIE_HAVE_PNG

// ---- TIFF: libtiff's RGBA interface, which unpacks every photometric interpretation it knows. Its
// few prototypes are declared here (the handle is opaque), so TIFF needs no header at build time.

extern "C" {
struct tiff;
using tiff_read_write = int64_t (*)(void *, void *, int64_t);
using tiff_seek = uint64_t (*)(void *, uint64_t, int);
using tiff_close = int (*)(void *);
using tiff_size = uint64_t (*)(void *);
using tiff_map = int (*)(void *, void **, uint64_t *);
using tiff_unmap = void (*)(void *, void *, uint64_t);
using tiff_handler = void (*)(const char *, const char *, va_list);
using tiff_handler_ext_r = int (*)(tiff *, void *, const char *, const char *, va_list);
}

struct TiffLib : Library {
  tiff *(*client_open)(const char *, const char *, void *, tiff_read_write, tiff_read_write,
                       tiff_seek, tiff_close, tiff_size, tiff_map, tiff_unmap);
  int (*get_field)(tiff *, uint32_t, ...);
  int (*set_field)(tiff *, uint32_t, ...);
  int (*read_rgba_image_oriented)(tiff *, uint32_t, uint32_t, uint32_t *, int, int);
  void (*close)(tiff *);
  // libtiff 4.5+: handlers per TIFF handle. Older versions only have process-wide ones, installed
  // once.
  tiff *(*client_open_ext)(const char *, const char *, void *, tiff_read_write, tiff_read_write,
                           tiff_seek, tiff_close, tiff_size, tiff_map, tiff_unmap, void *);
  void *(*options_alloc)();
  void (*options_free)(void *);
  void (*options_set_error_handler)(void *, tiff_handler_ext_r, void *);
  void (*options_set_warning_handler)(void *, tiff_handler_ext_r, void *);
  void (*options_set_max_single_mem_alloc)(void *, int64_t);
  bool per_handle = false;

  TiffLib();
};

thread_local char *tiff_thread_message; // where the process-wide handlers write, when set

void tiff_global_error(const char *module, const char *format, va_list args) {
  if (!tiff_thread_message)
    return;
  (void)module;
  char buffer[256];
  std::vsnprintf(buffer, sizeof buffer, format, args);
  copy_message(tiff_thread_message, 256, buffer);
}

void tiff_global_warning(const char *, const char *, va_list) {}

int tiff_error(tiff *, void *user, const char *, const char *format, va_list args) {
  char buffer[256];
  std::vsnprintf(buffer, sizeof buffer, format, args);
  copy_message(static_cast<char *>(user), 256, buffer);
  return 1; // handled: libtiff does not call the process-wide handler too
}

int tiff_warning(tiff *, void *, const char *, const char *, va_list) { return 1; }

TiffLib::TiffLib() : Library("TIFF", {"libtiff.so.6", "libtiff.so.5"}, "libtiff6") {
  bind("TIFFClientOpen", &client_open);
  bind("TIFFGetField", &get_field);
  bind("TIFFSetField", &set_field);
  bind("TIFFReadRGBAImageOriented", &read_rgba_image_oriented);
  bind("TIFFClose", &close);
  bind("TIFFClientOpenExt", &client_open_ext, true);
  bind("TIFFOpenOptionsAlloc", &options_alloc, true);
  bind("TIFFOpenOptionsFree", &options_free, true);
  bind("TIFFOpenOptionsSetErrorHandlerExtR", &options_set_error_handler, true);
  bind("TIFFOpenOptionsSetWarningHandlerExtR", &options_set_warning_handler, true);
  bind("TIFFOpenOptionsSetMaxSingleMemAlloc", &options_set_max_single_mem_alloc, true);
  per_handle = client_open_ext && options_alloc && options_free && options_set_error_handler &&
               options_set_warning_handler;
  if (!per_handle && error().empty()) {
    void (*set_error_handler)(tiff_handler) = nullptr,
         (*set_warning_handler)(tiff_handler) = nullptr;
    bind("TIFFSetErrorHandler", &set_error_handler);
    bind("TIFFSetWarningHandler", &set_warning_handler);
    if (error().empty()) {
      set_error_handler(tiff_global_error);
      set_warning_handler(tiff_global_warning);
    }
  }
}

struct TiffInput {
  const uint8_t *data;
  uint64_t size, at;
};

int64_t tiff_read(void *handle, void *to, int64_t count) {
  auto *in = static_cast<TiffInput *>(handle);
  if (count <= 0 || in->at >= in->size)
    return 0;
  const uint64_t n = std::min(uint64_t(count), in->size - in->at);
  std::memcpy(to, in->data + in->at, n);
  in->at += n;
  return int64_t(n);
}

int64_t tiff_write(void *, void *, int64_t) { return 0; }

uint64_t tiff_seek_to(void *handle, uint64_t offset, int whence) {
  auto *in = static_cast<TiffInput *>(handle);
  const uint64_t base = whence == SEEK_CUR ? in->at : whence == SEEK_END ? in->size : 0;
  // Offsets are unsigned: a negative relative one has wrapped, and must not wrap past zero.
  if (whence != SEEK_SET && int64_t(offset) < 0 && uint64_t(-int64_t(offset)) > base)
    return uint64_t(-1);
  in->at = base + offset;
  return in->at;
}

int tiff_close_input(void *) { return 0; }
uint64_t tiff_input_size(void *handle) { return static_cast<TiffInput *>(handle)->size; }
// No mapping: libtiff then reads through tiff_read and never sees (or modifies) the caller's bytes.
int tiff_no_map(void *, void **, uint64_t *) { return 0; }
void tiff_no_unmap(void *, void *, uint64_t) {}

std::string tiff_decode(const TiffLib &lib, const uint8_t *data, size_t size,
                        const Expected &expected, Raster *raster) {
  TiffInput in{data, size, 0};
  char message[256] = "";
  tiff *t;
  if (lib.per_handle) {
    void *options = lib.options_alloc();
    if (!options)
      return "cannot decode TIFF: out of memory";
    lib.options_set_error_handler(options, tiff_error, message);
    lib.options_set_warning_handler(options, tiff_warning, nullptr);
    if (lib.options_set_max_single_mem_alloc)
      lib.options_set_max_single_mem_alloc(options, int64_t(1) << 30);
    t = lib.client_open_ext("memory", "rm", &in, tiff_read, tiff_write, tiff_seek_to,
                            tiff_close_input, tiff_input_size, tiff_no_map, tiff_no_unmap, options);
    lib.options_free(options);
  } else {
    tiff_thread_message = message;
    t = lib.client_open("memory", "rm", &in, tiff_read, tiff_write, tiff_seek_to, tiff_close_input,
                        tiff_input_size, tiff_no_map, tiff_no_unmap);
  }
  std::string result;
  if (!t) {
    result = std::string("corrupt TIFF data: ") + (message[0] ? message : "cannot open");
  } else {
    constexpr uint32_t kImageWidth = 256, kImageLength = 257;
    constexpr int kOrientationTopLeft = 1;
    uint32_t width = 0, height = 0;
    if (!lib.get_field(t, kImageWidth, &width) || !lib.get_field(t, kImageLength, &height)) {
      result = "corrupt TIFF data: no image size";
    } else if (result = check_size("TIFF", width, height, expected); result.empty()) {
      // The RGBA interface premultiplies colour by unassociated alpha; Pillow drops such an alpha
      // and keeps the colour as stored. Declared associated (in memory only), the colour is kept
      // too.
      constexpr uint32_t kExtraSamples = 338;
      constexpr uint16_t kAssociatedAlpha = 1, kUnassociatedAlpha = 2;
      uint16_t count = 0;
      uint16_t *kinds = nullptr;
      if (lib.get_field(t, kExtraSamples, &count, &kinds) && count > 0 && kinds) {
        std::vector<uint16_t> declared(kinds, kinds + count);
        if (std::find(declared.begin(), declared.end(), kUnassociatedAlpha) != declared.end()) {
          std::replace(declared.begin(), declared.end(), kUnassociatedAlpha, kAssociatedAlpha);
          lib.set_field(t, kExtraSamples, int(count), declared.data());
        }
      }
      std::vector<uint32_t> abgr(size_t(width) * height);
      if (!lib.read_rgba_image_oriented(t, width, height, abgr.data(), kOrientationTopLeft, 0)) {
        result = std::string("corrupt TIFF data: ") + (message[0] ? message : "cannot read");
      } else {
        raster->allocate(width, height, 3);
        uint8_t *o = raster->pixels.data();
        for (uint32_t p : abgr)
          *o++ = p & 0xff, *o++ = p >> 8 & 0xff, *o++ = p >> 16 & 0xff;
      }
    }
    lib.close(t);
  }
  tiff_thread_message = nullptr;
  return result;
}

// ---- WebP: libwebp's simple decoding API, whose defaults (fancy upsampling) are Pillow's.

struct WebpLib : Library {
  int (*get_info)(const uint8_t *, size_t, int *, int *);
  uint8_t *(*decode_rgb_into)(const uint8_t *, size_t, uint8_t *, size_t, int);

  WebpLib() : Library("WebP", {"libwebp.so.7", "libwebp.so.6"}, "libwebp7") {
    bind("WebPGetInfo", &get_info);
    bind("WebPDecodeRGBInto", &decode_rgb_into);
  }
};

std::string webp_decode(const WebpLib &lib, const uint8_t *data, size_t size,
                        const Expected &expected, Raster *raster) {
  // The VP8X chunk's animation flag: the simple API decodes still images only.
  if (size >= 21 && std::memcmp(data + 12, "VP8X", 4) == 0 && (data[20] & 0x02))
    return "animated WebP is not supported";
  int width = 0, height = 0;
  if (!lib.get_info(data, size, &width, &height))
    return "corrupt WebP data: invalid header";
  if (std::string e = check_size("WebP", width, height, expected); !e.empty())
    return e;
  raster->allocate(width, height, 3);
  if (!lib.decode_rgb_into(data, size, raster->pixels.data(), raster->pixels.size(), width * 3))
    return "corrupt WebP data: decoding failed";
  return "";
}

// ---- JPEG 2000: openjpeg, from memory. 8-bit unsigned components at full resolution only.

#ifdef MIE_HAVE_OPENJPEG

struct OpenjpegLib : Library {
  decltype(&opj_create_decompress) create_decompress;
  decltype(&opj_destroy_codec) destroy_codec;
  decltype(&opj_set_error_handler) set_error_handler;
  decltype(&opj_set_warning_handler) set_warning_handler;
  decltype(&opj_set_info_handler) set_info_handler;
  decltype(&opj_set_default_decoder_parameters) set_default_decoder_parameters;
  decltype(&opj_setup_decoder) setup_decoder;
  decltype(&opj_stream_create) stream_create;
  decltype(&opj_stream_destroy) stream_destroy;
  decltype(&opj_stream_set_read_function) stream_set_read_function;
  decltype(&opj_stream_set_skip_function) stream_set_skip_function;
  decltype(&opj_stream_set_seek_function) stream_set_seek_function;
  decltype(&opj_stream_set_user_data) stream_set_user_data;
  decltype(&opj_stream_set_user_data_length) stream_set_user_data_length;
  decltype(&opj_read_header) read_header;
  decltype(&opj_decode) decode;
  decltype(&opj_end_decompress) end_decompress;
  decltype(&opj_image_destroy) image_destroy;

  OpenjpegLib() : Library("JPEG 2000", {"libopenjp2.so.7"}, "libopenjp2-7") {
    bind("opj_create_decompress", &create_decompress);
    bind("opj_destroy_codec", &destroy_codec);
    bind("opj_set_error_handler", &set_error_handler);
    bind("opj_set_warning_handler", &set_warning_handler);
    bind("opj_set_info_handler", &set_info_handler);
    bind("opj_set_default_decoder_parameters", &set_default_decoder_parameters);
    bind("opj_setup_decoder", &setup_decoder);
    bind("opj_stream_create", &stream_create);
    bind("opj_stream_destroy", &stream_destroy);
    bind("opj_stream_set_read_function", &stream_set_read_function);
    bind("opj_stream_set_skip_function", &stream_set_skip_function);
    bind("opj_stream_set_seek_function", &stream_set_seek_function);
    bind("opj_stream_set_user_data", &stream_set_user_data);
    bind("opj_stream_set_user_data_length", &stream_set_user_data_length);
    bind("opj_read_header", &read_header);
    bind("opj_decode", &decode);
    bind("opj_end_decompress", &end_decompress);
    bind("opj_image_destroy", &image_destroy);
  }
};

struct OpjInput {
  const uint8_t *data;
  uint64_t size, at;
  char message[256];
};

OPJ_SIZE_T opj_read(void *to, OPJ_SIZE_T count, void *user) {
  auto *in = static_cast<OpjInput *>(user);
  if (in->at >= in->size)
    return OPJ_SIZE_T(-1);
  const uint64_t n = std::min<uint64_t>(count, in->size - in->at);
  std::memcpy(to, in->data + in->at, n);
  in->at += n;
  return OPJ_SIZE_T(n);
}

OPJ_OFF_T opj_skip(OPJ_OFF_T count, void *user) {
  auto *in = static_cast<OpjInput *>(user);
  if (count < 0 ? uint64_t(-count) > in->at : uint64_t(count) > in->size - in->at)
    return -1;
  in->at += uint64_t(count);
  return count;
}

OPJ_BOOL opj_seek(OPJ_OFF_T offset, void *user) {
  auto *in = static_cast<OpjInput *>(user);
  if (offset < 0 || uint64_t(offset) > in->size)
    return OPJ_FALSE;
  in->at = uint64_t(offset);
  return OPJ_TRUE;
}

void opj_on_error(const char *message, void *user) {
  auto *in = static_cast<OpjInput *>(user);
  if (!in->message[0])
    copy_message(in->message, sizeof in->message, message);
}

void opj_silent(const char *, void *) {}

// Checks the header of a decoded or about-to-be-decoded image; "" when it can be converted.
std::string opj_check(const opj_image_t *image, const Expected &expected, int *colours) {
  const int64_t width = int64_t(image->x1) - image->x0, height = int64_t(image->y1) - image->y0;
  if (std::string e = check_size("JPEG 2000", width, height, expected); !e.empty())
    return e;
  if (image->numcomps < 1 || image->numcomps > 4)
    return "JPEG 2000 with " + std::to_string(image->numcomps) + " components is not supported";
  if (image->color_space == OPJ_CLRSPC_SYCC || image->color_space == OPJ_CLRSPC_EYCC ||
      image->color_space == OPJ_CLRSPC_CMYK)
    return "JPEG 2000 in a YCC or CMYK colour space is not supported";
  // 2 components are gray and alpha, 4 RGB and alpha.
  *colours = image->numcomps >= 3 ? 3 : 1;
  for (int c = 0; c < *colours; ++c) {
    const opj_image_comp_t &comp = image->comps[c];
    if (comp.dx != 1 || comp.dy != 1)
      return "JPEG 2000 with subsampled components is not supported";
    if (comp.prec != 8 || comp.sgnd)
      return "JPEG 2000 with " + std::to_string(comp.prec) + "-bit " +
             (comp.sgnd ? "signed" : "unsigned") +
             " samples is not supported (only 8-bit unsigned)";
  }
  return "";
}

std::string opj_decode_image(const OpenjpegLib &lib, const uint8_t *data, size_t size,
                             bool codestream, const Expected &expected, Raster *raster) {
  OpjInput in{data, size, 0, {0}};
  opj_codec_t *codec = lib.create_decompress(codestream ? OPJ_CODEC_J2K : OPJ_CODEC_JP2);
  if (!codec)
    return "cannot decode JPEG 2000: openjpeg refused to start";
  lib.set_error_handler(codec, opj_on_error, &in);
  lib.set_warning_handler(codec, opj_silent, nullptr);
  lib.set_info_handler(codec, opj_silent, nullptr);
  opj_dparameters_t parameters;
  lib.set_default_decoder_parameters(&parameters);
  opj_stream_t *stream = lib.stream_create(64 * 1024, OPJ_TRUE);
  opj_image_t *image = nullptr;
  std::string result;
  int colours = 0;
  if (!stream || !lib.setup_decoder(codec, &parameters)) {
    result = "cannot decode JPEG 2000: openjpeg refused to start";
  } else {
    lib.stream_set_read_function(stream, opj_read);
    lib.stream_set_skip_function(stream, opj_skip);
    lib.stream_set_seek_function(stream, opj_seek);
    lib.stream_set_user_data(stream, &in, nullptr);
    lib.stream_set_user_data_length(stream, size);
    if (!lib.read_header(stream, codec, &image) || !image) {
      result = "corrupt JPEG 2000 data: " + std::string(in.message[0] ? in.message : "bad header");
    } else if (result = opj_check(image, expected, &colours); result.empty()) {
      if (!lib.decode(codec, stream, image) || !lib.end_decompress(codec, stream)) {
        result = "corrupt JPEG 2000 data: " +
                 std::string(in.message[0] ? in.message : "decoding failed");
      } else if (result = opj_check(image, expected, &colours); result.empty()) {
        raster->allocate(expected.width, expected.height, colours);
        const size_t pixels = size_t(expected.width * expected.height);
        for (int c = 0; c < colours && result.empty(); ++c) {
          const opj_image_comp_t &comp = image->comps[c];
          if (!comp.data || comp.w != uint32_t(expected.width) ||
              comp.h != uint32_t(expected.height)) {
            result = "corrupt JPEG 2000 data: a component has no data or the wrong size";
            break;
          }
          for (size_t i = 0; i < pixels; ++i)
            raster->pixels[i * size_t(colours) + size_t(c)] =
                uint8_t(std::clamp<OPJ_INT32>(comp.data[i], 0, 255));
        }
      }
    }
  }
  if (image)
    lib.image_destroy(image);
  if (stream)
    lib.stream_destroy(stream);
  lib.destroy_codec(codec);
  return result;
}

#endif // MIE_HAVE_OPENJPEG

} // namespace

std::string decode_jpeg(const uint8_t *data, size_t size, const Expected &expected,
                        Raster *raster) {
#ifdef MIE_HAVE_JPEG
  static const JpegLib lib;
  if (!lib.error().empty())
    return lib.error();
  return jpeg_decode(lib, data, size, expected, raster);
#else
  (void)data, (void)size, (void)expected, (void)raster;
  return "this runtime was built without JPEG support";
#endif
}

std::string decode_png(const uint8_t *data, size_t size, const Expected &expected, Raster *raster) {
#ifdef MIE_HAVE_PNG
  const PngLib &lib = png_lib();
  if (!lib.error().empty())
    return lib.error();
  return png_decode(lib, data, size, expected, raster);
#else
  (void)data, (void)size, (void)expected, (void)raster;
  return "this runtime was built without PNG support";
#endif
}

std::string decode_tiff(const uint8_t *data, size_t size, const Expected &expected,
                        Raster *raster) {
  static const TiffLib lib;
  if (!lib.error().empty())
    return lib.error();
  return tiff_decode(lib, data, size, expected, raster);
}

std::string decode_webp(const uint8_t *data, size_t size, const Expected &expected,
                        Raster *raster) {
  static const WebpLib lib;
  if (!lib.error().empty())
    return lib.error();
  return webp_decode(lib, data, size, expected, raster);
}

std::string decode_jpeg2000(const uint8_t *data, size_t size, bool codestream,
                            const Expected &expected, Raster *raster) {
#ifdef MIE_HAVE_OPENJPEG
  static const OpenjpegLib lib;
  if (!lib.error().empty())
    return lib.error();
  return opj_decode_image(lib, data, size, codestream, expected, raster);
#else
  (void)data, (void)size, (void)codestream, (void)expected, (void)raster;
  return "this runtime was built without JPEG 2000 support";
#endif
}

} // namespace mie::image_detail
