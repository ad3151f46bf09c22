// cases_spatial.cpp: conformance cases of the windowed NCHW ops: conv2d geometry (odd sizes,
// strides, explicit/SAME/VALID padding, dilation, groups, depthwise, transposed with output
// padding, ceil rounding, batch > 1, fused activations), pooling in its five modes, lrn in both
// modes and mean_reduce2d.
#include "case_support.hpp"

namespace conformance {

namespace {

struct conv_geometry {
    const char* name;
    int kh, kw;
    int stride, dilation;
    enum { explicit_pad, same, valid } padding;
    enum { dense, grouped, depthwise, depthwise_multiplier, transposed } kind;
    activation_kind act = activation_kind::none;
    bool ceil = false;
};

const conv_geometry conv_geometries[] = {
    {"3x3, stride 1, explicit padding", 3, 3, 1, 1, conv_geometry::explicit_pad,
     conv_geometry::dense},
    {"3x3, stride 2, asymmetric padding", 3, 3, 2, 1, conv_geometry::explicit_pad,
     conv_geometry::dense},
    {"5x3, stride 2, SAME", 5, 3, 2, 1, conv_geometry::same, conv_geometry::dense},
    {"2x3, stride 1, VALID", 2, 3, 1, 1, conv_geometry::valid, conv_geometry::dense},
    {"3x3, dilation 2, explicit padding", 3, 3, 1, 2, conv_geometry::explicit_pad,
     conv_geometry::dense},
    {"1x1, relu6", 1, 1, 1, 1, conv_geometry::valid, conv_geometry::dense, activation_kind::relu6},
    {"3x3, groups 2..3, explicit padding", 3, 3, 1, 1, conv_geometry::explicit_pad,
     conv_geometry::grouped},
    {"3x3, groups = C (depthwise as groups), stride 2", 3, 3, 2, 1, conv_geometry::explicit_pad,
     conv_geometry::grouped},
    {"3x3 depthwise mode, SAME", 3, 3, 1, 1, conv_geometry::same, conv_geometry::depthwise},
    {"3x3 depthwise mode, multiplier 2, stride 2", 3, 3, 2, 1, conv_geometry::explicit_pad,
     conv_geometry::depthwise_multiplier},
    {"3x3 transposed, stride 2, output padding", 3, 3, 2, 1, conv_geometry::explicit_pad,
     conv_geometry::transposed},
    {"3x3, stride 2, ceil rounding", 3, 3, 2, 1, conv_geometry::explicit_pad, conv_geometry::dense,
     activation_kind::none, true},
    {"3x3, sigmoid", 3, 3, 1, 1, conv_geometry::same, conv_geometry::dense,
     activation_kind::sigmoid},
    {"3x3, leaky relu 0.1", 3, 3, 1, 1, conv_geometry::same, conv_geometry::dense,
     activation_kind::leaky_relu},
};

}  // namespace

case_list conv2d_geometry_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : conv_geometries) {
        for (int r = 0; r < repeats; ++r) {
            const std::int64_t n = d.dim(1, 3), h = d.dim(5, 11), w = d.dim(5, 11);
            std::int64_t c = d.dim(1, 7), o = d.pick(3) == 0 ? d.dim(17, 24) : d.dim(1, 7);
            int groups = 1;
            op::conv2d conv;
            conv.stride(f.stride, f.stride).dilation(f.dilation, f.dilation);
            if (f.padding == conv_geometry::same) conv.padding(padding_kind::same);
            if (f.padding == conv_geometry::valid) conv.padding(padding_kind::valid);
            if (f.padding == conv_geometry::explicit_pad)
                conv.padding(d.pick(3), d.pick(3), d.pick(3), d.pick(3));
            if (f.ceil) conv.rounding_mode(output_rounding::ceil);
            shape weights;
            switch (f.kind) {
                case conv_geometry::grouped:
                    groups = f.stride == 1 ? 2 + d.pick(2) : static_cast<int>(c);
                    c = groups * d.dim(1, 3);
                    o = groups * d.dim(1, 3);
                    conv.groups(groups);
                    weights = shape{o, c / groups, f.kh, f.kw};
                    break;
                case conv_geometry::depthwise:
                case conv_geometry::depthwise_multiplier:
                    conv.depthwise();
                    o = c * (f.kind == conv_geometry::depthwise ? 1 : 2);
                    weights = shape{o, 1, f.kh, f.kw};
                    break;
                case conv_geometry::transposed:
                    conv.transposed().output_padding(1, 1);
                    conv.padding(1, 1, 1, 1);
                    weights = shape{c, o, f.kh, f.kw};
                    break;
                default:
                    weights = shape{o, c, f.kh, f.kw};
            }
            conv.bias();
            if (f.act == activation_kind::leaky_relu) conv.fuse(f.act, 0.1f);
            if (f.act == activation_kind::relu6 || f.act == activation_kind::sigmoid)
                conv.fuse(f.act);
            std::vector<tensor> in{d.values(shape{n, c, h, w}), d.values(weights, -0.5f, 0.5f),
                                   d.values(shape{o})};
            cases.push_back({"conv2d", f.name, conv, std::move(in),
                             1 + (f.act != activation_kind::none ? 1 : 0)});
        }
    }
    return cases;
}

namespace {

struct pooling_form {
    const char* name;
    pooling_kind mode;
    int kh, kw, stride;
    enum { none, explicit_pad, same, valid } padding;
    bool ceil = false;
};

const pooling_form pooling_forms[] = {
    {"max 2x2 stride 2", pooling_kind::max, 2, 2, 2, pooling_form::none},
    {"max 3x3 stride 2, explicit padding", pooling_kind::max, 3, 3, 2, pooling_form::explicit_pad},
    {"max 3x3 stride 2, SAME", pooling_kind::max, 3, 3, 2, pooling_form::same},
    {"max 3x2 stride 1, ceil rounding", pooling_kind::max, 3, 2, 1, pooling_form::none, true},
    {"average (include padding) 3x3 stride 1, padding", pooling_kind::average_include_padding, 3, 3,
     1, pooling_form::explicit_pad},
    {"average (exclude padding) 3x3 stride 1, padding", pooling_kind::average_exclude_padding, 3, 3,
     1, pooling_form::explicit_pad},
    {"average (include padding) 3x2 stride 2, VALID", pooling_kind::average_include_padding, 3, 2,
     2, pooling_form::valid},
    {"average (exclude padding) 2x3 stride 2, SAME", pooling_kind::average_exclude_padding, 2, 3, 2,
     pooling_form::same},
    {"global max", pooling_kind::global_max, 0, 0, 1, pooling_form::none},
    {"global average", pooling_kind::global_average, 0, 0, 1, pooling_form::none},
};

}  // namespace

case_list pooling_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : pooling_forms) {
        for (int r = 0; r < repeats; ++r) {
            op::pooling p(f.mode);
            if (f.kh > 0) p.kernel(f.kh, f.kw).stride(f.stride, f.stride);
            if (f.padding == pooling_form::explicit_pad) p.padding(d.pick(2), 1, 1, d.pick(2));
            if (f.padding == pooling_form::same) p.padding(padding_kind::same);
            if (f.padding == pooling_form::valid) p.padding(padding_kind::valid);
            if (f.ceil) p.rounding_mode(output_rounding::ceil);
            const shape src{d.dim(1, 3), d.pick(3) == 0 ? d.dim(17, 21) : d.dim(1, 7), d.dim(4, 11),
                            d.dim(4, 11)};
            cases.push_back({"pooling", f.name, p, {d.values(src, -3.0f, 3.0f)}, 1});
        }
    }
    return cases;
}

case_list lrn_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        const shape src{d.dim(1, 3), d.dim(2, 9), d.dim(3, 8), d.dim(3, 8)};
        cases.push_back({"lrn",
                         "across channels, size 5, alpha scaled",
                         op::lrn().window(5).coefficients(1e-2f, 0.75f, 1.0f),
                         {d.values(src, -2.0f, 2.0f)},
                         3});
        cases.push_back({"lrn",
                         "across channels, size 3, bias 2, alpha unscaled",
                         op::lrn().window(3).coefficients(0.05f, 0.5f, 2.0f).scaled(false),
                         {d.values(src, -2.0f, 2.0f)},
                         3});
        cases.push_back(
            {"lrn",
             "within channel, size 3",
             op::lrn().kind(lrn_kind::within_channel).window(3).coefficients(1e-2f, 0.75f, 1.0f),
             {d.values(src, -2.0f, 2.0f)},
             3});
        cases.push_back({"mean_reduce2d",
                         "mean over H and W",
                         op::mean_reduce2d(),
                         {d.values(d.dims(4, 1, 9), -2.0f, 2.0f)},
                         2});
    }
    return cases;
}

}  // namespace conformance
