// Packing of the GEMM's B operand (plain C++; memory-bound, amortised over a block of the product).
// A row-major B is read in whole rows so the hardware prefetchers stream it, and copied in
// fixed-size pieces the compiler unrolls.
#include "kernels/gemm_pack.hpp"

#include <algorithm>
#include <cstring>

namespace tessera::cpu {
namespace {

/// `count` floats (NR > 0: exactly NR, a compile-time size the compiler unrolls).
template <int NR>
void copy_row(const float* src, float* dst, int64_t count) {
    if constexpr (NR > 0) {
#pragma GCC unroll 64
        for (int j = 0; j < NR; ++j) dst[j] = src[j];
    } else {
        std::memcpy(dst, src, static_cast<std::size_t>(count) * sizeof(float));
    }
}

/// A row-major B in slabs of kSlab rows: each slab's rows are read from start to end (within L1)
/// and written to every panel as one contiguous piece. (Row by row, the panels' rows kc * nr
/// floats apart would all fall in the same L1 sets.)
template <int NR>
void pack_b_rows(const float* b, int64_t ldb, int64_t p0, int64_t kc, int64_t j0, int64_t nc,
                 int64_t nr, float* out) {
    constexpr int64_t kSlab = 16;
    const int64_t full = nc / nr, tail = nc - full * nr;
    for (int64_t k0 = 0; k0 < kc; k0 += kSlab) {
        const int64_t k1 = std::min(kc, k0 + kSlab);
        const float* src = b + (p0 + k0) * ldb + j0;
        for (int64_t panel = 0; panel < full; ++panel) {
            float* dst = out + panel * kc * nr + k0 * nr;
            for (int64_t k = 0; k < k1 - k0; ++k)
                copy_row<NR>(src + k * ldb + panel * nr, dst + k * nr, nr);
        }
        if (tail == 0) continue;
        float* last = out + full * kc * nr + k0 * nr;
        for (int64_t k = 0; k < k1 - k0; ++k) {
            std::memcpy(last + k * nr, src + k * ldb + full * nr,
                        static_cast<std::size_t>(tail) * sizeof(float));
            std::fill(last + k * nr + tail, last + (k + 1) * nr, 0.0f);
        }
    }
}

}  // namespace

void pack_b_panels(const float* b, int64_t ldb, bool trans, int64_t p0, int64_t kc, int64_t j0,
                   int64_t nc, int64_t nr, float* out) {
    if (!trans) {
        switch (nr) {
            case 16:
                return pack_b_rows<16>(b, ldb, p0, kc, j0, nc, nr, out);
            case 32:
                return pack_b_rows<32>(b, ldb, p0, kc, j0, nc, nr, out);
            case 64:
                return pack_b_rows<64>(b, ldb, p0, kc, j0, nc, nr, out);
            default:
                return pack_b_rows<0>(b, ldb, p0, kc, j0, nc, nr, out);
        }
    }
    for (int64_t jr = 0; jr < nc; jr += nr) {
        float* panel = out + (jr / nr) * kc * nr;
        const int64_t cols = std::min(nr, nc - jr);
        for (int64_t j = 0; j < cols; ++j) {
            const float* src = b + (j0 + jr + j) * ldb + p0;
            for (int64_t k = 0; k < kc; ++k) panel[k * nr + j] = src[k];
        }
        for (int64_t j = cols; j < nr; ++j)
            for (int64_t k = 0; k < kc; ++k) panel[k * nr + j] = 0.0f;
    }
}

}  // namespace tessera::cpu
