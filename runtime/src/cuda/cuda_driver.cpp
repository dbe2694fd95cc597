#include "cuda_driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

namespace mie::rt::cuda {
namespace {

// Loads `path` and resolves every function; "" on success, else what is missing.
std::string open_driver(const std::string &path, Driver *d) {
  dlerror();
  // RTLD_LOCAL: the driver's symbols must not satisfy anything else (a code object has no undefined symbols
  // of ours anyway). RTLD_NOW: a driver lacking a function fails here, not at the first launch.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *e = dlerror();
    return "no CUDA driver (" + path + ": " + (e ? e : "cannot be loaded") + ")";
  }
#define MIE_CUDA_RESOLVE(name, symbol, ret, args)                                                           \
  d->name = reinterpret_cast<ret(*) args>(dlsym(handle, symbol));                                           \
  if (!d->name) {                                                                                           \
    dlclose(handle);                                                                                        \
    return "the CUDA driver " + path + " lacks " + symbol + " (it is older than this runtime needs)";       \
  }
  MIE_CUDA_DRIVER_FUNCTIONS(MIE_CUDA_RESOLVE)
#undef MIE_CUDA_RESOLVE
  d->path = path;
  if (d->cuDriverGetVersion(&d->version) != CUDA_SUCCESS) d->version = 0;  // needs no cuInit
  return "";
}

}  // namespace

std::string Driver::error_text(CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) return "CUDA error " + std::to_string(r);
  std::string s = name;
  if (cuGetErrorString(r, &text) == CUDA_SUCCESS && text) s += std::string(" (") + text + ")";
  return s;
}

const Driver *load_driver(std::string *why) {
  const char *env = std::getenv("MIE_CUDA_DRIVER");
  const std::string path = env && env[0] ? env : "libcuda.so.1";
  // One Driver per name, never freed: sessions keep raw pointers, and unloading libcuda is not supported.
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Driver>> loaded;
  std::lock_guard<std::mutex> lk(mu);
  auto it = loaded.find(path);
  if (it != loaded.end()) return it->second.get();
  auto d = std::make_unique<Driver>();
  const std::string error = open_driver(path, d.get());
  if (!error.empty()) {
    *why = error;  // not cached: a driver installed later (or a corrected path) is found on the next call
    return nullptr;
  }
  return (loaded[path] = std::move(d)).get();
}

bool find_device(const Driver &d, Device *out, std::string *why) {
  CUresult r = d.cuInit(0);
  if (r == CUDA_ERROR_NO_DEVICE) {
    *why = "no CUDA device";
    return false;
  }
  if (r != CUDA_SUCCESS) {
    *why = "the CUDA driver does not initialize: cuInit: " + d.error_text(r);
    return false;
  }
  int count = 0;
  if ((r = d.cuDeviceGetCount(&count)) != CUDA_SUCCESS) {
    *why = "cuDeviceGetCount: " + d.error_text(r);
    return false;
  }
  if (count <= 0) {
    *why = "no CUDA device";
    return false;
  }
  int ordinal = 0;
  if (const char *env = std::getenv("MIE_CUDA_DEVICE"); env && env[0]) {
    char *end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (*end != 0 || v < 0 || v >= count) {
      *why = std::string("MIE_CUDA_DEVICE='") + env + "' is not a device ordinal (this machine has " +
             std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s") + ")";
      return false;
    }
    ordinal = int(v);
  }
  int major = 0, minor = 0;
  char name[256] = {};
  if ((r = d.cuDeviceGet(&out->device, ordinal)) != CUDA_SUCCESS ||
      (r = d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, out->device)) != CUDA_SUCCESS ||
      (r = d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, out->device)) != CUDA_SUCCESS ||
      (r = d.cuDeviceGetName(name, int(sizeof name) - 1, out->device)) != CUDA_SUCCESS) {
    *why = "cannot query CUDA device " + std::to_string(ordinal) + ": " + d.error_text(r);
    return false;
  }
  out->ordinal = ordinal;
  out->sm = major * 10 + minor;
  out->name = name;
  return true;
}

}  // namespace mie::rt::cuda
