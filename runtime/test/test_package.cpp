// Package writer -> reader round trips, and every validation rejection with its exact message.
#include <dirent.h>
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/format.h"
#include "core/huge_pages.h"
#include "core/package.h"
#include "core/sha256.h"
#include "mie/mie_package_writer.h"
#include "mie/mie_rt.h"
#include "mie/mie_rt.hpp"
#include "test_util.h"

using namespace mie::test;

namespace {

// Opens `bytes` as a package file and returns the status and mie_last_error() text, with the
// "package '<path>': " prefix checked and stripped.
struct OpenResult {
  mie_status status;
  std::string message;
};

OpenResult open_bytes(const std::vector<uint8_t> &bytes) {
  const std::string path = tmp_path("pkg.mie");
  write_file(path, bytes);
  mie_package *pkg = nullptr;
  OpenResult r{mie_package_open(path.c_str(), &pkg), mie_last_error()};
  mie_package_close(pkg);
  const std::string prefix = "package '" + path + "': ";
  if (r.status != MIE_OK) {
    EXPECT_EQ(pkg, nullptr);
    EXPECT_EQ(r.message.compare(0, prefix.size(), prefix), 0) << r.message;
    if (r.message.compare(0, prefix.size(), prefix) == 0) r.message = r.message.substr(prefix.size());
  }
  return r;
}

std::string rejection(const std::vector<uint8_t> &bytes) {
  OpenResult r = open_bytes(bytes);
  EXPECT_EQ(r.status, MIE_ERR_INVALID_PACKAGE) << r.message;
  return r.message;
}

std::string manifest_rejection(const std::string &manifest) {
  RawPackage p = raw_package();
  p.manifest = manifest;
  return rejection(p.bytes());
}

TEST(PackageWriter, RoundTrip) {
  const auto weights = test_weights();
  const auto code = kernel_bytes();
  mie::PackageWriter w = test_model_writer(weights, code);
  w.set_compiler("mie-compile 0.1.0 (test)");
  mie::PackageTargetSpec other = host_target(code);
  other.name = other_target_name();
  other.arch = other_arch();
  other.features = "+neon";
  other.arena_bytes = 4096;
  w.add_target(other);
  mie::PackageTargetSpec gpu;
  gpu.name = "cuda-sm_90";
  gpu.kind = "cuda";
  gpu.arch = "sm_90";
  gpu.host_arch = host_arch();
  gpu.format = "cuda-bundle";
  gpu.code = {1, 2, 3};
  w.add_target(gpu);

  const std::string path = tmp_path("roundtrip.mie");
  ASSERT_EQ(w.write(path), "");
  std::vector<uint8_t> mem;
  ASSERT_EQ(w.serialize(&mem), "");
  EXPECT_EQ(read_file(path), mem);

  // No temporary is left next to the package.
  DIR *dir = opendir(MIE_TEST_TMP);
  ASSERT_NE(dir, nullptr);
  const std::string base = path.substr(path.rfind('/') + 1);
  while (dirent *e = readdir(dir)) EXPECT_EQ(std::string(e->d_name).find(base + ".tmp-"), std::string::npos);
  closedir(dir);

  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  EXPECT_EQ(pkg.model_name(), "test-model");
  const char *s = nullptr;
  ASSERT_EQ(mie_package_precision(pkg.get(), &s), MIE_OK);
  EXPECT_STREQ(s, "fp32");
  ASSERT_EQ(mie_package_compiler(pkg.get(), &s), MIE_OK);
  EXPECT_STREQ(s, "mie-compile 0.1.0 (test)");

  ASSERT_EQ(pkg.num_inputs(), 2u);
  ASSERT_EQ(pkg.num_outputs(), 2u);
  mie_tensor_info x = pkg.input(0), k = pkg.input(1), y = pkg.output(0), rs = pkg.output(1);
  EXPECT_STREQ(x.name, "x");
  EXPECT_EQ(x.dtype, MIE_DTYPE_F32);
  ASSERT_EQ(x.rank, 2u);
  EXPECT_EQ(x.dims[0], 2);
  EXPECT_EQ(x.dims[1], 64);
  EXPECT_EQ(x.num_elements, 128u);
  EXPECT_EQ(x.byte_size, 512u);
  EXPECT_STREQ(k.name, "k");
  EXPECT_EQ(k.dtype, MIE_DTYPE_I32);
  EXPECT_EQ(k.byte_size, 4u);
  EXPECT_STREQ(y.name, "y");
  EXPECT_STREQ(rs.name, "rowsum");
  EXPECT_EQ(rs.byte_size, 8u);
  mie_tensor_info bad;
  EXPECT_EQ(mie_package_input_info(pkg.get(), 2, &bad), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(mie_last_error(), "mie_package_input_info: index 2 out of range (model has 2)");

  ASSERT_EQ(pkg.num_targets(), 3u);
  mie_target_info t0 = pkg.target(0), t1 = pkg.target(1), t2 = pkg.target(2);
  EXPECT_STREQ(t0.name, host_target_name());
  EXPECT_STREQ(t0.kind, "cpu");
  EXPECT_STREQ(t0.arch, host_arch());
  EXPECT_STREQ(t0.format, "elf-shared-object");
  EXPECT_STREQ(t0.entry, "mie_entry");
  EXPECT_EQ(t0.abi_version, uint32_t(MIE_KERNEL_ABI_CPU_VERSION));  // the writer's default for cpu code
  EXPECT_EQ(t0.arena_bytes, 512u);
  EXPECT_EQ(t0.code_size, code.size());
  EXPECT_EQ(t0.runnable_here, 1);
  EXPECT_STREQ(t1.features, "+neon");
  EXPECT_EQ(t1.runnable_here, 0);
  EXPECT_STREQ(t2.kind, "cuda");
  EXPECT_EQ(t2.runnable_here, 0);
  uint64_t arena = 0;
  ASSERT_EQ(mie_package_arena_bytes(pkg.get(), nullptr, &arena), MIE_OK);
  EXPECT_EQ(arena, 512u);
  ASSERT_EQ(mie_package_arena_bytes(pkg.get(), other_target_name(), &arena), MIE_OK);
  EXPECT_EQ(arena, 4096u);
  EXPECT_EQ(mie_package_arena_bytes(pkg.get(), "nope", &arena), MIE_ERR_NOT_FOUND);

  const void *wdata = nullptr;
  uint64_t wsize = 0;
  ASSERT_EQ(mie_package_weights(pkg.get(), &wdata, &wsize), MIE_OK);
  ASSERT_EQ(wsize, weights.size() * sizeof(float));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(wdata) % 64, 0u);
  EXPECT_EQ(std::memcmp(wdata, weights.data(), wsize), 0);

  const char *json = nullptr;
  size_t json_size = 0;
  ASSERT_EQ(mie_package_manifest_json(pkg.get(), &json, &json_size), MIE_OK);
  EXPECT_EQ(std::strlen(json), json_size);
  EXPECT_NE(std::string(json).find("\"model\": \"test-model\""), std::string::npos);

  // Every section is at a multiple of 64 (the writer uses 4096) and the header matches the file.
  mie::rt::Header h;
  mie::rt::decode_header(mem.data(), &h);
  EXPECT_EQ(h.file_size, mem.size());
  EXPECT_EQ(h.manifest_offset, 128u);
}

TEST(PackageWriter, EmptyWeightsAndScalars) {
  const auto code = kernel_bytes();
  mie::PackageWriter w;
  w.set_model("m");
  w.add_input({"s", "f64", {}});
  w.add_output({"z", "bool", {0, 3}});
  w.add_target(host_target(code));
  const std::string path = tmp_path("empty.mie");
  ASSERT_EQ(w.write(path), "");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  const void *wdata = &wdata;
  uint64_t wsize = 1;
  ASSERT_EQ(mie_package_weights(pkg.get(), &wdata, &wsize), MIE_OK);
  EXPECT_EQ(wdata, nullptr);
  EXPECT_EQ(wsize, 0u);
  EXPECT_EQ(pkg.input(0).rank, 0u);
  EXPECT_EQ(pkg.input(0).num_elements, 1u);
  EXPECT_EQ(pkg.input(0).byte_size, 8u);
  EXPECT_EQ(pkg.output(0).byte_size, 0u);
}

// --precision=auto's record: written as the manifest's "precision_auto" object, which readers
// ignore; a non-finite error is refused.
TEST(PackageWriter, PrecisionAutoRecord) {
  const auto code = kernel_bytes();
  mie::PackageWriter w;
  w.set_model("m");
  w.set_precision("auto");
  w.add_output({"y", "f32", {2}});
  w.add_target(host_target(code));
  w.set_precision_auto({"bf16", 0.01, 0.00454, "random:4", 2, {"/sensitive/MatMul", "a\"b"}});
  const std::string path = tmp_path("auto.mie");
  ASSERT_EQ(w.write(path), "");
  mie::Package pkg;
  ASSERT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  const char *precision = nullptr;
  ASSERT_EQ(mie_package_precision(pkg.get(), &precision), MIE_OK);
  EXPECT_STREQ(precision, "auto");
  const char *json = nullptr;
  size_t size = 0;
  ASSERT_EQ(mie_package_manifest_json(pkg.get(), &json, &size), MIE_OK);
  EXPECT_NE(std::string(json, size).find(
                "\"precision_auto\": {\"reduced\": \"bf16\", \"budget\": 0.01, \"error\": 0.00454, "
                "\"calibration\": \"random:4\", \"candidates\": 2, \"kept_fp32\": "
                "[\"/sensitive/MatMul\", \"a\\\"b\"]}"),
            std::string::npos)
      << std::string(json, size);
  w.set_precision_auto({"bf16", 0.01, HUGE_VAL, "random:4", 2, {}});
  std::vector<uint8_t> bytes;
  EXPECT_EQ(w.serialize(&bytes), "precision_auto: budget and error must be finite and non-negative");
}

TEST(PackageWriter, RejectsBadSpecs) {
  const auto code = kernel_bytes();
  auto base = [&] {
    mie::PackageWriter w;
    w.add_input({"x", "f32", {1}});
    w.add_output({"y", "f32", {1}});
    return w;
  };
  mie::PackageWriter w = base();
  EXPECT_EQ(w.write(tmp_path("a.mie")), "cannot write package '" + tmp_path("a.mie") + "': the package has no targets");
  w.add_target(host_target(code));
  w.add_input({"x", "f16", {1}});
  std::vector<uint8_t> out;
  EXPECT_EQ(w.serialize(&out), "input 1 ('x'): duplicate name");
  w = base();
  w.add_target(host_target(code));
  w.add_output({"z", "f128", {1}});
  EXPECT_EQ(w.serialize(&out), "output 1 ('z'): unknown dtype 'f128' (expected one of f32, f16, bf16, f64, i8, i16, i32, i64, u8, bool)");
  w = base();
  w.add_input({"n", "i8", {2, -1}});
  w.add_target(host_target(code));
  EXPECT_EQ(w.serialize(&out), "input 1 ('n'): negative dimension -1");
  w = base();
  w.add_target(host_target({}));
  EXPECT_EQ(w.serialize(&out), std::string("target 0 ('") + host_target_name() + "'): code is empty");
  w = base();
  auto t = host_target(code);
  t.kind = "tpu";
  w.add_target(t);
  EXPECT_EQ(w.serialize(&out), std::string("target 0 ('") + host_target_name() + "'): kind must be cpu or cuda, not 'tpu'");
  w = base();
  t = host_target(code);
  t.kernels = {{"main_k0", {"/a"}, 10}, {"", {}, 0}};
  w.add_target(t);
  EXPECT_EQ(w.serialize(&out), std::string("target 0 ('") + host_target_name() +
                                   "'): kernel 1: name must be a non-empty UTF-8 string");
  w = base();
  t = host_target(code);
  t.kernels = {{"main_k0", {"bad\xff"}, 10}};
  w.add_target(t);
  EXPECT_EQ(w.serialize(&out), std::string("target 0 ('") + host_target_name() +
                                   "'): kernel 'main_k0': node names must be UTF-8 without NUL");
  w = base();
  w.add_target(host_target(code));
  w.set_model("bad\xff");
  EXPECT_EQ(w.serialize(&out), "model name is not valid UTF-8 or contains NUL");
  // A directory that does not exist: error, and nothing is created.
  w = base();
  w.add_target(host_target(code));
  const std::string missing_dir = std::string(MIE_TEST_TMP) + "/no/such/dir/x.mie";
  EXPECT_NE(w.write(missing_dir).find("cannot create '" + missing_dir + ".tmp-"), std::string::npos);
}

TEST(PackageWriter, OverwritesAtomically) {
  const auto weights = test_weights();
  const auto code = kernel_bytes();
  const std::string path = tmp_path("over.mie");
  write_file(path, {1, 2, 3});
  ASSERT_EQ(test_model_writer(weights, code).write(path), "");
  mie::Package pkg;
  EXPECT_EQ(pkg.open(path.c_str()), MIE_OK) << mie_last_error();
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0044, 0u);  // normal umask permissions, not mkstemp's 0600
}

TEST(PackageReader, RawPackageIsValid) {
  OpenResult r = open_bytes(raw_package().bytes());
  EXPECT_EQ(r.status, MIE_OK) << r.message;
}

TEST(PackageReader, RejectsHeaderProblems) {
  const std::vector<uint8_t> good = raw_package().bytes();
  auto bytes = good;
  bytes[0] = 'X';
  EXPECT_EQ(rejection(bytes), "bad magic (not a .mie package)");
  bytes = good;
  bytes[8] = 5;
  EXPECT_EQ(rejection(bytes), "unsupported format version 5 (this runtime reads versions 1 to 4)");
  bytes[8] = 2;  // readable, but the manifest says 1
  EXPECT_EQ(rejection(bytes), "manifest format_version 1 differs from the header's 2");
  bytes = good;
  bytes[12] = 64;
  EXPECT_EQ(rejection(bytes), "header_size is 64, expected 128");
  bytes = good;
  bytes[100] = 1;
  EXPECT_EQ(rejection(bytes), "reserved header bytes [72, 128) are not zero");
  bytes = good;
  bytes.resize(good.size() - 10);
  EXPECT_EQ(rejection(bytes), "file is truncated: header says " + std::to_string(good.size()) + " bytes, file has " +
                                  std::to_string(good.size() - 10));
  bytes = good;
  bytes.resize(good.size() + 64);
  EXPECT_EQ(rejection(bytes), "file has " + std::to_string(good.size() + 64) + " bytes but the header says " +
                                  std::to_string(good.size()) + " (trailing data)");
  bytes = good;
  mie::rt::store_le64(bytes.data() + 32, good.size() + 1);
  EXPECT_EQ(rejection(bytes), "file is truncated: header says " + std::to_string(good.size() + 1) +
                                  " bytes, file has " + std::to_string(good.size()));
  EXPECT_EQ(rejection(std::vector<uint8_t>(good.begin(), good.begin() + 100)),
            "file is too small to be a package (100 bytes, the header alone is 128)");
  EXPECT_EQ(rejection({}), "file is too small to be a package (0 bytes, the header alone is 128)");
  bytes = good;
  bytes[200] ^= 1;  // inside the manifest
  EXPECT_EQ(rejection(bytes), "sha256 mismatch in manifest");
  bytes = good;
  mie::rt::store_le64(bytes.data() + 16, 64);  // manifest_offset inside the header
  EXPECT_EQ(rejection(bytes), "manifest [64, " + std::to_string(64 + raw_package().manifest.size()) +
                                  ") overlaps the header [0, 128)");
  bytes = good;
  mie::rt::store_le64(bytes.data() + 16, 130);
  EXPECT_EQ(rejection(bytes), "manifest offset 130 is not a multiple of 64");
  bytes = good;
  mie::rt::store_le64(bytes.data() + 24, UINT64_MAX - 10);
  EXPECT_EQ(rejection(bytes), "manifest offset 128 + size 18446744073709551605 overflows");
  bytes = good;
  mie::rt::store_le64(bytes.data() + 24, good.size());
  EXPECT_EQ(rejection(bytes), "manifest [128, " + std::to_string(128 + good.size()) + ") extends past end of file (" +
                                  std::to_string(good.size()) + " bytes)");
  bytes = good;
  mie::rt::store_le64(bytes.data() + 24, 0);
  EXPECT_EQ(rejection(bytes), "manifest is empty");
}

TEST(PackageReader, RejectsSectionProblems) {
  RawPackage p = raw_package();
  const std::string code_size = std::to_string(p.code.size());
  const std::string t = host_target_name();
  // Out of bounds (checked before any hash).
  EXPECT_EQ(manifest_rejection(replace(p.manifest, "\"size\": 256", "\"size\": 100000")),
            "weights section [4096, 104096) extends past end of file (" + std::to_string(p.bytes().size()) + " bytes)");
  // Misaligned.
  EXPECT_EQ(manifest_rejection(replace(p.manifest, "\"offset\": 4096", "\"offset\": 4100")),
            "weights section offset 4100 is not a multiple of 64");
  EXPECT_EQ(manifest_rejection(replace(p.manifest, "\"offset\": 8192", "\"offset\": 8200")),
            "code section of target '" + t + "' offset 8200 is not a multiple of 64");
  // Overlaps: code on top of weights, weights on the manifest, weights on the header.
  EXPECT_EQ(manifest_rejection(replace(p.manifest, "\"offset\": 8192", "\"offset\": 4096")),
            "code section of target '" + t + "' [4096, " + std::to_string(4096 + p.code.size()) +
                ") overlaps weights section [4096, 4352)");
  const std::string m128 = replace(p.manifest, "\"offset\": 4096", "\"offset\": 128");
  EXPECT_EQ(manifest_rejection(m128), "weights section [128, 384) overlaps the manifest [128, " +
                                          std::to_string(128 + m128.size()) + ")");
  EXPECT_EQ(manifest_rejection(replace(p.manifest, "\"offset\": 4096", "\"offset\": 0")),
            "weights section [0, 256) overlaps the header [0, 128)");
  // An empty section may sit anywhere inside the file.
  std::string empty = replace(p.manifest, "\"size\": 256", "\"size\": 0");
  empty = replace(empty, mie::rt::sha256_hex(p.weights.data(), p.weights.size()), mie::rt::sha256_hex(nullptr, 0));
  empty = replace(empty, "\"offset\": 4096", "\"offset\": 8192");
  p.manifest = empty;
  EXPECT_EQ(open_bytes(p.bytes()).status, MIE_OK) << open_bytes(p.bytes()).message;
}

TEST(PackageReader, RejectsHashMismatches) {
  RawPackage p = raw_package();
  auto bytes = p.bytes();
  bytes[4096 + 17] ^= 0x40;
  EXPECT_EQ(rejection(bytes), "sha256 mismatch in weights section");
  bytes = p.bytes();
  bytes[8192 + 100] ^= 0x01;
  EXPECT_EQ(rejection(bytes), std::string("sha256 mismatch in code section of target '") + host_target_name() + "'");
  EXPECT_EQ(manifest_rejection(replace(p.manifest, mie::rt::sha256_hex(p.weights.data(), p.weights.size()), "abc")),
            "manifest: weights.sha256: expected 64 hex digits");
}

TEST(PackageReader, RejectsManifestProblems) {
  const std::string m = raw_package().manifest;
  const std::string t = host_target_name();
  const std::string arena = "\"arena_bytes\": 512";
  EXPECT_EQ(manifest_rejection(replace(m, "\"dtype\": \"i32\"", "\"dtype\": \"f128\"")),
            "manifest: inputs[1].dtype: unknown dtype 'f128' (expected one of f32, f16, bf16, f64, i8, i16, i32, i64, u8, bool)");
  EXPECT_EQ(manifest_rejection(replace(m, "[2, 64]", "[2, -3]")), "manifest: inputs[0].shape[1]: negative dimension -3");
  EXPECT_EQ(manifest_rejection(replace(m, "[2, 64]", "[2, 6.5]")),
            "manifest: inputs[0].shape[1]: expected an integer, got 6.5");
  EXPECT_EQ(manifest_rejection(replace(m, "\"precision\": \"fp32\",", "")), "manifest: missing field 'precision'");
  EXPECT_EQ(manifest_rejection(replace(m, "\"arch\": \"" + std::string(host_arch()) + "\",", "")),
            "manifest: targets[0]: missing field 'arch'");
  EXPECT_EQ(manifest_rejection(replace(m, "\"arena_bytes\": 512", "\"arena_bytes\": \"512\"")),
            "manifest: targets[0].arena_bytes: expected a number, got string \"512\"");
  EXPECT_EQ(manifest_rejection(replace(m, "\"arena_bytes\": 512", "\"arena_bytes\": -1")),
            "manifest: targets[0].arena_bytes: expected a non-negative integer, got -1");
  EXPECT_EQ(manifest_rejection(replace(m, "\"kind\": \"cpu\"", "\"kind\": \"tpu\"")),
            "manifest: targets[0].kind: unknown kind 'tpu' (expected cpu or cuda)");
  EXPECT_EQ(manifest_rejection(replace(m, "\"name\": \"k\"", "\"name\": \"x\"")),
            "manifest: inputs[1].name: duplicate name 'x'");
  EXPECT_EQ(manifest_rejection(replace(m, "\"name\": \"k\"", "\"name\": \"\"")), "manifest: inputs[1].name: must not be empty");
  EXPECT_EQ(manifest_rejection(replace(m, "\"name\": \"k\"", "\"name\": \"a\\u0000b\"")),
            "manifest: inputs[1].name: string contains a NUL character");
  EXPECT_EQ(manifest_rejection(replace(m, "\"format_version\": 1", "\"format_version\": 5")),
            "manifest: format_version: unsupported version 5 (this runtime reads 1 to 4)");
  // Data-dependent output dims (format 3).
  const std::string y = "\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [2, 64]";
  EXPECT_EQ(manifest_rejection(replace(m, y, y + ", \"dynamic_dims\": [1]")),
            "manifest: outputs[0].dynamic_dims: data-dependent output dims need format_version 3");
  const std::string x = "\"name\": \"x\", \"dtype\": \"f32\", \"shape\": [2, 64]";
  EXPECT_EQ(manifest_rejection(replace(m, x, x + ", \"dynamic_dims\": [1]")),
            "manifest: inputs[0].dynamic_dims: only outputs may have data-dependent dims");
  EXPECT_EQ(manifest_rejection(replace(m, "\"format_version\": 1", "\"format_version\": 2")),
            "manifest format_version 2 differs from the header's 1");
  EXPECT_EQ(manifest_rejection(replace(m, arena, arena + ", \"weights\": {\"offset\": 0, \"size\": 0, \"sha256\": \"\"}")),
            "manifest: targets[0].weights: per-target weights need format_version 2");
  EXPECT_EQ(manifest_rejection(replace(m, "\"abi_version\": 1", "\"abi_version\": 0")),
            "manifest: targets[0].abi_version: must be at least 1");
  // The optional kernel list is checked like everything else.
  EXPECT_EQ(manifest_rejection(replace(m, arena, arena + ", \"kernels\": {}")),
            "manifest: targets[0].kernels: expected an array, got object");
  EXPECT_EQ(manifest_rejection(replace(m, arena, arena + ", \"kernels\": [{\"name\": \"k\", \"flops\": -1, \"nodes\": []}]")),
            "manifest: targets[0].kernels[0].flops: expected a non-negative integer, got -1");
  EXPECT_EQ(manifest_rejection(replace(m, arena, arena + ", \"kernels\": [{\"name\": \"k\", \"flops\": 1, \"nodes\": [\"a\", 3]}]")),
            "manifest: targets[0].kernels[0].nodes[1]: expected a string, got 3");
  EXPECT_EQ(manifest_rejection(replace(m, arena, arena + ", \"kernels\": [{\"flops\": 1, \"nodes\": []}]")),
            "manifest: targets[0].kernels[0]: missing field 'name'");
  // Dead bytes (what --poison-dead-buffers overwrites) must be [offset, bytes] pairs inside the arena.
  const std::string kernel = ", \"kernels\": [{\"name\": \"k\", \"flops\": 1, \"nodes\": [], \"dead\": ";
  EXPECT_EQ(manifest_rejection(replace(m, arena, arena + kernel + "[[500, 64]]}]")),
            "manifest: targets[0].kernels[0].dead[0]: bytes [500, 564) lie outside the arena of 512 bytes");
  EXPECT_EQ(manifest_rejection(replace(m, arena, arena + kernel + "[[0, 64, 1]]}]")),
            "manifest: targets[0].kernels[0].dead[0]: expected [offset, bytes], got array");
  EXPECT_EQ(manifest_rejection(replace(m, arena, arena + kernel + "[[0, -4]]}]")),
            "manifest: targets[0].kernels[0].dead[0][1]: expected a non-negative integer, got -4");
  EXPECT_EQ(manifest_rejection(replace(m, "\"inputs\": [", "\"inputs\": {\"a\": 1}, \"unused\": [")),
            "manifest: inputs: expected an array, got object");
  const size_t targets = m.find("\"targets\"");
  EXPECT_EQ(manifest_rejection(m.substr(0, targets) + "\"targets\": []}"), "manifest: targets: package has no targets");
  EXPECT_EQ(manifest_rejection("[1, 2]"), "manifest: expected a JSON object at top level, got array");
  EXPECT_EQ(manifest_rejection("{\"format_version\": 1,"),
            "manifest is not valid JSON: line 1, column 22: expected a string key");
  // Unknown extra fields are ignored (forward compatibility within a format version).
  EXPECT_EQ(open_bytes(RawPackage{raw_package().weights, raw_package().code,
                                  replace(m, "\"model\": \"raw\"", "\"model\": \"raw\", \"notes\": {\"x\": [1]}")}
                           .bytes())
                .status,
            MIE_OK);
}

// Sizes that come from the manifest are bounded (mie_rt.h) before anything of that size is allocated.
TEST(PackageReader, RejectsSizesBeyondTheLimits) {
  const std::string m = raw_package().manifest;
  std::string rank65 = "[1";
  for (int i = 1; i < 65; ++i) rank65 += ", 1";
  EXPECT_EQ(manifest_rejection(replace(m, "[2, 64]", rank65 + "]")),
            "manifest: inputs[0].shape: rank 65 exceeds the maximum of 64");
  EXPECT_EQ(manifest_rejection(replace(m, "[2]", "[1099511627776, 2]")),
            "manifest: outputs[1].shape: 8796093022208 bytes exceed the maximum of 1099511627776 per tensor");
  EXPECT_EQ(manifest_rejection(replace(m, "\"arena_bytes\": 512", "\"arena_bytes\": 1099511627777")),
            "manifest: targets[0].arena_bytes: value 1099511627777 is too large (at most 1099511627776)");
  // A manifest past the maximum is refused before it is hashed or parsed.
  EXPECT_EQ(rejection(assemble(std::string(MIE_MAX_MANIFEST_BYTES + 1, ' '), {})),
            "manifest is 67108865 bytes, more than the maximum of 67108864");
  // The writer refuses what the reader would.
  mie::PackageWriter w;
  w.add_output({"y", "f32", {1 << 20, 1 << 20, 2}});
  w.add_target(host_target(kernel_bytes()));
  std::vector<uint8_t> out;
  EXPECT_EQ(w.serialize(&out), "output 0 ('y'): more than 1099511627776 bytes");
}

TEST(PackageReader, FileProblems) {
  mie_package *pkg = nullptr;
  const std::string missing = tmp_path("missing.mie");
  EXPECT_EQ(mie_package_open(missing.c_str(), &pkg), MIE_ERR_IO);
  EXPECT_EQ(std::string(mie_last_error()), "package '" + missing + "': cannot open: No such file or directory");
  EXPECT_EQ(mie_package_open(MIE_TEST_TMP, &pkg), MIE_ERR_IO);
  EXPECT_EQ(std::string(mie_last_error()), std::string("package '") + MIE_TEST_TMP + "': not a regular file");
  EXPECT_EQ(mie_package_open(nullptr, &pkg), MIE_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(mie_last_error(), "mie_package_open: path is NULL");
  EXPECT_EQ(mie_package_close(nullptr), MIE_OK);
  EXPECT_STREQ(mie_last_error(), "");  // each call clears the previous message
}

TEST(PackageReader, ValidateInMemory) {
  // The pure validator gives the same answers without a file (and without the package prefix).
  auto bytes = raw_package().bytes();
  mie::rt::Manifest m;
  std::string error;
  EXPECT_TRUE(mie::rt::validate_package(bytes.data(), bytes.size(), &m, &error)) << error;
  EXPECT_EQ(m.targets.size(), 1u);
  EXPECT_EQ(m.weights.offset, 4096u);
  bytes[4] = 'Q';
  EXPECT_FALSE(mie::rt::validate_package(bytes.data(), bytes.size(), &m, &error));
  EXPECT_EQ(error, "bad magic (not a .mie package)");
}

}  // namespace

namespace {

// Maps a file of `size` bytes (byte i = i * 7 mod 251), drops what `drop` names, and checks every byte.
void expect_mapping_survives_release(uint64_t size, const char *name,
                                     const std::vector<std::pair<uint64_t, uint64_t>> &drop) {
  const std::string path = tmp_path(name);
  std::vector<uint8_t> bytes(size);
  for (uint64_t i = 0; i < size; ++i) bytes[i] = uint8_t(i * 7 % 251);
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
  // Anonymous memory next to which a small mapping may land: releasing the file must never zero it.
  std::vector<uint8_t> canary(uint64_t(6) << 20, 0xAB);
  int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  mie::rt::MappedFile file;
  ASSERT_TRUE(file.map(fd, size));
  ::close(fd);
  for (const auto &[offset, bytes_to_drop] : drop) file.release(file.data() + offset, bytes_to_drop);
  EXPECT_EQ(std::memcmp(file.data(), bytes.data(), size), 0) << name;
  EXPECT_TRUE(std::all_of(canary.begin(), canary.end(), [](uint8_t b) { return b == 0xAB; })) << name;
}

}  // namespace

TEST(MappedFile, ReleasedBytesReadBackUnchanged) {
  // A huge mapping dropped in uneven stretches, as validation streams it, then whole.
  const uint64_t big = (uint64_t(9) << 20) + 4321;
  expect_mapping_survives_release(big, "big.bin", {{100, 3 << 20}, {(3 << 20) + 100, 5 << 20}, {0, big}});
  // A small mapping (no 2 MiB alignment): nothing around it is touched.
  expect_mapping_survives_release(70000, "small.bin", {{0, 70000}, {5000, 60000}});
}
