// fixed_point.hpp: the integer arithmetic of the Q7.8 (and other fixed-point) paths: rounding a
// right shift with vx_round_policy_e, narrowing with vx_convert_policy_e to an element type or
// to an accumulator width, and rounding a real to an integer exactly.
#pragma once

#include <VX/vx_khr_cnn.h>

#include <cmath>
#include <cstdint>

namespace openvx::fixed {

/// v / 2^shift rounded with the policy (shift >= 0; shift < 0 multiplies, saturating at int64).
inline std::int64_t round_shift(std::int64_t v, int shift, vx_enum rounding) {
    if (shift <= 0) {
        const __int128 wide =
            static_cast<__int128>(v) * (static_cast<__int128>(1) << (-shift > 64 ? 64 : -shift));
        const __int128 lo = INT64_MIN, hi = INT64_MAX;
        return static_cast<std::int64_t>(wide < lo ? lo : (wide > hi ? hi : wide));
    }
    if (shift > 62) return 0;  // callers' |v| stays below 2^61, so the quotient rounds to 0
    const std::int64_t unit = std::int64_t{1} << shift;
    std::int64_t q = v / unit;  // toward zero
    if (rounding == VX_ROUND_POLICY_TO_NEAREST_EVEN) {
        const std::int64_t r = v % unit;
        const std::int64_t twice = 2 * (r < 0 ? -r : r);
        if (twice > unit || (twice == unit && (q & 1) != 0)) q += v < 0 ? -1 : 1;
    }
    return q;
}

/// Range of an element type.
inline std::int64_t type_min(vx_enum type) {
    return type == VX_TYPE_INT16 ? INT16_MIN : type == VX_TYPE_INT8 ? INT8_MIN : 0;
}
inline std::int64_t type_max(vx_enum type) {
    return type == VX_TYPE_INT16 ? INT16_MAX : type == VX_TYPE_INT8 ? INT8_MAX : UINT8_MAX;
}

/// v narrowed to a signed integer of `bits` bits (2..64) with wrap-around or saturation.
inline std::int64_t narrow_bits(std::int64_t v, int bits, vx_enum overflow) {
    if (bits >= 64) return v;
    const std::int64_t hi = (std::int64_t{1} << (bits - 1)) - 1, lo = -hi - 1;
    if (overflow == VX_CONVERT_POLICY_SATURATE) return v < lo ? lo : (v > hi ? hi : v);
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    std::uint64_t u = static_cast<std::uint64_t>(v) & mask;
    if (u & (std::uint64_t{1} << (bits - 1))) u |= ~mask;  // sign-extend
    return static_cast<std::int64_t>(u);
}

/// v narrowed to an element type's range with wrap-around or saturation.
inline std::int64_t narrow_to(std::int64_t v, vx_enum type, vx_enum overflow) {
    const std::int64_t lo = type_min(type), hi = type_max(type);
    if (overflow == VX_CONVERT_POLICY_SATURATE) return v < lo ? lo : (v > hi ? hi : v);
    switch (type) {
        case VX_TYPE_INT16:
            return static_cast<std::int16_t>(static_cast<std::uint16_t>(v));
        case VX_TYPE_INT8:
            return static_cast<std::int8_t>(static_cast<std::uint8_t>(v));
        default:
            return static_cast<std::uint8_t>(v);
    }
}

/// A real rounded to an integer with the policy (nearest: ties to even), independent of the
/// floating-point environment; NaN gives 0; clamped far outside any element range.
inline std::int64_t round_real(double value, vx_enum rounding) {
    if (std::isnan(value)) return 0;
    if (value > 9.0e18) return INT64_MAX / 2;
    if (value < -9.0e18) return INT64_MIN / 2;
    const double whole = std::trunc(value);
    if (rounding == VX_ROUND_POLICY_TO_NEAREST_EVEN) {
        const double rest = std::fabs(value - whole);
        if (rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) != 0.0)) {
            return static_cast<std::int64_t>(whole + std::copysign(1.0, value));
        }
    }
    return static_cast<std::int64_t>(whole);
}

}  // namespace openvx::fixed
