// tessera/numeric/convert.hpp: load and store one element of any dtype as a float or double,
// the single place where storage types meet arithmetic on the host.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "tessera/dtype.hpp"
#include "tessera/numeric/dlfloat16.hpp"
#include "tessera/numeric/fixed_point.hpp"
#include "tessera/numeric/half.hpp"

namespace tessera::numeric {

/// The stored (raw) value as a double: floats decoded, integers as they are (no dequantisation).
inline double load_raw(dtype t, const void* p) {
    switch (t) {
        case dtype::f32: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case dtype::f16: {
            std::uint16_t v;
            std::memcpy(&v, p, 2);
            return f16_to_f32(v);
        }
        case dtype::bf16: {
            std::uint16_t v;
            std::memcpy(&v, p, 2);
            return bf16_to_f32(v);
        }
        case dtype::dlfloat16: {
            std::uint16_t v;
            std::memcpy(&v, p, 2);
            return dlfloat16_to_f32(v);
        }
        case dtype::i8:
            return *static_cast<const std::int8_t*>(p);
        case dtype::u8:
            return *static_cast<const std::uint8_t*>(p);
        case dtype::boolean:
            return *static_cast<const std::uint8_t*>(p) ? 1.0 : 0.0;
        case dtype::i16: {
            std::int16_t v;
            std::memcpy(&v, p, 2);
            return v;
        }
        case dtype::i32: {
            std::int32_t v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case dtype::undef:
            break;
    }
    return 0.0;
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
        case dtype::f32: {
            float f = static_cast<float>(v);
            std::memcpy(p, &f, 4);
            return;
        }
        case dtype::f16: {
            auto b = f32_to_f16(narrow_to_odd(v));
            std::memcpy(p, &b, 2);
            return;
        }
        case dtype::bf16: {
            auto b = f32_to_bf16(narrow_to_odd(v));
            std::memcpy(p, &b, 2);
            return;
        }
        case dtype::dlfloat16: {
            auto b = f32_to_dlfloat16(narrow_to_odd(v));
            std::memcpy(p, &b, 2);
            return;
        }
        case dtype::i8:
            *static_cast<std::int8_t*>(p) = to_integer<std::int8_t>(v, rounding, overflow);
            return;
        case dtype::u8:
            *static_cast<std::uint8_t*>(p) = to_integer<std::uint8_t>(v, rounding, overflow);
            return;
        case dtype::boolean:
            *static_cast<std::uint8_t*>(p) = v != 0.0 ? 1 : 0;
            return;
        case dtype::i16: {
            auto x = to_integer<std::int16_t>(v, rounding, overflow);
            std::memcpy(p, &x, 2);
            return;
        }
        case dtype::i32: {
            auto x = to_integer<std::int32_t>(v, rounding, overflow);
            std::memcpy(p, &x, 4);
            return;
        }
        case dtype::undef:
            return;
    }
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

}  // namespace tessera::numeric
