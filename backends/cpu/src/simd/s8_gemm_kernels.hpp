// Portable int8 GEMM: C (s32) = A (u8, row-major) x B (s8, packed in VNNI order). The packed B
// layout is [n/16 panels][k/4][16 columns][4 k-values]; k is padded to a multiple of 4.
#pragma once

#include <cstdint>

namespace tessera::cpu::simd {

// static: every per-ISA translation unit includes this and takes its address; with external
// linkage the linker would keep one copy, possibly the one compiled with -mavx512*, and run it
// on CPUs without AVX-512 (SIGILL).
static inline void s8_gemm_generic(const uint8_t* a, int64_t lda, const int8_t* bp, int32_t* c,
                                   int64_t ldc, int64_t m, int64_t n, int64_t k_padded) {
    const int64_t panels = (n + 15) / 16;
    for (int64_t i = 0; i < m; ++i) {
        const uint8_t* arow = a + i * lda;
        for (int64_t p = 0; p < panels; ++p) {
            int32_t acc[16] = {};
            const int8_t* b = bp + p * k_padded * 16;
            for (int64_t kk = 0; kk < k_padded; kk += 4, b += 64)
                for (int j = 0; j < 16; ++j)
                    for (int q = 0; q < 4; ++q)
                        acc[j] +=
                            static_cast<int32_t>(arow[kk + q]) * static_cast<int32_t>(b[j * 4 + q]);
            const int64_t cols = n - p * 16 < 16 ? n - p * 16 : 16;
            for (int64_t j = 0; j < cols; ++j) c[i * ldc + p * 16 + j] = acc[j];
        }
    }
}

}  // namespace tessera::cpu::simd
