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
  uint64_t num_elements() const;
};

size_t dtype_size(mie_dtype dtype);
const char *dtype_name(mie_dtype dtype);
std::string shape_string(const std::vector<int64_t> &shape);  // "[1, 64]"

// .npy. dtypes: <f4 <f2 <f8 |i1 <i2 <i4 <i8 |u1 |b1, and <V2/|V2 read (and written) as bf16 (the descr
// ml_dtypes.bfloat16 arrays get). Big-endian and Fortran-order arrays are rejected.
std::string read_npy(const std::string &path, Tensor *out);
std::string parse_npy(const uint8_t *data, size_t size, const std::string &what, Tensor *out);
std::string write_npy(const std::string &path, mie_dtype dtype, const std::vector<int64_t> &shape,
                      const void *data, size_t byte_size);

// Writes `size` bytes to `path` through a temporary in the same directory renamed over it (write_npy and
// write_onnx_tensor do the same): no partial file on failure, an existing file replaced only when complete.
std::string write_file_atomic(const std::string &path, const void *data, size_t size);

// ONNX TensorProto. Reads dims (packed or not), data_type, name, raw_data and the typed fields float_data,
// int32_data, int64_data, double_data. Writes dims, data_type, name and raw_data.
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
