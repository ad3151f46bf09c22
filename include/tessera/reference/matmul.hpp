// tessera/reference/matmul.hpp: reference kernels of op::matmul and op::quantized_matmul:
// stacked/broadcast products followed by the addition of, or a comparison with, C.
#pragma once

#include <cmath>
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

inline void run(const op::quantized_matmul& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const auto g = op.geometry({in[0].desc(), in[1].desc(), in[2].desc()});
    const cd::matmul_indexer ix{g, op.transpose_a(), op.transpose_b()};
    // Quantised A: stored values, or the on-the-fly quantisation of a floating A.
    const bool on_the_fly = is_floating(in[0].type());
    const double sa = on_the_fly ? op.a_scale() : in[0].desc().quant().scale;
    const double za = on_the_fly ? op.a_zero_point() : in[0].desc().quant().zero_point;
    std::vector<double> qa = cd::raw_values(in[0]);
    if (on_the_fly) {
        for (double& v : qa) {
            const double q = numeric::round_with(v / sa, rounding_policy::to_nearest_even) + za;
            v = std::min(std::max(q, static_cast<double>(op.clip_min())),
                         static_cast<double>(op.clip_max()));
        }
    }
    const std::vector<double> qb = cd::raw_values(in[1]);
    const double sb = in[1].desc().quant().scale, zb = in[1].desc().quant().zero_point;
    const std::vector<double> cv = cd::raw_values(in[2]);
    const double sc = op.pre_computed() ? 1.0 : in[2].desc().quant().scale;
    const double zc = op.pre_computed() ? 0.0 : in[2].desc().quant().zero_point;
    const double sy = op.out_scale(), zy = op.out_zero_point();
    const matmul_kind kind = op.kind();
    const bool compare = kind != matmul_kind::addition;
    const std::int64_t stacks = g.stacks ? g.stacks : 1;
    for (std::int64_t s = 0; s < stacks; ++s)
        for (std::int64_t i = 0; i < g.m; ++i)
            for (std::int64_t j = 0; j < g.p; ++j) {
                std::int64_t d = 0;        // sum (qa - Za)(qb - Zb)
                std::int64_t d_raw_a = 0;  // sum qa (qb - Zb)
                for (std::int64_t k = 0; k < g.n; ++k) {
                    const auto a_k = static_cast<std::int64_t>(qa[ix.a(s, i, k)]);
                    const auto b_k = static_cast<std::int64_t>(qb[ix.b(s, k, j)]) -
                                     static_cast<std::int64_t>(zb);
                    d += (a_k - static_cast<std::int64_t>(za)) * b_k;
                    d_raw_a += a_k * b_k;
                }
                const double c = cv[ix.c(s, j)];
                double result = 0.0;
                if (compare) {
                    result = op.pre_computed()
                                 ? cd::matmul_combine(kind, static_cast<double>(d_raw_a), c)
                                 : cd::matmul_combine(kind, sa * sb * static_cast<double>(d),
                                                      sc * (c - zc));
                } else {
                    // q: the result in output quantised units before rounding and clipping.
                    double q = 0.0;
                    if (op.pre_computed()) {
                        q = (sa * sb / sy) * static_cast<double>(d) -
                            (sa * sb / sy) * static_cast<double>(g.n) * za * zb + c;
                    } else {
                        q = (sa * sb * static_cast<double>(d) + sc * (c - zc)) / sy + zy;
                    }
                    if (op.dequantize()) {
                        result = (q - zy) * sy;
                    } else if (op.disable_clipping()) {
                        result = q;
                    } else {
                        result = std::min(
                            std::max(numeric::round_with(q, rounding_policy::to_nearest_even),
                                     -128.0),
                            127.0);
                    }
                }
                cd::store_real(out[0], (s * g.m + i) * g.p + j, result);
            }
}

}  // namespace tessera::reference
