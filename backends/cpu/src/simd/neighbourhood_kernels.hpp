// Neighbourhood xsimd kernels on the blocked layout (16 channels per pixel): pooling and depthwise
// convolution over one output row. Inputs are padded tensors, so the loops have no border tests.
#pragma once

#include <cmath>
#include <cstdint>

#include <xsimd/xsimd.hpp>

#include "simd/elementwise_kernels.hpp"
#include "simd/kernel_table.hpp"

namespace tessera::cpu::simd {

template <class Arch>
void pool_row(const PoolRowArgs& g) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NVEC = 16 / W;
    const V init(g.max ? -INFINITY : 0.0f);
    const V uniform(1.0f / static_cast<float>(g.kh * g.kw));
    for (int64_t o = 0; o < g.count; ++o) {
        const float* base = g.src + o * g.src_pixel_step;
        V acc[NVEC];
        for (int v = 0; v < NVEC; ++v) acc[v] = init;
        for (int64_t y = 0; y < g.kh; ++y) {
            const float* row = base + y * g.dil_h * g.src_row;
            for (int64_t x = 0; x < g.kw; ++x) {
                const float* px = row + x * g.dil_w * 16;
                for (int v = 0; v < NVEC; ++v) {
                    const V in = V::load_unaligned(px + v * W);
                    acc[v] = g.max ? xsimd::max(acc[v], in) : acc[v] + in;
                }
            }
        }
        float* out = g.dst + o * 16;
        for (int v = 0; v < NVEC; ++v) {
            V r = acc[v];
            if (!g.max) r = r * (g.divisor ? V(g.divisor[o]) : uniform);
            r.store_unaligned(out + v * W);
        }
    }
}

/// `T` output pixels of one 16-channel block at once.
template <class Arch, int T>
inline void depthwise_tile(const DepthwiseRowArgs& g, int64_t o) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NVEC = 16 / W;
    V acc[T][NVEC];
    for (int v = 0; v < NVEC; ++v) {
        const V b = g.bias ? V::load_unaligned(g.bias + v * W) : V(0.0f);
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t][v] = b;
    }
    const float* base = g.src + o * g.src_pixel_step;
    const float* w = g.weights;
    for (int64_t y = 0; y < g.kh; ++y) {
        const float* row = base + y * g.dil_h * g.src_row;
        for (int64_t x = 0; x < g.kw; ++x, w += 16) {
            const float* px = row + x * g.dil_w * 16;
#pragma GCC unroll 4
            for (int v = 0; v < NVEC; ++v) {
                const V wv = V::load_aligned(w + v * W);
#pragma GCC unroll 8
                for (int t = 0; t < T; ++t)
                    acc[t][v] = xsimd::fma(V::load_unaligned(px + t * g.src_pixel_step + v * W), wv,
                                           acc[t][v]);
            }
        }
    }
    float* out = g.dst + o * 16;
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t)
#pragma GCC unroll 4
        for (int v = 0; v < NVEC; ++v) acc[t][v].store_unaligned(out + t * 16 + v * W);
}

/// Stride 1, 3x3, no dilation: each input vector is loaded once per tile row and feeds up to three
/// outputs (the weights of the row stay in registers).
template <class Arch, int T>
inline void depthwise_tile_3x3s1(const DepthwiseRowArgs& g, int64_t o) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NVEC = 16 / W;
#pragma GCC unroll 4
    for (int v = 0; v < NVEC; ++v) {
        V acc[T];
        const V b = g.bias ? V::load_unaligned(g.bias + v * W) : V(0.0f);
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t] = b;
        const float* base = g.src + o * 16 + v * W;
#pragma GCC unroll 3
        for (int y = 0; y < 3; ++y) {
            const float* row = base + y * g.src_row;
            const V w0 = V::load_aligned(g.weights + (y * 3 + 0) * 16 + v * W);
            const V w1 = V::load_aligned(g.weights + (y * 3 + 1) * 16 + v * W);
            const V w2 = V::load_aligned(g.weights + (y * 3 + 2) * 16 + v * W);
#pragma GCC unroll 10
            for (int i = 0; i < T + 2; ++i) {
                const V in = V::load_unaligned(row + i * 16);
                if (i < T) acc[i] = xsimd::fma(in, w0, acc[i]);
                if (i >= 1 && i - 1 < T) acc[i - 1] = xsimd::fma(in, w1, acc[i - 1]);
                if (i >= 2) acc[i - 2] = xsimd::fma(in, w2, acc[i - 2]);
            }
        }
        float* out = g.dst + o * 16 + v * W;
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t].store_unaligned(out + t * 16);
    }
}

template <class Arch>
void depthwise_row(const DepthwiseRowArgs& g) {
    if (g.kh == 3 && g.kw == 3 && g.dil_h == 1 && g.dil_w == 1 && g.src_pixel_step == 16) {
        constexpr int T = 8;
        int64_t o = 0;
        for (; o + T <= g.count; o += T) depthwise_tile_3x3s1<Arch, T>(g, o);
        for (; o < g.count; ++o) depthwise_tile_3x3s1<Arch, 1>(g, o);
        if (g.act.enabled()) activation<Arch>(g.dst, g.dst, g.count * 16, g.act);
        return;
    }
    using V = xsimd::batch<float, Arch>;
    constexpr int NVEC = 16 / static_cast<int>(V::size);
    constexpr int T = NVEC >= 4 ? 2 : 8 / NVEC;
    int64_t o = 0;
    for (; o + T <= g.count; o += T) depthwise_tile<Arch, T>(g, o);
    for (; o < g.count; ++o) depthwise_tile<Arch, 1>(g, o);
    if (g.act.enabled()) activation<Arch>(g.dst, g.dst, g.count * 16, g.act);
}

}  // namespace tessera::cpu::simd
