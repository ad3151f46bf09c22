// tessera/reference/conv2d.hpp: reference kernel of op::conv2d: direct and transposed grouped,
// dilated convolution with the fused epilogue; floating and i8/u8 in double on real values, i16
// with the OpenVX provisional fixed-point arithmetic (products rounded and narrowed one by one).
#pragma once

#include <cmath>
#include <vector>

#include "tessera/ops/conv2d.hpp"
#include "tessera/reference/compute_common.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

namespace compute_detail {

/// Adds product(src_index, weights_index) of every (input, weight) pair contributing to each
/// output element into acc (row-major [N, O, OH, OW]).
template <typename Acc, typename Product>
void accumulate_conv2d(const op::conv2d& op, const op::conv2d::geometry_t& g, std::vector<Acc>& acc,
                       Product&& product) {
    const std::int64_t oh_n = g.y.out, ow_n = g.x.out;
    const std::int64_t sh = op.stride().h, sw = op.stride().w, dh = op.dilation().h,
                       dw = op.dilation().w;
    const std::int64_t pt = g.y.pad_before, pl = g.x.pad_before;
    const auto out_index = [&](std::int64_t n, std::int64_t o, std::int64_t y, std::int64_t x) {
        return ((n * g.o + o) * oh_n + y) * ow_n + x;
    };
    const auto src_index = [&](std::int64_t n, std::int64_t c, std::int64_t y, std::int64_t x) {
        return ((n * g.c + c) * g.h + y) * g.w + x;
    };
    if (op.kind() != conv_kind::transposed) {  // direct and depthwise
        for (std::int64_t n = 0; n < g.n; ++n)
            for (std::int64_t o = 0; o < g.o; ++o) {
                const std::int64_t group = o / g.group_out;
                for (std::int64_t y = 0; y < oh_n; ++y)
                    for (std::int64_t x = 0; x < ow_n; ++x) {
                        Acc sum{};
                        for (std::int64_t ci = 0; ci < g.group_in; ++ci)
                            for (std::int64_t ky = 0; ky < g.kh; ++ky) {
                                const std::int64_t iy = y * sh - pt + ky * dh;
                                if (iy < 0 || iy >= g.h) continue;
                                for (std::int64_t kx = 0; kx < g.kw; ++kx) {
                                    const std::int64_t ix = x * sw - pl + kx * dw;
                                    if (ix < 0 || ix >= g.w) continue;
                                    const std::int64_t wi =
                                        ((o * g.group_in + ci) * g.kh + ky) * g.kw + kx;
                                    sum +=
                                        product(src_index(n, group * g.group_in + ci, iy, ix), wi);
                                }
                            }
                        acc[static_cast<std::size_t>(out_index(n, o, y, x))] += sum;
                    }
            }
        return;
    }
    // Transposed: every input element scatters into the outputs the direct convolution reads it
    // for.
    for (std::int64_t n = 0; n < g.n; ++n)
        for (std::int64_t c = 0; c < g.c; ++c) {
            const std::int64_t group = c / g.group_in;
            for (std::int64_t iy = 0; iy < g.h; ++iy)
                for (std::int64_t ix = 0; ix < g.w; ++ix)
                    for (std::int64_t oo = 0; oo < g.group_out; ++oo) {
                        const std::int64_t o = group * g.group_out + oo;
                        for (std::int64_t ky = 0; ky < g.kh; ++ky) {
                            const std::int64_t y = iy * sh - pt + ky * dh;
                            if (y < 0 || y >= oh_n) continue;
                            for (std::int64_t kx = 0; kx < g.kw; ++kx) {
                                const std::int64_t x = ix * sw - pl + kx * dw;
                                if (x < 0 || x >= ow_n) continue;
                                const std::int64_t wi =
                                    ((c * g.group_out + oo) * g.kh + ky) * g.kw + kx;
                                acc[static_cast<std::size_t>(out_index(n, o, y, x))] +=
                                    product(src_index(n, c, iy, ix), wi);
                            }
                        }
                    }
        }
}

/// Bias of output (o, y, x) from a [O] or [O, OH, OW] bias.
inline double bias_at(const std::vector<double>& bias, const tensor_desc& d, std::int64_t o,
                      std::int64_t y, std::int64_t x, std::int64_t oh, std::int64_t ow) {
    if (bias.empty()) return 0.0;
    if (d.rank() == 1) return bias[static_cast<std::size_t>(o)];
    return bias[static_cast<std::size_t>((o * oh + y) * ow + x)];
}

}  // namespace compute_detail

inline void run(const op::conv2d& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    namespace cd = compute_detail;
    const tensor& src = in[0];
    const tensor& weights = in[1];
    const tensor& dst = out[0];
    const auto g = op.geometry(src.desc(), weights.desc());
    const auto slots = op.slots();
    const activation_spec act = op.fused_activation();
    const std::size_t count = static_cast<std::size_t>(g.n * g.o * g.y.out * g.x.out);
    cd::slope_table slope;
    if (slots.slope >= 0) slope.values = cd::real_values(in[static_cast<std::size_t>(slots.slope)]);
    const tensor* bias = slots.bias >= 0 ? &in[static_cast<std::size_t>(slots.bias)] : nullptr;
    const std::int64_t plane = g.y.out * g.x.out;

    if (src.type() == dtype::i16) {
        const int fx = src.desc().quant().fixed_point_pos;
        const int fw = weights.desc().quant().fixed_point_pos;
        const int fo = dst.type() == dtype::i16 ? dst.desc().quant().fixed_point_pos : fx;
        const std::vector<double> x = cd::raw_values(src), w = cd::raw_values(weights);
        std::vector<std::int64_t> acc(count, 0);
        cd::accumulate_conv2d<std::int64_t>(op, g, acc, [&](std::int64_t xi, std::int64_t wi) {
            return cd::fixed_product(static_cast<std::int64_t>(x[static_cast<std::size_t>(xi)]),
                                     static_cast<std::int64_t>(w[static_cast<std::size_t>(wi)]),
                                     fx + fw - fo, op.rounding(), op.overflow());
        });
        std::vector<double> b;
        if (bias) {
            b = cd::raw_values(*bias);
            const int fb = bias->type() == dtype::i16 ? bias->desc().quant().fixed_point_pos : fo;
            for (double& v : b)
                v = static_cast<double>(cd::rescale_fixed(v, fb, fo, op.rounding()));
        }
        for (std::size_t i = 0; i < count; ++i) {
            const std::int64_t o = static_cast<std::int64_t>(i) / plane % g.o;
            const std::int64_t yx = static_cast<std::int64_t>(i) % plane;
            const std::int64_t sum = acc[i] + static_cast<std::int64_t>(cd::bias_at(
                                                  b, bias ? bias->desc() : tensor_desc(), o,
                                                  yx / g.x.out, yx % g.x.out, g.y.out, g.x.out));
            cd::store_fixed(dst, static_cast<std::int64_t>(i), sum, fo, act, slope[o],
                            op.rounding(), op.overflow());
        }
        return;
    }

    // Floating and i8/u8: real arithmetic in double.
    const std::vector<double> x = cd::real_values(src), w = cd::real_values(weights);
    std::vector<double> acc(count, 0.0);
    cd::accumulate_conv2d<double>(op, g, acc, [&](std::int64_t xi, std::int64_t wi) {
        return x[static_cast<std::size_t>(xi)] * w[static_cast<std::size_t>(wi)];
    });
    std::vector<double> b;
    if (bias) {
        b = cd::real_values(*bias);
        if (bias->type() == dtype::i32 && (src.type() == dtype::i8 || src.type() == dtype::u8)) {
            const double unit =
                static_cast<double>(src.desc().quant().scale) * weights.desc().quant().scale;
            for (double& v : b) v *= unit;
        }
    }
    std::vector<double> mean, var, scale, shift;
    if (op.fuse_batchnorm()) {
        mean = cd::real_values(in[static_cast<std::size_t>(slots.mean)]);
        var = cd::real_values(in[static_cast<std::size_t>(slots.variance)]);
        scale = cd::real_values(in[static_cast<std::size_t>(slots.scale)]);
        shift = cd::real_values(in[static_cast<std::size_t>(slots.shift)]);
    }
    for (std::size_t i = 0; i < count; ++i) {
        const std::int64_t o = static_cast<std::int64_t>(i) / plane % g.o;
        const std::int64_t yx = static_cast<std::int64_t>(i) % plane;
        double v = acc[i] + cd::bias_at(b, bias ? bias->desc() : tensor_desc(), o, yx / g.x.out,
                                        yx % g.x.out, g.y.out, g.x.out);
        if (op.fuse_batchnorm()) {
            const auto c = static_cast<std::size_t>(o);
            v = (v - mean[c]) / std::sqrt(var[c] + static_cast<double>(op.bn_epsilon())) *
                    scale[c] +
                shift[c];
        }
        cd::store_real(dst, static_cast<std::int64_t>(i), cd::activate(act, v, slope[o]),
                       op.rounding(), op.overflow());
    }
}

}  // namespace tessera::reference
