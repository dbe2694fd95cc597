// The trust checks between the manifest and the code object: the ABI table every kernel ABI 3 code object
// exports (a manifest edited and re-hashed so that it disagrees with the code is refused before anything
// is allocated or run), and mie_session_run_sized's checks of the caller's counts and buffer sizes.
#include <gtest/gtest.h>

#include <functional>

#include "core/abi_table.h"
#include "mie/mie_kernel_abi.h"
#include "mie/mie_rt.h"
#include "mie/mie_rt.hpp"
#include "test_util.h"

using namespace mie::test;

namespace {

// The test model (kernels/test_kernel.c) with what `edit` changes in its manifest, as a writer would
// produce it: every hash is right, only the facts differ from the code's.
struct Spec {
  std::vector<mie::PackageTensorSpec> inputs = {{"x", "f32", {kRows, kCols}}, {"k", "i32", {1}}};
  std::vector<mie::PackageTensorSpec> outputs = {{"y", "f32", {kRows, kCols}}, {"rowsum", "f32", {kRows}}};
  std::vector<float> weights = test_weights();
  mie::PackageTargetSpec target = host_target(kernel_bytes());
};

std::string write_spec(const Spec &spec) {
  mie::PackageWriter w;
  w.set_model("m");
  w.set_precision("fp32");
  for (const auto &t : spec.inputs) w.add_input(t);
  for (const auto &t : spec.outputs) w.add_output(t);
  w.set_weights(spec.weights.data(), spec.weights.size() * sizeof(float));
  w.add_target(spec.target);
  const std::string path = tmp_path("model.mie");
  EXPECT_EQ(w.write(path), "");
  return path;
}

// Session creation on `spec`: status and the message after "package '<path>': target '<host>': ".
std::pair<mie_status, std::string> create(const Spec &spec) {
  const std::string path = write_spec(spec);
  mie::Package pkg;
  EXPECT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  const mie_status st = s.create(pkg, 1);
  if (st == MIE_OK) return {st, ""};
  const std::string msg = mie::last_error();
  const std::string pre = "package '" + path + "': target '" + host_target_name() + "': ";
  EXPECT_EQ(msg.compare(0, pre.size(), pre), 0) << msg;
  return {st, msg.substr(std::min(pre.size(), msg.size()))};
}

std::string refused(const std::function<void(Spec &)> &edit) {
  Spec spec;
  edit(spec);
  auto r = create(spec);
  EXPECT_EQ(r.first, MIE_ERR_INVALID_PACKAGE) << r.second;
  const std::string pre = "manifest disagrees with the code object: ";
  EXPECT_EQ(r.second.compare(0, pre.size(), pre), 0) << r.second;
  return r.second.substr(std::min(pre.size(), r.second.size()));
}

TEST(AbiTable, ManifestMatchingTheCodeRuns) { EXPECT_EQ(create(Spec()).first, MIE_OK) << create(Spec()).second; }

// One tampered manifest per fact of the table; each would otherwise make the code read or write outside a
// buffer (arena and tensors sized by the manifest, weights shorter than the code reads).
TEST(AbiTable, EveryFactIsChecked) {
  EXPECT_EQ(refused([](Spec &s) { s.target.arena_bytes = 256; }),
            "arena_bytes: the code was compiled for 512, the manifest says 256");
  EXPECT_EQ(refused([](Spec &s) { s.target.arena_bytes = uint64_t(1) << 40; }),
            "arena_bytes: the code was compiled for 512, the manifest says 1099511627776");
  EXPECT_EQ(refused([](Spec &s) { s.weights.resize(16); }),
            "weights size: the code was compiled for 256 bytes, the manifest says 64 bytes");
  EXPECT_EQ(refused([](Spec &s) { s.inputs[0].shape = {kRows, 1}; }),
            "input 0 'x': the code was compiled for f32 [2, 64], the manifest says f32 [2, 1]");
  EXPECT_EQ(refused([](Spec &s) { s.inputs[1].dtype = "i64"; }),
            "input 1 'k': the code was compiled for i32 [1], the manifest says i64 [1]");
  EXPECT_EQ(refused([](Spec &s) { s.inputs[1].shape = {}; }),
            "input 1 'k': the code was compiled for i32 [1], the manifest says i32 []");
  EXPECT_EQ(refused([](Spec &s) { s.outputs[1].shape = {1000000}; }),
            "output 1 'rowsum': the code was compiled for f32 [2], the manifest says f32 [1000000]");
  EXPECT_EQ(refused([](Spec &s) { s.outputs[0].dtype = "f16"; }),
            "output 0 'y': the code was compiled for f32 [2, 64], the manifest says f16 [2, 64]");
  EXPECT_EQ(refused([](Spec &s) { s.inputs.push_back({"extra", "f32", {1}}); }),
            "inputs: the code was compiled for 2, the manifest says 3");
  EXPECT_EQ(refused([](Spec &s) { s.outputs.pop_back(); }), "outputs: the code was compiled for 2, the manifest says 1");
}

// Per-target weights are what that target's code reads, so they are what its table is checked against.
TEST(AbiTable, OwnWeightsAreChecked) {
  std::vector<float> own(8, 1.0f);
  EXPECT_EQ(refused([&](Spec &s) {
              s.target.own_weights = true;
              s.target.weights = reinterpret_cast<const uint8_t *>(own.data());
              s.target.weights_size = own.size() * sizeof(float);
            }),
            "weights size: the code was compiled for 256 bytes, the manifest says 32 bytes");
}

TEST(AbiTable, Abi3CodeMustExportIt) {
  Spec spec;
  spec.target.code = notable_kernel_bytes();
  spec.target.abi_version = 3;
  auto r = create(spec);
  EXPECT_EQ(r.first, MIE_ERR_INVALID_PACKAGE);
  EXPECT_EQ(r.second, "the code object exports no ABI table 'mie_abi' (kernel ABI 3 code must)");
}

// Code from before ABI 3 has no table and runs on the manifest's word, as before; a table the code does
// export is checked even when the manifest claims an older ABI.
TEST(AbiTable, OlderCodeRunsAndAClaimedOlderAbiIsStillChecked) {
  Spec old;
  old.target.code = notable_kernel_bytes();
  old.target.abi_version = 2;
  EXPECT_EQ(create(old).first, MIE_OK) << create(old).second;
  EXPECT_EQ(refused([](Spec &s) {
              s.target.abi_version = 2;
              s.outputs[0].shape = {1, 1};
            }),
            "output 0 'y': the code was compiled for f32 [2, 64], the manifest says f32 [1, 1]");
}

// Malformed tables (a code object from a broken compiler): refused without reading past the symbol.
TEST(AbiTable, MalformedTables) {
  mie::rt::Manifest m;
  m.inputs.resize(1);
  m.inputs[0].name = "x";
  m.inputs[0].dtype = MIE_DTYPE_F32;
  m.inputs[0].dims = {3};
  m.outputs = m.inputs;
  m.outputs[0].name = "y";
  mie::rt::TargetDesc t;
  t.arena_bytes = 64;
  const std::vector<int64_t> good = {MIE_ABI_TABLE_MAGIC, 12, 64, 0, 1, 1, 1, 1, 3, 1, 1, 3};
  std::string error;
  EXPECT_TRUE(mie::rt::check_abi_table(good.data(), good.size(), m, t, 0, &error)) << error;
  // Empty tensors agree whatever their shapes: the code never touches their buffers.
  m.outputs[0].dims = {3, 0, 5};
  m.outputs[0].num_elements = 0;
  const std::vector<int64_t> empty_out = {MIE_ABI_TABLE_MAGIC, 12, 64, 0, 1, 1, 1, 1, 3, 1, 1, 0};
  EXPECT_TRUE(mie::rt::check_abi_table(empty_out.data(), empty_out.size(), m, t, 0, &error)) << error;
  m.outputs[0].dims = {3};
  m.outputs[0].num_elements = 3;
  EXPECT_FALSE(mie::rt::check_abi_table(empty_out.data(), empty_out.size(), m, t, 0, &error));
  EXPECT_EQ(error, "manifest disagrees with the code object: output 0 'y': the code was compiled for f32 [0], the "
                   "manifest says f32 [3]");
  auto check = [&](std::vector<int64_t> words, size_t count) {
    std::string e;
    EXPECT_FALSE(mie::rt::check_abi_table(words.data(), count, m, t, 0, &e));
    return e;
  };
  auto bad_magic = good;
  bad_magic[0] = 0;
  EXPECT_EQ(check(bad_magic, good.size()), "the code's ABI table 'mie_abi' is not one this runtime reads");
  EXPECT_EQ(check(good, 5), "the code's ABI table 'mie_abi' is not one this runtime reads");
  EXPECT_EQ(check(good, 11), "the code's ABI table declares 12 words but its symbol holds 11");
  auto short_len = good;
  short_len[1] = 10;  // the output's entry runs past the declared end
  EXPECT_EQ(check(short_len, good.size()), "the code's ABI table ends inside the entry of output 0 'y'");
  auto huge_rank = good;
  huge_rank[7] = INT64_MAX;
  EXPECT_EQ(check(huge_rank, good.size()), "the code's ABI table ends inside the entry of input 0 'x'");
  // A dtype number outside mie_dtype is named as a number (found by fuzz_abi_table: the conversion to the
  // enum was undefined behaviour).
  auto odd_dtype = good;
  odd_dtype[6] = 16515073;
  EXPECT_EQ(check(odd_dtype, good.size()),
            "manifest disagrees with the code object: input 0 'x': the code was compiled for dtype 16515073 [3], "
            "the manifest says f32 [3]");
  auto trailing = good;
  trailing.push_back(0);
  trailing[1] = 13;
  EXPECT_EQ(check(trailing, trailing.size()), "the code's ABI table has 1 words after its last tensor");
}

struct Buffers {
  std::vector<float> x = std::vector<float>(kRows * kCols, 1.0f), y = std::vector<float>(kRows * kCols);
  std::vector<float> rowsum = std::vector<float>(kRows);
  int32_t k = 2;
  const void *in[2] = {x.data(), &k};
  void *out[2] = {y.data(), rowsum.data()};
  uint64_t in_bytes[2] = {kRows * kCols * 4, 4};
  uint64_t out_bytes[2] = {kRows * kCols * 4, kRows * 4};
};

TEST(SizedRun, ChecksCountsAndBufferSizes) {
  const std::string path = write_spec(Spec());
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  mie::Session s;
  ASSERT_EQ(s.create(pkg, 1), MIE_OK) << mie_last_error();
  const std::string pre = "package '" + path + "': ";
  Buffers b;
  ASSERT_EQ(s.run(2, b.in, b.in_bytes, 2, b.out, b.out_bytes), MIE_OK) << mie_last_error();
  std::vector<float> ry, rr;
  reference(b.x, b.k, &ry, &rr);
  EXPECT_NEAR(b.rowsum[1], rr[1], 1e-3f);

  EXPECT_EQ(s.run(1, b.in, b.in_bytes, 2, b.out, b.out_bytes), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "the model has 2 input(s) and 2 output(s), the call passes 1 and 2");
  EXPECT_EQ(s.run(2, b.in, b.in_bytes, 3, b.out, b.out_bytes), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "the model has 2 input(s) and 2 output(s), the call passes 2 and 3");
  EXPECT_EQ(s.run(2, b.in, nullptr, 2, b.out, b.out_bytes), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "input sizes array is NULL");
  EXPECT_EQ(s.run(2, b.in, b.in_bytes, 2, b.out, nullptr), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(), pre + "output sizes array is NULL");
  b.in_bytes[0] = 4;  // a buffer for one element where the model reads 128
  EXPECT_EQ(s.run(2, b.in, b.in_bytes, 2, b.out, b.out_bytes), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(),
            pre +
                "input 'x': buffer is 4 bytes, the model's f32 tensor of shape [2, 64] needs 512");
  b.in_bytes[0] = kRows * kCols * 4;
  b.out_bytes[1] = 4;
  b.rowsum.assign(kRows, -7.0f);
  EXPECT_EQ(s.run(2, b.in, b.in_bytes, 2, b.out, b.out_bytes), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie::last_error(),
            pre +
                "output 'rowsum': buffer is 4 bytes, the model's f32 tensor of shape [2] needs 8");
  EXPECT_EQ(b.rowsum[0], -7.0f) << "nothing may run after a refused call";
  b.out_bytes[1] = 1 << 20;  // larger is refused too: the buffer belongs to some other shape
  EXPECT_EQ(s.run(2, b.in, b.in_bytes, 2, b.out, b.out_bytes), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(mie_session_run_sized(nullptr, 2, b.in, b.in_bytes, 2, b.out, b.out_bytes), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(mie_last_error(), "mie_session_run_sized: session is NULL");
}

}  // namespace
