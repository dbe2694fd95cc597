#include "manifest.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "format.h"
#include "mie/mie_kernel_abi.h"
#include "sha256.h"
#include "target_kinds.h"

namespace mie::rt {
namespace {

using json::Type;
using json::Value;

// Describes a JSON value briefly for "expected X, got Y" messages.
std::string describe(const Value &v) {
  if (v.type == Type::Number) {
    if (v.is_integer) return std::to_string(v.integer);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v.number);
    return buf;
  }
  if (v.type == Type::String) return "string \"" + v.string + "\"";
  return json::type_name(v.type);
}

class SchemaReader {
 public:
  explicit SchemaReader(std::string *error) : error_(error) {}

  bool fail(const std::string &path, const std::string &what) {
    *error_ = path.empty() ? what : path + ": " + what;
    return false;
  }

  static std::string join(const std::string &path, const std::string &key) {
    return path.empty() ? key : path + "." + key;
  }

  bool field(const Value &obj, const std::string &path, const char *key, Type type, const Value **out) {
    const Value *v = obj.find(key);
    if (!v) return fail(path, std::string("missing field '") + key + "'");
    if (v->type != type)
      return fail(join(path, key), std::string("expected ") + (type == Type::Object || type == Type::Array ? "an " : "a ") +
                                       json::type_name(type) + ", got " + describe(*v));
    *out = v;
    return true;
  }

  // Strings end up as C strings in the public API, so embedded NULs would silently truncate them.
  bool string(const Value &obj, const std::string &path, const char *key, bool non_empty, std::string *out) {
    const Value *v;
    if (!field(obj, path, key, Type::String, &v)) return false;
    if (std::memchr(v->string.data(), 0, v->string.size()))
      return fail(join(path, key), "string contains a NUL character");
    if (non_empty && v->string.empty()) return fail(join(path, key), "must not be empty");
    *out = v->string;
    return true;
  }

  bool uint(const Value &obj, const std::string &path, const char *key, uint64_t max, uint64_t *out) {
    const Value *v;
    if (!field(obj, path, key, Type::Number, &v)) return false;
    if (!v->is_integer || v->integer < 0)
      return fail(join(path, key), "expected a non-negative integer, got " + describe(*v));
    if (uint64_t(v->integer) > max)
      return fail(join(path, key), "value " + std::to_string(v->integer) + " is too large (at most " +
                                       std::to_string(max) + ")");
    *out = uint64_t(v->integer);
    return true;
  }

  bool section(const Value &obj, const std::string &path, const char *key, SectionRef *out) {
    const Value *s;
    if (!field(obj, path, key, Type::Object, &s)) return false;
    const std::string p = join(path, key);
    std::string hex;
    if (!uint(*s, p, "offset", INT64_MAX, &out->offset) || !uint(*s, p, "size", INT64_MAX, &out->size) ||
        !string(*s, p, "sha256", false, &hex))
      return false;
    if (!from_hex(hex, out->sha256, 32)) return fail(p + ".sha256", "expected 64 hex digits");
    return true;
  }

  bool tensors(const Value &root, const char *key, uint64_t format_version, std::vector<TensorDesc> *out) {
    const Value *arr;
    if (!field(root, "", key, Type::Array, &arr)) return false;
    for (size_t i = 0; i < arr->array.size(); ++i) {
      const std::string p = std::string(key) + "[" + std::to_string(i) + "]";
      const Value &t = arr->array[i];
      if (t.type != Type::Object) return fail(p, "expected an object, got " + describe(t));
      TensorDesc d;
      std::string dtype;
      if (!string(t, p, "name", true, &d.name) || !string(t, p, "dtype", false, &dtype)) return false;
      for (const auto &other : *out)
        if (other.name == d.name) return fail(p + ".name", "duplicate name '" + d.name + "'");
      if (!dtype_from_name(dtype, &d.dtype))
        return fail(p + ".dtype", "unknown dtype '" + dtype + "' (expected one of " + dtype_name_list() + ")");
      const Value *shape;
      if (!field(t, p, "shape", Type::Array, &shape)) return false;
      if (shape->array.size() > MIE_MAX_RANK)
        return fail(p + ".shape", "rank " + std::to_string(shape->array.size()) + " exceeds the maximum of " +
                                      std::to_string(MIE_MAX_RANK));
      uint64_t elems = 1;
      for (size_t j = 0; j < shape->array.size(); ++j) {
        const Value &dim = shape->array[j];
        const std::string dp = p + ".shape[" + std::to_string(j) + "]";
        if (dim.type == Type::String) {
          if (!symbolic_dim(dim.string, dp, key, uint32_t(j), &d))
            return false;
          d.dims.push_back(-1);
          continue;
        }
        if (dim.type != Type::Number || !dim.is_integer) return fail(dp, "expected an integer, got " + describe(dim));
        if (dim.integer < 0) return fail(dp, "negative dimension " + std::to_string(dim.integer));
        const uint64_t u = uint64_t(dim.integer);
        if (u != 0 && elems > UINT64_MAX / u) return fail(p + ".shape", "element count overflows 64 bits");
        elems *= u;
        d.dims.push_back(dim.integer);
      }
      const uint64_t esize = dtype_byte_size(d.dtype);
      if (elems > UINT64_MAX / esize) return fail(p + ".shape", "byte size overflows 64 bits");
      // Callers allocate this much per tensor (mie-run, the Python bindings) before the code can vouch
      // for it, so it is bounded like every size read from a file.
      if (elems * esize > MIE_MAX_TENSOR_BYTES)
        return fail(p + ".shape", std::to_string(elems * esize) + " bytes exceed the maximum of " +
                                      std::to_string(MIE_MAX_TENSOR_BYTES) + " per tensor");
      d.num_elements = d.is_symbolic() ? 0 : elems;
      d.byte_size = d.is_symbolic() ? 0 : elems * esize;
      if (!dynamic_dims(t, p, key, format_version, &d)) return false;
      if (d.is_symbolic() && !d.dynamic_dims.empty())
        return fail(p + ".dynamic_dims",
                    "data-dependent dims in a package with symbolic dims are not supported");
      out->push_back(std::move(d));
    }
    return true;
  }

  // A dim given as an expression of the symbols (format 4): one symbol alone for an input (the
  // run's input shapes bind the symbols), any expression for an output.
  bool symbolic_dim(const std::string &text, const std::string &dp, const char *key, uint32_t dim,
                    TensorDesc *d) {
    if (symbols_.empty())
      return fail(dp, "a symbolic dim needs the manifest's \"symbols\" (format_version 4)");
    ShapeExpr e;
    std::string why;
    if (!ShapeExpr::parse(text, symbols_.size(), &e, &why))
      return fail(dp, "'" + text + "': " + why);
    if (std::string(key) == "inputs" && e.single_symbol() < 0)
      return fail(dp, "'" + text + "': an input's symbolic dim must be one symbol");
    d->symbolic_dims.push_back({dim, std::move(e)});
    return true;
  }

  // "symbols": [{"name": string, "min": integer, "max": integer}, ...] (format 4).
  bool symbols(const Value &root, uint64_t format_version, std::vector<SymbolDesc> *out) {
    const Value *arr = root.find("symbols");
    if (!arr)
      return true;
    if (format_version < 4)
      return fail("symbols", "symbolic dims need format_version 4");
    if (arr->type != Type::Array)
      return fail("symbols", "expected an array, got " + describe(*arr));
    if (arr->array.empty())
      return fail("symbols", "must not be empty");
    if (arr->array.size() > 64)
      return fail("symbols", "more than 64 symbols");
    for (size_t i = 0; i < arr->array.size(); ++i) {
      const std::string p = "symbols[" + std::to_string(i) + "]";
      const Value &v = arr->array[i];
      if (v.type != Type::Object)
        return fail(p, "expected an object, got " + describe(v));
      SymbolDesc d;
      uint64_t lo, hi;
      if (!string(v, p, "name", true, &d.name) || !uint(v, p, "min", INT32_MAX, &lo) ||
          !uint(v, p, "max", INT32_MAX, &hi))
        return false;
      if (lo > hi)
        return fail(p, "min " + std::to_string(lo) + " is more than max " + std::to_string(hi));
      // "value_of": {"input": integer, "element": integer}: a value symbol (checked against the
      // inputs by check_symbolic_shapes).
      if (const Value *of = v.find("value_of")) {
        const std::string vp = p + ".value_of";
        if (of->type != Type::Object)
          return fail(vp, "expected an object, got " + describe(*of));
        uint64_t input, element;
        if (!uint(*of, vp, "input", INT32_MAX, &input) ||
            !uint(*of, vp, "element", UINT32_MAX, &element))
          return false;
        d.value_input = int32_t(input);
        d.value_element = element;
        if (const Value *of_dims = of->find("reshape_of")) {
          if (of_dims->type != Type::Array || of_dims->array.size() > 64)
            return fail(vp + ".reshape_of", "expected an array of at most 64 dims");
          for (size_t j = 0; j < of_dims->array.size(); ++j) {
            const Value &text = of_dims->array[j];
            ShapeExpr e;
            std::string why;
            if (text.type != Type::String ||
                !ShapeExpr::parse(text.string, arr->array.size(), &e, &why))
              return fail(vp + ".reshape_of[" + std::to_string(j) + "]",
                          text.type != Type::String ? "expected a string" : why);
            d.reshape_of.push_back(std::move(e));
          }
          const Value *allow = of->find("allowzero");
          d.reshape_allowzero = allow && allow->type == Type::Bool && allow->boolean;
        }
        if (const Value *op = of->find("axes_of")) {
          const Value *in_dims = of->find("input_dims");
          if (op->type != Type::String || (op->string != "squeeze" && op->string != "unsqueeze"))
            return fail(vp + ".axes_of", "expected \"squeeze\" or \"unsqueeze\"");
          if (!in_dims || in_dims->type != Type::Array || in_dims->array.size() > 64)
            return fail(vp + ".input_dims", "expected an array of at most 64 dims");
          for (const Value &dim : in_dims->array) {
            if (dim.type != Type::Number || !dim.is_integer || dim.integer < 0)
              return fail(vp + ".input_dims", "expected non-negative integers");
            d.axes_input_dims.push_back(dim.integer);
          }
          d.axes_op = op->string;
          if (!of->find("axes_of_rank"))
            return fail(vp + ".axes_of", "needs axes_of_rank");
        }
        if (of->find("one_means")) {
          uint64_t size;
          if (!uint(*of, vp, "one_means", INT32_MAX, &size))
            return false;
          if (!d.reshape_of.empty())
            return fail(vp, "both reshape_of and one_means");
          d.one_means = int64_t(size);
        }
        if (of->find("axes_of_rank")) {
          uint64_t rank;
          if (!uint(*of, vp, "axes_of_rank", 64, &rank))
            return false;
          if (!d.reshape_of.empty() || d.one_means >= 0)
            return fail(vp, "axes_of_rank beside reshape_of or one_means");
          d.axes_rank = int64_t(rank);
        }
      }
      // "batch": true: the samples along this symbol are independent (check_batch_symbol).
      if (const Value *batch = v.find("batch")) {
        if (batch->type != Type::Bool)
          return fail(p + ".batch", "expected a boolean, got " + describe(*batch));
        if (batch->boolean && d.value_input >= 0)
          return fail(p + ".batch", "a value symbol cannot be a batch");
        d.batch = batch->boolean;
      }
      for (const auto &other : *out)
        if (other.name == d.name)
          return fail(p + ".name", "duplicate symbol '" + d.name + "'");
      d.min = int64_t(lo);
      d.max = int64_t(hi);
      out->push_back(std::move(d));
    }
    symbols_ = *out;
    return true;
  }

  // A target's "dims": the value of every symbol its code was compiled for, each in its range.
  bool target_dims(const Value &t, const std::string &p, TargetDesc *d) {
    const Value *v = t.find("dims");
    if (!v) return true;  // with symbols: code for every shape in the ranges (checked by the caller)
    const std::string dp = p + ".dims";
    if (symbols_.empty())
      return fail(dp, "the package has no symbols");
    if (v->type != Type::Array || v->array.size() != symbols_.size())
      return fail(dp, "expected an array of " + std::to_string(symbols_.size()) +
                          " integers, one per symbol");
    for (size_t j = 0; j < v->array.size(); ++j) {
      const Value &n = v->array[j];
      const SymbolDesc &sym = symbols_[j];
      if (n.type != Type::Number || !n.is_integer || n.integer < sym.min || n.integer > sym.max)
        return fail(dp + "[" + std::to_string(j) + "]",
                    "expected a value of '" + sym.name + "' in " + std::to_string(sym.min) + ".." +
                        std::to_string(sym.max) + ", got " + describe(n));
      d->dims.push_back(n.integer);
    }
    return true;
  }

  // Optional `dynamic_dims` of an output: strictly ascending dims of its shape (format 3).
  bool dynamic_dims(const Value &t, const std::string &p, const char *key, uint64_t format_version, TensorDesc *d) {
    const Value *v = t.find("dynamic_dims");
    if (!v) return true;
    const std::string dp = p + ".dynamic_dims";
    if (std::string(key) != "outputs") return fail(dp, "only outputs may have data-dependent dims");
    if (format_version < 3) return fail(dp, "data-dependent output dims need format_version 3");
    if (v->type != Type::Array) return fail(dp, "expected an array, got " + describe(*v));
    if (v->array.empty()) return fail(dp, "must not be empty");
    for (size_t j = 0; j < v->array.size(); ++j) {
      const Value &dim = v->array[j];
      const std::string ep = dp + "[" + std::to_string(j) + "]";
      if (dim.type != Type::Number || !dim.is_integer) return fail(ep, "expected an integer, got " + describe(dim));
      if (dim.integer < 0 || uint64_t(dim.integer) >= d->dims.size())
        return fail(ep, "dim " + std::to_string(dim.integer) + " is out of range for rank " +
                            std::to_string(d->dims.size()));
      if (!d->dynamic_dims.empty() && uint32_t(dim.integer) <= d->dynamic_dims.back())
        return fail(ep, "dims must be strictly ascending");
      d->dynamic_dims.push_back(uint32_t(dim.integer));
    }
    return true;
  }

  bool targets(const Value &root, uint64_t format_version, std::vector<TargetDesc> *out) {
    const Value *arr;
    if (!field(root, "", "targets", Type::Array, &arr)) return false;
    if (arr->array.empty()) return fail("targets", "package has no targets");
    for (size_t i = 0; i < arr->array.size(); ++i) {
      const std::string p = "targets[" + std::to_string(i) + "]";
      const Value &t = arr->array[i];
      if (t.type != Type::Object) return fail(p, "expected an object, got " + describe(t));
      TargetDesc d;
      uint64_t abi = 0;
      if (!string(t, p, "name", true, &d.name) || !string(t, p, "kind", true, &d.kind) ||
          !string(t, p, "arch", true, &d.arch) || !string(t, p, "features", false, &d.features) ||
          !string(t, p, "format", true, &d.format) || !string(t, p, "entry", true, &d.entry) ||
          !uint(t, p, "abi_version", UINT32_MAX, &abi) ||
          !uint(t, p, "arena_bytes", MIE_MAX_ARENA_BYTES, &d.arena_bytes) || !section(t, p, "code", &d.code))
        return false;
      const TargetKind *kind = find_target_kind(d.kind);
      if (!kind) return fail(p + ".kind", "unknown kind '" + d.kind + "' (expected " + known_target_kinds() + ")");
      if (kind->parse_arch && !kind->parse_arch(d.arch, &d.sm, &d.sm_exact))
        return fail(p + ".arch", std::string("expected ") + kind->arch_form + " for a " + kind->name +
                                     " target, got '" + d.arch + "'");
      // The host code object's machine: without it nothing says which CPU the launching code is for.
      if (kind->needs_host_arch && !string(t, p, "host_arch", true, &d.host_arch)) return false;
      if (abi == 0) return fail(p + ".abi_version", "must be at least 1");
      if (d.code.size == 0) return fail(p + ".code.size", "code section is empty");
      if (!target_dims(t, p, &d))
        return false;
      if (!symbols_.empty() && d.dims.empty() && abi < MIE_KERNEL_ABI_SYMBOLS_VERSION)
        return fail(p, "a target without 'dims' is code for every shape of the symbols, which needs "
                       "abi_version " + std::to_string(MIE_KERNEL_ABI_SYMBOLS_VERSION) + " or later");
      // Targets of one name are one machine's code for several specializations: they agree on the
      // machine.
      for (const auto &other : *out) {
        if (other.name != d.name)
          continue;
        if (other.dims == d.dims)
          return fail(p + ".name", symbols_.empty()
                                       ? "duplicate target name '" + d.name + "'"
                                   : d.dims.empty() ? "duplicate target '" + d.name + "' for every shape"
                                                    : "duplicate target '" + d.name + "' for the same dims");
        if (other.kind != d.kind || other.arch != d.arch || other.features != d.features)
          return fail(p, "target '" + d.name +
                             "' differs in kind, arch or features from its other specializations");
      }
      d.abi_version = uint32_t(abi);
      if (t.find("kernels") && !kernels(t, p, d.arena_bytes, &d.kernels)) return false;
      if (t.find("weights")) {
        if (format_version < 2) return fail(p + ".weights", "per-target weights need format_version 2");
        if (!section(t, p, "weights", &d.weights)) return false;
        d.has_own_weights = true;
      }
      out->push_back(std::move(d));
    }
    return true;
  }

  bool kernels(const Value &target, const std::string &path, uint64_t arena_bytes, std::vector<KernelDesc> *out) {
    const Value *arr;
    if (!field(target, path, "kernels", Type::Array, &arr)) return false;
    for (size_t i = 0; i < arr->array.size(); ++i) {
      const std::string p = path + ".kernels[" + std::to_string(i) + "]";
      const Value &k = arr->array[i];
      if (k.type != Type::Object) return fail(p, "expected an object, got " + describe(k));
      KernelDesc d;
      const Value *nodes;
      if (!string(k, p, "name", true, &d.name) || !uint(k, p, "flops", INT64_MAX, &d.flops) ||
          !field(k, p, "nodes", Type::Array, &nodes))
        return false;
      for (size_t j = 0; j < nodes->array.size(); ++j) {
        const Value &n = nodes->array[j];
        const std::string np = p + ".nodes[" + std::to_string(j) + "]";
        if (n.type != Type::String) return fail(np, "expected a string, got " + describe(n));
        if (std::memchr(n.string.data(), 0, n.string.size())) return fail(np, "string contains a NUL character");
        d.nodes += (j ? "," : "") + n.string;
      }
      if (k.find("dead") && !dead_ranges(k, p, arena_bytes, &d.dead)) return false;
      out->push_back(std::move(d));
    }
    return true;
  }

  // "dead": [[offset, bytes], ...], each range inside the arena.
  bool dead_ranges(const Value &kernel, const std::string &path, uint64_t arena_bytes,
                   std::vector<std::pair<uint64_t, uint64_t>> *out) {
    const Value *arr;
    if (!field(kernel, path, "dead", Type::Array, &arr)) return false;
    for (size_t i = 0; i < arr->array.size(); ++i) {
      const std::string p = path + ".dead[" + std::to_string(i) + "]";
      const Value &r = arr->array[i];
      if (r.type != Type::Array || r.array.size() != 2) return fail(p, "expected [offset, bytes], got " + describe(r));
      uint64_t v[2];
      for (int j = 0; j < 2; ++j) {
        const Value &n = r.array[j];
        if (n.type != Type::Number || !n.is_integer || n.integer < 0)
          return fail(p + "[" + std::to_string(j) + "]", "expected a non-negative integer, got " + describe(n));
        v[j] = uint64_t(n.integer);
      }
      if (v[0] > arena_bytes || v[1] > arena_bytes - v[0])
        return fail(p, "bytes [" + std::to_string(v[0]) + ", " + std::to_string(v[0] + v[1]) +
                           ") lie outside the arena of " + std::to_string(arena_bytes) + " bytes");
      out->push_back({v[0], v[1]});
    }
    return true;
  }

 private:
  std::string *error_;
  std::vector<SymbolDesc> symbols_; // read before the tensors and targets that refer to them
};

}  // namespace

bool check_symbolic_shapes(const Manifest &m, std::string *error);

bool parse_manifest(const json::Value &root, Manifest *out, std::string *error) {
  SchemaReader r(error);
  if (root.type != Type::Object) return r.fail("", "expected a JSON object at top level, got " + describe(root));
  uint64_t version;
  if (!r.uint(root, "", "format_version", INT64_MAX, &version)) return false;
  if (version < kMinFormatVersion || version > kFormatVersion)
    return r.fail("format_version", "unsupported version " + std::to_string(version) + " (this runtime reads " +
                                        std::to_string(kMinFormatVersion) + " to " + std::to_string(kFormatVersion) +
                                        ")");
  out->format_version = int64_t(version);
  if (!r.string(root, "", "compiler", false, &out->compiler) ||
      !r.string(root, "", "model", false, &out->model) ||
      !r.string(root, "", "precision", true, &out->precision) ||
      !r.symbols(root, version, &out->symbols) ||
      !r.tensors(root, "inputs", version, &out->inputs) ||
      !r.tensors(root, "outputs", version, &out->outputs) ||
      !r.section(root, "", "weights", &out->weights) || !r.targets(root, version, &out->targets))
    return false;
  if (out->outputs.empty()) return r.fail("outputs", "model has no outputs");
  return check_symbolic_shapes(*out, error);
}

bool evaluate_shape(const TensorDesc &t, const std::vector<int64_t> &values,
                    std::vector<int64_t> *out, uint64_t *bytes) {
  *out = t.dims;
  for (const auto &[dim, expr] : t.symbolic_dims) {
    int64_t v;
    if (!expr.evaluate(values, &v) || v < 0)
      return false;
    (*out)[dim] = v;
  }
  if (!bytes)
    return true;
  *bytes = dtype_byte_size(t.dtype);
  for (int64_t d : *out) {
    if (d != 0 && *bytes > MIE_MAX_TENSOR_BYTES / uint64_t(d))
      return false;
    *bytes *= uint64_t(d);
  }
  return true;
}

bool resolve_reshape(const std::vector<int64_t> &requested, const std::vector<int64_t> &dims,
                     bool allowzero, std::vector<int64_t> *out, std::string *why) {
  auto list = [](const std::vector<int64_t> &v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i)
      s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  };
  const std::string what = list(requested) + " does not reshape " + list(dims) + ": ";
  int64_t total = 1, known = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(total, d, &total)) {
      *why = what + "too many elements";
      return false;
    }
  out->assign(requested.size(), 0);
  int inferred = -1;
  for (size_t i = 0; i < requested.size(); ++i) {
    int64_t v = requested[i];
    if (v == 0 && !allowzero) {
      if (i >= dims.size()) {
        *why = what + "entry " + std::to_string(i) + " copies a dim it does not have";
        return false;
      }
      v = dims[i];
    } else if (v == -1) {
      if (inferred >= 0) {
        *why = what + "more than one -1";
        return false;
      }
      inferred = int(i);
      continue;
    } else if (v < 0) {
      *why = what + "entry " + std::to_string(i) + " is below -1";
      return false;
    }
    (*out)[i] = v;
    if (__builtin_mul_overflow(known, v, &known)) {
      *why = what + "too many elements";
      return false;
    }
  }
  if (inferred >= 0) {
    if (known == 0 || total % known != 0) {
      *why = what + "no size for the -1 keeps " + std::to_string(total) + " elements";
      return false;
    }
    (*out)[size_t(inferred)] = total / known;
  } else if (known != total) {
    *why = what + "the element counts differ";
    return false;
  }
  return true;
}

bool resolve_axes(const std::vector<int64_t> &axes, int64_t rank, std::vector<int64_t> *out,
                  std::string *why) {
  out->clear();
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) {
      *why = "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank);
      return false;
    }
    out->push_back(a < 0 ? a + rank : a);
  }
  std::sort(out->begin(), out->end());
  for (size_t i = 1; i < out->size(); ++i)
    if ((*out)[i] == (*out)[i - 1]) {
      *why = "axis " + std::to_string((*out)[i]) + " is given twice";
      return false;
    }
  return true;
}

// The lexicographically first positions of `longer` whose removal leaves `shorter`, each removed
// dim 1 (the importer's firstRemoval): a table of which suffixes can still match keeps it quadratic
// where backtracking would be exponential in a hostile manifest's dims.
static bool first_removal(const std::vector<int64_t> &longer, const std::vector<int64_t> &shorter,
                          std::vector<int64_t> *removed) {
  const size_t n = longer.size(), m = shorter.size();
  std::vector<char> fits((n + 1) * (m + 1), 0); // longer[i..] can become shorter[j..]
  auto at = [&](size_t i, size_t j) -> char & { return fits[i * (m + 1) + j]; };
  at(n, m) = 1;
  for (size_t i = n; i-- > 0;)
    for (size_t j = 0; j <= m; ++j)
      at(i, j) = (longer[i] == 1 && at(i + 1, j)) ||
                 (j < m && longer[i] == shorter[j] && at(i + 1, j + 1));
  if (!at(0, 0))
    return false;
  removed->clear();
  for (size_t i = 0, j = 0; i < n; ++i) {
    if (longer[i] == 1 && at(i + 1, j))
      removed->push_back(int64_t(i));
    else
      ++j;
  }
  return true;
}

bool canonical_axes(const std::string &op, const std::vector<int64_t> &dims,
                    std::vector<int64_t> *axes, std::string *why) {
  std::vector<int64_t> other; // the shape the axes make
  if (op == "unsqueeze") {
    size_t next = 0;
    for (size_t i = 0; i < dims.size() + axes->size(); ++i)
      other.push_back(std::binary_search(axes->begin(), axes->end(), int64_t(i)) ? 1
                                                                                 : dims[next++]);
  } else {
    for (size_t i = 0; i < dims.size(); ++i) {
      const bool squeezed = std::binary_search(axes->begin(), axes->end(), int64_t(i));
      if (squeezed && dims[i] != 1) {
        *why = "axis " + std::to_string(i) + " squeezes a dim of " + std::to_string(dims[i]);
        return false;
      }
      if (!squeezed)
        other.push_back(dims[i]);
    }
  }
  std::vector<int64_t> first;
  const bool found =
      op == "unsqueeze" ? first_removal(other, dims, &first) : first_removal(dims, other, &first);
  if (found)
    *axes = first;
  return true;
}

bool read_integer_element(mie_dtype dtype, const void *data, uint64_t element, int64_t *out) {
  auto read = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, static_cast<const char *>(data) + element * sizeof(v), sizeof(v));
    return v;
  };
  switch (dtype) {
  case MIE_DTYPE_I8: *out = read(int8_t()); return true;
  case MIE_DTYPE_I16: *out = read(int16_t()); return true;
  case MIE_DTYPE_I32: *out = read(int32_t()); return true;
  case MIE_DTYPE_I64: *out = read(int64_t()); return true;
  case MIE_DTYPE_U8: *out = read(uint8_t()); return true;
  case MIE_DTYPE_U16: *out = read(uint16_t()); return true;
  case MIE_DTYPE_U32: *out = read(uint32_t()); return true;
  case MIE_DTYPE_U64: {
    const uint64_t v = read(uint64_t());
    if (v > uint64_t(INT64_MAX)) return false;
    *out = int64_t(v);
    return true;
  }
  // A float (a OneHot's depth): truncated toward zero, as ONNX casts it.
  case MIE_DTYPE_F32:
  case MIE_DTYPE_F64: {
    const double v = dtype == MIE_DTYPE_F32 ? double(read(float())) : read(double());
    if (!(v > -9.2e18 && v < 9.2e18))
      return false; // NaN, infinite, or beyond int64
    *out = int64_t(v);
    return true;
  }
  default: return false;
  }
}

// A batch symbol (a run may take the batch in slices): every output holds it, and every tensor
// that holds it does so in dim 0 only, as the symbol times factors free of it, so that a slice
// of the batch is one contiguous block of each.
static bool check_batch_symbol(const Manifest &m, size_t s, std::string *error) {
  for (int pass = 0; pass < 2; ++pass)
    for (const TensorDesc &t : pass ? m.outputs : m.inputs) {
      bool holds = false;
      for (const auto &[dim, expr] : t.symbolic_dims) {
        if (!expr.uses_symbol(s))
          continue;
        if (dim != 0 || !expr.is_multiple_of(s)) {
          *error = "symbols[" + std::to_string(s) + "].batch: " + (pass ? "output '" : "input '") +
                   t.name + "' dim " + std::to_string(dim) + " is '" + expr.text() +
                   "', not the batch's dim 0 times a factor free of it";
          return false;
        }
        holds = true;
      }
      if (pass && !holds) {
        *error = "symbols[" + std::to_string(s) + "].batch: output '" + t.name +
                 "' does not hold the batch";
        return false;
      }
    }
  return true;
}

// Every symbol is some input's dim or value (the run's inputs must determine them), and at every
// target's dims each tensor has a valid shape within the limits: the ABI check and the callers'
// buffers rely on it.
bool check_symbolic_shapes(const Manifest &m, std::string *error) {
  for (size_t s = 0; s < m.symbols.size(); ++s) {
    const SymbolDesc &sym = m.symbols[s];
    if (sym.is_value()) {
      const std::string p = "symbols[" + std::to_string(s) + "].value_of: ";
      if (size_t(sym.value_input) >= m.inputs.size()) {
        *error = p + "input " + std::to_string(sym.value_input) + " does not exist (the model has " +
                 std::to_string(m.inputs.size()) + ")";
        return false;
      }
      const TensorDesc &t = m.inputs[size_t(sym.value_input)];
      int64_t probe = 0;
      const int64_t zero = 0;
      if (t.is_symbolic() || !t.dynamic_dims.empty() || sym.value_element >= t.num_elements ||
          !read_integer_element(t.dtype, &zero, 0, &probe)) {
        *error = p + "input '" + t.name + "' has no element " + std::to_string(sym.value_element) +
                 " of a static shape and an integer, f32 or f64 type";
        return false;
      }
      // The reshaped tensor's dims are bound before the value symbols: input dims alone.
      for (const ShapeExpr &e : sym.reshape_of) {
        bool uses_value = false;
        for (size_t k = 0; k < m.symbols.size(); ++k)
          uses_value |= m.symbols[k].is_value() && e.uses_symbol(k);
        if (uses_value) {
          *error = p + "reshape_of '" + e.text() + "' depends on a value symbol";
          return false;
        }
      }
      // The axes of a Squeeze or Unsqueeze of a tensor of input_dims: canonical_axes relies on
      // the rank (the input's elements inserted, or none).
      const uint64_t in_rank = sym.axes_input_dims.size();
      if (!sym.axes_op.empty() &&
          uint64_t(sym.axes_rank) != in_rank + (sym.axes_op == "unsqueeze" ? t.num_elements : 0)) {
        *error = p + "axes_of_rank " + std::to_string(sym.axes_rank) + " is not the rank the " +
                 sym.axes_op + " of " + std::to_string(in_rank) + " dims by " +
                 std::to_string(t.num_elements) + " axes gives";
        return false;
      }
      continue;
    }
    bool bound = false;
    for (const TensorDesc &t : m.inputs)
      for (const auto &[dim, expr] : t.symbolic_dims)
        bound |= expr.single_symbol() == int(s);
    if (!bound) {
      *error = "symbols[" + std::to_string(s) + "]: symbol '" + m.symbols[s].name +
               "' is no input's dim";
      return false;
    }
    if (sym.batch && !check_batch_symbol(m, s, error))
      return false;
  }
  for (size_t i = 0; i < m.targets.size(); ++i) {
    const TargetDesc &target = m.targets[i];
    if (target.dims.empty())
      continue;
    for (int pass = 0; pass < 2; ++pass) {
      const auto &list = pass ? m.outputs : m.inputs;
      for (const TensorDesc &t : list) {
        if (!t.is_symbolic())
          continue;
        std::vector<int64_t> shape;
        uint64_t bytes;
        if (!evaluate_shape(t, target.dims, &shape, &bytes)) {
          *error = "targets[" + std::to_string(i) + "].dims: " + (pass ? "output '" : "input '") +
                   t.name + "' has no valid shape of at most " +
                   std::to_string(MIE_MAX_TENSOR_BYTES) + " bytes there";
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace mie::rt
