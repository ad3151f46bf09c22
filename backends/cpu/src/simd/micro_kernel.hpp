// The register-tiled fp32 microkernel shared by GEMM and direct convolution (xsimd templates,
// instantiated once per instruction set in the arch TUs).
#pragma once

#include <algorithm>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "simd/elementwise_kernels.hpp"
#include "simd/kernel_table.hpp"

namespace tessera::cpu::simd {

/// Vector registers the instruction set has (32 on AVX-512 and AArch64 NEON, 16 otherwise).
template <class Arch>
constexpr int vector_registers() {
    return std::is_base_of_v<xsimd::avx512f, Arch> || std::is_base_of_v<xsimd::neon64, Arch> ? 32
                                                                                             : 16;
}

/// Applies g's fused activation (g.act) to every vector `each` visits: each(f) calls
/// f(p, v, batch&) for each of them, one pass per stage.
template <class Arch, class Each>
inline __attribute__((always_inline)) void apply_fused_activation(const MicroArgs& g, Each&& each) {
    using V = xsimd::batch<float, Arch>;
    if (g.act == FusedAct::clamp) {
        const V lo(g.act_lo), hi(g.act_hi);
        each([&](int, int, V& r) { r = xsimd::min(xsimd::max(r, lo), hi); });
    } else if (g.act == FusedAct::leaky) {
        const V slope(g.act_slope), zero(0.0f);
        each([&](int, int, V& r) { r = xsimd::select(r > zero, r, r * slope); });
    } else if (g.act == FusedAct::hard_sigmoid) {  // as the separate activation computes it
        const float a = g.act_slope, b = g.act_lo;
        each([&](int, int, V& r) { r = activate<Arch, ActivationKind::hard_sigmoid>(r, a, b); });
    } else if (g.act == FusedAct::hard_swish) {
        const float a = g.act_slope, b = g.act_lo;
        each([&](int, int, V& r) { r = activate<Arch, ActivationKind::hard_swish>(r, a, b); });
    }
}

/// One tile of micro_kernel: A from `a`, C at `c`, the residual (when g.res is set) at `res`.
template <class Arch, int MR, int NV, int PS, int ROWS>
inline __attribute__((always_inline)) void micro_tile(const MicroArgs& g, const float* a,
                                                      float* const c, const float* const res) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NR = NV * W;
    constexpr int P = MR * ROWS;  // accumulator rows
    // C's address fields are copied so that the epilogue's stores cannot make the compiler reload
    // them.
    const int64_t c_ps = g.c_ps, c_bs = g.c_bs, c_rs = g.c_rs;
    // Vector v of accumulator row p in a tensor of C's shape laid out with pixel, block and row
    // strides ps, bs, rs (C itself, or the residual).
    const auto tile_at = [](auto* base, int64_t ps, int64_t bs, int64_t rs, int p, int v) {
        return base + (p / MR) * rs + (p % MR) * ps + ((v * W) / 16) * bs + (v * W) % 16;
    };
    const auto c_at = [&](int p, int v) { return tile_at(c, c_ps, c_bs, c_rs, p, v); };
    // Zeroed accumulators. The C tile's rows are far apart (a GEMM row or an output pixel): start
    // fetching them now, a 16-float line at a time, so the epilogue does not wait on L2/L3.
    V acc[P][NV];
#pragma GCC unroll 16
    for (int p = 0; p < P; ++p) {
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[p][v] = V(0.0f);
#pragma GCC unroll 4
        for (int v = 0; v < NV; v += std::max(1, 16 / W)) __builtin_prefetch(c_at(p, v), 1, 3);
    }

    const float* b = g.b;
    const int64_t kc = g.kc;
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
    // The reduction over an offset table, one entry per run of R steps that read consecutive
    // elements. Runs (R > 1) are unrolled with immediate offsets, so a step costs its loads and
    // FMAs only: a 2-core Zen 3 whose sibling hardware thread is busy dispatches about half of its
    // 6 ops a cycle to us, and every op per FMA beyond ~1.5 then costs time. With lines to
    // prefetch, the MR pixels of one of them every `per` runs, spread over the reduction (issued
    // back to back, they fill the miss queue and stall).
    // With PF, pf_weight_lines weight lines are fetched into L2, a few per run, from the first run
    // on (a streaming convolution's blocked input: runs of 16 channels). Without, the loop is
    // exactly the plain one.
    const auto reduce_runs = [&](auto run_length, auto prefetch_weights) {
        constexpr int R = decltype(run_length)::value;
        constexpr bool PF = decltype(prefetch_weights)::value;
        const int64_t runs = kc / R, lines = g.pf_count;
        const int64_t per = lines > 0 ? (runs + lines - 1) / lines : runs;
        const float* const pf_w = g.pf_weights;
        const int64_t pf_w_lines = g.pf_weight_lines;
        const int64_t w_per_run = PF && runs > 0 ? (pf_w_lines + runs - 1) / runs : 0;
        for (int64_t r0 = 0, j = 0; r0 < runs; r0 += per, ++j) {
            if (j < lines) {
#pragma GCC unroll 16
                for (int p = 0; p < MR; ++p)
                    __builtin_prefetch(g.pf + g.pf_lines[j] + p * ps, 0, 3);
            }
            const int64_t r1 = std::min(runs, r0 + per);
            if constexpr (R == 1) {
#pragma GCC unroll 2
                for (int64_t k = r0; k < r1; ++k) step(a + koff[k]);
            } else {
                for (int64_t r = r0; r < r1; ++r) {
                    if constexpr (PF) {
                        const int64_t first = r * w_per_run;
                        const int64_t last = std::min(pf_w_lines, first + w_per_run);
                        for (int64_t i = first; i < last; ++i)
                            __builtin_prefetch(pf_w + i * 16, 0, 2);
                    }
                    const float* ar = a + koff[r];
                    // Unrolled 4 steps at a time where that divides the run (16 at once make GCC
                    // spill accumulators), else whole.
                    if constexpr (R % 4 == 0) {
#pragma GCC unroll 4
                        for (int s = 0; s < R; ++s) step(ar + s);
                    } else {
#pragma GCC unroll 8
                        for (int s = 0; s < R; ++s) step(ar + s);
                    }
                }
            }
        }
    };
    // Runs where the pixel stride PS (0: any but 1, 2 and 16) takes them; see micro_run_supported.
    using no_prefetch = std::false_type;
    if (!koff) {
        // A advances by a fixed stride per step (GEMM): no offset table to read.
        const int64_t ks = g.a_ks;
#pragma GCC unroll 2
        for (int64_t k = 0; k < kc; ++k, a += ks) step(a);
    } else if (micro_run_supported(PS, 16) && g.koff_run == 16) {
        if (g.pf_weight_lines > 0)
            reduce_runs(std::integral_constant<int, 16>{}, std::true_type{});
        else
            reduce_runs(std::integral_constant<int, 16>{}, no_prefetch{});
    } else if (micro_run_supported(PS, 7) && g.koff_run == 7) {
        reduce_runs(std::integral_constant<int, 7>{}, no_prefetch{});
    } else if (micro_run_supported(PS, 3) && g.koff_run == 3) {
        reduce_runs(std::integral_constant<int, 3>{}, no_prefetch{});
    } else {
        reduce_runs(std::integral_constant<int, 1>{}, no_prefetch{});
    }

    // Epilogue: one unrolled pass over the tile per stage the arguments ask for, so the tile pays
    // a branch per stage rather than several per vector.
    const auto each = [&acc](auto&& f) {
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) f(p, v, acc[p][v]);
        }
    };
    if (g.alpha != 1.0f) {
        const V alpha(g.alpha);
        each([&](int, int, V& r) { r = r * alpha; });
    }
    if (g.load_c) {
        const V beta(g.beta);
        each([&](int p, int v, V& r) { r = xsimd::fma(beta, V::load_unaligned(c_at(p, v)), r); });
    }
    if (res) {
        const int64_t res_ps = g.res_ps, res_bs = g.res_bs, res_rs = g.res_rs;
        each([&](int p, int v, V& r) {
            r = r + V::load_unaligned(tile_at(res, res_ps, res_bs, res_rs, p, v));
        });
    }
    if (g.bias) {
        V bias[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) bias[v] = V::load_unaligned(g.bias + v * W);
        each([&](int, int v, V& r) { r = r + bias[v]; });
    }
    apply_fused_activation<Arch>(g, each);
    each([&](int p, int v, const V& r) { r.store_unaligned(c_at(p, v)); });
}

/// PS > 0: the A row stride is that compile-time constant (addresses become immediate offsets);
/// PS == 0: it is read from g.a_ps. ROWS == 2: a two-row tile, MR pixels of each of two output
/// rows (A and C of the second row at g.a_rs / g.c_rs from the first's). g.tiles one-row tiles
/// side by side (MicroArgs::tiles).
template <class Arch, int MR, int NV, int PS, int ROWS = 1>
void micro_kernel(const MicroArgs& g) {
    const int64_t a_step = MR * (PS > 0 ? PS : g.a_ps), c_step = MR * g.c_ps,
                  res_step = MR * g.res_ps;
    const float* a = g.a;
    float* c = g.c;
    const float* res = g.res;
    for (int64_t t = 0; t < g.tiles; ++t) {
        micro_tile<Arch, MR, NV, PS, ROWS>(g, a, c, res);
        a += a_step;
        c += c_step;
        if (res) res += res_step;
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
