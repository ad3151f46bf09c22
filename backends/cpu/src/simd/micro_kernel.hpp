// The register-tiled fp32 microkernel shared by GEMM and direct convolution (xsimd templates,
// instantiated once per instruction set in the arch TUs).
#pragma once

#include <algorithm>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "simd/kernel_table.hpp"

namespace tessera::cpu::simd {

/// Vector registers the instruction set has (32 on AVX-512 and AArch64 NEON, 16 otherwise).
template <class Arch>
constexpr int vector_registers() {
    return std::is_base_of_v<xsimd::avx512f, Arch> || std::is_base_of_v<xsimd::neon64, Arch> ? 32
                                                                                             : 16;
}

/// PS > 0: the A row stride is that compile-time constant (addresses become immediate offsets);
/// PS == 0: it is read from g.a_ps. ROWS == 2: a two-row tile, MR pixels of each of two output
/// rows (A and C of the second row at g.a_rs / g.c_rs from the first's).
template <class Arch, int MR, int NV, int PS, int ROWS = 1>
void micro_kernel(const MicroArgs& g) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NR = NV * W;
    constexpr int P = MR * ROWS;  // accumulator rows
    const auto c_row = [&g](int p) { return g.c + (p / MR) * g.c_rs + (p % MR) * g.c_ps; };
    V acc[P][NV];
#pragma GCC unroll 16
    for (int p = 0; p < P; ++p) {
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[p][v] = V(0.0f);
            // The C tile's rows are far apart (a GEMM row or an output pixel): start fetching them
            // now so the epilogue's loads and stores do not wait on L2/L3.
#pragma GCC unroll 4
        for (int v = 0; v < NR; v += 16) __builtin_prefetch(c_row(p) + (v / 16) * g.c_bs, 1, 3);
    }

    const float* b = g.b;
    const int64_t kc = g.kc;
    const float* a = g.a;
    const int64_t ps = PS > 0 ? PS : g.a_ps;
    const int64_t rs = ROWS > 1 ? g.a_rs : 0;
    const int64_t* koff = g.koff;
    // Each step loads the NV vectors of B and broadcasts the A values one at a time, holding
    // P*NV + NV + 1 registers; where that does not fit (a wide tile: few rows, many vectors) it
    // broadcasts all P values first and loads B one vector at a time (P*NV + P + 1).
    constexpr bool b_first = P * NV + NV + 1 <= vector_registers<Arch>();
    // One step of the reduction: A of the tile's pixels/rows at ak[(p / MR) * rs + (p % MR) * ps].
    const auto step = [&](const float* ak) {
        if constexpr (b_first) {
            V bv[NV];
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) bv[v] = V::load_aligned(b + v * W);
#pragma GCC unroll 16
            for (int p = 0; p < P; ++p) {
                const V av(ak[(p / MR) * rs + (p % MR) * ps]);
#pragma GCC unroll 4
                for (int v = 0; v < NV; ++v) acc[p][v] = xsimd::fma(av, bv[v], acc[p][v]);
            }
        } else {
            V av[P];
#pragma GCC unroll 16
            for (int p = 0; p < P; ++p) av[p] = V(ak[(p / MR) * rs + (p % MR) * ps]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) {
                const V bv = V::load_aligned(b + v * W);
#pragma GCC unroll 16
                for (int p = 0; p < P; ++p) acc[p][v] = xsimd::fma(av[p], bv, acc[p][v]);
            }
        }
        b += NR;
    };
    if (koff) {
        // With lines to prefetch, the MR pixels of one of them every `per` steps, spread over the
        // reduction (issued back to back, they fill the miss queue and stall); without, one
        // stretch of all kc steps.
        const int64_t lines = g.pf_count, per = lines > 0 ? (kc + lines - 1) / lines : kc;
        for (int64_t k0 = 0, j = 0; k0 < kc; k0 += per, ++j) {
            if (j < lines) {
#pragma GCC unroll 16
                for (int p = 0; p < MR; ++p)
                    __builtin_prefetch(g.pf + g.pf_lines[j] + p * ps, 0, 3);
            }
            const int64_t k1 = std::min(kc, k0 + per);
#pragma GCC unroll 2
            for (int64_t k = k0; k < k1; ++k) step(a + koff[k]);
        }
    } else {
        // A advances by a fixed stride per step (GEMM): no offset table to read.
        const int64_t ks = g.a_ks;
#pragma GCC unroll 2
        for (int64_t k = 0; k < kc; ++k, a += ks) step(a);
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
    for (int p = 0; p < P; ++p) {
        float* crow = c_row(p);
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

/// Fills micro (ROWS 1) or micro_two_rows (ROWS 2) for every (mr, nv) with mr <= MR and
/// nv <= NV.
template <class Arch, int MR, int NV, int ROWS = 1>
struct MicroTableFiller {
    template <int M, int N>
    static void fill_one(KernelTable& t) {
        auto& slots = ROWS == 1 ? t.micro : t.micro_two_rows;
        for (int s = 0; s < kMicroStrides; ++s) {
            MicroKernel& slot = slots[s][M - 1][N - 1];
            switch (kMicroStrideValues[s]) {
                case 1:
                    slot = &micro_kernel<Arch, M, N, 1, ROWS>;
                    break;
                case 2:
                    slot = &micro_kernel<Arch, M, N, 2, ROWS>;
                    break;
                case 16:
                    slot = &micro_kernel<Arch, M, N, 16, ROWS>;
                    break;
                default:
                    slot = &micro_kernel<Arch, M, N, 0, ROWS>;
                    break;
            }
        }
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
