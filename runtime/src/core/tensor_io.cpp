#include "mie/mie_tensor_io.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <sys/stat.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mie_tensor_io assumes a little-endian host (file data is copied without byte swapping)"
#endif

namespace mie::io {
namespace {

// The whole file, its size checked against MIE_MAX_TENSOR_FILE_BYTES before anything is allocated and
// read into a buffer of exactly that size. Only regular files: a device or pipe has no size to check
// (reading /dev/zero would only end when memory does).
bool read_file(const std::string &path, std::vector<uint8_t> *out, std::string *error) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = "'" + path + "': cannot open: " + std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = "'" + path + "': not a regular file";
    std::fclose(f);
    return false;
  }
  const uint64_t size = uint64_t(st.st_size);
  if (size > MIE_MAX_TENSOR_FILE_BYTES) {
    *error = "'" + path + "': file is " + std::to_string(size) + " bytes, more than the maximum of " +
             std::to_string(MIE_MAX_TENSOR_FILE_BYTES) + " for a tensor file";
    std::fclose(f);
    return false;
  }
  out->assign(size_t(size), 0);
  const size_t got = size ? std::fread(out->data(), 1, size_t(size), f) : 0;
  // A file that changed size while being read is an error too, not a silently short tensor.
  const bool failed = std::ferror(f) || got != size || std::fgetc(f) != EOF;
  std::fclose(f);
  if (failed) {
    *error = "'" + path + "': read error (or the file changed while being read)";
    return false;
  }
  return true;
}

// Writes head + data to a temporary in the same directory and renames it over `path`: a failed or
// interrupted write never leaves a partial file, and an existing file is replaced only when complete.
std::string write_file(const std::string &path, const std::string &head, const void *data, size_t size) {
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = mkstemp(&tmp[0]);
  if (fd < 0) return "'" + path + "': cannot create: " + std::strerror(errno);
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    close(fd);
    unlink(tmp.c_str());
    return "'" + path + "': cannot create: " + std::strerror(errno);
  }
  bool ok = std::fwrite(head.data(), 1, head.size(), f) == head.size();
  if (ok && size) ok = std::fwrite(data, 1, size, f) == size;
  ok = (std::fclose(f) == 0) && ok;
  // mkstemp creates 0600; give the file the permissions a plain fopen would (0666 & ~umask).
  const mode_t mask = umask(0);
  umask(mask);
  ok = ok && chmod(tmp.c_str(), 0666 & ~mask) == 0;
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return "";
  const std::string why = std::strerror(errno);
  unlink(tmp.c_str());
  return "'" + path + "': write error: " + why;
}

// Element count with overflow detection; false when the product does not fit the byte budget.
bool count_elements(const std::vector<int64_t> &shape, size_t esize, uint64_t *out) {
  uint64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return false;
    if (d != 0 && n > UINT64_MAX / uint64_t(d)) return false;
    n *= uint64_t(d);
  }
  if (esize && n > UINT64_MAX / esize) return false;
  *out = n;
  return true;
}

struct NpyType {
  const char *descr;
  mie_dtype dtype;
};
// Accepted spellings; the first one of each dtype is what write_npy emits.
constexpr NpyType kNpyTypes[] = {
    {"<f4", MIE_DTYPE_F32}, {"<f2", MIE_DTYPE_F16}, {"<V2", MIE_DTYPE_BF16}, {"|V2", MIE_DTYPE_BF16},
    {"<f8", MIE_DTYPE_F64}, {"|i1", MIE_DTYPE_I8},  {"<i1", MIE_DTYPE_I8},   {"<i2", MIE_DTYPE_I16},
    {"<i4", MIE_DTYPE_I32}, {"<i8", MIE_DTYPE_I64}, {"|u1", MIE_DTYPE_U8},   {"<u1", MIE_DTYPE_U8},
    {"|b1", MIE_DTYPE_BOOL}, {"<b1", MIE_DTYPE_BOOL}, {"<u2", MIE_DTYPE_U16}, {"<u4", MIE_DTYPE_U32},
    {"<u8", MIE_DTYPE_U64},
};

// Minimal reader for the Python dict literal in an .npy header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (1, 64), }
class NpyHeader {
 public:
  NpyHeader(const char *p, const char *end) : p_(p), end_(end) {}
  std::string parse(std::string *descr, bool *fortran, std::vector<int64_t> *shape) {
    bool have_descr = false, have_fortran = false, have_shape = false;
    ws();
    if (!eat('{')) return "header is not a dict";
    for (;;) {
      ws();
      if (eat('}')) break;
      std::string key;
      if (!str(&key)) return "expected a quoted key in header";
      ws();
      if (!eat(':')) return "expected ':' in header";
      ws();
      if (key == "descr") {
        if (!str(descr)) return "'descr' is not a simple type string (structured dtypes are not supported)";
        have_descr = true;
      } else if (key == "fortran_order") {
        if (word("True")) *fortran = true;
        else if (word("False")) *fortran = false;
        else return "'fortran_order' is not True or False";
        have_fortran = true;
      } else if (key == "shape") {
        if (!eat('(')) return "'shape' is not a tuple";
        for (;;) {
          ws();
          if (eat(')')) break;
          int64_t v = 0;
          const char *start = p_;
          while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
            if (v > (INT64_MAX - 9) / 10) return "dimension too large in 'shape'";
            v = v * 10 + (*p_++ - '0');
          }
          if (p_ == start) return "expected a non-negative integer in 'shape'";
          if (p_ < end_ && *p_ == 'L') ++p_;  // Python 2 long suffix
          if (shape->size() == MIE_MAX_RANK) return "more than " + std::to_string(MIE_MAX_RANK) + " dimensions in 'shape'";
          shape->push_back(v);
          ws();
          if (eat(')')) break;
          if (!eat(',')) return "expected ',' or ')' in 'shape'";
        }
        have_shape = true;
      } else {
        return "unexpected key '" + key + "' in header";
      }
      ws();
      if (eat('}')) break;
      if (!eat(',')) return "expected ',' or '}' in header";
    }
    ws();
    if (p_ != end_) return "unexpected data after the header dict";
    if (!have_descr || !have_fortran || !have_shape) return "header lacks 'descr', 'fortran_order' or 'shape'";
    return "";
  }

 private:
  void ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\t' || *p_ == '\r')) ++p_;
  }
  bool eat(char c) {
    if (p_ < end_ && *p_ == c) { ++p_; return true; }
    return false;
  }
  bool word(const char *w) {
    size_t n = std::strlen(w);
    if (size_t(end_ - p_) >= n && std::memcmp(p_, w, n) == 0) { p_ += n; return true; }
    return false;
  }
  bool str(std::string *out) {
    if (p_ >= end_ || (*p_ != '\'' && *p_ != '"')) return false;
    const char q = *p_++;
    out->clear();
    while (p_ < end_ && *p_ != q) out->push_back(*p_++);
    return eat(q);
  }
  const char *p_, *end_;
};

// --- protobuf wire format -------------------------------------------------------------------------------
class Wire {
 public:
  Wire(const uint8_t *p, const uint8_t *end) : p_(p), end_(end) {}
  bool done() const { return p_ >= end_; }
  bool varint(uint64_t *v) {
    uint64_t r = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p_ >= end_) return false;
      const uint8_t b = *p_++;
      if (shift == 63 && b > 1) return false;  // more than 64 bits
      r |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) { *v = r; return true; }
    }
    return false;
  }
  bool fixed(void *out, size_t n) {
    if (size_t(end_ - p_) < n) return false;
    std::memcpy(out, p_, n);
    p_ += n;
    return true;
  }
  bool bytes(const uint8_t **data, size_t *size) {
    uint64_t n;
    if (!varint(&n) || n > uint64_t(end_ - p_)) return false;
    *data = p_;
    *size = size_t(n);
    p_ += n;
    return true;
  }
  bool skip(uint32_t wire_type) {
    uint64_t v;
    const uint8_t *d;
    size_t n;
    uint8_t tmp[8];
    switch (wire_type) {
      case 0: return varint(&v);
      case 1: return fixed(tmp, 8);
      case 2: return bytes(&d, &n);
      case 5: return fixed(tmp, 4);
      default: return false;  // groups (3/4) are not used by ONNX
    }
  }

 private:
  const uint8_t *p_, *end_;
};

// A repeated scalar field may arrive packed (one length-delimited blob) or one element per tag; collect both.
template <typename T, typename Decode>
bool repeated(Wire &w, uint32_t wire_type, uint32_t element_wire_type, std::vector<T> *out, Decode decode) {
  if (wire_type == 2) {
    const uint8_t *d;
    size_t n;
    if (!w.bytes(&d, &n)) return false;
    Wire inner(d, d + n);
    while (!inner.done()) {
      T v;
      if (!decode(inner, &v)) return false;
      out->push_back(v);
    }
    return true;
  }
  if (wire_type != element_wire_type) return false;
  T v;
  if (!decode(w, &v)) return false;
  out->push_back(v);
  return true;
}

struct OnnxType {
  int code;
  mie_dtype dtype;
  const char *name;
};
constexpr OnnxType kOnnxTypes[] = {
    {1, MIE_DTYPE_F32, "FLOAT"},  {2, MIE_DTYPE_U8, "UINT8"},    {3, MIE_DTYPE_I8, "INT8"},
    {5, MIE_DTYPE_I16, "INT16"},  {6, MIE_DTYPE_I32, "INT32"},   {7, MIE_DTYPE_I64, "INT64"},
    {9, MIE_DTYPE_BOOL, "BOOL"},  {10, MIE_DTYPE_F16, "FLOAT16"}, {11, MIE_DTYPE_F64, "DOUBLE"},
    {16, MIE_DTYPE_BF16, "BFLOAT16"}, {4, MIE_DTYPE_U16, "UINT16"}, {12, MIE_DTYPE_U32, "UINT32"},
    {13, MIE_DTYPE_U64, "UINT64"},
    {17, MIE_DTYPE_F8E4M3FN, "FLOAT8E4M3FN"}, {18, MIE_DTYPE_F8E4M3FNUZ, "FLOAT8E4M3FNUZ"},
    {19, MIE_DTYPE_F8E5M2, "FLOAT8E5M2"}, {20, MIE_DTYPE_F8E5M2FNUZ, "FLOAT8E5M2FNUZ"},
    {21, MIE_DTYPE_U4, "UINT4"}, {22, MIE_DTYPE_I4, "INT4"}, {23, MIE_DTYPE_F4E2M1, "FLOAT4E2M1"},
    {24, MIE_DTYPE_F8E8M0, "FLOAT8E8M0"}, {25, MIE_DTYPE_U2, "UINT2"}, {26, MIE_DTYPE_I2, "INT2"},
};

const char *onnx_type_name(int code) {
  static const char *kNames[] = {"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64",
                                 "STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64",
                                 "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
                                 "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2"};
  return code >= 0 && code <= 26 ? kNames[code] : "unknown";
}

}  // namespace

uint64_t Tensor::num_elements() const {
  uint64_t n = 0;
  return count_elements(shape, 0, &n) ? n : 0;
}

size_t dtype_size(mie_dtype dtype) {
  switch (dtype) {
    case MIE_DTYPE_F64: case MIE_DTYPE_I64: case MIE_DTYPE_U64: return 8;
    case MIE_DTYPE_F32: case MIE_DTYPE_I32: case MIE_DTYPE_U32: return 4;
    case MIE_DTYPE_F16: case MIE_DTYPE_BF16: case MIE_DTYPE_I16: case MIE_DTYPE_U16: return 2;
    case MIE_DTYPE_I8: case MIE_DTYPE_U8: case MIE_DTYPE_BOOL: return 1;
    case MIE_DTYPE_F8E4M3FN: case MIE_DTYPE_F8E4M3FNUZ: case MIE_DTYPE_F8E5M2: case MIE_DTYPE_F8E5M2FNUZ:
    case MIE_DTYPE_F8E8M0: case MIE_DTYPE_F4E2M1: case MIE_DTYPE_I4: case MIE_DTYPE_U4: case MIE_DTYPE_I2:
    case MIE_DTYPE_U2: return 1;
    default: return 0;
  }
}

unsigned packed_bits(mie_dtype dtype) {
  switch (dtype) {
    case MIE_DTYPE_F4E2M1: case MIE_DTYPE_I4: case MIE_DTYPE_U4: return 4;
    case MIE_DTYPE_I2: case MIE_DTYPE_U2: return 2;
    default: return 0;
  }
}

bool is_narrow(mie_dtype dtype) { return dtype >= MIE_DTYPE_F8E4M3FN && dtype <= MIE_DTYPE_U2; }

std::string adopt_dtype(Tensor *t, mie_dtype dtype, const std::string &what) {
  if (!t->untyped) return "";
  if (!is_narrow(dtype))
    return "'" + what + "' holds untyped 1-byte elements ('|V1' or '<f1': an ml_dtypes 8-bit or 4-bit type), which can be "
           "read only as one of those types, not as " + dtype_name(dtype);
  if (const unsigned bits = packed_bits(dtype)) {
    for (size_t i = 0; i < t->data.size(); ++i)
      if (t->data[i] >> bits)
        return "'" + what + "': element " + std::to_string(i) + " (byte " + std::to_string(t->data[i]) +
               ") is not a " + std::to_string(bits) + "-bit " + dtype_name(dtype) + " value (the bits above it must be 0)";
  }
  t->dtype = dtype;
  t->untyped = false;
  return "";
}

const char *dtype_name(mie_dtype dtype) {
  static const char *kNames[] = {"invalid", "f32",      "f16",        "bf16",   "f64",        "i8",
                                 "i16",     "i32",      "i64",        "u8",     "bool",       "u16",
                                 "u32",     "u64",      "f8e4m3fn",   "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz",
                                 "f8e8m0",  "f4e2m1",   "i4",         "u4",     "i2",         "u2"};
  return dtype >= MIE_DTYPE_F32 && dtype <= MIE_DTYPE_LAST ? kNames[dtype] : "invalid";
}

std::string shape_string(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string parse_npy(const uint8_t *data, size_t size, const std::string &what, Tensor *out) {
  const std::string pre = "'" + what + "': ";
  if (size < 10 || std::memcmp(data, "\x93NUMPY", 6) != 0) return pre + "not an .npy file (bad magic)";
  const uint8_t major = data[6];
  size_t header_len, header_start;
  if (major == 1) {
    header_len = size_t(data[8]) | size_t(data[9]) << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) return pre + "truncated .npy header";
    header_len = size_t(data[8]) | size_t(data[9]) << 8 | size_t(data[10]) << 16 | size_t(data[11]) << 24;
    header_start = 12;
  } else {
    return pre + "unsupported .npy format version " + std::to_string(major);
  }
  if (header_len > size - header_start) return pre + "truncated .npy header";
  if (header_len > MIE_MAX_NPY_HEADER_BYTES)
    return pre + ".npy header is " + std::to_string(header_len) + " bytes, more than the maximum of " +
           std::to_string(MIE_MAX_NPY_HEADER_BYTES);
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
  const char *h = reinterpret_cast<const char *>(data + header_start);
  std::string herr = NpyHeader(h, h + header_len).parse(&descr, &fortran, &shape);
  if (!herr.empty()) return pre + "bad .npy header: " + herr;
  mie_dtype dtype = MIE_DTYPE_INVALID;
  for (const auto &t : kNpyTypes)
    if (descr == t.descr) dtype = t.dtype;
  // ml_dtypes' 8-bit and 4-bit types save as 1-byte void elements, whichever they are ('<f1' for
  // float8_e5m2): read as bytes until the caller names the type (adopt_dtype).
  const bool untyped = descr.size() == 3 && (descr.compare(1, 2, "V1") == 0 || descr.compare(1, 2, "f1") == 0) &&
                       std::strchr("|<=", descr[0]);
  if (untyped) dtype = MIE_DTYPE_U8;
  if (dtype == MIE_DTYPE_INVALID && descr.size() == 3 && descr[0] == '=') {  // native order == little here
    for (const auto &t : kNpyTypes)
      if (descr.compare(1, 2, t.descr + 1) == 0) dtype = t.dtype;
  }
  if (dtype == MIE_DTYPE_INVALID) {
    if (!descr.empty() && descr[0] == '>') return pre + "big-endian data ('" + descr + "') is not supported";
    return pre + "unsupported .npy dtype '" + descr + "'";
  }
  size_t nontrivial = 0;
  for (int64_t d : shape) nontrivial += d > 1;
  if (fortran && nontrivial > 1) return pre + "Fortran-order arrays are not supported (save with C order)";
  uint64_t n;
  const size_t esize = dtype_size(dtype);
  if (!count_elements(shape, esize, &n) || n * esize > MIE_MAX_TENSOR_BYTES)
    return pre + "shape " + shape_string(shape) + " of " + dtype_name(dtype) + " is larger than the maximum of " +
           std::to_string(MIE_MAX_TENSOR_BYTES) + " bytes";
  const uint64_t payload = size - header_start - header_len;
  if (payload != n * esize)
    return pre + "data is " + std::to_string(payload) + " bytes but shape " + shape_string(shape) + " of " +
           dtype_name(dtype) + " needs " + std::to_string(n * esize);
  out->name.clear();
  out->dtype = dtype;
  out->untyped = untyped;
  out->shape = shape;
  out->data.assign(data + header_start + header_len, data + size);
  return "";
}

std::string read_npy(const std::string &path, Tensor *out) {
  std::vector<uint8_t> bytes;
  std::string error;
  if (!read_file(path, &bytes, &error)) return error;
  return parse_npy(bytes.data(), bytes.size(), path, out);
}

std::string write_file_atomic(const std::string &path, const void *data, size_t size) {
  return write_file(path, std::string(), data, size);
}

std::string write_npy(const std::string &path, mie_dtype dtype, const std::vector<int64_t> &shape, const void *data,
                      size_t byte_size) {
  // The 8-bit and 4-bit types as ml_dtypes saves them: 1-byte void elements (np.load gives '|V1'
  // bytes, which .view(ml_dtypes.float8_e4m3fn) and the like make typed again).
  const char *descr = is_narrow(dtype) ? "|V1" : nullptr;
  for (const auto &t : kNpyTypes)
    if (!descr && t.dtype == dtype) {
      descr = t.descr;
      break;
    }
  if (!descr) return "'" + path + "': cannot write dtype " + dtype_name(dtype) + " to .npy";
  uint64_t n;
  if (!count_elements(shape, dtype_size(dtype), &n) || n * dtype_size(dtype) != byte_size)
    return "'" + path + "': " + std::to_string(byte_size) + " bytes do not match shape " + shape_string(shape);
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) dict += (i ? ", " : "") + std::to_string(shape[i]);
  dict += shape.size() == 1 ? ",), }" : "), }";  // Python spells a 1-tuple "(5,)"
  // Pad with spaces so the data starts 64-byte aligned, as numpy does; the header ends with '\n'.
  const bool v2 = dict.size() + 12 + 64 > 65535;
  const size_t prefix = v2 ? 12 : 10;
  size_t total = prefix + dict.size() + 1;
  total = (total + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string head = std::string("\x93NUMPY", 6);
  head += char(v2 ? 2 : 1);
  head += char(0);
  const size_t len = dict.size();
  head += char(len & 0xFF);
  head += char((len >> 8) & 0xFF);
  if (v2) {
    head += char((len >> 16) & 0xFF);
    head += char((len >> 24) & 0xFF);
  }
  return write_file(path, head + dict, data, byte_size);
}

int onnx_data_type(mie_dtype dtype) {
  for (const auto &t : kOnnxTypes)
    if (t.dtype == dtype) return t.code;
  return 0;
}

std::string parse_onnx_tensor(const uint8_t *data, size_t size, const std::string &what, Tensor *out) {
  const std::string pre = "'" + what + "': ";
  Wire w(data, data + size);
  std::vector<int64_t> dims;
  int64_t data_type = 0;
  std::string name;
  const uint8_t *raw = nullptr;
  size_t raw_size = 0;
  bool have_raw = false;
  std::vector<float> floats;
  std::vector<int64_t> int32s, int64s, uint64s;  // int32_data arrives as (sign-extended) varints
  std::vector<double> doubles;
  auto varint_i64 = [](Wire &x, int64_t *v) {
    uint64_t u;
    if (!x.varint(&u)) return false;
    *v = int64_t(u);
    return true;
  };
  while (!w.done()) {
    uint64_t key;
    if (!w.varint(&key)) return pre + "malformed protobuf (bad field key)";
    const uint32_t field = uint32_t(key >> 3), wt = uint32_t(key & 7);
    bool ok = true;
    switch (field) {
      case 1: ok = repeated(w, wt, 0, &dims, varint_i64); break;
      case 2: {
        uint64_t v = 0;
        ok = wt == 0 && w.varint(&v);
        data_type = int64_t(v);
        break;
      }
      case 4: ok = repeated(w, wt, 5, &floats, [](Wire &x, float *v) { return x.fixed(v, 4); }); break;
      case 5: ok = repeated(w, wt, 0, &int32s, varint_i64); break;
      case 6: return pre + "string tensors are not supported";
      case 7: ok = repeated(w, wt, 0, &int64s, varint_i64); break;
      case 8: {
        const uint8_t *d;
        size_t n;
        ok = wt == 2 && w.bytes(&d, &n);
        if (ok) name.assign(reinterpret_cast<const char *>(d), n);
        break;
      }
      case 9: ok = wt == 2 && w.bytes(&raw, &raw_size); have_raw = ok; break;
      case 10: ok = repeated(w, wt, 1, &doubles, [](Wire &x, double *v) { return x.fixed(v, 8); }); break;
      case 11: ok = repeated(w, wt, 0, &uint64s, varint_i64); break;  // uint64_data: UINT32, UINT64
      case 14: {
        uint64_t v = 0;
        ok = wt == 0 && w.varint(&v);
        if (ok && v == 1) return pre + "tensors with external data are not supported";
        break;
      }
      default: ok = w.skip(wt); break;
    }
    if (!ok) return pre + "malformed protobuf (field " + std::to_string(field) + ")";
  }
  mie_dtype dtype = MIE_DTYPE_INVALID;
  for (const auto &t : kOnnxTypes)
    if (t.code == data_type) dtype = t.dtype;
  if (dtype == MIE_DTYPE_INVALID)
    return pre + "unsupported ONNX data type " + onnx_type_name(int(data_type)) + " (" + std::to_string(data_type) + ")";
  const size_t esize = dtype_size(dtype);
  const unsigned bits = packed_bits(dtype);
  uint64_t n;
  if (dims.size() > MIE_MAX_RANK)
    return pre + std::to_string(dims.size()) + " dims, more than the maximum of " + std::to_string(MIE_MAX_RANK);
  for (int64_t d : dims)
    if (d < 0) return pre + "negative dimension in dims " + shape_string(dims);
  if (!count_elements(dims, esize, &n) || n * esize > MIE_MAX_TENSOR_BYTES)
    return pre + "dims " + shape_string(dims) + " of " + dtype_name(dtype) + " are larger than the maximum of " +
           std::to_string(MIE_MAX_TENSOR_BYTES) + " bytes";
  const std::string shape_text = shape_string(dims);
  // The values the file holds must match dims before anything is allocated: a few bytes declaring
  // huge dims are an error, not an allocation failure.
  auto count_error = [&](const char *field, size_t got) {
    return pre + field + " has " + std::to_string(got) + " values but dims " + shape_text + " need " + std::to_string(n);
  };
  // 4-bit and 2-bit elements are packed, the first in the lowest bits, in raw_data and in int32_data
  // (one byte each there).
  const uint64_t per_byte = bits ? 8 / bits : 1;
  const uint64_t file_bytes = bits ? (n + per_byte - 1) / per_byte : n * esize;
  if (have_raw) {
    if (raw_size != file_bytes)
      return pre + "raw_data is " + std::to_string(raw_size) + " bytes but dims " + shape_text + " of " +
             dtype_name(dtype) + " need " + std::to_string(file_bytes);
  } else if (bits) {
    if (int32s.size() != file_bytes)
      return pre + "int32_data has " + std::to_string(int32s.size()) + " values but dims " + shape_text + " of " +
             dtype_name(dtype) + " need " + std::to_string(file_bytes) + " (packed bytes)";
  } else {
    const char *field = dtype == MIE_DTYPE_F32 ? "float_data"
                        : dtype == MIE_DTYPE_F64 ? "double_data"
                        : dtype == MIE_DTYPE_I64 ? "int64_data"
                        : dtype == MIE_DTYPE_U32 || dtype == MIE_DTYPE_U64 ? "uint64_data"
                                                 : "int32_data";
    const size_t got = dtype == MIE_DTYPE_F32 ? floats.size()
                       : dtype == MIE_DTYPE_F64 ? doubles.size()
                       : dtype == MIE_DTYPE_I64 ? int64s.size()
                       : dtype == MIE_DTYPE_U32 || dtype == MIE_DTYPE_U64 ? uint64s.size()
                                                : int32s.size();
    if (got != n) return count_error(field, got);
  }
  out->name = name;
  out->dtype = dtype;
  out->shape = dims;
  out->data.assign(size_t(n * esize), 0);
  if (bits) {
    const unsigned mask = (1u << bits) - 1;
    for (uint64_t i = 0; i < n; ++i) {
      const unsigned byte = have_raw ? raw[i / per_byte] : unsigned(int32s[i / per_byte]) & 0xFF;
      out->data[i] = uint8_t((byte >> (bits * (i % per_byte))) & mask);
    }
    return "";
  }
  if (have_raw) {
    if (raw_size) std::memcpy(out->data.data(), raw, raw_size);
    return "";
  }
  uint8_t *dst = out->data.data();
  switch (dtype) {
    case MIE_DTYPE_F32:
      if (n) std::memcpy(dst, floats.data(), n * 4);
      return "";
    case MIE_DTYPE_F64:
      if (n) std::memcpy(dst, doubles.data(), n * 8);
      return "";
    case MIE_DTYPE_I64:
      if (n) std::memcpy(dst, int64s.data(), n * 8);
      return "";
    case MIE_DTYPE_U32:
    case MIE_DTYPE_U64:
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t v = uint64_t(uint64s[i]);
        std::memcpy(dst + i * esize, &v, esize);  // little-endian: the low bytes come first
      }
      return "";
    default:  // INT32, INT16, INT8, UINT8, UINT16, BOOL, FLOAT16, BFLOAT16 live in int32_data (low bits)
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t v = uint64_t(int32s[i]);
        std::memcpy(dst + i * esize, &v, esize);  // little-endian: the low bytes come first
      }
      return "";
  }
}

std::string read_onnx_tensor(const std::string &path, Tensor *out) {
  std::vector<uint8_t> bytes;
  std::string error;
  if (!read_file(path, &bytes, &error)) return error;
  return parse_onnx_tensor(bytes.data(), bytes.size(), path, out);
}

std::string write_onnx_tensor(const std::string &path, const Tensor &t) {
  const int code = onnx_data_type(t.dtype);
  if (!code) return "'" + path + "': cannot write dtype " + std::string(dtype_name(t.dtype)) + " as ONNX";
  uint64_t n;
  if (!count_elements(t.shape, dtype_size(t.dtype), &n) || n * dtype_size(t.dtype) != t.data.size())
    return "'" + path + "': data size does not match shape " + shape_string(t.shape);
  std::string out;
  auto varint = [&](uint64_t v) {
    do {
      uint8_t b = v & 0x7F;
      v >>= 7;
      out += char(v ? b | 0x80 : b);
    } while (v);
  };
  for (int64_t d : t.shape) {  // unpacked, as protobuf does for proto2 repeated fields by default
    varint(1 << 3 | 0);
    varint(uint64_t(d));
  }
  varint(2 << 3 | 0);
  varint(uint64_t(code));
  if (!t.name.empty()) {
    varint(8 << 3 | 2);
    varint(t.name.size());
    out += t.name;
  }
  varint(9 << 3 | 2);
  if (const unsigned bits = packed_bits(t.dtype)) {
    // Packed as ONNX stores them: the first element in the lowest bits of each byte.
    const uint64_t per_byte = 8 / bits;
    std::vector<uint8_t> packed(size_t((n + per_byte - 1) / per_byte), 0);
    for (uint64_t i = 0; i < n; ++i)
      packed[i / per_byte] |= uint8_t((t.data[i] & ((1u << bits) - 1)) << (bits * (i % per_byte)));
    varint(packed.size());
    return write_file(path, out, packed.data(), packed.size());
  }
  varint(t.data.size());
  return write_file(path, out, t.data.data(), t.data.size());
}

std::string read_tensor_file(const std::string &path, Tensor *out) {
  std::vector<uint8_t> bytes;
  std::string error;
  if (!read_file(path, &bytes, &error)) return error;
  if (bytes.size() >= 6 && std::memcmp(bytes.data(), "\x93NUMPY", 6) == 0)
    return parse_npy(bytes.data(), bytes.size(), path, out);
  return parse_onnx_tensor(bytes.data(), bytes.size(), path, out);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF, bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);  // inf / nan
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal: normalize
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while (!(mant & 0x400));
    bits = sign | (uint32_t(112 - e) << 23) | ((mant & 0x3FF) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float bfloat16_to_float(uint16_t b) {
  const uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

double narrow_float_to_double(mie_dtype dtype, uint8_t bits) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (dtype == MIE_DTYPE_F8E8M0) return bits == 0xFF ? nan : std::ldexp(1.0, int(bits) - 127);
  int e = 4, m = 3, bias = 7;
  switch (dtype) {
    case MIE_DTYPE_F8E4M3FN: break;
    case MIE_DTYPE_F8E4M3FNUZ: bias = 8; break;
    case MIE_DTYPE_F8E5M2: e = 5, m = 2, bias = 15; break;
    case MIE_DTYPE_F8E5M2FNUZ: e = 5, m = 2, bias = 16; break;
    case MIE_DTYPE_F4E2M1: e = 2, m = 1, bias = 1; break;
    default: return 0;
  }
  const unsigned sign_bit = 1u << (e + m), abs = bits & (sign_bit - 1);
  const unsigned exp = abs >> m, mant = abs & ((1u << m) - 1);
  const bool negative = bits & sign_bit;
  const bool fnuz = dtype == MIE_DTYPE_F8E4M3FNUZ || dtype == MIE_DTYPE_F8E5M2FNUZ;
  if (fnuz && bits == sign_bit) return nan;
  if (dtype == MIE_DTYPE_F8E4M3FN && abs == sign_bit - 1) return nan;
  if (dtype == MIE_DTYPE_F8E5M2 && exp == 0x1F)
    return mant ? nan : (negative ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
  const double v = exp ? std::ldexp(1.0 + mant / double(1u << m), int(exp) - bias)
                       : std::ldexp(mant / double(1u << m), 1 - bias);
  return negative ? -v : v;
}

double element_as_double(mie_dtype dtype, const void *data, uint64_t i) {
  const uint8_t *p = static_cast<const uint8_t *>(data) + i * dtype_size(dtype);
  switch (dtype) {
    case MIE_DTYPE_F32: { float v; std::memcpy(&v, p, 4); return v; }
    case MIE_DTYPE_F64: { double v; std::memcpy(&v, p, 8); return v; }
    case MIE_DTYPE_F16: { uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
    case MIE_DTYPE_BF16: { uint16_t v; std::memcpy(&v, p, 2); return bfloat16_to_float(v); }
    case MIE_DTYPE_I8: return double(int8_t(*p));
    case MIE_DTYPE_U8: return double(*p);
    case MIE_DTYPE_BOOL: return *p ? 1.0 : 0.0;
    case MIE_DTYPE_I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case MIE_DTYPE_I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case MIE_DTYPE_I64: { int64_t v; std::memcpy(&v, p, 8); return double(v); }
    case MIE_DTYPE_U16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case MIE_DTYPE_U32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case MIE_DTYPE_U64: { uint64_t v; std::memcpy(&v, p, 8); return double(v); }
    case MIE_DTYPE_I4: return double(int8_t(uint8_t(*p << 4)) >> 4);
    case MIE_DTYPE_I2: return double(int8_t(uint8_t(*p << 6)) >> 6);
    case MIE_DTYPE_U4: return double(*p & 0xF);
    case MIE_DTYPE_U2: return double(*p & 0x3);
    case MIE_DTYPE_F8E4M3FN: case MIE_DTYPE_F8E4M3FNUZ: case MIE_DTYPE_F8E5M2: case MIE_DTYPE_F8E5M2FNUZ:
    case MIE_DTYPE_F8E8M0: case MIE_DTYPE_F4E2M1: return narrow_float_to_double(dtype, *p);
    default: return 0;
  }
}

}  // namespace mie::io
