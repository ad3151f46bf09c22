// op_builders_compute.cpp: CLML ops for the compute family: conv2d (direct, grouped, depthwise,
// transposed; fused bias, batchnorm and activation through CLML's fused creators), fully
// connected, gemm, pooling, batchnorm and softmax.
#include <set>

#include "op_builder_support.hpp"

namespace tessera::qcom_ml::detail {

built_op build_conv2d(const build_context& ctx, const op::conv2d& c, const node_tensors& t) {
    const tensor_desc& src = t.in_descs[0];
    const auto g = c.geometry(src, t.in_descs[1]);
    if (c.output_rounding == TSR_OUTPUT_CEIL && c.mode != TSR_CONV_TRANSPOSED) {
        op::conv2d floor_op = c;
        floor_op.output_rounding = TSR_OUTPUT_FLOOR;
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
    switch (c.mode) {
        case TSR_CONV_DEPTHWISE:
            d.mode = CL_CONVOLUTION_MODE_DEPTHWISE_QCOM;
            d.group_count = static_cast<cl_uint>(g.c);
            break;
        case TSR_CONV_TRANSPOSED:
            d.mode = CL_CONVOLUTION_MODE_TRANSPOSE_QCOM;
            d.group_count = static_cast<cl_uint>(c.group_count());
            break;
        default:
            d.mode = CL_CONVOLUTION_MODE_CONVOLUTION_QCOM;
            d.group_count = static_cast<cl_uint>(c.group_count());
            break;
    }
    d.num_dimensions = 2;
    d.input_padding_before[0] = static_cast<cl_uint>(g.y.pad_before);
    d.input_padding_before[1] = static_cast<cl_uint>(g.x.pad_before);
    d.input_padding_after[0] = static_cast<cl_uint>(g.y.pad_after);
    d.input_padding_after[1] = static_cast<cl_uint>(g.x.pad_after);
    d.filter_stride[0] = static_cast<cl_uint>(c.stride_h);
    d.filter_stride[1] = static_cast<cl_uint>(c.stride_w);
    d.dilation[0] = static_cast<cl_uint>(c.dilation_h);
    d.dilation[1] = static_cast<cl_uint>(c.dilation_w);
    d.flags = 0;
    d.arithmetic_mode = arithmetic_for(src.type());

    built_op b;
    bind_node(b, t);
    const bool has_act = c.activation.kind != TSR_ACT_NONE;
    const mapped_activation act = has_act ? map_activation(c.activation) : mapped_activation{};
    const auto* api = clml_v1();
    cl_ml_tensor_qcom input = t.in[0], weight = t.in[1], output = t.out[0];
    cl_ml_tensor_qcom bias =
        s.bias >= 0 ? t.in[static_cast<std::size_t>(s.bias)] : unused(ctx, src.type(), b);
    if (c.fuse_batchnorm) {
        const cl_ml_op_batchnorm_desc_qcom bn{CL_BATCHNORM_MODE_SPATIAL_QCOM, d.arithmetic_mode};
        const cl_ml_op_properties_qcom props[] = {CL_ML_OP_BATCH_NORM_OP_EPSILON_QCOM,
                                                  float_property(c.bn_epsilon), 0};
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

built_op build_fully_connected(const build_context& ctx, const op::fully_connected& f,
                               const node_tensors& t) {
    if (f.activation.kind != TSR_ACT_NONE)
        decline(TSR_REASON_ATTRIBUTE,
                "fused activation: CLML's fully connected op has none (use a separate activation)");
    const tensor_desc& src = t.in_descs[0];
    const int axis = absolute_axis(f.first_flatten_axis, src.rank());
    if (src.rank() < 2 || axis < 1 || axis >= src.rank())
        decline(TSR_REASON_SHAPE, "flatten axis " + std::to_string(axis) + " of a rank-" +
                                      std::to_string(src.rank()) +
                                      " input: CLML flattens inside N,C,H,W from axis 1..3");
    const cl_ml_op_fully_connected_desc_qcom d{
        static_cast<cl_uint>(map_shape(src)->axis_of[static_cast<std::size_t>(axis)]),
        f.weights_transposed ? CL_FC_WEIGHT_TRANSFORM_NONE_QCOM
                             : CL_FC_WEIGHT_TRANSFORM_TRANSPOSE_QCOM,
        arithmetic_for(src.type())};
    built_op b;
    bind_node(b, t);
    cl_ml_tensor_qcom bias = f.has_bias ? t.in[2] : unused(ctx, src.type(), b);
    create(b, "clCreateMLOpFullyConnectedQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpFullyConnectedQCOM(ctx.context, nullptr, &d, t.in[0], t.in[1],
                                                         bias, t.out[0], op, nullptr);
    });
    return b;
}

built_op build_gemm(const build_context& ctx, const op::gemm& gm, const node_tensors& t) {
    if (t.in.size() > 2 && gm.beta != 0.0f)
        decline(
            TSR_REASON_ATTRIBUTE,
            "gemm with a C input: CLML's C is the output itself (in/out), not a separate tensor");
    const auto geo = gm.geometry(t.in_descs[0], t.in_descs[1]);
    cl_ml_op_gemm_desc_qcom d{};
    d.m = static_cast<cl_uint>(geo.m);
    d.n = static_cast<cl_uint>(geo.n);
    d.k = static_cast<cl_uint>(geo.k);
    d.trans_a = gm.trans_a ? CL_GEMM_TRANSFORM_TRANSPOSE_QCOM : CL_GEMM_TRANSFORM_NONE_QCOM;
    d.trans_b = gm.trans_b ? CL_GEMM_TRANSFORM_TRANSPOSE_QCOM : CL_GEMM_TRANSFORM_NONE_QCOM;
    d.alpha = f32_value(gm.alpha);
    d.beta = f32_value(0.0f);
    d.arithmetic_mode = arithmetic_for(t.in_descs[0].type());
    built_op b;
    bind_node(b, t, {2});
    create(b, "clCreateMLOpGemmQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpGemmQCOM(ctx.context, nullptr, &d, t.in[0], t.in[1], t.out[0],
                                               op, nullptr);
    });
    return b;
}

built_op build_pooling(const build_context& ctx, const op::pooling& p, const node_tensors& t) {
    const tensor_desc& src = t.in_descs[0];
    const auto g = p.geometry(src);
    if (p.output_rounding == TSR_OUTPUT_CEIL && !p.global()) {
        op::pooling floor_op = p;
        floor_op.output_rounding = TSR_OUTPUT_FLOOR;
        const auto f = floor_op.geometry(src);
        if (f.y.out != g.y.out || f.x.out != g.x.out)
            decline(TSR_REASON_ATTRIBUTE,
                    "ceil output rounding that adds a window (CLML's partial-window rule is "
                    "unspecified)");
    }
    cl_ml_op_pooling_desc_qcom d{};
    d.mode =
        static_cast<cl_pooling_mode_qcom>(p.mode);  // Tessera numbers pooling modes as CLML does
    d.num_dimensions = 2;
    d.input_padding_before[0] = static_cast<cl_uint>(g.y.pad_before);
    d.input_padding_before[1] = static_cast<cl_uint>(g.x.pad_before);
    d.input_padding_after[0] = static_cast<cl_uint>(g.y.pad_after);
    d.input_padding_after[1] = static_cast<cl_uint>(g.x.pad_after);
    d.stride[0] = static_cast<cl_uint>(g.sh);
    d.stride[1] = static_cast<cl_uint>(g.sw);
    d.window_size[0] = static_cast<cl_uint>(g.kh);
    d.window_size[1] = static_cast<cl_uint>(g.kw);
    d.nan_propagation = CL_PROPAGATE_NAN_QCOM;
    d.arithmetic_mode = arithmetic_for(src.type());
    built_op b;
    bind_node(b, t);
    cl_ml_tensor_qcom mask = unused(ctx, src.type(), b);
    create(b, "clCreateMLOpPoolingForwardQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpPoolingForwardQCOM(ctx.context, nullptr, &d, t.in[0], mask,
                                                         t.out[0], op, nullptr);
    });
    return b;
}

built_op build_batchnorm(const build_context& ctx, const op::batchnorm& bn, const node_tensors& t) {
    if (bn.mode != TSR_BATCHNORM_STATISTICS)
        decline(TSR_REASON_ATTRIBUTE,
                "affine batchnorm (y = a*x + b): CLML's batchnorm takes statistics");
    if (bn.activation.kind != TSR_ACT_NONE)
        decline(TSR_REASON_ATTRIBUTE,
                "fused activation: CLML fuses activations into convolutions only");
    const dtype type = t.in_descs[0].type();
    const cl_ml_op_batchnorm_desc_qcom d{CL_BATCHNORM_MODE_SPATIAL_QCOM, arithmetic_for(type)};
    const cl_ml_op_properties_qcom props[] = {CL_ML_OP_BATCH_NORM_OP_EPSILON_QCOM,
                                              float_property(bn.epsilon), 0};
    built_op b;
    bind_node(b, t);
    const bool affine = t.in.size() >= 5;
    cl_ml_tensor_qcom scale = affine ? t.in[3] : unused(ctx, type, b);
    cl_ml_tensor_qcom shift = affine ? t.in[4] : unused(ctx, type, b);
    create(b, "clCreateMLOpBatchNormForwardQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpBatchNormForwardQCOM(
            ctx.context, props, &d, t.in[0], t.in[1], t.in[2], scale, shift, t.out[0], op, nullptr);
    });
    return b;
}

built_op build_softmax(const build_context& ctx, const op::softmax& sm, const node_tensors& t) {
    if (sm.log) decline(TSR_REASON_ATTRIBUTE, "log-softmax: CLML has the accurate softmax only");
    if (sm.mask) decline(TSR_REASON_ATTRIBUTE, "masked softmax: CLML has no mask");
    const tensor_desc& src = t.in_descs[0];
    const auto shape = map_shape(src);
    if (shape->five_d) decline(TSR_REASON_SHAPE, "5-D softmax");
    const int a = absolute_axis(sm.axis, src.rank());
    // CLML axes the normalisation covers; axes of extent 1 may be counted either way.
    std::set<int> covered;
    for (int i = a; i < a + sm.axis_count; ++i)
        covered.insert(shape->axis_of[static_cast<std::size_t>(i)]);
    const cl_uint extent[4] = {shape->n, shape->c, shape->h, shape->w};
    auto matches = [&](std::set<int> mode_axes) {
        for (int ax = 0; ax < 4; ++ax)
            if (extent[ax] > 1 && covered.count(ax) != mode_axes.count(ax)) return false;
        return true;
    };
    cl_softmax_mode_qcom mode;
    if (matches({1}))
        mode = CL_SOFTMAX_MODE_CHANNEL_QCOM;
    else if (matches({1, 2, 3}))
        mode = CL_SOFTMAX_MODE_INSTANCE_QCOM;
    else if (matches({2, 3}))
        mode = CL_SOFTMAX_MODE_SPATIAL_QCOM;
    else
        decline(TSR_REASON_ATTRIBUTE,
                "softmax over these axes is none of CLML's channel, instance and spatial modes");
    const cl_ml_op_softmax_desc_qcom d{CL_SOFTMAX_ALGORITHM_ACCURATE_QCOM, mode,
                                       arithmetic_for(src.type())};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpSoftmaxQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpSoftmaxQCOM(ctx.context, nullptr, &d, t.in[0], t.out[0], op,
                                                  nullptr);
    });
    return b;
}

}  // namespace tessera::qcom_ml::detail
