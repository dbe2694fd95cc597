// Packages with symbolic dims (format 4): the shape expressions, the writer's and the reader's
// checks, binding a run's input shapes (errors naming input, dim and symbol), picking the
// specialization that matches, the output shapes, and an arena that grows only when a shape needs
// more.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/manifest.h"
#include "core/shape_expr.h"
#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"
#include "test_util.h"

namespace {

using namespace mie::test;
using mie::rt::ShapeExpr;

int64_t eval(const std::string &text, std::vector<int64_t> values) {
  ShapeExpr e;
  std::string error;
  EXPECT_TRUE(ShapeExpr::parse(text, values.size(), &e, &error)) << text << ": " << error;
  int64_t v = -12345;
  EXPECT_TRUE(e.evaluate(values, &v)) << text;
  return v;
}

std::string parse_error(const std::string &text, size_t symbols) {
  ShapeExpr e;
  std::string error;
  EXPECT_FALSE(ShapeExpr::parse(text, symbols, &e, &error)) << text;
  return error;
}

TEST(ShapeExpr, EvaluatesMlirAffineSyntax) {
  EXPECT_EQ(eval("s0", {7}), 7);
  EXPECT_EQ(eval("s0 * s1", {3, 7}), 21);
  EXPECT_EQ(eval("s0 * s1 * 12", {3, 7}), 252);
  EXPECT_EQ(eval("(s1 - 1) floordiv 2 + 1", {0, 7}), 4);
  EXPECT_EQ(eval("s0 ceildiv 64", {65}), 2);
  EXPECT_EQ(eval("s0 mod 8", {13}), 5);
  EXPECT_EQ(eval("-s0 + 10", {3}), 7);
  EXPECT_EQ(eval("(s0 - 9) floordiv 4", {1}), -2); // rounds toward -inf
  EXPECT_EQ(eval("(s0 - 9) ceildiv 4", {1}), -2);
  EXPECT_EQ(eval("(s0 - 9) mod 4", {2}), 1);
  ShapeExpr e;
  std::string error;
  ASSERT_TRUE(ShapeExpr::parse("s1", 2, &e, &error));
  EXPECT_EQ(e.single_symbol(), 1);
  ASSERT_TRUE(ShapeExpr::parse("s1 * 2", 2, &e, &error));
  EXPECT_EQ(e.single_symbol(), -1);
  int64_t v;
  ASSERT_TRUE(ShapeExpr::parse("s0 floordiv s1", 2, &e, &error));
  EXPECT_FALSE(e.evaluate({4, 0}, &v)); // division by zero
  ASSERT_TRUE(ShapeExpr::parse("s0 * s0 * s0", 1, &e, &error));
  EXPECT_FALSE(e.evaluate({int64_t(1) << 30}, &v)); // overflow
}

TEST(ShapeExpr, RejectsMalformedText) {
  EXPECT_EQ(parse_error("s2", 2), "at offset 2: unknown symbol s2 (the package has 2)");
  EXPECT_EQ(parse_error("s0 +", 1), "at offset 4: expression ends early");
  EXPECT_EQ(parse_error("batch", 1), "at offset 0: unexpected 'b'");
  EXPECT_EQ(parse_error("(s0", 1), "at offset 3: expected ')'");
  EXPECT_EQ(parse_error("s0 s0", 1), "at offset 3: unexpected 's'");
  EXPECT_EQ(parse_error("s0 modulo 2", 1), "at offset 3: unexpected 'm'");
  EXPECT_EQ(parse_error(std::string(100, '(') + "s0" + std::string(100, ')'), 1),
            "at offset 64: expression nests deeper than 64");
}

// The model of kernels/symbolic_kernel.c: x f32[rows, 3] -> y f32[rows * 2, 3], rows in 1..8, with
// code for rows = 2 and rows = 5.
mie::PackageWriter symbolic_writer(std::vector<int64_t> dims2 = {2},
                                   std::string out_expr = "s0 * 2") {
  mie::PackageWriter w;
  w.set_model("symbolic");
  w.set_precision("fp32");
  w.add_symbol({"rows", 1, 8});
  w.add_input({"x", "f32", {-1, 3}, {}, {"s0", ""}});
  w.add_output({"y", "f32", {-1, 3}, {}, {std::move(out_expr), ""}});
  mie::PackageTargetSpec a = host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC2));
  a.arena_bytes = 128;
  a.dims = std::move(dims2);
  mie::PackageTargetSpec b = host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC5));
  b.arena_bytes = 320;
  b.dims = {5};
  w.add_target(std::move(a));
  w.add_target(std::move(b));
  return w;
}

TEST(SymbolicDims, WriterEmitsFormat4AndChecks) {
  std::vector<uint8_t> bytes;
  ASSERT_EQ(symbolic_writer().serialize(&bytes), "");
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  EXPECT_EQ(version, 4u);
  EXPECT_EQ(symbolic_writer({9}).serialize(&bytes),
            "target 0 ('" + std::string(host_target_name()) + "'): dims: rows = 9 is outside 1..8");
  EXPECT_EQ(symbolic_writer({5}).serialize(&bytes), "target 1 ('" +
                                                        std::string(host_target_name()) +
                                                        "'): duplicate target for the same dims");
  EXPECT_EQ(symbolic_writer({}).serialize(&bytes),
            "target 0 ('" + std::string(host_target_name()) +
                "'): code for every shape of the symbols (no dims) needs kernel ABI 7");
  EXPECT_EQ(symbolic_writer({2, 3}).serialize(&bytes),
            "target 0 ('" + std::string(host_target_name()) +
                "'): dims must give a value for each of the 1 symbols");
  EXPECT_EQ(symbolic_writer({2}, "rows * 2").serialize(&bytes),
            "output 0 ('y'): dim 0 'rows * 2': at offset 0: unexpected 'r'");
  mie::PackageWriter w = symbolic_writer();
  w.add_input({"z", "f32", {-1}, {}, {"s0 + 1"}});
  EXPECT_EQ(w.serialize(&bytes), "input 1 ('z'): dim 0 's0 + 1' is not one symbol");
  mie::PackageWriter unbound;
  unbound.add_symbol({"rows", 1, 8});
  unbound.add_output({"y", "f32", {-1}, {}, {"s0"}});
  mie::PackageTargetSpec t = host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC2));
  t.dims = {2};
  unbound.add_target(std::move(t));
  EXPECT_EQ(unbound.serialize(&bytes), "symbol 0 ('rows') is no input's dim");
}

// The writer's package with its manifest edited (every section keeps its place).
std::string reader_rejection(const std::string &from, const std::string &to,
                             const mie::PackageWriter &writer = symbolic_writer()) {
  std::vector<uint8_t> bytes;
  EXPECT_EQ(writer.serialize(&bytes), "");
  uint64_t offset = 0, size = 0;
  std::memcpy(&offset, bytes.data() + 16, 8);
  std::memcpy(&size, bytes.data() + 24, 8);
  std::string manifest(reinterpret_cast<const char *>(bytes.data() + offset), size_t(size));
  const size_t at = manifest.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at == std::string::npos)
    return "";
  manifest.replace(at, from.size(), to);
  const uint64_t data = 4096; // the writer's first section
  std::vector<uint8_t> rest(bytes.begin() + int64_t(data), bytes.end());
  const std::string path = tmp_path("edited.mie");
  write_file(path, assemble(manifest, {{data, rest}}));
  mie_package *pkg = nullptr;
  EXPECT_EQ(mie_package_open(path.c_str(), &pkg), MIE_ERR_INVALID_PACKAGE);
  const std::string message = mie_last_error(); // before the next call clears it
  mie_package_close(pkg);
  const std::string prefix = "package '" + path + "': manifest: ";
  return message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size()) : message;
}

TEST(SymbolicDims, ReaderChecksSymbolsShapesAndTargets) {
  EXPECT_EQ(reader_rejection("\"format_version\": 4", "\"format_version\": 3"),
            "symbols: symbolic dims need format_version 4");
  EXPECT_EQ(reader_rejection("\"min\": 1", "\"min\": 9"), "symbols[0]: min 9 is more than max 8");
  EXPECT_EQ(reader_rejection("[\"s0\", 3]", "[\"s1\", 3]"),
            "inputs[0].shape[0]: 's1': at offset 2: unknown symbol s1 (the package has 1)");
  EXPECT_EQ(reader_rejection("[\"s0\", 3]", "[\"s0 + 1\", 3]"),
            "inputs[0].shape[0]: 's0 + 1': an input's symbolic dim must be one symbol");
  EXPECT_EQ(reader_rejection("\"dims\": [5]", "\"dims\": [9]"),
            "targets[1].dims[0]: expected a value of 'rows' in 1..8, got 9");
  EXPECT_EQ(reader_rejection("\"dims\": [5], ", ""),
            "targets[1]: a target without 'dims' is code for every shape of the symbols, which "
            "needs abi_version 7 "
            "or later");
  EXPECT_EQ(reader_rejection("\"dims\": [5]", "\"dims\": [2]"),
            "targets[1].name: duplicate target '" + std::string(host_target_name()) +
                "' for the same dims");
  EXPECT_EQ(reader_rejection("[\"s0 * 2\", 3]", "[\"s0 * 4294967296 * 4294967296\", 3]"),
            "targets[0].dims: output 'y' has no valid shape of at most 1099511627776 bytes there");
  EXPECT_EQ(reader_rejection("[\"s0 * 2\", 3]", "[\"s0 - 3\", 3]"),
            "targets[0].dims: output 'y' has no valid shape of at most 1099511627776 bytes there");
}

struct RowsRun {
  std::vector<float> x, y;
};

mie_status run_rows(mie_session *s, int64_t rows, RowsRun *r) {
  r->x.assign(size_t(rows * 3), 0.0f);
  for (size_t i = 0; i < r->x.size(); ++i)
    r->x[i] = float(i) - 1.5f;
  const int64_t shape[] = {rows, 3};
  const int64_t *dims[] = {shape};
  const uint32_t ranks[] = {2};
  mie_status st = mie_session_set_input_shapes(s, 1, ranks, dims);
  if (st != MIE_OK)
    return st;
  uint32_t rank = 0;
  const int64_t *out = nullptr;
  EXPECT_EQ(mie_session_output_shape(s, 0, &rank, &out), MIE_OK);
  EXPECT_EQ(rank, 2u);
  EXPECT_EQ(out[0], 2 * rows);
  r->y.assign(size_t(2 * rows * 3), -1.0f);
  const void *in[] = {r->x.data()};
  void *outs[] = {r->y.data()};
  const uint64_t in_bytes[] = {r->x.size() * 4}, out_bytes[] = {r->y.size() * 4};
  return mie_session_run_sized(s, 1, in, in_bytes, 1, outs, out_bytes);
}

// `extra`: 0.25 where the code for every shape ran (kernels/symbolic_kernel.c), 0 for a
// specialization.
void check(const RowsRun &r, int64_t rows, float extra = 0.0f) {
  for (int64_t i = 0; i < rows; ++i)
    for (int c = 0; c < 3; ++c) {
      const float x = r.x[size_t(i * 3 + c)];
      EXPECT_EQ(r.y[size_t(2 * i * 3 + c)], 2 * x);
      EXPECT_EQ(r.y[size_t((2 * i + 1) * 3 + c)], x + float(rows) + extra)
          << "the code of another specialization ran";
    }
}

TEST(SymbolicDims, BindsShapesAndRunsTheMatchingSpecialization) {
  const std::string path = tmp_path("symbolic.mie");
  ASSERT_EQ(symbolic_writer().write(path), "");
  OpenedSession o(path);
  ASSERT_NE(o.session, nullptr);

  uint32_t n = 0;
  ASSERT_EQ(mie_package_num_symbols(o.pkg, &n), MIE_OK);
  ASSERT_EQ(n, 1u);
  const char *name = nullptr;
  int64_t lo = 0, hi = 0;
  ASSERT_EQ(mie_package_symbol_info(o.pkg, 0, &name, &lo, &hi), MIE_OK);
  EXPECT_STREQ(name, "rows");
  EXPECT_EQ(lo, 1);
  EXPECT_EQ(hi, 8);
  mie_tensor_info info;
  ASSERT_EQ(mie_package_input_info(o.pkg, 0, &info), MIE_OK);
  EXPECT_EQ(info.dims[0], -1);
  EXPECT_EQ(info.byte_size, 0u);
  const char *expr = nullptr;
  ASSERT_EQ(mie_package_output_symbolic_dim(o.pkg, 0, 0, &expr), MIE_OK);
  EXPECT_STREQ(expr, "s0 * 2");
  ASSERT_EQ(mie_package_output_symbolic_dim(o.pkg, 0, 1, &expr), MIE_OK);
  EXPECT_STREQ(expr, "");
  uint32_t count = 0;
  const int64_t *dims = nullptr;
  ASSERT_EQ(mie_package_target_dims(o.pkg, 1, &count, &dims), MIE_OK);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(dims[0], 5);

  // A run before the shapes are bound says what is missing.
  float x[6] = {}, y[12] = {};
  const void *in[] = {x};
  void *out[] = {y};
  EXPECT_EQ(mie_session_run(o.session, in, out), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error())
                .find("the model has symbolic dims (rows): give the input shapes"),
            std::string::npos)
      << mie_last_error();

  // Shapes in any order, several times each: the arena grows for 5 and is reused for 2.
  for (int64_t rows : {2, 5, 2, 5}) {
    RowsRun r;
    ASSERT_EQ(run_rows(o.session, rows, &r), MIE_OK) << mie_last_error();
    check(r, rows);
  }

  RowsRun r;
  EXPECT_EQ(run_rows(o.session, 3, &r), MIE_ERR_UNSUPPORTED);
  EXPECT_NE(std::string(mie_last_error())
                .find("has no code for rows=3: the package was compiled for {rows=2}, "
                      "{rows=5} (mie-compile --specialize)"),
            std::string::npos)
      << mie_last_error();
  EXPECT_EQ(run_rows(o.session, 9, &r), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error())
                .find("input 'x' dim 0 (symbol 'rows'): 9 is outside the package's range 1..8"),
            std::string::npos)
      << mie_last_error();
  const int64_t wide[] = {2, 4};
  const int64_t *wide_dims[] = {wide};
  const uint32_t rank2[] = {2}, rank1[] = {1};
  EXPECT_EQ(mie_session_set_input_shapes(o.session, 1, rank2, wide_dims), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error()).find("input 'x' dim 1: 4, the model takes 3 [rows, 3]"),
            std::string::npos)
      << mie_last_error();
  EXPECT_EQ(mie_session_set_input_shapes(o.session, 1, rank1, wide_dims), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(
      std::string(mie_last_error()).find("input 'x': rank 1, the model takes rank 2 [rows, 3]"),
      std::string::npos)
      << mie_last_error();
  // The failed binds kept the last good one (rows = 5), and the session still runs.
  uint32_t rank = 0;
  const int64_t *shape = nullptr;
  ASSERT_EQ(mie_session_input_shape(o.session, 0, &rank, &shape), MIE_OK);
  ASSERT_EQ(rank, 2u);
  EXPECT_EQ(shape[0], 5);
  ASSERT_EQ(run_rows(o.session, 2, &r), MIE_OK) << mie_last_error();
  check(r, 2);
  // Buffers sized for another shape are refused before any code runs.
  const void *in2[] = {r.x.data()};
  void *out2[] = {r.y.data()};
  const uint64_t in_bytes[] = {r.x.size() * 4}, out_bytes[] = {r.y.size() * 4 + 4};
  EXPECT_EQ(mie_session_run_sized(o.session, 1, in2, in_bytes, 1, out2, out_bytes),
            MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error())
                .find("output 'y': buffer is 52 bytes, the model's f32 tensor of shape [4, 3] "
                      "needs 48"),
            std::string::npos)
      << mie_last_error();
}

TEST(SymbolicDims, TwoInputsMustAgreeOnASymbol) {
  mie::PackageWriter w;
  w.set_model("two");
  w.add_symbol({"rows", 1, 8});
  w.add_input({"x", "f32", {-1, 3}, {}, {"s0", ""}});
  w.add_input({"m", "f32", {-1}, {}, {"s0"}});
  w.add_output({"y", "f32", {-1, 3}, {}, {"s0 * 2", ""}});
  // The ABI table lists one input: this package is refused at session creation; binding is checked
  // on the manifest alone, so test it through a package with a matching code object below.
  std::vector<uint8_t> bytes;
  mie::PackageTargetSpec t = host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC2));
  t.dims = {2};
  t.arena_bytes = 128;
  w.add_target(std::move(t));
  const std::string path = tmp_path("two.mie");
  ASSERT_EQ(w.write(path), "");
  mie_package *pkg = nullptr;
  ASSERT_EQ(mie_package_open(path.c_str(), &pkg), MIE_OK) << mie_last_error();
  mie_session *session = nullptr;
  EXPECT_EQ(mie_session_create(pkg, nullptr, &session), MIE_ERR_INVALID_PACKAGE);
  EXPECT_NE(std::string(mie_last_error()).find("manifest disagrees with the code object: inputs"),
            std::string::npos)
      << mie_last_error();
  mie_package_close(pkg);
}

TEST(SymbolicDims, CodeForEveryShapeRunsWhereNoSpecializationMatches) {
  // rows in 1..8: a specialization for 2 and 5 and code for every shape (no dims, ABI 7).
  mie::PackageWriter w = symbolic_writer();
  mie::PackageTargetSpec any = host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC_ANY));
  any.abi_version = MIE_KERNEL_ABI_SYMBOLS_VERSION;
  w.add_target(std::move(any));
  const std::string path = tmp_path("any.mie");
  ASSERT_EQ(w.write(path), "");
  OpenedSession o(path);
  ASSERT_NE(o.session, nullptr);
  uint32_t count = 7;
  const int64_t *dims = nullptr;
  ASSERT_EQ(mie_package_target_dims(o.pkg, 2, &count, &dims), MIE_OK);
  EXPECT_EQ(count, 0u);
  // 2 and 5 run their specializations; 1, 3, 8 and 7 the code for every shape, whose arena grows
  // from 192 to 512 bytes and is reused for 7.
  // The run's arena: the code for every shape's mie_arena_bytes (64 per row), a specialization's
  // own.
  for (int64_t rows : {3, 2, 1, 8, 5, 7}) {
    RowsRun r;
    ASSERT_EQ(run_rows(o.session, rows, &r), MIE_OK) << mie_last_error();
    check(r, rows, rows == 2 || rows == 5 ? 0.0f : 0.25f);
    uint64_t arena = 0;
    ASSERT_EQ(mie_session_arena_bytes(o.session, &arena), MIE_OK);
    EXPECT_EQ(arena, rows == 2 ? 128u : rows == 5 ? 320u : uint64_t(64 * rows)) << rows;
  }
  RowsRun r;
  EXPECT_EQ(run_rows(o.session, 9, &r), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error()).find("9 is outside the package's range 1..8"),
            std::string::npos)
      << mie_last_error();
  ASSERT_EQ(run_rows(o.session, 6, &r), MIE_OK) << mie_last_error();
  check(r, 6, 0.25f);
}

TEST(SymbolicDims, CodeForEveryShapeNeedsAbi7AndItsArenaFunction) {
  std::vector<uint8_t> bytes;
  mie::PackageWriter w = symbolic_writer();
  w.add_target(host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC_ANY)));
  EXPECT_EQ(w.serialize(&bytes),
            "target 2 ('" + std::string(host_target_name()) +
                "'): code for every shape of the symbols (no dims) needs kernel ABI 7");
  // A specialization's code declared as code for every shape: its ABI table states its own arena.
  mie::PackageWriter wrong = symbolic_writer({2});
  mie::PackageTargetSpec fake = host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC5));
  fake.abi_version = MIE_KERNEL_ABI_SYMBOLS_VERSION;
  wrong.add_target(std::move(fake));
  const std::string path = tmp_path("fake.mie");
  ASSERT_EQ(wrong.write(path), "");
  mie_package *pkg = nullptr;
  ASSERT_EQ(mie_package_open(path.c_str(), &pkg), MIE_OK) << mie_last_error();
  mie_session *session = nullptr;
  EXPECT_EQ(mie_session_create(pkg, nullptr, &session), MIE_ERR_INVALID_PACKAGE);
  EXPECT_NE(std::string(mie_last_error())
                .find("arena_bytes: the code was compiled for 320, the manifest says -1 "
                      "(code for every shape)"),
            std::string::npos)
      << mie_last_error();
  mie_package_close(pkg);
}

// Batch slices: a batch symbol's tensors hold it in dim 0 only, as a multiple of it; a run of the
// code for every shape over a larger batch runs it over slices, each bound to its own size.
mie::PackageWriter batch_writer(std::string out_expr = "s0 * 2") {
  mie::PackageSymbolSpec rows{"rows", 1, 8};
  rows.batch = true;
  mie::PackageWriter b;
  b.set_model("batch");
  b.set_precision("fp32");
  b.add_symbol(rows);
  b.add_input({"x", "f32", {-1, 3}, {}, {"s0", ""}});
  b.add_output({"y", "f32", {-1, 3}, {}, {std::move(out_expr), ""}});
  mie::PackageTargetSpec any = host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC_ANY));
  any.abi_version = MIE_KERNEL_ABI_SYMBOLS_VERSION;
  b.add_target(std::move(any));
  return b;
}

TEST(BatchSlices, ShapeExprMultiples) {
  auto multiple = [](const std::string &text, size_t symbol) {
    ShapeExpr e;
    std::string error;
    EXPECT_TRUE(ShapeExpr::parse(text, 2, &e, &error)) << error;
    return e.is_multiple_of(symbol);
  };
  EXPECT_TRUE(multiple("s0", 0));
  EXPECT_TRUE(multiple("s0 * s1", 0));
  EXPECT_TRUE(multiple("s1 * s0 * 12", 0));
  EXPECT_FALSE(multiple("s1", 0));
  EXPECT_FALSE(multiple("s0 + 1", 0));
  EXPECT_FALSE(multiple("s0 * s0", 0));
  EXPECT_FALSE(multiple("(s0 * 2) floordiv 3", 0));
}

TEST(BatchSlices, WriterAndReaderCheckTheBatchsDims) {
  std::vector<uint8_t> bytes;
  EXPECT_EQ(batch_writer().serialize(&bytes), "");
  EXPECT_EQ(batch_writer("s0 + 2").serialize(&bytes),
            "symbol 0 ('rows'): output 'y' dim 0 is 's0 + 2', not the batch's dim 0 times a "
            "factor free of it");
  EXPECT_EQ(reader_rejection("[\"s0 * 2\", 3]", "[\"s0 * 2 + 2\", 3]", batch_writer()),
            "symbols[0].batch: output 'y' dim 0 is 's0 * 2 + 2', not the batch's dim 0 times a "
            "factor free of it");
  EXPECT_EQ(reader_rejection("[\"s0 * 2\", 3]", "[2, 3]", batch_writer()),
            "symbols[0].batch: output 'y' does not hold the batch");
  EXPECT_EQ(reader_rejection("\"batch\": true", "\"batch\": 1", batch_writer()),
            "symbols[0].batch: expected a boolean, got 1");
}

TEST(BatchSlices, RunsTheCodeForEveryShapeOverSlices) {
  const std::string path = tmp_path("batch.mie");
  ASSERT_EQ(batch_writer().write(path), "");
  OpenedSession o(path);
  ASSERT_NE(o.session, nullptr) << mie_last_error();
  int64_t slice = -1;
  uint64_t arena = 0;
  // The test kernel writes x + rows + 0.25 into y's odd rows: each slice sees its own size.
  RowsRun r;
  auto check_slices = [&] {
    for (int64_t i = 0; i < 8; ++i)
      for (int c = 0; c < 3; ++c) {
        const float x = r.x[size_t(i * 3 + c)];
        EXPECT_EQ(r.y[size_t(2 * i * 3 + c)], 2 * x);
        EXPECT_EQ(r.y[size_t((2 * i + 1) * 3 + c)], x + (i < 6 ? 3.0f : 2.0f) + 0.25f) << i;
      }
  };
  // One thread: the slices one after another in one slice's arena.
  ASSERT_EQ(mie_session_set_threads(o.session, 1), MIE_OK) << mie_last_error();
  ASSERT_EQ(mie_session_set_batch_slice(o.session, 3), MIE_OK) << mie_last_error();
  ASSERT_EQ(run_rows(o.session, 8, &r), MIE_OK) << mie_last_error();
  ASSERT_EQ(mie_session_batch_slice(o.session, &slice), MIE_OK);
  EXPECT_EQ(slice, 3);
  ASSERT_EQ(mie_session_arena_bytes(o.session, &arena), MIE_OK);
  EXPECT_EQ(arena, 64u * 3) << "a slice's arena";
  check_slices();
  // Three threads: the three slices at once, each in its own page-aligned arena.
  ASSERT_EQ(mie_session_set_threads(o.session, 3), MIE_OK) << mie_last_error();
  ASSERT_EQ(mie_session_arena_bytes(o.session, &arena), MIE_OK);
  EXPECT_EQ(arena, 3u * 4096);
  ASSERT_EQ(run_rows(o.session, 8, &r), MIE_OK) << mie_last_error();
  check_slices();
  // Off: the whole batch in one run; a batch within the slice runs whole too.
  ASSERT_EQ(mie_session_set_batch_slice(o.session, 0), MIE_OK);
  ASSERT_EQ(mie_session_batch_slice(o.session, &slice), MIE_OK);
  EXPECT_EQ(slice, 0);
  ASSERT_EQ(run_rows(o.session, 8, &r), MIE_OK) << mie_last_error();
  check(r, 8, 0.25f);
  ASSERT_EQ(mie_session_set_batch_slice(o.session, 8), MIE_OK);
  ASSERT_EQ(run_rows(o.session, 8, &r), MIE_OK) << mie_last_error();
  check(r, 8, 0.25f);
  // Auto: 512 bytes of arena fit any cache; the run takes the batch whole.
  ASSERT_EQ(mie_session_set_batch_slice(o.session, -1), MIE_OK);
  ASSERT_EQ(mie_session_batch_slice(o.session, &slice), MIE_OK);
  EXPECT_EQ(slice, 0);
  EXPECT_EQ(mie_session_set_batch_slice(o.session, -2), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(mie_last_error()).find("batch slice -2"), std::string::npos)
      << mie_last_error();
}

} // namespace

namespace {

std::vector<int64_t> reshaped(std::vector<int64_t> requested, std::vector<int64_t> dims,
                              bool allowzero = false) {
  std::vector<int64_t> out;
  std::string why;
  EXPECT_TRUE(mie::rt::resolve_reshape(requested, dims, allowzero, &out, &why)) << why;
  return out;
}

std::string reshape_error(std::vector<int64_t> requested, std::vector<int64_t> dims) {
  std::vector<int64_t> out;
  std::string why;
  EXPECT_FALSE(mie::rt::resolve_reshape(requested, dims, false, &out, &why));
  return why;
}

// A package whose symbol is a value symbol: element 1 of input "shape" (i64 [2]).
mie::PackageWriter value_symbol_writer(mie::PackageSymbolSpec symbol) {
  mie::PackageWriter w;
  w.set_model("values");
  w.set_precision("fp32");
  w.add_symbol(std::move(symbol));
  w.add_input({"x", "f16", {6}, {}, {}});
  w.add_input({"shape", "i64", {2}, {}, {}});
  w.add_output({"y", "f32", {2, -1}, {}, {"", "s0"}});
  mie::PackageTargetSpec t = host_target(read_file(MIE_TEST_KERNEL_SYMBOLIC2));
  t.dims = {3};
  w.add_target(std::move(t));
  return w;
}

} // namespace

TEST(ValueSymbols, ResolveReshapeAsOnnx) {
  EXPECT_EQ(reshaped({6, 4}, {2, 3, 4}), (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(reshaped({-1, 4}, {2, 3, 4}), (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(reshaped({0, -1}, {2, 3, 4}), (std::vector<int64_t>{2, 12}));
  EXPECT_EQ(reshaped({2, 0, 1, -1}, {2, 3, 4}), (std::vector<int64_t>{2, 3, 1, 4}));
  EXPECT_EQ(reshaped({0, 3}, {0, 3}, true), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(reshape_error({5, -1}, {2, 3, 4}),
            "[5, -1] does not reshape [2, 3, 4]: no size for the -1 keeps 24 elements");
  EXPECT_EQ(reshape_error({-1, -1}, {2, 3, 4}),
            "[-1, -1] does not reshape [2, 3, 4]: more than one -1");
  EXPECT_EQ(reshape_error({4, 4}, {2, 3, 4}),
            "[4, 4] does not reshape [2, 3, 4]: the element counts differ");
  EXPECT_EQ(reshape_error({2, -3}, {2, 3}), "[2, -3] does not reshape [2, 3]: entry 1 is below -1");
  EXPECT_EQ(reshape_error({0, 0, 0, 0}, {2, 3, 4}),
            "[0, 0, 0, 0] does not reshape [2, 3, 4]: entry 3 copies a dim it does not have");
}

TEST(ValueSymbols, WriterAndReaderKeepWhereTheValueComesFrom) {
  mie::PackageSymbolSpec symbol{"shape[1]", 3, 3, 1, 1, {"6"}, false};
  const std::string path = tmp_path("values.mie");
  ASSERT_EQ(value_symbol_writer(symbol).write(path), "");
  mie_package *pkg = nullptr;
  ASSERT_EQ(mie_package_open(path.c_str(), &pkg), MIE_OK) << mie_last_error();
  int32_t input = -2;
  uint64_t element = 9;
  ASSERT_EQ(mie_package_symbol_value_of(pkg, 0, &input, &element), MIE_OK);
  EXPECT_EQ(input, 1);
  EXPECT_EQ(element, 1u);
  EXPECT_EQ(mie_package_symbol_value_of(pkg, 1, &input, &element), MIE_ERR_INVALID_ARGUMENT);
  mie_package_close(pkg);

  // The writer's refusal of `symbol` changed by `change`.
  auto refusal = [&](auto change) {
    mie::PackageSymbolSpec bad = symbol;
    change(bad);
    std::vector<uint8_t> bytes;
    return value_symbol_writer(bad).serialize(&bytes);
  };
  using Spec = mie::PackageSymbolSpec;
  EXPECT_EQ(refusal([](Spec &b) { b.value_input = 0; }), // an f16 input
            "symbol 0 ('shape[1]'): input 'x' has no element 1 of a static shape and an integer, "
            "f32 or f64 type");
  EXPECT_EQ(refusal([](Spec &b) { b.value_element = 2; }),
            "symbol 0 ('shape[1]'): input 'shape' has no element 2 of a static shape and an "
            "integer, f32 or f64 type");
  EXPECT_EQ(refusal([](Spec &b) { b.value_input = 5; }),
            "symbol 0 ('shape[1]'): value of input 5, which does not exist");
  EXPECT_EQ(refusal([](Spec &b) { b.reshape_of = {"s1"}; }),
            "symbol 0 ('shape[1]'): reshape_of 's1': at offset 2: unknown symbol s1 (the package "
            "has 1)");
}

TEST(ValueSymbols, ReaderChecksTheValuesInput) {
  EXPECT_EQ(
      reader_rejection("\"max\": 8}", "\"max\": 8, \"value_of\": {\"input\": 0, \"element\": 0}}"),
      "symbols[0].value_of: input 'x' has no element 0 of a static shape and an integer, f32 or "
      "f64 "
      "type");
  EXPECT_EQ(reader_rejection("\"max\": 8}", "\"max\": 8, \"value_of\": {\"input\": 3, \"element\": 0}}"),
            "symbols[0].value_of: input 3 does not exist (the model has 1)");
  EXPECT_EQ(reader_rejection("\"max\": 8}", "\"max\": 8, \"value_of\": {\"input\": 0}}"),
            "symbols[0].value_of: missing field 'element'");
}
