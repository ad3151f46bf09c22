// tessera/reference/matmul.hpp: reference kernels of op::matmul and op::quantized_matmul:
// stacked/broadcast products followed by the addition of, or a comparison with, C.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tessera/numeric/fixed_point.hpp"
#include "tessera/ops/matmul.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

namespace compute_detail {

/// (product OP c) for the comparison ops, product + c for ADDITION.
inline double matmul_combine(matmul_kind op, double product, double c) {
    switch (op) {
        case matmul_kind::greater:
            return product > c ? 1.0 : 0.0;
        case matmul_kind::greater_equal:
            return product >= c ? 1.0 : 0.0;
        case matmul_kind::equal:
            return product == c ? 1.0 : 0.0;
        case matmul_kind::not_equal:
            return product != c ? 1.0 : 0.0;
        case matmul_kind::lesser_equal:
            return product <= c ? 1.0 : 0.0;
        case matmul_kind::lesser:
            return product < c ? 1.0 : 0.0;
        default:
            return product + c;
    }
}

/// Row-major indexing of A, B and C for stack s, with broadcasting and transposes.
struct matmul_indexer {
    const op::matmul_geometry& g;
    bool ta, tb;
    std::size_t a(std::int64_t s, std::int64_t i, std::int64_t k) const {
        const std::int64_t base = g.a_stacked ? s * g.m * g.n : 0;
        return static_cast<std::size_t>(base + (ta ? k * g.m + i : i * g.n + k));
    }
    std::size_t b(std::int64_t s, std::int64_t k, std::int64_t j) const {
        const std::int64_t base = g.b_stacked ? s * g.n * g.p : 0;
        return static_cast<std::size_t>(base + (tb ? j * g.n + k : k * g.p + j));
    }
    std::size_t c(std::int64_t s, std::int64_t j) const {
        return static_cast<std::size_t>((g.c_stacked ? s * g.p : 0) + j);
    }
};

}  // namespace compute_detail

inline void run(const op::matmul& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const auto g = op.geometry({in[0].desc(), in[1].desc()});
    const auto gc = in.size() > 2 ? op.geometry({in[0].desc(), in[1].desc(), in[2].desc()}) : g;
    const cd::matmul_indexer ix{gc, op.transpose_a(), op.transpose_b()};
    const matmul_kind kind = op.kind();
    const std::vector<double> a = cd::real_values(in[0]), b = cd::real_values(in[1]);
    std::vector<double> c;
    if (in.size() > 2) c = cd::real_values(in[2]);
    const std::int64_t stacks = gc.stacks ? gc.stacks : 1;
    for (std::int64_t s = 0; s < stacks; ++s)
        for (std::int64_t i = 0; i < gc.m; ++i)
            for (std::int64_t j = 0; j < gc.p; ++j) {
                double sum = 0.0;
                for (std::int64_t k = 0; k < gc.n; ++k) sum += a[ix.a(s, i, k)] * b[ix.b(s, k, j)];
                const double cv = c.empty() ? 0.0 : c[ix.c(s, j)];
                cd::store_real(out[0], (s * gc.m + i) * gc.p + j,
                               cd::matmul_combine(kind, sum, cv));
            }
}

namespace compute_detail {

/// quantized_matmul's scales and zero points and its arithmetic around the integer dot products,
/// as the reference computes them (backends computing the dot products themselves reuse it).
struct quantized_matmul_terms {
    op::quantized_matmul op;
    bool on_the_fly = false;  ///< A is floating and quantised on the fly
    double sa = 0, za = 0, sb = 0, zb = 0, sc = 0, zc = 0, sy = 0, zy = 0;

    quantized_matmul_terms(const op::quantized_matmul& o, const tensor_desc& a,
                           const tensor_desc& b, const tensor_desc& c)
        : op(o), on_the_fly(is_floating(a.type())) {
        sa = on_the_fly ? op.a_scale() : a.quant().scale;
        za = on_the_fly ? op.a_zero_point() : a.quant().zero_point;
        sb = b.quant().scale;
        zb = b.quant().zero_point;
        sc = op.pre_computed() ? 1.0 : c.quant().scale;
        zc = op.pre_computed() ? 0.0 : c.quant().zero_point;
        sy = op.out_scale();
        zy = op.out_zero_point();
    }

    /// The quantised value of a floating A element `v`.
    double quantize_a(double v) const {
        const double q = numeric::round_with(v / sa, rounding_policy::to_nearest_even) + za;
        return std::min(std::max(q, static_cast<double>(op.clip_min())),
                        static_cast<double>(op.clip_max()));
    }

    /// The output element from d = sum (qa - Za)(qb - Zb), d_raw_a = sum qa (qb - Zb) over the
    /// `n` products, and `c` (C's raw value).
    double result(std::int64_t d, std::int64_t d_raw_a, double c, std::int64_t n) const {
        const matmul_kind kind = op.kind();
        if (kind != matmul_kind::addition) {
            return op.pre_computed()
                       ? matmul_combine(kind, static_cast<double>(d_raw_a), c)
                       : matmul_combine(kind, sa * sb * static_cast<double>(d), sc * (c - zc));
        }
        // q: the result in output quantised units before rounding and clipping.
        double q = 0.0;
        if (op.pre_computed()) {
            q = (sa * sb / sy) * static_cast<double>(d) -
                (sa * sb / sy) * static_cast<double>(n) * za * zb + c;
        } else {
            q = (sa * sb * static_cast<double>(d) + sc * (c - zc)) / sy + zy;
        }
        if (op.dequantize()) return (q - zy) * sy;
        if (op.disable_clipping()) return q;
        return std::min(std::max(numeric::round_with(q, rounding_policy::to_nearest_even), -128.0),
                        127.0);
    }
};

}  // namespace compute_detail

inline void run(const op::quantized_matmul& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const auto g = op.geometry({in[0].desc(), in[1].desc(), in[2].desc()});
    const cd::matmul_indexer ix{g, op.transpose_a(), op.transpose_b()};
    const cd::quantized_matmul_terms terms(op, in[0].desc(), in[1].desc(), in[2].desc());
    // Quantised A: stored values, or the on-the-fly quantisation of a floating A.
    std::vector<double> qa = cd::raw_values(in[0]);
    if (terms.on_the_fly)
        for (double& v : qa) v = terms.quantize_a(v);
    const std::vector<double> qb = cd::raw_values(in[1]);
    const std::vector<double> cv = cd::raw_values(in[2]);
    const auto za = static_cast<std::int64_t>(terms.za), zb = static_cast<std::int64_t>(terms.zb);
    const std::int64_t stacks = g.stacks ? g.stacks : 1;
    for (std::int64_t s = 0; s < stacks; ++s)
        for (std::int64_t i = 0; i < g.m; ++i)
            for (std::int64_t j = 0; j < g.p; ++j) {
                std::int64_t d = 0;        // sum (qa - Za)(qb - Zb)
                std::int64_t d_raw_a = 0;  // sum qa (qb - Zb)
                for (std::int64_t k = 0; k < g.n; ++k) {
                    const auto a_k = static_cast<std::int64_t>(qa[ix.a(s, i, k)]);
                    const auto b_k = static_cast<std::int64_t>(qb[ix.b(s, k, j)]) - zb;
                    d += (a_k - za) * b_k;
                    d_raw_a += a_k * b_k;
                }
                cd::store_real(out[0], (s * g.m + i) * g.p + j,
                               terms.result(d, d_raw_a, cv[ix.c(s, j)], g.n));
            }
}

}  // namespace tessera::reference
