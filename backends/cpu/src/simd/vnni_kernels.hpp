// AVX512-VNNI int8 GEMM (vpdpbusd), same packed-B contract as s8_gemm_generic. Only included by the
// AVX-512 arch TU; used when the CPU reports avx512_vnni.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "simd/s8_gemm_kernels.hpp"

namespace tessera::cpu::simd {

template <int R>
inline void s8_rows_vnni512(const uint8_t* a, int64_t lda, const int8_t* bp, int32_t* c,
                            int64_t ldc, int64_t n, int64_t k_padded) {
    const int64_t panels = (n + 15) / 16;
    for (int64_t p = 0; p < panels; ++p) {
        __m512i acc[R];
        for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_si512();
        const int8_t* b = bp + p * k_padded * 16;
        for (int64_t kk = 0; kk < k_padded; kk += 4, b += 64) {
            const __m512i bv = _mm512_loadu_si512(b);
            for (int r = 0; r < R; ++r) {
                int32_t quad;
                __builtin_memcpy(&quad, a + r * lda + kk, 4);
                acc[r] = _mm512_dpbusd_epi32(acc[r], _mm512_set1_epi32(quad), bv);
            }
        }
        const int64_t cols = n - p * 16 < 16 ? n - p * 16 : 16;
        const __mmask16 mask = static_cast<__mmask16>((1u << cols) - 1u);
        for (int r = 0; r < R; ++r) _mm512_mask_storeu_epi32(c + r * ldc + p * 16, mask, acc[r]);
    }
}

inline void s8_gemm_vnni512(const uint8_t* a, int64_t lda, const int8_t* bp, int32_t* c,
                            int64_t ldc, int64_t m, int64_t n, int64_t k_padded) {
    if (!__builtin_cpu_supports("avx512vnni")) {
        s8_gemm_generic(a, lda, bp, c, ldc, m, n, k_padded);
        return;
    }
    int64_t i = 0;
    for (; i + 8 <= m; i += 8)
        s8_rows_vnni512<8>(a + i * lda, lda, bp, c + i * ldc, ldc, n, k_padded);
    for (; i < m; ++i) s8_rows_vnni512<1>(a + i * lda, lda, bp, c + i * ldc, ldc, n, k_padded);
}

}  // namespace tessera::cpu::simd
