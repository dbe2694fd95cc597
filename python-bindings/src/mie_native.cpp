// mie._native: the Python module over the runtime's C API (mie_rt.h), built with nanobind.
//
// The package `mie` (python-bindings/mie/__init__.py) re-exports what is here: Session, TensorInfo,
// MieError. Everything a run does happens in this file, so that Session.run costs one Python call:
// inputs are taken as numpy arrays without copies when they are C-contiguous, aligned and of the
// package's dtype (anything else goes through numpy's own conversion, as np.asarray would), outputs
// are numpy arrays allocated here or the caller's, and the GIL is released while the generated code
// runs.
//
// Arrays are handled with numpy's C API rather than nanobind's ndarray: the 8-bit and 4-bit floats
// and the 4-bit and 2-bit integers come as ml_dtypes arrays, whose dtypes neither DLPack nor the
// buffer protocol can describe, and numpy's API is what lets an output be allocated with such a
// dtype.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mie/mie_rt.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

// Raised as mie.MieError (a RuntimeError) with the runtime's message or ours.
struct Error : std::exception {
  explicit Error(std::string message) : message(std::move(message)) {}
  const char *what() const noexcept override { return message.c_str(); }
  std::string message;
};

void check(mie_status status) {
  if (status != MIE_OK)
    throw Error(mie_last_error());
}

// An owned reference to a new object returned by the CPython or numpy C API; NULL means a Python
// exception is set, which propagates as is.
nb::object steal(PyObject *object) {
  if (!object)
    throw nb::python_error();
  return nb::steal(object);
}

std::string py_repr(nb::handle object) { return nb::repr(object).c_str(); }
std::string py_str(nb::handle object) { return nb::str(object).c_str(); }
// A shape as messages show it, "[1, 3, 16, 16]" (str of the list, as the Python layer always showed
// it).
std::string shape_text(nb::handle shape) { return py_str(steal(PySequence_List(shape.ptr()))); }

// The 8-bit and 4-bit floats and 4-bit and 2-bit integers (mie_dtype 14-23) have no numpy dtype of
// their own; ml_dtypes (which onnx depends on) names them, one byte per element as the runtime
// stores them.
const char *narrow_dtype_name(mie_dtype code) {
  switch (code) {
  case MIE_DTYPE_F8E4M3FN:
    return "float8_e4m3fn";
  case MIE_DTYPE_F8E4M3FNUZ:
    return "float8_e4m3fnuz";
  case MIE_DTYPE_F8E5M2:
    return "float8_e5m2";
  case MIE_DTYPE_F8E5M2FNUZ:
    return "float8_e5m2fnuz";
  case MIE_DTYPE_F8E8M0:
    return "float8_e8m0fnu";
  case MIE_DTYPE_F4E2M1:
    return "float4_e2m1fn";
  case MIE_DTYPE_I4:
    return "int4";
  case MIE_DTYPE_U4:
    return "uint4";
  case MIE_DTYPE_I2:
    return "int2";
  case MIE_DTYPE_U2:
    return "uint2";
  default:
    return nullptr;
  }
}

int numpy_type(mie_dtype code) {
  switch (code) {
  case MIE_DTYPE_F32:
    return NPY_FLOAT32;
  case MIE_DTYPE_F16:
    return NPY_FLOAT16;
  case MIE_DTYPE_F64:
    return NPY_FLOAT64;
  case MIE_DTYPE_I8:
    return NPY_INT8;
  case MIE_DTYPE_I16:
    return NPY_INT16;
  case MIE_DTYPE_I32:
    return NPY_INT32;
  case MIE_DTYPE_I64:
    return NPY_INT64;
  case MIE_DTYPE_U8:
    return NPY_UINT8;
  case MIE_DTYPE_BOOL:
    return NPY_BOOL;
  case MIE_DTYPE_U16:
    return NPY_UINT16;
  case MIE_DTYPE_U32:
    return NPY_UINT32;
  case MIE_DTYPE_U64:
    return NPY_UINT64;
  default:
    return -1;
  }
}

// The numpy dtype of a package tensor's element type.
nb::object numpy_dtype(mie_dtype code, const std::string &tensor) {
  if (code == MIE_DTYPE_BF16)
    throw Error("tensor '" + tensor + "': bf16 has no numpy dtype");
  if (const char *narrow = narrow_dtype_name(code)) {
    nb::object module;
    try {
      module = nb::module_::import_("ml_dtypes");
    } catch (nb::python_error &) {
      throw Error("tensor '" + tensor + "': its element type (" + narrow +
                  ") needs the ml_dtypes package");
    }
    PyArray_Descr *descr = nullptr;
    if (!PyArray_DescrConverter(module.attr(narrow).ptr(), &descr))
      throw nb::python_error();
    return nb::steal(reinterpret_cast<PyObject *>(descr));
  }
  const int type = numpy_type(code);
  if (type < 0)
    throw Error("tensor '" + tensor + "': unknown element type " + std::to_string(code) +
                " (a runtime newer than these bindings?)");
  return nb::steal(reinterpret_cast<PyObject *>(PyArray_DescrFromType(type)));
}

PyArray_Descr *descr_of(const nb::object &dtype) {
  return reinterpret_cast<PyArray_Descr *>(dtype.ptr());
}

// Replaces the symbols s0, s1, ... of a runtime shape expression ("s0 * s1") by their names.
std::string named_expression(const std::string &expr, const std::vector<std::string> &names) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  for (size_t i = 0; i < expr.size();) {
    size_t j = i + 1;
    while (j < expr.size() && std::isdigit(static_cast<unsigned char>(expr[j])))
      ++j;
    if (expr[i] == 's' && j > i + 1 && (i == 0 || !word(expr[i - 1])) &&
        (j == expr.size() || !word(expr[j]))) {
      const size_t index = std::stoul(expr.substr(i + 1, j - i - 1));
      if (index < names.size()) {
        out += names[index];
        i = j;
        continue;
      }
    }
    out += expr[i++];
  }
  return out;
}

// Name, numpy dtype and shape of a package input or output (see mie/_native.pyi).
struct TensorInfo {
  std::string name;
  nb::object dtype;
  nb::tuple shape; // ints, and the names (or, for outputs, expressions) of symbolic dims
  nb::tuple dynamic_dims;
  int value_bits = 0;
  // `shape` as the checks before a run read it: -1 for a symbolic dim. Kept in step with `shape` by
  // its setter, so that a TensorInfo changed from Python is what Session.run checks against (the
  // runtime checks the buffers' sizes itself whatever passes here).
  std::vector<npy_intp> dims;

  void set_shape(nb::handle value) {
    nb::tuple shape_tuple = nb::borrow<nb::tuple>(steal(PySequence_Tuple(value.ptr())));
    std::vector<npy_intp> new_dims;
    for (nb::handle dim : shape_tuple)
      new_dims.push_back(PyIndex_Check(dim.ptr()) ? PyNumber_AsSsize_t(dim.ptr(), nullptr) : -1);
    shape = std::move(shape_tuple);
    dims = std::move(new_dims);
  }

  // "float32[1, 3, 16, 16]", as messages show a tensor.
  std::string describe() const { return py_str(dtype) + shape_text(shape); }

  std::string repr() const {
    std::string out = "TensorInfo(" + py_repr(nb::str(name.c_str())) + ", " + py_str(dtype) + ", " +
                      py_repr(shape);
    if (nb::len(dynamic_dims))
      out += ", dynamic_dims=" + py_repr(dynamic_dims);
    return out + ")";
  }
};

// A thread count as the C API's uint32 (0: one per core), checked before it is converted: a
// negative, huge or fractional value would otherwise become another count silently.
uint32_t thread_count(nb::handle threads) {
  if (PyBool_Check(threads.ptr()) || !PyIndex_Check(threads.ptr()))
    throw Error("threads must be an integer >= 0 (0: one per core), got " + py_repr(threads));
  nb::object index = steal(PyNumber_Index(threads.ptr()));
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow || value < 0 || value > 0xFFFFFFFFLL)
    throw Error("threads must be an integer >= 0 (0: one per core), got " + py_str(index));
  return static_cast<uint32_t>(value);
}

// The trusted public keys as one buffer of 32-byte keys: each a key file path (NAME.pub from
// `mie-sign keygen`) or the key's 32 raw bytes.
std::string trusted_keys(nb::handle keys) {
  nb::object os = nb::module_::import_("os");
  nb::object list;
  if (PyUnicode_Check(keys.ptr()) || PyBytes_Check(keys.ptr()) ||
      PyObject_IsInstance(keys.ptr(), os.attr("PathLike").ptr()) == 1)
    list = nb::make_tuple(keys);
  else
    list = nb::borrow(keys);
  std::string out;
  for (nb::handle key : list) {
    if ((PyBytes_Check(key.ptr()) || PyByteArray_Check(key.ptr())) &&
        PyObject_Length(key.ptr()) == MIE_PUBLIC_KEY_BYTES) {
      nb::bytes raw(key);
      out.append(raw.c_str(), MIE_PUBLIC_KEY_BYTES);
    } else if (PyUnicode_Check(key.ptr()) ||
               PyObject_IsInstance(key.ptr(), os.attr("PathLike").ptr()) == 1) {
      nb::bytes path = nb::cast<nb::bytes>(os.attr("fsencode")(key));
      uint8_t raw[MIE_PUBLIC_KEY_BYTES];
      check(mie_public_key_read(path.c_str(), raw));
      out.append(reinterpret_cast<const char *>(raw), MIE_PUBLIC_KEY_BYTES);
    } else {
      throw Error("trusted key " + py_repr(key) + ": expected a public key file path or 32 bytes");
    }
  }
  return out;
}

// Per-kernel times of the last run, filled by the runtime's profiler hook on the thread that runs
// the session (never while Python code holds the session: the hook runs inside
// mie_session_run_sized).
struct Profile {
  std::vector<uint64_t> ns;
  std::chrono::steady_clock::time_point start;

  static void hook(void *user, int32_t kernel, int32_t phase) {
    auto *self = static_cast<Profile *>(user);
    const auto now = std::chrono::steady_clock::now();
    if (phase == 0) {
      self->start = now;
    } else if (kernel >= 0 && static_cast<size_t>(kernel) < self->ns.size()) {
      self->ns[kernel] +=
          std::chrono::duration_cast<std::chrono::nanoseconds>(now - self->start).count();
    }
  }
};

class Session {
public:
  Session(nb::handle path, nb::handle threads, nb::handle target, nb::handle keys,
          nb::handle require_signature) {
    const uint32_t num_threads = thread_count(threads);
    const std::string key_bytes = trusted_keys(keys);
    mie_package_options package_options;
    check(mie_package_options_init(&package_options));
    package_options.num_trusted_keys =
        static_cast<uint32_t>(key_bytes.size() / MIE_PUBLIC_KEY_BYTES);
    package_options.trusted_keys =
        key_bytes.empty() ? nullptr : reinterpret_cast<const uint8_t *>(key_bytes.data());
    package_options.require_signature = PyObject_IsTrue(require_signature.ptr()) == 1;
    nb::bytes file = nb::cast<nb::bytes>(nb::module_::import_("os").attr("fsencode")(path));
    {
      // Opening validates the whole package (SHA-256 of every section): no reason to hold the GIL.
      nb::gil_scoped_release release;
      check(mie_package_open_with_options(file.c_str(), &package_options, &package_));
    }
    // The destructor does not run for an object whose constructor throws: close the package here.
    try {
      read_symbols();
      read_infos(/*outputs=*/false);
      read_infos(/*outputs=*/true);
      mie_session_options options;
      check(mie_session_options_init(&options));
      options.num_threads = num_threads;
      std::string target_name;
      if (!target.is_none()) {
        target_name = nb::cast<std::string>(target);
        options.target = target_name.c_str();
      }
      nb::gil_scoped_release release;
      check(mie_session_create(package_, &options, &session_));
    } catch (...) {
      mie_package_close(package_);
      package_ = nullptr;
      throw;
    }
  }

  ~Session() {
    // Nothing else can hold the lock once the last reference is gone.
    mie_session_destroy(session_);
    mie_package_close(package_);
  }

  // The session's lock: every call into the C API holds it, so close() on another thread cannot
  // free the session under a run or a property. Waiting for it never holds the GIL (the holder may
  // need the GIL to finish), which is what makes holding it while taking the GIL safe.
  void lock() {
    if (!mutex_.try_lock()) {
      nb::gil_scoped_release release;
      mutex_.lock();
    }
  }
  void unlock() { mutex_.unlock(); }
  struct Locked {
    explicit Locked(Session *s) : s(s) { s->lock(); }
    ~Locked() { s->unlock(); }
    Session *s;
  };

  const nb::list &inputs() const { return inputs_list_; }
  const nb::list &outputs() const { return outputs_list_; }
  const nb::dict &symbols() const { return symbols_; }

  std::string target() {
    Locked locked(this);
    const char *name = nullptr;
    check(mie_session_target(live(), &name));
    return name;
  }

  std::string device() {
    Locked locked(this);
    const char *name = nullptr;
    check(mie_session_device(live(), &name));
    return name;
  }

  nb::list targets() {
    Locked locked(this);
    live();
    uint32_t count = 0;
    check(mie_package_num_targets(package_, &count));
    nb::list out;
    for (uint32_t i = 0; i < count; ++i) {
      mie_target_info info;
      check(mie_package_target_info(package_, i, &info));
      int32_t runnable = 0;
      const char *reason = nullptr;
      check(mie_package_target_check(package_, i, &runnable, &reason));
      nb::dict entry;
      entry["name"] = info.name;
      entry["kind"] = info.kind;
      entry["arch"] = info.arch;
      entry["runnable"] = runnable != 0;
      entry["reason"] = reason ? reason : "";
      out.append(entry);
    }
    return out;
  }

  double last_run_ms() {
    Locked locked(this);
    uint64_t ns = 0;
    check(mie_session_last_run_ns(live(), &ns));
    return static_cast<double>(ns) / 1e6;
  }

  uint64_t arena_bytes() {
    Locked locked(this);
    uint64_t bytes = 0;
    check(mie_session_arena_bytes(live(), &bytes));
    return bytes;
  }

  uint32_t threads() {
    Locked locked(this);
    uint32_t n = 0;
    check(mie_session_num_threads(live(), &n));
    return n;
  }

  int64_t batch_slice() {
    Locked locked(this);
    int64_t slice = 0;
    check(mie_session_batch_slice(live(), &slice));
    return slice;
  }

  void set_batch_slice(nb::handle slice) {
    if (PyBool_Check(slice.ptr()) || !PyLong_Check(slice.ptr()))
      throw Error("batch slice must be an integer (-1: the runtime chooses, 0: off), got " +
                  py_repr(slice));
    const long long n = PyLong_AsLongLong(slice.ptr());
    if (n == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      throw Error("batch slice out of range: " + py_repr(slice));
    }
    Locked locked(this);
    check(mie_session_set_batch_slice(live(), int64_t(n)));
  }

  void set_threads(nb::handle threads) {
    const uint32_t n = thread_count(threads);
    Locked locked(this);
    check(mie_session_set_threads(live(), n));
  }

  void set_random_seed(nb::handle seed) {
    auto refuse = [&] {
      return Error("seed must be an integer in [0, 2**64), got " + py_repr(seed));
    };
    if (PyBool_Check(seed.ptr()) || !PyLong_Check(seed.ptr()))
      throw refuse();
    const unsigned long long value = PyLong_AsUnsignedLongLong(seed.ptr());
    if (value == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();
      throw refuse();
    }
    Locked locked(this);
    check(mie_session_set_random_seed(live(), value));
  }

  nb::list kernels() {
    Locked locked(this);
    uint32_t count = 0;
    check(mie_session_num_kernels(live(), &count));
    nb::list out;
    for (uint32_t i = 0; i < count; ++i) {
      mie_kernel_info info;
      check(mie_session_kernel_info(session_, i, &info));
      nb::dict entry;
      entry["name"] = info.name;
      entry["nodes"] = info.nodes;
      entry["flops"] = info.flops;
      out.append(entry);
    }
    return out;
  }

  void set_profiling(bool enable) {
    Locked locked(this);
    if (!enable) {
      check(mie_session_set_profiler(live(), nullptr, nullptr));
      profile_.reset();
      return;
    }
    uint32_t count = 0;
    check(mie_session_num_kernels(live(), &count));
    auto profile = std::make_unique<Profile>();
    profile->ns.assign(count, 0);
    check(mie_session_set_profiler(session_, &Profile::hook, profile.get()));
    profile_ = std::move(profile);
  }

  nb::list profile() {
    nb::list kernels = this->kernels();
    Locked locked(this);
    if (!profile_)
      throw Error("profiling is off: call set_profiling(True) before the run");
    nb::list out;
    for (size_t i = 0; i < profile_->ns.size() && i < nb::len(kernels); ++i) {
      nb::dict entry = nb::borrow<nb::dict>(kernels[i]);
      entry["ms"] = static_cast<double>(profile_->ns[i]) / 1e6;
      out.append(entry);
    }
    return out;
  }

  void close() {
    Locked locked(this);
    mie_session_destroy(session_);
    session_ = nullptr;
    mie_package_close(package_);
    package_ = nullptr;
    profile_.reset();
  }

  nb::dict run(nb::handle inputs, nb::handle outputs);

private:
  mie_session *live() const {
    if (!session_)
      throw Error("session is closed");
    return session_;
  }

  void read_symbols();
  void read_infos(bool outputs);
  std::vector<nb::object> input_arrays(nb::handle inputs);
  nb::object output_array(size_t index, const std::vector<npy_intp> &shape, nb::handle given);
  nb::object real_shape(size_t index, nb::object buffer, bool given);

  std::mutex mutex_;
  mie_package *package_ = nullptr;
  mie_session *session_ = nullptr;
  std::vector<std::string> symbol_names_;
  nb::dict symbols_;
  // Python's view of the tensors (what `inputs` and `outputs` return) and the same objects as C++
  // sees them, in package order.
  nb::list inputs_list_, outputs_list_;
  std::vector<TensorInfo *> inputs_, outputs_;
  std::vector<nb::str> input_names_, output_names_; // dict keys, made once
  std::unique_ptr<Profile> profile_;
};

void Session::read_symbols() {
  uint32_t count = 0;
  check(mie_package_num_symbols(package_, &count));
  for (uint32_t i = 0; i < count; ++i) {
    const char *name = nullptr;
    int64_t lo = 0, hi = 0;
    check(mie_package_symbol_info(package_, i, &name, &lo, &hi));
    symbol_names_.push_back(name);
    symbols_[name] = nb::make_tuple(lo, hi);
  }
}

void Session::read_infos(bool outputs) {
  uint32_t count = 0;
  check(outputs ? mie_package_num_outputs(package_, &count)
                : mie_package_num_inputs(package_, &count));
  for (uint32_t i = 0; i < count; ++i) {
    mie_tensor_info raw;
    check(outputs ? mie_package_output_info(package_, i, &raw)
                  : mie_package_input_info(package_, i, &raw));
    nb::object object = nb::cast(TensorInfo());
    TensorInfo *info = nb::inst_ptr<TensorInfo>(object);
    info->name = raw.name;
    info->dtype = numpy_dtype(raw.dtype, info->name);
    // 4-bit and 2-bit elements: the bits a byte may use (the rest must be 0).
    switch (raw.dtype) {
    case MIE_DTYPE_F4E2M1:
    case MIE_DTYPE_I4:
    case MIE_DTYPE_U4:
      info->value_bits = 4;
      break;
    case MIE_DTYPE_I2:
    case MIE_DTYPE_U2:
      info->value_bits = 2;
      break;
    default:
      break;
    }
    // A symbolic dim (a model compiled with --symbolic-dims --specialize) is shown as its symbol's
    // name, or for an output the expression of the symbols it equals ("batch * seq"), as
    // onnxruntime's get_inputs() shows dynamic axes.
    nb::list shape;
    for (uint32_t d = 0; d < raw.rank; ++d) {
      const char *expr = "";
      if (!symbol_names_.empty())
        check(outputs ? mie_package_output_symbolic_dim(package_, i, d, &expr)
                      : mie_package_input_symbolic_dim(package_, i, d, &expr));
      if (expr && *expr)
        shape.append(nb::str(named_expression(expr, symbol_names_).c_str()));
      else
        shape.append(raw.dims[d]);
    }
    info->set_shape(shape);
    nb::list dynamic;
    if (outputs) {
      uint32_t n = 0;
      const uint32_t *dims = nullptr;
      check(mie_package_output_dynamic_dims(package_, i, &n, &dims));
      for (uint32_t j = 0; j < n; ++j)
        dynamic.append(dims[j]);
    }
    info->dynamic_dims = nb::borrow<nb::tuple>(steal(PySequence_Tuple(dynamic.ptr())));
    (outputs ? outputs_list_ : inputs_list_).append(object);
    (outputs ? outputs_ : inputs_).push_back(info);
    (outputs ? output_names_ : input_names_).push_back(nb::str(info->name.c_str()));
  }
}

std::string expected_inputs(const std::vector<TensorInfo *> &infos) {
  std::string out;
  for (const TensorInfo *info : infos)
    out += (out.empty() ? "" : ", ") + info->name + " " + info->describe();
  return out;
}

// The run's input arrays in package order, checked against the package's dtypes and (without
// symbols) shapes. An array that is already C-contiguous, aligned and of the right dtype is used as
// it is.
std::vector<nb::object> Session::input_arrays(nb::handle inputs) {
  const size_t n = inputs_.size();
  std::vector<PyObject *> values(n, nullptr);
  nb::object sequence; // keeps a converted sequence alive
  if (PyDict_Check(inputs.ptr())) {
    size_t found = 0;
    nb::list missing;
    for (size_t i = 0; i < n; ++i) {
      values[i] = PyDict_GetItemWithError(inputs.ptr(), input_names_[i].ptr());
      if (!values[i] && PyErr_Occurred())
        throw nb::python_error();
      if (values[i])
        ++found;
      else
        missing.append(nb::str(inputs_[i]->name.c_str()));
    }
    if (nb::len(missing) || found != static_cast<size_t>(PyDict_Size(inputs.ptr()))) {
      nb::list unknown;
      for (auto [key, value] : nb::borrow<nb::dict>(inputs)) {
        bool known = false;
        for (const TensorInfo *info : inputs_)
          known = known ||
                  (PyUnicode_Check(key.ptr()) && info->name == nb::borrow<nb::str>(key).c_str());
        if (!known)
          unknown.append(key);
      }
      unknown.sort();
      throw Error("inputs missing: " + py_str(missing) + ", unknown: " + py_str(unknown) +
                  "; expected " + expected_inputs(inputs_));
    }
  } else {
    sequence =
        steal(PySequence_Fast(inputs.ptr(), "run() takes a dict of inputs or a sequence of them"));
    const Py_ssize_t given = PySequence_Fast_GET_SIZE(sequence.ptr());
    if (static_cast<size_t>(given) != n) {
      std::string names;
      for (const TensorInfo *info : inputs_)
        names += (names.empty() ? "" : ", ") + info->name;
      throw Error("expected " + std::to_string(n) + " inputs in package order (" + names +
                  "), got " + std::to_string(given));
    }
    for (size_t i = 0; i < n; ++i)
      values[i] = PySequence_Fast_GET_ITEM(sequence.ptr(), i);
  }

  std::vector<nb::object> arrays;
  arrays.reserve(n);
  const bool symbolic = !symbol_names_.empty();
  for (size_t i = 0; i < n; ++i) {
    const TensorInfo &info = *inputs_[i];
    PyObject *value = values[i];
    nb::object array;
    if (PyArray_Check(value) && PyArray_ISCARRAY_RO(reinterpret_cast<PyArrayObject *>(value))) {
      array = nb::borrow(value); // the zero-copy path
    } else {
      // np.asarray(value, order="C"): a copy only where the layout needs one. No dtype is asked
      // for: a wrong dtype is an error below, not a silent conversion.
      array = steal(PyArray_FromAny(value, nullptr, 0, 0, NPY_ARRAY_CARRAY_RO, nullptr));
    }
    auto *a = reinterpret_cast<PyArrayObject *>(array.ptr());
    bool ok = PyArray_DESCR(a) == descr_of(info.dtype) ||
              PyArray_EquivTypes(PyArray_DESCR(a), descr_of(info.dtype));
    // Symbolic dims: the runtime checks the shapes when they are bound.
    if (ok && !symbolic) {
      ok = static_cast<size_t>(PyArray_NDIM(a)) == info.dims.size() &&
           std::equal(info.dims.begin(), info.dims.end(), PyArray_DIMS(a));
    }
    if (!ok) {
      nb::object got_dtype = nb::borrow(reinterpret_cast<PyObject *>(PyArray_DESCR(a)));
      nb::object got_shape = array.attr("shape");
      throw Error("input '" + info.name + "': expected " + info.describe() + ", got " +
                  py_str(got_dtype) + shape_text(got_shape));
    }
    if (info.value_bits) {
      const auto *bytes = static_cast<const uint8_t *>(PyArray_DATA(a));
      const npy_intp size = PyArray_NBYTES(a);
      for (npy_intp b = 0; b < size; ++b) {
        if (bytes[b] >> info.value_bits)
          throw Error("input '" + info.name + "': " + py_str(info.dtype) +
                      " bytes must hold the value in their low " + std::to_string(info.value_bits) +
                      " bits and 0 above");
      }
    }
    arrays.push_back(std::move(array));
  }
  return arrays;
}

// Output `index`'s buffer for a run at `shape`: the caller's array `given` when there is one
// (checked: the runtime writes into it), else a new one.
nb::object Session::output_array(size_t index, const std::vector<npy_intp> &shape,
                                 nb::handle given) {
  const TensorInfo &info = *outputs_[index];
  if (!given.is_valid() || given.is_none()) {
    Py_INCREF(descr_of(info.dtype)); // PyArray_NewFromDescr steals it
    return steal(
        PyArray_NewFromDescr(&PyArray_Type, descr_of(info.dtype), static_cast<int>(shape.size()),
                             const_cast<npy_intp *>(shape.data()), nullptr, nullptr, 0, nullptr));
  }
  // Built on the error paths only: str() of a dtype costs more than the rest of a small run.
  auto expected = [&] {
    std::string out = py_str(info.dtype) + "[";
    for (size_t d = 0; d < shape.size(); ++d)
      out += (d ? ", " : "") + std::to_string(shape[d]);
    return out + "]";
  };
  if (!PyArray_Check(given.ptr()))
    throw Error("output '" + info.name + "': expected a numpy array " + expected() + ", got " +
                py_str(nb::handle(reinterpret_cast<PyObject *>(Py_TYPE(given.ptr())))));
  auto *a = reinterpret_cast<PyArrayObject *>(given.ptr());
  const bool layout = PyArray_ISCARRAY(a); // C-contiguous, aligned and writeable
  const bool dtype = PyArray_DESCR(a) == descr_of(info.dtype) ||
                     PyArray_EquivTypes(PyArray_DESCR(a), descr_of(info.dtype));
  const bool dims = static_cast<size_t>(PyArray_NDIM(a)) == shape.size() &&
                    std::equal(shape.begin(), shape.end(), PyArray_DIMS(a));
  if (!layout || !dtype || !dims) {
    nb::object got_dtype = nb::borrow(reinterpret_cast<PyObject *>(PyArray_DESCR(a)));
    throw Error("output '" + info.name + "': expected a writeable C-contiguous " + expected() +
                " array, got " + (layout ? "" : "a non-contiguous, misaligned or read-only ") +
                py_str(got_dtype) + shape_text(given.attr("shape")));
  }
  return nb::borrow(given);
}

// An output with data-dependent dims after a run: its real shape, whose elements the runtime left
// dense at the start of the bound-sized buffer. A new array of that shape, or for the caller's
// buffer a view of its first elements.
nb::object Session::real_shape(size_t index, nb::object buffer, bool given) {
  uint32_t rank = 0;
  const int64_t *dims = nullptr;
  check(mie_session_output_shape(session_, static_cast<uint32_t>(index), &rank, &dims));
  nb::list shape;
  npy_intp count = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    shape.append(dims[d]);
    count *= dims[d];
  }
  nb::object prefix =
      buffer.attr("reshape")(-1)[nb::slice(nb::int_(0), nb::int_(count), nb::none())];
  if (!given)
    prefix = prefix.attr("copy")();
  return prefix.attr("reshape")(shape);
}

nb::dict Session::run(nb::handle inputs, nb::handle outputs) {
  std::vector<nb::object> arrays = input_arrays(inputs);
  const size_t num_outputs = outputs_.size();
  // The caller's output arrays, by name or in package order.
  std::vector<nb::handle> given(num_outputs);
  nb::object out_sequence; // keeps a converted sequence's items alive
  if (!outputs.is_none()) {
    if (PyDict_Check(outputs.ptr())) {
      size_t found = 0;
      for (size_t i = 0; i < num_outputs; ++i) {
        PyObject *value = PyDict_GetItemWithError(outputs.ptr(), output_names_[i].ptr());
        if (!value && PyErr_Occurred())
          throw nb::python_error();
        if (value) {
          given[i] = value;
          ++found;
        }
      }
      if (found != static_cast<size_t>(PyDict_Size(outputs.ptr()))) {
        std::string names;
        for (const TensorInfo *info : outputs_)
          names += (names.empty() ? "" : ", ") + info->name;
        throw Error("outputs= names an output the package does not have (its outputs: " + names +
                    ")");
      }
    } else {
      out_sequence =
          steal(PySequence_Fast(outputs.ptr(), "outputs= takes a dict or a sequence of arrays"));
      if (static_cast<size_t>(PySequence_Fast_GET_SIZE(out_sequence.ptr())) != num_outputs)
        throw Error("outputs=: expected " + std::to_string(num_outputs) +
                    " arrays in package order, got " +
                    std::to_string(PySequence_Fast_GET_SIZE(out_sequence.ptr())));
      for (size_t i = 0; i < num_outputs; ++i)
        given[i] = PySequence_Fast_GET_ITEM(out_sequence.ptr(), i);
    }
  }

  const size_t n = arrays.size();
  std::vector<const void *> in_ptrs(n);
  std::vector<uint64_t> in_sizes(n);
  for (size_t i = 0; i < n; ++i) {
    auto *a = reinterpret_cast<PyArrayObject *>(arrays[i].ptr());
    in_ptrs[i] = PyArray_DATA(a);
    in_sizes[i] = static_cast<uint64_t>(PyArray_NBYTES(a));
  }

  // One lock for the bind, the allocation and the run: another thread's shapes must not come
  // between.
  Locked locked(this);
  mie_session *session = live();
  std::vector<std::vector<npy_intp>> shapes(num_outputs);
  if (!symbol_names_.empty()) {
    std::vector<uint32_t> ranks(n);
    std::vector<std::vector<int64_t>> dims(n);
    std::vector<const int64_t *> dim_ptrs(n);
    for (size_t i = 0; i < n; ++i) {
      auto *a = reinterpret_cast<PyArrayObject *>(arrays[i].ptr());
      ranks[i] = static_cast<uint32_t>(PyArray_NDIM(a));
      dims[i].assign(PyArray_DIMS(a), PyArray_DIMS(a) + PyArray_NDIM(a));
      dim_ptrs[i] = dims[i].data();
    }
    // The runtime names the input, dim and symbol that do not fit.
    // With the data: an input's values may size the model (value symbols).
    check(mie_session_bind_inputs(session, static_cast<uint32_t>(n), ranks.data(), dim_ptrs.data(),
                                  in_ptrs.data()));
    for (size_t i = 0; i < num_outputs; ++i) {
      uint32_t rank = 0;
      const int64_t *out_dims = nullptr;
      check(mie_session_output_shape(session, static_cast<uint32_t>(i), &rank, &out_dims));
      shapes[i].assign(out_dims, out_dims + rank);
    }
  } else {
    for (size_t i = 0; i < num_outputs; ++i)
      shapes[i] = outputs_[i]->dims;
  }
  std::vector<nb::object> results(num_outputs);
  std::vector<void *> out_ptrs(num_outputs);
  std::vector<uint64_t> out_sizes(num_outputs);
  for (size_t i = 0; i < num_outputs; ++i) {
    results[i] = output_array(i, shapes[i], given[i]);
    auto *a = reinterpret_cast<PyArrayObject *>(results[i].ptr());
    out_ptrs[i] = PyArray_DATA(a);
    // The runtime checks every buffer's size against the package, whatever was checked above.
    out_sizes[i] = static_cast<uint64_t>(PyArray_NBYTES(a));
  }
  mie_status status;
  {
    nb::gil_scoped_release release;
    status = mie_session_run_sized(session, static_cast<uint32_t>(n), in_ptrs.data(),
                                   in_sizes.data(), static_cast<uint32_t>(num_outputs),
                                   out_ptrs.data(), out_sizes.data());
  }
  check(status);
  nb::dict out;
  for (size_t i = 0; i < num_outputs; ++i) {
    nb::object value = std::move(results[i]);
    if (nb::len(outputs_[i]->dynamic_dims))
      value = real_shape(i, std::move(value), given[i].is_valid() && !given[i].is_none());
    PyDict_SetItem(out.ptr(), output_names_[i].ptr(), value.ptr());
  }
  return out;
}

// What Session._lock returns: the session's lock as a context manager.
struct SessionLock {
  Session *session;
};

} // namespace

NB_MODULE(_native, m) {
  // numpy's C API table; without it every PyArray_* call would crash.
  if (_import_array() < 0)
    throw nb::python_error();

  m.doc() = "The mie runtime (mie_rt.h) for Python: load a compiled .mie package and run it on "
            "numpy arrays.";
  m.attr("__version__") = MIE_RT_VERSION_STRING;
  m.attr("PACKAGE_FORMAT_VERSION") = MIE_PACKAGE_FORMAT_VERSION;
  m.def("runtime_version", &mie_runtime_version,
        "The version of the runtime linked into this module (the project's version: the tools' "
        "--version).");

  static nb::exception<Error> mie_error(m, "MieError", PyExc_RuntimeError);

  nb::class_<TensorInfo>(
      m, "TensorInfo",
      "Name, numpy dtype and shape of a package input or output. A symbolic dim is its "
      "name (for outputs: an expression of the symbols, \"batch * seq\"). `dynamic_dims`: "
      "the dims of an output whose extent the model computes at run time (NonZero, Unique, "
      "...); `shape` is then their upper bound, and run() returns arrays of the real shape.")
      .def_ro("name", &TensorInfo::name)
      .def_prop_ro(
          "dtype", [](const TensorInfo &t) { return t.dtype; },
          "The numpy dtype (ml_dtypes for the narrow types).")
      .def_prop_rw(
          "shape", [](const TensorInfo &t) { return t.shape; }, &TensorInfo::set_shape,
          "Ints, and str for symbolic dims.")
      .def_prop_ro("dynamic_dims", [](const TensorInfo &t) { return t.dynamic_dims; })
      .def_ro("value_bits", &TensorInfo::value_bits,
              "4 or 2 for the 4-bit and 2-bit types (the bits of each byte that hold the value), "
              "else 0.")
      .def("__repr__", &TensorInfo::repr);

  nb::class_<Session>(
      m, "Session",
      "A loaded, validated package with its arena and threads, ready to run (see mie.load).")
      .def(nb::init<nb::handle, nb::handle, nb::handle, nb::handle, nb::handle>(), "path"_a,
           "threads"_a = 0, "target"_a = nb::none(), "trusted_keys"_a = nb::tuple(),
           "require_signature"_a = false,
           "Opens and validates the package at `path` and creates a session on it (see mie.load).")
      .def_prop_ro("inputs", &Session::inputs, "The package's inputs (TensorInfo), in order.")
      .def_prop_ro("outputs", &Session::outputs, "The package's outputs (TensorInfo), in order.")
      .def_prop_ro(
          "symbols", &Session::symbols,
          "The package's symbolic dims: name -> (min, max), the values a run may give them.")
      .def_prop_ro("target", &Session::target, "The package target this session runs.")
      .def_prop_ro("device", &Session::device,
                   "What the session runs on: \"cpu\", or the CUDA device of a cuda target.")
      .def_prop_ro(
          "targets", &Session::targets,
          "Every target of the package: dicts with name, kind, arch, runnable (here) and reason "
          "(why it cannot run here; \"\" when it can).")
      .def_prop_ro("last_run_ms", &Session::last_run_ms,
                   "Milliseconds the last run took in the runtime.")
      .def_prop_ro("arena_bytes", &Session::arena_bytes,
                   "Arena bytes the next run uses (for symbolic dims: the last bound shapes').")
      .def_prop_ro("threads", &Session::threads,
                   "Threads the session runs with (the caller included).")
      .def_prop_ro("kernels", &Session::kernels,
                   "The kernels a run launches, in order: dicts with name, nodes (the ONNX nodes) "
                   "and flops.")
      .def_prop_ro("batch_slice", &Session::batch_slice,
                   "Samples per slice the bound shapes run their batch in (0: whole; "
                   "docs/dynamic-shapes.md, \"Batch slices\").")
      .def("set_batch_slice", &Session::set_batch_slice, "slice"_a,
           "Runs a batch of more than `slice` samples in slices of `slice` where the package "
           "marks a batch symbol: -1 lets the runtime choose (the default), 0 runs it whole.")
      .def("set_threads", &Session::set_threads, "threads"_a,
           "Sets the thread count (0: one per core).")
      .def("set_random_seed", &Session::set_random_seed, "seed"_a,
           "Makes the following runs draw the same random numbers as any session given `seed` (an "
           "integer in "
           "[0, 2**64)) after as many runs (docs/random.md).")
      .def("set_profiling", &Session::set_profiling, "enable"_a,
           "Times every kernel of the following runs (the runtime's profiler hook); read with "
           "profile().")
      .def("profile", &Session::profile,
           "The kernels of the last run with their time: dicts name, nodes, flops, ms "
           "(set_profiling first).")
      .def("run", &Session::run, "inputs"_a, "outputs"_a = nb::none(),
           "Runs once. `inputs`: dict name -> array, or a sequence in package order. Returns a "
           "dict name -> "
           "array. Dtypes and shapes must match the package exactly (no implicit casts); "
           "C-contiguous inputs "
           "of the package's dtype are read in place. `outputs`: arrays to write into (dict by "
           "name, or a "
           "sequence in package order), returned in the dict.")
      .def("close", &Session::close,
           "Frees the session (waits for a run in progress); a closed session raises.")
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); })
      .def("__exit__", [](Session &s, nb::args) { s.close(); })
      .def_prop_ro(
          "_lock", [](Session &s) { return SessionLock{&s}; }, nb::keep_alive<0, 1>(),
          "The session's lock as a context manager: `with session._lock:` holds off run(), close() "
          "and the "
          "properties on other threads.");

  nb::class_<SessionLock>(m, "_SessionLock")
      .def("__enter__", [](SessionLock &l) { l.session->lock(); })
      .def("__exit__", [](SessionLock &l, nb::args) { l.session->unlock(); });
}
