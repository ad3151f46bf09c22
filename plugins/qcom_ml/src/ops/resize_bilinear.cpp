// ops/resize_bilinear.cpp: bilinear resize on CLML's resize op.
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_resize_bilinear(const build_context& ctx, const op::resize_bilinear& r,
                               const node_tensors& t) {
    const cl_ml_op_resize_bilinear_desc_qcom d{
        static_cast<cl_bool>(r.align_corners() ? CL_TRUE : CL_FALSE),
        static_cast<cl_bool>(r.half_pixel_centers() ? CL_TRUE : CL_FALSE),
        arithmetic_for(t.in_descs[0].type())};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpResizeBilinearQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpResizeBilinearQCOM(ctx.context, nullptr, &d, t.in[0],
                                                         t.out[0], op, nullptr);
    });
    return b;
}

}  // namespace

void state_resize_bilinear(router& r) {
    state_built<op::resize_bilinear>(r, &build_resize_bilinear);
}

}  // namespace tessera::plugins::qcom_ml
