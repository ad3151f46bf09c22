// tessera/numeric/convert.hpp: load and store one element of any dtype as a float, double or
// long double, the single place where storage types meet arithmetic on the host. The *_wide
// forms carry i64 and u64 exactly (a long double holds every 64-bit integer on x86-64 and
// AArch64).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "tessera/dtype.hpp"
#include "tessera/numeric/dlfloat16.hpp"
#include "tessera/numeric/fixed_point.hpp"
#include "tessera/numeric/half.hpp"

namespace tessera::numeric {

/// The value of type T stored at `p` (any alignment).
template <typename T>
T read_stored(const void* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// Stores `v` of type T at `p` (any alignment).
template <typename T>
void write_stored(void* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

/// The stored (raw) value as a double: floats decoded, integers as they are (no dequantisation).
inline double load_raw(dtype t, const void* p) {
    switch (t) {
        case dtype::f32:
            return read_stored<float>(p);
        case dtype::f16:
            return f16_to_f32(read_stored<std::uint16_t>(p));
        case dtype::bf16:
            return bf16_to_f32(read_stored<std::uint16_t>(p));
        case dtype::dlfloat16:
            return dlfloat16_to_f32(read_stored<std::uint16_t>(p));
        case dtype::i8:
            return read_stored<std::int8_t>(p);
        case dtype::u8:
            return read_stored<std::uint8_t>(p);
        case dtype::boolean:
            return read_stored<std::uint8_t>(p) ? 1.0 : 0.0;
        case dtype::i16:
            return read_stored<std::int16_t>(p);
        case dtype::i32:
            return read_stored<std::int32_t>(p);
        case dtype::i64:  // exact up to 2^53; load_raw_wide is exact for every value
            return static_cast<double>(read_stored<std::int64_t>(p));
        case dtype::f64:
            return read_stored<double>(p);
        case dtype::u16:
            return read_stored<std::uint16_t>(p);
        case dtype::u32:
            return read_stored<std::uint32_t>(p);
        case dtype::u64:  // exact up to 2^53; load_raw_wide is exact for every value
            return static_cast<double>(read_stored<std::uint64_t>(p));
        case dtype::undef:
            break;
    }
    return 0.0;
}

/// The stored value in extended precision: exact for every dtype, i64 and u64 included.
inline long double load_raw_wide(dtype t, const void* p) {
    if (t == dtype::i64) return static_cast<long double>(read_stored<std::int64_t>(p));
    if (t == dtype::u64) return static_cast<long double>(read_stored<std::uint64_t>(p));
    return load_raw(t, p);
}

/// An integer-valued or real long double -> int64: rounded with `rounding`, values beyond the
/// int64 range saturated or wrapped modulo 2^64 per `overflow` (infinities saturate); NaN is 0.
inline std::int64_t to_int64(long double v, rounding_policy rounding, overflow_policy overflow) {
    if (std::isnan(v)) return 0;
    long double r = std::trunc(v);
    if (rounding == rounding_policy::to_nearest_even) {
        const long double rest = std::fabs(v - r);
        const bool away = rest > 0.5L || (rest == 0.5L && std::fmod(r, 2.0L) != 0.0L);
        if (away) r += v < 0 ? -1.0L : 1.0L;
    }
    constexpr long double two63 = 9223372036854775808.0L;  // 2^63, exact in any binary format
    constexpr auto lowest = std::numeric_limits<std::int64_t>::min();
    constexpr auto highest = std::numeric_limits<std::int64_t>::max();
    if (r >= -two63 && r < two63) return static_cast<std::int64_t>(r);
    if (overflow == overflow_policy::saturate || std::isinf(r)) return r < 0 ? lowest : highest;
    long double m = std::fmod(r, 2.0L * two63);  // exact; in (-2^64, 2^64)
    if (m >= two63) m -= 2.0L * two63;
    if (m < -two63) m += 2.0L * two63;
    return static_cast<std::int64_t>(m);
}

/// An integer-valued or real long double -> uint64: rounded with `rounding`, values beyond
/// [0, 2^64) saturated or wrapped modulo 2^64 per `overflow` (infinities saturate); NaN is 0.
inline std::uint64_t to_uint64(long double v, rounding_policy rounding, overflow_policy overflow) {
    if (std::isnan(v)) return 0;
    long double r = std::trunc(v);
    if (rounding == rounding_policy::to_nearest_even) {
        const long double rest = std::fabs(v - r);
        const bool away = rest > 0.5L || (rest == 0.5L && std::fmod(r, 2.0L) != 0.0L);
        if (away) r += v < 0 ? -1.0L : 1.0L;
    }
    constexpr long double two64 = 18446744073709551616.0L;  // 2^64, exact in any binary format
    if (r >= 0 && r < two64) return static_cast<std::uint64_t>(r);
    if (overflow == overflow_policy::saturate || std::isinf(r))
        return r < 0 ? 0 : std::numeric_limits<std::uint64_t>::max();
    long double m = std::fmod(r, two64);  // exact; in (-2^64, 2^64)
    if (m < 0) m += two64;
    return static_cast<std::uint64_t>(m);
}

/// double -> float rounded to odd: truncated toward zero, last bit set if anything was dropped.
/// Rounding that float again to a format with at least two fewer significand bits (f16, bf16,
/// dlfloat16) equals rounding the double directly, so 16-bit stores round once, not twice.
inline float narrow_to_odd(double v) {
    const float f = static_cast<float>(v);
    if (std::isnan(v) || static_cast<double>(f) == v) return f;
    std::uint32_t b = float_bits(f);
    if (std::fabs(static_cast<double>(f)) > std::fabs(v)) --b;  // one step toward zero (inf -> max)
    return bits_float(b | 1u);
}

/// Stores a raw value: floats rounded once to the format (f32/f16/bf16 nearest even, dlfloat16
/// ties away), integers rounded with `rounding` and narrowed with `overflow`.
inline void store_raw(dtype t, void* p, double v,
                      rounding_policy rounding = rounding_policy::to_nearest_even,
                      overflow_policy overflow = overflow_policy::saturate) {
    switch (t) {
        case dtype::f32:
            return write_stored(p, static_cast<float>(v));
        case dtype::f16:
            return write_stored(p, f32_to_f16(narrow_to_odd(v)));
        case dtype::bf16:
            return write_stored(p, f32_to_bf16(narrow_to_odd(v)));
        case dtype::dlfloat16:
            return write_stored(p, f32_to_dlfloat16(narrow_to_odd(v)));
        case dtype::i8:
            return write_stored(p, to_integer<std::int8_t>(v, rounding, overflow));
        case dtype::u8:
            return write_stored(p, to_integer<std::uint8_t>(v, rounding, overflow));
        case dtype::boolean:
            return write_stored<std::uint8_t>(p, v != 0.0 ? 1 : 0);
        case dtype::i16:
            return write_stored(p, to_integer<std::int16_t>(v, rounding, overflow));
        case dtype::i32:
            return write_stored(p, to_integer<std::int32_t>(v, rounding, overflow));
        case dtype::i64:
            return write_stored(p, to_int64(v, rounding, overflow));
        case dtype::f64:
            return write_stored(p, v);
        case dtype::u16:
            return write_stored(p, to_integer<std::uint16_t>(v, rounding, overflow));
        case dtype::u32:
            return write_stored(p, to_integer<std::uint32_t>(v, rounding, overflow));
        case dtype::u64:
            return write_stored(p, to_uint64(v, rounding, overflow));
        case dtype::undef:
            return;
    }
}

/// long double -> double rounded to odd (see narrow_to_odd): a later rounding to f32 or a 16-bit
/// float then equals rounding the long double directly.
inline double narrow_to_odd_double(long double v) {
    double d = static_cast<double>(v);
    if (std::isnan(v) || static_cast<long double>(d) == v) return d;
    std::uint64_t b;
    std::memcpy(&b, &d, 8);
    if (std::fabs(static_cast<long double>(d)) > std::fabs(v)) --b;  // toward zero (inf -> max)
    b |= 1u;
    std::memcpy(&d, &b, 8);
    return d;
}

/// Stores a raw value given in extended precision: i64 and u64 through the integer paths
/// (exact), the other dtypes as store_raw does, rounded once.
inline void store_raw_wide(dtype t, void* p, long double v,
                           rounding_policy rounding = rounding_policy::to_nearest_even,
                           overflow_policy overflow = overflow_policy::saturate) {
    if (t == dtype::i64) return write_stored(p, to_int64(v, rounding, overflow));
    if (t == dtype::u64) return write_stored(p, to_uint64(v, rounding, overflow));
    // Integers of 32 bits or fewer are exact in a double except for fractions far below 2^-20;
    // floating outputs round to odd first so they round once.
    const double d =
        is_floating(t) && t != dtype::f64 ? narrow_to_odd_double(v) : static_cast<double>(v);
    store_raw(t, p, d, rounding, overflow);
}

/// The real value an element stands for: quantised and fixed-point types are dequantised.
inline double load_real(dtype t, const quantization& q, const void* p) {
    const double raw = load_raw(t, p);
    switch (t) {
        case dtype::i8:
        case dtype::u8:
            return static_cast<double>(q.scale) * (raw - q.zero_point);
        case dtype::i16:
            return std::ldexp(raw, -q.fixed_point_pos);
        default:
            return raw;
    }
}

/// The real value in extended precision (exact for i64, u64 and f64).
inline long double load_real_wide(dtype t, const quantization& q, const void* p) {
    if (is_int64_class(t)) return load_raw_wide(t, p);
    return load_real(t, q, p);
}

/// Stores a real value, quantising for i8/u8 and i16 fixed point.
inline void store_real(dtype t, const quantization& q, void* p, double v,
                       rounding_policy rounding = rounding_policy::to_nearest_even,
                       overflow_policy overflow = overflow_policy::saturate) {
    switch (t) {
        case dtype::i8:
        case dtype::u8:
            store_raw(t, p, v / static_cast<double>(q.scale) + q.zero_point, rounding, overflow);
            return;
        case dtype::i16:
            store_raw(t, p, std::ldexp(v, q.fixed_point_pos), rounding, overflow);
            return;
        default:
            store_raw(t, p, v, rounding, overflow);
            return;
    }
}

/// Stores a real value given in extended precision (i64 and u64 exact), quantising like store_real.
inline void store_real_wide(dtype t, const quantization& q, void* p, long double v,
                            rounding_policy rounding = rounding_policy::to_nearest_even,
                            overflow_policy overflow = overflow_policy::saturate) {
    switch (t) {
        case dtype::i8:
        case dtype::u8:
        case dtype::i16:
            store_real(t, q, p, static_cast<double>(v), rounding, overflow);
            return;
        default:
            store_raw_wide(t, p, v, rounding, overflow);
            return;
    }
}

}  // namespace tessera::numeric
