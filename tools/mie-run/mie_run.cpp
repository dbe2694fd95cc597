#include "mie_run.h"

#include "profile.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/utsname.h>

#include "core/signature.h"
#include "mie/mie_rt.h"
#include "mie/mie_tensor_io.h"

namespace mie::run {
namespace {

// Why the session runs `chosen`: the user's choice, or the automatic rule and what it skipped.
std::string selection_reason(const std::string &requested, const char *chosen, const char *device,
                             const mie_package *package) {
  const char *env = std::getenv("MIE_TARGET");
  if (!requested.empty()) return "--target " + requested;
  if (env && env[0]) return std::string("MIE_TARGET=") + env;
  uint32_t n = 0;
  mie_package_num_targets(package, &n);
  std::string chosen_kind, skipped_cuda;
  bool has_cuda = false;
  for (uint32_t i = 0; i < n; ++i) {
    mie_target_info t;
    if (mie_package_target_info(package, i, &t) != MIE_OK) continue;
    if (std::strcmp(t.name, chosen) == 0) chosen_kind = t.kind;
    if (std::strcmp(t.kind, "cuda") != 0) continue;
    has_cuda = true;
    int32_t runnable = 0;
    const char *why = "";
    mie_package_target_check(package, i, &runnable, &why);
    if (!runnable && skipped_cuda.empty()) skipped_cuda = std::string("'") + t.name + "': " + why;
  }
  if (chosen_kind == "cuda") return "automatic: a CUDA device runs it, and cuda targets rank above cpu ones";
  if (std::strncmp(device, "cpu; ", 5) == 0) return std::string("automatic: the best cpu target, as the ") + (device + 5);
  if (has_cuda)
    return "automatic: the best cpu target for this host; no cuda target runs here (" +
           (skipped_cuda.empty() ? std::string("none is runnable") : skipped_cuda) + ")";
  return "automatic: the best cpu target for this host (the package has no cuda target)";
}

const char kUsage[] =
    "usage: mie-run model.mie [options]\n"
    "  --input [NAME=]FILE    input tensor (.npy or ONNX TensorProto .pb); without NAME= inputs "
    "are taken in\n"
    "                         the model's order\n"
    "  --output [NAME=]FILE   write an output as .npy; without NAME= outputs are taken in the "
    "model's order\n"
    "  --benchmark N          after one warmup run, time N runs and print min/median/mean\n"
    "  --threads N            worker threads including the caller (default: all CPUs)\n"
    "  --batch-slice N|auto|off  a package whose samples are independent (a batch symbol) runs a "
    "larger\n"
    "                         batch in slices of N samples, whose activations stay in the cache; "
    "default:\n"
    "                         $MIE_BATCH_SLICE when set, else auto (the runtime chooses per "
    "shape)\n"
    "  --seed N               draw random numbers (RandomUniform, RandomNormal, Bernoulli, ...) "
    "from seed N\n"
    "                         (0 to 2^64-1): the same outputs every time; default: a new key per "
    "run of the tool\n"
    "  --target NAME|KIND     run this package target, or the best one of a kind: cpu, cuda (or "
    "gpu); default:\n"
    "                         $MIE_TARGET when set, else the best one for this host: a cuda target "
    "when a CUDA\n"
    "                         device can run one, else the most specialized cpu target\n"
    "  -v, --verbose          also say why each other target of the package was not chosen\n"
    "  --devices              print what this machine can run packages on (the CPU and the CUDA "
    "device, or why\n"
    "                         there is none) and exit\n"
    "  --trusted-key FILE     trust packages signed with this Ed25519 public key (NAME.pub from "
    "mie-sign);\n"
    "                         repeatable; a signed package must then be signed by one of them\n"
    "  --require-signature    refuse a package that is not signed by a trusted key (needs "
    "--trusted-key or\n"
    "                         MIE_TRUSTED_KEYS)\n"
    "  --print                print shape, first values and min/max/mean of every output\n"
    "  --profile              time every kernel over the --benchmark runs (default 20): time, "
    "share, GFLOP/s\n"
    "                         and % of this machine's FMA peak (measured first), with its ONNX "
    "nodes\n"
    "  --trace FILE.json      write the profiled runs' kernels as a Chrome trace "
    "(chrome://tracing, Perfetto);\n"
    "                         implies --profile\n"
    "  --poison-dead-buffers  debug the memory plan: fill the arena with NaN before the run and a "
    "buffer's bytes\n"
    "                         again after the last kernel that uses it; a wrong plan shows as NaN "
    "outputs\n"
    "  --help                 show this help\n"
    "  --version              print the version (the project's: runtime, compiler and tools share "
    "it)\n";

struct Options {
  std::string model;
  std::vector<std::string> inputs, outputs;
  long benchmark = 0;
  long threads = 0;
  std::string target;
  std::vector<std::string> trusted_keys;
  bool require_signature = false;
  bool print = false;
  bool verbose = false;
  bool devices = false;
  bool help = false;
  bool version = false;
  bool profile = false;
  bool poison = false;
  bool seeded = false;
  bool batch_slice_given = false;
  int64_t batch_slice = -1; // --batch-slice: -1 auto, 0 off, N
  unsigned long long seed = 0;
  std::string trace;
};

// Caller buffers: 64-byte aligned (vector<uint8_t> only guarantees 16), so generated SIMD code is never slowed
// by the tool's allocations.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer(Buffer &&o) noexcept : p_(o.p_), size_(o.size_) { o.p_ = nullptr; }
  ~Buffer() { std::free(p_); }
  bool allocate(uint64_t size) {
    size_ = size;
    if (size == 0) return true;
    if (size > SIZE_MAX - 63 || posix_memalign(&p_, 64, size_t((size + 63) / 64 * 64)) != 0) {
      p_ = nullptr;
      return false;
    }
    std::memset(p_, 0, size_t(size));
    return true;
  }
  void *data() const { return p_; }
  uint64_t size() const { return size_; }

 private:
  void *p_ = nullptr;
  uint64_t size_ = 0;
};

class Runner {
 public:
  Runner(FILE *out, FILE *err) : out_(out), err_(err) {}
  ~Runner() {
    mie_session_destroy(session_);
    mie_package_close(package_);
  }
  int main(int argc, char **argv);

 private:
  int fail(const std::string &message) {
    std::fprintf(err_, "mie-run: error: %s\n", message.c_str());
    return 1;
  }
  bool parse_args(int argc, char **argv, Options *o, std::string *error);
  std::string describe(const std::vector<mie_tensor_info> &list);
  std::string shape_text(const mie_tensor_info &t);
  // Splits "NAME=path" when NAME is one of `names`; otherwise the whole spec is a path.
  static bool split_named(const std::string &spec, const std::vector<mie_tensor_info> &names, std::string *name,
                          std::string *path);
  bool assign(const std::vector<std::string> &specs, const std::vector<mie_tensor_info> &list, const char *what,
              std::vector<std::string> *paths, std::string *error);
  void print_summary(const mie_tensor_info &info, const void *data);

  FILE *out_, *err_;
  mie_package *package_ = nullptr;
  mie_session *session_ = nullptr;
};

bool parse_count(const char *text, long min, long *out) {
  const char *end = text + std::strlen(text);
  auto r = std::from_chars(text, end, *out);
  return r.ec == std::errc() && r.ptr == end && *out >= min;
}

bool Runner::parse_args(int argc, char **argv, Options *o, std::string *error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_inline_value = false;
    if (arg.rfind("--", 0) == 0) {
      const size_t eq = arg.find('=');
      // "--input=x=a.npy" is "--input" with value "x=a.npy".
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        has_inline_value = true;
      }
    }
    auto need_value = [&](const char *flag) {
      if (has_inline_value) return true;
      if (i + 1 >= argc) {
        *error = std::string(flag) + " needs a value";
        return false;
      }
      value = argv[++i];
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      o->help = true;
    } else if (arg == "--version") {
      o->version = true;
    } else if (arg == "--require-signature") {
      o->require_signature = true;
    } else if (arg == "--trusted-key") {
      if (!need_value("--trusted-key")) return false;
      if (value.empty()) {
        *error = "--trusted-key needs a public key file";
        return false;
      }
      o->trusted_keys.push_back(value);
    } else if (arg == "--devices") {
      o->devices = true;
    } else if (arg == "-v" || arg == "--verbose") {
      o->verbose = true;
    } else if (arg == "--print") {
      o->print = true;
    } else if (arg == "--profile") {
      o->profile = true;
    } else if (arg == "--poison-dead-buffers") {
      o->poison = true;
    } else if (arg == "--trace") {
      if (!need_value("--trace")) return false;
      if (value.empty()) {
        *error = "--trace needs a file name";
        return false;
      }
      o->trace = value;
      o->profile = true;
    } else if (arg == "--input") {
      if (!need_value("--input")) return false;
      o->inputs.push_back(value);
    } else if (arg == "--output") {
      if (!need_value("--output")) return false;
      o->outputs.push_back(value);
    } else if (arg == "--benchmark") {
      if (!need_value("--benchmark")) return false;
      if (!parse_count(value.c_str(), 1, &o->benchmark)) {
        *error = "--benchmark needs a positive integer, got '" + value + "'";
        return false;
      }
    } else if (arg == "--threads") {
      if (!need_value("--threads")) return false;
      if (!parse_count(value.c_str(), 0, &o->threads) || o->threads > 1024) {
        *error = "--threads needs an integer from 0 (all CPUs) to 1024, got '" + value + "'";
        return false;
      }
    } else if (arg == "--batch-slice") {
      if (!need_value("--batch-slice"))
        return false;
      long n = 0;
      if (value == "auto") {
        o->batch_slice = -1;
      } else if (value == "off") {
        o->batch_slice = 0;
      } else if (parse_count(value.c_str(), 1, &n) && n <= INT32_MAX) {
        o->batch_slice = int64_t(n);
      } else {
        *error =
            "--batch-slice needs auto, off or a positive number of samples, got '" + value + "'";
        return false;
      }
      o->batch_slice_given = true;
    } else if (arg == "--seed") {
      if (!need_value("--seed")) return false;
      char *end = nullptr;
      errno = 0;
      o->seed = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || value[0] == '-' || *end != '\0' || errno == ERANGE) {
        *error = "--seed needs an integer from 0 to 2^64-1, got '" + value + "'";
        return false;
      }
      o->seeded = true;
    } else if (arg == "--target") {
      if (!need_value("--target")) return false;
      o->target = value;
    } else if (arg.size() > 1 && arg[0] == '-') {
      *error = "unknown option '" + arg + "' (see --help)";
      return false;
    } else if (o->model.empty()) {
      o->model = arg;
    } else {
      *error = "unexpected argument '" + arg + "' (only one model; inputs go after --input)";
      return false;
    }
  }
  return true;
}

std::string Runner::describe(const std::vector<mie_tensor_info> &list) {
  std::string s;
  for (const auto &t : list) {
    if (!s.empty()) s += ", ";
    s += std::string(t.name) + " (" + mie_dtype_name(t.dtype) + " " + shape_text(t) + ")";
  }
  return s.empty() ? "none" : s;
}

// A manifest shape with its symbolic dims named ("[batch, seq, 768]"); inputs and outputs are told
// apart by the info's place in the package's lists.
std::string Runner::shape_text(const mie_tensor_info &t) {
  uint32_t n_in = 0, n_out = 0, n_symbols = 0;
  mie_package_num_inputs(package_, &n_in);
  mie_package_num_outputs(package_, &n_out);
  mie_package_num_symbols(package_, &n_symbols);
  std::vector<int64_t> dims(t.dims, t.dims + t.rank);
  if (n_symbols == 0)
    return io::shape_string(dims);
  int64_t input = -1, output = -1;
  for (uint32_t i = 0; i < n_in; ++i) {
    mie_tensor_info info;
    if (mie_package_input_info(package_, i, &info) == MIE_OK && info.name == t.name)
      input = i;
  }
  for (uint32_t i = 0; i < n_out; ++i) {
    mie_tensor_info info;
    if (mie_package_output_info(package_, i, &info) == MIE_OK && info.name == t.name)
      output = i;
  }
  std::string s = "[";
  for (uint32_t d = 0; d < t.rank; ++d) {
    const char *expr = "";
    if (input >= 0)
      mie_package_input_symbolic_dim(package_, uint32_t(input), d, &expr);
    else if (output >= 0)
      mie_package_output_symbolic_dim(package_, uint32_t(output), d, &expr);
    std::string text = expr[0] ? expr : std::to_string(t.dims[d]);
    // "s<i>" tokens become the symbols' names.
    std::string named;
    for (size_t k = 0; k < text.size();) {
      if (text[k] == 's' && k + 1 < text.size() &&
          std::isdigit(static_cast<unsigned char>(text[k + 1])) &&
          (k == 0 || !std::isalnum(static_cast<unsigned char>(text[k - 1])))) {
        size_t e = k + 1;
        while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e])))
          ++e;
        const char *name = "?";
        mie_package_symbol_info(package_, uint32_t(std::stoul(text.substr(k + 1, e - k - 1))),
                                &name, nullptr, nullptr);
        named += name;
        k = e;
      } else {
        named += text[k++];
      }
    }
    s += (d ? ", " : "") + named;
  }
  return s + "]";
}

bool Runner::split_named(const std::string &spec, const std::vector<mie_tensor_info> &list, std::string *name,
                         std::string *path) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos) return false;
  for (const auto &t : list)
    if (spec.compare(0, eq, t.name) == 0 && std::strlen(t.name) == eq) {
      *name = t.name;
      *path = spec.substr(eq + 1);
      return true;
    }
  return false;
}

bool Runner::assign(const std::vector<std::string> &specs, const std::vector<mie_tensor_info> &list,
                    const char *what, std::vector<std::string> *paths, std::string *error) {
  paths->assign(list.size(), "");
  std::vector<std::string> positional;
  for (const auto &spec : specs) {
    std::string name, path;
    if (!split_named(spec, list, &name, &path)) {
      // NAME=FILE with a NAME the model lacks (a typo, or another model's name): say so, rather
      // than that the file "NAME=FILE" cannot be opened. A file whose name holds '=' still works.
      const size_t eq = spec.find('=');
      struct stat st;
      if (eq != std::string::npos && eq > 0 && stat(spec.c_str(), &st) != 0) {
        *error = "the model has no " + std::string(what) + " named '" + spec.substr(0, eq) + "' (in '" + spec +
                 "'); its " + what + "s: " + describe(list);
        return false;
      }
      positional.push_back(spec);
      continue;
    }
    for (size_t i = 0; i < list.size(); ++i)
      if (name == list[i].name) {
        if (!(*paths)[i].empty()) {
          *error = std::string(what) + " '" + name + "' is given twice";
          return false;
        }
        (*paths)[i] = path;
      }
  }
  size_t next = 0;
  for (const auto &p : positional) {
    while (next < list.size() && !(*paths)[next].empty()) ++next;
    if (next == list.size()) {
      *error = "too many " + std::string(what) + "s: '" + p + "' has no " + what + " left to fill (the model has " +
               std::to_string(list.size()) + ": " + describe(list) + ")";
      return false;
    }
    (*paths)[next++] = p;
  }
  return true;
}

void Runner::print_summary(const mie_tensor_info &info, const void *data) {
  const std::vector<int64_t> shape(info.dims, info.dims + info.rank);
  std::fprintf(out_, "%s: %s %s", info.name, mie_dtype_name(info.dtype), io::shape_string(shape).c_str());
  if (info.num_elements == 0) {
    std::fprintf(out_, " (empty)\n");
    return;
  }
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  uint64_t nans = 0;
  for (uint64_t i = 0; i < info.num_elements; ++i) {
    const double v = io::element_as_double(info.dtype, data, i);
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  std::fprintf(out_, " first:");
  for (uint64_t i = 0; i < info.num_elements && i < 8; ++i)
    std::fprintf(out_, " %.6g", io::element_as_double(info.dtype, data, i));
  if (info.num_elements > 8) std::fprintf(out_, " ...");
  const uint64_t finite = info.num_elements - nans;
  if (finite > 0)
    std::fprintf(out_, " min: %.6g max: %.6g mean: %.6g", lo, hi, sum / double(finite));
  if (nans) std::fprintf(out_, " nan: %llu", static_cast<unsigned long long>(nans));
  std::fprintf(out_, "\n");
}

int Runner::main(int argc, char **argv) {
  Options o;
  std::string error;
  if (!parse_args(argc, argv, &o, &error)) return fail(error);
  if (o.help) {
    std::fputs(kUsage, out_);
    return 0;
  }
  if (o.version) {
    std::fprintf(out_, "mie-run %s\n", mie_runtime_version());
    return 0;
  }
  if (o.devices) {
    const char *cuda = nullptr;
    utsname u;
    std::fprintf(out_, "cpu: %s\n", uname(&u) == 0 ? u.machine : "unknown");
    if (mie_cuda_device(&cuda) == MIE_OK)
      std::fprintf(out_, "cuda: %s\n", cuda);
    else
      std::fprintf(out_, "cuda: none: %s\n", mie_last_error());
    return 0;
  }
  if (o.model.empty()) {
    std::fputs(kUsage, err_);
    return fail("no model given");
  }
  // The signature policy: checked while the package is opened, before any of its code is loaded.
  if (o.require_signature && o.trusted_keys.empty() && !std::getenv("MIE_TRUSTED_KEYS"))
    return fail("--require-signature needs the keys to trust: --trusted-key FILE (or MIE_TRUSTED_KEYS)");
  std::vector<uint8_t> keys(o.trusted_keys.size() * MIE_PUBLIC_KEY_BYTES);
  for (size_t i = 0; i < o.trusted_keys.size(); ++i)
    if (mie_public_key_read(o.trusted_keys[i].c_str(), keys.data() + i * MIE_PUBLIC_KEY_BYTES) != MIE_OK)
      return fail(std::string("--trusted-key: ") + mie_last_error());
  mie_package_options po;
  mie_package_options_init(&po);
  po.num_trusted_keys = uint32_t(o.trusted_keys.size());
  po.trusted_keys = keys.empty() ? nullptr : keys.data();
  po.require_signature = o.require_signature ? 1 : 0;
  if (mie_package_open_with_options(o.model.c_str(), &po, &package_) != MIE_OK) return fail(mie_last_error());

  uint32_t n_in = 0, n_out = 0;
  mie_package_num_inputs(package_, &n_in);
  mie_package_num_outputs(package_, &n_out);
  std::vector<mie_tensor_info> ins(n_in), outs(n_out);
  for (uint32_t i = 0; i < n_in; ++i) mie_package_input_info(package_, i, &ins[i]);
  for (uint32_t i = 0; i < n_out; ++i) mie_package_output_info(package_, i, &outs[i]);

  std::vector<std::string> in_paths, out_paths;
  if (!assign(o.inputs, ins, "input", &in_paths, &error) || !assign(o.outputs, outs, "output", &out_paths, &error))
    return fail(error);
  std::string missing;
  for (size_t i = 0; i < ins.size(); ++i)
    if (in_paths[i].empty()) missing += (missing.empty() ? "'" : ", '") + std::string(ins[i].name) + "'";
  if (!missing.empty()) return fail("missing input " + missing + "; the model expects: " + describe(ins));

  // The session first: creating it checks the manifest against the code's own ABI table, and only a
  // manifest that passed is trusted to size the buffers below.
  mie_session_options so;
  mie_session_options_init(&so);
  so.num_threads = uint32_t(o.threads);
  so.target = o.target.empty() ? nullptr : o.target.c_str();
  if (mie_session_create(package_, &so, &session_) != MIE_OK) return fail(mie_last_error());
  // Both before the first run, which produces the outputs.
  if (o.seeded && mie_session_set_random_seed(session_, o.seed) != MIE_OK)
    return fail(std::string("--seed: ") + mie_last_error());
  if (o.batch_slice_given && mie_session_set_batch_slice(session_, o.batch_slice) != MIE_OK)
    return fail(std::string("--batch-slice: ") + mie_last_error());
  if (o.poison && mie_session_set_poison_dead_buffers(session_, 1) != MIE_OK)
    return fail(std::string("--poison-dead-buffers: ") + mie_last_error());

  uint32_t n_symbols = 0;
  mie_package_num_symbols(package_, &n_symbols);
  std::vector<Buffer> in_bufs(n_in), out_bufs(n_out);
  std::vector<const void *> in_ptrs(n_in);
  std::vector<void *> out_ptrs(n_out);
  std::vector<uint64_t> in_sizes(n_in), out_sizes(n_out);  // the runtime checks them against the package
  std::vector<std::vector<int64_t>> in_shapes(n_in), out_shapes(n_out);
  for (size_t i = 0; i < ins.size(); ++i) {
    io::Tensor t;
    error = io::read_tensor_file(in_paths[i], &t);
    if (!error.empty()) return fail("input '" + std::string(ins[i].name) + "': " + error);
    const std::vector<int64_t> want(ins[i].dims, ins[i].dims + ins[i].rank);
    const std::string what = "input '" + std::string(ins[i].name) + "' from '" + in_paths[i] + "': ";
    error = io::adopt_dtype(&t, ins[i].dtype, in_paths[i]);
    if (!error.empty()) return fail("input '" + std::string(ins[i].name) + "': " + error);
    if (t.dtype != ins[i].dtype)
      return fail(what + "dtype " + io::dtype_name(t.dtype) + " does not match the model's " + mie_dtype_name(ins[i].dtype));
    // With symbolic dims the runtime checks the shapes when they are bound (below).
    if (n_symbols == 0 && t.shape != want)
      return fail(what + "shape " + io::shape_string(t.shape) + " does not match the model's " + io::shape_string(want));
    in_shapes[i] = t.shape;
    if (!in_bufs[i].allocate(t.data.size())) return fail(what + "out of memory");
    if (!t.data.empty()) std::memcpy(in_bufs[i].data(), t.data.data(), t.data.size());
    in_ptrs[i] = in_bufs[i].data();
    in_sizes[i] = in_bufs[i].size();
  }
  if (n_symbols > 0) {
    // The files' shapes bind the symbols; the outputs are sized for them.
    std::vector<uint32_t> ranks(n_in);
    std::vector<const int64_t *> dims(n_in);
    for (size_t i = 0; i < ins.size(); ++i) {
      ranks[i] = uint32_t(in_shapes[i].size());
      dims[i] = in_shapes[i].data();
    }
    if (mie_session_bind_inputs(session_, n_in, ranks.data(), dims.data(),
                                in_ptrs.data()) != MIE_OK)
      return fail(mie_last_error());
    std::string bound;
    for (uint32_t k = 0; k < n_symbols; ++k) {
      const char *name = "";
      int64_t value = 0;
      mie_package_symbol_info(package_, k, &name, nullptr, nullptr);
      mie_session_symbol_value(session_, k, &value);
      bound += (bound.empty() ? "" : ", ") + std::string(name) + "=" + std::to_string(value);
    }
    uint64_t arena = 0;
    int64_t slice = 0;
    mie_session_arena_bytes(session_, &arena);
    mie_session_batch_slice(session_, &slice);
    const std::string sliced =
        slice ? ", the batch in slices of " + std::to_string(slice) + " samples" : std::string();
    std::fprintf(out_, "symbolic dims: %s (arena %llu bytes%s)\n", bound.c_str(),
                 static_cast<unsigned long long>(arena), sliced.c_str());
    for (size_t i = 0; i < outs.size(); ++i) {
      uint32_t rank = 0;
      const int64_t *dims_out = nullptr;
      mie_session_output_shape(session_, uint32_t(i), &rank, &dims_out);
      out_shapes[i].assign(dims_out, dims_out + rank);
      outs[i].dims = out_shapes[i].empty() ? nullptr : out_shapes[i].data();
      outs[i].num_elements = 1;
      for (int64_t d : out_shapes[i])
        outs[i].num_elements *= uint64_t(d);
      outs[i].byte_size = outs[i].num_elements * mie_dtype_size(outs[i].dtype);
    }
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!out_bufs[i].allocate(outs[i].byte_size))
      return fail("output '" + std::string(outs[i].name) + "': cannot allocate " + std::to_string(outs[i].byte_size) + " bytes");
    out_ptrs[i] = out_bufs[i].data();
    out_sizes[i] = out_bufs[i].size();
  }


  // First run: produces the outputs and, when benchmarking, doubles as the warmup.
  auto run = [&] {
    return mie_session_run_sized(session_, n_in, in_ptrs.data(), in_sizes.data(), n_out, out_ptrs.data(),
                                 out_sizes.data());
  };
  if (run() != MIE_OK) return fail(mie_last_error());
  uint64_t first_ns = 0;
  mie_session_last_run_ns(session_, &first_ns);

  const char *model_name = "", *target_name = "";
  uint32_t threads = 0;
  mie_package_model_name(package_, &model_name);
  mie_session_target(session_, &target_name);
  mie_session_num_threads(session_, &threads);
  const char *device = "";
  mie_session_device(session_, &device);
  std::fprintf(out_, "model '%s', target '%s', %u thread%s, first run %.3f ms\n", model_name, target_name, threads,
               threads == 1 ? "" : "s", double(first_ns) / 1e6);
  if (std::strncmp(device, "cpu", 3) != 0) std::fprintf(out_, "device: %s\n", device);
  mie_signature_state signature = MIE_SIGNATURE_NONE;
  uint8_t signer[MIE_PUBLIC_KEY_BYTES];
  mie_package_signature(package_, &signature, signer);
  if (signature != MIE_SIGNATURE_NONE) {
    rt::PublicKey key;
    std::memcpy(key.data(), signer, key.size());
    std::fprintf(out_, "signature: %s key %s\n",
                 signature == MIE_SIGNATURE_TRUSTED ? "verified, by trusted" : "valid but not checked (no trusted keys), by",
                 rt::key_id(key).c_str());
  }
  // A package for several machines: say what else it holds and whether this host could run it.
  uint32_t n_entries = 0;
  mie_package_num_targets(package_, &n_entries);
  // A package with symbolic dims lists each target once per specialization: count and name
  // machines.
  std::vector<uint32_t> firsts; // the first entry of each target name
  for (uint32_t i = 0; i < n_entries; ++i) {
    mie_target_info t;
    mie_package_target_info(package_, i, &t);
    bool seen = false;
    for (uint32_t f : firsts) {
      mie_target_info u;
      mie_package_target_info(package_, f, &u);
      seen |= std::strcmp(t.name, u.name) == 0;
    }
    if (!seen)
      firsts.push_back(i);
  }
  const uint32_t n_targets = uint32_t(firsts.size());
  // Why this target: where there was a choice, or where one was asked for.
  const char *env_target = std::getenv("MIE_TARGET");
  if (n_targets > 1 || !o.target.empty() || (env_target && env_target[0]))
    std::fprintf(out_, "selected: %s\n", selection_reason(o.target, target_name, device, package_).c_str());
  if (n_targets > 1) {
    std::string others;
    for (uint32_t i : firsts) {
      mie_target_info t;
      mie_package_target_info(package_, i, &t);
      if (std::strcmp(t.name, target_name) == 0) continue;
      others += std::string(others.empty() ? "" : ", ") + t.name + (t.runnable_here ? " (runnable here)" : " (not for this host)");
    }
    std::fprintf(out_, "other targets in the package: %s\n", others.c_str());
    for (uint32_t i : firsts) {
      if (!o.verbose)
        break;
      mie_target_info t;
      mie_package_target_info(package_, i, &t);
      if (std::strcmp(t.name, target_name) == 0) continue;
      int32_t runnable = 0;
      const char *why = "";
      mie_package_target_check(package_, i, &runnable, &why);
      if (runnable)
        std::fprintf(out_, "  target '%s': runnable here, not chosen (%s)\n", t.name,
                     o.target.empty() ? "the selected target ranks higher" : "--target chose another");
      else
        std::fprintf(out_, "  target '%s': skipped: %s\n", t.name, why);
    }
  }

  KernelProfiler profiler;
  double peak_per_core = 0;
  std::string peak_isa;
  if (o.profile) {
    if (o.benchmark == 0) o.benchmark = 20;
    error = profiler.attach(session_, o.benchmark);
    if (!error.empty()) return fail("--profile: " + error);
    // Measured before the runs, on the calling thread, so no kernel competes with it.
    peak_per_core = measure_fma_peak_gflops(&peak_isa);
  }
  if (o.benchmark > 0) {
    std::vector<double> ms;
    ms.reserve(size_t(o.benchmark));
    for (long i = 0; i < o.benchmark; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      if (run() != MIE_OK) return fail(mie_last_error());
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    double sum = 0;
    for (double v : ms) sum += v;
    std::fprintf(out_, "benchmark: %ld runs, min %.3f ms, median %.3f ms, mean %.3f ms\n", o.benchmark, sorted[0],
                 median, sum / double(n));
    if (o.profile) {
      profiler.detach();
      profiler.print_table(out_, threads, peak_per_core, peak_isa, sum / double(n));
      if (!o.trace.empty()) {
        error = profiler.write_trace(o.trace, model_name, target_name);
        if (!error.empty()) return fail("--trace: " + error);
        std::fprintf(out_, "trace: %s (%u runs)\n", o.trace.c_str(), profiler.num_runs());
      }
    }
  }
  // Outputs with data-dependent dims: the last run's real shape (the data is dense at the buffer's start).
  std::vector<std::vector<int64_t>> real_shapes(outs.size());
  for (size_t i = 0; i < outs.size(); ++i) {
    uint32_t rank = 0, num_dynamic = 0;
    const int64_t *dims = nullptr;
    const uint32_t *dynamic = nullptr;
    mie_session_output_shape(session_, uint32_t(i), &rank, &dims);
    real_shapes[i].assign(dims, dims + rank);
    mie_package_output_dynamic_dims(package_, uint32_t(i), &num_dynamic, &dynamic);
    if (num_dynamic == 0) continue;
    const std::vector<int64_t> bound(outs[i].dims, outs[i].dims + outs[i].rank);
    std::fprintf(out_, "output '%s': shape %s (data-dependent; bound %s)\n", outs[i].name,
                 io::shape_string(real_shapes[i]).c_str(), io::shape_string(bound).c_str());
    outs[i].dims = real_shapes[i].empty() ? nullptr : real_shapes[i].data();
    outs[i].num_elements = 1;
    for (int64_t d : real_shapes[i]) outs[i].num_elements *= uint64_t(d);
    outs[i].byte_size = outs[i].num_elements * mie_dtype_size(outs[i].dtype);
  }
  if (o.print)
    for (size_t i = 0; i < outs.size(); ++i) print_summary(outs[i], out_bufs[i].data());
  for (size_t i = 0; i < outs.size(); ++i) {
    if (out_paths[i].empty()) continue;
    const std::vector<int64_t> &shape = real_shapes[i];
    error = io::write_npy(out_paths[i], outs[i].dtype, shape, out_bufs[i].data(), size_t(outs[i].byte_size));
    if (!error.empty()) return fail("output '" + std::string(outs[i].name) + "': " + error);
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv, FILE *out, FILE *err) {
  Runner runner(out, err);
  return runner.main(argc, argv);
}

}  // namespace mie::run
