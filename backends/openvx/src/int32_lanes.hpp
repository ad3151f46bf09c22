// int32_lanes.hpp: the per-product step of the int32-lane kernels (kernel_conv_fast.cpp,
// kernel_fc_fast.cpp), xsimd batches of the build's architecture: an exact product of two int16
// values (|x w| <= 2^30), rounded with the policy and narrowed to int16 with the overflow
// policy, exactly as the scalar kernels do it.
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdint>

namespace openvx::int32_lanes {

using lanes = xsimd::batch<std::int32_t>;
constexpr std::size_t width = lanes::size;

/// Rounds p / 2^shift (shift 0..30) with the policy and narrows to int16 with the overflow
/// policy, per lane.
inline lanes product_lanes(const lanes& p, int shift, bool nearest, bool saturate) {
    lanes q = p;
    if (shift > 0) {
        const lanes floor_q = p >> shift;
        if (nearest) {
            const lanes mask(static_cast<std::int32_t>((1u << shift) - 1u));
            const lanes half(static_cast<std::int32_t>(1u << (shift - 1)));
            const lanes rest = p & mask;
            const lanes one(1);
            const auto up = (rest > half) | ((rest == half) & ((floor_q & one) == one));
            q = xsimd::select(up, floor_q + one, floor_q);
        } else {
            // Toward zero: negative values round up; add 2^shift - 1 before the floor shift.
            const lanes mask(static_cast<std::int32_t>((1u << shift) - 1u));
            const lanes negative_bias = (p >> 31) & mask;
            q = (p + negative_bias) >> shift;
        }
    }
    if (saturate) return xsimd::min(xsimd::max(q, lanes(-32768)), lanes(32767));
    return (q << 16) >> 16;  // two's complement wrap to 16 bits
}

}  // namespace openvx::int32_lanes
