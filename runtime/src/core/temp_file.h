// A temporary file beside a target, for writing it atomically (write, fsync, rename or link): the
// package writer and the signing tools share it.
#ifndef MIE_RT_CORE_TEMP_FILE_H
#define MIE_RT_CORE_TEMP_FILE_H

#include <cerrno>
#include <cstdint>
#include <string>

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

namespace mie::rt {

/// Creates `path`.tmp-XXXXXX (six random letters or digits) with O_EXCL and permissions `mode` (less
/// the umask), in the target's folder so that the final rename or link stays on one file system.
/// Our own name instead of mkstemp: mkstemp creates 0600, and the file must have `mode` from the
/// start (never briefly wider or narrower). Returns the descriptor and sets *tmp, or -1 with errno
/// set (and *tmp the last name tried).
inline int create_temp_beside(const std::string &path, unsigned mode, std::string *tmp) {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t seed = uint64_t(ts.tv_nsec) ^ (uint64_t(getpid()) << 32) ^ uint64_t(ts.tv_sec);
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    *tmp = path + ".tmp-";
    for (int i = 0; i < 6; ++i) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      *tmp += kChars[(seed >> 33) % 62];
    }
    fd = ::open(tmp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0 && errno != EEXIST) break;
  }
  return fd;
}

}  // namespace mie::rt

#endif  // MIE_RT_CORE_TEMP_FILE_H
