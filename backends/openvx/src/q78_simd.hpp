// q78_simd.hpp: the int16 SIMD kernels behind q78_kernels.hpp, written once over xsimd batches
// and instantiated by each q78_arch_*.cpp for its instruction set. Included only by those files;
// everything here has internal linkage, so no instruction-set-specific code is shared between
// them.
//
// The exact per-product step for a fixed-point product p = x * w rescaled by `shift` (1..15) with
// rounding to nearest, ties to even, when |w| < 2^shift (then |round(p / 2^shift)| <= 32767, so
// neither overflow policy changes it): with w' = w * 2^(15 - shift) (an int16),
//   h = (x * w' + 2^14) >> 15          the product rounded half up (pmulhrsw / vqrdmulh),
//   l = (x * w') mod 2^16              = (p mod 2^(shift+1)) * 2^(15 - shift),
// and the tie that half up takes to an odd value, which ties-to-even takes down, is exactly
// l == 0x4000; the rounded product is h - (l == 0x4000) (rounding toward zero: h, corrected
// from the same l, add_truncated_product). Rounded products are summed in int16
// lanes for as many steps as their bound allows (flush_steps), then adjacent lane pairs (two input
// channels of one pixel, or two inner elements) are summed into int32 lanes: all sums are exact
// integers, so their order does not matter.
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdint>

#include "q78_kernels.hpp"
#include "tensor_rows_simd.hpp"

#if defined(__AVX512BW__) || defined(__AVX2__)
#include <immintrin.h>
#endif
#if defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace openvx::q78 {
namespace {

// The two operations xsimd has no batch function for.
#if defined(__AVX512BW__)
using avx512_i16 = xsimd::batch<std::int16_t, xsimd::avx512bw>;
using avx512_i32 = xsimd::batch<std::int32_t, xsimd::avx512bw>;
/// (a * b + 2^14) >> 15 per lane.
inline avx512_i16 mul_round_high(const avx512_i16& a, const avx512_i16& b) {
    return _mm512_mulhrs_epi16(a, b);
}
/// Sums of adjacent int16 lane pairs as int32 lanes.
inline avx512_i32 pair_sum(const avx512_i16& v) {
    return _mm512_madd_epi16(v, _mm512_set1_epi16(1));
}
#endif
#if defined(__AVX2__)
using avx2_i16 = xsimd::batch<std::int16_t, xsimd::avx2>;
using avx2_i32 = xsimd::batch<std::int32_t, xsimd::avx2>;
inline avx2_i16 mul_round_high(const avx2_i16& a, const avx2_i16& b) {
    return _mm256_mulhrs_epi16(a, b);
}
inline avx2_i32 pair_sum(const avx2_i16& v) {
    return _mm256_madd_epi16(v, _mm256_set1_epi16(1));
}
#endif
#if defined(__ARM_NEON) && defined(__aarch64__)
using neon_i16 = xsimd::batch<std::int16_t, xsimd::neon64>;
using neon_i32 = xsimd::batch<std::int32_t, xsimd::neon64>;
// vqrdmulh saturates only for -32768 * -32768, which |w| < 2^shift rules out.
inline neon_i16 mul_round_high(const neon_i16& a, const neon_i16& b) {
    return vqrdmulhq_s16(a, b);
}
inline neon_i32 pair_sum(const neon_i16& v) {
    return vpaddlq_s16(v);
}
#endif

/// Adds one exactly rounded product per lane to `acc` (int16 lanes, modulo 2^16).
template <class B>
inline B add_rounded_product(const B& acc, const B& x, const B& w) {
    const B h = mul_round_high(x, w);
    return acc + xsimd::select(x * w == B(std::int16_t{0x4000}), h - B(std::int16_t{1}), h);
}

/// Adds one product rounded toward zero per lane to `acc` (int16 lanes, modulo 2^16), for the
/// same operands (|w| < 2^shift, w' = w * 2^(15 - shift)). With p = q 2^shift + r, 0 <= r <
/// 2^shift: h = q + (r >= 2^(shift-1)), and the low 15 bits of l = x * w' mod 2^16 are
/// r 2^(15 - shift), so bit 14 of l is (r >= 2^(shift-1)) and l << 1 is nonzero exactly when
/// r != 0. floor(p / 2^shift) = q = h - bit 14 of l; toward zero adds 1 when p < 0 and r != 0,
/// and p < 0 is then the sign of x ^ w' (r != 0 implies x, w != 0; w' has the sign of w).
template <class B>
inline B add_truncated_product(const B& acc, const B& x, const B& w) {
    const B h = mul_round_high(x, w);
    const B l = x * w;
    const B floor_q = h - ((l >> 14) & B(std::int16_t{1}));
    const auto up = ((x ^ w) < B(std::int16_t{0})) & ((l << 1) != B(std::int16_t{0}));
    return acc + xsimd::select(up, floor_q + B(std::int16_t{1}), floor_q);
}

/// The same with the tie found from the operands' tie keys (one multiplication fewer).
template <class B>
inline B add_rounded_product_keyed(const B& acc, const B& x, const B& w, const B& x_key,
                                   const B& w_key) {
    const B h = mul_round_high(x, w);
    return acc + xsimd::select(x_key == w_key, h - B(std::int16_t{1}), h);
}

/// The sums of one convolution tile: O output channels x P vectors of columns, over the steps
/// (channel pair, kernel row, kernel column) whose input offsets are `offsets`; the weights of
/// step i are at weights + i * O * 2. int16 sums are flushed to `wide` every flush_steps steps.
template <class Arch, std::size_t O, std::size_t P, bool ToZero = false>
void conv_tile(const std::int16_t* input, const std::int16_t* input_keys,
               const std::size_t* offsets, std::size_t steps, const std::int16_t* weights,
               const std::int16_t* weight_keys, std::size_t flush_steps, std::int32_t* wide) {
    using i16 = xsimd::batch<std::int16_t, Arch>;
    using i32 = xsimd::batch<std::int32_t, Arch>;
    constexpr std::size_t lanes = i32::size;
    for (std::size_t first = 0; first < steps; first += flush_steps) {
        const std::size_t last = first + flush_steps < steps ? first + flush_steps : steps;
        i16 acc[O][P];
#pragma GCC unroll 16
        for (std::size_t o = 0; o < O; ++o)
#pragma GCC unroll 16
            for (std::size_t p = 0; p < P; ++p) acc[o][p] = i16(0);
        for (std::size_t step = first; step < last; ++step) {
            const std::int16_t* at = input + offsets[step];
            const std::int16_t* taps = weights + step * O * 2;
            i16 x[P], x_key[P];
#pragma GCC unroll 16
            for (std::size_t p = 0; p < P; ++p) {
                x[p] = i16::load_unaligned(at + p * lanes * 2);
                if (!ToZero)
                    x_key[p] = i16::load_unaligned(input_keys + offsets[step] + p * lanes * 2);
            }
#pragma GCC unroll 16
            for (std::size_t o = 0; o < O; ++o) {
                std::int32_t pair;
                __builtin_memcpy(&pair, taps + o * 2, sizeof pair);
                const i16 w = xsimd::bitwise_cast<i16>(i32(pair));
                if (ToZero) {
#pragma GCC unroll 16
                    for (std::size_t p = 0; p < P; ++p)
                        acc[o][p] = add_truncated_product(acc[o][p], x[p], w);
                    continue;
                }
                std::int32_t key_pair;
                __builtin_memcpy(&key_pair, weight_keys + (step * O + o) * 2, sizeof key_pair);
                const i16 w_key = xsimd::bitwise_cast<i16>(i32(key_pair));
#pragma GCC unroll 16
                for (std::size_t p = 0; p < P; ++p)
                    acc[o][p] = add_rounded_product_keyed(acc[o][p], x[p], w, x_key[p], w_key);
            }
        }
#pragma GCC unroll 16
        for (std::size_t o = 0; o < O; ++o)
#pragma GCC unroll 16
            for (std::size_t p = 0; p < P; ++p) {
                std::int32_t* sum = wide + (o * P + p) * lanes;
                (i32::load_aligned(sum) + pair_sum(acc[o][p])).store_aligned(sum);
            }
    }
}

/// The signature of conv_tile (another instruction set's header may bring its own tile).
using conv_tile_fn = void (*)(const std::int16_t* input, const std::int16_t* input_keys,
                              const std::size_t* offsets, std::size_t steps,
                              const std::int16_t* weights, const std::int16_t* weight_keys,
                              std::size_t flush_steps, std::int32_t* wide);

/// conv_row_fn: tiles of P vectors of output columns, O output channels per block, each tile's
/// sums from Tile.
template <class Arch, std::size_t O, std::size_t P, conv_tile_fn Tile = &conv_tile<Arch, O, P>>
void conv_row(const conv_args& a, std::size_t block, std::size_t oy, std::int32_t* sums) {
    using i32 = xsimd::batch<std::int32_t, Arch>;
    constexpr std::size_t lanes = i32::size;
    constexpr std::size_t tile = lanes * P;
    const std::size_t steps = a.pairs * a.kernel_y * a.kernel_x;
    // The row's first element (the steps' offsets are from there).
    const std::size_t row = oy * a.skip_y * a.cols;
    const std::int16_t* block_weights = a.weights + block * steps * O * 2;
    const std::int16_t* block_keys =
        a.weight_keys ? a.weight_keys + block * steps * O * 2 : nullptr;
    const std::size_t width = a.last_col - a.first_col;
    for (std::size_t x0 = a.first_col; x0 < a.last_col; x0 += tile) {
        alignas(64) std::int32_t wide[O * P * lanes];
        for (std::size_t i = 0; i < O * P * lanes; ++i) wide[i] = 0;
        Tile(a.input + (row + x0) * 2, a.input_keys ? a.input_keys + (row + x0) * 2 : nullptr,
             a.pair_offsets, steps, block_weights, block_keys, a.flush_steps, wide);
        for (std::size_t o = 0; o < O; ++o)
            for (std::size_t p = 0; p < P; ++p)
                i32::load_aligned(wide + (o * P + p) * lanes)
                    .store_unaligned(sums + o * width + (x0 - a.first_col) + p * lanes);
    }
}

/// conv_row_fn of the tie-key tables: conv_row with the tile of the node's rounding.
template <class Arch, std::size_t O, std::size_t P>
void conv_row_rounded(const conv_args& a, std::size_t block, std::size_t oy, std::int32_t* sums) {
    if (a.to_zero) {
        conv_row<Arch, O, P, &conv_tile<Arch, O, P, true>>(a, block, oy, sums);
    } else {
        conv_row<Arch, O, P>(a, block, oy, sums);
    }
}

/// The sum of an int32 batch's lanes modulo 2^32 (with the wrapping policy the sums may pass
/// the int32 range, which only their value modulo 2^16 needs to survive).
template <class B>
inline std::int32_t wrapping_sum(const B& v) {
    alignas(64) std::int32_t lanes[B::size];
    v.store_aligned(lanes);
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < B::size; ++i) sum += static_cast<std::uint32_t>(lanes[i]);
    return static_cast<std::int32_t>(sum);
}

/// Fully connected: R weight rows against one input vector.
template <class Arch, std::size_t R, bool ToZero>
void fc_block(const fc_args& a, const std::int16_t* x, const std::int16_t* weights,
              std::int32_t* sums) {
    using i16 = xsimd::batch<std::int16_t, Arch>;
    using i32 = xsimd::batch<std::int32_t, Arch>;
    i32 wide[R];
    i16 acc[R];
    for (std::size_t r = 0; r < R; ++r) {
        wide[r] = i32(0);
        acc[r] = i16(0);
    }
    std::size_t steps = 0;
    for (std::size_t k = 0; k < a.inner; k += i16::size) {
        const i16 xv = i16::load_unaligned(x + k);
        for (std::size_t r = 0; r < R; ++r) {
            const i16 wv = i16::load_unaligned(weights + r * a.inner + k);
            acc[r] = ToZero ? add_truncated_product(acc[r], xv, wv)
                            : add_rounded_product(acc[r], xv, wv);
        }
        if (++steps == a.flush_steps) {
            steps = 0;
            for (std::size_t r = 0; r < R; ++r) {
                wide[r] += pair_sum(acc[r]);
                acc[r] = i16(0);
            }
        }
    }
    for (std::size_t r = 0; r < R; ++r) {
        wide[r] += pair_sum(acc[r]);
        sums[r] = wrapping_sum(wide[r]);
    }
}

/// fc_rows_fn: blocks of R rows, then single rows.
template <class Arch, std::size_t R, bool ToZero>
void fc_rows_rounded(const fc_args& a, const std::int16_t* x, std::size_t first, std::size_t count,
                     std::int32_t* sums) {
    std::size_t r = 0;
    for (; r + R <= count; r += R)
        fc_block<Arch, R, ToZero>(a, x, a.weights + (first + r) * a.inner, sums + r);
    for (; r < count; ++r)
        fc_block<Arch, 1, ToZero>(a, x, a.weights + (first + r) * a.inner, sums + r);
}

template <class Arch, std::size_t R>
void fc_rows(const fc_args& a, const std::int16_t* x, std::size_t first, std::size_t count,
             std::int32_t* sums) {
    if (a.to_zero) {
        fc_rows_rounded<Arch, R, true>(a, x, first, count, sums);
    } else {
        fc_rows_rounded<Arch, R, false>(a, x, first, count, sums);
    }
}

/// The table of one instruction set.
template <class Arch, std::size_t O, std::size_t P, std::size_t R>
kernel_table make_table(const char* name) {
    using i16 = xsimd::batch<std::int16_t, Arch>;
    using i32 = xsimd::batch<std::int32_t, Arch>;
    return kernel_table{name,
                        i32::size,
                        O,
                        i32::size * P,
                        i16::size,
                        0,
                        nullptr,
                        &conv_row_rounded<Arch, O, P>,
                        &fc_rows<Arch, R>,
                        nullptr,
                        nullptr,
                        make_row_kernels<Arch>()};
}

}  // namespace
}  // namespace openvx::q78
