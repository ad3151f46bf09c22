// element_values.hpp: the element-wise arithmetic of the cpu plugin's typed steps where it
// must equal the reference kernels bit for bit: storing a real value into any dtype (rounding,
// overflow and quantisation as the reference stores it), the unary kinds in double, and the
// binary kinds on plain integers (division by zero 0, wrap or saturate, quotients rounded
// toward zero or to nearest even).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <tessera/numeric/convert.hpp>
#include <tessera/numeric/fixed_point.hpp>
#include <tessera/ops/kinds.hpp>
#include <tessera/reference/element_access.hpp>

namespace tessera::plugins::cpu {

/// Stores `real` at `p` as the reference's element store does: floating dtypes, i64 and u64
/// through the wide store; other integers quantised, rounded with `rounding`, narrowed with
/// `overflow`, NaN as 0.
inline void store_real_value(dtype type, const quantization& q, void* p, long double real,
                             rounding_policy rounding = rounding_policy::to_nearest_even,
                             overflow_policy overflow = overflow_policy::saturate) {
    if (!is_integer(type) || is_int64_class(type)) {
        numeric::store_real_wide(type, q, p, real, rounding, overflow);
        return;
    }
    long double raw = real;
    if (type == dtype::i8 || type == dtype::u8) raw = real / q.scale + q.zero_point;
    if (type == dtype::i16) raw = std::ldexp(real, q.fixed_point_pos);
    if (std::isnan(raw)) raw = 0;
    raw = rounding == rounding_policy::to_zero ? std::trunc(raw) : std::nearbyint(raw);
    using reference::detail::narrow;
    switch (type) {
        case dtype::i8:
            return numeric::write_stored(p, narrow<std::int8_t>(raw, overflow));
        case dtype::u8:
            return numeric::write_stored(p, narrow<std::uint8_t>(raw, overflow));
        case dtype::i16:
            return numeric::write_stored(p, narrow<std::int16_t>(raw, overflow));
        case dtype::i32:
            return numeric::write_stored(p, narrow<std::int32_t>(raw, overflow));
        case dtype::u16:
            return numeric::write_stored(p, narrow<std::uint16_t>(raw, overflow));
        case dtype::u32:
            return numeric::write_stored(p, narrow<std::uint32_t>(raw, overflow));
        default:
            return;
    }
}

/// Calls body(f) with f(x) the unary kind `k` in double (`epsilon`: rsqrt's), as the reference
/// computes it.
template <typename Body>
void with_unary_in_double(unary_kind k, double epsilon, Body&& body) {
    switch (k) {
        case unary_kind::log:
            return body([](double x) { return std::log(x); });
        case unary_kind::exp:
            return body([](double x) { return std::exp(x); });
        case unary_kind::sqrt:
            return body([](double x) { return std::sqrt(x); });
        case unary_kind::rsqrt:
            return body([epsilon](double x) { return 1.0 / std::sqrt(x + epsilon); });
        case unary_kind::neg:
            return body([](double x) { return -x; });
        case unary_kind::abs:
            return body([](double x) { return std::fabs(x); });
        case unary_kind::erf:
            return body([](double x) { return std::erf(x); });
        case unary_kind::floor:
            return body([](double x) { return std::floor(x); });
        case unary_kind::ceil:
            return body([](double x) { return std::ceil(x); });
        case unary_kind::round:
            return body([](double x) {
                return std::isfinite(x) ? numeric::round_with(x, rounding_policy::to_nearest_even)
                                        : x;
            });
        case unary_kind::sign:
            return body([](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : x); });
        case unary_kind::reciprocal:
            return body([](double x) { return 1.0 / x; });
        case unary_kind::sin:
            return body([](double x) { return std::sin(x); });
        case unary_kind::cos:
            return body([](double x) { return std::cos(x); });
        case unary_kind::tan:
            return body([](double x) { return std::tan(x); });
        case unary_kind::asin:
            return body([](double x) { return std::asin(x); });
        case unary_kind::acos:
            return body([](double x) { return std::acos(x); });
        case unary_kind::atan:
            return body([](double x) { return std::atan(x); });
        case unary_kind::sinh:
            return body([](double x) { return std::sinh(x); });
        case unary_kind::cosh:
            return body([](double x) { return std::cosh(x); });
        case unary_kind::asinh:
            return body([](double x) { return std::asinh(x); });
        case unary_kind::acosh:
            return body([](double x) { return std::acosh(x); });
        case unary_kind::atanh:
            return body([](double x) { return std::atanh(x); });
    }
}

/// Whether unary kind `k` maps integers to integers (neg, abs, sign, floor, ceil, round), so it
/// runs on plain integer tensors in integers.
constexpr bool integer_unary(unary_kind k) {
    return k == unary_kind::neg || k == unary_kind::abs || k == unary_kind::sign ||
           k == unary_kind::floor || k == unary_kind::ceil || k == unary_kind::round;
}

/// Calls body(f) with f(x) an integer_unary kind on Int values, results beyond Int saturated
/// (the reference's default store): neg and abs of the lowest value give the highest.
template <typename Int, typename Body>
void with_integer_unary(unary_kind k, Body&& body) {
    [[maybe_unused]] constexpr Int lowest = std::numeric_limits<Int>::min();
    constexpr Int highest = std::numeric_limits<Int>::max();
    switch (k) {
        case unary_kind::neg:
            if constexpr (std::is_unsigned_v<Int>) {
                return body([](Int) { return Int{0}; });
            } else {
                return body([](Int x) { return x == lowest ? highest : static_cast<Int>(-x); });
            }
        case unary_kind::abs:
            if constexpr (std::is_unsigned_v<Int>) {
                return body([](Int x) { return x; });
            } else {
                return body(
                    [](Int x) { return x == lowest ? highest : static_cast<Int>(x < 0 ? -x : x); });
            }
        case unary_kind::sign:
            return body([](Int x) { return static_cast<Int>(x > 0 ? 1 : (x < 0 ? -1 : 0)); });
        default:  // floor, ceil, round: integers already
            return body([](Int x) { return x; });
    }
}

/// Calls body(f) with f(x, y) the binary kind `k` (not pow) on plain Int values with the
/// reference's integer policies: sums, differences and products wrap or saturate; division by
/// zero is 0; quotients round toward zero or to nearest even; lowest / -1 overflows.
template <typename Int, typename Body>
void with_integer_binary(binary_kind k, rounding_policy rounding, overflow_policy overflow,
                         Body&& body) {
    constexpr Int lowest = std::numeric_limits<Int>::min();
    constexpr Int highest = std::numeric_limits<Int>::max();
    const bool saturate = overflow == overflow_policy::saturate;
    const bool nearest = rounding == rounding_policy::to_nearest_even;
    switch (k) {
        case binary_kind::add:
            return body([saturate](Int a, Int b) {
                Int r;
                if (__builtin_add_overflow(a, b, &r) && saturate) return b > 0 ? highest : lowest;
                return r;
            });
        case binary_kind::sub:
            return body([saturate](Int a, Int b) {
                Int r;
                if (__builtin_sub_overflow(a, b, &r) && saturate) {
                    if constexpr (std::is_unsigned_v<Int>) return Int{0};
                    return b < 0 ? highest : lowest;
                }
                return r;
            });
        case binary_kind::mul:
            return body([saturate](Int a, Int b) {
                Int r;
                if (__builtin_mul_overflow(a, b, &r) && saturate) {
                    if constexpr (std::is_unsigned_v<Int>) return highest;
                    return (a < 0) != (b < 0) ? lowest : highest;
                }
                return r;
            });
        case binary_kind::min:
            return body([](Int a, Int b) { return b < a ? b : a; });
        case binary_kind::max:
            return body([](Int a, Int b) { return b > a ? b : a; });
        default:  // div
            return body([saturate, nearest](Int a, Int b) -> Int {
                if (b == 0) return 0;
                if constexpr (std::is_signed_v<Int>) {
                    if (a == lowest && b == -1) return saturate ? highest : lowest;
                }
                auto q = static_cast<Int>(a / b);  // toward zero
                const auto rest = static_cast<Int>(a % b);
                if (nearest && rest != 0) {
                    using U = std::make_unsigned_t<Int>;
                    const auto magnitude = [](Int v) {
                        return v < 0 ? static_cast<U>(U{0} - static_cast<U>(v)) : static_cast<U>(v);
                    };
                    const U r = magnitude(rest), w = magnitude(b);
                    const U left = static_cast<U>(w - r);  // r + left == |b|
                    if (r > left || (r == left && (q & 1) != 0)) {
                        if constexpr (std::is_signed_v<Int>) {
                            q = static_cast<Int>(q + ((a < 0) != (b < 0) ? -1 : 1));
                        } else {
                            ++q;
                        }
                    }
                }
                return q;
            });
    }
}

}  // namespace tessera::plugins::cpu
