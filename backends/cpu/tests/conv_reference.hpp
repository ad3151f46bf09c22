// Convolution test helpers shared by the Conv2d tests: a case's shape, the textbook 7-loop
// convolution in double, geometry shorthands and a case's random operands as tensors.
#pragma once

#include <memory>
#include <vector>

#include "tessera/cpu/functions/conv2d.hpp"
#include "test_helpers.hpp"

namespace tessera::cpu::test {

struct ConvCase {
    int64_t n, ic, h, w, oc, kh, kw;
    Conv2dGeometry g;
    DataLayout in_layout = DataLayout::nchw16c;
};

inline std::vector<float> reference_conv(const ConvCase& c, const std::vector<float>& x,
                                         const std::vector<float>& wt,
                                         const std::vector<float>& bias, int64_t oh, int64_t ow) {
    const int64_t icg = c.ic / c.g.groups, ocg = c.oc / c.g.groups;
    std::vector<float> y(static_cast<std::size_t>(c.n * c.oc * oh * ow));
    for (int64_t n = 0; n < c.n; ++n)
        for (int64_t o = 0; o < c.oc; ++o)
            for (int64_t yy = 0; yy < oh; ++yy)
                for (int64_t xx = 0; xx < ow; ++xx) {
                    double sum = bias.empty() ? 0.0 : bias[static_cast<std::size_t>(o)];
                    const int64_t grp = o / ocg;
                    for (int64_t ci = 0; ci < icg; ++ci)
                        for (int64_t ky = 0; ky < c.kh; ++ky)
                            for (int64_t kx = 0; kx < c.kw; ++kx) {
                                const int64_t iy =
                                    yy * c.g.stride_h - c.g.pad_top + ky * c.g.dilation_h;
                                const int64_t ix =
                                    xx * c.g.stride_w - c.g.pad_left + kx * c.g.dilation_w;
                                if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
                                const int64_t cin = grp * icg + ci;
                                sum += static_cast<double>(x[static_cast<std::size_t>(
                                           ((n * c.ic + cin) * c.h + iy) * c.w + ix)]) *
                                       wt[static_cast<std::size_t>(
                                           ((o * icg + ci) * c.kh + ky) * c.kw + kx)];
                            }
                    y[static_cast<std::size_t>(((n * c.oc + o) * oh + yy) * ow + xx)] =
                        static_cast<float>(sum);
                }
    return y;
}

inline Conv2dGeometry geom(int64_t s, int64_t p, int64_t d = 1, int64_t groups = 1) {
    Conv2dGeometry g;
    g.stride_h = g.stride_w = s;
    g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = p;
    g.dilation_h = g.dilation_w = d;
    g.groups = groups;
    return g;
}

/// Padding top, right, bottom, left (stride and dilation 1).
inline Conv2dGeometry pads(int64_t top, int64_t right, int64_t bottom, int64_t left) {
    Conv2dGeometry g = geom(1, 0);
    g.pad_top = top;
    g.pad_right = right;
    g.pad_bottom = bottom;
    g.pad_left = left;
    return g;
}

/// A case's random input, weights and bias, as vectors and as tensors (the input carrying
/// `padding`), and the output's shape.
struct ConvOperands {
    std::vector<float> x, wt, b;
    std::unique_ptr<Tensor> src, weights, bias;
    std::vector<int64_t> out_shape;

    ConvOperands(const ConvCase& c, uint32_t& seed, PaddingSize padding = {})
        : x(random_vector(static_cast<std::size_t>(c.n * c.ic * c.h * c.w), seed)),
          wt(random_vector(static_cast<std::size_t>(c.oc * (c.ic / c.g.groups) * c.kh * c.kw),
                           seed + 1)),
          b(random_vector(static_cast<std::size_t>(c.oc), seed + 2)),
          src(make_tensor({c.n, c.ic, c.h, c.w}, c.in_layout, DataType::f32, padding)),
          weights(make_tensor({c.oc, c.ic / c.g.groups, c.kh, c.kw})),
          bias(make_tensor({c.oc})) {
        seed += 3;
        write_nchw(*src, x);
        write_nchw(*weights, wt);
        write_nchw(*bias, b);
        out_shape = Conv2d::output_shape(src->info(), weights->info(), c.g);
    }
};

}  // namespace tessera::cpu::test
