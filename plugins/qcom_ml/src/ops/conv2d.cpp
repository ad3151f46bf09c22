// ops/conv2d.cpp: conv2d on CLML (direct, grouped, depthwise, transposed; fused bias, batchnorm
// and activation through CLML's fused creators).
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_conv2d(const build_context& ctx, const op::conv2d& c, const node_tensors& t) {
    const tensor_desc& src = t.in_descs[0];
    const auto g = c.geometry(src, t.in_descs[1]);
    if (c.rounding_mode() == output_rounding::ceil && c.kind() != conv_kind::transposed) {
        op::conv2d floor_op = c;
        floor_op.rounding_mode(output_rounding::floor);
        const auto f = floor_op.geometry(src, t.in_descs[1]);
        if (f.y.out != g.y.out || f.x.out != g.x.out)
            decline(TSR_REASON_ATTRIBUTE,
                    "ceil output rounding that adds a window: CLML sizes outputs by floor");
    }
    const auto s = c.slots();
    if (s.bias >= 0 && t.in_descs[static_cast<std::size_t>(s.bias)].rank() != 1)
        decline(TSR_REASON_ATTRIBUTE,
                "per-location bias [O, OH, OW]: CLML takes a bias of O values");
    cl_ml_op_convolution_desc_qcom d{};
    switch (c.kind()) {
        case conv_kind::depthwise:
            d.mode = CL_CONVOLUTION_MODE_DEPTHWISE_QCOM;
            d.group_count = static_cast<cl_uint>(g.c);
            break;
        case conv_kind::transposed:
            d.mode = CL_CONVOLUTION_MODE_TRANSPOSE_QCOM;
            d.group_count = static_cast<cl_uint>(c.groups());
            break;
        default:
            d.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
            d.group_count = static_cast<cl_uint>(c.groups());
            break;
    }
    d.num_dimensions = 2;
    d.input_padding_before[0] = static_cast<cl_uint>(g.y.pad_before);
    d.input_padding_before[1] = static_cast<cl_uint>(g.x.pad_before);
    d.input_padding_after[0] = static_cast<cl_uint>(g.y.pad_after);
    d.input_padding_after[1] = static_cast<cl_uint>(g.x.pad_after);
    d.filter_stride[0] = static_cast<cl_uint>(c.stride().h);
    d.filter_stride[1] = static_cast<cl_uint>(c.stride().w);
    d.dilation[0] = static_cast<cl_uint>(c.dilation().h);
    d.dilation[1] = static_cast<cl_uint>(c.dilation().w);
    d.flags = 0;
    d.arithmetic_mode = arithmetic_for(src.type());

    built_op b;
    bind_node(b, t);
    const activation_spec fused = c.fused_activation();
    const bool has_act = fused.kind != activation_kind::none;
    const mapped_activation act = has_act ? map_activation(fused) : mapped_activation{};
    const auto* api = clml_v1();
    cl_ml_tensor_qcom input = t.in[0], weight = t.in[1], output = t.out[0];
    cl_ml_tensor_qcom bias =
        s.bias >= 0 ? t.in[static_cast<std::size_t>(s.bias)] : unused(ctx, src.type(), b);
    if (c.fuse_batchnorm()) {
        const cl_ml_op_batchnorm_desc_qcom bn{CL_BATCHNORM_MODE_SPATIAL_QCOM, d.arithmetic_mode};
        const cl_ml_op_properties_qcom props[] = {CL_ML_OP_BATCH_NORM_OP_EPSILON_QCOM,
                                                  float_property(c.bn_epsilon()), 0};
        auto bn_in = [&](int i) { return t.in[static_cast<std::size_t>(s.mean + i)]; };
        if (has_act) {
            const auto ad = activation_desc(act, true, src.type());
            cl_ml_tensor_qcom param = activation_param(ctx, act, t, s.slope, src.type(), b);
            create(b, "clCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM",
                   [&](cl_ml_op_qcom* op) {
                       return api->clCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM(
                           ctx.context, props, &d, &bn, &ad, input, weight, bias, output, param,
                           bn_in(0), bn_in(1), bn_in(2), bn_in(3), op, nullptr);
                   });
        } else {
            create(b, "clCreateMLOpFusedConvolutionBatchNormForwardQCOM", [&](cl_ml_op_qcom* op) {
                return api->clCreateMLOpFusedConvolutionBatchNormForwardQCOM(
                    ctx.context, props, &d, &bn, input, weight, bias, output, bn_in(0), bn_in(1),
                    bn_in(2), bn_in(3), op, nullptr);
            });
        }
    } else if (has_act) {
        const auto ad = activation_desc(act, true, src.type());
        cl_ml_tensor_qcom param = activation_param(ctx, act, t, s.slope, src.type(), b);
        create(b, "clCreateMLOpFusedConvolutionActivationForwardQCOM", [&](cl_ml_op_qcom* op) {
            return api->clCreateMLOpFusedConvolutionActivationForwardQCOM(
                ctx.context, nullptr, &d, &ad, input, weight, bias, param, output, op, nullptr);
        });
    } else {
        create(b, "clCreateMLOpConvolutionForwardQCOM", [&](cl_ml_op_qcom* op) {
            return api->clCreateMLOpConvolutionForwardQCOM(ctx.context, nullptr, &d, input, weight,
                                                           bias, output, op, nullptr);
        });
    }
    return b;
}

}  // namespace

void state_conv2d(router& r) {
    state_built<op::conv2d>(r, &build_conv2d);
}

}  // namespace tessera::plugins::qcom_ml
