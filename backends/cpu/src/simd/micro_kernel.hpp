// The register-tiled fp32 microkernel shared by GEMM and direct convolution (xsimd templates,
// instantiated once per instruction set in the arch TUs).
#pragma once

#include <xsimd/xsimd.hpp>

#include "simd/kernel_table.hpp"

namespace tessera::cpu::simd {

template <class Arch, int MR, int NV>
void micro_kernel(const MicroArgs& g) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NR = NV * W;
    V acc[MR][NV];
#pragma GCC unroll 16
    for (int p = 0; p < MR; ++p)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[p][v] = V(0.0f);

    const float* b = g.b;
    const int64_t kc = g.kc;
    const float* a = g.a;
    const int64_t ps = g.a_ps;
    const int64_t* koff = g.koff;
#pragma GCC unroll 2
    for (int64_t k = 0; k < kc; ++k) {
        const float* ak = a + koff[k];
        V bv[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) bv[v] = V::load_aligned(b + v * W);
#pragma GCC unroll 16
        for (int p = 0; p < MR; ++p) {
            const V av(ak[p * ps]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) acc[p][v] = xsimd::fma(av, bv[v], acc[p][v]);
        }
        b += NR;
    }

    // Epilogue.
    const V alpha(g.alpha);
    const V beta(g.beta);
    const bool scale = g.alpha != 1.0f;
    V bias[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) bias[v] = g.bias ? V::load_unaligned(g.bias + v * W) : V(0.0f);
    const V lo(g.act_lo), hi(g.act_hi), slope(g.act_slope), zero(0.0f);
#pragma GCC unroll 16
    for (int p = 0; p < MR; ++p) {
        float* crow = g.c + p * g.c_ps;
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) {
            float* cp = crow + ((v * W) / 16) * g.c_bs + (v * W) % 16;
            V r = scale ? acc[p][v] * alpha : acc[p][v];
            if (g.load_c) r = xsimd::fma(beta, V::load_unaligned(cp), r);
            if (g.bias) r = r + bias[v];
            if (g.act == FusedAct::clamp) {
                r = xsimd::min(xsimd::max(r, lo), hi);
            } else if (g.act == FusedAct::leaky) {
                r = xsimd::select(r > zero, r, r * slope);
            }
            r.store_unaligned(cp);
        }
    }
}

/// Fills micro for every (mr, nv) with mr <= MR and nv <= NV.
template <class Arch, int MR, int NV>
struct MicroTableFiller {
    template <int M, int N>
    static void fill_one(KernelTable& t) {
        t.micro[M - 1][N - 1] = &micro_kernel<Arch, M, N>;
    }
    template <int M, int... Ns>
    static void fill_row(KernelTable& t, std::integer_sequence<int, Ns...>) {
        (fill_one<M, Ns + 1>(t), ...);
    }
    template <int... Ms>
    static void fill(KernelTable& t, std::integer_sequence<int, Ms...>) {
        (fill_row<Ms + 1>(t, std::make_integer_sequence<int, NV>{}), ...);
    }
    static void fill(KernelTable& t) { fill(t, std::make_integer_sequence<int, MR>{}); }
};

}  // namespace tessera::cpu::simd
