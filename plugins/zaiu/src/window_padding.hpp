// window_padding.hpp: recognises a resolved conv2d/pooling window geometry as zDNN's SAME or
// VALID padding (explicit padding that happens to equal one of them counts).
#pragma once

#include <algorithm>
#include <optional>

#include <zdnn.h>

#include "tessera/ops/compute_common.hpp"

namespace tessera::plugins::zaiu {

inline std::optional<zdnn_pool_padding> zdnn_padding(std::int64_t in_h, std::int64_t in_w,
                                                     std::int64_t kh, std::int64_t kw,
                                                     std::int64_t sh, std::int64_t sw,
                                                     const tessera::op::spatial_extent& y,
                                                     const tessera::op::spatial_extent& x) {
    auto same = [](std::int64_t in, std::int64_t k, std::int64_t s,
                   const tessera::op::spatial_extent& e) {
        const std::int64_t o = (in + s - 1) / s;
        const std::int64_t total = std::max<std::int64_t>((o - 1) * s + k - in, 0);
        return e.out == o && e.pad_before == total / 2 && e.pad_after == total - total / 2;
    };
    auto valid = [](std::int64_t in, std::int64_t k, std::int64_t s,
                    const tessera::op::spatial_extent& e) {
        return in >= k && e.out == (in - k) / s + 1 && e.pad_before == 0 && e.pad_after == 0;
    };
    if (valid(in_h, kh, sh, y) && valid(in_w, kw, sw, x)) return VALID_PADDING;
    if (same(in_h, kh, sh, y) && same(in_w, kw, sw, x)) return SAME_PADDING;
    return std::nullopt;
}

}  // namespace tessera::plugins::zaiu
