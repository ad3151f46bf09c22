// tessera/numeric/dlfloat16.hpp: IBM DLFLOAT16 conversions as the zAIU does them (see
// shared/notes/zdnn-facts.md): 1 sign, 6 exponent bits (bias 31), 9 fraction bits, no
// subnormals, 0x7FFF/0xFFFF = NINF (NaN or infinity), round to nearest with ties away from zero.
#pragma once

#include <cstdint>
#include <limits>

#include "tessera/numeric/half.hpp"

namespace tessera::numeric {

inline constexpr std::uint16_t dlfloat16_ninf = 0x7FFF;
inline constexpr float dlfloat16_max = 8573157376.0f;  // 0x7FFE

/// Outcome of one fp32 -> DLFLOAT16 conversion, for callers that report range violations.
enum class dlfloat16_range { ok, underflow, overflow, not_finite };

/// fp32 -> DLFLOAT16 bits. `range`, when given, reports underflow to zero, overflow and NaN/Inf.
inline std::uint16_t f32_to_dlfloat16(float value, dlfloat16_range* range = nullptr) {
    const std::uint32_t x = float_bits(value);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t abs = x & 0x7FFFFFFFu;
    auto report = [&](dlfloat16_range r) {
        if (range) *range = r;
    };
    if (abs >= 0x7F800000u) {
        report(dlfloat16_range::not_finite);
        return static_cast<std::uint16_t>(sign | dlfloat16_ninf);
    }
    // Round the 23-bit fraction to 9 bits: add half an ulp, carry into the exponent, truncate.
    const std::uint32_t rounded = abs + (1u << 13);
    const int exponent = static_cast<int>(rounded >> 23) - 127 + 31;
    const std::uint32_t fraction = (rounded >> 14) & 0x1FFu;
    if (abs == 0) {
        report(dlfloat16_range::ok);
        return sign;
    }
    if (exponent < 0) {
        report(dlfloat16_range::underflow);
        return sign;
    }
    if (exponent > 63 || (exponent == 63 && fraction == 0x1FFu)) {
        report(dlfloat16_range::overflow);
        return static_cast<std::uint16_t>(sign | dlfloat16_ninf);
    }
    report(dlfloat16_range::ok);
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(exponent) << 9 | fraction);
}

/// DLFLOAT16 bits -> fp32: exact, NINF becomes NaN.
inline float dlfloat16_to_f32(std::uint16_t d) {
    if ((d & 0x7FFFu) == dlfloat16_ninf) return std::numeric_limits<float>::quiet_NaN();
    const std::uint32_t sign = static_cast<std::uint32_t>(d & 0x8000u) << 16;
    const std::uint32_t exponent = (d >> 9) & 0x3Fu;
    const std::uint32_t fraction = d & 0x1FFu;
    if (exponent == 0 && fraction == 0) return bits_float(sign);
    return bits_float(sign | ((exponent - 31 + 127) << 23) | (fraction << 14));
}

}  // namespace tessera::numeric
