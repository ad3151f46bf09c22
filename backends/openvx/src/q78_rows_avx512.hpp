// q78_rows_avx512.hpp: the row helpers of the AVX-512 table (q78_kernels.hpp) around its
// convolution kernel: packing one input row into the channel-pair layout with its largest |x|,
// and narrowing a row of sums plus bias to int16 (saturating or wrapping). Included only by
// q78_arch_avx512.cpp (compiled with -mavx512bw).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace openvx::q78 {
namespace {

/// pack_row of the AVX-512 table: interleaved[2 x] = values[x] for x < copy (the odd elements,
/// the other channel of the pair, are kept); returns the largest |values[x]| for x < count
/// (count >= copy). One pass of 32 values at a time, the last ones masked.
std::int32_t pack_row_avx512(const std::int16_t* values, std::size_t count, std::size_t copy,
                             std::int16_t* interleaved) {
    __m512i most = _mm512_setzero_si512();  // |x| as unsigned 16-bit (|-32768| = 32768)
    constexpr __mmask32 even = 0x55555555u;
    for (std::size_t x = 0; x < count; x += 32) {
        const std::size_t n = count - x < 32 ? count - x : 32;
        const auto in = static_cast<__mmask32>(n == 32 ? 0xffffffffu : (1u << n) - 1u);
        const __m512i v = _mm512_maskz_loadu_epi16(in, values + x);
        most = _mm512_max_epu16(most, _mm512_abs_epi16(v));
        if (x >= copy) continue;
        // Each value zero-extended into a 32-bit lane, stored to the even 16-bit elements only.
        const std::size_t m = copy - x < 32 ? copy - x : 32;  // values to store
        const std::uint64_t store =
            m == 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * m)) - 1u;
        _mm512_mask_storeu_epi16(interleaved + 2 * x, static_cast<__mmask32>(even & store),
                                 _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v)));
        if (m > 16)
            _mm512_mask_storeu_epi16(interleaved + 2 * x + 32,
                                     static_cast<__mmask32>(even & (store >> 32)),
                                     _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1)));
    }
    const __m512i wide =
        _mm512_max_epu32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(most)),
                         _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(most, 1)));
    return _mm512_reduce_max_epi32(wide);
}

/// narrow_row of the AVX-512 table: out[x] = sums[x] + bias narrowed to int16 (saturate or wrap)
/// for x < count; sums[x] + bias fits int32.
void narrow_row_avx512(const std::int32_t* sums, std::int32_t bias, bool saturate,
                       std::size_t count, std::int16_t* out) {
    const __m512i b = _mm512_set1_epi32(bias);
    for (std::size_t x = 0; x < count; x += 16) {
        const std::size_t n = count - x < 16 ? count - x : 16;
        const auto m = static_cast<__mmask16>((1u << n) - 1u);
        const __m512i v = _mm512_add_epi32(_mm512_maskz_loadu_epi32(m, sums + x), b);
        const __m256i r = saturate ? _mm512_cvtsepi32_epi16(v) : _mm512_cvtepi32_epi16(v);
        _mm256_mask_storeu_epi16(out + x, m, r);
    }
}

}  // namespace
}  // namespace openvx::q78
