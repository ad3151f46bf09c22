// Packing of GEMM operands (plain C++; memory-bound, amortised over a block of the product).
// Both packers read their source in long sequential runs (several rows at once for A, whole rows
// for B) so the hardware prefetchers stream it, and copy fixed-size pieces the compiler unrolls.
#include "kernels/gemm_pack.hpp"

#include <algorithm>
#include <cstring>

namespace tessera::cpu {
namespace {

/// One full panel of a row-major A: MR rows read side by side, written [kc][MR].
template <int MR>
void pack_a_full_panel(const float* a, int64_t lda, int64_t kc, float* panel) {
    const float* rows[MR];
    for (int r = 0; r < MR; ++r) rows[r] = a + r * lda;
    for (int64_t k = 0; k < kc; ++k) {
        float* dst = panel + k * MR;
#pragma GCC unroll 16
        for (int r = 0; r < MR; ++r) dst[r] = rows[r][k];
    }
}

/// Any panel of a row-major A (rows < mr are zero-padded).
void pack_a_any_panel(const float* a, int64_t lda, int64_t rows, int64_t kc, int64_t mr,
                      float* panel) {
    for (int64_t k = 0; k < kc; ++k) {
        float* dst = panel + k * mr;
        for (int64_t r = 0; r < rows; ++r) dst[r] = a[r * lda + k];
        for (int64_t r = rows; r < mr; ++r) dst[r] = 0.0f;
    }
}

void pack_a_panel(const float* a, int64_t lda, int64_t rows, int64_t kc, int64_t mr, float* panel) {
    if (rows == mr) {
        switch (mr) {
            case 3:
                return pack_a_full_panel<3>(a, lda, kc, panel);
            case 6:
                return pack_a_full_panel<6>(a, lda, kc, panel);
            case 12:
                return pack_a_full_panel<12>(a, lda, kc, panel);
            default:
                break;
        }
    }
    pack_a_any_panel(a, lda, rows, kc, mr, panel);
}

/// `count` floats (NR > 0: exactly NR, a compile-time size the compiler unrolls).
template <int NR>
void copy_row(const float* src, float* dst, int64_t count) {
    if constexpr (NR > 0) {
#pragma GCC unroll 32
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

void pack_a_panels(const float* a, int64_t lda, bool trans, int64_t i0, int64_t mc, int64_t p0,
                   int64_t kc, int64_t mr, float* out) {
    for (int64_t ir = 0; ir < mc; ir += mr) {
        float* panel = out + (ir / mr) * kc * mr;
        const int64_t rows = std::min(mr, mc - ir);
        if (!trans) {
            pack_a_panel(a + (i0 + ir) * lda + p0, lda, rows, kc, mr, panel);
            continue;
        }
        for (int64_t k = 0; k < kc; ++k) {
            const float* src = a + (p0 + k) * lda + i0 + ir;
            float* dst = panel + k * mr;
            for (int64_t r = 0; r < rows; ++r) dst[r] = src[r];
            for (int64_t r = rows; r < mr; ++r) dst[r] = 0.0f;
        }
    }
}

void pack_b_panels(const float* b, int64_t ldb, bool trans, int64_t p0, int64_t kc, int64_t j0,
                   int64_t nc, int64_t nr, float* out) {
    if (!trans) {
        switch (nr) {
            case 16:
                return pack_b_rows<16>(b, ldb, p0, kc, j0, nc, nr, out);
            case 32:
                return pack_b_rows<32>(b, ldb, p0, kc, j0, nc, nr, out);
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
