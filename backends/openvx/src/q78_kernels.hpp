// q78_kernels.hpp: the int16 SIMD kernels of the convolution and fully connected layers for
// fixed-point data whose per-product step can be done exactly in int16 lanes (see
// kernel_weighted_q78.cpp for when that holds), one table of kernels per instruction set
// (q78_arch_*.cpp, each compiled for its own instruction set from the one source q78_simd.hpp),
// and the choice of the best table the CPU supports.
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
    /// Output columns [first_col, last_col) computed, in whole tiles from column 0 of the row
    /// (with vertical skip 1 a row may span the whole output: then "columns" run on through the
    /// rows of the input, cols apart, and the columns past each row's end are discarded).
    std::size_t first_col, last_col;
    /// Products each int16 lane may sum before its exact range could be exceeded (>= 1).
    std::size_t flush_steps;
};

/// One fully connected layer's packed operands.
struct fc_args {
    /// Weights scaled by 2^(15 - shift): [ofm][inner], inner padded to whole vectors.
    const std::int16_t* weights;
    std::size_t inner;
    std::size_t flush_steps;
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

/// Exact sums of rounded products for output channels [block * block_o, +block_o) of output row
/// `oy`: sums[o][x - first_col] for x in [first_col, last_col).
using conv_row_fn = void (*)(const conv_args& args, std::size_t block, std::size_t oy,
                             std::int32_t* sums);
/// Exact sums of rounded products of `x` (inner elements, padded) with weight rows
/// [first, first + count): sums[i].
using fc_rows_fn = void (*)(const fc_args& args, const std::int16_t* x, std::size_t first,
                            std::size_t count, std::int32_t* sums);

struct kernel_table {
    const char* name;
    std::size_t lanes;       // int32 lanes of a vector (pixels per vector)
    std::size_t block_o;     // output channels per convolution block
    std::size_t tile_cols;   // output columns per convolution tile
    std::size_t inner_step;  // fully connected inner elements per vector
    conv_row_fn conv_row;
    fc_rows_fn fc_rows;
};

/// Tables of the instruction sets this build has (nullptr where the build lacks one).
const kernel_table* table_avx512();
const kernel_table* table_avx2();
const kernel_table* table_neon();

/// The best table the CPU supports, or nullptr.
const kernel_table* best_table();

}  // namespace openvx::q78
