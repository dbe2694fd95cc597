#include "huge_pages.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

namespace mie::rt {
namespace {
constexpr uint64_t kHugePageBytes = uint64_t(2) << 20;

// The first 2 MiB boundary at or after `p`.
uint8_t *huge_page_aligned(void *p) {
  uint8_t *b = static_cast<uint8_t *>(p);
  return b + (kHugePageBytes - reinterpret_cast<uintptr_t>(b) % kHugePageBytes) % kHugePageBytes;
}
}  // namespace

HugePageBuffer::~HugePageBuffer() {
  if (mapping_) munmap(mapping_, mapping_size_);
}

bool HugePageBuffer::allocate(uint64_t size) {
  // Large buffers: one spare huge page of address space to start the contents on a 2 MiB boundary.
  const bool huge = size >= kHugePageBytes;
  const uint64_t span = huge ? (size + 2 * kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes : size;
  if (span > SIZE_MAX) {
    errno = ENOMEM;
    return false;
  }
  void *m = mmap(nullptr, size_t(span), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return false; // the old mapping, if any, stays
  if (mapping_)
    munmap(mapping_, mapping_size_);
  mapping_ = m;
  mapping_size_ = size_t(span);
  data_ = static_cast<uint8_t *>(m);
  if (huge) {
    data_ = huge_page_aligned(m);
    madvise(data_, mapping_size_ - size_t(data_ - static_cast<uint8_t *>(m)), MADV_HUGEPAGE);  // a hint
  }
  return true;
}

MappedFile::~MappedFile() {
  if (reservation_) munmap(reservation_, reservation_size_);
}

bool MappedFile::map(int fd, uint64_t size) {
  // Reserve a huge page more than needed, then map the file over the reservation from its first 2 MiB
  // boundary: file offsets and addresses then agree modulo 2 MiB, which a huge-page mapping needs.
  const bool huge = size >= kHugePageBytes;
  const uint64_t span = huge ? size + kHugePageBytes : size;
  if (span > SIZE_MAX) {
    errno = ENOMEM;
    return false;
  }
  void *r = mmap(nullptr, size_t(span), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (r == MAP_FAILED) return false;
  reservation_ = r;
  reservation_size_ = size_t(span);
  uint8_t *at = huge ? huge_page_aligned(r) : static_cast<uint8_t *>(r);
  void *m = mmap(at, size_t(size), PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
  if (m == MAP_FAILED) return false;  // the destructor releases the reservation
  if (huge) madvise(m, size_t(size), MADV_HUGEPAGE);  // a hint
  data_ = static_cast<const uint8_t *>(m);
  size_ = size;
  return true;
}

void MappedFile::release(const uint8_t *begin, uint64_t size) const {
  // Whole 2 MiB pages only: dropping part of one would split a huge-page mapping into 4 KiB ones. The page
  // holding `begin` goes (its bytes before `begin` were read before, by the streaming caller); the one
  // holding the end stays unless the range ends on a boundary, for the next call to drop.
  // Only inside a huge mapping, which starts on a 2 MiB boundary: rounding down can then never reach
  // below it (below a small mapping lies other memory, which MADV_DONTNEED would zero if anonymous).
  if (size_ < kHugePageBytes || begin < data_ || begin > data_ + size_) return;
  const uintptr_t start = reinterpret_cast<uintptr_t>(data_), end = start + size_;
  const uintptr_t from = reinterpret_cast<uintptr_t>(begin) / kHugePageBytes * kHugePageBytes;
  const uintptr_t to = std::min<uintptr_t>(reinterpret_cast<uintptr_t>(begin) + size, end) / kHugePageBytes *
                       kHugePageBytes;
  if (from >= start && to > from) madvise(reinterpret_cast<void *>(from), to - from, MADV_DONTNEED);
}

}  // namespace mie::rt
