// q78_tie_count_avx512.hpp: the convolution kernel of the AVX-512 table. Products are rounded
// half up in int16 lanes (conv_row of q78_simd.hpp without keys: one multiply and one add per 32
// products), then the products that rounding takes up to an odd value at a tie (which ties to
// even take down) are counted apart and subtracted. The count is bit-sliced: for 64 columns at
// once, one byte shuffle looks up, from the tie class of the input element and the tap's class
// table, which of the block's 8 output channels tie there (one bit per channel), and carry-save
// adders (Harley-Seal) sum those bits over the taps into bit planes, read back as counts once per
// 64 columns. Included only by q78_arch_avx512.cpp (compiled with -mavx512bw).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "q78_simd.hpp"

namespace openvx::q78 {
namespace {

constexpr std::size_t tie_block_o = 8;        // output channels per class table byte (its bits)
constexpr std::size_t tie_columns = 64;       // columns counted at once (bytes of a vector)
constexpr std::size_t tie_planes = 10;        // bit planes of a count: up to 1023
constexpr std::size_t tie_chunk_taps = 1008;  // taps per read-back (multiple of 16, < 2^planes)

/// Carry-save adder: high = majority, low = parity of a, b, c (bitwise).
inline void carry_save(__m512i& high, __m512i& low, __m512i a, __m512i b, __m512i c) {
    high = _mm512_ternarylogic_epi64(a, b, c, 0xE8);
    low = _mm512_ternarylogic_epi64(a, b, c, 0x96);
}

/// Adds the one-bit vector `bits` to the count held in planes From.. (weight 2^From).
template <std::size_t From>
inline void ripple_add(__m512i* plane, __m512i bits) {
#pragma GCC unroll 16
    for (std::size_t k = From; k < tie_planes; ++k) {
        const __m512i carry = _mm512_and_si512(plane[k], bits);
        plane[k] = _mm512_xor_si512(plane[k], bits);
        bits = carry;
    }
}

/// Byte i: bit o set when the input class at classes[i] equals output channel o's weight class
/// in `table` (16 bytes, indexed by class; tie_class_none has bit 7 set and gives 0).
__attribute__((always_inline)) inline __m512i tap_ties(const std::uint8_t* classes,
                                                       const std::uint8_t* table) {
    const __m512i lookup =
        _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(table)));
    return _mm512_shuffle_epi8(lookup, _mm512_loadu_si512(classes));
}

/// The plane that holds weight Taps / 2: log2(Taps) - 1.
constexpr std::size_t carry_plane(std::size_t taps) {
    return taps <= 2 ? 0 : 1 + carry_plane(taps / 2);
}

/// Harley-Seal over Taps taps (a power of two >= 2; offsets[0..Taps), tables + 16 * i): their
/// tie bits added into planes 0..log2(Taps) - 1; returns the carries of weight Taps. The two
/// halves are counted the same way, then their carries added into the plane of weight Taps / 2.
template <std::size_t Taps>
__attribute__((always_inline)) inline __m512i tap_carries(__m512i* plane,
                                                          const std::uint8_t* classes,
                                                          const std::size_t* offsets,
                                                          const std::uint8_t* tables) {
    constexpr std::size_t k = carry_plane(Taps);
    __m512i carries;
    if constexpr (Taps == 2) {
        carry_save(carries, plane[k], plane[k], tap_ties(classes + offsets[0], tables),
                   tap_ties(classes + offsets[1], tables + 16));
    } else {
        constexpr std::size_t half = Taps / 2;
        const __m512i first = tap_carries<half>(plane, classes, offsets, tables);
        const __m512i second =
            tap_carries<half>(plane, classes, offsets + half, tables + half * 16);
        carry_save(carries, plane[k], plane[k], first, second);
    }
    return carries;
}

/// Subtracts from sums[o * width + i], i < columns (<= 64), the ties of output channel o at
/// column i over the taps whose input offsets from `classes` are offsets[0..taps) and whose
/// class tables are tables + 16 * tap.
void subtract_ties(const std::uint8_t* classes, const std::size_t* offsets,
                   const std::uint8_t* tables, std::size_t taps, std::int32_t* sums,
                   std::size_t width, std::size_t columns) {
    for (std::size_t first = 0; first < taps; first += tie_chunk_taps) {
        const std::size_t last = first + tie_chunk_taps < taps ? first + tie_chunk_taps : taps;
        __m512i plane[tie_planes];
#pragma GCC unroll 16
        for (std::size_t k = 0; k < tie_planes; ++k) plane[k] = _mm512_setzero_si512();
        std::size_t t = first;
        // Harley-Seal: 32 taps into planes 0..4 and one carry of weight 32, rippled into the
        // planes above.
        for (; t + 32 <= last; t += 32)
            ripple_add<5>(plane, tap_carries<32>(plane, classes, offsets + t, tables + t * 16));
        if (t + 16 <= last) {
            ripple_add<4>(plane, tap_carries<16>(plane, classes, offsets + t, tables + t * 16));
            t += 16;
        }
        for (; t < last; ++t) ripple_add<0>(plane, tap_ties(classes + offsets[t], tables + t * 16));
        // Read back: the count of channel o is sum_k 2^k * (bit o of plane k), as int16 lanes
        // for columns 0..31 and 32..63, widened and subtracted 16 columns at a time.
        for (std::size_t o = 0; o < tie_block_o; ++o) {
            const __m512i bit = _mm512_set1_epi8(static_cast<char>(1u << o));
            __m512i low = _mm512_setzero_si512(), high = _mm512_setzero_si512();
#pragma GCC unroll 16
            for (std::size_t k = 0; k < tie_planes; ++k) {
                const __mmask64 m = _mm512_test_epi8_mask(plane[k], bit);
                const __m512i weight = _mm512_set1_epi16(static_cast<short>(1u << k));
                low = _mm512_mask_add_epi16(low, static_cast<__mmask32>(m), low, weight);
                high = _mm512_mask_add_epi16(high, static_cast<__mmask32>(m >> 32), high, weight);
            }
            const __m512i counts[4] = {_mm512_cvtepi16_epi32(_mm512_castsi512_si256(low)),
                                       _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(low, 1)),
                                       _mm512_cvtepi16_epi32(_mm512_castsi512_si256(high)),
                                       _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(high, 1))};
            std::int32_t* row = sums + o * width;
            for (std::size_t q = 0; q < 4 && q * 16 < columns; ++q) {
                const std::size_t n = columns - q * 16;
                const auto m = static_cast<__mmask16>(n >= 16 ? 0xffffu : (1u << n) - 1u);
                const __m512i v = _mm512_maskz_loadu_epi32(m, row + q * 16);
                _mm512_mask_storeu_epi32(row + q * 16, m, _mm512_sub_epi32(v, counts[q]));
            }
        }
    }
}

/// acc += v in int16 lanes, in acc's register (GCC otherwise renames the accumulators of the
/// loop below through register copies on every iteration).
inline void add_in_place(__m512i& acc, __m512i v) {
    asm("vpaddw %1, %0, %0" : "+v"(acc) : "v"(v));
}

/// The sums of one tile of 8 output channels x P vectors (16 columns each) of products rounded
/// half up (pmulhrsw), summed in int16 lanes for flush_steps steps, then pairwise into
/// sums[o * width + c], c < 16 P (stored by the first flush, added to by the others).
template <std::size_t P>
void conv_tile_half_up(const std::int16_t* input, const std::size_t* offsets, std::size_t steps,
                       const std::int16_t* weights, std::size_t flush_steps, std::int32_t* sums,
                       std::size_t width) {
    const __m512i ones = _mm512_set1_epi16(1);
    for (std::size_t first = 0; first < steps; first += flush_steps) {
        const std::size_t last = first + flush_steps < steps ? first + flush_steps : steps;
        __m512i acc[tie_block_o][P];
#pragma GCC unroll 32
        for (std::size_t o = 0; o < tie_block_o; ++o)
#pragma GCC unroll 32
            for (std::size_t p = 0; p < P; ++p) acc[o][p] = _mm512_setzero_si512();
        for (std::size_t step = first; step < last; ++step) {
            const std::int16_t* at = input + offsets[step];
            const std::int16_t* taps = weights + step * tie_block_o * 2;
            __m512i x[P];
#pragma GCC unroll 32
            for (std::size_t p = 0; p < P; ++p) x[p] = _mm512_loadu_si512(at + p * 32);
#pragma GCC unroll 32
            for (std::size_t o = 0; o < tie_block_o; ++o) {
                std::int32_t pair;
                __builtin_memcpy(&pair, taps + o * 2, sizeof pair);
                const __m512i w = _mm512_set1_epi32(pair);
#pragma GCC unroll 32
                for (std::size_t p = 0; p < P; ++p)
                    add_in_place(acc[o][p], _mm512_mulhrs_epi16(x[p], w));
            }
        }
#pragma GCC unroll 32
        for (std::size_t o = 0; o < tie_block_o; ++o)
#pragma GCC unroll 32
            for (std::size_t p = 0; p < P; ++p) {
                std::int32_t* sum = sums + o * width + p * 16;
                __m512i v = _mm512_madd_epi16(acc[o][p], ones);
                if (first != 0) v = _mm512_add_epi32(v, _mm512_loadu_si512(sum));
                _mm512_storeu_si512(sum, v);
            }
    }
}

/// The half-up sums of output channels [block * 8, +8) for the columns [first_col, last_col) of
/// span row oy: sums[o * width + x - first_col] (width = last_col - first_col, whole tiles).
template <std::size_t P>
void conv_row_half_up(const conv_args& a, std::size_t block, std::size_t oy, std::int32_t* sums) {
    constexpr std::size_t tile = 16 * P;
    const std::size_t steps = a.pairs * a.kernel_y * a.kernel_x;
    const std::size_t row = oy * a.skip_y * a.cols;
    const std::int16_t* block_weights = a.weights + block * steps * tie_block_o * 2;
    const std::size_t width = a.last_col - a.first_col;
    for (std::size_t x0 = a.first_col; x0 < a.last_col; x0 += tile)
        conv_tile_half_up<P>(a.input + (row + x0) * 2, a.pair_offsets, steps, block_weights,
                             a.flush_steps, sums + (x0 - a.first_col), width);
}

/// The lowest set bit 2^a of a 16-bit value times this, modulo 2^16, shifted right by 11, is a
/// distinct nonzero 5-bit index for each a in 0..15 (0 for the value 0).
constexpr std::uint16_t lowest_bit_multiplier = 0x08CF;

/// For shift 1..8, the tie classes by that index: even[i] = 2a (a < shift) and odd[i] = 2a + 1
/// for the index i of 2^a; tie_class_none elsewhere (a >= shift, the value 0, unused indexes).
struct tie_class_tables {
    std::int16_t even[8][32], odd[8][32];
};
constexpr tie_class_tables make_tie_class_tables() {
    tie_class_tables t{};
    for (int shift = 1; shift <= 8; ++shift)
        for (int i = 0; i < 32; ++i) {
            t.even[shift - 1][i] = tie_class_none;
            t.odd[shift - 1][i] = tie_class_none;
        }
    for (int shift = 1; shift <= 8; ++shift)
        for (int a = 0; a < shift; ++a) {
            const int i = ((lowest_bit_multiplier << a) & 0xffff) >> 11;
            t.even[shift - 1][i] = static_cast<std::int16_t>(2 * a);
            t.odd[shift - 1][i] = static_cast<std::int16_t>(2 * a + 1);
        }
    return t;
}
constexpr tie_class_tables tie_class_by_lowest_bit = make_tie_class_tables();

/// tie_classes of the AVX-512 table (shift 1..8): tie_class_input 32 values at a time, the last
/// ones masked. With x = 2^a * odd, the lowest set bit 2^a = x & -x picks the class pair of a
/// by its index (lowest_bit_multiplier), and bit a + 1 of x (bit 1 of odd) picks odd over even.
void tie_classes_avx512(const std::int16_t* values, std::size_t count, int shift,
                        std::uint8_t* classes) {
    const __m512i even = _mm512_loadu_si512(tie_class_by_lowest_bit.even[shift - 1]);
    const __m512i odd = _mm512_loadu_si512(tie_class_by_lowest_bit.odd[shift - 1]);
    const __m512i multiplier = _mm512_set1_epi16(static_cast<short>(lowest_bit_multiplier));
    for (std::size_t i = 0; i < count; i += 32) {
        const std::size_t n = count - i < 32 ? count - i : 32;
        const auto in = static_cast<__mmask32>(n == 32 ? 0xffffffffu : (1u << n) - 1u);
        const __m512i x = _mm512_maskz_loadu_epi16(in, values + i);
        const __m512i lowest = _mm512_and_si512(x, _mm512_sub_epi16(_mm512_setzero_si512(), x));
        const __m512i index = _mm512_srli_epi16(_mm512_mullo_epi16(lowest, multiplier), 11);
        const __mmask32 next = _mm512_test_epi16_mask(_mm512_srli_epi16(x, 1), lowest);
        const __m512i cls =
            _mm512_mask_permutexvar_epi16(_mm512_permutexvar_epi16(index, even), next, index, odd);
        _mm256_mask_storeu_epi8(classes + i, in, _mm512_cvtepi16_epi8(cls));
    }
}

/// conv_row_fn of the AVX-512 table: sums of products rounded half up, less the ties counted
/// from the tie classes (a.input_classes, a.weight_classes; shift <= 8, block_o 8).
template <std::size_t P>
void conv_row_tie_classes(const conv_args& a, std::size_t block, std::size_t oy,
                          std::int32_t* sums) {
    if (a.to_zero) {  // no ties to count: the tie-key kernel's tile rounding toward zero
        conv_row<xsimd::avx512bw, tie_block_o, P,
                 &conv_tile<xsimd::avx512bw, tie_block_o, P, true>>(a, block, oy, sums);
        return;
    }
    conv_row_half_up<P>(a, block, oy, sums);
    const std::size_t taps = a.channels * a.kernel_y * a.kernel_x;
    const std::uint8_t* classes = a.input_classes + oy * a.skip_y * a.cols;
    const std::uint8_t* tables = a.weight_classes + block * taps * 16;
    const std::size_t width = a.last_col - a.first_col;
    for (std::size_t x0 = a.first_col; x0 < a.last_col; x0 += tie_columns) {
        const std::size_t n = a.last_col - x0 < tie_columns ? a.last_col - x0 : tie_columns;
        subtract_ties(classes + x0, a.tap_offsets, tables, taps, sums + (x0 - a.first_col), width,
                      n);
    }
}

}  // namespace
}  // namespace openvx::q78
