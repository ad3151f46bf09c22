// device_buffer.hpp: backend memory of the myriad plugin: one OpenCL buffer on the runtime's
// context, not host-addressable; tensors in it are dense row-major.
#pragma once

#include "myriad/cl_config.h"
#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::myriad {

class device_buffer final : public sdk::buffer {
  public:
    device_buffer(cl::Buffer mem, std::int64_t bytes) : mem_(std::move(mem)), size_(bytes) {}

    std::int64_t size() const override { return size_; }
    const cl::Buffer& mem() const { return mem_; }

  private:
    cl::Buffer mem_;
    std::int64_t size_ = 0;
};

}  // namespace tessera::plugins::myriad
