// zdnn_call.hpp: the plugin's thin RAII layer over zdnn.h: status checks that throw
// tessera::error, 4 KiB aligned stick memory, and zview, a zdnn_ztensor owning its descriptors.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include <zdnn.h>

#include "stick_format.hpp"
#include "tessera/error.hpp"

namespace tessera::plugins::zaiu {

inline constexpr std::size_t stick_alignment = 4096;

/// Throws unless `s` is ZDNN_OK or a warning (results in range-violating elements hold NINF,
/// which reads back as NaN).
void check(zdnn_status s, const std::string& what);

/// Owned, zero-filled, 4 KiB aligned memory for sticks.
class stick_memory {
  public:
    stick_memory() = default;
    explicit stick_memory(std::uint64_t bytes);
    void* data() const { return data_.get(); }
    std::uint64_t size() const { return size_; }

  private:
    struct release {
        void operator()(void* p) const { std::free(p); }
    };
    std::unique_ptr<void, release> data_;
    std::uint64_t size_ = 0;
};

/// A zdnn_ztensor with its own pre-transformed and transformed descriptors. The ztensor points
/// into this object, so it is neither copied nor moved.
class zview {
  public:
    zview(const pre_shape& shape, zdnn_data_types type);
    zview(const zview&) = delete;
    zview& operator=(const zview&) = delete;

    /// The ztensor over `buffer` (at least size() bytes, 4 KiB aligned), marked transformed or not.
    zdnn_ztensor* bind(void* buffer, bool transformed);
    /// Makes this a quantised ztensor (zdnn_init_quantized_ztensor: rec_scale = 1 / scale).
    void quantize(float scale, float offset);
    /// Binds owned memory, allocating it on first use.
    zdnn_ztensor* bind_scratch(bool transformed);

    const zdnn_tensor_desc& transformed() const { return tfrmd_; }
    const zdnn_tensor_desc& pre_transformed() const { return pre_; }
    std::uint64_t size() const { return zdnn_getsize_ztensor(&tfrmd_); }

  private:
    zdnn_tensor_desc pre_{};
    zdnn_tensor_desc tfrmd_{};
    zdnn_ztensor z_{};
    stick_memory scratch_;
};

/// Whether two transformed descriptors describe the same stick bytes.
bool same_sticks(const zdnn_tensor_desc& a, const zdnn_tensor_desc& b);

}  // namespace tessera::plugins::zaiu
