// ops/products_in_double.hpp: the matrix products of matmul and gemm on the plugin's own loops in
// double, for the forms the runtime's f32 Gemm does not cover: values loaded as the reference
// sees them (real_lines.hpp), each output summed from 0.0 in order of k, the reference's order,
// and stored with the reference's roundings, so the results equal the reference's bit for bit.
#pragma once

#include <algorithm>
#include <cstdint>

#include <tessera/reference/execute.hpp>

#include "../real_lines.hpp"

namespace tessera::plugins::cpu {

/// Loads the matrix at element `first` of the tensor at `base` upright as [k, n] doubles into
/// `out`: stored [k, n], or [n, k] when `transposed`.
inline void load_upright(const element_run& e, const void* base, std::int64_t first, std::int64_t k,
                         std::int64_t n, bool transposed, double* out) {
    for (std::int64_t r = 0; r < k; ++r)
        load_reals(e, base, first + (transposed ? r : r * n), n, transposed ? k : 1, out + r * n);
}

/// row[j] = 0.0 + a(0) b[0][j] + a(1) b[1][j] + ... for j < n, with `b` upright [k, n] and
/// a(kk) the row's entry of A at kk.
template <typename RowOfA>
void product_row(RowOfA a, const double* b, std::int64_t k, std::int64_t n, double* row) {
    std::fill(row, row + n, 0.0);
    for (std::int64_t kk = 0; kk < k; ++kk) {
        const double av = a(kk);
        const double* b_row = b + kk * n;
        for (std::int64_t j = 0; j < n; ++j) row[j] += av * b_row[j];
    }
}

/// Stores `count` output values from `row` (which it may change) at elements first, first + 1, ...
/// as the reference does: outputs of the 16-bit float formats are computed in f32 there
/// (reference::compute_type), so the values round to f32 before they round to the format.
inline void store_products(const element_run& e, void* base, std::int64_t first, std::int64_t count,
                           double* row) {
    if (reference::compute_type(e.type) == dtype::f32 && e.type != dtype::f32)
        for (std::int64_t i = 0; i < count; ++i) row[i] = static_cast<float>(row[i]);
    store_reals(e, base, first, count, 1, row);
}

}  // namespace tessera::plugins::cpu
