// tessera/detail/checked_arith.hpp: the one place where extents, element counts, strides and
// byte sizes are multiplied and added: every result is checked against int64 overflow. Shapes,
// layouts, descriptors, tensors and the op descriptors all go through these helpers.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

namespace tessera::detail {

/// a * b, or nothing when it does not fit std::int64_t.
inline std::optional<std::int64_t> try_mul(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

/// a + b, or nothing when it does not fit std::int64_t.
inline std::optional<std::int64_t> try_add(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
    return r;
}

/// Product of extents counting zero and negative extents as 1 (the span a dense layout of the
/// extents needs, and a bound on the product of any subset), or nothing when it overflows.
template <typename Extents>
std::optional<std::int64_t> try_extent_product(const Extents& extents, int rank) {
    std::int64_t n = 1;
    for (int i = 0; i < rank; ++i) {
        const auto next = try_mul(n, extents[i] > 0 ? extents[i] : 1);
        if (!next) return std::nullopt;
        n = *next;
    }
    return n;
}

/// floor(x) as std::int64_t, or nothing when x is not finite or outside the int64 range.
inline std::optional<std::int64_t> try_floor_to_int64(double x) {
    if (!std::isfinite(x)) return std::nullopt;
    const double f = std::floor(x);
    // 2^63 is exactly representable; every double below it converts without overflow.
    if (f < -9223372036854775808.0 || f >= 9223372036854775808.0) return std::nullopt;
    return static_cast<std::int64_t>(f);
}

}  // namespace tessera::detail
