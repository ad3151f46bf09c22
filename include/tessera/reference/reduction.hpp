// tessera/reference/reduction.hpp: reference kernels of op::moments, op::mean_reduce2d and
// op::reduce.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "tessera/ops/reduction.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::moments& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const shape d = in[0].dims();
    const int first = op.first_axis() < 0 ? op.first_axis() + d.rank() : op.first_axis();
    std::int64_t inner = 1;
    for (int a = first; a < d.rank(); ++a) inner *= d[a];
    const std::int64_t outer = in[0].num_elements() / inner;
    const std::vector<double> x = cd::real_values(in[0]);
    const double divisor =
        static_cast<double>(op.bessel() == bessel_correction::sample ? inner - 1 : inner);
    for (std::int64_t o = 0; o < outer; ++o) {
        const double* row = x.data() + o * inner;
        double mean = 0.0;
        for (std::int64_t k = 0; k < inner; ++k) mean += row[k];
        mean /= static_cast<double>(inner);
        double ss = 0.0;
        for (std::int64_t k = 0; k < inner; ++k) ss += (row[k] - mean) * (row[k] - mean);
        cd::store_real(out[0], o, mean);
        cd::store_real(out[1], o, ss / divisor);
    }
}

inline void run(const op::mean_reduce2d& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const shape d = in[0].dims();
    const std::int64_t plane = d[2] * d[3];
    const std::vector<double> x = cd::raw_values(in[0]);
    for (std::int64_t p = 0; p < d[0] * d[1]; ++p) {
        double sum = 0.0;
        for (std::int64_t k = 0; k < plane; ++k) sum += x[static_cast<std::size_t>(p * plane + k)];
        cd::store_raw_statistic(in[0].desc(), out[0], p, sum / static_cast<double>(plane),
                                op.rounding());
    }
}

namespace compute_detail {

/// op::reduce over values of type Real (double, or long double for i64 so sums, products and
/// extremes of values beyond 2^53 stay exact).
template <typename Real>
void reduce_lines(const op::reduce& op, const std::vector<Real>& x, const tensor& src,
                  const tensor& dst) {
    const reduce_kind kind = op.kind();
    const bool last = op.is_index() && op.select_last_index();
    const shape d = src.dims();
    const int axis = op.axis() < 0 ? op.axis() + d.rank() : op.axis();
    std::int64_t inner = 1;
    for (int k = axis + 1; k < d.rank(); ++k) inner *= d[k];
    const std::int64_t len = d[axis], outer = src.num_elements() / (len * inner);
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
            const auto at = [&](std::int64_t k) {
                return x[static_cast<std::size_t>((o * len + k) * inner + i)];
            };
            Real acc = at(0);
            std::int64_t index = 0;
            for (std::int64_t k = 1; k < len; ++k) {
                const Real v = at(k);
                switch (kind) {
                    case reduce_kind::min:
                    case reduce_kind::min_idx:
                        if (v < acc || (last && v == acc)) {
                            acc = v;
                            index = k;
                        }
                        break;
                    case reduce_kind::max:
                    case reduce_kind::max_idx:
                        if (v > acc || (last && v == acc)) {
                            acc = v;
                            index = k;
                        }
                        break;
                    case reduce_kind::prod:
                        acc *= v;
                        break;
                    default:
                        acc += v;
                        break;
                }
            }
            if (kind == reduce_kind::mean) acc /= static_cast<Real>(len);
            const std::int64_t at_dst = o * inner + i;
            if (op.is_index()) {
                store_real_wide(dst, at_dst, static_cast<long double>(index));
            } else {
                store_real_wide(dst, at_dst, acc, op.rounding());
            }
        }
}

}  // namespace compute_detail

inline void run(const op::reduce& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    if (is_int64_class(in[0].type())) {
        cd::reduce_lines(op, cd::real_values_wide(in[0]), in[0], out[0]);
    } else {
        cd::reduce_lines(op, cd::real_values(in[0]), in[0], out[0]);
    }
}

}  // namespace tessera::reference
