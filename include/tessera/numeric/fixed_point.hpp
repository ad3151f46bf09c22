// tessera/numeric/fixed_point.hpp: integer conversions with explicit rounding and overflow
// policies, as OpenVX defines them (vx_round_policy_e, vx_convert_policy_e), used for Q7.8 int16
// and for integer element-wise arithmetic.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tessera {

enum class rounding_policy : std::int32_t { to_zero = 0, to_nearest_even = 1 };
enum class overflow_policy : std::int32_t { wrap = 0, saturate = 1 };

namespace numeric {

/// Rounds a real number to an integer-valued double with the given policy, whatever the
/// floating-point environment's rounding mode (std::nearbyint would follow fesetround).
inline double round_with(double value, rounding_policy rounding) {
    const double whole = std::trunc(value);
    if (rounding == rounding_policy::to_zero) return whole;
    const double rest = std::fabs(value - whole);  // exact
    const bool away = rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) != 0.0);
    return away ? whole + std::copysign(1.0, value) : whole;
}

/// Converts an integer-valued wide result to Int with wrap-around or saturation.
template <typename Int>
Int narrow_with(std::int64_t value, overflow_policy overflow) {
    static_assert(std::is_integral_v<Int>);
    constexpr std::int64_t lo = std::numeric_limits<Int>::min();
    constexpr std::int64_t hi = std::numeric_limits<Int>::max();
    if (overflow == overflow_policy::saturate) {
        return static_cast<Int>(value < lo ? lo : (value > hi ? hi : value));
    }
    using U = std::make_unsigned_t<Int>;
    return static_cast<Int>(static_cast<U>(static_cast<std::uint64_t>(value)));
}

/// Real -> Int with policies; NaN maps to 0.
template <typename Int>
Int to_integer(double value, rounding_policy rounding, overflow_policy overflow) {
    if (std::isnan(value)) return 0;
    const double r = round_with(value, rounding);
    constexpr double big = 9.0e18;
    const std::int64_t wide = static_cast<std::int64_t>(r < -big ? -big : (r > big ? big : r));
    return narrow_with<Int>(wide, overflow);
}

/// Real -> fixed point with `fraction_bits` fractional bits (Q7.8: int16_t, 8).
template <typename Int>
Int to_fixed(double value, int fraction_bits,
             rounding_policy rounding = rounding_policy::to_nearest_even,
             overflow_policy overflow = overflow_policy::saturate) {
    return to_integer<Int>(std::ldexp(value, fraction_bits), rounding, overflow);
}

/// Fixed point -> real.
template <typename Int>
double from_fixed(Int value, int fraction_bits) {
    return std::ldexp(static_cast<double>(value), -fraction_bits);
}

/// Product of two fixed-point numbers with the same position, rounded and narrowed once. The
/// exact 64-bit product is rounded in integers (a double would drop bits of 32-bit products).
template <typename Int>
Int fixed_multiply(Int a, Int b, int fraction_bits, rounding_policy rounding,
                   overflow_policy overflow) {
    static_assert(sizeof(Int) <= 4, "the exact product must fit in 64 bits");
    const std::int64_t wide = static_cast<std::int64_t>(a) * static_cast<std::int64_t>(b);
    if (fraction_bits < 0 || fraction_bits > 62) {
        return to_integer<Int>(std::ldexp(static_cast<double>(wide), -fraction_bits), rounding,
                               overflow);
    }
    const std::int64_t unit = std::int64_t{1} << fraction_bits;
    std::int64_t quotient = wide / unit;  // toward zero
    const std::int64_t remainder = wide % unit;
    if (rounding == rounding_policy::to_nearest_even) {
        const std::int64_t twice = 2 * (remainder < 0 ? -remainder : remainder);
        if (twice > unit || (twice == unit && (quotient & 1) != 0)) quotient += wide < 0 ? -1 : 1;
    }
    return narrow_with<Int>(quotient, overflow);
}

}  // namespace numeric
}  // namespace tessera
