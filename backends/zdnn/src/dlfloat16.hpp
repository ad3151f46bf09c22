// Scalar conversions between IEEE binary32/binary16/bfloat16 and the zAIU's DLFLOAT16
// (1 sign, 6 exponent bits biased by 31, 9 fraction bits, no subnormals, 0x7FFF = NINF).
// FP32 -> DLFLOAT16 rounds to nearest with ties away from zero. Branch-free so loops vectorise.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace tessera::zdnn {

inline constexpr float kDlfMax = 8573157376.0f;  // 0x7FFE

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// First rounded binary32 magnitude that no longer fits: exponent 63, fraction 0x1FF (NINF).
inline constexpr uint32_t kDlfOverflowMagnitude = ((63u + 96u) << 23) | (0x1FFu << 14);

// Converts one value. NaN, infinities and overflow give NINF (sign kept); |x| below the
// smallest normal after rounding gives a signed zero.
inline uint16_t fp32_to_dlf16(float f) {
  const uint32_t u = float_bits(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  const uint32_t rounded = (u & 0x7FFFFFFFu) + 0x2000u;  // + half an ulp of 9 fraction bits
  const int32_t exponent = static_cast<int32_t>(rounded >> 23) - 96;
  uint32_t out = sign | (static_cast<uint32_t>(exponent) << 9) | ((rounded >> 14) & 0x1FFu);
  out = exponent < 0 ? sign : out;
  out = rounded >= kDlfOverflowMagnitude ? (sign | 0x7FFFu) : out;
  return static_cast<uint16_t>(out);
}

inline float dlf16_to_fp32(uint16_t v) {
  const uint32_t sign = static_cast<uint32_t>(v & 0x8000u) << 16;
  const uint32_t magnitude = v & 0x7FFFu;
  uint32_t bits = sign | ((((magnitude >> 9) + 96u) << 23) | ((magnitude & 0x1FFu) << 14));
  bits = magnitude == 0 ? sign : bits;
  bits = magnitude == 0x7FFFu ? (sign | 0x7FC00000u) : bits;
  return bits_float(bits);
}

// Rounds a float to the nearest DLFLOAT16 value and back ("cleansing").
inline float dlf16_round(float f) {
  return dlf16_to_fp32(fp32_to_dlf16(f));
}

// IEEE binary16 <-> binary32 (round to nearest even when narrowing).
inline float fp16_to_fp32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0x1F) return bits_float(sign | 0x7F800000u | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0) return bits_float(sign);
    float value = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // m * 2^-24
    return sign ? -value : value;
  }
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

inline uint16_t fp32_to_fp16(float f) {
  const uint32_t u = float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t magnitude = u & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u);
  if (magnitude >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds to inf
  if (magnitude < 0x38800000u) {                                               // subnormal or zero in binary16
    const float scaled = bits_float(magnitude) * 16777216.0f;                  // / 2^-24
    const float rounded = __builtin_nearbyintf(scaled);
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(rounded));
  }
  const uint32_t lsb = (magnitude >> 13) & 1u;
  const uint32_t rounded = magnitude + 0xFFFu + lsb;
  return static_cast<uint16_t>(sign | ((rounded - (112u << 23)) >> 13));
}

inline float bf16_to_fp32(uint16_t b) {
  return bits_float(static_cast<uint32_t>(b) << 16);
}

// Narrows to bfloat16 by truncating the low 16 bits, as the zAIU's library does when converting
// results back to BFLOAT (8573157376 = 0x4FFF8000 becomes 0x4FFF, not 0x5000). NaN stays NaN.
inline uint16_t fp32_to_bf16_truncated(float f) {
  const uint32_t u = float_bits(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  return static_cast<uint16_t>(u >> 16);
}

}  // namespace tessera::zdnn
