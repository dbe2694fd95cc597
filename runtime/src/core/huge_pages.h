// Memory for the large, streamed buffers of a model: the package's weights (a read-only mapping of the
// package file) and a session's arena (anonymous). From 2 MiB on both start on a 2 MiB boundary and
// are advised for transparent huge pages: weights stream through the kernels once per inference, and on
// 4 KiB pages resnet50 ran about 4% slower, from a TLB miss on every 4 KiB of weights. A file mapping
// gets huge pages where the kernel keeps the file's page cache in 2 MiB folios (ext4, xfs, tmpfs on
// Linux 6.x); elsewhere it works the same on 4 KiB pages.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mie::rt {

class HugePageBuffer {
 public:
  HugePageBuffer() = default;
  ~HugePageBuffer();
  HugePageBuffer(const HugePageBuffer &) = delete;
  HugePageBuffer &operator=(const HugePageBuffer &) = delete;

  // Maps `size` (> 0) zeroed, writable bytes, replacing (unmapping) what the buffer held; false
  // (errno set) when the system has no room, and the buffer keeps what it had.
  bool allocate(uint64_t size);
  uint8_t *data() const { return data_; }

 private:
  void *mapping_ = nullptr;  // the whole mapping; data_ may start past its base
  size_t mapping_size_ = 0;
  uint8_t *data_ = nullptr;
};

// A file mapped read-only and private, never copied: what every session of a package reads its weights
// from. Sessions share the page cache; a package replaced by mie-compile (a rename) keeps this inode.
class MappedFile {
 public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  // Maps the first `size` (> 0) bytes of `fd`; false (errno set) on failure.
  bool map(int fd, uint64_t size);
  const uint8_t *data() const { return data_; }
  // Drops the 2 MiB pages holding [begin, begin + size), but for the last one when the range ends inside
  // it, from the process's resident memory: made for a caller streaming through the file in order. The
  // next read maps them back from the page cache (or the file); the contents never change.
  void release(const uint8_t *begin, uint64_t size) const;

 private:
  void *reservation_ = nullptr;  // the address space reserved to align the mapping
  size_t reservation_size_ = 0;
  const uint8_t *data_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace mie::rt
