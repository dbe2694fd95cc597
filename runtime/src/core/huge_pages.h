// Anonymous memory for the large, streamed buffers of a model: the package's weights and a session's
// arena. From 2 MiB on it starts on a 2 MiB boundary and is advised for transparent huge pages:
// weights stream through the kernels once per inference, and on 4 KiB pages (the page cache of a plain
// mmap of the package) resnet50 ran about 4% slower, from a TLB miss on every 4 KiB of weights.
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

  // Maps `size` (> 0) zeroed, writable bytes; false (errno set) when the system has no room.
  bool allocate(uint64_t size);
  uint8_t *data() const { return data_; }
  // No more writes: the contents are final (a validated package, shared by every session).
  void make_read_only();

 private:
  void *mapping_ = nullptr;  // the whole mapping; data_ may start past its base
  size_t mapping_size_ = 0;
  uint8_t *data_ = nullptr;
};

}  // namespace mie::rt
