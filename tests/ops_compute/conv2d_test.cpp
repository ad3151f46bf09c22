// conv2d_test.cpp: conv2d reference kernel: hand-computed values, conv as im2col + gemm, 1x1
// conv as fully_connected, grouped conv as per-group convs, transposed conv as the adjoint of
// conv, fused batchnorm/activation against the unfused ops, SAME/VALID/ceil geometry.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "tessera/reference/conv2d.hpp"
#include "tessera/reference/fully_connected.hpp"
#include "tessera/reference/gemm.hpp"
#include "tessera/reference/normalization.hpp"

using namespace compute_test;

namespace {

/// Convolution via an independently written im2col and the gemm op, per image and group.
values_t conv_by_im2col(const tensor& x, const tensor& w, const op::conv2d& c) {
    const shape xd = x.dims(), wd = w.dims();
    const auto out_desc = c.infer({x.desc(), w.desc()})[0];
    const std::int64_t n_n = xd[0], c_n = xd[1], h = xd[2], wi = xd[3];
    const std::int64_t o_n = wd[0], kh = wd[2], kw = wd[3];
    const std::int64_t g_n = c.group_count(), cg = c_n / g_n, og = o_n / g_n;
    const std::int64_t oh = out_desc.dim(2), ow = out_desc.dim(3);
    const auto g = c.geometry(x.desc(), w.desc());
    const values_t xv = values(x), wv = values(w);
    values_t out(static_cast<std::size_t>(n_n * o_n * oh * ow), 0.0);
    for (std::int64_t n = 0; n < n_n; ++n)
        for (std::int64_t grp = 0; grp < g_n; ++grp) {
            const std::int64_t rows = cg * kh * kw;
            values_t cols(static_cast<std::size_t>(rows * oh * ow), 0.0);
            for (std::int64_t ci = 0; ci < cg; ++ci)
                for (std::int64_t ky = 0; ky < kh; ++ky)
                    for (std::int64_t kx = 0; kx < kw; ++kx)
                        for (std::int64_t y = 0; y < oh; ++y)
                            for (std::int64_t xx = 0; xx < ow; ++xx) {
                                const std::int64_t iy =
                                    y * c.stride().h + ky * c.dilation().h - g.y.pad_before;
                                const std::int64_t ix =
                                    xx * c.stride().w + kx * c.dilation().w - g.x.pad_before;
                                if (iy < 0 || ix < 0 || iy >= h || ix >= wi) continue;
                                const std::int64_t row = (ci * kh + ky) * kw + kx;
                                cols[static_cast<std::size_t>(row * oh * ow + y * ow + xx)] =
                                    xv[static_cast<std::size_t>(
                                        ((n * c_n + grp * cg + ci) * h + iy) * wi + ix)];
                            }
            values_t wg(wv.begin() + grp * og * rows, wv.begin() + (grp + 1) * og * rows);
            const tensor prod =
                run1(op::gemm(), {make(shape{og, rows}, wg), make(shape{rows, oh * ow}, cols)});
            const values_t pv = values(prod);
            std::copy(pv.begin(), pv.end(), out.begin() + (n * o_n + grp * og) * oh * ow);
        }
    return out;
}

}  // namespace

TEST_CASE("conv2d: hand-computed 3x3 input, 2x2 ones kernel") {
    const tensor x = make(shape::nchw(1, 1, 3, 3), {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const tensor w = make(shape{1, 1, 2, 2}, {1, 1, 1, 1});
    const tensor y = run1(op::conv2d(), {x, w});
    CHECK(y.dims() == shape{1, 1, 2, 2});
    check_close(values(y), {12, 16, 24, 28});

    // Padding 1, stride 2: the windows at (-1,-1), (-1,1), (1,-1), (1,1).
    const tensor y2 = run1(op::conv2d().stride(2, 2).padding(1, 1, 1, 1), {x, w});
    CHECK(y2.dims() == shape{1, 1, 2, 2});
    check_close(values(y2), {1, 5, 11, 28});

    // Asymmetric padding: only the bottom row and the right column are padded.
    const tensor y3 = run1(op::conv2d().padding(0, 1, 0, 1), {x, w});
    CHECK(y3.dims() == shape{1, 1, 3, 3});
    check_close(values(y3), {12, 16, 9, 24, 28, 15, 15, 17, 9});
}

TEST_CASE("conv2d: cross-correlation (no kernel flip) and dilation by hand") {
    const tensor x = make(shape::nchw(1, 1, 1, 5), {1, 2, 3, 4, 5});
    const tensor w = make(shape{1, 1, 1, 2}, {10, 1});
    check_close(values(run1(op::conv2d(), {x, w})), {12, 23, 34, 45});
    // Dilation 2: taps at x and x+2.
    check_close(values(run1(op::conv2d().dilation(1, 2), {x, w})), {13, 24, 35});
}

TEST_CASE("conv2d equals im2col + gemm") {
    struct config {
        op::conv2d c;
        shape x, w;
    };
    const config configs[] = {
        {op::conv2d(), shape::nchw(1, 3, 5, 5), shape{4, 3, 3, 3}},
        {op::conv2d().stride(2, 1).padding(1, 0, 1, 1).dilation(1, 2), shape::nchw(2, 4, 7, 6),
         shape{5, 4, 3, 2}},
        {op::conv2d().stride(3, 2).padding(2, 1, 0, 2), shape::nchw(2, 2, 9, 8), shape{3, 2, 4, 3}},
        {op::conv2d().groups(2).stride(2, 2).padding(1, 1, 1, 1), shape::nchw(2, 4, 6, 7),
         shape{6, 2, 3, 3}},
        {op::conv2d().padding(padding_kind::same).stride(2, 2), shape::nchw(1, 3, 6, 5),
         shape{2, 3, 3, 3}},
        {op::conv2d().padding(padding_kind::valid).stride(2, 3).dilation(2, 1),
         shape::nchw(3, 2, 8, 9), shape{2, 2, 2, 3}},
        {op::conv2d().rounding_mode(output_rounding::ceil).stride(2, 2), shape::nchw(1, 2, 6, 7),
         shape{2, 2, 3, 3}},
    };
    std::uint64_t seed = 1;
    for (const auto& cfg : configs) {
        CAPTURE(seed);
        const tensor x = random_tensor(cfg.x, seed++);
        const tensor w = random_tensor(cfg.w, seed++);
        check_close(values(run1(cfg.c, {x, w})), conv_by_im2col(x, w, cfg.c), 1e-5);
    }
}

TEST_CASE("conv2d: 1x1 convolution equals fully_connected over the channels") {
    const std::int64_t n = 2, c = 5, h = 3, w = 4, o = 3;
    const tensor x = random_tensor(shape::nchw(n, c, h, w), 11);
    const tensor wt = random_tensor(shape{o, c, 1, 1}, 12);
    const tensor b = random_tensor(shape{o}, 13);
    const tensor y = run1(op::conv2d().bias(true), {x, wt, b});
    // Rows of the fully connected input are pixels: [n*h*w, c].
    const values_t xv = values(x);
    values_t rows;
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t p = 0; p < h * w; ++p)
            for (std::int64_t k = 0; k < c; ++k)
                rows.push_back(xv[static_cast<std::size_t>((i * c + k) * h * w + p)]);
    const tensor fc = run1(op::fully_connected().bias(true),
                           {make(shape{n * h * w, c}, rows), wt.reshape(shape{o, c}), b});
    const values_t fv = values(fc), yv = values(y);
    values_t expected(yv.size());
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t p = 0; p < h * w; ++p)
            for (std::int64_t k = 0; k < o; ++k)
                expected[static_cast<std::size_t>((i * o + k) * h * w + p)] =
                    fv[static_cast<std::size_t>((i * h * w + p) * o + k)];
    check_close(yv, expected);
}

TEST_CASE("conv2d: grouped convolution equals per-group convolutions, depthwise") {
    const std::int64_t c = 6, groups = 3, o = 9;
    const tensor x = random_tensor(shape::nchw(2, c, 5, 6), 21);
    const tensor w = random_tensor(shape{o, c / groups, 3, 3}, 22);
    const op::conv2d grouped =
        op::conv2d().groups(static_cast<int>(groups)).padding(1, 1, 0, 1).stride(1, 2);
    const tensor y = run1(grouped, {x, w});
    const values_t yv = values(y);
    const std::int64_t og = o / groups, plane = y.dims()[2] * y.dims()[3];
    for (std::int64_t g = 0; g < groups; ++g) {
        const tensor xg = x.view({0, g * (c / groups), 0, 0}, {2, c / groups, 5, 6}).clone();
        const tensor wg = w.view({g * og, 0, 0, 0}, {og, c / groups, 3, 3}).clone();
        const values_t part = values(run1(op::conv2d().padding(1, 1, 0, 1).stride(1, 2), {xg, wg}));
        for (std::int64_t n = 0; n < 2; ++n)
            for (std::int64_t k = 0; k < og * plane; ++k) {
                const double got = yv[static_cast<std::size_t>((n * o + g * og) * plane + k)];
                const double want = part[static_cast<std::size_t>(n * og * plane + k)];
                if (std::fabs(got - want) > 1e-9) FAIL("group " << g << " element " << k);
            }
    }
    // Depthwise (groups == C, one filter per channel) by hand: each channel scaled by its weight.
    const tensor xd = make(shape::nchw(1, 2, 2, 2), {1, 2, 3, 4, 5, 6, 7, 8});
    const tensor wd = make(shape{2, 1, 1, 1}, {2, -1});
    check_close(values(run1(op::conv2d().groups(2), {xd, wd})), {2, 4, 6, 8, -5, -6, -7, -8});
    // CLML's DEPTHWISE mode ignores the groups field; a channel multiplier of 2 gives 4 outputs.
    check_close(values(run1(op::conv2d().depthwise(), {xd, wd})), {2, 4, 6, 8, -5, -6, -7, -8});
    const tensor wm = make(shape{4, 1, 1, 1}, {1, 2, 3, 4});
    check_close(values(run1(op::conv2d().groups(7).depthwise(), {xd, wm})),
                {1, 2, 3, 4, 2, 4, 6, 8, 15, 18, 21, 24, 20, 24, 28, 32});
}

TEST_CASE("conv2d: transposed convolution is the adjoint of convolution") {
    struct config {
        op::conv2d c;
        shape x;  // input of the direct convolution
        shape w;  // [O, C/groups, KH, KW]
    };
    const config configs[] = {
        {op::conv2d().stride(2, 2).padding(1, 1, 1, 1), shape::nchw(2, 3, 7, 8), shape{4, 3, 3, 3}},
        {op::conv2d().stride(3, 2).padding(0, 2, 1, 0).dilation(2, 1), shape::nchw(1, 2, 11, 9),
         shape{3, 2, 2, 3}},
        {op::conv2d().groups(2).stride(2, 1).padding(1, 0, 2, 2), shape::nchw(2, 4, 6, 5),
         shape{6, 2, 3, 3}},
        {op::conv2d().padding(padding_kind::same).stride(2, 2), shape::nchw(1, 3, 8, 6),
         shape{2, 3, 3, 3}},
        {op::conv2d().padding(padding_kind::same).stride(3, 3), shape::nchw(1, 2, 6, 9),
         shape{2, 2, 2, 2}},
        {op::conv2d().padding(padding_kind::valid).stride(2, 2), shape::nchw(1, 2, 7, 9),
         shape{3, 2, 3, 3}},
    };
    std::uint64_t seed = 100;
    for (const auto& cfg : configs) {
        CAPTURE(seed);
        const tensor x = random_tensor(cfg.x, seed++);
        const tensor w = random_tensor(cfg.w, seed++);
        const tensor y = run1(cfg.c, {x, w});
        const tensor v = random_tensor(y.dims(), seed++);
        // The transposed op maps y's shape back to x's; output_padding picks the exact extent.
        op::conv2d t = cfg.c;
        t.transposed();
        if (t.padding() == padding_kind::explicit_) {
            const auto g = cfg.c.geometry(x.desc(), w.desc());
            const auto natural = [](std::int64_t in, std::int64_t k, int s, int d, int pb, int pa) {
                return (in - 1) * s - pb - pa + d * (k - 1) + 1;
            };
            t.output_padding(
                static_cast<int>(cfg.x[2] - natural(g.y.out, g.kh, t.stride().h, t.dilation().h,
                                                    t.pads().top, t.pads().bottom)),
                static_cast<int>(cfg.x[3] - natural(g.x.out, g.kw, t.stride().w, t.dilation().w,
                                                    t.pads().left, t.pads().right)));
        }
        const tensor xt = run1(t, {v, w});
        REQUIRE(xt.dims() == x.dims());
        const double lhs = dot(values(y), values(v));
        const double rhs = dot(values(x), values(xt));
        // f32 outputs: agreement to f32 precision.
        CHECK(lhs == doctest::Approx(rhs).epsilon(1e-5));
    }
}

TEST_CASE("conv2d: transposed convolution by hand (stride 2 upsampling)") {
    // 1x1x2x2 input, 2x2 kernel, stride 2: each input pixel paints a scaled copy of the kernel.
    const tensor x = make(shape::nchw(1, 1, 2, 2), {1, 2, 3, 4});
    const tensor w = make(shape{1, 1, 2, 2}, {1, 10, 100, 1000});
    const tensor y = run1(op::conv2d().transposed().stride(2, 2), {x, w});
    CHECK(y.dims() == shape{1, 1, 4, 4});
    check_close(values(y),
                {1, 10, 2, 20, 100, 1000, 200, 2000, 3, 30, 4, 40, 300, 3000, 400, 4000});
    // Output extent formula with padding and output_padding: (2-1)*2 - 1 - 0 + 2 + 1 = 4.
    const auto d = op::conv2d()
                       .transposed()
                       .stride(2, 2)
                       .padding(1, 0, 1, 0)
                       .output_padding(1, 1)
                       .infer({x.desc(), w.desc()});
    CHECK(d[0].dims() == shape{1, 1, 4, 4});
    // Transposed weights are [C, O/groups, KH, KW]: C = 1 input channel, 3 output channels.
    const auto d3 =
        op::conv2d().transposed().infer({x.desc(), tensor_desc(shape{1, 3, 2, 2}, dtype::f32)});
    CHECK(d3[0].dims() == shape{1, 3, 3, 3});
}

TEST_CASE("conv2d: fused bias, batchnorm and activation equal the unfused ops") {
    const std::int64_t o = 4;
    const tensor x = random_tensor(shape::nchw(2, 3, 6, 5), 31);
    const tensor w = random_tensor(shape{o, 3, 3, 3}, 32);
    const tensor b = random_tensor(shape{o}, 33);
    const tensor mean = random_tensor(shape{o}, 34);
    const tensor var = random_tensor(shape{o}, 35, 0.5, 2.0);
    const tensor scale = random_tensor(shape{o}, 36);
    const tensor shift = random_tensor(shape{o}, 37);
    const op::conv2d base = op::conv2d().padding(1, 1, 1, 1).bias(true);
    const tensor conv = run1(base, {x, w, b});
    const op::batchnorm bn = op::batchnorm().eps(1e-3f);
    const tensor normed = run1(bn, {conv, mean, var, scale, shift});

    op::conv2d fused = base;
    fused.batchnorm(true, 1e-3f);
    check_close(values(run1(fused, {x, w, b, mean, var, scale, shift})), values(normed), 1e-5);

    fused.fuse(activation_kind::relu);
    values_t relu = values(normed);
    for (auto& v : relu) v = v > 0 ? v : 0;
    check_close(values(run1(fused, {x, w, b, mean, var, scale, shift})), relu, 1e-5);

    // PReLU takes a per-channel slope as the last input.
    const tensor slope = make(shape{o}, {0.1, 0.2, 0.3, 0.4});
    fused.fuse(activation_kind::prelu);
    values_t prelu = values(normed);
    const std::int64_t plane = conv.dims()[2] * conv.dims()[3];
    for (std::size_t i = 0; i < prelu.size(); ++i) {
        const auto c = static_cast<std::size_t>(static_cast<std::int64_t>(i) / plane % o);
        if (prelu[i] < 0) prelu[i] *= 0.1 * static_cast<double>(c + 1);
    }
    check_close(values(run1(fused, {x, w, b, mean, var, scale, shift, slope})), prelu, 1e-5);
}

TEST_CASE("conv2d: per-location bias [O, OH, OW]") {
    const tensor x = make(shape::nchw(1, 1, 2, 2), {1, 2, 3, 4});
    const tensor w = make(shape{2, 1, 1, 1}, {1, 2});
    const tensor b = make(shape{2, 2, 2}, {10, 20, 30, 40, 50, 60, 70, 80});
    check_close(values(run1(op::conv2d().bias(), {x, w, b})), {11, 22, 33, 44, 52, 64, 76, 88});
}

TEST_CASE("conv2d: SAME, VALID and ceil rounding geometry") {
    const tensor_desc w3(shape{1, 1, 3, 3}, dtype::f32);
    const auto out = [&](const op::conv2d& c, std::int64_t h, std::int64_t w) {
        return c.infer({tensor_desc(shape::nchw(1, 1, h, w), dtype::f32), w3})[0].dims();
    };
    // zDNN SAME: out = ceil(in / stride).
    CHECK(out(op::conv2d().padding(padding_kind::same).stride(2, 2), 5, 6) == shape{1, 1, 3, 3});
    CHECK(out(op::conv2d().padding(padding_kind::same).stride(1, 1), 5, 6) == shape{1, 1, 5, 6});
    // zDNN VALID: out = ceil((in - k + 1) / stride).
    CHECK(out(op::conv2d().padding(padding_kind::valid).stride(2, 2), 5, 6) == shape{1, 1, 2, 2});
    CHECK(out(op::conv2d().padding(padding_kind::valid).stride(3, 3), 7, 9) == shape{1, 1, 2, 3});
    // OpenVX floor/ceil: (6 - 3) / 2 + 1 -> 2 or 3.
    CHECK(out(op::conv2d().stride(2, 2), 6, 6) == shape{1, 1, 2, 2});
    CHECK(out(op::conv2d().stride(2, 2).rounding_mode(output_rounding::ceil), 6, 6) ==
          shape{1, 1, 3, 3});
    CHECK(out(op::conv2d().stride(2, 2).rounding_mode(output_rounding::ceil), 7, 7) ==
          shape{1, 1, 3, 3});

    // SAME with an odd total pad puts the extra row at the bottom: equal to explicit (0, 1).
    const tensor x = random_tensor(shape::nchw(1, 2, 6, 6), 41);
    const tensor w = random_tensor(shape{2, 2, 3, 3}, 42);
    check_close(values(run1(op::conv2d().padding(padding_kind::same).stride(2, 2), {x, w})),
                values(run1(op::conv2d().padding(0, 1, 0, 1).stride(2, 2), {x, w})), 1e-12);
    // Ceil rounding: the extra window reads the zero overhang.
    const tensor xs = make(shape::nchw(1, 1, 1, 6), {1, 2, 3, 4, 5, 6});
    const tensor ws = make(shape{1, 1, 1, 3}, {1, 1, 1});
    check_close(
        values(run1(op::conv2d().stride(1, 2).rounding_mode(output_rounding::ceil), {xs, ws})),
        {6, 12, 11});
}
