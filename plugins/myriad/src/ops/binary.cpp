// ops/binary.cpp: binary add, sub, mul, div, max, min as the IR layer "Eltwise" (operation sum,
// sub, mul, div, max, min) on two floating tensors of one shape. Broadcasting, the scales alpha
// and beta and the accumulation gamma*C have no Eltwise parameter; integer tensors (rounding and
// overflow policies) are declined too.
#include "ops.hpp"
#include "tessera/ops/elementwise.hpp"

namespace tessera::plugins::myriad {

namespace {

layer_request describe_binary(const op::binary& b, const std::vector<tensor_desc>& inputs,
                              const std::vector<tensor_desc>&) {
    const tsr_binary_params& p = b;  // the C fields, whatever accessors the descriptor has
    if (p.alpha != 1.0f || p.beta != 1.0f || p.gamma != 0.0f)
        decline(TSR_REASON_ATTRIBUTE, "scales alpha, beta and gamma*C have no Eltwise parameter");
    if (inputs.size() != 2) decline(TSR_REASON_ATTRIBUTE, "Eltwise takes two inputs here");
    if (inputs[0].dims() != inputs[1].dims())
        decline(TSR_REASON_SHAPE, "broadcasting (" + inputs[0].dims().to_string() + " and " +
                                      inputs[1].dims().to_string() + ") has no Eltwise form");
    if (inputs[0].type() != dtype::f32 && inputs[0].type() != dtype::f16)
        decline(TSR_REASON_DTYPE, "Eltwise here takes f32 or f16 tensors");
    layer_request r;
    r.type = "Eltwise";
    switch (p.op) {
        case TSR_BINARY_ADD:
            r.params = {{"operation", "sum"}};
            break;
        case TSR_BINARY_SUB:
            r.params = {{"operation", "sub"}};
            break;
        case TSR_BINARY_MUL:
            r.params = {{"operation", "mul"}};
            break;
        case TSR_BINARY_DIV:
            r.params = {{"operation", "div"}};
            break;
        case TSR_BINARY_MAX:
            r.params = {{"operation", "max"}};
            break;
        case TSR_BINARY_MIN:
            r.params = {{"operation", "min"}};
            break;
        default:
            decline(TSR_REASON_INVALID, "unknown binary op " + std::to_string(p.op));
    }
    r.ports = {0, 1};
    return r;
}

}  // namespace

void state_binary(router& r) {
    state_layer<op::binary>(r, &describe_binary);
}

}  // namespace tessera::plugins::myriad
