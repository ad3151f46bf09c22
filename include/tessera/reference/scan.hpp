// tessera/reference/scan.hpp: reference kernels of op::cumsum (running sums in double, long
// double for i64) and op::topk (a stable sort of each line along the axis; NaN counts as the
// largest value).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "tessera/ops/scan.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

namespace scan_detail {
/// Extents around an axis: outer * len * inner = all elements.
struct lines {
    std::int64_t outer = 1, len = 1, inner = 1;
    lines(const shape& d, int axis) {
        for (int k = 0; k < axis; ++k) outer *= d[k];
        len = d[axis];
        for (int k = axis + 1; k < d.rank(); ++k) inner *= d[k];
    }
    std::size_t at(std::int64_t o, std::int64_t k, std::int64_t i) const {
        return static_cast<std::size_t>((o * len + k) * inner + i);
    }
};
}  // namespace scan_detail

namespace scan_detail {
template <typename Real>
void cumsum_lines(const op::cumsum& op, const std::vector<Real>& x, const tensor& src,
                  const tensor& dst) {
    const shape d = src.dims();
    const int axis = op.axis() < 0 ? op.axis() + d.rank() : op.axis();
    const lines l(d, axis);
    for (std::int64_t o = 0; o < l.outer; ++o)
        for (std::int64_t i = 0; i < l.inner; ++i) {
            Real acc = 0;
            for (std::int64_t step = 0; step < l.len; ++step) {
                const std::int64_t k = op.reverse() ? l.len - 1 - step : step;
                const Real v = x[l.at(o, k, i)];
                if (!op.exclusive()) acc += v;
                compute_detail::store_real_wide(dst, static_cast<std::int64_t>(l.at(o, k, i)), acc);
                if (op.exclusive()) acc += v;
            }
        }
}
}  // namespace scan_detail

inline void run(const op::cumsum& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    if (is_int64_class(in[0].type())) {
        scan_detail::cumsum_lines(op, cd::real_values_wide(in[0]), in[0], out[0]);
    } else {
        scan_detail::cumsum_lines(op, cd::real_values(in[0]), in[0], out[0]);
    }
}

inline void run(const op::topk& op, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const shape d = in[0].dims();
    const int axis = op.axis() < 0 ? op.axis() + d.rank() : op.axis();
    const scan_detail::lines l(d, axis);
    const std::int64_t k = op.k();
    const bool largest = op.largest();
    const std::vector<long double> x = cd::real_values_wide(in[0]);
    std::vector<std::int64_t> order(static_cast<std::size_t>(l.len));
    for (std::int64_t o = 0; o < l.outer; ++o)
        for (std::int64_t i = 0; i < l.inner; ++i) {
            std::iota(order.begin(), order.end(), std::int64_t{0});
            const auto value = [&](std::int64_t j) { return x[l.at(o, j, i)]; };
            // Strict weak order: NaN above every number; ties keep the lower index first
            // (stable sort).
            const auto before = [&](std::int64_t p, std::int64_t q) {
                const long double a = value(p), b = value(q);
                if (std::isnan(a) || std::isnan(b))
                    return largest ? !std::isnan(b) : !std::isnan(a);
                return largest ? a > b : a < b;
            };
            std::stable_sort(order.begin(), order.end(), before);
            for (std::int64_t j = 0; j < k; ++j) {
                const std::int64_t src = order[static_cast<std::size_t>(j)];
                const auto dst = static_cast<std::int64_t>((o * k + j) * l.inner + i);
                cd::store_real_wide(out[0], dst, value(src));
                cd::store_real_wide(out[1], dst, static_cast<long double>(src));
            }
        }
}

}  // namespace tessera::reference
