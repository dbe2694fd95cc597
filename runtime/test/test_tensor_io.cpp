#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "mie/mie_tensor_io.h"
#include "test_util.h"

using mie::io::Tensor;
using namespace mie::test;

namespace {

std::vector<uint8_t> bytes_of(const std::string &s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// An .npy file exactly as numpy 1.x writes it (v1 header padded to 64 bytes).
std::vector<uint8_t> numpy_file(const std::string &dict, const std::vector<uint8_t> &payload, int version = 1) {
  std::string header = dict;
  const size_t prefix = version == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = std::string("\x93NUMPY", 6) + char(version) + char(0);
  out += char(header.size() & 0xFF);
  out += char(header.size() >> 8);
  if (version != 1) out += std::string(2, '\0');
  out += header;
  auto v = bytes_of(out);
  v.insert(v.end(), payload.begin(), payload.end());
  return v;
}

template <typename T>
std::vector<uint8_t> raw(const std::vector<T> &v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::string npy_error(const std::vector<uint8_t> &file) {
  Tensor t;
  return mie::io::parse_npy(file.data(), file.size(), "t.npy", &t);
}

TEST(Npy, ReadsNumpyLayout) {
  Tensor t;
  auto file = numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", raw<float>({1, 2, 3, 4, 5, 6}));
  ASSERT_EQ(mie::io::parse_npy(file.data(), file.size(), "t.npy", &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_F32);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.data, raw<float>({1, 2, 3, 4, 5, 6}));
  file = numpy_file("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", raw<int64_t>({-1, 0, 7}), 2);
  ASSERT_EQ(mie::io::parse_npy(file.data(), file.size(), "t.npy", &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_I64);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{3}));
  file = numpy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", {1});
  ASSERT_EQ(mie::io::parse_npy(file.data(), file.size(), "t.npy", &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_BOOL);
  EXPECT_TRUE(t.shape.empty());
  // Fortran order is harmless when at most one dimension is larger than 1.
  file = numpy_file("{'descr': '<f8', 'fortran_order': True, 'shape': (1, 2), }", raw<double>({1, 2}));
  EXPECT_EQ(mie::io::parse_npy(file.data(), file.size(), "t.npy", &t), "");
}

TEST(Npy, RoundTripsEveryDtype) {
  const mie_dtype all[] = {MIE_DTYPE_F32, MIE_DTYPE_F16, MIE_DTYPE_BF16, MIE_DTYPE_F64, MIE_DTYPE_I8,
                           MIE_DTYPE_I16, MIE_DTYPE_I32, MIE_DTYPE_I64, MIE_DTYPE_U8,  MIE_DTYPE_BOOL};
  for (mie_dtype dt : all) {
    for (const std::vector<int64_t> &shape : {std::vector<int64_t>{}, {5}, {2, 3, 4}, {0, 7}}) {
      Tensor in;
      in.dtype = dt;
      in.shape = shape;
      in.data.resize(in.num_elements() * mie::io::dtype_size(dt));
      for (size_t i = 0; i < in.data.size(); ++i) in.data[i] = uint8_t(i * 13 + 1) & (dt == MIE_DTYPE_BOOL ? 1 : 0xFF);
      const std::string path = tmp_path(std::string(mie::io::dtype_name(dt)) + ".npy");
      ASSERT_EQ(mie::io::write_npy(path, dt, shape, in.data.data(), in.data.size()), "");
      auto file = read_file(path);
      ASSERT_EQ(file.size() % 64 == in.data.size() % 64, true);  // data starts 64-byte aligned
      Tensor out;
      ASSERT_EQ(mie::io::read_npy(path, &out), "") << mie::io::dtype_name(dt);
      EXPECT_EQ(out.dtype, dt);
      EXPECT_EQ(out.shape, shape);
      EXPECT_EQ(out.data, in.data);
      ASSERT_EQ(mie::io::read_tensor_file(path, &out), "");
      EXPECT_EQ(out.data, in.data);
    }
  }
  // One-dimensional shapes are written as Python 1-tuples.
  const std::string path = tmp_path("one.npy");
  const float v[2] = {1, 2};
  ASSERT_EQ(mie::io::write_npy(path, MIE_DTYPE_F32, {2}, v, sizeof v), "");
  auto file = read_file(path);
  EXPECT_NE(std::string(file.begin(), file.end()).find("'shape': (2,), }"), std::string::npos);
  EXPECT_EQ(mie::io::write_npy(path, MIE_DTYPE_F32, {3}, v, sizeof v), "'" + path + "': 8 bytes do not match shape [3]");
}

TEST(Npy, Rejections) {
  EXPECT_EQ(npy_error(bytes_of("hello world")), "'t.npy': not an .npy file (bad magic)");
  EXPECT_EQ(npy_error(numpy_file("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", {0, 0, 0, 0})),
            "'t.npy': big-endian data ('>f4') is not supported");
  EXPECT_EQ(npy_error(numpy_file("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", std::vector<uint8_t>(8))),
            "'t.npy': unsupported .npy dtype '<c8'");
  EXPECT_EQ(npy_error(numpy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", std::vector<uint8_t>(16))),
            "'t.npy': Fortran-order arrays are not supported (save with C order)");
  EXPECT_EQ(npy_error(numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", std::vector<uint8_t>(12))),
            "'t.npy': data is 12 bytes but shape [2, 2] of f32 needs 16");
  EXPECT_EQ(npy_error(numpy_file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", {})),
            "'t.npy': bad .npy header: 'descr' is not a simple type string (structured dtypes are not supported)");
  EXPECT_EQ(npy_error(numpy_file("{'descr': '<f4', 'shape': (1,), }", {})),
            "'t.npy': bad .npy header: header lacks 'descr', 'fortran_order' or 'shape'");
  EXPECT_EQ(npy_error(numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", {})),
            "'t.npy': bad .npy header: expected a non-negative integer in 'shape'");
  auto file = numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", {0, 0, 0, 0});
  file[6] = 9;
  EXPECT_EQ(npy_error(file), "'t.npy': unsupported .npy format version 9");
  file = numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", {});
  file.resize(30);
  EXPECT_EQ(npy_error(file), "'t.npy': truncated .npy header");
  Tensor t;
  EXPECT_EQ(mie::io::read_npy(tmp_path("nope.npy"), &t), "'" + tmp_path("nope.npy") + "': cannot open: No such file or directory");
}

// Sizes the header declares are bounded before anything is allocated (mie_rt.h).
TEST(Npy, Limits) {
  std::string dims = "1";
  for (int i = 1; i < 65; ++i) dims += ", 1";
  EXPECT_EQ(npy_error(numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }", {0, 0, 0, 0})),
            "'t.npy': bad .npy header: more than 64 dimensions in 'shape'");
  EXPECT_EQ(npy_error(numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 2), }", {})),
            "'t.npy': shape [1099511627776, 2] of f32 is larger than the maximum of 1099511627776 bytes");
  // A version 2 header declaring more than the maximum, with the bytes there: refused before it is parsed.
  std::vector<uint8_t> big = bytes_of(std::string("\x93NUMPY\x02\x00", 8));
  const uint32_t len = uint32_t(MIE_MAX_NPY_HEADER_BYTES + 1);
  for (int i = 0; i < 4; ++i) big.push_back(uint8_t(len >> (8 * i)));
  big.resize(big.size() + len, ' ');
  EXPECT_EQ(npy_error(big), "'t.npy': .npy header is 1048577 bytes, more than the maximum of 1048576");
  // Truncated: the declared header is longer than the file.
  big.resize(100);
  EXPECT_EQ(npy_error(big), "'t.npy': truncated .npy header");
}

// Tensor files are read only when they are regular files of a bounded size: a directory, a device or a
// pipe has no size to check in advance.
TEST(TensorIo, ReadsOnlyRegularFiles) {
  Tensor t;
  EXPECT_EQ(mie::io::read_tensor_file(MIE_TEST_TMP, &t), std::string("'") + MIE_TEST_TMP + "': not a regular file");
  EXPECT_EQ(mie::io::read_npy("/dev/zero", &t), "'/dev/zero': not a regular file");
}

// --- ONNX TensorProto ---------------------------------------------------------------------------------

struct Pb {
  std::vector<uint8_t> b;
  Pb &varint(uint64_t v) {
    do {
      uint8_t x = v & 0x7F;
      v >>= 7;
      b.push_back(v ? x | 0x80 : x);
    } while (v);
    return *this;
  }
  Pb &key(int field, int wt) { return varint(uint64_t(field) << 3 | uint64_t(wt)); }
  Pb &field_varint(int field, uint64_t v) { return key(field, 0).varint(v); }
  Pb &field_bytes(int field, const std::vector<uint8_t> &d) {
    key(field, 2).varint(d.size());
    b.insert(b.end(), d.begin(), d.end());
    return *this;
  }
  Pb &fixed32(int field, float f) {
    key(field, 5);
    uint8_t x[4];
    std::memcpy(x, &f, 4);
    b.insert(b.end(), x, x + 4);
    return *this;
  }
};

std::string pb_parse(const Pb &pb, Tensor *t) { return mie::io::parse_onnx_tensor(pb.b.data(), pb.b.size(), "t.pb", t); }

TEST(OnnxTensor, TypedFields) {
  Tensor t;
  // Packed dims, packed float_data, a name and an unknown field (doc_string) that must be skipped.
  Pb packed_dims;
  packed_dims.varint(2).varint(3);
  Pb pb;
  pb.field_bytes(1, packed_dims.b).field_varint(2, 1).field_bytes(8, bytes_of("x")).field_bytes(12, bytes_of("doc"));
  pb.field_bytes(4, raw<float>({1, 2, 3, 4, 5, 6}));
  ASSERT_EQ(pb_parse(pb, &t), "");
  EXPECT_EQ(t.name, "x");
  EXPECT_EQ(t.dtype, MIE_DTYPE_F32);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.data, raw<float>({1, 2, 3, 4, 5, 6}));

  // Unpacked dims and unpacked float_data.
  Pb u;
  u.field_varint(1, 2).field_varint(2, 1).fixed32(4, 1.5f).fixed32(4, -2.0f);
  ASSERT_EQ(pb_parse(u, &t), "");
  EXPECT_EQ(t.data, raw<float>({1.5f, -2.0f}));

  // INT8 through int32_data, negative values as 10-byte varints.
  Pb i8;
  i8.field_varint(1, 3).field_varint(2, 3);
  Pb vals;
  vals.varint(uint64_t(int64_t(-5))).varint(0).varint(127);
  i8.field_bytes(5, vals.b);
  ASSERT_EQ(pb_parse(i8, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_I8);
  EXPECT_EQ(t.data, (std::vector<uint8_t>{0xFB, 0, 127}));

  // INT64 through int64_data; DOUBLE through double_data; FLOAT16 and BOOL through int32_data.
  Pb i64;
  Pb v64;
  v64.varint(uint64_t(int64_t(-1))).varint(1ull << 40);
  i64.field_varint(1, 2).field_varint(2, 7).field_bytes(7, v64.b);
  ASSERT_EQ(pb_parse(i64, &t), "");
  EXPECT_EQ(t.data, raw<int64_t>({-1, int64_t(1) << 40}));
  Pb f64;
  f64.field_varint(2, 11).field_bytes(10, raw<double>({0.25}));
  ASSERT_EQ(pb_parse(f64, &t), "");  // no dims: a scalar
  EXPECT_TRUE(t.shape.empty());
  EXPECT_EQ(t.data, raw<double>({0.25}));
  Pb f16;
  Pb hv;
  hv.varint(0x3C00).varint(0xC000);
  f16.field_varint(1, 2).field_varint(2, 10).field_bytes(5, hv.b);
  ASSERT_EQ(pb_parse(f16, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_F16);
  EXPECT_EQ(mie::io::element_as_double(t.dtype, t.data.data(), 0), 1.0);
  EXPECT_EQ(mie::io::element_as_double(t.dtype, t.data.data(), 1), -2.0);
  Pb bf16;
  Pb bv;
  bv.varint(0x3F80);
  bf16.field_varint(1, 1).field_varint(2, 16).field_bytes(5, bv.b);
  ASSERT_EQ(pb_parse(bf16, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_BF16);
  EXPECT_EQ(mie::io::element_as_double(t.dtype, t.data.data(), 0), 1.0);
}

TEST(OnnxTensor, RawDataRoundTrip) {
  const mie_dtype all[] = {MIE_DTYPE_F32, MIE_DTYPE_F16, MIE_DTYPE_BF16, MIE_DTYPE_F64, MIE_DTYPE_I8,
                           MIE_DTYPE_I16, MIE_DTYPE_I32, MIE_DTYPE_I64, MIE_DTYPE_U8,  MIE_DTYPE_BOOL};
  for (mie_dtype dt : all) {
    Tensor in;
    in.name = "t_" + std::string(mie::io::dtype_name(dt));
    in.dtype = dt;
    in.shape = {3, 1, 2};
    in.data.resize(6 * mie::io::dtype_size(dt));
    for (size_t i = 0; i < in.data.size(); ++i) in.data[i] = uint8_t(i + 1) & (dt == MIE_DTYPE_BOOL ? 1 : 0xFF);
    const std::string path = tmp_path(in.name + ".pb");
    ASSERT_EQ(mie::io::write_onnx_tensor(path, in), "");
    Tensor out;
    ASSERT_EQ(mie::io::read_onnx_tensor(path, &out), "");
    EXPECT_EQ(out.name, in.name);
    EXPECT_EQ(out.dtype, dt);
    EXPECT_EQ(out.shape, in.shape);
    EXPECT_EQ(out.data, in.data);
    ASSERT_EQ(mie::io::read_tensor_file(path, &out), "");  // no .npy magic: parsed as TensorProto
    EXPECT_EQ(out.data, in.data);
  }
}

// UINT16 arrives in int32_data, UINT32 and UINT64 in uint64_data (field 11).
TEST(OnnxTensor, UnsignedTypedData) {
  Tensor t;
  Pb u16;
  u16.field_varint(1, 2).field_varint(2, 4).field_varint(5, 1).field_varint(5, 65535);
  ASSERT_EQ(pb_parse(u16, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_U16);
  EXPECT_EQ(t.data, std::vector<uint8_t>({1, 0, 0xFF, 0xFF}));
  Pb u32;
  u32.field_varint(1, 1).field_varint(2, 12).field_varint(11, 4294967295u);
  ASSERT_EQ(pb_parse(u32, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_U32);
  EXPECT_EQ(t.data, std::vector<uint8_t>({0xFF, 0xFF, 0xFF, 0xFF}));
  Pb u64;
  u64.field_varint(1, 1).field_varint(2, 13).field_varint(11, uint64_t(1) << 63);
  ASSERT_EQ(pb_parse(u64, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_U64);
  EXPECT_EQ(t.data, std::vector<uint8_t>({0, 0, 0, 0, 0, 0, 0, 0x80}));
  Pb short64;
  short64.field_varint(1, 2).field_varint(2, 13).field_varint(11, 1);
  EXPECT_EQ(pb_parse(short64, &t), "'t.pb': uint64_data has 1 values but dims [2] need 2");
}

TEST(OnnxTensor, Rejections) {
  Tensor t;
  Pb c64;
  c64.field_varint(1, 1).field_varint(2, 14).field_bytes(9, {0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(pb_parse(c64, &t), "'t.pb': unsupported ONNX data type COMPLEX64 (14)");
  Pb count;
  count.field_varint(1, 3).field_varint(2, 1).field_bytes(4, raw<float>({1, 2}));
  EXPECT_EQ(pb_parse(count, &t), "'t.pb': float_data has 2 values but dims [3] need 3");
  Pb rawsize;
  rawsize.field_varint(1, 2).field_varint(2, 6).field_bytes(9, {1, 2, 3});
  EXPECT_EQ(pb_parse(rawsize, &t), "'t.pb': raw_data is 3 bytes but dims [2] of i32 need 8");
  Pb truncated;
  truncated.field_varint(1, 2).key(9, 2).varint(100);
  EXPECT_EQ(pb_parse(truncated, &t), "'t.pb': malformed protobuf (field 9)");
  Pb badkey;
  badkey.b = {0xFF, 0xFF};
  EXPECT_EQ(pb_parse(badkey, &t), "'t.pb': malformed protobuf (bad field key)");
  Pb group;
  group.key(20, 3);
  EXPECT_EQ(pb_parse(group, &t), "'t.pb': malformed protobuf (field 20)");
  Pb external;
  external.field_varint(2, 1).field_varint(14, 1);
  EXPECT_EQ(pb_parse(external, &t), "'t.pb': tensors with external data are not supported");
  Pb nodata;
  nodata.field_varint(1, 2).field_varint(2, 1);
  EXPECT_EQ(pb_parse(nodata, &t), "'t.pb': float_data has 0 values but dims [2] need 2");
  Pb negative;
  negative.field_varint(1, uint64_t(int64_t(-2))).field_varint(2, 1);
  EXPECT_EQ(pb_parse(negative, &t), "'t.pb': negative dimension in dims [-2]");
  Pb wrongwire;
  wrongwire.key(2, 2).varint(0);
  EXPECT_EQ(pb_parse(wrongwire, &t), "'t.pb': malformed protobuf (field 2)");
  // A few bytes declaring 2^36 floats: refused before anything of that size is allocated.
  Pb huge;
  huge.field_varint(1, 1 << 18).field_varint(1, 1 << 18).field_varint(2, 1);
  EXPECT_EQ(pb_parse(huge, &t), "'t.pb': float_data has 0 values but dims [262144, 262144] need 68719476736");
  Pb hugeraw;
  hugeraw.field_varint(1, 1 << 18).field_varint(1, 1 << 18).field_varint(2, 1).field_bytes(9, {1, 2, 3, 4});
  EXPECT_EQ(pb_parse(hugeraw, &t),
            "'t.pb': raw_data is 4 bytes but dims [262144, 262144] of f32 need 274877906944");
  // Beyond the maximum tensor size or rank: refused on the dims alone.
  Pb huger;
  huger.field_varint(1, 1 << 20).field_varint(1, 1 << 20).field_varint(1, 2).field_varint(2, 1);
  EXPECT_EQ(pb_parse(huger, &t),
            "'t.pb': dims [1048576, 1048576, 2] of f32 are larger than the maximum of 1099511627776 bytes");
  Pb rank65;
  for (int i = 0; i < 65; ++i) rank65.field_varint(1, 1);
  rank65.field_varint(2, 1);
  EXPECT_EQ(pb_parse(rank65, &t), "'t.pb': 65 dims, more than the maximum of 64");
}

TEST(TensorIo, HalfAndBfloatConversions) {
  EXPECT_EQ(mie::io::half_to_float(0x3C00), 1.0f);
  EXPECT_EQ(mie::io::half_to_float(0xC000), -2.0f);
  EXPECT_EQ(mie::io::half_to_float(0x7BFF), 65504.0f);
  EXPECT_EQ(mie::io::half_to_float(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(mie::io::half_to_float(0x03FF), std::ldexp(1023.0f, -24));  // largest subnormal
  EXPECT_EQ(mie::io::half_to_float(0x8000), -0.0f);
  EXPECT_TRUE(std::isinf(mie::io::half_to_float(0x7C00)));
  EXPECT_TRUE(std::isnan(mie::io::half_to_float(0x7E00)));
  EXPECT_EQ(mie::io::bfloat16_to_float(0xC040), -3.0f);
  EXPECT_EQ(mie::io::shape_string({}), "[]");
  EXPECT_EQ(mie::io::shape_string({1, 64}), "[1, 64]");
  EXPECT_EQ(mie::io::onnx_data_type(MIE_DTYPE_BF16), 16);
}

// The 8-bit and 4-bit floats and 4-bit and 2-bit integers: one byte per element in a Tensor; ONNX
// TensorProto packs the 4-bit and 2-bit ones, the first element in the lowest bits.
TEST(NarrowTypes, PackedTensorProto) {
  Tensor t;
  // INT4 [1, -2, 7, -8, 3] in raw_data: three bytes, the last one's high half unused.
  Pb i4;
  i4.field_varint(1, 5).field_varint(2, 22).field_bytes(9, {0xE1, 0x87, 0x03});
  ASSERT_EQ(pb_parse(i4, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_I4);
  EXPECT_EQ(t.data, (std::vector<uint8_t>{0x1, 0xE, 0x7, 0x8, 0x3}));
  const double i4_values[] = {1, -2, 7, -8, 3};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(mie::io::element_as_double(t.dtype, t.data.data(), i), i4_values[i]);
  // UINT2 [3, 0, 1, 2, 3] in int32_data: one packed byte per value there.
  Pb u2;
  Pb packed;
  packed.varint(3 | 0 << 2 | 1 << 4 | 2 << 6).varint(3);
  u2.field_varint(1, 5).field_varint(2, 25).field_bytes(5, packed.b);
  ASSERT_EQ(pb_parse(u2, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_U2);
  EXPECT_EQ(t.data, (std::vector<uint8_t>{3, 0, 1, 2, 3}));
  // The sizes counted in packed bytes.
  Pb short_raw;
  short_raw.field_varint(1, 5).field_varint(2, 22).field_bytes(9, {0x21, 0x43});
  EXPECT_EQ(pb_parse(short_raw, &t), "'t.pb': raw_data is 2 bytes but dims [5] of i4 need 3");
  Pb short_typed;
  short_typed.field_varint(1, 9).field_varint(2, 26).field_varint(5, 0);
  EXPECT_EQ(pb_parse(short_typed, &t), "'t.pb': int32_data has 1 values but dims [9] of i2 need 3 (packed bytes)");
  // 8-bit floats: one byte each, raw or int32_data.
  Pb f8;
  f8.field_varint(1, 2).field_varint(2, 17).field_bytes(9, {0x38, 0xC0});
  ASSERT_EQ(pb_parse(f8, &t), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_F8E4M3FN);
  EXPECT_EQ(mie::io::element_as_double(t.dtype, t.data.data(), 0), 1.0);
  EXPECT_EQ(mie::io::element_as_double(t.dtype, t.data.data(), 1), -2.0);

  // Every narrow type round trips through a .pb file, odd counts included (a half-used last byte).
  const mie_dtype narrow[] = {MIE_DTYPE_F8E4M3FN, MIE_DTYPE_F8E4M3FNUZ, MIE_DTYPE_F8E5M2, MIE_DTYPE_F8E5M2FNUZ,
                              MIE_DTYPE_F8E8M0,   MIE_DTYPE_F4E2M1,     MIE_DTYPE_I4,     MIE_DTYPE_U4,
                              MIE_DTYPE_I2,       MIE_DTYPE_U2};
  for (mie_dtype dt : narrow) {
    const unsigned bits = mie::io::packed_bits(dt);
    for (int64_t n : {0, 1, 3, 7, 17}) {
      Tensor in;
      in.name = "t";
      in.dtype = dt;
      in.shape = {n};
      in.data.resize(size_t(n));
      for (int64_t i = 0; i < n; ++i) in.data[size_t(i)] = uint8_t(i * 37 + 5) & (bits ? (1u << bits) - 1 : 0xFF);
      const std::string path = tmp_path(std::string(mie::io::dtype_name(dt)) + ".pb");
      ASSERT_EQ(mie::io::write_onnx_tensor(path, in), "");
      // The file holds ceil(n * bits / 8) bytes of data for the packed types.
      const uint64_t per_byte = bits ? 8 / bits : 1;
      const size_t data_bytes = size_t((uint64_t(n) + per_byte - 1) / per_byte);
      EXPECT_EQ(read_file(path).size(), 2 + 2 + 2 + 1 + 2 + data_bytes) << mie::io::dtype_name(dt) << " " << n;
      Tensor out;
      ASSERT_EQ(mie::io::read_onnx_tensor(path, &out), "") << mie::io::dtype_name(dt);
      EXPECT_EQ(out.dtype, dt);
      EXPECT_EQ(out.data, in.data) << mie::io::dtype_name(dt) << " " << n;
    }
  }
}

// ml_dtypes saves all of its 8-bit and 4-bit types as '<V1' (float8_e5m2 as '<f1'): such a file is read
// untyped, and the caller (mie-run: the model's input type) names its type.
TEST(NarrowTypes, UntypedNpy) {
  Tensor t;
  auto file = numpy_file("{'descr': '<V1', 'fortran_order': False, 'shape': (3,), }", {0x0F, 0x07, 0x08});
  ASSERT_EQ(mie::io::parse_npy(file.data(), file.size(), "t.npy", &t), "");
  EXPECT_TRUE(t.untyped);
  EXPECT_EQ(mie::io::adopt_dtype(&t, MIE_DTYPE_F32, "t.npy"),
            "'t.npy' holds untyped 1-byte elements ('|V1' or '<f1': an ml_dtypes 8-bit or 4-bit type), which can be "
            "read only as one of those types, not as f32");
  ASSERT_EQ(mie::io::adopt_dtype(&t, MIE_DTYPE_I4, "t.npy"), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_I4);
  EXPECT_FALSE(t.untyped);
  EXPECT_EQ(mie::io::element_as_double(t.dtype, t.data.data(), 0), -1.0);
  // A byte with bits above a 2-bit value is not a 2-bit value.
  ASSERT_EQ(mie::io::parse_npy(file.data(), file.size(), "t.npy", &t), "");
  EXPECT_EQ(mie::io::adopt_dtype(&t, MIE_DTYPE_U2, "t.npy"),
            "'t.npy': element 0 (byte 15) is not a 2-bit u2 value (the bits above it must be 0)");
  file = numpy_file("{'descr': '<f1', 'fortran_order': False, 'shape': (1,), }", {0x3C});
  ASSERT_EQ(mie::io::parse_npy(file.data(), file.size(), "t.npy", &t), "");
  ASSERT_EQ(mie::io::adopt_dtype(&t, MIE_DTYPE_F8E5M2, "t.npy"), "");
  EXPECT_EQ(mie::io::element_as_double(t.dtype, t.data.data(), 0), 1.0);
  // Typed tensors are left alone.
  file = numpy_file("{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }", {7});
  ASSERT_EQ(mie::io::parse_npy(file.data(), file.size(), "t.npy", &t), "");
  EXPECT_EQ(mie::io::adopt_dtype(&t, MIE_DTYPE_I4, "t.npy"), "");
  EXPECT_EQ(t.dtype, MIE_DTYPE_U8);
  // Written as '|V1', which reads back untyped.
  const std::string path = tmp_path("f4.npy");
  const uint8_t f4[2] = {0x7, 0xF};
  ASSERT_EQ(mie::io::write_npy(path, MIE_DTYPE_F4E2M1, {2}, f4, 2), "");
  auto written = read_file(path);
  EXPECT_NE(std::string(written.begin(), written.end()).find("'descr': '|V1'"), std::string::npos);
  ASSERT_EQ(mie::io::read_npy(path, &t), "");
  EXPECT_TRUE(t.untyped);
  EXPECT_EQ(t.data, (std::vector<uint8_t>{0x7, 0xF}));
}

// Each narrow float's values, its special encodings included.
TEST(NarrowTypes, FloatValues) {
  const double inf = std::numeric_limits<double>::infinity();
  using mie::io::narrow_float_to_double;
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E4M3FN, 0x7E), 448.0);
  EXPECT_TRUE(std::isnan(narrow_float_to_double(MIE_DTYPE_F8E4M3FN, 0xFF)));
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E4M3FN, 0x01), std::ldexp(1.0, -9));
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E4M3FNUZ, 0x7F), 240.0);
  EXPECT_TRUE(std::isnan(narrow_float_to_double(MIE_DTYPE_F8E4M3FNUZ, 0x80)));
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E5M2, 0x7B), 57344.0);
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E5M2, 0xFC), -inf);
  EXPECT_TRUE(std::isnan(narrow_float_to_double(MIE_DTYPE_F8E5M2, 0x7E)));
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E5M2FNUZ, 0x7F), 57344.0);
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E5M2FNUZ, 0x01), std::ldexp(1.0, -17));
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E8M0, 0), std::ldexp(1.0, -127));
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F8E8M0, 0xFE), std::ldexp(1.0, 127));
  EXPECT_TRUE(std::isnan(narrow_float_to_double(MIE_DTYPE_F8E8M0, 0xFF)));
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F4E2M1, 0x7), 6.0);
  EXPECT_EQ(narrow_float_to_double(MIE_DTYPE_F4E2M1, 0x9), -0.5);
  EXPECT_TRUE(std::signbit(narrow_float_to_double(MIE_DTYPE_F4E2M1, 0x8)));
  EXPECT_EQ(mie::io::onnx_data_type(MIE_DTYPE_F8E8M0), 24);
  EXPECT_EQ(mie::io::onnx_data_type(MIE_DTYPE_I2), 26);
  EXPECT_STREQ(mie::io::dtype_name(MIE_DTYPE_U2), "u2");
  EXPECT_EQ(mie::io::dtype_size(MIE_DTYPE_F4E2M1), 1u);
}

}  // namespace
