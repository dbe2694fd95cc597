// The C API (mie_rt.h): thin handle wrappers around Package and Session plus the thread-local last error.
#include <cstddef>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "format.h"
#include "mie/mie_rt.h"
#include "package.h"
#include "session.h"
#include "../cuda/cuda_driver.h"
#include "signature.h"

struct mie_package {
  std::shared_ptr<const mie::rt::Package> pkg;
};

struct mie_session {
  std::unique_ptr<mie::rt::Session> session;
};

namespace {

thread_local std::string tls_last_error;

// Every entry point starts with Call: it clears the previous message so mie_last_error always describes the
// most recent call on this thread.
struct Call {
  Call() { tls_last_error.clear(); }
  mie_status fail(mie_status s, std::string message) {
    tls_last_error = std::move(message);
    return s;
  }
  mie_status null_arg(const char *fn, const char *arg) {
    return fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": " + arg + " is NULL");
  }
};

void fill_tensor_info(const mie::rt::TensorDesc &t, mie_tensor_info *info) {
  info->name = t.name.c_str();
  info->dtype = t.dtype;
  info->rank = uint32_t(t.dims.size());
  info->dims = t.dims.empty() ? nullptr : t.dims.data();
  info->num_elements = t.num_elements;
  info->byte_size = t.byte_size;
}

mie_status tensor_info(const mie_package *package, uint32_t index, mie_tensor_info *out, bool input) {
  Call c;
  const char *fn = input ? "mie_package_input_info" : "mie_package_output_info";
  if (!package) return c.null_arg(fn, "package");
  if (!out) return c.null_arg(fn, "out_info");
  const auto &list = input ? package->pkg->manifest().inputs : package->pkg->manifest().outputs;
  if (index >= list.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": index " + std::to_string(index) +
                                                " out of range (model has " + std::to_string(list.size()) + ")");
  fill_tensor_info(list[index], out);
  return MIE_OK;
}

template <typename F>
mie_status string_field(const mie_package *package, const char **out, const char *fn, F get) {
  Call c;
  if (!package) return c.null_arg(fn, "package");
  if (!out) return c.null_arg(fn, "out");
  *out = get(package->pkg->manifest()).c_str();
  return MIE_OK;
}

}  // namespace

extern "C" {

const char *mie_runtime_version(void) { return MIE_RT_VERSION_STRING; }

const char *mie_status_string(mie_status status) {
  switch (status) {
    case MIE_OK: return "ok";
    case MIE_ERR_INVALID_ARGUMENT: return "invalid argument";
    case MIE_ERR_IO: return "i/o error";
    case MIE_ERR_INVALID_PACKAGE: return "invalid package";
    case MIE_ERR_UNSUPPORTED: return "unsupported";
    case MIE_ERR_LOAD: return "code load error";
    case MIE_ERR_OUT_OF_MEMORY: return "out of memory";
    case MIE_ERR_KERNEL: return "kernel error";
    case MIE_ERR_NOT_FOUND: return "not found";
    case MIE_ERR_SIGNATURE: return "signature refused";
  }
  return "unknown status";
}

const char *mie_last_error(void) { return tls_last_error.c_str(); }
// C callers (and ctypes) may pass any int where a mie_dtype is expected, and in C++ reading a value outside
// the enumerators' range through the enum type is undefined: read the parameter's bytes as an int instead.
static mie_dtype checked_dtype(const mie_dtype &dtype) {
  int value;
  static_assert(sizeof value == sizeof dtype, "mie_dtype is int-sized");
  std::memcpy(&value, &dtype, sizeof value);
  return value >= MIE_DTYPE_F32 && value <= MIE_DTYPE_LAST ? mie_dtype(value) : MIE_DTYPE_INVALID;
}
const char *mie_dtype_name(mie_dtype dtype) { return mie::rt::dtype_to_name(checked_dtype(dtype)); }
size_t mie_dtype_size(mie_dtype dtype) { return mie::rt::dtype_byte_size(checked_dtype(dtype)); }

mie_status mie_package_options_init(mie_package_options *options) {
  Call c;
  if (!options) return c.null_arg("mie_package_options_init", "options");
  *options = mie_package_options();
  options->struct_size = sizeof(mie_package_options);
  return MIE_OK;
}

mie_status mie_package_open_with_options(const char *path, const mie_package_options *options,
                                         mie_package **out_package) {
  Call c;
  const char *fn = "mie_package_open_with_options";
  if (!path) return c.null_arg(fn, "path");
  if (!out_package) return c.null_arg(fn, "out_package");
  *out_package = nullptr;
  mie::rt::SignaturePolicy policy;
  if (options) {
    // struct_size lets the struct grow: fields past what the caller's header had read as zero. A larger
    // struct than this runtime knows may carry a stricter policy it cannot apply, so it is refused.
    if (options->struct_size == 0)
      return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": options->struct_size is 0 (call mie_package_options_init)");
    if (options->struct_size > sizeof(mie_package_options))
      return c.fail(MIE_ERR_UNSUPPORTED, std::string(fn) + ": options->struct_size is " +
                                             std::to_string(options->struct_size) + ", this runtime knows " +
                                             std::to_string(sizeof(mie_package_options)) + " bytes of options");
    auto has = [&](size_t offset, size_t size) { return options->struct_size >= offset + size; };
    const uint32_t n = has(offsetof(mie_package_options, num_trusted_keys), 4) ? options->num_trusted_keys : 0;
    const uint8_t *keys = has(offsetof(mie_package_options, trusted_keys), sizeof(void *)) ? options->trusted_keys : nullptr;
    if (n > 0 && !keys)
      return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": num_trusted_keys is " + std::to_string(n) +
                                                  " but trusted_keys is NULL");
    for (uint32_t i = 0; i < n; ++i) {
      mie::rt::PublicKey key;
      std::memcpy(key.data(), keys + size_t(i) * MIE_PUBLIC_KEY_BYTES, MIE_PUBLIC_KEY_BYTES);
      if (!mie::rt::ed25519_public_key_valid(key.data()))
        return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": trusted key " + std::to_string(i) +
                                                    " is not a valid Ed25519 public key");
      policy.trusted_keys.push_back(key);
    }
    policy.require = has(offsetof(mie_package_options, require_signature), 4) && options->require_signature != 0;
  }
  // The environment's keys join the caller's and make a signature required (mie_rt.h).
  if (const char *env = std::getenv("MIE_TRUSTED_KEYS"); env && *env) {
    const std::string list = env;
    size_t before = policy.trusted_keys.size();
    for (size_t begin = 0; begin <= list.size();) {
      size_t end = list.find(':', begin);
      if (end == std::string::npos) end = list.size();
      if (end > begin) {
        mie::rt::PublicKey key;
        std::string error;
        if (mie::rt::read_public_key_file(list.substr(begin, end - begin), &key, &error) != MIE_OK)
          return c.fail(MIE_ERR_INVALID_ARGUMENT, "MIE_TRUSTED_KEYS: " + error);
        policy.trusted_keys.push_back(key);
      }
      begin = end + 1;
    }
    if (policy.trusted_keys.size() == before)
      return c.fail(MIE_ERR_INVALID_ARGUMENT, "MIE_TRUSTED_KEYS is set but names no key file");
    policy.require = true;
  }
  if (policy.require && policy.trusted_keys.empty())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": a signature is required but no trusted keys are given");
  std::shared_ptr<const mie::rt::Package> pkg;
  std::string error;
  mie_status s = mie::rt::Package::open(path, policy, &pkg, &error);
  if (s != MIE_OK) return c.fail(s, error);
  *out_package = new mie_package{std::move(pkg)};
  return MIE_OK;
}

mie_status mie_package_open(const char *path, mie_package **out_package) {
  Call c;
  if (!path) return c.null_arg("mie_package_open", "path");
  if (!out_package) return c.null_arg("mie_package_open", "out_package");
  return mie_package_open_with_options(path, nullptr, out_package);
}

mie_status mie_package_signature(const mie_package *package, mie_signature_state *out_state, uint8_t *out_key) {
  Call c;
  if (!package) return c.null_arg("mie_package_signature", "package");
  if (!out_state) return c.null_arg("mie_package_signature", "out_state");
  const mie::rt::SignatureState &sig = package->pkg->signature();
  *out_state = !sig.present ? MIE_SIGNATURE_NONE : sig.trusted ? MIE_SIGNATURE_TRUSTED : MIE_SIGNATURE_PRESENT;
  if (out_key) {
    if (sig.present) std::memcpy(out_key, sig.key.data(), MIE_PUBLIC_KEY_BYTES);
    else std::memset(out_key, 0, MIE_PUBLIC_KEY_BYTES);
  }
  return MIE_OK;
}

mie_status mie_public_key_read(const char *path, uint8_t *out_key) {
  Call c;
  if (!path) return c.null_arg("mie_public_key_read", "path");
  if (!out_key) return c.null_arg("mie_public_key_read", "out_key");
  mie::rt::PublicKey key;
  std::string error;
  if (mie_status s = mie::rt::read_public_key_file(path, &key, &error); s != MIE_OK) return c.fail(s, error);
  std::memcpy(out_key, key.data(), MIE_PUBLIC_KEY_BYTES);
  return MIE_OK;
}

mie_status mie_package_close(mie_package *package) {
  Call c;
  delete package;  // sessions keep their own reference to the mapping
  return MIE_OK;
}

mie_status mie_package_model_name(const mie_package *p, const char **out) {
  return string_field(p, out, "mie_package_model_name", [](const mie::rt::Manifest &m) -> const std::string & { return m.model; });
}
mie_status mie_package_precision(const mie_package *p, const char **out) {
  return string_field(p, out, "mie_package_precision", [](const mie::rt::Manifest &m) -> const std::string & { return m.precision; });
}
mie_status mie_package_compiler(const mie_package *p, const char **out) {
  return string_field(p, out, "mie_package_compiler", [](const mie::rt::Manifest &m) -> const std::string & { return m.compiler; });
}

mie_status mie_package_manifest_json(const mie_package *package, const char **out_json, size_t *out_size) {
  Call c;
  if (!package) return c.null_arg("mie_package_manifest_json", "package");
  if (!out_json) return c.null_arg("mie_package_manifest_json", "out_json");
  *out_json = package->pkg->manifest_text().c_str();
  if (out_size) *out_size = package->pkg->manifest_text().size();
  return MIE_OK;
}

mie_status mie_package_weights(const mie_package *package, const void **out_data, uint64_t *out_size) {
  Call c;
  if (!package) return c.null_arg("mie_package_weights", "package");
  if (!out_data) return c.null_arg("mie_package_weights", "out_data");
  *out_data = package->pkg->weights();
  if (out_size) *out_size = package->pkg->manifest().weights.size;
  return MIE_OK;
}

mie_status mie_package_num_inputs(const mie_package *package, uint32_t *out_count) {
  Call c;
  if (!package) return c.null_arg("mie_package_num_inputs", "package");
  if (!out_count) return c.null_arg("mie_package_num_inputs", "out_count");
  *out_count = uint32_t(package->pkg->manifest().inputs.size());
  return MIE_OK;
}

mie_status mie_package_num_outputs(const mie_package *package, uint32_t *out_count) {
  Call c;
  if (!package) return c.null_arg("mie_package_num_outputs", "package");
  if (!out_count) return c.null_arg("mie_package_num_outputs", "out_count");
  *out_count = uint32_t(package->pkg->manifest().outputs.size());
  return MIE_OK;
}

mie_status mie_package_input_info(const mie_package *package, uint32_t index, mie_tensor_info *out_info) {
  return tensor_info(package, index, out_info, true);
}

mie_status mie_package_output_info(const mie_package *package, uint32_t index, mie_tensor_info *out_info) {
  return tensor_info(package, index, out_info, false);
}

mie_status mie_package_output_dynamic_dims(const mie_package *package, uint32_t index, uint32_t *out_count,
                                           const uint32_t **out_dims) {
  Call c;
  const char *fn = "mie_package_output_dynamic_dims";
  if (!package) return c.null_arg(fn, "package");
  if (!out_count) return c.null_arg(fn, "out_count");
  if (!out_dims) return c.null_arg(fn, "out_dims");
  const auto &list = package->pkg->manifest().outputs;
  if (index >= list.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": index " + std::to_string(index) +
                                                " out of range (model has " + std::to_string(list.size()) + ")");
  const auto &dims = list[index].dynamic_dims;
  *out_count = uint32_t(dims.size());
  *out_dims = dims.empty() ? nullptr : dims.data();
  return MIE_OK;
}

mie_status mie_package_num_symbols(const mie_package *package, uint32_t *out_count) {
  Call c;
  if (!package)
    return c.null_arg("mie_package_num_symbols", "package");
  if (!out_count)
    return c.null_arg("mie_package_num_symbols", "out_count");
  *out_count = uint32_t(package->pkg->manifest().symbols.size());
  return MIE_OK;
}

mie_status mie_package_symbol_info(const mie_package *package, uint32_t index,
                                   const char **out_name, int64_t *out_min, int64_t *out_max) {
  Call c;
  const char *fn = "mie_package_symbol_info";
  if (!package)
    return c.null_arg(fn, "package");
  const auto &list = package->pkg->manifest().symbols;
  if (index >= list.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": index " + std::to_string(index) +
                                                " out of range (package has " +
                                                std::to_string(list.size()) + " symbols)");
  if (out_name)
    *out_name = list[index].name.c_str();
  if (out_min)
    *out_min = list[index].min;
  if (out_max)
    *out_max = list[index].max;
  return MIE_OK;
}

mie_status mie_package_symbol_value_of(const mie_package *package, uint32_t index,
                                       int32_t *out_input, uint64_t *out_element) {
  Call c;
  const char *fn = "mie_package_symbol_value_of";
  if (!package)
    return c.null_arg(fn, "package");
  if (!out_input)
    return c.null_arg(fn, "out_input");
  const auto &list = package->pkg->manifest().symbols;
  if (index >= list.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": index " + std::to_string(index) +
                                                " out of range (package has " +
                                                std::to_string(list.size()) + " symbols)");
  *out_input = list[index].value_input;
  if (out_element)
    *out_element = list[index].is_value() ? list[index].value_element : 0;
  return MIE_OK;
}

} // extern "C"

namespace {

mie_status symbolic_dim(const mie_package *package, uint32_t index, uint32_t dim,
                        const char **out_expr, bool input) {
  Call c;
  const char *fn = input ? "mie_package_input_symbolic_dim" : "mie_package_output_symbolic_dim";
  if (!package)
    return c.null_arg(fn, "package");
  if (!out_expr)
    return c.null_arg(fn, "out_expr");
  const auto &list = input ? package->pkg->manifest().inputs : package->pkg->manifest().outputs;
  if (index >= list.size() || dim >= list[index].dims.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT,
                  std::string(fn) + ": " +
                      (index >= list.size() ? "index " + std::to_string(index)
                                            : "dim " + std::to_string(dim)) +
                      " out of range");
  *out_expr = "";
  for (const auto &[at, expr] : list[index].symbolic_dims)
    if (at == dim)
      *out_expr = expr.text().c_str();
  return MIE_OK;
}

} // namespace

extern "C" {

mie_status mie_package_input_symbolic_dim(const mie_package *package, uint32_t index, uint32_t dim,
                                          const char **out_expr) {
  return symbolic_dim(package, index, dim, out_expr, true);
}

mie_status mie_package_output_symbolic_dim(const mie_package *package, uint32_t index, uint32_t dim,
                                           const char **out_expr) {
  return symbolic_dim(package, index, dim, out_expr, false);
}

mie_status mie_package_target_dims(const mie_package *package, uint32_t index, uint32_t *out_count,
                                   const int64_t **out_dims) {
  Call c;
  const char *fn = "mie_package_target_dims";
  if (!package)
    return c.null_arg(fn, "package");
  if (!out_count)
    return c.null_arg(fn, "out_count");
  if (!out_dims)
    return c.null_arg(fn, "out_dims");
  const auto &targets = package->pkg->manifest().targets;
  if (index >= targets.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": index " + std::to_string(index) +
                                                " out of range (package has " +
                                                std::to_string(targets.size()) + ")");
  *out_count = uint32_t(targets[index].dims.size());
  *out_dims = targets[index].dims.empty() ? nullptr : targets[index].dims.data();
  return MIE_OK;
}

mie_status mie_package_num_targets(const mie_package *package, uint32_t *out_count) {
  Call c;
  if (!package) return c.null_arg("mie_package_num_targets", "package");
  if (!out_count) return c.null_arg("mie_package_num_targets", "out_count");
  *out_count = uint32_t(package->pkg->manifest().targets.size());
  return MIE_OK;
}

mie_status mie_package_target_info(const mie_package *package, uint32_t index, mie_target_info *out_info) {
  Call c;
  if (!package) return c.null_arg("mie_package_target_info", "package");
  if (!out_info) return c.null_arg("mie_package_target_info", "out_info");
  const auto &targets = package->pkg->manifest().targets;
  if (index >= targets.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, "mie_package_target_info: index " + std::to_string(index) +
                                                " out of range (package has " + std::to_string(targets.size()) + ")");
  const auto &t = targets[index];
  out_info->name = t.name.c_str();
  out_info->kind = t.kind.c_str();
  out_info->arch = t.arch.c_str();
  out_info->features = t.features.c_str();
  out_info->format = t.format.c_str();
  out_info->entry = t.entry.c_str();
  out_info->abi_version = t.abi_version;
  out_info->arena_bytes = t.arena_bytes;
  out_info->code_size = t.code.size;
  std::string why;
  out_info->runnable_here = mie::rt::target_runnable_here(t, false, &why) ? 1 : 0;
  return MIE_OK;
}

mie_status mie_cuda_device(const char **out_description) {
  Call c;
  if (!out_description) return c.null_arg("mie_cuda_device", "out_description");
  std::string why;
  const mie::rt::cuda::Driver *d = mie::rt::cuda::load_driver(&why);
  mie::rt::cuda::Device dev;
  if (!d || !mie::rt::cuda::find_device(*d, &dev, &why)) return c.fail(MIE_ERR_UNSUPPORTED, why);
  static thread_local std::string description;
  description = dev.name + ", sm_" + std::to_string(dev.sm) + ", device " + std::to_string(dev.ordinal) +
                ", driver " + std::to_string(d->version);
  *out_description = description.c_str();
  return MIE_OK;
}

mie_status mie_package_target_check(const mie_package *package, uint32_t index, int32_t *out_runnable,
                                    const char **out_reason) {
  Call c;
  if (!package) return c.null_arg("mie_package_target_check", "package");
  const auto &targets = package->pkg->manifest().targets;
  if (index >= targets.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, "mie_package_target_check: index " + std::to_string(index) +
                                                " out of range (package has " + std::to_string(targets.size()) + ")");
  static thread_local std::string reason;
  reason.clear();
  const bool ok = mie::rt::target_runnable_here(targets[index], false, &reason);
  if (ok) reason.clear();
  if (out_runnable) *out_runnable = ok ? 1 : 0;
  if (out_reason) *out_reason = reason.c_str();
  return MIE_OK;
}

mie_status mie_package_arena_bytes(const mie_package *package, const char *target, uint64_t *out_bytes) {
  Call c;
  if (!package) return c.null_arg("mie_package_arena_bytes", "package");
  if (!out_bytes) return c.null_arg("mie_package_arena_bytes", "out_bytes");
  const mie::rt::TargetDesc *t = nullptr;
  if (target) {
    t = package->pkg->find_target(target);
    if (!t) return c.fail(MIE_ERR_NOT_FOUND, "package '" + package->pkg->path() + "': no target named '" + target + "'");
  } else {
    mie_status s = MIE_OK;
    std::string error;
    t = mie::rt::select_target(*package->pkg, nullptr, &s, &error);
    if (!t) return c.fail(s, error);
  }
  // A package with symbolic dims: the largest specialization's arena, what a session running every
  // shape of the package may grow to.
  uint64_t bytes = 0;
  for (const auto &other : package->pkg->manifest().targets)
    if (other.name == t->name) bytes = std::max(bytes, other.arena_bytes);
  *out_bytes = bytes;
  return MIE_OK;
}

mie_status mie_session_options_init(mie_session_options *options) {
  Call c;
  if (!options) return c.null_arg("mie_session_options_init", "options");
  options->num_threads = 0;
  options->target = nullptr;
  return MIE_OK;
}

mie_status mie_session_create(mie_package *package, const mie_session_options *options, mie_session **out_session) {
  Call c;
  if (!package) return c.null_arg("mie_session_create", "package");
  if (!out_session) return c.null_arg("mie_session_create", "out_session");
  *out_session = nullptr;
  std::unique_ptr<mie::rt::Session> session;
  std::string error;
  mie_status s = mie::rt::Session::create(package->pkg, options, &session, &error);
  if (s != MIE_OK) return c.fail(s, error);
  *out_session = new mie_session{std::move(session)};
  return MIE_OK;
}

mie_status mie_session_destroy(mie_session *session) {
  Call c;
  delete session;
  return MIE_OK;
}

mie_status mie_session_run(mie_session *session, const void *const *inputs, void *const *outputs) {
  Call c;
  if (!session) return c.null_arg("mie_session_run", "session");
  std::string error;
  mie_status s = session->session->run(inputs, outputs, &error);
  if (s != MIE_OK) return c.fail(s, error);
  return MIE_OK;
}

mie_status mie_session_run_sized(mie_session *session, uint32_t num_inputs, const void *const *inputs,
                                 const uint64_t *input_bytes, uint32_t num_outputs, void *const *outputs,
                                 const uint64_t *output_bytes) {
  Call c;
  if (!session) return c.null_arg("mie_session_run_sized", "session");
  std::string error;
  mie_status s =
      session->session->run_sized(num_inputs, inputs, input_bytes, num_outputs, outputs, output_bytes, &error);
  if (s != MIE_OK) return c.fail(s, error);
  return MIE_OK;
}

mie_status mie_session_set_threads(mie_session *session, uint32_t num_threads) {
  Call c;
  if (!session) return c.null_arg("mie_session_set_threads", "session");
  std::string error;
  mie_status s = session->session->set_threads(num_threads, &error);
  if (s != MIE_OK) return c.fail(s, error);
  return MIE_OK;
}

mie_status mie_session_num_threads(const mie_session *session, uint32_t *out_threads) {
  Call c;
  if (!session) return c.null_arg("mie_session_num_threads", "session");
  if (!out_threads) return c.null_arg("mie_session_num_threads", "out_threads");
  *out_threads = session->session->num_threads();
  return MIE_OK;
}

mie_status mie_session_target(const mie_session *session, const char **out_target_name) {
  Call c;
  if (!session) return c.null_arg("mie_session_target", "session");
  if (!out_target_name) return c.null_arg("mie_session_target", "out_target_name");
  *out_target_name = session->session->target().name.c_str();
  return MIE_OK;
}

mie_status mie_session_device(const mie_session *session, const char **out_device) {
  Call c;
  if (!session) return c.null_arg("mie_session_device", "session");
  if (!out_device) return c.null_arg("mie_session_device", "out_device");
  *out_device = session->session->device().c_str();
  return MIE_OK;
}

mie_status mie_session_set_input_shapes(mie_session *session, uint32_t num_inputs,
                                        const uint32_t *ranks, const int64_t *const *dims) {
  Call c;
  if (!session)
    return c.null_arg("mie_session_set_input_shapes", "session");
  std::string error;
  mie_status s = session->session->set_input_shapes(num_inputs, ranks, dims, &error);
  if (s != MIE_OK)
    c.fail(s, error);
  return s;
}

mie_status mie_session_bind_inputs(mie_session *session, uint32_t num_inputs,
                                   const uint32_t *ranks, const int64_t *const *dims,
                                   const void *const *data) {
  Call c;
  if (!session)
    return c.null_arg("mie_session_bind_inputs", "session");
  std::string error;
  mie_status s = session->session->bind_inputs(num_inputs, ranks, dims, data, &error);
  if (s != MIE_OK)
    c.fail(s, error);
  return s;
}

mie_status mie_session_symbol_value(const mie_session *session, uint32_t index,
                                    int64_t *out_value) {
  Call c;
  const char *fn = "mie_session_symbol_value";
  if (!session)
    return c.null_arg(fn, "session");
  if (!out_value)
    return c.null_arg(fn, "out_value");
  const std::vector<int64_t> &values = session->session->symbol_values();
  if (index >= values.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT,
                  std::string(fn) + ": index " + std::to_string(index) + " out of range (" +
                      std::to_string(values.size()) + " symbols bound)");
  *out_value = values[index];
  return MIE_OK;
}

mie_status mie_session_input_shape(const mie_session *session, uint32_t index, uint32_t *out_rank,
                                   const int64_t **out_dims) {
  Call c;
  const char *fn = "mie_session_input_shape";
  if (!session)
    return c.null_arg(fn, "session");
  if (!out_rank)
    return c.null_arg(fn, "out_rank");
  if (!out_dims)
    return c.null_arg(fn, "out_dims");
  const size_t count = session->session->num_inputs();
  if (index >= count)
    return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": index " + std::to_string(index) +
                                                " out of range (model has " +
                                                std::to_string(count) + ")");
  const std::vector<int64_t> &shape = session->session->input_shape(index);
  *out_rank = uint32_t(shape.size());
  *out_dims = shape.empty() ? nullptr : shape.data();
  return MIE_OK;
}

mie_status mie_session_output_shape(const mie_session *session, uint32_t index, uint32_t *out_rank,
                                    const int64_t **out_dims) {
  Call c;
  const char *fn = "mie_session_output_shape";
  if (!session) return c.null_arg(fn, "session");
  if (!out_rank) return c.null_arg(fn, "out_rank");
  if (!out_dims) return c.null_arg(fn, "out_dims");
  const size_t count = session->session->num_outputs();
  if (index >= count)
    return c.fail(MIE_ERR_INVALID_ARGUMENT, std::string(fn) + ": index " + std::to_string(index) +
                                                " out of range (model has " + std::to_string(count) + ")");
  const std::vector<int64_t> &shape = session->session->output_shape(index);
  *out_rank = uint32_t(shape.size());
  *out_dims = shape.empty() ? nullptr : shape.data();
  return MIE_OK;
}

mie_status mie_session_last_run_ns(const mie_session *session, uint64_t *out_ns) {
  Call c;
  if (!session) return c.null_arg("mie_session_last_run_ns", "session");
  if (!out_ns) return c.null_arg("mie_session_last_run_ns", "out_ns");
  *out_ns = session->session->last_run_ns();
  return MIE_OK;
}

mie_status mie_session_arena_bytes(const mie_session *session, uint64_t *out_bytes) {
  Call c;
  if (!session)
    return c.null_arg("mie_session_arena_bytes", "session");
  if (!out_bytes)
    return c.null_arg("mie_session_arena_bytes", "out_bytes");
  *out_bytes = session->session->run_arena_bytes();
  return MIE_OK;
}

mie_status mie_session_set_batch_slice(mie_session *session, int64_t slice) {
  Call c;
  if (!session) return c.null_arg("mie_session_set_batch_slice", "session");
  std::string error;
  mie_status s = session->session->set_batch_slice(slice, &error);
  if (s != MIE_OK) return c.fail(s, error);
  return MIE_OK;
}

mie_status mie_session_batch_slice(const mie_session *session, int64_t *out_slice) {
  Call c;
  if (!session) return c.null_arg("mie_session_batch_slice", "session");
  if (!out_slice) return c.null_arg("mie_session_batch_slice", "out_slice");
  *out_slice = session->session->batch_slice();
  return MIE_OK;
}

mie_status mie_session_num_kernels(const mie_session *session, uint32_t *out_count) {
  Call c;
  if (!session) return c.null_arg("mie_session_num_kernels", "session");
  if (!out_count) return c.null_arg("mie_session_num_kernels", "out_count");
  *out_count = uint32_t(session->session->target().kernels.size());
  return MIE_OK;
}

mie_status mie_session_kernel_info(const mie_session *session, uint32_t index, mie_kernel_info *out_info) {
  Call c;
  if (!session) return c.null_arg("mie_session_kernel_info", "session");
  if (!out_info) return c.null_arg("mie_session_kernel_info", "out_info");
  const auto &kernels = session->session->target().kernels;
  if (index >= kernels.size())
    return c.fail(MIE_ERR_INVALID_ARGUMENT, "mie_session_kernel_info: index " + std::to_string(index) +
                                                " is out of range (the target has " +
                                                std::to_string(kernels.size()) + " kernels)");
  const auto &k = kernels[index];
  out_info->name = k.name.c_str();
  out_info->nodes = k.nodes.c_str();
  out_info->flops = k.flops;
  return MIE_OK;
}

mie_status mie_session_set_profiler(mie_session *session, mie_profile_callback callback, void *user) {
  Call c;
  if (!session) return c.null_arg("mie_session_set_profiler", "session");
  std::string error;
  mie_status s = session->session->set_profiler(callback, user, &error);
  if (s != MIE_OK) return c.fail(s, error);
  return MIE_OK;
}

mie_status mie_session_set_poison_dead_buffers(mie_session *session, int enable) {
  Call c;
  if (!session) return c.null_arg("mie_session_set_poison_dead_buffers", "session");
  std::string error;
  mie_status s = session->session->set_poison_dead_buffers(enable != 0, &error);
  if (s != MIE_OK) return c.fail(s, error);
  return MIE_OK;
}

mie_status mie_session_set_random_seed(mie_session *session, uint64_t seed) {
  Call c;
  if (!session) return c.null_arg("mie_session_set_random_seed", "session");
  session->session->set_random_seed(seed);
  return MIE_OK;
}

} // extern "C"
