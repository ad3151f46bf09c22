// RAII owner of zero-initialised 4 KiB-aligned storage (work areas, temporary tensors).
#pragma once

#include <cstdlib>
#include <cstring>
#include <memory>

namespace tessera::zdnn {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<unsigned char, FreeDeleter>;

// nullptr when allocation fails. Size is rounded up to a whole page.
inline void* allocate_4k(size_t bytes) {
  const size_t rounded = (bytes + 4095) / 4096 * 4096;
  return std::aligned_alloc(4096, rounded == 0 ? 4096 : rounded);
}

inline AlignedBuffer make_aligned_buffer(size_t bytes, bool zero = true) {
  AlignedBuffer b(static_cast<unsigned char*>(allocate_4k(bytes)));
  if (b && zero) std::memset(b.get(), 0, bytes);
  return b;
}

}  // namespace tessera::zdnn
