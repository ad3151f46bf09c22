// test_layers_spatial.cpp: the shipped BinaryConvolution, Correlate and SpatialTransform layers
// against float64 host references, with fp16 tolerances (inputs rounded to half first).
#include <doctest/doctest.h>

#include <cmath>

#include "myriad/runtime.h"
#include "myriad_test_support.h"

using namespace myriad;
using myriad_test::check_close;
using myriad_test::random_values;
using myriad_test::runtime;
using myriad_test::to_half;

namespace {

std::size_t at(const Shape& s, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
    return static_cast<std::size_t>(((n * s[1] + c) * s[2] + h) * s[3] + w);
}

}  // namespace

TEST_CASE("layers: BinaryConvolution with packed weights, padding, stride, dilation and groups") {
    struct geometry {
        int kernel, stride, pad, dilation, group;
        float pad_value;
    };
    for (const geometry& g : {geometry{3, 1, 1, 1, 1, 1.0f}, geometry{3, 2, 1, 1, 2, 0.0f},
                              geometry{1, 1, 0, 1, 1, 0.0f}, geometry{3, 1, 2, 2, 1, -1.0f}}) {
        CAPTURE(g.kernel);
        CAPTURE(g.stride);
        CAPTURE(g.group);
        const Shape in_shape{2, 4, 7, 6};
        const int C = 4, O = 6, K = g.kernel, ext = g.dilation * (K - 1) + 1;
        const int OH = (7 + 2 * g.pad - ext) / g.stride + 1,
                  OW = (6 + 2 * g.pad - ext) / g.stride + 1;
        const Shape out_shape{2, O, OH, OW};
        const auto in = to_half(random_values(2 * 4 * 7 * 6, -1, 1, 31));
        const int gin = C / g.group, gout = O / g.group;
        const std::size_t bits = static_cast<std::size_t>(O * gin * K * K);
        std::vector<int> w(bits);
        std::vector<float> packed((bits + 7) / 8, 0.0f);
        unsigned state = 77;
        for (std::size_t i = 0; i < bits; ++i) {
            state = state * 1103515245u + 12345u;
            w[i] = (state >> 16) & 1;
            packed[i / 8] += static_cast<float>(w[i] << (i % 8));
        }
        std::vector<double> want;
        for (int b = 0; b < 2; ++b)
            for (int oc = 0; oc < O; ++oc)
                for (int oh = 0; oh < OH; ++oh)
                    for (int ow = 0; ow < OW; ++ow) {
                        double dot = 0;  // of +-1 values
                        const int grp = oc / gout;
                        for (int ic = 0; ic < gin; ++ic)
                            for (int kh = 0; kh < K; ++kh)
                                for (int kw = 0; kw < K; ++kw) {
                                    const int ih = oh * g.stride - g.pad + kh * g.dilation;
                                    const int iw = ow * g.stride - g.pad + kw * g.dilation;
                                    const bool inside = ih >= 0 && ih < 7 && iw >= 0 && iw < 6;
                                    const double x =
                                        inside ? in[at(in_shape, b, grp * gin + ic, ih, iw)]
                                               : g.pad_value;
                                    const double xs = x > 0 ? 1 : -1;
                                    const double ws = w[static_cast<std::size_t>(
                                                          ((oc * gin + ic) * K + kh) * K + kw)]
                                                          ? 1
                                                          : -1;
                                    dot += xs * ws;
                                }
                        want.push_back(dot);
                    }
        const std::string k = std::to_string(K) + "," + std::to_string(K);
        auto pair = [](int v) { return std::to_string(v) + "," + std::to_string(v); };
        LayerSpec spec{"BinaryConvolution",
                       {{"mode", "xnor-popcount"},
                        {"pad_value", std::to_string(g.pad_value)},
                        {"kernel", k},
                        {"strides", pair(g.stride)},
                        {"pads_begin", pair(g.pad)},
                        {"pads_end", pair(g.pad)},
                        {"dilations", pair(g.dilation)},
                        {"group", std::to_string(g.group)}},
                       {in_shape},
                       {},
                       out_shape,
                       {}};
        spec.blobs["weights"] =
            HostTensor{{static_cast<std::int64_t>(packed.size())}, Layout::BFYX, packed};
        Layer layer = runtime().create_layer(spec);
        CHECK(layer.binding().stages[0].entry == "binary_convolution");
        check_close(layer.run({{in_shape, Layout::BFYX, in}}).values, want, 0, 0);
    }
    CHECK_THROWS_WITH_AS(
        runtime().create_layer(LayerSpec{
            "BinaryConvolution", {{"mode", "other"}}, {{1, 1, 3, 3}}, {}, {1, 1, 3, 3}, {}}),
        doctest::Contains("Where does not hold"), tessera::error);
}

TEST_CASE("layers: Correlate (work sizes from layer parameters)") {
    struct params {
        int kernel_size, max_displacement, pad, stride1, stride2;
    };
    for (const params& p : {params{1, 2, 2, 1, 1}, params{3, 2, 3, 2, 2}}) {
        CAPTURE(p.kernel_size);
        const int B = 2, C = 3, H = 7, W = 9;
        const Shape shape{B, C, H, W};
        const auto a = to_half(random_values(B * C * H * W, -1, 1, 32));
        const auto d = to_half(random_values(B * C * H * W, -1, 1, 33));
        const int kr = (p.kernel_size - 1) / 2, border = p.max_displacement + kr;
        const int TW = (W + 2 * p.pad - 2 * border + p.stride1 - 1) / p.stride1;
        const int TH = (H + 2 * p.pad - 2 * border + p.stride1 - 1) / p.stride1;
        const int r = p.max_displacement / p.stride2, G = 2 * r + 1;
        const Shape out_shape{B, G * G, TH, TW};
        std::vector<double> want;
        for (int b = 0; b < B; ++b)
            for (int tc = 0; tc < G * G; ++tc)
                for (int y = 0; y < TH; ++y)
                    for (int x = 0; x < TW; ++x) {
                        const int dx = (tc % G - r) * p.stride2, dy = (tc / G - r) * p.stride2;
                        double sum = 0;
                        for (int c = 0; c < C; ++c)
                            for (int j = 0; j < p.kernel_size; ++j)
                                for (int i = 0; i < p.kernel_size; ++i) {
                                    // padded coordinates: the patch's top left is (x1, y1)
                                    const int xa = x * p.stride1 + p.max_displacement + i - p.pad;
                                    const int ya = y * p.stride1 + p.max_displacement + j - p.pad;
                                    const int xb = xa + dx, yb = ya + dy;
                                    if (xa < 0 || xa >= W || ya < 0 || ya >= H || xb < 0 ||
                                        xb >= W || yb < 0 || yb >= H)
                                        continue;
                                    sum += double(a[at(shape, b, c, ya, xa)]) *
                                           d[at(shape, b, c, yb, xb)];
                                }
                        want.push_back(sum / (p.kernel_size * p.kernel_size * C));
                    }
        Layer layer = runtime().create_layer(
            LayerSpec{"Correlate",
                      {{"kernel_size", std::to_string(p.kernel_size)},
                       {"max_displacement", std::to_string(p.max_displacement)},
                       {"pad", std::to_string(p.pad)},
                       {"stride_1", std::to_string(p.stride1)},
                       {"stride_2", std::to_string(p.stride2)}},
                      {shape, shape},
                      {},
                      out_shape,
                      {}});
        CHECK(layer.global_sizes()[0] ==
              std::array<std::size_t, 3>{static_cast<std::size_t>(TW), static_cast<std::size_t>(TH),
                                         static_cast<std::size_t>(B * G * G)});
        check_close(layer.run({{shape, Layout::BFYX, a}, {shape, Layout::BFYX, d}}).values, want,
                    2e-3, 4e-3);
    }
}

TEST_CASE("layers: SpatialTransform (affine theta, bilinear, zero outside)") {
    const int B = 2, C = 3, H = 6, W = 7, OH = 5, OW = 8;
    const Shape shape{B, C, H, W};
    const auto in = to_half(random_values(B * C * H * W, -2, 2, 34));
    // batch 0: a rotation-and-shift that samples partly outside; batch 1: identity-like zoom.
    const std::vector<float> theta = to_half(std::vector<float>{
        0.8f, -0.3f, 0.15f, 0.25f, 0.9f, -0.2f, 0.5f, 0.0f, 0.0f, 0.0f, 0.5f, 0.1f});
    std::vector<double> want;
    for (int b = 0; b < B; ++b)
        for (int c = 0; c < C; ++c)
            for (int y = 0; y < OH; ++y)
                for (int x = 0; x < OW; ++x) {
                    const double* t = nullptr;
                    double th[6];
                    for (int k = 0; k < 6; ++k) th[k] = theta[static_cast<std::size_t>(b * 6 + k)];
                    t = th;
                    const double xt = -1.0 + 2.0 * x / (OW - 1), yt = -1.0 + 2.0 * y / (OH - 1);
                    const double xs = t[0] * xt + t[1] * yt + t[2];
                    const double ys = t[3] * xt + t[4] * yt + t[5];
                    const double px = (xs + 1) * 0.5 * (W - 1), py = (ys + 1) * 0.5 * (H - 1);
                    const int x0 = static_cast<int>(std::floor(px)),
                              y0 = static_cast<int>(std::floor(py));
                    const double fx = px - x0, fy = py - y0;
                    double v = 0;
                    for (int k = 0; k < 4; ++k) {
                        const int xi = x0 + (k & 1), yi = y0 + (k >> 1);
                        const double wgt = ((k & 1) ? fx : 1 - fx) * ((k >> 1) ? fy : 1 - fy);
                        if (xi >= 0 && xi < W && yi >= 0 && yi < H)
                            v += wgt * in[at(shape, b, c, yi, xi)];
                    }
                    want.push_back(v);
                }
    for (const Shape& theta_shape : {Shape{B, 6}, Shape{B, 2, 3}}) {
        CAPTURE(theta_shape.size());
        Layer layer = runtime().create_layer(
            LayerSpec{"SpatialTransform", {}, {shape, theta_shape}, {}, {B, C, OH, OW}, {}});
        const Layout theta_layout = theta_shape.size() == 2 ? Layout::BF : Layout::FYX;
        check_close(
            layer.run({{shape, Layout::BFYX, in}, {theta_shape, theta_layout, theta}}).values, want,
            4e-3, 4e-3);
    }
}
