// Neighbourhood xsimd kernels on the blocked layout (16 channels per pixel): pooling and depthwise
// convolution over one output row. Pooling windows lie inside the input (the caller clips them at
// the border); stride-1 depthwise rows may start and end in zero columns (a zero border), which
// tiles of their own leave out.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

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
    const V uniform(1.0f / static_cast<float>(g.area > 0 ? g.area : g.kh * g.kw));
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
    for (int64_t y = 0; y < g.kh; ++y) {
        const float* row = base + y * g.dil_h * g.src_row;
        const float* w = g.weights + y * g.w_row;
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

/// Stride 1, KW <= 3 taps wide (fewer than the kernel's at a zero-padded left or right edge), up to
/// 3 rows (fewer at a top or bottom edge), no dilation: each input vector is loaded once per tile
/// row and feeds up to KW outputs (the weights of the row stay in registers). The first ZL and last
/// ZR of the tile's T + KW - 1 input columns are the row's zero columns (never loaded).
template <class Arch, int T, int KW, int ZL, int ZR>
void depthwise_tile_s1(const DepthwiseRowArgs& g, int64_t o) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NVEC = 16 / W;
#pragma GCC unroll 4
    for (int v = 0; v < NVEC; ++v) {
        V acc[T];
        const V b = g.bias ? V::load_unaligned(g.bias + v * W) : V(0.0f);
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t] = b;
        // Input column i of the tile is column o + i of the row's span, o + i - zero_left inside.
        const float* base = g.src + (o - g.zero_left) * 16 + v * W;
#pragma GCC unroll 3
        for (int y = 0; y < static_cast<int>(g.kh); ++y) {
            const float* row = base + y * g.src_row;
            V w[KW];
#pragma GCC unroll 3
            for (int x = 0; x < KW; ++x)
                w[x] = V::load_aligned(g.weights + y * g.w_row + x * 16 + v * W);
#pragma GCC unroll 10
            for (int i = ZL; i < T + KW - 1 - ZR; ++i) {
                const V in = V::load_unaligned(row + i * 16);
#pragma GCC unroll 3
                for (int x = 0; x < KW; ++x)
                    if (i - x >= 0 && i - x < T) acc[i - x] = xsimd::fma(in, w[x], acc[i - x]);
            }
        }
        float* out = g.dst + o * 16 + v * W;
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t].store_unaligned(out + t * 16);
    }
}

using DepthwiseTile = void (*)(const DepthwiseRowArgs&, int64_t);

/// Entry Z * KW + R: the tile with Z zero columns on the left and R on the right.
template <class Arch, int T, int KW, int... Z>
constexpr std::array<DepthwiseTile, sizeof...(Z)> depthwise_s1_tiles(
    std::integer_sequence<int, Z...>) {
    return {&depthwise_tile_s1<Arch, T, KW, Z / KW, Z % KW>...};
}

/// The tile at output `o`, instantiated for its count of zero columns on each side (< KW).
template <class Arch, int T, int KW>
void depthwise_tile_s1_at(const DepthwiseRowArgs& g, int64_t o) {
    constexpr std::array<DepthwiseTile, KW* KW> tiles =
        depthwise_s1_tiles<Arch, T, KW>(std::make_integer_sequence<int, KW * KW>{});
    const int64_t inside_end = g.count + KW - 1 - g.zero_right;  // span column past the inside
    const int64_t zl = std::clamp<int64_t>(g.zero_left - o, 0, KW - 1);
    const int64_t zr = std::clamp<int64_t>(o + T + KW - 1 - inside_end, 0, KW - 1);
    tiles[static_cast<std::size_t>(zl * KW + zr)](g, o);
}

/// Stride-1 rows of KW taps: tiles of 8 outputs, the rest as one tile ending at the row's end (it
/// recomputes a few outputs from the same inputs: cheaper than single-output tiles).
template <class Arch, int KW>
void depthwise_row_s1(const DepthwiseRowArgs& g) {
    constexpr int T = 8;
    int64_t o = 0;
    for (; o + T <= g.count; o += T) depthwise_tile_s1_at<Arch, T, KW>(g, o);
    if (o < g.count && g.count >= T)
        depthwise_tile_s1_at<Arch, T, KW>(g, g.count - T);
    else
        for (; o < g.count; ++o) depthwise_tile_s1_at<Arch, 1, KW>(g, o);
}

/// Stride 2, KW taps wide, no dilation across a row: each of the tile's 2T + KW - 2 input
/// columns is loaded once per tile row and feeds the outputs whose windows hold it (two where
/// windows overlap), instead of once per output and tap.
template <class Arch, int T, int KW>
void depthwise_tile_s2(const DepthwiseRowArgs& g, int64_t o) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NVEC = 16 / W;
    constexpr int columns = 2 * T + KW - 2;
#pragma GCC unroll 4
    for (int v = 0; v < NVEC; ++v) {
        V acc[T];
        const V b = g.bias ? V::load_unaligned(g.bias + v * W) : V(0.0f);
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t] = b;
        const float* base = g.src + o * g.src_pixel_step + v * W;
        for (int64_t y = 0; y < g.kh; ++y) {
            const float* row = base + y * g.dil_h * g.src_row;
            V w[KW];
#pragma GCC unroll 5
            for (int x = 0; x < KW; ++x)
                w[x] = V::load_aligned(g.weights + y * g.w_row + x * 16 + v * W);
#pragma GCC unroll 24
            for (int i = 0; i < columns; ++i) {
                const V in = V::load_unaligned(row + i * 16);
#pragma GCC unroll 5
                for (int x = i % 2; x < KW; x += 2)
                    if ((i - x) / 2 < T && i >= x)
                        acc[(i - x) / 2] = xsimd::fma(in, w[x], acc[(i - x) / 2]);
            }
        }
        float* out = g.dst + o * 16 + v * W;
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t].store_unaligned(out + t * 16);
    }
}

/// Stride-2 rows of KW taps: tiles of T outputs, the rest as one tile ending at the row's end.
template <class Arch, int KW>
void depthwise_row_s2(const DepthwiseRowArgs& g) {
    constexpr int T = 16 / static_cast<int>(xsimd::batch<float, Arch>::size) >= 4 ? 4 : 8;
    int64_t o = 0;
    for (; o + T <= g.count; o += T) depthwise_tile_s2<Arch, T, KW>(g, o);
    if (o < g.count && g.count >= T)
        depthwise_tile_s2<Arch, T, KW>(g, g.count - T);
    else
        for (; o < g.count; ++o) depthwise_tile_s2<Arch, 1, KW>(g, o);
}

template <class Arch>
void depthwise_row(const DepthwiseRowArgs& g) {
    if (depthwise_zero_columns_supported(g.kh, g.kw, g.dil_h, g.dil_w, g.src_pixel_step)) {
        if (g.kw == 3)
            depthwise_row_s1<Arch, 3>(g);
        else if (g.kw == 2)
            depthwise_row_s1<Arch, 2>(g);
        else
            depthwise_row_s1<Arch, 1>(g);
        if (g.act.enabled()) activation<Arch>(g.dst, g.dst, g.count * 16, g.act);
        return;
    }
    if (g.src_pixel_step == 2 * 16 && g.dil_w == 1 && (g.kw == 3 || g.kw == 5)) {
        if (g.kw == 3)
            depthwise_row_s2<Arch, 3>(g);
        else
            depthwise_row_s2<Arch, 5>(g);
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
