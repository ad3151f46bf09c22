// ops/batchnorm.cpp: batchnorm on CLML's batch-norm op.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_batchnorm(const build_context& ctx, const op::batchnorm& bn, const node_tensors& t) {
    if (bn.kind() != batchnorm_kind::statistics)
        decline(TSR_REASON_ATTRIBUTE,
                "affine batchnorm (y = a*x + b): CLML's batchnorm takes statistics");
    if (bn.fused_activation().kind != activation_kind::none)
        decline(TSR_REASON_ATTRIBUTE,
                "fused activation: CLML fuses activations into convolutions only");
    const dtype type = t.in_descs[0].type();
    const cl_ml_op_batchnorm_desc_qcom d{CL_BATCHNORM_MODE_SPATIAL_QCOM, arithmetic_for(type)};
    const cl_ml_op_properties_qcom props[] = {CL_ML_OP_BATCH_NORM_OP_EPSILON_QCOM,
                                              float_property(bn.epsilon()), 0};
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

}  // namespace

void state_batchnorm(router& r) {
    state_built<op::batchnorm>(r, &build_batchnorm);
}

}  // namespace tessera::plugins::qcom_ml
