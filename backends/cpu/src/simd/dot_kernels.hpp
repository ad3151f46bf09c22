// Dot products of the rows of a matrix with one vector (a fully connected layer or GEMM at batch
// 1): memory-bound on the matrix, so four rows share each load of the vector, and every row is
// summed in one fixed order (whole vectors, a horizontal sum, then the tail) whichever rows it
// is grouped with, so results do not depend on how the rows are split over threads. dot_panels
// does the same for a matrix packed into panels of 16 rows (tessera::cpu::DotPanels), which it
// reads as one sequential stream.
#pragma once

#include <algorithm>
#include <cstdint>

#include <xsimd/xsimd.hpp>

namespace tessera::cpu::simd {

/// Rows per panel of a matrix packed for dot_panels: a reduction step of a panel is one 64-byte
/// line, element (row r, step i) of panel p at packed[(p * k + i) * kDotPanelRows + r].
constexpr int64_t kDotPanelRows = 16;

/// x . w[0..k) for one row, in dot_rows' order.
template <class Arch>
inline float dot_row(const float* x, const float* w, int64_t k) {
    using V = xsimd::batch<float, Arch>;
    constexpr int64_t lanes = static_cast<int64_t>(V::size);
    V acc(0.0f);
    int64_t i = 0;
    for (; i + lanes <= k; i += lanes)
        acc = xsimd::fma(V::load_unaligned(x + i), V::load_unaligned(w + i), acc);
    float sum = xsimd::hadd(acc);
    for (; i < k; ++i) sum += x[i] * w[i];
    return sum;
}

/// y[j] = x . w[j * ldw .. j * ldw + k) for j in [0, rows).
template <class Arch>
void dot_rows(const float* x, const float* w, int64_t ldw, int64_t k, float* y, int64_t rows) {
    using V = xsimd::batch<float, Arch>;
    constexpr int64_t lanes = static_cast<int64_t>(V::size);
    constexpr int64_t group = 4;
    int64_t j = 0;
    for (; j + group <= rows; j += group) {
        const float* w0 = w + j * ldw;
        const float* w1 = w0 + ldw;
        const float* w2 = w1 + ldw;
        const float* w3 = w2 + ldw;
        V a0(0.0f), a1(0.0f), a2(0.0f), a3(0.0f);
        int64_t i = 0;
        for (; i + lanes <= k; i += lanes) {
            const V v = V::load_unaligned(x + i);
            a0 = xsimd::fma(v, V::load_unaligned(w0 + i), a0);
            a1 = xsimd::fma(v, V::load_unaligned(w1 + i), a1);
            a2 = xsimd::fma(v, V::load_unaligned(w2 + i), a2);
            a3 = xsimd::fma(v, V::load_unaligned(w3 + i), a3);
        }
        float s0 = xsimd::hadd(a0), s1 = xsimd::hadd(a1);
        float s2 = xsimd::hadd(a2), s3 = xsimd::hadd(a3);
        for (; i < k; ++i) {
            s0 += x[i] * w0[i];
            s1 += x[i] * w1[i];
            s2 += x[i] * w2[i];
            s3 += x[i] * w3[i];
        }
        y[j] = s0;
        y[j + 1] = s1;
        y[j + 2] = s2;
        y[j + 3] = s3;
    }
    for (; j < rows; ++j) y[j] = dot_row<Arch>(x, w + j * ldw, k);
}

/// out[16 q + r] = x . row r of panel q for the P panels from `panel` (k steps each). Each row
/// sums its even and its odd steps apart (two chains per vector, for the FMA latency), then adds
/// the two: the same order whichever panels are grouped.
template <class Arch, int P>
inline void dot_panel_group(const float* x, const float* panel, int64_t k, float* out) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NV = static_cast<int>(kDotPanelRows) / W;
    const int64_t stride = k * kDotPanelRows;  // floats from one panel to the next
    V even[P][NV], odd[P][NV];
    for (int q = 0; q < P; ++q)
        for (int v = 0; v < NV; ++v) even[q][v] = odd[q][v] = V(0.0f);
    int64_t i = 0;
    for (; i + 2 <= k; i += 2) {
        const V x0(x[i]), x1(x[i + 1]);
        const float* line = panel + i * kDotPanelRows;
#pragma GCC unroll 2
        for (int q = 0; q < P; ++q)
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) {
                const float* at = line + q * stride + v * W;
                even[q][v] = xsimd::fma(x0, V::load_unaligned(at), even[q][v]);
                odd[q][v] = xsimd::fma(x1, V::load_unaligned(at + kDotPanelRows), odd[q][v]);
            }
    }
    if (i < k) {
        const V x0(x[i]);
        for (int q = 0; q < P; ++q)
            for (int v = 0; v < NV; ++v)
                even[q][v] = xsimd::fma(
                    x0, V::load_unaligned(panel + q * stride + i * kDotPanelRows + v * W),
                    even[q][v]);
    }
    for (int q = 0; q < P; ++q)
        for (int v = 0; v < NV; ++v)
            (even[q][v] + odd[q][v]).store_unaligned(out + q * kDotPanelRows + v * W);
}

/// y[j] = x . row j for the first `outputs` rows of the panels from `packed` (k steps each).
/// Two panels at a time where vectors are 8 floats or wider (AVX2: 8 accumulators), else one.
template <class Arch>
void dot_panels(const float* x, const float* packed, int64_t k, float* y, int64_t outputs) {
    constexpr int P = xsimd::batch<float, Arch>::size >= 8 ? 2 : 1;
    const int64_t whole = outputs / kDotPanelRows;  // panels whose rows are all wanted
    int64_t p = 0;
    for (; p + P <= whole; p += P)
        dot_panel_group<Arch, P>(x, packed + p * k * kDotPanelRows, k, y + p * kDotPanelRows);
    for (; p * kDotPanelRows < outputs; ++p) {
        float rows[kDotPanelRows];
        dot_panel_group<Arch, 1>(x, packed + p * k * kDotPanelRows, k, rows);
        const int64_t count = std::min(kDotPanelRows, outputs - p * kDotPanelRows);
        std::copy(rows, rows + count, y + p * kDotPanelRows);
    }
}

}  // namespace tessera::cpu::simd
