// stick_buffer.hpp: zaiu backend memory: 4 KiB aligned (zDNN requires it of every ztensor
// buffer), owned or borrowed from an aligned caller.
#pragma once

#include <cstring>

#include "tessera/sdk/backend.hpp"
#include "zdnn_call.hpp"

namespace tessera::plugins::zaiu {

class stick_buffer final : public tessera::sdk::buffer {
  public:
    explicit stick_buffer(std::int64_t bytes)
        : memory_(static_cast<std::uint64_t>(bytes)), data_(memory_.data()), size_(bytes) {}
    stick_buffer(void* borrowed, std::int64_t bytes) : data_(borrowed), size_(bytes) {}

    std::int64_t size() const override { return size_; }
    void* host_data() override { return data_; }

  private:
    stick_memory memory_;
    void* data_ = nullptr;
    std::int64_t size_ = 0;
};

}  // namespace tessera::plugins::zaiu
