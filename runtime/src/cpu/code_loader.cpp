#include "code_loader.h"

#include <dlfcn.h>
#include <link.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "host_cpu.h"

namespace mie::rt {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
constexpr uint16_t kHostMachine = EM_NONE;
#endif

const char *machine_name(uint16_t m) {
  switch (m) {
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return "aarch64";
    case EM_386: return "i386";
    case EM_ARM: return "arm";
    case EM_RISCV: return "riscv";
    default: return nullptr;
  }
}

bool write_all(int fd, const uint8_t *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= size_t(n);
  }
  return true;
}

// Returns an fd holding the bytes, or -1 with *error set. *memfd tells which mechanism was used.
int materialize(const uint8_t *data, size_t size, const std::string &what, bool *memfd, std::string *path,
                std::string *error) {
  const char *disable = std::getenv("MIE_RT_DISABLE_MEMFD");
  const bool try_memfd = !(disable && disable[0] && std::strcmp(disable, "0") != 0);
#ifdef MFD_CLOEXEC
  if (try_memfd) {
    int fd = memfd_create("mie-code", MFD_CLOEXEC);
    if (fd >= 0) {
      std::string proc = "/proc/self/fd/" + std::to_string(fd);
      // Without /proc (some minimal containers) dlopen cannot reach the memfd; use the temp file instead.
      if (access(proc.c_str(), R_OK) == 0) {
        if (!write_all(fd, data, size)) {
          *error = what + ": cannot write code object to memfd: " + std::strerror(errno);
          ::close(fd);
          return -1;
        }
        *memfd = true;
        *path = proc;
        return fd;
      }
      ::close(fd);
    }
  }
#else
  (void)try_memfd;
#endif
  const char *tmpdir = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmpdir && tmpdir[0] ? tmpdir : "/tmp") + "/mie-code-XXXXXX";
  int fd = mkostemp(&tmpl[0], O_CLOEXEC);
  if (fd < 0) {
    *error = what + ": cannot create temporary file for the code object in '" + tmpl + "': " + std::strerror(errno);
    return -1;
  }
  fchmod(fd, 0700);
  if (!write_all(fd, data, size)) {
    *error = what + ": cannot write code object to '" + tmpl + "': " + std::strerror(errno);
    ::close(fd);
    unlink(tmpl.c_str());
    return -1;
  }
  *memfd = false;
  *path = tmpl;
  return fd;
}

}  // namespace

bool check_elf_image(const uint8_t *data, size_t size, std::string *error) {
  if (size < sizeof(Elf64_Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0) {
    *error = "code object is not an ELF file";
    return false;
  }
  if (data[EI_CLASS] != ELFCLASS64) {
    *error = "code object is not a 64-bit ELF file";
    return false;
  }
  if (data[EI_DATA] != ELFDATA2LSB) {
    *error = "code object is not little-endian";
    return false;
  }
  Elf64_Ehdr eh;
  std::memcpy(&eh, data, sizeof eh);  // the section is 64-byte aligned, but stay alignment-agnostic
  if (eh.e_type != ET_DYN) {
    *error = "code object is not an ELF shared object (e_type " + std::to_string(eh.e_type) + ")";
    return false;
  }
  if (eh.e_machine != kHostMachine) {
    const char *got = machine_name(eh.e_machine);
    *error = std::string("code object is for ") + (got ? got : ("ELF machine " + std::to_string(eh.e_machine)).c_str()) +
             " but this host is " + host_arch();
    return false;
  }
  return true;
}

mie_status LoadedCode::load(const uint8_t *data, size_t size, const std::string &what, const std::string &entry,
                            std::string *error) {
  std::string elf_error;
  if (!check_elf_image(data, size, &elf_error)) {
    *error = what + ": " + elf_error;
    return MIE_ERR_LOAD;
  }
  bool memfd = false;
  std::string path;
  int fd = materialize(data, size, what, &memfd, &path, error);
  if (fd < 0) return MIE_ERR_IO;
  // dlopen returns an object already loaded under the same name instead of loading this one: move the
  // memfd to another number while its /proc name is taken (by an object that outlives its fd, one
  // linked with -z nodelete say).
  for (int tries = 0; memfd && tries < 64; ++tries) {
    void *loaded = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (!loaded) break;
    dlclose(loaded);
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, fd + 1);
    if (moved < 0) break;
    ::close(fd);
    fd = moved;
    path = "/proc/self/fd/" + std::to_string(fd);
  }
  dlerror();
  // RTLD_LOCAL: two sessions (or two packages) may export the same symbols without interfering.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char *dl_error = handle ? nullptr : dlerror();
  const std::string dl_message = dl_error ? dl_error : "unknown error";
  if (!memfd) unlink(path.c_str());  // the mapping stays valid; nothing is left behind on disk
  ::close(fd);
  if (!handle) {
    *error = what + ": cannot load code object: " + dl_message;
    return MIE_ERR_LOAD;
  }
  dlerror();
  void *sym = dlsym(handle, entry.c_str());
  if (!sym) {
    dlclose(handle);
    *error = what + ": code object does not export entry symbol '" + entry + "'";
    return MIE_ERR_LOAD;
  }
  handle_ = handle;
  entry_ = sym;
  used_memfd_ = memfd;
  return MIE_OK;
}

const void *LoadedCode::symbol(const char *name, size_t *size) const {
  *size = 0;
  if (!handle_) return nullptr;
  dlerror();
  void *sym = dlsym(handle_, name);
  if (!sym) return nullptr;
  // dlsym also searches the object's dependencies (libc); only a symbol of the code object itself counts.
  Dl_info info;
  ElfW(Sym) *entry = nullptr;
  Dl_info entry_info;
  if (!dladdr1(sym, &info, reinterpret_cast<void **>(&entry), RTLD_DL_SYMENT) || !dladdr(entry_, &entry_info) ||
      info.dli_fbase != entry_info.dli_fbase)
    return nullptr;
  if (entry) *size = size_t(entry->st_size);
  return sym;
}

LoadedCode::~LoadedCode() {
  if (handle_) dlclose(handle_);
}

}  // namespace mie::rt
