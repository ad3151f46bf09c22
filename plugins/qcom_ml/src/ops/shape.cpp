// ops/shape.cpp: permute, transpose, reshape and depth-to-space on CLML's permute, reshape and
// depth-to-space ops.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

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
    const int a = absolute_axis(tr.dim_a(), src.rank()), c = absolute_axis(tr.dim_b(), src.rank());
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
    if (ds.kind() != depth_to_space_kind::dcr)
        decline(TSR_REASON_ATTRIBUTE, "CRD depth-to-space: CLML implements DCR only");
    const cl_ml_op_depthtospace_desc_qcom d{static_cast<cl_uint>(ds.block_size()),
                                            arithmetic_for(t.in_descs[0].type())};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpDepthToSpaceQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpDepthToSpaceQCOM(ctx.context, nullptr, &d, t.in[0], t.out[0],
                                                       op, nullptr);
    });
    return b;
}

built_op build_permute_op(const build_context& ctx, const op::permute& o, const node_tensors& t) {
    return build_permute(ctx, o.order(), t);
}

built_op build_reshape_op(const build_context& ctx, const op::reshape&, const node_tensors& t) {
    return build_reshape(ctx, t);
}

}  // namespace

void state_shape(router& r) {
    state_built<op::permute>(r, &build_permute_op);
    state_built<op::transpose>(r, &build_transpose);
    state_built<op::reshape>(r, &build_reshape_op);
    state_built<op::depth_to_space>(r, &build_depth_to_space);
}

}  // namespace tessera::plugins::qcom_ml
