// ops/matmul.cpp: fully_connected and gemm on CLML's fully-connected and GEMM ops.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_fully_connected(const build_context& ctx, const op::fully_connected& f,
                               const node_tensors& t) {
    if (f.fused_activation().kind != activation_kind::none)
        decline(TSR_REASON_ATTRIBUTE,
                "fused activation: CLML's fully connected op has none (use a separate activation)");
    const tensor_desc& src = t.in_descs[0];
    const int axis = absolute_axis(f.first_flatten_axis(), src.rank());
    if (src.rank() < 2 || axis < 1 || axis >= src.rank())
        decline(TSR_REASON_SHAPE, "flatten axis " + std::to_string(axis) + " of a rank-" +
                                      std::to_string(src.rank()) +
                                      " input: CLML flattens inside N,C,H,W from axis 1..3");
    const cl_ml_op_fully_connected_desc_qcom d{
        static_cast<cl_uint>(map_shape(src)->axis_of[static_cast<std::size_t>(axis)]),
        f.weights_transposed() ? CL_FC_WEIGHT_TRANSFORM_NONE_QCOM
                               : CL_FC_WEIGHT_TRANSFORM_TRANSPOSE_QCOM,
        arithmetic_for(src.type())};
    built_op b;
    bind_node(b, t);
    cl_ml_tensor_qcom bias = f.has_bias() ? t.in[2] : unused(ctx, src.type(), b);
    create(b, "clCreateMLOpFullyConnectedQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpFullyConnectedQCOM(ctx.context, nullptr, &d, t.in[0], t.in[1],
                                                         bias, t.out[0], op, nullptr);
    });
    return b;
}

built_op build_gemm(const build_context& ctx, const op::gemm& gm, const node_tensors& t) {
    if (t.in.size() > 2 && gm.beta() != 0.0f)
        decline(
            TSR_REASON_ATTRIBUTE,
            "gemm with a C input: CLML's C is the output itself (in/out), not a separate tensor");
    const auto geo = gm.geometry(t.in_descs[0], t.in_descs[1]);
    cl_ml_op_gemm_desc_qcom d{};
    d.m = static_cast<cl_uint>(geo.m);
    d.n = static_cast<cl_uint>(geo.n);
    d.k = static_cast<cl_uint>(geo.k);
    d.trans_a = gm.trans_a() ? CL_GEMM_TRANSFORM_TRANSPOSE_QCOM : CL_GEMM_TRANSFORM_NONE_QCOM;
    d.trans_b = gm.trans_b() ? CL_GEMM_TRANSFORM_TRANSPOSE_QCOM : CL_GEMM_TRANSFORM_NONE_QCOM;
    d.alpha = f32_value(gm.alpha());
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

}  // namespace

void state_matmul(router& r) {
    state_built<op::fully_connected>(r, &build_fully_connected);
    state_built<op::gemm>(r, &build_gemm);
}

}  // namespace tessera::plugins::qcom_ml
