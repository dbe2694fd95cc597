#include "mie/mie_tensor_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

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
};

const char *onnx_type_name(int code) {
  static const char *kNames[] = {"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64",
                                 "STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64",
                                 "COMPLEX128", "BFLOAT16"};
  return code >= 0 && code <= 16 ? kNames[code] : "unknown";
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
    default: return 0;
  }
}

const char *dtype_name(mie_dtype dtype) {
  static const char *kNames[] = {"invalid", "f32", "f16", "bf16", "f64", "i8",  "i16",
                                 "i32",     "i64", "u8",  "bool", "u16", "u32", "u64"};
  return dtype >= MIE_DTYPE_F32 && dtype <= MIE_DTYPE_U64 ? kNames[dtype] : "invalid";
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
  const char *descr = nullptr;
  for (const auto &t : kNpyTypes)
    if (t.dtype == dtype) {
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
  if (have_raw) {
    if (raw_size != n * esize)
      return pre + "raw_data is " + std::to_string(raw_size) + " bytes but dims " + shape_text + " of " +
             dtype_name(dtype) + " need " + std::to_string(n * esize);
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
    default: return 0;
  }
}

}  // namespace mie::io
