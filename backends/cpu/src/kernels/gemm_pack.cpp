// Packing of GEMM operands (plain C++; memory-bound, amortised over a block of the product).
#include "kernels/gemm_pack.hpp"

#include <algorithm>
#include <cstring>

namespace tessera::cpu {

void pack_a_panels(const float* a, int64_t lda, bool trans, int64_t i0, int64_t mc, int64_t p0,
                   int64_t kc, int64_t mr, float* out) {
    for (int64_t ir = 0; ir < mc; ir += mr) {
        float* panel = out + (ir / mr) * kc * mr;
        const int64_t rows = std::min(mr, mc - ir);
        if (!trans) {
            for (int64_t r = 0; r < rows; ++r) {
                const float* src = a + (i0 + ir + r) * lda + p0;
                for (int64_t k = 0; k < kc; ++k) panel[k * mr + r] = src[k];
            }
            for (int64_t r = rows; r < mr; ++r)
                for (int64_t k = 0; k < kc; ++k) panel[k * mr + r] = 0.0f;
        } else {
            for (int64_t k = 0; k < kc; ++k) {
                const float* src = a + (p0 + k) * lda + i0 + ir;
                float* dst = panel + k * mr;
                std::memcpy(dst, src, static_cast<std::size_t>(rows) * sizeof(float));
                for (int64_t r = rows; r < mr; ++r) dst[r] = 0.0f;
            }
        }
    }
}

void pack_b_panels(const float* b, int64_t ldb, bool trans, int64_t p0, int64_t kc, int64_t j0,
                   int64_t nc, int64_t nr, float* out) {
    for (int64_t jr = 0; jr < nc; jr += nr) {
        float* panel = out + (jr / nr) * kc * nr;
        const int64_t cols = std::min(nr, nc - jr);
        if (!trans) {
            for (int64_t k = 0; k < kc; ++k) {
                const float* src = b + (p0 + k) * ldb + j0 + jr;
                float* dst = panel + k * nr;
                std::memcpy(dst, src, static_cast<std::size_t>(cols) * sizeof(float));
                for (int64_t j = cols; j < nr; ++j) dst[j] = 0.0f;
            }
        } else {
            for (int64_t j = 0; j < cols; ++j) {
                const float* src = b + (j0 + jr + j) * ldb + p0;
                for (int64_t k = 0; k < kc; ++k) panel[k * nr + j] = src[k];
            }
            for (int64_t j = cols; j < nr; ++j)
                for (int64_t k = 0; k < kc; ++k) panel[k * nr + j] = 0.0f;
        }
    }
}

}  // namespace tessera::cpu
