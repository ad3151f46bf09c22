// tessera/reference/elementwise.hpp: reference kernels of op::binary and op::unary.
#pragma once

#include <cmath>
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
    const bool exact_i64 = in[0].type() == dtype::i64 && unary_exact(kind, 0).has_value();
    tessera::detail::for_each_index(in[0].dims(), [&](const detail::index_t& idx) {
        if (exact_i64) {
            detail::store(out[0], idx, *unary_exact(kind, detail::load_wide(in[0], idx)));
        } else {
            detail::store(out[0], idx, unary_apply(kind, detail::load(in[0], idx), epsilon));
        }
    });
}

}  // namespace tessera::reference
