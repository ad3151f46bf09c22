// device_buffer.hpp: backend memory of the myriad plugin: one OpenCL buffer on the runtime's
// context, not host-addressable; tensors in it are dense row-major. Each buffer carries a write
// generation, unique over the process and renewed at every write the backend makes (a host copy,
// an import, a partition writing it), so a program can tell that a buffer still holds what it
// read before without reading it again.
#pragma once

#include <atomic>
#include <cstdint>

#include "myriad/cl_config.h"
#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::myriad {

class device_buffer final : public sdk::buffer {
  public:
    device_buffer(cl::Buffer mem, std::int64_t bytes)
        : mem_(std::move(mem)), size_(bytes), generation_(next_generation()) {}

    std::int64_t size() const override { return size_; }
    const cl::Buffer& mem() const { return mem_; }

    /// The generation of the buffer's current contents.
    std::uint64_t generation() const { return generation_; }
    /// Records that the contents changed (called after every write).
    void mark_written() { generation_ = next_generation(); }

  private:
    static std::uint64_t next_generation() {
        static std::atomic<std::uint64_t> counter{0};
        return counter.fetch_add(1, std::memory_order_relaxed) + 1;
    }

    cl::Buffer mem_;
    std::int64_t size_ = 0;
    std::uint64_t generation_ = 0;
};

}  // namespace tessera::plugins::myriad
