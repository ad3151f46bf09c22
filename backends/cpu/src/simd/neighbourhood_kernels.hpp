// Neighbourhood xsimd kernels on the blocked layout (16 channels per pixel): pooling and depthwise
// convolution over one output row. Pooling windows lie inside the input (the caller clips them at
// the border); stride-1 depthwise rows may start and end in zero columns (a zero border), which
// tiles of their own leave out. Depthwise tiles apply the cheap activations before they store.
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

/// T outputs of a row with stride S (1 or 2) and KW taps, no dilation across the row: each of the
/// tile's S * (T - 1) + KW input columns is loaded once per tile row and feeds every output whose
/// window holds it (the row's weights stay in registers), instead of one load per output and tap.
/// The activations activate_registers takes are applied before the store.
/// Stride 1 only: the first ZL and last ZR columns are the row's zero columns (never loaded; the
/// kernel is then narrower than its KW at a zero-padded left or right edge, and up to 3 rows).
template <class Arch, int T, int KW, int S, int ZL = 0, int ZR = 0>
void depthwise_tile_taps(const DepthwiseRowArgs& g, int64_t o) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    constexpr int NVEC = 16 / W;
    constexpr int columns = S * (T - 1) + KW;
#pragma GCC unroll 4
    for (int v = 0; v < NVEC; ++v) {
        V acc[T];
        const V b = g.bias ? V::load_unaligned(g.bias + v * W) : V(0.0f);
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t] = b;
        // Input column i of the tile is column S * o + i of the row's span, less zero_left inside.
        const float* base = g.src + (S * o - g.zero_left) * 16 + v * W;
#pragma GCC unroll 3
        for (int y = 0; y < static_cast<int>(g.kh); ++y) {
            const float* row = base + y * g.dil_h * g.src_row;
            V w[KW];
#pragma GCC unroll 5
            for (int x = 0; x < KW; ++x)
                w[x] = V::load_aligned(g.weights + y * g.w_row + x * 16 + v * W);
#pragma GCC unroll 24
            for (int i = ZL; i < columns - ZR; ++i) {
                const V in = V::load_unaligned(row + i * 16);
#pragma GCC unroll 5
                for (int x = i % S; x < KW; x += S)
                    if (i >= x && (i - x) / S < T)
                        acc[(i - x) / S] = xsimd::fma(in, w[x], acc[(i - x) / S]);
            }
        }
        activate_registers(acc, g.act);
        float* out = g.dst + o * 16 + v * W;
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) acc[t].store_unaligned(out + t * 16);
    }
}

/// A row of `count` outputs in tiles of T, the rest as one tile ending at the row's end (it
/// recomputes a few outputs from the same inputs: cheaper than single-output tiles) or, in rows
/// shorter than T, one output at a time.
template <int T, class Tile, class Single>
void tile_row(int64_t count, Tile&& tile, Single&& single) {
    int64_t o = 0;
    for (; o + T <= count; o += T) tile(o);
    if (o < count && count >= T)
        tile(count - T);
    else
        for (; o < count; ++o) single(o);
}

using DepthwiseTile = void (*)(const DepthwiseRowArgs&, int64_t);

/// Entry Z * KW + R: the tile with Z zero columns on the left and R on the right.
template <class Arch, int T, int KW, int... Z>
constexpr std::array<DepthwiseTile, sizeof...(Z)> depthwise_s1_tiles(
    std::integer_sequence<int, Z...>) {
    return {&depthwise_tile_taps<Arch, T, KW, 1, Z / KW, Z % KW>...};
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

/// Stride-1 rows of KW taps, tiles of 8 outputs with their zero columns; rows of 4 to 7 outputs
/// (MobileNets' 7x7 layers) in two overlapping tiles of 4.
template <class Arch, int KW>
void depthwise_row_s1(const DepthwiseRowArgs& g) {
    const auto single = [&](int64_t o) { depthwise_tile_s1_at<Arch, 1, KW>(g, o); };
    if (g.count < 8)
        tile_row<4>(
            g.count, [&](int64_t o) { depthwise_tile_s1_at<Arch, 4, KW>(g, o); }, single);
    else
        tile_row<8>(
            g.count, [&](int64_t o) { depthwise_tile_s1_at<Arch, 8, KW>(g, o); }, single);
}

/// Stride-2 rows of KW taps (no zero columns: the caller clips the edge outputs' taps).
template <class Arch, int KW>
void depthwise_row_s2(const DepthwiseRowArgs& g) {
    constexpr int T = 16 / static_cast<int>(xsimd::batch<float, Arch>::size) >= 4 ? 4 : 8;
    tile_row<T>(
        g.count, [&](int64_t o) { depthwise_tile_taps<Arch, T, KW, 2>(g, o); },
        [&](int64_t o) { depthwise_tile_taps<Arch, 1, KW, 2>(g, o); });
}

template <class Arch>
void depthwise_row(const DepthwiseRowArgs& g) {
    // The tiles apply the activations activate_registers takes; a pass over the row the rest.
    const bool pass_after = g.act.enabled() && !activation_in_registers(g.act.kind);
    if (depthwise_zero_columns_supported(g.kh, g.kw, g.dil_h, g.dil_w, g.src_pixel_step)) {
        if (g.kw == 5)
            depthwise_row_s1<Arch, 5>(g);
        else if (g.kw == 3)
            depthwise_row_s1<Arch, 3>(g);
        else if (g.kw == 2)
            depthwise_row_s1<Arch, 2>(g);
        else
            depthwise_row_s1<Arch, 1>(g);
        if (pass_after) activation<Arch>(g.dst, g.dst, g.count * 16, g.act);
        return;
    }
    if (g.src_pixel_step == 2 * 16 && g.dil_w == 1 && (g.kw == 3 || g.kw == 5)) {
        if (g.kw == 3)
            depthwise_row_s2<Arch, 3>(g);
        else
            depthwise_row_s2<Arch, 5>(g);
        if (pass_after) activation<Arch>(g.dst, g.dst, g.count * 16, g.act);
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
