// ops/fill.cpp: fill on CLML's fill op.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_fill(const build_context& ctx, const op::fill& f, const node_tensors& t) {
    const cl_ml_op_fill_desc_qcom d{f32_value(static_cast<float>(f.value())),
                                    arithmetic_for(t.out_descs[0].type())};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpFillQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpFillQCOM(ctx.context, nullptr, &d, t.out[0], op, nullptr);
    });
    return b;
}

}  // namespace

void state_fill(router& r) {
    state_built<op::fill>(r, &build_fill);
}

}  // namespace tessera::plugins::qcom_ml
