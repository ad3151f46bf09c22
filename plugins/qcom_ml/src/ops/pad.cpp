// ops/pad.cpp: pad on CLML's pad op.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_pad(const build_context& ctx, const op::pad& p, const node_tensors& t) {
    const tensor_desc& src = t.in_descs[0];
    if (src.rank() != 4)
        decline(TSR_REASON_SHAPE, "pad of a rank-" + std::to_string(src.rank()) +
                                      " tensor: CLML pads H and W of 4-D tensors");
    if (p.pad_before(0) || p.pad_after(0) || p.pad_before(1) || p.pad_after(1))
        decline(TSR_REASON_ATTRIBUTE, "padding N or C: CLML pads H and W only");
    cl_ml_op_pad_desc_qcom d{};
    // Tessera numbers pad modes as CLML does.
    d.pad_mode = static_cast<cl_pad_mode_qcom>(to_c(p.kind()));
    d.paddings_shape[0] = 2;
    d.paddings_shape[1] = 2;
    d.paddings[0] = static_cast<cl_uint>(p.pad_before(3));
    d.paddings[1] = static_cast<cl_uint>(p.pad_after(3));
    d.paddings[2] = static_cast<cl_uint>(p.pad_before(2));
    d.paddings[3] = static_cast<cl_uint>(p.pad_after(2));
    d.arithmetic_mode = arithmetic_for(src.type());
    const cl_ml_op_properties_qcom props[] = {CL_ML_OP_PAD_OP_CONSTANT_VALUE_QCOM,
                                              float_property(static_cast<float>(p.value())), 0};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpPadQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpPadQCOM(ctx.context, props, &d, t.in[0], t.out[0], op,
                                              nullptr);
    });
    return b;
}

}  // namespace

void state_pad(router& r) {
    state_built<op::pad>(r, &build_pad);
}

}  // namespace tessera::plugins::qcom_ml
