// kernel_pool_norm.cpp: pooling (max, average; zero padding as the spec defines it) and local
// response normalization (same map, across maps).
#include <algorithm>
#include <cmath>

#include "fixed_point.hpp"
#include "kernels.hpp"

namespace openvx {

void run_pooling(const _vx_node& node) {
    const tensor_span in(tensor_param(node, 0)), out(tensor_param(node, 1));
    const node_config& c = node.config;
    const bool is_max = c.pool_type == VX_CONVOLUTIONAL_NETWORK_POOLING_MAX;
    const auto in_w = static_cast<std::int64_t>(in.dim(0)),
               in_h = static_cast<std::int64_t>(in.dim(1));
    const auto px = static_cast<std::int64_t>(c.pad_x), py = static_cast<std::int64_t>(c.pad_y);
    const vx_size planes = in.dim(2) * in.dim(3);
    for (vx_size plane = 0; plane < planes; ++plane) {
        const vx_size ci = plane % in.dim(2), n = plane / in.dim(2);
        const vx_size in_plane = ci * in.stride(2) + n * in.stride(3);
        const vx_size out_plane = ci * out.stride(2) + n * out.stride(3);
        for (vx_size oy = 0; oy < out.dim(1); ++oy)
            for (vx_size ox = 0; ox < out.dim(0); ++ox) {
                const std::int64_t x0 = static_cast<std::int64_t>(ox * c.skip_x) - px;
                const std::int64_t y0 = static_cast<std::int64_t>(oy * c.skip_y) - py;
                std::int64_t best = INT64_MIN, sum = 0, count = 0;
                for (std::int64_t y = y0; y < y0 + static_cast<std::int64_t>(c.pool_size_y); ++y)
                    for (std::int64_t x = x0; x < x0 + static_cast<std::int64_t>(c.pool_size_x);
                         ++x) {
                        // Positions past the padded input (ceiling rounding) do not count.
                        if (y >= in_h + py || x >= in_w + px) continue;
                        const bool inside = y >= 0 && y < in_h && x >= 0 && x < in_w;
                        const std::int64_t v =
                            inside ? in.load(in_plane + static_cast<vx_size>(x) * in.stride(0) +
                                             static_cast<vx_size>(y) * in.stride(1))
                                   : 0;  // zero padding
                        best = std::max(best, v);
                        sum += v;
                        ++count;
                    }
                std::int64_t result = count == 0 ? 0 : best;  // a window past the padding: 0
                if (!is_max && count > 0) {
                    // sum / count rounded to nearest, ties to even, in integers.
                    std::int64_t q = sum / count, r = sum % count;
                    const std::int64_t twice = 2 * (r < 0 ? -r : r);
                    if (twice > count || (twice == count && (q & 1) != 0)) q += sum < 0 ? -1 : 1;
                    result = q;
                }
                out.store(out_plane + ox * out.stride(0) + oy * out.stride(1), result);
            }
    }
}

void run_normalization(const _vx_node& node) {
    const tensor_span in(tensor_param(node, 0)), out(tensor_param(node, 1));
    const node_config& c = node.config;
    const bool across = c.norm_type == VX_CONVOLUTIONAL_NETWORK_NORM_ACROSS_MAPS;
    const auto half = static_cast<std::int64_t>(c.norm_size / 2);
    const double count = across ? c.norm_size : static_cast<double>(c.norm_size) * c.norm_size;
    const double alpha = static_cast<double>(c.alpha) / count;
    const double beta = c.beta;
    const double unit = std::ldexp(1.0, -in.fixed_point_pos);
    const auto w_n = static_cast<std::int64_t>(in.dim(0)),
               h_n = static_cast<std::int64_t>(in.dim(1)),
               c_n = static_cast<std::int64_t>(in.dim(2));
    const auto real_at = [&](std::int64_t x, std::int64_t y, std::int64_t ch, vx_size n) {
        return static_cast<double>(in.load(
                   static_cast<vx_size>(x) * in.stride(0) + static_cast<vx_size>(y) * in.stride(1) +
                   static_cast<vx_size>(ch) * in.stride(2) + n * in.stride(3))) *
               unit;
    };
    for (vx_size n = 0; n < in.dim(3); ++n)
        for (std::int64_t ch = 0; ch < c_n; ++ch)
            for (std::int64_t y = 0; y < h_n; ++y)
                for (std::int64_t x = 0; x < w_n; ++x) {
                    double sum = 0.0;
                    if (across) {
                        for (std::int64_t k = std::max<std::int64_t>(ch - half, 0);
                             k <= std::min(ch + half, c_n - 1); ++k) {
                            const double v = real_at(x, y, k, n);
                            sum += v * v;
                        }
                    } else {
                        for (std::int64_t yy = std::max<std::int64_t>(y - half, 0);
                             yy <= std::min(y + half, h_n - 1); ++yy)
                            for (std::int64_t xx = std::max<std::int64_t>(x - half, 0);
                                 xx <= std::min(x + half, w_n - 1); ++xx) {
                                const double v = real_at(xx, yy, ch, n);
                                sum += v * v;
                            }
                    }
                    const double denom = std::pow(1.0 + alpha * sum, beta);
                    const double y_real = real_at(x, y, ch, n) / denom;
                    const std::int64_t raw = fixed::round_real(
                        std::ldexp(y_real, out.fixed_point_pos), VX_ROUND_POLICY_TO_NEAREST_EVEN);
                    out.store(static_cast<vx_size>(x) * out.stride(0) +
                                  static_cast<vx_size>(y) * out.stride(1) +
                                  static_cast<vx_size>(ch) * out.stride(2) + n * out.stride(3),
                              fixed::narrow_to(raw, out.type, VX_CONVERT_POLICY_SATURATE));
                }
}

}  // namespace openvx
