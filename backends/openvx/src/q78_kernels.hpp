// q78_kernels.hpp: the int16 SIMD kernels of the convolution and fully connected layers for
// fixed-point data whose per-product step can be done exactly in int16 lanes (see
// kernel_weighted_q78.cpp for when that holds) and the int16 row kernels of pooling and the
// element-wise nodes (kernel_rows_simd.cpp), one table of kernels per instruction set
// (q78_arch_*.cpp, each compiled for its own instruction set from the one source q78_simd.hpp
// with tensor_rows_simd.hpp), and the choice of the best table the CPU supports.
//
// Rounding to nearest with ties to even is rounding half up minus one for each product that is a
// tie half up takes to an odd value. A convolution kernel either tests every product for such a
// tie (tie keys, below) or sums the products rounded half up and counts the ties in a separate,
// bit-sliced pass (tie classes, below; q78_tie_count_avx512.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace openvx::q78 {

/// One convolution layer's packed operands (one batch item of the input).
struct conv_args {
    /// Input, zero-padded, channel pairs interleaved: [pairs][rows][cols][2], and the tie key of
    /// each element in the same layout (tie_key_input).
    const std::int16_t* input;
    const std::int16_t* input_keys;
    std::size_t rows, cols;
    /// Weights scaled by 2^(15 - shift): [ofm blocks][pairs][ky][kx][block_o][2], and their tie
    /// keys (tie_key_weight) in the same layout.
    const std::int16_t* weights;
    const std::int16_t* weight_keys;
    std::size_t pairs, kernel_x, kernel_y, skip_y;
    /// Horizontal skip s: each padded input row holds s phases of phase_cols columns (column X
    /// at X mod s, X / s; cols = s * phase_cols), so output columns read consecutive elements.
    std::size_t skip_x, phase_cols;
    /// Products rounded toward zero (no tie keys or classes read) instead of to nearest even.
    bool to_zero;
    /// Offsets from an output row's first input element (input_offset, row 0) of each step
    /// (channel pair, ky, kx) in the pair layout (x 2), and of each tap (channel, ky, kx) in the
    /// tie class layout.
    const std::size_t* pair_offsets;
    const std::size_t* tap_offsets;
    /// Output columns [first_col, last_col) computed, in whole tiles from column 0 of the row
    /// (with vertical skip 1 a row may span the whole output: then "columns" run on through the
    /// rows of the input, cols apart, and the columns past each row's end are discarded).
    std::size_t first_col, last_col;
    /// Products each int16 lane may sum before its exact range could be exceeded (>= 1).
    std::size_t flush_steps;
    /// Tables that count ties by class (kernel_table::tie_class_max_shift > 0): the tie class of
    /// each input element [channels][rows][cols] (tie_class_input; borders tie_class_none), and
    /// per block of output channels and tap [blocks][channels][ky][kx] 16 bytes: byte j has bit
    /// o set when output channel block * block_o + o has weight tie class j at that tap.
    const std::uint8_t* input_classes;
    const std::uint8_t* weight_classes;
    std::size_t channels;
};

/// The position, in elements of one channel (pair) plane [rows][cols], that tap (ky, kx) of
/// output column 0 of output row 0 reads (row oy: oy * skip_y * cols further): with horizontal
/// skip s a padded row holds s phases of phase_cols columns (column X at phase X mod s, position
/// X / s), so that consecutive output columns read consecutive positions.
inline std::size_t input_offset(const conv_args& a, std::size_t channel, std::size_t ky,
                                std::size_t kx) {
    return (channel * a.rows + ky) * a.cols + kx % a.skip_x * a.phase_cols + kx / a.skip_x;
}

/// One fully connected layer's packed operands.
struct fc_args {
    /// Weights scaled by 2^(15 - shift): [ofm][inner], inner padded to whole vectors.
    const std::int16_t* weights;
    std::size_t inner;
    std::size_t flush_steps;
    /// Products rounded toward zero instead of to nearest even.
    bool to_zero;
};

/// Tie keys: the product x * w rounded to nearest by 2^shift is a tie that rounding half up takes
/// to an odd value (p mod 2^(shift+1) == 2^(shift-1)) exactly when tie_key_input(x) ==
/// tie_key_weight(w, shift). With x = 2^a * odd_x and w = 2^b * odd_w that is a + b == shift - 1
/// and odd_x * odd_w == 1 (mod 4), i.e. odd_x == odd_w (mod 4); both keys are 2^k * (1 or 3).
inline std::int16_t tie_key_input(std::int16_t x) {
    const auto u = static_cast<std::uint16_t>(x);
    const auto lowest = static_cast<std::uint16_t>(u & (0u - u));
    return static_cast<std::int16_t>(u & static_cast<std::uint16_t>(lowest * 3u));
}
inline std::int16_t tie_key_weight(std::int16_t w, int shift) {
    const auto u = static_cast<std::uint16_t>(w);
    if (u == 0) return -1;  // no input key is 0xffff
    int b = 0;
    while (((u >> b) & 1u) == 0) ++b;
    if (b > shift - 1) return -1;
    const unsigned odd_bit = (u >> (b + 1)) & 1u;
    return static_cast<std::int16_t>((1u << (shift - 1 - b)) * (1u + 2u * odd_bit));
}

/// Tie classes: the same test as an index below 16 (shift <= 8): with x = 2^a * odd_x, class
/// 2a + bit 1 of odd_x when a < shift, else none; with w = 2^b * odd_w, class
/// 2(shift - 1 - b) + bit 1 of odd_w when b < shift, else none. The tie test is class equality
/// (key equality above); none matches nothing (0x80 makes a byte shuffle give 0).
constexpr std::uint8_t tie_class_none = 0x80;
inline std::uint8_t tie_class_input(std::int16_t x, int shift) {
    const auto u = static_cast<std::uint32_t>(static_cast<std::uint16_t>(x));
    const int a = __builtin_ctz(u | 0x10000u);  // 16 for x == 0
    if (a > shift - 1) return tie_class_none;
    return static_cast<std::uint8_t>(2 * a + ((u >> (a + 1)) & 1u));
}
inline std::uint8_t tie_class_weight(std::int16_t w, int shift) {
    const auto u = static_cast<std::uint16_t>(w);
    if (u == 0) return tie_class_none;
    int b = 0;
    while (((u >> b) & 1u) == 0) ++b;
    if (b > shift - 1) return tie_class_none;
    return static_cast<std::uint8_t>(2 * (shift - 1 - b) + ((u >> (b + 1)) & 1u));
}

/// Exact sums of rounded products for output channels [block * block_o, +block_o) of output row
/// `oy`: sums[o][x - first_col] for x in [first_col, last_col).
using conv_row_fn = void (*)(const conv_args& args, std::size_t block, std::size_t oy,
                             std::int32_t* sums);
/// Exact sums of rounded products of `x` (inner elements, padded) with weight rows
/// [first, first + count): sums[i].
using fc_rows_fn = void (*)(const fc_args& args, const std::int16_t* x, std::size_t first,
                            std::size_t count, std::int32_t* sums);

/// The int16 row kernels of the pooling layer and the element-wise tensor nodes
/// (tensor_rows_simd.hpp). A step of 0 repeats an operand's first value (broadcasting), 1 reads
/// consecutive values.
struct row_kernels {
    /// out[i] = a[i a_step] + b[i b_step] (or -), wrapped or saturated to int16.
    void (*add)(const std::int16_t* a, std::size_t a_step, const std::int16_t* b,
                std::size_t b_step, std::size_t count, bool subtract, bool saturate,
                std::int16_t* out);
    /// out[i] = round(a[i a_step] * b[i b_step] / 2^shift) (shift 0..30; toward zero or to
    /// nearest even), wrapped or saturated to int16.
    void (*multiply)(const std::int16_t* a, std::size_t a_step, const std::int16_t* b,
                     std::size_t b_step, std::size_t count, int shift, bool to_zero, bool saturate,
                     std::int16_t* out);
    /// out[i] = round(a[i a_step] * b[i b_step] * mantissa / 2^shift) (|mantissa| < 2^24, shift
    /// 0..62; toward zero or to nearest even), wrapped or saturated to int16.
    void (*multiply_scaled)(const std::int16_t* a, std::size_t a_step, const std::int16_t* b,
                            std::size_t b_step, std::size_t count, std::int32_t mantissa, int shift,
                            bool to_zero, bool saturate, std::int16_t* out);
    /// out[x] = max over r < n_rows of rows[r][x], for x < count.
    void (*max_rows)(const std::int16_t* const* rows, std::size_t n_rows, std::size_t count,
                     std::int16_t* out);
    /// out[x] = max over j < k of v[x + j], for x < count.
    void (*max_window)(const std::int16_t* v, std::size_t k, std::size_t count, std::int16_t* out);
    /// out[x] = sum over r < n_rows of rows[r][x] (int32), for x < count.
    void (*sum_rows)(const std::int16_t* const* rows, std::size_t n_rows, std::size_t count,
                     std::int32_t* out);
    /// out[x] = sum over j < k of v[x + j], for x < count.
    void (*sum_window)(const std::int32_t* v, std::size_t k, std::size_t count, std::int32_t* out);
    /// out[i] = v[2 i], for i < count (v holds 2 count elements; out does not overlap v).
    void (*pick_even)(const std::int16_t* v, std::size_t count, std::int16_t* out);
};

struct kernel_table {
    const char* name;
    std::size_t lanes;       // int32 lanes of a vector (pixels per vector)
    std::size_t block_o;     // output channels per convolution block
    std::size_t tile_cols;   // output columns per convolution tile
    std::size_t inner_step;  // fully connected inner elements per vector
    /// 0: conv_row reads tie keys; else it reads tie classes, for shifts up to this (block_o is
    /// then 8, one bit of a class table byte per output channel).
    int tie_class_max_shift;
    /// With tie classes: classes[i] = tie_class_input(values[i], shift) for i < count.
    void (*tie_classes)(const std::int16_t* values, std::size_t count, int shift,
                        std::uint8_t* classes);
    conv_row_fn conv_row;
    fc_rows_fn fc_rows;
    /// Optional (nullptr: the caller's plain loops): interleaved[2 x] = values[x] for x < copy,
    /// returning the largest |values[x]| for x < count; and out[x] = sums[x] + bias narrowed to
    /// int16 (saturate or wrap) for x < count.
    std::int32_t (*pack_row)(const std::int16_t* values, std::size_t count, std::size_t copy,
                             std::int16_t* interleaved);
    void (*narrow_row)(const std::int32_t* sums, std::int32_t bias, bool saturate,
                       std::size_t count, std::int16_t* out);
    /// Pooling and element-wise rows.
    row_kernels rows;
};

/// Tables of the instruction sets this build has (nullptr where the build lacks one).
const kernel_table* table_avx512();
const kernel_table* table_avx2();
const kernel_table* table_neon();

/// The best table the CPU supports, or nullptr.
const kernel_table* best_table();

/// The best table whose convolution handles `shift` (best_table() or a narrower one), or nullptr.
const kernel_table* best_conv_table(int shift);

}  // namespace openvx::q78
