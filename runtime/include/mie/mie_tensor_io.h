// mie_tensor_io.h - tensor files for tools and tests (CMake target mie_tensor_io): NumPy .npy (v1/v2/v3,
// little-endian, C order) and ONNX TensorProto .pb, with a self-contained protobuf wire-format reader so the
// runtime side never needs libprotobuf. Functions return "" on success, otherwise a message naming the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mie/mie_rt.h"

namespace mie::io {

struct Tensor {
  std::string name;  // ONNX TensorProto name; empty for .npy
  mie_dtype dtype = MIE_DTYPE_INVALID;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // little-endian, C order, num_elements() * element size bytes
  // A .npy of untyped 1-byte elements ('|V1', or '<f1' for float8_e5m2: how ml_dtypes saves its 8-bit
  // and 4-bit types), read as U8 until adopt_dtype names its type.
  bool untyped = false;
  uint64_t num_elements() const;
};

size_t dtype_size(mie_dtype dtype);
// The 8-bit and 4-bit floats and the 4-bit and 2-bit integers (F8E4M3FN .. U2), one byte each in buffers.
bool is_narrow(mie_dtype dtype);
// 4 or 2 for the types ONNX TensorProto packs (F4E2M1, I4, U4, I2, U2), else 0.
unsigned packed_bits(mie_dtype dtype);
// Gives an untyped tensor (a '|V1' or '<f1' .npy) the narrow type `dtype`, checking that each byte is a value of
// it; an error when `dtype` is not narrow. Typed tensors are left as they are.
std::string adopt_dtype(Tensor *t, mie_dtype dtype, const std::string &what);
// One 8-bit or 4-bit float's bits as double (NaN, infinities and E8M0's powers of two included).
double narrow_float_to_double(mie_dtype dtype, uint8_t bits);
const char *dtype_name(mie_dtype dtype);
std::string shape_string(const std::vector<int64_t> &shape);  // "[1, 64]"

// .npy. dtypes: <f4 <f2 <f8 |i1 <i2 <i4 <i8 |u1 |b1, and <V2/|V2 read (and written) as bf16 (the descr
// ml_dtypes.bfloat16 arrays get); |V1/<V1 (ml_dtypes' 8-bit and 4-bit types) read untyped and written for
// every narrow type, one byte per element. Big-endian and Fortran-order arrays are rejected.
std::string read_npy(const std::string &path, Tensor *out);
std::string parse_npy(const uint8_t *data, size_t size, const std::string &what, Tensor *out);
std::string write_npy(const std::string &path, mie_dtype dtype, const std::vector<int64_t> &shape,
                      const void *data, size_t byte_size);

// Writes `size` bytes to `path` through a temporary in the same directory renamed over it (write_npy and
// write_onnx_tensor do the same): no partial file on failure, an existing file replaced only when complete.
std::string write_file_atomic(const std::string &path, const void *data, size_t size);

// ONNX TensorProto. Reads dims (packed or not), data_type, name, raw_data and the typed fields float_data,
// int32_data, int64_data, double_data. Writes dims, data_type, name and raw_data. 4-bit and 2-bit elements
// are packed in the file (the first in the lowest bits) and one byte each in the Tensor.
std::string read_onnx_tensor(const std::string &path, Tensor *out);
std::string parse_onnx_tensor(const uint8_t *data, size_t size, const std::string &what, Tensor *out);
std::string write_onnx_tensor(const std::string &path, const Tensor &tensor);
int onnx_data_type(mie_dtype dtype);  // ONNX TensorProto.DataType code, 0 if none

// Dispatches on the file's magic bytes: "\x93NUMPY" is .npy, anything else is tried as a TensorProto.
std::string read_tensor_file(const std::string &path, Tensor *out);

// Element i of a buffer as double (f16/bf16 widened exactly), for summaries and comparisons.
double element_as_double(mie_dtype dtype, const void *data, uint64_t index);
float half_to_float(uint16_t h);
float bfloat16_to_float(uint16_t b);

}  // namespace mie::io
