// blocked_pixels.hpp: the pixels of one 16-channel block of nchw16c f32 tensors, for the
// plugin's own loops in the blocked layout (a per-channel binary operand, PReLU): each pixel's
// 16 channel lanes are contiguous.
#pragma once

#include <algorithm>
#include <cstdint>

#include "layouts.hpp"

namespace tessera::plugins::cpu {

/// Channels per block of the nchw16c layout.
inline constexpr std::int64_t channel_block = 16;

/// Calls lanes(x, y) at every pixel of the block of channels [c, c + 16) of image n, x the
/// block's 16 lanes in input `in` (geometry `in_info`), y those in output `out`; afterwards
/// writes the lanes past the output's channels as zero (what the next blocked op expects).
template <typename Lanes>
void for_block_pixels(const runtime::TensorInfo& in_info, const unsigned char* in,
                      const runtime::TensorInfo& out_info, unsigned char* out, std::int64_t n,
                      std::int64_t c, Lanes&& lanes) {
    const std::int64_t valid = std::min(channel_block, out_info.c() - c);
    for (std::int64_t h = 0; h < out_info.h(); ++h) {
        const auto* x = reinterpret_cast<const float*>(in + in_info.offset_of(n, c, h, 0));
        auto* y = reinterpret_cast<float*>(out + out_info.offset_of(n, c, h, 0));
        for (std::int64_t w = 0; w < out_info.w(); ++w) {
            float* yw = y + w * out_info.stride_w();
            lanes(x + w * in_info.stride_w(), yw);
            std::fill(yw + valid, yw + channel_block, 0.0f);
        }
    }
}

/// Calls rows(x, y) for each row of the block of channels [c, c + 16) of image n: x the row's
/// first pixel in input `in` (geometry `in_info`), y in output `out`.
template <typename Rows>
void for_block_rows(const runtime::TensorInfo& in_info, const unsigned char* in,
                    const runtime::TensorInfo& out_info, unsigned char* out, std::int64_t n,
                    std::int64_t c, Rows&& rows) {
    for (std::int64_t h = 0; h < out_info.h(); ++h)
        rows(reinterpret_cast<const float*>(in + in_info.offset_of(n, c, h, 0)),
             reinterpret_cast<float*>(out + out_info.offset_of(n, c, h, 0)));
}

}  // namespace tessera::plugins::cpu
