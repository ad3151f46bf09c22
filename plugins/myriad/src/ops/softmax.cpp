// ops/softmax.cpp: softmax as the IR layer "SoftMax" (axis), for bindings of that type (no
// shipped kernel). Tessera's vectors are the flattened dims [axis, axis + axis_count) of src seen
// as [outer, length, inner]; the layer sees the same row-major memory as [outer, length, 1, inner]
// with axis 1, so one binding for axis 1 serves every axis and rank. SoftMax has no input scale,
// log form or mask: beta other than 1, log-softmax and masks are declined.
#include "tessera/ops/softmax.hpp"
#include "ops.hpp"

namespace tessera::plugins::myriad {

namespace {

layer_request describe_softmax(const op::softmax& o, const std::vector<tensor_desc>& inputs,
                               const std::vector<tensor_desc>&) {
    if (inputs.size() != 1) decline(TSR_REASON_INVALID, "softmax takes one input");
    if (o.log()) decline(TSR_REASON_ATTRIBUTE, "log-softmax has no SoftMax parameter");
    if (o.mask() != 0) decline(TSR_REASON_ATTRIBUTE, "a mask has no SoftMax parameter");
    if (o.beta() != 1.0f)
        decline(TSR_REASON_ATTRIBUTE,
                "an input scale beta " + ir_number(o.beta()) + " has no SoftMax parameter");
    const tensor_desc& src = inputs[0];
    if (src.type() != dtype::f32 && src.type() != dtype::f16)
        decline(TSR_REASON_DTYPE, "SoftMax here takes f32 or f16 tensors");
    const op::softmax::geometry_t g = o.geometry(src);
    layer_request r;
    r.type = "SoftMax";
    r.params = {{"axis", "1"}};
    r.ports = {0};
    r.port_views = {{g.outer, g.length, 1, g.inner}};
    r.output_view = {g.outer, g.length, 1, g.inner};
    return r;
}

}  // namespace

void state_softmax(router& r) {
    state_layer<op::softmax>(r, &describe_softmax);
}

}  // namespace tessera::plugins::myriad
