// ops/concat.cpp: concat on CLML's concatenation op.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_concat(const build_context& ctx, const op::concat& c, const node_tensors& t) {
    const tensor_desc& out = t.out_descs[0];
    const int axis = absolute_axis(c.axis(), out.rank());
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

}  // namespace

void state_concat(router& r) {
    state_built<op::concat>(r, &build_concat);
}

}  // namespace tessera::plugins::qcom_ml
