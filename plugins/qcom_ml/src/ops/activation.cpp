// ops/activation.cpp: activations on CLML's activation op; clip and bounded ReLU on CLML's clip
// op (or Binary MAX then MIN where the library offers interface V1 only).
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

/// Whether a PReLU slope (admitted by op::activation: [C], [1] or any shape broadcastable to
/// src) gives every element of one channel the same slope, as CLML's PReLU does (one slope per
/// channel, or one for all). A slope varying along another axis, e.g. [1, 1, 1, W] with W == C,
/// would be read per channel and give wrong answers.
bool per_channel_slope(const tensor_desc& src, const tensor_desc& slope) {
    if (src.rank() < 2 || slope.rank() == 1) return true;  // rank 1: [C] or [1] (descriptor)
    for (int i = 0; i < slope.rank(); ++i) {
        const int axis = src.rank() - slope.rank() + i;
        if (axis != 1 && slope.dim(i) != 1) return false;
    }
    return true;
}

/// clip(x, lo, hi): CLML's clip op (interface V2). A library that offers only V1 gets two ops,
/// C = max(x, lo) then C = min(C, hi), the bounds in one-value tensors that Binary broadcasts
/// (CLML's activation descriptor carries no bounds; its only bounded function is RELU6).
built_op build_clip(const build_context& ctx, float lo, float hi, const node_tensors& t) {
    const dtype type = t.in_descs[0].type();
    if (const CLMLInterfaceV2QCOM* v2 = clml_v2()) {
        const cl_ml_op_clip_desc_qcom d{CL_CLIP_BY_VALUE_QCOM, f32_value(hi), f32_value(lo),
                                        arithmetic_for(type)};
        built_op b;
        bind_node(b, t);
        create(b, "clCreateMLOpClipQCOM", [&](cl_ml_op_qcom* op) {
            return v2->clCreateMLOpClipQCOM(ctx.context, nullptr, &d, t.in[0], t.out[0], op,
                                            nullptr);
        });
        return b;
    }
    if (t.in_descs[0].rank() == 1)
        decline(TSR_REASON_SHAPE,
                "clip of a rank-1 tensor without CLML V2 (Binary broadcasts axes of extent 1 "
                "only)");
    built_op b;
    bind_node(b, t);
    cl_ml_tensor_qcom lo_tensor = scalar_tensor(ctx, lo, type, b);
    cl_ml_tensor_qcom hi_tensor = scalar_tensor(ctx, hi, type, b);
    cl_ml_op_binary_desc_qcom d{};
    d.alpha = f32_value(1.0f);
    d.beta = f32_value(1.0f);
    d.gamma = f32_value(0.0f);
    d.arithmetic_mode = arithmetic_for(type);
    d.binary_op = CL_TENSOR_OP_MAX_QCOM;
    create(b, "clCreateMLOpBinaryQCOM (clip: max)", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpBinaryQCOM(ctx.context, nullptr, &d, t.in[0], lo_tensor,
                                                 t.out[0], op, nullptr);
    });
    d.binary_op = CL_TENSOR_OP_MIN_QCOM;
    cl_ml_op_qcom second = nullptr;
    check_cl(clml_v1()->clCreateMLOpBinaryQCOM(ctx.context, nullptr, &d, t.out[0], hi_tensor,
                                               t.out[0], &second, nullptr),
             "clCreateMLOpBinaryQCOM (clip: min)");
    b.then_op = ml_op_handle(second);
    b.then_tensors = {t.out[0]};
    return b;
}

built_op build_activation(const build_context& ctx, const op::activation& a,
                          const node_tensors& t) {
    if (a.has_slope() && t.in_descs.size() == 2 &&
        !per_channel_slope(t.in_descs[0], t.in_descs[1])) {
        decline(TSR_REASON_SHAPE, "PReLU slope " + t.in_descs[1].dims().to_string() +
                                      " varies along axes other than the channel (dim 1): "
                                      "CLML's PReLU takes one slope per channel or one for all");
    }
    if (a.clipping_value() != 0.0f)
        decline(TSR_REASON_ATTRIBUTE, "clipping value " + std::to_string(a.clipping_value()) +
                                          ": CLML's activation op has no min(f(x), clip) bound");
    const activation_spec spec = a.spec();
    const bool clip = spec.kind == activation_kind::clip;
    const bool bounded = spec.kind == activation_kind::bounded_relu;
    const bool relu6 = (clip && spec.a == 0.0f && spec.b == 6.0f) || (bounded && spec.a == 6.0f);
    if (clip && !relu6) return build_clip(ctx, spec.a, spec.b, t);
    if (bounded && !relu6) return build_clip(ctx, 0.0f, spec.a, t);
    const mapped_activation m = map_activation(spec);
    const dtype type = t.in_descs[0].type();
    const auto d = activation_desc(m, a.propagate_nan(), type);
    built_op b;
    bind_node(b, t);
    cl_ml_tensor_qcom param = activation_param(ctx, m, t, 1, type, b);
    create(b, "clCreateMLOpActivationForwardQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpActivationForwardQCOM(ctx.context, nullptr, &d, t.in[0],
                                                            param, t.out[0], op, nullptr);
    });
    return b;
}

}  // namespace

void state_activation(router& r) {
    state_built<op::activation>(r, &build_activation);
}

}  // namespace tessera::plugins::qcom_ml
