// Row/stick conversions binary32 <-> DLFLOAT16, compiled for AVX2 and for baseline x86-64 and
// picked at load time (target_clones), so the library runs on any x86-64.
#include "dlfloat_rows.hpp"

#include "dlfloat16.hpp"

namespace tessera::zdnn {
namespace {

// Branch-free conversion of n values (inlined into each clone so the loops vectorise).
template <size_t kFixed>
inline uint32_t to_dlf16(const float* src, uint16_t* dst, size_t n, bool saturate) {
  if constexpr (kFixed != 0) n = kFixed;
  uint32_t overflow = 0;
  const uint32_t max_bits = float_bits(kDlfMax);
  for (size_t i = 0; i < n; ++i) {
    uint32_t u = float_bits(src[i]);
    const uint32_t magnitude = u & 0x7FFFFFFFu;
    const bool clamp = saturate && magnitude > max_bits && magnitude < 0x7F800000u;
    u = clamp ? ((u & 0x80000000u) | max_bits) : u;
    const uint32_t sign = (u >> 16) & 0x8000u;
    const uint32_t rounded = (u & 0x7FFFFFFFu) + 0x2000u;
    const int32_t exponent = static_cast<int32_t>(rounded >> 23) - 96;
    uint32_t out = sign | (static_cast<uint32_t>(exponent) << 9) | ((rounded >> 14) & 0x1FFu);
    out = exponent < 0 ? sign : out;
    const uint32_t over = rounded >= kDlfOverflowMagnitude ? 1u : 0u;
    out = over ? (sign | 0x7FFFu) : out;
    overflow |= over;
    dst[i] = static_cast<uint16_t>(out);
  }
  return overflow;
}

template <size_t kFixed>
inline void from_dlf16(const uint16_t* src, float* dst, size_t n) {
  if constexpr (kFixed != 0) n = kFixed;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t v = src[i];
    const uint32_t sign = (v & 0x8000u) << 16;
    const uint32_t magnitude = v & 0x7FFFu;
    uint32_t bits = sign | ((((magnitude >> 9) + 96u) << 23) | ((magnitude & 0x1FFu) << 14));
    bits = magnitude == 0 ? sign : bits;
    bits = magnitude == 0x7FFFu ? (sign | 0x7FC00000u) : bits;
    dst[i] = bits_float(bits);
  }
}

}  // namespace

__attribute__((target_clones("avx2", "default"))) bool fp32_row_to_dlf16(const float* src, uint16_t* dst,
                                                                          size_t count, bool saturate) {
  return to_dlf16<0>(src, dst, count, saturate) != 0;
}

__attribute__((target_clones("avx2", "default"))) void dlf16_row_to_fp32(const uint16_t* src, float* dst,
                                                                          size_t count) {
  from_dlf16<0>(src, dst, count);
}

__attribute__((target_clones("avx2", "default"))) bool fp32_rows_to_sticks(const float* src, size_t src_stride,
                                                                            uint16_t* dst, size_t sticks,
                                                                            uint32_t count, bool saturate) {
  uint32_t overflow = 0;
  if (count == 64) {
    for (size_t s = 0; s < sticks; ++s, src += src_stride, dst += 64) overflow |= to_dlf16<64>(src, dst, 64, saturate);
  } else {
    for (size_t s = 0; s < sticks; ++s, src += src_stride, dst += 64) overflow |= to_dlf16<0>(src, dst, count, saturate);
  }
  return overflow != 0;
}

__attribute__((target_clones("avx2", "default"))) void sticks_to_fp32_rows(const uint16_t* src, float* dst,
                                                                            size_t dst_stride, size_t sticks,
                                                                            uint32_t count) {
  if (count == 64) {
    for (size_t s = 0; s < sticks; ++s, src += 64, dst += dst_stride) from_dlf16<64>(src, dst, 64);
  } else {
    for (size_t s = 0; s < sticks; ++s, src += 64, dst += dst_stride) from_dlf16<0>(src, dst, count);
  }
}

}  // namespace tessera::zdnn
