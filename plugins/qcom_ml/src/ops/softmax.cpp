// ops/softmax.cpp: softmax on CLML's softmax op.
#include <set>

#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

built_op build_softmax(const build_context& ctx, const op::softmax& sm, const node_tensors& t) {
    if (sm.log()) decline(TSR_REASON_ATTRIBUTE, "log-softmax: CLML has the accurate softmax only");
    if (sm.mask()) decline(TSR_REASON_ATTRIBUTE, "masked softmax: CLML has no mask");
    if (sm.beta() != 1.0f)
        decline(TSR_REASON_ATTRIBUTE, "beta " + std::to_string(sm.beta()) +
                                          ": CLML's softmax has no input scale (softmax(beta x))");
    const tensor_desc& src = t.in_descs[0];
    const auto shape = map_shape(src);
    if (shape->five_d) decline(TSR_REASON_SHAPE, "5-D softmax");
    const int a = absolute_axis(sm.axis(), src.rank());
    // CLML axes the normalisation covers; axes of extent 1 may be counted either way.
    std::set<int> covered;
    for (int i = a; i < a + sm.axis_count(); ++i)
        covered.insert(shape->axis_of[static_cast<std::size_t>(i)]);
    const cl_uint extent[4] = {shape->n, shape->c, shape->h, shape->w};
    auto matches = [&](std::set<int> mode_axes) {
        for (int ax = 0; ax < 4; ++ax)
            if (extent[ax] > 1 && covered.count(ax) != mode_axes.count(ax)) return false;
        return true;
    };
    cl_softmax_mode_qcom mode;
    if (matches({1}))
        mode = CL_SOFTMAX_MODE_CHANNEL_QCOM;
    else if (matches({1, 2, 3}))
        mode = CL_SOFTMAX_MODE_INSTANCE_QCOM;
    else if (matches({2, 3}))
        mode = CL_SOFTMAX_MODE_SPATIAL_QCOM;
    else
        decline(TSR_REASON_ATTRIBUTE,
                "softmax over these axes is none of CLML's channel, instance and spatial modes");
    const cl_ml_op_softmax_desc_qcom d{CL_SOFTMAX_ALGORITHM_ACCURATE_QCOM, mode,
                                       arithmetic_for(src.type())};
    built_op b;
    bind_node(b, t);
    create(b, "clCreateMLOpSoftmaxQCOM", [&](cl_ml_op_qcom* op) {
        return clml_v1()->clCreateMLOpSoftmaxQCOM(ctx.context, nullptr, &d, t.in[0], t.out[0], op,
                                                  nullptr);
    });
    return b;
}

}  // namespace

void state_softmax(router& r) {
    state_built<op::softmax>(r, &build_softmax);
}

}  // namespace tessera::plugins::qcom_ml
