// tessera/numeric/half.hpp: exact IEEE binary16 (f16) and bfloat16 conversions, round to nearest
// even, NaN preserved as a quiet NaN, overflow to infinity.
#pragma once

#include <cstdint>
#include <cstring>

namespace tessera::numeric {

inline std::uint32_t float_bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

inline float bits_float(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

/// fp32 -> IEEE binary16 bits, round to nearest even (subnormals handled exactly).
inline std::uint16_t f32_to_f16(float value) {
    const std::uint32_t x = float_bits(value);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t abs = x & 0x7FFFFFFFu;
    if (abs >= 0x7F800000u) {  // inf or NaN
        return static_cast<std::uint16_t>(sign | 0x7C00u | (abs > 0x7F800000u ? 0x200u : 0u));
    }
    if (abs >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds past max
    if (abs < 0x38800000u) {                 // result is subnormal or zero: value < 2^-14
        if (abs < 0x33000000u) return sign;  // < 2^-25: rounds to zero (ties at 2^-25 go to 0)
        const int exponent = static_cast<int>(abs >> 23);
        const std::uint32_t mantissa = (abs & 0x7FFFFFu) | 0x800000u;
        const int shift = 126 - exponent;  // 14 + 13 - (exponent - 127) + ... -> bits to drop
        std::uint32_t half = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
        const std::uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
        return static_cast<std::uint16_t>(sign | half);
    }
    // Normal: rebias exponent 127 -> 15 and round the 13 dropped bits to nearest even.
    std::uint32_t h = (abs - 0x38000000u) >> 13;
    const std::uint32_t rest = abs & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
}

/// IEEE binary16 bits -> fp32 (exact).
inline float f16_to_f32(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1Fu;
    std::uint32_t mantissa = h & 0x3FFu;
    if (exponent == 0x1F) return bits_float(sign | 0x7F800000u | (mantissa << 13));
    if (exponent == 0) {
        if (mantissa == 0) return bits_float(sign);
        int e = -1;  // normalise the subnormal
        do {
            ++e;
            mantissa <<= 1;
        } while ((mantissa & 0x400u) == 0);
        return bits_float(sign | static_cast<std::uint32_t>(112 - e) << 23 |
                          ((mantissa & 0x3FFu) << 13));
    }
    return bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

/// fp32 -> bfloat16 bits, round to nearest even; NaN stays a quiet NaN.
inline std::uint16_t f32_to_bf16(float value) {
    const std::uint32_t x = float_bits(value);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
    const std::uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
    return static_cast<std::uint16_t>((x + rounding) >> 16);
}

/// bfloat16 bits -> fp32 (exact: append 16 zero bits).
inline float bf16_to_f32(std::uint16_t b) {
    return bits_float(static_cast<std::uint32_t>(b) << 16);
}

}  // namespace tessera::numeric
