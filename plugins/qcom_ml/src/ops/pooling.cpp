// ops/pooling.cpp: average and max pooling on CLML's pooling op.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_pooling(const build_context& ctx, const op::pooling& p, const node_tensors& t) {
    const tensor_desc& src = t.in_descs[0];
    const auto g = p.geometry(src);
    if (p.rounding_mode() == output_rounding::ceil && !p.global()) {
        op::pooling floor_op = p;
        floor_op.rounding_mode(output_rounding::floor);
        const auto f = floor_op.geometry(src);
        if (f.y.out != g.y.out || f.x.out != g.x.out)
            decline(TSR_REASON_ATTRIBUTE,
                    "ceil output rounding that adds a window (CLML's partial-window rule is "
                    "unspecified)");
    }
    cl_ml_op_pooling_desc_qcom d{};
    // Tessera numbers pooling modes as CLML does.
    d.mode = static_cast<cl_pooling_mode_qcom>(to_c(p.kind()));
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

}  // namespace

void state_pooling(router& r) {
    state_built<op::pooling>(r, &build_pooling);
}

}  // namespace tessera::plugins::qcom_ml
