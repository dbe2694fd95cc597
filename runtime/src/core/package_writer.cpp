#include "mie/mie_package_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "format.h"
#include "json.h"
#include "sha256.h"
#include "shape_expr.h"
#include "target_kinds.h"
#include "temp_file.h"

namespace mie {

using rt::kHeaderSize;

struct PackageWriter::Layout {
  std::string manifest;
  uint8_t header[kHeaderSize];
  uint64_t weights_offset = 0;
  std::vector<uint64_t> code_offsets;
  std::vector<uint64_t> target_weights_offsets;  // per target; meaningful where own_weights
  std::vector<bool>
      weights_written_before; // per target: its own weights repeat earlier weights (format 4)
  uint64_t file_size = 0;
};

namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

uint32_t abi_version_of(const PackageTargetSpec &t) {
  if (t.abi_version != 0) return t.abi_version;
  const rt::TargetKind *kind = rt::find_target_kind(t.kind);
  return kind ? kind->default_abi_version : MIE_KERNEL_ABI_CPU_VERSION;
}

// The reader rejects invalid UTF-8 and embedded NULs, so the writer must never produce them.
bool valid_text(const std::string &s) {
  const unsigned char *p = reinterpret_cast<const unsigned char *>(s.data());
  size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = p[i];
    if (c == 0) return false;
    if (c < 0x80) { ++i; continue; }
    size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > n) return false;
    uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
      cp = cp << 6 | (p[i + k] & 0x3F);
    }
    const uint32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

void add_key(std::string &o, const char *key) {
  rt::json::append_quoted(o, key);
  o += ": ";
}

void add_section(std::string &o, uint64_t offset, uint64_t size, const std::string &sha) {
  o += "{\"offset\": " + std::to_string(offset) + ", \"size\": " + std::to_string(size) + ", \"sha256\": \"" + sha +
       "\"}";
}

void add_tensors(std::string &o, const char *key, const std::vector<PackageTensorSpec> &list) {
  o += "  ";
  add_key(o, key);
  o += "[";
  for (size_t i = 0; i < list.size(); ++i) {
    const auto &t = list[i];
    o += i ? ",\n    {" : "\n    {";
    add_key(o, "name");
    rt::json::append_quoted(o, t.name);
    o += ", ";
    add_key(o, "dtype");
    rt::json::append_quoted(o, t.dtype);
    o += ", ";
    add_key(o, "shape");
    o += "[";
    for (size_t d = 0; d < t.shape.size(); ++d) {
      if (d)
        o += ", ";
      if (d < t.symbolic.size() && !t.symbolic[d].empty())
        rt::json::append_quoted(o, t.symbolic[d]);
      else
        o += std::to_string(t.shape[d]);
    }
    o += "]";
    if (!t.dynamic_dims.empty()) {
      o += ", ";
      add_key(o, "dynamic_dims");
      o += "[";
      for (size_t d = 0; d < t.dynamic_dims.size(); ++d) o += (d ? ", " : "") + std::to_string(t.dynamic_dims[d]);
      o += "]";
    }
    o += "}";
  }
  o += list.empty() ? "],\n" : "\n  ],\n";
}

}  // namespace

int64_t dtype_code(const std::string &name) {
  mie_dtype dtype;
  return rt::dtype_from_name(name, &dtype) ? int64_t(dtype) : 0;
}

// A batch symbol `s` (of `num_symbols`): every output holds it, and every tensor that holds it does
// so in dim 0 only, as the symbol times factors free of it (what the reader's check_batch_symbol
// takes); "" when so, else why not.
static std::string check_batch_symbol(size_t s, size_t num_symbols,
                                      const std::vector<PackageTensorSpec> &inputs,
                                      const std::vector<PackageTensorSpec> &outputs) {
  for (int pass = 0; pass < 2; ++pass)
    for (const PackageTensorSpec &t : pass ? outputs : inputs) {
      bool holds = false;
      for (size_t d = 0; d < t.symbolic.size(); ++d) {
        rt::ShapeExpr e;
        std::string why;
        if (t.symbolic[d].empty() || !rt::ShapeExpr::parse(t.symbolic[d], num_symbols, &e, &why) ||
            !e.uses_symbol(s))
          continue;
        if (d != 0 || !e.is_multiple_of(s))
          return std::string(pass ? "output '" : "input '") + t.name + "' dim " +
                 std::to_string(d) + " is '" + t.symbolic[d] +
                 "', not the batch's dim 0 times a factor free of it";
        holds = true;
      }
      if (pass && !holds)
        return "output '" + t.name + "' does not hold the batch";
    }
  return "";
}

std::string PackageWriter::check() const {
  if (!valid_text(model_)) return "model name is not valid UTF-8 or contains NUL";
  if (precision_.empty() || !valid_text(precision_)) return "precision must be a non-empty UTF-8 string";
  if (has_precision_auto_) {
    const PackagePrecisionAuto &a = precision_auto_;
    if (!valid_text(a.reduced) || !valid_text(a.calibration)) return "precision_auto: strings must be UTF-8";
    for (const std::string &k : a.kept)
      if (!valid_text(k)) return "precision_auto: kept_fp32 names must be UTF-8";
    if (!(a.budget >= 0 && a.budget < 1e300) || !(a.error >= 0 && a.error < 1e300))
      return "precision_auto: budget and error must be finite and non-negative";
  }
  if (!valid_text(compiler_)) return "compiler string is not valid UTF-8 or contains NUL";
  if (outputs_.empty()) return "the model has no outputs";
  if (targets_.empty()) return "the package has no targets";
  if (weights_size_ > 0 && !weights_) return "weights data is NULL but size is " + std::to_string(weights_size_);
  if (weights_size_ > uint64_t(INT64_MAX)) return "weights are too large";
  for (int pass = 0; pass < 2; ++pass) {
    const auto &list = pass == 0 ? inputs_ : outputs_;
    const char *kind = pass == 0 ? "input" : "output";
    for (size_t i = 0; i < list.size(); ++i) {
      const auto &t = list[i];
      const std::string what = std::string(kind) + " " + std::to_string(i) + " ('" + t.name + "')";
      if (t.name.empty() || !valid_text(t.name)) return what + ": name must be a non-empty UTF-8 string";
      for (size_t j = 0; j < i; ++j)
        if (list[j].name == t.name) return what + ": duplicate name";
      mie_dtype dt;
      if (!rt::dtype_from_name(t.dtype, &dt))
        return what + ": unknown dtype '" + t.dtype + "' (expected one of " + rt::dtype_name_list() + ")";
      // The reader's limits (mie_rt.h): a package it would refuse is not written.
      if (t.shape.size() > MIE_MAX_RANK) return what + ": rank is more than " + std::to_string(MIE_MAX_RANK);
      if (!t.symbolic.empty() && t.symbolic.size() != t.shape.size())
        return what + ": symbolic dims must give one entry per dim";
      if (!t.symbolic.empty() && symbols_.empty())
        return what + ": symbolic dims need the package's symbols";
      if (!t.symbolic.empty() && !t.dynamic_dims.empty())
        return what + ": data-dependent dims in a package with symbolic dims are not supported";
      uint64_t elems = 1;
      for (size_t j = 0; j < t.shape.size(); ++j) {
        int64_t d = t.shape[j];
        if (j < t.symbolic.size() && !t.symbolic[j].empty()) {
          rt::ShapeExpr e;
          std::string why;
          if (!rt::ShapeExpr::parse(t.symbolic[j], symbols_.size(), &e, &why))
            return what + ": dim " + std::to_string(j) + " '" + t.symbolic[j] + "': " + why;
          if (pass == 0 && e.single_symbol() < 0)
            return what + ": dim " + std::to_string(j) + " '" + t.symbolic[j] +
                   "' is not one symbol";
          continue;
        }
        if (d < 0) return what + ": negative dimension " + std::to_string(d);
        if (d != 0 && elems > UINT64_MAX / uint64_t(d) / 8) return what + ": shape is too large";
        elems *= uint64_t(d);
      }
      if (elems * rt::dtype_byte_size(dt) > MIE_MAX_TENSOR_BYTES)
        return what + ": more than " + std::to_string(MIE_MAX_TENSOR_BYTES) + " bytes";
      if (!t.dynamic_dims.empty() && std::string(kind) != "output")
        return what + ": only outputs may have data-dependent dims";
      for (size_t j = 0; j < t.dynamic_dims.size(); ++j)
        if (t.dynamic_dims[j] < 0 || size_t(t.dynamic_dims[j]) >= t.shape.size() ||
            (j && t.dynamic_dims[j] <= t.dynamic_dims[j - 1]))
          return what + ": dynamic dims must be strictly ascending dims of its shape";
    }
  }
  for (size_t i = 0; i < symbols_.size(); ++i) {
    const auto &sym = symbols_[i];
    const std::string what = "symbol " + std::to_string(i) + " ('" + sym.name + "')";
    if (sym.name.empty() || !valid_text(sym.name))
      return what + ": name must be a non-empty UTF-8 string";
    for (size_t j = 0; j < i; ++j)
      if (symbols_[j].name == sym.name)
        return what + ": duplicate name";
    if (sym.min < 0 || sym.min > sym.max || sym.max > INT32_MAX)
      return what + ": range must be 0 <= min <= max < 2^31";
  }
  if (symbols_.size() > 64)
    return "more than 64 symbols";
  // The run's inputs bind the symbols: each must be an input's dim or an integer element of one
  // of static shape.
  for (size_t i = 0; i < symbols_.size(); ++i) {
    if (symbols_[i].value_input >= 0) {
      const std::string what = "symbol " + std::to_string(i) + " ('" + symbols_[i].name + "')";
      if (symbols_[i].batch)
        return what + ": a value symbol cannot be a batch";
      if (size_t(symbols_[i].value_input) >= inputs_.size())
        return what + ": value of input " + std::to_string(symbols_[i].value_input) +
               ", which does not exist";
      const auto &t = inputs_[size_t(symbols_[i].value_input)];
      uint64_t elements = 1;
      for (int64_t d : t.shape)
        elements *= d < 0 ? 0 : uint64_t(d);
      const int64_t code = dtype_code(t.dtype);
      // Integers, or f32 and f64 (a OneHot's depth, truncated).
      const bool integer = code == MIE_DTYPE_I8 || code == MIE_DTYPE_I16 || code == MIE_DTYPE_I32 ||
                           code == MIE_DTYPE_I64 || code == MIE_DTYPE_U8 || code == MIE_DTYPE_U16 ||
                           code == MIE_DTYPE_U32 || code == MIE_DTYPE_U64 ||
                           code == MIE_DTYPE_F32 || code == MIE_DTYPE_F64;
      if (!t.symbolic.empty() || !integer || symbols_[i].value_element >= elements)
        return what + ": input '" + t.name + "' has no element " +
               std::to_string(symbols_[i].value_element) +
               " of a static shape and an integer, f32 or f64 type";
      if (int(symbols_[i].axes_rank >= 0) + int(!symbols_[i].reshape_of.empty()) +
              int(symbols_[i].one_means >= 0) >
          1)
        return what + ": more than one of reshape_of, axes_of_rank and one_means";
      if (!symbols_[i].axes_op.empty() &&
          (symbols_[i].axes_rank < 0 ||
           (symbols_[i].axes_op != "squeeze" && symbols_[i].axes_op != "unsqueeze")))
        return what + ": axes_of must be \"squeeze\" or \"unsqueeze\", with axes_of_rank";
      for (const std::string &text : symbols_[i].reshape_of) {
        rt::ShapeExpr e;
        std::string why;
        if (!rt::ShapeExpr::parse(text, symbols_.size(), &e, &why))
          return what + ": reshape_of '" + text + "': " + why;
      }
      continue;
    }
    bool bound = false;
    for (const auto &t : inputs_)
      for (const std::string &text : t.symbolic)
        bound |= text == "s" + std::to_string(i);
    if (!bound)
      return "symbol " + std::to_string(i) + " ('" + symbols_[i].name + "') is no input's dim";
    if (symbols_[i].batch)
      if (std::string why = check_batch_symbol(i, symbols_.size(), inputs_, outputs_); !why.empty())
        return "symbol " + std::to_string(i) + " ('" + symbols_[i].name + "'): " + why;
  }
  for (size_t i = 0; i < targets_.size(); ++i) {
    const auto &t = targets_[i];
    const std::string what = "target " + std::to_string(i) + " ('" + t.name + "')";
    if (t.name.empty() || !valid_text(t.name)) return what + ": name must be a non-empty UTF-8 string";
    // No dims with symbols: code for every shape of them (kernel ABI 7).
    if (!t.dims.empty() && t.dims.size() != symbols_.size())
      return what + ": dims must give a value for each of the " + std::to_string(symbols_.size()) +
             " symbols";
    if (!symbols_.empty() && t.dims.empty() && abi_version_of(t) < MIE_KERNEL_ABI_SYMBOLS_VERSION)
      return what + ": code for every shape of the symbols (no dims) needs kernel ABI " +
             std::to_string(MIE_KERNEL_ABI_SYMBOLS_VERSION);
    for (size_t j = 0; j < t.dims.size(); ++j)
      if (t.dims[j] < symbols_[j].min || t.dims[j] > symbols_[j].max)
        return what + ": dims: " + symbols_[j].name + " = " + std::to_string(t.dims[j]) +
               " is outside " + std::to_string(symbols_[j].min) + ".." +
               std::to_string(symbols_[j].max);
    for (size_t j = 0; j < i; ++j)
      if (targets_[j].name == t.name && targets_[j].dims == t.dims)
        return what + (symbols_.empty()   ? ": duplicate target name"
                       : t.dims.empty() ? ": duplicate target for every shape"
                                        : ": duplicate target for the same dims");
    const rt::TargetKind *kind = rt::find_target_kind(t.kind);
    if (!kind) return what + ": kind must be " + rt::known_target_kinds() + ", not '" + t.kind + "'";
    if (t.arch.empty() || !valid_text(t.arch)) return what + ": arch must be a non-empty UTF-8 string";
    int number;
    bool exact;
    if (kind->parse_arch && !kind->parse_arch(t.arch, &number, &exact))
      return what + ": arch must be " + kind->arch_form + " for a " + kind->name + " target, not '" + t.arch + "'";
    if (kind->needs_host_arch && (t.host_arch.empty() || !valid_text(t.host_arch)))
      return what + ": a " + kind->name + " target needs host_arch, the machine of its host code object";
    if (!kind->needs_host_arch && !t.host_arch.empty())
      return what + ": host_arch is for " + rt::target_kinds_with_host_arch() + " targets only";
    if (!valid_text(t.features)) return what + ": features is not valid UTF-8";
    if (t.format.empty() || !valid_text(t.format)) return what + ": format must be a non-empty UTF-8 string";
    if (t.entry.empty() || !valid_text(t.entry)) return what + ": entry must be a non-empty UTF-8 string";
    if (kind->min_abi_reason && t.abi_version != 0 && t.abi_version < kind->min_abi_version)
      return what + ": a " + kind->name + " target needs kernel ABI " + std::to_string(kind->min_abi_version) +
             " or later (" + kind->min_abi_reason + ")";
    if (t.arena_bytes > MIE_MAX_ARENA_BYTES)
      return what + ": arena_bytes is more than " + std::to_string(MIE_MAX_ARENA_BYTES);
    if (t.code.empty()) return what + ": code is empty";
    if (!t.own_weights && (t.weights || t.weights_size)) return what + ": weights given but own_weights is not set";
    if (t.own_weights && t.weights_size && !t.weights) return what + ": own weights have a size but no data";
    for (size_t k = 0; k < t.kernels.size(); ++k) {
      const auto &kd = t.kernels[k];
      if (kd.name.empty() || !valid_text(kd.name))
        return what + ": kernel " + std::to_string(k) + ": name must be a non-empty UTF-8 string";
      if (kd.flops > uint64_t(INT64_MAX)) return what + ": kernel '" + kd.name + "': flops is too large";
      for (const auto &n : kd.nodes)
        if (!valid_text(n)) return what + ": kernel '" + kd.name + "': node names must be UTF-8 without NUL";
      for (const auto &[offset, bytes] : kd.dead)
        if (offset > t.arena_bytes || bytes > t.arena_bytes - offset)
          return what + ": kernel '" + kd.name + "': dead bytes [" + std::to_string(offset) + ", +" +
                 std::to_string(bytes) + ") lie outside the arena";
    }
  }
  return "";
}

std::string PackageWriter::plan(Layout *L) const {
  if (std::string e = check(); !e.empty()) return e;
  const std::string weights_sha = rt::sha256_hex(weights_, weights_size_);
  std::vector<std::string> code_sha, weights_sha_of;
  bool any_own_weights = false;
  for (const auto &t : targets_) {
    code_sha.push_back(rt::sha256_hex(t.code.data(), t.code.size()));
    weights_sha_of.push_back(t.own_weights ? rt::sha256_hex(t.weights, t.weights_size) : "");
    any_own_weights |= t.own_weights;
  }
  // Version 1 readers would run a target with its own weights on the shared ones: only such packages are 2.
  // Version 2 readers would pass no extent buffers to code that writes them: only such packages are 3.
  bool any_dynamic = false;
  for (const auto &t : outputs_) any_dynamic |= !t.dynamic_dims.empty();
  // Version 3 readers know no symbols: only packages with symbols are 4.
  const uint32_t version = !symbols_.empty() ? 4 : any_dynamic ? 3 : any_own_weights ? 2 : 1;

  // Section offsets depend on the manifest length, which depends on the offsets' digits: iterate until the
  // data start stops moving (two or three rounds; the page rounding absorbs small changes).
  uint64_t data_start = kSectionPlacement;
  for (int round = 0; round < 16; ++round) {
    uint64_t pos = data_start;
    L->weights_offset = pos;
    pos = align_up(pos + weights_size_, kSectionPlacement);
    L->code_offsets.clear();
    L->target_weights_offsets.clear();
    L->weights_written_before.clear();
    for (size_t i = 0; i < targets_.size(); ++i) {
      const auto &t = targets_[i];
      L->code_offsets.push_back(pos);
      L->file_size = pos + t.code.size();
      pos = align_up(pos + t.code.size(), kSectionPlacement);
      // Format 4 lets a target name weights already in the file (specializations packing alike).
      int64_t earlier = -1;
      if (t.own_weights && !symbols_.empty()) {
        if (weights_sha_of[i] == weights_sha && t.weights_size == weights_size_)
          earlier = int64_t(L->weights_offset);
        for (size_t j = 0; j < i && earlier < 0; ++j)
          if (targets_[j].own_weights && weights_sha_of[j] == weights_sha_of[i] &&
              targets_[j].weights_size == t.weights_size && !L->weights_written_before[j])
            earlier = int64_t(L->target_weights_offsets[j]);
      }
      L->weights_written_before.push_back(earlier >= 0);
      L->target_weights_offsets.push_back(earlier >= 0 ? uint64_t(earlier) : pos);
      if (t.own_weights && earlier < 0) {
        L->file_size = pos + t.weights_size;
        pos = align_up(pos + t.weights_size, kSectionPlacement);
      }
    }

    std::string &o = L->manifest;
    o = "{\n  \"format_version\": " + std::to_string(version) + ",\n  ";
    add_key(o, "compiler"); rt::json::append_quoted(o, compiler_); o += ",\n  ";
    add_key(o, "model"); rt::json::append_quoted(o, model_); o += ",\n  ";
    add_key(o, "precision"); rt::json::append_quoted(o, precision_); o += ",\n";
    if (has_precision_auto_) {
      const PackagePrecisionAuto &a = precision_auto_;
      char number[64];
      o += "  ";
      add_key(o, "precision_auto");
      o += "{";
      add_key(o, "reduced"); rt::json::append_quoted(o, a.reduced); o += ", ";
      std::snprintf(number, sizeof(number), "%.6g", a.budget);
      add_key(o, "budget"); o += number; o += ", ";
      std::snprintf(number, sizeof(number), "%.6g", a.error);
      add_key(o, "error"); o += number; o += ", ";
      add_key(o, "calibration"); rt::json::append_quoted(o, a.calibration); o += ", ";
      add_key(o, "candidates"); o += std::to_string(a.candidates); o += ", ";
      add_key(o, "kept_fp32"); o += "[";
      for (size_t i = 0; i < a.kept.size(); ++i) {
        if (i) o += ", ";
        rt::json::append_quoted(o, a.kept[i]);
      }
      o += "]},\n";
    }
    if (!symbols_.empty()) {
      o += "  ";
      add_key(o, "symbols");
      o += "[";
      for (size_t i = 0; i < symbols_.size(); ++i) {
        o += i ? ", {" : "{";
        add_key(o, "name");
        rt::json::append_quoted(o, symbols_[i].name);
        o += ", ";
        add_key(o, "min");
        o += std::to_string(symbols_[i].min) + ", ";
        add_key(o, "max");
        o += std::to_string(symbols_[i].max);
        if (symbols_[i].batch) {
          o += ", ";
          add_key(o, "batch");
          o += "true";
        }
        if (symbols_[i].value_input >= 0) {
          o += ", ";
          add_key(o, "value_of");
          o += "{";
          add_key(o, "input");
          o += std::to_string(symbols_[i].value_input) + ", ";
          add_key(o, "element");
          o += std::to_string(symbols_[i].value_element);
          if (!symbols_[i].reshape_of.empty()) {
            o += ", ";
            add_key(o, "reshape_of");
            o += "[";
            for (size_t d = 0; d < symbols_[i].reshape_of.size(); ++d) {
              o += d ? ", " : "";
              rt::json::append_quoted(o, symbols_[i].reshape_of[d]);
            }
            o += "], ";
            add_key(o, "allowzero");
            o += symbols_[i].reshape_allowzero ? "true" : "false";
          }
          if (symbols_[i].axes_rank >= 0) {
            o += ", ";
            add_key(o, "axes_of_rank");
            o += std::to_string(symbols_[i].axes_rank);
          }
          if (symbols_[i].one_means >= 0) {
            o += ", ";
            add_key(o, "one_means");
            o += std::to_string(symbols_[i].one_means);
          }
          if (!symbols_[i].axes_op.empty()) {
            o += ", ";
            add_key(o, "axes_of");
            rt::json::append_quoted(o, symbols_[i].axes_op);
            o += ", ";
            add_key(o, "input_dims");
            o += "[";
            for (size_t d = 0; d < symbols_[i].axes_input_dims.size(); ++d)
              o += (d ? ", " : "") + std::to_string(symbols_[i].axes_input_dims[d]);
            o += "]";
          }
          o += "}";
        }
        o += "}";
      }
      o += "],\n";
    }
    add_tensors(o, "inputs", inputs_);
    add_tensors(o, "outputs", outputs_);
    o += "  ";
    add_key(o, "weights");
    add_section(o, L->weights_offset, weights_size_, weights_sha);
    o += ",\n  ";
    add_key(o, "targets");
    o += "[";
    for (size_t i = 0; i < targets_.size(); ++i) {
      const auto &t = targets_[i];
      o += i ? ",\n    {" : "\n    {";
      add_key(o, "name"); rt::json::append_quoted(o, t.name); o += ", ";
      add_key(o, "kind"); rt::json::append_quoted(o, t.kind); o += ", ";
      add_key(o, "arch"); rt::json::append_quoted(o, t.arch); o += ", ";
      add_key(o, "features"); rt::json::append_quoted(o, t.features); o += ",\n     ";
      if (!t.host_arch.empty()) {
        add_key(o, "host_arch"); rt::json::append_quoted(o, t.host_arch); o += ", ";
      }
      add_key(o, "format"); rt::json::append_quoted(o, t.format); o += ", ";
      add_key(o, "entry"); rt::json::append_quoted(o, t.entry); o += ", ";
      add_key(o, "abi_version"); o += std::to_string(abi_version_of(t)) + ", ";
      add_key(o, "arena_bytes"); o += std::to_string(t.arena_bytes) + ",\n     ";
      if (!t.dims.empty()) {
        add_key(o, "dims");
        o += "[";
        for (size_t d = 0; d < t.dims.size(); ++d)
          o += (d ? ", " : "") + std::to_string(t.dims[d]);
        o += "], ";
      }
      add_key(o, "code");
      add_section(o, L->code_offsets[i], t.code.size(), code_sha[i]);
      if (t.own_weights) {
        o += ",\n     ";
        add_key(o, "weights");
        add_section(o, L->target_weights_offsets[i], t.weights_size, weights_sha_of[i]);
      }
      if (!t.kernels.empty()) {
        o += ",\n     ";
        add_key(o, "kernels");
        o += "[";
        for (size_t k = 0; k < t.kernels.size(); ++k) {
          const auto &kd = t.kernels[k];
          o += k ? ",\n       {" : "\n       {";
          add_key(o, "name"); rt::json::append_quoted(o, kd.name); o += ", ";
          add_key(o, "flops"); o += std::to_string(kd.flops) + ", ";
          add_key(o, "nodes"); o += "[";
          for (size_t n = 0; n < kd.nodes.size(); ++n) {
            if (n) o += ", ";
            rt::json::append_quoted(o, kd.nodes[n]);
          }
          o += "]";
          if (!kd.dead.empty()) {
            o += ", ";
            add_key(o, "dead");
            o += "[";
            for (size_t d = 0; d < kd.dead.size(); ++d)
              o += (d ? ", [" : "[") + std::to_string(kd.dead[d].first) + ", " + std::to_string(kd.dead[d].second) + "]";
            o += "]";
          }
          o += "}";
        }
        o += "]";
      }
      o += "}";
    }
    o += "\n  ]\n}\n";

    const uint64_t needed = align_up(kHeaderSize + o.size(), kSectionPlacement);
    if (needed == data_start) {
      rt::Header h;
      std::memcpy(h.magic, rt::kMagic, 8);
      h.format_version = version;
      h.header_size = kHeaderSize;
      h.manifest_offset = kHeaderSize;
      h.manifest_size = o.size();
      h.file_size = L->file_size;
      rt::sha256(o.data(), o.size(), h.manifest_sha256);
      rt::encode_header(h, L->header);
      return "";
    }
    data_start = needed;
  }
  return "internal error: package layout did not converge";
}

template <typename Sink>
bool PackageWriter::emit(const Layout &L, Sink &&sink) const {
  static const uint8_t kZeros[4096] = {};
  uint64_t pos = 0;
  auto pad_to = [&](uint64_t target) {
    while (pos < target) {
      const uint64_t n = target - pos < sizeof kZeros ? target - pos : sizeof kZeros;
      if (!sink(kZeros, n)) return false;
      pos += n;
    }
    return true;
  };
  auto put = [&](const void *p, uint64_t n) {
    if (n && !sink(p, n)) return false;
    pos += n;
    return true;
  };
  if (!put(L.header, kHeaderSize) || !put(L.manifest.data(), L.manifest.size())) return false;
  if (!pad_to(L.weights_offset) || !put(weights_, weights_size_)) return false;
  for (size_t i = 0; i < targets_.size(); ++i) {
    const auto &t = targets_[i];
    if (!pad_to(L.code_offsets[i]) || !put(t.code.data(), t.code.size())) return false;
    if (t.own_weights && !L.weights_written_before[i] &&
        (!pad_to(L.target_weights_offsets[i]) || !put(t.weights, t.weights_size)))
      return false;
  }
  return pos == L.file_size;
}

std::string PackageWriter::serialize(std::vector<uint8_t> *out) const {
  Layout L;
  if (std::string e = plan(&L); !e.empty()) return e;
  out->clear();
  out->reserve(L.file_size);
  emit(L, [&](const void *p, uint64_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(p);
    out->insert(out->end(), b, b + n);
    return true;
  });
  return "";
}

std::string PackageWriter::write(const std::string &path) const {
  Layout L;
  if (std::string e = plan(&L); !e.empty()) return "cannot write package '" + path + "': " + e;
  // The final file gets the usual 0666 & ~umask permissions (temp_file.h).
  std::string tmp;
  const int fd = rt::create_temp_beside(path, 0666, &tmp);
  if (fd < 0) return "cannot write package '" + path + "': cannot create '" + tmp + "': " + std::strerror(errno);

  int saved_errno = 0;
  bool ok = emit(L, [&](const void *p, uint64_t n) {
    const char *b = static_cast<const char *>(p);
    while (n > 0) {
      ssize_t w = ::write(fd, b, n > (1u << 30) ? (1u << 30) : size_t(n));
      if (w < 0) {
        if (errno == EINTR) continue;
        saved_errno = errno;
        return false;
      }
      b += w;
      n -= uint64_t(w);
    }
    return true;
  });
  // fsync before rename: otherwise a crash can leave the new name pointing at incomplete data.
  if (ok && fsync(fd) != 0) {
    ok = false;
    saved_errno = errno;
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved_errno = errno;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    saved_errno = errno;
  }
  if (!ok) {
    unlink(tmp.c_str());
    return "cannot write package '" + path + "': " + std::strerror(saved_errno ? saved_errno : EIO);
  }
  return "";
}

}  // namespace mie
