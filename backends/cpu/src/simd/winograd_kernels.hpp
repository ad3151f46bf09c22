// Winograd F(2x2, 3x3) transforms of a stride-1 3x3 convolution on blocked (nchw16c) tensors
// (xsimd templates, instantiated once per instruction set in the arch TUs). A tile is the 4x4
// input window of a 2x2 block of outputs; its sixteen transformed values (xi = 4 * row + column)
// are the rows of sixteen independent products V[xi] x U[xi] (see kernels/winograd_kernels.hpp).
//   input:  V = B^T d B,  B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
//   output: Y = A^T M A,  A^T = [1 1 1 0; 0 1 -1 -1]
// Each channel is transformed with the same operations in the same order wherever its tile lies
// and whichever thread runs it.
#pragma once

#include <xsimd/xsimd.hpp>

#include "simd/micro_kernel.hpp"

namespace tessera::cpu::simd {

/// Transforms one row of tiles into V (WinogradInputArgs).
template <class Arch>
void winograd_input_row(const WinogradInputArgs& g) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    bool row_in[4];
    for (int r = 0; r < 4; ++r) row_in[r] = g.ih0 + r >= 0 && g.ih0 + r < g.in_h;
    for (int64_t t = 0; t < g.tiles; ++t) {
        const int64_t iw = g.iw0 + 2 * t;
        bool inside[4][4];
        bool all = true;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) {
                inside[r][c] = row_in[r] && iw + c >= 0 && iw + c < g.in_w;
                all = all && inside[r][c];
            }
        float* const v_tile = g.v + t * g.v_tile;
        for (int64_t b = 0; b < g.blocks; ++b) {
            for (int l = 0; l < 16; l += W) {
                // d[r][c]: the window's pixel (r, c), zero outside the image.
                V d[4][4];
                const auto at = [&](int r, int c) {
                    return g.src + b * g.src_block + (g.ih0 + r) * g.src_row + (iw + c) * g.src_px +
                           l;
                };
                if (all) {
#pragma GCC unroll 4
                    for (int r = 0; r < 4; ++r)
#pragma GCC unroll 4
                        for (int c = 0; c < 4; ++c) d[r][c] = V::load_unaligned(at(r, c));
                } else {
                    for (int r = 0; r < 4; ++r)
                        for (int c = 0; c < 4; ++c)
                            d[r][c] = inside[r][c] ? V::load_unaligned(at(r, c)) : V(0.0f);
                }
                // B^T d, then (B^T d) B.
                V s[4][4];
#pragma GCC unroll 4
                for (int c = 0; c < 4; ++c) {
                    s[0][c] = d[0][c] - d[2][c];
                    s[1][c] = d[1][c] + d[2][c];
                    s[2][c] = d[2][c] - d[1][c];
                    s[3][c] = d[1][c] - d[3][c];
                }
                float* const out = v_tile + b * 16 + l;
#pragma GCC unroll 4
                for (int r = 0; r < 4; ++r) {
                    (s[r][0] - s[r][2]).store_unaligned(out + (4 * r + 0) * g.v_xi);
                    (s[r][1] + s[r][2]).store_unaligned(out + (4 * r + 1) * g.v_xi);
                    (s[r][2] - s[r][1]).store_unaligned(out + (4 * r + 2) * g.v_xi);
                    (s[r][1] - s[r][3]).store_unaligned(out + (4 * r + 3) * g.v_xi);
                }
            }
        }
    }
}

/// Transforms one row of tiles' products M back into outputs, with the residual, bias and fused
/// activation of the epilogue (WinogradOutputArgs).
template <class Arch>
void winograd_output_row(const WinogradOutputArgs& g) {
    using V = xsimd::batch<float, Arch>;
    constexpr int W = static_cast<int>(V::size);
    const MicroArgs& e = *g.epilogue;
    for (int64_t t = 0; t < g.tiles; ++t) {
        const int64_t ow = 2 * t;
        const int columns = ow + 1 < g.out_w ? 2 : 1;
        const float* const m_tile = g.m + t * g.m_tile;
        for (int64_t b = 0; b < g.blocks; ++b) {
            for (int l = 0; l < 16; l += W) {
                const float* const in = m_tile + b * 16 + l;
                // A^T M, then (A^T M) A.
                V s[2][4];
#pragma GCC unroll 4
                for (int c = 0; c < 4; ++c) {
                    const V m0 = V::load_unaligned(in + c * g.m_xi);
                    const V m1 = V::load_unaligned(in + (4 + c) * g.m_xi);
                    const V m2 = V::load_unaligned(in + (8 + c) * g.m_xi);
                    const V m3 = V::load_unaligned(in + (12 + c) * g.m_xi);
                    s[0][c] = m0 + m1 + m2;
                    s[1][c] = m1 - m2 - m3;
                }
                V y[4];  // (row, column) = (i / 2, i % 2)
#pragma GCC unroll 2
                for (int r = 0; r < 2; ++r) {
                    y[2 * r] = s[r][0] + s[r][1] + s[r][2];
                    y[2 * r + 1] = s[r][1] - s[r][2] - s[r][3];
                }
                const auto offset = [&](int64_t row, int64_t px, int64_t block, int i) {
                    return (i / 2) * row + (ow + i % 2) * px + b * block + l;
                };
                const auto each = [&](auto&& f) {
                    for (int i = 0; i < 4; ++i)
                        if (i / 2 < g.rows && i % 2 < columns) f(0, i, y[i]);
                };
                if (g.res)
                    each([&](int, int i, V& r) {
                        r = r +
                            V::load_unaligned(g.res + offset(g.res_row, g.res_px, g.res_block, i));
                    });
                if (g.bias) {
                    const V bias = V::load_unaligned(g.bias + b * 16 + l);
                    each([&](int, int, V& r) { r = r + bias; });
                }
                apply_fused_activation<Arch>(e, each);
                each([&](int, int i, V& r) {
                    r.store_unaligned(g.dst + offset(g.dst_row, g.dst_px, g.dst_block, i));
                });
            }
        }
    }
}

}  // namespace tessera::cpu::simd
