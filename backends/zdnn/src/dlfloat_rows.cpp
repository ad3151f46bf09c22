// Row/stick conversions binary32 <-> DLFLOAT16, compiled for AVX2 and for baseline x86-64 and
// picked at load time (target_clones), so the library runs on any x86-64.
#include "dlfloat_rows.hpp"

#include <immintrin.h>

#include <cstring>

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
inline uint32_t from_dlf16(const uint16_t* src, float* dst, size_t n) {
  if constexpr (kFixed != 0) n = kFixed;
  uint32_t ninf = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t v = src[i];
    const uint32_t sign = (v & 0x8000u) << 16;
    const uint32_t magnitude = v & 0x7FFFu;
    uint32_t bits = sign | ((((magnitude >> 9) + 96u) << 23) | ((magnitude & 0x1FFu) << 14));
    bits = magnitude == 0 ? sign : bits;
    const uint32_t is_ninf = magnitude == 0x7FFFu ? 1u : 0u;
    bits = is_ninf ? (sign | 0x7FC00000u) : bits;
    ninf |= is_ninf;
    dst[i] = bits_float(bits);
  }
  return ninf;
}

}  // namespace

__attribute__((target_clones("avx2", "default"))) bool fp32_row_to_dlf16(const float* src, uint16_t* dst, size_t count,
                                                                         bool saturate) {
  return to_dlf16<0>(src, dst, count, saturate) != 0;
}

__attribute__((target_clones("avx2", "default"))) static bool rows_to_sticks_portable(const float* src,
                                                                                      size_t src_stride, uint16_t* dst,
                                                                                      size_t sticks, uint32_t count,
                                                                                      bool saturate) {
  uint32_t overflow = 0;
  if (count == 64) {
    for (size_t s = 0; s < sticks; ++s, src += src_stride, dst += 64) overflow |= to_dlf16<64>(src, dst, 64, saturate);
  } else {
    for (size_t s = 0; s < sticks; ++s, src += src_stride, dst += 64)
      overflow |= to_dlf16<0>(src, dst, count, saturate);
  }
  return overflow != 0;
}

__attribute__((target_clones("avx2", "default"))) static bool sticks_to_rows_portable(const uint16_t* src, float* dst,
                                                                                      size_t dst_stride, size_t sticks,
                                                                                      uint32_t count) {
  uint32_t ninf = 0;
  if (count == 64) {
    for (size_t s = 0; s < sticks; ++s, src += 64, dst += dst_stride) ninf |= from_dlf16<64>(src, dst, 64);
  } else {
    for (size_t s = 0; s < sticks; ++s, src += 64, dst += dst_stride) ninf |= from_dlf16<0>(src, dst, count);
  }
  return ninf != 0;
}

namespace {

// Full 64-cell sticks with AVX2 intrinsics: 16 values per step, two 8-lane conversions packed.
__attribute__((target("avx2"))) inline __m256i to_dlf16_x8(__m256 x, bool saturate, __m256i& overflow) {
  __m256i u = _mm256_castps_si256(x);
  const __m256i magnitude = _mm256_and_si256(u, _mm256_set1_epi32(0x7FFFFFFF));
  if (saturate) {
    const __m256i max_bits = _mm256_set1_epi32(static_cast<int>(float_bits(kDlfMax)));
    const __m256i clamp = _mm256_and_si256(_mm256_cmpgt_epi32(magnitude, max_bits),
                                           _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7F800000), magnitude));
    u = _mm256_blendv_epi8(u, _mm256_or_si256(_mm256_and_si256(u, _mm256_set1_epi32(int(0x80000000u))), max_bits),
                           clamp);
  }
  const __m256i sign = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x8000));
  const __m256i rounded =
      _mm256_add_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7FFFFFFF)), _mm256_set1_epi32(0x2000));
  __m256i out = _mm256_sub_epi32(_mm256_srli_epi32(rounded, 14), _mm256_set1_epi32(96 << 9));
  const __m256i under = _mm256_cmpeq_epi32(_mm256_min_epu32(rounded, _mm256_set1_epi32((96 << 23) - 1)), rounded);
  const __m256i over = _mm256_cmpeq_epi32(
      _mm256_max_epu32(rounded, _mm256_set1_epi32(static_cast<int>(kDlfOverflowMagnitude))), rounded);
  out = _mm256_andnot_si256(under, out);
  out = _mm256_blendv_epi8(out, _mm256_set1_epi32(0x7FFF), over);
  overflow = _mm256_or_si256(overflow, over);
  return _mm256_or_si256(out, sign);
}

__attribute__((target("avx2"))) bool rows_to_sticks_avx2(const float* src, size_t src_stride, uint16_t* dst,
                                                         size_t sticks, bool saturate) {
  __m256i overflow = _mm256_setzero_si256();
  for (size_t s = 0; s < sticks; ++s, src += src_stride, dst += 64)
    for (int i = 0; i < 64; i += 16) {
      const __m256i lo = to_dlf16_x8(_mm256_loadu_ps(src + i), saturate, overflow);
      const __m256i hi = to_dlf16_x8(_mm256_loadu_ps(src + i + 8), saturate, overflow);
      const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xD8);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), packed);
    }
  return !_mm256_testz_si256(overflow, overflow);
}

__attribute__((target("avx2"))) bool sticks_to_rows_avx2(const uint16_t* src, float* dst, size_t dst_stride,
                                                         size_t sticks) {
  const __m256i magnitude_mask = _mm256_set1_epi32(0x7FFF), sign_mask = _mm256_set1_epi32(0x8000);
  const __m256i bias = _mm256_set1_epi32(96 << 9), zero = _mm256_setzero_si256();
  const __m256i ninf = _mm256_set1_epi32(0x7FFF), nan_bits = _mm256_set1_epi32(0x7FC00000);
  __m256i any_ninf = _mm256_setzero_si256();
  for (size_t s = 0; s < sticks; ++s, src += 64, dst += dst_stride)
    for (int i = 0; i < 64; i += 8) {
      const __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
      const __m256i magnitude = _mm256_and_si256(v, magnitude_mask);
      const __m256i sign = _mm256_slli_epi32(_mm256_and_si256(v, sign_mask), 16);
      __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(magnitude, bias), 14);
      bits = _mm256_andnot_si256(_mm256_cmpeq_epi32(magnitude, zero), bits);
      const __m256i is_ninf = _mm256_cmpeq_epi32(magnitude, ninf);
      any_ninf = _mm256_or_si256(any_ninf, is_ninf);
      bits = _mm256_blendv_epi8(bits, nan_bits, is_ninf);
      _mm256_storeu_ps(dst + i, _mm256_castsi256_ps(_mm256_or_si256(bits, sign)));
    }
  return !_mm256_testz_si256(any_ninf, any_ninf);
}

__attribute__((target("avx2"))) bool rows_to_sticks_streaming_avx2(const float* src, size_t src_stride, uint16_t* dst,
                                                                   size_t sticks, size_t padded_sticks, uint32_t count,
                                                                   bool saturate) {
  alignas(32) uint16_t stick[64];
  uint32_t overflow = 0;
  std::memset(stick, 0, sizeof stick);
  for (size_t s = 0; s < padded_sticks; ++s, src += src_stride, dst += 64) {
    if (s < sticks)
      overflow |= to_dlf16<0>(src, stick, count, saturate);
    else
      std::memset(stick, 0, sizeof stick);
    for (int i = 0; i < 64; i += 16)
      _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i),
                          _mm256_load_si256(reinterpret_cast<const __m256i*>(stick + i)));
  }
  return overflow != 0;
}

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

}  // namespace

bool fp32_rows_to_sticks(const float* src, size_t src_stride, uint16_t* dst, size_t sticks, uint32_t count,
                         bool saturate) {
  static const bool avx2 = cpu_has_avx2();
  if (avx2 && count == 64) return rows_to_sticks_avx2(src, src_stride, dst, sticks, saturate);
  return rows_to_sticks_portable(src, src_stride, dst, sticks, count, saturate);
}

bool fp32_rows_to_sticks_streaming(const float* src, size_t src_stride, uint16_t* dst, size_t sticks,
                                   size_t padded_sticks, uint32_t count, bool saturate) {
  static const bool avx2 = cpu_has_avx2();
  if (avx2) return rows_to_sticks_streaming_avx2(src, src_stride, dst, sticks, padded_sticks, count, saturate);
  std::memset(dst, 0, padded_sticks * 64 * sizeof(uint16_t));
  return rows_to_sticks_portable(src, src_stride, dst, sticks, count, saturate);
}

void store_fence() {
  _mm_sfence();
}

bool sticks_to_fp32_rows(const uint16_t* src, float* dst, size_t dst_stride, size_t sticks, uint32_t count) {
  static const bool avx2 = cpu_has_avx2();
  if (avx2 && count == 64) return sticks_to_rows_avx2(src, dst, dst_stride, sticks);
  return sticks_to_rows_portable(src, dst, dst_stride, sticks, count);
}

}  // namespace tessera::zdnn
