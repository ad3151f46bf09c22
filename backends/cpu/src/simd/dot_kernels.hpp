// Dot products of the rows of a matrix with one vector (a fully connected layer or GEMM at batch
// 1): memory-bound on the matrix, so four rows share each load of the vector, and every row is
// summed in one fixed order (whole vectors, a horizontal sum, then the tail) whichever rows it
// is grouped with, so results do not depend on how the rows are split over threads.
#pragma once

#include <cstdint>

#include <xsimd/xsimd.hpp>

namespace tessera::cpu::simd {

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

}  // namespace tessera::cpu::simd
