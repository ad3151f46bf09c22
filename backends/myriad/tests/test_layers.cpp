// test_layers.cpp -- the shipped standard layers against float64 host references, with fp16
// tolerances (inputs are rounded to half first, as the device stores them).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "myriad/runtime.h"
#include "myriad_test_support.h"

using namespace myriad;
using myriad_test::check_close;
using myriad_test::random_values;
using myriad_test::runtime;
using myriad_test::to_half;

namespace {

std::size_t idx(const Shape& s, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
    return static_cast<std::size_t>(((n * s[1] + c) * s[2] + h) * s[3] + w);
}

std::vector<double> reorg_ref(const std::vector<float>& in, const Shape& is, int stride) {
    const Shape os{is[0], is[1] * stride * stride, is[2] / stride, is[3] / stride};
    std::vector<double> out(in.size());
    for (std::int64_t n = 0; n < os[0]; ++n)
        for (std::int64_t c = 0; c < os[1]; ++c)
            for (std::int64_t h = 0; h < os[2]; ++h)
                for (std::int64_t w = 0; w < os[3]; ++w) {
                    const std::int64_t offset = c / is[1];
                    out[idx(os, n, c, h, w)] =
                        in[idx(is, n, c % is[1], h * stride + offset / stride,
                               w * stride + offset % stride)];
                }
    return out;
}

std::vector<double> as_double(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("layers: GRN") {
    const Shape shape{2, 5, 3, 7};
    const auto in = to_half(random_values(210, -2, 2, 11));
    Layer layer =
        runtime().create_layer(LayerSpec{"GRN", {{"bias", "1.0"}}, {shape}, {}, shape, {}});
    CHECK(layer.precision() ==
          (runtime().device_has_fp16() ? Precision::fp16 : Precision::fp32_promoted));
    std::vector<double> want(in.size());
    for (std::int64_t n = 0; n < 2; ++n)
        for (std::int64_t h = 0; h < 3; ++h)
            for (std::int64_t w = 0; w < 7; ++w) {
                double var = 1.0;
                for (std::int64_t c = 0; c < 5; ++c)
                    var += std::pow(double(in[idx(shape, n, c, h, w)]), 2);
                for (std::int64_t c = 0; c < 5; ++c)
                    want[idx(shape, n, c, h, w)] = in[idx(shape, n, c, h, w)] / std::sqrt(var);
            }
    check_close(layer.run({{shape, Layout::BFYX, in}}).values, want, 2e-3, 4e-3);
}

TEST_CASE("layers: ReorgYolo / BFYX and BYXF bindings chosen by the input layout") {
    for (const Shape& in_shape : {Shape{1, 4, 6, 8}, Shape{2, 3, 8, 4}}) {
        const int stride = 2;
        const Shape out_shape{in_shape[0], in_shape[1] * 4, in_shape[2] / 2, in_shape[3] / 2};
        const std::size_t n =
            static_cast<std::size_t>(in_shape[0] * in_shape[1] * in_shape[2] * in_shape[3]);
        const auto in = to_half(random_values(n, -8, 8, 12));
        const std::vector<double> want = reorg_ref(in, in_shape, stride);

        Layer planar = runtime().create_layer(
            LayerSpec{"ReorgYolo", {{"stride", "2"}}, {in_shape}, {Layout::BFYX}, out_shape, {}});
        CHECK(planar.binding().stages[0].entry == "reorg_chw");
        check_close(planar.run({{in_shape, Layout::BFYX, in}}).values, want, 0, 0);

        Layer interleaved = runtime().create_layer(
            LayerSpec{"ReorgYolo", {{"stride", "2"}}, {in_shape}, {Layout::BYXF}, out_shape, {}});
        CHECK(interleaved.binding().stages[0].entry == "reorg_nhwc");
        CHECK_FALSE(interleaved.converts_input_layouts());
        const HostTensor out = interleaved.run(
            {{in_shape, Layout::BYXF, myriad_test::nchw_to_nhwc(in, in_shape)}}, Layout::BFYX);
        check_close(out.values, want, 0, 0);
    }
}

TEST_CASE("layers: ShuffleChannels (and the ShuffleChannel spelling)") {
    const Shape shape{2, 6, 3, 5};
    const auto in = to_half(random_values(180, -8, 8, 13));
    std::vector<double> want(in.size());
    const int group = 3;
    for (std::int64_t n = 0; n < 2; ++n)
        for (std::int64_t c = 0; c < 6; ++c)
            for (std::int64_t h = 0; h < 3; ++h)
                for (std::int64_t w = 0; w < 5; ++w)
                    want[idx(shape, n, c, h, w)] =
                        in[idx(shape, n, (c % group) * (6 / group) + c / group, h, w)];
    for (const char* type : {"ShuffleChannels", "ShuffleChannel"}) {
        Layer layer = runtime().create_layer(
            LayerSpec{type, {{"axis", "1"}, {"group", "3"}}, {shape}, {}, shape, {}});
        check_close(layer.run({{shape, Layout::BFYX, in}}).values, want, 0, 0);
    }
    CHECK_THROWS_WITH_AS(
        runtime().create_layer(
            LayerSpec{"ShuffleChannels", {{"axis", "2"}, {"group", "3"}}, {shape}, {}, shape, {}}),
        doctest::Contains("Where does not hold"), tessera::error);
}

TEST_CASE("layers: MVN in two stages (across channels or not / with or without variance)") {
    const Shape shape{2, 3, 5, 7};
    const auto in = to_half(random_values(210, -3, 5, 14));
    for (int across = 0; across < 2; ++across)
        for (int normalize = 0; normalize < 2; ++normalize) {
            CAPTURE(across);
            CAPTURE(normalize);
            Layer layer =
                runtime().create_layer(LayerSpec{"MVN",
                                                 {{"across_channels", std::to_string(across)},
                                                  {"normalize_variance", std::to_string(normalize)},
                                                  {"eps", "1e-5"}},
                                                 {shape},
                                                 {},
                                                 shape,
                                                 {}});
            CHECK(layer.binding().stages.size() == 2);
            std::vector<double> want(in.size());
            for (std::int64_t n = 0; n < 2; ++n)
                for (std::int64_t c0 = 0; c0 < 3; ++c0) {
                    const std::int64_t c_lo = across ? 0 : c0, c_hi = across ? 3 : c0 + 1;
                    double sum = 0, count = 0;
                    for (std::int64_t c = c_lo; c < c_hi; ++c)
                        for (std::int64_t i = 0; i < 35; ++i, ++count)
                            sum += in[idx(shape, n, c, 0, 0) + i];
                    const double mean = sum / count;
                    double var = 0;
                    for (std::int64_t c = c_lo; c < c_hi; ++c)
                        for (std::int64_t i = 0; i < 35; ++i)
                            var += std::pow(in[idx(shape, n, c, 0, 0) + i] - mean, 2);
                    var /= count;
                    for (std::int64_t i = 0; i < 35; ++i) {
                        const double v = in[idx(shape, n, c0, 0, 0) + i] - mean;
                        want[idx(shape, n, c0, 0, 0) + i] =
                            normalize ? v / std::sqrt(var + 1e-5) : v;
                    }
                }
            check_close(layer.run({{shape, Layout::BFYX, in}}).values, want, 4e-3, 4e-3);
        }
}

TEST_CASE("layers: Convert u8 to f16 / any layout / with a tail shorter than 8") {
    for (Layout layout : {Layout::BFYX, Layout::BYXF}) {
        const Shape shape{1, 3, 5, 7};
        std::vector<float> in(105);
        for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 37) % 256);
        Layer layer = runtime().create_layer(
            LayerSpec{"Convert", {{"destination_type", "f16"}}, {shape}, {layout}, shape, {}});
        CHECK(layer.input_dtype(0) == DType::u8);
        CHECK(layer.output_dtype() == DType::f16);
        CHECK_FALSE(layer.converts_input_layouts());
        check_close(layer.run({{shape, layout, in}}, layout).values, as_double(in), 0, 0);
    }
    CHECK_THROWS_AS(runtime().create_layer(LayerSpec{
                        "Convert", {{"destination_type", "f32"}}, {{1, 8}}, {}, {1, 8}, {}}),
                    tessera::error);
}

TEST_CASE("layers: a user's binding overrides the shipped one of the same type") {
    myriad_test::ScratchDir dir("layers_override");
    dir.write(
        "double.cl",
        "__kernel void twice(__global const half* src, __global half* dst, int C, float bias)"
        " { const int i = get_global_id(0); vstore_half(2.0f * vload_half(i, src), i, dst); }\n");
    dir.write("grn.xml", R"(<CustomLayer name="grn" type="MVCL" version="1">
  <Kernel entry="twice"><Source filename="double.cl"/></Kernel>
  <Parameters>
    <Tensor arg-name="src" type="input" port-index="0"/>
    <Tensor arg-name="dst" type="output" port-index="0"/>
    <Scalar arg-name="C" type="int" port-index="0" source="I.F"/>
    <Scalar arg-name="bias" type="float" source="bias"/>
  </Parameters>
  <WorkSizes dim="input,0" global="B*F*Y*X"/>
</CustomLayer>
)");
    Runtime rt(myriad_test::device_index());
    REQUIRE(rt.bindings_for("GRN").size() == 1);  // the shipped one
    rt.load_bindings(dir.path() + "/grn.xml");
    REQUIRE(rt.bindings_for("GRN").size() == 2);
    const Shape shape{1, 2, 2, 2};
    const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8};
    Layer layer = rt.create_layer(LayerSpec{"GRN", {{"bias", "1"}}, {shape}, {}, shape, {}});
    CHECK(layer.binding().file == dir.path() + "/grn.xml");
    check_close(layer.run({{shape, Layout::BFYX, in}}).values, {2, 4, 6, 8, 10, 12, 14, 16}, 0, 0);
}

TEST_CASE("layers: every shipped bindings file parses and names an existing kernel") {
    Runtime rt(myriad_test::device_index());
    const std::string device = "device: " + rt.device_name() +
                               (rt.device_has_fp16() ? " (cl_khr_fp16)" : " (no cl_khr_fp16)");
    MESSAGE(device);
    for (const char* type :
         {"GRN", "ReorgYolo", "ShuffleChannels", "ShuffleChannel", "MVN", "Convert"})
        CHECK_MESSAGE(rt.has_binding(type), type);
}

namespace {
double logistic(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}
}  // namespace

TEST_CASE("layers: RegionYolo with do_softmax 1 (softmax classes) and 0 (logistic classes)") {
    const int coords = 4, classes = 3, entries = coords + classes + 1;
    for (int softmax = 0; softmax < 2; ++softmax) {
        CAPTURE(softmax);
        const int regions = softmax ? 2 : 3;
        const Shape shape{2, regions * entries, 3, 4};
        const std::size_t n = static_cast<std::size_t>(2 * regions * entries * 12);
        const auto in = to_half(random_values(n, -4, 4, 15));
        std::vector<double> want(n);
        for (int b = 0; b < 2; ++b)
            for (int r = 0; r < regions; ++r)
                for (int i = 0; i < 12; ++i) {
                    auto at = [&](int k) {
                        return static_cast<std::size_t>(((b * regions + r) * entries + k) * 12 + i);
                    };
                    for (int k = 0; k < coords; ++k)
                        want[at(k)] = k < 2 ? logistic(in[at(k)]) : in[at(k)];
                    want[at(coords)] = logistic(in[at(coords)]);
                    double largest = -1e30, sum = 0;
                    for (int c = 0; c < classes; ++c)
                        largest = std::max(largest, double(in[at(coords + 1 + c)]));
                    for (int c = 0; c < classes; ++c)
                        sum += std::exp(in[at(coords + 1 + c)] - largest);
                    for (int c = 0; c < classes; ++c)
                        want[at(coords + 1 + c)] =
                            softmax ? std::exp(in[at(coords + 1 + c)] - largest) / sum
                                    : logistic(in[at(coords + 1 + c)]);
                }
        const Shape out_shape = softmax ? Shape{2, static_cast<std::int64_t>(n / 2)} : shape;
        Layer layer = runtime().create_layer(LayerSpec{"RegionYolo",
                                                       {{"coords", "4"},
                                                        {"classes", "3"},
                                                        {"num", "2"},
                                                        {"do_softmax", std::to_string(softmax)},
                                                        {"mask", "0,1,2"}},
                                                       {shape},
                                                       {},
                                                       out_shape,
                                                       {}});
        CHECK(layer.binding().stages[0].entry == (softmax ? "region_softmax" : "region_logistic"));
        CHECK(layer.global_sizes()[0] ==
              std::array<std::size_t, 3>{12, static_cast<std::size_t>(regions), 2});
        check_close(layer.run({{shape, Layout::BFYX, in}}).values, want, 2e-3, 2e-3);
    }
}

TEST_CASE("layers: FakeQuantize with per-channel input range and scalar output range") {
    const Shape shape{2, 3, 4, 5};
    const auto in = to_half(random_values(120, -3, 3, 16));
    const std::vector<float> il{-1.0f, -2.0f, -0.5f}, ih{1.0f, 2.0f, 2.5f};
    const std::vector<float> ol{-1.0f}, oh{3.0f};
    const int levels = 5;
    std::vector<double> want(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const std::size_t c = i / 20 % 3;
        const double x = in[i], lo = il[c], hi = ih[c];
        double r;
        if (x <= std::min(lo, hi))
            r = ol[0];
        else if (x > std::max(lo, hi))
            r = oh[0];
        else
            r = std::round((x - lo) / (hi - lo) * (levels - 1)) / (levels - 1) * (oh[0] - ol[0]) +
                ol[0];
        want[i] = r;
    }
    Layer layer = runtime().create_layer(LayerSpec{"FakeQuantize",
                                                   {{"levels", "5"}},
                                                   {shape, {1, 3, 1, 1}, {1, 3, 1, 1}, {1}, {1}},
                                                   {},
                                                   shape,
                                                   {}});
    const HostTensor out = layer.run({{shape, Layout::BFYX, in},
                                      {{1, 3, 1, 1}, Layout::BFYX, il},
                                      {{1, 3, 1, 1}, Layout::BFYX, ih},
                                      {{1}, Layout::BFYX, ol},
                                      {{1}, Layout::BFYX, oh}});
    check_close(out.values, want, 1e-3, 1e-3);
}

TEST_CASE("layers: Resample nearest with round(Y*factor) work sizes") {
    const Shape in_shape{1, 2, 3, 5};
    const Shape out_shape{1, 2, 5, 8};  // round(3*1.6) x round(5*1.6)
    const auto in = to_half(random_values(30, -4, 4, 17));
    std::vector<double> want;
    for (int c = 0; c < 2; ++c)
        for (int oy = 0; oy < 5; ++oy)
            for (int ox = 0; ox < 8; ++ox) {
                const int iy = std::min(static_cast<int>(std::floor(oy * 3.0 / 5)), 2);
                const int ix = std::min(static_cast<int>(std::floor(ox * 5.0 / 8)), 4);
                want.push_back(in[static_cast<std::size_t>((c * 3 + iy) * 5 + ix)]);
            }
    Layer layer = runtime().create_layer(LayerSpec{
        "Resample",
        {{"factor", "1.6"}, {"type", "caffe.ResampleParameter.NEAREST"}, {"antialias", "0"}},
        {in_shape},
        {},
        out_shape,
        {}});
    CHECK(layer.global_sizes()[0] == std::array<std::size_t, 3>{8, 5, 2});
    check_close(layer.run({{in_shape, Layout::BFYX, in}}).values, want, 0, 0);
    CHECK_THROWS_AS(
        runtime().create_layer(LayerSpec{
            "Resample",
            {{"factor", "2"}, {"type", "caffe.ResampleParameter.CUBIC"}, {"antialias", "0"}},
            {in_shape},
            {},
            {1, 2, 6, 10},
            {}}),
        tessera::error);
}

namespace {

/// OpenVINO's antialiased resampling of one axis: the (input index, weight) pairs of output o
/// for input size in and output size out (see resample_antialias.cl), in double.
std::vector<std::pair<int, double>> antialias_taps(int o, int in, int out) {
    const double f = static_cast<double>(in) / out, a = 1.0 / f;
    const double c = o * f + f / 2 - 0.5;
    const int r = f < 1.0 ? 2 : static_cast<int>(std::ceil(2.0 * f));
    const int center = static_cast<int>(std::round(c));
    std::vector<std::pair<int, double>> taps;
    for (int i = std::max(center - r, 0); i <= std::min(center + r, in - 1); ++i)
        taps.emplace_back(i, a * std::max(0.0, 1.0 - std::abs(a * (c - i))));
    return taps;
}

/// The antialiased Resample of a B x C x IH x IW tensor to OH x OW, in double.
std::vector<double> antialias_reference(const std::vector<float>& in, int planes, int ih, int iw,
                                        int oh, int ow) {
    std::vector<double> out;
    for (int p = 0; p < planes; ++p)
        for (int oy = 0; oy < oh; ++oy)
            for (int ox = 0; ox < ow; ++ox) {
                double sum = 0, wsum = 0;
                for (const auto& ty : antialias_taps(oy, ih, oh))
                    for (const auto& tx : antialias_taps(ox, iw, ow)) {
                        const double w = ty.second * tx.second;
                        sum +=
                            w * in[static_cast<std::size_t>((p * ih + ty.first) * iw + tx.first)];
                        wsum += w;
                    }
                out.push_back(wsum == 0 ? 0.0 : sum / wsum);
            }
    return out;
}

LayerSpec antialias_spec(const std::string& factor, const Shape& in, const Shape& out) {
    return LayerSpec{
        "Resample",
        {{"factor", factor}, {"type", "caffe.ResampleParameter.NEAREST"}, {"antialias", "1"}},
        {in},
        {},
        out,
        {}};
}

}  // namespace

TEST_CASE("layers: Resample with antialias (hand-computed row, float64 reference)") {
    // A 2x downscale of the row 1 2 3 4: output 0 samples at 0.5 with weights 0.75 0.75 0.25 on
    // inputs 0 1 2; output 1 at 2.5 with 0.25 0.75 0.75 on inputs 1 2 3 (radius 4, a = 0.5).
    Layer row = runtime().create_layer(antialias_spec("0.5", {1, 1, 1, 4}, {1, 1, 1, 2}));
    CHECK(row.binding().stages[0].entry == "resample_antialias");
    CHECK(row.global_sizes()[0] == std::array<std::size_t, 3>{2, 1, 1});
    check_close(row.run({{{1, 1, 1, 4}, Layout::BFYX, {1, 2, 3, 4}}}).values,
                {3.0 / 1.75, 5.75 / 1.75}, 2e-3, 1e-3);
    struct Case {
        const char* factor;
        Shape in, out;
    };
    const Case cases[] = {
        {"0.5", {1, 2, 8, 10}, {1, 2, 4, 5}},   // downscale by 2
        {"0.6", {2, 3, 7, 11}, {2, 3, 4, 7}},   // round(4.2) x round(6.6), f differs per axis
        {"0.25", {1, 1, 9, 16}, {1, 1, 2, 4}},  // wide radius: ceil(2 * 4.5) rows
        {"1.5", {1, 2, 4, 6}, {1, 2, 6, 9}},    // upscale: radius 2
    };
    for (const Case& c : cases) {
        CAPTURE(c.factor);
        const int planes = static_cast<int>(c.in[0] * c.in[1]);
        const auto in =
            to_half(random_values(static_cast<std::size_t>(planes * c.in[2] * c.in[3]), -4, 4, 29));
        Layer layer = runtime().create_layer(antialias_spec(c.factor, c.in, c.out));
        CHECK(layer.global_sizes()[0] ==
              std::array<std::size_t, 3>{static_cast<std::size_t>(c.out[3]),
                                         static_cast<std::size_t>(c.out[2]),
                                         static_cast<std::size_t>(planes)});
        check_close(
            layer.run({{c.in, Layout::BFYX, in}}).values,
            antialias_reference(in, planes, static_cast<int>(c.in[2]), static_cast<int>(c.in[3]),
                                static_cast<int>(c.out[2]), static_cast<int>(c.out[3])),
            1e-2, 2e-3);
    }
}

namespace {

/// The half-pixel source coordinate of output o (input size in, output size out), clamped to the
/// image, in double.
double linear_source(int o, int in, int out) {
    const double c = (o + 0.5) * in / out - 0.5;
    return std::min(std::max(c, 0.0), static_cast<double>(in - 1));
}

/// Resample LINEAR without antialias of planes x IH x IW to OH x OW, in double.
std::vector<double> linear_reference(const std::vector<float>& in, int planes, int ih, int iw,
                                     int oh, int ow) {
    std::vector<double> out;
    for (int p = 0; p < planes; ++p)
        for (int oy = 0; oy < oh; ++oy)
            for (int ox = 0; ox < ow; ++ox) {
                const double sy = linear_source(oy, ih, oh), sx = linear_source(ox, iw, ow);
                const int y0 = static_cast<int>(sy), x0 = static_cast<int>(sx);
                const int y1 = std::min(y0 + 1, ih - 1), x1 = std::min(x0 + 1, iw - 1);
                const double fy = sy - y0, fx = sx - x0;
                auto at = [&](int y, int x) {
                    return static_cast<double>(in[static_cast<std::size_t>((p * ih + y) * iw + x)]);
                };
                const double top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * fx;
                const double bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * fx;
                out.push_back(top + (bottom - top) * fy);
            }
    return out;
}

LayerSpec linear_spec(const Shape& in, const Shape& out) {
    return LayerSpec{
        "Resample",
        {{"factor", "2"}, {"type", "caffe.ResampleParameter.LINEAR"}, {"antialias", "0"}},
        {in},
        {},
        out,
        {}};
}

}  // namespace

TEST_CASE("layers: Resample LINEAR without antialias (hand-computed row, float64 reference)") {
    // The row 1 2 3 4 upscaled to 8: output o samples at 0.5 o - 0.25, clamped to [0, 3].
    Layer row = runtime().create_layer(linear_spec({1, 1, 1, 4}, {1, 1, 1, 8}));
    CHECK(row.binding().stages[0].entry == "resample_linear");
    CHECK(row.global_sizes()[0] == std::array<std::size_t, 3>{8, 1, 1});
    check_close(row.run({{{1, 1, 1, 4}, Layout::BFYX, {1, 2, 3, 4}}}).values,
                {1, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75, 4}, 1e-3, 0);
    const std::pair<Shape, Shape> cases[] = {
        {{1, 2, 5, 7}, {1, 2, 10, 14}},  // upscale by 2
        {{2, 3, 9, 12}, {2, 3, 4, 5}},   // downscale, different per axis
        {{1, 1, 6, 6}, {1, 1, 6, 6}},    // identity
        {{1, 2, 3, 4}, {1, 2, 7, 3}},    // up in Y, down in X
    };
    for (const auto& c : cases) {
        const Shape& is = c.first;
        const Shape& os = c.second;
        const int planes = static_cast<int>(is[0] * is[1]);
        const auto in =
            to_half(random_values(static_cast<std::size_t>(planes * is[2] * is[3]), -4, 4, 31));
        Layer layer = runtime().create_layer(linear_spec(is, os));
        check_close(layer.run({{is, Layout::BFYX, in}}).values,
                    linear_reference(in, planes, static_cast<int>(is[2]), static_cast<int>(is[3]),
                                     static_cast<int>(os[2]), static_cast<int>(os[3])),
                    2e-3, 2e-3);
    }
}

TEST_CASE(
    "layers: CTCGreedyDecoder (FYX probabilities and BF indicators) with and without merging") {
    const int T = 6, N = 2, C = 4;  // class 3 is the blank
    // argmax per (t, n): n=0: 1 1 3 2 2 0 ; n=1: 0 3 0 0 1 (then the sequence ends at t=5)
    const int best[2][6] = {{1, 1, 3, 2, 2, 0}, {0, 3, 0, 0, 1, 2}};
    std::vector<float> probabilities(T * N * C, 0.1f);
    for (int t = 0; t < T; ++t)
        for (int n = 0; n < N; ++n)
            probabilities[static_cast<std::size_t>((t * N + n) * C + best[n][t])] = 0.9f;
    std::vector<float> indicators(T * N, 1.0f);
    indicators[5 * N + 1] = 0.0f;
    for (const char* merge : {"true", "false"}) {
        CAPTURE(merge);
        Layer layer = runtime().create_layer(LayerSpec{"CTCGreedyDecoder",
                                                       {{"ctc_merge_repeated", merge}},
                                                       {{T, N, C}, {T, N}},
                                                       {},
                                                       {N, T, 1, 1},
                                                       {}});
        const HostTensor out =
            layer.run({{{T, N, C}, Layout::FYX, probabilities}, {{T, N}, Layout::BF, indicators}});
        const std::vector<double> want =
            std::string(merge) == "true"
                ? std::vector<double>{1, 2, 0, -1, -1, -1, 0, 0, 1, -1, -1, -1}
                : std::vector<double>{1, 1, 2, 2, 0, -1, 0, 0, 0, 1, -1, -1};
        check_close(out.values, want, 0, 0);
    }
}

TEST_CASE("layers: Convolution 3x3 and 1x1 with the filter in local_data") {
    const Shape in_shape{2, 3, 5, 6};
    const auto in = to_half(random_values(180, -2, 2, 18));
    for (int ksize : {3, 1}) {
        CAPTURE(ksize);
        const int K = 4, C = 3, pad = ksize / 2;
        const Shape out_shape{2, K, 5, 6};
        const auto weights =
            to_half(random_values(static_cast<std::size_t>(K * C * ksize * ksize), -1, 1, 19));
        std::vector<double> want;
        for (int b = 0; b < 2; ++b)
            for (int k = 0; k < K; ++k)
                for (int y = 0; y < 5; ++y)
                    for (int x = 0; x < 6; ++x) {
                        double acc = 0;
                        for (int c = 0; c < C; ++c)
                            for (int ky = 0; ky < ksize; ++ky)
                                for (int kx = 0; kx < ksize; ++kx) {
                                    const int iy = y + ky - pad, ix = x + kx - pad;
                                    if (iy < 0 || iy >= 5 || ix < 0 || ix >= 6) continue;
                                    acc += double(in[idx(in_shape, b, c, iy, ix)]) *
                                           weights[static_cast<std::size_t>(
                                               ((k * C + c) * ksize + ky) * ksize + kx)];
                                }
                        want.push_back(acc);
                    }
        const std::string kernel = ksize == 3 ? "3,3" : "1,1";
        const std::string pads = ksize == 3 ? "1,1" : "0,0";
        LayerSpec spec{"Convolution",
                       {{"kernel", kernel},
                        {"strides", "1,1"},
                        {"pads_begin", pads},
                        {"pads_end", pads},
                        {"dilations", "1,1"}},
                       {in_shape},
                       {},
                       out_shape,
                       {}};
        spec.blobs["weights"] = HostTensor{{K, C, ksize, ksize}, Layout::BFYX, weights};
        Layer layer = runtime().create_layer(spec);
        CHECK(layer.binding().stages[0].entry ==
              (ksize == 3 ? "convolution_3x3" : "convolution_1x1"));
        check_close(layer.run({{in_shape, Layout::BFYX, in}}).values, want, 8e-3, 4e-3);
    }
}

TEST_CASE("layers: ExperimentalDetectronPriorGridGenerator") {
    const std::vector<float> priors{-8, -4, 8, 4, -16, -16, 16, 16, -3.5f, -1.5f, 3.5f, 1.5f};
    const int P = 3, H = 4, W = 5;
    std::vector<double> want;
    for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w)
            for (int p = 0; p < P; ++p)
                for (int k = 0; k < 4; ++k)
                    want.push_back(priors[static_cast<std::size_t>(p * 4 + k)] +
                                   (k % 2 == 0 ? (w + 0.5) * 8 : (h + 0.5) * 6));
    Layer layer = runtime().create_layer(
        LayerSpec{"ExperimentalDetectronPriorGridGenerator",
                  {{"stride_x", "8"}, {"stride_y", "6"}, {"h", "0"}, {"w", "0"}, {"flatten", "1"}},
                  {{P, 4}, {1, 8, H, W}, {1, 3, 24, 40}},
                  {},
                  {H * W * P, 4},
                  {}});
    const HostTensor out =
        layer.run({{{P, 4}, Layout::BF, priors},
                   {{1, 8, H, W}, Layout::BFYX, std::vector<float>(8 * H * W)},
                   {{1, 3, 24, 40}, Layout::BFYX, std::vector<float>(3 * 24 * 40)}});
    check_close(out.values, want, 0, 1e-3);
}
