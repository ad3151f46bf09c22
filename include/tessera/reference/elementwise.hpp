// tessera/reference/elementwise.hpp: reference kernels of op::binary and op::unary (int64 and
// uint64 arithmetic in integers, other dtypes in extended precision).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "tessera/ops/elementwise.hpp"
#include "tessera/reference/element_access.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

/// (a op b) in extended precision; `integer` selects integer division by zero = 0.
inline long double binary_apply(binary_kind op, long double a, long double b, bool integer) {
    const long double nan = std::numeric_limits<long double>::quiet_NaN();
    switch (op) {
        case binary_kind::add:
            return a + b;
        case binary_kind::sub:
            return a - b;
        case binary_kind::mul:
            return a * b;
        case binary_kind::min:
            return std::isnan(a) || std::isnan(b) ? nan : (b < a ? b : a);
        case binary_kind::max:
            return std::isnan(a) || std::isnan(b) ? nan : (b > a ? b : a);
        case binary_kind::div:
            return integer && b == 0 ? 0.0L : a / b;
        case binary_kind::pow:
            return std::pow(a, b);
        default:
            return nan;
    }
}

/// (a op b) on int64 values in integers (exact where a long double would round: quotients near
/// 2^63, products that overflow), with the op's rounding and overflow policies; nullopt for ops
/// the extended-precision path computes (pow).
inline std::optional<std::int64_t> binary_int64(binary_kind op, std::int64_t a, std::int64_t b,
                                                rounding_policy rounding,
                                                overflow_policy overflow) {
    constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t highest = std::numeric_limits<std::int64_t>::max();
    const bool saturate = overflow == overflow_policy::saturate;
    std::int64_t r = 0;  // the wrapped result where an overflow is reported
    switch (op) {
        case binary_kind::add:
            if (__builtin_add_overflow(a, b, &r) && saturate) return b > 0 ? highest : lowest;
            return r;
        case binary_kind::sub:
            if (__builtin_sub_overflow(a, b, &r) && saturate) return b < 0 ? highest : lowest;
            return r;
        case binary_kind::mul:
            if (__builtin_mul_overflow(a, b, &r) && saturate)
                return (a < 0) != (b < 0) ? lowest : highest;
            return r;
        case binary_kind::min:
            return b < a ? b : a;
        case binary_kind::max:
            return b > a ? b : a;
        case binary_kind::div: {
            if (b == 0) return 0;
            if (a == lowest && b == -1) return saturate ? highest : lowest;
            std::int64_t q = a / b;  // toward zero
            const std::int64_t rest = a % b;
            if (rounding == rounding_policy::to_nearest_even && rest != 0) {
                const auto magnitude = [](std::int64_t v) {
                    return v < 0 ? 0 - static_cast<std::uint64_t>(v)
                                 : static_cast<std::uint64_t>(v);
                };
                const std::uint64_t twice = 2 * magnitude(rest), whole = magnitude(b);
                if (twice > whole || (twice == whole && (q & 1) != 0))
                    q += (a < 0) != (b < 0) ? -1 : 1;
            }
            return q;
        }
        default:
            return std::nullopt;
    }
}

/// (a op b) on uint64 values in integers, as binary_int64 does for int64 (a difference below 0
/// saturates to 0 or wraps modulo 2^64); nullopt for ops the extended-precision path computes.
inline std::optional<std::uint64_t> binary_uint64(binary_kind op, std::uint64_t a, std::uint64_t b,
                                                  rounding_policy rounding,
                                                  overflow_policy overflow) {
    constexpr std::uint64_t highest = std::numeric_limits<std::uint64_t>::max();
    const bool saturate = overflow == overflow_policy::saturate;
    std::uint64_t r = 0;  // the wrapped result where an overflow is reported
    switch (op) {
        case binary_kind::add:
            if (__builtin_add_overflow(a, b, &r) && saturate) return highest;
            return r;
        case binary_kind::sub:
            if (__builtin_sub_overflow(a, b, &r) && saturate) return 0;
            return r;
        case binary_kind::mul:
            if (__builtin_mul_overflow(a, b, &r) && saturate) return highest;
            return r;
        case binary_kind::min:
            return b < a ? b : a;
        case binary_kind::max:
            return b > a ? b : a;
        case binary_kind::div: {
            if (b == 0) return 0;
            std::uint64_t q = a / b;
            const std::uint64_t rest = a % b;
            if (rounding == rounding_policy::to_nearest_even && rest != 0) {
                const std::uint64_t left = b - rest;  // rest + left == b, no overflow
                if (rest > left || (rest == left && (q & 1) != 0)) ++q;
            }
            return q;
        }
        default:
            return std::nullopt;
    }
}

/// Runs the integer path of op::binary for Int (int64_t or uint64_t) operands and result.
template <typename Int, typename Apply>
void binary_integers(const detail::broadcast_reader& a, const detail::broadcast_reader& b,
                     const tensor& dst, Apply apply) {
    tessera::detail::for_each_index(dst.dims(), [&](const detail::index_t& idx) {
        Int x, y;
        std::memcpy(&x, a.address(idx), sizeof x);
        std::memcpy(&y, b.address(idx), sizeof y);
        const Int r = *apply(x, y);
        std::memcpy(dst.address_of(idx), &r, sizeof r);
    });
}

inline void run(const op::binary& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& dst = out[0];
    const int rank = dst.desc().rank();
    const bool integer = is_integer(dst.type());
    const bool with_c = op.uses_c() && in.size() > 2;
    const auto rounding = op.rounding();
    const auto overflow = op.overflow();
    const binary_kind kind = op.kind();
    const detail::broadcast_reader a(in[0], rank), b(in[1], rank), c(with_c ? in[2] : in[0], rank);
    const dtype t = dst.type();
    const bool integer_path = is_int64_class(t) && in[0].type() == t && in[1].type() == t &&
                              !with_c && op.alpha() == 1.0f && op.beta() == 1.0f &&
                              binary_int64(kind, 1, 1, rounding, overflow);
    if (integer_path && t == dtype::i64) {
        binary_integers<std::int64_t>(a, b, dst, [&](std::int64_t x, std::int64_t y) {
            return binary_int64(kind, x, y, rounding, overflow);
        });
        return;
    }
    if (integer_path) {
        binary_integers<std::uint64_t>(a, b, dst, [&](std::uint64_t x, std::uint64_t y) {
            return binary_uint64(kind, x, y, rounding, overflow);
        });
        return;
    }
    tessera::detail::for_each_index(dst.dims(), [&](const detail::index_t& idx) {
        long double r = binary_apply(kind, static_cast<long double>(op.alpha()) * a.load(idx),
                                     static_cast<long double>(op.beta()) * b.load(idx), integer);
        if (with_c) r += static_cast<long double>(op.gamma()) * c.load(idx);
        detail::store(dst, idx, r, rounding, overflow);
    });
}

/// op(x) of a unary op.
inline double unary_apply(unary_kind op, double x, double epsilon) {
    switch (op) {
        case unary_kind::log:
            return std::log(x);
        case unary_kind::exp:
            return std::exp(x);
        case unary_kind::sqrt:
            return std::sqrt(x);
        case unary_kind::rsqrt:
            return 1.0 / std::sqrt(x + epsilon);
        case unary_kind::neg:
            return -x;
        case unary_kind::abs:
            return std::fabs(x);
        case unary_kind::erf:
            return std::erf(x);
        case unary_kind::floor:
            return std::floor(x);
        case unary_kind::ceil:
            return std::ceil(x);
        case unary_kind::round:
            return std::isfinite(x) ? numeric::round_with(x, rounding_policy::to_nearest_even) : x;
        case unary_kind::sign:
            return x > 0 ? 1.0 : (x < 0 ? -1.0 : x);
        case unary_kind::reciprocal:
            return 1.0 / x;
        case unary_kind::sin:
            return std::sin(x);
        case unary_kind::cos:
            return std::cos(x);
        case unary_kind::tan:
            return std::tan(x);
        case unary_kind::asin:
            return std::asin(x);
        case unary_kind::acos:
            return std::acos(x);
        case unary_kind::atan:
            return std::atan(x);
        case unary_kind::sinh:
            return std::sinh(x);
        case unary_kind::cosh:
            return std::cosh(x);
        case unary_kind::asinh:
            return std::asinh(x);
        case unary_kind::acosh:
            return std::acosh(x);
        case unary_kind::atanh:
            return std::atanh(x);
        default:
            return std::numeric_limits<double>::quiet_NaN();
    }
}

/// op(x) for the unary ops that map integers to integers exactly (neg, abs, sign and the
/// roundings), in extended precision so i64 values beyond 2^53 stay exact; nullopt for others.
inline std::optional<long double> unary_exact(unary_kind op, long double x) {
    switch (op) {
        case unary_kind::neg:
            return -x;
        case unary_kind::abs:
            return x < 0 ? -x : x;
        case unary_kind::sign:
            return x > 0 ? 1.0L : (x < 0 ? -1.0L : x);
        case unary_kind::floor:
        case unary_kind::ceil:
        case unary_kind::round:
            return x;  // integers already
        default:
            return std::nullopt;
    }
}

inline void run(const op::unary& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const unary_kind kind = op.kind();
    const double epsilon = op.epsilon();
    const bool exact_i64 = is_int64_class(in[0].type()) && unary_exact(kind, 0).has_value();
    tessera::detail::for_each_index(in[0].dims(), [&](const detail::index_t& idx) {
        if (exact_i64) {
            detail::store(out[0], idx, *unary_exact(kind, detail::load_wide(in[0], idx)));
        } else {
            detail::store(out[0], idx, unary_apply(kind, detail::load(in[0], idx), epsilon));
        }
    });
}

}  // namespace tessera::reference
