// ops/binary.cpp: element-wise binary ops on CLML's binary op.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_binary(const build_context& ctx, const op::binary& bo, const node_tensors& t) {
    if (bo.kind() == binary_kind::pow) decline(TSR_REASON_ATTRIBUTE, "CLML has no binary pow");
    if (bo.gamma() != 0.0f)
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
    // Tessera numbers binary ops as CLML does.
    d.binary_op = static_cast<cl_binary_op_qcom>(to_c(bo.kind()));
    d.alpha = f32_value(bo.alpha());
    d.beta = f32_value(bo.beta());
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

}  // namespace

void state_binary(router& r) {
    state_built<op::binary>(r, &build_binary);
}

}  // namespace tessera::plugins::qcom_ml
