// op_builders_data.cpp: CLML ops for the element-wise and data-movement families: activation,
// binary, fill, concat, permute, transpose, reshape, depth-to-space, resize bilinear and pad.
#include "op_builder_support.hpp"

namespace tessera::qcom_ml::detail {

namespace {

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

}  // namespace

built_op build_activation(const build_context& ctx, const op::activation& a,
                          const node_tensors& t) {
    const bool relu6 = (a.act.kind == TSR_ACT_CLIP && a.act.a == 0.0f && a.act.b == 6.0f) ||
                       (a.act.kind == TSR_ACT_BOUNDED_RELU && a.act.a == 6.0f);
    if (a.act.kind == TSR_ACT_CLIP && !relu6) return build_clip(ctx, a.act.a, a.act.b, t);
    if (a.act.kind == TSR_ACT_BOUNDED_RELU && !relu6) return build_clip(ctx, 0.0f, a.act.a, t);
    const mapped_activation m = map_activation(a.act);
    const dtype type = t.in_descs[0].type();
    const auto d = activation_desc(m, a.propagate_nan != 0, type);
    built_op b;
    bind_node(b, t);
    cl_ml_tensor_qcom param = activation_param(ctx, m, t, 1, type, b);
    create(b, "clCreateMLOpActivationForwardQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpActivationForwardQCOM(ctx.context, nullptr, &d, t.in[0],
                                                            param, t.out[0], op, nullptr);
    });
    return b;
}

built_op build_binary(const build_context& ctx, const op::binary& bo, const node_tensors& t) {
    if (bo.gamma != 0.0f)
        decline(TSR_REASON_ATTRIBUTE,
                "gamma != 0: CLML's C is the output itself (in/out), not a separate input");
    const int rank = t.out_descs[0].rank();
    if (t.in_descs[0].rank() != rank || t.in_descs[1].rank() != rank)
        decline(TSR_REASON_SHAPE,
                "broadcasting between different ranks (CLML broadcasts axes of extent 1 only)");
    if (rank == 1 && (t.in_descs[0].dim(0) != t.out_descs[0].dim(0) ||
                      t.in_descs[1].dim(0) != t.out_descs[0].dim(0)))
        decline(TSR_REASON_SHAPE, "broadcasting a rank-1 tensor");
    const dtype type = t.in_descs[0].type();
    cl_ml_op_binary_desc_qcom d{};
    d.binary_op = static_cast<cl_binary_op_qcom>(bo.op);  // Tessera numbers binary ops as CLML does
    d.alpha = f32_value(bo.alpha);
    d.beta = f32_value(bo.beta);
    d.gamma = f32_value(0.0f);
    d.arithmetic_mode = arithmetic_for(type);
    built_op b;
    bind_node(b, t, {2});
    create(b, "clCreateMLOpBinaryQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpBinaryQCOM(ctx.context, nullptr, &d, t.in[0], t.in[1],
                                                 t.out[0], op, nullptr);
    });
    return b;
}

built_op build_fill(const build_context& ctx, const op::fill& f, const node_tensors& t) {
    const cl_ml_op_fill_desc_qcom d{f32_value(static_cast<float>(f.value)),
                                    arithmetic_for(t.out_descs[0].type())};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpFillQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpFillQCOM(ctx.context, nullptr, &d, t.out[0], op, nullptr);
    });
    return b;
}

built_op build_concat(const build_context& ctx, const op::concat& c, const node_tensors& t) {
    const tensor_desc& out = t.out_descs[0];
    const int axis = absolute_axis(c.axis, out.rank());
    const auto shape = map_shape(out);
    if (shape->five_d) decline(TSR_REASON_SHAPE, "5-D concat");
    const cl_ml_op_concat_desc_qcom d{
        static_cast<cl_uint>(shape->axis_of[static_cast<std::size_t>(axis)]),
        static_cast<cl_uint>(t.in.size()), arithmetic_for(out.type())};
    std::vector<cl_ml_tensor_qcom> inputs = t.in;
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpConcatQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpConcatQCOM(ctx.context, nullptr, &d, inputs.data(), t.out[0],
                                                 op, nullptr);
    });
    return b;
}

built_op build_permute(const build_context& ctx, const std::vector<int>& order,
                       const node_tensors& t) {
    const tensor_desc& src = t.in_descs[0];
    const auto shape = map_shape(src);
    if (shape->five_d) decline(TSR_REASON_SHAPE, "5-D permute");
    cl_ml_op_permute_desc_qcom d{};
    d.len_order = 4;
    for (cl_uint i = 0; i < 4; ++i) d.order[i] = i;  // padding axes stay where they are
    for (int i = 0; i < src.rank(); ++i)
        d.order[shape->axis_of[static_cast<std::size_t>(i)]] =
            static_cast<cl_uint>(shape->axis_of[static_cast<std::size_t>(
                absolute_axis(order[static_cast<std::size_t>(i)], src.rank()))]);
    d.arithmetic_mode = arithmetic_for(src.type());
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpPermuteQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpPermuteQCOM(ctx.context, nullptr, &d, t.in[0], t.out[0], op,
                                                  nullptr);
    });
    return b;
}

built_op build_transpose(const build_context& ctx, const op::transpose& tr, const node_tensors& t) {
    const tensor_desc& src = t.in_descs[0];
    const int a = absolute_axis(tr.dim_a, src.rank()), c = absolute_axis(tr.dim_b, src.rank());
    if (src.rank() == 2 && a != c) {  // CLML's matrix transpose
        const cl_ml_op_transpose_desc_qcom d{static_cast<cl_uint>(src.dim(0)),
                                             static_cast<cl_uint>(src.dim(1)),
                                             arithmetic_for(src.type())};
        built_op b;
        bind_node(b, t);
        create(b, "clCreateMLOpTransposeQCOM", [&](cl_ml_op_qcom* op) {
            return clml_v1()->clCreateMLOpTransposeQCOM(ctx.context, nullptr, &d, t.in[0], t.out[0],
                                                        op, nullptr);
        });
        return b;
    }
    std::vector<int> order(static_cast<std::size_t>(src.rank()));
    for (int i = 0; i < src.rank(); ++i) order[static_cast<std::size_t>(i)] = i;
    std::swap(order[static_cast<std::size_t>(a)], order[static_cast<std::size_t>(c)]);
    return build_permute(ctx, order, t);
}

built_op build_reshape(const build_context& ctx, const node_tensors& t) {
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpReshapeQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpReshapeQCOM(ctx.context, nullptr, t.in[0], t.out[0], op,
                                                  nullptr);
    });
    return b;
}

built_op build_depth_to_space(const build_context& ctx, const op::depth_to_space& ds,
                              const node_tensors& t) {
    if (ds.mode != TSR_DEPTH_TO_SPACE_DCR)
        decline(TSR_REASON_ATTRIBUTE, "CRD depth-to-space: CLML implements DCR only");
    const cl_ml_op_depthtospace_desc_qcom d{static_cast<cl_uint>(ds.block_size),
                                            arithmetic_for(t.in_descs[0].type())};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpDepthToSpaceQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpDepthToSpaceQCOM(ctx.context, nullptr, &d, t.in[0], t.out[0],
                                                       op, nullptr);
    });
    return b;
}

built_op build_resize_bilinear(const build_context& ctx, const op::resize_bilinear& r,
                               const node_tensors& t) {
    const cl_ml_op_resize_bilinear_desc_qcom d{
        static_cast<cl_bool>(r.align_corners ? CL_TRUE : CL_FALSE),
        static_cast<cl_bool>(r.half_pixel_centers ? CL_TRUE : CL_FALSE),
        arithmetic_for(t.in_descs[0].type())};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpResizeBilinearQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpResizeBilinearQCOM(ctx.context, nullptr, &d, t.in[0],
                                                         t.out[0], op, nullptr);
    });
    return b;
}

built_op build_pad(const build_context& ctx, const op::pad& p, const node_tensors& t) {
    const tensor_desc& src = t.in_descs[0];
    if (src.rank() != 4)
        decline(TSR_REASON_SHAPE, "pad of a rank-" + std::to_string(src.rank()) +
                                      " tensor: CLML pads H and W of 4-D tensors");
    if (p.before[0] || p.after[0] || p.before[1] || p.after[1])
        decline(TSR_REASON_ATTRIBUTE, "padding N or C: CLML pads H and W only");
    cl_ml_op_pad_desc_qcom d{};
    d.pad_mode = static_cast<cl_pad_mode_qcom>(p.mode);  // Tessera numbers pad modes as CLML does
    d.paddings_shape[0] = 2;
    d.paddings_shape[1] = 2;
    d.paddings[0] = static_cast<cl_uint>(p.before[3]);
    d.paddings[1] = static_cast<cl_uint>(p.after[3]);
    d.paddings[2] = static_cast<cl_uint>(p.before[2]);
    d.paddings[3] = static_cast<cl_uint>(p.after[2]);
    d.arithmetic_mode = arithmetic_for(src.type());
    const cl_ml_op_properties_qcom props[] = {CL_ML_OP_PAD_OP_CONSTANT_VALUE_QCOM,
                                              float_property(static_cast<float>(p.value)), 0};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpPadQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpPadQCOM(ctx.context, props, &d, t.in[0], t.out[0], op,
                                              nullptr);
    });
    return b;
}

}  // namespace tessera::qcom_ml::detail
