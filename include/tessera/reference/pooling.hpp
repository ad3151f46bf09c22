// tessera/reference/pooling.hpp: reference kernel of op::pooling (max, averages including or
// excluding padding, global forms). Works on stored values: max and mean commute with the
// positive-scale dequantisation of i8/u8/i16.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

#include "tessera/ops/pooling.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::pooling& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const tensor& src = in[0];
    const auto g = op.geometry(src.desc());
    const std::vector<double> x = cd::raw_values(src);
    const std::int64_t pt = g.y.pad_before, pl = g.x.pad_before;
    // The padded input spans [-pad_before, in + pad_after) in each dimension.
    const std::int64_t y_end = g.h + g.y.pad_after, x_end = g.w + g.x.pad_after;
    std::int64_t o = 0;
    for (std::int64_t n = 0; n < g.n; ++n)
        for (std::int64_t c = 0; c < g.c; ++c) {
            const std::int64_t plane = (n * g.c + c) * g.h * g.w;
            for (std::int64_t oy = 0; oy < g.y.out; ++oy)
                for (std::int64_t ox = 0; ox < g.x.out; ++ox, ++o) {
                    const std::int64_t y0 = oy * g.sh - pt, x0 = ox * g.sw - pl;
                    double best = -std::numeric_limits<double>::infinity();
                    double sum = 0.0;
                    std::int64_t inside = 0, padded = 0;
                    for (std::int64_t y = y0; y < y0 + g.kh; ++y)
                        for (std::int64_t xx = x0; xx < x0 + g.kw; ++xx) {
                            if (y < y_end && xx < x_end) ++padded;
                            if (y < 0 || y >= g.h || xx < 0 || xx >= g.w) continue;
                            const double v = x[static_cast<std::size_t>(plane + y * g.w + xx)];
                            best = std::max(best, v);
                            sum += v;
                            ++inside;
                        }
                    double result = 0.0;
                    if (op.is_max()) {
                        result = best;
                    } else if (op.kind() == pooling_kind::average_include_padding) {
                        result = sum / static_cast<double>(padded);
                    } else {
                        result = sum / static_cast<double>(inside);
                    }
                    cd::store_raw_statistic(src.desc(), out[0], o, result, op.rounding());
                }
        }
}

}  // namespace tessera::reference
